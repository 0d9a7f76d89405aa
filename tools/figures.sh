#!/bin/bash
# figures.sh: the figures in README.md and docs/python.md (docs/img/), drawn
# by the Python package (tools/python.sh --deps installs what it needs):
#   the diabetes walk-through's overview (python/examples/diabetes.py), and
#   `basel plot` of a kernel fit of the sinc data and of the linear data's
#   model space.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/python.sh --deps
tools/build.sh > /dev/null
out=docs/img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
export PYTHONPATH=$PWD/python BASEL_PYTHON=/usr/bin/python3
/usr/bin/python3 python/examples/diabetes.py "$out" > /dev/null
build/basel fit data/regression/sinc_vermaak_train.csv --target y --inputs x --basis gauss:r=1.6 \
    --prior ridge --model-prior poisson:mean=5 --seed 1 --quiet -o "$tmp/sinc.json"
build/basel plot "$tmp/sinc.json" --kind fit --data data/regression/sinc_vermaak_train.csv --dpi 72 \
    -o "$out/sinc_fit.png"
build/basel fit data/linear/lin_p15_n200.csv --seed 1 --quiet -o "$tmp/lin.json"
build/basel plot "$tmp/lin.json" --kind models --top 15 --dpi 72 -o "$out/lin_models.png"
ls -l "$out"
