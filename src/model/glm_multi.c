/*
 * glm_multi.c: the multinomial logistic model's Laplace approximation, its
 * marginal likelihood by importance sampling (glm_multi.h explains the
 * model and the layout of theta; engine/enumerate/enumerate_multinomial.c
 * enumerates the joint models with them).
 *
 * Newton's method. With p_ic = P(y_i = c | theta) and z the theta index's
 * column (1 for an intercept, x_j for an input) in class c(z)'s block,
 *     grad_z = sum_i z_i (1[y_i = c(z)] - p_{i,c(z)}) - lam_z theta_z,
 *     H_zz' = sum_i z_i z'_i p_{i,c(z)} (1[c(z) = c(z')] - p_{i,c(z')}) + lam_z 1[z = z']
 * (the Hessian of -log posterior; positive definite: the log likelihood is
 * concave and the prior strictly so), steps halved until the log posterior
 * rises, as bsl_glm_laplace does for the binomial model.
 *
 * Importance sampling: the t_4 proposal, weights and standard error of
 * glm_exact.c (its file comment), for d = K + C - 1 coefficients.
 */
#include "glm_multi.h"
#include "glm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define IS_NU 4.0          /* the proposal's degrees of freedom (glm_exact.c) */

double bsl_glm_multi_loglik(const double *cls, const double *eta, size_t n, size_t C)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        /* log(1 + sum_c e^eta_ic) (the reference's eta = 0): directly while
         * no e^eta can overflow (the importance sampler's hot loop: C - 1
         * exponentials and one log1p a row), else shifted by the largest */
        double mx = 0, t = 0;
        for (size_t c = 1; c < C; c++) mx = fmax(mx, eta[i + (c - 1) * n]);
        if (mx < 600) {
            for (size_t c = 1; c < C; c++) t += exp(eta[i + (c - 1) * n]);
            t = log1p(t);
        } else {
            t = exp(-mx);
            for (size_t c = 1; c < C; c++) t += exp(eta[i + (c - 1) * n] - mx);
            t = mx + log(t);
        }
        const size_t y = (size_t)cls[i];
        s += (y ? eta[i + (y - 1) * n] : 0.0) - t;
    }
    return s;
}

/* The theta indices' classes (1 .. C - 1) and columns (NULL: intercept). */
typedef struct layout {
    size_t d;
    size_t *cl;
    const double **col;
    double *lam;
} layout;

static int layout_make(layout *Y, const bsl_multi_data *md, const size_t *atoms, size_t K)
{
    const size_t d = K + md->C - 1;
    Y->d = d;
    Y->cl = malloc(d * sizeof *Y->cl);
    Y->col = malloc(d * sizeof *Y->col);
    Y->lam = malloc(d * sizeof *Y->lam);
    if (!Y->cl || !Y->col || !Y->lam) return BASEL_ENOMEM;
    size_t z = 0, a = 0;
    for (size_t c = 1; c < md->C; c++) {
        Y->cl[z] = c;
        Y->col[z] = NULL;
        Y->lam[z++] = md->lam0;
        for (; a < K && atoms[a] / md->m == c - 1; a++) {
            Y->cl[z] = c;
            Y->col[z] = md->X + (atoms[a] % md->m) * md->n;
            Y->lam[z++] = md->lam;
        }
    }
    return z == d && a == K ? BASEL_OK : BASEL_EINVAL; /* atoms unsorted or out of range */
}

static void layout_free(layout *Y)
{
    free(Y->cl);
    free(Y->col);
    free(Y->lam);
}

/* eta (n x (C - 1)) for theta, and the log posterior (prior constants left out). */
static double log_post(const bsl_multi_data *md, const layout *Y, const double *theta, double *eta)
{
    const size_t n = md->n;
    memset(eta, 0, n * (md->C - 1) * sizeof *eta);
    double f = 0;
    for (size_t z = 0; z < Y->d; z++) {
        double *e = eta + (Y->cl[z] - 1) * n;
        if (Y->col[z])
            for (size_t i = 0; i < n; i++) e[i] += Y->col[z][i] * theta[z];
        else
            for (size_t i = 0; i < n; i++) e[i] += theta[z];
        f -= 0.5 * Y->lam[z] * theta[z] * theta[z];
    }
    return f + bsl_glm_multi_loglik(md->cls, eta, n, md->C);
}

