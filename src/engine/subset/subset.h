/*
 * subset.h: engines over subsets of a dictionary (DESIGN.md "Engine"):
 * exact enumeration, continuous-time birth-death, reversible jump and
 * spike-and-slab Gibbs. Each reads a bsl_vs_problem (shared, read-only),
 * talks to its model only through the model table (model.h), runs its
 * chains through the chain driver (chains.h: one RNG per chain seeded by
 * bsl_chain_seed(seed, chain), so the result does not depend on the thread
 * count; progress and cancel through run->progress) and fills a
 * bsl_vs_result (summary.h). BASEL_ECANCELLED when the callback cancels.
 * subset.c turns that into the engine contract's bsl_result (engine.h), the
 * same for all four; subset_predict.c predicts from what it writes.
 */
#ifndef BSL_SAMPLER_H
#define BSL_SAMPLER_H

#include "../../core/params.h"
#include "../../model/model.h"
#include "../../prior/prior.h"
#include "../../summary/summary.h"

#include <jansson.h>

typedef struct bsl_vs_problem {
    const bsl_design *D;
    bsl_coef_prior prior;  /* ridge with sample_nuisance: engines that can, Gibbs-update it */
    bsl_mprior mprior;     /* includes kmin/kmax */
    size_t kmax;           /* = mprior.kmax, the largest model any chain may hold */
    const char *prior_spec;/* the --prior text, for engines with priors of their own (ssvs) */
    const bsl_model_ops *model; /* the model table; NULL = bsl_model_ops_for(&prior) */
    size_t nclass;         /* --family multinomial: the classes C (model/glm_multi.h), else 0 */
    bsl_colstore *cols;    /* the summaries' shared columns of a streaming D (model.h), or NULL */
} bsl_vs_problem;

/* A new model of the problem (empty active set, up to kmax atoms). */
static inline int bsl_vs_model_create(bsl_cmodel **M, const bsl_vs_problem *pb,
                                      const bsl_coef_prior *prior, size_t kmax, basel_error *err)
{
    return bsl_cmodel_create(M, pb->model, pb->D, prior, kmax, err);
}

typedef struct bsl_run {
    size_t iter;           /* iterations per chain after burn-in (engine's unit) */
    size_t burn;           /* discarded iterations per chain */
    size_t thin;           /* keep every thin-th draw in the draws table */
    size_t chains;
    unsigned long seed;
    int threads;           /* 0 = OpenMP default */
    int keep_draws;
    int stream_draws;      /* keep them in temporary files, not memory (bsl_vs_spill_begin) */
    size_t top;            /* models to keep in the summary */
    bsl_progress_fn progress; /* done, total units */
    void *progress_user;
    const bsl_progress *phases; /* the phases before the sampling (NULL: none) */
    const bsl_params *params; /* engine-specific settings */
    const char *checkpoint, *restart; /* chains.h bsl_chains_ckpt; NULL when not asked */
    double checkpoint_every;
    unsigned long long run_id;
    double max_time; /* --max-time (chains.h bsl_chains max_time) */
    const basel_ranks *ranks; /* chains over processes (chains.h bsl_chains ranks) */
} bsl_run;

/* Exact posterior over all 2^m subsets; BASEL_ERANGE when m > 24. */
int bsl_enumerate(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
                  basel_error *err);
/* Continuous-time birth-death (paper 004). */
int bsl_bd_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
               basel_error *err);
/* Reversible jump add / delete / swap over subsets (issue: linear models). */
int bsl_rj_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
               basel_error *err);
/* rj for --family multinomial (rj/rj_multinomial.c; bsl_rj_run hands it
 * such a problem): one subset per class, its result over the (C - 1) m
 * joint atoms (c - 1) m + j, kmax (C - 1) pb->kmax, and the inputs' PIPs
 * in res->input_pip (d_inputs = m). */
int bsl_rj_multi_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res, basel_error *err);
/* enumerate for --family multinomial (enumerate/enumerate_multinomial.c;
 * bsl_enumerate hands it such a problem): the exact posterior over every
 * joint model, (C - 1) m <= 20, the result laid out as bsl_rj_multi_run's. */
int bsl_enumerate_multi(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res, basel_error *err);
/* rj's --proposal for d inputs: *informed = 1 for informed moves
 * (rj_informed.c), 0 for uniform ones; "auto" (or unset) decides by d,
 * the one place that does. BASEL_EINVAL for an unknown value. */
int bsl_rj_proposal(const bsl_params *params, size_t d, int *informed, basel_error *err);
/* The default iter scaled as d / 100 above 100 inputs (a user's --iter
 * kept), for the engines' run_length (engine.h; subset.c says why). */
int bsl_subset_iter_per_input(bsl_params *settings, const bsl_params *user, size_t d, basel_error *err);
/* Spike-and-slab Gibbs (paper 001), collapsed and as written. */
int bsl_ssvs_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
                 basel_error *err);

struct bsl_engine_ctx;
struct bsl_result;
struct basel_pred;
typedef int (*bsl_subset_runner)(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
                                 basel_error *err);
