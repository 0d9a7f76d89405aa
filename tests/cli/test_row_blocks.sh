#!/bin/bash
# test_row_blocks.sh: basel fit --row-blocks in one process (the MPI build
# splits the rows over processes: tests/mpi/test_mpi.sh). The statistics
# made from the rows (centred about the means, basel_data_crossprod) give
# the rows' posterior: enumerate's PIPs, size posterior and listed models'
# log marginals to 1e-10, rj with the same seed the same run (1e-12), as
# for a --stats file (test_stats.sh); the means are kept, so it predicts as
# the rows' fit. Bad input names the file's own line; refusals exit 2.
source "$(dirname "$0")/lib.sh" "$1"
D=data/linear/lin_p15_n200.csv
E=(--target y --method enumerate --prior g:g=200 --model-prior uniform --seed 1 --quiet)
expect 0 "" -- "$BASEL" fit $D "${E[@]}" -o "$T/raw.json"
expect 0 "" -- "$BASEL" fit $D "${E[@]}" --row-blocks -o "$T/rb.json"
R=(--target y --method rj --iter 3000 --chains 2 --seed 9 --quiet)
expect 0 "" -- "$BASEL" fit $D "${R[@]}" -o "$T/raw_rj.json"
expect 0 "" -- "$BASEL" fit $D "${R[@]}" --row-blocks -o "$T/rb_rj.json"
# --inputs picks and orders the columns as in a fit from rows
I=(--target y --inputs x3,x1,x7 --method enumerate --seed 1 --quiet)
expect 0 "" -- "$BASEL" fit $D "${I[@]}" -o "$T/raw_in.json"
expect 0 "" -- "$BASEL" fit $D "${I[@]}" --row-blocks -o "$T/rb_in.json"
compare() { # rows-fit blocks-fit tolerance
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3]); tol = float(sys.argv[3])
assert a["inputs"] == b["inputs"] if "inputs" in a else True
d = max(abs(x - y) for x, y in zip(a["pip"] + a["model_size"]["prob"], b["pip"] + b["model_size"]["prob"]))
assert d <= tol, f"PIP / size difference {d}"
assert [m["atoms"] for m in a["models"]] == [m["atoms"] for m in b["models"]], "listed models differ"
for m, n in zip(a["models"], b["models"]):
    if "log_ml" in m:
        assert abs(m["log_ml"] - n["log_ml"]) <= tol * max(1, abs(m["log_ml"])), "log_ml"
ss = b["summary_statistics"]
assert ss["kind"] == "xtx" and ss["means"] is True and ss["file"].endswith("lin_p15_n200.csv"), ss
PY
}
if compare "$T/raw.json" "$T/rb.json" 1e-10; then ok; else bad "enumerate: row-block statistics differ from rows"; fi
if compare "$T/raw_rj.json" "$T/rb_rj.json" 1e-12; then ok; else bad "rj: row-block statistics differ from rows with the same seed"; fi
if compare "$T/raw_in.json" "$T/rb_in.json" 1e-10; then ok; else bad "--inputs: row-block statistics differ from rows"; fi
# with the means kept, predictions are the rows' fit's
expect 0 "" -- "$BASEL" predict "$T/raw.json" $D -o "$T/p_raw.csv"
expect 0 "" -- "$BASEL" predict "$T/rb.json" $D -o "$T/p_rb.csv"
if paste -d, "$T/p_raw.csv" "$T/p_rb.csv" | awk -F, 'NR > 1 { for (i = 1; i <= 3; i++) { d = $i - $(i + 3); if (d < 0) d = -d; if (d > 1e-9) b = 1 } } END { exit b }'; then
    ok
else
    bad "predictions from row-block statistics differ from the rows'"
fi
# a cell that is not a number: the file's line and column
awk 'NR == 180 { sub(/^[^,]*/, "abc") } 1' $D > "$T/bad.csv"
expect 2 "bad.csv:180:1: column 'x1': 'abc' is not a number" -- "$BASEL" fit "$T/bad.csv" "${E[@]}" --row-blocks -o "$T/bad.json"
expect 1 "" -- test -e "$T/bad.json"
expect 2 "--inputs: 'zz' is not an input column" -- "$BASEL" fit $D "${E[@]}" --inputs x1,zz --row-blocks -o "$T/bad.json"
expect 2 "--row-blocks reads blocks of a training file" -- "$BASEL" fit - "${E[@]}" --row-blocks < $D
expect 2 "summary statistics serve --method" -- "$BASEL" fit $D --target y --method smc --row-blocks -o "$T/bad.json"
expect 1 "" -- test -e "$T/bad.json"
finish
