/*
 * chol.c: Cholesky append / remove-at-any-position in O(k^2) (linalg.h).
 * Invariant: on return from every function, L[0..k)[0..k) is the lower
 * Cholesky factor of the current matrix, and an attached z equals L^{-1} b.
 */
#include "linalg.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LL(c, i, j) ((c)->L[(i) + (j) * (c)->cap])

int bsl_chol_init(bsl_chol *c, size_t cap)
{
    c->k = 0;
    c->cap = cap ? cap : 1;
    c->L = bsl_calloc(c->cap * c->cap, sizeof(double));
    c->work = bsl_calloc(2 * c->cap, sizeof(double));
    if (!c->L || !c->work) {
        bsl_chol_free(c);
        return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

void bsl_chol_free(bsl_chol *c)
{
    if (!c) return;
    free(c->L);
    free(c->work);
    c->L = c->work = NULL;
    c->k = c->cap = 0;
}

/* The triangular solves are plain loops, not BLAS dtrsv: k is small (tens
 * to a few hundred), the calls are many, and a threaded BLAS called from
 * inside parallel chains costs more in call and thread overhead than the
 * O(k^2) flops themselves (measured: 3x slower birth-death on 4 chains). */
void bsl_chol_solve_lower(const bsl_chol *c, double *x)
{
    const size_t k = c->k;
    for (size_t j = 0; j < k; j++) {
        const double *Lj = c->L + j * c->cap;
        const double xj = x[j] / Lj[j];
        x[j] = xj;
        for (size_t i = j + 1; i < k; i++) x[i] -= Lj[i] * xj;
    }
}

void bsl_chol_solve_upper(const bsl_chol *c, double *x)
{
    for (size_t j = c->k; j-- > 0;) {
        const double *Lj = c->L + j * c->cap;
        double t = x[j];
        for (size_t i = j + 1; i < c->k; i++) t -= Lj[i] * x[i];
        x[j] = t / Lj[j];
    }
}

double bsl_chol_logdet(const bsl_chol *c)
{
    double s = 0;
    for (size_t i = 0; i < c->k; i++) s += log(LL(c, i, i));
    return 2 * s;
}

double bsl_chol_schur(const bsl_chol *c, const double *g, double d, double *v)
{
    memcpy(v, g, c->k * sizeof *v);
    bsl_chol_solve_lower(c, v);
    return d - bsl_dot(v, v, c->k);
}

void bsl_chol_append_commit(bsl_chol *c, const double *v, double s)
{
    size_t k = c->k;
    for (size_t j = 0; j < k; j++) LL(c, k, j) = v[j];
    LL(c, k, k) = sqrt(s);
    c->k = k + 1;
}

/* Rotate the pair (a, b) by the Givens rotation (cs, sn): the building block
 * of the rank-one update below. */
static inline void rotate(double *a, double *b, double cs, double sn)
{
    const double a0 = *a, b0 = *b;
    *a = cs * a0 + sn * b0;
    *b = cs * b0 - sn * a0;
}

void bsl_chol_remove(bsl_chol *c, size_t p, double *z, size_t nz)
{
    const size_t k = c->k;
    const size_t r = k - 1 - p;  /* order of the trailing block */
    double *x = c->work;         /* the deleted column below the diagonal */
    double *zp = c->work + c->cap; /* the deleted row of z */
    for (size_t i = 0; i < r; i++) x[i] = LL(c, p + 1 + i, p);
    /* delete row p in columns 0..p-1, then column p (trailing block moves up-left) */
    for (size_t j = 0; j < p; j++)
        for (size_t i = p; i + 1 < k; i++) LL(c, i, j) = LL(c, i + 1, j);
    for (size_t j = p; j + 1 < k; j++)
        for (size_t i = j; i + 1 < k; i++) LL(c, i, j) = LL(c, i + 1, j + 1);
    if (z) {
        memcpy(zp, z + p * nz, nz * sizeof *zp);
        memmove(z + p * nz, z + (p + 1) * nz, r * nz * sizeof *z);
    }
    /* The trailing block T must become chol(T T' + x x'): column j of T and
     * x are rotated together so that x's j-th entry vanishes. The same
     * rotation applied to (z_j, z_p) keeps z = L^{-1} b, because
     * L33' z3' = [T x] [z3; z_p] and [T x] G = [T' 0] with G orthogonal. */
    for (size_t j = 0; j < r; j++) {
        double *Tjj = &LL(c, p + j, p + j);
        const double rr = hypot(*Tjj, x[j]);
        const double cs = *Tjj / rr, sn = x[j] / rr;
        *Tjj = rr;
        for (size_t i = j + 1; i < r; i++) rotate(&LL(c, p + i, p + j), &x[i], cs, sn);
        if (z)
            for (size_t o = 0; o < nz; o++) rotate(&z[(p + j) * nz + o], &zp[o], cs, sn);
    }
    c->k = k - 1;
}

/* Below this order the factorisation is a plain loop: the refactorisations
 * of a sampler happen inside parallel chains, where a threaded LAPACK call
 * on a small matrix costs far more in thread wake-ups than in flops
 * (measured: the demo ran 6x slower through OpenBLAS's dpotrf). */
#define SMALL_ORDER 96

static int factor_small(bsl_chol *c, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        double d = LL(c, j, j);
        for (size_t l = 0; l < j; l++) d -= LL(c, j, l) * LL(c, j, l);
        if (!(d > 0)) return -1;
        const double ljj = sqrt(d);
        LL(c, j, j) = ljj;
        for (size_t i = j + 1; i < k; i++) {
            double t = LL(c, i, j);
            for (size_t l = 0; l < j; l++) t -= LL(c, i, l) * LL(c, j, l);
            LL(c, i, j) = t / ljj;
        }
    }
    return 0;
}

int bsl_chol_factor(bsl_chol *c, const double *A, size_t k, size_t lda)
{
    for (size_t j = 0; j < k; j++)
        for (size_t i = j; i < k; i++) LL(c, i, j) = A[i + j * lda];
    c->k = k;
    if (k == 0) return BASEL_OK;
    int info = k < SMALL_ORDER ? factor_small(c, k)
                               : LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (int)k, c->L, (int)c->cap);
    if (info != 0) {
        c->k = 0;
        return BASEL_ENUMERIC;
    }
    return BASEL_OK;
}
