/*
 * test_design_f32.c: a design whose inputs are held as float32
 * (bsl_design_create_f32, fit/problem.c compact_inputs) is the design of
 * the widened values, bit for bit. Against a design built from doubles
 * holding exactly the float32-rounded inputs: (1) every projected column's
 * B'y, diagonal and always-in coefficients, (2) every Gram row (the
 * design's cache, one pass over X32 per row) and every candidate row,
 * (3) a model's add_scores over all atoms and its try_add / log_ml after
 * a random walk of adds and removes, all equal to the last bit; (4) the
 * same on the design from the unrounded doubles differs (the test can
 * see a difference where there is one). The floats are packed in panels
 * (bsl_f32_pack), with a last panel narrower than the rest and with
 * columns past bsl_dots's blocks of four. The same (1)-(3) for whole
 * numbers within +-127 held as int8 (bsl_i8_pack, bsl_design_create_i8),
 * and for whole numbers 0..3 held as 2-bit codes (bsl_2bit_pack,
 * bsl_design_create_2bit; a word a row in each panel): exact, so the same
 * bits as the design of the doubles themselves.
 */
#include "check.h"
#include "model/gram_rows.h"
#include "model/model.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 60, KMAX = 12 };

static int same(const double *a, const double *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof a[i]) != 0 && !(isnan(a[i]) && isnan(b[i]))) return 0;
    return 1;
}

enum { F32 = 0, I8 = 1, TWO_BIT = 2 };
static const char *const kind_name[] = {"float32", "int8", "2-bit"};

/* kind: reals as float32, whole numbers in [-127, 127] as int8, or
 * whole numbers 0..3 as 2-bit codes */
