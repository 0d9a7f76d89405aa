/*
 * mixture_excluded.c: the density of the inputs a subset leaves out, so that
 * every subset is a model of all d inputs (mixture.h). Two choices:
 *
 * BSL_MIX_EXCLUDED_GAUSSIAN: each excluded input j is one Gaussian,
 *   x_ij ~ N(nu_j, tau_j^2), independent of everything else, with
 *   tau_j^-2 ~ Gamma(a, b0_j), nu_j | tau_j ~ N(xi_j, tau_j^2 / k0_j).
 *
 * BSL_MIX_EXCLUDED_REGRESSION (default): each excluded input is a linear
 *   regression on the active ones (Raftery and Dean 2006, "Variable
 *   selection for model-based clustering", JASA 101, with the regressors
 *   fixed to the whole active set):
 *     x_ij = nu_j + sum_{l in A} b_jl (x_il - xbar_l) + tau_j eps_ij,
 *   the same Normal-Gamma prior on (nu_j, tau_j) and Zellner's g-prior
 *   b_j | tau_j ~ N(0, g tau_j^2 (X_Ac' X_Ac)^{-1}) on the slopes
 *   (X_Ac: the active columns, centred; default g = n, unit information).
 *   Given the active inputs the class is then independent of the excluded
 *   ones, which is what "input j is irrelevant" means for a classifier;
 *   a single Gaussian also says "x_j is independent of the active inputs",
 *   which is false for correlated inputs (Pima's skin and bmi) and makes
 *   the sampler include them to model the correlation.
 *
 * Evidence. Centred regressors are orthogonal to the intercept, so the
 * column's covariance given tau is tau^2 (I + (n/k0) P_1 + g P_A) with P_1
 * and P_A orthogonal projections of ranks 1 and r = rank(X_Ac). With
 * SS_j = sum_i (x_ij - xbar_j)^2 and SSR_j = x_jc' P_A x_jc = c_Aj' C_AA^-1 c_Aj
 * (C the centred cross-product matrix of all inputs), integrating tau:
 *   log m_j(A) = lgamma(a_n) - lgamma(a) + a log b0 - a_n log(b0 + Q/2)
 *              + (1/2) log(k0 / (k0 + n)) - (r/2) log(1 + g) - (n/2) log(2 pi),
 *   Q = SS_j - g/(1+g) SSR_j + k0 n (xbar_j - xi_j)^2 / (k0 + n),  a_n = a + n/2.
 * With A empty (or the Gaussian choice) it is the Normal-Gamma evidence.
 * One Cholesky factor of C_AA serves every excluded input, so a subset's
 * total costs O(r^3 + (d - r) r^2) from the d x d matrix C kept by the model.
 * An active column that lies in the span of the others (relative residual
 * below 1e-10) adds nothing to P_A and is skipped, so r is the rank.
 */
#include "mixture.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

static const double RANK_TOL = 1e-10;

void bsl_mix_excluded_stats(bsl_mix_model *m)
{
    const size_t n = m->n, d = m->d;
    for (size_t j = 0; j < d; j++) {
        const double *x = m->X + j * n;
        double s = 0;
        for (size_t i = 0; i < n; i++) s += x[i];
        m->xbar[j] = s / (double)n;
    }
    for (size_t j = 0; j < d; j++)
        for (size_t l = 0; l <= j; l++) {
            const double *x = m->X + j * n, *y = m->X + l * n;
            double s = 0;
            for (size_t i = 0; i < n; i++) s += (x[i] - m->xbar[j]) * (y[i] - m->xbar[l]);
            m->C[j * d + l] = m->C[l * d + j] = s;
        }
}

/* Cholesky factor (row-major lower, r x r in L with stride d) of C over the
 * active inputs, skipping those in the span of the ones before them; their
 * indices in kept[0..r). Returns r. */
