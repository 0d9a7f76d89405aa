#!/bin/bash
# test_r.sh: the R package (r/) on this repository's sources.
#   tools/test_r.sh          R CMD build + R CMD check --no-manual (installs the
#                            package from src/, runs the examples and the
#                            testthat tests against build/basel)
#   tools/test_r.sh --quick  R CMD INSTALL into a temporary library + testthat
# Installs R's Debian packages when missing (as root), like build.sh; needs
# the library's build packages (tools/build.sh installs them) and build/basel
# for the tests that compare R with the command line.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

need=()
for p in r-base-dev r-cran-testthat r-cran-jsonlite r-cran-posterior r-cran-mass; do
    dpkg -s "$p" > /dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "test_r.sh: installing ${need[*]}" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" > /dev/null
    else
        echo "test_r.sh: missing Debian packages: ${need[*]} (sudo apt-get install ${need[*]})" >&2
        exit 1
    fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BASEL_SRC_DIR=$root BASEL_CLI=$root/build/basel
export MAKEFLAGS="-j$(nproc)" OMP_WAIT_POLICY=passive OPENBLAS_NUM_THREADS=1
# a copy, so that neither building nor checking leaves files in r/
cp -r r "$tmp/basel"
rm -f "$tmp"/basel/src/*.o "$tmp"/basel/src/*.so "$tmp"/basel/src/Makevars
if [ "${1:-}" = "--quick" ]; then
    mkdir "$tmp/lib"
    R CMD INSTALL --no-test-load -l "$tmp/lib" "$tmp/basel" > "$tmp/install.log" 2>&1 ||
        { cat "$tmp/install.log"; exit 1; }
    cd "$tmp/basel/tests"
    R_LIBS="$tmp/lib" Rscript -e 'library(testthat); library(basel); test_dir("testthat", reporter = "summary", stop_on_failure = TRUE)'
else
    cd "$tmp"
    # no network: R CMD check's dependency-cycle check reads the repositories'
    # package lists; point it at an empty local repository
    mkdir -p repo/src/contrib
    : > repo/src/contrib/PACKAGES
    echo "options(repos = c(local = 'file://$tmp/repo'))" > Rprofile
    export R_PROFILE_USER=$tmp/Rprofile
    R CMD build --no-build-vignettes basel > build.log 2>&1 || { cat build.log; exit 1; }
    R CMD check --no-manual basel_*.tar.gz | tee check.log
    grep -q "^Status: OK" check.log || {
        grep -q "ERROR\|WARNING" check.log && { cat basel.Rcheck/tests/testthat.Rout* 2>/dev/null | tail -40; exit 1; }
        echo "test_r.sh: R CMD check passed with notes (above)"
    }
fi
