/*
 * rj.c: reversible-jump Metropolis-Hastings over subsets of a dictionary
 * for the collapsed linear Gaussian models (g, ridge, hier, aic/bic/mdl):
 * coefficients (and sigma^2 where conjugate) are integrated out, so a state
 * is just the active set gamma, of size k, with target
 *     S(gamma) = log_ml(gamma) + bsl_mprior_log(k)       (up to a constant).
 *
 * Moves. With kmin, kmax the model prior's bounds and m the number of atoms,
 * the move type is drawn with probabilities proportional to
 *     add: w_add [k < kmax],  delete: w_del [k > kmin],  swap: w_swap [0 < k < m]
 * (w_* from the params "rj-add", "rj-delete", "rj-swap", default 1/3 each),
 * renormalised over the moves possible at k: p_add(k), p_del(k), p_swap(k).
 *   add     an inactive atom j, uniform among the m - k inactive ones;
 *   delete  an active atom i, uniform among the k active ones;
 *   swap    an active i and an inactive j, uniform: i leaves, j enters.
 * Hastings ratios (the reverse of an add of j at k is a delete of j at k+1):
 *   add:    A = exp(S' - S) * [p_del(k+1) / (k+1)] / [p_add(k) / (m-k)]
 *   delete: A = exp(S' - S) * [p_add(k-1) / (m-k+1)] / [p_del(k) / k]
 *   swap:   A = exp(S' - S)   (size unchanged, both directions 1/(k(m-k))).
 * Atoms that cannot enter (collinear, unusable) give S' = -inf and are
 * rejected; they have posterior probability zero, so the proposal stays valid.
 *
 * Models with nuisance parameters (ridge with sigma^2 and lambda sampled,
 * g ~ IG(a, b), the unscaled spike and slab's sigma^2): after every sweep
 * (m moves) the model draws them (model.h draw_nuisance; ridge: beta from
 * paper 004 eq. (19), then lambda from eq. (17) and 1/sigma^2 from eq. (18))
 * and refactorises for the new tau.
 *
 * Estimates. Raw frequencies of inclusion (always valid) and, every
 * "rj-rb-every" moves (default m; 0 = off), the Rao-Blackwellised estimate:
 * the exact conditional P(gamma_j = 1 | gamma_-j, y) for EVERY atom j at the
 * current state (drop scores for active atoms, one try-add per inactive
 * atom, O(m k^2)). Averaging this over (thinned) stationary states is
 * unbiased by the tower property. Averaging only the conditional of the atom
 * a move happened to consider is not: which atom is considered depends on
 * the state (deletes only look at active atoms). res->pip is the RB estimate
 * when enabled, else the frequency; engine_note gives the largest gap.
 * On a dense Gram the pass conditions on less (subset_rb.h): each atom's
 * term is the average, over its two fixed neighbour pairs, of its
 * conditional given all but the pair, from the pair's four states (the
 * joint flip in closed form, bsl_cmodel_pair_scores, O(k) a pair).
 *
 * With informed moves (rj_informed.c) the Rao-Blackwell pass is the slot
 * pass instead, every rj-rb-every moves (default 10): each active atom i in
 * turn is taken out, every atom l that can enter S_i = gamma - i is scored
 * (the work of one informed delete), and
 *     f(gamma) = (1 / k) sum_i [ 1{j in S_i} + P(j | S_i) ],
 *     P(l | S) = pi(S + l) / sum_l' pi(S + l'),
 * is credited (f = 0 at k = 0). Under pi, with i uniform among the k
 * active atoms, the pair (S, i) has density pi(S + i) / k, and k = |S| + 1
 * is fixed by S, so the law of i given S is exactly P(. | S) and
 *     E[1{j in gamma} | S] = 1{j in S} + P(j | S):
 * each term is the indicator's conditional expectation, and E_pi[f] =
 * P(gamma_j = 1 | y) (tower property), so the average over passes is
 * consistent. It beats the plain conditional P(gamma_j = 1 | gamma_-j) on
 * neighbours that carry one signal in turn (x and its AR(1) neighbour):
 * with x in, the neighbour's plain conditional is near 0, while the slot's
 * conditional gives the split between them at once. A pass costs k moves'
 * scoring (bench/scale/README: at p = 20000 it lowered the max PIP error
 * of a default run from 0.034 to 0.026 on average over four seeds, for
 * about 15 % more CPU, against one emptied slot per move).
 *
 * Chains run in parallel on the chain driver (chains.h), each with its own
 * model, mt19937 seeded bsl_chain_seed(seed, chain), buffers, draws and
 * visited-model set, merged in chain order afterwards, so the result does
 * not depend on the thread count.
 * No allocation in the per-move path except amortised growth of the
 * visited-model set and of the draws table.
 */
#include "../subset/subset.h"
#include "../subset/subset_rb.h"
#include "../../run/chains.h"
#include "../../run/ckpt.h"
#include "rj_informed.h"
#include "rj_pairs.h"
#include "../../model/glm.h"
#include "../../model/gram_rows.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RJ_TRACE_LEN 1000 /* snapshots per chain kept for R-hat / ESS */

/* Negative controls (tests/negative/): a test build compiles this file with
 * -DBSL_PLANT=N to plant a known bug, so that the statistical tests can show
 * they catch it: 1 a 3 % bias in the add moves' acceptance ratio, 2 a wrong
 * normaliser of the model prior (log C(m, k) with lgamma(k) for
 * lgamma(k + 1): off by log k), 3 the dimension-matching proposal terms
 * 1/(m - k) and 1/k dropped (the subset analogue of a dropped Jacobian).
 * 0, and compiled out, in every real build. */
#ifndef BSL_PLANT
#define BSL_PLANT 0
#endif

enum { MOVE_ADD = 0, MOVE_DEL = 1, MOVE_SWAP = 2 };

typedef struct rj_settings {
    double w[3];          /* unnormalised move weights */
    size_t rb_every;      /* moves between RB passes (0 = none) */
    int slot_pass;        /* informed: the Rao-Blackwell pass is the slot pass (above) */
    size_t max_models;    /* cap of each chain's visited set */
    int informed;         /* --proposal: informed moves (rj_informed.c) or uniform */
    size_t sweep;         /* moves between nuisance draws and coefficient sums: m
                             (uniform), BSL_RJ_INFORMED_SWEEP (informed) */
    size_t cand_keep;     /* informed: candidate sets after burn-in (fix_candidates):
                             0 none, CAND_AUTO by weight, else the top cand_keep */
    size_t pair_window;   /* informed: --rj-pair-window (0: no pair moves) */
    size_t pair_keep;     /* --rj-pairs: 0 auto (screened), else the top pair_keep */
    bsl_rj_pairs pairs;   /* the pairs of the pair moves after burn-in (rj_pairs.c) */
    double pair_rate;     /* a move's probability of being a pair move, when there are pairs */
    bsl_rb_blocks blocks; /* uniform chains: the Rao-Blackwell pass's neighbour pairs (subset_rb.h) */
    /* per size k = 0 .. kmax + 1, filled once (rj_tables) from move_prob,
     * bsl_mprior_log and the Hastings terms below, so that a move reads
     * the same numbers without 3 x 3 weight lookups and two logarithms */
    double *mp;           /* bsl_mprior_log(k) */
    double *p;            /* 3 per k: p_add(k), p_del(k), p_swap(k) */
    double *la, *ld;      /* log(p_add(k) / (m - k)), log(p_del(k) / k) */
} rj_settings;

