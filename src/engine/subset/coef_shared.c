/*
 * coef_shared.c: the Gaussian coefficient table's per-model algebra
 * (subset_post.c's header) over a Gram block (dense, or a streaming
 * design's columns), shared between models along their common prefixes.
 *
 * The table needs, of each visited model A (k atoms, A_tau = G_AA + tau I,
 * b_o = B_A' P y_o, s its shrinkage), for every output o:
 *   y_o = A_tau^{-1} b_o            (beta = s y_o, the atoms' means),
 *   diag(A_tau^{-1})                (their variances, times s scale2),
 *   quad_o = b_o' A_tau^{-1} b_o    (s, scale2 and df read it),
 *   T_lo = b_o' A_tau^{-1} gB_l     (the always-in coefficients
 *                                    gamma_l = gy_l - s T_lo),
 *   b_o' A_tau^{-1} ub, x' A_tau^{-1} x, gB_l' A_tau^{-1} gB_l
 *                                   (the intercept's and the always-in
 *                                    inputs' mean and variance),
 * where gB_l, ub and x are vectors over the model's atoms of per-atom
 * numbers (subset_post.c bsl_post_terms). With A_tau = L L' (Cholesky) and
 * W = L^{-1}, every one of them is a sum over the rows r of L of a term
 * that depends on the first r + 1 atoms only:
 *   v' A_tau^{-1} w = sum_r (L^{-1} v)_r (L^{-1} w)_r,
 *   (A_tau^{-1} b)_j = sum_{r >= j} W_rj (L^{-1} b)_r,
 *   (A_tau^{-1})_jj = sum_{r >= j} W_rj^2,
 * and row r of L and of W, and (L^{-1} v)_r, depend only on the first r + 1
 * atoms too. So with the atoms of every model put in one global order and
 * the models sorted by their atom lists (prefix_order.c), a model shares the rows of the
 * longest prefix it has in common with the model before it, and computes
 * only its own rows: O(r^2) for row r of L and of W, O(r) for the rest, and
 * O(k) to read its components out; a model on its own costs O(k^3) (a
 * factorisation and an inverse). The global order puts the atoms the most
 * models hold first, so that common prefixes are long: on lin_p100 (20000
 * models of about 15 atoms) it leaves 42 % of the O(k^3) rows to compute,
 * ascending atom order 80 %. The components are those of the per-model
 * algebra to rounding (tests/unit/engine/test_coef_shared.c: 1e-10
 * relative, and closer to long double than it on nearly collinear
 * kernels); the fit's table and the table on demand (coef_on_demand.c)
 * both come from here, so they agree to the bit. On a streaming design the
 * products come from the columns (the summaries' store keeps both), which
 * the path holds while its rows are in use: where each model refitted
 * alone added and removed its atoms one by one, moving its columns
 * (bd on sinc n = 4000: the table 1.59 -> 0.58 CPU-s).
 */
#include "subset_post.h"
#include "coef_table.h"
#include "prefix_order.h"
#include "../../model/model.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A streaming design's path holds the columns of its atoms that the store
 * does not: at most this many doubles (128 MB), else the caller goes model
 * by model */
#define STREAM_COLUMNS_MAX ((size_t)1 << 24)

/* The per-prefix state: rows of L and W, the solves (L^{-1} v)_r of the
 * nv vectors, and the running sums for each prefix length p = 0..kx. */
typedef struct prefix_ws {
    size_t kx, c, q, nv, na;
    double *L, *W;   /* row r at r * kx */
    double *iL;      /* 1 / L_rr: the rows below multiply (a division is on each step's critical path) */
    double *zv;      /* row r at r * nv: b_0..b_{c-1}, gB_0..gB_{q-1}, ub, x */
    double *acc;     /* prefix p at p * na: quad (c), T (q x c, l-major), Ub (c), xx, gg (q) */
    double *y;       /* prefix p at p * kx * c: (A^{-1} b_o)_j at j * c + o */
    double *sd;      /* prefix p at p * kx: (A^{-1})_jj */
    double *vec;     /* nv: the vectors' entries of the atom being added */
    /* a streaming design: row r's atom's column (the store's, or own + r n) */
    const double **col;
    double *own;
} prefix_ws;

