## S3 methods of a basel fit, read from its document (FIT.json; docs/FIT.md).

atom_names <- function(object) vapply(object$doc$atoms, function(a) a$name, "")

pip <- function(object) {
    p <- object$doc$pip
    if (is.null(p)) return(NULL)
    setNames(as.numeric(p), atom_names(object))
}

print.basel <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
    d <- x$doc
    if (!is.null(x$call)) cat("\nCall:\n", paste(deparse(x$call), sep = "\n", collapse = "\n"), "\n", sep = "")
    fam <- d$settings$family
    cat("\nbasel ", d$basel_version, ", method ", d$method, if (!is.null(fam)) paste0(", family ", fam),
        ", n = ", d$n, ", seed ", d$seed, "\n", sep = "")
    if (!is.null(d$prior)) {
        pr <- d$prior
        cat("coefficient prior: ", format_prior(pr$coefficients), "; model prior: ", format_prior(pr$model), "\n", sep = "")
    }
    p <- pip(x)
    if (!is.null(p)) {
        cat("\nMarginal posterior inclusion probabilities",
            if (length(p) > 30) sprintf(" (the 20 largest of %d atoms; pip() has all)", length(p)), ":\n", sep = "")
        if (length(p) > 30) p <- utils::head(sort(p, decreasing = TRUE), 20)
        print(round(p, digits), ...)
    }
    if (!is.null(d$model_size)) cat("\nMost probable model size: ", d$k_opt, "\n", sep = "")
    invisible(x)
}

format_prior <- function(p) {
    if (is.null(p)) return("")
    if (is.character(p)) return(paste(p, collapse = " "))
    if (is.list(p)) {
        if (!is.null(p$name)) {
            rest <- p[setdiff(names(p), "name")]
            if (!length(rest)) return(p$name)
            return(paste0(p$name, "(", paste(names(rest), vapply(rest, function(v) paste(format(v), collapse = ","), ""),
                                             sep = "=", collapse = ", "), ")"))
        }
        return(paste(names(p), vapply(p, function(v) paste(format(v), collapse = ","), ""), sep = "=", collapse = ", "))
    }
    format(p)
}

## log model prior of models of sizes k among m atoms (up to a constant), for
## Bayes factors when the document has no marginal likelihoods.
log_model_prior <- function(spec, k, m) {
    name <- sub(":.*", "", spec)
    par <- list()
    if (grepl(":", spec)) {
        kv <- strsplit(strsplit(sub("^[^:]*:", "", spec), ",")[[1]], "=")
        par <- setNames(lapply(kv, function(e) as.numeric(e[2])), vapply(kv, `[`, "", 1))
    }
    switch(name,
           uniform = rep(0, length(k)),
           bernoulli = k * log(par$p) + (m - k) * log1p(-par$p),
           `beta-binomial` = lbeta(k + (if (is.null(par$a)) 1 else par$a), m - k + (if (is.null(par$b)) 1 else par$b)),
           poisson = stats::dpois(k, par$mean, log = TRUE) - lchoose(m, k),
           rep(NA_real_, length(k)))
}

## The listed models: probability, log marginal likelihood and Bayes
## factors (against the best listed model) where the document has them.
top_models <- function(object) {
    d <- object$doc
    ms <- d$models
    if (is.null(ms) || !length(ms)) return(NULL)
    an <- atom_names(object)
    atoms <- lapply(ms, function(mo) as.integer(unlist(mo$atoms)))
    prob <- vapply(ms, function(mo) as.numeric(mo$prob), 0)
    get <- function(key) vapply(ms, function(mo) if (is.null(mo[[key]])) NA_real_ else as.numeric(mo[[key]]), 0)
    log_bf <- get("log_bf_best")
    ## (not for a multinomial fit: its model prior is per class, not a function of the joint size)
    if (all(is.na(log_bf)) && d$method %in% c("enumerate", "bd", "rj", "ssvs") &&
        !identical(d$settings$family, "multinomial")) {
        ## BF_i = posterior odds / prior odds against the most probable model
        ## (the subset engines' model priors, over subsets as in FIT.md)
        k <- lengths(atoms)
        lp <- log_model_prior(d$settings[["model-prior"]], k, length(an))
        log_bf <- (log(prob) - lp) - (log(prob[1]) - lp[1])
    }
    data.frame(model = vapply(atoms, function(a) if (length(a)) paste(an[a + 1L], collapse = " + ") else "(null)", ""),
               size = lengths(atoms), prob = prob, log_ml = get("log_ml"), BF = exp(log_bf),
               stringsAsFactors = FALSE)
}

