# bench/scale/make_data.R P EFFECTS RHO SEED OUT.csv TRUTH.txt [N] [SIZE]
# Fine-mapping-like data (issue 18): n = N (default 1000) rows, P inputs in
# blocks of 50, each block an AR(1) sequence with correlation RHO between
# neighbours (x_1 ~ N(0, 1), x_j = RHO x_{j-1} + sqrt(1 - RHO^2) e_j), and
# y = sum of EFFECTS true inputs times +-SIZE (default 0.25) plus N(0, 1) noise. The true
# inputs sit in different blocks, except that with EFFECTS >= 8 two blocks
# hold two each (5 inputs apart), the case variational methods find hard.
# Writes OUT.csv (x1..xP, y) and the true inputs' names, one a line.
a <- commandArgs(TRUE)
p <- as.integer(a[1]); ne <- as.integer(a[2]); rho <- as.numeric(a[3])
set.seed(as.integer(a[4])); n <- if (length(a) >= 7) as.integer(a[7]) else 1000L
X <- matrix(0, n, p)
for (b in seq(1, p, by = 50)) {
    e <- matrix(rnorm(n * 50), n, 50)
    X[, b] <- e[, 1]
    for (j in 2:50) if (b + j - 1 <= p) X[, b + j - 1] <- rho * X[, b + j - 2] + sqrt(1 - rho^2) * e[, j]
}
blocks <- sample(p %/% 50, ne)
true <- (blocks - 1) * 50 + sample(10:40, ne, replace = TRUE)
if (ne >= 8) { # two blocks hold two effects each
    true[ne - 1] <- true[1] + 5
    true[ne] <- true[2] + 5
}
size <- if (length(a) >= 8) as.numeric(a[8]) else 0.25
beta <- size * sample(c(-1, 1), ne, replace = TRUE)
y <- drop(X[, true] %*% beta) + rnorm(n)
colnames(X) <- paste0("x", seq_len(p))
write.table(data.frame(X, y = y), a[5], sep = ",", row.names = FALSE, quote = FALSE)
writeLines(paste0("x", true), a[6])
