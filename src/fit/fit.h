/*
 * fit.h: the public handles basel_options, basel_fit and basel_pred, and
 * the glue between them: options -> problem (targets, inputs, standardising,
 * dictionary, design) -> engine -> FIT.json document -> predictions.
 *
 * A fit IS its JSON document (jansson): an engine's result is turned into the
 * document once, and predict, summary and the FIT.json file all read that
 * same document, so a fit read back from disk behaves exactly like the one
 * just computed.
 */
#ifndef BSL_FIT_H
#define BSL_FIT_H

#include "../core/jsonutil.h"
#include "../core/params.h"
#include "../engine/engine.h"
#include "../io/io.h"
#include "../problem/problem.h"
#include "../summary/summary.h"

#include <jansson.h>

struct basel_options {
    bsl_params p;          /* every option that was set, as text */
    bsl_progress progress; /* basel_options_set_progress(_report) */
    basel_ranks ranks;     /* basel_options_set_ranks; size 0: one process */
};


struct basel_fit {
    json_t *doc;
    double *pip;   /* cached from doc for basel_fit_pip */
    size_t m;
    bsl_vs_result *draws; /* the run's draws when asked for (not part of FIT.json) */
    double *size;          /* model_size.prob, nsize entries (access.c) */
    size_t nsize;
    size_t *selected[BSL_NSELECTIONS];  /* selected.<bsl_selections[i].name>, or NULL */
    size_t nselected[BSL_NSELECTIONS];
    /* models[i].atoms flattened (model i's: model_start[i] ..
     * model_start[i + 1]) and their log Bayes factors, and the same for
     * credible_sets.sets (results.c) */
    size_t nmodels, *model_atoms, *model_start;
    double *model_log_bf;
    size_t nsets, *set_atoms, *set_start;
    double *centres; /* basel_fit_centres: ncentres x d, the inputs' units */
    size_t ncentres;
};
/* Fill the arrays the accessors hand out (access.c, and results.c's part).
 * BASEL_ENOMEM. */
int bsl_fit_cache(basel_fit *f);
int bsl_fit_cache_results(basel_fit *f);
void bsl_fit_free_results(basel_fit *f);

/* The FIT.json format this basel writes (docs/FIT.md). It also reads
 * BSL_FORMAT_OLDEST and later: version 3 only added keys (target_scale)
 * whose absence means what version 2 meant, so a version-2 fit is read as
 * written. */
#define BSL_FORMAT_VERSION 3
#define BSL_FORMAT_OLDEST 2

/* Extreme values. Beyond 2^256 (about 1.2e77) in magnitude, a sum of
 * squares or a cubic kernel (r^3) of a table that fits in memory nears
 * DBL_MAX; below 2^-256 squares near the subnormals. The problem rescales
 * such columns by a power of two where the model does not depend on their
 * units, and refuses them elsewhere; predict refuses test inputs that far
 * (in training scales) from the training data. */
#define BSL_EXTREME 0x1p256
/* The smallest scale a fit records (standardize.scale, target_scale; the
 * loader refuses less): a column whose rescaling factor would be smaller is
 * refused when fitting (problem.c). */
#define BSL_SCALE_MIN 1e-300

/* Take ownership of doc and wrap it (caches pip). */
int bsl_fit_wrap(basel_fit **out, json_t *doc, basel_error *err);
/* Check that doc is a FIT.json document this basel reads (format_version,
 * method, pip) and wrap it; the loaders' common path. Takes doc, also on
 * failure. source names the document in messages. BASEL_EPARSE, ENOMEM. */
int bsl_fit_adopt(basel_fit **out, json_t *doc, const char *source, basel_error *err);
/* basel_fit_read_json from memory: the len bytes at text (no NUL needed);
 * name is used in messages. BASEL_EPARSE (with line and column for bad
 * JSON), ENOMEM. Used by the fuzz target (tests/fuzz/fuzz_fit.c). */
int bsl_fit_read_buffer(basel_fit **out, const char *name, const char *text, size_t len,
                        basel_error *err);

/* The first value of p that is not finite: what it is ("mean", "lower
 * bound", "upper bound", "probability") with its row and column, or NULL. */
const char *bsl_pred_nonfinite(const basel_pred *p, size_t *row, size_t *col);

struct bsl_result;
/* The one writer of FIT.json's body (document.c): the summaries every fit
 * has, from the engine's result, after the header fit.c writes. */
int bsl_document_fill(json_t *doc, const struct bsl_result *res, basel_error *err);
/* The one check of a document, written here or read back: format version,
 * method, and the shapes, signs and ranges of every key a reader uses.
 * source names the document in messages. BASEL_EPARSE. */
int bsl_document_check(const json_t *doc, const char *source, basel_error *err);

/* ------------------------------------------------ the problem (problem.c) */

/* Targets (numbers, or labels when e says so) and inputs chosen by the
 * user's target and inputs options, standardised as settings say. */
int bsl_problem_build(bsl_problem *pb, const basel_data *data, const bsl_engine_def *e,
                      const bsl_params *user, const bsl_params *settings, basel_error *err);
/* The same, taking the table: the problem owns it from the call on (freed
 * with it, or here on failure), and X is made in the table's own array
 * when every input is a numeric column, so that the set-up holds one copy
 * of the inputs, not two (basel_fit_run_take). */
int bsl_problem_build_take(bsl_problem *pb, basel_data *data, const bsl_engine_def *e,
                           const bsl_params *user, const bsl_params *settings, basel_error *err);
/* Either of those for one process's block of the inputs (fit/blocks.c;
 * take NULL or data): held compactly (problem.c compact_allowed) whatever
 * the block's size, as the whole table would be. */
int bsl_problem_build_block(bsl_problem *pb, const basel_data *data, basel_data *take, const bsl_engine_def *e,
                            const bsl_params *user, const bsl_params *settings, basel_error *err);
/* basel_fit_run(_take) with o->ranks.column_blocks over more than one
 * process: this process's table holds its block of the inputs
 * (fit/blocks.c); take NULL or data, freed on every path. */
int bsl_blocks_fit(basel_fit **out, const basel_data *data, basel_data *take, const basel_options *o,
                   basel_error *err);
void bsl_problem_free(bsl_problem *pb);
/* The inputs (X, X32, X8) freed once the engine is done with them: the
 * document is assembled without them (at p = 10^6 genotypes, 1 GB less at
 * the fit's peak). */
void bsl_problem_drop_inputs(bsl_problem *pb);

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
