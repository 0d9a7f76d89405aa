/*
 * mixture.c: the front of the mixture engine (mixture.h): option defaults,
 * validation, the fit driver (chains in parallel), prediction and the
 * result's accessors.
 *
 * Replica exchange. With temperatures = R > 1 each chain runs R replicas of
 * the sampler at inverse temperatures b_0 = 1 > b_1 > ... > b_{R-1} =
 * 1 / temp_max (geometric), each targeting pi_b (mixture_gibbs.c). After
 * every sweep, each adjacent pair (t, t+1) in turn proposes to exchange its
 * temperatures, accepted with probability
 *   min(1, exp(F_{b_t}(s') + F_{b_t+1}(s) - F_{b_t}(s) - F_{b_t+1}(s')))
 * where s, s' are the two replicas' states (subset and parameters) and
 * F_b(s) = R_b(theta, gamma) + b E(gamma) is the tempered log likelihood with
 * the allocations and unlabelled classes summed out (the prior is not
 * tempered and cancels). Swapping on this margin is valid because every
 * sweep begins by redrawing the allocations from their conditional. The
 * draws and visit counts come from the replica at b = 1 after each sweep.
 * Temperatures, not states, move, so nothing is copied.
 *
 * The ladder adapts during burn-in so that the cold replica swaps too (a
 * fixed geometric ladder to 20 left Pima's pair (1, 0.65) at a swap rate of
 * 0: the cold chain was never reached). Every ADAPT_WINDOW burn-in sweeps
 * the log gaps g_t = log(b_t / b_{t+1}) (which sum to log temp_max) are
 * scaled by exp(a_t - mean a), a_t the pair's swap rate in the window, and
 * renormalised: pairs that swap rarely get closer. Only burn-in adapts; the
 * ladder is fixed afterwards, so the kept sweeps are those of a fixed
 * replica-exchange chain, and the swap counts reported are the kept sweeps'.
 *
 * Reproducibility: chain c draws only from its own mt19937 seeded with
 * bsl_mix_seed(seed, c), writes only its own record, and the records are
 * merged in chain order, so the thread count never changes a result.
 */
#include "mixture.h"
#include "mixture_summary.h"
#include "../../run/chains.h"
#include "../../run/ckpt.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bsl_mix_options_default(bsl_mix_options *o)
{
    memset(o, 0, sizeof *o);
    o->kernels = 3;
    o->iter = 15000;
    o->burn = 5000;
    o->thin = 10;
    o->chains = 1;
    o->seed = 1;
    o->poisson_mean = 2;
    o->max_inputs = 0;
    o->min_inputs = 1;
    o->exchange_moves = 1;
    o->birth_death_moves = 1;
    o->temperatures = 1;
    o->temp_max = 20;
    o->top = 20;
    o->add_proposal = BSL_MIX_PROPOSE_SUMMED;
    o->informed = 1;
    o->informed_exchange = 1;
    o->excluded = BSL_MIX_EXCLUDED_REGRESSION;
    o->excluded_g = 0; /* n */
    o->a = 2;        /* §3: "we set a = 2" */
    o->g = 0.2;      /* §3: "g = 0.2" */
    o->h = 0;        /* 10 / R_i^2, the upper end of §2.2's range */
    o->beta_min = 0.03; /* not in the paper: its prior is improper with tied inputs (mixture_model.c) */
    o->delta_w = 1;  /* §2.2: "set to 1" */
    o->delta_p = 1;
    o->split_a = 1;  /* eq. 4's b_a, b_b are not given in the paper */
    o->split_b = 4;
    o->prior_mid = 0;
    o->prior_range = 0;
}

static int pos_finite(double v) { return isfinite(v) && v > 0; }

