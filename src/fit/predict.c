/*
 * predict.c: predictions from a fit document: the inputs gathered by name
 * and standardised as at fit time, then the engine that wrote the fit
 * (engine.h) predicts with the chosen --model; and the predictions CSV.
 */
#include "fit.h"
#include "../engine/engine.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void basel_pred_free(basel_pred *p)
{
    if (!p) return;
    const size_t nn = p->nclass ? p->nclass : p->c;
    for (size_t i = 0; i < nn && p->names; i++) free(p->names[i]);
    free(p->names);
    free(p->mean);
    free(p->lower);
    free(p->upper);
    free(p->se);
    free(p->sd);
    free(p->sdf);
    free(p->prob);
    free(p->cls);
    free(p->missing);
    free(p->first_missing_column);
    free(p);
}

size_t basel_pred_rows(const basel_pred *p) { return p->n; }

size_t basel_pred_output_count(const basel_pred *p) { return p->nclass ? 0 : p->c; }

const char *basel_pred_output_name(const basel_pred *p, size_t j)
{
    return !p->nclass && j < p->c ? p->names[j] : NULL;
}

size_t basel_pred_class_count(const basel_pred *p) { return p->nclass; }

const char *basel_pred_class_name(const basel_pred *p, size_t k)
{
    return k < p->nclass ? p->names[k] : NULL;
}

int basel_pred_prob(const basel_pred *p, size_t i, size_t k, double *prob, size_t *cls)
{
    if (i >= p->n || k >= p->nclass || !p->prob) return BASEL_EINVAL; /* a missing row: NaN, SIZE_MAX */
    if (prob) *prob = p->prob[i * p->nclass + k];
    if (cls) *cls = p->cls[i];
    return BASEL_OK;
}

int basel_pred_get(const basel_pred *p, size_t i, size_t j, double *mean, double *lower,
                   double *upper)
{
    if (i >= p->n || j >= p->c || !p->mean || p->nclass) return BASEL_EINVAL;
    *mean = p->mean[j * p->n + i];
    *lower = p->lower[j * p->n + i];
    *upper = p->upper[j * p->n + i];
    return BASEL_OK;
}

int basel_pred_se(const basel_pred *p, size_t i, size_t j, double *se)
{
    if (i >= p->n || j >= p->c || !p->has_se || p->nclass) return BASEL_EINVAL;
    *se = p->se[j * p->n + i];
    return BASEL_OK;
}

int basel_pred_has_se(const basel_pred *p) { return p->has_se && !p->nclass; }

int basel_pred_sd(const basel_pred *p, size_t i, size_t j, double *sd_new, double *sd_mean)
{
    if (i >= p->n || j >= p->c || !p->has_sd || p->nclass) return BASEL_EINVAL;
    if (sd_new) *sd_new = p->sd[j * p->n + i];
    if (sd_mean) *sd_mean = p->sdf[j * p->n + i];
    return BASEL_OK;
}

int basel_pred_has_sd(const basel_pred *p) { return p->has_sd && !p->nclass; }

/* The factor (FIT.json "factors") that has the indicator column name, and
 * the level it indicates; NULL when name is not an indicator. */
static const json_t *factor_of(const json_t *doc, const char *name, const char **level)
{
    const json_t *fs = json_object_get(doc, "factors");
    for (size_t f = 0; name && f < json_array_size(fs); f++) {
        const json_t *F = json_array_get(fs, f), *cols = json_object_get(F, "columns");
        const char *input = json_string_value(json_object_get(F, "input"));
        for (size_t l = 0; input && l < json_array_size(cols); l++)
            if (strcmp(json_string_value(json_array_get(cols, l)), name) == 0) {
                *level = name + strlen(input) + 1;
                return F;
            }
    }
    return NULL;
}

/* Indicator column j (the factor F's level) from the table's column col:
 * levels match by name; a level the fit never saw, or a missing cell, is
 * an error naming the row. */
