/*
 * test_glm_geweke.c: Geweke's joint-distribution test ("getting it right",
 * JASA 2004) of the logistic model's Polya-Gamma augmentation
 * (model/glm.c): the subset moves given omega (theta integrated), the draw
 * theta | A, omega, y and the draw omega | theta ~ PG(1, psi).
 *
 * Joint: A ~ uniform over the 2^m subsets (each atom in with probability
 * 1/2), alpha ~ N(0, 1), beta_j ~ N(0, 1) for j in A, omega_i | theta ~
 * PG(1, psi_i), y_i | theta ~ Bern(logit^-1 psi_i), psi = alpha + X_A beta_A,
 * fixed X (n = 30, m = 3).
 * Marginal-conditional simulator: (A, theta, omega) from that law
 * directly. Successive-conditional simulator: one sweep of the sampler
 * given y (for each atom a Gibbs flip of its indicator from the model's
 * try_add / try_remove scores, which condition on omega; then the model's
 * draw_nuisance: theta, then omega), then a fresh y ~ p(y | theta). Its
 * stationary law is the joint above if and only if (up to the test's
 * power) every step leaves p(A, theta, omega | y) invariant.
 *
 * Compared: the means of k, [atom 1 in], alpha, alpha^2, sum beta_A,
 * sum beta_A^2 and mean(omega). The exact prior means of the first four
 * are 1.5, 0.5, 0, 1 and are checked too; the successive chain's standard
 * error by batch means (50 batches), the marginal-conditional one's as
 * i.i.d. Every |z| below the two-sided Bonferroni quantile at family-wise
 * level 1e-3.
 */
#include "check.h"
#include "stat/mcse.h"
#include "model/glm.h"
#include "model/polyagamma.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 30, M = 3, NSTAT = 7, NBATCH = 50 };

static const char *const names[NSTAT] = {"k", "[x1 in]", "alpha", "alpha^2", "sum beta", "sum beta^2", "mean omega"};
static const double prior_mean[4] = {1.5, 0.5, 0.0, 1.0};
static double X[N * M];

/* psi = alpha + X_A beta (theta: intercept, then the atoms of active) */
static void linear(const size_t *active, size_t k, const double *theta, double *psi)
{
    for (size_t i = 0; i < N; i++) {
        psi[i] = theta[0];
        for (size_t a = 0; a < k; a++) psi[i] += theta[a + 1] * X[i + active[a] * N];
    }
}

static void stats(const size_t *active, size_t k, const double *theta, const double *omega, double *g)
{
    double sb = 0, sb2 = 0, so = 0;
    int in1 = 0;
    for (size_t a = 0; a < k; a++) {
        sb += theta[a + 1];
        sb2 += theta[a + 1] * theta[a + 1];
        in1 |= active[a] == 0;
    }
    for (size_t i = 0; i < N; i++) so += omega[i];
    g[0] = (double)k;
    g[1] = in1;
    g[2] = theta[0];
    g[3] = theta[0] * theta[0];
    g[4] = sb;
    g[5] = sb2;
    g[6] = so / N;
}

/* The Gibbs flip of atom j's indicator given the rest and omega (uniform
 * prior over subsets: the prior odds are 1). */
static int flip(bsl_cmodel *Mo, size_t j, gsl_rng *r)
{
    const double cur = bsl_cmodel_log_ml(Mo);
    const int in = bsl_cmodel_is_active(Mo, j);
    const double other = in ? bsl_cmodel_try_remove(Mo, j) : bsl_cmodel_try_add(Mo, j);
    const double p_in = in ? 1 / (1 + exp(other - cur)) : 1 / (1 + exp(cur - other));
    const int want = gsl_rng_uniform(r) < p_in;
    if (want && !in) return bsl_cmodel_add(Mo, j);
    if (!want && in) bsl_cmodel_remove(Mo, j);
    return BASEL_OK;
}

