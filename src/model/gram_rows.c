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
 * Shared. The chains of a fit visit the same few atoms (the posterior's
 * active sets), so one cache per design serves them all: at p = 20000,
 * n = 1000 a row is 160 MB of X read (about 12 ms), and with a cache per
 * chain each of the 4 chains paid 100-139 of them. A mutex guards the
 * index; a row is computed outside it (other threads wait on a condition
 * only for that row) and pinned while a model copies from it.
 *
 * One row per pass over X, not several. A pass is bound by reading X
 * (800 MB at n = 1000, p = 10^5, ~70 ms), so rows for four atoms cost
 * little more than one, but only if they are the next to be asked for.
 * They are not predictable: in the default fit at p = 10^5 (98 rows, all
 * in burn-in), computing with each row the three dormant atoms of largest
 * proposal weight gave 231 extra rows of which 32 were used (77 passes
 * instead of 98, and about 37 % more CPU in the dot products); the atoms
 * next to it in the design (its likely correlates), replayed on the same
 * sequence of rows, would have saved 9-17 passes for 88-291 extra rows.
 * Most rows are for atoms that enter once.
 *
 * Memory: the design's --gram-memory budget (the one the dense Gram would
 * have used), m doubles per row, at least BSL_GRAM_ROWS_MIN rows: at
 * m = 20000 and 256 MB that is 1600 rows, at m = 10^5 320, far above the k
 * of a sparse posterior. Least recently used unpinned rows are evicted.
 */
#include "gram_rows.h"
#include "design.h"
#include "../linalg/linalg.h"

#include <stdlib.h>
#include <string.h>
#include <threads.h>

struct bsl_gram_rows {
    mtx_t mu;
    cnd_t ready_cv;        /* a row finished computing */
    size_t n, m, slots;
    long *slot_of;         /* m: the slot holding atom a's row, -1 = none */
    long *atom;            /* slots: the atom of each row, -1 = empty */
    unsigned long *used;   /* slots: last use (least-recently-used eviction) */
    unsigned *pins;        /* slots: models copying from the row */
    unsigned char *ready;  /* slots: 0 while the row is being computed */
    unsigned long clock;
    double *rows;          /* slots x m */
};

/* The rows' block, slots x m (made again after bsl_gram_rows_release) */
static double *rows_alloc(const bsl_gram_rows *R) { return bsl_malloc(R->slots, R->m * sizeof *R->rows); }

bsl_gram_rows *bsl_gram_rows_create(size_t n, size_t m, size_t budget)
{
    bsl_gram_rows *R = calloc(1, sizeof *R);
    if (!R) return NULL;
    if (mtx_init(&R->mu, mtx_plain) != thrd_success) {
        free(R);
        return NULL;
    }
    if (cnd_init(&R->ready_cv) != thrd_success) {
        mtx_destroy(&R->mu);
        free(R);
        return NULL;
    }
    R->n = n;
    R->m = m;
    R->slots = BSL_MIN(m, BSL_MAX((size_t)BSL_GRAM_ROWS_MIN, budget / (8 * BSL_MAX(m, (size_t)1))));
    R->slot_of = malloc(BSL_MAX(m, (size_t)1) * sizeof *R->slot_of);
    R->atom = malloc(BSL_MAX(R->slots, (size_t)1) * sizeof *R->atom);
    R->used = calloc(BSL_MAX(R->slots, (size_t)1), sizeof *R->used);
    R->pins = calloc(BSL_MAX(R->slots, (size_t)1), sizeof *R->pins);
    R->ready = malloc(BSL_MAX(R->slots, (size_t)1));
    /* untouched pages cost no memory until their rows are computed */
    R->rows = rows_alloc(R);
    if (!R->slot_of || !R->atom || !R->used || !R->pins || !R->ready || !R->rows) {
        bsl_gram_rows_free(R);
        return NULL;
    }
    for (size_t j = 0; j < m; j++) R->slot_of[j] = -1;
    for (size_t s = 0; s < R->slots; s++) {
        R->atom[s] = -1;
        R->ready[s] = 1;
    }
    return R;
}

/* After the chains (rj.c) the summaries hardly read the rows: at
 * m = 10^5, the ~100 rows the chains computed are 80 MB, held while
 * FIT.json's document is built. */
