/*
 * npy.c: a NumPy .npy array as a basel_data, the binary input for large
 * designs (README "Large designs").
 *
 * Format (numpy.lib.format, versions 1.0, 2.0 and 3.0): the magic
 * "\x93NUMPY", a major and a minor version byte, the header's length
 * (2 bytes little-endian in 1.0, 4 in 2.0 and 3.0), then the header, a
 * Python dict literal such as
 *     {'descr': '<f8', 'fortran_order': False, 'shape': (1000, 20000), }
 * padded with blanks and ending in a newline, then the n p values with no
 * gaps: row by row (C order) or column by column (Fortran order).
 * Read here: float64 and float32, int8 to int64, uint8 to uint64 and bool,
 * in either byte order; shape (n, p), or (n,) for one column. The columns
 * are named x1 .. xp; a one-dimensional array (a vector, as a target is
 * saved) names its column y.
 *
 * The values stream in pieces (stdin works), each converted to double and
 * put in its place in the n x p column-major table: memory is the table
 * plus one piece. A NaN is a missing value and an infinity a cell that is
 * not a finite number, as in a table from memory (matrix.c), so the fit's
 * --na and its messages apply; the "line" of a cell is its 1-based row.
 */
#include "io.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NPY_MAGIC "\x93NUMPY"
/* numpy writes headers of a few hundred bytes; a larger one is not a
 * header */
#define NPY_MAX_HEADER ((size_t)1 << 16)
#define NPY_PIECE ((size_t)1 << 20)

int bsl_npy_is_magic(const char *bytes, size_t len)
{
    return len >= 6 && memcmp(bytes, NPY_MAGIC, 6) == 0;
}

typedef struct npy_header {
    char kind;         /* 'f', 'i', 'u' or 'b' */
    size_t size;       /* bytes per value */
    int swap;          /* stored in the other byte order than this machine's */
    int fortran;       /* column by column */
    size_t n, p, ndim;
} npy_header;

static int bad_header(const char *source, basel_error *err, const char *why, const char *what)
{
    return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "not a valid .npy file: %s%s%s", why, what ? " " : "",
                       what ? what : "");
}

/* The value of 'key' in the header dict: the text after its colon. */
static const char *dict_value(const char *h, const char *key)
{
    char q1[40], q2[40];
    snprintf(q1, sizeof q1, "'%s'", key);
    snprintf(q2, sizeof q2, "\"%s\"", key);
    const char *at = strstr(h, q1);
    if (!at) at = strstr(h, q2);
    if (!at) return NULL;
    at += strlen(q1);
    while (*at == ' ') at++;
    if (*at != ':') return NULL;
    at++;
    while (*at == ' ') at++;
    return at;
}

