/*
 * test_ard.c: empirical-Bayes input scales (basis.h bsl_ard_ml, ard.c; bd
 * --relevance ml). The GP's log marginal likelihood against a direct
 * evaluation (K built and inverted here by Gauss-Jordan), its gradient
 * against central differences, the optimiser's answer against its
 * neighbours (a maximum: no step of 0.05 in any log parameter is higher by
 * more than the optimiser's stopping tolerance),
 * the irrelevant inputs of y = sin(2 x1) + noise left out (scale 0) and the
 * relevant one kept, the scales following the inputs' units (x10 -> /10),
 * a dictionary under the scales (r=auto's grid from the scaled median
 * distance), and the errors.
 */
#include "check.h"
#include "basis/basis.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 60, D = 3, C = 2 };

static double X[N * D], Y[N * C];

/* log N(Y_o | 0, K) summed over outputs, K inverted by Gauss-Jordan with
 * partial pivoting and its determinant from the pivots. */
static double direct_log_ml(size_t n, const double *log_eta, double log_s2, double log_noise)
{
    double *K = malloc(n * n * sizeof *K), *I = calloc(n * n, sizeof *I);
    for (size_t i = 0; i < n; i++) {
        I[i + i * n] = 1;
        for (size_t j = 0; j < n; j++) {
            double r2 = 0;
            for (size_t a = 0; a < D; a++) {
                const double diff = exp(log_eta[a]) * (X[a * N + i] - X[a * N + j]);
                r2 += diff * diff;
            }
            K[i + j * n] = exp(log_s2) * exp(-0.5 * r2) + (i == j ? exp(log_noise) : 0);
        }
    }
    double logdet = 0;
    for (size_t c = 0; c < n; c++) {
        size_t p = c;
        for (size_t i = c + 1; i < n; i++)
            if (fabs(K[i + c * n]) > fabs(K[p + c * n])) p = i;
        for (size_t j = 0; j < n; j++) {
            double t = K[c + j * n];
            K[c + j * n] = K[p + j * n], K[p + j * n] = t;
            t = I[c + j * n];
            I[c + j * n] = I[p + j * n], I[p + j * n] = t;
        }
        const double piv = K[c + c * n];
        logdet += log(fabs(piv));
        for (size_t j = 0; j < n; j++) K[c + j * n] /= piv, I[c + j * n] /= piv;
        for (size_t i = 0; i < n; i++) {
            if (i == c) continue;
            const double f = K[i + c * n];
            for (size_t j = 0; j < n; j++) K[i + j * n] -= f * K[c + j * n], I[i + j * n] -= f * I[c + j * n];
        }
    }
    double quad = 0;
    for (size_t o = 0; o < C; o++)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) quad += Y[o * N + i] * I[i + j * n] * Y[o * N + j];
    free(K);
    free(I);
    return -0.5 * quad - 0.5 * C * logdet - 0.5 * (double)(C * n) * log(2 * M_PI);
}

static void likelihood_and_gradient(void)
{
    const double log_eta[D] = {0.31, -0.72, 0.05}, log_s2 = 0.2, log_noise = -1.3;
    double grad[D + 2];
    const double v = bsl_ard_log_ml(X, N, D, Y, C, log_eta, log_s2, log_noise, grad);
    CHECK_CLOSE(v, direct_log_ml(N, log_eta, log_s2, log_noise), 1e-9, "log ML = the direct evaluation");
    double p[D + 2];
    memcpy(p, log_eta, sizeof log_eta);
    p[D] = log_s2, p[D + 1] = log_noise;
    for (size_t j = 0; j < D + 2; j++) {
        const double h = 1e-5, keep = p[j];
        p[j] = keep + h;
        const double up = bsl_ard_log_ml(X, N, D, Y, C, p, p[D], p[D + 1], NULL);
        p[j] = keep - h;
        const double dn = bsl_ard_log_ml(X, N, D, Y, C, p, p[D], p[D + 1], NULL);
        p[j] = keep;
        char label[64];
        snprintf(label, sizeof label, "d log ML / d theta_%zu = central difference", j);
        CHECK_CLOSE(grad[j], (up - dn) / (2 * h), 1e-5, label);
    }
}

/* The standardised problem ard.c optimises: for checking its maximum. */
static void standardise(double *Xs, double *Ys)
{
    for (size_t a = 0; a < D + C; a++) {
        const double *src = a < D ? X + a * N : Y + (a - D) * N;
        double *dst = a < D ? Xs + a * N : Ys + (a - D) * N;
        double m = 0, ss = 0;
        for (size_t i = 0; i < N; i++) m += src[i];
        m /= N;
        for (size_t i = 0; i < N; i++) ss += (src[i] - m) * (src[i] - m);
        for (size_t i = 0; i < N; i++) dst[i] = (src[i] - m) / sqrt(ss / (N - 1));
    }
}

