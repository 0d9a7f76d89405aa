/*
 * cli_rows.c: fit --row-blocks, summary statistics made from blocks of rows
 * (README "More than one machine"). For n too large for one machine: each
 * process reads only its block of the training file's rows, and holds only
 * that block; the linear models of enumerate, bd, rj and ssvs need nothing
 * of the rows but the centred X'X, X'y, y'y and n (docs/SUMMARY_STATS.md),
 * which are sums over rows and so add up over blocks.
 *
 * Two passes over the block, each ended by a sum over the processes
 * (cli_par_reduce): the count and the column sums, whose totals give the
 * means of all the rows; then the cross products centred about those
 * means (basel_data_crossprod). Every process then runs the same fit on the
 * same statistics (its chains spread over the processes as any fit's), and
 * rank 0 writes it. In one process the block is the whole file.
 *
 * Blocks split the bytes after the header evenly; a row belongs to the
 * block its first byte falls in, so a row must be one line (no newline
 * inside a quoted field). Messages name the file's own line numbers.
 *
 * So that no process waits for one that failed, every process makes the
 * same sums in the same order whatever happened, with a failure flag in the
 * first one: a failure anywhere ends every process's fit with exit status 2.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One process's block of the file: the header line and its rows. */
typedef struct block {
    char *text;
    size_t len;
    long start;   /* the byte offset of its first row in the file */
    char name[300];
} block;

/* The offset of the first line that starts at or after at (a line starts
 * right after a newline); end when none does before it. */
static long line_start(FILE *f, long at, long header_end, long end)
{
    if (at <= header_end) return header_end;
    if (fseek(f, at - 1, SEEK_SET)) return end;
    int c;
    long pos = at - 1;
    while ((c = fgetc(f)) != EOF) {
        pos++;
        if (c == '\n') return pos;
    }
    return end;
}

static int read_block(block *b, const char *path, int rank, int size, basel_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err->message, sizeof err->message, "%s: cannot open: %s", path, strerror(errno)), BASEL_EIO;
    int c;
    long header_end = 0;
    while ((c = fgetc(f)) != EOF && c != '\n') header_end++;
    header_end += c == '\n';
    fseek(f, 0, SEEK_END);
    const long end = ftell(f);
    const double span = (double)(end - header_end);
    const long a = line_start(f, header_end + (long)(span * rank / size), header_end, end);
    const long z = rank + 1 == size ? end : line_start(f, header_end + (long)(span * (rank + 1) / size), header_end, end);
    int rc = BASEL_OK;
    if (z <= a) {
        snprintf(err->message, sizeof err->message, "%s: too few rows for %d processes (process %d has none)", path,
                 size, rank);
        rc = BASEL_EINVAL;
    } else if (!(b->text = malloc((size_t)(header_end + (z - a)) + 1))) {
        snprintf(err->message, sizeof err->message, "out of memory reading %ld bytes of %s", z - a, path);
        rc = BASEL_ENOMEM;
    } else {
        b->len = (size_t)(header_end + (z - a));
        fseek(f, 0, SEEK_SET);
        const size_t got = fread(b->text, 1, (size_t)header_end, f);
        fseek(f, a, SEEK_SET);
        if (got != (size_t)header_end || fread(b->text + header_end, 1, (size_t)(z - a), f) != (size_t)(z - a)) {
            snprintf(err->message, sizeof err->message, "%s: cannot read", path);
            rc = BASEL_EIO;
        }
        b->text[b->len] = 0;
        b->start = a;
    }
    fclose(f);
    if (rc) {
        err->code = rc;
        err->file[0] = 0;
        err->line = err->column = 0;
    }
    return rc;
}

/* A message about the block names the file and its line there: the
 * block's line i (the header is line 1) is the file's line L + i - 2,
 * with L the line the block starts on. */
static void file_lines(basel_error *err, const block *b, const char *path)
{
    if (strcmp(err->file, b->name)) return;
    snprintf(err->file, sizeof err->file, "%s", path);
    if (err->line < 2) return;
    FILE *f = fopen(path, "rb");
    size_t line = 1;
    int c;
    for (long at = 0; f && at < b->start && (c = fgetc(f)) != EOF; at++) line += c == '\n';
    if (f) fclose(f);
    err->line += line - 2;
}

