/*
 * test_smc_resume.c: the sequential RVM's particle system (engine/smc/smc.h)
 * saved and resumed, and run on 1 or 2 threads:
 *   - feeding 40 points at once and feeding 25, saving to JSON text,
 *     loading, and feeding the other 15 give byte-identical JSON;
 *   - write, read, write again gives identical bytes;
 *   - threads = 1 and threads = 2 give byte-identical JSON;
 * (each particle's model state, model.h, loads back bit for bit)
 * for both kernels (resample-move and the paper's), with the variances
 * sampled (eq. 5) and with an ESS-triggered resampling; the loader
 * rejects damaged files with BASEL_EPARSE instead of crashing; and the
 * candidates' cross products, whose rows the cache applies in blocks and
 * on demand (smc.c cache_add), are bit for bit those of one rank-one
 * update per point, on 1 and 2 threads.
 */
#include "check.h"
#include "engine/smc/smc.h"
#include "engine/smc/smc_impl.h"

#include <cblas.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N_PTS = 40, SPLIT = 25 };

static void data(double *x, double *y)
{
    for (int i = 0; i < N_PTS; i++) {
        const double u = fmod(0.7548776662 * (i + 1) * 13.0, 1.0);
        x[i] = -10 + 20 * u;
        y[i] = (x[i] == 0 ? 1 : sin(x[i]) / x[i]) + 0.1 * sin(78.233 * (i + 1));
    }
}

static bsl_smc_options opts(int kernel, int threads)
{
    bsl_smc_options o;
    bsl_smc_options_default(&o);
    o.particles = 64;
    o.seed = 4242;
    o.kernel = kernel;
    o.threads = threads;
    o.ess_threshold = kernel == BSL_SMC_KERNEL_MOVE ? 0.5 : 1.0;
    o.candidates = 30; /* also exercise points beyond the candidate set */
    return o;
}

static char *dump(const bsl_smc *s)
{
    json_t *j = bsl_smc_to_json(s);
    if (!j) return NULL;
    char *t = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(j);
    return t;
}

/* Feed x[from..to) one point at a time. */
static int feed(bsl_smc *s, const double *x, const double *y, int from, int to)
{
    basel_error err;
    for (int i = from; i < to; i++)
        if (bsl_smc_feed(s, &x[i], y[i], &err) != BASEL_OK) {
            fprintf(stderr, "feed: %s\n", err.message);
            return -1;
        }
    return 0;
}

static char *run_all(const double *x, const double *y, int kernel, int threads)
{
    bsl_smc_options o = opts(kernel, threads);
    bsl_smc *s = NULL;
    basel_error err;
    if (bsl_smc_create(&s, 1, &o, &err) != BASEL_OK || feed(s, x, y, 0, N_PTS)) return NULL;
    char *t = dump(s);
    bsl_smc_free(s);
    return t;
}

static char *run_resumed(const double *x, const double *y, int kernel, char **first_half_twice)
{
    bsl_smc_options o = opts(kernel, 2);
    bsl_smc *s = NULL, *r = NULL;
    basel_error err;
    if (bsl_smc_create(&s, 1, &o, &err) != BASEL_OK || feed(s, x, y, 0, SPLIT)) return NULL;
    char *saved = dump(s);
    bsl_smc_free(s);
    json_t *j = json_loads(saved, 0, NULL);
    const int rc = bsl_smc_from_json(&r, j, 0, &err);
    json_decref(j);
    CHECK(rc == BASEL_OK, "resume: from_json: %s", err.message);
    if (rc != BASEL_OK) {
        free(saved);
        return NULL;
    }
    char *again = dump(r);
    *first_half_twice = again;
    CHECK(again && strcmp(saved, again) == 0, "kernel %d: write, read, write again differs", kernel);
    free(saved);
    bsl_smc_set_threads(r, 1);
    char *t = feed(r, x, y, SPLIT, N_PTS) ? NULL : dump(r);
    bsl_smc_free(r);
    return t;
}

