/*
 * model.h: the model table, and collapsed Gaussian linear models over an
 * active set of atoms as its first implementation (DESIGN.md "Model",
 * "Model table").
 *
 * Engines see a model only through bsl_model_ops (bottom of this file): a
 * const table of functions plus opaque state, in the style of GSL's
 * gsl_rng_type. The Gaussian implementation (bsl_model below, the table
 * bsl_model_gauss) covers every coefficient prior of the table
 * bsl_coef_prior_types (prior/coef_prior.h), so a prior added there reaches
 * every engine that runs on the table.
 *
 * Every prior here makes the marginal likelihood of an active set A (k atoms,
 * coefficients integrated out) a function of three quantities of the
 * k x k matrix  A_tau = B_A' B_A + tau I  (B_A = projected atom columns):
 *     logdet = log |A_tau|,   quad_o = b_o' A_tau^{-1} b_o  (b_o = B_A' y_o),
 * and of yy_o = y_o' P y_o, per output o. The priors:
 *   g      Zellner g-prior, Jeffreys sigma^2, intercept flat; tau = 0; BAS's
 *          log p = ((N-k)/2) log(1+g) - (N/2) log(1 + g (1 - R^2)),
 *          R^2 = quad/yy, N = n - q (n - 1 with the intercept only); with
 *          g ~ IG(a, b) (g:a=..,b=..) g is a nuisance parameter of the
 *          state with Gibbs updates (model_ops.c); with sigma^2 ~ IG(a0,
 *          b0) instead of Jeffreys (a0, b0 > 0: papers 002, 003),
 *          log p = -(k/2) log(1+g) - (a0 + N/2) log(b0 + (yy - g/(1+g) quad)/2);
 *   ridge  beta ~ N(0, I/lambda), sigma^2 given (paper 004 eq. 14; eq. 30's
 *          covariance must read sigma^2 I + B B'/lambda): tau = sigma^2 lambda,
 *          log p = -(N/2) log(2 pi sigma^2) - (logdet - k log tau)/2
 *                  - (yy - quad) / (2 sigma^2);
 *   hier   beta ~ N(0, sigma^2 delta^2 I), sigma^2 ~ IG(a, b) integrated
 *          (papers 002, 003): tau = 1/delta^2,
 *          log p = -(N/2) log(2 pi) - (logdet - k log tau)/2 + log G(a + N/2)
 *                  - log G(a) + a log b - (a + N/2) log(b + (yy - quad)/2);
 *   aic/bic/mdl  flat prior calibrated by a penalty (paper 002 eqs. 2-4):
 *          score = -(n/2) sum_o log(yy_o - quad_o) - C k, tau = 0, with
 *          C = c (AIC) or c log(n)/2 (BIC, MDL) for c outputs.
 * Multiple outputs add up (independent noise per output).
 *
 * State: the Cholesky factor of A_tau, z = L^{-1} B_A'y (quad = |z|^2), and
 * the explicit inverse (for all k "drop one atom" scores at once), each
 * updated in O(k^2) per add/remove (linalg.h), refactorised every
 * BSL_REFACTOR_EVERY updates to bound drift. Adding an atom needs its cross
 * products with the active atoms: a lookup in the dense Gram matrix, or
 * O(n k) dot products with the active columns, which the model keeps when
 * the design streams.
 *
 * A model belongs to one thread; the design it reads is shared.
 */
#ifndef BSL_MODEL_H
#define BSL_MODEL_H

#include "../linalg/linalg.h"
#include "../prior/coef_prior.h"
#include "design.h"
#include "gram_rows.h"

#include <gsl/gsl_rng.h>
#include <stdint.h>

#define BSL_REFACTOR_EVERY 256
/* The explicit inverse drifts faster than the factor (a downdate
 * B - b b'/B_pp amplifies its rounding errors by the removed atom's variance
 * inflation): before drop-one scores are read it is rebuilt from the factor
 * if more than this many updates have touched it, an amortised O(k^3 / 8)
 * per update (measured: without it, drop scores of near-collinear kernel
 * sets drifted by up to 1e-2 on the log scale within 256 updates) */
#define BSL_INV_REFRESH_EVERY 8
/* since_inv_refresh of a model whose explicit inverse is stale (a source
 * with lazy_inverse: not rebuilt at refactorisations, not updated until
 * something reads it); exactly representable as a double (saved states) */
