# bench/scale/peers.R METHOD DATA.csv OUT_PIPS.txt [ITER]: the peers of
# bench/scale/run.sh on one data set (last column y, the rest inputs).
#   susie  susieR::susie(X, y, L = 10), its PIPs, and its credible sets in
#          OUT_PIPS.txt.cs (1-based input indices, one set a line)
#   bas    BAS::bas.lm(method = "MCMC", g-prior alpha = n, beta-binomial(1, 1)
#          model prior, ITER iterations, burnin.iterations = 0, n.models =
#          ITER), its PIPs (visit frequencies, probne0)
# Prints the fit's CPU seconds (user + system of the call, proc.time);
# OPENBLAS_NUM_THREADS=1 is the per-core setting.
a <- commandArgs(TRUE)
hdr <- scan(a[2], what = "", sep = ",", nlines = 1, quiet = TRUE)
M <- matrix(scan(a[2], skip = 1, sep = ",", quiet = TRUE), ncol = length(hdr), byrow = TRUE)
X <- M[, -ncol(M), drop = FALSE]; y <- M[, ncol(M)]; colnames(X) <- hdr[-length(hdr)]
rm(M)
t0 <- proc.time()
if (a[1] == "susie") {
    suppressMessages(library(susieR))
    fit <- susie(X, y, L = 10)
    pip <- fit$pip
    # 95% credible sets (susie's defaults: coverage 0.95, purity >= 0.5), one a line
    cs <- fit$sets$cs
    writeLines(if (length(cs)) vapply(cs, function(v) paste(v, collapse = " "), "") else character(0),
               paste0(a[3], ".cs"))
} else {
    suppressMessages(library(BAS))
    it <- as.numeric(a[4])
    d <- data.frame(X, y = y)
    fit <- bas.lm(y ~ ., data = d, prior = "g-prior", alpha = nrow(d), modelprior = beta.binomial(1, 1),
                  method = "MCMC", MCMC.iterations = it, burnin.iterations = 0, n.models = it)
    pip <- fit$probne0[-1]
}
t <- proc.time() - t0
writeLines(sprintf("%.6f", pip), a[3])
cat(sprintf("%.3f\n", t[["user.self"]] + t[["sys.self"]]))
