#!/bin/bash
# mpi.sh: the optional Open MPI build (README "More than one machine").
# Installs Debian's Open MPI (libopenmpi-dev openmpi-bin) when missing and run
# as root, then builds with -DBASEL_MPI=ON into its own directory, so the
# default build (build/, tools/build.sh) never needs or links MPI.
#   BUILD=dir      build directory (default: build-mpi)
#   tools/mpi.sh --test   also run the tests labelled mpi (mpirun -np 4)
set -euo pipefail
cd "$(dirname "$0")/.."

tools/deps.sh mpi

BUILD=${BUILD:-build-mpi} EXTRA="${EXTRA:-} -DBASEL_MPI=ON" tools/build.sh
if [ "${1:-}" = "--test" ]; then
    ctest --test-dir "${BUILD:-build-mpi}" -L mpi --output-on-failure -j1
fi
