#' @useDynLib basel, .registration = TRUE
NULL

.basel_env <- new.env(parent = emptyenv())

catalogue <- function() {
    if (is.null(.basel_env$cat)) .basel_env$cat <- .Call(r_basel_catalogue)
    .basel_env$cat
}

## What the library's engine table says of a method: keeps_draws,
## mean_interval (se.fit) and its predictors.
method_caps <- function(method) .Call(r_basel_method_caps, as.character(method))

## The methods that can keep their draws (keep-draws=1), from the library.
methods_with_draws <- function() Filter(function(m) method_caps(m)$keeps_draws, catalogue()$method)

#' The library's options and methods
#'
#' basel_options() lists every option basel() passes to the library by name
#' (the command line's --name), with its meaning; basel_methods() lists the
#' methods; basel_version() gives the library's version.
basel_options <- function(method = NULL) {
    cat <- catalogue()
    d <- data.frame(option = cat$option, help = cat$option_help, stringsAsFactors = FALSE)
    if (!is.null(method)) {
        d$default <- vapply(d$option, function(o) .Call(r_basel_method_default, method, o), "")
        d <- d[!is.na(d$default), , drop = FALSE]
        rownames(d) <- NULL
    }
    structure(d, class = c("basel_options", "data.frame"), method = method)
}

## One option a paragraph: its name and default, then its help wrapped to
## the console (the data frame's help column is a line each, some of 900
## characters).
print.basel_options <- function(x, ...) {
    width <- max(40L, getOption("width") - 4L)
    for (i in seq_len(nrow(x))) {
        def <- if (!is.null(x$default) && nzchar(x$default[i])) paste0(" [default: ", x$default[i], "]") else ""
        cat(x$option[i], def, "\n", sep = "")
        cat(paste0("    ", strwrap(x$help[i], width = width), collapse = "\n"), "\n", sep = "")
    }
    invisible(x)
}

basel_methods <- function() {
    cat <- catalogue()
    data.frame(method = cat$method, summary = cat$method_summary, stringsAsFactors = FALSE)
}

basel_version <- function() {
    cat <- catalogue()
    list(library = cat$version, format_version = cat$format_version, blas = cat$blas)
}

## broom's generics (broom.R), registered for whenever 'generics' is
## loaded: now if it is, else by a hook on its loading (the pattern of
## vctrs::s3_register), so that broom is not a dependency.
.onLoad <- function(libname, pkgname) {
    register_s3("generics", "tidy", "basel", tidy.basel)
    register_s3("generics", "glance", "basel", glance.basel)
}

register_s3 <- function(pkg, generic, class, fun) {
    reg <- function(...) registerS3method(generic, class, fun, envir = asNamespace(pkg))
    if (isNamespaceLoaded(pkg)) reg()
    setHook(packageEvent(pkg, "onLoad"), reg)
}