#define CAND_AUTO SIZE_MAX
/* --rj-candidates auto: an atom is a candidate when its weight in some
 * burn-in pass reached this share of the pass (rj_informed.c, "Candidate
 * sets"); at p = 20000 a typical null atom's share is ~1 / m = 5e-5 when
 * the nulls dominate a pass, and the atoms of the posterior's blocks reach
 * 1e-2 or more. Candidate sets are used when the burn-in had at least
 * CAND_MIN_BURN moves and C holds at most half the atoms. */
#define BSL_RJ_CAND_FLOOR 3e-4
#define CAND_MIN_BURN 100

/* An informed move scores all m atoms: a sweep of them is one move's work,
 * so the nuisance draws, coefficient sums and Rao-Blackwell passes (which
 * cost one move each) come every few moves, not every m. */
#define BSL_RJ_INFORMED_SWEEP 10

typedef struct rj_chain {
    bsl_cmodel *M;
    gsl_rng *r;
    bsl_coef_prior prior;   /* the prior the model starts from */
    size_t m, c;            /* atoms and outputs of the design */
    double *freq;           /* m: iterations with atom j active */
    double *rb;             /* m: sum of conditional inclusion probabilities */
    double *add_sc;         /* m: the scores of a Rao-Blackwell pass */
    size_t *fen;            /* the dormant atoms' Fenwick tree (fen_init) */
    size_t fen_top;         /* the largest power of 2 <= max(m, 1) */
    size_t *sorted;         /* kmax + 1: the active atoms in id order (the state's key) */
    size_t *slot_atoms;     /* kmax + 1: slot_pass's copy of them */
    double *maxw;           /* m: burn-in's largest share of a pass per atom (cand_keep) */
    size_t *cand_atoms;     /* m: the candidate set after burn-in */
    long *cand_index;       /* m: an atom's place in it, -1 outside */
    bsl_rj_cands cands;     /* n = 0: no candidate set (moves over all m atoms) */
    double n_rb;
    double *size_cnt;       /* kmax + 1 */
    double *coef;           /* m x c: sum of posterior means */
    double n_coef;
    bsl_modelset set;
    bsl_subset_key key;     /* the current state's key in set (atoms: sorted) */
    int key_ok, prefetch;   /* key describes the state; its next prefetch stage (0: none) */
    double run_len;         /* iterations in the current state not yet in set */
    double nu_sum[2];       /* post-burn sums of the model's nuisance parameters */
    double *scratch;        /* kmax + 1 (drop scores) and (kmax+1) x c (beta) */
    size_t n_nu;            /* the model's sampled nuisance parameters */
    double *beta;
    double prop[3], acc[3], evals;
    double pair_prop[2], pair_acc[2]; /* pair moves: add, delete */
    double *pair_sc;        /* pairs.n: a pair move's scores */
    bsl_rb_work rbw;        /* the Rao-Blackwell pass's scratch (subset_rb.h) */
    unsigned id;            /* the chain's number */
    size_t it;              /* the next iteration (burn-in included) */
    bsl_vs_result draws;    /* this chain's draws, appended to the result in chain order */
    int rc;
} rj_chain;

static double move_weight(const rj_settings *st, const bsl_vs_problem *pb, size_t k, int move)
{
    const size_t m = pb->D->m, kmax = BSL_MIN(pb->kmax, pb->mprior.kmax), kmin = pb->mprior.kmin;
    switch (move) {
    case MOVE_ADD: return k < kmax ? st->w[MOVE_ADD] : 0.0;
    case MOVE_DEL: return k > kmin ? st->w[MOVE_DEL] : 0.0;
    default: return k > 0 && k < m ? st->w[MOVE_SWAP] : 0.0;
    }
}

/* p_move(k): the move's probability at size k (0 if impossible). */
static double move_prob(const rj_settings *st, const bsl_vs_problem *pb, size_t k, int move)
{
    const double tot = move_weight(st, pb, k, MOVE_ADD) + move_weight(st, pb, k, MOVE_DEL) +
                       move_weight(st, pb, k, MOVE_SWAP);
    return tot > 0 ? move_weight(st, pb, k, move) / tot : 0.0;
}

/* S(gamma) for a set of k atoms with this log_ml: log_ml + bsl_mprior_log(k),
 * the prior from the table */
static double score_k(const rj_settings *st, double log_ml, size_t k)
{
    return log_ml + st->mp[k];
}

static void rj_tables_free(rj_settings *st)
{
    free(st->mp);
    free(st->p);
    free(st->la);
    free(st->ld);
}

static int rj_tables(rj_settings *st, const bsl_vs_problem *pb)
{
    const size_t m = pb->D->m, nk = pb->kmax + 2;
    st->mp = malloc(nk * sizeof *st->mp);
    st->p = malloc(3 * nk * sizeof *st->p);
    st->la = malloc(nk * sizeof *st->la);
    st->ld = malloc(nk * sizeof *st->ld);
    if (!st->mp || !st->p || !st->la || !st->ld) return BASEL_ENOMEM;
    for (size_t k = 0; k < nk; k++) {
        st->mp[k] = bsl_mprior_log(&pb->mprior, k);
        for (int mv = 0; mv < 3; mv++) st->p[3 * k + (size_t)mv] = move_prob(st, pb, k, mv);
        st->la[k] = k < m ? log(move_prob(st, pb, k, MOVE_ADD) / (double)(m - k)) : -INFINITY;
        st->ld[k] = k > 0 ? log(move_prob(st, pb, k, MOVE_DEL) / (double)k) : -INFINITY;
        if (BSL_PLANT == 2 && k > 0) st->mp[k] -= log((double)k);
        if (BSL_PLANT == 3) {
            st->la[k] = k < m ? log(move_prob(st, pb, k, MOVE_ADD)) : -INFINITY;
            st->ld[k] = k > 0 ? log(move_prob(st, pb, k, MOVE_DEL)) : -INFINITY;
        }
    }
    return BASEL_OK;
}

/* The dormant atoms as a Fenwick tree of 0/1 counts over the atom ids
 * (fen[1..m]), so that the nth dormant atom in id order is found in
 * O(log m) instead of a scan of m table calls (which was a tenth of a move
 * at m = 100), and kept up to date in O(log m) per add or remove. */
static void fen_update(rj_chain *ch, size_t j, long delta)
{
    for (size_t i = j + 1; i <= ch->m; i += i & (~i + 1)) ch->fen[i] = (size_t)((long)ch->fen[i] + delta);
}

