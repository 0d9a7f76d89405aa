/*
 * group.c: the grouped model (bsl_model_grouped, model.h): atoms that are
 * blocks of columns, all in or all out (issue 19 item 5: a categorical
 * input's indicators are selected together, one PIP for the factor).
 *
 * It runs on a group view of a design (bsl_design_group_view) and holds a
 * Gaussian model (bsl_model_gauss) of the view's base over its columns:
 * adding a group of g columns is g successive rank-one extensions of the
 * factor (O(k^2) each with the explicit inverse, k the active columns),
 * removing it g downdates. The marginal likelihood is the columns' one,
 * so every coefficient prior counts the group's g coefficients: the
 * g-prior's dimension, the penalty of aic/bic/mdl (C per column); the model
 * prior, which engines apply to their atoms, counts the group once.
 *
 * A group's drop score is the log marginal likelihood of the set without
 * its g columns: for a single column the inner model's O(k c) score from
 * the explicit inverse, for a block g downdates, the read, and g updates
 * back (O(k^2 g)). Coefficients (coef_mean) are given per group only for
 * groups of one column (a block has no single coefficient: 0); subset.c
 * recomputes the model-averaged coefficients of every column from the
 * visited models.
 */
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct grp {
    const bsl_design *V;  /* the group view */
    bsl_cmodel *in;       /* the columns' model on V->base */
    size_t ng, k, kmax;
    size_t *active;       /* k groups */
    long *pos;            /* ng */
    double *beta;         /* inner coefficients: base->m x c */
} grp;

static size_t g_first(const grp *G, size_t g) { return G->V->group_start[g]; }
static size_t g_end(const grp *G, size_t g) { return G->V->group_start[g + 1]; }

static void grp_free(void *st)
{
    grp *G = st;
    if (!G) return;
    bsl_cmodel_free(G->in);
    free(G->active);
    free(G->pos);
    free(G->beta);
    free(G);
}

static int grp_create(void **st, const bsl_design *V, const bsl_coef_prior *prior, size_t kmax, basel_error *err)
{
    *st = NULL;
    if (!V->base || !V->group_start)
        return bsl_fail(err, BASEL_EINVAL, "the grouped model needs a group view of a design");
    const bsl_design *B = V->base;
    grp *G = calloc(1, sizeof *G);
    if (!G) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    G->V = V;
    G->ng = V->m;
    G->kmax = kmax;
    /* the largest number of columns kmax groups can hold */
    size_t cols = 0;
    {
        size_t *sz = bsl_malloc(G->ng + 1, sizeof *sz);
        if (!sz) {
            grp_free(G);
            return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        }
        for (size_t g = 0; g < G->ng; g++) sz[g] = V->group_start[g + 1] - V->group_start[g];
        for (size_t t = 0; t < kmax && t < G->ng; t++) { /* kmax largest groups */
            size_t best = 0;
            for (size_t g = 1; g < G->ng; g++)
                if (sz[g] > sz[best]) best = g;
            cols += sz[best];
            sz[best] = 0;
        }
        free(sz);
    }
    G->active = bsl_malloc(kmax + 1, sizeof *G->active);
    G->pos = bsl_malloc(G->ng + 1, sizeof *G->pos);
    G->beta = bsl_malloc(B->m * B->c + 1, sizeof *G->beta);
    int rc = G->active && G->pos && G->beta ? BASEL_OK : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!rc) rc = bsl_cmodel_create(&G->in, &bsl_model_gauss, B, prior, cols ? cols : 1, err);
    if (rc) {
        grp_free(G);
        return rc;
    }
    for (size_t g = 0; g < G->ng; g++) G->pos[g] = -1;
    *st = G;
    return BASEL_OK;
}

static void grp_copy(void *dst, const void *src)
{
    grp *D = dst;
    const grp *S = src;
    bsl_cmodel_copy(D->in, S->in);
    D->k = S->k;
    memcpy(D->active, S->active, S->k * sizeof *D->active);
    memcpy(D->pos, S->pos, S->ng * sizeof *D->pos);
}

static size_t grp_k(const void *st) { return ((const grp *)st)->k; }
static const size_t *grp_active(const void *st) { return ((const grp *)st)->active; }
static long grp_pos(const void *st, size_t g) { return ((const grp *)st)->pos[g]; }
static double grp_log_ml(const void *st) { return bsl_cmodel_log_ml(((const grp *)st)->in); }

/* The columns of group g into the inner model; on failure the ones added
 * are taken out again (model unchanged) and BASEL_ENUMERIC returned. */
static int cols_add(grp *G, size_t g)
{
    for (size_t j = g_first(G, g); j < g_end(G, g); j++)
        if (bsl_cmodel_add(G->in, j) != BASEL_OK) {
            while (j-- > g_first(G, g)) bsl_cmodel_remove(G->in, j);
            return BASEL_ENUMERIC;
        }
    return BASEL_OK;
}