static int validate_options(const bsl_mix_options *o, size_t d, basel_error *err)
{
    if (o->kernels < 1) return bsl_fail(err, BASEL_EINVAL, "mixture: kernels must be >= 1");
    if (o->iter <= o->burn)
        return bsl_fail(err, BASEL_EINVAL, "mixture: iter (%zu) must exceed burn (%zu)", o->iter, o->burn);
    if (o->thin < 1 || o->chains < 1)
        return bsl_fail(err, BASEL_EINVAL, "mixture: thin and chains must be >= 1");
    if (!pos_finite(o->poisson_mean))
        return bsl_fail(err, BASEL_EINVAL, "mixture: poisson mean must be positive and finite");
    const size_t imax = o->max_inputs ? BSL_MIN(o->max_inputs, d) : d;
    if (o->min_inputs < 1 || o->min_inputs > imax)
        return bsl_fail(err, BASEL_EINVAL, "mixture: need 1 <= min_inputs (%zu) <= max_inputs (%zu)",
                        o->min_inputs, imax);
    if (!pos_finite(o->a) || !pos_finite(o->g) || !isfinite(o->h) || !pos_finite(o->delta_w) ||
        !pos_finite(o->delta_p) || !pos_finite(o->split_a) || !(isfinite(o->split_b) && o->split_b >= 0))
        return bsl_fail(err, BASEL_EINVAL,
                        "mixture: hyperparameters a, g, delta_w, delta_p, split_a must be positive, "
                        "split_b >= 0, h finite");
    if (!(isfinite(o->beta_min) && o->beta_min >= 0))
        return bsl_fail(err, BASEL_EINVAL, "mixture: beta_min must be finite and >= 0 (0: the paper's prior)");
    if (!isfinite(o->prior_mid) || !isfinite(o->prior_range))
        return bsl_fail(err, BASEL_EINVAL, "mixture: prior_mid and prior_range must be finite");
    if (o->add_proposal != BSL_MIX_PROPOSE_PRIOR && o->add_proposal != BSL_MIX_PROPOSE_DATA &&
        o->add_proposal != BSL_MIX_PROPOSE_ALLOC && o->add_proposal != BSL_MIX_PROPOSE_SUMMED)
        return bsl_fail(err, BASEL_EINVAL,
                        "mixture: add_proposal must be 0 (prior), 1 (data), 2 (allocations) or 3 (summed)");
    if (o->excluded != BSL_MIX_EXCLUDED_GAUSSIAN && o->excluded != BSL_MIX_EXCLUDED_REGRESSION)
        return bsl_fail(err, BASEL_EINVAL, "mixture: excluded must be 0 (gaussian) or 1 (regression)");
    if (o->informed != 0 && o->informed != 1) return bsl_fail(err, BASEL_EINVAL, "mixture: informed must be 0 or 1");
    if (o->informed_exchange != 0 && o->informed_exchange != 1)
        return bsl_fail(err, BASEL_EINVAL, "mixture: informed_exchange must be 0 or 1");
    if (!(o->pair_prob >= 0 && o->pair_prob <= 1))
        return bsl_fail(err, BASEL_EINVAL, "mixture: pair_prob must be in [0, 1]");
    if (o->unlabelled != 0 && o->unlabelled != 1)
        return bsl_fail(err, BASEL_EINVAL, "mixture: unlabelled must be 0 (leave out) or 1 (use)");
    if (!(isfinite(o->excluded_g) && o->excluded_g >= 0))
        return bsl_fail(err, BASEL_EINVAL, "mixture: excluded_g must be finite and >= 0 (0: n)");
    if (o->top < 1) return bsl_fail(err, BASEL_EINVAL, "mixture: top must be >= 1");
    if (o->temperatures < 1 || o->temperatures > BSL_MIX_MAX_TEMPERATURES || !(isfinite(o->temp_max) && o->temp_max > 1))
        return bsl_fail(err, BASEL_EINVAL, "mixture: need 1 <= temperatures <= %d and a finite temp_max > 1",
                        BSL_MIX_MAX_TEMPERATURES);
    return BASEL_OK;
}

static int validate_data(const double *X, size_t n, size_t d, const int *cls, size_t nclass,
                         const bsl_mix_options *o, basel_error *err)
{
    if (nclass < 2) return bsl_fail(err, BASEL_EINVAL, "mixture: need at least 2 classes, got %zu", nclass);
    size_t *lab = bsl_calloc(nclass, sizeof *lab);
    if (!lab) return bsl_fail(err, BASEL_ENOMEM, "mixture: out of memory");
    int rc = BASEL_OK;
    for (size_t i = 0; i < n && rc == BASEL_OK; i++) {
        if (cls[i] < -1 || cls[i] >= (long)nclass)
            rc = bsl_fail(err, BASEL_EINVAL, "mixture: row %zu has class %d, not in -1..%zu", i + 1,
                          cls[i], nclass - 1);
        else if (cls[i] >= 0)
            lab[cls[i]]++;
    }
    for (size_t k = 0; k < nclass && rc == BASEL_OK; k++)
        if (lab[k] < 2)
            rc = bsl_fail(err, BASEL_EINVAL, "mixture: class %zu has %zu labelled rows; need at least 2", k,
                          lab[k]);
    free(lab);
    for (size_t j = 0; j < d && rc == BASEL_OK; j++) {
        double lo = X[j * n], hi = X[j * n];
        for (size_t i = 0; i < n && rc == BASEL_OK; i++) {
            const double v = X[j * n + i];
            if (!isfinite(v))
                rc = bsl_fail(err, BASEL_EINVAL, "mixture: input %zu, row %zu is not finite", j + 1, i + 1);
            lo = v < lo ? v : lo, hi = v > hi ? v : hi;
        }
        if (rc == BASEL_OK && !(hi > lo) && !(o->prior_range > 0))
            rc = bsl_fail(err, BASEL_EINVAL, "mixture: input %zu is constant; drop it", j + 1);
    }
    return rc;
}

