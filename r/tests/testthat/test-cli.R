## The R front end and the basel command run the same library code: the
## same settings and seed give the same FIT.json, byte for byte.
test_that("R and the command line give the same FIT.json for the same seed", {
    cli <- basel_cli()
    csv <- repo_file("data", "linear", "uscrime_log.csv")
    u <- utils::read.csv(csv)
    out <- tempfile(fileext = ".json")
    for (m in c("bd", "rj")) {
        f <- basel(y ~ ., u, method = m, seed = 11, chains = 2, iter = 1500, threads = 1, progress = FALSE)
        st <- system2(cli, c("fit", csv, "--method", m, "--seed", "11", "--chains", "2", "--iter", "1500",
                             "--threads", "1", "--quiet", "-o", out))
        expect_equal(st, 0)
        doc <- paste(readLines(out), collapse = "\n")
        expect_identical(f$json, doc)
        expect_identical(unname(pip(f)), as.numeric(jsonlite::fromJSON(out)$pip))
    }
})

test_that("the classifier (class labels from a character column) is the command line's too", {
    cli <- basel_cli()
    csv <- repo_file("data", "classification", "pima_tr.csv")
    p <- utils::read.csv(csv)
    f <- basel(class ~ ., p, method = "mixture", iter = 200, burn = 50, chains = 2, seed = 4, threads = 1,
               progress = FALSE)
    out <- tempfile(fileext = ".json")
    expect_equal(system2(cli, c("fit", csv, "--method", "mixture", "--iter", "200", "--burn", "50", "--chains", "2",
                                "--seed", "4", "--threads", "1", "--quiet", "-o", out)), 0)
    expect_identical(f$json, paste(readLines(out), collapse = "\n"))
    pr <- predict(f, p[1:3, ])$fit
    expect_true(all(c("p_No", "p_Yes", "class") %in% names(pr)))
})

test_that("a fit written from R is read by the command line, and back", {
    cli <- basel_cli()
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", progress = FALSE)
    path <- tempfile(fileext = ".json")
    write_fit(f, path)
    s <- system2(cli, c("summary", path), stdout = TRUE)
    expect_true(any(grepl("Ineq", s)))
    g <- read_fit(path)
    expect_identical(g$json, f$json)
})

test_that("a fit read from FIT.json predicts from a data frame with its inputs", {
    u <- uscrime()
    f <- basel(y ~ ., u, method = "enumerate", progress = FALSE)
    path <- tempfile(fileext = ".json")
    write_fit(f, path)
    g <- read_fit(path)
    expect_identical(predict(g, u[1:3, ])$fit, predict(f, u[1:3, ])$fit)
    expect_error(predict(g, u[1:3, 1:4]), "lacks", class = "basel_error")
})

test_that("a command-line fit with a categorical input predicts from R by level, as the command line does", {
    cli <- basel_cli()
    csv <- repo_file("data", "linear", "iris.csv")
    path <- tempfile(fileext = ".json")
    pred <- tempfile(fileext = ".csv")
    expect_equal(system2(cli, c("fit", csv, "--method", "enumerate", "--seed", "1", "--quiet", "-o", path)), 0)
    g <- read_fit(path)
    expect_identical(vapply(g$doc$atoms, function(a) a$name, ""), c("sepal_width", "petal_length", "petal_width", "species"))
    d <- utils::read.csv(csv)[c(1, 51, 101), ]
    utils::write.csv(d, file.path(tempdir(), "iris3.csv"), row.names = FALSE, quote = FALSE)
    expect_equal(system2(cli, c("predict", path, file.path(tempdir(), "iris3.csv"), "-o", pred)), 0)
    expect_equal(unname(predict(g, d)$fit), utils::read.csv(pred)$sepal_length_mean, tolerance = 1e-12)
    d$species[1] <- "tulip"
    expect_error(predict(g, d), "level 'tulip'", class = "basel_error")
})

test_that("a factor in the formula is one atom, as on the command line: same FIT.json, PIPs and predictions", {
    cli <- basel_cli()
    csv <- repo_file("data", "linear", "iris.csv")
    iris3 <- utils::read.csv(csv, stringsAsFactors = TRUE)
    out <- tempfile(fileext = ".json")
    expect_equal(system2(cli, c("fit", csv, "--method", "enumerate", "--seed", "1", "--quiet", "-o", out)), 0)
    f <- basel(sepal_length ~ ., iris3, method = "enumerate", seed = 1, progress = FALSE)
    expect_identical(f$json, paste(readLines(out), collapse = "\n"))
    expect_identical(names(pip(f)), c("sepal_width", "petal_length", "petal_width", "species"))
    ## the exact grouped PIP (tests/unit/model/test_groups.c: R brute force over 2^4 subsets)
    expect_equal(unname(pip(f)["species"]), 0.76785314583, tolerance = 1e-9)
    rows <- iris3[c(1, 51, 101, 2), ]
    rows$species[4] <- NA
    pred <- tempfile(fileext = ".csv")
    utils::write.csv(rows, file.path(tempdir(), "iris4.csv"), row.names = FALSE, quote = FALSE, na = "")
    expect_equal(system2(cli, c("predict", out, file.path(tempdir(), "iris4.csv"), "-o", pred), stderr = FALSE), 0)
    p <- predict(f, rows, interval = "predict")
    expect_equal(unname(p$interval[, "fit"]), utils::read.csv(pred)$sepal_length_mean, tolerance = 1e-12)
    expect_true(is.na(p$interval[4, "fit"]))
    expect_length(predict(f, rows[1:3, ], se.fit = TRUE)$se.fit, 3)
    ## a character column works the same; an interaction keeps R's own dummy columns
    g <- basel(sepal_length ~ ., utils::read.csv(csv), method = "enumerate", seed = 1, progress = FALSE)
    expect_identical(g$json, f$json)
    h <- basel(sepal_length ~ petal_width * species, iris3, method = "enumerate", seed = 1, progress = FALSE)
    expect_true("speciesversicolor" %in% names(pip(h)))
    ## a method that does not group factors gets R's dummies, as before
    s <- basel(sepal_length ~ ., iris3, method = "ssvs", seed = 1, iter = 300, chains = 1, progress = FALSE)
    expect_true(all(c("speciesversicolor", "speciesvirginica") %in% names(pip(s))))
})
