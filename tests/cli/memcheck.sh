#!/bin/bash
# memcheck.sh: representative command lines under valgrind memcheck (errors
# and definite leaks fail). Not a CTest test: tools/test.sh runs it once on
# the release build, since valgrind multiplies run times by ~30.
source "$(dirname "$0")/lib.sh" "$1"
VG="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
D=data/linear/lin_p15_n200.csv
expect 0 "" -- $VG "$BASEL" fit "$D" --method enumerate --quiet -o "$T/e.json"
expect 0 "" -- $VG "$BASEL" fit "$D" --method bd --iter 300 --chains 2 --seed 1 --quiet --draws "$T/d.csv" -o "$T/b.json"
expect 0 "" -- $VG "$BASEL" summary "$T/b.json"
expect 0 "" -- $VG "$BASEL" predict "$T/b.json" "$D" -o "$T/p.csv"
expect 0 "" -- $VG "$BASEL" predict "$T/b.json" "$D" --model prevalence -o "$T/p.csv"
awk -F, 'NR == 1 || $1 == 1 {print $2 "," $3}' data/regression/sinc_vermaak_train.csv > "$T/v.csv"
expect 0 "" -- $VG "$BASEL" fit "$T/v.csv" --method smc --basis gauss:r=1.131 --particles 30 --seed 1 --quiet -o "$T/s.json"
expect 0 "" -- $VG "$BASEL" predict "$T/s.json" "$T/v.csv" -o "$T/p.csv"
expect 0 "" -- $VG "$BASEL" fit data/regression/robot_arm_train.csv --target y1,y2 --method anneal --iter 200 --chains 2 --seed 1 --quiet -o "$T/a.json"
expect 0 "" -- $VG "$BASEL" predict "$T/a.json" data/regression/robot_arm_test.csv -o "$T/p.csv"
expect 0 "" -- $VG "$BASEL" fit data/classification/pima_tr.csv --method mixture --temperatures 2 --iter 100 --burn 20 --chains 2 --seed 1 --quiet -o "$T/m.json" --draws "$T/m.csv"
expect 0 "" -- $VG "$BASEL" predict "$T/m.json" data/classification/pima_te.csv -o "$T/p.csv"
# rj's informed moves on a streamed design (400 inputs, --gram-memory 1):
# the chains' shared Gram-row cache, then candidate sets after burn-in
python3 tests/cli/wide_csv.py 400 100 4 3 > "$T/w400.csv"
expect 0 "" -- $VG "$BASEL" fit "$T/w400.csv" --method rj --proposal informed --gram-memory 1 --rj-candidates 40 --iter 200 --burn 100 --chains 2 --seed 1 --quiet -o "$T/w.json"
# a categorical input: grouped model, expanded result, predict by level
expect 0 "" -- $VG "$BASEL" fit data/linear/iris.csv --method bd --iter 300 --chains 2 --seed 1 --quiet --draws "$T/gd.csv" -o "$T/g.json"
expect 0 "" -- $VG "$BASEL" fit data/linear/iris.csv --method rj --iter 300 --chains 2 --seed 1 --quiet -o "$T/gr.json"
expect 0 "" -- $VG "$BASEL" predict "$T/g.json" data/linear/iris.csv -o "$T/p.csv"
# a checkpoint written at every pause (--checkpoint-every 0.01), then a restart from the last one;
# a run that ends before its first pause writes none (rj at 3000 iterations did so in a clean-clone
# CI run, under valgrind, after rj got faster), so the run is long enough to pause (0.06 s natively)
expect 0 "" -- $VG "$BASEL" fit "$D" --method rj --iter 30000 --chains 2 --seed 1 --quiet --checkpoint "$T/c.ckpt" --checkpoint-every 0.01 --draws "$T/c.csv" -o "$T/c.json"
expect 0 "" -- test -s "$T/c.ckpt"
expect 0 "" -- $VG "$BASEL" fit "$D" --method rj --iter 30000 --chains 2 --seed 1 --quiet --restart "$T/c.ckpt" --draws "$T/c.csv" -o "$T/c.json"
printf 'a,b,y\n1,2,3\n4,abc,6\n7,8,9\n' > "$T/bad.csv"
expect 2 "not a number" -- $VG "$BASEL" fit "$T/bad.csv" -o "$T/f.json"
expect 2 "unknown key" -- $VG "$BASEL" fit "$D" --basis gauss:w=1 -o "$T/f.json"
finish
