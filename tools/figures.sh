#!/bin/bash
# figures.sh: the figures in README.md and docs/python.md (docs/img/), drawn
# by the Python package (tools/python.sh --deps installs what it needs):
#   the diabetes walk-through's overview (python/examples/diabetes.py), and
#   `basel plot` of a kernel fit of the sinc data and of the linear data's
#   model space; and r/README.md's R figures (docs/img/r_*.png), drawn by
#   the R package from its tarball installed into a temporary library
#   (tools/figures.sh --r draws only those).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=docs/img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# R: UScrime (BAS's vignette) and the sinc and Boston kernel fits; PNGs at
# 72 dpi to stay small
r_figures() {
    (cd "$tmp" && R CMD build --no-build-vignettes "$root/r" > rbuild.log 2>&1) || { cat "$tmp/rbuild.log"; exit 1; }
    mkdir "$tmp/rlib"
    MAKEFLAGS=-j2 R CMD INSTALL -l "$tmp/rlib" "$tmp"/basel_*.tar.gz > "$tmp/rinstall.log" 2>&1 ||
        { cat "$tmp/rinstall.log"; exit 1; }
    R_LIBS="$tmp/rlib" OPENBLAS_NUM_THREADS=1 Rscript - "$out" <<'REOF'
library(basel)
out <- commandArgs(TRUE)[1]
fig <- function(name, w, h, expr) {
    grDevices::png(file.path(out, name), width = w, height = h, res = 72)
    on.exit(grDevices::dev.off())
    expr
}
u <- get(utils::data("UScrime", package = "MASS", envir = environment()))
u[, -2] <- log(u[, -2])
f <- basel(y ~ ., u, method = "enumerate", prior = "g:g=47", modelprior = "uniform", progress = FALSE)
fig("r_coef_uscrime.png", 720, 360, { par(mfrow = c(2, 4)); plot(coef(f), subset = c(2, 3, 4, 5, 6, 9, 14, 16)) })
fig("r_plot_uscrime.png", 640, 560, { par(mfrow = c(2, 2)); plot(f) })
fig("r_image_uscrime.png", 560, 440, image(f))
s <- read.csv("data/regression/sinc_vermaak_train.csv")
k <- suppressWarnings(basel(y ~ x, s, basis = "gauss:r=1.6", prior = "ridge", modelprior = "poisson:mean=5",
                            seed = 1, progress = FALSE), classes = "basel_fit_warning")
fig("r_fit_sinc.png", 620, 440, plot_fit(k))
fig("r_plot_sinc.png", 640, 560, { par(mfrow = c(2, 2)); plot(k) })
b <- read.csv("data/regression/boston.csv")
kb <- suppressWarnings(basel(medv ~ ., b, basis = "gauss", iter = 2000, seed = 1, threads = 1, progress = FALSE),
                       classes = "basel_fit_warning")
fig("r_fit_boston.png", 800, 560, plot_fit(kb, inputs = c("lstat", "rm", "dis", "crim", "nox", "ptratio")))
REOF
}
if [ "${1:-}" = "--r" ]; then r_figures; ls -l "$out"/r_*.png; exit 0; fi

tools/python.sh --deps
tools/build.sh > /dev/null
export PYTHONPATH=$PWD/python BASEL_PYTHON=/usr/bin/python3
/usr/bin/python3 python/examples/diabetes.py "$out" > /dev/null
build/basel fit data/regression/sinc_vermaak_train.csv --target y --inputs x --basis gauss:r=1.6 \
    --prior ridge --model-prior poisson:mean=5 --seed 1 --quiet -o "$tmp/sinc.json"
build/basel plot "$tmp/sinc.json" --kind fit --data data/regression/sinc_vermaak_train.csv --dpi 72 \
    -o "$out/sinc_fit.png"
build/basel fit data/linear/lin_p15_n200.csv --seed 1 --quiet -o "$tmp/lin.json"
build/basel plot "$tmp/lin.json" --kind models --top 15 --dpi 72 -o "$out/lin_models.png"
r_figures
ls -l "$out"
