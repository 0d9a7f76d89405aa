/*
 * rbf.c: running free-centre RBF chains (rbf.h): options, the annealing
 * schedule and the best state visited (paper 002 §4), the full-Bayes run
 * with its posterior of k and kept draws, predictions and accessors.
 * Chains run in parallel (OpenMP), each with its own mt19937 seeded by
 * bsl_mix_seed(seed, chain); results are combined in chain order, so they
 * do not depend on the thread count.
 */
#include "rbf_chain.h"
#include "rbf_result.h"

#include "../../model/model.h"
#include "../../run/chains.h"
#include "../../run/ckpt.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void bsl_rbf_options_default(bsl_rbf_options *o)
{
    memset(o, 0, sizeof *o);
    o->radial = BSL_BASIS_CUBIC;
    o->width = 1.0;
    o->linear_term = 1;
    o->kmax = 50;
    o->temperature_mode = BSL_RBF_ANNEAL;
    o->criterion = &bsl_coef_mdl;
    o->schedule = BSL_RBF_GEOMETRIC;
    o->t0 = 1.0;
    o->t_end = 1e-3;
    o->box_enlarge = 1.2;
    o->zeta = 0;
    o->rw_scale = 0.05;
    o->p_rw = 0.8;
    for (int i = 0; i < BSL_RBF_NMOVES; i++) o->move_weights[i] = 0.2;
    o->iter = 20000;
    o->burn = 5000;
    o->chains = 4;
    o->keep = 400;
    o->k_start = 0;
    o->seed = 1;
    o->a0 = 0;
    o->b0 = 0;
    o->a_delta = 2;
    o->b_delta = 10;
    o->a_lambda = 0.5;
    o->b_lambda = 1e-3;
    o->sample_delta2 = 1;
    o->sample_lambda = 1;
    o->delta2_init = 10;
    o->lambda_init = 1;
    o->sample_width = 0;
    o->width_step = 0.3;
    o->width_every = 10;
}

/* ---- results ---- */

