/*
 * document.c: the one writer and the one checker of FIT.json's common keys
 * (docs/FIT.md). Every engine's result (engine.h) goes through
 * bsl_document_fill, so every method's document has the same keys with the
 * same meaning; a key that does not apply to a method is absent, never
 * empty. bsl_document_check runs on every document, written here or read
 * back, so a hand-edited file is refused with the key's path before any
 * engine reads it.
 */
#include "fit.h"
#include "../engine/engine.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Probabilities from sums of weights carry rounding (1 + 7e-16 from a
 * particle system): clamp to [0, 1] what is within 1e-9 of it, so the
 * document says what the numbers mean; anything further out is left for
 * bsl_document_check to refuse. */
static double clamp_prob(double p)
{
    return p < 0 && p > -1e-9 ? 0.0 : p > 1 && p < 1 + 1e-9 ? 1.0 : p;
}

/* Listed model i; with marginal likelihoods, its log Bayes factors against
 * the best listed model (largest log posterior) and the null model. NULL
 * when out of memory (as every builder here). */
static json_t *model_json(const bsl_result *r, size_t i, size_t best)
{
    const bsl_result_model *rm = &r->models[i];
    json_t *o = json_object();
    int bad = 0;
    bsl_json_put(o, "atoms", bsl_json_sizes(rm->atoms, rm->k), &bad);
    bsl_json_put(o, "prob", isfinite(rm->prob) ? bsl_json_real(clamp_prob(rm->prob)) : json_null(), &bad);
    if (isfinite(rm->log_post)) bsl_json_put(o, "log_post", bsl_json_real(rm->log_post), &bad);
    if (r->log_ml && isfinite(r->log_ml[i]) && isfinite(r->log_ml[best]) && isfinite(r->null_log_ml)) {
        bsl_json_put(o, "log_ml", bsl_json_real(r->log_ml[i]), &bad);
        bsl_json_put(o, "log_bf_best", bsl_json_real(r->log_ml[i] - r->log_ml[best]), &bad);
        bsl_json_put(o, "log_bf_null", bsl_json_real(r->log_ml[i] - r->null_log_ml), &bad);
    }
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

/* The listed model with the largest log posterior (the first when none is
 * known): the "best" of the Bayes factors. */
static size_t best_model(const bsl_result *r)
{
    size_t best = 0;
    for (size_t i = 1; i < r->nmodels; i++)
        if (r->models[i].log_post > r->models[best].log_post) best = i;
    return best;
}

/* selected.{hpm, median, prevalence} (Barbieri and Berger; paper 004 Defs.
 * 1.4-1.6), from the PIPs and the size posterior, and selected.projection
 * when the engine found one (subset_project.c). */
static json_t *selected_json(const bsl_result *r)
{
    json_t *sel = json_object();
    size_t *med = bsl_malloc(r->m + 1, sizeof *med), *prev = bsl_malloc(r->m + 1, sizeof *prev);
    int bad = !sel || !med || !prev;
    if (!bad) {
        const bsl_result_model *hpm = r->hpm.atoms ? &r->hpm : r->nmodels ? &r->models[0] : NULL;
        bsl_json_put(sel, "hpm", hpm ? bsl_json_sizes(hpm->atoms, hpm->k) : json_array(), &bad);
        bsl_json_put(sel, "median", bsl_json_sizes(med, bsl_select_median(r->pip, r->m, med)), &bad);
        bsl_json_put(sel, "prevalence",
                     bsl_json_sizes(prev, bsl_select_prevalence(r->pip, r->m, r->size_prob, r->kmax, prev)), &bad);
        if (r->projection.atoms) bsl_json_put(sel, "projection", bsl_json_sizes(r->projection.atoms, r->projection.k), &bad);
    }
    free(med);
    free(prev);
    if (bad) json_decref(sel);
    return bad ? NULL : sel;
}

static json_t *probabilities(const double *p, size_t n)
{
    json_t *a = json_array();
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        const double v = clamp_prob(p[i]);
        bsl_json_push(a, isfinite(v) ? bsl_json_real(v) : json_null(), &bad);
    }
    if (bad) json_decref(a);
    return bad ? NULL : a;
}

