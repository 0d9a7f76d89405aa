/*
 * polyagamma.h: exact draws from the Polya-Gamma distribution PG(1, c)
 * (Polson, Scott and Windle 2013, JASA 108, "Bayesian inference for
 * logistic models using Polya-Gamma latent variables", section 4), the
 * latent variable that makes a logistic likelihood conditionally Gaussian:
 *     (e^psi)^y / (1 + e^psi) = 2^-1 e^{kappa psi} E_omega[e^{-omega psi^2 / 2}],
 *     omega ~ PG(1, 0), kappa = y - 1/2                       (their eq. 2),
 * and omega | psi ~ PG(1, psi) (their section 3.1).
 *
 * Moments (their eq. 7 and the cumulants of the infinite convolution
 * of gammas, eq. 1): E = tanh(c/2) / (2c), Var = (sinh c - c) sech^2(c/2) / (4 c^3),
 * 1/4 and 1/24 at c = 0; Laplace transform E e^{-t omega} =
 * cosh(c/2) / cosh(sqrt(c^2/4 + t/2)).
 */
#ifndef BSL_POLYAGAMMA_H
#define BSL_POLYAGAMMA_H

#include <gsl/gsl_rng.h>

/* One draw of PG(1, c) (c any real; PG(1, c) = PG(1, -c)). */
double bsl_pg_draw(gsl_rng *r, double c);
/* The exact mean and variance of PG(1, c) (series near c = 0). */
double bsl_pg_mean(double c);
double bsl_pg_var(double c);
/* E exp(-t omega) for omega ~ PG(1, c), t >= 0. */
double bsl_pg_laplace(double c, double t);

#endif
