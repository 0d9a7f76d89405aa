#!/usr/bin/env python3
"""make_block.py OUT.csv [seed] [b]: two effects in one correlated block, and a block of near-copies (issue 30 item 1).

n = 300 rows, p = 15 inputs: a1..a10 equicorrelated at r = 0.8 (a_j = sqrt(0.8) z + sqrt(0.2) e_j), c1..c5
near-copies of one variable w (c_j = w + 0.05 e_j, r ~ 0.998); y = b a3 + b a8 + 0.5 w + N(0, 1), b = 0.5 unless given (b = 1: a3 and a8 each of PIP 1).
Three signals: a3, a8 and the copies (any of c1..c5 stands for w). Under the rule of one set per cluster
of |r| >= 0.5 a3 and a8 gave one set; susieR (L = 10) gives three. Standard library only; fixed seed.
"""
import math
import random
import sys

N, R, COPY_SD = 300, 0.8, 0.05
TRUE = ("a3", "a8", "c1..c5")


def main():
    out, seed = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30
    b = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
    rng = random.Random(seed)
    names = ["a%d" % (j + 1) for j in range(10)] + ["c%d" % (j + 1) for j in range(5)]
    with open(out, "w") as fh:
        fh.write(",".join(names) + ",y\n")
        for _ in range(N):
            z, w = rng.gauss(0, 1), rng.gauss(0, 1)
            a = [math.sqrt(R) * z + math.sqrt(1 - R) * rng.gauss(0, 1) for _ in range(10)]
            c = [w + COPY_SD * rng.gauss(0, 1) for _ in range(5)]
            y = b * a[2] + b * a[7] + 0.5 * w + rng.gauss(0, 1)
            fh.write(",".join("%.10g" % v for v in a + c) + ",%.10g\n" % y)
    sys.stderr.write("signals: %s\n" % ", ".join(TRUE))


if __name__ == "__main__":
    main()
