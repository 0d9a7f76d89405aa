/*
 * test_mixture_geweke.c: Geweke's (2004) joint-distribution test of the
 * mixture engine (src/engine/mixture/mixture*.c), once for the Gibbs sweep alone
 * (fixed subset) and once for Gibbs + exchange + add/remove.
 *
 * Marginal-conditional simulator: theta ~ prior, iid. Successive-conditional
 * simulator: theta_0 ~ prior, data ~ p(data | theta_0), then alternately one
 * MCMC transition given the data and a fresh draw of the data (classes,
 * allocations, all d columns, excluded ones from their integrated model)
 * given theta. Both simulate p(theta), so every statistic has the same mean
 * under both; a sampler with a wrong conditional or acceptance ratio drifts.
 * z = difference of means / sqrt(se_mc^2 + se_sc^2), with the successive
 * simulator's standard error by batch means; each test passes if every
 * |z| is below the two-sided 1% critical value, Bonferroni-corrected over
 * its statistics. Data-free priors (prior_range) as the test requires.
 * Every kind of move is tested: given the allocations (add, remove and
 * exchange, and the pair moves with pair_prob 0.5; beta_j moving with its
 * column, whose law the statistic log beta_0 if input 0 active checks;
 * beta_j's prior truncated below (beta_min, mixture_model.c) in every case
 * but "rj data D=2", and the truncated Gamma draws against their exact
 * moments),
 * with coordinates given the allocations and the allocations summed out in
 * the ratio and redrawn, and summed over them with the add move's
 * data-driven and prior proposals, with
 * both models of the excluded inputs (regression on the active inputs and
 * a single Gaussian); the statistic x_.0'x_.1 / n when input 0 is excluded
 * ties the excluded column's law to the subset the moves choose. The
 * informed exchange (its pair drawn by the swap's odds) is run given z and
 * summed out. Small n and d keep it under a minute or so; argv: [length
 * multiplier [seed [label of the one case to run]]].
 */
#include "check.h"
#include "stat/mcse.h"
#include "engine/mixture/mixture.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* added to a proposal kind: with informed = 1, and with informed_exchange = 1 too */
enum { INFORMED = 100, INFORMED_EXCHANGE = 1000 };
enum { NSTAT = 12, NBATCH = 50, N_ROWS = 10, N_UNLAB = 2, N_IN = 3 };
static const char *const stat_name[NSTAT] = {
    "number of inputs", "input 0 active", "mean mu_00 (0 if inactive)", "mu_00^2",
    "allocation weight w_00", "w_00^2", "log prec_00 (0 if inactive)",
    "var(x_.0) if input 0 active", "row log-likelihood / n", "beta_0 prec_00 if active",
    "x_.0'x_.1 / n if 0 excluded", "log beta_0 if input 0 active"};

/* Statistics of theta and of (theta, data): under the joint both simulators
 * give the pair (parameters, the data they were last conditioned on or
 * drawn from) the same law, and the data-dependent ones catch transitions
 * that favour the wrong data-parameter relation (a one-sided exchange
 * ratio, say) even when the prior margins stay right by symmetry. */
static void stats(bsl_mix_chain *ch, double *s)
{
    const bsl_mix_model *m = ch->m;
    const double a0 = ch->active[0] ? 1 : 0;
    s[0] = (double)ch->I;
    s[1] = a0;
    s[2] = a0 * ch->mu[0];
    s[3] = s[2] * s[2];
    s[4] = ch->w[0];
    s[5] = ch->w[0] * ch->w[0];
    s[6] = a0 * log(ch->prec[0]);
    double mean = 0, ss = 0;
    for (size_t i = 0; i < m->n; i++) mean += m->X[i];
    mean /= (double)m->n;
    for (size_t i = 0; i < m->n; i++) ss += (m->X[i] - mean) * (m->X[i] - mean);
    s[7] = a0 * ss / (double)(m->n - 1);
    bsl_mix_compute_L(ch);
    s[8] = bsl_mix_rows_loglik(ch, ch->L, ch->w) / (double)m->n;
    s[9] = a0 * ch->beta[0] * ch->prec[0]; /* Gamma(a, 1) under the prior */
    double xy = 0;
    for (size_t i = 0; i < m->n; i++) xy += m->X[i] * m->X[m->n + i];
    s[10] = (1 - a0) * xy / (double)m->n;
    s[11] = a0 * log(ch->beta[0]); /* beta_j moves with its column (mixture_rj.c) */
}

