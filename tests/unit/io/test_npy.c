/*
 * test_npy.c: unit tests of the .npy reader's int8 codes (src/io/npy.c).
 * A fit's inputs from an array of one-byte integers or bools (beside a
 * target file) are held as the table's int8 codes, as a .bed's genotypes
 * are, with the values of the array: int8 in C order, uint8 in Fortran
 * order, bool (any non-zero byte is 1). A value beyond +-127 (a uint8
 * above 127, an int8 of -128: the rule of inputs held as int8) is read as
 * doubles after all; so is every array read to predict from
 * (bsl_data_read_inputs), and the target file. The files are written here
 * byte by byte. Run from the repository root.
 */
#include "check.h"
#include "io/io.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/test_npy_XXXXXX";

enum { N = 7, P = 5 };

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* A version 1.0 .npy file: its header padded to a multiple of 64 bytes. */
static void write_npy(const char *name, const char *descr, int fortran, const char *shape, const void *values,
                      size_t bytes)
{
    char header[256], path[256];
    int len = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
                       fortran ? "True" : "False", shape);
    while ((10 + len + 1) % 64) header[len++] = ' ';
    header[len++] = '\n';
    const unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(len & 0xff),
                                   (unsigned char)(len >> 8)};
    path_of(path, sizeof path, name);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(pre, 1, 10, fp) != 10 || fwrite(header, 1, (size_t)len, fp) != (size_t)len ||
        fwrite(values, 1, bytes, fp) != bytes) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    fclose(fp);
}

/* The value of row i, column j: whole numbers from -3 to 9. */
static int cell(size_t i, size_t j)
{
    return (int)((i * 5 + j * 3 + i * j) % 13) - 3;
}

static void write_files(void)
{
    int8_t c_order[N * P];
    int8_t low[N * P];
    uint8_t f_order[N * P], flags[N * P], big[N * P];
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < P; j++) {
            c_order[i * P + j] = (int8_t)cell(i, j);
            f_order[j * N + i] = (uint8_t)(cell(i, j) + 3);
            flags[i * P + j] = (uint8_t)(cell(i, j) > 0 ? cell(i, j) : 0); /* bytes 0, 1..9: bools */
            big[i * P + j] = (uint8_t)(cell(i, j) + 3);
            low[i * P + j] = (int8_t)cell(i, j);
        }
    big[2 * P + 4] = 200;
    low[4 * P + 1] = -128;
    char shape[32];
    snprintf(shape, sizeof shape, "(%d, %d)", N, P);
    write_npy("i1.npy", "|i1", 0, shape, c_order, sizeof c_order);
    write_npy("u1f.npy", "|u1", 1, shape, f_order, sizeof f_order);
    write_npy("b1.npy", "|b1", 0, shape, flags, sizeof flags);
    write_npy("u1big.npy", "|u1", 0, shape, big, sizeof big);
    write_npy("i1low.npy", "|i1", 0, shape, low, sizeof low);
    double y[N];
    for (size_t i = 0; i < N; i++) y[i] = 0.5 * (double)i;
    snprintf(shape, sizeof shape, "(%d,)", N);
    write_npy("y.npy", "<f8", 0, shape, y, sizeof y);
}

/* Reads name beside y.npy for a fit: codes or not, and every cell. */
static void check_fit(const char *name, int codes, double (*want)(size_t, size_t))
{
    char x[256], y[256];
    path_of(x, sizeof x, name);
    path_of(y, sizeof y, "y.npy");
    basel_data *d = NULL;
    basel_error err = {0};
    CHECK(bsl_data_read(&d, x, y, NULL, NULL, &err) == BASEL_OK && d, "%s: read (%s)", name, err.message);
    if (!d) return;
    CHECK(d->n == N && d->p == P + 1, "%s: %zu x %zu", name, d->n, d->p);
    CHECK(d->ncodes == (codes ? (size_t)P : 0) && (d->codes != NULL) == codes, "%s: %zu columns of codes", name,
          d->ncodes);
    int cells = 1;
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < P; j++) cells &= bsl_data_at(d, i, j) == want(i, j);
        cells &= bsl_data_at(d, i, P) == 0.5 * (double)i;
    }
    CHECK(cells, "%s: every cell", name);
    CHECK(!strcmp(d->names[0], "x1") && !strcmp(d->names[P], "y"), "%s: column names", name);
    basel_data_free(d);
    d = NULL;
    CHECK(bsl_data_read_inputs(&d, x, NULL, &err) == BASEL_OK && d && d->ncodes == 0 && !d->codes,
          "%s: read to predict from, as doubles", name);
    basel_data_free(d);
}

static double as_int(size_t i, size_t j) { return cell(i, j); }
static double as_uint(size_t i, size_t j) { return cell(i, j) + 3; }
static double as_bool(size_t i, size_t j) { return cell(i, j) > 0; }
static double as_big(size_t i, size_t j) { return i == 2 && j == 4 ? 200 : cell(i, j) + 3; }
static double as_low(size_t i, size_t j) { return i == 4 && j == 1 ? -128 : cell(i, j); }

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    write_files();
    check_fit("i1.npy", 1, as_int);
    check_fit("u1f.npy", 1, as_uint);
    check_fit("b1.npy", 1, as_bool);
    check_fit("u1big.npy", 0, as_big);
    check_fit("i1low.npy", 0, as_low);
    const char *names[] = {"i1.npy", "u1f.npy", "b1.npy", "u1big.npy", "i1low.npy", "y.npy"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        char path[256];
        path_of(path, sizeof path, names[k]);
        unlink(path);
    }
    rmdir(dir);
    return check_report("test_npy");
}
