# bench/linear/bas_reference.R: reference numbers from R's BAS (the peer) for
# basel's linear-model tests (issue 13): exact enumeration of all 2^p models
# under prior = "BIC", "AIC" and "g-prior" (g = n), uniform model prior.
#
# Writes (from the repository root):
#   data/linear/uscrime_log.csv     MASS::UScrime, every column but So logged
#                                   (BAS's vignette), 17 significant digits
#   data/linear/bas_uscrime.json    BIC, AIC, g-prior (g = 47) on uscrime_log.csv
#   data/linear/bas_lin_p15_n200.json  g-prior (g = 200) on lin_p15_n200.csv
#   data/linear/bas_uscrime_mixtures.json  BAS's mixtures of g-priors on
#                                   uscrime_log.csv: "hyper-g", "hyper-g-n",
#                                   "JZS", "EB-local", "EB-global" (BAS's
#                                   defaults; EB-global's g in "g"), and
#                                   exact references by R's integrate() for
#                                   hyper-g/n (BAS's is a Laplace
#                                   approximation) and robust (not in bas.lm)
#
# BAS always reads the CSV back, so BAS and basel see the same numbers.
#
# Usage (from the repository root; BAS built from its public source, never
# committed here):
#   Rscript bench/linear/bas_reference.R /work/peers/Rlib [BAS git commit]
# Needs Debian's r-base-dev, r-cran-mass and r-cran-jsonlite.
suppressMessages({
    args <- commandArgs(trailingOnly = TRUE)
    if (length(args) < 1) stop("usage: Rscript bench/linear/bas_reference.R BAS_RLIB [BAS_COMMIT]")
    rlib <- args[1]
    bas_commit <- if (length(args) >= 2) args[2] else Sys.getenv("BAS_COMMIT", "unknown")
    library(BAS, lib.loc = rlib)
    library(MASS)
    library(jsonlite)
})

out_dir <- "data/linear"
stopifnot(dir.exists(out_dir))

## ---------------------------------------------------------------- JSON output
## jsonlite caps numbers at 15 significant digits; write 17 so that every
## double round-trips exactly.
num_json <- function(x) {
    ifelse(is.na(x) | !is.finite(x), "null", sprintf("%.17g", x))
}
to_json <- function(x, indent = 0) {
    pad <- strrep(" ", indent + 1)
    end <- strrep(" ", indent)
    if (is.null(x)) return("null")
    if (is.list(x)) {
        nm <- names(x)
        if (!is.null(nm) && length(x) > 0) {
            items <- vapply(seq_along(x), function(i)
                paste0(pad, toJSON(nm[i], auto_unbox = TRUE), ": ", to_json(x[[i]], indent + 1)), "")
            return(paste0("{\n", paste(items, collapse = ",\n"), "\n", end, "}"))
        }
        if (length(x) == 0) return("[]")
        items <- vapply(x, function(e) paste0(pad, to_json(e, indent + 1)), "")
        return(paste0("[\n", paste(items, collapse = ",\n"), "\n", end, "]"))
    }
    scalar <- inherits(x, "AsIs") || length(x) == 1
    if (is.character(x)) {
        v <- vapply(x, function(s) as.character(toJSON(s, auto_unbox = TRUE)), "")
    } else if (is.logical(x)) {
        v <- ifelse(is.na(x), "null", ifelse(x, "true", "false"))
    } else {
        v <- num_json(as.numeric(x))
    }
    nm <- names(x)
    if (!is.null(nm) && !inherits(x, "AsIs")) {  # named vector -> object
        items <- paste0(pad, vapply(nm, function(s) as.character(toJSON(s, auto_unbox = TRUE)), ""), ": ", v)
        return(paste0("{\n", paste(items, collapse = ",\n"), "\n", end, "}"))
    }
    if (scalar && length(x) == 1 && !inherits(x, "AsIs")) return(v)
    paste0("[", paste(v, collapse = ", "), "]")
}
arr <- function(x) I(unname(x))  # always an array, even of length 1

