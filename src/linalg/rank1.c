/*
 * rank1.c: rank-one update of a Cholesky factor (rank1.h).
 * Invariant: on return L[0..k)[0..k) is the lower Cholesky factor of the
 * updated matrix (positive diagonal), and an attached z equals L^{-1} b for
 * the updated b.
 *
 * This file may collect rank-one helpers from more than one engine; each
 * block says which engine it serves. Keep every block intact.
 */
#include "rank1.h"

#include <math.h>

/* --- sequential RVM (sampler/smc.c) ------------------------------------ */

#define LL(c, i, j) ((c)->L[(i) + (j) * (c)->cap])

/* (a, b) <- (cs a + sn b, cs b - sn a): the rotation that zeroes b when
 * (cs, sn) = (a, b) / hypot(a, b). */
static inline void givens(double *a, double *b, double cs, double sn)
{
    const double a0 = *a, b0 = *b;
    *a = cs * a0 + sn * b0;
    *b = cs * b0 - sn * a0;
}

/* [L x] G = [L' 0] for an orthogonal G built column by column: rotation j
 * mixes column j of L with x so that x_j vanishes. L'L'' = [L x][L x]' =
 * LL' + xx'. Because [L x][z; zx'] = b + x zx', the same rotations applied
 * to the rows of [z; zx'] give L'^{-1}(b + x zx') in the first k rows (the
 * argument of bsl_chol_remove, linalg.h), and preserve the column norms. */
void bsl_chol_rank1_update(bsl_chol *c, double *x, double *z, size_t nz, double *zx)
{
    const size_t k = c->k;
    for (size_t j = 0; j < k; j++) {
        double *Ljj = &LL(c, j, j);
        const double r = hypot(*Ljj, x[j]);
        const double cs = *Ljj / r, sn = x[j] / r;
        *Ljj = r;
        x[j] = 0;
        for (size_t i = j + 1; i < k; i++) givens(&LL(c, i, j), &x[i], cs, sn);
        for (size_t o = 0; o < nz; o++) givens(&z[j * nz + o], &zx[o], cs, sn);
    }
}
