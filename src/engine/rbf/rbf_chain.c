/*
 * rbf_chain.c: one free-centre RBF chain's state (rbf_chain.h): the
 * centres, one collapsed Gaussian model of all outputs through the model
 * table (one factor and one set of columns, one g = delta_o^2 per output;
 * its atoms are the state's own columns, bsl_atom_source), and the log
 * target. Appending a centre costs O(n m + m^2 + m c), removing one
 * O(n k + k^2), so moving one centre (remove + append) is O(n k) and never
 * a refit. A fresh rebuild every BSL_RBF_REFRESH accepted moves bounds the
 * drift of the updates.
 */
#include "rbf_chain.h"

#include "../../model/model.h"

#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* relative Schur complement below which a new radial column counts as
 * collinear: smooth radial functions (cubic, tps) on a few hundred points
 * lose digits fast, and D'D squares the condition number, so this sits
 * between the subset models' BSL_RANK_TOL (1e-6, too strict for 20+ cubic columns) and the
 * rounding level of the O(k^2) updates (~1e-16 k) */
#ifndef RBF_RANK_TOL
#define RBF_RANK_TOL 1e-11
#endif

size_t rbf_kmax(const bsl_rbf_chain *ch)
{
    return ch->discrete ? BSL_MIN(ch->kmax, ch->o.ncand) : ch->kmax;
}

/* The atom source of a state: atom 0 the constant, 1..d the inputs (with
 * the linear term), q + l the radial column of slot l's centre. */
static void state_column(void *ctx, size_t id, double *out)
{
    rbf_state *s = ctx;
    const bsl_rbf_chain *ch = s->ch;
    const size_t n = ch->n;
    if (id == 0) {
        for (size_t i = 0; i < n; i++) out[i] = 1.0;
    } else if (id < ch->q) {
        memcpy(out, ch->X + (id - 1) * n, n * sizeof *out);
    } else if (s->last_id == (long)id) {
        memcpy(out, s->last_col, n * sizeof *out);
    } else {
        memcpy(ch->dict->centres, s->slot_mu + (id - ch->q) * ch->d, ch->d * sizeof(double));
        ch->dict->width = s->width; /* the dictionary is scratch shared by both states */
        bsl_dict_eval(ch->dict, 0, ch->X, n, n, out);
        memcpy(s->last_col, out, n * sizeof *out);
        s->last_id = (long)id;
    }
}

void rbf_state_column(const rbf_state *s, size_t id, double *out) { state_column((void *)s, id, out); }

void rbf_state_copy(const bsl_rbf_chain *ch, rbf_state *dst, const rbf_state *src)
{
    const size_t d = ch->d, nslot = ch->kmax + 1;
    dst->k = src->k;
    memcpy(dst->mu, src->mu, src->k * d * sizeof(double));
    memcpy(dst->cand, src->cand, src->k * sizeof(size_t));
    memcpy(dst->id, src->id, src->k * sizeof(size_t));
    memcpy(dst->slot_mu, src->slot_mu, nslot * d * sizeof(double));
    memcpy(dst->slot_used, src->slot_used, nslot);
    dst->last_id = -1;
    dst->width = src->width;
    bsl_cmodel_copy(dst->M, src->M);
    dst->log_lik = src->log_lik;
}

/* Add atom id to the model; -1 (model unchanged) if it cannot enter. */
static int add_atom(const bsl_rbf_chain *ch, rbf_state *s, size_t id)
{
    (void)ch;
    return bsl_cmodel_try_add(s->M, id) > -INFINITY && bsl_cmodel_add(s->M, id) == BASEL_OK ? 0 : -1;
}

