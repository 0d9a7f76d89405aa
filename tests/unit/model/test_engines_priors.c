/*
 * test_engines_priors.c: the model table's contract. Every collapsed engine
 * that runs on the table (rows of `engines`) crossed with every coefficient
 * prior (rows of `priors`) must reproduce the exact posterior of the same
 * model: a prior written once in the model works in every engine.
 *
 * Problem: a small correlated design (n = 60, m = 6 AR(1) inputs with rho =
 * 0.7; y = 0.8 x1 - 0.5 x3 + 0.3 x5 + N(0, 1)), model prior poisson:mean=2.
 * Exact answer: bsl_enumerate under the same prior; for ridge with sigma^2
 * and lambda sampled, which has no closed form, quadrature over (log
 * sigma^2, log lambda) of the enumerated marginals (as in
 * tests/stat/test_bd_ridge_gibbs.c), and over log g for the sampled g;
 * for the unscaled spike and slab
 * (sigma^2 a nuisance parameter of the model) bsl_ssvs_enumerate's dense
 * quadrature. The scaled spike and slab's enumeration through the table is
 * also checked against bsl_ssvs_enumerate's eigen form (1e-9).
 *
 * Tolerance, from the Monte Carlo error: each (engine, prior) runs S
 * independent single-chain runs (seeds 1..S, iter iterations after BURN); for every PIP and every size
 * probability, the mean over the runs must be within t * SE of the exact
 * value, SE = sd over runs / sqrt(S), t the Student-t (S - 1 df) quantile
 * that makes all the checks of this program together fail with probability
 * 1% when every engine is right (Bonferroni). SE is floored by the iid
 * binomial error sqrt(p (1 - p) / (S iter)): a chain of iter draws cannot
 * know a probability better, and runs that all give exactly 0 for a tiny p
 * would otherwise have SE = 0. A wrong prior (say, g = n in one engine and
 * g = 2n in the other) moves PIPs here by several hundredths, dozens of SEs;
 * a g that never moved from its start (g:a=3,b=6 starts at g = n = 60)
 * would miss the exact PIPs by up to 0.28.
 */
#include "check.h"
#include "core/params.h"
#include "engine/ssvs/ssvs.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 60, M = 6, S = 10, G = 120 };

#define FAMILY_ALPHA 0.01
#define BURN 500

typedef int (*engine_fn)(const bsl_vs_problem *, const bsl_run *, bsl_vs_result *, basel_error *);

/* iter: the engine's unit (bd: blocks of duration 1, rj: moves, ssvs:
 * sweeps of M updates), chosen for a PIP SE of about 0.001 to 0.003 */
static const struct {
    const char *name;
    engine_fn run;
    size_t iter;
} engines[] = {
    {"bd", bsl_bd_run, 20000},
    {"rj", bsl_rj_run, 20000},
    {"ssvs", bsl_ssvs_run, 5000}, /* collapsed Gibbs over indicators */
};
enum { NENGINES = sizeof engines / sizeof engines[0] };

static const char *const priors[] = {
    "g:g=60", "g:a=3,b=6", "ridge:lambda=0.5,sigma2=1.3", "ridge:a=2,b=2,c=2,d=1", "hier:delta2=4,a=1,b=1",
    "hier", "aic", "bic", "mdl", "ssvs:scaled=1,tau=0.5,c=50,a=1,b=1", "ssvs:scaled=0",
};
enum { NPRIORS = sizeof priors / sizeof priors[0] };

/* The exact posterior of ridge with sampled sigma^2 and lambda: midpoint
 * rule in u = log sigma^2 in [-3, 2.5], v = log lambda in [-6, 4]; the
 * densities of u and v are p(1/sigma^2) / sigma^2 and p(lambda) lambda
 * (1/sigma^2 ~ Gamma(a, rate b), lambda ~ Gamma(c, rate d)). */
