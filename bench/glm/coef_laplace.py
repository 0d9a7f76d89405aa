#!/usr/bin/python3
"""bench/glm/coef_laplace.py: how far the GLM coefficient table's
within-model Laplace approximations (docs/GLM.md "Coefficients") are from
each model's exact posterior moments, on a binomial FIT.json and its
training CSV (the inputs standardised as basel does, prior normal:sd=1,
intercept-sd=10, the defaults).

    bench/glm/coef_laplace.py FIT.json TRAIN.csv

For every model of the model average's block (engine.predictor.bma) it
estimates the posterior mean and variance of theta by self-normalised
importance sampling (40000 draws from a multivariate t, 4 degrees of
freedom, at the stored mode with the stored Hessian's inverse as scale),
and prints, per input, the model-averaged mean and sd given inclusion from
the Laplace normals and from the importance-sampling moments, their
difference in units of the latter sd, and the importance sampler's
effective sample sizes (the reference is only as good as they are).
Needs numpy (Debian python3-numpy).
"""
import json, sys, csv
import numpy as np
fit = json.load(open(sys.argv[1])); data = sys.argv[2]
rows = list(csv.DictReader(open(data)))
names = [a['name'] for a in fit['atoms']]
X = np.array([[float(r[nm]) for nm in names] for r in rows])
mu, sd = X.mean(0), X.std(0, ddof=1); Z = (X - mu) / sd
cls = fit['classes']; y = np.array([r[fit['settings']['target']] == cls[1] for r in rows], float)
assert fit["settings"]["prior"] == "normal:sd=1,intercept-sd=10", "the defaults only"
s1, s0 = 1.0, 10.0
rng = np.random.default_rng(1)
S = 40000
models = fit['engine']['predictor']['bma']['models']
m = len(names)
lap = {j: [] for j in range(m)}; ex = {j: [] for j in range(m)}; ESS = []
worst = 0
for mo in models:
    A = mo['atoms']; d = len(A) + 1
    mode = np.array(mo['mode']); L = np.array(mo['factor']).reshape(d, d).T  # column-major -> L[i,j]
    L = np.tril(L)
    cov = np.linalg.inv(L @ L.T)
    C = np.linalg.cholesky(cov)
    nu = 4
    z = rng.standard_normal((S, d)); g = rng.chisquare(nu, S) / nu
    th = mode + (z @ C.T) / np.sqrt(g)[:, None]
    D = np.column_stack([np.ones(len(y)), Z[:, A]])
    psi = th @ D.T
    ll = (psi * y).sum(1) - np.logaddexp(0, psi).sum(1)
    lp = -0.5 * (th[:, 0] / s0) ** 2 - 0.5 * ((th[:, 1:] / s1) ** 2).sum(1)
    dev = th - mode; q = np.einsum('ij,jk,ik->i', dev, np.linalg.inv(cov), dev)
    lq = -0.5 * (nu + d) * np.log1p(q / nu)
    lw = ll + lp - lq; w = np.exp(lw - lw.max()); w /= w.sum()
    em = w @ th; ev = w @ (th - em) ** 2
    for a, j in enumerate(A):
        lap[j].append((mo['weight'], mode[a + 1], cov[a + 1, a + 1]))
        ex[j].append((mo['weight'], em[a + 1], ev[a + 1]))
    ess = 1 / (w ** 2).sum(); ESS.append(ess)
for j in range(m):
    def mix(c):
        W = sum(t[0] for t in c); m1 = sum(t[0] * t[1] for t in c) / W; m2 = sum(t[0] * (t[2] + t[1] ** 2) for t in c) / W
        return m1, np.sqrt(max(m2 - m1 * m1, 0))
    lm, ls = mix(lap[j]); em_, es = mix(ex[j])
    worst = max(worst, abs(lm - em_) / es)
    print('%-6s cond mean laplace %.4f exact %.4f | cond sd laplace %.4f exact %.4f | diff/sd %.3f  sd ratio %.3f' % (names[j], lm, em_, ls, es, abs(lm - em_) / es, ls / es))
print('models', len(models), 'worst |mean diff| / sd %.3f' % worst)
print('IS ESS min %.0f median %.0f of %d draws' % (min(ESS), sorted(ESS)[len(ESS)//2], S))