#define BSL_INV_STALE ((size_t)1 << 48)
/* bytes of the per-model column cache of a streaming design */
#define BSL_COLUMN_CACHE_BYTES ((size_t)16 << 20)
/* Relative Schur complement below which an atom is collinear with the
 * active set: s / d <= BSL_RANK_TOL, i.e. R^2 of the atom on the others
 * above 1 - BSL_RANK_TOL, a variance inflation factor (VIF) above
 * 1 / BSL_RANK_TOL. Such a set gets probability 0 in every engine alike
 * (model.h bsl_model_try_add; enumerate counts them). The limit is where
 * the scores stop being accurate, not a statement about the posterior:
 *
 *  - s = d - |L^{-1} g|^2 is computed with an absolute error of about
 *    k eps d (eps = DBL_EPSILON; the Gram entries carry a few eps d more),
 *    so s / d is known to a relative error of about k eps / (s / d): 1e-5
 *    at s / d = 1e-10, k = 30. Below ~k eps it is noise.
 *  - The factor is updated in O(k^2) and refactorised only every
 *    BSL_REFACTOR_EVERY updates. Its backward error grows with the updates
 *    and reaches the scores amplified by the VIF (quad = |z|^2 with
 *    z_k = (b - v'z) / sqrt(s)): the error of log_ml is about C eps VIF.
 *    Measured over 5000-20000 random adds and removes against a fresh
 *    factorisation (g-prior; stiff Gaussian kernels r = 2.5 on 80 points,
 *    and linear designs with near-duplicate pairs x' = x + e noise, k <= 30):
 *    max |error| 3e-7 at VIF 1e8, 1.4e-5 at 1e10, 1.4e-4 at 1e11, 5e-3 at
 *    1e13, so C is about 10.
 *  - The explicit inverse behind the drop-one scores is far more fragile
 *    (a downdate B - b b' / B_pp amplifies its error by the VIF of the atom
 *    removed, so drop scores erred by O(1) and more at VIF 1e10): it is
 *    only read while every active VIF is below BSL_INV_VIF and at most
 *    BSL_INV_REFRESH_EVERY updates old, else rebuilt from the factor first
 *    (model.c inverse_for_reading), and then drop scores are as accurate as
 *    the factor (measured: within 1.3e-5 of a refactorised copy).
 *
 * With C eps VIF <= 2.2e-5 on the log scale (a relative error of 2e-5 in a
 * posterior ratio, far below any Monte Carlo error) VIF <= 1e10, so the
 * limit is 1e-10. Near-duplicate inputs x2 = x1 + 1e-4 noise (s / d ~
 * 1e-8) are then inside it and every engine, enumerate included, gives
 * {x1, x2} its posterior probability; the earlier 1e-6 silently gave it 0. */
#define BSL_RANK_TOL 1e-10
/* Largest variance inflation factor of an active atom at which the explicit
 * inverse may be read after O(k^2) updates (at most BSL_INV_REFRESH_EVERY of
 * them). Measured on test_model's stiff kernels (r = 2.5, g-prior) with the
 * limit at 1e-10: with 1e6 here (the old collinearity limit) drop-one
 * scores still erred by up to 3e-3 against a fresh factorisation; with 1e4
 * by 1.3e-5, the factor's own accuracy. Sets beyond it rebuild the inverse
 * from the factor (O(k^3 / 3)) before drop scores or a collinearity check
 * read it, and so does removing an atom beyond it (its downdate amplifies
 * the inverse's error by that atom's inflation); well-conditioned sets, the
 * common case, never pay. */
#define BSL_INV_VIF 1e4

/* Parse "ssvs[:key=value,...]"; unknown keys are errors listing the keys. */
int bsl_ssvs_parse(bsl_ssvs_prior *sp, const char *spec, basel_error *err);
/* Spike variances v0 (m) for the design: tau times the full least-squares
 * fit's standard errors (George and McCulloch's advice; ssvs_model.c),
 * or tau2. *from_ols (may be NULL) says whether the full fit was used or
 * the marginal fallback. BASEL_ENOMEM. */
int bsl_ssvs_spike(const bsl_ssvs_prior *sp, const bsl_design *D, double *v0, int *from_ols);
/* The atoms whose one-at-a-time least-squares estimate the data support
 * (|t| > 4) but the spike of sd sqrt(v0_j) covers (ssvs_model.c says why):
 * their indices into hidden, each one's most correlated other atom into
 * partner (m when there is none or no dense Gram matrix) and that |r|
 * into r (NaN then); hidden, partner, r hold m each. Returns their number. */
size_t bsl_ssvs_hidden(const bsl_ssvs_prior *sp, const bsl_design *D, const double *v0, size_t *hidden,
                       size_t *partner, double *r);

/* The spike-and-slab prior (type bsl_coef_ssvs) from "ssvs[:key=value,...]":
 * the table entry bsl_model_ssvs. Not one of --prior's names (yet): the
 * ssvs engine reads its own --prior. */
int bsl_coef_prior_ssvs(bsl_coef_prior *p, const char *spec, basel_error *err);