/* fen[1..m] the tree; fen[m+1 .. 2 fen_top) (the search's overshoot) a
 * count no search stops short of, so that the search needs no bound check. */
static size_t fen_len(size_t m, size_t top)
{
    return BSL_MAX(m + 1, 2 * top);
}

static void fen_init(rj_chain *ch)
{
    for (size_t i = 1; i <= ch->m; i++) ch->fen[i] = 0;
    for (size_t i = ch->m + 1; i < fen_len(ch->m, ch->fen_top); i++) ch->fen[i] = SIZE_MAX;
    for (size_t j = 0; j < ch->m; j++)
        if (!bsl_cmodel_is_active(ch->M, j)) fen_update(ch, j, 1);
}

/* The nth dormant atom (0-based) in id order: a descent over the powers of
 * 2, each step taken or not by a select rather than a branch (half of
 * them went the unpredicted way). */
static size_t nth_inactive(const rj_chain *ch, size_t nth)
{
    size_t pos = 0, rem = nth + 1;
    for (size_t step = ch->fen_top; step; step >>= 1) {
        const size_t next = pos + step, f = ch->fen[next];
        const int go = f < rem;
        pos = go ? next : pos;
        rem = go ? rem - f : rem;
    }
    return pos;
}

/* The active atoms in id order, from the model (a start or a resume). */
static void sorted_init(rj_chain *ch)
{
    const size_t k = bsl_cmodel_k(ch->M);
    for (size_t j = 0, a = 0; j < ch->m && a < k; j++)
        if (bsl_cmodel_is_active(ch->M, j)) ch->sorted[a++] = j;
    ch->key_ok = 0;
}

/* j into (in = 1) or out of the id-ordered active atoms (k before the change). */
static void sorted_update(rj_chain *ch, size_t j, size_t k, int in)
{
    size_t a = 0;
    while (a < k && ch->sorted[a] < j) a++;
    if (in) {
        memmove(ch->sorted + a + 1, ch->sorted + a, (k - a) * sizeof *ch->sorted);
        ch->sorted[a] = j;
    } else {
        memmove(ch->sorted + a, ch->sorted + a + 1, (k - a - 1) * sizeof *ch->sorted);
    }
}

/* The model's add and remove, with the dormant tree kept in step. */
static int chain_add(rj_chain *ch, size_t j)
{
    const size_t k = bsl_cmodel_k(ch->M);
    const int rc = bsl_cmodel_add(ch->M, j);
    if (rc == BASEL_OK) {
        fen_update(ch, j, -1);
        sorted_update(ch, j, k, 1);
    }
    ch->key_ok = 0;
    return rc;
}

static void chain_remove(rj_chain *ch, size_t j)
{
    sorted_update(ch, j, bsl_cmodel_k(ch->M), 0);
    bsl_cmodel_remove(ch->M, j);
    fen_update(ch, j, 1);
    ch->key_ok = 0;
}

/* After a move: the key of a new state, made now and its place in the
 * visited set fetched stage by stage over the next moves, so that the
 * flush when the chain leaves the state finds it in the cache
 * (bsl_modelset_key). */
static void track_state(rj_chain *ch)
{
    if (!ch->key_ok) {
        bsl_modelset_key(&ch->key, ch->sorted, bsl_cmodel_k(ch->M)); /* sorted: no sorting */
        ch->key_ok = 1;
        ch->prefetch = 0;
    } else if (ch->prefetch > 2) {
        return;
    }
    bsl_modelset_prefetch(&ch->set, &ch->key, ch->prefetch++);
}

/* Credit the current state with the post-burn iterations it has held
 * (run_len), before a move changes it: the visited-model set, the inclusion
 * counts and the size counts, O(k) per accepted move rather than per
 * iteration (the counts are integers in doubles: the same sums either way).
 * A failure to store is kept in ch->rc. */
static int flush_state(rj_chain *ch, const rj_settings *st)
{
    if (ch->run_len == 0) return ch->rc;
    const size_t k = bsl_cmodel_k(ch->M);
    const size_t *active = bsl_cmodel_active(ch->M);
    for (size_t i = 0; i < k; i++) ch->freq[active[i]] += ch->run_len;
    ch->size_cnt[k] += ch->run_len;
    const double lp = score_k(st, bsl_cmodel_log_ml(ch->M), k);
    if (ch->key_ok ? bsl_modelset_add_key(&ch->set, &ch->key, ch->run_len, lp)
                   : bsl_modelset_add(&ch->set, active, k, ch->run_len, lp))
        ch->rc = BASEL_ENOMEM;
    ch->run_len = 0;
    return ch->rc;
}

static void move_add(rj_chain *ch, const bsl_vs_problem *pb, const rj_settings *st)
{
    bsl_cmodel *M = ch->M;
    const size_t m = pb->D->m, k = bsl_cmodel_k(M);
    const size_t j = nth_inactive(ch, gsl_rng_uniform_int(ch->r, m - k));
    const double s_new = bsl_cmodel_try_add(M, j);
    ch->evals++;
    if (s_new == -INFINITY) return;
    const double log_a = score_k(st, s_new, k + 1) - score_k(st, bsl_cmodel_log_ml(M), k) +
                         st->ld[k + 1] - st->la[k] + (BSL_PLANT == 1 ? log(1.03) : 0.0);
    if (!bsl_rj_accept(ch->r, log_a)) return;
    flush_state(ch, st);
    if (chain_add(ch, j) == BASEL_OK) ch->acc[MOVE_ADD]++;
}

static void move_del(rj_chain *ch, const bsl_vs_problem *pb, const rj_settings *st)
{
    bsl_cmodel *M = ch->M;
    const size_t k = bsl_cmodel_k(M);
    const size_t i = bsl_cmodel_active(M)[gsl_rng_uniform_int(ch->r, k)];
    /* the one drop score the move needs, O(k c) (not all k of them) */
    const double s_new = bsl_cmodel_try_remove(M, i);
    ch->evals++;
    const double log_a = score_k(st, s_new, k - 1) - score_k(st, bsl_cmodel_log_ml(M), k) +
                         st->la[k - 1] - st->ld[k];
    if (bsl_rj_accept(ch->r, log_a)) {
        flush_state(ch, st);
        chain_remove(ch, i);
        ch->acc[MOVE_DEL]++;
    }
}

/* Swap: score the set with i out and j in without moving (a rejected swap,
 * the common case, costs one O(k^2) evaluation and leaves the state alone),
 * then move by remove(i), add(j) when accepted. */
static void move_swap(rj_chain *ch, const bsl_vs_problem *pb, const rj_settings *st)
{
    bsl_cmodel *M = ch->M;
    const size_t m = pb->D->m, k = bsl_cmodel_k(M);
    const size_t i = bsl_cmodel_active(M)[gsl_rng_uniform_int(ch->r, k)];
    const size_t j = nth_inactive(ch, gsl_rng_uniform_int(ch->r, m - k));
    const double s_new = bsl_cmodel_try_swap(M, i, j);
    ch->evals++;
    /* same size: the model prior cancels, and so do the proposals */
    if (!(s_new > -INFINITY && bsl_rj_accept(ch->r, s_new - bsl_cmodel_log_ml(M)))) return;
    flush_state(ch, st);
    chain_remove(ch, i);
    if (chain_add(ch, j) == BASEL_OK) {
        ch->acc[MOVE_SWAP]++;
        return;
    }
    /* j entered by the inverse's arithmetic but not by the factor's: stay */
    if (chain_add(ch, i) != BASEL_OK) ch->rc = BASEL_ENUMERIC;
}