typedef struct moments {
    double sum[NSTAT], sumsq[NSTAT], batch[NSTAT][NBATCH];
    size_t count;
} moments;

static void add_stats(moments *mo, const double *s, size_t t, size_t total)
{
    const size_t b = t * NBATCH / total;
    for (int q = 0; q < NSTAT; q++) {
        mo->sum[q] += s[q];
        mo->sumsq[q] += s[q] * s[q];
        mo->batch[q][b] += s[q];
    }
    mo->count++;
}

/* beta_j's prior lower end in the tests: beta_min R^2 = 0.8 with R = 2 cuts
 * 22 % of Gamma(g = 3, h = 2) (mixture_model.c); the "rj data D=2" case
 * keeps the paper's prior (0) so that both stay tested. */
static const double BETA_MIN = 0.2;

static void make_model(bsl_mix_model **m, size_t kernels, int add_proposal, int excluded, double pair,
                       double beta_min)
{
    bsl_mix_options o;
    bsl_mix_options_default(&o);
    o.kernels = kernels;
    o.add_proposal = add_proposal % INFORMED;
    o.informed = add_proposal % INFORMED_EXCHANGE >= INFORMED; /* + INFORMED: the informed choice too */
    o.informed_exchange = add_proposal >= INFORMED_EXCHANGE;
    o.pair_prob = pair;
    o.excluded = excluded;
    o.prior_mid = 0.3, o.prior_range = 2.0; /* data-free priors */
    o.a = 3, o.g = 3, o.h = 2;              /* tame tails: finite moments of log prec */
    o.poisson_mean = 1.5;
    o.split_a = 1, o.split_b = 1;           /* large splits, to exercise eq. 4 */
    o.beta_min = beta_min;
    double X[N_ROWS * N_IN];
    int cls[N_ROWS];
    for (size_t i = 0; i < N_ROWS * N_IN; i++) X[i] = (double)(i % 7) - 3;
    for (size_t i = 0; i < N_ROWS; i++) cls[i] = i < N_ROWS - N_UNLAB ? (int)(i % 2) : -1;
    if (bsl_mix_model_create(m, X, N_ROWS, N_IN, cls, 2, &o) != BASEL_OK) abort();
}

/* Runs both simulators and checks each statistic. */
static const char *only; /* argv[3]: run only the case with this label */

