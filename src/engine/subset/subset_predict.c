/*
 * subset_predict.c: predictions of the subset engines (enumerate, bd, rj,
 * ssvs) from their engine block: the dictionary ("basis") and one
 * "predictor" per model a user can predict with (subset.c writes them).
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
 * safeguarded Newton on the mixture CDF (bsl_tmix_quantile, tmix.c).
 */
#include "subset.h"
#include "subset_post.h"
#include "coef_table.h"
#include "pred_trie.h"
#include "../engine.h"
#include "../../core/jsonutil.h"
#include "../../problem/problem.h"
#include "../../basis/basis.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Everything a subset-engine predictor needs besides its own block. */
typedef struct vs_ctx {
    bsl_dict *dict;
    size_t n, m, q, c;
    const double *X;
    double *gB;   /* m x q */
    double *R;    /* q x q */
    double *gy;   /* q x c */
    double *Z;    /* n x q always-in columns at the new points */
    double *zvar; /* n: z' (Z'Z)^{-1} z */
    double *col;  /* n scratch */
    double *t;    /* q scratch */
} vs_ctx;

/* 1 if a is an array of exactly n1 * n2 entries (checked before anything
 * of that size is allocated, so a document cannot claim a huge size). */
static int has_len(const json_t *a, size_t n1, size_t n2)
{
    if (n2 && n1 > SIZE_MAX / n2) return 0;
    return json_is_array(a) && json_array_size(a) == n1 * n2;
}

/* The basis block's sizes and shape, checked against the fit's d inputs:
 * bsl_dict_eval reads column j < m of X for linear atoms (so m = d), only
 * column 0 for the 1-D families (so d = 1), and divides by hi - lo. */
static int basis_check(const json_t *b, size_t d, size_t q, size_t c, int *kind, size_t *m)
{
    const char *name = json_string_value(json_object_get(b, "kind"));
    *kind = name ? bsl_basis_kind_from_name(name) : -1;
    size_t bd = 0;
    if (*kind < 0 || bsl_json_read_size(b, "d", 0, SIZE_MAX, &bd) || bd != d ||
        bsl_json_read_size(b, "m", 1, SIZE_MAX, m) || c == 0)
        return -1;
    const double w = json_number_value(json_object_get(b, "width"));
    const double lo = json_number_value(json_object_get(b, "lo")), hi = json_number_value(json_object_get(b, "hi"));
    if (*kind == BSL_BASIS_LINEAR && *m != d) return -1;
    if (*kind == BSL_BASIS_GAUSS && !(isfinite(w) && w > 0)) return -1;
    const json_t *ws = json_object_get(b, "widths");
    if (ws && (*kind != BSL_BASIS_GAUSS || !has_len(ws, *m, 1))) return -1;
    for (size_t j = 0; ws && j < *m; j++) {
        const double wj = json_number_value(json_array_get(ws, j));
        if (!(isfinite(wj) && wj > 0)) return -1;
    }
    const json_t *is = json_object_get(b, "input_scale");
    if (is && (!bsl_basis_is_radial((bsl_basis_kind)*kind) || !has_len(is, d, 1))) return -1;
    for (size_t a = 0; is && a < d; a++) {
        const double sa = json_number_value(json_array_get(is, a));
        if (!(isfinite(sa) && sa >= 0)) return -1;
    }
    if (*kind >= BSL_BASIS_LEGENDRE && (d != 1 || !(isfinite(lo) && isfinite(hi) && hi > lo))) return -1;
    if (bsl_basis_is_radial((bsl_basis_kind)*kind) && !has_len(json_object_get(b, "centres"), *m, d)) return -1;
    return has_len(json_object_get(b, "always_in_coef"), *m, q) && has_len(json_object_get(b, "R"), q, q) &&
                   has_len(json_object_get(b, "always_in_y"), q, c)
               ? 0
               : -1;
}

/* z' (Z'Z)^{-1} z = |R^{-T} z|^2 at every point, by forward substitution. */
static void always_in_variance(vs_ctx *v)
{
    const size_t n = v->n, q = v->q;
    for (size_t i = 0; i < n; i++) {
        v->Z[i] = 1.0;
        for (size_t a = 1; a < q; a++) v->Z[a * n + i] = v->X[(a - 1) * n + i];
        double s = 0;
        for (size_t a = 0; a < q; a++) {
            double u = v->Z[a * n + i];
            for (size_t l = 0; l < a; l++) u -= v->R[l + a * q] * v->t[l];
            v->t[a] = u / v->R[a + a * q];
            s += v->t[a] * v->t[a];
        }
        v->zvar[i] = s;
    }
}

static int vs_ctx_init(vs_ctx *v, const json_t *doc, const double *X, size_t n, size_t d,
                       basel_error *err)
{
    memset(v, 0, sizeof *v);
    const json_t *b = json_object_get(json_object_get(doc, "engine"), "basis");
    const int lin = json_is_true(json_object_get(b, "linear_term"));
    int kind;
    size_t m;
    v->n = n;
    v->q = 1 + (lin ? d : 0);
    v->c = json_array_size(json_object_get(doc, "targets"));
    v->X = X;
    if (basis_check(b, d, v->q, v->c, &kind, &m))
        return bsl_fail(err, BASEL_EPARSE, "the fit's basis block is malformed");
    v->m = m;
    double *centres = NULL;
    if (bsl_basis_is_radial((bsl_basis_kind)kind)) {
        centres = bsl_malloc(m * d, sizeof *centres);
        if (!centres) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        if (bsl_json_read_doubles(json_object_get(b, "centres"), centres, m * d)) {
            free(centres);
            return bsl_fail(err, BASEL_EPARSE, "the fit's basis centres are malformed");
        }
    }
    int rc = bsl_dict_make(&v->dict, (bsl_basis_kind)kind, d, m,
                           json_number_value(json_object_get(b, "width")), centres,
                           json_number_value(json_object_get(b, "lo")),
                           json_number_value(json_object_get(b, "hi")), lin);
    free(centres);
    const json_t *ws = json_object_get(b, "widths");
    if (!rc && ws) {
        double *w = bsl_malloc(m, sizeof *w);
        if (!w) rc = BASEL_ENOMEM;
        if (!rc && bsl_json_read_doubles(ws, w, m)) {
            free(w);
            return bsl_fail(err, BASEL_EPARSE, "the fit's basis widths are malformed");
        }
        if (!rc) rc = bsl_dict_set_widths(v->dict, w);
        free(w);
    }
    const json_t *is = json_object_get(b, "input_scale");
    if (!rc && is) {
        double s[64];
        double *sc = d <= 64 ? s : bsl_malloc(d, sizeof *sc);
        if (!sc) rc = BASEL_ENOMEM;
        if (!rc && bsl_json_read_doubles(is, sc, d)) rc = BASEL_EPARSE;
        if (!rc) rc = bsl_dict_set_input_scale(v->dict, sc);
        if (sc != s) free(sc);
        if (rc == BASEL_EPARSE) return bsl_fail(err, rc, "the fit's basis input scales are malformed");
    }
    if (rc) return bsl_fail(err, rc, "out of memory");
    const size_t q = v->q;
    v->gB = bsl_malloc(m * q, sizeof(double));
    v->R = bsl_malloc(q * q, sizeof(double));
    v->gy = bsl_malloc(q * v->c, sizeof(double));
    v->Z = bsl_malloc(n * q + 1, sizeof(double));
    v->zvar = bsl_malloc(n + 1, sizeof(double));
    v->col = bsl_malloc(n + 1, sizeof(double));
    v->t = bsl_malloc(q, sizeof(double));
    if (!v->gB || !v->R || !v->gy || !v->Z || !v->zvar || !v->col || !v->t)
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (bsl_json_read_doubles(json_object_get(b, "always_in_coef"), v->gB, m * q) ||
        bsl_json_read_doubles(json_object_get(b, "R"), v->R, q * q) ||
        bsl_json_read_doubles(json_object_get(b, "always_in_y"), v->gy, q * v->c))
        return bsl_fail(err, BASEL_EPARSE, "the fit's basis block is malformed");
    always_in_variance(v);
    return BASEL_OK;
}

