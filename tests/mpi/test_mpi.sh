#!/bin/bash
# test_mpi.sh: chains across MPI processes (issue 18 item 5; README "More
# than one machine"). Run by ctest only in the MPI build (label mpi):
#   bash tests/mpi/test_mpi.sh build-mpi/basel /usr/bin/mpiexec
# Four processes on one machine (--oversubscribe): chain c runs on rank
# c mod 4 and rank 0 loads the others' states, so FIT.json and the draws
# are byte-identical to the one-process fit with the same chains and seed,
# for rj, bd and ssvs, with 4 chains and with 6 (ranks 0 and 1 run two),
# rj's informed moves with candidate sets on a streamed design, genotypes
# from a .bed held as 2-bit codes, and mixture, rbf and anneal with 4.
# --column-blocks (a .bed's variants in blocks, one per process): the
# one-process document from 2 and 4 processes, rj and bd.
# Bad input through mpirun: exit 2, no output file, no hang (timeout), also
# when only some ranks fail (mpirun's MPMD form A : B). What a command
# prints (--help, a fit's summary) comes once, from rank 0.
source "$(dirname "$0")/../cli/lib.sh" "$1"
MPIRUN=${2:-mpirun}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_WAIT_POLICY=passive OPENBLAS_NUM_THREADS=1
LIN=data/linear/lin_p15_n200.csv
mpi() { timeout 120 "$MPIRUN" --oversubscribe "$@"; }

for method in rj bd ssvs; do
    for chains in 4 6; do
        args=(fit "$LIN" --target y --method "$method" --chains "$chains" --seed 29 --quiet)
        expect 0 "" -- "$BASEL" "${args[@]}" -o "$T/one.json" --draws "$T/one.csv"
        # BASEL_MPI_VERBOSE: rank 0 says what each rank sent, so the chains did travel
        expect 0 "rank 3 sent its chains \([0-9]+ bytes\)" -- env BASEL_MPI_VERBOSE=1 \
            timeout 120 "$MPIRUN" --oversubscribe -np 4 "$BASEL" "${args[@]}" -o "$T/four.json" --draws "$T/four.csv"
        expect 0 "" -- cmp "$T/one.json" "$T/four.json"
        expect 0 "" -- cmp "$T/one.csv" "$T/four.csv"
        rm -f "$T/four.json" "$T/four.csv"
    done
done
# rj's informed moves on a streamed design (1200 inputs, --gram-memory 1),
# with candidate sets after burn-in: one process shares its Gram rows
# between the chains, four processes do not; the values are the same
python3 tests/cli/wide_csv.py 1200 200 4 3 > "$T/w1200.csv"
args=(fit "$T/w1200.csv" --method rj --gram-memory 1 --rj-candidates 100 --iter 600 --burn 150 --chains 4 --seed 31 --quiet)
expect 0 "" -- "$BASEL" "${args[@]}" -o "$T/one.json"
expect 0 "rank 3 sent its chains" -- env BASEL_MPI_VERBOSE=1 \
    timeout 120 "$MPIRUN" --oversubscribe -np 4 "$BASEL" "${args[@]}" -o "$T/four.json"
expect 0 "" -- cmp "$T/one.json" "$T/four.json"
expect 0 "candidates 100 of 1200 atoms" -- python3 -c "import json; print(json.load(open('$T/one.json'))['diagnostics']['note'])"
rm -f "$T/four.json"
# genotypes from a .bed held as 2-bit codes (--gram-memory 1: 4.8 MB of
# doubles): every process reads them as one process does, the same document
/usr/bin/python3 tests/cli/geno_bed.py "$T/g" 300 2000 5
args=(fit "$T/g.bed" --method rj --gram-memory 1 --iter 600 --chains 4 --seed 33 --quiet)
expect 0 "" -- "$BASEL" "${args[@]}" -o "$T/one.json"
expect 0 "rank 3 sent its chains" -- env BASEL_MPI_VERBOSE=1 \
    timeout 120 "$MPIRUN" --oversubscribe -np 4 "$BASEL" "${args[@]}" -o "$T/four.json"
expect 0 "" -- cmp "$T/one.json" "$T/four.json"
expect 0 "" -- grep -q '"inputs": "2-bit"' "$T/four.json"
rm -f "$T/four.json"
# --column-blocks: each process reads and holds only its block of the
# variants (whole 16-variant panels) and makes every pass over it; rank 0
# runs the chains. 2000 variants at --gram-memory 1 are held compactly and
# streamed in one process too, so the document is that one's, byte for
# byte, from 2 and 4 processes, rj (with its pair screen) and bd
for method in rj bd; do
    args=(fit "$T/g.bed" --method "$method" --gram-memory 1 --iter 600 --chains 4 --seed 33 --quiet)
    expect 0 "" -- "$BASEL" "${args[@]}" -o "$T/one.json"
    for np in 2 4; do
        expect 0 "[0-9]+ exchanges with the processes holding the column blocks" -- env BASEL_MPI_VERBOSE=1 \
            timeout 120 "$MPIRUN" --oversubscribe -np "$np" "$BASEL" "${args[@]}" --column-blocks -o "$T/cb.json"
        expect 0 "" -- cmp "$T/one.json" "$T/cb.json"
        rm -f "$T/cb.json"
    done
