#!/bin/bash
# test_bad_input.sh: every bad input of DESIGN.md gives "basel: FILE:LINE:COLUMN:
# message" (where a position exists), exit status 2, and no output file.
source "$(dirname "$0")/lib.sh" "$1"
D=data/linear/lin_p15_n200.csv

printf 'a,b,y\n1,2,3\n4,5\n7,8,9\n' > "$T/ragged.csv"
expect 2 "basel: $T/ragged.csv:3:[0-9]+: row has 2 fields, the header has 3" -- "$BASEL" fit "$T/ragged.csv" -o "$T/f.json"
printf 'a,b,y\n1,2,3\n4,abc,6\n7,8,9\n1,1,2\n' > "$T/text.csv"
expect 2 "basel: $T/text.csv:3:3: input column 'b': 'abc' is not a number" -- "$BASEL" fit "$T/text.csv" -o "$T/f.json"
printf 'a,b,y\n1,2,3\n4,nan,6\n7,8,9\n1,1,2\n' > "$T/nan.csv"
expect 2 "basel: $T/nan.csv:3:3: .*not a finite number" -- "$BASEL" fit "$T/nan.csv" -o "$T/f.json"
printf 'a,b,y\n1,2,3\n4,inf,6\n7,8,9\n1,1,2\n' > "$T/inf.csv"
expect 2 "basel: $T/inf.csv:3:3: .*not a finite number" -- "$BASEL" fit "$T/inf.csv" -o "$T/f.json"
printf 'a,b,y\n1,2,3\n4,,6\n7,8,9\n1,1,2\n' > "$T/empty_cell.csv"
expect 2 "basel: $T/empty_cell.csv:3:3: column .b.: the value is missing" -- "$BASEL" fit "$T/empty_cell.csv" -o "$T/f.json"
printf 'a,b,y\n1,2,3\n4,5,x\n7,8,9\n1,1,2\n' > "$T/badtarget.csv"
expect 2 "basel: $T/badtarget.csv:3:5: target column 'y': 'x' is not a number" -- "$BASEL" fit "$T/badtarget.csv" -o "$T/f.json"
: > "$T/empty.csv"
expect 2 "basel: $T/empty.csv:1:1: file is empty" -- "$BASEL" fit "$T/empty.csv" -o "$T/f.json"
printf 'a,b,y\n' > "$T/header_only.csv"
expect 2 "basel: $T/header_only.csv:2:1: no data rows" -- "$BASEL" fit "$T/header_only.csv" -o "$T/f.json"
printf 'a,a,y\n1,2,3\n' > "$T/dupname.csv"
expect 2 "basel: $T/dupname.csv:1:[0-9]+: .*duplicate" -- "$BASEL" fit "$T/dupname.csv" -o "$T/f.json"
printf 'a,b,y\n1,5,3\n2,5,4\n3,5,1\n4,5,7\n5,5,2\n' > "$T/const.csv"
expect 2 "input column 'b' is constant" -- "$BASEL" fit "$T/const.csv" -o "$T/f.json"
printf 'a,b,y\n1,1,3\n2,2,4\n3,3,1\n4,4,7\n5,5,2\n' > "$T/dupcol.csv"
expect 2 "input columns 'a' and 'b' are identical" -- "$BASEL" fit "$T/dupcol.csv" -o "$T/f.json"
printf 'a,b,y\n1,2,3\n2,4,4\n3,6,1\n4,8,7\n5,10,2\n6,12,5\n' > "$T/collinear.csv"
# b = 2a: the subset {a, b} cannot be computed; enumerate, like the
# samplers, gives it probability 0 and says so (issue 13 item 4)
expect 0 "" -- "$BASEL" fit "$T/collinear.csv" --method enumerate -o "$T/col.json"
expect 0 "1 of them cannot be computed" -- "$BASEL" summary "$T/col.json"
printf 'a,b,y\n1,2,3\n2,4,3\n3,6,3\n4,8,3\n' > "$T/consty.csv"
expect 2 "target column 'y' is constant" -- "$BASEL" fit "$T/consty.csv" -o "$T/f.json"
# n < p: more inputs than rows. Model sizes are capped below n (kmax), for
# enumeration as for bd; no NaN or Inf either way.
{ printf 'x1,x2,x3,x4,x5,x6,y\n'; for i in 1 2 3 4 5; do echo "$i,$((i*i%7)),$((i*3%5)),$((i%2)),$((i*i*i%11)),$((i*5%3)),$((i*2+1))"; done; } > "$T/wide.csv"
expect 0 "" -- "$BASEL" fit "$T/wide.csv" --method enumerate -o "$T/wide_e.json"
expect 0 "exact: all 64 subsets" -- "$BASEL" summary "$T/wide_e.json"
if grep -qiE 'nan|inf' "$T/wide_e.json"; then bad "n < p: NaN or Inf in enumerate's FIT.json"; else ok; fi
expect 0 "" -- "$BASEL" fit "$T/wide.csv" --method bd --iter 200 --seed 3 -o "$T/wide.json"
if grep -qiE 'nan|inf' "$T/wide.json"; then bad "n < p: NaN or Inf in FIT.json"; else ok; fi
# ssvs with paper 001's unscaled prior and Jeffreys' 1/sigma^2 has no
# posterior when the inputs are as many as the rows (sigma^2 -> 0): refused
# before the run, with the remedies; each remedy fits
head -5 "$D" > "$T/n4.csv"
expect 2 "--prior ssvs with 15 inputs and 3 rows after the intercept: .*the posterior does not exist" -- \
    "$BASEL" fit "$T/n4.csv" --method ssvs -o "$T/f.json"
