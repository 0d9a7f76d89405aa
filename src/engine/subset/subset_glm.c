/*
 * subset_glm.c: what the subset engines do differently for a GLM
 * (--family binomial: logistic regression, rj, bd, ssvs and enumerate; --family
 * poisson: enumerate; model/glm.h): the prior and the model table the
 * engine runs, and the engine block the predictions read.
 *
 * Predictions. A model M's posterior of theta = (alpha, beta_M) is
 * approximated by its Laplace approximation N(mode, H^-1) (Newton's
 * method, bsl_glm_laplace), stored as the mode and the lower Cholesky
 * factor of H; the class probability at x, with z = (1, x_M),
 *     P(y = 1 | x, M) = E[logit^-1(z'theta)],  z'theta ~ N(z'mode, |L^-1 z|^2),
 * (Poisson: the mean count E[exp(z'theta)] = exp(z'mode + |L^-1 z|^2 / 2))
 * is a one-dimensional Gaussian integral, done by 32-point Gauss-Hermite
 * quadrature (for the logistic function, measured against a fine
 * trapezoid rule: within 2e-5 for |z'mode| <= 6 and sd <= 3). The model average weighs the models by their posterior
 * probabilities (enumeration: exact; rj: visit frequencies), over the most
 * probable models up to BSL_GLM_COVER of the mass (renormalised; the mass
 * covered is recorded). So the models' weights are the engine's, and the
 * within-model posterior is the Laplace approximation: that, and the
 * truncation, are the approximations of a prediction.
 */
#include "subset.h"
#include "../engine.h"
#include "../../core/jsonutil.h"
#include "../../model/glm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BSL_GLM_COVER 0.999    /* posterior mass of the models the average keeps */
#define BSL_GLM_MAX_MODELS 500 /* and at most this many */

