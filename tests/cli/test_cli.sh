#!/bin/bash
# test_cli.sh: the command line end to end: the issue's acceptance command
# (enumeration vs BAS), fit -> FIT.json -> summary / predict round trips,
# determinism across thread counts, the draws CSV, help texts.
source "$(dirname "$0")/lib.sh" "$1"
PY=/usr/bin/python3
D=data/linear/lin_p15_n200.csv

# 1. exact enumeration matches R's BAS to 1e-6 (issue acceptance)
expect 0 "" -- "$BASEL" fit "$D" --method enumerate --prior g:g=200 --model-prior uniform -o "$T/enum.json"
expect 0 "max error" -- $PY - "$T/enum.json" data/linear/exact_lin_p15_n200.json <<'PYEOF'
import json, sys
fit = json.load(open(sys.argv[1])); ex = json.load(open(sys.argv[2]))
names = [a["name"] for a in fit["atoms"]]
err = max(abs(p - ex["pip"][n]) for n, p in zip(names, fit["pip"]))
print("max error", err)
sys.exit(0 if err < 1e-6 else 1)
PYEOF

# output files get the umask's mode, as a plain fopen would (not mkstemp's 0600)
expect 0 "^644$" -- bash -c "umask 022 && '$BASEL' fit '$D' --method enumerate --quiet -o '$T/perm.json' && stat -c %a '$T/perm.json'"
expect 0 "^600$" -- bash -c "umask 077 && '$BASEL' fit '$D' --method enumerate --quiet -o '$T/perm2.json' && stat -c %a '$T/perm2.json'"

# 2. summary and predict from the file
expect 0 "prevalence .*x3 x6 x7 x9 x13 x14" -- "$BASEL" summary "$T/enum.json"
expect 0 "^y_mean,y_lower,y_upper$" -- "$BASEL" predict "$T/enum.json" "$D"
expect 0 "" -- "$BASEL" predict "$T/enum.json" "$D" --model hpm -o "$T/pred.csv"
expect 0 "rows 200 rmse" -- $PY - "$T/pred.csv" "$D" <<'PYEOF'
import csv, math, sys
pred = list(csv.DictReader(open(sys.argv[1]))); data = list(csv.DictReader(open(sys.argv[2])))
assert len(pred) == len(data)
rmse = math.sqrt(sum((float(p["y_mean"]) - float(d["y"]))**2 for p, d in zip(pred, data)) / len(data))
inside = sum(float(p["y_lower"]) <= float(d["y"]) <= float(p["y_upper"]) for p, d in zip(pred, data)) / len(data)
print("rows", len(pred), "rmse", rmse, "coverage", inside)
# noise sd is 1: the in-sample RMSE of the true-size model is about 1, and a
# 95% interval covers about 95% of the rows
sys.exit(0 if 0.8 < rmse < 1.1 and 0.9 < inside < 0.99 else 1)
PYEOF

# 3. same seed: byte-identical FIT.json with 1 and 2 threads; stdin input
expect 0 "" -- "$BASEL" fit "$D" --method bd --iter 2000 --seed 7 --threads 1 -o "$T/t1.json"
expect 0 "" -- "$BASEL" fit "$D" --method bd --iter 2000 --seed 7 --threads 2 -o "$T/t2.json"
if cmp -s "$T/t1.json" "$T/t2.json"; then ok; else bad "FIT.json differs between 1 and 2 threads"; fi
expect 0 "" -- bash -c "'$BASEL' fit - --method bd --iter 2000 --seed 7 --quiet -o '$T/t3.json' < '$D'"
if cmp -s "$T/t1.json" "$T/t3.json"; then ok; else bad "reading stdin changes the fit"; fi