static int ws_init(prefix_ws *w, size_t kx, size_t c, size_t q, size_t n_stream)
{
    memset(w, 0, sizeof *w);
    w->kx = kx;
    w->c = c;
    w->q = q;
    w->nv = c + q + 2;
    w->na = 2 * c + q * c + 1 + q;
    w->L = bsl_malloc(kx * kx + 1, sizeof(double));
    w->W = bsl_malloc(kx * kx + 1, sizeof(double));
    w->iL = bsl_malloc(kx + 1, sizeof(double));
    w->zv = bsl_malloc(kx * w->nv + 1, sizeof(double));
    w->acc = bsl_calloc((kx + 1) * w->na + 1, sizeof(double));
    w->y = bsl_malloc((kx + 1) * kx * c + 1, sizeof(double));
    w->sd = bsl_malloc((kx + 1) * kx + 1, sizeof(double));
    w->vec = bsl_malloc(w->nv + 1, sizeof(double));
    if (n_stream) {
        w->col = bsl_malloc(kx + 1, sizeof *w->col);
        w->own = bsl_malloc(kx * n_stream + 1, sizeof *w->own);
        if (!w->col || !w->own) return BASEL_ENOMEM;
    }
    return w->L && w->W && w->iL && w->zv && w->acc && w->y && w->sd && w->vec ? BASEL_OK : BASEL_ENOMEM;
}

static void ws_free(prefix_ws *w)
{
    free(w->L);
    free(w->W);
    free(w->iL);
    free(w->zv);
    free(w->acc);
    free(w->y);
    free(w->sd);
    free(w->vec);
    free((void *)w->col);
    free(w->own);
}

/* Row d of the path (its atom loc, global g): L, W, the solves and the
 * sums of prefix d + 1 from those of prefix d. 0, or -1 when the pivot
 * (the Schur complement of the atom given the prefix before it) is at most
 * half of BSL_RANK_TOL of its diagonal: the set has probability 0 in every
 * engine (model.h), since a kept set has every atom's complement given all
 * the others above BSL_RANK_TOL of its diagonal, and a complement given
 * fewer atoms is larger. */