int bsl_subset_glm_setup(bsl_engine_ctx *ctx, bsl_vs_problem *pb, basel_error *err)
{
    const char *spec = ctx->user ? bsl_params_get(ctx->user, "prior") : NULL;
    if (!spec) { /* the engine's default prior is a Gaussian model's: the GLM has its own */
        spec = BSL_GLM_DEFAULT_PRIOR;
        if (bsl_params_set(ctx->settings, "prior", spec)) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    int rc = bsl_glm_prior_parse(&pb->prior, spec, pb->D->n, err);
    if (rc) return rc;
    const char *family = bsl_params_get(ctx->settings, "family");
    pb->prior.glm_family = family && strcmp(family, "poisson") == 0       ? BSL_GLM_POISSON
                           : family && strcmp(family, "multinomial") == 0 ? BSL_GLM_MULTINOMIAL
                                                                          : BSL_GLM_BINOMIAL;
    const int gtype = pb->prior.type->glm_log_ml != NULL; /* coef_prior.h: BAS's g-type priors */
    if (gtype && pb->prior.glm_family == BSL_GLM_MULTINOMIAL)
        return bsl_fail(err, BASEL_EINVAL, "--prior %s: --family multinomial takes --prior normal[:%s] only", spec,
                        BSL_GLM_PRIOR_KEYS);
    pb->prior.is_draws = 4000;
    if (bsl_params_get(ctx->settings, "is-draws") &&
        (rc = bsl_params_size(ctx->settings, "is-draws", 4000, 100, (size_t)1 << 40, &pb->prior.is_draws, err)))
        return rc;
    pb->prior.is_seed = ctx->seed;
    pb->model = bsl_engine_family_model(ctx->def, family);
    if (!pb->model) return bsl_fail(err, BASEL_EINVAL, "--family %s: --method %s has no such model", family, ctx->def->name);
    /* a g-type prior's marginal is in closed form per subset (glm.h
     * bsl_glm_gtype), which the per-subset table computes and caches; the
     * Polya-Gamma table's score is the normal prior's */
    if (gtype) pb->model = &bsl_model_glm_exact;
    return BASEL_OK;
}

/* One model's Laplace predictor, as FIT.json keeps it: its atoms, weight,
 * mode and the factor of the Hessian there (d x d); NULL when out of
 * memory. Shared by the binomial / Poisson and the multinomial fits. */
json_t *bsl_glm_predictor_json(const size_t *atoms, size_t k, double weight, const double *theta, const double *L,
                               size_t d)
{
    json_t *o = json_object();
    int bad = !o;
    if (o) {
        bsl_json_put(o, "atoms", bsl_json_sizes(atoms, k), &bad);
        bsl_json_put(o, "weight", bsl_json_real(weight), &bad);
        bsl_json_put(o, "mode", bsl_json_doubles(theta, d), &bad);
        bsl_json_put(o, "factor", bsl_json_doubles(L, d * d), &bad);
    }
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* One model's Laplace approximation as {atoms, weight, mode, factor}. */
static json_t *laplace_json(const bsl_vs_problem *pb, const double *y, const size_t *atoms, size_t k, double weight)
{
    const bsl_design *D = pb->D;
    const size_t n = D->n, d = k + 1;
    double *Z = bsl_malloc(n * d, sizeof *Z), *lam = bsl_malloc(d, sizeof *lam);
    double *theta = bsl_calloc(d, sizeof *theta), *L = bsl_malloc(d * d, sizeof *L);
    double *work = bsl_malloc(BSL_GLM_WORK(n, d), sizeof *work), lj;
    json_t *o = NULL;
    if (Z && lam && theta && L && work) {
        for (size_t i = 0; i < n; i++) Z[i] = 1.0;
        for (size_t a = 0; a < k; a++) bsl_design_raw_column(D, atoms[a], Z + (a + 1) * n);
        lam[0] = 1.0 / (pb->prior.intercept_sd * pb->prior.intercept_sd);
        for (size_t a = 1; a < d; a++) lam[a] = 1.0 / (pb->prior.sd * pb->prior.sd);
        double ybar = 0; /* start at the intercept-only fit, as glm_exact.c */
        for (size_t i = 0; i < n; i++) ybar += y[i] / (double)n;
        ybar = fmin(fmax(ybar, 1e-3), pb->prior.glm_family == BSL_GLM_POISSON ? 1e300 : 1 - 1e-3);
        theta[0] = pb->prior.glm_family == BSL_GLM_POISSON ? log(ybar) : log(ybar / (1 - ybar));
        /* a g-type prior: Li and Clyde's normal approximation at the MLE
         * (glm.h bsl_glm_gtype); the normal prior: the Laplace approximation */
        const int rc = pb->prior.type->glm_log_ml
                           ? bsl_glm_gtype(&pb->prior, Z, n, d, y, theta, L, &lj, work)
                           : bsl_glm_laplace(pb->prior.glm_family, Z, n, d, y, lam, theta, L, &lj, work);
        if (!rc) o = bsl_glm_predictor_json(atoms, k, weight, theta, L, d);
    }
    free(Z);
    free(lam);
    free(theta);
    free(L);
    free(work);
    return o;
}

/* {"models": [one model]} */
static json_t *single(const bsl_vs_problem *pb, const double *y, const size_t *atoms, size_t k)
{
    json_t *o = json_object(), *list = json_array();
    int bad = !o || !list;
    bsl_json_push(list, laplace_json(pb, y, atoms, k, 1.0), &bad);
    bsl_json_put(o, "covered", bsl_json_real(1.0), &bad);
    bsl_json_put(o, "models", list, &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

/* The model average over the most probable visited models. */
static json_t *average(const bsl_vs_problem *pb, const double *y, const bsl_vs_result *vr)
{
    const bsl_modelset *s = &vr->models;
    const double total = bsl_modelset_total(s);
    json_t *o = json_object(), *list = json_array();
    int bad = !o || !list;
    double covered = 0;
    for (size_t i = 0; i < s->n && i < BSL_GLM_MAX_MODELS && covered < BSL_GLM_COVER && !bad; i++) {
        const double w = total > 0 ? s->items[i].weight / total : 0;
        if (!(w > 0)) break;
        bsl_json_push(list, laplace_json(pb, y, bsl_modelset_atoms(s, i), s->items[i].k, w), &bad);
        covered += w;
    }
    bsl_json_put(o, "covered", bsl_json_real(covered), &bad);
    bsl_json_put(o, "models", list, &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

json_t *bsl_subset_glm_block(const bsl_vs_problem *pb, json_t *basis, const bsl_vs_result *vr,
                             const bsl_result *res)
{
    const size_t m = vr->m;
    json_t *eng = json_object(), *pred = json_object();
    double *y = bsl_malloc(pb->D->n, sizeof *y);
    size_t *med = bsl_malloc(m + 1, sizeof *med), *prev = bsl_malloc(m + 1, sizeof *prev);
    int bad = !eng || !pred || !y || !med || !prev || !basis;
    if (!bad) {
        bsl_glm_design_y(pb->D, y);
        const size_t nmed = bsl_select_median(vr->pip, m, med);
        const size_t nprev = bsl_select_prevalence(vr->pip, m, vr->size_prob, vr->kmax, prev);
        bsl_json_put(pred, "bma", average(pb, y, vr), &bad);
        bsl_json_put(pred, "hpm", single(pb, y, res->hpm.atoms, res->hpm.k), &bad);
        bsl_json_put(pred, "median", single(pb, y, med, nmed), &bad);
        bsl_json_put(pred, "prevalence", single(pb, y, prev, nprev), &bad);
    }
    bsl_json_put(eng, "family", json_string(pb->prior.glm_family == BSL_GLM_POISSON ? "poisson" : "binomial"), &bad);
    bsl_json_put(eng, "basis", basis, &bad);
    bsl_json_put(eng, "predictor", pred, &bad);
    free(y);
    free(med);
    free(prev);
    if (bad) json_decref(eng);
    return bad ? NULL : eng;
}
