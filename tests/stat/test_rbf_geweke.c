/*
 * test_rbf_geweke.c: Geweke's joint-distribution test ("getting it right",
 * JASA 2004) of the free-centre RBF moves (birth, death, split, merge,
 * update) and the delta^2 / Lambda updates at temperature 1 (rbf_moves.c).
 *
 * Marginal-conditional simulator: theta = (k, mu, delta^2, Lambda) drawn
 * independently from the prior. Successive-conditional simulator: one RJ
 * step on theta given y, then a fresh y ~ p(y | theta); its stationary
 * law is the prior too, if and only if (up to the test's power) the moves
 * leave p(theta | y) invariant. We compare the means of g(theta) for
 * g = k, k^2, sum_j mu_j1 and sum_j mu_j1^2 (the first centre coordinate,
 * summed: a label-free statistic), log delta_1^2 and Lambda; the standard
 * error of the successive chain by batch means. Two move mixes: the
 * paper's (0.2 each) and one dominated by split / merge; and a third run
 * with the gauss width sampled too (rbf_moves.c: log w uniform on
 * [0.2, 0.8], a random walk on log w every 3 steps, one refactorisation
 * each), where theta includes w and the statistics log w and (log w)^2
 * join (in the first two runs w is fixed and they are not compared). Every
 * |z| must be below the two-sided 1% Bonferroni bound over all comparisons.
 */
#include "check.h"
#include "stat/mcse.h"
#include "engine/rbf/rbf.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <time.h>

#define NSTAT 8
#define NBATCH 50

static const char *const stat_names[NSTAT] = {"k", "k^2", "sum mu_1", "sum mu_1^2",
                                              "log delta2_1", "Lambda", "log width", "(log width)^2"};

static void stats(const bsl_rbf_chain *ch, size_t d, double *g)
{
    const size_t k = bsl_rbf_chain_k(ch);
    const double *mu = bsl_rbf_chain_centres(ch);
    double s1 = 0, s2 = 0;
    for (size_t j = 0; j < k; j++) {
        s1 += mu[j * d];
        s2 += mu[j * d] * mu[j * d];
    }
    g[0] = (double)k;
    g[1] = (double)(k * k);
    g[2] = s1;
    g[3] = s2;
    g[4] = log(bsl_rbf_chain_delta2(ch)[0]);
    g[5] = bsl_rbf_chain_lambda(ch);
    g[6] = log(bsl_rbf_chain_width(ch));
    g[7] = g[6] * g[6];
}

/* mean and standard error of the mean of n i.i.d. draws */
static void iid_moments(const double *sum, const double *sum2, double n, double *mean, double *se)
{
    for (int s = 0; s < NSTAT; s++) {
        mean[s] = sum[s] / n;
        se[s] = sqrt(fmax(sum2[s] / n - mean[s] * mean[s], 0) / n);
    }
}

