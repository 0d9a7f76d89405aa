/* design_stats.c: the design of design_stats.h from X'X, X'y, y'y and n. */
#include "design_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bsl_stats_free(bsl_stats *S)
{
    if (!S) return;
    free(S->xtx);
    free(S->xty);
    free(S->x_mean);
    memset(S, 0, sizeof *S);
}

/* Z = 1 (n x 1): LAPACK's Householder QR of a column of ones gives
 * R = -sqrt(n) (beta = -sign(alpha) |z|), Q = -1/sqrt(n); so R^{-1} Q' b is
 * the mean of b, the always-in coefficient of design.h. R is kept with
 * LAPACK's sign so that a fit from statistics writes what a fit from data
 * writes (basis.R in FIT.json). */
static int fill(bsl_design *D, const bsl_stats *S)
{
    const size_t m = D->m;
    D->R = bsl_malloc(1, sizeof(double));
    D->gy = bsl_malloc(1, sizeof(double));
    D->yy = bsl_malloc(1, sizeof(double));
    D->Bty = bsl_malloc(m, sizeof(double));
    D->diag = bsl_malloc(m, sizeof(double));
    D->gB = bsl_malloc(m, sizeof(double));
    D->G = bsl_malloc(m * m, sizeof(double));
    D->usable = bsl_malloc(m, 1);
    if (!D->R || !D->gy || !D->yy || !D->Bty || !D->diag || !D->gB || !D->G || !D->usable) return BASEL_ENOMEM;
    D->R[0] = -sqrt((double)D->n);
    D->gy[0] = S->y_mean;
    D->yy[0] = S->yty;
    memcpy(D->G, S->xtx, m * m * sizeof(double));
    memcpy(D->Bty, S->xty, m * sizeof(double));
    for (size_t j = 0; j < m; j++) {
        const double mean = S->x_mean ? S->x_mean[j] : 0.0;
        D->diag[j] = S->xtx[j + j * m];
        D->gB[j] = mean;
        /* as design.c: an input left with less than 1e-10 of its raw sum
         * of squares after centring is a constant (a copy of the intercept) */
        const double raw = D->diag[j] + (double)D->n * mean * mean;
        D->usable[j] = D->diag[j] > 1e-10 * raw;
    }
    return BASEL_OK;
}

int bsl_design_create_stats(bsl_design **out, const bsl_dict *dict, const bsl_stats *S, basel_error *err)
{
    *out = NULL;
    if (dict->kind != BSL_BASIS_LINEAR || dict->linear_term || dict->m != S->p)
        return bsl_fail(err, BASEL_EINVAL, "summary statistics support the linear basis only (--basis linear)");
    if (S->n <= 2) return bsl_fail(err, BASEL_EINVAL, "%zu rows are too few: need more than 2", S->n);
    bsl_design *D = calloc(1, sizeof *D);
    if (!D) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    D->n = S->n;
    D->m = S->p;
    D->c = 1;
    D->q = 1;
    D->dict = dict;
    if (fill(D, S)) {
        bsl_design_free(D);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory for %zu x %zu cross products", S->p, S->p);
    }
    *out = D;
    return BASEL_OK;
}
