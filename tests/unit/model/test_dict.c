/*
 * test_dict.c: dictionaries from --basis specs (basis.h), in particular the
 * multi-scale Gaussian ones: the "r=0.5,1,2" list syntax, atom order
 * (width-major), each atom's column at its own width against the formula,
 * names that say the width, r=auto's grid against a median computed here
 * by brute force, widths set back from a fit, and the errors.
 */
#include "check.h"
#include "basis/basis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 7, D = 2 };

static double X[N * D];

static double kernel(const double *c, size_t i, double w)
{
    double r2 = 0;
    for (size_t a = 0; a < D; a++) r2 += (X[a * N + i] - c[a]) * (X[a * N + i] - c[a]);
    return exp(-r2 / (2 * w * w));
}

static void multi_scale(void)
{
    basel_error err;
    bsl_dict *dict = NULL;
    int rc = bsl_dict_create(&dict, "gauss:r=0.5,1,2.5,linear-term=1", X, N, D, &err);
    CHECK(rc == BASEL_OK, "r=0.5,1,2.5 parses: %s", rc ? err.message : "");
    if (rc) return;
    CHECK(dict->m == 3 * N && dict->linear_term == 1, "m = 3n = %zu, linear term kept", dict->m);
    double col[N];
    double worst = 0;
    for (size_t j = 0; j < dict->m; j++) {
        const double w = (double[]){0.5, 1, 2.5}[j / N];
        CHECK(dict->widths[j] == w, "atom %zu has width %g", j, w);
        bsl_dict_eval(dict, j, X, N, N, col);
        const double c[D] = {X[j % N], X[N + j % N]};
        for (size_t i = 0; i < N; i++) worst = fmax(worst, fabs(col[i] - kernel(c, i, w)));
    }
    CHECK(worst < 1e-15, "every atom's column is its kernel at its own width (worst %.1e)", worst);
    char name[64];
    bsl_dict_atom_name(dict, N + 3, NULL, name, sizeof name);
    CHECK(strcmp(name, "gauss@4/r=1") == 0, "atom n + 3 is named gauss@4/r=1 (got %s)", name);
    /* a fit's per-atom widths give the same columns */
    bsl_dict *back = NULL;
    rc = bsl_dict_make(&back, BSL_BASIS_GAUSS, D, dict->m, dict->width, dict->centres, 0, 0, 1);
    if (!rc) rc = bsl_dict_set_widths(back, dict->widths);
    CHECK(rc == BASEL_OK, "rebuilt from widths and centres");
    double col2[N];
    int same = 1;
    for (size_t j = 0; j < dict->m && !rc; j++) {
        bsl_dict_eval(dict, j, X, N, N, col);
        bsl_dict_eval(back, j, X, N, N, col2);
        same &= memcmp(col, col2, sizeof col) == 0;
    }
    CHECK(same, "the rebuilt dictionary evaluates every atom identically");
    bsl_dict_free(back);
    bsl_dict_free(dict);
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void auto_grid(void)
{
    double dist[N * (N - 1) / 2];
    size_t t = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = i + 1; j < N; j++)
            dist[t++] = hypot(X[i] - X[j], X[N + i] - X[N + j]);
    qsort(dist, t, sizeof *dist, cmp);
    const double med = dist[t / 2]; /* t = 21, odd */
    basel_error err;
    const char *const specs[] = {"gauss", "gauss:r=auto"};
    for (size_t s = 0; s < 2; s++) {
        bsl_dict *dict = NULL;
        int rc = bsl_dict_create(&dict, specs[s], X, N, D, &err);
        CHECK(rc == BASEL_OK && dict->m == 4 * N, "%s: four widths (m = %zu)", specs[s], rc ? 0 : dict->m);
        if (rc) continue;
        for (size_t a = 0; a < 4; a++) {
            const double want = med * (double[]){0.25, 0.5, 1, 2}[a];
            CHECK(fabs(dict->widths[a * N] - want) < 1e-12 * want, "%s: width %zu = %g x median = %g (got %g)",
                  specs[s], a, want / med, want, dict->widths[a * N]);
        }
        bsl_dict_free(dict);
    }
    /* one width: the single-scale dictionary of before, names unchanged */
    bsl_dict *one = NULL;
    int rc = bsl_dict_create(&one, "gauss:r=1.5", X, N, D, &err);
    CHECK(rc == BASEL_OK && one->m == N && one->widths == NULL && one->width == 1.5, "r=1.5: one width, m = n");
    char name[64];
    if (!rc) bsl_dict_atom_name(one, 2, NULL, name, sizeof name);
    CHECK(!rc && strcmp(name, "gauss@3") == 0, "single-scale names unchanged (gauss@3)");
    bsl_dict_free(one);
}

static void errors(void)
{
    basel_error err;
    bsl_dict *dict = NULL;
    const char *const bad[] = {"gauss:r=1,x", "gauss:r=1,1", "gauss:r=0,1", "gauss:r=1,2,3,4,5,6,7,8,9",
                               "gauss:r=abc", "gauss:r=1,linear-term=1,2"};
    const char *const says[] = {"not a number", "given twice", "out of range", "at most 8",
                                "not a number", "linear-term"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const int rc = bsl_dict_create(&dict, bad[i], X, N, D, &err);
        CHECK(rc == BASEL_EINVAL && strstr(err.message, says[i]), "%s refused, naming '%s' (%s)", bad[i], says[i],
              rc ? err.message : "accepted");
        if (!rc) bsl_dict_free(dict), dict = NULL;
    }
}

int main(void)
{
    for (size_t i = 0; i < N * D; i++) X[i] = sin(1.7 * (double)i + 0.3) * (1 + (double)(i % 3));
    multi_scale();
    auto_grid();
    errors();
    return check_report("test_dict");
}