static void exact_sampled_ridge(const bsl_vs_problem *pb, double *pip, double *size)
{
    static double lw[1 << M];
    basel_error err;
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        bsl_model *Mo;
        bsl_model_create(&Mo, pb->D, &pb->prior, M, &err);
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) bsl_model_add(Mo, j);
        double acc = -INFINITY;
        for (int a = 0; a < G; a++)
            for (int b = 0; b < G; b++) {
                const double u = -3 + 5.5 * (a + 0.5) / G, v = -6 + 10.0 * (b + 0.5) / G;
                bsl_coef_prior pr = pb->prior;
                pr.sigma2 = exp(u);
                pr.lambda = exp(v);
                bsl_model_set_prior(Mo, &pr);
                const double prec = 1 / pr.sigma2;
                const double lp_u = log(gsl_ran_gamma_pdf(prec, pr.a, 1 / pr.b)) + log(prec);
                const double lp_v = log(gsl_ran_gamma_pdf(pr.lambda, pr.c, 1 / pr.d)) + v;
                acc = bsl_logaddexp(acc, Mo->log_ml + lp_u + lp_v);
            }
        bsl_model_free(Mo);
        lw[mask] = acc + bsl_mprior_log(&pb->mprior, (size_t)__builtin_popcount(mask));
    }
    const double lz = bsl_logsumexp(lw, 1u << M);
    memset(pip, 0, M * sizeof *pip);
    memset(size, 0, (M + 1) * sizeof *size);
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        const double w = exp(lw[mask] - lz);
        size[__builtin_popcount(mask)] += w;
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) pip[j] += w;
    }
}

/* The exact posterior of the g-prior with g ~ IG(a, b) sampled: midpoint
 * rule in u = log g in [-6, 14] (density p(g) g) over the closed-form
 * marginal of each subset, which depends on g only through the formula. */
static void exact_sampled_g(const bsl_vs_problem *pb, double *pip, double *size)
{
    static double lw[1 << M];
    basel_error err;
    const double a = pb->prior.a, b = pb->prior.b;
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        bsl_model *Mo;
        bsl_model_create(&Mo, pb->D, &pb->prior, M, &err);
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) bsl_model_add(Mo, j);
        double acc = -INFINITY;
        for (int i = 0; i < 4 * G; i++) {
            const double u = -6 + 20.0 * (i + 0.5) / (4 * G);
            bsl_coef_prior pr = pb->prior;
            pr.g = exp(u);
            const double lp_u = a * log(b) - lgamma(a) - a * u - b / pr.g; /* log IG(g) + u */
            acc = bsl_logaddexp(acc, bsl_log_ml_formula(&pr, N, 1, 1, Mo->k, Mo->logdet, Mo->quad,
                                                        pb->D->yy) + lp_u);
        }
        bsl_model_free(Mo);
        lw[mask] = acc + bsl_mprior_log(&pb->mprior, (size_t)__builtin_popcount(mask));
    }
    const double lz = bsl_logsumexp(lw, 1u << M);
    memset(pip, 0, M * sizeof *pip);
    memset(size, 0, (M + 1) * sizeof *size);
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        const double w = exp(lw[mask] - lz);
        size[__builtin_popcount(mask)] += w;
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) pip[j] += w;
    }
}

