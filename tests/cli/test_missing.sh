#!/bin/bash
# test_missing.sh: missing values (an empty cell or NA) under --na error
# (the default: the first one named, the rows counted) and --na drop (those
# rows left out, counted in FIT.json), and a cell that is present but not a
# number, which is an error under both.
source "$(dirname "$0")/lib.sh" "$1"
D=data/linear/lin_p15_n200.csv
head -41 "$D" | sed '5s/^[^,]*,/,/; 9s/,[^,]*,/,NA,/' > "$T/na.csv"
head -41 "$D" | sed '5s/^[^,]*,/,/; 9s/,[^,]*,/,abc,/' > "$T/bad.csv"
head -41 "$D" | sed '5d; 9d' > "$T/complete.csv"

expect 2 "na.csv:5:1: column 'x1': the value is missing; 2 of 40 rows have a missing value in the columns used \(--na drop" \
    -- "$BASEL" fit "$T/na.csv" --method enumerate -o "$T/f.json"
expect 0 "" -- "$BASEL" fit "$T/na.csv" --method enumerate --na drop --quiet -o "$T/drop.json"
expect 0 '"rows_dropped": 2' -- cat "$T/drop.json"
expect 0 '"na": "drop"' -- cat "$T/drop.json"
# the rows left out are said, after the fit and in its summary
expect 0 "basel: 2 training rows with a missing value left out \(--na drop\)" -- "$BASEL" fit "$T/na.csv" --method enumerate --na drop --seed 1 -o "$T/drop2.json"
expect 0 "^2 rows with a missing value left out \(--na drop\)$" -- "$BASEL" summary "$T/drop.json"
# dropping the two rows is the same fit as the file without them
expect 0 "" -- "$BASEL" fit "$T/complete.csv" --method enumerate --quiet -o "$T/complete.json"
expect 0 "same pip" -- /usr/bin/python3 -c "
import json, sys
a = json.load(open('$T/drop.json')); b = json.load(open('$T/complete.json'))
ok = a['pip'] == b['pip'] and a['n'] == b['n'] == 38
print('same pip' if ok else 'different'); sys.exit(0 if ok else 1)"
expect 2 "bad.csv:9:[0-9]+: input column 'x2': 'abc' is not a number" -- "$BASEL" fit "$T/bad.csv" --method enumerate --na drop -o "$T/f.json"
expect 2 "--na 'keep': expected one of error,drop" -- "$BASEL" fit "$T/na.csv" --na keep -o "$T/f.json"
finish
