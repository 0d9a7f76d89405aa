/*
 * smc.h: sequential Monte Carlo kernel regression, the "sequential RVM" of
 * paper 003 (Algorithm 1), as a particle system that is fed one data point
 * at a time, predicts at any time, and is saved and resumed exactly.
 *
 * Model (paper 003 eqs. 1-2): y_t = beta_0 + sum_j beta_j K(x_t, mu_j) + e_t,
 * e_t ~ N(0, sigma2), K(x, c) = exp(-|x - c|^2 / (2 r^2)) (basel's form;
 * the paper's "width 1.6" in exp(-d^2/w^2) is r = 1.6 / sqrt(2) = 1.131).
 * Prior: beta ~ N(0, sigma_beta2 I_{k+1}) (the intercept included, as in the
 * paper), sigma2 ~ IG(a_sigma, b_sigma), sigma_beta2 ~ IG(a_beta, b_beta)
 * (a = b = 0 is Jeffreys' prior, the paper's choice), k ~ Poisson(lambda)
 * truncated to {0..kmax}, and given k the centres are a uniform k-subset of
 * the candidate points seen so far.
 *
 * Candidates. The paper places centres on every data point seen. Births at
 * an old point need its kernel column's inner products with the active
 * columns over all data, so the system keeps a shared cache of
 * G[c, c'] = sum_s K(x_s, c) K(x_s, c') over the candidates (O(M^2) memory,
 * M^2 / 2 multiply-adds per point, applied 64 points at a time column by
 * column, or to one column when a particle reads it: smc.c cache_add;
 * memory does not grow with the points). The first M = o.candidates points are candidates; with
 * M >= n this is exactly the paper's model, and beyond M the prior on
 * centres is uniform over those M points (a bounded-memory model for long
 * streams; it is a different prior, and the fit records M).
 *
 * Each particle's collapsed state is a model of the model table (model.h:
 * the Gaussian model under the ridge prior, tau = rho = sigma2 /
 * sigma_beta2) over a shared plain design that grows by one row per point,
 * its atoms (the intercept and the kernels at the candidates) supplied as
 * cross products from the cache (bsl_atom_source). The model keeps the
 * factor of M_S = K_S'K_S + rho I and z = L^{-1} K_S'Y, updated by a rank-one
 * Givens update when a point arrives (bsl_model_add_row) and by append /
 * remove when a kernel is born or dies: O(k^2) per step. The O(k^3) work is
 * a refactorisation when the Gibbs draw of eq. (5) changes rho (every
 * nuisance_every steps; never when the variances are fixed) and a
 * drift-bounding refactorisation every 256 updates.
 *
 * Importance weights: smc_moves.c derives eq. (8) for these priors with two
 * backward kernels: the paper's reverse moves (kernel PAPER, Algorithm 1 as
 * printed) and the reversal of a Metropolis-Hastings version of the same
 * moves (kernel MOVE, the default), whose weight is the one-step predictive
 * density; the enumeration test (tests/stat/test_smc_exact.c) checks both
 * and shows why MOVE is the default.
 *
 * Randomness: every particle draws from its own generator, reseeded at each
 * step from (seed, step, particle index) by splitmix64; resampling draws
 * from a generator seeded from (seed, step). Results therefore do not
 * depend on the thread count, and a saved system needs no generator state:
 * (seed, t) is enough to resume exactly.
 *
 * Thread-safety: a bsl_smc belongs to one thread at a time (it uses OpenMP
 * internally); const calls may run concurrently.
 */
#ifndef BSL_SMC_H
#define BSL_SMC_H

#include "../../core/core.h"

#include <jansson.h>

typedef enum bsl_smc_resample {
    BSL_SMC_MULTINOMIAL = 0,
    BSL_SMC_SYSTEMATIC = 1,
    BSL_SMC_STRATIFIED = 2,
    BSL_SMC_RESIDUAL = 3
} bsl_smc_resample_scheme;

