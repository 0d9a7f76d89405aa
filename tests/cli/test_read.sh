#!/bin/bash
# test_read.sh: reading large inputs (issue 34 item 4, issue 29 item 4): a
# CSV on a pipe is read in one pass in memory bounded by the table it
# builds, SIGTERM ends the reading promptly, and a NumPy .npy design (with
# --target-file) gives the same fit as the same numbers in a CSV. The .npy
# files are written here by plain Python (no numpy needed).
source "$(dirname "$0")/lib.sh" "$1"
BASEL=$(realpath "$BASEL")
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# ------------------------------------------------- SIGTERM while reading

# An endless CSV on a pipe (a FIFO, so that $! is basel's own process id):
# the signal at 1 s must end the process within 2 s, with exit 3, the
# interruption named, and no FIT.json or temporary file left.
mkdir "$T/term"
mkfifo "$T/term/in"
(
    echo a,b,y
    exec yes 1,2,3
) > "$T/term/in" 2> /dev/null &
writer=$!
"$BASEL" fit - -o "$T/term/fit.json" --quiet < "$T/term/in" > /dev/null 2> "$T/term.err" &
pid=$!
sleep 1
t0=$(date +%s%N)
kill -TERM $pid
wait $pid
rc=$?
t1=$(date +%s%N)
kill $writer 2> /dev/null
wait $writer 2> /dev/null
ms=$(((t1 - t0) / 1000000))
if [ "$rc" -eq 3 ]; then ok; else bad "SIGTERM while reading: exit $rc, expected 3 ($(head -c 300 "$T/term.err"))"; fi
if [ "$ms" -lt 2000 ]; then ok; else bad "SIGTERM while reading: ended after $ms ms"; fi
if grep -q "interrupted by signal 15; no FIT.json written" "$T/term.err"; then ok; else bad "SIGTERM: $(cat "$T/term.err")"; fi
if [ "$(ls -A "$T/term")" = "in" ]; then ok; else bad "SIGTERM left files: $(ls -A "$T/term")"; fi

# ------------------------------------------------------- memory of a pipe

# A million rows of 20 numbers (x1 .. x19, y: a table of 160 MB of
# doubles) from a pipe, about 190 MB of text: 400 distinct rows of 6-digit
# numbers, y = x1 + x2 - x3 + noise, repeated (one argument of yes, under
# its 128 KB limit). bd for one iteration reads them, sets up the problem
# and the design, and fits. The peak RSS of the whole run stays under twice
# the table plus 64 MB (the program, the read buffer and the reader's last
# segment of rows, the targets' copies), and under 1.5 times the table plus
# 64 MB: the fit takes the table's numbers as its inputs
# (basel_fit_run_take) instead of copying them beside it (251 MB here). A
# fit that copies them (basel fit before it: 407 MB) fails both, as does a
# reader that holds the text.
# (not in an AddressSanitizer build, whose allocator keeps freed memory in
# quarantine and adds redzones: the release build runs this check)
if [ -x /usr/bin/time ] && ! ldd "$BASEL" | grep -q libasan; then
    ROWS=1000000
    block=$(awk 'BEGIN {
        srand(29)
        for (i = 0; i < 400; i++) {
            y = 0
            for (j = 1; j <= 19; j++) {
                x = sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand())
                y += j <= 2 ? x : j == 3 ? -x : 0
                printf "%.6g,", x
            }
            printf "%.6g%s", y + rand() - 0.5, i < 399 ? "\n" : ""
        }
    }')
    header=$(seq 19 | awk '{printf "x%d,", NR} END {printf "y"}')
    (
        echo "$header"
        yes -- "$block" | head -n $ROWS
    ) | /usr/bin/time -f "%M" -o "$T/rss" "$BASEL" fit - --method bd --iter 1 --burn 0 --chains 1 --threads 1 \
        --seed 1 --quiet -o "$T/rss.json" > /dev/null 2> "$T/rss.err"
    rss_kb=$(tail -1 "$T/rss")
    table_kb=$((ROWS * 20 * 8 / 1024))
    if grep -q "\"n\": $ROWS," "$T/rss.json"; then ok; else bad "RSS run did not fit the whole table: $(head -c 300 "$T/rss.err")"; fi
    for limit_kb in $((2 * table_kb + 64 * 1024)) $((3 * table_kb / 2 + 64 * 1024)); do
        if [ -n "$rss_kb" ] && [ "$rss_kb" -lt "$limit_kb" ]; then
            ok
        else
            bad "peak RSS of a ${table_kb} KB table from a pipe: ${rss_kb} KB, limit ${limit_kb} KB"
        fi
    done