int bsl_document_fill(json_t *doc, const bsl_result *r, basel_error *err)
{
    int bad = 0;
    if (r->atom_names && r->m) {
        json_t *atoms = json_array();
        for (size_t j = 0; j < r->m; j++)
            bsl_json_push(atoms, json_pack("{s:s}", "name", r->atom_names[j] ? r->atom_names[j] : "?"), &bad);
        bsl_json_put(doc, "atoms", atoms, &bad);
    }
    if (r->pip) bsl_json_put(doc, "pip", probabilities(r->pip, r->m), &bad);
    if (r->size_prob) {
        json_t *ks = json_array();
        for (size_t k = 0; k <= r->kmax; k++) bsl_json_push(ks, json_integer((json_int_t)k), &bad);
        bsl_json_put(doc, "model_size",
                     json_pack("{s:o, s:o}", "k", ks, "prob", probabilities(r->size_prob, r->kmax + 1)), &bad);
        bsl_json_put(doc, "k_opt", json_integer((json_int_t)bsl_kopt(r->size_prob, r->kmax)), &bad);
    }
    if (r->has_selected && r->pip && r->size_prob) bsl_json_put(doc, "selected", selected_json(r), &bad);
    if (r->models) {
        json_t *ms = json_array();
        const size_t best = best_model(r);
        for (size_t i = 0; i < r->nmodels; i++) bsl_json_push(ms, model_json(r, i, best), &bad);
        bsl_json_put(doc, "models", ms, &bad);
        if (r->log_ml && isfinite(r->null_log_ml)) bsl_json_put(doc, "null_log_ml", bsl_json_real(r->null_log_ml), &bad);
    }
    if (r->prior) bsl_json_put(doc, "prior", json_incref(r->prior), &bad);
    bsl_json_put(doc, "diagnostics", r->diagnostics ? json_incref(r->diagnostics) : json_object(), &bad);
    if (r->extra) bad |= json_object_update(doc, r->extra) != 0;
    if (r->engine) bsl_json_put(doc, "engine", json_incref(r->engine), &bad);
    return bad ? bsl_fail(err, BASEL_ENOMEM, "out of memory") : BASEL_OK;
}

/* ---------------------------------------------------------------- check */

static int fail_key(basel_error *err, const char *source, const char *key, const char *what)
{
    return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "\"%s\" %s", key, what);
}

/* An array of n numbers, each finite and within [lo, hi]. */
static int numbers_in(const json_t *a, size_t n, double lo, double hi)
{
    if (!json_is_array(a) || json_array_size(a) != n) return 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *x = json_array_get(a, i);
        if (!json_is_number(x)) return 0;
        const double v = json_number_value(x);
        if (!(isfinite(v) && v >= lo && v <= hi)) return 0;
    }
    return 1;
}

/* A number at key of o: finite (and within [lo, hi]); absent only when
 * optional. */
static int number_at(const json_t *o, const char *key, double lo, double hi, int optional)
{
    const json_t *x = json_object_get(o, key);
    if (!x) return optional;
    const double v = json_number_value(x);
    return json_is_number(x) && isfinite(v) && v >= lo && v <= hi;
}

/* An array of distinct atom indices below m. */
static int atom_list(const json_t *a, size_t m)
{
    if (!json_is_array(a) || json_array_size(a) > m) return 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        const json_t *x = json_array_get(a, i);
        if (!json_is_integer(x) || json_integer_value(x) < 0 || (size_t)json_integer_value(x) >= m) return 0;
    }
    return 1;
}

static int check_names(const json_t *a, const char *source, const char *key, basel_error *err)
{
    if (!json_is_array(a)) return fail_key(err, source, key, "is not an array of names");
    for (size_t i = 0; i < json_array_size(a); i++)
        if (!json_is_string(json_array_get(a, i))) return fail_key(err, source, key, "holds a name that is not a string");
    return BASEL_OK;
}

