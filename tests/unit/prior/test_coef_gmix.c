/*
 * test_coef_gmix.c: the mixtures of g-priors (src/prior/coef_gmix.c) against
 * answers computed another way:
 * - hyper-g's marginal and shrinkage against Liang et al. (2008)'s closed
 *   forms with the Gauss hypergeometric function (eqs. 17 and 19; BAS's
 *   logBF_hyperGprior and shrinkage_hyperg), where GSL's 2F1 converges;
 * - robust's marginal at R^2 = 0, where BF(g) = (1 + g)^(-k/2) integrates in
 *   closed form against Bayarri et al. (2012)'s prior: ((1+n)/(k+1))^(-k/2)
 *   / (k + 1);
 * - hyper-g/n with its n set to 1 is hyper-g;
 * - every entry against a plain composite Simpson rule over u = log g on a
 *   fine grid (no adaptivity, no mode finding), also at n = 10^6 with R^2
 *   within 1e-9 of 1, where BF(g) overflows any linear scale;
 * - a proper prior's marginal is at most BF at its maximum (eb-local's);
 * - parse refuses several targets and a <= 2.
 * The numbers R^2, k, N are "high-entropy" values (GSL's advice).
 */
#include "check.h"
#include "prior/coef_prior.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_hyperg.h>
#include <math.h>
#include <string.h>

static bsl_coef_prior parse(const char *spec, size_t n)
{
    bsl_coef_prior p;
    basel_error err;
    const int rc = bsl_coef_prior_parse(&p, spec, n, 1, &err);
    CHECK(rc == BASEL_OK, "parse %s: %s", spec, rc ? err.message : "");
    return p;
}

/* log ml of k atoms with R^2 = r2 on N = n - 1 residual df (q = 1) */
static double log_ml(const bsl_coef_prior *p, size_t n, size_t k, double r2)
{
    /* yy = 1: the library's 1 - R^2, (yy - quad) / yy, is the test's 1 - r2
     * bit for bit (at n = 10^6 its last bits move the log marginal by 0.05) */
    const double yy = 1, quad = r2;
    return bsl_log_ml_formula(p, n, 1, 1, k, 0.0, &quad, &yy);
}

/* log pi(e^u) + u, the prior on the u = log g scale, written out again */
static double log_prior_u(const char *name, double u, double n, double k, double a)
{
    const double g = exp(u);
    if (!strcmp(name, "hyper-g")) return log(0.5 * (a - 2)) - 0.5 * a * log1p(g) + u;
    if (!strcmp(name, "hyper-g/n")) return log(0.5 * (a - 2) / n) - 0.5 * a * log1p(g / n) + u;
    if (!strcmp(name, "jzs")) return 0.5 * log(0.5 * n) - 0.5 * log(M_PI) - 1.5 * u - 0.5 * n / g + u;
    const double lo = (1 + n) / (k + 1) - 1; /* robust */
    return g < lo * (1 - 1e-12) ? -INFINITY : log(0.5) + 0.5 * log((1 + n) / (k + 1)) - 1.5 * log1p(g) + u;
}

/* Simpson over u in [-60, 60] (robust: from its smallest g, where its prior
 * jumps) with 2^20 panels, in log space about the largest term; with shrink,
 * the integrand times g/(1+g) */
static double simpson(const char *name, double n, double k, double r2, double a, int shrink)
{
    const double N = n - 1, hi = 60, g_lo = (1 + n) / (k + 1) - 1;
    const double lo = !strcmp(name, "robust") && g_lo > 0 ? log(g_lo) : -60;
    const size_t m = (size_t)1 << 20;
    const double h = (hi - lo) / (double)m;
    double lmax = -INFINITY, s = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i <= m; i++) {
            const double u = lo + h * (double)i, g = exp(u);
            double l = 0.5 * (N - k) * log1p(g) - 0.5 * N * log1p(g * (1 - r2)) + log_prior_u(name, u, n, k, a);
            if (shrink) l += log(g / (1 + g));
            if (pass == 0) {
                lmax = fmax(lmax, l);
                continue;
            }
            const double w = i == 0 || i == m ? 1 : i % 2 ? 4 : 2;
            s += w * exp(l - lmax);
        }
    return lmax + log(s * h / 3);
}

