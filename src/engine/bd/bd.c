/*
 * bd.c: the continuous-time birth-and-death process over active sets
 * (paper 004 sections 3.2-3.3), basel's main engine.
 *
 * Births arrive at total rate nu; the atom born is drawn from a birth
 * density over the dormant atoms, b(A; a) = w_a / W(A), W(A) = sum of w over
 * the dormant (usable) atoms: w = 1 gives the paper's uniform births, w
 * from the atoms' correlation with y a data-informed one. Detailed balance
 * (paper 004 eq. 26) between A and A' = A + {a} then fixes the death rate of
 * atom a in A' for ANY model prior:
 *
 *     pi(A) nu w_a / W(A) = pi(A') delta_a(A')
 *     delta_a(A') = nu w_a / (W(A') + w_a) * pi(A' - {a}) / pi(A'),     (*)
 *
 * with pi(A) = p(y | A) p(A) the collapsed posterior (marginal likelihood
 * times the model prior of this one subset). The paper's eq. (32) is the
 * special case of a truncated Poisson prior, uniform births and nu = omega;
 * we use (*) as derived, and the enumeration tests decide.
 * All k ratios pi(A - {a}) / pi(A) come from the model's explicit inverse in
 * O(k^2) in total (the model table's drop_scores), never from k
 * refactorisations.
 *
 * Births into a state of probability zero (an atom collinear with the
 * active set, k = kmax) are thinned: the event happens, nothing changes,
 * which keeps (*) exact.
 *
 * Swaps (the third event type; --swap, rate xi). Births and deaths alone
 * cannot carry the process between {x1} and {x2} when x2 duplicates x1 so
 * closely that {x1, x2} is collinear (model.h BSL_RANK_TOL; x2 = x1 + 1e-6
 * noise), and hardly can when the way round, through {x1, x2} or through
 * {}, is merely improbable: the process stays on the side it started (PIPs
 * 0.75 and 0.25 over 4 chains where the answer is 0.50 and 0.50;
 * tests/stat/test_near_dup.c). A swap replaces an active atom a by a dormant one b in
 * one event. Swap events arrive at total rate xi whenever k > 0 and an
 * atom is dormant; a is drawn uniformly from the k active atoms and b from
 * the birth density over the dormant ones, b(A; b) = w_b / W(A), and the
 * swap to A' = A - {a} + {b} (same size k) is made with probability
 *
 *     alpha(A, A') = min(1, pi(A') w_a W(A) / (pi(A) w_b W(A'))),   (**)
 *
 * W(A') = W(A) - w_b + w_a, else the event is thinned (nothing changes).
 * The rate of the transition A -> A' is then
 *     s(A; a -> b) = xi (1/k) (w_b / W(A)) alpha(A, A'),
 * and pi(A) s(A; a -> b) = (xi / k) min(pi(A) w_b / W(A), pi(A') w_a / W(A'))
 * is symmetric in (A, a) <-> (A', b), so
 *     pi(A) s(A; a -> b) = pi(A') s(A'; b -> a),
 * detailed balance for the swap pair as (*) is for the birth-death pair
 * (paper 004 eq. 26 applied to a third kind of jump): the three kinds
 * together keep pi stationary. With uniform births (w = 1) the weights
 * cancel and (**) is min(1, pi(A') / pi(A)). A swap costs one O(k^2)
 * remove and one try-add, as a birth or a death does.
 *
 * Blocks. Time runs in blocks of duration rho; at each block's end (times
 * rho, 2 rho, ...) the draw is recorded and the model's nuisance
 * parameters (ridge: sigma^2 and lambda, eqs. 17-19; model.h draw_nuisance)
 * get their Gibbs updates, both from the state AT that time: the state
 * before the first event past the block's end. That event is dropped and the next block draws a fresh holding time, which by the
 * exponential's lack of memory (and after a Gibbs update, under the new
 * rates) is the same process. The state at a fixed time is distributed as
 * pi; the state after the event that crosses it would not be (it follows a
 * long holding, and so is biased towards the successors of slow states:
 * recording it made the mean size of the draws 6.33 against the exact 5.96
 * on lin_p15_n200).
 *
 * Estimates are Rao-Blackwellised over holding times: each visit to a state
 * s, entered with `left` time to the block's end, is weighted by the
 * expected time it will spend there within the block,
 * E min(H, left) = (1 - exp(-R(s) left)) / R(s), H ~ Exp(R(s)) and R the
 * total event rate, births + deaths + xi for swaps, thinned events
 * included (1 / R(s) for visits well before the end). A thinned event
 * starts a new visit of the same state with its own weight: the visits'
 * conditional means still add up to the time spent. Given the
 * past, that is the conditional mean of the time the process really spends
 * in s, so the weighted sums estimate the time integrals without the noise
 * of the exponential draws, and averages under pi follow.
 *
 * The PIPs go one step further (--bd-rb-every, rb_settings below): every
 * few kept blocks, the state at the block's end (a draw from pi) gets a
 * Rao-Blackwell pass (subset_rb.h), each atom's probability of inclusion
 * given all but its pair with each of its two most correlated atoms, and
 * the PIPs are these conditionals' average instead of the time averages of
 * the indicators. On lin_p100_n1000 (its reference's prior, g = 1000 and
 * uniform; the default run length) the largest PIP error fell from 0.037
 * to 0.008 on average over 8 seeds; where two correlated
 * inputs carry one signal in turn, the indicators' averages follow the
 * process's rare switches between them, the pairs' conditionals give the
 * split at every pass. Sizes, models and coefficients keep the time
 * averages.
 *
 * Logistic regression (--family binomial, model/glm.h). The model table is
 * then the Polya-Gamma augmented one: its scores are log p(y, omega | A)
 * given the latent omega, and its nuisance step (draw_nuisance) draws
 * theta | A, omega, y ~ N(P_A^-1 b_A, P_A^-1) and then omega_i | theta ~
 * PG(1, psi_i), both exact conditionals (Polson, Scott and Windle 2013,
 * section 3.1). bd makes that step where it makes the ridge prior's Gibbs
 * update: once per block, at the block's end (time rho, 2 rho, ...; with
 * the defaults nu = rho = 1 a block holds a few events, so omega is renewed
 * more often than rj's once per sweep of m moves). Why the joint chain over
 * (A, theta, omega) is exact: within a block omega is fixed and the
 * process is the birth-death-swap process above with pi(A) = p(y, omega |
 * A) p(A), which is proportional to p(A | omega, y), so (*) and (**)
 * make p(A | omega, y) stationary, and the state at the block's end is a
 * draw from it when the block started from one; the latent step then draws
 * (theta, omega) from p(theta, omega | A, y) exactly (theta given (A,
 * omega), then omega given theta, a systematic scan that leaves p(omega |
 * A, y) invariant). Each of the two kernels leaves p(A, omega | y)
 * invariant, so their composition does, and the block averages (the RB
 * weights above, under a fixed omega) estimate posterior means under the
 * exact logistic posterior; nothing is approximated. The PIPs are time
 * averages of the indicators given omega, as rj's Rao-Blackwell terms are
 * conditioned on omega. tests/stat/test_glm_engines.c checks bd's PIPs and
 * P(k) against enumeration of the same model.
 *
 * Input relevance (--relevance select|grid): the state is (A, eta), eta a
 * scale per input inside the kernels' distance, with a Metropolis-Hastings
 * move on eta at a block's end every relevance-every blocks, next to the
 * Gibbs update of the nuisance parameters; bd_relevance.h.
 */