/* How eq. (8)'s weights are formed (smc_moves.c has both derivations). */
typedef enum bsl_smc_kernel_kind {
    BSL_SMC_KERNEL_MOVE = 0,  /* resample-move: the section 3.2 moves accepted by
                                 Metropolis-Hastings, backward kernel = their reversal;
                                 weight = one-step predictive (the default) */
    BSL_SMC_KERNEL_PAPER = 1  /* Algorithm 1 as printed: moves always taken, weight
                                 with the reverse move as backward kernel */
} bsl_smc_kernel_kind;

#define BSL_SMC_RESAMPLE_NAMES "multinomial, systematic, stratified, residual"

typedef struct bsl_smc_options {
    size_t particles;      /* N; default 250 (paper 003 section 4.1) */
    double width;          /* r in exp(-|x-c|^2/(2 r^2)); default 1.131 (paper's 1.6) */
    size_t kmax;           /* truncation of the Poisson prior; default 50 */
    double poisson_mean;   /* lambda; default 1 (paper's sinc setting) */
    double c_move;         /* fraction of dimension moves c, (0, 0.5]; default 0.25 */
    int resample_scheme;   /* bsl_smc_resample; default stratified */
    double ess_threshold;  /* resample when ESS < thr * N; thr >= 1: every step
                              (the paper); 0: never. Default 1 */
    unsigned long seed;    /* default 1 */
    double a_sigma, b_sigma; /* IG prior on sigma2; default 0, 0 (Jeffreys) */
    double a_beta, b_beta;   /* IG prior on sigma_beta2; default 0, 0 */
    int sample_nuisance;   /* 1: draw sigma2, sigma_beta2 by eq. (5) (the paper);
                              0: keep them fixed at sigma2, sigma_beta2. Default 1 */
    double sigma2;         /* fixed value, or initial value when the prior is
                              improper (otherwise drawn from it); default 1 */
    double sigma_beta2;    /* the same for sigma_beta2; default 1 */
    size_t nuisance_every; /* draw the variances every this many steps; default 1 */
    size_t candidates;     /* M: the first M points are candidate centres; default 2000 */
    int threads;           /* OpenMP threads; 0 = the OpenMP default */
    int kernel;            /* bsl_smc_kernel_kind; default BSL_SMC_KERNEL_MOVE */
    size_t moves_per_step; /* MH moves per particle per point (kernel MOVE); default 1 */
} bsl_smc_options;

void bsl_smc_options_default(bsl_smc_options *o);
/* BASEL_OK, or BASEL_EINVAL naming the first bad option. */
int bsl_smc_options_check(const bsl_smc_options *o, basel_error *err);
const char *bsl_smc_resample_name(int scheme);
/* -1 if unknown */
int bsl_smc_resample_from_name(const char *name);

typedef struct bsl_smc bsl_smc;

/* An empty system (t = 0) for d-dimensional inputs. Copies o.
 * Errors: BASEL_EINVAL (bad options, d == 0), BASEL_ENOMEM. */
int bsl_smc_create(bsl_smc **out, size_t d, const bsl_smc_options *o, basel_error *err);
void bsl_smc_free(bsl_smc *s);

/* One step of Algorithm 1 for the point (x, y): resample (if the ESS of the
 * current weights is below the threshold), add the point to every
 * particle's factor, propose a zero / birth / death move, weight by eq. (8),
 * draw beta, sigma2, sigma_beta2 (eqs. 4-5). Weighted particles remain
 * (the paper's MMSE estimate uses the weights before resampling).
 * Errors: BASEL_EINVAL (x or y not finite; the system is unchanged),
 * BASEL_ENUMERIC (every weight vanished). No allocation. */
int bsl_smc_feed(bsl_smc *s, const double *x, double y, basel_error *err);
/* n points, X n x d column-major with leading dimension ldx; stops at the
 * first failure (the points before it are in). */
int bsl_smc_feed_batch(bsl_smc *s, const double *X, size_t n, size_t ldx, const double *y,
                       basel_error *err);

