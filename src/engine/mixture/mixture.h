/*
 * mixture.h: the classification engine of paper 000 ("reversible-jump input
 * selection for a Gaussian-mixture classifier"). Internal; never installed.
 *
 * Model (paper 000 eq. 1, with the excluded inputs modelled too):
 *   class k ~ P (K classes), kernel d | k ~ w_k (D kernels shared by the
 *   classes), x_j | d ~ N(mu_dj, 1/prec_dj) for every active input j, and
 *   every excluded input j independent of the class and the kernel given
 *   the active inputs: a linear regression on them (default) or a single
 *   Gaussian, its parameters integrated out (mixture_excluded.c).
 * Priors (eq. 3, §2.2): mu_dj ~ N(xi_j, 1/kappa_j), prec_dj ~ Gamma(a, beta_j),
 *   beta_j ~ Gamma(g, h_j) truncated to [beta_min_j, inf) (beta_min_j =
 *   beta_min R_j^2, an addition to the paper that makes the posterior proper
 *   when an input has tied values; mixture_model.c), w_k ~ Dirichlet(delta_w),
 *   P ~ Dirichlet(delta_p);
 *   the input subset has the truncated Poisson prior of §2.3 on its size and
 *   is uniform given its size. Gamma(shape, rate) throughout.
 * Engine: a Gibbs sweep over latent allocations and parameters for the
 *   current subset (mixture_gibbs.c), then exchange and add/remove moves over
 *   the subset (mixture_rj.c, which derives their acceptance ratios).
 *
 * The first half of this header is what the rest of libbasel uses (options,
 * fit, predict, result accessors, JSON); the second half ("engine") exposes
 * the chain so that tests/stat can drive single transitions (Geweke test).
 */
#ifndef BSL_SAMPLER_MIXTURE_H
#define BSL_SAMPLER_MIXTURE_H

#include "../../core/core.h"
#include "../../summary/summary.h"

#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <stddef.h>

/* ------------------------------------------------------------- options */

enum { BSL_MIX_MAX_TEMPERATURES = 64 };

/* The kept draws are the predictor (FIT.json holds every one of them), so
 * what bounds their memory is their number, not the run's length: a chain
 * keeps at most this many; a run whose --iter / --thin asks for more is
 * thinned further (thin = ceil(iter / BSL_MIX_MAX_DRAWS)), and the thin it
 * used is the one recorded in the fit's settings. */
#define BSL_MIX_MAX_DRAWS 1000

