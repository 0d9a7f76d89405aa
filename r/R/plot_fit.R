## plot_fit(): the fit as a picture, as Python's basel.plot.fit1d: the
## data, the predictive mean (the model average by default) and its band for
## a new observation at level, on a grid, from the library's predictions
## (basel_predict: the mean and the equal-tailed interval of the predictive
## mixture; nothing is computed here), and the centres of a selected model
## (FIT.json "selected"; anneal's network) marked along x. One input: the
## centres on the mean curve, and below, where the fit has PIPs and the
## device one figure, each centre's PIP (summed over replicated inputs, as
## fit1d). More inputs: one panel per input, the others held at their
## median (or mean) over the data: a conditional slice, not an average
## over the others (Friedman's partial dependence averages the predictions
## over the data, which costs n predictions per grid point).
plot_fit <- function(fit, data = NULL, estimator = c("BMA", "HPM", "MPM", "prevalence", "projection", "MAP"),
                     level = 0.95, centres = c("prevalence", "projection", "hpm", "median", "none"), inputs = NULL,
                     at = c("median", "mean"), grid = 200, pips = TRUE, max.inputs = 9, ...) {
    if (!inherits(fit, "basel")) basel_stop("plot_fit() takes a basel fit")
    estimator <- match.arg(estimator)
    centres <- match.arg(centres)
    at <- match.arg(at)
    d <- fit$doc
    xy <- fit_data(fit, data)
    x <- xy$x
    y <- xy$y
    model <- estimator_model(fit, estimator)
    ## the inputs that vary (an indicator column is held, not drawn)
    vary <- which(apply(x, 2, function(v) length(unique(v[!is.na(v)])) > 2))
    if (is.null(inputs)) {
        inputs <- default_inputs(fit, colnames(x)[vary])
        if (length(inputs) > max.inputs) {
            message("plot_fit(): the first ", max.inputs, " of ", length(inputs), " inputs (inputs = to choose; ",
                    "left out: ", paste(inputs[-seq_len(max.inputs)], collapse = ", "), ")")
            inputs <- inputs[seq_len(max.inputs)]
        }
    }
    bad <- setdiff(inputs, colnames(x)[vary])
    if (length(bad)) basel_stop("plot_fit(): ", paste(bad, collapse = ", "),
                                " is not one of the fit's varying inputs (", paste(colnames(x)[vary], collapse = ", "), ")")
    if (!length(inputs)) basel_stop("plot_fit(): the fit has no input with more than two values to draw along")
    ## the others' values: median (or mean) of each input column over the rows
    held <- apply(x, 2, if (at == "median") stats::median else mean, na.rm = TRUE)
    cen <- fit_centres(fit, centres)
    one <- ncol(x) == 1
    strip <- one && pips && !is.null(d$pip) && !is.null(cen$all) && prod(graphics::par("mfrow")) == 1
    if (strip) {
        op <- graphics::par(no.readonly = TRUE)[c("mfrow", "mar", "fig", "mfg")]
        graphics::layout(matrix(1:2), heights = c(3, 1.2))
        on.exit({ graphics::layout(1); graphics::par(op["mar"]) }, add = TRUE)
        graphics::par(mar = c(0.5, 4.1, 3, 1))
    } else if (length(inputs) > 1 && prod(graphics::par("mfrow")) == 1) {
        op <- graphics::par(mfrow = grDevices::n2mfrow(length(inputs)), mar = c(4.1, 4.1, 2.5, 1))
        on.exit(graphics::par(op), add = TRUE)
    }
    band <- grDevices::adjustcolor("#4477aa", 0.25)
    out <- list()
    for (nm in inputs) {
        j <- match(nm, colnames(x))
        r <- range(x[, j], na.rm = TRUE)
        g <- seq(r[1] - 0.02 * diff(r), r[2] + 0.02 * diff(r), length.out = grid)
        nx <- matrix(held, grid, ncol(x), byrow = TRUE, dimnames = list(NULL, colnames(x)))
        nx[, j] <- g
        p <- predict_inputs(fit, nx, model, level, 0L)
        if (!is.null(p$classes)) basel_stop("plot_fit() draws a numeric response; this fit is a classifier")
        mean <- p$mean[, 1]
        lo <- p$lower[, 1]
        hi <- p$upper[, 1]
        ylim <- range(lo, hi, mean, if (!is.null(y)) y, na.rm = TRUE)
        label <- if (one) nm else paste0(nm, " (others at their ", at, "s)")
        graphics::plot(r, ylim, type = "n", xlab = if (strip) "" else label, ylab = d$targets[[1]],
                       xaxt = if (strip) "n" else "s", ...)
        if (!is.null(y)) graphics::points(x[, j], y, pch = 16, cex = 0.45, col = grDevices::gray(0.55, 0.6))
        graphics::polygon(c(g, rev(g)), c(lo, rev(hi)), col = band, border = NA)
        graphics::lines(g, mean, col = "#4477aa", lwd = 2)
        mk <- NULL
        if (!is.null(cen$sel) && nrow(cen$sel)) {
            cx <- cen$sel[, j]
            if (one) {
                u <- sort(unique(cx))
                times <- tabulate(match(cx, u), length(u))  # kernels at replicated inputs share a centre
                cy <- stats::approx(g, mean, u, rule = 2)$y
                graphics::points(u, cy, pch = 25, bg = "#cc3311", col = "#cc3311", cex = 1.1)
                if (any(times > 1))
                    graphics::text(u[times > 1], cy[times > 1], paste0("x", times[times > 1]), pos = 4,
                                   cex = 0.7, col = "#cc3311")
            } else {
                graphics::rug(cx, side = 1, col = "#cc3311", lwd = 2, ticksize = 0.05)
            }
            mk <- cx
        }
        main <- if (one) sprintf("fit of %s (%s, n = %d)", d$targets[[1]], d$method, d$n) else nm
        graphics::title(main = main, cex.main = 0.95)
        what <- if (model == "bma") "model-averaged mean"
                else paste0("mean (", if (estimator == "BMA") toupper(model) else estimator, " model)")
        leg <- c(if (!is.null(y)) "data", what, sprintf("%g%% predictive band", 100 * level),
                 if (!is.null(mk)) sprintf("%s (%d)", cen$label, length(mk)))
        if (one || nm == inputs[1])
            graphics::legend("topright", leg, bty = "n", cex = 0.7,
                             pch = c(if (!is.null(y)) 16, NA, 15, if (!is.null(mk)) if (one) 25 else 124),
                             lty = c(if (!is.null(y)) NA, 1, NA, if (!is.null(mk)) NA),
                             col = c(if (!is.null(y)) "gray55", "#4477aa", band, if (!is.null(mk)) "#cc3311"),
                             pt.bg = c(if (!is.null(y)) NA, NA, NA, if (!is.null(mk)) "#cc3311"), pt.cex = 1.2)
        out[[nm]] <- data.frame(x = g, mean = mean, lower = lo, upper = hi)
        attr(out[[nm]], "centres") <- mk
    }
    if (strip) {
        graphics::par(mar = c(4.1, 4.1, 0.5, 1))
        pp <- as.numeric(d$pip)
        cx <- cen$all[, 1]
        u <- sort(unique(cx))
        s <- vapply(split(pp, factor(cx, levels = u)), sum, 0)
        rep_ <- length(u) < length(cx)
        graphics::plot(u, s, type = "h", col = "#4477aa", xlim = range(out[[1]]$x), ylim = c(0, max(1, s)),
                       xlab = paste0(inputs, " (kernel centre)"), ylab = if (rep_) "sum of PIPs" else "PIP",
                       cex.lab = 0.85)
    }
    attr(out, "held") <- if (!one) held
    attr(out, "at") <- at
    invisible(out)
}

