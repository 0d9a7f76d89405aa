/*
 * glm_exact.c: the logistic regression model with each subset's exact
 * marginal likelihood, for enumeration (bsl_model_glm_exact; glm.h):
 *     p(y | A) = int prod_i Bern(y_i | logit^-1 psi_i) N(theta; 0, Lambda_A^-1) dtheta
 * by importance sampling. Proposal: a multivariate t with nu = 4 degrees
 * of freedom, centred at the posterior mode with scale H^-1 (H the Hessian
 * of -log posterior at the mode: the Laplace approximation), heavier-tailed
 * than the posterior so that the weights have finite variance. With S
 * draws theta_s ~ q and w_s = p(y | theta_s) N(theta_s; 0, Lambda^-1) / q(theta_s),
 *     p^(y | A) = mean(w)   (unbiased),   se(log p^) ~ sd(w) / (sqrt(S) mean(w))  (delta method).
 * Each subset's draws come from an mt19937 seeded by the subset (its
 * sorted atoms) and is_seed, so a subset's number does not depend on the
 * order the walk reaches it. coef_mean is the importance-sampling posterior
 * mean. The largest standard error over the subsets scored is the model's
 * describe() line, which enumeration puts in its note.
 *
 * Cost per subset: Newton (a few O(n d^2) steps) and S O(n d) likelihoods.
 */
#include "glm.h"

#include <float.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IS_NU 4.0 /* the proposal's degrees of freedom */

/* The subsets scored, by their sorted atoms: a subset's estimate is a
 * function of the subset and the seed alone (its draws are seeded by
 * them), so a sampler that comes back to a subset reads it instead of
 * drawing S importance samples again: the same numbers, found in O(k).
 * Enumeration visits each subset once or twice; a sampler (rj, bd) visits
 * few subsets many times. At most CACHE_MAX entries (then new subsets are
 * scored, not kept). */
#define CACHE_MAX ((size_t)1 << 20)
typedef struct cache_entry {
    unsigned long h; /* 0: empty */
    size_t k;
    size_t *atoms;   /* k, sorted */
    double ml, se;
    double *mean;    /* k + 1, intercept first, then the sorted atoms' */
} cache_entry;

typedef struct exact_state {
    const bsl_design *D;
    size_t n, m, k, kmax, S;
    int family;
    const bsl_coef_prior *gtype; /* a g-type prior (bsl_glm_gtype): no sampling; else NULL */
    char fault[256];             /* the first subset scored without an MLE (gtype), "" none */
    bsl_coef_prior prior;
    unsigned long seed;
    double lam0, lam;
    double *X;           /* n x m raw atom columns */
    double *y;           /* n */
    size_t *active;      /* kmax + 1 (room for a trial) */
    long *pos;           /* m */
    double log_ml, log_ml_se;
    double *mean;        /* kmax + 1: IS posterior mean of theta for the set */
    double max_se;       /* largest se(log p^) over the subsets scored */
    long trial_j;
    double trial_ml, trial_se;
    double *trial_mean;
    /* scratch for one evaluation */
    double *Z, *lamv, *theta, *L, *work, *eps, *psi;
    gsl_rng *r;
    cache_entry *cache;  /* cap slots, open addressing; NULL until the first score */
    size_t cap, used;
} exact_state;

static cache_entry *cache_find(exact_state *E, unsigned long h, const size_t *sorted, size_t k)
{
    if (!E->cap) return NULL;
    for (size_t s = h & (E->cap - 1);; s = (s + 1) & (E->cap - 1)) {
        cache_entry *c = &E->cache[s];
        if (!c->h) return c; /* the empty slot where it would go */
        if (c->h == h && c->k == k && (k == 0 || memcmp(c->atoms, sorted, k * sizeof *sorted) == 0)) return c;
    }
}

