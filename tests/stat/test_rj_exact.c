/*
 * test_rj_exact.c: the reversible-jump engine (rj.c) against exact
 * enumeration (bsl_enumerate, itself tested against BAS and a dense
 * recomputation) on lin_p15_n200 and three correlated synthetic designs:
 *   ar1     AR(1) inputs, rho = 0.9, m = 14;
 *   dup     a block of four near-duplicates of one strong signal, m = 12;
 *   hidden  y = x1 - x2 with x1, x2 strongly positively correlated, so
 *           the true inputs are marginally weak and a noisy proxy x3 of
 *           x1 + x2 ... is not: the true model is not the marginally
 *           strongest (x3 = x1 + noise has the largest |corr(x, y)| among
 *           the nulls), m = 12.
 * Priors: g (g = n), ridge with fixed sigma2 = 1, lambda = 1, hier
 * (delta2 = 10, a = b = 0); model priors uniform and poisson:mean=3. And
 * ridge with sigma2 and lambda SAMPLED (Gibbs updates every m moves)
 * against the quadrature of tests/stat/ridge_exact.h (the problem of
 * test_bd_ridge_gibbs.c).
 *
 * Each case runs R = 16 independent one-chain runs with the
 * Rao-Blackwellised PIPs (the engine's default; seeds 1..R), checking every
 * PIP and every size probability, and R more with raw frequencies
 * (rj-rb-every=0; seeds 101..100+R), checking every PIP. Bound
 * (tests/stat/mcse.h): the mean over the R runs within t_{R-1} standard
 * errors (their spread, floored at the binomial one) of the exact value, t
 * at the two-sided level 1e-3 / K, K all such checks in the program
 * (Bonferroni: a correct engine fails the program with probability below
 * 1e-3). Iterations: RJ_ITER moves per run after 2000 burn-in, 20000 in
 * the fast tier and 250000 in the full one (BASEL_TIER=full).
 */
#include "check.h"
#include "stat/designs.h"
#include "stat/mcse.h"
#include "stat/ridge_exact.h"
#include "core/params.h"
#include "engine/subset/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R = 16, RJ_BURN = 2000, MAXM = 16 };

typedef struct setup {
    bsl_dict *dict;
    bsl_design *D;
    bsl_vs_problem pb;
} setup;

static int make(setup *s, const prob *p, const char *prior, const char *mprior)
{
    basel_error err;
    memset(s, 0, sizeof *s);
    if (bsl_dict_create(&s->dict, "linear", p->X, p->n, p->d, &err) ||
        bsl_design_create(&s->D, s->dict, p->X, p->n, p->Y, 1, (size_t)1 << 30, &err) ||
        bsl_coef_prior_parse(&s->pb.prior, prior, p->n, 1, &err) ||
        bsl_mprior_parse(&s->pb.mprior, mprior, p->d, &err)) {
        fprintf(stderr, "setup %s %s %s: %s\n", p->name, prior, mprior, err.message);
        return -1;
    }
    s->pb.D = s->D;
    s->pb.kmax = s->pb.mprior.kmax;
    return 0;
}

static void unmake(setup *s)
{
    bsl_design_free(s->D);
    bsl_dict_free(s->dict);
}

static size_t rj_iter;

/* The number of checks one_case makes: PIPs twice, size probabilities once. */
static size_t case_checks(const prob *p, const char *prior, const char *mprior)
{
    setup s;
    if (make(&s, p, prior, mprior)) return 0;
    const size_t k = 2 * p->d + s.pb.kmax + 1;
    unmake(&s);
    return k;
}

/* R one-chain runs of rj on pb; est_pip[j][r], est_size[k][r] (if not NULL).
 * rb_every: "0" for raw frequencies, else the Rao-Blackwell period. */
static int replicate(const bsl_vs_problem *pb, size_t iter, unsigned long seed0, const char *rb_every,
                     double est_pip[][R], double est_size[][R], const char *label)
{
    basel_error err;
    bsl_params params = {0};
    if (rb_every) bsl_params_set(&params, "rj-rb-every", rb_every);
    for (size_t r = 0; r < R; r++) {
        bsl_run run = {.iter = iter, .burn = RJ_BURN, .thin = 1, .chains = 1, .seed = seed0 + r,
                       .params = &params};
        bsl_vs_result res;
        int rc = bsl_rj_run(pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "rj %s seed %lu: %s", label, seed0 + r, err.message);
        if (rc) return rc;
        for (size_t j = 0; j < pb->D->m; j++) est_pip[j][r] = res.pip[j];
        if (est_size)
            for (size_t k = 0; k <= pb->kmax; k++) est_size[k][r] = res.size_prob[k];
        bsl_vs_result_free(&res);
    }
    return BASEL_OK;
}

