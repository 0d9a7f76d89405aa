/*
 * mixture_model.c: the model of mixture.h: hyperparameters resolved from the
 * options and the data (paper 000 §2.2), the excluded inputs' marginal
 * statistics, the subset prior (§2.3), and the chain's life cycle: create,
 * a start for fitting, a draw from the prior and a draw of data given the
 * parameters (the last two for the Geweke test).
 *
 * Invariant kept by every function that changes a chain: ch->I equals the
 * number of set flags in ch->active, and imin <= I <= imax.
 */
#include "mixture.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


double bsl_mix_log_normal(double x, double mu, double prec)
{
    const double dx = x - mu;
    return 0.5 * (log(prec) - BSL_MIX_LOG_2PI - prec * dx * dx);
}

void bsl_mix_model_free(bsl_mix_model *m)
{
    if (!m) return;
    free(m->X);
    free(m->cls);
    free(m->xi);
    free(m->kappa);
    free(m->h);
    free(m->beta_lo);
    free(m->beta_lq);
    free(m->ng_b0);
    free(m->ng_k0);
    free(m->xbar);
    free(m->C);
    free(m);
}

/* The lower end of beta_i's prior (an addition to paper 000 §2.2).
 *
 * With the paper's beta_i ~ Gamma(g, h_i) the posterior is improper as
 * soon as a kernel can hold n_q >= 2 (g + (D - 1) a) + 1 rows that share one
 * value of input i (a binary or rounded input; Ionosphere's V1 has 154 of
 * 175 training rows at 1): the kernel's spread V_q is 0, its precision
 * integrates to Gamma(a + m_q) beta_i^(a) / beta_i^(a + m_q) with m_q =
 * (n_q - 1) / 2, the other kernels give beta_i^a each as beta_i -> 0, so near
 * 0 the posterior of beta_i goes as beta_i^(g - 1 + (D - 1) a - m_q), which
 * is not integrable; the chain's precisions run off to infinity (4e31 seen)
 * and chains that took such an input never leave. Truncating the prior to
 * beta_i >= beta_lo_i = beta_min R_i^2 removes that end: given beta_i the
 * precisions' posterior is Gamma(a + n_q / 2, beta_i + V_q / 2), proper, and
 * their prior mean a / beta_i is at most a / (beta_min R_i^2), i.e. the
 * prior's typical kernel spread is at least about R_i sqrt(beta_min / a):
 * a kernel cannot be centred on a point mass with a vanishing variance at
 * no cost. The bound is fixed by the options and the input's range before
 * any chain runs, so it is part of the prior, not of the sampler. The full
 * conditional of beta_i stays the conjugate Gamma(g + D a, h_i + sum prec),
 * truncated at the same point (bsl_mix_draw_beta); the normaliser below
 * enters only where beta_i's prior density does (mixture_rj.c's moves with
 * beta_i). beta_min = 0 is the paper's prior. */
static void resolve_beta_floor(bsl_mix_model *m, size_t j, double R, double beta_min)
{
    m->beta_lo[j] = beta_min > 0 ? beta_min * R * R : 0;
    m->beta_lq[j] = m->beta_lo[j] > 0 ? log(gsl_sf_gamma_inc_Q(m->g, m->h[j] * m->beta_lo[j])) : 0;
}

double bsl_mix_beta_log_prior(const bsl_mix_model *m, size_t j, double beta)
{
    if (!(beta >= m->beta_lo[j]) || !(beta > 0)) return -INFINITY;
    return m->g * log(m->h[j]) - lgamma(m->g) + (m->g - 1) * log(beta) - m->h[j] * beta - m->beta_lq[j];
}

/* Gamma(shape, rate) on [lo, inf): plain draws kept when >= lo if that
 * happens at least a quarter of the time (the mass above lo is known);
 * otherwise lo is above the upper quartile, hence above the mode
 * (shape - 1) / rate, and x = lo + Exp(lam) with lam = rate - max(shape -
 * 1, 0) / lo > 0 is accepted with the target over the proposal, scaled to
 * its maximum at x = lo:
 *   (x / lo)^(shape - 1) exp(-(rate - lam)(x - lo)) <= 1
 * (its log has slope (shape - 1)(1 / x - 1 / lo) <= 0 for shape >= 1, and
 * both factors are <= 1 for shape < 1, where lam = rate). Both branches are
 * exact; which one runs depends on (shape, rate, lo) only. */
