/*
 * subset_predict.c: predictions of the subset engines (enumerate, bd, rj,
 * ssvs) from their engine block: the dictionary ("basis") and one
 * "predictor" per model a user can predict with (subset.c writes them).
 *
 * A single model M predicts output o at x with
 *   mean  z(x)' gamma_o + b_M(x)' beta_o
 *   var   sigma2_o (1 + x~' V x~ + z' (Z'Z)^{-1} z),  x~ = b_M(x) - gB_M' z(x),
 * a Gaussian approximation of the Student-t predictive (exact for the ridge
 * prior with sigma^2 given). The model average's mean is exact (all visited
 * models, Rao-Blackwellised); its interval comes from the mixture over the
 * top models, whose quantiles are found by bisection on the mixture CDF.
 */
#include "subset.h"
#include "../fit/fit.h"
#include "../basis/basis.h"

#include <gsl/gsl_cdf.h>
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

/* Mean (n x c) and variance (n x c) of one single-model predictor block. */
static int model_predict(vs_ctx *v, const json_t *blk, double *mean, double *var)
{
    const json_t *at = json_object_get(blk, "atoms");
    const size_t k = json_array_size(at), n = v->n, c = v->c, q = v->q;
    if (!has_len(json_object_get(blk, "coef"), k, c) || !has_len(json_object_get(blk, "V"), k, k))
        return -1; /* before allocating k x k */
    size_t *atoms = bsl_malloc(k + 1, sizeof *atoms);
    double *beta = bsl_malloc(k * c + 1, sizeof *beta), *gam = bsl_malloc(q * c, sizeof *gam),
           *s2 = bsl_malloc(c, sizeof *s2), *V = bsl_malloc(k * k + 1, sizeof *V),
           *Bt = bsl_malloc(n * k + 1, sizeof *Bt);
    const int oom = !atoms || !beta || !gam || !s2 || !V || !Bt;
    int rc = oom;
    for (size_t a = 0; a < k && !rc; a++) {
        const json_t *x = json_array_get(at, a);
        rc = !json_is_integer(x) || json_integer_value(x) < 0;
        if (!rc) atoms[a] = (size_t)json_integer_value(x);
    }
    if (!rc)
        rc = bsl_json_read_doubles(json_object_get(blk, "coef"), beta, k * c) ||
             bsl_json_read_doubles(json_object_get(blk, "always_in"), gam, q * c) ||
             bsl_json_read_doubles(json_object_get(blk, "sigma2"), s2, c) ||
             bsl_json_read_doubles(json_object_get(blk, "V"), V, k * k) || model_columns(v, atoms, k, Bt);
    for (size_t i = 0; i < n && !rc; i++) {
        double h = 0;
        for (size_t a = 0; a < k; a++)
            for (size_t b = 0; b < k; b++) h += Bt[a * n + i] * V[a + b * k] * Bt[b * n + i];
        for (size_t o = 0; o < c; o++) {
            double mu = 0;
            for (size_t l = 0; l < q; l++) mu += v->Z[l * n + i] * gam[l * c + o];
            for (size_t a = 0; a < k; a++) mu += Bt[a * n + i] * beta[a * c + o];
            /* gamma = gy - sum_a beta_a gB_a goes with the raw columns
             * b_a = x~_a + gB_a' z; add the gB_a' z part back */
            for (size_t a = 0; a < k; a++)
                for (size_t l = 0; l < q; l++) mu += beta[a * c + o] * v->gB[atoms[a] * q + l] * v->Z[l * n + i];
            mean[o * n + i] = mu;
            var[o * n + i] = s2[o] * (1 + fmax(h, 0) + v->zvar[i]);
        }
    }
    free(atoms);
    free(beta);
    free(gam);
    free(s2);
    free(V);
    free(Bt);
    return oom ? -2 : rc ? -1 : 0; /* -2: out of memory, -1: malformed */
}

/* Quantile of a normal mixture by bisection on its CDF. */
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

static int vs_predict_bma(vs_ctx *v, const json_t *bma, double level, basel_pred *p)
{
    const size_t n = v->n, c = v->c, q = v->q;
    const json_t *at = json_object_get(bma, "atoms"), *mix = json_object_get(bma, "mixture");
    const size_t k = json_array_size(at), K = json_array_size(mix);
    if (!has_len(json_object_get(bma, "coef"), k, c)) return -1;
    size_t *atoms = bsl_malloc(k + 1, sizeof *atoms);
    double *beta = bsl_malloc(k * c + 1, sizeof *beta), *Bt = bsl_malloc(n * k + 1, sizeof *Bt);
    double *mm = bsl_malloc(K * n * c + 1, sizeof *mm), *mv = bsl_malloc(K * n * c + 1, sizeof *mv);
    double *w = bsl_malloc(K + 1, sizeof *w), *mu = bsl_malloc(K + 1, sizeof *mu), *sd = bsl_malloc(K + 1, sizeof *sd);
    const int oom = !atoms || !beta || !Bt || !mm || !mv || !w || !mu || !sd;
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
        rc = model_predict(v, blk, mm + i * n * c, mv + i * n * c);
    }
    for (size_t i = 0; i < n && !rc; i++)
        for (size_t o = 0; o < c; o++) {
            double m0 = 0;
            for (size_t l = 0; l < q; l++) m0 += v->Z[l * n + i] * v->gy[l * c + o];
            for (size_t a = 0; a < k; a++) m0 += Bt[a * n + i] * beta[a * c + o];
            p->mean[o * n + i] = m0;
            if (K == 0 || !(wsum > 0)) {
                p->lower[o * n + i] = p->upper[o * n + i] = NAN;
                continue;
            }
            for (size_t r = 0; r < K; r++) {
                mu[r] = mm[r * n * c + o * n + i];
                sd[r] = sqrt(mv[r * n * c + o * n + i]);
                w[r] = json_number_value(json_object_get(json_array_get(mix, r), "weight")) / wsum;
            }
            p->lower[o * n + i] = mixture_quantile(w, mu, sd, K, 0.5 - level / 2);
            p->upper[o * n + i] = mixture_quantile(w, mu, sd, K, 0.5 + level / 2);
        }
    free(atoms);
    free(beta);
    free(Bt);
    free(mm);
    free(mv);
    free(w);
    free(mu);
    free(sd);
    return oom || rc == -2 ? -2 : rc ? -1 : 0;
}

int bsl_subset_predict(const json_t *doc, const double *X, size_t n, size_t d, const char *model,
                       double level, basel_pred *p, basel_error *err)
{
    vs_ctx v;
    int rc = vs_ctx_init(&v, doc, X, n, d, err);
    const json_t *pred = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
    if (!rc && !pred) rc = bsl_fail(err, BASEL_EPARSE, "the fit has no '%s' predictor", model);
    if (!rc) {
        int bad;
        if (strcmp(model, "bma") == 0) {
            bad = vs_predict_bma(&v, pred, level, p);
        } else {
            const double z = gsl_cdf_ugaussian_Pinv(0.5 + level / 2);
            bad = model_predict(&v, pred, p->mean, p->lower);
            for (size_t i = 0; i < n * p->c && !bad; i++) {
                const double s = sqrt(p->lower[i]);
                p->lower[i] = p->mean[i] - z * s;
                p->upper[i] = p->mean[i] + z * s;
            }
        }
        if (bad == -2) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        else if (bad) rc = bsl_fail(err, BASEL_EPARSE, "the fit's '%s' predictor is malformed", model);
    }
    vs_ctx_free(&v);
    return rc;
}

