/* coef_criteria.c: aic, bic, mdl: a flat prior calibrated by a penalty
 * (paper 002 eqs. 2-4): score = -(n/2) sum_o log(yy_o - quad_o) - C k,
 * tau = 0. An atom of a subset model brings c coefficients (one per
 * output): AIC charges 1 and BIC log(n)/2 per parameter (BAS's prior =
 * "AIC", "BIC"); MDL's penalty is BIC's. The free-centre RBF samplers add
 * the centre (paper 002's xi = k (c + 1)) where they take the penalty
 * (rbf_chain.c). The Gaussian parts are least squares' (coef_prior.c). */
#include "coef_prior.h"

#include <math.h>

static int aic_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    p->penalty = (double)c;
    return BASEL_OK;
}

static int bic_parse(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err)
{
    p->penalty = (double)c * log((double)n) / 2;
    return BASEL_OK;
}

#define CRITERION(var, nm, num, parser, ex)                                                                        \
    static const char *const var##_examples[] = {ex, NULL};                                                        \
    const bsl_coef_prior_type var = {                                                                              \
        .name = nm, .usage = nm, .id = num, .model = BSL_COEF_MODEL_GAUSS, .keys = "", .examples = var##_examples, \
        .criterion = 1, .scale_free = 1 /* log RSS: a constant shift */, .parse = parser, .tau = bsl_coef_tau_zero, .log_ml = bsl_coef_flat_log_ml,                 \
        .shrink = bsl_coef_shrink_none, .post_df = bsl_coef_flat_df, .post_scale2 = bsl_coef_flat_scale2,           \
        .sigma2_mean = bsl_coef_flat_sigma2, .nuisance_ok = bsl_coef_nuisance_any,                                  \
        .to_json = bsl_coef_numbers_json, .from_json = bsl_coef_flat_read,                                          \
    }
CRITERION(bsl_coef_aic, "aic", 3, aic_parse, "aic");
CRITERION(bsl_coef_bic, "bic", 4, bic_parse, "bic");
CRITERION(bsl_coef_mdl, "mdl", 5, bic_parse, "mdl");
