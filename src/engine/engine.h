/*
 * engine.h: the engine contract. Every method of `basel fit` is one
 * bsl_engine_def in the engine table (registry.c), the only list of methods
 * and the only place that dispatches on a method's name (as nlopt dispatches
 * in one switch, as GSL's gsl_rng_type is a table of functions).
 *
 * A fit goes:  options --bsl_engine_resolve--> settings (every option the
 * engine reads, validated, defaults filled from its table)
 *   --bsl_problem_build--> numeric problem (targets as numbers or labels, as
 *   the engine says) --def->fit--> bsl_result --bsl_document_write--> FIT.json
 * and back:  FIT.json --bsl_document_check--> def->predict with --model.
 *
 * Adding an engine is one folder under src/engine/ that defines a
 * `const bsl_engine_def bsl_engine_NAME` plus one line in registry.c.
 */
#ifndef BSL_ENGINE_H
#define BSL_ENGINE_H

#include "../core/params.h"

#include <jansson.h>

struct bsl_problem;
struct basel_pred;
struct bsl_model_ops;

/* ------------------------------------------------------------ options */

typedef enum bsl_opt_kind {
    BSL_OPT_TEXT = 0, /* free text or a spec (NAME[:key=value,...]), parsed by its reader */
    BSL_OPT_COUNT,    /* a whole number in [lo, hi] */
    BSL_OPT_REAL,     /* a real number in [lo, hi] */
    BSL_OPT_CHOICE    /* one of the '|'-separated words in choices */
} bsl_opt_kind;

/* One row of the option catalogue (catalogue.c): what an option means, once,
 * whatever the engine that reads it. */
typedef struct bsl_option_def {
    const char *name;
    bsl_opt_kind kind;
    double lo, hi;       /* COUNT, REAL */
    const char *choices; /* CHOICE */
    const char *help;
} bsl_option_def;

/* An engine's use of an option: its default for this engine. "" means the
 * engine derives it from the data (e.g. kmax) and records the value it used
 * in the fit's settings. */
typedef struct bsl_engine_option {
    const char *name;
    const char *def;
} bsl_engine_option;

/* Options every fit reads, whatever the method (the problem and the run,
 * not the engine): method, target, inputs, seed, threads, keep-draws,
 * checkpoint, checkpoint-every, restart. Kept out of FIT.json's settings
 * when they change how a fit runs, never what it computes (threads,
 * keep-draws, the checkpoint options). */
int bsl_option_is_global(const char *name);
int bsl_option_is_recorded(const char *name);

/* What the settings' --family asks for (catalogue.c: the option's reader,
 * for the engines that pick a model table and for the problem's targets).
 * Whether the settings ask for logistic regression (--family binomial). */
int bsl_family_binomial(const bsl_params *settings);
/* Whether they ask for multinomial logistic regression (--family multinomial). */
int bsl_family_multinomial(const bsl_params *settings);
/* Whether they ask for Poisson regression (--family poisson). */
int bsl_family_poisson(const bsl_params *settings);

const bsl_option_def *bsl_option_find(const char *name);
size_t bsl_option_count(void);
const bsl_option_def *bsl_option_at(size_t i);
/* Option i's help text with its method lists filled in from the engine
 * table (catalogue.c: a text's @what@ placeholder), a constant string;
 * NULL when i is out of range. */
const char *bsl_option_help(size_t i);

/* The keys of a coefficient table's row (FIT.json "coefficients", docs/FIT.md)
 * in the order of basel.h's BASEL_COEF_* values, which is also the order of
 * basel_fit_write_coef_csv's columns (result.c). */
extern const char *const bsl_coef_value_keys[BASEL_COEF_NVALUES];

/* ------------------------------------------------------------ results */

/* One listed model: its atoms (sorted), posterior probability (estimated or
 * exact) and log posterior up to a constant (NaN when unknown). */
typedef struct bsl_result_model {
    size_t *atoms;
    size_t k;
    double prob, log_post;
} bsl_result_model;

/* The one result of every engine, written by the one writer of FIT.json
 * (fit/document.c). A NULL array means "does not apply to this method", and
 * the key is then absent from the document, never empty. */
