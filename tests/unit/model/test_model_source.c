/*
 * test_model_source.c: the Gaussian model with its atoms' columns supplied
 * by the caller (bsl_atom_source, model.h), the way free RBF centres will
 * reach it.
 *   1. A source that returns the dictionary's own raw columns gives the
 *      same model as the design's streaming path, bit for bit (log_ml and
 *      drop scores after every move of a long random add/remove walk), and
 *      the dense-Gram model to 1e-9 relative.
 *   2. Free centres: ids are slots whose centre the caller moves while the
 *      slot is not active; after every move the model's log_ml equals that
 *      of a fresh model built from the active centres (1e-9 relative).
 *   3. Streamed rows (paper 003): a model on a cross-product source over a
 *      plain design that grows by rank-one row updates (bsl_model_add_row),
 *      interleaved with adds and removes of kernels, equals after every
 *      step a fresh model on the rows so far (1e-9 relative), for a fixed
 *      ridge prior and for the g-prior with the intercept under it.
 */
#include "check.h"
#include "model/model.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 80, D = 2, SLOTS = 12 };

static void dict_column(void *ctx, size_t id, double *out)
{
    bsl_design_raw_column(ctx, id, out);
}

/* free centres: slot id holds centre mu[id] (D coordinates) */
typedef struct centres {
    const double *X;
    double mu[SLOTS * D];
} centres;

static void centre_column(void *ctx, size_t id, double *out)
{
    const centres *c = ctx;
    for (size_t i = 0; i < N; i++) {
        double r2 = 0;
        for (size_t a = 0; a < D; a++) {
            const double t = c->X[a * N + i] - c->mu[id * D + a];
            r2 += t * t;
        }
        out[i] = exp(-r2 / (2 * 0.7 * 0.7));
    }
}

static double rel(double a, double b) { return fabs(a - b) / fmax(1.0, fabs(b)); }

static void same_as_dictionary(const bsl_dict *dict, const double *X, const double *Y, gsl_rng *r)
{
    basel_error err;
    bsl_design *Dd, *Ds;
    bsl_design_create(&Dd, dict, X, N, Y, 1, (size_t)1 << 30, &err);
    bsl_design_create(&Ds, dict, X, N, Y, 1, 0, &err); /* budget 0: streaming */
    CHECK(Dd->G && !Ds->G, "one dense and one streaming design");
    bsl_coef_prior pr;
    bsl_coef_prior_parse(&pr, "hier:delta2=3.7", N, 1, &err);
    const size_t m = Dd->m, kmax = 15;
    bsl_atom_source src = {.m = m, .column = dict_column, .ctx = Ds};
    bsl_model *dense, *stream, *source;
    bsl_model_create(&dense, Dd, &pr, kmax, &err);
    bsl_model_create(&stream, Ds, &pr, kmax, &err);
    CHECK(bsl_model_create_source(&source, Ds, &src, &pr, kmax, &err) == BASEL_OK, "source model");
    int bitwise = 1, close = 1;
    size_t kmost = 0;
    double d1[16], d2[16];
    for (size_t step = 0; step < 3000; step++) {
        const size_t j = gsl_rng_uniform_int(r, m);
        if (stream->pos[j] >= 0) {
            bsl_model_remove(dense, j);
            bsl_model_remove(stream, j);
            bsl_model_remove(source, j);
        } else {
            const double a = bsl_model_try_add(stream, j), b = bsl_model_try_add(source, j);
            bitwise &= a == b || (isinf(a) && isinf(b));
            if (a == -INFINITY || b == -INFINITY) continue;
            if (bsl_model_try_add(dense, j) == -INFINITY) continue; /* at the rank boundary */
            bsl_model_add(dense, j);
            bsl_model_add(stream, j);
            bsl_model_add(source, j);
        }
        bitwise &= stream->log_ml == source->log_ml && stream->k == source->k;
        kmost = BSL_MAX(kmost, stream->k);
        close &= rel(source->log_ml, dense->log_ml) < 1e-9;
        if (stream->k > 0) {
            bsl_model_drop_scores(stream, d1);
            bsl_model_drop_scores(source, d2);
            bitwise &= memcmp(d1, d2, stream->k * sizeof(double)) == 0;
        }
    }
    CHECK(bitwise, "source model == streaming design model, bit for bit, over 3000 moves");
    CHECK(close, "source model == dense design model within 1e-9");
    CHECK(kmost == kmax, "the walk reaches kmax = %zu (reached %zu)", kmax, kmost);
    bsl_model_free(dense);
    bsl_model_free(stream);
    bsl_model_free(source);
    bsl_design_free(Dd);
    bsl_design_free(Ds);
}

