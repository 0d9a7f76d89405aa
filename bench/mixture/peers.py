"""Peers of bench_mixture, on the same splits and the same standardisation.

The same model as the mixture engine (paper 000 eq. 1: D diagonal Gaussian
kernels shared by the classes, class-specific weights w_kd, class priors
P_k), fitted by EM on all inputs (D = 3 and 6; best log-likelihood of 5
starts from random rows, a variance floor of 1e-3 so no kernel collapses);
L1 logistic regression (C by 5-fold CV on the training rows, saga) and an
RBF SVC (C and gamma by 5-fold CV; probabilities by Platt scaling) from
Debian's python3-sklearn; and a per-class Gaussian mixture ("GMM/class BIC":
sklearn's GaussianMixture with diagonal covariances fitted to each class's
rows, its number of components, 1..6 and fewer than the class's rows / 4,
chosen by BIC; the class priors from the class counts; reg_covar 1e-3 on
the standardised inputs, the variance floor of EM above). Prints accuracy,
log-loss, inputs kept (L1) and seconds for split 0, and the mean +- sd of
the accuracy over splits 1..S.

usage: /usr/bin/python3 bench/mixture/peers.py [DATA_DIR] [S] [dataset] [methods]
  methods: comma-separated among "EM D=3", "EM D=6", "L1 logistic", "SVC RBF",
  "GMM/class BIC" (default: all)
"""
import csv
import os
import sys
import time

import numpy as np
from sklearn.linear_model import LogisticRegressionCV
from sklearn.mixture import GaussianMixture
from sklearn.model_selection import GridSearchCV
from sklearn.svm import SVC

SETS = [("ionosphere", "ionosphere.csv", "ionosphere_splits_175_176.csv", "V2"),
        ("wine", "wine.csv", "wine_splits_62_63.csv", None),
        ("pima", "pima.csv", "pima_splits_200_332.csv", None)]


def read(path, drop):
    with open(path) as fh:
        rows = list(csv.reader(fh))
    head, body = rows[0], rows[1:]
    keep = [j for j, name in enumerate(head[:-1]) if name != drop]
    X = np.array([[float(r[j]) for j in keep] for r in body])
    labels = sorted(set(r[-1] for r in body))
    y = np.array([labels.index(r[-1]) for r in body])
    return X, y


def splits(path):
    out = {}
    with open(path) as fh:
        for r in csv.reader(fh):
            try:
                s, row = int(r[0]), int(r[1])
            except ValueError:
                continue
            out.setdefault(s, {"train": [], "test": []}).setdefault(r[2], []).append(row - 1)
    return out


def em_shared(X, y, K, D, seed, starts=5, iters=300):
    """EM for eq. 1; returns a function giving class probabilities."""
    n, d = X.shape
    rng = np.random.default_rng(seed)
    best = None
    for _ in range(starts):
        mu = X[rng.choice(n, D, replace=False)]
        var = np.ones((D, d))
        w = np.full((K, D), 1.0 / D)
        P = np.bincount(y, minlength=K) / n
        old = -np.inf
        for _ in range(iters):
            logN = -0.5 * (((X[:, None, :] - mu) ** 2) / var + np.log(2 * np.pi * var)).sum(2)  # n x D
            lw = np.log(w[y]) + logN
            mx = lw.max(1, keepdims=True)
            r = np.exp(lw - mx)
            s = r.sum(1, keepdims=True)
            ll = float((np.log(s) + mx).sum())
            r /= s
            Nd = r.sum(0) + 1e-12
            mu = (r.T @ X) / Nd[:, None]
            var = np.maximum((r.T @ X ** 2) / Nd[:, None] - mu ** 2, 1e-3)
            for k in range(K):
                w[k] = r[y == k].sum(0) + 1e-10
                w[k] /= w[k].sum()
            if ll - old < 1e-6 * abs(ll):
                break
            old = ll
        if best is None or ll > best[0]:
            best = (ll, mu.copy(), var.copy(), w.copy(), P.copy())
    _, mu, var, w, P = best

    def predict(Xt):
        logN = -0.5 * (((Xt[:, None, :] - mu) ** 2) / var + np.log(2 * np.pi * var)).sum(2)
        mx = logN.max(1, keepdims=True)
        e = np.exp(logN - mx)
        p = P * (e @ w.T)
        return p / p.sum(1, keepdims=True)
    return predict