static int fill_indicator(const json_t *F, const char *level, const basel_data *data, size_t col, double *x,
                          basel_error *err)
{
    const json_t *levels = json_object_get(F, "levels");
    char buf[32];
    for (size_t i = 0; i < data->n; i++) {
        const char *t = bsl_data_cell_text(data, i, col, buf, sizeof buf);
        if (!t)
            return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                               "categorical input '%s': the value is missing", data->names[col]);
        size_t l = 0;
        while (l < json_array_size(levels) && strcmp(json_string_value(json_array_get(levels, l)), t) != 0) l++;
        if (l == json_array_size(levels))
            return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                               "categorical input '%s': level '%s' (row %zu) was not seen in training", data->names[col],
                               t, i + 1);
        x[i] = strcmp(t, level) == 0 ? 1.0 : 0.0;
    }
    return BASEL_OK;
}

/* The fit's inputs from the table, by name, standardised as at fit time. */
static int gather_inputs(const json_t *doc, const basel_data *data, double **Xout, size_t *dout,
                         basel_error *err)
{
    const json_t *inputs = json_object_get(doc, "inputs");
    const json_t *st = json_object_get(doc, "standardize");
    const size_t d = json_array_size(inputs), n = data->n;
    double *X = bsl_malloc(n * d + 1, sizeof *X), *mu = bsl_malloc(d + 1, sizeof *mu),
           *sc = bsl_malloc(d + 1, sizeof *sc);
    int rc = (!X || !mu || !sc) ? bsl_fail(err, BASEL_ENOMEM, "out of memory") : BASEL_OK;
    if (!rc && (bsl_json_read_doubles(json_object_get(st, "mean"), mu, d) ||
                bsl_json_read_doubles(json_object_get(st, "scale"), sc, d)))
        rc = bsl_fail(err, BASEL_EPARSE, "the fit's standardize block is malformed");
    for (size_t j = 0; j < d && !rc; j++) /* the writer's scales are standard deviations or 1 */
        if (!(sc[j] > 0)) rc = bsl_fail(err, BASEL_EPARSE, "the fit's standardize.scale[%zu] is not positive", j);
    for (size_t j = 0; j < d && !rc; j++) {
        const char *name = json_string_value(json_array_get(inputs, j)), *level = NULL;
        /* an indicator column comes from its factor's column, unless the
         * table carries it ready-made (the R front end codes it itself) */
        const json_t *F = basel_data_find(data, name) < 0 ? factor_of(doc, name, &level) : NULL;
        if (F) {
            const char *input = json_string_value(json_object_get(F, "input"));
            const long fc = basel_data_find(data, input);
            if (fc < 0) {
                rc = bsl_fail_at(err, BASEL_EINVAL, data->source, 1, 0,
                                 "input column '%s' (a categorical input of the fit) is not in the header", input);
                break;
            }
            if ((rc = fill_indicator(F, level, data, (size_t)fc, X + j * n, err))) break;
            for (size_t i = 0; i < n; i++) X[j * n + i] = (X[j * n + i] - mu[j]) / sc[j];
            continue;
        }
        long col = name ? basel_data_find(data, name) : -1;
        if (col < 0) {
            rc = bsl_fail_at(err, BASEL_EINVAL, data->source, 1, 0,
                             "input column '%s' (used by the fit) is not in the header", name ? name : "?");
            break;
        }
        if ((rc = bsl_data_check_numeric(data, (size_t)col, "input", err))) break;
        const double *x = bsl_data_col(data, (size_t)col);
        for (size_t i = 0; i < n && !rc; i++) {
            X[j * n + i] = (x[i] - mu[j]) / sc[j];
            if (!(fabs(X[j * n + i]) <= BSL_EXTREME))
                rc = bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                                 "input column '%s': %g is more than 1e77 training scales from the training "
                                 "data: too far out to predict",
                                 name, x[i]);
        }
    }
    free(mu);
    free(sc);
    if (rc) {
        free(X);
        return rc;
    }
    *Xout = X;
    *dout = d;
    return BASEL_OK;
}

