/*
 * mcse.h: the statistical tests' two tiers and their Monte Carlo checks.
 *
 * Tiers. Every program in tests/stat reads BASEL_TIER: unset or "fast"
 * (what tools/test.sh, CI and a bare ctest run) picks run lengths that keep
 * the whole statistical suite to a few CPU minutes; "full"
 * (tools/test.sh --full) picks the long runs. Both tiers make the same
 * checks; the full one has smaller standard errors, so it sees smaller
 * biases. Sizes are chosen with STAT_TIER(fast, full).
 *
 * Checks. An engine's estimate of a probability p (a PIP, a size
 * probability P(k)) is checked over R independent replicates x_1..x_R
 * (runs or chains with distinct seeds, so the x_r are iid):
 *
 *   |mean(x) - p| <= t_{R-1}(1 - a/2) * max(s / sqrt(R), sqrt(p (1 - p) / N))
 *                    + e_exact + 1e-9
 *
 * s is the replicates' sample standard deviation. Each x_r averages a long
 * chain, so by the Markov chain CLT it is close to normal with mean p (up to
 * an O(1 / length) burn-in bias), and (mean - p) / (s / sqrt R) follows
 * Student's t with R - 1 degrees of freedom: the t quantile, not the normal
 * one, pays for s being itself estimated from R values. a = alpha / K is
 * the per-check level: alpha = 1e-3 is the family-wise false-alarm rate of
 * the whole program and K the number of checks it declares up front
 * (mc_plan), so by Bonferroni's inequality a correct engine fails any of
 * them with probability at most alpha. The floor sqrt(p (1 - p) / N), N the
 * number of iterations over all replicates, is the standard error of a
 * frequency over N independent draws: no sampler's frequency can do better,
 * and it keeps the bound from collapsing when every replicate returns
 * exactly 0 or 1 (p near 0 or 1, s = 0). e_exact bounds the error of the
 * reference value itself (0 for closed-form enumeration; the quadrature
 * error where p comes from a grid), 1e-9 is rounding. Nothing here is
 * tuned: a failure means a bias of several standard errors.
 */
#ifndef BSL_TEST_MCSE_H
#define BSL_TEST_MCSE_H

#include "check.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 for BASEL_TIER=full, 0 for fast (the default); anything else is a
 * usage error, not a silent fast run. */
static inline int stat_tier_full(void)
{
    const char *t = getenv("BASEL_TIER");
    if (!t || !*t || !strcmp(t, "fast")) return 0;
    if (!strcmp(t, "full")) return 1;
    fprintf(stderr, "BASEL_TIER=%s: expected fast or full\n", t);
    exit(2);
}

#define STAT_TIER(fast, full) (stat_tier_full() ? (full) : (fast))

static inline const char *stat_tier_name(void) { return stat_tier_full() ? "full" : "fast"; }

#if defined(__GNUC__)
#define MC_UNUSED __attribute__((unused))
#else
#define MC_UNUSED
#endif

/* The program's family of Monte Carlo checks. */
static MC_UNUSED struct {
    double alpha;        /* family-wise false-alarm rate */
    size_t planned, done;
    double worst;        /* largest |error| / bound seen */
    double last_error, last_bound; /* of the latest check */
    char worst_label[160];
} mc_family;

/* Declares the family: alpha over `checks` checks (Bonferroni). */
static inline void mc_plan(double alpha, size_t checks)
{
    mc_family.alpha = alpha;
    mc_family.planned = checks;
    mc_family.done = 0;
    mc_family.worst = 0;
    mc_family.worst_label[0] = 0;
}

/* The two-sided quantile for R replicates at the per-check level. */
static inline double mc_quantile(size_t R)
{
    const double a = mc_family.alpha / (double)(mc_family.planned ? mc_family.planned : 1);
    return gsl_cdf_tdist_Qinv(a / 2, (double)R - 1);
}

/* Mean and standard error (with the binomial floor) of R replicates. */
static inline void mc_mean_se(const double *x, size_t R, double p, double n_total, double *mean, double *se)
{
    double m = 0, ss = 0;
    for (size_t r = 0; r < R; r++) m += x[r];
    m /= (double)R;
    for (size_t r = 0; r < R; r++) ss += (x[r] - m) * (x[r] - m);
    const double s = R > 1 ? sqrt(ss / (double)(R - 1)) : INFINITY;
    const double pc = fmin(fmax(p, 0), 1);
    *mean = m;
    *se = fmax(s / sqrt((double)R), sqrt(pc * (1 - pc) / n_total));
}

/* One check: x[0..R) replicates of an estimate of p; n_total iterations
 * over all replicates (the binomial floor); e_exact the reference's own
 * error bound. Returns 1 when it passes. */
static inline int mc_check_at(const char *file, int line, const double *x, size_t R, double p,
                              double e_exact, double n_total, const char *fmt, ...)
{
    char label[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(label, sizeof label, fmt, ap);
    va_end(ap);
    mc_family.done++;
    double mean, se;
    mc_mean_se(x, R, p, n_total, &mean, &se);
    const double t = mc_quantile(R), bound = t * se + e_exact + 1e-9, err = fabs(mean - p);
    const int ok = err <= bound && isfinite(mean);
    mc_family.last_error = err;
    mc_family.last_bound = bound;
    if (!(err / bound <= mc_family.worst)) {
        mc_family.worst = err / bound;
        snprintf(mc_family.worst_label, sizeof mc_family.worst_label, "%s", label);
    }
    if (ok) {
        check_passed++;
    } else {
        check_failed++;
        fprintf(stderr,
                "%s:%d: FAILED: %s: mean of %zu = %.5f, exact %.5f, |error| %.5f > bound %.5f "
                "(t %.2f x se %.5f + %.1e)\n",
                file, line, label, R, mean, p, err, bound, t, se, e_exact);
    }
    return ok;
}

#define CHECK_MC(x, R, p, e_exact, n_total, ...) \
    mc_check_at(__FILE__, __LINE__, (x), (R), (p), (e_exact), (n_total), __VA_ARGS__)

/* Prints the family's summary and checks the plan covered every check. */
static inline void mc_report(void)
{
    printf("%zu Monte Carlo checks (planned %zu) at family-wise alpha %g; worst |error| / bound %.3f (%s)\n",
           mc_family.done, mc_family.planned, mc_family.alpha, mc_family.worst, mc_family.worst_label);
    CHECK(mc_family.done <= mc_family.planned, "%zu checks made but only %zu planned: the Bonferroni level is wrong",
          mc_family.done, mc_family.planned);
}

#endif