/* Room for one more entry (grown at half full); 0 when there is none. */
static int cache_room(exact_state *E)
{
    if (E->used + 1 <= E->cap / 2) return 1;
    if (E->cap >= 2 * CACHE_MAX) return 0;
    const size_t cap = E->cap ? 2 * E->cap : 1024;
    cache_entry *old = E->cache, *c = calloc(cap, sizeof *c);
    if (!c) return 0;
    const size_t old_cap = E->cap;
    E->cache = c;
    E->cap = cap;
    for (size_t s = 0; s < old_cap; s++)
        if (old[s].h) *cache_find(E, old[s].h, old[s].atoms, old[s].k) = old[s];
    free(old);
    return 1;
}

static void cache_free(exact_state *E)
{
    for (size_t s = 0; s < E->cap; s++) {
        free(E->cache[s].atoms);
        free(E->cache[s].mean);
    }
    free(E->cache);
    E->cache = NULL;
    E->cap = E->used = 0;
}

/* The mean in the caller's atom order from one in sorted order. */
static void unsort_mean(const size_t *atoms, const size_t *sorted, size_t k, const double *in, double *mean)
{
    mean[0] = in[0];
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++)
            if (sorted[b] == atoms[a]) mean[a + 1] = in[b + 1];
}

/* log p(y | theta) + log N(theta; 0, Lambda^-1) up to the prior's
 * constant, and psi = Z theta. */
static double log_post(int family, const double *Z, size_t n, size_t d, const double *y, const double *lam,
                       const double *theta, double *psi)
{
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t l = 0; l < d; l++) s += Z[i + l * n] * theta[l];
        psi[i] = s;
    }
    double f = bsl_glm_loglik(family, y, psi, n);
    for (size_t l = 0; l < d; l++) f -= 0.5 * lam[l] * theta[l] * theta[l];
    return f;
}

/* Newton's method on -log posterior: H = Z'WZ + Lambda with W = p (1 - p)
 * (logistic) or e^psi (Poisson), steps halved until the log posterior
 * rises (it is concave, so a halved step always does). */
int bsl_glm_laplace(int family, const double *Z, size_t n, size_t d, const double *y, const double *lam,
                    double *theta, double *L, double *log_joint, double *work)
{
    double *psi = work, *w = psi + n, *g = w + n, *step = g + d, *trial = step + d;
    bsl_chol ch = {0};
    int rc = bsl_chol_init(&ch, d);
    if (rc) return rc;
    double f = log_post(family, Z, n, d, y, lam, theta, psi);
    int stuck = 0; /* no step raises the log posterior: the mode, to rounding */
    for (int it = 0; it < 200; it++) {
        for (size_t i = 0; i < n; i++) {
            const double mu = family == BSL_GLM_POISSON ? exp(psi[i]) : 1.0 / (1.0 + exp(-psi[i]));
            w[i] = family == BSL_GLM_POISSON ? mu : mu * (1 - mu);
            psi[i] = y[i] - mu; /* now the score residual */
        }
        for (size_t l = 0; l < d; l++) {
            g[l] = bsl_dot(Z + l * n, psi, n) - lam[l] * theta[l];
            for (size_t c = 0; c <= l; c++) {
                double s = 0;
                for (size_t i = 0; i < n; i++) s += Z[i + l * n] * w[i] * Z[i + c * n];
                L[l + c * d] = L[c + l * d] = s + (l == c ? lam[l] : 0.0);
            }
        }
        if ((rc = bsl_chol_factor(&ch, L, d, d))) break;
        memcpy(step, g, d * sizeof *step);
        bsl_chol_solve_lower(&ch, step);
        bsl_chol_solve_upper(&ch, step);
        double dec = 0; /* Newton decrement g'H^-1 g */
        for (size_t l = 0; l < d; l++) dec += g[l] * step[l];
        /* dec / 2 is the rise a Newton step promises: below 1e-12 nats the
         * mode is as exact as the log posterior's rounding allows */
        if (dec < 1e-12 || stuck) {
            /* converged: the factor of H at the mode, and the log joint */
            for (size_t c = 0; c < d; c++)
                for (size_t l = 0; l < d; l++) L[l + c * d] = l >= c ? ch.L[l + c * ch.cap] : 0.0;
            double lp = f;
            for (size_t l = 0; l < d; l++) /* a flat coefficient (bsl_glm_gtype's MLE) adds nothing */
                if (lam[l] > 0) lp += 0.5 * log(lam[l] / (2 * M_PI));
            *log_joint = lp;
            bsl_chol_free(&ch);
            return BASEL_OK;
        }
        double t = 1.0, f_new = -INFINITY;
        for (int h = 0; h < 60; h++, t /= 2) {
            for (size_t l = 0; l < d; l++) trial[l] = theta[l] + t * step[l];
            f_new = log_post(family, Z, n, d, y, lam, trial, psi);
            if (f_new > f) break;
        }
        if (!(f_new > f)) {
            (void)log_post(family, Z, n, d, y, lam, theta, psi);
            stuck = 1;
            continue;
        }
        memcpy(theta, trial, d * sizeof *theta);
        f = f_new;
    }
    bsl_chol_free(&ch);
    return rc ? rc : BASEL_ENUMERIC;
}

