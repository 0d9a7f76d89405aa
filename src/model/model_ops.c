/*
 * model_ops.c: the model table (model.h): the handle and its fallbacks, and
 * the table entry of the collapsed Gaussian models (bsl_model_gauss), thin
 * adapters over model.c plus the Gibbs update of the ridge prior's nuisance
 * parameters, which needs the factor and so belongs to the model.
 */
#include "model.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the handle */

int bsl_cmodel_create(bsl_cmodel **out, const bsl_model_ops *ops, const bsl_design *D,
                      const bsl_coef_prior *prior, size_t kmax, basel_error *err)
{
    *out = NULL;
    bsl_cmodel *M = calloc(1, sizeof *M);
    if (!M) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    M->ops = ops ? ops : bsl_model_ops_for(prior);
    const int rc = M->ops->create(&M->st, D, prior, kmax, err);
    if (rc) {
        free(M);
        return rc;
    }
    *out = M;
    return BASEL_OK;
}

int bsl_cmodel_create_source(bsl_cmodel **out, const bsl_design *D, const bsl_atom_source *src,
                             const bsl_coef_prior *prior, size_t kmax, basel_error *err)
{
    *out = NULL;
    if (prior->type->model == BSL_COEF_MODEL_SSVS)
        return bsl_fail(err, BASEL_EINVAL, "the spike-and-slab model takes no atom source");
    bsl_cmodel *M = calloc(1, sizeof *M);
    if (!M) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    M->ops = &bsl_model_gauss;
    bsl_model *G = NULL;
    const int rc = bsl_model_create_source(&G, D, src, prior, kmax, err);
    if (rc) {
        free(M);
        return rc;
    }
    M->st = G;
    *out = M;
    return BASEL_OK;
}

void bsl_cmodel_free(bsl_cmodel *M)
{
    if (!M) return;
    if (M->st) M->ops->free(M->st);
    free(M);
}

int bsl_cmodel_copy(bsl_cmodel *dst, const bsl_cmodel *src)
{
    if (dst->ops != src->ops) return BASEL_EINVAL;
    src->ops->copy(dst->st, src->st);
    return BASEL_OK;
}

void bsl_cmodel_describe(const bsl_cmodel *M, char *buf, size_t len)
{
    if (len) buf[0] = 0;
    if (M->ops->describe) M->ops->describe(M->st, buf, len);
}

const char *bsl_cmodel_fault(const bsl_cmodel *M) { return M->ops->fault ? M->ops->fault(M->st) : NULL; }

void bsl_cmodel_clear(bsl_cmodel *M)
{
    if (M->ops->clear) {
        M->ops->clear(M->st);
        return;
    }
    for (size_t k = bsl_cmodel_k(M); k > 0; k--) M->ops->remove(M->st, bsl_cmodel_active(M)[k - 1]);
}

double bsl_cmodel_try_swap(bsl_cmodel *M, size_t out, size_t in)
{
    if (M->ops->try_swap) {
        const double s = M->ops->try_swap(M->st, out, in);
        if (!isnan(s)) return s;
    }
    M->ops->remove(M->st, out);
    const double s = M->ops->try_add(M->st, in);
    M->ops->add(M->st, out); /* the set it had (out now last) */
    return s;
}

void bsl_cmodel_add_scores_within(bsl_cmodel *M, size_t m, double *out, double within)
{
    if (M->ops->add_scores) {
        M->ops->add_scores(M->st, out, within);
        return;
    }
    for (size_t j = 0; j < m; j++) out[j] = bsl_cmodel_is_active(M, j) ? NAN : bsl_cmodel_try_add(M, j);
}

void bsl_cmodel_add_scores(bsl_cmodel *M, size_t m, double *out)
{
    bsl_cmodel_add_scores_within(M, m, out, INFINITY);
}

int bsl_cmodel_set_candidates(bsl_cmodel *M, const size_t *C, size_t nC)
{
    return M->ops->set_candidates ? M->ops->set_candidates(M->st, C, nC) : BASEL_EINVAL;
}

int bsl_cmodel_draw_nuisance(bsl_cmodel *M, gsl_rng *r)
{
    return M->ops->draw_nuisance ? M->ops->draw_nuisance(M->st, r) : BASEL_OK;
}

size_t bsl_cmodel_nuisance(const bsl_cmodel *M, double *vals, const char *const **names)
{
    return M->ops->nuisance ? M->ops->nuisance(M->st, vals, names) : 0;
}

void bsl_cmodel_coef_all(const bsl_cmodel *M, size_t m, size_t c, double *beta, double *work)
{
    if (M->ops->coef_all) {
        M->ops->coef_all(M->st, beta);
        return;
    }
    const size_t k = bsl_cmodel_k(M);
    const size_t *active = bsl_cmodel_active(M);
    memset(beta, 0, m * c * sizeof *beta);
    M->ops->coef_mean(M->st, work);
    for (size_t i = 0; i < k; i++)
        for (size_t o = 0; o < c; o++) beta[active[i] * c + o] = work[i * c + o];
}

