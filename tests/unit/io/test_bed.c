/*
 * test_bed.c: unit tests of the PLINK .bed reader (src/io/bed.c): the
 * genotype codes and the padding of a block's last byte, for n = 1 .. 9
 * (every remainder mod 4), as doubles and as a fit's int8 codes; the
 * columns [j0, j1) read alone against the whole table; the .fam phenotype as the target; every error the reader
 * reports, with the file (and line) it names. The files are written here
 * byte by byte, so the test needs no plink (tests/cli/test_bed.sh holds
 * the reader to plink1.9 itself). Run from the repository root.
 */
#include "check.h"
#include "io/io.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/test_bed_XXXXXX";

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static void write_file(const char *name, const void *bytes, size_t len)
{
    char path[256];
    path_of(path, sizeof path, name);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(bytes, 1, len, fp) != len) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fclose(fp);
}

static void write_text(const char *name, const char *text)
{
    write_file(name, text, strlen(text));
}

/* The A1 count that a pair value stands for: 0 hom A1, 1 missing, 2 het, 3
 * hom A2 (PLINK 1.9 "File formats", .bed). */
static double a1_count(unsigned v)
{
    return v == 0 ? 2 : v == 1 ? NAN : v == 2 ? 1 : 0;
}

/* A set PREFIX.{bed,bim,fam} of n samples and p variants whose genotype of
 * sample i, variant j is pair value (i + 3 j + i j) % 4 (with none_missing,
 * 2 where that is 1), the padding pairs set to 1 (missing) so that a
 * reader that read them would be seen; the phenotypes i + 0.5, sample 1's
 * -9. */
static int none_missing;
static unsigned pair_value(size_t i, size_t j)
{
    const unsigned v = (unsigned)((i + 3 * j + i * j) % 4);
    return none_missing && v == 1 ? 2 : v;
}

static void write_set(const char *prefix, size_t n, size_t p)
{
    const size_t block = (n + 3) / 4;
    unsigned char *bed = calloc(3 + p * block, 1);
    bed[0] = 0x6c, bed[1] = 0x1b, bed[2] = 0x01;
    for (size_t j = 0; j < p; j++)
        for (size_t i = 0; i < 4 * block; i++) {
            const unsigned v = i < n ? pair_value(i, j) : 1;
            bed[3 + j * block + i / 4] |= (unsigned char)(v << (2 * (i % 4)));
        }
    char name[64], text[4096] = "", line[128];
    snprintf(name, sizeof name, "%s.bed", prefix);
    write_file(name, bed, 3 + p * block);
    free(bed);
    for (size_t j = 0; j < p; j++) {
        snprintf(line, sizeof line, "1\trs%zu\t0\t%zu\tA\tG\n", j + 1, 100 * (j + 1));
        strcat(text, line);
    }
    snprintf(name, sizeof name, "%s.bim", prefix);
    write_text(name, text);
    text[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i == 1) snprintf(line, sizeof line, "f%zu s%zu 0 0 1 -9\n", i, i);
        else snprintf(line, sizeof line, "f%zu s%zu 0 0 1 %g\n", i, i, i + 0.5);
        strcat(text, line);
    }
    snprintf(name, sizeof name, "%s.fam", prefix);
    write_text(name, text);
}

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* Every n from 1 to 9: the codes, the padding ignored, the names, the rows'
 * lines, the phenotype column; read as doubles, and for a fit as codes
 * (int8, io.h), which a set with a missing genotype does not keep. */
