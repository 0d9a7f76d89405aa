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
    memset(cs, 0, sizeof *cs);
}

const double *bsl_colstore_get(bsl_colstore *cs, size_t j)
{
    if (!cs || !cs->slot_of || j >= cs->D->m) return NULL;
    const long s = cs->slot_of[j];
    if (s >= 0) return cs->cols + (size_t)s * cs->D->n;
    if (s == -2 || cs->used == cs->slots) return NULL; /* not admitted, or full: the caller's own cache */
    double *col = cs->cols + cs->used * cs->D->n;
    bsl_design_column(cs->D, j, col);
    cs->slot_of[j] = (long)cs->used++;
    return col;
}