double bsl_glm_is_estimate(const double *lw, size_t S, double lw_max, double *log_mean, double *se)
{
    double sw = 0, sw2 = 0;
    for (size_t s = 0; s < S; s++) {
        const double w = exp(lw[s] - lw_max);
        sw += w;
        sw2 += w * w;
    }
    const double mw = sw / (double)S, vw = fmax(sw2 / (double)S - mw * mw, 0) * (double)S / (double)(S - 1);
    *log_mean = lw_max + log(mw);
    *se = sqrt(vw / (double)S) / mw;
    return sw;
}

int bsl_glm_gtype(const bsl_coef_prior *p, const double *Z, size_t n, size_t d, const double *y, double *theta,
                  double *L, double *log_ml, double *work)
{
    const int family = p->glm_family;
    const size_t k = d - 1;
    double *flat = work + n * (d + 2) + d * (d + 2), *w = flat + d, *xbar = w + n, lj;
    memset(flat, 0, d * sizeof *flat);
    int rc = bsl_glm_laplace(family, Z, n, d, y, flat, theta, L, &lj, work); /* the MLE */
    if (rc) return rc;
    double *psi = work, *H = work + n;
    for (size_t i = 0; i < n; i++) {
        double v = 0;
        for (size_t l = 0; l < d; l++) v += Z[i + l * n] * theta[l];
        psi[i] = v;
    }
    const double loglik = bsl_glm_loglik(family, y, psi, n);
    /* I_i = var(y_i) at the MLE: BAS's logit_info / poisson_log_info. A
     * fitted probability within 10 DBL_EPSILON of 0 or 1 (a rate of 0: R's
     * glm.fit's test) means the MLE is at infinity (separation): Newton
     * stopped where the gradient underflowed, and Li and Clyde's
     * approximation, built at the MLE, has no value */
    double S = 0;
    const double eps = 10 * DBL_EPSILON;
    for (size_t i = 0; i < n; i++) {
        const double mu = family == BSL_GLM_POISSON ? exp(psi[i]) : 1.0 / (1.0 + exp(-psi[i]));
        if (mu < eps || (family != BSL_GLM_POISSON && mu > 1 - eps)) return BASEL_ENUMERIC;
        w[i] = family == BSL_GLM_POISSON ? mu : mu * (1 - mu);
        S += w[i];
    }
    for (size_t l = 1; l < d; l++) xbar[l] = bsl_dot(Z + l * n, w, n) / S;
    /* Q = sum_i I_i ((x_i - xbar)' beta^)^2 (gglm_lpy) */
    double Q = 0;
    for (size_t i = 0; i < n; i++) {
        double v = 0;
        for (size_t l = 1; l < d; l++) v += (Z[i + l * n] - xbar[l]) * theta[l];
        Q += w[i] * v * v;
    }
    /* gglm_lpy: loglik_mle + M_LN_SQRT_2PI - log(sum I) / 2 + the prior's part */
    *log_ml = loglik + 0.5 * log(2 * M_PI) - 0.5 * log(S) + (k ? p->type->glm_log_ml(p, (double)n, k, Q) : 0.0);
    /* s = 0 (eb-local at g^ = 0) is a point mass at beta = 0: kept a
     * normal of sd 1e-6 of the MLE's */
    const double s = k ? fmax(p->type->glm_shrink(p, (double)n, k, Q), 1e-12) : 1.0, c = 1 / s - 1;
    /* H = F + c J, F_jl = sum I z_j z_l, J_jl = F_jl - S xbar_j xbar_l (j, l >= 1) */
    for (size_t l = 0; l < d; l++)
        for (size_t j = l; j < d; j++) {
            double f = 0;
            for (size_t i = 0; i < n; i++) f += Z[i + j * n] * w[i] * Z[i + l * n];
            H[j + l * d] = H[l + j * d] = f + (l ? c * (f - S * xbar[j] * xbar[l]) : 0.0);
        }
    bsl_chol ch = {0};
    if ((rc = bsl_chol_init(&ch, d))) return rc;
    rc = bsl_chol_factor(&ch, H, d, d);
    for (size_t l = 0; l < d && !rc; l++)
        for (size_t j = 0; j < d; j++) L[j + l * d] = j >= l ? ch.L[j + l * ch.cap] : 0.0;
    bsl_chol_free(&ch);
    if (rc) return rc;
    double shift = 0; /* alpha = alpha^ + (1 - s) xbar' beta^, beta = s beta^ */
    for (size_t l = 1; l < d; l++) {
        shift += (1 - s) * xbar[l] * theta[l];
        theta[l] *= s;
    }
    theta[0] += shift;
    return BASEL_OK;
}

