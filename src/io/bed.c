/*
 * bed.c: PLINK 1 binary genotypes (.bed with its .bim and .fam) as a
 * basel_data, the genotype input for large designs (README "Large
 * designs").
 *
 * Format (PLINK 1.9's documentation, "File formats", .bed, .bim, .fam):
 *   PREFIX.fam  one line a sample, 6 fields separated by blanks or tabs:
 *               family ID, sample ID, father, mother, sex, phenotype.
 *               n = its number of lines; its order is the samples' order.
 *   PREFIX.bim  one line a variant, 6 fields: chromosome, variant ID,
 *               position in morgans, base-pair position, allele 1 (A1),
 *               allele 2. p = its number of lines; the variant IDs name
 *               the columns.
 *   PREFIX.bed  the magic 0x6c 0x1b, then 0x01 (SNP-major: one block a
 *               variant, in the .bim's order), then p blocks of ceil(n/4)
 *               bytes. A byte holds 4 samples' genotypes, 2 bits each,
 *               sample 4k + t in bits 2t and 2t + 1 (the lowest pair first);
 *               the pairs past sample n in a block's last byte are padding.
 * A pair's value (its two bits read as a number 0..3) is 0 for A1
 * homozygous, 1 missing, 2 heterozygous and 3 A2 homozygous; the cell is the
 * count of A1 alleles, as PLINK's --recode A --keep-allele-order writes it
 * (2, NaN, 1, 0: checked against plink1.9 by tests/cli/test_bed.sh; without
 * --keep-allele-order plink 1.9 counts the minor allele, which is A1 in the
 * files it writes). A missing genotype is a missing value (NaN), so the
 * fit's --na applies; the "line" of a cell is its sample's line in the
 * .fam.
 *
 * For a fit (bsl_data_read's codes), the counts are held as int8 (the
 * table's codes, io.h): 1 byte a genotype against 8, so that p = 10^6
 * variants of n = 1000 samples take 1 GB, not 8. A set with a missing
 * genotype is held as doubles (NaN missing), as before.
 *
 * The .bed is read by columns: bsl_bed_read_columns fills columns [j0, j1)
 * only, seeking to their blocks, so that a process holding a block of
 * columns reads only its own; it reads them in pieces of about 1 MiB,
 * each decoded through a table of the 256 bytes' four genotypes. The
 * individual-major mode (third byte 0x00, PLINK before 1.0) is refused:
 * plink1.9 --make-bed rewrites such a file in SNP-major mode.
 *
 * The target: --target-file (read.c) or, without one, the .fam's phenotype
 * (the column "phenotype"), -9 missing, every other value as written
 * (PLINK's case/control 1 and 2 included); a .fam whose phenotypes are all
 * -9 or 0 (PLINK's "none") has none, and the reader says to give
 * --target-file.
 */
#include "io.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BED_PIECE ((size_t)1 << 20)
#define BED_FIELDS 6

int bsl_bed_is_path(const char *path)
{
    const size_t len = strlen(path);
    return len > 4 && !strcmp(path + len - 4, ".bed");
}

/* prefix + ext, prefix being path less its ".bed" */
static char *side_path(const char *path, const char *ext)
{
    const size_t stem = strlen(path) - 4;
    char *s = malloc(stem + strlen(ext) + 1);
    if (s) {
        memcpy(s, path, stem);
        strcpy(s + stem, ext);
    }
    return s;
}

/* Split line (blanks, tabs, a final CR or LF) into at most max fields, in
 * place; returns the number of fields (counting past max). */
static size_t split(char *line, char **field, size_t max)
{
    size_t k = 0;
    for (char *s = line;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
        if (!*s) break;
        if (k < max) field[k] = s;
        k++;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') s++;
        if (*s) *s++ = '\0';
    }
    return k;
}

/* What is kept of a text side file (.bim or .fam): one field of each
 * line that is not blank, and the line it is on. */
typedef struct side_list {
    char **text;  /* the kept field of each line */
    size_t *line; /* its line in the file */
    size_t n, cap;
    size_t field; /* which field (0-based) */
} side_list;