#include "../subset/subset.h"
#include "../subset/subset_rb.h"
#include "../../run/chains.h"
#include "../../run/ckpt.h"
#include "bd_relevance.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Snapshots per chain for R-hat and ESS (chains.h traces): snapshot s is
 * the time average of the indicators and the size over its blocks (one
 * block each when iter <= BD_TRACE_LEN), so R-hat and ESS see the process
 * in continuous time, not its jump chain */
#define BD_TRACE_LEN 1000
/* Default swap rate xi (--swap), per unit time, next to the birth rate nu = 1
 * (bd_engine.c's option table states it; the two must agree). Measured on
 * lin_p15_n200, 4 x 40000 blocks, one thread: 0.85 s of CPU without swaps,
 * 0.99 s at 0.25, 1.08 s at 0.5; at 0.25 the near-duplicate designs of
 * test_near_dup.c cross between x1 and x2 often enough for a draw SE of
 * 0.006 on their PIPs in 4 x 25000 blocks (at 1e-6 noise, without swaps:
 * stuck) */
#define BD_SWAP_DEFAULT 0.25

typedef struct bd_settings {
    double nu, rho, xi; /* birth rate, block length, swap rate */
    int informed;
    size_t rb_every;    /* kept blocks between Rao-Blackwell passes (0: time averages) */
    bsl_rb_blocks blocks; /* their neighbour pairs (subset_rb.h) */
    double *log_prior;  /* kmax + 2: the model prior by size, for the passes */
} bd_settings;

/* Per-chain state and accumulators. */
typedef struct bd_chain {
    bsl_cmodel *M;                   /* the model (with --relevance: rel's current one) */
    bsl_rel_chain *rel;              /* --relevance: eta and its models; NULL for none */
    gsl_rng *r;
    const gsl_ran_discrete_t *birth; /* alias table of w over all atoms */
    double W_dormant;                /* sum of w over usable dormant atoms */
    double *drop, *log_rate, *beta;  /* kmax+1 each (beta: (kmax+1) x c) */
    double *pip, *size, *coef;       /* time-weighted sums (m, kmax+1, m*c) */
    double total;
    size_t b, dormant;               /* the next block; usable dormant atoms */
    bsl_modelset models;
    bsl_vs_result draws;             /* draws of this chain only */
    double events, births, deaths, null_births, swaps, swaps_tried;
    double sigma2_sum, lambda_sum; /* over kept blocks */
    double *rb, n_rb;                /* Rao-Blackwell passes: sums of the conditionals (m), passes */
    bsl_rb_work rbw;
    int rc;
} bd_chain;