/* rj_informed.c's view of the chain (rj_informed.h) */
typedef struct rj_hook_ctx {
    rj_chain *ch;
    const bsl_vs_problem *pb;
    const rj_settings *st;
} rj_hook_ctx;
static double hook_prob(void *c, size_t k, int move)
{
    const rj_hook_ctx *x = c;
    return move_prob(x->st, x->pb, k, move);
}
static int hook_add(void *c, size_t j) { return chain_add(((rj_hook_ctx *)c)->ch, j); }
static void hook_remove(void *c, size_t j) { chain_remove(((rj_hook_ctx *)c)->ch, j); }
static void hook_commit(void *c)
{
    const rj_hook_ctx *x = c;
    flush_state(x->ch, x->st);
}
static void hook_seen(void *c, const double *sc, double sum)
{
    rj_chain *ch = ((rj_hook_ctx *)c)->ch;
    const double f = 1.0 / sum;
    for (size_t j = 0; j < ch->m; j++) ch->maxw[j] = fmax(ch->maxw[j], sc[j] * f);
}
static size_t hook_dormant(void *c, size_t nth) { return nth_inactive(((rj_hook_ctx *)c)->ch, nth); }

static int step_informed(rj_chain *ch, const bsl_vs_problem *pb, const rj_settings *st, int move, int burning)
{
    rj_hook_ctx x = {ch, pb, st};
    const bsl_rj_hooks h = {&x,       hook_prob,
                            hook_add, hook_remove,
                            hook_commit, burning && st->cand_keep ? hook_seen : NULL,
                            hook_dormant};
    int accepted = 0;
    const int rc = ch->cands.n ? bsl_rj_candidate_move(ch->M, ch->r, pb, move, &ch->cands, ch->add_sc, &h, &accepted)
                               : bsl_rj_informed_move(ch->M, ch->r, pb, move, ch->add_sc, &h, &accepted);
    ch->evals += (double)(ch->cands.n ? ch->cands.n : pb->D->m);
    if (accepted) ch->acc[move]++;
    if (rc && !ch->rc) ch->rc = rc;
    track_state(ch);
    return ch->rc;
}

/* A pair move (rj_pairs.c) */
static int step_pair(rj_chain *ch, const bsl_vs_problem *pb, const rj_settings *st)
{
    rj_hook_ctx x = {ch, pb, st};
    const bsl_rj_hooks h = {&x, hook_prob, hook_add, hook_remove, hook_commit, NULL, hook_dormant};
    int accepted = 0, del = 0;
    const int rc = bsl_rj_pair_move(ch->M, ch->r, pb, &st->pairs, ch->pair_sc, &h, &accepted, &del);
    ch->evals += (double)st->pairs.n;
    ch->pair_prop[del]++;
    if (accepted) ch->pair_acc[del]++;
    if (rc && !ch->rc) ch->rc = rc;
    track_state(ch);
    return ch->rc;
}

static int step(rj_chain *ch, const bsl_vs_problem *pb, const rj_settings *st, int burning)
{
    const size_t k = bsl_cmodel_k(ch->M);
    const double pa = st->p[3 * k + MOVE_ADD], pd = st->p[3 * k + MOVE_DEL], ps = st->p[3 * k + MOVE_SWAP];
    if (pa + pd + ps == 0) return BASEL_OK; /* m = 0 or kmin = kmax = 0: nothing moves */
    /* with pairs, a pair move instead, with a fixed probability, burn-in
     * included (so that the chain reaches a masking pair's sets before it
     * samples); no draw without pairs: the chains without them are what
     * they were */
    if (st->pairs.n && gsl_rng_uniform(ch->r) < st->pair_rate) return step_pair(ch, pb, st);
    const double u = gsl_rng_uniform(ch->r) * (pa + pd + ps);
    const int move = u < pa ? MOVE_ADD : u < pa + pd ? MOVE_DEL : MOVE_SWAP;
    ch->prop[move]++;
    if (st->informed) return step_informed(ch, pb, st, move, burning);
    if (move == MOVE_ADD)
        move_add(ch, pb, st);
    else if (move == MOVE_DEL)
        move_del(ch, pb, st);
    else
        move_swap(ch, pb, st);
    track_state(ch);
    return ch->rc;
}

/* The slot pass of informed moves: each active atom i taken out in turn,
 * S_i = gamma - i, and (1 / k) sum_i [1{j in S_i} + P(j | S_i)] credited;
 * the model gets its set back (its order may change). k scoring passes. */
static void slot_pass(rj_chain *ch, const bsl_vs_problem *pb)
{
    bsl_cmodel *M = ch->M;
    const size_t k = bsl_cmodel_k(M), m = pb->D->m;
    ch->n_rb++;
    if (k == 0) return; /* the empty set: every indicator 0 */
    memcpy(ch->slot_atoms, ch->sorted, k * sizeof *ch->slot_atoms);
    const double wk = 1.0 / (double)k;
    /* with a candidate set the slot of an atom i outside C keeps its
     * indicator, and a slot inside C is redrawn within C: given S and
     * i in C, i has law pi(S + i) / sum over l in C of pi(S + l), so
     * E[1{j = i} | S, i in C] = P_C(j | S), and the average stays
     * consistent (tower property, as above) */
    const bsl_rj_cands *C = ch->cands.n ? &ch->cands : NULL;
    const size_t *at = C ? C->atoms : NULL, n = C ? C->n : m;
    for (size_t a = 0; a < k; a++) {
        const size_t i = ch->slot_atoms[a];
        for (size_t b = 0; b < k; b++)
            if (b != a) ch->rb[ch->slot_atoms[b]] += wk;
        if (C && C->index[i] < 0) {
            ch->rb[i] += wk;
            continue;
        }
        bsl_cmodel_remove(M, i);
        double sum;
        const double logw = bsl_rj_slot_weights(M, pb, C, ch->add_sc, &sum);
        if (logw == -INFINITY || !(sum > 0)) {
            ch->rb[i] += wk;
        } else {
            const double f = wk / sum;
            for (size_t l = 0; l < n; l++) ch->rb[at ? at[l] : l] += ch->add_sc[l] * f;
        }
        if (bsl_cmodel_add(M, i) != BASEL_OK && !ch->rc) ch->rc = BASEL_ENUMERIC;
        ch->evals += (double)n;
    }
}

/* Rao-Blackwell pass: every atom's conditional inclusion probability at
 * this state (subset_rb.h: given the rest, or all but its neighbour pairs) */
