## plot(): BAS's four panels (plot.bas), then basel's own, from the
## document, the draws and the library's predictions (no statistic of the
## fit is computed here):
##   which = 1 "Residuals vs Fitted" (BMA fitted values of the training rows)
##           2 "Model Probabilities" (cumulative, over the listed models)
##           3 "Model Complexity" (log marginal likelihood against size)
##           4 "Inclusion Probabilities"
##           5 the posterior of the model size, 6 traces of the model size by
##           chain (kept draws), 7 the fit (plot_fit()); "fit" means 7.
## A panel the fit cannot draw (no training rows after read_fit(), no
## listed models, no draws) is left out with a message when it was asked for.
## Returns, invisibly, the panels' data by name.
plot_captions <- c("Residuals vs Fitted", "Model Probabilities", "Model Complexity", "Inclusion Probabilities",
                   "Model Size", "Traces of the Model Size", "Fit")

plot.basel <- function(x, which = c(1L, 2L, 3L, 4L),
                       caption = c("Residuals vs Fitted", "Model Probabilities", "Model Complexity",
                                   "Inclusion Probabilities", "Model Size", "Traces of the Model Size", "Fit"),
                       ask = prod(graphics::par("mfcol")) < length(which) && grDevices::dev.interactive(),
                       id.n = 3, add.smooth = getOption("add.smooth"), col.in = 2, col.ex = 1, cex.lab = NULL,
                       labels.max = 40, ...) {
    if (is.character(which)) which <- match(match.arg(tolower(which), c(tolower(plot_captions), "fit"), several.ok = TRUE),
                                            c(tolower(plot_captions), "fit"))
    which <- unique(pmin(as.integer(which), 7L))
    if (anyNA(which) || any(which < 1L)) basel_stop("'which' must be in 1:7 (or \"fit\")")
    caption <- rep_len(as.list(caption), 7L)
    d <- x$doc
    why <- panel_reasons(x)
    skip <- which[!is.na(why[which])]
    for (w in skip) message("plot(): no \"", caption[[w]], "\" panel: ", why[[w]])
    which <- setdiff(which, skip)
    if (!length(which)) return(invisible(list()))
    if (ask) {
        old <- grDevices::devAskNewPage(TRUE)
        on.exit(grDevices::devAskNewPage(old))
    }
    panel <- if (isTRUE(add.smooth)) graphics::panel.smooth else graphics::points
    out <- list()
    if (1L %in% which) {
        yhat <- fitted(x, estimator = "BMA")
        r <- residuals(x, estimator = "BMA")
        if (is.matrix(r)) { yhat <- yhat[, 1]; r <- r[, 1] }   # several targets: the first
        ylim <- grDevices::extendrange(r = range(r, na.rm = TRUE), f = if (id.n > 0) 0.08 else 0)
        graphics::plot(yhat, r, xlab = "Predictions under BMA", ylab = "Residuals", ylim = ylim, type = "n", ...)
        panel(yhat, r, ...)
        graphics::mtext(caption[[1]], 3, 0.25)
        graphics::abline(h = 0, lty = 3, col = "gray")
        if (id.n > 0) {
            big <- utils::head(order(abs(r), decreasing = TRUE), id.n)
            lab <- if (!is.null(names(r))) names(r)[big] else as.character(big)
            graphics::text(yhat[big], r[big], lab, cex = 0.75, xpd = TRUE, offset = 0.25,
                           pos = ifelse(yhat[big] > mean(range(yhat, na.rm = TRUE)), 2, 4))
        }
        out$residuals <- data.frame(fitted = unname(yhat), residual = unname(r))
    }
    if (2L %in% which) {
        ## the listed models only (FIT.json "models", at most --top): for a
        ## kernel posterior they hold a small share of the probability, so the
        ## axis runs to 1 and the panel says what share that is
        prob <- vapply(d$models, function(m) as.numeric(m$prob), 0)
        cum <- cumsum(prob)
        covered <- cum[length(cum)]
        graphics::plot(seq_along(prob), cum, ylim = c(0, 1), xlab = "Model Rank (listed models)",
                       ylab = "Cumulative Probability", type = "n", ...)
        panel(seq_along(prob), cum)
        graphics::abline(h = covered, lty = 3, col = "gray")
        graphics::mtext(caption[[2]], 3, 0.25)
        note <- sprintf("the %d listed models hold %s of the posterior", length(prob), percent(covered))
        if (covered < 0.5) note <- paste0(note, ";\nthe rest is spread over models not listed:\n",
                                          "read the inclusion probabilities")
        graphics::text(1, if (covered < 0.5) 0.97 else 0.03, note, adj = c(0, if (covered < 0.5) 1 else 0),
                       cex = 0.75, col = if (covered < 0.5) "firebrick" else "gray30")
        out$probabilities <- data.frame(rank = seq_along(prob), prob = prob, cumulative = cum)
        attr(out$probabilities, "covered") <- covered
    }
    if (3L %in% which) {
        cx <- complexity(x)
        graphics::plot(cx$size, cx$value, xlab = "Model Dimension (atoms; listed models)", ylab = cx$label, ...)
        graphics::mtext(caption[[3]], 3, 0.25)
        if (id.n > 0) {
            top <- utils::head(order(cx$value, decreasing = TRUE), id.n)
            graphics::text(cx$size[top], cx$value[top], top, cex = 0.75, pos = 4, offset = 0.25, xpd = TRUE)
        }
        out$complexity <- data.frame(size = cx$size, value = cx$value)
        attr(out$complexity, "what") <- cx$what
    }
    if (4L %in% which) {
        p <- pip(x)
        out$inclusion <- p
        inclusion_panel(p, caption[[4]], col.in, col.ex, cex.lab, labels.max, ...)
    }
    if (5L %in% which) {
        ms <- d$model_size
        k <- as.numeric(ms$k)
        pk <- as.numeric(ms$prob)
        keep <- seq_len(max(which(pk > 1e-4), 1L) + 1L)   # the sizes with any mass, and one more
        keep <- keep[keep <= length(k)]
        graphics::plot(k[keep], pk[keep], type = "h", lwd = 3, xlab = "Model Size (atoms)",
                       ylab = "Posterior Probability",
                       col = ifelse(k[keep] == d$k_opt, col.in, col.ex), ...)
        graphics::mtext(caption[[5]], 3, 0.25)
        out$size <- data.frame(k = k, prob = pk)
    }
    if (6L %in% which) {
        dr <- x$draws
        chains <- sort(unique(dr$.chain))
        graphics::plot(range(dr$.iteration), range(dr$size), type = "n", xlab = "Kept Draw",
                       ylab = "Model Size", ...)
        for (c in chains) {
            s <- which(dr$.chain == c)
            s <- s[unique(round(seq(1, length(s), length.out = min(length(s), 1000))))]  # at most 1000 points
            graphics::lines(dr$.iteration[s], dr$size[s], col = c)
        }
        graphics::mtext(caption[[6]], 3, 0.25)
    }
    if (7L %in% which) out$fit <- plot_fit(x, ...)
    invisible(out)
}

