/*
 * rj_pairs.h: rj's pair moves (rj_pairs.c): two nearby atoms added or
 * deleted in one move, for the informed chains after burn-in, so that a
 * masking pair (two correlated atoms whose effects cancel in each one's
 * marginal signal) can enter together although neither enters alone.
 */
#ifndef BSL_RJ_PAIRS_H
#define BSL_RJ_PAIRS_H
#include "rj_defaults.h"
#include "rj_informed.h"

/* The pairs a chain's pair moves choose among, fixed before sampling (so
 * the moves are exact): pair i is atoms a[i] < b[i]. */
typedef struct bsl_rj_pairs {
    size_t n;
    size_t *a, *b;
    double *stat; /* the screen's statistic of each pair (below) */
} bsl_rj_pairs;

/* The pairs (a, b), 0 < b - a <= window, of D's atoms whose joint fit to
 * the (projected) target beats the better of the two alone by more than
 * one atom's prior cost, from the marginal cross products alone:
 *     stat = (n - q) log((1 - max(R2_a, R2_b)) / (1 - R2_ab)),
 * the likelihood-ratio statistic of the second atom given the first,
 * against 2 log m. keep = 0 (auto): those above it, at most
 * BSL_RJ_PAIRS_MAX, the largest first; keep > 0: the keep largest, with
 * no threshold. None for window = 0, more than one target, or a group
 * view. O(n m window) work, in threads; the same pairs at every thread
 * count. Its progress goes to pr as the phase "pairs" in "atoms" (NULL:
 * none); BASEL_ECANCELLED (err set) when pr asks to stop. */
int bsl_rj_pairs_screen(const bsl_design *D, size_t window, size_t keep, const bsl_progress *pr, bsl_rj_pairs *P,
                        basel_error *err);
void bsl_rj_pairs_free(bsl_rj_pairs *P);
/* The screen's work on D's own atoms: the best cap pairs (a, b),
 * 0 < b - a <= window, whose statistic is above floor, into best (cap
 * entries; *nbest of them, the best first). A process holding a block of
 * the inputs runs it on its block's design (fit/blocks.c), so that the
 * pairs within the block are found where its columns live. */
int bsl_rj_pairs_scan(const bsl_design *D, size_t window, double floor, size_t cap, const bsl_progress *pr,
                      bsl_atom_pair *best, size_t *nbest, basel_error *err);

/* One pair move at M's state: add or delete, each with probability 1/2
 * (rj_pairs.c gives the Hastings ratios). sc holds P->n doubles
 * (scratch). *accepted: 1 when the set changed; *deleting: 1 for a
 * delete, 0 for an add. BASEL_ENUMERIC when a set the move left could not
 * be restored. */
int bsl_rj_pair_move(bsl_cmodel *M, gsl_rng *r, const bsl_vs_problem *pb, const bsl_rj_pairs *P, double *sc,
                     const bsl_rj_hooks *h, int *accepted, int *deleting);
#endif
