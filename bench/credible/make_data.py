#!/usr/bin/env python3
"""make_data.py OUT.csv [seed]: a small fine-mapping-like design for bench/credible.

n = 1000 rows, p = 200 inputs in 4 blocks of 50; within a block AR(1) with
rho = 0.95 (x_j = rho x_{j-1} + sqrt(1 - rho^2) e_j); effects (0-based
index: coefficient) 10: 0.15, 60: -0.15, 130: 0.15, and two in one block,
160: 0.15 and 175: 0.15; noise N(0, 1). The truth is printed to stderr.
Standard library only; fixed seed.
"""
import math
import random
import sys

N, BLOCKS, B, RHO = 1000, 4, 50, 0.95
EFFECTS = {10: 0.15, 60: -0.15, 130: 0.15, 160: 0.15, 175: 0.15}

def main():
    out, seed = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 18
    rng = random.Random(seed)
    p = BLOCKS * B
    s = math.sqrt(1 - RHO * RHO)
    with open(out, "w") as fh:
        fh.write(",".join("x%d" % (j + 1) for j in range(p)) + ",y\n")
        for _ in range(N):
            x = []
            for b in range(BLOCKS):
                v = rng.gauss(0, 1)
                for j in range(B):
                    v = v if j == 0 else RHO * v + s * rng.gauss(0, 1)
                    x.append(v)
            y = sum(c * x[j] for j, c in EFFECTS.items()) + rng.gauss(0, 1)
            fh.write(",".join("%.10g" % v for v in x) + ",%.10g\n" % y)
    sys.stderr.write("effects (1-based): %s\n" % ", ".join("x%d" % (j + 1) for j in sorted(EFFECTS)))

if __name__ == "__main__":
    main()