static void test_codes(int as_codes)
{
    const size_t p = 5;
    for (size_t n = 1; n <= 9; n++) {
        char path[256];
        write_set("codes", n, p);
        path_of(path, sizeof path, "codes.bed");
        basel_data *d = NULL;
        basel_error err;
        int rc = bsl_bed_read(&d, path, 1, NULL, as_codes, NULL, &err);
        CHECK(rc == BASEL_OK, "n = %zu: read: %s", n, err.message);
        if (rc) continue;
        int missing = 0;
        for (size_t j = 0; j < p; j++)
            for (size_t i = 0; i < n; i++) missing |= pair_value(i, j) == 1;
        CHECK(d->n == n && d->p == p + 1, "n = %zu: %zu x %zu", n, d->n, d->p);
        CHECK(d->ncodes == (as_codes && !missing ? p : 0) && (d->codes != NULL) == (d->ncodes > 0),
              "n = %zu, codes %d, missing %d: %zu columns of codes", n, as_codes, missing, d->ncodes);
        size_t wrong = 0;
        for (size_t j = 0; j < p; j++)
            for (size_t i = 0; i < n; i++)
                wrong += !same(bsl_data_at(d, i, j), a1_count(pair_value(i, j))) ||
                         !same(basel_data_value(d, i, j), a1_count(pair_value(i, j)));
        CHECK(wrong == 0, "n = %zu: %zu genotypes decoded wrong", n, wrong);
        CHECK(!strcmp(d->names[0], "rs1") && !strcmp(d->names[p - 1], "rs5") && !strcmp(d->names[p], "phenotype"),
              "n = %zu: names %s .. %s, %s", n, d->names[0], d->names[p - 1], d->names[p]);
        CHECK(d->line_of_row[n - 1] == n, "n = %zu: last row's line %zu", n, d->line_of_row[n - 1]);
        const double *y = bsl_data_col(d, p);
        CHECK(y[0] == 0.5 && (n < 2 || isnan(y[1])) && (n < 3 || y[2] == 2.5), "n = %zu: phenotypes %g %g %g", n,
              y[0], n > 1 ? y[1] : 0, n > 2 ? y[2] : 0);
        /* a missing genotype is a missing cell (the fit's --na applies) */
        CHECK(n < 2 || !missing || bsl_data_is_missing(d, 1, 0), "n = %zu: cell (2, rs1) not missing", n);
        if (n >= 3) { /* a subset of rows keeps the codes */
            const size_t rows[2] = {2, 0};
            basel_data *s = NULL;
            CHECK(basel_data_subset(&s, d, rows, 2, &err) == BASEL_OK && s->ncodes == d->ncodes, "n = %zu: subset",
                  n);
            size_t off = 0;
            for (size_t j = 0; s && j <= p; j++)
                for (size_t k = 0; k < 2; k++) off += !same(bsl_data_at(s, k, j), bsl_data_at(d, rows[k], j));
            CHECK(s && off == 0, "n = %zu: %zu cells of the subset differ", n, off);
            basel_data_free(s);
        }
        basel_data_free(d);
    }
}

/* Columns [j0, j1) alone, through the open handle, are the whole table's
 * columns j0 .. j1 - 1, in any order of calls (each seeks to its block). */
static void test_columns(void)
{
    const size_t n = 7, p = 11;
    char path[256];
    write_set("cols", n, p);
    path_of(path, sizeof path, "cols.bed");
    basel_error err;
    bsl_bed *b = NULL;
    double all[7 * 11], part[7 * 11];
    int rc = bsl_bed_open(&b, path, &err);
    CHECK(rc == BASEL_OK, "open: %s", err.message);
    if (rc) return;
    CHECK(b->n == n && b->p == p && b->block == 2, "sizes %zu %zu %zu", b->n, b->p, b->block);
    rc = bsl_bed_read_columns(b, 0, p, all, NULL, &err);
    CHECK(rc == BASEL_OK, "all columns: %s", err.message);
    const size_t ranges[][2] = {{10, 11}, {3, 7}, {0, 1}, {5, 5}, {0, 11}, {9, 11}};
    for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
        const size_t j0 = ranges[r][0], j1 = ranges[r][1];
        for (size_t k = 0; k < n * p; k++) part[k] = -1;
        rc = bsl_bed_read_columns(b, j0, j1, part, NULL, &err);
        CHECK(rc == BASEL_OK, "[%zu, %zu): %s", j0, j1, err.message);
        size_t wrong = 0;
        for (size_t k = 0; k < n * (j1 - j0); k++) wrong += !same(part[k], all[j0 * n + k]);
        for (size_t k = n * (j1 - j0); k < n * p; k++) wrong += part[k] != -1; /* nothing past the block */
        CHECK(wrong == 0, "[%zu, %zu): %zu values differ from the whole read", j0, j1, wrong);
    }
    rc = bsl_bed_read_columns(b, 4, 12, part, NULL, &err);
    CHECK(rc == BASEL_EINVAL, "[4, 12) of 11 columns: %d", rc);
    bsl_bed_close(b);
}

