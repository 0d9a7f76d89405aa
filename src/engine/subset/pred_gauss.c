/*
 * pred_gauss.c: predictions of a Gaussian subset fit (subset_predict.h).
 *
 * A single model M predicts output o at x with a Student-t (subset_post.c:
 * sigma^2 integrated; Gaussian for the ridge prior with sigma^2 given):
 *   location  z(x)' gamma_o + b_M(x)' beta_o
 *   scale^2   scale2_o (x~' V x~ + z' (Z'Z)^{-1} z [+ 1 for a new y]),
 *             x~ = b_M(x) - gB_M' z(x),
 * df degrees of freedom (BAS's se.fit and se.pred, with its t quantiles).
 * The model average's mean is exact (all visited models, Rao-Blackwellised);
 * its interval is the equal-tailed interval of the mixture of these t's over
 * the visited models kept in bma.posterior (all but 1e-6 of the posterior
 * weight), each refitted exactly from the stored Gram block; quantiles by
 * safeguarded Newton on the mixture CDF (bsl_tmix_quantile, tmix.c). Each
 * model's location and scale at a row come from one prefix tree of the kept
 * models' Cholesky rows (pred_trie.c).
 */
#include "subset_predict.h"
#include "pred_trie.h"
#include "../../summary/tmix.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Mean (n x c) and scale^2 (n x c) of one single-model predictor block:
 * Student-t with *df degrees of freedom (INFINITY: Gaussian) when the block
 * has "scale2" (and "df"), else the Gaussian with E[sigma^2] of older fits.
 * yvar gets the scale^2 of a new y (with the observation's own variance),
 * fvar that of f(x) without it, the square of basel_pred_se. */
static int model_predict(bsl_pred_ctx *v, const json_t *blk, double *mean, double *yvar, double *fvar, double *df)
{
    const size_t n = v->n, c = v->c, q = v->q;
    bsl_pred_model b;
    int rc = bsl_pred_model_read(v, blk, &b);
    const size_t k = b.k;
    *df = b.df;
    double *Bt = rc ? NULL : bsl_malloc(n * k + 1, sizeof *Bt);
    if (!rc) rc = !Bt ? -2 : bsl_pred_columns(v, b.atoms, k, Bt);
    const double *beta = b.beta, *gam = b.gam, *s2 = b.s2, *V = b.V;
    for (size_t i = 0; i < n && !rc; i++) {
        double h = 0;
        for (size_t a = 0; a < k; a++)
            for (size_t bb = 0; bb < k; bb++) h += Bt[a * n + i] * V[a + bb * k] * Bt[bb * n + i];
        for (size_t o = 0; o < c; o++) {
            double mu = 0;
            for (size_t l = 0; l < q; l++) mu += v->Z[l * n + i] * gam[l * c + o];
            for (size_t a = 0; a < k; a++) mu += Bt[a * n + i] * beta[a * c + o];
            /* gamma = gy - sum_a beta_a gB_a goes with the raw columns
             * b_a = x~_a + gB_a' z; add the gB_a' z part back */
            for (size_t a = 0; a < k; a++)
                for (size_t l = 0; l < q; l++) mu += beta[a * c + o] * v->gB[b.atoms[a] * q + l] * v->Z[l * n + i];
            mean[o * n + i] = mu;
            yvar[o * n + i] = s2[o] * (1 + fmax(h, 0) + v->zvar[i]);
            fvar[o * n + i] = s2[o] * (fmax(h, 0) + v->zvar[i]);
        }
    }
    bsl_pred_model_free(&b);
    free(Bt);
    return rc; /* -2: out of memory, -1: malformed */
}

/* Quantile of a normal mixture by bisection on its CDF (fits written
 * before bma.posterior). */
static double mixture_quantile(const double *w, const double *mu, const double *sd, size_t K,
                               double prob)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < K; i++) {
        lo = fmin(lo, mu[i] - 10 * sd[i]);
        hi = fmax(hi, mu[i] + 10 * sd[i]);
    }
    for (int it = 0; it < 100; it++) {
        const double t = 0.5 * (lo + hi);
        double F = 0;
        for (size_t i = 0; i < K; i++) F += w[i] * gsl_cdf_gaussian_P(t - mu[i], sd[i]);
        if (F < prob) lo = t;
        else hi = t;
    }
    return 0.5 * (lo + hi);
}

