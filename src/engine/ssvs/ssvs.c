/*
 * ssvs.c: spike-and-slab variable selection (paper 001; ssvs.h), in two
 * parts. First the exact marginal p(y | gamma) used by the enumeration,
 * computed densely (eigen-decomposition per gamma) and independently of the
 * rank-one path of the spike-and-slab model (model/ssvs_model.c, which also
 * holds option parsing and spike variances), so that comparing the two
 * tests both. Then the engine (below the "engine" banner): the Gibbs
 * sampler as written and the collapsed one, which runs on the model table.
 *
 * Defaults (George & McCulloch 1993, sec. 2.2-2.3): the spike sd equals the
 * sd of the least-squares estimate (their sigma_beta / tau = 1, our tau = 1)
 * and the slab sd is 10 times it (their c = 10, paper 001's variance ratio
 * c = 100), so the densities cross at |beta| = tau sqrt(c log c / (c - 1))
 * = 2.16 standard errors: a coefficient is "in" when it is about as large
 * as a 3% two-sided test would notice. p = 1/2 (their default; here taken
 * from the model prior, uniform by default), and p(sigma^2) ~ 1/sigma^2
 * (their nu = 0). The "sd of the estimate" is s / sqrt(b_j'P b_j) with s^2 =
 * y'Py / N (an empirical-Bayes constant, paper 001 sec. 1.1), or sigma^2
 * itself when scaled.
 *
 * With prior variances s v_j (V = diag v) and the eigenvalues lambda_i,
 * eigenvectors Q of H = V^{1/2} G V^{1/2}, and c~ = Q' V^{1/2} B'y
 * (Woodbury and the matrix determinant lemma):
 *   log p(y | gamma, sigma^2) = -(N/2) log(2 pi sigma^2)
 *        - 1/2 sum_i log(1 + s lambda_i / sigma^2)
 *        - (y'y - sum_i c~_i^2 / (sigma^2/s + lambda_i)) / (2 sigma^2).
 * Scaled (s = sigma^2): sigma^2 ~ IG(a, b) integrates in closed form,
 *   log p(y | gamma) = -(N/2) log(2 pi) - 1/2 sum log(1 + lambda_i)
 *        + log G(a + N/2) - (a + N/2) log(b + R/2) [+ a log b - log G(a)],
 *   R = y'y - sum c~_i^2 / (1 + lambda_i).
 * As written (s = 1) it does not: p(y | gamma) is a 1-D integral over
 * t = log sigma^2, done by the trapezoid rule with step 0.02 on [t0 - 14,
 * t0 + 4], t0 = log(y'y / N). The integrand is smooth and its log is
 * concave near the mode with curvature ~ N/2, so the rule's error is of
 * order exp(-2 pi^2 / (h^2 N / 2)) (negligible for N < 10^5), and the range
 * leaves out mass only when the residual variance of a model is below
 * e^-14 of the total (R^2 > 0.999999).
 */
#include "ssvs.h"
#include "../../linalg/rank1.h"
#include "../../run/chains.h"
#include "../../run/ckpt.h"

#include <gsl/gsl_cblas.h> /* cblas_* (OpenBLAS provides them; cblas.h clashes with GSL's) */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <lapacke.h>
#include <omp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double bsl_ssvs_log_gprior(const bsl_ssvs_prior *sp, const bsl_mprior *mp, size_t m, size_t k)
{
    if (sp->p > 0) return (double)k * log(sp->p) + (double)(m - k) * log1p(-sp->p);
    return bsl_mprior_log(mp, k);
}

/* Eigen-decomposition of V^{1/2} G V^{1/2}: lam (m), ct = Q' V^{1/2} b. */
static int eig_parts(const bsl_design *D, const double *v, double *lam, double *ct, double *H)
{
    const size_t m = D->m;
    double *w = ct + m;
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < m; i++) H[i + j * m] = sqrt(v[i] * v[j]) * D->G[i + j * m];
    if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'L', (int)m, H, (int)m, lam) != 0) return -1;
    for (size_t i = 0; i < m; i++) w[i] = sqrt(v[i]) * D->Bty[i * D->c];
    for (size_t i = 0; i < m; i++) {
        double t = 0;
        for (size_t l = 0; l < m; l++) t += H[l + i * m] * w[l];
        ct[i] = t;
    }
    return 0;
}

static double lik_from_eig(const bsl_ssvs_prior *sp, const bsl_design *D, const double *lam,
                           const double *ct, double sigma2)
{
    const double N = (double)(D->n - D->q), s = sp->scaled ? sigma2 : 1.0;
    double ld = 0, q = 0;
    for (size_t i = 0; i < D->m; i++) {
        const double li = fmax(lam[i], 0.0);
        ld += log1p(s * li / sigma2);
        q += ct[i] * ct[i] / (sigma2 / s + li);
    }
    return -0.5 * N * log(2 * M_PI * sigma2) - 0.5 * ld - (D->yy[0] - q) / (2 * sigma2);
}

