/*
 * subset_project.h: the projection of the model average onto a small subset
 * (subset_project.c), the "projection" model of a Gaussian subset fit.
 * Internal to the subset engines (subset.c) and their tests.
 */
#ifndef BSL_SUBSET_PROJECT_H
#define BSL_SUBSET_PROJECT_H

#include "subset.h"
#include "../engine.h"

struct bsl_result;

/* Atoms whose PIP is below this are not candidates of the forward search:
 * an atom the posterior almost never holds carries almost none of the
 * average's fit, and leaving it out keeps the search O(n k c_n) with c_n
 * the candidates, not the dictionary (Piironen, Paasiniemi and Vehtari 2020
 * restrict projpred's search the same way, to the reference model's
 * relevant terms). */
#define BSL_PROJ_PIP_FLOOR 0.01

/* Exchanges tried at each size after the forward step
 * (subset_project_search.c): a bound on the cost, O(BSL_PROJ_SWAPS n_c k^2)
 * flops per size; the refinement usually stops earlier, when no exchange
 * lowers the distance. */
#define BSL_PROJ_SWAPS 10

/* Cross product b_i' b_j of candidates i and j (projected columns). */
typedef double (*bsl_proj_cross)(void *ctx, size_t i, size_t j);

/* The forward search's path over nc candidates and c outputs. */
typedef struct bsl_proj_path {
    size_t k;       /* atoms chosen */
    size_t *order;  /* k candidate indices, in the order chosen (an exchange replaces in place) */
    double *coef;   /* k x c (row-major, in order): the least-squares projection of mu on the chosen */
    double *dist;   /* (k + 1) x c: ||mu_o - projection on the set of size j||^2, j = 0..k */
    double *L;      /* k x k lower Cholesky factor of the chosen Gram block (column-major, ld k) */
} bsl_proj_path;

/* Forward selection with exchanges (subset_project_search.c): starting
 * from no atom, add the candidate whose least-squares projection of mu
 * most reduces the squared distance summed over outputs, then exchange
 * chosen atoms for candidates outside while that lowers the distance (at
 * most swaps exchanges per size; 0: the plain forward path), until that
 * distance is at most target, or kmax atoms are in, or no candidate
 * reduces it (every one collinear with those in). r (nc x c, row-major)
 * holds b_j' mu_o, mumu (c) mu_o' mu_o. O(nc k) per step plus nc cross
 * products, and O(nc k^2) flops plus nc cross products per exchange.
 * BASEL_ENOMEM; free the path with bsl_proj_path_free. */
int bsl_proj_forward(size_t nc, size_t c, bsl_proj_cross cross, void *ctx, const double *r, const double *mumu,
                     double target, size_t kmax, size_t swaps, bsl_proj_path *path);
void bsl_proj_path_free(bsl_proj_path *path);

/* The "projection" predictor block of a Gaussian subset fit (docs/FIT.md)
 * from the column-level result vr (PIPs, model-averaged coefficients,
 * visited models) under pb: the single-model block pred_gauss.c
 * reads, plus the search's path. sel gets its atoms (sorted; over groups
 * when gstart groups the columns, ng groups). tol is --projection-tol,
 * total 1 when it is measured in the total spread (--projection-spread
 * total), 0 in the spread within a model;
 * budget the bytes allowed for candidate columns of a streaming design.
 * NULL when out of memory (err set). */
json_t *bsl_subset_projection(const bsl_vs_problem *pb, const bsl_vs_result *vr, const size_t *gstart, size_t ng,
                              double tol, int total, size_t budget, bsl_result_model *sel, basel_error *err);

#endif
