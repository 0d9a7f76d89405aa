/*
 * pred_glm.c: predictions of a subset fit of a GLM family
 * (subset_predict.h): --family binomial's class probabilities, poisson's
 * new counts with their intervals, multinomial's class probabilities.
 * Each model's linear predictor eta = z'theta is normal under its Laplace
 * approximation (subset_glm.c wrote the block); the averages over it, such
 * as P(y = 1 | x) = E[logit^-1(eta)], by 32-point Gauss-Hermite
 * quadrature.
 */
#include "subset_predict.h"

#include <gsl/gsl_cdf.h>
#include <limits.h>
#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
static int glm_models(bsl_pred_ctx *v, const json_t *blk, eta_fn fn, void *ctx, double *Wout)
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

int bsl_pred_counts(bsl_pred_ctx *v, const json_t *blk, double level, basel_pred *p, basel_error *err)
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

static int glm_probabilities(bsl_pred_ctx *v, const json_t *blk, double *p1)
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

int bsl_pred_binomial(bsl_pred_ctx *v, const json_t *doc, const json_t *blk, basel_pred *p, basel_error *err)
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
        p->prob[2 * i + 1] = p1[i]; /* the class: predict.c finish_predictions */
    }
    free(p1);
    if (bad == -2) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return bad ? bsl_fail(err, BASEL_EPARSE, "the fit's logistic predictor is malformed") : BASEL_OK;
}

/* --family multinomial (subset_multi.c): p_<level> for every level. */
int bsl_pred_multinomial(bsl_pred_ctx *v, const json_t *doc, const json_t *blk, basel_pred *p, basel_error *err)
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
    if (!bad) bad = bsl_subset_multi_probs(blk, B, n, v->m, C, p->prob); /* classes: finish_predictions */
    free(B);
    if (bad == -2) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return bad ? bsl_fail(err, BASEL_EPARSE, "the fit's multinomial predictor is malformed") : BASEL_OK;
}
