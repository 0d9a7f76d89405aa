/*
 * enumerate.c: the exact posterior over all 2^m subsets, the reference every
 * engine is tested against (DESIGN.md "How we know it is right", step 1).
 *
 * Subsets are visited in Gray-code order, so each differs from the last by
 * one atom and costs one O(k^2) add or remove of the incremental model. The
 * normaliser and all sums are accumulated on a running log scale: when a new
 * maximum log posterior appears, the sums are rescaled, so nothing under- or
 * overflows whatever the spread of the marginal likelihoods.
 */
#include "../subset/subset.h"
#include "../../run/chains.h"
#include "../../model/glm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ENUM_MAX_M 24
/* subsets more than this far below the running maximum (log scale) carry
 * less than 1e-26 of the mass each: not worth storing in the top list */
#define ENUM_KEEP_LOG 60.0

typedef struct acc {
    double log_max;  /* running maximum of the log posterior */
    double z;        /* sum of exp(lp - log_max) */
    double *pip, *size, *coef;
} acc;

static void rescale(acc *a, size_t m, size_t c, size_t kmax, double factor)
{
    a->z *= factor;
    for (size_t j = 0; j < m; j++) a->pip[j] *= factor;
    for (size_t j = 0; j < m * c; j++) a->coef[j] *= factor;
    for (size_t k = 0; k <= kmax; k++) a->size[k] *= factor;
}

static int visit(bsl_cmodel *M, const bsl_vs_problem *pb, acc *a, bsl_vs_result *res,
                 double *beta)
{
    const size_t k = bsl_cmodel_k(M), c = pb->D->c, m = pb->D->m;
    const size_t *active = bsl_cmodel_active(M);
    const double lp = bsl_cmodel_log_ml(M) + bsl_mprior_log(&pb->mprior, k);
    if (lp == -INFINITY) return 0;
    if (lp > a->log_max) {
        if (a->log_max > -INFINITY) rescale(a, m, c, res->kmax, exp(a->log_max - lp));
        a->log_max = lp;
    }
    const double w = exp(lp - a->log_max);
    a->z += w;
    a->size[k] += w;
    bsl_cmodel_coef_mean(M, beta);
    for (size_t i = 0; i < k; i++) {
        a->pip[active[i]] += w;
        for (size_t o = 0; o < c; o++) a->coef[active[i] * c + o] += w * beta[i * c + o];
    }
    if (lp > a->log_max - ENUM_KEEP_LOG && bsl_modelset_add(&res->models, active, k, 0.0, lp))
        return -1;
    return 0;
}

/* A prior whose g is chosen from every subset (coef_prior.h choose_g,
 * eb-global): the first walk keeps each feasible subset's score, its
 * coefficient count (a factor's indicator columns each count, as in the
 * score) and its log model prior. */
typedef struct pilot {
    double *k, *lm, *lp;
    size_t n;
} pilot;

static void pilot_record(pilot *pl, const bsl_cmodel *M, const bsl_vs_problem *pb)
{
    const size_t k = bsl_cmodel_k(M);
    const size_t *active = bsl_cmodel_active(M), *gs = pb->D->group_start;
    size_t cols = k;
    if (gs)
        for (size_t i = cols = 0; i < k; i++) cols += gs[active[i] + 1] - gs[active[i]];
    pl->k[pl->n] = (double)cols;
    pl->lm[pl->n] = bsl_cmodel_log_ml(M);
    pl->lp[pl->n++] = bsl_mprior_log(&pb->mprior, k);
}

/* The walk over all subsets, as the one "chain" of the chain driver (for
 * its progress and cancel; one unit per subset, twice with a pilot). */
typedef struct enum_ctx {
    bsl_cmodel *M;
    const bsl_vs_problem *pb;
    acc *a;
    bsl_vs_result *res;
    double *beta;
    basel_error *err;
    unsigned long long infeasible; /* subsets that cannot be computed (collinear) */
    pilot *pilot;                  /* non-NULL: this walk only records (eb-global's first) */
} enum_ctx;

/* Bring the model to the subset `want` (bit j = atom j) from the subset it
 * holds, which differs from the last one visited by atom j: remove what
 * want lacks, add what it has. Returns 0 when the model holds want, 1 when
 * want cannot be computed (an add was refused as collinear, model.h
 * BSL_RANK_TOL): the model then holds a feasible subset of it, and because
 * feasibility is inherited by subsets, a later want is refused only if it
 * is itself infeasible. */