int bsl_cmodel_set_nuisance(bsl_cmodel *M, const double *vals)
{
    return M->ops->set_nuisance ? M->ops->set_nuisance(M->st, vals) : BASEL_EINVAL;
}

int bsl_cmodel_coef_cov(const bsl_cmodel *M, double *V)
{
    if (!M->ops->coef_cov) return BASEL_EINVAL;
    M->ops->coef_cov(M->st, V);
    return BASEL_OK;
}

double bsl_cmodel_post_ss(const bsl_cmodel *M, size_t o)
{
    return M->ops->post_ss ? M->ops->post_ss(M->st, o) : NAN;
}

int bsl_cmodel_gram_factor(const bsl_cmodel *M, double *Lpacked)
{
    if (!M->ops->gram_factor) return BASEL_EINVAL;
    M->ops->gram_factor(M->st, Lpacked);
    return BASEL_OK;
}

int bsl_cmodel_add_row(bsl_cmodel *M, const double *b, const double *y)
{
    return M->ops->add_row ? M->ops->add_row(M->st, b, y) : BASEL_EINVAL;
}

int bsl_cmodel_coef_draw(const bsl_cmodel *M, double *beta)
{
    return M->ops->coef_draw ? M->ops->coef_draw(M->st, beta) : BASEL_EINVAL;
}

size_t bsl_cmodel_state_size(const bsl_cmodel *M)
{
    return M->ops->state_size ? M->ops->state_size(M->st) : 0;
}

int bsl_cmodel_state_save(const bsl_cmodel *M, double *out)
{
    if (!M->ops->state_save) return BASEL_EINVAL;
    M->ops->state_save(M->st, out);
    return BASEL_OK;
}

int bsl_cmodel_state_load(bsl_cmodel *M, const size_t *active, size_t k, const double *in, size_t n)
{
    return M->ops->state_load ? M->ops->state_load(M->st, active, k, in, n) : BASEL_EINVAL;
}

const bsl_model_ops *bsl_model_ops_for(const bsl_coef_prior *prior)
{
    return prior->type->model == BSL_COEF_MODEL_SSVS ? &bsl_model_ssvs : &bsl_model_gauss;
}

/* ------------------------------------------------- the Gaussian entry */

static int sampled(const bsl_model *M) { return bsl_coef_sampled(&M->prior); }

/* The prior's Gibbs step of its nuisance parameters given the active set
 * (coef_g.c: g; coef_ridge.c: sigma^2 and lambda), then the rescore (and,
 * when tau moved, the refactorisation) of bsl_model_set_prior. */
static int gauss_draw_nuisance(void *st, gsl_rng *r)
{
    bsl_model *M = st;
    if (!sampled(M)) return BASEL_OK;
    const bsl_coef_suff s = {.k = M->k, .c = M->c, .N = (double)(M->D->n - M->D->q), .tau = M->tau,
                             .yy = M->D->yy, .quad = M->quad, .z = M->z, .bA = M->bA, .chol = &M->chol,
                             .work = M->work};
    bsl_coef_prior pr = M->prior;
    const int rc = pr.type->nuisance_draw(&pr, M->g_o, &s, r);
    return rc ? rc : bsl_model_set_prior(M, &pr);
}

static size_t gauss_nuisance(const void *st, double *vals, const char *const **names)
{
    const bsl_model *M = st;
    if (!sampled(M)) return 0;
    return M->prior.type->nuisance(&M->prior, M->g_o, M->c, vals, names);
}

static int gauss_set_nuisance(void *st, const double *vals)
{
    bsl_model *M = st;
    if (!sampled(M)) return BASEL_EINVAL;
    bsl_coef_prior pr = M->prior;
    pr.type->nuisance_set(&pr, M->g_o, M->c, vals);
    return bsl_model_set_prior(M, &pr);
}

static int gauss_create(void **st, const bsl_design *D, const bsl_coef_prior *prior, size_t kmax,
                        basel_error *err)
{
    if (prior->type->model == BSL_COEF_MODEL_SSVS)
        return bsl_fail(err, BASEL_EINVAL, "the spike-and-slab prior is not a Gaussian collapsed model");
    return bsl_model_create((bsl_model **)st, D, prior, kmax, err);
}