## ------------------------------------------ exact quantiles of BAS's mixtures
## BAS's confint() samples models and t draws (Monte Carlo, HPD). The exact
## equal-tailed interval of the same mixture is deterministic: F(x) =
## sum_m w_m pt((x - mu_m)/s_m, df_m) (+ mass w0 at 0 for the models that
## exclude a coefficient); q = inf{x : F(x) >= prob}, found by bisection.
mix_quantile <- function(prob, w, mu, s, df, w0 = 0) {
    F <- function(x) sum(w * pt((x - mu) / s, df)) + w0 * (x >= 0)
    lo <- min(mu - 60 * s, 0)
    hi <- max(mu + 60 * s, 0)
    for (it in 1:200) {
        mid <- (lo + hi) / 2
        if (F(mid) >= prob) hi <- mid else lo <- mid
        if (hi - lo <= 1e-14 * max(1, abs(mid))) break
    }
    hi
}

## ------------------------------------------------------------ one BAS fit
## prior: "BIC", "AIC" or "g-prior" (alpha = g).
reference_fit <- function(d, prior, alpha = NULL, n_top = 20, n_pred = 5, nsim = 100000) {
    n <- nrow(d)
    p <- ncol(d) - 1
    inputs <- setdiff(names(d), "y")
    set.seed(1)  # BAS's sampling order (all 2^p models either way) sets the rounding of sums
    if (prior == "g-prior") {
        fit <- bas.lm(y ~ ., data = d, prior = prior, alpha = alpha, modelprior = uniform(),
                      method = "BAS", n.models = 2^p)
        call <- sprintf("bas.lm(y ~ ., data, prior = \"g-prior\", alpha = %g, modelprior = uniform(), method = \"BAS\", n.models = 2^%d)", alpha, p)
    } else {
        fit <- bas.lm(y ~ ., data = d, prior = prior, modelprior = uniform(),
                      method = "BAS", n.models = 2^p)
        call <- sprintf("bas.lm(y ~ ., data, prior = \"%s\", modelprior = uniform(), method = \"BAS\", n.models = 2^%d)", prior, p)
    }
    nm <- length(fit$postprobs)
    ## full enumeration: every one of the 2^p models exactly once
    keys <- vapply(fit$which, function(w) paste(sort(w), collapse = ","), "")
    stopifnot(nm == 2^p, !anyDuplicated(keys))

    k <- fit$size - 1                      # inputs in the model (BAS's size counts the intercept)
    pip <- setNames(fit$probne0[-1], inputs)
    size_post <- setNames(as.numeric(tapply(fit$postprobs, factor(k, levels = 0:p), sum)), 0:p)
    size_post[is.na(size_post)] <- 0
    ord <- order(-fit$postprobs)
    top <- lapply(ord[1:n_top], function(i) list(
        rank = match(i, ord),
        predictors = arr(inputs[fit$which[[i]][-1]]),
        size = k[i],
        postprob = fit$postprobs[i],
        logmarg = fit$logmarg[i],
        R2 = fit$R2[i]))
    null_i <- which(k == 0)
    full_i <- which(k == p)

    ## coef(): BMA over all models
    cf <- coef(fit, estimator = "BMA")
    names_c <- c("Intercept", inputs)
    w <- cf$postprobs
    cm <- cf$conditionalmeans   # models x (1 + p): the model's posterior mean, 0 if excluded
    cs <- cf$conditionalsd      # models x (1 + p): the model's posterior sd,   0 if excluded
    incl <- cm != 0 | cs != 0
    incl[, 1] <- TRUE
    pin <- colSums(w * incl)
    cond_mean <- colSums(w * cm) / pin
    cond_sd <- sqrt(colSums(w * (cs^2 + cm^2)) / pin - cond_mean^2)
    set.seed(20261123)
    ci <- confint(cf, level = 0.95, nsim = nsim)
    df_m <- cf$df
    exact_ci <- t(vapply(seq_along(names_c), function(j) {
        on <- incl[, j]
        w0 <- sum(w[!on])
        c(mix_quantile(0.025, w[on], cm[on, j], cs[on, j], df_m[on], w0),
          mix_quantile(0.975, w[on], cm[on, j], cs[on, j], df_m[on], w0))
    }, numeric(2)))
    coefs <- setNames(lapply(seq_along(names_c), function(j) list(
        postmean = cf$postmean[j],
        postsd = cf$postsd[j],
        probne0 = cf$probne0[j],
        conditional_mean = cond_mean[[j]],
        conditional_sd = cond_sd[[j]],
        confint_bas_hpd95 = arr(ci[j, 1:2]),
        interval95_equal_tailed = arr(exact_ci[j, ]))), names_c)

    res <- list(
        call = call,
        n_models = nm,
        g = if (prior == "g-prior") alpha else if (prior == "EB-global") fit$g else NULL,
        pip = pip,
        model_size_posterior = size_post,
        posterior_mean_size = sum(fit$postprobs * k),
        top_models = top,
        null_model = list(postprob = fit$postprobs[null_i], logmarg = fit$logmarg[null_i], R2 = fit$R2[null_i]),
        full_model = list(postprob = fit$postprobs[full_i], logmarg = fit$logmarg[full_i], R2 = fit$R2[full_i]),
        coefficients = coefs)

    if (prior == "g-prior" && n_pred > 0) {
        nd <- d[1:n_pred, inputs, drop = FALSE]
        pr <- predict(fit, newdata = nd, estimator = "BMA", se.fit = TRUE)
        set.seed(20261123)
        ci_pred <- confint(pr, parm = "pred", level = 0.95, nsim = nsim)
        set.seed(20261123)
        ci_mean <- confint(pr, parm = "mean", level = 0.95, nsim = nsim)
        wp <- pr$postprobs
        Yp <- pr$Ypred                   # models x rows
        sf <- pr$se.fit                  # models x rows, per-model sd of the mean
        sp <- pr$se.pred                 # models x rows, per-model predictive sd
        dfp <- pr$df
        eq <- function(S) t(vapply(seq_len(n_pred), function(r)
            c(mix_quantile(0.025, wp, Yp[, r], S[, r], dfp),
              mix_quantile(0.975, wp, Yp[, r], S[, r], dfp)), numeric(2)))
        eq_pred <- eq(sp)
        eq_mean <- eq(sf)
        res$predict <- list(
            call = sprintf("predict(fit, newdata = data[1:%d, ], estimator = \"BMA\", se.fit = TRUE); confint(pred, parm = \"pred\" or \"mean\", nsim = %d) after set.seed(20261123)", n_pred, nsim),
            rows = arr(1:n_pred),
            fit = arr(pr$fit),
            se_bma_fit = arr(pr$se.bma.fit),
            se_bma_pred = arr(pr$se.bma.pred),
            confint_bas_hpd95_pred = lapply(1:n_pred, function(r) arr(ci_pred[r, 1:2])),
            confint_bas_hpd95_mean = lapply(1:n_pred, function(r) arr(ci_mean[r, 1:2])),
            interval95_equal_tailed_pred = lapply(1:n_pred, function(r) arr(eq_pred[r, ])),
            interval95_equal_tailed_mean = lapply(1:n_pred, function(r) arr(eq_mean[r, ])))
    }
    res
}

