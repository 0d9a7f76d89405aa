#!/bin/sh
# bench/scale/ld_run.sh: fine-mapping with realistic LD (issue 32 item 4):
# basel's defaults against susieR on genotypes simulated from haplotype
# mosaics (bench/scale/ld_gen.c: the perf audit's finding 13 recipe; n =
# 1000, 10 causal SNPs of standardised effect 0.23-0.29, seed 2027), all in
# one run, one after the other:
#   basel      `basel fit G.bed --target-file G.y --seed 1` (defaults: rj
#              with informed moves and candidate sets above 1000 inputs)
#   susieR     susie(X, y, L = 10) on the 0/1/2 matrix (bench/scale/
#              ld_peers.R), up to SUSIE_MAX_P inputs (100000: X is n x p
#              doubles, 800 MB there)
#   susie_rss  susie_rss(z, R, n, L = 10) from the marginal z-scores and the
#              in-sample LD matrix R (p x p doubles: 3.2 GB at p = 20000),
#              up to RSS_MAX_P inputs (20000), in an address space of
#              RSS_MEM KB (16000000: a machine shared with others)
#   reference  basel rj, informed over all atoms (no candidate sets), 4
#              chains x REF_ITER (20000), seed 7: run.sh's reference recipe;
#              kept in $BENCH_TMP/ref<p>.json and reused; up to REF_MAX_P
#              (20000; the p = 100000 one costs ~20 CPU-minutes)
# Prints per size the design's summary (G.info) and per method: CPU-s of the
# whole process (user + sys, /usr/bin/time), the fit's own CPU (R's
# proc.time; for susie_rss, + the z and R computation), peak RSS, true/false
# discoveries at PIP >= 0.5 (with how many of the false are within |r| > 0.9
# of a causal SNP) and >= 0.95, max |PIP - reference|, the 95 % credible sets
# (number, share holding a causal SNP, causal SNPs held by a set, sizes);
# then each causal SNP's PIP by method. A discovery in LD with a causal SNP but not it counts as false.
# The peers run with OPENBLAS_NUM_THREADS=1 (basel sets it itself).
#
# Usage (from the repository root): sh bench/scale/ld_run.sh [build/basel]
#   SIZES="20000" (default), e.g. "20000 100000" or "1000000" (basel alone
#   above SUSIE_MAX_P); BENCH_TMP a directory for data, reference and
#   outputs (/tmp/ldbench); TIMEOUT seconds per peer run (1800); NICE (5)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASEL=${1:-$ROOT/build/basel}
SIZES=${SIZES:-20000}
T=${BENCH_TMP:-/tmp/ldbench}
TIMEOUT=${TIMEOUT:-1800}
REF_ITER=${REF_ITER:-20000}
REF_MAX_P=${REF_MAX_P:-20000}
SUSIE_MAX_P=${SUSIE_MAX_P:-100000}
RSS_MAX_P=${RSS_MAX_P:-20000}
RSS_MEM=${RSS_MEM:-16000000}
NICE=${NICE:-5}
mkdir -p "$T"
cc -O2 -o "$T/ld_gen" "$ROOT/bench/scale/ld_gen.c" -lm
run() { # run NAME OUT_TIME command...: timed, niced
    name=$1 tf=$2
    shift 2
    nice -n "$NICE" /usr/bin/time -f "%e %U %S %M" -o "$tf" "$@"
}
pips() { # pips FIT.json OUT: a FIT.json's PIPs, credible sets and note
    /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
open(sys.argv[2], "w").write("\n".join("%.6f" % x for x in f["pip"]) + "\n")
open(sys.argv[2] + ".cs", "w").write("".join(" ".join(str(a + 1) for a in c["atoms"]) + "\n"
                                             for c in f.get("credible_sets", {}).get("sets", [])))
s = f["settings"]
open(sys.argv[2] + ".note", "w").write("%s %s iter=%s warnings=%d" % (
    s.get("method", ""), s.get("proposal", ""), s.get("iter"), len(f["diagnostics"].get("warnings", []))))
PY
}
for p in $SIZES; do
    G=$T/g$p
    int8=0
    [ "$p" -le "$SUSIE_MAX_P" ] && int8=1
    [ -f "$G.bed" ] || run gen "$T/gen$p.time" "$T/ld_gen" "$p" "$G" "$int8"
    echo "== p = $p, n = 1000 (data $G.*; load $(cut -d' ' -f1-3 /proc/loadavg))"
    cat "$G.info"
    if [ ! -f "$T/ref$p.json" ] && [ "$p" -le "$REF_MAX_P" ]; then
        run ref "$T/ref$p.time" "$BASEL" fit "$G.bed" --target-file "$G.y" --method rj --proposal informed \
            --rj-candidates all --iter "$REF_ITER" --seed 7 --quiet -o "$T/ref$p.json" || true
    fi
    [ -f "$T/ref$p.json" ] && pips "$T/ref$p.json" "$T/ref$p.pip"
    run basel "$T/b$p.time" "$BASEL" fit "$G.bed" --target-file "$G.y" --seed 1 --quiet -o "$T/b$p.json" || true
    [ -f "$T/b$p.json" ] && pips "$T/b$p.json" "$T/b$p.pip"
    for m in susie rss; do
        rm -f "$T/$m$p.pip" "$T/$m$p.pip.note" "$T/$m$p.time" "$T/$m$p.fit"
        max=$SUSIE_MAX_P
        [ $m = rss ] && max=$RSS_MAX_P
        if [ "$p" -gt "$max" ]; then
            echo "skipped: p > $(echo $m | tr a-z A-Z)_MAX_P ($max)" > "$T/$m$p.pip.note"
            continue
        fi
        (
            [ $m = rss ] && ulimit -v "$RSS_MEM"
            OPENBLAS_NUM_THREADS=1 timeout "$TIMEOUT" nice -n "$NICE" /usr/bin/time -f "%e %U %S %M" -o "$T/$m$p.time" \
                Rscript "$ROOT/bench/scale/ld_peers.R" $m "$G" "$T/$m$p.pip" > "$T/$m$p.fit" 2> "$T/$m$p.err"
        ) || echo "failed or timed out (exit $?; $(grep -m1 -i "error\|cannot" "$T/$m$p.err" | cut -c1-80))" > "$T/$m$p.pip.note"
    done
    printf "%-9s %7s %9s %6s  %-9s %-7s  %-12s %-28s %s\n" method CPU-s fit_CPU MiB "TP/FP@.5" "TP/FP@.95" \
        "max|err|" "95% CS: n cover causal [sizes]" note
    printf "%-9s %7s %9s %6s  %-9s %-7s\n" "" "" "" "" "   (near)" ""
    for m in ref b susie rss; do
        [ -f "$T/$m$p.pip" ] || [ -f "$T/$m$p.pip.note" ] || continue
        fit=-
        [ -s "$T/$m$p.fit" ] && fit=$(tr -d '\n' < "$T/$m$p.fit")
        name=$(echo "$m" | sed 's/^b$/basel/; s/^ref$/reference/; s/^susie$/susieR/; s/^rss$/susie_rss/')
        /usr/bin/python3 "$ROOT/bench/scale/ld_table.py" "$name" "$T/$m$p.time" "$fit" "$T/$m$p.pip" "$G" \
            "$T/ref$p.json"
    done
    # each causal SNP's PIP by method
    /usr/bin/python3 - "$G" "$T" "$p" <<'PY'
import os, sys
G, T, p = sys.argv[1:]
truth = [int(l.strip()[1:]) - 1 for l in open(G + ".truth") if l.strip()]
cols = [(n, T + "/" + m + p + ".pip") for n, m in (("ref", "ref"), ("basel", "b"), ("susieR", "susie"), ("rss", "rss"))]
cols = [(n, [float(l) for l in open(f)]) for n, f in cols if os.path.exists(f)]
print("causal   " + " ".join("%7s" % n for n, _ in cols))
for j in truth:
    print("x%-7d " % (j + 1) + " ".join("%7.3f" % v[j] for _, v in cols))
PY
done
