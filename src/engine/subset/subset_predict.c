/*
 * subset_predict.c: predictions of the subset engines (enumerate, bd, rj,
 * ssvs) from their engine block: the dictionary ("basis") and one
 * "predictor" per model a user can predict with (subset.c writes them).
 * Here: the entry, which hands each family to its file (subset_predict.h),
 * and the context they all read: the basis at the new rows, the always-in
 * columns and their variance z' (Z'Z)^{-1} z, one model's block, and the
 * model average's posterior set, every kept model refitted exactly from the
 * stored Gram block (subset_post.c), as the fit refitted it.
 */
#include "subset_predict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 if a is an array of exactly n1 * n2 entries (checked before anything
 * of that size is allocated, so a document cannot claim a huge size). */
int bsl_pred_has_len(const json_t *a, size_t n1, size_t n2)
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
    if (ws && (*kind != BSL_BASIS_GAUSS || !bsl_pred_has_len(ws, *m, 1))) return -1;
    for (size_t j = 0; ws && j < *m; j++) {
        const double wj = json_number_value(json_array_get(ws, j));
        if (!(isfinite(wj) && wj > 0)) return -1;
    }
    const json_t *is = json_object_get(b, "input_scale");
    if (is && (!bsl_basis_is_radial((bsl_basis_kind)*kind) || !bsl_pred_has_len(is, d, 1))) return -1;
    for (size_t a = 0; is && a < d; a++) {
        const double sa = json_number_value(json_array_get(is, a));
        if (!(isfinite(sa) && sa >= 0)) return -1;
    }
    if (*kind >= BSL_BASIS_LEGENDRE && (d != 1 || !(isfinite(lo) && isfinite(hi) && hi > lo))) return -1;
    if (bsl_basis_is_radial((bsl_basis_kind)*kind) && !bsl_pred_has_len(json_object_get(b, "centres"), *m, d)) return -1;
    return bsl_pred_has_len(json_object_get(b, "always_in_coef"), *m, q) && bsl_pred_has_len(json_object_get(b, "R"), q, q) &&
                   bsl_pred_has_len(json_object_get(b, "always_in_y"), q, c)
               ? 0
               : -1;
}

/* z' (Z'Z)^{-1} z = |R^{-T} z|^2 at every point, by forward substitution. */
static void always_in_variance(bsl_pred_ctx *v)
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

int bsl_pred_ctx_init(bsl_pred_ctx *v, const json_t *doc, const double *X, size_t n, size_t d,
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

void bsl_pred_ctx_free(bsl_pred_ctx *v)
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
int bsl_pred_columns(bsl_pred_ctx *v, const size_t *atoms, size_t k, double *Bt)
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

void bsl_pred_model_free(bsl_pred_model *b)
{
    free(b->atoms);
    free(b->beta);
    free(b->gam);
    free(b->s2);
    free(b->V);
}

/* 0, -1 (malformed), -2 (out of memory); b is to be freed either way. */
int bsl_pred_model_read(const bsl_pred_ctx *v, const json_t *blk, bsl_pred_model *b)
{
    memset(b, 0, sizeof *b);
    const json_t *at = json_object_get(blk, "atoms");
    const size_t k = json_array_size(at), c = v->c, q = v->q;
    b->k = k;
    b->df = INFINITY;
    if (!bsl_pred_has_len(json_object_get(blk, "coef"), k, c) || !bsl_pred_has_len(json_object_get(blk, "V"), k, k))
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

/* The prior of a posterior block, as it ran. */
static int read_prior(const json_t *o, bsl_coef_prior *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->type = bsl_coef_prior_type_find(json_string_value(json_object_get(o, "kind")));
    if (!pr->type) return -1;
    return pr->type->from_json(pr, o);
}

void bsl_pred_set_free(bsl_pred_set *s)
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

int bsl_pred_set_read(bsl_pred_set *s, bsl_pred_ctx *v, const json_t *post)
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
        !json_is_array(at) || s->u > v->m || !bsl_pred_has_len(json_object_get(post, "gram"), s->u, s->u) ||
        !bsl_pred_has_len(json_object_get(post, "bty"), s->u, c) || !bsl_pred_has_len(json_object_get(post, "yy"), c, 1) ||
        !bsl_pred_has_len(ws, s->K, 1) || s->K == 0)
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

/* A fit without the predictor it was asked for: an optional kind
 * (summary.h: projection, which GLM fits and older fits do not have) says
 * why; anything else is a damaged document. */
int bsl_pred_no_predictor(const json_t *doc, const char *model, basel_error *err)
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

/* The name of the document's coefficient prior when its models' posteriors
 * are mixtures over g (coef_prior.h within_model: hyper-g, jzs, ...), into
 * name (len bytes); NULL otherwise. */
const char *bsl_pred_mixture_over_g(const json_t *doc, char *name, size_t len)
{
    const char *spec = json_string_value(json_object_get(json_object_get(doc, "prior"), "coefficients"));
    if (!spec) return NULL;
    snprintf(name, len, "%.*s", (int)strcspn(spec, ":"), spec);
    const bsl_coef_prior_type *t = bsl_coef_prior_type_find(name);
    return t && t->within_model ? name : NULL;
}

int bsl_subset_predict(const json_t *doc, const double *X, size_t n, size_t d, const char *model,
                       double level, basel_pred *p, basel_error *err)
{
    bsl_pred_ctx v;
    int rc = bsl_pred_ctx_init(&v, doc, X, n, d, err);
    const json_t *engine = json_object_get(doc, "engine");
    const char *family = json_string_value(json_object_get(engine, "family"));
    const json_t *blk = json_object_get(json_object_get(engine, "predictor"), model);
    if (!rc && !blk) rc = bsl_pred_no_predictor(doc, model, err);
    else if (!rc && family && strcmp(family, "poisson") == 0) rc = bsl_pred_counts(&v, blk, level, p, err);
    else if (!rc && family && strcmp(family, "multinomial") == 0) rc = bsl_pred_multinomial(&v, doc, blk, p, err);
    else if (!rc && family && strcmp(family, "binomial") == 0) rc = bsl_pred_binomial(&v, doc, blk, p, err);
    else if (!rc) rc = bsl_pred_gauss(&v, doc, blk, model, level, p, err);
    bsl_pred_ctx_free(&v);
    return rc;
}