/* A damaged copy of text must be refused cleanly. */
static void expect_reject(const char *text, const char *from, const char *to, const char *label)
{
    const char *at = strstr(text, from);
    CHECK(at != NULL, "%s: pattern '%s' not in the saved text", label, from);
    if (!at) return;
    const size_t n = strlen(text), a = (size_t)(at - text), lf = strlen(from), lt = strlen(to);
    char *bad = malloc(n - lf + lt + 1);
    memcpy(bad, text, a);
    memcpy(bad + a, to, lt);
    memcpy(bad + a + lt, at + lf, n - a - lf + 1);
    json_t *j = json_loads(bad, 0, NULL);
    bsl_smc *s = NULL;
    basel_error err;
    memset(&err, 0, sizeof err);
    for (int frozen = 0; frozen <= 1; frozen++) { /* to be fed on, or only read */
        const int rc = j ? bsl_smc_from_json(&s, j, frozen, &err) : BASEL_EPARSE;
        CHECK(rc == BASEL_EPARSE && s == NULL, "%s (frozen %d): accepted (rc %d)", label, frozen, rc);
        if (j) CHECK(err.message[0] != 0, "%s (frozen %d): no message", label, frozen);
        bsl_smc_free(s);
        s = NULL;
    }
    json_decref(j);
    free(bad);
}

/* The cross products as the cache computed them before it held rows back:
 * one rank-one update per point over the old candidates, and a new
 * candidate's column from the candidates' kernel matrix Kc, written as plain
 * loops in the order of the reference BLAS's dsyr and dgemv (the cache does
 * the same operations in the same order, in blocks; an optimised BLAS would
 * round differently, so it is not the reference here). */
static void reference_gram(const double *x, size_t n, size_t M, double width, double *G)
{
    double *Kc = calloc(M * M, sizeof *Kc), *row = calloc(M, sizeof *row);
    memset(G, 0, M * M * sizeof *G);
    for (size_t t = 0; t < n; t++) {
        const size_t m = t < M ? t : M;
        for (size_t c = 0; c < m; c++) row[c] = bsl_smc_kernel(&x[t], &x[c], 1, width);
        for (size_t c = 0; c < m; c++) /* the rank-one update, entry by entry */
            for (size_t i = 0; i <= c; i++) G[i + c * M] += row[i] * row[c];
        if (m < M) {
            row[m] = 1.0;
            for (size_t i = 0; i < m; i++) Kc[i + m * M] = Kc[m + i * M] = row[i];
            Kc[m + m * M] = 1.0;
            for (size_t j = 0; j <= m; j++) { /* Kc' row, each sum in row order */
                double sum = 0.0;
                for (size_t i = 0; i <= m; i++) sum += Kc[i + j * M] * row[i];
                G[j + m * M] = sum;
            }
        }
    }
    free(Kc);
    free(row);
}

/* 300 points, 20 candidates: 4 full blocks of held-back rows and a part of
 * one; the saved G (the rows still held applied to a copy) and the G the
 * particles read must equal the per-point updates exactly. */
static void check_cross_products(int threads)
{
    enum { NP = 300, M = 20 };
    double x[NP], y[NP], G[M * M];
    for (int i = 0; i < NP; i++) {
        const double u = fmod(0.7548776662 * (i + 1) * 13.0, 1.0);
        x[i] = -10 + 20 * u;
        y[i] = (x[i] == 0 ? 1 : sin(x[i]) / x[i]) + 0.1 * sin(78.233 * (i + 1));
    }
    bsl_smc_options o = opts(BSL_SMC_KERNEL_MOVE, threads);
    o.candidates = M;
    o.particles = 16;
    bsl_smc *s = NULL;
    basel_error err;
    CHECK(bsl_smc_create(&s, 1, &o, &err) == BASEL_OK && feed(s, x, y, 0, NP) == 0, "cross products: feed");
    if (!s) return;
    reference_gram(x, NP, M, o.width, G);
    json_t *j = bsl_smc_to_json(s);
    const json_t *g = json_object_get(json_object_get(j, "cache"), "G");
    size_t differ = 0, at = 0;
    for (size_t c = 0; c < M; c++)
        for (size_t i = 0; i <= c; i++, at++) differ += json_real_value(json_array_get(g, at)) != G[i + c * M];
    CHECK(json_array_size(g) == M * (M + 1) / 2 && differ == 0,
          "cross products (%d threads): %zu of %d saved entries differ from one rank-one update per point", threads,
          differ, M * (M + 1) / 2);
    char *before = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    size_t read_differ = 0; /* the particles' reads bring the columns up to date in place */
    for (size_t c = 0; c < M; c++)
        for (size_t i = 0; i < M; i++) read_differ += bsl_smc_gram(&s->cache, i, c) != G[BSL_MIN(i, c) + BSL_MAX(i, c) * M];
    char *after = dump(s);
    CHECK(read_differ == 0, "cross products (%d threads): %zu of %d entries read differ", threads, read_differ, M * M);
    CHECK(before && after && strcmp(before, after) == 0, "cross products (%d threads): reading them changed the saved system",
          threads);
    free(before);
    free(after);
    json_decref(j);
    bsl_smc_free(s);
}

