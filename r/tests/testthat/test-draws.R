test_that("draws are what posterior reads", {
    skip_if_not_installed("posterior")
    u <- uscrime()
    f <- basel(y ~ ., u, method = "bd", iter = 500, chains = 2, seed = 3, threads = 1, progress = FALSE)
    d <- draws(f)
    expect_true(all(c(".chain", ".iteration", ".draw", names(u)[names(u) != "y"]) %in% names(d)))
    expect_true(all(unlist(d[names(u)[names(u) != "y"]]) %in% c(0, 1)))
    ## the draws CSV's numbering (docs/FIT.md): .iteration within the chain, .draw over both
    expect_equal(d$.draw, seq_len(nrow(d)))
    expect_true(all(tapply(d$.iteration, d$.chain, function(i) identical(i, seq_along(i)))))
    dd <- posterior::as_draws_df(as.data.frame(d))
    expect_equal(posterior::nchains(dd), 2)
    expect_equal(posterior::niterations(dd) * 2, nrow(d))
    expect_equal(posterior::draw_ids(dd), d$.draw)
    s <- posterior::summarise_draws(dd)
    expect_true("Ineq" %in% s$variable)
    ## frequencies of the draws are near the Rao-Blackwellised PIPs
    expect_lt(max(abs(colMeans(d[names(pip(f))]) - pip(f))), 0.15)
})

test_that("draws hold sigma2 and the coefficients, and log_lik feeds loo", {
    skip_if_not_installed("posterior")
    skip_if_not_installed("loo")
    u <- uscrime()
    f <- basel(y ~ ., u, method = "rj", iter = 20000, chains = 2, seed = 3, threads = 1, progress = FALSE,
               draws = "loglik")
    d <- draws(f)
    x <- setdiff(names(u), "y")
    expect_true(all(c("sigma2", "b_Intercept", paste0("b_", x), "log_lik") %in% names(d)))
    ## an excluded input's coefficient is 0
    expect_true(all(d$b_Ineq[d$Ineq == 0] == 0) && all(d$b_Ineq[d$Ineq == 1] != 0))
    s <- posterior::summarise_draws(posterior::as_draws_df(as.data.frame(d)))
    expect_true(all(c("sigma2", "b_Intercept", "b_Ineq") %in% s$variable))
    ## the draws' means are the coefficient table's model-averaged means:
    ## |mean - table| <= 4 se, se the batch-means standard error (40 batches)
    cf <- coef(f)
    tab <- setNames(cf$mean, ifelse(cf$term == "(Intercept)", "b_Intercept", paste0("b_", cf$term)))
    for (v in names(tab)) {
        b <- d[[v]]
        L <- length(b) %/% 40
        bm <- colMeans(matrix(b[seq_len(40 * L)], L))
        se <- sd(bm) / sqrt(40)
        expect_lte(abs(mean(b) - tab[[v]]), 4 * se, label = v)
    }
    ## the pointwise log-likelihoods: draws x rows, summing to log_lik
    ll <- log_lik(f)
    expect_equal(dim(ll), c(nrow(d), nrow(u)))
    expect_lt(max(abs(rowSums(ll) - d$log_lik) / abs(d$log_lik)), 1e-9)
    ## each is log N(y_i | b_Intercept + x_i' b, sigma2) from the draw's own columns (original scale)
    X <- as.matrix(u[x])
    for (i in c(1, nrow(d) %/% 2, nrow(d))) {
        mu <- d$b_Intercept[i] + drop(X %*% unlist(d[i, paste0("b_", x)]))
        expect_lt(max(abs(dnorm(u$y, mu, sqrt(d$sigma2[i]), log = TRUE) - ll[i, ])), 1e-9)
    }
    ## bayesplot reads the same frame: its intervals of b_ are the draws' own quantiles
    if (requireNamespace("bayesplot", quietly = TRUE)) {
        dd <- posterior::as_draws_df(as.data.frame(d))
        g <- bayesplot::mcmc_intervals_data(dd, regex_pars = "^b_", prob = 0.5, prob_outer = 0.9)
        expect_setequal(as.character(g$parameter), c("b_Intercept", paste0("b_", x)))
        for (v in c("b_Intercept", "b_Ineq")) {
            r <- g[as.character(g$parameter) == v, ]
            expect_equal(unname(c(r$ll, r$m, r$hh)), unname(quantile(d[[v]], c(0.05, 0.5, 0.95))), label = v)
        }
        expect_s3_class(bayesplot::mcmc_intervals(dd, regex_pars = "^b_"), "ggplot")
    }
    r_eff <- loo::relative_eff(exp(ll), chain_id = d$.chain)
    l <- suppressWarnings(loo::loo(ll, r_eff = r_eff))
    expect_true(is.finite(l$estimates["elpd_loo", "Estimate"]))
    ## without draws = "loglik", log_lik() says how to get it
    g <- suppressWarnings(basel(y ~ ., u, method = "bd", iter = 200, seed = 3, threads = 1, progress = FALSE))
    expect_error(log_lik(g), "draws = \"loglik\"")
})
