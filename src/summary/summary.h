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
/* Add weight to the subset atoms[0..k) (need not be sorted; a sorted copy is
 * stored). log_post may be NaN. Returns 0, or -1 on ENOMEM. */
int bsl_modelset_add(bsl_modelset *s, const size_t *atoms, size_t k, double weight,
                     double log_post);
/* Merge b into a (weights add). */
int bsl_modelset_merge(bsl_modelset *a, const bsl_modelset *b);
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
    double *rhat_pip, *ess_pip; /* m each, NULL when not computed */
    double rhat_size, ess_size;
    double sigma2_mean, lambda_mean; /* ridge with sampled nuisance: posterior means */
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
    char engine_note[256];/* e.g. "events=..., acceptance=..." */
} bsl_vs_result;

int bsl_vs_result_init(bsl_vs_result *r, size_t m, size_t c, size_t kmax, size_t chains);
void bsl_vs_result_free(bsl_vs_result *r);
/* Append one draw (atoms need not be sorted). BASEL_ENOMEM; BASEL_EIO when
 * streamed and the temporary file cannot be written. */
int bsl_vs_add_draw(bsl_vs_result *r, unsigned chain, const size_t *atoms, size_t k,
                    const double *scalars);
/* From now on r's draws go to a temporary file (tmpfile(3): in TMPDIR,
 * removed when closed or when the process ends), as the rows of the draws
 * CSV, instead of memory: memory no longer grows with the run. r must have
 * no draws yet. BASEL_EIO, BASEL_ENOMEM. */
int bsl_vs_spill_begin(bsl_vs_result *r);
/* Move src's draws, streamed or not, to the end of dst's streamed ones
 * (dst takes src's files). BASEL_EIO, BASEL_ENOMEM. */
int bsl_vs_spill_take(bsl_vs_result *dst, bsl_vs_result *src);
/* The rows of streamed draws, in order, to fp. BASEL_EIO. */
int bsl_vs_spill_copy(const bsl_vs_result *r, FILE *fp);
/* One draw as a row of the draws CSV (chain + 1, size, m 0/1 columns, the
 * scalars with 17 digits); row: m bytes of scratch. */
int bsl_vs_print_draw(FILE *fp, size_t m, unsigned chain, const size_t *atoms, size_t k,
                      const double *scalars, size_t nscalars, unsigned char *row);

/* Selected models (Barbieri & Berger; paper 004 Defs. 1.4-1.6). Each writes
 * the chosen atom indices (sorted) into out and returns their number. */
size_t bsl_select_median(const double *pip, size_t m, size_t *out);
size_t bsl_select_prevalence(const double *pip, size_t m, const double *size_prob, size_t kmax,
                             size_t *out);
/* k_opt = argmax_k size_prob (paper 004 eq. 11), ties to the smaller k. */
size_t bsl_kopt(const double *size_prob, size_t kmax);

/* Split R-hat and effective sample size of scalar traces: x holds chains
 * rows of len values each (Gelman et al., BDA3 ch. 11; ESS from the
 * initial-positive-sequence autocorrelation estimate across chains). */
void bsl_rhat_ess(const double *x, size_t chains, size_t len, double *rhat, double *ess);

/* R-hat and ESS of m indicators and of the size from per-chain traces:
 * traces[c] holds chain c's (m + 1) x L values, indicator j's trace at
 * traces[c] + j * L and the size's in the last row; results into
 * rhat_pip, ess_pip (m each), rhat_size and ess_size; NaN when L < 4.
 * BASEL_ENOMEM. */
int bsl_trace_diagnostics(const double *const *traces, size_t chains, size_t L, size_t m,
                          double *rhat_pip, double *ess_pip, double *rhat_size, double *ess_size);
/* Snapshots of one chain's m indicators and its size for R-hat / ESS:
 * L = min(iter, max_len) snapshots, one every step = iter / L post-burn
 * iterations (the first L such), in the layout of bsl_trace_diagnostics
 * (indicator j at x[j * L + s], the size at x[m * L + s]). */
typedef struct bsl_trace {
    size_t m, L, step;
    double *x;            /* (m + 1) x max(L, 1), zeroed */
} bsl_trace;
/* BASEL_ENOMEM; bsl_trace_free accepts a zeroed or freed trace. */
int bsl_trace_init(bsl_trace *t, size_t m, size_t iter, size_t max_len);
void bsl_trace_free(bsl_trace *t);
/* At post-burn iteration it, record the subset active[0..k) if a snapshot
 * is due. */
void bsl_trace_record(bsl_trace *t, size_t it, const size_t *active, size_t k);
/* The largest split R-hat that says chains disagree: over the size and
 * the PIPs strictly inside (0.01, 0.99) (PIPs near 0 or 1 have R-hats that
 * mean little), NaN entries skipped; 1 when there is none. rhat_pip may be
 * NULL. */
double bsl_rhat_worst(const double *rhat_pip, const double *pip, size_t m, double rhat_size);
/* When worst > 1.1 (BDA3's threshold), writes "the chains disagree about the
 * <what> (R-hat up to <worst>): <advice>" into buf and returns 1; else
 * returns 0 and leaves buf alone. */
int bsl_rhat_warning(char *buf, size_t len, double worst, const char *what, const char *advice);

#endif
