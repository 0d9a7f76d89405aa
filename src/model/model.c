/*
 * model.c: the incremental collapsed model (model.h). Invariants after every
 * public call: chol is the factor of A_tau over active[0..k), z = L^{-1} bA,
 * Ainv = A_tau^{-1} unless since_inv_refresh == BSL_INV_STALE (then it is
 * rebuilt from the factor before it is read), logdet/quad/log_ml describe the current set, and
 * pos[active[i]] == i.
 */
#include "model.h"
#include "gram_rows.h"
#include "../linalg/rank1.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bsl_model_free(bsl_model *M)
{
    if (!M) return;
    bsl_chol_free(&M->chol);
    free(M->active);
    free(M->pos);
    free(M->Ainv);
    free(M->bA);
    free(M->GA);
    free(M->z);
    free(M->cols);
    free(M->quad);
    free(M->g_o);
    free(M->lg_o);
    free(M->lg_of);
    free(M->trial_v);
    free(M->trial_u);
    free(M->trial_g);
    free(M->trial_col);
    free(M->cache_atom);
    free(M->cache);
    free(M->trial_quad);
    free(M->trial_bty);
    free(M->work);
    free(M->rb_work);
    free(M->pair_work);
    free(M->pair_col);
    free(M->pair_vc);
    free(M->sw_z);
    free(M->sw_g);
    bsl_chol_free(&M->sw_chol);
    free(M->rb_atoms);
    bsl_cand_free(&M->cand);
    free(M);
}

/* The score of k atoms with these logdet and quad under the model's prior,
 * with log1p(g_o) kept per output (lg_o, recomputed when g_o has moved away
 * from the g it was taken of: draws of g, set_prior, state_load). */
static double score_of(bsl_model *M, size_t k, double logdet, const double *quad)
{
    for (size_t o = 0; o < M->c; o++)
        if (!(M->lg_of[o] == M->g_o[o])) {
            M->lg_o[o] = log1p(M->g_o[o]);
            M->lg_of[o] = M->g_o[o];
        }
    return bsl_log_ml_formula_lg(&M->prior, M->D->n, M->D->q, M->c, k, logdet, quad, M->D->yy,
                                 M->g_o, M->lg_o);
}

/* Whether the prior's score reads log|A_tau| (ridge, hier): the others
 * (the g-prior, the penalised criteria) skip a logarithm per score. */
static int reads_logdet(const bsl_model *M)
{
    return M->prior.type->reads_logdet;
}

static void update_score(bsl_model *M)
{
    for (size_t o = 0; o < M->c; o++) {
        double q = 0;
        for (size_t i = 0; i < M->k; i++) q += M->z[i * M->c + o] * M->z[i * M->c + o];
        M->quad[o] = q;
    }
    /* k logarithms: only the priors with tau > 0 read log|A| (the g-prior
     * and the penalised criteria do not; any change of prior refactorises
     * and comes back here) */
    if (M->prior.type->reads_logdet)
        M->logdet = bsl_chol_logdet(&M->chol);
    M->log_ml = score_of(M, M->k, M->logdet, M->quad);
}

static int create(bsl_model **out, const bsl_design *D, const bsl_atom_source *src,
                  const bsl_coef_prior *prior, size_t kmax, basel_error *err)
{
    *out = NULL;
    bsl_model *M = calloc(1, sizeof *M);
    if (!M) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    M->D = D;
    if (src) M->src = *src;
    M->rank_tol = src && src->rank_tol > 0 ? src->rank_tol : BSL_RANK_TOL;
    M->prior = *prior;
    M->m = src ? src->m : D->m;
    M->c = D->c;
    M->kmax = kmax;
    M->tau = bsl_coef_tau(prior);
    M->trial_j = -1;
    const size_t kc = kmax + 1, c = D->c;
    M->active = bsl_malloc(kc, sizeof(size_t));
    M->pos = bsl_malloc(M->m, sizeof(long));
    M->Ainv = bsl_calloc(kc * kc, sizeof(double));
    M->bA = bsl_calloc(kc * c, sizeof(double));
    M->GA = bsl_calloc(kc * kc, sizeof(double));
    M->z = bsl_calloc(kc * c, sizeof(double));
    M->quad = bsl_calloc(c, sizeof(double));
    M->g_o = bsl_calloc(c, sizeof(double));
    M->lg_o = bsl_calloc(c, sizeof(double));
    M->lg_of = bsl_calloc(c, sizeof(double));
    M->trial_v = bsl_calloc(kc, sizeof(double));
    M->trial_u = bsl_calloc(kc, sizeof(double));
    M->trial_g = bsl_calloc(kc, sizeof(double));
    M->trial_quad = bsl_calloc(c, sizeof(double));
    M->work = bsl_calloc(kc * (c + 2), sizeof(double));
    M->trial_bty = bsl_calloc(c, sizeof(double));
    int bad = !M->active || !M->pos || !M->Ainv || !M->bA || !M->GA || !M->z || !M->quad || !M->g_o || !M->lg_o || !M->lg_of || !M->trial_v || !M->trial_u ||
              !M->trial_g || !M->trial_quad || !M->work || !M->trial_bty || bsl_chol_init(&M->chol, kc) != BASEL_OK;
    if (!bad && src && !src->column) { /* cross products from the caller: no columns */
    } else if (!bad && src) { /* columns from the caller: no Gram matrix, no cache by id */
        M->cols = bsl_malloc(D->n * kc, sizeof(double));
        M->trial_col = bsl_malloc(D->n, sizeof(double));
        bad = !M->cols || !M->trial_col;
    } else if (!bad && !D->G && D->B) { /* the design keeps every column (design.c): read in place, no cache */
        M->cols = bsl_malloc(D->n * kc, sizeof(double));
        M->trial_col = bsl_malloc(D->n, sizeof(double));
        bad = !M->cols || !M->trial_col;
    } else if (!bad && !D->G) {
        M->cols = bsl_malloc(D->n * kc, sizeof(double));
        M->trial_col = bsl_malloc(D->n, sizeof(double));
        M->ncache = BSL_MIN(D->m, BSL_MAX(1, BSL_COLUMN_CACHE_BYTES / (8 * D->n)));
        M->cache_atom = bsl_malloc(M->ncache, sizeof(long));
        M->cache = bsl_malloc(M->ncache * D->n, sizeof(double));
        bad = !M->cols || !M->trial_col || !M->cache_atom || !M->cache;
        for (size_t i = 0; !bad && i < M->ncache; i++) M->cache_atom[i] = -1;
    }
    if (bad) {
        bsl_model_free(M);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory for a model of up to %zu atoms", kmax);
    }
    /* add_scores' list of dormant atoms (the design's own atoms; NULL: atom
     * by atom) */
    if (!src) M->rb_atoms = malloc(2 * M->m * sizeof *M->rb_atoms + 1); /* and candidate_scores' at */
    for (size_t j = 0; j < M->m; j++) M->pos[j] = -1;
    for (size_t o = 0; o < c; o++) {
        M->g_o[o] = prior->g;
        M->lg_of[o] = NAN; /* no log1p(g) yet */
    }
    update_score(M);
    *out = M;
    return BASEL_OK;
}

int bsl_model_create(bsl_model **out, const bsl_design *D, const bsl_coef_prior *prior,
                     size_t kmax, basel_error *err)
{
    return create(out, D, NULL, prior, kmax, err);
}

void bsl_model_use_columns(bsl_model *M, bsl_colstore *cs)
{
    M->store = cs && cs->D == M->D && !M->src.column && !M->src.gram ? cs : NULL;
}

int bsl_model_create_source(bsl_model **out, const bsl_design *D, const bsl_atom_source *src,
                            const bsl_coef_prior *prior, size_t kmax, basel_error *err)
{
    if (!src || (!src->column && !(src->gram && src->bty))) return bsl_fail(err, BASEL_EINVAL, "no atom source");
    if (!src->column && D->q != 0)
        return bsl_fail(err, BASEL_EINVAL, "a cross-product source needs a plain design (no projection)");
    return create(out, D, src, prior, kmax, err);
}

