/*
 * test_rbf_exact.c: the full-Bayes RBF sampler (rbf_moves.c) with centres
 * restricted to a finite candidate set and birth / death moves only,
 * against the exact posterior over all 2^m subsets computed here by brute
 * force, independently of the library's linear algebra.
 *
 * The target (rbf.h, rbf_moves.c): p(S) = p(k) / C(m, k) prod_o p(y_o | S)
 * with p(k) = int TruncPoisson_{kmax}(k; Lambda) Gamma(Lambda; a_l, b_l)
 * dLambda and p(y_o | S) = int IG(delta2; a_d, b_d) (1 + delta2)^{-|D|/2}
 * (b0 + (y'y - delta2/(1+delta2) y'H_S y)/2)^{-(a0 + n/2)} d delta2, both
 * one-dimensional integrals done by the trapezoid rule on a log grid, so
 * the sampler's Gibbs / MH updates of delta^2 and Lambda are tested too.
 *
 * R = 16 independent chains (seeds 101..116), each ITER iterations after
 * BURN (fast tier 50000 after 5000; full, BASEL_TIER=full, 500000 after
 * 20000), give R replicates of every PIP and every p(k). Bound
 * (tests/stat/mcse.h): their mean within t_15 standard errors (their
 * spread, floored at the binomial one) of the exact value, t at the
 * two-sided level 1e-3 / (14 + 15) (Bonferroni over the program's checks).
 * The trapezoid rules' error is far below that (1500 and 6000 nodes on
 * smooth integrands; doubling both grids moves no PIP by 1e-9).
 * argv[1], if given, overrides ITER.
 */
#include "check.h"
#include "stat/mcse.h"
#include "engine/rbf/rbf.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 40, M = 14, C = 2, Q = 2 /* intercept + linear term, d = 1 */ };
static const double WIDTH = 0.9, A0 = 0, B0 = 0, AD = 2, BD = 10, AL = 1, BL = 0.5;

static double gauss(double x, double mu) { return exp(-(x - mu) * (x - mu) / (2 * WIDTH * WIDTH)); }

/* y'H y for the columns of subset mask: dense normal equations, plain
 * Cholesky (not the library's) */
static double quad_form(const double *X, const double *y, const double *cand, unsigned mask,
                        size_t *ncols)
{
    double cols[N * (Q + M)];
    size_t p = 0;
    for (size_t i = 0; i < N; i++) cols[i] = 1, cols[N + i] = X[i];
    p = Q;
    for (size_t j = 0; j < M; j++)
        if (mask >> j & 1) {
            for (size_t i = 0; i < N; i++) cols[p * N + i] = gauss(X[i], cand[j]);
            p++;
        }
    double A[(Q + M) * (Q + M)], b[Q + M];
    for (size_t a = 0; a < p; a++) {
        b[a] = 0;
        for (size_t i = 0; i < N; i++) b[a] += cols[a * N + i] * y[i];
        for (size_t c = 0; c <= a; c++) {
            double s = 0;
            for (size_t i = 0; i < N; i++) s += cols[a * N + i] * cols[c * N + i];
            A[a * p + c] = s;
        }
    }
    for (size_t j = 0; j < p; j++) { /* in-place lower Cholesky */
        double s = A[j * p + j];
        for (size_t t = 0; t < j; t++) s -= A[j * p + t] * A[j * p + t];
        A[j * p + j] = sqrt(s);
        for (size_t i = j + 1; i < p; i++) {
            double r = A[i * p + j];
            for (size_t t = 0; t < j; t++) r -= A[i * p + t] * A[j * p + t];
            A[i * p + j] = r / A[j * p + j];
        }
    }
    double quad = 0;
    for (size_t i = 0; i < p; i++) { /* z = L^{-1} b */
        double r = b[i];
        for (size_t t = 0; t < i; t++) r -= A[i * p + t] * b[t];
        b[i] = r / A[i * p + i];
        quad += b[i] * b[i];
    }
    *ncols = p;
    return quad;
}

