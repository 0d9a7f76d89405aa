"""basel: Bayesian selection of inputs and basis functions by
trans-dimensional Monte Carlo, from Python.

    import basel
    reg = basel.BayesianSelectionRegressor(method="enumerate").fit(X, y)
    reg.pip_, reg.model_size_, reg.selected_, reg.predict(X, return_std=True)

The estimators follow scikit-learn's contracts; basel.Fit is the fit itself
(FIT.json, summary, predictions); basel.plot draws the figures. The library
is libbasel through ctypes (basel._lib says why and where it is found).
"""
from ._lib import BaselError, Data, Fit, Options, methods, option_catalogue, version
from .estimators import BayesianLogisticRegression, BayesianSelectionClassifier, BayesianSelectionRegressor

__version__ = "0.1.0"
__all__ = ["BayesianSelectionRegressor", "BayesianSelectionClassifier", "BayesianLogisticRegression", "BaselError", "Fit", "Data", "Options",
           "methods", "option_catalogue", "version", "read_json"]


def read_json(path):
    """A fit read back from FIT.json (the command line's or write_json's)."""
    return Fit.read_json(path)


def __getattr__(name):
    """basel.plot on first use (matplotlib is imported only then)."""
    if name == "plot":
        import importlib
        return importlib.import_module(".plot", __name__)
    raise AttributeError("module 'basel' has no attribute %r" % name)
