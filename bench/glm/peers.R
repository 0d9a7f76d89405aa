# bench/glm/peers.R: the R peers of bench/glm on one split (called by run.py):
#   Rscript peers.R train.csv test.csv target out.txt [bas]
# glmnet: L1-penalised logistic regression, lambda by 10-fold CV (lambda.min),
# inputs standardised by glmnet (standardize = TRUE); BAS (if asked, from
# R_LIBS=/work/peers/Rlib): bas.glm with its defaults (CCH / robust prior,
# beta-binomial(1, 1) model prior), enumeration when p <= 20, MCMC (20000 iterations) above.
# Writes "key value..." lines: probabilities of the second level, time, PIPs.
# With three or more levels: glmnet's multinomial family (L1, "ungrouped"),
# probabilities row by row in the order of glmnet_levels; an input is kept
# when any class has a nonzero coefficient.
args <- commandArgs(TRUE)
tr <- read.csv(args[1]); te <- read.csv(args[2]); target <- args[3]; out <- args[4]
with_bas <- length(args) >= 5 && args[5] == "bas"
lev <- sort(unique(as.character(tr[[target]])))
y <- as.integer(as.character(tr[[target]]) == lev[2])
X <- as.matrix(tr[, setdiff(names(tr), target)]); Xt <- as.matrix(te[, colnames(X)])
lines <- character()
suppressMessages(library(glmnet))
if (length(lev) > 2) {
    set.seed(1)
    t0 <- proc.time()
    yf <- factor(as.character(tr[[target]]), levels = lev)
    cv <- cv.glmnet(X, yf, family = "multinomial", alpha = 1, nfolds = 10)
    p <- predict(cv, Xt, s = "lambda.min", type = "response")[, , 1]
    t1 <- proc.time() - t0
    nz <- Reduce(`|`, lapply(coef(cv, s = "lambda.min"), function(b) as.vector(b)[-1] != 0))
    writeLines(c(paste("glmnet_p", paste(format(as.vector(t(p)), digits = 17), collapse = " ")),
                 paste("glmnet_levels", paste(colnames(p), collapse = " ")),
                 paste("glmnet_cpu", t1[["user.self"]] + t1[["sys.self"]]),
                 paste("glmnet_kept", sum(nz)), paste("glmnet_inputs", paste(colnames(X)[nz], collapse = " "))), out)
    quit(save = "no")
}
set.seed(1)
t0 <- proc.time()
cv <- cv.glmnet(X, y, family = "binomial", alpha = 1, nfolds = 10)
p <- as.vector(predict(cv, Xt, s = "lambda.min", type = "response"))
t1 <- proc.time() - t0
b <- as.vector(coef(cv, s = "lambda.min"))[-1]
lines <- c(lines, paste("glmnet_p", paste(format(p, digits = 17), collapse = " ")),
           paste("glmnet_cpu", t1[["user.self"]] + t1[["sys.self"]]),
           paste("glmnet_kept", sum(b != 0)), paste("glmnet_inputs", paste(colnames(X)[b != 0], collapse = " ")))
if (with_bas) {
    suppressMessages(library(BAS))
    d <- data.frame(X, y = y)
    set.seed(1)
    t0 <- proc.time()
    method <- if (ncol(X) <= 20) "BAS" else "MCMC"
    f <- bas.glm(y ~ ., data = d, family = binomial(), modelprior = beta.binomial(1, 1), method = method,
                 MCMC.iterations = 20000)
    pb <- as.vector(predict(f, newdata = data.frame(Xt), type = "response", estimator = "BMA")$fit)
    t1 <- proc.time() - t0
    lines <- c(lines, paste("bas_p", paste(format(pb, digits = 17), collapse = " ")),
               paste("bas_cpu", t1[["user.self"]] + t1[["sys.self"]]),
               paste("bas_method", method),
               paste("bas_pip", paste(format(f$probne0[-1], digits = 6), collapse = " ")))
}
writeLines(lines, out)
