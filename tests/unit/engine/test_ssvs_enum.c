/*
 * test_ssvs_enum.c: the closed-form spike-and-slab marginal (ssvs.c, via the
 * eigenvalues of V^{1/2} G V^{1/2}) against a dense n x n Gaussian
 * computation on a tiny problem (n = 10, m = 3):
 *   p(y | gamma, sigma^2) = integral over a flat intercept alpha of
 *   N(y; alpha 1, Sigma), Sigma = sigma^2 I + s X V X', i.e.
 *   -(n-1)/2 log 2 pi - 1/2 log|Sigma| - 1/2 log(1'S1) - 1/2 (y'Sy - (1'Sy)^2 / 1'S1)
 *   with S = Sigma^{-1}; basel's projected form equals this + 1/2 log n.
 * Then the sigma^2-integrated marginal (closed form when scaled, quadrature
 * otherwise) against Simpson's rule over log sigma^2 of the dense density,
 * for every gamma, under IG(2, 1) and (unscaled) under 1/sigma^2.
 */
#include "check.h"
#include "engine/ssvs/ssvs.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 10
#define M 3

static double dense_lik(const double *X, const double *y, const double *v, double s, double sigma2)
{
    double Sig[N * N], one[N], yy[N];
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < N; k++) {
            double t = i == k ? sigma2 : 0;
            for (size_t j = 0; j < M; j++) t += s * X[j * N + i] * v[j] * X[j * N + k];
            Sig[i + k * N] = t;
        }
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', N, Sig, N) != 0) return NAN;
    double logdet = 0;
    for (size_t i = 0; i < N; i++) logdet += 2 * log(Sig[i + i * N]);
    for (size_t i = 0; i < N; i++) {
        one[i] = 1;
        yy[i] = y[i];
    }
    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', N, 1, Sig, N, one, N);
    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', N, 1, Sig, N, yy, N);
    double s11 = 0, s1y = 0, syy = 0;
    for (size_t i = 0; i < N; i++) {
        s11 += one[i];
        s1y += one[i] * y[i];
        syy += yy[i] * y[i];
    }
    return -0.5 * (N - 1) * log(2 * M_PI) - 0.5 * logdet - 0.5 * log(s11) -
           0.5 * (syy - s1y * s1y / s11) + 0.5 * log((double)N);
}

/* Simpson over t = log sigma^2 in [-20, 12] of dense_lik x IG(a, b) x e^t. */
static double dense_marginal(const double *X, const double *y, const double *v, int scaled,
                             double a, double b)
{
    const size_t K = 6400;
    const double lo = -20, hi = 12, h = (hi - lo) / (double)K;
    double g[6401], mx = -INFINITY;
    for (size_t i = 0; i <= K; i++) {
        const double t = lo + h * (double)i, s2 = exp(t);
        double lp = dense_lik(X, y, v, scaled ? s2 : 1.0, s2) - a * t - (b > 0 ? b / s2 : 0);
        if (a > 0) lp += a * log(b) - lgamma(a);
        g[i] = lp;
        mx = fmax(mx, lp);
    }
    double sum = 0;
    for (size_t i = 0; i <= K; i++)
        sum += (i == 0 || i == K ? 1 : i % 2 ? 4 : 2) * exp(g[i] - mx);
    return mx + log(sum * h / 3);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    double X[N * M], y[N];
    for (size_t i = 0; i < N; i++) {
        const double z = gsl_ran_ugaussian(r);
        for (size_t j = 0; j < M; j++) X[j * N + i] = z + 0.5 * gsl_ran_ugaussian(r) + (double)j;
        y[i] = 2 + 0.8 * X[i] - 0.5 * X[2 * N + i] + 0.3 * gsl_ran_ugaussian(r);
    }
    basel_error err;
    bsl_dict *dict;
    bsl_design *D;
    int rc = bsl_dict_create(&dict, "linear", X, N, M, &err);
    if (!rc) rc = bsl_design_create(&D, dict, X, N, y, 1, (size_t)1 << 20, &err);
    CHECK(rc == BASEL_OK, "design: %s", err.message);
    if (rc) return check_report("test_ssvs_enum");
    const double v0[M] = {0.01, 0.02, 0.005}, c = 100;
    for (int scaled = 0; scaled <= 1; scaled++)
        for (unsigned g = 0; g < (1u << M); g++) {
            double v[M];
            for (size_t j = 0; j < M; j++) v[j] = (g >> j) & 1 ? c * v0[j] : v0[j];
            bsl_ssvs_prior sp = {.tau = 1, .c = c, .p = -1, .a = 2, .b = 1, .scaled = scaled};
            for (double s2 = 0.05; s2 < 5; s2 *= 3) {
                const double ours = bsl_ssvs_log_lik_sigma2(&sp, D, v, s2);
                const double dense = dense_lik(X, y, v, scaled ? s2 : 1.0, s2);
                CHECK_CLOSE(ours, dense, 1e-10, "log p(y | gamma, sigma2) vs dense n x n");
            }
            const double m_ours = bsl_ssvs_log_marginal(&sp, D, v);
            const double m_dense = dense_marginal(X, y, v, scaled, 2, 1);
            CHECK_CLOSE(m_ours, m_dense, 1e-7, scaled ? "closed-form marginal (scaled) vs quadrature of dense"
                                                       : "quadrature marginal (as written) vs dense");
            if (!scaled) {
                bsl_ssvs_prior jp = sp;
                jp.a = jp.b = 0;
                CHECK_CLOSE(bsl_ssvs_log_marginal(&jp, D, v), dense_marginal(X, y, v, 0, 0, 0), 1e-7,
                            "marginal under 1/sigma^2 vs dense");
            }
        }
    bsl_design_free(D);
    bsl_dict_free(dict);
    gsl_rng_free(r);
    return check_report("test_ssvs_enum");
}