static double log_post(const bsl_cmodel *M, const bsl_mprior *mp)
{
    return bsl_cmodel_log_ml(M) + bsl_mprior_log(mp, bsl_cmodel_k(M));
}

/* Informed birth weights: squared correlation of each atom with y (summed
 * over outputs) plus a floor, so that every atom can still be born. */
static double *birth_weights(const bsl_vs_problem *pb, int informed)
{
    const bsl_design *D = pb->D;
    double *w = bsl_malloc(D->m, sizeof *w);
    if (!w) return NULL;
    double mean = 0;
    for (size_t j = 0; j < D->m; j++) {
        double r2 = 0;
        for (size_t o = 0; o < D->c && informed; o++)
            r2 += D->Bty[j * D->c + o] * D->Bty[j * D->c + o] / (D->diag[j] * D->yy[o]);
        w[j] = D->usable[j] ? (informed ? r2 : 1.0) : 0.0;
        mean += w[j] / (double)D->m;
    }
    if (informed)
        for (size_t j = 0; j < D->m; j++)
            if (D->usable[j]) w[j] += 0.1 * mean + 1e-12;
    return w;
}

/* The rates of the current state: log_rate[p] for the death of active[p],
 * the birth rate and the swap rate; returns log R, the log of the total
 * rate. */
static double rates(bd_chain *ch, const bsl_vs_problem *pb, const bd_settings *st,
                    const double *w, size_t dormant, double *log_birth, double *log_swap)
{
    bsl_cmodel *M = ch->M;
    const size_t k = bsl_cmodel_k(M);
    const size_t *active = bsl_cmodel_active(M);
    *log_birth = k < pb->kmax && dormant > 0 ? log(st->nu) : -INFINITY;
    *log_swap = st->xi > 0 && k > 0 && dormant > 0 ? log(st->xi) : -INFINITY;
    double log_R = bsl_logaddexp(*log_birth, *log_swap);
    if (k <= pb->mprior.kmin) {
        for (size_t p = 0; p < k; p++) ch->log_rate[p] = -INFINITY;
        return log_R;
    }
    const double lp = log_post(M, &pb->mprior);
    const double lp_prior_down = bsl_mprior_log(&pb->mprior, k - 1);
    bsl_cmodel_drop_scores(M, ch->drop);
    for (size_t p = 0; p < k; p++) {
        const size_t a = active[p];
        /* (*): delta_a = nu w_a / (W(A) + w_a) * pi(A - a) / pi(A) */
        ch->log_rate[p] = log(st->nu) + log(w[a]) - log(ch->W_dormant + w[a]) + ch->drop[p] +
                          lp_prior_down - lp;
        log_R = bsl_logaddexp(log_R, ch->log_rate[p]);
    }
    return log_R;
}

/* A swap event (**): a uniform among the active atoms, b from the birth
 * density over the dormant ones, made with probability alpha(A, A'). */
static void swap(bd_chain *ch, const bsl_vs_problem *pb, const double *w)
{
    bsl_cmodel *M = ch->M;
    const size_t k = bsl_cmodel_k(M);
    const size_t a = bsl_cmodel_active(M)[gsl_rng_uniform_int(ch->r, k)];
    size_t b;
    do b = gsl_ran_discrete(ch->r, ch->birth); while (bsl_cmodel_is_active(M, b));
    ch->swaps_tried++;
    const double lp = log_post(M, &pb->mprior); /* k is unchanged: the model prior cancels too */
    const double W_new = ch->W_dormant - w[b] + w[a];
    const double lp_new = bsl_cmodel_try_swap(M, a, b) + bsl_mprior_log(&pb->mprior, k);
    const double log_alpha = lp_new - lp + log(w[a]) - log(W_new) - log(w[b]) + log(ch->W_dormant);
    /* try_swap leaves the model as it was (model.h): move only when accepted */
    if (!(lp_new > -INFINITY && (log_alpha >= 0 || log(gsl_rng_uniform_pos(ch->r)) < log_alpha))) return;
    bsl_cmodel_remove(M, a);
    if (bsl_cmodel_add(M, b) == BASEL_OK) {
        ch->W_dormant = W_new;
        ch->swaps++;
        return;
    }
    if (bsl_cmodel_add(M, a) != BASEL_OK) ch->rc = BASEL_ENUMERIC; /* thinned: a goes back */
}

