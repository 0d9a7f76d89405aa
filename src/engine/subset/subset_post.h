/*
 * subset_post.h: the closed-form posterior of one subset model, and what the
 * subset engines build from it over every visited model (subset_post.c):
 * the coefficient table, the listed models' marginal likelihoods, and the
 * Student-t mixtures behind model-averaged intervals. Internal to the
 * subset engines (subset.c, and the predictions of subset_predict.h) and
 * their tests.
 */
#ifndef BSL_SUBSET_POST_H
#define BSL_SUBSET_POST_H

#include "subset.h"
#include "../../summary/tmix.h"

#include <math.h>

struct bsl_problem;

/* One model's coefficients with sigma^2 integrated out: the projected atom
 * coefficients are Student-t with location beta, scale^2 scale2_o V and df
 * degrees of freedom (df = INFINITY: Gaussian). See subset_post.c. */
typedef struct bsl_post {
    size_t k, c;
    double *beta;   /* k x c row-major */
    double *V;      /* k x k column-major (leading dimension k) */
    double *scale2; /* c */
    double df;
    double shrink;  /* s of V = s A_tau^{-1} and beta = s A_tau^{-1} b (subset_post.c) */
    /* workspace */
    double *quad;   /* c: b' A_tau^{-1} b */
    bsl_chol chol;
} bsl_post;

int bsl_post_init(bsl_post *p, size_t kmax, size_t c);
void bsl_post_free(bsl_post *p);
/* The posterior of the model atoms[0..k) of M's design and prior into p:
 * from a fresh factorisation of the dense Gram block (M untouched), or,
 * when the design streams its columns, by making M hold exactly those atoms. With bas_sd, scale2 is BAS's per-model OLS variance
 * RSS/(N - k) (its coef() convention) in place of the posterior scale.
 * BASEL_ENUMERIC when the set is collinear. */
int bsl_post_of(bsl_post *p, bsl_model *M, const size_t *atoms, size_t k, int bas_sd);

/* The components of every term of output o of one model (posterior p,
 * atoms A, weight w) into cp (coef_table.h): terms 0..q-1 the always-in
 * columns on the original scale (0 the intercept, l >= 1 input l - 1),
 * q + j atom j, at o * nterm + term. D needs only q, c, gy, gB and R (the
 * engine block's basis: what a model's coefficients need after the fit);
 * mu and sc are the inputs' standardisation (a linear atom j is input j);
 * u, t (q) and x (k) are scratch. q is at most 64 (the callers check). */
struct bsl_coef_comps;
/* What bsl_post_terms and coef_shared.c share of that transformation:
 * u (q), the intercept of the original inputs as a combination of the
 * always-in coefficients (u_0 = 1, u_l = -mu_{l-1} / sc_{l-1}); a linear
 * atom's shift ub = -mu_j / sc_j (0 for other atoms); and BAS's per-model
 * scale^2 RSS / (N - k) (its coef(): bas_sd). */
static inline void bsl_post_intercept_u(size_t q, const double *mu, const double *sc, double *u)
{
    u[0] = 1;
    for (size_t l = 1; l < q; l++) u[l] = -mu[l - 1] / sc[l - 1];
}
static inline double bsl_post_atom_shift(int linear, const double *mu, const double *sc, size_t j)
{
    return linear ? -mu[j] / sc[j] : 0.0;
}
static inline double bsl_post_bas_scale2(double yy, double quad, double N, double k)
{
    return fmax(yy - quad, 0.0) / fmax(N - k, 1);
}
void bsl_post_terms(struct bsl_coef_comps *cp, size_t o, size_t nterm, const bsl_design *D, const bsl_post *p,
                    const size_t *A, double w, const double *mu, const double *sc, int linear, double *u,
                    double *x, double *t);

/* A Gram block and what the per-model algebra reads with it
 * (coef_shared.c): the block G (column-major, leading dimension ld) and
 * B'y (nloc x c) of nloc atoms, their global indices glob (NULL: the
 * same), tau of A_tau, the prior, N = n - q, yy (c) and bas_sd
 * (bsl_post_of's). */
typedef struct bsl_coef_gram {
    const double *G;
    size_t ld;
    const double *Bty;
    const size_t *glob;
    size_t nloc;
    double tau;
    const bsl_coef_prior *prior;
    double N;
    const double *yy;
    int bas_sd;
    /* with G NULL: the streaming design whose columns give the products
     * (its diag the diagonal), and the summaries' store of columns and
     * products (model.h bsl_colstore; NULL: each computed) */
    const bsl_design *stream;
    bsl_colstore *cols;
} bsl_coef_gram;

