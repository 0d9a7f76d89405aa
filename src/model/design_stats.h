/*
 * design_stats.h: a design from summary statistics, without any X.
 *
 * The collapsed linear models (model.h) read a design only through
 *   G = B'P B,  Bty = B'P y,  yy = y'P y,  n  (and q, the always-in count),
 * where P = I - 1 1'/n projects out the intercept (design.h). For the
 * linear dictionary B = X, so these are the CENTRED cross products
 *   G_ij = sum_r (x_ri - xbar_i)(x_rj - xbar_j),  Bty_j = sum_r (x_rj - xbar_j)(y_r - ybar),
 *   yy   = sum_r (y_r - ybar)^2,
 * and a design made from them gives every model the same marginal
 * likelihoods as the design made from the rows (up to rounding in the
 * last digits: the sums are formed in a different order). The intercept is
 * always in, under its flat prior, exactly as with data: q = 1, and the
 * always-in coefficients (design.h's gB, gy) are the means, which a fit
 * needs only to predict (0 when the statistics carry no means).
 *
 * The Gram matrix is always dense (m x m): nothing can be streamed, there
 * are no columns.
 */
#ifndef BSL_DESIGN_STATS_H
#define BSL_DESIGN_STATS_H

#include "design.h"

typedef struct bsl_stats {
    size_t n, p;     /* rows behind the statistics, inputs */
    double *xtx;     /* p x p centred cross products, column-major */
    double *xty;     /* p centred cross products with the target */
    double yty;      /* centred sum of squares of the target */
    double *x_mean;  /* p means, or NULL when not given */
    double y_mean;   /* the target's mean (0 when not given) */
} bsl_stats;

void bsl_stats_free(bsl_stats *S); /* the arrays; NULL-safe */

/* The design of the linear dictionary dict (m = S->p, no linear term) from
 * S alone; borrows dict, copies what it needs from S. EINVAL for another
 * dictionary or too few rows, ENOMEM. */
int bsl_design_create_stats(bsl_design **out, const bsl_dict *dict, const bsl_stats *S, basel_error *err);

#endif