int rbf_draw_alloc(rbf_draw *dr, size_t k, size_t d, size_t c, size_t q)
{
    const size_t m = q + k;
    memset(dr, 0, sizeof *dr);
    dr->k = k;
    dr->centres = bsl_calloc(k * d + 1, sizeof(double));
    dr->coef = bsl_calloc(m * c, sizeof(double));
    dr->lpk = bsl_calloc(m * (m + 1) / 2, sizeof(double));
    dr->shrink = bsl_calloc(c, sizeof(double));
    dr->scale2 = bsl_calloc(c, sizeof(double));
    if (!dr->centres || !dr->coef || !dr->lpk || !dr->shrink || !dr->scale2) {
        rbf_draw_free(dr);
        return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

void rbf_draw_free(rbf_draw *dr)
{
    free(dr->centres);
    free(dr->coef);
    free(dr->lpk);
    free(dr->shrink);
    free(dr->scale2);
    memset(dr, 0, sizeof *dr);
}

/* Snapshots of k per chain for its R-hat and ESS (chains.h traces). */
#define RBF_TRACE_LEN 1000

bsl_rbf_result *rbf_result_new(void)
{
    bsl_rbf_result *r = bsl_calloc(1, sizeof(bsl_rbf_result));
    if (r) r->k_rhat = r->k_ess_bulk = r->k_ess_tail = NAN;
    return r;
}

void bsl_rbf_free(bsl_rbf_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->ndraws; i++) rbf_draw_free(&r->draws[i]);
    free(r->draws);
    free(r->k_post);
    free(r->lo);
    free(r->side);
    free(r);
}

/* The network of the chain's current state into dr (allocated for at
 * least its k): least squares for anneal (paper 002 §4 step 4), the
 * conjugate posterior given mu and delta^2 for rj (rbf_result.h). */
static void capture(bsl_rbf_chain *ch, rbf_draw *dr)
{
    const rbf_state *s = &ch->st[ch->cur];
    const size_t m = ch->q + s->k, c = ch->c;
    const double n = (double)ch->n;
    dr->k = s->k;
    dr->width = s->width;
    memcpy(dr->centres, s->mu, s->k * ch->d * sizeof(double));
    bsl_cmodel_gram_factor(s->M, dr->lpk); /* D'D: the same columns for every output */
    bsl_cmodel_coef_mean(s->M, dr->coef); /* shrink_o (D'D)^{-1} D'y_o, m x c in D's column order */
    for (size_t o = 0; o < c; o++) {
        const double shrink = ch->mode == BSL_RBF_ANNEAL ? 1.0 : ch->delta2[o] / (1 + ch->delta2[o]);
        dr->shrink[o] = shrink;
        const double rss = bsl_cmodel_post_ss(s->M, o); /* y'y - shrink y'H y */
        if (ch->mode == BSL_RBF_ANNEAL) {
            dr->dof = n - (double)m;
            dr->scale2[o] = rss / dr->dof;
        } else {
            dr->dof = 2 * ch->o.a0 + n;
            dr->scale2[o] = (ch->o.b0 + 0.5 * rss) / (ch->o.a0 + 0.5 * n);
        }
    }
}

/* temperature at iteration i of iter (paper 002 §4: T_i decreasing) */
static double temperature(const bsl_rbf_options *o, size_t i, size_t iter)
{
    const double f = iter > 1 ? (double)i / (double)(iter - 1) : 1.0;
    switch (o->schedule) {
    case BSL_RBF_LINEAR: return o->t0 + (o->t_end - o->t0) * f;
    case BSL_RBF_LOG: { /* T_i = t0 / (1 + a log(1 + i)), reaching t_end at the end */
        const double a = (o->t0 / o->t_end - 1) / log((double)BSL_MAX(iter, 2));
        return o->t0 / (1 + a * log1p((double)i));
    }
    default: return o->t0 * pow(o->t_end / o->t0, f);
    }
}

/* per-chain output */
typedef struct chain_out {
    double best;         /* anneal: best criterion */
    size_t best_k;
    double best_width;
    double *best_mu;     /* kmax x d */
    double *k_count;     /* kmax + 1 */
    rbf_draw *draws;     /* rj: nkeep */
    size_t nkeep, ndone;
    size_t i;            /* the next move (burn-in included) */
    int rc;
} chain_out;

/* Start at k_start centres uniform on the box (fewer if collinear). */
void bsl_rbf_chain_start(bsl_rbf_chain *ch, gsl_rng *r)
{
    rbf_state *s = &ch->st[ch->cur];
    for (size_t j = 0; j < BSL_MIN(ch->o.k_start, rbf_kmax(ch)) && !ch->discrete; j++) {
        for (size_t a = 0; a < ch->d; a++)
            ch->u[a] = ch->lo[a] + ch->side[a] * gsl_rng_uniform(r);
        rbf_state_append(ch, s, ch->u, 0);
    }
    rbf_state_loglik(ch, s);
}

static void anneal_finish(bsl_rbf_chain *ch, chain_out *out);

/* The start of an annealing run: the best state so far is the first. */
static void anneal_start(bsl_rbf_chain *ch, chain_out *out)
{
    out->best = bsl_rbf_chain_log_target(ch);
    out->best_k = bsl_rbf_chain_k(ch);
    out->best_width = bsl_rbf_chain_width(ch);
    memcpy(out->best_mu, bsl_rbf_chain_centres(ch), out->best_k * ch->d * sizeof(double));
}

static void run_anneal(bsl_rbf_chain *ch, gsl_rng *r, chain_out *out, bsl_ticker *tick)
{
    const bsl_rbf_options *o = &ch->o;
    for (; out->i < o->iter; out->i++) {
        /* a boundary: the moves before i are done (chains.h) */
        if (bsl_tick(tick, 1)) {
            out->rc = BASEL_ECANCELLED;
            return;
        }
        const size_t i = out->i;
        bsl_rbf_chain_step(ch, r, temperature(o, i, o->iter));
        const double lt = bsl_rbf_chain_log_target(ch);
        if (lt > out->best) { /* keep the best state visited */
            out->best = lt;
            out->best_k = bsl_rbf_chain_k(ch);
            out->best_width = bsl_rbf_chain_width(ch);
            memcpy(out->best_mu, bsl_rbf_chain_centres(ch), out->best_k * ch->d * sizeof(double));
        }
    }
    anneal_finish(ch, out);
}

/* The end of an annealing run: the best network, freshly factorised, for
 * least squares. Should that fail (a column the O(k^2) updates admitted
 * falls below the rank tolerance when factorised afresh: smooth kernels at
 * a wide width), the final state, which the annealing has brought next to
 * it: afresh, or else as the updates left it (the factor the chain used). */
static void anneal_finish(bsl_rbf_chain *ch, chain_out *out)
{
    rbf_state *s = &ch->st[1 - ch->cur];
    rbf_state_copy(ch, s, &ch->st[ch->cur]);
    s->k = out->best_k;
    s->width = out->best_width;
    memcpy(s->mu, out->best_mu, out->best_k * ch->d * sizeof(double));
    if (rbf_state_refresh(ch, s) != BASEL_OK) {
        rbf_state_copy(ch, s, &ch->st[ch->cur]);
        if (rbf_state_refresh(ch, s) != BASEL_OK) rbf_state_copy(ch, s, &ch->st[ch->cur]);
        rbf_state_loglik(ch, s);
        out->best = rbf_log_target(ch, s);
    }
    ch->cur = 1 - ch->cur;
    out->rc = BASEL_OK;
    if (out->rc == BASEL_OK) capture(ch, &out->draws[0]);
    out->ndone = out->rc == BASEL_OK;
}

static void run_full(bsl_rbf_chain *ch, gsl_rng *r, chain_out *out, bsl_ticker *tick)
{
    const bsl_rbf_options *o = &ch->o;
    const size_t every = BSL_MAX(o->iter / BSL_MAX(out->nkeep, 1), 1);
    for (; out->i < o->burn + o->iter; out->i++) {
        /* a boundary: the moves before i are done (chains.h) */
        if (bsl_tick(tick, 1)) {
            out->rc = BASEL_ECANCELLED;
            return;
        }
        const size_t i = out->i;
        bsl_rbf_chain_step(ch, r, 1.0);
        if (i < o->burn) continue;
        const size_t t = i - o->burn;
        out->k_count[bsl_rbf_chain_k(ch)] += 1;
        bsl_trace_record(tick->trace, t, NULL, bsl_rbf_chain_k(ch));
        if ((t + 1) % every == 0 && out->ndone < out->nkeep) capture(ch, &out->draws[out->ndone++]);
    }
}

static int check_run(const bsl_rbf_options *o, basel_error *err)
{
    if (!o || o->chains == 0 || o->iter == 0)
        return bsl_fail(err, BASEL_EINVAL, "rbf: chains and iter must be at least 1");
    if (o->temperature_mode != BSL_RBF_ANNEAL && o->temperature_mode != BSL_RBF_FULL)
        return bsl_fail(err, BASEL_EINVAL, "rbf: unknown mode %d", o->temperature_mode);
    if (o->temperature_mode == BSL_RBF_ANNEAL &&
        (!(o->t0 > 0 && o->t_end > 0 && isfinite(o->t0) && isfinite(o->t_end)) ||
         o->schedule < BSL_RBF_LINEAR || o->schedule > BSL_RBF_LOG))
        return bsl_fail(err, BASEL_EINVAL, "rbf: temperatures must be positive, schedule "
                                           "linear, geometric or log");
    if (o->candidates && o->temperature_mode == BSL_RBF_ANNEAL)
        return bsl_fail(err, BASEL_EINVAL, "rbf: candidate sets are for the rj sampler");
    return BASEL_OK;
}

static void free_outs(chain_out *outs, bsl_rbf_chain **chains, gsl_rng **rngs, size_t nch)
{
    for (size_t i = 0; outs && i < nch; i++) {
        for (size_t t = 0; outs[i].draws && t < outs[i].nkeep; t++) rbf_draw_free(&outs[i].draws[t]);
        free(outs[i].draws);
        free(outs[i].best_mu);
        free(outs[i].k_count);
    }
    for (size_t i = 0; chains && i < nch; i++) bsl_rbf_chain_free(chains[i]);
    for (size_t i = 0; rngs && i < nch; i++)
        if (rngs[i]) gsl_rng_free(rngs[i]);
    free(outs);
    free(chains);
    free(rngs);
}

static int setup_chain(const double *X, size_t n, size_t d, const double *Y, size_t c,
                       const bsl_rbf_options *o, size_t i, size_t nkeep, bsl_rbf_chain **ch,
                       gsl_rng **r, chain_out *out, basel_error *err)
{
    int rc = bsl_rbf_chain_create(ch, X, n, d, Y, c, o, err);
    if (rc) return rc;
    *r = gsl_rng_alloc(gsl_rng_mt19937);
    const size_t q = (*ch)->q, kmax = o->kmax;
    out->nkeep = nkeep;
    out->best_mu = bsl_calloc(kmax * d + 1, sizeof(double));
    out->k_count = bsl_calloc(kmax + 1, sizeof(double));
    out->draws = bsl_calloc(nkeep, sizeof(rbf_draw));
    if (!*r || !out->best_mu || !out->k_count || !out->draws)
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t t = 0; t < nkeep; t++)
        if (rbf_draw_alloc(&out->draws[t], kmax, d, c, q))
            return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return BASEL_OK;
}

