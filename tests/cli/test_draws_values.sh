#!/bin/bash
# test_draws_values.sh: the draws CSV's sigma2, b_ and log_lik columns and
# --draws-loglik (docs/FIT.md "The draws CSV"; subset_draws.c): their
# averages are the coefficient table's, a model fixed by the data gives the
# table's sd and E[sigma^2], the pointwise log-likelihoods sum to log_lik,
# FIT.json does not change, and the priors without them have none.
source "$(dirname "$0")/lib.sh" "$1"
PY=/usr/bin/python3
D=data/linear/lin_p15_n200.csv

# 1. FIT.json is byte-identical without draws, with them and with the pointwise log-likelihoods
run="fit $D --method rj --iter 20000 --chains 2 --seed 11 --quiet"
expect 0 "" -- "$BASEL" $run -o "$T/a.json"
expect 0 "" -- "$BASEL" $run -o "$T/b.json" --draws "$T/b.csv"
expect 0 "" -- "$BASEL" $run -o "$T/c.json" --draws "$T/c.csv" --draws-loglik "$T/c_ll.csv"
if cmp -s "$T/a.json" "$T/b.json" && cmp -s "$T/a.json" "$T/c.json"; then ok; else bad "FIT.json changes with --draws or --draws-loglik"; fi
if cmp -s "$T/b.csv" "$T/c.csv"; then ok; else bad "the draws CSV changes with --draws-loglik"; fi
expect 0 "^chain,iteration,draw,size,x1,.*,x15,sigma2,b_Intercept,b_x1,.*,b_x15,log_lik$" -- grep -v '^#' "$T/b.csv"

# 2. the b_ draws' means are the table's model-averaged means (coefficients.terms[].mean):
# |mean(b) - table mean| <= 4 se, se the batch-means standard error over 40
# batches of the draws in chain order, se = sd(batch means) / sqrt(40); a
# term no draw holds (se = 0) must average 0 to 4 table sds / sqrt(draws)
expect 0 "terms 16 worst z" -- $PY - "$T/b.csv" "$T/b.json" <<'PYEOF'
import csv, json, math, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
fit = json.load(open(sys.argv[2]))
S, B = len(rows), 40
worst, bad = 0.0, []
for t in fit["coefficients"]["terms"]:
    col = "b_Intercept" if t["name"] == "(Intercept)" else "b_" + t["name"]
    x = [float(r[col]) for r in rows]
    L = S // B
    bm = [sum(x[b * L:(b + 1) * L]) / L for b in range(B)]
    m = sum(bm) / B
    se = math.sqrt(sum((v - m) ** 2 for v in bm) / (B - 1) / B)
    diff = abs(sum(x) / S - t["mean"])
    tol = 4 * se if se > 0 else 4 * t["sd"] / math.sqrt(S)
    worst = max(worst, diff / tol * 4)
    if diff > tol:
        bad.append((col, sum(x) / S, t["mean"], se))
print("terms", len(fit["coefficients"]["terms"]), "worst z", worst, bad)
sys.exit(1 if bad else 0)
PYEOF

# 3. the pointwise log-likelihoods: one row per draw, n columns, summing to log_lik (1e-9 relative)
expect 0 "draws 40000 rows 200 worst" -- $PY - "$T/c.csv" "$T/c_ll.csv" <<'PYEOF'
import csv, sys
d = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
ll = list(csv.reader(open(sys.argv[2])))
head, ll = ll[0], ll[1:]
assert head[:3] == ["chain", "iteration", "draw"] and head[3] == "log_lik[1]", head[:4]
assert len(ll) == len(d)
worst = 0.0
for r, p in zip(d, ll):
    assert p[:3] == [r["chain"], r["iteration"], r["draw"]]
    s, want = sum(float(v) for v in p[3:]), float(r["log_lik"])
    worst = max(worst, abs(s - want) / abs(want))
print("draws", len(ll), "rows", len(head) - 3, "worst", worst)
sys.exit(0 if worst < 1e-9 else 1)
PYEOF

