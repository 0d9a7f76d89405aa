#!/bin/bash
# pipe.sh: a 1 GB CSV read from a pipe (issues 29 and 34): the reader's
# speed on a file and on a pipe (MB of text per CPU-second), the peak RSS
# of a fit that reads it from stdin against the table's size (n x p x 8
# bytes of doubles, every column), which must stay under 2x, and SIGTERM
# sent 3 s into the reading, which must end the process within a second
# with exit 3 and no output. Not a test (minutes of CPU, 2 GB of memory
# and 1 GB of disk); tests/cli/test_read.sh checks the same at 160 MB.
#   bench/io/pipe.sh [BUILD_DIR] [ROWS] [INPUTS]   (defaults: build 5500000 19)
# The file (make_csv.c: 6-digit numbers, about 183 bytes a row at 20
# columns, so 5.5 million rows are 1.0 GB and an 880 MB table) is written
# in a temporary folder ($TMPDIR) and removed. Exit 1 when a limit fails.
set -euo pipefail
BUILD=${1:-build}
ROWS=${2:-5500000}
INPUTS=${3:-19}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
cc -O2 -o "$D/make_csv" "$(dirname "$0")/make_csv.c" -lm
"$D/make_csv" "$ROWS" "$INPUTS" > "$D/big.csv"
MB=$(stat -c %s "$D/big.csv" | awk '{printf "%.1f", $1 / 1e6}')
TABLE_KB=$((ROWS * (INPUTS + 1) * 8 / 1024))
echo "$ROWS rows x $((INPUTS + 1)) columns: $MB MB of text, a table of $TABLE_KB KB"
status=0

echo "reading alone (bench_read, CPU-s of the read):"
"$BUILD/bench_read" "$D/big.csv" 1 | sed 's/^/  file: /'
cat "$D/big.csv" | "$BUILD/bench_read" - 1 |
    awk -v mb="$MB" '{for (i = 1; i < NF; i++) if ($(i + 1) == "CPU-s,") s = $i}
        END {printf "  pipe: %s CPU-s, %.0f MB per CPU-s\n", s, mb / s}'

# one bd iteration: the method's own memory is small, so the peak is the
# reading's and the set-up's
echo "fit from the pipe (bd, one iteration, one chain):"
cat "$D/big.csv" | /usr/bin/time -f "%U %S %M" -o "$D/time" "$BUILD/basel" fit - --method bd --iter 1 --burn 0 \
    --chains 1 --threads 1 --seed 1 --quiet -o "$D/fit.json"
read -r user sys rss < "$D/time"
ratio=$(awk -v r="$rss" -v t="$TABLE_KB" 'BEGIN {printf "%.2f", r / t}')
echo "  $user user + $sys sys CPU-s, peak RSS $rss KB = ${ratio}x the table"
if awk -v r="$ratio" 'BEGIN {exit !(r >= 2)}'; then
    echo "  FAILED: the peak is not under twice the table"
    status=1
fi

# SIGTERM 3 s into the reading; a FIFO, so that $! is basel itself
echo "SIGTERM 3 s into the reading:"
mkfifo "$D/fifo"
cat "$D/big.csv" > "$D/fifo" 2> /dev/null &
writer=$!
"$BUILD/basel" fit - --method bd --iter 1 --burn 0 --chains 1 --threads 1 --quiet -o "$D/term.json" \
    < "$D/fifo" 2> "$D/term.err" &
pid=$!
sleep 3
t0=$(date +%s%N)
kill -TERM $pid
rc=0
wait $pid || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
kill $writer 2> /dev/null || true
wait $writer 2> /dev/null || true
left=$([ -e "$D/term.json" ] && echo "FIT.json left" || echo "no FIT.json")
echo "  exit $rc after $ms ms (wall), $left: $(cat "$D/term.err")"
if [ "$rc" -ne 3 ] || [ "$ms" -ge 1000 ] || [ -e "$D/term.json" ]; then
    echo "  FAILED: expected exit 3 within 1 s and no output"
    status=1
fi
exit $status