fi

# ------------------------------------------------------------ .npy input

# The first 60 rows of lin_p15_n200 as x.npy (C order, float64), as a
# Fortran-order float32-free copy, y.npy (a vector), and as a CSV of the
# same columns x1 .. x15, y: the fits are byte for byte the same.
"$PY" - data/linear/lin_p15_n200.csv "$T" << 'EOF'
import csv, struct, sys
rows = list(csv.reader(open(sys.argv[1])))[1:61]
X = [[float(v) for v in r[:-1]] for r in rows]
y = [float(r[-1]) for r in rows]
n, p = len(X), len(X[0])

def npy(path, descr, shape, fortran, values, fmt):
    head = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shape)
    head += " " * (63 - (10 + len(head)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode())
        f.write(struct.pack(fmt % len(values), *values))

d = sys.argv[2]
npy(d + "/x.npy", "<f8", "(%d, %d)" % (n, p), False, [v for r in X for v in r], "<%dd")
npy(d + "/xf.npy", ">f8", "(%d, %d)" % (n, p), True, [X[i][j] for j in range(p) for i in range(n)], ">%dd")
npy(d + "/y.npy", "<f8", "(%d,)" % n, False, y, "<%dd")
with open(d + "/xy.csv", "w") as f:
    f.write(",".join(["x%d" % (j + 1) for j in range(p)] + ["y"]) + "\n")
    for r, t in zip(X, y):
        f.write(",".join(repr(v) for v in r + [t]) + "\n")
# damaged files
open(d + "/nomagic.npy", "wb").write(b"not an array at all")
npy(d + "/complex.npy", "<c16", "(%d, %d)" % (n, p), False, [0.0] * (2 * n * p), "<%dd")
npy(d + "/cube.npy", "<f8", "(2, 2, 2)", False, [0.0] * 8, "<%dd")
npy(d + "/short.npy", "<f8", "(%d, %d)" % (n, p), False, [0.0] * 10, "<%dd")
open(d + "/header.npy", "wb").write(b"\x93NUMPY\x01\x00\x40\x00{'descr': '<f8'")
EOF
FIT=(--method bd --iter 400 --seed 5 --quiet)
expect 0 "" -- "$BASEL" fit "$T/xy.csv" "${FIT[@]}" -o "$T/csv.json"
expect 0 "" -- "$BASEL" fit "$T/x.npy" --target-file "$T/y.npy" "${FIT[@]}" -o "$T/npy.json"
expect 0 "" -- "$BASEL" fit "$T/xf.npy" --target-file "$T/y.npy" "${FIT[@]}" -o "$T/npyf.json"
if cmp -s "$T/csv.json" "$T/npy.json" && cmp -s "$T/csv.json" "$T/npyf.json"; then ok; else bad ".npy and CSV fits differ"; fi
# stdin carries an array as well as a CSV
expect 0 "" -- bash -c "'$BASEL' fit - --target-file '$T/y.npy' ${FIT[*]} -o '$T/stdin.json' < '$T/x.npy'"
if cmp -s "$T/csv.json" "$T/stdin.json"; then ok; else bad ".npy from stdin differs"; fi
# a target file of the wrong length, or with two columns
cut -d, -f16 data/linear/lin_p15_n200.csv > "$T/y200.csv"
expect 2 "target file has 200 rows, the training file .* has 60" -- \
    "$BASEL" fit "$T/x.npy" --target-file "$T/y200.csv" "${FIT[@]}"
expect 2 "a target file holds one column .* this one has 16" -- \
    "$BASEL" fit "$T/x.npy" --target-file data/linear/lin_p15_n200.csv "${FIT[@]}"
expect 2 "--target-file gives the target of a training file" -- \
    "$BASEL" fit --stats tests/cli/lib.sh --target-file "$T/y.npy"

# damaged .npy files: exit 2, a message naming the file and the fault
expect 2 "nomagic.npy: not a valid .npy file: it does not start with the .npy magic" -- \
    "$BASEL" fit "$T/nomagic.npy"
expect 2 "complex.npy: the .npy values are '<c16'" -- "$BASEL" fit "$T/complex.npy"
expect 2 "cube.npy: the .npy array has 3 dimensions" -- "$BASEL" fit "$T/cube.npy"
expect 2 "short.npy: the .npy file ends after 10 of its 900 values" -- "$BASEL" fit "$T/short.npy"
expect 2 "header.npy: not a valid .npy file: the file ends in its header" -- "$BASEL" fit "$T/header.npy"
for f in nomagic complex cube short header; do
    [ -e "$T/$f.json" ] && bad "$f.npy left a FIT.json"
done
ok

# ------------------------------------------------- --stats with a .npy matrix

# The centred X'X of lin_p15_n200 inline in the JSON and as a .npy file
# named by it give the same fit; a --stats fit without --method picks the
# method the rows would (rj above 1000 inputs: an identity LD matrix of
# 1001 inputs); a .npy of the wrong shape exits 2.
mkdir "$T/sa" "$T/sb" "$T/sc"
"$PY" - data/linear/lin_p15_n200.csv "$T" << 'EOF'
import csv, json, struct, sys
rows = [[float(v) for v in r] for r in list(csv.reader(open(sys.argv[1])))[1:]]
n, p = len(rows), len(rows[0]) - 1
mean = [sum(r[j] for r in rows) / n for j in range(p + 1)]
c = [[r[j] - mean[j] for j in range(p + 1)] for r in rows]
xtx = [[sum(r[a] * r[b] for r in c) for b in range(p)] for a in range(p)]
xty = [sum(r[a] * r[p] for r in c) for a in range(p)]
yty = sum(r[p] * r[p] for r in c)
d = sys.argv[2]
def npy(path, rows_, cols, values):
    head = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (rows_, cols)
    head += " " * (63 - (10 + len(head)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode())
        f.write(struct.pack("<%dd" % len(values), *values))
base = {"n": n, "inputs": ["x%d" % (j + 1) for j in range(p)], "xty": xty, "yty": yty}
json.dump(dict(base, xtx=xtx), open(d + "/sa/stats.json", "w"))
json.dump(dict(base, xtx="xtx.npy"), open(d + "/sb/stats.json", "w"))
npy(d + "/sb/xtx.npy", p, p, [v for r in xtx for v in r])
json.dump(dict(base, xtx="bad.npy"), open(d + "/sb/bad.json", "w"))
npy(d + "/sb/bad.npy", p, p - 1, [1.0] * (p * (p - 1)))
q = 1001
json.dump({"n": 2000, "inputs": ["x%d" % (j + 1) for j in range(q)], "ld": "ld.npy",
           "z": [((7 * j) % 11 - 5) / 2.0 for j in range(q)]}, open(d + "/sc/stats.json", "w"))
npy(d + "/sc/ld.npy", q, q, [1.0 if a == b else 0.0 for a in range(q) for b in range(q)])
EOF
expect 0 "" -- bash -c "cd '$T/sa' && '$BASEL' fit --stats stats.json ${FIT[*]} -o ../sa.json"
expect 0 "" -- bash -c "cd '$T/sb' && '$BASEL' fit --stats stats.json ${FIT[*]} -o ../sb.json"
if cmp -s "$T/sa.json" "$T/sb.json"; then ok; else bad "--stats: the .npy X'X and the inline one give different fits"; fi
expect 2 "bad.npy: the .npy array is 15 x 14; expected 15 x 15" -- "$BASEL" fit --stats "$T/sb/bad.json"
expect 0 "" -- "$BASEL" fit --stats "$T/sc/stats.json" --iter 20 --burn 0 --chains 1 --seed 1 --quiet -o "$T/sc.json"
if grep -q '"method": *"rj"' "$T/sc.json"; then ok; else bad "--stats with 1001 inputs did not default to rj"; fi

finish
