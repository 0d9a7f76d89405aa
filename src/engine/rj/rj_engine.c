/*
 * rj_engine.c: the rj method's entry in the engine table (engine.h).
 * Reversible jump over subsets: add, delete and swap moves.
 * Defaults below are the only ones: FIT.json records them as the settings.
 */
#include "../engine.h"
#include "../subset/subset.h"
#include "rj_defaults.h"

#include <string.h>

static const bsl_engine_option options[] = {
    BSL_SUBSET_OPTIONS("g"),
    BSL_SUBSET_RUN_OPTIONS("50000"),
    {"rj-add", "0.33333333333333331"},
    {"rj-delete", "0.33333333333333331"},
    {"rj-swap", "0.33333333333333331"},
    {"rj-rb-every", ""},
    {"proposal", "auto"},
    {"rj-candidates", "auto"},
    {"rj-pairs", "auto"},
    {"rj-pair-window", BSL_RJ_STR(BSL_RJ_PAIR_WINDOW)},
    {"family", "gaussian"},
    {NULL, NULL},
};

static int fit(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err)
{
    return bsl_subset_fit(ctx, res, bsl_rj_run, err);
}

/* rj's informed moves (rj_informed.c) score every atom at each move, so
 * they propose each input as often at every p: their default iter is
 * BSL_RJ_INFORMED_ITER whatever p. After burn-in each chain scores only its
 * candidate set (rj_informed.c, "Candidate sets"), so a move costs
 * O(|C| k^2) instead of O(m k^2), and the default burn-in is
 * BSL_RJ_INFORMED_BURN whatever iter: it takes the chain to the posterior's
 * sets and finds the candidates, and its moves are the costly ones
 * (bench/scale/README: at p = 20000, 4 chains of 10000 after 400 put
 * every PIP within 0.01-0.02 of a long reference run in 12-15 CPU-s).
 * Uniform moves scale as d / 100 (subset.c). The proposal that runs is
 * recorded, auto resolved. */
static int run_length(bsl_params *settings, const bsl_params *user, size_t d, basel_error *err)
{
    int informed = 0;
    const char *family = bsl_params_get(settings, "family");
    if (family && strcmp(family, "multinomial") == 0) { /* rj_multinomial.c: uniform moves */
        const char *v = user ? bsl_params_get(user, "proposal") : NULL;
        const int asked_informed = v && strcmp(v, "informed") == 0;
        if (asked_informed || (user && bsl_params_get(user, "rj-rb-every")))
            return bsl_fail(err, BASEL_EINVAL,
                            "--family multinomial: %s (its moves are uniform, and its Rao-Blackwell pass ends each "
                            "class block)",
                            asked_informed ? "no --proposal informed" : "no --rj-rb-every");
        if (bsl_params_set(settings, "proposal", "uniform")) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    int rc = bsl_rj_proposal(settings, d, &informed, err);
    if (rc) return rc;
    /* pair moves are informed chains' (rj_pairs.c): a count asked of a
     * uniform chain would be ignored, so it is refused */
    const char *pairs = user ? bsl_params_get(user, "rj-pairs") : NULL;
    if (!informed && pairs && strcmp(pairs, "auto") != 0 && strcmp(pairs, "none") != 0)
        return bsl_fail(err, BASEL_EINVAL,
                        "--rj-pairs %s: pair moves are made by informed chains only (--proposal informed, the "
                        "default above " BSL_RJ_STR(BSL_RJ_INFORMED_ABOVE) " inputs; not with --family multinomial)",
                        pairs);
    if (bsl_params_set(settings, "proposal", informed ? "informed" : "uniform"))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!informed) return bsl_subset_iter_per_input(settings, user, d, err);
    if (!bsl_params_get(settings, "iter")) return BASEL_OK;
    if (!(user && bsl_params_get(user, "iter")) && bsl_params_set_size(settings, "iter", BSL_RJ_INFORMED_ITER))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!(user && bsl_params_get(user, "burn")) && bsl_params_set_size(settings, "burn", BSL_RJ_INFORMED_BURN))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return BASEL_OK;
}

/* One evaluation per move, plus m per Rao-Blackwell pass (every
 * rj-rb-every moves: default m with uniform moves, 10 with informed ones).
 * An informed move or slot pass reads the rows of the k active atoms'
 * cross products: from the dense Gram, or computed once per atom that
 * enters (gram_rows.c), about as many as a uniform chain's evaluations,
 * not m. */
static double evaluations(const bsl_params *settings, size_t m, size_t d)
{
    basel_error ignored;
    int informed = 0;
    size_t rb;
    if (bsl_rj_proposal(settings, d, &informed, &ignored)) informed = 0;
    if (bsl_params_size(settings, "rj-rb-every", informed ? 10 : m, 0, (size_t)1 << 40, &rb, &ignored))
        rb = informed ? 10 : m;
    return 1.0 + (rb ? (informed ? 1.0 : (double)m) / (double)rb : 0.0);
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
    .binomial = &bsl_model_glm, /* given the Polya-Gamma latent variables, drawn once per sweep (glm.h) */
    /* each subset's marginal likelihood by importance sampling, as
     * enumerate's, kept per subset (glm_exact.c): the chain targets the
     * posterior enumeration computes */
    .poisson = &bsl_model_glm_exact,
    .multinomial = &bsl_model_glm, /* one per class, in class blocks (rj_multinomial.c) */
    /* above this many linear inputs bd's uniform births stop paying
     * (registry.c bsl_default_method) */
    .default_above = 1000,
};
