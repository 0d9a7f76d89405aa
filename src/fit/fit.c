/*
 * fit.c: basel_fit_run (options -> problem -> engine -> document), the
 * FIT.json file, and the basel_fit accessors.
 */
#include "fit.h"
#include "problem.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BSL_FORMAT_VERSION 1

static const char *const methods[] = {"enumerate", "bd", "ssvs", "rj", "anneal", "smc", "mixture"};

static int check_method(const char *m, basel_error *err)
{
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (strcmp(m, methods[i]) == 0) return BASEL_OK;
    return bsl_fail(err, BASEL_EINVAL,
                    "--method '%s' is not known (accepted: enumerate, bd, ssvs, rj, anneal, smc, mixture)", m);
}

/* An option that only some methods read is an error with the others, so
 * that a misspelt method never silently ignores what the user asked for. */
static int check_applicable(const basel_options *o, const char *method, basel_error *err)
{
    size_t count;
    const bsl_option_def *t = bsl_option_table(&count);
    for (size_t i = 0; i < o->p.n; i++)
        for (size_t j = 0; j < count; j++) {
            if (strcmp(o->p.name[i], t[j].name) != 0 || strcmp(t[j].methods, "*") == 0) continue;
            char list[64];
            snprintf(list, sizeof list, ",%s,", t[j].methods);
            char key[24];
            snprintf(key, sizeof key, ",%s,", method);
            if (!strstr(list, key))
                return bsl_fail(err, BASEL_EINVAL, "--%s applies to --method %s only", t[j].name,
                                t[j].methods);
        }
    return BASEL_OK;
}

static unsigned long pick_seed(const basel_options *o, basel_error *err, int *rc)
{
    size_t seed = 0;
    *rc = bsl_params_size(&o->p, "seed", 0, 0, 4294967295UL, &seed, err);
    if (seed) return (unsigned long)seed;
    /* no seed given: one from the clock and pid, reported in the fit */
    return bsl_mix_seed((unsigned long)time(NULL), (unsigned long)getpid()) & 0x7fffffffUL;
}

static json_t *settings_json(const basel_options *o)
{
    json_t *s = json_object();
    size_t count;
    const bsl_option_def *t = bsl_option_table(&count);
    /* threads, keep-draws and running change how a fit runs or what it
     * writes on the side, never its result: they stay out, so that FIT.json
     * is byte-identical whatever the thread count */
    for (size_t j = 0; j < count; j++)
        if (strcmp(t[j].name, "threads") && strcmp(t[j].name, "keep-draws") && strcmp(t[j].name, "running"))
            json_object_set_new(s, t[j].name, json_string(bsl_opt(o, t[j].name)));
    return s;
}

static json_t *header(const bsl_problem *P, const basel_options *o)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "format_version", json_integer(BSL_FORMAT_VERSION));
    json_object_set_new(doc, "basel_version", json_string(BASEL_VERSION_STRING));
    json_object_set_new(doc, "method", json_string(P->method));
    json_object_set_new(doc, "seed", json_integer((json_int_t)P->seed));
    json_object_set_new(doc, "rng", json_string("mt19937"));
    json_object_set_new(doc, "settings", settings_json(o));
    json_object_set_new(doc, "n", json_integer((json_int_t)P->n));
    json_t *in = json_array(), *tg = json_array();
    for (size_t j = 0; j < P->d; j++) json_array_append_new(in, json_string(P->input_names[j]));
    for (size_t j = 0; j < P->c; j++) json_array_append_new(tg, json_string(P->target_names[j]));
    json_object_set_new(doc, "inputs", in);
    json_object_set_new(doc, "targets", tg);
    json_t *st = json_object();
    json_object_set_new(st, "applied", json_boolean(P->standardized));
    json_object_set_new(st, "mean", bsl_json_doubles(P->x_mean, P->d));
    json_object_set_new(st, "scale", bsl_json_doubles(P->x_scale, P->d));
    json_object_set_new(doc, "standardize", st);
    return doc;
}