/* A subset's numbers into the cache, unless memory or CACHE_MAX says no. */
static void keep(exact_state *E, unsigned long key, const size_t *sorted, size_t k, double ml, double se,
                 const double *mean)
{
    const size_t d = k + 1;
    if (!cache_room(E)) return;
    cache_entry *c = cache_find(E, key, sorted, k);
    c->atoms = malloc((k ? k : 1) * sizeof *c->atoms);
    c->mean = malloc(d * sizeof *c->mean);
    if (c->atoms && c->mean) {
        memcpy(c->atoms, sorted, k * sizeof *sorted);
        memcpy(c->mean, mean, d * sizeof *mean);
        c->h = key;
        c->k = k;
        c->ml = ml;
        c->se = se;
        E->used++;
    } else {
        free(c->atoms);
        free(c->mean);
        c->atoms = NULL;
        c->mean = NULL;
    }
}

/* The set atoms[0..k) scored: *ml, *se, mean (k + 1). */
static int evaluate(exact_state *E, const size_t *atoms, size_t k, double *ml, double *se, double *mean)
{
    const size_t n = E->n, d = k + 1, S = E->S;
    size_t sorted[64];
    unsigned long h = E->seed * 2654435761UL + 0x9e3779b97f4a7c15UL;
    for (size_t a = 0; a < k; a++) sorted[a] = atoms[a];
    for (size_t a = 1; a < k; a++) /* insertion sort: k is small */
        for (size_t b = a; b > 0 && sorted[b - 1] > sorted[b]; b--) {
            const size_t t = sorted[b];
            sorted[b] = sorted[b - 1];
            sorted[b - 1] = t;
        }
    for (size_t a = 0; a < k; a++) h = (h ^ (sorted[a] + 1)) * 1099511628211UL;
    const unsigned long key = h ? h : 1;
    cache_entry *hit = cache_find(E, key, sorted, k);
    if (hit && hit->h) {
        *ml = hit->ml;
        *se = hit->se;
        unsort_mean(atoms, sorted, k, hit->mean, mean);
        return BASEL_OK;
    }
    gsl_rng_set(E->r, h);
    for (size_t i = 0; i < n; i++) E->Z[i] = 1.0;
    for (size_t a = 0; a < k; a++) memcpy(E->Z + (a + 1) * n, E->X + sorted[a] * n, n * sizeof(double));
    double *acc = E->work + BSL_MAX(E->S + d, BSL_GLM_WORK(n, d));
    E->lamv[0] = E->lam0;
    for (size_t a = 1; a < d; a++) E->lamv[a] = E->lam;
    for (size_t a = 0; a < d; a++) E->theta[a] = 0;
    double log_joint_mode;
    /* start at the intercept-only fit: link(mean y) */
    double ybar = 0;
    for (size_t i = 0; i < n; i++) ybar += E->y[i] / (double)n;
    ybar = fmin(fmax(ybar, 1e-3), E->family == BSL_GLM_POISSON ? 1e300 : 1 - 1e-3);
    E->theta[0] = E->family == BSL_GLM_POISSON ? log(ybar) : log(ybar / (1 - ybar));
    if (E->gtype) { /* closed form (coef_prior.h glm_log_ml): no draws */
        const int rc = bsl_glm_gtype(E->gtype, E->Z, n, d, E->y, E->theta, E->L, ml, E->work);
        if (rc == BASEL_ENUMERIC && !E->fault[0]) { /* the first: exact_fault makes the engine fail with it */
            int w = snprintf(E->fault, sizeof E->fault, "--prior %s: the model of the inputs numbered {",
                             E->gtype->type->name);
            for (size_t a = 0; a < k && w > 0 && (size_t)w < sizeof E->fault; a++)
                w += snprintf(E->fault + w, sizeof E->fault - (size_t)w, "%s%zu", a ? ", " : "", sorted[a] + 1);
            if (w > 0 && (size_t)w < sizeof E->fault)
                snprintf(E->fault + w, sizeof E->fault - (size_t)w,
                         "} (from 1, in the inputs' order) has no MLE (fitted %s: separation; or collinear "
                         "inputs), which BAS's g-type approximation needs; use --prior normal",
                         E->family == BSL_GLM_POISSON ? "rates 0" : "probabilities 0 or 1");
        }
        if (rc == BASEL_ENUMERIC) { /* kept as log marginal -inf: a sampler's next visit costs a lookup */
            memset(acc, 0, d * sizeof *acc);
            keep(E, key, sorted, k, -INFINITY, 0, acc);
        }
        if (rc) return rc;
        *se = 0;
        memcpy(acc, E->theta, d * sizeof *acc);
        unsort_mean(atoms, sorted, k, acc, mean);
        keep(E, key, sorted, k, *ml, *se, acc);
        return BASEL_OK;
    }
    int rc = bsl_glm_laplace(E->family, E->Z, n, d, E->y, E->lamv, E->theta, E->L, &log_joint_mode, E->work);
    if (rc) return rc;
    bsl_chol ch = {.k = d, .cap = d, .L = E->L};
    const double logdet_H = bsl_chol_logdet(&ch);
    const double log_c = gsl_sf_lngamma((IS_NU + (double)d) / 2) - gsl_sf_lngamma(IS_NU / 2) -
                         0.5 * (double)d * log(IS_NU * M_PI) + 0.5 * logdet_H;
    double *lw = E->work, *th = E->work + S;
    double lw_max = -INFINITY;
    memset(acc, 0, d * sizeof *acc);
    for (size_t s = 0; s < S; s++) {
        double e2 = 0;
        for (size_t a = 0; a < d; a++) {
            E->eps[a] = gsl_ran_ugaussian(E->r);
            e2 += E->eps[a] * E->eps[a];
        }
        const double scale = sqrt(IS_NU / gsl_ran_chisq(E->r, IS_NU));
        for (size_t a = 0; a < d; a++) th[a] = E->eps[a] * scale;
        bsl_chol_solve_upper(&ch, th); /* L' delta = eps scale: delta ~ t with scale H^-1 */
        double lprior = 0;
        for (size_t a = 0; a < d; a++) {
            th[a] += E->theta[a];
            lprior += 0.5 * log(E->lamv[a] / (2 * M_PI)) - 0.5 * E->lamv[a] * th[a] * th[a];
        }
        for (size_t i = 0; i < n; i++) {
            double v = 0;
            for (size_t a = 0; a < d; a++) v += E->Z[i + a * n] * th[a];
            E->psi[i] = v;
        }
        const double lq = log_c - 0.5 * (IS_NU + (double)d) * log1p(e2 * scale * scale / IS_NU);
        lw[s] = bsl_glm_loglik(E->family, E->y, E->psi, n) + lprior - lq;
        if (lw[s] > lw_max) { /* rescale the running posterior-mean sums */
            const double f = lw_max > -INFINITY ? exp(lw_max - lw[s]) : 0.0;
            for (size_t a = 0; a < d; a++) acc[a] *= f;
            lw_max = lw[s];
        }
        const double w = exp(lw[s] - lw_max);
        for (size_t a = 0; a < d; a++) acc[a] += w * th[a];
    }
    const double sw = bsl_glm_is_estimate(lw, S, lw_max, ml, se);
    for (size_t a = 0; a < d; a++) acc[a] /= sw; /* the mean, sorted order */
    unsort_mean(atoms, sorted, k, acc, mean);
    (void)log_joint_mode;
    keep(E, key, sorted, k, *ml, *se, acc);
    return BASEL_OK;
}

