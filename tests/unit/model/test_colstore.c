/*
 * test_colstore.c: the summaries' shared columns (colstore.c):
 *   - admission: within a budget of 3 columns, the 3 most used atoms (used
 *     twice or more) get slots, an atom used once never does;
 *   - a stored column is bit for bit bsl_design_column's, fetched again from
 *     the same slot;
 *   - a model reading its columns from the store refits a set to the same
 *     bits (coefficient means, inverse, log ML) as one with its own cache;
 *   - the cross products it remembers by atom pair (and by how bsl_dots
 *     sums them at a position: in a block of four or in the tail) give
 *     the same refits, bit for bit, as computing them, over sets of 5 to 8
 *     atoms that share pairs at different positions; the second pass reads
 *     them all from the store (no new pair);
 *   - bsl_dots_of sums as bsl_dots's blocks and bsl_dots's tail as one
 *     running sum, bit for bit;
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
    /* remembered pairs: sets sharing atoms at other positions, refit twice */
    for (size_t j = 0; j < m; j++) uses[j] = 2;
    CHECK(bsl_colstore_init(&cs, Ds, uses, m * N * sizeof(double)) == BASEL_OK, "init, every atom");
    static const size_t sets[4][8] = {{5, 9, 13, 17, 21}, {9, 5, 30, 13, 17, 40}, {40, 30, 21, 17, 13, 9, 5, 2},
                                      {2, 5, 9, 13, 17, 21, 30}};
    static const size_t sizes[4] = {5, 6, 8, 7};
    size_t pairs_after_first = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t s = 0; s < 4; s++) {
            bsl_model *P = NULL, *Q = NULL;
            bsl_model_create(&P, Ds, &pr, 8, &err);
            bsl_model_create(&Q, Ds, &pr, 8, &err);
            if (!P || !Q) break;
            bsl_model_use_columns(Q, &cs);
            for (size_t i = 0; i < sizes[s]; i++) {
                bsl_model_add(P, sets[s][i]);
                bsl_model_add(Q, sets[s][i]);
            }
            double bp[8], bq[8];
            bsl_model_coef_mean(P, bp);
            bsl_model_coef_mean(Q, bq);
            CHECK(P->k == sizes[s] && Q->k == sizes[s] && memcmp(bp, bq, sizes[s] * sizeof *bp) == 0 &&
                      P->log_ml == Q->log_ml &&
                      memcmp(P->GA, Q->GA, (P->kmax + 1) * (P->kmax + 1) * sizeof *P->GA) == 0,
                  "pass %d, set %zu: remembered pairs refit to the same bits", pass, s);
            bsl_model_free(P);
            bsl_model_free(Q);
        }
        if (pass == 0) pairs_after_first = cs.npair;
    }
    CHECK(pairs_after_first > 0 && cs.npair == pairs_after_first, "the second pass remembered every pair (%zu, %zu)",
          pairs_after_first, cs.npair);
    double v;
    CHECK(!bsl_colstore_pair_find(&cs, 0, 1, 1, &v) && !bsl_colstore_pair_find(NULL, 5, 9, 1, &v),
          "a pair never computed is not found");
    bsl_colstore_free(&cs);
    /* bsl_dots_of against bsl_dots: blocks as running sums, the tail as one */
    {
        enum { K = 7 };
        double C[K * N], out_dots[K], out_of[K];
        const double *ptr[K];
        for (size_t i = 0; i < K * N; i++) C[i] = sin(0.37 * (double)i) * exp(0.01 * (double)(i % N));
        for (size_t i = 0; i < K; i++) ptr[i] = C + i * N;
        bsl_dots(Y, C, N, K, N, out_dots);
        bsl_dots_of(Y, ptr, K, N, out_of);
        CHECK(memcmp(out_dots, out_of, 4 * sizeof *out_of) == 0, "a block of four: the same bits as bsl_dots");
        for (size_t i = 4; i < K; i++) {
            double s = 0;
            for (size_t t = 0; t < N; t++) s += Y[t] * C[i * N + t];
            CHECK(out_of[i] == s, "tail column %zu: one running sum", i);
        }
    }
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
