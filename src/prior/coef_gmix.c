/* coef_gmix.c: mixtures of g-priors, BAS's linear priors (Liang et al. 2008,
 * "Mixtures of g priors for Bayesian variable selection", JASA 103:410-423;
 * Bayarri et al. 2012, "Criteria for Bayesian model choice with application
 * to variable selection", Ann. Stat. 40:1550-1577): Zellner's g-prior
 * (coef_g.c) with g integrated against a prior pi(g), sigma^2 Jeffreys, one
 * output. With R^2 = quad / yy and N = n - q (BAS's n - 1), the g-prior's
 * Bayes factor against the null model is
 *     BF(g) = (1 + g)^((N - k)/2) (1 + g (1 - R^2))^(-N/2)
 * (Liang et al. eq. 5), and each entry's log marginal is log of
 *     int_0^inf BF(g) pi(g) dg,
 * computed in log space over u = log g: centred at the mode u* of the log
 * integrand l(u) = log BF + log pi + u, scaled by the curvature there, and
 * integrated by GSL's adaptive QUADPACK (qagiu / qagil / qags) to a relative
 * 1e-10, so neither a large N nor R^2 near 1 overflows. The posterior mean's
 * shrinkage E[g/(1+g) | y, A] is the same integral with the factor
 * g/(1+g), and E[sigma^2 | y, A] = yy (1 - E[g/(1+g)] R^2)/(N - 2) (the
 * g-prior's is linear in g/(1+g)): both exact.
 *
 * Within one model the coefficients' posterior is a mixture over g of the
 * g-prior's Student-t's, not one Student-t: the coefficient table's
 * intervals are marked (within_model) and prediction intervals refused
 * (subset_predict.c), never a silent plug-in.
 *
 * eb-local (BAS's "EB-local", Liang et al. sec. 2.4) is the g-prior at each
 * model's own maximum of BF(g), g^ = max(R^2 (N - k) / (k (1 - R^2)) - 1, 0):
 * given g^ every part is the g-prior's, exactly.
 *
 * BAS's "EB-global" (one g shared by all models, found by EM over the
 * enumerated models) is not an entry: its g depends on every model's R^2,
 * so no model can be scored from its own sufficient statistics, which is
 * what the table is. It is the g-prior at that g (--prior g:g=G).
 */
#include "coef_prior.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>

/* the integrand's data: one model's statistics and its prior's */
typedef struct mix {
    const bsl_coef_prior *p;
    double N, k, e;  /* e = 1 - R^2 (> 0) */
    double n;        /* rows (hyper-g/n's g/n, jzs's n/2, robust's n) */
    double u_lo;     /* log of the smallest g the prior allows (-inf: 0) */
    double mode, sd; /* u* and the scale of z = (u - u*)/sd */
    double l_max;    /* l(u*) */
    int shrink;      /* 1: times g/(1+g) */
} mix;

/* log1p(e^u) without overflow */
static double log1pexp(double u) { return u > 35 ? u + log1p(exp(-u)) : log1p(exp(u)); }

