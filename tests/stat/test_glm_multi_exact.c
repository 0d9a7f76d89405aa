/*
 * test_glm_multi_exact.c: multinomial logistic regression with one subset
 * per class (--family multinomial, model/glm_multi.h): rj's block sampler
 * (engine/rj/rj_multinomial.c: Polya-Gamma augmentation of each class given
 * the others) against enumeration of the same model's exact posterior
 * (engine/enumerate/enumerate_multinomial.c: every joint model's marginal
 * likelihood by importance sampling at its Laplace approximation).
 *
 * The exact answer. Simulated design, n = 150, m = 3 standard normal
 * inputs, C = 3 classes (class 0 the reference):
 *     eta_1 = 0.2 + 1.2 x1 + 0.3 x3,   eta_2 = -0.3 + 0.9 x2 + 0.25 x3,
 * y_i drawn from the softmax (fixed seed); prior normal:sd=1,intercept-sd=5,
 * each class's subset A_c under the model prior (uniform, then
 * beta-binomial(1, 1) over the 3 inputs), independent across classes. The
 * targets are the exact posterior probabilities, over the 2^6 = 64 joint
 * models (A_1, A_2),
 *     P(input j in A_c | y)   (6 per-class PIPs)   and
 *     P(input j in A_1 or A_2 | y)   (3 input PIPs),
 * p(A | y) prop. to p(A_1) p(A_2) int prod_i softmax(eta_i)_{y_i} N(theta; 0, Lambda_A^-1) dtheta,
 * which enumeration computes up to its importance-sampling error.
 *
 * The reference's error, as test_glm_exact.c (20000 importance draws per
 * joint model in the fast tier, 80000 in the full one): every joint model's log
 * marginal likelihood within D = 5 D_se of its true value (64 models: all
 * within 5 sd with probability > 1 - 4e-5), so a probability p moves by at
 * most p (1 - p) (e^{2D} - 1): each check's e_exact (mcse.h).
 *
 * The sampler. R = 16 one-chain runs (seeds 1..R), RJ_ITER moves each after
 * 1000 burn-in (fast 20000, full 200000); every PIP (Rao-Blackwellised at
 * each class block's end, rj_multinomial.c) checked by CHECK_MC at
 * family-wise level 1e-3. Leaving out the offsets (each class against the
 * rest) fails 6 of the 18 checks.
 */
#include "check.h"
#include "stat/mcse.h"
#include "core/params.h"
#include "engine/subset/subset.h"
#include "model/glm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 150, M = 3, C = 3, J = M * (C - 1), R = 16, BURN = 1000 };

static double X[N * M], Y[N];

static void simulate(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 23);
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < M; j++) X[i + j * N] = gsl_ran_ugaussian(r);
        const double e1 = 0.2 + 1.2 * X[i] + 0.3 * X[i + 2 * N], e2 = -0.3 + 0.9 * X[i + N] + 0.25 * X[i + 2 * N];
        const double t = 1 + exp(e1) + exp(e2), u = gsl_rng_uniform(r) * t;
        Y[i] = u < 1 ? 0 : u < 1 + exp(e1) ? 1 : 2;
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
        bsl_glm_prior_parse(&s->pb.prior, "normal:sd=1,intercept-sd=5", 0, &err) ||
        bsl_mprior_parse(&s->pb.mprior, mprior, M, &err)) {
        fprintf(stderr, "setup %s: %s\n", mprior, err.message);
        return -1;
    }
    s->pb.prior.glm_family = BSL_GLM_MULTINOMIAL;
    s->pb.D = s->D;
    s->pb.kmax = s->pb.mprior.kmax;
    s->pb.nclass = C;
    s->pb.prior.is_draws = STAT_TIER(20000, 80000);
    s->pb.prior.is_seed = 5;
    return 0;
}

static void unmake(setup *s)
{
    bsl_design_free(s->D);
    bsl_dict_free(s->dict);
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
    double ex_pip[J], ex_in[M], se = NAN;
    basel_error err;
    bsl_vs_result ex;
    int rc = bsl_enumerate(&s.pb, NULL, &ex, &err);
    const char *at = rc ? NULL : strstr(ex.engine_note, "log marginal likelihood ");
    CHECK(rc == BASEL_OK && ex.m == J && ex.d_inputs == M && at &&
              sscanf(at + strlen("log marginal likelihood "), "%lf", &se) == 1 && se > 0 && se < 0.01,
          "%s: enumeration (%s) reports its importance-sampling error below 0.01", mprior,
          rc ? err.message : ex.engine_note);
    if (rc || !(se > 0)) {
        if (!rc) bsl_vs_result_free(&ex);
        unmake(&s);
        return;
    }
    memcpy(ex_pip, ex.pip, sizeof ex_pip);
    memcpy(ex_in, ex.input_pip, sizeof ex_in);
    bsl_vs_result_free(&ex);
    const double D = 5 * se;
    double pip[J][R], in[M][R];
    bsl_params params = {0};
    for (size_t r = 0; r < R; r++) {
        bsl_run run = {.iter = iter, .burn = BURN, .thin = 1, .chains = 1, .seed = 1 + r, .params = &params};
        bsl_vs_result res;
        rc = bsl_rj_run(&s.pb, &run, &res, &err);
        CHECK(rc == BASEL_OK && res.m == J && res.d_inputs == M, "rj seed %zu: %s", r + 1, rc ? err.message : "");
        if (rc) break;
        for (size_t a = 0; a < J; a++) pip[a][r] = res.pip[a];
        for (size_t j = 0; j < M; j++) in[j][r] = res.input_pip[j];
        bsl_vs_result_free(&res);
    }
    const double n_total = (double)R * (double)iter;
    double w = 0;
    for (size_t a = 0; a < J && !rc; a++) {
        printf("  %-22s class %zu x%zu exact %.4f (+- %.4f)  rj %.4f\n", mprior, a / M + 1, a % M + 1, ex_pip[a],
               exact_err(ex_pip[a], D), pip[a][0]);
        CHECK_MC(pip[a], R, ex_pip[a], exact_err(ex_pip[a], D), n_total, "%s: PIP of x%zu in class %zu", mprior,
                 a % M + 1, a / M + 1);
        w = fmax(w, mc_family.last_error);
    }
    for (size_t j = 0; j < M && !rc; j++) {
        printf("  %-22s input x%zu exact %.4f (+- %.4f)  rj %.4f\n", mprior, j + 1, ex_in[j], exact_err(ex_in[j], D),
               in[j][0]);
        CHECK_MC(in[j], R, ex_in[j], exact_err(ex_in[j], D), n_total, "%s: input PIP of x%zu", mprior, j + 1);
        w = fmax(w, mc_family.last_error);
    }
    printf("  %-22s max |mean - exact| %.4f (importance-sampling se %.4f)\n", mprior, w, se);
    unmake(&s);
}

int main(void)
{
    const size_t iter = STAT_TIER(20000, 200000);
    printf("test_glm_multi_exact (%s tier: %zu moves x %d runs per case)\n", stat_tier_name(), iter, R);
    simulate();
    mc_plan(1e-3, 2 * (J + M));
    one_case("uniform", iter);
    one_case("beta-binomial:a=1,b=1", iter);
    mc_report();
    return check_report("test_glm_multi_exact");
}