## Coefficients: the document's table when the library wrote one
## ("coefficients"), else the model-averaged means of the subset engines'
## predictor (sd and intervals unknown then).
coef_table <- function(object) {
    d <- object$doc
    co <- d$coefficients
    if (!is.null(co) && length(co$terms)) {
        g <- function(t, key) if (is.null(t[[key]])) NA_real_ else as.numeric(t[[key]])
        tt <- co$terms
        tab <- data.frame(term = vapply(tt, function(t) t$name, ""), target = vapply(tt, function(t) t$target, ""),
                          pip = vapply(tt, g, 0, "pip"), mean = vapply(tt, g, 0, "mean"), sd = vapply(tt, g, 0, "sd"),
                          cond_mean = vapply(tt, g, 0, "cond_mean"), cond_sd = vapply(tt, g, 0, "cond_sd"),
                          lower = vapply(tt, g, 0, "lower"), upper = vapply(tt, g, 0, "upper"), stringsAsFactors = FALSE)
        if (!is.null(tt[[1]]$class)) tab$class <- vapply(tt, function(t) t$class, "")  # multinomial: per class
        attr(tab, "level") <- as.numeric(co$level)
        return(tab)
    }
    bma <- d$engine$predictor$bma
    if (is.null(bma) || is.null(bma$coef)) return(NULL)
    an <- atom_names(object)
    st <- d$standardize
    scale <- if (isTRUE(st$applied)) as.numeric(unlist(st$scale)) else rep(1, length(an))
    beta <- rep(0, length(an))
    idx <- as.integer(unlist(bma$atoms)) + 1L
    nt <- length(d$targets)
    cf <- matrix(as.numeric(unlist(bma$coef)), ncol = nt, byrow = TRUE)
    beta[idx] <- cf[, 1]
    ## the predictor's model: f(x) = ybar + sum_j beta_j (z_j - zbar_j), z the
    ## (standardised) inputs, zbar = always_in_coef when the intercept is
    ## the only always-in column; on the inputs' scale (as the library's
    ## coefficient table) the intercept is ybar - sum_j beta_j (zbar_j + mu_j / s_j)
    b <- d$engine$basis
    mu <- if (isTRUE(st$applied)) as.numeric(unlist(st$mean)) else rep(0, length(an))
    if (length(scale) != length(an)) scale <- rep(1, length(an))
    icpt <- NA_real_
    if (length(unlist(b$R)) == 1 && length(unlist(b$always_in_coef)) == length(an))
        icpt <- as.numeric(unlist(b$always_in_y))[1] - sum(beta * (as.numeric(unlist(b$always_in_coef)) + mu / scale))
    tab <- data.frame(term = c("(Intercept)", an), target = d$targets[[1]],
                      pip = c(1, as.numeric(d$pip)), mean = c(icpt, beta / scale),
                      sd = NA_real_, cond_mean = NA_real_, cond_sd = NA_real_, lower = NA_real_, upper = NA_real_,
                      stringsAsFactors = FALSE)
    attr(tab, "level") <- NA_real_
    tab
}

coef.basel <- function(object, ...) {
    tab <- coef_table(object)
    if (is.null(tab)) basel_stop("method ", object$doc$method, " has no coefficients")
    structure(tab, class = c("coef.basel", "data.frame"))
}

print.coef.basel <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
    y <- x
    class(y) <- "data.frame"
    if (length(unique(y$target)) == 1) y$target <- NULL
    rownames(y) <- make.unique(y$term)
    y$term <- NULL
    cat("\nModel-averaged coefficients (", if (is.na(attr(x, "level"))) "posterior mean; sd not in this fit's document" else
        "posterior mean, sd, and given inclusion", "):\n", sep = "")
    print(y[, colSums(!is.na(y)) > 0, drop = FALSE], digits = digits, ...)
    invisible(x)
}

