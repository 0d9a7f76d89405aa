## basel(): the formula front end. The model frame and matrix follow R's
## conventions; the columns of the model matrix (without the intercept,
## which the library always includes) are the candidate inputs, except that a
## factor the library can select as a group goes to it as its text; the
## response is the target; every other argument is one of the library's
## options by name.

## R argument names to the library's option names: '.' and '_' read as '-',
## and a name without its dashes is accepted too (modelprior, keepdraws).
option_name <- function(name) {
    known <- catalogue()$option
    n <- gsub("[._]", "-", tolower(name))
    if (n %in% known) return(n)
    i <- match(gsub("-", "", n), gsub("-", "", known))
    if (!is.na(i)) return(known[i])
    NA_character_
}

option_value <- function(name, value) {
    if (is.null(value) || length(value) != 1 || is.na(value))
        basel_stop("option '", name, "' needs one value")
    ## the library reads true/false as 1/0 or yes/no where the option is a
    ## switch, and refuses them elsewhere (basel_options_set)
    if (is.logical(value)) return(if (value) "true" else "false")
    if (is.numeric(value)) {
        if (is.finite(value) && value == round(value) && abs(value) < 2^53)
            return(sprintf("%.0f", value))
        return(sprintf("%.17g", value))
    }
    if (is.character(value) || is.factor(value)) return(as.character(value))
    basel_stop("option '", name, "': a ", class(value)[1], " is not an option value")
}