static size_t factor_active(const bsl_mix_model *m, const unsigned char *active, double *L,
                            size_t *kept)
{
    const size_t d = m->d;
    size_t r = 0;
    for (size_t a = 0; a < d; a++) {
        if (!active[a]) continue;
        double *row = L + r * d;
        for (size_t t = 0; t < r; t++) {
            double s = m->C[a * d + kept[t]];
            for (size_t u = 0; u < t; u++) s -= row[u] * L[t * d + u];
            row[t] = s / L[t * d + t];
        }
        double s = m->C[a * d + a];
        for (size_t u = 0; u < r; u++) s -= row[u] * row[u];
        if (!(s > RANK_TOL * m->C[a * d + a])) continue; /* in the span: P_A unchanged */
        row[r] = sqrt(s);
        kept[r++] = a;
    }
    return r;
}

/* SSR_j = |L^{-1} c_Aj|^2; the solution left in t[0..r). */
static double explained(const bsl_mix_model *m, const double *L, const size_t *kept, size_t r,
                        size_t j, double *t)
{
    const size_t d = m->d;
    double ssr = 0;
    for (size_t u = 0; u < r; u++) {
        double s = m->C[j * d + kept[u]];
        for (size_t v = 0; v < u; v++) s -= L[u * d + v] * t[v];
        t[u] = s / L[u * d + u];
        ssr += t[u] * t[u];
    }
    return ssr;
}

static double log_evidence(const bsl_mix_model *m, size_t j, double ssr, size_t r)
{
    const double n = (double)m->n, g = m->excl_g, k0 = m->ng_k0[j], b0 = m->ng_b0[j];
    const double dm = m->xbar[j] - m->xi[j];
    const double Q = m->C[j * m->d + j] - g / (1 + g) * ssr + k0 * n * dm * dm / (k0 + n);
    const double an = m->a + 0.5 * n;
    return lgamma(an) - lgamma(m->a) + m->a * log(b0) - an * log(b0 + 0.5 * Q) +
           0.5 * log(k0 / (k0 + n)) - 0.5 * (double)r * log1p(g) - 0.5 * n * BSL_MIX_LOG_2PI;
}

double bsl_mix_excluded_log_evidence(const bsl_mix_model *m, const unsigned char *active,
                                     double *work, size_t *kept)
{
    const size_t d = m->d;
    double total = 0;
    if (m->excluded == BSL_MIX_EXCLUDED_GAUSSIAN) {
        for (size_t j = 0; j < d; j++)
            if (!active[j]) total += log_evidence(m, j, 0, 0);
        return total;
    }
    double *L = work, *t = work + d * d;
    const size_t r = factor_active(m, active, L, kept);
    for (size_t j = 0; j < d; j++)
        if (!active[j]) total += log_evidence(m, j, explained(m, L, kept, r, j, t), r);
    return total;
}

void bsl_mix_excluded_simulate(bsl_mix_model *m, const unsigned char *active, const gsl_rng *rng,
                               double *work, size_t *kept)
{
    const size_t n = m->n, d = m->d;
    bsl_mix_excluded_stats(m); /* the active columns are new */
    double *L = work, *b = work + d * d;
    const size_t r = m->excluded == BSL_MIX_EXCLUDED_GAUSSIAN ? 0 : factor_active(m, active, L, kept);
    for (size_t j = 0; j < d; j++) {
        if (active[j]) continue;
        /* (nu, tau) from the Normal-Gamma prior; b = sqrt(g) tau L^{-T} u,
         * whose covariance is g tau^2 C_AA^{-1} */
        const double prec = gsl_ran_gamma(rng, m->a, 1 / m->ng_b0[j]), tau = 1 / sqrt(prec);
        const double nu = m->xi[j] + gsl_ran_gaussian(rng, tau / sqrt(m->ng_k0[j]));
        for (size_t u = 0; u < r; u++) b[u] = gsl_ran_gaussian(rng, 1);
        for (size_t u = r; u-- > 0;) {
            double s = b[u];
            for (size_t v = u + 1; v < r; v++) s -= L[v * d + u] * b[v];
            b[u] = s / L[u * d + u];
        }
        double *x = m->X + j * n;
        for (size_t i = 0; i < n; i++) {
            double s = nu;
            for (size_t u = 0; u < r; u++)
                s += sqrt(m->excl_g) * tau * b[u] * (m->X[kept[u] * n + i] - m->xbar[kept[u]]);
            x[i] = s + gsl_ran_gaussian(rng, tau);
        }
    }
    bsl_mix_excluded_stats(m);
}
