/*
 * prefix_order.h: a model average's models in prefix order (prefix_order.c).
 * Each model's atoms are ranked by one global order, the atoms that matter
 * most first, and the models are sorted by their lists of ranks, so that
 * each model shares with the one before it the longest prefix any model
 * does. The coefficient table (coef_shared.c) and the predictions' prefix
 * tree (pred_trie.c) walk the models in this order and compute a model's
 * Cholesky rows only past that prefix. Internal to the subset engines.
 */
#ifndef BSL_PREFIX_ORDER_H
#define BSL_PREFIX_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* Ranks are 16 bits: a dense Gram block of 65536 atoms would be 34 GB (the
 * callers take their per-model path beyond). */
typedef uint16_t bsl_rank;
#define BSL_RANK_ATOMS_MAX UINT16_MAX

/* One model: its ranks key[0..k), ascending; r its index in the caller's
 * list, w its weight (the caller's, carried along: read in this order) */
typedef struct bsl_prefix_model {
    const bsl_rank *key;
    size_t k, r;
    double w;
} bsl_prefix_model;

typedef struct bsl_prefix_order {
    size_t *atom;             /* rank -> atom */
    bsl_rank *keys;           /* the models' ranks, in the caller's order */
    bsl_prefix_model *models; /* K, in prefix order */
} bsl_prefix_order;

/* The K models (model r: atoms atoms[r][0..ks[r]) of n atoms, weight wt[r]
 * or 0 with wt NULL) in prefix order, the atoms ranked by decreasing
 * priority pri[a], ties by increasing tie[a] (NULL: a). BASEL_ENOMEM;
 * BASEL_EINVAL when n exceeds BSL_RANK_ATOMS_MAX. po is to be freed
 * either way. */
int bsl_prefix_order_make(bsl_prefix_order *po, size_t n, const double *pri, const size_t *tie, size_t K,
                          const size_t *const *atoms, const size_t *ks, const double *wt);
void bsl_prefix_order_free(bsl_prefix_order *po);

/* How many leading ranks the models a and b (a may be NULL) share. */
static inline size_t bsl_prefix_common(const bsl_prefix_model *a, const bsl_prefix_model *b)
{
    size_t d = 0;
    while (a && d < a->k && d < b->k && a->key[d] == b->key[d]) d++;
    return d;
}

#endif
