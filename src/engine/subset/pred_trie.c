/*
 * pred_trie.c: the kept models of a model average as one prefix tree of
 * Cholesky rows (pred_trie.h).
 *
 * Why. A model average's interval at a new point x needs, for every kept
 * model M (subset_post.c: V = s_M A_M^{-1}, beta = s_M A_M^{-1} b_M,
 * A = G + tau I), its location x~' beta and its quadratic form x~' V x~.
 * From V that is k(k+1)/2 + k multiply-adds a model and a row: on lin_p100's
 * bd fit (14114 models of 12 atoms) 55 % of predicting 10^4 rows. With
 * L_M L_M' = A_M and z = L_M^{-1} x~, u = L_M^{-1} b_M,
 *     x~' V x~ = s_M |z|^2,   x~' beta = s_M z'u.
 * When M = P + j (j last), L_M is L_P with one more row (l', d),
 * l = L_P^{-1} A[P, j], d^2 = A[j, j] - l'l, so
 *     z_M = (z_P, (x~_j - l'z_P) / d),  u_M = (u_P, (b_j - l'u_P) / d):
 * a model costs one dot product of its depth a row, given its parent's z.
 * The kept models differ mostly by their rarer atoms, so with each model's
 * atoms in the order of decreasing total weight the common ones form shared
 * prefixes: lin_p100's 14114 models make 15174 nodes, 6x fewer
 * multiply-adds a row than from V; sinc's kernel fit (14808 models of 5
 * atoms) 25094 nodes, 2x fewer.
 */
#include "pred_trie.h"
#include "prefix_order.h"
#include "../../core/core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bsl_pred_trie_free(bsl_pred_trie *t)
{
    free(t->atom);
    free(t->depth);
    free(t->loff);
    free(t->model);
    free(t->l);
    free(t->dinv);
    free(t->w);
    free(t->perm);
    memset(t, 0, sizeof *t);
}

/* Room for one more node (and l entries beyond nl). */
static int room(bsl_pred_trie *t, size_t *cap, size_t *lcap, size_t nl)
{
    if (t->nnode == *cap) {
        const size_t nc = 2 * *cap + 16;
        size_t *a = realloc(t->atom, nc * sizeof *a);
        if (a) t->atom = a;
        size_t *d = realloc(t->depth, nc * sizeof *d);
        if (d) t->depth = d;
        size_t *lo = realloc(t->loff, nc * sizeof *lo);
        if (lo) t->loff = lo;
        long *mo = realloc(t->model, nc * sizeof *mo);
        if (mo) t->model = mo;
        double *di = realloc(t->dinv, nc * sizeof *di);
        if (di) t->dinv = di;
        double *w = realloc(t->w, nc * t->c * sizeof *w);
        if (w) t->w = w;
        if (!a || !d || !lo || !mo || !di || !w) return -1;
        *cap = nc;
    }
    if (nl > *lcap) {
        const size_t nc = BSL_MAX(nl, 2 * *lcap + 64);
        double *l = realloc(t->l, nc * sizeof *l);
        if (!l) return -1;
        t->l = l;
        *lcap = nc;
    }
    return 0;
}

int bsl_pred_trie_build(bsl_pred_trie *t, const double *G, size_t u, double tau, const double *Bty, size_t c,
                        const size_t *off, const size_t *atoms, const double *wt, size_t K)
{
    memset(t, 0, sizeof *t);
    t->c = c;
    t->root_model = -1;
    /* the atoms by decreasing total weight of the models holding them */
    double *aw = calloc(u + 1, sizeof *aw);
    const size_t **ms = malloc((K + 1) * sizeof *ms);
    size_t *ks = malloc((K + 1) * sizeof *ks), *path = NULL, kmax = 0;
    bsl_prefix_order po = {0};
    int rc = !aw || !ms || !ks ? -2 : 0;
    for (size_t r = 0; r < K && !rc; r++) {
        ms[r] = atoms + off[r];
        ks[r] = off[r + 1] - off[r];
        kmax = BSL_MAX(kmax, ks[r]);
        for (size_t a = off[r]; a < off[r + 1]; a++) aw[atoms[a]] += wt[r];
    }
    if (!rc) {
        const int st = bsl_prefix_order_make(&po, u, aw, NULL, K, ms, ks, NULL);
        rc = st == BASEL_ENOMEM ? -2 : st ? -1 : 0; /* -1: too many atoms for the tree */
    }
    if (!rc) {
        path = malloc((kmax + 1) * sizeof *path);
        if (!path) rc = -2;
    }
    t->maxdepth = kmax;
    size_t cap = 0, lcap = 0, nl = 0;
    const bsl_prefix_model *prev = NULL;
    for (size_t i = 0; i < K && !rc; i++) {
        const bsl_prefix_model *q = &po.models[i];
        const size_t lcp = bsl_prefix_common(prev, q);
        if (prev && lcp == q->k) { /* the same set as prev (or empty after an empty one): one node, two models */
            rc = -1;
            break;
        }
        for (size_t d = lcp; d < q->k && !rc; d++) {
            if (room(t, &cap, &lcap, nl + d)) {
                rc = -2;
                break;
            }
            const size_t v = t->nnode++, a = po.atom[q->key[d]];
            double *l = t->l + nl;
            t->atom[v] = a;
            t->depth[v] = d + 1;
            t->loff[v] = nl;
            t->model[v] = -1;
            /* l = L_P^{-1} A[P, a], by forward substitution over the path's rows */
            double ll = 0;
            for (size_t e = 0; e < d; e++) {
                const size_t anc = path[e];
                const double *la = t->l + t->loff[anc];
                double x = G[t->atom[anc] + a * u];
                for (size_t f = 0; f < e; f++) x -= la[f] * l[f];
                l[e] = x * t->dinv[anc];
                ll += l[e] * l[e];
            }
            const double Ajj = G[a + a * u] + tau, d2 = Ajj - ll;
            /* a pivot this small leaves the tree's z inaccurate: predict
             * from each model's V instead */
            if (!(d2 > 1e-10 * Ajj) || !isfinite(d2)) {
                rc = -1;
                break;
            }
            t->dinv[v] = 1 / sqrt(d2);
            for (size_t o = 0; o < c; o++) {
                double x = Bty[a * c + o];
                for (size_t e = 0; e < d; e++) x -= l[e] * t->w[path[e] * c + o];
                t->w[v * c + o] = x * t->dinv[v];
            }
            nl += d;
            path[d] = v;
        }
        if (!rc && q->k) t->model[path[q->k - 1]] = (long)q->r;
        else if (!rc) t->root_model = (long)q->r; /* the null model: no node (sorted first) */
        prev = q;
    }
    /* slots in preorder, the null model first */
    t->K = K;
    t->perm = rc ? NULL : malloc((K + 1) * sizeof *t->perm);
    if (!rc && !t->perm) rc = -2;
    size_t slot = 0;
    if (!rc && t->root_model >= 0) {
        t->perm[slot] = (size_t)t->root_model;
        t->root_model = (long)slot++;
    }
    for (size_t v = 0; v < t->nnode && !rc; v++)
        if (t->model[v] >= 0) {
            t->perm[slot] = (size_t)t->model[v];
            t->model[v] = (long)slot++;
        }
    free(aw);
    free((void *)ms);
    free(ks);
    free(path);
    bsl_prefix_order_free(&po);
    return rc;
}
