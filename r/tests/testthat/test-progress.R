test_that("a progress function sees the fraction and can cancel", {
    u <- uscrime()
    seen <- numeric()
    f <- basel(y ~ ., u, method = "bd", iter = 2000, chains = 2, threads = 1, progress = function(p) {
        seen <<- c(seen, p)
        FALSE
    })
    expect_true(length(seen) > 2)
    expect_true(all(diff(seen) >= 0) && max(seen) == 1)
    r <- tryCatch(basel(y ~ ., u, method = "bd", iter = 20000, threads = 1, progress = function(p) p > 0.1),
                  interrupted = function(e) e)
    expect_s3_class(r, "interrupted")
    expect_s3_class(r, "interrupt")
    expect_error(basel(y ~ ., u, method = "bd", iter = 20000, threads = 1, progress = function(p) stop("boom")),
                 "progress function failed", class = "basel_error")
})

test_that("Ctrl-C stops a fit cleanly and signals 'interrupted'", {
    skip_on_os("windows")
    u <- uscrime()
    dir <- tempfile()
    dir.create(dir)
    pidf <- file.path(dir, "pid")
    outf <- file.path(dir, "out")
    script <- file.path(dir, "child.R")
    writeLines(c(
        sprintf(".libPaths(c(%s, .libPaths()))", deparse(.libPaths()[1])),
        "library(basel)",
        "u <- MASS::UScrime",
        sprintf("pidf <- %s; outf <- %s", deparse(pidf), deparse(outf)),
        "r <- tryCatch(basel(y ~ ., u, method = 'bd', iter = 1e8, threads = 1, progress = function(p) {",
        "    if (!file.exists(pidf)) writeLines(as.character(Sys.getpid()), pidf); FALSE }),",
        "  interrupted = function(e) 'interrupted')",
        "writeLines(if (identical(r, 'interrupted')) 'interrupted' else 'finished', outf)",
        "f <- basel(y ~ ., u, method = 'enumerate', progress = FALSE)",
        "cat('alive', file = outf, append = TRUE)"), script)
    p <- system2(file.path(R.home("bin"), "Rscript"), script, wait = FALSE)
    for (i in 1:300) if (file.exists(pidf)) break else Sys.sleep(0.1)
    expect_true(file.exists(pidf))
    pid <- as.integer(readLines(pidf))
    on.exit(tools::pskill(pid, tools::SIGKILL), add = TRUE)   # never leave the child running
    Sys.sleep(0.5)
    tools::pskill(pid, tools::SIGINT)
    for (i in 1:300) if (file.exists(outf) && length(readLines(outf, warn = FALSE)) >= 2) break else Sys.sleep(0.1)
    expect_equal(readLines(outf, warn = FALSE), c("interrupted", "alive"))
})
