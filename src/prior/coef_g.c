/* coef_g.c: Zellner's g-prior (model.h has its marginal): g fixed, or g ~
 * IG(a, b) sampled with the atoms (the hierarchical g of papers 002, 003,
 * their delta^2), one g for all outputs or one per output (rbf); sigma^2
 * Jeffreys, or IG(a0, b0) (a0, b0 > 0: rbf). tau = 0. And uip, the g-prior
 * with g = n (bottom). */
#include "coef_prior.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int g_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    /* g fixed, or (a and b given) g ~ IG(a, b) sampled, starting at g
     * (the hierarchical g of papers 002, 003: delta^2 ~ IG(a, b)) */
    const int given = bsl_spec_has(s, "a") + bsl_spec_has(s, "b");
    if (given == 1)
        return bsl_fail(err, BASEL_EINVAL, "--prior g: give both a and b (g ~ IG(a, b) sampled) or neither");
    p->sample_nuisance = given == 2;
    int rc = bsl_spec_double(s, "g", (double)n, 1e-12, 1e300, &p->g, err);
    if (!rc && p->sample_nuisance) rc = bsl_spec_double(s, "a", 2.0, 1e-300, 1e300, &p->a, err);
    if (!rc && p->sample_nuisance) rc = bsl_spec_double(s, "b", 10.0, 1e-300, 1e300, &p->b, err);
    return rc;
}

/* BAS's log p = ((N-k)/2) log(1+g) - (N/2) log(1 + g (1 - R^2)); with
 * sigma^2 ~ IG(a0, b0): -(k/2) log(1+g) - (a0 + N/2) log(b0 + (yy - g/(1+g) quad)/2) */
static double g_log_ml(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k, double logdet,
                       const double *quad, const double *yy, const double *gv, const double *lg)
{
    const double N = (double)(n - q), kk = (double)k;
    double s = 0;
    for (size_t o = 0; o < c; o++) {
        const double r0 = yy[o] - quad[o], rss = r0 > 0 ? r0 : 0.0; /* fmax, inline */
        const double g = gv ? gv[o] : p->g, log1p_g = lg ? lg[o] : log1p(g);
        if (p->a0 > 0 || p->b0 > 0) { /* sigma^2 ~ IG(a0, b0) */
            const double ss = fmax(yy[o] - g / (1 + g) * quad[o], 0.0);
            s += -0.5 * kk * log1p_g - (p->a0 + 0.5 * N) * log(p->b0 + 0.5 * ss);
            continue;
        }
        const double one_minus_r2 = rss / yy[o];
        s += 0.5 * (N - kk) * log1p_g - 0.5 * N * log1p(g * one_minus_r2);
    }
    return s;
}

/* Under Jeffreys' sigma^2 with one output the score of k + 1 atoms is
 *     S(qd) = const_k - (N / 2) log1p(g rss / yy),  rss = max(yy - qd, 0),
 * increasing in the new quadratic form qd alone, so with the best qd_b
 * (rss_b) known, S(qd) < S(qd_b) - within exactly when
 *     rss > yy / g * expm1(log1p(g rss_b / yy) + 2 within / N),
 * one logarithm for the whole pass instead of one per atom (they were a
 * third of an informed move at p = 20000). The bound is taken with within
 * + 1, so rounding never screens an atom that is within `within`. */
static double g_screen(const bsl_coef_prior *p, double yy, double g, double N, double within, double qd_best)
{
    if (p->a0 > 0 || p->b0 > 0) return -INFINITY;
    if (!(yy > 0 && g > 0 && N > 0)) return -INFINITY;
    const double rss_b = fmax(yy - qd_best, 0.0);
    const double rss_max = yy / g * expm1(log1p(g * rss_b / yy) + 2 * (within + 1) / N);
    return yy - rss_max;
}

static double g_shrink(const bsl_coef_prior *p, double g, double N, size_t k, double yy, double quad)
{
    return g / (1 + g);
}

/* sigma^2 | y ~ IG(a0 + N/2, b0 + (yy - s quad)/2): the predictive's df and
 * scale (subset_post.c) */
static double g_df(const bsl_coef_prior *p, double N, double k) { return 2 * p->a0 + N; }

static double g_scale2(const bsl_coef_prior *p, double N, double df, double yy, double quad, double s)
{
    return (p->b0 + 0.5 * fmax(yy - s * quad, 0.0)) / (p->a0 + 0.5 * N);
}

