/*
 * test_projection.c: the projection model (engine/subset/subset_project.c).
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
 * (5) Exchanges: mu = b1 + b2 with b3 = b1 + b2 + b4 / 2. The forward path
 *     takes b3 first and needs three atoms to reach mu; with exchanges it
 *     replaces b3 by the missing one and stops at {b1, b2}, distance 0. On
 *     random designs of 8 candidates (one and two outputs) the set of each
 *     size k: its reported distance is the least-squares one recomputed
 *     from scratch; it is no farther than the best forward step from the
 *     set of size k - 1 (an exchange never increases the distance); and
 *     it is the best of all C(8, k) subsets (brute force), where the plain
 *     forward path misses the best subset in some of the same cases.
 * (6) The yardstick: on a linear design with three visited models and
 *     their weights, spread_between is the weighted variance of the models'
 *     fitted values, sum_M w_M ||mu_M - mubar||^2, computed here from each
 *     model's own least-squares fit (law of total variance, subset_project.c);
 *     spread_within = sigma2_average (q + E[k]); spread is their sum with
 *     --projection-spread total and the within part alone by default, and
 *     the path stops at the first size within it; the dense and streamed
 *     designs agree.
 */
#include "check.h"
#include "engine/subset/subset_project.h"

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
    int rc = bsl_proj_forward(3, 1, gram_cross, &g, r, &mumu, 0.0, 2, 0, &p);
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
    rc = bsl_proj_forward(3, 2, gram_cross, &g, r2, mm2, 0.0, 1, 0, &p);
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
    int rc = bsl_proj_forward(4, 1, gram_cross, &g, r, &mumu, 1e-12 * mumu, 4, 0, &p);
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

/* ||mu - X_S b||^2 summed over c outputs for the least-squares b, from the
 * Gram G (nc x nc), r (nc x c) and mumu: mumu - r_S' G_SS^{-1} r_S. */
static double subset_dist(const double *G, size_t nc, const double *r, const double *mumu, size_t c, const size_t *S,
                          size_t k)
{
    double A[64], L[64] = {0}, t = 0;
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++) A[a + b * k] = G[S[a] + S[b] * nc];
    for (size_t b = 0; b < k; b++)
        for (size_t a = b; a < k; a++) {
            double v = A[a + b * k];
            for (size_t i = 0; i < b; i++) v -= L[a + i * k] * L[b + i * k];
            L[a + b * k] = a == b ? sqrt(v) : v / L[b + b * k];
        }
    for (size_t o = 0; o < c; o++) {
        double z[8], zz = 0;
        for (size_t a = 0; a < k; a++) {
            double v = r[S[a] * c + o];
            for (size_t i = 0; i < a; i++) v -= L[a + i * k] * z[i];
            z[a] = v / L[a + a * k];
            zz += z[a] * z[a];
        }
        t += mumu[o] - zz;
    }
    return t;
}

/* the least distance over all subsets of size k of nc candidates */
static double brute_best(const double *G, size_t nc, const double *r, const double *mumu, size_t c, size_t k)
{
    double best = INFINITY;
    for (unsigned mask = 0; mask < 1u << nc; mask++) {
        size_t S[8], n = 0;
        for (size_t j = 0; j < nc; j++)
            if (mask >> j & 1) S[n++] = j;
        if (n == k) best = fmin(best, subset_dist(G, nc, r, mumu, c, S, k));
    }
    return best;
}

