#!/bin/bash
# test_glm_multi_coef.sh: the multinomial fit's coefficient table (FIT.json
# "coefficients", basel coef; docs/GLM.md "Multinomial", subset_multi_coef.c).
# A simulated design of three classes and two inputs, n = 400,
#     eta_2 = 0.5 + 2 x1 - 2 x2,   eta_3 = -0.5 - 1.5 x1 + 2 x2   (eta_1 = 0),
# x1 ~ N(1, 2^2), x2 ~ N(-3, 0.5^2) (raw scales, so that undoing the
# standardisation is tested), where every effect is strong: the full joint
# model holds all but ~1e-9 of the posterior, so the table is that model's
# Laplace approximation. Checked:
#  1. enumerate's table at the full model equals an independent Newton solve
#     of the posterior mode (numpy, in this test: the same N(0, 1) prior on
#     the standardised coefficients and N(0, 10^2) on the intercepts, the
#     standardisation's mean and scale read from FIT.json) on the raw
#     inputs' scale, to 1e-5 of each term's sd (the library's Newton stops
#     at a decrement of 1e-12: its mode is known to about 1e-6 sd); the sds
#     equal the inverse Hessian's there to 1e-4 relative;
#  2. the known coefficients: 2:x1 = 2 and 3:x1 = -1.5 lie within 4 sds
#     of the table's means, and their intervals exclude 0 on the right side;
#  3. R's nnet::multinom (maximum likelihood, no prior) at the full model
#     agrees with enumerate's table under a nearly flat prior
#     (normal:sd=100,intercept-sd=100: it moves the mode by about
#     sd^2 / 100^2 of a standardised coefficient, < 1e-4 sd here) within
#     0.01 sd, for every term (nnet's own convergence, reltol 1e-12; the
#     mean given inclusion, each PIP above 0.9999 there);
#  4. rj's table (the Laplace approximations of its visited models) equals
#     enumerate's within 1e-3 sd (the same model holds both);
#  5. basel coef writes one row per class and term, names "level:input".
source "$(dirname "$0")/lib.sh" "$1"
/usr/bin/python3 -c "
import numpy as np
rng = np.random.default_rng(7)
n = 400
x1 = 1 + 2 * rng.standard_normal(n); x2 = -3 + 0.5 * rng.standard_normal(n)
e2 = 0.5 + 2 * ((x1 - 1) / 2) - 2 * ((x2 + 3) / 0.5)
e3 = -0.5 - 1.5 * ((x1 - 1) / 2) + 2 * ((x2 + 3) / 0.5)
P = np.exp(np.c_[np.zeros(n), e2, e3]); P /= P.sum(1, keepdims=True)
y = np.array([rng.choice(3, p=p) for p in P]) + 1
with open('$T/d.csv', 'w') as f:
    f.write('x1,x2,y\n')
    for a, b, c in zip(x1, x2, y): f.write('%.10g,%.10g,%d\n' % (a, b, c))
"
# the true coefficients on the raw scale: class 2's x1 is 2 / 2 = 1, class 3's -1.5 / 2 = -0.75
expect 0 "" -- "$BASEL" fit "$T/d.csv" --target y --family multinomial --method enumerate --seed 3 --quiet -o "$T/e.json"
expect 0 "" -- "$BASEL" fit "$T/d.csv" --target y --family multinomial --method rj --iter 4000 --seed 3 --quiet -o "$T/r.json"
expect 0 "table is the mode" -- /usr/bin/python3 -c "
import json, sys, numpy as np
d = json.load(open('$T/e.json'))
co = d['coefficients']; t = {r['name']: r for r in co['terms']}
ok = co['within_model'] == 'laplace' and co['reference_class'] == '1' and len(co['terms']) == 6
ok = ok and [r['name'] for r in co['terms']] == ['2:(Intercept)', '2:x1', '2:x2', '3:(Intercept)', '3:x1', '3:x2']
ok = ok and all(r['class'] == r['name'][0] and r['target'] == 'y' for r in co['terms'])
ok = ok and min(d['pip']) > 1 - 1e-6
if not ok: print('layout', co['terms'][:2], d['pip']); sys.exit(1)
X = np.loadtxt('$T/d.csv', delimiter=',', skiprows=1); y = X[:, 2].astype(int) - 1; X = X[:, :2]
mu = np.array(d['standardize']['mean']); sc = np.array(d['standardize']['scale'])
Z = np.c_[np.ones(len(y)), (X - mu) / sc]
lam = np.array([1 / 100., 1, 1])
th = np.zeros(6)  # class 2's (alpha, b1, b2), then class 3's
Y = np.zeros((len(y), 3)); Y[np.arange(len(y)), y] = 1
for it in range(100):  # Newton on -log posterior (concave)
    B = th.reshape(2, 3); E = np.c_[np.zeros(len(y)), Z @ B.T]; E -= E.max(1, keepdims=True)
    P = np.exp(E); P /= P.sum(1, keepdims=True)
    g = np.concatenate([Z.T @ (Y[:, c + 1] - P[:, c + 1]) for c in range(2)]) - np.tile(lam, 2) * th
    H = np.zeros((6, 6))
    for a in range(2):
        for b in range(2):
            w = P[:, a + 1] * ((a == b) - P[:, b + 1])
            H[3*a:3*a+3, 3*b:3*b+3] = (Z * w[:, None]).T @ Z
    H += np.diag(np.tile(lam, 2))
    step = np.linalg.solve(H, g); th += step
    if np.abs(step).max() < 1e-13: break
