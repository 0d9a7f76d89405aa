/*
 * test_rj_informed_large.c: rj's informed moves at p = 2000 (too many
 * inputs to enumerate) against a long reference run of rj's uniform moves
 * (themselves checked against enumeration in test_rj_exact.c): two
 * different exact samplers of the same posterior must agree.
 *
 * Design (fixed seed): n = 400 rows, p = 2000 inputs in AR(1) blocks of 50
 * with rho = 0.95 (fine-mapping-like, bench/scale), y = 0.3 (x_111 - x_921 +
 * x_1531 + x_1536) + N(0, 1): two effects five inputs apart in one block.
 * g-prior (g = n), beta-binomial(1, 1) model prior, kmax 20.
 *
 * Reference: RR independent uniform runs (4 chains each would do the same)
 * of REF_ITER moves; its value for each PIP is their mean, with its own
 * error bound e_ref = t_{RR-1} x their standard error (floored at the
 * binomial one). Informed: R one-chain runs of ITER moves (Rao-Blackwellised
 * PIPs). The PIP of every input that either sampler puts above 0.02 (K of
 * them; the rest are 0 for both) is checked with CHECK_MC (tests/stat/
 * mcse.h): the mean of the R informed runs within t_{R-1} standard errors
 * plus e_ref of the reference, t at the two-sided level 1e-3 / K.
 * Sizes: fast tier RR = 8 x 500000 uniform moves, R = 8 x 3000 informed
 * ones; full tier (BASEL_TIER=full) RR = 16 x 4 x 10^6 and R = 16 x 20000.
 */
#include "check.h"
#include "stat/mcse.h"
#include "core/params.h"
#include "engine/subset/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 400, P = 2000, BLOCK = 50, RMAX = 16 };

static void make_data(double *X, double *y)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2026);
    const double rho = 0.95, s = sqrt(1 - rho * rho);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < P; j++) {
            const double e = gsl_ran_gaussian(r, 1);
            X[j * N + i] = j % BLOCK == 0 ? e : rho * X[(j - 1) * N + i] + s * e;
        }
    const size_t eff[] = {110, 920, 1530, 1535};
    const double b[] = {0.3, -0.3, 0.3, 0.3};
    for (size_t i = 0; i < N; i++) {
        y[i] = gsl_ran_gaussian(r, 1);
        for (size_t e = 0; e < 4; e++) y[i] += b[e] * X[eff[e] * N + i];
    }
    gsl_rng_free(r);
}

/* reps one-chain runs of the given proposal; pip[j * RMAX + r] */
static int runs(const bsl_vs_problem *pb, const char *proposal, size_t iter, size_t reps, unsigned long seed0,
                double *pip)
{
    bsl_params params = {0};
    bsl_params_set(&params, "proposal", proposal);
    for (size_t r = 0; r < reps; r++) {
        basel_error err;
        bsl_run run = {.iter = iter, .burn = iter / 5, .thin = 1, .chains = 1, .seed = seed0 + r, .params = &params};
        bsl_vs_result res;
        const int rc = bsl_rj_run(pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "rj %s seed %lu: %s", proposal, seed0 + r, err.message);
        if (rc) return rc;
        for (size_t j = 0; j < P; j++) pip[j * RMAX + r] = res.pip[j];
        bsl_vs_result_free(&res);
    }
    return BASEL_OK;
}

int main(void)
{
    double *X = malloc(sizeof(double) * N * P), *y = malloc(sizeof(double) * N);
    double *ref = malloc(sizeof(double) * P * RMAX), *inf = malloc(sizeof(double) * P * RMAX);
    if (!X || !y || !ref || !inf) return 1;
    make_data(X, y);
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_vs_problem pb = {0};
    if (bsl_dict_create(&dict, "linear", X, N, P, &err) ||
        bsl_design_create(&D, dict, X, N, y, 1, (size_t)1 << 30, &err) ||
        bsl_coef_prior_parse(&pb.prior, "g", N, 1, &err) ||
        bsl_mprior_parse(&pb.mprior, "beta-binomial:a=1,b=1", P, &err)) {
        CHECK(0, "setup: %s", err.message);
        return check_report("test_rj_informed_large");
    }
    pb.D = D;
    pb.kmax = 20;
    pb.mprior.kmax = 20;
    const size_t RR = STAT_TIER(8, 16), ref_iter = STAT_TIER(500000, 4000000);
    const size_t R = STAT_TIER(8, 16), iter = STAT_TIER(3000, 20000);
    printf("rj informed vs uniform at p = %d (%s tier): reference %zu x %zu uniform moves, %zu x %zu informed\n",
           P, stat_tier_name(), RR, ref_iter, R, iter);
    if (!runs(&pb, "uniform", ref_iter, RR, 1, ref) && !runs(&pb, "informed", iter, R, 101, inf)) {
        /* the inputs either sampler gives some weight (PIP > 0.02): the
         * others are 0 to both within any bound a check could state */
        double rmean[P], rse[P], imean[P], ise;
        size_t K = 0;
        for (size_t j = 0; j < P; j++) {
            mc_mean_se(ref + j * RMAX, RR, 0.5, (double)RR * (double)ref_iter, &rmean[j], &rse[j]);
            mc_mean_se(ref + j * RMAX, RR, rmean[j], (double)RR * (double)ref_iter, &rmean[j], &rse[j]);
            mc_mean_se(inf + j * RMAX, R, 0.5, (double)R * (double)iter, &imean[j], &ise);
            K += rmean[j] > 0.02 || imean[j] > 0.02;
        }
        mc_plan(1e-3, K);
        const double t_ref = gsl_cdf_tdist_Qinv(1e-3 / (double)K / 2, (double)RR - 1);
        double worst = 0, widest = 0;
        for (size_t j = 0; j < P; j++) {
            if (!(rmean[j] > 0.02 || imean[j] > 0.02)) continue;
            CHECK_MC(inf + j * RMAX, R, rmean[j], t_ref * rse[j], (double)R * (double)iter,
                     "PIP of x%zu (reference %.4f)", j + 1, rmean[j]);
            printf("  x%-5zu reference %.4f +- %.4f  informed %.4f  bound %.4f\n", j + 1, rmean[j], t_ref * rse[j],
                   imean[j], mc_family.last_bound);
            worst = fmax(worst, mc_family.last_error);
            widest = fmax(widest, mc_family.last_bound);
        }
        printf("  %zu inputs checked; max |informed - reference| %.4f; widest bound %.4f\n", K, worst, widest);
    }
    mc_report();
    bsl_design_free(D);
    bsl_dict_free(dict);
    free(X);
    free(y);
    free(ref);
    free(inf);
    return check_report("test_rj_informed_large");
}
