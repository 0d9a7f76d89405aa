/*
 * glm_multi.h: multinomial logistic regression with variable selection
 * (--family multinomial, issue 17 item 3; docs/GLM.md "Multinomial").
 *
 * The model. Classes 0 .. C - 1 (the target's levels in sorted order),
 * class 0 the reference with eta_i0 = 0, and for c = 1 .. C - 1
 *     eta_ic = alpha_c + x_{i,A_c}' beta_c,   P(y_i = c) = e^eta_ic / sum_l e^eta_il,
 * alpha_c ~ N(0, S0^2), beta_cj ~ N(0, S^2) (the binomial model's
 * --prior normal:sd=S,intercept-sd=S0), one subset A_c per class, the
 * A_c independent a priori, each under the engine's model prior over the m
 * inputs. A joint model (A_1 .. A_{C-1}) is a set of "joint atoms"
 * (c - 1) m + j (input j in A_c), which is how the engines, FIT.json and
 * the predictors list it; its coefficients theta are laid out class by
 * class, [alpha_c, beta_c in the order of its joint atoms], d = K + C - 1
 * numbers for K joint atoms.
 *
 * The sampler (engine/rj/rj_multinomial.c) runs one bsl_model_glm per
 * class (glm.h bsl_glm_redraw_omega: the class's likelihood given the
 * others is logistic with an offset). This file is the exact reference and
 * the predictors: each joint model's Laplace approximation (Newton's
 * method on the log posterior, concave), and its marginal likelihood
 *     p(y | A) = int prod_i P(y_i | theta) N(theta; 0, Lambda_A^-1) dtheta
 * by importance sampling from a t_4 at that approximation (as glm_exact.c
 * does for the binomial model: unbiased for p(y | A), with the standard
 * error of its log, sd(w) / (sqrt(S) mean(w))), with which
 * engine/enumerate/enumerate_multinomial.c enumerates every joint model
 * for (C - 1) m <= 20.
 */
#ifndef BSL_GLM_MULTI_H
#define BSL_GLM_MULTI_H

#include "model.h"

/* The data of a multinomial fit: n rows, m raw input columns X (n x m,
 * column-major), class numbers cls (n, 0 .. C - 1), prior precisions of
 * the intercepts (lam0) and of the coefficients (lam). Borrowed. */
typedef struct bsl_multi_data {
    const double *X, *cls;
    size_t n, m, C;
    double lam0, lam;
} bsl_multi_data;

/* The Laplace approximation of the posterior of theta for the joint atoms
 * atoms[0..K) (sorted): theta (d = K + C - 1; in: the start, out: the
 * mode), L (d x d column-major) the lower Cholesky factor of the Hessian
 * of -log posterior there, *log_joint = log p(y | mode) + log N(mode; 0,
 * Lambda^-1). BASEL_ENUMERIC when Newton's method does not converge,
 * BASEL_ENOMEM. */
int bsl_glm_multi_laplace(const bsl_multi_data *md, const size_t *atoms, size_t K, double *theta, double *L,
                          double *log_joint);

/* log p(y | A) of the joint atoms atoms[0..K) (sorted) by S importance
 * draws from the t_4 at the Laplace approximation, from an mt19937 seeded
 * by (seed, the atoms); *se the standard error of the estimate. */
int bsl_glm_multi_log_ml(const bsl_multi_data *md, const size_t *atoms, size_t K, size_t S, unsigned long seed,
                         double *log_ml, double *se);

/* log p(y | theta) of the multinomial model for the linear predictors eta
 * (n x (C - 1), column-major: class c's column c - 1). */
double bsl_glm_multi_loglik(const double *cls, const double *eta, size_t n, size_t C);

#endif
