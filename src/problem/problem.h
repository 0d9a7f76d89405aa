/*
 * problem.h: what an engine is given and what its predict fills, below the
 * engines (engine.h's contract names these types; fit/ builds and owns
 * them): the numeric problem an engine solves (which columns are targets
 * and inputs, by name, the inputs' standardisation, the groups of a
 * categorical input, or the summary statistics that stand in for X and Y),
 * and the prediction buffer behind the public basel_pred.
 *
 * It includes nothing above model/, so an engine reaches no fit/ header
 * (DESIGN.md "Folders"). The builder, bsl_problem_build, which turns a table
 * and options into a problem and checks them, is the fit layer's
 * (fit/problem.c, declared in fit/fit.h).
 */
#ifndef BSL_PROBLEM_H
#define BSL_PROBLEM_H

#include "../core/core.h"
#include "../model/design_stats.h"

#include <stdint.h>

struct bsl_engine_def;

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
    const struct bsl_engine_def *engine;
    size_t n, d, c;
    char **input_names;   /* d (borrowed from the table) */
    char **target_names;  /* c */
    double *X;            /* n x d column-major, standardised when asked; NULL when X32, X8 or X2 holds it */
    float *X32;           /* n x d: the inputs held as float32 instead (problem.c compact_inputs), else NULL */
    int8_t *X8;           /* n x d: or as int8 (whole numbers within +-127), else NULL */
    uint32_t *X2;         /* or as 2-bit codes (whole numbers 0..3: genotypes), in panels of 16
                             (design.h bsl_2bit_pack), else NULL */
    /* or held by other processes, in blocks of columns (fit/blocks.c,
     * --column-blocks), else NULL; the engine makes its design on them */
    const struct bsl_column_blocks *blocks;
    double *Y;            /* n x c column-major (regression) */
    int *cls;             /* n class indices, -1 unlabelled (mixture) */
    char **class_names;   /* nclass (owned strings) */
    size_t nclass;
    int standardized;
    int column_block;     /* the inputs are one process's block of them (fit/blocks.c): held
                             compactly whatever their size, as the whole would be */
    basel_data *owned;    /* --na drop: the complete rows (names are borrowed from it) */
    size_t rows_dropped;  /* rows left out for missing values */
    uint64_t rows_kept_id; /* FNV-1a of the kept rows' numbers when some were left out (0:
                              all kept): the blocks of one table must keep the same rows */
    uint64_t *column_ids; /* a column block's only: two 64-bit hashes of each input's values
                             (2 d), so that rank 0 finds identical inputs in two blocks */
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

/* The prediction buffer an engine's predict fills (the public basel_pred):
 * fit/predict.c allocates it and marks rows with a missing input. */
struct basel_pred {
    size_t n, c, nclass;
    char **names;      /* c target names, or nclass class names */
    double *mean, *lower, *upper; /* n x c column-major (regression) */
    double *se;        /* n x c: the sd of f(x) (basel_pred_se), when has_se */
    int has_se;        /* set by an engine that fills se (the Gaussian subset fits) */
    double *sd, *sdf;  /* n x c: the predictive sd of a new y and of f(x) (basel_pred_sd), when has_sd */
    int has_sd;        /* set by an engine that fills sd and sdf (the subset fits whose models are t's) */
    double *prob;      /* n x nclass row-major (classification) */
    size_t *cls;       /* n predicted classes */
    int interval_mean; /* intervals of the regression function f(x), not of a new y */
    int no_interval;   /* means only (BASEL_INTERVAL_NONE): lower and upper are NaN,
                          and an engine may skip computing them */
    int want_sd;       /* every kind but BASEL_INTERVAL_NONE: fill sd, sdf and se even
                          where they cost more than the means (a model average) */
    /* rows with a missing input (predict.c, missing_rows): NaN predictions,
     * class SIZE_MAX, empty fields in the CSV */
    unsigned char *missing;   /* n flags, or NULL when no row has one */
    size_t nmissing, first_missing, first_missing_line;
    char *first_missing_column;
};

#endif