static void geweke(const char *label, int rj, size_t kernels, int add_proposal, int excluded, double pair,
                   size_t n_mc, size_t n_sc, unsigned long seed)
{
    if (only && strcmp(only, label)) return;
    bsl_mix_model *m;
    bsl_mix_chain *ch;
    make_model(&m, kernels, add_proposal, excluded, pair, strcmp(label, "rj data D=2") ? BETA_MIN : 0);
    if (bsl_mix_chain_create(&ch, m) != BASEL_OK) abort();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    ch->fix_subset = !rj;
    if (!rj) { /* Gibbs only: the subset {0, 1}; input 2 stays excluded */
        memset(ch->active, 0, N_IN);
        ch->active[0] = ch->active[1] = 1, ch->I = 2;
    }
    moments *mc = calloc(1, sizeof *mc), *sc = calloc(1, sizeof *sc);
    double s[NSTAT];
    for (size_t t = 0; t < n_mc; t++) {
        bsl_mix_chain_draw_prior(ch, r);
        bsl_mix_chain_simulate(ch, m, r);
        stats(ch, s);
        add_stats(mc, s, t, n_mc);
    }
    bsl_mix_chain_draw_prior(ch, r);
    bsl_mix_chain_simulate(ch, m, r);
    for (size_t t = 0; t < n_sc; t++) {
        bsl_mix_chain_sweep(ch, r, 1, 1);
        stats(ch, s); /* theta_t with the data it was drawn given */
        add_stats(sc, s, t, n_sc);
        bsl_mix_chain_simulate(ch, m, r);
    }
    const double zcrit = gsl_cdf_ugaussian_Qinv(0.01 / 2 / NSTAT);
    for (int q = 0; q < NSTAT; q++) {
        const double m1 = mc->sum[q] / (double)n_mc, m2 = sc->sum[q] / (double)n_sc;
        const double v1 = (mc->sumsq[q] / (double)n_mc - m1 * m1) / (double)n_mc;
        double vb = 0;
        for (int b = 0; b < NBATCH; b++) {
            const double bm = sc->batch[q][b] / ((double)n_sc / NBATCH) - m2;
            vb += bm * bm;
        }
        const double v2 = vb / (NBATCH - 1) / NBATCH;
        if (v1 + v2 == 0) { /* a constant statistic (the size when Gibbs only) */
            CHECK(m1 == m2, "%s: %s constant but %g vs %g (seed %lu)", label, stat_name[q], m1, m2, seed);
            continue;
        }
        const double z = (m2 - m1) / sqrt(v1 + v2);
        printf("  %-12s %-28s prior %9.5f  sampler %9.5f  z %6.2f\n", label, stat_name[q], m1, m2, z);
        CHECK(fabs(z) < zcrit, "%s: %s: |z| = %.2f >= %.2f (seed %lu)", label, stat_name[q], fabs(z),
              zcrit, seed);
    }
    if (rj)
        printf("  %-12s acceptance add %.3f remove %.3f exchange %.3f\n", label,
               (double)ch->acc[0] / (double)ch->prop[0], (double)ch->acc[1] / (double)ch->prop[1],
               (double)ch->acc[2] / (double)ch->prop[2]);
    if (rj) CHECK(ch->acc[0] > 0 && ch->acc[1] > 0 && ch->acc[2] > 0, "%s: every move accepted sometimes", label);
    if (rj && pair > 0) {
        printf("  %-12s acceptance pair add %.3f pair remove %.3f\n", label,
               (double)ch->acc[BSL_MIX_ADD2] / (double)ch->prop[BSL_MIX_ADD2],
               (double)ch->acc[BSL_MIX_REMOVE2] / (double)ch->prop[BSL_MIX_REMOVE2]);
        CHECK(ch->acc[BSL_MIX_ADD2] > 0 && ch->acc[BSL_MIX_REMOVE2] > 0, "%s: pair moves accepted sometimes", label);
    }
    free(mc);
    free(sc);
    gsl_rng_free(r);
    bsl_mix_chain_free(ch);
    bsl_mix_model_free(m);
}

/* bsl_mix_draw_beta against the exact moments of Gamma(shape, rate) on
 * [lo, inf): E x^k = [Gamma(shape + k) / (Gamma(shape) rate^k)]
 * Q(shape + k, rate lo) / Q(shape, rate lo), Q the regularised upper
 * incomplete gamma; the first two moments are checked (z with the exact
 * variances, from the moments up to 4), in each branch of the sampler:
 * plain draws kept above lo, and the exponential tail proposal for shape
 * below and above 1. */
static double trunc_moment(double s, double rate, double lo, int k)
{
    return exp(lgamma(s + k) - lgamma(s) - k * log(rate)) * gsl_sf_gamma_inc_Q(s + k, rate * lo) /
           gsl_sf_gamma_inc_Q(s, rate * lo);
}