/* The chains, their generators and outputs (bsl_chain_fn's ctx). */
typedef struct rbf_ctx {
    bsl_rbf_chain **chains;
    gsl_rng **rngs;
    chain_out *outs;
} rbf_ctx;

/* Run chain i from its start (bsl_chain_fn; one progress unit per move). */
static int run_chain(void *ctx, size_t i, unsigned long seed, bsl_ticker *tick)
{
    const rbf_ctx *x = ctx;
    bsl_rbf_chain *ch = x->chains[i];
    x->outs[i].rc = BASEL_OK; /* a paused chain goes on */
    if (!tick->resumed) {
        gsl_rng_set(x->rngs[i], seed);
        bsl_rbf_chain_start(ch, x->rngs[i]);
        if (ch->o.temperature_mode == BSL_RBF_ANNEAL) anneal_start(ch, &x->outs[i]);
        x->outs[i].i = 0;
    }
    if (ch->o.temperature_mode == BSL_RBF_ANNEAL)
        run_anneal(ch, x->rngs[i], &x->outs[i], tick);
    else
        run_full(ch, x->rngs[i], &x->outs[i], tick);
    return x->outs[i].rc;
}

/* A loaded network the moves can work on (a file whose checksum was made
 * to match): each centre's atom is a distinct slot marked used, the used
 * slots are its k, each centre is its slot's, candidates are in range,
 * the centres and the width finite (a gauss width positive). Without it
 * a damaged slot index would be read as an atom. */
