/*
 * io.h: reading and writing files: the CSV table behind basel_data, the
 * atomic-write helper, and (fitjson.c) the FIT.json reader and writer.
 * Internal; never installed.
 */
#ifndef BSL_IO_H
#define BSL_IO_H

#include "../core/core.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The first cell of a column that is not a finite number (empty, text,
 * "nan", "inf"), kept so that a fit using the column can name it. */
typedef struct bsl_badcell {
    size_t row;      /* 0-based data row */
    size_t line;     /* 1-based line in the source; 0 = column is clean */
    size_t column;   /* 1-based character column where the cell starts */
    char text[48];   /* the cell's text, truncated */
} bsl_badcell;

/* Why a cell is not a number (a data column's NaN says which in its
 * payload): read by the readers, the checks of data.c and subsets. */
enum { BSL_CELL_UNKNOWN = 0, BSL_CELL_EMPTY = 1, BSL_CELL_TEXT = 2, BSL_CELL_INFINITE = 3 };

#define BSL_NAN_QUIET 0x7ff8000000000000ULL
#define BSL_NAN_KIND_SHIFT 48
#define BSL_NAN_COLUMN_MASK ((1ULL << BSL_NAN_KIND_SHIFT) - 1)

/* A quiet NaN with kind in payload bits 48-49 and the cell's column in bits
 * 0-47 (0 when the column does not fit). Copies keep the payload; only
 * arithmetic would lose it, and nothing computes with these cells. */
static inline double bsl_cell_nan(int kind, size_t column)
{
    uint64_t col = (uint64_t)column <= BSL_NAN_COLUMN_MASK ? (uint64_t)column : 0;
    uint64_t bits = BSL_NAN_QUIET | ((uint64_t)kind << BSL_NAN_KIND_SHIFT) | col;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The kind (BSL_CELL_*) and column stored by bsl_cell_nan; BSL_CELL_UNKNOWN
 * for any other NaN. */
static inline int bsl_cell_nan_kind(double v, size_t *column)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    *column = 0;
    if (!isnan(v) || (bits & ~(3ULL << BSL_NAN_KIND_SHIFT) & ~BSL_NAN_COLUMN_MASK) != BSL_NAN_QUIET)
        return BSL_CELL_UNKNOWN;
    *column = (size_t)(bits & BSL_NAN_COLUMN_MASK);
    return (int)((bits >> BSL_NAN_KIND_SHIFT) & 3);
}

struct basel_data {
    char *source;        /* file name used in messages ("<stdin>" for -) */
    size_t n, p;         /* data rows, columns */
    char **names;        /* p column names */
    double *values;      /* n x (p - ncodes), column-major: column j >= ncodes at
                          * values[(j - ncodes) n + i] (bsl_data_at); NaN where not a number */
    int8_t *codes;       /* NULL, or n x ncodes, column-major: columns [0, ncodes) held
                          * as whole numbers, none missing (a .bed's A1 counts, bed.c;
                          * an eighth of the memory of doubles) */
    size_t ncodes;
    size_t *line_of_row; /* n: 1-based source line of each data row */
    bsl_badcell *bad;    /* p: first non-numeric cell of each column (line 0 if none) */
    long label_col;      /* index of the label column, or -1 */
    char **labels;       /* n strings (owned) when label_col >= 0, "" = unlabelled */
    char ***text;        /* NULL, or p entries: NULL, or for a column holding text
                          * cells its n cells' text (NULL where the cell is a
                          * number or missing): a categorical input's levels */
};

/* The longest line and the longest field (in bytes, quotes and blanks
 * included) a CSV may have. Both are far beyond real tables (a line of 16
 * MiB holds some 700 000 numbers of 17 digits); they exist so that a file
 * that is not a table (one endless line, a quote never closed) is refused
 * while it streams in instead of filling the memory. */
#define BSL_CSV_MAX_LINE (16 << 20)
#define BSL_CSV_MAX_FIELD (64 << 10)

/* Parse CSV text (not necessarily NUL-terminated) into a new table. */
int bsl_csv_parse(basel_data **out, const char *source, const char *text, size_t len,
                  const char *label_column, basel_error *err);
/* Read CSV text from fp into a new table, in one pass and in memory
 * bounded by the table plus a constant (csv.c "reading"); source names it
 * in messages, size is its size in bytes (0: unknown) for the progress
 * reports. pr (may be NULL) is called after each piece of input with phase
 * "reading" in "bytes", and a non-zero return stops the reading:
 * BASEL_ECANCELLED. */
