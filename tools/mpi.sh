#!/bin/bash
# mpi.sh: the optional Open MPI build (README "More than one machine").
# Installs Debian's Open MPI (libopenmpi-dev openmpi-bin) when missing and run
# as root, then builds with -DBASEL_MPI=ON into its own directory, so the
# default build (build/, tools/build.sh) never needs or links MPI.
#   BUILD=dir      build directory (default: build-mpi)
#   tools/mpi.sh --test   also run the tests labelled mpi (mpirun -np 4)
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for p in libopenmpi-dev openmpi-bin; do
    dpkg -s "$p" > /dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "mpi.sh: installing ${need[*]}" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" > /dev/null 2>&1 ||
            { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" > /dev/null; }
    else
        echo "mpi.sh: missing Debian packages: ${need[*]} (sudo apt-get install ${need[*]})" >&2
        exit 1
    fi
fi

BUILD=${BUILD:-build-mpi} EXTRA="${EXTRA:-} -DBASEL_MPI=ON" tools/build.sh
if [ "${1:-}" = "--test" ]; then
    ctest --test-dir "${BUILD:-build-mpi}" -L mpi --output-on-failure -j1
fi