static void gauss_free(void *st) { bsl_model_free(st); }
static void gauss_copy(void *dst, const void *src) { bsl_model_copy(dst, src); }
static size_t gauss_k(const void *st) { return ((const bsl_model *)st)->k; }
static const size_t *gauss_active(const void *st) { return ((const bsl_model *)st)->active; }
static long gauss_pos(const void *st, size_t j) { return ((const bsl_model *)st)->pos[j]; }
static double gauss_log_ml(const void *st) { return ((const bsl_model *)st)->log_ml; }
static double gauss_try_add(void *st, size_t j) { return bsl_model_try_add(st, j); }
static int gauss_add(void *st, size_t j) { return bsl_model_add(st, j); }
static void gauss_remove(void *st, size_t j) { bsl_model_remove(st, j); }
static void gauss_clear(void *st) { bsl_model_clear(st); }
static int gauss_add_row(void *st, const double *b, const double *y) { return bsl_model_add_row(st, b, y); }
static void gauss_drop_scores(void *st, double *out) { bsl_model_drop_scores(st, out); }
static double gauss_try_remove(void *st, size_t j) { return bsl_model_drop_score(st, j); }
static void gauss_add_scores(void *st, double *out, double within) { bsl_model_add_scores(st, out, within); }
static int gauss_set_candidates(void *st, const size_t *C, size_t nC) { return bsl_model_set_candidates(st, C, nC); }
static void gauss_candidate_scores(void *st, double *out, double within)
{
    bsl_model_candidate_scores(st, out, within);
}
static double gauss_try_swap(void *st, size_t out, size_t in) { return bsl_model_try_swap(st, out, in); }
static int gauss_pair_scores(void *st, const size_t *P, size_t np, double *out)
{
    return bsl_model_pair_scores(st, P, np, out);
}
static void gauss_coef_mean(const void *st, double *beta) { bsl_model_coef_mean(st, beta); }
static double gauss_sigma2(const void *st, size_t o) { return bsl_model_sigma2(st, o); }

static int gauss_coef_draw(const void *st, double *beta) { return bsl_model_coef_draw(st, beta); }
static size_t gauss_state_size(const void *st) { return bsl_model_state_size(st); }
static void gauss_state_save(const void *st, double *out) { bsl_model_state_save(st, out); }
static int gauss_state_load(void *st, const size_t *active, size_t k, const double *in, size_t n)
{
    return bsl_model_state_load(st, active, k, in, n);
}

static double gauss_post_ss(const void *st, size_t o)
{
    const bsl_model *M = st;
    const double s = bsl_model_shrink(M, o);
    return fmax(M->D->yy[o] - s * M->quad[o], 0.0);
}

static void gauss_gram_factor(const void *st, double *Lpacked)
{
    const bsl_model *M = st;
    size_t t = 0;
    for (size_t j = 0; j < M->k; j++)
        for (size_t i = j; i < M->k; i++) Lpacked[t++] = M->chol.L[i + j * M->chol.cap];
}

/* V = shrink A_tau^{-1} (the g-prior's posterior mean and covariance carry
 * the shrinkage g / (1 + g); with one g per output, output 0's) */
static void gauss_coef_cov(const void *st, double *V)
{
    const bsl_model *M = st;
    const size_t k = M->k, ld = M->kmax + 1;
    const double N = (double)(M->D->n - M->D->q);
    const double shrink = M->prior.type->shrink(&M->prior, M->prior.g, N, k, M->D->yy[0], M->quad[0]);
    const int stale = M->since_inv_refresh == BSL_INV_STALE;
    if (stale) (void)bsl_inv_from_chol(&M->chol, V, k); /* from the factor, into V */
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < k; i++) V[i + j * k] = shrink * (stale ? V[i + j * k] : M->Ainv[i + j * ld]);
}

const bsl_model_ops bsl_model_gauss = {
    .name = "gauss",
    .create = gauss_create,
    .free = gauss_free,
    .copy = gauss_copy,
    .k = gauss_k,
    .active = gauss_active,
    .pos = gauss_pos,
    .log_ml = gauss_log_ml,
    .try_add = gauss_try_add,
    .add = gauss_add,
    .remove = gauss_remove,
    .clear = gauss_clear,
    .try_swap = gauss_try_swap,
    .drop_scores = gauss_drop_scores,
    .try_remove = gauss_try_remove,
    .add_scores = gauss_add_scores,
    .set_candidates = gauss_set_candidates,
    .candidate_scores = gauss_candidate_scores,
    .pair_scores = gauss_pair_scores,
    .draw_nuisance = gauss_draw_nuisance,
    .nuisance = gauss_nuisance,
    .set_nuisance = gauss_set_nuisance,
    .coef_mean = gauss_coef_mean,
    .coef_all = NULL,
    .coef_cov = gauss_coef_cov,
    .sigma2 = gauss_sigma2,
    .post_ss = gauss_post_ss,
    .gram_factor = gauss_gram_factor,
    .coef_draw = gauss_coef_draw,
    .state_size = gauss_state_size,
    .state_save = gauss_state_save,
    .state_load = gauss_state_load,
    .add_row = gauss_add_row,
};
