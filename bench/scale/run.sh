#!/bin/sh
# bench/scale/run.sh: selection among many correlated inputs (issue 18),
# peers in the same run. Data (bench/scale/make_data.R, fixed seeds): n =
# 1000 rows, inputs in AR(1) blocks of 50,
#   p = 1000,  3 effects, rho = 0.9
#   p = 5000,  5 effects, rho = 0.9
#   p = 20000, 8 effects, rho = 0.95, two blocks hold two each (SIZES=all)
# Methods: basel with defaults (bd, 4 chains on the machine's cores, the
# default run length for p inputs), susieR (susie, L = 10; Debian
# r-cran-susier, tools/peers.sh) and BAS MCMC (100 p iterations; R_LIBS,
# default /work/peers/Rlib; skipped when not installed or past TIMEOUT).
# Prints per method: wall and CPU seconds of the whole process (/usr/bin/time,
# reading the CSV included), the fit's CPU seconds (R's proc.time for the
# peers), peak memory, and at PIP >= 0.5 and >= 0.95 the true inputs found
# and the false ones (an input next to a true one counts as false: exact
# identification is asked). OPENBLAS_NUM_THREADS=1 for the peers.
#
# Usage (from the repository root): sh bench/scale/run.sh [build/basel]
#   SIZES="1000 5000" (default) or SIZES=all; TIMEOUT seconds per peer run (900)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASEL=${1:-$ROOT/build/basel}
SIZES=${SIZES:-1000 5000}
[ "$SIZES" = all ] && SIZES="1000 5000 20000"
TIMEOUT=${TIMEOUT:-900}
export R_LIBS=${R_LIBS:-/work/peers/Rlib}
T=${BENCH_TMP:-$(mktemp -d)}
mkdir -p "$T"
printf "%6s %-8s %8s %8s %8s %8s  %-13s %-13s %s\n" p method wall_s cpu_s fit_cpu peakMiB "TP/FP@0.5" "TP/FP@0.95" note
for p in $SIZES; do
    case $p in
    1000) ne=3 rho=0.9 ;;
    5000) ne=5 rho=0.9 ;;
    *) ne=8 rho=0.95 ;;
    esac
    D=$T/p$p.csv
    [ -f "$D" ] || Rscript "$ROOT/bench/scale/make_data.R" "$p" "$ne" "$rho" "$p" "$D" "$T/p$p.truth"
    # basel, defaults
    /usr/bin/time -f "%e %U %S %M" -o "$T/time" "$BASEL" fit "$D" --seed 1 --quiet -o "$T/b$p.json" || true
    /usr/bin/python3 - "$T/b$p.json" "$T/b$p.pip" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
open(sys.argv[2], "w").write("\n".join("%.6f" % x for x in f["pip"]) + "\n")
w = f["diagnostics"].get("warnings", [])
open(sys.argv[2] + ".note", "w").write("iter=%s gram=%s warnings=%d" % (f["settings"].get("iter"), f["diagnostics"].get("gram"), len(w)))
PY
    cp "$T/time" "$T/b$p.time"
    echo "-" > "$T/b$p.fit"
    for m in susie bas; do
        if [ "$m" = bas ] && ! Rscript -e 'quit(status = !requireNamespace("BAS", quietly = TRUE))' >/dev/null 2>&1; then continue; fi
        if [ "$m" = susie ] && ! Rscript -e 'quit(status = !requireNamespace("susieR", quietly = TRUE))' >/dev/null 2>&1; then continue; fi
        OPENBLAS_NUM_THREADS=1 timeout "$TIMEOUT" /usr/bin/time -f "%e %U %S %M" -o "$T/$m$p.time" \
            Rscript "$ROOT/bench/scale/peers.R" "$m" "$D" "$T/$m$p.pip" $((100 * p)) > "$T/$m$p.fit" 2>/dev/null ||
            echo "timeout or failure" > "$T/$m$p.pip.note"
    done
    for m in b susie bas; do
        [ -f "$T/$m$p.time" ] || continue
        /usr/bin/python3 - "$p" "$m" "$T/$m$p.time" "$T/$m$p.fit" "$T/$m$p.pip" "$T/p$p.truth" <<'PY'
import os, sys
p, m, tf, ff, pf, truth = sys.argv[1:]
name = {"b": "basel", "susie": "susieR", "bas": "BAS"}[m]
wall, u, s, kb = open(tf).read().split()[-4:]
fit = open(ff).read().strip() if os.path.exists(ff) else "-"
note = open(pf + ".note").read().strip() if os.path.exists(pf + ".note") else ""
true = {int(l.strip()[1:]) - 1 for l in open(truth) if l.strip()}
try:
    pip = [float(l) for l in open(pf)]
    def tf_(th):
        sel = {j for j, x in enumerate(pip) if x >= th}
        return "%d/%d" % (len(sel & true), len(sel - true))
    a, b = tf_(0.5), tf_(0.95)
except (OSError, ValueError):
    a = b = "-"
print("%6s %-8s %8.1f %8.1f %8s %8.0f  %-13s %-13s %s" % (p, name, float(wall), float(u) + float(s), fit or "-",
      int(kb) / 1024, a + " of %d" % len(true), b, note))
PY
    done
done