confint.basel <- function(object, parm, level = 0.95, ...) {
    tab <- coef_table(object)
    if (is.null(tab) || all(is.na(tab$lower)))
        basel_stop("this fit's document has no coefficient intervals (FIT.json \"coefficients\")")
    if (!isTRUE(all.equal(level, attr(tab, "level"))))
        basel_stop("the document holds ", attr(tab, "level"), " intervals, not ", level)
    ci <- cbind(tab$lower, tab$upper, tab$mean)
    a <- (1 - level) / 2
    dimnames(ci) <- list(make.unique(tab$term), c(sprintf("%.3g%%", 100 * a), sprintf("%.3g%%", 100 * (1 - a)), "beta"))
    if (!missing(parm)) ci <- ci[parm, , drop = FALSE]
    ci
}

summary.basel <- function(object, n.models = 5, ...) {
    d <- object$doc
    ip <- d$input_pip
    structure(list(call = object$call, method = d$method, family = d$settings$family, n = d$n, seed = d$seed,
                   prior = d$prior, input_pip = if (!is.null(ip)) setNames(as.numeric(unlist(ip$pip)), unlist(ip$inputs)),
                   pip = pip(object), coefficients = coef_table(object), models = top_models(object),
                   size = if (!is.null(d$model_size)) setNames(as.numeric(d$model_size$prob), d$model_size$k) else NULL,
                   selected = lapply(d$selected, function(s) atom_names(object)[as.integer(unlist(s)) + 1L]),
                   diagnostics = d$diagnostics, n.models = n.models, text = .Call(r_basel_fit_summary, fit_ptr(object))),
              class = "summary.basel")
}

print.summary.basel <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
    if (!is.null(x$call)) cat("\nCall:\n", paste(deparse(x$call), collapse = "\n"), "\n", sep = "")
    cat("\nmethod ", x$method, if (!is.null(x$family)) paste0(", family ", x$family), ", n = ", x$n, ", seed ",
        x$seed, "\n", sep = "")
    if (!is.null(x$coefficients)) {
        tab <- x$coefficients
        rownames(tab) <- make.unique(tab$term)
        keep <- c("pip", "mean", "sd", "cond_mean", "cond_sd")
        tab <- tab[, keep[colSums(!is.na(tab[, keep])) > 0], drop = FALSE]
        if (nrow(tab) > 31) {
            cat("\n(the 30 terms of largest PIP, of ", nrow(tab), "; coef() has all)", sep = "")
            tab <- tab[order(-tab$pip)[1:30], , drop = FALSE]
        }
        names(tab)[names(tab) == "pip"] <- "P(B != 0 | Y)"
        cat("\nCoefficients (model-averaged):\n")
        print(tab, digits = digits)
    } else if (!is.null(x$pip)) {
        p <- x$pip
        cat("\nPosterior inclusion probabilities",
            if (length(p) > 30) sprintf(" (the 20 largest of %d atoms)", length(p)), ":\n", sep = "")
        if (length(p) > 30) p <- utils::head(sort(p, decreasing = TRUE), 20)
        print(round(p, digits))
    }
    if (!is.null(x$input_pip)) {
        cat("\nInputs' inclusion probabilities (in some class's subset):\n")
        print(round(x$input_pip, digits))
    }
    if (!is.null(x$models)) {
        mo <- utils::head(x$models, x$n.models)
        rownames(mo) <- paste0("model ", seq_len(nrow(mo)))
        if (all(is.na(mo$log_ml))) mo$log_ml <- NULL
        bf <- !all(is.na(mo$BF))
        if (!bf) mo$BF <- NULL  # a multinomial fit: its model prior is per class
        cat("\nTop models", if (bf) " (Bayes factors against the best listed model)", ":\n", sep = "")
        print(mo, digits = digits, right = FALSE)
    }
    if (!is.null(x$size)) {
        cat("\nPosterior of the model size:\n")
        print(round(x$size[x$size > 1e-4 | seq_along(x$size) == 1], digits))
    }
    for (s in names(x$selected))
        cat(sprintf("%-11s %s\n", paste0(s, ":"), if (length(x$selected[[s]])) paste(x$selected[[s]], collapse = " ") else "(null)"))
    w <- unlist(x$diagnostics$warnings)
    if (length(w)) cat("\nwarnings:\n", paste0("  ", w, "\n"), sep = "")
    invisible(x)
}

