"""basel: Bayesian selection of inputs and basis functions by
trans-dimensional Monte Carlo, from Python.

    import basel
    reg = basel.BayesianSelectionRegressor(method="enumerate").fit(X, y)
    reg.pip_, reg.model_size_, reg.selected_, reg.predict(X, return_std=True)

The estimators follow scikit-learn's contracts; basel.Fit is the fit itself
(FIT.json, summary, predictions); basel.plot draws the figures. The library
is libbasel through ctypes (basel._lib says why and where it is found).
"""
from ._lib import BaselError, Data, Fit, Options, blas, methods, option_catalogue, version

# the estimators import scikit-learn (about 1.7 s here): on first use, so that
# `import basel` for Fit, Data and the library alone does not pay for it
_ESTIMATORS = ("BaselConvergenceWarning", "BayesianLogisticRegression", "BayesianSelectionClassifier",
               "BayesianSelectionRegressor")


def _package_version():
    """The installed distribution's version (python/setup.py takes it from
    include/basel.h); in a checkout, the header's, so the two never differ."""
    from importlib import metadata
    try:
        return metadata.version("basel")
    except metadata.PackageNotFoundError:
        import os
        import re
        header = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "include", "basel.h")
        try:
            with open(header) as f:
                return re.search(r'#define BASEL_VERSION_STRING "([^"]+)"', f.read()).group(1)
        except (OSError, AttributeError):
            return "unknown"


__version__ = _package_version()
__all__ = ["BayesianSelectionRegressor", "BayesianSelectionClassifier", "BayesianLogisticRegression", "BaselError",
           "BaselConvergenceWarning", "Fit", "Data", "Options",
           "methods", "option_catalogue", "version", "blas", "read_json"]


def read_json(path):
    """A fit read back from FIT.json (the command line's or write_json's)."""
    return Fit.read_json(path)


def __getattr__(name):
    """basel.plot and the estimators on first use (matplotlib and
    scikit-learn are imported only then)."""
    import importlib
    if name == "plot":
        return importlib.import_module(".plot", __name__)
    if name in _ESTIMATORS:
        return getattr(importlib.import_module(".estimators", __name__), name)
    raise AttributeError("module 'basel' has no attribute %r" % name)


def __dir__():
    return sorted(set(globals()) | set(_ESTIMATORS) | {"plot"})
