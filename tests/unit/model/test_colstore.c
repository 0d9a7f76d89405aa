/*
 * test_colstore.c: the summaries' shared columns (colstore.c):
 *   - admission: within a budget of 3 columns, the 3 most used atoms (used
 *     twice or more) get slots, an atom used once never does;
 *   - a stored column is bit for bit bsl_design_column's, fetched again from
 *     the same slot;
 *   - a model reading its columns from the store refits a set to the same
 *     bits (coefficient means, inverse, log ML) as one with its own cache;
 *   - a dense design keeps nothing (every get NULL).
 */
#include "check.h"
#include "model/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    enum { N = 60 };
    double X[N], Y[N];
    for (size_t i = 0; i < N; i++) {
        X[i] = -3 + 6.0 * (double)i / (N - 1) + 0.01 * sin(2.385 * (double)i);
        Y[i] = sin(X[i]) + 0.1 * cos(7.1 * (double)i);
    }
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *Ds = NULL, *Dd = NULL;
    CHECK(bsl_dict_create(&dict, "gauss:r=0.8", X, N, 1, &err) == BASEL_OK, "dict: %s", err.message);
    if (!dict) return check_report("test_colstore");
    CHECK(bsl_design_create(&Ds, dict, X, N, Y, 1, 0, &err) == BASEL_OK && !Ds->G, "streaming design");
    CHECK(bsl_design_create(&Dd, dict, X, N, Y, 1, (size_t)1 << 30, &err) == BASEL_OK && Dd->G, "dense design");
    const size_t m = Ds->m;
    size_t *uses = calloc(m, sizeof *uses);
    uses[0] = 5, uses[1] = 1, uses[2] = 3, uses[3] = 4, uses[4] = 2; /* 0, 3, 2 fit; 4 does not; 1 never */
    bsl_colstore cs;
    CHECK(bsl_colstore_init(&cs, Ds, uses, 3 * N * sizeof(double)) == BASEL_OK, "init");
    CHECK(bsl_colstore_get(&cs, 1) == NULL, "used once: no slot");
    CHECK(bsl_colstore_get(&cs, 4) == NULL, "beyond the budget: no slot");
    double *col = malloc(N * sizeof *col);
    for (size_t j = 0; j < 4; j++) {
        if (j == 1) continue;
        const double *a = bsl_colstore_get(&cs, j), *b = bsl_colstore_get(&cs, j);
        bsl_design_column(Ds, j, col);
        CHECK(a && a == b && memcmp(a, col, N * sizeof *col) == 0, "atom %zu: its own slot, the design's bits", j);
    }
    CHECK(cs.used == 3, "three slots used (%zu)", cs.used);
    /* a refit through the store: the same bits as through the model's own cache */
    bsl_coef_prior pr;
    CHECK(bsl_coef_prior_parse(&pr, "g", N, 1, &err) == BASEL_OK, "prior");
    bsl_model *A = NULL, *B = NULL;
    bsl_model_create(&A, Ds, &pr, 4, &err);
    bsl_model_create(&B, Ds, &pr, 4, &err);
    bsl_model_use_columns(B, &cs);
    CHECK(A && B && B->store == &cs, "models");
    const size_t set[] = {3, 0, 4, 2};
    for (size_t i = 0; A && B && i < 4; i++) {
        bsl_model_add(A, set[i]);
        bsl_model_add(B, set[i]);
    }
    if (A && B) {
        double ba[8], bb[8];
        bsl_model_coef_mean(A, ba);
        bsl_model_coef_mean(B, bb);
        CHECK(memcmp(ba, bb, 4 * sizeof *ba) == 0 && A->log_ml == B->log_ml &&
                  memcmp(A->Ainv, B->Ainv, (A->kmax + 1) * (A->kmax + 1) * sizeof *A->Ainv) == 0,
              "the same refit, bit for bit");
    }
    bsl_model_free(A);
    bsl_model_free(B);
    bsl_colstore_free(&cs);
    CHECK(bsl_colstore_init(&cs, Dd, uses, (size_t)1 << 20) == BASEL_OK && bsl_colstore_get(&cs, 0) == NULL,
          "a dense design keeps nothing");
    bsl_colstore_free(&cs);
    bsl_colstore_free(&cs); /* twice is harmless */
    free(col);
    free(uses);
    bsl_design_free(Ds);
    bsl_design_free(Dd);
    bsl_dict_free(dict);
    return check_report("test_colstore");
}
