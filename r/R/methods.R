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
    w <- unlist(d$diagnostics$warnings)  # the fit's own, as basel() signalled them
    if (length(w)) cat("\nwarnings:\n", paste0("  ", w, "\n"), sep = "")
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

## The listed models: probability, log marginal likelihood and Bayes
## factors against the most probable listed model, as the library gives
## them (basel_fit_model: from the marginal likelihoods, else from the model
## prior that ran; NA where neither applies).
top_models <- function(object) {
    ms <- .Call(r_basel_models, fit_ptr(object))
    if (is.null(ms)) return(NULL)
    ms <- checked(ms)
    an <- atom_names(object)
    data.frame(model = vapply(ms$atoms, function(a) if (length(a)) paste(an[a + 1L], collapse = " + ") else "(null)", ""),
               size = lengths(ms$atoms), prob = ms$prob, log_ml = ms$log_ml, BF = exp(ms$log_bf),
               stringsAsFactors = FALSE)
}

## Coefficients: the library's table (basel_fit_coef: FIT.json
## "coefficients"), or on demand (basel_fit_model_coef) with its intervals
## at level: the model average's ("BMA" with a level), or the "HPM" or
## "MPM" model's; NULL when the fit has none.
coef_table <- function(object, estimator = "BMA", level = NULL) {
    model <- if (estimator == "BMA" && is.null(level)) NULL else c(BMA = "bma", HPM = "hpm", MPM = "median")[[estimator]]
    if (is.null(level)) level <- 0.95
    co <- .Call(r_basel_coef, fit_ptr(object), model, as.double(level))
    if (is.null(co)) return(NULL)
    co <- checked(co)
    v <- co$values
    tab <- data.frame(term = co$term, target = co$target, pip = v[, 1], mean = v[, 2], sd = v[, 3],
                      cond_mean = v[, 4], cond_sd = v[, 5], lower = v[, 6], upper = v[, 7], stringsAsFactors = FALSE)
    if (!is.null(co$class)) tab$class <- co$class  # multinomial: per class
    ## rows by term (coef(fit)["x1", ]); several targets or classes: "y2:x1"
    by <- if (!is.null(co$class)) co$class else if (length(unique(co$target)) > 1) co$target else NULL
    rownames(tab) <- make.unique(if (is.null(by)) co$term else paste0(by, ":", co$term))
    attr(tab, "level") <- co$level
    tab
}

## The credible sets (docs/FIT.md "credible_sets"), one per signal: per
## set its inputs (names joined by " + "), atoms (their 1-based indices, a
## list column), size, coverage and purity; NULL when the fit has none.
credible_sets <- function(object, ...) UseMethod("credible_sets")
credible_sets.basel <- function(object, ...) {
    cs <- .Call(r_basel_credible_sets, fit_ptr(object))
    if (is.null(cs)) return(NULL)
    cs <- checked(cs)
    an <- atom_names(object)
    out <- data.frame(set = seq_along(cs$atoms), inputs = vapply(cs$atoms, function(a) paste(an[a + 1L], collapse = " + "), ""),
                      size = lengths(cs$atoms), coverage = cs$coverage, purity = cs$purity, stringsAsFactors = FALSE)
    out$atoms <- I(lapply(cs$atoms, function(a) as.integer(a) + 1L))
    out[, c("set", "inputs", "atoms", "size", "coverage", "purity")]
}

## BAS's coef(fit, estimator =): the model average (BMA), or the
## coefficients given the highest-probability (HPM) or median probability
## model (MPM), each computed by the library (basel_fit_model_coef).
coef.basel <- function(object, estimator = c("BMA", "HPM", "MPM"), ...) {
    estimator <- match.arg(estimator)
    tab <- coef_table(object, estimator)
    if (is.null(tab)) basel_stop("method ", object$doc$method, " has no coefficients")
    structure(tab, class = c("coef.basel", "data.frame"), estimator = estimator, fit = object)
}

