/*
 * glm_case.h: the small logistic-regression design that the GLM engines
 * are checked on against enumeration (test_glm_exact.c: rj;
 * test_glm_engines.c: bd and ssvs), so that every engine is held to the
 * same exact answer.
 *
 * The design. Simulated, n = 120, m = 6 standard normal inputs with
 * corr(x1, x2) ~ 0.7, P(y = 1) = logit^-1(-0.3 + 1.0 x1 - 0.8 x3 + 0.4 x4)
 * (fixed seed); prior normal:sd=1,intercept-sd=5. The exact answer is the
 * posterior PIPs and P(k) of this model,
 *     p(A | y) prop. to p(A) int prod Bern(y | ...) N(theta; 0, Lambda_A^-1) dtheta,
 * which enumeration computes up to its importance-sampling error
 * (bsl_model_glm_exact, GLM_IS_DRAWS draws per subset).
 *
 * The reference's error. Enumeration reports the largest standard error
 * D_se of a log marginal likelihood (its note). Taking every subset's error
 * below D = 5 D_se (64 subsets: all within 5 sd with probability
 * > 1 - 4e-5), a PIP p = A / (A + B) moves by at most p (1 - p) (e^{2D} - 1):
 * each check's e_exact (mcse.h, glm_exact_err); the same bound holds for
 * P(k).
 */
#ifndef BSL_TEST_GLM_CASE_H
#define BSL_TEST_GLM_CASE_H

#include "check.h"
#include "engine/subset/subset.h"
#include "model/glm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { GLM_N = 120, GLM_M = 6, GLM_IS_DRAWS = 40000 };

static double glm_X[GLM_N * GLM_M], glm_Y[GLM_N];

static void glm_simulate(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 17);
    for (size_t i = 0; i < GLM_N; i++) {
        for (size_t j = 0; j < GLM_M; j++) glm_X[i + j * GLM_N] = gsl_ran_ugaussian(r);
        glm_X[i + 1 * GLM_N] = 0.7 * glm_X[i] + sqrt(1 - 0.49) * glm_X[i + 1 * GLM_N];
        const double eta = -0.3 + 1.0 * glm_X[i] - 0.8 * glm_X[i + 2 * GLM_N] + 0.4 * glm_X[i + 3 * GLM_N];
        glm_Y[i] = gsl_rng_uniform(r) < 1 / (1 + exp(-eta));
    }
    gsl_rng_free(r);
}

typedef struct glm_setup {
    bsl_dict *dict;
    bsl_design *D;
    bsl_vs_problem pb; /* model NULL: the caller picks the table */
} glm_setup;

static int glm_make(glm_setup *s, const char *mprior)
{
    basel_error err;
    memset(s, 0, sizeof *s);
    if (bsl_dict_create(&s->dict, "linear", glm_X, GLM_N, GLM_M, &err) ||
        bsl_design_create(&s->D, s->dict, glm_X, GLM_N, glm_Y, 1, (size_t)1 << 30, &err) ||
        bsl_glm_prior_parse(&s->pb.prior, "normal:sd=1,intercept-sd=5", 0, &err) ||
        bsl_mprior_parse(&s->pb.mprior, mprior, GLM_M, &err)) {
        fprintf(stderr, "setup %s: %s\n", mprior, err.message);
        return -1;
    }
    s->pb.prior.is_draws = GLM_IS_DRAWS;
    s->pb.prior.is_seed = 5;
    s->pb.D = s->D;
    s->pb.kmax = s->pb.mprior.kmax;
    return 0;
}

static void glm_unmake(glm_setup *s)
{
    bsl_design_free(s->D);
    bsl_dict_free(s->dict);
}

/* Enumeration of the exact posterior into ex, and its bound D = 5 D_se on
 * every subset's log marginal error (file comment). -1 on failure (checked). */
static int glm_enumerate(const glm_setup *s, const char *mprior, bsl_vs_result *ex, double *D)
{
    basel_error err;
    bsl_vs_problem pe = s->pb;
    pe.model = &bsl_model_glm_exact;
    const int rc = bsl_enumerate(&pe, NULL, ex, &err);
    CHECK(rc == BASEL_OK, "enumerate %s: %s", mprior, err.message);
    if (rc) return -1;
    const char *at = strstr(ex->engine_note, "log marginal likelihood ");
    double se = NAN;
    CHECK(at && sscanf(at + strlen("log marginal likelihood "), "%lf", &se) == 1 && se > 0 && se < 0.01,
          "%s: enumeration reports its importance-sampling error below 0.01 (%s)", mprior, ex->engine_note);
    *D = 5 * se;
    return se > 0 && se < 0.01 ? 0 : -1;
}

/* p (1 - p) (e^{2D} - 1), the reference's error bound (file comment) */
static inline double glm_exact_err(double p, double D) { return fmin(p, 1) * fmax(1 - p, 0) * expm1(2 * D); }

#endif