# 4. a model fixed by the data (two strong inputs, P({x1, x2}) ~ 1): the b_
# draws' sd is the table's, and sigma2's mean the model's E[sigma^2 | y]
# (engine.predictor.hpm.sigma2), each within 4 standard errors of S
# independent draws (given the model they are): sd(sd) ~ sd / sqrt(2 S),
# se(mean sigma2) = sd(sigma2) / sqrt(S)
$PY - "$T/fixed.csv" <<'PYEOF'
import random, sys
r = random.Random(4)
with open(sys.argv[1], "w") as f:
    f.write("x1,x2,y\n")
    for _ in range(300):
        a, b = r.gauss(0, 1), r.gauss(5, 2)
        f.write("%.17g,%.17g,%.17g\n" % (a, b, 1 + 3 * a - 2 * b + r.gauss(0, 0.5)))
PYEOF
expect 0 "" -- "$BASEL" fit "$T/fixed.csv" --method bd --iter 5000 --chains 2 --seed 3 --quiet -o "$T/f.json" --draws "$T/f.csv"
expect 0 "sd ratios" -- $PY - "$T/f.csv" "$T/f.json" <<'PYEOF'
import csv, json, math, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
fit = json.load(open(sys.argv[2]))
S = len(rows)
assert all(r["size"] == "2" for r in rows), "the model is not fixed"
def mean(x): return sum(x) / len(x)
def sd(x):
    m = mean(x)
    return math.sqrt(sum((v - m) ** 2 for v in x) / (len(x) - 1))
ok, ratios = True, []
for t in fit["coefficients"]["terms"]:
    col = "b_Intercept" if t["name"] == "(Intercept)" else "b_" + t["name"]
    s = sd([float(r[col]) for r in rows])
    ratios.append(s / t["sd"])
    ok &= abs(s - t["sd"]) <= 4 * t["sd"] / math.sqrt(2 * S)
s2 = [float(r["sigma2"]) for r in rows]
want = fit["engine"]["predictor"]["hpm"]["sigma2"][0]
ok &= abs(mean(s2) - want) <= 4 * sd(s2) / math.sqrt(S)
print("sd ratios", ratios, "sigma2", mean(s2), want)
sys.exit(0 if ok else 1)
PYEOF

# 5. a prior whose within-model posterior is not a Student-t (a g mixture) has no such
# columns, and --draws-loglik says so (exit 2) and leaves no file behind
expect 0 "" -- "$BASEL" fit "$D" --method bd --iter 300 --seed 2 --prior hyper-g --quiet -o "$T/h.json" --draws "$T/h.csv"
if grep -v '^#' "$T/h.csv" | head -1 | grep -q 'sigma2\|b_\|log_lik'; then bad "hyper-g draws have value columns"; else ok; fi
# before the run, not after it: 10^9 iterations would take hours, the refusal comes at once
expect 2 "draws-loglik: this fit's draws have no log_lik" -- timeout 60 "$BASEL" fit "$D" --method bd --iter 1000000000 --seed 2 \
    --prior hyper-g --quiet -o "$T/h2.json" --draws "$T/h2.csv" --draws-loglik "$T/h2_ll.csv"
if [ ! -e "$T/h2.json" ] && [ ! -e "$T/h2.csv" ] && [ ! -e "$T/h2_ll.csv" ]; then ok; else bad "a refused --draws-loglik left files"; fi
# the mixture's draws are subsets: refused before its run too
expect 2 "draws-loglik: the mixture's draws have no log_lik" -- timeout 60 "$BASEL" fit data/classification/pima_tr.csv \
    --method mixture --target class --iter 1000000000 --quiet -o "$T/m.json" --draws-loglik "$T/m_ll.csv"
if [ ! -e "$T/m.json" ] && [ ! -e "$T/m_ll.csv" ]; then ok; else bad "a refused mixture --draws-loglik left files"; fi

finish