static void exchanges(void)
{
    /* the designed case: b3 = b1 + b2 + u / 2 (u noise, not a candidate), mu = b1 + b2 */
    const size_t n = 40;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 17);
    double B[4 * 40], mu[40];
    for (size_t i = 0; i < n; i++) {
        B[0 * n + i] = gsl_ran_gaussian(rng, 1);
        B[1 * n + i] = gsl_ran_gaussian(rng, 1);
        B[3 * n + i] = gsl_ran_gaussian(rng, 1);
        B[2 * n + i] = B[0 * n + i] + B[1 * n + i] + 0.5 * B[3 * n + i];
        mu[i] = B[0 * n + i] + B[1 * n + i];
    }
    double G[9], r[3], mumu = dot(mu, mu, n);
    for (size_t a = 0; a < 3; a++) {
        r[a] = dot(B + a * n, mu, n);
        for (size_t b = 0; b < 3; b++) G[a + b * 3] = dot(B + a * n, B + b * n, n);
    }
    gram_ctx g = {G, 3};
    bsl_proj_path p0, p1;
    int rc = bsl_proj_forward(3, 1, gram_cross, &g, r, &mumu, 1e-12 * mumu, 3, 0, &p0);
    CHECK(rc == BASEL_OK && p0.k == 3 && p0.order[0] == 2 && p0.dist[2] > 1e-3 * mumu,
          "premise: the forward path takes b3 first and needs 3 atoms (k %zu, first %zu)", p0.k,
          p0.k ? p0.order[0] : 9);
    rc = bsl_proj_forward(3, 1, gram_cross, &g, r, &mumu, 1e-12 * mumu, 3, BSL_PROJ_SWAPS, &p1);
    CHECK(rc == BASEL_OK && p1.k == 2, "exchanges: two atoms, got %zu", p1.k);
    if (!rc && p1.k == 2) {
        const size_t lo = BSL_MIN(p1.order[0], p1.order[1]), hi = BSL_MAX(p1.order[0], p1.order[1]);
        CHECK(lo == 0 && hi == 1, "exchanges: {b1, b2}, got {%zu, %zu}", lo, hi);
        CHECK(p1.dist[2] <= 1e-12 * mumu, "exchanges: distance 0 (%.3g)", p1.dist[2]);
        CHECK(p1.dist[1] == p0.dist[1], "size 1 is the forward step's (%.17g, %.17g)", p1.dist[1], p0.dist[1]);
        for (size_t a = 0; a < 2; a++) CHECK_CLOSE(p1.coef[a], 1.0, 1e-10, "exchanges: coefficient 1");
    }
    bsl_proj_path_free(&p0);
    bsl_proj_path_free(&p1);

    /* random designs: 8 candidates, mu from 3 of them plus noise */
    const size_t nc = 8, m = 30;
    size_t cases = 0, forward_missed = 0;
    for (unsigned seed = 1; seed <= 20; seed++) {
        const size_t c = 1 + seed % 2;
        gsl_rng_set(rng, seed);
        double X[8 * 30], M[2 * 30], Gr[64], rr[16], mm[2];
        for (size_t i = 0; i < nc * m; i++) X[i] = gsl_ran_gaussian(rng, 1);
        for (size_t j = 1; j < nc; j++) /* correlated columns, as neighbouring kernels are */
            for (size_t i = 0; i < m; i++) X[j * m + i] += 0.6 * X[(j - 1) * m + i];
        for (size_t o = 0; o < c; o++)
            for (size_t i = 0; i < m; i++)
                M[o * m + i] = 1.5 * X[(1 + o) * m + i] - X[4 * m + i] + 0.8 * X[6 * m + i] + gsl_ran_gaussian(rng, 0.7);
        for (size_t a = 0; a < nc; a++) {
            for (size_t b = 0; b < nc; b++) Gr[a + b * nc] = dot(X + a * m, X + b * m, m);
            for (size_t o = 0; o < c; o++) rr[a * c + o] = dot(X + a * m, M + o * m, m);
        }
        for (size_t o = 0; o < c; o++) mm[o] = dot(M + o * m, M + o * m, m);
        gram_ctx gg = {Gr, nc};
        size_t prev[8] = {0};
        for (size_t k = 1; k <= 5; k++, cases++) {
            bsl_proj_path p, f;
            rc = bsl_proj_forward(nc, c, gram_cross, &gg, rr, mm, 0.0, k, BSL_PROJ_SWAPS, &p);
            if (rc || p.k != k) {
                CHECK(0, "seed %u size %zu: rc %d k %zu", seed, k, rc, p.k);
                bsl_proj_path_free(&p);
                continue;
            }
            double d = 0, fwd = INFINITY;
            for (size_t o = 0; o < c; o++) d += p.dist[k * c + o];
            const double ds = subset_dist(Gr, nc, rr, mm, c, p.order, k);
            CHECK(fabs(d - ds) <= 1e-9 * mm[0], "seed %u size %zu: the reported distance %.12g is the set's %.12g",
                  seed, k, d, ds);
            for (size_t j = 0; j < nc; j++) { /* the best forward step from the set of size k - 1 */
                int in = 0;
                for (size_t a = 0; a + 1 < k; a++) in |= prev[a] == j;
                if (in) continue;
                prev[k - 1] = j;
                fwd = fmin(fwd, subset_dist(Gr, nc, rr, mm, c, prev, k));
            }
            CHECK(d <= fwd * (1 + 1e-12), "seed %u size %zu: after exchanges %.10g, forward step %.10g", seed, k, d,
                  fwd);
            const double best = brute_best(Gr, nc, rr, mm, c, k);
            CHECK(d <= best * (1 + 1e-9), "seed %u size %zu: %.10g, best of all subsets %.10g", seed, k, d, best);
            if (!bsl_proj_forward(nc, c, gram_cross, &gg, rr, mm, 0.0, k, 0, &f)) {
                double df = 0;
                for (size_t o = 0; o < c; o++) df += f.dist[f.k * c + o];
                forward_missed += df > best * (1 + 1e-9);
                bsl_proj_path_free(&f);
            }
            memcpy(prev, p.order, k * sizeof *prev);
            bsl_proj_path_free(&p);
        }
    }
    CHECK(forward_missed > 0, "premise: the plain forward path misses the best subset somewhere (%zu of %zu)",
          forward_missed, cases);
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
    json_t *o = bsl_subset_projection(&pb, &vr, NULL, 0, 1e-12, 0, (size_t)1 << 26, &sel, &err);
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
        blk[streamed] = bsl_subset_projection(&pb, &vr, NULL, 0, 0.05, 0, (size_t)1 << 26, &sel[streamed], &err);
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

