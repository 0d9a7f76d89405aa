/*
 * test_mixture_synthetic.c: the mixture engine (src/engine/mixture/mixture*.c) on
 * data with 3 relevant and 7 noise inputs. Relevant inputs (at positions 1,
 * 4 and 8, so position carries no hint) have class means -1 / +1 and unit
 * sd; noise inputs are N(0, 1) in both classes. Asserts PIP > 0.9 for the
 * relevant and < 0.2 for the noise inputs, test accuracy near the Bayes
 * rate (4% error), the same result with 1 and 2 threads, predictions that
 * survive a JSON round trip bit for bit, and clear errors for bad input.
 */
#include "check.h"
#include "engine/mixture/mixture.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { D_IN = 10, N_TRAIN = 300, N_TEST = 1000 };
static const int relevant[D_IN] = {0, 1, 0, 0, 1, 0, 0, 0, 1, 0};

static void simulate(const gsl_rng *r, size_t n, double *X, int *cls)
{
    for (size_t i = 0; i < n; i++) {
        cls[i] = (int)(i % 2);
        for (size_t j = 0; j < D_IN; j++)
            X[j * n + i] = (relevant[j] ? (cls[i] ? 1.0 : -1.0) : 0.0) + gsl_ran_gaussian(r, 1);
    }
}

static double accuracy(const bsl_mix_result *res, const double *X, const int *cls, size_t n)
{
    double *prob = malloc(n * 2 * sizeof *prob);
    size_t right = 0;
    CHECK(bsl_mixture_predict(res, X, n, prob) == BASEL_OK, "predict succeeds");
    for (size_t i = 0; i < n; i++) right += (prob[2 * i + 1] > prob[2 * i]) == (cls[i] == 1);
    free(prob);
    return (double)right / (double)n;
}

static void check_errors(const double *X, const int *cls, const bsl_mix_options *o)
{
    bsl_mix_result *res = NULL;
    basel_error err;
    bsl_mix_options bad = *o;
    CHECK(bsl_mixture_fit(X, N_TRAIN, D_IN, cls, 1, o, &res, &err) == BASEL_EINVAL && !res,
          "a single class is EINVAL: %s", err.message);
    bad.kernels = 0;
    CHECK(bsl_mixture_fit(X, N_TRAIN, D_IN, cls, 2, &bad, &res, &err) == BASEL_EINVAL,
          "kernels 0 is EINVAL: %s", err.message);
    int *few = malloc(N_TRAIN * sizeof *few);
    for (size_t i = 0; i < N_TRAIN; i++) few[i] = i == 3 ? 1 : (cls[i] == 1 ? -1 : 0);
    CHECK(bsl_mixture_fit(X, N_TRAIN, D_IN, few, 2, o, &res, &err) == BASEL_EINVAL,
          "one labelled row in a class is EINVAL: %s", err.message);
    free(few);
    double *Xn = malloc(N_TRAIN * D_IN * sizeof *Xn);
    memcpy(Xn, X, N_TRAIN * D_IN * sizeof *Xn);
    Xn[5 * N_TRAIN + 17] = NAN;
    CHECK(bsl_mixture_fit(Xn, N_TRAIN, D_IN, cls, 2, o, &res, &err) == BASEL_EINVAL,
          "NaN input is EINVAL: %s", err.message);
    for (size_t i = 0; i < N_TRAIN; i++) Xn[5 * N_TRAIN + i] = 2.5;
    CHECK(bsl_mixture_fit(Xn, N_TRAIN, D_IN, cls, 2, o, &res, &err) == BASEL_EINVAL,
          "constant input is EINVAL: %s", err.message);
    free(Xn);
}

/* Every top-level and draws field removed or replaced by a wrong type must
 * be refused cleanly (run under ASan / valgrind to see "cleanly"). */
