/*
 * data.c: the data handle (basel_data) that the CSV, .npy and .bed readers
 * fill: its accessors, a subset of its rows, and the checks a fit makes of
 * a column (numbers, text, missing values), which name the first bad cell
 * of the column by the line and column it came from (io.h bsl_badcell; the
 * reason is in the payload of the NaN that replaced it, bsl_cell_nan).
 */
#include "io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t basel_data_rows(const basel_data *d) { return d ? d->n : 0; }

size_t basel_data_cols(const basel_data *d) { return d ? d->p : 0; }

const char *basel_data_name(const basel_data *d, size_t j)
{
    return d && j < d->p ? d->names[j] : NULL;
}

long basel_data_find(const basel_data *d, const char *name)
{
    if (!d || !name) return -1;
    for (size_t j = 0; j < d->p; j++)
        if (strcmp(d->names[j], name) == 0) return (long)j;
    return -1;
}

double basel_data_value(const basel_data *d, size_t i, size_t j)
{
    return d && i < d->n && j < d->p ? bsl_data_at(d, i, j) : NAN;
}

void basel_data_free(basel_data *d)
{
    if (!d) return;
    if (d->names)
        for (size_t j = 0; j < d->p; j++) free(d->names[j]);
    if (d->labels)
        for (size_t i = 0; i < d->n; i++) free(d->labels[i]);
    for (size_t j = 0; d->text && j < d->p; j++) {
        for (size_t i = 0; d->text[j] && i < d->n; i++) free(d->text[j][i]);
        free(d->text[j]);
    }
    free(d->text);
    free(d->names);
    free(d->labels);
    free(d->values);
    free(d->codes);
    free(d->line_of_row);
    free(d->bad);
    free(d->source);
    free(d);
}

/* The table of d (n rows, p columns, of which ncodes as codes) */
static int alloc_table(basel_data *d)
{
    d->values = bsl_malloc(d->n, BSL_MAX(d->p - d->ncodes, (size_t)1) * sizeof *d->values);
    d->line_of_row = bsl_malloc(d->n, sizeof *d->line_of_row);
    d->bad = bsl_calloc(d->p, sizeof *d->bad);
    if (d->label_col >= 0) d->labels = bsl_calloc(d->n, sizeof *d->labels);
    if (!d->values || !d->line_of_row || !d->bad || (d->label_col >= 0 && !d->labels))
        return BASEL_ENOMEM;
    return BASEL_OK;
}

/* ------------------------------------------------------------ subset */

static int check_rows(const basel_data *d, const size_t *rows, size_t nrows, basel_error *err)
{
    if (nrows == 0) return bsl_fail(err, BASEL_EINVAL, "basel_data_subset: no rows asked for");
    for (size_t k = 0; k < nrows; k++)
        if (rows[k] >= d->n)
            return bsl_fail(err, BASEL_EINVAL,
                            "basel_data_subset: row %zu is out of range (the data has %zu rows)",
                            rows[k], d->n);
    return BASEL_OK;
}

/* bad[j] of the subset: its first NaN. The original record is reused when
 * that cell is the one it describes; otherwise its text is gone, but line,
 * column and kind survive in line_of_row and the NaN payload. */
static void subset_bad(basel_data *s, const basel_data *d, const size_t *rows, size_t j)
{
    if (j < s->ncodes) return; /* codes are never missing */
    const double *col = bsl_data_col(s, j);
    for (size_t k = 0; k < s->n; k++) {
        if (!isnan(col[k])) continue;
        bsl_badcell *b = &s->bad[j];
        if (d->bad[j].line && d->bad[j].row == rows[k]) {
            *b = d->bad[j];
        } else {
            bsl_cell_nan_kind(col[k], &b->column);
            b->line = s->line_of_row[k];
            b->text[0] = '\0';
        }
        b->row = k;
        return;
    }
}