/* Atoms supplied by the caller (free RBF centres, streamed kernels are not
 * dictionary atoms): atoms are the caller's ids 0..m-1, given either
 *  - by column: column(ctx, id, out) writes the RAW column of atom id at
 *    the design's n training points; the model projects it like the
 *    design's own atoms (always-in columns integrated out) and computes its
 *    cross products on first use. The model keeps no cache by id, so the
 *    caller may give an id a new column whenever the id is not active; or
 *  - by cross products (column == NULL): gram(ctx, i, j) = b_i'b_j and
 *    bty(ctx, j, o) = b_j'y_o over the rows so far, on a plain design (q =
 *    0) that grows by rows (bsl_design_add_row, then bsl_model's add_row on
 *    every model: the sequential kernel regression of paper 003). */
typedef struct bsl_atom_source {
    size_t m;
    void (*column)(void *ctx, size_t id, double *out);
    double (*gram)(void *ctx, size_t i, size_t j);
    double (*bty)(void *ctx, size_t j, size_t o);
    void *ctx;
    /* collinearity tolerance (BSL_RANK_TOL's role; 0 = BSL_RANK_TOL): smooth
     * radial columns need a looser one (rbf_chain.c) */
    double rank_tol;
    /* 1: the caller seldom reads drop-one scores or the covariance, so the
     * explicit inverse is not rebuilt when the model refactorises (a new
     * tau each step, smc) but only when something reads it: collinearity
     * checks with tau > 0 rarely need it (bsl_model_try_add) */
    int lazy_inverse;
} bsl_atom_source;

typedef struct bsl_model {
    const bsl_design *D;
    bsl_atom_source src;  /* src.column or src.gram != NULL: atoms come from the caller */
    double rank_tol;      /* BSL_RANK_TOL, or the source's */
    double trial_diag;    /* source mode: b_j'P b_j of the last atom tried, */
    int trial_usable;     /* whether it is usable, */
    double *trial_bty;    /* c: and b_j'P y */
    bsl_coef_prior prior;
    size_t m, c, k, kmax;
    double tau;
    size_t *active;      /* k atom indices, in factor order */
    long *pos;           /* m: position in active, -1 if dormant */
    bsl_chol chol;       /* factor of A_tau */
    double *Ainv;        /* kmax x kmax, column-major */
    double *bA;          /* kmax x c rows of Bty for the active atoms */
    double *GA;          /* kmax x kmax Gram block of the active atoms (no tau),
                            column-major: refactorising costs O(k^3), never
                            O(n k^2), when tau changes every block */
    double *z;           /* kmax x c, L^{-1} bA */
    double *cols;        /* streaming only: n x kmax active projected columns */
    /* streaming only: a direct-mapped cache of projected columns by atom
     * (slot j % ncache), filled on first use, so that atoms born again and
     * again (the good ones) cost O(nk) dot products, not a re-evaluation */
    size_t ncache;
    long *cache_atom;    /* ncache: atom held by each slot, -1 = empty */
    double *cache;       /* n x ncache */
    struct bsl_colstore *store; /* borrowed, or NULL: columns shared with other
                                   models, looked up first (bsl_model_use_columns) */
    double log_ml;       /* of the current set */
    double logdet;
    double *quad;        /* c */
    double *g_o;         /* c: g per output (all prior.g unless prior.g_per_output) */
    double *lg_o, *lg_of; /* c: log1p(g) of the g in lg_of (scores read it; score_of) */
    size_t since_refactor;
    size_t since_inv_refresh; /* updates of Ainv since it was rebuilt from the
                                 factor; BSL_INV_STALE: Ainv is stale */
    int trial_has_u;     /* whether trial_u = A^{-1} g was computed for the trial */
    /* trial cache: the last atom scored by bsl_model_try_add */
    long trial_j;
    double trial_s, trial_log_ml;
    double *trial_v, *trial_g, *trial_u, *trial_col, *trial_quad;
    /* the trial atom's column where it lives as long as the model: in a
     * design that keeps its columns (design.c) or the summaries' shared
     * store (colstore.c); bsl_model_add copies it from there instead of
     * cross() copying it into trial_col first; NULL: it is in trial_col */
    const double *trial_src;
    double *work;        /* kmax * (c + 2) scratch */
    double *rb_work;     /* add_scores: 2 k x block blocks and r for the screen (model.c block_of), grown on demand */
    size_t rb_cap;       /* doubles in rb_work */
    size_t *rb_atoms;    /* 2 m: add_scores' dormant atoms (NULL: atom by atom) */
    bsl_cand cand;       /* candidate_scores' list and rows (n = 0: none) */
    bsl_chol sw_chol;    /* try_swap: scratch copy of the factor, */
    double *sw_z, *sw_g; /* of z and of the cross products (allocated on first use) */
    size_t swaps_inv;    /* try_swap scores taken from the explicit inverse (a count for tests) */
    double *pair_work;   /* pair_scores: the dormant atoms' columns of L^{-1} G_{A,.} and their terms, */
    size_t pair_cap;     /* grown on demand (doubles), */
    long *pair_col;      /* 2 m: each atom's column there (-1: none), then each column's atom; made on first use */
    size_t *pair_vc;     /* m: each column's in the V it reads (its own, or add_scores') */
    /* add_scores' V = L^{-1} G_{A,J} for every dormant usable atom J
     * (rb_atoms, ascending), when it made it in one block of rb_work (rows
     * rb_ld apart, rb_nv columns) from the dense Gram: pair_scores reads
     * those columns instead of solving for them again while rb_epoch is
     * epoch, which every change of the factor (or of the set) moves on */
    unsigned long epoch, rb_epoch;
    size_t rb_ld, rb_nv;
} bsl_model;

