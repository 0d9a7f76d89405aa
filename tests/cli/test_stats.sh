#!/bin/bash
# test_stats.sh: basel fit --stats (docs/SUMMARY_STATS.md). The statistics of
# a CSV from tools/sumstats.py give the posterior of the rows: enumerate's
# PIPs and listed models' log marginals to 1e-10, rj with the same seed the
# same run; predictions with the means; refusals exit 2 with a message.
source "$(dirname "$0")/lib.sh" "$1"
D=data/linear/lin_p15_n200.csv
python3 tools/sumstats.py $D > "$T/s.json" || bad "sumstats.py"
python3 tools/sumstats.py $D --ld > "$T/ld.json" || bad "sumstats.py --ld"
E=(--method enumerate --prior g:g=200 --model-prior uniform --seed 1 --quiet)
expect 0 "" -- "$BASEL" fit $D "${E[@]}" -o "$T/raw.json"
expect 0 "" -- "$BASEL" fit --stats "$T/s.json" "${E[@]}" -o "$T/st.json"
expect 0 "" -- "$BASEL" fit --stats "$T/ld.json" "${E[@]}" -o "$T/ld_fit.json"
R=(--method rj --iter 3000 --chains 2 --seed 9 --quiet)
expect 0 "" -- "$BASEL" fit $D "${R[@]}" -o "$T/raw_rj.json"
expect 0 "" -- "$BASEL" fit --stats "$T/s.json" "${R[@]}" -o "$T/st_rj.json"
compare() { # rows-fit stats-fit tolerance: PIPs, size posterior, listed models and their log_ml
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3]); tol = float(sys.argv[3])
d = max(abs(x - y) for x, y in zip(a["pip"] + a["model_size"]["prob"], b["pip"] + b["model_size"]["prob"]))
assert d <= tol, f"PIP / size difference {d}"
assert [m["atoms"] for m in a["models"]] == [m["atoms"] for m in b["models"]], "listed models differ"
for m, n in zip(a["models"], b["models"]):
    if "log_ml" in m:
        assert abs(m["log_ml"] - n["log_ml"]) <= tol * max(1, abs(m["log_ml"])), "log_ml"
assert b["summary_statistics"]["kind"] in ("xtx", "ld")
PY
}
if compare "$T/raw.json" "$T/st.json" 1e-10; then ok; else bad "enumerate: statistics differ from rows"; fi
if compare "$T/raw.json" "$T/ld_fit.json" 1e-10; then ok; else bad "enumerate: LD and z differ from rows"; fi
if compare "$T/raw_rj.json" "$T/st_rj.json" 1e-12; then ok; else bad "rj: statistics differ from rows with the same seed"; fi
# predictions: with the means, those of the rows; without, refused
expect 0 "" -- "$BASEL" predict "$T/raw.json" $D -o "$T/p_raw.csv"
expect 0 "" -- "$BASEL" predict "$T/st.json" $D -o "$T/p_st.csv"
if paste -d, "$T/p_raw.csv" "$T/p_st.csv" | awk -F, 'NR > 1 { for (i = 1; i <= 3; i++) { d = $i - $(i + 3); if (d < 0) d = -d; if (d > 1e-9) b = 1 } } END { exit b }'; then
    ok
else
    bad "predictions from statistics with means differ from the rows'"
fi
expect 2 "cannot predict" -- "$BASEL" predict "$T/ld_fit.json" $D
expect 0 "summary statistics" -- "$BASEL" summary "$T/ld_fit.json"
# usage and bad files
expect 2 "not both" -- "$BASEL" fit $D --stats "$T/s.json"
expect 2 "needs the rows" -- "$BASEL" fit --stats "$T/s.json" --method smc
expect 2 "the file's target is 'y'" -- "$BASEL" fit --stats "$T/s.json" --target x1
expect 2 "names its inputs" -- "$BASEL" fit --stats "$T/s.json" --inputs x1,x2
# the recorded settings refit the same document, byte for byte (the contract of every fit)
SET=$(python3 -c "import json; s = json.load(open('$T/st_rj.json'))['settings']; print(' '.join('--%s=%s' % kv for kv in s.items()))")
expect 0 "" -- "$BASEL" fit --stats "$T/s.json" $SET --quiet -o "$T/refit.json"
if cmp -s "$T/st_rj.json" "$T/refit.json"; then ok; else bad "refitting a --stats fit with its settings changed the document"; fi
echo '{"n": 5, "inputs": ["a"], "xtx": [[1]], "xty": [0.5], "yty": 2, "extra": 1}' > "$T/bad.json"
expect 2 "bad.json: \"extra\": unknown key" -- "$BASEL" fit --stats "$T/bad.json"
printf '{"n": 5,\n "inputs": ["a" "b"]}\n' > "$T/bad.json"
expect 2 "bad.json:2:" -- "$BASEL" fit --stats "$T/bad.json"
expect 2 "missing.json" -- "$BASEL" fit --stats "$T/missing.json"
expect 0 "--stats" -- "$BASEL" help fit
# '-' reads the statistics from stdin
expect 0 "" -- bash -c "'$BASEL' fit --stats - ${E[*]} -o '$T/stdin.json' < '$T/s.json'"
if python3 -c "import json, sys; a, b = (json.load(open(p)) for p in sys.argv[1:]); assert a['pip'] == b['pip']" "$T/st.json" "$T/stdin.json"; then ok; else bad "--stats - differs"; fi
finish
