/*
 * bd_relevance.h: input relevance inside the kernel for bd (issue 16 item 2;
 * bd --relevance select|grid).
 *
 * The state of a chain becomes (A, eta): the active atoms A and, per input
 * a, a relevance level eta_a from a finite grid, entering every kernel's
 * distance as r^2 = sum_a (eta_a (x_a - c_a))^2 (basis.h input_scale).
 * eta_a = 0 leaves input a out of every kernel: paper 000's input
 * selection (there for a mixture classifier) applied to the kernel
 * regression of paper 004. --relevance select has the levels {0, 1}, so
 * eta is an input set with a posterior inclusion probability per input;
 * grid has {0, 1/2, 1, 2}, a discrete ARD (the GP's per-input length
 * scale, on a grid that enumeration can still check exactly).
 *
 * Target: pi(A, eta) ∝ p(y | A, eta) p(A) p(eta), p(y | A, eta) the
 * collapsed marginal of the model table with the atoms' columns evaluated
 * under eta, p(eta) = prod_a p(eta_a) with p(0) = 1/2 and the non-zero
 * levels sharing the other 1/2 (prior PIP 1/2 per input, whatever the grid).
 *
 * Move (once every `relevance-every` blocks, at the block's end where the
 * nuisance parameters get their Gibbs update): pick an input a uniformly,
 * a new level uniformly among the other levels (a symmetric proposal).
 * With relevance-steps T = 0 the atoms stay: accept with min(1, pi(A, eta')
 * / pi(A, eta)). That mixes badly: the atoms are adapted to eta (kernels
 * narrow along an input that is in, ridges along one that is out), so the
 * same A under eta' fits poorly and the chains stick to their first eta
 * (measured: 4 of 960 moves accepted, four chains at PIPs 0 or 1 for two
 * noise inputs). With T > 0 the atoms are carried along by annealed
 * importance sampling (Neal 2001; as a proposal inside MH, Karagiannis and
 * Andrieu 2013, "Annealed importance sampling reversible jump MCMC"):
 * intermediate targets
 *     pi_t(A) ∝ [p(y | A, eta) p(eta)]^(1 - t/T) [p(y | A, eta') p(eta')]^(t/T) p(A),
 * t = 0..T, A_0 = A, A_t from one Metropolis-Hastings step on the atoms
 * reversible with respect to pi_t (t = 1..T-1), and the move to
 * (A_{T-1}, eta') is accepted with min(1, w),
 *     log w = sum_{t=1..T} (1/T) [log p(y | A_{t-1}, eta') p(eta') - log p(y | A_{t-1}, eta) p(eta)],
 * the AIS weight: the reverse path runs the same kernels in the reverse
 * order, and their reversibility makes the ratio of the two paths' densities
 * exactly w. T = 1 is the move with the atoms fixed. The atom step proposes
 * the death of a uniform active atom or the birth of a uniform dormant one
 * (1/2 each where both exist), with its Hastings correction; it needs both
 * models (under eta and eta') to hold the same A, so each step is a try and
 * an update of each. Exactness: tests/stat/test_bd_relevance.c against
 * enumeration. Between moves, the birth-death process leaves pi(A | eta)
 * invariant (bd.c), so the chain targets the joint posterior: the state at
 * the blocks' ends is distributed as pi, the same argument as bd.c's for
 * the Gibbs updates of sigma^2 and lambda.
 *
 * Cost. Changing eta changes every active column, so the proposal rebuilds
 * the model of A under eta': k columns from the dictionary, O(n k d), their
 * projection on the always-in columns, O(n k q), their cross products,
 * O(n k^2), and the factor, O(k^3) (k rank-one extensions of O(k^2)):
 * O(n k (d + q + k) + k^3) per move, plus T - 1 atom steps of two tries
 * each, O(n (d + q + k) + k^2) per try: with T = 2 k about a second
 * rebuild. A block of bd makes about
 * 2 (nu + xi) rho = 2.5 events at the defaults, each O(n k) on streamed
 * columns, so a move every block would cost (d + q + k) / 2.5 blocks: at
 * Boston (d = 13, q = 1, k ~ 20) about 14 blocks. With one move every
 * E = relevance-every blocks the amortised cost per block is
 * O(n k (2.5 + (d + q + k) / E)): E = 10 (the default) keeps it within
 * about 2.4x plain bd's at those sizes, still O(n k) per block for fixed
 * d and k, and gives 1000 moves per 10^4 blocks (77 proposals per input at
 * d = 13). The columns of the models are the model table's source columns
 * (bsl_atom_source), evaluated from the dictionary under the chain's eta
 * whenever an atom is tried; the model keeps no cache by atom in that mode,
 * so nothing computed under another eta can be read (design.c's dense Gram
 * and column cache are bypassed for the chains; they are only used by the
 * refit under the selected eta, subset.c).
 */
