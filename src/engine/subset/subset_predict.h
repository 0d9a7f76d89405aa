/*
 * subset_predict.h: what the subset engines' predictions and coefficient
 * tables on demand read of a FIT.json (one header for the four files):
 *   subset_predict.c  the entry (bsl_subset_predict, by family) and the
 *                     context every prediction reads: the dictionary, the
 *                     always-in columns at the new rows, one model's block,
 *                     the model average's refitted posterior set;
 *   pred_gauss.c      Gaussian fits: one model's Student-t, the model
 *                     average's mean and its interval, a mixture of t's;
 *   pred_glm.c        binomial, poisson and multinomial fits;
 *   coef_on_demand.c  a model's coefficient table at another level, and
 *                     its terms' densities (bsl_subset_model_coef,
 *                     bsl_subset_coef_density).
 * The functions returning int give 0, -1 (the document is malformed) or -2
 * (out of memory) unless they take a basel_error, which then says which
 * (bsl_pred_has_len: 1 or 0).
 */
#ifndef BSL_SUBSET_PREDICT_H
#define BSL_SUBSET_PREDICT_H

#include "subset.h"
#include "subset_post.h"
#include "../../basis/basis.h"
#include "../../core/jsonutil.h"
#include "../../problem/problem.h"

/* Everything a subset-engine predictor needs besides its own block. */
typedef struct bsl_pred_ctx {
    bsl_dict *dict;
    size_t n, m, q, c;
    const double *X;
    double *gB;   /* m x q */
    double *R;    /* q x q */
    double *gy;   /* q x c */
    double *Z;    /* n x q always-in columns at the new points */
    double *zvar; /* n: z' (Z'Z)^{-1} z */
    double *col;  /* n scratch */
    double *t;    /* q scratch */
} bsl_pred_ctx;

/* One single-model predictor block (subset.c's model_predictor), read and
 * checked: its atoms, coefficients beta (k x c) and always-in gamma
 * (q x c), the scale^2 of its Student-t ("scale2", with "df") or, in older
 * fits, E[sigma^2] ("sigma2", df INFINITY: Gaussian), and V (k x k).
 * What predict and the model's coefficient table (bsl_subset_model_coef)
 * both read. */
typedef struct bsl_pred_model {
    size_t k;
    size_t *atoms;
    double *beta, *gam, *s2, *V;
    double df;
} bsl_pred_model;

/* The refitted models of a posterior block (subset_post.h): their atoms
 * (local indices into the block's atoms), posteriors and weights. */
typedef struct bsl_pred_set {
    bsl_design D;        /* the kept atoms' projected Gram block */
    size_t u, K, kmax;
    size_t *uni;         /* u global atom indices */
    size_t *off, *atoms; /* model r: atoms[off[r] .. off[r+1]) (local) */
    size_t *voff;        /* model r's V at V + voff[r] */
    double *w;           /* K, normalised */
    double *beta, *V, *scale2, *df; /* per model: k x c, k^2, c, 1 */
    double *shrink;      /* K: s of V = s A_tau^{-1} (subset_post.c) */
    double tau;          /* of A_tau = G + tau I */
    bsl_coef_prior prior; /* the refits' */
} bsl_pred_set;

/* 1 if a is an array of exactly n1 * n2 entries */
int bsl_pred_has_len(const json_t *a, size_t n1, size_t n2);
/* The context of the document's basis block at the n rows X (n x d,
 * column-major; X NULL and n 0 for a coefficient table). v is to be freed
 * (bsl_pred_ctx_free) whatever the outcome. */
int bsl_pred_ctx_init(bsl_pred_ctx *v, const json_t *doc, const double *X, size_t n, size_t d, basel_error *err);
void bsl_pred_ctx_free(bsl_pred_ctx *v);
/* The projected columns x~ of atoms (k) at the context's rows: n x k into Bt */
int bsl_pred_columns(bsl_pred_ctx *v, const size_t *atoms, size_t k, double *Bt);
/* One model's predictor block; b is to be freed (bsl_pred_model_free) either way */
int bsl_pred_model_read(const bsl_pred_ctx *v, const json_t *blk, bsl_pred_model *b);
void bsl_pred_model_free(bsl_pred_model *b);
/* The model average's posterior block (bma.posterior), every kept model
 * refitted exactly as the fit did; s is to be freed (bsl_pred_set_free)
 * either way */
int bsl_pred_set_read(bsl_pred_set *s, bsl_pred_ctx *v, const json_t *post);
void bsl_pred_set_free(bsl_pred_set *s);
/* The error for a fit without the predictor `model` */
int bsl_pred_no_predictor(const json_t *doc, const char *model, basel_error *err);
/* The name of the document's coefficient prior (into name, len bytes) when
 * a model's posterior under it is a mixture over g (hyper-g, jzs, ...),
 * whose intervals and densities are not computed; NULL otherwise */
const char *bsl_pred_mixture_over_g(const json_t *doc, char *name, size_t len);

/* A Gaussian fit's predictor `model` (blk) at the context's rows, at level
 * (pred_gauss.c) */
int bsl_pred_gauss(bsl_pred_ctx *v, const json_t *doc, const json_t *blk, const char *model, double level,
                   basel_pred *p, basel_error *err);
/* The GLM families' (pred_glm.c): a new count's mean and interval
 * (poisson), class probabilities and classes (binomial, multinomial) */
int bsl_pred_counts(bsl_pred_ctx *v, const json_t *blk, double level, basel_pred *p, basel_error *err);
int bsl_pred_binomial(bsl_pred_ctx *v, const json_t *doc, const json_t *blk, basel_pred *p, basel_error *err);
int bsl_pred_multinomial(bsl_pred_ctx *v, const json_t *doc, const json_t *blk, basel_pred *p, basel_error *err);

#endif
