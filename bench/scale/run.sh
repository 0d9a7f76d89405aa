#!/bin/sh
# bench/scale/run.sh: selection among many correlated inputs (issue 18),
# peers in the same run. Data (bench/scale/make_data.R, fixed seeds): n =
# 1000 rows, inputs in AR(1) blocks of 50,
#   p = 1000,   3 effects, rho = 0.9
#   p = 5000,   5 effects, rho = 0.9
#   p = 20000,  8 effects, rho = 0.95, two blocks hold two each (SIZES=all)
#   p = 100000, 8 effects, rho = 0.95, basel alone (SIZES=100000; the
#               data from make_data_big.c, its own generator)
#   a size with an s (SIZES=2000s): the same design with effects of +-0.5
#               instead of +-0.25, strong enough that the exact posterior
#               puts two effects in each block that holds two (the case of
#               issue 18's calibration goal)
# Methods:
#   basel     defaults (4 chains on the machine's cores; no --method: bd up
#             to 1000 inputs with its default run length for p inputs, rj
#             above, with informed moves, rj_informed.c, 10000 iterations per
#             chain after 400 of burn-in, candidate sets after burn-in);
#   basel-bd  --method bd with its defaults, above 1000 inputs (where it is
#             not the default; not at p = 100000: 10^7 blocks per chain);
#   susieR    susie, L = 10 (Debian r-cran-susier, tools/peers.sh);
#   BAS       MCMC, 100 p iterations (R_LIBS, default /work/peers/Rlib;
#             skipped when not installed, above p = BAS_MAX_P (5000: it
#             took 3.1 GB and 67 CPU-s at p = 5000, and its memory and time
#             grow with p times the iterations) or past TIMEOUT).
# The reference for the PIP error: basel rj, informed over all atoms (no
# candidate sets), 4 chains x REF_ITER
# (20000) iterations, kept in $BENCH_TMP/ref<p>.json and reused when there
# (none at p = 100000, where basel runs alone).
# Prints per method: wall and CPU seconds of the whole process (/usr/bin/time,
# reading the CSV included), the fit's CPU seconds (R's proc.time for the
# peers), peak memory, at PIP >= 0.5 and >= 0.95 the true inputs found
# and the false ones (an input next to a true one counts as false: exact
# identification is asked), the largest |PIP - reference PIP|, and the 95%
# credible sets (basel: FIT.json credible_sets; susieR: fit$sets): how many,
# how many hold a true input, and their mean size; then, per block holding a
# true effect, each method's expected number of effects in it against the
# reference's (blocks.py). OPENBLAS_NUM_THREADS=1
# for the peers.
#
# Usage (from the repository root): sh bench/scale/run.sh [build/basel]
#   SIZES="1000 5000" (default) or SIZES=all or a list; TIMEOUT seconds per
#   peer run (900); BENCH_TMP a directory for data, reference and outputs
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASEL=${1:-$ROOT/build/basel}
SIZES=${SIZES:-1000 5000}
[ "$SIZES" = all ] && SIZES="1000 5000 20000 2000s"
TIMEOUT=${TIMEOUT:-900}
REF_ITER=${REF_ITER:-20000}
BAS_MAX_P=${BAS_MAX_P:-5000}
export R_LIBS=${R_LIBS:-/work/peers/Rlib}
T=${BENCH_TMP:-$(mktemp -d)}
mkdir -p "$T"
printf "%6s %-8s %8s %8s %8s %8s  %-13s %-9s %7s  %-14s %s\n" p method wall_s cpu_s fit_cpu peakMiB "TP/FP@0.5" "TP/FP@.95" maxerr "CS n/true/size" note
for tag in $SIZES; do
    p=${tag%s} size=0.25 # a size ending in s: effects of +-0.5
    [ "$p" = "$tag" ] || size=0.5
    case $p in
    1000) ne=3 rho=0.9 ;;
    5000) ne=5 rho=0.9 ;;
    *) ne=8 rho=0.95 ;;
    esac
    D=$T/p$tag.csv
    if [ ! -f "$D" ] && [ "$p" -ge 100000 ]; then # R's write.table is too slow for 1.8 GB
        cc -O2 -o "$T/make_data_big" "$ROOT/bench/scale/make_data_big.c" -lm &&
            "$T/make_data_big" "$p" "$ne" "$rho" "$p" "$D" "$T/p$tag.truth"
    fi
    [ -f "$D" ] || Rscript "$ROOT/bench/scale/make_data.R" "$p" "$ne" "$rho" "$p" "$D" "$T/p$tag.truth" 1000 "$size"
    # the reference: a long informed rj run (kept)
    [ -f "$T/ref$tag.json" ] || [ "$p" -ge 100000 ] ||
        "$BASEL" fit "$D" --method rj --proposal informed --rj-candidates all --iter "$REF_ITER" --seed 7 --quiet -o "$T/ref$tag.json" || true
    # basel with its defaults, and bd with its own above 1000 inputs
    for m in b bd; do
        [ "$m" = bd ] && { [ "$p" -le 1000 ] || [ "$p" -ge 100000 ]; } && continue
        opt=""
        [ $m = bd ] && opt="--method bd"
        /usr/bin/time -f "%e %U %S %M" -o "$T/$m$tag.time" "$BASEL" fit "$D" $opt --seed 1 --quiet -o "$T/$m$tag.json" || true
        /usr/bin/python3 - "$T/$m$tag.json" "$T/$m$tag.pip" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
