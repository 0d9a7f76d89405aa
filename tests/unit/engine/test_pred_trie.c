/*
 * test_pred_trie.c: the kept models' prefix tree behind the subset engines'
 * prediction intervals (pred_trie.c). For every model M of a set of 68 over
 * 9 atoms (all 64 subsets of the first six, the null model among them, and
 * four with the rarer atoms), walking the tree to M's node at a point x
 * gives
 *     sum of z^2 on the path = x_M' A_M^{-1} x_M,
 *     sum of z u_o           = x_M' A_M^{-1} b_{M,o}   (two outputs),
 * A = G + tau I, against GSL's Cholesky solve of each model on its own, to
 * 1e-12 relative; every model has exactly one slot; the common atoms are
 * shared (fewer nodes than the models' atoms); and a repeated model or a
 * nearly collinear one (an atom and its copy to 1e-9) is refused with -1,
 * for the caller to predict from each model's V.
 */
#include "check.h"
#include "engine/subset/pred_trie.h"

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 40, U = 9, C = 2, KMAX = 80 };
static const double TAU = 0.3;

static double G[U * U], Bty[U * C];
static size_t off[KMAX + 1], atoms[KMAX * U];
static double wt[KMAX];

static void design(gsl_rng *r, int near_copy)
{
    double X[N * U], y[N * C];
    for (size_t i = 0; i < N * U; i++) X[i] = gsl_ran_gaussian(r, 1.0);
    if (near_copy)
        for (size_t i = 0; i < N; i++) X[8 * N + i] = X[7 * N + i] + 1e-9 * gsl_ran_gaussian(r, 1.0);
    for (size_t i = 0; i < N * C; i++) y[i] = gsl_ran_gaussian(r, 1.0);
    for (size_t a = 0; a < U; a++) {
        for (size_t b = 0; b < U; b++) {
            double s = 0;
            for (size_t i = 0; i < N; i++) s += X[a * N + i] * X[b * N + i];
            G[a + b * U] = s;
        }
        for (size_t o = 0; o < C; o++) {
            double s = 0;
            for (size_t i = 0; i < N; i++) s += X[a * N + i] * y[o * N + i];
            Bty[a * C + o] = s;
        }
    }
}

/* the models: every subset of atoms 0..5 (bit order), then the extras */
static size_t models(const size_t extra[][3], const size_t *nextra, size_t ne, gsl_rng *r)
{
    size_t K = 0, at = 0;
    for (unsigned mask = 0; mask < 64; mask++) {
        off[K] = at;
        for (size_t a = 0; a < 6; a++)
            if (mask >> a & 1) atoms[at++] = a;
        K++;
    }
    for (size_t e = 0; e < ne; e++) {
        off[K] = at;
        for (size_t i = 0; i < nextra[e]; i++) atoms[at++] = extra[e][i];
        K++;
    }
    off[K] = at;
    for (size_t k = 0; k < K; k++) wt[k] = gsl_rng_uniform_pos(r);
    return K;
}

/* x_M' A^{-1} x_M and x_M' A^{-1} b_o of model r, from GSL */
static void direct(size_t r, const double *x, double *h, double *m)
{
    const size_t k = off[r + 1] - off[r];
    *h = 0;
    m[0] = m[1] = 0;
    if (k == 0) return;
    gsl_matrix *A = gsl_matrix_alloc(k, k);
    gsl_vector *xv = gsl_vector_alloc(k), *s = gsl_vector_alloc(k);
    for (size_t i = 0; i < k; i++) {
        for (size_t j = 0; j < k; j++)
            gsl_matrix_set(A, i, j, G[atoms[off[r] + i] + atoms[off[r] + j] * U] + (i == j ? TAU : 0.0));
        gsl_vector_set(xv, i, x[atoms[off[r] + i]]);
    }
    gsl_linalg_cholesky_decomp1(A);
    gsl_linalg_cholesky_solve(A, xv, s); /* A^{-1} x */
    for (size_t i = 0; i < k; i++) {
        *h += x[atoms[off[r] + i]] * gsl_vector_get(s, i);
        for (size_t o = 0; o < C; o++) m[o] += Bty[atoms[off[r] + i] * C + o] * gsl_vector_get(s, i);
    }
    gsl_matrix_free(A);
    gsl_vector_free(xv);
    gsl_vector_free(s);
}

