/*
 * linalg.h: the incremental factorisation every collapsed model stands on.
 *
 * bsl_chol keeps the lower Cholesky factor L of a k x k symmetric positive
 * definite matrix A (the active set's Gram matrix plus its prior precision),
 * with one column/row appended or removed at any position in O(k^2):
 *   append: L' = [L 0; v' sqrt(s)], v = L^{-1} g, s = d - v'v (Schur complement);
 *   remove p: delete row/column p, then the trailing block absorbs the
 *     deleted column by a rank-one update (Givens rotations), O((k-p)^2).
 * A "right-hand side" block z = L^{-1} b (k x nz) can ride along: append
 * computes its new row, remove applies the same rotations, so b'A^{-1}b =
 * |z|^2 stays available in O(k) per output. Storage is column-major with
 * leading dimension cap; L[i + j*cap], i >= j.
 *
 * bsl_inv_* keep the explicit inverse A^{-1} up to date by the block
 * (Schur-complement) formulas, also O(k^2); the birth-death engine needs its
 * diagonal for all k death rates at once.
 *
 * Both drift slowly in floating point; callers refactorise (bsl_chol_factor)
 * every few hundred updates.
 */
#ifndef BSL_LINALG_H
#define BSL_LINALG_H

#include "../core/core.h"

#include <stdint.h>

typedef struct bsl_chol {
    size_t k;   /* current order */
    size_t cap; /* allocated order = leading dimension */
    double *L;  /* cap x cap, column-major, lower triangle used */
    double *work; /* 2 * cap scratch for remove (no malloc per update) */
} bsl_chol;

int bsl_chol_init(bsl_chol *c, size_t cap);
void bsl_chol_free(bsl_chol *c);

/* Solve L x = b in place (forward substitution), x has c->k entries. */
void bsl_chol_solve_lower(const bsl_chol *c, double *x);
/* Solve L' x = b in place (back substitution). */
void bsl_chol_solve_upper(const bsl_chol *c, double *x);
/* log det A = 2 sum log L_ii. */
double bsl_chol_logdet(const bsl_chol *c);

/* Candidate append without committing: given g (cross products of the new
 * column with the k existing ones) and d (its diagonal), compute v = L^{-1} g
 * into v (k entries) and return s = d - v'v. The caller tests s against its
 * rank tolerance before bsl_chol_append_commit. */
double bsl_chol_schur(const bsl_chol *c, const double *g, double d, double *v);
/* Commit an append whose v and s came from bsl_chol_schur (s > 0). */
void bsl_chol_append_commit(bsl_chol *c, const double *v, double s);

/* Remove column/row p (0-based). If z is not NULL it is a k x nz block,
 * row-major with row stride nz (z[i*nz + o]), nz <= cap, kept equal to
 * L^{-1} b: its row p is deleted and the rotations applied to the rows below. */
void bsl_chol_remove(bsl_chol *c, size_t p, double *z, size_t nz);

/* Fresh factorisation of the k x k matrix A (column-major, leading
 * dimension lda) by LAPACK dpotrf. BASEL_ENUMERIC if A is not positive
 * definite (then c->k is set to 0). k <= cap. */
int bsl_chol_factor(bsl_chol *c, const double *A, size_t k, size_t lda);

/* Explicit inverse, k x k column-major with leading dimension ld.
 * Append: with u = A^{-1} g and s = d - g'u,
 *   A'^{-1} = [A^{-1} + u u'/s, -u/s; -u'/s, 1/s]. */
void bsl_inv_append(double *Ainv, size_t k, size_t ld, const double *u, double s);
/* Remove row/column p: A_{-p}^{-1} = B - B[:,p] B[p,:] / B[p,p] on the
 * remaining indices, where B = A^{-1}; the trailing rows/columns shift up. */
void bsl_inv_remove(double *Ainv, size_t k, size_t ld, size_t p);
/* y = A^{-1} x for the symmetric k x k Ainv (BLAS dsymv). */
void bsl_inv_apply(const double *Ainv, size_t k, size_t ld, const double *x, double *y);
/* Inverse from the Cholesky factor (LAPACK dpotri), k x k into Ainv. */
int bsl_inv_from_chol(const bsl_chol *c, double *Ainv, size_t ld);

/* Dot product of n doubles. */
/* out[i] = x . cols[i] for i < k, each as one running sum over t (the
 * arithmetic of bsl_dots's blocks of four, four columns per pass). */
void bsl_dots_of(const double *x, const double *const *cols, size_t k, size_t n, double *out);
double bsl_dot(const double *x, const double *y, size_t n);
/* out[i] = x . cols[i*ld .. i*ld+n) for i < k: the cross products of a new
 * column with k stored ones, four columns per pass over x. */
void bsl_dots(const double *x, const double *cols, size_t ld, size_t k, size_t n, double *out);
/* bsl_dots(x, X, n, k, n, out) for X's k columns held as float32 in
 * panels of P <= 16 (design.h bsl_f32_pack): each value widened to double, then
 * bsl_dots's products and sums in its order (one running sum over t per
 * column in its blocks of four, bsl_dot's four partial sums for the last
 * k mod 4), so out is bsl_dots's on the widened values, bit for bit. A
 * panel's P sums advance together, as vector operations. scratch: n doubles. */
void bsl_dots_f32_panels(const double *x, const float *X32, size_t n, size_t k, size_t P, double *out,
                         double *scratch /* n */);
/* The same for X's columns held as int8 in the same panels (bsl_i8_pack). */
void bsl_dots_i8_panels(const double *x, const int8_t *X8, size_t n, size_t k, size_t P, double *out,
                        double *scratch /* n */);
/* The same for X's columns held as 2-bit codes 0..3 in panels of 16
 * (design.h X2, bsl_2bit_pack): out is bsl_dots's on the widened values,
 * bit for bit, as for int8. */
void bsl_dots_2bit_panels(const double *x, const uint32_t *X2, size_t n, size_t k, double *out,
                          double *scratch /* n */);

#endif
