#!/bin/bash
# test_fit_edits.sh: hand-edited FIT.json files (issue 14 item 4). Each edit
# of the reliability audit, and one of each engine's own block, is refused on
# load by predict and summary with exit 2 and a message naming the key by its
# JSON path; nothing is written.
source "$(dirname "$0")/lib.sh" "$1"
D=data/linear/lin_p15_n200.csv

expect 0 "" -- "$BASEL" fit "$D" --method bd --iter 300 --seed 1 -q -o "$T/bd.json"
expect 0 "" -- "$BASEL" fit data/classification/pima_tr.csv --method mixture --iter 30 --seed 1 -q -o "$T/mix.json"
expect 0 "" -- "$BASEL" fit data/regression/sinc_vermaak_train.csv --method smc --basis gauss:r=1.131 --particles 20 --seed 1 -q -o "$T/smc.json"
expect 0 "" -- "$BASEL" fit data/regression/sinc_vermaak_train.csv --method rbf --iter 200 --kmax 5 --seed 1 -q -o "$T/rbf.json"

# edit SRC DST PYTHON: d is the document
edit() {
    /usr/bin/python3 - "$T/$1" "$T/$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], 'w'))
EOF
}

# refused FILE PATTERN: predict and summary both exit 2 naming the key
refused() {
    expect 2 "basel: $T/$1: .*$2" -- "$BASEL" predict "$T/$1" "$D" -o "$T/p.csv"
    expect 2 "basel: $T/$1: .*$2" -- "$BASEL" summary "$T/$1"
    if [ -e "$T/p.csv" ]; then bad "$1: predictions written"; rm -f "$T/p.csv"; else ok; fi
}

# the audit's edits
edit bd.json weight_neg.json "d['engine']['predictor']['bma']['posterior']['weights'][0] = -5"
refused weight_neg.json '"engine.predictor.bma.posterior.models\[0\]" is not a list of atom indices with a finite non-negative weight'
edit bd.json weight_text.json "d['engine']['predictor']['bma']['posterior']['weights'][0] = 'x'"
refused weight_text.json '"engine.predictor.bma.posterior.models\[0\]"'
edit bd.json sigma2_neg.json "d['engine']['predictor']['hpm']['sigma2'] = [-1]"
refused sigma2_neg.json '"engine.predictor.hpm.sigma2\[0\]" is not a positive number'
edit bd.json method.json "d['method'] = 'zzz'"
refused method.json '"method" names no method'
edit bd.json pip_short.json "d['pip'] = d['pip'][:1]"
refused pip_short.json '"pip" is not one probability'
edit bd.json size_short.json "d['model_size']['prob'] = d['model_size']['prob'][:1]"
refused size_short.json '"model_size"'

# more of the subset engines' block
edit bd.json v_neg.json "d['engine']['predictor']['median']['V'][0] = -1"
refused v_neg.json '"engine.predictor.median.V\[0\]" is a negative variance'
edit bd.json coef_short.json "d['engine']['predictor']['prevalence']['coef'] = []"
refused coef_short.json '"engine.predictor.prevalence.coef" is not an array of [0-9]+ numbers'
edit bd.json atom_big.json "d['engine']['predictor']['hpm']['atoms'][0] = 99"
refused atom_big.json '"engine.predictor.hpm.atoms\[0\]" is not an atom index'
edit bd.json no_hpm.json "del d['engine']['predictor']['hpm']"
refused no_hpm.json '"engine.predictor.hpm" is missing'
edit bd.json basis_kind.json "d['engine']['basis']['kind'] = 'gaus'"
refused basis_kind.json '"engine.basis.kind" names no basis'
edit bd.json basis_r.json "d['engine']['basis']['R'][0] = 0"
refused basis_r.json '"engine.basis.R\[0\]" is a zero'
edit bd.json weights_zero.json "d['engine']['predictor']['bma']['posterior'].__setitem__('weights', [0] * len(d['engine']['predictor']['bma']['posterior']['weights']))"
refused weights_zero.json '"engine.predictor.bma.posterior" has no model of positive weight'
edit bd.json null.json "d['engine']['predictor']['hpm']['always_in'] = [None]"
refused null.json '"engine.predictor.hpm.always_in\[0\]" is null'
edit bd.json target_scale.json "d['standardize']['target_scale'] = [-2]"
refused target_scale.json '"standardize.target_scale" is not one positive number'

