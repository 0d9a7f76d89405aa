"""The tests run against the source tree: python/ on sys.path and the
library from ../build (basel/_lib.py), unless BASEL_LIBRARY says otherwise."""
import os
import sys

import matplotlib

matplotlib.use("Agg")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
ROOT = os.path.dirname(os.path.dirname(HERE))
