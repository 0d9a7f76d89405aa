#!/bin/bash
# test_demo.sh: basel demo, the first thing a user runs, tells the truth
# (issue 30 item 3): each part shows the model average, the prevalence and
# the projection models with their sizes and errors, and no part prints an
# R-hat above 1.1 without a warning in that part.
source "$(dirname "$0")/lib.sh" "$1"
expect 0 "" -- "$BASEL" demo
cp "$T/out" "$T/demo.txt"
for model in "model average" "prevalence model" "projection model"; do
    n=$(grep -c "basel $model " "$T/demo.txt")
    if [ "$n" -eq 2 ]; then ok; else bad "the demo shows the $model $n times, not once per part"; fi
done
# split at the parts' headings ("1. ", "2. "); in each, an R-hat above 1.1
# (the PIP table's last column, or a diagnostics line) needs a WARNING
/usr/bin/python3 - "$T/demo.txt" <<'PY' && ok || bad "a part prints an R-hat above 1.1 without a warning"
import re, sys
text = open(sys.argv[1]).read()
parts = re.split(r'\n(?=[12]\. )', text)[1:]
assert len(parts) == 2, "two parts expected"
for part in parts:
    rhats = [float(x) for x in re.findall(r'R-hat (?:of [^ ]+ )?(?:is )?([0-9]+\.[0-9]+)', part)]
    rhats += [float(m.group(1)) for m in re.finditer(r'^\s+\S+\s+[0-9.]+\s+[#.]+\s+([0-9]+\.[0-9]+)(?:\s|$)', part, re.M)]
    if any(r > 1.1 for r in rhats) and 'WARNING' not in part:
        sys.exit("part %r: R-hat %s without a warning" % (part[:20], max(rhats)))
PY
finish
