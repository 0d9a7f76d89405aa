/*
 * csv.c: the CSV reader behind basel_data, and the data handle's accessors.
 *
 * Format: RFC 4180 with a header row of column names, comma separated; LF or
 * CRLF line ends, or CR alone when the first line ends so (one kind per
 * file); a UTF-8 byte-order mark is skipped; blank lines at the end are
 * ignored. A field that starts (after blanks) with '"' is quoted: it may
 * hold commas, newlines and doubled quotes, and only blanks may follow its
 * closing quote. Unquoted fields lose their surrounding blanks (space, tab);
 * quoted ones are kept as written, except that a number may have blanks
 * around it. A line holds at most BSL_CSV_MAX_LINE bytes and a field at
 * most BSL_CSV_MAX_FIELD (io.h). A header of one unquoted column holding ';'
 * or a tab is refused with a hint about the delimiter. Positions in
 * messages are 1-based lines and 1-based character columns (UTF-8
 * characters, counted from the start of the line after the BOM); a cell's
 * position is where its field starts, right after the comma.
 *
 * A guard (below) reads the text first, as it streams in, and stops the
 * reading at the first sign that the input is not a table: a NUL byte
 * (binary data), a line or field past its limit, a quote never closed.
 * Such input is refused after at most a line's worth of memory; a
 * well-formed table is still read whole. Parsing then makes two passes over
 * the text with one tokenizer: the first checks the shape (quotes, NUL
 * bytes, field counts) and counts the rows, so the second can write numbers
 * straight into an n x p column-major array. Memory is therefore the text
 * plus the numbers; there is no allocation per cell.
 *
 * Invariant of every basel_data made here: n >= 1, p >= 1, names non-empty
 * and distinct; a value is finite, or NaN. In a non-label column a NaN always
 * marks a bad cell and carries, in its payload, why the cell is bad and the
 * character column where it starts (cell_nan); that is what lets
 * basel_data_subset rebuild bad[] without the source text. bad[j].line is 0
 * exactly when column j holds no NaN. The label column is all plain NaN and
 * never bad.
 */
#include "io.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- bad cells */

/* Why a cell is not a number; stored in the NaN that replaces it. */
enum { CELL_UNKNOWN = 0, CELL_EMPTY = 1, CELL_TEXT = 2, CELL_INFINITE = 3 };

#define NAN_QUIET 0x7ff8000000000000ULL
#define NAN_KIND_SHIFT 48
#define NAN_COLUMN_MASK ((1ULL << NAN_KIND_SHIFT) - 1)

/* A quiet NaN with kind in payload bits 48-49 and the cell's column in bits
 * 0-47 (0 when the column does not fit). Copies keep the payload; only
 * arithmetic would lose it, and nothing computes with these cells. */
static double cell_nan(int kind, size_t column)
{
    uint64_t col = (uint64_t)column <= NAN_COLUMN_MASK ? (uint64_t)column : 0;
    uint64_t bits = NAN_QUIET | ((uint64_t)kind << NAN_KIND_SHIFT) | col;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The kind (CELL_*) and column stored by cell_nan; CELL_UNKNOWN for any
 * other NaN. */
static int cell_nan_kind(double v, size_t *column)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    *column = 0;
    if (!isnan(v) || (bits & ~(3ULL << NAN_KIND_SHIFT) & ~NAN_COLUMN_MASK) != NAN_QUIET)
        return CELL_UNKNOWN;
    *column = (size_t)(bits & NAN_COLUMN_MASK);
    return (int)((bits >> NAN_KIND_SHIFT) & 3);
}

/* ------------------------------------------------------------ numbers */

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* Clinger's fast path: a decimal with at most 19 significant digits whose
 * mantissa fits in 53 bits and whose power of ten is at most 22 is exactly
 * m * 10^e or m / 10^e, one correctly rounded operation, hence the same
 * double as strtod. It takes nearly every cell of a numeric CSV and makes
 * reading one about three times faster than glibc's strtod alone (1.1 s
 * instead of 3.4 s for 20000 x 1000); anything else returns 0 for strtod.
 * Needs double arithmetic without excess precision (FLT_EVAL_METHOD 0). */
static int parse_simple(const char *s, size_t len, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s, *end = s + len;
    int neg = p < end && *p == '-';
    if (p < end && (*p == '-' || *p == '+')) p++;
    uint64_t m = 0;
    int sig = 0, ndigits = 0;
    long scale = 0;
    for (int frac = 0; p < end; p++) {
        if (*p == '.' && !frac) {
            frac = 1;
            continue;
        }
        if (*p < '0' || *p > '9') break;
        ndigits++;
        if (m == 0 && *p == '0') {
            scale -= frac;
            continue;
        }
        if (++sig > 19) return 0;
        m = m * 10 + (uint64_t)(*p - '0');
        scale -= frac;
    }
    if (ndigits == 0) return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int eneg = p < end && *p == '-';
        if (p < end && (*p == '-' || *p == '+')) p++;
        if (p == end) return 0;
        long ex = 0;
        for (; p < end && *p >= '0' && *p <= '9'; p++)
            if ((ex = ex * 10 + (*p - '0')) > 10000) return 0;
        scale += eneg ? -ex : ex;
    }
    if (p != end || m > (1ULL << 53) || scale < -22 || scale > 22) return 0;
    double v = (double)m;
    v = scale < 0 ? v / pow10[-scale] : v * pow10[scale];
    *out = neg ? -v : v;
    return 1;
