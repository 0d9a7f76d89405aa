/*
 * test_projection.c: the projection model (engine/subset_project.c).
 *
 * (1) The forward search on hand-made cross products: the first atom is the
 *     one of largest b_j'mu / sqrt(b_j'b_j), the distances after one and two
 *     atoms are the closed forms mumu - r_a^2 / G_aa and mumu - r' G^{-1} r,
 *     and the coefficients are G^{-1} r; with two outputs the distances add.
 * (2) Doubling: mu = b1 + b3 with b2 a near-copy of b1. Ranking by
 *     correlation with mu (as the prevalence model ranks by PIP) would take
 *     b1 and b2; the search takes b1, then b3, and stops there with distance 0.
 * (3) On a linear design whose model average is one model's fit
 *     (coefficients nonzero on atoms {1, 3, 4} only), the projection returns
 *     that model and its coefficients (to rounding), the always-in
 *     coefficient gy - gB'b, sigma^2 = RSS / N + 0, and selected atoms sorted;
 *     the same from a design that streams its columns (no Gram matrix).
 * (4) A kernel average of many atoms: the dense and streamed designs give
 *     the same path, atoms and coefficients.
 */
#include "check.h"
#include "engine/subset_project.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct gram_ctx {
    const double *G;
    size_t nc;
} gram_ctx;

static double gram_cross(void *p, size_t i, size_t j)
{
    const gram_ctx *g = p;
    return g->G[i + j * g->nc];
}

static void closed_forms(void)
{
    /* three candidates, correlated (G), one output (r = B'mu) */
    const double G[9] = {1.0, 0.3, 0.2, 0.3, 2.5, -0.4, 0.2, -0.4, 0.8};
    const double r[3] = {1.1, 3.4, -0.5}; /* r^2/G: 1.21, 4.624, 0.3125: candidate 1 first */
    const double mumu = 6.0;
    gram_ctx g = {G, 3};
    bsl_proj_path p;
    int rc = bsl_proj_forward(3, 1, gram_cross, &g, r, &mumu, 0.0, 2, &p);
    CHECK(rc == BASEL_OK && p.k == 2, "two atoms (kmax): rc %d k %zu", rc, p.k);
    if (rc || p.k != 2) return;
    CHECK(p.order[0] == 1, "first atom: the largest r_j^2 / G_jj (1), got %zu", p.order[0]);
    CHECK_CLOSE(p.dist[0], 6.0, 1e-14, "distance with no atom = mu'mu");
    CHECK_CLOSE(p.dist[1], 6.0 - 3.4 * 3.4 / 2.5, 1e-13, "distance after one atom");
    /* second: the pair {1, a} of least mumu - r' G^{-1} r, a in {0, 2} */
    double best = INFINITY, coef[2] = {0, 0};
    size_t arg = 3;
    for (size_t a = 0; a < 3; a += 2) {
        const double g11 = G[1 + 1 * 3], g1a = G[1 + a * 3], gaa = G[a + a * 3], det = g11 * gaa - g1a * g1a;
        const double b1 = (gaa * r[1] - g1a * r[a]) / det, ba = (g11 * r[a] - g1a * r[1]) / det;
        const double d = mumu - (b1 * r[1] + ba * r[a]);
        if (d < best) best = d, arg = a, coef[0] = b1, coef[1] = ba;
    }
    CHECK(p.order[1] == arg, "second atom: the best pair with atom 1 (%zu), got %zu", arg, p.order[1]);
    CHECK_CLOSE(p.dist[2], best, 1e-13, "distance after two atoms: mumu - r'G^{-1}r");
    CHECK_CLOSE(p.coef[0], coef[0], 1e-13, "coefficient of atom 1: G^{-1} r");
    CHECK_CLOSE(p.coef[1], coef[1], 1e-13, "coefficient of the second atom: G^{-1} r");
    bsl_proj_path_free(&p);

    /* two outputs: the same G, the second output's r and mumu; the search
     * minimises the summed distance and reports each output's */
    const double r2[6] = {1.1, 0.2, 3.4, -0.1, -0.5, 2.0}, mm2[2] = {6.0, 5.0};
    rc = bsl_proj_forward(3, 2, gram_cross, &g, r2, mm2, 0.0, 1, &p);
    CHECK(rc == BASEL_OK && p.k == 1, "two outputs: one atom");
    if (!rc && p.k == 1) {
        /* summed reductions: (1.21 + 0.04)/1, (11.56 + 0.01)/2.5, (0.25 + 4)/0.8 = 1.25, 4.628, 5.3125 */
        CHECK(p.order[0] == 2, "two outputs: the largest summed reduction (2), got %zu", p.order[0]);
        CHECK_CLOSE(p.dist[2 + 0], 6.0 - 0.25 / 0.8, 1e-13, "output 1's distance");
        CHECK_CLOSE(p.dist[2 + 1], 5.0 - 4.0 / 0.8, 1e-13, "output 2's distance");
    }
    bsl_proj_path_free(&p);
}

