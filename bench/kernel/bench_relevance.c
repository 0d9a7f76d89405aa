/*
 * bench_relevance.c: the cost of bd's relevance moves next to plain bd
 * (issue 16 item 2; engine/bd/bd_relevance.h derives it).
 *
 * usage: build/bench_relevance [blocks] [n,n,...]     (default 2000 500,2000,8000)
 *
 * A simulated d = 5 problem: x ~ U[-2, 2]^5, y = sin(2 x1) + x2^2 / 2 +
 * N(0, 0.2^2) (x3, x4, x5 irrelevant), a Gaussian kernel (r = 1) at every
 * row (m = n atoms), streamed columns, g-prior g = n, beta-binomial model
 * prior, one chain, `blocks` blocks after blocks / 5 burn-in. The joint
 * chain of --relevance select only (bsl_bd_run; not the refit that the
 * command line adds), so the columns compare one chain with another:
 * CPU seconds, the mean size k of the chain, and the CPU time per block in
 * units of n k (the per-block cost bd.c promises is O(n k)), for plain bd,
 * relevance moves every 10 blocks (the default) and every block, with the
 * atoms fixed (relevance-steps 1, the default) and annealed (20 steps);
 * then the one-off cost of --relevance ml's scales (bsl_ard_ml), which
 * replaces the moves by a fixed dictionary, so its chain is plain bd's.
 */
#include "engine/subset/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct variant {
    const char *name, *relevance, *every, *steps;
} variant;

static int run(const bsl_vs_problem *pb, const variant *v, size_t blocks, double *cpu, double *kbar,
               double *acc)
{
    bsl_params prm = {0};
    if (v->relevance) {
        bsl_params_set(&prm, "relevance", v->relevance);
        bsl_params_set(&prm, "relevance-every", v->every);
        bsl_params_set(&prm, "relevance-steps", v->steps);
    }
    bsl_run r = {.iter = blocks, .burn = blocks / 5, .thin = 1, .chains = 1, .threads = 1, .seed = 1, .params = &prm};
    bsl_vs_result res;
    basel_error err;
    const clock_t t0 = clock();
    if (bsl_bd_run(pb, &r, &res, &err)) {
        fprintf(stderr, "bd: %s\n", err.message);
        return -1;
    }
    *cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    *kbar = 0;
    for (size_t k = 0; k <= res.kmax; k++) *kbar += (double)k * res.size_prob[k];
    *acc = res.input_proposed > 0 ? res.input_accepted / res.input_proposed : NAN;
    bsl_vs_result_free(&res);
    return 0;
}

int main(int argc, char **argv)
{
    const size_t blocks = argc > 1 ? (size_t)atol(argv[1]) : 2000;
    const char *ns = argc > 2 ? argv[2] : "500,2000,8000";
    const variant vs[] = {
        {"plain bd", NULL, NULL, NULL},
        {"select, every 10", "select", "10", "1"},
        {"select, every 1", "select", "1", "1"},
        {"select, every 10, T = 20", "select", "10", "20"},
    };
    printf("bd joint chain, d = 5 simulated, gauss:r=1 at every row, 1 chain, %zu blocks (+%zu burn); "
           "CPU s / mean k / CPU ns per block per n k / relevance acceptance\n",
           blocks, blocks / 5);
    for (const char *p = ns; *p;) {
        const size_t n = (size_t)strtoul(p, (char **)&p, 10);
        if (*p == ',') p++;
        double *X = malloc(5 * n * sizeof *X), *Y = malloc(n * sizeof *Y);
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, 1);
        for (size_t i = 0; i < n; i++) {
            for (size_t a = 0; a < 5; a++) X[a * n + i] = gsl_ran_flat(r, -2, 2);
            Y[i] = sin(2 * X[i]) + X[n + i] * X[n + i] / 2 + gsl_ran_gaussian(r, 0.2);
        }
        bsl_dict *dict;
        bsl_design *D;
        bsl_vs_problem pb = {0};
        basel_error err;
        if (bsl_dict_create(&dict, "gauss:r=1", X, n, 5, &err) ||
            bsl_design_create_for(&D, dict, X, n, Y, 1, (size_t)256 << 20, 1.0, NULL, &err) ||
            bsl_coef_prior_parse(&pb.prior, "", n, 1, &err) ||
            bsl_mprior_parse(&pb.mprior, "beta-binomial:a=1,b=1", n, &err)) {
            fprintf(stderr, "setup: %s\n", err.message);
            return 1;
        }
        pb.D = D;
        pb.kmax = pb.mprior.kmax = 200;
        printf("n = %zu\n", n);
        for (size_t v = 0; v < sizeof vs / sizeof *vs; v++) {
            double cpu, kbar, acc;
            if (run(&pb, &vs[v], blocks, &cpu, &kbar, &acc)) return 1;
            char acc_text[16] = "-";
            if (!isnan(acc)) snprintf(acc_text, sizeof acc_text, "%.3f", acc);
            printf("  %-26s %8.2f s  k %6.1f  %7.2f ns/(block n k)  acc %s\n", vs[v].name, cpu, kbar,
                   1e9 * cpu / ((double)blocks * 1.2 * (double)n * fmax(kbar, 1)), acc_text);
            fflush(stdout);
        }
        /* --relevance ml: the scales once, before the run (basis.h
         * bsl_ard_ml; O(n_s^3) per evaluation on n_s <= 500 rows) */
        double scale[5];
        bsl_ard_info info;
        const clock_t t0 = clock();
        if (bsl_ard_ml(X, n, 5, Y, 1, scale, &info, &err)) {
            fprintf(stderr, "ml: %s\n", err.message);
            return 1;
        }
        printf("  %-26s %8.2f s  (once; %zu rows, %zu evaluations; scales %.2f %.2f %.2f %.2f %.2f)\n", "ml scales",
               (double)(clock() - t0) / CLOCKS_PER_SEC, info.rows, info.evaluations, scale[0], scale[1], scale[2],
               scale[3], scale[4]);
        bsl_design_free(D);
        bsl_dict_free(dict);
        gsl_rng_free(r);
        free(X);
        free(Y);
    }
    return 0;
}