#' Bayesian selection of inputs and basis functions
#'
#' @param formula a model formula, \code{y ~ .} and the like; the response
#'   is the target (a factor or character for method "mixture"); several
#'   numeric responses as \code{cbind(y1, y2)}.
#' @param data a data frame.
#' @param method the engine; by default "bd" (family "gaussian") or "rj"
#'   (the GLMs: the Polya-Gamma sampler, as Python's BayesianLogisticRegression).
#' @param family "gaussian" (the default), "binomial" (logistic regression
#'   of a two-level response), "multinomial" (three or more levels) or
#'   "poisson" (counts), or R's binomial() / poisson() (canonical link).
#' @param prior,modelprior,basis,iter,burn,chains,seed,threads,...
#'   options of the library by name (see basel_options()).
#' @param na.action as in lm(): with na.omit (the default) rows with a
#'   missing value are dropped before the library sees them; with na.pass
#'   they are passed on as missing and the library's option \code{na}
#'   ("error", its default, or "drop") decides.
#' @param draws keep the draws (methods bd, rj, ssvs, mixture); "loglik"
#'   also each draw's pointwise log-likelihood (log_lik()).
#' @param progress TRUE for a text progress bar (default: when interactive),
#'   FALSE for none, or a function(fraction) called as the fit proceeds;
#'   returning TRUE cancels the fit.
#' @section Warnings: each of the fit's own warnings (R-hat above 1.01, an
#'   effective sample size below 400, an interrupted run: the command line's
#'   "basel: warning:" lines) is signalled with \code{warning()} as a condition
#'   of class \code{"basel_fit_warning"}; \code{print(fit)} lists them too.
basel <- function(formula, data, method = NULL, family = "gaussian", ..., na.action, draws = NULL,
                  progress = interactive(), verbose = FALSE) {
    cl <- match.call()
    ## lm()'s arguments that basel does not have: said, not passed on as
    ## unknown options (nor evaluated, as subset = x1 > 0 would be)
    for (a in intersect(c("weights", "subset", "offset"), names(cl)))
        basel_stop(a, " = is not supported: ", switch(a,
            weights = "every row counts once",
            subset = "pass the rows to fit, data[rows, ]",
            offset = "basel has no offset; subtract it from the response"))
    family <- family_name(family)
    if (is.null(method)) method <- if (family == "gaussian") "bd" else "rj"
    if (!is.character(method) || length(method) != 1 || is.na(method)) basel_stop("method: one method's name")
    if (missing(data)) data <- environment(formula)
    mf <- match.call(expand.dots = FALSE)
    m <- match(c("formula", "data", "na.action"), names(mf), 0L)
    mf <- mf[c(1L, m)]
    mf$drop.unused.levels <- TRUE
    mf[[1L]] <- quote(stats::model.frame)
    mf <- eval(mf, parent.frame())
    mt <- attr(mf, "terms")
    ## what the formula asks that basel would otherwise drop silently
    if (attr(mt, "intercept") == 0)
        basel_stop("the formula removes the intercept (- 1 or + 0): basel always fits one, under a flat prior ",
                   "that integrates it out; drop the '- 1'")
    if (!is.null(attr(mt, "offset")))
        basel_stop("offset() is not supported: basel has no offset; subtract it from the response")
    y <- model.response(mf)
    if (is.null(y)) basel_stop("the formula has no response")
    opts <- list(method = method, ...)
    grouped <- grouped_factors(mt, mf, method, opts$basis)
    x <- model.matrix(mt, mf)
    ## a grouped factor goes to the library as its text, not as R's dummies
    x <- x[, colnames(x) != "(Intercept)" & !(attr(x, "assign") %in% grouped$term), drop = FALSE]
    texts <- lapply(grouped$var, function(v) as.character(mf[[v]]))
    if (ncol(x) + length(texts) == 0) basel_stop("the formula has no inputs")
    inputs <- gsub(",", ";", c(colnames(x), grouped$var), fixed = TRUE)   # the library lists inputs comma-separated
    inputs <- make.unique(inputs)
    names(texts) <- inputs[ncol(x) + seq_along(texts)]
    colnames(x) <- inputs[seq_len(ncol(x))]

    if (!is.null(opts$seed) && is.na(opts$seed)) opts$seed <- NULL
    if (is.null(opts$seed)) opts$seed <- sample.int(.Machine$integer.max, 1L)  # set.seed() reproduces a fit
    labels <- NULL
    label_name <- NULL
    if (family != "gaussian") {
        opts$family <- family
        y <- glm_response(y, family)
    }
    if (is.factor(y) || is.character(y) || is.logical(y) || (method == "mixture" && is.vector(y))) {
        if (method != "mixture" && !(family %in% c("binomial", "multinomial")))
            basel_stop("the response is not numeric: class labels need family = \"binomial\" (two levels), ",
                       "\"multinomial\" (three or more) or method = \"mixture\"")
        label_name <- make.unique(c(inputs, deparse1(formula[[2L]])))[length(inputs) + 1L]
        labels <- as.character(y)
        ynames <- label_name
    } else {
        if (!is.numeric(y)) basel_stop("the response is a ", class(y)[1], ", not numbers")
        y <- as.matrix(y)
        ynames <- if (ncol(y) == 1) deparse1(formula[[2L]]) else colnames(y)
        if (is.null(ynames)) ynames <- paste0("y", seq_len(ncol(y)))
        ynames <- gsub(",", ";", ynames, fixed = TRUE)
        ynames <- make.unique(c(inputs, ynames))[length(inputs) + seq_len(ncol(y))]
        storage.mode(y) <- "double"
        xn <- colnames(x)
        x <- cbind(x, y)
        colnames(x) <- c(xn, ynames)
    }
    storage.mode(x) <- "double"
    if (is.null(opts$target)) opts$target <- paste(ynames, collapse = ",")
    if (is.null(draws)) draws <- method_caps(method)$keeps_draws
    pointwise <- identical(draws, "loglik")
    if (!is.null(draws) && !isTRUE(draws) && !isFALSE(draws) && !pointwise)
        basel_stop("draws = TRUE, FALSE or \"loglik\" (the draws and their pointwise log-likelihoods)")
    if (isTRUE(draws) || pointwise) opts[["keep-draws"]] <- if (pointwise) 2 else TRUE

    onames <- vapply(names(opts), option_name, "")
    bad <- names(opts)[is.na(onames)]
    if (length(bad))
        basel_stop("unknown option", if (length(bad) > 1) "s", " ", paste0("'", bad, "'", collapse = ", "),
                   "; the library reads: ", paste(catalogue()$option, collapse = ", "))
    if (anyDuplicated(onames)) basel_stop("option '", onames[anyDuplicated(onames)], "' given twice")
    ovalues <- vapply(seq_along(opts), function(i) option_value(onames[i], opts[[i]]), "")

    pfun <- progress_function(progress, verbose)
    on.exit(if (!is.null(attr(pfun, "close"))) attr(pfun, "close")(), add = TRUE)
    ## TRUE from the user's function cancels; NA tells C an interrupt arrived
    ## while R code ran (C checks for one between calls itself)
    ## while R code ran (C checks for one between calls itself); an error
    ## in it cancels the fit and is reported after
    perr <- NULL
    pcall <- if (is.function(pfun)) function(fraction)
        tryCatch(isTRUE(pfun(fraction)), interrupt = function(e) NA, error = function(e) {
            perr <<- e
            TRUE
        }) else NULL
    ptr <- .Call(r_basel_fit, x, colnames(x), if (length(texts)) texts, labels, label_name, unname(onames), ovalues,
                 pcall, environment())
    if (!is.null(perr)) basel_stop("the progress function failed: ", conditionMessage(perr), call = cl)
    ptr <- checked(ptr, call = cl)
    fit <- new_basel(ptr)
    fit$call <- cl
    fit$terms <- mt
    fit$xlevels <- .getXlevels(mt, mf)
    fit$contrasts <- attr(x, "contrasts")
    fit$na.action <- attr(mf, "na.action")
    fit$response <- ynames
    fit$x_names <- inputs
    fit$grouped <- grouped
    fit$options <- setNames(ovalues, onames)
    ## the training rows as predict() takes them, and the response: what
    ## fitted() and residuals() predict and subtract from
    fit$x <- frame_inputs(fit, mf)
    fit$y <- if (is.null(labels)) y else labels
    if (isTRUE(draws) || pointwise) fit$draws <- read_draws(ptr)
    if (pointwise) fit$log_lik <- read_log_lik(ptr)
    signal_fit_warnings(fit)
    fit
}