## Why each panel cannot be drawn for this fit (NA: it can).
panel_reasons <- function(x) {
    d <- x$doc
    why <- rep(NA_character_, 7L)
    fam <- d$settings$family
    if (is.null(x$x) || is.null(x$y))
        why[1] <- "the fit does not hold its training rows (read_fit() gives the document only)"
    else if (!is.numeric(x$y) || isTRUE(fam %in% c("binomial", "multinomial")))
        why[1] <- "residuals are for a numeric response"
    if (is.null(d$models) || !length(d$models)) why[2:3] <- paste("method", d$method, "lists no models")
    else if (is.na(why[3]) && is.null(complexity(x)))
        why[3] <- "the listed models have neither a log marginal likelihood nor a log posterior"
    if (is.null(d$pip)) why[4] <- paste("method", d$method, "has no inclusion probabilities")
    if (is.null(d$model_size)) why[5] <- paste("method", d$method, "has no posterior of the model size")
    if (is.null(x$draws)) why[6] <- "no draws kept (basel(..., keep_draws = TRUE))"
    if (is.null(x$x) && is.null(x$y)) why[7] <- "no training rows held: plot_fit(fit, data)"
    why
}

## BAS's "Model Complexity": log p(y | model) (FIT.json models' log_ml, BAS's
## logmarg up to the null model's) against the model's size; where the
## engine has no marginal likelihood (a sampled ridge or hier prior) its log
## posterior up to a constant (log_post), said on the axis.
complexity <- function(x) {
    ms <- x$doc$models
    if (is.null(ms) || !length(ms)) return(NULL)
    size <- vapply(ms, function(m) length(m$atoms), 0L)
    get <- function(key) vapply(ms, function(m) if (is.null(m[[key]])) NA_real_ else as.numeric(m[[key]]), 0)
    v <- get("log_ml")
    if (!all(is.na(v))) return(list(size = size, value = v, what = "log_ml", label = "log(Marginal)"))
    v <- get("log_post")
    if (!all(is.na(v))) return(list(size = size, value = v, what = "log_post",
                                    label = "log posterior (+ constant)"))
    NULL
}

