/*
 * registry.c: the engine table, the only list of methods (engine.h), and
 * the checks that turn a user's options into an engine's settings before
 * any work is done.
 */
#include "engine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line per engine: adding an engine is its folder plus a line here. */
#define BSL_ENGINES(X) \
    X(enumerate)       \
    X(bd)              \
    X(rj)              \
    X(ssvs)            \
    X(anneal)          \
    X(rbf)             \
    X(smc)             \
    X(mixture)         \
    /* the list ends here */

#define DECLARE(name) extern const bsl_engine_def bsl_engine_##name;
BSL_ENGINES(DECLARE)
#define ENTRY(name) &bsl_engine_##name,
static const bsl_engine_def *const engines[] = {BSL_ENGINES(ENTRY)};
#define NENGINES (sizeof engines / sizeof *engines)

size_t bsl_engine_count(void) { return NENGINES; }

const bsl_engine_def *bsl_engine_at(size_t i) { return i < NENGINES ? engines[i] : NULL; }

const bsl_engine_def *bsl_engine_find(const char *name)
{
    for (size_t i = 0; i < NENGINES; i++)
        if (name && strcmp(engines[i]->name, name) == 0) return engines[i];
    return NULL;
}

void bsl_engine_names(char *buf, size_t len)
{
    if (!len) return;
    buf[0] = 0;
    for (size_t i = 0; i < NENGINES; i++) {
        strncat(buf, i ? ", " : "", len - strlen(buf) - 1);
        strncat(buf, engines[i]->name, len - strlen(buf) - 1);
    }
}

int bsl_engine_can(const bsl_engine_def *e, const char *what)
{
    if (!e || !what) return 0;
    if (!strcmp(what, "checkpoint")) return e->checkpoints;
    if (!strcmp(what, "max-time")) return e->max_time;
    if (!strcmp(what, "column-blocks")) return e->column_blocks;
    if (!strcmp(what, "draws")) return e->keeps_draws;
    if (!strcmp(what, "factors")) return e->groups_factors;
    if (!strcmp(what, "stats")) return e->design_only;
    if (!strcmp(what, "coefficients")) return e->coefficients;
    if (!strcmp(what, "scale-free")) return e->scale_free;
    if (!strcmp(what, "mean-interval")) return e->mean_interval;
    return bsl_engine_family_model(e, what) != NULL; /* binomial, poisson, multinomial */
}

static void append(char *buf, size_t len, const char *text) { strncat(buf, text, len - strlen(buf) - 1); }

const char *bsl_engine_list(char *buf, size_t len, const char *what, const char *last)
{
    if (!len) return buf;
    buf[0] = 0;
    size_t count = 0, k = 0;
    for (size_t i = 0; i < NENGINES; i++) count += bsl_engine_can(engines[i], what) != 0;
    for (size_t i = 0; i < NENGINES; i++) {
        if (!bsl_engine_can(engines[i], what)) continue;
        const int final = last && k > 0 && k + 1 == count; /* "a, b and c" */
        if (k) append(buf, len, final ? " " : ", ");
        if (final) {
            append(buf, len, last);
            append(buf, len, " ");
        }
        append(buf, len, engines[i]->name);
        k++;
    }
    return buf;
}

int bsl_engine_lookup(const bsl_engine_def **out, const char *name, basel_error *err)
{
    *out = bsl_engine_find(name);
    if (*out) return BASEL_OK;
    char names[256];
    bsl_engine_names(names, sizeof names);
    const char *each[NENGINES];
    for (size_t i = 0; i < NENGINES; i++) each[i] = engines[i]->name;
    const char *near = basel_suggest(name, each, NENGINES);
    char hint[64] = "";
    if (near) snprintf(hint, sizeof hint, "did you mean '%s'? ", near);
    return bsl_fail(err, BASEL_EINVAL, "--method '%s' is not known (%saccepted: %s)", name ? name : "", hint, names);
}

const char *bsl_engine_default(const bsl_engine_def *e, const char *name)
{
    for (const bsl_engine_option *o = e->options; o->name; o++)
        if (strcmp(o->name, name) == 0) return o->def;
    return NULL;
}

int bsl_engine_check_failed(basel_error *err, int rc, const char *source)
{
    if (!rc || !err || rc == BASEL_ENOMEM) return rc;
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    return bsl_fail_at(err, rc, source, 0, 0, "%s", msg);
}

int bsl_engine_has_model(const bsl_engine_def *e, const char *model)
{
    if (!model) return 1;
    if (!e->models) return strcmp(model, "bma") == 0;
    for (const char *const *m = e->models; *m; m++)
        if (strcmp(*m, model) == 0) return 1;
    return 0;
}

