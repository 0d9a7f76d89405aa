# susie.R DATA.csv STATS.json OUT.json: susieR (L = 10) on the rows and
# susie_rss on R, z and n computed here; writes the LD stats file for basel
# (docs/SUMMARY_STATS.md) and both fits' credible sets with CPU times.
suppressMessages({library(susieR); library(jsonlite)})
a <- commandArgs(TRUE)
d <- read.csv(a[1]); X <- as.matrix(d[, -ncol(d)]); y <- d$y; n <- nrow(X)
R <- cor(X)
z <- sapply(seq_len(ncol(X)), function(j) summary(lm(y ~ X[, j]))$coefficients[2, 3])
writeLines(toJSON(list(n = n, inputs = colnames(X), target = "y", ld = unname(R), z = z),
                  auto_unbox = TRUE, digits = NA), a[2])
sets <- function(f) {
  cs <- f$sets$cs; if (is.null(cs)) return(list())
  lapply(seq_along(cs), function(i) list(atoms = unname(cs[[i]]) - 1, coverage = f$sets$coverage[i],
                                         purity = f$sets$purity[i, "min.abs.corr"]))
}
t1 <- system.time(f1 <- susie(X, y, L = 10))
t2 <- system.time(f2 <- susie_rss(z, R, n = n, L = 10))
writeLines(toJSON(list(susie = list(cpu = sum(t1[1:2]), sets = sets(f1), pip = unname(f1$pip)),
                       susie_rss = list(cpu = sum(t2[1:2]), sets = sets(f2), pip = unname(f2$pip))),
                  auto_unbox = TRUE, digits = NA), a[3])
