## Exact enumeration against BAS (data/linear/bas_uscrime.json, BAS 1.7.5.9000
## on the same logged UScrime, all 2^15 models, uniform model prior).
test_that("enumerate under the g-prior equals BAS's numbers on UScrime", {
    ref <- jsonlite::fromJSON(repo_file("data", "linear", "bas_uscrime.json"), simplifyVector = TRUE)
    g <- ref$priors$`g-prior`
    u <- uscrime()
    expect_equal(names(u)[names(u) != "y"], ref$predictors)
    f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=47", modelprior = "uniform", progress = FALSE)
    expect_lt(max(abs(pip(f) - unlist(g$pip)[names(pip(f))])), 1e-8)
    size <- as.numeric(unlist(f$doc$model_size$prob))
    expect_lt(max(abs(size - unlist(g$model_size_posterior))), 1e-8)
    ## the top models and their probabilities
    top <- summary(f)$models
    bas_top <- vapply(g$top_models$predictors, function(p) paste(p, collapse = " + "), "")
    expect_equal(top$model[1:10], bas_top[1:10])
    expect_lt(max(abs(top$prob[1:10] - g$top_models$postprob[1:10])), 1e-8)
    ## BMA coefficients (posterior means) and predictions
    cf <- coef(f)
    expect_lt(max(abs(cf$mean[-1] - vapply(g$coefficients[ref$predictors], function(c) c$postmean, 0))), 1e-8)
    expect_lt(abs(cf$mean[1] - g$coefficients$Intercept$postmean), 1e-8)
    pr <- predict(f, u[1:5, ], estimator = "BMA")
    expect_lt(max(abs(pr$fit - g$predict$fit)), 1e-8)
})

test_that("AIC and BIC wait for the prior fix", {
    skip("AIC charges c and BIC/MDL c log(n)/2 (branch coef) is not in this base: BAS's BIC/AIC not compared")
})
