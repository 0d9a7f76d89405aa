/*
 * gram_rows.h: a bounded cache of Gram rows b_a' B for streaming designs
 * (gram_rows.c explains the cost and the memory). One per design, shared
 * by every model on it, and so by the chains in their threads: a row is
 * pinned while a model copies from it, and eviction takes unpinned rows only.
 */
#ifndef BSL_GRAM_ROWS_H
#define BSL_GRAM_ROWS_H

#include <stddef.h>

struct bsl_design;
typedef struct bsl_gram_rows bsl_gram_rows;

/* A cache of rows of m doubles in budget bytes (at least BSL_GRAM_ROWS_MIN
 * rows), for a design of n rows and m atoms; NULL when out of memory. The
 * rows' memory is taken as rows are computed. */
#define BSL_GRAM_ROWS_MIN 16
bsl_gram_rows *bsl_gram_rows_create(size_t n, size_t m, size_t budget);
void bsl_gram_rows_free(bsl_gram_rows *R);
/* How many rows the cache holds at once. */
size_t bsl_gram_rows_slots(const bsl_gram_rows *R);
/* Gives the rows' memory back (no row may be pinned); a row asked for
 * later is computed again, to the same values. NULL-safe. */
void bsl_gram_rows_release(bsl_gram_rows *R);

/* Atom a's cross products with every atom of D (m doubles), pinned until
 * bsl_gram_row_unpin(R, *slot): O(n m) on a miss, O(1) on a hit. NULL when
 * no row can be had (out of memory, or every row pinned); the caller then
 * scores atom by atom. Thread-safe; the values do not depend on which
 * thread computed them. */
const double *bsl_gram_row_pin(bsl_gram_rows *R, const struct bsl_design *D, size_t a, size_t *slot);
void bsl_gram_row_unpin(bsl_gram_rows *R, size_t slot);


/* A model's candidate rows (rj's candidate set, rj.c): G_{a,C} = b_a' B_C
 * for a fixed list C of atoms, |C| doubles per row, O(n |C|) each, in a
 * small least-recently-used cache of the model's own (one model, one
 * thread). At |C| = 1000 and n = 1000 a row is 0.1 % of the O(n m) a full
 * row costs at m = 20000. */
#define BSL_CAND_ROWS 512
typedef struct bsl_cand {
    size_t n;              /* |C|; 0: no candidate set */
    size_t *atoms;         /* C */
    size_t slots;
    long *atom;            /* slots: the atom of each row, -1 = empty */
    long *slot_of;         /* m: the slot of atom a's row, -1 = none */
    unsigned long *used, clock;
    double *rows;          /* slots x n */
    double *col, *raw;     /* a projected column and a raw one (design rows each) */
    /* compact inputs (design.h X32, X8; int8 values are exact as floats): the candidates' columns, contiguous
     * (n x |C|), within BSL_CAND_F32_BUDGET bytes; NULL: read from the
     * panels, a cache line per row */
    float *cols32;
} bsl_cand;
#define BSL_CAND_F32_BUDGET ((size_t)16 << 20)
int bsl_cand_init(bsl_cand *K, const struct bsl_design *D, const size_t *C, size_t nC);
void bsl_cand_free(bsl_cand *K);
/* Atom a's row over the candidates (valid until the next call). */
const double *bsl_cand_row(bsl_cand *K, const struct bsl_design *D, size_t a);

#endif
