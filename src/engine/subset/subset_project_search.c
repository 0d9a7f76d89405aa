/*
 * subset_project_search.c: the search behind the projection model
 * (subset_project.c says what it is for): the subset S of each size whose
 * least-squares fit X_S b to the model average's fitted values mu leaves
 * the least squared distance D(S) = ||mu - X_S b||^2, summed over outputs.
 *
 * Forward step: add the candidate whose addition most reduces D, by an
 * incremental Cholesky factor L of the chosen Gram block A = G_SS: each
 * candidate j outside keeps w_j = L^{-1} G_{S j}, its Schur complement
 * s_j = G_jj - |w_j|^2 and its residual cross product e_j = b_j'mu - w_j'z
 * (z = L^{-1} X_S'mu); adding j reduces D by |e_j|^2 / s_j. A step costs
 * O(n_c k) plus n_c cross products (a Gram lookup, or O(n) from a stored
 * column).
 *
 * Exchange refinement (Miller 2002, "Subset selection in regression", sec.
 * 3.5, the "replacing" algorithm; Efroymson's stepwise with swaps): the
 * forward path is greedy, and an atom chosen early (a broad kernel that
 * fits two bumps at once, say) can be worse at size k than a pair of
 * atoms chosen later would make it. After each forward step the search
 * replaces a chosen atom a by a candidate j outside whenever that lowers D,
 * the best such exchange first, until none does or BSL_PROJ_SWAPS
 * exchanges at this size. With T = S + j, the distance of S - a + j is
 *     D(S - a + j) = D(S) - |e_j|^2 / s_j + |beta_{T,a}|^2 / (G_T^{-1})_aa,
 * adding j (the forward step's reduction) and then dropping a (the usual
 * increase of a residual sum of squares when a column leaves, its
 * coefficient squared over the diagonal of the inverse Gram), where by
 * the block inverse of G_T, with v_j = A^{-1} G_{S j} = L^{-T} w_j,
 *     beta_{T,a} = beta_{S,a} - v_{j,a} e_j / s_j,
 *     (G_T^{-1})_aa = (A^{-1})_aa + v_{j,a}^2 / s_j.
 * Evaluating every pair (a, j) therefore costs O(n_c k^2) for the v_j (one
 * back substitution each) and O(n_c k c) for the pairs. An exchange then
 * takes the new atom's n_c cross products (those of a forward step) and a
 * refactorisation of the k x k block with the candidates' w_j, s_j, e_j
 * recomputed from the stored cross products: O(k^3 + n_c k^2) flops, no
 * pass over the data. The refinement at size k thus costs at most
 * BSL_PROJ_SWAPS (n_c k^2) flops and BSL_PROJ_SWAPS n_c cross products,
 * and a path of K atoms O(BSL_PROJ_SWAPS n_c K^3) flops against the
 * forward path's O(n_c K^2). An exchange is kept only if the refactorised
 * distance is below the one before (so D at a given size never grows);
 * each kept exchange lowers D strictly, so no set recurs.
 */
#include "subset_project.h"
#include "../engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The working state over nc candidates, c outputs, at most kc atoms. */
typedef struct search {
    size_t nc, c, kc, k;
    bsl_proj_cross cross;
    void *ctx;
    const double *r, *mumu;
    double *C;    /* kc x nc: row a, the a-th chosen atom's cross products with every candidate */
    double *W;    /* nc x kc: w_j */
    double *s, *diag, *e; /* nc: s_j, G_jj; nc x c: e_j */
    double *L, *z;        /* kc x kc lower (ld kc); kc x c */
    double *dist;         /* c: D(S) per output */
    size_t *order;        /* k chosen candidates; an exchange replaces in place */
    unsigned char *in;
    /* the exchange's workspace */
    double *Li, *beta, *ainv, *v, *row;
} search;

static double total(const double *d, size_t c)
{
    double t = 0;
    for (size_t o = 0; o < c; o++) t += d[o];
    return t;
}

