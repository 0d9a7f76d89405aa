/*
 * subset_multi_coef.c: the coefficient table of a multinomial fit
 * (--family multinomial; FIT.json "coefficients", docs/FIT.md, docs/GLM.md
 * "Multinomial"): per class besides the reference, its intercept and each
 * input's coefficient, the log-odds of that class against the reference.
 *
 * Method: the binomial table's (subset_glm_coef.c) on the joint model. The
 * joint models M = (A_1 .. A_{C-1}) that hold BSL_MULTI_COVER of the
 * engine's model weight (at most BSL_MULTI_MAX_MODELS; subset_multi.c
 * average()) each come with their joint Laplace approximation theta | y, M
 * ~ N(mode_M, H_M^-1) (bsl_glm_multi_laplace: Newton's method on the
 * concave log posterior of all C - 1 classes' coefficients at once, not a
 * class block given the others), H_M = L_M L_M'. A coefficient u'theta is
 * then N(u'mode_M, |L_M^-1 u|^2) in model M (the joint approximation's
 * marginal, so the other classes' uncertainty is in it), and over the
 * models a mixture of normals with a point mass 1 - PIP at 0 (the models
 * whose class subset lacks the input): its moments are exact for that
 * mixture, its equal-tailed interval from the mixture's CDF
 * (coef_table.c).
 *
 * What is exact and what is approximate: the PIP column is the fit's
 * joint-atom pip (rj: a Monte Carlo estimate of the exact posterior;
 * enumerate: exact up to its importance sampling), the weights are the
 * engine's (rj: visit frequencies; enumerate: probabilities), truncated to
 * the covered models; each model's posterior of theta is its Laplace
 * approximation, which on nearly separable classes is far from the exact
 * posterior (docs/GLM.md measures it against rj's draws). For rj the table
 * is computed from the visited models, not from the predictor's draws
 * (which predict averages); enumerate's table reads the same Laplace
 * blocks its predictions do.
 *
 * Scale: the inputs' original scale, as the binomial table: input j's
 * coefficient in class c is beta_cj / scale_j, and class c's intercept is
 * that of the raw inputs, alpha_c - sum_{j in A_c} beta_cj mean_j / scale_j,
 * its variance u'H^-1 u with u supported on class c's block.
 */
#include "coef_table.h"
#include "subset.h"
#include "subset_post.h"
#include "../../problem/problem.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The joint atoms of a stored model, checked (sorted, < J). */
static int model_atoms(const json_t *mo, size_t J, size_t *atoms, size_t *K)
{
    const json_t *a = json_object_get(mo, "atoms");
    *K = json_array_size(a);
    if (*K > J) return -1;
    for (size_t i = 0; i < *K; i++) {
        const json_t *x = json_array_get(a, i);
        if (!json_is_integer(x) || json_integer_value(x) < 0 || (size_t)json_integer_value(x) >= J) return -1;
        atoms[i] = (size_t)json_integer_value(x);
        if (i && atoms[i] <= atoms[i - 1]) return -1;
    }
    return 0;
}

/* One model's components: term c (m + 1) is class c + 1's intercept,
 * c (m + 1) + 1 + j input j in class c + 1. theta's layout (glm_multi.h):
 * class by class, its intercept, then its atoms in order. work: atoms (J), and u, v, mode
 * (dmax each), L (dmax^2). */
static int model_terms(bsl_coef_comps *cp, const json_t *mo, size_t m, size_t nc, const double *x_mean,
                       const double *x_scale, size_t *atoms, double *u, double *v, double *mode, double *L)
{
    size_t K;
    if (model_atoms(mo, nc * m, atoms, &K)) return -1;
    const size_t d = K + nc;
    const double w = json_number_value(json_object_get(mo, "weight"));
    if (bsl_json_read_doubles(json_object_get(mo, "mode"), mode, d) ||
        bsl_json_read_doubles(json_object_get(mo, "factor"), L, d * d) || !(w >= 0))
        return -1;
    for (size_t c = 0, z = 0, a = 0; c < nc; c++) {
        const size_t z0 = z++, a0 = a;
        for (; a < K && atoms[a] / m == c; a++) z++;
        /* the raw inputs' intercept: u = e_z0 - sum_j mean_j / scale_j e_z(j) */
        memset(u, 0, d * sizeof *u);
        u[z0] = 1;
        double mean0 = mode[z0];
        for (size_t b = a0; b < a; b++) {
            const size_t j = atoms[b] % m, zb = z0 + 1 + (b - a0);
            u[zb] = -x_mean[j] / x_scale[j];
            mean0 += u[zb] * mode[zb];
        }
        bsl_coef_comps_push(cp, c * (m + 1), w, mean0, bsl_tri_quad(L, d, 0, u, v), INFINITY);
        for (size_t b = a0; b < a; b++) {
            const size_t j = atoms[b] % m, zb = z0 + 1 + (b - a0);
            const double f = 1 / x_scale[j];
            memset(u, 0, d * sizeof *u);
            u[zb] = 1;
            const double var = f * f * bsl_tri_quad(L, d, 0, u, v);
            bsl_coef_comps_push(cp, c * (m + 1) + 1 + j, w, f * mode[zb], var, INFINITY);
        }
    }
    return 0;
}