static void rb_pass(rj_chain *ch, const bsl_vs_problem *pb, const rj_settings *st)
{
    const int rc = bsl_rb_pass(ch->M, pb, &st->blocks, st->mp, &ch->rbw, ch->rb, &ch->evals);
    if (rc && !ch->rc) ch->rc = rc; /* out of memory: reported, not absorbed */
    ch->n_rb++;
}

static void coef_accumulate(rj_chain *ch)
{
    const bsl_cmodel *M = ch->M;
    const size_t c = ch->c, k = bsl_cmodel_k(M);
    const size_t *active = bsl_cmodel_active(M);
    bsl_cmodel_coef_mean(M, ch->beta);
    for (size_t i = 0; i < k; i++)
        for (size_t o = 0; o < c; o++) ch->coef[active[i] * c + o] += ch->beta[i * c + o];
    ch->n_coef++;
}

static int keep_draw(rj_chain *ch)
{
    double sc[2] = {0, 0}; /* the model's nuisance parameters (read when sampled) */
    bsl_cmodel_nuisance(ch->M, sc, NULL);
    return bsl_vs_add_draw(&ch->draws, ch->id, bsl_cmodel_active(ch->M), bsl_cmodel_k(ch->M), sc);
}

/* Record the state for this post-burn iteration t (inclusion and size
 * counts are credited by flush_state when the state changes). */
static int record(rj_chain *ch, bsl_trace *trace, int trace_due, size_t t, const bsl_run *run)
{
    const bsl_cmodel *M = ch->M;
    ch->run_len++;
    if (ch->n_nu > 0 && ch->n_nu <= 2) { /* the model's nuisance parameters */
        double sc[2] = {0, 0};
        bsl_cmodel_nuisance(M, sc, NULL);
        ch->nu_sum[0] += sc[0];
        ch->nu_sum[1] += sc[1];
    }
    if (trace_due) bsl_trace_record(trace, t, bsl_cmodel_active(M), bsl_cmodel_k(M));
    if (run->keep_draws && t % (run->thin ? run->thin : 1) == 0) return keep_draw(ch);
    return BASEL_OK;
}

static int init_state(rj_chain *ch, const bsl_vs_problem *pb)
{
    bsl_cmodel *M = ch->M;
    const size_t m = pb->D->m;
    /* start at kmin atoms drawn uniformly (rejecting collinear ones) */
    for (size_t tries = 0; bsl_cmodel_k(M) < pb->mprior.kmin && tries < 100 * m; tries++) {
        const size_t j = gsl_rng_uniform_int(ch->r, m);
        if (!bsl_cmodel_is_active(M, j) && bsl_cmodel_try_add(M, j) > -INFINITY) bsl_cmodel_add(M, j);
    }
    return bsl_cmodel_k(M) < pb->mprior.kmin ? BASEL_ENUMERIC : BASEL_OK;
}

/* What every chain reads (shared, read-only) and the chains' states. */
typedef struct rj_ctx {
    rj_chain *ch;
    const bsl_vs_problem *pb;
    const bsl_run *run;
    const rj_settings *st;
} rj_ctx;

/* Where the loop stands in the periods of its periodic work: it mod m (the
 * nuisance draw), and t = it - burn mod m (coefficients), mod rb_every and
 * mod the trace's step; advanced by one per iteration instead of a 64-bit
 * division each (four divisions were a twentieth of a move at m = 100). */
typedef struct rj_phase {
    size_t sweep, coef, rb, trace;
} rj_phase;

static size_t next_mod(size_t c, size_t period)
{
    return c + 1 >= period ? 0 : c + 1;
}

/* The phase of iteration it (a start or a resume). */
static rj_phase phase_at(size_t it, size_t m, size_t burn, size_t rb_every, const bsl_trace *trace)
{
    rj_phase ph = {m ? it % m : 0, 0, 0, 0};
    if (it > burn) {
        const size_t t = it - burn;
        ph.coef = m ? t % m : 0;
        ph.rb = rb_every ? t % rb_every : 0;
        ph.trace = trace && trace->step ? t % trace->step : 0;
    }
    return ph;
}

static int descending(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* The chain's candidate set at the end of burn-in (rj_informed.c,
 * "Candidate sets"), from maxw alone (the atoms active then were given
 * share 1), so that a resumed chain rebuilds the same set: auto, the atoms
 * whose share reached BSL_RJ_CAND_FLOOR; else the cand_keep largest shares
 * (ties to the lower id). None when the set would hold more than half the
 * atoms (auto), or all of them, or the model scores no candidate lists. */
static int pair_member(const rj_settings *st, size_t j)
{
    for (size_t i = 0; i < st->pairs.n; i++)
        if (st->pairs.a[i] == j || st->pairs.b[i] == j) return 1;
    return 0;
}

static int fix_candidates(rj_chain *ch, const rj_settings *st, const bsl_run *run)
{
    const size_t m = ch->m;
    ch->cands.n = 0;
    if (!st->informed || !st->cand_keep || !bsl_cmodel_has_candidates(ch->M)) return BASEL_OK;
    if (st->cand_keep == CAND_AUTO && run->burn < CAND_MIN_BURN) return BASEL_OK;
    size_t n = 0;
    if (st->cand_keep == CAND_AUTO) {
        for (size_t j = 0; j < m; j++)
            if (ch->maxw[j] >= BSL_RJ_CAND_FLOOR || pair_member(st, j)) ch->cand_atoms[n++] = j;
        if (2 * n > m) return BASEL_OK;
    } else {
        if (st->cand_keep >= m) return BASEL_OK;
        /* the top cand_keep: the threshold t from a sorted copy, O(m log m) */
        double *w = ch->add_sc; /* scratch (m doubles) */
        memcpy(w, ch->maxw, m * sizeof *w);
        qsort(w, m, sizeof *w, descending);
        const double t = w[st->cand_keep - 1];
        size_t above = 0;
        for (size_t j = 0; j < m; j++) above += ch->maxw[j] > t;
        size_t ties = st->cand_keep - above; /* atoms at t taken, the lowest ids first */
        for (size_t j = 0; j < m; j++) {
            const int tie = ch->maxw[j] == t && ties > 0;
            if (tie) ties--;
            if (ch->maxw[j] > t || tie || pair_member(st, j)) ch->cand_atoms[n++] = j;
        }
    }
    for (size_t j = 0; j < m; j++) ch->cand_index[j] = -1;
    for (size_t c = 0; c < n; c++) ch->cand_index[ch->cand_atoms[c]] = (long)c;
    /* BASEL_EINVAL: this model (atoms from a source) takes no list; the
     * chain keeps scoring every atom */
    const int rc = bsl_cmodel_set_candidates(ch->M, ch->cand_atoms, n);
    if (rc == BASEL_EINVAL) return BASEL_OK;
    if (rc) return rc;
    ch->cands = (bsl_rj_cands){n, ch->cand_atoms, ch->cand_index};
    return BASEL_OK;
}