done
# what cannot run on blocks is refused by every process, nothing written
expect 2 "reads blocks of a .bed set's variants" -- \
    mpi -np 2 "$BASEL" fit "$LIN" --target y --column-blocks -o "$T/bad.json"
expect 2 "needs all of the inputs in one process" -- \
    mpi -np 2 "$BASEL" fit "$T/g.bed" --method ssvs --column-blocks -o "$T/bad.json"
/usr/bin/python3 tests/cli/geno_bed.py "$T/s" 100 40 2 # 40 variants: 3 panels of 16
expect 2 "40 variants are too few for 4 processes: .* at most 3 can" -- \
    mpi -np 4 "$BASEL" fit "$T/s.bed" --method rj --column-blocks -o "$T/bad.json"
expect 1 "" -- test -e "$T/bad.json"
# rank 1's output directory is missing (as on another machine): every
# process stops before reading, none waits for it, rank 1 says why
expect 2 "another process stopped before the fit.*|basel\[rank 1\]: .*nodir" -- \
    mpi -np 1 "$BASEL" fit "$T/g.bed" --method rj --column-blocks -o "$T/bad.json" : \
    -np 1 "$BASEL" fit "$T/g.bed" --method rj --column-blocks -o "$T/nodir/bad.json"
expect 1 "" -- test -e "$T/bad.json"
# rank 1 cannot read its file: every process stops, rank 1 says why
cb=(--method rj --gram-memory 1 --column-blocks --seed 3 -o "$T/bad.json")
expect 2 "basel\[rank 1\]: .*missing.bed" -- \
    mpi -np 1 "$BASEL" fit "$T/g.bed" "${cb[@]}" : -np 1 "$BASEL" fit "$T/missing.bed" "${cb[@]}"
expect 1 "" -- test -e "$T/bad.json"
# rank 1's block has another target: refused by rank 0, nothing written
awk '{ $6 = $6 + 1; print }' "$T/g.fam" > "$T/g2.fam"
cp "$T/g.bed" "$T/g2.bed"
cp "$T/g.bim" "$T/g2.bim"
expect 2 "process 1's table has other rows or targets" -- \
    mpi -np 1 "$BASEL" fit "$T/g.bed" "${cb[@]}" : -np 1 "$BASEL" fit "$T/g2.bed" "${cb[@]}"
expect 1 "" -- test -e "$T/bad.json"
# the other methods whose chains save their state: mixture, rbf, anneal
MIX=(fit data/classification/pima.csv --method mixture --chains 4 --iter 400 --seed 5 --quiet)
SINC=(data/regression/sinc_vermaak_train.csv --target y --inputs x --chains 4 --iter 2000 --seed 5 --quiet)
for args in "${MIX[*]}" "fit ${SINC[*]} --method rbf" "fit ${SINC[*]} --method anneal"; do
    read -ra a <<< "$args"
    expect 0 "" -- "$BASEL" "${a[@]}" -o "$T/one.json"
    expect 0 "rank 3 sent its chains" -- env BASEL_MPI_VERBOSE=1 \
        timeout 120 "$MPIRUN" --oversubscribe -np 4 "$BASEL" "${a[@]}" -o "$T/four.json"
    expect 0 "" -- cmp "$T/one.json" "$T/four.json"
    rm -f "$T/four.json"
done
# without --seed the ranks share rank 0's (else the fits would differ):
# the seed note names it, and the one-process fit with it is the same
expect 0 "basel: seed [0-9]+ \(pass --seed" -- mpi -np 3 "$BASEL" fit "$LIN" --target y --method rj -o "$T/picked.json"
seed=$(grep -Eo '"seed": [0-9]+' "$T/picked.json" | grep -Eo '[0-9]+')
expect 0 "" -- "$BASEL" fit "$LIN" --target y --method rj --seed "$seed" --quiet -o "$T/picked1.json"
expect 0 "" -- cmp "$T/picked.json" "$T/picked1.json"
# a method whose chains do not travel (enumerate) is computed in every
# process, and written by rank 0 alone
expect 0 "" -- mpi -np 2 "$BASEL" fit "$LIN" --target y --method enumerate --seed 3 --quiet -o "$T/en2.json"
expect 0 "" -- "$BASEL" fit "$LIN" --target y --method enumerate --seed 3 --quiet -o "$T/en1.json"
expect 0 "" -- cmp "$T/en1.json" "$T/en2.json"

