/*
 * test_contract.c: every engine of the engine table (engine.h) held to the
 * same contract, through the public API. For each method:
 *   - fit, write FIT.json, read it back, and predict with every --model the
 *     method lists (and its default): finite predictions, one per row;
 *   - a --model it does not list, and an option it does not read, are
 *     refused (BASEL_EINVAL) before any work;
 *   - the recorded settings are the effective ones: refitting with exactly
 *     them reproduces FIT.json byte for byte;
 *   - 1 and 2 threads give byte-identical FIT.json;
 *   - cancelling from the progress callback during the sampling (after the
 *     engine reported work done) gives BASEL_ECANCELLED and no fit.
 * The loop is over the table, so a new engine is tested without a line here.
 */
#include "check.h"
#include "engine/engine.h"

#include <basel.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small correlated design: y on x1 and x3, class from x1 + x2. */
static char *make_csv(int labels)
{
    const size_t n = 60;
    size_t cap = 64 * (n + 1), len = 0;
    char *s = malloc(cap);
    len += (size_t)snprintf(s + len, cap - len, "x1,x2,x3,x4,%s\n", labels ? "class" : "y");
    unsigned long u = 12345;
    for (size_t i = 0; i < n; i++) {
        double x[4];
        for (int a = 0; a < 4; a++) {
            u = u * 6364136223846793005UL + 1442695040888963407UL;
            x[a] = (double)(u >> 11) / 9007199254740992.0 * 4 - 2;
        }
        x[1] = 0.6 * x[0] + 0.4 * x[1];
        u = u * 6364136223846793005UL + 1442695040888963407UL;
        const double noise = ((double)(u >> 11) / 9007199254740992.0 - 0.5) * 0.6;
        if (labels)
            len += (size_t)snprintf(s + len, cap - len, "%.6f,%.6f,%.6f,%.6f,%s\n", x[0], x[1], x[2], x[3],
                                    x[0] + x[1] + noise > 0 ? "yes" : "no");
        else
            len += (size_t)snprintf(s + len, cap - len, "%.6f,%.6f,%.6f,%.6f,%.6f\n", x[0], x[1], x[2], x[3],
                                    1 + 2 * x[0] - x[2] + noise);
    }
    return s;
}

/* Short runs: only the options the engine reads are set. */
static void set_small(basel_options *o, const bsl_engine_def *e, const char *threads)
{
    basel_error err;
    basel_options_set(o, "method", e->name, &err);
    basel_options_set(o, "seed", "11", &err);
    basel_options_set(o, "threads", threads, &err);
    const char *small[][2] = {{"iter", "300"}, {"burn", "100"}, {"chains", "2"}, {"particles", "40"}, {"kmax", "8"}};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) {
        const char *def = bsl_engine_default(e, small[i][0]);
        if (def && *def) basel_options_set(o, small[i][0], small[i][1], &err); /* "" = derived from the data */
    }
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc((size_t)len + 1, 1);
    if (s && fread(s, 1, (size_t)len, f) != (size_t)len) s[0] = 0;
    fclose(f);
    return s;
}

static int fit_to(const basel_data *data, basel_options *o, const char *path, basel_error *err)
{
    basel_fit *f = NULL;
    int rc = basel_fit_run(&f, data, o, err);
    if (!rc) rc = basel_fit_write_json(f, path, err);
    basel_fit_free(f);
    return rc;
}

/* Cancels at the first report of sampling work done (done > 0), which only
 * the engine's own run makes: the driver's reports before it (standardising,
 * columns, the start of the sampling at 0) pass. An engine that never
 * reports its progress is then never cancelled, and the check below fails. */
typedef struct {
    int calls, in_sampling;
} cancel_count;

static int cancel_in_sampling(const basel_progress *p, void *user)
{
    cancel_count *c = user;
    c->calls++;
    if (strcmp(p->phase, "sampling") || !(p->done > 0)) return 0;
    c->in_sampling++;
    return 1;
}

static void predict_each_model(const bsl_engine_def *e, const basel_fit *f, const basel_data *data)
{
    const char *const bma_only[] = {"bma", NULL};
    const char *const *models = e->models ? e->models : bma_only;
    for (const char *const *m = models; ; m++) {
        const char *model = *m; /* the last pass: NULL, the default */
        basel_pred *p = NULL;
        basel_error err;
        const int rc = basel_fit_predict(f, data, model, 0.9, &p, &err);
        CHECK(rc == BASEL_OK, "%s: predict --model %s: %s", e->name, model ? model : "(default)", err.message);
        if (rc == BASEL_OK) {
            CHECK(basel_pred_rows(p) == basel_data_rows(data), "%s: one prediction per row", e->name);
            int finite = 1;
            double mean, lo, hi;
            for (size_t i = 0; i < basel_pred_rows(p); i++)
                if (basel_pred_get(p, i, 0, &mean, &lo, &hi) == BASEL_OK)
                    finite &= isfinite(mean) && isfinite(lo) && isfinite(hi) && lo <= mean && mean <= hi;
            CHECK(finite, "%s: --model %s: finite predictions with lower <= mean <= upper", e->name,
                  model ? model : "(default)");
        }
        basel_pred_free(p);
        if (!model) break;
        if (!m[1]) m = (const char *const[]){NULL} - 1, models = NULL; /* then once with NULL */
        if (!models) break;
    }
    basel_pred *p = NULL;
    basel_error err;
    CHECK(basel_fit_predict(f, data, "nonsense", 0.9, &p, &err) == BASEL_EINVAL && strstr(err.message, e->name),
          "%s: an unknown --model is refused naming the method (%s)", e->name, err.message);
    basel_pred_free(p);
}

