#!/bin/bash
# test_bas_glm.sh: GLMs under BAS's g-type priors (--family binomial |
# poisson with --prior g | robust ..., docs/GLM.md "g-type priors"):
#  - enumeration against R's BAS bas.glm (tests/data/bas_glm.json, written by
#    tests/data/bas_glm_reference.R: Pima binomial and quine Poisson, g-prior,
#    uip, robust, hyper-g/n and eb-local, uniform model prior): PIPs to 1e-6
#    and every listed model's log marginal to 1e-3 up to one constant
#    (bench/glm/compare_bas_glm.py); hyper-g/n to 1e-6 against an exact
#    reference (R's integrate()) and to 5e-5 against BAS, whose QUADPACK
#    tolerance (1.2e-4 relative) moves quine's PIPs by 1.6e-5;
#  - rj, bd and ssvs (on the per-subset table) agree with enumeration: over
#    seeds 1-5 the largest PIP difference of any was 0.0089 (bd), so 0.03;
#  - the coefficient table says what its normals are, predict works;
#  - refused, exit 2 and no output: a prior that does not score GLMs, g with
#    a, b (sampled), multinomial with a g-type prior, and (every engine) a
#    subset without an MLE (separated classes).
source "$(dirname "$0")/lib.sh" "$1"
expect 0 "pima g .*max[|]dPIP[|]" -- /usr/bin/python3 bench/glm/compare_bas_glm.py "$BASEL" --check 1e-6
D=data/classification/pima_tr.csv
expect 0 "" -- "$BASEL" fit $D --target class --family binomial --method enumerate --prior g:g=200 --model-prior uniform \
    --seed 1 --quiet -o "$T/e.json"
for m in rj bd ssvs; do
expect 0 "" -- "$BASEL" fit $D --target class --family binomial --method $m --prior g:g=200 --model-prior uniform \
    --seed 3 --quiet -o "$T/$m.json"
expect 0 "$m agrees with enumeration" -- /usr/bin/python3 -c "
import json, sys
e = json.load(open('$T/e.json')); r = json.load(open('$T/$m.json'))
d = max(abs(p - q) for p, q in zip(e['pip'], r['pip']))
ok = d < 0.03 and r['settings']['prior'] == 'g:g=200'
print('$m agrees with enumeration' if ok else 'largest PIP difference %g' % d)
sys.exit(0 if ok else 1)"
done
expect 0 "Li and Clyde's normal approximation at its MLE" -- "$BASEL" summary "$T/e.json"
expect 0 "^p_No,p_Yes,class$" -- "$BASEL" predict "$T/e.json" data/classification/pima_te.csv -o -
expect 0 "" -- "$BASEL" fit data/count/quine.csv --target days --family poisson --method enumerate --prior robust --seed 1 \
    --quiet -o "$T/q.json"
expect 0 "^days" -- "$BASEL" predict "$T/q.json" data/count/quine.csv -o -
expect 2 "--prior hyper-g: a GLM \(--family binomial or poisson\) takes --prior normal.*g-type priors \(g, uip, hyper-g/n, robust, eb-local\)" \
    -- "$BASEL" fit $D --target class --family binomial --method enumerate --prior hyper-g -o "$T/f.json"
expect 2 "--prior g:a=2,b=3: for a GLM g is fixed" \
    -- "$BASEL" fit $D --target class --family binomial --method rj --prior g:a=2,b=3 -o "$T/f.json"
expect 2 "--prior robust: --family multinomial takes --prior normal" \
    -- "$BASEL" fit data/classification/wine.csv --target class --family multinomial --method rj --prior robust -o "$T/f.json"
# x1 separates the classes: the model {x1} has no MLE, which BAS's approximation needs
/usr/bin/python3 -c "
import random
random.seed(1)
print('x1,x2,y')
for i in range(40):
    x1, x2 = random.gauss(0, 1), random.gauss(0, 1)
    print(f'{x1},{x2},{int(x1 > 0)}')" > "$T/sep.csv"
for m in enumerate rj bd ssvs; do
expect 2 "--prior g: the model of the inputs numbered \{1(, 2)?\} .* has no MLE \(fitted probabilities 0 or 1: separation; or collinear inputs\)" \
    -- "$BASEL" fit "$T/sep.csv" --target y --family binomial --method $m --prior g --seed 1 -o "$T/f.json"
done
expect 1 "" -- test -e "$T/f.json"
finish
