/*
 * test_draws.c: the DRAWS of the subset samplers (--draws) are draws from
 * the exact posterior. bd records the state at each block's end, rj the
 * state after every thin-th move, ssvs the indicators after every
 * thin-th sweep (collapsed, and paper 001's Gibbs sampler as written; its
 * exact answer is the spike-and-slab posterior of bsl_ssvs_enumerate, on
 * the linear case only, with the slab scaled by sigma^2 so that it is in
 * closed form: the quadrature of scaled=0 would add some 10 s of CPU, and
 * the sampler's moves are the same; test_ssvs_exact covers scaled=0). For
 * each engine and
 * case the draw frequency of every atom and the mean size of the draws
 * agree with exact enumeration within 5 Monte Carlo standard errors.
 *
 * Standard errors come from batch means: the draws of each chain are cut
 * into BATCHES batches of equal length (4 x 50 batches of 500 draws, far
 * longer than the chains' autocorrelation), SE = sd(batch means) /
 * sqrt(batches), floored at the i.i.d. value sqrt(p (1 - p) / draws) and at
 * the resolution 1 / draws of a frequency, so an atom that is (nearly)
 * always in or out does not get a zero bound. Over
 * the (2 x 2 + 2) x 17 comparisons a false alarm at 5 SE is very unlikely; recording
 * the state after the event that crosses the block's end instead (the bug
 * this test was written for) fails bd by 77 and 51 SE on the mean size.
 */
#include "check.h"
#include "engine/subset/subset.h"
#include "engine/ssvs/ssvs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CHAINS = 4, ITER = 25000, BATCHES = 50 };

typedef struct case_ {
    const char *name, *basis, *prior, *mprior;
    const double *X;
    size_t n, d;
    const double *Y;
    unsigned long seed;
} case_;

/* Mean and batch-means SE of the values v[c * ITER + i] (chain c, draw i). */
static void batch_stats(const double *v, double *mean, double *se)
{
    const size_t per = ITER / BATCHES, nb = CHAINS * BATCHES;
    double bm[CHAINS * BATCHES], mu = 0, var = 0;
    for (size_t b = 0; b < nb; b++) {
        const size_t c = b / BATCHES, first = c * ITER + (b % BATCHES) * per;
        double s = 0;
        for (size_t i = 0; i < per; i++) s += v[first + i];
        bm[b] = s / (double)per;
        mu += bm[b] / (double)nb;
    }
    for (size_t b = 0; b < nb; b++) var += (bm[b] - mu) * (bm[b] - mu) / (double)(nb - 1);
    *mean = mu;
    *se = sqrt(var / (double)nb);
}

/* A sampler that writes draws, and the thinning that keeps its ITER draws
 * per chain far enough apart for 50 batches (rj moves one atom a step). */
typedef struct engine_ {
    const char *name;
    bsl_subset_runner run;
    size_t thin;
    const char *ssvs; /* the spike-and-slab prior (ssvs only; linear case only) */
} engine_;

/* The exact PIPs and size posterior the engine's draws must follow. */
static int exact_answer(const bsl_vs_problem *pb, const engine_ *e, bsl_vs_result *ex, basel_error *err)
{
    if (!e->ssvs) return bsl_enumerate(pb, NULL, ex, err);
    bsl_ssvs_prior sp;
    int rc = bsl_ssvs_parse(&sp, e->ssvs, err);
    if (!rc) rc = bsl_vs_result_init(ex, pb->D->m, 1, pb->kmax, 1);
    if (!rc) rc = bsl_ssvs_enumerate(&sp, pb, ex->pip, ex->size_prob, err);
    return rc;
}