static int slots_consistent(const bsl_rbf_chain *ch, const rbf_state *s)
{
    const size_t kmax = ch->kmax, d = ch->d;
    size_t used = 0;
    for (size_t j = 0; j <= kmax; j++) {
        if (s->slot_used[j] > 1) return 0;
        used += s->slot_used[j];
    }
    const int width_ok = isfinite(s->width) && (ch->o.radial != BSL_BASIS_GAUSS || s->width > 0);
    if (used != s->k || !width_ok || !bsl_ck_within(s->mu, s->k * d, -DBL_MAX, DBL_MAX)) return 0;
    for (size_t j = 0; j < s->k; j++) {
        if (s->id[j] < ch->q || s->id[j] - ch->q > kmax || !s->slot_used[s->id[j] - ch->q]) return 0;
        if (ch->discrete && s->cand[j] >= ch->o.ncand) return 0;
        /* the centre is its slot's (the model's column is made from the slot) */
        if (memcmp(s->mu + j * d, s->slot_mu + (s->id[j] - ch->q) * d, d * sizeof *s->mu) != 0) return 0;
        for (size_t i = 0; i < j; i++)
            if (s->id[i] == s->id[j]) return 0;
    }
    return 1;
}

/* The loaded model holds exactly the always-in atoms 0 .. q - 1 and the
 * used slots' atoms, each once: a slot the model lacks would be removed
 * from it at the next death (a review found that SEGV in bsl_model_remove). */