int bsl_csv_read_fp(basel_data **out, FILE *fp, const char *source, double size, const char *label_column,
                    const bsl_progress *pr, basel_error *err);
/* The same for a NumPy .npy array (npy.c); label_column as for a CSV, its
 * numbers then become the labels' text. With codes and no label_column, an
 * array of int8, uint8 or bool whose values are within +-127 is held as
 * int8 codes (ncodes = p), as a fit's inputs from a .bed are. */
int bsl_npy_read_fp(basel_data **out, FILE *fp, const char *source, double size, const char *label_column,
                    int codes, const bsl_progress *pr, basel_error *err);
/* A rows x cols .npy matrix from path into A (column-major), every entry
 * finite; BASEL_EIO, BASEL_EPARSE naming the file. */
int bsl_npy_read_matrix(const char *path, size_t rows, size_t cols, double *A, basel_error *err);
/* Whether bytes start with the .npy magic (\x93NUMPY). */
int bsl_npy_is_magic(const char *bytes, size_t len);
/* PLINK 1 binary genotypes (bed.c): PREFIX.bed with PREFIX.bim and
 * PREFIX.fam beside it, SNP-major. An open set holds the sizes, the
 * variant IDs and the .fam's phenotypes (text), and the .bed open at its
 * magic, checked against the sizes; one handle belongs to one thread. */
typedef struct bsl_bed {
    char *bed, *bim, *fam; /* paths, for messages */
    FILE *fp;              /* the .bed */
    size_t n, p;           /* samples (.fam lines), variants (.bim lines) */
    size_t block;          /* bytes a variant: ceil(n / 4) */
    char **names;          /* p variant IDs (.bim field 2), distinct */
    size_t *bim_line;      /* p: each variant's line in the .bim */
    char **pheno;          /* n phenotypes as written (.fam field 6) */
    size_t *fam_line;      /* n: each sample's line in the .fam */
} bsl_bed;
/* Whether path names a .bed file (ends in ".bed"). */
int bsl_bed_is_path(const char *path);
/* Open path's .bed, .bim and .fam: BASEL_EIO when one cannot be opened,
 * BASEL_EPARSE (naming the file, and the line of a text file) when a line
 * has not 6 fields, a variant ID is used twice, the magic or the mode is
 * wrong or the .bed's size is not 3 + p ceil(n / 4). */
int bsl_bed_open(bsl_bed **out, const char *path, basel_error *err);
void bsl_bed_close(bsl_bed *b);
/* Columns (variants) [j0, j1) into out (n x (j1 - j0), column-major), as
 * counts of A1 alleles (NaN missing); only their blocks are read. pr as
 * for bsl_csv_read_fp. BASEL_EPARSE when the .bed ends early. */
int bsl_bed_read_columns(bsl_bed *b, size_t j0, size_t j1, double *out, const bsl_progress *pr,
                         basel_error *err);
/* The whole set as a table: the variants' columns named by their IDs,
 * then with with_phenotype the .fam's phenotype as the last column,
 * "phenotype" (labels when label_column is not NULL; the error
 * BASEL_EINVAL when every phenotype is -9 or 0). With codes the variants
 * are held as int8 codes (the table's ncodes = p), unless one genotype is
 * missing. */
int bsl_bed_read(basel_data **out, const char *path, int with_phenotype, const char *label_column, int codes,
                 const bsl_progress *pr, basel_error *err);
/* The same as codes, but only variants [j0, j1) of block `block` of
 * `blocks` (basel_data_read_block): whole panels of 16 variants, every
 * block but the last of 16 ceil(p / (16 blocks)). BASEL_EINVAL for an
 * empty block (too few variants for the blocks). */
int bsl_bed_read_block(basel_data **out, const char *path, size_t block, size_t blocks, int with_phenotype,
                       const char *label_column, const bsl_progress *pr, basel_error *err);
/* A table from path ("-": stdin), CSV or .npy by its first byte (or a
 * .npy name), or a .bed set by its name, with target_path (NULL: none), a
 * one-column table, appended as its last column (read.c); a .bed without
 * one takes its .fam's phenotype. */
int bsl_data_read(basel_data **out, const char *path, const char *target_path, const char *label_column,
                  const bsl_progress *pr, basel_error *err);
