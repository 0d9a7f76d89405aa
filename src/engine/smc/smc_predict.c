/*
 * smc_predict.c: model-averaged predictions from the weighted particles
 * (smc.h). Given a particle's centres S and variances, y(x) is Gaussian with
 * mean v'M^{-1}K'Y and variance sigma2 (1 + v'M^{-1}v), v = [1, K(x, mu_j)]
 * (eq. 4: beta ~ N(M^{-1}K'Y, sigma2 M^{-1})); the prediction is the
 * weighted mixture over particles, its quantiles by safeguarded Newton on
 * the mixture's CDF (tmix.c, as every model-averaged interval: a normal is
 * its df = inf). The particles' centres are points of the cache, and most
 * of them are shared by many particles (descendants of one resampled
 * ancestor), so each row evaluates the kernel once per distinct centre,
 * not once per particle and centre. Read-only on the system; allocates its
 * own scratch (not a per-point hot path of the sampler).
 */
#include "smc_impl.h"
#include "../../summary/tmix.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* v = [1, K(x, mu_j)] for particle P at the point x (d entries, stride ldx). */
static void design_row(const smc_particle *P, const smc_cache *C, const double *x, double *v)
{
    v[0] = 1;
    for (size_t j = 0; j < P->k; j++) v[j + 1] = bsl_smc_kernel(x, C->xc + P->centre[j] * C->d, C->d, C->width);
}

/* x <- L^{-1} x for a packed lower factor (k (k + 1) / 2, column-major). */
static void solve_packed(const double *Lp, size_t k, double *x)
{
    for (size_t j = 0, col = 0; j < k; col += k - j, j++) {
        x[j] /= Lp[col];
        for (size_t i = j + 1; i < k; i++) x[i] -= Lp[col + i - j] * x[j];
    }
}

int bsl_smc_predict(const bsl_smc *s, const double *X, size_t n, double level, double *mean,
                    double *lower, double *upper, double *sd_new, double *sd_f)
{
    if ((lower || upper) && !(level > 0 && level < 1)) return BASEL_EINVAL;
    const smc_cache *C = &s->cache;
    const size_t N = s->o.particles, d = C->d, cap = s->o.kmax + 1, tri = cap * (cap + 1) / 2, mc = C->m;
    double *mu = bsl_malloc(N, sizeof *mu), *sd = bsl_malloc(N, sizeof *sd), *df = bsl_malloc(N, sizeof *df);
    double *bbar = bsl_malloc(N * cap, sizeof *bbar), *Lp = bsl_malloc(N * tri, sizeof *Lp);
    double *v = bsl_malloc(cap, sizeof *v), *w = bsl_malloc(cap, sizeof *w);
    double *x = bsl_malloc(d, sizeof *x), *kv = bsl_malloc(mc + 1, sizeof *kv);
    size_t *slot = bsl_malloc(mc + 1, sizeof *slot), *used = bsl_malloc(mc + 1, sizeof *used);
    bsl_tmix_ws ws = {0};
    bsl_tmix_ws_fixed(&ws); /* every row mixes the same particles with the same weights */
    int rc = mu && sd && df && bbar && Lp && v && w && x && kv && slot && used ? BASEL_OK : BASEL_ENOMEM;
    /* once per particle: the posterior mean of beta, M^{-1}K'Y, and the
     * factor of M (the model's, packed); and the centres any particle uses */
    size_t nu = 0;
    for (size_t c = 0; rc == BASEL_OK && c < mc; c++) slot[c] = SIZE_MAX;
    for (size_t i = 0; rc == BASEL_OK && i < N; i++) {
        bsl_cmodel_coef_mean(s->p[i].M, bbar + i * cap);
        bsl_cmodel_gram_factor(s->p[i].M, Lp + i * tri);
        df[i] = INFINITY;
        for (size_t j = 0; j < s->p[i].k; j++)
            if (slot[s->p[i].centre[j]] == SIZE_MAX) slot[s->p[i].centre[j]] = 0;
    }
    for (size_t c = 0; rc == BASEL_OK && c < mc; c++)
        if (slot[c] != SIZE_MAX) {
            slot[c] = nu;
            used[nu++] = c;
        }
    for (size_t t = 0; rc == BASEL_OK && t < n; t++) {
        for (size_t j = 0; j < d; j++) x[j] = X[t + j * n];
        for (size_t u = 0; u < nu; u++) kv[u] = bsl_smc_kernel(x, C->xc + used[u] * d, d, C->width);
        double m = 0;
        for (size_t i = 0; i < N; i++) {
            const smc_particle *P = &s->p[i];
            const size_t k1 = bsl_cmodel_k(P->M); /* k + 1 once a point is in */
            v[0] = 1; /* design_row's, from the row's kernel values */
            for (size_t j = 0; j < P->k; j++) v[j + 1] = kv[slot[P->centre[j]]];
            mu[i] = bsl_dot(v, bbar + i * cap, k1);
            memcpy(w, v, k1 * sizeof *w);
            solve_packed(Lp + i * tri, k1, w);
            sd[i] = sqrt(P->sigma2 * (1 + bsl_dot(w, w, k1)));
            m += s->W[i] * mu[i];
        }
        if (mean) mean[t] = m;
        if (lower || upper) {
            const bsl_tmix mix = {s->W, mu, sd, df, N, 0};
            const double pq[2] = {(1 - level) / 2, (1 + level) / 2};
            double q[2];
            bsl_tmix_quantiles(&mix, pq, 2, q, &ws);
            if (ws.oom) rc = BASEL_ENOMEM;
            if (lower) lower[t] = q[0];
            if (upper) upper[t] = q[1];
        }
        if (sd_new && sd_f) { /* each particle's normal: variance sd^2, of f alone sd^2 - sigma2 */
            double W = 0, vn = 0, vf = 0;
            for (size_t i = 0; i < N; i++) {
                const double dm2 = (mu[i] - m) * (mu[i] - m);
                W += s->W[i];
                vn += s->W[i] * (sd[i] * sd[i] + dm2);
                vf += s->W[i] * (fmax(sd[i] * sd[i] - s->p[i].sigma2, 0.0) + dm2);
            }
            sd_new[t] = sqrt(vn / W);
            sd_f[t] = sqrt(vf / W);
        }
    }
    bsl_tmix_ws_free(&ws);
    free(mu);
    free(sd);
    free(df);
    free(bbar);
    free(Lp);
    free(v);
    free(w);
    free(x);
    free(kv);
    free(slot);
    free(used);
    return rc;
}

int bsl_smc_mmse(const bsl_smc *s, const double *X, size_t n, double *out)
{
    const size_t N = s->o.particles, d = s->cache.d, cap = s->o.kmax + 1;
    double *v = bsl_malloc(cap, sizeof *v), *x = bsl_malloc(d, sizeof *x);
    if (!v || !x) {
        free(v);
        free(x);
        return BASEL_ENOMEM;
    }
    for (size_t t = 0; t < n; t++) {
        for (size_t j = 0; j < d; j++) x[j] = X[t + j * n];
        double m = 0;
        for (size_t i = 0; i < N; i++) {
            design_row(&s->p[i], &s->cache, x, v);
            m += s->W[i] * bsl_dot(v, s->p[i].beta, s->p[i].k + 1);
        }
        out[t] = m;
    }
    free(v);
    free(x);
    return BASEL_OK;
}
