#!/usr/bin/python3
"""bench/scale/blocks.py: calibration where correlated effects share a block.

For each AR(1) block of 50 inputs (make_data.R) that holds a true effect:
how many it holds, and each method's posterior expected number of effects
in it, the sum of its PIPs, next to the reference run's (the exact
posterior up to Monte Carlo error). A method is calibrated on a block when
its sum is the reference's; variational methods with one effect per
component tend to put 1 where the posterior says more (or less).

Usage: blocks.py TRUTH REF.json NAME=PIPFILE ... (PIP files: one PIP a
line, as run.sh writes them).
"""
import json
import sys

truth, ref = sys.argv[1], sys.argv[2]
true = sorted(int(l.strip()[1:]) - 1 for l in open(truth) if l.strip())
rp = json.load(open(ref))["pip"]
methods = []
for arg in sys.argv[3:]:
    name, path = arg.split("=", 1)
    try:
        methods.append((name, [float(l) for l in open(path)]))
    except (OSError, ValueError):
        pass
blocks = sorted({j // 50 for j in true})
print("expected effects per block (sum of PIPs) where a block holds a true effect; reference first")
print("%-14s %5s %9s" % ("block", "true", "reference") + "".join(" %9s" % n for n, _ in methods))
worst = [0.0] * len(methods)
for b in blocks:
    lo, hi = 50 * b, 50 * b + 50
    r = sum(rp[lo:hi])
    row = "x%d-x%d" % (lo + 1, hi)
    line = "%-14s %5d %9.3f" % (row, sum(lo <= j < hi for j in true), r)
    for i, (_, pip) in enumerate(methods):
        s = sum(pip[lo:hi])
        worst[i] = max(worst[i], abs(s - r))
        line += " %9.3f" % s
    print(line)
print("%-14s %5s %9s" % ("max |diff|", "", "") + "".join(" %9.3f" % w for w in worst))
