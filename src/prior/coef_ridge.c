/* coef_ridge.c: ridge, beta ~ N(0, I/lambda) with sigma^2 given (paper 004
 * eq. 14): both fixed, or both sampled with the atoms under Gamma priors on
 * the precisions (eqs. 16-19). tau = sigma^2 lambda. */
#include "coef_prior.h"

#include <gsl/gsl_randist.h>
#include <math.h>

static int ridge_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    int given = bsl_spec_has(s, "lambda") + bsl_spec_has(s, "sigma2");
    if (given == 1)
        return bsl_fail(err, BASEL_EINVAL, "--prior ridge: give both lambda and sigma2 (fixed) or neither (sampled)");
    p->sample_nuisance = given == 0;
    /* vague Gamma priors on the precisions 1/sigma2 and lambda (paper
     * 004 eqs. 16, 18); the sampled values start at lambda = 1 and
     * sigma2 = var(y)/4 (nuisance_start, by the caller that knows y) */
    int rc = bsl_spec_double(s, "lambda", 1.0, 1e-300, 1e300, &p->lambda, err);
    if (!rc) rc = bsl_spec_double(s, "sigma2", 0.0, 1e-300, 1e300, &p->sigma2, err);
    if (!rc) rc = bsl_spec_double(s, "a", 1e-3, 1e-300, 1e300, &p->a, err);
    if (!rc) rc = bsl_spec_double(s, "b", 1e-3, 1e-300, 1e300, &p->b, err);
    if (!rc) rc = bsl_spec_double(s, "c", 1e-3, 1e-300, 1e300, &p->c, err);
    if (!rc) rc = bsl_spec_double(s, "d", 1e-3, 1e-300, 1e300, &p->d, err);
    return rc;
}

static double ridge_tau(const bsl_coef_prior *p) { return p->sigma2 * p->lambda; }

/* -(N/2) log(2 pi sigma^2) - (logdet - k log tau)/2 - (yy - quad) / (2 sigma^2)
 * (paper 004 eq. 30, whose covariance must read sigma^2 I + B B'/lambda) */
static double ridge_log_ml(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k, double logdet,
                           const double *quad, const double *yy, const double *gv, const double *lg)
{
    const double N = (double)(n - q), kk = (double)k;
    const double tau = ridge_tau(p);
    double s = 0;
    for (size_t o = 0; o < c; o++) {
        const double r0 = yy[o] - quad[o], rss = r0 > 0 ? r0 : 0.0; /* fmax, inline */
        s += -0.5 * N * log(2 * M_PI * p->sigma2) - 0.5 * (logdet - kk * log(tau)) - 0.5 * rss / p->sigma2;
    }
    return s;
}

/* sigma^2 known: a normal predictive */
static double ridge_df(const bsl_coef_prior *p, double N, double k) { return INFINITY; }

static double ridge_scale2(const bsl_coef_prior *p, double N, double df, double yy, double quad, double s)
{
    return p->sigma2;
}

static double ridge_sigma2(const bsl_coef_prior *p, double N, size_t k, double yy, double quad, double g)
{
    return p->sigma2;
}

/* paper 004's start: lambda = 1, sigma^2 = var(y) / 4 (averaged over the
 * outputs) */
static void ridge_start(bsl_coef_prior *p, const double *yy, size_t c, double N)
{
    if (!p->sample_nuisance || p->sigma2 > 0) return;
    double v = 0;
    for (size_t o = 0; o < c; o++) v += yy[o] / N;
    p->sigma2 = v / (4.0 * (double)c);
    if (!(p->lambda > 0)) p->lambda = 1.0;
}

static const char *const ridge_names[] = {"sigma2", "lambda"};

static size_t ridge_nuisance(const bsl_coef_prior *p, const double *g_o, size_t c, double *vals,
                             const char *const **names)
{
    if (vals) {
        vals[0] = p->sigma2;
        vals[1] = p->lambda;
    }
    if (names) *names = ridge_names;
    return 2;
}

static void ridge_nuisance_set(bsl_coef_prior *p, double *g_o, size_t c, const double *vals)
{
    p->sigma2 = vals[0];
    p->lambda = vals[1];
}