static void check_seed(unsigned long seed, size_t M, int kind)
{
    const int i8 = kind != F32;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double *X = malloc(sizeof(double) * N * M), *Xr = malloc(sizeof(double) * N * M), Y[N];
    for (size_t i = 0; i < N; i++) {
        double prev = 0;
        for (size_t j = 0; j < M; j++)
            X[j * N + i] = prev = kind == TWO_BIT ? (double)gsl_ran_binomial(r, 0.3, 2) + (j % 3 == 0 ? 1 : 0)
                                  : i8            ? (double)gsl_ran_binomial(r, 0.3, 2) - (j % 3 == 0 ? 1 : 0)
                                                  : 0.9 * prev + gsl_ran_gaussian(r, 1.0);
    }
    if (kind == I8) X[7 * N + 3] = 127, X[8 * N + 4] = -127;
    for (size_t t = 0; t < (size_t)N * M; t++) Xr[t] = (double)(float)X[t];
    /* packed into panels in place (bsl_f32_pack, bsl_i8_pack) from a copy of X */
    double *Xc = malloc(sizeof(double) * N * M);
    memcpy(Xc, X, sizeof(double) * N * M);
    float *X32 = kind == F32 ? bsl_f32_pack(Xc, N, M) : NULL;
    int8_t *X8 = kind == I8 ? bsl_i8_pack(Xc, N, M) : NULL;
    uint32_t *X2 = kind == TWO_BIT ? bsl_2bit_pack(Xc, N, M) : NULL; /* frees Xc */
    int layout = X32 || X8 || X2;
    for (size_t j = 0; layout && j < M; j++)
        for (size_t t = 0; t < N; t++) {
            const size_t at = bsl_f32_at(N, M, t, j);
            const double v = kind == TWO_BIT ? (double)((X2[j / 16 * N + t] >> (2 * (j % 16))) & 3)
                           : i8             ? (double)X8[at]
                                            : (double)X32[at];
            layout &= v == Xr[j * N + t];
        }
    CHECK(layout, "%s packing: every value rounded, at its panel's place (M = %zu: %zu panels, the last of %zu)",
          kind_name[kind], M, (M + BSL_F32_PANEL - 1) / BSL_F32_PANEL, M % BSL_F32_PANEL);
    for (size_t i = 0; i < N; i++) Y[i] = X[5 * N + i] - 0.7 * X[200 * N + i] + gsl_ran_gaussian(r, 0.5);
    basel_error err;
    bsl_dict *dict;
    bsl_dict_create(&dict, "linear", Xr, N, M, &err);
    bsl_design *Dr, *Df, *Dx;
    /* budget 0: streamed, as compact inputs always are */
    CHECK(bsl_design_create_for(&Dr, dict, Xr, N, Y, 1, 0, 0, NULL, &err) == BASEL_OK, "double design (rounded)");
    CHECK((kind == TWO_BIT ? bsl_design_create_2bit(&Df, dict, X2, N, Y, 1, 0, 0, NULL, &err)
           : i8             ? bsl_design_create_i8(&Df, dict, X8, N, Y, 1, 0, 0, NULL, &err)
                            : bsl_design_create_f32(&Df, dict, X32, N, Y, 1, 0, 0, NULL, &err)) == BASEL_OK,
          "%s design", kind_name[kind]);
    CHECK(bsl_design_create_for(&Dx, dict, X, N, Y, 1, 0, 0, NULL, &err) == BASEL_OK, "double design (unrounded)");
    CHECK(Df->X == NULL && Df->X32 == X32 && Df->X8 == X8 && Df->X2 == X2 && Df->G == NULL,
          "the compact design streams from it");
    CHECK(same(Dr->Bty, Df->Bty, M) && same(Dr->diag, Df->diag, M) && same(Dr->gB, Df->gB, M),
          "B'y, diagonal and always-in coefficients: the same bits");
    if (!i8) CHECK(!same(Dx->Bty, Df->Bty, M), "the unrounded design differs (the comparison can fail)");
    /* Gram rows: every atom's, from each design's cache */
    double *row = malloc(M * sizeof *row);
    int rows_same = 1, rows_differ = 0;
    for (size_t a = 0; a < M; a += 7) {
        size_t sr, sf, sx;
        const double *gr = bsl_gram_row_pin(Dr->rows, Dr, a, &sr);
        memcpy(row, gr, M * sizeof *row);
        bsl_gram_row_unpin(Dr->rows, sr);
        const double *gf = bsl_gram_row_pin(Df->rows, Df, a, &sf);
        rows_same &= same(row, gf, M);
        const double *gx = bsl_gram_row_pin(Dx->rows, Dx, a, &sx);
        rows_differ |= !same(gx, gf, M);
        bsl_gram_row_unpin(Df->rows, sf);
        bsl_gram_row_unpin(Dx->rows, sx);
    }
    CHECK(rows_same, "Gram rows from the compact inputs equal the rounded design's bit for bit");
    if (!i8) CHECK(rows_differ, "Gram rows of the unrounded design differ");
    /* candidate rows (bsl_cand_row, bsl_dot_f32) through the models' candidate scores */
    bsl_coef_prior pr;
    bsl_coef_prior_parse(&pr, "g:g=60", N, 1, &err);
    bsl_model *Mr, *Mf;
    bsl_model_create(&Mr, Dr, &pr, KMAX, &err);
    bsl_model_create(&Mf, Df, &pr, KMAX, &err);
    size_t C[M / 3];
    for (size_t c = 0; c < M / 3; c++) C[c] = 3 * c + 1;
    bsl_model_set_candidates(Mr, C, M / 3);
    bsl_model_set_candidates(Mf, C, M / 3);
    double *sa = malloc(M * sizeof *sa), *sb = malloc(M * sizeof *sb);
    int scores_same = 1, steps = 0;
    for (int step = 0; step < 200; step++) {
        const int add = Mr->k < 2 || (Mr->k < KMAX - 1 && gsl_rng_uniform(r) < 0.55);
        if (add) {
            const size_t j = gsl_rng_uniform_int(r, M);
            const int ar = bsl_model_add(Mr, j), af = bsl_model_add(Mf, j);
            scores_same &= ar == af;
        } else {
            const size_t j = Mr->active[gsl_rng_uniform_int(r, Mr->k)];
            bsl_model_remove(Mr, j);
            bsl_model_remove(Mf, j);
        }
        scores_same &= memcmp(&Mr->log_ml, &Mf->log_ml, sizeof Mr->log_ml) == 0;
        bsl_model_add_scores(Mr, sa, INFINITY);
        bsl_model_add_scores(Mf, sb, INFINITY);
        scores_same &= same(sa, sb, M);
        bsl_model_candidate_scores(Mr, sa, INFINITY);
        bsl_model_candidate_scores(Mf, sb, INFINITY);
        scores_same &= same(sa, sb, M / 3);
        const size_t j = gsl_rng_uniform_int(r, M);
        if (Mr->pos[j] < 0) {
            const double tr = bsl_model_try_add(Mr, j), tf = bsl_model_try_add(Mf, j);
            scores_same &= memcmp(&tr, &tf, sizeof tr) == 0;
        }
        steps++;
    }
    CHECK(steps == 200 && scores_same,
          "log_ml, add_scores, candidate scores and try_add after %d moves: the same bits", steps);
    free(sa);
    free(sb);
    free(row);
    bsl_model_free(Mr);
    bsl_model_free(Mf);
    bsl_design_free(Dr);
    bsl_design_free(Df);
    bsl_design_free(Dx);
    bsl_dict_free(dict);
    free(X);
    free(Xr);
    free(X32);
    free(X8);
    free(X2);
    gsl_rng_free(r);
}

int main(void)
{
    for (int kind = F32; kind <= TWO_BIT; kind++) {
        check_seed(1, 300, kind); /* a last panel of 12 columns, no column past bsl_dots's blocks of four */
        check_seed(2, 303, kind); /* a last panel of 15, and 3 columns past the blocks of four (bsl_dot's sums) */
    }
    return check_report("test_design_f32");
}