/* j can join S (not collinear with it; model.h BSL_RANK_TOL) */
static int usable(const search *S, size_t j)
{
    return !S->in[j] && S->s[j] > BSL_RANK_TOL * S->diag[j];
}

/* The forward step: add candidate j, update every w, s, e incrementally. */
static void add_atom(search *S, size_t best)
{
    const size_t k = S->k, kc = S->kc, nc = S->nc, c = S->c;
    const double l = sqrt(S->s[best]);
    for (size_t i = 0; i < k; i++) S->L[k + i * kc] = S->W[best * kc + i];
    S->L[k + k * kc] = l;
    for (size_t o = 0; o < c; o++) {
        S->z[k * c + o] = S->e[best * c + o] / l;
        S->dist[o] = fmax(S->dist[o] - S->z[k * c + o] * S->z[k * c + o], 0.0);
    }
    S->in[best] = 1;
    S->order[k] = best;
    double *row = S->C + k * nc;
    for (size_t j = 0; j < nc; j++) {
        row[j] = j == best ? S->diag[j] : S->cross(S->ctx, best, j);
        if (S->in[j]) continue;
        double w = row[j];
        for (size_t i = 0; i < k; i++) w -= S->W[best * kc + i] * S->W[j * kc + i];
        w /= l;
        S->W[j * kc + k] = w;
        S->s[j] -= w * w;
        for (size_t o = 0; o < c; o++) S->e[j * c + o] -= w * S->z[k * c + o];
    }
    S->k = k + 1;
}

/* L, z, D and every outside candidate's w, s, e afresh from the stored
 * cross products: O(k^3 + n_c k^2). BASEL_ENUMERIC when the chosen block
 * is collinear. */
static int rebuild(search *S)
{
    const size_t k = S->k, kc = S->kc, nc = S->nc, c = S->c;
    double *L = S->L;
    for (size_t b = 0; b < k; b++)
        for (size_t a = b; a < k; a++) {
            double t = S->C[a * nc + S->order[b]];
            for (size_t i = 0; i < b; i++) t -= L[a + i * kc] * L[b + i * kc];
            if (a > b) {
                L[a + b * kc] = t / L[b + b * kc];
            } else {
                if (!(t > BSL_RANK_TOL * S->diag[S->order[b]])) return BASEL_ENUMERIC;
                L[b + b * kc] = sqrt(t);
            }
        }
    for (size_t o = 0; o < c; o++) {
        double zz = 0;
        for (size_t a = 0; a < k; a++) {
            double t = S->r[S->order[a] * c + o];
            for (size_t i = 0; i < a; i++) t -= L[a + i * kc] * S->z[i * c + o];
            S->z[a * c + o] = t / L[a + a * kc];
            zz += S->z[a * c + o] * S->z[a * c + o];
        }
        S->dist[o] = fmax(S->mumu[o] - zz, 0.0);
    }
    for (size_t j = 0; j < nc; j++) {
        if (S->in[j]) continue;
        double *w = S->W + j * kc, ww = 0;
        for (size_t a = 0; a < k; a++) {
            double t = S->C[a * nc + j];
            for (size_t i = 0; i < a; i++) t -= L[a + i * kc] * w[i];
            w[a] = t / L[a + a * kc];
            ww += w[a] * w[a];
        }
        S->s[j] = S->diag[j] - ww;
        for (size_t o = 0; o < c; o++) {
            double t = S->r[j * c + o];
            for (size_t a = 0; a < k; a++) t -= w[a] * S->z[a * c + o];
            S->e[j * c + o] = t;
        }
    }
    return BASEL_OK;
}

/* The exchange S - a + j of least distance (file comment), a a position in
 * S, j a candidate outside: *pa, *pj and that distance summed over
 * outputs (INFINITY when none is possible). */
