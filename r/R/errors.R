## Errors from the library become R conditions of class "basel_error" that
## carry the library's status, message, file, line and column; a fit stopped
## by the user (Ctrl-C) becomes a condition of class "interrupted" (and
## "interrupt", so tryCatch(interrupt = ...) sees it too).

## The library words its messages for the command line ("--iter is not read
## by --method enumerate (see 'basel help fit --method enumerate')"); in R
## the same options are arguments: iter, method, draws (keep-draws), ...
r_words <- function(msg) {
    msg <- gsub("see 'basel help fit --method ([a-z]+)'", "see basel_options(\"\\1\")", msg)
    msg <- gsub("'basel help fit'", "basel_options()", msg, fixed = TRUE)
    msg <- gsub("--(keep-)?draws\\b", "draws", msg)
    ## --model-prior: model_prior (basel() reads '_' and '.' as '-')
    while (grepl("--([a-z][a-z0-9]*)-([a-z0-9-]+)", msg))
        msg <- sub("--([a-z][a-z0-9]*)-([a-z0-9-]+)", "--\\1_\\2", msg)
    gsub("--([a-z][a-z0-9_]*)", "\\1", msg)
}

basel_condition <- function(e, call = NULL) {
    e$message <- r_words(e$message)
    where <- if (nzchar(e$file)) {
        paste0(e$file, if (e$line > 0) paste0(":", format(e$line, scientific = FALSE)),
               if (e$column > 0) paste0(":", format(e$column, scientific = FALSE)), ": ")
    } else ""
    msg <- paste0(where, e$message)
    if (identical(e$status, "BASEL_ECANCELLED")) {
        ## Ctrl-C (interrupted = TRUE) or a progress function that returned
        ## TRUE: the library stopped cleanly; say so as an R interrupt
        return(structure(class = c("interrupted", "interrupt", "condition"),
                         list(message = if (isTRUE(e$interrupted)) "basel: fit interrupted by the user"
                                        else paste("basel:", e$message),
                              call = call, status = e$status, code = e$code, user = isTRUE(e$interrupted))))
    }
    cls <- c(paste0("basel_", tolower(sub("^BASEL_E", "", e$status))), "basel_error", "error", "condition")
    structure(class = cls, list(message = msg, call = call, status = e$status, code = e$code,
                                file = e$file, line = e$line, column = e$column))
}

## The value of a .Call, or the library's error raised as an R condition.
checked <- function(v, call = sys.call(-1)) {
    if (inherits(v, "basel_c_error")) raise(basel_condition(v, call))
    v
}

## An interrupt is signalled like R's own: handlers for "interrupted" or
## "interrupt" see it; unhandled, it stops the evaluation with its message.
raise <- function(cond) {
    if (inherits(cond, "interrupt")) {
        signalCondition(cond)
        stop(structure(class = c("basel_cancelled", "basel_error", "error", "condition"),
                       list(message = conditionMessage(cond), call = conditionCall(cond), status = cond$status,
                            code = cond$code, file = "", line = 0, column = 0)))
    }
    stop(cond)
}

## An R-side usage error of the same class as the library's EINVAL.
basel_stop <- function(..., call = sys.call(-1)) {
    stop(structure(class = c("basel_einval", "basel_error", "error", "condition"),
                   list(message = paste0(...), call = call, status = "BASEL_EINVAL", code = -1L,
                        file = "", line = 0, column = 0)))
}