bsl_mix_result *bsl_mix_result_alloc(size_t d, size_t K, size_t D, size_t nsub, size_t sub_total,
                                     size_t ndraw, size_t draw_total)
{
    bsl_mix_result *r = bsl_calloc(1, sizeof *r);
    if (!r) return NULL;
    r->d = d, r->K = K, r->D = D, r->nsub = nsub, r->ndraw = ndraw;
    r->size = (bsl_conv){NAN, NAN, NAN};
    r->pip = bsl_calloc(d, sizeof(double));
    r->size_post = bsl_calloc(d + 1, sizeof(double));
    r->sub_off = bsl_calloc(nsub + 1, sizeof(size_t));
    r->sub_idx = bsl_calloc(sub_total, sizeof(size_t));
    r->sub_prob = bsl_calloc(nsub, sizeof(double));
    r->draw_off = bsl_calloc(ndraw + 1, sizeof(size_t));
    r->draw_idx = bsl_calloc(draw_total, sizeof(size_t));
    r->draw_mu = bsl_calloc(draw_total * D, sizeof(double));
    r->draw_prec = bsl_calloc(draw_total * D, sizeof(double));
    r->draw_w = bsl_calloc(ndraw * K * D, sizeof(double));
    r->draw_P = bsl_calloc(ndraw * K, sizeof(double));
    if (!r->pip || !r->size_post || !r->sub_off || !r->sub_idx || !r->sub_prob || !r->draw_off ||
        !r->draw_idx || !r->draw_mu || !r->draw_prec || !r->draw_w || !r->draw_P) {
        bsl_mix_free(r);
        return NULL;
    }
    return r;
}

void bsl_mix_free(bsl_mix_result *r)
{
    if (!r) return;
    free(r->chain_ndraw);
    free(r->pip);
    free(r->size_post);
    free(r->sub_off);
    free(r->sub_idx);
    free(r->sub_prob);
    free(r->draw_off);
    free(r->draw_idx);
    free(r->draw_mu);
    free(r->draw_prec);
    free(r->draw_w);
    free(r->draw_P);
    free(r->rhat_pip);
    free(r->ess_pip);
    free(r->ess_tail_pip);
    free(r);
}

/* F_b of a replica: its tempered row log-likelihood at inverse temperature
 * b plus b times its excluded inputs' evidence E (L must be current). */
static double tempered_loglik(bsl_mix_chain *ch, double b, double E)
{
    const double keep = ch->b;
    ch->b = b;
    const double f = bsl_mix_rows_loglik(ch, ch->L, ch->w) + b * E;
    ch->b = keep;
    return f;
}

/* One pass of temperature swaps over adjacent pairs; rep[t] is the replica
 * now at temperature t. Swaps move no state, so each replica's excluded
 * evidence is computed once for the pass. */
static void swap_temperatures(bsl_mix_chain **rep, size_t R, const gsl_rng *r, bsl_mix_record *rec)
{
    double E[BSL_MIX_MAX_TEMPERATURES];
    for (size_t t = 0; t < R; t++)
        E[t] = bsl_mix_excluded_log_evidence(rep[t]->m, rep[t]->active, rep[t]->xwork, rep[t]->xkept);
    for (size_t t = 0; t + 1 < R; t++) {
        bsl_mix_chain *hot = rep[t + 1], *cold = rep[t];
        const double bc = cold->b, bh = hot->b, Ec = E[t], Eh = E[t + 1];
        const double log_a = tempered_loglik(hot, bc, Eh) + tempered_loglik(cold, bh, Ec) -
                             tempered_loglik(cold, bc, Ec) - tempered_loglik(hot, bh, Eh);
        rec->swap_prop++, rec->pair_prop[t]++;
        if (log(gsl_rng_uniform_pos(r)) < log_a) {
            rec->swap_acc++, rec->pair_acc[t]++;
            cold->b = bh, hot->b = bc;
            rep[t] = hot, rep[t + 1] = cold;
            E[t] = Eh, E[t + 1] = Ec;
        }
    }
}

/* A chain's sampler: its generator, its replicas (rep[t] at temperature
 * t) and its next sweep; allocated before the run so that a checkpoint can
 * be read into it. */
typedef struct mix_state {
    gsl_rng *r;
    bsl_mix_chain **rep;
    size_t it;
    /* the pairs' swap counts at the start of the ladder's adaptation window */
    unsigned long p0[BSL_MIX_MAX_TEMPERATURES], a0[BSL_MIX_MAX_TEMPERATURES];
} mix_state;

enum { ADAPT_WINDOW = 50 };

/* One adaptation step of the ladder (see the top of the file) from the
 * swap counts since the window began (p0, a0, then reset). */
static void adapt_ladder(bsl_mix_chain **rep, size_t R, double temp_max, const bsl_mix_record *rec,
                         unsigned long *p0, unsigned long *a0)
{
    double g[BSL_MIX_MAX_TEMPERATURES], a[BSL_MIX_MAX_TEMPERATURES], mean = 0, tot = 0;
    for (size_t t = 0; t + 1 < R; t++) {
        const unsigned long np = rec->pair_prop[t] - p0[t], na = rec->pair_acc[t] - a0[t];
        a[t] = np ? (double)na / (double)np : 0;
        mean += a[t] / (double)(R - 1);
        g[t] = log(rep[t]->b / rep[t + 1]->b);
        p0[t] = rec->pair_prop[t], a0[t] = rec->pair_acc[t];
    }
    for (size_t t = 0; t + 1 < R; t++) tot += g[t] *= exp(a[t] - mean);
    double lb = 0;
    for (size_t t = 0; t + 1 < R; t++) {
        lb -= g[t] * log(temp_max) / tot;
        rep[t + 1]->b = t + 2 == R ? 1 / temp_max : exp(lb);
    }
}

