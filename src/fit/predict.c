/*
 * predict.c: predictions from a fit document: the inputs gathered by name
 * and standardised as at fit time, then the engine that wrote the fit
 * (engine.h) predicts with the chosen --model; and the predictions CSV.
 */
#include "fit.h"
#include "../engine/engine.h"

#include <math.h>
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
    free(p->prob);
    free(p->cls);
    free(p);
}

size_t basel_pred_rows(const basel_pred *p) { return p->n; }

size_t basel_pred_class_count(const basel_pred *p) { return p->nclass; }

const char *basel_pred_class_name(const basel_pred *p, size_t k)
{
    return k < p->nclass ? p->names[k] : NULL;
}

int basel_pred_prob(const basel_pred *p, size_t i, size_t k, double *prob, size_t *cls)
{
    if (i >= p->n || k >= p->nclass || !p->prob) return BASEL_EINVAL;
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
        const char *name = json_string_value(json_array_get(inputs, j));
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
 * standardize.target_scale, powers of two: exact), then refuse anything not
 * finite, naming the row and the column: no NaN or Inf leaves predict. */
static int finish_predictions(const json_t *doc, const basel_data *data, basel_pred *p, basel_error *err)
{
    const json_t *ts = json_object_get(json_object_get(doc, "standardize"), "target_scale");
    for (size_t j = 0; j < p->c && p->mean && !p->nclass; j++) {
        const double s = ts ? json_number_value(json_array_get(ts, j)) : 1.0;
        for (size_t i = 0; i < p->n; i++) {
            p->mean[j * p->n + i] *= s;
            p->lower[j * p->n + i] *= s;
            p->upper[j * p->n + i] *= s;
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
        for (size_t k = 0; k < p->nclass; k++) {
            *col = k;
            if (!isfinite(p->prob[i * p->nclass + k])) return "probability";
        }
        for (size_t j = 0; j < p->c && !p->nclass; j++) {
            *col = j;
            if (!isfinite(p->mean[j * p->n + i])) return "mean";
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

int basel_fit_predict_ex(const basel_fit *f, const basel_data *data, const char *model,
                         double level, basel_interval_kind kind, basel_pred **out, basel_error *err)
{
    *out = NULL;
    bsl_error_clear(err);
    const bsl_engine_def *e = bsl_engine_find(json_string_value(json_object_get(f->doc, "method")));
    if (!e) return bsl_fail(err, BASEL_EPARSE, "the fit names no known method");
    if (!bsl_engine_has_model(e, model)) {
        char list[96];
        model_list(e, list, sizeof list);
        return bsl_fail(err, BASEL_EINVAL, "--model '%s': a fit of --method %s predicts with %s", model, e->name,
                        list);
    }
    if (!model) model = e->models ? e->models[0] : "bma";
    if (kind != BASEL_INTERVAL_NEW && kind != BASEL_INTERVAL_MEAN)
        return bsl_fail(err, BASEL_EINVAL, "unknown interval kind %d", (int)kind);
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
        p->n = n;
        p->c = json_array_size(targets);
        p->names = bsl_calloc(p->c + 1, sizeof *p->names);
        p->mean = bsl_calloc(n * p->c + 1, sizeof(double));
        p->lower = bsl_calloc(n * p->c + 1, sizeof(double));
        p->upper = bsl_calloc(n * p->c + 1, sizeof(double));
    }
    if (!p || !p->names || !p->mean || !p->lower || !p->upper) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
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

int basel_pred_write_csv(const basel_pred *p, const char *path, basel_error *err)
{
    size_t row, col;
    const char *what = bsl_pred_nonfinite(p, &row, &col);
    if (what) /* the last check before the file: never a NaN or Inf in it */
        return bsl_fail(err, BASEL_ENUMERIC, "prediction row %zu: the %s for '%s' is not a finite number", row + 1,
                        what, p->names[col]);
    bsl_outfile out;
    int rc = bsl_out_open(&out, path, err);
    if (rc) return rc;
    FILE *fp = out.fp;
    if (p->nclass) {
        for (size_t k = 0; k < p->nclass; k++) fprintf(fp, "%sp_%s", k ? "," : "", p->names[k]);
        fprintf(fp, ",class\n");
        for (size_t i = 0; i < p->n; i++) {
            for (size_t k = 0; k < p->nclass; k++) fprintf(fp, "%s%.17g", k ? "," : "", p->prob[i * p->nclass + k]);
            fprintf(fp, ",%s\n", p->names[p->cls[i]]);
        }
    } else {
        for (size_t j = 0; j < p->c; j++)
            fprintf(fp, "%s%s_mean,%s_lower,%s_upper", j ? "," : "", p->names[j], p->names[j], p->names[j]);
        fputc('\n', fp);
        for (size_t i = 0; i < p->n; i++) {
            for (size_t j = 0; j < p->c; j++)
                fprintf(fp, "%s%.17g,%.17g,%.17g", j ? "," : "", p->mean[j * p->n + i], p->lower[j * p->n + i],
                        p->upper[j * p->n + i]);
            fputc('\n', fp);
        }
    }
    return bsl_out_commit(&out, err);
}