static void cols_remove(grp *G, size_t g)
{
    for (size_t j = g_end(G, g); j-- > g_first(G, g);) bsl_cmodel_remove(G->in, j);
}

static double grp_try_add(void *st, size_t g)
{
    grp *G = st;
    if (G->pos[g] >= 0 || G->k >= G->kmax || !G->V->usable[g]) return -INFINITY;
    if (g_end(G, g) - g_first(G, g) == 1) return bsl_cmodel_try_add(G->in, g_first(G, g));
    if (cols_add(G, g)) return -INFINITY;
    const double lm = bsl_cmodel_log_ml(G->in);
    cols_remove(G, g);
    return lm;
}

static int grp_add(void *st, size_t g)
{
    grp *G = st;
    if (G->pos[g] >= 0 || G->k >= G->kmax || !G->V->usable[g] || cols_add(G, g)) return BASEL_ENUMERIC;
    G->pos[g] = (long)G->k;
    G->active[G->k++] = g;
    return BASEL_OK;
}

static void grp_remove(void *st, size_t g)
{
    grp *G = st;
    const long p = G->pos[g];
    if (p < 0) return;
    cols_remove(G, g);
    /* keep the order of the others: the last active group takes p's place */
    G->active[p] = G->active[--G->k];
    G->pos[G->active[p]] = p;
    G->pos[g] = -1;
}

static void grp_clear(void *st)
{
    grp *G = st;
    bsl_cmodel_clear(G->in);
    for (size_t i = 0; i < G->k; i++) G->pos[G->active[i]] = -1;
    G->k = 0;
}

static double grp_try_remove(void *st, size_t g)
{
    grp *G = st;
    if (g_end(G, g) - g_first(G, g) == 1) return bsl_cmodel_try_remove(G->in, g_first(G, g));
    cols_remove(G, g);
    const double lm = bsl_cmodel_log_ml(G->in);
    /* the same columns back in: full rank before, so full rank again */
    if (cols_add(G, g)) return NAN;
    return lm;
}

static void grp_drop_scores(void *st, double *out)
{
    grp *G = st;
    for (size_t p = 0; p < G->k; p++) out[p] = grp_try_remove(G, G->active[p]);
}

static int grp_draw_nuisance(void *st, gsl_rng *r) { return bsl_cmodel_draw_nuisance(((grp *)st)->in, r); }
static size_t grp_nuisance(const void *st, double *vals, const char *const **names)
{
    return bsl_cmodel_nuisance(((const grp *)st)->in, vals, names);
}
static int grp_set_nuisance(void *st, const double *vals) { return bsl_cmodel_set_nuisance(((grp *)st)->in, vals); }

/* Per active group: its coefficient when it is one column, else 0 (see the
 * file comment). */
static void grp_coef_mean(const void *st, double *beta)
{
    const grp *G = st;
    const size_t c = G->V->c, kin = bsl_cmodel_k(G->in);
    const size_t *ain = bsl_cmodel_active(G->in);
    bsl_cmodel_coef_mean(G->in, G->beta);
    for (size_t i = 0; i < G->k; i++) {
        const size_t g = G->active[i];
        for (size_t o = 0; o < c; o++) beta[i * c + o] = 0.0;
        if (g_end(G, g) - g_first(G, g) != 1) continue;
        for (size_t a = 0; a < kin; a++)
            if (ain[a] == g_first(G, g))
                for (size_t o = 0; o < c; o++) beta[i * c + o] = G->beta[a * c + o];
    }
}

static double grp_sigma2(const void *st, size_t o) { return bsl_cmodel_sigma2(((const grp *)st)->in, o); }

const bsl_model_ops bsl_model_grouped = {
    .name = "grouped",
    .create = grp_create,
    .free = grp_free,
    .copy = grp_copy,
    .k = grp_k,
    .active = grp_active,
    .pos = grp_pos,
    .log_ml = grp_log_ml,
    .try_add = grp_try_add,
    .add = grp_add,
    .remove = grp_remove,
    .clear = grp_clear,
    .try_swap = NULL,
    .drop_scores = grp_drop_scores,
    .try_remove = grp_try_remove,
    .draw_nuisance = grp_draw_nuisance,
    .nuisance = grp_nuisance,
    .set_nuisance = grp_set_nuisance,
    .coef_mean = grp_coef_mean,
    .coef_all = NULL,
    .coef_cov = NULL,
    .sigma2 = grp_sigma2,
    .post_ss = NULL,
    .gram_factor = NULL,
    .coef_draw = NULL,
    .state_size = NULL,
    .state_save = NULL,
    .state_load = NULL,
    .add_row = NULL,
};
