/*
 * rbf_result.h: the fitted free-centre RBF network(s) behind the opaque
 * bsl_rbf_result (rbf.h); private to rbf.c, rbf_predict.c and rbf_json.c.
 *
 * Every network is a "draw": k centres, the coefficients (m = q + k rows,
 * c columns, row-major), the packed lower Cholesky factor of D'D (for the
 * leverage h = |L^{-1} d(x)|^2 of a new point) and, per output, the
 * shrinkage s (1 for least squares) and the Student-t predictive scale^2
 * and degrees of freedom:  y(x) ~ t_dof(d(x)'coef, scale2 (1 + s h)).
 * anneal keeps one draw (the best network, least squares, dof = n - m);
 * rj keeps up to o.keep draws (conjugate posterior given mu and delta^2,
 * dof = 2 a0 + n) and averages them.
 */
#ifndef BSL_RBF_RESULT_H
#define BSL_RBF_RESULT_H

#include "rbf.h"

typedef struct rbf_draw {
    size_t k;
    double *centres; /* k x d */
    double *coef;    /* m x c */
    double *lpk;     /* m (m + 1) / 2, column-major packed lower */
    double *shrink;  /* c */
    double *scale2;  /* c */
    double dof;
    double width;    /* the gauss width of this network (sampled widths: its own) */
} rbf_draw;

struct bsl_rbf_result {
    int mode, radial, linear_term, criterion;
    double width;          /* fixed: the width; sampled: anneal's best, rj's mean over kept draws */
    int sample_width;      /* 1: every draw carries its own width */
    double width_lo, width_hi;             /* its prior's range */
    double width_proposed, width_accepted; /* its move's counts, summed over chains */
    size_t n, d, c, q, kmax;
    double *lo, *side;     /* the box (d each) */
    size_t ndraws;
    rbf_draw *draws;
    double score;          /* anneal: best criterion */
    double *k_post;        /* rj: kmax + 1 */
    double moves_per_sec, seconds;
    double proposed[BSL_RBF_NMOVES], accepted[BSL_RBF_NMOVES];
    unsigned long seed;
    size_t iter, burn, chains;
    double k_rhat, k_ess_bulk, k_ess_tail; /* rj: convergence of k (NaN: none) */
    size_t k_draws;        /* rj: snapshots of k per chain behind them */
    /* a fit of an interrupted run (chains.h cs->partial): moves done and
     * planned over all chains; iter_planned 0 otherwise */
    double iter_done, iter_planned;
};

/* allocate draw arrays for k centres (d inputs, c outputs, q always-in) */
int rbf_draw_alloc(rbf_draw *dr, size_t k, size_t d, size_t c, size_t q);
void rbf_draw_free(rbf_draw *dr);
bsl_rbf_result *rbf_result_new(void);

#endif
