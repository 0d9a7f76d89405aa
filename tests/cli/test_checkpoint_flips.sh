#!/bin/bash
# test_checkpoint_flips.sh: a damaged checkpoint is refused, never continued.
# A checkpoint carries its format, the version of the basel that wrote it
# and a CRC-32 of its contents (src/run/chains.c). Single-bit flips
# spread over an rj checkpoint with draws (one chain) and over a 2-chain
# one: every restart from a flipped file exits 2, or writes exactly what
# the restart from the intact file writes (exit 0 with another output, or a
# crash, fails the test). Then a file of another version, format, machine
# or run, each refused with exit 2 and a message that says which.
# Usage: test_checkpoint_flips.sh path/to/basel
source tests/cli/lib.sh "$1"
L=data/linear/lin_p15_n200.csv

# make_ckpt NAME ARGS...: run until the first checkpoint is written, then
# SIGINT (exit 3, the state saved in $T/NAME.ckpt); then the restart from
# it, the output every accepted flip must reproduce ($T/NAME.ref.*).
make_ckpt() {
    local name=$1 st i
    shift
    for i in 1 2 3; do
        rm -f "$T/$name.ckpt"
        "$BASEL" fit "$@" --quiet -o "$T/$name.json" --draws "$T/$name.csv" --checkpoint "$T/$name.ckpt" \
            --checkpoint-every 0.05 2> /dev/null &
        local pid=$!
        while [ ! -s "$T/$name.ckpt" ] && kill -0 $pid 2> /dev/null; do sleep 0.02; done
        kill -INT $pid 2> /dev/null
        wait $pid
        st=$?
        [ $st -eq 3 ] && break
    done
    [ $st -eq 3 ] || { bad "$name: no checkpoint made (exit $st)"; return 1; }
    "$BASEL" fit "$@" --quiet -o "$T/$name.ref.json" --draws "$T/$name.ref.csv" --restart "$T/$name.ckpt" ||
        { bad "$name: the restart from the intact checkpoint failed"; return 1; }
}

# flip FILE OFFSET BIT: toggle one bit in place.
flip() {
    local b
    b=$(od -An -tu1 -j"$2" -N1 "$1")
    printf "$(printf '\\%03o' $((b ^ (1 << $3))))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# sweep NAME COUNT ARGS...: COUNT flips, a third in the first 256 bytes (the
# header and the first chain's start), the rest at evenly spread offsets
# over the whole file, the bit cycling through 0-7; each restarted.
sweep() {
    local name=$1 count=$2 i off st refused=0 same=0
    shift 2
    local size
    size=$(stat -c %s "$T/$name.ckpt")
    for ((i = 0; i < count; i++)); do
        if ((i < count / 3)); then off=$((i * 256 / (count / 3)))
        else off=$(((i - count / 3) * (size - 1) / (count - count / 3 - 1))); fi
        cp "$T/$name.ckpt" "$T/f.ckpt"
        flip "$T/f.ckpt" $off $((i % 8))
        rm -f "$T/f.json" "$T/f.csv"
        "$BASEL" fit "$@" --quiet -o "$T/f.json" --draws "$T/f.csv" --restart "$T/f.ckpt" 2> "$T/f.err"
        st=$?
        if [ $st -eq 2 ] && [ ! -e "$T/f.json" ] && grep -Eq "damaged|not a basel checkpoint|format" "$T/f.err"; then
            refused=$((refused + 1))
        elif [ $st -eq 0 ] && cmp -s "$T/f.json" "$T/$name.ref.json" && cmp -s "$T/f.csv" "$T/$name.ref.csv"; then
            same=$((same + 1))
        else
            bad "$name: bit $((i % 8)) of byte $off flipped: exit $st, $(head -c 300 "$T/f.err")"
        fi
    done
    echo "$name: $count flips over $size bytes: $refused refused, $same identical"
    [ $((refused + same)) -eq $count ] && ok
}

if make_ckpt rj $L --method rj --iter 300000 --seed 15; then
    sweep rj 150 $L --method rj --iter 300000 --seed 15
fi
if make_ckpt rj2 $L --method rj --chains 2 --threads 2 --iter 150000 --seed 16; then
    sweep rj2 100 $L --method rj --chains 2 --threads 2 --iter 150000 --seed 16
fi

# rewrite FILE OFFSET HEX: put bytes at OFFSET and make the CRC-32 trailer
# match again (a file that is whole, but not this basel's or this run's).
rewrite() {
    /usr/bin/python3 - "$@" << 'EOF'
import sys, zlib
path, off, new = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
b = bytearray(open(path, "rb").read())
b[off:off + len(new)] = new
b[-4:] = zlib.crc32(bytes(b[:-4])).to_bytes(4, "little")
open(path, "wb").write(b)
EOF
}
run=($L --method rj --iter 300000 --seed 15 --quiet -o "$T/x.json" --restart "$T/x.ckpt")
# the header: magic (8 bytes), format (4, little-endian), version (32), layout word (8)
if [ -f "$T/rj.ckpt" ]; then
    cp "$T/rj.ckpt" "$T/x.ckpt"
    rewrite "$T/x.ckpt" 12 "$(printf '9.9.9' | od -An -tx1 | tr -d ' \n')"
    expect 2 "written by basel 9\.9\.9; this basel \([0-9.]*\) cannot continue it" -- "$BASEL" fit "${run[@]}"
    cp "$T/rj.ckpt" "$T/x.ckpt"
    rewrite "$T/x.ckpt" 8 04000000
    expect 2 "checkpoint is of format 4, which this basel .* cannot read" -- "$BASEL" fit "${run[@]}"
    cp "$T/rj.ckpt" "$T/x.ckpt"
    rewrite "$T/x.ckpt" 8 02000000 # format 2 saved every row of a trace
    expect 2 "checkpoint is of format 2, which this basel .* cannot read" -- "$BASEL" fit "${run[@]}"
    cp "$T/rj.ckpt" "$T/x.ckpt"
    rewrite "$T/x.ckpt" 44 ff
    expect 2 "written on another kind of machine" -- "$BASEL" fit "${run[@]}"
    # format 1 (no format field: the layout word, format 1 in it, after the magic)
    cp "$T/rj.ckpt" "$T/x.ckpt"
    rewrite "$T/x.ckpt" 8 "$(/usr/bin/python3 -c 'import struct; print(struct.pack("<Q", 0x0102030405060708 ^ (8 << 8) ^ (8 << 16) ^ (1 << 32)).hex())')"
    expect 2 "checkpoint is of format 1, written by an earlier basel" -- "$BASEL" fit "${run[@]}"
    expect 2 "checkpoint is of another run" -- "$BASEL" fit $L --method rj --iter 300000 --seed 99 --quiet \
        -o "$T/x.json" --restart "$T/rj.ckpt"
    [ ! -e "$T/x.json" ] && ok || bad "a refused restart wrote $T/x.json"
fi
finish