static int parse_descr(npy_header *H, const char *v, const char *source, basel_error *err)
{
    if (!v || (*v != '\'' && *v != '"')) return bad_header(source, err, "the header has no 'descr' string", NULL);
    const char quote = *v++;
    const char *end = strchr(v, quote);
    if (!end || end - v > 8) return bad_header(source, err, "the header's 'descr' is not a simple type", NULL);
    char d[9];
    memcpy(d, v, (size_t)(end - v));
    d[end - v] = '\0';
    const char *t = d;
    const uint16_t one = 1;
    const int little = *(const uint8_t *)&one == 1;
    char order = '=';
    if (*t == '<' || *t == '>' || *t == '|' || *t == '=') order = *t++;
    char *stop;
    const long size = strtol(t + 1, &stop, 10);
    H->kind = *t;
    H->size = size > 0 ? (size_t)size : 0;
    const int ok = *stop == '\0' && ((H->kind == 'f' && (size == 4 || size == 8)) ||
                                     ((H->kind == 'i' || H->kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                                     (H->kind == 'b' && size == 1));
    if (!ok)
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "the .npy values are '%s'; basel reads float64, float32, "
                           "int8 to int64, uint8 to uint64 and bool", d);
    H->swap = H->size > 1 && ((order == '<' && !little) || (order == '>' && little));
    return BASEL_OK;
}

static int parse_shape(npy_header *H, const char *v, const char *source, basel_error *err)
{
    if (!v || *v != '(') return bad_header(source, err, "the header has no 'shape' tuple", NULL);
    size_t dims[3], nd = 0;
    v++;
    for (;;) {
        while (*v == ' ') v++;
        if (*v == ')') break;
        if (*v < '0' || *v > '9' || nd == 3) return bad_header(source, err, "the header's 'shape' is not a tuple of sizes", NULL);
        errno = 0;
        char *stop;
        const unsigned long long x = strtoull(v, &stop, 10);
        if (errno || x > SIZE_MAX) return bad_header(source, err, "the header's 'shape' is too large", NULL);
        dims[nd++] = (size_t)x;
        v = stop;
        while (*v == ' ') v++;
        if (*v == ',') v++;
        else if (*v != ')') return bad_header(source, err, "the header's 'shape' is not a tuple of sizes", NULL);
    }
    H->ndim = nd;
    if (nd == 0 || nd > 2)
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "the .npy array has %zu dimensions; basel reads a vector "
                           "(n,) or a matrix (n, p)", nd);
    H->n = dims[0];
    H->p = nd == 2 ? dims[1] : 1;
    if (H->n == 0 || H->p == 0)
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "the .npy array has %zu rows and %zu columns", H->n, H->p);
    if (H->p > SIZE_MAX / H->n / 8) return bad_header(source, err, "the header's 'shape' is too large", NULL);
    return BASEL_OK;
}

/* The magic, the version, the header; fp is left at the first value. */
static int read_header(FILE *fp, npy_header *H, const char *source, basel_error *err)
{
    unsigned char pre[12];
    if (fread(pre, 1, 10, fp) != 10 || !bsl_npy_is_magic((const char *)pre, 10))
        return bad_header(source, err, "it does not start with the .npy magic bytes (\\x93NUMPY)", NULL);
    const int major = pre[6];
    if (major < 1 || major > 3)
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "not a valid .npy file: format version %d.%d (basel "
                           "reads 1.0 to 3.0)", major, pre[7]);
    size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    if (major >= 2) {
        if (fread(pre + 10, 1, 2, fp) != 2) return bad_header(source, err, "the file ends in its header", NULL);
        hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    }
    if (hlen == 0 || hlen > NPY_MAX_HEADER) return bad_header(source, err, "the header's length is not plausible", NULL);
    char *h = malloc(hlen + 1);
    if (!h) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    int rc = BASEL_OK;
    if (fread(h, 1, hlen, fp) != hlen) rc = bad_header(source, err, "the file ends in its header", NULL);
    h[rc ? 0 : hlen] = '\0';
    if (!rc && (memchr(h, '\0', hlen) || h[0] != '{' || !strchr(h, '}')))
        rc = bad_header(source, err, "the header is not a dict", NULL);
    if (!rc) rc = parse_descr(H, dict_value(h, "descr"), source, err);
    if (!rc) {
        const char *f = dict_value(h, "fortran_order");
        if (f && !strncmp(f, "True", 4)) H->fortran = 1;
        else if (f && !strncmp(f, "False", 5)) H->fortran = 0;
        else rc = bad_header(source, err, "the header has no 'fortran_order' True or False", NULL);
    }
    if (!rc) rc = parse_shape(H, dict_value(h, "shape"), source, err);
    free(h);
    return rc;
}

