/*
 * summary.h: what engines over subsets of a dictionary report, and the
 * summaries computed from it (DESIGN.md "Summaries").
 *
 * bsl_modelset is a hash set of subsets (sorted atom indices) with a weight
 * each (posterior probability, time or count) and the log posterior when
 * known: the visited or enumerated models, from which the highest
 * probability model, the top models and model-averaged intervals come.
 *
 * bsl_vs_result is the common result of enumerate, bd, rj and ssvs.
 */
#ifndef BSL_SUMMARY_H
#define BSL_SUMMARY_H

#include "../core/core.h"

#include <stdint.h>

typedef struct bsl_subset {
    size_t k;
    size_t off;       /* private: offset in the set's arena; use bsl_modelset_atoms */
    double weight;    /* unnormalised posterior weight */
    double log_post;  /* log posterior up to a constant, NaN if unknown */
} bsl_subset;

typedef struct bsl_modelset {
    bsl_subset *items;
    size_t n, cap;
    size_t *slots;    /* open-addressing table of item index + 1 (0 = empty) */
    size_t nslots;
    size_t *arena;    /* storage of all atom lists */
    size_t arena_len, arena_cap;
    size_t max_items; /* 0 = unbounded; beyond it, new subsets are not stored
                         unless their log posterior beats every one seen, so
                         the highest-probability model is never lost */
    double dropped_weight;
    double best_log_post;
} bsl_modelset;

int bsl_modelset_init(bsl_modelset *s, size_t max_items);
void bsl_modelset_free(bsl_modelset *s);
/* After the items, arena and table were read from outside (a checkpoint):
 * -1 unless 2 n <= nslots (a power of two), every item's atoms lie in the
 * arena, are sorted, distinct and below m, its weight is finite and not
 * negative, no subset is stored twice, and dropped_weight is finite and
 * not negative; then the table is rebuilt from the items (a lookup finds
 * the same item as in the table saved), so no slot read from outside is
 * trusted. */
int bsl_modelset_reindex(bsl_modelset *s, size_t m);
/* Add weight to the subset atoms[0..k) (need not be sorted; a sorted copy is
 * stored). log_post may be NaN. Returns 0, or -1 on ENOMEM. */
int bsl_modelset_add(bsl_modelset *s, const size_t *atoms, size_t k, double weight,
                     double log_post);
/* A subset in the set's lookup form: its atoms sorted (in the caller's
 * storage, room for k) and their hash. A sampler knows the subset it will
 * add long before it adds it (the state it has just moved to, added when it
 * leaves): it makes the key once, prefetches the key's place in the table
 * while it goes on, and adds by key, with the same effect as
 * bsl_modelset_add (whose sort and probes were mostly cache misses: a tenth
 * of an rj move). */
typedef struct bsl_subset_key {
    size_t *atoms;
    size_t k;
    uint64_t h;
} bsl_subset_key;
/* Fill key (key->atoms must have room for k) from atoms[0..k) in any order. */
void bsl_modelset_key(bsl_subset_key *key, const size_t *atoms, size_t k);
/* Start bringing the key's slot (stage 0), its item (1) and its atoms (2)
 * into the cache; a stage reads what the one before fetched, so the
 * stages go some work apart. Changes nothing. */
void bsl_modelset_prefetch(const bsl_modelset *s, const bsl_subset_key *key, int stage);
/* bsl_modelset_add by key. */
int bsl_modelset_add_key(bsl_modelset *s, const bsl_subset_key *key, double weight,
                         double log_post);
/* Merge b into a (weights add). */
int bsl_modelset_merge(bsl_modelset *a, const bsl_modelset *b);
/* bsl_modelset_merge, consuming b (left empty): into an empty a that would
 * take every item of b, b's storage becomes a's instead of being copied
 * (the same items in the same order: the same set). */
int bsl_modelset_absorb(bsl_modelset *a, bsl_modelset *b);
/* Sort items by decreasing weight (indices into items stay valid only until
 * the next add). */
