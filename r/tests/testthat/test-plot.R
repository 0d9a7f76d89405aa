## plot(fit), image(fit) and plot_fit(fit): every panel drawn to a png, and
## the data each returns checked against the fit's own accessors.

drawn <- function(expr, width = 900, height = 800) {
    path <- tempfile(fileext = ".png")
    grDevices::png(path, width = width, height = height)
    value <- tryCatch(force(expr), finally = grDevices::dev.off())
    expect_gt(file.size(path), 5000)   # something was drawn
    unlink(path)
    value
}

test_that("plot(fit) draws BAS's four panels and returns their data", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=47", modelprior = "uniform", progress = FALSE)
    r <- drawn({ graphics::par(mfrow = c(2, 2)); plot(f) })
    expect_identical(names(r), c("residuals", "probabilities", "complexity", "inclusion"))
    ## Residuals vs Fitted: the BMA fitted values and y minus them
    expect_equal(r$residuals$fitted, unname(fitted(f, estimator = "BMA")))
    expect_equal(r$residuals$residual, u$y - unname(fitted(f)))
    ## Model Probabilities: cumulative over the listed models, the share they hold said
    tm <- summary(f, n.models = 20)$models
    expect_equal(r$probabilities$cumulative, cumsum(tm$prob))
    expect_equal(attr(r$probabilities, "covered"), sum(tm$prob))
    expect_lt(attr(r$probabilities, "covered"), 1)
    ## Model Complexity: the models' log marginal likelihoods against their sizes
    expect_identical(attr(r$complexity, "what"), "log_ml")
    expect_equal(r$complexity$value, tm$log_ml)
    expect_identical(r$complexity$size, as.integer(tm$size))
    expect_identical(r$inclusion, pip(f))
    ## the other panels, by number and by name
    r2 <- drawn({ graphics::par(mfrow = c(2, 2)); plot(f, which = c(5, 7)) })
    expect_equal(r2$size$prob, as.numeric(f$doc$model_size$prob))
    expect_true(all(names(r2$fit) %in% variable.names(f, estimator = "MPM")))
    expect_identical(names(drawn(plot(f, which = "fit"))), "fit")
    expect_message(p <- drawn(plot(f, which = c(4, 6))), "no draws kept")
    expect_identical(names(p), "inclusion")
    expect_error(plot(f, which = 0), "which", class = "basel_error")
})

test_that("image(fit) sizes the models by probability in BAS's orientation", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=47", modelprior = "uniform", progress = FALSE)
    tm <- summary(f, n.models = 20)$models
    for (rot in c(TRUE, FALSE)) {
        im <- drawn(image(f, rotate = rot))
        expect_equal(sum(im$widths), 1)
        expect_equal(im$widths, tm$prob / sum(tm$prob))
        expect_identical(colnames(im$which), names(pip(f)))   # the fit's atom order
        expect_identical(unname(rowSums(im$which)), as.numeric(tm$size))
        expect_equal(im$log_odds, log(tm$prob / tm$prob[1]))
    }
    expect_equal(drawn(image(f, prob = FALSE, top.models = 5))$widths, rep(0.2, 5))
})