/* E[sigma^2 | y, M] under Jeffreys: (yy (1 - g/(1+g) R^2)) / (N - 2);
 * under IG(a0, b0): (b0 + ss/2) / (a0 + N/2 - 1) */
static double g_sigma2(const bsl_coef_prior *p, double N, size_t k, double yy, double quad, double g)
{
    const double ss = yy - g / (1 + g) * quad;
    if (p->a0 > 0 || p->b0 > 0) return (p->b0 + 0.5 * ss) / fmax(p->a0 + 0.5 * N - 1, 0.5);
    return ss / fmax(N - 2, 1);
}

static const char *const g_names[] = {"g"};

static size_t g_nuisance(const bsl_coef_prior *p, const double *g_o, size_t c, double *vals,
                         const char *const **names)
{
    if (p->g_per_output) { /* c values, unnamed */
        if (vals) memcpy(vals, g_o, c * sizeof *vals);
        if (names) *names = NULL;
        return c;
    }
    if (vals) vals[0] = p->g;
    if (names) *names = g_names;
    return 1;
}

static void g_nuisance_set(bsl_coef_prior *p, double *g_o, size_t c, const double *vals)
{
    if (p->g_per_output) memcpy(g_o, vals, c * sizeof *vals);
    p->g = vals[0];
}

/* g ~ IG(a, b) (papers 002, 003 call it delta^2): with s = g / (1 + g),
 * given the active set, (beta, sigma_o^2) | g, y is sigma_o^2 ~ IG(a0 + N/2,
 * b0 + (yy_o - s quad_o)/2) (a0 = b0 = 0: Jeffreys) and w_o = L'beta_o ~ N(s z_o, sigma_o^2
 * s I) (beta_o ~ N(s betahat_o, sigma_o^2 s (B'B)^{-1}), L L' = B'B), and
 * then g | beta, sigma^2 ~ IG(a + k c/2, b + sum_o |w_o|^2 / (2 sigma_o^2))
 * (beta_o ~ N(0, g sigma_o^2 (B'B)^{-1}), beta_o'B'B beta_o = |w_o|^2): a
 * blocked Gibbs step that leaves p(g | gamma, y) invariant. tau = 0 does not
 * depend on g: no refactorisation, only the score. With one g per output
 * (rbf's delta_o^2): output by output, sigma_o^2, w_o, then g_o ~ IG(a + k/2,
 * b + |w_o|^2 / (2 sigma_o^2)), the draws in the order of c one-output models
 * drawn one after the other. */
static int g_draw(bsl_coef_prior *p, double *g_o, const bsl_coef_suff *s, gsl_rng *r)
{
    const size_t k = s->k, c = s->c;
    const double N = s->N, a0 = p->a0, b0 = p->b0; /* 0, 0: Jeffreys */
    if (p->g_per_output) {
        for (size_t o = 0; o < c; o++) {
            const double g = g_o[o], sh = g / (1 + g);
            const double rss = fmax(s->yy[o] - sh * s->quad[o], 1e-300);
            const double sigma2 = 1.0 / gsl_ran_gamma(r, a0 + 0.5 * N, 1.0 / (b0 + 0.5 * rss));
            const double sd = sqrt(sigma2 * sh);
            double w2 = 0;
            for (size_t i = 0; i < k; i++) {
                const double wi = sh * s->z[i * c + o] + sd * gsl_ran_ugaussian(r);
                w2 += wi * wi;
            }
            const double ww = w2 / sigma2;
            g_o[o] = 1.0 / gsl_ran_gamma(r, p->a + 0.5 * (double)k, 1.0 / (p->b + 0.5 * ww));
        }
        p->g = g_o[0];
        return BASEL_OK;
    }
    const double g = p->g, sh = g / (1 + g);
    double ww = 0;
    for (size_t o = 0; o < c; o++) {
        const double rss = fmax(s->yy[o] - sh * s->quad[o], 1e-300);
        const double sigma2 = 1.0 / gsl_ran_gamma(r, a0 + 0.5 * N, 1.0 / (b0 + 0.5 * rss));
        const double sd = sqrt(sigma2 * sh);
        double w2 = 0;
        for (size_t i = 0; i < k; i++) {
            const double wi = sh * s->z[i * c + o] + sd * gsl_ran_ugaussian(r);
            w2 += wi * wi;
        }
        ww += w2 / sigma2;
    }
    p->g = 1.0 / gsl_ran_gamma(r, p->a + 0.5 * (double)(k * c), 1.0 / (p->b + 0.5 * ww));
    return BASEL_OK;
}

