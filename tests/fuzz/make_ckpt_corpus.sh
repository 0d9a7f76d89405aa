#!/bin/bash
# tests/fuzz/make_ckpt_corpus.sh [path/to/basel]: write the seed corpus of
# tests/fuzz/fuzz_ckpt.c again (after a change of the checkpoint format or
# of basel's version, which make the committed checkpoints foreign): one
# checkpoint of each of the target's six runs, written part-way by
# --checkpoint-every 0.01, then a copy of the rj one cut short and one with
# a bit flipped. The runs' options must be the target's (fuzz_ckpt_runs).
# The other bad-* files are not made here: each was written by a build
# whose chain_io damaged one field as it saved it (so the checksum is
# right), e.g. a NaN precision for bad-mixture-precision-nan.ck; after a
# format change they are still refused, by the header.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build/basel}
C=tests/fuzz/corpus/ckpt
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$C"
one() { # one NAME SEED DATA ARGS...
    local name=$1 seed=$2 data=$3
    shift 3
    "$B" fit "$data" "$@" --chains 1 --threads 1 --seed "$seed" --quiet -o "$T/fit.json" \
        --checkpoint "$T/$name.ck" --checkpoint-every 0.01
    cp "$T/$name.ck" "$C/ok-$name.ck"
}
lin=(data/linear/lin_p15_n200.csv --inputs x1,x2,x3)
one rj 1 "${lin[@]}" --method rj --iter 200000 --burn 1000
one bd 2 "${lin[@]}" --method bd --iter 20000 --burn 200
one ssvs 3 "${lin[@]}" --method ssvs --iter 20000 --burn 200
one rj-poisson 4 data/count/quine.csv --inputs eth_n,sex_m,lrn_sl --method rj --family poisson --iter 5000 --burn 200
one mixture 5 data/classification/pima_tr.csv --inputs npreg,glu,bp --method mixture --iter 600 --burn 100
one rbf 6 data/regression/sinc_vermaak_train.csv --target y --inputs x --method rbf --iter 500 --burn 8000 --kmax 8
n=$(stat -c %s "$C/ok-rj.ck")
head -c $((n / 2)) "$C/ok-rj.ck" > "$C/bad-rj-truncated.ck"
# bit 3 of the byte at two thirds of the file
/usr/bin/python3 - "$C/ok-rj.ck" "$C/bad-rj-bitflip.ck" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[2 * len(b) // 3] ^= 8
open(sys.argv[2], "wb").write(b)
PY
ls -l "$C"
