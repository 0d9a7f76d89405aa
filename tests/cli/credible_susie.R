# credible_susie.R DATA.csv: susieR's credible sets of the last column on the
# others, susie(X, y, L = 10) + susie_get_cs(s, X = X) (the reference of
# test_credible_susie.sh), one line per set: "names;coverage;purity" with
# names the inputs' names joined by spaces and purity the least |r|.
suppressMessages(library(susieR))
d <- read.csv(commandArgs(TRUE)[1])
X <- as.matrix(d[, -ncol(d)]); y <- d[[ncol(d)]]
set.seed(1)
s <- susie(X, y, L = 10)
cs <- susie_get_cs(s, X = X)
for (i in seq_along(cs$cs))
    cat(paste(colnames(X)[cs$cs[[i]]], collapse = " "), ";", cs$coverage[i], ";", cs$purity[i, "min.abs.corr"], "\n", sep = "")