static double zval(const layout *Y, size_t z, size_t i) { return Y->col[z] ? Y->col[z][i] : 1.0; }

/* Gradient g and Hessian H (d x d) of the log posterior's negative at the
 * eta of log_post; prob: scratch n x (C - 1). */
static void grad_hess(const bsl_multi_data *md, const layout *Y, const double *theta, const double *eta,
                      double *prob, double *g, double *H)
{
    const size_t n = md->n, C = md->C, d = Y->d;
    for (size_t i = 0; i < n; i++) {
        double mx = 0, t;
        for (size_t c = 1; c < C; c++) mx = fmax(mx, eta[i + (c - 1) * n]);
        t = exp(-mx);
        for (size_t c = 1; c < C; c++) t += exp(eta[i + (c - 1) * n] - mx);
        for (size_t c = 1; c < C; c++) prob[i + (c - 1) * n] = exp(eta[i + (c - 1) * n] - mx) / t;
    }
    for (size_t z = 0; z < d; z++) {
        const size_t c = Y->cl[z];
        double s = 0;
        for (size_t i = 0; i < n; i++) s += zval(Y, z, i) * (((size_t)md->cls[i] == c) - prob[i + (c - 1) * n]);
        g[z] = s - Y->lam[z] * theta[z];
        for (size_t w = 0; w <= z; w++) {
            const size_t cw = Y->cl[w];
            double h = 0;
            for (size_t i = 0; i < n; i++) {
                const double pc = prob[i + (c - 1) * n], pw = prob[i + (cw - 1) * n];
                h += zval(Y, z, i) * zval(Y, w, i) * pc * ((c == cw) - pw);
            }
            H[z + w * d] = H[w + z * d] = h + (z == w ? Y->lam[z] : 0.0);
        }
    }
}

/* Newton's method from theta; the factor of H at the mode into L. */
static int newton(const bsl_multi_data *md, const layout *Y, double *theta, double *L, double *log_joint)
{
    const size_t n = md->n, d = Y->d, nc = md->C - 1;
    double *eta = malloc(n * nc * sizeof *eta), *prob = malloc(n * nc * sizeof *prob);
    double *g = malloc(d * sizeof *g), *step = malloc(d * sizeof *step), *trial = malloc(d * sizeof *trial);
    bsl_chol ch = {0};
    int rc = eta && prob && g && step && trial ? bsl_chol_init(&ch, d) : BASEL_ENOMEM;
    double f = rc ? 0 : log_post(md, Y, theta, eta);
    int stuck = 0, done = 0;
    for (int it = 0; it < 200 && !rc && !done; it++) {
        grad_hess(md, Y, theta, eta, prob, g, L);
        if ((rc = bsl_chol_factor(&ch, L, d, d))) break;
        memcpy(step, g, d * sizeof *step);
        bsl_chol_solve_lower(&ch, step);
        bsl_chol_solve_upper(&ch, step);
        double dec = 0; /* the Newton decrement, as bsl_glm_laplace */
        for (size_t z = 0; z < d; z++) dec += g[z] * step[z];
        if (dec < 1e-12 || stuck) {
            for (size_t c = 0; c < d; c++)
                for (size_t l = 0; l < d; l++) L[l + c * d] = l >= c ? ch.L[l + c * ch.cap] : 0.0;
            double lp = f;
            for (size_t z = 0; z < d; z++) lp += 0.5 * log(Y->lam[z] / (2 * M_PI));
            *log_joint = lp;
            done = 1;
            break;
        }
        double t = 1.0, f_new = -INFINITY;
        for (int h = 0; h < 60; h++, t /= 2) {
            for (size_t z = 0; z < d; z++) trial[z] = theta[z] + t * step[z];
            f_new = log_post(md, Y, trial, eta);
            if (f_new > f) break;
        }
        if (!(f_new > f)) {
            (void)log_post(md, Y, theta, eta);
            stuck = 1;
            continue;
        }
        memcpy(theta, trial, d * sizeof *theta);
        f = f_new;
    }
    bsl_chol_free(&ch);
    free(eta);
    free(prob);
    free(g);
    free(step);
    free(trial);
    return rc ? rc : done ? BASEL_OK : BASEL_ENUMERIC;
}