int rbf_state_append(bsl_rbf_chain *ch, rbf_state *s, const double *mu, size_t cand)
{
    const size_t d = ch->d;
    if (s->k >= rbf_kmax(ch)) return -1;
    size_t slot = 0;
    while (s->slot_used[slot]) slot++; /* k < kmax + 1 slots: one is free */
    memcpy(s->slot_mu + slot * d, mu, d * sizeof(double));
    s->last_id = -1; /* the slot has a new centre */
    if (add_atom(ch, s, ch->q + slot)) return -1;
    s->slot_used[slot] = 1;
    memcpy(s->mu + s->k * d, mu, d * sizeof(double));
    s->cand[s->k] = cand;
    s->id[s->k] = ch->q + slot;
    s->k++;
    return 0;
}

void rbf_state_remove(const bsl_rbf_chain *ch, rbf_state *s, size_t j)
{
    const size_t d = ch->d, id = s->id[j], after = s->k - j - 1;
    bsl_cmodel_remove(s->M, id);
    s->slot_used[id - ch->q] = 0;
    memmove(s->mu + j * d, s->mu + (j + 1) * d, after * d * sizeof(double));
    memmove(s->cand + j, s->cand + j + 1, after * sizeof(size_t));
    memmove(s->id + j, s->id + j + 1, after * sizeof(size_t));
    s->k--;
}

int rbf_state_refresh(bsl_rbf_chain *ch, rbf_state *s)
{
    const size_t c = ch->c, q = ch->q, d = ch->d, k = s->k;
    (void)c;
    bsl_design_set_targets(ch->D, ch->Y); /* the targets may have changed (Geweke) */
    bsl_cmodel_clear(s->M);
    memset(s->slot_used, 0, ch->kmax + 1);
    s->last_id = -1;
    s->k = 0;
    for (size_t a = 0; a < q; a++)
        if (add_atom(ch, s, a)) return BASEL_ENUMERIC;
    for (size_t j = 0; j < k; j++) { /* centre j into slot j */
        memcpy(s->slot_mu + j * d, s->mu + j * d, d * sizeof(double));
        if (add_atom(ch, s, q + j)) return BASEL_ENUMERIC;
        s->slot_used[j] = 1;
        s->id[j] = q + j;
        s->k = j + 1;
    }
    rbf_state_loglik(ch, s);
    return BASEL_OK;
}

void rbf_state_loglik(const bsl_rbf_chain *ch, rbf_state *s)
{
    (void)ch;
    s->log_lik = bsl_cmodel_log_ml(s->M); /* the sum over outputs */
}

/*
 * The k-dependent part of the log target, for the reference measure each
 * mode's moves use (rbf_moves.c derives the ratios):
 *   anneal: -C k (eq. 3 with p(k) = exp(-C k); centres have unit density);
 *   rj, free centres: log p(k | Lambda) - k log|Lambda| with the ordered
 *     centres i.i.d. uniform on the box, log p(k) = k log Lambda - log k!
 *     up to a constant (the truncation's normaliser depends on Lambda only);
 *   rj, candidate set: log p(k) - log C(m, k), a subset uniform given k.
 */
double rbf_log_kprior(const bsl_rbf_chain *ch, size_t k)
{
    const double kk = (double)k;
    if (ch->mode == BSL_RBF_ANNEAL) return -ch->penalty * kk;
    double lp = kk * log(ch->lambda) - gsl_sf_lnfact((unsigned)k);
    if (ch->discrete)
        lp -= gsl_sf_lnchoose((unsigned)ch->o.ncand, (unsigned)k);
    else
        lp -= kk * ch->log_vol;
    return lp;
}

/* ---- create / free / accessors ---- */

/* The coefficient prior of the model: per output, the g-prior with g =
 * delta^2 and sigma^2 ~ IG(a0, b0), delta^2 ~ IG(a_delta, b_delta) sampled
 * (rj, rbf.h), or least squares scored by the criterion without its
 * penalty, which rbf_log_kprior holds (anneal). */