static int model_matches(const bsl_rbf_chain *ch, const rbf_state *s)
{
    const size_t q = ch->q, k = bsl_cmodel_k(s->M), *act = bsl_cmodel_active(s->M);
    if (k != q + s->k) return 0;
    unsigned char *seen = calloc(q + ch->kmax + 1, 1);
    int ok = seen != NULL;
    for (size_t i = 0; i < k && ok; i++) {
        const size_t a = act[i];
        ok = a < q + ch->kmax + 1 && !seen[a] && (a < q || s->slot_used[a - q]);
        if (ok) seen[a] = 1;
    }
    free(seen);
    return ok;
}

/* The current network (ckpt.h): its centres and slots, then its model
 * through the model table (whose columns are the slots' centres, so they
 * come first). The spare network is scratch: every move copies the current
 * one into it before editing it (rbf_chain.h). */
static void state_io(bsl_ck *k, const bsl_rbf_chain *ch, rbf_state *s)
{
    const size_t kmax = ch->kmax, d = ch->d;
    bsl_ck_val(k, s->k);
    if (!k->rc && s->k > kmax) k->rc = BASEL_EPARSE;
    bsl_ck_doubles(k, s->mu, kmax * d + 1);
    bsl_ck_bytes(k, s->cand, (kmax + 1) * sizeof *s->cand);
    bsl_ck_bytes(k, s->id, (kmax + 1) * sizeof *s->id);
    bsl_ck_doubles(k, s->slot_mu, (kmax + 1) * d);
    bsl_ck_bytes(k, s->slot_used, kmax + 1);
    s->last_id = -1; /* a column cache: recomputed, the same bits */
    bsl_ck_val(k, s->width); /* before the model: its columns are evaluated at it */
    if (!k->rc && k->load && !slots_consistent(ch, s)) k->rc = BASEL_EPARSE;
    bsl_ck_cmodel(k, s->M);
    if (!k->rc && k->load && !model_matches(ch, s)) k->rc = BASEL_EPARSE;
    bsl_ck_val(k, s->log_lik);
}

/* A chain's state (ckpt.h): the current network, the hyperparameters, the
 * counts, and what it has kept. The rest of the chain (box, dictionary,
 * scratch) is fixed at create time or refilled. */