void bsl_model_copy(bsl_model *dst, const bsl_model *src)
{
    /* only the leading k columns carry state (an add writes row and column
     * k before anything reads them) */
    const size_t kc = src->kmax + 1, c = src->c, k = src->k;
    dst->prior = src->prior;
    dst->tau = src->tau;
    /* pos is -1 off the active set: O(k) to move, not O(m) (sequential
     * models copy particles with thousands of candidate atoms each step) */
    for (size_t i = 0; i < dst->k; i++) dst->pos[dst->active[i]] = -1;
    dst->k = k;
    memcpy(dst->active, src->active, k * sizeof *dst->active);
    for (size_t i = 0; i < k; i++) dst->pos[dst->active[i]] = (long)i;
    /* and of those only the leading k rows (the factor: its lower
     * triangle): an add writes row k of every column too */
    const size_t cap = src->chol.cap;
    for (size_t j = 0; j < k; j++) {
        memcpy(dst->chol.L + j * cap + j, src->chol.L + j * cap + j, (k - j) * sizeof(double));
        if (src->since_inv_refresh != BSL_INV_STALE)
            memcpy(dst->Ainv + j * kc, src->Ainv + j * kc, k * sizeof(double));
        memcpy(dst->GA + j * kc, src->GA + j * kc, k * sizeof(double));
    }
    dst->chol.k = src->chol.k;
    dst->epoch++;
    memcpy(dst->bA, src->bA, k * c * sizeof(double));
    memcpy(dst->z, src->z, k * c * sizeof(double));
    if (src->cols) memcpy(dst->cols, src->cols, src->D->n * src->k * sizeof(double));
    memcpy(dst->quad, src->quad, c * sizeof(double));
    memcpy(dst->g_o, src->g_o, c * sizeof(double));
    dst->log_ml = src->log_ml;
    dst->logdet = src->logdet;
    dst->since_refactor = src->since_refactor;
    dst->since_inv_refresh = src->since_inv_refresh;
    dst->trial_j = -1;
}

/* A' = A + v v' over the active atoms (v = their row values): the factor
 * by k Givens rotations with z riding along (linalg/rank1.h: z becomes
 * L'^{-1}(b + v y)), the explicit inverse by Sherman-Morrison, A^{-1} -
 * u u' / (1 + v'u) with u = A^{-1} v, and the Gram block and b directly. */
int bsl_model_add_row(bsl_model *M, const double *row, const double *y)
{
    if (!M->src.gram) return BASEL_EINVAL;
    const size_t k = M->k, c = M->c, ld = M->kmax + 1;
    double *v = M->trial_v, *u = M->trial_u, *zx = M->trial_quad;
    const int inv = M->since_inv_refresh != BSL_INV_STALE;
    for (size_t i = 0; i < k; i++) v[i] = row[M->active[i]];
    if (inv) {
        bsl_inv_apply(M->Ainv, k, ld, v, u);
        const double den = 1 + bsl_dot(v, u, k);
        for (size_t j = 0; j < k; j++)
            for (size_t i = 0; i < k; i++) M->Ainv[i + j * ld] -= u[i] * u[j] / den;
    }
    for (size_t j = 0; j < k; j++) {
        for (size_t i = 0; i < k; i++) M->GA[i + j * ld] += v[i] * v[j];
        for (size_t o = 0; o < c; o++) M->bA[j * c + o] += v[j] * y[o];
    }
    for (size_t o = 0; o < c; o++) zx[o] = y[o];
    bsl_chol_rank1_update(&M->chol, v, M->z, c, zx); /* destroys v */
    M->epoch++;
    M->trial_j = -1;
    update_score(M);
    M->since_inv_refresh += inv;
    if (++M->since_refactor >= BSL_REFACTOR_EVERY) return bsl_model_refactor(M);
    return BASEL_OK;
}

void bsl_model_clear(bsl_model *M)
{
    for (size_t i = 0; i < M->k; i++) M->pos[M->active[i]] = -1;
    M->k = 0;
    M->chol.k = 0;
    M->epoch++;
    M->since_refactor = M->since_inv_refresh = 0;
    M->trial_j = -1;
    update_score(M);
}

/* Source mode: atom j's projected column into trial_col, with its
 * diagonal, usability and cross products with y, exactly as the design
 * computes them for its own atoms (design.c). */
static void source_column(bsl_model *M, size_t j)
{
    const bsl_design *D = M->D;
    const size_t n = D->n;
    double *col = M->trial_col;
    M->src.column(M->src.ctx, j, col);
    const double raw = bsl_dot(col, col, n);
    bsl_design_project(D, col, NULL);
    M->trial_diag = bsl_dot(col, col, n);
    M->trial_usable = M->trial_diag > 1e-10 * raw; /* as design.c's usable */
    for (size_t o = 0; o < M->c; o++) M->trial_bty[o] = bsl_dot(col, D->Y + o * n, n);
}

/* b_j'P b_j and b_j'P y_o of atom j (source mode: of the atom cross() or
 * source_column() last fetched, which must be j) */
static double atom_diag(const bsl_model *M, size_t j)
{
    return M->src.column || M->src.gram ? M->trial_diag : M->D->diag[j];
}
static double atom_bty(const bsl_model *M, size_t j, size_t o)
{
    return M->src.column || M->src.gram ? M->trial_bty[o] : M->D->Bty[j * M->c + o];
}

/* Cross products of atom j with the active atoms into g; in streaming mode
 * also leaves j's projected column in trial_col, or points trial_src at
 * the summaries' store that holds it. */
static void cross(bsl_model *M, size_t j, double *g)
{
    const bsl_design *D = M->D;
    M->trial_src = NULL;
    if (M->src.column) {
        source_column(M, j);
        bsl_dots(M->trial_col, M->cols, D->n, M->k, D->n, g);
        return;
    }
    if (M->src.gram) { /* cross products from the caller, no columns */
        for (size_t i = 0; i < M->k; i++) g[i] = M->src.gram(M->src.ctx, M->active[i], j);
        M->trial_diag = M->src.gram(M->src.ctx, j, j);
        M->trial_usable = M->trial_diag > 0;
        for (size_t o = 0; o < M->c; o++) M->trial_bty[o] = M->src.bty(M->src.ctx, j, o);
        return;
    }
    if (D->G) {
        const double *Gj = D->G + j * D->m;
        for (size_t i = 0; i < M->k; i++) g[i] = Gj[M->active[i]];
        return;
    }
    /* a design that keeps its columns, or the summaries' store, holds j's
     * for as long as the model lives: read in place */
    const double *col = D->B ? D->B + j * D->n : bsl_colstore_get(M->store, j);
    M->trial_src = col;
    if (!col) {
        const size_t slot = j % M->ncache;
        double *own = M->cache + slot * D->n;
        if (M->cache_atom[slot] != (long)j) {
            bsl_design_column(D, j, own);
            M->cache_atom[slot] = (long)j;
        }
        memcpy(M->trial_col, own, D->n * sizeof(double));
        col = own;
    }
    if (!M->store) {
        bsl_dots(col, M->cols, D->n, M->k, D->n, g);
        return;
    }
    /* the summaries' refits: each pair's product once (colstore.c), summed
     * as bsl_dots sums it at this position; the missing ones of the blocks
     * four running sums at a time, as there */
    const size_t blocked = M->k / 4 * 4;
    const double *miss[4];
    size_t at[4], nmiss = 0;
    for (size_t i = 0; i < M->k; i++) {
        const int seq = i < blocked;
        if (!bsl_colstore_pair_find(M->store, M->active[i], j, seq, &g[i])) {
            if (!seq) {
                g[i] = bsl_dot(col, M->cols + i * D->n, D->n);
                bsl_colstore_pair_put(M->store, M->active[i], j, 0, g[i]);
            } else {
                miss[nmiss] = M->cols + i * D->n;
                at[nmiss++] = i;
            }
        }
        if (nmiss == 4 || (nmiss && i + 1 == blocked)) {
            double v[4];
            bsl_dots_of(col, miss, nmiss, D->n, v);
            for (size_t r = 0; r < nmiss; r++) {
                g[at[r]] = v[r];
                bsl_colstore_pair_put(M->store, M->active[at[r]], j, 1, v[r]);
            }
            nmiss = 0;
        }
    }
}

/* Ainv from the factor (O(k^3)); a failure leaves it stale (the readers
 * then see a non-positive diagonal and refuse, as for a drifted inverse) */
static void refresh_inverse(bsl_model *M)
{
    if (bsl_inv_from_chol(&M->chol, M->Ainv, M->kmax + 1) == BASEL_OK) M->since_inv_refresh = 0;
}

/* Before the explicit inverse is read: rebuild it from the factor unless it
 * is fresh, or at most BSL_INV_REFRESH_EVERY updates old over a set whose
 * every variance inflation d_p (A^{-1})_pp is below BSL_INV_VIF (model.h:
 * beyond that the O(k^2) downdates lose the digits the drop-one scores
 * need). O(k) to decide. */
static void inverse_for_reading(bsl_model *M)
{
    if (M->since_inv_refresh == 0) return;
    const size_t ld = M->kmax + 1;
    int ok = M->since_inv_refresh <= BSL_INV_REFRESH_EVERY;
    for (size_t p = 0; ok && p < M->k; p++) {
        const double Bpp = M->Ainv[p + p * ld];
        ok = Bpp > 0 && (M->GA[p + p * ld] + M->tau) * Bpp < BSL_INV_VIF;
    }
    if (!ok) refresh_inverse(M);
}

