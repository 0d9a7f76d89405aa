#!/bin/bash
# test_scale_defaults.sh: defaults that scale (issue 18 items 1 and 6).
#  - --max-time stops bd, rj and ssvs at a chain boundary: exit 3, the fit
#    of what was done is written, diagnostics.interrupted has fewer
#    iterations than planned and a warning says so; other methods refuse it
#    (exit 2, nothing written).
#  - the default iter of rj and bd grows as d / 100 above 100 inputs
#    (recorded in settings.iter); a user's --iter is kept.
#  - diagnostics.gram says which way the design went: dense for p = 15
#    inputs, streamed for a kernel at each of 1200 points on a short run.
#  - --max-time with 4 chains on 2 threads runs all 4 (each a share of the
#    time): the fit pools 4 chains, not the 2 that started first.
#  - rj's proposal: uniform at p = 15, informed above 1000 inputs, where its
#    default iter is 10000 whatever d, and its burn-in 400 whatever iter
#    (settings.proposal, settings.iter, settings.burn).
#  - without --method: bd up to 1000 inputs, rj above (the same FIT.json as
#    --method rj).
source "$(dirname "$0")/lib.sh" "$1"
L=data/linear/lin_p15_n200.csv

for m in rj bd ssvs; do
    set +e
    # 10^7 iterations: the chains look at the clock every iter / 1024 of them
    "$BASEL" fit "$L" --method $m --iter 10000000 --burn 10 --max-time 1 --seed 1 --quiet -o "$T/$m.json" 2> "$T/err"
    rc=$?
    set -e
    if [ $rc -eq 3 ] && python3 -c "
import json, sys
d = json.load(open('$T/$m.json'))['diagnostics']
i = d['interrupted']
sys.exit(not (0 < i['iterations'] < i['planned'] and any('interrupted' in w for w in d['warnings'])))"; then ok
    else bad "$m --max-time 1: exit $rc, $(cat "$T/err")"; fi
done
set +e
"$BASEL" fit "$L" --method enumerate --max-time 1 -o "$T/e.json" 2> "$T/err"
rc=$?
set -e
if [ $rc -eq 2 ] && [ ! -f "$T/e.json" ] && grep -q "max-time" "$T/err"; then ok; else bad "enumerate --max-time: exit $rc"; fi

# 250 inputs: rj's default 50000 becomes 125000, bd's 10000 becomes 25000
python3 tests/cli/wide_csv.py 250 300 3 4 > "$T/wide.csv"
for pair in rj:125000 bd:25000; do
    m=${pair%%:*} want=${pair#*:}
    "$BASEL" fit "$T/wide.csv" --method $m --seed 1 --quiet --max-time 0.5 -o "$T/w.json" 2>/dev/null || true
    got=$(python3 -c "import json; print(json.load(open('$T/w.json'))['settings']['iter'])")
    if [ "$got" = "$want" ]; then ok; else bad "$m default iter at d = 250: $got, want $want"; fi
done
"$BASEL" fit "$T/wide.csv" --method rj --iter 300 --seed 1 --quiet -o "$T/w.json"
got=$(python3 -c "import json; print(json.load(open('$T/w.json'))['settings']['iter'])")
if [ "$got" = 300 ]; then ok; else bad "a user's --iter 300 became $got"; fi

# dense Gram for p = 15; streamed for 1200 kernels on a short run
"$BASEL" fit "$L" --method rj --iter 2000 --seed 1 --quiet -o "$T/g.json"
python3 -c "
import math, random
random.seed(1)
print('x,y')
for i in range(1200):
    x = random.uniform(-10, 10)
    print('%.6f,%.6f' % (x, math.sin(x) / x + random.gauss(0, 0.1)))" > "$T/s.csv"
"$BASEL" fit "$T/s.csv" --basis gauss:r=1.6 --iter 200 --seed 1 --quiet -o "$T/s.json"
g1=$(python3 -c "import json; print(json.load(open('$T/g.json'))['diagnostics']['gram'])")
g2=$(python3 -c "import json; print(json.load(open('$T/s.json'))['diagnostics']['gram'])")
if [ "$g1" = dense ] && [ "$g2" = streamed ]; then ok; else bad "gram: p = 15 $g1, 1200 kernels $g2"; fi

# --max-time, 4 chains on 2 threads: every chain runs its share
set +e
"$BASEL" fit "$L" --method rj --iter 100000000 --burn 10 --chains 4 --threads 2 --max-time 2 --seed 1 --quiet \
    -o "$T/mt.json" 2> "$T/err"
rc=$?
set -e
got=$(python3 -c "import json; print(len(json.load(open('$T/mt.json'))['diagnostics']['pip_chain']) // 15)" 2>/dev/null || echo none)
if [ $rc -eq 3 ] && [ "$got" = 4 ]; then ok; else bad "--max-time, 4 chains on 2 threads: exit $rc, $got chains pooled"; fi

# rj's proposal by p: uniform at 15 inputs, informed at 1200 (iter unscaled)
python3 -c "
import json; s = json.load(open('$T/g.json'))['settings']; print(s['proposal'])" > "$T/prop"
python3 tests/cli/wide_csv.py 1200 200 4 3 > "$T/w1200.csv"
"$BASEL" fit "$T/w1200.csv" --method rj --burn 1 --seed 1 --quiet --max-time 1 -o "$T/w2.json" 2>/dev/null || true
got=$(python3 -c "import json; s = json.load(open('$T/w2.json'))['settings']; print(s['proposal'], s['iter'], s['burn'])")
if [ "$(cat "$T/prop")" = uniform ] && [ "$got" = "informed 10000 1" ]; then ok
else bad "rj proposal: p = 15 $(cat "$T/prop"), p = 1200 '$got' (want informed 10000 1: the user's --burn kept)"; fi
"$BASEL" fit "$T/w1200.csv" --method rj --iter 50 --seed 1 --quiet -o "$T/w3.json" 2>/dev/null || true
got=$(python3 -c "import json; s = json.load(open('$T/w3.json'))['settings']; print(s['iter'], s['burn'])")
if [ "$got" = "50 400" ]; then ok
else bad "rj informed at p = 1200 with --iter 50: '$got' (want 50 400: the burn-in does not follow iter)"; fi

# no --method: bd up to 1000 inputs, rj above (registry.c bsl_default_method),
# the same fit as --method rj; --inputs counts what is listed
"$BASEL" fit "$T/w1200.csv" --iter 20 --burn 1 --seed 1 --quiet -o "$T/d1.json"
"$BASEL" fit "$T/w1200.csv" --method rj --iter 20 --burn 1 --seed 1 --quiet -o "$T/d2.json"
"$BASEL" fit "$T/w1200.csv" --inputs x0,x1,x2 --iter 20 --burn 1 --seed 1 --quiet -o "$T/d3.json"
m1=$(python3 -c "import json; print(json.load(open('$T/d1.json'))['settings']['method'])")
m3=$(python3 -c "import json; print(json.load(open('$T/d3.json'))['settings']['method'])")
if [ "$m1" = rj ] && cmp -s "$T/d1.json" "$T/d2.json" && [ "$m3" = bd ]; then ok
else bad "default method: 1200 inputs $m1 (same as --method rj: $(cmp -s "$T/d1.json" "$T/d2.json" && echo yes || echo no)), 3 listed $m3"; fi
"$BASEL" fit "$L" --iter 200 --seed 1 --quiet -o "$T/d4.json"
m4=$(python3 -c "import json; print(json.load(open('$T/d4.json'))['settings']['method'])")
if [ "$m4" = bd ]; then ok; else bad "default method at 15 inputs: $m4"; fi
finish
