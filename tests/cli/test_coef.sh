#!/bin/bash
# test_coef.sh: the coefficient table (basel coef, FIT.json "coefficients"),
# the models' marginal likelihoods and Bayes factors, and model-averaged
# intervals over the whole posterior with --interval-kind (issue 13 items
# 6-8).
source "$(dirname "$0")/lib.sh" "$1"
L=data/linear/uscrime_log.csv
head -6 $L > "$T/rows.csv"
FIT=(fit $L --method enumerate --prior g --model-prior uniform --quiet --seed 1)
expect 0 "" -- "$BASEL" "${FIT[@]}" -o "$T/e.json"
expect 0 "" -- "$BASEL" "${FIT[@]}" --top 1 -o "$T/e1.json"

# basel coef: CSV to stdout or -o; one row per term plus the header
expect 0 "^term,target,pip,mean,sd,cond_mean,cond_sd,lower,upper" -- "$BASEL" coef "$T/e.json"
if [ "$(wc -l < "$T/out")" -eq 17 ]; then ok; else bad "coef: expected 17 lines (header, intercept, 15 inputs)"; fi
expect 0 "" -- "$BASEL" coef "$T/e.json" -o "$T/coef.csv"
if grep -q '^Ineq,y,0.997' "$T/coef.csv"; then ok; else bad "coef -o: Ineq's PIP row missing"; fi
expect 0 "usage: basel coef" -- "$BASEL" coef --help
expect 2 "expected one FIT.json" -- "$BASEL" coef
expect 2 "unknown option" -- "$BASEL" coef "$T/e.json" --level 0.9
expect 0 "" -- "$BASEL" fit data/classification/pima_tr.csv --method mixture --iter 100 --burn 20 --chains 1 --seed 2 --quiet -o "$T/mix.json"
expect 2 "no coefficient table" -- "$BASEL" coef "$T/mix.json"

# on the original scale: standardising the inputs changes nothing (the
# g-prior is scale-invariant)
expect 0 "" -- "$BASEL" "${FIT[@]}" --standardize yes -o "$T/s.json"
"$BASEL" coef "$T/s.json" > "$T/cs.csv"
"$BASEL" coef "$T/e.json" > "$T/ce.csv"
if paste -d, "$T/ce.csv" "$T/cs.csv" | awk -F, 'NR > 1 { for (i = 3; i <= 9; i++) { d = $i - $(i + 9); if (d < 0) d = -d; if (d > 1e-9 * (1 + ($i < 0 ? -$i : $i))) b = 1 } } END { exit b }'; then
    ok
else
    bad "coef: the table changes when the inputs are standardised"
fi
# the checker refuses a malformed table
if command -v python3 > /dev/null; then
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["coefficients"]["terms"][1]["sd"] = -1; json.dump(d, open(sys.argv[2], "w"))' "$T/e.json" "$T/bad.json"
    expect 2 '"coefficients" holds a term' -- "$BASEL" coef "$T/bad.json"
fi

# the summary: coefficients, log ML and Bayes factors, the predictive's mass
expect 0 "Coefficients \(original scale" -- "$BASEL" summary "$T/e.json"
expect 0 "BF best +BF null" -- "$BASEL" summary "$T/e.json"
expect 0 "null model \(intercept only\): log ML 0.000" -- "$BASEL" summary "$T/e.json"

# intervals average over the whole posterior: --top does not change them
"$BASEL" predict "$T/e.json" "$T/rows.csv" > "$T/p20.csv"
"$BASEL" predict "$T/e1.json" "$T/rows.csv" > "$T/p1.csv"
if cmp -s "$T/p20.csv" "$T/p1.csv"; then ok; else bad "predict: intervals depend on --top"; fi
# the interval of f(x) lies inside that of a new y, both around the mean
expect 0 "" -- "$BASEL" predict "$T/e.json" "$T/rows.csv" --interval-kind mean -o "$T/pm.csv"
if paste -d, "$T/p20.csv" "$T/pm.csv" | awk -F, 'NR > 1 && !($2 < $5 && $5 < $1 && $1 < $6 && $6 < $3) { b = 1 } END { exit b }'; then
    ok
else
    bad "predict: mean interval not inside the new-observation interval"
fi
expect 0 "" -- "$BASEL" predict "$T/e.json" "$T/rows.csv" --model hpm --interval-kind mean
expect 2 "expected new or mean" -- "$BASEL" predict "$T/e.json" "$T/rows.csv" --interval-kind both
expect 2 "new observations only" -- "$BASEL" predict "$T/mix.json" data/classification/pima_te.csv --interval-kind mean
finish
