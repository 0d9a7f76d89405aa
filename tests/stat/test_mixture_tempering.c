/*
 * test_mixture_tempering.c: replica exchange in the mixture engine
 * (src/engine/mixture/mixture.c, tempered conditionals in mixture_gibbs.c and
 * mixture_rj.c) leaves the posterior unchanged. On a small data set where
 * the plain sampler mixes well (n = 24, 3 inputs, a weak class signal in
 * input 0, so every PIP is strictly between 0 and 1), the PIPs and the
 * posterior of the number of inputs from replica exchange (3 temperatures
 * up to 6) must match those of the plain sampler: |z| below the two-sided
 * 1% point, Bonferroni over the compared quantities, with standard errors
 * from each run's effective sample sizes (split chains, src/summary/diag.c).
 * The Geweke test (test_mixture_geweke.c) covers temperature 1; this
 * comparison catches a wrong tempered acceptance ratio or swap ratio (a
 * mutation that leaves the excluded inputs' evidence untempered, or flips
 * the swap ratio, fails it by |z| > 10). Also: swaps are proposed and
 * accepted, and the move counts cover temperature 1 only.
 *
 * A wrong tempered Gibbs conditional moves these margins too little to be
 * seen, so the second part checks the tempered Gibbs sweep itself where
 * its target can be integrated numerically: one kernel (D = 1) and one
 * input at b = 0.4. Then P_0 ~ Beta(delta + b n_0, delta + b n_1) exactly,
 * and (mu, prec) has density proportional to
 *   N(mu; xi, 1/kappa) p(prec) prod_i N(x_i; mu, 1/prec)^b,
 *   p(prec) = int_lo^inf Gamma(prec; a, beta) Gamma(beta; g, h) dbeta
 *           propto prec^(a-1) Q(a+g, lo (prec + h)) / (prec + h)^(a+g),
 * lo = beta_min R^2 the lower end of beta's prior (mixture_model.c;
 * beta_min 0.25, lo = 1 here, which cuts 44 % of Gamma(g, h)) and Q the
 * regularised upper incomplete
 * gamma, integrated on a grid in (mu, log prec);
 * E[beta] = E[(a+g)/(prec+h) Q(a+g+1, lo (prec+h)) / Q(a+g, lo (prec+h))].
 * The third part checks the tempered allocation draw, the imputed classes
 * of unlabelled rows and the weights' counts with two kernels against
 * exact sums over all allocations of six rows and classes of the two
 * unlabelled ones. Mutations that drop b from any count, from the
 * allocation probabilities or from the weights or class probabilities in
 * them fail these parts by |z| > 7.
 */
#include "check.h"
#include "stat/mcse.h"
#include "engine/mixture/mixture.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 24, D_IN = 3 };

static bsl_mix_result *fit(const double *X, const int *cls, size_t temperatures, size_t iter,
                           unsigned long seed)
{
    bsl_mix_options o;
    bsl_mix_options_default(&o);
    o.kernels = 2;
    o.iter = iter + 1000, o.burn = 1000, o.thin = 5, o.chains = 4, o.seed = seed;
    o.poisson_mean = 1.5;
    o.temperatures = temperatures, o.temp_max = 6;
    bsl_mix_result *r = NULL;
    basel_error err;
    CHECK(bsl_mixture_fit(X, N, D_IN, cls, 2, &o, &r, &err) == BASEL_OK, "fit: %s", err.message);
    return r;
}

enum { NPAR = 5, NBATCH = 40 };
static const char *const par_name[NPAR] = {"w_00", "w_00^2", "P_0^2", "mu_00^2 if input 0 in",
                                           "log prec_00 if input 0 in"};

/* Means of parameter statistics over the kept draws, with batch-means
 * standard errors (draws are in chain order; NBATCH batches). */
static void param_stats(const bsl_mix_result *r, double *mean, double *sem)
{
    const size_t nd = r->ndraw, D = r->D, K = r->K, per = nd / NBATCH;
    double batch[NPAR][NBATCH] = {{0}};
    for (int q = 0; q < NPAR; q++) mean[q] = 0;
    for (size_t t = 0; t < per * NBATCH; t++) {
        double v[NPAR] = {r->draw_w[t * K * D], 0, 0, 0, 0};
        v[1] = v[0] * v[0];
        v[2] = r->draw_P[t * K] * r->draw_P[t * K];
        for (size_t u = r->draw_off[t]; u < r->draw_off[t + 1]; u++)
            if (r->draw_idx[u] == 0) v[3] = r->draw_mu[u * D] * r->draw_mu[u * D], v[4] = log(r->draw_prec[u * D]);
        for (int q = 0; q < NPAR; q++) mean[q] += v[q] / (double)(per * NBATCH), batch[q][t / per] += v[q] / (double)per;
    }
    for (int q = 0; q < NPAR; q++) {
        double ss = 0;
        for (int b = 0; b < NBATCH; b++) ss += (batch[q][b] - mean[q]) * (batch[q][b] - mean[q]);
        sem[q] = sqrt(ss / (NBATCH - 1) / NBATCH);
    }
}