/* An empty model (k = 0) able to hold kmax atoms. */
int bsl_model_create(bsl_model **out, const bsl_design *D, const bsl_coef_prior *prior,
                     size_t kmax, basel_error *err);
/* The same with the atoms' columns from src (m ids) instead of D's
 * dictionary; D gives the rows, the targets and the always-in columns. */
int bsl_model_create_source(bsl_model **out, const bsl_design *D, const bsl_atom_source *src,
                            const bsl_coef_prior *prior, size_t kmax, basel_error *err);
void bsl_model_free(bsl_model *M);

/* Projected columns of a streaming design kept for models that refit many
 * atom sets one after another (the subset engines' summaries, colstore.c):
 * uses[j] (m counts) says how many of those sets hold atom j; the most used
 * atoms (twice or more) that fit in budget bytes are admitted, and an
 * admitted column gets its own slot on first use and keeps it; for the
 * others bsl_colstore_get returns NULL. Nothing to keep (a dense or group
 * design): every get returns NULL. One thread at a time. */
typedef struct bsl_colstore {
    const bsl_design *D;
    size_t slots, used;
    long *slot_of;  /* m: slot of atom j, -1 = none yet, -2 = not admitted */
    double *cols;   /* n x slots */
    /* the cross products already computed, by atom pair and by how they
     * were summed (bsl_colstore_dot): the stored models share most of their
     * pairs, so a refit reads them instead of an n-long dot product each */
    uint64_t *pair_key; /* open addressing, 0 = empty */
    double *pair_val;
    size_t npair, pair_cap;
} bsl_colstore;
int bsl_colstore_init(bsl_colstore *cs, const bsl_design *D, const size_t *uses, size_t budget);
void bsl_colstore_free(bsl_colstore *cs);
const double *bsl_colstore_get(bsl_colstore *cs, size_t j);
/* The cross products remembered by atom pair {a, b} and by how they were
 * summed (seq: bsl_dots's running sum of a block of four; else bsl_dot):
 * find gives 1 and the value when it is there; put remembers one (silently
 * not, without the memory: the caller computes it again, the same bits). */
int bsl_colstore_pair_find(const bsl_colstore *cs, size_t a, size_t b, int seq, double *v);
void bsl_colstore_pair_put(bsl_colstore *cs, size_t a, size_t b, int seq, double v);
/* M (on cs's design) reads its streaming columns from cs first (NULL: its
 * own cache only). The same bits either way. */
void bsl_model_use_columns(bsl_model *M, bsl_colstore *cs);
/* Copy the state of src (same design and kmax) into dst. */
void bsl_model_copy(bsl_model *dst, const bsl_model *src);

/* Score of the active set with atom j added, without changing the model.
 * Returns -inf when j cannot be added (unusable, k == kmax, or collinear:
 * some atom of the new set would have R^2 > 1 - BSL_RANK_TOL on the others,
 * i.e. a variance inflation factor d_p (A^{-1})_pp above 1 / BSL_RANK_TOL,
 * where the scores could no longer be computed accurately (BSL_RANK_TOL);
 * a property of the set, not of the order of the adds, and inherited by
 * supersets, so enumeration and samplers agree on the feasible sets). */
double bsl_model_try_add(bsl_model *M, size_t j);
/* Add j (reusing the trial computation when j was the last tried).
 * BASEL_ENUMERIC if j is collinear with the active set (model unchanged). */
int bsl_model_add(bsl_model *M, size_t j);
/* try_add's score of every dormant atom j into out[j] (-inf: cannot
 * enter; active atoms: NAN), model unchanged; batched on a dense Gram or
 * the cached Gram rows. within: INFINITY, or screen as the table's
 * add_scores says (the g-prior with one output; the others score all). */