if [ -e "$T/f.json" ]; then bad "ssvs n = 4: a fit was written"; else ok; fi
expect 2 "--prior ssvs with 6 inputs and 4 rows" -- "$BASEL" fit "$T/wide.csv" --method ssvs -o "$T/f.json"
for remedy in ssvs:scaled=1 ssvs:a=1,b=1 g; do
    expect 0 "" -- "$BASEL" fit "$T/n4.csv" --method ssvs --prior $remedy --iter 2000 --seed 2 -q -o "$T/n4_ok.json"
    if grep -qiE 'nan|inf' "$T/n4_ok.json"; then bad "ssvs n = 4, --prior $remedy: NaN or Inf"; else ok; fi
done
expect 2 "kmax 20 is above the number of atoms m = 15" -- "$BASEL" fit "$D" --kmax 20 -o "$T/f.json"
expect 2 "chains 0 is out of range" -- "$BASEL" fit "$D" --chains 0 -o "$T/f.json"
expect 2 "--iter -5 is out of range" -- "$BASEL" fit "$D" --iter -5 -o "$T/f.json"
expect 2 "g=-1 is out of range" -- "$BASEL" fit "$D" --prior g:g=-1 -o "$T/f.json"
expect 2 "unknown name 'gaus' \(accepted: linear, gauss" -- "$BASEL" fit "$D" --basis gaus -o "$T/f.json"
expect 2 "unknown key 'w' \(accepted: r, linear-term\)" -- "$BASEL" fit "$D" --basis gauss:w=2 -o "$T/f.json"
expect 2 "unknown option '--iters' \(did you mean '--iter'\?\)" -- "$BASEL" fit "$D" --iters 5 -o "$T/f.json"
expect 2 "unknown option '--quite' \(did you mean '--quiet'\?\)" -- "$BASEL" fit "$D" --quite -o "$T/f.json"
expect 2 "unknown option '--modle' \(did you mean '--model'\?\)" -- "$BASEL" predict "$T/f.json" "$D" --modle hpm
expect 2 "unknown command 'fti' \(did you mean 'fit'\?\)" -- "$BASEL" fti "$D"
expect 2 "unknown option '--verison' \(did you mean '--version'\?\)" -- "$BASEL" --verison
expect 2 "--method 'bdd' is not known \(did you mean 'bd'\? accepted" -- "$BASEL" fit "$D" --method bdd -o "$T/f.json"
# a CSV where the fit goes (predict's arguments swapped), a fit that is not there
expect 2 "basel: $D:1:1: not a FIT.json \(a fit starts with '\{'; a CSV" -- "$BASEL" summary "$D"
expect 2 "basel: $D:1:1: not a FIT.json" -- "$BASEL" predict "$D" "$D"
expect 2 "basel: $T/nosuch.json: cannot open: No such file or directory$" -- "$BASEL" predict "$T/nosuch.json" "$D"
expect 2 "--target is empty: name the target column" -- "$BASEL" fit "$D" --target "" -o "$T/f.json"
expect 2 "input column 'x_6' is not in the header \(did you mean 'x6'\?\)" -- "$BASEL" fit "$D" --inputs x1,x_6 -o "$T/f.json"
printf '"","x","y"\n"1",1,2\n"2",2,3\n"3",3,5\n' > "$T/rownames.csv"
expect 2 "$T/rownames.csv:1:1: empty column name \(header field 1\); a first column with no name is often row names, as R's write.csv" -- "$BASEL" fit "$T/rownames.csv" -o "$T/f.json"
expect 0 "the target is the last column, 'y' \(--target NAME chooses another\)" -- "$BASEL" fit "$D" --iter 100 -o "$T/last.json"
if "$BASEL" fit "$D" --iter 100 --target y -o "$T/named.json" 2>&1 | grep -q "the target is the last column"; then
    bad "the last-column note is printed when --target is given"