/* Multiply the regression predictions back by the targets' scales (FIT.json
 * standardize.target_scale, powers of two: exact), give each row of class
 * probabilities its class, then refuse anything not finite, naming the row
 * and the column: no NaN or Inf leaves predict. */
static int finish_predictions(const json_t *doc, const basel_data *data, basel_pred *p, basel_error *err)
{
    /* the one rule of every classifier (the engines fill prob and allocate
     * cls): the most probable class, the first of equals */
    for (size_t i = 0; i < p->n && p->nclass && p->cls; i++) {
        size_t best = 0;
        for (size_t k = 1; k < p->nclass; k++)
            if (p->prob[i * p->nclass + k] > p->prob[i * p->nclass + best]) best = k;
        p->cls[i] = best;
    }
    const json_t *ts = json_object_get(json_object_get(doc, "standardize"), "target_scale");
    for (size_t j = 0; j < p->c && p->mean && !p->nclass; j++) {
        const double s = ts ? json_number_value(json_array_get(ts, j)) : 1.0;
        for (size_t i = 0; i < p->n; i++) {
            p->mean[j * p->n + i] *= s;
            p->lower[j * p->n + i] = p->no_interval ? NAN : p->lower[j * p->n + i] * s;
            p->upper[j * p->n + i] = p->no_interval ? NAN : p->upper[j * p->n + i] * s;
            p->se[j * p->n + i] *= s;
            p->sd[j * p->n + i] *= s;
            p->sdf[j * p->n + i] *= s;
        }
    }
    size_t i, col;
    const char *what = bsl_pred_nonfinite(p, &i, &col);
    if (!what) return BASEL_OK;
    return bsl_fail_at(err, BASEL_ENUMERIC, data->source, data->line_of_row[i], 0,
                       "the prediction's %s for '%s' is not a finite number (the inputs are too far from the "
                       "training data for double precision)",
                       what, p->names[col]);
}

const char *bsl_pred_nonfinite(const basel_pred *p, size_t *row, size_t *col)
{
    for (size_t i = 0; i < p->n; i++) {
        *row = i;
        if (p->missing && p->missing[i]) continue; /* NaN by design: no prediction */
        for (size_t k = 0; k < p->nclass; k++) {
            *col = k;
            if (!isfinite(p->prob[i * p->nclass + k])) return "probability";
        }
        for (size_t j = 0; j < p->c && !p->nclass; j++) {
            *col = j;
            if (!isfinite(p->mean[j * p->n + i])) return "mean";
            if (p->no_interval) continue;
            if (!isfinite(p->lower[j * p->n + i])) return "lower bound";
            if (!isfinite(p->upper[j * p->n + i])) return "upper bound";
        }
    }
    return NULL;
}

/* The models e predicts with, "bma, hpm, ..." for messages. */
static void model_list(const bsl_engine_def *e, char *buf, size_t len)
{
    snprintf(buf, len, "%s", e->models ? "" : "bma");
    for (const char *const *m = e->models; m && *m; m++) {
        strncat(buf, m == e->models ? "" : ", ", len - strlen(buf) - 1);
        strncat(buf, *m, len - strlen(buf) - 1);
    }
}

int basel_fit_predict(const basel_fit *f, const basel_data *data, const char *model,
                      double level, basel_pred **out, basel_error *err)
{
    return basel_fit_predict_ex(f, data, model, level, BASEL_INTERVAL_NEW, out, err);
}

