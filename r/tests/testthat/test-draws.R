test_that("draws are what posterior reads", {
    skip_if_not_installed("posterior")
    u <- uscrime()
    f <- basel(y ~ ., u, method = "bd", iter = 500, chains = 2, seed = 3, threads = 1, progress = FALSE)
    d <- draws(f)
    expect_true(all(c(".chain", ".iteration", ".draw", names(u)[names(u) != "y"]) %in% names(d)))
    expect_true(all(unlist(d[names(u)[names(u) != "y"]]) %in% c(0, 1)))
    dd <- posterior::as_draws_df(as.data.frame(d))
    expect_equal(posterior::nchains(dd), 2)
    s <- posterior::summarise_draws(dd)
    expect_true("Ineq" %in% s$variable)
    ## frequencies of the draws are near the Rao-Blackwellised PIPs
    expect_lt(max(abs(colMeans(d[names(pip(f))]) - pip(f))), 0.15)
})
