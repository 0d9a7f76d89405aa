test_that("print, summary, coef, predict, plot, image and diagnostics run", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "bd", iter = 500, chains = 2, seed = 5, threads = 1, progress = FALSE)
    expect_output(print(f), "inclusion probabilities")
    s <- summary(f)
    expect_output(print(s), "Top models")
    expect_true(all(c("model", "prob", "BF") %in% names(s$models)))
    expect_true(all(s$models$BF > 0) && any(abs(s$models$BF - 1) < 1e-12))
    cf <- coef(f)
    expect_equal(nrow(cf), 16)
    expect_identical(rownames(cf), cf$term)        # rows by term: coef(f)["Ineq", ]
    expect_equal(cf["Ineq", "mean"], cf$mean[cf$term == "Ineq"])
    expect_output(print(cf["Ineq", c("pip", "mean")]), "Ineq")
    ## se.fit alone (no interval): the sds without the mixture's quantiles, the same numbers
    expect_equal(predict(f, u[1:4, ], se.fit = TRUE)$se.fit,
                 predict(f, u[1:4, ], se.fit = TRUE, interval = "predict")$se.fit, tolerance = 1e-12)
    p <- predict(f, u[1:4, ], estimator = "MPM", se.fit = TRUE, interval = "predict")
    expect_equal(dim(p$interval), c(4, 3))
    expect_true(all(p$interval[, "lwr"] < p$fit & p$fit < p$interval[, "upr"]))
    expect_length(p$se.fit, 4)
    q <- predict(f, u[1:4, ], interval = "confidence", se.fit = TRUE)
    w <- predict(f, u[1:4, ], interval = "predict")
    expect_true(all(q$interval[, "upr"] - q$interval[, "lwr"] < w$interval[, "upr"] - w$interval[, "lwr"]))
    expect_length(q$se.fit, 4)
    for (est in c("BMA", "HPM", "prevalence", "projection")) expect_length(predict(f, u[1:3, ], estimator = est)$fit, 3)
    grDevices::pdf(NULL)
    on.exit(grDevices::dev.off())
    expect_silent(plot(f))
    expect_equal(dim(image(f)$which), c(length(f$doc$models), 15))
    dg <- diagnostics(f, plot = TRUE)
    expect_true(all(c("pip", "chain1", "chain2") %in% names(dg$table)))
})

test_that("a factor is one atom (its levels in or out together); predict maps the training levels", {
    set.seed(1)
    d <- data.frame(x = rnorm(40), g = factor(sample(c("a", "b", "c"), 40, TRUE)))
    d$y <- 1 + 2 * d$x + (d$g == "b") + rnorm(40, sd = 0.3)
    f <- basel(y ~ x + g, d, method = "enumerate", progress = FALSE)
    expect_equal(names(pip(f)), c("x", "g"))
    expect_equal(unlist(f$doc$inputs), c("x", "g:b", "g:c"))
    p <- predict(f, data.frame(x = 0, g = factor("c", levels = c("c"))))
    q <- predict(f, data.frame(x = 0, g = "c"))
    expect_length(p$fit, 1)
    expect_identical(p$fit, q$fit)
    expect_error(predict(f, data.frame(x = 0, g = "d")), "not seen in training|new level", class = "error")
})

test_that("a saved fit predicts after readRDS", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", progress = FALSE)
    path <- tempfile(fileext = ".rds")
    saveRDS(f, path)
    g <- readRDS(path)
    expect_identical(predict(g, u[1:3, ])$fit, predict(f, u[1:3, ])$fit)
})

test_that("the options catalogue", {
    expect_true("model-prior" %in% basel_options()$option)
    o <- basel_options("enumerate")
    expect_equal(o$default[o$option == "prior"], "g")
    expect_true("bd" %in% basel_methods()$method)
    ## printed one option a paragraph, wrapped to the console
    out <- capture.output(print(basel_options("bd")))
    expect_true(any(grepl("^iter \\[default: ", out)))
    expect_lte(max(nchar(out)), getOption("width"))
})

test_that("confint reads the document's coefficient table, or says it has none", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", progress = FALSE)
    if (is.null(f$doc$coefficients)) {
        expect_error(confint(f), "no coefficient intervals", class = "basel_error")
    } else {
        ci <- confint(f)
        expect_equal(dim(ci), c(16L, 3L))
        expect_true(all(ci[, 1] <= ci[, 3] & ci[, 3] <= ci[, 2]))
    }
})

test_that("verbose = TRUE shows a progress bar", {
    u <- uscrime()
    out <- capture.output(f <- basel(y ~ ., u, method = "bd", iter = 500, threads = 1, progress = FALSE, verbose = TRUE))
    expect_true(any(grepl("100%", out)))
})

