#!/bin/sh
# bench/scale/mask_run.sh [OUT_DIR]: a masking pair among p = 20000 inputs
# (rj's pair moves, src/engine/rj/rj_pairs.c): n = 1000 rows of independent
# N(0, 1) inputs, but x100 and x104 correlated 0.98;
#   y = 1.5 (x100 - x104) + 0.3 x5001 - 0.3 x12001 + N(0, 1),
# so x100's and x104's correlations with y are 0.02 and -0.04. A default
# fit (informed rj) with and without pair moves, the CPU of each, the PIPs
# above 0.05, and the exact log posterior odds of the pair and of x100
# alone (numpy, BAS's g-prior formula with g = n, beta-binomial(1, 1)),
# against which the PIPs are read. Needs Debian's python3-numpy.
set -e
BASEL=${BASEL:-basel}
OUT=${1:-mask_out}
mkdir -p "$OUT"
cd "$OUT"
/usr/bin/python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(7)
n, p = 1000, 20000
X = rng.standard_normal((n, p))
z = rng.standard_normal(n)
X[:, 99] = z
X[:, 103] = 0.98 * z + np.sqrt(1 - 0.98 ** 2) * rng.standard_normal(n)
y = 1.5 * (X[:, 99] - X[:, 103]) + 0.3 * X[:, 5000] - 0.3 * X[:, 12000] + rng.standard_normal(n)
np.save("X.npy", X)
np.save("y.npy", y)
PY
for pairs in none auto; do
  /usr/bin/time -f "--rj-pairs $pairs: %U+%S CPU-s, %M KB" "$BASEL" fit X.npy --target-file y.npy --seed 1 \
    --quiet -o "fit_$pairs.json" --rj-pairs $pairs
done
/usr/bin/python3 - <<'PY'
import json
from math import lgamma, log
import numpy as np
for pairs in ("none", "auto"):
    d = json.load(open("fit_%s.json" % pairs))
    names = [a["name"] if isinstance(a, dict) else a for a in d["atoms"]]
    print("--rj-pairs %-4s" % pairs, ", ".join("%s %.3f" % (names[i], v) for i, v in enumerate(d["pip"]) if v > 0.05))
    print("   ", d["diagnostics"]["note"])
X = np.load("X.npy"); y = np.load("y.npy"); n, m = X.shape; g = float(n); yc = y - y.mean()
def score(atoms):  # log marginal likelihood (g-prior, g = n) + log beta-binomial(1, 1) prior
    Z = X[:, atoms] - X[:, atoms].mean(0)
    b = np.linalg.lstsq(Z, yc, rcond=None)[0]
    r = yc - Z @ b
    R2, k = 1 - (r @ r) / (yc @ yc), len(atoms)
    return ((n - 1 - k) / 2) * log(1 + g) - ((n - 1) / 2) * log(1 + g * (1 - R2)) \
        - log(m + 1) - (lgamma(m + 1) - lgamma(k + 1) - lgamma(m - k + 1))
base = [5000, 12000]
print("log posterior odds against {x5001, x12001}: of x100 and x104 %.2f, of x100 alone %.2f"
      % (score(base + [99, 103]) - score(base), score(base + [99]) - score(base)))
PY