/* log BF(g) + log pi(g) + u (dg = g du), and its derivative in u (*d) */
static double l_of(const mix *x, double u, double *d)
{
    const double N = x->N, k = x->k, e = x->e, g = exp(u), a = x->p->a;
    const double s = u > 35 ? 1.0 : g / (1 + g);        /* d log1p(g) / du */
    const double se = 1 / (1 + exp(-(u + log(e))));     /* d log1p(g e) / du */
    double l = 0.5 * (N - k) * log1pexp(u) - 0.5 * N * log1pexp(u + log(e)) + u;
    double dl = 0.5 * (N - k) * s - 0.5 * N * se + 1;
    if (x->p->type == &bsl_coef_hyper_g) { /* pi(g) = (a - 2)/2 (1 + g)^(-a/2), Liang et al. eq. 16 */
        l += log(0.5 * (a - 2)) - 0.5 * a * log1pexp(u);
        dl -= 0.5 * a * s;
    } else if (x->p->type == &bsl_coef_hyper_gn) { /* (a - 2)/(2n) (1 + g/n)^(-a/2), Liang et al. sec. 3.2 */
        const double ln = log(x->n), sn = 1 / (1 + exp(-(u - ln)));
        l += log(0.5 * (a - 2) / x->n) - 0.5 * a * log1pexp(u - ln);
        dl -= 0.5 * a * sn;
    } else if (x->p->type == &bsl_coef_jzs) { /* 1/g ~ Gamma(1/2, rate r n / 2), Zellner and Siow 1980 */
        const double b = 0.5 * a * x->n;                  /* a holds r */
        l += 0.5 * log(b) - 0.5 * log(M_PI) - 1.5 * u - b * exp(-u);
        dl += -1.5 + b * exp(-u);
    } else { /* robust: 1/2 sqrt(rho (1 + n)) (1 + g)^(-3/2) on g > rho (1 + n) - 1, rho = 1/(k + 1);
              * Bayarri et al. eq. (20) with a = 1/2, b = 1 */
        l += log(0.5) + 0.5 * log((1 + x->n) / (k + 1)) - 1.5 * log1pexp(u);
        dl -= 1.5 * s;
    }
    if (x->shrink) {
        l += u - log1pexp(u);
        dl += 1 - s;
    }
    if (d) *d = dl;
    return l;
}

/* the mode of l on (u_lo, inf): l' > 0 far left (or at u_lo) and < 0 far
 * right; bisection on the sign of l' (l is unimodal in u for these priors) */