#' Convergence diagnostics: per-atom PIPs by chain, R-hat and ESS where the
#' method computed them, and the fit's warnings.
diagnostics <- function(object, ...) UseMethod("diagnostics")
diagnostics.basel <- function(object, plot = FALSE, ...) {
    dg <- object$doc$diagnostics
    an <- atom_names(object)
    tab <- data.frame(pip = as.numeric(object$doc$pip), row.names = an)
    if (!is.null(dg$rhat_pip)) tab$rhat <- suppressWarnings(as.numeric(unlist(dg$rhat_pip)))
    if (!is.null(dg$ess_pip)) tab$ess <- as.numeric(unlist(dg$ess_pip))
    pc <- NULL
    if (!is.null(dg$pip_chain)) {
        pc <- matrix(as.numeric(unlist(dg$pip_chain)), ncol = length(an), byrow = TRUE)  # chains x atoms
        colnames(pc) <- an
        for (c in seq_len(nrow(pc))) tab[[paste0("chain", c)]] <- pc[c, ]
    }
    if (plot && !is.null(pc)) {
        graphics::matplot(tab$pip, t(pc), pch = 1, xlim = c(0, 1), ylim = c(0, 1),
                          xlab = "pooled PIP", ylab = "PIP of each chain", main = "PIPs by chain")
        graphics::abline(0, 1, lty = 2)
    }
    scalars <- dg[vapply(dg, function(v) length(v) == 1 && !is.list(v), TRUE)]
    structure(list(table = tab, scalars = scalars, warnings = unlist(dg$warnings)), class = "basel_diagnostics")
}

print.basel_diagnostics <- function(x, digits = 4, ...) {
    print(x$table, digits = digits)
    for (n in names(x$scalars)) cat(n, ": ", format(x$scalars[[n]], digits = digits), "\n", sep = "")
    if (length(x$warnings)) cat("warnings:\n", paste0("  ", x$warnings, "\n"), sep = "")
    invisible(x)
}

## predict: the library's predictions, its mean and equal-tailed interval
## for a new observation ("predict") or for the regression function
## ("confidence"); se.fit from the subset engines' model mixture.
predict.basel <- function(object, newdata, estimator = c("BMA", "HPM", "MPM", "prevalence", "MAP"),
                          se.fit = FALSE, interval = c("none", "predict", "confidence"), level = 0.95,
                          type = NULL, ...) {
    estimator <- match.arg(estimator)
    interval <- match.arg(interval)
    if (!is.null(type)) type <- match.arg(type, c("response", "prob", "class"))
    if (identical(object$doc$method, "anneal") && estimator == "BMA") estimator <- "MAP"  # its one network
    model <- c(BMA = "bma", HPM = "hpm", MPM = "median", prevalence = "prevalence", MAP = "map")[[estimator]]
    x <- new_inputs(object, newdata)
    path <- tempfile("basel-pred-", fileext = ".csv")
    on.exit(unlink(path))
    checked(.Call(r_basel_predict, fit_ptr(object), x, colnames(x), model, as.double(level),
                  interval == "confidence", path))
    p <- utils::read.csv(path, check.names = FALSE)
    res <- list(fit = NULL, estimator = estimator, level = level, table = p)
    targets <- unlist(object$doc$targets)
    mcols <- paste0(targets, "_mean")
    if (all(mcols %in% names(p))) {
        one <- function(s) { v <- as.matrix(p[paste0(targets, s)]); colnames(v) <- targets; if (ncol(v) == 1) v[, 1] else v }
        res$fit <- one("_mean")
        if (interval != "none") {
            res$interval <- if (length(targets) == 1) cbind(fit = p[[mcols]], lwr = p[[paste0(targets, "_lower")]],
                                                            upr = p[[paste0(targets, "_upper")]])
                            else list(fit = one("_mean"), lwr = one("_lower"), upr = one("_upper"))
        }
        if (se.fit) res$se.fit <- se_fit(object, x, model)
    } else {
        res$fit <- p
    }
    if (!is.null(type)) res$fit <- typed_prediction(object, p, res$fit, type)
    res$type <- type
    structure(res, class = "predict.basel")
}

