/*
 * ridge_exact.h: the exact subset posterior under the ridge prior with
 * sigma^2 and lambda SAMPLED (paper 004's setting), for the engines that
 * Gibbs-update both (bd, rj). Shared by test_bd_ridge_gibbs.c and
 * test_rj_exact.c.
 *
 * For each of the 2^m subsets A,
 *   p(A | y) ∝ p(A) ∫∫ p(y | A, sigma^2, lambda) p(sigma^2) p(lambda),
 * with 1/sigma^2 ~ Gamma(a, rate b) and lambda ~ Gamma(c, rate d), by the
 * midpoint rule on a G x G grid in (u, v) = (log sigma^2, log lambda) over
 * [-4, 3] x [-6, 4]; p(y | A, sigma^2, lambda) through the model's own
 * formula (bsl_model), so what is tested is the samplers' moves and their
 * Gibbs updates of sigma^2 and lambda. The quadrature error is bounded by
 * comparing with the rule on the G/2 grid: the midpoint rule's error is
 * O(h^2), so |I_G - I_{G/2}| is about three times the error of I_G and
 * serves as its bound (ridge_exact's *err). The box holds all but ~0.5% of
 * the prior mass of the test problem (1/sigma^2 < 0.05 under Gamma(2, 2)),
 * and far less posterior mass (sigma^2 ~ 1 with n = 40).
 *
 * The test problem: n = 40 rows of m = 8 AR(0.6) inputs, y = 0.9 x0 - 0.6 x2
 * + 0.3 x5 + N(0, 1) noise, ridge:a=2,b=2,c=2,d=1, poisson:mean=2 on the
 * size.
 */
#ifndef BSL_TEST_RIDGE_EXACT_H
#define BSL_TEST_RIDGE_EXACT_H

#include "engine/subset/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { RIDGE_N = 40, RIDGE_M = 8, RIDGE_G = 160 };

typedef struct ridge_problem {
    double X[RIDGE_N * RIDGE_M], Y[RIDGE_N];
    bsl_dict *dict;
    bsl_design *D;
    bsl_vs_problem pb;
} ridge_problem;

static int ridge_problem_make(ridge_problem *rp)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 4242);
    enum { N = RIDGE_N, M = RIDGE_M };
    for (size_t i = 0; i < N; i++) {
        double prev = 0;
        for (size_t j = 0; j < M; j++) {
            prev = 0.6 * prev + gsl_ran_gaussian(r, 1.0);
            rp->X[j * N + i] = prev;
        }
        rp->Y[i] = 0.9 * rp->X[i] - 0.6 * rp->X[2 * N + i] + 0.3 * rp->X[5 * N + i] + gsl_ran_gaussian(r, 1.0);
    }
    gsl_rng_free(r);
    basel_error err;
    memset(&rp->pb, 0, sizeof rp->pb);
    rp->dict = NULL;
    rp->D = NULL;
    if (bsl_dict_create(&rp->dict, "linear", rp->X, N, M, &err) ||
        bsl_design_create(&rp->D, rp->dict, rp->X, N, rp->Y, 1, (size_t)1 << 30, &err) ||
        bsl_coef_prior_parse(&rp->pb.prior, "ridge:a=2,b=2,c=2,d=1", N, 1, &err) ||
        bsl_mprior_parse(&rp->pb.mprior, "poisson:mean=2", M, &err)) {
        fprintf(stderr, "ridge problem: %s\n", err.message);
        return -1;
    }
    rp->pb.D = rp->D;
    rp->pb.prior.sigma2 = 1.0; /* the engines' starting value */
    rp->pb.kmax = rp->pb.mprior.kmax = M;
    return 0;
}

static void ridge_problem_free(ridge_problem *rp)
{
    bsl_design_free(rp->D);
    bsl_dict_free(rp->dict);
}

/* log p(y | A) for the fixed sigma2, lambda in pr, through the model's formula */
static double ridge_log_ml_subset(const bsl_design *D, bsl_coef_prior pr, unsigned mask)
{
    basel_error err;
    bsl_model *Mo;
    if (bsl_model_create(&Mo, D, &pr, D->m, &err)) return NAN;
    for (size_t j = 0; j < D->m; j++)
        if (mask >> j & 1) bsl_model_add(Mo, j);
    const double v = Mo->log_ml;
    bsl_model_free(Mo);
    return v;
}

/* PIPs and size posterior on a G x G grid (G even). */
static void ridge_quadrature(const bsl_vs_problem *pb, int G, double *pip, double *size)
{
    const size_t m = pb->D->m;
    const unsigned nmask = 1u << m;
    double *lw = malloc(nmask * sizeof *lw);
    for (unsigned mask = 0; mask < nmask; mask++) {
        double acc = -INFINITY;
        for (int a = 0; a < G; a++)
            for (int b = 0; b < G; b++) {
                /* density of (u, v) = p(sigma^2) sigma^2 * p(lambda) lambda */
                const double u = -4 + 7.0 * (a + 0.5) / G, v = -6 + 10.0 * (b + 0.5) / G;
                bsl_coef_prior pr = pb->prior;
                pr.sigma2 = exp(u);
                pr.lambda = exp(v);
                const double prec = 1 / pr.sigma2;
                /* 1/sigma^2 ~ Gamma(a, rate b): density of u is p_prec(prec) * prec */
                const double lp_u = log(gsl_ran_gamma_pdf(prec, pb->prior.a, 1 / pb->prior.b)) + log(prec);
                const double lp_v = log(gsl_ran_gamma_pdf(pr.lambda, pb->prior.c, 1 / pb->prior.d)) + v;
                acc = bsl_logaddexp(acc, ridge_log_ml_subset(pb->D, pr, mask) + lp_u + lp_v);
            }
        lw[mask] = acc + bsl_mprior_log(&pb->mprior, (size_t)__builtin_popcount(mask));
    }
    const double lz = bsl_logsumexp(lw, nmask);
    memset(pip, 0, m * sizeof *pip);
    memset(size, 0, (m + 1) * sizeof *size);
    for (unsigned mask = 0; mask < nmask; mask++) {
        const double w = exp(lw[mask] - lz);
        size[__builtin_popcount(mask)] += w;
        for (size_t j = 0; j < m; j++)
            if (mask >> j & 1) pip[j] += w;
    }
    free(lw);
}

/* The exact PIPs (m) and size posterior (m + 1) at RIDGE_G, and a bound on
 * their quadrature error (the largest change from the RIDGE_G / 2 grid). */
static void ridge_exact(const bsl_vs_problem *pb, double *pip, double *size, double *err)
{
    const size_t m = pb->D->m;
    double *pip2 = malloc(m * sizeof *pip2), *size2 = malloc((m + 1) * sizeof *size2);
    ridge_quadrature(pb, RIDGE_G, pip, size);
    ridge_quadrature(pb, RIDGE_G / 2, pip2, size2);
    *err = 0;
    for (size_t j = 0; j < m; j++) *err = fmax(*err, fabs(pip[j] - pip2[j]));
    for (size_t k = 0; k <= m; k++) *err = fmax(*err, fabs(size[k] - size2[k]));
    free(pip2);
    free(size2);
}

#endif
