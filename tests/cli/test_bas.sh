#!/bin/bash
# test_bas.sh: exact enumeration against R's BAS (data/linear/bas_*.json,
# written by bench/linear/bas_reference.R): PIPs, size posteriors, model
# scores and BMA coefficients under the g-prior, AIC and BIC, and the
# mixtures of g-priors (hyper-g, hyper-g/n, jzs, robust, eb-local)
# (bench/linear/compare_bas.py; needs only python3).
source "$(dirname "$0")/lib.sh" "$1"
if ! command -v python3 > /dev/null; then echo "python3 missing: skipped"; exit 0; fi
expect 0 "max[|]dPIP[|]" -- python3 bench/linear/compare_bas.py "$BASEL" --check 1e-6
finish
