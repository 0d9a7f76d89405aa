/*
 * test_groups.c: atoms that are groups of columns (categorical inputs,
 * src/model/group.c) against a brute force over the groups.
 *
 * Design: n = 60 rows, two numeric inputs x1, x2, a 3-level factor A (2
 * indicator columns) and a 4-level factor B (3 columns): 7 columns in 4
 * groups, drawn from a fixed seed; y = 1 + 0.5 x1 + 0.9 [A = 2] + 1.0 [B = 3]
 * + N(0, 1) noise, so that the PIPs are neither 0 nor 1.
 *
 * Exact answer: for each of the 2^4 sets of groups, the g-prior (g = n)
 * log marginal likelihood computed here from scratch, BAS's form
 *   ((N - k)/2) log(1 + g) - (N/2) log(1 + g (1 - R^2)),  N = n - 1,
 * with k the set's number of COLUMNS and R^2 from a least-squares fit with
 * intercept, plus the beta-binomial(1, 1) model prior over GROUPS,
 * log p(k_g) = -log(m + 1) - log C(m, k_g), m = 4. From these the exact
 * group PIPs and size probabilities.
 *
 * Checks: enumeration over the group view equals the brute force within
 * 1e-9 (both are exact; rounding only), also under --prior bic (the flat
 * prior's score -(n/2) log RSS - (log(n)/2) k, k the COLUMNS); bd and rj (R = 16 runs of 2
 * chains each, seeds 1..R) converge to it within the Monte Carlo bound of
 * tests/stat/mcse.h (Bonferroni over every PIP and P(k) of both engines).
 */
#include "check.h"
#include "stat/mcse.h"
#include "engine/subset/subset.h"

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 60, P = 7, NG = 4, R = 16, CHAINS = 2 };
static const size_t gstart[NG + 1] = {0, 1, 2, 4, 7};

/* R^2 of y on the columns in cols (with intercept), by centred normal
 * equations and a Cholesky solve. */
static double r_squared(const double *X, const double *y, const size_t *cols, size_t k)
{
    double yc[N], ym = 0, yy = 0;
    for (size_t i = 0; i < N; i++) ym += y[i] / N;
    for (size_t i = 0; i < N; i++) yc[i] = y[i] - ym, yy += yc[i] * yc[i];
    if (!k) return 0;
    gsl_matrix *A = gsl_matrix_alloc(k, k);
    gsl_vector *b = gsl_vector_alloc(k), *beta = gsl_vector_alloc(k);
    double Xc[P][N];
    for (size_t a = 0; a < k; a++) {
        double mu = 0;
        for (size_t i = 0; i < N; i++) mu += X[cols[a] * N + i] / N;
        for (size_t i = 0; i < N; i++) Xc[a][i] = X[cols[a] * N + i] - mu;
    }
    for (size_t a = 0; a < k; a++) {
        double s = 0;
        for (size_t i = 0; i < N; i++) s += Xc[a][i] * yc[i];
        gsl_vector_set(b, a, s);
        for (size_t c = 0; c < k; c++) {
            double t = 0;
            for (size_t i = 0; i < N; i++) t += Xc[a][i] * Xc[c][i];
            gsl_matrix_set(A, a, c, t);
        }
    }
    gsl_linalg_cholesky_decomp1(A);
    gsl_linalg_cholesky_solve(A, b, beta);
    double fit = 0;
    for (size_t a = 0; a < k; a++) fit += gsl_vector_get(beta, a) * gsl_vector_get(b, a);
    gsl_matrix_free(A);
    gsl_vector_free(b);
    gsl_vector_free(beta);
    return fit / yy;
}

/* bic: 0 for the g-prior; 1 for BIC, the flat prior's score
 * -(n/2) log RSS - (log(n)/2) k with k the set's COLUMNS (paper 002 eq. 3;
 * model.h), RSS = y'Py (1 - R^2). */
static void brute_force(const double *X, const double *y, double *pip, double *size, int bic)
{
    const double g = N, Nn = N - 1;
    double lp[1 << NG], mx = -INFINITY, z = 0;
    for (unsigned s = 0; s < (1u << NG); s++) {
        size_t cols[P], k = 0, kg = 0;
        for (size_t gi = 0; gi < NG; gi++)
            if (s >> gi & 1) {
                kg++;
                for (size_t j = gstart[gi]; j < gstart[gi + 1]; j++) cols[k++] = j;
            }
        const double r2 = r_squared(X, y, cols, k);
        const double lml = bic ? -0.5 * N * log(1 - r2) - 0.5 * log((double)N) * (double)k
                               : (Nn - (double)k) / 2 * log(1 + g) - Nn / 2 * log(1 + g * (1 - r2));
        lp[s] = lml - log(NG + 1.0) - gsl_sf_lnchoose(NG, (unsigned)kg);
        mx = fmax(mx, lp[s]);
    }
    memset(pip, 0, NG * sizeof *pip);
    memset(size, 0, (NG + 1) * sizeof *size);
    for (unsigned s = 0; s < (1u << NG); s++) z += exp(lp[s] - mx);
    for (unsigned s = 0; s < (1u << NG); s++) {
        const double w = exp(lp[s] - mx) / z;
        size[__builtin_popcount(s)] += w;
        for (size_t gi = 0; gi < NG; gi++)
            if (s >> gi & 1) pip[gi] += w;
    }
}

typedef int (*runner)(const bsl_vs_problem *, const bsl_run *, bsl_vs_result *, basel_error *);

