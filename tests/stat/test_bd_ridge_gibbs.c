/*
 * test_bd_ridge_gibbs.c: the birth-death engine with the ridge prior's
 * sigma^2 and lambda SAMPLED (paper 004's own setting: Gibbs updates between
 * blocks, eqs. 17-19) targets the right joint posterior. The exact subset
 * posterior integrates both out by quadrature (tests/stat/ridge_exact.h,
 * shared with test_rj_exact.c): 1/sigma^2 ~ Gamma(2, 2), lambda ~ Gamma(2, 1),
 * 8 AR(0.6) inputs, Poisson(2) on the size.
 *
 * R = 16 runs of 2 chains x BD_ITER blocks (2000 burn-in; 4000 fast, 40000
 * full): the mean of each PIP and P(k) over the runs must lie within t_15
 * standard errors (their spread) plus the quadrature's error bound of the
 * exact value, t at the two-sided level 1e-3 / (8 + 9) (tests/stat/mcse.h).
 */
#include "check.h"
#include "stat/mcse.h"
#include "stat/ridge_exact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R = 16, CHAINS = 2, BURN = 2000, M = RIDGE_M };

int main(void)
{
    ridge_problem rp;
    if (ridge_problem_make(&rp)) return 1;
    basel_error err;
    double pip[M], size[M + 1], qerr;
    ridge_exact(&rp.pb, pip, size, &qerr);
    const size_t iter = STAT_TIER(4000, 40000);
    mc_plan(1e-3, 2 * M + 1);
    printf("bd, ridge with sigma2 and lambda sampled (%s tier): %d runs x %d chains x %zu blocks; "
           "quadrature error <= %.1e; t = %.2f\n",
           stat_tier_name(), R, CHAINS, iter, qerr, mc_quantile(R));
    bsl_params prm = {0};
    double est_pip[M][R], est_size[M + 1][R];
    int rc = BASEL_OK;
    for (size_t r = 0; r < R && rc == BASEL_OK; r++) {
        bsl_run run = {.iter = iter, .burn = BURN, .thin = 1, .chains = CHAINS, .seed = r + 1, .params = &prm};
        bsl_vs_result res;
        rc = bsl_bd_run(&rp.pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "seed %zu: %s", r + 1, err.message);
        if (rc) break;
        for (size_t j = 0; j < M; j++) est_pip[j][r] = res.pip[j];
        for (size_t k = 0; k <= M; k++) est_size[k][r] = res.size_prob[k];
        bsl_vs_result_free(&res);
    }
    if (rc == BASEL_OK) {
        const double n_total = (double)(R * CHAINS * iter);
        printf("  PIP exact / mean of runs:");
        for (size_t j = 0; j < M; j++) {
            CHECK_MC(est_pip[j], R, pip[j], qerr, n_total, "PIP %zu (seeds 1..%d)", j, R);
            double mean, se;
            mc_mean_se(est_pip[j], R, pip[j], n_total, &mean, &se);
            printf(" %.3f/%.3f", pip[j], mean);
        }
        printf("\n");
        for (size_t k = 0; k <= M; k++)
            CHECK_MC(est_size[k], R, size[k], qerr, n_total, "P(k = %zu) (seeds 1..%d)", k, R);
    }
    mc_report();
    ridge_problem_free(&rp);
    return check_report("test_bd_ridge_gibbs");
}