/* The phenotype as labels (a method that reads labels): the text as
 * written, -9 unlabelled. */
static void test_labels(void)
{
    char path[256];
    write_set("lab", 4, 2);
    path_of(path, sizeof path, "lab.bed");
    basel_data *d = NULL;
    basel_error err;
    int rc = bsl_bed_read(&d, path, 1, "", 1, NULL, &err);
    CHECK(rc == BASEL_OK, "labels: %s", err.message);
    if (rc) return;
    CHECK(d->label_col == 2 && !strcmp(d->labels[0], "0.5") && !strcmp(d->labels[1], ""), "labels %ld '%s' '%s'",
          d->label_col, d->labels[0], d->labels[1]);
    basel_data_free(d);
}

/* path fails with code, its message holding want. */
static void expect_error(const char *what, const char *name, int with_phenotype, int code, const char *want)
{
    char path[256];
    path_of(path, sizeof path, name);
    basel_data *d = NULL;
    basel_error err;
    int rc = bsl_bed_read(&d, path, with_phenotype, NULL, 1, NULL, &err);
    CHECK(rc == code && (rc == BASEL_OK) == (d != NULL), "%s: code %d, want %d (%s)", what, rc, code, rc ? err.message : "");
    /* as the command prints it: FILE:LINE: message (the file's base name) */
    char said[1024] = "";
    if (rc) {
        const char *slash = strrchr(err.file, '/');
        char line[32] = "";
        if (err.line) snprintf(line, sizeof line, ":%zu", err.line);
        snprintf(said, sizeof said, "%s%s: %s", slash ? slash + 1 : err.file, line, err.message);
    }
    CHECK(rc == BASEL_OK || strstr(said, want), "%s: '%s' lacks '%s'", what, said, want);
    basel_data_free(d);
}

