/* ard.c: empirical-Bayes input scales for a radial kernel (bd --relevance
 * ml; basis.h bsl_ard_ml).
 *
 * The scales are those of a Gaussian process with the ARD squared-
 * exponential kernel (Rasmussen and Williams 2006, eq. (5.1) and (5.9)):
 *     y ~ N(0, K),  K_ij = s2 exp(-1/2 sum_a eta_a^2 (x_ia - x_ja)^2) + sigma2 [i = j],
 * with eta_a, s2 and sigma2 chosen by maximising the log marginal likelihood
 *     log p(y | eta, s2, sigma2) = -1/2 y'K^{-1}y - 1/2 log|K| - n/2 log 2 pi      (R&W eq. (5.8))
 * (type-II maximum likelihood, as scikit-learn's GaussianProcessRegressor
 * does for the GP peer of bench/kernel/run.py). Its gradient is
 *     d/d theta = 1/2 tr((alpha alpha' - K^{-1}) dK/d theta),  alpha = K^{-1} y  (R&W eq. (5.9)),
 * with dK/d log eta_a = -Kf_ij eta_a^2 (x_ia - x_ja)^2, dK/d log s2 = Kf,
 * dK/d log sigma2 = sigma2 I (Kf the kernel without the noise). Several
 * outputs share the hyperparameters: their log likelihoods add.
 *
 * Not Bayesian: the scales are a point estimate made before the dictionary
 * exists, and the atoms' posterior is conditional on them (docs/FIT.md
 * "relevance"). Cost: every evaluation factors an n_s x n_s matrix, O(n_s^3)
 * with n_s = min(n, BSL_ARD_MAX_ROWS) rows (evenly spaced rows above), so
 * it stays a few seconds whatever n; the optimiser (GSL's BFGS) takes a few
 * hundred evaluations. The inputs and targets are standardised here on
 * those rows; the scales returned are for the inputs as given.
 */
#include "basis.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bounds on the standardised problem: a length scale between 0.01 and 1000
 * standard deviations (those of the GP peer in bench/kernel/run.py); signal
 * and noise variances of the standardised target in [1e-4, 1e4] and
 * [1e-6, 10] (the lower noise bound keeps K positive definite: its
 * condition number is at most 1 + n s2 / sigma2). */
static const double LOG_ETA_LO = -6.907755278982137, LOG_ETA_HI = 4.605170185988092; /* log 1e-3, log 1e2 */
static const double LOG_S2_LO = -9.210340371976182, LOG_S2_HI = 9.210340371976182;   /* log 1e-4, log 1e4 */
static const double LOG_N2_LO = -13.815510557964274, LOG_N2_HI = 2.302585092994046; /* log 1e-6, log 10 */

/* An input whose standardised length scale passes this leaves the kernel:
 * over +-3 standard deviations its factor exp(-(eta dx)^2 / 2) stays above
 * exp(-(0.01 * 6)^2 / 2) = 0.998. */
#define ETA_OFF 0.01

typedef struct ard_work {
    size_t n, d, c, np;  /* rows, inputs, outputs, parameters (d + 2, or 3 tied) */
    int tied;            /* 1: one eta for every input (the start) */
    const double *X;     /* n x d, standardised */
    const double *Y;     /* n x c, standardised */
    double *Kf, *K, *A;  /* n x n: kernel, its factor then inverse; alpha (n x c) in A */
    size_t evaluations;
    int failed;          /* a factorisation failed (K not positive definite) */
} ard_work;

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* theta (np) to eta (d), s2, sigma2, within the bounds. */
static void unpack(const ard_work *w, const double *theta, double *eta, double *s2, double *n2)
{
    for (size_t a = 0; a < w->d; a++) { /* -inf: the input left out, exactly */
        const double t = theta[w->tied ? 0 : a];
        eta[a] = t == -INFINITY ? 0.0 : exp(clampd(t, LOG_ETA_LO, LOG_ETA_HI));
    }
    const size_t o = w->tied ? 1 : w->d;
    *s2 = exp(clampd(theta[o], LOG_S2_LO, LOG_S2_HI));
    *n2 = exp(clampd(theta[o + 1], LOG_N2_LO, LOG_N2_HI));
}