/* The target (option target, else the last column) and the inputs (option
 * inputs, a comma-separated list, else every other column) as column
 * numbers, inputs first: cols[0 .. k - 1), target cols[k - 1]. */
static int pick_columns(const basel_data *d, const basel_options *o, size_t *cols, size_t *k, basel_error *err)
{
    const size_t p = basel_data_cols(d);
    const char *t = basel_options_get(o, "target"), *in = basel_options_get(o, "inputs");
    const long target = t && *t ? basel_data_find(d, t) : (long)p - 1;
    err->code = BASEL_EINVAL;
    if (target < 0) return snprintf(err->message, sizeof err->message, "--target %s: no such column", t), BASEL_EINVAL;
    *k = 0;
    if (!in || !*in) {
        for (size_t j = 0; j < p; j++)
            if ((long)j != target) cols[(*k)++] = j;
    } else {
        for (const char *s = in; *s;) {
            const size_t len = strcspn(s, ",");
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(len < 255 ? len : 255), s);
            const long j = basel_data_find(d, name);
            if (j < 0 || j == target || *k >= p)
                return snprintf(err->message, sizeof err->message, "--inputs: '%s' is not an input column", name),
                       BASEL_EINVAL;
            cols[(*k)++] = (size_t)j;
            s += len + (s[len] == ',');
        }
    }
    if (*k == 0) return snprintf(err->message, sizeof err->message, "no input columns"), BASEL_EINVAL;
    cols[(*k)++] = (size_t)target;
    err->code = BASEL_OK;
    return BASEL_OK;
}

/* Sum x[0 .. n) over the processes, x[0] being a failure flag (set here
 * from rc); BASEL_EINVAL when another process failed. A process > 0 that
 * failed itself says why on its own stderr (cli_par_say), since rank 0
 * only learns that it failed. */
static int reduce_checked(double *x, size_t n, int rc, basel_error *err, const block *b, const char *path)
{
    file_lines(err, b, path);
    if (rc && cli_par_rank() > 0) cli_par_say(err);
    x[0] = rc ? 1 : 0;
    if (cli_par_reduce(x, n, 0) && !rc) {
        snprintf(err->message, sizeof err->message, "the sums over the processes failed");
        rc = err->code = BASEL_EIO;
    }
    if (!rc && x[0] > 0) {
        snprintf(err->message, sizeof err->message, "another process could not make its block's statistics");
        err->file[0] = 0;
        err->line = err->column = 0;
        rc = err->code = BASEL_EINVAL;
    }
    return rc;
}

/* Pass 1: n and the column sums into sums[1 .. k + 2) (the means of all
 * rows afterwards); a column of the block that is not all numbers is named
 * with its first bad cell. */
static int pass_sums(const basel_data *d, const size_t *cols, size_t k, double *sums, basel_error *err,
                     const block *b, const char *path)
{
    const size_t n = basel_data_rows(d);
    int rc = BASEL_OK;
    sums[1] = (double)n;
    for (size_t a = 0; a < k; a++) {
        double s = 0;
        for (size_t i = 0; i < n; i++) s += basel_data_value(d, i, cols[a]);
        sums[2 + a] = s;
        if (!rc && !isfinite(s)) { /* the reader kept the cell: have it named */
            double zero = 0, one;
            rc = basel_data_crossprod(d, cols + a, 1, &zero, &one, err);
            if (!rc) {
                snprintf(err->message, sizeof err->message, "column '%s' sums to a value that is not finite",
                         basel_data_name(d, cols[a]));
                rc = err->code = BASEL_EINVAL;
            }
        }
    }
    rc = reduce_checked(sums, k + 2, rc, err, b, path);
    for (size_t a = 0; !rc && a < k; a++) sums[2 + a] /= sums[1];
    return rc;
}

/* The statistics of cols (inputs, then the target) over every process's
 * rows, from this process's block d, and the fit on them; sums (k + 2) and
 * cross (k k + 1) are allocated, and every process has the same k. */
