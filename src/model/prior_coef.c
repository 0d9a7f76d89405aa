/* prior_coef.c: coefficient priors: parsing --prior and the closed-form
 * log marginal likelihoods they give (model.h explains the formulas). */
#include "model.h"

#include <math.h>
#include <string.h>

static const char *const coef_names[] = {"g", "ridge", "hier", "aic", "bic", "mdl", "ssvs", "normal"};

const char *bsl_coef_kind_name(bsl_coef_kind kind) { return coef_names[kind]; }

int bsl_coef_prior_parse(bsl_coef_prior *p, const char *text, size_t n, size_t c,
                         basel_error *err)
{
    memset(p, 0, sizeof *p);
    bsl_spec s;
    int rc = bsl_spec_parse(&s, "prior", text && *text ? text : "g", err);
    if (rc) return rc;
    int kind = -1;
    for (int i = 0; i < 6; i++)
        if (strcmp(s.name, coef_names[i]) == 0) kind = i;
    if (kind < 0) return bsl_spec_unknown(&s, BSL_PRIOR_NAMES, err);
    p->kind = (bsl_coef_kind)kind;
    const char *accepted = "";
    switch (p->kind) {
    case BSL_COEF_G: {
        /* g fixed, or (a and b given) g ~ IG(a, b) sampled, starting at g
         * (the hierarchical g of papers 002, 003: delta^2 ~ IG(a, b)) */
        accepted = "g, a, b";
        const int given = bsl_spec_has(&s, "a") + bsl_spec_has(&s, "b");
        if (given == 1)
            return bsl_fail(err, BASEL_EINVAL, "--prior g: give both a and b (g ~ IG(a, b) sampled) or neither");
        p->sample_nuisance = given == 2;
        rc = bsl_spec_double(&s, "g", (double)n, 1e-12, 1e300, &p->g, err);
        if (!rc && p->sample_nuisance) rc = bsl_spec_double(&s, "a", 2.0, 1e-300, 1e300, &p->a, err);
        if (!rc && p->sample_nuisance) rc = bsl_spec_double(&s, "b", 10.0, 1e-300, 1e300, &p->b, err);
        break;
    }
    case BSL_COEF_RIDGE: {
        accepted = "lambda, sigma2, a, b, c, d";
        int given = bsl_spec_has(&s, "lambda") + bsl_spec_has(&s, "sigma2");
        if (given == 1)
            return bsl_fail(err, BASEL_EINVAL,
                            "--prior ridge: give both lambda and sigma2 (fixed) or neither (sampled)");
        p->sample_nuisance = given == 0;
        /* vague Gamma priors on the precisions 1/sigma2 and lambda (paper
         * 004 eqs. 16, 18); the sampled values start at lambda = 1 and
         * sigma2 = var(y)/4 (set by the caller that knows y) */
        if (!rc) rc = bsl_spec_double(&s, "lambda", 1.0, 1e-300, 1e300, &p->lambda, err);
        if (!rc) rc = bsl_spec_double(&s, "sigma2", 0.0, 1e-300, 1e300, &p->sigma2, err);
        if (!rc) rc = bsl_spec_double(&s, "a", 1e-3, 1e-300, 1e300, &p->a, err);
        if (!rc) rc = bsl_spec_double(&s, "b", 1e-3, 1e-300, 1e300, &p->b, err);
        if (!rc) rc = bsl_spec_double(&s, "c", 1e-3, 1e-300, 1e300, &p->c, err);
        if (!rc) rc = bsl_spec_double(&s, "d", 1e-3, 1e-300, 1e300, &p->d, err);
        break;
    }
    case BSL_COEF_HIER:
        accepted = "delta2, a, b";
        rc = bsl_spec_double(&s, "delta2", 10.0, 1e-300, 1e300, &p->delta2, err);
        if (!rc) rc = bsl_spec_double(&s, "a", 0.0, 0, 1e300, &p->a, err);
        if (!rc) rc = bsl_spec_double(&s, "b", 0.0, 0, 1e300, &p->b, err);
        break;
    /* an atom of a subset model brings c coefficients (one per output):
     * AIC charges 1 and BIC log(n)/2 per parameter (BAS's prior = "AIC",
     * "BIC"). The free-centre RBF samplers add the centre (paper 002's
     * xi = k (c + 1)) where they take the penalty (rbf_chain.c). */
    case BSL_COEF_AIC: p->penalty = (double)c; break;
    case BSL_COEF_BIC:
    case BSL_COEF_MDL: p->penalty = (double)c * log((double)n) / 2; break;
    case BSL_COEF_SSVS: break; /* not a --prior name: bsl_coef_prior_ssvs */
    case BSL_COEF_NORMAL: break; /* not a --prior name of the Gaussian models: glm.c */
    }
    if (rc) return rc;
    return bsl_spec_finish(&s, accepted, err);
}

double bsl_coef_tau(const bsl_coef_prior *p)
{
    switch (p->kind) {
    case BSL_COEF_RIDGE: return p->sigma2 * p->lambda;
    case BSL_COEF_HIER: return 1.0 / p->delta2;
    default: return 0.0;
    }
}

double bsl_log_ml_formula(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k,
                          double logdet, const double *quad, const double *yy)
{
    return bsl_log_ml_formula_g(p, n, q, c, k, logdet, quad, yy, NULL);
}

double bsl_log_ml_formula_g(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k,
                            double logdet, const double *quad, const double *yy, const double *gv)
{
    return bsl_log_ml_formula_lg(p, n, q, c, k, logdet, quad, yy, gv, NULL);
}

double bsl_log_ml_formula_lg(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k,
                             double logdet, const double *quad, const double *yy, const double *gv,
                             const double *lg)
{
    const double N = (double)(n - q), kk = (double)k;
    const double tau = bsl_coef_tau(p);
    double s = 0;
    for (size_t o = 0; o < c; o++) {
        const double r0 = yy[o] - quad[o], rss = r0 > 0 ? r0 : 0.0; /* fmax, inline */
        switch (p->kind) {
        case BSL_COEF_G: {
            const double g = gv ? gv[o] : p->g, log1p_g = lg ? lg[o] : log1p(g);
            if (p->a0 > 0 || p->b0 > 0) { /* sigma^2 ~ IG(a0, b0) */
                const double ss = fmax(yy[o] - g / (1 + g) * quad[o], 0.0);
                s += -0.5 * kk * log1p_g - (p->a0 + 0.5 * N) * log(p->b0 + 0.5 * ss);
                break;
            }
            const double one_minus_r2 = rss / yy[o];
            s += 0.5 * (N - kk) * log1p_g - 0.5 * N * log1p(g * one_minus_r2);
            break;
        }
        case BSL_COEF_RIDGE:
            s += -0.5 * N * log(2 * M_PI * p->sigma2) - 0.5 * (logdet - kk * log(tau)) -
                 0.5 * rss / p->sigma2;
            break;
        case BSL_COEF_HIER: {
            const double a_n = p->a + 0.5 * N;
            s += -0.5 * N * log(2 * M_PI) - 0.5 * (logdet - kk * log(tau)) + lgamma(a_n) -
                 a_n * log(p->b + 0.5 * rss);
            if (p->a > 0) s += -lgamma(p->a) + p->a * log(p->b);
            break;
        }
        default: /* aic, bic, mdl: paper 002 eqs. 2-4 */
            s += -0.5 * (double)n * log(rss);
            break;
        }
    }
    if (p->kind >= BSL_COEF_AIC) s -= p->penalty * kk;
    return s;
}