static void vs_ctx_free(vs_ctx *v)
{
    bsl_dict_free(v->dict);
    free(v->gB);
    free(v->R);
    free(v->gy);
    free(v->Z);
    free(v->zvar);
    free(v->col);
    free(v->t);
}

/* x~ columns of the model's atoms at all points: n x k into Bt. */
static int model_columns(vs_ctx *v, const size_t *atoms, size_t k, double *Bt)
{
    for (size_t a = 0; a < k; a++) {
        if (atoms[a] >= v->m) return -1;
        double *b = Bt + a * v->n;
        bsl_dict_eval(v->dict, atoms[a], v->X, v->n, v->n, b);
        for (size_t l = 0; l < v->q; l++) {
            const double g = v->gB[atoms[a] * v->q + l];
            for (size_t i = 0; i < v->n; i++) b[i] -= g * v->Z[l * v->n + i];
        }
    }
    return 0;
}

/* One single-model predictor block (subset.c's model_predictor), read and
 * checked: its atoms, coefficients beta (k x c) and always-in gamma
 * (q x c), the scale^2 of its Student-t ("scale2", with "df") or, in older
 * fits, E[sigma^2] ("sigma2", df INFINITY: Gaussian), and V (k x k).
 * What predict and the model's coefficient table (bsl_subset_model_coef)
 * both read. */
typedef struct model_blk {
    size_t k;
    size_t *atoms;
    double *beta, *gam, *s2, *V;
    double df;
} model_blk;

static void model_blk_free(model_blk *b)
{
    free(b->atoms);
    free(b->beta);
    free(b->gam);
    free(b->s2);
    free(b->V);
}

/* 0, -1 (malformed), -2 (out of memory); b is to be freed either way. */
static int model_blk_read(const vs_ctx *v, const json_t *blk, model_blk *b)
{
    memset(b, 0, sizeof *b);
    const json_t *at = json_object_get(blk, "atoms");
    const size_t k = json_array_size(at), c = v->c, q = v->q;
    b->k = k;
    b->df = INFINITY;
    if (!has_len(json_object_get(blk, "coef"), k, c) || !has_len(json_object_get(blk, "V"), k, k))
        return -1; /* before allocating k x k */
    const json_t *sc = json_object_get(blk, "scale2"), *jdf = json_object_get(blk, "df");
    if (sc && jdf) {
        b->df = json_number_value(jdf);
        if (!(b->df >= 1 && isfinite(b->df))) return -1;
    }
    b->atoms = bsl_malloc(k + 1, sizeof *b->atoms);
    b->beta = bsl_malloc(k * c + 1, sizeof *b->beta);
    b->gam = bsl_malloc(q * c, sizeof *b->gam);
    b->s2 = bsl_malloc(c, sizeof *b->s2);
    b->V = bsl_malloc(k * k + 1, sizeof *b->V);
    if (!b->atoms || !b->beta || !b->gam || !b->s2 || !b->V) return -2;
    int rc = 0;
    for (size_t a = 0; a < k && !rc; a++) {
        const json_t *x = json_array_get(at, a);
        rc = !json_is_integer(x) || json_integer_value(x) < 0;
        if (!rc) b->atoms[a] = (size_t)json_integer_value(x);
    }
    if (!rc)
        rc = bsl_json_read_doubles(json_object_get(blk, "coef"), b->beta, k * c) ||
             bsl_json_read_doubles(json_object_get(blk, "always_in"), b->gam, q * c) ||
             bsl_json_read_doubles(sc ? sc : json_object_get(blk, "sigma2"), b->s2, c) ||
             bsl_json_read_doubles(json_object_get(blk, "V"), b->V, k * k);
    for (size_t o = 0; o < c && !rc; o++) rc = !(b->s2[o] >= 0);
    return rc ? -1 : 0;
}

/* Mean (n x c) and scale^2 (n x c) of one single-model predictor block:
 * Student-t with *df degrees of freedom (INFINITY: Gaussian) when the block
 * has "scale2" (and "df"), else the Gaussian with E[sigma^2] of older fits.
 * yvar gets the scale^2 of a new y (with the observation's own variance),
 * fvar that of f(x) without it, the square of basel_pred_se. */