static int reach(bsl_cmodel *M, unsigned long long want, size_t m)
{
    for (size_t a = 0; a < m; a++)
        if (!(want >> a & 1) && bsl_cmodel_is_active(M, a)) bsl_cmodel_remove(M, a);
    for (size_t a = 0; a < m; a++)
        if ((want >> a & 1) && !bsl_cmodel_is_active(M, a) &&
            (bsl_cmodel_try_add(M, a) == -INFINITY || bsl_cmodel_add(M, a) != BASEL_OK))
            return 1;
    return 0;
}

static int walk_once(enum_ctx *x, bsl_ticker *tick)
{
    bsl_cmodel *M = x->M;
    const size_t m = x->pb->D->m;
    int rc = BASEL_OK;
    if (x->pilot) pilot_record(x->pilot, M, x->pb);
    else if (visit(M, x->pb, x->a, x->res, x->beta)) rc = bsl_fail(x->err, BASEL_ENOMEM, "out of memory");
    const unsigned long long total = 1ULL << m;
    unsigned long long want = 0;
    int behind = 0; /* the model holds a proper subset of want (want infeasible) */
    for (unsigned long long i = 1; i < total && !rc; i++) {
        const size_t j = (size_t)__builtin_ctzll(i);
        want ^= 1ULL << j;
        if (behind)
            behind = reach(M, want, m);
        else if (bsl_cmodel_is_active(M, j))
            bsl_cmodel_remove(M, j);
        else
            behind = bsl_cmodel_try_add(M, j) == -INFINITY || bsl_cmodel_add(M, j) != BASEL_OK;
        if (behind) x->infeasible += !x->pilot; /* probability 0, as in every sampler */
        else if (x->pilot) pilot_record(x->pilot, M, x->pb);
        else if (visit(M, x->pb, x->a, x->res, x->beta)) rc = bsl_fail(x->err, BASEL_ENOMEM, "out of memory");
        if (!rc && bsl_tick(tick, 1)) rc = bsl_fail(x->err, BASEL_ECANCELLED, "cancelled");
    }
    return rc;
}

/* With a pilot (eb-global): the first walk records every subset's score,
 * the prior chooses its g from them (choose_g), and the second walk scores
 * every subset again at that g into the posterior; res->prior_g says it. */
static int walk(void *ctx, size_t chain, unsigned long seed, bsl_ticker *tick)
{
    enum_ctx *x = ctx;
    if (!x->pilot) return walk_once(x, tick);
    int rc = walk_once(x, tick);
    bsl_coef_prior chosen = x->pb->prior;
    if (!rc)
        rc = chosen.type->choose_g(&chosen, (double)(x->pb->D->n - x->pb->D->q), x->pilot->n, x->pilot->k,
                                   x->pilot->lm, x->pilot->lp, x->err);
    x->pilot = NULL;
    if (rc) return rc;
    bsl_cmodel_free(x->M);
    x->M = NULL;
    if ((rc = bsl_vs_model_create(&x->M, x->pb, &chosen, x->pb->D->m, x->err))) return rc;
    x->res->prior_g = chosen.g;
    return walk_once(x, tick);
}

/* Enumeration needs a model without sampled nuisance parameters. */
static int check_model(const bsl_vs_problem *pb, basel_error *err)
{
    bsl_cmodel *M;
    int rc = bsl_vs_model_create(&M, pb, &pb->prior, 1, err);
    if (rc) return rc;
    if (bsl_cmodel_nuisance(M, NULL, NULL) > 0)
        rc = bsl_fail(err, BASEL_EINVAL,
                      "enumeration needs a model without sampled nuisance parameters (the %s model "
                      "has them)",
                      M->ops->name);
    bsl_cmodel_free(M);
    return rc;
}

