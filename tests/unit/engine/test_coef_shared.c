/*
 * test_coef_shared.c: bsl_coef_comps_shared (coef_shared.c), the Gaussian
 * coefficient table's components computed along the models' common
 * prefixes, against the same components model by model (bsl_post_of, a
 * fresh factorisation and inverse of each model's Gram block, then
 * bsl_post_terms), which is what the table was made of before.
 *
 * The models are those of a random add / remove walk (so that, as in a
 * chain's model set, many share long prefixes), the empty model among them,
 * with random distinct weights. Cases: linear AR(1) inputs under the
 * g-prior (two outputs, BAS's per-model sd too), Gaussian kernels under
 * ridge (tau > 0), kernels with the inputs always in (linear-term: q = 3) under
 * hier, and BIC; the same on streaming designs (columns and products from
 * the summaries' store, or computed); and a design with two equal columns,
 * where every model holding both has probability 0 and gives nothing, while
 * the models after it in the shared order still get theirs. Every term gets
 * the same components (matched by weight): the same weights and df,
 * locations and scales within 1e-10 of max(|location|, scale). And on
 * nearly collinear kernels (r = 2.5), every admitted model's atoms against
 * long double: the shared rows within 4 times the per-model path's error
 * (seen: 7.8e-7 and 2.8e-6 against its 7.2e-6 and 1.5e-5: the explicit
 * inverse's product W'W loses more than the rows' sums).
 */
#include "check.h"
#include "engine/subset/coef_table.h"
#include "engine/subset/subset_post.h"
#include "model/model.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 90, D_IN = 30, KMAX = 12, NMOD = 400 };

typedef struct comp {
    double w, mu, s, df;
} comp;

static int by_w(const void *x, const void *y)
{
    const comp *a = x, *b = y;
    return (a->w > b->w) - (a->w < b->w);
}

static void ascending(size_t *s, size_t k)
{
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
            const size_t t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
}

static void free_case(bsl_post *p, bsl_coef_comps *ref, bsl_coef_comps *got, bsl_model *M, bsl_design *D,
                      bsl_dict *dict, gsl_rng *r)
{
    bsl_post_free(p);
    bsl_coef_comps_free(ref);
    bsl_coef_comps_free(got);
    bsl_model_free(M);
    bsl_design_free(D);
    bsl_dict_free(dict);
    gsl_rng_free(r);
}

/* term t's components, sorted by weight, into out (n of them) */
static size_t term_comps(const bsl_coef_comps *cp, size_t t, comp *out)
{
    const size_t n = cp->fill[t], o = cp->off[t];
    for (size_t i = 0; i < n; i++) out[i] = (comp){cp->w[o + i], cp->mu[o + i], cp->s[o + i], cp->df[o + i]};
    qsort(out, n, sizeof *out, by_w);
    return n;
}

