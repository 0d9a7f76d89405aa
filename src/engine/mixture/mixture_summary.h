/*
 * mixture_summary.h: per-chain records of the mixture engine and their
 * merge into a bsl_mix_result (mixture_summary.c). Internal to
 * src/engine/mixture/mixture*.c.
 */
#ifndef BSL_SAMPLER_MIXTURE_SUMMARY_H
#define BSL_SAMPLER_MIXTURE_SUMMARY_H

#include "mixture.h"

#include <stdint.h>

/* Visit counts of subsets, keyed by their bit pattern (W 64-bit words);
 * open addressing, capacity a power of two, at most half full. */
typedef struct bsl_mix_subsets {
    size_t W, cap, used;
    uint64_t *keys;       /* cap x W */
    unsigned long *count; /* cap; 0 = empty slot */
} bsl_mix_subsets;

int bsl_mix_subsets_init(bsl_mix_subsets *t, size_t d);
int bsl_mix_subsets_add(bsl_mix_subsets *t, const uint64_t *key, unsigned long times);
void bsl_mix_subsets_free(bsl_mix_subsets *t);

/* What one chain saw after burn-in. Draw t's inputs sit at slot t * imax. */
typedef struct bsl_mix_record {
    unsigned long *in_count, *size_count; /* d, d + 1 */
    unsigned long sweeps;
    uint64_t *key;                        /* scratch bit pattern */
    bsl_mix_subsets subsets;
    size_t ndraw;
    size_t *draw_I, *draw_idx;
    double *draw_mu, *draw_prec, *draw_w, *draw_P;
    unsigned long prop[BSL_MIX_MOVES], acc[BSL_MIX_MOVES];
    unsigned long swap_prop, swap_acc;
    unsigned long pair_prop[BSL_MIX_MAX_TEMPERATURES], pair_acc[BSL_MIX_MAX_TEMPERATURES]; /* pair t, t+1 */
} bsl_mix_record;

int bsl_mix_record_init(bsl_mix_record *rec, const bsl_mix_model *m, size_t ndraw_max);
void bsl_mix_record_free(bsl_mix_record *rec);
int bsl_mix_record_sweep(bsl_mix_record *rec, const bsl_mix_chain *ch);
/* At most ndraw_max calls (no bounds check: the caller counts). */
void bsl_mix_record_draw(bsl_mix_record *rec, const bsl_mix_chain *ch);
/* Merge the chains' records in order; keeps the `top` most visited subsets.
 * R-hat and ESS are the caller's (the chain driver's traces, mixture.c). */
int bsl_mix_merge(bsl_mix_result **out, const bsl_mix_model *m, const bsl_mix_record *rec,
                  size_t nchain, size_t top);

#endif