static int keep(side_list *s, const char *text, size_t line, basel_error *err)
{
    if (s->n == s->cap) {
        const size_t cap = s->cap ? 2 * s->cap : 1024;
        char **t = realloc(s->text, cap * sizeof *t);
        if (t) s->text = t;
        size_t *l = t ? realloc(s->line, cap * sizeof *l) : NULL;
        if (!l) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        s->line = l;
        s->cap = cap;
    }
    if (!(s->text[s->n] = bsl_strdup(text))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    s->line[s->n++] = line;
    return BASEL_OK;
}

static void side_free(side_list *s)
{
    for (size_t k = 0; k < s->n; k++) free(s->text[k]);
    free(s->text);
    free(s->line);
}

/* Read a side file into s: each line that is not blank must have 6
 * fields (what names its lines' things in messages). */
static int read_side(const char *path, const char *what, side_list *s, basel_error *err)
{
    const char *ext = strrchr(path, '.');
    FILE *fp = fopen(path, "r");
    if (!fp) {
        int e = errno;
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot open: %s (a .bed file's %s are in the %s beside it)",
                           strerror(e), what, ext);
    }
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    int rc = BASEL_OK;
    while (!rc && getline(&line, &cap, fp) >= 0) {
        lineno++;
        char *field[BED_FIELDS];
        const size_t k = split(line, field, BED_FIELDS);
        if (k == 0) continue; /* a blank line, as PLINK skips it */
        if (k != BED_FIELDS)
            rc = bsl_fail_at(err, BASEL_EPARSE, path, lineno, 0, "a %s line has %d fields; this one has %zu", ext,
                             BED_FIELDS, k);
        else rc = keep(s, field[s->field], lineno, err);
    }
    if (!rc && ferror(fp)) rc = bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
    if (!rc && s->n == 0) rc = bsl_fail_at(err, BASEL_EPARSE, path, 0, 0, "the file lists no %s", what);
    free(line);
    fclose(fp);
    return rc;
}

typedef struct name_at {
    const char *name;
    size_t index;
} name_at;

static int by_name(const void *a, const void *b)
{
    const name_at *x = a, *y = b;
    const int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The variant IDs name the columns, so they must be distinct: the first
 * repeat (in the .bim's order) is named with both its lines. O(p log p). */
static int check_unique(const bsl_bed *b, basel_error *err)
{
    name_at *s = bsl_malloc(b->p, sizeof *s);
    if (!s) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < b->p; j++) s[j] = (name_at){b->names[j], j};
    qsort(s, b->p, sizeof *s, by_name);
    size_t best = 0;
    for (size_t k = 1; k < b->p; k++)
        if (!strcmp(s[k].name, s[k - 1].name) && (!best || s[k].index < s[best].index)) best = k;
    int rc = BASEL_OK;
    if (best)
        rc = bsl_fail_at(err, BASEL_EPARSE, b->bim, b->bim_line[s[best].index], 0,
                         "variant ID '%s' is used twice (lines %zu and %zu); the IDs name the columns, so each must "
                         "be distinct (plink1.9 --set-missing-var-ids, or --bmerge's renaming)",
                         s[best].name, b->bim_line[s[best - 1].index], b->bim_line[s[best].index]);
    free(s);
    return rc;
}

/* The magic and the mode, read first: a file that is not PLINK's (a
 * UCSC BED of genome intervals shares the extension) is named as such
 * before its side files are looked for. */
static int check_magic(const bsl_bed *b, basel_error *err)
{
    unsigned char magic[3];
    const size_t got = fread(magic, 1, 3, b->fp);
    if (got < 2 || magic[0] != 0x6c || magic[1] != 0x1b)
        return bsl_fail_at(err, BASEL_EPARSE, b->bed, 0, 0, "not a PLINK .bed file: it does not start with the "
                           "magic bytes 0x6c 0x1b");
    if (got < 3 || magic[2] > 1)
        return bsl_fail_at(err, BASEL_EPARSE, b->bed, 0, 0, "not a PLINK .bed file: its third byte is not 0x01 "
                           "(SNP-major) or 0x00");
    if (magic[2] == 0)
        return bsl_fail_at(err, BASEL_EPARSE, b->bed, 0, 0, "the .bed file is in individual-major mode (third "
                           "byte 0x00); basel reads SNP-major files: rewrite it with plink1.9 --bfile PREFIX "
                           "--make-bed --out NEWPREFIX");
    return BASEL_OK;
}

/* The size the .bim and .fam imply (a file that is not regular, a pipe,
 * is held to it as it is read instead). */
static int check_size(const bsl_bed *b, basel_error *err)
{
    struct stat st;
    if (fstat(fileno(b->fp), &st) == 0 && S_ISREG(st.st_mode)) {
        const double want = 3 + (double)b->p * (double)b->block;
        if ((double)st.st_size != want)
            return bsl_fail_at(err, BASEL_EPARSE, b->bed, 0, 0, "the .bed file has %.0f bytes; its %zu variants "
                               "(%s) of %zu samples (%s) take 3 + %zu x %zu = %.0f: the files do not belong "
                               "together, or the .bed is %s", (double)st.st_size, b->p, b->bim, b->n, b->fam,
                               b->p, b->block, want, (double)st.st_size < want ? "cut short" : "longer");
    }
    return BASEL_OK;
}

int bsl_bed_open(bsl_bed **out, const char *path, basel_error *err)
{
    *out = NULL;
    bsl_bed *b = calloc(1, sizeof *b);
    if (!b || !(b->bed = bsl_strdup(path)) || !(b->bim = side_path(path, ".bim")) ||
        !(b->fam = side_path(path, ".fam"))) {
        bsl_bed_close(b);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    int rc = BASEL_OK;
    if (!(b->fp = fopen(path, "rb"))) {
        int e = errno;
        rc = bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    if (!rc) rc = check_magic(b, err);
    side_list fam = {.field = 5}, bim = {.field = 1}; /* phenotypes, variant IDs */
    if (!rc) rc = read_side(b->fam, "samples", &fam, err);
    if (!rc) rc = read_side(b->bim, "variants", &bim, err);
    b->n = fam.n;
    b->p = bim.n;
    b->block = (b->n + 3) / 4;
    b->pheno = fam.text;
    b->fam_line = fam.line;
    b->names = bim.text;
    b->bim_line = bim.line;
    if (!rc) rc = check_size(b, err);
    if (!rc) rc = check_unique(b, err);
    if (rc) {
        bsl_bed_close(b);
        return rc;
    }
    *out = b;
    return BASEL_OK;
}

void bsl_bed_close(bsl_bed *b)
{
    if (!b) return;
    if (b->fp) fclose(b->fp);
    side_list fam = {.text = b->pheno, .line = b->fam_line, .n = b->n};
    side_list bim = {.text = b->names, .line = b->bim_line, .n = b->p};
    side_free(&fam);
    side_free(&bim);
    free(b->bed);
    free(b->bim);
    free(b->fam);
    free(b);
}

/* The four genotypes of every byte, as A1 counts: the pair value v =
 * (byte >> 2t) & 3 gives 2, NaN, 1, 0 for v = 0, 1, 2, 3 (file comment);
 * as codes, -1 for NaN. */
typedef struct decoder {
    double lut[256][4];
    int8_t code[256][4];
    unsigned char has_missing[256];
} decoder;

static void decode_table(decoder *dc)
{
    const double a1_count[4] = {2.0, NAN, 1.0, 0.0};
    for (unsigned byte = 0; byte < 256; byte++) {
        dc->has_missing[byte] = 0;
        for (unsigned t = 0; t < 4; t++) {
            const unsigned v = (byte >> (2 * t)) & 3;
            dc->lut[byte][t] = a1_count[v];
            dc->code[byte][t] = v == 1 ? -1 : (int8_t)a1_count[v];
            dc->has_missing[byte] |= v == 1;
        }
    }
}

/* One variant's block into col (n doubles) or codes (n int8); returns
 * whether a genotype is missing (codes only: the padding pairs past n
 * are not looked at). */
static int decode(const decoder *dc, const unsigned char *block, size_t n, double *col, int8_t *codes)
{
    const size_t whole = n / 4;
    if (col) {
        for (size_t k = 0; k < whole; k++) memcpy(col + 4 * k, dc->lut[block[k]], 4 * sizeof *col);
        for (size_t i = 4 * whole; i < n; i++) col[i] = dc->lut[block[whole]][i - 4 * whole];
        return 0;
    }
    unsigned char missing = 0;
    for (size_t k = 0; k < whole; k++) {
        memcpy(codes + 4 * k, dc->code[block[k]], 4);
        missing |= dc->has_missing[block[k]];
    }
    for (size_t i = 4 * whole; i < n; i++) missing |= (codes[i] = dc->code[block[whole]][i - 4 * whole]) < 0;
    return missing != 0;
}

/* Columns [j0, j1) into out (doubles) or codes (int8, *missing set when a
 * genotype is missing). */
static int read_blocks(bsl_bed *b, size_t j0, size_t j1, double *out, int8_t *codes, int *missing,
                       const bsl_progress *pr, basel_error *err)
{
    if (j0 > j1 || j1 > b->p)
        return bsl_fail(err, BASEL_EINVAL, "bsl_bed_read_columns: columns [%zu, %zu) of %zu", j0, j1, b->p);
    if (j0 == j1) return BASEL_OK;
    const size_t per = BSL_MAX((size_t)1, BED_PIECE / b->block); /* variants a piece */
    unsigned char *piece = bsl_malloc(BSL_MIN(per, j1 - j0), b->block);
    decoder *dc = malloc(sizeof *dc);
    int rc = piece && dc ? BASEL_OK : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!rc) decode_table(dc);
    if (!rc && fseeko(b->fp, (off_t)3 + (off_t)j0 * (off_t)b->block, SEEK_SET)) {
        int e = errno;
        rc = bsl_fail_at(err, BASEL_EIO, b->bed, 0, 0, "cannot seek to variant %zu: %s", j0 + 1, strerror(e));
    }
    const double total = (double)(j1 - j0) * (double)b->block;
    for (size_t j = j0; j < j1 && !rc;) {
        const size_t want = BSL_MIN(per, j1 - j), got = fread(piece, b->block, want, b->fp);
        if (got < want && ferror(b->fp)) {
            rc = bsl_fail_at(err, BASEL_EIO, b->bed, 0, 0, "cannot read: %s", strerror(errno));
            break;
        }
        if (got < want) {
            rc = bsl_fail_at(err, BASEL_EPARSE, b->bed, 0, 0, "the .bed file ends after %zu of its %zu variants",
                             j + got, b->p);
            break;
        }
        for (size_t k = 0; k < got; k++) {
            const size_t at = (j - j0 + k) * b->n;
            if (decode(dc, piece + k * b->block, b->n, out ? out + at : NULL, codes ? codes + at : NULL))
                *missing = 1;
        }
        j += got;
        if (bsl_progress_report(pr, "reading", "bytes", (double)(j - j0) * (double)b->block, total))
            rc = bsl_fail(err, BASEL_ECANCELLED, "cancelled while reading %s", b->bed);
    }
    free(dc);
    free(piece);
    return rc;
}

int bsl_bed_read_columns(bsl_bed *b, size_t j0, size_t j1, double *out, const bsl_progress *pr, basel_error *err)
{
    return read_blocks(b, j0, j1, out, NULL, NULL, pr, err);
}

/* Whether a .fam phenotype is PLINK's missing value, -9. */
static int pheno_missing(const char *text)
{
    char *stop;
    return strtod(text, &stop) == -9 && *stop == '\0';
}

/* The .fam's phenotypes appended to d as its last column, "phenotype":
 * as labels (their text, -9 unlabelled) when label_column is given, else
 * as numbers (-9 missing). */
static int add_phenotype(basel_data *d, const bsl_bed *b, const char *label_column, basel_error *err)
{
    size_t given = 0;
    for (size_t i = 0; i < b->n; i++) {
        char *stop;
        const double v = strtod(b->pheno[i], &stop);
        given += !(*stop == '\0' && (v == -9 || v == 0));
    }
    if (!given)
        return bsl_fail_at(err, BASEL_EINVAL, b->fam, 0, 0, "no phenotype (every sample's is -9 or 0, PLINK's "
                           "none): give the target with --target-file");
    if (label_column) {
        const char **labels = bsl_malloc(b->n, sizeof *labels);
        if (!labels) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        for (size_t i = 0; i < b->n; i++) labels[i] = pheno_missing(b->pheno[i]) ? "" : b->pheno[i];
        const int rc = basel_data_add_labels(d, "phenotype", labels, err);
        free(labels);
        return rc;
    }
    double *y = bsl_malloc(b->n, sizeof *y);
    if (!y) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    int rc = BASEL_OK;
    for (size_t i = 0; i < b->n && !rc; i++) {
        char *stop;
        y[i] = strtod(b->pheno[i], &stop);
        if (*stop != '\0' || !isfinite(y[i]))
            rc = bsl_fail_at(err, BASEL_EPARSE, b->fam, b->fam_line[i], 0, "the phenotype '%s' (field 6) is not a "
                             "number (-9 is missing)", b->pheno[i]);
        else if (pheno_missing(b->pheno[i])) y[i] = NAN;
    }
    if (!rc) rc = basel_data_add_column(d, "phenotype", y, 1, err);
    free(y);
    return rc;
}

/* The genotypes of variants [j0, j1) as codes (ncodes = j1 - j0); with a
 * missing one, as doubles instead: the codes widened (NaN missing) and the
 * codes freed. */
static int read_codes(basel_data *d, bsl_bed *b, size_t j0, size_t j1, const bsl_progress *pr, basel_error *err)
{
    const size_t p = j1 - j0;
    if (!(d->codes = bsl_malloc(b->n, p + 1)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s (%zu samples, %zu variants)", b->bed, b->n, p);
    d->ncodes = p;
    int missing = 0;
    int rc = read_blocks(b, j0, j1, NULL, d->codes, &missing, pr, err);
    if (rc || !missing) return rc;
    if (!(d->values = bsl_malloc(b->n, p * sizeof *d->values + 1)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s (%zu samples, %zu variants)", b->bed, b->n, p);
    const size_t cells = b->n * p;
    for (size_t c = 0; c < cells; c++) d->values[c] = d->codes[c] < 0 ? NAN : (double)d->codes[c];
    free(d->codes);
    d->codes = NULL;
    d->ncodes = 0;
    return BASEL_OK;
}

/* The table of variants [j0, j1) (all: 0, p). */
static int build(basel_data *d, bsl_bed *b, size_t j0, size_t j1, int with_phenotype, const char *label_column,
                 int codes, const bsl_progress *pr, basel_error *err)
{
    const size_t p = j1 - j0;
    d->n = b->n;
    if (!(d->names = bsl_calloc(p + 1, sizeof *d->names)) ||
        (!codes && !(d->values = bsl_malloc(b->n, p * sizeof *d->values + 1))) ||
        !(d->line_of_row = bsl_malloc(b->n, sizeof *d->line_of_row)) || !(d->bad = bsl_calloc(p + 1, sizeof *d->bad)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory reading %s (%zu samples, %zu variants)", b->bed, b->n, p);
    /* the names move from the handle to the table */
    for (; d->p < p; d->p++) {
        d->names[d->p] = b->names[j0 + d->p];
        b->names[j0 + d->p] = NULL;
    }
    memcpy(d->line_of_row, b->fam_line, b->n * sizeof *d->line_of_row);
    int rc = codes ? read_codes(d, b, j0, j1, pr, err) : bsl_bed_read_columns(b, j0, j1, d->values, pr, err);
    for (size_t j = d->ncodes; j < p && !rc; j++) bsl_data_mark_column(d, j);
    if (!rc && with_phenotype) rc = add_phenotype(d, b, label_column, err);
    return rc;
}

/* bsl_bed_read and bsl_bed_read_block: block of blocks (0 of 0: all). */
static int read_set(basel_data **out, const char *path, size_t block, size_t blocks, int with_phenotype,
                    const char *label_column, int codes, const bsl_progress *pr, basel_error *err)
{
    *out = NULL;
    bsl_bed *b = NULL;
    int rc = bsl_bed_open(&b, path, err);
    if (rc) return rc;
    size_t j0 = 0, j1 = b->p;
    if (blocks) { /* whole panels of 16 variants (design.h BSL_F32_PANEL), the last block the rest */
        const size_t per = (b->p + 16 * blocks - 1) / (16 * blocks) * 16;
        j0 = BSL_MIN(block * per, b->p);
        j1 = BSL_MIN(j0 + per, b->p);
        if (j0 == j1)
            rc = bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "%zu variants are too few for %zu processes: each holds "
                             "a block of whole 16-variant panels, so at most %zu can", b->p, blocks,
                             (b->p + per - 1) / per);
    }
    basel_data *d = rc ? NULL : calloc(1, sizeof *d);
    if (!rc) rc = d && (d->source = bsl_strdup(path)) ? BASEL_OK : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (d) d->label_col = -1;
    if (!rc) rc = build(d, b, j0, j1, with_phenotype, label_column, codes, pr, err);
    bsl_bed_close(b);
    if (rc) {
        basel_data_free(d);
        return rc;
    }
    bsl_error_clear(err);
    *out = d;
    return BASEL_OK;
}

int bsl_bed_read_block(basel_data **out, const char *path, size_t block, size_t blocks, int with_phenotype,
                       const char *label_column, const bsl_progress *pr, basel_error *err)
{
    return read_set(out, path, block, blocks, with_phenotype, label_column, 1, pr, err);
}

int bsl_bed_read(basel_data **out, const char *path, int with_phenotype, const char *label_column, int codes,
                 const bsl_progress *pr, basel_error *err)
{
    return read_set(out, path, 0, 0, with_phenotype, label_column, codes, pr, err);
}
