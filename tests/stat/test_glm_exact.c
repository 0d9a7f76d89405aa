/*
 * test_glm_exact.c: logistic regression with variable selection
 * (--family binomial, model/glm.h): rj over the Polya-Gamma augmented
 * model (bsl_model_glm: latent step once per sweep) against enumeration of
 * the same model's exact posterior (bsl_model_glm_exact: each subset's
 * marginal likelihood by importance sampling at its Laplace
 * approximation).
 *
 * The exact answer. Simulated design, n = 120, m = 6 standard normal inputs
 * with corr(x1, x2) ~ 0.7, P(y = 1) = logit^-1(-0.3 + 1.0 x1 - 0.8 x3 +
 * 0.4 x4) (fixed seed); prior normal:sd=1,intercept-sd=5; model priors
 * uniform and beta-binomial(1, 1). The targets are the exact posterior
 * PIPs and P(k) of this model, p(A | y) prop. to p(A) int prod Bern(y | ...) N(theta; 0, Lambda_A^-1),
 * which enumeration computes up to its importance-sampling error.
 *
 * The reference's error. With IS_DRAWS draws per subset enumeration
 * reports the largest standard error D_se of a log marginal likelihood
 * (its note). Taking every subset's error below D = 5 D_se (64 subsets:
 * all within 5 sd with probability > 1 - 4e-5), a PIP p = A / (A + B)
 * moves by at most p (1 - p) (e^{2D} - 1): that is each check's e_exact
 * (mcse.h); the same bound holds for P(k).
 *
 * The sampler. R = 16 one-chain rj runs (seeds 1..R, Rao-Blackwellised
 * PIPs) and R more with raw frequencies (seeds 101..), RJ_ITER moves each
 * after 1000 burn-in (fast 8000, full 100000); every PIP and P(k) checked
 * by CHECK_MC at family-wise level 1e-3.
 */
#include "check.h"
#include "stat/mcse.h"
#include "core/params.h"
#include "engine/subset.h"
#include "model/glm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 120, M = 6, R = 16, BURN = 1000, IS_DRAWS = 40000 };

static double X[N * M], Y[N];

static void simulate(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 17);
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < M; j++) X[i + j * N] = gsl_ran_ugaussian(r);
        X[i + 1 * N] = 0.7 * X[i] + sqrt(1 - 0.49) * X[i + 1 * N];
        const double eta = -0.3 + 1.0 * X[i] - 0.8 * X[i + 2 * N] + 0.4 * X[i + 3 * N];
        Y[i] = gsl_rng_uniform(r) < 1 / (1 + exp(-eta));
    }
    gsl_rng_free(r);
}

typedef struct setup {
    bsl_dict *dict;
    bsl_design *D;
    bsl_vs_problem pb;
} setup;

static int make(setup *s, const char *mprior)
{
    basel_error err;
    memset(s, 0, sizeof *s);
    if (bsl_dict_create(&s->dict, "linear", X, N, M, &err) ||
        bsl_design_create(&s->D, s->dict, X, N, Y, 1, (size_t)1 << 30, &err) ||
        bsl_glm_prior_parse(&s->pb.prior, "normal:sd=1,intercept-sd=5", &err) ||
        bsl_mprior_parse(&s->pb.mprior, mprior, M, &err)) {
        fprintf(stderr, "setup %s: %s\n", mprior, err.message);
        return -1;
    }
    s->pb.prior.is_draws = IS_DRAWS;
    s->pb.prior.is_seed = 5;
    s->pb.D = s->D;
    s->pb.kmax = s->pb.mprior.kmax;
    return 0;
}

static void unmake(setup *s)
{
    bsl_design_free(s->D);
    bsl_dict_free(s->dict);
}

