# bas_glm_reference.R: BAS's bas.glm under its g-type priors on two shipped
# data sets, for tests/cli/test_bas_glm.sh (BAS is not installed in CI, so
# its numbers are committed: tests/data/bas_glm.json, 17 significant digits).
#
#   pima_tr.csv (data/classification, n = 200, 7 inputs), binomial (logit):
#     g.prior(g = 200), robust(), hyper.g.n()
#   quine.csv   (data/count, n = 146, 6 inputs), poisson (log):
#     g.prior(g = 146), robust()
# each with modelprior = uniform(), method = "BAS" over all 2^p models.
# The class column of pima_tr is No / Yes (Yes = 1, as R's glm).
#
# Usage (from the repository root; BAS built from its public source, never
# committed here):
#   Rscript tests/data/bas_glm_reference.R /work/peers/Rlib [BAS git commit]
suppressMessages({
    args <- commandArgs(trailingOnly = TRUE)
    if (length(args) < 1) stop("usage: Rscript tests/data/bas_glm_reference.R BAS_RLIB [BAS_COMMIT]")
    library(BAS, lib.loc = args[1])
})
bas_commit <- if (length(args) >= 2) args[2] else "unknown"
num <- function(x) paste0("[", paste(sprintf("%.17g", x), collapse = ", "), "]")

one <- function(label, file, target, family, prior_name, betaprior, basel_prior) {
    d <- read.csv(file)
    if (target == "class") d$class <- as.integer(d$class == "Yes")
    names(d)[names(d) == target] <- "y"
    p <- ncol(d) - 1
    fit <- bas.glm(y ~ ., data = d, family = family, betaprior = betaprior,
                   modelprior = uniform(), method = "BAS", n.models = 2^p)
    stopifnot(length(fit$which) == 2^p)
    # each model's inputs as 1-based input numbers (BAS's which is 0-based
    # with the intercept 0)
    models <- sapply(fit$which, function(w) paste0("[", paste(sort(w[w > 0]), collapse = ", "), "]"))
    sprintf(paste0('  {"case": "%s", "file": "%s", "target": "%s", "family": "%s", "bas_prior": "%s",\n',
                   '   "basel_prior": "%s", "n": %d, "inputs": [%s],\n',
                   '   "pip": %s,\n   "models": [%s],\n   "logmarg": %s,\n   "postprobs": %s}'),
            label, file, target, family$family, prior_name, basel_prior, nrow(d),
            paste0('"', names(d)[names(d) != "y"], '"', collapse = ", "),
            num(fit$probne0[-1]), paste(models, collapse = ", "), num(fit$logmarg), num(fit$postprobs))
}

cases <- c(
    one("pima g", "data/classification/pima_tr.csv", "class", binomial(), "g.prior(g = 200)",
        g.prior(200), "g:g=200"),
    one("pima robust", "data/classification/pima_tr.csv", "class", binomial(), "robust()",
        robust(), "robust"),
    one("pima hyper-g/n", "data/classification/pima_tr.csv", "class", binomial(), "hyper.g.n()",
        hyper.g.n(), "hyper-g/n"),
    one("quine g", "data/count/quine.csv", "days", poisson(), "g.prior(g = 146)",
        g.prior(146), "g:g=146"),
    one("quine robust", "data/count/quine.csv", "days", poisson(), "robust()",
        robust(), "robust"))
writeLines(c("{",
             sprintf(' "bas": {"version": "%s", "commit": "%s", "source": "https://github.com/merliseclyde/BAS", "R": "%s"},',
                     as.character(packageVersion("BAS", lib.loc = args[1])), bas_commit, R.version.string),
             ' "conventions": "pip: fit$probne0 without the intercept, in the order of inputs; models: each enumerated model as its 1-based input numbers; logmarg: fit$logmarg (log p(y|M) by Li and Clyde (2018) integrated Laplace approximation, BAS src/glm_lpy.c gglm_lpy and src/betapriorfamily.c); postprobs: fit$postprobs",',
             ' "cases": [', paste(cases, collapse = ",\n"), " ]", "}"),
           "tests/data/bas_glm.json")
