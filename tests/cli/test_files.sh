#!/bin/bash
# test_files.sh: what basel does with the files it is given (issue 14,
# "nothing lost, nothing replaced, nothing unbounded"; the reproducers of
# the reliability audit): outputs that are devices, FIFOs, symlinks or
# directories; outputs that are the same file as an input or another
# output; inputs that never end or are not tables; option values that are
# options. Devices and FIFOs are made in the test's own directory (a device
# only when running as root), never in /dev.
source "$(dirname "$0")/lib.sh" "$1"
BASEL=$(realpath "$BASEL")
G="$T/good.csv"
head -41 data/linear/lin_p15_n200.csv | cut -d, -f1-3,16 > "$G"
FIT=(fit "$G" --method enumerate --quiet --seed 1)
BD=(fit "$G" --method bd --iter 50 --quiet --seed 1)
ROOT=0
[ "$(id -u)" -eq 0 ] && ROOT=1
# endless inputs run under a 1 GB address-space limit, which proves the
# memory bounded; sanitizer builds reserve more than that up front
LIMIT="ulimit -v 1000000;"
{ bash -c "$LIMIT '$BASEL' --version"; } > /dev/null 2>&1 || LIMIT=""

# ---------------------------------------------------------------- targets

# a character device is written in place, never replaced by a file
if [ $ROOT -eq 1 ]; then
    mknod -m 666 "$T/null" c 1 3
    mknod -m 666 "$T/full" c 1 7
    expect 0 "" -- "$BASEL" "${FIT[@]}" -o "$T/null"
    if [ -c "$T/null" ]; then ok; else bad "-o a null device replaced it"; fi
    expect 0 "" -- "$BASEL" "${BD[@]}" -o "$T/null" --draws "$T/null"
    if [ -c "$T/null" ]; then ok; else bad "--draws onto a null device replaced it"; fi
    # a full device fails (with the device's own reason when the failure
    # shows at the commit; fit.c's "cannot write" when inside json_dumpf),
    # and stays a device
    expect 2 "basel: $T/full: cannot write" -- "$BASEL" "${FIT[@]}" -o "$T/full"
    if [ -c "$T/full" ]; then ok; else bad "-o a full device replaced it"; fi
    # the draws were written before FIT.json failed: a plain file is taken
    # back, a device is left alone
    expect 2 "cannot write" -- "$BASEL" "${BD[@]}" --draws "$T/d.csv" -o "$T/full"
    if [ ! -e "$T/d.csv" ]; then ok; else bad "draws left behind a failed FIT.json"; fi
    expect 2 "cannot write" -- "$BASEL" "${BD[@]}" --draws "$T/null" -o "$T/full"
    if [ -c "$T/null" ]; then ok; else bad "a failed FIT.json removed the device its draws went to"; fi
    # stdout that cannot be written is an error, not a silent success
    expect 2 "cannot write to stdout: No space left" -- bash -c "'$BASEL' fit '$G' --method enumerate --quiet > '$T/full'"
    # an input that never ends and is not a table: refused at once, in bounded memory
    mknod "$T/zero" c 1 5
    expect 2 "basel: $T/zero:1:1: the text contains a NUL byte" -- bash -c "$LIMIT timeout 60 '$BASEL' fit '$T/zero' -o '$T/z.json'"
fi

# a FIFO's reader gets the fit, and the FIFO stays a FIFO
mkfifo "$T/fifo"
(timeout 60 cat "$T/fifo" > "$T/from_fifo") &
reader=$!
expect 0 "" -- timeout 60 "$BASEL" "${FIT[@]}" -o "$T/fifo"
wait $reader
if [ -p "$T/fifo" ]; then ok; else bad "-o a FIFO replaced it"; fi
expect 0 '"method": "enumerate"' -- cat "$T/from_fifo"

# a symlink is followed: its target is replaced, the link stays a link
echo '{"old": true}' > "$T/real.json"
ln -s real.json "$T/link.json"
expect 0 "" -- "$BASEL" "${FIT[@]}" -o "$T/link.json"
if [ -L "$T/link.json" ]; then ok; else bad "-o a symlink replaced the link"; fi
expect 0 '"method": "enumerate"' -- cat "$T/real.json"
# a dangling link gets its target made
ln -s new.json "$T/dangling.json"
expect 0 "" -- "$BASEL" "${FIT[@]}" -o "$T/dangling.json"
if [ -L "$T/dangling.json" ] && [ -f "$T/new.json" ]; then ok; else bad "-o a dangling link"; fi
# /dev/stdout is the process's stdout, not a file to replace
expect 0 '"method": "enumerate"' -- "$BASEL" "${FIT[@]}" -o /dev/stdout