/* log int IG(delta2; AD, BD) (1+delta2)^{-p/2} (B0 + rss/2)^{-(A0+N/2)} d delta2 */
static double log_marg(double yy, double quad, size_t p)
{
    enum { G = 1500 };
    const double lo = log(1e-4), hi = log(1e7), h = (hi - lo) / (G - 1);
    double vals[G];
    for (int g = 0; g < G; g++) {
        const double u = lo + h * g, d2 = exp(u);
        const double log_ig = AD * log(BD) - lgamma(AD) - (AD + 1) * u - BD / d2;
        const double rss = yy - d2 / (1 + d2) * quad;
        vals[g] = log_ig + u /* d delta2 = delta2 du */ - 0.5 * (double)p * log1p(d2) -
                  (A0 + 0.5 * N) * log(B0 + 0.5 * rss) + (g == 0 || g == G - 1 ? log(0.5) : 0);
    }
    double mx = -INFINITY, s = 0;
    for (int g = 0; g < G; g++) mx = fmax(mx, vals[g]);
    for (int g = 0; g < G; g++) s += exp(vals[g] - mx);
    return mx + log(s * h);
}

/* p(k), k = 0..K, with Lambda ~ Gamma(AL, rate BL) and k | Lambda truncated Poisson */
static void k_prior(size_t K, double *pk)
{
    enum { G = 6000 };
    const double lo = log(1e-8), hi = log(1e4), h = (hi - lo) / (G - 1);
    for (size_t k = 0; k <= K; k++) pk[k] = 0;
    for (int g = 0; g < G; g++) {
        const double u = lo + h * g, lam = exp(u), w = (g == 0 || g == G - 1) ? 0.5 : 1.0;
        const double log_gam = AL * log(BL) - lgamma(AL) + (AL - 1) * u - BL * lam + u;
        double logs[M + 1];
        for (size_t k = 0; k <= K; k++) logs[k] = (double)k * u - lam - lgamma((double)k + 1);
        double mx = -INFINITY, z = 0;
        for (size_t k = 0; k <= K; k++) mx = fmax(mx, logs[k]);
        for (size_t k = 0; k <= K; k++) z += exp(logs[k] - mx);
        for (size_t k = 0; k <= K; k++) pk[k] += w * exp(log_gam + logs[k] - mx - log(z));
    }
    double s = 0;
    for (size_t k = 0; k <= K; k++) s += pk[k];
    for (size_t k = 0; k <= K; k++) pk[k] /= s;
}

static void exact(const double *X, const double *Y, const double *cand, double *pip, double *pk)
{
    double prior_k[M + 1], yy[C];
    k_prior(M, prior_k);
    for (size_t o = 0; o < C; o++) {
        yy[o] = 0;
        for (size_t i = 0; i < N; i++) yy[o] += Y[o * N + i] * Y[o * N + i];
    }
    static double logp[1u << M];
    double mx = -INFINITY;
    for (unsigned mask = 0; mask < 1u << M; mask++) {
        const unsigned k = (unsigned)__builtin_popcount(mask);
        double lp = log(prior_k[k]) - gsl_sf_lnchoose(M, k);
        for (size_t o = 0; o < C; o++) {
            size_t p;
            const double quad = quad_form(X, Y + o * N, cand, mask, &p);
            lp += log_marg(yy[o], quad, p);
        }
        logp[mask] = lp;
        mx = fmax(mx, lp);
    }
    double z = 0;
    memset(pip, 0, M * sizeof *pip);
    memset(pk, 0, (M + 1) * sizeof *pk);
    for (unsigned mask = 0; mask < 1u << M; mask++) z += exp(logp[mask] - mx);
    for (unsigned mask = 0; mask < 1u << M; mask++) {
        const double p = exp(logp[mask] - mx) / z;
        pk[__builtin_popcount(mask)] += p;
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) pip[j] += p;
    }
}

enum { R = 16 };