static void test_errors(void)
{
    write_set("e", 6, 3); /* block 2: 3 + 3 x 2 = 9 bytes */
    char bed[9];
    char path[256];
    path_of(path, sizeof path, "e.bed");
    FILE *fp = fopen(path, "rb");
    CHECK(fp && fread(bed, 1, 9, fp) == 9, "read back e.bed");
    if (fp) fclose(fp);
    /* the .bed files below share e's .bim and .fam */
    const char *sides[] = {"bim", "fam"}, *names[] = {"magic", "mode", "short", "long", "empty", "nofam"};
    for (size_t s = 0; s < 2; s++)
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            char from[256], to[256];
            snprintf(from, sizeof from, "%s/e.%s", dir, sides[s]);
            snprintf(to, sizeof to, "%s/%s.%s", dir, names[k], sides[s]);
            if (s == 0 || k < 5) CHECK(link(from, to) == 0, "link %s", to);
        }
    char magic[9], mode[9];
    memcpy(magic, bed, 9);
    magic[1] = 0x1c;
    memcpy(mode, bed, 9);
    mode[2] = 0x00;
    write_file("magic.bed", magic, 9);
    write_file("mode.bed", mode, 9);
    write_file("short.bed", bed, 8);
    write_file("long.bed", (char[10]){bed[0], bed[1], bed[2], bed[3], bed[4], bed[5], bed[6], bed[7], bed[8], 0}, 10);
    write_file("empty.bed", "", 0);
    expect_error("wrong magic", "magic.bed", 0, BASEL_EPARSE, "magic.bed: not a PLINK .bed file: it does not start with the magic bytes 0x6c 0x1b");
    expect_error("individual-major", "mode.bed", 0, BASEL_EPARSE, "mode.bed: the .bed file is in individual-major mode");
    expect_error("short", "short.bed", 0, BASEL_EPARSE, "short.bed: the .bed file has 8 bytes; its 3 variants");
    expect_error("short", "short.bed", 0, BASEL_EPARSE, "take 3 + 3 x 2 = 9: the files do not belong together, or the .bed is cut short");
    expect_error("long", "long.bed", 0, BASEL_EPARSE, "has 10 bytes; its 3 variants");
    expect_error("empty", "empty.bed", 0, BASEL_EPARSE, "it does not start with the magic bytes");
    expect_error("no .bed", "none.bed", 0, BASEL_EIO, "none.bed: cannot open: No such file");
    /* a UCSC BED of intervals (no .bim, no .fam): named as not PLINK's */
    write_text("ucsc.bed", "chr1\t1000\t5000\tpeak1\n");
    expect_error("UCSC BED", "ucsc.bed", 0, BASEL_EPARSE, "ucsc.bed: not a PLINK .bed file: it does not start with the magic");
    /* a .bed without its .fam, then without its .bim */
    write_file("nofam.bed", bed, 9);
    expect_error("no .fam", "nofam.bed", 0, BASEL_EIO, "nofam.fam: cannot open: No such file or directory (a .bed "
                 "file's samples are in the .fam beside it)");
    write_set("nobim", 6, 3);
    path_of(path, sizeof path, "nobim.bim");
    unlink(path);
    expect_error("no .bim", "nobim.bed", 0, BASEL_EIO, "nobim.bim: cannot open: No such file or directory (a .bed "
                 "file's variants are in the .bim beside it)");
    /* text side files: the line named */
    write_set("fields", 6, 3);
    write_text("fields.bim", "1 rs1 0 100 A G\n\n1 rs2 0 200 A\n1 rs3 0 300 A G\n");
    expect_error("5 fields", "fields.bed", 0, BASEL_EPARSE, "fields.bim:3: a .bim line has 6 fields; this one has 5");
    write_set("dup", 6, 3);
    write_text("dup.bim", "1 rs1 0 100 A G\n1 rs2 0 200 A G\n1 rs1 0 300 A G\n");
    expect_error("duplicate", "dup.bed", 0, BASEL_EPARSE, "dup.bim:3: variant ID 'rs1' is used twice (lines 1 and 3)");
    write_set("nopheno", 6, 3);
    write_text("nopheno.fam", "a a 0 0 1 -9\nb b 0 0 1 0\nc c 0 0 1 -9\nd d 0 0 1 -9\ne e 0 0 2 -9\nf f 0 0 1 0\n");
    expect_error("no phenotype", "nopheno.bed", 1, BASEL_EINVAL, "nopheno.fam: no phenotype (every sample's is -9 or 0");
    expect_error("no phenotype, not asked for", "nopheno.bed", 0, BASEL_OK, "");
    write_set("text", 6, 3);
    write_text("text.fam", "a a 0 0 1 1\nb b 0 0 1 2\nc c 0 0 1 case\nd d 0 0 1 1\ne e 0 0 2 1\nf f 0 0 1 2\n");
    expect_error("text phenotype", "text.bed", 1, BASEL_EPARSE, "text.fam:3: the phenotype 'case' (field 6) is not a number");
    write_set("nolines", 6, 3);
    write_text("nolines.fam", "\n\n");
    expect_error("empty .fam", "nolines.bed", 0, BASEL_EPARSE, "nolines.fam: the file lists no samples");
    write_set("clash", 6, 3);
    write_text("clash.bim", "1 rs1 0 100 A G\n1 phenotype 0 200 A G\n1 rs3 0 300 A G\n");
    expect_error("a variant named phenotype", "clash.bed", 1, BASEL_EINVAL, "column name 'phenotype' is used twice");
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_codes(0);
    test_codes(1);
    none_missing = 1;
    test_codes(1); /* every n keeps its codes */
    none_missing = 0;
    test_columns();
    test_labels();
    test_errors();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_bed");
}
