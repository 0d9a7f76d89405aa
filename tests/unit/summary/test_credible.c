/*
 * test_credible.c: FIT.json's credible_sets (summary/credible.h) against
 * the exact posterior of enumeration on a small design.
 *
 * Design (n = 120, fixed generator): x1 carries an effect, x2..x4 are
 * near-copies of x1 (x1 + 0.05 noise, |r| ~ 0.999), x5..x8 are independent
 * noise, x9 carries a second effect; y = x1 + 0.7 x9 + N(0, 1). With every
 * one of the 2^9 models listed (--top 512), the test recomputes from the
 * listed probabilities:
 *   - the block's set lies in {x1..x4}, its coverage is P(model holds one
 *     of the set) to 1e-12, at least 0.95, and no smaller subset of the
 *     block reaches 0.95 (the set is the smallest);
 *   - its purity is the least |r| within the set, from the data, to 1e-12;
 *   - x9 has its own set; no set holds a noise input.
 * And on a design of independent noise only, no set is reported.
 *
 * Two signals in one cluster (two_signals): x1..x6 equicorrelated at
 * r ~ 0.8 (one cluster around the lead), y = x1 + x4 + N(0, 1), x7..x9
 * noise. From the 512 listed models the test recomputes the cluster (every
 * input with |r| >= 0.5 against the lead) and P(K >= s), K the number of
 * its inputs in the model: the cluster gives as many sets as the largest s
 * with P(K >= s) >= 0.95 (here 2: one cluster gave one set before issue
 * 30), the sets are disjoint, each set's signal_prob is P(K >= signal) and
 * its coverage P(model holds one of it), both to 1e-12, and x1 and x4 are
 * each in a set.
 */
#include "check.h"

#include <basel.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

enum { N = 120, P = 9 };

static double unif(unsigned long *u)
{
    *u = *u * 6364136223846793005UL + 1442695040888963407UL;
    return ((double)(*u >> 11) + 0.5) / 9007199254740992.0;
}
static double normal(unsigned long *u)
{
    const double a = unif(u), b = unif(u);
    return sqrt(-2 * log(a)) * cos(6.283185307179586 * b);
}

/* column-major n x (P + 1), y last; signal 0: no effects */
static void make(double *cm, int signal)
{
    unsigned long u = 2026;
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < P; j++) cm[j * N + i] = normal(&u);
        for (size_t j = 1; j < 4; j++) cm[j * N + i] = cm[i] + 0.05 * normal(&u);
        cm[P * N + i] = signal * (cm[i] + 0.7 * cm[8 * N + i]) + normal(&u);
    }
}

static double abs_corr(const double *cm, size_t a, size_t b)
{
    double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < N; i++) ma += cm[a * N + i], mb += cm[b * N + i];
    ma /= N;
    mb /= N;
    for (size_t i = 0; i < N; i++) {
        const double x = cm[a * N + i] - ma, y = cm[b * N + i] - mb;
        sab += x * y, saa += x * x, sbb += y * y;
    }
    return fabs(sab) / sqrt(saa * sbb);
}

/* P(model holds one of the atoms flagged in mask), from the listed models */
static double coverage(const json_t *models, unsigned mask)
{
    double s = 0;
    for (size_t i = 0; i < json_array_size(models); i++) {
        const json_t *m = json_array_get(models, i), *a = json_object_get(m, "atoms");
        int hit = 0;
        for (size_t t = 0; t < json_array_size(a); t++) hit |= (mask >> json_integer_value(json_array_get(a, t))) & 1;
        if (hit) s += json_number_value(json_object_get(m, "prob"));
    }
    return s;
}

static json_t *fit_doc(const double *cm)
{
    basel_data *d = NULL;
    basel_options *o = NULL;
    basel_fit *f = NULL;
    basel_error err;
    basel_data_from_matrix(&d, NULL, cm, N, P + 1, 1, N, NULL, &err);
    basel_options_create(&o);
    basel_options_set(o, "method", "enumerate", &err);
    basel_options_set(o, "top", "512", &err);
    CHECK(!basel_fit_run(&f, d, o, &err), "fit: %s", err.message);
    char *text = f ? basel_fit_to_json(f) : NULL;
    json_t *doc = text ? json_loads(text, 0, NULL) : NULL;
    basel_free(text);
    basel_fit_free(f);
    basel_options_free(o);
    basel_data_free(d);
    return doc;
}