void bsl_modelset_sort(bsl_modelset *s);
/* Total weight, including dropped weight. */
double bsl_modelset_total(const bsl_modelset *s);
/* The sorted atoms of item i (valid until the next add). */
const size_t *bsl_modelset_atoms(const bsl_modelset *s, size_t i);

typedef struct bsl_vs_result {
    size_t m, c, kmax, chains;
    double *pip;          /* m: posterior inclusion probabilities */
    double *pip_chain;    /* chains x m (row per chain), NULL for enumerate */
    double *size_prob;    /* kmax + 1 */
    double *coef_bma;     /* m x c row-major: model-averaged posterior mean coefficients */
    bsl_modelset models;  /* visited / enumerated subsets with weights */
    double *rhat_pip, *ess_pip, *ess_tail_pip; /* m each, NULL when not computed */
    double rhat_size, ess_size, ess_tail_size;
    size_t diag_draws;    /* recorded draws per chain behind R-hat and ESS */
    double prior_g;       /* eb-global: the g enumerate chose from every subset (coef_prior.h
                             choose_g), the g of every summary after the run; 0: none */
    double nu_mean[2];    /* sampled nuisance parameters (the model's, in its order:
                             ridge sigma2, lambda; g's g): posterior means */
    double seconds;
    double evaluations;   /* marginal-likelihood evaluations made */
    /* draws: one row per retained draw; chain, size, and the active atoms */
    size_t ndraws, draws_cap;
    unsigned *draw_chain;
    size_t *draw_start;   /* offsets into draw_atoms; ndraws + 1 entries */
    size_t *draw_atoms;
    size_t draw_atoms_len, draw_atoms_cap, draw_start_cap;
    double *draw_scalars; /* ndraws x nscalars: e.g. sigma2, lambda */
    size_t nscalars;
    char scalar_names[4][16];
    /* streamed draws (bsl_vs_spill_begin): the draws are not in the arrays
     * above but in temporary files, as the rows of the draws CSV, one file
     * per chain in chain order; ndraws counts them */
    FILE **spill;
    size_t nspill;
    unsigned char *spill_row; /* m: scratch of one row */
    char engine_note[512];/* e.g. "events=..., acceptance=..." */
    /* the moves that change the model, proposed and accepted over all
     * chains (bsl_conv_check); 0 and 0 for an engine without them */
    double moves_proposed, moves_accepted;
    /* an interrupted run's fit (chains.h cs->partial): iterations done and
     * planned over all chains, burn-in included; iter_planned 0 otherwise */
    double iter_done, iter_planned;
    /* input relevance (bd --relevance, engine/bd/bd_relevance.h): d_inputs
     * inputs' posterior inclusion probabilities P(eta_a > 0), per chain
     * (chains x d_inputs), and posterior mean scales E eta_a; NULL and 0
     * otherwise; the moves proposed and accepted over all chains */
    size_t d_inputs;
    double *input_pip, *input_pip_chain, *input_scale;
    double input_proposed, input_accepted;
    /* posterior draws of (subset, coefficients) a predictor averages over
     * (--family multinomial, rj_multinomial.c): ncoef_draws of them, draw i
     * the atoms coef_draw_atoms[coef_draw_start[i] .. coef_draw_start[i+1])
     * (sorted) and the coefficients coef_draw_theta[coef_draw_start[i] +
     * i * coef_draw_extra ..] (as many as its atoms plus coef_draw_extra,
     * the intercepts); NULL and 0 otherwise */
    size_t ncoef_draws, coef_draw_extra;
    size_t *coef_draw_start, *coef_draw_atoms;
    double *coef_draw_theta;
    /* the draws' values (the draws CSV's sigma2, b_ and log_lik columns;
     * subset_draws.c), drawn after the run when the draws are kept; ndraw_q
     * 0 when the fit has none, else the always-in coefficients (the
     * intercept first). The m + ndraw_q + 2 values' names in
     * draw_value_names: sigma2, b_Intercept, the always-in inputs', the
     * atoms', log_lik. Draw i's: draw_fixed[i * (ndraw_q + 2) ..] = sigma2,
     * the always-in coefficients, log_lik; its atoms' coefficients parallel
     * to its atoms, draw_coef[draw_start[i] ..] (the others 0); with
     * nloglik (the training rows) its pointwise log-likelihoods
     * draw_loglik[i * nloglik ..], else 0 and NULL. Streamed draws carry
     * their values at the end of their rows instead (nvalues of them, the
     * order of draw_value_names; 0: rows without values), and the
     * pointwise log-likelihoods are in loglik_spill, per draw its chain
     * then nloglik doubles (binary); bsl_vs_spill_load reads both back */
    size_t ndraw_q, nloglik, nvalues, coef_cap;
    char **draw_value_names;
    double *draw_fixed, *draw_coef, *draw_loglik;
    FILE *loglik_spill;
} bsl_vs_result;

