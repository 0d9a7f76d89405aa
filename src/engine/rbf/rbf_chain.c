/*
 * rbf_chain.c: one free-centre RBF chain's state (rbf_chain.h): the design
 * columns, the Cholesky factor of D'D with z = L^{-1} D'Y riding along, and
 * the log target. Appending a centre costs O(n m + m^2), removing one
 * O(n k + k^2) (bsl_chol_remove plus shifting the columns), so moving one
 * centre (remove + append) is O(n k) and never a refit. A fresh
 * factorisation every BSL_RBF_REFRESH accepted moves bounds the drift of
 * the updates.
 */
#include "rbf_chain.h"

#include "../../model/model.h"

#include <cblas.h>
#include <float.h>
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

#define LL(s, ch, i, j) ((s)->chol.L[(i) + (j) * (ch)->cap])

size_t rbf_kmax(const bsl_rbf_chain *ch)
{
    return ch->discrete ? BSL_MIN(ch->kmax, ch->o.ncand) : ch->kmax;
}

void rbf_state_copy(const bsl_rbf_chain *ch, rbf_state *dst, const rbf_state *src)
{
    const size_t m = ch->q + src->k, n = ch->n, c = ch->c, d = ch->d;
    dst->k = src->k;
    memcpy(dst->mu, src->mu, src->k * d * sizeof(double));
    memcpy(dst->cand, src->cand, src->k * sizeof(size_t));
    memcpy(dst->cols, src->cols, m * n * sizeof(double));
    for (size_t j = 0; j < m; j++)
        memcpy(&LL(dst, ch, j, j), &LL(src, ch, j, j), (m - j) * sizeof(double));
    dst->chol.k = src->chol.k;
    memcpy(dst->z, src->z, m * c * sizeof(double));
    memcpy(dst->dty, src->dty, m * c * sizeof(double));
    dst->log_lik = src->log_lik;
}

/* Radial column of centre mu at the n training points, into out. */
static void radial_column(bsl_rbf_chain *ch, const double *mu, double *out)
{
    memcpy(ch->dict->centres, mu, ch->d * sizeof(double));
    bsl_dict_eval(ch->dict, 0, ch->X, ch->n, ch->n, out);
}

int rbf_state_append(bsl_rbf_chain *ch, rbf_state *s, const double *mu, size_t cand)
{
    const size_t n = ch->n, c = ch->c, d = ch->d, m = ch->q + s->k;
    if (s->k >= rbf_kmax(ch)) return -1;
    double *col = s->cols + m * n;
    radial_column(ch, mu, col);
    /* g = D'col, the new column's cross products (the O(n m) part) */
    cblas_dgemv(CblasColMajor, CblasTrans, (int)n, (int)m, 1.0, s->cols, (int)n, col, 1, 0.0,
                ch->g, 1);
    const double dd = bsl_dot(col, col, n);
    const double schur = bsl_chol_schur(&s->chol, ch->g, dd, ch->v);
    /* collinear (or a zero column): the target is 0 there, see rbf_chain.h */
    if (!(dd > 0) || !(schur > RBF_RANK_TOL * dd)) return -1;
    const double root = sqrt(schur);
    for (size_t o = 0; o < c; o++) {
        const double b = bsl_dot(col, ch->Y + o * n, n);
        double vz = 0;
        for (size_t i = 0; i < m; i++) vz += ch->v[i] * s->z[i * c + o];
        s->dty[m * c + o] = b;
        s->z[m * c + o] = (b - vz) / root; /* new row of L^{-1} D'y */
    }
    bsl_chol_append_commit(&s->chol, ch->v, schur);
    memcpy(s->mu + s->k * d, mu, d * sizeof(double));
    s->cand[s->k] = cand;
    s->k++;
    return 0;
}

void rbf_state_remove(const bsl_rbf_chain *ch, rbf_state *s, size_t j)
{
    const size_t n = ch->n, c = ch->c, d = ch->d, p = ch->q + j, m = ch->q + s->k;
    const size_t after = m - p - 1;
    bsl_chol_remove(&s->chol, p, s->z, c);
    memmove(s->cols + p * n, s->cols + (p + 1) * n, after * n * sizeof(double));
    memmove(s->dty + p * c, s->dty + (p + 1) * c, after * c * sizeof(double));
    memmove(s->mu + j * d, s->mu + (j + 1) * d, after * d * sizeof(double));
    memmove(s->cand + j, s->cand + j + 1, after * sizeof(size_t));
    s->k--;
}