/* At the end of burn-in: the active atoms are candidates (share 1). */
static int end_burn_in(rj_chain *ch, const rj_settings *st, const bsl_run *run)
{
    if (!st->informed || !st->cand_keep) return BASEL_OK;
    const size_t k = bsl_cmodel_k(ch->M);
    const size_t *act = bsl_cmodel_active(ch->M);
    for (size_t a = 0; a < k; a++) ch->maxw[act[a]] = 1.0;
    return fix_candidates(ch, st, run);
}

/* Run one chain (bsl_chain_fn); one progress unit per iteration. */
static int run_chain(void *ctx, size_t chain, unsigned long seed, bsl_ticker *tick)
{
    const rj_ctx *x = ctx;
    rj_chain *ch = &x->ch[chain];
    const bsl_vs_problem *pb = x->pb;
    const bsl_run *run = x->run;
    /* moves per sweep: m (uniform), BSL_RJ_INFORMED_SWEEP (informed) */
    const size_t total = run->burn + run->iter, sweep = x->st->sweep;
    int rc = BASEL_OK;
    if (!tick->resumed) {
        gsl_rng_set(ch->r, seed);
        rc = init_state(ch, pb);
        ch->it = 0;
    }
    fen_init(ch); /* the dormant atoms of the state begun or resumed */
    sorted_init(ch);
    if (!rc && ch->it > run->burn) rc = fix_candidates(ch, x->st, run); /* resumed while sampling */
    const size_t rb_every = x->st->rb_every, tstep = tick->trace ? tick->trace->step : 0;
    rj_phase ph = phase_at(ch->it, sweep, run->burn, rb_every, tick->trace);
    for (; ch->it < total && !rc; ch->it++, ph.sweep = next_mod(ph.sweep, sweep)) {
        /* a boundary: the iterations before it are done (chains.h) */
        if (bsl_tick(tick, 1)) return BASEL_ECANCELLED;
        const size_t it = ch->it;
        /* the model's nuisance parameters, if it has any, once per sweep */
        if (it > 0 && ph.sweep == 0 && (rc = bsl_cmodel_draw_nuisance(ch->M, ch->r))) break;
        if (it == run->burn && (rc = end_burn_in(ch, x->st, run))) break;
        if ((rc = step(ch, pb, x->st, it < run->burn))) break;
        if (it < run->burn) continue;
        const size_t t = it - run->burn;
        if ((rc = record(ch, tick->trace, tick->trace && ph.trace == 0, t, run))) break;
        if (rb_every && ph.rb == 0) {
            if (x->st->slot_pass) slot_pass(ch, pb);
            else rb_pass(ch, pb, x->st);
        }
        if (ph.coef == 0) coef_accumulate(ch);
        ph.coef = next_mod(ph.coef, sweep);
        ph.rb = next_mod(ph.rb, rb_every);
        ph.trace = next_mod(ph.trace, tstep);
    }
    if (!rc) rc = flush_state(ch, x->st);
    return rc;
}

/* A chain's state in a checkpoint (ckpt.h); scratch, beta and old_atoms
 * are refilled before each use. */
static void chain_io(void *ctx, size_t chain, bsl_ck *k)
{
    const rj_ctx *x = ctx;
    rj_chain *ch = &x->ch[chain];
    const size_t m = ch->m, c = ch->c, kc = x->pb->kmax + 1;
    ch->key_ok = 0; /* a loaded state has no key yet */
    bsl_ck_rng(k, ch->r);
    bsl_ck_cmodel(k, ch->M);
    bsl_ck_val(k, ch->it);
    bsl_ck_doubles(k, ch->freq, m);
    bsl_ck_doubles(k, ch->rb, m);
    if (x->st->informed && x->st->cand_keep) bsl_ck_doubles(k, ch->maxw, m);
    bsl_ck_val(k, ch->n_rb);
    bsl_ck_doubles(k, ch->size_cnt, kc);
    bsl_ck_doubles(k, ch->coef, m * c);
    bsl_ck_val(k, ch->n_coef);
    bsl_ck_modelset(k, &ch->set, m);
    bsl_ck_val(k, ch->run_len);
    bsl_ck_doubles(k, ch->nu_sum, 2);
    bsl_ck_doubles(k, ch->prop, 3);
    bsl_ck_doubles(k, ch->acc, 3);
    if (x->st->pairs.n) {
        bsl_ck_doubles(k, ch->pair_prop, 2);
        bsl_ck_doubles(k, ch->pair_acc, 2);
    }
    bsl_ck_val(k, ch->evals);
    bsl_ck_draws(k, &ch->draws);
    bsl_ck_val(k, ch->rc);
}

static int read_settings(rj_settings *st, const bsl_vs_problem *pb, const bsl_run *run,
                         basel_error *err)
{
    const double third = 1.0 / 3.0;
    /* a fit has recorded the proposal (subset.c); other callers: by inputs */
    const bsl_design *D = pb->D->base ? pb->D->base : pb->D;
    int rc = bsl_rj_proposal(run->params, D->dict ? D->dict->d : pb->D->m, &st->informed, err);
    st->sweep = st->informed ? BSL_RJ_INFORMED_SWEEP : BSL_MAX(pb->D->m, (size_t)1);
    if (!rc) rc = bsl_params_double(run->params, "rj-add", third, 0, 1, &st->w[MOVE_ADD], err);
    if (!rc) rc = bsl_params_double(run->params, "rj-delete", third, 0, 1, &st->w[MOVE_DEL], err);
    if (!rc) rc = bsl_params_double(run->params, "rj-swap", third, 0, 1, &st->w[MOVE_SWAP], err);
    st->slot_pass = st->informed; /* its Rao-Blackwell pass (above) */
    if (!rc) rc = bsl_params_size(run->params, "rj-rb-every", st->sweep, 0, (size_t)1 << 40, &st->rb_every, err);
    if (!rc) rc = bsl_params_size(run->params, "max-models", 20000, 0, (size_t)1 << 40,
                                  &st->max_models, err);
    const char *cand = run->params ? bsl_params_get(run->params, "rj-candidates") : NULL;
    st->cand_keep = CAND_AUTO;
    if (!rc && cand && *cand && strcmp(cand, "auto") != 0) {
        if (strcmp(cand, "all") == 0)
            st->cand_keep = 0;
        else if ((rc = bsl_params_size(run->params, "rj-candidates", 0, 1, (size_t)1 << 40, &st->cand_keep, err)))
            return bsl_fail(err, BASEL_EINVAL, "--rj-candidates '%s': expected auto, all or a count of atoms", cand);
    }
    const char *pairs = run->params ? bsl_params_get(run->params, "rj-pairs") : NULL;
    st->pair_keep = 0;
    if (!rc) rc = bsl_params_size(run->params, "rj-pair-window", BSL_RJ_PAIR_WINDOW, 0, (size_t)1 << 20,
                                  &st->pair_window, err);
    if (!rc && pairs && *pairs && strcmp(pairs, "auto") != 0) {
        if (strcmp(pairs, "none") == 0)
            st->pair_window = 0;
        else if (bsl_params_size(run->params, "rj-pairs", 0, 1, (size_t)1 << 20, &st->pair_keep, err))
            return bsl_fail(err, BASEL_EINVAL, "--rj-pairs '%s': expected auto, none or a count of pairs", pairs);
    }
    /* "rj-pair-rate" is no option of the command: the exactness tests
     * raise it to give the pair moves' Hastings ratios their power */
    if (!rc) rc = bsl_params_double(run->params, "rj-pair-rate", BSL_RJ_PAIR_RATE, 0, 1, &st->pair_rate, err);
    if (!st->informed) st->pair_window = 0; /* pair moves follow informed moves' candidate sets */
    if (rc) return rc;
    if (st->w[MOVE_ADD] <= 0 || st->w[MOVE_DEL] <= 0)
        return bsl_fail(err, BASEL_EINVAL,
                        "--rj-add and --rj-delete must be positive (the chain must change size)");
    return BASEL_OK;
}

