"""The walk-through of docs/python.md: which of the ten diabetes inputs
matter? (scikit-learn's load_diabetes; the data ship with Debian's
python3-sklearn.) Run: PYTHONPATH=python python3 python/examples/diabetes.py [IMGDIR]"""
import sys

import numpy as np
import pandas as pd
from sklearn.datasets import load_diabetes
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import basel

pd.set_option("display.width", 100)
X, y = load_diabetes(return_X_y=True, as_frame=True)
print(X.shape, list(X.columns))

# 1. exact: all 2^10 subsets, Zellner's g-prior (g = n), uniform prior on the size
reg = basel.BayesianSelectionRegressor(method="enumerate", random_state=1).fit(X, y)
table = pd.DataFrame({"pip": reg.pip_, "coef": reg.coef_}, index=reg.feature_names_in_)
if hasattr(reg, "coef_sd_"):
    table["sd"] = reg.coef_sd_
print(table.round(3).sort_values("pip", ascending=False))
print("coefficients from:", reg.coef_source_, " intercept: %.2f" % reg.intercept_)
print("P(size = k):", np.round(reg.model_size_, 3))
for which in ("hpm", "median", "prevalence"):
    print("%-10s" % which, reg.selected_names(which))
mean, std = reg.predict(X.iloc[:3], return_std=True)
print("first rows: y =", y.iloc[:3].to_numpy(), " mean =", mean.round(1), " std =", std.round(1))

# 2. the birth-death sampler (the default method), 4 chains on 2 threads, its draws kept
bd = basel.BayesianSelectionRegressor(random_state=1, n_jobs=2, keep_draws=True).fit(X, y)
print("bd vs exact, largest PIP difference: %.3f" % np.abs(bd.pip_ - reg.pip_).max())
print(bd.draws_.head(3))

# 3. in a pipeline, cross-validated
pipe = make_pipeline(StandardScaler(), basel.BayesianSelectionRegressor(method="enumerate", random_state=1))
print("5-fold R^2: %.3f" % cross_val_score(pipe, X, y, cv=5).mean())
# the scaler hands on a DataFrame, so the inputs keep their names
pipe.set_output(transform="pandas").fit(X, y)
print("median model in the pipeline:", pipe[-1].selected_names("median"))

# 4. the figures
if len(sys.argv) > 1:
    import matplotlib
    matplotlib.use("Agg")
    import basel.plot
    fig = basel.plot.overview(bd, top=10)
    fig.set_size_inches(11, 7.5)
    fig.savefig(sys.argv[1] + "/diabetes_overview.png", dpi=72)