static int run_mix(const char *label, const double weights[BSL_RBF_NMOVES], int sample_width, unsigned long seed,
                   size_t n_mc, size_t n_sc, double zcrit)
{
    enum { N = 10, D = 2, C = 2 };
    double X[N * D], Y[N * C] = {0};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    for (size_t i = 0; i < N * D; i++) X[i] = gsl_rng_uniform(r);
    bsl_rbf_options o;
    bsl_rbf_options_default(&o);
    o.temperature_mode = BSL_RBF_FULL;
    o.radial = BSL_BASIS_GAUSS;
    o.width = 0.4;
    o.kmax = 4;
    o.zeta = 0.2;
    o.rw_scale = 0.1;
    o.a0 = 3;
    o.b0 = 2;
    o.a_delta = 3;
    o.b_delta = 4;
    o.a_lambda = 2;
    o.b_lambda = 1;
    for (int i = 0; i < BSL_RBF_NMOVES; i++) o.move_weights[i] = weights[i];
    if (sample_width) {
        o.sample_width = 1;
        o.width_lo = 0.2;
        o.width_hi = 0.8;
        o.width_step = 0.5;
        o.width_every = 3;
    }
    bsl_rbf_chain *ch = NULL;
    basel_error err;
    int rc = bsl_rbf_chain_create(&ch, X, N, D, Y, C, &o, &err);
    CHECK(rc == 0, "%s: chain create: %s", label, err.message);
    if (rc) return 1;

    double sum[NSTAT] = {0}, sum2[NSTAT] = {0}, g[NSTAT];
    int bad_prior = 0;
    for (size_t t = 0; t < n_mc; t++) { /* marginal-conditional */
        bad_prior += bsl_rbf_chain_draw_prior(ch, r) != 0;
        stats(ch, D, g);
        for (int s = 0; s < NSTAT; s++) {
            sum[s] += g[s];
            sum2[s] += g[s] * g[s];
        }
    }
    CHECK(bad_prior == 0, "%s: %d failed prior draws", label, bad_prior);
    double mean_mc[NSTAT], se_mc[NSTAT];
    iid_moments(sum, sum2, (double)n_mc, mean_mc, se_mc);

    /* successive-conditional, batch means */
    double batch[NBATCH][NSTAT] = {{0}};
    const size_t per = n_sc / NBATCH;
    bsl_rbf_chain_draw_prior(ch, r);
    bsl_rbf_chain_draw_y(ch, r, Y);
    int bad_y = 0;
    for (size_t t = 0; t < per * NBATCH; t++) {
        bsl_rbf_chain_step(ch, r, 1.0);
        if (bsl_rbf_chain_draw_y(ch, r, Y)) bad_y++;
        stats(ch, D, g);
        for (int s = 0; s < NSTAT; s++) batch[t / per][s] += g[s] / (double)per;
    }
    CHECK(bad_y == 0, "%s: %d singular redraws of y", label, bad_y);
    double proposed[BSL_RBF_NMOVES], accepted[BSL_RBF_NMOVES];
    bsl_rbf_chain_counts(ch, proposed, accepted);
    printf("%s: acceptance b %.3f d %.3f s %.3f m %.3f u %.3f\n", label,
           accepted[0] / fmax(proposed[0], 1), accepted[1] / fmax(proposed[1], 1),
           accepted[2] / fmax(proposed[2], 1), accepted[3] / fmax(proposed[3], 1),
           accepted[4] / fmax(proposed[4], 1));
    int fails = 0;
    for (int s = 0; s < (sample_width ? NSTAT : NSTAT - 2); s++) {
        double m = 0, v = 0;
        for (int b = 0; b < NBATCH; b++) m += batch[b][s] / NBATCH;
        for (int b = 0; b < NBATCH; b++) v += (batch[b][s] - m) * (batch[b][s] - m);
        const double se_sc = sqrt(v / (NBATCH - 1) / NBATCH);
        const double z = (m - mean_mc[s]) / sqrt(se_sc * se_sc + se_mc[s] * se_mc[s]);
        printf("  %-13s prior %.5f (se %.5f)  chain %.5f (se %.5f)  z = %+.2f\n", stat_names[s],
               mean_mc[s], se_mc[s], m, se_sc, z);
        CHECK(fabs(z) < zcrit, "%s: %s z = %.2f beyond %.2f (seed %lu)", label, stat_names[s], z,
              zcrit, seed);
        fails += !(fabs(z) < zcrit);
    }
    bsl_rbf_chain_free(ch);
    gsl_rng_free(r);
    return fails;
}

int main(int argc, char **argv)
{
    /* successive steps: 400000 in the fast tier, 2000000 in the full one (BASEL_TIER=full) */
    const size_t n_sc = argc > 1 ? (size_t)atol(argv[1]) : STAT_TIER(400000, 2000000);
    const size_t n_mc = STAT_TIER(100000, 400000);
    const int ncomp = 3 * NSTAT - 4;
    const double zcrit = gsl_cdf_ugaussian_Qinv(0.01 / (2.0 * ncomp)); /* Bonferroni, 1% */
    printf("Geweke test: %zu successive steps per mix, |z| < %.2f\n", n_sc, zcrit);
    const double paper[BSL_RBF_NMOVES] = {0.2, 0.2, 0.2, 0.2, 0.2};
    const double splitty[BSL_RBF_NMOVES] = {0.1, 0.1, 0.35, 0.35, 0.1};
    const clock_t t0 = clock();
    run_mix("moves 0.2 each", paper, 0, 20240601UL, n_mc, n_sc, zcrit);
    run_mix("split/merge heavy", splitty, 0, 20240602UL, n_mc, n_sc, zcrit);
    run_mix("moves 0.2 each, width sampled", paper, 1, 20240603UL, n_mc, n_sc, zcrit);
    printf("cpu %.1f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
    return check_report("test_rbf_geweke");
}
