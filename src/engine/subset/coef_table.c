/*
 * coef_table.c: the coefficient tables' shared part (coef_table.h): the
 * per-term components, a term's row and the table's block.
 *
 * Why a module of its own, not subset_post.c: subset_post.c is the
 * Gaussian subset model's closed-form posterior; the GLM tables
 * (subset_glm_coef.c, subset_multi_coef.c) have no use for that, only for
 * the table's bookkeeping, which is the same for all three: a term of a
 * table is a mixture over the models holding it, one component per model,
 * and a point mass 1 - PIP at 0 (the models without it); its moments are
 * exact for that mixture and its equal-tailed interval is the mixture's
 * quantiles (bsl_tmix_quantile, tmix.c, which the predictive intervals
 * share; one workspace per table, so each df's CDF table is built once).
 */
#include "coef_table.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int bsl_coef_comps_init(bsl_coef_comps *cp, size_t nterm)
{
    memset(cp, 0, sizeof *cp);
    cp->nterm = nterm;
    cp->off = bsl_calloc(nterm, sizeof *cp->off);
    cp->fill = bsl_calloc(nterm, sizeof *cp->fill);
    return cp->off && cp->fill ? BASEL_OK : BASEL_ENOMEM;
}

int bsl_coef_comps_alloc(bsl_coef_comps *cp)
{
    size_t total = 0;
    for (size_t t = 0; t < cp->nterm; t++) { /* counts to offsets */
        const size_t cnt = cp->off[t];
        cp->off[t] = total;
        total += cnt;
    }
    cp->total = total;
    /* one block for the four arrays, on huge pages (a table's 10 MB at
     * 20000 models were 1000 small faults, a fifth of an rj fit's) */
    if (total + 1 > SIZE_MAX / 4) return BASEL_ENOMEM;
    cp->w = bsl_malloc_huge(4 * (total + 1), sizeof(double));
    if (!cp->w) return BASEL_ENOMEM;
    cp->mu = cp->w + (total + 1);
    cp->s = cp->mu + (total + 1);
    cp->df = cp->s + (total + 1);
    return BASEL_OK;
}

void bsl_coef_comps_push(bsl_coef_comps *cp, size_t term, double w, double mu, double var, double df)
{
    const size_t i = cp->off[term] + cp->fill[term]++;
    cp->w[i] = w;
    cp->mu[i] = mu;
    cp->s[i] = sqrt(fmax(var, 0.0));
    cp->df[i] = df;
}

void bsl_coef_comps_free(bsl_coef_comps *cp)
{
    free(cp->off);
    free(cp->fill);
    free(cp->w); /* and mu, s, df: one block */
    bsl_tmix_ws_free(&cp->ws);
    json_decref(cp->zero);
    json_decref(cp->target);
    memset(cp, 0, sizeof *cp);
}

double bsl_tri_quad(const double *T, size_t d, int upper, const double *u, double *v)
{
    /* L[i, l] at T[i * si + l * sl]: L = T (column-major) or R' */
    const size_t si = upper ? d : 1, sl = upper ? 1 : d;
    double q = 0;
    for (size_t i = 0; i < d; i++) {
        double t = u[i];
        for (size_t l = 0; l < i; l++) t -= T[i * si + l * sl] * v[l];
        v[i] = t / T[i * (si + sl)];
        q += v[i] * v[i];
    }
    return q;
}

/* x as a JSON real: zero itself (one more reference) when x is +0. */
static json_t *real_or_zero(double x, json_t *zero)
{
    return zero && x == 0 && !signbit(x) ? json_incref(zero) : json_real(x);
}