/* A value against the catalogue's kind and range. */
static int check_value(const bsl_option_def *d, const char *v, basel_error *err)
{
    if (d->kind == BSL_OPT_TEXT || !*v) return BASEL_OK; /* "" = derived by the engine */
    if (d->kind == BSL_OPT_CHOICE) {
        const size_t len = strlen(v);
        for (const char *c = d->choices; *c;) {
            const char *bar = strchr(c, '|');
            const size_t clen = bar ? (size_t)(bar - c) : strlen(c);
            if (clen == len && strncmp(c, v, len) == 0) return BASEL_OK;
            c += clen + (bar != NULL);
        }
        char list[160];
        snprintf(list, sizeof list, "%s", d->choices);
        for (char *p = list; *p; p++)
            if (*p == '|') *p = ',';
        return bsl_fail(err, BASEL_EINVAL, "--%s '%s': expected one of %s", d->name, v, list);
    }
    char *end;
    errno = 0;
    const double x = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(x))
        return bsl_fail(err, BASEL_EINVAL, "--%s '%s' is not a number", d->name, v);
    if (d->kind == BSL_OPT_COUNT && (x != floor(x) || strchr(v, '.') || strchr(v, 'e') || strchr(v, 'E')))
        return bsl_fail(err, BASEL_EINVAL, "--%s '%s' is not a whole number", d->name, v);
    if (x < d->lo || x > d->hi)
        return bsl_fail(err, BASEL_EINVAL, "--%s %s is out of range [%.15g, %.15g]", d->name, v, d->lo, d->hi);
    return BASEL_OK;
}

int bsl_engine_resolve(const bsl_engine_def *e, const bsl_params *user, bsl_params *settings,
                       basel_error *err)
{
    memset(settings, 0, sizeof *settings);
    for (size_t i = 0; i < user->n; i++) {
        const char *name = user->name[i];
        const bsl_option_def *d = bsl_option_find(name);
        if (!d) return bsl_fail(err, BASEL_EINVAL, "unknown option '%s'", name);
        basel_error scratch;
        const int known_family = strcmp(name, "family") == 0 && check_value(d, user->value[i], &scratch) == BASEL_OK;
        if (known_family && strcmp(user->value[i], "gaussian") != 0 && !bsl_engine_family_model(e, user->value[i])) {
            char with[128];
            bsl_engine_list(with, sizeof with, user->value[i], NULL);
            return bsl_fail(err, BASEL_EINVAL, "--family %s: --method %s has no %s model (it runs with --method %s)",
                            user->value[i], e->name, user->value[i], *with ? with : "none");
        }
        if (known_family && !bsl_engine_default(e, name)) continue; /* gaussian: what it fits */
        if (!bsl_option_is_global(name) && !bsl_engine_default(e, name))
            return bsl_fail(err, BASEL_EINVAL, "--%s is not read by --method %s (see 'basel help fit --method %s')",
                            name, e->name, e->name);
        int rc = check_value(d, user->value[i], err);
        if (rc) return rc;
    }
    for (const bsl_engine_option *o = e->options; o->name; o++) {
        const char *v = bsl_params_get(user, o->name);
        if (bsl_params_set(settings, o->name, v ? v : o->def))
            return bsl_fail(err, BASEL_EINVAL, "option '%s': value too long (at most %d characters)", o->name,
                            BSL_PARAM_VALUE_MAX - 1);
    }
    return BASEL_OK;
}

const struct bsl_model_ops *bsl_engine_family_model(const bsl_engine_def *e, const char *family)
{
    if (!family) return NULL;
    if (strcmp(family, "binomial") == 0) return e->binomial;
    if (strcmp(family, "poisson") == 0) return e->poisson;
    if (strcmp(family, "multinomial") == 0) return e->multinomial;
    return NULL;
}

/* Above BSL_RJ_INFORMED_ABOVE inputs (rj_informed.c) rj makes informed
 * moves, which propose every input by its posterior weight at each move; bd
 * proposes a birth uniformly, so its run grows as p (2 x 10^6 blocks per
 * chain at p = 20000, 98 CPU-s against rj's 23: bench/scale/README.md).
 * Kernel dictionaries keep bd (paper 004's method) whatever their size. A
 * family bd has no model for (multinomial) goes to the first sampler of the
 * engine table that has one, not to a name written here. */
const char *bsl_default_method(const bsl_params *user, size_t inputs)
{
    const char *basis = bsl_params_get(user, "basis"), *family = bsl_params_get(user, "family");
    const int linear = !basis || !*basis || strncmp(basis, "linear", 6) == 0;
    const bsl_engine_def *def = bsl_engine_find(BSL_DEFAULT_METHOD);
    if (family && strcmp(family, "gaussian") != 0 && !bsl_engine_family_model(def, family))
        for (size_t i = 0; i < NENGINES; i++) /* the first sampler the engine table gives that model */
            if (engines[i]->keeps_draws && bsl_engine_family_model(engines[i], family)) return engines[i]->name;
    for (size_t i = 0; linear && i < NENGINES; i++)
        if (engines[i]->default_above && inputs > engines[i]->default_above) return engines[i]->name;
    return BSL_DEFAULT_METHOD;
}

int bsl_engine_for(const bsl_engine_def **out, const bsl_params *user, basel_error *err)
{
    const char *method = bsl_params_get(user, "method");
    const char *basis = bsl_params_get(user, "basis");
    if (!method) method = bsl_default_method(user, 0); /* the data not known yet */
    /* an engine's older spelling (the table's alias_of; it is recorded
     * under the engine's own name) */
    for (size_t i = 0; basis && i < NENGINES; i++)
        if (engines[i]->alias_of && !strcmp(method, engines[i]->alias_of) && strstr(basis, engines[i]->alias_basis))
            method = engines[i]->name;
    return bsl_engine_lookup(out, method, err);
}