/* The negative log marginal likelihood at theta and, if grad, its gradient
 * (zero along a coordinate outside its bounds: the function is flat there,
 * being evaluated at the clamped point). */
static double nll(ard_work *w, const double *theta, double *grad)
{
    const size_t n = w->n, d = w->d, c = w->c;
    double eta[BSL_ARD_MAX_INPUTS], s2, n2;
    unpack(w, theta, eta, &s2, &n2);
    w->evaluations++;
    for (size_t j = 0; j < n; j++)
        for (size_t i = j; i < n; i++) {
            double r2 = 0;
            for (size_t a = 0; a < d; a++) {
                const double diff = eta[a] * (w->X[a * n + i] - w->X[a * n + j]);
                r2 += diff * diff;
            }
            const double kf = s2 * exp(-0.5 * r2);
            w->Kf[i + j * n] = w->Kf[j + i * n] = kf;
            w->K[i + j * n] = kf + (i == j ? n2 : 0.0);
        }
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)n, w->K, (lapack_int)n) != 0) {
        w->failed = 1;
        if (grad) memset(grad, 0, w->np * sizeof *grad);
        return HUGE_VAL;
    }
    double logdet = 0;
    for (size_t i = 0; i < n; i++) logdet += 2 * log(w->K[i + i * n]);
    memcpy(w->A, w->Y, n * c * sizeof *w->A);
    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)n, (lapack_int)c, w->K, (lapack_int)n, w->A, (lapack_int)n);
    double fit = 0;
    for (size_t i = 0; i < n * c; i++) fit += w->Y[i] * w->A[i];
    const double value = 0.5 * fit + 0.5 * (double)c * logdet + 0.5 * (double)(c * n) * log(2 * M_PI);
    if (!grad) return value;
    LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', (lapack_int)n, w->K, (lapack_int)n); /* K^{-1}, lower triangle */
    double g_eta[BSL_ARD_MAX_INPUTS] = {0}, g_s2 = 0, g_n2 = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t i = j; i < n; i++) {
            /* W = alpha alpha' - c K^{-1}; off-diagonal pairs count twice */
            double wij = -(double)c * w->K[i + j * n];
            for (size_t o = 0; o < c; o++) wij += w->A[o * n + i] * w->A[o * n + j];
            const double mult = i == j ? 1.0 : 2.0, wk = mult * wij * w->Kf[i + j * n];
            g_s2 += wk;
            if (i == j) {
                g_n2 += wij;
                continue;
            }
            for (size_t a = 0; a < d; a++) {
                const double diff = eta[a] * (w->X[a * n + i] - w->X[a * n + j]);
                g_eta[a] += wk * diff * diff;
            }
        }
    /* d(-log p)/d theta = -1/2 tr(W dK/d theta) (R&W eq. (5.9)) */
    const size_t o = w->tied ? 1 : d;
    memset(grad, 0, w->np * sizeof *grad);
    for (size_t a = 0; a < d; a++) grad[w->tied ? 0 : a] += 0.5 * g_eta[a];
    grad[o] = -0.5 * g_s2;
    grad[o + 1] = -0.5 * n2 * g_n2;
    const double lo[3] = {LOG_ETA_LO, LOG_S2_LO, LOG_N2_LO}, hi[3] = {LOG_ETA_HI, LOG_S2_HI, LOG_N2_HI};
    for (size_t p = 0; p < w->np; p++) {
        const size_t kind = p < o ? 0 : p - o + 1;
        if (theta[p] < lo[kind] || theta[p] > hi[kind]) grad[p] = 0;
    }
    return value;
}