int bsl_enumerate(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res,
                  basel_error *err)
{
    if (pb->prior.glm_family == BSL_GLM_MULTINOMIAL) /* set only by the GLMs' normal prior */
        return bsl_enumerate_multi(pb, run, res, err); /* joint models of one subset per class */
    const size_t m = pb->D->m, c = pb->D->c;
    if (m > ENUM_MAX_M)
        return bsl_fail(err, BASEL_ERANGE,
                        "enumeration visits all 2^m subsets and refuses m = %zu > %d atoms; use "
                        "--method bd (or rj) for larger dictionaries",
                        m, ENUM_MAX_M);
    if (pb->prior.sample_nuisance)
        return bsl_fail(err, BASEL_EINVAL,
                        "enumeration needs fixed hyperparameters: give --prior %s",
                        pb->prior.type->fixed_hint);
    clock_t t0 = clock();
    int rc = bsl_vs_result_init(res, m, c, pb->kmax, 1);
    if (rc) return bsl_fail(err, rc, "out of memory");
    if ((rc = check_model(pb, err))) return rc;
    bsl_cmodel *M = NULL;
    acc a = {-INFINITY, 0, res->pip, res->size_prob, res->coef_bma};
    double *beta = bsl_malloc(m * c + 1, sizeof *beta);
    if (!beta || bsl_vs_model_create(&M, pb, &pb->prior, m, err)) {
        free(beta);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    const unsigned long long total = 1ULL << m;
    /* eb-global: every subset's score at the placeholder g first (pilot) */
    pilot pl = {0};
    const int two = pb->prior.type->choose_g != NULL;
    if (two && (!(pl.k = bsl_malloc(total, sizeof *pl.k)) || !(pl.lm = bsl_malloc(total, sizeof *pl.lm)) ||
                !(pl.lp = bsl_malloc(total, sizeof *pl.lp))))
        rc = bsl_fail(err, BASEL_ENOMEM, "out of memory: --prior eb-global keeps 3 numbers for each of the "
                                         "%llu subsets", total);
    enum_ctx x = {M, pb, &a, res, beta, err, 0, two ? &pl : NULL};
    bsl_chains cs = {.chains = 1, .threads = 1, .units = (size_t)total * (two ? 2 : 1),
                     .progress = run ? run->progress : NULL,
                     .progress_user = run ? run->progress_user : NULL};
    if (!rc) rc = bsl_chains_run(&cs, walk, &x);
    M = x.M;
    free(pl.k);
    free(pl.lm);
    free(pl.lp);
    if (rc == BASEL_ECANCELLED) bsl_fail(err, rc, "cancelled"); /* also before the walk began */
    else if (rc == BASEL_ENOMEM) bsl_fail(err, rc, "out of memory");
    char how[240]; /* how the model computed its scores (an estimate: its error) */
    bsl_cmodel_describe(M, how, sizeof how);
    if (!rc && bsl_cmodel_fault(M)) rc = bsl_fail(err, BASEL_EINVAL, "%s", bsl_cmodel_fault(M));
    bsl_cmodel_free(M);
    free(beta);
    if (rc) return rc;
    /* normalise: probabilities, and the stored subsets' weights */
    const double log_z = a.log_max + log(a.z);
    rescale(&a, m, c, pb->kmax, 1.0 / a.z);
    for (size_t i = 0; i < res->models.n; i++)
        res->models.items[i].weight = exp(res->models.items[i].log_post - log_z);
    bsl_modelset_sort(&res->models);
    res->evaluations = (double)total;
    if (x.infeasible)
        snprintf(res->engine_note, sizeof res->engine_note,
                 "exact: all %llu subsets enumerated; %llu of them cannot be computed (an atom collinear with the "
                 "others, R^2 > 1 - %g): probability 0, as in every sampler",
                 total, x.infeasible, BSL_RANK_TOL);
    else
        snprintf(res->engine_note, sizeof res->engine_note, "exact: all %llu subsets enumerated", total);
    if (res->prior_g > 0) { /* eb-global: say the g chosen (it is posterior.prior.g) */
        const size_t used = strlen(res->engine_note);
        snprintf(res->engine_note + used, sizeof res->engine_note - used,
                 "; eb-global: g = %.6g, the maximiser of the model-averaged marginal likelihood over every subset",
                 res->prior_g);
    }
    if (*how) {
        const size_t used = strlen(res->engine_note);
        snprintf(res->engine_note + used, sizeof res->engine_note - used, "; %s", how);
    }
    res->seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    return BASEL_OK;
}
