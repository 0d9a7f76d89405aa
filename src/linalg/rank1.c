/* rank1.c: explicit inverse under one-diagonal-entry changes (rank1.h). */
#include "rank1.h"
#include "linalg.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

double bsl_r1_diag_effect(const double *S, size_t ld, size_t k, double delta, const double *u,
                          double *dlogdet, double *dquad)
{
    const double t = 1.0 + delta * S[k + k * ld];
    *dlogdet = t > 0 ? log(t) : NAN;
    *dquad = -delta * u[k] * u[k] / t;
    return t;
}

void bsl_r1_diag_commit(double *S, size_t m, size_t ld, size_t k, double delta, double *u,
                        double *work)
{
    const double t = 1.0 + delta * S[k + k * ld];
    /* copy column k first: the update overwrites it */
    memcpy(work, S + k * ld, m * sizeof *work);
    if (u) cblas_daxpy((int)m, -delta * u[k] / t, work, 1, u, 1);
    cblas_dger(CblasColMajor, (int)m, (int)m, -delta / t, work, 1, work, 1, S, (int)ld);
}

int bsl_r1_refresh(double *A, double *S, size_t m, size_t ld, const double *b, double *u,
                   double *logdet)
{
    if (m == 0) {
        *logdet = 0;
        return BASEL_OK;
    }
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (int)m, A, (int)ld) != 0) return BASEL_ENUMERIC;
    double ld_sum = 0;
    for (size_t i = 0; i < m; i++) ld_sum += 2.0 * log(A[i + i * ld]);
    *logdet = ld_sum;
    for (size_t j = 0; j < m; j++)
        for (size_t i = j; i < m; i++) S[i + j * ld] = A[i + j * ld];
    if (LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', (int)m, S, (int)ld) != 0) return BASEL_ENUMERIC;
    for (size_t j = 0; j < m; j++)
        for (size_t i = j + 1; i < m; i++) S[j + i * ld] = S[i + j * ld];
    if (u) cblas_dsymv(CblasColMajor, CblasLower, (int)m, 1.0, S, (int)ld, b, 1, 0.0, u, 1);
    return BASEL_OK;
}

/* --- sequential RVM (engine/smc/smc.c): rank-one Cholesky update ----------
 * Invariant: on return L[0..k)[0..k) is the lower Cholesky factor of
 * A + x x' (positive diagonal) and an attached z equals L^{-1} b for the
 * updated b. */

#define R1_LL(c, i, j) ((c)->L[(i) + (j) * (c)->cap])

/* (a, b) <- (cs a + sn b, cs b - sn a): zeroes b when (cs, sn) = (a, b)/hypot */
static inline void r1_givens(double *a, double *b, double cs, double sn)
{
    const double a0 = *a, b0 = *b;
    *a = cs * a0 + sn * b0;
    *b = cs * b0 - sn * a0;
}

/* [L x] G = [L' 0] for an orthogonal G built column by column: rotation j
 * mixes column j of L with x so that x_j vanishes, hence L'L'' = LL' + xx'.
 * Because [L x][z; zx'] = b + x zx', the same rotations applied to the rows
 * of [z; zx'] give L'^{-1}(b + x zx') in the first k rows (the argument of
 * bsl_chol_remove, linalg.h) and preserve the column norms. */
void bsl_chol_rank1_update(bsl_chol *c, double *x, double *z, size_t nz, double *zx)
{
    const size_t k = c->k;
    for (size_t j = 0; j < k; j++) {
        double *Ljj = &R1_LL(c, j, j);
        const double r = hypot(*Ljj, x[j]);
        const double cs = *Ljj / r, sn = x[j] / r;
        *Ljj = r;
        x[j] = 0;
        for (size_t i = j + 1; i < k; i++) r1_givens(&R1_LL(c, i, j), &x[i], cs, sn);
        for (size_t o = 0; o < nz; o++) r1_givens(&z[j * nz + o], &zx[o], cs, sn);
    }
}
