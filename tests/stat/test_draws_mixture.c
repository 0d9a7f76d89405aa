/*
 * test_draws_mixture.c: the mixture classifier's DRAWS (--draws: the input
 * subset of every thin-th sweep) are draws from its posterior.
 *
 * No exact answer to enumerate: the mixture's posterior over input subsets
 * integrates kernel means, precisions, weights and allocations, with no
 * closed form (test_mixture_geweke.c checks the sampler's joint law instead,
 * test_mixture_tempering.c its tempered parts against quadrature and exact
 * sums). So, on the tempering test's small data set (n = 24, 3 inputs, a
 * weak class signal in input 0, every PIP strictly inside (0, 1)), the
 * draws' inclusion frequencies, size probabilities P(I) and mean size are
 * compared
 *   (a) with the fit's own PIPs and size posterior (FIT.json's: every
 *       post-burn sweep, of which the draws are every 5th), and
 *   (b) with an independent long run (other seeds, 4 times as many sweeps),
 * each within 5 standard errors: batch means of the draws (4 chains x 50
 * batches of 100 draws, floored at the i.i.d. binomial value), for (b)
 * combined with the long run's own. A draw recorded from the wrong replica
 * or state, or at the wrong time, moves the frequencies away from (a); a
 * sampler biased in the same way in both runs is the Geweke test's to see.
 */
#include "check.h"
#include "stat/mcse.h"
#include "engine/mixture/mixture.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 24, D_IN = 3, CHAINS = 4, BATCHES = 50, NQ = 2 * D_IN + 1 };

static bsl_mix_result *fit(const double *X, const int *cls, size_t draws_per_chain, unsigned long seed)
{
    bsl_mix_options o;
    bsl_mix_options_default(&o);
    o.kernels = 2;
    o.thin = 5;
    o.iter = draws_per_chain * o.thin + 1000, o.burn = 1000, o.chains = CHAINS, o.seed = seed;
    o.poisson_mean = 1.5;
    bsl_mix_result *r = NULL;
    basel_error err;
    CHECK(bsl_mixture_fit(X, N, D_IN, cls, 2, &o, &r, &err) == BASEL_OK, "fit: %s", err.message);
    return r;
}

/* Quantity q of draw t: inclusion of input q (q < D_IN), [I = q - D_IN + 1]
 * (q < 2 D_IN), the size I (q = 2 D_IN). */
static double quantity(const bsl_mix_result *r, size_t t, size_t q)
{
    size_t len;
    const size_t *in = bsl_mix_draw_inputs(r, t, &len);
    if (q == 2 * D_IN) return (double)len;
    if (q >= D_IN) return len == q - D_IN + 1;
    for (size_t u = 0; u < len; u++)
        if (in[u] == q) return 1;
    return 0;
}

/* Mean and batch-means SE of quantity q over the draws (chain by chain). */
static void draw_stats(const bsl_mix_result *r, size_t q, double *mean, double *se)
{
    const size_t nd = bsl_mix_draw_count(r), per_chain = nd / CHAINS, per = per_chain / BATCHES;
    double bm[CHAINS * BATCHES], mu = 0, var = 0;
    for (size_t b = 0; b < CHAINS * BATCHES; b++) {
        const size_t first = (b / BATCHES) * per_chain + (b % BATCHES) * per;
        double s = 0;
        for (size_t i = 0; i < per; i++) s += quantity(r, first + i, q);
        bm[b] = s / (double)per;
        mu += bm[b] / (CHAINS * BATCHES);
    }
    for (size_t b = 0; b < CHAINS * BATCHES; b++) var += (bm[b] - mu) * (bm[b] - mu) / (CHAINS * BATCHES - 1);
    *mean = mu;
    *se = sqrt(var / (CHAINS * BATCHES));
    if (q < 2 * D_IN) *se = fmax(*se, fmax(sqrt(mu * (1 - mu) / (double)nd), 1.0 / (double)nd));
}

/* The fit's own value of quantity q (every post-burn sweep). */
static double fit_value(const bsl_mix_result *r, size_t q)
{
    size_t d, len;
    const double *pip = bsl_mix_pip(r, &d), *size = bsl_mix_size_post(r, &len);
    if (q < D_IN) return pip[q];
    if (q < 2 * D_IN) return q - D_IN + 1 < len ? size[q - D_IN + 1] : 0;
    double m = 0;
    for (size_t I = 0; I < len; I++) m += (double)I * size[I];
    return m;
}

int main(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    double X[N * D_IN];
    int cls[N];
    for (size_t i = 0; i < N; i++) {
        cls[i] = (int)(i % 2);
        X[i] = (cls[i] ? 0.6 : -0.6) + gsl_ran_gaussian(rng, 1);
        for (size_t j = 1; j < D_IN; j++) X[j * N + i] = gsl_ran_gaussian(rng, 1);
    }
    gsl_rng_free(rng);
    const size_t per_chain = STAT_TIER(5000, 20000); /* draws, every 5th sweep */
    bsl_mix_result *r = fit(X, cls, per_chain, 21), *ref = fit(X, cls, 4 * per_chain, 22);
    if (!r || !ref) return check_report("test_draws_mixture");
    CHECK(bsl_mix_draw_count(r) == CHAINS * per_chain, "%zu draws kept, %zu expected", bsl_mix_draw_count(r),
          (size_t)(CHAINS * per_chain));
    const char *const label[NQ] = {"input 1 in", "input 2 in", "input 3 in", "P(I = 1)", "P(I = 2)", "P(I = 3)",
                                   "mean size"};
    printf("mixture draws (%s tier): %zu per chain x %d chains\n", stat_tier_name(), per_chain, CHAINS);
    for (size_t q = 0; q < NQ; q++) {
        double mean, se, mref, seref;
        draw_stats(r, q, &mean, &se);
        draw_stats(ref, q, &mref, &seref);
        const double own = fit_value(r, q), za = fabs(mean - own) / se,
                     zb = fabs(mean - mref) / hypot(se, seref);
        printf("  %-10s draws %.4f (SE %.4f)  fit %.4f (%.2f SE)  long run %.4f (%.2f SE)\n", label[q], mean, se,
               own, za, mref, zb);
        if (q < D_IN) CHECK(own > 0.02 && own < 0.98, "%s: PIP %.3f is informative for the test", label[q], own);
        CHECK(za < 5, "%s: draws %.4f vs the fit's %.4f: %.1f SE", label[q], mean, own, za);
        CHECK(zb < 5, "%s: draws %.4f vs the long run's %.4f: %.1f SE", label[q], mean, mref, zb);
    }
    bsl_mix_free(r);
    bsl_mix_free(ref);
    return check_report("test_draws_mixture");
}