static int replicate(const bsl_vs_problem *pb, size_t iter, unsigned long seed0, const char *rb_every,
                     double est_pip[][R], double est_size[][R])
{
    basel_error err;
    bsl_params params = {0};
    bsl_params_set(&params, "rj-rb-every", rb_every);
    for (size_t r = 0; r < R; r++) {
        bsl_run run = {.iter = iter, .burn = BURN, .thin = 1, .chains = 1, .seed = seed0 + r, .params = &params};
        bsl_vs_result res;
        const int rc = bsl_rj_run(pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "rj seed %lu: %s", seed0 + r, err.message);
        if (rc) return rc;
        for (size_t j = 0; j < M; j++) est_pip[j][r] = res.pip[j];
        for (size_t k = 0; est_size && k <= M; k++) est_size[k][r] = res.size_prob[k];
        bsl_vs_result_free(&res);
    }
    return BASEL_OK;
}

/* p (1 - p) (e^{2D} - 1), the reference's error bound (file comment) */
static double exact_err(double p, double D) { return fmin(p, 1) * fmax(1 - p, 0) * expm1(2 * D); }

static void one_case(const char *mprior, size_t iter)
{
    setup s;
    if (make(&s, mprior)) {
        CHECK(0, "setup %s", mprior);
        return;
    }
    basel_error err;
    bsl_vs_result ex;
    bsl_vs_problem pe = s.pb;
    pe.model = &bsl_model_glm_exact;
    int rc = bsl_enumerate(&pe, NULL, &ex, &err);
    CHECK(rc == BASEL_OK, "enumerate %s: %s", mprior, err.message);
    if (rc) {
        unmake(&s);
        return;
    }
    const char *at = strstr(ex.engine_note, "log marginal likelihood ");
    double se = NAN;
    CHECK(at && sscanf(at + strlen("log marginal likelihood "), "%lf", &se) == 1 && se > 0 && se < 0.01,
          "%s: enumeration reports its importance-sampling error below 0.01 (%s)", mprior, ex.engine_note);
    const double D = 5 * se;
    bsl_vs_problem pr = s.pb;
    pr.model = &bsl_model_glm;
    double rb[M][R], freq[M][R], size[M + 1][R];
    const double n_total = (double)R * (double)iter;
    if (!replicate(&pr, iter, 1, "6", rb, size) && !replicate(&pr, iter, 101, "0", freq, NULL)) {
        double w = 0;
        for (size_t j = 0; j < M; j++) {
            printf("  %-22s x%zu exact %.4f (+- %.4f)  rj rb %.4f\n", mprior, j + 1, ex.pip[j],
                   exact_err(ex.pip[j], D), rb[j][0]);
            CHECK_MC(rb[j], R, ex.pip[j], exact_err(ex.pip[j], D), n_total, "%s: rao-blackwell PIP x%zu", mprior, j + 1);
            w = fmax(w, mc_family.last_error);
            CHECK_MC(freq[j], R, ex.pip[j], exact_err(ex.pip[j], D), n_total, "%s: frequency PIP x%zu", mprior, j + 1);
            w = fmax(w, mc_family.last_error);
        }
        for (size_t k = 0; k <= M; k++) {
            CHECK_MC(size[k], R, ex.size_prob[k], exact_err(ex.size_prob[k], D), n_total, "%s: P(k = %zu)", mprior, k);
            w = fmax(w, mc_family.last_error);
        }
        printf("  %-22s max |mean - exact| %.4f (importance-sampling se %.4f)\n", mprior, w, se);
    }
    bsl_vs_result_free(&ex);
    unmake(&s);
}

int main(void)
{
    const size_t iter = STAT_TIER(8000, 100000);
    printf("test_glm_exact (%s tier: %zu moves x %d runs x 2 per case)\n", stat_tier_name(), iter, R);
    simulate();
    mc_plan(1e-3, 2 * (2 * M + M + 1));
    one_case("uniform", iter);
    one_case("beta-binomial:a=1,b=1", iter);
    mc_report();
    return check_report("test_glm_exact");
}