static int subset_copy(basel_data *s, const basel_data *d, const size_t *rows)
{
    if (!(s->source = bsl_strdup(d->source))) return BASEL_ENOMEM;
    if (!(s->names = bsl_calloc(d->p, sizeof *s->names))) return BASEL_ENOMEM;
    for (; s->p < d->p; s->p++)
        if (!(s->names[s->p] = bsl_strdup(d->names[s->p]))) return BASEL_ENOMEM;
    s->ncodes = d->ncodes; /* codes stay codes */
    if (s->ncodes && !(s->codes = bsl_malloc(s->n, s->ncodes))) return BASEL_ENOMEM;
    if (alloc_table(s) != BASEL_OK) return BASEL_ENOMEM;
    for (size_t j = 0; j < s->ncodes; j++)
        for (size_t k = 0; k < s->n; k++) s->codes[j * s->n + k] = d->codes[j * d->n + rows[k]];
    for (size_t j = s->ncodes; j < s->p; j++)
        for (size_t k = 0; k < s->n; k++) s->values[(j - s->ncodes) * s->n + k] = bsl_data_at(d, rows[k], j);
    for (size_t k = 0; k < s->n; k++) {
        s->line_of_row[k] = d->line_of_row[rows[k]];
        if (s->labels && !(s->labels[k] = bsl_strdup(d->labels[rows[k]]))) return BASEL_ENOMEM;
    }
    for (size_t j = 0; j < s->p; j++)
        if ((long)j != s->label_col) subset_bad(s, d, rows, j);
    for (size_t j = 0; d->text && j < s->p; j++) {
        if (!d->text[j]) continue;
        if (!s->text && !(s->text = bsl_calloc(s->p, sizeof *s->text))) return BASEL_ENOMEM;
        if (!(s->text[j] = bsl_calloc(s->n, sizeof **s->text))) return BASEL_ENOMEM;
        for (size_t k = 0; k < s->n; k++)
            if (d->text[j][rows[k]] && !(s->text[j][k] = bsl_strdup(d->text[j][rows[k]]))) return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

int basel_data_subset(basel_data **out, const basel_data *d, const size_t *rows, size_t nrows,
                      basel_error *err)
{
    if (out) *out = NULL;
    if (!out || !d || (!rows && nrows))
        return bsl_fail(err, BASEL_EINVAL, "basel_data_subset: NULL argument");
    int rc = check_rows(d, rows, nrows, err);
    if (rc != BASEL_OK) return rc;
    basel_data *s = calloc(1, sizeof *s);
    if (!s) return bsl_fail(err, BASEL_ENOMEM, "out of memory taking a subset");
    s->n = nrows; /* set first: basel_data_free walks labels[0..n) */
    s->label_col = d->label_col;
    if (subset_copy(s, d, rows) != BASEL_OK) {
        basel_data_free(s);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory taking a subset");
    }
    *out = s;
    return BASEL_OK;
}

/* ----------------------------------------------------------- checking */

/* Why the bad cell b of column j is bad: from its NaN if that says, else
 * (a NaN made elsewhere) from its text. */
static int bad_kind(const basel_data *d, size_t j, const bsl_badcell *b)
{
    size_t column;
    int kind = b->row < d->n ? bsl_cell_nan_kind(bsl_data_at(d, b->row, j), &column) : 0;
    if (kind != BSL_CELL_UNKNOWN) return kind;
    if (!b->text[0]) return BSL_CELL_EMPTY;
    char *stop;
    double v = strtod(b->text, &stop);
    return *stop == '\0' && !isfinite(v) ? BSL_CELL_INFINITE : BSL_CELL_TEXT;
}

int bsl_data_check_numeric(const basel_data *d, size_t j, const char *what, basel_error *err)
{
    if (!what) what = "data";
    if (!d || j >= d->p)
        return bsl_fail(err, BASEL_EINVAL, "%s column %zu does not exist", what, j);
    const char *name = d->names[j];
    if ((long)j == d->label_col)
        return bsl_fail(err, BASEL_EINVAL,
                        "%s column '%s' is the label column: it holds labels, not numbers", what,
                        name);
    const bsl_badcell *b = &d->bad[j];
    if (b->line == 0) return BASEL_OK;
    int kind = bad_kind(d, j, b);
    if (kind == BSL_CELL_EMPTY)
        return bsl_fail_at(err, BASEL_EPARSE, d->source, b->line, b->column,
                           "%s column '%s': the value is missing (%zu row%s of this column; --na drop leaves "
                           "such rows out)",
                           what, name, bsl_data_missing_count(d, j), bsl_data_missing_count(d, j) == 1 ? "" : "s");
    const char *why = kind == BSL_CELL_INFINITE ? "is not a finite number" : "is not a number";
    if (!b->text[0]) /* a subset whose first bad cell's text was not kept */
        return bsl_fail_at(err, BASEL_EPARSE, d->source, b->line, b->column,
                           "%s column '%s': the cell %s", what, name, why);
    return bsl_fail_at(err, BASEL_EPARSE, d->source, b->line, b->column,
                       "%s column '%s': '%s' %s", what, name, b->text, why);
}

/* ------------------------------------------------------------ text */

int bsl_data_has_text(const basel_data *d, size_t j)
{
    if (!d->text || !d->text[j]) return 0;
    size_t ntext = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (d->text[j][i]) ntext++;
        else if (!isnan(bsl_data_at(d, i, j))) return 0; /* a number among the text */
    }
    return ntext > 0;
}

const char *bsl_data_cell_text(const basel_data *d, size_t i, size_t j, char *buf, size_t len)
{
    if (d->text && d->text[j] && d->text[j][i]) return d->text[j][i];
    const double v = bsl_data_at(d, i, j);
    if (isnan(v)) return NULL;
    snprintf(buf, len, "%.15g", v);
    return buf;
}

int bsl_data_set_text(basel_data *d, size_t j, const char *const *cells, basel_error *err)
{
    if (!d || j >= d->p || j < d->ncodes || !cells)
        return bsl_fail(err, BASEL_EINVAL, "bsl_data_set_text: bad argument");
    if (!d->text && !(d->text = bsl_calloc(d->p, sizeof *d->text))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!d->text[j] && !(d->text[j] = bsl_calloc(d->n, sizeof **d->text)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    memset(&d->bad[j], 0, sizeof d->bad[j]);
    for (size_t i = 0; i < d->n; i++) {
        free(d->text[j][i]);
        d->text[j][i] = NULL;
        if (!cells[i] || !*cells[i] || strcmp(cells[i], "NA") == 0) {
            d->values[(j - d->ncodes) * d->n + i] = bsl_data_missing_value(0);
            continue;
        }
        if (!(d->text[j][i] = bsl_strdup(cells[i]))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        d->values[(j - d->ncodes) * d->n + i] = bsl_cell_nan(BSL_CELL_TEXT, 0);
        if (d->bad[j].line == 0) {
            d->bad[j].row = i;
            d->bad[j].line = i + 1;
            snprintf(d->bad[j].text, sizeof d->bad[j].text, "%s", cells[i]);
        }
    }
    return BASEL_OK;
}

/* ------------------------------------------------------ missing values */

double bsl_data_missing_value(int infinite)
{
    return bsl_cell_nan(infinite ? BSL_CELL_INFINITE : BSL_CELL_EMPTY, 0);
}

int bsl_data_is_missing(const basel_data *d, size_t i, size_t j)
{
    size_t column;
    const double v = bsl_data_at(d, i, j);
    return isnan(v) && bsl_cell_nan_kind(v, &column) == BSL_CELL_EMPTY;
}

size_t bsl_data_cell_column(const basel_data *d, size_t i, size_t j)
{
    size_t column;
    bsl_cell_nan_kind(bsl_data_at(d, i, j), &column);
    return column;
}

size_t bsl_data_missing_count(const basel_data *d, size_t j)
{
    size_t count = 0;
    for (size_t i = 0; i < d->n; i++) count += (size_t)bsl_data_is_missing(d, i, j);
    return count;
}

int bsl_data_check_present(const basel_data *d, size_t j, const char *what, basel_error *err)
{
    if (!what) what = "data";
    if ((long)j == d->label_col || d->bad[j].line == 0) return bsl_data_check_numeric(d, j, what, err);
    for (size_t i = 0; i < d->n; i++) {
        size_t column;
        const double v = bsl_data_at(d, i, j);
        if (!isnan(v)) continue;
        const int kind = bsl_cell_nan_kind(v, &column);
        if (kind == BSL_CELL_EMPTY) continue;
        if (d->bad[j].row == i) return bsl_data_check_numeric(d, j, what, err); /* its text is kept */
        return bsl_fail_at(err, BASEL_EPARSE, d->source, d->line_of_row[i], column, "%s column '%s': the cell %s",
                           what, d->names[j], kind == BSL_CELL_INFINITE ? "is not a finite number" : "is not a number");
    }
    return BASEL_OK;
}