test_that("a kernel fit: plot_fit draws data, mean, band and centres; plot(fit) says what the listed models hold", {
    s <- read.csv(repo_file("data", "regression", "sinc_vermaak_train.csv"))
    s <- s[s$rep <= 4, c("x", "y")]
    ## a short run (its R-hat and ESS warnings are not what is tested here)
    f <- suppressWarnings(basel(y ~ x, s, basis = "gauss:r=1.6", prior = "ridge", modelprior = "poisson:mean=5",
                                iter = 4000, seed = 1, progress = FALSE), classes = "basel_fit_warning")
    r <- drawn(plot_fit(f))
    g <- r$x
    expect_identical(nrow(g), 200L)
    expect_true(all(g$lower <= g$mean & g$mean <= g$upper))
    expect_lte(min(g$x), min(s$x))
    expect_gte(max(g$x), max(s$x))
    ## the library's predictions, as predict() gives them
    p <- predict(f, data.frame(x = g$x[c(1, 100, 200)]), interval = "predict")
    expect_equal(unname(p$interval[, "fit"]), g$mean[c(1, 100, 200)])
    expect_equal(unname(p$interval[, "upr"]), g$upper[c(1, 100, 200)])
    ## the prevalence model's centres: the kernels sit at the training rows they name
    sel <- unlist(f$doc$selected$prevalence) + 1L
    expect_equal(sort(attr(g, "centres")), sort(s$x[sel]))
    r <- drawn(plot_fit(f, centres = "projection", estimator = "HPM", level = 0.5))
    expect_equal(sort(attr(r$x, "centres")), sort(s$x[unlist(f$doc$selected$projection) + 1L]))
    expect_true(all(r$x$upper - r$x$lower < g$upper - g$lower))
    ## plot(): the listed models hold little of a kernel posterior; no log
    ## marginal under the sampled ridge prior, so its log posterior
    pl <- drawn({ graphics::par(mfrow = c(2, 2)); plot(f) })
    expect_lt(attr(pl$probabilities, "covered"), 0.5)
    expect_identical(attr(pl$complexity, "what"), "log_post")
    expect_identical(length(pl$inclusion), nrow(s))
    ## a fit read back from FIT.json holds no training rows: plot_fit(fit, data)
    path <- tempfile(fileext = ".json")
    write_fit(f, path)
    f2 <- read_fit(path)
    expect_message(drawn(plot(f2, which = c(1, 4))), "training rows")
    expect_error(plot_fit(f2), "plot_fit\\(fit, data\\)", class = "basel_error")
    expect_equal(drawn(plot_fit(f2, s))$x, g)
    unlink(path)
    ## anneal: one network, no listed models; its centres are marked
    a <- basel(y ~ x, s[1:100, ], method = "anneal", seed = 1, progress = FALSE)
    msg <- capture_messages(ra <- drawn(plot(a)))
    expect_length(msg, 3)   # Model Probabilities, Model Complexity, Inclusion Probabilities
    expect_match(msg, "no \"Model Probabilities\"|no \"Model Complexity\"|no \"Inclusion Probabilities\"")
    expect_identical(names(ra), "residuals")
    expect_length(attr(drawn(plot_fit(a))$x, "centres"), a$doc$k)
})

test_that("plot_fit of several inputs: one slice per input, the others at their medians", {
    set.seed(3)
    d <- data.frame(x1 = runif(120, -3, 3), x2 = runif(120, 0, 2), b = rbinom(120, 1, 0.5))
    d$y <- sin(d$x1) + 0.5 * d$x2 + 0.3 * d$b + rnorm(120, sd = 0.1)
    f <- suppressWarnings(basel(y ~ ., d, basis = "gauss", iter = 2000, seed = 2, progress = FALSE),
                          classes = "basel_fit_warning")
    r <- drawn(plot_fit(f))
    expect_identical(names(r), c("x1", "x2"))   # b has two values: held, not drawn
    expect_equal(attr(r, "held"), apply(f$x, 2, stats::median))
    for (v in r) expect_true(all(v$lower <= v$mean & v$mean <= v$upper))
    ## the slice along x1 is predict()'s at the others' medians
    nd <- data.frame(x1 = r$x1$x[c(1, 50)], x2 = median(d$x2), b = median(d$b))
    expect_equal(unname(predict(f, nd)$fit), r$x1$mean[c(1, 50)])
    rm_ <- drawn(plot_fit(f, inputs = "x2", at = "mean"))
    expect_equal(attr(rm_, "held"), colMeans(f$x))
    expect_error(plot_fit(f, inputs = "b"), "varying inputs", class = "basel_error")
})

test_that("plot() draws a fit whose library dropped rows with a missing value", {
    d <- data.frame(a = c(1.2, 2.3, 3.1, 4.7, 5.2, 6.9, 7.1, 8.8, 9.1, 10.4),
                    y = c(1.1, 2.2, 2.9, 4.4, 5.1, 5.8, 7.3, 8.1, 9.4, 10.2))
    d$a[3] <- NA
    f <- basel(y ~ ., d, method = "enumerate", na.action = na.pass, na = "drop", progress = FALSE)
    grDevices::pdf(NULL)
    on.exit(grDevices::dev.off())
    expect_silent(plot(f, which = 1))
    expect_equal(nobs(f), 9)
})
