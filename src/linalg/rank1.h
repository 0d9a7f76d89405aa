/*
 * rank1.h: rank-one modifications of a Cholesky factor (bsl_chol, linalg.h)
 * in O(k^2), for engines whose Gram matrix grows by one outer product when a
 * data point arrives (the sequential RVM of paper 003: A_t = A_{t-1} + v v'
 * with v the new row of the design).
 *
 * This header may collect rank-one helpers from more than one engine; each
 * block below says which engine it serves. Keep every block intact.
 */
#ifndef BSL_RANK1_H
#define BSL_RANK1_H

#include "linalg.h"

/* --- sequential RVM (sampler/smc.c) ------------------------------------ */

/* Update the factor of A (order c->k) to the factor of A + x x' by k Givens
 * rotations, O(k^2). x (k entries) is destroyed.
 *
 * A right-hand side block rides along, as in bsl_chol_remove: z is k x nz,
 * row-major with row stride nz, equal to L^{-1} b on entry; zx (nz entries)
 * is the new row's right-hand side (b grows to b + x zx'). On return
 * z = L'^{-1} (b + x zx') and zx holds the leftover of the rotations, with
 *     |z_o|^2 + zx_o^2 (entry)  =  |z_o'|^2 + zx_o'^2 (return),
 * so that y'y - b'A^{-1}b grows by exactly zx_o'^2 when y gains the entry
 * zx_o: the one-step predictive residual of a regression, without a solve.
 * z and zx may be NULL when nz == 0. */
void bsl_chol_rank1_update(bsl_chol *c, double *x, double *z, size_t nz, double *zx);

#endif
