/*
 * test_model.c: the incremental collapsed model over long random add /
 * remove sequences: (1) a dense design (cached Gram matrix) and a streaming
 * design (columns computed and cached per atom) give the same scores; (2)
 * after every step the score, and every "drop one atom" score, equal a fresh
 * factorisation of the same set (bsl_model_refactor on a copy); (3)
 * collinear atoms are refused, never turned into NaN.
 *
 * Well-conditioned cases (Gaussian kernels r = 1 under the ridge and
 * hierarchical priors, whose tau keeps A away from singular; an AR(1)
 * linear design under the g-prior) must agree to 1e-9 relative. The stiff
 * case, kernels r = 2.5 on 80 points in [-10, 10], is nearly collinear: the
 * rank rule admits atoms with variance inflation up to 1 / BSL_RANK_TOL =
 * 1e10, where the factor's scores are accurate to about 10 eps VIF ~ 2e-5
 * and the explicit inverse is rebuilt whenever an atom's inflation passes
 * BSL_INV_VIF (model.h, where the measurement is): we ask for 1e-4 absolute on the log scale
 * (a relative error of 1e-4 in a death rate), and since dense and streaming
 * arithmetic may then disagree on feasibility at the rank boundary, only the
 * dense path is run.
 * (4) bsl_model_try_swap (one atom out, one in, scored without moving:
 * from the explicit inverse on well-conditioned sets, else on a scratch
 * factor; both paths are taken) equals remove-then-try_add on a copy, and
 * leaves the model as it was; (5) bsl_model_add_scores (every dormant atom's
 * try_add, batched on the dense Gram) equals try_add atom by atom, on both
 * designs. Same tolerances; in the stiff case the two arithmetics may
 * disagree on feasibility at the rank boundary, which is counted, not
 * compared. (6) add_scores' tiled pass gives a fresh copy's bits
 * (tiled_passes). (7) A pass over more atoms than one block (model.c
 * block_of: the Gram rows are copied into V a block at a time) gives the
 * bits of a pass in one block: add_scores over 1500 atoms (two blocks)
 * equals candidate_scores over every other atom (750, one block) on a
 * dense design, and try_add atom by atom on a streaming one (blocked_passes).
 */
#include "check.h"
#include "model/gram_rows.h"
#include "model/model.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 80, D1 = 1, KMAX = 30 };