#else
    (void)s, (void)len, (void)out;
    return 0;
#endif
}

/* Scratch space for strtod, which needs a NUL-terminated copy. */
typedef struct scratch {
    char *buf;
    size_t cap;
} scratch;

/* Parse s[0..len) as a whole number with blanks around it allowed. Returns
 * CELL_EMPTY, CELL_TEXT, CELL_INFINITE, 0 with *out set, or -1 (no memory). */
static int parse_number(const char *s, size_t len, double *out, scratch *w)
{
    while (len && is_blank(*s)) {
        s++;
        len--;
    }
    while (len && is_blank(s[len - 1])) len--;
    if (len == 0) return CELL_EMPTY;
    if (len == 2 && s[0] == 'N' && s[1] == 'A') return CELL_EMPTY; /* R's missing value */
    /* strtod would skip these too; only blanks may surround a number */
    if (*s == '\n' || *s == '\r' || *s == '\v' || *s == '\f') return CELL_TEXT;
    if (parse_simple(s, len, out)) return 0;
    void *buf = w->buf;
    if (bsl_grow(&buf, &w->cap, len + 1, 1) != 0) return -1;
    w->buf = buf;
    memcpy(w->buf, s, len);
    w->buf[len] = '\0';
    char *stop;
    double v = strtod(w->buf, &stop);
    if (stop != w->buf + len) return CELL_TEXT;
    if (!isfinite(v)) return CELL_INFINITE; /* nan, inf, 1e999 */
    *out = v;
    return 0;
}

/* ---------------------------------------------------------- tokenizer */

/* Where the tokenizer is. pos..end is what is left of the text. */
typedef struct scanner {
    const char *pos, *end;
    const char *line_start; /* first byte of the current line */
    size_t line;            /* 1-based */
    const char *source;
    basel_error *err;
    const char *memo_at; /* column_of's last answer, so that a row's columns */
    size_t memo_col;     /* cost one walk along the line, not one per cell */
} scanner;

/* One field as it sits in the text. */
typedef struct field {
    const char *start;      /* first byte, just after the separator */
    const char *line_start; /* start of the line the field starts on */
    size_t line;
    const char *body; /* unquoted: trimmed text; quoted: between the quotes */
    size_t len;
    int escaped; /* quoted body holding doubled quotes */
    int last;    /* the field ends its record */
} field;

/* 1-based character column of at, on the line starting at line_start. UTF-8
 * continuation bytes do not start a character. */
static size_t column_of(scanner *s, const char *line_start, const char *at)
{
    const char *from = line_start;
    size_t col = 1;
    if (s->memo_at && s->memo_at >= line_start && s->memo_at <= at) {
        from = s->memo_at;
        col = s->memo_col;
    }
    for (; from < at; from++) col += ((unsigned char)*from & 0xC0) != 0x80;
    s->memo_at = at;
    s->memo_col = col;
    return col;
}

static int fail_nul(scanner *s, const char *at)
{
    return bsl_fail_at(s->err, BASEL_EPARSE, s->source, s->line, column_of(s, s->line_start, at),
                       "the text contains a NUL byte (is this a binary file?)");
}

/* Step past the terminator at r (a comma, a newline, or the end). */
static int finish_field(scanner *s, field *f, const char *r)
{
    f->last = r == s->end || *r == '\n';
    s->pos = r == s->end ? r : r + 1;
    if (r != s->end && *r == '\n') {
        s->line++;
        s->line_start = s->pos;
    }
    return BASEL_OK;
}

static int scan_unquoted(scanner *s, field *f, const char *q)
{
    const char *r = q;
    while (r < s->end && *r != ',' && *r != '\n' && *r != '\0') r++;
    if (r < s->end && *r == '\0') return fail_nul(s, r);
    const char *e = r;
    if (r < s->end && *r == '\n' && e > q && e[-1] == '\r') e--;
    while (e > q && is_blank(e[-1])) e--;
    f->body = q;
    f->len = (size_t)(e - q);
    f->escaped = 0;
    return finish_field(s, f, r);
}