typedef struct bsl_mix_options {
    size_t kernels;       /* D, kernels shared by the classes (3 here, for the tests and bench_mixture; the
                           * command and the front ends get the engine table's, 6: mixture_engine.c) */
    size_t iter;          /* sweeps per chain, burn-in included (15000) */
    size_t burn;          /* burn-in sweeps (5000) */
    size_t thin;          /* keep every thin-th sweep after burn-in as a draw (10) */
    size_t chains;        /* independent chains, run in parallel (1) */
    unsigned long seed;   /* chain c uses bsl_mix_seed(seed, c) (1) */
    double poisson_mean;  /* lambda of the truncated Poisson size prior, §2.3 (2) */
    size_t max_inputs;    /* I_max; 0 = all d inputs (0) */
    size_t min_inputs;    /* I_min, >= 1: a classifier needs an input (1) */
    size_t exchange_moves;    /* exchange proposals per sweep, eq. 6 (1) */
    size_t birth_death_moves; /* add-or-remove proposals per sweep, eqs. 4-5 (1) */
    /* Replica exchange (parallel tempering) inside each chain: `temperatures`
     * replicas at inverse temperatures b_t = temp_max^(-t / (temperatures - 1)),
     * t = 0 the posterior; after every sweep each adjacent pair proposes to
     * swap temperatures (mixture.c). 1 = off, the paper's sampler (1). */
    size_t temperatures;  /* at most BSL_MIX_MAX_TEMPERATURES */
    double temp_max;      /* the hottest replica's temperature 1 / b (20) */
    size_t top;           /* most probable subsets kept in the result (20) */
    /* The moves between subsets (mixture_rj.c derives each ratio):
     * BSL_MIX_PROPOSE_SUMMED (default): add, remove and exchange with the
     * new column's coordinates (and its beta_j) drawn from their
     * conditional given the allocations, weights untouched, the ratio with
     * the allocations summed out and the allocations redrawn given the new
     * subset; BSL_MIX_PROPOSE_ALLOC: the same proposal with the ratio given
     * the allocations (the column's marginal likelihood under them; pair
     * moves only here); the two below sum the allocations
     * out and split the weights (eq. 4) and are rarely accepted on real data:
     * BSL_MIX_PROPOSE_PRIOR, the new coordinates from their priors (the
     * paper's choice), or BSL_MIX_PROPOSE_DATA from the full conditionals
     * given the rows' kernel responsibilities. */
    int add_proposal;
    /* The excluded inputs' density (mixture_excluded.c):
     * BSL_MIX_EXCLUDED_REGRESSION (default), a linear regression on the
     * active inputs with Zellner's g-prior on the slopes, or
     * BSL_MIX_EXCLUDED_GAUSSIAN, one Gaussian per input. */
    int excluded;
    double excluded_g;    /* g of the slopes' g-prior; <= 0 means n (0) */
    /* Rows with class -1: 0 (default) leaves them out of the fit, 1 uses
     * them (semi-supervised, eq. 2). On Pima with 80 % of the training
     * labels hidden they lowered the test accuracy (bench/mixture,
     * docs/METHODS.md), so they are used only when asked. */
    int unlabelled;
    /* Probability that a birth-death proposal of the moves given the
     * allocations adds or removes a pair of inputs (mixture_rj.c); tried for
     * Pima's glu and ped, which enter together, and accepted 0.02 % of the
     * time there, so off by default (0). */
    double pair_prob;
    /* 1: the add/remove moves given the allocations (either kind) choose
     * the input to flip by its approximate odds given the allocations (a
     * locally balanced proposal, mixture_rj.c) rather than uniformly (0);
     * default 1: it raised the add/remove acceptance 7-8 fold on Pima, Wine
     * and Ionosphere (bench/mixture/README.md). */
    int informed;
    /* 1: the exchange chooses its pair (an active input to leave, an
     * excluded one to enter) by the approximate odds of the swap given the
     * allocations (locally balanced, mixture_rj.c), with the same kind of
     * moves as add_proposal (given z, or summed out); 0: uniformly.
     * Default 1: exchange acceptance 0.04-0.45 % -> 0.4-10 % on Pima, Wine
     * and Ionosphere, R-hat and accuracy as before (bench/mixture/README.md). */
    int informed_exchange;
    /* §2.2 hyperparameters */
    double a;             /* shape of the prior of each inverse variance (2) */
    double g;             /* shape of beta_i's Gamma hyperprior (0.2) */
    double h;             /* rate of beta_i's hyperprior; <= 0 means 10 / R_i^2 (0) */
    /* Lower end of beta_i's hyperprior as a fraction of R_i^2: beta_i ~
     * Gamma(g, h_i) truncated to [beta_min R_i^2, inf). 0 is the paper's
     * prior, whose posterior is improper when D kernels can put one on
     * enough tied values of an input (mixture_model.c); default 0.03: the
     * prior's mean precision a / beta_i is then at most 67 / R_i^2 (a = 2),
     * kernels about R_i / 8 wide or wider (bench/mixture/README.md has the
     * values tried: 0.01, 0.03, 0.1, 0.3). */
    double beta_min;
    double delta_w;       /* Dirichlet count of the allocation probabilities (1) */
    double delta_p;       /* Dirichlet count of the class priors (1) */
    double split_a;       /* b_a of the Beta(b_a, b_b + 1) split, eq. 4 (1) */
    double split_b;       /* b_b of the same (4): mean split 1/6 */
    /* The prior of the means is N(xi_i, R_i^2) with xi_i the midpoint and R_i
     * the range of input i (§2.2). If prior_range > 0, every input uses
     * xi_i = prior_mid and R_i = prior_range instead (data-free priors, as a
     * Geweke test needs). */
    double prior_mid;     /* (0) */
    double prior_range;   /* (0 = from the data) */
    /* Running (src/run/chains.h): OpenMP threads (0 = the OpenMP
     * default; results do not depend on it), and the progress callback,
     * called from the calling thread with the fraction of sweeps done;
     * non-zero cancels the fit (BASEL_ECANCELLED). NULL: none. */
    int threads;
    bsl_progress_fn progress; /* done, total units */
    void *progress_user;
    /* Checkpoints (chains.h bsl_chains_ckpt): NULL paths when not asked. */
    const char *checkpoint, *restart;
    double checkpoint_every;
    unsigned long long run_id;
    const basel_ranks *ranks; /* chains over processes (chains.h bsl_chains ranks), NULL: one process */
} bsl_mix_options;

