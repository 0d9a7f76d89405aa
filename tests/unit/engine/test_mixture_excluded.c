/*
 * test_mixture_excluded.c: the excluded inputs' log evidence of the mixture
 * engine (src/engine/mixture/mixture_excluded.c) against a dense computation.
 *
 * Given tau, an excluded column x is N(xi 1, tau^2 S) with
 * S = I + 11'/k0 + g P_A (P_A the projection on the centred active columns);
 * with tau^-2 ~ Gamma(a, b0) integrated out, x is multivariate t:
 *   log m = lgamma(a + n/2) - lgamma(a) - (n/2) log(2 pi b0) - (1/2) log|S|
 *           - (a + n/2) log(1 + r' S^{-1} r / (2 b0)),  r = x - xi 1.
 * The test builds S densely (P_A from the normal equations),
 * factors it with GSL and compares, for several subsets, the sum over the
 * excluded inputs with bsl_mix_excluded_log_evidence (relative 1e-10). It
 * also checks that an active column equal to another active column changes
 * nothing (rank, not count, enters), and the Gaussian choice (P_A = 0).
 * bsl_mix_excluded_swap_changes and _flip_changes (every exchange's and
 * every single flip's change of the total, by rank-one updates) are
 * checked against two evaluations per pair or flip, on the
 * same subsets, with an entering column in the span of the rest, and with
 * active columns not of full rank (its pair-by-pair branch).
 */
#include "check.h"
#include "engine/mixture/mixture.h"

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 40, D_IN = 6 };

/* log |S| and r' S^{-1} r via a Cholesky factor of the n x n matrix S. */
static void dense_terms(const double *S, const double *r, size_t n, double *logdet, double *quad)
{
    gsl_matrix *M = gsl_matrix_alloc(n, n);
    gsl_vector *v = gsl_vector_alloc(n);
    memcpy(M->data, S, n * n * sizeof *S);
    gsl_linalg_cholesky_decomp1(M);
    *logdet = 0;
    for (size_t i = 0; i < n; i++) *logdet += 2 * log(gsl_matrix_get(M, i, i));
    memcpy(v->data, r, n * sizeof *r);
    gsl_linalg_cholesky_svx(M, v);
    *quad = 0;
    for (size_t i = 0; i < n; i++) *quad += r[i] * gsl_vector_get(v, i);
    gsl_matrix_free(M);
    gsl_vector_free(v);
}

/* P_A for the active columns (assumed of full rank): Xc (Xc'Xc)^{-1} Xc'. */
static void projection(const double *X, size_t n, const unsigned char *active, size_t d, double *P)
{
    size_t idx[D_IN], k = 0;
    for (size_t j = 0; j < d; j++)
        if (active[j]) idx[k++] = j;
    memset(P, 0, n * n * sizeof *P);
    if (k == 0) return;
    double *Xc = malloc(n * k * sizeof *Xc);
    for (size_t a = 0; a < k; a++) {
        double mean = 0;
        for (size_t i = 0; i < n; i++) mean += X[idx[a] * n + i] / (double)n;
        for (size_t i = 0; i < n; i++) Xc[a * n + i] = X[idx[a] * n + i] - mean;
    }
    gsl_matrix *G = gsl_matrix_alloc(k, k);
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++) {
            double s = 0;
            for (size_t i = 0; i < n; i++) s += Xc[a * n + i] * Xc[b * n + i];
            gsl_matrix_set(G, a, b, s);
        }
    gsl_linalg_cholesky_decomp1(G);
    gsl_linalg_cholesky_invert(G);
    for (size_t i = 0; i < n; i++)
        for (size_t l = 0; l < n; l++) {
            double s = 0;
            for (size_t a = 0; a < k; a++)
                for (size_t b = 0; b < k; b++) s += Xc[a * n + i] * gsl_matrix_get(G, a, b) * Xc[b * n + l];
            P[i * n + l] = s;
        }
    gsl_matrix_free(G);
    free(Xc);
}