int rbf_state_refresh(bsl_rbf_chain *ch, rbf_state *s)
{
    const size_t n = ch->n, c = ch->c, d = ch->d, q = ch->q, m = q + s->k, cap = ch->cap;
    for (size_t i = 0; i < n; i++) s->cols[i] = 1.0;
    if (ch->o.linear_term) memcpy(s->cols + n, ch->X, n * d * sizeof(double));
    for (size_t j = 0; j < s->k; j++) radial_column(ch, s->mu + j * d, s->cols + (q + j) * n);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, (int)m, (int)n, 1.0, s->cols, (int)n, 0.0,
                ch->gram, (int)cap);
    int rc = bsl_chol_factor(&s->chol, ch->gram, m, cap);
    if (rc) return rc;
    for (size_t i = 0; i < m; i++) {
        const double rel = LL(s, ch, i, i) * LL(s, ch, i, i);
        const double dd = bsl_dot(s->cols + i * n, s->cols + i * n, n);
        if (!(rel > RBF_RANK_TOL * dd)) return BASEL_ENUMERIC;
    }
    for (size_t o = 0; o < c; o++) {
        for (size_t i = 0; i < m; i++) ch->w[i] = bsl_dot(s->cols + i * n, ch->Y + o * n, n);
        for (size_t i = 0; i < m; i++) s->dty[i * c + o] = ch->w[i];
        bsl_chol_solve_lower(&s->chol, ch->w);
        for (size_t i = 0; i < m; i++) s->z[i * c + o] = ch->w[i];
    }
    for (size_t o = 0; o < c; o++) ch->yy[o] = bsl_dot(ch->Y + o * n, ch->Y + o * n, n);
    rbf_state_loglik(ch, s);
    return BASEL_OK;
}

void rbf_state_loglik(const bsl_rbf_chain *ch, rbf_state *s)
{
    const size_t c = ch->c, m = ch->q + s->k;
    const double n = (double)ch->n;
    double ll = 0;
    for (size_t o = 0; o < c; o++) {
        double quad = 0; /* y'H y = |L^{-1} D'y|^2 */
        for (size_t i = 0; i < m; i++) quad += s->z[i * c + o] * s->z[i * c + o];
        if (ch->mode == BSL_RBF_ANNEAL) {
            /* eq. 3: (y'P y)^{-n/2}, P the least-squares residual projector */
            ll += -0.5 * n * log(fmax(ch->yy[o] - quad, DBL_MIN));
        } else {
            /* g-prior marginal (rbf.h): shrinkage delta2/(1+delta2) */
            const double dl = ch->delta2[o], shrink = dl / (1 + dl);
            const double rss = fmax(ch->yy[o] - shrink * quad, DBL_MIN);
            ll += -0.5 * (double)m * log1p(dl) -
                  (ch->o.a0 + 0.5 * n) * log(ch->o.b0 + 0.5 * rss);
        }
    }
    s->log_lik = ll;
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

static int alloc_state(bsl_rbf_chain *ch, rbf_state *s)
{
    s->k = 0;
    s->mu = bsl_calloc(ch->kmax * ch->d + 1, sizeof(double));
    s->cand = bsl_calloc(ch->kmax + 1, sizeof(size_t));
    s->cols = bsl_calloc(ch->n * ch->cap, sizeof(double));
    s->z = bsl_calloc(ch->cap * ch->c, sizeof(double));
    s->dty = bsl_calloc(ch->cap * ch->c, sizeof(double));
    if (!s->mu || !s->cand || !s->cols || !s->z || !s->dty) return BASEL_ENOMEM;
    return bsl_chol_init(&s->chol, ch->cap);
}

static void free_state(rbf_state *s)
{
    free(s->mu);
    free(s->cand);
    free(s->cols);
    free(s->z);
    free(s->dty);
    bsl_chol_free(&s->chol);
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
    if (o->temperature_mode == BSL_RBF_ANNEAL && o->criterion != BSL_COEF_AIC &&
        o->criterion != BSL_COEF_BIC && o->criterion != BSL_COEF_MDL)
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
        rc = bsl_coef_prior_parse(&crit, bsl_coef_kind_name((bsl_coef_kind)o->criterion), n, c,
                                  err);
        if (rc) goto fail;
        ch->penalty = crit.penalty * ((double)c + 1) / (double)c; /* C = c + 1 (AIC) or (c + 1) log(n) / 2 (BIC, MDL): a centre counts (paper 002) */
    }
    rc = BASEL_ENOMEM;
    ch->lo = bsl_calloc(d, sizeof(double));
    ch->side = bsl_calloc(d, sizeof(double));
    ch->yy = bsl_calloc(c, sizeof(double));
    ch->delta2 = bsl_calloc(c, sizeof(double));
    ch->gram = bsl_calloc(ch->cap * ch->cap, sizeof(double));
    ch->g = bsl_calloc(ch->cap, sizeof(double));
    ch->v = bsl_calloc(ch->cap, sizeof(double));
    ch->w = bsl_calloc(ch->cap, sizeof(double));
    ch->col = bsl_calloc(n, sizeof(double));
    ch->u = bsl_calloc(4 * d, sizeof(double));
    ch->is_cand_active = bsl_calloc(ch->discrete ? o->ncand : 1, 1);
    if (!ch->lo || !ch->side || !ch->yy || !ch->delta2 || !ch->gram || !ch->g || !ch->v ||
        !ch->w || !ch->col || !ch->u || !ch->is_cand_active)
        goto fail_nomem;
    for (int i = 0; i < 2; i++)
        if (alloc_state(ch, &ch->st[i])) goto fail_nomem;
    if (bsl_dict_make(&ch->dict, (bsl_basis_kind)o->radial, d, 1, o->width, ch->lo, 0, 0, 0))
        goto fail_nomem;
    for (size_t i = 0; i < c; i++) ch->delta2[i] = o->delta2_init;
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
    for (int i = 0; i < 2; i++) free_state(&ch->st[i]);
    bsl_dict_free(ch->dict);
    free(ch->lo);
    free(ch->side);
    free(ch->yy);
    free(ch->delta2);
    free(ch->gram);
    free(ch->g);
    free(ch->v);
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