static bsl_coef_prior model_prior(const bsl_rbf_chain *ch)
{
    bsl_coef_prior p = {0};
    if (ch->mode == BSL_RBF_ANNEAL) {
        p.type = ch->o.criterion;
        p.penalty = 0;
        return p;
    }
    p.type = &bsl_coef_g;
    p.g = ch->o.delta2_init;
    p.a0 = ch->o.a0;
    p.b0 = ch->o.b0;
    p.sample_nuisance = ch->o.sample_delta2;
    p.g_per_output = 1;
    p.a = ch->o.a_delta;
    p.b = ch->o.b_delta;
    return p;
}

static int alloc_state(bsl_rbf_chain *ch, rbf_state *s, basel_error *err)
{
    const size_t nslot = ch->kmax + 1;
    s->k = 0;
    s->ch = ch;
    s->mu = bsl_calloc(ch->kmax * ch->d + 1, sizeof(double));
    s->cand = bsl_calloc(ch->kmax + 1, sizeof(size_t));
    s->id = bsl_calloc(ch->kmax + 1, sizeof(size_t));
    s->slot_mu = bsl_calloc(nslot * ch->d, sizeof(double));
    s->slot_used = bsl_calloc(nslot, 1);
    s->last_col = bsl_calloc(ch->n, sizeof(double));
    s->last_id = -1;
    s->width = ch->o.width;
    if (!s->mu || !s->cand || !s->id || !s->slot_mu || !s->slot_used || !s->last_col)
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const bsl_atom_source src = {.m = ch->q + nslot, .column = state_column, .ctx = s,
                                 .rank_tol = RBF_RANK_TOL};
    const bsl_coef_prior pr = model_prior(ch);
    return bsl_cmodel_create_source(&s->M, ch->D, &src, &pr, ch->cap, err);
}

static void free_state(const bsl_rbf_chain *ch, rbf_state *s)
{
    free(s->mu);
    free(s->cand);
    free(s->id);
    free(s->slot_mu);
    free(s->slot_used);
    free(s->last_col);
    bsl_cmodel_free(s->M);
    s->M = NULL;
}

/* The box: each side of the data's range scaled by box_enlarge about its
 * midpoint (paper 002 §4: births "in an interval surrounding the data"). */
static int set_box(bsl_rbf_chain *ch, basel_error *err)
{
    ch->log_vol = 0;
    double mean_side = 0;
    for (size_t a = 0; a < ch->d; a++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < ch->n; i++) {
            lo = fmin(lo, ch->X[a * ch->n + i]);
            hi = fmax(hi, ch->X[a * ch->n + i]);
        }
        if (!(hi > lo))
            return bsl_fail(err, BASEL_EINVAL, "rbf: input %zu is constant (no box for centres)",
                            a + 1);
        const double side = (hi - lo) * ch->o.box_enlarge, mid = 0.5 * (hi + lo);
        ch->lo[a] = mid - 0.5 * side;
        ch->side[a] = side;
        ch->log_vol += log(side);
        mean_side += side / (double)ch->d;
    }
    ch->zeta = ch->o.zeta > 0 ? ch->o.zeta : 0.1 * mean_side;
    /* log volume of the unit d-ball, pi^{d/2} / Gamma(d/2 + 1) */
    ch->log_ball = 0.5 * (double)ch->d * log(M_PI) - lgamma(0.5 * (double)ch->d + 1);
    return BASEL_OK;
}

