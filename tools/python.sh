#!/bin/bash
# python.sh: the Python package (python/) on Debian's python3, without PyPI.
#   tools/python.sh          install the Debian packages it needs (when run as
#                            root), build libbasel (tools/build.sh) and install
#                            the package into the virtual environment .venv
#                            (python3 -m venv --system-site-packages, so numpy,
#                            pandas, scikit-learn and matplotlib are Debian's);
#                            then: . .venv/bin/activate
#   tools/python.sh --deps   only the Debian packages (tools/test.sh runs this)
#   VENV=dir                 another virtual environment
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for p in python3 python3-venv python3-pip python3-setuptools python3-wheel python3-numpy python3-pandas \
         python3-sklearn python3-matplotlib python3-pytest; do
    dpkg -s "$p" > /dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "python.sh: installing ${need[*]}" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" > /dev/null
    else
        echo "python.sh: missing Debian packages: ${need[*]} (sudo apt-get install ${need[*]})" >&2
        exit 1
    fi
fi
[ "${1:-}" = --deps ] && exit 0

tools/build.sh
VENV=${VENV:-.venv}
/usr/bin/python3 -m venv --system-site-packages "$VENV"
# --no-index: never PyPI; the dependencies are the Debian packages above
"$VENV/bin/pip" install -q --no-index --no-build-isolation --no-deps ./python
"$VENV/bin/python" -c "import basel; print('basel %s (libbasel %s) installed in $VENV' % (basel.__version__, basel.version()))"