coef_titles <- c(BMA = "Model-averaged coefficients (posterior mean, sd, and given inclusion)",
                 HPM = "Coefficients of the highest-probability model (posterior mean and sd given that model)",
                 MPM = "Coefficients of the median probability model (posterior mean and sd given that model)")

print.coef.basel <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
    y <- x
    class(y) <- "data.frame"
    attr(y, "fit") <- NULL
    if (length(unique(y$target)) == 1) y$target <- NULL
    y$term <- NULL  # the rows are named by term (coef_table)
    est <- attr(x, "estimator")
    if (is.null(est)) est <- "BMA"
    if (est != "BMA") y$cond_mean <- y$cond_sd <- NULL  # one model: its mean and sd again
    cat("\n", coef_titles[[est]], ":\n", sep = "")
    print(y[, colSums(!is.na(y)) > 0, drop = FALSE], digits = digits, ...)
    invisible(x)
}

## The interval matrix of a coefficient table (BAS's confint.bas layout:
## lower, upper, beta).
interval_matrix <- function(tab, parm, level) {
    ci <- cbind(tab$lower, tab$upper, tab$mean)
    a <- (1 - level) / 2
    dimnames(ci) <- list(make.unique(tab$term), c(sprintf("%.3g%%", 100 * a), sprintf("%.3g%%", 100 * (1 - a)), "beta"))
    if (!missing(parm)) ci <- ci[parm, , drop = FALSE]
    attr(ci, "Probability") <- level
    ci
}

## confint(coef(fit, estimator), level =): the library's equal-tailed
## intervals: at the table's level its own, at another computed by the
## library (basel_fit_model_coef): one model's (HPM, MPM) from its
## Student-t, the model average's from the mixture over the models of its
## predictive block (as predict's intervals).
confint.coef.basel <- function(object, parm, level = 0.95, ...) {
    est <- attr(object, "estimator")
    if (is.null(est)) est <- "BMA"
    tab <- object
    if (!isTRUE(all.equal(level, attr(object, "level")))) {
        if (is.null(attr(object, "fit"))) basel_stop("this table does not hold its fit: confint(coef(fit), level =)")
        tab <- coef_table(attr(object, "fit"), est, level)
    }
    if (all(is.na(tab$lower))) basel_stop("this fit's coefficient table has no intervals")
    interval_matrix(tab, parm, level)
}

confint.basel <- function(object, parm, level = 0.95, estimator = c("BMA", "HPM", "MPM"), ...) {
    confint(coef(object, estimator = match.arg(estimator)), parm, level = level, ...)
}

