/*
 * test_tmix.c: the fast mixture quantile (tmix.c: pruning, per-df CDF
 * tables, bracket, Newton) against a brute-force bisection of the whole
 * mixture's CDF from GSL, on random mixtures: 1 to 20000 components, weights
 * log-uniform over 1e-12..1, df drawn from 1, 2.5, 3, 7, 29, 31, 100, 999 and
 * infinity (many per mixture), some point masses, with and without a point
 * mass w0 at 0, quantiles 0.025, 0.05, 0.5, 0.975 and random ones:
 *   - closeness: |fast - exact| <= 1e-9 (|exact| + sd) wherever the density
 *     at the quantile is not tiny (f sd >= 0.01; the stated tolerance of
 *     docs/FIT.md; pruning moves a quantile by about 2 BSL_TMIX_PRUNED / f);
 *   - always, even in a gap of the mixture: the whole mixture's CDF crosses
 *     p within 1e-9 (|x| + sd) of the fast quantile, to 3 BSL_TMIX_PRUNED;
 *   - the same answers without a workspace (GSL throughout, nothing pruned),
 *     and with more distinct df than a workspace has tables;
 *   - a quantile inside the jump at 0 is exactly 0; one normal component
 *     gives mu + z_p s.
 */
#include "check.h"
#include "summary/tmix.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

static double cdf_exact(const bsl_tmix *t, double x)
{
    double F = x >= 0 ? t->w0 : 0.0;
    for (size_t i = 0; i < t->K; i++) {
        if (!(t->s[i] > 0)) F += x >= t->mu[i] ? t->w[i] : 0.0;
        else {
            const double z = (x - t->mu[i]) / t->s[i];
            F += t->w[i] * (isinf(t->df[i]) ? gsl_cdf_ugaussian_P(z) : gsl_cdf_tdist_P(z, t->df[i]));
        }
    }
    return F;
}

static double pdf_exact(const bsl_tmix *t, double x)
{
    double f = 0;
    for (size_t i = 0; i < t->K; i++)
        if (t->s[i] > 0) {
            const double z = (x - t->mu[i]) / t->s[i];
            f += t->w[i] * (isinf(t->df[i]) ? gsl_ran_ugaussian_pdf(z) : gsl_ran_tdist_pdf(z, t->df[i])) / t->s[i];
        }
    return f;
}

/* inf { x : F(x) >= p } by bisection on the whole mixture */
static double quantile_exact(const bsl_tmix *t, double p)
{
    double lo = -1e6, hi = 1e6;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * (fabs(lo) + fabs(hi)); it++) {
        const double mid = 0.5 * (lo + hi);
        if (cdf_exact(t, mid) >= p) hi = mid;
        else lo = mid;
    }
    return hi;
}

static double worst_close = 0, worst_prob = 0;

static void one(const bsl_tmix *t, double p, double sd, bsl_tmix_ws *ws, const char *what, int k)
{
    const double x = bsl_tmix_quantile(t, p, ws), ex = quantile_exact(t, p);
    const double tol = 1e-9 * (fabs(ex) + sd), f = pdf_exact(t, ex);
    if (f * sd >= 0.01) {
        const double e = fabs(x - ex) / (fabs(ex) + sd);
        worst_close = fmax(worst_close, e);
        CHECK(fabs(x - ex) <= tol, "%s %d (K %zu, p %.4g): fast %.17g, exact %.17g (rel %.3g)", what, k, t->K, p, x, ex,
              e);
    }
    const double d = 1e-9 * (fabs(x) + sd), lo = cdf_exact(t, x - d), hi = cdf_exact(t, x + d);
    worst_prob = fmax(worst_prob, fmax(lo - p, p - hi));
    CHECK(lo <= p + 3 * BSL_TMIX_PRUNED && hi >= p - 3 * BSL_TMIX_PRUNED,
          "%s %d (K %zu, p %.4g): F(x - d) %.17g, F(x + d) %.17g", what, k, t->K, p, lo, hi);
}

static void random_mixtures(void)
{
    static const double dfs[] = {1, 2.5, 3, 7, 29, 31, 100, 999, INFINITY};
    static const size_t sizes[] = {1, 3, 20, 63, 64, 500, 3000, 20000};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2385);
    bsl_tmix_ws ws = {0};
    int k = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int rep = 0; rep < (sizes[si] > 10000 ? 1 : sizes[si] > 1000 ? 3 : 12); rep++, k++) {
            const size_t K = sizes[si];
            double *w = malloc(K * sizeof *w), *mu = malloc(K * sizeof *mu), *s = malloc(K * sizeof *s),
                   *df = malloc(K * sizeof *df);
            const int ndf = 1 + (int)gsl_rng_uniform_int(r, 9); /* distinct df in this mixture */
            const double spread = rep % 3 == 0 ? 0.05 : rep % 3 == 1 ? 1.0 : 4.0;
            double W = 0;
            for (size_t i = 0; i < K; i++) {
                w[i] = pow(10, -12 * gsl_rng_uniform(r));
                mu[i] = 0.7 + spread * gsl_ran_ugaussian(r);
                s[i] = gsl_rng_uniform(r) < 0.03 ? 0.0 : exp(gsl_ran_flat(r, log(0.05), log(2.0)));
                df[i] = dfs[(rep + gsl_rng_uniform_int(r, (unsigned long)ndf)) % 9];
                W += w[i];
            }
            const double w0 = rep % 2 ? gsl_rng_uniform(r) * 0.6 : 0.0;
            double m1 = 0, m2 = 0;
            for (size_t i = 0; i < K; i++) {
                w[i] *= (1 - w0) / W;
                m1 += w[i] * mu[i];
                m2 += w[i] * (mu[i] * mu[i] + s[i] * s[i]);
            }
            const double sd = sqrt(fmax(m2 - m1 * m1, 0)) + 1e-300;
            const bsl_tmix t = {w, mu, s, df, K, w0};
            const double ps[] = {0.025, 0.05, 0.5, 0.975, gsl_rng_uniform_pos(r)};
            for (size_t j = 0; j < 5; j++) {
                one(&t, ps[j], sd, &ws, "table", k);
                if (K <= 64) one(&t, ps[j], sd, NULL, "no workspace", k);
            }
            free(w);
            free(mu);
            free(s);
            free(df);
        }
    printf("random mixtures: max |fast - exact| / (|exact| + sd) %.3g; CDF off p by at most %.3g\n", worst_close,
           worst_prob);
    bsl_tmix_ws_free(&ws);
    gsl_rng_free(r);
}