conventions <- list(
    size = "number of inputs in the model; the intercept is always in and not counted",
    logmarg = paste(
        "BAS's fit$logmarg. g-prior: log p(y|M) - log p(y|M_0) = ((n-1-k)/2) log(1+g) - ((n-1)/2) log(1 + g (1 - R2_M)).",
        "BIC: -(1/2) (n log RSS_M + (k+1) log n); AIC: -(1/2) (n log RSS_M + 2 (k+1)), RSS_M = SSY (1 - R2_M),",
        "SSY = sum((y - ybar)^2), k+1 = rank of [1, X_M] (intercept counted, sigma^2 not); src/bayesreg.c BIC(), AIC()."),
    coefficients = paste(
        "coef(fit, estimator = \"BMA\") over all 2^p models. Inputs are centred; Intercept is the coefficient of the",
        "column of ones after centring (= ybar in every model). Per model M: mean = s * bhat_M (OLS on centred inputs),",
        "sd = sqrt(s) * se_M with se_M^2 = RSS_M/(n-1-k) diag((Xc_M' Xc_M)^-1) (intercept: RSS_M/(n-1-k)/n, not shrunk),",
        "s = g/(1+g) for the g-prior and 1 for BIC/AIC (BAS's 'shrinkage'). postmean = sum_M p(M|y) mean_M;",
        "postsd = sqrt(sum_M p(M|y) (sd_M^2 + (mean_M - postmean)^2)) (0 for excluded models). conditional_mean/sd:",
        "the same moments given that the coefficient is in the model (computed here from BAS's per-model means and sds;",
        "BAS does not print them). Per-model degrees of freedom (fit$df): n-1 for the g-prior, n-1-k for BIC/AIC."),
    intervals = paste(
        "confint_bas_hpd95*: BAS's confint() (Monte Carlo: models drawn by p(M|y), t(df_M) draws scaled by sd_M,",
        "HPD interval of the draws; nsim = 100000 after set.seed(20261123); Monte Carlo error about 0.003 sd).",
        "interval95_equal_tailed*: the exact 2.5% and 97.5% quantiles of the same mixture",
        "sum_M p(M|y) t_{df_M}(mean_M, sd_M) (+ a point mass at 0 for models without the coefficient), deterministic."),
    predict = paste(
        "predict(..., estimator = \"BMA\", se.fit = TRUE) on the first rows of the data, as new data.",
        "fit = sum_M p(M|y) yhat_M(x); per model var_fit = MSE_M (1/n + s x_c' (Xc_M'Xc_M)^-1 x_c),",
        "var_pred = MSE_M (1 + 1/n + s x_c'(Xc_M'Xc_M)^-1 x_c), MSE_M = SSY (1 - s R2_M) / df_M;",
        "se_bma_fit = sqrt(sum_M p(M|y) var_fit_M + sum_M p(M|y) (yhat_M - fit)^2), likewise se_bma_pred."),
    model_prior = "uniform over all 2^p models (BAS modelprior = uniform())")