/* What every chain reads and the chains' samplers and records
 * (bsl_chain_fn's ctx). */
typedef struct mix_ctx {
    const bsl_mix_model *m;
    const bsl_mix_options *o;
    bsl_mix_record *rec;
    mix_state *st;
} mix_ctx;

static int state_alloc(mix_state *s, bsl_mix_record *rec, const bsl_mix_model *m, const bsl_mix_options *o)
{
    const size_t ndraw_max = (o->iter - o->burn + o->thin - 1) / o->thin, R = o->temperatures;
    s->r = gsl_rng_alloc(gsl_rng_mt19937);
    s->rep = bsl_calloc(R, sizeof *s->rep);
    int rc = s->r && s->rep ? bsl_mix_record_init(rec, m, ndraw_max) : BASEL_ENOMEM;
    for (size_t t = 0; t < R && rc == BASEL_OK; t++) rc = bsl_mix_chain_create(&s->rep[t], m);
    return rc;
}

static void state_free(mix_state *s, size_t R)
{
    for (size_t t = 0; s->rep && t < R; t++) bsl_mix_chain_free(s->rep[t]);
    free(s->rep);
    if (s->r) gsl_rng_free(s->r);
}

/* One chain (R replicas) from start, or from where it stopped, to end
 * (bsl_chain_fn; one progress unit per sweep); fills its record from the
 * replica at temperature 1. */
static int run_chain(void *ctx, size_t c, unsigned long seed, bsl_ticker *tick)
{
    const mix_ctx *x = ctx;
    const bsl_mix_model *m = x->m;
    const bsl_mix_options *o = x->o;
    bsl_mix_record *rec = &x->rec[c];
    mix_state *s = &x->st[c];
    bsl_mix_chain **rep = s->rep;
    const size_t R = o->temperatures;
    gsl_rng *r = s->r;
    int rc = BASEL_OK;
    if (!tick->resumed) {
        gsl_rng_set(r, seed);
        for (size_t t = 0; t < R; t++) {
            bsl_mix_chain_init(rep[t], r);
            rep[t]->b = t == 0 ? 1 : pow(o->temp_max, -(double)t / (double)(R - 1));
        }
        s->it = 0;
        memset(s->p0, 0, sizeof s->p0), memset(s->a0, 0, sizeof s->a0);
    }
    for (; s->it < o->iter && rc == BASEL_OK; s->it++) {
        /* a boundary: sweeps before it are done (chains.h) */
        if (bsl_tick(tick, 1)) return BASEL_ECANCELLED;
        const size_t it = s->it;
        for (size_t t = 0; t < R; t++) bsl_mix_chain_sweep(rep[t], r, o->exchange_moves, o->birth_death_moves);
        if (R > 1) swap_temperatures(rep, R, r, rec);
        if (R > 1 && it < o->burn && (it + 1) % ADAPT_WINDOW == 0) adapt_ladder(rep, R, o->temp_max, rec, s->p0, s->a0);
        if (R > 1 && it + 1 == o->burn) { /* report the fixed ladder's swaps only */
            rec->swap_prop = rec->swap_acc = 0;
            memset(rec->pair_prop, 0, sizeof rec->pair_prop), memset(rec->pair_acc, 0, sizeof rec->pair_acc);
        }
        if (it < o->burn) continue;
        rc = bsl_mix_record_sweep(rec, rep[0]);
        if ((it - o->burn) % o->thin == 0) {
            const size_t t = rec->ndraw;
            bsl_mix_record_draw(rec, rep[0]);
            bsl_trace_record(tick->trace, t, rec->draw_idx + t * m->imax, rec->draw_I[t]);
        }
    }
    if (rc == BASEL_OK)
        for (size_t t = 0; t < R; t++) /* moves are counted at temperature 1 only */
            for (int v = 0; v < BSL_MIX_MOVES; v++) rec->prop[v] += rep[t]->prop[v], rec->acc[v] += rep[t]->acc[v];
    return rc;
}

/* A probability as the sampler leaves it: in [0, 1], or above 1 by
 * rounding (a merge divides a weight by 1 - u) */
#define PROB_MAX (1 + 1e-9)

/* A replica's state (ckpt.h); Lnew, wnew, scratch, perm, idx, xwork and
 * xkept are scratch, refilled before each use. */
