/*
 * bench_addremove.c: the cost of one add and one remove of the incremental
 * collapsed model, for k = 10, 50, 200 active atoms and n = 1e3, 1e5 rows,
 * once the Gram matrix is cached (the benchmark: O(k^2), independent
 * of n). Also the cost of a fresh factorisation of the same set, for scale.
 * Not a test: it prints timings.
 */
#include "model/model.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    const size_t ns[] = {1000, 100000}, ks[] = {10, 50, 200};
    const size_t m = 400;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    printf("%8s %5s %14s %14s %16s\n", "n", "k", "add (us)", "remove (us)", "refactor (us)");
    for (size_t a = 0; a < 2; a++) {
        const size_t n = ns[a];
        double *X = malloc(n * m * sizeof *X), *Y = malloc(n * sizeof *Y);
        for (size_t i = 0; i < n * m; i++) X[i] = gsl_ran_gaussian(r, 1.0);
        for (size_t i = 0; i < n; i++) Y[i] = X[i] + gsl_ran_gaussian(r, 1.0);
        basel_error err;
        bsl_dict *dict;
        bsl_design *D;
        bsl_dict_create(&dict, "linear", X, n, m, &err);
        if (bsl_design_create(&D, dict, X, n, Y, 1, (size_t)1 << 31, &err)) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        bsl_coef_prior pr;
        bsl_coef_prior_parse(&pr, "ridge:lambda=1,sigma2=1", n, 1, &err);
        for (size_t b = 0; b < 3; b++) {
            const size_t k = ks[b];
            bsl_model *M;
            bsl_model_create(&M, D, &pr, k + 1, &err);
            for (size_t j = 0; j < k; j++) bsl_model_add(M, j);
            const int reps = 20000;
            double t0 = now();
            for (int rep = 0; rep < reps; rep++) {
                const size_t j = k + (size_t)rep % (m - k);
                bsl_model_add(M, j);
                bsl_model_remove(M, j); /* removal of the last column: cheap */
            }
            const double t_pair_last = (now() - t0) / reps;
            t0 = now();
            for (int rep = 0; rep < reps; rep++) {
                const size_t j = M->active[(size_t)rep % k];
                bsl_model_remove(M, j); /* remove at a random position */
                bsl_model_add(M, j);
            }
            const double t_pair_any = (now() - t0) / reps;
            t0 = now();
            for (int rep = 0; rep < 200; rep++) bsl_model_refactor(M);
            const double t_ref = (now() - t0) / 200;
            /* add ~ pair_last - remove_last; report remove at any position as
             * the difference of the two loops plus the cheap add */
            printf("%8zu %5zu %14.2f %14.2f %16.2f\n", n, k, 1e6 * t_pair_last / 2, 1e6 * (t_pair_any - t_pair_last / 2),
                   1e6 * t_ref);
            bsl_model_free(M);
        }
        bsl_design_free(D);
        bsl_dict_free(dict);
        free(X);
        free(Y);
    }
    gsl_rng_free(r);
    return 0;
}
