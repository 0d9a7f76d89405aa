#!/bin/bash
# test_predict_output.sh: what predict writes (issue 19): rows with a missing
# input keep their place with empty fields and one warning; --id copies a
# key column (any text) first; --digits N sets the precision, and the default
# is the shortest text that reads back as the same double; -o - is stdout;
# summary - and predict - read stdin; coef --digits; --interval none.
source "$(dirname "$0")/lib.sh" "$1"
D=data/linear/lin_p15_n200.csv
head -41 "$D" > "$T/test.csv"
# line 5: x1 empty; line 9: x2 NA; line 12: y (not an input) empty
sed '5s/^[^,]*,/,/; 9s/,[^,]*,/,NA,/; 12s/,[^,]*$/,/' "$T/test.csv" > "$T/na.csv"
sed '9s/,[^,]*,/,abc,/' "$T/test.csv" > "$T/text.csv"
sed '2,$s/,[^,]*,/,NA,/' "$T/test.csv" > "$T/allna.csv"
# a key column of text, with a comma inside quotes and a number-like key
awk -F, 'NR == 1 {print "key," $0; next} {printf "\"r%d, %s\",%s\n", NR - 1, (NR % 2 ? "odd" : "even"), $0}' \
    "$T/test.csv" > "$T/keyed.csv"
expect 0 "" -- "$BASEL" fit "$D" --method enumerate --quiet -o "$T/f.json"

# missing inputs: 2 rows (lines 5 and 9) empty, the rest as predicted alone
expect 0 "2 of 40 rows have a missing input \(the first: line 5, column 'x1'\); their predictions are left empty" \
    -- "$BASEL" predict "$T/f.json" "$T/na.csv" -o "$T/na_pred.csv"
expect 0 "" -- "$BASEL" predict "$T/f.json" "$T/test.csv" -o "$T/full_pred.csv"
expect 0 "rows kept in place" -- /usr/bin/python3 -c "
import sys
na = open('$T/na_pred.csv').read().splitlines(); full = open('$T/full_pred.csv').read().splitlines()
ok = len(na) == len(full) == 41 and na[0] == full[0]
for i in range(1, 41):   # data row i is line i + 1 of the test file
    want = ',,' if i + 1 in (5, 9) else full[i]
    ok = ok and na[i] == want
print('rows kept in place' if ok else 'rows moved or changed'); sys.exit(0 if ok else 1)"
# one warning line, not one per row
expect 0 "^1$" -- sh -c "'$BASEL' predict '$T/f.json' '$T/na.csv' 2>&1 >/dev/null | grep -c warning"
# a cell that is present but not a number is still an error, named
expect 2 "text.csv:9:[0-9]+: input column 'x2': 'abc' is not a number" -- "$BASEL" predict "$T/f.json" "$T/text.csv"
expect 2 "allna.csv:2: every row has a missing input \(the first: column 'x2'\): nothing to predict" \
    -- "$BASEL" predict "$T/f.json" "$T/allna.csv"

# a categorical input (a text column, issue 19 item 5) with a missing level
/usr/bin/python3 -c "
import random
random.seed(1)
with open('$T/cat.csv', 'w') as f, open('$T/cat_te.csv', 'w') as t:
    f.write('x,g,y\n'); t.write('x,g\n')
    for i in range(60):
        x = random.gauss(0, 1); g = 'abc'[i % 3]
        f.write('%r,%s,%r\n' % (x, g, x + (g == 'b') + random.gauss(0, 0.3)))
        if i < 6: t.write('%r,%s\n' % (x, 'NA' if i == 4 else g))"
expect 0 "" -- "$BASEL" fit "$T/cat.csv" --method enumerate --quiet -o "$T/cat.json"
expect 0 "1 of 6 rows has a missing input \(the first: line 6, column 'g'\); its prediction is left empty" \
    -- "$BASEL" predict "$T/cat.json" "$T/cat_te.csv" -o "$T/cat_pred.csv"
expect 0 "^,,$" -- sed -n 6p "$T/cat_pred.csv"
expect 0 "^[-0-9.e]+,[-0-9.e]+,[-0-9.e]+$" -- sed -n 7p "$T/cat_pred.csv"

# --id: the key column first, verbatim (quoted when it holds a comma)
expect 0 "" -- "$BASEL" predict "$T/f.json" "$T/keyed.csv" --id key -o "$T/keyed_pred.csv"
expect 0 "ids copied" -- /usr/bin/python3 -c "
import csv, sys
rows = list(csv.reader(open('$T/keyed_pred.csv'))); src = list(csv.reader(open('$T/keyed.csv')))
full = list(csv.reader(open('$T/full_pred.csv')))
ok = rows[0] == ['key'] + full[0] and len(rows) == 41
ok = ok and all(r[0] == s[0] and r[1:] == f for r, s, f in zip(rows[1:], src[1:], full[1:]))
print('ids copied' if ok else 'ids wrong'); sys.exit(0 if ok else 1)"
expect 0 "^x1,y_mean" -- "$BASEL" predict "$T/f.json" "$T/test.csv" --id x1   # an input as the key
expect 2 "keyed.csv:1: --id 'nokey': no such column in the header" -- "$BASEL" predict "$T/f.json" "$T/keyed.csv" --id nokey
expect 2 "--id 'nokey'" -- "$BASEL" predict "$T/f.json" "$T/keyed.csv" --id nokey -o "$T/never.csv"
expect 1 "" -- test -e "$T/never.csv"
# a key named like an output column would write that name twice in the header
sed '1s/^key,/y_mean,/' "$T/keyed.csv" > "$T/keyed_clash.csv"
expect 2 "--id 'y_mean': the predictions have a column of that name" -- \
    "$BASEL" predict "$T/f.json" "$T/keyed_clash.csv" --id y_mean -o "$T/never.csv"