/* Every term's components of the K models atoms[r][0..ks[r]) (local
 * indices, weight wt[r]) into cp, as bsl_post_of and bsl_post_terms give
 * them model by model, to rounding: the models share the rows of their
 * common prefixes (coef_shared.c). D needs q, c, gy, gB and R (as
 * bsl_post_terms); cp is allocated with the caller's counts (each term's:
 * one component per model that holds it), which also give the atoms'
 * order. A model with an atom
 * whose variance inflation is near 1 / BSL_RANK_TOL or beyond gives nothing
 * (the engines give it probability 0: model.h). BASEL_ENOMEM;
 * BASEL_EINVAL when q is 0 or above 64. */
int bsl_coef_comps_shared(struct bsl_coef_comps *cp, size_t nterm, const bsl_design *D, const bsl_coef_gram *gm,
                          size_t K, const size_t *const *atoms, const size_t *ks, const double *wt,
                          const double *mu, const double *sc, int linear);

/* The coefficient table (FIT.json "coefficients") on the inputs' original
 * scale: for every target, the intercept, the always-in inputs and every
 * atom, each with its PIP, its model-averaged mean and sd, its mean and sd
 * given inclusion, and the equal-tailed interval at level from the mixture
 * over the visited models (the table's shared part: coef_table.h). bas_sd
 * uses BAS's per-model sd (tests). NULL on failure (err set). */
json_t *bsl_subset_coefficients(const bsl_vs_problem *pb, const struct bsl_problem *P,
                                const bsl_dict *dict, const bsl_vs_result *vr,
                                const char *const *atom_names, double level, int bas_sd,
                                basel_error *err);

/* The GLM's coefficient table (FIT.json "coefficients"; subset_glm_coef.c):
 * per term the fit's PIP and the model-averaged mean, sd and level interval
 * from the per-model Laplace approximations of the model average's block
 * bma (engine.predictor.bma), on the inputs' original scale; within_model:
 * what each model's normal is (the table's key: "laplace", or glm.h's
 * BSL_GLM_GTYPE_WITHIN). NULL on failure (err set). */
json_t *bsl_subset_glm_coefficients(const struct bsl_problem *P, const bsl_dict *dict, const bsl_vs_result *vr,
                                    const json_t *bma, const char *const *atom_names, double level,
                                    const char *within_model, basel_error *err);
/* The multinomial fit's table (subset_multi_coef.c): per class besides the
 * reference its intercept and each input's coefficient (names "level:input",
 * key "class"), from the joint models' Laplace approximations in avg
 * ({covered, models: [{atoms, weight, mode, factor}]}, subset_multi.c). */
json_t *bsl_subset_multi_coefficients(const struct bsl_problem *P, const bsl_vs_result *vr, const json_t *avg,
                                      const char *const *atom_names, double level, basel_error *err);
/* Whether a Gaussian fit's kept draws get their values (subset_draws.c):
 * one target, a prior whose within-model posterior is the Student-t of
 * post_df and post_scale2 exactly (within_model NULL), no sampled nuisance,
 * and the rows in the design. */
int bsl_subset_draws_possible(const bsl_vs_problem *pb);
/* Each of vr's kept draws' sigma^2, coefficients on the original scale and
 * log-likelihood, and with pointwise each training row's log-likelihood,
 * drawn from their conditional posterior given the draw's model with a
 * generator of their own seeded from seed (summary.h's draw_value_names, draw_fixed,
 * draw_coef, draw_loglik; subset_draws.c). Streamed draws get theirs at
 * the ends of their rows, written again to new temporary files, and the
 * pointwise values go to a temporary file (summary.h nvalues,
 * loglik_spill): memory stays flat. Nothing when not
 * bsl_subset_draws_possible. BASEL_ENOMEM, BASEL_EIO, BASEL_ENUMERIC (err
 * set; the fit fails). */
int bsl_subset_draw_values(const bsl_vs_problem *pb, const struct bsl_problem *P, const bsl_dict *dict,
                           const char *const *atom_names, bsl_vs_result *vr, unsigned long seed, int pointwise,
                           basel_error *err);

/* log p(y | M) for the atoms[0..k) under pb's prior (the score the engines
 * use; BAS's logmarg for the g-prior), -INFINITY when collinear. */
double bsl_subset_log_ml(bsl_model *M, const size_t *atoms, size_t k);

/* The model-averaged predictive's block (engine.predictor.bma.posterior):
 * the prior's numbers, the visited models by decreasing weight until they
 * hold all but 1e-6 of the weight (or their atoms reach a cap), their
 * weights, and the projected Gram block of their atoms, from which predict
 * refits each model exactly. NULL on failure. */
json_t *bsl_subset_posterior_block(const bsl_vs_problem *pb, const bsl_vs_result *vr,
                                   basel_error *err);

#endif