static int check_options(const bsl_rbf_options *o, size_t n, size_t d, size_t c, basel_error *err)
{
    if (n == 0 || d == 0 || c == 0) return bsl_fail(err, BASEL_EINVAL, "rbf: empty data");
    if (!bsl_basis_is_radial((bsl_basis_kind)o->radial))
        return bsl_fail(err, BASEL_EINVAL, "rbf: the basis must be radial (gauss, cubic, tps, lin-rbf)");
    if (o->radial == BSL_BASIS_GAUSS && !(o->width > 0 && isfinite(o->width)))
        return bsl_fail(err, BASEL_EINVAL, "rbf: gauss width must be positive");
    if (o->sample_width &&
        (o->radial != BSL_BASIS_GAUSS || !(o->width_lo > 0 && o->width_hi > o->width_lo && isfinite(o->width_hi)) ||
         !(o->width >= o->width_lo && o->width <= o->width_hi) || !(o->width_step > 0) || o->width_every == 0))
        return bsl_fail(err, BASEL_EINVAL,
                        "rbf: a sampled width needs the gauss basis, 0 < lo < hi, a start in [lo, hi], a step > 0");
    if (o->kmax == 0) return bsl_fail(err, BASEL_EINVAL, "rbf: kmax must be at least 1");
    const size_t q = 1 + (o->linear_term ? d : 0);
    const size_t kcap = o->candidates ? BSL_MIN(o->kmax, o->ncand) : o->kmax;
    if (q + kcap >= n)
        return bsl_fail(err, BASEL_EINVAL,
                        "rbf: kmax = %zu is too large for n = %zu rows (need 1 + %zu + kmax < n)",
                        kcap, n, q - 1);
    if (!(o->box_enlarge >= 1 && isfinite(o->box_enlarge)))
        return bsl_fail(err, BASEL_EINVAL, "rbf: box_enlarge must be >= 1");
    if (!(o->zeta >= 0) || !(o->rw_scale > 0) || !(o->p_rw >= 0 && o->p_rw <= 1))
        return bsl_fail(err, BASEL_EINVAL, "rbf: zeta >= 0, rw_scale > 0, p_rw in [0, 1]");
    if (o->temperature_mode == BSL_RBF_FULL &&
        (!(o->a0 >= 0) || !(o->b0 >= 0) || !(o->a_delta > 0) || !(o->b_delta > 0) ||
         !(o->a_lambda > 0) || !(o->b_lambda > 0) || !(o->delta2_init > 0) ||
         !(o->lambda_init > 0)))
        return bsl_fail(err, BASEL_EINVAL, "rbf: hyperparameters must be positive");
    if (o->temperature_mode == BSL_RBF_ANNEAL && !(o->criterion && o->criterion->criterion))
        return bsl_fail(err, BASEL_EINVAL, "rbf: anneal needs the aic, bic or mdl criterion");
    double wsum = 0;
    for (int i = 0; i < BSL_RBF_NMOVES; i++) {
        if (!(o->move_weights[i] >= 0)) return bsl_fail(err, BASEL_EINVAL, "rbf: negative move weight");
        wsum += o->move_weights[i];
    }
    if (!(o->move_weights[BSL_RBF_BIRTH] > 0 && o->move_weights[BSL_RBF_DEATH] > 0 && wsum > 0))
        return bsl_fail(err, BASEL_EINVAL, "rbf: birth and death weights must be positive");
    if (o->candidates && o->ncand == 0) return bsl_fail(err, BASEL_EINVAL, "rbf: no candidates");
    return BASEL_OK;
}