/* Value k of a piece in the header's type, as a double. */
static double value_at(const npy_header *H, const unsigned char *b)
{
    unsigned char v[8];
    if (H->swap)
        for (size_t i = 0; i < H->size; i++) v[i] = b[H->size - 1 - i];
    else
        memcpy(v, b, H->size);
    switch (H->kind) {
    case 'f':
        if (H->size == 8) {
            double x;
            memcpy(&x, v, 8);
            return x;
        } else {
            float x;
            memcpy(&x, v, 4);
            return x;
        }
    case 'i':
        switch (H->size) {
        case 1: return (double)(int8_t)v[0];
        case 2: { int16_t x; memcpy(&x, v, 2); return x; }
        case 4: { int32_t x; memcpy(&x, v, 4); return x; }
        default: { int64_t x; memcpy(&x, v, 8); return (double)x; }
        }
    case 'u':
        switch (H->size) {
        case 1: return v[0];
        case 2: { uint16_t x; memcpy(&x, v, 2); return x; }
        case 4: { uint32_t x; memcpy(&x, v, 4); return x; }
        default: { uint64_t x; memcpy(&x, v, 8); return (double)x; }
        }
    default:
        return v[0] != 0;
    }
}

/* want values into buf; fewer only at the end of the file or on an error
 * (*err_no). A read interrupted by a signal goes on (the piece is at most
 * a few MB): the caller asks whether to stop after each piece. */
static size_t read_full(FILE *fp, unsigned char *buf, size_t size, size_t want, int *err_no)
{
    size_t got = 0;
    while (got < want) {
        got += fread(buf + got * size, size, want - got, fp);
        if (got == want || !ferror(fp)) break; /* all, or the end of the file */
        if (errno != EINTR) {
            *err_no = errno ? errno : EIO;
            break;
        }
        clearerr(fp);
    }
    return got;
}

/* count values of the piece as doubles into x (x may be the piece itself
 * when the values are float64 in this machine's order). */
static void to_doubles(const npy_header *H, const unsigned char *piece, size_t count, double *x)
{
    if (H->kind == 'f' && H->size == 8 && !H->swap) {
        if ((const void *)x != (const void *)piece) memcpy(x, piece, count * 8);
        return;
    }
    if (H->kind == 'i' && H->size == 1) { /* genotypes 0/1/2 */
        for (size_t t = 0; t < count; t++) x[t] = (double)(int8_t)piece[t];
        return;
    }
    for (size_t t = 0; t < count; t++) x[t] = value_at(H, piece + t * H->size);
}

/* The values into out (n x p, column-major), piece by piece; source
 * names the file in messages. Column by column (Fortran order) they are
 * out's order; row by row (C order), a piece of at least TILE rows is
 * transposed in TILE x TILE tiles, whose reads and writes stay in the cache
 * (one scattered write per value costs four times as much at p = 20000).
 * With codes (one-byte integers or bools only), the values go there as
 * int8 instead, bools as 0 or 1, and *wide is set when a value is beyond
 * +-127, the rule for inputs held as int8 (problem.c compact_size): a uint8
 * above 127 or an int8 of -128 (the caller then widens to doubles). */
#define TILE 32
#define TRANSPOSE(dst, src) /* rows [0, rows) of a C-order piece into column-major dst at row0 */ \
    for (size_t t0 = 0; t0 < rows; t0 += TILE)                                                 \
        for (size_t j0 = 0; j0 < p; j0 += TILE)                                                \
            for (size_t j = j0; j < BSL_MIN(p, j0 + TILE); j++)                                \
                for (size_t t = t0; t < BSL_MIN(rows, t0 + TILE); t++) (dst)[j * n + row0 + t] = (src)[t * p + j]
