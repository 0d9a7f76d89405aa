/*
 * gram_rows.c: rows of the Gram matrix, G_{a,.} = b_a' B (the cross
 * products of atom a with every atom), for a design that streams its
 * columns (no dense G: p = 10^4 .. 10^5 inputs, issue 18 item 2).
 *
 * Why. bsl_model_add_scores scores every dormant atom at once (the
 * Rao-Blackwell passes, and rj's informed proposals, which need the scores
 * of all m neighbours at every move). With the rows of the k active atoms at
 * hand that is O(m k^2) (the batched triangular solves of model.c); without
 * them it was one try_add per atom, O(m n k) dot products. A row costs one
 * pass over the data, O(n m), and is kept in a bounded cache keyed by atom,
 * so it is paid when an atom enters the active set for the first time (or
 * after eviction), not at every pass: the atoms of the posterior's active
 * sets are few and are used again and again.
 *
 * The row is computed from the raw columns: b_a' b_j = x_j' P b_a = x_j' b_a
 * (P = I - Q Q' symmetric and idempotent, b_a = P x_a already projected), so
 * a linear dictionary reads X in place (one streamed pass, no copies); other
 * dictionaries evaluate each atom's raw column. Plain loops (bsl_dots), not
 * a threaded BLAS: the chains call this from inside their own threads, and
 * the result must not depend on the thread count.
 *
 * Memory: BSL_GRAM_ROW_CACHE_BYTES per model (m doubles per row; at m =
 * 10^5 that is 80 rows, far above the k of a sparse posterior), plus one
 * column of n doubles. Least recently used rows are evicted.
 */
#include "gram_rows.h"
#include "../linalg/linalg.h"

#include <stdlib.h>
#include <string.h>

void bsl_gram_rows_free(bsl_gram_rows *R)
{
    free(R->atom);
    free(R->used);
    free(R->rows);
    free(R->col);
    free(R->raw);
    memset(R, 0, sizeof *R);
}

static int alloc_rows(bsl_gram_rows *R, const bsl_design *D)
{
    const size_t m = D->m;
    R->slots = BSL_MAX((size_t)2, BSL_MIN(m, BSL_GRAM_ROW_CACHE_BYTES / (8 * BSL_MAX(m, (size_t)1))));
    R->atom = malloc(R->slots * sizeof *R->atom);
    R->used = calloc(R->slots, sizeof *R->used);
    R->rows = malloc(R->slots * m * sizeof *R->rows);
    R->col = malloc(D->n * sizeof *R->col);
    R->raw = malloc(D->n * sizeof *R->raw);
    if (!R->atom || !R->used || !R->rows || !R->col || !R->raw) {
        bsl_gram_rows_free(R);
        return BASEL_ENOMEM;
    }
    for (size_t s = 0; s < R->slots; s++) R->atom[s] = -1;
    return BASEL_OK;
}

/* row[j] = x_j' b_a for every atom j, b_a = P x_a (see above). */
static void compute_row(bsl_gram_rows *R, const bsl_design *D, size_t a, double *row)
{
    const size_t n = D->n, m = D->m;
    bsl_design_column(D, a, R->col);
    if (D->dict && D->dict->kind == BSL_BASIS_LINEAR && D->X) {
        bsl_dots(R->col, D->X, n, m, n, row); /* atom j is input column j */
        return;
    }
    for (size_t j = 0; j < m; j++) {
        bsl_design_raw_column(D, j, R->raw);
        row[j] = bsl_dot(R->raw, R->col, n);
    }
}

const double *bsl_gram_row(bsl_gram_rows *R, const bsl_design *D, size_t a)
{
    if (!R->rows && alloc_rows(R, D)) return NULL;
    size_t victim = 0;
    R->clock++;
    for (size_t s = 0; s < R->slots; s++) {
        if (R->atom[s] == (long)a) {
            R->used[s] = R->clock;
            return R->rows + s * D->m;
        }
        if (R->used[s] < R->used[victim]) victim = s;
    }
    double *row = R->rows + victim * D->m;
    compute_row(R, D, a, row);
    R->atom[victim] = (long)a;
    R->used[victim] = R->clock;
    R->computed++;
    return row;
}
