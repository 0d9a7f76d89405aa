## plot(): BAS's panels, from the document and the draws.
##   which = 1 PIPs, 2 posterior of the model size, 3 cumulative probability
##   of the listed models, 4 traces of the model size by chain (kept draws).
plot.basel <- function(x, which = c(1L, 2L, 3L, 4L), ask = FALSE, ...) {
    d <- x$doc
    if (is.null(x$draws)) which <- setdiff(which, 4L)
    if (is.null(d$pip)) which <- setdiff(which, 1L)
    if (is.null(d$models)) which <- setdiff(which, 3L)
    if (is.null(d$model_size)) which <- setdiff(which, 2L)
    if (ask) {
        old <- grDevices::devAskNewPage(TRUE)
        on.exit(grDevices::devAskNewPage(old))
    }
    if (1L %in% which) {
        p <- pip(x)
        graphics::plot(seq_along(p), p, type = "h", lwd = 3, ylim = c(0, 1), xaxt = "n", xlab = "",
                       ylab = "marginal inclusion probability", main = "Inclusion probabilities",
                       col = ifelse(p >= 0.5, "red", "grey40"), ...)
        graphics::axis(1, at = seq_along(p), labels = names(p), las = 2, cex.axis = 0.7)
        graphics::abline(h = 0.5, lty = 3)
    }
    if (2L %in% which) {
        ms <- d$model_size
        graphics::plot(as.numeric(ms$k), as.numeric(ms$prob), type = "h", lwd = 3, xlab = "model size",
                       ylab = "posterior probability", main = "Model size", ...)
    }
    if (3L %in% which) {
        prob <- vapply(d$models, function(m) as.numeric(m$prob), 0)
        graphics::plot(seq_along(prob), cumsum(prob), type = "s", ylim = c(0, 1), xlab = "model rank",
                       ylab = "cumulative probability", main = "Model probabilities (listed models)", ...)
    }
    if (4L %in% which) {
        dr <- x$draws
        chains <- sort(unique(dr$.chain))
        graphics::plot(range(dr$.iteration), range(dr$size), type = "n", xlab = "kept draw",
                       ylab = "model size", main = "Traces of the model size", ...)
        for (c in chains) {
            s <- which(dr$.chain == c)
            s <- s[unique(round(seq(1, length(s), length.out = min(length(s), 1000))))]  # at most 1000 points
            graphics::lines(dr$.iteration[s], dr$size[s], col = c)
        }
    }
    invisible(x)
}

## image(): the model space, as BAS's image.bas: one row per atom, one
## column per listed model (most probable on the left), coloured when the
## atom is in the model; column widths follow the models' probabilities.
image.basel <- function(x, top.models = 20, rotate = TRUE, ...) {
    d <- x$doc
    if (is.null(d$models)) basel_stop("method ", d$method, " lists no models")
    an <- atom_names(x)
    ms <- utils::head(d$models, top.models)
    nm <- length(ms)
    inc <- matrix(0, nm, length(an))
    for (i in seq_len(nm)) inc[i, as.integer(unlist(ms[[i]]$atoms)) + 1L] <- 1
    prob <- vapply(ms, function(m) as.numeric(m$prob), 0)
    lp <- log(prob / prob[1])        # log posterior odds against the best listed model
    brk <- c(0, cumsum(rep(1, nm)))
    z <- inc * matrix(rev(seq_len(nm)), nm, length(an))
    z[z == 0] <- NA
    if (rotate) {
        op <- graphics::par(mar = pmax(graphics::par("mar"), c(5, 6, 7, 2)))
        on.exit(graphics::par(op))
        graphics::image(brk, seq_len(length(an) + 1) - 0.5, z, xaxt = "n", yaxt = "n", xlab = "model rank",
                        ylab = "", col = grDevices::hcl.colors(nm, "Blues 3", rev = TRUE), ...)
        graphics::title(main = "Models (columns) and inputs (rows)", line = 5)
        graphics::axis(2, at = seq_along(an), labels = an, las = 2, cex.axis = 0.7)
        graphics::axis(1, at = brk[-1] - 0.5, labels = seq_len(nm), cex.axis = 0.7)
        graphics::axis(3, at = brk[-1] - 0.5, labels = formatC(lp, format = "f", digits = 2), las = 2, cex.axis = 0.6)
        graphics::mtext("log posterior odds against the best", side = 3, line = 3, cex = 0.7)
        graphics::abline(h = seq_len(length(an) + 1) - 0.5, col = "grey85")
    } else {
        graphics::image(seq_len(length(an) + 1) - 0.5, brk, t(z), ...)
    }
    invisible(inc)
}

## BAS's plot(coef(fit)): each coefficient's posterior, the spike at 0 of
## height 1 - PIP and the slab, the density of its continuous part (the
## library's, basel_fit_coef_density: the mixture over the models of their
## Student-t's, or one model's), drawn as BAS draws it, scaled to the height
## PIP. Its range is the library's interval at level 1 - e, and 0.
plot.coef.basel <- function(x, e = 1e-04, subset = seq_len(nrow(x)), ask = FALSE, nsteps = 500, ...) {
    fit <- attr(x, "fit")
    if (is.null(fit)) basel_stop("this table does not hold its fit: plot(coef(fit))")
    est <- attr(x, "estimator")
    model <- c(BMA = "bma", HPM = "hpm", MPM = "median")[[if (is.null(est)) "BMA" else est]]
    wide <- coef_table(fit, if (is.null(est)) "BMA" else est, level = 1 - e)
    lo <- pmin(wide$lower, 0)
    hi <- pmax(wide$upper, 0)
    none <- lo == hi
    lo[none] <- -1
    hi[none] <- 1
    grid <- vapply(seq_len(nrow(x)), function(i) seq(lo[i], hi[i], length.out = nsteps), numeric(nsteps))
    dens <- checked(.Call(r_basel_coef_density, fit_ptr(fit), model, grid))
    if (ask) {
        op <- graphics::par(ask = TRUE)
        on.exit(graphics::par(op))
    }
    for (i in subset) {
        prob0 <- 1 - x$pip[i]
        yy <- dens[, i]
        top <- max(yy)
        graphics::plot(c(lo[i], hi[i]), c(0, max(prob0, 1 - prob0)), type = "n", xlab = "", ylab = "",
                       main = x$term[i], ...)
        graphics::lines(c(0, 0), c(0, prob0), lty = 1, lwd = 3)
        if (top > 0) graphics::lines(grid[, i], (1 - prob0) * yy / top, lty = 1, lwd = 1)
    }
    invisible(list(x = grid, density = dens))
}
