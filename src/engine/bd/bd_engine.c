/*
 * bd_engine.c: the bd method's entry in the engine table (engine.h).
 * Continuous-time birth-and-death over active sets (paper 004).
 * Defaults below are the only ones: FIT.json records them as the settings.
 */
#include "../engine.h"
#include "../subset/subset.h"

static const bsl_engine_option options[] = {
    BSL_SUBSET_OPTIONS("g"),
    BSL_SUBSET_RUN_OPTIONS("10000"),
    {"nu", "1"},
    {"rho", "1"},
    {"swap", "0.25"}, /* bd.c BD_SWAP_DEFAULT */
    {"birth", "uniform"},
    {"bd-rb-every", ""}, /* derived: bd.c rb_settings */
    {"relevance", "none"},
    {"relevance-every", "10"}, /* bd_relevance.h BSL_REL_EVERY_DEFAULT */
    {"relevance-steps", "1"}, /* bd_relevance.h BSL_REL_STEPS_DEFAULT */
    {"family", "gaussian"},
    {NULL, NULL},
};

static int fit(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err)
{
    return bsl_subset_fit(ctx, res, bsl_bd_run, err);
}

/* Its births propose one atom each: the default run grows as d / 100
 * above 100 inputs (subset.c). */
static int run_length(bsl_params *settings, const bsl_params *user, size_t d, basel_error *err)
{
    return bsl_subset_iter_per_input(settings, user, d, err);
}

/* One evaluation per birth or swap event: (nu + xi) rho per block. */
static double evaluations(const bsl_params *settings, size_t m, size_t d)
{
    (void)m, (void)d;
    basel_error ignored;
    double nu = 1, rho = 1, xi = 0;
    if (bsl_params_double(settings, "nu", 1, 1e-6, 1e6, &nu, &ignored)) nu = 1;
    if (bsl_params_double(settings, "rho", 1, 1e-6, 1e6, &rho, &ignored)) rho = 1;
    if (!bsl_params_get(settings, "swap") || bsl_params_double(settings, "swap", 0, 0, 1e6, &xi, &ignored)) xi = 0;
    return (nu + xi) * rho;
}

const bsl_engine_def bsl_engine_bd = {
    .name = "bd",
    .summary = "continuous-time birth-and-death over active sets, Rao-Blackwellised; prevalence model (paper 004)",
    .unit = "draws",
    .target = BSL_TARGET_NUMERIC,
    .options = options,
    .models = bsl_subset_models,
    .keeps_draws = 1,
    .scale_free = 1,
    .checkpoints = 1,
    .design_only = 1,
    .coefficients = 1,
    .max_time = 1,
    .column_blocks = 1,
    .groups_factors = 1,
    .fit = fit,
    .run_length = run_length,
    .evaluations = evaluations,
    .predict = bsl_subset_predict,
    .model_coef = bsl_subset_model_coef,
    .coef_density = bsl_subset_coef_density,
    .check = bsl_subset_check,
    .centres = bsl_subset_centres,
    .mean_interval = 1,
    .binomial = &bsl_model_glm, /* given the Polya-Gamma latent variables, drawn at every block's end (bd.c) */
    .poisson = &bsl_model_glm_exact, /* each subset's marginal by importance sampling, kept per subset (glm_exact.c) */
};