static void sequence(const char *prior_spec, unsigned long seed, double width, int linear)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double X[N * 40], Y[2 * N];
    for (size_t i = 0; i < N; i++) {
        double prev = 0;
        for (size_t j = 1; j < 40; j++) X[j * N + i] = prev = 0.8 * prev + gsl_ran_gaussian(r, 1.0);
        X[i] = gsl_ran_flat(r, -10, 10);
        Y[i] = (X[i] ? sin(X[i]) / X[i] : 1) + gsl_ran_gaussian(r, 0.2);
        Y[N + i] = cos(X[i] / 3) + gsl_ran_gaussian(r, 0.2);
    }
    basel_error err;
    bsl_dict *dict;
    bsl_design *Dd, *Ds;
    char basis[32];
    snprintf(basis, sizeof basis, "gauss:r=%g", width);
    const int stiff = width > 2;
    if (linear) bsl_dict_create(&dict, "linear", X + N, N, 39, &err);
    else bsl_dict_create(&dict, basis, X, N, D1, &err);
    const double *Xd = linear ? X + N : X;
    bsl_design_create(&Dd, dict, Xd, N, Y, 2, (size_t)1 << 30, &err);
    bsl_design_create(&Ds, dict, Xd, N, Y, 2, 0, &err); /* budget 0: streaming */
    CHECK(Dd->G != NULL && Ds->G == NULL, "dense and streaming designs built");
    bsl_coef_prior pr;
    bsl_coef_prior_parse(&pr, prior_spec, N, 2, &err);
    bsl_model *Md, *Ms, *Mf, *Mg;
    bsl_model_create(&Mg, Dd, &pr, KMAX, &err);
    bsl_model_create(&Md, Dd, &pr, KMAX, &err);
    bsl_model_create(&Ms, Ds, &pr, KMAX, &err);
    bsl_model_create(&Mf, Dd, &pr, KMAX, &err);
    double worst_stream = 0, worst_fresh = 0, worst_drop = 0;
    double drop_d[KMAX + 1], drop_f[KMAX + 1];
    int refused = 0, nan_seen = 0, swaps = 0, swap_edge = 0, batch_edge = 0, moved = 0;
    double worst_swap = 0, worst_batch = 0, sc_b[N], sc_1[N]; /* m <= N: a kernel at each row, or 39 inputs */
    for (int step = 0; step < 3000; step++) {
        const int add = Md->k == 0 || (Md->k < KMAX && gsl_rng_uniform(r) < 0.55);
        if (add) {
            const size_t j = gsl_rng_uniform_int(r, Dd->m);
            if (Md->pos[j] >= 0) continue;
            const double t = bsl_model_try_add(Md, j);
            const int rd = bsl_model_add(Md, j), rs = stiff ? rd : bsl_model_add(Ms, j);
            CHECK(rd == rs, "dense and streaming agree on whether atom %zu can be added", j);
            if (rd != rs) break;
            if (rd != BASEL_OK) {
                refused++;
                CHECK(t == -INFINITY, "a refused atom scored -inf");
                continue;
            }
        } else {
            const size_t j = Md->active[gsl_rng_uniform_int(r, Md->k)];
            bsl_model_remove(Md, j);
            if (!stiff) bsl_model_remove(Ms, j);
        }
        if (!stiff) worst_stream = fmax(worst_stream, fabs(Md->log_ml - Ms->log_ml) / fmax(1, fabs(Md->log_ml)));
        bsl_model_copy(Mf, Md);
        bsl_model_refactor(Mf);
        worst_fresh = fmax(worst_fresh, fabs(Md->log_ml - Mf->log_ml) / fmax(1, fabs(Mf->log_ml)));
        if (Md->k > 0) {
            bsl_model_drop_scores(Md, drop_d);
            bsl_model_drop_scores(Mf, drop_f);
            for (size_t p = 0; p < Md->k; p++) {
                worst_drop = fmax(worst_drop, stiff ? fabs(drop_d[p] - drop_f[p])
                                                    : fabs(drop_d[p] - drop_f[p]) / fmax(1, fabs(drop_f[p])));
                nan_seen |= !isfinite(drop_d[p]);
            }
        }
        nan_seen |= !isfinite(Md->log_ml);
        if (Md->k > 0 && Md->k < Dd->m) { /* (4) a swap scored in place */
            const size_t i = Md->active[gsl_rng_uniform_int(r, Md->k)];
            size_t j = gsl_rng_uniform_int(r, Dd->m);
            while (Md->pos[j] >= 0) j = (j + 1) % Dd->m;
            const double before = Md->log_ml;
            const size_t kb = Md->k;
            const double sw = bsl_model_try_swap(Md, i, j);
            moved |= Md->log_ml != before || Md->k != kb || Md->pos[i] < 0;
            bsl_model_copy(Mg, Md);
            bsl_model_remove(Mg, i);
            const double ref = bsl_model_try_add(Mg, j);
            swaps++;
            if ((sw == -INFINITY) != (ref == -INFINITY)) swap_edge++;
            else if (sw > -INFINITY) worst_swap = fmax(worst_swap, stiff ? fabs(sw - ref) : fabs(sw - ref) / fmax(1, fabs(ref)));
        }
        if (step % 25 == 0) { /* (5) the batched scores, dense and streamed */
            for (int pass = 0; pass < (stiff ? 1 : 2); pass++) {
                bsl_model *M = pass ? Ms : Md;
                bsl_model_add_scores(M, sc_b, INFINITY);
                for (size_t j = 0; j < Dd->m; j++) {
                    if (M->pos[j] >= 0) {
                        CHECK(isnan(sc_b[j]), "add_scores: NAN for the active atom %zu", j);
                        continue;
                    }
                    sc_1[j] = bsl_model_try_add(M, j);
                    if ((sc_b[j] == -INFINITY) != (sc_1[j] == -INFINITY)) batch_edge++;
                    else if (sc_1[j] > -INFINITY)
                        worst_batch = fmax(worst_batch, stiff ? fabs(sc_b[j] - sc_1[j])
                                                              : fabs(sc_b[j] - sc_1[j]) / fmax(1, fabs(sc_1[j])));
                }
            }
        }
    }
    const double tol = stiff ? 1e-4 : 1e-9;
    CHECK(worst_stream < 1e-10, "%s r=%g: streaming vs dense scores, max rel diff %.3g", prior_spec, width, worst_stream);
    CHECK(worst_fresh < tol, "%s r=%g: incremental vs fresh factorisation, max rel diff %.3g", prior_spec, width, worst_fresh);
    CHECK(worst_drop < tol, "%s r=%g: drop-one scores vs fresh, max diff %.3g", prior_spec, width, worst_drop);
    CHECK(!nan_seen, "%s: no NaN or Inf", prior_spec);
    CHECK(!moved, "%s r=%g: try_swap left the model as it was", prior_spec, width);
    CHECK(worst_swap < tol, "%s r=%g: try_swap vs remove + try_add, max diff %.3g over %d", prior_spec, width,
          worst_swap, swaps);
    /* both of try_swap's arithmetics were compared: the explicit inverse's
     * (tau = 0, where the collinearity check reads the inverse anyway, on
     * well-conditioned sets: all of the AR(1) design's, some of the stiff
     * kernels') and the scratch factor's (the others; ridge and hier here,
     * whose tau settles the check without the inverse) */
    const size_t inv_swaps = Md->swaps_inv;
    CHECK(bsl_coef_tau(&pr) == 0 ? inv_swaps > 0 && (!stiff || inv_swaps < (size_t)swaps) : inv_swaps == 0,
          "%s r=%g: try_swap took the inverse's path %zu of %d times", prior_spec, width, inv_swaps, swaps);
    CHECK(stiff ? swap_edge * 20 <= swaps : swap_edge == 0,
          "%s r=%g: try_swap and remove + try_add agree on feasibility (%d of %d differ)", prior_spec, width,
          swap_edge, swaps);
    CHECK(worst_batch < tol, "%s r=%g: add_scores vs try_add, max diff %.3g", prior_spec, width, worst_batch);
    CHECK(batch_edge == 0, "%s r=%g: add_scores and try_add agree on feasibility (%d differ)", prior_spec,
          width, batch_edge);
    if (stiff && strncmp(prior_spec, "g", 1) == 0)
        CHECK(refused > 0, "%s: near-collinear kernels were refused (%d times)", prior_spec, refused);
    bsl_model_free(Md);
    bsl_model_free(Ms);
    bsl_model_free(Mf);
    bsl_model_free(Mg);
    bsl_design_free(Dd);
    bsl_design_free(Ds);
    bsl_dict_free(dict);
    gsl_rng_free(r);
}