/* The variance of a Student-t with scale s and df degrees of freedom:
 * s^2 df / (df - 2); s^2 for a normal (df = INFINITY); infinite for
 * df <= 2, where the t has no finite variance. */
static double t_variance(double s, double df)
{
    return isinf(df) ? s * s : df > 2 ? s * s * (df / (df - 2)) : INFINITY;
}

/* The sd of a mixture of K models with weights w (any positive total),
 * means mu and scales s, by the law of total variance:
 * sqrt(sum_r w_r (var_r + (mu_r - m)^2)), m = sum_r w_r mu_r, all over
 * sum_r w_r. With df NULL, var_r = s_r^2 (each Student-t's scale in place
 * of its variance): BAS's se.bma.fit (predict.bas with se.fit = TRUE),
 * basel_pred_se of the model average. With df (K, INFINITY for a normal),
 * var_r is each t's own variance (t_variance): the exact sd of the mixture,
 * basel_pred_sd of the model average. */
static double mixture_sd(const double *w, const double *mu, const double *s, const double *df, size_t K)
{
    double W = 0, m = 0, v = 0;
    for (size_t r = 0; r < K; r++) {
        W += w[r];
        m += w[r] * mu[r];
    }
    m /= W;
    for (size_t r = 0; r < K; r++)
        v += w[r] * ((df ? t_variance(s[r], df[r]) : s[r] * s[r]) + (mu[r] - m) * (mu[r] - m));
    return sqrt(v / W);
}

/* A t's variance over its scale^2 (t_variance(1, df), the same bits when
 * multiplied by s^2): once per model, not per row and model. */
static double t_factor(double df) { return isinf(df) ? 1.0 : df > 2 ? df / (df - 2) : INFINITY; }

/* mixture_sd's three sds of a row in one pass over its models, each sum in
 * mixture_sd's order (the same bits): se of f(x) (scales sx, BAS's
 * se.bma.fit), and the exact sds of a new y (scales sy) and of f(x); tf
 * is each model's t_factor. */
static void mixture_sds(const double *w, const double *mu, const double *sy, const double *sx, const double *tf,
                        size_t K, double *se, double *sd, double *sdf)
{
    double W = 0, m = 0, ve = 0, vy = 0, vf = 0;
    for (size_t r = 0; r < K; r++) {
        W += w[r];
        m += w[r] * mu[r];
    }
    m /= W;
    for (size_t r = 0; r < K; r++) {
        const double dm2 = (mu[r] - m) * (mu[r] - m), inf = isinf(tf[r]);
        ve += w[r] * (sx[r] * sx[r] + dm2);
        vy += w[r] * ((inf ? INFINITY : sy[r] * sy[r] * tf[r]) + dm2);
        vf += w[r] * ((inf ? INFINITY : sx[r] * sx[r] * tf[r]) + dm2);
    }
    *se = sqrt(ve / W);
    *sd = sqrt(vy / W);
    *sdf = sqrt(vf / W);
}

/* rows of a block of interval_posterior: the per-model loops run over
 * the block's rows innermost (contiguous in the columns Bt, so they
 * vectorise), and a block's location and scale arrays (2 ROWS K doubles)
 * stay in cache while its quantiles read them */
#define ROWS 16

/* Location and scales of every kept model's Student-t at rows i0..i0+nb of
 * output o: row i's in mu[i * K ..], the scale of a new y in sy[i * K ..]
 * and that of f(x) alone (no noise: what se.fit mixes) in sf[i * K ..].
 * x~'V x~ by the symmetric V's lower triangle, k(k+1)/2 products per row. */