# the other engines' blocks, through their loaders
edit mix.json mix_w.json "d['engine']['draws']['w'][0][0] = -5"
refused mix_w.json "'draws.w'\[0\] is not a number in \[0, 1\]"
edit mix.json mix_prec.json "d['engine']['draws']['prec'][0][0] = 0"
refused mix_prec.json "'draws.prec'\[0\]"
edit smc.json smc_sigma2.json "d['engine']['particles'][0]['sigma2'] = -1"
refused smc_sigma2.json "smc fit: particle 0"
edit rbf.json rbf_scale2.json "d['engine']['networks'][1]['scale2'] = [-1]"
refused rbf_scale2.json '"engine.networks\[1\]" is not a network'
edit rbf.json rbf_width.json "d['engine']['width'] = -1"
refused rbf_width.json '"engine" is not an RBF network block'

# format versions: 2 (before standardize.target_scale) is read as written;
# 1 and a future 4 are refused
edit bd.json v2.json "d['format_version'] = 2"
expect 0 "" -- "$BASEL" predict "$T/v2.json" "$D" -o "$T/p2.csv"
expect 0 "" -- "$BASEL" predict "$T/bd.json" "$D" -o "$T/p3.csv"
if cmp -s "$T/p2.csv" "$T/p3.csv"; then ok; else bad "a version-2 fit predicts differently"; fi
rm -f "$T/p2.csv" "$T/p3.csv"
edit bd.json v4.json "d['format_version'] = 4"
refused v4.json 'format_version 4 is not read by basel .* \(it reads 2 to 3\)'
edit bd.json v1.json "d['format_version'] = 1"
refused v1.json 'format_version 1 is not read'

# the second reliability audit's (rel.md F9): silently narrower intervals,
# structural errors without a key path, and summaries of impossible values
edit bd.json post_n.json "d['engine']['predictor']['bma']['posterior']['n'] = 10**12"
refused post_n.json '"engine.predictor.bma.posterior.n" is not the fit.s row count n'
edit bd.json v_psd.json "
h = d['engine']['predictor']['hpm']; k = len(h['atoms']); assert k >= 2
h['V'][1] = h['V'][k] = 5 * max(h['V'][0], h['V'][k + 1])"
refused v_psd.json '"engine.predictor.hpm.V" is not positive semi-definite'
edit bd.json v_asym.json "
h = d['engine']['predictor']['hpm']; k = len(h['atoms']); h['V'][1] += 1"
refused v_asym.json '"engine.predictor.hpm.V" is not symmetric'
edit bd.json df_neg.json "d['engine']['predictor']['hpm']['df'] = -3"
refused df_neg.json '"engine.predictor.hpm.df" is not a number of degrees of freedom of at least 1'
edit bd.json scale2_neg.json "d['engine']['predictor']['hpm']['scale2'] = [-1]"
refused scale2_neg.json '"engine.predictor.hpm.scale2\[0\]" is not a positive number'
edit bd.json prior_g.json "d['engine']['predictor']['bma']['posterior']['prior']['g'] = -30"
refused prior_g.json '"engine.predictor.bma.posterior.prior" is not a prior basel knows'
edit bd.json kopt.json "d['k_opt'] = 10**12"
refused kopt.json '"k_opt" is not a model size of the size posterior'
edit bd.json cs_atom.json "d['credible_sets']['sets'][0]['atoms'] = [5000]"
refused cs_atom.json '"credible_sets.sets\[0\].atoms" is not a list of atom indices'

# a Poisson fit whose stored mode sends a model's rate to 0 or to 1e299
# (two mutants hung predict for minutes in a linear count search): predict
# ends within seconds, with intervals or a message, never NaN
Q=data/count/quine.csv
expect 0 "" -- "$BASEL" fit "$Q" --target days --family poisson --method rj --iter 2000 --seed 3 -q -o "$T/pois.json"
for v in -2.68e299 60; do
    edit pois.json pois_mode.json "d['engine']['predictor']['bma']['models'][0]['mode'][0] = $v"
    timeout 20 "$BASEL" predict "$T/pois_mode.json" "$Q" -o "$T/pp.csv" 2> "$T/err"
    rc=$?
    if [ $rc -eq 0 ] && ! grep -qi nan "$T/pp.csv"; then ok
    elif [ $rc -eq 2 ] && grep -q "the predicted count is beyond" "$T/err" && [ ! -e "$T/pp.csv" ]; then ok
    else bad "poisson mode $v: rc $rc; $(head -c 300 "$T/err")"; fi
    rm -f "$T/pp.csv"
done

finish