double bsl_mix_draw_beta(const bsl_mix_model *m, const gsl_rng *r, size_t j, double shape, double rate)
{
    const double lo = m->beta_lo[j];
    if (!(lo > 0)) return gsl_ran_gamma(r, shape, 1 / rate);
    const double sm1 = shape > 1 ? shape - 1 : 0, lam = rate - sm1 / lo;
    if (gsl_sf_gamma_inc_Q(shape, rate * lo) >= 0.25 || !(lam > 0)) {
        for (;;) {
            const double x = gsl_ran_gamma(r, shape, 1 / rate);
            if (x >= lo) return x;
        }
    }
    for (;;) {
        const double x = lo + gsl_ran_exponential(r, 1 / lam);
        const double log_acc = (shape - 1) * log(x / lo) - (rate - lam) * (x - lo);
        if (log(gsl_rng_uniform_pos(r)) < log_acc) return x;
    }
}

/* xi_i = midpoint, kappa_i = 1/R_i^2 (§2.2), h_i = h or 10/R_i^2. The
 * excluded input's prior mirrors a one-kernel model at beta_i's prior mean:
 * tau^-2 ~ Gamma(a, b0) with b0 = E[beta_i] = g / h_i, and prior variance of
 * nu about R_i^2 (E[tau^2] = b0 / (a - 1), so k0 = b0 kappa_i up to a - 1). */
static void resolve_hyper(bsl_mix_model *m, const bsl_mix_options *o)
{
    for (size_t j = 0; j < m->d; j++) {
        const double *x = m->X + j * m->n;
        double lo = x[0], hi = x[0];
        for (size_t i = 1; i < m->n; i++) {
            if (x[i] < lo) lo = x[i];
            if (x[i] > hi) hi = x[i];
        }
        const double R = o->prior_range > 0 ? o->prior_range : hi - lo;
        m->xi[j] = o->prior_range > 0 ? o->prior_mid : 0.5 * (lo + hi);
        m->kappa[j] = 1 / (R * R);
        m->h[j] = o->h > 0 ? o->h : 10 / (R * R);
        m->ng_b0[j] = o->g / m->h[j];
        m->ng_k0[j] = m->ng_b0[j] * m->kappa[j];
        resolve_beta_floor(m, j, R, o->beta_min);
    }
}

int bsl_mix_model_create(bsl_mix_model **out, const double *X, size_t n, size_t d,
                         const int *cls, size_t nclass, const bsl_mix_options *o)
{
    bsl_mix_model *m = bsl_calloc(1, sizeof *m);
    if (!m) return BASEL_ENOMEM;
    m->n = n, m->d = d, m->K = nclass, m->D = o->kernels;
    m->X = bsl_malloc(n * d, sizeof *m->X);
    m->cls = bsl_malloc(n, sizeof *m->cls);
    m->xi = bsl_malloc(d, sizeof(double));
    m->kappa = bsl_malloc(d, sizeof(double));
    m->h = bsl_malloc(d, sizeof(double));
    m->beta_lo = bsl_malloc(d, sizeof(double));
    m->beta_lq = bsl_malloc(d, sizeof(double));
    m->ng_b0 = bsl_malloc(d, sizeof(double));
    m->ng_k0 = bsl_malloc(d, sizeof(double));
    m->xbar = bsl_malloc(d, sizeof(double));
    m->C = bsl_malloc(d * d, sizeof(double));
    if (!m->X || !m->cls || !m->xi || !m->kappa || !m->h || !m->beta_lo || !m->beta_lq || !m->ng_b0 || !m->ng_k0 ||
        !m->xbar || !m->C) {
        bsl_mix_model_free(m);
        return BASEL_ENOMEM;
    }
    memcpy(m->X, X, n * d * sizeof *X);
    memcpy(m->cls, cls, n * sizeof *cls);
    m->a = o->a, m->g = o->g, m->delta_w = o->delta_w, m->delta_p = o->delta_p;
    m->split_a = o->split_a, m->split_b = o->split_b, m->lambda = o->poisson_mean;
    m->add_proposal = o->add_proposal;
    m->pair_prob = o->pair_prob;
    m->informed = o->informed;
    m->informed_exchange = o->informed_exchange;
    m->imin = o->min_inputs;
    m->imax = o->max_inputs ? BSL_MIN(o->max_inputs, d) : d;
    m->excluded = o->excluded;
    m->excl_g = o->excluded_g > 0 ? o->excluded_g : (double)n;
    resolve_hyper(m, o);
    bsl_mix_excluded_stats(m);
    *out = m;
    return BASEL_OK;
}