static void walk_case(gsl_rng *r)
{
    design(r, 0);
    const size_t extra[4][3] = {{6, 0, 0}, {0, 6, 7}, {1, 2, 7}, {8, 3, 0}};
    const size_t nextra[4] = {1, 3, 3, 2};
    const size_t K = models(extra, nextra, 4, r);
    bsl_pred_trie t;
    const int rc = bsl_pred_trie_build(&t, G, U, TAU, Bty, C, off, atoms, wt, K);
    CHECK(rc == 0, "the tree of %zu models is built (%d)", K, rc);
    if (rc) {
        bsl_pred_trie_free(&t);
        return;
    }
    CHECK(t.nnode < off[K], "the models share prefixes: %zu nodes for %zu atoms", t.nnode, off[K]);
    int seen[KMAX] = {0};
    CHECK(t.root_model == 0, "the null model takes the first slot (%ld)", t.root_model);
    if (t.root_model >= 0) seen[t.perm[t.root_model]]++;
    long last = t.root_model;
    for (size_t v = 0; v < t.nnode; v++)
        if (t.model[v] >= 0) {
            CHECK(t.model[v] == last + 1, "node %zu: slots in preorder (%ld after %ld)", v, t.model[v], last);
            last = t.model[v];
            seen[t.perm[t.model[v]]]++;
        }
    for (size_t k = 0; k < K; k++) CHECK(seen[k] == 1, "model %zu has one slot (%d)", k, seen[k]);
    double x[U];
    for (int rep = 0; rep < 3; rep++) {
        for (size_t a = 0; a < U; a++) x[a] = gsl_ran_gaussian(r, 2.0);
        double z[U], hs[U + 1] = {0}, ms[U + 1][C] = {{0}};
        for (size_t v = 0; v < t.nnode; v++) {
            const size_t d = t.depth[v] - 1;
            double acc = x[t.atom[v]];
            for (size_t e = 0; e < d; e++) acc -= t.l[t.loff[v] + e] * z[e];
            z[d] = acc * t.dinv[v];
            hs[d + 1] = hs[d] + z[d] * z[d];
            for (size_t o = 0; o < C; o++) ms[d + 1][o] = ms[d][o] + z[d] * t.w[v * C + o];
            if (t.model[v] < 0) continue;
            const size_t m = t.perm[t.model[v]];
            double h, mo[C];
            direct(m, x, &h, mo);
            CHECK(fabs(hs[d + 1] - h) <= 1e-12 * fabs(h), "model %zu: |z|^2 %.17g, x'A^-1 x %.17g", m, hs[d + 1], h);
            for (size_t o = 0; o < C; o++)
                CHECK(fabs(ms[d + 1][o] - mo[o]) <= 1e-12 * (fabs(mo[o]) + sqrt(h)), "model %zu output %zu: z'u %.17g, x'A^-1 b %.17g",
                      m, o, ms[d + 1][o], mo[o]);
        }
    }
    bsl_pred_trie_free(&t);
}

static void refused_case(gsl_rng *r)
{
    design(r, 1);
    const size_t dup[2][3] = {{0, 6, 0}, {6, 0, 0}};
    const size_t ndup[2] = {2, 2};
    size_t K = models(dup, ndup, 2, r);
    bsl_pred_trie t;
    int rc = bsl_pred_trie_build(&t, G, U, TAU, Bty, C, off, atoms, wt, K);
    CHECK(rc == -1, "a model listed twice ({0, 6} and {6, 0}) is refused (%d)", rc);
    bsl_pred_trie_free(&t);
    const size_t col[1][3] = {{7, 8, 0}};
    const size_t ncol[1] = {2};
    K = models(col, ncol, 1, r);
    rc = bsl_pred_trie_build(&t, G, U, 0.0, Bty, C, off, atoms, wt, K);
    CHECK(rc == -1, "a nearly collinear model (an atom and its copy to 1e-9, tau 0) is refused (%d)", rc);
    bsl_pred_trie_free(&t);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 34);
    walk_case(r);
    refused_case(r);
    gsl_rng_free(r);
    return check_report("test_pred_trie");
}
