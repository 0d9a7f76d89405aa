/*
 * coef_table.h: what the three coefficient tables (FIT.json "coefficients",
 * docs/FIT.md) share: the Gaussian fits' (subset_post.c), the binomial and
 * Poisson fits' (subset_glm_coef.c) and the multinomial fits'
 * (subset_multi_coef.c). Each table is, per term, a mixture over the
 * models that hold the term of one component per model (weight, location,
 * scale, degrees of freedom) and a point mass 1 - PIP at 0; the tables
 * differ only in where a model's components come from (a closed-form
 * Student-t posterior, or a Laplace approximation). So the components'
 * storage, a term's row and the table's block are here, once
 * (coef_table.c), and each table keeps only its own per-model algebra.
 * Internal to the subset engines.
 */
#ifndef BSL_COEF_TABLE_H
#define BSL_COEF_TABLE_H

#include "../../core/jsonutil.h"
#include "../../summary/tmix.h"

/* The components of every term, term by term: term t's are
 * [off[t], off[t] + fill[t]) of w, mu, s, df. Filled in two passes: count
 * each term's components into off (bsl_coef_comps_init zeroes them), turn
 * the counts into offsets and allocate (bsl_coef_comps_alloc), then push
 * them. */
typedef struct bsl_coef_comps {
    size_t nterm, total; /* terms; components (bsl_coef_comps_alloc) */
    size_t *off, *fill;
    double *w, *mu, *s, *df;
    bsl_tmix_ws ws; /* the terms' quantiles share it (tmix.h) */
    /* values the rows share (jansson counts references): a row's zeros
     * and its target's name, made once a table; at p = 10^6, 200 MB of a
     * table's 1 GB of rows, most of them terms no visited model holds */
    json_t *zero, *target;
    const char *target_text;
} bsl_coef_comps;

/* nterm terms, no components counted yet. BASEL_ENOMEM on failure (cp can
 * still be freed). */
int bsl_coef_comps_init(bsl_coef_comps *cp, size_t nterm);
/* The counts in off to offsets, and room for their total. BASEL_ENOMEM on
 * failure. */
int bsl_coef_comps_alloc(bsl_coef_comps *cp);
/* One model's component of term: weight w, location mu, variance var (its
 * scale is sqrt(max(var, 0)): rounding may leave a zero variance slightly
 * negative), df degrees of freedom (INFINITY: a normal). */
void bsl_coef_comps_push(bsl_coef_comps *cp, size_t term, double w, double mu, double var, double df);
void bsl_coef_comps_free(bsl_coef_comps *cp);

/* |L^-1 u|^2 = u' (L L')^-1 u for the d x d lower triangular L,
 * column-major, by forward substitution (v = L^-1 u: d scratch). The GLM
 * tables: L the Cholesky factor of the Hessian at the mode, so this is the
 * Laplace variance of u'theta. With upper, T is an upper triangular R and
 * L = R' (the same solve, read across): the Gaussian table's u' (Z'Z)^-1 u,
 * R the always-in columns' factor, Z'Z = R'R. */
double bsl_tri_quad(const double *T, size_t d, int upper, const double *u, double *v);

/* One term of a table: its components (weights renormalised here) and its
 * PIP give "pip", "mean", "sd" (of the mixture with a point mass 1 - pip
 * at 0), "cond_mean", "cond_sd" (given inclusion; absent when K = 0) and
 * the equal-tailed interval at level, "lower" and "upper". bas_sd: a
 * Student-t component's variance is s^2 (BAS's coef()), not s^2 nu/(nu-2).
 * ws: the quantiles' workspace (tmix.h; NULL: none). zero: a real 0 that
 * every zero entry shares (a reference each; NULL: each its own). NULL when
 * out of memory. */
json_t *bsl_coef_term_json(const double *cw, const double *mu, const double *cs, const double *df, size_t K,
                           double pip, double level, int bas_sd, bsl_tmix_ws *ws, json_t *zero);
/* Term t's row of the table: bsl_coef_term_json of its components, then
 * "name" ("?" when NULL), "class" (only when cls is not NULL: the
 * multinomial table), "target" ("?" when NULL) and "always_in". NULL when
 * out of memory. */
json_t *bsl_coef_comps_row(bsl_coef_comps *cp, size_t t, double pip, double level, int bas_sd,
                           const char *name, const char *cls, const char *target, int always_in);
/* The table's block: "scale" (always "original"), "level", "models" (how
 * many the table averages), "covered" (the weight they hold, clamped to
 * [0, 1]), "interval_pruned" (BSL_TMIX_PRUNED: the share of a term's
 * mixture its interval may leave out), "terms" (taken: freed on failure)
 * and, when within_model is not
 * NULL, "within_model" (how each model's posterior is approximated). NULL
 * when out of memory. */
json_t *bsl_coef_table_json(double level, size_t models, double covered, json_t *terms, const char *within_model);

#endif