double bsl_ssvs_log_lik_sigma2(const bsl_ssvs_prior *sp, const bsl_design *D, const double *v,
                               double sigma2)
{
    const size_t m = D->m;
    double *buf = bsl_malloc(m * m + 3 * m + 1, sizeof(double));
    if (!buf) return NAN;
    double r = NAN;
    if (eig_parts(D, v, buf, buf + m, buf + 3 * m) == 0) r = lik_from_eig(sp, D, buf, buf + m, sigma2);
    free(buf);
    return r;
}

static double log_ig(const bsl_ssvs_prior *sp, double t)
{
    /* log IG(sigma^2 = e^t; a, b) + t (Jacobian); a = b = 0: 1/sigma^2 */
    double r = -(sp->a + 1) * t + t - (sp->b > 0 ? sp->b * exp(-t) : 0);
    if (sp->a > 0) r += sp->a * log(sp->b) - lgamma(sp->a);
    return r;
}

static double marginal_from_eig(const bsl_ssvs_prior *sp, const bsl_design *D, const double *lam,
                                const double *ct)
{
    const double N = (double)(D->n - D->q);
    if (sp->scaled) {
        double ld = 0, q = 0;
        for (size_t i = 0; i < D->m; i++) {
            const double li = fmax(lam[i], 0.0);
            ld += log1p(li);
            q += ct[i] * ct[i] / (1 + li);
        }
        const double an = sp->a + 0.5 * N, R = fmax(D->yy[0] - q, 0.0);
        double r = -0.5 * N * log(2 * M_PI) - 0.5 * ld + lgamma(an) - an * log(sp->b + 0.5 * R);
        if (sp->a > 0) r += sp->a * log(sp->b) - lgamma(sp->a);
        return r;
    }
    const double h = 0.02, t0 = log(D->yy[0] / N);
    double mx = -INFINITY, sum = 0;
    for (double t = t0 - 14; t <= t0 + 4; t += h) {
        const double g = lik_from_eig(sp, D, lam, ct, exp(t)) + log_ig(sp, t);
        if (g > mx) {
            sum = sum * exp(mx - g) + 1;
            mx = g;
        } else {
            sum += exp(g - mx);
        }
    }
    return mx + log(sum * h);
}

double bsl_ssvs_log_marginal(const bsl_ssvs_prior *sp, const bsl_design *D, const double *v)
{
    const size_t m = D->m;
    double *buf = bsl_malloc(m * m + 3 * m + 1, sizeof(double));
    if (!buf) return NAN;
    double r = NAN;
    if (eig_parts(D, v, buf, buf + m, buf + 3 * m) == 0) r = marginal_from_eig(sp, D, buf, buf + m);
    free(buf);
    return r;
}

