/*
 * credible.h: credible sets of inputs from a posterior over subsets
 * (issue 18 item 4; the definition is docs/FIT.md "credible_sets").
 *
 * For trans-dimensional samples a "signal" cannot be the k-th effect of a
 * draw (draws have different sizes and no order), so signals are counted
 * within clusters of correlated inputs, as DAP-G's signal clusters (Wen,
 * Lee, Luca and Pique-Regi 2016, AJHG 99: 1245-1260; r^2 >= 0.25 there,
 * |r| >= 0.5 here), by the posterior of how many of a cluster's inputs the
 * model holds, K_c (DAP-G's posterior of the number of signals in a
 * cluster):
 *   1. leads: the unassigned input of largest PIP, while that PIP is at
 *      least pip_floor; its cluster is every unassigned input with
 *      |r| >= min_abs_corr against it (the lead included);
 *   2. P(K_c >= s) from the model weights; P(K_c >= 1) is the cluster's
 *      mass;
 *   3. the number of sets of the cluster: the largest s with
 *      P(K_c >= s) >= coverage (0: the signal is too weak or too spread to
 *      be located at that level), and at least the number of the cluster's
 *      inputs of PIP >= coverage (each is a credible set by itself);
 *   4. the sets, in turn, each from the cluster's inputs not in an earlier
 *      set (sets are disjoint, like SuSiE's single effects; Wang, Sarkar,
 *      Carbonetto and Stephens 2020, JRSS B 82: 1273-1300): from the empty
 *      set, add the input that raises P(model holds at least one of S) the
 *      most (ties: larger PIP, then smaller index) until it reaches
 *      coverage. The first input is the largest PIP left; inputs that
 *      models hold together with S raise it little, so S gathers the
 *      inputs that replace each other (one signal), and a second signal's
 *      inputs are left to the next set. For near-copies that no model
 *      holds two of at once the gain is the PIP, and this is susieR's rule
 *      (the fewest inputs whose probabilities sum to the coverage);
 *   5. purity: the least |r| between two inputs of the set (1 for one
 *      input); a set is reported when it reaches coverage and, as in
 *      susieR, purity min_abs_corr.
 * Only inputs that some stored model holds take part (an input no model
 * holds covers nothing): this bounds the work by the inputs seen.
 * Probabilities are over the stored models, their weights renormalised
 * (exact for enumeration, which stores every model). A sampler that visited
 * more models than it stores (modelset.dropped_weight > 0) cannot say
 * whether the unstored ones hold a set: coverage_lo and coverage_hi bound
 * its coverage over all visits (none of them, or all of them, do).
 */
#ifndef BSL_CREDIBLE_H
#define BSL_CREDIBLE_H

#include "summary.h"

typedef struct bsl_cs_opts {
    double coverage;     /* 0.95 */
    double min_abs_corr; /* 0.5, susieR's default */
    double pip_floor;    /* 0.01: smallest PIP of a lead */
    size_t max_sets;     /* clusters examined at most */
} bsl_cs_opts;

#define BSL_CS_DEFAULTS {0.95, 0.5, 0.01, 100}

typedef struct bsl_cs {
    size_t *atoms;   /* k, in the order added */
    size_t k, lead;
    double coverage; /* P(model holds at least one of atoms), over the stored models */
    double coverage_lo, coverage_hi; /* bounds over all visits (credible.h) */
    double mass;     /* the same for the whole cluster: P(K_c >= 1) */
    size_t signal;   /* the set's rank among its cluster's sets, from 1 */
    double signal_prob; /* P(K_c >= signal): the cluster holds at least that many inputs */
    double purity;   /* least |r| within the set */
} bsl_cs;

typedef struct bsl_cs_list {
    bsl_cs *sets;
    size_t n;
} bsl_cs_list;

/* |correlation| of atoms i and j (ctx: the caller's). */
typedef double (*bsl_abs_corr_fn)(void *ctx, size_t i, size_t j);

/* The credible sets of the posterior pip (m) / models into out (freed by
 * bsl_cs_list_free, also on failure). BASEL_ENOMEM. */
int bsl_credible_sets(const double *pip, size_t m, const bsl_modelset *models, bsl_abs_corr_fn corr, void *ctx,
                      const bsl_cs_opts *o, bsl_cs_list *out);
void bsl_cs_list_free(bsl_cs_list *l);

#endif