/* A quoted field from its opening quote; newlines inside count as lines. */
static int scan_quoted(scanner *s, field *f, const char *quote)
{
    const char *r = quote + 1;
    int escaped = 0;
    for (;; r++) {
        while (r < s->end && *r != '"' && *r != '\n' && *r != '\0') r++;
        if (r == s->end)
            return bsl_fail_at(s->err, BASEL_EPARSE, s->source, f->line,
                               column_of(s, f->line_start, quote),
                               "unterminated quoted field: this quote is never closed");
        if (*r == '\0') return fail_nul(s, r);
        if (*r == '\n') {
            s->line++;
            s->line_start = r + 1;
        } else if (r + 1 < s->end && r[1] == '"') {
            escaped = 1;
            r++;
        } else {
            break; /* the closing quote */
        }
    }
    f->body = quote + 1;
    f->len = (size_t)(r - (quote + 1));
    f->escaped = escaped;
    const char *t = r + 1;
    while (t < s->end && is_blank(*t)) t++;
    if (t + 1 < s->end && t[0] == '\r' && t[1] == '\n') t++;
    if (t < s->end && *t == '\0') return fail_nul(s, t);
    if (t < s->end && *t != ',' && *t != '\n')
        return bsl_fail_at(s->err, BASEL_EPARSE, s->source, s->line,
                           column_of(s, s->line_start, t),
                           "unexpected text after the closing quote of a field");
    return finish_field(s, f, t);
}

/* Read the field at s->pos. After a comma there is always one more field,
 * possibly empty, even at the end of the text. */
static int next_field(scanner *s, field *f)
{
    f->start = s->pos;
    f->line = s->line;
    f->line_start = s->line_start;
    const char *q = s->pos;
    while (q < s->end && is_blank(*q)) q++;
    if (q < s->end && *q == '"') return scan_quoted(s, f, q);
    return scan_unquoted(s, f, q);
}

static size_t field_column(scanner *s, const field *f)
{
    return column_of(s, f->line_start, f->start);
}

/* Copy a field's text (quotes undoubled) into dst: at most cap - 1 bytes,
 * then a NUL. */
static void field_copy(const field *f, char *dst, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < f->len && k + 1 < cap; i++) {
        if (f->escaped && f->body[i] == '"') i++; /* "" stands for one quote */
        dst[k++] = f->body[i];
    }
    dst[k] = '\0';
}

static char *field_strdup(const field *f)
{
    char *c = malloc(f->len + 1);
    if (c) field_copy(f, c, f->len + 1);
    return c;
}

/* Skip a UTF-8 BOM and drop trailing blank lines, so that the text either
 * is empty or ends in something that is not blank. */