## predict's type: "prob" the model-averaged class probabilities (the
## library's p_<class> columns, a matrix), "class" the most probable class
## (a factor with the fit's classes as levels), "response" the mean (a
## Gaussian or Poisson fit: <target>_mean; binomial: P(y = the second
## class), as glm's type = "response"; multinomial and mixture: the
## probabilities).
typed_prediction <- function(object, p, fit, type) {
    pcols <- grep("^p_", names(p), value = TRUE)
    classifier <- length(pcols) > 0 && "class" %in% names(p)
    if (!classifier) {
        if (type != "response")
            basel_stop("type = \"", type, "\" is for classifiers (family binomial or multinomial, method ",
                       "mixture); this fit predicts a mean: type = \"response\"")
        return(fit)
    }
    prob <- as.matrix(p[pcols])
    classes <- sub("^p_", "", pcols)
    fam <- object$doc$settings$family
    switch(type,
           prob = prob,
           class = factor(as.character(p$class), levels = classes),
           response = if (identical(fam, "binomial")) prob[, 2] else prob)
}

print.predict.basel <- function(x, ...) {
    print(if (!is.null(x$interval)) x$interval else x$fit, ...)
    invisible(x)
}

## New rows in the model matrix's columns (the fit's inputs), in the
## document's input order.
new_inputs <- function(object, newdata) {
    if (missing(newdata) || is.null(newdata)) basel_stop("predict needs newdata")
    inputs <- unlist(object$doc$inputs)
    if (is.null(object$terms)) {          # read_fit(): the document's input columns by name
        newdata <- factor_indicators(object, as.data.frame(newdata))
        miss <- setdiff(inputs, names(newdata))
        if (length(miss)) basel_stop("newdata lacks the fit's input column(s) ", paste(miss, collapse = ", "))
        x <- as.matrix(newdata[inputs])
        storage.mode(x) <- "double"
        return(x)
    }
    tt <- stats::delete.response(object$terms)
    mf <- stats::model.frame(tt, newdata, na.action = stats::na.pass, xlev = object$xlevels)
    x <- stats::model.matrix(tt, mf, contrasts.arg = object$contrasts)
    grouped <- object$grouped
    x <- x[, colnames(x) != "(Intercept)" & !(attr(x, "assign") %in% grouped$term), drop = FALSE]
    colnames(x) <- object$x_names[seq_len(ncol(x))]
    if (length(grouped$var)) {
        ## the grouped factors' indicators, coded as the library coded them
        g <- stats::setNames(lapply(grouped$var, function(v) as.character(mf[[v]])),
                             object$x_names[ncol(x) + seq_along(grouped$var)])
        ind <- factor_indicators(object, as.data.frame(g, check.names = FALSE, stringsAsFactors = FALSE))
        x <- cbind(x, as.matrix(ind[setdiff(names(ind), names(g))]))
        x <- x[, inputs, drop = FALSE]
    }
    storage.mode(x) <- "double"
    x
}

## newdata with each categorical input's indicator columns (docs/FIT.md
## "factors") added from the column's levels, matched by name as the library
## does; NA stays NA (the library leaves that row's prediction empty).
factor_indicators <- function(object, newdata) {
    for (f in object$doc$factors) {
        if (is.null(newdata[[f$input]])) basel_stop("newdata lacks the fit's input column(s) ", f$input)
        v <- as.character(newdata[[f$input]])
        bad <- which(!is.na(v) & !(v %in% unlist(f$levels)))
        if (length(bad))
            basel_stop("categorical input '", f$input, "': level '", v[bad[1]], "' (row ", bad[1],
                       ") was not seen in training")
        cols <- unlist(f$columns)
        for (l in seq_along(cols)) newdata[[cols[l]]] <- as.double(v == unlist(f$levels)[l + 1L])
    }
    newdata
}

