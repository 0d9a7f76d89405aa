/*
 * test_bd_ridge_gibbs.c: the birth-death engine with the ridge prior's
 * sigma^2 and lambda SAMPLED (paper 004's own setting: Gibbs updates between
 * blocks, eqs. 17-19) targets the right joint posterior. The exact subset
 * posterior integrates both out: for each of the 2^m subsets,
 *   p(A | y) ∝ p(A) ∫∫ p(y | A, sigma^2, lambda) p(sigma^2) p(lambda),
 * computed by quadrature on a fine grid in (log sigma^2, log lambda) with
 * 1/sigma^2 ~ Gamma(a, b) and lambda ~ Gamma(c, d). bd's PIPs and size
 * posterior must agree within 0.01 for 5 seeds (4 chains x 60000 blocks).
 */
#include "check.h"
#include "engine/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 40, M = 8, G = 160 };

/* log p(y | A) for fixed sigma2, lambda through the model's formula */
static double log_ml_subset(const bsl_design *D, bsl_coef_prior pr, unsigned mask, basel_error *err)
{
    bsl_model *Mo;
    bsl_model_create(&Mo, D, &pr, M, err);
    for (size_t j = 0; j < M; j++)
        if (mask >> j & 1) bsl_model_add(Mo, j);
    const double v = Mo->log_ml;
    bsl_model_free(Mo);
    return v;
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 4242);
    double X[N * M], Y[N];
    for (size_t i = 0; i < N; i++) {
        double prev = 0;
        for (size_t j = 0; j < M; j++) {
            prev = 0.6 * prev + gsl_ran_gaussian(r, 1.0);
            X[j * N + i] = prev;
        }
        Y[i] = 0.9 * X[i] - 0.6 * X[2 * N + i] + 0.3 * X[5 * N + i] + gsl_ran_gaussian(r, 1.0);
    }
    basel_error err;
    bsl_dict *dict;
    bsl_design *D;
    bsl_dict_create(&dict, "linear", X, N, M, &err);
    bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err);
    bsl_vs_problem pb = {0};
    pb.D = D;
    bsl_coef_prior_parse(&pb.prior, "ridge:a=2,b=2,c=2,d=1", N, 1, &err);
    pb.prior.sigma2 = 1.0;
    bsl_mprior_parse(&pb.mprior, "poisson:mean=2", M, &err);
    pb.kmax = pb.mprior.kmax = M;

    /* quadrature over u = log sigma^2 in [-4, 3], v = log lambda in [-6, 4]:
     * density of (u, v) = p(sigma^2) sigma^2 * p(lambda) lambda */
    static double lw[1 << M];
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        double acc = -INFINITY;
        for (int a = 0; a < G; a++)
            for (int b = 0; b < G; b++) {
                const double u = -4 + 7.0 * (a + 0.5) / G, v = -6 + 10.0 * (b + 0.5) / G;
                bsl_coef_prior pr = pb.prior;
                pr.sigma2 = exp(u);
                pr.lambda = exp(v);
                const double prec = 1 / pr.sigma2;
                /* 1/sigma^2 ~ Gamma(a, rate b): density of u is p_prec(prec) * prec */
                const double lp_u = log(gsl_ran_gamma_pdf(prec, pb.prior.a, 1 / pb.prior.b)) + log(prec);
                const double lp_v = log(gsl_ran_gamma_pdf(pr.lambda, pb.prior.c, 1 / pb.prior.d)) + v;
                acc = bsl_logaddexp(acc, log_ml_subset(D, pr, mask, &err) + lp_u + lp_v);
            }
        lw[mask] = acc + bsl_mprior_log(&pb.mprior, (size_t)__builtin_popcount(mask));
    }
    const double lz = bsl_logsumexp(lw, 1u << M);
    double pip[M] = {0}, size[M + 1] = {0};
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        const double w = exp(lw[mask] - lz);
        size[__builtin_popcount(mask)] += w;
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) pip[j] += w;
    }
    bsl_params prm = {0};
    double worst_all = 0;
    for (unsigned long seed = 1; seed <= 5; seed++) {
        bsl_run run = {0};
        run.iter = 60000;
        run.burn = 2000;
        run.thin = 1;
        run.chains = 4;
        run.seed = seed;
        run.params = &prm;
        bsl_vs_result res;
        int rc = bsl_bd_run(&pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "seed %lu: %s", seed, err.message);
        if (rc) continue;
        double worst = 0;
        for (size_t j = 0; j < M; j++) worst = fmax(worst, fabs(res.pip[j] - pip[j]));
        for (size_t k = 0; k <= M; k++) worst = fmax(worst, fabs(res.size_prob[k] - size[k]));
        CHECK(worst < 0.01, "seed %lu: max |PIP or P(k) - exact| = %.4f", seed, worst);
        worst_all = fmax(worst_all, worst);
        bsl_vs_result_free(&res);
    }
    printf("ridge with sigma2 and lambda sampled: max error over 5 seeds %.4f (PIPs:", worst_all);
    for (size_t j = 0; j < M; j++) printf(" %.3f", pip[j]);
    printf(")\n");
    bsl_design_free(D);
    bsl_dict_free(dict);
    gsl_rng_free(r);
    return check_report("test_bd_ridge_gibbs");
}
