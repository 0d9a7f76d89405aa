/*
 * test_near_dup.c: nearly duplicated inputs (issue 13 item 4). x2 = x1 + e
 * noise (e = 1e-3, 1e-4 and 1e-6), n = 100, m = 12, y = 0.5 x1 + 0.3 x5 +
 * noise, fixed seed. The exact posterior (enumeration over all 4096
 * subsets) puts about 0.51 on each of x1 and x2. For e = 1e-3 and 1e-4 it
 * puts about 0.02 on {x1, x2}, whose relative Schur complement (~1e-6 and
 * ~1e-8) is inside the collinearity limit (model.h BSL_RANK_TOL: no subset
 * refused); for e = 1e-6 (~1e-12) {x1, x2} cannot be computed and every
 * engine gives its 1024 supersets probability 0 (enumerate says so). bd
 * with its default swap rate (without swaps, at e = 1e-6, its PIPs were
 * 0.75 / 0.25 over 4 chains) and rj must agree with enumeration:
 *   - from their draws: the frequencies of x1, of x2 and of {x1, x2} both
 *     in, and the mean size, each within 5 batch-means standard errors
 *     (as tests/stat/test_draws.c: 4 chains x 50 batches, SE floored at
 *     the i.i.d. binomial value and at 1 / draws);
 *   - their Rao-Blackwellised PIPs of x1 and x2 (FIT.json's), over the 4
 *     chains as replicates, by CHECK_MC (mcse.h: t quantile, Bonferroni
 *     over the family, alpha 1e-3).
 * 3 designs x 2 engines x 4 draw checks at 5 SE: a false alarm is very
 * unlikely. BASEL_TIER=full runs 4 times longer.
 */
#include "check.h"
#include "engine/subset/subset.h"
#include "mcse.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CHAINS = 4, BATCHES = 50, N = 100, M = 12 };

static size_t iter_per_chain(void) { return STAT_TIER(25000, 100000); }

/* Mean and batch-means SE of v[c * iter + i] (chain c, draw i). */
static void batch_stats(const double *v, size_t iter, double *mean, double *se)
{
    const size_t per = iter / BATCHES, nb = CHAINS * BATCHES;
    double bm[CHAINS * BATCHES], mu = 0, var = 0;
    for (size_t b = 0; b < nb; b++) {
        const size_t c = b / BATCHES, first = c * iter + (b % BATCHES) * per;
        double s = 0;
        for (size_t i = 0; i < per; i++) s += v[first + i];
        bm[b] = s / (double)per;
        mu += bm[b] / (double)nb;
    }
    for (size_t b = 0; b < nb; b++) var += (bm[b] - mu) * (bm[b] - mu) / (double)(nb - 1);
    *mean = mu;
    *se = sqrt(var / (double)nb);
}

static void make_design(double e, double *X, double *Y)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 13);
    for (size_t j = 0; j < M; j++)
        for (size_t i = 0; i < N; i++) X[j * N + i] = gsl_ran_ugaussian(r);
    for (size_t i = 0; i < N; i++) {
        X[1 * N + i] = X[i] + e * gsl_ran_ugaussian(r);
        Y[i] = 0.5 * X[i] + 0.3 * X[4 * N + i] + gsl_ran_ugaussian(r);
    }
    gsl_rng_free(r);
}

/* P(x1 and x2 both in) from the enumerated subsets (every subset within
 * e^-60 of the best is stored: the rest is below 1e-20 in all). */
static double exact_both(const bsl_vs_result *ex)
{
    double p = 0;
    for (size_t i = 0; i < ex->models.n; i++) {
        const size_t *a = bsl_modelset_atoms(&ex->models, i), k = ex->models.items[i].k;
        int has0 = 0, has1 = 0;
        for (size_t u = 0; u < k; u++) {
            has0 |= a[u] == 0;
            has1 |= a[u] == 1;
        }
        if (has0 && has1) p += ex->models.items[i].weight;
    }
    return p;
}

typedef struct engine_ {
    const char *name;
    bsl_subset_runner run;
    size_t thin;
} engine_;