/* Whether the collinearity check of the atoms already in (try_add's loop:
 * d_p (A'^{-1})_pp < 1 / rank_tol for every active p, with (A'^{-1})_pp =
 * B_pp + u_p^2 / s, B = A^{-1}, u = B g) is sure to pass once an atom of
 * diagonal d and Schur complement s joins, decided in O(k) without the
 * k^2 product u = B g: with v = L^{-1} g, |v|^2 = d - s and
 * |u|^2 = v' (L'L)^{-1} v <= lambda_max(B) |v|^2 <= tr(B) (d - s), so
 *     d_p (A'^{-1})_pp <= max_p d_p B_pp + max_p d_p tr(B) (d - s) / s.
 * The same bound holds after a swap (s, d of the atom coming in, the
 * factor without the atom going out: A_{-p}^{-1} has its diagonal below
 * B's and its largest eigenvalue below B's, by interlacing). When it is a
 * thousandth of the limit, no rounding can make the exact check fail, so
 * the answer is the exact check's (the common case: well-conditioned sets
 * skip u); otherwise 0 and the caller runs the exact check. The explicit
 * inverse must have been made fit to read (inverse_for_reading). */
typedef struct vif_bound {
    double vif, dmax, tr; /* max_p d_p B_pp, max_p d_p, tr(B); vif < 0: no bound */
} vif_bound;

static vif_bound vif_bound_of(const bsl_model *M)
{
    const size_t ld = M->kmax + 1;
    vif_bound b = {0, 0, 0};
    for (size_t p = 0; p < M->k; p++) {
        const double dp = M->GA[p + p * ld] + M->tau, Bpp = M->Ainv[p + p * ld];
        if (!(Bpp > 0 && dp > 0)) return (vif_bound){-1, 0, 0}; /* a drifted inverse */
        const double vp = dp * Bpp; /* positive: comparisons, not libm's fmax */
        if (vp > b.vif) b.vif = vp;
        if (dp > b.dmax) b.dmax = dp;
        b.tr += Bpp;
    }
    return b;
}

static int vif_surely_ok(const bsl_model *M, const vif_bound *b, double s, double d)
{
    return b->vif >= 0 && M->rank_tol * (b->vif + b->dmax * b->tr * ((d - s) / s)) < 1e-3;
}

double bsl_model_try_add(bsl_model *M, size_t j)
{
    M->trial_j = -1;
    const int sourced = M->src.column || M->src.gram;
    if (M->k >= M->kmax || M->pos[j] >= 0 || (!sourced && !M->D->usable[j])) return -INFINITY;
    const size_t k = M->k, c = M->c;
    cross(M, j, M->trial_g);
    if (sourced && !M->trial_usable) return -INFINITY;
    const double d = atom_diag(M, j) + M->tau;
    const double s = bsl_chol_schur(&M->chol, M->trial_g, d, M->trial_v);
    if (!(s > M->rank_tol * d)) return -INFINITY;
    /* the variance inflation of every atom already in: with u = A^{-1} g,
     * (A'^{-1})_pp = (A^{-1})_pp + u_p^2 / s (linalg.h, bsl_inv_append).
     * With tau > 0 it is at most d_p / tau (A' >= tau I), so when even the
     * largest d_p passes that bound the check is decided without u */
    const size_t ld = M->kmax + 1;
    double dmax = 0;
    for (size_t p = 0; M->tau > 0 && p < k; p++) dmax = fmax(dmax, M->GA[p + p * ld]);
    M->trial_has_u = 0;
    if (!(M->tau > 0 && (dmax + M->tau) * M->rank_tol < M->tau)) {
        inverse_for_reading(M);
        const vif_bound vb = vif_bound_of(M);
        if (!vif_surely_ok(M, &vb, s, d)) {
            bsl_inv_apply(M->Ainv, k, ld, M->trial_g, M->trial_u);
            M->trial_has_u = 1;
        }
        for (size_t p = 0; M->trial_has_u && p < k; p++) {
            const double dp = M->GA[p + p * ld] + M->tau; /* b_p'P b_p of active[p] */
            const double u = M->trial_u[p];
            if (!(dp * (M->Ainv[p + p * ld] + u * u / s) * M->rank_tol < 1)) return -INFINITY;
        }
    }
    /* new row of z and the new quad: quad' = quad + z_new^2 */
    for (size_t o = 0; o < c; o++) {
        double t = atom_bty(M, j, o);
        for (size_t i = 0; i < k; i++) t -= M->trial_v[i] * M->z[i * c + o];
        t /= sqrt(s);
        M->work[o] = t;
        M->trial_quad[o] = M->quad[o] + t * t;
    }
    const double logdet = reads_logdet(M) ? M->logdet + log(s) : M->logdet;
    M->trial_j = (long)j;
    M->trial_s = s;
    M->trial_log_ml = score_of(M, k + 1, logdet, M->trial_quad);
    return M->trial_log_ml;
}

/* U = L^{-T} V for the t atoms of a tile (add_scores' collinearity
 * check; U's and V's k rows ld apart), backward substitution over the
 * tile's columns at once. */
static void block_solve_upper(const bsl_model *M, double *U, const double *V, size_t ld, size_t t)
{
    const size_t k = M->k, cap = M->chol.cap;
    for (size_t i = 0; i < k; i++) memcpy(U + i * ld, V + i * ld, t * sizeof *U);
    for (size_t l = k; l-- > 0;) {
        const double *Ll = M->chol.L + l * cap;
        double *Ul = U + l * ld;
        for (size_t i = l + 1; i < k; i++) {
            const double *Ui = U + i * ld;
            const double Lil = Ll[i];
            for (size_t a = 0; a < t; a++) Ul[a] -= Lil * Ui[a];
        }
        const double il = 1.0 / Ll[l];
        for (size_t a = 0; a < t; a++) Ul[a] *= il;
    }
}

/* V = L^{-1} V in place for the t atoms of a tile (rows ld apart):
 * forward substitution, L column by column. */
static void block_solve_lower(const bsl_model *M, double *V, size_t ld, size_t t)
{
    const size_t k = M->k, cap = M->chol.cap;
    for (size_t l = 0; l < k; l++) {
        const double *Ll = M->chol.L + l * cap;
        double *Vl = V + l * ld;
        const double il = 1.0 / Ll[l];
        for (size_t a = 0; a < t; a++) Vl[a] *= il;
        for (size_t i = l + 1; i < k; i++) {
            double *Vi = V + i * ld;
            const double Lil = Ll[i];
            for (size_t a = 0; a < t; a++) Vi[a] -= Lil * Vl[a];
        }
    }
}

/* Atoms per tile of the scoring passes: the tile's k x BSL_SCORE_TILE
 * block of V (and of U) stays in the first-level cache through the
 * substitutions and the scores (20 KB at k = 10), where the whole k x r
 * block at p = 10^5 (8 MB) was read from memory k / 2 times over. Each
 * atom's arithmetic is the same whatever the tile. */
#define BSL_SCORE_TILE 256

/* try_add's score for every atom at once (out[j] for every dormant j,
 * -inf where j cannot enter; NAN for the active atoms), model unchanged.
 * The r dormant atoms go through the triangular
 * solves together, a tile of BSL_SCORE_TILE atoms at a time: V = L^{-1}
 * G_{A,J} (k x r, row-major, so that each step of the substitution is one
 * vectorised row operation over a tile's atoms), the Schur complements
 * s_j = d_j + tau - |v_j|^2 and, where the collinearity check needs it and
 * vif_surely_ok cannot settle it for some atom, U = L^{-T} V = A^{-1}
 * G_{A,J} (then for all of the tile's atoms); then
 * try_add's arithmetic atom by atom. O(k^2 r) like r try_adds, in a few
 * long loops instead of r short ones. The k rows G_{A,.} come from the
 * dense Gram matrix or, on a streaming design, from the design's shared cache of
 * Gram rows (gram_rows.c: O(n m) per atom on first use instead of O(n k)
 * per atom at every call). Atoms from a source (or no memory for the
 * k x r blocks or the rows): try_add atom by atom. */
/* The screen of add_scores (model.h): with one output, a prior whose
 * score of k + 1 atoms increases in the new quadratic form qd alone (the
 * g-prior under Jeffreys' sigma^2: coef_g.c) scores only the atoms whose qd
 * can come within `within` of the best qd_best. Returns the smallest qd to
 * score, or -INFINITY when the prior has no screen. */
static double screen_floor(const bsl_model *M, double within, double qd_best)
{
    const bsl_coef_prior *p = &M->prior;
    if (!(within < INFINITY) || M->c != 1 || !p->type->screen) return -INFINITY;
    return p->type->screen(p, M->D->yy[0], M->g_o[0], (double)(M->D->n - M->D->q), within, qd_best);
}

/* What a scoring pass shares between its tiles */
typedef struct score_pass {
    int screen, vif;
    vif_bound vb;
    double *Q, qbest; /* the screen: each atom's new quadratic form, and the best */
} score_pass;

