/*
 * options.c: the basel_options handle: options set by name, as text, and
 * checked against the option catalogue (engine/catalogue.c). Which engine
 * reads which option, and its default, is the engine table's business
 * (engine.h); a fit checks that before it starts.
 */
#include "fit.h"
#include "../engine/engine.h"
#include "../problem/problem.h"

#include <stdlib.h>
#include <string.h>

int basel_options_create(basel_options **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? BASEL_OK : BASEL_ENOMEM;
}

void basel_options_free(basel_options *o) { free(o); }

/* A front end's logical (R's TRUE, Python's True) arrives as "true" or
 * "false", and this is the one place that says what it means: a switch
 * (choices 0|1, keep-draws' 0|1|2) takes 1 or 0, a yes|no choice
 * (standardize) yes or no. Any other option keeps the word, which the
 * fit's checks then refuse: chains = TRUE is not one chain. */
static const char *logical_value(const bsl_option_def *d, const char *value)
{
    if (!value || d->kind != BSL_OPT_CHOICE || !d->choices) return value;
    const int yes = !strcmp(value, "true"), no = !strcmp(value, "false");
    if (!yes && !no) return value;
    if (!strncmp(d->choices, "0|1", 3)) return yes ? "1" : "0";
    if (!strncmp(d->choices, "yes|no", 6)) return yes ? "yes" : "no";
    return value;
}

int basel_options_set(basel_options *o, const char *name, const char *value, basel_error *err)
{
    const bsl_option_def *def = bsl_option_find(name);
    if (!def) {
        const char *names[128];
        size_t k = 0;
        for (; k < bsl_option_count() && k < sizeof names / sizeof *names; k++) names[k] = bsl_option_at(k)->name;
        const char *near = basel_suggest(name, names, k);
        if (near) return bsl_fail(err, BASEL_EINVAL, "unknown option '%s' (did you mean '%s'?)", name, near);
        char list[1024] = "";
        for (size_t i = 0; i < bsl_option_count(); i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, bsl_option_at(i)->name, sizeof list - strlen(list) - 1);
        }
        return bsl_fail(err, BASEL_EINVAL, "unknown option '%s' (accepted: %s)", name, list);
    }
    if ((!strcmp(name, "target") || !strcmp(name, "inputs")) && value && !value[strspn(value, " \t")])
        return bsl_fail(err, BASEL_EINVAL,
                        "--%s is empty: name %s, or leave the option out to use %s", name,
                        !strcmp(name, "target") ? "the target column" : "the input columns",
                        !strcmp(name, "target") ? "the last column" : "every other column");
    if (bsl_params_set(&o->p, name, logical_value(def, value)) != 0)
        return bsl_fail(err, BASEL_EINVAL, "option '%s': value too long (at most %d characters)", name,
                        BSL_PARAM_VALUE_MAX - 1);
    return BASEL_OK;
}

/* The value as set, else the chosen engine's default, else "". */
const char *basel_options_get(const basel_options *o, const char *name)
{
    if (!bsl_option_find(name)) return NULL;
    const char *v = bsl_params_get(&o->p, name);
    if (v) return v;
    if (strcmp(name, "method") == 0) return BSL_DEFAULT_METHOD;
    if (strcmp(name, "seed") == 0 || strcmp(name, "threads") == 0 || strcmp(name, "keep-draws") == 0) return "0";
    if (strcmp(name, "na") == 0) return "error";
    const bsl_engine_def *e = NULL;
    basel_error ignored;
    if (bsl_engine_for(&e, &o->p, &ignored) == BASEL_OK) {
        const char *def = bsl_engine_default(e, name);
        if (def) return def;
    }
    return "";
}

const char *basel_options_label_column(const basel_options *o)
{
    const bsl_engine_def *e = NULL;
    basel_error ignored;
    if (bsl_engine_for(&e, &o->p, &ignored)) return NULL;
    /* a binomial or multinomial target may be text (levels): read it as labels */
    if (e->target != BSL_TARGET_LABELS && !(e->binomial && bsl_family_binomial(&o->p)) &&
        !(e->multinomial && bsl_family_multinomial(&o->p)))
        return NULL;
    const char *t = bsl_params_get(&o->p, "target");
    return t ? t : ""; /* "" = the last column */
}

int basel_data_read(basel_data **out, const char *path, const char *target_path, const basel_options *o,
                    basel_error *err)
{
    if (out) *out = NULL;
    if (!out || !path) return bsl_fail(err, BASEL_EINVAL, "basel_data_read: out and path must not be NULL");
    const bsl_progress *pr = o && (o->progress.fraction || o->progress.report) ? &o->progress : NULL;
    return bsl_data_read(out, path, target_path, o ? basel_options_label_column(o) : NULL, pr, err);
}

