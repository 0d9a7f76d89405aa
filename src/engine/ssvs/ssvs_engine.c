/*
 * ssvs_engine.c: the ssvs method's entry in the engine table (engine.h).
 * Spike-and-slab Gibbs sampling (paper 001, George and McCulloch).
 * Defaults below are the only ones: FIT.json records them as the settings.
 */
#include "../engine.h"
#include "../subset/subset.h"
#include "../ssvs/ssvs.h"

static const bsl_engine_option options[] = {
    BSL_SUBSET_OPTIONS("ssvs"),
    BSL_SUBSET_RUN_OPTIONS("20000"),
    {"family", "gaussian"},
    {NULL, NULL},
};

static int fit(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err)
{
    return bsl_subset_fit(ctx, res, bsl_ssvs_run, err);
}

/* A sweep updates every atom: m evaluations; its iterations are sweeps,
 * so its default length does not grow with d. */
static double evaluations(const bsl_params *settings, size_t m, size_t d)
{
    (void)settings, (void)d;
    return (double)m;
}

const bsl_engine_def bsl_engine_ssvs = {
    .name = "ssvs",
    .summary = "spike-and-slab Gibbs, as written and collapsed (paper 001)",
    .unit = "sweeps",
    .target = BSL_TARGET_NUMERIC,
    .options = options,
    .models = bsl_subset_models,
    .keeps_draws = 1,
    .checkpoints = 1,
    .design_only = 1,
    .coefficients = 1,
    .max_time = 1,
    .fit = fit,
    .evaluations = evaluations,
    .predict = bsl_subset_predict,
    .model_coef = bsl_subset_model_coef,
    .coef_density = bsl_subset_coef_density,
    .check = bsl_subset_check,
    .centres = bsl_subset_centres,
    .mean_interval = 1,
    .binomial = &bsl_model_glm, /* collapsed Gibbs over indicators given the Polya-Gamma latent variables,
                                   drawn once per sweep (ssvs.c ss_prior) */
    .poisson = &bsl_model_glm_exact, /* the same collapsed sweep on each subset's marginal by importance
                                        sampling, kept per subset (glm_exact.c); no latent step */
};