/* Standard error of a probability estimated with effective size ess. */
static double se(double p, double ess) { return sqrt(fmax(p * (1 - p), 1e-4) / ess); }

/* Statistics of a chain's state, nq of them into v. */
typedef void (*chain_stats)(const bsl_mix_chain *ch, double *v);

/* Runs ch (one input, input 0 active, subset fixed) at inverse temperature
 * b, 1000 sweeps of burn-in then 100000 (fast tier) or 400000 (full,
 * BASEL_TIER=full), and compares the means of nq
 * statistics with their exact values: z from 50 batch means, two-sided 1%
 * with Bonferroni over the nq. */
static void compare_with_exact(bsl_mix_chain *ch, unsigned long seed, double b, size_t nq, chain_stats f,
                               const double *want, const char *label, const char *const *name)
{
    enum { NB = 50, MAXQ = 8 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    bsl_mix_chain_init(ch, r);
    ch->fix_subset = 1, ch->b = b;
    ch->active[0] = 1, ch->I = 1;
    const size_t sweeps = STAT_TIER(100000, 400000), per = sweeps / NB;
    double mean[MAXQ] = {0}, batch[MAXQ][NB] = {{0}}, v[MAXQ];
    for (size_t t = 0; t < 1000; t++) bsl_mix_chain_sweep(ch, r, 0, 0);
    for (size_t t = 0; t < sweeps; t++) {
        bsl_mix_chain_sweep(ch, r, 0, 0);
        f(ch, v);
        for (size_t q = 0; q < nq; q++) mean[q] += v[q] / (double)sweeps, batch[q][t / per] += v[q] / (double)per;
    }
    const double zcrit = gsl_cdf_ugaussian_Qinv(0.01 / 2 / (double)nq);
    for (size_t q = 0; q < nq; q++) {
        double ss = 0;
        for (int k = 0; k < NB; k++) ss += (batch[q][k] - mean[q]) * (batch[q][k] - mean[q]);
        const double z = (mean[q] - want[q]) / sqrt(ss / (NB - 1) / NB);
        printf("  %s b = %.1f: %s exact %.4f  sampler %.4f  z %6.2f\n", label, b, name[q], want[q], mean[q], z);
        CHECK(fabs(z) < zcrit, "%s: %s: |z| = %.2f >= %.2f", label, name[q], fabs(z), zcrit);
    }
    gsl_rng_free(r);
}

/* Part two: the tempered Gibbs sweep (D = 1, one input) against quadrature. */
enum { N1 = 12, NQ = 4 };
static void gibbs_stats(const bsl_mix_chain *ch, double *v)
{
    v[0] = ch->P[0], v[1] = ch->mu[0], v[2] = log(ch->prec[0]), v[3] = ch->beta[0];
}

static void tempered_gibbs_vs_quadrature(void)
{
    const double b = 0.4;
    double x[N1];
    int cls[N1];
    for (size_t i = 0; i < N1; i++) x[i] = 0.3 * (double)i - 1.1 + (i % 3 ? 0.4 : -0.2), cls[i] = i < 4 ? 0 : 1;
    bsl_mix_options o;
    bsl_mix_options_default(&o);
    o.kernels = 1;
    o.prior_mid = 0.2, o.prior_range = 2.0, o.a = 3, o.g = 2, o.h = 1.5;
    o.beta_min = 0.25; /* lo = 1: cuts 44 % of beta's Gamma(2, 1.5) */
    bsl_mix_model *m = NULL;
    bsl_mix_chain *ch = NULL;
    if (bsl_mix_model_create(&m, x, N1, 1, cls, 2, &o) || bsl_mix_chain_create(&ch, m)) abort();
    /* exact: E[P_0], and E[mu], E[log prec], E[beta] by quadrature */
    const double kap = m->kappa[0], xi = m->xi[0], a = o.a, g = o.g, h = o.h, lo = m->beta_lo[0];
    CHECK(lo == 1, "beta's prior starts at 1 (%g)", lo);
    double want[NQ] = {(1 + b * 4) / (2 + b * N1), 0, 0, 0}, tot = 0, lmax = -INFINITY;
    enum { GM = 400, GP = 400 };
    static double lw[GM][GP];
    for (int u = 0; u < GM; u++)
        for (int v = 0; v < GP; v++) {
            const double mu = -4 + 8.0 * (u + 0.5) / GM, lp = -6 + 10.0 * (v + 0.5) / GP, p = exp(lp);
            double l = -0.5 * kap * (mu - xi) * (mu - xi) + a * lp - (a + g) * log(p + h) +
                       log(gsl_sf_gamma_inc_Q(a + g, lo * (p + h))); /* prec^a: Jacobian of log */
            for (size_t i = 0; i < N1; i++) l += b * (0.5 * lp - 0.5 * p * (x[i] - mu) * (x[i] - mu));
            lw[u][v] = l;
            lmax = fmax(lmax, l);
        }
    for (int u = 0; u < GM; u++)
        for (int v = 0; v < GP; v++) {
            const double mu = -4 + 8.0 * (u + 0.5) / GM, lp = -6 + 10.0 * (v + 0.5) / GP, w = exp(lw[u][v] - lmax);
            const double ph = exp(lp) + h;
            tot += w, want[1] += w * mu, want[2] += w * lp;
            want[3] += w * (a + g) / ph * gsl_sf_gamma_inc_Q(a + g + 1, lo * ph) / gsl_sf_gamma_inc_Q(a + g, lo * ph);
        }
    for (int q = 1; q < NQ; q++) want[q] /= tot;
    static const char *const name[NQ] = {"E[P_0]", "E[mu]", "E[log prec]", "E[beta]"};
    compare_with_exact(ch, 3, b, NQ, gibbs_stats, want, "tempered Gibbs", name);
    bsl_mix_chain_free(ch);
    bsl_mix_model_free(m);
}

/* Part three: the tempered allocations, imputed classes and weights
 * (D = 2, one input, n = 6 rows of which rows 2 and 5 are unlabelled)
 * against exact sums over the 2^6 allocations z and the 2^2 classes c of
 * the unlabelled rows:
 *   pi_b(z, c) ~ B(1 + b n_0, 1 + b n_1) prod_k B(1 + b m_k0, 1 + b m_k1)
 *                x int Gamma(beta; g, h) prod_d J_d(z, beta) dbeta,
 *   J_d = int int N(mu; xi, 1/kappa) Gamma(prec; a, beta)
 *               prod_{z_i = d} N(x_i; mu, 1/prec)^b dmu dprec,
 * the mean integrated in closed form, prec and beta on grids (n_k: rows of
 * class k, m_kd: of class k in kernel d, both with the imputed classes; the
 * uniform Dirichlet priors make the B's the integrals of P and w).
 * Statistics that kernel relabelling leaves alone: P(z_0 = z_1),
 * P(z_0 = z_3), E[w_{c_0 z_0}], whose value given (z, c) is
 * (1 + b m_{c_0 z_0}) / (2 + b n_{c_0}), and P(c_2 = 0). */
enum { N3 = 6, NS3 = 4 };
static const int cls3[N3] = {0, 0, -1, 0, 1, -1}, unl3[2] = {2, 5};

/* The classes of all rows for configuration zc: the unlabelled rows' from
 * its two low bits (the allocations are zc >> 2). */
static void classes_of(unsigned zc, int *c)
{
    for (int i = 0; i < N3; i++) c[i] = cls3[i];
    c[unl3[0]] = (int)(zc & 1), c[unl3[1]] = (int)((zc >> 1) & 1);
}

static void allocation_stats(const bsl_mix_chain *ch, double *v)
{
    v[0] = ch->z[0] == ch->z[1], v[1] = ch->z[0] == ch->z[3], v[2] = ch->w[cls3[0] * 2 + ch->z[0]];
    v[3] = ch->c[unl3[0]] == 0;
}
static double log_J(const double *x, unsigned z, int d, double b, double beta, double xi, double kap,
                    double a)
{
    double nd = 0, S = 0, Q = 0;
    for (int i = 0; i < N3; i++)
        if ((int)((z >> i) & 1) == d) nd += 1, S += x[i], Q += x[i] * x[i];
    /* log-spaced prec grid; log-sum-exp */
    enum { GP = 600 };
    double l[GP], mx = -INFINITY;
    for (int v = 0; v < GP; v++) {
        const double lp = -8 + 14.0 * (v + 0.5) / GP, p = exp(lp), pp = kap + b * p * nd;
        const double mu_part = 0.5 * log(kap / pp) -
                               0.5 * (b * p * Q + kap * xi * xi - (kap * xi + b * p * S) * (kap * xi + b * p * S) / pp);
        l[v] = mu_part + 0.5 * b * nd * (lp - 1.8378770664093454836) + a * log(beta) - lgamma(a) + a * lp - beta * p;
        mx = fmax(mx, l[v]);
    }
    double s = 0;
    for (int v = 0; v < GP; v++) s += exp(l[v] - mx);
    return mx + log(s * 14.0 / GP);
}

static void tempered_allocations_vs_sums(void)
{
    const double b = 0.5, x[N3] = {-1.2, -0.9, 0.1, 0.8, 1.4, 1.1};
    const int *cls = cls3;
    bsl_mix_options o;
    bsl_mix_options_default(&o);
    o.kernels = 2;
    o.prior_mid = 0.0, o.prior_range = 2.0, o.a = 3, o.g = 2, o.h = 1.5;
    o.beta_min = 0.25; /* lo = 1, as above */
    bsl_mix_model *m = NULL;
    bsl_mix_chain *ch = NULL;
    if (bsl_mix_model_create(&m, x, N3, 1, cls, 2, &o) || bsl_mix_chain_create(&ch, m)) abort();
    const double xi = m->xi[0], kap = m->kappa[0], a = o.a, g = o.g, h = o.h, llo = log(m->beta_lo[0]);
    CHECK(m->beta_lo[0] == 1, "beta's prior starts at 1 (%g)", m->beta_lo[0]);
    /* exact: the beta integral depends on z only; beta's prior starts at
     * beta_lo (its normaliser is the same for every z) */
    double lJ[1 << N3];
    for (unsigned z = 0; z < (1u << N3); z++) {
        enum { GB = 300 };
        double lb[GB], mb = -INFINITY;
        for (int u = 0; u < GB; u++) { /* beta on a log grid, Jacobian beta */
            const double lbeta = llo + (4 - llo) * (u + 0.5) / GB, beta = exp(lbeta);
            lb[u] = g * log(h) - lgamma(g) + g * lbeta - h * beta + log_J(x, z, 0, b, beta, xi, kap, a) +
                    log_J(x, z, 1, b, beta, xi, kap, a);
            mb = fmax(mb, lb[u]);
        }
        double sb = 0;
        for (int u = 0; u < GB; u++) sb += exp(lb[u] - mb);
        lJ[z] = mb + log(sb);
    }
    double lz[(1 << N3) * 4], lmax = -INFINITY;
    for (unsigned zc = 0; zc < (1u << N3) * 4; zc++) {
        const unsigned z = zc >> 2;
        int c[N3];
        classes_of(zc, c);
        double mk[2][2] = {{0}}, nk[2] = {0};
        for (int i = 0; i < N3; i++) mk[c[i]][(z >> i) & 1] += 1, nk[c[i]] += 1;
        double l = lgamma(1 + b * nk[0]) + lgamma(1 + b * nk[1]) - lgamma(2 + b * N3);
        for (int k = 0; k < 2; k++) l += lgamma(1 + b * mk[k][0]) + lgamma(1 + b * mk[k][1]) - lgamma(2 + b * nk[k]);
        lz[zc] = l + lJ[z];
        lmax = fmax(lmax, lz[zc]);
    }
    double want[NS3] = {0}, tot = 0;
    for (unsigned zc = 0; zc < (1u << N3) * 4; zc++) {
        const unsigned z = zc >> 2;
        int c[N3];
        classes_of(zc, c);
        const double w = exp(lz[zc] - lmax);
        double n0 = 0, m00 = 0;
        for (int i = 0; i < N3; i++)
            if (c[i] == c[0]) n0 += 1, m00 += ((z >> i) & 1) == (z & 1);
        tot += w;
        want[0] += w * (((z >> 0) & 1) == ((z >> 1) & 1));
        want[1] += w * (((z >> 0) & 1) == ((z >> 3) & 1));
        want[2] += w * (1 + b * m00) / (2 + b * n0);
        want[3] += w * (c[unl3[0]] == 0);
    }
    for (int q = 0; q < NS3; q++) want[q] /= tot;
    static const char *const name[NS3] = {"P(z_0 = z_1)", "P(z_0 = z_3)", "E[w_(c_0 z_0)]", "P(c_2 = 0)"};
    compare_with_exact(ch, 5, b, NS3, allocation_stats, want, "tempered allocations", name);
    bsl_mix_chain_free(ch);
    bsl_mix_model_free(m);
}

int main(void)
{
    tempered_gibbs_vs_quadrature();
    tempered_allocations_vs_sums();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    double X[N * D_IN];
    int cls[N];
    for (size_t i = 0; i < N; i++) {
        cls[i] = (int)(i % 2);
        X[i] = (cls[i] ? 0.6 : -0.6) + gsl_ran_gaussian(rng, 1);
        for (size_t j = 1; j < D_IN; j++) X[j * N + i] = gsl_ran_gaussian(rng, 1);
    }
    gsl_rng_free(rng);

    /* plain: 4 chains x 2 iter; tempered: 4 chains x iter (fast 25000, full 100000) */
    const size_t iter = STAT_TIER(25000, 100000);
    bsl_mix_result *plain = fit(X, cls, 1, 2 * iter, 5), *pt = fit(X, cls, 3, iter, 6);
    if (!plain || !pt) return check_report("test_mixture_tempering");
    size_t d, len;
    const double *p1 = bsl_mix_pip(plain, &d), *p2 = bsl_mix_pip(pt, &d);
    const double *s1 = bsl_mix_size_post(plain, &len), *s2 = bsl_mix_size_post(pt, &len);
    const double *r1, *e1, *t1, *r2, *e2, *t2;
    bsl_conv c1, c2;
    size_t n1, n2;
    bsl_mix_convergence(plain, &r1, &e1, &t1, &c1, &n1);
    bsl_mix_convergence(pt, &r2, &e2, &t2, &c2, &n2);
    const double es1 = c1.ess_bulk, es2 = c2.ess_bulk;
    const double zcrit = gsl_cdf_ugaussian_Qinv(0.01 / 2 / (D_IN + 3 + NPAR));
    for (size_t j = 0; j < d; j++) {
        CHECK(p1[j] > 0.02 && p1[j] < 0.98, "input %zu's PIP %.3f is informative for the test", j, p1[j]);
        const double z = (p2[j] - p1[j]) / hypot(se(p1[j], e1[j]), se(p2[j], e2[j]));
        printf("  PIP %zu: plain %.4f (ESS %.0f)  tempered %.4f (ESS %.0f)  z %6.2f\n", j, p1[j], e1[j], p2[j],
               e2[j], z);
        CHECK(fabs(z) < zcrit, "PIP %zu: |z| = %.2f >= %.2f", j, fabs(z), zcrit);
    }
    for (size_t I = 1; I <= D_IN; I++) { /* the size margin, with the size's ESS */
        const double z = (s2[I] - s1[I]) / hypot(se(s1[I], es1), se(s2[I], es2));
        printf("  P(I = %zu): plain %.4f  tempered %.4f  z %6.2f\n", I, s1[I], s2[I], z);
        CHECK(fabs(z) < zcrit, "P(I = %zu): |z| = %.2f >= %.2f", I, fabs(z), zcrit);
    }
    double m1[NPAR], se1[NPAR], m2[NPAR], se2[NPAR];
    param_stats(plain, m1, se1);
    param_stats(pt, m2, se2);
    for (int q = 0; q < NPAR; q++) { /* the tempered Gibbs conditionals show here */
        const double z = (m2[q] - m1[q]) / hypot(se1[q], se2[q]);
        printf("  E[%s]: plain %.4f  tempered %.4f  z %6.2f\n", par_name[q], m1[q], m2[q], z);
        CHECK(fabs(z) < zcrit, "E[%s]: |z| = %.2f >= %.2f", par_name[q], fabs(z), zcrit);
    }
    bsl_mix_diag g1, g2;
    bsl_mix_diagnostics(plain, &g1);
    bsl_mix_diagnostics(pt, &g2);
    printf("  swaps accepted %.3f; add accepted plain %.3f tempered %.3f\n", g2.accept_swap, g1.accept_add,
           g2.accept_add);
    CHECK(isnan(g1.accept_swap), "no swaps with one temperature");
    CHECK(g2.accept_swap > 0.05 && g2.accept_swap < 1, "swaps are proposed and accepted (%.3f)", g2.accept_swap);
    /* moves are counted at temperature 1: per cold sweep, not per replica sweep */
    CHECK(g2.proposed_add + g2.proposed_remove == 4 * (iter + 1000), "one add or remove counted per cold sweep: %lu",
          g2.proposed_add + g2.proposed_remove);
    bsl_mix_free(plain);
    bsl_mix_free(pt);
    return check_report("test_mixture_tempering");
}
