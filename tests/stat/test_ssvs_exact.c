/*
 * test_ssvs_exact.c: the spike-and-slab engine (ssvs.c) against the exact
 * spike-and-slab posterior (bsl_ssvs_enumerate: closed form when the slab
 * and spike variances scale with sigma^2, 1-D quadrature over sigma^2 for
 * paper 001 as written), for both variants (collapsed, and the Gibbs
 * sampler as written: eqs. 8, 12, 14), on lin_p15_n200 and the three
 * correlated synthetic designs of test_rj_exact.c (ar1, dup, hidden), under
 * the default prior (tau = 1, c = 100, uniform model prior = Bernoulli(1/2))
 * and under tau = 0.5, c = 400, p = 0.2.
 *
 * Each case runs R = 16 independent one-chain runs (seeds 1..R) and checks
 * every Rao-Blackwellised PIP, every raw inclusion frequency and every size
 * probability P(k). Bound (tests/stat/mcse.h): the mean over the R runs
 * within t_{R-1} standard errors (their spread, floored at the binomial
 * one) of the exact value, t at the two-sided level 1e-3 / K, K all such
 * checks in the program (Bonferroni: a correct engine fails the program
 * with probability below 1e-3). Iterations per run after 500 burn-in:
 * collapsed 1000 sweeps (fast tier) or 20000 (full, BASEL_TIER=full); as
 * written 4000 or 100000 (beta and sigma^2 slow the indicators down).
 */
#include "check.h"
#include "stat/designs.h"
#include "stat/mcse.h"
#include "core/params.h"
#include "engine/ssvs/ssvs.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R = 16, SS_BURN = 500, MAXM = 16 };
static size_t ss_iter, ss_iter_gibbs; /* sweeps per run: collapsed, as written */

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

/* The number of checks one_case makes: PIPs twice, size probabilities once. */
static size_t case_checks(const prob *p) { return 2 * p->d + p->d + 1; }

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
    double ex[MAXM], ex_size[MAXM + 1], freq[MAXM];
    if (!rc && (p->d > MAXM || s.pb.kmax != p->d)) { /* the check count and arrays assume both */
        CHECK(0, "%s: m = %zu, kmax = %zu: the test needs m <= %d and kmax = m", p->name, p->d, s.pb.kmax, MAXM);
        rc = BASEL_EINVAL;
    } else if (!rc) {
        rc = bsl_ssvs_enumerate(&sp, &s.pb, ex, ex_size, &err);
        CHECK(rc == BASEL_OK, "enumerate %s %s: %s", p->name, spec, err.message);
    }
    bsl_params params = {0};
    const size_t iter = sp.collapsed ? ss_iter : ss_iter_gibbs;
    double rb[MAXM][R], fr[MAXM][R], size[MAXM + 1][R];
    for (size_t r = 0; r < R && rc == BASEL_OK; r++) {
        bsl_run run = {.iter = iter, .burn = SS_BURN, .thin = 1, .chains = 1, .seed = r + 1, .top = 10,
                       .params = &params};
        bsl_vs_result res;
        rc = bsl_ssvs_run_ex(&s.pb, &run, &res, freq, &err);
        CHECK(rc == BASEL_OK, "ssvs %s %s seed %zu: %s", p->name, spec, r + 1, err.message);
        if (rc) break;
        for (size_t j = 0; j < p->d; j++) rb[j][r] = res.pip[j], fr[j][r] = freq[j];
        for (size_t k = 0; k <= p->d; k++) size[k][r] = res.size_prob[k];
        bsl_vs_result_free(&res);
    }
    if (rc == BASEL_OK) {
        const double n_total = (double)R * (double)iter;
        double w_rb = 0, w_f = 0, w_k = 0, widest = 0;
        for (size_t j = 0; j < p->d; j++) {
            CHECK_MC(rb[j], R, ex[j], 0, n_total, "ssvs %s %s %s: rao-blackwell PIP %zu (seeds 1..%d)", p->name,
                     spec, mprior, j, R);
            w_rb = fmax(w_rb, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
            CHECK_MC(fr[j], R, ex[j], 0, n_total, "ssvs %s %s %s: frequency PIP %zu (seeds 1..%d)", p->name,
                     spec, mprior, j, R);
            w_f = fmax(w_f, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        for (size_t k = 0; k <= p->d; k++) {
            CHECK_MC(size[k], R, ex_size[k], 0, n_total, "ssvs %s %s %s: P(k = %zu) (seeds 1..%d)", p->name,
                     spec, mprior, k, R);
            w_k = fmax(w_k, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        printf("  %-13s %-46s %-14s max |mean - exact| rb %.4f freq %.4f P(k) %.4f; widest bound %.4f\n",
               p->name, spec, mprior, w_rb, w_f, w_k, widest);
    }
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
    ss_iter = STAT_TIER(1000, 20000);
    ss_iter_gibbs = STAT_TIER(4000, 100000);
    size_t K = 0;
    for (size_t i = 0; i < np; i++) K += 6 * case_checks(&probs[i]);
    mc_plan(1e-3, K);
    printf("ssvs vs enumeration (%s tier): %d one-chain runs x %zu sweeps collapsed, %zu as written "
           "(+%d burn); t = %.2f\n",
           stat_tier_name(), R, ss_iter, ss_iter_gibbs, SS_BURN, mc_quantile(R));
    for (size_t i = 0; i < np; i++)
        for (size_t a = 0; a < 6; a++) one_case(&probs[i], specs[a], a < 4 && i == 0 ? "poisson:mean=3" : "uniform");
    mc_report();
    for (size_t i = 0; i < np; i++) {
        free(probs[i].X);
        free(probs[i].Y);
    }
    gsl_rng_free(r);
    return check_report("test_ssvs_exact");
}
