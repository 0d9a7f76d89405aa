/*
 * smc_impl.h: the insides of the sequential RVM (smc.h), shared by
 * smc.c (lifecycle, candidate cache, the step loop), smc_moves.c (one
 * particle's step and its importance weight), smc_resample.c, smc_predict.c
 * and smc_json.c. Not for other modules.
 *
 * Invariants between calls:
 *  - cache: m = min(t, mcap) candidates, x and y of the first m points;
 *    Kc[c + c' mcap] = K(x_c, x_c') for c, c' < m; s1[c] = sum_s K(x_s, c);
 *    sy[c] = sum_s K(x_s, c) y_s; sum_y, yy. The cross products
 *    sum over all t points of K(x_s, c) K(x_s, c') (upper triangle,
 *    column-major, ld mcap) are G plus the nb rows waiting in R: column j
 *    of G has taken R's rows 0 .. done[j] - 1, and row r touches the
 *    columns j < len[r] (the candidates there were when it came). A
 *    column is brought up to date (cache_column) when a particle reads
 *    it, and all of them when R is full; see cache_add for why.
 *  - particle: M is the collapsed model (model.h, the ridge prior with
 *    sigma2 and lambda = 1 / sigma_beta2, tau = rho) over the t points
 *    of the shared plain design D, whose atoms are 0 the intercept and
 *    1 + c the kernel at candidate c, read from the cache as cross products
 *    (bsl_atom_source); it holds the intercept once t > 0, and then
 *    centre[j] = active[j + 1] - 1 (k = its k - 1); its log_ml = log
 *    p(Y_t | S, sigma2, sigma_beta2) (paper 003 eq. 3 before
 *    normalisation); centres distinct.
 */
#ifndef BSL_SMC_IMPL_H
#define BSL_SMC_IMPL_H

#include "smc.h"
#include "../../model/model.h"

#include <gsl/gsl_rng.h>

typedef struct smc_cache {
    size_t d, mcap, m, t;
    double width;
    double *xc;   /* mcap x d, row-major */
    double *yc;   /* mcap */
    double *Kc;   /* mcap x mcap */
    double *G;    /* mcap x mcap, upper triangle, less the rows in R */
    double *R;    /* blk x mcap: the rows not yet in every column of G */
    size_t *len;  /* blk: the columns row r of R touches */
    size_t *done; /* mcap: the rows of R column j has taken (atomic access) */
    size_t blk, nb; /* R's capacity and its rows */
    double *s1, *sy; /* mcap */
    double sum_y, yy;
    double *row;  /* mcap: K(x_t, c) for the point being fed; row[-1] = 1,
                     so row - 1 is the new row of every atom by id */
    double y_t;
} smc_cache;

typedef struct smc_particle {
    bsl_cmodel *M;      /* the collapsed model (see the invariants) */
    size_t k;
    size_t *centre;     /* kmax */
    double *beta;       /* kmax + 1: last draw of eq. (4) */
    double sigma2, sigma_beta2;
    double log_w;       /* unnormalised log weight */
    double p_new;       /* move kernel: P(new candidate enters | x') this step */
    double *work;       /* (kmax + 1)(kmax + 2) / 2 + 2 (kmax + 1) scratch */
} smc_particle;

struct bsl_smc {
    bsl_smc_options o;
    smc_cache cache;
    bsl_design *D;        /* plain design: t rows, their y'y */
    bsl_atom_source src;  /* the cache's cross products by atom id */
    smc_particle *p, *q;  /* current system and the resampling buffer */
    gsl_rng **rng;        /* one per particle slot */
    gsl_rng *master;      /* resampling */
    double *W;            /* N normalised weights */
    double *u;            /* N scratch for resampling */
    size_t *anc;          /* N ancestors */
    size_t n_resample;
    /* degeneracy (issue 30 item 5): the ESS right after resampling is N by
     * construction and says nothing, so what is kept is the smallest ESS of
     * the weights at a resampling decision, before it (ess_min, +inf before
     * the first decision; ess_min_step the point, 1-based, where it was),
     * and the number of distinct ancestors the last resampling kept
     * (unique_last, 0 before the first) */
    double ess_min;
    size_t ess_min_step, unique_last;
};

/* K(a, b) for d-vectors: exp(-|a - b|^2 / (2 r^2)), the gauss atom of
 * basis/dict.c. */
double bsl_smc_kernel(const double *a, const double *b, size_t d, double width);
/* G[c, c'] (the cross product over all t points, from the upper
 * triangle), column max(c, c') first brought up to date: the cache is
 * logically const, and a concurrent call from another particle's thread is
 * safe (one lock per update, smc.c). */
double bsl_smc_gram(const smc_cache *C, size_t a, size_t b);
/* Column j of the cross products (entries 0..j) into out, the rows of R
 * applied to a copy: G itself unchanged. */
void bsl_smc_gram_column(const smc_cache *C, size_t j, double *out);

int bsl_smc_particle_init(smc_particle *P, size_t kmax, const bsl_design *D,
                          const bsl_atom_source *src);
void bsl_smc_particle_free(smc_particle *P);
void bsl_smc_particle_copy(smc_particle *dst, const smc_particle *src);
/* Set an empty particle (k = 0, t = 0) with the given variances. */
void bsl_smc_particle_reset(smc_particle *P, double sigma2, double sigma_beta2);
/* k and centre from the model's active atoms. */
void bsl_smc_particle_sync(smc_particle *P);
static inline double smc_log_ml(const smc_particle *P) { return bsl_cmodel_log_ml(P->M); }
/* One step of Algorithm 1 for particle P after the cache took point t:
 * data update, move, weight increment, nuisance draws. r is P's generator,
 * already seeded for this step. */
void bsl_smc_particle_step(smc_particle *P, const smc_cache *C, const bsl_smc_options *o,
                           gsl_rng *r);

/* Initial variances: from the prior when it is proper (Algorithm 1's
 * initialisation), otherwise (Jeffreys) the configured starting values. */
void bsl_smc_initial_variances(const bsl_smc_options *o, gsl_rng *r, double *sigma2,
                               double *sigma_beta2);

/* Resample-move kernel (default): the weight pi_t(x')/pi_{t-1}(x') after
 * the point enters (O(k^2)), then, after resampling, moves_per_step
 * Metropolis-Hastings zero / birth / death moves invariant for pi_t and the
 * nuisance draws. */
void bsl_smc_particle_weigh(smc_particle *P, const smc_cache *C, const bsl_smc_options *o);
void bsl_smc_particle_move(smc_particle *P, const smc_cache *C, const bsl_smc_options *o,
                           gsl_rng *r);

/* Ancestor indices anc[0..N) from normalised weights W by the scheme. */
void bsl_smc_resample_indices(int scheme, const double *W, size_t N, gsl_rng *r, double *u,
                              size_t *anc);
/* Resample s's particles in place (uses s->master, seeded by the caller). */
void bsl_smc_resample(bsl_smc *s);

/* Normalised weights of s->p into s->W; returns the ESS (0 if all vanish). */
double bsl_smc_normalise(bsl_smc *s);

/* Allocate a system for (d, o) without any data (used by create and by
 * from_json). frozen (bsl_smc_from_json): no particle is made (from_json
 * makes each to its size) and no resampling set. */
int bsl_smc_alloc(bsl_smc **out, size_t d, const bsl_smc_options *o, int frozen, basel_error *err);

#endif