json_t *bsl_coef_term_json(const double *cw, const double *mu, const double *cs, const double *df, size_t K,
                           double pip, double level, int bas_sd, bsl_tmix_ws *ws, json_t *zero)
{
    double W = 0, m1 = 0, m2 = 0;
    for (size_t i = 0; i < K; i++) W += cw[i];
    double *w = bsl_malloc(K + 1, sizeof *w);
    if (!w) return NULL;
    for (size_t i = 0; i < K; i++) {
        const double s = cs[i], nu = df[i];
        /* t variance s^2 nu/(nu - 2); BAS's coef() reports s^2 */
        const double var = bas_sd || isinf(nu) || !(nu > 2) ? s * s : s * s * nu / (nu - 2);
        w[i] = W > 0 ? cw[i] / W : 0;
        m1 += w[i] * mu[i];
        m2 += w[i] * (var + mu[i] * mu[i]);
    }
    json_t *o = json_object();
    int bad = !o;
    bsl_json_put(o, "pip", real_or_zero(pip, zero), &bad);
    const double mean = pip * m1, sd = sqrt(fmax(pip * m2 - mean * mean, 0.0));
    bsl_json_put(o, "mean", real_or_zero(K ? mean : 0.0, zero), &bad);
    bsl_json_put(o, "sd", real_or_zero(K ? sd : 0.0, zero), &bad);
    if (K && W > 0) {
        bsl_json_put(o, "cond_mean", json_real(m1), &bad);
        bsl_json_put(o, "cond_sd", json_real(sqrt(fmax(m2 - m1 * m1, 0.0))), &bad);
        for (size_t i = 0; i < K; i++) w[i] *= pip;
        const bsl_tmix t = {w, mu, cs, df, K, 1 - pip};
        const double pq[2] = {0.5 - level / 2, 0.5 + level / 2};
        double q[2];
        bsl_tmix_quantiles(&t, pq, 2, q, ws);
        bsl_json_put(o, "lower", json_real(q[0]), &bad);
        bsl_json_put(o, "upper", json_real(q[1]), &bad);
    } else { /* never in a visited model: a point mass at 0 */
        bsl_json_put(o, "lower", real_or_zero(0.0, zero), &bad);
        bsl_json_put(o, "upper", real_or_zero(0.0, zero), &bad);
    }
    free(w);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

json_t *bsl_coef_comps_row(bsl_coef_comps *cp, size_t t, double pip, double level, int bas_sd,
                           const char *name, const char *cls, const char *target, int always_in)
{
    const size_t off = cp->off[t];
    if (!cp->zero) cp->zero = json_real(0.0);
    if (!target) target = "?";
    if (!cp->target || !cp->target_text || strcmp(cp->target_text, target) != 0) {
        json_decref(cp->target);
        cp->target = json_string(target);
        cp->target_text = target;
    }
    json_t *row = bsl_coef_term_json(cp->w + off, cp->mu + off, cp->s + off, cp->df + off, cp->fill[t], pip, level,
                                     bas_sd, &cp->ws, cp->zero);
    int bad = !row || !cp->target;
    bsl_json_put(row, "name", json_string(name ? name : "?"), &bad);
    if (cls) bsl_json_put(row, "class", json_string(cls), &bad);
    bsl_json_put(row, "target", json_incref(cp->target), &bad);
    bsl_json_put(row, "always_in", json_boolean(always_in), &bad);
    if (bad) json_decref(row);
    return bad ? NULL : row;
}

json_t *bsl_coef_table_json(double level, size_t models, double covered, json_t *terms, const char *within_model)
{
    json_t *out = terms ? json_object() : NULL;
    int bad = !out;
    bsl_json_put(out, "scale", json_string("original"), &bad);
    bsl_json_put(out, "level", json_real(level), &bad);
    bsl_json_put(out, "models", json_integer((json_int_t)models), &bad);
    bsl_json_put(out, "covered", json_real(fmin(fmax(covered, 0.0), 1.0)), &bad);
    bsl_json_put(out, "interval_pruned", json_real(BSL_TMIX_PRUNED), &bad);
    bsl_json_put(out, "terms", terms, &bad);
    if (within_model) bsl_json_put(out, "within_model", json_string(within_model), &bad);
    if (bad) json_decref(out);
    return bad ? NULL : out;
}