static void check_block_set(const json_t *set, const json_t *models, const double *cm)
{
    const json_t *a = json_object_get(set, "atoms");
    const size_t k = json_array_size(a);
    unsigned mask = 0;
    for (size_t t = 0; t < k; t++) mask |= 1u << json_integer_value(json_array_get(a, t));
    CHECK((mask & ~0xFu) == 0 && k >= 1, "the block's set %#x is not within x1..x4", mask);
    const double cov = coverage(models, mask);
    CHECK_CLOSE(json_number_value(json_object_get(set, "coverage")), cov, 1e-12, "coverage of the block's set");
    CHECK(cov >= 0.95, "coverage %.6f below 0.95", cov);
    CHECK(json_integer_value(json_object_get(set, "size")) == (json_int_t)k, "size");
    const json_t *bounds = json_object_get(set, "coverage_bounds");
    CHECK(json_number_value(json_array_get(bounds, 0)) == json_number_value(json_object_get(set, "coverage")) &&
              json_number_value(json_array_get(bounds, 1)) == json_number_value(json_object_get(set, "coverage")),
          "enumeration stores every model: the bounds are the coverage");
    double best_smaller = 0;
    for (unsigned s = 1; s < 16; s++)
        if ((size_t)__builtin_popcount(s) < k) best_smaller = fmax(best_smaller, coverage(models, s));
    CHECK(best_smaller < 0.95, "a smaller subset of the block covers %.6f", best_smaller);
    double purity = 1;
    for (size_t x = 0; x < k; x++)
        for (size_t y = 0; y < x; y++)
            purity = fmin(purity, abs_corr(cm, (size_t)json_integer_value(json_array_get(a, x)),
                                           (size_t)json_integer_value(json_array_get(a, y))));
    CHECK_CLOSE(json_number_value(json_object_get(set, "purity")), purity, 1e-12, "purity");
    printf("block set: %zu inputs, coverage %.6f, purity %.6f, smaller subsets at most %.6f\n", k, cov, purity,
           best_smaller);
}

/* A streaming design (--gram-memory 1: n x m doubles above 1 MiB) reads
 * correlations from columns, not from the Gram matrix: every reported set's
 * purity is still the least |r| within it, from the data. */
static void streaming(void)
{
    enum { NS = 3000, MS = 60 };
    double *cm = malloc((size_t)NS * (MS + 1) * sizeof *cm);
    unsigned long u = 7;
    for (size_t i = 0; i < NS; i++) {
        for (size_t j = 0; j < MS; j++) cm[j * NS + i] = normal(&u);
        for (size_t j = 1; j < 4; j++) cm[j * NS + i] = cm[i] + 0.05 * normal(&u);
        cm[MS * NS + i] = 0.3 * cm[i] + 0.3 * cm[8 * NS + i] + normal(&u);
    }
    basel_data *d = NULL;
    basel_options *o = NULL;
    basel_fit *f = NULL;
    basel_error err;
    basel_data_from_matrix(&d, NULL, cm, NS, MS + 1, 1, NS, NULL, &err);
    basel_options_create(&o);
    const char *kv[] = {"method", "rj", "iter", "3000", "chains", "1", "seed", "3", "gram-memory", "1", NULL};
    for (size_t i = 0; kv[i]; i += 2) basel_options_set(o, kv[i], kv[i + 1], &err);
    CHECK(!basel_fit_run(&f, d, o, &err), "streaming fit: %s", err.message);
    char *text = f ? basel_fit_to_json(f) : NULL;
    json_t *doc = text ? json_loads(text, 0, NULL) : NULL;
    const json_t *sets = json_object_get(json_object_get(doc, "credible_sets"), "sets");
    CHECK(json_array_size(sets) >= 2, "streaming: %zu sets, expected the block and x9", json_array_size(sets));
    for (size_t i = 0; i < json_array_size(sets); i++) {
        const json_t *a = json_object_get(json_array_get(sets, i), "atoms");
        double purity = 1;
        for (size_t x = 0; x < json_array_size(a); x++)
            for (size_t y = 0; y < x; y++) {
                const size_t p = (size_t)json_integer_value(json_array_get(a, x)), q = (size_t)json_integer_value(json_array_get(a, y));
                double mp = 0, mq = 0, spq = 0, spp = 0, sqq = 0;
                for (size_t r = 0; r < NS; r++) mp += cm[p * NS + r], mq += cm[q * NS + r];
                mp /= NS, mq /= NS;
                for (size_t r = 0; r < NS; r++) {
                    const double e = cm[p * NS + r] - mp, g = cm[q * NS + r] - mq;
                    spq += e * g, spp += e * e, sqq += g * g;
                }
                purity = fmin(purity, fabs(spq) / sqrt(spp * sqq));
            }
        CHECK_CLOSE(json_number_value(json_object_get(json_array_get(sets, i), "purity")), purity, 1e-10, "streaming purity");
    }
    json_decref(doc);
    basel_free(text);
    basel_fit_free(f);
    basel_options_free(o);
    basel_data_free(d);
    free(cm);
}

static void make_two(double *cm)
{
    unsigned long u = 3030;
    for (size_t i = 0; i < N; i++) {
        const double z = normal(&u);
        for (size_t j = 0; j < P; j++) cm[j * N + i] = j < 6 ? sqrt(0.8) * z + sqrt(0.2) * normal(&u) : normal(&u);
        cm[P * N + i] = cm[i] + cm[3 * N + i] + normal(&u);
    }
}

