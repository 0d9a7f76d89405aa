#!/usr/bin/python3
"""Two more real regression data sets for bench/kernel/, from Debian packages,
with fixed train/test splits (issue 16 item 6).

  mcycle.csv     MASS::mcycle (r-cran-mass): head acceleration (accel, g) against
                 time after impact (times, ms) in simulated motorcycle crashes
                 (Silverman 1985), 133 rows, 1 input.
  diabetes.csv   sklearn.datasets.load_diabetes (python3-sklearn): disease
                 progression one year after baseline (y) against 10 baseline
                 variables (age, sex, bmi, bp, s1..s6; as shipped: each
                 column mean-centred and scaled to unit norm), 442 rows
                 (Efron et al. 2004, "Least angle regression").
  mcycle_splits.csv, diabetes_splits.csv
                 20 random splits each (split,row,role with row 1-based as in
                 boston_splits_481_25.csv): mcycle 100 train / 33 test,
                 diabetes 342 / 100; numpy RandomState(seed) permutations,
                 seeds 16001 (mcycle) and 16002 (diabetes).

Usage: /usr/bin/python3 data/regression/make_kernel_data.py   (writes next to itself)
Needs: python3-numpy, python3-sklearn, r-base-core with r-cran-mass.
"""
import os, subprocess
import numpy as np

OUT = os.path.dirname(os.path.abspath(__file__))


def num(v):
    s = "%.15g" % v
    return s if float(s) == v else "%.17g" % v


def write(name, header, rows):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(x if isinstance(x, str) else num(x) for x in r) + "\n")
    print("wrote %-22s %4d rows" % (name, len(rows)))


def splits(name, n, ntrain, nsplit, seed):
    rs = np.random.RandomState(seed)
    rows = []
    for s in range(1, nsplit + 1):
        perm = rs.permutation(n)
        train = set(perm[:ntrain].tolist())
        rows += [[str(s), str(i + 1), "train" if i in train else "test"] for i in range(n)]
    write(name, ["split", "row", "role"], rows)


def main():
    txt = subprocess.run(["Rscript", "-e", "d <- MASS::mcycle; write.csv(d, stdout(), row.names = FALSE)"],
                         check=True, capture_output=True, text=True).stdout.split()
    mc = [tuple(float(v) for v in line.split(",")) for line in txt[1:]]
    write("mcycle.csv", ["times", "accel"], mc)
    splits("mcycle_splits.csv", len(mc), 100, 20, 16001)
    from sklearn.datasets import load_diabetes
    d = load_diabetes()
    names = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]
    write("diabetes.csv", names + ["y"], [list(map(float, x)) + [float(y)] for x, y in zip(d.data, d.target)])
    splits("diabetes_splits.csv", len(d.target), 342, 20, 16002)


if __name__ == "__main__":
    main()