static void run_case(const case_ *c, const engine_ *e)
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
    pb.prior_spec = e->ssvs;
    bsl_vs_result ex, res;
    CHECK(exact_answer(&pb, e, &ex, &err) == BASEL_OK, "%s: exact answer for %s: %s", c->name, e->name,
          err.message);
    bsl_params prm = {0};
    bsl_run run = {.iter = ITER * e->thin, .burn = 1000 * e->thin, .thin = e->thin, .chains = CHAINS,
                   .seed = c->seed, .threads = 2, .keep_draws = 1, .params = &prm};
    const int rc = e->run(&pb, &run, &res, &err);
    CHECK(rc == BASEL_OK && res.ndraws == CHAINS * ITER, "%s %s seed %lu: %s (%zu draws)", e->name, c->name,
          c->seed, rc ? err.message : "ok", rc ? 0 : res.ndraws);
    if (rc || res.ndraws != CHAINS * ITER) return;
    const size_t m = D->m, N = res.ndraws;
    double *v = malloc(N * sizeof *v);
    double worst = 0; /* in standard errors */
    for (size_t j = 0; j <= m; j++) { /* atom j, then (j = m) the size */
        for (size_t i = 0; i < N; i++) {
            const size_t a = res.draw_start[i], b = res.draw_start[i + 1];
            double x = j == m ? (double)(b - a) : 0;
            for (size_t u = a; u < b && j < m; u++) x += res.draw_atoms[u] == j;
            v[i] = x;
        }
        double mean, se, exact = 0;
        batch_stats(v, &mean, &se);
        if (j < m) {
            exact = ex.pip[j];
            /* a frequency of N draws resolves 1 / N at best */
            se = fmax(se, fmax(sqrt(exact * (1 - exact) / (double)N), 1.0 / (double)N));
        } else {
            for (size_t k = 0; k <= pb.kmax; k++) exact += (double)k * ex.size_prob[k];
        }
        const double z = fabs(mean - exact) / se;
        worst = fmax(worst, z);
        if (j < m)
            CHECK(z < 5, "%s %s seed %lu: atom %zu drawn %.4f, exact PIP %.4f (%.1f SE, SE %.4f)", e->name,
                  c->name, c->seed, j + 1, mean, exact, z, se);
        else
            CHECK(z < 5, "%s %s seed %lu: mean size of the draws %.4f, exact %.4f (%.1f SE, SE %.4f)",
                  e->name, c->name, c->seed, mean, exact, z, se);
        if (j == m)
            printf("%-4s %-40s %s mean size of the draws %.4f, exact %.4f (SE %.4f)\n", e->name, c->name,
                   e->ssvs ? e->ssvs : "", mean, exact, se);
    }
    printf("%-4s %-40s %s largest error %.2f SE\n", e->name, c->name, e->ssvs ? e->ssvs : "", worst);
    free(v);
    bsl_vs_result_free(&res);
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
    /* 16 correlated Gaussian kernels (r = 1.6) at the first 16 sinc points */
    double xs[16], ys[16];
    for (size_t i = 0; i < 16; i++) {
        xs[i] = basel_data_value(sinc, i, 1);
        ys[i] = basel_data_value(sinc, i, 2);
    }
    const case_ cases[] = {
        {"lin_p15_n200, g=n, beta-binomial", "linear", "g:g=200", "beta-binomial:a=1,b=1", X, n, 15, Y, 3},
        {"gauss r=1.6 m=16, ridge fixed, poisson:3", "gauss:r=1.6", "ridge:lambda=1,sigma2=0.04",
         "poisson:mean=3", xs, 16, 1, ys, 5},
    };
    const engine_ engines[] = {{"bd", bsl_bd_run, 1, NULL},
                               {"rj", bsl_rj_run, 10, NULL},
                               {"ssvs", bsl_ssvs_run, 1, "ssvs:scaled=1"},
                               {"ssvs", bsl_ssvs_run, 2, "ssvs:collapsed=0,scaled=1"}};
    for (size_t k = 0; k < sizeof engines / sizeof *engines; k++)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
            if (!engines[k].ssvs || i == 0) run_case(&cases[i], &engines[k]);
    free(X);
    free(Y);
    basel_data_free(lin);
    basel_data_free(sinc);
    return check_report("test_draws");
}