static double find_mode(const mix *x)
{
    double d, lo = isfinite(x->u_lo) ? x->u_lo : -5, hi = fmax(5, lo + 10);
    l_of(x, lo, &d);
    if (isfinite(x->u_lo) && d <= 0) return lo;
    while (!isfinite(x->u_lo) && d <= 0 && lo > -700) { /* left until l' > 0 */
        lo -= 10;
        l_of(x, lo, &d);
    }
    for (l_of(x, hi, &d); d > 0 && hi < 700; l_of(x, hi, &d)) hi += 10;
    for (int it = 0; it < 200 && hi - lo > 1e-12 * fmax(1, fabs(lo)); it++) {
        const double mid = 0.5 * (lo + hi);
        l_of(x, mid, &d);
        if (d > 0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

static double integrand(double z, void *arg)
{
    const mix *x = arg;
    return exp(l_of(x, x->mode + x->sd * z, NULL) - x->l_max);
}

/* log int exp(l(u)) du, or -inf if the quadrature failed */
static double log_integral(mix *x)
{
    x->mode = find_mode(x);
    double d1, d2;
    const double h = 1e-4;
    x->l_max = l_of(x, x->mode, NULL);
    l_of(x, x->mode + h, &d1);
    l_of(x, x->mode - h, &d2);
    const double curv = -(d1 - d2) / (2 * h);
    x->sd = curv > 1e-8 ? 1 / sqrt(curv) : 1.0;
    /* a workspace on the stack: no allocation per model scored */
    enum { LIMIT = 100 };
    double al[LIMIT], bl[LIMIT], rl[LIMIT], el[LIMIT];
    size_t ord[LIMIT], lev[LIMIT];
    gsl_integration_workspace w = {LIMIT, 0, 0, 0, 0, al, bl, rl, el, ord, lev};
    gsl_function f = {integrand, x};
    double right = 0, left = 0, err;
    int rc = gsl_integration_qagiu(&f, 0, 0, 1e-10, LIMIT, &w, &right, &err);
    const double z_lo = (x->u_lo - x->mode) / x->sd;
    if (!rc && isfinite(x->u_lo)) {
        if (z_lo < 0) rc = gsl_integration_qags(&f, z_lo, 0, 0, 1e-10, LIMIT, &w, &left, &err);
    } else if (!rc) {
        rc = gsl_integration_qagil(&f, 0, 0, 1e-10, LIMIT, &w, &left, &err);
    }
    if (rc || !(right + left > 0)) return -INFINITY;
    return x->l_max + log(x->sd) + log(right + left);
}

static void mix_init(mix *x, const bsl_coef_prior *p, double N, size_t k, double yy, double quad)
{
    x->p = p;
    x->N = N;
    x->k = (double)k;
    /* R^2 = 1 exactly would make BF(g) unbounded in g: the smallest e keeps
     * the integral finite (and in log space) */
    x->e = yy > 0 ? fmax(fmax(yy - quad, 0.0) / yy, DBL_EPSILON * DBL_EPSILON) : 1.0;
    x->n = p->b;
    x->u_lo = -INFINITY;
    if (p->type == &bsl_coef_robust) {
        const double g_lo = (1 + x->n) / (x->k + 1) - 1;
        x->u_lo = g_lo > 0 ? log(g_lo) : -INFINITY;
    }
    x->shrink = 0;
}

/* the null model (k = 0) has BF 1: log marginal 0, as BAS's */
static double mix_log_ml(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k, double logdet,
                         const double *quad, const double *yy, const double *gv, const double *lg)
{
    if (k == 0) return 0.0;
    mix x;
    mix_init(&x, p, (double)(n - q), k, yy[0], quad[0]);
    if (!(x.N > x.k)) return -INFINITY; /* no residual degrees of freedom: BF(g) is not integrable */
    return log_integral(&x);
}

/* E[g/(1+g) | y, A]: the ratio of two integrals (1: the null model) */
static double mix_shrink(const bsl_coef_prior *p, double g, double N, size_t k, double yy, double quad)
{
    if (k == 0) return 1.0;
    mix x;
    mix_init(&x, p, N, k, yy, quad);
    if (!(x.N > x.k)) return 1.0;
    const double den = log_integral(&x);
    x.shrink = 1;
    const double num = log_integral(&x);
    return isfinite(num) && isfinite(den) ? fmin(exp(num - den), 1.0) : 1.0;
}

/* the g-prior's under Jeffreys' sigma^2 (coef_g.c), with s = E[g/(1+g)]:
 * yy (1 - s R^2) / (N - 2) is linear in g/(1+g), so its mean over g is exact */
static double mix_sigma2(const bsl_coef_prior *p, double N, size_t k, double yy, double quad, double g)
{
    const double s = p->type->shrink(p, g, N, k, yy, quad);
    return (yy - s * quad) / fmax(N - 2, 1);
}

static double mix_df(const bsl_coef_prior *p, double N, double k) { return N; }

static double mix_scale2(const bsl_coef_prior *p, double N, double df, double yy, double quad, double s)
{
    return fmax(yy - s * quad, 0.0) / N;
}

static int one_output(const char *name, size_t c, basel_error *err)
{
    if (c == 1) return BASEL_OK;
    return bsl_fail(err, BASEL_EINVAL, "--prior %s: one target only (%zu given): its g is integrated per model", name, c);
}

/* a > 2: pi(g) is proper (Liang et al.: 2 < a <= 4; BAS's alpha, default 3) */
static int hyper_g_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    int rc = one_output(p->type->name, c, err);
    if (!rc) rc = bsl_spec_double(s, "a", 3.0, 2 + 1e-9, 1e6, &p->a, err);
    p->b = (double)n;
    return rc;
}

/* r: the scale of the Cauchy, 1/g ~ Gamma(1/2, r n/2) (BAS's alpha, default 1) */
static int jzs_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    int rc = one_output(p->type->name, c, err);
    if (!rc) rc = bsl_spec_double(s, "r", 1.0, 1e-12, 1e12, &p->a, err);
    p->b = (double)n;
    return rc;
}

static int robust_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    p->b = (double)n;
    return one_output(p->type->name, c, err);
}

/* a (hyper-g, hyper-g/n: > 2; jzs: r > 0) and b = n, as parse set them */
static int mix_read(bsl_coef_prior *p, const json_t *o)
{
    bsl_coef_numbers_read(p, o);
    const int a_ok = p->type == &bsl_coef_robust || (p->type == &bsl_coef_jzs ? p->a > 0 : p->a > 2);
    return a_ok && isfinite(p->a) && p->b >= 1 && isfinite(p->b) ? 0 : -1;
}

#define WITHIN_MIX "mixture over g: intervals are the Student-t at E[g/(1+g) | y, model], not the exact mixture"