int basel_data_read_block(basel_data **out, const char *path, const char *target_path, const basel_options *o,
                          int block, int blocks, basel_error *err)
{
    if (out) *out = NULL;
    if (!out || !path) return bsl_fail(err, BASEL_EINVAL, "basel_data_read_block: out and path must not be NULL");
    if (block < 0 || blocks < 1) return bsl_fail(err, BASEL_EINVAL, "block %d of %d: no such block", block, blocks);
    const bsl_progress *pr = o && (o->progress.fraction || o->progress.report) ? &o->progress : NULL;
    return bsl_data_read_block(out, path, target_path, o ? basel_options_label_column(o) : NULL, (size_t)block,
                               (size_t)blocks, pr, err);
}

int basel_data_read_inputs(basel_data **out, const char *path, const char *label_column, basel_error *err)
{
    if (out) *out = NULL;
    if (!out || !path) return bsl_fail(err, BASEL_EINVAL, "basel_data_read_inputs: out and path must not be NULL");
    return bsl_data_read_inputs(out, path, label_column, err);
}

void basel_options_set_progress(basel_options *o, basel_progress_fn fn, void *user)
{
    o->progress.fraction = fn;
    o->progress.fraction_user = user;
}

void basel_options_set_progress_report(basel_options *o, basel_progress_report_fn fn, void *user)
{
    o->progress.report = fn;
    o->progress.report_user = user;
}

void basel_options_set_ranks(basel_options *o, const basel_ranks *ranks)
{
    if (ranks && ranks->size > 1) o->ranks = *ranks;
    else memset(&o->ranks, 0, sizeof o->ranks);
}

size_t basel_options_count(void) { return bsl_option_count(); }

/* methods: the engines that read the option ("*" for the options every fit
 * reads), written into a buffer owned by the catalogue row's index. */
int basel_options_describe(size_t i, const char **name, const char **help)
{
    const bsl_option_def *d = bsl_option_at(i);
    if (!d) return BASEL_EINVAL;
    *name = d->name;
    *help = bsl_option_help(i); /* its method lists from the engine table */
    return BASEL_OK;
}

size_t basel_method_count(void) { return bsl_engine_count(); }

int basel_method_describe(size_t i, const char **name, const char **summary)
{
    const bsl_engine_def *e = bsl_engine_at(i);
    if (!e) return BASEL_EINVAL;
    *name = e->name;
    *summary = e->summary;
    return BASEL_OK;
}

const char *basel_method_option_default(const char *method, const char *option)
{
    const bsl_engine_def *e = bsl_engine_find(method);
    if (!e) return NULL;
    if (!strcmp(option, "checkpoint") || !strcmp(option, "restart") || !strcmp(option, "checkpoint-every"))
        return !e->checkpoints ? NULL : !strcmp(option, "checkpoint-every") ? "60" : "";
    if (!strcmp(option, "max-time") && !e->max_time) return NULL; /* its chains cannot stop on a budget */
    if (bsl_option_is_global(option))
        return !strcmp(option, "method")                                  ? method
               : !strcmp(option, "target") || !strcmp(option, "inputs") ? ""
               : !strcmp(option, "na")                                  ? "error"
                                                                        : "0";
    return bsl_engine_default(e, option);
}

/* The one rule for categorical inputs: the engines whose table entry says
 * so (the linear subset engines) select a factor's indicator columns
 * together, with the linear basis; the others would split a factor into
 * unrelated indicators or have no indicators at all (kernel bases). */
int basel_method_groups_factors(const char *method, const char *basis)
{
    const bsl_engine_def *e = bsl_engine_find(method);
    if (!e || !e->groups_factors) return 0;
    if (!basis) basis = bsl_engine_default(e, "basis");
    return basis && !strcmp(basis, "linear");
}

/* The engine table's flags (engine.h), so that no front end lists methods. */
int basel_method_keeps_draws(const char *method)
{
    const bsl_engine_def *e = bsl_engine_find(method);
    return e && e->keeps_draws;
}

int basel_method_mean_interval(const char *method)
{
    const bsl_engine_def *e = bsl_engine_find(method);
    return e && e->mean_interval;
}

const char *basel_method_advice(const char *method)
{
    const bsl_engine_def *e = bsl_engine_find(method);
    return e ? e->advice : NULL;
}

int basel_method_has_family(const char *method, const char *family)
{
    const bsl_engine_def *e = bsl_engine_find(method);
    if (!e) return 0;
    /* the engines of numeric targets fit Gaussian models by default; a
     * classifier of labels (the mixture) fits none of the families */
    if (!family || strcmp(family, "gaussian") == 0) return e->target == BSL_TARGET_NUMERIC;
    return bsl_engine_family_model(e, family) != NULL;
}

int basel_method_can(const char *method, const char *capability)
{
    return bsl_engine_can(bsl_engine_find(method), capability);
}

const char *basel_method_list(char *buf, size_t len, const char *capability, const char *last)
{
    return bsl_engine_list(buf, len, capability, last);
}

const char *basel_method_model(const char *method, size_t i)
{
    const bsl_engine_def *e = bsl_engine_find(method);
    if (!e) return NULL;
    if (!e->models) return i == 0 ? "bma" : NULL;
    for (size_t k = 0; e->models[k]; k++)
        if (k == i) return e->models[k];
    return NULL;
}