static void replica_io(bsl_ck *k, bsl_mix_chain *ch)
{
    const size_t n = ch->m->n, d = ch->m->d, K = ch->m->K, D = ch->m->D;
    bsl_ck_bytes(k, ch->active, d);
    bsl_ck_val(k, ch->I);
    bsl_ck_doubles(k, ch->mu, d * D);
    bsl_ck_doubles(k, ch->prec, d * D);
    bsl_ck_doubles(k, ch->beta, d);
    bsl_ck_doubles(k, ch->w, K * D);
    bsl_ck_doubles(k, ch->P, K);
    bsl_ck_bytes(k, ch->z, n * sizeof *ch->z);
    bsl_ck_bytes(k, ch->c, n * sizeof *ch->c);
    bsl_ck_doubles(k, ch->L, n * D);
    bsl_ck_val(k, ch->fix_subset);
    bsl_ck_val(k, ch->b);
    bsl_ck_doubles(k, ch->tw, K * D + K);
    bsl_ck_bytes(k, ch->prop, sizeof ch->prop);
    bsl_ck_bytes(k, ch->acc, sizeof ch->acc);
    if (k->rc || !k->load) return;
    /* a state the sampler can be in (a file whose checksum was made to
     * match): the indicators and their count, each row's kernel and class
     * in range, the flags and the inverse temperature, finite means and
     * log densities, positive precisions and hyperparameters,
     * probabilities in [0, 1] (and the tempered ones, used when b < 1) */
    size_t I = 0;
    for (size_t j = 0; j < d; j++) {
        if (ch->active[j] > 1) k->rc = BASEL_EPARSE;
        I += ch->active[j];
    }
    for (size_t i = 0; i < n && !k->rc; i++)
        if (ch->z[i] < 0 || (size_t)ch->z[i] >= D || ch->c[i] < 0 || (size_t)ch->c[i] >= K) k->rc = BASEL_EPARSE;
    if (!k->rc && (I != ch->I || (ch->fix_subset != 0 && ch->fix_subset != 1) || !(ch->b > 0 && ch->b <= 1)))
        k->rc = BASEL_EPARSE;
    if (!k->rc && !(bsl_ck_within(ch->mu, d * D, -DBL_MAX, DBL_MAX) &&
                    bsl_ck_within(ch->prec, d * D, DBL_MIN, DBL_MAX) && bsl_ck_within(ch->beta, d, DBL_MIN, DBL_MAX) &&
                    bsl_ck_within(ch->w, K * D, 0, PROB_MAX) && bsl_ck_within(ch->P, K, 0, PROB_MAX) &&
                    bsl_ck_within(ch->L, n * D, -DBL_MAX, DBL_MAX) &&
                    (ch->b == 1 || bsl_ck_within(ch->tw, K * D + K, 0, PROB_MAX))))
        k->rc = BASEL_EPARSE;
}

/* A chain's record (ckpt.h): its counts, visited subsets and kept draws. */
static void record_io(bsl_ck *k, bsl_mix_record *rec, const bsl_mix_model *m, size_t ndraw_max)
{
    const size_t d = m->d, K = m->K, D = m->D, imax = m->imax;
    bsl_ck_bytes(k, rec->in_count, d * sizeof *rec->in_count);
    bsl_ck_bytes(k, rec->size_count, (d + 1) * sizeof *rec->size_count);
    bsl_ck_val(k, rec->sweeps);
    bsl_mix_subsets *t = &rec->subsets;
    bsl_ck_expect(k, t->W);
    bsl_ck_val(k, t->cap);
    bsl_ck_val(k, t->used);
    /* a table as bsl_mix_subsets keeps it (a power of two of at least 64
     * slots, at most half used) and no longer than the bytes after it: a
     * damaged length is refused before anything is allocated for it */
    if (!k->rc && k->load &&
        (t->cap < 64 || (t->cap & (t->cap - 1)) || t->used > t->cap / 2 ||
         !bsl_ck_fits(k, t->cap, t->W * sizeof *t->keys + sizeof *t->count)))
        k->rc = BASEL_EPARSE;
    if (!k->rc && k->load) {
        uint64_t *keys = realloc(t->keys, t->cap * t->W * sizeof *keys);
        if (keys) t->keys = keys;
        unsigned long *count = realloc(t->count, t->cap * sizeof *count);
        if (count) t->count = count;
        if (!keys || !count) k->rc = BASEL_ENOMEM;
    }
    bsl_ck_bytes(k, t->keys, t->cap * t->W * sizeof *t->keys);
    bsl_ck_bytes(k, t->count, t->cap * sizeof *t->count);
    if (!k->rc && k->load) { /* its used slots are the ones counted */
        size_t used = 0;
        for (size_t s = 0; s < t->cap; s++) used += t->count[s] != 0;
        if (used != t->used) k->rc = BASEL_EPARSE;
    }
    bsl_ck_val(k, rec->ndraw);
    if (!k->rc && rec->ndraw > ndraw_max) k->rc = BASEL_EPARSE;
    const size_t nd = rec->ndraw;
    bsl_ck_bytes(k, rec->draw_I, nd * sizeof *rec->draw_I);
    bsl_ck_bytes(k, rec->draw_idx, nd * imax * sizeof *rec->draw_idx);
    bsl_ck_doubles(k, rec->draw_mu, nd * imax * D);
    bsl_ck_doubles(k, rec->draw_prec, nd * imax * D);
    bsl_ck_doubles(k, rec->draw_w, nd * K * D);
    bsl_ck_doubles(k, rec->draw_P, nd * K);
    for (size_t s = 0; s < nd && !k->rc && k->load; s++) { /* each draw's inputs: at most imax, each below d */
        if (rec->draw_I[s] > imax) k->rc = BASEL_EPARSE;
        for (size_t j = 0; j < rec->draw_I[s] && !k->rc; j++)
            if (rec->draw_idx[s * imax + j] >= d) k->rc = BASEL_EPARSE;
    }
    bsl_ck_bytes(k, rec->prop, sizeof rec->prop);
    bsl_ck_bytes(k, rec->acc, sizeof rec->acc);
    bsl_ck_val(k, rec->swap_prop);
    bsl_ck_val(k, rec->swap_acc);
    bsl_ck_bytes(k, rec->pair_prop, sizeof rec->pair_prop);
    bsl_ck_bytes(k, rec->pair_acc, sizeof rec->pair_acc);
}

