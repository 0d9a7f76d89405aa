/*
 * rbf_chain.h: the state of one free-centre RBF chain, shared by
 * rbf_chain.c (the centres and their models, the log target), rbf_moves.c
 * (the reversible-jump moves) and rbf.c (runs and results). Private to these
 * files.
 *
 * Invariant of a state s (k RBFs, m = q + k columns):
 *   the design D = [1, x (if linear_term), phi(|x - mu_j|)...] is seen by
 *     one collapsed Gaussian model of all c outputs (model/model.h, the
 *     model table: one factor and one set of columns, z and the scores per
 *     output), on a plain design (no projection: the constant and linear
 *     columns are atoms 0..q-1, always active, under the coefficient prior
 *     like the radial ones) whose atoms come from the state itself
 *     (bsl_atom_source): atom q + l is the radial column of slot l's centre
 *     slot_mu[l]; centre j of mu sits in slot id[j] - q, and the models'
 *     active order is [0..q-1, id[0], ..., id[k-1]], D's column order;
 *   the model holds each output's coefficient prior: the g-prior with g =
 *     delta_o^2 and sigma_o^2 ~ IG(a0, b0) (rj), or the least-squares
 *     criterion without its penalty (anneal: the penalty is in the k prior);
 *   log_lik is the model's log marginal, summed over outputs (anneal: -(n/2) sum_o
 *     log(y_o'P y_o)), up to a constant of the data.
 * A move copies the current state into the spare one, edits the spare and
 * swaps the two on acceptance, so a rejected move costs no repair and no
 * allocation.
 */
#ifndef BSL_RBF_CHAIN_H
#define BSL_RBF_CHAIN_H

#include "rbf.h"
#include "../../model/model.h"

/* accepted moves between fresh factorisations of the current state */
#define BSL_RBF_REFRESH 256

typedef struct rbf_state {
    size_t k;
    double *mu;     /* kmax x d, row-major */
    size_t *cand;   /* kmax: candidate index of each centre (candidate mode) */
    size_t *id;     /* kmax: model atom id of each centre (q + its slot) */
    double *slot_mu;           /* (kmax + 1) x d: the centre of each slot */
    unsigned char *slot_used;  /* kmax + 1 */
    bsl_cmodel *M;             /* the model of all c outputs (one factor) */
    const struct bsl_rbf_chain *ch; /* the atom source's context, with this state */
    double *last_col;          /* n: the last radial column evaluated (try_add */
    long last_id;              /* and add ask for it), -1 = none */
    double width;              /* the gauss width of every centre (sampled: rbf_moves.c) */
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
    bsl_design *D;     /* the plain design of the c targets */
    double *delta2;    /* c: the current models' g (rj) */
    double lambda;
    size_t since_refresh;
    /* scratch, sized at create time */
    double *w;         /* cap (cap + 1) / 2: packed factor, coefficients */
    double *col;       /* n */
    double *u;         /* 4 d: proposal centres and the split direction */
    unsigned char *is_cand_active; /* ncand */
    double proposed[BSL_RBF_NMOVES], accepted[BSL_RBF_NMOVES];
    size_t width_clock;                    /* steps since the last width move */
    double width_proposed, width_accepted; /* its counts */
};

/* rbf_chain.c */
void rbf_state_copy(const bsl_rbf_chain *ch, rbf_state *dst, const rbf_state *src);
/* Append a centre (cand: its candidate index or 0). -1 if k == kmax or the
 * new column is collinear with the others (relative Schur complement below
 * RBF_RANK_TOL). O(c (n m + m^2)). */
int rbf_state_append(bsl_rbf_chain *ch, rbf_state *s, const double *mu, size_t cand);
/* Column of model atom id of s (0: the constant, 1..d: the inputs with the
 * linear term, q + l: the radial column of slot l) at the n points. */
void rbf_state_column(const rbf_state *s, size_t id, double *out);
/* Remove centre j (0 <= j < k). O(n k + k^2). */
void rbf_state_remove(const bsl_rbf_chain *ch, rbf_state *s, size_t j);
/* Rebuild s's models from its centres mu[0..k) and the chain's current Y
 * (fresh columns and factors). BASEL_ENUMERIC if D'D is not of full rank. */
int rbf_state_refresh(bsl_rbf_chain *ch, rbf_state *s);
/* Set s->log_lik from the models. */
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
