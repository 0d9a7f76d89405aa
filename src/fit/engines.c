/*
 * engines.c: the engines whose results are not subsets of a fixed
 * dictionary (the mixture classifier; sequential Monte Carlo and RBF
 * networks with free centres below): each turns its result into the fit
 * document, with the summaries every fit has (atoms, pip, model_size,
 * selected, models) and its own state under "engine", and predicts from it.
 */
#include "fit.h"
#include "problem.h"
#include "../prior/prior.h"
#include "../sampler/mixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The common summaries from PIPs over atoms, a size posterior and a list of
 * top subsets (already sorted by probability). */
static int common_summaries(json_t *doc, char *const *names, size_t m, const double *pip,
                            const double *size_prob, size_t kmax, json_t *models, basel_error *err)
{
    json_t *atoms = json_array(), *ks = json_array(), *ms = json_object(), *sel = json_object();
    size_t *med = bsl_malloc(m + 1, sizeof *med), *prev = bsl_malloc(m + 1, sizeof *prev);
    if (!atoms || !ks || !ms || !sel || !med || !prev) {
        free(med);
        free(prev);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < m; j++) {
        json_t *a = json_object();
        json_object_set_new(a, "name", json_string(names[j]));
        json_array_append_new(atoms, a);
    }
    for (size_t k = 0; k <= kmax; k++) json_array_append_new(ks, json_integer((json_int_t)k));
    json_object_set_new(ms, "k", ks);
    json_object_set_new(ms, "prob", bsl_json_doubles(size_prob, kmax + 1));
    const size_t nmed = bsl_select_median(pip, m, med);
    const size_t nprev = bsl_select_prevalence(pip, m, size_prob, kmax, prev);
    const json_t *top = json_array_get(models, 0);
    json_object_set(sel, "hpm", top ? json_object_get(top, "atoms") : json_array());
    json_object_set_new(sel, "median", bsl_json_sizes(med, nmed));
    json_object_set_new(sel, "prevalence", bsl_json_sizes(prev, nprev));
    json_object_set_new(doc, "atoms", atoms);
    json_object_set_new(doc, "pip", bsl_json_doubles(pip, m));
    json_object_set_new(doc, "model_size", ms);
    json_object_set_new(doc, "k_opt", json_integer((json_int_t)bsl_kopt(size_prob, kmax)));
    json_object_set_new(doc, "selected", sel);
    json_object_set_new(doc, "models", models);
    free(med);
    free(prev);
    return BASEL_OK;
}

/* ------------------------------------------------------------- mixture */

static int mixture_options(bsl_mix_options *mo, const bsl_problem *P, const basel_options *o,
                           basel_error *err)
{
    bsl_mix_options_default(mo);
    const bsl_params *p = &o->p;
    int rc = bsl_params_size(p, "kernels", mo->kernels, 1, 1000, &mo->kernels, err);
    size_t iter = 0;
    if (!rc) rc = bsl_params_size(p, "iter", 10000, 1, (size_t)1 << 40, &iter, err);
    if (!rc) rc = bsl_params_size(p, "burn", 5000, 0, (size_t)1 << 40, &mo->burn, err);
    if (!rc) rc = bsl_params_size(p, "thin", mo->thin, 1, (size_t)1 << 40, &mo->thin, err);
    if (!rc) rc = bsl_params_size(p, "chains", 4, 1, 1024, &mo->chains, err);
    if (!rc) rc = bsl_params_size(p, "top", mo->top, 1, 100000, &mo->top, err);
    if (!rc) rc = bsl_params_size(p, "kmax", 0, 0, P->d, &mo->max_inputs, err);
    mo->iter = iter + mo->burn; /* the engine counts burn-in inside iter */
    mo->seed = P->seed;
    const char *mp = bsl_params_get(p, "model-prior");
    if (!rc && mp) {
        bsl_mprior pr;
        if ((rc = bsl_mprior_parse(&pr, mp, P->d, err))) return rc;
        if (pr.kind != BSL_MPRIOR_POISSON)
            return bsl_fail(err, BASEL_EINVAL,
                            "--method mixture takes the truncated Poisson prior of paper 000 (--model-prior poisson:mean=W)");
        mo->poisson_mean = pr.mean;
    }
    return rc;
}