static double best_exchange(search *S, size_t *pa, size_t *pj)
{
    const size_t k = S->k, kc = S->kc, nc = S->nc, c = S->c;
    const double *L = S->L;
    /* Li = L^{-1} (k x k, ld k), (A^{-1})_aa = sum_i Li_ia^2, beta_S = L^{-T} z */
    for (size_t b = 0; b < k; b++)
        for (size_t a = 0; a < k; a++) {
            double t = a == b ? 1.0 : 0.0;
            for (size_t i = b; i < a; i++) t -= L[a + i * kc] * S->Li[i + b * k];
            S->Li[a + b * k] = a < b ? 0.0 : t / L[a + a * kc];
        }
    for (size_t a = 0; a < k; a++) {
        double t = 0;
        for (size_t i = a; i < k; i++) t += S->Li[i + a * k] * S->Li[i + a * k];
        S->ainv[a] = t;
        for (size_t o = 0; o < c; o++) {
            double u = 0;
            for (size_t i = a; i < k; i++) u += S->Li[i + a * k] * S->z[i * c + o];
            S->beta[a * c + o] = u;
        }
    }
    const double d0 = total(S->dist, c);
    double best = INFINITY;
    *pa = *pj = 0;
    for (size_t j = 0; j < nc; j++) {
        if (!usable(S, j)) continue;
        const double sj = S->s[j], *w = S->W + j * kc, *ej = S->e + j * c;
        for (size_t a = k; a-- > 0;) { /* v_j = L^{-T} w_j */
            double t = w[a];
            for (size_t i = a + 1; i < k; i++) t -= L[i + a * kc] * S->v[i];
            S->v[a] = t / L[a + a * kc];
        }
        double red = 0;
        for (size_t o = 0; o < c; o++) red += ej[o] * ej[o] / sj;
        for (size_t a = 0; a < k; a++) {
            const double va = S->v[a], den = S->ainv[a] + va * va / sj;
            double up = 0;
            for (size_t o = 0; o < c; o++) {
                const double bt = S->beta[a * c + o] - va * ej[o] / sj;
                up += bt * bt;
            }
            const double d = d0 - red + up / den;
            if (d < best) best = d, *pa = a, *pj = j;
        }
    }
    return best;
}

/* Put candidate j at position a of S (its cross products into row a). */
static int exchange(search *S, size_t a, size_t j)
{
    S->in[S->order[a]] = 0;
    S->in[j] = 1;
    S->order[a] = j;
    double *row = S->C + a * S->nc;
    for (size_t q = 0; q < S->nc; q++) row[q] = q == j ? S->diag[j] : S->cross(S->ctx, j, q);
    return rebuild(S);
}

/* The exchange refinement at the current size (file comment). */
static void refine(search *S, size_t swaps)
{
    for (size_t t = 0; t < swaps && S->k > 1; t++) {
        const double d0 = total(S->dist, S->c);
        size_t a, j;
        const double d = best_exchange(S, &a, &j);
        /* a relative margin: an exchange that gains only rounding is none */
        if (!(d < d0 * (1 - 1e-9))) return;
        const size_t old = S->order[a];
        memcpy(S->row, S->C + a * S->nc, S->nc * sizeof *S->row);
        if (!exchange(S, a, j) && total(S->dist, S->c) < d0) continue;
        /* the refactorisation disagrees (rounding, near-collinear): undo */
        S->in[j] = 0;
        S->in[old] = 1;
        S->order[a] = old;
        memcpy(S->C + a * S->nc, S->row, S->nc * sizeof *S->row);
        (void)rebuild(S); /* the set it had: factorised before */
        return;
    }
}

void bsl_proj_path_free(bsl_proj_path *p)
{
    free(p->order);
    free(p->coef);
    free(p->dist);
    free(p->L);
    memset(p, 0, sizeof *p);
}

static void search_free(search *S)
{
    free(S->C);
    free(S->W);
    free(S->s);
    free(S->diag);
    free(S->e);
    free(S->L);
    free(S->z);
    free(S->dist);
    free(S->in);
    free(S->Li);
    free(S->beta);
    free(S->ainv);
    free(S->v);
    free(S->row);
}