static void refit_from_settings(const bsl_engine_def *e, const basel_data *data, const char *first,
                                const char *dir)
{
    json_error_t je;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.json", dir, e->name);
    json_t *doc = json_load_file(path, 0, &je);
    basel_options *o = NULL;
    basel_options_create(&o);
    basel_error err;
    const char *key;
    json_t *val;
    int set_ok = 1;
    json_object_foreach(json_object_get(doc, "settings"), key, val)
        set_ok &= basel_options_set(o, key, json_string_value(val), &err) == BASEL_OK;
    CHECK(set_ok, "%s: every recorded setting is an option (%s)", e->name, err.message);
    snprintf(path, sizeof path, "%s/%s.refit.json", dir, e->name);
    const int rc = fit_to(data, o, path, &err);
    CHECK(rc == BASEL_OK, "%s: refit from the recorded settings: %s", e->name, err.message);
    char *again = slurp(path);
    CHECK(again && first && strcmp(again, first) == 0, "%s: refitting from the settings reproduces FIT.json", e->name);
    free(again);
    basel_options_free(o);
    json_decref(doc);
}

static void foreign_option(const bsl_engine_def *e, const basel_data *data)
{
    for (size_t i = 0; i < bsl_option_count(); i++) {
        const char *name = bsl_option_at(i)->name;
        if (bsl_option_is_global(name) || bsl_engine_default(e, name)) continue;
        basel_options *o = NULL;
        basel_options_create(&o);
        set_small(o, e, "1");
        basel_error err;
        basel_options_set(o, name, "1", &err);
        basel_fit *f = NULL;
        const int rc = basel_fit_run(&f, data, o, &err);
        CHECK(rc == BASEL_EINVAL && strstr(err.message, name) && strstr(err.message, e->name),
              "%s: --%s, which it does not read, is refused naming both (%s)", e->name, name, err.message);
        basel_fit_free(f);
        basel_options_free(o);
        return; /* one is enough: the check is generic */
    }
}

static void contract(const bsl_engine_def *e, const char *dir)
{
    const int labels = e->target == BSL_TARGET_LABELS;
    char *csv = make_csv(labels);
    basel_data *data = NULL;
    basel_error err;
    int rc = basel_data_read_buffer(&data, "contract.csv", csv, strlen(csv), labels ? "class" : NULL, &err);
    free(csv);
    CHECK(rc == BASEL_OK, "%s: data: %s", e->name, err.message);
    if (rc) return;
    basel_options *o = NULL;
    basel_options_create(&o);
    set_small(o, e, "1");
    char path[512];
    snprintf(path, sizeof path, "%s/%s.json", dir, e->name);
    rc = fit_to(data, o, path, &err);
    CHECK(rc == BASEL_OK, "%s: fit and write: %s", e->name, err.message);
    char *first = slurp(path);
    basel_fit *back = NULL;
    if (!rc) {
        rc = basel_fit_read_json(&back, path, &err);
        CHECK(rc == BASEL_OK, "%s: read back: %s", e->name, err.message);
    }
    if (back) {
        char *s = basel_fit_summary(back);
        CHECK(s && strstr(s, e->name), "%s: summary names the method", e->name);
        basel_free(s);
        predict_each_model(e, back, data);
        /* the table's coefficients flag says what the fit has: the help
         * texts and messages that name the methods with a table are made
         * from it (bsl_engine_list) */
        char coef[512];
        snprintf(coef, sizeof coef, "%s/%s_coef.csv", dir, e->name);
        basel_error cerr;
        const int has = basel_fit_write_coef_csv(back, coef, &cerr) == BASEL_OK;
        CHECK(has == (e->coefficients != 0), "%s: a coefficient table exactly when its table entry says so (%s)",
              e->name, has ? "it has one" : cerr.message);
    }
    basel_fit_free(back);
    if (first) refit_from_settings(e, data, first, dir);

    /* 2 threads */
    basel_options_set(o, "threads", "2", &err);
    snprintf(path, sizeof path, "%s/%s.t2.json", dir, e->name);
    rc = fit_to(data, o, path, &err);
    char *t2 = slurp(path);
    CHECK(rc == BASEL_OK && t2 && first && strcmp(t2, first) == 0, "%s: 1 and 2 threads give the same FIT.json",
          e->name);
    free(t2);

    /* cancel, during the engine's own sampling */
    cancel_count calls = {0, 0};
    basel_options_set_progress_report(o, cancel_in_sampling, &calls);
    basel_fit *f = NULL;
    rc = basel_fit_run(&f, data, o, &err);
    CHECK(rc == BASEL_ECANCELLED && f == NULL && calls.in_sampling == 1,
          "%s: cancel from the progress callback during the sampling gives BASEL_ECANCELLED and no fit "
          "(status %s, %d calls, %d in the sampling)", e->name, basel_status_str(rc), calls.calls, calls.in_sampling);
    basel_fit_free(f);
    basel_options_free(o);

    foreign_option(e, data);
    free(first);
    basel_data_free(data);
}

int main(void)
{
    char dir[] = "/tmp/basel_contract_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    for (size_t i = 0; i < bsl_engine_count(); i++) contract(bsl_engine_at(i), dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_contract");
}
