/*
 * prior.h: priors over active sets (DESIGN.md "Model prior"). Each gives the
 * log prior probability of ONE particular subset of size k among m atoms;
 * sizes outside [kmin, kmax] have probability zero (-inf).
 *   uniform        every subset equally likely: 0 (up to a constant);
 *   poisson:mean=w truncated Poisson on the size, uniform choice of atoms
 *                  given the size (paper 004 eqs. 21, 23):
 *                  k log w - log k! - log C(m, k);
 *   bernoulli:p=p  independent inclusion: k log p + (m - k) log(1 - p);
 *   beta-binomial:a=a,b=b  inclusion probability ~ Beta(a, b) integrated:
 *                  log B(a + k, b + m - k) - log B(a, b).
 * The normalising constant of the truncation is the same for every subset,
 * so it is left out: engines and enumeration only use differences.
 */
#ifndef BSL_PRIOR_H
#define BSL_PRIOR_H

#include "../core/spec.h"

typedef enum bsl_mprior_kind {
    BSL_MPRIOR_UNIFORM = 0,
    BSL_MPRIOR_POISSON = 1,
    BSL_MPRIOR_BERNOULLI = 2,
    BSL_MPRIOR_BETABIN = 3
} bsl_mprior_kind;

#define BSL_MPRIOR_NAMES "uniform, poisson, bernoulli, beta-binomial"

typedef struct bsl_mprior {
    bsl_mprior_kind kind;
    size_t m, kmin, kmax;
    double mean;   /* poisson */
    double p;      /* bernoulli */
    double a, b;   /* beta-binomial */
} bsl_mprior;

/* Parse --model-prior for m atoms ("" = uniform). kmin/kmax are set by the
 * caller afterwards (defaults 0 and m). */
int bsl_mprior_parse(bsl_mprior *mp, const char *spec, size_t m, basel_error *err);
/* log prior of one subset of size k. */
double bsl_mprior_log(const bsl_mprior *mp, size_t k);
/* Text form, e.g. "poisson:mean=3". */
void bsl_mprior_describe(const bsl_mprior *mp, char *buf, size_t len);

#endif