# a replaced file keeps its mode
echo old > "$T/private.json"
chmod 600 "$T/private.json"
expect 0 "^600$" -- bash -c "umask 022 && '$BASEL' fit '$G' --method enumerate --quiet -o '$T/private.json' && stat -c %a '$T/private.json'"
echo old > "$T/shared.csv"
chmod 664 "$T/shared.csv"
expect 0 "^664$" -- bash -c "umask 077 && '$BASEL' fit '$G' --method bd --iter 50 --quiet -o '$T/s.json' --draws '$T/shared.csv' && stat -c %a '$T/shared.csv'"

# a directory, or a socket, is refused before any work
mkdir "$T/dir"
expect 2 "basel: $T/dir: cannot write: is a directory" -- "$BASEL" "${FIT[@]}" -o "$T/dir"
expect 2 "basel: $T/dir: cannot write: is a directory" -- "$BASEL" predict "$T/s.json" "$G" -o "$T/dir"
if python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$T/sock" 2> /dev/null; then
    expect 2 "basel: $T/sock: cannot write: is a socket" -- "$BASEL" "${FIT[@]}" -o "$T/sock"
    if [ -S "$T/sock" ]; then ok; else bad "-o a socket replaced it"; fi
fi

# temporary files left by killed runs are removed once their process is
# gone; a live process's, or another host's, are kept
host=$(hostname | tr -c 'A-Za-z0-9-\n' '_' | cut -c1-32)
sleep 0 &
dead=$!
wait $dead
mkdir "$T/stale"
touch "$T/stale/.f.json.basel-tmp.$host.$dead.0badc0de" "$T/stale/.f.json.basel-tmp.$host.$$.0badc0de" \
      "$T/stale/.f.json.basel-tmp.elsewhere.$dead.0badc0de" "$T/stale/.g.json.basel-tmp.$host.$dead.0badc0de"
expect 0 "" -- "$BASEL" "${FIT[@]}" -o "$T/stale/f.json"
left=$(cd "$T/stale" && ls -A | grep -c basel-tmp)
if [ ! -e "$T/stale/.f.json.basel-tmp.$host.$dead.0badc0de" ] && [ "$left" -eq 3 ]; then ok
else bad "stale temporaries: $(ls -A "$T/stale")"; fi
# ... and beside a checkpoint, even by a run that ends before its first
# checkpoint write (the one that would have opened the path)
touch "$T/stale/.c.ckpt.basel-tmp.$host.$dead.0badc0de"
expect 0 "" -- "$BASEL" fit "$G" --method bd --iter 500 --quiet --seed 1 --checkpoint "$T/stale/c.ckpt" -o "$T/stale/c.json"
if [ ! -e "$T/stale/.c.ckpt.basel-tmp.$host.$dead.0badc0de" ]; then ok
else bad "a dead run's checkpoint temporary was left: $(ls -A "$T/stale")"; fi

# the draws' temporary files go to TMPDIR: one that cannot be written is
# named, with the system's reason, and nothing is written
expect 2 "cannot create a temporary file for the draws in $T/no-such-dir: No such file" -- \
    env TMPDIR="$T/no-such-dir" "$BASEL" fit "$G" --method bd --iter 500 --quiet --seed 1 --draws "$T/td.csv" -o "$T/td.json"
if [ ! -e "$T/td.csv" ] && [ ! -e "$T/td.json" ]; then ok; else bad "TMPDIR failure left outputs"; fi
mkdir "$T/scratch"
expect 0 "" -- env TMPDIR="$T/scratch" "$BASEL" fit "$G" --method bd --iter 500 --quiet --seed 1 --draws "$T/td.csv" -o "$T/td.json"
if [ -s "$T/td.csv" ] && [ -z "$(ls -A "$T/scratch")" ]; then ok; else bad "draws with TMPDIR: $(ls -A "$T/scratch")"; fi