bas_info <- list(version = as.character(packageVersion("BAS", lib.loc = rlib)),
                 commit = bas_commit,
                 source = "https://github.com/merliseclyde/BAS",
                 R = R.version.string)

write_json_file <- function(x, path) {
    tmp <- paste0(path, ".tmp")
    writeLines(to_json(x), tmp)
    file.rename(tmp, path)
    cat("wrote", path, "\n")
}

## -------------------------------------------------------------- UScrime
data(UScrime, package = "MASS")
u <- UScrime
u[, -2] <- log(u[, -2])          # BAS vignette: every column but the binary So
stopifnot(names(u)[ncol(u)] == "y")
csv <- file.path(out_dir, "uscrime_log.csv")
lines <- c(paste(names(u), collapse = ","),
           apply(u, 1, function(r) paste(sprintf("%.17g", r), collapse = ",")))
writeLines(lines, csv)
cat("wrote", csv, "\n")
d <- read.csv(csv)
stopifnot(isTRUE(all.equal(as.matrix(d), as.matrix(u), tolerance = 0, check.attributes = FALSE)))

usc <- list(
    dataset = "uscrime_log",
    file = "uscrime_log.csv",
    source = list(package = "MASS (Debian r-cran-mass)", version = packageDescription("MASS")$Version,
                  data = "UScrime (47 US states, 1960; Ehrlich 1973 via Vandaele 1978)",
                  transform = "UScrime[, -2] <- log(UScrime[, -2]): natural log of every column except the binary So (BAS vignette)"),
    n = nrow(d), p = ncol(d) - 1,
    predictors = arr(setdiff(names(d), "y")),
    sum_y_centred_sq = sum((d$y - mean(d$y))^2),
    bas = bas_info,
    conventions = conventions,
    priors = list(
        BIC = reference_fit(d, "BIC"),
        AIC = reference_fit(d, "AIC"),
        `g-prior` = reference_fit(d, "g-prior", alpha = nrow(d))))
write_json_file(usc, file.path(out_dir, "bas_uscrime.json"))