static void chain_io(void *ctx, size_t c, bsl_ck *k)
{
    const mix_ctx *x = ctx;
    mix_state *s = &x->st[c];
    const bsl_mix_options *o = x->o;
    bsl_ck_rng(k, s->r);
    bsl_ck_val(k, s->it);
    bsl_ck_bytes(k, s->p0, sizeof s->p0);
    bsl_ck_bytes(k, s->a0, sizeof s->a0);
    bsl_ck_expect(k, o->temperatures);
    for (size_t t = 0; t < o->temperatures; t++) replica_io(k, s->rep[t]);
    record_io(k, &x->rec[c], x->m, (o->iter - o->burn + o->thin - 1) / o->thin);
}

/* An interrupted run (chains.h cs->partial): the paused chains' move
 * counts go into their records (as at a chain's end), the traces are cut
 * to what every chain that kept a draw did, and *kept gets each chain's
 * kept draws. BASEL_INTERRUPTED when no chain kept one. */
static int partial(bsl_chains *cs, bsl_mix_record *rec, mix_state *st, const bsl_mix_options *o,
                   size_t **kept)
{
    size_t *n = bsl_calloc(o->chains, sizeof *n);
    if (!n) return BASEL_ENOMEM;
    for (size_t c = 0; c < o->chains; c++) {
        n[c] = rec[c].ndraw;
        if (st[c].it < o->iter) /* paused: its moves are not counted yet */
            for (size_t t = 0; t < o->temperatures; t++)
                for (int v = 0; v < BSL_MIX_MOVES; v++) rec[c].prop[v] += st[c].rep[t]->prop[v], rec[c].acc[v] += st[c].rep[t]->acc[v];
    }
    if (!bsl_chains_keep(cs, n)) {
        free(n);
        return BASEL_INTERRUPTED;
    }
    *kept = n;
    return BASEL_OK;
}

/* Run all chains (in parallel) and merge them. */
static int run_chains(const bsl_mix_model *m, const bsl_mix_options *o, bsl_mix_result **out,
                      basel_error *err, int *reported)
{
    bsl_mix_record *rec = bsl_calloc(o->chains, sizeof *rec);
    mix_state *st = bsl_calloc(o->chains, sizeof *st);
    int rc = rec && st ? BASEL_OK : BASEL_ENOMEM;
    for (size_t c = 0; rc == BASEL_OK && c < o->chains; c++) rc = state_alloc(&st[c], &rec[c], m, o);
    /* R-hat and ESS from the kept draws: one snapshot per draw */
    const size_t ndraw = (o->iter - o->burn + o->thin - 1) / o->thin;
    bsl_chains cs = {.chains = o->chains, .threads = o->threads, .seed = o->seed, .units = o->iter,
                     .progress = o->progress, .progress_user = o->progress_user,
                     .trace_m = m->d, .trace_iter = ndraw, .trace_len = ndraw,
                     .ckpt = {o->checkpoint, o->checkpoint_every, o->restart, o->run_id, chain_io},
                     .ranks = o->ranks, .err = err};
    if (rc == BASEL_OK) {
        mix_ctx x = {m, o, rec, st};
        rc = bsl_chains_run(&cs, run_chain, &x);
        *reported = cs.reported;
    }
    size_t *kept = NULL;
    if (rc == BASEL_INTERRUPTED && cs.partial) rc = partial(&cs, rec, st, o, &kept);
    if (rc == BASEL_OK) rc = bsl_mix_merge(out, m, rec, o->chains, o->top);
    if (rc == BASEL_OK) {
        bsl_mix_result *r = *out;
        if (kept) { /* a fit of an interrupted run */
            r->chain_ndraw = kept;
            kept = NULL;
            r->iter_planned = (double)o->chains * (double)o->iter;
            for (size_t c = 0; c < o->chains; c++) r->iter_done += (double)st[c].it;
        }
        r->opt = *o;
        r->opt.progress = NULL; /* the result outlives the caller's callback */
        r->opt.progress_user = NULL;
        r->opt.checkpoint = r->opt.restart = NULL;
        r->opt.ranks = NULL;
        r->sweeps_per_second = cs.seconds > 0 ? (double)(o->chains * o->iter) / cs.seconds : 0;
        r->rhat_pip = bsl_malloc(m->d, sizeof(double));
        r->ess_pip = bsl_malloc(m->d, sizeof(double));
        r->ess_tail_pip = bsl_malloc(m->d, sizeof(double));
        r->trace_len = cs.traces ? cs.traces[0].L : 0;
        rc = r->rhat_pip && r->ess_pip && r->ess_tail_pip
                 ? bsl_chains_diagnostics(&cs, r->rhat_pip, r->ess_pip, r->ess_tail_pip, &r->size)
                 : BASEL_ENOMEM;
        if (rc != BASEL_OK) {
            bsl_mix_free(r);
            *out = NULL;
        }
    }
    free(kept);
    bsl_chains_free(&cs);
    for (size_t c = 0; rec && c < o->chains; c++) bsl_mix_record_free(&rec[c]);
    for (size_t c = 0; st && c < o->chains; c++) state_free(&st[c], o->temperatures);
    free(rec);
    free(st);
    return rc;
}