# ---------------------------------------------------- outputs onto inputs

cp "$G" "$T/same.csv"
cp "$G" "$T/orig.csv"
expect 2 "basel: $T/same.csv: -o is the same file as the training file '$T/same.csv'" -- "$BASEL" fit "$T/same.csv" -o "$T/same.csv"
expect 2 "basel: $T/same.csv: --draws is the same file as the training file" -- "$BASEL" fit "$T/same.csv" --method bd --draws "$T/same.csv" -o "$T/x.json"
ln -s same.csv "$T/same_link.csv"
ln "$T/same.csv" "$T/same_hard.csv"
expect 2 "-o is the same file as the training file" -- "$BASEL" fit "$T/same.csv" -o "$T/same_link.csv"
expect 2 "-o is the same file as the training file" -- "$BASEL" fit "$T/same.csv" -o "$T/same_hard.csv"
if cmp -s "$T/same.csv" "$T/orig.csv"; then ok; else bad "the training file was changed"; fi
# refused before the data is even read: a broken input is not reached
printf 'a,b\n1\n' > "$T/ragged.csv"
expect 2 "-o is the same file as the training file" -- "$BASEL" fit "$T/ragged.csv" -o "$T/ragged.csv"
# two outputs on one file, existing or not
expect 2 "basel: $T/x.csv: --draws is the same file as -o '$T/x.csv'; each output needs a file of its own" -- "$BASEL" fit "$G" --method bd --draws "$T/x.csv" -o "$T/x.csv"
expect 2 "each output needs a file of its own" -- "$BASEL" fit "$G" --method bd --draws "$T/dir/../x.csv" -o "$T/x.csv"
if [ ! -e "$T/x.csv" ]; then ok; else bad "a refused run wrote its output"; fi
expect 2 "--draws is the same file as -o '-'" -- "$BASEL" fit "$G" --method bd --draws - -o -
# smc: --running is an output, --resume an input
awk -F, 'NR == 1 || $1 == 1 {print $2 "," $3}' data/regression/sinc_vermaak_train.csv > "$T/v.csv"
SMC=(fit "$T/v.csv" --method smc --basis gauss:r=1.131 --particles 20 --seed 4 --quiet)
expect 2 "--running is the same file as the training file" -- "$BASEL" "${SMC[@]}" --running "$T/v.csv" -o "$T/v.json"
expect 2 "--running is the same file as -o" -- "$BASEL" "${SMC[@]}" --running "$T/v.json" -o "$T/v.json"
expect 0 "" -- "$BASEL" "${SMC[@]}" -o "$T/v.json"
expect 2 "-o is the same file as --resume" -- "$BASEL" "${SMC[@]}" --resume "$T/v.json" -o "$T/v.json"
# predict: -o onto the fit or the test file
expect 0 "" -- "$BASEL" "${FIT[@]}" -o "$T/fit.json"
cp "$T/fit.json" "$T/fit_orig.json"
expect 2 "basel: $T/fit.json: -o is the same file as the fit '$T/fit.json'" -- "$BASEL" predict "$T/fit.json" "$G" -o "$T/fit.json"
expect 2 "-o is the same file as the test file" -- "$BASEL" predict "$T/fit.json" "$T/same.csv" -o "$T/same_link.csv"
if cmp -s "$T/fit.json" "$T/fit_orig.json"; then ok; else bad "predict changed the fit"; fi
# reading stdin and writing stdout is no collision
expect 0 "^y_mean" -- bash -c "'$BASEL' predict '$T/fit.json' - -o - < '$G'"

# ------------------------------------------------------------------ reads