## ------------------------------------------ UScrime under mixtures of g-priors
## BAS's own numbers, and for two priors an exact reference: log marginals by
## R's integrate() over u = log g, for every model from BAS's R2 (Liang et al.
## 2008 eq. 5 integrated against pi(g)), to a relative 1e-10.
log1pexp <- function(u) ifelse(u > 35, u + log1p(exp(-pmin(u, 700))), log1p(exp(pmin(u, 35))))
exact_mix <- function(fit, log_prior, name) {
    n <- fit$n
    N <- n - 1
    k <- fit$size - 1
    lm1 <- function(R2, k) {
        if (k == 0) return(0)
        l <- function(u) 0.5 * (N - k) * log1pexp(u) - 0.5 * N * log1pexp(u + log(1 - R2)) + log_prior(u, k) + u
        lo <- log_prior(0, k)
        u_lo <- attr(lo, "lower")
        opt <- optimize(l, c(max(u_lo, -30), 30), maximum = TRUE, tol = 1e-10)
        m <- opt$objective
        f <- function(u) exp(l(u) - m)
        i1 <- integrate(f, u_lo, opt$maximum, rel.tol = 1e-10, subdivisions = 1000L)$value
        i2 <- integrate(f, opt$maximum, Inf, rel.tol = 1e-10, subdivisions = 1000L)$value
        m + log(i1 + i2)
    }
    logmarg <- mapply(lm1, fit$R2, k)
    post <- exp(logmarg - max(logmarg))
    post <- post / sum(post)
    inputs <- fit$namesx[-1]
    inc <- t(vapply(fit$which, function(w) seq_along(inputs) %in% w[-1], logical(length(inputs))))
    pip <- setNames(colSums(post * inc), inputs)
    size_post <- setNames(as.numeric(tapply(post, factor(k, levels = 0:length(inputs)), sum)), 0:length(inputs))
    size_post[is.na(size_post)] <- 0
    ord <- order(-post)
    list(call = paste0("exact reference (R integrate, rel.tol 1e-10) for ", name, " over BAS's enumerated models"),
         n_models = length(post), pip = pip, model_size_posterior = size_post,
         top_models = lapply(ord[1:20], function(i) list(rank = match(i, ord),
             predictors = arr(inputs[fit$which[[i]][-1]]), size = k[i], postprob = post[i],
             logmarg = logmarg[i], R2 = fit$R2[i])))
}
d <- read.csv(csv)
n_us <- nrow(d)
set.seed(1)
g_fit <- bas.lm(y ~ ., data = d, prior = "g-prior", alpha = n_us, modelprior = uniform(), method = "BAS",
                n.models = 2^(ncol(d) - 1))
## log pi(e^u) for u = log g, and (attribute "lower") the smallest u allowed
hgn_prior <- function(u, k) structure(log((3 - 2) / (2 * n_us)) - 1.5 * log1pexp(u - log(n_us)), lower = -Inf)
robust_prior <- function(u, k) {
    lo <- (1 + n_us) / (k + 1) - 1  # Bayarri et al. 2012 eq. 20, a = 1/2, b = 1, rho = 1/(k + 1)
    structure(log(0.5) + 0.5 * log((1 + n_us) / (k + 1)) - 1.5 * log1pexp(u), lower = if (lo > 0) log(lo) else -Inf)
}
mix <- list(
    dataset = "uscrime_log", file = "uscrime_log.csv", n = nrow(d), p = ncol(d) - 1,
    predictors = arr(setdiff(names(d), "y")),
    bas = bas_info,
    conventions = conventions,
    priors = list(
        `hyper-g` = reference_fit(d, "hyper-g", n_pred = 0),
        `hyper-g-n` = reference_fit(d, "hyper-g-n", n_pred = 0),
        JZS = reference_fit(d, "JZS", n_pred = 0),
        `EB-local` = reference_fit(d, "EB-local", n_pred = 0),
        `EB-global` = reference_fit(d, "EB-global", n_pred = 0),
        `hyper-g-n exact` = exact_mix(g_fit, hgn_prior, "hyper-g/n (a = 3)"),
        `robust exact` = exact_mix(g_fit, robust_prior, "robust (Bayarri et al. 2012)")))
write_json_file(mix, file.path(out_dir, "bas_uscrime_mixtures.json"))

## -------------------------------------------------------------- lin_p15_n200
d <- read.csv(file.path(out_dir, "lin_p15_n200.csv"))
lin <- list(
    dataset = "lin_p15_n200",
    file = "lin_p15_n200.csv",
    n = nrow(d), p = ncol(d) - 1,
    predictors = arr(setdiff(names(d), "y")),
    sum_y_centred_sq = sum((d$y - mean(d$y))^2),
    bas = bas_info,
    conventions = conventions,
    priors = list(`g-prior` = reference_fit(d, "g-prior", alpha = nrow(d))))
write_json_file(lin, file.path(out_dir, "bas_lin_p15_n200.json"))