/* Make the transition chosen with probabilities rate / R. */
static void transition(bd_chain *ch, const bsl_vs_problem *pb, const double *w, double log_R,
                       double log_birth, double log_swap, size_t *dormant)
{
    bsl_cmodel *M = ch->M;
    double u = gsl_rng_uniform(ch->r);
    const double p_birth = exp(log_birth - log_R), p_swap = exp(log_swap - log_R);
    ch->events++;
    if (u < p_swap) {
        swap(ch, pb, w);
        return;
    }
    u -= p_swap;
    if (u < p_birth) {
        size_t j;
        do j = gsl_ran_discrete(ch->r, ch->birth); while (bsl_cmodel_is_active(M, j));
        if (bsl_cmodel_try_add(M, j) == -INFINITY || bsl_cmodel_add(M, j) != BASEL_OK) {
            ch->null_births++; /* a birth into a state of probability 0: thinned */
            return;
        }
        ch->births++;
        ch->W_dormant -= w[j];
        --*dormant;
        return;
    }
    u -= p_birth;
    size_t p = 0;
    for (; p + 1 < bsl_cmodel_k(M); p++) {
        const double pr = exp(ch->log_rate[p] - log_R);
        if (u < pr) break;
        u -= pr;
    }
    const size_t a = bsl_cmodel_active(M)[p];
    bsl_cmodel_remove(M, a);
    ch->W_dormant += w[a];
    ++*dormant;
    ch->deaths++;
}

static void accumulate(bd_chain *ch, const bsl_vs_problem *pb, double weight, bsl_trace *trace,
                       size_t it)
{
    bsl_cmodel *M = ch->M;
    const size_t k = bsl_cmodel_k(M), c = pb->D->c;
    const size_t *active = bsl_cmodel_active(M);
    ch->total += weight;
    ch->size[k] += weight;
    bsl_trace_add(trace, it, active, k, weight);
    bsl_cmodel_coef_mean(M, ch->beta);
    for (size_t i = 0; i < k; i++) {
        const size_t a = active[i];
        ch->pip[a] += weight;
        for (size_t o = 0; o < c; o++) ch->coef[a * c + o] += weight * ch->beta[i * c + o];
    }
    if (bsl_modelset_add(&ch->models, active, k, weight, log_post(M, &pb->mprior)))
        ch->rc = BASEL_ENOMEM;
}

/* max_models: distinct subsets stored per chain, enough for the top models
 * and the model-averaged intervals and bounded, so that memory does not grow
 * with the run length (BAS keeps every visited model) */
