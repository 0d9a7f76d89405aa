/*
 * rbf_chain.h: the state of one free-centre RBF chain, shared by
 * rbf_chain.c (design columns, factor, log target), rbf_moves.c (the
 * reversible-jump moves) and rbf.c (runs and results). Private to these
 * files.
 *
 * Invariant of a state s (k RBFs, m = q + k columns):
 *   cols[:, i] (n each) is column i of D: 0 the intercept, 1..d the inputs
 *     when linear_term, q + j the radial column of centre j (mu + j*d);
 *   chol is the Cholesky factor of D'D (m x m), z = L^{-1} D'Y (m x c,
 *     row-major z[i*c + o]), dty = D'Y in the same layout;
 *   log_lik is the integrated likelihood part of the target for the
 *     chain's current delta2 (anneal: -(n/2) sum_o log(y_o'P y_o)).
 * A move copies the current state into the spare one, edits the spare and
 * swaps the two on acceptance, so a rejected move costs no repair and no
 * allocation.
 */
#ifndef BSL_RBF_CHAIN_H
#define BSL_RBF_CHAIN_H

#include "rbf.h"

/* accepted moves between fresh factorisations of the current state */
#define BSL_RBF_REFRESH 256

typedef struct rbf_state {
    size_t k;
    double *mu;     /* kmax x d, row-major */
    size_t *cand;   /* kmax: candidate index of each centre (candidate mode) */
    double *cols;   /* n x cap, column-major */
    bsl_chol chol;  /* cap x cap */
    double *z;      /* cap x c */
    double *dty;    /* cap x c */
    double log_lik;
} rbf_state;

struct bsl_rbf_chain {
    const double *X, *Y;
    size_t n, d, c;
    bsl_rbf_options o;
    int mode;          /* bsl_rbf_mode */
    int discrete;      /* 1: centres restricted to o.candidates */
    size_t q, kmax, cap;
    double *lo, *side; /* the box, d each */
    double log_vol;    /* log |Lambda| */
    double zeta, log_ball; /* zeta*, log volume of the unit d-ball */
    double penalty;    /* anneal: C */
    bsl_dict *dict;    /* one radial atom whose centre we overwrite */
    rbf_state st[2];
    int cur;
    double *yy;        /* c: y_o'y_o */
    double *delta2;    /* c */
    double lambda;
    size_t since_refresh;
    /* scratch, sized at create time */
    double *gram;      /* cap x cap */
    double *g, *v, *w; /* cap each */
    double *col;       /* n */
    double *u;         /* 4 d: proposal centres and the split direction */
    unsigned char *is_cand_active; /* ncand */
    double proposed[BSL_RBF_NMOVES], accepted[BSL_RBF_NMOVES];
};

/* rbf_chain.c */
void rbf_state_copy(const bsl_rbf_chain *ch, rbf_state *dst, const rbf_state *src);
/* Append a centre (cand: its candidate index or 0). -1 if k == kmax or the
 * new column is collinear with the others (relative Schur complement below
 * BSL_RANK_TOL). O(n m + m^2). */
int rbf_state_append(bsl_rbf_chain *ch, rbf_state *s, const double *mu, size_t cand);
/* Remove centre j (0 <= j < k). O(n k + k^2). */
void rbf_state_remove(const bsl_rbf_chain *ch, rbf_state *s, size_t j);
/* Recompute s from its centres (columns, D'D, factor, z). BASEL_ENUMERIC
 * if D'D is not positive definite. */
int rbf_state_refresh(bsl_rbf_chain *ch, rbf_state *s);
/* Set s->log_lik from z and the chain's delta2. */
void rbf_state_loglik(const bsl_rbf_chain *ch, rbf_state *s);
/* log prior weight of k (see rbf_moves.c): the part of the log target that
 * is not log_lik. */
double rbf_log_kprior(const bsl_rbf_chain *ch, size_t k);
static inline double rbf_log_target(const bsl_rbf_chain *ch, const rbf_state *s)
{
    return s->log_lik + rbf_log_kprior(ch, s->k);
}
/* number of usable centre positions in candidate mode, else kmax */
size_t rbf_kmax(const bsl_rbf_chain *ch);

/* rbf_moves.c */
void rbf_hyper_step(bsl_rbf_chain *ch, gsl_rng *r);

#endif