expect 1 "" -- test -e "$T/never.csv"

# --digits: N significant digits; the default reads back exactly and is no
# longer than the shortest exact text (Python's repr, the shortest round trip)
expect 0 "" -- "$BASEL" predict "$T/f.json" "$T/test.csv" --digits 17 -o "$T/p17.csv"
expect 0 "" -- "$BASEL" predict "$T/f.json" "$T/test.csv" --digits 6 -o "$T/p6.csv"
expect 0 "digits ok" -- /usr/bin/python3 -c "
import sys
def rows(f): return [l.split(',') for l in open(f).read().splitlines()[1:]]
def sig(t): return len(t.lower().split('e')[0].lstrip('-').replace('.', '').lstrip('0'))
d, x, s = rows('$T/full_pred.csv'), rows('$T/p17.csv'), rows('$T/p6.csv')
ok = True
for rd, rx, rs in zip(d, x, s):
    for a, b, c in zip(rd, rx, rs):
        v = float(b)
        ok = ok and float(a) == v and sig(a) <= sig(repr(v)) and c == '%.6g' % v
print('digits ok' if ok else 'digits wrong'); sys.exit(0 if ok else 1)"
expect 0 "shorter" -- sh -c "[ \$(wc -c < '$T/full_pred.csv') -lt \$(wc -c < '$T/p17.csv') ] && echo shorter"
expect 2 "--digits '0': expected a whole number from 1 to 17" -- "$BASEL" predict "$T/f.json" "$T/test.csv" --digits 0
expect 2 "--digits '18'" -- "$BASEL" predict "$T/f.json" "$T/test.csv" --digits=18
expect 2 "--digits 'six'" -- "$BASEL" coef "$T/f.json" --digits six
expect 0 "^\(Intercept\),y,1,[0-9.]{1,4},[0-9.e-]+," -- "$BASEL" coef "$T/f.json" --digits 3

# --interval none: the means only, equal to the mean column with intervals;
# missing rows still keep their place; no --interval-kind with it
expect 0 "" -- "$BASEL" predict "$T/f.json" "$T/na.csv" --interval none -o "$T/none.csv"
expect 0 "means only" -- /usr/bin/python3 -c "
import csv, sys
none = list(csv.reader(open('$T/none.csv'))); na = list(csv.reader(open('$T/na_pred.csv')))
ok = none[0] == ['y_mean'] and len(none) == len(na) == 41
ok = ok and all(a == [b[0]] for a, b in zip(none[1:], na[1:]))  # a missing row: \"\", not a blank line
print('means only' if ok else 'wrong'); sys.exit(0 if ok else 1)"
expect 2 "--interval none gives no interval, so --interval-kind has nothing to set" \
    -- "$BASEL" predict "$T/f.json" "$T/test.csv" --interval none --interval-kind mean -o "$T/none2.csv"
expect 1 "" -- test -e "$T/none2.csv"
expect 2 "--interval 'nothing': expected a probability in \(0, 1\) or none" \
    -- "$BASEL" predict "$T/f.json" "$T/test.csv" --interval nothing

# -o - is stdout, byte for byte the file; summary - and predict - read stdin
expect 0 "" -- sh -c "'$BASEL' predict '$T/f.json' '$T/test.csv' -o - > '$T/stdout.csv'"
expect 0 "" -- cmp "$T/stdout.csv" "$T/full_pred.csv"
expect 0 "" -- sh -c "'$BASEL' predict - '$T/test.csv' < '$T/f.json' | cmp - '$T/full_pred.csv'"
expect 0 "" -- sh -c "'$BASEL' summary '$T/f.json' > '$T/s1.txt' && '$BASEL' summary - < '$T/f.json' > '$T/s2.txt'"
expect 0 "" -- cmp "$T/s1.txt" "$T/s2.txt"
expect 0 "basel enumerate fit of y" -- cat "$T/s2.txt"

# the model average's intervals come from the kept models' prefix tree
# (pred_trie.c), or from each model's V when the tree is refused, as for a
# model listed twice: the first model split in two entries of half its
# weight is the same mixture, so the two paths give the same intervals
expect 0 "" -- "$BASEL" fit "$D" --seed 2 --quiet -o "$T/bd.json"
expect 0 "" -- /usr/bin/python3 -c "
import json
d = json.load(open('$T/bd.json'))
p = d['engine']['predictor']['bma']['posterior']
p['models'].append(list(p['models'][0]))
p['weights'][0] /= 2
p['weights'].append(p['weights'][0])
json.dump(d, open('$T/bd_twice.json', 'w'))"
expect 0 "" -- "$BASEL" predict "$T/bd.json" "$D" -o "$T/tree.csv"
expect 0 "" -- "$BASEL" predict "$T/bd_twice.json" "$D" -o "$T/twice.csv"
expect 0 "the same intervals" -- /usr/bin/python3 -c "
import csv, sys
a = list(csv.DictReader(open('$T/tree.csv'))); b = list(csv.DictReader(open('$T/twice.csv')))
worst = max(abs(float(r[k]) - float(s[k])) / (float(r['y_upper']) - float(r['y_lower']))
            for r, s in zip(a, b) for k in r)
ok = len(a) == len(b) == 200 and worst < 1e-9
print('the same intervals' if ok else 'differ by %g of the width' % worst); sys.exit(0 if ok else 1)"
finish
