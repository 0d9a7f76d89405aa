#!/bin/bash
# build.sh: install what the build needs (Debian packages, when missing and
# when run as root), configure and build.
#   BUILD=dir      build directory (default: build)
#   TYPE=type      CMake build type (default: Release)
#   EXTRA="..."    more CMake arguments (e.g. -DBASEL_SANITIZE=ON)
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for p in cmake make gcc pkg-config libopenblas-dev liblapacke-dev libgsl-dev libjansson-dev zlib1g-dev python3; do
    dpkg -s "$p" > /dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "build.sh: installing ${need[*]}" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" > /dev/null
    else
        echo "build.sh: missing Debian packages: ${need[*]} (sudo apt-get install ${need[*]})" >&2
        exit 1
    fi
fi

BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE="${TYPE:-Release}" ${EXTRA:-} > /dev/null
cmake --build "$BUILD" -j"$(nproc)"