/* The same for block `block` of `blocks` of a .bed set's variants
 * (bsl_bed_read_block; basel_data_read_block); BASEL_EINVAL for another
 * kind of file. */
int bsl_data_read_block(basel_data **out, const char *path, const char *target_path, const char *label_column,
                        size_t block, size_t blocks, const bsl_progress *pr, basel_error *err);
/* A table of inputs to predict from (basel_data_read_inputs): path as
 * bsl_data_read reads it, but a .bed set without its phenotype and never
 * a target file; label_column as basel_data_read_csv's (a .bed has none). */
int bsl_data_read_inputs(basel_data **out, const char *path, const char *label_column, basel_error *err);
/* Mark column j's cells that are not finite numbers, as a table from
 * memory does (NaN missing, an infinity not a number; matrix.c). */
void bsl_data_mark_column(basel_data *d, size_t j);

/* Column j of d as a pointer to n doubles (column-major storage); NULL
 * for a column held as codes (j < ncodes: read it with bsl_data_at). */
static inline const double *bsl_data_col(const basel_data *d, size_t j)
{
    return j < d->ncodes ? NULL : d->values + (j - d->ncodes) * d->n;
}
/* Cell (i, j) of d, wherever it is held. */
static inline double bsl_data_at(const basel_data *d, size_t i, size_t j)
{
    return j < d->ncodes ? (double)d->codes[j * d->n + i] : d->values[(j - d->ncodes) * d->n + i];
}

/* Whether column j is a column of text: some cell is text (neither a
 * number nor missing) and none is a number. A column mixing numbers and
 * text is a numeric column with a bad cell, reported as such. */
int bsl_data_has_text(const basel_data *d, size_t j);
/* The text of cell (i, j): its text, or a number printed with %.15g; NULL
 * when the cell is missing. buf (len >= 32) holds a printed number. */
const char *bsl_data_cell_text(const basel_data *d, size_t i, size_t j, char *buf, size_t len);
/* Attach the text cells of column j (n strings, NULL = none; copied): a
 * table from memory (matrix.c) with a categorical column. */
int bsl_data_set_text(basel_data *d, size_t j, const char *const *cells, basel_error *err);

/* Fail with the position of column j's first non-numeric cell, if it has one;
 * BASEL_OK otherwise. what names the role ("input", "target"). */
int bsl_data_check_numeric(const basel_data *d, size_t j, const char *what, basel_error *err);
/* Missing values: an empty cell or "NA" (R's). Whether cell (i, j) is
 * missing, and how many cells of column j are. */
int bsl_data_is_missing(const basel_data *d, size_t i, size_t j);
size_t bsl_data_missing_count(const basel_data *d, size_t j);
/* The NaN that marks a missing cell (or, infinite = 1, an infinite one) in
 * a table's values, for tables made from memory (matrix.c). */
double bsl_data_missing_value(int infinite);
/* The 1-based character column where a cell that is not a number starts
 * (0 when unknown). */
size_t bsl_data_cell_column(const basel_data *d, size_t i, size_t j);
/* As bsl_data_check_numeric, but missing cells are allowed (the caller
 * leaves their rows out): only a cell that is present and not a number is
 * an error. */
int bsl_data_check_present(const basel_data *d, size_t j, const char *what, basel_error *err);

/* Output: "-" is stdout; a missing or regular file (a symlink's target)
 * is replaced atomically (a temporary file beside it, then commit: fflush,
 * fsync, rename; abort removes the temporary); a character device or FIFO
 * is written in place; a directory, block device or socket is refused.
 * outfile.c explains the temporary files' names and their cleanup. */
typedef struct bsl_outfile {
    FILE *fp;
    char *path;   /* as given, for messages; NULL for stdout */
    char *target; /* the file written (a symlink's target); NULL for stdout */
    char *tmp;    /* the temporary file; NULL when written in place */
} bsl_outfile;
int bsl_out_open(bsl_outfile *o, const char *path, basel_error *err);
/* Remove the temporaries that dead processes on this host left beside path
 * (what bsl_out_open does first), for a file that a run may not open again
 * before it ends: a checkpoint (chains.c). Best effort, silent. */
void bsl_out_clean(const char *path);
int bsl_out_commit(bsl_outfile *o, basel_error *err);
void bsl_out_abort(bsl_outfile *o);

#endif