static double f_gsl(const gsl_vector *x, void *ctx) { return nll(ctx, x->data, NULL); }
static void df_gsl(const gsl_vector *x, void *ctx, gsl_vector *g) { nll(ctx, x->data, g->data); }
static void fdf_gsl(const gsl_vector *x, void *ctx, double *f, gsl_vector *g) { *f = nll(ctx, x->data, g->data); }

/* Minimise from theta (np values, updated to the minimiser) by BFGS, for
 * at most `iters` iterations. It stops when the gradient's norm is below
 * 1e-3, when a line search makes no progress, or when ten iterations gained
 * less than 0.01 in log likelihood: on Boston the last 250 of 330
 * iterations crawled along the flat directions of the irrelevant inputs
 * for a gain of 0.04, a factor 1.04 in likelihood, that changes no
 * prediction. */
static int minimise(ard_work *w, double *theta, size_t iters)
{
    gsl_multimin_fdfminimizer *s = gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, w->np);
    gsl_vector *x = gsl_vector_alloc(w->np);
    if (!s || !x) {
        gsl_multimin_fdfminimizer_free(s);
        gsl_vector_free(x);
        return BASEL_ENOMEM;
    }
    gsl_multimin_function_fdf fn = {.f = f_gsl, .df = df_gsl, .fdf = fdf_gsl, .n = w->np, .params = w};
    memcpy(x->data, theta, w->np * sizeof *theta);
    const int status = gsl_multimin_fdfminimizer_set(s, &fn, x, 0.5, 0.1);
    enum { WINDOW = 10 };
    double back[WINDOW];
    for (size_t it = 0; status == GSL_SUCCESS && it < iters && !w->failed; it++) {
        back[it % WINDOW] = s->f;
        if (gsl_multimin_fdfminimizer_iterate(s) != GSL_SUCCESS) break; /* no progress: at a minimum */
        if (gsl_multimin_test_gradient(s->gradient, 1e-3) == GSL_SUCCESS) break;
        if (it + 1 >= WINDOW && back[(it + 1) % WINDOW] - s->f < 1e-2) break; /* f ten iterations back */
    }
    memcpy(theta, gsl_multimin_fdfminimizer_x(s)->data, w->np * sizeof *theta);
    gsl_multimin_fdfminimizer_free(s);
    gsl_vector_free(x);
    return status == GSL_SUCCESS ? BASEL_OK : BASEL_ENUMERIC;
}

/* Standardise the sample of rows (rows i n / n_s, i < n_s: all of them
 * when n <= n_s): Xs (n_s x d), Ys (n_s x c), sd the
 * inputs' standard deviations (0 for a constant input, whose column is then
 * all 0). */
static void sample_rows(const double *X, size_t n, size_t d, const double *Y, size_t c, size_t ns, double *Xs,
                        double *Ys, double *sd)
{
    for (size_t a = 0; a < d + c; a++) {
        const double *src = a < d ? X + a * n : Y + (a - d) * n;
        double *dst = a < d ? Xs + a * ns : Ys + (a - d) * ns;
        double mean = 0, ss = 0;
        for (size_t i = 0; i < ns; i++) mean += dst[i] = src[i * n / ns]; /* evenly spread over the rows */
        mean /= (double)ns;
        for (size_t i = 0; i < ns; i++) ss += (dst[i] - mean) * (dst[i] - mean);
        const double s = ns > 1 ? sqrt(ss / (double)(ns - 1)) : 0;
        for (size_t i = 0; i < ns; i++) dst[i] = s > 0 ? (dst[i] - mean) / s : 0.0;
        if (a < d) sd[a] = s;
    }
}