static void scan_init(scanner *s, const char *source, const char *text, size_t len,
                      basel_error *err)
{
    memset(s, 0, sizeof *s);
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    while (len && (is_blank(text[len - 1]) || text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    s->pos = s->line_start = text;
    s->end = text + len;
    s->line = 1;
    s->source = source;
    s->err = err;
}

/* ------------------------------------------------------------- header */

typedef struct name_pos {
    const char *name;
    size_t index, line, column;
} name_pos;

static int by_name_then_index(const void *a, const void *b)
{
    const name_pos *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Fail on the duplicate name whose second use comes first in the header.
 * Sorting keeps this O(p log p) for very wide files. */
static int check_unique(scanner *s, name_pos *np, size_t p)
{
    qsort(np, p, sizeof *np, by_name_then_index);
    size_t best = 0; /* position in np of the earliest repeat, 0 = none */
    for (size_t k = 1; k < p; k++) /* the earliest repeat is second in its group */
        if (strcmp(np[k].name, np[k - 1].name) == 0 && (!best || np[k].index < np[best].index))
            best = k;
    if (!best) return BASEL_OK;
    const name_pos *first = &np[best - 1], *again = &np[best];
    return bsl_fail_at(s->err, BASEL_EPARSE, s->source, again->line, again->column,
                       "duplicate column name '%s' (at %zu:%zu and again at %zu:%zu)",
                       again->name, first->line, first->column, again->line, again->column);
}

/* A header of one unquoted column whose name holds a ';' or a tab is a file
 * with another delimiter: say so rather than let a later step complain
 * that there are no inputs. */
static int header_hint(scanner *s, const basel_data *d)
{
    if (d->p != 1) return BASEL_OK;
    const char *name = d->names[0];
    const char *delim = strchr(name, ';') ? "';'" : strchr(name, '\t') ? "a tab" : NULL;
    if (!delim) return BASEL_OK;
    char shown[48]; /* the name's start, a tab written \t */
    size_t k = 0;
    const char *c = name;
    for (; *c && k + 3 < sizeof shown; c++) {
        if (*c == '\t') shown[k++] = '\\';
        shown[k++] = *c == '\t' ? 't' : (unsigned char)*c < 0x20 ? '?' : *c;
    }
    shown[k] = '\0';
    return bsl_fail_at(s->err, BASEL_EPARSE, s->source, 1, 1,
                       "the header has one column, '%s%s'; is the delimiter %s? basel reads "
                       "comma-separated files",
                       shown, *c ? "..." : "", delim);
}

/* Read the header into d->names (d->p counts the names stored so far, so a
 * failure half-way is freed by basel_data_free) and check the names. */
static int read_header(scanner *s, basel_data *d)
{
    name_pos *np = NULL;
    size_t names_cap = 0, np_cap = 0;
    field f;
    int rc;
    do {
        if ((rc = next_field(s, &f)) != BASEL_OK) goto done;
        size_t col = field_column(s, &f);
        if (f.len == 0) {
            rc = bsl_fail_at(s->err, BASEL_EPARSE, s->source, f.line, col,
                             "empty column name (header field %zu)", d->p + 1);
            goto done;
        }
        void *names = d->names, *pos = np;
        int grown = bsl_grow(&names, &names_cap, d->p + 1, sizeof *d->names);
        d->names = names;
        grown |= bsl_grow(&pos, &np_cap, d->p + 1, sizeof *np);
        np = pos;
        char *name = grown ? NULL : field_strdup(&f);
        if (!name) {
            rc = bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s", s->source);
            goto done;
        }
        np[d->p] = (name_pos){name, d->p, f.line, col};
        d->names[d->p++] = name;
    } while (!f.last);
    rc = check_unique(s, np, d->p);
    const int quoted = f.body > f.start && f.body[-1] == '"';
    if (rc == BASEL_OK && !quoted) rc = header_hint(s, d);
done:
    free(np);
    return rc;
}

static int find_label(scanner *s, basel_data *d, const char *label_column)
{
    d->label_col = -1;
    if (!label_column) return BASEL_OK;
    if (!*label_column) { /* "" names the last column (basel.h) */
        d->label_col = (long)d->p - 1;
        return BASEL_OK;
    }
    long j = basel_data_find(d, label_column);
    if (j < 0)
        return bsl_fail_at(s->err, BASEL_EPARSE, s->source, 1, 1,
                           "the label column '%s' is not in the header", label_column);
    d->label_col = j;
    return BASEL_OK;
}

/* --------------------------------------------------------------- rows */

static int ragged(scanner *s, size_t line, size_t column, size_t k, size_t p)
{
    return bsl_fail_at(s->err, BASEL_EPARSE, s->source, line, column,
                       "row has %zu field%s, the header has %zu", k, k == 1 ? "" : "s", p);
}

/* First pass: every record has p fields; count them. A short row is
 * reported at its start, a long one at its first extra field. */
static int count_rows(scanner *s, size_t p, size_t *n)
{
    *n = 0;
    while (s->pos < s->end) {
        size_t line = s->line, k = 0, extra_line = 0, extra_col = 0;
        field f;
        do {
            int rc = next_field(s, &f);
            if (rc != BASEL_OK) return rc;
            if (++k == p + 1) {
                extra_line = f.line;
                extra_col = field_column(s, &f);
            }
        } while (!f.last);
        if (k < p) return ragged(s, line, 1, k, p);
        if (k > p) return ragged(s, extra_line, extra_col, k, p);
        ++*n;
    }
    return BASEL_OK;
}

/* The first bad cell of column j: remember where it is and what it says.
 * Control characters become '?' so that the message stays on one line, and
 * truncation never splits a UTF-8 character. */
static void record_bad(basel_data *d, size_t i, size_t j, const field *f, size_t column)
{
    bsl_badcell *b = &d->bad[j];
    char tmp[sizeof b->text + 1];
    field_copy(f, tmp, sizeof tmp);
    size_t len = strlen(tmp);
    while (len && is_blank(tmp[len - 1])) len--;
    size_t lead = 0;
    while (lead < len && is_blank(tmp[lead])) lead++;
    len -= lead;
    if (len >= sizeof b->text) { /* truncated: cut at a character boundary */
        len = sizeof b->text - 1;
        while (len && ((unsigned char)tmp[lead + len] & 0xC0) == 0x80) len--;
    }
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)tmp[lead + k];
        b->text[k] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    b->text[len] = '\0';
    b->row = i;
    b->line = f->line;
    b->column = column;
}

/* A text cell's text, kept for categorical inputs (problem.c decides
 * whether the column is one); the column's array is made on its first
 * text cell, so numeric tables pay nothing. */
static int keep_text(basel_data *d, size_t i, size_t j, const field *f)
{
    if (!d->text && !(d->text = bsl_calloc(d->p, sizeof *d->text))) return BASEL_ENOMEM;
    if (!d->text[j] && !(d->text[j] = bsl_calloc(d->n, sizeof **d->text))) return BASEL_ENOMEM;
    char *t = field_strdup(f);
    if (!t) return BASEL_ENOMEM;
    size_t len = strlen(t), lead = 0;
    while (len && is_blank(t[len - 1])) t[--len] = '\0';
    while (lead < len && is_blank(t[lead])) lead++;
    memmove(t, t + lead, len - lead + 1);
    d->text[j][i] = t;
    return BASEL_OK;
}

static int store_number(scanner *s, basel_data *d, size_t i, size_t j, const field *f,
                        scratch *w)
{
    double v = 0;
    /* a doubled quote is never part of a number */
    int kind = f->escaped ? CELL_TEXT : parse_number(f->body, f->len, &v, w);
    if (kind < 0) return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s", s->source);
    if (kind != 0) {
        size_t col = field_column(s, f);
        v = cell_nan(kind, col);
        if (d->bad[j].line == 0) record_bad(d, i, j, f, col);
        if (kind == CELL_TEXT && keep_text(d, i, j, f))
            return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s", s->source);
    }
    d->values[j * d->n + i] = v;
    return BASEL_OK;
}

static int store_label(scanner *s, basel_data *d, size_t i, const field *f)
{
    d->values[(size_t)d->label_col * d->n + i] = NAN;
    if (!(d->labels[i] = field_strdup(f)))
        return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s", s->source);
    return BASEL_OK;
}

/* Second pass over text that count_rows has accepted: fill the table. */
static int fill_rows(scanner *s, basel_data *d)
{
    scratch w = {NULL, 0};
    int rc = BASEL_OK;
    for (size_t i = 0; i < d->n && rc == BASEL_OK; i++) {
        d->line_of_row[i] = s->line;
        field f = {0};
        for (size_t j = 0; j < d->p && rc == BASEL_OK; j++) {
            rc = next_field(s, &f);
            if (rc != BASEL_OK) break;
            if ((long)j == d->label_col)
                rc = store_label(s, d, i, &f);
            else
                rc = store_number(s, d, i, j, &f, &w);
        }
        if (rc == BASEL_OK && !f.last)
            rc = bsl_fail(s->err, BASEL_EINTERNAL, "csv: second pass disagrees with the first");
    }
    free(w.buf);
    return rc;
}

static int alloc_table(basel_data *d)
{
    d->values = bsl_malloc(d->n, d->p * sizeof *d->values);
    d->line_of_row = bsl_malloc(d->n, sizeof *d->line_of_row);
    d->bad = bsl_calloc(d->p, sizeof *d->bad);
    if (d->label_col >= 0) d->labels = bsl_calloc(d->n, sizeof *d->labels);
    if (!d->values || !d->line_of_row || !d->bad || (d->label_col >= 0 && !d->labels))
        return BASEL_ENOMEM;
    return BASEL_OK;
}

static int parse_body(scanner *s, basel_data *d, const char *label_column)
{
    int rc;
    if (s->pos == s->end)
        return bsl_fail_at(s->err, BASEL_EPARSE, s->source, 1, 1, "file is empty");
    if ((rc = read_header(s, d)) != BASEL_OK) return rc;
    if ((rc = find_label(s, d, label_column)) != BASEL_OK) return rc;
    scanner rows = *s;
    if ((rc = count_rows(&rows, d->p, &d->n)) != BASEL_OK) return rc;
    if (d->n == 0)
        return bsl_fail_at(s->err, BASEL_EPARSE, s->source, s->line + (s->pos > s->line_start),
                           1, "no data rows after the header");
    if (alloc_table(d) != BASEL_OK)
        return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s (%zu rows, %zu columns)",
                        s->source, d->n, d->p);
    return fill_rows(s, d);
}

/* Parse text that the guard below has passed: the tables of both passes. */
static int parse_text(basel_data **out, const char *source, const char *text, size_t len,
                      const char *label_column, basel_error *err)
{
    *out = NULL;
    basel_data *d = calloc(1, sizeof *d);
    if (!d || !(d->source = bsl_strdup(source))) {
        free(d);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s", source);
    }
    d->label_col = -1;
    scanner s;
    scan_init(&s, d->source, text ? text : "", text ? len : 0, err);
    int rc = parse_body(&s, d, label_column);
    if (rc != BASEL_OK) {
        basel_data_free(d);
        return rc;
    }
    bsl_error_clear(err);
    *out = d;
    return BASEL_OK;
}

/* The errors a whole parse would report inside text[0, len), a run of
 * complete records: the header's and the rows' shape. BASEL_OK if none. */
static int check_prefix(const char *source, const char *text, size_t len, basel_error *err)
{
    basel_data d = {.label_col = -1};
    scanner s;
    scan_init(&s, source, text, len, err);
    if (s.pos == s.end) return BASEL_OK;
    int rc = read_header(&s, &d);
    size_t n;
    if (rc == BASEL_OK) rc = count_rows(&s, d.p, &n);
    for (size_t j = 0; j < d.p; j++) free(d.names[j]);
    free(d.names);
    return rc;
}

/* ------------------------------------------------------------- guard */

/* The guard reads the text once as it streams in, before anything is kept
 * per row, and stops the reading as soon as what has arrived is certain to
 * be rejected: a NUL byte (binary data: /dev/zero fails at 1:1 instead of
 * filling the memory), a line longer than BSL_CSV_MAX_LINE bytes, a field
 * longer than BSL_CSV_MAX_FIELD bytes, a one-column header holding ';' or a
 * tab, CR and LF line ends in one file. It follows quotes as the tokenizer
 * does, so a field or a record is what the parser will see. It also finds
 * the line ends: a file whose first line ends in CR alone (classic Mac) is
 * read with CR as the line end. The parser stays the judge of the message:
 * once stopped, the text up to cut is parsed for an earlier error (the
 * first error in the text wins), and only if there is none does the guard's
 * own message stand. */
enum { G_START, G_UNQUOTED, G_QUOTED, G_QUOTE }; /* G_QUOTE: a quote inside quotes */

typedef struct guard {
    size_t pos;              /* bytes checked */
    size_t line, col;        /* line of text[pos], characters before it on the line */
    size_t line_bytes;       /* bytes of the current line before pos */
    size_t field_bytes;      /* bytes of the current field before pos */
    size_t field_line, field_col, field_quoted; /* where the current field starts */
    size_t record_start;     /* offset of the current record's first byte */
    size_t records, fields;  /* complete records; fields of the current one */
    int state;
    int eol;                 /* 0 until known, then '\n' or '\r' */
    int header_delim;        /* ';' or '\t' inside an unquoted header field */
    int tab_pending;         /* a tab in this header field, text after it unseen */
    int stopped;             /* the text up to cut holds an error */
    size_t cut;
    size_t why_line, why_col;
    char why[200];
} guard;

static void guard_init(guard *g)
{
    memset(g, 0, sizeof *g);
    g->line = g->field_line = g->field_col = 1;
}

static void guard_stop(guard *g, size_t cut, size_t line, size_t col, const char *why)
{
    g->stopped = 1;
    g->cut = cut;
    g->why_line = line;
    g->why_col = col;
    snprintf(g->why, sizeof g->why, "%s", why);
}

/* A separator or a record end at offset i: the next field starts after it. */
static void end_field(guard *g, size_t i, int record_end)
{
    g->fields++;
    if (record_end) {
        if (g->records == 0 && g->fields == 1 && g->header_delim) {
            guard_stop(g, i + 1, 1, 1, "the header has one column; is the delimiter another character?");
            return;
        }
        g->records++;
        g->fields = 0;
        g->record_start = i + 1;
    }
    g->field_bytes = 0;
    g->field_quoted = 0;
    g->tab_pending = 0;
    g->field_line = record_end ? g->line + 1 : g->line;
    g->field_col = record_end ? 1 : g->col + 2;
}

/* Decide the line ends at the first CR or LF outside quotes. Returns 0 when
 * the byte after a CR has not arrived yet. */
static int find_eol(guard *g, const char *text, size_t i, size_t len, int at_eof)
{
    if (text[i] == '\n') g->eol = '\n';
    else if (i + 1 < len) g->eol = text[i + 1] == '\n' ? '\n' : '\r';
    else if (at_eof) g->eol = '\r';
    else return 0;
    return 1;
}

/* One byte outside quotes: the field or record it ends. */
static void unquoted_byte(guard *g, char c, size_t i, int is_nl)
{
    if (c == ',' || is_nl) {
        end_field(g, i, is_nl);
    } else {
        if (g->state == G_START && c == '"') {
            g->state = G_QUOTED;
            g->field_quoted = 1;
            return;
        }
        if (g->state == G_START && !is_blank(c)) g->state = G_UNQUOTED;
        /* a ';' stays in the name; a tab only with more text after it,
         * as the tokenizer trims blanks at the ends of a field */
        if (g->records == 0 && g->state == G_UNQUOTED && !g->header_delim) {
            if (c == ';' || (g->tab_pending && !is_blank(c))) g->header_delim = c == ';' ? ';' : '\t';
            else if (c == '\t') g->tab_pending = 1;
        }
        return;
    }
    g->state = G_START;
}

/* Stop when the current field or line has grown past its limit. */
static void check_limits(guard *g)
{
    char why[200];
    if (g->field_bytes > BSL_CSV_MAX_FIELD) {
        snprintf(why, sizeof why, "a field longer than %d bytes (the limit)%s", BSL_CSV_MAX_FIELD,
                 g->field_quoted ? "; is a quote left open?" : "");
        guard_stop(g, g->record_start, g->field_line, g->field_col, why);
    } else if (g->line_bytes > BSL_CSV_MAX_LINE) {
        snprintf(why, sizeof why, "a line longer than %d bytes (the limit); is this a CSV file?",
                 BSL_CSV_MAX_LINE);
        guard_stop(g, g->record_start, g->line, 1, why);
    }
}

/* The end of the run of plain ASCII from text[i] inside an unquoted field:
 * bytes that change nothing but the counts (the bulk of a numeric table,
 * taken here without the byte-by-byte state machine). */
static size_t plain_run(const char *text, size_t i, size_t len)
{
    while (i < len && text[i] >= ' ' && text[i] < 0x7f && text[i] != ',' && text[i] != ';') i++;
    return i;
}

/* One byte: the quote state, the fields and records it ends, the position.
 * Returns 0 when it needs the next byte, which has not arrived. */
static int guard_byte(guard *g, const char *text, size_t i, size_t len, int at_eof)
{
    const char c = text[i];
    if (c == '\0') {
        guard_stop(g, len, g->line, g->col + 1, "the text contains a NUL byte (is this a binary file?)");
        return 1;
    }
    if (!g->eol && (c == '\n' || (c == '\r' && g->state != G_QUOTED)) && !find_eol(g, text, i, len, at_eof))
        return 0; /* wait for the byte after this CR */
    if (c == '\n' && g->eol == '\r') { /* the CR before it, if any, ended its line */
        const int crlf = i > 0 && text[i - 1] == '\r';
        guard_stop(g, g->record_start, crlf ? g->line - 1 : g->line, 1,
                   crlf ? "this line ends in CR LF, but the first one in CR alone; use one kind of line end"
                        : "this line ends in LF, but the first one in CR alone; use one kind of line end");
        return 1;
    }
    const int is_nl = c == '\n' || (c == '\r' && g->eol == '\r');
    if (g->state == G_QUOTED) {
        if (c == '"') g->state = G_QUOTE;
    } else if (g->state == G_QUOTE && c == '"') {
        g->state = G_QUOTED; /* a doubled quote */
    } else {
        if (g->state == G_QUOTE) g->state = G_UNQUOTED; /* after the closing quote */
        unquoted_byte(g, c, i, is_nl);
        if (g->stopped) return 1;
    }
    if (is_nl) {
        g->line++;
        g->col = g->line_bytes = 0;
    } else {
        g->col += ((unsigned char)c & 0xC0) != 0x80;
        g->line_bytes++;
    }
    if (g->state != G_START || g->field_bytes) g->field_bytes++;
    return 1;
}

/* Check text[g->pos, len), the bytes read so far (at_eof: no more will
 * come), until it ends or the guard stops. */
static void guard_feed(guard *g, const char *text, size_t len, int at_eof)
{
    if (g->pos == 0 && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) g->pos = 3;
    while (g->pos < len && !g->stopped) {
        const size_t i = g->pos;
        const size_t j = g->state == G_UNQUOTED && !g->tab_pending ? plain_run(text, i, len) : i;
        if (j > i) {
            g->col += j - i;
            g->line_bytes += j - i;
            g->field_bytes += j - i;
            g->pos = j;
        } else if (guard_byte(g, text, i, len, at_eof)) {
            if (!g->stopped) g->pos = i + 1;
        } else {
            break;
        }
        if (!g->stopped) check_limits(g);
    }
}

/* Parse what the guard has seen (all of text, or text up to the cut when
 * it stopped): CR line ends become LF in a copy, then either the whole
 * parse or the search for an error before the guard's. */
static int parse_guarded(basel_data **out, const char *source, const char *text, size_t len,
                         const guard *g, const char *label_column, basel_error *err)
{
    const size_t use = g->stopped ? g->cut : len;
    char *copy = NULL;
    if (g->eol == '\r' && use) {
        if (!(copy = malloc(use))) return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s", source);
        for (size_t i = 0; i < use; i++) copy[i] = text[i] == '\r' ? '\n' : text[i];
        text = copy;
    }
    int rc;
    if (!g->stopped) {
        rc = parse_text(out, source, text, use, label_column, err);
    } else if ((rc = check_prefix(source, text, use, err)) == BASEL_OK) {
        rc = bsl_fail_at(err, BASEL_EPARSE, source, g->why_line, g->why_col, "%s", g->why);
    }
    free(copy);
    return rc;
}

int bsl_csv_parse(basel_data **out, const char *source, const char *text, size_t len,
                  const char *label_column, basel_error *err)
{
    if (!out) return bsl_fail(err, BASEL_EINVAL, "bsl_csv_parse: out must not be NULL");
    *out = NULL;
    if (!source) source = "<buffer>";
    if (!text) len = 0;
    guard g;
    guard_init(&g);
    guard_feed(&g, text, len, 1);
    return parse_guarded(out, source, text, len, &g, label_column, err);
}

/* ---------------------------------------------------------- reading */

/* Read fp into a new buffer, the guard checking each piece as it comes;
 * pipes have no size, so grow as we go. Stops early when the guard does. */
static int slurp(FILE *fp, const char *name, char **text, size_t *len, guard *g, basel_error *err)
{
    void *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (bsl_grow(&buf, &cap, n + 65536, 1) != 0) {
            free(buf);
            return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s", name);
        }
        size_t want = cap - n;
        size_t got = fread((char *)buf + n, 1, want, fp);
        n += got;
        if (got < want && ferror(fp)) {
            int e = errno;
            free(buf);
            return bsl_fail_at(err, BASEL_EIO, name, 0, 0, "cannot read: %s", strerror(e));
        }
        guard_feed(g, buf, n, got < want);
        if (got < want || g->stopped) break; /* end of file, or enough seen */
    }
    *text = buf;
    *len = n;
    return BASEL_OK;
}