# 4. the draws CSV: comment header, chain, iteration and draw columns, one 0/1 column per atom
expect 0 "" -- "$BASEL" fit "$D" --method bd --iter 300 --burn 100 --seed 5 --chains 2 --draws "$T/draws.csv" -o "$T/d.json"
expect 0 "^chain,iteration,draw,size,x1,x2,x3" -- grep -v '^#' "$T/draws.csv"
# iteration counts within the chain, draw over both (posterior's .iteration and .draw)
expect 0 "^1,1,1,[0-9]+,.*2,1,301,[0-9]+,.*2,300,600,[0-9]+," -- bash -c "grep -v '^#' '$T/draws.csv' | sed -n '2p;302p;601p' | tr '\n' ' '"
expect 0 "^# seed = 5$" -- cat "$T/draws.csv"
for key in method seed; do # each setting once (the header once held method and seed twice)
    n=$(grep -c "^# $key = " "$T/draws.csv")
    if [ "$n" -eq 1 ]; then ok; else bad "draws: '# $key = ' is in the header $n times"; fi
done
rows=$(grep -vc '^#' "$T/draws.csv")
if [ "$rows" -eq 601 ]; then ok; else bad "draws: $rows lines, expected 1 header + 2 chains x 300"; fi

# 5. the mixture classifier: class labels as text, p_<class> columns
C=data/classification
expect 0 "" -- "$BASEL" fit $C/pima_tr.csv --method mixture --iter 300 --burn 100 --chains 2 --seed 2 -o "$T/mix.json"
expect 0 "^p_No,p_Yes,class$" -- "$BASEL" predict "$T/mix.json" $C/pima_te.csv
expect 0 "mixture fit of class" -- "$BASEL" summary "$T/mix.json"
# draws of the input subsets: 2 chains x 200 sweeps / thin 10
expect 0 "" -- "$BASEL" fit $C/pima_tr.csv --method mixture --iter 200 --burn 50 --chains 2 --seed 2 --quiet -o "$T/mixd.json" --draws "$T/mixd.csv"
expect 0 "^chain,iteration,draw,size,npreg,glu,bp,skin,bmi,ped,age$" -- grep -v "^#" "$T/mixd.csv"
expect 0 "^2,20,40," -- bash -c "grep -v '^#' '$T/mixd.csv' | tail -1"
rows=$(grep -vc "^#" "$T/mixd.csv")
if [ "$rows" -eq 41 ]; then ok; else bad "mixture draws: $rows lines, expected 1 header + 2 chains x 20"; fi
# replica exchange: the summary reports the ladder and the swap rate
expect 0 "" -- "$BASEL" fit $C/pima_tr.csv --method mixture --temperatures 3 --iter 100 --burn 20 --chains 2 --seed 2 --quiet -o "$T/mixt.json"
expect 0 "3 temperatures up to 20, swaps accepted" -- "$BASEL" summary "$T/mixt.json"
# the excluded inputs' model is recorded with the fit
expect 0 "" -- "$BASEL" fit $C/pima_tr.csv --method mixture --excluded gaussian --hyper-h 0.16 --iter 200 --burn 50 --chains 1 --seed 2 --quiet -o "$T/mixg.json"
expect 0 '"excluded": "gaussian"' -- cat "$T/mixg.json"
expect 0 '"excluded": "regression"' -- cat "$T/mix.json"
# the exchange move: informed by default, uniform on request, recorded; a bad value exits 2
expect 0 '"exchange": "informed"' -- cat "$T/mix.json"
expect 0 '"exchange": "uniform"' -- "$BASEL" fit $C/pima_tr.csv --method mixture --exchange uniform --iter 100 --burn 20 --chains 1 --seed 2 --quiet -o -
expect 2 "--exchange 'sideways': expected one of uniform,informed" -- "$BASEL" fit $C/pima_tr.csv --method mixture --exchange sideways -o "$T/mixx.json"
# pair moves are informed chains': a count of pairs asked of uniform moves is refused, not ignored
expect 2 "--rj-pairs 5: pair moves are made by informed chains only" -- "$BASEL" fit $D --method rj --rj-pairs 5 -o "$T/pairs.json"
expect 1 "" -- test -e "$T/pairs.json"
expect 0 "" -- "$BASEL" fit $D --method rj --proposal informed --rj-pairs 5 --iter 200 --burn 50 --quiet -o "$T/pairs.json"
expect 0 "; 5 pairs \\(first " -- /usr/bin/python3 -c "import json; print(json.load(open('$T/pairs.json'))['diagnostics']['note'])"
# the kept draws are the predictor, so at most 1000 per chain (mixture.h BSL_MIX_MAX_DRAWS): 2500 sweeps at
# --thin 1 are thinned to every 3rd (834 draws), and the thin used is the one recorded
expect 0 "" -- "$BASEL" fit $C/pima_tr.csv --method mixture --iter 2500 --burn 0 --thin 1 --chains 1 --seed 2 --quiet \
    -o "$T/mixcap.json" --draws "$T/mixcap.csv"