/* Start: every class's intercept at log(n_c / n_0), coefficients 0. */
static void start(const bsl_multi_data *md, const layout *Y, double *theta)
{
    double cnt[64] = {0};
    for (size_t i = 0; i < md->n; i++) cnt[(size_t)md->cls[i] < 64 ? (size_t)md->cls[i] : 63]++;
    for (size_t z = 0; z < Y->d; z++)
        theta[z] = Y->col[z] ? 0.0 : log(fmax(cnt[Y->cl[z]], 0.5) / fmax(cnt[0], 0.5));
}

int bsl_glm_multi_laplace(const bsl_multi_data *md, const size_t *atoms, size_t K, double *theta, double *L,
                          double *log_joint)
{
    layout Y = {0};
    int rc = layout_make(&Y, md, atoms, K);
    if (!rc) rc = newton(md, &Y, theta, L, log_joint);
    layout_free(&Y);
    return rc;
}

/* S draws from the t_4 at the mode: log mean weight and its standard error. */
static int importance(const bsl_multi_data *md, const layout *Y, const double *mode, const double *L, size_t S,
                      gsl_rng *r, double *log_ml, double *se)
{
    const size_t d = Y->d, n = md->n;
    double *lw = malloc(S * sizeof *lw), *th = malloc(d * sizeof *th), *eps = malloc(d * sizeof *eps);
    double *eta = malloc(n * (md->C - 1) * sizeof *eta);
    if (!lw || !th || !eps || !eta) {
        free(lw), free(th), free(eps), free(eta);
        return BASEL_ENOMEM;
    }
    const bsl_chol ch = {.k = d, .cap = d, .L = (double *)L};
    const double log_c = gsl_sf_lngamma((IS_NU + (double)d) / 2) - gsl_sf_lngamma(IS_NU / 2) -
                         0.5 * (double)d * log(IS_NU * M_PI) + 0.5 * bsl_chol_logdet(&ch);
    double lprior0 = 0, lw_max = -INFINITY;
    for (size_t z = 0; z < d; z++) lprior0 += 0.5 * log(Y->lam[z] / (2 * M_PI));
    for (size_t s = 0; s < S; s++) {
        double e2 = 0;
        for (size_t z = 0; z < d; z++) {
            eps[z] = gsl_ran_ugaussian(r);
            e2 += eps[z] * eps[z];
        }
        const double scale = sqrt(IS_NU / gsl_ran_chisq(r, IS_NU));
        for (size_t z = 0; z < d; z++) th[z] = eps[z] * scale;
        bsl_chol_solve_upper(&ch, th); /* L' delta = eps scale: a t with scale H^-1 */
        for (size_t z = 0; z < d; z++) th[z] += mode[z];
        const double lq = log_c - 0.5 * (IS_NU + (double)d) * log1p(e2 * scale * scale / IS_NU);
        lw[s] = log_post(md, Y, th, eta) + lprior0 - lq;
        lw_max = fmax(lw_max, lw[s]);
    }
    bsl_glm_is_estimate(lw, S, lw_max, log_ml, se);
    free(lw), free(th), free(eps), free(eta);
    return BASEL_OK;
}

int bsl_glm_multi_log_ml(const bsl_multi_data *md, const size_t *atoms, size_t K, size_t S, unsigned long seed,
                         double *log_ml, double *se)
{
    layout Y = {0};
    int rc = layout_make(&Y, md, atoms, K);
    const size_t d = Y.d;
    double *theta = rc ? NULL : malloc(d * sizeof *theta), *L = rc ? NULL : malloc(d * d * sizeof *L), lj;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rc && (!theta || !L || !r)) rc = BASEL_ENOMEM;
    if (!rc) {
        unsigned long h = seed * 2654435761UL + 0x9e3779b97f4a7c15UL; /* the stream of this joint model */
        for (size_t a = 0; a < K; a++) h = (h ^ (atoms[a] + 1)) * 1099511628211UL;
        gsl_rng_set(r, h);
        start(md, &Y, theta);
        rc = newton(md, &Y, theta, L, &lj);
    }
    if (!rc) rc = importance(md, &Y, theta, L, S < 2 ? 2 : S, r, log_ml, se);
    gsl_rng_free(r);
    free(theta);
    free(L);
    layout_free(&Y);
    return rc;
}