static int read_values(FILE *fp, const npy_header *H, double *out, int8_t *codes, int *wide, const char *source,
                       const bsl_progress *pr, double total, basel_error *err)
{
    const size_t n = H->n, p = H->p, count = n * p;
    /* values per piece: whole rows in C order */
    size_t per = NPY_PIECE / H->size;
    if (!H->fortran) per = BSL_MIN(n, BSL_MAX((size_t)TILE, per / p ? per / p : 1)) * p;
    const int in_place = codes || (H->kind == 'f' && H->size == 8 && !H->swap);
    unsigned char *piece = malloc(per * H->size);
    double *x = in_place ? (double *)(void *)piece : malloc(per * sizeof *x);
    int rc = piece && x ? BASEL_OK : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t k = 0; k < count && !rc;) {
        const size_t want = BSL_MIN(per, count - k);
        int err_no = 0;
        /* Fortran order and float64 or codes: straight into the table */
        unsigned char *dst = !H->fortran ? piece : codes ? (unsigned char *)(codes + k)
                                         : in_place ? (unsigned char *)(out + k) : piece;
        const size_t got = read_full(fp, dst, H->size, want, &err_no);
        if (err_no) rc = bsl_fail_at(err, BASEL_EIO, source, 0, 0, "cannot read: %s", strerror(err_no));
        else if (got < want)
            rc = bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "the .npy file ends after %zu of its %zu values "
                             "(shape %zu x %zu)", k + got, count, n, p);
        if (rc) break;
        if (codes) {
            for (size_t t = 0; t < got; t++) {
                if (H->kind == 'b') dst[t] = dst[t] != 0;
                else if (H->kind == 'u') *wide |= dst[t] > 127;
                else *wide |= dst[t] == 0x80; /* -128: int8, but not the compact rule's +-127 (problem.c) */
            }
            if (!H->fortran) {
                const size_t row0 = k / p, rows = got / p;
                TRANSPOSE(codes, (const int8_t *)piece);
            }
        } else if (H->fortran) {
            if (dst == piece) to_doubles(H, piece, got, out + k);
        } else {
            to_doubles(H, piece, got, x);
            const size_t row0 = k / p, rows = got / p;
            TRANSPOSE(out, x);
        }
        k += got;
        if (bsl_progress_report(pr, "reading", "bytes", (double)k * (double)H->size, total))
            rc = bsl_fail(err, BASEL_ECANCELLED, "cancelled while reading %s", source);
    }
    if (x != (double *)(void *)piece) free(x);
    free(piece);
    if (!rc && fgetc(fp) != EOF)
        rc = bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "the .npy file holds more than the %zu values of its "
                         "shape (%zu x %zu)", count, n, p);
    return rc;
}

/* With codes (a fit's inputs), an array of one-byte integers or bools is
 * held as the table's int8 codes (io.h), as a .bed's genotypes are: an
 * eighth of the memory of doubles, and the design takes them as they are
 * (problem.c). A value beyond +-127 widens the codes to doubles after all. */
