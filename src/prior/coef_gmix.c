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
 * integrated by adaptive Gauss-Kronrod (GSL's 21-point rule) to a relative
 * 1e-10, so neither a large N nor R^2 near 1 overflows. The posterior mean's
 * shrinkage E[g/(1+g) | y, A] is the same integral with the factor
 * g/(1+g), and E[sigma^2 | y, A] = yy (1 - E[g/(1+g)] R^2)/(N - 2) (the
 * g-prior's is linear in g/(1+g)): both exact.
 *
 * Within one model the coefficients' posterior is a mixture over g of the
 * g-prior's Student-t's, not one Student-t: the coefficient table's
 * intervals are marked (within_model) and prediction intervals refused
 * (pred_gauss.c), never a silent plug-in.
 *
 * eb-local (BAS's "EB-local", Liang et al. sec. 2.4) is the g-prior at each
 * model's own maximum of BF(g), g^ = max(R^2 (N - k) / (k (1 - R^2)) - 1, 0):
 * given g^ every part is the g-prior's, exactly.
 *
 * BAS's "EB-global" (one g shared by all models, found by EM over the
 * enumerated models) depends on every model's R^2, so no model can be
 * scored from its own statistics alone: it is the g-prior at that g, an
 * entry of coef_g.c whose choose_g enumerate calls between two walks.
 */
#include "coef_prior.h"

#include <float.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_gamma.h>
#include <math.h>

#define EPSREL 1e-10 /* the quadrature's relative tolerance: well below the 1e-6 PIPs need */

/* the integrand's data: one model's statistics and its prior's */
typedef struct mix {
    const bsl_coef_prior *p;
    double N, k, e;  /* e = 1 - R^2 (> 0) */
    double log_e;
    double n;        /* rows (hyper-g/n's g/n, jzs's n/2, robust's n) */
    double c0;       /* log pi's constant */
    double u_lo;     /* log of the smallest g the prior allows (-inf: 0) */
    double mode, sd; /* u* and the scale of z = (u - u*)/sd */
    double l_max;    /* l(u*) */
    int shrink;      /* 1: times g/(1+g) */
} mix;

/* log1p(e^v) into *L and its derivative e^v / (1 + e^v) into *s, with one
 * exp and one log1p and no overflow */
static void log1pexp(double v, double *L, double *s)
{
    const double t = exp(-fabs(v));
    *L = (v > 0 ? v : 0) + log1p(t);
    *s = v > 0 ? 1 / (1 + t) : t / (1 + t);
}

/* log BF(g) + log pi(g) + u (dg = g du), and its derivative in u (*d) */
static double l_of(const mix *x, double u, double *d)
{
    const double N = x->N, k = x->k, a = x->p->a;
    double L1, s, L2, se;
    log1pexp(u, &L1, &s);           /* log1p(g) and its derivative */
    log1pexp(u + x->log_e, &L2, &se); /* log1p(g e) */
    double l = 0.5 * (N - k) * L1 - 0.5 * N * L2 + u + x->c0;
    double dl = 0.5 * (N - k) * s - 0.5 * N * se + 1;
    if (x->p->type == &bsl_coef_hyper_g) { /* pi(g) = (a - 2)/2 (1 + g)^(-a/2), Liang et al. eq. 16 */
        l -= 0.5 * a * L1;
        dl -= 0.5 * a * s;
    } else if (x->p->type == &bsl_coef_hyper_gn) { /* (a - 2)/(2n) (1 + g/n)^(-a/2), Liang et al. sec. 3.2 */
        double Ln, sn;
        log1pexp(u - log(x->n), &Ln, &sn);
        l -= 0.5 * a * Ln;
        dl -= 0.5 * a * sn;
    } else if (x->p->type == &bsl_coef_jzs) { /* 1/g ~ Gamma(1/2, rate r n / 2), Zellner and Siow 1980 */
        const double b_g = 0.5 * a * x->n * exp(-u); /* a holds r */
        l += -1.5 * u - b_g;
        dl += -1.5 + b_g;
    } else { /* robust: 1/2 sqrt(rho (1 + n)) (1 + g)^(-3/2) on g > rho (1 + n) - 1, rho = 1/(k + 1);
              * Bayarri et al. eq. (20) with a = 1/2, b = 1 */
        l -= 1.5 * L1;
        dl -= 1.5 * s;
    }
    if (x->shrink) { /* log(g/(1+g)) */
        l += u - L1;
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
    /* the centre need not be exact (the integral is the same about any
     * point): to 1e-6 in u, below the peak's width at n = 10^9 */
    for (int it = 0; it < 200 && hi - lo > 1e-6; it++) {
        const double mid = 0.5 * (lo + hi);
        l_of(x, mid, &d);
        if (d > 0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

static double integrand(double z, const mix *x) { return exp(l_of(x, x->mode + x->sd * z, NULL) - x->l_max); }

/* z = side (1 - t)/t maps t in (0, 1] onto a half line (side +1: [0, inf),
 * -1: (-inf, 0]), dz = dt / t^2; side 0: z = t itself */
typedef struct half {
    const mix *x;
    int side;
} half;

static double on_t(double t, void *arg)
{
    const half *h = arg;
    if (h->side == 0) return integrand(t, h->x);
    const double z = h->side * (1 - t) / t;
    return integrand(z, h->x) / (t * t);
}

/* Adaptive Gauss-Kronrod (21 points, GSL's gsl_integration_qk21, which
 * only evaluates the rule) on [a, b]: bisect the interval of largest error
 * until the errors sum below EPSREL of the total. Written out rather than
 * gsl_integration_qag, whose failures go through GSL's error handler, which
 * aborts by default, and the library never aborts (basel.h); the intervals
 * live on the stack, no allocation per model scored. */
static double gk_adapt_f(gsl_function f, double a, double b)
{
    enum { LIMIT = 64 };
    double lo[LIMIT], hi[LIMIT], r[LIMIT], e[LIMIT], rabs, rasc;
    gsl_integration_qk21(&f, a, b, &r[0], &e[0], &rabs, &rasc);
    lo[0] = a;
    hi[0] = b;
    size_t n = 1;
    for (;;) {
        double sum = 0, err = 0;
        size_t worst = 0;
        for (size_t i = 0; i < n; i++) {
            sum += r[i];
            err += e[i];
            if (e[i] > e[worst]) worst = i;
        }
        if (err <= EPSREL * fabs(sum) || n + 1 > LIMIT) return sum;
        const double mid = 0.5 * (lo[worst] + hi[worst]);
        lo[n] = mid;
        hi[n] = hi[worst];
        hi[worst] = mid;
        gsl_integration_qk21(&f, lo[worst], mid, &r[worst], &e[worst], &rabs, &rasc);
        gsl_integration_qk21(&f, mid, hi[n], &r[n], &e[n], &rabs, &rasc);
        n++;
    }
}

static double gk_adapt(const half *h, double a, double b) { return gk_adapt_f((gsl_function){on_t, (void *)h}, a, b); }

/* log int exp(l(u)) du (-inf only if no positive finite value came back) */
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
    const half up = {x, 1}, down = {x, -1}, mid = {x, 0};
    const double right = gk_adapt(&up, 0, 1), z_lo = (x->u_lo - x->mode) / x->sd;
    double left = 0;
    if (!isfinite(x->u_lo)) left = gk_adapt(&down, 0, 1);
    else if (z_lo < 0) left = gk_adapt(&mid, z_lo, 0);
    if (!(right + left > 0) || !isfinite(right + left)) return -INFINITY;
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
    x->log_e = log(x->e);
    x->n = p->b;
    x->u_lo = -INFINITY;
    const double a = p->a;
    if (p->type == &bsl_coef_hyper_g) x->c0 = log(0.5 * (a - 2));
    else if (p->type == &bsl_coef_hyper_gn) x->c0 = log(0.5 * (a - 2) / x->n);
    else if (p->type == &bsl_coef_jzs) x->c0 = 0.5 * log(0.5 * a * x->n) - 0.5 * log(M_PI);
    else x->c0 = log(0.5) + 0.5 * log((1 + x->n) / (x->k + 1));
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

/* ---- the GLMs' marginals (coef_prior.h glm_log_ml), BAS's
 * src/betapriorfamily.c, which integrates Li and Clyde's (2018) eq. 9 over
 * each prior on g in closed form. */

/* log P(a, x), the regularised lower incomplete gamma (R's pgamma(x, a,
 * log.p = TRUE)), a > 0; its series' leading term where P underflows. The
 * _e form: its failures return a status instead of reaching GSL's error
 * handler, which aborts by default (the library never aborts, basel.h). */
static double log_gamma_p(double a, double x)
{
    gsl_sf_result P;
    if (!(x > 0)) return -INFINITY;
    if (gsl_sf_gamma_inc_P_e(a, x, &P) == GSL_SUCCESS && P.val > 0) return log(P.val);
    return a * log(x) - x - gsl_sf_lngamma(a + 1);
}

/* robust (Bayarri et al. 2012), BAS's robust_glm_logmarg: with rho = 1/(k+1),
 * x = (k + 1) Q / (2 (n + 1)),
 *     -log 2 + (1/2) log((n + 1)/(k + 1)) + lgamma((k+1)/2) - ((k+1)/2) log(Q/2) + log P((k+1)/2, x),
 * and robust_glm_shrinkage, 1 - ((k+1)/2) / (Q/2) P((k+1)/2 + 1, x) / P((k+1)/2, x). */
static double robust_glm_log_ml(const bsl_coef_prior *p, double n, size_t k, double Q)
{
    const double a = 0.5 * ((double)k + 1), x = a / (n + 1) * Q;
    return -M_LN2 + 0.5 * (log(n + 1) - log((double)k + 1)) + gsl_sf_lngamma(a) - a * log(0.5 * Q) +
           log_gamma_p(a, x);
}

static double robust_glm_shrink(const bsl_coef_prior *p, double n, size_t k, double Q)
{
    const double a = 0.5 * ((double)k + 1), x = a / (n + 1) * Q;
    return 1 - exp(log(a) - log(0.5 * Q) + log_gamma_p(a + 1, x) - log_gamma_p(a, x));
}

/* hyper-g/n (Liang et al. 2008 sec. 3.2, pi(g) = (a - 2)/(2n) (1 + g/n)^(-a/2)),
 * BAS's tCCH_glm_logmarg with hyper.g.n's hyper-parameters: in z = 1/(1+g),
 *     int (1+g)^(-k/2) e^(-Q/(2(1+g))) pi(g) dg
 *         = (a - 2)/(2n) int_0^1 z^(t-1) (theta + (1 - theta) z)^(-a/2) e^(-Q z/2) dz,
 * t = (k + a - 2)/2, theta = 1/n (BAS's tcch_int(t, 1, a/2, Q/2, 1, theta),
 * by QUADPACK at a relative 1.2e-4, over the same integral at k = 0, Q = 0,
 * which is 2n/(a - 2) exactly, the constant used here); the integral by
 * gk_adapt_f to EPSREL. Shrinkage 1 - E[z | y] (tCCH_glm_shrinkage). */
typedef struct tcch {
    double t, r, s, theta;
} tcch;

static double tcch_f(double z, void *arg)
{
    const tcch *c = arg;
    return z > 0 ? exp((c->t - 1) * log(z) - c->r * log(c->theta + (1 - c->theta) * z) - c->s * z) : 0.0;
}

static double log_tcch(double t, double r, double s, double theta)
{
    tcch c = {t, r, s, theta};
    return log(gk_adapt_f((gsl_function){tcch_f, &c}, 0, 1));
}

static double hyper_gn_glm_log_ml(const bsl_coef_prior *p, double n, size_t k, double Q)
{
    const double a = p->a;
    return log(0.5 * (a - 2) / n) + log_tcch(0.5 * ((double)k + a - 2), 0.5 * a, 0.5 * Q, 1 / n);
}

static double hyper_gn_glm_shrink(const bsl_coef_prior *p, double n, size_t k, double Q)
{
    const double a = p->a, t = 0.5 * ((double)k + a - 2);
    return 1 - exp(log_tcch(t + 1, 0.5 * a, 0.5 * Q, 1 / n) - log_tcch(t, 0.5 * a, 0.5 * Q, 1 / n));
}

/* eb-local, BAS's EB_local_glm_logmarg: the g-prior's at g^ = max(Q/k - 1, 0) */
static double eb_glm_ghat(size_t k, double Q) { return k ? fmax(Q / (double)k - 1, 0.0) : 0.0; }

static double eb_glm_log_ml(const bsl_coef_prior *p, double n, size_t k, double Q)
{
    const double g = eb_glm_ghat(k, Q);
    return g > 0 ? -0.5 * (double)k * log1p(g) - 0.5 * Q / (1 + g) : 0.0;
}

static double eb_glm_shrink(const bsl_coef_prior *p, double n, size_t k, double Q)
{
    const double g = eb_glm_ghat(k, Q);
    return g / (1 + g);
}

#define WITHIN_MIX "mixture over g: intervals are the Student-t at E[g/(1+g) | y, model], not the exact mixture"

#define MIX_ENTRY(var, nm, use, num, ks, ex, parse_fn, glm_ml, glm_sh)                                                                          \
    const bsl_coef_prior_type var = {                                                                              \
        .name = nm, .usage = use, .id = num, .model = BSL_COEF_MODEL_GAUSS, .keys = ks, .examples = ex,              \
        .fixed_hint = nm,                                                                                          \
        .tau_fixed = 1, .scale_free = 1, .within_model = WITHIN_MIX, .parse = parse_fn,                             \
        .tau = bsl_coef_tau_zero, .log_ml = mix_log_ml, .shrink = mix_shrink, .post_df = mix_df,                    \
        .post_scale2 = mix_scale2, .sigma2_mean = mix_sigma2, .nuisance_ok = bsl_coef_nuisance_any,                 \
        .glm_log_ml = glm_ml, .glm_shrink = glm_sh, .to_json = bsl_coef_numbers_json, .from_json = mix_read,       \
    }

/* The engines x priors test (its 300 CPU-s) runs hyper-g, the mixtures'
 * one code path: with it the test used 94 CPU-s, with all four it ran out
 * of its 300 (every score is a quadrature); hyper-g/n, jzs and robust differ from it only in l_of's
 * prior term, which test_coef_gmix.c checks against Simpson and the
 * enumeration against BAS (tests/cli/test_bas.sh). */
static const char *const hyper_g_examples[] = {"hyper-g:a=3.5", NULL};
MIX_ENTRY(bsl_coef_hyper_g, "hyper-g", "hyper-g[:a=A] (BAS's mixtures of g-priors: a = 3 by default)", 9, "a", hyper_g_examples, hyper_g_parse, NULL, NULL);

static const char *const hyper_gn_examples[] = {NULL};
MIX_ENTRY(bsl_coef_hyper_gn, "hyper-g/n", "hyper-g/n[:a=A] (a = 3 by default)", 10, "a", hyper_gn_examples, hyper_g_parse, hyper_gn_glm_log_ml,
          hyper_gn_glm_shrink);

static const char *const jzs_examples[] = {NULL};
MIX_ENTRY(bsl_coef_jzs, "jzs", "jzs[:r=R] (Zellner-Siow, r = 1)", 11, "r", jzs_examples, jzs_parse, NULL, NULL);

static const char *const robust_examples[] = {NULL};
MIX_ENTRY(bsl_coef_robust, "robust", "robust", 12, "", robust_examples, robust_parse, robust_glm_log_ml, robust_glm_shrink);

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
    .usage = "eb-local (BAS's local empirical Bayes g, each model's own; one target)",
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
    .glm_log_ml = eb_glm_log_ml,
    .glm_shrink = eb_glm_shrink,
    .to_json = bsl_coef_numbers_json,
    .from_json = bsl_coef_flat_read,
};
