/*
 * rj_informed.h: rj's informed moves (rj_informed.c), called from rj.c's
 * step once it has drawn the move type. The chain's bookkeeping stays in
 * rj.c and is reached through these hooks.
 */
#ifndef BSL_RJ_INFORMED_H
#define BSL_RJ_INFORMED_H

#include "../subset/subset.h"

#include <gsl/gsl_rng.h>
#include <math.h>

enum { BSL_RJ_ADD = 0, BSL_RJ_DEL = 1, BSL_RJ_SWAP = 2 };

typedef struct bsl_rj_hooks {
    void *ctx;
    double (*prob)(void *ctx, size_t k, int move); /* p_move(k), rj.c's move probabilities */
    int (*add)(void *ctx, size_t j);               /* the model's add, the chain's books kept */
    void (*remove)(void *ctx, size_t j);
    void (*commit)(void *ctx);                     /* credit the current state before it changes */
    /* may be NULL: shown each pass's weights (m of them, total sum), burn-in
     * only, to choose the candidates (rj.c) */
    void (*seen)(void *ctx, const double *sc, double sum);
    size_t (*dormant)(void *ctx, size_t nth);      /* the nth dormant atom in id order */
} bsl_rj_hooks;

/* The pieces rj's moves share (rj.c, rj_informed.c, rj_pairs.c). */
/* S(A) = log_ml + bsl_mprior_log(k): the target's log density, up to a constant */
static inline double bsl_rj_score(const bsl_vs_problem *pb, double log_ml, size_t k)
{
    return log_ml + bsl_mprior_log(&pb->mprior, k);
}
/* Metropolis-Hastings: accept with probability min(1, exp(log_a)) */
static inline int bsl_rj_accept(gsl_rng *r, double log_a)
{
    return log_a >= 0 || log(gsl_rng_uniform_pos(r)) < log_a;
}
/* An index drawn with probability sc[j] / sum over j < m (sc >= 0, sum
 * their total); the last positive one when the rounded total falls short. */
static inline size_t bsl_rj_draw(gsl_rng *r, const double *sc, size_t m, double sum)
{
    const double u = gsl_rng_uniform(r) * sum;
    double acc = 0;
    size_t last = 0;
    for (size_t j = 0; j < m; j++) {
        if (sc[j] == 0) continue;
        last = j;
        acc += sc[j];
        if (u < acc) return j;
    }
    return last;
}

/* A chain's candidate set C after burn-in (rj.c: chosen from the burn-in
 * passes' weights, then fixed): the atoms its informed moves score. */
typedef struct bsl_rj_cands {
    size_t n;            /* |C| */
    const size_t *atoms; /* C, in id order */
    const long *index;   /* m: an atom's place in C, -1 outside */
} bsl_rj_cands;

/* The probability with which a candidate-set add looks outside C (an atom
 * drawn uniformly among the dormant ones outside, rj_informed.c). */
#define BSL_RJ_OUTSIDE 0.2

/* For every atom l that can enter the model's set A, sc[l] <- its weight
 * exp(S(A + l) - S(A) - top) (0 for the others, and for those screened
 * more than BSL_RJ_SCREEN below the best); *sum their total; returns
 * log W(A) (-inf: none can enter). sc holds m doubles. With cands (not
 * NULL), over the candidates alone: sc[c] for C[c]. */
double bsl_rj_slot_weights(bsl_cmodel *M, const bsl_vs_problem *pb, const bsl_rj_cands *cands, double *sc,
                           double *sum);

/* One informed move of the given type at M's state; sc holds m doubles
 * (scratch). *accepted: 1 when the set changed. BASEL_ENUMERIC when a set
 * the move left could not be restored. */
int bsl_rj_informed_move(bsl_cmodel *M, gsl_rng *r, const bsl_vs_problem *pb, int move, double *sc,
                         const bsl_rj_hooks *h, int *accepted);

/* The same move restricted to the candidate set (rj_informed.c, "Candidate
 * sets"): exact for the same target, O(|C| k^2) per move. */
int bsl_rj_candidate_move(bsl_cmodel *M, gsl_rng *r, const bsl_vs_problem *pb, int move, const bsl_rj_cands *C,
                          double *sc, const bsl_rj_hooks *h, int *accepted);

#endif
