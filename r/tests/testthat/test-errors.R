## Bad input is an R error carrying the library's message and position;
## nothing crashes R.
u <- data.frame(a = c(1.2, 2.3, 3.1, 4.7, 5.2, 6.9, 7.1, 8.8), b = c(2.1, 1.4, 3.3, 0.7, 5.5, 4.2, 6.6, 7.9),
                y = c(1.1, 2.2, 2.9, 4.4, 5.1, 5.8, 7.3, 8.1))

test_that("an unknown option is an error naming it", {
    e <- expect_error(basel(y ~ ., u, foo = 1, progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "unknown option 'foo'")
})

test_that("a bad prior spec is the library's error", {
    e <- expect_error(basel(y ~ ., u, method = "enumerate", prior = "g:h=3", progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "unknown key 'h'")
    expect_equal(e$status, "BASEL_EINVAL")
    expect_error(basel(y ~ ., u, prior = "nonsense", progress = FALSE), class = "basel_error")
})

test_that("an option the method does not read is an error", {
    e <- expect_error(basel(y ~ ., u, method = "enumerate", iter = 100, progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "iter is not read by method enumerate \\(see basel_options\\(\"enumerate\"\\)\\)")
})

test_that("a logical is a switch's value, never a count", {
    e <- expect_error(basel(y ~ ., u, method = "rj", chains = TRUE, progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "chains 'true' is not a number")
    f <- basel(y ~ ., u, method = "enumerate", standardize = FALSE, progress = FALSE)
    expect_equal(f$doc$settings$standardize, "no")
})

test_that("a value that is not a number names its row and column", {
    v <- u
    v$b[3] <- Inf
    e <- expect_error(basel(y ~ ., v, method = "enumerate", progress = FALSE), class = "basel_error")
    expect_equal(e$line, 3)
    expect_match(conditionMessage(e), "'b'")
    expect_equal(e$file, "<data>")
})

test_that("a non-numeric response or column is refused", {
    v <- u
    v$y <- letters[1:8]
    expect_error(basel(y ~ ., v, method = "bd", progress = FALSE), "not numeric", class = "basel_error")
    v <- u
    v$b <- I(as.list(v$b))
    expect_error(basel(y ~ ., v, progress = FALSE))
    expect_error(basel(y ~ ., u, method = "nosuch", progress = FALSE), class = "basel_error")
})

test_that("missing values follow na.action and the library's na option", {
    v <- u
    v$a[2] <- NA
    f <- basel(y ~ ., v, method = "enumerate", progress = FALSE)          # na.omit: dropped in R
    expect_equal(f$doc$n, 7)
    expect_equal(as.integer(f$na.action), 2L)
    e <- expect_error(basel(y ~ ., v, method = "enumerate", na.action = na.pass, progress = FALSE),
                      class = "basel_error")
    expect_match(conditionMessage(e), "missing")
    g <- basel(y ~ ., v, method = "enumerate", na.action = na.pass, na = "drop", progress = FALSE)
    expect_equal(g$doc$n, 7)
    expect_identical(pip(f), pip(g))
})

## what the formula or lm()'s arguments ask that basel would drop silently
## is an error (a walkthrough found y ~ x1 + offset(x2) fitted as y ~ x1)
test_that("offset(), '- 1', weights and subset are refused, not ignored", {
    e <- expect_error(basel(y ~ a + offset(b), u, method = "enumerate", progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "offset\\(\\) is not supported")
    e <- expect_error(basel(y ~ . - 1, u, method = "enumerate", progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "removes the intercept")
    e <- expect_error(basel(y ~ ., u, method = "enumerate", weights = rep(1, 8), progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "weights = is not supported")
    e <- expect_error(basel(y ~ ., u, method = "enumerate", subset = a > 2, progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "subset = is not supported")
})

test_that("newdata with a column of another type says which, as predict.lm", {
    f <- basel(y ~ ., u, method = "enumerate", progress = FALSE)
    nd <- u[1:3, ]
    nd$a <- as.character(nd$a)
    expect_error(predict(f, nd), "variable 'a' was fitted with type \"numeric\" but type \"character\" was supplied")
})

test_that("se.fit under a prior mixing over g is an error that says so; the means are given", {
    f <- basel(y ~ ., u, method = "enumerate", prior = "hyper-g", progress = FALSE)
    e <- expect_error(predict(f, u[1:3, ], se.fit = TRUE), class = "basel_error")
    expect_match(conditionMessage(e), "se.fit is not computed under prior 'hyper-g")
    expect_length(predict(f, u[1:3, ])$fit, 3)
})
