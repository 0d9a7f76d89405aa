## Draws: the library's kept draws, in memory, as a data frame with the
## columns of its draws CSV (docs/FIT.md, "The draws CSV": chain, iteration,
## draw, size, one 0/1 column per atom, sampled hyperparameters), the first
## three under posterior's reserved names .chain, .iteration and .draw.
read_draws <- function(ptr) {
    v <- checked(.Call(r_basel_draws, ptr))
    chain <- v$chain
    d <- data.frame(size = v$size, v$atoms, v$scalars, check.names = FALSE)
    iteration <- stats::ave(seq_along(chain), chain, FUN = seq_along)
    d <- cbind(data.frame(.chain = chain, .iteration = as.integer(iteration), .draw = seq_along(chain)), d)
    class(d) <- c("basel_draws", "data.frame")
    d
}

#' The kept draws of a fit
#'
#' A data frame with .chain, .iteration and .draw, the model size and one
#' 0/1 column per atom (and any sampled hyperparameters): what
#' posterior::as_draws_df() reads.
draws <- function(object, ...) UseMethod("draws")
draws.basel <- function(object, ...) {
    if (is.null(object$draws))
        basel_stop("this fit kept no draws (basel(..., draws = TRUE) for methods ",
                   paste(methods_with_draws(), collapse = ", "), ")")
    object$draws
}

as.data.frame.basel_draws <- function(x, ...) {
    class(x) <- "data.frame"
    x
}