void bsl_model_add_scores(bsl_model *M, double *out, double within);
/* A fixed list of candidate atoms C (nC of them; 0: none) for
 * candidate_scores, which then scores them alone: out[c] for C[c], as
 * add_scores does, O(k^2 |C|) per call plus O(n |C|) per atom the first
 * time it is active (gram_rows.h bsl_cand). BASEL_EINVAL on a model whose
 * atoms come from a source, BASEL_ENOMEM. */
int bsl_model_set_candidates(bsl_model *M, const size_t *C, size_t nC);
void bsl_model_candidate_scores(bsl_model *M, double *out, double within);
/* Score of the set with the active atom i replaced by j, model unchanged
 * (-inf when j cannot enter the set without i; NAN when out of memory),
 * O(k^2): from the explicit inverse on well-conditioned sets when the
 * collinearity check reads it anyway (tau = 0), else on a scratch copy of
 * the factor (model.c); the two agree to rounding. The caller moves by
 * remove(i), add(j) on acceptance. */
double bsl_model_try_swap(bsl_model *M, size_t i, size_t j);
/* Remove atom j (must be active). */
void bsl_model_remove(bsl_model *M, size_t j);
/* Remove every atom (k = 0), O(k). */
void bsl_model_clear(bsl_model *M);
/* One more observation (models on a cross-product source only): row holds
 * the new row's value of every atom (indexed by id), y its c targets; the
 * caller has already grown the design (bsl_design_add_row) and its source's
 * cross products. A rank-one update of the factor (Givens), z, the inverse
 * and the Gram block of the active atoms: O(k^2). BASEL_EINVAL for other
 * models. */
int bsl_model_add_row(bsl_model *M, const double *row, const double *y);
/* For every active position p, the score of the set without active[p]
 * (out has k entries). O(k^2 c) from the explicit inverse. */
void bsl_model_drop_scores(bsl_model *M, double *out);
/* The Rao-Blackwell pass over pairs (rj.c): out[i] <- the score of the set
 * with both indicators of the pair (P[2i], P[2i + 1]) flipped, the model
 * unchanged, in O(k) a pair (plus O(k^2) per dormant atom met), from the
 * factor, z, the explicit inverse and the dense Gram:
 *   both dormant: a joins, then b: v_x = L^{-1} g_x, s_x = d_x - |v_x|^2,
 *     r_x = b_x - v_x'z; c = G_ab - v_a'v_b, s_b|a = s_b - c^2 / s_a,
 *     r_b|a = r_b - c r_a / s_a: quad + r_a^2 / s_a + r_b|a^2 / s_b|a and
 *     logdet + log s_a + log s_b|a;
 *   a active (position p), b dormant: b joins (B = A^{-1}, w = B g_b: the
 *     new inverse's B'_pp = B_pp + w_p^2 / s_b, beta'_p = beta_p - w_p r_b
 *     / s_b, beta = B b_A), then a leaves: quad + r_b^2 / s_b - beta'_p^2 /
 *     B'_pp, logdet + log s_b + log B'_pp (det A_{-p} = det A B_pp);
 *   both active: quad - beta_S' B_SS^{-1} beta_S, logdet + log det B_SS
 *     (S = {p, q}: Jacobi's complementary minor).
 * NAN for a pair whose answer it cannot vouch is the one the operations
 * one atom at a time give (try_add after add, try_swap, try_remove after
 * remove): a pivot within 1e-6 of its diagonal, a collinearity check not
 * surely passed (vif_bound), an inverse that has drifted; the caller takes
 * those one atom at a time. Right after bsl_model_add_scores on the same
 * set (rj's and bd's pass), the solves L^{-1} G_{A,x} are read from it
 * (the same bits; model.h rb_epoch). BASEL_EINVAL (nothing written) without
 * a dense Gram or for a model whose atoms come from a source; BASEL_ENOMEM. */
int bsl_model_pair_scores(bsl_model *M, const size_t *P, size_t np, double *out);
/* The score of the set without the active atom j (bsl_model_drop_scores'
 * entry for j, the same arithmetic), O(k c). */
double bsl_model_drop_score(bsl_model *M, size_t j);
/* Change tau (ridge: after a Gibbs update of sigma2 or lambda) and
 * refactorise. */
int bsl_model_set_prior(bsl_model *M, const bsl_coef_prior *prior);
/* Fresh factorisation from the Gram entries (bounds drift; O(k^3)). */
int bsl_model_refactor(bsl_model *M);
/* Posterior mean of the active coefficients, k x c row-major
 * (beta[i*c + o] for atom active[i], output o). */
void bsl_model_coef_mean(const bsl_model *M, double *beta);
/* A draw of the active coefficients given the nuisance parameters (ridge
 * only: N(A_tau^{-1} b, sigma^2 A_tau^{-1}), paper 003 eq. 4, paper 004
 * eq. 19): beta (k x c row-major) holds standard normals on entry (the
 * caller's stream) and the draw on return. O(k^2 c). BASEL_EINVAL for the
 * other priors (their sigma^2 is integrated out, not held). */
