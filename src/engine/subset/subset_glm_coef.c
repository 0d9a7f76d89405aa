/*
 * subset_glm_coef.c: the coefficient table of a GLM fit (--family binomial
 * or poisson; FIT.json "coefficients", docs/FIT.md, docs/GLM.md), the
 * Gaussian fits' table (subset_post.c) for the logistic and log-linear
 * models.
 *
 * What it averages. The model-averaged predictor (engine.predictor.bma,
 * subset_glm.c) already holds, for the most probable visited models (those
 * that hold BSL_GLM_COVER of the engine's model weight, at most
 * BSL_GLM_MAX_MODELS), each model's weight w_M (renormalised over them) and
 * its Laplace approximation theta | y, M ~ N(mode_M, H_M^-1), H_M = L_M L_M'
 * (L_M the stored lower Cholesky factor of the Hessian of -log posterior at
 * the mode). The table reads those, so it is a function of what FIT.json
 * stores and agrees with the predictions by construction. A coefficient
 * u'theta of model M is then N(u'mode_M, |L_M^-1 u|^2), and over the models
 * a mixture of normals with a point mass 1 - PIP at 0 (the models without
 * the term): its moments are exact for that mixture and its equal-tailed
 * interval comes from the mixture's CDF (coef_table.c, as for the
 * Gaussian fits' Student-t mixtures, with df = infinity).
 *
 * What is exact and what is approximate. The PIP column is the fit's pip
 * (the engine's estimate: exact up to the importance-sampling error for
 * enumerate; a Monte Carlo estimate of the exact posterior for rj, bd,
 * ssvs). The models' weights are the engine's (visit frequencies or
 * enumeration's probabilities), truncated to the covered models; each
 * model's posterior of theta is its Laplace approximation, whose mean (the
 * mode) and covariance (the inverse Hessian) differ from the exact
 * posterior's by O(1/n) (a logistic posterior is skewed when the data say
 * little). That, and the truncation ("covered" says how much mass is kept),
 * are the approximations of the table; the sampler's exactness is in its
 * PIPs and model probabilities, not here.
 *
 * Scale. Like the Gaussian table, on the inputs' original scale: a linear
 * atom's coefficient is beta_j / scale_j and the intercept is that of the
 * raw inputs, alpha - sum_j beta_j mean_j / scale_j, with its variance
 * u' H^-1 u, u = (1, -mean_A / scale_A), from the joint approximation; the
 * log-odds (binomial) or log-rate (Poisson) scale of the model.
 */
#include "coef_table.h"
#include "subset.h"
#include "subset_post.h"
#include "../../problem/problem.h"

#include <math.h>
#include <string.h>

/* One stored model's components (term 0 the intercept, 1 + j atom j): its
 * atoms (k), weight, mode (k + 1) and factor ((k + 1)^2). -1 when the block
 * is malformed (the checker refuses such a block before anything reads it:
 * not reached from a fit). */
static int model_terms(bsl_coef_comps *cp, const json_t *mo, size_t m, const double *x_mean, const double *x_scale,
                       int linear, double *u, double *v, double *L)
{
    const json_t *atoms = json_object_get(mo, "atoms"), *mode = json_object_get(mo, "mode");
    const json_t *factor = json_object_get(mo, "factor");
    const size_t k = json_array_size(atoms), d = k + 1;
    const double w = json_number_value(json_object_get(mo, "weight"));
    if (json_array_size(mode) != d || json_array_size(factor) != d * d) return -1;
    for (size_t i = 0; i < d * d; i++) L[i] = json_number_value(json_array_get(factor, i));
    /* the intercept of the raw inputs: u = (1, -mean_j / scale_j) */
    double mean0 = json_number_value(json_array_get(mode, 0));
    u[0] = 1;
    for (size_t a = 0; a < k; a++) {
        const size_t j = (size_t)json_integer_value(json_array_get(atoms, a));
        if (j >= m) return -1;
        u[a + 1] = linear ? -x_mean[j] / x_scale[j] : 0.0;
        mean0 += u[a + 1] * json_number_value(json_array_get(mode, a + 1));
    }
    bsl_coef_comps_push(cp, 0, w, mean0, bsl_tri_quad(L, d, 0, u, v), INFINITY);
    for (size_t a = 0; a < k; a++) {
        const size_t j = (size_t)json_integer_value(json_array_get(atoms, a));
        const double f = linear ? 1 / x_scale[j] : 1.0;
        memset(u, 0, d * sizeof *u);
        u[a + 1] = 1;
        bsl_coef_comps_push(cp, 1 + j, w, f * json_number_value(json_array_get(mode, a + 1)),
                            f * f * bsl_tri_quad(L, d, 0, u, v), INFINITY);
    }
    return 0;
}

