#!/bin/bash
# run.sh: the reader's speed (MB of file per CPU-second, the least of 3
# reads; then one read of the CSV from a pipe) and peak memory, on
# generated designs (issue 34 item 4). Not a test: the numbers go in the
# report of the change that moves them. The CPU counted is the process's,
# system time included: most of what a read costs beyond the parsing is
# the kernel clearing the table's fresh pages (csv.c's builder writes the
# table once and asks for large pages), and on a pipe the reads' waits
# and wake-ups, which vary with the writer and the load.
# At 1000 x 20000 (183 MB, a table of 160 MB; 2 cores at load 4-12) the
# reader of issue 34 item 4 gave 240-340 MB per CPU-s from the file, peak
# 174 MB, and 100-220 from a pipe, peak 193 MB, against 64-97 and 61-91
# (peaks 322 and 277 MB) before it; the fit's read and set-up went from
# 4.1-4.7 to 2.0 CPU-s, peak 278 to 206 MB. What is left, from the file
# (perf): a third the kernel clearing the table's pages, a third the
# numbers (scan_simple), a tenth the guard; from a pipe, also the copy of
# the segments into the table and the reads' waits.
# The same 0/1/2 genotypes as G.npy (int8, 20 MB) and as PLINK's G.bed (5
# MB; src/io/bed.c, whose table takes csv.c's large pages): 0.88 against
# 0.049 CPU-s, the fit's read and set-up 2.47 against 1.45 CPU-s (the .bed
# without large pages: 0.69 CPU-s, most of it the kernel's 4 kB faults).
#   bench/io/run.sh [BUILD_DIR] [N] [P]     (defaults: build 1000 20000)
# Needs /usr/bin/python3 with numpy; writes its files in a temporary folder
# and removes them (about 350 MB at 1000 x 20000).
set -euo pipefail
BUILD=${1:-build}
N=${2:-1000}
P=${3:-20000}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
/usr/bin/python3 - "$N" "$P" "$D" << 'PYEOF'
import sys
import numpy as np
n, p, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(1)
X = rng.standard_normal((n, p))
y = X[:, :5].sum(1) + rng.standard_normal(n)
with open(d + "/w.csv", "w") as f:
    f.write(",".join(["x%d" % (j + 1) for j in range(p)] + ["y"]) + "\n")
    np.savetxt(f, np.column_stack([X, y]), fmt="%.6g", delimiter=",")
np.save(d + "/X.npy", X)
np.save(d + "/y.npy", y)
G = rng.integers(0, 3, (n, p)).astype(np.int8)  # genotype-like 0/1/2
np.save(d + "/G.npy", G)
# the same genotypes as PLINK 1 binary (src/io/bed.c): A1 counts 2, 1, 0 are
# the pair values 0, 2, 3, four samples a byte from the lowest bits, each
# variant's block padded to whole bytes
codes = np.array([3, 2, 0], np.uint8)[G.T]
codes = np.pad(codes, ((0, 0), (0, -n % 4)))
packed = (codes.reshape(p, -1, 4) << np.array([0, 2, 4, 6], np.uint8)).sum(2, dtype=np.uint8)
open(d + "/G.bed", "wb").write(b"\x6c\x1b\x01" + packed.tobytes())
open(d + "/G.bim", "w").write("".join("1\tv%d\t0\t%d\tA\tG\n" % (j + 1, j + 1) for j in range(p)))
open(d + "/G.fam", "w").write("".join("s%d s%d 0 0 1 %.6g\n" % (i + 1, i + 1, y[i]) for i in range(n)))
PYEOF
for f in w.csv X.npy G.npy G.bed; do
    /usr/bin/time -f "  peak %M KB" "$BUILD/bench_read" "$D/$f" 3
done
MB=$(stat -c %s "$D/w.csv" | awk '{printf "%.1f", $1 / 1e6}')
cat "$D/w.csv" | /usr/bin/time -f "  peak %M KB" "$BUILD/bench_read" - 1 |
    awk -v mb="$MB" '{for (i = 1; i < NF; i++) if ($(i + 1) == "CPU-s,") s = $i}
        END {printf "w.csv from a pipe: %s CPU-s, %.0f MB per CPU-s\n", s, mb / s}'
echo "read + set-up of a fit (--method bd --iter 1 --burn 0 --chains 1 --threads 1), CPU-s and peak:"
/usr/bin/time -f "  CSV: %U user %S sys, peak %M KB" "$BUILD/basel" fit "$D/w.csv" --method bd --iter 1 --burn 0 \
    --chains 1 --threads 1 --quiet -o "$D/a.json"
/usr/bin/time -f "  npy: %U user %S sys, peak %M KB" "$BUILD/basel" fit "$D/X.npy" --target-file "$D/y.npy" \
    --method bd --iter 1 --burn 0 --chains 1 --threads 1 --quiet -o "$D/b.json"
/usr/bin/time -f "  bed: %U user %S sys, peak %M KB" "$BUILD/basel" fit "$D/G.bed" --target-file "$D/y.npy" \
    --method bd --iter 1 --burn 0 --chains 1 --threads 1 --quiet -o "$D/c.json"