else ok; fi
expect 2 "--particles is not read by --method bd" -- "$BASEL" fit "$D" --particles 10 -o "$T/f.json"
expect 2 "target column 'z' is not in the header" -- "$BASEL" fit "$D" --target z -o "$T/f.json"
expect 2 "target column 'Y' is not in the header \(did you mean 'y'\? names are case-sensitive\)" -- "$BASEL" fit "$D" --target Y -o "$T/f.json"
expect 2 "input column 'x16' is not in the header; the columns are 'eth_n', 'sex_m', 'age_f1', 'age_f2', 'age_f3', 'lrn_sl', 'days'" -- "$BASEL" fit data/count/quine.csv --target days --inputs eth_n,x16 -o "$T/f.json"
expect 2 "refuses m = 25" -- bash -c "/usr/bin/python3 -c \"
import random; random.seed(1)
print(','.join('x%d' % i for i in range(25)) + ',y')
for r in range(60): print(','.join('%.4f' % random.gauss(0, 1) for i in range(26)))\" | '$BASEL' fit - --method enumerate --prior ridge:lambda=1,sigma2=1 -o '$T/f.json'"
expect 2 "basel: $T/missing.csv: cannot open|No such file" -- "$BASEL" fit "$T/missing.csv" -o "$T/f.json"
expect 2 "missing the training file" -- "$BASEL" fit -o "$T/f.json"
expect 2 "unknown command 'fitt'" -- "$BASEL" fitt
printf 'a,b,class\n1,2,x\n2,1,x\n3,5,x\n4,2,x\n' > "$T/oneclass.csv"
expect 2 "class column 'class' has 1 class: need at least 2" -- "$BASEL" fit "$T/oneclass.csv" --method mixture -o "$T/f.json"
expect 2 "--excluded 'normal': expected one of regression,gaussian" -- "$BASEL" fit data/classification/pima_tr.csv --method mixture --excluded normal -o "$T/f.json"
expect 2 "hyper-h" -- "$BASEL" fit data/classification/pima_tr.csv --method mixture --hyper-h -1 -o "$T/f.json"
expect 2 "beta-min" -- "$BASEL" fit data/classification/pima_tr.csv --method mixture --beta-min -0.5 -o "$T/f.json"
expect 2 "--unlabelled 'bogus': expected one of ignore,use" -- "$BASEL" fit data/classification/pima_tr.csv --method mixture --unlabelled bogus -o "$T/f.json"
expect 2 "--draws: --method enumerate keeps no draws" -- "$BASEL" fit data/linear/lin_p15_n200.csv --method enumerate -o "$T/f.json" --draws "$T/f.json.csv"
# no output file is left behind by any failure above
if ls "$T"/f.json* > /dev/null 2>&1; then bad "a failed fit left an output file"; else ok; fi

# predict and summary
"$BASEL" fit "$D" --method enumerate --seed 1 -o "$T/good.json" 2> /dev/null
printf 'x1,x2\n1,2\n' > "$T/short.csv"
expect 2 "basel: $T/short.csv:1: input column 'x3' \(used by the fit\) is not in the header" -- "$BASEL" predict "$T/good.json" "$T/short.csv"
printf '{"format_version": 1, "method": "bd"' > "$T/broken.json"
expect 2 "basel: $T/broken.json:1:[0-9]+:" -- "$BASEL" summary "$T/broken.json"
printf '{"hello": 1}\n' > "$T/other.json"
expect 2 "not a basel fit" -- "$BASEL" summary "$T/other.json"
expect 2 "interval '1.5': expected a probability" -- "$BASEL" predict "$T/good.json" "$D" --interval 1.5
expect 2 "--model 'best': a fit of --method enumerate predicts with bma, hpm, median, prevalence" -- "$BASEL" predict "$T/good.json" "$D" --model best
expect 2 "--model 'prevalance': did you mean 'prevalence'\? \(a fit of --method enumerate predicts with" -- "$BASEL" predict "$T/good.json" "$D" --model prevalance
# eb-global's g is chosen from every subset: a sampler refuses it up front,
# saying what to do, and writes nothing (coef_g.c, subset.c)
rm -f "$T/f.json"
for m in bd rj; do
    expect 2 "--prior eb-global chooses one g from every subset.*--method $m.*g:g=G" -- \
        "$BASEL" fit "$(dirname "$0")/../../data/linear/uscrime_log.csv" --method $m --prior eb-global -o "$T/f.json"
done
if [ -e "$T/f.json" ]; then bad "eb-global with a sampler: a fit was written"; else ok; fi
expect 2 "eb-global: one target only" -- "$BASEL" fit "$(dirname "$0")/../../data/linear/uscrime_log.csv" \
    --method enumerate --prior eb-global --target y,Prob -o "$T/f.json"
finish