static int add_row(prefix_ws *w, const bsl_coef_gram *gm, const bsl_design *D, const size_t *path, size_t d,
                   const double *u, const double *mu, const double *sc, int linear)
{
    const size_t kx = w->kx, c = w->c, q = w->q, nv = w->nv, na = w->na, a = path[d];
    const size_t g = gm->glob ? gm->glob[a] : a;
    double *Ld = w->L + d * kx, *Wd = w->W + d * kx;
    const bsl_design *S = gm->stream;
    if (!gm->G) { /* the atom's column, for its products with the path's */
        const double *col = S->B ? S->B + a * S->n : bsl_colstore_get(gm->cols, a);
        if (!col) {
            bsl_design_column(S, a, w->own + d * S->n);
            col = w->own + d * S->n;
        }
        w->col[d] = col;
    }
    /* row d of L: L_dj = (A_dj - sum_{l<j} L_dl L_jl) / L_jj */
    const double diag = (gm->G ? gm->G[a + a * gm->ld] : S->diag[a]) + gm->tau;
    double piv = diag;
    for (size_t j = 0; j < d; j++) {
        const double *Lj = w->L + j * kx;
        double t;
        if (gm->G) {
            t = gm->G[a + path[j] * gm->ld];
        } else if (!bsl_colstore_pair_find(gm->cols, a, path[j], 0, &t)) { /* as bsl_dot sums it */
            t = bsl_dot(w->col[d], w->col[j], S->n);
            bsl_colstore_pair_put(gm->cols, a, path[j], 0, t);
        }
        for (size_t l = 0; l < j; l++) t -= Ld[l] * Lj[l];
        Ld[j] = t * w->iL[j];
        piv -= Ld[j] * Ld[j];
    }
    if (!(piv > 0.5 * BSL_RANK_TOL * diag) || !isfinite(piv)) return -1;
    const double ldd = sqrt(piv), il = 1 / ldd;
    Ld[d] = ldd;
    w->iL[d] = il;
    /* row d of W = L^{-1}: W_dj = -(sum_{j<=i<d} L_di W_ij) / L_dd */
    for (size_t j = 0; j < d; j++) Wd[j] = 0;
    for (size_t i = 0; i < d; i++) {
        const double *Wi = w->W + i * kx, Ldi = Ld[i];
        for (size_t j = 0; j <= i; j++) Wd[j] -= Ldi * Wi[j];
    }
    for (size_t j = 0; j < d; j++) Wd[j] *= il;
    Wd[d] = il;
    /* the vectors' entries of atom a, and their solves (L^{-1} v)_d */
    double *v = w->vec, *zd = w->zv + d * nv;
    const double ub = bsl_post_atom_shift(linear, mu, sc, g);
    double x = -ub;
    for (size_t o = 0; o < c; o++) v[o] = gm->Bty[a * c + o];
    for (size_t l = 0; l < q; l++) {
        v[c + l] = D->gB[g * q + l];
        x += D->gB[g * q + l] * u[l];
    }
    v[c + q] = ub;
    v[c + q + 1] = x;
    for (size_t t = 0; t < nv; t++) {
        double s = v[t];
        for (size_t j = 0; j < d; j++) s -= Ld[j] * w->zv[j * nv + t];
        zd[t] = s * il;
    }
    /* the sums of prefix d + 1 */
    const double *a0 = w->acc + d * na;
    double *a1 = w->acc + (d + 1) * na;
    const double *zb = zd, *zg = zd + c, zu = zd[c + q], zx = zd[c + q + 1];
    for (size_t o = 0; o < c; o++) a1[o] = a0[o] + zb[o] * zb[o];
    for (size_t l = 0; l < q; l++)
        for (size_t o = 0; o < c; o++) a1[c + l * c + o] = a0[c + l * c + o] + zb[o] * zg[l];
    for (size_t o = 0; o < c; o++) a1[c + q * c + o] = a0[c + q * c + o] + zb[o] * zu;
    a1[2 * c + q * c] = a0[2 * c + q * c] + zx * zx;
    for (size_t l = 0; l < q; l++) a1[2 * c + q * c + 1 + l] = a0[2 * c + q * c + 1 + l] + zg[l] * zg[l];
    const double *y0 = w->y + d * kx * c, *s0 = w->sd + d * kx;
    double *y1 = w->y + (d + 1) * kx * c, *s1 = w->sd + (d + 1) * kx;
    for (size_t j = 0; j <= d; j++) {
        const double Wdj = Wd[j];
        for (size_t o = 0; o < c; o++) y1[j * c + o] = (j < d ? y0[j * c + o] : 0.0) + Wdj * zb[o];
        s1[j] = (j < d ? s0[j] : 0.0) + Wdj * Wdj;
    }
    return 0;
}

/* The components of the model whose path is path[0..k) (weight wt). */
static void emit(bsl_coef_comps *cp, size_t nterm, const prefix_ws *w, const bsl_coef_gram *gm, const bsl_design *D,
                 const size_t *path, size_t k, double wt, const double *u, const double *ruu, const double *sc,
                 int linear)
{
    const size_t c = w->c, q = w->q, na = w->na, kx = w->kx;
    const bsl_coef_prior *pr = gm->prior;
    const double N = gm->N, kk = (double)k;
    const double *acc = w->acc + k * na, *y = w->y + k * kx * c, *sd = w->sd + k * kx;
    const double s = pr->type->shrink(pr, pr->g, N, k, gm->yy[0], acc[0]);
    const double df = pr->type->post_df(pr, N, kk);
    const double xx = acc[2 * c + q * c];
    for (size_t o = 0; o < c; o++) {
        const size_t base = o * nterm;
        const double quad = acc[o];
        double s2 = pr->type->post_scale2(pr, N, df, gm->yy[o], quad, s);
        if (gm->bas_sd) s2 = bsl_post_bas_scale2(gm->yy[o], quad, N, kk);
        /* gamma_l = gy_l - s T_lo; the intercept of the original inputs
         * u' gamma + s b_o' A^{-1} ub, of variance s2 (u'(Z'Z)^{-1}u + s x'A^{-1}x) */
        double mean0 = 0;
        for (size_t l = 0; l < q; l++) mean0 += u[l] * (D->gy[l * c + o] - s * acc[c + l * c + o]);
        mean0 += s * acc[c + q * c + o];
        bsl_coef_comps_push(cp, base, wt, mean0, s2 * (ruu[0] + s * xx), df);
        for (size_t l = 1; l < q; l++) { /* an always-in input: gamma_l / sc */
            const double f = 1 / sc[l - 1], gam = D->gy[l * c + o] - s * acc[c + l * c + o];
            const double var = s2 * f * f * (ruu[l] + s * acc[2 * c + q * c + 1 + l]);
            bsl_coef_comps_push(cp, base + l, wt, gam * f, var, df);
        }
        for (size_t j = 0; j < k; j++) {
            const size_t g = gm->glob ? gm->glob[path[j]] : path[j];
            const double f = linear ? 1 / sc[g] : 1.0;
            bsl_coef_comps_push(cp, base + q + g, wt, s * y[j * c + o] * f, s2 * f * f * s * sd[j], df);
        }
    }
}

