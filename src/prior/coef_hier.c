/* coef_hier.c: beta ~ N(0, sigma^2 delta^2 I) with sigma^2 ~ IG(a, b)
 * integrated (papers 002, 003; a = b = 0: Jeffreys). tau = 1/delta^2. */
#include "coef_prior.h"

#include <math.h>

static int hier_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    int rc = bsl_spec_double(s, "delta2", 10.0, 1e-300, 1e300, &p->delta2, err);
    if (!rc) rc = bsl_spec_double(s, "a", 0.0, 0, 1e300, &p->a, err);
    if (!rc) rc = bsl_spec_double(s, "b", 0.0, 0, 1e300, &p->b, err);
    return rc;
}

static double hier_tau(const bsl_coef_prior *p) { return 1.0 / p->delta2; }

/* -(N/2) log(2 pi) - (logdet - k log tau)/2 + log G(a + N/2) - log G(a)
 * + a log b - (a + N/2) log(b + (yy - quad)/2) */
static double hier_log_ml(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k, double logdet,
                          const double *quad, const double *yy, const double *gv, const double *lg)
{
    const double N = (double)(n - q), kk = (double)k;
    const double tau = hier_tau(p);
    double s = 0;
    for (size_t o = 0; o < c; o++) {
        const double r0 = yy[o] - quad[o], rss = r0 > 0 ? r0 : 0.0; /* fmax, inline */
        const double a_n = p->a + 0.5 * N;
        s += -0.5 * N * log(2 * M_PI) - 0.5 * (logdet - kk * log(tau)) + lgamma(a_n) - a_n * log(p->b + 0.5 * rss);
        if (p->a > 0) s += -lgamma(p->a) + p->a * log(p->b);
    }
    return s;
}

/* sigma^2 | y ~ IG(a + N/2, b + (yy - quad)/2) */
static double hier_df(const bsl_coef_prior *p, double N, double k) { return 2 * p->a + N; }

static double hier_scale2(const bsl_coef_prior *p, double N, double df, double yy, double quad, double s)
{
    return (p->b + 0.5 * fmax(yy - quad, 0.0)) / (p->a + 0.5 * N);
}

static double hier_sigma2(const bsl_coef_prior *p, double N, size_t k, double yy, double quad, double g)
{
    return (p->b + 0.5 * fmax(yy - quad, 0.0)) / fmax(p->a + 0.5 * N - 1, 0.5);
}

static int hier_read(bsl_coef_prior *p, const json_t *o)
{
    bsl_coef_numbers_read(p, o);
    return p->delta2 > 0 && p->a >= 0 && p->b >= 0 && isfinite(p->delta2) ? 0 : -1;
}

static const char *const hier_examples[] = {"hier:delta2=4,a=1,b=1", "hier", NULL};

const bsl_coef_prior_type bsl_coef_hier = {
    .name = "hier",
    .usage = "hier[:delta2=D]",
    .id = 2,
    .model = BSL_COEF_MODEL_GAUSS,
    .keys = "delta2, a, b",
    .examples = hier_examples,
    .reads_logdet = 1,
    .parse = hier_parse,
    .tau = hier_tau,
    .log_ml = hier_log_ml,
    .shrink = bsl_coef_shrink_none,
    .post_df = hier_df,
    .post_scale2 = hier_scale2,
    .sigma2_mean = hier_sigma2,
    .nuisance_ok = bsl_coef_nuisance_any,
    .to_json = bsl_coef_numbers_json,
    .from_json = hier_read,
};