int bsl_ssvs_enumerate(const bsl_ssvs_prior *sp, const bsl_vs_problem *pb, double *pip,
                       double *size_prob, basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t m = D->m;
    if (m > 20) return bsl_fail(err, BASEL_ERANGE, "spike-and-slab enumeration: m = %zu > 20", m);
    if (!D->G || D->c != 1)
        return bsl_fail(err, BASEL_EINVAL, "spike-and-slab enumeration needs a dense Gram matrix and one output");
    const size_t total = (size_t)1 << m;
    double *lp = bsl_malloc(total, sizeof(double));
    double *v0 = bsl_malloc(2 * m + 1, sizeof(double)), *v = v0 + m;
    if (!lp || !v0) {
        free(lp);
        free(v0);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (bsl_ssvs_spike(sp, D, v0, NULL)) {
        free(lp);
        free(v0);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t g = 0; g < total; g++) {
        size_t k = 0;
        for (size_t j = 0; j < m; j++) {
            const int in = (g >> j) & 1;
            v[j] = in ? sp->c * v0[j] : v0[j];
            k += (size_t)in;
        }
        lp[g] = bsl_ssvs_log_marginal(sp, D, v) + bsl_ssvs_log_gprior(sp, &pb->mprior, m, k);
    }
    const double z = bsl_logsumexp(lp, total);
    memset(pip, 0, m * sizeof *pip);
    memset(size_prob, 0, (m + 1) * sizeof *size_prob);
    for (size_t g = 0; g < total; g++) {
        const double w = exp(lp[g] - z);
        size_t k = 0;
        for (size_t j = 0; j < m; j++)
            if ((g >> j) & 1) {
                pip[j] += w;
                k++;
            }
        size_prob[k] += w;
    }
    free(lp);
    free(v0);
    return isfinite(z) ? BASEL_OK : bsl_fail(err, BASEL_ENUMERIC, "spike-and-slab enumeration: non-finite marginal");
}

/* ------------------------------------------------------------------ engine
 *
 * One iteration is one sweep over j = 0..m-1 (systematic scan).
 *
 * As written (collapsed=0), paper 001's Gibbs sampler, from G, B'y and y'y
 * only (per-iteration cost O(m^3), independent of n):
 *   gamma_j | beta_j, sigma^2   eq. (8): odds = prior odds x
 *                               N(beta_j; 0, s c v0_j) / N(beta_j; 0, s v0_j)
 *                               (sigma^2 | gamma has no gamma in it here);
 *   beta | gamma, sigma^2       eq. (12): N(A^{-1} B'y, sigma^2 A^{-1}),
 *                               A = G + sigma^2 R^{-1} (scaled: G + R^{-1}),
 *                               drawn as A^{-1}B'y + sigma L^{-T} xi;
 *   sigma^2 | beta, gamma       eq. (14), "+ RSS/2" (the OCR's 1/(2(..)) is a
 *                               slip): IG(a + N/2, b + RSS/2), RSS = y'y -
 *                               2 beta'B'y + beta'G beta; scaled adds the
 *                               prior's m/2 and sum beta_j^2 / (2 v_j).
 * Collapsed (collapsed=1): beta integrated (and sigma^2 when scaled); each
 * gamma_j is drawn from p(gamma_j | gamma_-j, y [, sigma^2]), from the two
 * log marginals the model table gives (try_add / try_remove). The
 * spike-and-slab model (model/ssvs_model.c) keeps the full m x m A = G +
 * diag(w), w_j = 1/v_j (scaled) or sigma^2/v_j; flipping gamma_j changes
 * one diagonal entry, costs O(1) to score and O(m^2) to commit, and A is
 * refactorised every m flips and whenever sigma^2 changes. Unscaled
 * collapsed is partially collapsed: gamma | sigma^2 (beta integrated), then
 * the model's nuisance update, beta | gamma, sigma^2 and sigma^2 | beta as
 * above, a valid order. With --prior g (or ridge, hier, aic, bic, mdl) the
 * same sweep is a collapsed Gibbs sampler over indicators on that
 * coefficient prior's Gaussian model.
 *
 * PIPs: res->pip averages the conditional inclusion probabilities computed
 * at every gamma_j update (Rao-Blackwellised; valid since the state before
 * each update is a posterior draw); the raw frequencies of gamma_j = 1 go
 * to bsl_ssvs_run_ex's freq and their largest gap to engine_note.
 */

#define SS_TRACE_LEN 1000

typedef struct ss_ctx {
    const bsl_vs_problem *pb;
    const bsl_ssvs_prior *sp;
    const bsl_coef_prior *prior; /* the collapsed chains' model (model table) */
    const double *v0;
    size_t m, kmax;   /* kmax: size of the result's size table */
    double N;
    size_t max_models;
} ss_ctx;

typedef struct ss_chain {
    bsl_cmodel *M;    /* collapsed: the model, through the table */
    gsl_rng *r;
    unsigned char *gam;
    size_t k;
    double *v, *A, *u, *beta, *work; /* as written: the state of eqs. 8, 12, 14 */
    double sigma2;
    double nu_sum[2]; /* post-burn sums of the collapsed model's nuisance parameters */
    double *rb, *freq, *size_cnt, *coef;
    size_t *act, *prev;
    size_t nprev;
    double run_len, evals, flips;
    bsl_modelset set;
    unsigned id;           /* the chain's number */
    bsl_vs_result draws;   /* this chain's draws, appended to the result in chain order */
    size_t it;             /* the next sweep (burn-in included) */
} ss_chain;

static int sigma_sampled(const bsl_ssvs_prior *sp) { return !(sp->collapsed && sp->scaled); }

static double prec(const ss_ctx *x, const ss_chain *ch, size_t j)
{
    return (x->sp->scaled ? 1.0 : ch->sigma2) / ch->v[j];
}

/* Log odds of gamma_j = 1 vs 0 from the model prior, k_rest = size of the rest. */
static double prior_log_odds(const ss_ctx *x, size_t k_rest)
{
    const double l1 = bsl_ssvs_log_gprior(x->sp, &x->pb->mprior, x->m, k_rest + 1);
    const double l0 = bsl_ssvs_log_gprior(x->sp, &x->pb->mprior, x->m, k_rest);
    if (l0 == -INFINITY) return INFINITY;
    return l1 - l0;
}

static double logistic(double t) { return t >= 0 ? 1.0 / (1.0 + exp(-t)) : exp(t) / (1.0 + exp(t)); }

static void set_gamma(const ss_ctx *x, ss_chain *ch, size_t j, int in)
{
    ch->gam[j] = (unsigned char)in;
    ch->v[j] = in ? x->sp->c * x->v0[j] : x->v0[j];
    ch->k = in ? ch->k + 1 : ch->k - 1;
    ch->flips++;
}

/* Collapsed: gamma_j | gamma_-j, y for j = 0..m-1 on the model table, each
 * from the two log marginals of the model with and without j (the
 * spike-and-slab model: O(1) each, O(m^2) per switch; any other model of
 * the table, e.g. the g-prior: a collapsed Gibbs sampler over indicators). */
static int collapsed_sweep(const ss_ctx *x, ss_chain *ch, int keep)
{
    bsl_cmodel *M = ch->M;
    for (size_t j = 0; j < x->m; j++) {
        const int cur = ch->gam[j];
        const double lm = bsl_cmodel_log_ml(M);
        const double lm_other = cur ? bsl_cmodel_try_remove(M, j) : bsl_cmodel_try_add(M, j);
        if (lm_other != lm_other) return BASEL_ENUMERIC;
        const double prior_lo = prior_log_odds(x, ch->k - (size_t)cur);
        const double lo = prior_lo + (cur ? lm - lm_other : lm_other - lm);
        /* j cannot enter (model of probability zero): out, whatever the prior */
        const double p1 = !cur && lm_other == -INFINITY ? 0.0 : lo == INFINITY ? 1.0 : logistic(lo);
        if (keep) ch->rb[j] += p1;
        const int nw = gsl_rng_uniform(ch->r) < p1;
        if (nw != cur) {
            if (nw && bsl_cmodel_add(M, j) != BASEL_OK) return BASEL_ENUMERIC;
            if (!nw) bsl_cmodel_remove(M, j);
            set_gamma(x, ch, j, nw);
        }
    }
    ch->evals += (double)x->m;
    return BASEL_OK;
}

/* beta | gamma, sigma^2 (eq. 12): factor A = G + diag(w) afresh, u = mean. */
static int draw_beta(const ss_ctx *x, ss_chain *ch)
{
    const size_t m = x->m;
    const bsl_design *D = x->pb->D;
    memcpy(ch->A, D->G, m * m * sizeof(double));
    for (size_t j = 0; j < m; j++) ch->A[j + j * m] += prec(x, ch, j);
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (int)m, ch->A, (int)m) != 0) return BASEL_ENUMERIC;
    memcpy(ch->u, D->Bty, m * sizeof(double));
    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (int)m, 1, ch->A, (int)m, ch->u, (int)m);
    for (size_t j = 0; j < m; j++) ch->work[j] = gsl_ran_ugaussian(ch->r);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, (int)m, ch->A, (int)m,
                ch->work, 1);
    const double sigma = sqrt(ch->sigma2);
    for (size_t j = 0; j < m; j++) ch->beta[j] = ch->u[j] + sigma * ch->work[j];
    return BASEL_OK;
}

