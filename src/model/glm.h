/*
 * glm.h: Bayesian variable selection for logistic regression (issue 17
 * item 3), on the model table (model.h) so that the subset engines run it
 * unchanged.
 *
 * The model. y_i in {0, 1}, P(y_i = 1) = logit^-1(psi_i), psi = alpha + X_A
 * beta_A over the active atoms A (standardised inputs), with the prior
 * ("--prior normal:sd=S,intercept-sd=S0")
 *     alpha ~ N(0, S0^2) (always in),  beta_j ~ N(0, S^2) iid for j in A,
 * and the model prior on A of the engine (bsl_mprior).
 *
 * Two tables, one target:
 *  - bsl_model_glm (glm.c), for the samplers: Polya-Gamma augmentation
 *    (Polson, Scott and Windle 2013). Given omega_i ~ PG(1, psi_i) the
 *    likelihood is Gaussian in theta = (alpha, beta_A) (their eq. 2-3),
 *        p(y, omega | theta) = 2^-n exp(kappa' psi - psi' Omega psi / 2) prod PG(omega_i | 1, 0),
 *    kappa = y - 1/2, so theta integrates in closed form and
 *        log p(y, omega | A) = C(omega) + (1/2) sum_l log lam_l - (1/2) log|P_A| + (1/2) b_A' P_A^-1 b_A,
 *        P_A = Z_A' Omega Z_A + Lambda_A,  b_A = Z_A' kappa,  Z_A = [1, X_A],
 *    Lambda_A = diag(1/S0^2, 1/S^2, ...). The model's log_ml is that score,
 *    kept in O(k^2) per add / remove with an incremental Cholesky factor of
 *    P_A (linalg.h). draw_nuisance (once per sweep in rj) draws
 *    theta | A, omega, y ~ N(P_A^-1 b_A, P_A^-1), then omega_i | theta ~
 *    PG(1, psi_i) (polyagamma.h), and refactorises. Each step is an exact
 *    conditional (or a Metropolis-Hastings move that leaves p(A | omega, y)
 *    invariant), so the joint chain over (A, theta, omega) has the exact
 *    posterior as its stationary law: nothing is approximated; the chain
 *    only mixes more slowly than a collapsed one would, and the PIPs'
 *    Rao-Blackwell terms condition on omega (still unbiased).
 *  - bsl_model_glm_exact (glm_exact.c), for enumeration, also of the
 *    Poisson model (glm_family BSL_GLM_POISSON: E y_i = e^psi_i): the marginal
 *    likelihood p(y | A) = int prod Bern(y_i | logit^-1 psi_i) N(theta; 0, Lambda_A^-1) dtheta
 *    by importance sampling from a multivariate t (4 degrees of freedom)
 *    at the Laplace approximation (mode and Hessian by Newton's method):
 *    unbiased for p(y | A), with its Monte Carlo standard error reported
 *    (describe); is_draws draws per subset, each subset's estimate from a
 *    stream seeded by the subset and is_seed, so the same subset always
 *    gets the same number.
 *
 * Both read the design's raw atom columns (bsl_design_raw_column) and its
 * targets (y = P y + Q Q'y, rounded to 0 / 1); the design's only always-in
 * column must be the intercept (q = 1).
 */
#ifndef BSL_GLM_H
#define BSL_GLM_H

#include "model.h"

/* The likelihood (bsl_coef_prior glm_family): logistic regression, or
 * Poisson regression with the log link (enumeration only: glm_exact.c). */
enum { BSL_GLM_BINOMIAL = 0, BSL_GLM_POISSON = 1, BSL_GLM_MULTINOMIAL = 2 /* glm_multi.h */ };

#define BSL_GLM_PRIOR_KEYS "sd, intercept-sd"
#define BSL_GLM_DEFAULT_PRIOR "normal:sd=1,intercept-sd=10"

/* Parse a GLM's --prior into p (p->glm = 1): "normal[:sd=S,intercept-sd=S0]"
 * (type bsl_coef_normal), or an entry of the prior table that scores GLMs
 * (coef_prior.h glm_log_ml: g with g fixed, uip, robust, eb-local), for n
 * rows. Anything else is refused naming the priors a GLM takes. */
int bsl_glm_prior_parse(bsl_coef_prior *p, const char *spec, size_t n, basel_error *err);

/* Under a g-type prior (p->type->glm_log_ml, coef_prior.h): the model of
 * the columns Z (n x d, column-major, Z[:,0] = 1) as BAS's bas.glm scores
 * it. From theta (in: Newton's start) the MLE by Newton's method (flat
 * prior); then *log_ml, Li and Clyde's integrated Laplace approximation
 * (coef_prior.h); theta (out) the posterior mean, beta = s beta^ and
 * alpha = alpha^ + (1 - s) xbar' beta^ (s = glm_shrink; xbar the
 * I-weighted means of the atoms: BAS's gglm_lpy intercept); L (d x d,
 * column-major) the lower Cholesky factor of the precision of its normal
 * approximation, H = F + (1/s - 1) J (F = Z'IZ the Fisher information at
 * the MLE, J its block of beta with the intercept profiled): the posterior
 * N(s beta^, s J^-1) of Li and Clyde for beta, N(alpha_c^, 1 / sum I) for
 * the centred intercept, in the (alpha, beta) of Z. work: BSL_GLM_WORK(n, d)
 * doubles. BASEL_ENUMERIC when the MLE does not exist (separation, a
 * singular Z'IZ). */
