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
