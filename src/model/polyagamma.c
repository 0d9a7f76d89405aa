/*
 * polyagamma.c: Devroye's exact sampler for PG(1, c) as Polson, Scott and
 * Windle (2013) give it (section 4, Algorithm 1; the arrangement of their
 * BayesLogit package's draw_like_devroye): draw X ~ J*(1, z), z = |c|/2,
 * by rejection from a proposal that is an inverse Gaussian truncated to
 * (0, t] on the left and an exponential on (t, inf) on the right, t = 0.64,
 * accepting with the alternating series of the density (their eq. 10-11:
 * the partial sums S_n bracket the target, so the test is exact and needs
 * a few terms); then PG(1, c) = X / 4.
 *
 * The series coefficients (their a_n(x), eq. 11):
 *   x > t:  a_n(x) = pi (n + 1/2) exp(-(n + 1/2)^2 pi^2 x / 2)
 *   x <= t: a_n(x) = pi (n + 1/2) (2 / (pi x))^{3/2} exp(-2 (n + 1/2)^2 / x)
 * Acceptance probability of the proposal is above 0.9992 for every c
 * (their section 4.3), so a draw costs O(1) uniforms.
 */
#include "polyagamma.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>

#define PG_T 0.64 /* the split point t of Devroye's proposal (their section 4.2) */

/* a_n(x) of the alternating series, eq. (11). */
static double series_a(int n, double x)
{
    const double k = (n + 0.5) * M_PI;
    if (x > PG_T) return k * exp(-0.5 * k * k * x);
    if (!(x > 0)) return 0.0;
    const double log_a = -1.5 * (log(0.5 * M_PI) + log(x)) + log(k) - 2.0 * (n + 0.5) * (n + 0.5) / x;
    return exp(log_a);
}

/* P(proposal on the right, exponential piece) = p / (p + q), with
 * p / q from their eq. (13)-(14) on the log scale (no overflow for large z). */
static double right_mass(double z)
{
    const double t = PG_T, fz = M_PI * M_PI / 8 + z * z / 2;
    const double b = sqrt(1.0 / t) * (t * z - 1), a = -sqrt(1.0 / t) * (t * z + 1);
    const double x0 = log(fz) + fz * t;
    const double xb = x0 - z + log(gsl_cdf_ugaussian_P(b));
    const double xa = x0 + z + log(gsl_cdf_ugaussian_P(a));
    const double q_over_p = 4 / M_PI * (exp(xb) + exp(xa));
    return 1.0 / (1.0 + q_over_p);
}

/* An inverse Gaussian IG(1/z, 1) truncated to (0, t] (their section 4.2):
 * for 1/z > t by an inverse chi-square truncated below t^-1 and an
 * acceptance exp(-z^2 x / 2); otherwise IG draws (Michael, Schucany and
 * Haas) until one falls below t. */
static double trunc_ig(gsl_rng *r, double z)
{
    const double t = PG_T;
    double x = t + 1.0;
    if (1.0 / t > z) {
        double alpha = 0.0;
        while (gsl_rng_uniform(r) > alpha) {
            double e1, e2;
            do {
                e1 = gsl_ran_exponential(r, 1.0);
                e2 = gsl_ran_exponential(r, 1.0);
            } while (e1 * e1 > 2 * e2 / t);
            x = 1 + e1 * t;
            x = t / (x * x);
            alpha = exp(-0.5 * z * z * x);
        }
        return x;
    }
    const double mu = 1.0 / z;
    while (x > t) {
        double y = gsl_ran_ugaussian(r);
        y *= y;
        const double mu_y = mu * y;
        x = mu + 0.5 * mu * mu_y - 0.5 * mu * sqrt(4 * mu_y + mu_y * mu_y);
        if (gsl_rng_uniform(r) > mu / (mu + x)) x = mu * mu / x;
    }
    return x;
}

double bsl_pg_draw(gsl_rng *r, double c)
{
    const double z = fabs(c) * 0.5;
    const double fz = M_PI * M_PI / 8 + z * z / 2;
    const double p_right = right_mass(z);
    for (;;) {
        const double x = gsl_rng_uniform(r) < p_right ? PG_T + gsl_ran_exponential(r, 1.0) / fz : trunc_ig(r, z);
        double s = series_a(0, x);
        const double y = gsl_rng_uniform(r) * s;
        for (int n = 1;; n++) {
            if (n % 2) { /* S_n below the target: accept under it */
                s -= series_a(n, x);
                if (y <= s) return 0.25 * x;
            } else { /* S_n above: reject above it */
                s += series_a(n, x);
                if (y > s) break;
            }
        }
    }
}

double bsl_pg_mean(double c)
{
    const double a = fabs(c);
    if (a < 1e-4) return 0.25 - a * a / 48; /* tanh(c/2)/(2c) = 1/4 - c^2/48 + O(c^4) */
    return tanh(a / 2) / (2 * a);
}

double bsl_pg_var(double c)
{
    const double a = fabs(c);
    if (a < 1e-2) return 1.0 / 24 - a * a / 120; /* series of (sinh c - c) sech^2(c/2) / (4 c^3) */
    const double ch = cosh(a / 2);
    return (sinh(a) - a) / (4 * a * a * a * ch * ch);
}

double bsl_pg_laplace(double c, double t)
{
    return cosh(c / 2) / cosh(sqrt(c * c / 4 + t / 2));
}