/* Count each term's components, make the offsets, fill them in. */
static int collect(bsl_coef_comps *cp, const json_t *models, size_t m, size_t nc, const bsl_problem *P)
{
    const size_t J = nc * m, dmax = J + nc, nm = json_array_size(models);
    size_t *atoms = bsl_malloc(J + 1, sizeof *atoms), K;
    double *u = bsl_malloc(dmax, sizeof *u), *v = bsl_malloc(dmax, sizeof *v), *mode = bsl_malloc(dmax, sizeof *mode);
    double *L = bsl_malloc(dmax * dmax, sizeof *L);
    int rc = atoms && u && v && mode && L ? BASEL_OK : BASEL_ENOMEM;
    for (size_t i = 0; i < nm && !rc; i++) {
        if (model_atoms(json_array_get(models, i), J, atoms, &K)) {
            rc = BASEL_EINVAL;
            break;
        }
        for (size_t c = 0; c < nc; c++) cp->off[c * (m + 1)]++; /* every class has its intercept */
        for (size_t a = 0; a < K; a++) cp->off[(atoms[a] / m) * (m + 1) + 1 + atoms[a] % m]++;
    }
    if (!rc) rc = bsl_coef_comps_alloc(cp);
    for (size_t i = 0; i < nm && !rc; i++)
        if (model_terms(cp, json_array_get(models, i), m, nc, P->x_mean, P->x_scale, atoms, u, v, mode, L))
            rc = BASEL_EINVAL;
    free(atoms), free(u), free(v), free(mode), free(L);
    return rc;
}

json_t *bsl_subset_multi_coefficients(const bsl_problem *P, const bsl_vs_result *vr, const json_t *avg,
                                      const char *const *atom_names, double level, basel_error *err)
{
    const size_t nc = P->nclass - 1, m = vr->m / nc, nterm = nc * (m + 1);
    const json_t *models = json_object_get(avg, "models");
    bsl_coef_comps cp;
    json_t *out = NULL, *terms = NULL;
    int rc = bsl_coef_comps_init(&cp, nterm);
    if (!rc) rc = collect(&cp, models, m, nc, P);
    int bad = rc != BASEL_OK || !(terms = json_array());
    for (size_t t = 0; t < nterm && !bad; t++) {
        const size_t c = t / (m + 1), j = t % (m + 1); /* j = 0: the intercept, else input j - 1 */
        const double pip = j == 0 ? 1.0 : fmin(fmax(vr->pip[c * m + j - 1], 0.0), 1.0);
        char icpt[200];
        snprintf(icpt, sizeof icpt, "%s:(Intercept)", P->class_names[c + 1]);
        bsl_json_push(terms,
                      bsl_coef_comps_row(&cp, t, pip, level, 0, j == 0 ? icpt : atom_names[c * m + j - 1],
                                         P->class_names[c + 1], P->target_names[0], j == 0),
                      &bad);
    }
    if (!bad) {
        out = bsl_coef_table_json(level, json_array_size(models), json_number_value(json_object_get(avg, "covered")),
                                  terms, "laplace");
        terms = NULL;
        bsl_json_put(out, "reference_class", json_string(P->class_names[0]), &bad);
    }
    if (bad) {
        json_decref(terms);
        json_decref(out);
        out = NULL;
        bsl_fail(err, rc == BASEL_EINVAL ? BASEL_EINVAL : BASEL_ENOMEM,
                 rc == BASEL_EINVAL ? "the multinomial model average's block is malformed" : "out of memory");
    }
    bsl_coef_comps_free(&cp);
    return out;
}