/* Model-averaged predictive distribution of y at n points (X n x d,
 * column-major): each particle gives N(k(x)'E[beta], sigma2 (1 + k(x)'
 * M_S^{-1} k(x))) given its centres and variances; mean is the weighted
 * mixture mean, lower/upper the (1 -+ level)/2 mixture quantiles (either may
 * be NULL); sd and sdf (or NULL) the mixture's exact sd for a new y and
 * for the regression function alone (law of total variance over the
 * particles; basel_pred_sd). Errors: BASEL_EINVAL (level not in (0,1)),
 * BASEL_ENOMEM. */
int bsl_smc_predict(const bsl_smc *s, const double *X, size_t n, double level, double *mean,
                    double *lower, double *upper, double *sd_new, double *sd_f);
/* The paper's MMSE estimate sum_i W_i K_i(x) beta_i with the drawn beta of
 * eq. (4) (noisier than the Rao-Blackwellised mean of bsl_smc_predict). */
int bsl_smc_mmse(const bsl_smc *s, const double *X, size_t n, double *out);

/* Accessors (weights are the current normalised importance weights). */
size_t bsl_smc_points(const bsl_smc *s);      /* t */
size_t bsl_smc_dim(const bsl_smc *s);         /* d */
size_t bsl_smc_particles(const bsl_smc *s);   /* N */
const bsl_smc_options *bsl_smc_get_options(const bsl_smc *s);
/* prob[k] for k = 0..kmax (kmax + 1 entries). */
void bsl_smc_k_posterior(const bsl_smc *s, double *prob);
double bsl_smc_mean_k(const bsl_smc *s);
double bsl_smc_sigma2_mean(const bsl_smc *s);  /* E[sigma2] */
double bsl_smc_sigma_mean(const bsl_smc *s);   /* E[sigma], the paper's "noise estimate" */
double bsl_smc_ess(const bsl_smc *s);          /* 1 / sum W_i^2 */
size_t bsl_smc_resample_count(const bsl_smc *s);
/* Degeneracy: the smallest ESS of the weights at a resampling decision,
 * before resampling (+inf before the first; *step, if not NULL, the point
 * (1-based) where it was), and the distinct ancestors the last resampling
 * kept (0 before the first). */
double bsl_smc_ess_min(const bsl_smc *s, size_t *step);
size_t bsl_smc_unique_ancestors(const bsl_smc *s);
/* Candidate centres so far (m x d row-major; valid until the next feed). */
const double *bsl_smc_candidates(const bsl_smc *s, size_t *m);
/* Posterior inclusion probability of every candidate (m entries). */
void bsl_smc_pip(const bsl_smc *s, double *pip);
/* Particle i: its k, centres (candidate indices = arrival order, 0-based;
 * valid until the next feed), normalised weight, sigma2, sigma_beta2. */
size_t bsl_smc_particle(const bsl_smc *s, size_t i, const size_t **centres, double *weight,
                        double *sigma2, double *sigma_beta2);

/* The whole particle system as JSON: options, the candidate cache, every
 * particle's factor, weights and draws; enough to predict and to resume
 * feeding with results identical to an uninterrupted run. Doubles are
 * written by jansson with 17 significant digits, so they round-trip.
 * NULL on allocation failure. Caller json_decref's it. */
json_t *bsl_smc_to_json(const bsl_smc *s);
/* Rebuild from bsl_smc_to_json's output. Validates types, sizes, ranges and
 * finiteness; malformed input is BASEL_EPARSE with a message naming the
 * field, never a crash. threads may differ from the saved value (set it
 * afterwards with bsl_smc_set_threads). frozen: the system will only be
 * read (predictions, checks), never fed: each particle's model then holds
 * its own centres instead of room for kmax, and the resampling's second
 * set of particles is not made (a tenth of the memory and of the time to
 * load at kmax 50); bsl_smc_step and the like must not be called on it. */
int bsl_smc_from_json(bsl_smc **out, const json_t *j, int frozen, basel_error *err);
/* engine.h's centres for a checked document: the atoms are the points seen
 * (engine.cache.x, m x d, row by row), each a candidate kernel centre. */
int bsl_smc_centres(const json_t *doc, double **out, size_t *count);
void bsl_smc_set_threads(bsl_smc *s, int threads);

#endif