static inline __attribute__((always_inline)) void block_components_of(const bsl_pred_ctx *v, const bsl_pred_set *s,
                                                                      const double *Bt, size_t i0, size_t nb,
                                                                      size_t o, double *mu, double *sy, double *sf)
{
    const size_t n = v->n, c = v->c, q = v->q, K = s->K;
    double base[ROWS], m0[ROWS], h[ROWS];
    for (size_t i = 0; i < nb; i++) {
        base[i] = 0;
        for (size_t l = 0; l < q; l++) base[i] += v->Z[l * n + i0 + i] * v->gy[l * c + o];
    }
    for (size_t r = 0; r < K; r++) {
        const size_t k = s->off[r + 1] - s->off[r];
        const size_t *A = s->atoms + s->off[r];
        const double *beta = s->beta + s->off[r] * c, *V = s->V + s->voff[r];
        for (size_t i = 0; i < nb; i++) {
            m0[i] = base[i];
            h[i] = 0;
        }
        for (size_t a = 0; a < k; a++) {
            const double *xa = Bt + A[a] * n + i0, ba = beta[a * c + o];
            for (size_t i = 0; i < nb; i++) m0[i] += ba * xa[i];
            for (size_t b = 0; b <= a; b++) {
                const double *xb = Bt + A[b] * n + i0, vab = a == b ? V[a + a * k] : 2 * V[a + b * k];
                for (size_t i = 0; i < nb; i++) h[i] += vab * xa[i] * xb[i];
            }
        }
        const double s2 = s->scale2[r * c + o];
        for (size_t i = 0; i < nb; i++) {
            const double hi = h[i] > 0 ? h[i] : 0.0; /* fmax(h, 0), inline: a call per row and model */
            mu[i * K + r] = m0[i];
            sy[i * K + r] = sqrt(s2 * (1 + hi + v->zvar[i0 + i]));
            sf[i * K + r] = sqrt(s2 * (hi + v->zvar[i0 + i]));
        }
    }
}

/* A whole block's row count is the constant ROWS, so that the compiler
 * unrolls the row loops and keeps m0 and h in registers (h's loop was 14 %
 * of a predict's instructions with them on the stack); the last, shorter
 * block takes the general loops. Each row's operations are the same, in
 * the same order: the same bits. Cloned for AVX2, where four rows share an
 * instruction (target_clones; the plain build for other CPUs). */
__attribute__((target_clones("avx2", "default"))) static void
block_components(const bsl_pred_ctx *v, const bsl_pred_set *s, const double *Bt, size_t i0, size_t nb, size_t o, double *mu,
                 double *sy, double *sf)
{
    if (nb == ROWS) block_components_of(v, s, Bt, i0, ROWS, o, mu, sy, sf);
    else block_components_of(v, s, Bt, i0, nb, o, mu, sy, sf);
}

/* The kept models' prefix tree and, in its slots' order (pred_trie.h), their
 * weights, df, scale^2 (c each) and shrinkage. */
typedef struct trie_set {
    bsl_pred_trie tr;
    double *w, *df, *scale2, *shrink;
} trie_set;

static void trie_set_free(trie_set *t)
{
    bsl_pred_trie_free(&t->tr);
    free(t->w);
    free(t->df);
    free(t->scale2);
    free(t->shrink);
}

/* 0; -1 when a pivot is too small in the tree's order (the caller predicts
 * from each model's V); -2 out of memory. */