int bsl_mixture_fit(const double *X, size_t n, size_t d, const int *cls, size_t nclass,
                    const bsl_mix_options *o, bsl_mix_result **out, basel_error *err)
{
    if (!X || !cls || !o || !out) return bsl_fail(err, BASEL_EINVAL, "mixture: NULL argument");
    *out = NULL;
    if (n < 2 || d < 1) return bsl_fail(err, BASEL_EINVAL, "mixture: need n >= 2 rows and d >= 1 inputs");
    int rc = validate_options(o, d, err);
    if (rc == BASEL_OK) rc = validate_data(X, n, d, cls, nclass, o, err);
    if (rc != BASEL_OK) return rc;
    bsl_mix_model *m = NULL;
    size_t nl = 0;
    for (size_t i = 0; i < n; i++) nl += cls[i] >= 0;
    if (!o->unlabelled && nl < n) { /* the labelled rows only (validate_data: nl >= 4) */
        double *Xl = bsl_malloc(nl * d, sizeof *Xl);
        int *cl = bsl_malloc(nl, sizeof *cl);
        for (size_t i = 0, r = 0; Xl && cl && i < n; i++) {
            if (cls[i] < 0) continue;
            for (size_t j = 0; j < d; j++) Xl[j * nl + r] = X[j * n + i];
            cl[r++] = cls[i];
        }
        rc = Xl && cl ? bsl_mix_model_create(&m, Xl, nl, d, cl, nclass, o) : BASEL_ENOMEM;
        free(Xl), free(cl);
    } else
        rc = bsl_mix_model_create(&m, X, n, d, cls, nclass, o);
    if (rc != BASEL_OK) return bsl_fail(err, BASEL_ENOMEM, "mixture: out of memory");
    int reported = 0;
    rc = run_chains(m, o, out, err, &reported);
    bsl_mix_model_free(m);
    if (reported) return rc; /* the chain driver said what happened */
    if (rc == BASEL_INTERRUPTED) return bsl_fail(err, rc, "mixture: interrupted before any draw was kept");
    if (rc == BASEL_ECANCELLED) return bsl_fail(err, rc, "mixture: cancelled");
    if (rc != BASEL_OK) return bsl_fail(err, rc, "mixture: out of memory while sampling");
    bsl_error_clear(err);
    return BASEL_OK;
}

/* Adds draw t's class probabilities for one row x (stride n) into p. */
static void predict_row(const bsl_mix_result *r, size_t t, const double *x, size_t n, double *p,
                        double *e)
{
    const size_t D = r->D, K = r->K;
    for (size_t q = 0; q < D; q++) e[q] = 0;
    for (size_t u = r->draw_off[t]; u < r->draw_off[t + 1]; u++) {
        const double v = x[r->draw_idx[u] * n];
        for (size_t q = 0; q < D; q++)
            e[q] += bsl_mix_log_normal(v, r->draw_mu[u * D + q], r->draw_prec[u * D + q]);
    }
    double mx = e[0], tot = 0;
    for (size_t q = 1; q < D; q++) mx = e[q] > mx ? e[q] : mx;
    for (size_t q = 0; q < D; q++) e[q] = exp(e[q] - mx);
    double *pk = e + D;
    for (size_t k = 0; k < K; k++) {
        double s = 0;
        for (size_t q = 0; q < D; q++) s += r->draw_w[(t * K + k) * D + q] * e[q];
        tot += pk[k] = r->draw_P[t * K + k] * s;
    }
    for (size_t k = 0; k < K; k++) p[k] += tot > 0 ? pk[k] / tot : 1.0 / (double)K;
}

/* Whether kept draw t has exactly the inputs model[0..k) (sorted). */
static int draw_is(const bsl_mix_result *r, size_t t, const size_t *model, size_t k)
{
    const size_t len = r->draw_off[t + 1] - r->draw_off[t];
    return len == k && (k == 0 || memcmp(r->draw_idx + r->draw_off[t], model, k * sizeof *model) == 0);
}