percent <- function(p) if (p >= 0.995) "all" else if (p >= 0.01) sprintf("%.0f%%", 100 * p) else sprintf("%.2g%%", 100 * p)

## Atom names short enough to read along an axis: kernel atoms
## ("gauss@370/r=2.33") keep their head and tail.
short_names <- function(nm, width = 16) {
    long <- nchar(nm) > width
    nm[long] <- paste0(substr(nm[long], 1, width - 6), "..", substring(nm[long], nchar(nm[long]) - 3))
    nm
}

## "Inclusion Probabilities": BAS's spikes (red above 1/2). Up to
## labels.max atoms every one is named below the axis, at a size that fits
## their count; past that (kernel dictionaries of hundreds of atoms) the axis
## is the atom's index and the 10 largest PIPs are named at their spikes.
inclusion_panel <- function(p, caption, col.in, col.ex, cex.lab, labels.max, ...) {
    n <- length(p)
    col <- ifelse(p > 0.5, col.in, col.ex)
    if (n <= labels.max) {
        lab <- short_names(names(p))
        if (is.null(cex.lab)) cex.lab <- min(1, max(0.55, 22 / n))
        op <- graphics::par(mar = pmax(graphics::par("mar"), c(1 + 0.55 * cex.lab * max(nchar(lab)), 4, 2, 1)))
        on.exit(graphics::par(op))
        graphics::plot(seq_len(n), p, type = "h", lwd = 3, ylim = c(0, 1), xaxt = "n", xlab = "",
                       ylab = "Marginal Inclusion Probability", col = col, ...)
        graphics::mtext(lab, side = 1, line = 0.25, at = seq_len(n), las = 2, cex = cex.lab)
    } else {
        graphics::plot(seq_len(n), p, type = "h", lwd = 1, ylim = c(0, 1.12), xlab = sprintf("Atom (1 to %d)", n),
                       ylab = "Marginal Inclusion Probability", col = col, ...)
        top <- utils::head(order(p, decreasing = TRUE), 10)
        top <- top[p[top] > 0]
        graphics::text(top, p[top], short_names(names(p)[top]), srt = 90, adj = c(-0.05, 0.5),
                       cex = if (is.null(cex.lab)) 0.6 else cex.lab, xpd = TRUE)
    }
    graphics::abline(h = 0.5, lty = 3, col = "gray")
    graphics::mtext(caption, 3, 0.25)
}