int bsl_ard_ml(const double *X, size_t n, size_t d, const double *Y, size_t c, double *scale, bsl_ard_info *info,
               basel_error *err)
{
    if (d == 0 || d > BSL_ARD_MAX_INPUTS || c == 0 || n < 3)
        return bsl_fail(err, BASEL_EINVAL, "--relevance ml: needs at least 3 rows and 1 to %d inputs (the data has "
                                           "%zu rows and %zu inputs)", BSL_ARD_MAX_INPUTS, n, d);
    const size_t ns = n > BSL_ARD_MAX_ROWS ? BSL_ARD_MAX_ROWS : n;
    ard_work w = {.n = ns, .d = d, .c = c};
    double *Xs = bsl_malloc(ns * d, sizeof *Xs), *Ys = bsl_malloc(ns * c, sizeof *Ys);
    w.Kf = bsl_malloc(ns * ns, sizeof(double));
    w.K = bsl_malloc(ns * ns, sizeof(double));
    w.A = bsl_malloc(ns * c, sizeof(double));
    double sd[BSL_ARD_MAX_INPUTS], theta[BSL_ARD_MAX_INPUTS + 2];
    int rc = Xs && Ys && w.Kf && w.K && w.A ? BASEL_OK : BASEL_ENOMEM;
    if (!rc) {
        sample_rows(X, n, d, Y, c, ns, Xs, Ys, sd);
        w.X = Xs;
        w.Y = Ys;
        /* start: one length scale, the median distance between the rows
         * (the middle of r=auto's grid), signal variance 1, noise 0.1 */
        const double delta = bsl_dict_median_distance(Xs, ns, d);
        w.tied = 1, w.np = 3;
        theta[0] = clampd(-log(delta), LOG_ETA_LO, LOG_ETA_HI), theta[1] = 0, theta[2] = log(0.1);
        rc = minimise(&w, theta, 200);
    }
    if (!rc && !w.failed) { /* then one scale per input, from the tied optimum */
        const double t0 = theta[0], s2 = theta[1], n2 = theta[2];
        w.tied = 0, w.np = d + 2;
        for (size_t a = 0; a < d; a++) theta[a] = t0;
        theta[d] = s2, theta[d + 1] = n2;
        rc = minimise(&w, theta, 500);
    }
    if (!rc && !w.failed) {
        double eta[BSL_ARD_MAX_INPUTS], s2, n2;
        unpack(&w, theta, eta, &s2, &n2);
        for (size_t a = 0; a < d; a++) {
            scale[a] = sd[a] > 0 && eta[a] >= ETA_OFF ? eta[a] / sd[a] : 0.0;
            if (scale[a] == 0) theta[a] = -INFINITY; /* the likelihood reported is that of the scales returned */
        }
        const double value = nll(&w, theta, NULL);
        if (info) *info = (bsl_ard_info){.log_ml = -value, .signal_var = s2, .noise_var = n2, .rows = ns,
                                         .evaluations = w.evaluations};
    }
    if (!rc && w.failed) rc = BASEL_ENUMERIC;
    free(Xs);
    free(Ys);
    free(w.Kf);
    free(w.K);
    free(w.A);
    if (rc == BASEL_ENOMEM) return bsl_fail(err, rc, "out of memory");
    if (rc) return bsl_fail(err, rc, "--relevance ml: the Gaussian process's covariance matrix is not positive "
                                     "definite at the maximum-likelihood scales");
    return BASEL_OK;
}

double bsl_ard_log_ml(const double *X, size_t n, size_t d, const double *Y, size_t c, const double *log_eta,
                      double log_s2, double log_noise, double *grad)
{
    ard_work w = {.n = n, .d = d, .c = c, .np = d + 2, .X = X, .Y = Y};
    w.Kf = bsl_malloc(n * n, sizeof(double));
    w.K = bsl_malloc(n * n, sizeof(double));
    w.A = bsl_malloc(n * c, sizeof(double));
    double theta[BSL_ARD_MAX_INPUTS + 2], value = NAN;
    if (w.Kf && w.K && w.A && d <= BSL_ARD_MAX_INPUTS) {
        memcpy(theta, log_eta, d * sizeof *theta);
        theta[d] = log_s2, theta[d + 1] = log_noise;
        value = -nll(&w, theta, grad);
        for (size_t p = 0; grad && p < d + 2; p++) grad[p] = -grad[p];
    }
    free(w.Kf);
    free(w.K);
    free(w.A);
    return value;
}
