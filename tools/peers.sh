#!/bin/sh
# tools/peers.sh: the Debian packages of the peers that the benchmarks run
# beside basel (susieR, glmnet, kernlab, nnet, scikit-learn, SciPy): the
# "peers" purpose of the one list, tools/deps/packages.txt. BAS is not in
# Debian: it is built beside the project from its public source (see
# bench/linear) and found through R_LIBS=/work/peers/Rlib. Needs root (apt-get).
set -eu
cd "$(dirname "$0")/.."
exec tools/deps.sh r peers
