/*
 * test_pred_intervals.c: the prediction intervals of the RBF networks
 * (rbf_predict.c) and of the sequential RVM's particles (smc_predict.c),
 * both the quantiles of a mixture found by tmix.c, against the mixture
 * they stand for, built here from the fitted pieces and evaluated with
 * GSL's CDFs: at every row, the mixture's CDF at the lower end is
 * (1 - level) / 2 and at the upper end (1 + level) / 2, to 1e-12, and the
 * mean is the mixture's, to 1e-14 relative.
 *   - RBF: three networks of no centre and a linear term (their design row
 *     is [1, x], so the test needs no kernel), dof 5, 12 and infinity (a
 *     normal), equal weights, at 40 points spanning the data and beyond.
 *   - SMC: a system fed 40 points of sinc (as test_smc_resume), 64
 *     particles of unequal weights, normal components, at 40 points, and
 *     --interval none's path (no ends asked) gives the same means.
 */
#include "check.h"
#include "engine/rbf/rbf.h"
#include "engine/rbf/rbf_result.h"
#include "engine/smc/smc.h"
#include "engine/smc/smc_impl.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 40 };
static const double LEVEL = 0.9;

static double mix_cdf(const double *w, const double *mu, const double *sc, const double *dof, size_t K, double x)
{
    double F = 0;
    for (size_t s = 0; s < K; s++) {
        const double z = (x - mu[s]) / sc[s];
        F += w[s] * (isinf(dof[s]) ? gsl_cdf_ugaussian_P(z) : gsl_cdf_tdist_P(z, dof[s]));
    }
    return F;
}

/* the ends' CDFs and the mean of row i against the mixture */
static void check_row(const char *who, size_t i, const double *w, const double *mu, const double *sc,
                      const double *dof, size_t K, double mean, double lo, double hi)
{
    double m = 0, W = 0;
    for (size_t s = 0; s < K; s++) m += w[s] * mu[s], W += w[s];
    CHECK(fabs(mean - m) <= 1e-14 * (fabs(m) + 1), "%s row %zu: mean %.17g, mixture's %.17g", who, i, mean, m);
    const double Flo = mix_cdf(w, mu, sc, dof, K, lo) / W, Fhi = mix_cdf(w, mu, sc, dof, K, hi) / W;
    CHECK(fabs(Flo - (1 - LEVEL) / 2) <= 1e-12, "%s row %zu: F(lower %.17g) = %.15f", who, i, lo, Flo);
    CHECK(fabs(Fhi - (1 + LEVEL) / 2) <= 1e-12, "%s row %zu: F(upper %.17g) = %.15f", who, i, hi, Fhi);
}

static void rbf_case(void)
{
    const size_t K = 3, q = 2;
    bsl_rbf_result *r = rbf_result_new();
    CHECK(r != NULL, "rbf result");
    if (!r) return;
    r->radial = BSL_BASIS_GAUSS;
    r->linear_term = 1;
    r->d = 1;
    r->c = 1;
    r->q = q;
    r->kmax = 0;
    r->width = 1;
    r->lo = calloc(1, sizeof(double));
    r->side = calloc(1, sizeof(double));
    r->draws = calloc(K, sizeof *r->draws);
    r->ndraws = K;
    const double coef[3][2] = {{0.5, 1.0}, {0.3, 1.2}, {0.7, 0.9}}, dofs[3] = {5, 12, INFINITY};
    const double lpk[3][3] = {{2.0, 0.3, 1.5}, {1.0, -0.2, 0.8}, {3.0, 0.5, 2.5}};
    for (size_t s = 0; s < K; s++) {
        CHECK(rbf_draw_alloc(&r->draws[s], 0, 1, 1, q) == BASEL_OK, "draw %zu", s);
        memcpy(r->draws[s].coef, coef[s], sizeof coef[s]);
        memcpy(r->draws[s].lpk, lpk[s], sizeof lpk[s]);
        r->draws[s].scale2[0] = 0.1 * (double)(s + 1);
        r->draws[s].shrink[0] = 0.9;
        r->draws[s].dof = dofs[s];
    }
    double X[ROWS], mean[ROWS], lo[ROWS], hi[ROWS], sd[ROWS], sdf[ROWS];
    for (size_t i = 0; i < ROWS; i++) X[i] = -3 + 0.2 * (double)i;
    const int rc = bsl_rbf_predict(r, X, ROWS, LEVEL, mean, lo, hi, sd, sdf);
    CHECK(rc == BASEL_OK, "bsl_rbf_predict: %d", rc);
    for (size_t i = 0; i < ROWS && rc == BASEL_OK; i++) {
        double w[3], mu[3], sc[3];
        for (size_t s = 0; s < K; s++) { /* row [1, x]: mu = b0 + b1 x; h = |L^{-1} row|^2 */
            const double *L = lpk[s], z0 = 1 / L[0], z1 = (X[i] - L[1] * z0) / L[2];
            w[s] = 1.0 / (double)K;
            mu[s] = coef[s][0] + coef[s][1] * X[i];
            sc[s] = sqrt(r->draws[s].scale2[0] * (1 + 0.9 * (z0 * z0 + z1 * z1)));
        }
        check_row("rbf", i, w, mu, sc, dofs, K, mean[i], lo[i], hi[i]);
    }
    bsl_rbf_free(r);
}

