#!/usr/bin/env python3
"""bench/linear/compare_bas.py: basel's exact enumeration next to R's BAS
(data/linear/bas_uscrime.json, bas_lin_p15_n200.json; written by
bench/linear/bas_reference.R). Standard library only.

For each data set and prior: the largest |PIP difference|, |model-size
posterior difference|, |BMA coefficient difference| and, over BAS's top 20
models, the spread of basel's log_post minus BAS's logmarg (a constant offset
is fine: BAS's BIC/AIC count the intercept; 0 means the same model scores).

Usage (from the repository root): python3 bench/linear/compare_bas.py [build/basel] [--check TOL]
(tests/cli/test_bas.sh runs it with --check 1e-6.)
Exit status 1 with --check when a PIP differs by more than TOL.
"""
import json
import os
import subprocess
import sys
import tempfile

CASES = [  # data, reference, BAS prior, basel --prior
    ("uscrime_log.csv", "bas_uscrime.json", "BIC", "bic"),
    ("uscrime_log.csv", "bas_uscrime.json", "AIC", "aic"),
    ("uscrime_log.csv", "bas_uscrime.json", "g-prior", "g"),
    ("lin_p15_n200.csv", "bas_lin_p15_n200.json", "g-prior", "g:g=200"),
]


def main():
    args = sys.argv[1:]
    tol = None
    if "--check" in args:
        i = args.index("--check")
        tol = float(args[i + 1])
        del args[i:i + 2]
    basel = args[0] if args else "build/basel"
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for data, refname, prior, spec in CASES:
            ref = json.load(open(os.path.join("data/linear", refname)))["priors"][prior]
            out = os.path.join(tmp, "fit.json")
            subprocess.run([basel, "fit", os.path.join("data/linear", data), "--method", "enumerate",
                            "--prior", spec, "--model-prior", "uniform", "-o", out, "--quiet"], check=True)
            fit = json.load(open(out))
            names = [a["name"] for a in fit["atoms"]]
            dpip = {n: fit["pip"][i] - ref["pip"][n] for i, n in enumerate(names)}
            jn = max(dpip, key=lambda n: abs(dpip[n]))
            size = dict(zip(fit["model_size"]["k"], fit["model_size"]["prob"]))
            dsize = max(abs(size.get(int(k), 0.0) - v) for k, v in ref["model_size_posterior"].items())
            bma = fit["engine"]["predictor"]["bma"]
            coef = dict(zip(bma["atoms"], bma["coef"]))
            dcoef = max(abs(coef.get(i, 0.0) - ref["coefficients"][n]["postmean"]) for i, n in enumerate(names))
            logp = {tuple(sorted(names[a] for a in m["atoms"])): m["log_post"] for m in fit["models"]}
            offs = [logp[tuple(sorted(t["predictors"]))] - t["logmarg"]
                    for t in ref["top_models"] if tuple(sorted(t["predictors"])) in logp]
            spread = f"{max(offs) - min(offs):.3g} over {len(offs)}" if offs else "n/a"
            print(f"{data} {prior:8s} --prior {spec:8s} max|dPIP| {abs(dpip[jn]):.3g} ({jn})  "
                  f"max|dsize| {dsize:.3g}  max|dcoef| {dcoef:.3g}  log_post - logmarg spread {spread}")
            worst = max(worst, abs(dpip[jn]))
    if tol is not None and worst > tol:
        print(f"FAIL: a PIP differs from BAS by {worst:.3g} > {tol}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
