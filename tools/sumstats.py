#!/usr/bin/env python3
"""sumstats.py: the summary statistics of a CSV, as `basel fit --stats` reads them.

    tools/sumstats.py TRAIN.csv [--target NAME] [--ld] [--no-means] > STATS.json

Writes the centred cross products X'X, X'y, y'y, n and the means
(docs/SUMMARY_STATS.md, form "xtx"), or with --ld the correlation matrix R
and the marginal z-scores (t statistics of y on each input alone, with an
intercept), as susieR's susie_rss reads them. The target is the last column
unless --target names one; every other column is an input. Sums are
compensated (math.fsum) so the statistics are correct to the last digit or
two. Standard library only (no numpy).
"""
import argparse
import csv
import json
import math
import sys


def read(path, target):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    names, body = rows[0], rows[1:]
    t = names.index(target) if target else len(names) - 1
    cols = [[float(r[j]) for r in body] for j in range(len(names))]
    inputs = [j for j in range(len(names)) if j != t]
    return [names[j] for j in inputs], names[t], [cols[j] for j in inputs], cols[t]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--target")
    ap.add_argument("--ld", action="store_true", help="write R and z instead of X'X, X'y, y'y")
    ap.add_argument("--no-means", action="store_true", help="leave out x_mean and y_mean")
    a = ap.parse_args()
    names, tname, X, y = read(a.csv, a.target)
    n, p = len(y), len(X)
    xm = [math.fsum(x) / n for x in X]
    ym = math.fsum(y) / n
    Xc = [[v - m for v in x] for x, m in zip(X, xm)]
    yc = [v - ym for v in y]
    xtx = [[math.fsum(a_ * b_ for a_, b_ in zip(Xc[i], Xc[j])) for j in range(p)] for i in range(p)]
    for i in range(p):  # exactly symmetric
        for j in range(i):
            xtx[i][j] = xtx[j][i]
    xty = [math.fsum(a_ * b_ for a_, b_ in zip(x, yc)) for x in Xc]
    yty = math.fsum(v * v for v in yc)
    out = {"n": n, "inputs": names, "target": tname}
    if a.ld:
        sd = [math.sqrt(xtx[i][i]) for i in range(p)]
        out["ld"] = [[xtx[i][j] / (sd[i] * sd[j]) if i != j else 1.0 for j in range(p)] for i in range(p)]
        r = [xty[i] / (sd[i] * math.sqrt(yty)) for i in range(p)]
        out["z"] = [ri * math.sqrt(n - 2) / math.sqrt(1 - ri * ri) for ri in r]
    else:
        out.update({"xtx": xtx, "xty": xty, "yty": yty})
        if not a.no_means:
            out.update({"x_mean": xm, "y_mean": ym})
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