static void exact_free(void *st)
{
    exact_state *E = st;
    if (!E) return;
    free(E->X);
    free(E->y);
    free(E->active);
    free(E->pos);
    free(E->mean);
    free(E->trial_mean);
    free(E->Z);
    free(E->lamv);
    free(E->theta);
    free(E->L);
    free(E->work);
    free(E->eps);
    free(E->psi);
    gsl_rng_free(E->r);
    cache_free(E);
    free(E);
}

static int rescore(exact_state *E)
{
    const int rc = evaluate(E, E->active, E->k, &E->log_ml, &E->log_ml_se, E->mean);
    if (!rc) E->max_se = fmax(E->max_se, E->log_ml_se);
    return rc;
}

static int exact_create(void **st, const bsl_design *D, const bsl_coef_prior *prior, size_t kmax,
                        basel_error *err)
{
    *st = NULL;
    if (prior->type->model != BSL_COEF_MODEL_GLM && !prior->type->glm_log_ml)
        return bsl_fail(err, BASEL_EINVAL, "the logistic model needs --prior normal or a g-type prior (glm.h)");
    if (D->q != 1 || !D->Y || D->c != 1)
        return bsl_fail(err, BASEL_EINVAL, "the logistic model takes one 0/1 target and the intercept only");
    if (kmax > 60) return bsl_fail(err, BASEL_ERANGE, "the exact logistic marginal is for at most 60 atoms per subset");
    exact_state *E = calloc(1, sizeof *E);
    if (!E) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const size_t n = D->n, m = D->m, d = kmax + 2;
    E->D = D;
    E->n = n;
    E->m = m;
    E->kmax = kmax;
    E->S = prior->is_draws ? prior->is_draws : 4000;
    E->family = prior->glm_family;
    E->seed = prior->is_seed;
    E->prior = *prior;
    E->gtype = prior->type->glm_log_ml ? &E->prior : NULL;
    E->lam0 = 1.0 / (prior->intercept_sd * prior->intercept_sd);
    E->lam = 1.0 / (prior->sd * prior->sd);
    E->X = bsl_malloc(n * m + 1, sizeof(double));
    E->y = bsl_malloc(n, sizeof(double));
    E->active = bsl_malloc(d, sizeof(size_t));
    E->pos = bsl_malloc(m + 1, sizeof(long));
    E->mean = bsl_calloc(d, sizeof(double));
    E->trial_mean = bsl_calloc(d, sizeof(double));
    E->Z = bsl_malloc(n * d, sizeof(double));
    E->lamv = bsl_malloc(d, sizeof(double));
    E->theta = bsl_malloc(d, sizeof(double));
    E->L = bsl_malloc(d * d, sizeof(double));
    /* Newton and bsl_glm_gtype: BSL_GLM_WORK; sampling: S + d; then the mean, d */
    const size_t nw = BSL_MAX(E->S + d, BSL_GLM_WORK(n, d)) + d;
    E->work = bsl_malloc(nw, sizeof(double));
    E->eps = bsl_malloc(d, sizeof(double));
    E->psi = bsl_malloc(n, sizeof(double));
    E->r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!E->X || !E->y || !E->active || !E->pos || !E->mean || !E->trial_mean || !E->Z || !E->lamv || !E->theta ||
        !E->L || !E->work || !E->eps || !E->psi || !E->r) {
        exact_free(E);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < m; j++) {
        bsl_design_raw_column(D, j, E->X + j * n);
        E->pos[j] = -1;
    }
    bsl_glm_design_y(D, E->y);
    E->trial_j = -1;
    const int rc = rescore(E);
    if (rc) {
        exact_free(E);
        return bsl_fail(err, rc, "the GLM's Laplace approximation did not converge");
    }
    *st = E;
    return BASEL_OK;
}