static int trie_set_make(trie_set *t, const bsl_pred_set *s, size_t c)
{
    memset(t, 0, sizeof *t);
    const int rc = bsl_pred_trie_build(&t->tr, s->D.G, s->u, s->tau, s->D.Bty, c, s->off, s->atoms, s->w, s->K);
    if (rc) return rc;
    const size_t K = s->K;
    t->w = bsl_malloc(K, sizeof *t->w);
    t->df = bsl_malloc(K, sizeof *t->df);
    t->scale2 = bsl_malloc(K * c, sizeof *t->scale2);
    t->shrink = bsl_malloc(K, sizeof *t->shrink);
    if (!t->w || !t->df || !t->scale2 || !t->shrink) return -2;
    for (size_t i = 0; i < K; i++) {
        const size_t r = t->tr.perm[i];
        t->w[i] = s->w[r];
        t->df[i] = s->df[r];
        t->shrink[i] = s->shrink[r];
        for (size_t o = 0; o < c; o++) t->scale2[i * c + o] = s->scale2[r * c + o];
    }
    return 0;
}

/* block_components_of from the kept models' prefix tree (pred_trie.c): the
 * tree's nodes in preorder, each node's z = (x~_j - l'z_P) / d from its
 * ancestors' z on the stack (zs, ROWS doubles a depth), and with it the
 * running |z|^2 (hs) and z'u (ms, output o) of its path; a model's node
 * gives its location base + s z'u and quadratic form s |z|^2. */
static inline __attribute__((always_inline)) void trie_components_of(const bsl_pred_ctx *v, const trie_set *s,
                                                                     const double *Bt, size_t i0, size_t nb, size_t o,
                                                                     double *mu, double *sy, double *sf, double *stk)
{
    const bsl_pred_trie *tr = &s->tr;
    const size_t n = v->n, c = v->c, q = v->q, K = tr->K, D = tr->maxdepth + 1;
    double base[ROWS];
    /* hs, ms: depth 0 is the empty path */
    double *restrict zs = stk, *restrict hs = stk + D * ROWS, *restrict ms = stk + 2 * D * ROWS;
    const double *restrict zvar = v->zvar + i0;
    for (size_t i = 0; i < nb; i++) {
        base[i] = 0;
        for (size_t l = 0; l < q; l++) base[i] += v->Z[l * n + i0 + i] * v->gy[l * c + o];
        hs[i] = ms[i] = 0;
    }
    for (size_t node = 0; node <= tr->nnode; node++) {
        const long r = node < tr->nnode ? tr->model[node] : tr->root_model;
        size_t d = 0; /* the depth whose sums the model reads */
        if (node < tr->nnode) {
            const size_t t = tr->depth[node] - 1;
            const double *l = tr->l + tr->loff[node], *x = Bt + tr->atom[node] * n + i0;
            const double di = tr->dinv[node], wo = tr->w[node * c + o];
            double acc[ROWS];
            for (size_t i = 0; i < nb; i++) acc[i] = x[i];
            for (size_t e = 0; e < t; e++)
                for (size_t i = 0; i < nb; i++) acc[i] -= l[e] * zs[e * ROWS + i];
            for (size_t i = 0; i < nb; i++) {
                const double z = acc[i] * di;
                zs[t * ROWS + i] = z;
                hs[(t + 1) * ROWS + i] = hs[t * ROWS + i] + z * z;
                ms[(t + 1) * ROWS + i] = ms[t * ROWS + i] + z * wo;
            }
            d = t + 1;
        }
        if (r < 0) continue;
        /* the square roots over the block's rows in a vector, then the
         * stores, strided by K: sqrt before a strided store is scalar (it
         * was half of this function's time); one vector instruction only
         * where sqrt need not set errno (CMakeLists.txt: -fno-math-errno
         * for this file) */
        const double s2 = s->scale2[(size_t)r * c + o], sh = s->shrink[r];
        double tm[ROWS], ty[ROWS], tx[ROWS];
        for (size_t i = 0; i < nb; i++) {
            /* max(h, 0) as (h + |h|) / 2, exactly: a comparison would keep
             * the loop scalar */
            const double h = sh * hs[d * ROWS + i], hi = 0.5 * (h + fabs(h));
            tm[i] = base[i] + sh * ms[d * ROWS + i];
            ty[i] = sqrt(s2 * (1 + hi + zvar[i]));
            tx[i] = sqrt(s2 * (hi + zvar[i]));
        }
        for (size_t i = 0; i < nb; i++) {
            mu[i * K + (size_t)r] = tm[i];
            sy[i * K + (size_t)r] = ty[i];
            sf[i * K + (size_t)r] = tx[i];
        }
    }
}