static int model_predict(vs_ctx *v, const json_t *blk, double *mean, double *yvar, double *fvar, double *df)
{
    const size_t n = v->n, c = v->c, q = v->q;
    model_blk b;
    int rc = model_blk_read(v, blk, &b);
    const size_t k = b.k;
    *df = b.df;
    double *Bt = rc ? NULL : bsl_malloc(n * k + 1, sizeof *Bt);
    if (!rc) rc = !Bt ? -2 : model_columns(v, b.atoms, k, Bt);
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
    model_blk_free(&b);
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

/* The prior of a posterior block, as it ran. */
static int read_prior(const json_t *o, bsl_coef_prior *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->type = bsl_coef_prior_type_find(json_string_value(json_object_get(o, "kind")));
    if (!pr->type) return -1;
    return pr->type->from_json(pr, o);
}

/* The refitted models of a posterior block (subset_post.h): their atoms
 * (local indices into the block's atoms), posteriors and weights. */
typedef struct post_set {
    bsl_design D;        /* the kept atoms' projected Gram block */
    size_t u, K, kmax;
    size_t *uni;         /* u global atom indices */
    size_t *off, *atoms; /* model r: atoms[off[r] .. off[r+1]) (local) */
    size_t *voff;        /* model r's V at V + voff[r] */
    double *w;           /* K, normalised */
    double *beta, *V, *scale2, *df; /* per model: k x c, k^2, c, 1 */
    double *shrink;      /* K: s of V = s A_tau^{-1} (subset_post.c) */
    double tau;          /* of A_tau = G + tau I */
    bsl_coef_prior prior; /* the refits' */
} post_set;

static void post_set_free(post_set *s)
{
    free(s->D.G);
    free(s->D.Bty);
    free(s->D.diag);
    free(s->D.yy);
    free(s->D.usable);
    free(s->uni);
    free(s->off);
    free(s->voff);
    free(s->atoms);
    free(s->w);
    free(s->beta);
    free(s->V);
    free(s->scale2);
    free(s->df);
    free(s->shrink);
}

static int post_set_read(post_set *s, vs_ctx *v, const json_t *post)
{
    memset(s, 0, sizeof *s);
    const size_t c = v->c;
    const json_t *at = json_object_get(post, "atoms"), *ms = json_object_get(post, "models"),
                 *ws = json_object_get(post, "weights");
    bsl_coef_prior pr;
    size_t ntrain = 0;
    s->u = json_array_size(at);
    s->K = json_array_size(ms);
    if (read_prior(json_object_get(post, "prior"), &pr) || bsl_json_read_size(post, "n", v->q + 1, SIZE_MAX, &ntrain) ||
        !json_is_array(at) || s->u > v->m || !has_len(json_object_get(post, "gram"), s->u, s->u) ||
        !has_len(json_object_get(post, "bty"), s->u, c) || !has_len(json_object_get(post, "yy"), c, 1) ||
        !has_len(ws, s->K, 1) || s->K == 0)
        return -1;
    const size_t u = s->u;
    long *loc = bsl_malloc(v->m + 1, sizeof *loc);
    s->uni = bsl_malloc(u + 1, sizeof *s->uni);
    s->D.G = bsl_malloc(u * u + 1, sizeof(double));
    s->D.Bty = bsl_malloc(u * c + 1, sizeof(double));
    s->D.diag = bsl_malloc(u + 1, sizeof(double));
    s->D.yy = bsl_malloc(c, sizeof(double));
    s->D.usable = bsl_malloc(u + 1, 1);
    s->off = bsl_malloc(s->K + 1, sizeof *s->off);
    s->w = bsl_malloc(s->K, sizeof *s->w);
    int rc = !loc || !s->uni || !s->D.G || !s->D.Bty || !s->D.diag || !s->D.yy || !s->D.usable || !s->off || !s->w
                 ? -2 /* out of memory */
                 : 0;
    for (size_t j = 0; j < v->m && !rc; j++) loc[j] = -1;
    for (size_t a = 0; a < u && !rc; a++) {
        const json_t *x = json_array_get(at, a);
        rc = !json_is_integer(x) || json_integer_value(x) < 0 || (size_t)json_integer_value(x) >= v->m ||
             loc[json_integer_value(x)] >= 0;
        if (!rc) {
            s->uni[a] = (size_t)json_integer_value(x);
            loc[s->uni[a]] = (long)a;
            s->D.usable[a] = 1;
        }
    }
    if (!rc)
        rc = bsl_json_read_doubles(json_object_get(post, "gram"), s->D.G, u * u) ||
             bsl_json_read_doubles(json_object_get(post, "bty"), s->D.Bty, u * c) ||
             bsl_json_read_doubles(json_object_get(post, "yy"), s->D.yy, c) ||
             bsl_json_read_doubles(ws, s->w, s->K);
    size_t total = 0;
    double wsum = 0;
    for (size_t r = 0; r < s->K && !rc; r++) {
        const json_t *mo = json_array_get(ms, r);
        rc = !json_is_array(mo) || json_array_size(mo) > u || !(s->w[r] >= 0 && isfinite(s->w[r]));
        if (!rc) {
            s->off[r] = total;
            total += json_array_size(mo);
            s->kmax = BSL_MAX(s->kmax, json_array_size(mo));
            wsum += s->w[r];
        }
    }
    if (!rc) {
        s->off[s->K] = total;
        s->atoms = bsl_malloc(total + 1, sizeof *s->atoms);
        rc = !s->atoms ? -2 /* out of memory */ : !(wsum > 0);
    }
    for (size_t r = 0; r < s->K && !rc; r++) {
        const json_t *mo = json_array_get(ms, r);
        s->w[r] /= wsum;
        for (size_t a = 0; a < json_array_size(mo) && !rc; a++) {
            const json_t *x = json_array_get(mo, a);
            rc = !json_is_integer(x) || json_integer_value(x) < 0 || (size_t)json_integer_value(x) >= v->m ||
                 loc[json_integer_value(x)] < 0;
            if (!rc) s->atoms[s->off[r] + a] = (size_t)loc[json_integer_value(x)];
        }
    }
    free(loc);
    for (size_t a = 0; a < u && !rc; a++) {
        s->D.diag[a] = s->D.G[a + a * u];
        rc = !(s->D.diag[a] >= 0);
    }
    for (size_t o = 0; o < c && !rc; o++) rc = !(s->D.yy[o] > 0);
    if (rc) return rc == -2 ? -2 : -1;
    s->D.n = ntrain;
    s->D.m = u;
    s->D.c = c;
    s->D.q = v->q;
    /* refit every kept model exactly (as the fit did) */
    /* model r's V at voff[r] (k^2 each) and beta at off[r] * c: memory
     * in proportion to the document's own lists */
    const size_t kx = s->kmax;
    size_t vtot = 0;
    s->voff = bsl_malloc(s->K + 1, sizeof *s->voff);
    for (size_t r = 0; r < s->K && s->voff; r++) {
        const size_t k = s->off[r + 1] - s->off[r];
        s->voff[r] = vtot;
        vtot += k * k;
    }
    s->beta = bsl_malloc(total * c + 1, sizeof(double));
    s->V = bsl_malloc(vtot + 1, sizeof(double));
    s->scale2 = bsl_malloc(s->K * c, sizeof(double));
    s->df = bsl_malloc(s->K, sizeof(double));
    s->shrink = bsl_malloc(s->K, sizeof(double));
    bsl_model *M = NULL;
    bsl_post p = {0};
    rc = !s->voff || !s->beta || !s->V || !s->scale2 || !s->df || !s->shrink || bsl_post_init(&p, kx, c)
             ? -2 /* out of memory */
             : bsl_model_create(&M, &s->D, &pr, kx, NULL);
    if (!rc) {
        s->tau = bsl_coef_tau(&M->prior); /* dense_solve's (subset_post.c) */
        s->prior = M->prior;
    }
    for (size_t r = 0; r < s->K && !rc; r++) {
        const size_t k = s->off[r + 1] - s->off[r];
        const int st = bsl_post_of(&p, M, s->atoms + s->off[r], k, 0);
        rc = st == BASEL_ENOMEM ? -2 : st != BASEL_OK;
        if (rc) break;
        memcpy(s->beta + s->off[r] * c, p.beta, k * c * sizeof(double));
        memcpy(s->V + s->voff[r], p.V, k * k * sizeof(double));
        memcpy(s->scale2 + r * c, p.scale2, c * sizeof(double));
        s->df[r] = p.df;
        s->shrink[r] = p.shrink;
    }
    bsl_model_free(M);
    bsl_post_free(&p);
    return rc == -2 ? -2 : rc ? -1 : 0;
}

/* rows of a block of vs_interval_posterior: the per-model loops run over
 * the block's rows innermost (contiguous in the columns Bt, so they
 * vectorise), and a block's location and scale arrays (2 ROWS K doubles)
 * stay in cache while its quantiles read them */
#define ROWS 16

/* Location and scales of every kept model's Student-t at rows i0..i0+nb of
 * output o: row i's in mu[i * K ..], the scale of a new y in sy[i * K ..]
 * and that of f(x) alone (no noise: what se.fit mixes) in sf[i * K ..].
 * x~'V x~ by the symmetric V's lower triangle, k(k+1)/2 products per row. */
static inline __attribute__((always_inline)) void block_components_of(const vs_ctx *v, const post_set *s,
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
block_components(const vs_ctx *v, const post_set *s, const double *Bt, size_t i0, size_t nb, size_t o, double *mu,
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
static int trie_set_make(trie_set *t, const post_set *s, size_t c)
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
static inline __attribute__((always_inline)) void trie_components_of(const vs_ctx *v, const trie_set *s,
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
trie_components(const vs_ctx *v, const trie_set *s, const double *Bt, size_t i0, size_t nb, size_t o, double *mu,
                double *sy, double *sf, double *stk)
{
    if (nb == ROWS) trie_components_of(v, s, Bt, i0, ROWS, o, mu, sy, sf, stk);
    else trie_components_of(v, s, Bt, i0, nb, o, mu, sy, sf, stk);
}

/* Intervals of the model average: quantiles of the mixture over the kept
 * models of each one's Student-t (of f(x), or of a new y when noise), none
 * with p->no_interval; and the mixture's sds (basel_pred_se, basel_pred_sd),
 * which need no quantiles. */
static int vs_interval_posterior(vs_ctx *v, const json_t *post, int noise, double level, basel_pred *p)
{
    const size_t n = v->n, c = v->c;
    post_set s;
    bsl_tmix_ws ws = {0}; /* every row's quantiles share its CDF tables */
    int rc = post_set_read(&s, v, post);
    double *Bt = NULL, *mu = NULL, *sd = NULL, *sf = NULL, *tf = NULL;
    if (!rc) {
        Bt = bsl_malloc(n * s.u + 1, sizeof *Bt);
        mu = bsl_malloc(ROWS * s.K, sizeof *mu);
        sd = bsl_malloc(ROWS * s.K, sizeof *sd);
        sf = bsl_malloc(ROWS * s.K, sizeof *sf);
        tf = bsl_malloc(s.K, sizeof *tf);
        rc = !Bt || !mu || !sd || !sf || !tf ? -2 /* out of memory */ : model_columns(v, s.uni, s.u, Bt);
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
    post_set_free(&s);
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
static int vs_predict_bma(vs_ctx *v, const json_t *bma, int noise, double level, int moments, basel_pred *p)
{
    const size_t n = v->n, c = v->c, q = v->q;
    const json_t *at = json_object_get(bma, "atoms"), *mix = json_object_get(bma, "mixture");
    const json_t *post = json_object_get(bma, "posterior");
    const size_t k = json_array_size(at), K = post ? 0 : json_array_size(mix);
    if (!has_len(json_object_get(bma, "coef"), k, c)) return -1;
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
    if (!rc) rc = bsl_json_read_doubles(json_object_get(bma, "coef"), beta, k * c) || model_columns(v, atoms, k, Bt);
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
    if (!rc && post && (!p->no_interval || moments)) rc = vs_interval_posterior(v, post, noise, level, p);
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

/* ------------------------------------------------- logistic regression
 * (--family binomial; subset_glm.c wrote the block): P(y = 1 | x) averaged
 * over the block's models, each E[logit^-1(z'theta)] under its Laplace
 * approximation by 32-point Gauss-Hermite quadrature (subset_glm.c). */

#define GH_NODES 32

/* a list of k whole numbers into out; -1 unless it is one */
static int read_atoms(const json_t *a, size_t *out, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        const json_t *x = json_array_get(a, i);
        if (!json_is_integer(x) || json_integer_value(x) < 0) return -1;
        out[i] = (size_t)json_integer_value(x);
    }
    return 0;
}

/* What a GLM prediction needs of each model at each row: the mean and
 * variance of eta = z'theta under the model's Laplace approximation. */
typedef void (*eta_fn)(void *ctx, size_t row, size_t model, double weight, double mu, double s2);

/* Calls fn for every model of blk and every row (n); then *W holds the
 * models' total weight. 0, -1 (malformed), -2 (out of memory). */
static int glm_models(vs_ctx *v, const json_t *blk, eta_fn fn, void *ctx, double *Wout)
{
    const size_t n = v->n;
    const json_t *list = json_object_get(blk, "models");
    const size_t nm = json_array_size(list);
    double *Bt = bsl_malloc(n * (v->m + 1), sizeof *Bt), *mode = bsl_malloc(v->m + 2, sizeof *mode);
    double *L = bsl_malloc((v->m + 1) * (v->m + 1), sizeof *L), *zv = bsl_malloc(v->m + 1, sizeof *zv);
    size_t *atoms = bsl_malloc(v->m + 1, sizeof *atoms);
    int rc = Bt && mode && L && zv && atoms ? 0 : -2;
    double W = 0;
    for (size_t s = 0; s < nm && !rc; s++) {
        const json_t *o = json_array_get(list, s), *at = json_object_get(o, "atoms");
        const size_t k = json_array_size(at), dd = k + 1;
        const double w = json_number_value(json_object_get(o, "weight"));
        if (k > v->m || read_atoms(at, atoms, k) || bsl_json_read_doubles(json_object_get(o, "mode"), mode, dd) ||
            bsl_json_read_doubles(json_object_get(o, "factor"), L, dd * dd)) {
            rc = -1;
            break;
        }
        for (size_t a = 0; a < k && !rc; a++) {
            if (atoms[a] >= v->m) rc = -1;
            else bsl_dict_eval(v->dict, atoms[a], v->X, n, n, Bt + a * n);
        }
        for (size_t i = 0; i < n && !rc; i++) {
            zv[0] = 1.0;
            for (size_t a = 0; a < k; a++) zv[a + 1] = Bt[a * n + i];
            double mu = 0, s2 = 0;
            for (size_t a = 0; a < dd; a++) mu += zv[a] * mode[a];
            for (size_t a = 0; a < dd; a++) { /* |L^-1 z|^2, L lower */
                double u = zv[a];
                for (size_t l = 0; l < a; l++) u -= L[a + l * dd] * zv[l];
                zv[a] = u / L[a + a * dd];
                s2 += zv[a] * zv[a];
            }
            fn(ctx, i, s, w, mu, s2);
        }
        W += w;
    }
    if (!rc && !(W > 0)) rc = -1;
    free(Bt);
    free(mode);
    free(L);
    free(zv);
    free(atoms);
    *Wout = W;
    return rc;
}

/* --family poisson: the predictive of a new count at each row, a mixture
 * over the models of Poisson(e^eta), eta ~ N(mu, s2): its mean
 * sum_M w_M exp(mu + s2 / 2) / W and its quantiles from the CDF
 * P(Y <= c) = sum_M w_M E[Poisson CDF(c; e^eta)] / W (32-point
 * Gauss-Hermite), the smallest counts whose CDF reaches (1 -+ level) / 2. */
typedef struct count_ctx {
    size_t nm, n;
    double *mu, *s2, *w; /* nm x n, nm x n, nm */
    double *mean;
} count_ctx;

static void count_eta(void *ctx, size_t row, size_t model, double weight, double mu, double s2)
{
    count_ctx *c = ctx;
    c->mu[model * c->n + row] = mu;
    c->s2[model * c->n + row] = s2;
    c->w[model] = weight;
    c->mean[row] += weight * exp(mu + s2 / 2);
}

/* P(Y <= cnt) at row i: the models' Gauss-Hermite sums. A rate that
 * overflows (e^eta = inf) puts no mass at any finite count; one that
 * underflows to 0 puts it all at 0 (GSL's CDF is NaN at a zero rate). */
static double count_cdf(const count_ctx *c, const gsl_integration_fixed_workspace *gh, double W, size_t i,
                        unsigned cnt)
{
    double cdf = 0;
    for (size_t s = 0; s < c->nm; s++)
        for (size_t q = 0; q < GH_NODES; q++) {
            const double rate = exp(c->mu[s * c->n + i] + M_SQRT2 * sqrt(c->s2[s * c->n + i]) * gh->x[q]);
            const double P = !isfinite(rate) ? 0 : rate > 0 ? gsl_cdf_poisson_P(cnt, rate) : 1;
            cdf += c->w[s] * gh->weights[q] / sqrt(M_PI) * P;
        }
    return cdf / W;
}

/* The smallest count in [lo, hi] whose CDF reaches p, given that hi's
 * does: bisection, so a row whose counts are in the millions costs ~20
 * CDF evaluations, not a million (a crafted fit once made the linear
 * search run for minutes). */
static unsigned count_quantile(const count_ctx *c, const gsl_integration_fixed_workspace *gh, double W, size_t i,
                               double p, unsigned lo, unsigned hi)
{
    while (lo < hi) {
        const unsigned mid = lo + (hi - lo) / 2;
        if (count_cdf(c, gh, W, i, mid) >= p) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

static int glm_counts(vs_ctx *v, const json_t *blk, double level, basel_pred *p, basel_error *err)
{
    if (p->interval_mean)
        return bsl_fail(err, BASEL_EINVAL, "--interval-kind mean: a --family poisson fit gives intervals for new counts only");
    const size_t n = v->n, nm = json_array_size(json_object_get(blk, "models"));
    count_ctx c = {nm, n, bsl_malloc(nm * n + 1, sizeof(double)), bsl_malloc(nm * n + 1, sizeof(double)),
                   bsl_calloc(nm + 1, sizeof(double)), p->mean};
    gsl_integration_fixed_workspace *gh = gsl_integration_fixed_alloc(gsl_integration_fixed_hermite, GH_NODES, 0, 1, 0, 0);
    double W = 0;
    for (size_t i = 0; i < n; i++) p->mean[i] = 0;
    int bad = c.mu && c.s2 && c.w && gh ? glm_models(v, blk, count_eta, &c, &W) : -2;
    size_t beyond = n; /* a row whose predictive is beyond the counts GSL's CDF takes */
    for (size_t i = 0; i < n && !bad && beyond == n; i++) {
        p->mean[i] /= W;
        const double lo = (1 - level) / 2, hi = (1 + level) / 2;
        /* a count whose CDF reaches hi: doubling from the mean, at most 32 steps */
        unsigned top = p->mean[i] < 1 ? 1u : p->mean[i] < (double)(UINT_MAX / 2) ? (unsigned)p->mean[i] : UINT_MAX / 2;
        while (count_cdf(&c, gh, W, i, top) < hi && top < UINT_MAX / 2) top *= 2;
        if (!isfinite(p->mean[i]) || count_cdf(&c, gh, W, i, top) < hi) {
            beyond = i;
            break;
        }
        const unsigned upper = count_quantile(&c, gh, W, i, hi, 0, top);
        p->upper[i] = upper;
        p->lower[i] = count_quantile(&c, gh, W, i, lo, 0, upper);
    }
    free(c.mu);
    free(c.s2);
    free(c.w);
    if (gh) gsl_integration_fixed_free(gh);
    if (bad == -2) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (bad) return bsl_fail(err, BASEL_EPARSE, "the fit's Poisson predictor is malformed");
    if (beyond < n)
        return bsl_fail(err, BASEL_EINVAL,
                        "row %zu: the predicted count is beyond %u (a mean of %g): the row is far outside the "
                        "training data, or the fit is damaged", beyond + 1, UINT_MAX / 2, p->mean[beyond]);
    return BASEL_OK;
}

/* Class probabilities P(y = 1) of the models of blk into p1 (n): each
 * model's E[logit^-1(eta)], eta ~ N(mu, s2), by Gauss-Hermite (weight
 * exp(-t^2): eta = mu + sqrt(2) s t), averaged with the models' weights. */
typedef struct prob_ctx {
    const gsl_integration_fixed_workspace *gh;
    double *p1;
} prob_ctx;

static void prob_eta(void *ctx, size_t row, size_t model, double weight, double mu, double s2)
{
    (void)model;
    const prob_ctx *c = ctx;
    double e = 0;
    for (size_t q = 0; q < GH_NODES; q++)
        e += c->gh->weights[q] / (1.0 + exp(-(mu + M_SQRT2 * sqrt(s2) * c->gh->x[q])));
    c->p1[row] += weight * e / sqrt(M_PI);
}

static int glm_probabilities(vs_ctx *v, const json_t *blk, double *p1)
{
    gsl_integration_fixed_workspace *gh = gsl_integration_fixed_alloc(gsl_integration_fixed_hermite, GH_NODES, 0, 1, 0, 0);
    for (size_t i = 0; i < v->n; i++) p1[i] = 0;
    prob_ctx c = {gh, p1};
    double W = 0;
    const int rc = gh ? glm_models(v, blk, prob_eta, &c, &W) : -2;
    for (size_t i = 0; i < v->n && !rc; i++) p1[i] /= W;
    if (gh) gsl_integration_fixed_free(gh);
    return rc;
}

static int glm_predict(vs_ctx *v, const json_t *doc, const json_t *blk, basel_pred *p, basel_error *err)
{
    const json_t *cl = json_object_get(doc, "classes");
    const size_t n = v->n;
    /* the regression arrays from basel_fit_predict are replaced by classes */
    for (size_t j = 0; j < p->c; j++) free(p->names[j]);
    free(p->names);
    p->names = bsl_calloc(2, sizeof *p->names);
    p->prob = bsl_calloc(n * 2 + 1, sizeof *p->prob);
    p->cls = bsl_calloc(n + 1, sizeof *p->cls);
    p->nclass = 2;
    double *p1 = bsl_malloc(n + 1, sizeof *p1);
    if (!p->names || !p->prob || !p->cls || !p1) {
        free(p1);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < 2; k++) {
        const char *s = json_string_value(json_array_get(cl, k));
        if (!(p->names[k] = bsl_strdup(s ? s : k ? "1" : "0"))) {
            free(p1);
            return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        }
    }
    const int bad = glm_probabilities(v, blk, p1);
    for (size_t i = 0; i < n && !bad; i++) {
        p->prob[2 * i] = 1 - p1[i];
        p->prob[2 * i + 1] = p1[i];
        p->cls[i] = p1[i] > 0.5;
    }
    free(p1);
    if (bad == -2) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return bad ? bsl_fail(err, BASEL_EPARSE, "the fit's logistic predictor is malformed") : BASEL_OK;
}

/* --family multinomial (subset_multi.c): p_<level> for every level, and
 * the most probable level. */
static int multi_predict(vs_ctx *v, const json_t *doc, const json_t *blk, basel_pred *p, basel_error *err)
{
    const json_t *cl = json_object_get(doc, "classes");
    const size_t n = v->n, C = json_array_size(cl);
    for (size_t j = 0; j < p->c; j++) free(p->names[j]);
    free(p->names);
    p->names = bsl_calloc(C, sizeof *p->names);
    p->prob = bsl_calloc(n * C + 1, sizeof *p->prob);
    p->cls = bsl_calloc(n + 1, sizeof *p->cls);
    p->nclass = C;
    double *B = bsl_malloc(n * v->m + 1, sizeof *B);
    int bad = !p->names || !p->prob || !p->cls || !B ? -2 : 0;
    for (size_t k = 0; k < C && !bad; k++)
        if (!(p->names[k] = bsl_strdup(json_string_value(json_array_get(cl, k))))) bad = -2;
    for (size_t j = 0; j < v->m && !bad; j++) bsl_dict_eval(v->dict, j, v->X, n, n, B + j * n);
    if (!bad) bad = bsl_subset_multi_probs(blk, B, n, v->m, C, p->prob);
    for (size_t i = 0; i < n && !bad; i++) {
        size_t best = 0;
        for (size_t k = 1; k < C; k++)
            if (p->prob[i * C + k] > p->prob[i * C + best]) best = k;
        p->cls[i] = best;
    }
    free(B);
    if (bad == -2) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return bad ? bsl_fail(err, BASEL_EPARSE, "the fit's multinomial predictor is malformed") : BASEL_OK;
}

/* A fit without the predictor it was asked for: an optional kind
 * (summary.h: projection, which GLM fits and older fits do not have) says
 * why; anything else is a damaged document. */
static int no_predictor(const json_t *doc, const char *model, basel_error *err)
{
    const int i = bsl_selection_index(model);
    if (i >= 0 && bsl_selections[i].optional) {
        const char *family = json_string_value(json_object_get(json_object_get(doc, "engine"), "family"));
        return bsl_fail(err, BASEL_EINVAL, "--model %s: this fit has no %s model (%s)", model, model,
                        family ? "made for Gaussian fits only, not --family binomial, poisson or multinomial"
                               : "it was written by a basel before the projection model; fit again");
    }
    return bsl_fail(err, BASEL_EPARSE, "the fit has no '%s' predictor", model);
}

/* Under a prior whose models' posteriors are mixtures over g (coef_prior.h
 * within_model: hyper-g, jzs, ...), a prediction's exact interval is a
 * mixture of Student-t's over g in every model, which this file does not
 * compute: refused rather than approximated (the means are exact). */
/* The name of the document's coefficient prior when it is one of those
 * (within_model), into name (len bytes); NULL otherwise. */
static const char *mixture_over_g(const json_t *doc, char *name, size_t len)
{
    const char *spec = json_string_value(json_object_get(json_object_get(doc, "prior"), "coefficients"));
    if (!spec) return NULL;
    snprintf(name, len, "%.*s", (int)strcspn(spec, ":"), spec);
    const bsl_coef_prior_type *t = bsl_coef_prior_type_find(name);
    return t && t->within_model ? name : NULL;
}

static int interval_refused(const json_t *doc, const basel_pred *p, basel_error *err)
{
    char name[64] = "";
    if (p->no_interval || !mixture_over_g(doc, name, sizeof name)) return BASEL_OK;
    return bsl_fail(err, BASEL_EINVAL,
                    "--prior %s: a model's predictive is a mixture over g of Student-t's, whose interval basel does "
                    "not compute; predict the means with --interval none",
                    name);
}

int bsl_subset_predict(const json_t *doc, const double *X, size_t n, size_t d, const char *model,
                       double level, basel_pred *p, basel_error *err)
{
    vs_ctx v;
    int rc = vs_ctx_init(&v, doc, X, n, d, err);
    const char *family = json_string_value(json_object_get(json_object_get(doc, "engine"), "family"));
    if (!rc && family && strcmp(family, "poisson") == 0) {
        const json_t *blk = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
        rc = blk ? glm_counts(&v, blk, level, p, err) : no_predictor(doc, model, err);
        vs_ctx_free(&v);
        return rc;
    }
    if (!rc && family && strcmp(family, "multinomial") == 0) {
        const json_t *blk = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
        rc = blk ? multi_predict(&v, doc, blk, p, err) : no_predictor(doc, model, err);
        vs_ctx_free(&v);
        return rc;
    }
    if (!rc && family && strcmp(family, "binomial") == 0) {
        const json_t *blk = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
        rc = blk ? glm_predict(&v, doc, blk, p, err) : no_predictor(doc, model, err);
        vs_ctx_free(&v);
        return rc;
    }
    const json_t *pred = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
    if (!rc && !pred) rc = no_predictor(doc, model, err);
    if (!rc) rc = interval_refused(doc, p, err);
    if (!rc) {
        int bad;
        const int noise = !p->interval_mean;
        /* the sds are those of each model's Student-t, which a prior mixing
         * over g does not have (as its intervals, interval_refused) */
        char name[64];
        int moments = !mixture_over_g(doc, name, sizeof name);
        if (strcmp(model, "bma") == 0) {
            moments = moments && p->want_sd; /* a refit of every kept model: not for the means alone */
            bad = vs_predict_bma(&v, pred, noise, level, moments, p);
        } else {
            double df = INFINITY;
            bad = model_predict(&v, pred, p->mean, p->sd, p->sdf, &df);
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
        if (bad == -2) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        else if (bad) rc = bsl_fail(err, BASEL_EPARSE, "the fit's '%s' predictor is malformed", model);
    }
    vs_ctx_free(&v);
    return rc;
}


/* ------------------------------------------ one model's coefficient table */

/* A table's row of values (basel.h's BASEL_COEF_*) from a term's JSON row
 * (coef_table.c), times the target's scale (standardize.target_scale: the
 * engine block is in the rescaled units, FIT.md "Extreme values"); NaN for
 * a number the row does not have. */
static void row_values(const json_t *row, double scale, double *v)
{
    for (size_t i = 0; i < BASEL_COEF_NVALUES; i++) {
        const json_t *x = json_object_get(row, bsl_coef_value_keys[i]);
        v[i] = json_is_number(x) ? json_number_value(x) * (i == BASEL_COEF_PIP ? 1.0 : scale) : NAN;
    }
}

/* The models a table is made of: K models, model r with atoms (global
 * indices) atoms[off[r] .. off[r + 1]), posterior post[r] and weight w[r];
 * pip[j] atom j's PIP, or NULL for one model (1 in it, 0 outside). With
 * set (the model average's), the components come from its Gram block as
 * the fit's table got them (bsl_coef_comps_shared), not from post. */
typedef struct table_models {
    size_t K;
    const size_t *off, *atoms;
    const bsl_post *post;
    const double *w, *pip;
    const post_set *set;
} table_models;

/* The model average's components from its Gram block, as the fit's table
 * (subset_post.c collect): the same algebra on the same numbers. 1 when it
 * does not apply (as the fit's table, then model by model). */
static int set_comps(const post_set *s, size_t nterm, const bsl_design *D, bsl_coef_comps *cp, const double *mu,
                     const double *sc, int linear)
{
    const size_t K = s->K;
    const size_t **atoms = bsl_malloc(K + 1, sizeof *atoms);
    size_t *ks = bsl_malloc(K + 1, sizeof *ks);
    int rc = atoms && ks ? 0 : -2;
    for (size_t r = 0; r < K && !rc; r++) {
        atoms[r] = s->atoms + s->off[r];
        ks[r] = s->off[r + 1] - s->off[r];
    }
    const bsl_coef_gram gm = {s->D.G, s->D.m, s->D.Bty, s->uni, s->D.m, s->tau, &s->prior,
                              (double)(s->D.n - D->q), s->D.yy, 0, NULL, NULL};
    if (!rc) {
        const int st = bsl_coef_comps_shared(cp, nterm, D, &gm, K, (const size_t *const *)atoms, ks, s->w, mu, sc, linear);
        rc = st == BASEL_ENOMEM ? -2 : st == BASEL_EINVAL ? 1 : st ? -1 : 0;
    }
    free((void *)atoms);
    free(ks);
    return rc;
}

/* What is asked of a table's terms: their rows at level (x NULL), or the
 * density of each term's posterior at nx points (row r's at x[r * nx ..]),
 * into out. */
typedef struct table_job {
    double level;
    const double *x;
    size_t nx;
    double *out;
} table_job;

/* The components of every term of tm's models into cp (coef_table.h): the
 * same per-model algebra (bsl_post_terms) as the table the fit wrote.
 * 0, -1 (malformed), -2 (out of memory); cp is to be freed either way. */
static int table_comps(const vs_ctx *v, const json_t *doc, const table_models *tm, bsl_coef_comps *cp)
{
    const size_t q = v->q, c = v->c, m = v->m, nterm = q + m, d = json_array_size(json_object_get(doc, "inputs"));
    const json_t *st = json_object_get(doc, "standardize");
    const char *kind = json_string_value(json_object_get(json_object_get(json_object_get(doc, "engine"), "basis"), "kind"));
    const int linear = kind && bsl_basis_kind_from_name(kind) == BSL_BASIS_LINEAR;
    size_t kmax = 0;
    for (size_t r = 0; r < tm->K; r++) kmax = BSL_MAX(kmax, tm->off[r + 1] - tm->off[r]);
    double *mu = bsl_malloc(d + 1, sizeof *mu), *sc = bsl_malloc(d + 1, sizeof *sc);
    double *u = bsl_malloc(q + 1, sizeof *u), *t = bsl_malloc(q + 1, sizeof *t), *x = bsl_malloc(kmax + 1, sizeof *x);
    int rc = bsl_coef_comps_init(cp, c * nterm) || !mu || !sc || !u || !t || !x ? -2 : 0;
    if (!rc && (bsl_json_read_doubles(json_object_get(st, "mean"), mu, d) ||
                bsl_json_read_doubles(json_object_get(st, "scale"), sc, d)))
        rc = -1;
    for (size_t a = 0; a < tm->off[tm->K] && !rc; a++)
        rc = tm->atoms[a] >= m || (linear && tm->atoms[a] >= d) ? -1 : 0;
    for (size_t o = 0; o < c && !rc; o++) {
        for (size_t l = 0; l < q; l++) cp->off[o * nterm + l] = tm->K;
        for (size_t a = 0; a < tm->off[tm->K]; a++) cp->off[o * nterm + q + tm->atoms[a]]++;
    }
    if (!rc && bsl_coef_comps_alloc(cp)) rc = -2;
    const bsl_design D = {.q = q, .c = c, .gy = v->gy, .gB = v->gB, .R = v->R};
    int shared = 0;
    if (!rc && tm->set) {
        rc = set_comps(tm->set, nterm, &D, cp, mu, sc, linear);
        shared = !rc;
        if (rc == 1) rc = 0;
    }
    for (size_t r = 0; r < tm->K && !rc && !shared; r++)
        for (size_t o = 0; o < c; o++)
            bsl_post_terms(cp, o, nterm, &D, &tm->post[r], tm->atoms + tm->off[r], tm->w[r], mu, sc, linear, u, x, t);
    free(mu);
    free(sc);
    free(u);
    free(t);
    free(x);
    return rc;
}

/* The rows (job->x NULL) or densities of the table of tm's models into
 * job->out, in the document's table's order: a row as the fit's table
 * makes it (bsl_coef_term_json); a density that of the term's mixture with
 * its weights renormalised to the PIP (bsl_tmix_density: the continuous
 * part; 1 - PIP is the mass at 0). 0, -1 (malformed), -2 (out of memory). */
static int table_rows(const vs_ctx *v, const json_t *doc, const table_models *tm, const table_job *job)
{
    const size_t q = v->q, c = v->c, nterm = q + v->m;
    const json_t *ts = json_object_get(json_object_get(doc, "standardize"), "target_scale");
    /* under a mixture of g-priors a model's coefficients are a mixture over g
     * of Student-t's: their means are exact, their spread is not computed
     * (as predict refuses their intervals: interval_refused) */
    char name[64];
    const int spread = !mixture_over_g(doc, name, sizeof name);
    bsl_coef_comps cp;
    int rc = table_comps(v, doc, tm, &cp);
    for (size_t o = 0; o < c && !rc; o++) {
        const double scale = ts ? json_number_value(json_array_get(ts, o)) : 1.0;
        for (size_t j = 0; j < nterm && !rc; j++) {
            const size_t r = o * nterm + j, off = cp.off[r], K = cp.fill[r];
            const double pip = j < q ? 1.0 : tm->pip ? fmin(fmax(tm->pip[j - q], 0.0), 1.0) : K ? 1.0 : 0.0;
            if (job->x) { /* the density, in the target's units: f(x / scale) / scale */
                double W = 0;
                for (size_t i = 0; i < K; i++) W += cp.w[off + i];
                for (size_t i = 0; i < K; i++) cp.w[off + i] *= W > 0 ? pip / W : 0.0;
                const bsl_tmix t = {cp.w + off, cp.mu + off, cp.s + off, cp.df + off, K, 1 - pip};
                for (size_t i = 0; i < job->nx; i++)
                    job->out[r * job->nx + i] = bsl_tmix_density(&t, job->x[r * job->nx + i] / scale) / scale;
                continue;
            }
            json_t *row = bsl_coef_term_json(cp.w + off, cp.mu + off, cp.s + off, cp.df + off, K, pip, job->level, 0,
                                             &cp.ws, NULL);
            double *out = job->out + r * BASEL_COEF_NVALUES;
            if (!row) rc = -2;
            else row_values(row, scale, out);
            for (size_t i = BASEL_COEF_SD; row && !spread && K && i < BASEL_COEF_NVALUES; i++)
                if (i != BASEL_COEF_COND_MEAN) out[i] = NAN;
            json_decref(row);
        }
    }
    if (!rc && cp.ws.oom) rc = -2;
    bsl_coef_comps_free(&cp);
    return rc;
}

/* One model's table: its predictor block, one model of weight 1. */
static int single_rows(vs_ctx *v, const json_t *doc, const json_t *blk, const table_job *job)
{
    model_blk b;
    int rc = model_blk_read(v, blk, &b);
    if (!rc) {
        const size_t off[2] = {0, b.k};
        const double w = 1.0;
        const bsl_post p = {.k = b.k, .c = v->c, .beta = b.beta, .V = b.V, .scale2 = b.s2, .df = b.df};
        const table_models tm = {1, off, b.atoms, &p, &w, NULL, NULL};
        rc = table_rows(v, doc, &tm, job);
    }
    model_blk_free(&b);
    return rc;
}

/* The model average's table: the models of its predictive block
 * (bma.posterior: all but 1e-6 of the posterior weight), each refitted
 * exactly as predict refits them (post_set_read), weighted as there; the
 * atoms' PIPs the document's table's (a column of a grouped factor has its
 * group's, where the document's "pip" is per group). */
static int average_rows(vs_ctx *v, const json_t *doc, const json_t *bma, const table_job *job)
{
    const json_t *post = json_object_get(bma, "posterior");
    const json_t *terms = json_object_get(json_object_get(doc, "coefficients"), "terms");
    if (!post) return -3; /* a fit written before the block */
    post_set s;
    int rc = post_set_read(&s, v, post);
    const size_t total = rc ? 0 : s.off[s.K];
    size_t *atoms = rc ? NULL : bsl_malloc(total + 1, sizeof *atoms);
    bsl_post *pp = rc ? NULL : bsl_calloc(s.K + 1, sizeof *pp);
    double *pip = rc ? NULL : bsl_malloc(v->m + 1, sizeof *pip);
    if (!rc && (!atoms || !pp || !pip)) rc = -2;
    for (size_t j = 0; j < v->m && !rc; j++) {
        const json_t *x = json_object_get(json_array_get(terms, v->q + j), "pip");
        if (json_is_number(x)) pip[j] = json_number_value(x);
        else rc = -1;
    }
    for (size_t a = 0; a < total && !rc; a++) atoms[a] = s.uni[s.atoms[a]]; /* local to global */
    for (size_t r = 0; r < s.K && !rc; r++)
        pp[r] = (bsl_post){.k = s.off[r + 1] - s.off[r], .c = v->c, .beta = s.beta + s.off[r] * v->c,
                           .V = s.V + s.voff[r], .scale2 = s.scale2 + r * v->c, .df = s.df[r]};
    if (!rc) {
        const table_models tm = {s.K, s.off, atoms, pp, s.w, pip, &s};
        rc = table_rows(v, doc, &tm, job);
    }
    post_set_free(&s);
    free(atoms);
    free(pp);
    free(pip);
    return rc;
}

/* A table on demand (bsl_subset_model_coef, bsl_subset_coef_density). */
static int on_demand(const json_t *doc, const char *model, const table_job *job, size_t rows, basel_error *err)
{
    const char *family = json_string_value(json_object_get(json_object_get(doc, "engine"), "family"));
    if (family && strcmp(family, "gaussian") != 0)
        return bsl_fail(err, BASEL_EINVAL,
                        "a coefficient table on demand is computed for Gaussian fits, not --family %s (its table "
                        "at the fit's level is basel_fit_coef)",
                        family);
    char name[64];
    const int bma = strcmp(model, "bma") == 0;
    if ((bma || job->x) && mixture_over_g(doc, name, sizeof name))
        return bsl_fail(err, BASEL_EINVAL,
                        "--prior %s: %s coefficients are mixtures over g of Student-t's, whose %s basel does not "
                        "compute",
                        name, bma ? "the model average's" : "a model's",
                        job->x ? "densities" : "intervals at another level than the fit's (basel_fit_coef)");
    const json_t *blk = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
    if (!blk) return no_predictor(doc, model, err);
    vs_ctx v;
    int rc = vs_ctx_init(&v, doc, NULL, 0, json_array_size(json_object_get(doc, "inputs")), err);
    if (!rc && v.q > 64) rc = bsl_fail(err, BASEL_ERANGE, "too many always-in columns for the coefficient table");
    if (!rc && rows != v.c * (v.q + v.m))
        rc = bsl_fail(err, BASEL_EPARSE, "the fit's coefficient table has %zu rows, its engine block %zu terms", rows,
                      v.c * (v.q + v.m));
    const int bad = rc ? 0 : bma ? average_rows(&v, doc, blk, job) : single_rows(&v, doc, blk, job);
    if (bad == -2) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    else if (bad == -3)
        rc = bsl_fail(err, BASEL_EINVAL,
                      "this fit was written before basel kept the model average's predictive block: its "
                      "coefficients are the table at the fit's level only (fit again)");
    else if (bad) rc = bsl_fail(err, BASEL_EPARSE, "the fit's '%s' predictor is malformed", model);
    vs_ctx_free(&v);
    return rc;
}

int bsl_subset_model_coef(const json_t *doc, const char *model, double level, double *out, size_t rows,
                          basel_error *err)
{
    const table_job job = {level, NULL, 0, out};
    return on_demand(doc, model, &job, rows, err);
}

int bsl_subset_coef_density(const json_t *doc, const char *model, const double *x, size_t nx, double *out,
                            size_t rows, basel_error *err)
{
    const table_job job = {0.95, x, nx, out};
    return on_demand(doc, model, &job, rows, err);
}