int main(void)
{
    double x[N_PTS], y[N_PTS];
    data(x, y);
    for (int kernel = 0; kernel <= 1; kernel++) {
        char *all1 = run_all(x, y, kernel, 1), *all2 = run_all(x, y, kernel, 2);
        char *half = NULL, *resumed = run_resumed(x, y, kernel, &half);
        CHECK(all1 && all2 && strcmp(all1, all2) == 0, "kernel %d: 1 vs 2 threads differ", kernel);
        CHECK(all1 && resumed && strcmp(all1, resumed) == 0,
              "kernel %d: resumed run differs from the uninterrupted one", kernel);
        printf("kernel %s: saved system %zu bytes after %d points, identical: threads %s, resume %s\n",
               kernel ? "paper" : "move", all1 ? strlen(all1) : 0, N_PTS,
               all1 && all2 && !strcmp(all1, all2) ? "yes" : "NO",
               all1 && resumed && !strcmp(all1, resumed) ? "yes" : "NO");
        if (kernel == 0 && half) {
            expect_reject(half, "\"format\":\"basel-smc\"", "\"format\":\"other\"", "format");
            expect_reject(half, "\"format_version\":2", "\"format_version\":9", "version");
            expect_reject(half, "\"centres\":[", "\"centres\":[99999,", "centre out of range");
            expect_reject(half, "\"sigma2\":", "\"sigma2\":-", "negative sigma2");
            expect_reject(half, "\"model\":[", "\"model\":[-", "negative factor diagonal");
            expect_reject(half, "\"cache\":{", "\"cachx\":{", "missing cache");
            expect_reject(half, "\"particles\":64", "\"particles\":65", "particle count");
            expect_reject(half, "\"kernel\":\"move\"", "\"kernel\":\"nope\"", "kernel name");
            expect_reject(half, "\"model\":[", "\"model\":[1,", "model state length");
            expect_reject(half, "\"d\":1", "\"d\":\"1\"", "d type");
        }
        free(all1);
        free(all2);
        free(half);
        free(resumed);
    }
    check_cross_products(1);
    check_cross_products(2);
    /* bad input points and options are refused */
    bsl_smc_options o = opts(0, 1);
    bsl_smc *s = NULL;
    basel_error err;
    CHECK(bsl_smc_create(&s, 1, &o, &err) == BASEL_OK, "create");
    const double nan_x = NAN, ok_x = 0.5;
    CHECK(bsl_smc_feed(s, &nan_x, 1.0, &err) == BASEL_EINVAL, "NaN input accepted");
    CHECK(bsl_smc_feed(s, &ok_x, INFINITY, &err) == BASEL_EINVAL, "Inf target accepted");
    CHECK(bsl_smc_points(s) == 0, "a refused point was counted");
    bsl_smc_free(s);
    o.c_move = 0.7;
    CHECK(bsl_smc_create(&s, 1, &o, &err) == BASEL_EINVAL && s == NULL, "c_move 0.7 accepted");
    o = opts(0, 1);
    o.width = 0;
    CHECK(bsl_smc_create(&s, 1, &o, &err) == BASEL_EINVAL, "width 0 accepted");
    return check_report("test_smc_resume");
}
