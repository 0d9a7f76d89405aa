/*
 * test_glm_poisson.c: Poisson regression with variable selection
 * (--family poisson, --method rj, bd and ssvs) over bsl_model_glm_exact, whose
 * score of a subset is its marginal likelihood by importance sampling
 * (glm_exact.c), a fixed function of the subset and the seed. So rj's
 * chain targets exactly the posterior enumeration computes from the same
 * scores,
 *     p^(A | y) prop. to p(A) p^(y | A),
 * and their PIPs and P(k) converge to enumeration's (no importance-sampling
 * error between them: it is in both). The subset cache of glm_exact.c
 * must give rj the numbers enumeration draws (a cache that returned
 * another subset's score, or a mean in the wrong order, fails here).
 *
 * The design. Simulated, n = 150, m = 6 standard normal inputs with
 * corr(x1, x2) ~ 0.8, E y = exp(0.3 + 0.18 x1 - 0.15 x3 + 0.1 x5) (fixed
 * seed); prior normal:sd=1,intercept-sd=5, 2000 draws per subset. The
 * correlated pair and the weak x5 leave several PIPs between 0.1 and 0.9.
 *
 * The samplers. R = 16 one-chain rj runs (seeds 1..R, Rao-Blackwellised
 * PIPs) and R with raw frequencies (seeds 101..), ITER moves after 1000
 * burn-in (fast 6000, full 60000), and R one-chain bd runs of ITER / 2
 * blocks (its Rao-Blackwellised time averages), and R one-chain ssvs runs
 * of ITER / M sweeps (M collapsed Gibbs flips each, from the same cached
 * scores: a Gibbs sampler of the same discrete target; its
 * Rao-Blackwellised PIPs); every PIP and P(k) by CHECK_MC at family-wise
 * level 1e-3.
 */
#include "check.h"
#include "stat/mcse.h"
#include "core/params.h"
#include "engine/subset/subset.h"
#include "model/glm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

enum { N = 150, M = 6, R = 16, BURN = 1000 };

static double X[N * M], Y[N];

static void simulate(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 23);
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < M; j++) X[i + j * N] = gsl_ran_ugaussian(r);
        X[i + N] = 0.8 * X[i] + 0.6 * X[i + N];
        const double eta = 0.3 + 0.18 * X[i] - 0.15 * X[i + 2 * N] + 0.1 * X[i + 4 * N];
        Y[i] = (double)gsl_ran_poisson(r, exp(eta));
    }
    gsl_rng_free(r);
}

typedef int (*runner)(const bsl_vs_problem *, const bsl_run *, bsl_vs_result *, basel_error *);

static int replicate(runner run_fn, const bsl_vs_problem *pb, size_t iter, unsigned long seed0, const char *rb_every,
                     double est_pip[][R], double est_size[][R])
{
    basel_error err;
    bsl_params params = {0};
    if (rb_every) bsl_params_set(&params, "rj-rb-every", rb_every);
    for (size_t r = 0; r < R; r++) {
        bsl_run run = {.iter = iter, .burn = BURN, .thin = 1, .chains = 1, .seed = seed0 + r, .params = &params};
        bsl_vs_result res;
        const int rc = run_fn(pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "seed %lu: %s", seed0 + r, err.message);
        if (rc) return rc;
        for (size_t j = 0; j < M; j++) est_pip[j][r] = res.pip[j];
        for (size_t k = 0; est_size && k <= M; k++) est_size[k][r] = res.size_prob[k];
        bsl_vs_result_free(&res);
    }
    return BASEL_OK;
}

/* Every PIP (and, with est_size, every P(k)) of R runs of n_total moves
 * in all against enumeration's ex, by CHECK_MC; the largest |mean - exact|. */
static double against(const bsl_vs_result *ex, const char *who, double est_pip[][R], double est_size[][R],
                      double n_total)
{
    double w = 0;
    for (size_t j = 0; j < M; j++) {
        CHECK_MC(est_pip[j], R, ex->pip[j], 0, n_total, "%s PIP x%zu", who, j + 1);
        w = fmax(w, mc_family.last_error);
    }
    for (size_t k = 0; est_size && k <= M; k++) {
        CHECK_MC(est_size[k], R, ex->size_prob[k], 0, n_total, "%s P(k = %zu)", who, k);
        w = fmax(w, mc_family.last_error);
    }
    return w;
}

int main(void)
{
    const size_t iter = STAT_TIER(6000, 60000);
    printf("test_glm_poisson (%s tier: %zu moves x %d runs x 2)\n", stat_tier_name(), iter, R);
    simulate();
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_vs_problem pb = {0};
    int rc = bsl_dict_create(&dict, "linear", X, N, M, &err);
    if (!rc) rc = bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err);
    if (!rc) rc = bsl_glm_prior_parse(&pb.prior, "normal:sd=1,intercept-sd=5", 0, &err);
    if (!rc) rc = bsl_mprior_parse(&pb.mprior, "beta-binomial:a=1,b=1", M, &err);
    CHECK(rc == BASEL_OK, "setup: %s", err.message);
    if (rc) return check_report("test_glm_poisson");
    pb.prior.glm_family = BSL_GLM_POISSON;
    pb.prior.is_draws = 2000;
    pb.prior.is_seed = 3;
    pb.D = D;
    pb.kmax = pb.mprior.kmax;
    pb.model = &bsl_model_glm_exact;
    bsl_vs_result ex;
    rc = bsl_enumerate(&pb, NULL, &ex, &err);
    CHECK(rc == BASEL_OK, "enumerate: %s", err.message);
    if (rc) return check_report("test_glm_poisson");
    int between = 0;
    for (size_t j = 0; j < M; j++) between += ex.pip[j] > 0.1 && ex.pip[j] < 0.9;
    CHECK(between >= 2, "the design leaves PIPs in doubt (%d between 0.1 and 0.9)", between);
    mc_plan(1e-3, 2 * M + M + 1 + M + M + 1 + M + M + 1);
    double rb[M][R], freq[M][R], size[M + 1][R];
    const double n_total = (double)R * (double)iter;
    if (!replicate(bsl_rj_run, &pb, iter, 1, "6", rb, size) && !replicate(bsl_rj_run, &pb, iter, 101, "0", freq, NULL)) {
        for (size_t j = 0; j < M; j++)
            printf("  x%zu exact %.4f  rj rb %.4f freq %.4f\n", j + 1, ex.pip[j], rb[j][0], freq[j][0]);
        const double w_rb = against(&ex, "rao-blackwell", rb, size, n_total);
        printf("  rj: max |mean - enumeration| %.4f\n", fmax(w_rb, against(&ex, "frequency", freq, NULL, n_total)));
    }
    /* bd on the same model: its Rao-Blackwellised PIPs and P(k), BD_ITER blocks */
    const size_t blocks = iter / 2;
    if (!replicate(bsl_bd_run, &pb, blocks, 201, NULL, rb, size))
        printf("  bd: max |mean - enumeration| %.4f\n", against(&ex, "bd", rb, size, (double)R * (double)blocks));
    /* ssvs on the same model: ITER / M sweeps of M flips (the moves rj makes) */
    const size_t sweeps = iter / M;
    if (!replicate(bsl_ssvs_run, &pb, sweeps, 301, NULL, rb, size))
        printf("  ssvs: max |mean - enumeration| %.4f\n", against(&ex, "ssvs", rb, size, (double)R * (double)sweeps));
    mc_report();
    bsl_vs_result_free(&ex);
    bsl_design_free(D);
    bsl_dict_free(dict);
    return check_report("test_glm_poisson");
}