static void run(const char *label, const char *basis, const char *prior_spec, size_t c, int dup, int bas_sd,
                unsigned long seed, int stream)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    static double X[N * D_IN], Y[2 * N];
    for (size_t i = 0; i < N; i++) {
        double prev = 0;
        for (size_t j = 0; j < D_IN; j++) X[j * N + i] = prev = 0.7 * prev + gsl_ran_gaussian(r, 1.0);
        if (dup) X[5 * N + i] = X[2 * N + i]; /* inputs 2 and 5 equal */
        Y[i] = X[i] - 0.5 * X[3 * N + i] + gsl_ran_gaussian(r, 0.5);
        Y[N + i] = sin(X[N + i]) + gsl_ran_gaussian(r, 0.5);
    }
    const int linear = strcmp(basis, "linear") == 0;
    const size_t d = linear ? D_IN : 2;
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_model *M = NULL;
    bsl_coef_prior pr;
    int rc = bsl_dict_create(&dict, basis, X, N, d, &err);
    /* a budget below the Gram's: the design streams its columns */
    if (!rc) rc = bsl_design_create(&D, dict, X, N, Y, c, stream ? (size_t)1 << 10 : (size_t)1 << 30, &err);
    if (!rc) rc = bsl_coef_prior_parse(&pr, prior_spec, N, c, &err);
    if (!rc) rc = bsl_model_create(&M, D, &pr, KMAX, &err);
    CHECK(!rc && (stream ? !D->G : D->G != NULL), "%s: a %s design (%s)", label, stream ? "streaming" : "dense",
          rc ? err.message : "");
    if (rc || (stream ? D->G != NULL : !D->G)) return;
    const size_t m = D->m, q = D->q, nterm = q + m;
    /* the models of a walk, each once, the empty one first */
    size_t *atoms = malloc(NMOD * KMAX * sizeof *atoms), ks[NMOD], cur[KMAX], kc = 0, K = 1;
    const size_t *ptr[NMOD];
    double wt[NMOD], mu[D_IN + 200], sc[D_IN + 200];
    ks[0] = 0;
    for (int step = 0; K < NMOD && step < 100 * NMOD; step++) {
        if (kc == 0 || (kc < KMAX && gsl_rng_uniform(r) < 0.5)) {
            const size_t j = gsl_rng_uniform_int(r, m);
            int in = 0;
            for (size_t i = 0; i < kc; i++) in |= cur[i] == j;
            if (!in) cur[kc++] = j;
        } else {
            const size_t at = gsl_rng_uniform_int(r, kc);
            cur[at] = cur[--kc];
        }
        size_t s[KMAX];
        memcpy(s, cur, kc * sizeof *s);
        ascending(s, kc); /* as a model set holds them */
        if (dup && kc >= 2 && K % 7 == 0) { /* now and then both equal inputs */
            s[0] = 2;
            s[1] = 5;
            for (size_t i = 2; i < kc; i++) s[i] = s[i] == 2 || s[i] == 5 ? 6 + i : s[i];
            ascending(s, kc);
            int rep = 0;
            for (size_t i = 1; i < kc; i++) rep |= s[i] == s[i - 1];
            if (rep) continue;
        }
        int seen = 0;
        for (size_t i = 0; i < K && !seen; i++)
            seen = ks[i] == kc && (kc == 0 || memcmp(atoms + i * KMAX, s, kc * sizeof *s) == 0);
        if (seen) continue;
        memcpy(atoms + K * KMAX, s, kc * sizeof *s);
        ks[K++] = kc;
    }
    for (size_t i = 0; i < K; i++) {
        ptr[i] = atoms + i * KMAX;
        wt[i] = 1 + (double)i + gsl_rng_uniform(r); /* distinct: they match the components */
    }
    for (size_t j = 0; j < D_IN + 200; j++) {
        mu[j] = gsl_ran_gaussian(r, 1.0);
        sc[j] = 0.5 + gsl_rng_uniform(r);
    }
    /* both ways into two tables */
    bsl_coef_comps ref, got;
    bsl_coef_comps_init(&ref, c * nterm);
    bsl_coef_comps_init(&got, c * nterm);
    for (size_t i = 0; i < K; i++)
        for (size_t a = 0; a < ks[i]; a++)
            for (size_t o = 0; o < c; o++) ref.off[o * nterm + q + ptr[i][a]]++, got.off[o * nterm + q + ptr[i][a]]++;
    for (size_t o = 0; o < c; o++)
        for (size_t l = 0; l < q; l++) ref.off[o * nterm + l] = got.off[o * nterm + l] = K;
    CHECK(bsl_coef_comps_alloc(&ref) == BASEL_OK && bsl_coef_comps_alloc(&got) == BASEL_OK, "%s: alloc", label);
    bsl_post p;
    bsl_post_init(&p, KMAX, c);
    double u[64], t[64], x[KMAX + 1];
    size_t collinear = 0;
    for (size_t i = 0; i < K; i++) {
        int has2 = 0, has5 = 0; /* both equal inputs: probability 0, no components */
        for (size_t a = 0; dup && a < ks[i]; a++) {
            has2 |= ptr[i][a] == 2;
            has5 |= ptr[i][a] == 5;
        }
        const int both = has2 && has5;
        if (both || bsl_post_of(&p, M, ptr[i], ks[i], bas_sd)) {
            collinear++;
            continue;
        }
        for (size_t o = 0; o < c; o++) bsl_post_terms(&ref, o, nterm, D, &p, ptr[i], wt[i], mu, sc, linear, u, x, t);
    }
    /* streaming: the summaries' store of columns and products, as a fit's
     * (every atom used twice: all admitted), for one of its two outputs */
    bsl_colstore cs = {0};
    size_t *uses = calloc(m, sizeof *uses);
    for (size_t j = 0; j < m; j++) uses[j] = 2;
    if (stream && c == 2) bsl_colstore_init(&cs, D, uses, (size_t)1 << 24);
    const bsl_coef_gram gm = {D->G, m, D->Bty, NULL, m, bsl_coef_tau(&pr), &pr, (double)(N - q), D->yy, bas_sd,
                              D, stream && c == 2 ? &cs : NULL};
    CHECK(bsl_coef_comps_shared(&got, nterm, D, &gm, K, ptr, ks, wt, mu, sc, linear) == BASEL_OK, "%s: shared",
          label);
    /* term by term: the same components */
    comp *a = malloc((K + 1) * sizeof *a), *b = malloc((K + 1) * sizeof *b);
    double worst = 0;
    int same_count = 1, same_wdf = 1;
    size_t comps = 0;
    for (size_t tt = 0; tt < c * nterm; tt++) {
        const size_t na = term_comps(&ref, tt, a), nb = term_comps(&got, tt, b);
        same_count &= na == nb;
        for (size_t i = 0; i < na && na == nb; i++) {
            same_wdf &= a[i].w == b[i].w && (a[i].df == b[i].df || (isinf(a[i].df) && isinf(b[i].df)));
            const double scale = fmax(fabs(a[i].mu), a[i].s);
            worst = fmax(worst, fmax(fabs(a[i].mu - b[i].mu), fabs(a[i].s - b[i].s)) / fmax(scale, 1e-300));
        }
        comps += na;
    }
    CHECK(same_count, "%s: every term has as many components both ways", label);
    CHECK(same_wdf, "%s: the same weights and degrees of freedom", label);
    CHECK(worst < 1e-10, "%s: locations and scales agree, worst %.3g relative", label, worst);
    CHECK(dup ? collinear > 0 : collinear == 0, "%s: %zu collinear models", label, collinear);
    CHECK(comps >= 4 * c * K, "%s: %zu components over %zu models", label, comps, K);
    printf("  %-26s %zu models, %zu collinear, %zu components, worst %.2g\n", label, K, collinear, comps, worst);
    free(a);
    free(b);
    free(atoms);
    free(uses);
    bsl_colstore_free(&cs);
    free_case(&p, &ref, &got, M, D, dict, r);
}

