# bas_glm_reference.R: BAS's bas.glm under its g-type priors on two shipped
# data sets, for tests/cli/test_bas_glm.sh (BAS is not installed in CI, so
# its numbers are committed: tests/data/bas_glm.json, 17 significant digits).
#
#   pima_tr.csv (data/classification, n = 200, 7 inputs), binomial (logit):
#     g.prior(g = 200), robust(), hyper.g.n(), EB.local()
#   quine.csv   (data/count, n = 146, 6 inputs), poisson (log):
#     g.prior(g = 146), robust(), hyper.g.n(), EB.local()
# each with modelprior = uniform(), method = "BAS" over all 2^p models, and
# for hyper-g/n an exact reference (exact_hgn below).
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

# An exact reference for hyper-g/n (BAS integrates its tCCH by QUADPACK to a
# relative DBL_EPSILON^(1/4), src/cch.c tcch_int): each model's log marginal
# from BAS's own g.prior(g = n) fit (its Q and L0 = logmarg + (k/2) log(1+g)
# + Q/(2(1+g)), which do not depend on the prior), plus
# log int (1+g)^(-k/2) e^(-Q/(2(1+g))) pi(g) dg, pi(g) = (a-2)/(2n) (1+g/n)^(-a/2),
# a = 3 (Liang et al. 2008 sec. 3.2), by integrate() over u = log g to a
# relative 1e-12; posterior probabilities and PIPs under the uniform model prior.
exact_hgn <- function(label, file, target, family, a = 3) {
    d <- read.csv(file)
    if (target == "class") d$class <- as.integer(d$class == "Yes")
    names(d)[names(d) == target] <- "y"
    p <- ncol(d) - 1
    n <- nrow(d)
    fit <- bas.glm(y ~ ., data = d, family = family, betaprior = g.prior(n),
                   modelprior = uniform(), method = "BAS", n.models = 2^p)
    k <- sapply(fit$which, function(w) sum(w > 0))
    lm <- sapply(seq_along(k), function(i) {
        Q <- fit$Q[i]
        if (k[i] == 0) return(fit$logmarg[i])
        L0 <- fit$logmarg[i] + 0.5 * k[i] * log1p(n) + 0.5 * Q / (1 + n)
        f <- function(u) exp(-0.5 * k[i] * log1p(exp(u)) - 0.5 * Q / (1 + exp(u)) +
                                 log((a - 2) / (2 * n)) - 0.5 * a * log1p(exp(u) / n) + u)
        L0 + log(integrate(f, -60, 60, rel.tol = 1e-12, subdivisions = 2000L)$value)
    })
    post <- exp(lm - max(lm))
    post <- post / sum(post)
    pip <- sapply(1:p, function(j) sum(post[sapply(fit$which, function(w) j %in% w)]))
    models <- sapply(fit$which, function(w) paste0("[", paste(sort(w[w > 0]), collapse = ", "), "]"))
    sprintf(paste0('  {"case": "%s", "file": "%s", "target": "%s", "family": "%s", "bas_prior": "%s",\n',
                   '   "basel_prior": "%s", "n": %d, "inputs": [%s],\n',
                   '   "pip": %s,\n   "models": [%s],\n   "logmarg": %s,\n   "postprobs": %s}'),
            label, file, target, family$family, "exact: R integrate() from BAS's g.prior(g = n) Q and L0", "hyper-g/n",
            n, paste0('"', names(d)[names(d) != "y"], '"', collapse = ", "),
            num(pip), paste(models, collapse = ", "), num(lm), num(post))
}

cases <- c(
    exact_hgn("pima hyper-g/n exact", "data/classification/pima_tr.csv", "class", binomial()),
    exact_hgn("quine hyper-g/n exact", "data/count/quine.csv", "days", poisson()),
    one("pima g", "data/classification/pima_tr.csv", "class", binomial(), "g.prior(g = 200)",
        g.prior(200), "g:g=200"),
    one("pima robust", "data/classification/pima_tr.csv", "class", binomial(), "robust()",
        robust(), "robust"),
    one("pima hyper-g/n", "data/classification/pima_tr.csv", "class", binomial(), "hyper.g.n()",
        hyper.g.n(), "hyper-g/n"),
    one("pima eb-local", "data/classification/pima_tr.csv", "class", binomial(), "EB.local()",
        EB.local(), "eb-local"),
    one("quine g", "data/count/quine.csv", "days", poisson(), "g.prior(g = 146)",
        g.prior(146), "g:g=146"),
    one("quine robust", "data/count/quine.csv", "days", poisson(), "robust()",
        robust(), "robust"),
    one("quine hyper-g/n", "data/count/quine.csv", "days", poisson(), "hyper.g.n()",
        hyper.g.n(), "hyper-g/n"),
    one("quine eb-local", "data/count/quine.csv", "days", poisson(), "EB.local()",
        EB.local(), "eb-local"))
writeLines(c("{",
             sprintf(' "bas": {"version": "%s", "commit": "%s", "source": "https://github.com/merliseclyde/BAS", "R": "%s"},',
                     as.character(packageVersion("BAS", lib.loc = args[1])), bas_commit, R.version.string),
             ' "conventions": "pip: fit$probne0 without the intercept, in the order of inputs; models: each enumerated model as its 1-based input numbers; logmarg: fit$logmarg (log p(y|M) by Li and Clyde (2018) integrated Laplace approximation, BAS src/glm_lpy.c gglm_lpy and src/betapriorfamily.c); postprobs: fit$postprobs",',
             ' "cases": [', paste(cases, collapse = ",\n"), " ]", "}"),
           "tests/data/bas_glm.json")