int bsl_vs_result_init(bsl_vs_result *r, size_t m, size_t c, size_t kmax, size_t chains);
void bsl_vs_result_free(bsl_vs_result *r);
/* Append one draw (atoms need not be sorted). BASEL_ENOMEM; BASEL_EIO when
 * streamed and the temporary file cannot be written. */
int bsl_vs_add_draw(bsl_vs_result *r, unsigned chain, const size_t *atoms, size_t k,
                    const double *scalars);
/* From now on r's draws go to a temporary file (bsl_tmpfile: in TMPDIR,
 * nameless, gone when closed or when the process ends), as the rows of the draws
 * CSV, instead of memory: memory no longer grows with the run. r must have
 * no draws yet. BASEL_EIO (the message names the directory and the
 * system's reason), BASEL_ENOMEM; err filled. */
int bsl_vs_spill_begin(bsl_vs_result *r, basel_error *err);
/* Move src's draws, streamed or not, to the end of dst's streamed ones
 * (dst takes src's files). BASEL_EIO, BASEL_ENOMEM. */
int bsl_vs_spill_take(bsl_vs_result *dst, bsl_vs_result *src);
/* The draws CSV's numbering of its rows (docs/FIT.md, "The draws CSV"):
 * a row's iteration within its chain and its draw over all chains, both
 * 1-based, as posterior's .iteration and .draw. The rows come in chain
 * order (the chains' draws are merged one chain after another), so the
 * iteration restarts whenever the chain changes. Start from {0, 0, 0}. */
typedef struct bsl_draw_number {
    unsigned chain;   /* the last row's, 0-based */
    size_t iteration; /* the last row's */
    size_t draw;      /* rows numbered so far */
} bsl_draw_number;
void bsl_vs_draw_number(bsl_draw_number *d, unsigned chain);
/* The rows of streamed draws, in order, to fp as the draws CSV's rows:
 * the chain, then its iteration and draw (bsl_vs_draw_number), then the
 * rest of the row as streamed. BASEL_EIO, also for a file that is not such
 * rows. */
int bsl_vs_spill_copy(const bsl_vs_result *r, FILE *fp);
/* Read streamed draws back into r's arrays and close their temporary files,
 * for callers that index draws (basel_fit_draw): memory then holds them as
 * if they had never been streamed. Nothing to do when r is not streamed.
 * BASEL_ENOMEM, BASEL_EIO (a file that cannot be read back); on failure r
 * is as before. */
int bsl_vs_spill_load(bsl_vs_result *r);
/* Draw i's values (r->ndraw_q > 0; the draws in memory) in the order of
 * draw_value_names: m + ndraw_q + 2 doubles into out, an atom outside the
 * draw's model 0. */
void bsl_draw_values(const bsl_vs_result *r, size_t i, double *out);
/* bsl_vs_print_draw with nv values after the scalars (streamed rows with
 * values, nvalues). */
int bsl_vs_print_draw_values(FILE *fp, size_t m, unsigned chain, const size_t *atoms, size_t k,
                             const double *scalars, size_t nscalars, const double *values, size_t nv,
                             unsigned char *row);
