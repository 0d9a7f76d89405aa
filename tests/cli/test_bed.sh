#!/bin/bash
# test_bed.sh: PLINK 1 binary genotypes as the training file (src/io/bed.c,
# issue 32 item 2). The oracle is PLINK's own --recode A table (.raw: the
# count of A1 alleles, NA missing; --keep-allele-order, or plink 1.9 would
# count the minor allele where the .bim's A1 is the major one): a CSV made from it holds the values
# basel must read from the .bed, so the two fits are byte for byte the
# same. tests/data/plink/tiny.* was made by plink1.9 (--dummy 38 12 0.02
# scalar-pheno --seed 3 --make-bed, then --bfile tiny --recode A --keep-allele-order), so this
# runs without plink; with plink1.9 installed, the fixture is made again and
# compared, and new sets (a hand-written .ped with every genotype, a wider
# random one) go through plink and basel. Then damaged sets: exit 2, a
# message naming the file, no FIT.json.
source "$(dirname "$0")/lib.sh" "$1"
BASEL=$(realpath "$BASEL")
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
FIX=tests/data/plink/tiny
FIT=(--method bd --iter 400 --seed 5 --na drop --quiet)

# raw_to_csv RAW CSV: a .raw as a basel CSV: the columns named by the
# variant IDs (plink's _A1 suffix cut), NA empty, then the phenotype (-9
# empty), named phenotype as the .bed reader names it.
raw_to_csv() {
    awk 'NR == 1 {
            for (i = 7; i <= NF; i++) { sub(/_[^_]*$/, "", $i); printf "%s,", $i }
            print "phenotype"; next
         }
         { for (i = 7; i <= NF; i++) printf "%s,", ($i == "NA" ? "" : $i); print ($6 == "-9" ? "" : $6) }' "$1" > "$2"
}

# same_fit NAME BED CSV [basel options]: the .bed and the CSV fit alike
same_fit() {
    local name=$1 bed=$2 csv=$3
    shift 3
    expect 0 "" -- "$BASEL" fit "$bed" "${FIT[@]}" "$@" -o "$T/$name.bed.json"
    expect 0 "" -- "$BASEL" fit "$csv" "${FIT[@]}" "$@" -o "$T/$name.csv.json"
    if [ -s "$T/$name.bed.json" ] && cmp -s "$T/$name.bed.json" "$T/$name.csv.json"; then
        ok
    else
        bad "$name: the .bed and the CSV of plink's .raw give different fits"
    fi
}

# ------------------------------------------------ the committed fixture

raw_to_csv $FIX.raw "$T/tiny.csv"
same_fit tiny $FIX.bed "$T/tiny.csv"
# predict reads a .bed as fit does: the same predictions as from the CSV
# (a missing genotype leaves its row's fields empty alike), even when the
# .fam has no phenotype (predict never reads it); an --id that is not one
# of the fit's inputs names a column a .bed does not have
expect 0 "" -- "$BASEL" predict "$T/tiny.bed.json" $FIX.bed -o "$T/tiny.bed.pred.csv"
expect 0 "" -- "$BASEL" predict "$T/tiny.bed.json" "$T/tiny.csv" -o "$T/tiny.csv.pred.csv"
if [ -s "$T/tiny.bed.pred.csv" ] && cmp -s "$T/tiny.bed.pred.csv" "$T/tiny.csv.pred.csv"; then
    ok
else
    bad "predict: the .bed and the CSV give different predictions"
fi
mkdir -p "$T/nopheno"
cp $FIX.bed $FIX.bim "$T/nopheno/"
awk '{ $6 = "-9"; print }' $FIX.fam > "$T/nopheno/tiny.fam"
expect 0 "" -- "$BASEL" predict "$T/tiny.bed.json" "$T/nopheno/tiny.bed" -o "$T/nopheno.pred.csv"
cmp -s "$T/nopheno.pred.csv" "$T/tiny.bed.pred.csv" && ok || bad "predict: a .fam without phenotypes changed the predictions"
expect 2 "tiny.bed: a .bed set has no column 'IID'" -- \
    "$BASEL" predict "$T/tiny.bed.json" $FIX.bed --id IID -o "$T/id.pred.csv"