static double dot(const double *a, const double *b, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static void doubling(void)
{
    const size_t n = 50;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    double B[4 * 50], mu[50];
    for (size_t i = 0; i < n; i++) {
        B[0 * n + i] = gsl_ran_gaussian(rng, 1);
        B[1 * n + i] = B[0 * n + i] + gsl_ran_gaussian(rng, 0.05); /* near-copy of b1 */
        B[2 * n + i] = gsl_ran_gaussian(rng, 1);
        B[3 * n + i] = gsl_ran_gaussian(rng, 1);
    }
    for (size_t i = 0; i < n; i++) mu[i] = 1.3 * B[0 * n + i] + 0.9 * B[2 * n + i];
    double G[16], r[4], mumu = dot(mu, mu, n), corr[4];
    for (size_t a = 0; a < 4; a++) {
        r[a] = dot(B + a * n, mu, n);
        for (size_t b = 0; b < 4; b++) G[a + b * 4] = dot(B + a * n, B + b * n, n);
        corr[a] = r[a] * r[a] / G[a + a * 4];
    }
    /* the premise: by marginal fit the near-copy ranks second */
    size_t first = 0, second = 4;
    for (size_t a = 1; a < 4; a++)
        if (corr[a] > corr[first]) first = a;
    for (size_t a = 0; a < 4; a++)
        if (a != first && (second == 4 || corr[a] > corr[second])) second = a;
    CHECK(first == 0 && second == 1, "premise: b1 and its copy b2 rank first by marginal fit (%zu, %zu)", first,
          second);
    gram_ctx g = {G, 4};
    bsl_proj_path p;
    int rc = bsl_proj_forward(4, 1, gram_cross, &g, r, &mumu, 1e-12 * mumu, 4, &p);
    CHECK(rc == BASEL_OK && p.k == 2, "doubling: two atoms, got %zu", p.k);
    if (!rc && p.k == 2) {
        CHECK(p.order[0] == 0 && p.order[1] == 2, "doubling: b1 then b3, got %zu then %zu", p.order[0], p.order[1]);
        CHECK(p.dist[2] <= 1e-12 * mumu, "doubling: distance 0 after b1 and b3 (%.3g)", p.dist[2]);
        CHECK_CLOSE(p.coef[0], 1.3, 1e-10, "doubling: coefficient of b1");
        CHECK_CLOSE(p.coef[1], 0.9, 1e-10, "doubling: coefficient of b3");
    }
    bsl_proj_path_free(&p);
    gsl_rng_free(rng);
}

static void one_model_average(size_t budget)
{
    const size_t n = 200, d = 6, S[3] = {1, 3, 4};
    const double bS[3] = {1.7, -0.9, 0.6};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 5);
    double *X = malloc(n * d * sizeof *X), *Y = malloc(n * sizeof *Y);
    for (size_t i = 0; i < n * d; i++) X[i] = gsl_ran_gaussian(rng, 1) + 0.3;
    for (size_t i = 0; i < n; i++) {
        Y[i] = 2.0 + gsl_ran_gaussian(rng, 0.5);
        for (size_t a = 0; a < 3; a++) Y[i] += bS[a] * X[S[a] * n + i];
    }
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    int rc = bsl_dict_create(&dict, "linear", X, n, d, &err);
    if (!rc) rc = bsl_design_create(&D, dict, X, n, Y, 1, budget, &err);
    CHECK(rc == BASEL_OK, "design: %s", err.message);
    if (rc) return;
    CHECK((D->G != NULL) == (budget > 4096), "dense Gram iff the budget allows it");
    bsl_vs_problem pb = {0};
    pb.D = D;
    bsl_coef_prior_parse(&pb.prior, "g", n, 1, &err);
    pb.kmax = d;
    /* the "average": atoms {1, 3, 4} with coefficients bS, every PIP above the floor */
    bsl_vs_result vr;
    memset(&vr, 0, sizeof vr);
    double pip[6] = {0.3, 0.9, 0.2, 0.95, 0.8, 0.1}, coef[6] = {0, 0, 0, 0, 0, 0};
    for (size_t a = 0; a < 3; a++) coef[S[a]] = bS[a];
    vr.m = d;
    vr.c = 1;
    vr.pip = pip;
    vr.coef_bma = coef;
    bsl_result_model sel = {0};
    json_t *o = bsl_subset_projection(&pb, &vr, NULL, 0, 1e-12, (size_t)1 << 26, &sel, &err);
    CHECK(o != NULL, "projection block: %s", err.message);
    if (o) {
        const json_t *at = json_object_get(o, "atoms"), *cf = json_object_get(o, "coef");
        CHECK(json_array_size(at) == 3 && sel.k == 3, "the model's 3 atoms, got %zu", json_array_size(at));
        for (size_t a = 0; a < json_array_size(at) && a < 3; a++) {
            const size_t j = (size_t)json_integer_value(json_array_get(at, a));
            double want = NAN;
            for (size_t b = 0; b < 3; b++)
                if (S[b] == j) want = bS[b];
            CHECK(!isnan(want), "atom %zu is one of the model's", j);
            if (!isnan(want)) CHECK_CLOSE(json_number_value(json_array_get(cf, a)), want, 1e-10, "its coefficient");
            CHECK(sel.atoms[a] == S[a], "selected, sorted: %zu, got %zu", S[a], sel.atoms[a]);
        }
        /* the intercept: gy - gB' b (design.h) */
        double g0 = D->gy[0];
        for (size_t a = 0; a < 3; a++) g0 -= bS[a] * D->gB[S[a] * D->q];
        CHECK_CLOSE(json_number_value(json_array_get(json_object_get(o, "always_in"), 0)), g0, 1e-10,
                    "always-in coefficient");
        /* no visited models: sigma^2_avg = RSS / N, and the distance is 0 */
        double rss = 0;
        for (size_t i = 0; i < n; i++) {
            double f = D->gy[0];
            for (size_t a = 0; a < 3; a++) f += bS[a] * (X[S[a] * n + i] - D->gB[S[a] * D->q]);
            rss += (Y[i] - f) * (Y[i] - f);
        }
        CHECK_CLOSE(json_number_value(json_array_get(json_object_get(o, "rss_average"), 0)), rss, 1e-9,
                    "the average's residual sum of squares");
        CHECK_CLOSE(json_number_value(json_array_get(json_object_get(o, "sigma2"), 0)), rss / (double)(n - 1), 1e-9,
                    "sigma^2 = RSS / N + 0");
    }
    json_decref(o);
    free(sel.atoms);
    bsl_design_free(D);
    bsl_dict_free(dict);
    free(X);
    free(Y);
    gsl_rng_free(rng);
}