int bsl_proj_forward(size_t nc, size_t c, bsl_proj_cross cross, void *ctx, const double *r, const double *mumu,
                     double target, size_t kmax, size_t swaps, bsl_proj_path *path)
{
    memset(path, 0, sizeof *path);
    const size_t kc = BSL_MIN(nc, kmax);
    search S = {.nc = nc, .c = c, .kc = kc, .cross = cross, .ctx = ctx, .r = r, .mumu = mumu};
    S.C = bsl_malloc(kc * nc + 1, sizeof *S.C);
    S.W = bsl_malloc(nc * kc + 1, sizeof *S.W);
    S.s = bsl_malloc(nc + 1, sizeof *S.s);
    S.diag = bsl_malloc(nc + 1, sizeof *S.diag);
    S.e = bsl_malloc(nc * c + 1, sizeof *S.e);
    S.L = bsl_calloc(kc * kc + 1, sizeof *S.L);
    S.z = bsl_malloc(kc * c + 1, sizeof *S.z);
    S.dist = bsl_malloc(c + 1, sizeof *S.dist);
    S.in = bsl_calloc(nc + 1, 1);
    S.Li = bsl_malloc(kc * kc + 1, sizeof *S.Li);
    S.beta = bsl_malloc(kc * c + 1, sizeof *S.beta);
    S.ainv = bsl_malloc(kc + 1, sizeof *S.ainv);
    S.v = bsl_malloc(kc + 1, sizeof *S.v);
    S.row = bsl_malloc(nc + 1, sizeof *S.row);
    path->order = S.order = bsl_malloc(kc + 1, sizeof *path->order);
    path->dist = bsl_malloc((kc + 1) * c, sizeof *path->dist);
    int rc = S.C && S.W && S.s && S.diag && S.e && S.L && S.z && S.dist && S.in && S.Li && S.beta && S.ainv &&
                     S.v && S.row && path->order && path->dist
                 ? BASEL_OK
                 : BASEL_ENOMEM;
    for (size_t o = 0; o < c && !rc; o++) path->dist[o] = S.dist[o] = mumu[o];
    for (size_t j = 0; j < nc && !rc; j++) {
        S.s[j] = S.diag[j] = cross(ctx, j, j);
        memcpy(S.e + j * c, r + j * c, c * sizeof *S.e);
    }
    while (!rc && S.k < kc && total(S.dist, c) > target) {
        size_t best = nc;
        double red = 0;
        for (size_t j = 0; j < nc; j++) {
            if (!usable(&S, j)) continue;
            double t = 0;
            for (size_t o = 0; o < c; o++) t += S.e[j * c + o] * S.e[j * c + o];
            if (t / S.s[j] > red) red = t / S.s[j], best = j;
        }
        if (best == nc) break; /* nothing reduces the distance */
        add_atom(&S, best);
        refine(&S, swaps);
        memcpy(path->dist + S.k * c, S.dist, c * sizeof *S.dist);
    }
    const size_t k = S.k;
    /* the coefficients: L' b = z, per output */
    if (!rc && !(path->coef = bsl_malloc(k * c + 1, sizeof *path->coef))) rc = BASEL_ENOMEM;
    for (size_t o = 0; o < c && !rc; o++)
        for (size_t a = k; a-- > 0;) {
            double v = S.z[a * c + o];
            for (size_t b = a + 1; b < k; b++) v -= S.L[b + a * kc] * path->coef[b * c + o];
            path->coef[a * c + o] = v / S.L[a + a * kc];
        }
    if (!rc && !(path->L = bsl_malloc(k * k + 1, sizeof *path->L))) rc = BASEL_ENOMEM;
    for (size_t b = 0; b < k && !rc; b++)
        for (size_t a = 0; a < k; a++) path->L[a + b * k] = a < b ? 0.0 : S.L[a + b * kc];
    path->k = k;
    search_free(&S);
    if (rc) bsl_proj_path_free(path);
    return rc;
}