static int fit_mixture(json_t *doc, const bsl_problem *P, const basel_options *o, basel_error *err)
{
    bsl_mix_options mo;
    int rc = mixture_options(&mo, P, o, err);
    if (rc) return rc;
    bsl_mix_result *r = NULL;
    if ((rc = bsl_mixture_fit(P->X, P->n, P->d, P->cls, P->nclass, &mo, &r, err))) return rc;
    size_t d, len;
    const double *pip = bsl_mix_pip(r, &d), *size = bsl_mix_size_post(r, &len);
    json_t *models = json_array();
    for (size_t s = 0; s < bsl_mix_subset_count(r); s++) {
        size_t k;
        double prob;
        const size_t *in = bsl_mix_subset(r, s, &k, &prob);
        json_t *mo_ = json_object();
        json_object_set_new(mo_, "atoms", bsl_json_sizes(in, k));
        json_object_set_new(mo_, "prob", json_real(prob));
        json_array_append_new(models, mo_);
    }
    rc = common_summaries(doc, P->input_names, d, pip, size, len - 1, models, err);
    json_t *cl = json_array();
    for (size_t k = 0; k < P->nclass; k++) json_array_append_new(cl, json_string(P->class_names[k]));
    json_object_set_new(doc, "classes", cl);
    bsl_mix_diag dg;
    bsl_mix_diagnostics(r, &dg);
    json_t *dj = json_object();
    char note[256];
    snprintf(note, sizeof note,
             "mean inputs %.2f, max %zu; acceptance add %.3g, remove %.3g, exchange %.3g; %zu kernels",
             bsl_mix_mean_inputs(r), bsl_mix_max_inputs(r), dg.accept_add, dg.accept_remove,
             dg.accept_exchange, mo.kernels);
    json_object_set_new(dj, "note", json_string(note));
    json_object_set_new(dj, "mean_inputs", json_real(bsl_mix_mean_inputs(r)));
    json_object_set_new(dj, "max_inputs", json_integer((json_int_t)bsl_mix_max_inputs(r)));
    json_object_set_new(doc, "diagnostics", dj);
    json_t *eng = bsl_mix_to_json(r);
    if (!eng) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    json_object_set_new(doc, "engine", eng);
    bsl_mix_free(r);
    return rc;
}

static int predict_mixture(const json_t *doc, const double *X, size_t n, basel_pred *p,
                           basel_error *err)
{
    bsl_mix_result *r = NULL;
    int rc = bsl_mix_from_json(&r, json_object_get(doc, "engine"), err);
    if (rc) return rc;
    const json_t *cl = json_object_get(doc, "classes");
    const size_t K = json_array_size(cl);
    if (K != bsl_mix_classes(r)) {
        bsl_mix_free(r);
        return bsl_fail(err, BASEL_EPARSE, "the fit's classes do not match its engine");
    }
    /* the regression arrays from basel_fit_predict are replaced by classes */
    for (size_t j = 0; j < p->c; j++) free(p->names[j]);
    free(p->names);
    p->names = bsl_calloc(K, sizeof *p->names);
    p->prob = bsl_calloc(n * K, sizeof *p->prob);
    p->cls = bsl_calloc(n, sizeof *p->cls);
    p->nclass = K;
    if (!p->names || !p->prob || !p->cls) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t k = 0; k < K && !rc; k++) {
        const char *s = json_string_value(json_array_get(cl, k));
        if (!(p->names[k] = bsl_strdup(s ? s : "?"))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (!rc && bsl_mixture_predict(r, X, n, p->prob)) rc = bsl_fail(err, BASEL_EINVAL, "prediction failed");
    for (size_t i = 0; i < n && !rc; i++) {
        size_t best = 0;
        for (size_t k = 1; k < K; k++)
            if (p->prob[i * K + k] > p->prob[i * K + best]) best = k;
        p->cls[i] = best;
    }
    bsl_mix_free(r);
    return rc;
}

/* ------------------------------------------------------------ dispatch */

int bsl_fit_engine(json_t *doc, const bsl_problem *P, const basel_options *o, basel_error *err)
{
    if (strcmp(P->method, "mixture") == 0) return fit_mixture(doc, P, o, err);
    return bsl_fail(err, BASEL_EINVAL, "--method %s is not available in this build", P->method);
}

int bsl_engine_predict(const json_t *doc, const double *X, size_t n, size_t d, double level,
                       basel_pred *p, basel_error *err)
{
    (void)d;
    (void)level;
    const char *m = json_string_value(json_object_get(doc, "method"));
    if (m && strcmp(m, "mixture") == 0) return predict_mixture(doc, X, n, p, err);
    return bsl_fail(err, BASEL_EINVAL, "fits of --method %s cannot predict in this build", m ? m : "?");
}