int bsl_mixture_predict_model(const bsl_mix_result *r, const double *Xnew, size_t n, const size_t *model,
                              size_t k, double *prob)
{
    if (!r || (!Xnew && n) || (!prob && n) || r->ndraw == 0) return BASEL_EINVAL;
    for (size_t i = 0; i < n * r->d; i++)
        if (!isfinite(Xnew[i])) return BASEL_EINVAL;
    size_t used = 0;
    for (size_t t = 0; t < r->ndraw; t++) used += !model || draw_is(r, t, model, k);
    if (used == 0) return BASEL_ERANGE;
    double *e = bsl_malloc(r->D + r->K, sizeof *e);
    if (!e) return BASEL_ENOMEM;
    memset(prob, 0, n * r->K * sizeof *prob);
    for (size_t i = 0; i < n; i++) {
        for (size_t t = 0; t < r->ndraw; t++)
            if (!model || draw_is(r, t, model, k)) predict_row(r, t, Xnew + i, n, prob + i * r->K, e);
        for (size_t c = 0; c < r->K; c++) prob[i * r->K + c] /= (double)used;
    }
    free(e);
    return BASEL_OK;
}

int bsl_mixture_predict(const bsl_mix_result *r, const double *Xnew, size_t n, double *prob)
{
    return bsl_mixture_predict_model(r, Xnew, n, NULL, 0, prob);
}

/* ----------------------------------------------------------- accessors */

size_t bsl_mix_inputs(const bsl_mix_result *r) { return r->d; }
size_t bsl_mix_classes(const bsl_mix_result *r) { return r->K; }
size_t bsl_mix_kernels(const bsl_mix_result *r) { return r->D; }

size_t bsl_mix_draw_count(const bsl_mix_result *r) { return r->ndraw; }

const size_t *bsl_mix_draw_inputs(const bsl_mix_result *r, size_t t, size_t *len)
{
    if (t >= r->ndraw) return NULL;
    *len = r->draw_off[t + 1] - r->draw_off[t];
    return r->draw_idx + r->draw_off[t];
}

void bsl_mix_convergence(const bsl_mix_result *r, const double **rhat_pip, const double **ess_pip,
                         const double **ess_tail_pip, bsl_conv *size, size_t *draws)
{
    *rhat_pip = r->rhat_pip, *ess_pip = r->ess_pip, *ess_tail_pip = r->ess_tail_pip;
    *size = r->size;
    *draws = r->trace_len;
}
double bsl_mix_mean_inputs(const bsl_mix_result *r) { return r->mean_inputs; }
size_t bsl_mix_max_inputs(const bsl_mix_result *r) { return r->max_inputs; }
size_t bsl_mix_subset_count(const bsl_mix_result *r) { return r->nsub; }
size_t bsl_mix_subsets_visited(const bsl_mix_result *r) { return r->nvisited; }

const double *bsl_mix_pip(const bsl_mix_result *r, size_t *d)
{
    if (d) *d = r->d;
    return r->pip;
}

const double *bsl_mix_size_post(const bsl_mix_result *r, size_t *len)
{
    if (len) *len = r->d + 1;
    return r->size_post;
}

const size_t *bsl_mix_subset(const bsl_mix_result *r, size_t s, size_t *len, double *prob)
{
    if (s >= r->nsub) return NULL;
    if (len) *len = r->sub_off[s + 1] - r->sub_off[s];
    if (prob) *prob = r->sub_prob[s];
    return r->sub_idx + r->sub_off[s];
}

static double rate(unsigned long acc, unsigned long prop)
{
    return prop ? (double)acc / (double)prop : NAN;
}

void bsl_mix_subset_moves(const bsl_mix_result *r, double *proposed, double *accepted)
{
    *proposed = *accepted = 0;
    for (int v = 0; v < BSL_MIX_MOVES; v++) *proposed += (double)r->prop[v], *accepted += (double)r->acc[v];
}

void bsl_mix_diagnostics(const bsl_mix_result *r, bsl_mix_diag *out)
{
    out->proposed_add = r->prop[BSL_MIX_ADD];
    out->proposed_remove = r->prop[BSL_MIX_REMOVE];
    out->proposed_exchange = r->prop[BSL_MIX_EXCHANGE];
    out->accept_add = rate(r->acc[BSL_MIX_ADD], r->prop[BSL_MIX_ADD]);
    out->accept_remove = rate(r->acc[BSL_MIX_REMOVE], r->prop[BSL_MIX_REMOVE]);
    out->accept_exchange = rate(r->acc[BSL_MIX_EXCHANGE], r->prop[BSL_MIX_EXCHANGE]);
    out->accept_add2 = rate(r->acc[BSL_MIX_ADD2], r->prop[BSL_MIX_ADD2]);
    out->accept_remove2 = rate(r->acc[BSL_MIX_REMOVE2], r->prop[BSL_MIX_REMOVE2]);
    out->accept_swap = rate(r->swap_acc, r->swap_prop);
    out->accept_swap_min = NAN, out->swap_min_pair = 0;
    for (size_t t = 0; t < BSL_MIX_MAX_TEMPERATURES; t++) {
        const double a = rate(r->pair_acc[t], r->pair_prop[t]);
        if (!isnan(a) && !(a >= out->accept_swap_min)) out->accept_swap_min = a, out->swap_min_pair = t;
    }
    out->sweeps_per_second = r->sweeps_per_second;
    out->draws = r->ndraw;
}
