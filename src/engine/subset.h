/*
 * sampler.h: engines over subsets of a dictionary (DESIGN.md "Engine"):
 * exact enumeration, continuous-time birth-death, reversible jump and
 * spike-and-slab Gibbs. Each reads a bsl_vs_problem (shared, read-only),
 * talks to its model only through the model table (model.h),
 * runs its chains (OpenMP, one RNG per chain seeded by bsl_mix_seed(seed,
 * chain) so the result does not depend on the thread count) and fills a
 * bsl_vs_result (summary.h).
 */
#ifndef BSL_SAMPLER_H
#define BSL_SAMPLER_H

#include "../core/params.h"
#include "../model/model.h"
#include "../prior/prior.h"
#include "../summary/summary.h"

typedef struct bsl_vs_problem {
    const bsl_design *D;
    bsl_coef_prior prior;  /* ridge with sample_nuisance: engines that can, Gibbs-update it */
    bsl_mprior mprior;     /* includes kmin/kmax */
    size_t kmax;           /* = mprior.kmax, the largest model any chain may hold */
    const char *prior_spec;/* the --prior text, for engines with priors of their own (ssvs) */
    const bsl_model_ops *model; /* the model table; NULL = bsl_model_ops_for(&prior) */
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
    size_t top;            /* models to keep in the summary */
    basel_progress_fn progress;
    void *progress_user;
    const bsl_params *params; /* engine-specific settings */
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
/* Spike-and-slab Gibbs (paper 001), collapsed and as written. */
int bsl_ssvs_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
                 basel_error *err);

#endif