static void check_json_damage(const json_t *good)
{
    const char *key;
    json_t *val;
    size_t refused = 0, tried = 0;
    json_object_foreach((json_t *)good, key, val) {
        for (int how = 0; how < 2; how++) {
            json_t *c = json_deep_copy(good);
            if (how == 0) json_object_del(c, key);
            else json_object_set_new(c, key, json_real(-1.5));
            bsl_mix_result *bad = NULL;
            basel_error err;
            refused += bsl_mix_from_json(&bad, c, &err) == BASEL_EPARSE && !bad;
            tried++;
            bsl_mix_free(bad);
            json_decref(c);
        }
    }
    json_t *c = json_deep_copy(good);
    json_t *mu0 = json_array_get(json_object_get(json_object_get(c, "draws"), "mu"), 0);
    json_array_append_new(mu0, json_real(1)); /* one mean too many */
    bsl_mix_result *bad = NULL;
    basel_error err;
    refused += bsl_mix_from_json(&bad, c, &err) == BASEL_EPARSE && !bad;
    tried++;
    json_decref(c);
    CHECK(refused == tried, "damaged JSON refused: %zu of %zu", refused, tried);
}

/* to_json -> dump -> load -> from_json must give identical predictions and
 * an identical dump. */
static void check_json(const bsl_mix_result *res, const double *X, size_t n)
{
    json_t *j = bsl_mix_to_json(res);
    char *s1 = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_error_t jerr;
    json_t *j2 = s1 ? json_loads(s1, 0, &jerr) : NULL;
    bsl_mix_result *back = NULL;
    basel_error err;
    CHECK(j2 && bsl_mix_from_json(&back, j2, &err) == BASEL_OK, "from_json accepts to_json");
    if (back) {
        json_t *j3 = bsl_mix_to_json(back);
        char *s2 = json_dumps(j3, JSON_COMPACT | JSON_SORT_KEYS);
        CHECK(s2 && strcmp(s1, s2) == 0, "JSON round trip is byte-identical");
        double *p1 = malloc(n * 2 * sizeof *p1), *p2 = malloc(n * 2 * sizeof *p2);
        bsl_mixture_predict(res, X, n, p1);
        bsl_mixture_predict(back, X, n, p2);
        CHECK(memcmp(p1, p2, n * 2 * sizeof *p1) == 0, "predictions identical after the round trip");
        free(p1), free(p2), free(s2);
        json_decref(j3);
        check_json_damage(j2);
        /* a damaged object is refused, not a crash */
        json_object_set_new(j2, "kernels", json_string("three"));
        bsl_mix_result *bad = NULL;
        CHECK(bsl_mix_from_json(&bad, j2, &err) == BASEL_EPARSE && !bad, "bad kernels refused: %s",
              err.message);
    }
    bsl_mix_free(back);
    json_decref(j2);
    free(s1);
    json_decref(j);
}

/* Unlabelled rows (class -1) are left out unless o->unlabelled: a fit with
 * every third row unlabelled predicts the same, bit for bit, as a fit of
 * the labelled rows alone, and differently with o->unlabelled = 1. */
static void check_unlabelled(const double *X, const int *cls, const bsl_mix_options *o)
{
    bsl_mix_options q = *o;
    q.iter = 600, q.burn = 100;
    int *c = malloc(N_TRAIN * sizeof *c), *cl = malloc(N_TRAIN * sizeof *cl);
    double *Xl = malloc(N_TRAIN * D_IN * sizeof *Xl);
    size_t nl = 0;
    for (size_t i = 0; i < N_TRAIN; i++) c[i] = i % 3 == 0 ? -1 : cls[i], nl += i % 3 != 0;
    for (size_t i = 0, r = 0; i < N_TRAIN; i++) {
        if (c[i] < 0) continue;
        for (size_t j = 0; j < D_IN; j++) Xl[j * nl + r] = X[j * N_TRAIN + i];
        cl[r++] = c[i];
    }
    bsl_mix_result *a = NULL, *b = NULL, *u = NULL;
    basel_error err;
    CHECK(bsl_mixture_fit(X, N_TRAIN, D_IN, c, 2, &q, &a, &err) == BASEL_OK, "fit, unlabelled ignored: %s", err.message);
    CHECK(bsl_mixture_fit(Xl, nl, D_IN, cl, 2, &q, &b, &err) == BASEL_OK, "fit, labelled rows: %s", err.message);
    q.unlabelled = 1;
    CHECK(bsl_mixture_fit(X, N_TRAIN, D_IN, c, 2, &q, &u, &err) == BASEL_OK, "fit, unlabelled used: %s", err.message);
    if (a && b && u) { /* the predictions carry every kept parameter draw */
        double *pa = malloc(2 * N_TRAIN * sizeof *pa), *pb = malloc(2 * N_TRAIN * sizeof *pb),
               *pu = malloc(2 * N_TRAIN * sizeof *pu);
        bsl_mixture_predict(a, X, N_TRAIN, pa);
        bsl_mixture_predict(b, X, N_TRAIN, pb);
        bsl_mixture_predict(u, X, N_TRAIN, pu);
        CHECK(memcmp(pa, pb, 2 * N_TRAIN * sizeof *pa) == 0,
              "unlabelled rows ignored by default: the same fit as the labelled rows alone");
        CHECK(memcmp(pa, pu, 2 * N_TRAIN * sizeof *pa) != 0, "unlabelled = 1 uses them: a different fit");
        free(pa), free(pb), free(pu);
    }
    bsl_mix_free(u);
    u = NULL;
    bsl_mix_free(a), bsl_mix_free(b), bsl_mix_free(u);
    free(c), free(cl), free(Xl);
}