typedef struct bsl_result {
    size_t m;              /* candidate atoms (inputs for the mixture) */
    char **atom_names;     /* m, owned */
    double *pip;           /* m, or NULL */
    size_t kmax;
    double *size_prob;     /* kmax + 1, or NULL */
    bsl_result_model *models; /* nmodels, most probable first, or NULL */
    size_t nmodels;
    bsl_result_model hpm;  /* the highest-probability model (atoms NULL: models[0]) */
    bsl_result_model projection; /* the projection of the model average (subset_project.c), atoms
                                    sorted; atoms NULL: none (selected.projection absent) */
    int has_selected;      /* write selected.{hpm,median,prevalence} (and projection) */
    json_t *prior;         /* the priors that ran, with their numbers */
    json_t *diagnostics;   /* note, R-hat, ESS, warnings, ... */
    json_t *engine;        /* what predict needs: the engine's own state */
    json_t *extra;         /* further top-level keys (e.g. classes, k, centres) */
    struct bsl_vs_result *draws; /* kept draws (--draws), or NULL */
    /* log p(y | M) of each listed model (nmodels), or NULL when the engine
     * does not know it; then also the null model's (atoms: none) */
    double *log_ml;
    double null_log_ml;
} bsl_result;

void bsl_result_free(bsl_result *r);
/* Allocate atom_names (m NULL entries) and pip (when with_pip). */
int bsl_result_init(bsl_result *r, size_t m, int with_pip);
/* Append a warning to diagnostics.warnings (created on first use). */
int bsl_result_warn(bsl_result *r, const char *text);
/* Mark a fit made from an interrupted run (chains.h, cs->partial):
 * diagnostics.interrupted = {iterations: done, planned} and a warning.
 * BASEL_ENOMEM. */
int bsl_result_interrupted(bsl_result *r, double done, double planned);

/* ------------------------------------------------------------ engines */

typedef enum bsl_target_kind {
    BSL_TARGET_NUMERIC = 0, /* one or more numeric target columns */
    BSL_TARGET_LABELS = 1   /* one class column, read as text; empty = unlabelled */
} bsl_target_kind;

/* What an engine is handed: the problem, its resolved settings (every option
 * in its table, validated; the engine writes back the values it derives),
 * and the run's seed, threads, draws and progress. */
typedef struct bsl_engine_ctx {
    const struct bsl_engine_def *def;
    const struct bsl_problem *P;
    bsl_params *settings;
    const bsl_params *user; /* the options as the user set them (e.g. to tell a default from a choice) */
    unsigned long seed;
    int threads;           /* 0 = all cores */
    int keep_draws;
    /* the sampling's progress in the engine's units (def->unit), NULL when
     * nobody listens; the phases before it report to phases (NULL: none) */
    bsl_progress_fn progress;
    void *progress_user;
    const bsl_progress *phases;
    /* checkpoints (def->checkpoints; chains.h): NULL paths when not asked */
    const char *checkpoint, *restart;
    double checkpoint_every;
    unsigned long long run_id; /* the run's identity: settings, seed and data */
    double max_time;           /* --max-time: wall seconds, 0 = no limit (bd, rj, ssvs) */
    const basel_ranks *ranks;  /* chains over processes (chains.h), NULL: one process */
    /* the engine's estimate of the CPU seconds of its phases after the
     * sampling, shown with the sampling's progress (basel.h basel_progress
     * later); NAN until the engine sets it */
    double later;
    /* the engine's side output (def->side_output), opened by the run
     * layer (fit.c) and committed there when the fit succeeds: the engine
     * writes rows to it and never opens, renames or removes a file. NULL
     * when not asked for. */
    FILE *side;
} bsl_engine_ctx;

/* Which fits' draws carry log_lik (and sigma2, b_), in the words of every
 * message that refuses --draws-loglik (subset.c before the run, draws.c
 * when a fit without them is asked for them): subset_draws.c's rule. */
#define BSL_LOGLIK_FITS                                                                                           \
    "Gaussian fits of bd, rj and ssvs with one target, under a prior whose posterior within a model is a "      \
    "Student-t, have it; not with a categorical input, --prior ssvs or --stats: docs/FIT.md \"The draws CSV\""