/* What the coefficient table's and the predictions' normal of a model is
 * under a g-type prior (FIT.json coefficients.within_model) */
#define BSL_GLM_GTYPE_WITHIN                                                                                       \
    "each model by Li and Clyde's normal approximation at its MLE, N(s beta^, s J^-1), s = E[g/(1+g) | y, model] "  \
    "(BAS's bas.glm; an approximation, with s plugged in under a mixture over g)"
#define BSL_GLM_WORK(n, d) ((n) * ((d) + 3) + (d) * ((d) + 4))
int bsl_glm_gtype(const bsl_coef_prior *p, const double *Z, size_t n, size_t d, const double *y, double *theta,
                  double *L, double *log_ml, double *work);

/* The 0/1 (binomial) or count (Poisson) targets of a design (n), rounded
 * from its projection. */
void bsl_glm_design_y(const bsl_design *D, double *y);

/* Laplace approximation of the posterior of theta (d = k + 1 coefficients,
 * the intercept first) for the columns Z (n x d column-major, Z[:,0] = 1),
 * 0/1 targets y and prior precisions lam (d): Newton's method from theta
 * (in: start, out: mode), L (d x d column-major, leading dimension d) the
 * lower Cholesky factor of the Hessian of -log posterior at the mode, and
 * *log_joint = log p(y | theta) + log N(theta; 0, Lambda^-1) there.
 * work holds n (d + 2) + d (d + 2) doubles. BASEL_ENUMERIC when Newton's
 * method does not converge in 100 steps. */
int bsl_glm_laplace(int family, const double *Z, size_t n, size_t d, const double *y, const double *lam,
                    double *theta, double *L, double *log_joint, double *work);
/* log p(y | theta) for psi = Z theta (n): logistic, or Poisson with
 * E y = e^psi (with its -log y! terms). */
double bsl_glm_loglik(int family, const double *y, const double *psi, size_t n);
/* An importance-sampling estimate from S log weights lw (lw_max their
 * largest): *log_mean = log mean(w), unbiased in mean(w), and *se =
 * sd(w) / (sqrt(S) mean(w)), its standard error by the delta method.
 * Returns sum(w / e^lw_max), the normaliser of weighted means. */
double bsl_glm_is_estimate(const double *lw, size_t S, double lw_max, double *log_mean, double *se);

/* ------------------------------------------------- bsl_model_glm extras
 * (tests and the Geweke check: st is a bsl_model_glm state) */

/* New 0/1 targets (n): kappa and the cross products are recomputed. */
int bsl_glm_set_y(void *st, const double *y);
/* The latent variables (n) and the last theta drawn (k + 1: intercept,
 * then the active atoms in active() order; valid after draw_nuisance). */
const double *bsl_glm_omega(const void *st);
const double *bsl_glm_theta(const void *st);
/* Set omega (n positive values), refactorising. BASEL_EINVAL otherwise. */
int bsl_glm_set_omega(void *st, const double *omega);

/* The multinomial model's class blocks (glm_multi.h): class c's
 * likelihood given the other classes' linear predictors is logistic in
 * psi_i = eta_ic - off_i, off_i = log sum_{l != c} e^{eta_il} (Holmes and
 * Held 2006; Polson, Scott and Windle 2013, their multinomial extension).
 * Set the offsets (n), then draw omega_i ~ PG(1, z_i'theta - off_i) from
 * the last theta drawn (which must belong to the current active set: drawn
 * by bsl_glm_draw_theta, or the start's theta = 0 with no atom), and
 * refactorise. From then on the score is log p(y_c, omega | A) with
 * pseudo-targets kappa + Omega off: b_A = Z_A'(kappa + Omega off). */
int bsl_glm_redraw_omega(void *st, gsl_rng *r, const double *off);
/* A checkpoint's state (model.h state_load) holds no offsets: put back the
 * offsets of the class block under way, the pseudo-targets kappa + Omega
 * off and b_A from them, by bsl_glm_redraw_omega's arithmetic, keeping the
 * loaded factor, z and score as they are (a refactorisation would round
 * differently from the incremental factor the run had), so that the block
 * continues bit for bit (rj_multinomial.c). */
void bsl_glm_restore_offsets(void *st, const double *off);
/* theta | A, omega, y ~ N(P_A^-1 b_A, P_A^-1) into the state (bsl_glm_theta). */
void bsl_glm_draw_theta(void *st, gsl_rng *r);
/* eta = Z_A theta (n) for the last theta drawn, without the offset. */
void bsl_glm_eta(const void *st, double *eta);

#endif
