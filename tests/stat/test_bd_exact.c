/*
 * test_bd_exact.c: the birth-death engine converges to the exact posterior
 * (DESIGN.md "How we know it is right", step 2). For each case and 5 seeds,
 * every PIP and every size probability must be within 0.01 of exact
 * enumeration under the same model and prior.
 *
 * Run length: 4 chains x 100000 blocks of duration rho = 1 at nu = 1, i.e.
 * about 4.8e5 events per run (blocks last exactly rho since the draws fix;
 * before it each also ran on to the next event, and 60000 gave as many). On lin_p15_n200 the smallest ESS of an
 * uncertain PIP (x13, p = 0.45) is about 5e4 at this length (bd reports it),
 * so its standard error is about 0.0022 and 0.01 is 4.5 standard errors:
 * over the 5 x (15 + 16) comparisons per case a false alarm has probability
 * well under 1%.
 */
#include "check.h"
#include "engine/subset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct case_ {
    const char *name, *basis, *prior, *mprior, *birth;
    const double *X;
    size_t n, d;
    const double *Y;
} case_;

static void run_case(const case_ *c)
{
    basel_error err;
    bsl_dict *dict;
    bsl_design *D;
    bsl_dict_create(&dict, c->basis, c->X, c->n, c->d, &err);
    bsl_design_create(&D, dict, c->X, c->n, c->Y, 1, (size_t)1 << 30, &err);
    bsl_vs_problem pb = {0};
    pb.D = D;
    CHECK(bsl_coef_prior_parse(&pb.prior, c->prior, c->n, 1, &err) == 0, "%s: %s", c->name, err.message);
    bsl_mprior_parse(&pb.mprior, c->mprior, D->m, &err);
    pb.kmax = pb.mprior.kmax = BSL_MIN(D->m, D->n - 3);
    bsl_vs_result ex;
    CHECK(bsl_enumerate(&pb, NULL, &ex, &err) == BASEL_OK, "%s: enumerate: %s", c->name, err.message);
    bsl_params prm = {0};
    if (c->birth) bsl_params_set(&prm, "birth", c->birth);
    double worst_all = 0;
    for (unsigned long seed = 1; seed <= 5; seed++) {
        bsl_run run = {0};
        run.iter = 100000;
        run.burn = 2000;
        run.thin = 1;
        run.chains = 4;
        run.seed = seed;
        run.params = &prm;
        bsl_vs_result res;
        int rc = bsl_bd_run(&pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "%s seed %lu: %s", c->name, seed, err.message);
        if (rc) continue;
        double worst = 0, worst_size = 0;
        for (size_t j = 0; j < D->m; j++) worst = fmax(worst, fabs(res.pip[j] - ex.pip[j]));
        for (size_t k = 0; k <= pb.kmax; k++)
            worst_size = fmax(worst_size, fabs(res.size_prob[k] - ex.size_prob[k]));
        CHECK(worst < 0.01, "%s seed %lu: max |PIP - exact| = %.4f", c->name, seed, worst);
        CHECK(worst_size < 0.01, "%s seed %lu: max |P(k) - exact| = %.4f", c->name, seed, worst_size);
        worst_all = fmax(worst_all, fmax(worst, worst_size));
        bsl_vs_result_free(&res);
    }
    printf("%-44s max error over 5 seeds %.4f\n", c->name, worst_all);
    bsl_vs_result_free(&ex);
    bsl_design_free(D);
    bsl_dict_free(dict);
}

int main(void)
{
    basel_error err;
    basel_data *lin, *sinc;
    if (basel_data_read_csv(&lin, "data/linear/lin_p15_n200.csv", NULL, &err) ||
        basel_data_read_csv(&sinc, "data/regression/sinc_tipping_gauss_train.csv", NULL, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    const size_t n = basel_data_rows(lin);
    double *X = malloc(n * 15 * sizeof *X), *Y = malloc(n * sizeof *Y);
    for (size_t j = 0; j < 15; j++)
        for (size_t i = 0; i < n; i++) X[j * n + i] = basel_data_value(lin, i, j);
    for (size_t i = 0; i < n; i++) Y[i] = basel_data_value(lin, i, 15);
    /* a 1-D Gaussian-kernel dictionary: the first 16 points of sinc
     * replicate 1, a kernel (r = 1.6) at each: m = 16 correlated atoms */
    double xs[16], ys[16];
    for (size_t i = 0; i < 16; i++) {
        xs[i] = basel_data_value(sinc, i, 1);
        ys[i] = basel_data_value(sinc, i, 2);
    }
    const case_ cases[] = {
        {"lin_p15_n200, g-prior g=n, uniform", "linear", "g:g=200", "uniform", NULL, X, n, 15, Y},
        {"lin_p15_n200, g-prior, poisson:mean=3", "linear", "g:g=200", "poisson:mean=3", NULL, X, n, 15, Y},
        {"lin_p15_n200, ridge fixed, beta-binomial, informed", "linear", "ridge:lambda=1,sigma2=1",
         "beta-binomial:a=1,b=1", "informed", X, n, 15, Y},
        {"gauss r=1.6 m=16, ridge fixed, uniform", "gauss:r=1.6", "ridge:lambda=1,sigma2=0.04", "uniform", NULL, xs, 16, 1, ys},
        {"gauss r=1.6 m=16, ridge fixed, poisson:mean=3", "gauss:r=1.6", "ridge:lambda=1,sigma2=0.04", "poisson:mean=3", NULL, xs, 16, 1, ys},
        {"gauss r=1.6 m=16, hier delta2=4 (sigma2 integrated), uniform", "gauss:r=1.6", "hier:delta2=4", "uniform", NULL, xs, 16, 1, ys},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_case(&cases[i]);
    free(X);
    free(Y);
    basel_data_free(lin);
    basel_data_free(sinc);
    return check_report("test_bd_exact");
}
