## GLMs from R (family = "binomial", "multinomial", "poisson"; docs/GLM.md):
## the same library code as `basel fit --family ...`, so the same data,
## settings and seed give the command line's FIT.json byte for byte (hence
## the same PIPs), and the same predictions.

cli_json <- function(cli, args) {
    out <- tempfile(fileext = ".json")
    expect_equal(system2(cli, c("fit", args, "--quiet", "-o", out)), 0)
    out
}
cli_predict <- function(cli, json, csv) {
    out <- tempfile(fileext = ".csv")
    expect_equal(system2(cli, c("predict", json, csv, "-o", out)), 0)
    utils::read.csv(out, check.names = FALSE)
}

test_that("logistic regression on Pima: R and the command line give the same FIT.json, PIPs and probabilities", {
    cli <- basel_cli()
    csv <- repo_file("data", "classification", "pima_tr.csv")
    p <- utils::read.csv(csv)
    f <- basel(class ~ ., p, family = "binomial", method = "rj", iter = 3000, chains = 2, seed = 5, threads = 1,
               progress = FALSE)
    out <- cli_json(cli, c(csv, "--target", "class", "--family", "binomial", "--method", "rj", "--iter", "3000",
                           "--chains", "2", "--seed", "5", "--threads", "1"))
    expect_identical(f$json, paste(readLines(out), collapse = "\n"))
    expect_identical(unname(pip(f)), as.numeric(jsonlite::fromJSON(out)$pip))
    expect_identical(names(pip(f)), c("npreg", "glu", "bp", "skin", "bmi", "ped", "age"))
    ## the default method of a GLM is rj (Python's BayesianLogisticRegression)
    g <- basel(class ~ ., p, family = binomial(), iter = 3000, chains = 2, seed = 5, threads = 1, progress = FALSE)
    expect_identical(g$json, f$json)
    ## model-averaged class probabilities: the command line's p_<class>
    pr <- cli_predict(cli, out, csv)
    prob <- predict(f, p, type = "prob")$fit
    expect_identical(colnames(prob), c("p_No", "p_Yes"))
    expect_equal(unname(prob), unname(as.matrix(pr[c("p_No", "p_Yes")])), tolerance = 1e-12)
    expect_equal(predict(f, p, type = "response")$fit, pr$p_Yes, tolerance = 1e-12)
    cl <- predict(f, p, type = "class")$fit
    expect_identical(levels(cl), c("No", "Yes"))
    expect_identical(as.character(cl), as.character(pr$class))
    ## the GLM coefficient table (log-odds) with the fit's PIPs
    co <- coef(f)
    expect_identical(co$term, c("(Intercept)", names(pip(f))))
    expect_identical(co$pip[-1], unname(pip(f)))
    expect_gt(co$lower[co$term == "glu"], 0)
    s <- capture.output(print(summary(f)))
    expect_true(any(grepl("family binomial", s)))
    expect_true(any(grepl("Coefficients", s)) && any(grepl("^glu ", s)))
    expect_true(any(grepl("family binomial", capture.output(print(f)))))
})

test_that("a 0/1 numeric or logical response is a binomial target too", {
    p <- utils::read.csv(repo_file("data", "classification", "pima_tr.csv"))
    p01 <- p
    p01$class <- as.numeric(p$class == "Yes")
    f <- basel(class ~ ., p01, family = "binomial", method = "enumerate", seed = 1, progress = FALSE)
    expect_identical(unlist(f$doc$classes), c("0", "1"))
    pl <- p
    pl$class <- p$class == "Yes"
    g <- basel(class ~ ., pl, family = "binomial", method = "enumerate", seed = 1, progress = FALSE)
    expect_identical(unlist(g$doc$classes), c("FALSE", "TRUE"))
    expect_identical(pip(g), pip(f))  # the same 0/1 target, the same importance draws
})