/* One model's atoms' components in long double (x87: 64-bit significand):
 * A = G_AA + tau I by Cholesky, y = A^{-1} b and diag(A^{-1}) by solves
 * with the unit vectors; the atoms' locations s y_j and scales
 * sqrt(scale2 s (A^{-1})_jj) as bsl_post_of and bsl_post_terms define them
 * (one output, kernel atoms: no rescaling). 0, or -1 when not positive. */
static int reference(const bsl_design *D, const bsl_coef_prior *pr, const size_t *A, size_t k, double *mu_out,
                     double *s_out)
{
    const size_t m = D->m;
    const double tau = bsl_coef_tau(pr), N = (double)(D->n - D->q);
    long double L[KMAX][KMAX] = {{0}}, y[KMAX], v[KMAX], diag[KMAX];
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j <= i; j++) {
            long double t = (long double)D->G[A[i] + A[j] * m] + (i == j ? (long double)tau : 0.0L);
            for (size_t l = 0; l < j; l++) t -= L[i][l] * L[j][l];
            if (i == j) {
                if (!(t > 0)) return -1;
                L[i][i] = sqrtl(t);
            } else {
                L[i][j] = t / L[j][j];
            }
        }
    long double quad = 0;
    for (size_t i = 0; i < k; i++) { /* z = L^{-1} b, then y = L^{-T} z */
        long double t = D->Bty[A[i]];
        for (size_t l = 0; l < i; l++) t -= L[i][l] * v[l];
        v[i] = t / L[i][i];
        quad += v[i] * v[i];
    }
    for (size_t i = k; i-- > 0;) {
        long double t = v[i];
        for (size_t l = i + 1; l < k; l++) t -= L[l][i] * y[l];
        y[i] = t / L[i][i];
    }
    for (size_t j = 0; j < k; j++) { /* (A^{-1})_jj = |L^{-1} e_j|^2 */
        long double e[KMAX] = {0}, d = 0;
        for (size_t i = j; i < k; i++) {
            long double t = i == j ? 1.0L : 0.0L;
            for (size_t l = j; l < i; l++) t -= L[i][l] * e[l];
            e[i] = t / L[i][i];
            d += e[i] * e[i];
        }
        diag[j] = d;
    }
    const double sh = pr->type->shrink(pr, pr->g, N, k, D->yy[0], (double)quad);
    const double df = pr->type->post_df(pr, N, (double)k);
    const double s2 = pr->type->post_scale2(pr, N, df, D->yy[0], (double)quad, sh);
    for (size_t j = 0; j < k; j++) {
        mu_out[j] = (double)(sh * y[j]);
        s_out[j] = sqrt(s2 * sh * (double)diag[j]);
    }
    return 0;
}

