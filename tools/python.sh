#!/bin/bash
# python.sh: the Python package (python/) on Debian's python3, without PyPI.
#   tools/python.sh               install the Debian packages it needs (as
#                                 root: tools/deps.sh build python) and install
#                                 the package, with the libbasel it compiles
#                                 from the C sources, into the virtual
#                                 environment .venv (python3 -m venv
#                                 --system-site-packages, so numpy, pandas,
#                                 scikit-learn and matplotlib are Debian's);
#                                 then: . .venv/bin/activate
#   tools/python.sh --deps        only the Debian packages
#   tools/python.sh --dist [DIR]  the sdist and the wheel, into DIR (default
#                                 dist/): the wheel is built from the sdist
#   tools/python.sh --wheel-check what tools/test.sh runs: --dist into a
#                                 temporary folder, the wheel installed in a
#                                 fresh venv, and python/tests run against it
#                                 in a copy of the repository with no build/
#   VENV=dir                      another virtual environment
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
PY=/usr/bin/python3

tools/deps.sh build python
[ "${1:-}" = --deps ] && exit 0

# --no-index and --no-build-isolation: never PyPI; setuptools, wheel and the
# package's dependencies are the Debian packages above
pip_offline() { "$@" -q --no-index --no-build-isolation --no-deps; }

dist() {
    local out=$1 tmp
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    tmp=$(mktemp -d)
    # a copy: building leaves build/ and *.egg-info behind, never in python/
    cp -rL python "$tmp/python"
    rm -rf "$tmp/python/build" "$tmp/python"/*.egg-info
    (cd "$tmp/python" && "$PY" setup.py -q sdist -d "$out" > "$tmp/sdist.log" 2>&1) ||
        { cat "$tmp/sdist.log"; rm -rf "$tmp"; return 1; }
    local sdist
    sdist=$(ls "$out"/basel-*.tar.gz | tail -1)
    # the wheel from the sdist, as pip builds it on a user's machine
    pip_offline "$PY" -m pip wheel -w "$out" "$sdist" > "$tmp/wheel.log" 2>&1 ||
        { cat "$tmp/wheel.log"; rm -rf "$tmp"; return 1; }
    rm -rf "$tmp"
    ls "$out"
}

case "${1:-}" in
    --dist)
        dist "${2:-dist}"
        exit 0
        ;;
    --wheel-check)
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        dist "$tmp/dist"
        whl=$(ls "$tmp"/dist/basel-*.whl)
        # the wheel from the tree holds the same files as the one from the sdist
        # (in a copy: pip builds in place and leaves build/ and *.egg-info behind)
        cp -rL python "$tmp/python"
        pip_offline "$PY" -m pip wheel -w "$tmp/tree" "$tmp/python" > "$tmp/tree.log" 2>&1 ||
            { cat "$tmp/tree.log"; exit 1; }
        files() { "$PY" -c "import sys, zipfile; print('\n'.join(sorted(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if '.dist-info/RECORD' not in n)))" "$1"; }
        diff <(files "$whl") <(files "$tmp"/tree/basel-*.whl) ||
            { echo "python.sh: the wheels from the sdist and from the tree differ (above)" >&2; exit 1; }
        "$PY" -m venv --system-site-packages "$tmp/venv"
        pip_offline "$tmp/venv/bin/pip" install "$whl"
        # the repository without build/ or the package's sources: the tests
        # find basel only as installed in the venv, and skip what needs the
        # command line (build/basel)
        mkdir "$tmp/repo"
        git ls-files -z --cached --others --exclude-standard | grep -zv '^python/basel/' |
            (cd "$root" && xargs -0 cp --parents -P -t "$tmp/repo" 2> /dev/null || true)
        [ ! -e "$tmp/repo/build" ] && [ ! -e "$tmp/repo/python/basel" ] || { echo "python.sh: the copy has build/" >&2; exit 1; }
        cd "$tmp/repo"
        "$tmp/venv/bin/python" -c "import basel, sys; v = basel.__version__; assert v == basel.version(), (v, basel.version()); print('basel %s from %s; %s' % (v, basel.__file__, basel.blas()))"
        BASEL_TEST_INSTALLED=1 OMP_WAIT_POLICY=passive "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
        exit $?
        ;;
    "") ;;
    *) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

VENV=${VENV:-.venv}
"$PY" -m venv --system-site-packages "$VENV"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -rL python "$tmp/python"   # pip builds in place: build/ and *.egg-info stay out of python/
pip_offline "$VENV/bin/pip" install "$tmp/python"
"$VENV/bin/python" -c "import basel; print('basel %s (libbasel %s) installed in $VENV' % (basel.__version__, basel.version()))"
