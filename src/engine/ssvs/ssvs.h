/*
 * ssvs.h: the spike-and-slab model of paper 001 (George & McCulloch's
 * stochastic search variable selection) and its exact enumeration, shared by
 * the engine (ssvs.c) and the tests.
 *
 * Model, on the design's projected atoms B (the intercept has a flat prior
 * and is integrated out by the projection, as for every basel model; N = n -
 * q is the residual dimension):
 *     y | beta, sigma^2 ~ N(B beta, sigma^2 I_N)                 (eq. 10)
 *     beta_j | gamma_j  ~ N(0, s v_j),  v_j = v0_j (spike, eq. 1) or
 *                                       c v0_j (slab, eq. 2)
 *     sigma^2 ~ IG(a, b)                                          (eq. 4-5)
 *     gamma   ~ independent Bernoulli(p) (eq. 3), or the --model-prior
 * where s = 1 "as written" (scaled = 0) or s = sigma^2 (scaled = 1, the
 * conjugate form of George & McCulloch 1997, which lets sigma^2 be
 * integrated in closed form).
 *
 * --prior ssvs keys (all optional):
 *   tau=T       spike sd as a multiple of the full least-squares fit's
 *               standard error of each coefficient (George & McCulloch's
 *               advice): v0_j = T^2 s^2 (G^{-1})_jj, s^2 = RSS / (N - m)
 *               (scaled = 1: s^2 = 1, relative to sigma^2); without a full
 *               fit (m >= N - 1) the marginal rule T^2 (y'Py / N) / b_j'b_j;
 *               default 1 (model/ssvs_model.c bsl_ssvs_spike);
 *   tau2=V      absolute spike variance, the same for every atom (overrides tau);
 *   c=C         slab / spike variance ratio (paper 001's c); default 100;
 *   p=P         prior inclusion probability; absent: the --model-prior;
 *   a=A, b=B    IG(a, b) on sigma^2; default 0, 0 (p(sigma^2) ~ 1/sigma^2);
 *   scaled=0|1  default 0 (paper 001 as written);
 *   collapsed=0|1  1: integrate beta (and sigma^2 when scaled) and update each
 *               gamma_j from its exact conditional; default 1.
 * Any other coefficient prior (--prior g, ridge, hier, aic, bic, mdl) runs
 * the collapsed sweep on that prior's model through the model table: a
 * collapsed Gibbs sampler over inclusion indicators.
 */
#ifndef BSL_SSVS_H
#define BSL_SSVS_H

#include "../subset/subset.h"

/* bsl_ssvs_prior, bsl_ssvs_parse, bsl_ssvs_spike: model/model.h (the
 * spike-and-slab model is an entry of the model table, bsl_model_ssvs). */
/* log prior of one gamma with k slab atoms (Bernoulli(p) or the model prior). */
double bsl_ssvs_log_gprior(const bsl_ssvs_prior *sp, const bsl_mprior *mp, size_t m, size_t k);
/* log p(y | gamma, sigma2) with beta integrated (scaled = 0 form; for scaled
 * = 1 pass the prior with s = sigma^2), dense: from the eigenvalues of
 * D^{1/2} G D^{1/2}. Up to a constant common to all gamma and sigma2. */
double bsl_ssvs_log_lik_sigma2(const bsl_ssvs_prior *sp, const bsl_design *D, const double *v,
                               double sigma2);
/* log p(y | gamma) with beta and sigma^2 integrated: closed form when scaled,
 * 1-D quadrature over log sigma^2 otherwise (see ssvs.c). v = prior
 * variances of the current gamma (v0 or c v0 per atom). */
double bsl_ssvs_log_marginal(const bsl_ssvs_prior *sp, const bsl_design *D, const double *v);
/* Exact posterior over all 2^m gamma (m <= 20): pip (m), size_prob (m + 1). */
int bsl_ssvs_enumerate(const bsl_ssvs_prior *sp, const bsl_vs_problem *pb, double *pip,
                       double *size_prob, basel_error *err);

/* bsl_ssvs_run, also returning the raw inclusion frequencies (m, pooled
 * over chains) in freq when it is not NULL; res->pip holds the
 * Rao-Blackwellised estimate (averages of the conditional inclusion
 * probabilities of every gamma_j update). */
int bsl_ssvs_run_ex(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
                    double *freq, basel_error *err);

#endif