static void smc_case(void)
{
    enum { N_PTS = 40 };
    double x[N_PTS], y[N_PTS];
    for (int i = 0; i < N_PTS; i++) {
        const double u = fmod(0.7548776662 * (i + 1) * 13.0, 1.0);
        x[i] = -10 + 20 * u;
        y[i] = (x[i] == 0 ? 1 : sin(x[i]) / x[i]) + 0.1 * sin(78.233 * (i + 1));
    }
    bsl_smc_options o;
    bsl_smc_options_default(&o);
    o.particles = 64;
    o.seed = 4242;
    o.candidates = 30;
    o.ess_threshold = 0.3; /* resampled only when the weights degenerate: they differ at the end */
    bsl_smc *s = NULL;
    basel_error err;
    int rc = bsl_smc_create(&s, 1, &o, &err);
    for (int i = 0; i < N_PTS && rc == BASEL_OK; i++) rc = bsl_smc_feed(s, &x[i], y[i], &err);
    CHECK(rc == BASEL_OK, "smc: %s", err.message);
    if (rc) {
        bsl_smc_free(s);
        return;
    }
    double X[ROWS], mean[ROWS], lo[ROWS], hi[ROWS], sd[ROWS], sdf[ROWS], mean2[ROWS];
    for (size_t i = 0; i < ROWS; i++) X[i] = -12 + 0.6 * (double)i;
    rc = bsl_smc_predict(s, X, ROWS, LEVEL, mean, lo, hi, sd, sdf);
    CHECK(rc == BASEL_OK, "bsl_smc_predict: %d", rc);
    CHECK(bsl_smc_predict(s, X, ROWS, LEVEL, mean2, NULL, NULL, NULL, NULL) == BASEL_OK &&
              !memcmp(mean, mean2, sizeof mean),
          "smc: the means without the interval are the same");
    const size_t N = o.particles, cap = o.kmax + 1;
    double *mu = malloc(N * sizeof *mu), *sc = malloc(N * sizeof *sc), *df = malloc(N * sizeof *df);
    double *b = malloc(cap * sizeof *b), *L = malloc(cap * (cap + 1) / 2 * sizeof *L), *v = malloc(cap * sizeof *v);
    double wmin = INFINITY, wmax = 0;
    for (size_t i = 0; i < ROWS && rc == BASEL_OK; i++) {
        for (size_t p = 0; p < N; p++) { /* eq. (4): v = [1, K(x, mu_j)], mean v'b, var sigma2 (1 + |L^{-1} v|^2) */
            const smc_particle *P = &s->p[p];
            const size_t k1 = bsl_cmodel_k(P->M);
            bsl_cmodel_coef_mean(P->M, b);
            bsl_cmodel_gram_factor(P->M, L);
            v[0] = 1;
            for (size_t j = 0; j < P->k; j++)
                v[j + 1] = bsl_smc_kernel(&X[i], s->cache.xc + P->centre[j] * s->cache.d, 1, s->cache.width);
            double m = 0, h = 0;
            for (size_t j = 0; j < k1; j++) m += v[j] * b[j];
            for (size_t j = 0, col = 0; j < k1; col += k1 - j, j++) {
                v[j] /= L[col];
                h += v[j] * v[j];
                for (size_t t = j + 1; t < k1; t++) v[t] -= L[col + t - j] * v[j];
            }
            mu[p] = m;
            sc[p] = sqrt(P->sigma2 * (1 + h));
            df[p] = INFINITY;
            wmin = fmin(wmin, s->W[p]);
            wmax = fmax(wmax, s->W[p]);
        }
        check_row("smc", i, s->W, mu, sc, df, N, mean[i], lo[i], hi[i]);
    }
    CHECK(wmax > 1.001 * wmin, "smc: the particles' weights differ (%.3g .. %.3g)", wmin, wmax);
    free(mu);
    free(sc);
    free(df);
    free(b);
    free(L);
    free(v);
    bsl_smc_free(s);
}

int main(void)
{
    rbf_case();
    smc_case();
    return check_report("test_pred_intervals");
}