/* The fit of every subset engine: dictionary, design and priors from the
 * settings, the runner, and the result with one predictor per model. */
int bsl_subset_fit(struct bsl_engine_ctx *ctx, struct bsl_result *res, bsl_subset_runner run,
                   basel_error *err);
/* FIT.json's "credible_sets" of a subset fit (subset_credible.c); NULL
 * when out of memory. */
json_t *bsl_subset_credible_json(const bsl_vs_problem *pb, const bsl_vs_result *vr);
/* One model's coefficient table (engine.h's model_coef, basel.h's
 * basel_fit_model_coef): model "hpm", "median", "prevalence" or
 * "projection", its predictor block refitted into the rows of the fit's
 * table (rows of them, BASEL_COEF_NVALUES numbers each). */
int bsl_subset_model_coef(const json_t *doc, const char *model, double level, double *out, size_t rows,
                          basel_error *err);
/* The density of every term's posterior at nx points each (engine.h's
 * coef_density, basel.h's basel_fit_coef_density). */
int bsl_subset_coef_density(const json_t *doc, const char *model, const double *x, size_t nx, double *out,
                            size_t rows, basel_error *err);
/* Predict with the engine block subset.c wrote (engine.h's predict). */
int bsl_subset_predict(const json_t *doc, const double *X, size_t n, size_t d, const char *model,
                       double level, struct basel_pred *p, basel_error *err);
/* The option rows every subset engine reads (engine.h), with the defaults
 * they share: the dictionary and priors (prior: the coefficient prior's
 * default), and for the samplers the run's length (iter: its default) and
 * the bound on stored subsets. */
#define BSL_SUBSET_OPTIONS(prior)                                                                      \
    {"basis", "linear"}, {"prior", prior}, {"model-prior", "beta-binomial:a=1,b=1"}, {"standardize", "auto"}, \
        {"kmax", ""}, {"top", "20"}, {"gram-memory", "256"}, {"projection-tol", BSL_PROJ_TOL_DEFAULT},          \
        { "projection-spread", "within" }
/* The default of --projection-tol: the projection model's stopping rule
 * (subset_project.c says why). */
#define BSL_PROJ_TOL_DEFAULT "1"
#define BSL_SUBSET_RUN_OPTIONS(iter)                                                                  \
    {"iter", iter}, {"burn", ""}, {"thin", "1"}, {"chains", "4"}, { "max-models", "20000" }

/* --family binomial (subset_glm.c): the GLM's prior (--prior, or its
 * default written into the settings), importance-sampling settings and
 * the engine's model table into pb; the engine block (takes basis) with
 * one Laplace predictor per model, NULL when out of memory or when a
 * Laplace approximation fails. */
int bsl_subset_glm_setup(struct bsl_engine_ctx *ctx, bsl_vs_problem *pb, basel_error *err);
/* One model's Laplace predictor for FIT.json (subset_glm.c). */
json_t *bsl_glm_predictor_json(const size_t *atoms, size_t k, double weight, const double *theta, const double *L,
                               size_t d);
json_t *bsl_subset_glm_block(const bsl_vs_problem *pb, json_t *basis, const bsl_vs_result *vr,
                             const struct bsl_result *res);

/* --family multinomial (subset_multi.c): the result of a multinomial run
 * (vr over the joint atoms, bsl_rj_multi_run) into res: joint atoms named
 * "level:input", the inputs' PIPs, the classes and one Laplace predictor
 * per joint model in the engine block. */
struct bsl_problem;
struct bsl_dict;
int bsl_subset_multi_result(const bsl_vs_problem *pb, const struct bsl_problem *P, const struct bsl_dict *dict,
                            const bsl_design *D, const bsl_vs_result *vr, size_t top, const char *coef_spec,
                            struct bsl_result *res, basel_error *err);
/* The class probabilities (n x C, row by row) of a multinomial predictor
 * block at the rows whose m atoms are the columns of B (n x m): 0, -1
 * (malformed), -2 (out of memory). */
int bsl_subset_multi_probs(const json_t *blk, const double *B, size_t n, size_t m, size_t C, double *prob);
/* subset.c's pieces that subset_multi.c shares: the basis block, the
 * priors' block and the sampler's diagnostics (with their warnings). */
json_t *bsl_subset_basis_json(const struct bsl_dict *dict, const bsl_design *D);
json_t *bsl_subset_prior_json(const bsl_vs_problem *pb, const char *coef_spec);
int bsl_subset_diagnostics(struct bsl_result *r, const bsl_vs_result *vr);

/* Check the engine block subset.c wrote, values as well as shapes, naming
 * a bad key by its JSON path (engine.h's check; subset_check.c). */
int bsl_subset_check(const json_t *doc, const char *source, basel_error *err);
/* engine.h's centres: engine.basis's kernel centres (basis_json in
 * subset.c writes them), one per atom; none for a linear basis. */
int bsl_subset_centres(const json_t *doc, double **out, size_t *count);
/* The models the subset engines predict with: bma and summary.h's
 * bsl_selections (projection: Gaussian fits only; subset_check.c). */
extern const char *const bsl_subset_models[];

#endif
