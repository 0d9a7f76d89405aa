/*
 * test_glm_state.c: the checkpoint state of the Polya-Gamma logistic model
 * (bsl_model_glm's state_size / state_save / state_load, model/glm.c).
 *
 * Properties: after a random walk of adds, removes and latent steps, a
 * fresh model loaded with the saved state and the active atoms holds the
 * same log_ml, omega and theta bit for bit, and then follows the original
 * bit for bit through the same further walk (same generator state): the
 * exactness a restarted run's byte-identical FIT.json rests on. Every
 * refusal of a damaged state is provoked: another size, an atom out of
 * range or repeated, a latent variable <= 0, a NaN, a factor diagonal
 * <= 0, a refactorisation counter out of range.
 */
#include "check.h"
#include "model/glm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 90, M = 8, KMAX = 8, STEPS = 300 };

static double X[N * M], Y[N];

static void simulate(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < M; j++) X[i + j * N] = gsl_ran_ugaussian(r);
        const double eta = 0.2 + 0.9 * X[i] - 0.7 * X[i + 2 * N];
        Y[i] = gsl_rng_uniform(r) < 1 / (1 + exp(-eta));
    }
    gsl_rng_free(r);
}

/* One step of a walk: add or remove a random atom, or the latent step. */
static void step(const bsl_model_ops *ops, void *st, gsl_rng *r)
{
    const double u = gsl_rng_uniform(r);
    const size_t j = gsl_rng_uniform_int(r, M);
    if (u < 0.1) {
        CHECK(ops->draw_nuisance(st, r) == BASEL_OK, "latent step");
    } else if (ops->pos(st, j) >= 0) {
        ops->remove(st, j);
    } else {
        (void)ops->try_add(st, j);
        if (ops->k(st) < KMAX) CHECK(ops->add(st, j) == BASEL_OK, "add %zu", j);
    }
}

static int same_bits(const double *a, const double *b, size_t n) { return memcmp(a, b, n * sizeof *a) == 0; }

int main(void)
{
    simulate();
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_coef_prior prior;
    const bsl_model_ops *ops = &bsl_model_glm;
    void *a = NULL, *b = NULL;
    if (bsl_dict_create(&dict, "linear", X, N, M, &err) ||
        bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err) ||
        bsl_glm_prior_parse(&prior, "normal:sd=1,intercept-sd=5", 0, &err) ||
        ops->create(&a, D, &prior, KMAX, &err) || ops->create(&b, D, &prior, KMAX, &err)) {
        CHECK(0, "setup: %s", err.message);
        return check_report("test_glm_state");
    }
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937), *r2 = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    for (size_t s = 0; s < STEPS; s++) step(ops, a, r);
    CHECK(ops->k(a) > 0, "the walk ends with atoms in (k = %zu)", ops->k(a));

    const size_t n = ops->state_size(a), k = ops->k(a);
    double *saved = malloc(n * sizeof *saved), *bad = malloc((n + 1) * sizeof *bad);
    size_t active[KMAX];
    memcpy(active, ops->active(a), k * sizeof *active);
    ops->state_save(a, saved);
    CHECK(ops->state_load(b, active, k, saved, n) == BASEL_OK, "load");
    CHECK(ops->k(b) == k && memcmp(ops->active(b), active, k * sizeof *active) == 0, "the active atoms");
    const double la = ops->log_ml(a), lb = ops->log_ml(b);
    CHECK(same_bits(&la, &lb, 1), "log_ml bit for bit: %.17g vs %.17g", la, lb);
    CHECK(same_bits(bsl_glm_omega(a), bsl_glm_omega(b), N), "omega bit for bit");
    CHECK(same_bits(bsl_glm_theta(a), bsl_glm_theta(b), KMAX + 1), "theta bit for bit");
    for (size_t j = 0; j < M; j++) {
        const double ta = ops->try_add(a, j), tb = ops->try_add(b, j);
        CHECK(same_bits(&ta, &tb, 1), "try_add(%zu) bit for bit", j);
    }
    /* the two go on together */
    gsl_rng_memcpy(r2, r);
    int together = 1;
    for (size_t s = 0; s < STEPS && together; s++) {
        step(ops, a, r);
        step(ops, b, r2);
        const double xa = ops->log_ml(a), xb = ops->log_ml(b);
        together = same_bits(&xa, &xb, 1) && ops->k(a) == ops->k(b);
    }
    CHECK(together, "the loaded model follows the original bit for bit for %d more steps", STEPS);

    /* refusals, each leaving the model usable */
    CHECK(ops->state_load(b, active, k, saved, n - 1) == BASEL_EINVAL, "a state of another size");
    size_t wrong[KMAX];
    memcpy(wrong, active, k * sizeof *wrong);
    wrong[0] = M;
    CHECK(ops->state_load(b, wrong, k, saved, n) == BASEL_EINVAL, "an atom out of range");
    if (k > 1) {
        wrong[0] = active[1];
        CHECK(ops->state_load(b, wrong, k, saved, n) == BASEL_EINVAL, "a repeated atom");
    }
    memcpy(bad, saved, n * sizeof *bad);
    bad[5] = 0;
    CHECK(ops->state_load(b, active, k, bad, n) == BASEL_EINVAL, "omega <= 0");
    memcpy(bad, saved, n * sizeof *bad);
    bad[N + 1] = NAN;
    CHECK(ops->state_load(b, active, k, bad, n) == BASEL_EINVAL, "a NaN");
    memcpy(bad, saved, n * sizeof *bad);
    bad[N + KMAX + 1] = -1; /* the factor's first diagonal entry */
    CHECK(ops->state_load(b, active, k, bad, n) == BASEL_EINVAL, "a factor diagonal <= 0");
    memcpy(bad, saved, n * sizeof *bad);
    bad[n - 1] = BSL_REFACTOR_EVERY;
    CHECK(ops->state_load(b, active, k, bad, n) == BASEL_EINVAL, "the refactorisation counter out of range");
    bad[n - 1] = 0.5;
    CHECK(ops->state_load(b, active, k, bad, n) == BASEL_EINVAL, "the counter not a whole number");
    CHECK(ops->state_load(b, active, k, saved, n) == BASEL_OK, "the good state loads after the refusals");
    const double lc = ops->log_ml(b);
    CHECK(same_bits(&la, &lc, 1), "and gives the saved log_ml");

    free(saved);
    free(bad);
    gsl_rng_free(r);
    gsl_rng_free(r2);
    ops->free(a);
    ops->free(b);
    bsl_design_free(D);
    bsl_dict_free(dict);
    return check_report("test_glm_state");
}