/* sigma^2 | beta, gamma (eq. 14 with "+ RSS/2"). */
static void draw_sigma2(const ss_ctx *x, ss_chain *ch)
{
    const size_t m = x->m;
    const bsl_design *D = x->pb->D;
    cblas_dsymv(CblasColMajor, CblasLower, (int)m, 1.0, D->G, (int)m, ch->beta, 1, 0.0, ch->work, 1);
    const double bGb = cblas_ddot((int)m, ch->beta, 1, ch->work, 1);
    const double bb = cblas_ddot((int)m, ch->beta, 1, D->Bty, 1);
    const double rss = fmax(D->yy[0] - 2 * bb + bGb, 0.0);
    double shape = x->sp->a + 0.5 * x->N, rate = x->sp->b + 0.5 * rss;
    if (x->sp->scaled) {
        double q = 0;
        for (size_t j = 0; j < m; j++) q += ch->beta[j] * ch->beta[j] / ch->v[j];
        shape += 0.5 * (double)m;
        rate += 0.5 * q;
    }
    ch->sigma2 = 1.0 / gsl_ran_gamma(ch->r, shape, 1.0 / rate);
}

/* gamma_j | beta_j, sigma^2 for every j (eq. 8). */
static void gamma_given_beta(const ss_ctx *x, ss_chain *ch, int keep)
{
    const double c = x->sp->c, half_log_c = 0.5 * log(c);
    const double s = x->sp->scaled ? ch->sigma2 : 1.0;
    for (size_t j = 0; j < x->m; j++) {
        const int cur = ch->gam[j];
        const double b2 = ch->beta[j] * ch->beta[j];
        /* log N(b; 0, s c v0) - log N(b; 0, s v0) */
        const double llr = -half_log_c + b2 * (1 - 1 / c) / (2 * s * x->v0[j]);
        const double lo = prior_log_odds(x, ch->k - (size_t)cur) + llr;
        const double p1 = lo == INFINITY ? 1.0 : logistic(lo);
        if (keep) ch->rb[j] += p1;
        const int nw = gsl_rng_uniform(ch->r) < p1;
        if (nw != cur) set_gamma(x, ch, j, nw);
    }
    ch->evals += (double)x->m;
}

static int iterate(const ss_ctx *x, ss_chain *ch, int keep)
{
    const size_t m = x->m;
    int rc = BASEL_OK;
    if (!x->sp->collapsed) {
        gamma_given_beta(x, ch, keep);
        if ((rc = draw_beta(x, ch))) return rc;
        if (keep) cblas_daxpy((int)m, 1.0, ch->u, 1, ch->coef, 1);
        draw_sigma2(x, ch);
        return BASEL_OK;
    }
    if ((rc = collapsed_sweep(x, ch, keep))) return rc;
    if (keep) {
        bsl_cmodel_coef_all(ch->M, m, 1, ch->beta, ch->work);
        cblas_daxpy((int)m, 1.0, ch->beta, 1, ch->coef, 1);
    }
    /* unscaled spike and slab: beta | gamma, sigma^2 and sigma^2 | beta */
    return bsl_cmodel_draw_nuisance(ch->M, ch->r);
}

