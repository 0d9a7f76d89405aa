/*
 * tmix.h: quantiles of a mixture of Student-t (and normal) components with
 * a point mass at 0: the model-averaged intervals of the coefficient tables
 * (engine/subset/coef_table.c), of the subset engines' predictions
 * (pred_gauss.c) and of the RBF networks' (rbf_predict.c). tmix.c says
 * how they are found and how close they are to the exact ones. Internal to
 * the library.
 */
#ifndef BSL_TMIX_H
#define BSL_TMIX_H

#include <stddef.h>

/* A mixture of Student-t components (weights w summing to 1 - w0) and a
 * point mass w0 at 0; df[i] = INFINITY is a normal, s[i] = 0 a point mass
 * at mu[i]. */
typedef struct bsl_tmix {
    const double *w, *mu, *s, *df;
    size_t K;
    double w0;
} bsl_tmix;

/* The share of a mixture's weight a quantile may leave out: the smallest
 * components are dropped while their weights sum to at most this share of
 * the total (FIT.json coefficients.interval_pruned, docs/FIT.md). It moves
 * a quantile by at most about 2 BSL_TMIX_PRUNED / (the mixture's density
 * there): 3e-13 sd for a near-normal mixture at the 2.5 % quantile. */
#define BSL_TMIX_PRUNED 1e-14

/* What the quantiles of many mixtures share: the CDF tables of the degrees
 * of freedom met so far (one per distinct df, built on first use) and the
 * scratch that holds a mixture's kept components. Zero-initialise
 * (bsl_tmix_ws ws = {0}), pass to every quantile, free once. Memory is taken
 * as needed; when it cannot be, the quantile is NaN and oom is set: the
 * caller reports out of memory. (Falling back to GSL's CDFs would answer
 * within the tolerance but not to the bit, and a fit that absorbs a failed
 * allocation must write what it writes without one: test_alloc_failures.)
 * One workspace per thread. */
#define BSL_TMIX_TABLES 32
typedef struct bsl_tmix_ws {
    double nu[BSL_TMIX_TABLES]; /* the table's df (INFINITY: normal) */
    double *table[BSL_TMIX_TABLES];
    size_t ntable;
    size_t cap;
    double *w, *mu, *is; /* kept components, grouped by df: weight, location, 1/scale */
    size_t *bins;        /* scratch of the pruning pass */
    double *bin_w;
    int oom; /* a quantile could not have its memory: it is NaN */
    int fixed;                /* bsl_tmix_ws_fixed was called */
    struct tmix_plan *plan;   /* the pruning and grouping of fixed weights */
} bsl_tmix_ws;
void bsl_tmix_ws_free(bsl_tmix_ws *ws);
/* Promise that every mixture given with ws from now until
 * bsl_tmix_ws_free has the same w, df, K and w0, only its locations and
 * scales changing (a prediction's rows: the models' weights and df are
 * the rows' common ones). The pruning and the grouping by df, which
 * depend on nothing else, are then done at the first call and reused:
 * the same bits, and each later call's preparation only gathers the kept
 * components' locations and scales. */
void bsl_tmix_ws_fixed(bsl_tmix_ws *ws);

/* inf { x : F(x) >= p } for 0 < p < 1, F the mixture's CDF after pruning
 * (BSL_TMIX_PRUNED), to 1e-13 of max(|x|, the mixture's spread) beyond the
 * pruning's own effect. ws may be NULL (no tables: each CDF from GSL). NaN
 * when the weights are not positive, or when ws's memory could not be had
 * (ws->oom set). */
double bsl_tmix_quantile(const bsl_tmix *t, double p, bsl_tmix_ws *ws);
/* The np <= BSL_TMIX_MAXQ quantiles at p[0..np-1] into out, each the same
 * bits as bsl_tmix_quantile's: an interval's two ends share the moments,
 * the pruning, the grouping and every pass over the components. */
#define BSL_TMIX_MAXQ 4
void bsl_tmix_quantiles(const bsl_tmix *t, const double *p, size_t np, double *out, bsl_tmix_ws *ws);

/* The density at x of the mixture's continuous part, sum_i w_i t_nu_i((x -
 * mu_i)/s_i)/s_i (it integrates to the weights' total, not to 1; the mass
 * w0 at 0 and components with s_i = 0 are point masses, not densities). */
double bsl_tmix_density(const bsl_tmix *t, double x);

#endif
