/*
 * model.h: collapsed Gaussian linear models over an active set of atoms,
 * behind one incremental interface (DESIGN.md "Model").
 *
 * Every prior here makes the marginal likelihood of an active set A (k atoms,
 * coefficients integrated out) a function of three quantities of the
 * k x k matrix  A_tau = B_A' B_A + tau I  (B_A = projected atom columns):
 *     logdet = log |A_tau|,   quad_o = b_o' A_tau^{-1} b_o  (b_o = B_A' y_o),
 * and of yy_o = y_o' P y_o, per output o. The priors:
 *   g      Zellner g-prior, Jeffreys sigma^2, intercept flat; tau = 0; BAS's
 *          log p = ((N-k)/2) log(1+g) - (N/2) log(1 + g (1 - R^2)),
 *          R^2 = quad/yy, N = n - q (n - 1 with the intercept only);
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
#include "design.h"

#define BSL_REFACTOR_EVERY 256
/* The explicit inverse drifts faster than the factor (a downdate
 * B - b b'/B_pp amplifies its rounding errors by the removed atom's variance
 * inflation): before drop-one scores are read it is rebuilt from the factor
 * if more than this many updates have touched it, an amortised O(k^3 / 8)
 * per update (measured: without it, drop scores of near-collinear kernel
 * sets drifted by up to 1e-2 on the log scale within 256 updates) */
#define BSL_INV_REFRESH_EVERY 8
/* bytes of the per-model column cache of a streaming design */
#define BSL_COLUMN_CACHE_BYTES ((size_t)16 << 20)
/* relative Schur complement below which an atom is collinear with the
 * active set (s / d <= this, i.e. R^2 of the atom on the active atoms above
 * 1 - 1e-6). Each accepted atom then raises the condition number of A by at
 * most ~1e6, which keeps the O(k^2) updates of the factor and of the
 * explicit inverse accurate (an atom that close to the span adds nothing a
 * posterior can see: its marginal-likelihood gain is below the rounding
 * error it brings). */
#define BSL_RANK_TOL 1e-6

typedef enum bsl_coef_kind {
    BSL_COEF_G = 0,
    BSL_COEF_RIDGE = 1,
    BSL_COEF_HIER = 2,
    BSL_COEF_AIC = 3,
    BSL_COEF_BIC = 4,
    BSL_COEF_MDL = 5
} bsl_coef_kind;

typedef struct bsl_coef_prior {
    bsl_coef_kind kind;
    double g;             /* g */
    double sigma2;        /* ridge: noise variance (current value when sampled) */
    double lambda;        /* ridge: coefficient precision (current value when sampled) */
    int sample_nuisance;  /* ridge: 1 = sigma2 and lambda get Gibbs updates */
    double a, b;          /* ridge: Gamma(a, b) on 1/sigma2; hier: IG(a, b) on sigma2 */
    double c, d;          /* ridge: Gamma(c, d) on lambda (paper 004 eq. 16) */
    double delta2;        /* hier */
    double penalty;       /* aic/bic/mdl: C per atom (c or c log(n)/2) */
} bsl_coef_prior;

#define BSL_PRIOR_NAMES "g, ridge, hier, aic, bic, mdl"

/* Parse --prior for n rows, c outputs, q always-in columns. "" means the
 * default, g:g=n. */
int bsl_coef_prior_parse(bsl_coef_prior *p, const char *spec, size_t n, size_t c,
                         basel_error *err);
const char *bsl_coef_kind_name(bsl_coef_kind kind);
/* tau of A_tau for the prior's current settings. */
double bsl_coef_tau(const bsl_coef_prior *p);

/* The log marginal likelihood (or score) from the three quantities above.
 * Shared by the incremental path and the dense tests. */
double bsl_log_ml_formula(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k,
                          double logdet, const double *quad, const double *yy);

typedef struct bsl_model {
    const bsl_design *D;
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
    double log_ml;       /* of the current set */
    double logdet;
    double *quad;        /* c */
    size_t since_refactor;
    size_t since_inv_refresh; /* updates of Ainv since it was rebuilt from the factor */
    /* trial cache: the last atom scored by bsl_model_try_add */
    long trial_j;
    double trial_s, trial_log_ml;
    double *trial_v, *trial_g, *trial_u, *trial_col, *trial_quad;
    double *work;        /* kmax * (c + 2) scratch */
} bsl_model;

/* An empty model (k = 0) able to hold kmax atoms. */
int bsl_model_create(bsl_model **out, const bsl_design *D, const bsl_coef_prior *prior,
                     size_t kmax, basel_error *err);
void bsl_model_free(bsl_model *M);
/* Copy the state of src (same design and kmax) into dst. */
void bsl_model_copy(bsl_model *dst, const bsl_model *src);

/* Score of the active set with atom j added, without changing the model.
 * Returns -inf when j cannot be added (unusable, k == kmax, or collinear:
 * some atom of the new set would have R^2 > 1 - BSL_RANK_TOL on the others,
 * i.e. a variance inflation factor d_p (A^{-1})_pp above 1 / BSL_RANK_TOL;
 * a property of the set, not of the order of the adds, and inherited by
 * supersets, so enumeration and samplers agree on the feasible sets). */
double bsl_model_try_add(bsl_model *M, size_t j);
/* Add j (reusing the trial computation when j was the last tried).
 * BASEL_ENUMERIC if j is collinear with the active set (model unchanged). */
int bsl_model_add(bsl_model *M, size_t j);
/* Remove atom j (must be active). */
void bsl_model_remove(bsl_model *M, size_t j);
/* For every active position p, the score of the set without active[p]
 * (out has k entries). O(k^2 c) from the explicit inverse. */
void bsl_model_drop_scores(bsl_model *M, double *out);
/* Change tau (ridge: after a Gibbs update of sigma2 or lambda) and
 * refactorise. */
int bsl_model_set_prior(bsl_model *M, const bsl_coef_prior *prior);
/* Fresh factorisation from the Gram entries (bounds drift; O(k^3)). */
int bsl_model_refactor(bsl_model *M);
/* Posterior mean of the active coefficients, k x c row-major
 * (beta[i*c + o] for atom active[i], output o). */
void bsl_model_coef_mean(const bsl_model *M, double *beta);
/* Residual scale factor for predictive intervals: the posterior mean of
 * sigma^2 for output o under the model (ridge: the given sigma^2). */
double bsl_model_sigma2(const bsl_model *M, size_t o);

#endif