static void exact_copy(void *dst, const void *src)
{
    exact_state *A = dst;
    const exact_state *B = src;
    A->k = B->k;
    memcpy(A->active, B->active, (B->kmax + 1) * sizeof(size_t));
    memcpy(A->pos, B->pos, B->m * sizeof(long));
    memcpy(A->mean, B->mean, (B->kmax + 2) * sizeof(double));
    A->log_ml = B->log_ml;
    A->log_ml_se = B->log_ml_se;
    A->max_se = B->max_se;
    A->trial_j = -1;
}

static size_t exact_k(const void *st) { return ((const exact_state *)st)->k; }
static const size_t *exact_active(const void *st) { return ((const exact_state *)st)->active; }
static long exact_pos(const void *st, size_t j) { return ((const exact_state *)st)->pos[j]; }
static double exact_log_ml(const void *st) { return ((const exact_state *)st)->log_ml; }

static double exact_try_add(void *st, size_t j)
{
    exact_state *E = st;
    if (E->pos[j] >= 0 || E->k >= E->kmax) return -INFINITY;
    if (E->trial_j == (long)j) return E->trial_ml;
    E->active[E->k] = j;
    if (evaluate(E, E->active, E->k + 1, &E->trial_ml, &E->trial_se, E->trial_mean)) return -INFINITY;
    E->trial_j = (long)j;
    return E->trial_ml;
}