int bsl_rbf_chain_create(bsl_rbf_chain **out, const double *X, size_t n, size_t d,
                         const double *Y, size_t c, const bsl_rbf_options *o, basel_error *err)
{
    *out = NULL;
    int rc = check_options(o, n, d, c, err);
    if (rc) return rc;
    bsl_rbf_chain *ch = bsl_calloc(1, sizeof *ch);
    if (!ch) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    ch->X = X;
    ch->Y = Y;
    ch->n = n;
    ch->d = d;
    ch->c = c;
    ch->o = *o;
    ch->mode = o->temperature_mode;
    ch->discrete = o->candidates != NULL;
    ch->q = 1 + (o->linear_term ? d : 0);
    ch->kmax = o->kmax;
    ch->cap = ch->q + ch->kmax;
    ch->lambda = o->lambda_init;
    bsl_coef_prior crit = {0};
    if (ch->mode == BSL_RBF_ANNEAL) {
        rc = bsl_coef_prior_parse(&crit, o->criterion->name, n, c,
                                  err);
        if (rc) goto fail;
        ch->penalty = crit.penalty * ((double)c + 1) / (double)c; /* C = c + 1 (AIC) or (c + 1) log(n) / 2 (BIC, MDL): a centre counts (paper 002) */
    }
    rc = BASEL_ENOMEM;
    ch->lo = bsl_calloc(d, sizeof(double));
    ch->side = bsl_calloc(d, sizeof(double));
    ch->delta2 = bsl_calloc(c, sizeof(double));
    ch->w = bsl_calloc(ch->cap * (ch->cap + 1) / 2 + ch->cap * c, sizeof(double));
    ch->col = bsl_calloc(n, sizeof(double));
    ch->u = bsl_calloc(4 * d, sizeof(double));
    ch->is_cand_active = bsl_calloc(ch->discrete ? o->ncand : 1, 1);
    if (!ch->lo || !ch->side || !ch->delta2 || !ch->w || !ch->col || !ch->u ||
        !ch->is_cand_active)
        goto fail_nomem;
    if (bsl_dict_make(&ch->dict, (bsl_basis_kind)o->radial, d, 1, o->width, ch->lo, 0, 0, 0))
        goto fail_nomem;
    for (size_t i = 0; i < c; i++) ch->delta2[i] = o->delta2_init;
    if ((rc = bsl_design_create_plain(&ch->D, n, Y, c, err))) goto fail;
    for (int i = 0; i < 2; i++)
        if ((rc = alloc_state(ch, &ch->st[i], err))) goto fail;
    rc = set_box(ch, err);
    if (rc) goto fail;
    rc = rbf_state_refresh(ch, &ch->st[0]);
    if (rc) {
        bsl_fail(err, rc, "rbf: the always-in columns are collinear");
        goto fail;
    }
    *out = ch;
    return BASEL_OK;
fail_nomem:
    bsl_fail(err, BASEL_ENOMEM, "out of memory");
fail:
    bsl_rbf_chain_free(ch);
    return rc;
}

void bsl_rbf_chain_free(bsl_rbf_chain *ch)
{
    if (!ch) return;
    for (int i = 0; i < 2; i++) free_state(ch, &ch->st[i]);
    bsl_design_free(ch->D);
    bsl_dict_free(ch->dict);
    free(ch->lo);
    free(ch->side);
    free(ch->delta2);
    free(ch->w);
    free(ch->col);
    free(ch->u);
    free(ch->is_cand_active);
    free(ch);
}

int bsl_rbf_chain_refresh(bsl_rbf_chain *ch)
{
    ch->since_refresh = 0;
    return rbf_state_refresh(ch, &ch->st[ch->cur]);
}

double bsl_rbf_chain_log_target(const bsl_rbf_chain *ch)
{
    return rbf_log_target(ch, &ch->st[ch->cur]);
}
size_t bsl_rbf_chain_k(const bsl_rbf_chain *ch) { return ch->st[ch->cur].k; }
const double *bsl_rbf_chain_centres(const bsl_rbf_chain *ch) { return ch->st[ch->cur].mu; }
const size_t *bsl_rbf_chain_cand_index(const bsl_rbf_chain *ch) { return ch->st[ch->cur].cand; }
const double *bsl_rbf_chain_delta2(const bsl_rbf_chain *ch) { return ch->delta2; }
double bsl_rbf_chain_width(const bsl_rbf_chain *ch) { return ch->st[ch->cur].width; }
double bsl_rbf_chain_lambda(const bsl_rbf_chain *ch) { return ch->lambda; }
void bsl_rbf_chain_counts(const bsl_rbf_chain *ch, double *proposed, double *accepted)
{
    memcpy(proposed, ch->proposed, sizeof ch->proposed);
    memcpy(accepted, ch->accepted, sizeof ch->accepted);
}

void bsl_rbf_chain_set_move_weights(bsl_rbf_chain *ch, const double w[BSL_RBF_NMOVES])
{
    memcpy(ch->o.move_weights, w, sizeof ch->o.move_weights);
}