static int fit_stats(basel_fit **fit, const basel_data *d, const size_t *cols, size_t k, double *sums,
                     double *cross, const block *b, const char *path, const basel_options *o, basel_error *err)
{
    const size_t p = k - 1;
    int rc = pass_sums(d, cols, k, sums, err, b, path);
    if (rc) return rc;
    /* pass 2: the cross products about the means of all rows */
    rc = basel_data_crossprod(d, cols, k, sums + 2, cross + 1, err);
    if ((rc = reduce_checked(cross, k * k + 1, rc, err, b, path))) return rc;
    const char **names = malloc(p * sizeof *names);
    double *xty = malloc(p * sizeof *xty);
    double *C = cross + 1;
    const double yty = C[p + p * k];
    if (!names || !xty) {
        snprintf(err->message, sizeof err->message, "out of memory");
        rc = err->code = BASEL_ENOMEM;
    }
    for (size_t j = 0; !rc && j < p; j++) {
        names[j] = basel_data_name(d, cols[j]);
        xty[j] = C[p + j * k];
    }
    /* X'X is C's leading p x p block: packed in place (entry (i, j) moves
     * from i + j k down to i + j p, never over one not yet moved), so that
     * no second p x p copy is held (8 p^2 bytes: 200 MB at p = 5000) */
    for (size_t j = 0; !rc && j < p; j++)
        for (size_t i = 0; i < p; i++) C[i + j * p] = C[i + j * k];
    const double *xtx = C;
    const basel_stats st = {path, (size_t)sums[1], p, names, basel_data_name(d, cols[p]), xtx, xty,
                            yty, sums + 2, sums[2 + p]};
    if (!rc) rc = basel_fit_run_stats_mem(fit, &st, o, err);
    free(names);
    free(xty);
    return rc;
}

int cli_rows_fit(basel_fit **fit, const char *path, const basel_options *o, basel_error *err)
{
    *fit = NULL;
    memset(err, 0, sizeof *err);
    block b = {0};
    snprintf(b.name, sizeof b.name, "%s (block of rank %d)", path, cli_par_rank());
    basel_data *d = NULL;
    int rc = read_block(&b, path, cli_par_rank(), cli_par_size(), err);
    if (!rc) rc = basel_data_read_buffer(&d, b.name, b.text, b.len, NULL, err);
    free(b.text);
    b.text = NULL;
    size_t *cols = d ? malloc(basel_data_cols(d) * sizeof *cols) : NULL, k = 0;
    if (!rc && !cols) rc = err->code = BASEL_ENOMEM;
    int local = rc; /* a failure of this block (the options fail alike everywhere) */
    if (!rc) rc = pick_columns(d, o, cols, &k, err);
    double *sums = NULL, *cross = NULL;
    if (!rc && (!(sums = calloc(k + 2, sizeof *sums)) || !(cross = malloc((k * k + 1) * sizeof *cross)))) {
        snprintf(err->message, sizeof err->message, "out of memory (%zu x %zu cross products)", k, k);
        rc = err->code = BASEL_ENOMEM;
    }
    file_lines(err, &b, path);
    /* every process goes on only if all read their block and found the
     * same columns (the same header), so that the sums below match */
    if (local && cli_par_rank() > 0) cli_par_say(err);
    double shape[3] = {rc ? 1 : 0, (double)k, -(double)k};
    if (cli_par_reduce(shape, 3, 1) && !rc) rc = err->code = BASEL_EIO;
    if (!rc && (shape[0] > 0 || shape[1] != -shape[2])) {
        snprintf(err->message, sizeof err->message, shape[0] > 0 ? "another process could not read its block of %s"
                                                                  : "the processes found different columns in %s", path);
        rc = err->code = BASEL_EINVAL;
    }
    if (!rc) rc = fit_stats(fit, d, cols, k, sums, cross, &b, path, o, err);
    file_lines(err, &b, path);
    free(sums);
    free(cross);
    free(cols);
    basel_data_free(d);
    return rc;
}
