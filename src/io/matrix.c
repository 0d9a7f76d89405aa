/*
 * matrix.c: tables from memory (basel_data_from_matrix, basel_data_add_column,
 * basel_data_add_labels) for the R and Python front ends, with the same invariants as a table read
 * from CSV (io.h): names unique and non-empty, and a cell that is not a
 * finite number marked as missing (NaN) so that the fit's --na policy and
 * its messages apply. Messages name the source and the 1-based row as the
 * "line" (column 0).
 */
#include "io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int check_name(const char *source, const char *name, size_t j, const basel_data *d, basel_error *err)
{
    if (!name || !*name) return bsl_fail_at(err, BASEL_EINVAL, source, 0, 0, "column %zu has no name", j + 1);
    for (size_t k = 0; k < d->p; k++)
        if (strcmp(d->names[k], name) == 0)
            return bsl_fail_at(err, BASEL_EINVAL, source, 0, 0, "column name '%s' is used twice", name);
    return BASEL_OK;
}

/* Column j of d from x[i * stride], i < n: NaN (R's NA, numpy's nan) is a
 * missing value; an infinity is marked as a cell that is not a finite
 * number. */
static void fill_column(basel_data *d, size_t j, const double *x, size_t stride)
{
    const size_t n = d->n;
    memset(&d->bad[j], 0, sizeof *d->bad);
    for (size_t i = 0; i < n; i++) {
        const double v = x[i * stride];
        d->values[(j - d->ncodes) * n + i] = isfinite(v) ? v : bsl_data_missing_value(!isnan(v));
        if (!isfinite(v) && d->bad[j].line == 0) {
            d->bad[j].row = i;
            d->bad[j].line = i + 1;
            snprintf(d->bad[j].text, sizeof d->bad[j].text, "%s", isnan(v) ? "" : v > 0 ? "inf" : "-inf");
        }
    }
}

void bsl_data_mark_column(basel_data *d, size_t j)
{
    fill_column(d, j, d->values + (j - d->ncodes) * d->n, 1); /* in place: each cell is read before it is written */
}

int basel_data_from_matrix(basel_data **out, const char *source, const double *x, size_t n, size_t p,
                           size_t row_stride, size_t col_stride, const char *const *names, basel_error *err)
{
    if (out) *out = NULL;
    if (!out || (!x && n && p)) return bsl_fail(err, BASEL_EINVAL, "basel_data_from_matrix: NULL argument");
    if (!source) source = "<matrix>";
    if (n == 0 || p == 0) return bsl_fail_at(err, BASEL_EINVAL, source, 0, 0, "the matrix has %zu rows and %zu columns", n, p);
    basel_data *d = calloc(1, sizeof *d);
    if (!d) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    d->label_col = -1;
    d->n = n;
    int rc = (d->source = bsl_strdup(source)) && (d->names = bsl_calloc(p, sizeof *d->names)) &&
                     (d->values = bsl_malloc(n, p * sizeof *d->values)) &&
                     (d->line_of_row = bsl_malloc(n, sizeof *d->line_of_row)) &&
                     (d->bad = bsl_calloc(p, sizeof *d->bad))
                 ? BASEL_OK
                 : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < p && !rc; j++) {
        char fallback[32];
        snprintf(fallback, sizeof fallback, "x%zu", j + 1);
        const char *name = names ? names[j] : fallback;
        if ((rc = check_name(source, name, j, d, err))) break;
        if (!(d->names[j] = bsl_strdup(name))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        else d->p = j + 1;
    }
    for (size_t i = 0; i < n && !rc; i++) d->line_of_row[i] = i + 1;
    for (size_t j = 0; j < p && !rc; j++) fill_column(d, j, x + j * col_stride, row_stride);
    if (rc) {
        basel_data_free(d);
        return rc;
    }
    *out = d;
    return BASEL_OK;
}

/* Room for one more column (names, values, bad cells); d keeps its
 * columns and its size on failure. */
static int grow(basel_data *d, basel_error *err)
{
    char **names = realloc(d->names, (d->p + 1) * sizeof *names);
    if (names) d->names = names;
    double *values = names ? realloc(d->values, d->n * (d->p - d->ncodes + 1) * sizeof *values) : NULL;
    if (values) d->values = values;
    bsl_badcell *bad = values ? realloc(d->bad, (d->p + 1) * sizeof *bad) : NULL;
    if (bad) d->bad = bad;
    char ***text = bad && d->text ? realloc(d->text, (d->p + 1) * sizeof *text) : NULL;
    if (text) {
        d->text = text;
        text[d->p] = NULL;
    } else if (d->text) {
        bad = NULL;
    }
    return bad ? BASEL_OK : bsl_fail(err, BASEL_ENOMEM, "out of memory");
}

int basel_data_add_column(basel_data *d, const char *name, const double *x, size_t stride, basel_error *err)
{
    if (!d || !x) return bsl_fail(err, BASEL_EINVAL, "basel_data_add_column: NULL argument");
    int rc = check_name(d->source, name, d->p, d, err);
    if (!rc) rc = grow(d, err);
    if (!rc && !(d->names[d->p] = bsl_strdup(name))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (rc) return rc;
    fill_column(d, d->p, x, stride);
    d->p++;
    return BASEL_OK;
}

int basel_data_add_labels(basel_data *d, const char *name, const char *const *labels, basel_error *err)
{
    if (!d || !labels) return bsl_fail(err, BASEL_EINVAL, "basel_data_add_labels: NULL argument");
    if (d->label_col >= 0) return bsl_fail(err, BASEL_EINVAL, "the table has a label column already");
    int rc = check_name(d->source, name, d->p, d, err);
    if (rc) return rc;
    if ((rc = grow(d, err))) return rc;
    char **labs = bsl_calloc(d->n, sizeof *labs);
    if (!labs || !(d->names[d->p] = bsl_strdup(name))) {
        free(labs);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    memset(&d->bad[d->p], 0, sizeof *d->bad);
    for (size_t i = 0; i < d->n; i++) {
        d->values[(d->p - d->ncodes) * d->n + i] = NAN;
        if (!(labs[i] = bsl_strdup(labels[i] ? labels[i] : ""))) {
            for (size_t k = 0; k < i; k++) free(labs[k]);
            free(labs);
            free(d->names[d->p]);
            return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        }
    }
    d->labels = labs;
    d->label_col = (long)d->p;
    d->p++;
    return BASEL_OK;
}

int basel_data_add_text(basel_data *d, const char *name, const char *const *cells, basel_error *err)
{
    if (!d || !cells) return bsl_fail(err, BASEL_EINVAL, "basel_data_add_text: NULL argument");
    double *nan = bsl_malloc(d->n, sizeof *nan);
    if (!nan) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t i = 0; i < d->n; i++) nan[i] = NAN;
    int rc = basel_data_add_column(d, name, nan, 1, err);
    free(nan);
    if (!rc) rc = bsl_data_set_text(d, d->p - 1, cells, err);
    return rc;
}