rows=$(grep -vc '^#' "$T/mixcap.csv")
if [ "$rows" -eq 835 ] && grep -q '"thin": "3"' "$T/mixcap.json"; then ok
else bad "mixture at --thin 1 past 1000 draws: $rows lines, expected 1 header + 834, and thin 3 recorded"; fi
if [ -e "$T/mixx.json" ]; then bad "a refused --exchange left $T/mixx.json"; else ok; fi

# 6. smc: one pass, then a second batch continues the same particle system:
# feeding 30 + 20 rows with a save in between equals feeding all 50
awk -F, 'NR == 1 || $1 == 1 {print $2 "," $3}' data/regression/sinc_vermaak_train.csv > "$T/v.csv"
head -31 "$T/v.csv" > "$T/v1.csv"
{ head -1 "$T/v.csv"; tail -n +32 "$T/v.csv"; } > "$T/v2.csv"
expect 0 "" -- "$BASEL" fit "$T/v.csv" --method smc --basis gauss:r=1.131 --particles 100 --seed 4 --quiet -o "$T/all.json"
expect 0 "" -- "$BASEL" fit "$T/v1.csv" --method smc --basis gauss:r=1.131 --particles 100 --seed 4 --quiet -o "$T/part.json"
expect 0 "" -- "$BASEL" fit "$T/v2.csv" --method smc --basis gauss:r=1.131 --particles 100 --seed 4 --resume "$T/part.json" --quiet -o "$T/resumed.json"
expect 0 "same engine state" -- $PY - "$T/all.json" "$T/resumed.json" <<'PYEOF'
import json, sys
a = json.load(open(sys.argv[1]))["engine"]; b = json.load(open(sys.argv[2]))["engine"]
print("same engine state" if a == b else "engine states differ")
PYEOF
expect 0 "^y_mean,y_lower,y_upper$" -- "$BASEL" predict "$T/resumed.json" data/regression/sinc_test.csv
expect 0 "" -- "$BASEL" fit "$T/v.csv" --method smc --basis gauss:r=1.131 --particles 100 --seed 4 --running "$T/run.csv" --quiet -o "$T/r.json"
expect 0 "^t,row,y,y_mean,y_lower,y_upper$" -- head -1 "$T/run.csv"
lines=$(wc -l < "$T/run.csv")
if [ "$lines" -eq 50 ]; then ok; else bad "running predictions: $lines lines, expected a header and 49 rows"; fi
if cmp -s "$T/all.json" "$T/r.json"; then ok; else bad "--running changed the fit"; fi
expect 2 "resume needs a fit of --method smc" -- "$BASEL" fit "$T/v2.csv" --method smc --basis gauss:r=1.131 --resume "$T/enum.json" -o "$T/x.json"

# 7. without -o the summary goes to stdout; help texts exit 0
expect 0 "Posterior inclusion probabilities" -- "$BASEL" fit "$D" --method bd --iter 500 --seed 1
expect 0 "--model-prior" -- "$BASEL" fit --help
expect 0 "usage: basel predict" -- "$BASEL" predict --help
expect 0 "basel fit       fit a method" -- "$BASEL" --help
expect 0 "^basel [0-9]+\.[0-9]+\.[0-9]+" -- "$BASEL" --version
finish
