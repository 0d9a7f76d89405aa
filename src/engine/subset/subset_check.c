/*
 * subset_check.c: the check of a subset engine's block (enumerate, bd, rj,
 * ssvs; engine.h's check), run by bsl_document_check on every FIT.json
 * written or loaded before subset_predict.c reads it. Values as well as
 * shapes: every number finite, sizes consistent with the fit's inputs and
 * targets, variances and weights of the right sign, atom indices in range.
 * An error names the key by its JSON path, e.g.
 * "engine.predictor.hpm.sigma2[0]" is not a positive number.
 */
#include "subset.h"
#include "../../basis/basis.h"
#include "../../core/jsonutil.h"
#include "../../prior/coef_prior.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct checker {
    const char *source;
    basel_error *err;
    size_t d, c, q, m;
    size_t n; /* the document's row count (its "n"); 0 when it has none */
} checker;

static int refuse(const checker *k, const char *path, const char *what)
{
    return bsl_fail_at(k->err, BASEL_EPARSE, k->source, 0, 0, "\"%s\" %s", path, what);
}

/* o[key] is an array of n1 * n2 numbers in [lo, hi]; what says so. */
static int reals(const checker *k, const json_t *o, const char *at, const char *key, size_t n1, size_t n2, double lo,
                 double hi, const char *what)
{
    char path[160];
    snprintf(path, sizeof path, "%s.%s", at, key);
    const json_t *a = json_object_get(o, key);
    if (!json_is_array(a) || (n2 && n1 > SIZE_MAX / n2) || json_array_size(a) != n1 * n2) {
        char msg[96];
        snprintf(msg, sizeof msg, "is not an array of %zu numbers", n1 * n2);
        return refuse(k, path, msg);
    }
    for (size_t i = 0; i < n1 * n2; i++) {
        const json_t *x = json_array_get(a, i);
        const double v = json_number_value(x);
        if (!json_is_number(x) || !isfinite(v) || v < lo || v > hi) {
            snprintf(path, sizeof path, "%s.%s[%zu]", at, key, i);
            return refuse(k, path, what);
        }
    }
    return BASEL_OK;
}

/* o[key] is a list of distinct atom indices below m; its length in *len. */
static int atoms(const checker *k, const json_t *o, const char *at, size_t *len)
{
    char path[160];
    snprintf(path, sizeof path, "%s.atoms", at);
    const json_t *a = json_object_get(o, "atoms");
    if (!json_is_array(a) || json_array_size(a) > k->m) return refuse(k, path, "is not a list of atom indices");
    *len = json_array_size(a);
    for (size_t i = 0; i < *len; i++) {
        const json_t *x = json_array_get(a, i);
        int ok = json_is_integer(x) && json_integer_value(x) >= 0 && (size_t)json_integer_value(x) < k->m;
        for (size_t j = 0; ok && j < i; j++) ok = json_integer_value(json_array_get(a, j)) != json_integer_value(x);
        if (!ok) {
            snprintf(path, sizeof path, "%s.atoms[%zu]", at, i);
            return refuse(k, path, "is not an atom index below m, listed once");
        }
    }
    return BASEL_OK;
}

static int weight(const checker *k, const json_t *o, const char *at)
{
    const json_t *w = json_object_get(o, "weight");
    /* the mixture's weights are normalised when predicting */
    if (json_is_number(w) && json_number_value(w) >= 0 && isfinite(json_number_value(w))) return BASEL_OK;
    char path[160];
    snprintf(path, sizeof path, "%s.weight", at);
    return refuse(k, path, "is not a finite non-negative weight");
}

/* V (len x len, finite, non-negative diagonal) is a covariance: symmetric
 * and positive semi-definite. A V that is not would narrow the intervals
 * silently (x'Vx too small), so it is refused. PSD is tested by a Cholesky
 * factorisation of V + eps I, eps = 1e-10 of the largest variance: the
 * posterior covariances basel writes are positive definite up to rounding
 * (near-collinear atoms give tiny eigenvalues, never ones below -eps). */