test_that("multinomial: R and the command line agree; probabilities per class; a coefficient table per class", {
    cli <- basel_cli()
    w <- utils::read.csv(repo_file("data", "classification", "wine.csv"))
    w <- w[seq(3, nrow(w), by = 3), c("alcohol", "flavanoids", "color_intensity", "proline", "class")]
    csv <- tempfile(fileext = ".csv")
    utils::write.csv(w, csv, row.names = FALSE, quote = FALSE)
    f <- basel(class ~ ., w, family = "multinomial", iter = 2000, seed = 2, threads = 1, progress = FALSE)
    expect_identical(f$doc$method, "rj")
    out <- cli_json(cli, c(csv, "--target", "class", "--family", "multinomial", "--iter", "2000", "--seed", "2",
                           "--threads", "1"))
    expect_identical(f$json, paste(readLines(out), collapse = "\n"))
    expect_identical(names(pip(f))[1:2], c("2:alcohol", "2:flavanoids"))
    pr <- cli_predict(cli, out, csv)
    prob <- predict(f, w, type = "prob")$fit
    expect_identical(colnames(prob), c("p_1", "p_2", "p_3"))
    expect_equal(unname(prob), unname(as.matrix(pr[c("p_1", "p_2", "p_3")])), tolerance = 1e-12)
    expect_equal(rowSums(prob), rep(1, nrow(w)), tolerance = 1e-12)
    expect_identical(levels(predict(f, w, type = "class")$fit), c("1", "2", "3"))
    co <- coef(f)
    expect_identical(unique(co$class), c("2", "3"))
    expect_identical(co$term[1:2], c("2:(Intercept)", "2:alcohol"))
    s <- capture.output(print(summary(f)))
    expect_true(any(grepl("in some class's subset", s)))
    ## a factor response: its text levels, sorted as the command line sorts them
    wf <- w
    wf$class <- factor(c("barolo", "grignolino", "barbera")[w$class], levels = c("barolo", "grignolino", "barbera"))
    expect_warning(h <- basel(class ~ ., wf, family = "multinomial", iter = 500, seed = 2, progress = FALSE),
                   "the reference class is 'barbera'")
    expect_identical(unlist(h$doc$classes), c("barbera", "barolo", "grignolino"))
    ## the draws: the joint models, a 0/1 column per class and input
    expect_identical(names(draws(h))[5:6], c("barolo:alcohol", "barolo:flavanoids"))
})

test_that("Poisson on quine: R and the command line agree; type = \"response\" is the mean count", {
    cli <- basel_cli()
    csv <- repo_file("data", "count", "quine.csv")
    q <- utils::read.csv(csv)
    f <- basel(days ~ ., q, family = poisson(), method = "enumerate", seed = 1, is.draws = 500, progress = FALSE)
    out <- cli_json(cli, c(csv, "--family", "poisson", "--method", "enumerate", "--seed", "1", "--is-draws", "500"))
    expect_identical(f$json, paste(readLines(out), collapse = "\n"))
    pr <- cli_predict(cli, out, csv)
    expect_equal(predict(f, q, type = "response")$fit, pr$days_mean, tolerance = 1e-12)
    expect_equal(predict(f, q)$fit, pr$days_mean, tolerance = 1e-12)
    expect_identical(coef(f)$term[1], "(Intercept)")
    expect_error(predict(f, q, type = "prob"), "for classifiers", class = "basel_error")
})

test_that("a bad family or a response the family cannot take is a clear error", {
    p <- utils::read.csv(repo_file("data", "classification", "pima_tr.csv"))
    e <- expect_error(basel(class ~ ., p, family = "gamma", progress = FALSE), class = "basel_error")
    expect_match(conditionMessage(e), "family 'gamma': one of \"gaussian\", \"binomial\", \"multinomial\", \"poisson\"")
    expect_error(basel(class ~ ., p, family = binomial(link = "probit"), progress = FALSE), "probit",
                 class = "basel_error")
    ## a third level: the library's message names the row
    p3 <- p
    p3$class[7] <- "Maybe"
    e <- expect_error(basel(class ~ ., p3, family = "binomial", method = "enumerate", progress = FALSE),
                      class = "basel_error")
    expect_match(conditionMessage(e), "a third level 'Maybe'.*family multinomial")
    expect_equal(e$line, 7)
    ## numbers other than 0/1
    p2 <- p
    p2$class <- ifelse(p$class == "Yes", 2, 0)
    e <- expect_error(basel(class ~ ., p2, family = "binomial", method = "enumerate", progress = FALSE),
                      class = "basel_error")
    expect_match(conditionMessage(e), "2 is not 0 or 1")
    ## two levels are not a multinomial target; a count is not text
    expect_error(basel(class ~ ., p, family = "multinomial", progress = FALSE), "needs three or more",
                 class = "basel_error")
    expect_error(basel(class ~ ., p, family = "poisson", progress = FALSE), "needs counts", class = "basel_error")
    ## class labels without a GLM family or the mixture
    expect_error(basel(class ~ ., p, progress = FALSE), "family = \"binomial\"", class = "basel_error")
})
