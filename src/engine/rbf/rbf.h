/*
 * rbf.h: RBF networks with free centres by reversible jump (paper 002,
 * Andrieu, de Freitas and Doucet): simulated annealing to the AIC / BIC /
 * MDL-calibrated MAP ("anneal") and the full-Bayes sampler of their
 * Neural Computation (2001) paper ("rj"). Internal to libbasel; the CLI and
 * FIT.json are wired by the lead.
 *
 * Model (paper 002 §2): y_o = D(mu, x) alpha_o + n_o, o = 1..c, with
 *   D = [1, x (if linear_term), phi(|x - mu_1|), ..., phi(|x - mu_k|)],
 * q = 1 + d * linear_term always-in columns and k radial columns; the
 * coefficients alpha and the noise variances sigma_o^2 are integrated out.
 *
 * Targets over (k, mu_{1:k}) (mu in the box Lambda = the data's bounding box
 * with each side scaled by box_enlarge about its midpoint, volume |Lambda|):
 *   anneal  log pi = score = -(n/2) sum_o log(y_o' P y_o) - C k   (eqs. 2-4),
 *           P the least-squares residual projector; the density of the
 *           ordered centres is exp(score) with respect to Lebesgue measure
 *           on Lambda^k, so that pi^(1/T) concentrates, as T -> 0, on the
 *           optimum of the criterion itself (see rbf_moves.c on the paper's
 *           1/(k+1) factor).
 *   rj      alpha_o | sigma_o^2, delta_o^2 ~ N(0, sigma_o^2 delta_o^2 (D'D)^-1),
 *           sigma_o^2 ~ IG(a0, b0) (a0 = b0 = 0: Jeffreys), delta_o^2 ~
 *           IG(a_delta, b_delta), k | Lambda ~ Poisson(Lambda) truncated to
 *           0..kmax, Lambda ~ Gamma(a_lambda, rate b_lambda), centres i.i.d.
 *           uniform on the box. Integrating alpha and sigma^2:
 *           log p(y | k, mu, delta^2) = sum_o [-(m/2) log(1 + delta_o^2)
 *               - (a0 + n/2) log(b0 + (y_o'y_o - delta_o^2/(1+delta_o^2)
 *                                      y_o'H y_o)/2)] + const,  m = q + k.
 *           delta^2 and Lambda are sampled (rbf_moves.c).
 *
 * Threading: a result is immutable after bsl_rbf_fit and may be shared; a
 * chain belongs to one thread. The library never prints or exits.
 */
#ifndef BSL_RBF_H
#define BSL_RBF_H

#include "../../basis/basis.h"
#include "../../core/core.h"
#include "../../linalg/linalg.h"
#include "../../prior/coef_prior.h"

#include <gsl/gsl_rng.h>
#include <jansson.h>

typedef enum bsl_rbf_mode { BSL_RBF_ANNEAL = 0, BSL_RBF_FULL = 1 } bsl_rbf_mode;
typedef enum bsl_rbf_schedule {
    BSL_RBF_LINEAR = 0,
    BSL_RBF_GEOMETRIC = 1,
    BSL_RBF_LOG = 2
} bsl_rbf_schedule;
/* move indices (acceptance counts, move_weights) */
enum { BSL_RBF_BIRTH = 0, BSL_RBF_DEATH, BSL_RBF_SPLIT, BSL_RBF_MERGE, BSL_RBF_UPDATE,
       BSL_RBF_NMOVES };