static void two_signals(double *cm)
{
    make_two(cm);
    json_t *doc = fit_doc(cm);
    const json_t *models = json_object_get(doc, "models"), *sets = json_object_get(json_object_get(doc, "credible_sets"), "sets");
    const json_t *first = json_array_get(sets, 0);
    const size_t lead = (size_t)json_integer_value(json_object_get(first, "lead"));
    unsigned cluster = 0;
    for (size_t j = 0; j < P; j++) cluster |= (unsigned)(abs_corr(cm, lead, j) >= 0.5) << j;
    CHECK(cluster == 0x3Fu, "the cluster of x%zu is %#x, expected x1..x6", lead + 1, cluster);
    double tail[P + 2] = {0};
    for (size_t i = 0; i < json_array_size(models); i++) {
        const json_t *m = json_array_get(models, i), *a = json_object_get(m, "atoms");
        size_t k = 0;
        for (size_t t = 0; t < json_array_size(a); t++) k += (cluster >> json_integer_value(json_array_get(a, t))) & 1;
        for (size_t s = 0; s <= k; s++) tail[s] += json_number_value(json_object_get(m, "prob"));
    }
    size_t want = 0;
    for (size_t s = 1; s <= P; s++)
        if (tail[s] >= 0.95) want = s;
    CHECK(want == 2, "P(K >= 2) = %.6f, P(K >= 3) = %.6f: the design should hold two signals", tail[2], tail[3]);
    unsigned seen = 0;
    size_t from_cluster = 0;
    for (size_t i = 0; i < json_array_size(sets); i++) {
        const json_t *set = json_array_get(sets, i), *a = json_object_get(set, "atoms");
        if ((size_t)json_integer_value(json_object_get(set, "lead")) != lead) continue;
        from_cluster++;
        unsigned mask = 0;
        for (size_t t = 0; t < json_array_size(a); t++) mask |= 1u << json_integer_value(json_array_get(a, t));
        CHECK((mask & ~cluster) == 0, "set %zu (%#x) leaves the cluster", i, mask);
        CHECK((mask & seen) == 0, "set %zu (%#x) overlaps an earlier set", i, mask);
        seen |= mask;
        const json_int_t l = json_integer_value(json_object_get(set, "signal"));
        CHECK(l == (json_int_t)from_cluster, "set %zu is signal %lld of its cluster, expected %zu", i, (long long)l, from_cluster);
        CHECK_CLOSE(json_number_value(json_object_get(set, "signal_prob")), tail[from_cluster], 1e-12, "P(K >= signal)");
        CHECK_CLOSE(json_number_value(json_object_get(set, "cluster_mass")), tail[1], 1e-12, "the cluster's mass P(K >= 1)");
        CHECK_CLOSE(json_number_value(json_object_get(set, "coverage")), coverage(models, mask), 1e-12, "coverage");
        printf("two signals: set %zu, signal %lld, P(K >= %lld) = %.6f, inputs %#x, coverage %.6f\n", i, (long long)l,
               (long long)l, tail[from_cluster], mask, coverage(models, mask));
    }
    CHECK(from_cluster == want, "the cluster gave %zu sets, its posterior counts %zu signals", from_cluster, want);
    CHECK((seen & 1u) && (seen & 8u), "x1 and x4 each in a set (%#x)", seen);
    json_decref(doc);
}

int main(void)
{
    double *cm = malloc(N * (P + 1) * sizeof *cm);
    make(cm, 1);
    json_t *doc = fit_doc(cm);
    const json_t *models = json_object_get(doc, "models"), *cs = json_object_get(doc, "credible_sets");
    CHECK(json_array_size(models) == 512, "all 512 models listed (%zu)", json_array_size(models));
    const json_t *sets = json_object_get(cs, "sets");
    CHECK(json_number_value(json_object_get(cs, "coverage_target")) == 0.95, "coverage target");
    int block = 0, x9 = 0;
    for (size_t i = 0; i < json_array_size(sets); i++) {
        const json_t *s = json_array_get(sets, i), *a = json_object_get(s, "atoms");
        const json_int_t first = json_integer_value(json_array_get(a, 0));
        for (size_t t = 0; t < json_array_size(a); t++) {
            const json_int_t j = json_integer_value(json_array_get(a, t));
            CHECK(j < 4 || j == 8, "a set holds noise input x%lld", (long long)j + 1);
        }
        if (first < 4) {
            block++;
            check_block_set(s, models, cm);
        } else if (first == 8) {
            x9++;
            CHECK_CLOSE(json_number_value(json_object_get(s, "coverage")), coverage(models, 1u << 8), 1e-12, "x9's coverage");
        }
    }
    CHECK(block == 1 && x9 == 1, "expected one set for the block and one for x9, got %d and %d", block, x9);
    json_decref(doc);

    make(cm, 0);
    doc = fit_doc(cm);
    CHECK(json_array_size(json_object_get(json_object_get(doc, "credible_sets"), "sets")) == 0,
          "noise only: no credible set");
    json_decref(doc);
    two_signals(cm);
    free(cm);
    streaming();
    return check_report("test_credible");
}