static void maximum(void)
{
    basel_error err;
    double scale[D];
    bsl_ard_info info;
    int rc = bsl_ard_ml(X, N, D, Y, C, scale, &info, &err);
    CHECK(rc == BASEL_OK, "bsl_ard_ml runs: %s", rc ? err.message : "");
    if (rc) return;
    CHECK(scale[0] > 0 && scale[1] == 0 && scale[2] == 0, "x1 kept, x2 and x3 left out: %g %g %g", scale[0],
          scale[1], scale[2]);
    CHECK(info.rows == N && info.evaluations > 0 && info.noise_var > 0 && info.signal_var > 0, "info filled");
    /* the maximum of the standardised problem: x1's standardised log eta,
     * the variances; x2 and x3 at any scale below ETA_OFF hardly matter, so
     * the neighbours only move the free coordinates */
    double Xs[N * D], Ys[N * C], sd0 = 0, m = 0;
    standardise(Xs, Ys);
    for (size_t i = 0; i < N; i++) m += X[i] / N;
    for (size_t i = 0; i < N; i++) sd0 += (X[i] - m) * (X[i] - m) / (N - 1);
    double p[D + 2] = {log(scale[0] * sqrt(sd0)), -INFINITY, -INFINITY, log(info.signal_var), log(info.noise_var)};
    const double best = bsl_ard_log_ml(Xs, N, D, Ys, C, p, p[D], p[D + 1], NULL);
    CHECK_CLOSE(best, info.log_ml, 1e-9, "info.log_ml is the likelihood at the scales returned");
    int is_max = 1;
    for (size_t j = 0; j < D + 2; j++) {
        if (j == 1 || j == 2) continue;
        for (int s = -1; s <= 1; s += 2) {
            p[j] += 0.05 * s;
            const double v = bsl_ard_log_ml(Xs, N, D, Ys, C, p, p[D], p[D + 1], NULL);
            if (v > best + 1e-2) is_max = 0, fprintf(stderr, "theta_%zu %+g: %.9g > %.9g\n", j, 0.05 * s, v, best);
            p[j] -= 0.05 * s;
        }
    }
    /* 0.01: the optimiser stops once ten iterations gain less (ard.c) */
    CHECK(is_max, "no step of 0.05 in a log parameter raises the log likelihood by 0.01 (log ML %.4f)", best);
    /* units: x1 in tenths gives a tenth of the scale */
    for (size_t i = 0; i < N; i++) X[i] *= 10;
    double scale10[D];
    rc = bsl_ard_ml(X, N, D, Y, C, scale10, NULL, &err);
    for (size_t i = 0; i < N; i++) X[i] /= 10;
    CHECK(rc == BASEL_OK && fabs(scale10[0] * 10 - scale[0]) < 1e-3 * scale[0], /* to the optimiser's tolerance */
          "x1 x 10: scale / 10 (%g vs %g)", rc ? 0 : scale10[0] * 10, scale[0]);
    /* the dictionary under these scales */
    bsl_dict *dict = NULL;
    rc = bsl_dict_create_scaled(&dict, "gauss", X, N, D, scale, &err);
    CHECK(rc == BASEL_OK && dict->input_scale && dict->input_scale[0] == scale[0] && dict->input_scale[1] == 0,
          "the scaled dictionary carries the scales");
    if (!rc) {
        double Z[N * D];
        for (size_t a = 0; a < D; a++)
            for (size_t i = 0; i < N; i++) Z[a * N + i] = X[a * N + i] * scale[a];
        const double delta = bsl_dict_median_distance(Z, N, D);
        CHECK(fabs(dict->widths[0] - delta / 4) < 1e-12 * delta && fabs(dict->widths[3 * N] - 2 * delta) < 1e-12 * delta,
              "r=auto's grid from the scaled median distance %g (got %g .. %g)", delta, dict->widths[0],
              dict->widths[3 * N]);
    }
    bsl_dict_free(dict);
}

static void errors(void)
{
    basel_error err;
    double scale[D];
    CHECK(bsl_ard_ml(X, 2, D, Y, C, scale, NULL, &err) == BASEL_EINVAL && strstr(err.message, "at least 3 rows"),
          "2 rows refused");
    CHECK(bsl_ard_ml(X, N, 0, Y, C, scale, NULL, &err) == BASEL_EINVAL, "no input refused");
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    for (size_t i = 0; i < N * D; i++) X[i] = gsl_ran_flat(r, -2, 2);
    for (size_t i = 0; i < N; i++) {
        Y[i] = sin(2 * X[i]) + gsl_ran_gaussian(r, 0.1);
        Y[N + i] = 3 * cos(X[i]) + gsl_ran_gaussian(r, 0.3) + 5; /* a second output on its own scale */
    }
    gsl_rng_free(r);
    likelihood_and_gradient();
    maximum();
    errors();
    return check_report("test_ard");
}