/* Post-burn bookkeeping of iteration t (the state after the sweep). */
static int ss_record(const ss_ctx *x, ss_chain *ch, bsl_trace *trace, size_t t, const bsl_run *run)
{
    const size_t m = x->m;
    size_t k = 0;
    for (size_t j = 0; j < m; j++)
        if (ch->gam[j]) {
            ch->act[k++] = j;
            ch->freq[j]++;
        }
    ch->size_cnt[k]++;
    bsl_trace_record(trace, t, ch->act, k);
    /* visited subsets: runs of an unchanged slab set count once each */
    const int same = t > 0 && k == ch->nprev && memcmp(ch->act, ch->prev, k * sizeof(size_t)) == 0;
    if (!same) {
        if (ch->run_len > 0 && bsl_modelset_add(&ch->set, ch->prev, ch->nprev, ch->run_len, NAN))
            return BASEL_ENOMEM;
        memcpy(ch->prev, ch->act, k * sizeof(size_t));
        ch->nprev = k;
        ch->run_len = 0;
    }
    ch->run_len++;
    double sc[2] = {ch->sigma2, 0}; /* collapsed: the model's (unscaled spike and slab) */
    if (ch->M && bsl_cmodel_nuisance(ch->M, NULL, NULL) <= 2) bsl_cmodel_nuisance(ch->M, sc, NULL);
    ch->nu_sum[0] += sc[0];
    ch->nu_sum[1] += sc[1];
    if (!(run->keep_draws && t % (run->thin ? run->thin : 1) == 0)) return BASEL_OK;
    return bsl_vs_add_draw(&ch->draws, ch->id, ch->act, k, sc);
}

/* What every chain reads and the chains' states (bsl_chain_fn's ctx). */
typedef struct ss_run_ctx {
    const ss_ctx *x;
    ss_chain *ch;
    const bsl_run *run;
} ss_run_ctx;

/* Run one chain (bsl_chain_fn); one progress unit per sweep. */
static int ss_run_chain(void *ctx, size_t chain, unsigned long seed, bsl_ticker *tick)
{
    const ss_run_ctx *rx = ctx;
    const ss_ctx *x = rx->x;
    ss_chain *ch = &rx->ch[chain];
    const bsl_run *run = rx->run;
    const size_t total = run->burn + run->iter;
    int rc = BASEL_OK;
    if (!tick->resumed) {
        gsl_rng_set(ch->r, seed);
        /* start: every atom in the spike, plus kmin random atoms in the slab */
        for (size_t tries = 0; ch->k < x->pb->mprior.kmin && x->sp->p < 0 && tries < 100 * x->m; tries++) {
            const size_t j = gsl_rng_uniform_int(ch->r, x->m);
            if (ch->gam[j] || (ch->M && bsl_cmodel_add(ch->M, j) != BASEL_OK)) continue;
            set_gamma(x, ch, j, 1);
        }
        ch->it = 0;
    }
    for (; ch->it < total && !rc; ch->it++) {
        /* a boundary: the sweeps before it are done (chains.h) */
        if (bsl_tick(tick, 1)) return BASEL_ECANCELLED;
        const size_t it = ch->it;
        const int keep = it >= run->burn;
        if ((rc = iterate(x, ch, keep))) break;
        if (keep) rc = ss_record(x, ch, tick->trace, it - run->burn, run);
    }
    if (!rc && ch->run_len > 0 && bsl_modelset_add(&ch->set, ch->prev, ch->nprev, ch->run_len, NAN))
        rc = BASEL_ENOMEM;
    return rc;
}

/* A chain's state in a checkpoint (ckpt.h): the indicators, the prior
 * variances, beta and sigma^2 the next sweep reads (as written), or the
 * collapsed model's state through the model table; the sums and the
 * visited models. A, u and work are refilled before each use. */
static void ss_chain_io(void *ctx, size_t chain, bsl_ck *k)
{
    const ss_run_ctx *rx = ctx;
    ss_chain *ch = &rx->ch[chain];
    const size_t m = rx->x->m;
    bsl_ck_rng(k, ch->r);
    bsl_ck_val(k, ch->it);
    bsl_ck_bytes(k, ch->gam, m);
    bsl_ck_val(k, ch->k);
    bsl_ck_doubles(k, ch->v, m);
    bsl_ck_doubles(k, ch->beta, m);
    bsl_ck_val(k, ch->sigma2);
    if (ch->M) bsl_ck_cmodel(k, ch->M);
    bsl_ck_doubles(k, ch->nu_sum, 2);
    bsl_ck_doubles(k, ch->rb, m);
    bsl_ck_doubles(k, ch->freq, m);
    bsl_ck_doubles(k, ch->size_cnt, rx->x->kmax + 1);
    bsl_ck_doubles(k, ch->coef, m);
    bsl_ck_val(k, ch->nprev);
    if (!k->rc && ch->nprev > m) k->rc = BASEL_EPARSE;
    bsl_ck_bytes(k, ch->prev, ch->nprev * sizeof *ch->prev);
    bsl_ck_val(k, ch->run_len);
    bsl_ck_val(k, ch->evals);
    bsl_ck_val(k, ch->flips);
    bsl_ck_modelset(k, &ch->set, m);
    bsl_ck_draws(k, &ch->draws);
}

