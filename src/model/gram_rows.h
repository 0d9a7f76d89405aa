/*
 * gram_rows.h: a bounded cache of Gram rows b_a' B for streaming designs
 * (gram_rows.c explains the cost and the memory). One per model: a model
 * belongs to one thread.
 */
#ifndef BSL_GRAM_ROWS_H
#define BSL_GRAM_ROWS_H

#include "design.h"

/* bytes of a model's Gram-row cache (allocated on first use) */
#define BSL_GRAM_ROW_CACHE_BYTES ((size_t)64 << 20)

typedef struct bsl_gram_rows {
    size_t slots;          /* rows held */
    long *atom;            /* slots: the atom of each row, -1 = empty */
    unsigned long *used;   /* slots: last use (for least-recently-used eviction) */
    unsigned long clock;
    double *rows;          /* slots x m */
    double *col, *raw;     /* n each: the projected column of a, a raw column */
    double computed;       /* rows computed so far (misses) */
} bsl_gram_rows;

/* Atom a's cross products with every atom of D (m doubles, valid until the
 * next call), or NULL when out of memory. O(n m) on a miss, O(slots) on a hit. */
const double *bsl_gram_row(bsl_gram_rows *R, const bsl_design *D, size_t a);
void bsl_gram_rows_free(bsl_gram_rows *R);

#endif