/* trie_components_of as block_components is block_components_of. */
__attribute__((target_clones("avx2", "default"))) static void
trie_components(const bsl_pred_ctx *v, const trie_set *s, const double *Bt, size_t i0, size_t nb, size_t o, double *mu,
                double *sy, double *sf, double *stk)
{
    if (nb == ROWS) trie_components_of(v, s, Bt, i0, ROWS, o, mu, sy, sf, stk);
    else trie_components_of(v, s, Bt, i0, nb, o, mu, sy, sf, stk);
}

/* Intervals of the model average: quantiles of the mixture over the kept
 * models of each one's Student-t (of f(x), or of a new y when noise), none
 * with p->no_interval; and the mixture's sds (basel_pred_se, basel_pred_sd),
 * which need no quantiles. */
static int interval_posterior(bsl_pred_ctx *v, const json_t *post, int noise, double level, basel_pred *p)
{
    const size_t n = v->n, c = v->c;
    bsl_pred_set s;
    bsl_tmix_ws ws = {0}; /* every row's quantiles share its CDF tables */
    int rc = bsl_pred_set_read(&s, v, post);
    double *Bt = NULL, *mu = NULL, *sd = NULL, *sf = NULL, *tf = NULL;
    if (!rc) {
        Bt = bsl_malloc(n * s.u + 1, sizeof *Bt);
        mu = bsl_malloc(ROWS * s.K, sizeof *mu);
        sd = bsl_malloc(ROWS * s.K, sizeof *sd);
        sf = bsl_malloc(ROWS * s.K, sizeof *sf);
        tf = bsl_malloc(s.K, sizeof *tf);
        rc = !Bt || !mu || !sd || !sf || !tf ? -2 /* out of memory */ : bsl_pred_columns(v, s.uni, s.u, Bt);
    }
    /* the models' prefix tree, the models in its slots' order; without it
     * (a pivot too small in its order) each model's V in the document's
     * order */
    trie_set ts = {0};
    const int made = rc ? -1 : trie_set_make(&ts, &s, c);
    double *stk = made ? NULL : bsl_malloc(3 * (ts.tr.maxdepth + 1) * ROWS, sizeof *stk);
    if (made == -2 || (!made && !stk)) rc = -2; /* no memory: reported, not absorbed (the same numbers or none) */
    const double *w = stk ? ts.w : s.w, *dfs = stk ? ts.df : s.df;
    for (size_t r = 0; r < s.K && !rc; r++) tf[r] = t_factor(dfs[r]);
    bsl_tmix_ws_fixed(&ws); /* every row mixes the same models with the same weights and df */
    for (size_t i0 = 0; i0 < n && !rc; i0 += ROWS)
        for (size_t o = 0; o < c; o++) {
            const size_t nb = BSL_MIN(ROWS, n - i0);
            if (stk) trie_components(v, &ts, Bt, i0, nb, o, mu, sd, sf, stk);
            else block_components(v, &s, Bt, i0, nb, o, mu, sd, sf);
            for (size_t i = 0; i < nb; i++) {
                const size_t at = o * n + i0 + i;
                const double *m = mu + i * s.K, *sy = sd + i * s.K, *sx = sf + i * s.K;
                mixture_sds(w, m, sy, sx, tf, s.K, &p->se[at], &p->sd[at], &p->sdf[at]);
                if (p->no_interval) continue;
                const bsl_tmix t = {w, m, noise ? sy : sx, dfs, s.K, 0};
                const double pq[2] = {0.5 - level / 2, 0.5 + level / 2};
                double q[2];
                bsl_tmix_quantiles(&t, pq, 2, q, &ws);
                p->lower[at] = q[0];
                p->upper[at] = q[1];
            }
        }
    if (!rc && ws.oom) rc = -2; /* a quantile found no memory */
    bsl_tmix_ws_free(&ws);
    trie_set_free(&ts);
    free(stk);
    bsl_pred_set_free(&s);
    free(Bt);
    free(mu);
    free(sd);
    free(sf);
    free(tf);
    return rc == -2 ? -2 : rc ? -1 : 0;
}