static void run_case(double e, const engine_ *eng, unsigned long seed)
{
    double X[N * M], Y[N];
    make_design(e, X, Y);
    basel_error err;
    bsl_dict *dict;
    bsl_design *D;
    bsl_dict_create(&dict, "linear", X, N, M, &err);
    bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err);
    bsl_vs_problem pb = {0};
    pb.D = D;
    bsl_coef_prior_parse(&pb.prior, "g:g=100", N, 1, &err);
    bsl_mprior_parse(&pb.mprior, "beta-binomial:a=1,b=1", D->m, &err);
    pb.kmax = pb.mprior.kmax = D->m;
    bsl_vs_result ex, res;
    const int erc = bsl_enumerate(&pb, NULL, &ex, &err);
    CHECK(erc == BASEL_OK, "e=%g: enumerate accepts the near-duplicate design: %s", e, erc ? err.message : "ok");
    if (erc) return;
    const int cut = e < 1e-5; /* {x1, x2} beyond the collinearity limit */
    CHECK((strstr(ex.engine_note, "1024 of them cannot be computed") != NULL) == cut,
          "e=%g: %s subset refused as collinear (%s)", e, cut ? "the {x1, x2} supersets and no other" : "no",
          ex.engine_note);
    const double both = exact_both(&ex);
    CHECK(cut ? both == 0 : both > 0.01, "e=%g: exact P({x1, x2}) = %.4f %s", e, both,
          cut ? "= 0 (collinear)" : "> 0.01 (the set is not cut off)");
    const size_t iter = iter_per_chain();
    bsl_params prm = {0};
    bsl_run run = {.iter = iter * eng->thin, .burn = 1000 * eng->thin, .thin = eng->thin, .chains = CHAINS,
                   .seed = seed, .threads = 2, .keep_draws = 1, .params = &prm};
    const int rc = eng->run(&pb, &run, &res, &err);
    CHECK(rc == BASEL_OK && res.ndraws == CHAINS * iter, "%s e=%g: %s", eng->name, e, rc ? err.message : "ok");
    if (rc || res.ndraws != CHAINS * iter) return;
    const size_t Nd = res.ndraws;
    double *v = malloc(Nd * sizeof *v);
    double exact_size = 0;
    for (size_t k = 0; k <= pb.kmax; k++) exact_size += (double)k * ex.size_prob[k];
    const char *what[] = {"x1", "x2", "{x1, x2}", "size"};
    const double exact[] = {ex.pip[0], ex.pip[1], both, exact_size};
    for (int q = 0; q < 4; q++) {
        for (size_t i = 0; i < Nd; i++) {
            const size_t a = res.draw_start[i], b = res.draw_start[i + 1];
            int h0 = 0, h1 = 0;
            for (size_t u = a; u < b; u++) {
                h0 |= res.draw_atoms[u] == 0;
                h1 |= res.draw_atoms[u] == 1;
            }
            v[i] = q == 0 ? h0 : q == 1 ? h1 : q == 2 ? (h0 && h1) : (double)(b - a);
        }
        double mean, se;
        batch_stats(v, iter, &mean, &se);
        if (q < 3) se = fmax(se, fmax(sqrt(exact[q] * (1 - exact[q]) / (double)Nd), 1.0 / (double)Nd));
        const double z = fabs(mean - exact[q]) / se;
        CHECK(z < 5, "%s e=%g seed %lu: %s in the draws %.4f, exact %.4f (%.1f SE, SE %.4f)", eng->name, e, seed,
              what[q], mean, exact[q], z, se);
        printf("%-3s e=%-6g %-9s draws %.4f exact %.4f (%.2f SE, SE %.4f)\n", eng->name, e, what[q], mean, exact[q], z,
               se);
    }
    for (size_t j = 0; j < 2; j++) {
        double x[CHAINS];
        for (size_t c = 0; c < CHAINS; c++) x[c] = res.pip_chain[c * M + j];
        CHECK_MC(x, CHAINS, ex.pip[j], 0, (double)(CHAINS * iter), "%s e=%g: PIP of x%zu", eng->name, e, j + 1);
        printf("%-3s e=%-6g PIP x%zu %.4f exact %.4f\n", eng->name, e, j + 1, res.pip[j], ex.pip[j]);
    }
    free(v);
    bsl_vs_result_free(&res);
    bsl_vs_result_free(&ex);
    bsl_design_free(D);
    bsl_dict_free(dict);
}

int main(void)
{
    printf("tier %s\n", stat_tier_name());
    mc_plan(1e-3, 3 * 2 * 2);
    const engine_ engines[] = {{"bd", bsl_bd_run, 1}, {"rj", bsl_rj_run, 10}};
    const double es[] = {1e-3, 1e-4, 1e-6};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < 3; i++) run_case(es[i], &engines[k], 7 + i);
    mc_report();
    return check_report("test_near_dup");
}
