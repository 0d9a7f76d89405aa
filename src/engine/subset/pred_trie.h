/*
 * pred_trie.h: the kept models of a model average (bma.posterior) as one
 * prefix tree of Cholesky rows, so that a prediction's per-model quadratic
 * form and mean cost O(k) a model instead of O(k^2) (pred_trie.c). Internal
 * to pred_gauss.c and its tests.
 */
#ifndef BSL_PRED_TRIE_H
#define BSL_PRED_TRIE_H

#include <stddef.h>

/* Node v (in depth-first preorder) adds atom[v] (local index) at depth
 * depth[v] (1 for a root's child) to its parent's set P: its row of the
 * Cholesky factor of A = G + tau I over P + atom[v] is (l[loff[v] ..
 * loff[v] + depth[v] - 1), 1 / dinv[v]), and w[v * c + o] is the new entry
 * of L^{-1} b for output o (b = B'y). model[v] is the slot of the kept
 * model whose atoms are exactly the path to v, or -1; root_model the slot of
 * the model without atoms, or -1. Slots number the models in the order the
 * preorder meets them (the null model first): slot i is model perm[i], so
 * that a pass over the nodes writes each model's numbers in sequence. */
typedef struct bsl_pred_trie {
    size_t nnode, c, maxdepth, K;
    size_t *atom, *depth, *loff, *perm;
    long *model, root_model;
    double *l, *dinv, *w;
} bsl_pred_trie;

/* The tree of the K models (model r: local atoms atoms[off[r] ..
 * off[r + 1]), weight wt[r]) over the u x u block G (column-major), tau and
 * Bty (u x c, row-major). Each model's atoms are taken in the order of
 * decreasing total weight of the models holding them, so that the models'
 * common atoms form the shared prefixes. 0; -1 when a pivot is not
 * positive (a nearly collinear set in this order: the caller predicts
 * without the tree); -2 out of memory. t is to be freed either way. */
int bsl_pred_trie_build(bsl_pred_trie *t, const double *G, size_t u, double tau, const double *Bty, size_t c,
                        const size_t *off, const size_t *atoms, const double *wt, size_t K);
void bsl_pred_trie_free(bsl_pred_trie *t);

#endif