size_t bsl_gram_rows_slots(const bsl_gram_rows *R) { return R->slots; }

void bsl_gram_rows_release(bsl_gram_rows *R)
{
    if (!R) return;
    mtx_lock(&R->mu);
    free(R->rows);
    R->rows = NULL;
    for (size_t j = 0; j < R->m; j++) R->slot_of[j] = -1;
    for (size_t s = 0; s < R->slots; s++) {
        R->atom[s] = -1;
        R->used[s] = 0;
    }
    mtx_unlock(&R->mu);
}

void bsl_gram_rows_free(bsl_gram_rows *R)
{
    if (!R) return;
    cnd_destroy(&R->ready_cv);
    mtx_destroy(&R->mu);
    free(R->slot_of);
    free(R->atom);
    free(R->used);
    free(R->pins);
    free(R->ready);
    free(R->rows);
    free(R);
}

/* row[j] = x_j' b_a for every atom j, b_a = P x_a (see above); col and raw
 * n doubles of scratch. Columns held in blocks elsewhere are asked for
 * the row (each block's part computed where it lives). */
static void compute_row(const bsl_design *D, size_t a, double *row, double *col, double *raw)
{
    if (D->blocks) {
        D->blocks->dots(D->blocks->ctx, a, row);
        return;
    }
    bsl_design_column(D, a, col);
    bsl_design_dots(D, col, row, raw);
}

void bsl_design_dots(const bsl_design *D, const double *col, double *row, double *raw)
{
    const size_t n = D->n, m = D->m;
    if (D->X2) { /* 2-bit codes (design.h): a 32nd of the bytes, the same bits */
        bsl_dots_2bit_panels(col, D->X2, n, m, row, raw);
        return;
    }
    if (D->X8) { /* compact inputs (design.h): an eighth of the bytes, the same bits */
        bsl_dots_i8_panels(col, D->X8, n, m, BSL_F32_PANEL, row, raw);
        return;
    }
    if (D->X32) { /* half the bytes, the same bits */
        bsl_dots_f32_panels(col, D->X32, n, m, BSL_F32_PANEL, row, raw);
        return;
    }
    if (D->dict && D->dict->kind == BSL_BASIS_LINEAR && D->X) {
        bsl_dots(col, D->X, n, m, n, row); /* atom j is input column j */
        return;
    }
    for (size_t j = 0; j < m; j++) {
        bsl_design_raw_column(D, j, raw);
        row[j] = bsl_dot(raw, col, n);
    }
}

/* The least recently used slot no model is copying from, or -1. */
static long victim_of(const bsl_gram_rows *R)
{
    long v = -1;
    for (size_t s = 0; s < R->slots; s++)
        if (!R->pins[s] && R->ready[s] && (v < 0 || R->used[s] < R->used[v])) v = (long)s;
    return v;
}

const double *bsl_gram_row_pin(bsl_gram_rows *R, const bsl_design *D, size_t a, size_t *slot)
{
    if (!R || a >= R->m || D->n != R->n) return NULL;
    mtx_lock(&R->mu);
    long s;
    while ((s = R->slot_of[a]) >= 0 && !R->ready[s]) cnd_wait(&R->ready_cv, &R->mu); /* another thread computes it */
    if (s >= 0) {
        R->pins[s]++;
        R->used[s] = ++R->clock;
        mtx_unlock(&R->mu);
        *slot = (size_t)s;
        return R->rows + (size_t)s * R->m;
    }
    if (!R->rows && !(R->rows = rows_alloc(R))) {
        mtx_unlock(&R->mu); /* released (bsl_gram_rows_release), and no memory to take it again */
        return NULL;
    }
    if ((s = victim_of(R)) < 0) {
        mtx_unlock(&R->mu);
        return NULL;
    }
    if (R->atom[s] >= 0) R->slot_of[R->atom[s]] = -1;
    R->atom[s] = (long)a;
    R->slot_of[a] = s;
    R->ready[s] = 0;
    R->pins[s] = 1;
    R->used[s] = ++R->clock;
    mtx_unlock(&R->mu);
    double *row = R->rows + (size_t)s * R->m, *col = malloc(2 * BSL_MAX(D->n, (size_t)1) * sizeof *col);
    const int ok = col != NULL;
    if (ok) compute_row(D, a, row, col, col + D->n);
    free(col);
    mtx_lock(&R->mu);
    R->ready[s] = 1;
    if (!ok) { /* no scratch: the slot goes back empty */
        R->slot_of[a] = -1;
        R->atom[s] = -1;
        R->pins[s] = 0;
        R->used[s] = 0;
    }
    cnd_broadcast(&R->ready_cv);
    mtx_unlock(&R->mu);
    *slot = (size_t)s;
    return ok ? row : NULL;
}

