#!/bin/sh
# tools/peers.sh: the Debian packages of the peers that bench/scale and
# bench/glm run beside basel (susieR, glmnet). BAS is not in Debian: it is built beside the
# project from its public source (see bench/linear) and found through
# R_LIBS=/work/peers/Rlib. Needs root (apt-get).
set -eu
if Rscript -e 'quit(status = !requireNamespace("susieR", quietly = TRUE))' >/dev/null 2>&1; then
    echo "susieR: installed"
else
    DEBIAN_FRONTEND=noninteractive apt-get install -y r-cran-susier
fi
# bench/glm: glmnet (L1-penalised logistic regression, Debian 12: r-cran-glmnet 4.1-6)
if Rscript -e 'quit(status = !requireNamespace("glmnet", quietly = TRUE))' >/dev/null 2>&1; then
    echo "glmnet: installed"
else
    DEBIAN_FRONTEND=noninteractive apt-get install -y r-cran-glmnet
fi