static int build(basel_data *d, FILE *fp, const char *source, int codes, const bsl_progress *pr, double size,
                 basel_error *err)
{
    npy_header H = {0};
    int rc = read_header(fp, &H, source, err);
    if (rc) return rc;
    /* a file too short for its shape fails now, before its table is made
     * (a damaged header could ask for terabytes) */
    const long at = size > 0 ? ftell(fp) : -1;
    if (at >= 0 && (double)at + (double)H.n * (double)H.p * (double)H.size > size)
        return bsl_fail_at(err, BASEL_EPARSE, source, 0, 0, "the .npy file ends after %.0f of its %zu values "
                           "(shape %zu x %zu)", floor((size - (double)at) / (double)H.size), H.n * H.p, H.n, H.p);
    d->n = H.n;
    const int as_codes = codes && H.size == 1 && H.kind != 'f';
    if (!(d->names = bsl_calloc(H.p, sizeof *d->names)) || !(d->line_of_row = bsl_malloc(H.n, sizeof *d->line_of_row)) ||
        !(d->bad = bsl_calloc(H.p, sizeof *d->bad)) ||
        (as_codes ? !(d->codes = bsl_malloc(H.n, H.p)) : !(d->values = bsl_malloc(H.n, H.p * sizeof *d->values))))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s (%zu rows, %zu columns)", source, H.n, H.p);
    for (; d->p < H.p; d->p++) {
        char name[32];
        if (H.ndim == 1) snprintf(name, sizeof name, "y");
        else snprintf(name, sizeof name, "x%zu", d->p + 1);
        if (!(d->names[d->p] = bsl_strdup(name))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < H.n; i++) d->line_of_row[i] = i + 1;
    const double total = size > 0 ? size : (double)H.n * (double)H.p * (double)H.size;
    int wide = 0;
    if ((rc = read_values(fp, &H, d->values, d->codes, &wide, source, pr, total, err))) return rc;
    if (as_codes && !wide) {
        d->ncodes = H.p;
        return BASEL_OK;
    }
    if (as_codes) { /* beyond +-127 */
        if (!(d->values = bsl_malloc(H.n, H.p * sizeof *d->values)))
            return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s (%zu rows, %zu columns)", source, H.n, H.p);
        for (size_t c = 0; c < H.n * H.p; c++)
            d->values[c] = H.kind == 'u' ? (double)(uint8_t)d->codes[c] : (double)d->codes[c];
        free(d->codes);
        d->codes = NULL;
    }
    for (size_t j = 0; j < H.p; j++) bsl_data_mark_column(d, j);
    return BASEL_OK;
}

/* The label column (label_column as in basel_data_read_csv) as text: each
 * number printed with %.15g, a NaN as "" (unlabelled). */
static int to_labels(basel_data *d, const char *label_column, basel_error *err)
{
    const long j = *label_column ? basel_data_find(d, label_column) : (long)d->p - 1;
    if (j < 0)
        return d->p == 1 ? bsl_fail_at(err, BASEL_EPARSE, d->source, 0, 0, "the label column '%s' is not a column "
                                       "of the array (a vector: its one column is %s)", label_column, d->names[0])
                         : bsl_fail_at(err, BASEL_EPARSE, d->source, 0, 0, "the label column '%s' is not a column "
                                       "of the array (its columns are x1 .. x%zu)", label_column, d->p);
    if (!(d->labels = bsl_calloc(d->n, sizeof *d->labels))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t i = 0; i < d->n; i++) {
        double *v = &d->values[(size_t)j * d->n + i];
        char text[32] = "";
        if (!isnan(*v)) snprintf(text, sizeof text, "%.15g", *v);
        if (!(d->labels[i] = bsl_strdup(text))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        *v = NAN;
    }
    memset(&d->bad[j], 0, sizeof d->bad[j]);
    d->label_col = j;
    return BASEL_OK;
}

int bsl_npy_read_fp(basel_data **out, FILE *fp, const char *source, double size, const char *label_column,
                    int codes, const bsl_progress *pr, basel_error *err)
{
    *out = NULL;
    basel_data *d = calloc(1, sizeof *d);
    int rc = d && (d->source = bsl_strdup(source)) ? BASEL_OK : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (d) d->label_col = -1;
    if (!rc) rc = build(d, fp, source, codes && !label_column, pr, size, err);
    if (!rc && label_column) rc = to_labels(d, label_column, err);
    if (rc) {
        basel_data_free(d);
        return rc;
    }
    bsl_error_clear(err);
    *out = d;
    return BASEL_OK;
}

int bsl_npy_read_matrix(const char *path, size_t rows, size_t cols, double *A, basel_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        int e = errno;
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    npy_header H = {0};
    int rc = read_header(fp, &H, path, err);
    if (!rc && (H.ndim != 2 || H.n != rows || H.p != cols))
        rc = bsl_fail_at(err, BASEL_EPARSE, path, 0, 0, "the .npy array is %zu x %zu; expected %zu x %zu", H.n, H.p,
                         rows, cols);
    if (!rc) rc = read_values(fp, &H, A, NULL, NULL, path, NULL, 1, err);
    fclose(fp);
    for (size_t k = 0; k < rows * cols && !rc; k++)
        if (!isfinite(A[k]))
            rc = bsl_fail_at(err, BASEL_EPARSE, path, 0, 0, "[%zu][%zu] = %g: every entry must be a finite number",
                             k % rows + 1, k / rows + 1, A[k]);
    return rc;
}
