/*
 * test_glm_exact_cache.c: the subset cache of the importance-sampling GLM
 * model (bsl_model_glm_exact, model/glm_exact.c). A subset's score is a
 * function of the subset and the seed, so reading it from the cache must
 * give what scoring it afresh gives, bit for bit, whatever order the atoms
 * came in.
 *
 * Property: along a random walk of adds and removes (the atoms in walk
 * order, so a subset comes back in other orders), every state's log_ml,
 * every try_add and try_remove, and the coefficient means (atom by atom)
 * equal those of a model created afresh for that state with its atoms
 * added in the reverse order (its own cache empty), for the Poisson and
 * the logistic likelihood.
 */
#include "check.h"
#include "model/glm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

enum { N = 60, M = 5, STEPS = 120 };

static double X[N * M], Y[2][N];

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* A model of the current state's atoms, added in the reverse order. */
static void *fresh(const bsl_model_ops *ops, const bsl_design *D, const bsl_coef_prior *pr, const size_t *atoms,
                   size_t k)
{
    void *st = NULL;
    basel_error err;
    if (ops->create(&st, D, pr, M, &err)) return NULL;
    for (size_t a = k; a-- > 0;) ops->add(st, atoms[a]);
    return st;
}

static void walk(int family)
{
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_coef_prior pr;
    const int rc = bsl_dict_create(&dict, "linear", X, N, M, &err) ||
                   bsl_design_create(&D, dict, X, N, Y[family == BSL_GLM_POISSON], 1, (size_t)1 << 30, &err) ||
                   bsl_glm_prior_parse(&pr, "normal:sd=1,intercept-sd=5", 0, &err);
    CHECK(!rc, "setup: %s", err.message);
    if (rc) return;
    pr.glm_family = family;
    pr.is_draws = 300;
    pr.is_seed = 9;
    const bsl_model_ops *ops = &bsl_model_glm_exact;
    void *st = NULL;
    CHECK(ops->create(&st, D, &pr, M, &err) == BASEL_OK, "create: %s", err.message);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 4);
    int differ = 0, compared = 0;
    for (int s = 0; st && s < STEPS; s++) {
        const size_t j = gsl_rng_uniform_int(r, M);
        if (ops->pos(st, j) >= 0) ops->remove(st, j);
        else ops->add(st, j);
        const size_t k = ops->k(st);
        void *f = fresh(ops, D, &pr, ops->active(st), k);
        if (!f) break;
        double b1[M], b2[M];
        ops->coef_mean(st, b1);
        ops->coef_mean(f, b2);
        differ += !same(ops->log_ml(st), ops->log_ml(f));
        for (size_t a = 0; a < k; a++) /* atom by atom: the two models hold them in other orders */
            differ += !same(b1[a], b2[ops->pos(f, ops->active(st)[a])]);
        const size_t t = gsl_rng_uniform_int(r, M); /* a trial, read twice (the second from the cache) */
        if (ops->pos(st, t) < 0) {
            const double once = ops->try_add(st, t), again = ops->try_add(st, t), afresh = ops->try_add(f, t);
            differ += !same(once, afresh) + !same(again, afresh);
        } else {
            differ += !same(ops->try_remove(st, t), ops->try_remove(f, t));
        }
        compared++;
        ops->free(f);
    }
    CHECK(compared == STEPS, "%s: every step compared (%d)", family == BSL_GLM_POISSON ? "poisson" : "logistic",
          compared);
    CHECK(differ == 0, "%s: cached scores and means equal fresh ones bit for bit (%d differ)",
          family == BSL_GLM_POISSON ? "poisson" : "logistic", differ);
    gsl_rng_free(r);
    if (st) ops->free(st);
    bsl_design_free(D);
    bsl_dict_free(dict);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2);
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < M; j++) X[i + j * N] = gsl_ran_ugaussian(r);
        const double eta = 0.2 + 0.5 * X[i] - 0.4 * X[i + 2 * N];
        Y[0][i] = gsl_rng_uniform(r) < 1 / (1 + exp(-eta));
        Y[1][i] = (double)gsl_ran_poisson(r, exp(eta));
    }
    gsl_rng_free(r);
    walk(BSL_GLM_POISSON);
    walk(BSL_GLM_BINOMIAL);
    return check_report("test_glm_exact_cache");
}