/* One chain from seed: its PIP and p(k) frequencies after burn. */
static int sample(const double *X, const double *Y, const double *cand, unsigned long seed, size_t burn,
                  size_t iter, double *pip, double *pk)
{
    bsl_rbf_options o;
    bsl_rbf_options_default(&o);
    o.temperature_mode = BSL_RBF_FULL;
    o.radial = BSL_BASIS_GAUSS;
    o.width = WIDTH;
    o.kmax = M;
    o.a0 = A0;
    o.b0 = B0;
    o.a_delta = AD;
    o.b_delta = BD;
    o.a_lambda = AL;
    o.b_lambda = BL;
    o.candidates = cand;
    o.ncand = M;
    memset(pip, 0, M * sizeof *pip);
    memset(pk, 0, (M + 1) * sizeof *pk);
    bsl_rbf_chain *ch = NULL;
    basel_error err;
    int rc = bsl_rbf_chain_create(&ch, X, N, 1, Y, C, &o, &err);
    CHECK(rc == 0, "chain create (seed %lu): %s", seed, err.message);
    if (rc) return rc;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    for (size_t t = 0; t < burn + iter; t++) {
        bsl_rbf_chain_step(ch, r, 1.0);
        if (t < burn) continue;
        const size_t k = bsl_rbf_chain_k(ch);
        const size_t *idx = bsl_rbf_chain_cand_index(ch);
        pk[k] += 1;
        for (size_t j = 0; j < k; j++) pip[idx[j]] += 1;
    }
    gsl_rng_free(r);
    bsl_rbf_chain_free(ch);
    for (size_t j = 0; j < M; j++) pip[j] /= (double)iter;
    for (size_t k = 0; k <= M; k++) pk[k] /= (double)iter;
    return 0;
}

int main(int argc, char **argv)
{
    const size_t iter = argc > 1 ? (size_t)atol(argv[1]) : STAT_TIER(50000, 500000);
    const size_t burn = STAT_TIER(5000, 20000);
    double X[N], Y[N * C], cand[M];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    for (size_t i = 0; i < N; i++) {
        X[i] = -5 + 10 * gsl_rng_uniform(r);
        Y[i] = sin(X[i]) + 0.4 * gsl_ran_gaussian(r, 1.0);
        Y[N + i] = 0.8 * exp(-X[i] * X[i] / 2) + 0.3 * X[i] + 0.4 * gsl_ran_gaussian(r, 1.0);
    }
    gsl_rng_free(r);
    for (size_t j = 0; j < M; j++) cand[j] = -5 + 10 * ((double)j + 0.5) / M;

    const clock_t t0 = clock();
    double pip_x[M], pk_x[M + 1];
    exact(X, Y, cand, pip_x, pk_x);
    printf("exact enumeration of %u subsets: %.1f s\n", 1u << M, (double)(clock() - t0) / CLOCKS_PER_SEC);
    mc_plan(1e-3, 2 * M + 1);
    static double pip[M][R], pk[M + 1][R];
    const clock_t t1 = clock();
    for (size_t c = 0; c < R; c++) {
        double p1[M], k1[M + 1];
        if (sample(X, Y, cand, 101 + c, burn, iter, p1, k1)) return check_report("test_rbf_exact");
        for (size_t j = 0; j < M; j++) pip[j][c] = p1[j];
        for (size_t k = 0; k <= M; k++) pk[k][c] = k1[k];
    }
    printf("%s tier: %d chains x %zu iterations after %zu (%.1f s); t = %.2f\n  candidate   exact    mean\n",
           stat_tier_name(), R, iter, burn, (double)(clock() - t1) / CLOCKS_PER_SEC, mc_quantile(R));
    const double n_total = (double)R * (double)iter;
    for (size_t j = 0; j < M; j++) {
        double mean, se;
        mc_mean_se(pip[j], R, pip_x[j], n_total, &mean, &se);
        printf("  %9.3f  %.4f  %.4f\n", cand[j], pip_x[j], mean);
        CHECK_MC(pip[j], R, pip_x[j], 0, n_total, "PIP of candidate %zu (seeds 101..%d)", j, 100 + R);
    }
    printf("  k:");
    for (size_t k = 0; k <= M; k++) {
        double mean, se;
        mc_mean_se(pk[k], R, pk_x[k], n_total, &mean, &se);
        if (pk_x[k] > 1e-3 || mean > 1e-3) printf(" %zu:%.4f/%.4f", k, pk_x[k], mean);
        CHECK_MC(pk[k], R, pk_x[k], 0, n_total, "p(k = %zu) (seeds 101..%d)", k, 100 + R);
    }
    printf("\n");
    mc_report();
    return check_report("test_rbf_exact");
}
