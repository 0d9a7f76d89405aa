#!/usr/bin/python3
"""tests/cli/geno_bed.py PREFIX N P SEED: a PLINK .bed/.bim/.fam set of
genotypes with none missing, and PREFIX.csv, the same table as a CSV.

N samples, P variants v1..vP of A1 counts 0/1/2 (binomial(2, f), f ~
U(0.1, 0.5) per variant), the phenotype y = g_4 - 0.8 g_{P*3/4} + N(0, 1)
in the .fam's sixth field and the CSV's last column ("phenotype"), from
numpy's default_rng(SEED); a block's last byte padded with the missing
code (a reader that read the padding would be seen). The genotype designs
of tests/cli/test_bed.sh and tests/mpi/test_mpi.sh.
"""
import sys

import numpy as np

pre = sys.argv[1]
n, p, seed = (int(a) for a in sys.argv[2:5])
rng = np.random.default_rng(seed)
G = rng.binomial(2, rng.uniform(0.1, 0.5, p), size=(n, p))
y = G[:, 3] - 0.8 * G[:, p * 3 // 4] + rng.standard_normal(n)
pair = np.array([3, 2, 0])  # A1 count 0, 1, 2 -> pair value 3, 2, 0 (bed.c)
block = (n + 3) // 4
with open(pre + ".bed", "wb") as f:
    f.write(bytes([0x6C, 0x1B, 0x01]))
    for j in range(p):
        v = np.concatenate([pair[G[:, j]], np.ones(4 * block - n, dtype=int)])
        f.write((v[0::4] | v[1::4] << 2 | v[2::4] << 4 | v[3::4] << 6).astype(np.uint8).tobytes())
with open(pre + ".bim", "w") as f:
    f.writelines("1\tv%d\t0\t%d\tA\tG\n" % (j + 1, 10 * (j + 1)) for j in range(p))
with open(pre + ".fam", "w") as f:
    f.writelines("f%d s%d 0 0 1 %.10g\n" % (i, i, y[i]) for i in range(n))
header = ",".join("v%d" % (j + 1) for j in range(p)) + ",phenotype"
np.savetxt(pre + ".csv", np.column_stack([G, y]), delimiter=",", header=header, comments="", fmt="%.10g")
