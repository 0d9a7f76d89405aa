#!/bin/sh
# tools/peers.sh: the Debian packages of the peers that bench/scale runs
# beside basel (susieR). BAS is not in Debian: it is built beside the
# project from its public source (see bench/linear) and found through
# R_LIBS=/work/peers/Rlib. Needs root (apt-get).
set -eu
if Rscript -e 'quit(status = !requireNamespace("susieR", quietly = TRUE))' >/dev/null 2>&1; then
    echo "susieR: installed"
else
    DEBIAN_FRONTEND=noninteractive apt-get install -y r-cran-susier
fi
