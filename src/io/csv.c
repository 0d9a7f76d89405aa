/*
 * csv.c: the CSV reader behind basel_data (the handle itself: data.c).
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
 * A guard (csv_guard.c) reads the text first, as it streams in, and stops the
 * reading at the first sign that the input is not a table: a NUL byte
 * (binary data), a line or field past its limit, a quote never closed.
 * Such input is refused after at most a line's worth of memory; a
 * well-formed table is still read whole. Behind the guard, each piece's
 * complete records are parsed in one pass and the piece is dropped: a
 * record of plain numbers by fast_record, straight from the text, any other
 * by the tokenizer (next_field), which tracks lines and columns for the
 * messages. Rows go through a small stage into the column-major table
 * (builder), so memory is the table plus a constant (a piece, a line, the
 * stage, and the table's margin for a file, a large page a segment for a
 * pipe); there is no allocation per cell.
 *
 * Invariant of every basel_data made here: n >= 1, p >= 1, names non-empty
 * and distinct; a value is finite, or NaN. In a non-label column a NaN always
 * marks a bad cell and carries, in its payload, why the cell is bad and the
 * character column where it starts (io.h bsl_cell_nan); that is what lets
 * basel_data_subset rebuild bad[] without the source text. bad[j].line is 0
 * exactly when column j holds no NaN. The label column is all plain NaN and
 * never bad.
 */
#define _DEFAULT_SOURCE /* madvise */
#include "io.h"
#include "csv_scan.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* ------------------------------------------------------------ numbers */

#ifdef BSL_SWAR
/* The run of up to eight decimal digits at p (eight bytes readable), as
 * their count and *v their value: a lane is a digit when its high nibble
 * is 3 and adding 6 keeps it so. A carry out of a lane comes only from a
 * byte >= 0xfa, not a digit, and goes only into the lanes after it, which
 * the count leaves out. The value is fast_float's eight-digit reduction
 * (Lemire, "Number parsing at a gigabyte per second", 2021, sec. 6) of the
 * digits moved to the word's end, zeros before them. */
