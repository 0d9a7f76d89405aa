## broom's tidy() and glance() for a basel fit. The generics are broom's
## (the 'generics' package, which broom re-exports); they are registered
## when that package is loaded (.onLoad, zzz.R), as broom's own tidiers for
## other packages' classes are, so broom is in Suggests, not Imports.

## One row per coefficient of the estimator's table (coef(fit, estimator)):
## estimate the posterior mean, std.error the sd, p.inclusion the PIP (for
## HPM and MPM 1 or 0: in that model or not), and with conf.int the
## library's equal-tailed interval (confint(coef(...), level = conf.level)).
tidy.basel <- function(x, estimator = c("BMA", "HPM", "MPM"), conf.int = FALSE, conf.level = 0.95, ...) {
    tab <- coef(x, estimator = match.arg(estimator))
    out <- data.frame(term = tab$term, estimate = tab$mean, std.error = tab$sd, p.inclusion = tab$pip,
                      stringsAsFactors = FALSE)
    if (length(unique(tab$target)) > 1) out$response <- tab$target  # broom's column for several responses
    if (!is.null(tab$class)) out$y.level <- tab$class                 # and for a multinomial's classes
    if (isTRUE(conf.int)) {
        ci <- confint(tab, level = conf.level)
        out$conf.low <- unname(ci[, 1])
        out$conf.high <- unname(ci[, 2])
    }
    out
}

## One row about the fit: its method, rows, candidates, the listed models,
## the highest-probability model's probability, the median model's size,
## the posterior mean of the model size, and the number of the fit's
## warnings (diagnostics()).
glance.basel <- function(x, ...) {
    d <- x$doc
    mo <- top_models(x)
    size <- if (!is.null(d$model_size)) as.numeric(unlist(d$model_size$prob)) else NULL
    data.frame(method = d$method, nobs = nobs(x), n.candidates = length(atom_names(x)),
               n.models = if (is.null(mo)) NA_integer_ else nrow(mo),
               prob.hpm = if (is.null(mo)) NA_real_ else mo$prob[1],
               size.mpm = if (is.null(d$selected$median)) NA_integer_ else length(unlist(d$selected$median)),
               mean.size = if (is.null(size)) NA_real_ else sum((seq_along(size) - 1) * size),
               warnings = length(unlist(d$diagnostics$warnings)), stringsAsFactors = FALSE)
}
