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
 * (delta2 = 10, a = b = 0); model priors uniform and poisson:mean=3.
 * Each combination runs 5 seeds; every PIP (Rao-Blackwellised, the
 * engine's default) must be within 0.01 of the exact one, and the raw
 * frequencies (run with rj-rb-every=0) are checked on one seed per case.
 * Iterations: 4 chains x RJ_ITER = 400000 moves after 2000 burn-in (stated in
 * the output with the worst error seen).
 */
#include "check.h"
#include "stat/designs.h"
#include "core/params.h"
#include "engine/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef RJ_ITER
#define RJ_ITER 400000
#endif
#define RJ_BURN 2000
#define RJ_CHAINS 4
#define TOL 0.01

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

static double worst_all = 0;

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
    bsl_params params = {0};
    bsl_run run = {.iter = RJ_ITER, .burn = RJ_BURN, .thin = 1, .chains = RJ_CHAINS, .top = 10,
                   .params = &params};
    double worst = 0, worst_freq = 0;
    for (unsigned long seed = 1; seed <= 5 && rc == BASEL_OK; seed++) {
        bsl_vs_result res;
        run.seed = seed;
        char every[16];
        snprintf(every, sizeof every, "%zu", seed == 1 ? (size_t)0 : p->d);
        bsl_params_set(&params, "rj-rb-every", every);
        rc = bsl_rj_run(&s.pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "rj %s %s %s seed %lu: %s", p->name, prior, mprior, seed, err.message);
        if (rc) break;
        double e = 0, es = 0;
        for (size_t j = 0; j < p->d; j++) e = fmax(e, fabs(res.pip[j] - ex.pip[j]));
        for (size_t k = 0; k <= s.pb.kmax; k++) es = fmax(es, fabs(res.size_prob[k] - ex.size_prob[k]));
        CHECK(e < TOL, "rj %s %s %s seed %lu (%s pips): max |pip - exact| = %.4f", p->name, prior,
              mprior, seed, seed == 1 ? "frequency" : "rao-blackwell", e);
        CHECK(es < TOL, "rj %s %s %s seed %lu: max |size prob - exact| = %.4f", p->name, prior,
              mprior, seed, es);
        if (seed == 1) worst_freq = fmax(worst_freq, e);
        else worst = fmax(worst, e);
        bsl_vs_result_free(&res);
    }
    printf("  %-13s %-22s %-16s max err rb %.4f  freq %.4f\n", p->name, prior, mprior, worst,
           worst_freq);
    worst_all = fmax(worst_all, fmax(worst, worst_freq));
    bsl_vs_result_free(&ex);
    unmake(&s);
}

/* Ridge with sampled sigma2 and lambda has no enumeration: check the run
 * is sane (finite PIPs in [0, 1], draws with both scalars). */
static void ridge_sampled(const prob *p)
{
    setup s;
    if (make(&s, p, "ridge", "uniform")) return;
    basel_error err;
    bsl_params params = {0};
    bsl_run run = {.iter = 20000, .burn = 1000, .thin = 100, .chains = 2, .seed = 7,
                   .keep_draws = 1, .params = &params};
    bsl_vs_result res;
    int rc = bsl_rj_run(&s.pb, &run, &res, &err);
    CHECK(rc == BASEL_OK, "rj ridge sampled: %s", err.message);
    if (!rc) {
        int ok = 1;
        for (size_t j = 0; j < p->d; j++) ok &= res.pip[j] >= 0 && res.pip[j] <= 1;
        CHECK(ok, "ridge sampled: pips in [0, 1]");
        CHECK(res.ndraws == 2 * 200 && res.nscalars == 2, "ridge sampled: %zu draws, %zu scalars",
              res.ndraws, res.nscalars);
        CHECK(res.draw_scalars && res.draw_scalars[0] > 0 && res.draw_scalars[1] > 0,
              "ridge sampled: positive sigma2, lambda");
        bsl_vs_result_free(&res);
    }
    unmake(&s);
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
    printf("rj vs enumeration: %d chains x %d moves (+%d burn), 5 seeds\n", RJ_CHAINS, RJ_ITER,
           RJ_BURN);
    for (size_t i = 0; i < np; i++)
        for (size_t a = 0; a < 3; a++)
            for (size_t b = 0; b < 2; b++) one_case(&probs[i], priors[a], mpriors[b]);
    printf("worst max |pip - exact| over all cases and seeds: %.4f\n", worst_all);
    ridge_sampled(&probs[0]);
    for (size_t i = 0; i < np; i++) {
        free(probs[i].X);
        free(probs[i].Y);
    }
    gsl_rng_free(r);
    return check_report("test_rj_exact");
}