/* a posterior mean of 0 means no draw was kept: g stays */
static void g_fix(bsl_coef_prior *p, const double *mean)
{
    if (mean[0] > 0) p->g = mean[0];
}

static int g_ok(const bsl_coef_prior *p, const double *sc, size_t c)
{
    for (size_t o = 0; o < c; o++)
        if (!(sc[2 + o] > 0)) return 0;
    return 1;
}

static int g_read(bsl_coef_prior *p, const json_t *o)
{
    bsl_coef_numbers_read(p, o);
    return p->g > 0 && isfinite(p->g) && p->a0 >= 0 && p->b0 >= 0 ? 0 : -1;
}

/* GLMs (coef_prior.h glm_log_ml): BAS's g_prior_glm_logmarg,
 *     -(k/2) log(1 + g) - Q / (2 (1 + g)),
 * Li and Clyde (2018) eq. 9 at a fixed g; the shrinkage g/(1+g)
 * (g_prior_shrinkage). g is fixed for a GLM (glm.c refuses a, b). */
static double g_glm_log_ml(const bsl_coef_prior *p, double n, size_t k, double Q)
{
    return -0.5 * (double)k * log1p(p->g) - 0.5 * Q / (1 + p->g);
}

static double g_glm_shrink(const bsl_coef_prior *p, double n, size_t k, double Q) { return p->g / (1 + p->g); }

static const char *const g_examples[] = {"g:g=60", "g:a=3,b=6", NULL};

const bsl_coef_prior_type bsl_coef_g = {
    .name = "g",
    .usage = "g[:g=G] (g = n by default; a=A,b=B: an inverse-gamma prior on sigma^2)",
    .id = 0,
    .model = BSL_COEF_MODEL_GAUSS,
    .keys = "g, a, b",
    .examples = g_examples,
    .fixed_hint = "g:g=.. (without a, b)",
    .tau_fixed = 1,
    .scale_free = 1, /* 1 - R^2 only (paper 004 eq. 9) */
    .parse = g_parse,
    .tau = bsl_coef_tau_zero,
    .log_ml = g_log_ml,
    .screen = g_screen,
    .shrink = g_shrink,
    .post_df = g_df,
    .post_scale2 = g_scale2,
    .sigma2_mean = g_sigma2,
    .nuisance = g_nuisance,
    .nuisance_set = g_nuisance_set,
    .nuisance_draw = g_draw,
    .nuisance_fix = g_fix,
    .nuisance_ok = g_ok,
    .glm_log_ml = g_glm_log_ml,
    .glm_shrink = g_glm_shrink,
    .to_json = bsl_coef_numbers_json,
    .from_json = g_read,
};

/* The parts of a g-prior whose g is fixed before the run (uip's g = n,
 * eb-global's chosen g): the g entry's, without its nuisance draws. */
#define FIXED_G_PARTS                                                                                        \
    .model = BSL_COEF_MODEL_GAUSS, .tau_fixed = 1, .scale_free = 1, .tau = bsl_coef_tau_zero,               \
    .log_ml = g_log_ml, .screen = g_screen, .shrink = g_shrink, .post_df = g_df, .post_scale2 = g_scale2,   \
    .sigma2_mean = g_sigma2, .nuisance_ok = g_ok, .to_json = bsl_coef_numbers_json, .from_json = g_read

/* ---- uip: the unit-information prior, the g-prior with g = n (BAS's
 * prior = "g-prior" at its default alpha = n; Kass and Wasserman 1995): a
 * prior whose information on beta is one observation's. It is the g entry
 * with g fixed at n, so it keeps every part of g but the parser. */
static int uip_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    p->g = (double)n;
    return BASEL_OK;
}

static const char *const uip_examples[] = {"uip", NULL};

const bsl_coef_prior_type bsl_coef_uip = {
    .name = "uip",
    .usage = "uip (unit information: g = n)",
    .id = 8,
    .keys = "",
    .examples = uip_examples,
    .fixed_hint = "uip",
    .parse = uip_parse,
    FIXED_G_PARTS,
    .glm_log_ml = g_glm_log_ml,
    .glm_shrink = g_glm_shrink,
};