static int exact_add(void *st, size_t j)
{
    exact_state *E = st;
    if (exact_try_add(E, j) == -INFINITY) return BASEL_ENUMERIC;
    E->active[E->k] = j;
    E->pos[j] = (long)E->k++;
    E->log_ml = E->trial_ml;
    E->log_ml_se = E->trial_se;
    E->max_se = fmax(E->max_se, E->trial_se);
    memcpy(E->mean, E->trial_mean, (E->k + 1) * sizeof(double));
    E->trial_j = -1;
    return BASEL_OK;
}

static void exact_remove(void *st, size_t j)
{
    exact_state *E = st;
    const long a = E->pos[j];
    if (a < 0) return;
    for (size_t i = (size_t)a; i + 1 < E->k; i++) {
        E->active[i] = E->active[i + 1];
        E->pos[E->active[i]] = (long)i;
    }
    E->pos[j] = -1;
    E->k--;
    E->trial_j = -1;
    if (rescore(E)) E->log_ml = -INFINITY;
}

static double exact_try_remove(void *st, size_t j)
{
    exact_state *E = st;
    const long a = E->pos[j];
    if (a < 0) return -INFINITY;
    size_t rest[64];
    size_t k = 0;
    for (size_t i = 0; i < E->k; i++)
        if (i != (size_t)a) rest[k++] = E->active[i];
    double ml, se;
    return evaluate(E, rest, k, &ml, &se, E->trial_mean) ? -INFINITY : ml;
}

static void exact_drop_scores(void *st, double *out)
{
    exact_state *E = st;
    for (size_t a = 0; a < E->k; a++) out[a] = exact_try_remove(E, E->active[a]);
}

static void exact_coef_mean(const void *st, double *beta)
{
    const exact_state *E = st;
    for (size_t a = 0; a < E->k; a++) beta[a] = E->mean[a + 1];
}

static double exact_sigma2(const void *st, size_t o) { return 1.0; }