/* add_scores' screen (model.h, model.c screen_floor): under the g-prior with
 * one output, an atom may come back -inf only when its exact score is more
 * than `within` below the best; every other score is the unscreened one,
 * bit for bit. Dense and streamed designs; the screen must have acted. */
static void screened(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double X[N * 39], Y[N];
    for (size_t i = 0; i < N; i++) {
        double prev = 0;
        for (size_t j = 0; j < 39; j++) X[j * N + i] = prev = 0.8 * prev + gsl_ran_gaussian(r, 1.0);
        Y[i] = X[3 * N + i] - 0.5 * X[20 * N + i] + gsl_ran_gaussian(r, 1.0);
    }
    basel_error err;
    bsl_dict *dict;
    bsl_design *D[2];
    bsl_dict_create(&dict, "linear", X, N, 39, &err);
    bsl_design_create(&D[0], dict, X, N, Y, 1, (size_t)1 << 30, &err);
    bsl_design_create(&D[1], dict, X, N, Y, 1, 0, &err); /* streaming */
    bsl_coef_prior pr;
    bsl_coef_prior_parse(&pr, "g:g=80", N, 1, &err);
    int left_out = 0, wrong = 0, differ = 0, released = 0;
    for (int s = 0; s < 2; s++) {
        bsl_model *M;
        bsl_model_create(&M, D[s], &pr, KMAX, &err);
        double all[N], some[N];
        for (int step = 0; step < 200; step++) {
            const size_t j = gsl_rng_uniform_int(r, D[s]->m);
            if (M->pos[j] >= 0) bsl_model_remove(M, j);
            else if (M->k < KMAX - 1) bsl_model_add(M, j);
            const double within = step % 2 ? 1.0 : 6.0;
            bsl_model_add_scores(M, all, INFINITY);
            /* the streamed design's rows given back (as after rj's chains):
             * the next pass computes them again, to the same bits */
            if (s == 1 && step % 50 == 0) bsl_gram_rows_release(D[s]->rows), released++;
            bsl_model_add_scores(M, some, within);
            double best = -INFINITY;
            for (size_t a = 0; a < D[s]->m; a++)
                if (!isnan(all[a])) best = fmax(best, all[a]);
            for (size_t a = 0; a < D[s]->m; a++) {
                if (isnan(all[a]) != isnan(some[a])) differ++;
                else if (some[a] == -INFINITY && all[a] > -INFINITY) {
                    left_out++;
                    wrong += !(all[a] < best - within);
                } else if (!isnan(all[a]) && memcmp(&all[a], &some[a], sizeof(double)) != 0) {
                    differ++;
                }
            }
        }
        bsl_model_free(M);
    }
    CHECK(wrong == 0, "add_scores' screen left out %d atoms within the bound", wrong);
    CHECK(differ == 0, "the scores it kept are the unscreened ones, bit for bit (%d differ)", differ);
    CHECK(left_out > 0, "the screen left atoms out (%d)", left_out);
    CHECK(released == 4 && D[1]->rows, "the streamed design's Gram rows were released 4 times");
    bsl_design_free(D[0]);
    bsl_design_free(D[1]);
    bsl_dict_free(dict);
    gsl_rng_free(r);
}