/* §2.3: p(I) proportional to lambda^I / I! on imin..imax; subsets of a size
 * are equally likely, hence the 1 / C(d, I) of the paper's formula. */
double bsl_mix_log_subset_prior(const bsl_mix_model *m, size_t I)
{
    return (double)I * log(m->lambda) - lgamma((double)I + 1) - gsl_sf_lnchoose((unsigned)m->d,
                                                                                  (unsigned)I);
}

double bsl_mix_p_add(const bsl_mix_model *m, size_t I)
{
    if (I >= m->imax) return 0;
    return I <= m->imin ? 1 : 0.5;
}

double bsl_mix_p_remove(const bsl_mix_model *m, size_t I)
{
    if (I <= m->imin) return 0;
    return I >= m->imax ? 1 : 0.5;
}

void bsl_mix_chain_free(bsl_mix_chain *ch)
{
    if (!ch) return;
    free(ch->active);
    free(ch->mu);
    free(ch->prec);
    free(ch->beta);
    free(ch->w);
    free(ch->P);
    free(ch->z);
    free(ch->c);
    free(ch->L);
    free(ch->Lnew);
    free(ch->Lsave);
    free(ch->zsave);
    free(ch->iscore);
    free(ch->ncoord);
    free(ch->wnew);
    free(ch->scratch);
    free(ch->perm);
    free(ch->idx);
    free(ch->xwork);
    free(ch->xkept);
    free(ch->xswap);
    free(ch->xiwork);
    free(ch->xscore);
    free(ch->tw);
    free(ch);
}

int bsl_mix_chain_create(bsl_mix_chain **out, const bsl_mix_model *m)
{
    bsl_mix_chain *ch = bsl_calloc(1, sizeof *ch);
    if (!ch) return BASEL_ENOMEM;
    const size_t n = m->n, d = m->d, K = m->K, D = m->D;
    const size_t ns = 2 * K * D + 7 * D + 2 * K + d; /* see mixture_gibbs.c */
    ch->m = m;
    ch->active = bsl_calloc(d, 1);
    ch->mu = bsl_calloc(d * D, sizeof(double));
    ch->prec = bsl_calloc(d * D, sizeof(double));
    ch->beta = bsl_calloc(d, sizeof(double));
    ch->w = bsl_calloc(K * D, sizeof(double));
    ch->P = bsl_calloc(K, sizeof(double));
    ch->z = bsl_calloc(n, sizeof(int));
    ch->c = bsl_calloc(n, sizeof(int));
    ch->L = bsl_calloc(n * D, sizeof(double));
    ch->Lnew = bsl_calloc(n * D, sizeof(double));
    ch->Lsave = bsl_calloc(n * D, sizeof(double));
    ch->zsave = bsl_calloc(2 * n, sizeof(int));
    ch->iscore = bsl_calloc(4 * d, sizeof(double));
    ch->ncoord = bsl_calloc(2 * D, sizeof(double));
    ch->wnew = bsl_calloc(K * D, sizeof(double));
    ch->scratch = bsl_calloc(ns, sizeof(double));
    ch->perm = bsl_calloc(D, sizeof(size_t));
    ch->idx = bsl_calloc(d, sizeof(size_t));
    ch->xwork = bsl_calloc(d * d + d, sizeof(double));
    ch->xkept = bsl_calloc(d, sizeof(size_t));
    ch->xswap = bsl_calloc(5 * d * d + 3 * d, sizeof(double));
    ch->xiwork = bsl_calloc(3 * d, sizeof(size_t));
    ch->xscore = bsl_calloc(d * d / 4 + 1, sizeof(double)); /* I (d - I) <= d^2 / 4 */
    ch->tw = bsl_calloc(K * D + K, sizeof(double));
    ch->b = 1;
    if (!ch->active || !ch->mu || !ch->prec || !ch->beta || !ch->w || !ch->P || !ch->z || !ch->c || !ch->L ||
        !ch->Lnew || !ch->Lsave || !ch->zsave || !ch->iscore || !ch->ncoord || !ch->wnew || !ch->scratch || !ch->perm || !ch->idx || !ch->xwork || !ch->xkept || !ch->tw ||
        !ch->xswap || !ch->xiwork || !ch->xscore) {
        bsl_mix_chain_free(ch);
        return BASEL_ENOMEM;
    }
    *out = ch;
    return BASEL_OK;
}