# --row-blocks: each rank reads a quarter of the rows; the statistics summed
# over the ranks give the rows' posterior (the sums' order differs from one
# process's, so to rounding: enumerate to 1e-10, rj with the same seed the
# same run to 1e-12, as --stats in tests/cli/test_stats.sh)
E=(--target y --method enumerate --prior g:g=200 --model-prior uniform --seed 1 --quiet)
R=(--target y --method rj --iter 3000 --chains 4 --seed 9 --quiet)
expect 0 "" -- "$BASEL" fit "$LIN" "${E[@]}" -o "$T/raw.json"
expect 0 "" -- mpi -np 4 "$BASEL" fit "$LIN" "${E[@]}" --row-blocks -o "$T/rb.json"
expect 0 "" -- "$BASEL" fit "$LIN" "${R[@]}" -o "$T/raw_rj.json"
expect 0 "" -- mpi -np 4 "$BASEL" fit "$LIN" "${R[@]}" --row-blocks -o "$T/rb_rj.json"
compare() { # rows-fit blocks-fit tolerance
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3]); tol = float(sys.argv[3])
d = max(abs(x - y) for x, y in zip(a["pip"] + a["model_size"]["prob"], b["pip"] + b["model_size"]["prob"]))
assert d <= tol, f"PIP / size difference {d}"
assert [m["atoms"] for m in a["models"]] == [m["atoms"] for m in b["models"]], "listed models differ"
assert b["summary_statistics"]["kind"] == "xtx"
PY
}
if compare "$T/raw.json" "$T/rb.json" 1e-10; then ok; else bad "enumerate: 4 row blocks differ from the rows"; fi
if compare "$T/raw_rj.json" "$T/rb_rj.json" 1e-12; then ok; else bad "rj: 4 row blocks differ from the rows"; fi
# a cell that is not a number in rank 3's block: that rank names it (the
# file's line), every rank stops, nothing is written
awk 'NR == 180 { sub(/^[^,]*/, "abc") } 1' "$LIN" > "$T/badcell.csv"
expect 2 "basel\[rank 3\]: .*badcell.csv:180:1: column 'x1': 'abc' is not a number" -- \
    mpi -np 4 "$BASEL" fit "$T/badcell.csv" "${R[@]}" --row-blocks -o "$T/bad.json"
expect 1 "" -- test -e "$T/bad.json"
# more ranks than rows
head -4 "$LIN" > "$T/tiny.csv"
expect 2 "too few rows for 4 processes" -- mpi -np 4 "$BASEL" fit "$T/tiny.csv" "${R[@]}" --row-blocks -o "$T/bad.json"
expect 1 "" -- test -e "$T/bad.json"

# bad input on every rank: exit 2, the library's message, no output
expect 2 "target column 'nosuch' is not in the header" -- \
    mpi -np 4 "$BASEL" fit "$LIN" --target nosuch --method rj --chains 4 -o "$T/bad.json"
expect 1 "" -- test -e "$T/bad.json"
# ranks 1-3 cannot read their file: rank 0 runs its chain, hears they
# stopped, and writes nothing; their own message is shown
good=(fit "$LIN" --target y --method rj --chains 4 --seed 3 -o "$T/bad.json")
bad=(fit "$T/missing.csv" --target y --method rj --chains 4 --seed 3 -o "$T/bad.json")
expect 2 "rank 1 stopped before its chains ran.*|basel\[rank 1\]: basel: .*missing.csv: cannot open" -- \
    mpi -np 1 "$BASEL" "${good[@]}" : -np 3 "$BASEL" "${bad[@]}"
expect 1 "" -- test -e "$T/bad.json"
# rank 0 cannot read its file, the others run and send their chains
expect 2 "missing.csv: cannot open" -- mpi -np 1 "$BASEL" "${bad[@]}" : -np 3 "$BASEL" "${good[@]}"
expect 1 "" -- test -e "$T/bad.json"
# a rank that ran another fit (here another seed) is refused
other=(fit "$LIN" --target y --method rj --chains 4 --seed 4 -o "$T/bad.json")
expect 2 "rank 3 ran another fit" -- mpi -np 3 "$BASEL" "${good[@]}" : -np 1 "$BASEL" "${other[@]}"
expect 1 "" -- test -e "$T/bad.json"
# what pauses chains part-way does not run across processes
expect 2 "run in one process, not across 2" -- \
    mpi -np 2 "$BASEL" "${good[@]}" --checkpoint "$T/ck.bin"
expect 1 "" -- test -e "$T/bad.json"
# what a command prints is rank 0's alone: help, and a fit's summary
"$BASEL" --help > "$T/help1"
expect 0 "" -- mpi -np 4 "$BASEL" --help
cp "$T/out" "$T/help4"
expect 0 "" -- cmp "$T/help4" "$T/help1"
"$BASEL" fit "$LIN" --target y --method rj --chains 4 --iter 2000 --seed 5 > "$T/sum1"
expect 0 "" -- mpi -np 4 "$BASEL" fit "$LIN" --target y --method rj --chains 4 --iter 2000 --seed 5
cp "$T/out" "$T/sum4"
expect 0 "" -- cmp "$T/sum4" "$T/sum1"
finish
