#!/bin/bash
# test_progress.sh: progress a person can read (issue 19). stderr is a file
# here, not a terminal, so progress comes as timed lines ("basel: PHASE  P%
# (DONE of TOTAL UNITS, RATE UNITS/s), T so far, about T left"), one every
# BASEL_PROGRESS_INTERVAL seconds (10 by default); --quiet prints nothing.
# Every method reports its sampling, and the subset methods the phases
# before it (the basis columns and, when large, their Gram matrix) and after
# it (diagnostics, posterior, projection, coefficients, credible sets);
# then the fit's document and the command's writing (issue 34).
source "$(dirname "$0")/lib.sh" "$1"
LIN=data/linear/lin_p15_n200.csv
line() { echo "^basel: $1 +[0-9]+% \([0-9.kM]+ of [0-9.kM]+ $2, [0-9.kM?]+ $2/s\), [0-9hmins ]+ so far, about [0-9hmins ?]+ left$"; }
export BASEL_PROGRESS_INTERVAL=0.02

expect 0 "$(line sampling draws)" -- "$BASEL" fit "$LIN" --iter 20000 --seed 1 -o "$T/bd.json"
# --quiet: not one byte on stderr
expect 0 "" -- sh -c "'$BASEL' fit '$LIN' --iter 20000 --seed 1 --quiet -o '$T/q.json' 2> '$T/q.err'"
expect 0 "^0 " -- wc -c "$T/q.err"
# the default interval (10 s): no line for a fit this short
expect 0 "" -- sh -c "env -u BASEL_PROGRESS_INTERVAL '$BASEL' fit '$LIN' --iter 2000 --seed 1 -o '$T/d.json' 2> '$T/d.err'"
expect 1 "" -- grep -q "so far" "$T/d.err"
# on a terminal (script gives the fit one): a bar redrawn in place
if command -v script > /dev/null; then
    expect 0 "basel: sampling +\[#*\.*\] +[0-9]+%  [0-9.kM?]+ draws/s, about [0-9hmins ?]+ left" -- \
        script -qec "'$BASEL' fit '$LIN' --iter 20000 --seed 1 -o '$T/tty.json'" /dev/null
fi
# reports do not change the fit: same FIT.json as with --quiet
expect 0 "" -- cmp "$T/bd.json" "$T/q.json"

# the phases before sampling: 1200 Gaussian kernels, a Gram matrix of 7e5 entries
awk -F, 'NR == 1 {print "x,y"; next} NR <= 1201 {print $2 "," $3}' \
    data/regression/sinc_tipping_gauss_train.csv > "$T/k.csv"
expect 0 "" -- sh -c "BASEL_PROGRESS_INTERVAL=0.001 '$BASEL' fit '$T/k.csv' --basis gauss:r=1.6 --prior ridge --iter 100 --chains 2 --seed 3 \
    -o '$T/k.json' 2> '$T/k.err'"
expect 0 "$(line columns columns)" -- cat "$T/k.err"
expect 0 "$(line sampling draws)" -- cat "$T/k.err"
# a short bd run streams the columns (design.c gram_dense: its 250 expected
# evaluations do not pay for a 7e5-entry Gram); rj with a Rao-Blackwell pass
# every 10 moves expects 1.5e5 evaluations, and builds it
expect 0 "" -- sh -c "BASEL_PROGRESS_INTERVAL=0.001 '$BASEL' fit '$T/k.csv' --basis gauss:r=1.6 --method rj --iter 500 \
    --rj-rb-every 10 --chains 2 --seed 3 -o '$T/kr.json' 2> '$T/kr.err'"
expect 0 "$(line gram entries)" -- cat "$T/kr.err"
if grep -q "gram" "$T/k.err"; then bad "the short bd run built a Gram matrix"; else ok; fi
# rj's informed chains screen pairs of nearby atoms before sampling (the
# pair moves): a phase of its own, ended before the sampling begins
expect 0 "" -- sh -c "BASEL_PROGRESS_INTERVAL=0.000001 '$BASEL' fit '$LIN' --method rj --proposal informed --iter 200 \
    --seed 1 -o '$T/pairs.json' 2> '$T/pairs.err'"
expect 0 "$(line pairs atoms)" -- cat "$T/pairs.err"
expect 0 "^basel: pairs 100% \(15 of 15 atoms" -- cat "$T/pairs.err"
if awk '/^basel: sampling/ {s = 1} /^basel: pairs/ && s {bad = 1} END {exit !bad}' "$T/pairs.err"; then
    bad "a pairs line after the sampling began"
else ok; fi