[ -e "$T/id.pred.csv" ] && bad "predict --id on a .bed left a file"
# the target from --target-file (a one-column CSV) instead of the .fam
cut -d, -f13 "$T/tiny.csv" > "$T/y.csv"
expect 0 "" -- "$BASEL" fit $FIX.bed "${FIT[@]}" --target-file "$T/y.csv" -o "$T/tiny_target.json"
cmp -s "$T/tiny.csv.json" "$T/tiny_target.json" && ok || bad "--target-file: the .bed and the CSV give different fits"
# a -9 phenotype is a missing target (left out by --na drop)
cp $FIX.bed $FIX.bim "$T/"
awk 'NR == 3 { $6 = "-9" } { print }' $FIX.fam > "$T/tiny.fam"
awk -F, 'BEGIN { OFS = "," } NR == 4 { $NF = "" } { print }' "$T/tiny.csv" > "$T/tiny9.csv"
same_fit tiny9 "$T/tiny.bed" "$T/tiny9.csv"
# a missing genotype under --na error: the .bed and the column named
expect 2 "tiny.bed:[0-9]+: column 'snp[0-9]+': the value is missing" -- \
    "$BASEL" fit $FIX.bed --method bd --iter 10 --quiet -o "$T/na.json"
[ -e "$T/na.json" ] && bad "--na error left a FIT.json"

# ------------------------------------------------ genotypes held compactly

# A set with no missing genotype (n = 300, p = 2000: 4.8 MB of doubles, over
# twice --gram-memory 1) is held as int8 codes from the .bed on (io.h,
# fit/problem.c take_codes), the doubles never made, and then as 2-bit
# codes (compact_inputs): the same document as the CSV of its genotypes,
# which is held as 2-bit codes after reading (both say diagnostics.inputs
# "2-bit"); with --gram-memory 8 both keep doubles, the
# same fit but for those two entries. A standardised fit (the codes widened
# to doubles, then float32) alike. (The codes copied, not taken, and the
# same numbers from a table of doubles: tests/unit/fit/test_api.c.)
$PY tests/cli/geno_bed.py "$T/g" 300 2000 5
G8=(--method rj --iter 1500 --seed 4 --quiet)
expect 0 "" -- "$BASEL" fit "$T/g.bed" "${G8[@]}" --gram-memory 1 -o "$T/g8.bed.json"
expect 0 "" -- "$BASEL" fit "$T/g.csv" "${G8[@]}" --gram-memory 1 -o "$T/g8.csv.json"
expect 0 "" -- "$BASEL" fit "$T/g.bed" "${G8[@]}" --gram-memory 8 -o "$T/g64.bed.json"
cmp -s "$T/g8.bed.json" "$T/g8.csv.json" && ok || bad "int8 codes from a .bed: another fit than from its CSV"
$PY - "$T/g8.bed.json" "$T/g64.bed.json" << 'PY' && ok || bad "codes from a .bed (2-bit): another fit than in doubles"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
print("inputs %s / %s" % (a["diagnostics"].get("inputs"), b["diagnostics"].get("inputs")))
ok = a["diagnostics"].pop("inputs", None) == "2-bit" and "inputs" not in b["diagnostics"]
a["settings"].pop("gram-memory"), b["settings"].pop("gram-memory")
sys.exit(0 if ok and a == b else 1)
PY
same_fit g_std "$T/g.bed" "$T/g.csv" --gram-memory 1 --standardize yes
grep -q '"inputs": "float32"' "$T/g_std.bed.json" && ok || bad "a standardised fit from a .bed: not float32"
# 450 of 1000 variants in reverse order (--inputs: the codes copied, not
# taken), n = 600: 2.2 MB of doubles, held as 2-bit codes; the list is recorded
$PY tests/cli/geno_bed.py "$T/h" 600 1000 6
same_fit h_sub "$T/h.bed" "$T/h.csv" --gram-memory 1 --inputs "$(seq -f 'v%g' 1000 -1 551 | paste -sd,)"
grep -q '"inputs": "2-bit"' "$T/h_sub.bed.json" && grep -q '"inputs": "v1000,v999,' "$T/h_sub.bed.json" && ok ||
    bad "450 variants in reverse order: not held as 2-bit codes, or the list not recorded"
expect 2 "option 'inputs': value too long \(at most 4095 characters\)" -- \
    "$BASEL" fit "$T/h.bed" --inputs "$(seq -f 'v%g' 1 1000 | paste -sd,)" -o "$T/long.json"
[ -e "$T/long.json" ] && bad "an --inputs list too long left a FIT.json"

# ------------------------------------------------ plink1.9 itself

if command -v plink1.9 > /dev/null; then
    # the fixture is what plink makes
    (cd "$T" && plink1.9 --dummy 38 12 0.02 scalar-pheno --seed 3 --make-bed --out again > /dev/null &&
        plink1.9 --bfile again --recode A --keep-allele-order --out again > /dev/null)
    for ext in bed bim fam; do
        cmp -s "$T/again.$ext" $FIX.$ext && ok || bad "plink1.9 makes another tiny.$ext than the committed one"
    done
    cmp -s <(tail -n +2 "$T/again.raw") <(tail -n +2 $FIX.raw) && ok || bad "plink1.9 makes another tiny.raw"
    # every genotype (A1 and A2 homozygous, both heterozygotes, missing),
    # 13 samples (a block's last byte padded), a -9 phenotype
    cat > "$T/hand.ped" << 'EOF'