typedef struct bsl_engine_def {
    const char *name;         /* --method NAME */
    const char *summary;      /* one line for help texts */
    const char *unit;         /* what its sampling's progress counts (basel.h basel_progress) */
    /* when to choose it over the other methods, with the measurements
     * behind the advice (basel_method_advice; 'basel help fit --method'),
     * or NULL */
    const char *advice;
    /* the option naming a file of rows the engine writes as it runs (smc:
     * "running", its one-step-ahead predictions), or NULL: the run layer
     * opens it as ctx->side */
    const char *side_output;
    bsl_target_kind target;
    const bsl_engine_option *options; /* the options it reads, {NULL} ended */
    /* --model values it predicts with, NULL ended, the first the default
     * (NULL: only the model average, "bma") */
    const char *const *models;
    int keeps_draws;          /* --draws is accepted */
    /* Under --prior g, aic, bic or mdl its posterior does not depend on the
     * units of the targets, nor (with the linear basis) of the inputs: the
     * problem may then rescale a column of extreme values by a power of two
     * (exact, problem.c) instead of refusing it. */
    int scale_free;
    int checkpoints;          /* --checkpoint and --restart are accepted (chains.h) */
    int max_time;             /* --max-time is accepted: its chains stop on a time budget (chains.h) */
    int column_blocks;        /* runs on inputs held in blocks by other processes (fit/blocks.c) */
    /* a categorical input's indicator columns are selected as one group
     * (group.c) with the linear basis: basel_method_groups_factors */
    int groups_factors;
    /* its fit runs on the collapsed models of model.h through a design
     * alone (subset.c), so also from summary statistics (--stats,
     * fit/stats.c) instead of rows */
    int design_only;
    /* its fit writes FIT.json's coefficient table ("coefficients":
     * coef_table.c), which basel_fit_write_coef_csv reads */
    int coefficients;
    /* Run on ctx and fill res. BASEL_ECANCELLED when progress asked to stop. */
    int (*fit)(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err);
    /* Predict n rows of X (n x d column-major, standardised as at fit time)
     * with the document's engine block; model is one of def->models. p has
     * its regression arrays allocated (mean, lower, upper: n x c). A
     * classifier replaces them by nclass, names, prob (n x nclass, row by
     * row) and cls (n, allocated): the caller sets each row's class from
     * prob (predict.c finish_predictions). */
    int (*predict)(const json_t *doc, const double *X, size_t n, size_t d, const char *model,
                   double level, struct basel_pred *p, basel_error *err);
    /* Further checks of a loaded document's engine block (shapes, signs,
     * ranges), or NULL. */
    int (*check)(const json_t *doc, const char *source, basel_error *err);
    /* The kernel centres of a checked document, in standardised input
     * units, d numbers each (d its inputs), into *out (malloc'd; the
     * caller frees): one per atom for the atom engines (basel.h's
     * basel_fit_centres), every kept network's kernels for rbf and anneal.
     * *count 0 and *out NULL when it has none (a linear basis); NULL hook:
     * the engine has no kernels. BASEL_ENOMEM. */
    int (*centres)(const json_t *doc, double **out, size_t *count);
    /* The coefficient table of one of its single models (basel.h's
     * basel_fit_model_coef: rows of BASEL_COEF_NVALUES numbers, in the
     * order of the document's table), or NULL when it has none. */
    int (*model_coef)(const json_t *doc, const char *model, double level, double *out, size_t rows,
                      basel_error *err);
    /* The density of every term of that table at nx points each
     * (basel.h's basel_fit_coef_density), or NULL. */
    int (*coef_density)(const json_t *doc, const char *model, const double *x, size_t nx, double *out, size_t rows,
                        basel_error *err);
    /* predict honours basel_pred's interval_mean (the interval of the
     * regression function, not of a new observation) */
    int mean_interval;
    /* the model table it runs for --family binomial (model.h: the
     * logistic model given Polya-Gamma latent variables for a sampler, the
     * exact one for enumeration), NULL when it fits Gaussian models only:
     * the one place that says which engines take --family */
    const struct bsl_model_ops *binomial;
    const struct bsl_model_ops *poisson; /* the same for --family poisson */
    /* the same for --family multinomial: each class's model (one subset
     * per class; model/glm_multi.h) */
    const struct bsl_model_ops *multinomial;
    /* Subset engines (subset.c), each may be NULL. run_length: settle the
     * default run length for d inputs into settings (a user's --iter is
     * theirs; NULL: iter as the defaults give it). evaluations: the model
     * evaluations (try_add and the like) one iteration makes on m atoms,
     * for the design's dense-or-streamed choice (NULL: unknown, dense
     * whenever it fits in --gram-memory). */
    int (*run_length)(bsl_params *settings, const bsl_params *user, size_t d, basel_error *err);
    double (*evaluations)(const bsl_params *settings, size_t m, size_t d);
    /* an older spelling that still selects this engine: --method
     * alias_of with a --basis holding alias_basis (rbf: rj with
     * centres=free), or NULL */
    const char *alias_of, *alias_basis;
    /* without --method, the default for a linear basis with more than
     * this many inputs (rj: 1000), or 0 */
    size_t default_above;
} bsl_engine_def;