## The fit's own warnings (FIT.json diagnostics.warnings: chains that
## disagree, too few effective draws, an interrupted run) as R warnings, as
## the command line prints them on stderr: one condition of class
## "basel_fit_warning" each, so that withCallingHandlers() or
## suppressWarnings(classes = "basel_fit_warning") can single them out.
signal_fit_warnings <- function(fit) {
    for (w in unlist(fit$doc$diagnostics$warnings))
        warning(structure(class = c("basel_fit_warning", "warning", "condition"),
                          list(message = paste0("basel: ", r_words(w)), call = NULL)))
    invisible(fit)
}

## The family's name from a string or one of R's family objects (binomial(),
## poisson(): their canonical links, the only ones the library fits).
families <- c("gaussian", "binomial", "multinomial", "poisson")
family_name <- function(family) {
    if (is.function(family)) family <- family()
    if (inherits(family, "family")) {
        canon <- c(gaussian = "identity", binomial = "logit", poisson = "log")
        if (!(family$family %in% names(canon)) || family$link != canon[[family$family]])
            basel_stop("family ", family$family, "(link = \"", family$link, "\"): basel fits ",
                       "gaussian(identity), binomial(logit), poisson(log) and \"multinomial\" (softmax)")
        family <- family$family
    }
    if (!is.character(family) || length(family) != 1 || is.na(family) || !(family %in% families))
        basel_stop("family ", if (is.character(family)) paste0("'", paste(family, collapse = ","), "'") else
                       paste("of class", class(family)[1]), ": one of ", paste0("\"", families, "\"", collapse = ", "))
    family
}

