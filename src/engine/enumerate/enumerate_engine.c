/*
 * enumerate_engine.c: the enumerate method's entry in the engine table (engine.h).
 * The exact posterior over every subset of the dictionary, in closed form
 * under the collapsed model (model.h): the reference for every engine.
 * Defaults below are the only ones: FIT.json records them as the settings.
 */
#include "../engine.h"
#include "../subset/subset.h"

static const bsl_engine_option options[] = {
    BSL_SUBSET_OPTIONS("g"),
    {"family", "gaussian"},
    {"is-draws", "4000"},
    {NULL, NULL},
};

static int fit(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err)
{
    return bsl_subset_fit(ctx, res, bsl_enumerate, err);
}

const bsl_engine_def bsl_engine_enumerate = {
    .name = "enumerate",
    .summary = "exact posterior over all subsets (m <= 24): the reference for every engine",
    .unit = "subsets",
    .target = BSL_TARGET_NUMERIC,
    .design_only = 1,
    .coefficients = 1,
    .options = options,
    .models = bsl_subset_models,
    .keeps_draws = 0,
    .scale_free = 1,
    .groups_factors = 1,
    .fit = fit,
    .predict = bsl_subset_predict,
    .model_coef = bsl_subset_model_coef,
    .coef_density = bsl_subset_coef_density,
    .check = bsl_subset_check,
    .centres = bsl_subset_centres,
    .mean_interval = 1,
    .binomial = &bsl_model_glm_exact, /* each subset's marginal by importance sampling (glm.h) */
    .poisson = &bsl_model_glm_exact,
    .multinomial = &bsl_model_glm_exact, /* joint models by importance sampling (enumerate_multinomial.c) */
};