int basel_data_read_csv(basel_data **out, const char *path, const char *label_column,
                        basel_error *err)
{
    if (out) *out = NULL;
    if (!out || !path)
        return bsl_fail(err, BASEL_EINVAL, "basel_data_read_csv: out and path must not be NULL");
    int from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    FILE *fp = from_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        int e = errno;
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    char *text = NULL;
    size_t len = 0;
    guard g;
    guard_init(&g);
    int rc = slurp(fp, name, &text, &len, &g, err);
    if (!from_stdin) fclose(fp);
    if (rc == BASEL_OK) rc = parse_guarded(out, name, text, len, &g, label_column, err);
    free(text);
    return rc;
}

int basel_data_read_buffer(basel_data **out, const char *name, const char *text, size_t len,
                           const char *label_column, basel_error *err)
{
    if (out) *out = NULL;
    if (!out || (!text && len))
        return bsl_fail(err, BASEL_EINVAL,
                        "basel_data_read_buffer: out must not be NULL, nor text when len > 0");
    return bsl_csv_parse(out, name, text, len, label_column, err);
}

/* --------------------------------------------------------- accessors */

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
    return d && i < d->n && j < d->p ? d->values[j * d->n + i] : NAN;
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
    free(d->line_of_row);
    free(d->bad);
    free(d->source);
    free(d);
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
    const double *col = bsl_data_col(s, j);
    for (size_t k = 0; k < s->n; k++) {
        if (!isnan(col[k])) continue;
        bsl_badcell *b = &s->bad[j];
        if (d->bad[j].line && d->bad[j].row == rows[k]) {
            *b = d->bad[j];
        } else {
            cell_nan_kind(col[k], &b->column);
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
    if (alloc_table(s) != BASEL_OK) return BASEL_ENOMEM;
    for (size_t j = 0; j < s->p; j++)
        for (size_t k = 0; k < s->n; k++) s->values[j * s->n + k] = d->values[j * d->n + rows[k]];
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
    int kind = b->row < d->n ? cell_nan_kind(d->values[j * d->n + b->row], &column) : 0;
    if (kind != CELL_UNKNOWN) return kind;
    if (!b->text[0]) return CELL_EMPTY;
    char *stop;
    double v = strtod(b->text, &stop);
    return *stop == '\0' && !isfinite(v) ? CELL_INFINITE : CELL_TEXT;
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
    if (kind == CELL_EMPTY)
        return bsl_fail_at(err, BASEL_EPARSE, d->source, b->line, b->column,
                           "%s column '%s': the value is missing (%zu row%s of this column; --na drop leaves "
                           "such rows out)",
                           what, name, bsl_data_missing_count(d, j), bsl_data_missing_count(d, j) == 1 ? "" : "s");
    const char *why = kind == CELL_INFINITE ? "is not a finite number" : "is not a number";
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
        else if (!isnan(d->values[j * d->n + i])) return 0; /* a number among the text */
    }
    return ntext > 0;
}

