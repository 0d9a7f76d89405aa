#!/usr/bin/env python3
"""bench/scale/make_sinc.py N OUT.csv [SEED]: N points of y = sinc(x) + noise
(sd 0.1), x uniform on [-10, 10], seed fixed (default 1); the kernel
regression set of bench/scale/gram.sh (as the audit's sinc_scaling files)."""
import math
import random
import sys

n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
with open(out, "w") as f:
    f.write("x,y\n")
    for _ in range(n):
        x = rng.uniform(-10, 10)
        f.write("%.17g,%.17g\n" % (x, (math.sin(x) / x if x else 1.0) + rng.gauss(0, 0.1)))
