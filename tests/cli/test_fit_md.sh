#!/bin/bash
# test_fit_md.sh: docs/FIT.md describes the documents basel writes (issue
# 28 item 2: a test holds the description and the writer equal). Fits of
# every method, and of the variants that add keys (a categorical input, a
# GLM, summary statistics, --relevance, credible sets), are written; then
#  - every top-level key of every document is a row of FIT.md's tables
#    ("| `key` |"), and every such row of the "Header" and "Summaries"
#    tables is a key of some document (no key documented but never written);
#  - every key one level down in the shared blocks (standardize,
#    model_size, models[], selected, diagnostics, coefficients and its
#    terms, credible_sets and its sets, relevance, prior) and every key of
#    each method's engine block is named in FIT.md as `key`.
source "$(dirname "$0")/lib.sh" "$1"
cd "$(dirname "$0")/../.."
MD=docs/FIT.md
L=data/linear/lin_p15_n200.csv
R=data/regression/sinc_scaling_n500.csv
fits=()
fit() { # NAME ARGS...: a fit that must succeed
    local name=$1
    shift
    expect 0 "" -- "$BASEL" fit "$@" --seed 1 --quiet -o "$T/$name.json"
    fits+=("$T/$name.json")
}
fit enumerate "$L" --method enumerate
fit bd "$L" --iter 300
fit rj "$L" --method rj --iter 2000
fit ssvs "$L" --method ssvs --iter 500
fit bd_kernel "$R" --basis gauss:r=1.6 --iter 200
fit smc "$R" --method smc --basis gauss:r=1.6 --particles 50
fit rbf "$R" --method rbf --iter 500 --burn 100 --chains 2
fit anneal "$R" --method anneal --iter 500 --chains 1
fit mixture data/classification/pima_tr.csv --method mixture --target class --iter 200 --burn 100 --chains 2
fit binomial data/classification/pima_tr.csv --method rj --family binomial --target class --iter 500
fit multinomial data/classification/wine.csv --method rj --family multinomial --target class --iter 500
fit poisson data/count/quine.csv --method enumerate --family poisson
fit factor data/linear/iris.csv --target sepal_length --method enumerate
fit stats --stats data/linear/lin_p15_n200_ld.json --method bd --iter 300
fit relevance data/regression/boston.csv --target medv --basis gauss:r=1,2,4 --relevance select --iter 100

report=$(/usr/bin/python3 - "$MD" "${fits[@]}" <<'EOF'
import json, re, sys
md = open(sys.argv[1], encoding="utf-8").read()
# a key is named when it is a word of some code span: `key`, or in
# `{"atoms": [...], "size", ...}`
named = set()
for span in re.findall(r"`([^`]+)`", md):
    named |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span))
# the rows of the Header and Summaries tables: the top-level keys FIT.md promises
top_rows = set()
section = None
for line in md.splitlines():
    if line.startswith("## "):
        section = line[3:].split(" (")[0].strip()
    m = re.match(r"\| `([A-Za-z_][A-Za-z0-9_]*)` \|", line)
    if m and section in ("Header", "Summaries"):
        top_rows.add(m.group(1))
# and the method-specific top-level keys, named in their own paragraph
para = re.search(r"Method-specific top-level keys:(.*?)\n\n", md, re.S)
for span in re.findall(r"`([^`]+)`", para.group(1) if para else ""):
    top_rows |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span))
docs = [json.load(open(p, encoding="utf-8")) for p in sys.argv[2:]]
problems, seen_top = [], set()

def keys_of(v):
    if isinstance(v, dict):
        return set(v)
    if isinstance(v, list):
        return set().union(*[set(x) for x in v if isinstance(x, dict)]) if v else set()
    return set()

for path, d in zip(sys.argv[2:], docs):
    name = path.rsplit("/", 1)[-1]
    seen_top |= set(d)
    for k in d:
        if k not in top_rows and k != "engine":
            problems.append("%s: top-level key %r is not a row of FIT.md's Header or Summaries tables" % (name, k))
    inner = {}
    for blk in ("standardize", "model_size", "models", "selected", "diagnostics", "credible_sets", "relevance",
                "prior", "summary_statistics", "factors"):
        inner[blk] = keys_of(d.get(blk))
    co = d.get("coefficients", {})
    inner["coefficients"] = keys_of(co)
    inner["coefficients.terms"] = keys_of(co.get("terms")) if isinstance(co, dict) else set()
    cs = d.get("credible_sets", {})
    inner["credible_sets.sets"] = keys_of(cs.get("sets")) if isinstance(cs, dict) else set()
    inner["engine"] = keys_of(d.get("engine"))
    for blk, ks in inner.items():
        for k in sorted(ks):
            if k not in named:
                problems.append("%s: key %s.%s is not named in FIT.md" % (name, blk, k))
for k in sorted(top_rows - seen_top - set(re.findall(r"[A-Za-z_]+", para.group(1) if para else ""))):
    problems.append("FIT.md documents top-level key %r, which none of the %d fits wrote" % (k, len(docs)))
print("\n".join(sorted(set(problems))) if problems else "ok %d fits, %d documented keys" % (len(docs), len(top_rows)))
EOF
)
if [ "${report%% *}" = ok ]; then ok; else bad "FIT.md and the documents differ:
$report"; fi
echo "$report" | head -1
finish
