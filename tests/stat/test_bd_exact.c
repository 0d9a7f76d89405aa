/*
 * test_bd_exact.c: the birth-death engine converges to the exact posterior
 * (DESIGN.md "How we know it is right", step 2). For each of eight cases
 * (lin_p15_n200 under three priors, a 16-atom Gaussian-kernel dictionary
 * under three, a 16-atom multi-scale one, 8 centres x 2 widths, under two), R independent runs of 2 chains each (seeds 1..R), every
 * time-weighted PIP and every size probability P(k) against exact
 * enumeration under the same model and prior.
 *
 * Bound (tests/stat/mcse.h): the mean over the R runs must lie within
 * t_{R-1} standard errors of the exact value, the standard error from the
 * spread of the R runs (floored at the binomial one over all blocks), t at
 * the two-sided level 1e-3 / K with K the number of PIPs and P(k) checked
 * in the whole program (Bonferroni: a correct engine fails this program
 * with probability below 1e-3).
 *
 * Run length: R = 16 runs x 2 chains x BD_ITER blocks of duration rho = 1
 * at nu = 1 (about 2 events per block and chain), 1000 burn-in blocks;
 * BD_ITER = 4000 in the fast tier, 40000 in the full one (BASEL_TIER=full).
 */
#include "check.h"
#include "stat/mcse.h"
#include "engine/subset/subset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R = 16, CHAINS = 2, BURN = 1000, MAXM = 16 };

typedef struct case_ {
    const char *name, *basis, *prior, *mprior, *birth;
    const double *X;
    size_t n, d;
    const double *Y;
} case_;

typedef struct setup {
    bsl_dict *dict;
    bsl_design *D;
    bsl_vs_problem pb;
} setup;

static int make(setup *s, const case_ *c)
{
    basel_error err;
    memset(s, 0, sizeof *s);
    if (bsl_dict_create(&s->dict, c->basis, c->X, c->n, c->d, &err) ||
        bsl_design_create(&s->D, s->dict, c->X, c->n, c->Y, 1, (size_t)1 << 30, &err) ||
        bsl_coef_prior_parse(&s->pb.prior, c->prior, c->n, 1, &err) ||
        bsl_mprior_parse(&s->pb.mprior, c->mprior, s->D->m, &err)) {
        fprintf(stderr, "setup %s: %s\n", c->name, err.message);
        return -1;
    }
    s->pb.D = s->D;
    s->pb.kmax = s->pb.mprior.kmax = BSL_MIN(s->D->m, s->D->n - 3);
    return 0;
}

static void unmake(setup *s)
{
    bsl_design_free(s->D);
    bsl_dict_free(s->dict);
}

/* The number of checks a case makes: its PIPs and size probabilities. */
static size_t case_checks(const case_ *c)
{
    setup s;
    if (make(&s, c)) return 0;
    const size_t k = s.D->m + s.pb.kmax + 1;
    unmake(&s);
    return k;
}

static void run_case(const case_ *c, size_t iter)
{
    setup s;
    if (make(&s, c)) {
        CHECK(0, "setup %s", c->name);
        return;
    }
    basel_error err;
    const size_t m = s.D->m, kmax = s.pb.kmax;
    bsl_vs_result ex;
    int rc = bsl_enumerate(&s.pb, NULL, &ex, &err);
    CHECK(rc == BASEL_OK, "%s: enumerate: %s", c->name, err.message);
    if (rc || m > MAXM) {
        unmake(&s);
        return;
    }
    bsl_params prm = {0};
    if (c->birth) bsl_params_set(&prm, "birth", c->birth);
    double pip[MAXM][R], size[MAXM + 1][R];
    for (size_t r = 0; r < R && rc == BASEL_OK; r++) {
        bsl_run run = {.iter = iter, .burn = BURN, .thin = 1, .chains = CHAINS, .seed = r + 1,
                       .params = &prm};
        bsl_vs_result res;
        rc = bsl_bd_run(&s.pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "%s seed %zu: %s", c->name, r + 1, err.message);
        if (rc) break;
        for (size_t j = 0; j < m; j++) pip[j][r] = res.pip[j];
        for (size_t k = 0; k <= kmax; k++) size[k][r] = res.size_prob[k];
        bsl_vs_result_free(&res);
    }
    if (rc == BASEL_OK) {
        const double n_total = (double)(R * CHAINS * iter);
        double worst = 0, widest = 0;
        for (size_t j = 0; j < m; j++) {
            CHECK_MC(pip[j], R, ex.pip[j], 0, n_total, "%s: PIP %zu (seeds 1..%d)", c->name, j, R);
            worst = fmax(worst, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        for (size_t k = 0; k <= kmax; k++) {
            CHECK_MC(size[k], R, ex.size_prob[k], 0, n_total, "%s: P(k = %zu) (seeds 1..%d)", c->name, k, R);
            worst = fmax(worst, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        printf("  %-60s max |mean - exact| %.4f, widest bound %.4f\n", c->name, worst, widest);
    }
    bsl_vs_result_free(&ex);
    unmake(&s);
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
        /* a multi-scale dictionary (basis.h): the first 8 points at two
         * widths, m = 16 atoms; births pick a centre and a width together */
        {"gauss r=1,3 (multi-scale) m=16, ridge fixed, beta-binomial", "gauss:r=1,3", "ridge:lambda=1,sigma2=0.04",
         "beta-binomial:a=1,b=1", NULL, xs, 8, 1, ys},
        {"gauss r=1,3 (multi-scale) m=16, hier delta2=4, informed", "gauss:r=1,3", "hier:delta2=4", "uniform",
         "informed", xs, 8, 1, ys},
    };
    const size_t ncases = sizeof cases / sizeof *cases, iter = STAT_TIER(4000, 40000);
    size_t K = 0;
    for (size_t i = 0; i < ncases; i++) K += case_checks(&cases[i]);
    mc_plan(1e-3, K);
    printf("bd vs enumeration (%s tier): %d runs x %d chains x %zu blocks (+%d burn); t = %.2f\n",
           stat_tier_name(), R, CHAINS, iter, BURN, mc_quantile(R));
    for (size_t i = 0; i < ncases; i++) run_case(&cases[i], iter);
    mc_report();
    free(X);
    free(Y);
    basel_data_free(lin);
    basel_data_free(sinc);
    return check_report("test_bd_exact");
}
