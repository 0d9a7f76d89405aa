/*
 * subset_rb.h: the Rao-Blackwell pass of the subset samplers (rj's uniform
 * chains, rj.c; bd, bd.c). They estimate P(gamma_j = 1 | y) by averaging,
 * over states of the chain, a conditional probability of gamma_j given the
 * rest. Conditioning on less removes more of the chain's noise: for atom j
 * and a neighbour n (the atom most correlated with it), the conditional
 * given everything but the pair,
 *     P(gamma_j = 1 | gamma_-{j,n}) = (pi(1, 0) + pi(1, 1)) / sum of the four,
 * over the four states of (gamma_j, gamma_n), integrates the neighbour's
 * indicator too. Where two correlated atoms carry one signal in turn (an
 * AR(1) design's x and its neighbour), the plain conditional of x is near
 * 0 while its neighbour is in, and near 1 otherwise, so its average moves
 * with the chain's rare switches; the pair's conditional gives their split
 * at every state. Each block is fixed before sampling (from the Gram
 * matrix alone), so each term is a function of the state alone and the
 * average is consistent by the tower property, as the plain one is (the
 * choice of block must not depend on the state: a block chosen from the
 * state would bias it, rj.c's note on Rao-Blackwellisation).
 */
#ifndef BSL_SUBSET_RB_H
#define BSL_SUBSET_RB_H

#include "subset.h"

/* The neighbours of each atom a Rao-Blackwell pass pairs it with */
#define BSL_RB_NEIGHBOURS 2

/* Block i is the pair of atoms (ab[2i], ab[2i + 1]); its conditional of
 * atom ab[2i] counts wa[i] in that atom's estimate (1 / its number of
 * blocks, 0 when the block is its neighbour's and not its own), and that
 * of ab[2i + 1] counts wb[i]. */
typedef struct bsl_rb_blocks {
    size_t n;
    size_t *ab;
    double *wa, *wb;
} bsl_rb_blocks;

/* For every atom of D, its BSL_RB_NEIGHBOURS usable atoms of largest
 * |correlation| (from D's dense Gram: G_ij / sqrt(G_ii G_jj); ties to the
 * lower index), each pair once. None (n = 0) without a dense Gram or with
 * fewer than two usable atoms. BASEL_ENOMEM. */
int bsl_rb_blocks_make(const bsl_design *D, bsl_rb_blocks *B);
void bsl_rb_blocks_free(bsl_rb_blocks *B);

/* The block's conditionals from the log scores l[x][y] of its four states
 * (x: the first atom's indicator, y: the second's; -inf allowed, not all):
 * *pa = P(first = 1 | the rest), *pb = P(second = 1 | the rest). */
void bsl_rb_block_conditionals(const double l[2][2], double *pa, double *pb);

/* A chain's scratch for its passes: each atom's single flip (m), the drop
 * scores (kmax + 1), the blocks' joint flips */
typedef struct bsl_rb_work {
    double *flip, *drop, *joint;
} bsl_rb_work;
int bsl_rb_work_init(bsl_rb_work *w, size_t m, size_t kmax, size_t nblocks);
void bsl_rb_work_free(bsl_rb_work *w);

/* One pass at M's state: rb[j] += atom j's conditional inclusion
 * probability, given the rest (B NULL or empty, or a model that scores no
 * pairs), else averaged over its blocks given all but the block. The
 * score of a set of k atoms is its log_ml + log_prior[k] (k = 0 .. kmax +
 * 1; the model prior by size). *evals grows by the sets scored.
 * BASEL_ENOMEM, or BASEL_ENUMERIC when a set taken apart one atom at a
 * time could not be restored. */
int bsl_rb_pass(bsl_cmodel *M, const bsl_vs_problem *pb, const bsl_rb_blocks *B, const double *log_prior,
                bsl_rb_work *w, double *rb, double *evals);
#endif