static void chain_free(rj_chain *ch)
{
    bsl_cmodel_free(ch->M);
    gsl_rng_free(ch->r);
    free(ch->freq);
    free(ch->rb);
    free(ch->add_sc);
    bsl_rb_work_free(&ch->rbw);
    free(ch->fen);
    free(ch->size_cnt);
    free(ch->coef);
    free(ch->scratch);
    free(ch->beta);
    free(ch->sorted);
    free(ch->slot_atoms);
    free(ch->maxw);
    free(ch->cand_atoms);
    free(ch->cand_index);
    free(ch->pair_sc);
    bsl_vs_result_free(&ch->draws);
    bsl_modelset_free(&ch->set);
}

static int chain_init(rj_chain *ch, const bsl_vs_problem *pb, const bsl_run *run,
                      const rj_settings *st, size_t chain, basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t m = D->m, c = D->c, kc = pb->kmax + 1;
    memset(ch, 0, sizeof *ch);
    ch->m = m;
    ch->c = c;
    ch->prior = pb->prior;
    if (bsl_coef_sampled(&ch->prior) && ch->prior.type->nuisance_start) /* a start the caller left unset */
        ch->prior.type->nuisance_start(&ch->prior, D->yy, c, (double)(D->n - D->q));
    ch->r = gsl_rng_alloc(gsl_rng_mt19937);
    ch->freq = bsl_calloc(m, sizeof(double));
    ch->rb = bsl_calloc(m, sizeof(double));
    ch->add_sc = bsl_calloc(m, sizeof(double));
    while (ch->fen_top * 2 <= m) ch->fen_top = ch->fen_top ? 2 * ch->fen_top : 1;
    ch->fen = bsl_calloc(fen_len(m, ch->fen_top), sizeof(size_t));
    ch->sorted = bsl_calloc(kc, sizeof(size_t));
    ch->slot_atoms = bsl_calloc(kc, sizeof(size_t));
    ch->maxw = bsl_calloc(m, sizeof(double));
    ch->cand_atoms = bsl_calloc(m, sizeof(size_t));
    ch->cand_index = bsl_calloc(m, sizeof(long));
    ch->key.atoms = ch->sorted;
    ch->size_cnt = bsl_calloc(kc, sizeof(double));
    ch->coef = bsl_calloc(m * c, sizeof(double));
    ch->scratch = bsl_calloc(kc, sizeof(double));
    ch->beta = bsl_calloc(kc * c, sizeof(double));
    ch->pair_sc = bsl_calloc(st->pairs.n + 1, sizeof(double));
    if (!ch->pair_sc || bsl_rb_work_init(&ch->rbw, m, pb->kmax, st->blocks.n) || !ch->r || !ch->freq || !ch->rb ||
        !ch->add_sc || !ch->fen || !ch->size_cnt || !ch->coef ||
        !ch->scratch || !ch->beta || !ch->sorted || !ch->slot_atoms || !ch->maxw || !ch->cand_atoms || !ch->cand_index || bsl_modelset_init(&ch->set, st->max_models))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory for chain %zu", chain);
    ch->id = (unsigned)chain;
    if (bsl_vs_result_init(&ch->draws, m, c, pb->kmax, 1))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory for chain %zu", chain);
    const int rc = bsl_vs_model_create(&ch->M, pb, &ch->prior, pb->kmax, err);
    if (rc) return rc;
    const char *const *names = NULL; /* the model's nuisance parameters go into the draws */
    ch->n_nu = bsl_cmodel_nuisance(ch->M, NULL, &names);
    ch->draws.nscalars = BSL_MIN(ch->n_nu, (size_t)2);
    for (size_t i = 0; i < ch->draws.nscalars; i++)
        snprintf(ch->draws.scalar_names[i], sizeof ch->draws.scalar_names[i], "%s", names[i]);
    if (run->keep_draws && run->stream_draws) {
        const int spill = bsl_vs_spill_begin(&ch->draws, err);
        if (spill) return spill;
    }
    return BASEL_OK;
}