## sd of the regression function f(x) under the estimator's model(s): for a
## single model block sigma2 x~' V x~; for BMA the mixture over the blocks
## of the listed models (their variances plus the spread of their means),
## as BAS's se.bma.fit. Linear basis only; NULL otherwise.
se_fit <- function(object, x, model) {
    e <- object$doc$engine
    if (is.null(e$basis) || !identical(e$basis$kind, "linear") || length(object$doc$targets) != 1 ||
        length(unlist(e$basis$R)) != 1) return(NULL)   # the intercept the only always-in column
    st <- object$doc$standardize
    mu <- as.numeric(unlist(st$mean))
    sc <- as.numeric(unlist(st$scale))
    z <- sweep(sweep(x, 2, mu), 2, sc, "/")
    blk <- function(b) {
        a <- as.integer(unlist(b$atoms)) + 1L
        k <- length(a)
        ## centred design: f(x) = ybar + (z - zbar)' beta; the intercept's
        ## variance sigma2 / n
        zbar <- as.numeric(unlist(e$basis$always_in_coef))[seq_along(mu)]
        zc <- sweep(z[, a, drop = FALSE], 2, zbar[a])
        s2 <- as.numeric(unlist(b$sigma2))[1]
        v <- if (k) rowSums((zc %*% matrix(as.numeric(unlist(b$V)), k, k)) * zc) else 0
        list(mean = as.numeric(ybar_of(e) + zc %*% as.numeric(unlist(b$coef))[seq_len(k)]),
             var = s2 * (1 / object$doc$n + v), w = as.numeric(b$weight))
    }
    pr <- e$predictor
    if (model != "bma") return(sqrt(blk(pr[[model]])$var))
    if (!is.null(pr$bma$posterior)) return(se_fit_posterior(object, z, pr$bma$posterior))
    bs <- lapply(pr$bma$mixture, blk)
    w <- vapply(bs, function(b) b$w, 0)
    w <- w / sum(w)
    m <- Reduce(`+`, Map(function(b, wi) wi * b$mean, bs, w))
    sqrt(Reduce(`+`, Map(function(b, wi) wi * (b$var + (b$mean - m)^2), bs, w)))
}

## BMA se.fit from the document's posterior block (every visited model with
## its weight, and the centred cross-products of the atoms they use), as
## BAS's se.bma.fit under the g-prior: per model M, shrinkage s = g / (1 + g),
## mean ybar + s xc' bhat_M, var_fit = MSE_M (1/n + s xc' (Xc'Xc)^-1 xc),
## MSE_M = yy (1 - s R2_M) / (n - 1); the mixture's variance adds the spread
## of the models' means. Other priors: NULL (not derived here yet).
se_fit_posterior <- function(object, z, po) {
    if (!identical(po$prior$kind, "g") || length(unlist(po$yy)) != 1) return(NULL)
    n <- as.numeric(po$n)
    g <- as.numeric(po$prior$g)
    sh <- g / (1 + g)
    pa <- as.integer(unlist(po$atoms)) + 1L
    np <- length(pa)
    G <- matrix(as.numeric(unlist(po$gram)), np, np)
    b <- as.numeric(unlist(po$bty))
    yy <- as.numeric(unlist(po$yy))
    e <- object$doc$engine
    zbar <- as.numeric(unlist(e$basis$always_in_coef))
    zc <- sweep(z[, pa, drop = FALSE], 2, zbar[pa])
    ybar <- ybar_of(e)
    w <- as.numeric(unlist(po$weights))
    w <- w / sum(w)
    nr <- nrow(z)
    mean <- var <- matrix(0, length(w), nr)
    for (i in seq_along(w)) {
        a <- match(as.integer(unlist(po$models[[i]])) + 1L, pa)
        if (!length(a)) {
            mean[i, ] <- ybar
            var[i, ] <- yy / (n - 1) / n
            next
        }
        R <- chol(G[a, a, drop = FALSE])
        bh <- backsolve(R, forwardsolve(t(R), b[a]))
        r2 <- sum(b[a] * bh) / yy
        u <- forwardsolve(t(R), t(zc[, a, drop = FALSE]))
        mean[i, ] <- ybar + sh * as.numeric(zc[, a, drop = FALSE] %*% bh)
        var[i, ] <- yy * (1 - sh * r2) / (n - 1) * (1 / n + sh * colSums(u^2))
    }
    m <- colSums(w * mean)
    sqrt(colSums(w * var) + colSums(w * sweep(mean, 2, m)^2))
}

ybar_of <- function(e) as.numeric(unlist(e$basis$always_in_y))[1]