int bsl_model_coef_draw(const bsl_model *M, double *beta);
/* The state as bsl_model_state_size(M) doubles (factor, inverse, Gram
 * block, z, B'y, scores, the sampled prior values, update counters), and
 * back onto a model of the same design, source, prior kind and kmax with
 * the active atoms given (n: the length of in): a loaded model continues bit for bit (exact
 * checkpoints). Load checks ids, counters, variances and the factor's
 * diagonal (BASEL_EINVAL, model left empty); the numbers must be finite. */
size_t bsl_model_state_size(const bsl_model *M);
void bsl_model_state_save(const bsl_model *M, double *out);
int bsl_model_state_load(bsl_model *M, const size_t *active, size_t k, const double *in, size_t n);
/* The posterior mean's shrinkage for output o, E[g/(1+g) | y, A] (the
 * prior's shrink at the model's sufficient statistics). */
double bsl_model_shrink(const bsl_model *M, size_t o);
/* Residual scale factor for predictive intervals: the posterior mean of
 * sigma^2 for output o under the model (ridge: the given sigma^2). */
double bsl_model_sigma2(const bsl_model *M, size_t o);

/* ------------------------------------------------------------ the table
 *
 * A model is a state over the candidate atoms of a design with an "active
 * set" of k of them, and a log marginal likelihood (or score) of that set,
 * everything else (coefficients, noise, and where the model has them, other
 * nuisance parameters) integrated out or held as state. Engines move between
 * sets by add / remove / swap, score neighbours without moving (try_add,
 * try_swap, drop_scores), let the model draw its nuisance parameters, and
 * read posterior means for their summaries. Nothing in an engine touches a
 * factor or a column.
 *
 * Entries marked "may be NULL" are optional; the bsl_cmodel_* wrappers
 * supply the fallback. All others are required.
 */