int bsl_coef_comps_shared(bsl_coef_comps *cp, size_t nterm, const bsl_design *D, const bsl_coef_gram *gm, size_t K,
                          const size_t *const *atoms, const size_t *ks, const double *wt, const double *mu,
                          const double *sc, int linear)
{
    const size_t q = D->q, c = D->c, n = gm->nloc;
    if (q == 0 || q > 64 || n > BSL_RANK_ATOMS_MAX) return BASEL_EINVAL;
    size_t kx = 0;
    for (size_t r = 0; r < K; r++) kx = ks[r] > kx ? ks[r] : kx;
    if (!gm->G && (!gm->stream || kx * gm->stream->n > STREAM_COLUMNS_MAX)) return BASEL_EINVAL;
    double *count = bsl_malloc(n + 1, sizeof *count);
    size_t *tie = bsl_malloc(n + 1, sizeof *tie), *path = bsl_malloc(kx + 1, sizeof *path);
    double u[64], ruu[64], t[64];
    bsl_prefix_order po = {0};
    prefix_ws w;
    int rc = ws_init(&w, kx ? kx : 1, c, q, gm->G ? 0 : gm->stream->n);
    if (!count || !tie || !path) rc = BASEL_ENOMEM;
    /* the global order: atoms held by more models first (their counts are
     * cp's: one component of output 0 per model holding the atom), ties by
     * global index, so that the fit's table and the one on demand agree */
    for (size_t a = 0; a < n && !rc; a++) {
        const size_t g = gm->glob ? gm->glob[a] : a, term = q + g;
        count[a] = (double)((term + 1 < cp->nterm ? cp->off[term + 1] : cp->total) - cp->off[term]);
        tie[a] = g;
    }
    if (!rc) rc = bsl_prefix_order_make(&po, n, count, tie, K, atoms, ks, wt);
    if (rc) goto done;
    /* the always-in part: u (the intercept of the original inputs) and
     * u'(Z'Z)^{-1}u, e_l'(Z'Z)^{-1}e_l (bsl_post_terms') */
    bsl_post_intercept_u(q, mu, sc, u);
    ruu[0] = bsl_tri_quad(D->R, q, 1, u, t);
    for (size_t l = 1; l < q; l++) {
        double e[64] = {0};
        e[l] = 1;
        ruu[l] = bsl_tri_quad(D->R, q, 1, e, t);
    }
    /* the models in prefix order; have: rows of the current path computed */
    size_t have = 0;
    const bsl_prefix_model *prev = NULL;
    for (size_t i = 0; i < K; i++) {
        const bsl_prefix_model *m = &po.models[i];
        if (i + 2 < K) __builtin_prefetch(po.models[i + 2].key); /* keys lie in the caller's order */
        size_t d = bsl_prefix_common(prev, m);
        if (d > have) d = have;
        int bad = 0;
        for (; d < m->k && !bad; d++) {
            path[d] = po.atom[m->key[d]];
            bad = add_row(&w, gm, D, path, d, u, mu, sc, linear);
        }
        have = bad ? d - 1 : m->k;
        prev = m;
        if (bad) continue; /* probability 0: never visited */
        emit(cp, nterm, &w, gm, D, path, m->k, m->w, u, ruu, sc, linear);
    }
done:
    bsl_prefix_order_free(&po);
    ws_free(&w);
    free(count);
    free(tie);
    free(path);
    return rc;
}