static void ss_chain_free(ss_chain *ch)
{
    bsl_cmodel_free(ch->M);
    gsl_rng_free(ch->r);
    free(ch->gam);
    free(ch->v);
    free(ch->A);
    free(ch->u);
    free(ch->beta);
    free(ch->work);
    free(ch->rb);
    free(ch->freq);
    free(ch->size_cnt);
    free(ch->coef);
    free(ch->act);
    free(ch->prev);
    bsl_vs_result_free(&ch->draws);
    bsl_modelset_free(&ch->set);
}

static int ss_chain_init(const ss_ctx *x, ss_chain *ch, const bsl_run *run, size_t chain,
                         basel_error *err)
{
    const size_t m = x->m;
    memset(ch, 0, sizeof *ch);
    ch->r = gsl_rng_alloc(gsl_rng_mt19937);
    ch->gam = bsl_calloc(m, 1);
    ch->v = bsl_malloc(m, sizeof(double));
    ch->A = bsl_malloc(m * m, sizeof(double));
    ch->u = bsl_calloc(m, sizeof(double));
    ch->beta = bsl_calloc(m, sizeof(double));
    ch->work = bsl_calloc(m + 1, sizeof(double));
    ch->rb = bsl_calloc(m, sizeof(double));
    ch->freq = bsl_calloc(m, sizeof(double));
    ch->size_cnt = bsl_calloc(x->kmax + 1, sizeof(double));
    ch->coef = bsl_calloc(m, sizeof(double));
    ch->act = bsl_malloc(m + 1, sizeof(size_t));
    ch->prev = bsl_malloc(m + 1, sizeof(size_t));
    if (!ch->r || !ch->gam || !ch->v || !ch->A || !ch->u || !ch->beta || !ch->work ||
        !ch->rb || !ch->freq || !ch->size_cnt || !ch->coef || !ch->act ||
        !ch->prev || bsl_modelset_init(&ch->set, x->max_models) ||
        bsl_vs_result_init(&ch->draws, m, 1, x->kmax, 1))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    ch->id = (unsigned)chain;
    if (sigma_sampled(x->sp)) { /* sigma^2 is a column of the draws */
        ch->draws.nscalars = 1;
        strcpy(ch->draws.scalar_names[0], "sigma2");
    }
    if (run->keep_draws && run->stream_draws) {
        const int spill = bsl_vs_spill_begin(&ch->draws, err);
        if (spill) return spill;
    }
    memcpy(ch->v, x->v0, m * sizeof(double));
    ch->sigma2 = x->pb->D->yy[0] / x->N;
    return x->sp->collapsed ? bsl_vs_model_create(&ch->M, x->pb, x->prior, x->kmax, err) : BASEL_OK;
}

/* The kept sweeps of each chain: all iter of them, unless the run was
 * interrupted (cs->partial: then the chains that kept some, each over its
 * own, with a paused chain's current run of one subset counted). Returns
 * the number of chains kept, or BASEL_ENOMEM as (size_t)-1. */
static size_t ss_kept(const ss_ctx *x, ss_chain *ch, const bsl_run *run, bsl_chains *cs, bsl_vs_result *res,
                      size_t *kept)
{
    const size_t chains = run->chains;
    res->iter_done = 0;
    for (size_t h = 0; h < chains; h++) {
        kept[h] = ch[h].it > run->burn ? ch[h].it - run->burn : 0;
        res->iter_done += (double)ch[h].it;
        if (cs->partial && kept[h] && ch[h].it < run->burn + run->iter && ch[h].run_len > 0 &&
            bsl_modelset_add(&ch[h].set, ch[h].prev, ch[h].nprev, ch[h].run_len, NAN))
            return (size_t)-1;
    }
    (void)x;
    if (!cs->partial) return chains;
    res->iter_planned = (double)chains * (double)(run->burn + run->iter);
    return res->chains = bsl_chains_keep(cs, kept);
}