static void truncated_gamma(size_t n, unsigned long seed)
{
    static const double cases[][3] = {{9, 6, 1}, {9, 6, 3}, {0.2, 10, 0.05}, {0.2, 10, 0.5}, {3, 2, 0.8}};
    const size_t nc = sizeof cases / sizeof cases[0];
    const double zcrit = gsl_cdf_ugaussian_Qinv(0.01 / 2 / (2.0 * (double)nc));
    bsl_mix_model *m;
    make_model(&m, 2, BSL_MIX_PROPOSE_SUMMED, BSL_MIX_EXCLUDED_REGRESSION, 0, 0);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    for (size_t c = 0; c < nc; c++) {
        const double s = cases[c][0], rate = cases[c][1], lo = cases[c][2];
        m->beta_lo[0] = lo;
        double mom[5];
        for (int k = 1; k <= 4; k++) mom[k] = trunc_moment(s, rate, lo, k);
        double sum = 0, sum2 = 0, below = 0;
        for (size_t t = 0; t < n; t++) {
            const double x = bsl_mix_draw_beta(m, r, 0, s, rate);
            below += x < lo;
            sum += x, sum2 += x * x;
        }
        const double z1 = (sum / (double)n - mom[1]) / sqrt((mom[2] - mom[1] * mom[1]) / (double)n);
        const double z2 = (sum2 / (double)n - mom[2]) / sqrt((mom[4] - mom[2] * mom[2]) / (double)n);
        printf("  truncated Gamma(%g, %g) on [%g, inf): mean %.5f exact %.5f z %6.2f; E x^2 z %6.2f\n", s, rate,
               lo, sum / (double)n, mom[1], z1, z2);
        CHECK(below == 0, "truncated Gamma(%g, %g): %g draws below %g", s, rate, below, lo);
        CHECK(fabs(z1) < zcrit && fabs(z2) < zcrit, "truncated Gamma(%g, %g) on [%g, inf): |z| = %.2f, %.2f", s,
              rate, lo, fabs(z1), fabs(z2));
    }
    gsl_rng_free(r);
    bsl_mix_model_free(m);
}

int main(int argc, char **argv)
{
    /* optional: a length multiplier and a seed base (to replay or vary) */
    /* 0.25 in the fast tier, 1 in the full one (BASEL_TIER=full); 0.05 for sanitizer runs */
    const double scale = argc > 1 ? strtod(argv[1], NULL) : STAT_TIER(0.25, 1);
    const unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 20240501UL;
    only = argc > 3 ? argv[3] : NULL;
    const int alloc = BSL_MIX_PROPOSE_ALLOC, summed = BSL_MIX_PROPOSE_SUMMED, data = BSL_MIX_PROPOSE_DATA, prior = BSL_MIX_PROPOSE_PRIOR;
    const int reg = BSL_MIX_EXCLUDED_REGRESSION, gauss = BSL_MIX_EXCLUDED_GAUSSIAN;
    const size_t mc = (size_t)(500000 * scale), sc = (size_t)(1500000 * scale);
    if (!only) truncated_gamma(mc, seed + 100);
    geweke("gibbs D=2", 0, 2, data, reg, 0, mc, (size_t)(500000 * scale), seed);
    geweke("rj data D=2", 1, 2, data, reg, 0, mc, sc, seed + 1);
    geweke("rj data D=3", 1, 3, data, reg, 0, mc, sc, seed + 2);
    geweke("rj prior D=2", 1, 2, prior, reg, 0, mc, sc, seed + 3);
    geweke("rj gauss D=2", 1, 2, data, gauss, 0, mc, sc, seed + 4);
    /* the default moves, given the allocations (mixture_rj.c) */
    geweke("rj alloc D=2", 1, 2, alloc, reg, 0, mc, sc, seed + 5);
    geweke("rj alloc D=3", 1, 3, alloc, reg, 0.5, mc, sc, seed + 6);
    geweke("rj alloc gauss", 1, 2, alloc, gauss, 0.5, mc, sc, seed + 7);
    /* coordinates given z, the allocations summed out in the ratio and redrawn (mixture_rj.c) */
    geweke("rj summed D=2", 1, 2, summed, reg, 0, mc, sc, seed + 8);
    geweke("rj summed gauss", 1, 3, summed, gauss, 0, mc, sc, seed + 9);
    /* given z, the input to flip chosen by its approximate odds (mixture_rj.c) */
    geweke("rj informed alloc", 1, 2, alloc + INFORMED, reg, 0, mc, sc, seed + 10);
    geweke("rj informed summed", 1, 3, summed + INFORMED, gauss, 0, mc, sc, seed + 11);
    /* the exchange's pair chosen by the odds of the swap too (mixture_rj.c,
     * "Informed exchange"), given z and summed out; regression on the
     * active inputs, so the evidence's change enters the scores */
    geweke("rj informed exchange alloc", 1, 2, alloc + INFORMED_EXCHANGE, reg, 0, mc, sc, seed + 12);
    geweke("rj informed exchange summed", 1, 2, summed + INFORMED + INFORMED_EXCHANGE, reg, 0, mc, sc, seed + 13);
    return check_report("test_mixture_geweke");
}