open(sys.argv[2], "w").write("\n".join("%.6f" % x for x in f["pip"]) + "\n")
open(sys.argv[2] + ".cs", "w").write("".join(" ".join(str(a + 1) for a in c["atoms"]) + "\n"
                                             for c in f.get("credible_sets", {}).get("sets", [])))
w = f["diagnostics"].get("warnings", [])
s = f["settings"]
open(sys.argv[2] + ".note", "w").write("%s iter=%s gram=%s warnings=%d" % (
    s.get("method", "") + " " + s.get("proposal", ""), s.get("iter"), f["diagnostics"].get("gram"), len(w)))
PY
        echo "-" > "$T/$m$tag.fit"
    done
    for m in susie bas; do
        if [ "$m" = bas ] && [ "$p" -gt "$BAS_MAX_P" ]; then echo "skipped: p > BAS_MAX_P" > "$T/bas$tag.skip"; continue; fi
        [ "$p" -ge 100000 ] && continue # basel alone
        if [ "$m" = bas ] && ! Rscript -e 'quit(status = !requireNamespace("BAS", quietly = TRUE))' >/dev/null 2>&1; then continue; fi
        if [ "$m" = susie ] && ! Rscript -e 'quit(status = !requireNamespace("susieR", quietly = TRUE))' >/dev/null 2>&1; then continue; fi
        OPENBLAS_NUM_THREADS=1 timeout "$TIMEOUT" /usr/bin/time -f "%e %U %S %M" -o "$T/$m$tag.time" \
            Rscript "$ROOT/bench/scale/peers.R" "$m" "$D" "$T/$m$tag.pip" $((100 * p)) > "$T/$m$tag.fit" 2>/dev/null ||
            echo "timeout or failure" > "$T/$m$tag.pip.note"
    done
    for m in b bd susie bas; do
        [ -f "$T/$m$tag.time" ] || continue
        /usr/bin/python3 - "$tag" "$m" "$T/$m$tag.time" "$T/$m$tag.fit" "$T/$m$tag.pip" "$T/p$tag.truth" "$T/ref$tag.json" <<'PY'
import json, os, sys
p, m, tf, ff, pf, truth, ref = sys.argv[1:]
name = {"b": "basel", "bd": "basel-bd", "susie": "susieR", "bas": "BAS"}[m]
wall, u, s, kb = open(tf).read().split()[-4:]
fit = open(ff).read().strip() if os.path.exists(ff) else "-"
note = open(pf + ".note").read().strip() if os.path.exists(pf + ".note") else ""
true = {int(l.strip()[1:]) - 1 for l in open(truth) if l.strip()}
err = cs = "-"
try:
    pip = [float(l) for l in open(pf)]
    def tf_(th):
        sel = {j for j, x in enumerate(pip) if x >= th}
        return "%d/%d" % (len(sel & true), len(sel - true))
    a, b = tf_(0.5), tf_(0.95)
    if os.path.exists(ref):
        rp = json.load(open(ref))["pip"]
        err = "%.3f" % max(abs(x - y) for x, y in zip(pip, rp))
    if os.path.exists(pf + ".cs"):
        sets = [[int(t) - 1 for t in l.split()] for l in open(pf + ".cs") if l.strip()]
        hit = sum(1 for c in sets if set(c) & true)
        cs = "%d/%d/%.1f" % (len(sets), hit, sum(map(len, sets)) / len(sets) if sets else 0)
except (OSError, ValueError):
    a = b = "-"
print("%6s %-8s %8.1f %8.1f %8s %8.0f  %-13s %-9s %7s  %-14s %s" % (p, name, float(wall), float(u) + float(s),
      fit or "-", int(kb) / 1024, a + " of %d" % len(true), b, err, cs, note))
PY
    done
    [ -f "$T/bas$tag.skip" ] && printf "%6s %-8s %s\n" "$tag" BAS "$(cat "$T/bas$tag.skip")"
    # calibration where effects share a block (blocks.py), against the reference
    [ -f "$T/ref$tag.json" ] && /usr/bin/python3 "$ROOT/bench/scale/blocks.py" "$T/p$tag.truth" "$T/ref$tag.json" \
        basel="$T/b$tag.pip" basel-bd="$T/bd$tag.pip" susieR="$T/susie$tag.pip" BAS="$T/bas$tag.pip"
done
