#!/bin/bash
# test_contract.sh: every method that `basel help fit` lists, through the
# command line: fit -> FIT.json -> summary -> predict (default model), the
# recorded settings refit the same file, and an option the method does not
# read is refused with exit 2. The list comes from the engine table, so a
# new method is covered without editing this file.
source "$(dirname "$0")/lib.sh" "$1"
NUM=data/linear/lin_p15_n200.csv
CLS=data/classification/pima_tr.csv

methods=$("$BASEL" help fit | awk '/^Methods/ {on = 1; next} on && /^$/ {exit} on {print $1}')
[ -n "$methods" ] || { echo "FAILED: no methods in 'basel help fit'"; exit 1; }
for m in $methods; do
    help=$("$BASEL" help fit --method "$m")
    args=(--method "$m" --seed 5 --quiet)
    for kv in iter=300 burn=100 chains=2 particles=40; do
        grep -q -- "--${kv%%=*} .*\[default: " <<< "$help" && args+=("--${kv%%=*}" "${kv#*=}")
    done
    data=$NUM test=$NUM
    if grep -q -- "--kernels" <<< "$help"; then # the classifier: a class column
        data=$CLS test=data/classification/pima_te.csv
        args+=(--target class)
    fi
    expect 0 "" -- "$BASEL" fit "$data" "${args[@]}" -o "$T/$m.json"
    expect 0 "basel $m fit" -- "$BASEL" summary "$T/$m.json"
    expect 0 "" -- "$BASEL" predict "$T/$m.json" "$test" -o "$T/$m.pred"
    expect 0 "^1$" -- bash -c "head -1 '$T/$m.pred' | grep -c -e '_mean,' -e '^p_'"
    # the recorded settings are the effective ones: refitting with them alone gives the same file
    refit=$(/usr/bin/python3 -c "
import json, sys, shlex
s = json.load(open(sys.argv[1]))['settings']
print(' '.join('--%s=%s' % (k, shlex.quote(v)) for k, v in s.items()))" "$T/$m.json")
    expect 0 "" -- bash -c "'$BASEL' fit '$data' $refit --quiet -o '$T/$m.refit.json' && cmp '$T/$m.json' '$T/$m.refit.json'"
    expect 2 "is not read by --method $m" -- "$BASEL" fit "$data" "${args[@]}" --$(grep -q -- "--particles" <<< "$help" && echo kernels || echo particles) 3 -o "$T/x.json"
done
finish