/* Check the S-run mean of est (S x len) against exact (len). */
static double compare(const char *what, const char *engine, const char *prior, const double *est,
                      const double *exact, size_t len, double t, size_t iter)
{
    double worst = 0;
    for (size_t j = 0; j < len; j++) {
        double mean = 0, var = 0;
        for (size_t s = 0; s < S; s++) mean += est[s * len + j] / S;
        for (size_t s = 0; s < S; s++) var += (est[s * len + j] - mean) * (est[s * len + j] - mean) / (S - 1);
        const double p = exact[j];
        const double se = fmax(sqrt(var / S), sqrt(fmax(p * (1 - p), 0.0) / ((double)S * (double)iter)));
        const double z = fabs(mean - p) / se;
        worst = fmax(worst, z);
        CHECK(fabs(mean - p) <= t * se, "%s %s %s[%zu]: mean %.5f, exact %.5f, %.1f SE (bound %.1f, SE %.2g)",
              engine, prior, what, j, mean, p, z, t, se);
    }
    return worst;
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2385);
    double X[N * M], Y[N];
    for (size_t i = 0; i < N; i++) {
        double prev = gsl_ran_ugaussian(r);
        for (size_t j = 0; j < M; j++) {
            if (j) prev = 0.7 * prev + sqrt(1 - 0.49) * gsl_ran_ugaussian(r);
            X[j * N + i] = prev;
        }
        Y[i] = 0.8 * X[i] - 0.5 * X[2 * N + i] + 0.3 * X[4 * N + i] + gsl_ran_ugaussian(r);
    }
    gsl_rng_free(r);
    basel_error err;
    bsl_dict *dict;
    bsl_design *D;
    if (bsl_dict_create(&dict, "linear", X, N, M, &err) ||
        bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err)) {
        fprintf(stderr, "setup: %s\n", err.message);
        return 1;
    }
    /* checks: per (engine, prior) M PIPs and M + 1 size probabilities */
    const double nchecks = (double)(NENGINES * NPRIORS * (2 * M + 1));
    const double t = gsl_cdf_tdist_Qinv(FAMILY_ALPHA / (2 * nchecks), S - 1);
    printf("%d runs per case; bound %.2f SE (family-wise %.0f%% over %.0f checks)\n", S, t,
           100 * FAMILY_ALPHA, nchecks);
    bsl_params params = {0};
    for (size_t p = 0; p < NPRIORS; p++) {
        bsl_vs_problem pb = {0};
        pb.D = D;
        pb.prior_spec = priors[p];
        const int is_ssvs = strncmp(priors[p], "ssvs", 4) == 0;
        CHECK((is_ssvs ? bsl_coef_prior_ssvs(&pb.prior, priors[p], &err)
                       : bsl_coef_prior_parse(&pb.prior, priors[p], N, 1, &err)) == BASEL_OK,
              "parse %s", priors[p]);
        CHECK(bsl_mprior_parse(&pb.mprior, "poisson:mean=2", M, &err) == BASEL_OK, "model prior");
        pb.kmax = pb.mprior.kmax = M;
        double pip[M], size[M + 1];
        if (pb.prior.sample_nuisance && strcmp(pb.prior.type->name, "g") == 0) {
            exact_sampled_g(&pb, pip, size);
        } else if (pb.prior.sample_nuisance) {
            pb.prior.sigma2 = 1.0; /* the chains' start */
            exact_sampled_ridge(&pb, pip, size);
        } else if (is_ssvs && !pb.prior.ssvs.scaled) {
            /* sigma^2 integrated by quadrature, independently of the model table */
            CHECK(bsl_ssvs_enumerate(&pb.prior.ssvs, &pb, pip, size, &err) == BASEL_OK, "ssvs enumerate");
            bsl_vs_result ex = {0}; /* a failed engine may leave it partly filled: free it */
            CHECK(bsl_enumerate(&pb, NULL, &ex, &err) == BASEL_EINVAL, "enumerate refuses %s", priors[p]);
            bsl_vs_result_free(&ex);
        } else {
            bsl_vs_result ex;
            CHECK(bsl_enumerate(&pb, NULL, &ex, &err) == BASEL_OK, "enumerate %s", priors[p]);
            memcpy(pip, ex.pip, sizeof pip);
            memcpy(size, ex.size_prob, sizeof size);
            bsl_vs_result_free(&ex);
            if (is_ssvs) { /* the table's rank-one marginal against the dense eigen form */
                double pd[M], sd[M + 1];
                CHECK(bsl_ssvs_enumerate(&pb.prior.ssvs, &pb, pd, sd, &err) == BASEL_OK, "ssvs enumerate");
                for (size_t j = 0; j < M; j++) CHECK_CLOSE(pip[j], pd[j], 1e-9, "ssvs pip: table vs dense");
                for (size_t k = 0; k <= M; k++) CHECK_CLOSE(size[k], sd[k], 1e-9, "ssvs size: table vs dense");
            }
        }
        for (size_t e = 0; e < NENGINES; e++) {
            double est_pip[S * M], est_size[S * (M + 1)];
            for (size_t s = 0; s < S; s++) {
                bsl_run run = {.iter = engines[e].iter, .burn = BURN, .thin = 1, .chains = 1, .threads = 1,
                               .seed = 1 + s, .top = 5, .params = &params};
                bsl_vs_result res;
                const int rc = engines[e].run(&pb, &run, &res, &err);
                CHECK(rc == BASEL_OK, "%s %s seed %zu: %s", engines[e].name, priors[p], s + 1, err.message);
                if (rc) return check_report("test_engines_priors");
                memcpy(est_pip + s * M, res.pip, M * sizeof(double));
                memcpy(est_size + s * (M + 1), res.size_prob, (M + 1) * sizeof(double));
                bsl_vs_result_free(&res);
            }
            const double zp = compare("pip", engines[e].name, priors[p], est_pip, pip, M, t, engines[e].iter);
            const double zs = compare("size", engines[e].name, priors[p], est_size, size, M + 1, t, engines[e].iter);
            printf("  %-4s %-36s worst |mean - exact| / SE: pip %.2f  size %.2f\n", engines[e].name,
                   priors[p], zp, zs);
        }
    }
    bsl_design_free(D);
    bsl_dict_free(dict);
    return check_report("test_engines_priors");
}
