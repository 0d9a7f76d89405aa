/*
 * rank1.h: the inverse of a symmetric positive definite m x m matrix A kept
 * explicitly (S = A^{-1}, full storage, column-major, leading dimension ld)
 * under changes of ONE diagonal entry, A' = A + delta e_k e_k' (Sherman-
 * Morrison):
 *     t = 1 + delta S_kk,   log|A'| = log|A| + log t,
 *     S' = S - (delta / t) S_k S_k',   u' = u - (delta u_k / t) S_k  (u = S b),
 *     b'A'^{-1}b = b'A^{-1}b - delta u_k^2 / t.
 * The effect on log|A| and b'A^{-1}b costs O(1) and the commit O(m^2), so a
 * Gibbs sweep over m spike/slab indicators evaluates every conditional
 * exactly (the spike-and-slab engine's collapsed variant, ssvs.c). t > 0
 * whenever A' is positive definite; the caller refactorises every so many
 * commits to bound drift.
 */
#ifndef BSL_RANK1_H
#define BSL_RANK1_H

#include <stddef.h>

/* The change of log|A| and of b'A^{-1}b, given S, u = S b, without
 * changing anything. Returns t = 1 + delta S_kk (<= 0: A' not PD). */
double bsl_r1_diag_effect(const double *S, size_t ld, size_t k, double delta, const double *u,
                          double *dlogdet, double *dquad);
/* Commit: update S (m x m) and, if u is not NULL, u. work holds m doubles. */
void bsl_r1_diag_commit(double *S, size_t m, size_t ld, size_t k, double delta, double *u,
                        double *work);
/* Fresh S = A^{-1}, u = S b and log|A| from A (m x m, column-major, ld; A
 * is overwritten by its Cholesky factor). BASEL_ENUMERIC if not PD. */
int bsl_r1_refresh(double *A, double *S, size_t m, size_t ld, const double *b, double *u,
                   double *logdet);


/* --- sequential RVM (engine/smc/smc.c): rank-one update of a Cholesky factor */

#include "linalg.h"

/* Update the factor of A (order c->k) to the factor of A + x x' by k Givens
 * rotations, O(k^2), for the sequential RVM's arriving data points
 * (A_t = A_{t-1} + v v', v the new design row). x (k entries) is destroyed.
 * A right-hand side block rides along, as in bsl_chol_remove: z is k x nz,
 * row-major with row stride nz, equal to L^{-1} b on entry; zx (nz entries)
 * is the new row's right-hand side (b grows to b + x zx'). On return
 * z = L'^{-1} (b + x zx') and zx holds the leftover of the rotations, with
 * |z_o|^2 + zx_o^2 preserved, so y'y - b'A^{-1}b grows by exactly the
 * returned zx_o^2 when y gains the entry zx_o (the one-step predictive
 * residual). z and zx may be NULL when nz == 0. */
void bsl_chol_rank1_update(bsl_chol *c, double *x, double *z, size_t nz, double *zx);

#endif
