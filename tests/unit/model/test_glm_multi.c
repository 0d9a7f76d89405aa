/*
 * test_glm_multi.c: the multinomial logistic model's pieces (model/
 * glm_multi.h, engine/subset/subset_multi.c):
 *  - with C = 2 classes the model is logistic regression: the Laplace
 *    approximation (mode, Cholesky factor of the Hessian, log joint at the
 *    mode) equals the binomial one's (bsl_glm_laplace) to 1e-8;
 *  - the log likelihood against its definition, term by term, also where
 *    e^eta overflows a double (eta = 800);
 *  - the predictor's class probabilities E[softmax(0, eta)] (product
 *    Gauss-Hermite under the Laplace approximation) against a Monte Carlo
 *    average of 400000 draws of theta from the same normal, within 5 of its
 *    standard errors, and summing to 1;
 *  - rj's model average from posterior draws ({atoms, theta} each): the
 *    mean of the draws' softmax probabilities, computed by hand.
 */
#include "check.h"
#include "core/jsonutil.h"
#include "engine/subset/subset.h"
#include "model/glm.h"
#include "model/glm_multi.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 80, M = 3 };

static double X[N * M], Y2[N], Y3[N];

static void simulate(gsl_rng *r)
{
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < M; j++) X[i + j * N] = gsl_ran_ugaussian(r);
        const double e1 = 0.3 + 1.1 * X[i], e2 = -0.2 + 0.7 * X[i + N] - 0.6 * X[i];
        const double t = 1 + exp(e1) + exp(e2), u = gsl_rng_uniform(r) * t;
        Y3[i] = u < 1 ? 0 : u < 1 + exp(e1) ? 1 : 2;
        Y2[i] = Y3[i] == 1;
    }
}

static void two_classes_are_logistic(void)
{
    const size_t atoms[2] = {0, 2}, K = 2, d = K + 1;
    const bsl_multi_data md = {X, Y2, N, M, 2, 1.0 / 25, 1.0};
    double th_m[3] = {0}, L_m[9], lj_m, th_b[3] = {0}, L_b[9], lj_b;
    double Z[N * 3], lam[3] = {1.0 / 25, 1, 1}, work[N * 5 + 3 * 6];
    for (size_t i = 0; i < N; i++) {
        Z[i] = 1;
        Z[i + N] = X[i];
        Z[i + 2 * N] = X[i + 2 * N];
    }
    CHECK(bsl_glm_multi_laplace(&md, atoms, K, th_m, L_m, &lj_m) == BASEL_OK, "multinomial Laplace, C = 2");
    CHECK(bsl_glm_laplace(BSL_GLM_BINOMIAL, Z, N, d, Y2, lam, th_b, L_b, &lj_b, work) == BASEL_OK, "binomial Laplace");
    for (size_t a = 0; a < d; a++) CHECK_CLOSE(th_m[a], th_b[a], 1e-8, "C = 2: the binomial mode");
    for (size_t a = 0; a < d * d; a++) CHECK_CLOSE(L_m[a], L_b[a], 1e-8, "C = 2: the binomial Hessian's factor");
    CHECK_CLOSE(lj_m, lj_b, 1e-8, "C = 2: the binomial log joint at the mode");
}

static void loglik_by_definition(void)
{
    const double cls[3] = {0, 1, 2};
    const double eta[6] = {0.5, -1.0, 800.0, 2.0, 0.25, 799.0}; /* class 1's column, then class 2's */
    double want = 0;
    for (size_t i = 0; i < 2; i++) { /* rows 0, 1 directly; row 2 by hand: log(1 + e^800 + e^799) */
        const double s = 1 + exp(eta[i]) + exp(eta[i + 3]);
        want += (cls[i] ? eta[i + 3 * (size_t)(cls[i] - 1)] : 0.0) - log(s);
    }
    want += 799.0 - (800.0 + log(exp(-800.0) + 1 + exp(-1.0)));
    const double got = bsl_glm_multi_loglik(cls, eta, 3, 3);
    CHECK(isfinite(got), "log likelihood finite where e^eta overflows");
    CHECK_CLOSE(got, want, 1e-12, "log likelihood by its definition");
}

/* One model, C = 3, m = 2 inputs, joint atoms {0 (class 1: x1), 3 (class 2: x2)}:
 * theta = (a1, b11, a2, b22), d = 4. */
