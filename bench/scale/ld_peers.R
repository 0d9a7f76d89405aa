# bench/scale/ld_peers.R METHOD PREFIX OUT_PIPS.txt: susieR on the genotypes
# of bench/scale/ld_gen.c (PREFIX.int8: raw int8, column-major n x p;
# PREFIX.y: the target; p from PREFIX.bim), for bench/scale/ld_run.sh.
#   susie  susieR::susie(X, y, L = 10) on the 0/1/2 matrix (susie
#          standardises it itself)
#   rss    susieR::susie_rss(z, R, n, L = 10): z the marginal z-scores
#          (univariate_regression's betahat / sebetahat), R the in-sample LD
#          matrix cor(X), p x p doubles, computed as crossprod of the
#          standardised X (BLAS dsyrk)
# Writes the PIPs to OUT_PIPS.txt and the 95 % credible sets (susie's
# defaults: coverage 0.95, purity >= 0.5) to OUT_PIPS.txt.cs, one set a line
# (1-based input indices). Prints the fit's CPU seconds (user + system of
# the susie / susie_rss call, proc.time) and, for rss, those of computing z
# and R (printed as FIT+PREP). OPENBLAS_NUM_THREADS=1 is the per-core setting.
a <- commandArgs(TRUE)
p <- length(readLines(paste0(a[2], ".bim")))
y <- scan(paste0(a[2], ".y"), skip = 1, quiet = TRUE)
n <- length(y)
X <- matrix(as.double(readBin(paste0(a[2], ".int8"), "integer", size = 1, n = n * p)), n, p)
suppressMessages(library(susieR))
t0 <- proc.time()
if (a[1] == "susie") {
    fit <- susie(X, y, L = 10)
    tfit <- proc.time() - t0
    prep <- 0
} else {
    u <- univariate_regression(X, y)
    z <- u$betahat / u$sebetahat
    Xs <- scale(X)
    rm(X)
    R <- crossprod(Xs) / (n - 1)
    rm(Xs)
    invisible(gc())
    t1 <- proc.time()
    prep <- (t1 - t0)[["user.self"]] + (t1 - t0)[["sys.self"]]
    fit <- susie_rss(z, R, n = n, L = 10)
    tfit <- proc.time() - t1
}
writeLines(sprintf("%.6f", fit$pip), a[3])
cs <- fit$sets$cs
writeLines(if (length(cs)) vapply(cs, function(v) paste(v, collapse = " "), "") else character(0),
           paste0(a[3], ".cs"))
cat(sprintf("%.1f", tfit[["user.self"]] + tfit[["sys.self"]]), if (prep > 0) sprintf("+%.1f", prep), "\n", sep = "")