int main(void)
{
    const size_t iter = STAT_TIER(200000, 2000000);
    printf("test_glm_geweke (%s tier: %zu draws each way)\n", stat_tier_name(), iter);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2004);
    for (size_t i = 0; i < N * M; i++) X[i] = gsl_ran_ugaussian(r);
    double y[N], psi[N], omega[N], theta[M + 1], g[NSTAT];
    size_t active[M];
    /* marginal-conditional */
    double sum[NSTAT] = {0}, sum2[NSTAT] = {0};
    for (size_t t = 0; t < iter; t++) {
        size_t k = 0;
        for (size_t j = 0; j < M; j++)
            if (gsl_rng_uniform(r) < 0.5) active[k++] = j;
        for (size_t a = 0; a <= k; a++) theta[a] = gsl_ran_ugaussian(r);
        linear(active, k, theta, psi);
        for (size_t i = 0; i < N; i++) omega[i] = bsl_pg_draw(r, psi[i]);
        stats(active, k, theta, omega, g);
        for (int s = 0; s < NSTAT; s++) sum[s] += g[s], sum2[s] += g[s] * g[s];
    }
    /* successive-conditional: start from a draw of the joint */
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_coef_prior prior;
    bsl_cmodel *Mo = NULL;
    for (size_t i = 0; i < N; i++) y[i] = i % 2; /* the design needs targets; replaced below */
    int rc = bsl_dict_create(&dict, "linear", X, N, M, &err);
    if (!rc) rc = bsl_design_create(&D, dict, X, N, y, 1, (size_t)1 << 30, &err);
    if (!rc) rc = bsl_glm_prior_parse(&prior, "normal:sd=1,intercept-sd=1", 0, &err);
    if (!rc) rc = bsl_cmodel_create(&Mo, &bsl_model_glm, D, &prior, M, &err);
    CHECK(rc == BASEL_OK, "setup: %s", err.message);
    if (rc) return check_report("test_glm_geweke");
    theta[0] = gsl_ran_ugaussian(r);
    linear(active, 0, theta, psi);
    for (size_t i = 0; i < N; i++) {
        omega[i] = bsl_pg_draw(r, psi[i]);
        y[i] = gsl_rng_uniform(r) < 1 / (1 + exp(-psi[i]));
    }
    CHECK(bsl_glm_set_y(Mo->st, y) == BASEL_OK && bsl_glm_set_omega(Mo->st, omega) == BASEL_OK, "start");
    double batch[NBATCH][NSTAT] = {{0}};
    const size_t per = iter / NBATCH;
    for (size_t t = 0; t < per * NBATCH && !rc; t++) {
        for (size_t j = 0; j < M && !rc; j++) rc = flip(Mo, j, r);
        if (!rc) rc = bsl_cmodel_draw_nuisance(Mo, r);
        const size_t k = bsl_cmodel_k(Mo);
        const double *th = bsl_glm_theta(Mo->st);
        stats(bsl_cmodel_active(Mo), k, th, bsl_glm_omega(Mo->st), g);
        for (int s = 0; s < NSTAT; s++) batch[t / per][s] += g[s] / (double)per;
        linear(bsl_cmodel_active(Mo), k, th, psi);
        for (size_t i = 0; i < N; i++) y[i] = gsl_rng_uniform(r) < 1 / (1 + exp(-psi[i]));
        if (!rc) rc = bsl_glm_set_y(Mo->st, y);
    }
    CHECK(rc == BASEL_OK, "the successive-conditional chain ran (rc %d)", rc);
    const size_t K = NSTAT + 4;
    const double zq = gsl_cdf_ugaussian_Qinv(1e-3 / 2 / (double)K);
    for (int s = 0; s < NSTAT; s++) {
        const double mm = sum[s] / (double)iter;
        const double se_m = sqrt(fmax(sum2[s] / (double)iter - mm * mm, 0) / (double)iter);
        double ms = 0, vs = 0;
        for (int b = 0; b < NBATCH; b++) ms += batch[b][s] / NBATCH;
        for (int b = 0; b < NBATCH; b++) vs += (batch[b][s] - ms) * (batch[b][s] - ms);
        const double se_s = sqrt(vs / (NBATCH - 1) / NBATCH);
        const double z = (ms - mm) / sqrt(se_m * se_m + se_s * se_s);
        printf("  %-12s marginal-conditional %.4f (se %.4f)  successive %.4f (se %.4f)  z %+.2f", names[s], mm, se_m,
               ms, se_s, z);
        CHECK(fabs(z) < zq, "%s: successive %.5f vs marginal-conditional %.5f, |z| %.2f >= %.2f", names[s], ms, mm,
              fabs(z), zq);
        if (s < 4) {
            const double zp = (ms - prior_mean[s]) / se_s;
            printf("  exact %.1f z %+.2f", prior_mean[s], zp);
            CHECK(fabs(zp) < zq, "%s: successive %.5f vs exact prior mean %.1f, |z| %.2f >= %.2f", names[s], ms,
                  prior_mean[s], fabs(zp), zq);
        }
        printf("\n");
    }
    bsl_cmodel_free(Mo);
    bsl_design_free(D);
    bsl_dict_free(dict);
    gsl_rng_free(r);
    return check_report("test_glm_geweke");
}
