/*
 * problem.h: from a table and options to the numeric problem an engine
 * solves: which columns are targets and inputs (by name), the inputs'
 * standardisation, and the checks that turn bad data into clear errors
 * before any engine runs.
 */
#ifndef BSL_PROBLEM_H
#define BSL_PROBLEM_H

#include "fit.h"
#include "../engine/engine.h"
#include "../model/design_stats.h"

/* A categorical input (a column of text among the inputs): its levels in
 * sorted (strcmp) order, the first the reference, as R's default
 * treatment contrasts; X holds one indicator column per other level,
 * named "input:level", at columns first .. first + nlevels - 2. */
#define BSL_MAX_LEVELS 50
typedef struct bsl_factor {
    const char *input;    /* borrowed from the table */
    char **levels;        /* nlevels (owned) */
    size_t nlevels;
    size_t first;         /* its first indicator column in X */
} bsl_factor;

typedef struct bsl_problem {
    const bsl_engine_def *engine;
    size_t n, d, c;
    char **input_names;   /* d (borrowed from the table) */
    char **target_names;  /* c */
    double *X;            /* n x d column-major, standardised when asked */
    double *Y;            /* n x c column-major (regression) */
    int *cls;             /* n class indices, -1 unlabelled (mixture) */
    char **class_names;   /* nclass (owned strings) */
    size_t nclass;
    int standardized;
    basel_data *owned;    /* --na drop: the complete rows (names are borrowed from it) */
    size_t rows_dropped;  /* rows left out for missing values */
    double *x_mean, *x_scale; /* d each (0 and 1 when not standardised; a power of
                               * two for an extreme input, see rescale_extremes) */
    double *y_scale;          /* c: the targets were divided by these (powers of two,
                               * 1 unless extreme); predictions are multiplied back */
    /* categorical inputs: NULL / 0 when there are none. The inputs form
     * ngroups groups of X's columns, group g = columns group_start[g] ..
     * group_start[g + 1] - 1 (a numeric input is a group of one, a factor
     * the group of its indicators), selected all in or all out. */
    bsl_factor *factors;
    size_t nfactors;
    size_t ngroups;
    size_t *group_start;      /* ngroups + 1 */
    char **group_names;       /* ngroups (borrowed from the table) */
    char **level_names;       /* d: the indicator columns' names (NULL for the others) */
    /* a fit from summary statistics (stats.c): X and Y are NULL, the
     * statistics (owned) stand in for them; stats_kind "xtx" or "ld",
     * stats_source the file they came from */
    bsl_stats *stats;
    const char *stats_kind, *stats_source;
    char **owned_names;       /* stats: input and target names (owned) */
} bsl_problem;

/* Whether the settings ask for logistic regression (--family binomial). */
int bsl_family_binomial(const bsl_params *settings);
/* Whether they ask for multinomial logistic regression (--family multinomial). */
int bsl_family_multinomial(const bsl_params *settings);
/* Whether they ask for Poisson regression (--family poisson). */
int bsl_family_poisson(const bsl_params *settings);

/* Targets (numbers, or labels when e says so) and inputs chosen by the
 * user's target and inputs options, standardised as settings say. */
int bsl_problem_build(bsl_problem *pb, const basel_data *data, const bsl_engine_def *e,
                      const bsl_params *user, const bsl_params *settings, basel_error *err);
void bsl_problem_free(bsl_problem *pb);

/* The engine the options choose, its effective settings, whether it keeps
 * draws and the thread count: what every fit reads before its problem. */
int bsl_fit_prepare(const basel_options *o, const bsl_engine_def **e, bsl_params *settings, int *keep_draws,
                    size_t *threads, basel_error *err);
/* The rest of a fit once its problem is built: seed, engine, document.
 * Frees P in every case. */
int bsl_fit_problem(basel_fit **out, const basel_options *o, bsl_params *settings, bsl_problem *P, int keep_draws,
                    size_t threads, basel_error *err);
/* FIT.json's summary_statistics key for a problem from a --stats file
 * (stats.c; NULL when out of memory). */
json_t *bsl_stats_json(const bsl_problem *pb);

/* Split a comma-separated list in place-free fashion: calls fn for each item. */
int bsl_split_names(const char *list, int (*fn)(const char *name, void *user), void *user);

#endif