static score_pass pass_begin(bsl_model *M, double within, double *Q)
{
    const size_t k = M->k, ld = M->kmax + 1;
    score_pass x = {screen_floor(M, within, 0.0) > -INFINITY, 1, {0, 0, 0}, Q, -INFINITY};
    double dmax = 0;
    for (size_t p = 0; M->tau > 0 && p < k; p++) dmax = fmax(dmax, M->GA[p + p * ld]);
    x.vif = !(M->tau > 0 && (dmax + M->tau) * M->rank_tol < M->tau);
    if (x.vif && k) inverse_for_reading(M);
    if (x.vif && k) x.vb = vif_bound_of(M);
    return x;
}

/* try_add's arithmetic for the atoms J[a], a in [a0, a1), of one tile:
 * atom a's column of V = L^{-1} G_{A,J} is a - a0 of the tile's block V (k
 * rows, ldv apart); U (the same shape) is the tile's L^{-T} V, made when
 * the first atom needs the collinearity check. out[oi[a]] <- the score
 * (-inf: cannot enter; 0 and Q[a] under the screen, scored by pass_end). */
static void score_tile(bsl_model *M, const size_t *J, const size_t *oi, size_t a0, size_t a1, const double *V,
                       double *U, size_t ldv, score_pass *x, double *out)
{
    const size_t t = a1 - a0;
    const size_t k = M->k, c = M->c, ld = M->kmax + 1;
    double *qd = M->trial_quad;
    /* |v|^2 and, with one output, b_j - v'z for every column of the tile,
     * row by row: the same sums in the same order per atom as a loop per
     * atom, but over contiguous columns, so they vectorise */
    double vv[BSL_SCORE_TILE], tz[BSL_SCORE_TILE];
    for (size_t a = 0; a < t; a++) vv[a] = 0;
    for (size_t i = 0; i < k; i++) {
        const double *Vi = V + i * ldv;
        for (size_t a = 0; a < t; a++) vv[a] += Vi[a] * Vi[a];
    }
    if (c == 1) {
        for (size_t a = 0; a < t; a++) tz[a] = M->D->Bty[J[a0 + a]];
        for (size_t i = 0; i < k; i++) {
            const double *Vi = V + i * ldv, zi = M->z[i];
            for (size_t a = 0; a < t; a++) tz[a] -= Vi[a] * zi;
        }
    }
    int have_u = 0;
    for (size_t a = a0; a < a1; a++) {
        const size_t j = J[a], col = a - a0;
        out[oi[a]] = -INFINITY;
        const double d = M->D->diag[j] + M->tau, s = d - vv[col];
        if (!(s > M->rank_tol * d)) continue;
        const int check = x->vif && k && !vif_surely_ok(M, &x->vb, s, d);
        if (check && !have_u) { /* the tile's first atom that needs U: the tile's U, once */
            block_solve_upper(M, U, V, ldv, t);
            have_u = 1;
        }
        int ok = 1;
        for (size_t p = 0; check && ok && p < k; p++) {
            const double dp = M->GA[p + p * ld] + M->tau, u = U[p * ldv + col];
            ok = dp * (M->Ainv[p + p * ld] + u * u / s) * M->rank_tol < 1;
        }
        if (!ok) continue;
        const double rs = sqrt(s);
        for (size_t o = 0; o < c; o++) {
            double tt = c == 1 ? tz[col] : M->D->Bty[j * c + o];
            for (size_t i = 0; c > 1 && i < k; i++) tt -= V[i * ldv + col] * M->z[i * c + o];
            tt /= rs;
            qd[o] = M->quad[o] + tt * tt;
        }
        if (x->screen) { /* scored by pass_end, once the best is known */
            x->Q[a] = qd[0];
            x->qbest = qd[0] > x->qbest ? qd[0] : x->qbest; /* fmax inline, NaN skipped alike (qbest is never NaN) */
            out[oi[a]] = 0;
            continue;
        }
        out[oi[a]] = score_of(M, k + 1, reads_logdet(M) ? M->logdet + log(s) : M->logdet, qd);
    }
}

/* The screen's scores, once every tile has given its quadratic forms */
static void pass_end(bsl_model *M, const size_t *oi, size_t r, const score_pass *x, double within, double *out)
{
    if (!x->screen) return;
    const double floor = screen_floor(M, within, x->qbest);
    double *qd = M->trial_quad;
    for (size_t a = 0; a < r; a++) {
        if (out[oi[a]] == -INFINITY) continue; /* cannot enter */
        qd[0] = x->Q[a];
        out[oi[a]] = x->Q[a] >= floor ? score_of(M, M->k + 1, M->logdet, qd) : -INFINITY;
    }
}

/* Atoms per block of a scoring pass. The k rows of G_{A,.} are copied into
 * V block by block, so that V and U hold 2 k x block doubles instead of
 * 2 k x r: at m = 10^5 and k = 15, 24 MB a chain (all of it written and
 * read again each pass) became 3 MB; at m = 10^6, 240 MB a chain. A block
 * pins each row again (gram_rows.c; one row pinned at a time, as before),
 * so a pass has at most BSL_SCORE_BLOCKS of them: a row evicted between
 * two blocks (a cache smaller than the chains' active sets) is computed
 * again, once per block at worst. */
#define BSL_SCORE_BLOCKS 8
#define BSL_SCORE_BLOCK_MIN (4 * BSL_SCORE_TILE)

static size_t block_of(size_t r)
{
    size_t b = BSL_MAX((r + BSL_SCORE_BLOCKS - 1) / BSL_SCORE_BLOCKS, (size_t)BSL_SCORE_BLOCK_MIN);
    b = (b + BSL_SCORE_TILE - 1) / BSL_SCORE_TILE * BSL_SCORE_TILE;
    return BSL_MIN(b, r);
}

/* The scoring core of add_scores and candidate_scores: the r atoms J[a]
 * (dormant and usable), the row of active atom i read at at[a] of row_of
 * (i) (a Gram row, or a candidate row); out[oi[a]] <- score of J[a] (-inf:
 * cannot enter). Returns nonzero when a row cannot be had (the caller then
 * scores atom by atom); out is then partly written. */
typedef const double *(*row_fn)(bsl_model *M, size_t i, size_t *slot);
typedef void (*unrow_fn)(bsl_model *M, size_t slot);
static int batch_scores(bsl_model *M, const size_t *J, const size_t *at, const size_t *oi, size_t r, row_fn row_of,
                        unrow_fn unrow, double *out, double within)
{
    const size_t k = M->k, B = block_of(r);
    double *V = M->rb_work, *U = V + k * B;
    M->rb_ld = 0; /* V is being overwritten: add_scores says when it holds what pair_scores reads */
    score_pass x = pass_begin(M, within, U + k * B);
    for (size_t b0 = 0; b0 < r; b0 += B) {
        const size_t b1 = BSL_MIN(r, b0 + B);
        for (size_t i = 0; i < k; i++) { /* row i: the active atom's cross products */
            size_t slot = 0;
            const double *Gi = row_of(M, i, &slot);
            if (!Gi) return BASEL_ENOMEM;
            double *Vi = V + i * B;
            for (size_t a = b0; a < b1; a++) Vi[a - b0] = Gi[at[a]];
            if (unrow) unrow(M, slot);
        }
        for (size_t a0 = b0; a0 < b1; a0 += BSL_SCORE_TILE) {
            const size_t a1 = BSL_MIN(b1, a0 + BSL_SCORE_TILE);
            block_solve_lower(M, V + (a0 - b0), B, a1 - a0);
            score_tile(M, J, oi, a0, a1, V + (a0 - b0), U + (a0 - b0), B, &x, out);
        }
    }
    pass_end(M, oi, r, &x, within, out);
    return BASEL_OK;
}

/* room for batch_scores' blocks over r atoms: 2 k x block_of(r), and r
 * for the screen */
static int batch_room(bsl_model *M, size_t r)
{
    const size_t need = 2 * M->k * block_of(r) + r;
    if (M->rb_cap >= need) return BASEL_OK;
    double *w = realloc(M->rb_work, need * sizeof *w);
    if (!w) return BASEL_ENOMEM;
    M->rb_work = w;
    M->rb_cap = need;
    return BASEL_OK;
}

/* Row i of G_{A,.}: the dense Gram's, or the design's shared cache (pinned). */
static const double *gram_row_of(bsl_model *M, size_t i, size_t *slot)
{
    const size_t a = M->active[i];
    return M->D->G ? M->D->G + a * M->D->m : bsl_gram_row_pin(M->D->rows, M->D, a, slot);
}
static void gram_row_done(bsl_model *M, size_t slot)
{
    if (!M->D->G) bsl_gram_row_unpin(M->D->rows, slot);
}

