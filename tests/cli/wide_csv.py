#!/usr/bin/python3
"""tests/cli/wide_csv.py P N SEED DIGITS: a wide CSV on standard output.

P standard normal inputs x0..x{P-1} and y = x0 - x1 + N(0, 1), N rows,
DIGITS decimals, from Python's random seeded with SEED: the many-input
designs of test_scale_defaults.sh, memcheck.sh and tests/mpi/test_mpi.sh.
"""
import random
import sys

p, n, seed, digits = (int(a) for a in sys.argv[1:5])
random.seed(seed)
f = "%%.%df" % digits
print(",".join("x%d" % j for j in range(p)) + ",y")
for i in range(n):
    x = [random.gauss(0, 1) for _ in range(p)]
    print(",".join(f % v for v in x) + "," + f % (x[0] - x[1] + random.gauss(0, 1)))