static int covariance(const checker *k, const json_t *V, size_t len, const char *at)
{
    if (len == 0) return BASEL_OK;
    char path[160];
    snprintf(path, sizeof path, "%s.V", at);
    gsl_matrix *A = gsl_matrix_alloc(len, len);
    if (!A) return bsl_fail(k->err, BASEL_ENOMEM, "out of memory");
    double big = 0;
    for (size_t a = 0; a < len; a++) big = fmax(big, json_number_value(json_array_get(V, a + a * len)));
    int rc = BASEL_OK;
    for (size_t a = 0; a < len && !rc; a++)
        for (size_t b = 0; b < len; b++) {
            const double x = json_number_value(json_array_get(V, a * len + b)),
                         y = json_number_value(json_array_get(V, b * len + a));
            if (fabs(x - y) > 1e-8 * big) {
                rc = refuse(k, path, "is not symmetric (a covariance matrix)");
                break;
            }
            gsl_matrix_set(A, a, b, x + (a == b ? 1e-10 * big : 0));
        }
    if (!rc) {
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        if (gsl_linalg_cholesky_decomp1(A)) rc = refuse(k, path, "is not positive semi-definite (a covariance matrix)");
        gsl_set_error_handler(old);
    }
    gsl_matrix_free(A);
    return rc;
}

/* One model's block: atoms, coef (k x c), always_in (q x c), sigma2 (c,
 * positive), V (k x k, non-negative diagonal) and weight. */
static int single(const checker *k, const json_t *o, const char *at)
{
    if (!json_is_object(o)) return refuse(k, at, "is not an object");
    size_t len = 0;
    int rc = atoms(k, o, at, &len);
    if (!rc) rc = reals(k, o, at, "coef", len, k->c, -INFINITY, INFINITY, "is not a finite number");
    if (!rc) rc = reals(k, o, at, "always_in", k->q, k->c, -INFINITY, INFINITY, "is not a finite number");
    if (!rc) rc = reals(k, o, at, "sigma2", k->c, 1, DBL_MIN, INFINITY, "is not a positive number");
    /* the Student-t predictive (scale2 and df; no df: Gaussian, as under a
     * ridge prior with sigma^2 known; neither: an older fit's Gaussian) */
    if (!rc && json_object_get(o, "scale2"))
        rc = reals(k, o, at, "scale2", k->c, 1, DBL_MIN, INFINITY, "is not a positive number");
    const json_t *df = json_object_get(o, "df");
    if (!rc && df && (!json_is_number(df) || !(json_number_value(df) >= 1) || !isfinite(json_number_value(df)))) {
        char path[160];
        snprintf(path, sizeof path, "%s.df", at);
        rc = refuse(k, path, "is not a number of degrees of freedom of at least 1");
    }
    if (!rc) rc = reals(k, o, at, "V", len, len, -INFINITY, INFINITY, "is not a finite number");
    for (size_t a = 0; a < len && !rc; a++)
        if (!(json_number_value(json_array_get(json_object_get(o, "V"), a + a * len)) >= 0)) {
            char path[160];
            snprintf(path, sizeof path, "%s.V[%zu]", at, a + a * len);
            rc = refuse(k, path, "is a negative variance (a diagonal entry)");
        }
    if (!rc) rc = covariance(k, json_object_get(o, "V"), len, at);
    return rc ? rc : weight(k, o, at);
}

/* The model average: atoms and coef, and the posterior block whose models
 * give the intervals (subset_post.c): the kept atoms (distinct, below m),
 * their Gram block (u x u, non-negative diagonal) and B'y (u x c), y'Py
 * (c, positive), n, the prior's numbers, the models as lists of atom
 * indices with non-negative weights of positive total, and the covered
 * share of the posterior in [0, 1]. */