int main(void)
{
    const unsigned long seed = 424242;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double *X = malloc(N_TRAIN * D_IN * sizeof *X), *Xt = malloc(N_TEST * D_IN * sizeof *Xt);
    int *cls = malloc(N_TRAIN * sizeof *cls), *ct = malloc(N_TEST * sizeof *ct);
    simulate(r, N_TRAIN, X, cls);
    simulate(r, N_TEST, Xt, ct);
    bsl_mix_options o;
    bsl_mix_options_default(&o);
    o.kernels = 2, o.iter = 4000, o.burn = 1000, o.thin = 5, o.chains = 2, o.seed = seed;
    bsl_mix_result *res = NULL;
    basel_error err;
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
    CHECK(bsl_mixture_fit(X, N_TRAIN, D_IN, cls, 2, &o, &res, &err) == BASEL_OK, "fit: %s", err.message);
    if (!res) return check_report("test_mixture_synthetic");
    size_t d;
    const double *pip = bsl_mix_pip(res, &d);
    bsl_mix_diag dg;
    bsl_mix_diagnostics(res, &dg);
    printf("  PIPs:");
    for (size_t j = 0; j < d; j++) printf(" %.3f", pip[j]);
    printf("\n  mean inputs %.2f, max %zu, %zu subsets visited; accept add %.4f remove %.4f "
           "exchange %.4f; %.0f sweeps/s\n", bsl_mix_mean_inputs(res), bsl_mix_max_inputs(res),
           bsl_mix_subsets_visited(res), dg.accept_add, dg.accept_remove, dg.accept_exchange,
           dg.sweeps_per_second);
    for (size_t j = 0; j < d; j++) {
        if (relevant[j])
            CHECK(pip[j] > 0.9, "relevant input %zu: PIP %.3f > 0.9 (seed %lu)", j, pip[j], seed);
        else
            CHECK(pip[j] < 0.2, "noise input %zu: PIP %.3f < 0.2 (seed %lu)", j, pip[j], seed);
    }
    const double acc = accuracy(res, Xt, ct, N_TEST);
    printf("  test accuracy %.3f (Bayes rate about 0.958)\n", acc);
    CHECK(acc > 0.92, "test accuracy %.3f > 0.92 (seed %lu)", acc, seed);
#ifdef _OPENMP
    omp_set_num_threads(2);
    bsl_mix_result *res2 = NULL;
    CHECK(bsl_mixture_fit(X, N_TRAIN, D_IN, cls, 2, &o, &res2, &err) == BASEL_OK, "fit with 2 threads");
    if (res2) {
        const double *pip2 = bsl_mix_pip(res2, NULL);
        CHECK(memcmp(pip, pip2, d * sizeof *pip) == 0, "PIPs identical with 1 and 2 threads");
    }
    bsl_mix_free(res2);
#endif
    check_json(res, Xt, N_TEST);
    check_errors(X, cls, &o);
    check_unlabelled(X, cls, &o);
    bsl_mix_free(res);
    free(X), free(Xt), free(cls), free(ct);
    gsl_rng_free(r);
    return check_report("test_mixture_synthetic");
}