# the phases after the sampling (issue 34): each has its own line and
# fraction; within a phase the fraction never decreases, no phase comes back
# once another has begun, and the last line before the command exits is the
# writing of its files. An interval of 1 ns shows every report.
# after_sampling FILE PHASE...: each PHASE has a line in FILE, in that order
after_sampling() {
    local f=$1
    shift
    awk -v want="$*" '
        /^basel: [a-z]/ && / so far, about / {
            ph = $0; sub(/^basel: /, "", ph); sub(/ +[0-9]+% .*/, "", ph)
            pct = $0; sub(/^basel: [a-z ]+ +/, "", pct); sub(/%.*/, "", pct); pct += 0
            if (ph != cur) {
                if (ph in seen) { print "phase " ph " comes back after " cur; bad = 1 }
                seen[ph] = ++nph; cur = ph; last = -1
            }
            if (pct < last) { print ph ": fraction " last "% then " pct "%"; bad = 1 }
            last = pct; final = ph " " pct
        }
        END {
            n = split(want, w, " ")
            for (i = 1; i <= n; i++) {
                p = w[i]; gsub(/_/, " ", p)
                if (!(p in seen)) { print "no line for " p; bad = 1 }
                else if (i > 1 && seen[p] < seen[prev]) { print p " before " prev; bad = 1 }
                prev = p
            }
            if (final != "writing 100") { print "last line: " final ", not writing 100%"; bad = 1 }
            exit bad
        }' "$f"
}
expect 0 "" -- sh -c "BASEL_PROGRESS_INTERVAL=1e-9 '$BASEL' fit '$LIN' --method enumerate --seed 1 -o '$T/pe.json' 2> '$T/pe.err'"
expect 0 "" -- after_sampling "$T/pe.err" sampling diagnostics posterior projection coefficients credible_sets document writing
expect 0 "" -- sh -c "BASEL_PROGRESS_INTERVAL=1e-9 '$BASEL' fit '$LIN' --iter 4000 --seed 1 --draws '$T/pb.csv' -o '$T/pb.json' 2> '$T/pb.err'"
expect 0 "" -- after_sampling "$T/pb.err" sampling diagnostics posterior projection coefficients document writing
expect 0 "$(line writing files)" -- cat "$T/pb.err"
expect 0 "^basel: writing 100% \(2 of 2 files" -- tail -n 1 "$T/pb.err"
# a kernel fit (1200 atoms)
expect 0 "" -- sh -c "BASEL_PROGRESS_INTERVAL=1e-9 '$BASEL' fit '$T/k.csv' --basis gauss:r=1.6 --prior ridge --iter 100 --chains 2 --seed 3 \
    -o '$T/k2.json' 2> '$T/k2.err'"
expect 0 "" -- after_sampling "$T/k2.err" sampling diagnostics posterior projection coefficients document writing
# without a listener the fit is the same
expect 0 "" -- sh -c "'$BASEL' fit '$LIN' --method enumerate --seed 1 --quiet -o '$T/peq.json'"
expect 0 "" -- cmp "$T/pe.json" "$T/peq.json"

# every method's sampling, in its own unit (a line every millisecond: on a
# quiet machine enumerate's 2^15 subsets take some 50 ms, which a 20 ms
# interval can miss)
export BASEL_PROGRESS_INTERVAL=0.001
expect 0 "$(line sampling subsets)" -- "$BASEL" fit "$LIN" --method enumerate -o "$T/e.json"
expect 0 "$(line sampling iterations)" -- "$BASEL" fit "$LIN" --method rj --iter 20000 --seed 1 -o "$T/r.json"
expect 0 "$(line sampling sweeps)" -- "$BASEL" fit "$LIN" --method ssvs --iter 4000 --seed 1 -o "$T/s.json"
expect 0 "$(line sampling sweeps)" -- "$BASEL" fit data/classification/pima_tr.csv --method mixture --target class \
    --iter 200 --burn 50 --chains 2 --seed 1 -o "$T/m.json"
expect 0 "$(line sampling moves)" -- "$BASEL" fit data/regression/robot_arm_train.csv --target y1,y2 --method anneal \
    --basis cubic --prior mdl --seed 1 -o "$T/a.json"
expect 0 "$(line sampling moves)" -- "$BASEL" fit data/regression/sinc_vermaak_train.csv --target y --inputs x \
    --method rbf --basis cubic --iter 2000 --chains 2 --seed 1 -o "$T/f.json"
expect 0 "$(line sampling points)" -- "$BASEL" fit "$T/k.csv" --method smc --basis gauss:r=1.6 --particles 50 \
    --seed 1 -o "$T/smc.json"
finish