static int average(const checker *k, const json_t *o, const char *at)
{
    if (!json_is_object(o)) return refuse(k, at, "is not an object");
    size_t len = 0;
    int rc = atoms(k, o, at, &len);
    if (!rc) rc = reals(k, o, at, "coef", len, k->c, -INFINITY, INFINITY, "is not a finite number");
    if (rc) return rc;
    char path[160];
    snprintf(path, sizeof path, "%s.posterior", at);
    const json_t *post = json_object_get(o, "posterior");
    if (!json_is_object(post)) return refuse(k, path, "is missing (the models the intervals stand on)");
    size_t u = 0;
    if ((rc = atoms(k, post, path, &u))) return rc;
    if (!rc) rc = reals(k, post, path, "gram", u, u, -INFINITY, INFINITY, "is not a finite number");
    if (!rc) rc = reals(k, post, path, "bty", u, k->c, -INFINITY, INFINITY, "is not a finite number");
    if (!rc) rc = reals(k, post, path, "yy", k->c, 1, DBL_MIN, INFINITY, "is not a positive number");
    for (size_t a = 0; a < u && !rc; a++)
        if (!(json_number_value(json_array_get(json_object_get(post, "gram"), a + a * u)) >= 0)) {
            snprintf(path, sizeof path, "%s.posterior.gram[%zu]", at, a + a * u);
            rc = refuse(k, path, "is a negative sum of squares (a diagonal entry)");
        }
    if (rc) return rc;
    snprintf(path, sizeof path, "%s.posterior", at);
    size_t n = 0;
    if (bsl_json_read_size(post, "n", k->q + 1, SIZE_MAX, &n)) return refuse(k, path, "has no row count n above q");
    if (k->n && n != k->n) {
        snprintf(path, sizeof path, "%s.posterior.n", at);
        return refuse(k, path, "is not the fit's row count n");
    }
    bsl_coef_prior pr;
    memset(&pr, 0, sizeof pr);
    const json_t *pj = json_object_get(post, "prior");
    pr.type = bsl_coef_prior_type_find(json_string_value(json_object_get(pj, "kind")));
    if (!pr.type || pr.type->from_json(&pr, pj)) {
        snprintf(path, sizeof path, "%s.posterior.prior", at);
        return refuse(k, path, "is not a prior basel knows, with valid numbers");
    }
    const json_t *ms = json_object_get(post, "models"), *ws = json_object_get(post, "weights");
    if (!json_is_array(ms) || json_array_size(ms) == 0 || !json_is_array(ws) || json_array_size(ws) != json_array_size(ms))
        return refuse(k, path, "has no models with one weight each");
    double wsum = 0;
    for (size_t i = 0; i < json_array_size(ms); i++) {
        const json_t *mo = json_array_get(ms, i), *w = json_array_get(ws, i);
        int ok = json_is_array(mo) && json_array_size(mo) <= u && json_is_number(w) &&
                 isfinite(json_number_value(w)) && json_number_value(w) >= 0;
        for (size_t a = 0; ok && a < json_array_size(mo); a++) {
            const json_t *x = json_array_get(mo, a);
            ok = json_is_integer(x) && json_integer_value(x) >= 0 && (size_t)json_integer_value(x) < k->m;
        }
        if (!ok) {
            snprintf(path, sizeof path, "%s.posterior.models[%zu]", at, i);
            return refuse(k, path, "is not a list of atom indices with a finite non-negative weight");
        }
        wsum += json_number_value(w);
    }
    if (!(wsum > 0)) return refuse(k, path, "has no model of positive weight");
    const json_t *cov = json_object_get(post, "covered");
    if (!json_is_number(cov) || !(json_number_value(cov) >= 0 && json_number_value(cov) <= 1)) {
        snprintf(path, sizeof path, "%s.posterior.covered", at);
        return refuse(k, path, "is not a share in [0, 1]");
    }
    return BASEL_OK;
}

