/*
 * design.h: the training design every collapsed model reads from.
 *
 * The always-in columns Z (intercept, and the inputs when the dictionary has
 * a linear term) get a flat prior and are integrated out exactly by
 * projecting them away: with Z = Q R (thin QR), every atom column b_j and the
 * targets y are replaced by (I - Q Q') b_j and (I - Q Q') y. For the g-prior
 * this is BAS's centring; for every prior it is the marginal likelihood with
 * the always-in coefficients integrated under a flat prior, up to a constant
 * that is the same for every subset.
 *
 * Precomputed once, shared read-only by all chains:
 *   Bty  (m x c)  b_j' P y         yy (c)  y' P y         diag (m)  b_j' P b_j
 *   G    (m x m)  b_i' P b_j  when it fits in the memory budget ("dense"),
 *                 else NULL and cross products are computed from columns.
 * Per-atom always-in coefficients gB (m x q) = R^{-1} Q' b_j let a fit
 * recover the intercept (and linear term) of any model without the data.
 */
#ifndef BSL_DESIGN_H
#define BSL_DESIGN_H

#include "../basis/basis.h"

#include <stdint.h>

struct bsl_design;

/* A pair of atoms a < b and a statistic of the two (rj's pair screen,
 * engine/rj/rj_pairs.c). */
typedef struct bsl_atom_pair {
    double stat;
    size_t a, b;
} bsl_atom_pair;

/* Columns held elsewhere, in blocks (fit/blocks.c: --column-blocks, one
 * block of the inputs per process; DESIGN.md "Columns across processes").
 * A design made on them (bsl_design_create_blocks) holds every per-atom
 * vector and the Gram rows' cache, as any streamed design, and asks the
 * blocks for every pass over the columns. Each answer is the one the
 * design would compute from the columns itself, to the bit. A failure
 * to answer (a process lost) leaves NaN in out and is reported by the
 * blocks' owner when the fit ends. */
typedef struct bsl_column_blocks {
    void *ctx;
    const char *inputs; /* how the blocks hold their inputs (FIT.json diagnostics.inputs) */
    /* D's Bty, diag, gB and usable (allocated, m atoms) filled */
    int (*setup)(void *ctx, struct bsl_design *D);
    /* row[j] = x_j' col for every atom j (col: a projected column, n) */
    void (*dots)(void *ctx, size_t a, double *row);
    /* atom j's column: raw (projected 0) or projected (1) */
    void (*column)(void *ctx, size_t j, int projected, double *out);
    /* rj's pair screen (bsl_rj_pairs_scan) in every block: each block's
     * best cap pairs within it, their atoms numbered as D's, into out
     * (nblocks cap entries; *nout of them); non-zero when a process did
     * not answer */
    int (*pairs)(void *ctx, size_t window, double floor, size_t cap, bsl_atom_pair *out, size_t *nout);
    /* block r holds atoms start[r] .. start[r + 1] - 1 */
    size_t nblocks;
    const size_t *start;
    /* no more requests: the fit's sampling and summaries are done (its
     * problem's inputs dropped, fit/problem.c bsl_problem_drop_inputs) */
    void (*release)(void *ctx);
} bsl_column_blocks;

typedef struct bsl_design {
    size_t n, m, c, q;     /* rows, atoms, outputs, always-in columns */
    const bsl_dict *dict;  /* borrowed */
    const double *X;       /* borrowed: n x d inputs, column-major (NULL when X32 is given) */
    const float *X32;      /* borrowed: the inputs held as float32 instead, in panels
                              (bsl_f32_pack; a linear dictionary only; fit/problem.c
                              compact_inputs), else NULL */
    const int8_t *X8;      /* borrowed: or as int8 (whole numbers within +-127: genotype
                              counts), in the same panels (bsl_i8_pack), else NULL */
    const uint32_t *X2;    /* borrowed: or as 2-bit codes 0..3 (genotypes), a word a row
                              in each panel (bsl_2bit_pack), else NULL */
    const bsl_column_blocks *blocks; /* borrowed: or held elsewhere, in blocks, else NULL */
    double *Q;             /* n x q orthonormal basis of the always-in columns */
    double *R;             /* q x q upper triangular, Z = Q R (column-major) */
    double *Y;             /* n x c projected targets */
    double *gy;            /* q x c always-in coefficients of y: R^{-1} Q' y */
    double *yy;            /* c */
    double *Bty;           /* m x c, row-major: Bty[j*c + o] */
    double *diag;          /* m */
    double *gB;            /* m x q, row-major */
    double *G;             /* m x m column-major, or NULL (streaming) */
    double *B;             /* n x m projected columns: while G is built, or kept
                              by a streamed design within its budget (design.c) */
    unsigned char *usable; /* m: 0 if the atom is (numerically) in the span of Z */
    /* streaming only: the rows of the Gram matrix the models have asked
     * for, shared by them all (gram_rows.h); NULL on a dense design */
    struct bsl_gram_rows *rows;
    /* a group view (bsl_design_group_view): its m atoms are groups of the
     * columns of base, group g = base atoms group_start[g] ..
     * group_start[g + 1] - 1; NULL for a design of its own */
    const struct bsl_design *base;
    const size_t *group_start;
} bsl_design;

