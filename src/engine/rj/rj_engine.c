/*
 * rj_engine.c: the rj method's entry in the engine table (engine.h).
 * Reversible jump over subsets: add, delete and swap moves.
 * Defaults below are the only ones: FIT.json records them as the settings.
 */
#include "../engine.h"
#include "../subset.h"

static const bsl_engine_option options[] = {
    BSL_SUBSET_OPTIONS("g"),
    BSL_SUBSET_RUN_OPTIONS("50000"),
    {"rj-add", "0.33333333333333331"},
    {"rj-delete", "0.33333333333333331"},
    {"rj-swap", "0.33333333333333331"},
    {"rj-rb-every", ""},
    {"proposal", "auto"},
    {"family", "gaussian"},
    {NULL, NULL},
};

static int fit(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err)
{
    return bsl_subset_fit(ctx, res, bsl_rj_run, err);
}

const bsl_engine_def bsl_engine_rj = {
    .name = "rj",
    .summary = "reversible jump (add / delete / swap) over subsets",
    .unit = "iterations",
    .target = BSL_TARGET_NUMERIC,
    .options = options,
    .models = bsl_subset_models,
    .keeps_draws = 1,
    .scale_free = 1,
    .checkpoints = 1,
    .max_time = 1,
    .groups_factors = 1,
    .fit = fit,
    .predict = bsl_subset_predict,
    .check = bsl_subset_check,
    .mean_interval = 1,
    .binomial = &bsl_model_glm, /* given the Polya-Gamma latent variables, drawn once per sweep (glm.h) */
    .multinomial = &bsl_model_glm, /* one per class, in class blocks (rj_multinomial.c) */
};