void bsl_model_add_scores(bsl_model *M, double *out, double within)
{
    const size_t m = M->m, k = M->k;
    const int sourced = M->src.column || M->src.gram;
    size_t r = 0;
    for (size_t j = 0; j < m; j++) {
        out[j] = M->pos[j] >= 0 ? NAN : -INFINITY;
        if (M->pos[j] < 0 && (sourced || M->D->usable[j])) r++;
    }
    if (k >= M->kmax || r == 0) return;
    size_t *J = M->rb_atoms;
    if (!sourced && J) {
        M->trial_j = -1;
        r = 0;
        for (size_t j = 0; j < m; j++)
            if (M->pos[j] < 0 && M->D->usable[j]) J[r++] = j;
        if (batch_room(M, r) == BASEL_OK &&
            batch_scores(M, J, J, J, r, gram_row_of, gram_row_done, out, within) == BASEL_OK) {
            const int whole = M->D->G && block_of(r) == r; /* V of every atom, in one block */
            M->rb_ld = whole ? r : 0;
            M->rb_nv = whole ? r : 0;
            M->rb_epoch = M->epoch;
            return;
        }
    }
    for (size_t j = 0; j < m; j++) /* atom by atom */
        if (M->pos[j] < 0) out[j] = bsl_model_try_add(M, j);
}

/* Candidate rows: G_{a,C} for the candidate list C, from the dense Gram or
 * computed (O(n |C|)) into the model's own small cache. */
static const double *cand_row_of(bsl_model *M, size_t i, size_t *slot)
{
    (void)slot;
    const size_t a = M->active[i];
    bsl_cand *K = &M->cand;
    if (M->D->G) { /* gather from the dense Gram: no cache */
        const double *G = M->D->G + a * M->D->m;
        double *row = K->rows; /* slot 0 is scratch on a dense design */
        for (size_t c = 0; c < K->n; c++) row[c] = G[K->atoms[c]];
        return row;
    }
    return bsl_cand_row(K, M->D, a);
}

int bsl_model_set_candidates(bsl_model *M, const size_t *C, size_t nC)
{
    bsl_cand_free(&M->cand);
    if (nC == 0) return BASEL_OK;
    if (M->src.column || M->src.gram || !M->rb_atoms) return BASEL_EINVAL;
    return bsl_cand_init(&M->cand, M->D, C, nC);
}

void bsl_model_candidate_scores(bsl_model *M, double *out, double within)
{
    const bsl_cand *K = &M->cand;
    const size_t nC = K->n, k = M->k;
    size_t r = 0;
    size_t *J = M->rb_atoms, *at = J + nC; /* rb_atoms has room for 2 m >= 2 nC */
    for (size_t c = 0; c < nC; c++) {
        const size_t j = K->atoms[c];
        out[c] = M->pos[j] >= 0 ? NAN : -INFINITY;
        if (M->pos[j] < 0 && M->D->usable[j]) {
            J[r] = j;
            at[r++] = c;
        }
    }
    if (k >= M->kmax || r == 0) return;
    M->trial_j = -1;
    if (batch_room(M, r) == BASEL_OK &&
        batch_scores(M, J, at, at, r, cand_row_of, NULL, out, within) == BASEL_OK)
        return;
    for (size_t a = 0; a < r; a++) out[at[a]] = bsl_model_try_add(M, J[a]); /* atom by atom */
}

/* try_swap's score from the explicit inverse B = A^{-1}, O(k^2) in one
 * product u = B g (g: j's cross products with all k active atoms) and O(k c)
 * besides, no copy or downdate of the factor. With p = pos[i] leaving, the
 * block formulas of removing p (drop_score) and then adding j give
 *     u' = A_{-p}^{-1} g_{-p} = u_{-p} - B_{-p,p} u_p / B_pp,
 *     s' = d - g_{-p}' u'     = d - g'u + u_p^2 / B_pp,
 *     g_{-p}' A_{-p}^{-1} b_{-p} = u'b - u_p w_p / B_pp    (w = B b),
 *     quad' = quad - w_p^2 / B_pp + (b_j - u'b + u_p w_p / B_pp)^2 / s',
 *     log|A'| = log|A| + log B_pp + log s'.
 * It differs from the factor's arithmetic only by rounding, which grows
 * with the variance inflation and with d / s', so it is taken only where
 * both are small: every active VIF below BSL_INV_VIF (the inverse as
 * accurate as the factor, model.h) and s' / d above 1e-4 (and 1e4 times
 * the rank tolerance), where the rounding of s' = d - g'u + ... is at most
 * about k eps VIF d / s' ~ 3e-7 of s' (k = 15), and the collinearity check
 * of the other atoms is settled by vif_surely_ok. Elsewhere NAN: the caller takes the factor's
 * path. The caller has made the inverse fit to read. */
static double swap_score_from_inverse(bsl_model *M, size_t p, size_t j, double d)
{
    const size_t k = M->k, c = M->c, ld = M->kmax + 1;
    const vif_bound vb = vif_bound_of(M);
    if (!(vb.vif >= 0 && vb.vif < BSL_INV_VIF)) return NAN;
    const double *Bp = M->Ainv + p * ld, Bpp = Bp[p]; /* column p = row p */
    double *u = M->trial_u;
    bsl_inv_apply(M->Ainv, k, ld, M->trial_g, u);
    const double up = u[p];
    const double s = d - bsl_dot(M->trial_g, u, k) + up * up / Bpp;
    if (!(s > fmax(1e-4, 1e4 * M->rank_tol) * d) || !vif_surely_ok(M, &vb, s, d)) return NAN;
    double *qd = M->trial_quad;
    for (size_t o = 0; o < c; o++) {
        double wp = 0, ub = 0;
        for (size_t l = 0; l < k; l++) {
            wp += Bp[l] * M->bA[l * c + o];
            ub += u[l] * M->bA[l * c + o];
        }
        const double t = atom_bty(M, j, o) - ub + up * wp / Bpp;
        qd[o] = M->quad[o] - wp * wp / Bpp + t * t / s;
    }
    const double logdet = reads_logdet(M) ? M->logdet + log(Bpp) + log(s) : M->logdet;
    return score_of(M, k, logdet, qd);
}

/* The score of the set with active atom i replaced by j, model unchanged,
 * so that a rejected swap, the common case, leaves the model, its explicit
 * inverse and its update counters alone (no re-add, no inverse downdate
 * and append, no refresh they would bring on). Where the collinearity
 * check reads the explicit inverse anyway (tau = 0, or tau too small to
 * settle it), from the inverse (swap_score_from_inverse) when the set is
 * well conditioned; otherwise remove-then-try_add's arithmetic on a scratch
 * copy of the factor and of z (bsl_chol_remove's Givens downdate of
 * position p = pos[i], with z riding along, then the Schur complement of
 * j), the score the model would reach by moving. The collinearity check of
 * the other atoms reads the explicit inverse: (A_{-p}^{-1})_qq = B_qq -
 * B_qp^2 / B_pp (B = A^{-1}), plus u_q^2 / s with u = A_{-p}^{-1} g_{-p}
 * from the scratch factor, as try_add's, unless vif_surely_ok settles it.
 * O(k^2). (The inverse is made fit to read before the rank check of j,
 * which the factor's path alone did after it: a refresh may come one read
 * earlier when j is collinear, a change of rounding only.) */
double bsl_model_try_swap(bsl_model *M, size_t i, size_t j)
{
    M->trial_j = -1;
    const int sourced = M->src.column || M->src.gram;
    if (M->pos[i] < 0 || M->pos[j] >= 0 || (!sourced && !M->D->usable[j])) return -INFINITY;
    const size_t k = M->k, c = M->c, ld = M->kmax + 1, p = (size_t)M->pos[i], cap = M->chol.cap;
    if (!M->sw_z) {
        M->sw_z = bsl_calloc(ld * c, sizeof(double));
        M->sw_g = bsl_calloc(ld, sizeof(double));
        if (!M->sw_z || !M->sw_g || bsl_chol_init(&M->sw_chol, ld) != BASEL_OK) {
            free(M->sw_z);
            free(M->sw_g);
            M->sw_z = M->sw_g = NULL;
            return NAN; /* out of memory: the caller's fallback */
        }
    }
    bsl_chol *S = &M->sw_chol;
    cross(M, j, M->trial_g);
    if (sourced && !M->trial_usable) return -INFINITY;
    const double d = atom_diag(M, j) + M->tau;
    double dmax = 0;
    for (size_t q = 0; M->tau > 0 && q < k; q++) dmax = fmax(dmax, M->GA[q + q * ld]);
    const int check = !(M->tau > 0 && (dmax + M->tau) * M->rank_tol < M->tau);
    if (check) {
        inverse_for_reading(M);
        const double sc = swap_score_from_inverse(M, p, j, d);
        if (!isnan(sc)) {
            M->swaps_inv++;
            return sc;
        }
    }
    for (size_t l = 0; l < k; l++) memcpy(S->L + l * cap + l, M->chol.L + l * cap + l, (k - l) * sizeof(double));
    S->k = k;
    memcpy(M->sw_z, M->z, k * c * sizeof(double));
    bsl_chol_remove(S, p, M->sw_z, c);
    for (size_t q = 0, a = 0; q < k; q++)
        if (q != p) M->sw_g[a++] = M->trial_g[q];
    const double s = bsl_chol_schur(S, M->sw_g, d, M->trial_v);
    if (!(s > M->rank_tol * d)) return -INFINITY;
    if (check) {
        const double Bpp = M->Ainv[p + p * ld];
        if (!(Bpp > 0)) return -INFINITY; /* a drifted inverse: refuse, as drop_scores would */
        const vif_bound vb = vif_bound_of(M);
        const int sure = vif_surely_ok(M, &vb, s, d);
        double *u = M->trial_u;
        memcpy(u, M->trial_v, (k - 1) * sizeof *u);
        if (!sure) bsl_chol_solve_upper(S, u); /* u = A_{-p}^{-1} g_{-p} */
        for (size_t q = 0, a = 0; !sure && q < k; q++) {
            if (q == p) continue;
            const double Bqp = M->Ainv[q + p * ld], dq = M->GA[q + q * ld] + M->tau;
            if (!(dq * (M->Ainv[q + q * ld] - Bqp * Bqp / Bpp + u[a] * u[a] / s) * M->rank_tol < 1))
                return -INFINITY;
            a++;
        }
    }
    double *qd = M->trial_quad;
    for (size_t o = 0; o < c; o++) {
        double q0 = 0, t = atom_bty(M, j, o);
        for (size_t l = 0; l + 1 < k; l++) q0 += M->sw_z[l * c + o] * M->sw_z[l * c + o];
        for (size_t l = 0; l + 1 < k; l++) t -= M->trial_v[l] * M->sw_z[l * c + o];
        t /= sqrt(s);
        qd[o] = q0 + t * t;
    }
    const double logdet = reads_logdet(M) ? bsl_chol_logdet(S) + log(s) : M->logdet;
    return score_of(M, k, logdet, qd);
}

