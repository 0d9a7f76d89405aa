#!/bin/bash
# test_ulimit.sh: under an address-space limit (ulimit -v, RLIMIT_AS, as
# batch schedulers set it) basel never hangs. OpenBLAS's threads used to
# spin on a work buffer they could not map, and exit then waited for them
# for ever (src/cli/main.c one_blas_thread_under_limit); a LAPACK call
# could spin likewise in the middle of a fit (blas_buffer_under_limit).
# Each engine at a limit too small for the fit exits 2 with an
# out-of-memory message well within 10 s; at a limit with room, a fit
# finishes and exits 0.
# Usage: test_ulimit.sh path/to/basel
source tests/cli/lib.sh "$1"
# AddressSanitizer reserves terabytes of address space for its shadow
# memory, so an ASan build cannot start under any such limit: this is the
# release build's test
if ldd "$BASEL" | grep -q libasan; then
    echo "test_ulimit.sh: an ASan build cannot run under ulimit -v; the release build runs this test"
    finish
    exit $?
fi
L=data/linear/lin_p15_n200.csv
S=data/regression/sinc_vermaak_train.csv
P=data/classification/pima_tr.csv

# limited KB STATUS PATTERN ARGS...: basel fit ARGS under ulimit -v KB,
# killed at 10 s (a hang fails: status 137)
limited() {
    local kb=$1 want=$2 pattern=$3
    shift 3
    expect "$want" "$pattern" -- bash -c 'ulimit -v "$1" && shift && exec timeout -s KILL 10 "$@"' _ "$kb" \
        "$BASEL" fit "$@" --seed 1 --quiet -o "$T/u.json"
}
for spec in "enumerate $L" "bd $L" "rj $L" "ssvs $L" "mixture $P --iter 200 --burn 50" \
    "anneal $S --target y --inputs x --iter 2000" "rbf $S --target y --inputs x --iter 2000" \
    "smc $S --target y --inputs x"; do
    set -- $spec
    m=$1
    shift
    limited 150000 2 "out of memory" "$@" --method "$m"
    [ -e "$T/u.json" ] && bad "$m: a FIT.json written under a limit too small" && rm -f "$T/u.json"
done
# with room for OpenBLAS's buffer but not for smc's particles: basel's own out of memory, exit 2
limited 250000 2 "out of memory" $S --target y --inputs x --method smc
# with room: the fit is written and basel exits (it used to hang here, after writing FIT.json)
limited 300000 0 "" $L --method bd --iter 2000
limited 300000 0 "" $L --method ssvs --iter 500
finish
