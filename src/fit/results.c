/*
 * results.c: the typed accessors of a fit's results for the front ends
 * (basel.h): the coefficient table, the listed models with their Bayes
 * factors, and the credible sets, read from the document (docs/FIT.md
 * "coefficients", "models", "credible_sets"). The numbers are the ones the
 * engines wrote; the only thing computed here is a listed model's Bayes
 * factor when the document has no marginal likelihoods, from the model
 * prior that ran (prior/prior.c), so no front end re-implements it.
 */
#include "fit.h"
#include "../engine/engine.h"
#include "../prior/prior.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- coefficients */

static const json_t *coef_terms(const basel_fit *f)
{
    return json_object_get(json_object_get(f->doc, "coefficients"), "terms");
}

size_t basel_fit_coef_count(const basel_fit *f) { return json_array_size(coef_terms(f)); }

double basel_fit_coef_level(const basel_fit *f)
{
    const json_t *lv = json_object_get(json_object_get(f->doc, "coefficients"), "level");
    return coef_terms(f) && json_is_number(lv) ? json_number_value(lv) : NAN;
}

static const char *coef_string(const basel_fit *f, size_t i, const char *key)
{
    return json_string_value(json_object_get(json_array_get(coef_terms(f), i), key));
}

const char *basel_fit_coef_term(const basel_fit *f, size_t i) { return coef_string(f, i, "name"); }
const char *basel_fit_coef_target(const basel_fit *f, size_t i) { return coef_string(f, i, "target"); }
const char *basel_fit_coef_class(const basel_fit *f, size_t i) { return coef_string(f, i, "class"); }

int basel_fit_coef(const basel_fit *f, size_t i, double v[BASEL_COEF_NVALUES])
{
    const json_t *row = json_array_get(coef_terms(f), i);
    if (!row) return BASEL_EINVAL;
    for (size_t k = 0; k < BASEL_COEF_NVALUES; k++) {
        const json_t *x = json_object_get(row, bsl_coef_value_keys[k]);
        v[k] = json_is_number(x) ? json_number_value(x) : NAN;
    }
    return BASEL_OK;
}

/* The engine of a fit that computes coefficient tables on demand, into
 * *e, when model is one of its models; else the error. */
static int on_demand_engine(const basel_fit *f, const char *model, const bsl_engine_def **e, basel_error *err)
{
    bsl_error_clear(err);
    *e = bsl_engine_find(json_string_value(json_object_get(f->doc, "method")));
    if (!*e) return bsl_fail(err, BASEL_EPARSE, "the fit names no known method");
    if (!model) return bsl_fail(err, BASEL_EINVAL, "no model: bma, hpm, median, ...");
    if (!bsl_engine_has_model(*e, model))
        return bsl_fail(err, BASEL_EINVAL, "model '%s': a fit of --method %s has no such model", model, (*e)->name);
    if (!(*e)->model_coef || !(*e)->coef_density || !coef_terms(f)) {
        char have[256];
        return bsl_fail(err, BASEL_EINVAL, "a fit of --method %s has no coefficient table on demand (%s fits have one)",
                        (*e)->name, bsl_engine_list(have, sizeof have, "coefficients", "and"));
    }
    return BASEL_OK;
}

int basel_fit_coef_density(const basel_fit *f, const char *model, const double *x, size_t n, double *dens,
                           basel_error *err)
{
    const bsl_engine_def *e;
    const int rc = on_demand_engine(f, model, &e, err);
    return rc ? rc : e->coef_density(f->doc, model, x, n, dens, basel_fit_coef_count(f), err);
}

int basel_fit_model_coef(const basel_fit *f, const char *model, double level, double *v, basel_error *err)
{
    const bsl_engine_def *e;
    int rc = on_demand_engine(f, model, &e, err);
    if (rc) return rc;
    if (!(level > 0 && level < 1))
        return bsl_fail(err, BASEL_EINVAL, "level %g: expected a probability in (0, 1)", level);
    const size_t n = basel_fit_coef_count(f);
    rc = e->model_coef(f->doc, model, level, v, n, err);
    /* the model average: the document's numbers, the intervals at level
     * (one place for each: the engine computed the table once) */
    for (size_t i = 0; !rc && strcmp(model, "bma") == 0 && i < n; i++) {
        double row[BASEL_COEF_NVALUES];
        basel_fit_coef(f, i, row);
        memcpy(v + i * BASEL_COEF_NVALUES, row, BASEL_COEF_LOWER * sizeof *row);
    }
    return rc;
}

/* ------------------------------------------------- models and sets */

/* The atoms of every element of list (each an object with "atoms"),
 * flattened: element i's are start[i] .. start[i + 1]. BASEL_ENOMEM. */