typedef struct bsl_rbf_options {
    int radial;            /* bsl_basis_kind: GAUSS, CUBIC, TPS, LINRBF */
    double width;          /* gauss width w in exp(-r^2/(2 w^2)) (the start when sampled) */
    /* sampled width (gauss only; rbf_moves.c): log w ~ uniform on
     * [log width_lo, log width_hi] (a log-uniform prior: no scale favoured),
     * moved by a Gaussian random walk of sd width_step on log w every
     * width_every steps, one refactorisation of the network per move */
    int sample_width;
    double width_lo, width_hi, width_step;
    size_t width_every;
    int linear_term;       /* 1: the inputs are always-in columns (paper 002) */
    size_t kmax;           /* largest number of RBFs */
    int temperature_mode;  /* bsl_rbf_mode */
    const bsl_coef_prior_type *criterion; /* anneal: a criterion (aic, bic, mdl) */
    int schedule;          /* bsl_rbf_schedule (anneal) */
    double t0, t_end;      /* first and last temperature (anneal) */
    double box_enlarge;    /* box side = this x the data's range, about its midpoint */
    double zeta;           /* split/merge scale zeta* (eq. 8); 0 = auto, 0.1 x mean side */
    double rw_scale;       /* update random-walk sd as a fraction of each side */
    double p_rw;           /* update: probability of the random walk (else uniform on box) */
    double move_weights[BSL_RBF_NMOVES]; /* b, d, s, m, u before the k-adjustment (0.2 each) */
    size_t iter, burn, chains;
    size_t keep;           /* rj: draws kept for prediction, pooled over chains */
    size_t k_start;        /* initial number of RBFs (centres uniform on the box) */
    unsigned long seed;
    /* full-Bayes hyperparameters (Andrieu, de Freitas, Doucet 2001) */
    double a0, b0;             /* IG(a0, b0) on sigma_o^2; 0, 0 = Jeffreys */
    double a_delta, b_delta;   /* IG on delta_o^2 (2, 10) */
    double a_lambda, b_lambda; /* Gamma(shape, rate) on the Poisson mean (0.5, 1e-3) */
    int sample_delta2, sample_lambda; /* 0: keep delta2_init / lambda_init fixed */
    double delta2_init, lambda_init;
    /* finite candidate set (exactness tests): centres restricted to these
     * ncand points (ncand x d, row-major, borrowed), birth / death only */
    const double *candidates;
    size_t ncand;
    /* Running (src/run/chains.h): OpenMP threads (0 = the OpenMP
     * default; results do not depend on it), and the progress callback,
     * called from the calling thread with the fraction of moves done;
     * non-zero cancels the fit (BASEL_ECANCELLED). NULL: none. */
    int threads;
    bsl_progress_fn progress; /* done, total units */
    void *progress_user;
    /* Checkpoints (chains.h bsl_chains_ckpt): NULL paths when not asked. */
    const char *checkpoint, *restart;
    double checkpoint_every;
    unsigned long long run_id;
    const basel_ranks *ranks; /* chains over processes (chains.h bsl_chains ranks), NULL: one process */
} bsl_rbf_options;

void bsl_rbf_options_default(bsl_rbf_options *o);

typedef struct bsl_rbf_result bsl_rbf_result;

/* Fit on X (n x d, column-major) and Y (n x c, column-major). Chains run in
 * parallel (OpenMP) with one mt19937 each, seeded bsl_mix_seed(seed, chain),
 * so *out does not depend on the thread count (except the timings).
 * Errors: BASEL_EINVAL (options, a constant input, n too small for kmax),
 * BASEL_ENUMERIC (no usable start), BASEL_ENOMEM, BASEL_ECANCELLED
 * (o->progress returned non-zero). */
int bsl_rbf_fit(const double *X, size_t n, size_t d, const double *Y, size_t c,
                const bsl_rbf_options *o, bsl_rbf_result **out, basel_error *err);
/* Predictions at n points X (n x d, column-major): mean, lower, upper are
 * n x c column-major (lower/upper may be NULL). anneal: the MAP network
 * with the plug-in Student-t interval; rj: the model average over the kept
 * draws, the interval from the quantiles of the Student-t mixture.
 * sd and sdf (n x c, or NULL): the exact sd of that predictive for a new
 * y and for the regression function alone (each network's Student-t
 * variance, scale^2 dof / (dof - 2), plus the spread of the networks'
 * means: the law of total variance; basel_pred_sd).
 * BASEL_EINVAL for level outside (0, 1), BASEL_ENOMEM. */
int bsl_rbf_predict(const bsl_rbf_result *r, const double *X, size_t n, double level,
                    double *mean, double *lower, double *upper, double *sd, double *sdf);

/* accessors (pointers live as long as r) */
int bsl_rbf_mode_of(const bsl_rbf_result *r);
/* 1 for a fit of an interrupted run, with the moves done and planned over
 * all chains (chains.h cs->partial); 0 otherwise. */
int bsl_rbf_interrupted(const bsl_rbf_result *r, double *done, double *planned);
size_t bsl_rbf_dim(const bsl_rbf_result *r);      /* d */
size_t bsl_rbf_outputs(const bsl_rbf_result *r);  /* c */
size_t bsl_rbf_k(const bsl_rbf_result *r);        /* anneal: k of the MAP; rj: posterior mode */
const double *bsl_rbf_centres(const bsl_rbf_result *r); /* anneal: k x d row-major */
double bsl_rbf_score(const bsl_rbf_result *r);    /* anneal: best criterion value */
/* posterior of k (rj): kmax + 1 probabilities; anneal: NULL */
const double *bsl_rbf_k_posterior(const bsl_rbf_result *r, size_t *len);
/* Convergence of k across the sampler's chains (summary.h bsl_conv_of):
 * rank-normalised split R-hat, bulk and tail ESS over draws snapshots of k
 * per chain (chains of them); NaN for anneal or when k never changed. */