const char *bsl_data_cell_text(const basel_data *d, size_t i, size_t j, char *buf, size_t len)
{
    if (d->text && d->text[j] && d->text[j][i]) return d->text[j][i];
    const double v = d->values[j * d->n + i];
    if (isnan(v)) return NULL;
    snprintf(buf, len, "%.15g", v);
    return buf;
}

int bsl_data_set_text(basel_data *d, size_t j, const char *const *cells, basel_error *err)
{
    if (!d || j >= d->p || !cells) return bsl_fail(err, BASEL_EINVAL, "bsl_data_set_text: bad argument");
    if (!d->text && !(d->text = bsl_calloc(d->p, sizeof *d->text))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!d->text[j] && !(d->text[j] = bsl_calloc(d->n, sizeof **d->text)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    memset(&d->bad[j], 0, sizeof d->bad[j]);
    for (size_t i = 0; i < d->n; i++) {
        free(d->text[j][i]);
        d->text[j][i] = NULL;
        if (!cells[i] || !*cells[i] || strcmp(cells[i], "NA") == 0) {
            d->values[j * d->n + i] = bsl_data_missing_value(0);
            continue;
        }
        if (!(d->text[j][i] = bsl_strdup(cells[i]))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        d->values[j * d->n + i] = cell_nan(CELL_TEXT, 0);
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
    return cell_nan(infinite ? CELL_INFINITE : CELL_EMPTY, 0);
}

int bsl_data_is_missing(const basel_data *d, size_t i, size_t j)
{
    size_t column;
    const double v = d->values[j * d->n + i];
    return isnan(v) && cell_nan_kind(v, &column) == CELL_EMPTY;
}

size_t bsl_data_cell_column(const basel_data *d, size_t i, size_t j)
{
    size_t column;
    cell_nan_kind(d->values[j * d->n + i], &column);
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
        const double v = d->values[j * d->n + i];
        if (!isnan(v)) continue;
        const int kind = cell_nan_kind(v, &column);
        if (kind == CELL_EMPTY) continue;
        if (d->bad[j].row == i) return bsl_data_check_numeric(d, j, what, err); /* its text is kept */
        return bsl_fail_at(err, BASEL_EPARSE, d->source, d->line_of_row[i], column, "%s column '%s': the cell %s",
                           what, d->names[j], kind == CELL_INFINITE ? "is not a finite number" : "is not a number");
    }
    return BASEL_OK;
}
