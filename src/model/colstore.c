/*
 * colstore.c: projected columns of a streaming design shared by the
 * models of the summaries (model.h bsl_colstore).
 *
 * Why: after the chains, the subset engines refit every stored model
 * (coefficient table, projection, listed models' marginal likelihoods), up
 * to --max-models of them, each from its atoms' columns. A model's own
 * cache is direct-mapped (slot j % ncache, 256 columns at n = 8000), so the
 * hundreds to thousands of distinct atoms the stored models use keep
 * evicting each other, and each refit recomputed its kernel columns: n
 * exp() each, 53 % of a kernel bd fit at n = 8000 (perf audit, finding 7).
 * Here a column gets a slot of its own on first use and keeps it, within a
 * byte budget that goes to the atoms the stored models use most (never to
 * one used once); the others come from the models' own caches. The
 * columns are the same bits however they are fetched, so every refit (and
 * FIT.json) is unchanged.
 */
#include "model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The smallest count that admits at most slots atoms (those with uses[j]
 * >= it), and never 1: a column used once gains nothing from a slot. */
static size_t admit_from(const size_t *uses, size_t m, size_t slots)
{
    size_t top = 0;
    for (size_t j = 0; j < m; j++) top = BSL_MAX(top, uses[j]);
    size_t *hist = bsl_calloc(top + 2, sizeof *hist);
    if (!hist) return SIZE_MAX;
    for (size_t j = 0; j < m; j++) hist[uses[j]]++;
    size_t at = top + 1, taken = 0;
    while (at > 2 && taken + hist[at - 1] <= slots) taken += hist[--at];
    free(hist);
    return at;
}

int bsl_colstore_init(bsl_colstore *cs, const bsl_design *D, const size_t *uses, size_t budget)
{
    memset(cs, 0, sizeof *cs);
    if (D->G || D->base || !D->n) return BASEL_OK; /* dense, or no columns of its own: nothing to share */
    if (D->B) { /* the design keeps every column: only the pairs are the store's */
        cs->D = D;
        return BASEL_OK;
    }
    cs->D = D;
    cs->slots = BSL_MIN(D->m, budget / (D->n * sizeof(double)));
    cs->slot_of = bsl_malloc(D->m + 1, sizeof *cs->slot_of);
    const size_t least = admit_from(uses, D->m, cs->slots);
    size_t admitted = 0;
    for (size_t j = 0; cs->slot_of && j < D->m; j++) {
        cs->slot_of[j] = uses[j] >= least ? -1 : -2;
        admitted += uses[j] >= least;
    }
    cs->slots = BSL_MIN(cs->slots, admitted);
    cs->cols = bsl_malloc(cs->slots * D->n + 1, sizeof *cs->cols);
    if (!cs->slot_of || !cs->cols || least == SIZE_MAX) {
        bsl_colstore_free(cs);
        return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

void bsl_colstore_free(bsl_colstore *cs)
{
    free(cs->slot_of);
    free(cs->cols);
    free(cs->pair_key);
    free(cs->pair_val);
    memset(cs, 0, sizeof *cs);
}

const double *bsl_colstore_get(bsl_colstore *cs, size_t j)
{
    if (cs && cs->D && cs->D->B && j < cs->D->m) return cs->D->B + j * cs->D->n;
    if (!cs || !cs->slot_of || j >= cs->D->m) return NULL;
    const long s = cs->slot_of[j];
    if (s >= 0) return cs->cols + (size_t)s * cs->D->n;
    if (s == -2 || cs->used == cs->slots) return NULL; /* not admitted, or full: the caller's own cache */
    double *col = cs->cols + cs->used * cs->D->n;
    bsl_design_column(cs->D, j, col);
    cs->slot_of[j] = (long)cs->used++;
    return col;
}

/* ------------------------------------------------------ pair products */

static uint64_t pair_hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return key;
}

/* A free or matching slot for key in a table of cap (a power of 2) slots */
static size_t pair_slot(const uint64_t *keys, size_t cap, uint64_t key)
{
    size_t at = (size_t)(pair_hash(key) & (cap - 1));
    while (keys[at] && keys[at] != key) at = (at + 1) & (cap - 1);
    return at;
}

/* Twice the slots (at least 4096), rehashed; -1 without the memory (then
 * the products are computed, not remembered: the same bits) */
static int pair_grow(bsl_colstore *cs)
{
    const size_t cap = cs->pair_cap ? 2 * cs->pair_cap : 4096;
    uint64_t *keys = calloc(cap, sizeof *keys);
    double *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < cs->pair_cap; i++)
        if (cs->pair_key[i]) {
            const size_t at = pair_slot(keys, cap, cs->pair_key[i]);
            keys[at] = cs->pair_key[i];
            vals[at] = cs->pair_val[i];
        }
    free(cs->pair_key);
    free(cs->pair_val);
    cs->pair_key = keys;
    cs->pair_val = vals;
    cs->pair_cap = cap;
    return 0;
}

static uint64_t pair_key(size_t a, size_t b, int seq)
{
    const size_t lo = BSL_MIN(a, b), hi = BSL_MAX(a, b);
    return ((uint64_t)lo << 32 | (uint64_t)hi << 1 | (seq != 0)) + 1; /* + 1: 0 marks an empty slot */
}

/* atoms past 2^31 are not remembered: their keys would collide */
#define PAIR_ATOMS ((size_t)1 << 31)

int bsl_colstore_pair_find(const bsl_colstore *cs, size_t a, size_t b, int seq, double *v)
{
    if (!cs || !cs->pair_cap || a >= PAIR_ATOMS || b >= PAIR_ATOMS) return 0;
    const uint64_t key = pair_key(a, b, seq);
    const size_t at = pair_slot(cs->pair_key, cs->pair_cap, key);
    if (cs->pair_key[at] != key) return 0;
    *v = cs->pair_val[at];
    return 1;
}

void bsl_colstore_pair_put(bsl_colstore *cs, size_t a, size_t b, int seq, double v)
{
    if (!cs || !cs->D || a >= PAIR_ATOMS || b >= PAIR_ATOMS) return;
    if (2 * (cs->npair + 1) > cs->pair_cap && pair_grow(cs)) return; /* at most half full */
    const uint64_t key = pair_key(a, b, seq);
    const size_t at = pair_slot(cs->pair_key, cs->pair_cap, key);
    if (cs->pair_key[at] == key) return;
    cs->pair_key[at] = key;
    cs->pair_val[at] = v;
    cs->npair++;
}
