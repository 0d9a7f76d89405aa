#!/bin/bash
# test_r.sh: the R package (r/) as a user meets it: its own source tarball.
#   tools/test_r.sh          R CMD build r, then, in an empty folder outside
#                            the repository, R CMD check --as-cran of the
#                            tarball (its examples and testthat tests), and
#                            install.packages(tarball, repos = NULL,
#                            type = "source") into a fresh library
#   tools/test_r.sh --quick  R CMD INSTALL of the tarball into a temporary
#                            library + the testthat tests
# Installs R's Debian packages when missing (tools/deps.sh build r). The
# tests that compare R with the command line find the repository and
# build/basel through BASEL_SRC_DIR and BASEL_CLI, and skip without them.
# --no-manual: the PDF manual needs LaTeX (texlive), which the project does
# not install; the Rd files are still checked (R CMD check "checking Rd ...").
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools/deps.sh build r

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BASEL_SRC_DIR=$root BASEL_CLI=$root/build/basel
export MAKEFLAGS="-j$(nproc)" OMP_WAIT_POLICY=passive OPENBLAS_NUM_THREADS=1
# no network: R CMD check's dependency checks read the repositories' package
# lists; point them at an empty local repository, and skip CRAN's incoming
# checks (they ask CRAN whether the name is taken)
mkdir -p "$tmp/repo/src/contrib"
: > "$tmp/repo/src/contrib/PACKAGES"
echo "options(repos = c(local = 'file://$tmp/repo'))" > "$tmp/Rprofile"
export R_PROFILE_USER=$tmp/Rprofile _R_CHECK_CRAN_INCOMING_=false _R_CHECK_CRAN_INCOMING_REMOTE_=false
# (the check of future file timestamps asks a time server too; --as-cran
# turns it on whatever the environment says, so it leaves a NOTE here)

# the tarball: R CMD build copies the sources the links src/libbasel and
# src/include point at into it
(cd "$tmp" && R CMD build --no-build-vignettes "$root/r" > build.log 2>&1) || { cat "$tmp/build.log"; exit 1; }
tarball=$(ls "$tmp"/basel_*.tar.gz)
tar -tzf "$tarball" > "$tmp/files"
grep -q '^basel/src/libbasel/core/error.c$' "$tmp/files" ||
    { echo "test_r.sh: the tarball does not carry the library's C sources" >&2; exit 1; }
# (objects, Makevars: what r/.gitignore ignores)
left=$(git status --porcelain --ignored r/ | grep '^!!' || true)
[ -z "$left" ] || { echo "test_r.sh: R CMD build left files in r/: $left" >&2; exit 1; }

mkdir "$tmp/lib" "$tmp/check"
if [ "${1:-}" = "--quick" ]; then
    R CMD INSTALL --no-test-load -l "$tmp/lib" "$tarball" > "$tmp/install.log" 2>&1 ||
        { cat "$tmp/install.log"; exit 1; }
    tar -xzf "$tarball" -C "$tmp/check"
    cd "$tmp/check/basel/tests"
    R_LIBS="$tmp/lib${BASEL_PEER_RLIB:+:$BASEL_PEER_RLIB}" Rscript -e 'library(testthat); library(basel); test_dir("testthat", reporter = "summary", stop_on_failure = TRUE)'
    exit $?
fi

# as a user installs it: install.packages from the tarball, then load it
Rscript -e "install.packages('$tarball', lib = '$tmp/lib', repos = NULL, type = 'source', quiet = TRUE)" \
    > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
R_LIBS="$tmp/lib" Rscript -e 'library(basel); v <- basel_version(); cat("installed basel", v$library, "with", v$blas, "\n")' ||
    { cat "$tmp/install.log"; exit 1; }

cp "$tarball" "$tmp/check/"
cd "$tmp/check"
R CMD check --as-cran --no-manual "$(basename "$tarball")" | tee check.log
if grep -q "^Status: OK" check.log; then
    exit 0
elif grep -Eq "^Status: .*(ERROR|WARNING)" check.log; then
    cat basel.Rcheck/tests/testthat.Rout* 2>/dev/null | tail -40
    exit 1
fi
echo "test_r.sh: R CMD check --as-cran passed with NOTEs (above; r/README.md explains each)"