/* Build the design of dict at the training points X (n x d) with targets Y
 * (n x c, column-major). gram_budget is the byte budget for B and G; above
 * it the design streams columns. Fails with EINVAL if n <= q. */
int bsl_design_create(bsl_design **out, const bsl_dict *dict, const double *X, size_t n,
                      const double *Y, size_t c, size_t gram_budget, basel_error *err);
/* The same, choosing dense Gram or streamed columns by the work of a run
 * expected to make `evaluations` model evaluations (try_add and the like,
 * summed over chains; 0 = unknown: dense whenever it fits the budget; the
 * rule is design.c's gram_dense), and reporting the "columns" and "gram"
 * phases to pr (basel.h basel_progress; NULL: none); BASEL_ECANCELLED when
 * pr asks to stop. */
int bsl_design_create_for(bsl_design **out, const bsl_dict *dict, const double *X, size_t n,
                          const double *Y, size_t c, size_t gram_budget, double evaluations,
                          const bsl_progress *pr, basel_error *err);
/* Inputs held compactly (float32 or int8) are stored in panels of
 * BSL_F32_PANEL columns: columns [P p, P p + w) (w = min(P, d - P p)) row
 * by row, the value of row t, column j at X32[P p n + t w + j - P p] (or
 * X8[...]: the same index). A Gram row then reads P columns' values at row
 * t together, so its P running sums (one per column, each over t in order)
 * are vector operations. */
#define BSL_F32_PANEL 16
/* The width of the panel starting at column p0 (a multiple of P) of d */
static inline size_t bsl_f32_width(size_t d, size_t p0) { return d - p0 < BSL_F32_PANEL ? d - p0 : BSL_F32_PANEL; }
static inline size_t bsl_f32_at(size_t n, size_t d, size_t t, size_t j)
{
    const size_t p0 = j / BSL_F32_PANEL * BSL_F32_PANEL;
    return p0 * n + t * bsl_f32_width(d, p0) + (j - p0);
}
/* X (n x d doubles, column-major, malloc'd) rounded to float32 and packed
 * into panels in place, at the front of X's own block, which is then
 * shrunk: the returned block (free() it) holds n d floats. X and its copy
 * never coexist. */
float *bsl_f32_pack(double *X, size_t n, size_t d);
/* The same for inputs that are all whole numbers within +-127 (the caller
 * checks): converted exactly to int8, in the same panels, a block of n d
 * bytes. A quarter of float32's memory and bytes read per Gram row, and
 * the same bits: every value widens to the same double. */
int8_t *bsl_i8_pack(double *X, size_t n, size_t d);
/* X8 (n x d int8, column-major) into the same panels, in place (a panel's
 * bytes are its columns' bytes, reordered). 0 when out of memory (X8 is
 * then as it was). */
int bsl_i8_panels(int8_t *X8, size_t n, size_t d);
/* Inputs that are all whole numbers 0..3 (genotype counts, indicators;
 * the caller checks) as 2-bit codes in the same panels of BSL_F32_PANEL =
 * 16 columns: row t of panel p is the word X2[p n + t], column p0 + c in
 * its bits 2c and 2c + 1 (the last panel's unused bits 0). A block of
 * n ceil(d / 16) words: a quarter of int8's memory and of the bytes a Gram
 * row reads, and the same bits (each value widens to the same double).
 * bsl_2bit_pack takes X (n x d doubles, column-major), bsl_2bit_codes X8
 * (n x d int8 codes, column-major, as a table's); each frees its input
 * once packed, and returns NULL (the input kept) when out of memory. */
uint32_t *bsl_2bit_pack(double *X, size_t n, size_t d);
uint32_t *bsl_2bit_codes(int8_t *X8, size_t n, size_t d);
/* Whether D holds its inputs compactly (X32, X8 or X2; a column of them
 * widened: bsl_design_raw_column), or in blocks elsewhere: either way a
 * column is had only by asking for it. */
