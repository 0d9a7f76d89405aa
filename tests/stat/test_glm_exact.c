/*
 * test_glm_exact.c: logistic regression with variable selection
 * (--family binomial, model/glm.h): rj over the Polya-Gamma augmented
 * model (bsl_model_glm: latent step once per sweep) against enumeration of
 * the same model's exact posterior (bsl_model_glm_exact: each subset's
 * marginal likelihood by importance sampling at its Laplace
 * approximation).
 *
 * The design, the exact answer and the reference's error: glm_case.h
 * (model priors uniform and beta-binomial(1, 1) here).
 *
 * The sampler. R = 16 one-chain rj runs (seeds 1..R, Rao-Blackwellised
 * PIPs) and R more with raw frequencies (seeds 101..), RJ_ITER moves each
 * after 1000 burn-in (fast 8000, full 100000); every PIP and P(k) checked
 * by CHECK_MC at family-wise level 1e-3.
 */
#include "check.h"
#include "stat/mcse.h"
#include "stat/glm_case.h"
#include "core/params.h"

#include <stdlib.h>

enum { N = GLM_N, M = GLM_M, R = 16, BURN = 1000 };

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

static void one_case(const char *mprior, size_t iter)
{
    glm_setup s;
    if (glm_make(&s, mprior)) {
        CHECK(0, "setup %s", mprior);
        return;
    }
    bsl_vs_result ex;
    double D;
    if (glm_enumerate(&s, mprior, &ex, &D)) {
        glm_unmake(&s);
        return;
    }
    bsl_vs_problem pr = s.pb;
    pr.model = &bsl_model_glm;
    double rb[M][R], freq[M][R], size[M + 1][R];
    const double n_total = (double)R * (double)iter;
    if (!replicate(&pr, iter, 1, "6", rb, size) && !replicate(&pr, iter, 101, "0", freq, NULL)) {
        double w = 0;
        for (size_t j = 0; j < M; j++) {
            printf("  %-22s x%zu exact %.4f (+- %.4f)  rj rb %.4f\n", mprior, j + 1, ex.pip[j],
                   glm_exact_err(ex.pip[j], D), rb[j][0]);
            CHECK_MC(rb[j], R, ex.pip[j], glm_exact_err(ex.pip[j], D), n_total, "%s: rao-blackwell PIP x%zu", mprior, j + 1);
            w = fmax(w, mc_family.last_error);
            CHECK_MC(freq[j], R, ex.pip[j], glm_exact_err(ex.pip[j], D), n_total, "%s: frequency PIP x%zu", mprior, j + 1);
            w = fmax(w, mc_family.last_error);
        }
        for (size_t k = 0; k <= M; k++) {
            CHECK_MC(size[k], R, ex.size_prob[k], glm_exact_err(ex.size_prob[k], D), n_total, "%s: P(k = %zu)", mprior, k);
            w = fmax(w, mc_family.last_error);
        }
        printf("  %-22s max |mean - exact| %.4f (importance-sampling bound D %.4f)\n", mprior, w, D);
    }
    bsl_vs_result_free(&ex);
    glm_unmake(&s);
}

int main(void)
{
    const size_t iter = STAT_TIER(8000, 100000);
    printf("test_glm_exact (%s tier: %zu moves x %d runs x 2 per case)\n", stat_tier_name(), iter, R);
    glm_simulate();
    mc_plan(1e-3, 2 * (2 * M + M + 1));
    one_case("uniform", iter);
    one_case("beta-binomial:a=1,b=1", iter);
    mc_report();
    return check_report("test_glm_exact");
}
