## Draws: the library's kept draws, in memory, as a data frame with the
## columns of its draws CSV (docs/FIT.md, "The draws CSV": chain, iteration,
## draw, size, one 0/1 column per atom, sampled hyperparameters, then for
## Gaussian fits of the subset methods sigma2, b_Intercept, b_<term> and
## log_lik), the first three under posterior's reserved names .chain,
## .iteration and .draw.
read_draws <- function(ptr) {
    v <- checked(.Call(r_basel_draws, ptr))
    chain <- v$chain
    d <- data.frame(size = v$size, v$atoms, v$scalars, v$values, check.names = FALSE)
    iteration <- stats::ave(seq_along(chain), chain, FUN = seq_along)
    d <- cbind(data.frame(.chain = chain, .iteration = as.integer(iteration), .draw = seq_along(chain)), d)
    class(d) <- c("basel_draws", "data.frame")
    d
}

## The pointwise log-likelihoods kept with draws = "loglik": draws x rows.
read_log_lik <- function(ptr) {
    ll <- checked(.Call(r_basel_draws_loglik, ptr))
    if (!is.null(ll)) colnames(ll) <- sprintf("log_lik[%d]", seq_len(ncol(ll)))
    ll
}

#' The kept draws of a fit
#'
#' A data frame with .chain, .iteration and .draw, the model size, one 0/1
#' column per atom and any sampled hyperparameters: what
#' posterior::as_draws_df() reads. For a Gaussian fit of bd, rj or ssvs
#' (its collapsed g-prior run) under a prior whose posterior within a model
#' is a Student-t (g, uip, eb-local, eb-global, hier, aic, bic, mdl, ridge
#' with sigma^2 and lambda fixed) it also has sigma2, b_Intercept, b_<term>
#' (0 when the draw's model excludes the term; in the inputs' units) and
#' log_lik (the log-likelihood of the training rows), drawn after the run
#' from their posterior given the draw's model, so that
#' posterior::summarise_draws(draws(fit)) summarises the coefficients. The
#' g mixtures (hyper-g, jzs, robust, ...), sampled nuisance parameters,
#' several targets, categorical inputs and fits from summary statistics
#' have no such columns (docs/FIT.md, "The draws CSV").
draws <- function(object, ...) UseMethod("draws")
draws.basel <- function(object, ...) {
    if (is.null(object$draws))
        basel_stop("this fit kept no draws (basel(..., draws = TRUE) for methods ",
                   paste(methods_with_draws(), collapse = ", "), ")")
    object$draws
}

#' Pointwise log-likelihood of the kept draws
#'
#' The draws x training rows matrix of log N(y_i | x_i beta, sigma^2) at
#' each kept draw (whose row sums are draws(fit)$log_lik), for
#' loo::loo(log_lik(fit), r_eff = loo::relative_eff(exp(log_lik(fit)),
#' chain_id = draws(fit)$.chain)). Kept when the fit was made with
#' basel(..., draws = "loglik"): a matrix of draws x rows doubles.
log_lik <- function(object, ...) UseMethod("log_lik")
log_lik.basel <- function(object, ...) {
    if (is.null(object$log_lik))
        basel_stop("this fit kept no pointwise log-likelihoods: fit with basel(..., draws = \"loglik\") ",
                   "(a Gaussian fit of methods ", paste(methods_with_draws(), collapse = ", "),
                   " whose draws have log_lik; docs/FIT.md \"The draws CSV\")")
    object$log_lik
}

as.data.frame.basel_draws <- function(x, ...) {
    class(x) <- "data.frame"
    x
}