/* One excluded column's term of the dense t density. */
static double dense_column(const bsl_mix_model *m, const double *P, size_t j, int regression)
{
    const size_t n = m->n;
    double *S = malloc(n * n * sizeof *S), r[N];
    const double k0 = m->ng_k0[j], b0 = m->ng_b0[j], g = m->excl_g;
    for (size_t i = 0; i < n; i++) {
        r[i] = m->X[j * n + i] - m->xi[j];
        for (size_t l = 0; l < n; l++) S[i * n + l] = (i == l) + 1 / k0 + (regression ? g * P[i * n + l] : 0);
    }
    double logdet, quad;
    dense_terms(S, r, n, &logdet, &quad);
    free(S);
    const double an = m->a + 0.5 * (double)n;
    return lgamma(an) - lgamma(m->a) - 0.5 * (double)n * log(2 * M_PI * b0) - 0.5 * logdet -
           an * log1p(quad / (2 * b0));
}

/* The sum over the excluded columns (or over those with skip[j] == 0). */
static double dense_total(const bsl_mix_model *m, const unsigned char *active, const unsigned char *skip,
                          int regression)
{
    double *P = malloc(m->n * m->n * sizeof *P), total = 0;
    projection(m->X, m->n, active, m->d, P);
    for (size_t j = 0; j < m->d; j++)
        if (!active[j] && !(skip && skip[j])) total += dense_column(m, P, j, regression);
    free(P);
    return total;
}

/* bsl_mix_excluded_swap_changes against E(A - j + j') - E(A) from two
 * evaluations per pair, and _flip_changes against E(A xor j) - E(A) (the
 * evidence itself is checked against the dense density). */
static void swap_check(const bsl_mix_model *m, const unsigned char *subset, const char *what)
{
    const size_t d = m->d;
    unsigned char active[D_IN];
    double work[5 * D_IN * D_IN + 3 * D_IN], dE[D_IN * D_IN];
    size_t iwork[3 * D_IN], act[D_IN], exc[D_IN], I = 0, ne = 0;
    memcpy(active, subset, d);
    for (size_t j = 0; j < d; j++) {
        if (active[j]) act[I++] = j;
        else exc[ne++] = j;
    }
    bsl_mix_excluded_swap_changes(m, active, work, iwork, dE);
    CHECK(memcmp(active, subset, d) == 0, "%s: the subset is restored", what);
    const double E0 = bsl_mix_excluded_log_evidence(m, active, work, iwork);
    for (size_t a = 0; a < I; a++)
        for (size_t e = 0; e < ne; e++) {
            active[act[a]] = 0, active[exc[e]] = 1;
            const double want = bsl_mix_excluded_log_evidence(m, active, work, iwork) - E0;
            active[act[a]] = 1, active[exc[e]] = 0;
            CHECK(fabs(dE[a * ne + e] - want) < 1e-8 * (1 + fabs(want)), "%s: %zu for %zu: %.12g, one by one %.12g",
                  what, act[a], exc[e], dE[a * ne + e], want);
        }
    bsl_mix_excluded_flip_changes(m, active, work, iwork, dE);
    CHECK(memcmp(active, subset, d) == 0, "%s: the subset is restored (flips)", what);
    for (size_t j = 0; j < d; j++) {
        active[j] = !active[j];
        const double want = bsl_mix_excluded_log_evidence(m, active, work, iwork) - E0;
        active[j] = !active[j];
        CHECK(fabs(dE[j] - want) < 1e-8 * (1 + fabs(want)), "%s: flip of %zu: %.12g, one by one %.12g", what, j,
              dE[j], want);
    }
}

