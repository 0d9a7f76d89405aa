#!/usr/bin/env Rscript
# kernlab's rvm on fixed splits: the peer of bench/kernel/run.py.
# usage: Rscript rvm.R DATA.csv SPLITS.csv TARGET NSPLIT
# Inputs standardised on each training part; Gaussian kernel with kernlab's
# automatic width (sigest, the median of |x - x'|^2 quantiles); prints
# split,mse,vectors,seconds per split.
suppressMessages(library(kernlab))
a <- commandArgs(trailingOnly = TRUE)
d <- read.csv(a[1]); sp <- read.csv(a[2]); target <- a[3]; nsplit <- as.integer(a[4])
X <- as.matrix(d[, setdiff(names(d), target), drop = FALSE]); y <- d[[target]]
cat("split,mse,vectors,seconds\n")
for (s in seq_len(nsplit)) {
  set.seed(s)
  r <- sp[sp$split == s, ]
  tr <- r$row[r$role == "train"]; te <- r$row[r$role == "test"]
  mu <- colMeans(X[tr, , drop = FALSE]); sd <- apply(X[tr, , drop = FALSE], 2, sd)
  Z <- scale(X, center = mu, scale = sd)
  t0 <- proc.time()[["elapsed"]]
  fit <- rvm(Z[tr, , drop = FALSE], y[tr], kernel = "rbfdot", kpar = "automatic")
  t1 <- proc.time()[["elapsed"]]
  p <- predict(fit, Z[te, , drop = FALSE])
  cat(sprintf("%d,%.10g,%d,%.3f\n", s, mean((p - y[te])^2), length(RVindex(fit)), t1 - t0))
}