/* Predict every row of data (none may miss an input). */
static int predict_rows(const basel_fit *f, const basel_data *data, const char *model, double level,
                        basel_interval_kind kind, basel_pred **out, basel_error *err)
{
    *out = NULL;
    const bsl_engine_def *e = bsl_engine_find(json_string_value(json_object_get(f->doc, "method")));
    if (!e) return bsl_fail(err, BASEL_EPARSE, "the fit names no known method");
    if (!bsl_engine_has_model(e, model)) {
        char list[96];
        model_list(e, list, sizeof list);
        size_t nm = 0;
        while (e->models && e->models[nm]) nm++;
        const char *near = model && nm ? basel_suggest(model, e->models, nm) : NULL;
        if (near) return bsl_fail(err, BASEL_EINVAL, "--model '%s': did you mean '%s'? (a fit of --method %s predicts "
                                  "with %s)", model, near, e->name, list);
        return bsl_fail(err, BASEL_EINVAL, "--model '%s': a fit of --method %s predicts with %s", model, e->name,
                        list);
    }
    if (!model) model = e->models ? e->models[0] : "bma";
    if (kind != BASEL_INTERVAL_NEW && kind != BASEL_INTERVAL_MEAN && kind != BASEL_INTERVAL_NONE &&
        kind != BASEL_INTERVAL_SD)
        return bsl_fail(err, BASEL_EINVAL, "unknown interval kind %d", (int)kind);
    const int no_interval = kind == BASEL_INTERVAL_NONE || kind == BASEL_INTERVAL_SD;
    if (no_interval) level = 0.95; /* unused: the engines still get a valid one */
    if (kind == BASEL_INTERVAL_MEAN && !e->mean_interval)
        return bsl_fail(err, BASEL_EINVAL,
                        "--interval-kind mean: a fit of --method %s gives intervals for new observations only", e->name);
    if (!(level > 0 && level < 1))
        return bsl_fail(err, BASEL_EINVAL, "--interval %g: expected a probability in (0, 1)", level);
    const json_t *ss = json_object_get(f->doc, "summary_statistics");
    if (ss && !json_is_true(json_object_get(ss, "means"))) /* docs/SUMMARY_STATS.md */
        return bsl_fail(err, BASEL_EINVAL, "this fit is from summary statistics without the means (%s): the inputs' and "
                        "target's units are unknown, so it cannot predict; give x_mean and y_mean with xtx to predict",
                        json_string_value(json_object_get(ss, "kind")));
    double *X = NULL;
    size_t d = 0;
    int rc = gather_inputs(f->doc, data, &X, &d, err);
    if (rc) return rc;
    const size_t n = data->n;
    basel_pred *p = calloc(1, sizeof *p);
    const json_t *targets = json_object_get(f->doc, "targets");
    if (p) {
        p->interval_mean = kind == BASEL_INTERVAL_MEAN;
        p->no_interval = no_interval;
        p->want_sd = kind != BASEL_INTERVAL_NONE;
        p->n = n;
        p->c = json_array_size(targets);
        p->names = bsl_calloc(p->c + 1, sizeof *p->names);
        p->mean = bsl_calloc(n * p->c + 1, sizeof(double));
        p->lower = bsl_calloc(n * p->c + 1, sizeof(double));
        p->upper = bsl_calloc(n * p->c + 1, sizeof(double));
        p->se = bsl_calloc(n * p->c + 1, sizeof(double));
        p->sd = bsl_calloc(n * p->c + 1, sizeof(double));
        p->sdf = bsl_calloc(n * p->c + 1, sizeof(double));
    }
    if (!p || !p->names || !p->mean || !p->lower || !p->upper || !p->se || !p->sd || !p->sdf)
        rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < (p ? p->c : 0) && !rc; j++) {
        const char *t = json_string_value(json_array_get(targets, j));
        if (!(p->names[j] = bsl_strdup(t ? t : "y"))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (!rc) rc = e->predict(f->doc, X, n, d, model, level, p, err);
    if (!rc) rc = finish_predictions(f->doc, data, p, err);
    free(X);
    if (rc) {
        basel_pred_free(p);
        return rc;
    }
    *out = p;
    return BASEL_OK;
}

/* ------------------------------------------------------- missing inputs */

/* Which rows of data miss an input the fit uses (an empty cell or NA; a NaN
 * in a table from memory): miss (n flags, allocated here) and the rows that
 * do not, keep (allocated, *nkeep of them). The first such row and column
 * go into first (row, line, column name). Cells that are present but not
 * numbers are left to gather_inputs, which refuses them; so are absent
 * columns. BASEL_ENOMEM. */
typedef struct missing_first {
    size_t row, line;
    const char *column;
} missing_first;

/* Flag the rows of data whose column name (if the table has it) is missing. */
static void flag_missing(const basel_data *data, const char *name, unsigned char *miss, missing_first *first)
{
    const long col = name ? basel_data_find(data, name) : -1;
    if (col < 0 || col == data->label_col) return;
    for (size_t i = 0; i < data->n; i++)
        if (!miss[i] && bsl_data_is_missing(data, i, (size_t)col)) {
            miss[i] = 1;
            if (i < first->row) {
                first->row = i;
                first->line = data->line_of_row[i];
                first->column = name;
            }
        }
}

static int missing_rows(const json_t *doc, const basel_data *data, unsigned char **miss, size_t **keep,
                        size_t *nkeep, missing_first *first, basel_error *err)
{
    const json_t *inputs = json_object_get(doc, "inputs"), *factors = json_object_get(doc, "factors");
    const size_t n = data->n;
    *miss = bsl_calloc(n, 1);
    *keep = bsl_malloc(n, sizeof **keep);
    if (!*miss || !*keep) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    first->row = SIZE_MAX;
    for (size_t j = 0; j < json_array_size(inputs); j++)
        flag_missing(data, json_string_value(json_array_get(inputs, j)), *miss, first);
    /* a categorical input's column (its indicators are the inputs above) */
    for (size_t f = 0; f < json_array_size(factors); f++)
        flag_missing(data, json_string_value(json_object_get(json_array_get(factors, f), "input")), *miss, first);
    *nkeep = 0;
    for (size_t i = 0; i < n; i++)
        if (!(*miss)[i]) (*keep)[(*nkeep)++] = i;
    return BASEL_OK;
}

/* Spread the predictions q of the kept rows over n rows, in place: the rows
 * flagged in miss get NaN (and class SIZE_MAX). Takes miss. BASEL_ENOMEM. */
static int spread_rows(basel_pred *q, unsigned char *miss, size_t n, const missing_first *first,
                       basel_error *err)
{
    const size_t nk = q->n, w = q->nclass ? q->nclass : q->c;
    double *a[6] = {q->nclass ? q->prob : q->mean, q->nclass ? NULL : q->lower, q->nclass ? NULL : q->upper,
                    q->nclass ? NULL : q->se, q->nclass ? NULL : q->sd, q->nclass ? NULL : q->sdf};
    double *b[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    size_t *cls = q->cls ? bsl_malloc(n, sizeof *cls) : NULL;
    int bad = (q->cls && !cls) || !(q->first_missing_column = bsl_strdup(first->column));
    for (int t = 0; t < 6 && !bad; t++)
        if (a[t] && !(b[t] = bsl_malloc(n * w + 1, sizeof(double)))) bad = 1;
    if (bad) {
        free(cls);
        for (int t = 0; t < 6; t++) free(b[t]);
        free(miss);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t i = 0, k = 0; i < n; i++) {
        const int gone = miss[i];
        for (int t = 0; t < 6; t++)
            for (size_t j = 0; a[t] && j < w; j++) {
                /* regression arrays are n x c column-major, probabilities row-major */
                const size_t to = q->nclass ? i * w + j : j * n + i, from = q->nclass ? k * w + j : j * nk + k;
                b[t][to] = gone ? NAN : a[t][from];
            }
        if (cls) cls[i] = gone ? SIZE_MAX : q->cls[k];
        k += !gone;
    }
    for (int t = 0; t < 6; t++) free(a[t]);
    free(q->cls);
    if (q->nclass) q->prob = b[0];
    else {
        q->mean = b[0];
        q->lower = b[1];
        q->upper = b[2];
        q->se = b[3];
        q->sd = b[4];
        q->sdf = b[5];
    }
    q->cls = cls;
    q->n = n;
    q->nmissing = n - nk;
    q->missing = miss;
    q->first_missing = first->row;
    q->first_missing_line = first->line;
    return BASEL_OK;
}

int basel_fit_predict_ex(const basel_fit *f, const basel_data *data, const char *model,
                         double level, basel_interval_kind kind, basel_pred **out, basel_error *err)
{
    *out = NULL;
    bsl_error_clear(err);
    gsl_set_error_handler_off(); /* never abort: bsl_fit_prepare says why */
    unsigned char *miss = NULL;
    size_t *keep = NULL, nkeep = 0;
    missing_first first = {0, 0, NULL};
    int rc = missing_rows(f->doc, data, &miss, &keep, &nkeep, &first, err);
    if (!rc && nkeep == data->n) { /* the common case: every row complete */
        free(miss);
        free(keep);
        return predict_rows(f, data, model, level, kind, out, err);
    }
    if (!rc && nkeep == 0)
        rc = bsl_fail_at(err, BASEL_EINVAL, data->source, first.line, 0,
                         "every row has a missing input (the first: column '%s'): nothing to predict",
                         first.column);
    basel_data *sub = NULL;
    basel_pred *p = NULL;
    if (!rc) rc = basel_data_subset(&sub, data, keep, nkeep, err);
    if (!rc) rc = predict_rows(f, sub, model, level, kind, &p, err);
    if (!rc) {
        rc = spread_rows(p, miss, data->n, &first, err); /* takes miss */
        miss = NULL;
    }
    basel_data_free(sub);
    free(keep);
    free(miss);
    if (rc) {
        basel_pred_free(p);
        return rc;
    }
    *out = p;
    return BASEL_OK;
}

size_t basel_pred_missing(const basel_pred *p, size_t *first_row, size_t *first_line, const char **first_column)
{
    if (first_row) *first_row = p->nmissing ? p->first_missing : 0;
    if (first_line) *first_line = p->nmissing ? p->first_missing_line : 0;
    if (first_column) *first_column = p->nmissing ? p->first_missing_column : NULL;
    return p->nmissing;
}

/* One CSV field holding text: quoted when it has a comma, quote or line end. */
static void put_text(FILE *fp, const char *t)
{
    if (!strpbrk(t, ",\"\r\n")) {
        fputs(t, fp);
        return;
    }
    fputc('"', fp);
    for (; *t; t++) {
        if (*t == '"') fputc('"', fp);
        fputc(*t, fp);
    }
    fputc('"', fp);
}

/* A number field (nothing for a row without a prediction). */
static void put_number(FILE *fp, const char *sep, double v, int digits)
{
    char buf[40];
    fputs(sep, fp);
    if (!isnan(v)) fputs(bsl_format_double(buf, sizeof buf, v, digits), fp);
}

/* The id field of row i: the label column's text, else the number. */
static void put_id(FILE *fp, const basel_data *ids, long col, size_t i, int digits)
{
    if (col == ids->label_col) put_text(fp, ids->labels[i]);
    else put_number(fp, "", ids->values[(size_t)col * ids->n + i], digits);
    fputc(',', fp);
}

int basel_pred_write_csv(const basel_pred *p, const char *path, basel_error *err)
{
    return basel_pred_write_csv_ex(p, path, NULL, NULL, 0, err);
}

/* Whether NAME is one of the columns the predictions write (p_<class> and
 * class, or <output>_mean, _lower and _upper): an --id of that name would
 * give a header with the same name twice. */
static int pred_column_taken(const basel_pred *p, const char *name)
{
    static const char *const suffix[] = {"_mean", "_lower", "_upper"};
    if (p->nclass && !strcmp(name, "class")) return 1;
    const size_t count = p->nclass ? p->nclass : p->c;
    for (size_t j = 0; j < count; j++) {
        const size_t len = strlen(p->names[j]);
        if (p->nclass) {
            if (!strncmp(name, "p_", 2) && !strcmp(name + 2, p->names[j])) return 1;
        } else if (!strncmp(name, p->names[j], len)) {
            for (size_t s = 0; s < (p->no_interval ? 1 : 3); s++)
                if (!strcmp(name + len, suffix[s])) return 1;
        }
    }
    return 0;
}

int basel_pred_write_csv_ex(const basel_pred *p, const char *path, const basel_data *ids, const char *id_column,
                            int digits, basel_error *err)
{
    bsl_error_clear(err);
    if (digits < 0 || digits > 17)
        return bsl_fail(err, BASEL_EINVAL, "--digits %d: expected 1 to 17 significant digits, or 0 (shortest exact)",
                        digits);
    const long idc = id_column && ids ? basel_data_find(ids, id_column) : -1;
    if (id_column && idc < 0)
        return bsl_fail_at(err, BASEL_EINVAL, ids ? ids->source : NULL, 1, 0, "--id '%s': no such column in the header",
                           id_column);
    if (id_column && pred_column_taken(p, id_column))
        return bsl_fail(err, BASEL_EINVAL,
                        "--id '%s': the predictions have a column of that name; rename it in the test file",
                        id_column);
    if (id_column && ids->n != p->n)
        return bsl_fail(err, BASEL_EINVAL, "--id: the table has %zu rows, the predictions %zu", ids->n, p->n);
    size_t row, col;
    const char *what = bsl_pred_nonfinite(p, &row, &col);
    if (what) /* the last check before the file: never a NaN or Inf in it */
        return bsl_fail(err, BASEL_ENUMERIC, "prediction row %zu: the %s for '%s' is not a finite number", row + 1,
                        what, p->names[col]);
    bsl_outfile out;
    int rc = bsl_out_open(&out, path, err);
    if (rc) return rc;
    FILE *fp = out.fp;
    if (id_column) {
        put_text(fp, id_column);
        fputc(',', fp);
    }
    if (p->nclass) {
        for (size_t k = 0; k < p->nclass; k++) fprintf(fp, "%sp_%s", k ? "," : "", p->names[k]);
        fprintf(fp, ",class\n");
        for (size_t i = 0; i < p->n; i++) {
            if (id_column) put_id(fp, ids, idc, i, digits);
            for (size_t k = 0; k < p->nclass; k++) put_number(fp, k ? "," : "", p->prob[i * p->nclass + k], digits);
            fprintf(fp, ",%s\n", p->cls[i] == SIZE_MAX ? "" : p->names[p->cls[i]]);
        }
    } else {
        for (size_t j = 0; j < p->c; j++) {
            if (p->no_interval) fprintf(fp, "%s%s_mean", j ? "," : "", p->names[j]);
            else fprintf(fp, "%s%s_mean,%s_lower,%s_upper", j ? "," : "", p->names[j], p->names[j], p->names[j]);
        }
        fputc('\n', fp);
        for (size_t i = 0; i < p->n; i++) {
            if (id_column) put_id(fp, ids, idc, i, digits);
            /* a row without a prediction in a file of one column would be a
             * blank line, which CSV readers (R, pandas) skip: "" keeps it */
            if (p->no_interval && p->c == 1 && !id_column && isnan(p->mean[i])) fputs("\"\"", fp);
            for (size_t j = 0; j < p->c; j++) {
                put_number(fp, j ? "," : "", p->mean[j * p->n + i], digits);
                if (p->no_interval) continue;
                put_number(fp, ",", p->lower[j * p->n + i], digits);
                put_number(fp, ",", p->upper[j * p->n + i], digits);
            }
            fputc('\n', fp);
        }
    }
    return bsl_out_commit(&out, err);
}