static int ss_merge(const ss_ctx *x, ss_chain *ch, const bsl_run *run, bsl_chains *cs,
                    bsl_vs_result *res, double *freq)
{
    const size_t m = x->m, chains = run->chains;
    size_t *kept = bsl_calloc(chains, sizeof *kept);
    const size_t used = kept ? ss_kept(x, ch, run, cs, res, kept) : (size_t)-1;
    if (used == (size_t)-1 || used == 0) {
        free(kept);
        return used ? BASEL_ENOMEM : BASEL_INTERRUPTED;
    }
    double gap = 0, flips = 0;
    if (freq) memset(freq, 0, m * sizeof *freq);
    for (size_t h = 0, hh = 0; h < chains; h++) {
        if (!kept[h]) continue;
        const double iter = (double)kept[h];
        for (size_t j = 0; j < m; j++) {
            const double rb = ch[h].rb[j] / iter, f = ch[h].freq[j] / iter;
            res->pip_chain[hh * m + j] = rb;
            res->pip[j] += rb / (double)used;
            res->coef_bma[j] += ch[h].coef[j] / iter / (double)used;
            if (freq) freq[j] += f / (double)used;
            gap = fmax(gap, fabs(rb - f));
        }
        hh++;
        for (size_t k = 0; k <= x->kmax; k++) res->size_prob[k] += ch[h].size_cnt[k] / iter / (double)used;
        res->evaluations += ch[h].evals;
        for (int i = 0; x->prior && bsl_coef_sampled(x->prior) && i < 2; i++) /* collapsed: the model's nuisance */
            res->nu_mean[i] += ch[h].nu_sum[i] / iter / (double)used;
        flips += ch[h].flips;
        if (bsl_modelset_absorb(&res->models, &ch[h].set)) {
            free(kept);
            return BASEL_ENOMEM;
        }
    }
    free(kept);
    bsl_modelset_sort(&res->models);
    char how[160] = ""; /* the model's own line (the GLM: its latent step) */
    if (ch[0].M) bsl_cmodel_describe(ch[0].M, how, sizeof how);
    if (x->prior->type->model != BSL_COEF_MODEL_SSVS)
        snprintf(res->engine_note, sizeof res->engine_note,
                 "collapsed Gibbs over indicators, %s prior%s%s; flips per sweep %.3f; pip=rao-blackwell "
                 "(max |rb - frequency| per chain %.4f)",
                 x->prior->type->name, *how ? "; " : "", how,
                 flips / res->iter_done, gap);
    else snprintf(res->engine_note, sizeof res->engine_note,
             "ssvs %s%s: tau=%g%s c=%g; flips per sweep %.3f; pip=rao-blackwell (max |rb - "
             "frequency| per chain %.4f)",
             x->sp->collapsed ? "collapsed" : "as written (eqs. 8, 12, 14)",
             x->sp->scaled ? ", scaled by sigma2" : "", x->sp->tau2 > 0 ? x->sp->tau2 : x->sp->tau,
             x->sp->tau2 > 0 ? " (tau2)" : "", x->sp->c,
             flips / res->iter_done, gap);
    if (bsl_chains_vs_diagnostics(cs, res)) return BASEL_ENOMEM;
    for (size_t h = 0; h < chains && run->keep_draws; h++)
        if (bsl_chains_append_draws(res, &ch[h].draws)) return BASEL_ENOMEM;
    return BASEL_OK;
}

static int ss_check(const bsl_vs_problem *pb, const bsl_run *run, basel_error *err)
{
    const bsl_design *D = pb->D;
    /* the logistic model (ss_prior) reads the raw columns, never the Gram matrix */
    const int glm = pb->model && pb->prior.glm;
    if (!D->G && !glm)
        return bsl_fail(err, BASEL_EINVAL,
                        "--method ssvs needs the dense Gram matrix of all %zu atoms (the spike keeps "
                        "every atom in the model); the design is streaming",
                        D->m);
    if (D->c != 1) return bsl_fail(err, BASEL_EINVAL, "--method ssvs supports one target, not %zu", D->c);
    if (run->iter == 0) return bsl_fail(err, BASEL_EINVAL, "--iter must be positive");
    for (size_t j = 0; j < D->m; j++)
        if (!D->usable[j])
            return bsl_fail(err, BASEL_EINVAL, "atom %zu is constant (in the span of the intercept)", j + 1);
    return BASEL_OK;
}

/* The model of the chains: --prior ssvs[:...] (the default) is the
 * spike-and-slab model; any other coefficient prior (g, ridge, hier, ...)
 * runs the collapsed Gibbs sampler over indicators on that prior's model,
 * with the model prior of the problem (sp is then "collapsed, p from the
 * model prior"). */