/* More distinct df than a workspace has tables: GSL for all of them. */
static void many_df(void)
{
    enum { K = 200 };
    double w[K], mu[K], s[K], df[K], m1 = 0, m2 = 0;
    for (size_t i = 0; i < K; i++) {
        w[i] = 1.0 / K;
        mu[i] = 0.01 * (double)i;
        s[i] = 0.5 + 0.001 * (double)i;
        df[i] = 3 + (double)i; /* 200 distinct */
        m1 += w[i] * mu[i];
        m2 += w[i] * (mu[i] * mu[i] + s[i] * s[i]);
    }
    const bsl_tmix t = {w, mu, s, df, K, 0};
    bsl_tmix_ws ws = {0};
    one(&t, 0.025, sqrt(m2 - m1 * m1), &ws, "200 distinct df", 0);
    one(&t, 0.975, sqrt(m2 - m1 * m1), &ws, "200 distinct df", 1);
    bsl_tmix_ws_free(&ws);
}

static void closed_form(void)
{
    bsl_tmix_ws ws = {0};
    const double w1 = 1, mu1 = 0.7, s1 = 0.3, inf = INFINITY;
    const bsl_tmix one_normal = {&w1, &mu1, &s1, &inf, 1, 0};
    CHECK_CLOSE(bsl_tmix_quantile(&one_normal, 0.975, &ws), 0.7 + 1.959963984540054 * 0.3, 1e-13, "one normal");
    const double w2 = 0.3, nu = 5;
    const bsl_tmix jump = {&w2, &mu1, &s1, &nu, 1, 0.7};
    const double F0 = 0.3 * gsl_cdf_tdist_P(-0.7 / 0.3, 5);
    CHECK(bsl_tmix_quantile(&jump, F0 + 0.5, &ws) == 0.0, "inside the jump at 0: exactly 0");
    CHECK(bsl_tmix_quantile(&jump, F0 + 0.7 + 1e-3, &ws) > 0.0, "above the jump: positive");
    const double zero = 0;
    const bsl_tmix none = {&zero, &mu1, &s1, &nu, 1, 0};
    CHECK(isnan(bsl_tmix_quantile(&none, 0.5, &ws)), "no weight: NaN");
    bsl_tmix_ws_free(&ws);
    bsl_tmix_ws_free(&ws); /* twice is harmless */
}

/* bsl_tmix_ws_fixed (a prediction's rows: the same weights and df, new
 * locations and scales) gives the bits of a workspace without the promise,
 * over rows where some kept component becomes a point mass (scale 0: the
 * plan cannot group it and is remade) and back, and when the quantiles
 * asked change. */
static void fixed_weights(void)
{
    static const double dfs[] = {3, 7, 29, INFINITY};
    const size_t K = 3000;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 77);
    double *w = malloc(K * sizeof *w), *mu = malloc(K * sizeof *mu), *s = malloc(K * sizeof *s),
           *df = malloc(K * sizeof *df);
    for (size_t i = 0; i < K; i++) {
        w[i] = pow(10, -16 * gsl_rng_uniform(r)); /* light ones: some are pruned */
        df[i] = dfs[gsl_rng_uniform_int(r, 4)];
    }
    bsl_tmix_ws fixed = {0};
    bsl_tmix_ws_fixed(&fixed);
    int differ = 0, rows = 0;
    for (int row = 0; row < 40; row++, rows++) {
        for (size_t i = 0; i < K; i++) {
            mu[i] = gsl_ran_ugaussian(r) * (1 + row % 3);
            s[i] = exp(gsl_ran_flat(r, log(0.05), log(2.0)));
        }
        if (row % 7 == 3) s[gsl_rng_uniform_int(r, K)] = 0; /* a point mass in this row */
        const bsl_tmix t = {w, mu, s, df, K, 0};
        const double level = row < 30 ? 0.95 : 0.5; /* then other quantiles: the plan is remade */
        const double p[2] = {0.5 - level / 2, 0.5 + level / 2};
        double a[2], b[2];
        bsl_tmix_ws fresh = {0};
        bsl_tmix_quantiles(&t, p, 2, a, &fixed);
        bsl_tmix_quantiles(&t, p, 2, b, &fresh);
        bsl_tmix_ws_free(&fresh);
        differ += memcmp(a, b, sizeof a) != 0;
    }
    CHECK(differ == 0, "fixed weights: %d of %d rows' quantiles differ from a fresh workspace's", differ, rows);
    CHECK(fixed.oom == 0, "fixed weights: no memory failure");
    bsl_tmix_ws_free(&fixed);
    free(w);
    free(mu);
    free(s);
    free(df);
    gsl_rng_free(r);
}

int main(void)
{
    fixed_weights();
    closed_form();
    many_df();
    random_mixtures();
    return check_report("test_tmix");
}
