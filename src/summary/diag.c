/*
 * diag.c: convergence diagnostics across chains: split R-hat and effective
 * sample size (Gelman et al., Bayesian Data Analysis, 3rd ed., ch. 11.4-11.5).
 * Each chain is split in halves; R-hat = sqrt(var+ / W) with
 * var+ = (N-1)/N W + B/N. The ESS combines the chains' autocovariances into
 * rho_t = 1 - (W - mean_m acov_m(t)) / var+ and sums Geyer's initial positive
 * sequence of pairs rho_{2t} + rho_{2t+1}.
 */
#include "summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double mean_of(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s / (double)n;
}

static double autocov(const double *x, size_t n, double mu, size_t lag)
{
    double s = 0;
    for (size_t i = 0; i + lag < n; i++) s += (x[i] - mu) * (x[i + lag] - mu);
    return s / (double)n;
}

void bsl_rhat_ess(const double *x, size_t chains, size_t len, double *rhat, double *ess)
{
    *rhat = NAN;
    *ess = NAN;
    const size_t half = len / 2, M = 2 * chains;
    if (half < 2 || chains < 1) return;
    /* the sequences' means on the stack up to the 1024 chains the options
     * allow: a failed allocation here would silently drop the diagnostics */
    double mu_stack[2 * 1024];
    double *mu = M <= sizeof mu_stack / sizeof *mu_stack ? mu_stack : malloc(M * sizeof *mu);
    if (!mu) return;
    double W = 0, mbar = 0;
    for (size_t s = 0; s < M; s++) {
        const double *seq = x + (s / 2) * len + (s % 2) * half;
        mu[s] = mean_of(seq, half);
        const double var = autocov(seq, half, mu[s], 0) * (double)half / (double)(half - 1);
        W += var / (double)M;
        mbar += mu[s] / (double)M;
    }
    double B = 0;
    for (size_t s = 0; s < M; s++) B += (mu[s] - mbar) * (mu[s] - mbar);
    B *= (double)half / (double)(M - 1);
    const double N = (double)half, varplus = (N - 1) / N * W + B / N;
    if (!(W > 0)) {
        /* a trace that never moved: converged only if all sequences agree */
        *rhat = B > 0 ? INFINITY : 1.0;
        *ess = B > 0 ? 1.0 : (double)(M * half);
        goto out;
    }
    *rhat = sqrt(varplus / W);
    double sum = 0;
    for (size_t t = 0; t + 1 < half; t += 2) {
        double pair = 0;
        for (size_t l = t; l <= t + 1; l++) {
            double ac = 0;
            for (size_t s = 0; s < M; s++) {
                const double *seq = x + (s / 2) * len + (s % 2) * half;
                ac += autocov(seq, half, mu[s], l) / (double)M;
            }
            pair += 1 - (W - ac) / varplus;
        }
        if (pair < 0) break;
        sum += pair;
    }
    /* sum = rho_0 + rho_1 + ... and tau = -1 + 2 sum (rho_0 = 1) */
    const double tau = fmax(-1 + 2 * sum, 1.0 / log10((double)(M * half) + 10));
    *ess = (double)(M * half) / tau;
out:
    if (mu != mu_stack) free(mu);
}

int bsl_trace_diagnostics(const double *const *traces, size_t chains, size_t L, size_t m,
                          double *rhat_pip, double *ess_pip, double *rhat_size, double *ess_size)
{
    double *x = bsl_malloc(chains * (L ? L : 1), sizeof(double));
    if (!x) return BASEL_ENOMEM;
    for (size_t j = 0; j <= m; j++) {
        for (size_t c = 0; c < chains; c++) memcpy(x + c * L, traces[c] + j * L, L * sizeof *x);
        double rhat = NAN, ess = NAN;
        if (L >= 4) bsl_rhat_ess(x, chains, L, &rhat, &ess);
        *(j < m ? rhat_pip + j : rhat_size) = rhat;
        *(j < m ? ess_pip + j : ess_size) = ess;
    }
    free(x);
    return BASEL_OK;
}

int bsl_trace_init(bsl_trace *t, size_t m, size_t iter, size_t max_len)
{
    t->m = m;
    t->L = BSL_MIN(iter, max_len);
    t->step = t->L ? iter / t->L : 1;
    t->x = bsl_calloc((m + 1) * (t->L ? t->L : 1), sizeof(double));
    return t->x ? BASEL_OK : BASEL_ENOMEM;
}

void bsl_trace_free(bsl_trace *t)
{
    free(t->x);
    t->x = NULL;
}

void bsl_trace_record(bsl_trace *t, size_t it, const size_t *active, size_t k)
{
    if (it % t->step != 0 || it / t->step >= t->L) return;
    const size_t s = it / t->step, L = t->L;
    for (size_t j = 0; j < t->m; j++) t->x[j * L + s] = 0.0;
    for (size_t i = 0; i < k; i++) t->x[active[i] * L + s] = 1.0;
    t->x[t->m * L + s] = (double)k;
}

double bsl_rhat_worst(const double *rhat_pip, const double *pip, size_t m, double rhat_size)
{
    double worst = isnan(rhat_size) ? 1 : rhat_size;
    for (size_t j = 0; rhat_pip && j < m; j++)
        if (!isnan(rhat_pip[j]) && pip[j] > 0.01 && pip[j] < 0.99 && rhat_pip[j] > worst)
            worst = rhat_pip[j];
    return worst;
}

int bsl_rhat_warning(char *buf, size_t len, double worst, const char *what, const char *advice)
{
    if (!(worst > 1.1)) return 0;
    snprintf(buf, len, "the chains disagree about the %s (R-hat up to %.2f): %s", what, worst, advice);
    return 1;
}