test_that("a row with a missing input predicts NA in its place; the others as alone", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", progress = FALSE)
    nd <- u[1:6, ]
    nd$Po1[2] <- NA
    nd$Ed[5] <- NA
    p <- predict(f, nd, interval = "predict", se.fit = TRUE)
    full <- predict(f, u[1:6, ], interval = "predict", se.fit = TRUE)
    expect_length(p$fit, 6)
    expect_true(all(is.na(p$fit[c(2, 5)])) && all(is.na(p$interval[c(2, 5), ])))
    expect_equal(p$fit[-c(2, 5)], full$fit[-c(2, 5)])
    expect_equal(p$interval[-c(2, 5), ], full$interval[-c(2, 5), ])
})

## se.fit is the library's (basel_pred_se) under every prior, not only the
## g-prior. The exact relation: a single model's (HPM, MPM) interval for the
## regression function is fit -+ q se.fit, q the Student-t quantile at
## (1 + level) / 2 with the model's df (the document's predictor block), or
## the normal's for a ridge prior with sigma^2 given (no df: a normal).
test_that("se.fit is the half-width of a single model's mean interval over its quantile, under ridge, hier and BIC", {
    u <- uscrime()
    for (prior in c("ridge:lambda=2,sigma2=0.05", "hier", "bic", "ridge")) {
        f <- if (prior == "ridge") basel(y ~ ., u, method = "bd", prior = prior, iter = 400, seed = 3, progress = FALSE)
             else basel(y ~ ., u, method = "enumerate", prior = prior, progress = FALSE)  # (enumerate: fixed hyperparameters)
        for (est in c("HPM", "MPM")) {
            blk <- f$doc$engine$predictor[[c(HPM = "hpm", MPM = "median")[[est]]]]
            q <- if (is.null(blk$df)) qnorm(0.95) else qt(0.95, blk$df)
            p <- predict(f, u[1:6, ], estimator = est, interval = "confidence", level = 0.9, se.fit = TRUE)
            expect_length(p$se.fit, 6)
            expect_equal(unname(p$interval[, "upr"] - p$fit) / q, unname(p$se.fit), tolerance = 1e-10, info = paste(prior, est))
            expect_equal(unname(p$fit - p$interval[, "lwr"]) / q, unname(p$se.fit), tolerance = 1e-10, info = paste(prior, est))
            ## the sd of f(x) whatever the interval's kind
            expect_identical(predict(f, u[1:6, ], estimator = est, interval = "predict", se.fit = TRUE)$se.fit, p$se.fit)
        }
        b <- predict(f, u[1:6, ], interval = "confidence", se.fit = TRUE)$se.fit
        expect_true(all(is.finite(b) & b > 0), info = prior)
    }
})

test_that("credible sets count signals (x6 beside x7 on lin_p15_n200), with names and 1-based atoms", {
    d <- read.csv(repo_file("data", "linear", "lin_p15_n200.csv"))
    f <- basel(y ~ ., d, method = "enumerate", prior = "g:g=200", modelprior = "uniform", progress = FALSE)
    cs <- credible_sets(f)
    ## susieR's five sets (tests/cli/test_credible_susie.sh); x6 correlates 0.56 with x7
    expect_setequal(cs$inputs, c("x3", "x6", "x7", "x9", "x14"))
    expect_equal(unclass(cs$atoms), lapply(f$doc$credible_sets$sets, function(s) as.integer(unlist(s$atoms)) + 1L))
    expect_equal(cs$inputs, vapply(cs$atoms, function(a) paste(names(d)[a], collapse = " + "), ""))
    expect_true(all(cs$coverage >= 0.95 & cs$purity >= 0.5))
})

test_that("credible sets, models and draws come from the library's accessors", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=47", progress = FALSE)
    cs <- credible_sets(f)
    expect_equal(nrow(cs), length(f$doc$credible_sets$sets))
    expect_equal(cs$coverage, vapply(f$doc$credible_sets$sets, function(s) s$coverage, 0))
    m <- summary(f)$models
    expect_equal(log(m$BF), vapply(f$doc$models, function(x) x$log_bf_best, 0))
    s <- basel(y ~ ., u, method = "ssvs", iter = 300, seed = 2, progress = FALSE)
    expect_true(all(is.finite(summary(s)$models$BF)))  # no marginal likelihoods: from the model prior
    expect_true(is.data.frame(draws(s)) && all(c(".chain", "size", "M") %in% names(draws(s))))
})