/* Fill o with the defaults listed above. */
void bsl_mix_options_default(bsl_mix_options *o);

/* -------------------------------------------------------------- result */

typedef struct bsl_mix_result bsl_mix_result;

/* Run the sampler. X is n x d column-major (X[j*n+i]); cls[i] is the class
 * (0..nclass-1) of row i or -1 for an unlabelled row (left out unless
 * o->unlabelled). Inputs are best
 * standardised by the caller. On success *out owns the result (free it with
 * bsl_mix_free). Errors: BASEL_EINVAL (bad sizes or options, a single class,
 * fewer than 2 labelled rows in a class, a non-finite or constant input),
 * BASEL_ENOMEM, BASEL_ECANCELLED (o->progress returned non-zero).
 * Thread-safe; runs its chains through the chain driver (chains.h); the
 * result does not depend on the number of threads. */
int bsl_mixture_fit(const double *X, size_t n, size_t d, const int *cls, size_t nclass,
                    const bsl_mix_options *o, bsl_mix_result **out, basel_error *err);

/* Model-averaged class probabilities: prob[i*nclass + k] = P(class k | row i),
 * averaged over the kept draws (the excluded inputs' density is the same for
 * every class and cancels). Xnew is n x d column-major with the fit's inputs
 * in the fit's order. BASEL_EINVAL for NULL arguments or non-finite Xnew. */
int bsl_mixture_predict(const bsl_mix_result *r, const double *Xnew, size_t n, double *prob);
/* The same averaged over the kept draws whose inputs are exactly
 * model[0..k) (sorted; NULL: every draw): the predictive given that model.
 * BASEL_ERANGE when no kept draw has it. */
int bsl_mixture_predict_model(const bsl_mix_result *r, const double *Xnew, size_t n, const size_t *model,
                              size_t k, double *prob);

void bsl_mix_free(bsl_mix_result *r);

/* Accessors. Returned arrays live as long as r. */
size_t bsl_mix_inputs(const bsl_mix_result *r);  /* d */
size_t bsl_mix_classes(const bsl_mix_result *r); /* K */
size_t bsl_mix_kernels(const bsl_mix_result *r); /* D */
/* Posterior probability of each input (over all post-burn-in sweeps). */
const double *bsl_mix_pip(const bsl_mix_result *r, size_t *d);
/* Posterior of the number of inputs: prob[I] for I = 0..d (*len = d + 1). */
const double *bsl_mix_size_post(const bsl_mix_result *r, size_t *len);
/* Posterior mean and maximum (over post-burn-in sweeps) of the number of inputs. */
double bsl_mix_mean_inputs(const bsl_mix_result *r);
size_t bsl_mix_max_inputs(const bsl_mix_result *r);
/* The visited subsets, most probable first: at most `top` of them.
 * bsl_mix_subset returns subset s's inputs (sorted, *len of them) and its
 * posterior frequency in *prob; NULL if s is out of range. */
size_t bsl_mix_subset_count(const bsl_mix_result *r);
size_t bsl_mix_subsets_visited(const bsl_mix_result *r); /* distinct, before the cut */
const size_t *bsl_mix_subset(const bsl_mix_result *r, size_t s, size_t *len, double *prob);

/* The kept draws: ndraw of them, chain by chain, the same number from each
 * chain; draw t's active inputs (sorted, *len of them). NULL if t >= ndraw. */
size_t bsl_mix_draw_count(const bsl_mix_result *r);
const size_t *bsl_mix_draw_inputs(const bsl_mix_result *r, size_t t, size_t *len);

/* Convergence across chains from the kept draws: split R-hat and ESS of
 * each input's indicator (d each) and of the number of inputs (BDA3 ch. 11,
 * src/summary/diag.c). 1 for a trace constant across all chains, NaN with fewer than 4
 * draws per chain); +inf when every chain's trace is constant but the
 * chains differ (stuck on different subsets); all NULL / NaN for a result
 * read from JSON. */
void bsl_mix_convergence(const bsl_mix_result *r, const double **rhat_pip, const double **ess_pip,
                         const double **ess_tail_pip, bsl_conv *size, size_t *draws);