/* Pool the chains into res (in chain order: thread-count independent). */
static int merge(rj_chain *ch, const bsl_vs_problem *pb, const bsl_run *run,
                 const rj_settings *st, bsl_chains *cs, bsl_vs_result *res)
{
    const size_t m = pb->D->m, c = pb->D->c, chains = run->chains;
    size_t *kept = bsl_calloc(chains, sizeof *kept), used = chains;
    if (!kept) return BASEL_ENOMEM;
    /* the kept iterations of each chain: all iter of them, unless the run
     * was interrupted (cs->partial: then the chains that kept some, each
     * over its own, and a paused chain's current run of one state) */
    res->iter_done = 0;
    for (size_t h = 0; h < chains; h++) {
        kept[h] = ch[h].it > run->burn ? ch[h].it - run->burn : 0;
        res->iter_done += (double)ch[h].it;
        if (cs->partial && kept[h] && ch[h].it < run->burn + run->iter && flush_state(&ch[h], st)) {
            free(kept);
            return BASEL_ENOMEM;
        }
    }
    if (cs->partial) {
        used = bsl_chains_keep(cs, kept);
        res->iter_planned = (double)chains * (double)(run->burn + run->iter);
        res->chains = used;
    }
    if (!used) {
        free(kept);
        return BASEL_INTERRUPTED;
    }
    double max_gap = 0, prop[3] = {0}, acc[3] = {0}, pprop[2] = {0}, pacc[2] = {0};
    for (size_t h = 0, hh = 0; h < chains; h++) {
        rj_chain *q = &ch[h];
        if (!kept[h]) continue;
        const double iter = (double)kept[h];
        for (size_t j = 0; j < m; j++) {
            const double f = q->freq[j] / iter;
            const double v = st->rb_every && q->n_rb > 0 ? q->rb[j] / q->n_rb : f;
            res->pip_chain[hh * m + j] = v;
            res->pip[j] += v / (double)used;
            max_gap = fmax(max_gap, fabs(v - f));
        }
        hh++;
        for (size_t k = 0; k <= pb->kmax; k++) res->size_prob[k] += q->size_cnt[k] / iter / (double)used;
        for (size_t j = 0; j < m * c; j++)
            res->coef_bma[j] += q->n_coef > 0 ? q->coef[j] / q->n_coef / (double)used : 0;
        for (int i = 0; i < 3; i++) {
            prop[i] += q->prop[i];
            acc[i] += q->acc[i];
        }
        for (int i = 0; i < 2; i++) {
            pprop[i] += q->pair_prop[i];
            pacc[i] += q->pair_acc[i];
        }
        res->evaluations += q->evals;
        for (int i = 0; i < 2; i++) res->nu_mean[i] += q->nu_sum[i] / iter / (double)used;
        if (bsl_modelset_absorb(&res->models, &q->set)) {
            free(kept);
            return BASEL_ENOMEM;
        }
    }
    free(kept);
    bsl_modelset_sort(&res->models);
    double cand = 0;
    for (size_t h = 0; h < chains; h++) {
        /* a chain restored from a checkpoint already finished never ran
         * run_chain: its set, rebuilt from maxw, is the one it used */
        if (!ch[h].cands.n && ch[h].it > run->burn && fix_candidates(&ch[h], st, run)) return BASEL_ENOMEM;
        cand += (double)ch[h].cands.n / (double)chains;
    }
    /* add, delete and swap all change the model (the acceptance rule of
     * summary.h) */
    for (int i = 0; i < 3; i++) res->moves_proposed += prop[i], res->moves_accepted += acc[i];
    for (int i = 0; i < 2; i++) res->moves_proposed += pprop[i], res->moves_accepted += pacc[i];
    char cands[200] = "";
    int at = 0;
    if (cand > 0) at = snprintf(cands, sizeof cands, "; candidates %.0f of %zu atoms after burn-in", cand, m);
    if (st->pairs.n)
        snprintf(cands + at, sizeof cands - (size_t)at,
                 "; %zu pairs (first %zu-%zu), pair add %.0f of %.0f accepted, pair delete %.0f of %.0f",
                 st->pairs.n, st->pairs.a[0] + 1, st->pairs.b[0] + 1, pacc[0], pprop[0], pacc[1], pprop[1]);
    snprintf(res->engine_note, sizeof res->engine_note,
             "acceptance add=%.4f delete=%.4f swap=%.4f; pip=%s (max |rb - frequency| %.4f)%s",
             prop[0] > 0 ? acc[0] / prop[0] : 0, prop[1] > 0 ? acc[1] / prop[1] : 0,
             prop[2] > 0 ? acc[2] / prop[2] : 0,
             !st->rb_every               ? "frequency"
             : st->slot_pass              ? "rao-blackwell over the slots"
             : st->blocks.n               ? "rao-blackwell over neighbour pairs"
                                          : "rao-blackwell",
             max_gap, cands);
    if (bsl_chains_vs_diagnostics(cs, res)) return BASEL_ENOMEM;
    for (size_t h = 0; h < chains && run->keep_draws; h++)
        if (bsl_chains_append_draws(res, &ch[h].draws)) return BASEL_ENOMEM;
    return BASEL_OK;
}

int bsl_rj_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
               basel_error *err)
{
    if (pb->prior.glm_family == BSL_GLM_MULTINOMIAL) /* set only by the GLMs' normal prior */
        return bsl_rj_multi_run(pb, run, res, err); /* one subset per class */
    const size_t m = pb->D->m, chains = run->chains ? run->chains : 1;
    rj_settings st = {0};
    int rc = read_settings(&st, pb, run, err);
    if (rc) return rc;
    if (run->iter == 0) return bsl_fail(err, BASEL_EINVAL, "--iter must be positive");
    if (pb->mprior.kmin > BSL_MIN(pb->kmax, m))
        return bsl_fail(err, BASEL_EINVAL, "kmin %zu exceeds kmax %zu", pb->mprior.kmin, pb->kmax);
    const double t0 = omp_get_wtime();
    bsl_run r1 = *run;
    r1.chains = chains;
    if ((rc = bsl_vs_result_init(res, m, pb->D->c, pb->kmax, chains)))
        return bsl_fail(err, rc, "out of memory");
    res->models.max_items = st.max_models;
    res->pip_chain = bsl_calloc(chains * m, sizeof(double));
    rj_chain *ch = bsl_calloc(chains, sizeof *ch);
    if (!ch || !res->pip_chain) {
        free(ch);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (rj_tables(&st, pb)) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!rc && st.pair_window)
        rc = bsl_rj_pairs_screen(pb->D, st.pair_window, st.pair_keep, run->phases, &st.pairs, err);
    /* uniform chains on a dense Gram: the Rao-Blackwell pass over neighbour pairs */
    const bsl_model_ops *ops = pb->model ? pb->model : bsl_model_ops_for(&pb->prior);
    if (!rc && !st.informed && st.rb_every && !pb->D->base && ops->pair_scores &&
        bsl_rb_blocks_make(pb->D, &st.blocks))
        rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t h = 0; h < chains && !rc; h++) rc = chain_init(&ch[h], pb, &r1, &st, h, err);
    bsl_chains cs = {.chains = chains, .max_time = run->max_time, .threads = run->threads, .seed = run->seed,
                     .units = run->burn + run->iter, .progress = run->progress,
                     .progress_user = run->progress_user, .trace_m = m,
                     .trace_iter = run->iter, .trace_len = RJ_TRACE_LEN,
                     .ckpt = {run->checkpoint, run->checkpoint_every, run->restart, run->run_id, chain_io},
                     .ranks = run->ranks, .err = err};
    if (!rc) {
        rj_ctx x = {ch, pb, &r1, &st};
        rc = bsl_chains_run(&cs, run_chain, &x);
        if (rc == BASEL_INTERRUPTED && cs.partial) rc = BASEL_OK; /* a fit of what was done */
        else if (rc && !cs.reported)
            bsl_fail(err, rc,
                     rc == BASEL_ECANCELLED ? "cancelled"
                     : rc == BASEL_ENOMEM   ? "out of memory in chain %zu"
                     : rc == BASEL_EIO      ? "cannot write the draws of chain %zu to their temporary file"
                                            : "numerical failure in chain %zu",
                     cs.failed);
    }
    for (size_t h = 0; h < chains && !rc; h++) /* a subset visited without a score (model.h fault) */
        if (ch[h].M && bsl_cmodel_fault(ch[h].M)) rc = bsl_fail(err, BASEL_EINVAL, "%s", bsl_cmodel_fault(ch[h].M));
    if (!rc && (rc = merge(ch, pb, &r1, &st, &cs, res)))
        bsl_fail(err, rc, rc == BASEL_INTERRUPTED ? "interrupted before any iteration was kept" : "out of memory");
    bsl_chains_free(&cs);
    for (size_t h = 0; h < chains; h++) chain_free(&ch[h]);
    free(ch);
    rj_tables_free(&st);
    bsl_rj_pairs_free(&st.pairs);
    bsl_rb_blocks_free(&st.blocks);
    bsl_gram_rows_release(pb->D->rows);
    res->seconds = omp_get_wtime() - t0;
    return rc;
}