typedef struct bsl_model_ops {
    const char *name;
    /* A model with the empty active set, able to hold kmax atoms. */
    int (*create)(void **st, const bsl_design *D, const bsl_coef_prior *prior, size_t kmax,
                  basel_error *err);
    void (*free)(void *st);
    /* dst (same design and kmax) becomes a copy of src. */
    void (*copy)(void *dst, const void *src);

    size_t (*k)(const void *st);
    /* the k active atoms, in the model's own order (positions below) */
    const size_t *(*active)(const void *st);
    /* position of atom j in active(), -1 when j is not active */
    long (*pos)(const void *st, size_t j);
    double (*log_ml)(const void *st);

    /* log_ml of the set with j added, model unchanged (its set, that is:
     * the state may cache the trial for add); -inf when j cannot enter */
    double (*try_add)(void *st, size_t j);
    /* BASEL_ENUMERIC (model unchanged) when j cannot enter */
    int (*add)(void *st, size_t j);
    void (*remove)(void *st, size_t j);
    /* may be NULL (= remove them one by one): the empty active set */
    void (*clear)(void *st);
    /* may be NULL (= remove(out), try_add(in), add(out)): log_ml of the set
     * with out replaced by in, the model's set unchanged (the fallback puts
     * out back last in active()); the caller moves by remove(out), add(in) */
    double (*try_swap)(void *st, size_t out, size_t in);
    /* for every active position p, log_ml of the set without active()[p] */
    void (*drop_scores)(void *st, double *out);
    /* log_ml of the set without the active atom j, model unchanged */
    double (*try_remove)(void *st, size_t j);
    /* may be NULL (= try_add atom by atom): out[j] = try_add(j) for every
     * dormant atom j, NAN for the active ones (Rao-Blackwell passes); with
     * a finite `within`, an atom whose score is surely more than `within`
     * below the best one's may come back -inf (informed proposals, where
     * its weight would be below exp(-within)) */
    void (*add_scores)(void *st, double *out, double within);
    /* may be NULL (no candidate sets: rj scores every atom): a fixed list
     * of candidate atoms, and add_scores over them alone, out[c] for C[c]
     * (bsl_model_set_candidates) */
    int (*set_candidates)(void *st, const size_t *C, size_t nC);
    void (*candidate_scores)(void *st, double *out, double within);
    /* may be NULL (rj's Rao-Blackwell pass then takes no pairs): out[i] =
     * log_ml of the set with both atoms of pair (P[2i], P[2i + 1])
     * flipped, the model unchanged, NAN where the caller must take it one
     * atom at a time (bsl_model_pair_scores); BASEL_EINVAL: no pairs */
    int (*pair_scores)(void *st, const size_t *P, size_t np, double *out);

    /* may be NULL (nothing to draw): one Gibbs update of the nuisance
     * parameters given the active set (ridge: sigma^2 and lambda) */
    int (*draw_nuisance)(void *st, gsl_rng *r);
    /* may be NULL (none): the number of sampled nuisance parameters, their
     * current values into vals and their names into names (each may be NULL;
     * *names comes back NULL when they are unnamed: one g per output) */
    size_t (*nuisance)(const void *st, double *vals, const char *const **names);
    /* may be NULL: set them (e.g. to a draw from their prior, Geweke tests) */
    int (*set_nuisance)(void *st, const double *vals);

    /* posterior mean of the active coefficients, k x c row-major */
    void (*coef_mean)(const void *st, double *beta);
    /* may be NULL (= coef_mean for the active atoms, 0 for the others):
     * posterior mean of every atom's coefficient, m x c row-major (the
     * spike-and-slab model's spike atoms have coefficients too) */
    void (*coef_all)(const void *st, double *beta);
    /* may be NULL: the posterior covariance of the active coefficients is
     * sigma2(o) * V, V k x k column-major (leading dimension k) */
    void (*coef_cov)(const void *st, double *V);
    /* posterior mean of sigma^2 for output o (predictive intervals) */
    double (*sigma2)(const void *st, size_t o);
    /* may be NULL: the sum of squares in sigma_o^2's posterior, y_o'P y_o
     * - s b_o'A^{-1}b_o (s = g/(1+g) for the g-prior, 1 for least squares) */
    double (*post_ss)(const void *st, size_t o);
    /* may be NULL: the packed lower Cholesky factor of the active atoms'
     * A_tau (k (k + 1) / 2, column-major), for predictive leverages */
    void (*gram_factor)(const void *st, double *Lpacked);

    /* may be NULL (= BASEL_EINVAL): a draw of the active coefficients given
     * the nuisance parameters held in the state (bsl_model_coef_draw):
     * beta, k x c, holds standard normals on entry */
    int (*coef_draw)(const void *st, double *beta);
    /* may be NULL (no checkpoints): the state as state_size() doubles, and
     * back given the active atoms (bsl_model_state_save / _load) */
    size_t (*state_size)(const void *st);
    void (*state_save)(const void *st, double *out);
    int (*state_load)(void *st, const size_t *active, size_t k, const double *in, size_t n);

    /* may be NULL (not streaming): add one observation, the row b of all m
     * atoms (by id) and its c targets y, to the state (bsl_model_add_row) */
    int (*add_row)(void *st, const double *b, const double *y);
    /* may be NULL: one line on how the scores were computed and how
     * accurate they are (an estimated marginal likelihood: its Monte Carlo
     * error), for the engine's note; "" when there is nothing to say */
    void (*describe)(const void *st, char *buf, size_t len);
    /* may be NULL: why a subset scored so far has no score at all, so that
     * the engine fails with that message instead of giving the subset
     * probability 0 (glm_exact.c under a g-type prior: a subset without an
     * MLE); NULL while all is well */
    const char *(*fault)(const void *st);
} bsl_model_ops;

/* The collapsed Gaussian models of this file: every bsl_coef_prior but ssvs. */
extern const bsl_model_ops bsl_model_gauss;
/* The spike-and-slab model (ssvs_model.c): prior type bsl_coef_ssvs. */
extern const bsl_model_ops bsl_model_ssvs;

/* Atoms that are blocks of columns, all in or all out (group.c): on a
 * group view of a design (bsl_design_group_view), over the Gaussian model
 * of its base's columns. No checkpoints, no coefficient covariance. */
extern const bsl_model_ops bsl_model_grouped;

/* The logistic regression models (glm.c, glm_exact.c; glm.h): given the
 * Polya-Gamma latent variables (samplers), and the exact marginal
 * likelihood by importance sampling (enumeration). */
extern const bsl_model_ops bsl_model_glm;
extern const bsl_model_ops bsl_model_glm_exact;

/* The implementation that holds a coefficient prior. */
const bsl_model_ops *bsl_model_ops_for(const bsl_coef_prior *prior);

/* A model handle: a table and its state. Owned by one thread. */
typedef struct bsl_cmodel {
    const bsl_model_ops *ops;
    void *st;
} bsl_cmodel;

/* *out = a new model of the table ops (NULL: bsl_model_ops_for(prior)). */
int bsl_cmodel_create(bsl_cmodel **out, const bsl_model_ops *ops, const bsl_design *D,
                      const bsl_coef_prior *prior, size_t kmax, basel_error *err);
/* *out = a Gaussian model (bsl_model_gauss) whose atoms come from src. */
int bsl_cmodel_create_source(bsl_cmodel **out, const bsl_design *D, const bsl_atom_source *src,
                             const bsl_coef_prior *prior, size_t kmax, basel_error *err);