## image(): the model space as BAS's image.bas. rotate = TRUE (BAS's
## default): the atoms left to right in the fit's order, the models as rows,
## the most probable at the top, each row as tall as the model's probability
## among the shown models (prob = TRUE; prob = FALSE: equal heights);
## rotate = FALSE: the models as columns from the left, the atoms top-down.
## A cell is coloured when the model holds the atom, darker for a more
## probable model; the axis gives the log posterior odds against the best
## listed model (log = TRUE) or the probabilities renormalised over the
## shown models (log = FALSE), and the opposite axis the model rank.
## BAS with log = TRUE sizes the rows by the log odds against the least
## probable shown model (so that one gets no height); basel sizes by
## probability either way. With more than 40 atoms, only those in a shown
## model are drawn (subset = chooses).
image.basel <- function(x, top.models = 20, intensity = TRUE, prob = TRUE, log = TRUE, rotate = TRUE,
                        subset = NULL, digits = 3, vlas = 2, plas = 0, rlas = 0, cex.axis = NULL, ...) {
    d <- x$doc
    if (is.null(d$models) || !length(d$models)) basel_stop("method ", d$method, " lists no models")
    an <- atom_names(x)
    ms <- utils::head(d$models, top.models)
    nm <- length(ms)
    inc <- matrix(0, nm, length(an), dimnames = list(seq_len(nm), an))
    for (i in seq_len(nm)) inc[i, as.integer(unlist(ms[[i]]$atoms)) + 1L] <- 1
    if (is.null(subset)) subset <- if (length(an) <= 40) seq_along(an) else which(colSums(inc) > 0)
    if (is.character(subset)) subset <- match(subset, an)
    if (!length(subset) || anyNA(subset)) basel_stop("subset: no such atoms, or none in the shown models")
    inc <- inc[, subset, drop = FALSE]
    nv <- ncol(inc)
    pr <- vapply(ms, function(m) as.numeric(m$prob), 0)
    post <- pr / sum(pr)                       # renormalised over the shown models, as BAS
    lodds <- log(pr / pr[1])                   # against the best listed model
    widths <- if (prob) post else rep(1 / nm, nm)
    edges <- c(0, cumsum(widths))
    mid <- (edges[-1] + edges[-(nm + 1)]) / 2
    level <- if (intensity) lodds - min(lodds) + 0.75 else rep(1, nm)   # BAS's offset: the least probable still shows
    z <- inc * level
    z[z == 0] <- NA
    cols <- grDevices::hcl.colors(max(nm, 2), "Blues 3", rev = TRUE)
    zlim <- c(0, max(level))
    lab <- if (log) formatC(lodds, format = "f", digits = 2) else formatC(post, format = "g", digits = digits)
    plab <- if (log) "Log Posterior Odds (vs best)" else "Posterior Probability (of the shown)"
    names_x <- short_names(colnames(inc))
    if (is.null(cex.axis)) cex.axis <- min(1, max(0.5, 25 / nv))
    op <- graphics::par(no.readonly = TRUE)[c("mar")]
    on.exit(graphics::par(op))
    if (rotate) {
        ## rows: model 1 (the best) at the top; row i spans edges from the top
        top_edges <- 1 - rev(edges)
        graphics::par(mar = c(1.5 + 0.5 * cex.axis * max(nchar(names_x)), 6, 3, 5) + 0.1)
        graphics::image(0:nv, top_edges, t(z[nm:1, , drop = FALSE]), xaxt = "n", yaxt = "n", xlab = "", ylab = "",
                        zlim = zlim, col = cols, ...)
        ymid <- 1 - mid
        graphics::axis(2, at = ymid, labels = lab, las = plas, cex.axis = min(0.8, 30 / nm / 1.5))
        graphics::axis(4, at = ymid, labels = seq_len(nm), las = rlas, cex.axis = min(0.8, 30 / nm / 1.5))
        graphics::mtext("Model Rank", side = 4, line = 3)
        graphics::mtext(plab, side = 2, line = 4)
        graphics::axis(1, at = seq_len(nv) - 0.5, labels = names_x, las = vlas, cex.axis = cex.axis)
        graphics::abline(v = 0:nv, col = "grey85", lwd = 0.5)
        graphics::abline(h = 1 - edges, col = "white", lwd = 0.5)    # the models' boundaries
    } else {
        graphics::par(mar = c(6, 1.5 + 0.5 * cex.axis * max(nchar(names_x)), 6, 2) + 0.1)
        graphics::image(edges, 0:nv, z[, nv:1, drop = FALSE], xaxt = "n", yaxt = "n", xlab = "", ylab = "",
                        zlim = zlim, col = cols, ...)
        graphics::axis(1, at = mid, labels = lab, las = plas, cex.axis = min(0.8, 30 / nm / 1.5))
        graphics::axis(3, at = mid, labels = seq_len(nm), las = rlas, cex.axis = min(0.8, 30 / nm / 1.5))
        graphics::mtext("Model Rank", side = 3, line = 3)
        graphics::mtext(plab, side = 1, line = 4)
        graphics::axis(2, at = seq_len(nv) - 0.5, labels = rev(names_x), las = vlas, cex.axis = cex.axis)
        graphics::abline(h = 0:nv, col = "grey85", lwd = 0.5)
        graphics::abline(v = edges, col = "white", lwd = 0.5)
    }
    graphics::box()
    if (length(subset) < length(an))
        graphics::mtext(sprintf("%d of %d atoms: those in the %d models shown", nv, length(an), nm),
                        side = 3, line = if (rotate) 0.5 else 4.5, cex = 0.8)
    invisible(list(which = inc, prob = pr, widths = widths, log_odds = lodds))
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
