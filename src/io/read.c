/*
 * read.c: a table from a file of either format (basel_data_read): CSV
 * (csv.c) or a NumPy .npy array (npy.c), told apart by the first byte
 * (0x93 starts the .npy magic and never a CSV: it is no first byte of a
 * UTF-8 character), so stdin may carry either; a file named *.npy is
 * always read as one, so that a damaged header is reported as such. A
 * target kept in a file of its own (--target-file) is appended as the
 * table's last column, the default target. A file named *.bed is PLINK's
 * binary genotypes (bed.c), found with its .bim and .fam by its name (so
 * not from stdin); without a target file its target is the .fam's
 * phenotype. For a fit its genotypes are held as int8 codes (io.h), and
 * so are the inputs of a .npy array of one-byte integers beside a target
 * file; a table to predict from holds doubles.
 */
#include "io.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int ends_with_npy(const char *path)
{
    const size_t len = strlen(path);
    return len >= 4 && (!strcmp(path + len - 4, ".npy") || !strcmp(path + len - 4, ".NPY"));
}

static int read_one(basel_data **out, const char *path, const char *label_column, int codes,
                    const bsl_progress *pr, basel_error *err)
{
    const int from_stdin = strcmp(path, "-") == 0;
    const char *source = from_stdin ? "<stdin>" : path;
    FILE *fp = from_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        int e = errno;
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot open: %s", strerror(e));
    }
    struct stat st;
    const double size = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) ? (double)st.st_size : 0;
    const int c = fgetc(fp);
    if (c != EOF) ungetc(c, fp);
    const int npy = c == 0x93 || (!from_stdin && ends_with_npy(path));
    int rc = npy ? bsl_npy_read_fp(out, fp, source, size, label_column, codes, pr, err)
                 : bsl_csv_read_fp(out, fp, source, size, label_column, pr, err);
    if (!from_stdin) fclose(fp);
    return rc;
}

/* t's only column appended to d: as labels when t has them, else as
 * numbers; a cell of t that is present but not a number is reported now,
 * naming t's file (d's messages name d's). */
static int append_target(basel_data *d, const basel_data *t, basel_error *err)
{
    if (t->p != 1)
        return bsl_fail_at(err, BASEL_EINVAL, t->source, 0, 0, "a target file holds one column (a vector, or a "
                           "one-column CSV); this one has %zu", t->p);
    if (t->n != d->n)
        return bsl_fail_at(err, BASEL_EINVAL, t->source, 0, 0, "the target file has %zu rows, the training file "
                           "%s has %zu", t->n, d->source, d->n);
    if (t->label_col == 0) return basel_data_add_labels(d, t->names[0], (const char *const *)t->labels, err);
    int rc = bsl_data_check_present(t, 0, "target", err);
    if (!rc) rc = basel_data_add_column(d, t->names[0], t->values, 1, err);
    return rc;
}

/* The inputs' table of path (a .bed set's block `block` of `blocks`, or
 * all of it with blocks 0), with the phenotype when with_phenotype. */
static int read_inputs(basel_data **out, const char *path, int bed, size_t block, size_t blocks,
                       int with_phenotype, const char *label_column, const bsl_progress *pr, basel_error *err)
{
    if (bed) return bsl_bed_read_block(out, path, block, blocks, with_phenotype, label_column, pr, err);
    return read_one(out, path, label_column, !with_phenotype, pr, err);
}

static int read_table(basel_data **out, const char *path, const char *target_path, const char *label_column,
                      size_t block, size_t blocks, const bsl_progress *pr, basel_error *err)
{
    *out = NULL;
    const int bed = bsl_bed_is_path(path);
    if (!target_path) return read_inputs(out, path, bed, block, blocks, 1, label_column, pr, err);
    if (!strcmp(path, "-") && !strcmp(target_path, "-"))
        return bsl_fail(err, BASEL_EINVAL, "the training file and the target file cannot both be stdin");
    if (bsl_bed_is_path(target_path))
        return bsl_fail_at(err, BASEL_EINVAL, target_path, 0, 0, "a target file holds one column (a .npy vector "
                           "or a one-column CSV), not genotypes");
    /* the label column, when the method reads one, is the target's */
    basel_data *d = NULL, *t = NULL;
    int rc = read_inputs(&d, path, bed, block, blocks, 0, NULL, pr, err);
    if (!rc) rc = read_one(&t, target_path, label_column ? "" : NULL, 0, pr, err);
    if (!rc) rc = append_target(d, t, err);
    basel_data_free(t);
    if (rc) {
        basel_data_free(d);
        return rc;
    }
    *out = d;
    return BASEL_OK;
}

int bsl_data_read(basel_data **out, const char *path, const char *target_path, const char *label_column,
                  const bsl_progress *pr, basel_error *err)
{
    return read_table(out, path, target_path, label_column, 0, 0, pr, err);
}

int bsl_data_read_block(basel_data **out, const char *path, const char *target_path, const char *label_column,
                        size_t block, size_t blocks, const bsl_progress *pr, basel_error *err)
{
    *out = NULL;
    if (!bsl_bed_is_path(path))
        return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "only a .bed set (PLINK) is read by blocks of its "
                           "inputs: each process reads its own variants");
    if (blocks == 0 || block >= blocks)
        return bsl_fail(err, BASEL_EINVAL, "block %zu of %zu: no such block", block, blocks);
    return read_table(out, path, target_path, label_column, block, blocks, pr, err);
}

int bsl_data_read_inputs(basel_data **out, const char *path, const char *label_column, basel_error *err)
{
    *out = NULL;
    if (bsl_bed_is_path(path)) {
        if (label_column && *label_column)
            return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "a .bed set has no column '%s' to name its rows "
                               "(its columns are variants; the rows are the .fam's samples, in order)", label_column);
        return bsl_bed_read(out, path, 0, NULL, 0, NULL, err);
    }
    return read_one(out, path, label_column, 0, NULL, err);
}