int bsl_model_add(bsl_model *M, size_t j)
{
    if (M->trial_j != (long)j && bsl_model_try_add(M, j) == -INFINITY) return BASEL_ENUMERIC;
    if (M->trial_j != (long)j) return BASEL_ENUMERIC;
    const size_t k = M->k, c = M->c, ld = M->kmax + 1;
    const double s = M->trial_s;
    const int inv = M->since_inv_refresh != BSL_INV_STALE;
    if (inv && !M->trial_has_u) bsl_inv_apply(M->Ainv, k, ld, M->trial_g, M->trial_u);
    if (inv) bsl_inv_append(M->Ainv, k, ld, M->trial_u, s);
    for (size_t o = 0; o < c; o++) {
        M->z[k * c + o] = M->work[o];
        M->bA[k * c + o] = atom_bty(M, j, o);
        M->quad[o] = M->trial_quad[o];
    }
    for (size_t i = 0; i < k; i++) M->GA[i + k * ld] = M->GA[k + i * ld] = M->trial_g[i];
    M->GA[k + k * ld] = atom_diag(M, j);
    bsl_chol_append_commit(&M->chol, M->trial_v, s);
    M->epoch++;
    if (M->cols) memcpy(M->cols + k * M->D->n, M->trial_src ? M->trial_src : M->trial_col, M->D->n * sizeof(double));
    M->active[k] = j;
    M->pos[j] = (long)k;
    M->k = k + 1;
    M->logdet += log(s);
    M->log_ml = M->trial_log_ml;
    M->trial_j = -1;
    M->since_inv_refresh += inv;
    if (++M->since_refactor >= BSL_REFACTOR_EVERY) return bsl_model_refactor(M);
    return BASEL_OK;
}

/* Delete row and column p of the k x k block A (leading dimension ld). */
static void delete_row_col(double *A, size_t k, size_t ld, size_t p)
{
    const size_t below = k - p - 1; /* rows after p move up by one */
    for (size_t j = 0; j < p; j++) memmove(A + p + j * ld, A + p + 1 + j * ld, below * sizeof *A);
    for (size_t j = p + 1; j < k; j++) { /* and columns after p left by one */
        memcpy(A + (j - 1) * ld, A + j * ld, p * sizeof *A);
        memcpy(A + p + (j - 1) * ld, A + p + 1 + j * ld, below * sizeof *A);
    }
}

void bsl_model_remove(bsl_model *M, size_t j)
{
    const size_t p = (size_t)M->pos[j], k = M->k, c = M->c, n = M->D->n;
    const int inv = M->since_inv_refresh != BSL_INV_STALE;
    /* the downdate amplifies the inverse's error by the removed atom's
     * variance inflation: past BSL_INV_VIF, rebuild before the next read */
    const double vif = (M->GA[p + p * (M->kmax + 1)] + M->tau) * M->Ainv[p + p * (M->kmax + 1)];
    if (inv && !(vif < BSL_INV_VIF)) M->since_inv_refresh = BSL_INV_REFRESH_EVERY;
    bsl_chol_remove(&M->chol, p, M->z, c);
    M->epoch++;
    if (inv) bsl_inv_remove(M->Ainv, k, M->kmax + 1, p);
    delete_row_col(M->GA, k, M->kmax + 1, p);
    memmove(M->bA + p * c, M->bA + (p + 1) * c, (k - p - 1) * c * sizeof(double));
    if (M->cols) memmove(M->cols + p * n, M->cols + (p + 1) * n, (k - p - 1) * n * sizeof(double));
    memmove(M->active + p, M->active + p + 1, (k - p - 1) * sizeof(size_t));
    M->pos[j] = -1;
    M->k = k - 1;
    for (size_t i = p; i < M->k; i++) M->pos[M->active[i]] = (long)i;
    M->trial_j = -1;
    update_score(M);
    M->since_inv_refresh += inv;
    if (++M->since_refactor >= BSL_REFACTOR_EVERY) bsl_model_refactor(M);
}

/* Dropping position p: with B = A^{-1} and w_o = B b_o,
 *   log|A_{-p}| = log|A| + log B_pp        (Schur complement 1/B_pp),
 *   quad_{-p,o} = quad_o - w_{p,o}^2 / B_pp. */
void bsl_model_drop_scores(bsl_model *M, double *out)
{
    const size_t k = M->k, c = M->c, ld = M->kmax + 1;
    inverse_for_reading(M);
    double *w = M->work;          /* k x c, w[o*k + i] = (A^{-1} b_o)_i */
    double *qd = M->work + k * c; /* c */
    for (size_t o = 0; o < c; o++)
        for (size_t i = 0; i < k; i++) {
            double t = 0;
            for (size_t l = 0; l < k; l++) t += M->Ainv[i + l * ld] * M->bA[l * c + o];
            w[o * k + i] = t;
        }
    /* the explicit inverse loses accuracy like cond(A) * eps; if rounding
     * has made a diagonal entry non-positive, rebuild it from the factor */
    int bad = 0;
    for (size_t p = 0; p < k; p++) bad |= !(M->Ainv[p + p * ld] > 0);
    if (bad && M->since_inv_refresh > 0 && bsl_inv_from_chol(&M->chol, M->Ainv, ld) == BASEL_OK) {
        M->since_inv_refresh = 0;
        return bsl_model_drop_scores(M, out);
    }
    for (size_t p = 0; p < k; p++) {
        const double Bpp = M->Ainv[p + p * ld];
        for (size_t o = 0; o < c; o++) qd[o] = M->quad[o] - w[o * k + p] * w[o * k + p] / Bpp;
        out[p] = score_of(M, k - 1, reads_logdet(M) ? M->logdet + log(Bpp) : M->logdet, qd);
    }
}

/* bsl_model_pair_scores' pivots: a Schur complement this far above the
 * collinearity limit (rank_tol of its diagonal) gives the same verdict
 * however it is rounded, and the closed forms' cancellation stays small */
#define PAIR_PIVOT 1e-6

/* The collinearity bound (vif_bound) of the set after an atom of diagonal
 * d and Schur complement s joins: its own d / s, the others' growth by
 * the bound's term, tr(B') = tr(B) + (|u|^2 + 1) / s <= tr(B) d / s + 1 / s. */
static vif_bound vif_bound_after(const vif_bound *b, double s, double d)
{
    vif_bound a = *b;
    a.vif = fmax(b->vif + b->dmax * b->tr * ((d - s) / s), d / s);
    a.dmax = fmax(b->dmax, d);
    a.tr = (b->tr * d + 1) / s;
    return a;
}