static bsl_mix_model *make(const double *X, const int *cls, int excluded, double g)
{
    bsl_mix_options o;
    bsl_mix_options_default(&o);
    o.excluded = excluded;
    o.excluded_g = g;
    bsl_mix_model *m = NULL;
    CHECK(bsl_mix_model_create(&m, X, N, D_IN, cls, 2, &o) == BASEL_OK, "model created");
    return m;
}

int main(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    double X[N * D_IN];
    int cls[N];
    for (size_t i = 0; i < N; i++) {
        cls[i] = (int)(i % 2);
        const double u = gsl_ran_gaussian(rng, 1);
        for (size_t j = 0; j < D_IN; j++) /* correlated columns with different scales */
            X[j * N + i] = (double)(j + 1) * (0.6 * u + gsl_ran_gaussian(rng, 1)) + (double)j;
    }
    double work[D_IN * D_IN + D_IN];
    size_t kept[D_IN];
    static const unsigned char subsets[][D_IN] = {
        {1, 0, 0, 0, 0, 0}, {0, 1, 1, 0, 0, 0}, {1, 0, 1, 0, 1, 1}, {1, 1, 1, 1, 1, 0}, {0, 0, 0, 0, 0, 1}};
    for (int mode = 0; mode < 2; mode++) {
        const int ex = mode ? BSL_MIX_EXCLUDED_REGRESSION : BSL_MIX_EXCLUDED_GAUSSIAN;
        for (int gi = 0; gi < 2; gi++) {
            bsl_mix_model *m = make(X, cls, ex, gi ? 3.5 : 0);
            if (!m) continue;
            CHECK(gi || m->excl_g == (double)N, "g defaults to n");
            for (size_t s = 0; s < sizeof subsets / sizeof *subsets; s++) {
                const double got = bsl_mix_excluded_log_evidence(m, subsets[s], work, kept);
                const double want = dense_total(m, subsets[s], NULL, mode);
                CHECK_CLOSE(got, want, 1e-10, "excluded log evidence against the dense t density");
            }
            bsl_mix_model_free(m);
        }
    }
    /* every exchange's change at once against one evaluation per pair */
    for (int mode = 0; mode < 2; mode++) {
        bsl_mix_model *m = make(X, cls, mode ? BSL_MIX_EXCLUDED_REGRESSION : BSL_MIX_EXCLUDED_GAUSSIAN, 0);
        if (m) {
            for (size_t s = 0; s < sizeof subsets / sizeof *subsets; s++) swap_check(m, subsets[s], "swaps");
            static const unsigned char none[D_IN] = {0}, all[D_IN] = {1, 1, 1, 1, 1, 1};
            swap_check(m, none, "flips from the empty subset");
            swap_check(m, all, "flips from all inputs");
            bsl_mix_model_free(m);
        }
    }
    /* column 5 := column 1: with both active the span is that of column 1,
     * so the evidence is that of columns 0, 2, 3, 4 given column 1 alone */
    memcpy(X + 5 * N, X + 1 * N, N * sizeof *X);
    bsl_mix_model *m = make(X, cls, BSL_MIX_EXCLUDED_REGRESSION, 0);
    if (m) {
        const unsigned char one[D_IN] = {0, 1, 0, 0, 0, 0}, both[D_IN] = {0, 1, 0, 0, 0, 1};
        const unsigned char skip5[D_IN] = {0, 0, 0, 0, 0, 1};
        CHECK_CLOSE(bsl_mix_excluded_log_evidence(m, both, work, kept), dense_total(m, one, skip5, 1), 1e-10,
                    "a duplicated active column adds nothing (rank, not count)");
        /* the duplicate entering where column 1 stays (in the span: rank
         * drops with the leaving input), and both active (pair by pair) */
        const unsigned char with1[D_IN] = {1, 1, 0, 1, 0, 0};
        swap_check(m, with1, "swaps, an entering column in the span");
        swap_check(m, both, "swaps, active columns not of full rank");
        bsl_mix_model_free(m);
    }
    gsl_rng_free(rng);
    return check_report("test_mixture_excluded");
}