f1 s1 0 0 1 1.5 A A C G T T G G A C
f2 s2 0 0 2 -9 A G C C 0 0 G A C A
f3 s3 0 0 1 2.25 G G G G T C A A C C
f4 s4 0 0 2 0.5 G A C G C C A G A A
f5 s5 0 0 1 -1 A A G C T T G A C C
f6 s6 0 0 2 3 0 0 C C C T A A A C
f7 s7 0 0 1 -2.5 G G G G T T G G C C
f8 s8 0 0 2 1 A G C G C C A G A A
f9 s9 0 0 1 0.25 A A C C T C G G C A
f10 s10 0 0 2 -0.75 G A G G T T A A A A
f11 s11 0 0 1 2 G G C G C T G A C A
f12 s12 0 0 2 -1.5 A A C C C C G G C C
f13 s13 0 0 1 0.125 A G G C T C A A A C
EOF
    printf '1 rs1 0 100\n1 rs2 0 200\n2 rs3 0 300\n2 rs4 0 400\n3 rs_5 0 500\n' > "$T/hand.map"
    (cd "$T" && plink1.9 --file hand --make-bed --out hand > /dev/null && plink1.9 --bfile hand --recode A --keep-allele-order --out hand > /dev/null)
    raw_to_csv "$T/hand.raw" "$T/hand.csv"
    same_fit hand "$T/hand.bed" "$T/hand.csv"
    # a wider random set: 61 samples, 40 variants, 1 % missing
    (cd "$T" && plink1.9 --dummy 61 40 0.01 scalar-pheno --seed 11 --make-bed --out wide > /dev/null &&
        plink1.9 --bfile wide --recode A --keep-allele-order --out wide > /dev/null)
    raw_to_csv "$T/wide.raw" "$T/wide.csv"
    same_fit wide "$T/wide.bed" "$T/wide.csv"
    # the same set with A1 the major allele of every other variant (plink
    # makes A1 the minor one unless told): basel counts the .bim's A1
    awk 'NR % 2 { print $2, $6 }' "$T/wide.bim" > "$T/a1.txt"
    (cd "$T" && plink1.9 --bfile wide --a1-allele a1.txt 2 1 --make-bed --keep-allele-order --out flip > /dev/null &&
        plink1.9 --bfile flip --recode A --keep-allele-order --out flip > /dev/null)
    if cmp -s <(cut -f5 "$T/flip.bim") <(cut -f5 "$T/wide.bim"); then
        bad "plink1.9 --a1-allele changed no A1"
    else
        raw_to_csv "$T/flip.raw" "$T/flip.csv"
        same_fit flip "$T/flip.bed" "$T/flip.csv"
    fi
else
    echo "SKIP: plink1.9 is not installed (apt-get install plink1.9): the fixture alone was checked"
fi

# ------------------------------------------------ damaged sets

# damage NAME: a copy of the fixture as $T/NAME.{bed,bim,fam} to break
damage() {
    for ext in bed bim fam; do cp $FIX.$ext "$T/$1.$ext"; done
}
# refused NAME PATTERN [options]: exit 2, the message, no FIT.json
refused() {
    local name=$1 pattern=$2
    shift 2
    expect 2 "$pattern" -- "$BASEL" fit "$T/$name.bed" --method bd --iter 10 --na drop "$@" -o "$T/$name.json"
    [ -e "$T/$name.json" ] && bad "$name left a FIT.json"
}
damage magic
printf 'l\x1c' | dd of="$T/magic.bed" bs=1 conv=notrunc 2> /dev/null
refused magic "magic.bed: not a PLINK .bed file: it does not start with the magic bytes 0x6c 0x1b"
printf 'chr1\t1000\t5000\tpeak1\n' > "$T/ucsc.bed" # genome intervals, no .bim or .fam
refused ucsc "ucsc.bed: not a PLINK .bed file: it does not start with the magic bytes"
damage mode
printf '\x00' | dd of="$T/mode.bed" bs=1 seek=2 conv=notrunc 2> /dev/null
refused mode "mode.bed: the .bed file is in individual-major mode .* plink1.9 --bfile PREFIX --make-bed"
damage short
head -c 100 $FIX.bed > "$T/short.bed"
refused short "short.bed: the .bed file has 100 bytes; its 12 variants .* of 38 samples .* take 3 \+ 12 x 10 = 123: .* cut short"
damage long
printf '\x00' >> "$T/long.bed"
refused long "long.bed: the .bed file has 124 bytes; .* = 123: .* longer"
damage nobim
rm "$T/nobim.bim"
refused nobim "nobim.bim: cannot open: No such file or directory \(a .bed file's variants are in the .bim beside it\)"
damage nofam
rm "$T/nofam.fam"
refused nofam "nofam.fam: cannot open: No such file or directory \(a .bed file's samples are in the .fam beside it\)"
damage fewer
sed -i '12d' "$T/fewer.bim" # the .bed is then too long for the .bim
refused fewer "fewer.bed: the .bed file has 123 bytes; its 11 variants"
damage map
cut -f1-4 $FIX.bim > "$T/map.bim" # a .map's 4 fields
refused map "map.bim:1: a .bim line has 6 fields; this one has 4"
damage dup
sed -i '5s/snp4/snp1/' "$T/dup.bim"
refused dup "dup.bim:5: variant ID 'snp1' is used twice \(lines 2 and 5\)"
damage nopheno
awk '{ $6 = "-9"; print }' $FIX.fam > "$T/nopheno.fam"
refused nopheno "nopheno.fam: no phenotype \(every sample's is -9 or 0, PLINK's none\): give the target with --target-file"
expect 0 "" -- "$BASEL" fit "$T/nopheno.bed" "${FIT[@]}" --target-file "$T/y.csv" -o "$T/nopheno.json"
damage text
sed -i '7s/[^ ]*$/case/' "$T/text.fam"
refused text "text.fam:7: the phenotype 'case' \(field 6\) is not a number \(-9 is missing\)"
refused magic "genotypes" --target-file $FIX.bed
expect 2 "--row-blocks reads blocks of a CSV's lines \(not of a .npy or .bed file\)" -- \
    "$BASEL" fit $FIX.bed --row-blocks -o "$T/rows.json"