int main(void)
{
    gsl_set_error_handler_off();
    /* hyper-g: log BF = log((a - 2)/(k + a - 2)) + log 2F1(N/2, 1; (k + a)/2; R^2) */
    const double r2s[] = {0.1234, 0.5678, 0.8123};
    int compared = 0;
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 1; k <= 7; k += 3) {
            const size_t n = 47;
            const double a = 3.21, N = (double)n - 1, r2 = r2s[i], kk = (double)k;
            char spec[64];
            snprintf(spec, sizeof spec, "hyper-g:a=%g", a);
            const bsl_coef_prior p = parse(spec, n);
            gsl_sf_result f1, f2;
            if (gsl_sf_hyperg_2F1_e(0.5 * N, 1, 0.5 * (kk + a), r2, &f1) ||
                gsl_sf_hyperg_2F1_e(0.5 * N, 2, 0.5 * (kk + a) + 1, r2, &f2))
                continue; /* GSL's series does not converge here */
            compared++;
            const double exact = log((a - 2) / (kk + a - 2)) + log(f1.val);
            CHECK_CLOSE(log_ml(&p, n, k, r2), exact, 1e-9, "hyper-g log ml vs 2F1");
            const double yy = 2.385, quad = r2 * yy;
            const double s = p.type->shrink(&p, 0, N, k, yy, quad);
            CHECK_CLOSE(s, 2 / (kk + a) * f2.val / f1.val, 1e-9, "hyper-g E[g/(1+g)] vs 2F1 ratio");
        }
    printf("hyper-g against 2F1 at %d of 9 points\n", compared);
    CHECK(compared >= 6, "GSL's 2F1 converged at only %d of 9 points", compared);
    /* robust at R^2 = 0 */
    for (size_t k = 1; k <= 9; k += 4) {
        const size_t n = 53;
        const bsl_coef_prior p = parse("robust", n);
        const double kk = (double)k, exact = -0.5 * kk * log((1.0 + n) / (kk + 1)) - log(kk + 1);
        CHECK_CLOSE(log_ml(&p, n, k, 0.0), exact, 1e-9, "robust log ml at R^2 = 0");
    }
    /* hyper-g/n at n = 1 is hyper-g */
    {
        bsl_coef_prior hn = parse("hyper-g/n:a=3.7", 61), hg = parse("hyper-g:a=3.7", 61);
        hn.b = 1;
        CHECK_CLOSE(log_ml(&hn, 61, 4, 0.4321), log_ml(&hg, 61, 4, 0.4321), 1e-10, "hyper-g/n with n = 1");
    }
    /* every entry against Simpson, and below the maximum of BF */
    const char *names[] = {"hyper-g", "hyper-g/n", "jzs", "robust"};
    const struct { size_t n, k; double r2; } cases[] = {{47, 3, 0.6789}, {200, 11, 0.2345}, {1000000, 2, 1 - 1e-9}};
    const bsl_coef_prior eb = parse("eb-local", 47);
    for (size_t t = 0; t < 4; t++)
        for (size_t c = 0; c < 3; c++) {
            const size_t n = cases[c].n, k = cases[c].k;
            const double N = (double)n - 1, r2 = cases[c].r2;
            const bsl_coef_prior p = parse(names[t], n);
            const double a = p.type == &bsl_coef_jzs ? 1.0 : p.a;
            const double got = log_ml(&p, n, k, r2), want = simpson(names[t], (double)n, (double)k, r2, a, 0);
            CHECK(isfinite(got), "%s n %zu k %zu: log ml %g", names[t], n, k, got);
            CHECK(fabs(got - want) <= 1e-8 * fmax(1, fabs(want)) && fabs(got - want) <= 1e-6,
                  "%s n %zu k %zu: log ml %.17g, Simpson %.17g", names[t], n, k, got, want);
            const double s = p.type->shrink(&p, 0, N, k, 1.0, r2);
            const double s_want = exp(simpson(names[t], (double)n, (double)k, r2, a, 1) - want);
            CHECK_CLOSE(s, s_want, 1e-8, "E[g/(1+g)] vs Simpson");
            CHECK(log_ml(&eb, n, k, r2) >= got, "%s n %zu: below the maximum of BF(g)", names[t], n);
            printf("%-9s n %7zu k %2zu R^2 %.9f: log ml %.12g (Simpson %.12g), E[g/(1+g)] %.10f\n", names[t], n, k,
                   r2, got, want, s);
        }
    /* refusals */
    bsl_coef_prior p;
    basel_error err;
    CHECK(bsl_coef_prior_parse(&p, "hyper-g", 50, 2, &err) == BASEL_EINVAL, "two targets refused");
    CHECK(bsl_coef_prior_parse(&p, "hyper-g:a=2", 50, 1, &err) == BASEL_EINVAL, "a = 2 refused (improper)");
    CHECK(bsl_coef_prior_parse(&p, "jzs:r=0", 50, 1, &err) == BASEL_EINVAL, "r = 0 refused");
    return check_report("test_coef_gmix");
}
