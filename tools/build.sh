#!/bin/bash
# build.sh: install what the build needs (Debian packages, when missing and
# when run as root: tools/deps.sh build), configure and build.
#   BUILD=dir      build directory (default: build)
#   TYPE=type      CMake build type (default: Release)
#   EXTRA="..."    more CMake arguments (e.g. -DBASEL_SANITIZE=ON)
set -euo pipefail
cd "$(dirname "$0")/.."

# the build's Debian packages, from the one list (tools/deps/packages.txt)
tools/deps.sh build

BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE="${TYPE:-Release}" ${EXTRA:-} > /dev/null
cmake --build "$BUILD" -j"$(nproc)"
