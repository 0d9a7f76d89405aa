/*
 * test_rj_pairs.c: the masking pair that rj's pair moves exist for
 * (rj_pairs.c), at p = 2000 with informed moves.
 *
 * Design (fixed seed): n = 400 rows, p = 2000 independent N(0, 1) inputs,
 * except x_100 and x_104, correlated 0.98; y = 1.5 (x_100 - x_104) +
 * 0.5 x_1001 + N(0, 1). The two effects cancel in each one's marginal
 * signal (correlation with y about 0.03), but together explain a third of
 * y's variance. g-prior (g = n), beta-binomial(1, 1), kmax 20.
 *
 * The exact answer. The test computes, with the model's own scores,
 *     L = S({x_1001, x_100, x_104}) - S({x_1001}),
 * the log posterior odds of the pair against the same set without it, and
 * checks L > 20: then P(x_100 and x_104 both in | y) >= 1 - 2e-9 (every
 * set without the pair has a twin with it that is e^L times as probable,
 * up to the other atoms' small changes), so both PIPs converge to 1. It
 * also checks that adding one of the two alone costs at least 5 in log
 * odds (S({x_1001, x_100}) - S({x_1001}) < -5): the valley a single-atom
 * chain would have to cross.
 *
 * Checks: the screen keeps the pair (x_100, x_104) first (the engine
 * note), and each of R one-chain informed runs with the default pair moves
 * gives both PIPs >= 0.99. The same runs with --rj-pairs none are printed,
 * not checked: they show the valley (PIPs near 0 when the chain never
 * crosses it), which is the sampler's limit the pair moves remove, not a
 * property of the posterior.
 */
#include "check.h"
#include "core/params.h"
#include "engine/subset/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 400, P = 2000, A = 99, B = 103, C = 1000, R = 4 };

static void make_data(double *X, double *y)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2027);
    for (size_t j = 0; j < P; j++)
        for (size_t i = 0; i < N; i++) X[j * N + i] = gsl_ran_gaussian(r, 1);
    const double rho = 0.98;
    for (size_t i = 0; i < N; i++) X[B * N + i] = rho * X[A * N + i] + sqrt(1 - rho * rho) * X[B * N + i];
    for (size_t i = 0; i < N; i++)
        y[i] = 3.0 * (X[A * N + i] - X[B * N + i]) + 0.5 * X[C * N + i] + gsl_ran_gaussian(r, 1);
    gsl_rng_free(r);
}

/* S(set) = log_ml + log model prior, by the model the chains use */
static double score_of(const bsl_vs_problem *pb, const size_t *atoms, size_t k)
{
    basel_error err;
    bsl_cmodel *M = NULL;
    bsl_coef_prior prior = pb->prior;
    if (bsl_vs_model_create(&M, pb, &prior, pb->kmax, &err)) {
        CHECK(0, "model: %s", err.message);
        return NAN;
    }
    for (size_t a = 0; a < k; a++) CHECK(bsl_cmodel_add(M, atoms[a]) == BASEL_OK, "add atom %zu", atoms[a]);
    const double s = bsl_cmodel_log_ml(M) + bsl_mprior_log(&pb->mprior, bsl_cmodel_k(M));
    bsl_cmodel_free(M);
    return s;
}

int main(void)
{
    double *X = malloc(sizeof(double) * N * P), *y = malloc(sizeof(double) * N);
    if (!X || !y) return 1;
    make_data(X, y);
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_vs_problem pb = {0};
    if (bsl_dict_create(&dict, "linear", X, N, P, &err) ||
        bsl_design_create(&D, dict, X, N, y, 1, (size_t)1 << 30, &err) ||
        bsl_coef_prior_parse(&pb.prior, "g", N, 1, &err) ||
        bsl_mprior_parse(&pb.mprior, "beta-binomial:a=1,b=1", P, &err)) {
        CHECK(0, "setup: %s", err.message);
        return check_report("test_rj_pairs");
    }
    pb.D = D;
    pb.kmax = 20;
    pb.mprior.kmax = 20;
    const size_t base[] = {C}, one[] = {C, A}, both[] = {C, A, B};
    const double s0 = score_of(&pb, base, 1), s1 = score_of(&pb, one, 2), s2 = score_of(&pb, both, 3);
    printf("rj pair moves, a masking pair at p = %d: log odds of the pair %.2f, of x_%d alone %.2f\n", P, s2 - s0,
           A + 1, s1 - s0);
    CHECK(s2 - s0 > 20, "the pair's log posterior odds %.2f > 20: both PIPs converge to 1", s2 - s0);
    CHECK(s1 - s0 < -5, "one atom of the pair alone costs %.2f < -5 in log odds", s1 - s0);
    for (int with = 1; with >= 0; with--) {
        bsl_params params = {0};
        bsl_params_set(&params, "proposal", "informed");
        if (!with) bsl_params_set(&params, "rj-pairs", "none");
        for (size_t r = 0; r < R; r++) {
            bsl_run run = {.iter = 2000, .burn = 400, .thin = 1, .chains = 1, .seed = 1 + r, .params = &params};
            bsl_vs_result res;
            const int rc = bsl_rj_run(&pb, &run, &res, &err);
            CHECK(rc == BASEL_OK, "rj seed %zu: %s", 1 + r, err.message);
            if (rc) continue;
            printf("  %-13s seed %zu: PIP x_%d %.4f, x_%d %.4f, x_%d %.4f\n", with ? "pairs (auto)" : "--rj-pairs none",
                   1 + r, A + 1, res.pip[A], B + 1, res.pip[B], C + 1, res.pip[C]);
            if (with) {
                CHECK(strstr(res.engine_note, "pairs (first 100-104)") != NULL, "the screen's first pair: '%s'",
                      res.engine_note);
                CHECK(res.pip[A] >= 0.99 && res.pip[B] >= 0.99, "seed %zu: PIPs of the pair %.4f, %.4f >= 0.99",
                      1 + r, res.pip[A], res.pip[B]);
                CHECK(res.pip[C] >= 0.99, "seed %zu: PIP of x_%d %.4f >= 0.99", 1 + r, C + 1, res.pip[C]);
            }
            bsl_vs_result_free(&res);
        }
    }
    bsl_design_free(D);
    bsl_dict_free(dict);
    free(X);
    free(y);
    return check_report("test_rj_pairs");
}