/* Nearly collinear Gaussian kernels (r = 2.5 on 90 points: many sets near
 * the collinearity limit, where the digits the rounding leaves are few):
 * the shared rows are no less accurate than the per-model factorisation
 * and inverse, against long double. The sets are a walk's through
 * bsl_model_add, which admits only what the engines give probability. */
static void accuracy(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    double X[N], Y[N];
    for (size_t i = 0; i < N; i++) {
        X[i] = gsl_ran_flat(r, -10, 10);
        Y[i] = (X[i] ? sin(X[i]) / X[i] : 1) + gsl_ran_gaussian(r, 0.1);
    }
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_model *M = NULL;
    bsl_coef_prior pr;
    int rc = bsl_dict_create(&dict, "gauss:r=2.5", X, N, 1, &err);
    if (!rc) rc = bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err);
    if (!rc) rc = bsl_coef_prior_parse(&pr, "g:g=90", N, 1, &err);
    if (!rc) rc = bsl_model_create(&M, D, &pr, KMAX, &err);
    CHECK(!rc && D && D->G, "stiff kernels: a dense design");
    if (rc || !D->G) return;
    const size_t m = D->m, q = D->q, nterm = q + m;
    size_t *atoms = malloc(NMOD * KMAX * sizeof *atoms), ks[NMOD], K = 0;
    const size_t *ptr[NMOD];
    double wt[NMOD], mu[1] = {0}, sc[1] = {1};
    for (int step = 0; K < NMOD && step < 50 * NMOD; step++) {
        if (M->k == 0 || (M->k < KMAX && gsl_rng_uniform(r) < 0.6)) {
            const size_t j = gsl_rng_uniform_int(r, m);
            if (M->pos[j] >= 0 || bsl_model_add(M, j) != BASEL_OK) continue;
        } else {
            bsl_model_remove(M, M->active[gsl_rng_uniform_int(r, M->k)]);
        }
        size_t s[KMAX], k = M->k;
        memcpy(s, M->active, k * sizeof *s);
        ascending(s, k);
        int seen = 0;
        for (size_t i = 0; i < K && !seen; i++) seen = ks[i] == k && memcmp(atoms + i * KMAX, s, k * sizeof *s) == 0;
        if (seen || k == 0) continue;
        memcpy(atoms + K * KMAX, s, k * sizeof *s);
        ks[K] = k;
        ptr[K] = atoms + K * KMAX;
        wt[K] = 1 + (double)K + gsl_rng_uniform(r);
        K++;
    }
    bsl_coef_comps ref, got;
    bsl_coef_comps_init(&ref, nterm);
    bsl_coef_comps_init(&got, nterm);
    for (size_t i = 0; i < K; i++)
        for (size_t a = 0; a < ks[i]; a++) ref.off[q + ptr[i][a]]++, got.off[q + ptr[i][a]]++;
    for (size_t l = 0; l < q; l++) ref.off[l] = got.off[l] = K;
    bsl_coef_comps_alloc(&ref);
    bsl_coef_comps_alloc(&got);
    bsl_post p;
    bsl_post_init(&p, KMAX, 1);
    double u[64], t[64], x[KMAX + 1], rmu[KMAX], rs[KMAX], worst_ref = 0, worst_got = 0;
    for (size_t i = 0; i < K; i++)
        if (!bsl_post_of(&p, M, ptr[i], ks[i], 0)) bsl_post_terms(&ref, 0, nterm, D, &p, ptr[i], wt[i], mu, sc, 0, u, x, t);
    const bsl_coef_gram gm = {D->G, m, D->Bty, NULL, m, bsl_coef_tau(&pr), &pr, (double)(N - q), D->yy, 0, NULL, NULL};
    CHECK(bsl_coef_comps_shared(&got, nterm, D, &gm, K, ptr, ks, wt, mu, sc, 0) == BASEL_OK, "stiff kernels: shared");
    /* each model's atoms against long double, in both tables (found by weight) */
    int all = 1;
    for (size_t i = 0; i < K; i++) {
        if (reference(D, &pr, ptr[i], ks[i], rmu, rs)) continue;
        for (size_t a = 0; a < ks[i]; a++) {
            const size_t term = q + ptr[i][a];
            int found = 0;
            for (int which = 0; which < 2; which++) {
                const bsl_coef_comps *cp = which ? &got : &ref;
                for (size_t e = cp->off[term]; e < cp->off[term] + cp->fill[term]; e++) {
                    if (cp->w[e] != wt[i]) continue;
                    const double err_e = fmax(fabs(cp->mu[e] - rmu[a]), fabs(cp->s[e] - rs[a])) / fmax(fabs(rmu[a]), rs[a]);
                    if (which) worst_got = fmax(worst_got, err_e);
                    else worst_ref = fmax(worst_ref, err_e);
                    found++;
                }
            }
            all &= found == 2;
        }
    }
    CHECK(all, "stiff kernels: every admitted model's atoms in both tables");
    CHECK(worst_got <= fmax(4 * worst_ref, 1e-12),
          "stiff kernels: shared rows %.3g from long double, per-model inverse %.3g", worst_got, worst_ref);
    printf("  stiff kernels (r = 2.5)    %zu models; against long double: shared %.2g, per model %.2g\n", K, worst_got,
           worst_ref);
    free(atoms);
    free_case(&p, &ref, &got, M, D, dict, r);
}

int main(void)
{
    run("linear g", "linear", "g:g=100", 2, 0, 0, 1, 0);
    run("linear g, BAS sd", "linear", "g:g=100", 1, 0, 1, 2, 0);
    run("linear bic", "linear", "bic", 1, 0, 0, 3, 0);
    run("gauss ridge", "gauss:r=1", "ridge:lambda=0.5,sigma2=0.3", 2, 0, 0, 4, 0);
    run("gauss + inputs, hier (q = 3)", "gauss:r=1,linear-term=1", "hier", 1, 0, 0, 5, 0);
    run("linear g, equal columns", "linear", "g:g=100", 1, 1, 0, 6, 0);
    run("streamed linear g", "linear", "g:g=100", 2, 0, 0, 9, 1);
    run("streamed gauss, no store", "gauss:r=1", "hier", 1, 0, 0, 10, 1);
    accuracy(7);
    accuracy(8);
    return check_report("test_coef_shared");
}