static void free_centres(const bsl_dict *dict, const double *X, const double *Y, gsl_rng *r)
{
    basel_error err;
    bsl_design *Ds;
    bsl_design_create(&Ds, dict, X, N, Y, 1, 0, &err);
    bsl_coef_prior pr;
    bsl_coef_prior_parse(&pr, "g:g=80", N, 1, &err);
    centres C = {X, {0}};
    for (size_t i = 0; i < SLOTS * D; i++) C.mu[i] = gsl_ran_flat(r, -2, 2);
    bsl_atom_source src = {.m = SLOTS, .column = centre_column, .ctx = &C};
    bsl_cmodel *M;
    CHECK(bsl_cmodel_create_source(&M, Ds, &src, &pr, SLOTS, &err) == BASEL_OK, "source handle");
    int ok = 1;
    size_t moved = 0, kmost = 0;
    for (size_t step = 0; step < 400; step++) {
        const size_t id = gsl_rng_uniform_int(r, SLOTS);
        if (bsl_cmodel_is_active(M, id)) {
            bsl_cmodel_remove(M, id);
        } else {
            /* a new centre for a dormant slot, then perhaps add it */
            for (size_t a = 0; a < D; a++) C.mu[id * D + a] = gsl_ran_flat(r, -2, 2);
            moved++;
            if (bsl_cmodel_try_add(M, id) > -INFINITY) bsl_cmodel_add(M, id);
        }
        bsl_model *fresh;
        bsl_model_create_source(&fresh, Ds, &src, &pr, SLOTS, &err);
        const size_t k = bsl_cmodel_k(M);
        const size_t *act = bsl_cmodel_active(M);
        for (size_t i = 0; i < k; i++) bsl_model_add(fresh, act[i]);
        ok &= fresh->k == k && rel(bsl_cmodel_log_ml(M), fresh->log_ml) < 1e-9;
        kmost = BSL_MAX(kmost, k);
        bsl_model_free(fresh);
    }
    CHECK(ok, "free centres: incremental log_ml == fresh model over 400 moves (%zu centres moved)", moved);
    CHECK(kmost >= 6, "free centres: up to %zu active", kmost);
    bsl_cmodel_free(M);
    bsl_design_free(Ds);
}

/* streamed rows: atom 0 the constant, atom j >= 1 the kernel at point j - 1 */
enum { T = 60, KC = 10 };
typedef struct stream {
    const double *X; /* T x D, column-major with ld T */
    size_t n;        /* rows so far */
    double G[(KC + 1) * (KC + 1)], by[KC + 1];
} stream;

static double kern(const stream *S, size_t i, size_t id)
{
    if (id == 0) return 1.0;
    double r2 = 0;
    for (size_t a = 0; a < D; a++) {
        const double t = S->X[a * T + i] - S->X[a * T + id - 1];
        r2 += t * t;
    }
    return exp(-r2 / (2 * 0.8 * 0.8));
}
static double stream_gram(void *ctx, size_t i, size_t j) { return ((stream *)ctx)->G[i + j * (KC + 1)]; }
static double stream_bty(void *ctx, size_t j, size_t o) { (void)o; return ((stream *)ctx)->by[j]; }
static void stream_column(void *ctx, size_t id, double *out)
{
    const stream *S = ctx;
    for (size_t i = 0; i < S->n; i++) out[i] = kern(S, i, id);
}

