## Draws: the library's draws CSV (one row per kept draw: chain, size, one
## 0/1 column per atom, sampled hyperparameters) read back as a data frame
## with posterior's reserved columns .chain, .iteration and .draw.
read_draws <- function(ptr) {
    path <- tempfile("basel-draws-", fileext = ".csv")
    on.exit(unlink(path))
    checked(.Call(r_basel_write_draws, ptr, path))
    d <- utils::read.csv(path, comment.char = "#", check.names = FALSE)
    chain <- as.integer(d$chain)
    d$chain <- NULL
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
                   paste(methods_with_draws, collapse = ", "), ")")
    object$draws
}

as.data.frame.basel_draws <- function(x, ...) {
    class(x) <- "data.frame"
    x
}