/* Diagnostics: acceptance rates of the moves and the speed. */
typedef struct bsl_mix_diag {
    double accept_add, accept_remove, accept_exchange; /* at temperature 1: accepted / proposed (NaN if none) */
    double accept_add2, accept_remove2; /* the pair moves (NaN if none, or read from JSON) */
    double accept_swap;   /* replica exchange: accepted / proposed temperature swaps (NaN if none) */
    double accept_swap_min; /* the lowest rate of an adjacent pair (NaN if none), */
    size_t swap_min_pair;   /* that pair: temperatures t and t + 1 */
    unsigned long proposed_add, proposed_remove, proposed_exchange;
    double sweeps_per_second; /* chain sweeps / wall-clock second; 0 after from_json */
    size_t draws;             /* kept draws (all chains) */
} bsl_mix_diag;
void bsl_mix_diagnostics(const bsl_mix_result *r, bsl_mix_diag *out);
/* The moves that change the subset (add, remove, exchange and the pair
 * moves), proposed and accepted at temperature 1 over all chains: the
 * acceptance rule of summary.h (bsl_conv_check). */
void bsl_mix_subset_moves(const bsl_mix_result *r, double *proposed, double *accepted);

/* JSON: everything predict and the summaries need (settings, PIPs, size
 * posterior, top subsets, acceptance counts, all kept draws). The timing is
 * left out so the same seed gives the same bytes. Doubles round-trip.
 * bsl_mix_to_json returns a new reference or NULL on ENOMEM. bsl_mix_from_json
 * validates every field: BASEL_EPARSE with a message naming the bad field. */
json_t *bsl_mix_to_json(const bsl_mix_result *r);
int bsl_mix_from_json(bsl_mix_result **out, const json_t *j, basel_error *err);

/* ================================================================ engine */

/* Data and resolved hyperparameters shared (read-only) by the chains. */
typedef struct bsl_mix_model {
    size_t n, d, K, D;
    double *X;        /* n x d column-major, owned (the Geweke test rewrites it) */
    int *cls;         /* n: class or -1, owned */
    double *xi;       /* d: prior mean of the kernel means */
    double *kappa;    /* d: prior precision of the kernel means, 1 / R_i^2 */
    double *h;        /* d: rate of beta_i's hyperprior */
    double *beta_lo;  /* d: its lower end beta_min R_i^2 (0: none) */
    double *beta_lq;  /* d: log of Gamma(g, h_i)'s mass above beta_lo (its normaliser) */
    double *ng_b0;    /* d: rate of the excluded input's Normal-Gamma prior */
    double *ng_k0;    /* d: its mean-precision scale */
    double *xbar;     /* d: column means */
    double *C;        /* d x d: centred cross products, (X - xbar)'(X - xbar) */
    int excluded;     /* BSL_MIX_EXCLUDED_* */
    double excl_g;    /* g of the slopes' g-prior (resolved: n by default) */
    double a, g, delta_w, delta_p, split_a, split_b, lambda;
    size_t imin, imax;
    int add_proposal;
    int informed;
    int informed_exchange;
    double pair_prob;
} bsl_mix_model;

/* Resolve hyperparameters (§2.2) from o and the data; copies X and cls.
 * No validation beyond what it needs: bsl_mixture_fit validates first. */
int bsl_mix_model_create(bsl_mix_model **out, const double *X, size_t n, size_t d,
                         const int *cls, size_t nclass, const bsl_mix_options *o);
void bsl_mix_model_free(bsl_mix_model *m);
/* Recompute xbar and C after X changed. */
void bsl_mix_excluded_stats(bsl_mix_model *m);
/* Sum over the inputs not in active of their log evidence given the active
 * ones (mixture_excluded.c). work: d * d + d doubles, kept: d. */
double bsl_mix_excluded_log_evidence(const bsl_mix_model *m, const unsigned char *active,
                                     double *work, size_t *kept);
/* dE[a * (d - I) + e] = E(A - j + j') - E(A), the change of the sum above
 * when the a-th active input j (in index order) leaves and the e-th
 * excluded input j' enters, for every such pair (the informed exchange of
 * mixture_rj.c). active is restored. work: 5 d^2 + 3 d doubles, iwork: 3 d,
 * whose [0, I) and [d, 2d - I) are left holding the active and the excluded
 * inputs in index order. */
void bsl_mix_excluded_swap_changes(const bsl_mix_model *m, unsigned char *active, double *work, size_t *iwork,
                                   double *dE);
/* dE[j] = E(A with input j flipped) - E(A) for every input j, by the same
 * updates (the informed add / remove); work and iwork as above. */