void bsl_gram_row_unpin(bsl_gram_rows *R, size_t slot)
{
    mtx_lock(&R->mu);
    R->pins[slot]--;
    mtx_unlock(&R->mu);
}

void bsl_cand_free(bsl_cand *K)
{
    free(K->atoms);
    free(K->atom);
    free(K->used);
    free(K->rows);
    free(K->col);
    free(K->slot_of);
    free(K->cols32);
    memset(K, 0, sizeof *K);
}

int bsl_cand_init(bsl_cand *K, const bsl_design *D, const size_t *C, size_t nC)
{
    memset(K, 0, sizeof *K);
    K->slots = BSL_CAND_ROWS;
    K->atoms = malloc(nC * sizeof *K->atoms);
    K->atom = malloc(K->slots * sizeof *K->atom);
    K->used = calloc(K->slots, sizeof *K->used);
    K->rows = malloc(K->slots * nC * sizeof *K->rows);
    K->col = malloc(2 * BSL_MAX(D->n, (size_t)1) * sizeof *K->col);
    K->slot_of = malloc(BSL_MAX(D->m, (size_t)1) * sizeof *K->slot_of);
    if (!K->atoms || !K->atom || !K->used || !K->rows || !K->col || !K->slot_of) {
        bsl_cand_free(K);
        return BASEL_ENOMEM;
    }
    K->raw = K->col + D->n;
    memcpy(K->atoms, C, nC * sizeof *C);
    if (bsl_design_compact(D) && nC * D->n * sizeof(float) <= BSL_CAND_F32_BUDGET &&
        (K->cols32 = malloc(nC * D->n * sizeof *K->cols32 + 1)))
        for (size_t c = 0; c < nC; c++) { /* exact: widened and narrowed again */
            bsl_design_raw_column(D, C[c], K->raw);
            for (size_t t = 0; t < D->n; t++) K->cols32[c * D->n + t] = (float)K->raw[t];
        }
    K->n = nC;
    for (size_t s = 0; s < K->slots; s++) K->atom[s] = -1;
    for (size_t j = 0; j < D->m; j++) K->slot_of[j] = -1;
    return BASEL_OK;
}

const double *bsl_cand_row(bsl_cand *K, const bsl_design *D, size_t a)
{
    K->clock++;
    const long at = K->slot_of[a];
    if (at >= 0) {
        K->used[at] = K->clock;
        return K->rows + (size_t)at * K->n;
    }
    size_t victim = 0;
    for (size_t s = 1; s < K->slots; s++)
        if (K->used[s] < K->used[victim]) victim = s;
    double *row = K->rows + victim * K->n;
    const size_t n = D->n;
    bsl_design_column(D, a, K->col); /* b_a = P x_a; b_a' b_j = x_j' b_a (above) */
    const int linear = D->dict && D->dict->kind == BSL_BASIS_LINEAR && D->X;
    for (size_t c = 0; c < K->n; c++) {
        if (bsl_design_compact(D)) { /* bsl_dot(x_j, b_a) on the widened values: the same bits */
            if (K->cols32)
                for (size_t t = 0; t < n; t++) K->raw[t] = (double)K->cols32[c * n + t];
            else
                bsl_design_raw_column(D, K->atoms[c], K->raw);
            row[c] = bsl_dot(K->raw, K->col, n);
            continue;
        }
        const double *xj = K->raw;
        if (linear)
            xj = D->X + K->atoms[c] * n;
        else
            bsl_design_raw_column(D, K->atoms[c], K->raw);
        row[c] = bsl_dot(xj, K->col, n);
    }
    if (K->atom[victim] >= 0) K->slot_of[K->atom[victim]] = -1;
    K->atom[victim] = (long)a;
    K->slot_of[a] = (long)victim;
    K->used[victim] = K->clock;
    return row;
}
