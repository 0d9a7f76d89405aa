/*
 * smc_impl.h: the insides of the sequential RVM (smc.h), shared by
 * smc.c (lifecycle, candidate cache, the step loop), smc_moves.c (one
 * particle's step and its importance weight), smc_resample.c, smc_predict.c
 * and smc_json.c. Not for other modules.
 *
 * Invariants between calls:
 *  - cache: m = min(t, mcap) candidates, x and y of the first m points;
 *    Kc[c + c' mcap] = K(x_c, x_c') for c, c' < m; G (upper triangle,
 *    column-major, ld mcap) = sum over all t points of K(x_s, c) K(x_s, c');
 *    s1[c] = sum_s K(x_s, c); sy[c] = sum_s K(x_s, c) y_s; sum_y, yy.
 *  - particle: chol is the factor of M_S = K_S'K_S + rho I over the t points
 *    (order k + 1, column 0 the intercept, column j + 1 the kernel at
 *    candidate centre[j]); z = L^{-1} K_S'Y; log_ml = log p(Y_t | S, sigma2,
 *    sigma_beta2) (paper 003 eq. 3 before normalisation); centres distinct.
 */
#ifndef BSL_SMC_IMPL_H
#define BSL_SMC_IMPL_H

#include "smc.h"
#include "../../linalg/linalg.h"

#include <gsl/gsl_rng.h>

/* drift bound: refactorise a particle after this many O(k^2) updates */
#define SMC_REFACTOR_EVERY 256

typedef struct smc_cache {
    size_t d, mcap, m, t;
    double width;
    double *xc;   /* mcap x d, row-major */
    double *yc;   /* mcap */
    double *Kc;   /* mcap x mcap */
    double *G;    /* mcap x mcap, upper triangle */
    double *s1, *sy; /* mcap */
    double sum_y, yy;
    double *row;  /* mcap: K(x_t, c) for the point being fed */
    double y_t;
} smc_cache;

typedef struct smc_particle {
    size_t k;
    size_t *centre;     /* kmax */
    bsl_chol chol;      /* cap kmax + 1 */
    double *z;          /* kmax + 1 */
    double *beta;       /* kmax + 1: last draw of eq. (4) */
    double sigma2, sigma_beta2;
    double log_w;       /* unnormalised log weight */
    double log_ml;
    size_t since_refactor;
    double p_new;       /* move kernel: P(new candidate enters | x') this step */
    double *work;       /* (kmax + 1)^2 + 3 (kmax + 1) scratch */
} smc_particle;

struct bsl_smc {
    bsl_smc_options o;
    smc_cache cache;
    smc_particle *p, *q;  /* current system and the resampling buffer */
    gsl_rng **rng;        /* one per particle slot */
    gsl_rng *master;      /* resampling */
    double *W;            /* N normalised weights */
    double *u;            /* N scratch for resampling */
    size_t *anc;          /* N ancestors */
    size_t n_resample;
};

/* K(a, b) for d-vectors: exp(-|a - b|^2 / (2 r^2)), the gauss atom of
 * basis/dict.c. */
double bsl_smc_kernel(const double *a, const double *b, size_t d, double width);
/* G[c, c'] from the upper triangle. */
static inline double smc_gram(const smc_cache *C, size_t a, size_t b)
{
    return a <= b ? C->G[a + b * C->mcap] : C->G[b + a * C->mcap];
}

int bsl_smc_particle_init(smc_particle *P, size_t kmax);
void bsl_smc_particle_free(smc_particle *P);
void bsl_smc_particle_copy(smc_particle *dst, const smc_particle *src);
/* Set an empty particle (k = 0, t = 0) with the given variances. */
void bsl_smc_particle_reset(smc_particle *P, double sigma2, double sigma_beta2);
/* Rebuild the factor and z from the cache (O(k^3)); BASEL_ENUMERIC if not
 * positive definite. Recomputes log_ml. */
int bsl_smc_particle_refactor(smc_particle *P, const smc_cache *C);
double bsl_smc_particle_log_ml(const smc_particle *P, const smc_cache *C);
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
 * from_json). */
int bsl_smc_alloc(bsl_smc **out, size_t d, const bsl_smc_options *o, basel_error *err);

#endif