static void probabilities_against_monte_carlo(gsl_rng *r)
{
    const size_t m = 2, C = 3, d = 4, n = 3;
    const double mode[4] = {0.4, 1.3, -0.5, -0.9};
    const double L[16] = {/* column-major lower factor of H */
                          1.6, 0.3, 0.1, -0.2, 0, 1.2, 0.05, 0.1, 0, 0, 1.4, 0.25, 0, 0, 0, 0.9};
    const double B[6] = {0.0, 1.5, -2.0, /* x1 at the rows */ 0.5, -1.0, 0.3 /* x2 */};
    json_t *blk = json_object(), *list = json_array(), *o = json_object();
    const size_t atoms[2] = {0, 3};
    int bad = 0;
    bsl_json_put(o, "atoms", bsl_json_sizes(atoms, 2), &bad);
    bsl_json_put(o, "weight", json_real(1.0), &bad);
    bsl_json_put(o, "mode", bsl_json_doubles(mode, d), &bad);
    bsl_json_put(o, "factor", bsl_json_doubles(L, d * d), &bad);
    bsl_json_push(list, o, &bad);
    bsl_json_put(blk, "models", list, &bad);
    double prob[9];
    CHECK(!bad && bsl_subset_multi_probs(blk, B, n, m, C, prob) == 0, "probabilities computed");
    /* Monte Carlo: theta = mode + L'^-1 eps */
    const size_t S = 400000;
    double sum[9] = {0}, sum2[9] = {0};
    for (size_t s = 0; s < S; s++) {
        double th[4];
        for (size_t a = 0; a < d; a++) th[a] = gsl_ran_ugaussian(r);
        for (size_t a = d; a-- > 0;) { /* back substitution L' th = eps */
            for (size_t l = a + 1; l < d; l++) th[a] -= L[l + a * d] * th[l];
            th[a] /= L[a + a * d];
        }
        for (size_t i = 0; i < n; i++) {
            const double e1 = mode[0] + th[0] + (mode[1] + th[1]) * B[i];
            const double e2 = mode[2] + th[2] + (mode[3] + th[3]) * B[n + i];
            const double t = 1 + exp(e1) + exp(e2), p[3] = {1 / t, exp(e1) / t, exp(e2) / t};
            for (size_t c = 0; c < C; c++) {
                sum[i * C + c] += p[c];
                sum2[i * C + c] += p[c] * p[c];
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        CHECK_CLOSE(prob[i * C] + prob[i * C + 1] + prob[i * C + 2], 1.0, 1e-12, "probabilities sum to 1");
        for (size_t c = 0; c < C; c++) {
            const double mean = sum[i * C + c] / (double)S;
            const double se = sqrt(fmax(sum2[i * C + c] / (double)S - mean * mean, 0) / (double)S);
            CHECK(fabs(prob[i * C + c] - mean) <= 5 * se + 1e-6, "row %zu class %zu: %.6f against Monte Carlo %.6f (se %.1e)",
                  i, c, prob[i * C + c], mean, se);
        }
    }
    json_decref(blk);
}

/* Two draws, C = 3, m = 2: {x1 in class 1} and {x2 in class 1, x1 in class 2}. */
static void probabilities_from_draws(void)
{
    const char *text = "{\"covered\": 1, \"draws\": [{\"atoms\": [0], \"theta\": [0.2, 1.5, -0.4]},"
                       " {\"atoms\": [1, 2], \"theta\": [-0.1, 0.7, 0.3, -1.2]}]}";
    json_error_t je;
    json_t *blk = json_loads(text, 0, &je);
    const double B[4] = {0.5, -1.0, /* x1 */ 2.0, 0.25 /* x2 */};
    double prob[6];
    CHECK(blk && bsl_subset_multi_probs(blk, B, 2, 2, 3, prob) == 0, "probabilities from draws");
    for (size_t i = 0; i < 2; i++) {
        const double e[2][2] = {{0.2 + 1.5 * B[i], -0.4}, {-0.1 + 0.7 * B[2 + i], 0.3 - 1.2 * B[i]}};
        double want[3] = {0, 0, 0};
        for (size_t s = 0; s < 2; s++) {
            const double t = 1 + exp(e[s][0]) + exp(e[s][1]);
            want[0] += 0.5 / t;
            want[1] += 0.5 * exp(e[s][0]) / t;
            want[2] += 0.5 * exp(e[s][1]) / t;
        }
        for (size_t c = 0; c < 3; c++) CHECK_CLOSE(prob[i * 3 + c], want[c], 1e-12, "draws: the mean of softmax");
    }
    json_decref(blk);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    simulate(r);
    two_classes_are_logistic();
    loglik_by_definition();
    probabilities_against_monte_carlo(r);
    probabilities_from_draws();
    gsl_rng_free(r);
    (void)Y3;
    return check_report("test_glm_multi");
}