static int flatten_atoms(const json_t *list, size_t **atoms, size_t **start)
{
    const size_t n = json_array_size(list);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += json_array_size(json_object_get(json_array_get(list, i), "atoms"));
    if (!(*atoms = bsl_calloc(total + 1, sizeof **atoms)) || !(*start = bsl_calloc(n + 1, sizeof **start)))
        return BASEL_ENOMEM;
    size_t t = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *a = json_object_get(json_array_get(list, i), "atoms");
        (*start)[i] = t;
        for (size_t j = 0; j < json_array_size(a); j++) (*atoms)[t++] = (size_t)json_integer_value(json_array_get(a, j));
    }
    (*start)[n] = t;
    return BASEL_OK;
}

/* A listed model's log Bayes factor against the first (most probable) one
 * when the document has no marginal likelihoods: for a subset method with
 * one model prior pi over the m atoms' subsets, posterior odds over prior
 * odds, log(p_i / p_0) - (log pi(k_i) - log pi(k_0)) (Kass and Raftery
 * 1995, eq. 1). NaN where that does not hold: other methods, a multinomial
 * fit (a model prior per class), a spec that no longer parses. */
static void fallback_log_bf(basel_fit *f, const json_t *models)
{
    const bsl_engine_def *e = bsl_engine_find(basel_fit_method(f));
    const json_t *settings = json_object_get(f->doc, "settings");
    const char *family = json_string_value(json_object_get(settings, "family"));
    bsl_mprior mp;
    basel_error scratch;
    const int ok = e && e->design_only && !(family && strcmp(family, "multinomial") == 0) &&
                   bsl_mprior_parse(&mp, json_string_value(json_object_get(settings, "model-prior")),
                                    basel_fit_atom_count(f), &scratch) == BASEL_OK;
    const double p0 = json_number_value(json_object_get(json_array_get(models, 0), "prob"));
    const double lp0 = ok ? bsl_mprior_log(&mp, f->model_start[1] - f->model_start[0]) : NAN;
    for (size_t i = 0; i < f->nmodels; i++) {
        const double p = json_number_value(json_object_get(json_array_get(models, i), "prob"));
        f->model_log_bf[i] =
            ok ? (log(p) - bsl_mprior_log(&mp, f->model_start[i + 1] - f->model_start[i])) - (log(p0) - lp0) : NAN;
    }
}

int bsl_fit_cache_results(basel_fit *f)
{
    const json_t *models = json_object_get(f->doc, "models");
    f->nmodels = json_array_size(models);
    if (flatten_atoms(models, &f->model_atoms, &f->model_start) ||
        !(f->model_log_bf = bsl_calloc(f->nmodels + 1, sizeof *f->model_log_bf)))
        return BASEL_ENOMEM;
    size_t with_bf = 0;
    for (size_t i = 0; i < f->nmodels; i++) {
        const json_t *bf = json_object_get(json_array_get(models, i), "log_bf_best");
        with_bf += json_is_number(bf) != 0;
        f->model_log_bf[i] = json_is_number(bf) ? json_number_value(bf) : NAN;
    }
    if (f->nmodels && !with_bf) fallback_log_bf(f, models);
    const json_t *sets = json_object_get(json_object_get(f->doc, "credible_sets"), "sets");
    f->nsets = json_array_size(sets);
    return flatten_atoms(sets, &f->set_atoms, &f->set_start);
}

void bsl_fit_free_results(basel_fit *f)
{
    free(f->model_atoms);
    free(f->model_start);
    free(f->model_log_bf);
    free(f->set_atoms);
    free(f->set_start);
}

size_t basel_fit_model_count(const basel_fit *f) { return f->nmodels; }

static double number_or_nan(const json_t *o, const char *key)
{
    const json_t *x = json_object_get(o, key);
    return json_is_number(x) ? json_number_value(x) : NAN;
}

int basel_fit_model(const basel_fit *f, size_t i, const size_t **atoms, size_t *k, double *prob, double *log_ml,
                    double *log_bf_best)
{
    if (i >= f->nmodels) return BASEL_EINVAL;
    const json_t *mo = json_array_get(json_object_get(f->doc, "models"), i);
    if (atoms) *atoms = f->model_atoms + f->model_start[i];
    if (k) *k = f->model_start[i + 1] - f->model_start[i];
    if (prob) *prob = number_or_nan(mo, "prob");
    if (log_ml) *log_ml = number_or_nan(mo, "log_ml");
    if (log_bf_best) *log_bf_best = f->model_log_bf[i];
    return BASEL_OK;
}

size_t basel_fit_credible_set_count(const basel_fit *f) { return f->nsets; }

int basel_fit_credible_set(const basel_fit *f, size_t i, const size_t **atoms, size_t *k, double *coverage,
                           double *purity)
{
    if (i >= f->nsets) return BASEL_EINVAL;
    const json_t *s = json_array_get(json_object_get(json_object_get(f->doc, "credible_sets"), "sets"), i);
    if (atoms) *atoms = f->set_atoms + f->set_start[i];
    if (k) *k = f->set_start[i + 1] - f->set_start[i];
    if (coverage) *coverage = number_or_nan(s, "coverage");
    if (purity) *purity = number_or_nan(s, "purity");
    return BASEL_OK;
}