static void run_engine(const char *name, runner fn, const bsl_vs_problem *pb, size_t iter, const double *pip,
                       const double *size)
{
    double est[NG][R], sz[NG + 1][R];
    basel_error err;
    bsl_params prm = {0};
    for (size_t r = 0; r < R; r++) {
        bsl_run run = {.iter = iter, .burn = iter / 5, .thin = 1, .chains = CHAINS, .seed = r + 1, .params = &prm};
        bsl_vs_result res;
        int rc = fn(pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "%s seed %zu: %s", name, r + 1, err.message);
        if (rc) return;
        for (size_t gi = 0; gi < NG; gi++) est[gi][r] = res.pip[gi];
        for (size_t k = 0; k <= NG; k++) sz[k][r] = res.size_prob[k];
        bsl_vs_result_free(&res);
    }
    const double n_total = (double)(R * CHAINS * iter);
    double worst = 0;
    for (size_t gi = 0; gi < NG; gi++) {
        CHECK_MC(est[gi], R, pip[gi], 0, n_total, "%s: group PIP %zu", name, gi);
        worst = fmax(worst, mc_family.last_error);
    }
    for (size_t k = 0; k <= NG; k++) {
        CHECK_MC(sz[k], R, size[k], 0, n_total, "%s: P(k = %zu groups)", name, k);
        worst = fmax(worst, mc_family.last_error);
    }
    printf("  %-4s max |mean - exact| %.4f\n", name, worst);
}

int main(void)
{
    double X[P * N], y[N];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 19);
    memset(X, 0, sizeof X);
    for (size_t i = 0; i < N; i++) {
        X[0 * N + i] = gsl_ran_gaussian(r, 1);
        X[1 * N + i] = gsl_ran_gaussian(r, 1);
        const size_t a = i % 3, b = (i / 3) % 4; /* every level present */
        if (a) X[(2 + a - 1) * N + i] = 1;
        if (b) X[(4 + b - 1) * N + i] = 1;
        y[i] = 1 + 0.5 * X[i] + 0.9 * (a == 1) + 1.0 * (b == 2) + gsl_ran_gaussian(r, 1);
    }
    gsl_rng_free(r);
    double pip[NG], size[NG + 1];
    brute_force(X, y, pip, size, 0);
    printf("exact group PIPs: %.4f %.4f %.4f %.4f\n", pip[0], pip[1], pip[2], pip[3]);

    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL, *V = NULL;
    bsl_vs_problem pb = {0};
    int rc = bsl_dict_create(&dict, "linear", X, N, P, &err);
    if (!rc) rc = bsl_design_create(&D, dict, X, N, y, 1, (size_t)1 << 30, &err);
    if (!rc) rc = bsl_design_group_view(&V, D, gstart, NG, &err);
    if (!rc) rc = bsl_coef_prior_parse(&pb.prior, "g", N, 1, &err);
    if (!rc) rc = bsl_mprior_parse(&pb.mprior, "beta-binomial:a=1,b=1", NG, &err);
    CHECK(rc == BASEL_OK, "setup: %s", err.message);
    if (rc) return check_report("test_groups");
    CHECK(fabs(pb.prior.g - N) < 1e-12, "the default g is n (got %g)", pb.prior.g);
    pb.D = V;
    pb.model = &bsl_model_grouped;
    pb.kmax = pb.mprior.kmax = NG;

    bsl_vs_result ex;
    rc = bsl_enumerate(&pb, NULL, &ex, &err);
    CHECK(rc == BASEL_OK, "enumerate: %s", err.message);
    if (!rc) {
        for (size_t gi = 0; gi < NG; gi++)
            CHECK(fabs(ex.pip[gi] - pip[gi]) < 1e-9, "enumerate group PIP %zu: %.15f, brute force %.15f", gi,
                  ex.pip[gi], pip[gi]);
        for (size_t k = 0; k <= NG; k++)
            CHECK(fabs(ex.size_prob[k] - size[k]) < 1e-9, "enumerate P(k = %zu): %.15f, brute force %.15f", k,
                  ex.size_prob[k], size[k]);
        bsl_vs_result_free(&ex);
    }
    /* BIC: the penalty counts a factor's columns, the model prior its one atom */
    {
        double pb_pip[NG], pb_size[NG + 1];
        brute_force(X, y, pb_pip, pb_size, 1);
        bsl_vs_problem pbic = pb;
        rc = bsl_coef_prior_parse(&pbic.prior, "bic", N, 1, &err);
        if (!rc) rc = bsl_enumerate(&pbic, NULL, &ex, &err);
        CHECK(rc == BASEL_OK, "enumerate bic: %s", err.message);
        for (size_t gi = 0; gi < NG && !rc; gi++)
            CHECK(fabs(ex.pip[gi] - pb_pip[gi]) < 1e-9, "enumerate bic group PIP %zu: %.15f, brute force %.15f", gi,
                  ex.pip[gi], pb_pip[gi]);
        if (!rc) bsl_vs_result_free(&ex);
        printf("exact group PIPs under bic: %.4f %.4f %.4f %.4f\n", pb_pip[0], pb_pip[1], pb_pip[2], pb_pip[3]);
    }
    const size_t iter = STAT_TIER(4000, 40000);
    mc_plan(1e-3, 2 * (NG + NG + 1));
    printf("bd and rj over groups vs brute force (%s tier): %d runs x %d chains x %zu iterations; t = %.2f\n",
           stat_tier_name(), R, CHAINS, iter, mc_quantile(R));
    run_engine("bd", bsl_bd_run, &pb, iter, pip, size);
    run_engine("rj", bsl_rj_run, &pb, iter * 5, pip, size);
    mc_report();
    bsl_design_free(V);
    bsl_design_free(D);
    bsl_dict_free(dict);
    return check_report("test_groups");
}