/* The model table e runs for --family family ("gaussian": NULL, the
 * default tables), NULL when it has none. */
const struct bsl_model_ops *bsl_engine_family_model(const bsl_engine_def *e, const char *family);

/* For a check that reuses an engine's loader: the loader's failure rc
 * (its message in err) reported at source. Returns rc. */
int bsl_engine_check_failed(basel_error *err, int rc, const char *source);

const bsl_engine_def *bsl_engine_find(const char *name);
size_t bsl_engine_count(void);
const bsl_engine_def *bsl_engine_at(size_t i);
/* "enumerate, bd, ..." into buf, for messages. */
void bsl_engine_names(char *buf, size_t len);
/* Whether e can do what, one of the table's capabilities by name:
 * "checkpoint", "max-time", "draws", "factors" (groups_factors),
 * "stats" (design_only), "coefficients", "scale-free", "mean-interval",
 * "binomial", "poisson", "multinomial". 0 for an unknown name. */
int bsl_engine_can(const bsl_engine_def *e, const char *what);
/* The engines that can do what (bsl_engine_can), in table order, into buf
 * as "a, b, c" (last NULL) or "a, b and c" (last "and", "or"): every help
 * text and message that names the methods able to do something is made
 * from the table's flags here, so an engine added to the table is named
 * everywhere, and none is named by hand. Returns buf. */
const char *bsl_engine_list(char *buf, size_t len, const char *what, const char *last);
/* Find the engine called name, or fail naming the accepted ones. */
int bsl_engine_lookup(const bsl_engine_def **out, const char *name, basel_error *err);
/* The method of a fit that names none, before the data are known. */
#define BSL_DEFAULT_METHOD "bd"
/* The method of a fit that names none, given the number of input columns
 * (0: not known yet) (the one place of the rule, registry.c): bd, or rj
 * above 1000 inputs of a linear basis, where rj's informed moves mix and
 * bd's births do not, and for a --family bd has no model for (multinomial)
 * the first sampler in the engine table that has one. */
const char *bsl_default_method(const bsl_params *user, size_t inputs);
/* The engine the user's options ask for (--method, default bd; `rj` with
 * a basis of free centres is the rbf engine). */
int bsl_engine_for(const bsl_engine_def **out, const bsl_params *user, basel_error *err);
/* The engine's default for option name, or NULL when it does not read it. */
const char *bsl_engine_default(const bsl_engine_def *e, const char *name);
/* Fill settings with every option e reads: the user's value or e's
 * default, each checked against the catalogue's kind and range. An option
 * the user set that e does not read is BASEL_EINVAL naming both. */
int bsl_engine_resolve(const bsl_engine_def *e, const bsl_params *user, bsl_params *settings,
                       basel_error *err);
/* Whether e predicts with --model model (NULL = its default). */
int bsl_engine_has_model(const bsl_engine_def *e, const char *model);

#endif