/* One row of bsl_vs_print_draw(_values) back from f: chain, the k atoms,
 * the scalars and nv values. BASEL_EIO when it is not such a row. */
int bsl_vs_parse_draw(FILE *f, size_t m, size_t nscalars, size_t nv, unsigned *chain, size_t *atoms, size_t *k,
                      double *scalars, double *values);
/* One draw as a row of the draws CSV (chain + 1, size, m 0/1 columns, the
 * scalars with 17 digits); row: m bytes of scratch. */
int bsl_vs_print_draw(FILE *fp, size_t m, unsigned chain, const size_t *atoms, size_t k,
                      const double *scalars, size_t nscalars, unsigned char *row);

/* The single models a subset fit selects, in the order FIT.json's
 * "selected", the summary and the accessors list them (the one list of their
 * names; select.c): prevalence, median, hpm (Barbieri & Berger; paper 004
 * Defs. 1.4-1.6) and projection (subset_project.c: the smallest forward
 * projection of the model average that explains it; Gaussian fits only).
 * bsl_selections[i].what is the summary's description; optional: absent from
 * some fits (projection: GLM fits and fits written before it), the others
 * are in every document that has "selected". */
#define BSL_NSELECTIONS 4
typedef struct bsl_selection {
    const char *name, *what;
    int optional;
} bsl_selection;
extern const bsl_selection bsl_selections[BSL_NSELECTIONS];
/* Its index in bsl_selections, or -1. */
int bsl_selection_index(const char *name);

/* Selected models (Barbieri & Berger; paper 004 Defs. 1.4-1.6). Each writes
 * the chosen atom indices (sorted) into out and returns their number. */
size_t bsl_select_median(const double *pip, size_t m, size_t *out);
size_t bsl_select_prevalence(const double *pip, size_t m, const double *size_prob, size_t kmax,
                             size_t *out);
/* k_opt = argmax_k size_prob (paper 004 eq. 11), ties to the smaller k. */
size_t bsl_kopt(const double *size_prob, size_t kmax);

/* Convergence of one scalar quantity over chains (diag.c): x holds chains
 * rows of len draws each. Rank-normalised split R-hat, bulk and tail ESS
 * (Vehtari, Gelman, Simpson, Carpenter and Buerkner 2021), as R's posterior
 * package computes rhat(), ess_bulk() and ess_tail(); NaN where it answers
 * NA (a constant quantity, too few draws); rhat is +inf when every
 * half-chain is constant but they differ (chains on different values).
 * BASEL_ENOMEM. */
typedef struct bsl_conv {
    double rhat, ess_bulk, ess_tail;
} bsl_conv;
int bsl_conv_of(const double *x, size_t chains, size_t len, bsl_conv *out);

/* R-hat and ESS of m indicators and of the size from per-chain traces:
 * traces[c] holds chain c's (m + 1) x L values, indicator j's trace at
 * traces[c] + j * L and the size's in the last row; results into
 * rhat_pip, ess_pip, ess_tail_pip (m each; ess_tail_pip may be NULL)
 * and *size (bsl_conv_of); NaN when L < 4. seen (NULL: every atom) says
 * per chain which atoms' rows may hold a nonzero (bsl_trace.seen): the
 * others are not read. BASEL_ENOMEM. */
int bsl_trace_diagnostics(const double *const *traces, const unsigned char *const *seen, size_t chains, size_t L,
                          size_t m, double *rhat_pip, double *ess_pip, double *ess_tail_pip, bsl_conv *size);
/* Snapshots of one chain's m indicators and its size for R-hat / ESS:
 * L = min(iter, max_len) snapshots, one every step = iter / L post-burn
 * iterations (the first L such), in the layout of bsl_trace_diagnostics
 * (indicator j at x[j * L + s], the size at x[m * L + s]). A
 * continuous-time sampler instead adds time-weighted states into each
 * snapshot (bsl_trace_add) and ends with bsl_trace_finish: snapshot s is
 * then the time average of the indicators and the size over its step
 * iterations. */