#ifndef BSL_BD_RELEVANCE_H
#define BSL_BD_RELEVANCE_H

#include "../subset/subset.h"
#include "../../run/ckpt.h"

#include <gsl/gsl_rng.h>

#define BSL_REL_MAX_LEVELS 8
/* inputs whose relevance can be sampled (subset.c keeps their selected
 * scales in a fixed array) */
#define BSL_REL_MAX_INPUTS 64
/* Default blocks between relevance moves (bd_engine.c's table states it;
 * the arithmetic above). */
#define BSL_REL_EVERY_DEFAULT 10
/* Default annealing steps T of a move (the bd_engine.c table states it).
 * Measured (4 chains, 2000 blocks, a move every 10): on y = sin(2 x1) +
 * noise with two noise inputs (n = 60, r = 1, k ~ 30) 4 of 960 moves were
 * accepted with T = 1, 5 with T = 20, 4 with T = 50 and T = 500; on Boston
 * (481 rows, gauss r=auto) 32 of 960 with T = 1, 26 with T = 20. A path of
 * single-atom steps does not carry a set of 20-30 adapted atoms across, so
 * the default is the cheap move; T stays an option, tested exact */
#define BSL_REL_STEPS_DEFAULT 1

typedef struct bsl_rel_settings {
    int on;                 /* 0: --relevance none, the plain bd */
    size_t nlev;            /* levels, level 0 is 0 (the input left out) */
    double levels[BSL_REL_MAX_LEVELS];
    double log_prior[BSL_REL_MAX_LEVELS]; /* log p(eta_a = level l) */
    size_t every;           /* blocks between moves */
    size_t steps;           /* T: annealing steps per move (1: the atoms stay) */
    size_t d;
} bsl_rel_settings;

/* Read relevance and relevance-every from params; rs->on = 0 for none.
 * BASEL_EINVAL naming the option when the dictionary is not radial or the
 * design has no rows (--stats). */
int bsl_rel_settings_read(bsl_rel_settings *rs, const bsl_params *params, const bsl_design *D,
                          basel_error *err);

/* The columns of a model: dictionary atoms under one eta (a source). */
typedef struct bsl_rel_view {
    const bsl_design *D;
    double *scale; /* d */
} bsl_rel_view;

/* A chain's relevance state: three models over the same atoms, the
 * current one (M[cur], its columns under eta) and two scratch ones (the
 * proposal's under eta', and the current one's copy that the path moves). */
typedef struct bsl_rel_chain {
    bsl_cmodel *M[3];
    bsl_rel_view view[3];
    size_t cur;
    size_t *usable;         /* the usable atoms' indices (n_usable) */
    size_t n_usable;
    size_t *level;          /* d: level index of each input */
    double *pip, *scale;    /* d: sums over kept blocks of [eta_a > 0] and eta_a */
    double blocks;          /* kept blocks summed */
    double proposed, accepted;
    size_t *order;          /* kmax + 1: scratch, the active atoms in order */
    const bsl_vs_problem *pb;
    int failed;             /* an atom step could not update a model */
} bsl_rel_chain;

/* Both models (empty, every input at level 1) and the accumulators. */
int bsl_rel_chain_init(bsl_rel_chain *rc, const bsl_rel_settings *rs, const bsl_vs_problem *pb,
                       basel_error *err);
void bsl_rel_chain_free(bsl_rel_chain *rc);
static inline bsl_cmodel *bsl_rel_model(const bsl_rel_chain *rc) { return rc->M[rc->cur]; }
/* Back to every input at level 1 with the current model's active set
 * rebuilt under it (a chain's start). */
int bsl_rel_reset(bsl_rel_chain *rc, const bsl_rel_settings *rs);
/* One Metropolis-Hastings move on eta (see the file comment); the current
 * model may change (bsl_rel_model). BASEL_OK, or BASEL_ENUMERIC when the
 * current set cannot be rebuilt. */
int bsl_rel_move(bsl_rel_chain *rc, const bsl_rel_settings *rs, gsl_rng *r);
/* Add the current eta to the sums (one kept block). */
void bsl_rel_accumulate(bsl_rel_chain *rc, const bsl_rel_settings *rs);
/* Checkpoint the state: before the model (its columns depend on eta). */
void bsl_rel_io(bsl_rel_chain *rc, const bsl_rel_settings *rs, bsl_ck *k);
/* The chains' pooled input PIPs and mean scales into res (res->d_inputs
 * etc., summary.h). BASEL_ENOMEM. */
int bsl_rel_merge(bsl_vs_result *res, const bsl_rel_settings *rs, bsl_rel_chain *const *rcs,
                  size_t chains);

#endif
