/* coef_prior.c: the list of coefficient priors, parsing --prior through it,
 * the parts the entries share, and the entries of the priors that run on
 * other model tables (ssvs, normal): coef_prior.h explains the table. */
#include "coef_prior.h"

#include <math.h>
#include <string.h>

const bsl_coef_prior_type *const bsl_coef_prior_types[] = {
    &bsl_coef_g, &bsl_coef_ridge, &bsl_coef_hier, &bsl_coef_aic, &bsl_coef_bic, &bsl_coef_mdl, &bsl_coef_uip,
    &bsl_coef_hyper_g, &bsl_coef_hyper_gn, &bsl_coef_jzs, &bsl_coef_robust, &bsl_coef_eb_local,
    &bsl_coef_eb_global, NULL,
};

size_t basel_prior_count(void)
{
    size_t n = 0;
    while (bsl_coef_prior_types[n]) n++;
    return n;
}

const char *basel_prior_name(size_t i) { return i < basel_prior_count() ? bsl_coef_prior_types[i]->name : NULL; }

const bsl_coef_prior_type *bsl_coef_prior_type_find(const char *name)
{
    for (size_t i = 0; name && bsl_coef_prior_types[i]; i++)
        if (strcmp(name, bsl_coef_prior_types[i]->name) == 0) return bsl_coef_prior_types[i];
    return NULL;
}

int bsl_coef_prior_parse(bsl_coef_prior *p, const char *text, size_t n, size_t c, basel_error *err)
{
    memset(p, 0, sizeof *p);
    bsl_spec s;
    int rc = bsl_spec_parse(&s, "prior", text && *text ? text : "g", err);
    if (rc) return rc;
    const bsl_coef_prior_type *t = bsl_coef_prior_type_find(s.name);
    if (!t) {
        char names[256] = "";
        for (size_t i = 0; bsl_coef_prior_types[i]; i++) {
            if (i) strncat(names, ", ", sizeof names - strlen(names) - 1);
            strncat(names, bsl_coef_prior_types[i]->name, sizeof names - strlen(names) - 1);
        }
        return bsl_spec_unknown(&s, names, err);
    }
    p->type = t;
    if ((rc = t->parse(p, &s, n, c, err))) return rc;
    return bsl_spec_finish(&s, t->keys, err);
}

double bsl_coef_tau(const bsl_coef_prior *p) { return p->type->tau(p); }

int bsl_coef_sampled(const bsl_coef_prior *p) { return p->type->nuisance_draw && p->sample_nuisance; }

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
    return p->type->log_ml(p, n, q, c, k, logdet, quad, yy, gv, lg);
}

/* ------------------------------------------------------- shared parts */

json_t *bsl_coef_numbers_json(const bsl_coef_prior *p)
{
    return json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "kind", p->type->name, "g", p->g,
                     "a0", p->a0, "b0", p->b0, "sigma2", p->sigma2, "lambda", p->lambda, "delta2", p->delta2, "a",
                     p->a, "b", p->b);
}

void bsl_coef_numbers_read(bsl_coef_prior *p, const json_t *o)
{
    p->g = json_number_value(json_object_get(o, "g"));
    p->a0 = json_number_value(json_object_get(o, "a0"));
    p->b0 = json_number_value(json_object_get(o, "b0"));
    p->sigma2 = json_number_value(json_object_get(o, "sigma2"));
    p->lambda = json_number_value(json_object_get(o, "lambda"));
    p->delta2 = json_number_value(json_object_get(o, "delta2"));
    p->a = json_number_value(json_object_get(o, "a"));
    p->b = json_number_value(json_object_get(o, "b"));
}

double bsl_coef_tau_zero(const bsl_coef_prior *p) { return 0.0; }

double bsl_coef_shrink_none(const bsl_coef_prior *p, double g, double N, size_t k, double yy, double quad)
{
    return 1.0;
}

/* paper 002 eqs. 2-4: -(n/2) sum_o log RSS_o - C k */
double bsl_coef_flat_log_ml(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k, double logdet,
                            const double *quad, const double *yy, const double *gv, const double *lg)
{
    double s = 0;
    for (size_t o = 0; o < c; o++) {
        const double r0 = yy[o] - quad[o], rss = r0 > 0 ? r0 : 0.0; /* fmax, inline */
        s += -0.5 * (double)n * log(rss);
    }
    s -= p->penalty * (double)k;
    return s;
}

/* least squares: the residual variance on N - k df */
double bsl_coef_flat_df(const bsl_coef_prior *p, double N, double k) { return fmax(N - k, 1); }

double bsl_coef_flat_scale2(const bsl_coef_prior *p, double N, double df, double yy, double quad, double s)
{
    return fmax(yy - quad, 0.0) / df;
}

double bsl_coef_flat_sigma2(const bsl_coef_prior *p, double N, size_t k, double yy, double quad, double g)
{
    return fmax(yy - quad, 0.0) / fmax(N - (double)k, 1);
}

int bsl_coef_nuisance_any(const bsl_coef_prior *p, const double *sc, size_t c) { return 1; }

int bsl_coef_flat_read(bsl_coef_prior *p, const json_t *o)
{
    bsl_coef_numbers_read(p, o);
    return 0;
}

/* ------------------------------- the priors of the other model tables */

/* The spike and slab (ssvs_model.c parses and scores it) and the GLMs'
 * normal prior (glm.c): their model tables own the marginal; these
 * entries give the Gaussian parts a flat prior's answers, which is what
 * a Gaussian summary of such a fit has always read. */
#define OTHER_TABLE(var, nm, num, mdl)                                                                             \
    const bsl_coef_prior_type var = {                                                                              \
        .name = nm, .id = num, .model = mdl, .keys = "",                                                           \
        .tau = bsl_coef_tau_zero, .log_ml = bsl_coef_flat_log_ml, .shrink = bsl_coef_shrink_none,                  \
        .post_df = bsl_coef_flat_df, .post_scale2 = bsl_coef_flat_scale2, .sigma2_mean = bsl_coef_flat_sigma2,      \
        .nuisance_ok = bsl_coef_nuisance_any, .to_json = bsl_coef_numbers_json, .from_json = bsl_coef_flat_read,             \
    }
OTHER_TABLE(bsl_coef_ssvs, "ssvs", 6, BSL_COEF_MODEL_SSVS);
OTHER_TABLE(bsl_coef_normal, "normal", 7, BSL_COEF_MODEL_GLM);