void bsl_mix_excluded_flip_changes(const bsl_mix_model *m, unsigned char *active, double *work, size_t *iwork,
                                   double *dE);
/* Draw the excluded columns of m->X from their model given the active
 * columns (which must be drawn already); refreshes xbar and C. */
void bsl_mix_excluded_simulate(bsl_mix_model *m, const unsigned char *active, const gsl_rng *rng,
                               double *work, size_t *kept);

/* One chain's state. Arrays indexed [j*D + d] are input-major so a column's
 * kernels are contiguous; entries of inactive inputs are unused. */
typedef struct bsl_mix_chain {
    const bsl_mix_model *m;
    unsigned char *active; /* d */
    size_t I;              /* number of active inputs */
    double *mu, *prec;     /* d x D: kernel means and inverse variances */
    double *beta;          /* d: hyperparameter of input j's inverse variances */
    double *w;             /* K x D: allocation probabilities w[k*D + d] */
    double *P;             /* K: class priors */
    int *z;                /* n: kernel of each row */
    int *c;                /* n: class of each row (imputed when unlabelled) */
    double *L;             /* n x D: sum over active j of log N(x_ij; mu_dj, 1/prec_dj) */
    double *Lnew;          /* n x D: scratch for proposals */
    double *Lsave;         /* n x D: scratch, L before a summed exchange */
    int *zsave;            /* 2n: scratch, z and c before a summed remove or exchange */
    double *iscore;        /* 4d: scratch of the informed moves (mixture_rj.c) */
    double *ncoord;        /* 2D: a proposed column's means and precisions */
    double *wnew, *scratch; /* K x D, and 2KD + 7D + 2K + d scratch */
    size_t *perm, *idx;    /* D, d: scratch */
    double *xwork;         /* d * d + d: scratch of the excluded inputs' evidence */
    size_t *xkept;         /* d: the same */
    double *xswap;         /* 5 d^2 + 3 d: scratch of bsl_mix_excluded_swap_changes */
    size_t *xiwork;        /* 3 d: the same */
    double *xscore;        /* d^2 / 4 + 1: the informed exchange's pair scores */
    int wm_fresh;          /* 1: iscore[0, d) holds the columns' weights Wm at the current z and b
                            * (left by the informed exchange for the informed add / remove) */
    int fix_subset;        /* 1: Gibbs only, the subset never moves */
    double b;              /* inverse temperature, 1 = the posterior (mixture_gibbs.c) */
    double *tw;            /* K x D + K: w^b and P^b when b < 1 */
    unsigned long prop[5], acc[5]; /* add, remove, exchange, add a pair, remove a pair */
} bsl_mix_chain;

enum { BSL_MIX_EXCLUDED_GAUSSIAN = 0, BSL_MIX_EXCLUDED_REGRESSION = 1 };
enum { BSL_MIX_PROPOSE_PRIOR = 0, BSL_MIX_PROPOSE_DATA = 1, BSL_MIX_PROPOSE_ALLOC = 2, BSL_MIX_PROPOSE_SUMMED = 3 };
enum { BSL_MIX_ADD = 0, BSL_MIX_REMOVE = 1, BSL_MIX_EXCHANGE = 2, BSL_MIX_ADD2 = 3, BSL_MIX_REMOVE2 = 4, BSL_MIX_MOVES = 5 };

int bsl_mix_chain_create(bsl_mix_chain **out, const bsl_mix_model *m);
void bsl_mix_chain_free(bsl_mix_chain *ch);
/* A start for a fit: a random subset of size round(lambda) (clamped), kernel
 * means at random rows, prior-mean variances, uniform probabilities. */
void bsl_mix_chain_init(bsl_mix_chain *ch, const gsl_rng *r);
/* Draw every parameter from the prior (subset too unless fix_subset, in
 * which case the current subset is kept). */
void bsl_mix_chain_draw_prior(bsl_mix_chain *ch, const gsl_rng *r);
/* Draw classes, allocations and all d columns of X from the model given the
 * parameters (writes into the model: X, c, z; cls keeps its -1 pattern and
 * gets the drawn class elsewhere). Refreshes xbar and C. For the Geweke test. */
void bsl_mix_chain_simulate(bsl_mix_chain *ch, bsl_mix_model *m, const gsl_rng *r);
/* One sweep: Gibbs (eq. 3), then unless fix_subset the RJ moves. */
void bsl_mix_chain_sweep(bsl_mix_chain *ch, const gsl_rng *r, size_t n_exchange,
                         size_t n_birth_death);

