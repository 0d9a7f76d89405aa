# diag_reference.R: reference R-hat and ESS for test_diag.c, from R's
# posterior package (Debian: r-cran-posterior; these numbers: posterior 1.4.0).
#   Rscript tests/unit/summary/diag_reference.R > tests/unit/summary/diag_reference.txt
# Each case: a line "case NAME CHAINS LEN RHAT ESS_BULK ESS_TAIL" (NA as nan,
# Inf as inf), then one line of LEN draws per chain (17 significant digits).
suppressMessages(library(posterior))
set.seed(20211)

num <- function(v) {
  if (is.na(v)) return("nan")
  if (is.infinite(v)) return(if (v > 0) "inf" else "-inf")
  sprintf("%.17g", v)
}

emit <- function(name, x) {            # x: iterations x chains
  x <- as.matrix(x)
  r <- suppressWarnings(rhat(x))
  eb <- suppressWarnings(ess_bulk(x))
  et <- suppressWarnings(ess_tail(x))
  cat(sprintf("case %s %d %d %s %s %s\n", name, ncol(x), nrow(x), num(r), num(eb), num(et)))
  for (c in seq_len(ncol(x))) cat(paste(vapply(x[, c], num, ""), collapse = " "), "\n", sep = "")
}

ar1 <- function(n, phi, sd = 1, start = 0) {
  y <- numeric(n); y[1] <- start + rnorm(1, sd = sd)
  for (t in 2:n) y[t] <- phi * y[t - 1] + rnorm(1, sd = sd)
  y
}

sticky <- function(n, stay, p1 = 0.5) {     # a two-state Markov chain
  y <- numeric(n); y[1] <- as.numeric(runif(1) < p1)
  for (t in 2:n) y[t] <- if (runif(1) < stay) y[t - 1] else as.numeric(runif(1) < p1)
  y
}

walk <- function(n, lo, hi) {               # an integer random walk (a model size)
  y <- numeric(n); y[1] <- round((lo + hi) / 2)
  for (t in 2:n) y[t] <- min(hi, max(lo, y[t - 1] + sample(c(-1, 0, 0, 1), 1)))
  y
}

emit("ar1", sapply(1:4, function(c) ar1(200, 0.9)))
emit("ar1_odd_shifted", sapply(1:4, function(c) ar1(101, 0.5) + (c == 4)))
emit("indicator", sapply(1:4, function(c) sticky(300, 0.95)))
emit("indicator_rare", sapply(1:4, function(c) sticky(500, 0.98, p1 = 0.03)))
emit("size", sapply(1:2, function(c) walk(250, 0, 6)))
emit("stuck_chains", sapply(1:4, function(c) rep((c - 1) %% 2, 50)))
emit("one_chain_moves_once", matrix(c(rep(0, 150), sticky(250, 0.9, p1 = 0.9)), ncol = 1))
emit("one_chain_mixing", matrix(sticky(400, 0.5), ncol = 1))
emit("block_means", sapply(1:3, function(c) pmin(1, pmax(0, round(ar1(300, 0.7, 0.6) + 0.5, 1)))))
emit("cauchy", sapply(1:3, function(c) rcauchy(400)))
emit("short", sapply(1:2, function(c) rnorm(7)))
emit("constant", matrix(3, nrow = 20, ncol = 2))