static void one_case(const prob *p, const char *prior, const char *mprior)
{
    setup s;
    if (make(&s, p, prior, mprior)) {
        CHECK(0, "setup %s", p->name);
        return;
    }
    basel_error err;
    bsl_vs_result ex;
    int rc = bsl_enumerate(&s.pb, NULL, &ex, &err);
    CHECK(rc == BASEL_OK, "enumerate %s %s %s: %s", p->name, prior, mprior, err.message);
    char label[96], every[16];
    snprintf(label, sizeof label, "%s %s %s", p->name, prior, mprior);
    snprintf(every, sizeof every, "%zu", p->d);
    double rb[MAXM][R], freq[MAXM][R], size[MAXM + 1][R];
    const double n_total = (double)R * (double)rj_iter;
    if (!rc && p->d <= MAXM && !replicate(&s.pb, rj_iter, 1, every, rb, size, label) &&
        !replicate(&s.pb, rj_iter, 101, "0", freq, NULL, label)) {
        double w_rb = 0, w_f = 0, w_k = 0, widest = 0;
        for (size_t j = 0; j < p->d; j++) {
            CHECK_MC(rb[j], R, ex.pip[j], 0, n_total, "%s: rao-blackwell PIP %zu (seeds 1..%d)", label, j, R);
            w_rb = fmax(w_rb, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
            CHECK_MC(freq[j], R, ex.pip[j], 0, n_total, "%s: frequency PIP %zu (seeds 101..%d)", label, j, 100 + R);
            w_f = fmax(w_f, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        for (size_t k = 0; k <= s.pb.kmax; k++) {
            CHECK_MC(size[k], R, ex.size_prob[k], 0, n_total, "%s: P(k = %zu) (seeds 1..%d)", label, k, R);
            w_k = fmax(w_k, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        printf("  %-13s %-22s %-16s max |mean - exact| rb %.4f freq %.4f P(k) %.4f; widest bound %.4f\n",
               p->name, prior, mprior, w_rb, w_f, w_k, widest);
    }
    if (!rc) bsl_vs_result_free(&ex);
    unmake(&s);
}

/* Ridge with sigma2 and lambda sampled (Gibbs updates every m moves)
 * against quadrature over both (ridge_exact.h); also: draws carry both
 * scalars, positive. */
static void ridge_sampled(void)
{
    ridge_problem rp;
    if (ridge_problem_make(&rp)) {
        CHECK(0, "ridge problem");
        return;
    }
    enum { M = RIDGE_M };
    double pip[M], size[M + 1], qerr, rb[M][R], freq[M][R], est_size[M + 1][R];
    ridge_exact(&rp.pb, pip, size, &qerr);
    char every[16];
    snprintf(every, sizeof every, "%d", M);
    const double n_total = (double)R * (double)rj_iter;
    if (!replicate(&rp.pb, rj_iter, 1, every, rb, est_size, "ridge sampled") &&
        !replicate(&rp.pb, rj_iter, 101, "0", freq, NULL, "ridge sampled")) {
        double w = 0;
        for (size_t j = 0; j < M; j++) {
            CHECK_MC(rb[j], R, pip[j], qerr, n_total, "ridge sampled: rao-blackwell PIP %zu (seeds 1..%d)", j, R);
            w = fmax(w, mc_family.last_error);
            CHECK_MC(freq[j], R, pip[j], qerr, n_total, "ridge sampled: frequency PIP %zu (seeds 101..%d)", j,
                     100 + R);
            w = fmax(w, mc_family.last_error);
        }
        for (size_t k = 0; k <= M; k++) {
            CHECK_MC(est_size[k], R, size[k], qerr, n_total, "ridge sampled: P(k = %zu) (seeds 1..%d)", k, R);
            w = fmax(w, mc_family.last_error);
        }
        printf("  ridge, sigma2 and lambda sampled (m = 8, quadrature error <= %.1e): max |mean - exact| %.4f\n",
               qerr, w);
    }
    basel_error err;
    bsl_params params = {0};
    bsl_run run = {.iter = 20000, .burn = 1000, .thin = 100, .chains = 2, .seed = 7,
                   .keep_draws = 1, .params = &params};
    bsl_vs_result res;
    int rc = bsl_rj_run(&rp.pb, &run, &res, &err);
    CHECK(rc == BASEL_OK, "rj ridge sampled: %s", err.message);
    if (!rc) {
        CHECK(res.ndraws == 2 * 200 && res.nscalars == 2, "ridge sampled: %zu draws, %zu scalars",
              res.ndraws, res.nscalars);
        int pos = res.draw_scalars != NULL;
        for (size_t i = 0; pos && i < 2 * res.ndraws; i++) pos = res.draw_scalars[i] > 0;
        CHECK(pos, "ridge sampled: positive sigma2, lambda in every draw");
        bsl_vs_result_free(&res);
    }
    ridge_problem_free(&rp);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20240611);
    prob probs[4];
    size_t np = 0;
    if (read_lin15(&probs[np]) == 0) np++;
    else CHECK(0, "could not read lin_p15_n200.csv");
    synth(&probs[np++], "ar1", r);
    synth(&probs[np++], "dup", r);
    synth(&probs[np++], "hidden", r);
    const char *priors[] = {"g", "ridge:lambda=1,sigma2=1", "hier:delta2=10"};
    const char *mpriors[] = {"uniform", "poisson:mean=3"};
    rj_iter = STAT_TIER(20000, 250000);
    size_t K = 2 * RIDGE_M + RIDGE_M + 1;
    for (size_t i = 0; i < np; i++)
        for (size_t a = 0; a < 3; a++)
            for (size_t b = 0; b < 2; b++) K += case_checks(&probs[i], priors[a], mpriors[b]);
    mc_plan(1e-3, K);
    printf("rj vs enumeration (%s tier): %d one-chain runs x %zu moves (+%d burn) per estimator; t = %.2f\n",
           stat_tier_name(), R, rj_iter, RJ_BURN, mc_quantile(R));
    for (size_t i = 0; i < np; i++)
        for (size_t a = 0; a < 3; a++)
            for (size_t b = 0; b < 2; b++) one_case(&probs[i], priors[a], mpriors[b]);
    ridge_sampled();
    mc_report();
    for (size_t i = 0; i < np; i++) {
        free(probs[i].X);
        free(probs[i].Y);
    }
    gsl_rng_free(r);
    return check_report("test_rj_exact");
}