/* Pieces of the sweep (mixture_gibbs.c / mixture_rj.c). */
void bsl_mix_compute_L(bsl_mix_chain *ch);
void bsl_mix_gibbs(bsl_mix_chain *ch, const gsl_rng *r);
/* z (and the unlabelled rows' c) from their full conditional given ch->L
 * and the probabilities (eq. 3), tempered by ch->b. */
void bsl_mix_draw_allocations(bsl_mix_chain *ch, const gsl_rng *r);
void bsl_mix_exchange(bsl_mix_chain *ch, const gsl_rng *r);
/* Marginal log-likelihood of the rows given L (allocations and unlabelled
 * classes summed out), with probabilities w; excluded columns not included. */
double bsl_mix_rows_loglik(const bsl_mix_chain *ch, const double *L, const double *w);
void bsl_mix_birth_death(bsl_mix_chain *ch, const gsl_rng *r);

/* The result behind the opaque handle; only mixture*.c look inside.
 * Subset s has inputs sub_idx[sub_off[s] .. sub_off[s+1]); draw t has active
 * inputs draw_idx[draw_off[t] .. draw_off[t+1]) and, for the u-th of them,
 * means draw_mu[(draw_off[t] + u) * D + q] (likewise draw_prec). */
struct bsl_mix_result {
    size_t d, K, D;
    bsl_mix_options opt;
    double *pip, *size_post;     /* d, d + 1 */
    double mean_inputs;
    size_t max_inputs;
    size_t nsub, nvisited;
    size_t *sub_off, *sub_idx;   /* nsub + 1, sub_off[nsub] */
    double *sub_prob;            /* nsub */
    unsigned long prop[BSL_MIX_MOVES], acc[BSL_MIX_MOVES]; /* JSON keeps the first 3 */
    unsigned long swap_prop, swap_acc;
    unsigned long pair_prop[BSL_MIX_MAX_TEMPERATURES], pair_acc[BSL_MIX_MAX_TEMPERATURES];
    double sweeps_per_second;
    size_t ndraw;
    size_t *draw_off, *draw_idx; /* ndraw + 1, draw_off[ndraw] */
    double *draw_mu, *draw_prec; /* draw_off[ndraw] * D */
    double *draw_w, *draw_P;     /* ndraw * K * D, ndraw * K */
    double *rhat_pip, *ess_pip, *ess_tail_pip; /* d each, or NULL (bsl_mix_convergence) */
    bsl_conv size;               /* R-hat, bulk and tail ESS of the number of inputs */
    size_t trace_len;            /* kept draws per chain behind them */
    /* a fit of an interrupted run (chains.h cs->partial): sweeps done and
     * planned over all chains (iter_planned 0 otherwise), and each chain's
     * kept draws (opt.chains; NULL when every chain kept the same number) */
    double iter_done, iter_planned;
    size_t *chain_ndraw;
};
/* An empty result with every array allocated for the given sizes
 * (used by the fit and by the JSON reader); NULL on ENOMEM. */
bsl_mix_result *bsl_mix_result_alloc(size_t d, size_t K, size_t D, size_t nsub,
                                     size_t sub_total, size_t ndraw, size_t draw_total);

/* Shared small densities. */
#define BSL_MIX_LOG_2PI 1.8378770664093454836 /* log(2 pi) */
double bsl_mix_log_normal(double x, double mu, double prec);
/* log p(I) for the truncated Poisson on [imin, imax] up to a constant, minus
 * log C(d, I) (uniform subsets given the size), §2.3. */
double bsl_mix_log_subset_prior(const bsl_mix_model *m, size_t I);
/* log of beta_j's prior density, Gamma(g, h_j) truncated to [beta_lo_j,
 * inf) (-inf below), with its normaliser. */
double bsl_mix_beta_log_prior(const bsl_mix_model *m, size_t j, double beta);
/* A draw from Gamma(shape, rate) truncated to [beta_lo_j, inf): beta_j's
 * prior (shape g, rate h_j) or its full conditional. */
double bsl_mix_draw_beta(const bsl_mix_model *m, const gsl_rng *r, size_t j, double shape, double rate);
/* Probabilities of proposing add / remove at size I. */
double bsl_mix_p_add(const bsl_mix_model *m, size_t I);
double bsl_mix_p_remove(const bsl_mix_model *m, size_t I);

#endif
