/*
 * designs.h: the test problems the linear engines are checked on against
 * enumeration: lin_p15_n200 (shared data) and three correlated synthetic
 * designs of m <= 14 inputs: "ar1" (AR(1), rho = 0.9), "dup" (a block of
 * near-duplicates) and "hidden" (the true model is not the marginally
 * strongest: y depends on x1 - x2, two strongly correlated inputs).
 * Shared by tests/stat/test_rj_exact.c and test_ssvs_exact.c.
 */
#ifndef BSL_TEST_DESIGNS_H
#define BSL_TEST_DESIGNS_H

#include "basel.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct prob {
    const char *name;
    size_t n, d;
    double *X, *Y;
} prob;

static int read_lin15(prob *p)
{
    const char *paths[] = {"data/linear/lin_p15_n200.csv", "../shared/data/linear/lin_p15_n200.csv",
                           "/work/shared/data/linear/lin_p15_n200.csv"};
    basel_data *data = NULL;
    basel_error err;
    for (size_t i = 0; i < 3 && !data; i++)
        if (basel_data_read_csv(&data, paths[i], NULL, &err) != BASEL_OK) data = NULL;
    if (!data) return -1;
    p->name = "lin_p15_n200";
    p->n = basel_data_rows(data);
    p->d = 15;
    p->X = malloc(p->n * p->d * sizeof(double));
    p->Y = malloc(p->n * sizeof(double));
    for (size_t j = 0; j < p->d; j++)
        for (size_t i = 0; i < p->n; i++) p->X[j * p->n + i] = basel_data_value(data, i, j);
    for (size_t i = 0; i < p->n; i++) p->Y[i] = basel_data_value(data, i, 15);
    basel_data_free(data);
    return 0;
}

static void synth(prob *p, const char *name, gsl_rng *r)
{
    const size_t n = 100, d = !strcmp(name, "ar1") ? 14 : 12;
    p->name = name;
    p->n = n;
    p->d = d;
    p->X = malloc(n * d * sizeof(double));
    p->Y = malloc(n * sizeof(double));
    double *X = p->X;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(name, "ar1")) {
            X[i] = gsl_ran_ugaussian(r);
            for (size_t j = 1; j < d; j++)
                X[j * n + i] = 0.9 * X[(j - 1) * n + i] + sqrt(1 - 0.81) * gsl_ran_ugaussian(r);
            p->Y[i] = 0.6 * X[1 * n + i] - 0.5 * X[4 * n + i] + 0.4 * X[9 * n + i] +
                      gsl_ran_ugaussian(r);
        } else if (!strcmp(name, "dup")) {
            const double z = gsl_ran_ugaussian(r);
            for (size_t j = 0; j < 4; j++) X[j * n + i] = z + 0.1 * gsl_ran_ugaussian(r);
            for (size_t j = 4; j < d; j++) X[j * n + i] = 0.3 * z + gsl_ran_ugaussian(r);
            p->Y[i] = 0.5 * z + 0.3 * X[6 * n + i] + gsl_ran_ugaussian(r);
        } else { /* hidden */
            const double a = gsl_ran_ugaussian(r), b = gsl_ran_ugaussian(r);
            X[0 * n + i] = a + 0.3 * b;
            X[1 * n + i] = a - 0.3 * b; /* corr(x1, x2) ~ 0.83 */
            X[2 * n + i] = X[0 * n + i] + 0.5 * gsl_ran_ugaussian(r);
            for (size_t j = 3; j < d; j++) X[j * n + i] = 0.5 * a + gsl_ran_ugaussian(r);
            p->Y[i] = 1.2 * (X[0 * n + i] - X[1 * n + i]) + gsl_ran_ugaussian(r);
        }
    }
}

#endif
