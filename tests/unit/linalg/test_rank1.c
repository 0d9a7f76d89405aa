/*
 * test_rank1.c: the rank-one Cholesky update (linalg/rank1.h,
 * bsl_chol_rank1_update) against fresh LAPACK factorisations over long
 * sequences of arriving rows, interleaved with appends and removes of
 * columns as the sequential RVM does, including nearly collinear columns:
 *   - the factor agrees entrywise to 1e-10 relative;
 *   - the attached z equals L^{-1} b;
 *   - y'y - |z|^2 equals y'y - b'A^{-1}b computed afresh (the leftover of
 *     the rotations adds up to the residual).
 * Only the sequential RVM's block of rank1.c is tested here.
 */
#include "check.h"
#include "linalg/rank1.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

enum { CAP = 24, NCOL = 40, STEPS = 20000 };

typedef struct sys {
    double A[CAP * CAP]; /* dense A = X_S'X_S + rho I, maintained exactly */
    double b[CAP];
    double yy;
    size_t col[CAP];
} sys;

static double fresh_compare(const bsl_chol *c, const sys *S, const double *z, double *zerr,
                            double *rss_err, double rss_inc)
{
    bsl_chol f;
    bsl_chol_init(&f, CAP);
    if (bsl_chol_factor(&f, S->A, c->k, CAP) != BASEL_OK) {
        bsl_chol_free(&f);
        return INFINITY;
    }
    double num = 0, den = 0;
    for (size_t j = 0; j < c->k; j++)
        for (size_t i = j; i < c->k; i++) {
            num = fmax(num, fabs(c->L[i + j * CAP] - f.L[i + j * CAP]));
            den = fmax(den, fabs(f.L[i + j * CAP]));
        }
    double zf[CAP];
    memcpy(zf, S->b, c->k * sizeof *zf);
    bsl_chol_solve_lower(&f, zf);
    double zn = 0, zd = 0, q = 0;
    for (size_t i = 0; i < c->k; i++) {
        zn = fmax(zn, fabs(z[i] - zf[i]));
        zd = fmax(zd, fabs(zf[i]));
        q += zf[i] * zf[i];
    }
    *zerr = zn / fmax(zd, 1e-300);
    *rss_err = fabs(rss_inc - (S->yy - q)) / fmax(S->yy - q, 1e-300);
    bsl_chol_free(&f);
    return num / den;
}

/* column j of a design with smooth, partly collinear columns at point u */
static double feature(size_t j, double u)
{
    if (j == 0) return 1.0;
    const double c = -3 + 6.0 * (double)(j % 20) / 19.0 + (j >= 20 ? 1e-4 : 0); /* j, j+20 nearly equal */
    return exp(-(u - c) * (u - c) / 2.0);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20240917);
    const double rho = 0.0137;
    sys S;
    memset(&S, 0, sizeof S);
    bsl_chol c;
    bsl_chol_init(&c, CAP);
    double z[CAP] = {0}, v[CAP], g[CAP];
    double rss = 0;   /* y'y - |z|^2 kept from the leftovers only */
    static double pts[STEPS], tgt[STEPS];
    size_t npts = 0;
    /* start with the intercept column */
    S.A[0] = rho;
    S.col[0] = 0;
    c.k = 1;
    c.L[0] = sqrt(rho);
    double worst_L = 0, worst_z = 0, worst_rss = 0;
    for (size_t step = 0; step < STEPS; step++) {
        const double u = gsl_ran_flat(r, -4, 4), y = sin(u) + 0.1 * gsl_ran_gaussian(r, 1);
        pts[npts] = u;
        tgt[npts++] = y;
        double ys[1] = {0};
        for (size_t i = 0; i < c.k; i++) v[i] = feature(S.col[i], u);
        for (size_t j = 0; j < c.k; j++)
            for (size_t i = 0; i < c.k; i++) S.A[i + j * CAP] += v[i] * v[j];
        for (size_t i = 0; i < c.k; i++) S.b[i] += v[i] * y;
        S.yy += y * y;
        ys[0] = y;
        bsl_chol_rank1_update(&c, v, z, 1, ys);
        rss += ys[0] * ys[0];
        /* occasionally a column comes or goes (never the intercept) */
        const double coin = gsl_rng_uniform(r);
        if (coin < 0.01 && c.k < CAP) {
            size_t j;
            int dup;
            do {
                j = 1 + gsl_rng_uniform_int(r, NCOL - 1);
                dup = 0;
                for (size_t i = 0; i < c.k; i++) dup |= S.col[i] == j;
            } while (dup);
            double dd = rho, bj = 0;
            for (size_t i = 0; i < c.k; i++) g[i] = 0;
            for (size_t p = 0; p < npts; p++) {
                const double fj = feature(j, pts[p]);
                for (size_t i = 0; i < c.k; i++) g[i] += feature(S.col[i], pts[p]) * fj;
                dd += fj * fj;
                bj += fj * tgt[p];
            }
            const size_t k = c.k;
            const double sc = bsl_chol_schur(&c, g, dd, v);
            double vz = 0;
            for (size_t i = 0; i < k; i++) vz += v[i] * z[i];
            bsl_chol_append_commit(&c, v, sc);
            z[k] = (bj - vz) / sqrt(sc);
            rss -= z[k] * z[k];
            for (size_t i = 0; i < k; i++) S.A[i + k * CAP] = S.A[k + i * CAP] = g[i];
            S.A[k + k * CAP] = dd;
            S.b[k] = bj;
            S.col[k] = j;
        } else if (coin < 0.02 && c.k > 2) {
            const size_t p = 1 + gsl_rng_uniform_int(r, c.k - 1);
            /* remove p from the dense system */
            for (size_t j = 0; j < c.k; j++)
                for (size_t i = p; i + 1 < c.k; i++) S.A[i + j * CAP] = S.A[i + 1 + j * CAP];
            for (size_t j = p; j + 1 < c.k; j++)
                for (size_t i = 0; i + 1 < c.k; i++) S.A[i + j * CAP] = S.A[i + (j + 1) * CAP];
            for (size_t i = p; i + 1 < c.k; i++) {
                S.b[i] = S.b[i + 1];
                S.col[i] = S.col[i + 1];
            }
            bsl_chol_remove(&c, p, z, 1);
            double q = 0;
            for (size_t i = 0; i < c.k; i++) q += z[i] * z[i];
            rss = S.yy - q; /* a removal changes |z|^2 by a rotated amount: restart */
        }
        if (step % 97 == 0 || step + 1 == STEPS) {
            double ze = INFINITY, re = INFINITY;
            const double le = fresh_compare(&c, &S, z, &ze, &re, rss);
            worst_L = fmax(worst_L, le);
            worst_z = fmax(worst_z, ze);
            worst_rss = fmax(worst_rss, re);
        }
    }
    CHECK(worst_L <= 1e-10, "factor vs fresh over %d rows: max rel error %.3g", STEPS, worst_L);
    CHECK(worst_z <= 1e-10, "z vs fresh L^{-1} b: max rel error %.3g", worst_z);
    CHECK(worst_rss <= 1e-8, "running residual from leftovers vs fresh: max rel error %.3g", worst_rss);
    printf("rank1: worst rel error L %.3g, z %.3g, residual %.3g over %d rows\n", worst_L, worst_z,
           worst_rss, STEPS);
    bsl_chol_free(&c);
    gsl_rng_free(r);
    return check_report("test_rank1");
}