/* The dictionary: what bsl_dict_make and subset_predict.c need. */
static int basis(checker *k, const json_t *b)
{
    const char *at = "engine.basis";
    if (!json_is_object(b)) return refuse(k, at, "is missing");
    const char *name = json_string_value(json_object_get(b, "kind"));
    const int kind = name ? bsl_basis_kind_from_name(name) : -1;
    if (kind < 0) return refuse(k, "engine.basis.kind", "names no basis (accepted: " BSL_BASIS_NAMES ")");
    size_t d = 0;
    if (bsl_json_read_size(b, "d", 0, SIZE_MAX, &d) || d != k->d)
        return refuse(k, "engine.basis.d", "is not the number of inputs");
    if (bsl_json_read_size(b, "m", 1, SIZE_MAX, &k->m) || (kind == BSL_BASIS_LINEAR && k->m != d))
        return refuse(k, "engine.basis.m", "is not a positive count (the number of inputs for the linear basis)");
    if (!json_is_boolean(json_object_get(b, "linear_term")))
        return refuse(k, "engine.basis.linear_term", "is not true or false");
    k->q = 1 + (json_is_true(json_object_get(b, "linear_term")) ? d : 0);
    const double w = json_number_value(json_object_get(b, "width"));
    if (!json_is_number(json_object_get(b, "width")) || !isfinite(w) || (kind == BSL_BASIS_GAUSS && !(w > 0)))
        return refuse(k, "engine.basis.width", "is not a finite number (positive for gauss)");
    const json_t *lo = json_object_get(b, "lo"), *hi = json_object_get(b, "hi");
    if (!json_is_number(lo) || !json_is_number(hi) ||
        (kind >= BSL_BASIS_LEGENDRE && !(json_number_value(hi) > json_number_value(lo))))
        return refuse(k, "engine.basis.hi", "is not a number above lo");
    if (kind >= BSL_BASIS_LEGENDRE && d != 1) return refuse(k, "engine.basis.d", "is not 1 for a 1-D family");
    int rc = BASEL_OK;
    if (bsl_basis_is_radial((bsl_basis_kind)kind))
        rc = reals(k, b, at, "centres", k->m, d, -INFINITY, INFINITY, "is not a finite number");
    if (!rc && json_object_get(b, "widths")) {
        if (kind != BSL_BASIS_GAUSS) rc = refuse(k, "engine.basis.widths", "is given for a basis other than gauss");
        else rc = reals(k, b, at, "widths", k->m, 1, 1e-300, INFINITY, "is not a positive finite width");
    }
    if (!rc && json_object_get(b, "input_scale")) {
        if (!bsl_basis_is_radial((bsl_basis_kind)kind))
            rc = refuse(k, "engine.basis.input_scale", "is given for a basis that is not radial");
        else rc = reals(k, b, at, "input_scale", d, 1, 0, INFINITY, "is not a finite number >= 0");
    }
    if (!rc) rc = reals(k, b, at, "always_in_coef", k->m, k->q, -INFINITY, INFINITY, "is not a finite number");
    if (!rc) rc = reals(k, b, at, "R", k->q, k->q, -INFINITY, INFINITY, "is not a finite number");
    for (size_t a = 0; a < k->q && !rc; a++) /* R is triangular: its diagonal divides */
        if (json_number_value(json_array_get(json_object_get(b, "R"), a + a * k->q)) == 0) {
            char path[64];
            snprintf(path, sizeof path, "engine.basis.R[%zu]", a + a * k->q);
            rc = refuse(k, path, "is a zero on the diagonal of a triangular factor");
        }
    if (!rc) rc = reals(k, b, at, "always_in_y", k->q, k->c, -INFINITY, INFINITY, "is not a finite number");
    return rc;
}

/* A logistic predictor (subset_glm.c): {covered, models: [{atoms, weight,
 * mode (k + 1), factor ((k + 1)^2, lower triangular, positive diagonal)}]};
 * a multinomial one (subset_multi.c) has nint = C - 1 intercepts, k + C - 1
 * coefficients and atoms below (C - 1) m. */
static int glm_predictor(const checker *k, const json_t *blk, const char *at, size_t nint)
{
    char path[400];
    const json_t *draws = json_object_get(blk, "draws");
    if (draws && nint > 1) { /* rj's multinomial average: {draws: [{atoms, theta (k + C - 1)}]} */
        snprintf(path, sizeof path, "%s.draws", at);
        if (!json_is_array(draws) || json_array_size(draws) == 0) return refuse(k, path, "is not a non-empty list of draws");
        int rc = BASEL_OK;
        for (size_t i = 0; i < json_array_size(draws) && !rc; i++) {
            char mat[160];
            snprintf(mat, sizeof mat, "%s.draws[%zu]", at, i);
            size_t len = 0;
            rc = atoms(k, json_array_get(draws, i), mat, &len);
            if (!rc) rc = reals(k, json_array_get(draws, i), mat, "theta", len + nint, 1, -INFINITY, INFINITY, "is not a finite number");
        }
        return rc;
    }
    const json_t *list = json_object_get(blk, "models");
    snprintf(path, sizeof path, "%s.models", at);
    if (!json_is_array(list) || json_array_size(list) == 0) return refuse(k, path, "is not a non-empty list of models");
    int rc = BASEL_OK;
    const double cov = json_number_value(json_object_get(blk, "covered"));
    snprintf(path, sizeof path, "%s.covered", at);
    if (!json_is_number(json_object_get(blk, "covered")) || !(cov > 0 && cov <= 1 + 1e-9))
        return refuse(k, path, "is not a probability");
    for (size_t i = 0; i < json_array_size(list) && !rc; i++) {
        const json_t *o = json_array_get(list, i);
        char mat[160];
        snprintf(mat, sizeof mat, "%s.models[%zu]", at, i);
        size_t len = 0;
        rc = atoms(k, o, mat, &len);
        if (!rc) rc = weight(k, o, mat);
        const size_t d = len + nint;
        if (!rc) rc = reals(k, o, mat, "mode", d, 1, -INFINITY, INFINITY, "is not a finite number");
        if (!rc) rc = reals(k, o, mat, "factor", d, d, -INFINITY, INFINITY, "is not a finite number");
        for (size_t a = 0; a < d && !rc; a++)
            if (!(json_number_value(json_array_get(json_object_get(o, "factor"), a * (d + 1))) > 0)) {
                snprintf(path, sizeof path, "%s.factor[%zu]", mat, a * (d + 1));
                rc = refuse(k, path, "is not a positive diagonal entry of a Cholesky factor");
            }
    }
    return rc;
}