void bsl_rbf_k_convergence(const bsl_rbf_result *r, double *rhat, double *ess_bulk, double *ess_tail,
                           size_t *draws, size_t *chains);
double bsl_rbf_moves_per_second(const bsl_rbf_result *r);
/* the gauss width: fixed, or sampled (anneal: the MAP network's; rj: the
 * mean over the kept draws), and the width move's counts */
double bsl_rbf_width(const bsl_rbf_result *r);
void bsl_rbf_width_moves(const bsl_rbf_result *r, double *proposed, double *accepted);
/* proposed / accepted counts of move i (BSL_RBF_BIRTH..), summed over chains */
void bsl_rbf_acceptance(const bsl_rbf_result *r, int move, double *proposed, double *accepted);

json_t *bsl_rbf_to_json(const bsl_rbf_result *r);
int bsl_rbf_from_json(bsl_rbf_result **out, const json_t *j, basel_error *err);
/* engine.h's centres for a checked document: every kept network's kernel
 * centres (engine.networks[].centres, k x d each), network by network. */
int bsl_rbf_json_centres(const json_t *doc, double **out, size_t *count);
void bsl_rbf_free(bsl_rbf_result *r);

/* ---- one chain: the moves, exposed for the statistical tests ---- */

typedef struct bsl_rbf_chain bsl_rbf_chain;

/* A chain on borrowed X, Y (which must outlive it), starting at k = 0 with
 * delta2_init and lambda_init. The box comes from X. */
int bsl_rbf_chain_create(bsl_rbf_chain **out, const double *X, size_t n, size_t d,
                         const double *Y, size_t c, const bsl_rbf_options *o, basel_error *err);
void bsl_rbf_chain_free(bsl_rbf_chain *ch);
/* Put o.k_start centres, uniform on the box, into a new chain (the fit's start). */
void bsl_rbf_chain_start(bsl_rbf_chain *ch, gsl_rng *r);
/* One move (chosen as in paper 002 §4) at temperature T (1 = the target
 * itself), then, for rj, the delta^2 and Lambda updates. Returns the move
 * index. No allocation. */
int bsl_rbf_chain_step(bsl_rbf_chain *ch, gsl_rng *r, double T);
/* Log target of the current state (the criterion for anneal). */
double bsl_rbf_chain_log_target(const bsl_rbf_chain *ch);
size_t bsl_rbf_chain_k(const bsl_rbf_chain *ch);
const double *bsl_rbf_chain_centres(const bsl_rbf_chain *ch); /* k x d row-major */
const double *bsl_rbf_chain_delta2(const bsl_rbf_chain *ch);  /* c */
double bsl_rbf_chain_width(const bsl_rbf_chain *ch);          /* the current gauss width */
/* The width move alone (rbf_moves.c), at temperature T: 1 if accepted. */
int bsl_rbf_chain_width_step(bsl_rbf_chain *ch, gsl_rng *r, double T);
double bsl_rbf_chain_lambda(const bsl_rbf_chain *ch);
/* candidate mode: index of each active centre in the candidate list */
const size_t *bsl_rbf_chain_cand_index(const bsl_rbf_chain *ch);
/* Draw (k, mu, delta^2, Lambda, and the width when sampled) from the rj
 * prior (Geweke test). */
int bsl_rbf_chain_draw_prior(bsl_rbf_chain *ch, gsl_rng *r);
/* Draw Y (n x c, the array the chain borrows) from p(y | k, mu, delta^2)
 * with alpha and sigma^2 drawn from their priors, then refactorise. */
int bsl_rbf_chain_draw_y(bsl_rbf_chain *ch, gsl_rng *r, double *Y);
/* Recompute everything from scratch (after Y changed). BASEL_ENUMERIC if
 * the design is singular. */
int bsl_rbf_chain_refresh(bsl_rbf_chain *ch);
/* Change the move weights (b, d, s, m, u; birth and death > 0), e.g. to grow
 * a chain to a given k and then time updates alone. */
void bsl_rbf_chain_set_move_weights(bsl_rbf_chain *ch, const double w[BSL_RBF_NMOVES]);
/* Proposal / acceptance counts of this chain. */
void bsl_rbf_chain_counts(const bsl_rbf_chain *ch, double *proposed, double *accepted);

#endif