static void chain_io(void *ctx, size_t i, bsl_ck *k)
{
    const rbf_ctx *x = ctx;
    bsl_rbf_chain *ch = x->chains[i];
    chain_out *out = &x->outs[i];
    const size_t d = ch->d, c = ch->c, kmax = ch->o.kmax, m = ch->q + kmax;
    bsl_ck_rng(k, x->rngs[i]);
    bsl_ck_val(k, ch->cur);
    if (!k->rc && ch->cur != 0 && ch->cur != 1) k->rc = BASEL_EPARSE;
    if (!k->rc) state_io(k, ch, &ch->st[ch->cur]);
    bsl_ck_doubles(k, ch->delta2, c);
    bsl_ck_val(k, ch->lambda);
    bsl_ck_val(k, ch->since_refresh);
    if (ch->discrete) bsl_ck_bytes(k, ch->is_cand_active, ch->o.ncand);
    bsl_ck_doubles(k, ch->proposed, BSL_RBF_NMOVES);
    bsl_ck_doubles(k, ch->accepted, BSL_RBF_NMOVES);
    bsl_ck_val(k, ch->width_clock); /* the sampled width's schedule and counts */
    bsl_ck_val(k, ch->width_proposed);
    bsl_ck_val(k, ch->width_accepted);
    bsl_ck_val(k, out->i);
    bsl_ck_val(k, out->best);
    bsl_ck_val(k, out->best_k);
    bsl_ck_val(k, out->best_width);
    bsl_ck_doubles(k, out->best_mu, kmax * d + 1);
    bsl_ck_doubles(k, out->k_count, kmax + 1);
    bsl_ck_val(k, out->ndone);
    if (!k->rc && (out->ndone > out->nkeep || out->best_k > kmax)) k->rc = BASEL_EPARSE;
    for (size_t t = 0; t < out->ndone && !k->rc; t++) {
        rbf_draw *dr = &out->draws[t];
        bsl_ck_val(k, dr->k);
        if (!k->rc && dr->k > kmax) k->rc = BASEL_EPARSE; /* its centres are read up to k */
        bsl_ck_doubles(k, dr->centres, kmax * d + 1);
        bsl_ck_doubles(k, dr->coef, m * c);
        bsl_ck_doubles(k, dr->lpk, m * (m + 1) / 2);
        bsl_ck_doubles(k, dr->shrink, c);
        bsl_ck_doubles(k, dr->scale2, c);
        bsl_ck_val(k, dr->dof);
        bsl_ck_val(k, dr->width);
    }
    bsl_ck_val(k, out->rc);
}

/* An interrupted run (chains.h cs->partial): the paused chains end as a
 * finished one would (anneal: their best network so far), those that did
 * nothing are left out, and the traces are cut to what every chain that
 * kept a move did. BASEL_INTERRUPTED when no chain has a network to give. */
static int partial(bsl_chains *cs, const rbf_ctx *x, size_t nch, const bsl_rbf_options *o, bsl_rbf_result *res)
{
    const int full = o->temperature_mode == BSL_RBF_FULL;
    size_t *kept = bsl_calloc(nch, sizeof *kept), draws = 0;
    if (!kept) return BASEL_ENOMEM;
    for (size_t i = 0; i < nch; i++) {
        chain_out *out = &x->outs[i];
        res->iter_done += (double)out->i;
        if (out->rc == BASEL_ECANCELLED) out->rc = BASEL_OK; /* paused */
        if (full) {
            kept[i] = out->i > o->burn ? out->i - o->burn : 0;
        } else if (out->i == 0) { /* not started: no best network */
            out->best = -INFINITY;
            out->ndone = 0;
        } else {
            kept[i] = out->i;
            if (out->i < o->iter) anneal_finish(x->chains[i], out);
        }
        draws += out->rc == BASEL_OK ? out->ndone : 0;
    }
    res->iter_planned = (double)nch * (double)(o->iter + (full ? o->burn : 0));
    bsl_chains_keep(cs, kept);
    free(kept);
    return draws ? BASEL_OK : BASEL_INTERRUPTED;
}