def gmm_per_class(X, y, K, seed, max_components=6):
    """Class-conditional diagonal Gaussian mixtures, components by BIC; returns a predictor."""
    fits, logP = [], np.log(np.bincount(y, minlength=K) / len(y))
    for k in range(K):
        Xk = X[y == k]
        best = None
        for c in range(1, max(1, min(max_components, len(Xk) // 4)) + 1):
            g = GaussianMixture(c, covariance_type="diag", reg_covar=1e-3, n_init=3,
                                random_state=seed).fit(Xk)
            b = g.bic(Xk)
            if best is None or b < best[0]:
                best = (b, g)
        fits.append(best[1])

    def predict(Xt):
        lp = np.column_stack([f.score_samples(Xt) for f in fits]) + logP
        lp -= lp.max(1, keepdims=True)
        e = np.exp(lp)
        return e / e.sum(1, keepdims=True)
    predict.components = [f.n_components for f in fits]
    return predict


def scores(p, y):
    acc = 100.0 * float((p.argmax(1) == y).mean())
    ll = float(-np.log(np.clip(p[np.arange(len(y)), y], 1e-15, 1)).mean())
    return acc, ll


def run(X, y, tr, te, method, seed):
    Xtr, Xte = X[tr], X[te]
    m, s = Xtr.mean(0), Xtr.std(0, ddof=1)
    s[s == 0] = 1
    Xtr, Xte = (Xtr - m) / s, (Xte - m) / s
    K = int(y.max()) + 1
    t0 = time.time()
    kept = None
    if method.startswith("EM"):
        p = em_shared(Xtr, y[tr], K, int(method[-1]), seed)(Xte)
    elif method == "GMM/class BIC":
        p = gmm_per_class(Xtr, y[tr], K, seed)(Xte)
    elif method == "L1 logistic":
        f = LogisticRegressionCV(Cs=10, cv=5, penalty="l1", solver="saga", max_iter=5000,
                                 random_state=seed).fit(Xtr, y[tr])
        p = f.predict_proba(Xte)
        kept = int((np.abs(f.coef_).max(0) > 1e-8).sum())
    else:
        g = GridSearchCV(SVC(probability=True, random_state=seed),
                         {"C": [0.1, 1, 10, 100], "gamma": [0.3 / X.shape[1], 1.0 / X.shape[1], 3.0 / X.shape[1]]},
                         cv=5).fit(Xtr, y[tr])
        p = g.predict_proba(Xte)
    return scores(p, y[te]) + (kept, time.time() - t0)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "data", "classification")
    S = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    only = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    methods = sys.argv[4].split(",") if len(sys.argv) > 4 else ["EM D=3", "EM D=6", "L1 logistic", "SVC RBF",
                                                               "GMM/class BIC"]
    import warnings
    warnings.filterwarnings("ignore")
    for name, f, sf, drop in SETS:
        if only and only != name:
            continue
        X, y = read(os.path.join(data, f), drop)
        sp = splits(os.path.join(data, sf))
        for method in methods:
            res = [run(X, y, sp[s]["train"], sp[s]["test"], method, 17 + s) for s in range(0, S + 1) if s in sp]
            a0, l0, k0, t0 = res[0]
            rest = np.array([r[0] for r in res[1:]])
            tail = (f"  splits 1-{S}: acc {rest.mean():.1f} +- {rest.std(ddof=1):.1f} (sd), "
                    f"{rest.std(ddof=1) / np.sqrt(len(rest)):.1f} (se)") if len(rest) > 1 else ""
            kept = f"  inputs {k0}" if k0 is not None else ""
            print(f"  {name:<10} {method:<12} split 0: acc {a0:5.1f}%  log-loss {l0:.3f}{kept}  {t0:.1f} s{tail}",
                  flush=True)


if __name__ == "__main__":
    main()