int bsl_fit_wrap(basel_fit **out, json_t *doc, basel_error *err)
{
    basel_fit *f = calloc(1, sizeof *f);
    if (!f) {
        json_decref(doc);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    f->doc = doc;
    const json_t *pip = json_object_get(doc, "pip");
    f->m = json_array_size(pip);
    f->pip = bsl_calloc(f->m, sizeof *f->pip);
    if (!f->pip) {
        basel_fit_free(f);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < f->m; j++) f->pip[j] = json_number_value(json_array_get(pip, j));
    *out = f;
    return BASEL_OK;
}

/* Engines with results of their own (mixture, smc, anneal, free-centre rj)
 * register here; see engines.c. draws: NULL, or where the mixture engine
 * leaves its draws (the others keep none). */
int bsl_fit_engine(json_t *doc, const bsl_problem *P, const basel_options *o, bsl_vs_result **draws,
                   basel_error *err);

int basel_fit_run(basel_fit **out, const basel_data *data, const basel_options *o,
                  basel_error *err)
{
    *out = NULL;
    bsl_error_clear(err);
    const char *method = bsl_opt(o, "method");
    int rc = check_method(method, err);
    if (!rc) rc = check_applicable(o, method, err);
    if (rc) return rc;
    const int keep_draws = strcmp(bsl_opt(o, "keep-draws"), "1") == 0;
    const int free_centres = strstr(bsl_opt(o, "basis"), "centres=free") != NULL;
    /* the subset engines (vsfit.c) and the rest (engines.c); of these, all
     * that sample keep draws, except the RBF and smc engines */
    const int is_vs = !strcmp(method, "enumerate") || !strcmp(method, "bd") || !strcmp(method, "ssvs") ||
                      (!strcmp(method, "rj") && !free_centres);
    const int has_draws = (is_vs && strcmp(method, "enumerate")) || !strcmp(method, "mixture");
    if (keep_draws && !has_draws) /* refused before the run, not after it */
        return bsl_fail(err, BASEL_EINVAL,
                        "--draws: --method %s%s keeps no draws (bd, rj over a dictionary, ssvs and mixture do)",
                        method, free_centres ? " with free centres" : "");
    bsl_problem P;
    if ((rc = bsl_problem_build(&P, data, o, err))) return rc;
    P.seed = pick_seed(o, err, &rc);
    json_t *doc = rc ? NULL : header(&P, o);
    if (!rc && !doc) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    bsl_vs_result *res = NULL;
    if (!rc && is_vs) {
        res = calloc(1, sizeof *res);
        if (!res) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        if (!rc) rc = bsl_fit_vs(doc, &P, o, keep_draws, res, err);
    } else if (!rc) {
        rc = bsl_fit_engine(doc, &P, o, keep_draws ? &res : NULL, err);
    }
    bsl_problem_free(&P);
    if (!rc) rc = bsl_fit_wrap(out, doc, err);
    else json_decref(doc);
    if (!rc && res && res->ndraws) {
        (*out)->draws = res;
    } else {
        bsl_vs_result_free(res);
        free(res);
    }
    return rc;
}

void basel_fit_free(basel_fit *f)
{
    if (!f) return;
    json_decref(f->doc);
    free(f->pip);
    if (f->draws) {
        bsl_vs_result_free(f->draws);
        free(f->draws);
    }
    free(f);
}

unsigned long basel_fit_seed(const basel_fit *f)
{
    return (unsigned long)json_integer_value(json_object_get(f->doc, "seed"));
}

const double *basel_fit_pip(const basel_fit *f, size_t *m)
{
    *m = f->m;
    return f->pip;
}

int basel_fit_write_json(const basel_fit *f, const char *path, basel_error *err)
{
    bsl_outfile out;
    int rc = bsl_out_open(&out, path, err);
    if (rc) return rc;
    /* JSON_REAL_PRECISION(17): doubles survive the round trip */
    if (json_dumpf(f->doc, out.fp, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0 ||
        fputc('\n', out.fp) == EOF) {
        bsl_out_abort(&out);
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot write");
    }
    return bsl_out_commit(&out, err);
}

int bsl_fit_adopt(basel_fit **out, json_t *doc, const char *source, basel_error *err)
{
    *out = NULL;
    const json_t *fv = json_object_get(doc, "format_version");
    const json_t *pip = json_object_get(doc, "pip");
    int ok = json_is_object(doc) && json_is_integer(fv) && json_is_string(json_object_get(doc, "method")) &&
             json_is_array(pip);
    for (size_t j = 0; ok && j < json_array_size(pip); j++) ok = json_is_number(json_array_get(pip, j));
    if (!ok) {
        json_decref(doc);
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "not a basel fit (format_version, method or pip missing)");
    }
    if (json_integer_value(fv) != BSL_FORMAT_VERSION) {
        const long long v = (long long)json_integer_value(fv);
        json_decref(doc);
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "format_version %lld is not supported (this basel reads %d)",
                           v, BSL_FORMAT_VERSION);
    }
    return bsl_fit_wrap(out, doc, err);
}

/* jansson's load error, with its line and column, as ours. */
static int load_error(const json_error_t *je, int code, const char *name, basel_error *err)
{
    return bsl_fail_at(err, code, name, je->line > 0 ? (size_t)je->line : 0, je->column > 0 ? (size_t)je->column : 0,
                       "%s", je->text);
}

int basel_fit_read_json(basel_fit **out, const char *path, basel_error *err)
{
    *out = NULL;
    json_error_t je;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        const int io = je.line == -1 || strstr(je.text, "unable to open") != NULL;
        return load_error(&je, io ? BASEL_EIO : BASEL_EPARSE, path, err);
    }
    return bsl_fit_adopt(out, doc, path, err);
}

/* The same bytes from memory give the same fit or the same error. */
int bsl_fit_read_buffer(basel_fit **out, const char *name, const char *text, size_t len,
                        basel_error *err)
{
    *out = NULL;
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) return load_error(&je, BASEL_EPARSE, name, err);
    return bsl_fit_adopt(out, doc, name, err);
}