/* b (k) <- A^{-1} v for the k x k symmetric positive definite A (Cholesky, k <= 8) */
static void spd_solve(const double *A, size_t k, const double *v, double *b)
{
    double L[64] = {0}, z[8];
    for (size_t j = 0; j < k; j++)
        for (size_t i = j; i < k; i++) {
            double t = A[i + j * k];
            for (size_t l = 0; l < j; l++) t -= L[i + l * k] * L[j + l * k];
            L[i + j * k] = i == j ? sqrt(t) : t / L[j + j * k];
        }
    for (size_t i = 0; i < k; i++) {
        double t = v[i];
        for (size_t l = 0; l < i; l++) t -= L[i + l * k] * z[l];
        z[i] = t / L[i + i * k];
    }
    for (size_t i = k; i-- > 0;) {
        double t = z[i];
        for (size_t l = i + 1; l < k; l++) t -= L[l + i * k] * b[l];
        b[i] = t / L[i + i * k];
    }
}

static void yardstick(void)
{
    const size_t n = 30, d = 3, K = 3;
    const size_t Ms[3][2] = {{0, 0}, {0, 1}, {1, 2}}, Mk[3] = {1, 2, 2};
    const double w[3] = {0.5, 0.3, 0.2};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 23);
    double X[90], Y[30], Xc[90], yc[30], mean[3] = {0, 0, 0}, ym = 0;
    for (size_t i = 0; i < n * d; i++) X[i] = gsl_ran_gaussian(rng, 1);
    for (size_t i = 0; i < n; i++) Y[i] = 1.0 + X[i] + 0.5 * X[n + i] + gsl_ran_gaussian(rng, 0.8);
    for (size_t i = 0; i < n; i++) {
        ym += Y[i] / (double)n;
        for (size_t j = 0; j < d; j++) mean[j] += X[j * n + i] / (double)n;
    }
    for (size_t i = 0; i < n; i++) { /* the intercept integrated out: centred columns */
        yc[i] = Y[i] - ym;
        for (size_t j = 0; j < d; j++) Xc[j * n + i] = X[j * n + i] - mean[j];
    }
    double spread[2][1];
    for (int streamed = 0; streamed < 2; streamed++) {
        basel_error err;
        bsl_dict *dict = NULL;
        bsl_design *D = NULL;
        int rc = bsl_dict_create(&dict, "linear", X, n, d, &err);
        if (!rc) rc = bsl_design_create(&D, dict, X, n, Y, 1, streamed ? 256 : (size_t)1 << 26, &err);
        CHECK(rc == BASEL_OK && (D->G == NULL) == streamed, "design (%s): %s", streamed ? "streamed" : "dense",
              err.message);
        if (rc) continue;
        bsl_vs_problem pb = {0};
        pb.D = D;
        bsl_coef_prior_parse(&pb.prior, "g", n, 1, &err);
        pb.kmax = d;
        const double sh = pb.prior.g / (1 + pb.prior.g);
        /* each model's posterior mean (g-prior: sh times least squares) and fitted values, by hand */
        double beta[3][2], mu[3][30], bar[30] = {0}, coef[3] = {0, 0, 0};
        for (size_t a = 0; a < K; a++) {
            double A[4], v[2];
            for (size_t i = 0; i < Mk[a]; i++) {
                v[i] = dot(Xc + Ms[a][i] * n, yc, n);
                for (size_t j = 0; j < Mk[a]; j++) A[i + j * Mk[a]] = dot(Xc + Ms[a][i] * n, Xc + Ms[a][j] * n, n);
            }
            spd_solve(A, Mk[a], v, beta[a]);
            for (size_t r = 0; r < n; r++) {
                mu[a][r] = 0;
                for (size_t i = 0; i < Mk[a]; i++) mu[a][r] += sh * beta[a][i] * Xc[Ms[a][i] * n + r];
                bar[r] += w[a] * mu[a][r];
            }
            for (size_t i = 0; i < Mk[a]; i++) coef[Ms[a][i]] += w[a] * sh * beta[a][i];
        }
        double between = 0;
        for (size_t a = 0; a < K; a++)
            for (size_t r = 0; r < n; r++) between += w[a] * (mu[a][r] - bar[r]) * (mu[a][r] - bar[r]);
        bsl_vs_result vr;
        memset(&vr, 0, sizeof vr);
        double pip[3] = {0.8, 0.5, 0.2}, size_prob[4] = {0, 0.5, 0.5, 0};
        vr.m = d;
        vr.c = 1;
        vr.kmax = d;
        vr.pip = pip;
        vr.coef_bma = coef;
        vr.size_prob = size_prob;
        bsl_modelset_init(&vr.models, 0);
        for (size_t a = 0; a < K; a++) bsl_modelset_add(&vr.models, Ms[a], Mk[a], w[a], NAN);
        bsl_modelset_sort(&vr.models);
        for (int total = 0; total < 2; total++) {
            bsl_result_model sel = {0};
            json_t *o = bsl_subset_projection(&pb, &vr, NULL, 0, 1.0, total, (size_t)1 << 26, &sel, &err);
            CHECK(o != NULL, "projection block: %s", err.message);
            if (o) {
                const double sb = json_number_value(json_object_get(o, "spread_between"));
                const double sw = json_number_value(json_object_get(o, "spread_within"));
                const double sp = json_number_value(json_object_get(o, "spread"));
                const double s2 = json_number_value(json_array_get(json_object_get(o, "sigma2_average"), 0));
                CHECK(between > 1e-3 * dot(yc, yc, n), "premise: the models' fits differ (%.4g)", between);
                CHECK_CLOSE(sb, between, 1e-9 * dot(yc, yc, n), "spread_between = sum_M w_M ||mu_M - mubar||^2");
                CHECK_CLOSE(sw, s2 * (1 + 1.5), 1e-12 * sw, "spread_within = sigma2_average (q + E[k])");
                CHECK_CLOSE(sp, total ? sw + sb : sw, 1e-12 * sp, "spread = within (+ between with total)");
                CHECK(!strcmp(json_string_value(json_object_get(o, "spread_kind")), total ? "total" : "within"),
                      "spread_kind");
                CHECK(json_integer_value(json_object_get(o, "spread_models")) == 3, "the three models");
                /* the stopping rule on that spread: the first size within tol */
                const json_t *path = json_object_get(o, "path");
                const size_t k = json_array_size(path) - 1;
                CHECK(json_number_value(json_array_get(path, k)) <= 1.0 &&
                          (k == 0 || json_number_value(json_array_get(path, k - 1)) > 1.0),
                      "the path stops at the first size within the spread");
                spread[streamed][0] = sb;
            }
            json_decref(o);
            free(sel.atoms);
        }
        bsl_modelset_free(&vr.models);
        bsl_design_free(D);
        bsl_dict_free(dict);
    }
    CHECK_CLOSE(spread[1][0], spread[0][0], 1e-9 * spread[0][0], "between: streamed as dense");
    gsl_rng_free(rng);
}

int main(void)
{
    closed_forms();
    doubling();
    one_model_average((size_t)1 << 26);
    one_model_average(1024);
    dense_vs_streamed();
    exchanges();
    yardstick();
    return check_report("test_projection");
}
