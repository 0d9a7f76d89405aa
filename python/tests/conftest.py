"""The tests run against the source tree: python/ on sys.path and the
library from ../build (basel/_lib.py), unless BASEL_LIBRARY says otherwise.

With BASEL_TEST_INSTALLED=1 (tools/python.sh --wheel-check) they run against
the basel installed in the running interpreter instead (a wheel in a fresh
venv), with its own libbasel, in a copy of the repository that has no build/:
the tests that compare with the command line (build/basel) are skipped then."""
import os
import sys

import matplotlib
import pytest

matplotlib.use("Agg")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INSTALLED = os.environ.get("BASEL_TEST_INSTALLED") == "1"
if not INSTALLED:
    sys.path.insert(0, os.path.dirname(HERE))
CLI = os.path.join(ROOT, "build", "basel")


def need_cli():
    """Skip a test that runs the command line when it is not built."""
    if not os.path.exists(CLI):
        pytest.skip("the basel command line is not built (%s): this run tests an installed wheel" % CLI)
    return CLI
