/*
 * test_ssvs_exact.c: the spike-and-slab engine (ssvs.c) against the exact
 * spike-and-slab posterior (bsl_ssvs_enumerate: closed form when the slab
 * and spike variances scale with sigma^2, 1-D quadrature over sigma^2 for
 * paper 001 as written), for both variants (collapsed, and the Gibbs
 * sampler as written: eqs. 8, 12, 14), on lin_p15_n200 and the three
 * correlated synthetic designs of test_rj_exact.c (ar1, dup, hidden), under
 * the default prior (tau = 1, c = 100, uniform model prior = Bernoulli(1/2))
 * and under tau = 0.5, c = 400, p = 0.2. Five seeds each; every
 * Rao-Blackwellised PIP and every raw frequency must be within 0.01 of the
 * exact one. Iterations: 4 chains x 20000 sweeps (collapsed) or 100000
 * sweeps (as written), after 500 burn-in.
 */
#include "check.h"
#include "stat/designs.h"
#include "core/params.h"
#include "engine/ssvs/ssvs.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef SS_ITER
#define SS_ITER 20000      /* collapsed: sweeps per chain */
#endif
#ifndef SS_ITER_GIBBS
#define SS_ITER_GIBBS 100000 /* as written: beta and sigma^2 slow the indicators down */
#endif
#define SS_BURN 500
#define SS_CHAINS 4
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

static double worst_rb = 0, worst_freq = 0;

static void one_case(const prob *p, const char *spec, const char *mprior)
{
    setup s;
    if (make(&s, p, "g", mprior)) {
        CHECK(0, "setup %s", p->name);
        return;
    }
    s.pb.prior_spec = spec;
    basel_error err;
    bsl_ssvs_prior sp;
    int rc = bsl_ssvs_parse(&sp, spec, &err);
    CHECK(rc == BASEL_OK, "parse %s: %s", spec, err.message);
    double ex[16], ex_size[17], freq[16];
    if (!rc) rc = bsl_ssvs_enumerate(&sp, &s.pb, ex, ex_size, &err);
    CHECK(rc == BASEL_OK, "enumerate %s %s: %s", p->name, spec, err.message);
    bsl_params params = {0};
    bsl_run run = {.iter = sp.collapsed ? SS_ITER : SS_ITER_GIBBS, .burn = SS_BURN, .thin = 1, .chains = SS_CHAINS, .top = 10,
                   .params = &params};
    double w_rb = 0, w_f = 0;
    for (unsigned long seed = 1; seed <= 5 && rc == BASEL_OK; seed++) {
        bsl_vs_result res;
        run.seed = seed;
        rc = bsl_ssvs_run_ex(&s.pb, &run, &res, freq, &err);
        CHECK(rc == BASEL_OK, "ssvs %s %s seed %lu: %s", p->name, spec, seed, err.message);
        if (rc) break;
        double e = 0, ef = 0;
        for (size_t j = 0; j < p->d; j++) {
            e = fmax(e, fabs(res.pip[j] - ex[j]));
            ef = fmax(ef, fabs(freq[j] - ex[j]));
        }
        CHECK(e < TOL, "ssvs %s %s %s seed %lu: max |rb pip - exact| = %.4f", p->name, spec, mprior,
              seed, e);
        CHECK(ef < TOL, "ssvs %s %s %s seed %lu: max |frequency - exact| = %.4f", p->name, spec,
              mprior, seed, ef);
        w_rb = fmax(w_rb, e);
        w_f = fmax(w_f, ef);
        bsl_vs_result_free(&res);
    }
    printf("  %-13s %-40s %-8s max err rb %.4f  freq %.4f\n", p->name, spec, mprior, w_rb, w_f);
    worst_rb = fmax(worst_rb, w_rb);
    worst_freq = fmax(worst_freq, w_f);
    unmake(&s);
}

static void bad_spec(void)
{
    bsl_ssvs_prior sp;
    basel_error err;
    int rc = bsl_ssvs_parse(&sp, "ssvs:tua=1", &err);
    CHECK(rc == BASEL_EINVAL && strstr(err.message, "tau, tau2, c, p, a, b, scaled, collapsed"),
          "unknown key lists the accepted ones: %s", err.message);
    rc = bsl_ssvs_parse(&sp, "ssvs:c=0.5", &err);
    CHECK(rc == BASEL_EINVAL, "c <= 1 is rejected");
    rc = bsl_ssvs_parse(&sp, "ssvs:collapsed=0.5", &err);
    CHECK(rc == BASEL_EINVAL, "collapsed must be 0 or 1");
    rc = bsl_ssvs_parse(&sp, "ssvs", &err);
    CHECK(rc == BASEL_OK && sp.tau == 1 && sp.c == 100 && sp.p < 0 && sp.collapsed == 1 &&
              sp.scaled == 0,
          "defaults");
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
    bad_spec();
    const char *specs[] = {"ssvs:collapsed=1,scaled=1", "ssvs:collapsed=1,scaled=0",
                           "ssvs:collapsed=0,scaled=1", "ssvs:collapsed=0,scaled=0",
                           "ssvs:collapsed=1,scaled=1,tau=0.5,c=400,p=0.2",
                           "ssvs:collapsed=0,scaled=0,tau=0.5,c=400,p=0.2"};
    printf("ssvs vs enumeration: %d chains x %d sweeps collapsed, %d as written (+%d burn), 5 seeds\n",
           SS_CHAINS, SS_ITER, SS_ITER_GIBBS, SS_BURN);
    for (size_t i = 0; i < np; i++)
        for (size_t a = 0; a < 6; a++) one_case(&probs[i], specs[a], a < 4 && i == 0 ? "poisson:mean=3" : "uniform");
    printf("worst max |pip - exact|: rb %.4f, frequency %.4f\n", worst_rb, worst_freq);
    for (size_t i = 0; i < np; i++) {
        free(probs[i].X);
        free(probs[i].Y);
    }
    gsl_rng_free(r);
    return check_report("test_ssvs_exact");
}