int bsl_model_pair_scores(bsl_model *M, const size_t *P, size_t np, double *out)
{
    if (M->src.column || M->src.gram || !M->D->G || M->c > 64) return BASEL_EINVAL;
    const size_t k = M->k, c = M->c, m = M->m, ld = M->kmax + 1;
    const double *G = M->D->G, tol = PAIR_PIVOT;
    if (!M->pair_col) { /* an atom's column, then each column's atom; each column's in V */
        M->pair_col = malloc(2 * m * sizeof *M->pair_col);
        M->pair_vc = malloc(m * sizeof *M->pair_vc);
        if (!M->pair_col || !M->pair_vc) {
            free(M->pair_col);
            free(M->pair_vc);
            M->pair_col = NULL;
            M->pair_vc = NULL;
            return BASEL_ENOMEM;
        }
        for (size_t j = 0; j < m; j++) M->pair_col[j] = -1;
    }
    long *col_atom = M->pair_col + m;
    /* the dormant, usable atoms the pairs meet: a column each */
    size_t r = 0;
    for (size_t i = 0; i < 2 * np; i++) {
        const size_t x = P[i];
        if (M->pos[x] < 0 && M->D->usable[x] && M->pair_col[x] < 0) {
            col_atom[r] = (long)x;
            M->pair_col[x] = (long)r++;
        }
    }
    /* V's columns: add_scores' when they are the set's (every dormant
     * usable atom, ascending in rb_atoms: the same numbers, each column's
     * solve the same arithmetic), else solved here */
    const int reuse = k && M->rb_ld && M->rb_epoch == M->epoch;
    const size_t nv = reuse ? 0 : k * r, ldv = reuse ? M->rb_ld : r;
    const size_t need = nv + r * (1 + c) + k * c + 1;
    if (M->pair_cap < need) {
        double *w = realloc(M->pair_work, need * sizeof *w);
        if (!w) {
            for (size_t a = 0; a < r; a++) M->pair_col[col_atom[a]] = -1;
            return BASEL_ENOMEM;
        }
        M->pair_work = w;
        M->pair_cap = need;
    }
    /* V (k rows ldv apart; atom a's column vc[a]): L^{-1} G_{A,x}; S: s_x;
     * R (r x c): r_x */
    double *V = reuse ? M->rb_work : M->pair_work, *S = M->pair_work + nv, *R = S + r, *beta = R + r * c, qd[64];
    size_t *vc = M->pair_vc;
    if (reuse) {
        const size_t *J = M->rb_atoms;
        for (size_t a = 0; a < r; a++) { /* binary search: J ascending */
            size_t lo = 0, hi = M->rb_nv;
            while (lo < hi) {
                const size_t mid = lo + (hi - lo) / 2;
                if (J[mid] < (size_t)col_atom[a]) lo = mid + 1;
                else hi = mid;
            }
            vc[a] = lo;
        }
    } else {
        for (size_t l = 0; l < k; l++) {
            const double *Gl = G + M->active[l] * m;
            for (size_t a = 0; a < r; a++) V[l * r + a] = Gl[col_atom[a]];
        }
        if (k && r) block_solve_lower(M, V, r, r);
        for (size_t a = 0; a < r; a++) vc[a] = a;
    }
    for (size_t a = 0; a < r; a++) {
        const size_t x = (size_t)col_atom[a], va = vc[a];
        double vv = 0;
        for (size_t l = 0; l < k; l++) vv += V[l * ldv + va] * V[l * ldv + va];
        S[a] = M->D->diag[x] + M->tau - vv;
        for (size_t o = 0; o < c; o++) {
            double t = M->D->Bty[x * c + o];
            for (size_t l = 0; l < k; l++) t -= V[l * ldv + va] * M->z[l * c + o];
            R[a * c + o] = t;
        }
    }
    /* the explicit inverse (fresh enough to read), beta = B b_A and the
     * collinearity bound of the set as it stands */
    vif_bound vb = {-1, 0, 0};
    if (k) {
        inverse_for_reading(M);
        vb = vif_bound_of(M);
        for (size_t o = 0; o < c; o++)
            for (size_t p = 0; p < k; p++) {
                double t = 0;
                for (size_t l = 0; l < k; l++) t += M->Ainv[p + l * ld] * M->bA[l * c + o];
                beta[o * k + p] = t;
            }
    } else {
        vb = (vif_bound){0, 0, 0};
    }
    const int logdet = reads_logdet(M);
    for (size_t i = 0; i < np; i++) {
        size_t a = P[2 * i], b = P[2 * i + 1];
        const long pa = M->pos[a], pb = M->pos[b];
        out[i] = NAN;
        if (pa < 0 && pb < 0) { /* gamma + a + b */
            if (k + 2 > M->kmax || !M->D->usable[a] || !M->D->usable[b]) {
                out[i] = -INFINITY;
                continue;
            }
            const size_t ca = (size_t)M->pair_col[a], cb = (size_t)M->pair_col[b];
            const double da = M->D->diag[a] + M->tau, db = M->D->diag[b] + M->tau, sa = S[ca];
            if (!(sa > tol * da) || !vif_surely_ok(M, &vb, sa, da)) continue;
            double vab = 0;
            for (size_t l = 0; l < k; l++) vab += V[l * ldv + vc[ca]] * V[l * ldv + vc[cb]];
            const double cab = G[a + b * m] - vab, sb = S[cb] - cab * cab / sa;
            const vif_bound v2 = vif_bound_after(&vb, sa, da);
            if (!(sb > tol * db) || !vif_surely_ok(M, &v2, sb, db)) continue;
            for (size_t o = 0; o < c; o++) {
                const double ra = R[ca * c + o], rb = R[cb * c + o] - cab * ra / sa;
                qd[o] = M->quad[o] + ra * ra / sa + rb * rb / sb;
            }
            out[i] = score_of(M, k + 2, logdet ? M->logdet + log(sa) + log(sb) : M->logdet, qd);
        } else if (pa >= 0 && pb >= 0) { /* gamma - a - b */
            const size_t p = (size_t)pa, q = (size_t)pb;
            const double Bpp = M->Ainv[p + p * ld], Bqq = M->Ainv[q + q * ld], Bpq = M->Ainv[p + q * ld];
            const double det = Bpp * Bqq - Bpq * Bpq;
            if (!(Bpp > 0 && Bqq > 0 && det > tol * Bpp * Bqq)) continue;
            for (size_t o = 0; o < c; o++) {
                const double x = beta[o * k + p], y = beta[o * k + q];
                qd[o] = M->quad[o] - (Bqq * x * x - 2 * Bpq * x * y + Bpp * y * y) / det;
            }
            out[i] = score_of(M, k - 2, logdet ? M->logdet + log(det) : M->logdet, qd);
        } else { /* the active one leaves, the dormant one joins */
            if (pa < 0) {
                const size_t t = a;
                a = b;
                b = t;
            }
            if (!M->D->usable[b]) {
                out[i] = -INFINITY;
                continue;
            }
            const size_t p = (size_t)M->pos[a], cb = (size_t)M->pair_col[b];
            const double db = M->D->diag[b] + M->tau, sb = S[cb], Bpp = M->Ainv[p + p * ld];
            /* the same bound holds after a swap (vif_bound_of's note) */
            if (!(sb > tol * db) || !(Bpp > 0) || !vif_surely_ok(M, &vb, sb, db)) continue;
            double wp = 0;
            for (size_t l = 0; l < k; l++) wp += M->Ainv[p + l * ld] * G[M->active[l] + b * m];
            const double Bn = Bpp + wp * wp / sb;
            for (size_t o = 0; o < c; o++) {
                const double rb = R[cb * c + o], bp = beta[o * k + p] - wp * rb / sb;
                qd[o] = M->quad[o] + rb * rb / sb - bp * bp / Bn;
            }
            out[i] = score_of(M, k, logdet ? M->logdet + log(sb) + log(Bn) : M->logdet, qd);
        }
    }
    for (size_t a = 0; a < r; a++) M->pair_col[col_atom[a]] = -1;
    return BASEL_OK;
}

double bsl_model_drop_score(bsl_model *M, size_t j)
{
    const size_t k = M->k, c = M->c, ld = M->kmax + 1, p = (size_t)M->pos[j];
    inverse_for_reading(M);
    if (!(M->Ainv[p + p * ld] > 0) && M->since_inv_refresh > 0 &&
        bsl_inv_from_chol(&M->chol, M->Ainv, ld) == BASEL_OK)
        M->since_inv_refresh = 0;
    const double Bpp = M->Ainv[p + p * ld];
    double *qd = M->work;
    for (size_t o = 0; o < c; o++) {
        double w = 0;
        for (size_t l = 0; l < k; l++) w += M->Ainv[p + l * ld] * M->bA[l * c + o];
        qd[o] = M->quad[o] - w * w / Bpp;
    }
    return score_of(M, k - 1, reads_logdet(M) ? M->logdet + log(Bpp) : M->logdet, qd);
}