/* A uniformly random subset of size I (partial Fisher-Yates on ch->idx). */
static void random_subset(bsl_mix_chain *ch, const gsl_rng *r, size_t I)
{
    const size_t d = ch->m->d;
    for (size_t j = 0; j < d; j++) ch->idx[j] = j, ch->active[j] = 0;
    for (size_t t = 0; t < I; t++) {
        const size_t s = t + gsl_rng_uniform_int(r, d - t);
        const size_t tmp = ch->idx[t];
        ch->idx[t] = ch->idx[s], ch->idx[s] = tmp;
        ch->active[ch->idx[t]] = 1;
    }
    ch->I = I;
}

void bsl_mix_chain_init(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D;
    double I0 = floor(m->lambda + 0.5);
    if (I0 < (double)m->imin) I0 = (double)m->imin;
    if (I0 > (double)m->imax) I0 = (double)m->imax;
    random_subset(ch, r, (size_t)I0);
    for (size_t j = 0; j < m->d; j++) {
        ch->beta[j] = fmax(m->g / m->h[j], m->beta_lo[j]);
        for (size_t k = 0; k < D; k++) {
            const size_t row = gsl_rng_uniform_int(r, m->n);
            ch->mu[j * D + k] = m->X[j * m->n + row];
            ch->prec[j * D + k] = m->a / ch->beta[j];
        }
    }
    for (size_t i = 0; i < m->K * D; i++) ch->w[i] = 1.0 / (double)D;
    for (size_t k = 0; k < m->K; k++) ch->P[k] = 1.0 / (double)m->K;
}

/* Inverse-CDF draw of the size from the truncated Poisson of §2.3. */
static size_t draw_size(const bsl_mix_model *m, const gsl_rng *r)
{
    double tot = 0, lp0 = -INFINITY;
    for (size_t I = m->imin; I <= m->imax; I++) {
        const double lp = (double)I * log(m->lambda) - lgamma((double)I + 1);
        if (lp > lp0) lp0 = lp;
    }
    for (size_t I = m->imin; I <= m->imax; I++)
        tot += exp((double)I * log(m->lambda) - lgamma((double)I + 1) - lp0);
    double u = gsl_rng_uniform(r) * tot;
    for (size_t I = m->imin; I < m->imax; I++) {
        u -= exp((double)I * log(m->lambda) - lgamma((double)I + 1) - lp0);
        if (u < 0) return I;
    }
    return m->imax;
}

static void draw_dirichlet(const gsl_rng *r, size_t K, double alpha, double *out, double *tmp)
{
    for (size_t k = 0; k < K; k++) tmp[k] = alpha;
    gsl_ran_dirichlet(r, K, tmp, out);
}

void bsl_mix_chain_draw_prior(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D;
    if (!ch->fix_subset) random_subset(ch, r, draw_size(m, r));
    for (size_t j = 0; j < m->d; j++) {
        ch->beta[j] = bsl_mix_draw_beta(m, r, j, m->g, m->h[j]);
        for (size_t k = 0; k < D; k++) {
            ch->prec[j * D + k] = gsl_ran_gamma(r, m->a, 1 / ch->beta[j]);
            ch->mu[j * D + k] = m->xi[j] + gsl_ran_gaussian(r, 1 / sqrt(m->kappa[j]));
        }
    }
    for (size_t k = 0; k < m->K; k++) draw_dirichlet(r, D, m->delta_w, ch->w + k * D, ch->scratch);
    draw_dirichlet(r, m->K, m->delta_p, ch->P, ch->scratch);
}

static size_t draw_discrete(const gsl_rng *r, const double *p, size_t n)
{
    double u = gsl_rng_uniform(r);
    for (size_t i = 0; i + 1 < n; i++) {
        u -= p[i];
        if (u < 0) return i;
    }
    return n - 1;
}

void bsl_mix_chain_simulate(bsl_mix_chain *ch, bsl_mix_model *m, const gsl_rng *r)
{
    const size_t n = m->n, D = m->D;
    for (size_t i = 0; i < n; i++) {
        const size_t k = draw_discrete(r, ch->P, m->K);
        ch->c[i] = (int)k;
        if (m->cls[i] >= 0) m->cls[i] = (int)k;
        ch->z[i] = (int)draw_discrete(r, ch->w + k * D, D);
    }
    for (size_t j = 0; j < m->d; j++) {
        if (!ch->active[j]) continue;
        double *x = m->X + j * n;
        for (size_t i = 0; i < n; i++) {
            const size_t q = j * D + (size_t)ch->z[i];
            x[i] = ch->mu[q] + gsl_ran_gaussian(r, 1 / sqrt(ch->prec[q]));
        }
    }
    bsl_mix_excluded_simulate(m, ch->active, r, ch->xwork, ch->xkept);
}
