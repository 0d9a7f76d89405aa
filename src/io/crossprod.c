/*
 * crossprod.c: centred cross products of a table's columns
 * (basel_data_crossprod), the per-block part of summary statistics computed
 * over blocks of rows (README "More than one machine": every MPI rank holds
 * a block, the sums are added over the ranks, and the fit runs on them as
 * on a --stats file, docs/SUMMARY_STATS.md).
 *
 * Centring about the means of all the rows (not the block's) makes the
 * blocks' sums add up to the centred cross products of the whole table:
 * sum over blocks of sum_{r in block} (x_r - mean)(x_r - mean)'. That is the
 * two-pass formula, which keeps the digits the one-pass X'X - n xbar xbar'
 * loses when the means are large against the spread.
 */
#include "io.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>

int basel_data_crossprod(const basel_data *d, const size_t *cols, size_t k, const double *mean, double *out,
                         basel_error *err)
{
    if (!d || !cols || !mean || !out || k == 0) return bsl_fail(err, BASEL_EINVAL, "basel_data_crossprod: NULL argument");
    const size_t n = d->n;
    for (size_t a = 0; a < k; a++) {
        const size_t j = cols[a];
        if (j >= d->p) return bsl_fail(err, BASEL_EINVAL, "basel_data_crossprod: column %zu of %zu", j + 1, d->p);
        if (d->bad[j].line)
            return bsl_fail_at(err, BASEL_EINVAL, d->source, d->bad[j].line, d->bad[j].column,
                               "column '%s': '%s' is not a number", d->names[j], d->bad[j].text);
        if (!isfinite(mean[a])) return bsl_fail(err, BASEL_EINVAL, "the mean of column '%s' is not finite", d->names[j]);
    }
    for (size_t i = 0; i < k * k; i++) out[i] = 0;
    if (n == 0) return BASEL_OK;
    double *B = bsl_malloc(n * k, sizeof *B);
    if (!B) return bsl_fail(err, BASEL_ENOMEM, "out of memory (%zu x %zu centred columns)", n, k);
    for (size_t a = 0; a < k; a++) {
        for (size_t i = 0; i < n; i++) B[a * n + i] = bsl_data_at(d, i, cols[a]) - mean[a];
    }
    /* B'B, lower triangle by one dsyrk (the design's Gram matrix does the same, design.c) */
    cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, (int)k, (int)n, 1.0, B, (int)n, 0.0, out, (int)k);
    free(B);
    for (size_t j = 0; j < k; j++)
        for (size_t i = j + 1; i < k; i++) out[j + i * k] = out[i + j * k];
    return BASEL_OK;
}