void bsl_cmodel_free(bsl_cmodel *M); /* NULL-safe */
int bsl_cmodel_copy(bsl_cmodel *dst, const bsl_cmodel *src);

static inline size_t bsl_cmodel_k(const bsl_cmodel *M) { return M->ops->k(M->st); }
static inline const size_t *bsl_cmodel_active(const bsl_cmodel *M) { return M->ops->active(M->st); }
static inline long bsl_cmodel_pos(const bsl_cmodel *M, size_t j) { return M->ops->pos(M->st, j); }
static inline int bsl_cmodel_is_active(const bsl_cmodel *M, size_t j) { return M->ops->pos(M->st, j) >= 0; }
static inline double bsl_cmodel_log_ml(const bsl_cmodel *M) { return M->ops->log_ml(M->st); }
static inline double bsl_cmodel_try_add(bsl_cmodel *M, size_t j) { return M->ops->try_add(M->st, j); }
static inline int bsl_cmodel_add(bsl_cmodel *M, size_t j) { return M->ops->add(M->st, j); }
static inline void bsl_cmodel_remove(bsl_cmodel *M, size_t j) { M->ops->remove(M->st, j); }
void bsl_cmodel_clear(bsl_cmodel *M);
double bsl_cmodel_try_swap(bsl_cmodel *M, size_t out, size_t in);
static inline void bsl_cmodel_drop_scores(bsl_cmodel *M, double *out) { M->ops->drop_scores(M->st, out); }
static inline double bsl_cmodel_try_remove(bsl_cmodel *M, size_t j) { return M->ops->try_remove(M->st, j); }
static inline int bsl_cmodel_pair_scores(bsl_cmodel *M, const size_t *P, size_t np, double *out)
{
    return M->ops->pair_scores ? M->ops->pair_scores(M->st, P, np, out) : BASEL_EINVAL;
}
/* out[j] = try_add(j) for every dormant atom j of the m, NAN for active ones */
void bsl_cmodel_add_scores(bsl_cmodel *M, size_t m, double *out);
/* the same, but atoms more than `within` below the best may be -inf */
void bsl_cmodel_add_scores_within(bsl_cmodel *M, size_t m, double *out, double within);
/* whether the model takes a candidate list; set it (nC = 0: none); score
 * its atoms alone, out[c] for C[c] (as add_scores_within) */
static inline int bsl_cmodel_has_candidates(const bsl_cmodel *M) { return M->ops->candidate_scores != NULL; }
int bsl_cmodel_set_candidates(bsl_cmodel *M, const size_t *C, size_t nC);
static inline void bsl_cmodel_candidate_scores(bsl_cmodel *M, double *out, double within)
{
    M->ops->candidate_scores(M->st, out, within);
}
int bsl_cmodel_draw_nuisance(bsl_cmodel *M, gsl_rng *r);
size_t bsl_cmodel_nuisance(const bsl_cmodel *M, double *vals, const char *const **names);
/* BASEL_EINVAL when the model has none to set */
int bsl_cmodel_set_nuisance(bsl_cmodel *M, const double *vals);
static inline void bsl_cmodel_coef_mean(const bsl_cmodel *M, double *beta) { M->ops->coef_mean(M->st, beta); }
/* every atom's coefficient, m x c; work holds (kmax + 1) x c doubles */
void bsl_cmodel_coef_all(const bsl_cmodel *M, size_t m, size_t c, double *beta, double *work);
/* BASEL_EINVAL when the model has no covariance */
int bsl_cmodel_coef_cov(const bsl_cmodel *M, double *V);
static inline double bsl_cmodel_sigma2(const bsl_cmodel *M, size_t o) { return M->ops->sigma2(M->st, o); }
/* NAN / BASEL_EINVAL when the model does not have them */
double bsl_cmodel_post_ss(const bsl_cmodel *M, size_t o);
int bsl_cmodel_gram_factor(const bsl_cmodel *M, double *Lpacked);
/* BASEL_EINVAL when the model has no such draw */
int bsl_cmodel_coef_draw(const bsl_cmodel *M, double *beta);
/* 0 / BASEL_EINVAL when the model cannot be saved */
size_t bsl_cmodel_state_size(const bsl_cmodel *M);
int bsl_cmodel_state_save(const bsl_cmodel *M, double *out);
int bsl_cmodel_state_load(bsl_cmodel *M, const size_t *active, size_t k, const double *in, size_t n);
/* the model's describe line into buf ("" when it has none) */
void bsl_cmodel_describe(const bsl_cmodel *M, char *buf, size_t len);
/* the model's fault (model.h bsl_model_ops fault), or NULL */
const char *bsl_cmodel_fault(const bsl_cmodel *M);
/* BASEL_EINVAL when the model does not stream */
int bsl_cmodel_add_row(bsl_cmodel *M, const double *b, const double *y);

#endif