/* The model average: its mean from the Rao-Blackwellised coefficients of
 * all visited models ("atoms", "coef"); its interval and sds from
 * "posterior" (or, in fits written before it, the normal mixture over the
 * top models); with p->no_interval the sds only when moments (they cost
 * a refit of every kept model), else neither. */
static int predict_bma(bsl_pred_ctx *v, const json_t *bma, int noise, double level, int moments, basel_pred *p)
{
    const size_t n = v->n, c = v->c, q = v->q;
    const json_t *at = json_object_get(bma, "atoms"), *mix = json_object_get(bma, "mixture");
    const json_t *post = json_object_get(bma, "posterior");
    const size_t k = json_array_size(at), K = post ? 0 : json_array_size(mix);
    if (!bsl_pred_has_len(json_object_get(bma, "coef"), k, c)) return -1;
    size_t *atoms = bsl_malloc(k + 1, sizeof *atoms);
    double *beta = bsl_malloc(k * c + 1, sizeof *beta), *Bt = bsl_malloc(n * k + 1, sizeof *Bt);
    double *mm = bsl_malloc(K * n * c + 1, sizeof *mm), *mv = bsl_malloc(K * n * c + 1, sizeof *mv),
           *mf = bsl_malloc(K * n * c + 1, sizeof *mf), *sf = bsl_malloc(K + 1, sizeof *sf);
    double *w = bsl_malloc(K + 1, sizeof *w), *mu = bsl_malloc(K + 1, sizeof *mu), *sd = bsl_malloc(K + 1, sizeof *sd);
    double *dfs = bsl_malloc(K + 1, sizeof *dfs);
    const int oom = !atoms || !beta || !Bt || !mm || !mv || !mf || !sf || !w || !mu || !sd || !dfs;
    int rc = oom;
    for (size_t a = 0; a < k && !rc; a++) {
        const json_t *x = json_array_get(at, a);
        rc = !json_is_integer(x) || json_integer_value(x) < 0;
        if (!rc) atoms[a] = (size_t)json_integer_value(x);
    }
    if (!rc) rc = bsl_json_read_doubles(json_object_get(bma, "coef"), beta, k * c) || bsl_pred_columns(v, atoms, k, Bt);
    double wsum = 0;
    for (size_t i = 0; i < K && !rc; i++) {
        const json_t *blk = json_array_get(mix, i);
        w[i] = json_number_value(json_object_get(blk, "weight"));
        wsum += w[i];
        rc = model_predict(v, blk, mm + i * n * c, mv + i * n * c, mf + i * n * c, &dfs[i]);
    }
    for (size_t i = 0; i < n && !rc; i++)
        for (size_t o = 0; o < c; o++) {
            double m0 = 0;
            for (size_t l = 0; l < q; l++) m0 += v->Z[l * n + i] * v->gy[l * c + o];
            for (size_t a = 0; a < k; a++) m0 += Bt[a * n + i] * beta[a * c + o];
            p->mean[o * n + i] = m0;
            if (post || (p->no_interval && !moments)) continue;
            if (K == 0 || !(wsum > 0)) {
                p->lower[o * n + i] = p->upper[o * n + i] = p->se[o * n + i] = NAN;
                p->sd[o * n + i] = p->sdf[o * n + i] = NAN;
                continue;
            }
            for (size_t r = 0; r < K; r++) {
                mu[r] = mm[r * n * c + o * n + i];
                sd[r] = sqrt(mv[r * n * c + o * n + i]);
                sf[r] = sqrt(mf[r * n * c + o * n + i]);
                w[r] = json_number_value(json_object_get(json_array_get(mix, r), "weight")) / wsum;
            }
            p->se[o * n + i] = mixture_sd(w, mu, sf, NULL, K);
            p->sd[o * n + i] = mixture_sd(w, mu, sd, dfs, K);
            p->sdf[o * n + i] = mixture_sd(w, mu, sf, dfs, K);
            if (p->no_interval) continue;
            p->lower[o * n + i] = mixture_quantile(w, mu, noise ? sd : sf, K, 0.5 - level / 2);
            p->upper[o * n + i] = mixture_quantile(w, mu, noise ? sd : sf, K, 0.5 + level / 2);
        }
    if (!rc && post && (!p->no_interval || moments)) rc = interval_posterior(v, post, noise, level, p);
    free(atoms);
    free(beta);
    free(Bt);
    free(mm);
    free(mv);
    free(mf);
    free(sf);
    free(w);
    free(mu);
    free(sd);
    free(dfs);
    return oom || rc == -2 ? -2 : rc ? -1 : 0;
}