/* Move the chains' networks into the result (chain order). */
static int collect(bsl_rbf_result *res, chain_out *outs, bsl_rbf_chain **chains, size_t nch,
                   basel_error *err)
{
    size_t total = 0, best = 0;
    for (size_t i = 0; i < nch; i++) {
        if (outs[i].rc) return bsl_fail(err, outs[i].rc, "rbf: chain %zu: singular design", i + 1);
        total += outs[i].ndone;
        if (outs[i].best > outs[best].best) best = i;
        double p[BSL_RBF_NMOVES], a[BSL_RBF_NMOVES];
        bsl_rbf_chain_counts(chains[i], p, a);
        for (int m = 0; m < BSL_RBF_NMOVES; m++) {
            res->proposed[m] += p[m];
            res->accepted[m] += a[m];
        }
        res->width_proposed += chains[i]->width_proposed;
        res->width_accepted += chains[i]->width_accepted;
    }
    if (res->mode == BSL_RBF_ANNEAL) {
        res->score = outs[best].best;
        total = 1;
    }
    res->draws = bsl_calloc(total, sizeof(rbf_draw));
    if (!res->draws) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (res->mode == BSL_RBF_ANNEAL) {
        res->draws[0] = outs[best].draws[0];
        memset(&outs[best].draws[0], 0, sizeof(rbf_draw));
        res->ndraws = 1;
        res->width = res->draws[0].width;
        return BASEL_OK;
    }
    res->k_post = bsl_calloc(res->kmax + 1, sizeof(double));
    if (!res->k_post) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    double nk = 0;
    for (size_t i = 0; i < nch; i++) {
        for (size_t k = 0; k <= res->kmax; k++) {
            res->k_post[k] += outs[i].k_count[k];
            nk += outs[i].k_count[k];
        }
        for (size_t t = 0; t < outs[i].ndone; t++) {
            res->draws[res->ndraws++] = outs[i].draws[t];
            memset(&outs[i].draws[t], 0, sizeof(rbf_draw));
        }
    }
    for (size_t k = 0; k <= res->kmax; k++) res->k_post[k] /= nk;
    if (res->sample_width && res->ndraws) { /* the reported width: the kept draws' mean */
        double w = 0;
        for (size_t t = 0; t < res->ndraws; t++) w += res->draws[t].width / (double)res->ndraws;
        res->width = w;
    }
    return BASEL_OK;
}

