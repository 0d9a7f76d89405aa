#!/bin/bash
# test.sh: the whole test suite, as CI runs it.
#   tools/test.sh          the fast tier (CI): every test, the statistical
#                          ones at a size that takes a few CPU minutes;
#   tools/test.sh --full   the same with the long statistical runs
#                          (BASEL_TIER=full, tests/stat/mcse.h): smaller
#                          Monte Carlo errors, so smaller biases are seen.
#  1. the release build: unit, statistical and command-line tests;
#  2. an AddressSanitizer + UndefinedBehaviorSanitizer build with warnings as
#     errors: unit and command-line tests;
#  3. valgrind memcheck on representative command lines (tests/cli/memcheck.sh);
#  4. the R package (r/): R CMD check with its testthat tests (tools/test_r.sh;
#     about 30 s of CPU). BASEL_NO_R=1 skips it.
# Ends with CTest's summary line of the last run.
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    "") tier=fast timeout=900 ;;
    --full) tier=full timeout=7200 ;;
    *) echo "usage: tools/test.sh [--full]" >&2; exit 2 ;;
esac

EXTRA="${EXTRA:-} -DBASEL_STAT_TIMEOUT=$timeout" tools/build.sh
BASEL_TIER=$tier ctest --test-dir build --output-on-failure -j2

# the Python package's tests (python/tests: pytest on Debian's python3, in
# place against build/libbasel.so.0; about 20 s of CPU); tools/python.sh
# --deps installs what they need. A failing test ends the run with pytest's
# status. BASEL_NO_PYTHON=1 skips them.
if [ -z "${BASEL_NO_PYTHON:-}" ]; then
    tools/python.sh --deps
    status=0
    OMP_WAIT_POLICY=passive /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests || status=$?
    if [ "$status" -ne 0 ]; then
        echo "test.sh: the Python tests failed (pytest status $status)" >&2
        exit "$status"
    fi
fi

# valgrind is a test-only dependency: installed here (as root) like the
# build's packages in build.sh
if ! dpkg -s valgrind > /dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "test.sh: installing valgrind" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind > /dev/null 2>&1 ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind > /dev/null; } || true
fi
if dpkg -s valgrind > /dev/null 2>&1; then
    bash tests/cli/memcheck.sh build/basel
else
    echo "test.sh: valgrind is not installed: memcheck skipped" >&2
fi

if [ -z "${BASEL_NO_R:-}" ]; then
    bash tools/test_r.sh
fi

BUILD=build-asan TYPE=Debug EXTRA="-DBASEL_SANITIZE=ON -DBASEL_WERROR=ON" tools/build.sh
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan -L 'unit|contract|cli' --output-on-failure -j2