/* A Gaussian-kernel design on 1-D sinc data, an "average" over many atoms
 * (random coefficients on every third atom): the projection from the dense
 * Gram and from streamed columns agree. */
static void dense_vs_streamed(void)
{
    const size_t n = 60;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 9);
    double X[60], Y[60], pip[60], coef[60];
    for (size_t i = 0; i < n; i++) {
        X[i] = -8 + 16.0 * (double)i / (double)(n - 1);
        Y[i] = (X[i] != 0 ? sin(X[i]) / X[i] : 1) + gsl_ran_gaussian(rng, 0.1);
    }
    json_t *blk[2] = {NULL, NULL};
    bsl_result_model sel[2] = {{0}, {0}};
    for (int streamed = 0; streamed < 2; streamed++) {
        basel_error err;
        bsl_dict *dict = NULL;
        bsl_design *D = NULL;
        int rc = bsl_dict_create(&dict, "gauss:r=1.6", X, n, 1, &err);
        if (!rc) rc = bsl_design_create(&D, dict, X, n, Y, 1, streamed ? 1024 : (size_t)1 << 26, &err);
        CHECK(rc == BASEL_OK && (D->G == NULL) == streamed, "kernel design (%s)", streamed ? "streamed" : "dense");
        if (rc) continue;
        gsl_rng_set(rng, 21);
        for (size_t j = 0; j < n; j++) {
            pip[j] = j % 3 == 0 ? 0.5 : 0.005;
            coef[j] = j % 3 == 0 ? gsl_ran_gaussian(rng, 0.3) : 0.0;
        }
        bsl_vs_problem pb = {0};
        pb.D = D;
        bsl_coef_prior_parse(&pb.prior, "g", n, 1, &err);
        pb.kmax = 20;
        bsl_vs_result vr;
        memset(&vr, 0, sizeof vr);
        vr.m = n;
        vr.c = 1;
        vr.pip = pip;
        vr.coef_bma = coef;
        blk[streamed] = bsl_subset_projection(&pb, &vr, NULL, 0, 0.05, (size_t)1 << 26, &sel[streamed], &err);
        CHECK(blk[streamed] != NULL, "projection (%s): %s", streamed ? "streamed" : "dense", err.message);
        bsl_design_free(D);
        bsl_dict_free(dict);
    }
    if (blk[0] && blk[1]) {
        const json_t *a0 = json_object_get(blk[0], "atoms"), *a1 = json_object_get(blk[1], "atoms");
        const size_t k = json_array_size(a0);
        CHECK(k > 1 && k == json_array_size(a1) && json_equal(a0, a1), "the same atoms, in the same order (%zu)", k);
        CHECK(json_integer_value(json_object_get(blk[0], "candidates")) == 20, "candidates: the 20 atoms of PIP 0.5");
        for (size_t a = 0; a < k && json_equal(a0, a1); a++) {
            const double c0 = json_number_value(json_array_get(json_object_get(blk[0], "coef"), a));
            const double c1 = json_number_value(json_array_get(json_object_get(blk[1], "coef"), a));
            CHECK_CLOSE(c1, c0, 1e-7, "coefficient, streamed vs dense");
        }
        const json_t *p0 = json_object_get(blk[0], "path");
        CHECK(json_number_value(json_array_get(p0, k)) <= 0.05 && json_number_value(json_array_get(p0, k - 1)) > 0.05,
              "the path stops at the first size within tol");
    }
    for (int i = 0; i < 2; i++) {
        json_decref(blk[i]);
        free(sel[i].atoms);
    }
    gsl_rng_free(rng);
}

int main(void)
{
    closed_forms();
    doubling();
    one_model_average((size_t)1 << 26);
    one_model_average(1024);
    dense_vs_streamed();
    return check_report("test_projection");
}