# --column-blocks splits a .bed's variants over MPI processes; a CSV is
# refused, and in one process it changes nothing
expect 2 "--column-blocks reads blocks of a .bed set's variants \(PLINK\), one per process" -- \
    "$BASEL" fit "$T/y.csv" --column-blocks -o "$T/cols.json"
expect 1 "" -- test -e "$T/cols.json"
expect 2 "--column-blocks or --row-blocks, not both" -- "$BASEL" fit "$T/y.csv" --column-blocks --row-blocks -o "$T/cols.json"
expect 0 "" -- "$BASEL" fit $FIX.bed "${FIT[@]}" -o "$T/plain.json"
expect 0 "" -- "$BASEL" fit $FIX.bed "${FIT[@]}" --column-blocks -o "$T/cols.json"
expect 0 "" -- cmp "$T/plain.json" "$T/cols.json"
head -20 "$T/y.csv" > "$T/y20.csv"
damage len
refused len "the target file has 19 rows, the training file .*len.bed has 38" --target-file "$T/y20.csv"

# fuzz-style: every truncation of the .bed is refused (exit 2, never a
# crash), and single-byte changes anywhere in the three files give a fit or
# exit 2, nothing else
size=$(stat -c %s $FIX.bed)
crashed=0
for ((len = 0; len < size; len++)); do
    damage cut
    head -c $len $FIX.bed > "$T/cut.bed"
    "$BASEL" fit "$T/cut.bed" --method bd --iter 10 --na drop --quiet -o "$T/cut.json" > /dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] && [ ! -e "$T/cut.json" ] || crashed=$((crashed + 1))
done
[ $crashed -eq 0 ] && ok || bad "$crashed truncations of the .bed were not refused with exit 2"
"$PY" - "$FIX" "$T" << 'EOF'
import random, sys
fix, d = sys.argv[1], sys.argv[2]
r = random.Random(32)
for k in range(36):
    ext = ("bed", "bim", "fam")[k % 3]
    for e in ("bed", "bim", "fam"):
        data = bytearray(open(fix + "." + e, "rb").read())
        if e == ext:
            data[r.randrange(len(data))] = r.choice(b"\x00\x01\x09\x0a\x20\x2d\x39\x6c\xff" + bytes([r.randrange(256)]))
        open("%s/fz%d.%s" % (d, k, e), "wb").write(data)
EOF
odd=0
for ((k = 0; k < 36; k++)); do
    "$BASEL" fit "$T/fz$k.bed" --method bd --iter 10 --na drop --quiet -o "$T/fz$k.json" > /dev/null 2> "$T/fz.err"
    rc=$?
    if [ $rc -eq 0 ] || { [ $rc -eq 2 ] && [ ! -e "$T/fz$k.json" ] && grep -q "^basel: " "$T/fz.err"; }; then
        :
    else
        odd=$((odd + 1))
        echo "fz$k: exit $rc: $(head -c 200 "$T/fz.err")" >&2
    fi
done
[ $odd -eq 0 ] && ok || bad "$odd single-byte changes ended otherwise than a fit or exit 2"

finish