V = np.linalg.inv(H)
# to the raw inputs: slope b / s, intercept a - sum b mu / s
U = np.zeros((6, 6))
for c in range(2):
    U[3*c, 3*c] = 1; U[3*c, 3*c+1:3*c+3] = -mu / sc
    U[3*c+1, 3*c+1] = 1 / sc[0]; U[3*c+2, 3*c+2] = 1 / sc[1]
m = U @ th; S = np.sqrt(np.diag(U @ V @ U.T))
names = ['2:(Intercept)', '2:x1', '2:x2', '3:(Intercept)', '3:x1', '3:x2']
for k, nm in enumerate(names):
    r = t[nm]
    if abs(r['mean'] - m[k]) > 1e-5 * S[k] or abs(r['sd'] / S[k] - 1) > 1e-4:
        print('term', nm, r['mean'], m[k], r['sd'], S[k]); sys.exit(1)
np.savetxt('$T/mode.txt', np.c_[m, S])
print('table is the mode, largest |diff| / sd %.2g' % max(abs(t[nm]['mean'] - m[k]) / S[k] for k, nm in enumerate(names)))"
expect 0 "known coefficients" -- /usr/bin/python3 -c "
import json, sys
t = {r['name']: r for r in json.load(open('$T/e.json'))['coefficients']['terms']}
a, b = t['2:x1'], t['3:x1']
ok = abs(a['mean'] - 1.0) < 4 * a['sd'] and abs(b['mean'] + 0.75) < 4 * b['sd'] and a['lower'] > 0 and b['upper'] < 0
print('known coefficients: 2:x1 %.3f (sd %.3f, true 1), 3:x1 %.3f (sd %.3f, true -0.75)' % (a['mean'], a['sd'], b['mean'], b['sd'])
      if ok else 'wrong: %s %s' % (a, b)); sys.exit(0 if ok else 1)"
# R's nnet::multinom at the full model (maximum likelihood) against the table under a nearly flat prior
expect 0 "" -- "$BASEL" fit "$T/d.csv" --target y --family multinomial --method enumerate --prior normal:sd=100,intercept-sd=100 \
    --seed 3 --quiet -o "$T/flat.json"
if Rscript -e 'quit(status = !requireNamespace("nnet", quietly = TRUE))' 2> /dev/null; then
    expect 0 "nnet agrees" -- Rscript -e "
d <- read.csv('$T/d.csv'); d\$y <- factor(d\$y)
f <- nnet::multinom(y ~ x1 + x2, d, trace = FALSE, reltol = 1e-12, maxit = 1000)
b <- coef(f)  # rows: classes 2, 3; columns (Intercept), x1, x2
t <- jsonlite::fromJSON('$T/flat.json')\$coefficients\$terms
for (nm in t\$name) {
    r <- t[t\$name == nm, ]
    v <- b[substr(nm, 1, 1), substring(nm, 3)]
    if (r\$pip < 0.9999 || abs(r\$cond_mean - v) > 0.01 * r\$cond_sd) { cat('nnet', nm, r\$cond_mean, v, r\$cond_sd, r\$pip, '\n'); quit(status = 1) }
}
cat('nnet agrees\n')"
fi
expect 0 "rj's table" -- /usr/bin/python3 -c "
import json, sys
e = json.load(open('$T/e.json'))['coefficients']['terms']; r = json.load(open('$T/r.json'))['coefficients']['terms']
bad = [(a['name'], a['mean'], b['mean']) for a, b in zip(e, r) if a['name'] != b['name'] or abs(a['mean'] - b['mean']) > 1e-3 * a['sd']]
print(\"rj's table is enumerate's\" if not bad else 'differ: %s' % bad); sys.exit(1 if bad else 0)"
expect 0 "^term,target,pip,mean,sd,cond_mean,cond_sd,lower,upper$" -- "$BASEL" coef "$T/e.json" -o - 
expect 0 "^3:x2,y,0.99|^3:x2,y,1," -- "$BASEL" coef "$T/r.json" -o -
expect 0 "log-odds; model-averaged" -- "$BASEL" summary "$T/r.json"
finish