# endless input that is not a table: refused while it streams, in bounded memory
expect 2 "basel: <stdin>:1:1: the text contains a NUL byte" -- bash -c "$LIMIT head -c 200000000 /dev/zero | timeout 60 '$BASEL' fit - -o '$T/z.json'"
expect 2 "basel: <stdin>:1:1: a line longer than 16777216 bytes" -- bash -c "$LIMIT yes 'aaaaaaa,' | tr -d '\n' | timeout 60 '$BASEL' fit - -o '$T/z.json'"
expect 2 "basel: <stdin>:2:3: a field longer than 65536 bytes \(the limit\); is a quote left open" -- bash -c "$LIMIT { echo a,y; printf '1,\"'; yes x; } | timeout 60 '$BASEL' fit - -o '$T/z.json'"
if [ ! -e "$T/z.json" ]; then ok; else bad "a refused input left an output"; fi
# another delimiter: a hint
tr , ';' < "$G" > "$T/semi.csv"
expect 2 "basel: $T/semi.csv:1:1: the header has one column, 'x1;x2;x3;y'; is the delimiter ';'\?" -- "$BASEL" "${FIT[@]/$G/$T/semi.csv}" -o "$T/f.json"
tr , '\t' < "$G" > "$T/tab.csv"
expect 2 "basel: $T/tab.csv:1:1: .*is the delimiter a tab\?" -- "$BASEL" predict "$T/fit.json" "$T/tab.csv"
# CR-only line ends are read as lines
tr '\n' '\r' < "$G" > "$T/cr.csv"
expect 0 "" -- "$BASEL" fit "$T/cr.csv" --method enumerate --quiet --seed 1 -o "$T/cr.json"
if cmp -s "$T/cr.json" "$T/fit.json"; then ok; else bad "a CR-only file fits differently"; fi
printf 'a,b,y\r1,2,3\r\n4,5,6\r\n' > "$T/mixed.csv"
expect 2 "basel: $T/mixed.csv:2:1: this line ends in CR LF, but the first one in CR alone" -- "$BASEL" fit "$T/mixed.csv"
# an output whose directory does not exist, or is a file: refused before
# any work (a long run's result, or its checkpoint at Ctrl-C, would be lost)
expect 2 "basel: $T/nodir/f.json: cannot write: its directory $T/nodir does not exist" -- "$BASEL" "${BD[@]}" -o "$T/nodir/f.json"
expect 2 "basel: $T/nodir/c.ckpt: cannot write: its directory $T/nodir does not exist" -- "$BASEL" "${BD[@]}" -o "$T/c.json" --checkpoint "$T/nodir/c.ckpt"
expect 2 "basel: $G/d.csv: cannot write: $G is not a directory" -- "$BASEL" "${BD[@]}" -o "$T/c.json" --draws "$G/d.csv"
expect 2 "cannot write: its directory $T/nodir does not exist" -- "$BASEL" predict "$T/fit.json" "$G" -o "$T/nodir/p.csv"
if [ ! -e "$T/c.json" ]; then ok; else bad "a refused run wrote its FIT.json"; fi
# directories as inputs
expect 2 "basel: $T/dir: is a directory" -- "$BASEL" summary "$T/dir"
expect 2 "basel: $T/dir: is a directory" -- "$BASEL" predict "$T/dir" "$G"
expect 2 "basel: $T/dir: is a directory" -- "$BASEL" fit "$T/dir"

# ---------------------------------------------------------------- options

expect 2 "--target needs a value, but the next argument is the option '--iter' \(write --target=VALUE" -- "$BASEL" fit "$G" --target --iter 500
expect 2 "target column '--iter' is not in the header" -- "$BASEL" fit "$G" --target=--iter
expect 2 "-o needs a value, but the next argument is the option '--draws'" -- "$BASEL" fit "$G" -o --draws d.csv
expect 2 "--iter needs a value$" -- "$BASEL" fit "$G" --iter
# a short option is not a value: --seed -o FILE is --seed with none
expect 2 "--seed needs a value, but the next argument is the option '-o'" -- "$BASEL" fit "$G" --seed -o "$T/a.json"
expect 2 "--iter is given twice" -- "$BASEL" fit "$G" --iter 100 --iter 200
expect 2 "--iter is given twice" -- "$BASEL" fit "$G" --iter=100 --iter 200
expect 2 "--output is given twice" -- "$BASEL" fit "$G" -o "$T/a.json" --output "$T/b.json"
expect 2 "--interval is given twice" -- "$BASEL" predict "$T/fit.json" "$G" --interval 0.5 --interval 0.9
expect 2 "--model needs a value, but the next argument is the option '--interval'" -- "$BASEL" predict "$T/fit.json" "$G" --model --interval 0.5
expect 0 "^y_mean" -- "$BASEL" predict "$T/fit.json" "$G" --model=hpm --interval=0.5
expect 2 "unknown option '--colour=red'" -- "$BASEL" predict "$T/fit.json" "$G" --colour=red
finish