## A GLM's response as the library reads it: a factor, character or logical
## column goes as its levels' text (labels), numbers as numbers (0/1 for
## binomial, whole numbers for multinomial, counts for Poisson; the library
## checks them and names the row). The library orders levels as the command
## line does (text in C order, whole numbers numerically), its first level
## the reference; a factor whose levels R orders otherwise gets a warning
## saying which level that is.
glm_response <- function(y, family) {
    if (is.matrix(y) && ncol(y) > 1)
        basel_stop("family = \"", family, "\" takes one response column, not ", ncol(y),
                   if (family == "binomial") " (cbind(successes, failures) is not supported: one row per trial)")
    if (is.logical(y)) y <- ifelse(y, "TRUE", "FALSE")
    if (family == "poisson") {
        if (!is.numeric(y)) basel_stop("family = \"poisson\" needs counts, not a ", class(y)[1], " response")
        return(y)
    }
    if (is.factor(y)) {
        lv <- levels(droplevels(y))
        num <- suppressWarnings(as.numeric(lv))
        ord <- if (!anyNA(num) && all(num == round(num))) lv[order(num)] else sort(lv, method = "radix")
        if (!identical(lv, ord))
            warning("basel orders the response's levels as the command line does (",
                    paste(ord, collapse = ", "), "): the reference class is '", ord[1],
                    "', not the factor's first level '", lv[1], "'", call. = FALSE)
        y <- as.character(y)
    }
    y
}

## The formula's factor (or character, or logical) variables that enter
## only as a main effect, when the method selects a factor's indicator
## columns as one group (the library's rule, basel_method_groups_factors):
## their names and term numbers (attr(x, "assign") of the model matrix).
## Elsewhere (interactions, other methods) R's dummy columns are inputs of
## their own, as before.
grouped_factors <- function(mt, mf, method, basis) {
    none <- list(var = character(0), term = integer(0))
    if (!.Call(r_basel_groups_factors, as.character(method), if (!is.null(basis)) as.character(basis))) return(none)
    fac <- attr(mt, "factors")
    labels <- attr(mt, "term.labels")
    var <- character(0)
    term <- integer(0)
    for (v in rownames(fac)) {
        col <- mf[[v]]
        if (!(is.factor(col) || is.character(col) || is.logical(col))) next
        t <- match(v, labels)
        if (is.na(t) || sum(fac[v, ] != 0) != 1) next   # not a term of its own, or in an interaction
        var <- c(var, v)
        term <- c(term, t)
    }
    list(var = var, term = term)
}

## A basel object from a fit's handle: the document (FIT.json) as text and
## parsed, the handle for predictions.
new_basel <- function(ptr) {
    json <- checked(.Call(r_basel_fit_json, ptr))
    structure(list(ptr = ptr, json = json, doc = jsonlite::fromJSON(json, simplifyVector = TRUE,
                                                                    simplifyDataFrame = FALSE)),
              class = "basel")
}

## The handle, rebuilt from the JSON text when the object was saved and
## loaded (external pointers do not survive serialisation).
fit_ptr <- function(object) {
    p <- object$ptr
    if (is.null(p) || identical(p, new("externalptr")))
        p <- checked(.Call(r_basel_fit_from_json, object$json))
    p
}

#' Read a FIT.json written by the command line (or write_fit) as a basel object.
read_fit <- function(path) {
    text <- paste(readLines(path, warn = FALSE, encoding = "UTF-8"), collapse = "\n")
    new_basel(checked(.Call(r_basel_fit_from_json, text)))
}

#' Write the fit's document (FIT.json), readable by the basel command.
write_fit <- function(object, path) {
    checked(.Call(r_basel_fit_write_json, fit_ptr(object), path.expand(path)))
    invisible(path)
}

## The progress callback: a txtProgressBar, a user function, or none.
progress_function <- function(progress, verbose) {
    if (is.function(progress)) return(progress)
    if (!isTRUE(progress) && !isTRUE(verbose)) return(NULL)
    pb <- NULL
    f <- function(fraction) {
        if (is.null(pb)) pb <<- utils::txtProgressBar(min = 0, max = 1, style = 3)
        utils::setTxtProgressBar(pb, fraction)
        FALSE
    }
    attr(f, "close") <- function() if (!is.null(pb)) close(pb)
    f
}
