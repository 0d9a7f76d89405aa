#!/bin/bash
# test_kernel_summary.sh: for a kernel dictionary the summary says what to
# trust and shows kernels as centres and widths (issue 30 item 4): each
# listed kernel's centre is its training row's inputs (in their own units),
# its width the dictionary's; the coefficient table holds no kernel; the
# diagnostics say that the size posterior and the predictions are what
# converge, with the size's R-hat. A linear fit keeps the PIP table and its
# coefficients.
source "$(dirname "$0")/lib.sh" "$1"
D=$(dirname "$0")/../../data
# 1 input: every coordinate is shown
"$BASEL" fit "$D/regression/sinc_vermaak_train.csv" --target y --inputs x --basis gauss:r=0.5,2 --iter 2000 \
    --seed 3 --quiet -o "$T/k1.json" && ok || bad "the 1-input kernel fit failed"
"$BASEL" summary "$T/k1.json" > "$T/s1.txt" && ok || bad "summary of the 1-input kernel fit failed"
# 13 inputs: the three farthest from their means
"$BASEL" fit "$D/regression/boston.csv" --target medv --basis gauss:r=2,linear-term=1 --iter 1000 \
    --seed 3 --quiet -o "$T/k13.json" && ok || bad "the 13-input kernel fit failed"
"$BASEL" summary "$T/k13.json" > "$T/s13.txt" && ok || bad "summary of the 13-input kernel fit failed"
"$BASEL" fit "$D/linear/lin_p15_n200.csv" --iter 2000 --seed 3 --quiet -o "$T/lin.json" && ok || bad "linear fit failed"
"$BASEL" summary "$T/lin.json" > "$T/slin.txt" && ok || bad "summary of the linear fit failed"
/usr/bin/python3 - "$T" "$D" <<'PY' && ok || bad "the kernel summary does not show the kernels as they are"
import csv, json, re, sys
T, D = sys.argv[1], sys.argv[2]
def rows(path):
    with open(path) as f:
        r = list(csv.DictReader(f))
    return r
def check(fit, summ, data, widths):
    doc = json.load(open(fit))
    text = open(summ).read()
    data = rows(data)
    assert "Kernels by posterior inclusion probability" in text, "no kernel table"
    assert "Posterior inclusion probabilities" not in text, "the plain PIP table is still printed"
    lines = re.findall(r'^  (gauss@(\d+)(?:/r=\S+)?)\s+([0-9.]+)\s+[#.]+\s+([0-9.]+)?\s+(\S+)\s+(.+)$', text, re.M)
    assert len(lines) == min(25, len(doc["atoms"])), "%d kernel lines" % len(lines)
    names = [a["name"] for a in doc["atoms"]]
    for name, row, pip, rhat, width, centre in lines:
        j = names.index(name)
        assert abs(float(pip) - doc["pip"][j]) < 6e-4, (name, pip)
        assert float(width) in widths, (name, width)
        coords = re.findall(r'(\w+)=(-?[0-9.e+-]+)(?: \(([+-][0-9.]+) sd\))?', centre)
        assert coords and len(coords) == min(3, len(doc["inputs"])), centre
        r = data[int(row) - 1]  # gauss@i: the i-th training row
        for inp, val, z in coords:
            want = float(r[inp])
            assert abs(float(val) - want) <= 5e-4 * max(1, abs(want)), (name, inp, val, want)
    coef = text[text.index("\nCoefficients"):text.index("\nDiagnostics")]
    assert "gauss@" not in coef, "a kernel's coefficient is in the table"
    assert "kernels' coefficients are not shown" in coef
    assert "What to trust with a kernel dictionary" in text
    # the widths' unit is the one the kernels saw (standardised inputs or not)
    unit = "width: in standard deviations of the inputs" if doc["standardize"]["applied"] else "width: in the inputs' units"
    assert unit in text, (unit, doc["standardize"]["applied"])
    r = doc["diagnostics"]["rhat_size"]
    assert ("model size's R-hat is %.3f" % r) in text, "the size's R-hat is not quoted"
check(T + "/k1.json", T + "/s1.txt", D + "/regression/sinc_vermaak_train.csv", (0.5, 2.0))
check(T + "/k13.json", T + "/s13.txt", D + "/regression/boston.csv", (2.0,))
lin = open(T + "/slin.txt").read()
assert "Posterior inclusion probabilities" in lin and "Kernels by" not in lin
assert "What to trust" not in lin
coef = lin[lin.index("\nCoefficients"):]
assert re.search(r'^  x3 ', coef, re.M), "the linear fit's coefficient table lost its inputs"
PY
finish