/* ---- eb-global: BAS's "EB-global" (Liang et al. 2008, sec. 2.4): one g
 * shared by every model, the type-II maximum likelihood over the model
 * average,
 *     g^ = argmax_g log sum_M pi(M) BF_M(g),
 *     BF_M(g) = (1 + g)^((N - k_M)/2) (1 + g e_M)^(-N/2),  e_M = 1 - R^2_M
 * (Liang et al. eq. 5). BAS reaches it by EM over the enumerated models
 * (R/EB_global.R); its fixed point is this maximiser (on UScrime both give
 * g = 19.5673). Given g^ every part is the g-prior's, exactly. g^ depends
 * on every model's R^2, so it is chosen once from all of them (choose_g),
 * before the walk that scores with it: enumerate only. */
static int ebg_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    if (c != 1)
        return bsl_fail(err, BASEL_EINVAL, "--prior eb-global: one target only (%zu given): its g is one model "
                                           "average's", c);
    p->g = (double)n; /* the scores of the first walk are made at g = n; choose_g replaces it */
    return BASEL_OK;
}

/* log sum_i exp(lp_i + log BF_i(g)) at g = e^u */
static double ebg_objective(double u, double N, size_t count, const double *k, const double *e, const double *lp)
{
    const double g = exp(u), L = log1p(g);
    double best = -INFINITY, sum = 0;
    for (size_t i = 0; i < count; i++) {
        const double t = lp[i] + 0.5 * (N - k[i]) * L - 0.5 * N * log1p(g * e[i]);
        if (t > best) {
            sum = sum * exp(best - t) + 1;
            best = t;
        } else {
            sum += exp(t - best);
        }
    }
    return best + log(sum);
}

/* The scores lm came from g_log_ml at g0 = p->g (Jeffreys' sigma^2, one
 * output): lm = ((N - k)/2) log1p(g0) - (N/2) log1p(g0 e), so e is read back
 * from each one. Then a scan of u = log g over [-12, 30] in steps of 1/2 and
 * golden-section refinement of the best bracket to 1e-12 in u (the objective
 * is smooth; a maximum at the scan's edge is taken there: g -> 0 makes every
 * model's Bayes factor 1). */
static int ebg_choose(bsl_coef_prior *p, double N, size_t count, const double *k, const double *lm,
                      const double *lp, basel_error *err)
{
    double *e = bsl_malloc(count + 1, sizeof *e);
    if (!e) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const double g0 = p->g, L0 = log1p(g0);
    for (size_t i = 0; i < count; i++) e[i] = fmin(fmax(expm1(((N - k[i]) * L0 - 2 * lm[i]) / N) / g0, 0.0), 1.0);
    enum { SCAN = 85 };
    const double u0 = -12, du = 0.5;
    size_t b = 0;
    double fb = -INFINITY;
    for (size_t j = 0; j < SCAN; j++) {
        const double f = ebg_objective(u0 + du * (double)j, N, count, k, e, lp);
        if (f > fb) fb = f, b = j;
    }
    double lo = u0 + du * (double)(b ? b - 1 : 0), hi = u0 + du * (double)(b + 1 < SCAN ? b + 1 : b);
    const double phi = 0.5 * (sqrt(5.0) - 1);
    double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
    double f1 = ebg_objective(x1, N, count, k, e, lp), f2 = ebg_objective(x2, N, count, k, e, lp);
    while (hi - lo > 1e-12 * fmax(1.0, fabs(lo))) {
        if (f1 >= f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - phi * (hi - lo);
            f1 = ebg_objective(x1, N, count, k, e, lp);
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + phi * (hi - lo);
            f2 = ebg_objective(x2, N, count, k, e, lp);
        }
    }
    free(e);
    p->g = exp(0.5 * (lo + hi));
    return BASEL_OK;
}

const bsl_coef_prior_type bsl_coef_eb_global = {
    .name = "eb-global",
    .usage = "eb-global (one g for every model, its type-II maximum likelihood over the model average, as BAS's "
             "EB-global; --method enumerate, one target)",
    .id = 14,
    .keys = "",
    .examples = NULL, /* enumerate only: test_engines_priors runs the samplers; compare_bas checks it */
    .fixed_hint = "eb-global",
    .parse = ebg_parse,
    FIXED_G_PARTS,
    .choose_g = ebg_choose,
};