summary.basel <- function(object, n.models = 5, ...) {
    d <- object$doc
    ip <- d$input_pip
    structure(list(call = object$call, method = d$method, family = d$settings$family, n = d$n, seed = d$seed,
                   prior = d$prior, input_pip = if (!is.null(ip)) setNames(as.numeric(unlist(ip$pip)), unlist(ip$inputs)),
                   pip = pip(object), coefficients = coef_table(object), models = top_models(object),
                   credible_sets = credible_sets(object),
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
    if (!is.null(x$credible_sets)) {
        cs <- x$credible_sets
        cat("\nCredible sets (coverage 0.95; docs/FIT.md):\n")
        print(data.frame(inputs = cs$inputs, coverage = cs$coverage, purity = cs$purity, row.names = cs$set),
              digits = digits, right = FALSE)
    }
    if (!is.null(x$size)) {
        cat("\nPosterior of the model size:\n")
        ## the sizes from the first to the last with mass above 1e-4, without gaps
        held <- which(x$size > 1e-4)
        if (!length(held)) held <- 1L
        print(round(x$size[seq(min(held), max(held))], digits))
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
## ("confidence"), and se.fit, the sd of the regression function
## (basel_pred_se: BAS's se.fit), all in memory.
predict.basel <- function(object, newdata, estimator = c("BMA", "HPM", "MPM", "prevalence", "projection", "MAP"),
                          se.fit = FALSE, interval = c("none", "predict", "confidence"), level = 0.95,
                          type = NULL, ...) {
    estimator <- match.arg(estimator)
    interval <- match.arg(interval)
    if (!is.null(type)) type <- match.arg(type, c("response", "prob", "class"))
    model <- estimator_model(object, estimator)
    estimator <- names(estimator_models)[match(model, estimator_models)]
    ## without newdata, the training rows (as predict.lm): fitted values
    if (missing(newdata) || is.null(newdata)) {
        x <- training_inputs(object)
        newdata <- NULL
    } else {
        x <- new_inputs(object, newdata)
    }
    ## the library's basel_interval_kind: no interval asked for and no se.fit
    ## skips the mixture quantiles (most of the cost), and works under the
    ## priors whose intervals basel does not compute (hyper-g, jzs, ...)
    kind <- if (interval == "confidence") 1L else if (interval == "predict") 0L else if (se.fit) 3L else 2L
    v <- predict_inputs(object, x, model, level, kind)
    if (se.fit && is.null(v$se) && is.null(v$classes) && method_caps(object$doc$method)$mean_interval)
        basel_stop("se.fit is not computed under prior '", object$doc$prior$coefficients, "': a model's ",
                   "predictive is a mixture over g of Student-t's; the means are (se.fit = FALSE)")
    res <- list(fit = NULL, estimator = estimator, level = level)
    if (is.null(v$classes)) {
        targets <- v$targets
        named <- function(m) { colnames(m) <- targets; if (ncol(m) == 1) m[, 1] else m }
        cols <- unlist(lapply(seq_along(targets), function(j) list(v$mean[, j], v$lower[, j], v$upper[, j])), recursive = FALSE)
        names(cols) <- as.vector(outer(c("_mean", "_lower", "_upper"), targets, function(s, t) paste0(t, s)))
        res$table <- as.data.frame(cols, check.names = FALSE)
        res$fit <- named(v$mean)
        if (interval != "none") {
            res$interval <- if (length(targets) == 1) cbind(fit = v$mean[, 1], lwr = v$lower[, 1], upr = v$upper[, 1])
                            else list(fit = named(v$mean), lwr = named(v$lower), upr = named(v$upper))
        }
        if (se.fit) res$se.fit <- if (is.null(v$se)) NULL else named(v$se)
    } else {
        prob <- v$prob
        colnames(prob) <- paste0("p_", v$classes)
        res$table <- data.frame(prob, class = v$classes[v$class], check.names = FALSE, stringsAsFactors = FALSE)
        res$fit <- res$table
    }
    if (!is.null(type)) res$fit <- typed_prediction(object, res$table, res$fit, type)
    res$type <- type
    res$object <- object     # for confint(): the library computes the intervals
    res$newdata <- newdata
    structure(res, class = "predict.basel")
}

## The library's predictions (basel_predict) of rows x in the fit's input
## columns under model ("bma", "hpm", ...), with kind its
## basel_interval_kind (0 predictive, 1 the mean's, 2 none): mean, lower,
## upper (rows x targets) and se or the class probabilities.
predict_inputs <- function(object, x, model, level = 0.95, kind = 0L)
    checked(.Call(r_basel_predict, fit_ptr(object), x, colnames(x), model, as.double(level), as.integer(kind)),
            call = sys.call(-1))

## The library's model name of an estimator; "BMA" is the method's default
## predictor where it has no model average (anneal: its one network).
estimator_models <- c(BMA = "bma", HPM = "hpm", MPM = "median", prevalence = "prevalence", projection = "projection",
                      MAP = "map")
estimator_model <- function(object, estimator) {
    model <- estimator_models[[estimator]]
    if (model == "bma") model <- method_caps(object$doc$method)$models[1]
    model
}

## BAS's confint(predict(...)): the interval for a new observation ("pred",
## BAS's default) or for the regression function ("mean"), the library's
## equal-tailed interval at level (for one model, BAS's t interval; for the
## model average, the exact quantiles of the mixture where BAS draws an HPD
## interval by Monte Carlo), computed by predict again.
confint.predict.basel <- function(object, parm = c("pred", "mean"), level = 0.95, ...) {
    parm <- match.arg(parm)
    if (is.null(object$object)) basel_stop("this prediction does not hold its fit and newdata: predict again")
    p <- predict(object$object, object$newdata, estimator = object$estimator,
                 interval = if (parm == "pred") "predict" else "confidence", level = level)
    if (!is.matrix(p$interval)) basel_stop("confint() of predictions is for one numeric target")
    a <- (1 - level) / 2
    ci <- cbind(p$interval[, "lwr"], p$interval[, "upr"], p$interval[, "fit"])
    dimnames(ci) <- list(rownames(object$newdata), c(sprintf("%.3g%%", 100 * a), sprintf("%.3g%%", 100 * (1 - a)), parm))
    attr(ci, "Probability") <- level
    ci
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

## The training rows' inputs as predict takes them (basel() keeps them:
## fit$x; the rows na.action kept), or the reason a fit has none.
training_inputs <- function(object) {
    if (is.null(object$x))
        basel_stop("this fit does not hold its training inputs (read_fit() gives the document only): ",
                   "predict(fit, newdata) with the training data")
    object$x
}

## New rows in the model matrix's columns (the fit's inputs), in the
## document's input order.
new_inputs <- function(object, newdata) {
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
    ## a column of another type than at the fit (text for numbers), as predict.lm says it
    if (!is.null(cl <- attr(tt, "dataClasses"))) stats::.checkMFClasses(cl, mf)
    frame_inputs(object, mf)
}

## A model frame's rows in the fit's input columns (R's dummies, and the
## grouped factors' indicators coded as the library coded them).
frame_inputs <- function(object, mf) {
    tt <- stats::delete.response(object$terms)
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
        x <- x[, unlist(object$doc$inputs), drop = FALSE]
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

## BAS's fitted(fit, estimator =): the predictions of the training rows
## (the rows na.action kept), the library's mean under the estimator.
fitted.basel <- function(object, estimator = c("BMA", "HPM", "MPM", "prevalence", "projection", "MAP"), ...) {
    estimator <- match.arg(estimator)
    f <- predict(object, estimator = estimator)$fit
    if (is.data.frame(f)) return(f)    # a classifier: its p_<class> columns and class
    if (is.matrix(f)) rownames(f) <- rownames(object$x) else names(f) <- rownames(object$x)
    f
}

## Response minus fitted(fit, estimator) on the training rows: a numeric
## response (gaussian or poisson family).
residuals.basel <- function(object, estimator = c("BMA", "HPM", "MPM", "prevalence", "projection", "MAP"), ...) {
    estimator <- match.arg(estimator)
    fam <- object$doc$settings$family
    if (is.null(object$y) || !is.numeric(object$y) || isTRUE(fam %in% c("binomial", "multinomial")))
        basel_stop("residuals() are for a numeric response (family gaussian or poisson); this fit's is ",
                   if (is.null(object$y)) "not held (read_fit() gives the document only)" else "class labels")
    f <- fitted(object, estimator = estimator)
    y <- object$y
    if (is.matrix(y) && ncol(y) == 1) y <- y[, 1]
    r <- y - f
    if (is.matrix(r)) rownames(r) <- rownames(object$x) else names(r) <- rownames(object$x)
    r
}

## The rows the library fitted (FIT.json n).
nobs.basel <- function(object, ...) as.integer(object$doc$n)

## The terms of the model an estimator uses, with "(Intercept)" (BAS's
## variable.names(predict(fit, estimator = ))$best.vars): for "BMA" every
## candidate, for the others the selected model's (FIT.json "selected").
variable.names.basel <- function(object, estimator = c("BMA", "HPM", "MPM", "prevalence", "projection"), ...) {
    estimator <- match.arg(estimator)
    an <- atom_names(object)
    if (estimator == "BMA") return(c("(Intercept)", an))
    key <- c(HPM = "hpm", MPM = "median", prevalence = "prevalence", projection = "projection")[[estimator]]
    sel <- object$doc$selected[[key]]
    if (is.null(sel)) basel_stop("this fit has no ", estimator, " model (FIT.json selected.", key, ")")
    c("(Intercept)", an[as.integer(unlist(sel)) + 1L])
}