static int chain_alloc(bd_chain *ch, const bsl_vs_problem *pb, const bsl_run *run,
                       const bsl_rel_settings *rs, size_t max_models, size_t nblocks, basel_error *err)
{
    const size_t m = pb->D->m, c = pb->D->c, kc = pb->kmax + 1;
    memset(ch, 0, sizeof *ch);
    if (rs->on) { /* the chain's models are rel's, on columns under its eta */
        if (!(ch->rel = malloc(sizeof *ch->rel))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        if (bsl_rel_chain_init(ch->rel, rs, pb, err)) return BASEL_ENOMEM;
        ch->M = bsl_rel_model(ch->rel);
    } else if (bsl_vs_model_create(&ch->M, pb, &pb->prior, pb->kmax, err)) {
        return BASEL_ENOMEM;
    }
    ch->r = gsl_rng_alloc(gsl_rng_mt19937);
    ch->drop = bsl_malloc(kc, sizeof(double));
    ch->log_rate = bsl_malloc(kc, sizeof(double));
    ch->beta = bsl_malloc(kc * c, sizeof(double));
    ch->pip = bsl_calloc(m, sizeof(double));
    ch->size = bsl_calloc(kc, sizeof(double));
    ch->coef = bsl_calloc(m * c, sizeof(double));
    ch->rb = bsl_calloc(m + 1, sizeof(double));
    if (!ch->r || !ch->drop || !ch->log_rate || !ch->beta || !ch->pip || !ch->size || !ch->coef || !ch->rb ||
        bsl_rb_work_init(&ch->rbw, m, pb->kmax, nblocks) ||
        bsl_modelset_init(&ch->models, max_models) ||
        bsl_vs_result_init(&ch->draws, m, c, pb->kmax, 1))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const char *const *names = NULL; /* the model's nuisance parameters go into the draws */
    ch->draws.nscalars = BSL_MIN(bsl_cmodel_nuisance(ch->M, NULL, &names), (size_t)2);
    for (size_t i = 0; i < ch->draws.nscalars; i++)
        snprintf(ch->draws.scalar_names[i], sizeof ch->draws.scalar_names[i], "%s", names[i]);
    if (run->keep_draws && run->stream_draws) {
        const int spill = bsl_vs_spill_begin(&ch->draws, err);
        if (spill) return spill;
    }
    return BASEL_OK;
}

static void chain_free(bd_chain *ch)
{
    if (ch->rel) bsl_rel_chain_free(ch->rel); /* ch->M is one of its models */
    else bsl_cmodel_free(ch->M);
    free(ch->rel);
    if (ch->r) gsl_rng_free(ch->r);
    free(ch->drop);
    free(ch->log_rate);
    free(ch->beta);
    free(ch->pip);
    free(ch->size);
    free(ch->coef);
    free(ch->rb);
    bsl_rb_work_free(&ch->rbw);
    bsl_modelset_free(&ch->models);
    bsl_vs_result_free(&ch->draws);
}

/* What every chain reads (shared, read-only) and the chains' states. */
typedef struct bd_ctx {
    bd_chain *chs;
    const bsl_vs_problem *pb;
    const bsl_run *run;
    const bd_settings *st;
    const bsl_rel_settings *rs;
    const double *w;
    double W_all;
    size_t n_usable;
} bd_ctx;

/* Run one chain (bsl_chain_fn): burn blocks, then iter blocks of duration
 * rho; one progress unit per block. */
static int chain_run(void *ctx, size_t chain, unsigned long seed, bsl_ticker *tick)
{
    const bd_ctx *x = ctx;
    bd_chain *ch = &x->chs[chain];
    const bsl_vs_problem *pb = x->pb;
    const bsl_run *run = x->run;
    const bd_settings *st = x->st;
    const double *w = x->w;
    if (!tick->resumed) {
        gsl_rng_set(ch->r, seed);
        ch->W_dormant = x->W_all;
        ch->dormant = x->n_usable;
        ch->b = 0;
    }
    ch->rc = BASEL_OK; /* a paused chain goes on */
    const size_t blocks = run->burn + run->iter;
    while (ch->b < blocks && !ch->rc) {
        const size_t b = ch->b;
        const int keep = b >= run->burn;
        const size_t it = keep ? b - run->burn : 0;
        double t = 0;
        while (t < st->rho && !ch->rc) {
            double log_birth, log_swap;
            const double log_R = rates(ch, pb, st, w, ch->dormant, &log_birth, &log_swap);
            const double left = st->rho - t;
            if (log_R == -INFINITY) { /* no move possible: the state is absorbing */
                if (keep) accumulate(ch, pb, left, tick->trace, it);
                break;
            }
            /* the RB weight: the expected time in this state before the
             * block ends, E min(H, left) = (1 - e^{-R left}) / R */
            const double hold = exp(-log_R), weight = -expm1(-left / hold) * hold;
            if (keep) accumulate(ch, pb, weight, tick->trace, it);
            t += gsl_ran_exponential(ch->r, hold);
            if (t >= st->rho) break; /* the next event falls after the block's end */
            transition(ch, pb, w, log_R, log_birth, log_swap, &ch->dormant);
        }
        /* the state at the block's end is a draw from pi (above): its
         * conditionals, every rb_every kept blocks */
        if (keep && st->rb_every && it % st->rb_every == 0 && !ch->rc) {
            double evals = 0;
            ch->rc = bsl_rb_pass(ch->M, pb, &st->blocks, st->log_prior, &ch->rbw, ch->rb, &evals);
            ch->n_rb++;
        }
        if (bsl_cmodel_draw_nuisance(ch->M, ch->r) != BASEL_OK && !ch->rc) ch->rc = BASEL_ENUMERIC;
        /* the move on the inputs' relevance: pi-invariant like the Gibbs
         * update above, at a fixed time (bd_relevance.h) */
        if (ch->rel && (b + 1) % x->rs->every == 0 && !ch->rc) {
            ch->rc = bsl_rel_move(ch->rel, x->rs, ch->r);
            ch->M = bsl_rel_model(ch->rel);
            /* the move's annealing path may have changed the atoms: the
             * dormant weight and count from the new set */
            const size_t k = bsl_cmodel_k(ch->M);
            const size_t *act = bsl_cmodel_active(ch->M);
            ch->W_dormant = x->W_all;
            for (size_t i = 0; i < k; i++) ch->W_dormant -= w[act[i]];
            ch->dormant = x->n_usable - k;
        }
        if (ch->rel && keep) bsl_rel_accumulate(ch->rel, x->rs);
        double sc[2] = {0, 0}; /* the model's nuisance parameters (ridge: sigma2, lambda) */
        bsl_cmodel_nuisance(ch->M, sc, NULL);
        if (keep) {
            ch->sigma2_sum += sc[0];
            ch->lambda_sum += sc[1];
        }
        if (keep && run->keep_draws && it % run->thin == 0)
            ch->rc = bsl_vs_add_draw(&ch->draws, (unsigned)chain, bsl_cmodel_active(ch->M), bsl_cmodel_k(ch->M), sc);
        ch->b = b + 1; /* a boundary: the state is complete (chains.h) */
        if (bsl_tick(tick, 1)) ch->rc = BASEL_ECANCELLED;
    }
    if (ch->b == blocks) bsl_trace_finish(tick->trace); /* not when paused */
    return ch->rc;
}

/* A chain's state in a checkpoint (ckpt.h): everything chain_run reads
 * again; drop, log_rate and beta are scratch, refilled before each use. */
static void chain_io(void *ctx, size_t chain, bsl_ck *k)
{
    const bd_ctx *x = ctx;
    bd_chain *ch = &x->chs[chain];
    const size_t m = x->pb->D->m, c = x->pb->D->c, kc = x->pb->kmax + 1;
    bsl_ck_rng(k, ch->r);
    if (ch->rel) { /* eta first: the model's columns are computed under it */
        bsl_rel_io(ch->rel, x->rs, k);
        ch->M = bsl_rel_model(ch->rel);
    }
    bsl_ck_cmodel(k, ch->M);
    bsl_ck_val(k, ch->W_dormant);
    bsl_ck_val(k, ch->b);
    bsl_ck_val(k, ch->dormant);
    bsl_ck_doubles(k, ch->pip, m);
    bsl_ck_doubles(k, ch->size, kc);
    bsl_ck_doubles(k, ch->coef, m * c);
    bsl_ck_val(k, ch->total);
    bsl_ck_modelset(k, &ch->models, m);
    bsl_ck_draws(k, &ch->draws);
    bsl_ck_val(k, ch->events);
    bsl_ck_val(k, ch->births);
    bsl_ck_val(k, ch->deaths);
    bsl_ck_val(k, ch->null_births);
    bsl_ck_val(k, ch->swaps);
    bsl_ck_val(k, ch->swaps_tried);
    bsl_ck_val(k, ch->sigma2_sum);
    bsl_ck_val(k, ch->lambda_sum);
    bsl_ck_doubles(k, ch->rb, m);
    bsl_ck_val(k, ch->n_rb);
    bsl_ck_val(k, ch->rc);
}

/* The kept blocks of each chain (all iter of them unless the run was
 * interrupted, cs->partial); an interrupted run's paused traces are
 * finished here. Returns the blocks done by all chains, burn-in included. */
static double kept_blocks(const bd_chain *chs, size_t chains, const bsl_run *run, bsl_chains *cs, size_t *kept)
{
    double done = 0;
    for (size_t h = 0; h < chains; h++) {
        kept[h] = chs[h].b > run->burn ? chs[h].b - run->burn : 0;
        done += (double)chs[h].b;
        if (cs->partial && cs->traces && chs[h].b < run->burn + run->iter) bsl_trace_finish(&cs->traces[h]);
    }
    return done;
}

/* Pool the chains that kept blocks (every chain, unless the run was
 * interrupted) into res, in chain order. */
/* rb: the PIPs are the Rao-Blackwell passes' pooled average (every pass
 * a draw of the state from pi; a kept chain has made its first pass at the
 * end of its first kept block), each chain's its own */
static int merge(bsl_vs_result *res, bd_chain *chs, size_t chains, const bsl_run *run,
                 bsl_chains *cs, int rb)
{
    double passes = 0;
    const size_t m = res->m, c = res->c, kmax = res->kmax;
    size_t *kept = bsl_calloc(chains, sizeof *kept);
    if (!kept) return BASEL_ENOMEM;
    const double done = kept_blocks(chs, chains, run, cs, kept);
    size_t kept_all = 0, used = chains;
    for (size_t h = 0; h < chains; h++) kept_all += kept[h];
    if (cs->partial) {
        used = bsl_chains_keep(cs, kept);
        res->iter_done = done;
        res->iter_planned = (double)chains * (double)(run->burn + run->iter);
        res->chains = used;
    }
    double total = 0;
    res->pip_chain = used ? bsl_calloc(used * m, sizeof(double)) : NULL;
    if (!res->pip_chain) {
        free(kept);
        return used ? BASEL_ENOMEM : BASEL_INTERRUPTED;
    }
    for (size_t h = 0, hh = 0; h < chains; h++) {
        bd_chain *ch = &chs[h];
        if (!kept[h]) continue;
        total += ch->total;
        passes += ch->n_rb;
        for (size_t a = 0; a < m; a++) {
            res->pip[a] += rb ? ch->rb[a] : ch->pip[a];
            res->pip_chain[hh * m + a] = rb ? ch->rb[a] / ch->n_rb : ch->pip[a] / ch->total;
        }
        hh++;
        for (size_t a = 0; a < m * c; a++) res->coef_bma[a] += ch->coef[a];
        for (size_t k = 0; k <= kmax; k++) res->size_prob[k] += ch->size[k];
        if (bsl_modelset_absorb(&res->models, &ch->models) || bsl_chains_append_draws(res, &ch->draws)) {
            free(kept);
            return BASEL_ENOMEM;
        }
        res->evaluations += ch->events;
        /* the model's nuisance parameters, in its order (sigma2_sum: the
         * first, lambda_sum: the second) */
        res->nu_mean[0] += ch->sigma2_sum / (double)kept_all;
        res->nu_mean[1] += ch->lambda_sum / (double)kept_all;
    }
    free(kept);
    for (size_t a = 0; a < m; a++) res->pip[a] /= rb ? passes : total;
    for (size_t a = 0; a < m * c; a++) res->coef_bma[a] /= total;
    for (size_t k = 0; k <= kmax; k++) res->size_prob[k] /= total;
    for (size_t i = 0; i < res->models.n; i++) res->models.items[i].weight /= total;
    res->models.dropped_weight /= total;
    bsl_modelset_sort(&res->models);
    return bsl_chains_vs_diagnostics(cs, res);
}

/* A Rao-Blackwell pass costs about m scores (a batched pass over the
 * dormant atoms) and a block a few events' O(k) each, so by default one
 * pass every m / 10 blocks (at least 10): about a tenth more CPU. Below
 * 100 passes a chain the pooled conditionals would rest on too few states,
 * so the default keeps the time averages there. */
#define BD_RB_PASSES_MIN 100

/* --bd-rb-every: the passes and their neighbour pairs. By default on a
 * linear basis with a dense Gram and a model that scores pairs (Gaussian
 * targets), with enough passes; an explicit count runs them on any
 * design (without pairs where there are none), but not with --relevance,
 * whose moves change the atoms' columns. */
static int rb_settings(bd_settings *st, const bsl_vs_problem *pb, const bsl_run *run, const bsl_rel_settings *rs,
                       basel_error *err)
{
    const bsl_design *D = pb->D;
    const bsl_model_ops *ops = pb->model ? pb->model : bsl_model_ops_for(&pb->prior);
    const int pairs = D->G && !D->base && ops->pair_scores;
    const int linear = D->dict && D->dict->kind == BSL_BASIS_LINEAR;
    const size_t every = BSL_MAX((D->m + 9) / 10, (size_t)10);
    const size_t auto_every = pairs && linear && !rs->on && run->iter / every >= BD_RB_PASSES_MIN ? every : 0;
    st->blocks = (bsl_rb_blocks){0};
    st->log_prior = NULL;
    int rc = bsl_params_size(run->params, "bd-rb-every", auto_every, 0, (size_t)1 << 40, &st->rb_every, err);
    if (rc) return rc;
    if (st->rb_every && rs->on)
        return bsl_fail(err, BASEL_EINVAL, "--bd-rb-every needs --relevance none (its moves change the atoms)");
    if (!st->rb_every) return BASEL_OK;
    st->log_prior = bsl_malloc(pb->kmax + 2, sizeof *st->log_prior);
    if (!st->log_prior || (pairs && bsl_rb_blocks_make(D, &st->blocks))) {
        free(st->log_prior);
        st->log_prior = NULL;
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k <= pb->kmax + 1; k++) st->log_prior[k] = bsl_mprior_log(&pb->mprior, k);
    return BASEL_OK;
}

static void rb_settings_free(bd_settings *st)
{
    bsl_rb_blocks_free(&st->blocks);
    free(st->log_prior);
}

int bsl_bd_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
               basel_error *err)
{
    const bsl_design *D = pb->D;
    bd_settings st;
    int rc = bsl_params_double(run->params, "nu", 1.0, 1e-6, 1e6, &st.nu, err);
    if (!rc) rc = bsl_params_double(run->params, "rho", 1.0, 1e-6, 1e6, &st.rho, err);
    if (!rc) rc = bsl_params_double(run->params, "swap", BD_SWAP_DEFAULT, 0, 1e6, &st.xi, err);
    size_t max_models = 20000;
    if (!rc) rc = bsl_params_size(run->params, "max-models", 20000, 1, (size_t)1 << 40, &max_models, err);
    if (rc) return rc;
    const char *birth = bsl_params_get(run->params, "birth");
    if (birth && strcmp(birth, "uniform") != 0 && strcmp(birth, "informed") != 0)
        return bsl_fail(err, BASEL_EINVAL, "--birth '%s': expected uniform or informed", birth);
    st.informed = birth && strcmp(birth, "informed") == 0;
    bsl_rel_settings rs;
    if ((rc = bsl_rel_settings_read(&rs, run->params, D, err))) return rc;
    const size_t chains = run->chains;
    if ((rc = rb_settings(&st, pb, run, &rs, err))) return rc;
    double *w = birth_weights(pb, st.informed);
    bd_chain *chs = bsl_calloc(chains, sizeof *chs);
    gsl_ran_discrete_t *alias = w ? gsl_ran_discrete_preproc(D->m, w) : NULL;
    if (!w || !chs || !alias) {
        free(w);
        free(chs);
        if (alias) gsl_ran_discrete_free(alias);
        rb_settings_free(&st);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    double W_all = 0;
    size_t n_usable = 0;
    for (size_t j = 0; j < D->m; j++) {
        W_all += w[j];
        n_usable += D->usable[j];
    }
    rc = bsl_vs_result_init(res, D->m, D->c, pb->kmax, chains) ? bsl_fail(err, BASEL_ENOMEM, "out of memory") : BASEL_OK;
    for (size_t h = 0; h < chains && !rc; h++) {
        rc = chain_alloc(&chs[h], pb, run, &rs, max_models, st.blocks.n, err);
        chs[h].birth = alias;
    }
    const double t0 = omp_get_wtime();
    bsl_chains cs = {.chains = chains, .max_time = run->max_time, .threads = run->threads, .seed = run->seed,
                     .units = run->burn + run->iter, .progress = run->progress,
                     .progress_user = run->progress_user, .trace_m = D->m,
                     .trace_iter = run->iter, .trace_len = BD_TRACE_LEN,
                     .ckpt = {run->checkpoint, run->checkpoint_every, run->restart, run->run_id, chain_io},
                     .ranks = run->ranks, .err = err};
    if (!rc) {
        bd_ctx x = {chs, pb, run, &st, &rs, w, W_all, n_usable};
        rc = bsl_chains_run(&cs, chain_run, &x);
        if (rc == BASEL_INTERRUPTED && cs.partial) rc = BASEL_OK; /* a fit of what was done */
        else if (cs.reported) (void)0; /* the driver said what happened */
        else if (rc == BASEL_ECANCELLED) bsl_fail(err, rc, "cancelled");
        else if (rc == BASEL_ENUMERIC) bsl_fail(err, rc, "numerical failure refactorising a model");
        else if (rc == BASEL_EIO) bsl_fail(err, rc, "cannot write the draws to their temporary file");
        else if (rc) bsl_fail(err, rc, "out of memory");
    }
    for (size_t h = 0; h < chains && !rc; h++) /* a subset visited without a score (model.h fault) */
        if (chs[h].M && bsl_cmodel_fault(chs[h].M)) rc = bsl_fail(err, BASEL_EINVAL, "%s", bsl_cmodel_fault(chs[h].M));
    if (!rc && (rc = merge(res, chs, chains, run, &cs, st.rb_every > 0)))
        bsl_fail(err, rc, rc == BASEL_INTERRUPTED ? "interrupted before any iteration was kept" : "out of memory");
    if (!rc && rs.on) {
        bsl_rel_chain **rcs = bsl_malloc(chains, sizeof *rcs);
        for (size_t h = 0; h < chains && rcs; h++) rcs[h] = chs[h].rel;
        if (!rcs || bsl_rel_merge(res, &rs, rcs, chains)) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        free(rcs);
    }
    bsl_chains_free(&cs);
    if (!rc) {
        double events = 0, births = 0, deaths = 0, nulls = 0, swaps = 0, tried = 0;
        for (size_t h = 0; h < chains; h++) {
            events += chs[h].events;
            births += chs[h].births;
            deaths += chs[h].deaths;
            nulls += chs[h].null_births;
            swaps += chs[h].swaps;
            tried += chs[h].swaps_tried;
        }
        res->seconds = omp_get_wtime() - t0;
        /* every event proposes a change of the model; thinned births and
         * refused swaps leave it as it was */
        res->moves_proposed = births + deaths + nulls + tried;
        res->moves_accepted = births + deaths + swaps;
        char relnote[96] = "";
        if (rs.on)
            snprintf(relnote, sizeof relnote, "; %.0f of %.0f relevance moves accepted (one every %zu blocks)",
                     res->input_accepted, res->input_proposed, rs.every);
        char rbnote[96] = "";
        if (st.rb_every)
            snprintf(rbnote, sizeof rbnote, "; pip = rao-blackwell%s, a pass every %zu blocks",
                     st.blocks.n ? " over neighbour pairs" : "", st.rb_every);
        snprintf(res->engine_note, sizeof res->engine_note,
                 "%.0f events (%.0f births, %.0f deaths, %.0f thinned births, %.0f of %.0f swaps made); "
                 "nu = %g, rho = %g, swap = %g, %s births%s%s",
                 events, births, deaths, nulls, swaps, tried, st.nu, st.rho, st.xi,
                 st.informed ? "informed" : "uniform", relnote, rbnote);
    }
    for (size_t h = 0; h < chains; h++) chain_free(&chs[h]);
    free(chs);
    free(w);
    gsl_ran_discrete_free(alias);
    rb_settings_free(&st);
    return rc;
}