static void streamed_rows(const char *prior, gsl_rng *r)
{
    basel_error err;
    double X[T * D], Y[T];
    for (size_t i = 0; i < T; i++) {
        for (size_t a = 0; a < D; a++) X[a * T + i] = gsl_ran_flat(r, -2, 2);
        Y[i] = 0.7 + sin(2 * X[i]) + 0.2 * gsl_ran_ugaussian(r);
    }
    stream S = {X, 0, {0}, {0}};
    bsl_design *Dg;
    bsl_design_create_plain(&Dg, 0, Y, 1, &err);
    bsl_coef_prior pr;
    bsl_coef_prior_parse(&pr, prior, T, 1, &err);
    bsl_atom_source gsrc = {.m = KC + 1, .gram = stream_gram, .bty = stream_bty, .ctx = &S, .rank_tol = 1e-12};
    bsl_atom_source csrc = {.m = KC + 1, .column = stream_column, .ctx = &S, .rank_tol = 1e-12};
    bsl_cmodel *M;
    CHECK(bsl_cmodel_create_source(&M, Dg, &gsrc, &pr, KC + 1, &err) == BASEL_OK, "cross-product model: %s",
          err.message);
    int ok = 1;
    size_t rows_with_k = 0;
    double row[KC + 1];
    for (size_t t = 0; t < T; t++) {
        /* the caller's part: the new row into the cross products and the design */
        for (size_t j = 0; j <= KC; j++) row[j] = kern(&S, t, j);
        for (size_t j = 0; j <= KC; j++) {
            for (size_t i = 0; i <= KC; i++) S.G[i + j * (KC + 1)] += row[i] * row[j];
            S.by[j] += row[j] * Y[t];
        }
        S.n = t + 1;
        bsl_design_add_row(Dg, Y + t);
        ok &= bsl_cmodel_add_row(M, row, Y + t) == BASEL_OK;
        rows_with_k += bsl_cmodel_k(M) > 1;
        /* then a move */
        const size_t j = gsl_rng_uniform_int(r, KC + 1);
        if (bsl_cmodel_is_active(M, j)) {
            if (gsl_rng_uniform(r) < 0.3) bsl_cmodel_remove(M, j);
        } else if (bsl_cmodel_try_add(M, j) > -INFINITY) {
            bsl_cmodel_add(M, j);
        }
        /* a fresh model on the rows so far, from columns */
        bsl_design *Dc;
        bsl_design_create_plain(&Dc, t + 1, Y, 1, &err);
        bsl_model *F;
        bsl_model_create_source(&F, Dc, &csrc, &pr, KC + 1, &err);
        const size_t k = bsl_cmodel_k(M);
        for (size_t i = 0; i < k; i++) bsl_model_add(F, bsl_cmodel_active(M)[i]);
        ok &= F->k == k && rel(bsl_cmodel_log_ml(M), F->log_ml) < 1e-9;
        bsl_model_free(F);
        bsl_design_free(Dc);
    }
    CHECK(ok, "%s: streamed rows == fresh models over %d rows (%zu with k > 1)", prior, T, rows_with_k);
    CHECK(rows_with_k > T / 2, "%s: the streamed model held kernels (%zu rows)", prior, rows_with_k);
    bsl_cmodel_free(M);
    bsl_design_free(Dg);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2385);
    double X[N * D], Y[N];
    for (size_t i = 0; i < N; i++) {
        for (size_t a = 0; a < D; a++) X[a * N + i] = gsl_ran_flat(r, -2, 2);
        Y[i] = sin(X[i]) * cos(0.7 * X[N + i]) + 0.1 * gsl_ran_ugaussian(r);
    }
    basel_error err;
    bsl_dict *dict;
    if (bsl_dict_create(&dict, "gauss:r=0.7", X, N, D, &err)) {
        fprintf(stderr, "dict: %s\n", err.message);
        return 1;
    }
    same_as_dictionary(dict, X, Y, r);
    free_centres(dict, X, Y, r);
    streamed_rows("ridge:lambda=0.7,sigma2=0.3", r);
    streamed_rows("g:g=60", r);
    streamed_rows("hier:delta2=5", r);
    bsl_dict_free(dict);
    gsl_rng_free(r);
    return check_report("test_model_source");
}