/* Under a prior whose models' posteriors are mixtures over g, a
 * prediction's exact interval is a mixture of Student-t's over g in every
 * model, which basel does not compute: refused rather than approximated
 * (the means are exact). */
static int interval_refused(const json_t *doc, const basel_pred *p, basel_error *err)
{
    char name[64] = "";
    if (p->no_interval || !bsl_pred_mixture_over_g(doc, name, sizeof name)) return BASEL_OK;
    return bsl_fail(err, BASEL_EINVAL,
                    "--prior %s: a model's predictive is a mixture over g of Student-t's, whose interval basel does "
                    "not compute; predict the means with --interval none",
                    name);
}

int bsl_pred_gauss(bsl_pred_ctx *v, const json_t *doc, const json_t *blk, const char *model, double level,
                   basel_pred *p, basel_error *err)
{
    const size_t n = v->n;
    int rc = interval_refused(doc, p, err);
    if (rc) return rc;
    int bad;
    const int noise = !p->interval_mean;
    /* the sds are those of each model's Student-t, which a prior mixing
     * over g does not have (as its intervals, interval_refused) */
    char name[64];
    int moments = !bsl_pred_mixture_over_g(doc, name, sizeof name);
    if (strcmp(model, "bma") == 0) {
        moments = moments && p->want_sd; /* a refit of every kept model: not for the means alone */
        bad = predict_bma(v, blk, noise, level, moments, p);
    } else {
        double df = INFINITY;
        bad = model_predict(v, blk, p->mean, p->sd, p->sdf, &df);
        const double z = isinf(df) ? gsl_cdf_ugaussian_Pinv(0.5 + level / 2) : gsl_cdf_tdist_Pinv(0.5 + level / 2, df);
        /* a t's sd is its scale times sqrt(df / (df - 2)) (t_variance) */
        const double tsd = sqrt(t_variance(1.0, df));
        for (size_t i = 0; i < n * p->c && !bad; i++) {
            const double sy = sqrt(p->sd[i]), sf = sqrt(p->sdf[i]), s = noise ? sy : sf;
            p->lower[i] = p->mean[i] - z * s;
            p->upper[i] = p->mean[i] + z * s;
            p->se[i] = sf; /* with interval_mean, s itself: upper - mean = z se */
            p->sd[i] = sy * tsd;
            p->sdf[i] = sf * tsd;
        }
    }
    p->has_se = p->has_sd = !bad && moments;
    if (bad == -2) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (bad) return bsl_fail(err, BASEL_EPARSE, "the fit's '%s' predictor is malformed", model);
    return BASEL_OK;
}