## The fit's own warnings reach an R user as warning()s of class
## "basel_fit_warning", worded as FIT.json's diagnostics.warnings; a fit
## without any (exact enumeration) signals none (issue 31 item 6).
test_that("a fit's warnings are R warnings, and a clean fit has none", {
    set.seed(3)
    d <- as.data.frame(matrix(rnorm(200 * 20), 200, 20))
    d$y <- 2 * d$V1 - d$V4 + rnorm(200, sd = 0.5)
    got <- character(0)
    f <- withCallingHandlers(
        basel(y ~ ., d, method = "bd", iter = 40, burn = 0, seed = 2, progress = FALSE),
        basel_fit_warning = function(w) {
            got <<- c(got, conditionMessage(w))
            invokeRestart("muffleWarning")
        })
    want <- unlist(f$doc$diagnostics$warnings)
    expect_gt(length(want), 0)
    ## worded with R's arguments: "run longer (iter)", not the command line's "(--iter)"
    expect_equal(got, paste0("basel: ", gsub("--", "", want, fixed = TRUE)))
    expect_false(any(grepl("--", got, fixed = TRUE)))
    expect_output(print(f), "warnings:")
    expect_silent(e <- basel(y ~ V1 + V2 + V3 + V4, d, method = "enumerate", progress = FALSE))
    expect_length(unlist(e$doc$diagnostics$warnings), 0)
})

## update() refits with the changed arguments (R's update.default on the
## fit's call), as fitting them afresh does.
test_that("update() refits with changed arguments and formula", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=47", modelprior = "uniform", progress = FALSE)
    g <- update(f, prior = "bic")
    direct <- basel(y ~ ., u, method = "enumerate", prior = "bic", modelprior = "uniform", progress = FALSE)
    expect_identical(g$doc$prior, direct$doc$prior)
    expect_identical(pip(g), pip(direct))
    expect_false(identical(pip(g), pip(f)))
    h <- update(f, . ~ . - Time - So)
    expect_identical(names(pip(h)), setdiff(names(u), c("y", "Time", "So")))
    expect_identical(nobs(h), nrow(u))
})

## Training rows: fitted() drops the rows na.action dropped (as lm with
## na.omit); a fit read from FIT.json does not hold them and says so; a
## classifier's residuals are refused.
test_that("fitted and residuals on the rows fitted, or a clear error", {
    u <- uscrime()
    u$Time[3] <- NA
    f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=46", modelprior = "uniform", progress = FALSE)
    expect_identical(nobs(f), nrow(u) - 1L)
    expect_identical(names(fitted(f)), rownames(u)[-3])
    expect_equal(unname(fitted(f)), as.vector(predict(f, u[-3, ])$fit))
    expect_equal(unname(residuals(f)), u$y[-3] - as.vector(predict(f, u[-3, ])$fit))
    path <- tempfile(fileext = ".json")
    write_fit(f, path)
    r <- read_fit(path)
    expect_error(fitted(r), "training inputs", class = "basel_error")
    expect_error(residuals(r), "not held", class = "basel_error")
    unlink(path)
})

## broom's tidy() and glance(), registered when broom is loaded.
test_that("broom's tidy() and glance() read the library's tables", {
    skip_if_not_installed("broom")
    library(broom)
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=47", modelprior = "uniform", progress = FALSE)
    td <- tidy(f)
    cf <- coef(f)
    expect_identical(names(td), c("term", "estimate", "std.error", "p.inclusion"))
    expect_identical(td$term, cf$term)
    expect_identical(td$estimate, cf$mean)
    expect_identical(td$std.error, cf$sd)
    th <- tidy(f, estimator = "HPM", conf.int = TRUE, conf.level = 0.9)
    ci <- confint(coef(f, estimator = "HPM"), level = 0.9)
    expect_identical(th$conf.low, unname(ci[, 1]))
    expect_identical(th$conf.high, unname(ci[, 2]))
    expect_identical(th$estimate, coef(f, estimator = "HPM")$mean)
    gl <- glance(f)
    expect_identical(nrow(gl), 1L)
    expect_identical(gl$nobs, nrow(u))
    expect_identical(gl$n.candidates, 15L)
    expect_identical(gl$method, "enumerate")
    expect_equal(gl$prob.hpm, summary(f)$models$prob[1])
    expect_identical(gl$size.mpm, length(variable.names(f, estimator = "MPM")) - 1L)
})

## plot(coef(fit)): each coefficient's spike at 0 and slab, the slab the
## library's density (basel_fit_coef_density), drawn to a png.
test_that("plot(coef(fit)) draws each coefficient's posterior to a png", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=47", modelprior = "uniform", progress = FALSE)
    for (est in c("BMA", "HPM")) {
        path <- tempfile(fileext = ".png")
        grDevices::png(path, width = 900, height = 900)
        graphics::par(mfrow = c(4, 4))
        res <- plot(coef(f, estimator = est))
        grDevices::dev.off()
        expect_gt(file.size(path), 10000)
        unlink(path)
        expect_identical(dim(res$density), c(500L, 16L))
        ## a slab where the term is in some model, none where it never is
        cf <- coef(f, estimator = est)
        expect_identical(colSums(res$density) > 0, cf$pip > 0)
    }
    expect_error(plot(coef(f), subset = 2, e = 2), "level", class = "basel_error")
})