/* (6) add_scores' pass by tiles (model.c batch_scores) depends on nothing
 * but the model's set: after any sequence of adds, removes (at any
 * position) and refactorisations (every BSL_REFACTOR_EVERY updates), a
 * pass gives the bits of the same pass on a fresh copy. More atoms (700)
 * than a tile of the pass (256), on dense and streamed designs, with one
 * output under the g-prior's screen and two under ridge. */
static void tiled_passes(unsigned long seed)
{
    enum { M = 700 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double *X = malloc(sizeof(double) * N * M), Y[2 * N];
    for (size_t i = 0; i < N; i++) {
        double prev = 0;
        for (size_t j = 0; j < M; j++) X[j * N + i] = prev = 0.8 * prev + gsl_ran_gaussian(r, 1.0);
        Y[i] = X[3 * N + i] - 0.5 * X[420 * N + i] + gsl_ran_gaussian(r, 1.0);
        Y[N + i] = X[300 * N + i] + gsl_ran_gaussian(r, 1.0);
    }
    basel_error err;
    bsl_dict *dict;
    bsl_dict_create(&dict, "linear", X, N, M, &err);
    const char *priors[2] = {"g:g=80", "ridge:lambda=0.5,sigma2=0.5"};
    int differ = 0, passes = 0;
    for (int c = 1; c <= 2; c++)
        for (int dense = 0; dense < 2; dense++) {
            bsl_design *D;
            bsl_design_create(&D, dict, X, N, Y, (size_t)c, dense ? (size_t)1 << 30 : 0, &err);
            bsl_coef_prior pr;
            bsl_coef_prior_parse(&pr, priors[c - 1], N, (size_t)c, &err);
            bsl_model *Mk, *Mc;
            bsl_model_create(&Mk, D, &pr, KMAX, &err);
            bsl_model_create(&Mc, D, &pr, KMAX, &err);
            double *a = malloc(2 * M * sizeof *a), *b = a + M;
            for (int step = 0; step < 700; step++) {
                const int add = Mk->k < 3 || (Mk->k < KMAX - 1 && gsl_rng_uniform(r) < 0.5);
                if (add) bsl_model_add(Mk, gsl_rng_uniform_int(r, M)); /* an active or collinear one: no change */
                else bsl_model_remove(Mk, Mk->active[gsl_rng_uniform_int(r, Mk->k)]);
                const double within = step % 3 ? INFINITY : 6.0;
                bsl_model_add_scores(Mk, a, within);
                bsl_model_copy(Mc, Mk);
                bsl_model_add_scores(Mc, b, within);
                passes++;
                for (size_t j = 0; j < M; j++)
                    differ += isnan(a[j]) != isnan(b[j]) || (!isnan(a[j]) && memcmp(&a[j], &b[j], sizeof a[j]));
            }
            free(a);
            bsl_model_free(Mk);
            bsl_model_free(Mc);
            bsl_design_free(D);
        }
    CHECK(differ == 0, "add_scores after a history equals a fresh copy's pass bit for bit (%d scores differ over %d "
          "passes)", differ, passes);
    bsl_dict_free(dict);
    free(X);
    gsl_rng_free(r);
}

static void blocked_passes(unsigned long seed)
{
    enum { M = 1500 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double *X = malloc(sizeof(double) * N * M), Y[N];
    for (size_t i = 0; i < N; i++) {
        double prev = 0;
        for (size_t j = 0; j < M; j++) X[j * N + i] = prev = 0.8 * prev + gsl_ran_gaussian(r, 1.0);
        Y[i] = X[3 * N + i] - 0.5 * X[1200 * N + i] + gsl_ran_gaussian(r, 1.0);
    }
    basel_error err;
    bsl_dict *dict;
    bsl_dict_create(&dict, "linear", X, N, M, &err);
    bsl_coef_prior pr;
    bsl_coef_prior_parse(&pr, "g:g=80", N, 1, &err);
    size_t C[M / 2];
    for (size_t c = 0; c < M / 2; c++) C[c] = 2 * c;
    double *a = malloc(M * sizeof *a), *b = malloc(M * sizeof *b);
    int differ = 0, compared = 0, far = 0, scored = 0;
    for (int dense = 0; dense < 2; dense++) {
        bsl_design *D;
        bsl_design_create(&D, dict, X, N, Y, 1, dense ? (size_t)1 << 30 : 0, &err);
        bsl_model *Mk;
        bsl_model_create(&Mk, D, &pr, KMAX, &err);
        if (dense) bsl_model_set_candidates(Mk, C, M / 2);
        for (int step = 0; step < 40; step++) {
            const int add = Mk->k < 3 || (Mk->k < KMAX - 1 && gsl_rng_uniform(r) < 0.6);
            if (add) bsl_model_add(Mk, gsl_rng_uniform_int(r, M));
            else bsl_model_remove(Mk, Mk->active[gsl_rng_uniform_int(r, Mk->k)]);
            bsl_model_add_scores(Mk, a, INFINITY);
            if (dense) { /* one block of candidates against the two blocks of the full pass */
                bsl_model_candidate_scores(Mk, b, INFINITY);
                for (size_t c = 0; c < M / 2; c++, compared++)
                    differ += isnan(a[C[c]]) != isnan(b[c]) ||
                              (!isnan(b[c]) && memcmp(&a[C[c]], &b[c], sizeof b[c]));
                continue;
            }
            for (size_t j = 0; j < M; j += 7) { /* atom by atom, a sample */
                if (Mk->pos[j] >= 0) continue;
                const double t = bsl_model_try_add(Mk, j);
                scored++;
                if (isfinite(t) != isfinite(a[j]) || (isfinite(t) && fabs(t - a[j]) > 1e-9 * fmax(1, fabs(t)))) far++;
            }
        }
        bsl_model_free(Mk);
        bsl_design_free(D);
    }
    CHECK(compared > 0 && differ == 0,
          "a pass in two blocks equals one in a single block bit for bit (%d of %d scores differ)", differ, compared);
    CHECK(scored > 0 && far == 0, "a streamed pass in two blocks equals try_add to 1e-9 (%d of %d differ)", far, scored);
    free(a);
    free(b);
    bsl_dict_free(dict);
    free(X);
    gsl_rng_free(r);
}

int main(void)
{
    blocked_passes(1);
    blocked_passes(2);
    tiled_passes(1);
    tiled_passes(2);
    screened(1);
    screened(2);
    for (unsigned long seed = 1; seed <= 3; seed++) {
        sequence("ridge:lambda=0.5,sigma2=0.04", seed, 1.0, 0);
        sequence("hier:delta2=10,a=1,b=0.1", seed, 1.0, 0);
        sequence("g:g=80", seed, 0, 1);
        sequence("ridge:lambda=0.5,sigma2=0.04", seed, 2.5, 0);
        sequence("hier:delta2=10,a=1,b=0.1", seed, 2.5, 0);
        sequence("g:g=80", seed, 2.5, 0);
    }
    return check_report("test_model");
}