/* Count each term's components, make the offsets and fill them in. */
static int collect(bsl_coef_comps *cp, const json_t *models, size_t m, const bsl_problem *P, int linear)
{
    const size_t K = json_array_size(models);
    size_t kmax = 0;
    cp->off[0] = K;
    for (size_t i = 0; i < K; i++) {
        const json_t *atoms = json_object_get(json_array_get(models, i), "atoms");
        kmax = BSL_MAX(kmax, json_array_size(atoms));
        for (size_t a = 0; a < json_array_size(atoms); a++) {
            const size_t j = (size_t)json_integer_value(json_array_get(atoms, a));
            if (j >= m) return BASEL_EINVAL;
            cp->off[1 + j]++;
        }
    }
    const size_t d = kmax + 1;
    double *u = bsl_malloc(d, sizeof *u), *v = bsl_malloc(d, sizeof *v), *L = bsl_malloc(d * d, sizeof *L);
    int rc = u && v && L ? bsl_coef_comps_alloc(cp) : BASEL_ENOMEM;
    for (size_t i = 0; i < K && !rc; i++)
        if (model_terms(cp, json_array_get(models, i), m, P->x_mean, P->x_scale, linear, u, v, L)) rc = BASEL_EINVAL;
    free(u);
    free(v);
    free(L);
    return rc;
}

json_t *bsl_subset_glm_coefficients(const bsl_problem *P, const bsl_dict *dict, const bsl_vs_result *vr,
                                    const json_t *bma, const char *const *atom_names, double level,
                                    const char *within_model, basel_error *err)
{
    const size_t m = vr->m, nterm = m + 1;
    const json_t *models = json_object_get(bma, "models");
    bsl_coef_comps cp;
    json_t *out = NULL, *terms = NULL;
    int rc = bsl_coef_comps_init(&cp, nterm);
    if (!rc) rc = collect(&cp, models, m, P, dict->kind == BSL_BASIS_LINEAR);
    int bad = rc != BASEL_OK || !(terms = json_array());
    for (size_t t = 0; t < nterm && !bad; t++) {
        /* the PIP column is the fit's pip; the intercept is in every model */
        const double pip = t == 0 ? 1.0 : fmin(fmax(vr->pip[t - 1], 0.0), 1.0);
        bsl_json_push(terms,
                      bsl_coef_comps_row(&cp, t, pip, level, 0, t == 0 ? "(Intercept)" : atom_names[t - 1], NULL,
                                         P->target_names[0], t == 0),
                      &bad);
    }
    if (!bad) {
        out = bsl_coef_table_json(level, json_array_size(models), json_number_value(json_object_get(bma, "covered")),
                                  terms, within_model);
        terms = NULL;
        bad = !out;
    }
    if (bad) {
        json_decref(terms);
        bsl_fail(err, rc == BASEL_EINVAL ? BASEL_EINVAL : BASEL_ENOMEM,
                 rc == BASEL_EINVAL ? "the model average's block is malformed" : "out of memory");
    }
    bsl_coef_comps_free(&cp);
    return out;
}