static inline int swar_digits(const char *p, uint64_t *v)
{
    uint64_t w;
    memcpy(&w, p, 8);
    const uint64_t other = bsl_swar_nonzero(((w & BSL_SWAR_LANES(0xf0)) ^ BSL_SWAR_LANES(0x30)) |
                                        (((w + BSL_SWAR_LANES(0x06)) & BSL_SWAR_LANES(0xf0)) ^ BSL_SWAR_LANES(0x30)));
    const int k = other ? __builtin_ctzll(other) >> 3 : 8;
    uint64_t x = k ? w << (8 * (8 - k)) : 0;
    x = (x & BSL_SWAR_LANES(0x0f)) * 2561 >> 8;
    x = (x & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
    *v = (x & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
    return k;
}
#endif

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
/* The digits from *pp on, with at most one point among them, up to the
 * first byte that is neither (never at or past end): *m their value as an
 * integer, *ndigits their count, *scale the power of ten the point gives,
 * *pp the byte after them. Returns 0 past 19 significant digits. */
static int scan_digits(const char **pp, const char *end, uint64_t *m, int *ndigits, long *scale)
{
    const char *p = *pp;
#ifdef BSL_SWAR
    {
        /* eight bytes at a time while the digits (leading zeros counted) stay
         * within 19, so that the value fits; else byte by byte below */
        static const uint64_t pow10_int[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
        uint64_t whole = 0, v;
        int n = 0, f = 0, k = 8;
        const char *q = p;
        for (; k == 8 && n <= 11 && end - q >= 8; q += k, n += k) {
            k = swar_digits(q, &v);
            whole = whole * pow10_int[k] + v;
        }
        if (k < 8 && *q == '.') /* q < end: fewer than 8 digits of 8 readable bytes */
            for (q++, k = 8; k == 8 && n <= 11 && end - q >= 8; q += k, n += k, f += k) {
                k = swar_digits(q, &v);
                whole = whole * pow10_int[k] + v;
            }
        if (k < 8) {
            *m = whole;
            *ndigits = n;
            *scale = -f;
            *pp = q;
            return 1;
        }
    }
#endif
    uint64_t v = 0;
    int n = 0, sig = 0;
    long sc = 0;
    for (int in_frac = 0; p < end; p++) {
        if (*p == '.' && !in_frac) {
            in_frac = 1;
            continue;
        }
        if (*p < '0' || *p > '9') break;
        n++;
        sc -= in_frac;
        if (v == 0 && *p == '0') continue; /* a leading zero is not significant */
        if (++sig > 19) return 0;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *m = v;
    *ndigits = n;
    *scale = sc;
    *pp = p;
    return 1;
}
#endif

/* Clinger's fast path: a decimal with at most 19 significant digits whose
 * mantissa fits in 53 bits and whose power of ten is at most 22 is exactly
 * m * 10^e or m / 10^e, one correctly rounded operation, hence the same
 * double as strtod. It takes nearly every cell of a numeric CSV and makes
 * reading one about three times faster than glibc's strtod alone (1.1 s
 * instead of 3.4 s for 20000 x 1000). scan_simple reads such a number from
 * s (an optional sign, digits with at most one '.', an optional exponent
 * with at least one digit) up to the first byte that cannot continue it,
 * never at or past end, and returns that byte's address with *out set; it
 * returns NULL, *out untouched, for no number or one outside the fast path
 * (then strtod decides). Needs double arithmetic without excess precision
 * (FLT_EVAL_METHOD 0). */
static const char *scan_simple(const char *s, const char *end, double *out)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s;
    const int neg = p < end && *p == '-';
    if (p < end && (*p == '-' || *p == '+')) p++;
    uint64_t m;
    int ndigits;
    long scale;
    if (!scan_digits(&p, end, &m, &ndigits, &scale) || ndigits == 0) return NULL;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        const int eneg = p < end && *p == '-';
        if (p < end && (*p == '-' || *p == '+')) p++;
        if (p == end || *p < '0' || *p > '9') return NULL; /* "1e", "1e+": text to strtod */
        long ex = 0;
        for (; p < end && *p >= '0' && *p <= '9'; p++)
            if ((ex = ex * 10 + (*p - '0')) > 10000) return NULL;
        scale += eneg ? -ex : ex;
    }
    if (m > (1ULL << 53) || scale < -22 || scale > 22) return NULL;
    const double v = scale < 0 ? (double)m / pow10[-scale] : (double)m * pow10[scale];
    *out = neg ? -v : v;
    return p;
#else
    (void)s, (void)end, (void)out;
    return NULL;
#endif
}

/* s[0..len) as a whole is a number of the fast path (scan_simple). */
static int parse_simple(const char *s, size_t len, double *out)
{
    double v;
    if (scan_simple(s, s + len, &v) != s + len) return 0;
    *out = v;
    return 1;
}

/* Scratch space for strtod, which needs a NUL-terminated copy. */
typedef struct scratch {
    char *buf;
    size_t cap;
} scratch;

/* Parse s[0..len) as a whole number with blanks around it allowed. Returns
 * BSL_CELL_EMPTY, BSL_CELL_TEXT, BSL_CELL_INFINITE, 0 with *out set, or -1 (no memory). */
static int parse_number(const char *s, size_t len, double *out, scratch *w)
{
    while (len && bsl_csv_blank(*s)) {
        s++;
        len--;
    }
    while (len && bsl_csv_blank(s[len - 1])) len--;
    if (len == 0) return BSL_CELL_EMPTY;
    if (len == 2 && s[0] == 'N' && s[1] == 'A') return BSL_CELL_EMPTY; /* R's missing value */
    /* strtod would skip these too; only blanks may surround a number */
    if (*s == '\n' || *s == '\r' || *s == '\v' || *s == '\f') return BSL_CELL_TEXT;
    if (parse_simple(s, len, out)) return 0;
    void *buf = w->buf;
    if (bsl_grow(&buf, &w->cap, len + 1, 1) != 0) return -1;
    w->buf = buf;
    memcpy(w->buf, s, len);
    w->buf[len] = '\0';
    char *stop;
    double v = strtod(w->buf, &stop);
    if (stop != w->buf + len) return BSL_CELL_TEXT;
    if (!isfinite(v)) return BSL_CELL_INFINITE; /* nan, inf, 1e999 */
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
    while (e > q && bsl_csv_blank(e[-1])) e--;
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
    while (t < s->end && bsl_csv_blank(*t)) t++;
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
    while (q < s->end && bsl_csv_blank(*q)) q++;
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
                             "empty column name (header field %zu)%s", d->p + 1,
                             d->p == 0 ? "; a first column with no name is often row names, as R's write.csv "
                                         "writes them: write with row.names = FALSE, or name the column"
                                       : "");
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

/* The first bad cell of column j: remember where it is and what it says.
 * Control characters become '?' so that the message stays on one line, and
 * truncation never splits a UTF-8 character. */
static void record_bad(basel_data *d, size_t i, size_t j, const field *f, size_t column)
{
    bsl_badcell *b = &d->bad[j];
    char tmp[sizeof b->text + 1];
    field_copy(f, tmp, sizeof tmp);
    size_t len = strlen(tmp);
    while (len && bsl_csv_blank(tmp[len - 1])) len--;
    size_t lead = 0;
    while (lead < len && bsl_csv_blank(tmp[lead])) lead++;
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

/* The table as it streams in. It is column-major and the rows arrive one
 * at a time, so each row is parsed into a small row-major stage (STAGE
 * bytes, at least STAGE_ROWS rows), reused, and when the stage is full its
 * rows move into column-major segments in square tiles of TILE rows and
 * columns (a tile's reads and writes stay within the cache and the TLB).
 * A segment has room for a number of rows fixed when it is made. For a
 * file, the first segment is made for the rows its size implies at the
 * mean length of the rows staged so far, plus a margin (ROOM_MARGIN), so it
 * is nearly always the only one: at the end its columns move together to n
 * rows each and it shrinks into the n x p table. So the table is written
 * once, into memory first touched there: on a virtual machine, taking a
 * fresh page costs more than parsing what goes into it, and building the
 * table in row-major blocks and then copying it touched twice the memory.
 * (The guess is the one weak point: a file whose first rows are shorter
 * than the rest, say zeros before decimals, is given room for more rows
 * than it has, and a wide table, whose short columns share pages, holds
 * that room until the end: 2000 columns of 100 rows of 0 and then 900 of
 * 6-digit decimals peak at 5 times the table. Later rows shorter than the
 * first only cost more segments, copied as from a pipe.)
 * For a pipe (no size) the segments double, up to SEGMENT_MAX bytes each,
 * and at the end they are copied into the table a column at a time and
 * given back as they go (builder_finish). The per-row arrays (line_of_row, the labels, the
 * text columns) grow by doubling; there are `cap` of each. */
#define STAGE ((size_t)1 << 20)
/* at least this many rows, so that a wide table's stage still moves into
 * each column a cache line (8 doubles) or more at a time */
#define STAGE_ROWS ((size_t)16)
#define TILE 32
/* a guess a little short costs a second segment and a copy, a little long
 * only a margin of every column: 1 % over the mean of the first MB */
#define ROOM_MARGIN 0.01
/* glibc serves requests this large (its largest dynamic mmap threshold)
 * with mmap, so a freed segment goes back to the system at once */
#define SEGMENT_MAX ((size_t)32 << 20)

typedef struct segment {
    double *cols; /* room rows a column, the first done filled */
    size_t room, done;
} segment;

typedef struct builder {
    basel_data *d;
    size_t cap;          /* entries of the per-row arrays */
    double *stage;       /* stage_rows rows of p, row-major; staged in use */
    size_t stage_rows, staged;
    segment *seg;        /* nseg segments, rows in order */
    size_t nseg, seg_cap;
    double size;         /* the text's bytes (0: unknown, a pipe) */
    size_t header_bytes; /* bytes of the header line(s) */
    size_t before;       /* bytes of text before span */
    const char *span;    /* the text being parsed */
    scratch w;
} builder;

static void builder_free(builder *b)
{
    for (size_t k = 0; k < b->nseg; k++) free(b->seg[k].cols);
    free(b->seg);
    free(b->stage);
    free(b->w.buf);
    memset(b, 0, sizeof *b);
}

/* The per-row arrays to hold at least need rows (new entries zeroed). */
static int grow_rows(builder *b, size_t need)
{
    basel_data *d = b->d;
    if (need <= b->cap) return BASEL_OK;
    size_t cap = b->cap ? 2 * b->cap : 1024;
    while (cap < need) cap *= 2;
    void *p = realloc(d->line_of_row, cap * sizeof *d->line_of_row);
    if (!p) return BASEL_ENOMEM;
    d->line_of_row = p;
    if (d->label_col >= 0) {
        if (!(p = realloc(d->labels, cap * sizeof *d->labels))) return BASEL_ENOMEM;
        d->labels = p;
        memset(d->labels + b->cap, 0, (cap - b->cap) * sizeof *d->labels);
    }
    for (size_t j = 0; d->text && j < d->p; j++) {
        if (!d->text[j]) continue;
        if (!(p = realloc(d->text[j], cap * sizeof **d->text))) return BASEL_ENOMEM;
        d->text[j] = p;
        memset(d->text[j] + b->cap, 0, (cap - b->cap) * sizeof **d->text);
    }
    b->cap = cap;
    return BASEL_OK;
}

/* The rows of a new segment for the left staged rows that are not in one
 * yet and the rows to come; at is where the text after the staged rows
 * starts, NULL at the end of the text (then the segment is for the rows
 * left alone). */
static size_t segment_rows(const builder *b, size_t left, const char *at)
{
    if (!at) return left;
    const size_t row_bytes = b->d->p * sizeof(double), n = b->d->n;
    const double read = (double)(b->before + (size_t)(at - b->span)), body = read - (double)b->header_bytes;
    if (b->size > read && body > 0) { /* a file: the rows its size implies, at the rows' mean length so far */
        const double rows = (b->size - read) / (body / (double)n) * (1 + ROOM_MARGIN) + (double)b->stage_rows;
        if (rows < (double)(SIZE_MAX / row_bytes - left)) return left + (size_t)rows;
    }
    const size_t rows = n > b->stage_rows ? n : b->stage_rows, most = SEGMENT_MAX / row_bytes;
    return rows < most ? rows : most > b->stage_rows ? most : b->stage_rows;
}

/* The staged rows into the segments (see the builder); at is where the
 * text after them starts, NULL at its end. */
static int flush_stage(builder *b, const char *at)
{
    const size_t p = b->d->p;
    for (size_t t0 = 0; t0 < b->staged;) {
        segment *g = b->nseg ? &b->seg[b->nseg - 1] : NULL;
        if (!g || g->done == g->room) {
            void *more = b->seg;
            if (bsl_grow(&more, &b->seg_cap, b->nseg + 1, sizeof *b->seg)) return BASEL_ENOMEM;
            b->seg = more;
            g = &b->seg[b->nseg];
            g->room = segment_rows(b, b->staged - t0, at);
            g->done = 0;
            if (!(g->cols = bsl_malloc(g->room, p * sizeof(double)))) return BASEL_ENOMEM;
            b->nseg++;
        }
        const size_t rows = BSL_MIN(b->staged - t0, g->room - g->done);
        for (size_t r0 = 0; r0 < rows; r0 += TILE) {
            const size_t r1 = BSL_MIN(r0 + TILE, rows);
            const double *from = b->stage + (t0 + r0) * p;
            for (size_t j0 = 0; j0 < p; j0 += TILE) {
                const size_t j1 = BSL_MIN(j0 + TILE, p);
                for (size_t j = j0; j < j1; j++) {
                    double *col = g->cols + j * g->room + g->done + r0;
                    for (size_t r = 0; r < r1 - r0; r++) col[r] = from[r * p + j];
                }
            }
        }
        g->done += rows;
        t0 += rows;
    }
    b->staged = 0;
    return BASEL_OK;
}

/* A new row, whose text starts at at: its place in the stage (moved into
 * the segments first when full) and in the per-row arrays; d->n counts it
 * from here on, so that basel_data_free finds its labels and text if the
 * reading fails. */
static double *new_row(builder *b, size_t line, const char *at)
{
    basel_data *d = b->d;
    if (grow_rows(b, d->n + 1)) return NULL;
    if (!b->stage) {
        const size_t row_bytes = d->p * sizeof(double);
        b->stage_rows = BSL_MAX(STAGE / row_bytes, STAGE_ROWS);
        if (!(b->stage = bsl_malloc(b->stage_rows, row_bytes))) return NULL;
    }
    if (b->staged == b->stage_rows && flush_stage(b, at) != BASEL_OK) return NULL;
    d->line_of_row[d->n++] = line;
    return b->stage + b->staged++ * d->p;
}

/* Give back the row new_row gave last, nothing stored in it. */
static void drop_row(builder *b)
{
    b->d->n--;
    b->staged--;
}

/* One segment as the table: its columns move together to n rows each
 * (column j from j room to j n, in order, so no column is overwritten
 * before it moves) and the block shrinks to n x p. */
static void segment_into_table(builder *b)
{
    basel_data *d = b->d;
    segment *g = &b->seg[0];
    for (size_t j = 1; g->room > d->n && j < d->p; j++)
        memmove(g->cols + j * d->n, g->cols + j * g->room, d->n * sizeof(double));
    double *v = realloc(g->cols, d->n * d->p * sizeof(double));
    d->values = v ? v : g->cols; /* a failed shrink keeps the larger block */
    g->cols = NULL;
}


/* Give back to the system the whole pages in bytes from p, copied and no
 * longer needed (MADV_DONTNEED: the block stays valid, and is freed as a
 * whole later). Only where the system has it; elsewhere the memory goes
 * back when the block is freed. */
static void release_pages(const void *p, size_t bytes)
{
#ifdef MADV_DONTNEED
    const uintptr_t page = 4096, from = ((uintptr_t)p + page - 1) & ~(page - 1),
                    to = ((uintptr_t)p + bytes) & ~(page - 1);
    if (to > from) (void)madvise((void *)from, to - from, MADV_DONTNEED);
#else
    (void)p, (void)bytes;
#endif
}

/* Column j of every segment into its place in the table; each segment's
 * columns given back to the system once copied, BSL_HUGE_PAGE bytes or more
 * at a time (kept[k]: the first byte of segment k not given back). */
static void copy_column(builder *b, size_t j, const double **kept)
{
    basel_data *d = b->d;
    double *to = d->values + j * d->n;
    for (size_t k = 0; k < b->nseg; k++) {
        const segment *g = &b->seg[k];
        memcpy(to, g->cols + j * g->room, g->done * sizeof(double));
        to += g->done;
        const double *next = g->cols + (j + 1) * g->room;
        if ((size_t)(next - kept[k]) * sizeof(double) >= BSL_HUGE_PAGE || j + 1 == d->p) {
            release_pages(kept[k], (size_t)(next - kept[k]) * sizeof(double));
            kept[k] = next;
        }
    }
}

/* The last rows into the segments, which become the table, n x p: the one
 * segment in place, or else all copied into a new table a column at a
 * time, so that the table fills from its start while the segments are
 * given back as they are copied: memory stays the table plus a large page
 * a segment, whether the first segment holds most of the table (a file
 * whose later rows were shorter than the first) or they are many (a
 * pipe). */
static int builder_finish(builder *b)
{
    basel_data *d = b->d;
    if (flush_stage(b, NULL) != BASEL_OK) return BASEL_ENOMEM;
    if (b->nseg == 1) {
        segment_into_table(b);
        return BASEL_OK;
    }
    const double **kept = malloc(b->nseg * sizeof *kept);
    if (!kept || !(d->values = bsl_malloc(d->n, d->p * sizeof *d->values))) {
        free(kept);
        return BASEL_ENOMEM;
    }
    for (size_t k = 0; k < b->nseg; k++) kept[k] = b->seg[k].cols;
    for (size_t j = 0; j < d->p; j++) copy_column(b, j, kept);
    free(kept);
    for (size_t k = 0; k < b->nseg; k++) {
        free(b->seg[k].cols);
        b->seg[k].cols = NULL;
    }
    return BASEL_OK;
}

/* A text cell's text, kept for categorical inputs (problem.c decides
 * whether the column is one); the column's array is made on its first
 * text cell, so numeric tables pay nothing. */
static int keep_text(builder *b, size_t i, size_t j, const field *f)
{
    basel_data *d = b->d;
    if (!d->text && !(d->text = bsl_calloc(d->p, sizeof *d->text))) return BASEL_ENOMEM;
    if (!d->text[j] && !(d->text[j] = bsl_calloc(b->cap, sizeof **d->text))) return BASEL_ENOMEM;
    char *t = field_strdup(f);
    if (!t) return BASEL_ENOMEM;
    size_t len = strlen(t), lead = 0;
    while (len && bsl_csv_blank(t[len - 1])) t[--len] = '\0';
    while (lead < len && bsl_csv_blank(t[lead])) lead++;
    memmove(t, t + lead, len - lead + 1);
    d->text[j][i] = t;
    return BASEL_OK;
}

static int store_number(scanner *s, builder *b, double *row, size_t j, const field *f)
{
    basel_data *d = b->d;
    double v = 0;
    /* a doubled quote is never part of a number */
    int kind = f->escaped ? BSL_CELL_TEXT : parse_number(f->body, f->len, &v, &b->w);
    if (kind < 0) return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s", s->source);
    if (kind != 0) {
        const size_t i = d->n - 1, col = field_column(s, f);
        v = bsl_cell_nan(kind, col);
        if (d->bad[j].line == 0) record_bad(d, i, j, f, col);
        if (kind == BSL_CELL_TEXT && keep_text(b, i, j, f))
            return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s", s->source);
    }
    row[j] = v;
    return BASEL_OK;
}

static int store_label(scanner *s, builder *b, double *row, const field *f)
{
    basel_data *d = b->d;
    row[d->label_col] = NAN;
    if (!(d->labels[d->n - 1] = field_strdup(f)))
        return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s", s->source);
    return BASEL_OK;
}

/* One record into the table: p fields, or an error. A short row is
 * reported at its start, a long one at its first extra field (the cells
 * before are stored, and freed with the table). */
static int parse_record(scanner *s, builder *b)
{
    basel_data *d = b->d;
    const size_t p = d->p, line = s->line;
    double *row = new_row(b, line, s->pos);
    if (!row) return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s (%zu rows, %zu columns)", s->source,
                              d->n, p);
    size_t k = 0, extra_line = 0, extra_col = 0;
    field f;
    do {
        int rc = next_field(s, &f);
        if (rc != BASEL_OK) return rc;
        if (k < p) {
            rc = (long)k == d->label_col ? store_label(s, b, row, &f) : store_number(s, b, row, k, &f);
            if (rc != BASEL_OK) return rc;
        } else if (k == p) {
            extra_line = f.line;
            extra_col = field_column(s, &f);
        }
        k++;
    } while (!f.last);
    if (k < p) return ragged(s, line, 1, k, p);
    if (k > p) return ragged(s, extra_line, extra_col, k, p);
    return BASEL_OK;
}

/* The common record, read without the tokenizer: p unquoted numbers of
 * the fast path (scan_simple), one comma between each two, the last ended
 * by LF or CR LF, parsed in place into a new row. Anything else (a blank,
 * a quote, an empty cell, NA, text, a number for strtod, a label column, a
 * record without its LF) returns 0 with the row given back and nothing
 * stored, and parse_record reads the record from its start: every value,
 * bad cell and message is the tokenizer's, this only skips its work where
 * it has nothing to say. The guard has seen every byte up to the LF. */
static int fast_record(scanner *s, builder *b)
{
    basel_data *d = b->d;
    if (d->label_col >= 0) return 0;
    const char *eol = memchr(s->pos, '\n', (size_t)(s->end - s->pos));
    double *row = eol ? new_row(b, s->line, s->pos) : NULL;
    if (!row) return 0; /* out of memory: parse_record says so */
    const char *q = s->pos;
    for (size_t j = 0, p = d->p; j < p; j++) {
        const char *e = scan_simple(q, eol, &row[j]);
        const int more = j + 1 < p;
        if (!e || (more ? *e != ',' : e != eol && !(e + 1 == eol && *e == '\r'))) {
            drop_row(b);
            return 0;
        }
        q = e + 1;
    }
    s->pos = s->line_start = eol + 1;
    s->line++;
    return 1;
}

/* ---------------------------------------------------------- reading */

/* The text is read in pieces of READ_CHUNK bytes (fread returns a piece
 * of a pipe once it has arrived: a small piece keeps the check of the
 * first bytes and the cancel prompt) into one buffer, which
 * holds only what is not parsed yet: the records that have not arrived
 * whole (one line's worth at most, as the guard bounds a line), and blank
 * lines at the end of what has arrived, which are rows only if something
 * follows them (trailing blank lines are ignored). Each piece is checked
 * by the guard, its complete records are parsed into the table, and the
 * progress callback is asked whether to go on. */
#define READ_CHUNK ((size_t)64 << 10)

/* Where the bytes come from: a stream, or a buffer in memory. */
typedef struct input {
    FILE *fp;
    const char *mem;
    size_t mem_len, mem_pos;
} input;

/* Up to want bytes into dst; *eof once no more will come, *err_no on a
 * read error. A read interrupted by a signal is not an error: it returns
 * what it has, and the caller asks whether to stop before reading on. */
static size_t input_read(input *in, char *dst, size_t want, int *eof, int *err_no)
{
    if (!in->fp) {
        const size_t got = BSL_MIN(want, in->mem_len - in->mem_pos);
        if (got) memcpy(dst, in->mem + in->mem_pos, got);
        in->mem_pos += got;
        *eof = in->mem_pos == in->mem_len;
        return got;
    }
    const size_t got = fread(dst, 1, want, in->fp);
    if (got < want && ferror(in->fp)) {
        if (errno == EINTR) clearerr(in->fp);
        else *err_no = errno;
    } else if (got < want) {
        *eof = 1;
    }
    return got;
}

typedef struct reader {
    const char *source;
    basel_error *err;
    const bsl_progress *pr;
    double size;        /* the file's size, 0 when unknown (a pipe) */
    size_t nread;       /* bytes read so far */
    char *buf;          /* buf[0, len): read and not parsed yet */
    size_t cap, len;
    bsl_csv_guard g;
    scanner s;          /* its line count runs on across the pieces */
    builder b;
    int have_header;
    const char *label_column;
    size_t fast_hits, fast_misses; /* records fast_record took and left */
} reader;

static int is_space(char c) { return bsl_csv_blank(c) || c == '\n' || c == '\r'; }

/* Where to stop parsing in buf[0, end), a run of complete records: before
 * the blank lines that end it (see READ_CHUNK). */
static size_t hold_back(const char *buf, size_t end, int eol)
{
    size_t q = end;
    while (q > 0 && is_space(buf[q - 1])) q--;
    if (q == 0) return 0;
    while (buf[q] != eol) q++; /* the end of the last record with text */
    return q + 1;
}

/* Parse buf[0, end) into the table, the header first. final: 0 more text
 * follows; 1 the rest of the text, which may end without a line end and
 * whose trailing blanks are dropped; 2 the same up to where the guard
 * stopped (no text there is no error: the guard's message stands). */
static int parse_span(reader *r, size_t end, int final)
{
    scanner *s = &r->s;
    if (r->g.eol == '\r') /* CR line ends: LF for the tokenizer (the guard is past these bytes) */
        for (size_t i = 0; i < end; i++)
            if (r->buf[i] == '\r') r->buf[i] = '\n';
    if (final)
        while (end && is_space(r->buf[end - 1])) end--;
    s->pos = s->line_start = r->buf;
    s->end = r->buf + end;
    s->memo_at = NULL;
    r->b.before = r->nread - r->len; /* for the builder's guess of the rows to come */
    r->b.span = r->buf;
    basel_data *d = r->b.d;
    if (!r->have_header) {
        if (s->pos == s->end)
            return final == 1 ? bsl_fail_at(s->err, BASEL_EPARSE, s->source, 1, 1, "file is empty") : BASEL_OK;
        int rc = read_header(s, d);
        if (rc == BASEL_OK) rc = find_label(s, d, r->label_column);
        if (rc != BASEL_OK) return rc;
        if (!(d->bad = bsl_calloc(d->p, sizeof *d->bad)))
            return bsl_fail(s->err, BASEL_ENOMEM, "out of memory reading %s", s->source);
        r->have_header = 1;
        r->b.header_bytes = r->b.before + (size_t)(s->pos - r->buf);
    }
    while (s->pos < s->end) {
        /* the fast path while it takes most records: a table with text in
         * every row would otherwise read each row up to its text twice */
        if (r->fast_misses < 64 || r->fast_misses <= r->fast_hits) {
            if (fast_record(s, &r->b)) {
                r->fast_hits++;
                continue;
            }
            r->fast_misses++;
        }
        int rc = parse_record(s, &r->b);
        if (rc != BASEL_OK) return rc;
    }
    return BASEL_OK;
}

/* Drop buf[0, k), parsed; the guard's offsets follow. */
static void shift(reader *r, size_t k)
{
    memmove(r->buf, r->buf + k, r->len - k);
    r->len -= k;
    r->g.pos -= k;
    r->g.record_start -= k;
}

/* One piece of input into the buffer (grown when a record fills it). */
static int read_piece(reader *r, input *in, int *eof)
{
    void *p = r->buf;
    if (bsl_grow(&p, &r->cap, r->len + READ_CHUNK, 1))
        return bsl_fail(r->err, BASEL_ENOMEM, "out of memory reading %s", r->source);
    r->buf = p;
    int err_no = 0;
    const size_t got = input_read(in, r->buf + r->len, READ_CHUNK, eof, &err_no);
    if (err_no) return bsl_fail_at(r->err, BASEL_EIO, r->source, 0, 0, "cannot read: %s", strerror(err_no));
    if (r->nread == 0 && got >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte-order mark */
        memmove(r->buf, r->buf + 3, got - 3);
        r->len -= 3;
    }
    r->len += got;
    r->nread += got;
    const double done = (double)r->nread, total = r->size > done ? r->size : done > 0 ? done : 1;
    if (bsl_progress_report(r->pr, "reading", "bytes", done, total))
        return bsl_fail(r->err, BASEL_ECANCELLED, "cancelled while reading %s", r->source);
    return BASEL_OK;
}

/* The whole input into r's table; the guard's message when it stopped and
 * the text before the cut holds no earlier error. */
static int read_all(reader *r, input *in)
{
    for (int eof = 0; !eof;) {
        int rc = read_piece(r, in, &eof);
        if (rc != BASEL_OK) return rc;
        bsl_csv_guard_feed(&r->g, r->buf, r->len, eof);
        if (r->g.stopped) {
            rc = parse_span(r, r->g.cut, 2);
            return rc ? rc : bsl_fail_at(r->err, BASEL_EPARSE, r->source, r->g.why_line, r->g.why_col, "%s", r->g.why);
        }
        const size_t end = eof ? r->len : hold_back(r->buf, r->g.record_start, r->g.eol == '\r' ? '\r' : '\n');
        if (end == 0 && !eof) continue;
        if ((rc = parse_span(r, end, eof)) != BASEL_OK) return rc;
        if (!eof) shift(r, end);
    }
    basel_data *d = r->b.d;
    if (d->n == 0)
        return bsl_fail_at(r->err, BASEL_EPARSE, r->source, r->s.line + (r->s.pos > r->s.line_start), 1,
                           "no data rows after the header");
    if (builder_finish(&r->b) != BASEL_OK)
        return bsl_fail(r->err, BASEL_ENOMEM, "out of memory reading %s (%zu rows, %zu columns)", r->source, d->n,
                        d->p);
    return BASEL_OK;
}

/* Read a table from in; source names it in messages, pr (may be NULL) is
 * asked after each piece whether to go on. */
static int read_input(basel_data **out, const char *source, input *in, double size, const char *label_column,
                      const bsl_progress *pr, basel_error *err)
{
    *out = NULL;
    basel_data *d = calloc(1, sizeof *d);
    if (!d || !(d->source = bsl_strdup(source))) {
        free(d);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s", source);
    }
    d->label_col = -1;
    reader r = {.source = d->source, .err = err, .pr = pr, .size = size, .label_column = label_column};
    r.b.d = d;
    r.b.size = size;
    bsl_csv_guard_init(&r.g);
    r.s.line = 1;
    r.s.source = d->source;
    r.s.err = err;
    int rc = read_all(&r, in);
    builder_free(&r.b);
    free(r.buf);
    if (rc != BASEL_OK) {
        basel_data_free(d);
        return rc;
    }
    bsl_error_clear(err);
    *out = d;
    return BASEL_OK;
}

int bsl_csv_parse(basel_data **out, const char *source, const char *text, size_t len,
                  const char *label_column, basel_error *err)
{
    if (!out) return bsl_fail(err, BASEL_EINVAL, "bsl_csv_parse: out must not be NULL");
    *out = NULL;
    input in = {.mem = text ? text : "", .mem_len = text ? len : 0};
    return read_input(out, source ? source : "<buffer>", &in, (double)in.mem_len, label_column, NULL, err);
}

int bsl_csv_read_fp(basel_data **out, FILE *fp, const char *source, double size, const char *label_column,
                    const bsl_progress *pr, basel_error *err)
{
    input in = {.fp = fp};
    return read_input(out, source, &in, size, label_column, pr, err);
}

int basel_data_read_csv(basel_data **out, const char *path, const char *label_column,
                        basel_error *err)
{
    if (out) *out = NULL;
    if (!out || !path)
        return bsl_fail(err, BASEL_EINVAL, "basel_data_read_csv: out and path must not be NULL");
    const int from_stdin = strcmp(path, "-") == 0;
    FILE *fp = from_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        int e = errno;
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    int rc = bsl_csv_read_fp(out, fp, from_stdin ? "<stdin>" : path, 0, label_column, NULL, err);
    if (!from_stdin) fclose(fp);
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