typedef struct bsl_trace {
    size_t m, L, step;
    double *x;            /* (m + 1) x max(L, 1), zeroed */
    double *w;            /* max(L, 1): time added into each snapshot (bsl_trace_add) */
    unsigned char *seen;  /* m: 0 while atom j's row of x is all zeros (never recorded) */
} bsl_trace;
/* BASEL_ENOMEM; bsl_trace_free accepts a zeroed or freed trace. */
int bsl_trace_init(bsl_trace *t, size_t m, size_t iter, size_t max_len);
void bsl_trace_free(bsl_trace *t);
/* At post-burn iteration it, record the subset active[0..k) if a snapshot
 * is due. t may be NULL (no trace asked); active may be NULL when m is 0
 * (a trace of the size alone). */
void bsl_trace_record(bsl_trace *t, size_t it, const size_t *active, size_t k);
/* At post-burn iteration it, add the subset active[0..k) with weight (the
 * time spent in it) into its snapshot; t may be NULL. */
void bsl_trace_add(bsl_trace *t, size_t it, const size_t *active, size_t k, double weight);
/* Divide each snapshot filled by bsl_trace_add by the time added into it
 * (idempotent: the snapshot's time is then 1). */
void bsl_trace_finish(bsl_trace *t);
/* Keep the first len <= L snapshots (an interrupted run's), in the same
 * layout with L = len. */
void bsl_trace_truncate(bsl_trace *t, size_t len);

/* The warning rule (docs/FIT.md "Diagnostics"): a run warns when
 *  - a single chain stayed on one model in all its recorded draws (every
 *    quantity constant: R-hat and ESS undefined), or a chain has fewer
 *    than 4 recorded draws;
 *  - the R-hat of the size or of a PIP inside [BSL_CONV_PIP_LO,
 *    1 - BSL_CONV_PIP_LO] exceeds BSL_RHAT_MAX (+inf included);
 *  - the bulk or tail ESS of one of those falls below BSL_ESS_MIN;
 *  - the chains together accepted fewer than BSL_MOVE_ACCEPT_MIN of the
 *    moves that change the model (the engine says which those are:
 *    bsl_conv_check's moves_proposed and moves_accepted).
 * NaN entries (a quantity constant over every draw) are skipped, so
 * several chains that all stay on one model agree on the R-hat rule; the
 * acceptance rule is what tells chains stuck alike from chains that mix
 * (issue 30 item 5: four mixture chains on one model, add accepted 1.6 %,
 * passed as converged). */
#define BSL_RHAT_MAX 1.01
#define BSL_ESS_MIN 400.0
#define BSL_CONV_PIP_LO 0.01
#define BSL_MOVE_ACCEPT_MIN 0.02
#define BSL_CONV_MAX_WARNINGS 3
#define BSL_CONV_WARNING_LEN 320
typedef struct bsl_conv_check {
    size_t m;                      /* indicators (0: none, e.g. rbf) */
    const double *pip;             /* m pooled PIPs */
    const double *rhat_pip, *ess_pip, *ess_tail_pip; /* m each, or NULL */
    const char *const *names;      /* m names, or NULL ("atom j") */
    bsl_conv size;
    size_t chains, draws;          /* recorded draws per chain */
    const char *what;              /* what never changed: "model" (NULL), "number of RBFs" */
    const char *size_name;         /* "the model size" (NULL), "the number of RBFs" */
    /* the moves that change the model (births, deaths, adds, drops, swaps,
     * exchanges), proposed and accepted over all chains; moves_proposed 0:
     * the engine has none, and the acceptance rule is not checked */
    double moves_proposed, moves_accepted;
} bsl_conv_check;
/* Write the warnings of the rule into w (each ending with advice, e.g.
 * "run longer (--iter) or with more chains (--chains)"); returns their
 * number (0 to BSL_CONV_MAX_WARNINGS). */
size_t bsl_conv_warnings(const bsl_conv_check *c, const char *advice,
                         char w[][BSL_CONV_WARNING_LEN]);

#endif