static int check_summaries(const json_t *doc, const char *source, basel_error *err)
{
    const json_t *atoms = json_object_get(doc, "atoms"), *pip = json_object_get(doc, "pip");
    const size_t m = json_array_size(atoms);
    for (size_t j = 0; j < m; j++)
        if (!json_is_string(json_object_get(json_array_get(atoms, j), "name")))
            return fail_key(err, source, "atoms", "holds an atom without a name");
    if (atoms && !json_is_array(atoms)) return fail_key(err, source, "atoms", "is not an array");
    if (pip && !numbers_in(pip, m, 0, 1))
        return fail_key(err, source, "pip", "is not one probability in [0, 1] per atom");
    const json_t *ms = json_object_get(doc, "model_size");
    if (ms) {
        const json_t *ks = json_object_get(ms, "k");
        if (!json_is_array(ks) || !numbers_in(json_object_get(ms, "prob"), json_array_size(ks), 0, 1))
            return fail_key(err, source, "model_size", "is not {k: [...], prob: [probabilities]} of equal lengths");
    }
    /* k_opt is one of the sizes the size posterior lists, or, with no such
     * list, a count of atoms */
    const json_t *kopt = json_object_get(doc, "k_opt"), *sizes = json_object_get(ms, "k");
    int kopt_ok = !kopt || (sizes ? 0 : json_is_integer(kopt) && json_integer_value(kopt) >= 0 &&
                                            (size_t)json_integer_value(kopt) <= m);
    for (size_t i = 0; !kopt_ok && i < json_array_size(sizes); i++)
        kopt_ok = json_is_integer(kopt) && json_equal(json_array_get(sizes, i), kopt);
    if (!kopt_ok) return fail_key(err, source, "k_opt", "is not a model size of the size posterior");
    const json_t *sets = json_object_get(json_object_get(doc, "credible_sets"), "sets");
    for (size_t i = 0; i < json_array_size(sets); i++)
        if (!atom_list(json_object_get(json_array_get(sets, i), "atoms"), m)) {
            char key[64];
            snprintf(key, sizeof key, "credible_sets.sets[%zu].atoms", i);
            return fail_key(err, source, key, "is not a list of atom indices");
        }
    const json_t *sel = json_object_get(doc, "selected");
    for (size_t i = 0; sel && i < BSL_NSELECTIONS; i++) {
        const json_t *a = json_object_get(sel, bsl_selections[i].name);
        if ((a || !bsl_selections[i].optional) && !atom_list(a, m))
            return fail_key(err, source, "selected", "holds a model that is not a list of atom indices");
    }
    const json_t *models = json_object_get(doc, "models");
    if (models && !json_is_array(models)) return fail_key(err, source, "models", "is not an array");
    for (size_t i = 0; i < json_array_size(models); i++) {
        const json_t *mo = json_array_get(models, i);
        const json_t *p = json_object_get(mo, "prob");
        if (!json_is_number(p) || !(json_number_value(p) >= 0 && json_number_value(p) <= 1) ||
            !atom_list(json_object_get(mo, "atoms"), m ? m : SIZE_MAX))
            return fail_key(err, source, "models", "holds a model without atoms or a probability in [0, 1]");
        const char *ml[] = {"log_ml", "log_bf_best", "log_bf_null"};
        for (size_t k = 0; k < 3; k++)
            if (!number_at(mo, ml[k], -INFINITY, INFINITY, 1))
                return fail_key(err, source, "models", "holds a log marginal likelihood or Bayes factor that is not a finite number");
    }
    return BASEL_OK;
}

/* "coefficients" (when present): scale, level, models, covered, and terms,
 * each with a name, a target, a PIP, a mean, an sd >= 0 and an interval
 * lower <= upper; cond_mean and cond_sd (>= 0) together or neither. */
static int check_coefficients(const json_t *doc, const char *source, basel_error *err)
{
    const json_t *co = json_object_get(doc, "coefficients");
    if (!co) return BASEL_OK;
    const json_t *terms = json_object_get(co, "terms");
    if (!json_is_object(co) || !json_is_string(json_object_get(co, "scale")) ||
        !number_at(co, "level", 0, 1, 0) || !number_at(co, "covered", 0, 1, 0) ||
        !json_is_integer(json_object_get(co, "models")) || !json_is_array(terms))
        return fail_key(err, source, "coefficients", "is not {scale, level, models, covered, terms: [...]}");
    for (size_t i = 0; i < json_array_size(terms); i++) {
        const json_t *t = json_array_get(terms, i);
        const int cond = json_object_get(t, "cond_mean") != NULL;
        if (!json_is_string(json_object_get(t, "name")) || !json_is_string(json_object_get(t, "target")) ||
            !number_at(t, "pip", 0, 1, 0) || !number_at(t, "mean", -INFINITY, INFINITY, 0) ||
            !number_at(t, "sd", 0, INFINITY, 0) || !number_at(t, "lower", -INFINITY, INFINITY, 0) ||
            !number_at(t, "upper", json_number_value(json_object_get(t, "lower")), INFINITY, 0) ||
            !number_at(t, "cond_mean", -INFINITY, INFINITY, !cond) || !number_at(t, "cond_sd", 0, INFINITY, !cond) ||
            (!cond && json_object_get(t, "cond_sd")))
            return fail_key(err, source, "coefficients",
                            "holds a term without a name, target, PIP in [0, 1], mean, sd >= 0 or interval lower <= upper");
    }
    return BASEL_OK;
}