static inline int bsl_design_compact(const bsl_design *D) { return D->X32 || D->X8 || D->X2 || D->blocks; }
/* The same design with the inputs held as float32 (X32 from bsl_f32_pack;
 * X NULL) for a linear dictionary: every column, cross product and Gram
 * row is that of the double design on the widened values, bit for bit
 * (tests/unit/model/test_design_f32.c), at half the memory and half the
 * bytes read per Gram row. */
int bsl_design_create_f32(bsl_design **out, const bsl_dict *dict, const float *X32, size_t n, const double *Y,
                          size_t c, size_t gram_budget, double evaluations, const bsl_progress *pr,
                          basel_error *err);
/* The same with the inputs held as int8 (X8 from bsl_i8_pack). */
int bsl_design_create_i8(bsl_design **out, const bsl_dict *dict, const int8_t *X8, size_t n, const double *Y,
                         size_t c, size_t gram_budget, double evaluations, const bsl_progress *pr,
                         basel_error *err);
/* The same with the inputs held as 2-bit codes (X2 from bsl_2bit_pack or
 * bsl_2bit_codes). */
int bsl_design_create_2bit(bsl_design **out, const bsl_dict *dict, const uint32_t *X2, size_t n, const double *Y,
                           size_t c, size_t gram_budget, double evaluations, const bsl_progress *pr,
                           basel_error *err);
/* The design of inputs in whichever form they are held: X32, X2 or X8 when
 * one of them is given (at most one: fit/problem.c compact_inputs), else X.
 * The one place that maps a problem's inputs to their design's maker. */
int bsl_design_create_held(bsl_design **out, const bsl_dict *dict, const double *X, const float *X32,
                           const int8_t *X8, const uint32_t *X2, size_t n, const double *Y, size_t c,
                           size_t gram_budget, double evaluations, const bsl_progress *pr, basel_error *err);
/* The same with the inputs held in blocks elsewhere (a linear dictionary
 * of m = dict->m atoms; the design streams, whatever the budget: the
 * budget is the Gram rows' cache). Every per-atom vector is the blocks'
 * (blocks->setup), every row and column is asked of them. */
int bsl_design_create_blocks(bsl_design **out, const bsl_dict *dict, const bsl_column_blocks *blocks, size_t n,
                             const double *Y, size_t c, size_t gram_budget, const bsl_progress *pr,
                             basel_error *err);
/* row[j] = x_j' col for every atom j of D from its own inputs: a Gram row
 * of the projected column col (gram_rows.c), or a block's part of one
 * (fit/blocks.c); raw: n doubles of scratch. */
void bsl_design_dots(const bsl_design *D, const double *col, double *row, double *raw);
void bsl_design_free(bsl_design *D);
/* A design with no dictionary (m = 0) and no always-in columns (q = 0):
 * the rows and targets only, for models whose atoms come from the caller
 * (bsl_atom_source) and whose constant / linear columns are atoms too, under
 * the coefficient prior (the RBF networks of paper 002). */
int bsl_design_create_plain(bsl_design **out, size_t n, const double *Y, size_t c, basel_error *err);
/* New targets Y (n x c) for the same rows; models reading D must then be
 * rebuilt (their B'y are stale). */
void bsl_design_set_targets(bsl_design *D, const double *Y);
/* A plain design read through cross products only (bsl_atom_source's gram):
 * one more row with targets y (c): n and y'y grow, no rows are stored
 * (D->Y keeps the first rows only; do not set targets on it). */
void bsl_design_add_row(bsl_design *D, const double *y);

/* A view of base whose atoms are ng groups of its atoms (start: ng + 1
 * offsets, borrowed, contiguous groups), for the grouped model
 * (group.c): the engines loop over groups as atoms and read only m, n, q,
 * c, yy, usable (every column of the group usable) and, for bd's informed
 * birth weights, Bty and diag, set so that Bty^2 / (diag yy) is the sum of
 * the group's columns' squared correlations with y. No Gram, no columns,
 * no dictionary: everything else is read from base through the model. */
int bsl_design_group_view(bsl_design **out, const bsl_design *base, const size_t *start, size_t ng,
                          basel_error *err);

/* Projected column of atom j (n doubles). */
void bsl_design_column(const bsl_design *D, size_t j, double *out);
/* Raw (unprojected) column of atom j at the training points. */
void bsl_design_raw_column(const bsl_design *D, size_t j, double *out);
/* col (n) <- (I - Q Q') col, the projection every atom column gets; coef
 * (q, may be NULL) <- the column's always-in coefficients R^{-1} Q' col. */
void bsl_design_project(const bsl_design *D, double *col, double *coef);

#endif
