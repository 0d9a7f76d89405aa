#!/bin/sh
# bench/glm/run.sh: basel's logistic regression with variable selection next
# to glmnet, scikit-learn's L1 logistic regression and BAS's bas.glm on Pima
# and Ionosphere, and multinomial logistic regression on Wine next to
# glmnet's and scikit-learn's multinomial L1 (split 0; with --splits 10 also
# splits 1-10). Slow with
# --splits: minutes. Installs glmnet (tools/peers.sh) if missing.
set -eu
cd "$(dirname "$0")/../.."
[ -x build/basel ] || tools/build.sh
Rscript -e 'quit(status = !requireNamespace("glmnet", quietly = TRUE))' >/dev/null 2>&1 || sh tools/peers.sh
exec nice -n 10 /usr/bin/python3 bench/glm/run.py "$@"