#define MIX_ENTRY(var, nm, num, ks, ex, parse_fn)                                                                            \
    const bsl_coef_prior_type var = {                                                                              \
        .name = nm, .id = num, .model = BSL_COEF_MODEL_GAUSS, .keys = ks, .examples = ex, .fixed_hint = nm,       \
        .tau_fixed = 1, .scale_free = 1, .within_model = WITHIN_MIX, .parse = parse_fn,                             \
        .tau = bsl_coef_tau_zero, .log_ml = mix_log_ml, .shrink = mix_shrink, .post_df = mix_df,                    \
        .post_scale2 = mix_scale2, .sigma2_mean = mix_sigma2, .nuisance_ok = bsl_coef_nuisance_any,                 \
        .to_json = bsl_coef_numbers_json, .from_json = mix_read,                                                   \
    }

static const char *const hyper_g_examples[] = {"hyper-g", "hyper-g:a=4", NULL};
MIX_ENTRY(bsl_coef_hyper_g, "hyper-g", 9, "a", hyper_g_examples, hyper_g_parse);

static const char *const hyper_gn_examples[] = {"hyper-g/n", NULL};
MIX_ENTRY(bsl_coef_hyper_gn, "hyper-g/n", 10, "a", hyper_gn_examples, hyper_g_parse);

static const char *const jzs_examples[] = {"jzs", NULL};
MIX_ENTRY(bsl_coef_jzs, "jzs", 11, "r", jzs_examples, jzs_parse);

static const char *const robust_examples[] = {"robust", NULL};
MIX_ENTRY(bsl_coef_robust, "robust", 12, "", robust_examples, robust_parse);

/* ---- eb-local: the g-prior at g^ (file comment) */

static double eb_ghat(double N, size_t k, double yy, double quad)
{
    if (k == 0 || !(N > (double)k) || !(yy > 0)) return 0.0;
    const double r2 = fmin(fmax(quad / yy, 0.0), 1.0), e = fmax(1 - r2, DBL_EPSILON * DBL_EPSILON);
    return fmax(r2 * (N - (double)k) / ((double)k * e) - 1, 0.0);
}

/* BAS's logBF_EB: ((N - k)/2) log(1 + g^) - (N/2) log(1 + g^ (1 - R^2)) */
static double eb_log_ml(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k, double logdet,
                        const double *quad, const double *yy, const double *gv, const double *lg)
{
    const double N = (double)(n - q);
    if (k == 0 || !(N > (double)k)) return 0.0;
    const double g = eb_ghat(N, k, yy[0], quad[0]), e = fmax(fmax(yy[0] - quad[0], 0.0) / yy[0], 0.0);
    return 0.5 * (N - (double)k) * log1p(g) - 0.5 * N * log1p(g * e);
}

static double eb_shrink(const bsl_coef_prior *p, double g, double N, size_t k, double yy, double quad)
{
    const double gh = eb_ghat(N, k, yy, quad);
    return k == 0 ? 1.0 : gh / (1 + gh);
}

/* the g-prior's under Jeffreys' sigma^2 at g^ */
static double eb_sigma2(const bsl_coef_prior *p, double N, size_t k, double yy, double quad, double g)
{
    return (yy - eb_shrink(p, g, N, k, yy, quad) * quad) / fmax(N - 2, 1);
}

static int eb_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    return one_output(p->type->name, c, err);
}

static const char *const eb_examples[] = {"eb-local", NULL};

const bsl_coef_prior_type bsl_coef_eb_local = {
    .name = "eb-local",
    .id = 13,
    .model = BSL_COEF_MODEL_GAUSS,
    .keys = "",
    .examples = eb_examples,
    .fixed_hint = "eb-local",
    .tau_fixed = 1,
    .scale_free = 1,
    .parse = eb_parse,
    .tau = bsl_coef_tau_zero,
    .log_ml = eb_log_ml,
    .shrink = eb_shrink,
    .post_df = mix_df,
    .post_scale2 = mix_scale2,
    .sigma2_mean = eb_sigma2,
    .nuisance_ok = bsl_coef_nuisance_any,
    .to_json = bsl_coef_numbers_json,
    .from_json = bsl_coef_flat_read,
};