int bsl_subset_check(const json_t *doc, const char *source, basel_error *err)
{
    checker k = {source, err, json_array_size(json_object_get(doc, "inputs")),
                 json_array_size(json_object_get(doc, "targets")), 0, 0, 0};
    const json_t *dn = json_object_get(doc, "n");
    if (json_is_integer(dn) && json_integer_value(dn) > 0) k.n = (size_t)json_integer_value(dn);
    const json_t *e = json_object_get(doc, "engine");
    if (!json_is_object(e)) return refuse(&k, "engine", "is missing");
    if (k.c == 0) return refuse(&k, "targets", "is empty");
    int rc = basis(&k, json_object_get(e, "basis"));
    const json_t *fam = json_object_get(e, "family");
    const int binomial = fam && json_is_string(fam) && strcmp(json_string_value(fam), "binomial") == 0;
    const int poisson = fam && json_is_string(fam) && strcmp(json_string_value(fam), "poisson") == 0;
    const int multinomial = fam && json_is_string(fam) && strcmp(json_string_value(fam), "multinomial") == 0;
    if (!rc && fam && !binomial && !poisson && !multinomial)
        rc = refuse(&k, "engine.family", "is not \"binomial\", \"multinomial\" or \"poisson\"");
    const json_t *cl = json_object_get(doc, "classes");
    size_t nint = 1;
    if (!rc && multinomial) { /* C >= 3 class names; the predictors' atoms are the (C - 1) m joint atoms */
        for (size_t i = 0; i < json_array_size(cl) && !rc; i++)
            if (!json_is_string(json_array_get(cl, i))) rc = refuse(&k, "classes", "is not a list of class names");
        if (!rc && (k.c != 1 || json_array_size(cl) < 3))
            rc = refuse(&k, "classes", "is not a list of three or more class names (a multinomial fit has one target)");
        nint = json_array_size(cl) - 1;
        if (!rc) k.m *= nint;
    }
    if (!rc && poisson && k.c != 1) rc = refuse(&k, "targets", "is not one target (a poisson fit has one)");
    if (!rc && binomial && (k.c != 1 || json_array_size(json_object_get(doc, "classes")) != 2 ||
                            !json_is_string(json_array_get(json_object_get(doc, "classes"), 0)) ||
                            !json_is_string(json_array_get(json_object_get(doc, "classes"), 1))))
        rc = refuse(&k, "classes", "is not a list of two class names (a binomial fit has one target)");
    const json_t *pred = json_object_get(e, "predictor");
    if (!rc && !json_is_object(pred)) rc = refuse(&k, "engine.predictor", "is missing");
    for (const char *const *model = bsl_subset_models; *model && !rc; model++) {
        char at[64];
        snprintf(at, sizeof at, "engine.predictor.%s", *model);
        const json_t *blk = json_object_get(pred, *model);
        const int sel = bsl_selection_index(*model);
        if (!blk && sel >= 0 && bsl_selections[sel].optional) continue; /* GLM fits, older fits (summary.h) */
        if (!blk) rc = refuse(&k, at, "is missing");
        else if (binomial || poisson || multinomial) rc = glm_predictor(&k, blk, at, multinomial ? nint : 1);
        else rc = strcmp(*model, "bma") == 0 ? average(&k, blk, at) : single(&k, blk, at);
    }
    return rc;
}