int bsl_model_refactor(bsl_model *M)
{
    const size_t k = M->k, c = M->c, ld = M->kmax + 1, n = M->D->n;
    double *A = M->Ainv; /* build A_tau in place of the inverse, then invert */
    (void)n;
    for (size_t b = 0; b < k; b++)
        for (size_t a = b; a < k; a++) A[a + b * ld] = M->GA[a + b * ld] + (a == b ? M->tau : 0.0);
    M->since_refactor = 0;
    M->since_inv_refresh = 0;
    M->trial_j = -1;
    M->epoch++;
    if (bsl_chol_factor(&M->chol, A, k, ld) != BASEL_OK) return BASEL_ENUMERIC;
    if (M->src.lazy_inverse) M->since_inv_refresh = BSL_INV_STALE;
    else if (bsl_inv_from_chol(&M->chol, M->Ainv, ld) != BASEL_OK) return BASEL_ENUMERIC;
    for (size_t o = 0; o < c; o++) {
        double *t = M->work;
        for (size_t i = 0; i < k; i++) t[i] = M->bA[i * c + o];
        bsl_chol_solve_lower(&M->chol, t);
        for (size_t i = 0; i < k; i++) M->z[i * c + o] = t[i];
    }
    update_score(M);
    return BASEL_OK;
}

int bsl_model_set_prior(bsl_model *M, const bsl_coef_prior *prior)
{
    for (size_t o = 0; !prior->g_per_output && o < M->c; o++) M->g_o[o] = prior->g;
    if (prior->type == M->prior.type && prior->type->tau_fixed) { /* tau unchanged */
        M->prior = *prior;
        M->trial_j = -1;
        update_score(M);
        return BASEL_OK;
    }
    M->prior = *prior;
    M->tau = bsl_coef_tau(prior);
    return bsl_model_refactor(M);
}

void bsl_model_coef_mean(const bsl_model *M, double *beta)
{
    const size_t k = M->k, c = M->c;
    /* A_tau^{-1} b = L^{-T} z */
    double *t = M->work;
    for (size_t o = 0; o < c; o++) {
        const double shrink = bsl_model_shrink(M, o);
        for (size_t i = 0; i < k; i++) t[i] = M->z[i * c + o];
        bsl_chol_solve_upper(&M->chol, t);
        for (size_t i = 0; i < k; i++) beta[i * c + o] = shrink * t[i];
    }
}

double bsl_model_shrink(const bsl_model *M, size_t o)
{
    const double N = (double)(M->D->n - M->D->q);
    return M->prior.type->shrink(&M->prior, M->g_o[o], N, M->k, M->D->yy[o], M->quad[o]);
}

double bsl_model_sigma2(const bsl_model *M, size_t o)
{
    const double N = (double)(M->D->n - M->D->q);
    return M->prior.type->sigma2_mean(&M->prior, N, M->k, M->D->yy[o], M->quad[o], M->g_o[o]);
}

/* beta_o = A_tau^{-1} b_o + sigma L^{-T} xi_o = L^{-T}(z_o + sigma xi_o):
 * mean A_tau^{-1} b_o, covariance sigma^2 A_tau^{-1} (L L' = A_tau). */
int bsl_model_coef_draw(const bsl_model *M, double *beta)
{
    if (!M->prior.type->sigma2_given) return BASEL_EINVAL;
    const size_t k = M->k, c = M->c;
    const double sigma = sqrt(M->prior.sigma2);
    double *t = M->work;
    for (size_t o = 0; o < c; o++) {
        for (size_t i = 0; i < k; i++) t[i] = M->z[i * c + o] + sigma * beta[i * c + o];
        bsl_chol_solve_upper(&M->chol, t);
        for (size_t i = 0; i < k; i++) beta[i * c + o] = t[i];
    }
    return BASEL_OK;
}

/* The saved state: L and GA (lower triangles, column by column), Ainv
 * (whole: its downdates round its two triangles differently; left out
 * when stale), z
 * and bA (k x c), quad (c), logdet, log_ml, the prior's sigma2, lambda and
 * g (one per output), and the two update counters: everything a later update reads, so a
 * loaded model continues bit for bit. */
size_t bsl_model_state_size(const bsl_model *M)
{
    const size_t k = M->k, c = M->c;
    const size_t nA = M->since_inv_refresh == BSL_INV_STALE ? 0 : k * k;
    return k * (k + 1) + nA + 2 * k * c + 2 * c + 6;
}

static size_t put_lower(const double *A, size_t k, size_t ld, double *out)
{
    size_t n = 0;
    for (size_t j = 0; j < k; j++)
        for (size_t i = j; i < k; i++) out[n++] = A[i + j * ld];
    return n;
}

static size_t get_lower(double *A, size_t k, size_t ld, const double *in, int symmetric)
{
    size_t n = 0;
    for (size_t j = 0; j < k; j++)
        for (size_t i = j; i < k; i++) {
            A[i + j * ld] = in[n++];
            if (symmetric) A[j + i * ld] = A[i + j * ld];
        }
    return n;
}

void bsl_model_state_save(const bsl_model *M, double *out)
{
    const size_t k = M->k, c = M->c, ld = M->kmax + 1;
    double *p = out;
    p += put_lower(M->chol.L, k, M->chol.cap, p);
    for (size_t j = 0; M->since_inv_refresh != BSL_INV_STALE && j < k; j++, p += k)
        memcpy(p, M->Ainv + j * ld, k * sizeof *p);
    p += put_lower(M->GA, k, ld, p);
    memcpy(p, M->z, k * c * sizeof *p);
    p += k * c;
    memcpy(p, M->bA, k * c * sizeof *p);
    p += k * c;
    memcpy(p, M->quad, c * sizeof *p);
    p += c;
    *p++ = M->logdet;
    *p++ = M->log_ml;
    *p++ = M->prior.sigma2;
    *p++ = M->prior.lambda;
    memcpy(p, M->g_o, c * sizeof *p);
    p += c;
    *p++ = (double)M->since_refactor;
    *p++ = (double)M->since_inv_refresh;
}

int bsl_model_state_load(bsl_model *M, const size_t *active, size_t k, const double *in, size_t n)
{
    const size_t c = M->c, ld = M->kmax + 1;
    if (k > M->kmax || n < 1) return BASEL_EINVAL;
    const int stale = in[n - 1] == (double)BSL_INV_STALE; /* since_inv_refresh, last */
    const size_t nA = stale ? 0 : k * k;
    if (n != k * (k + 1) + nA + 2 * k * c + 2 * c + 6) return BASEL_EINVAL;
    for (size_t i = 0; i < k; i++)
        if (active[i] >= M->m) return BASEL_EINVAL;
    const double *p = in;
    const size_t nt = k * (k + 1) / 2;
    const double *sc = in + 2 * nt + nA + 2 * k * c + c + 2; /* sigma2, lambda, g (c), counters */
    const double *cnt = sc + 2 + c; /* since_refactor, since_inv_refresh */
    if (!(cnt[0] >= 0 && cnt[0] < BSL_REFACTOR_EVERY && cnt[0] == floor(cnt[0]) && cnt[1] >= 0 &&
          (stale || cnt[1] < 1e15) && cnt[1] == floor(cnt[1])))
        return BASEL_EINVAL;
    if (!M->prior.type->nuisance_ok(&M->prior, sc, c)) return BASEL_EINVAL;
    for (size_t i = 0; i < k; i++) /* the factor's diagonal: at offset sum of column lengths */
        if (!(in[i * k - i * (i - 1) / 2] > 0)) return BASEL_EINVAL;
    bsl_model_clear(M);
    for (size_t i = 0; i < k; i++) {
        if (M->pos[active[i]] >= 0) {
            bsl_model_clear(M);
            return BASEL_EINVAL; /* repeated */
        }
        M->active[i] = active[i];
        M->pos[active[i]] = (long)i;
        M->k = i + 1;
    }
    p += get_lower(M->chol.L, k, M->chol.cap, p, 0);
    M->chol.k = k;
    M->epoch++;
    for (size_t j = 0; !stale && j < k; j++, p += k) memcpy(M->Ainv + j * ld, p, k * sizeof *p);
    p += get_lower(M->GA, k, ld, p, 1);
    memcpy(M->z, p, k * c * sizeof *p);
    p += k * c;
    memcpy(M->bA, p, k * c * sizeof *p);
    p += k * c;
    memcpy(M->quad, p, c * sizeof *p);
    p += c;
    M->logdet = *p++;
    M->log_ml = *p++;
    M->prior.sigma2 = *p++;
    M->prior.lambda = *p++;
    memcpy(M->g_o, p, c * sizeof *p);
    p += c;
    M->prior.g = M->g_o[0];
    M->tau = bsl_coef_tau(&M->prior);
    M->since_refactor = (size_t)*p++;
    M->since_inv_refresh = (size_t)*p++;
    /* the active atoms' projected columns (a source's, or a streaming
     * design's) are not in the state: recomputed, they are the same bits */
    for (size_t i = 0; M->cols && i < k; i++) {
        if (M->src.column) source_column(M, active[i]);
        else bsl_design_column(M->D, active[i], M->trial_col);
        memcpy(M->cols + i * M->D->n, M->trial_col, M->D->n * sizeof(double));
    }
    M->trial_j = -1;
    return BASEL_OK;
}