static int ss_prior(const bsl_vs_problem *pb, bsl_coef_prior *cp, bsl_ssvs_prior *sp, basel_error *err)
{
    const char *spec = pb->prior_spec && *pb->prior_spec ? pb->prior_spec : "ssvs";
    int rc = BASEL_OK;
    if (pb->model && pb->prior.glm) {
        /* --family binomial (subset_glm.c parsed the prior and chose the
         * Polya-Gamma table, model/glm.h): the collapsed sweep below flips
         * each gamma_j from p(gamma_j | gamma_-j, omega, y), beta
         * integrated given omega, and iterate's nuisance step draws theta
         * and omega once per sweep; both kernels leave p(A, omega | y)
         * invariant (bd.c explains the composition), so the sampler
         * targets the exact logistic posterior with point-mass spikes, the
         * model rj, bd and enumerate fit. George and McCulloch's continuous
         * spike (--prior ssvs) has no logistic form here. */
        *cp = pb->prior;
    } else {
        bsl_spec s;
        if ((rc = bsl_spec_parse(&s, "prior", spec, err))) return rc;
        if (strcmp(s.name, bsl_coef_ssvs.name) == 0) { /* the spike-and-slab prior's table entry */
            rc = bsl_coef_prior_ssvs(cp, spec, err);
            *sp = cp->ssvs;
            /* paper 001 as written (unscaled: beta_j ~ N(0, v_j) whatever
             * sigma^2) with Jeffreys' 1/sigma^2: when the N = n - q rows
             * are no more than the m atoms, X V X' is of full rank N, so
             * p(sigma^2 | y) ~ p(y | sigma^2 -> 0) / sigma^2 is not
             * integrable at 0: no posterior exists (the chain's sigma^2
             * collapses and its Cholesky fails) */
            const double N = (double)(pb->D->n - pb->D->q);
            if (!rc && !sp->scaled && !(sp->a > 0) && N <= (double)pb->D->m)
                rc = bsl_fail(err, BASEL_EINVAL,
                              "--prior ssvs with %zu inputs and %.0f rows after the intercept: with sigma^2's "
                              "Jeffreys prior and as many inputs as rows, the posterior does not exist (sigma^2 "
                              "goes to 0); give sigma^2 a proper prior (--prior ssvs:a=1,b=1), scale the "
                              "coefficients' prior by sigma^2 (--prior ssvs:scaled=1), or use --prior g",
                              pb->D->m, N);
            return rc;
        }
        rc = bsl_coef_prior_parse(cp, spec, pb->D->n, pb->D->c, err);
        if (rc) return rc;
    }
    if (cp->sample_nuisance) { /* paper 004's start: lambda = 1, sigma^2 = var(y) / 4 */
        cp->sigma2 = pb->D->yy[0] / (double)(pb->D->n - pb->D->q) / 4;
        if (!(cp->lambda > 0)) cp->lambda = 1;
    }
    memset(sp, 0, sizeof *sp);
    sp->p = -1;
    sp->c = 1;
    sp->scaled = sp->collapsed = 1;
    return BASEL_OK;
}

int bsl_ssvs_run_ex(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
                    double *freq, basel_error *err)
{
    bsl_ssvs_prior sp;
    bsl_coef_prior cp;
    int rc = ss_check(pb, run, err);
    if (!rc) rc = ss_prior(pb, &cp, &sp, err);
    if (rc) return rc;
    const size_t m = pb->D->m, chains = run->chains ? run->chains : 1;
    const double t0 = omp_get_wtime();
    ss_ctx x = {pb, &sp, &cp, NULL, m, sp.p > 0 ? m : pb->kmax, (double)(pb->D->n - pb->D->q), 100000};
    if ((rc = bsl_params_size(run->params, "max-models", 20000, 0, (size_t)1 << 40, &x.max_models, err)))
        return rc;
    bsl_run r1 = *run;
    r1.chains = chains;
    double *v0 = bsl_malloc(m, sizeof *v0);
    ss_chain *ch = bsl_calloc(chains, sizeof *ch);
    if (!v0 || !ch || bsl_vs_result_init(res, m, 1, x.kmax, chains) ||
        !(res->pip_chain = bsl_calloc(chains * m, sizeof(double)))) {
        free(v0);
        free(ch);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    res->models.max_items = x.max_models;
    if (bsl_ssvs_spike(&sp, pb->D, v0, NULL)) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    x.v0 = v0;
    for (size_t h = 0; h < chains && !rc; h++)
        rc = ss_chain_init(&x, &ch[h], &r1, h, err);
    bsl_chains cs = {.chains = chains, .max_time = run->max_time, .threads = run->threads, .seed = run->seed,
                     .units = run->burn + run->iter, .progress = run->progress,
                     .progress_user = run->progress_user, .trace_m = m,
                     .trace_iter = run->iter, .trace_len = SS_TRACE_LEN,
                     .ckpt = {run->checkpoint, run->checkpoint_every, run->restart, run->run_id, ss_chain_io},
                     .ranks = run->ranks, .err = err};
    if (!rc) {
        ss_run_ctx rx = {&x, ch, &r1};
        rc = bsl_chains_run(&cs, ss_run_chain, &rx);
        if (rc == BASEL_INTERRUPTED && cs.partial) rc = BASEL_OK; /* a fit of what was done */
        else if (rc && !cs.reported)
            bsl_fail(err, rc, "ssvs chain %zu: %s", cs.failed,
                     rc == BASEL_ECANCELLED ? "cancelled"
                     : rc == BASEL_ENOMEM   ? "out of memory"
                     : rc == BASEL_EIO      ? "cannot write the draws to their temporary file"
                                            : "matrix not positive definite");
    }
    for (size_t h = 0; h < chains && !rc; h++) /* a subset visited without a score (model.h fault) */
        if (ch[h].M && bsl_cmodel_fault(ch[h].M)) rc = bsl_fail(err, BASEL_EINVAL, "%s", bsl_cmodel_fault(ch[h].M));
    if (!rc && (rc = ss_merge(&x, ch, &r1, &cs, res, freq)))
        bsl_fail(err, rc, rc == BASEL_INTERRUPTED ? "interrupted before any iteration was kept" : "out of memory");
    bsl_chains_free(&cs);
    for (size_t h = 0; h < chains; h++) ss_chain_free(&ch[h]);
    free(ch);
    free(v0);
    res->seconds = omp_get_wtime() - t0;
    return rc;
}

int bsl_ssvs_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
                 basel_error *err)
{
    return bsl_ssvs_run_ex(pb, run, res, NULL, err);
}
