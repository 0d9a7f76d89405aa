#!/bin/bash
# test_credible_susie.sh: FIT.json's credible sets (docs/FIT.md
# "credible_sets", one set per signal a cluster's posterior counts) against
# susieR's, susie(X, y, L = 10) + susie_get_cs (tests/cli/credible_susie.R),
# with the exact posterior of enumerate:
#   - the README's data lin_p15_n200 (truth: x3 x6 x7 x9 x14), the README's
#     command: the same five sets as susieR, x6 (PIP 0.964, r = 0.56 with
#     x7) among them; one set per cluster gave four;
#   - bench/credible/make_block.py: two effects in a block of 10 inputs at
#     r = 0.8 and a block of five near-copies, with the block's effects at
#     0.5 (a3 of PIP 0.8 shares its set with a7) and at 1 (a3 and a8 of
#     PIP 1): the same three sets as susieR; one set per cluster gave two;
# for each set the same inputs, purity equal to susieR's (both the least
# |r| within the set) to 1e-6, coverage at least 0.95, and the summary's
# line with coverage and purity. Skipped, saying so, without Rscript or
# susieR (Debian r-cran-susier, tools/deps.sh peers).
source "$(dirname "$0")/lib.sh" "$1"
if ! command -v Rscript > /dev/null || ! Rscript -e 'library(susieR)' > /dev/null 2>&1; then
    echo "Rscript or susieR (r-cran-susier) missing: skipped"
    exit 0
fi
/usr/bin/python3 bench/credible/make_block.py "$T/block05.csv" 30 0.5 2> /dev/null
/usr/bin/python3 bench/credible/make_block.py "$T/block1.csv" 30 1 2> /dev/null

# compare FIT.json SUSIE.txt: same sets (as sets of names), purity to 1e-6, coverage >= 0.95
compare() {
    /usr/bin/python3 - "$1" "$2" << 'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
names = [a["name"] for a in doc["atoms"]]
ours = {frozenset(names[j] for j in s["atoms"]): s for s in doc["credible_sets"]["sets"]}
theirs = {}
for line in open(sys.argv[2]):
    n, cov, pur = line.strip().split(";")
    theirs[frozenset(n.split())] = float(pur)
show = lambda sets: " ".join("{%s}" % ",".join(sorted(s)) for s in sets)
print("basel %d sets %s; susieR %d sets %s" % (len(ours), show(ours), len(theirs), show(theirs)))
bad = [] if set(ours) == set(theirs) else ["the sets differ"]
for s, o in ours.items():
    if s in theirs and abs(o["purity"] - theirs[s]) > 1e-6:
        bad.append("purity of %s: %.9f, susieR %.9f" % (show([s]), o["purity"], theirs[s]))
    if not o["coverage"] >= 0.95:
        bad.append("coverage of %s: %.6f" % (show([s]), o["coverage"]))
print("; ".join(bad) if bad else "agree")
sys.exit(1 if bad else 0)
PY
}

for d in data/linear/lin_p15_n200.csv "$T/block05.csv" "$T/block1.csv"; do
    b=$(basename "$d" .csv)
    Rscript tests/cli/credible_susie.R "$d" > "$T/$b.susie" 2> "$T/$b.rerr" || bad "susieR on $d: $(head -c 300 "$T/$b.rerr")"
    if [ "$b" = lin_p15_n200 ]; then prior="--prior g:g=200 --model-prior uniform"; else prior=""; fi
    expect 0 "" -- "$BASEL" fit "$d" --method enumerate $prior --seed 1 --quiet -o "$T/$b.json"
    expect 0 "^agree" -- compare "$T/$b.json" "$T/$b.susie"
    cat "$T/out"
done
# x6 (the AR(1) neighbour of x7) has its set; the summary prints each set's coverage and purity
expect 0 "set [0-9]: coverage 0.964, purity 1.000, 1 input: x6" -- "$BASEL" summary "$T/lin_p15_n200.json"
expect 0 "Credible sets \(coverage 0.95, purity >= 0.50\): 5" -- "$BASEL" summary "$T/lin_p15_n200.json"
expect 0 "Credible sets \(coverage 0.95, purity >= 0.50\): 3" -- "$BASEL" summary "$T/block1.json"
finish