/* The state for checkpoints (model.h state_size / _save / _load): the
 * scores of the active set, the largest standard error so far (it is
 * reported), the trial under way and both posterior means, kmax + 2 each
 * (what exact_copy copies, and the trial). A subset's numbers are a
 * function of the subset and the seed, so the cache is not saved: a loaded
 * model that meets a subset again scores it to the same bits. The trial is
 * saved as it stands because exact_add takes trial_mean as it is. */
static size_t exact_state_size(const void *st)
{
    const exact_state *E = st;
    return 6 + 2 * (E->kmax + 2);
}

static void exact_state_save(const void *st, double *out)
{
    const exact_state *E = st;
    out[0] = E->log_ml;
    out[1] = E->log_ml_se;
    out[2] = E->max_se;
    out[3] = (double)E->trial_j;
    out[4] = E->trial_ml;
    out[5] = E->trial_se;
    memcpy(out + 6, E->mean, (E->kmax + 2) * sizeof *out);
    memcpy(out + 6 + E->kmax + 2, E->trial_mean, (E->kmax + 2) * sizeof *out);
}

/* Refuses (BASEL_EINVAL, the model unchanged) a state of another size, a
 * NaN, a trial atom out of range, and active atoms out of range or
 * repeated. */
static int exact_state_load(void *st, const size_t *active, size_t k, const double *in, size_t n)
{
    exact_state *E = st;
    if (k > E->kmax || n != exact_state_size(E)) return BASEL_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (isnan(in[i])) return BASEL_EINVAL;
    if (!(in[3] >= -1 && in[3] < (double)E->m && in[3] == floor(in[3]))) return BASEL_EINVAL;
    for (size_t a = 0; a < k; a++) {
        if (active[a] >= E->m) return BASEL_EINVAL;
        for (size_t b = 0; b < a; b++)
            if (active[b] == active[a]) return BASEL_EINVAL;
    }
    for (size_t a = 0; a < E->k; a++) E->pos[E->active[a]] = -1;
    for (size_t a = 0; a < k; a++) {
        E->active[a] = active[a];
        E->pos[active[a]] = (long)a;
    }
    E->k = k;
    E->log_ml = in[0];
    E->log_ml_se = in[1];
    E->max_se = in[2];
    E->trial_j = (long)in[3];
    E->trial_ml = in[4];
    E->trial_se = in[5];
    memcpy(E->mean, in + 6, (E->kmax + 2) * sizeof *in);
    memcpy(E->trial_mean, in + 6 + E->kmax + 2, (E->kmax + 2) * sizeof *in);
    return BASEL_OK;
}

static void exact_describe(const void *st, char *buf, size_t len)
{
    const exact_state *E = st;
    if (E->gtype) {
        snprintf(buf, len,
                 "%s marginal likelihoods under --prior %s by Li and Clyde's (2018) integrated Laplace approximation "
                 "at each model's MLE, as BAS's bas.glm (deterministic)",
                 E->family == BSL_GLM_POISSON ? "Poisson" : "logistic", E->gtype->type->name);
        return;
    }
    snprintf(buf, len,
             "%s marginal likelihoods by importance sampling (%zu draws per subset from a t_4 at the Laplace "
             "approximation): largest standard error of a log marginal likelihood %.2g",
             E->family == BSL_GLM_POISSON ? "Poisson" : "logistic", E->S, E->max_se);
}

static const char *exact_fault(const void *st)
{
    const exact_state *E = st;
    return E->fault[0] ? E->fault : NULL;
}

const bsl_model_ops bsl_model_glm_exact = {
    .name = "logistic (importance sampling)",
    .create = exact_create,
    .free = exact_free,
    .copy = exact_copy,
    .k = exact_k,
    .active = exact_active,
    .pos = exact_pos,
    .log_ml = exact_log_ml,
    .try_add = exact_try_add,
    .add = exact_add,
    .remove = exact_remove,
    .drop_scores = exact_drop_scores,
    .try_remove = exact_try_remove,
    .coef_mean = exact_coef_mean,
    .sigma2 = exact_sigma2,
    .state_size = exact_state_size,
    .state_save = exact_state_save,
    .state_load = exact_state_load,
    .describe = exact_describe,
    .fault = exact_fault,
};
