/*
 * test_polyagamma.c: Devroye's PG(1, c) sampler (model/polyagamma.c)
 * against the exact moments and Laplace transform of PG(1, c) (Polson,
 * Scott and Windle 2013, eq. 1 and 7):
 *   E omega = tanh(c/2) / (2c)                      (1/4 at c = 0)
 *   Var omega = (sinh c - c) sech^2(c/2) / (4 c^3)  (1/24 at c = 0)
 *   E exp(-t omega) = cosh(c/2) / cosh(sqrt(c^2/4 + t/2)).
 * For each c, N draws; each sample mean (of omega, of (omega - E)^2, of
 * exp(-t omega)) must be within Z = 5 of its own standard error (the sample
 * sd of the averaged quantity over sqrt N) of the exact value: a correct
 * sampler fails one of the 25 checks with probability below 1e-5. Also
 * checked: the closed forms near c = 0 join their series, draws are
 * positive and finite, and c and -c give the same law (same stream).
 */
#include "check.h"
#include "model/polyagamma.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

#define Z 5.0
enum { N = 200000 };

/* mean and standard error of the mean of x[0..n) */
static void mean_se(const double *x, size_t n, double *mean, double *se)
{
    double s = 0, ss = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    const double mu = s / (double)n;
    for (size_t i = 0; i < n; i++) ss += (x[i] - mu) * (x[i] - mu);
    *mean = mu;
    *se = sqrt(ss / (double)(n - 1) / (double)n);
}

static double w[N], f[N];

static void check_c(gsl_rng *r, double c)
{
    int ok = 1;
    for (size_t i = 0; i < N; i++) {
        w[i] = bsl_pg_draw(r, c);
        ok &= isfinite(w[i]) && w[i] > 0;
    }
    CHECK(ok, "c = %g: every draw positive and finite", c);
    double m, se;
    mean_se(w, N, &m, &se);
    const double mu = bsl_pg_mean(c), var = bsl_pg_var(c);
    CHECK(fabs(m - mu) <= Z * se, "c = %g: mean %.6g vs exact %.6g (se %.2g)", c, m, mu, se);
    const double mean = m;
    for (size_t i = 0; i < N; i++) f[i] = (w[i] - mu) * (w[i] - mu);
    mean_se(f, N, &m, &se);
    const double v = m;
    CHECK(fabs(m - var) <= Z * se, "c = %g: variance %.6g vs exact %.6g (se %.2g)", c, m, var, se);
    const double ts[] = {1.0, 10.0};
    for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; i < N; i++) f[i] = exp(-ts[k] * w[i]);
        mean_se(f, N, &m, &se);
        const double lt = bsl_pg_laplace(c, ts[k]);
        CHECK(fabs(m - lt) <= Z * se, "c = %g: E exp(-%g omega) %.6g vs exact %.6g (se %.2g)", c, ts[k], m, lt,
              se);
    }
    printf("c = %-5g mean %.5f (exact %.5f)  var %.6f (exact %.6f)\n", c, mean, mu, v, var);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20130101);
    /* the closed forms meet their series where they switch */
    CHECK_CLOSE(bsl_pg_mean(1e-4 * (1 + 1e-12)), bsl_pg_mean(1e-4 * (1 - 1e-12)), 1e-12, "mean at the switch");
    CHECK_CLOSE(bsl_pg_var(1e-2 * (1 + 1e-12)), bsl_pg_var(1e-2 * (1 - 1e-12)), 1e-9, "variance at the switch");
    CHECK_CLOSE(bsl_pg_mean(0), 0.25, 1e-15, "E PG(1, 0) = 1/4");
    CHECK_CLOSE(bsl_pg_var(0), 1.0 / 24, 1e-15, "Var PG(1, 0) = 1/24");
    /* c = 0.3 and 1.5 fall on either side of the proposal's split (1/z vs t = 0.64) */
    const double cs[] = {0.0, 0.3, 1.5, 4.0, 25.0};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) check_c(r, cs[i]);
    /* PG(1, c) = PG(1, -c): the sampler reads |c| only */
    gsl_rng_set(r, 7);
    const double a = bsl_pg_draw(r, 3.0);
    gsl_rng_set(r, 7);
    CHECK(bsl_pg_draw(r, -3.0) == a, "PG(1, -3) and PG(1, 3) give the same draw from the same stream");
    gsl_rng_free(r);
    return check_report("test_polyagamma");
}
