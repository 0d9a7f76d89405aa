#!/bin/bash
# test_credible_stream.sh: credible sets on a streamed design, whose
# correlations come from columns kept in a cache of 64 slots by input
# index (src/engine/subset/subset_credible.c). Two signals 64 inputs apart
# (x1, and x65 with its near-copy x66) share a slot: when the second
# column overwrote the first, both read as one column, x65 joined x1's
# cluster and the signal of {x65, x66} lost its set. Independent inputs
# otherwise, n = 200, p = 400, so that the Gram (1.3 MB) is over
# --gram-memory 1 and the design streams (diagnostics.gram says so).
# Exactly: two sets, {x1} and {x65, x66}, each its own lead and signal 1,
# the second's purity the pair's |r| (0.95 here, above the 0.5 floor).
source "$(dirname "$0")/lib.sh" "$1"
/usr/bin/python3 - "$T/d.csv" << 'PY'
import sys
import numpy as np
rng = np.random.default_rng(5)
n, p = 200, 400
X = rng.standard_normal((n, p))
X[:, 65] = X[:, 64] + 0.3 * rng.standard_normal(n)  # x66, a near-copy of x65
y = 1.0 * X[:, 0] + 0.6 * X[:, 64] + rng.standard_normal(n)
header = ",".join("x%d" % (j + 1) for j in range(p)) + ",y"
np.savetxt(sys.argv[1], np.column_stack([X, y]), delimiter=",", header=header, comments="", fmt="%.6f")
PY
expect 0 "" -- "$BASEL" fit "$T/d.csv" --method rj --gram-memory 1 --seed 1 --quiet -o "$T/f.json"
/usr/bin/python3 - "$T/f.json" << 'PY' && ok || bad "credible sets on a streamed design with inputs 64 apart"
import json, sys
d = json.load(open(sys.argv[1]))
names = [a["name"] for a in d["atoms"]]
sets = d["credible_sets"]["sets"]
got = sorted((sorted(names[j] for j in s["atoms"]), names[s["lead"]], s["signal"]) for s in sets)
print("gram %s; sets %s" % (d["diagnostics"].get("gram"), got))
want_gram = d["diagnostics"].get("gram") == "streamed"
want = [(["x1"], "x1", 1), (["x65", "x66"], got[1][1] if len(got) > 1 else "", 1)]
pair = [s for s in sets if sorted(names[j] for j in s["atoms"]) == ["x65", "x66"]]
ok = want_gram and len(got) == 2 and got == want and got[1][1] in ("x65", "x66") and pair and 0.9 < pair[0]["purity"] < 0.99
sys.exit(0 if ok else 1)
PY
finish