int bsl_rbf_fit(const double *X, size_t n, size_t d, const double *Y, size_t c,
                const bsl_rbf_options *o, bsl_rbf_result **out, basel_error *err)
{
    *out = NULL;
    int rc = check_run(o, err);
    if (rc) return rc;
    const size_t nch = o->chains;
    const size_t nkeep = o->temperature_mode == BSL_RBF_ANNEAL
                             ? 1
                             : BSL_MAX((o->keep + nch - 1) / nch, (size_t)1);
    bsl_rbf_chain **chains = bsl_calloc(nch, sizeof *chains);
    gsl_rng **rngs = bsl_calloc(nch, sizeof *rngs);
    chain_out *outs = bsl_calloc(nch, sizeof *outs);
    bsl_rbf_result *res = rbf_result_new();
    if (!chains || !rngs || !outs || !res) {
        rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < nch && !rc; i++)
        rc = setup_chain(X, n, d, Y, c, o, i, nkeep, &chains[i], &rngs[i], &outs[i], err);
    if (rc) goto done;
    const int full = o->temperature_mode == BSL_RBF_FULL;
    bsl_chains cs = {.chains = nch, .threads = o->threads, .seed = o->seed,
                     .units = o->iter + (full ? o->burn : 0), .progress = o->progress,
                     .progress_user = o->progress_user,
                     .ckpt = {o->checkpoint, o->checkpoint_every, o->restart, o->run_id, chain_io},
                     .ranks = o->ranks, .err = err, .trace_m = 0, .trace_iter = o->iter,
                     .trace_len = full ? RBF_TRACE_LEN : 0};
    rbf_ctx x = {chains, rngs, outs};
    rc = bsl_chains_run(&cs, run_chain, &x);
    if (rc == BASEL_INTERRUPTED && cs.partial && (rc = partial(&cs, &x, nch, o, res)) == BASEL_INTERRUPTED)
        bsl_fail(err, rc, "rbf: interrupted before any network was kept");
    if (!rc && cs.traces) {
        bsl_conv kc;
        double rhat_none, ess_none;
        rc = bsl_chains_diagnostics(&cs, &rhat_none, &ess_none, NULL, &kc);
        res->k_rhat = kc.rhat, res->k_ess_bulk = kc.ess_bulk, res->k_ess_tail = kc.ess_tail;
        res->k_draws = cs.traces[0].L;
    }
    bsl_chains_free(&cs);
    if (rc) {
        if (cs.reported || rc == BASEL_INTERRUPTED) (void)0; /* said above, or by the driver */
        else if (rc == BASEL_ECANCELLED) bsl_fail(err, rc, "rbf: cancelled");
        else if (rc == BASEL_ENOMEM) bsl_fail(err, rc, "out of memory");
        else bsl_fail(err, rc, "rbf: chain %zu: singular design", cs.failed + 1);
        goto done;
    }
    res->seconds = cs.seconds;
    const double steps = (double)nch * (double)(o->iter + (full ? o->burn : 0));
    res->moves_per_sec = res->seconds > 0 ? steps / res->seconds : 0;
    res->mode = o->temperature_mode;
    res->radial = o->radial;
    res->width = o->width;
    res->sample_width = o->sample_width != 0;
    res->width_lo = o->width_lo;
    res->width_hi = o->width_hi;
    res->linear_term = o->linear_term != 0;
    res->criterion = o->criterion->id; /* FIT.json records the number */
    res->n = n;
    res->d = d;
    res->c = c;
    res->q = chains[0]->q;
    res->kmax = rbf_kmax(chains[0]);
    res->seed = o->seed;
    res->iter = o->iter;
    res->burn = o->burn;
    res->chains = nch;
    res->lo = bsl_calloc(d, sizeof(double));
    res->side = bsl_calloc(d, sizeof(double));
    if (!res->lo || !res->side) {
        rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(res->lo, chains[0]->lo, d * sizeof(double));
    memcpy(res->side, chains[0]->side, d * sizeof(double));
    rc = collect(res, outs, chains, nch, err);
done:
    free_outs(outs, chains, rngs, nch);
    if (rc) {
        bsl_rbf_free(res);
        return rc;
    }
    *out = res;
    return BASEL_OK;
}

/* ---- accessors ---- */

void bsl_rbf_k_convergence(const bsl_rbf_result *r, double *rhat, double *ess_bulk, double *ess_tail,
                           size_t *draws, size_t *chains)
{
    *rhat = r->k_rhat, *ess_bulk = r->k_ess_bulk, *ess_tail = r->k_ess_tail;
    *draws = r->k_draws;
    *chains = r->chains;
}

int bsl_rbf_mode_of(const bsl_rbf_result *r) { return r->mode; }
int bsl_rbf_interrupted(const bsl_rbf_result *r, double *done, double *planned)
{
    *done = r->iter_done;
    *planned = r->iter_planned;
    return r->iter_planned > 0;
}
size_t bsl_rbf_dim(const bsl_rbf_result *r) { return r->d; }
size_t bsl_rbf_outputs(const bsl_rbf_result *r) { return r->c; }
double bsl_rbf_score(const bsl_rbf_result *r) { return r->score; }
double bsl_rbf_moves_per_second(const bsl_rbf_result *r) { return r->moves_per_sec; }
double bsl_rbf_width(const bsl_rbf_result *r) { return r->width; }
void bsl_rbf_width_moves(const bsl_rbf_result *r, double *proposed, double *accepted)
{
    *proposed = r->width_proposed, *accepted = r->width_accepted;
}

size_t bsl_rbf_k(const bsl_rbf_result *r)
{
    if (r->mode == BSL_RBF_ANNEAL) return r->ndraws ? r->draws[0].k : 0;
    size_t best = 0;
    for (size_t k = 1; k <= r->kmax; k++)
        if (r->k_post[k] > r->k_post[best]) best = k;
    return best;
}

const double *bsl_rbf_centres(const bsl_rbf_result *r)
{
    return r->mode == BSL_RBF_ANNEAL && r->ndraws ? r->draws[0].centres : NULL;
}

const double *bsl_rbf_k_posterior(const bsl_rbf_result *r, size_t *len)
{
    if (len) *len = r->k_post ? r->kmax + 1 : 0;
    return r->k_post;
}

void bsl_rbf_acceptance(const bsl_rbf_result *r, int move, double *proposed, double *accepted)
{
    const int ok = move >= 0 && move < BSL_RBF_NMOVES;
    if (proposed) *proposed = ok ? r->proposed[move] : 0;
    if (accepted) *accepted = ok ? r->accepted[move] : 0;
}