/* beta | ... (paper 004 eq. 19), then lambda (eq. 17) and 1/sigma^2 (eq.
 * 18; shape a + N c/2, and c + k c/2 for lambda: the OCR's "k_v + 1" counts
 * an intercept that here has a flat prior and is projected out). With L L'
 * = A_tau and z = L^{-1} b, beta = L^{-T}(z + sigma xi) has mean A_tau^{-1}
 * b and covariance sigma^2 A_tau^{-1}; and beta' G_A beta = |z + sigma
 * xi|^2 - tau |beta|^2 gives the RSS without touching the n rows. Given
 * beta, lambda and sigma^2 are independent, so their order is free. The
 * caller rebuilds the factor for the new tau = sigma^2 lambda. */
static int ridge_draw(bsl_coef_prior *p, double *g_o, const bsl_coef_suff *s, gsl_rng *r)
{
    const size_t k = s->k, c = s->c;
    const double N = s->N, sigma = sqrt(p->sigma2);
    double sum_b2 = 0, rss = 0;
    double *t = s->work;
    for (size_t o = 0; o < c; o++) {
        double lb2 = 0, bb = 0, b2 = 0;
        for (size_t i = 0; i < k; i++) {
            t[i] = s->z[i * c + o] + sigma * gsl_ran_ugaussian(r);
            lb2 += t[i] * t[i];
        }
        bsl_chol_solve_upper(s->chol, t);
        for (size_t i = 0; i < k; i++) {
            bb += t[i] * s->bA[i * c + o];
            b2 += t[i] * t[i];
        }
        const double bGb = lb2 - s->tau * b2;
        rss += fmax(s->yy[o] - 2 * bb + bGb, 0.0);
        sum_b2 += b2;
    }
    p->lambda = gsl_ran_gamma(r, p->c + 0.5 * (double)(k * c), 1.0 / (p->d + 0.5 * sum_b2));
    p->sigma2 = 1.0 / gsl_ran_gamma(r, p->a + 0.5 * N * (double)c, 1.0 / (p->b + 0.5 * rss));
    return BASEL_OK;
}

static void ridge_fix(bsl_coef_prior *p, const double *mean)
{
    p->sigma2 = mean[0];
    p->lambda = mean[1];
}

/* lambda may be 0: its Gibbs draw at k = 0, Gamma(c, d) with c = 1e-3
 * (paper 004 eq. 17), underflows to 0 about half the time, and a
 * checkpoint of that state must load (it did not: restarts failed) */
static int ridge_ok(const bsl_coef_prior *p, const double *sc, size_t c)
{
    return sc[0] > 0 && sc[1] >= 0 && isfinite(sc[1]);
}

static int ridge_read(bsl_coef_prior *p, const json_t *o)
{
    bsl_coef_numbers_read(p, o);
    return p->sigma2 > 0 && p->lambda > 0 && isfinite(p->sigma2 * p->lambda) ? 0 : -1;
}

static const char *const ridge_examples[] = {"ridge:lambda=0.5,sigma2=1.3", "ridge:a=2,b=2,c=2,d=1", NULL};

const bsl_coef_prior_type bsl_coef_ridge = {
    .name = "ridge",
    .usage = "ridge[:lambda=L,sigma2=S]",
    .id = 1,
    .model = BSL_COEF_MODEL_GAUSS,
    .keys = "lambda, sigma2, a, b, c, d",
    .examples = ridge_examples,
    .fixed_hint = "ridge:lambda=..,sigma2=..",
    .reads_logdet = 1,
    .sigma2_given = 1,
    .parse = ridge_parse,
    .tau = ridge_tau,
    .log_ml = ridge_log_ml,
    .shrink = bsl_coef_shrink_none,
    .post_df = ridge_df,
    .post_scale2 = ridge_scale2,
    .sigma2_mean = ridge_sigma2,
    .nuisance_start = ridge_start,
    .nuisance = ridge_nuisance,
    .nuisance_set = ridge_nuisance_set,
    .nuisance_draw = ridge_draw,
    .nuisance_fix = ridge_fix,
    .nuisance_ok = ridge_ok,
    .to_json = bsl_coef_numbers_json,
    .from_json = ridge_read,
};