/* Whether some value below v is null, and if so its path, written into
 * path (holding the path of v) only once one is found: the walk itself
 * formats nothing (formatting every node's path was 3 % of a predict).
 * Diagnostics are left out: an R-hat or ESS undefined for the run (a chain
 * that never moves) is null there, and nothing reads it but the summary. */
static int has_null(const json_t *v, int top)
{
    if (json_is_null(v)) return 1;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (has_null(json_array_get(v, i), 0)) return 1;
    } else if (json_is_object(v)) {
        const char *key;
        json_t *x;
        json_object_foreach((json_t *)v, key, x) {
            if (top && strcmp(key, "diagnostics") == 0) continue;
            if (has_null(x, 0)) return 1;
        }
    }
    return 0;
}

static void null_path(const json_t *v, char *path, size_t cap)
{
    const size_t len = strlen(path);
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (has_null(json_array_get(v, i), 0)) {
                snprintf(path + len, cap - len, "[%zu]", i);
                null_path(json_array_get(v, i), path, cap);
                return;
            }
    } else if (json_is_object(v)) {
        const char *key;
        json_t *x;
        json_object_foreach((json_t *)v, key, x) {
            if (len == 0 && strcmp(key, "diagnostics") == 0) continue;
            if (has_null(x, 0)) {
                snprintf(path + len, cap - len, "%s%s", len ? "." : "", key);
                null_path(x, path, cap);
                return;
            }
        }
    }
}

static int find_null(const json_t *v, char *path, size_t cap)
{
    if (!has_null(v, 1)) return 0;
    null_path(v, path, cap);
    return 1;
}

int bsl_document_check(const json_t *doc, const char *source, basel_error *err)
{
    if (!json_is_object(doc)) return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "not a basel fit (not a JSON object)");
    const json_t *fv = json_object_get(doc, "format_version");
    if (!json_is_integer(fv) || !json_is_string(json_object_get(doc, "method")))
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "not a basel fit (format_version or method missing)");
    if (json_integer_value(fv) < BSL_FORMAT_OLDEST || json_integer_value(fv) > BSL_FORMAT_VERSION)
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0,
                           "format_version %lld is not read by basel %s (it reads %d to %d): refit with this basel, "
                           "using the fit's \"settings\" as options",
                           (long long)json_integer_value(fv), BASEL_VERSION_STRING, BSL_FORMAT_OLDEST,
                           BSL_FORMAT_VERSION);
    const char *method = json_string_value(json_object_get(doc, "method"));
    const bsl_engine_def *e = bsl_engine_find(method);
    if (!e) return fail_key(err, source, "method", "names no method this basel knows");
    const json_t *n = json_object_get(doc, "n");
    if (!json_is_integer(n) || json_integer_value(n) < 1) return fail_key(err, source, "n", "is not a positive count");
    int rc = check_names(json_object_get(doc, "inputs"), source, "inputs", err);
    if (!rc) rc = check_names(json_object_get(doc, "targets"), source, "targets", err);
    if (rc) return rc;
    const size_t d = json_array_size(json_object_get(doc, "inputs"));
    const json_t *st = json_object_get(doc, "standardize");
    if (!numbers_in(json_object_get(st, "mean"), d, -INFINITY, INFINITY) ||
        !numbers_in(json_object_get(st, "scale"), d, BSL_SCALE_MIN, INFINITY))
        return fail_key(err, source, "standardize", "does not hold a finite mean and a positive scale per input");
    const json_t *ts = json_object_get(st, "target_scale");
    if (ts && !numbers_in(ts, json_array_size(json_object_get(doc, "targets")), BSL_SCALE_MIN, INFINITY))
        return fail_key(err, source, "standardize.target_scale", "is not one positive number per target");
    if (!json_is_object(json_object_get(doc, "settings"))) return fail_key(err, source, "settings", "is missing");
    char path[256] = "";
    if (find_null(doc, path, sizeof path))
        return fail_key(err, source, path, "is null: a value that is not a finite number (NaN or infinite) has no place "
                                           "in a fit");
    if ((rc = check_summaries(doc, source, err))) return rc;
    if ((rc = check_coefficients(doc, source, err))) return rc;
    return e->check ? e->check(doc, source, err) : BASEL_OK;
}