## The rows to draw: data (a data frame, in the formula's variables or the
## document's input columns), else the training rows basel() kept.
fit_data <- function(fit, data) {
    if (is.null(data)) {
        if (is.null(fit$x)) basel_stop("plot_fit(): this fit does not hold its training rows (read_fit()): ",
                                       "plot_fit(fit, data)")
        y <- fit$y
    } else {
        data <- as.data.frame(data)
        x <- new_inputs(fit, data)
        y <- if (!is.null(fit$terms)) stats::model.response(stats::model.frame(fit$terms, data, na.action = stats::na.pass))
             else data[[fit$doc$targets[[1]]]]
        return(list(x = x, y = response_values(y)))
    }
    list(x = fit$x, y = response_values(y))
}

response_values <- function(y) {
    if (is.null(y)) return(NULL)
    if (is.matrix(y)) y <- y[, 1]
    if (!is.numeric(y)) basel_stop("plot_fit() draws a numeric response; this fit's is ", class(y)[1])
    as.numeric(y)
}

## The inputs to draw along by default: those of the median probability
## model's atoms where the atoms are inputs (a linear basis: HPM's when the
## median model is empty, else every input), or every input for a kernel
## dictionary, whose atoms each involve all the inputs.
default_inputs <- function(fit, varying) {
    d <- fit$doc
    an <- atom_names(fit)
    if (!any(an %in% varying)) return(varying)
    sel <- unlist(d$selected$median)
    if (!length(sel)) sel <- unlist(d$selected$hpm)
    v <- intersect(varying, an[as.integer(sel) + 1L])
    if (length(v)) v else varying
}

## The centres of the kernels, on the inputs' original scale, as a matrix
## (centres x inputs), from the library (basel_fit_centres, which reads the
## engine's own block): for the atom methods every atom's ($all, aligned
## with the PIPs) and the selected model's ($sel); for a method that keeps
## one network (its one --model is "map": anneal) that network's ($sel);
## nothing for a linear basis or rbf's many kept networks.
fit_centres <- function(fit, which) {
    if (which == "none") return(list())
    all <- .Call(r_basel_fit_centres, fit$ptr)
    if (is.null(all)) return(list())
    d <- fit$doc
    if (!is.null(d$pip) && nrow(all) == length(d$pip)) {
        sel <- d$selected[[which]]
        if (is.null(sel)) return(list(all = all))
        return(list(all = all, sel = all[as.integer(unlist(sel)) + 1L, , drop = FALSE],
                    label = paste0(which, " model's centres")))
    }
    if (identical(method_caps(d$method)$models, "map")) return(list(sel = all, label = "the network's centres"))
    list()
}
