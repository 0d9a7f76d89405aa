/*
 * test_coef_table.c: the coefficient tables' shared part (coef_table.c),
 * against answers known in closed form:
 *   - bsl_tri_quad: for u = L v (L lower triangular, made here), |L^-1 u|^2
 *     is |v|^2 and its scratch holds v; the upper layout (R = L', the
 *     Gaussian table's always-in factor) gives the same bits, since it is
 *     the same solve read across;
 *   - the components: counts become offsets, pushes land in their term's
 *     slice in order, a variance rounded below 0 is a zero scale;
 *   - a term's row: for one normal component and PIP 1 the interval is
 *     mu -+ z_{0.975} s, z_{0.975} = 1.959963984540054; with PIP p and
 *     components (w_i, mu_i, s_i) the mean is p sum w_i mu_i / sum w_i and
 *     the sd sqrt(p m2 - mean^2), m2 the normalised second moment; a term
 *     in no model is a point mass at 0 without "cond_mean"; labels
 *     ("?" for a missing name, "class" only when given);
 *   - the table's block: its keys in order, "covered" clamped to [0, 1],
 *     "interval_pruned" the quantiles' BSL_TMIX_PRUNED, "within_model" only
 *     when given.
 */
#include "check.h"
#include "engine/subset/coef_table.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

static double num(const json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }

static void tri_quad(void)
{
    enum { d = 4 };
    const double L[d * d] = {1.7, 0.31, -0.42, 0.25,  0, 2.385, 0.57, -0.66,
                             0,   0,    0.93,  0.118, 0, 0,     0,    1.41}; /* column-major, lower */
    const double v0[d] = {0.37, -1.25, 2.03, 0.61};
    double u[d], R[d * d], v[d], w[d], want = 0;
    for (size_t i = 0; i < d; i++) {
        u[i] = 0;
        for (size_t l = 0; l <= i; l++) u[i] += L[i + l * d] * v0[l];
        want += v0[i] * v0[i];
        for (size_t l = 0; l < d; l++) R[l + i * d] = L[i + l * d]; /* R = L' */
    }
    const double q = bsl_tri_quad(L, d, 0, u, v);
    CHECK_CLOSE(q, want, 1e-13, "|L^-1 L v|^2 = |v|^2");
    for (size_t i = 0; i < d; i++) CHECK_CLOSE(v[i], v0[i], 1e-13, "scratch holds L^-1 u");
    const double qr = bsl_tri_quad(R, d, 1, u, w);
    CHECK(qr == q, "upper layout: %.17g, lower: %.17g", qr, q);
    CHECK(memcmp(v, w, sizeof v) == 0, "upper layout: the same solve");
}

static void comps(void)
{
    bsl_coef_comps cp;
    CHECK(bsl_coef_comps_init(&cp, 3) == BASEL_OK, "init");
    cp.off[0] = 2, cp.off[2] = 1;
    CHECK(bsl_coef_comps_alloc(&cp) == BASEL_OK, "alloc");
    CHECK(cp.off[0] == 0 && cp.off[1] == 2 && cp.off[2] == 2, "offsets %zu %zu %zu", cp.off[0], cp.off[1], cp.off[2]);
    bsl_coef_comps_push(&cp, 2, 0.5, -1.5, 2.25, 7.0);
    bsl_coef_comps_push(&cp, 0, 0.25, 3.0, -1e-18, INFINITY);
    bsl_coef_comps_push(&cp, 0, 0.75, 1.0, 4.0, INFINITY);
    CHECK(cp.fill[0] == 2 && cp.fill[1] == 0 && cp.fill[2] == 1, "fills");
    CHECK(cp.w[0] == 0.25 && cp.mu[0] == 3.0 && cp.s[0] == 0.0 && isinf(cp.df[0]), "term 0, first: zero scale");
    CHECK(cp.w[1] == 0.75 && cp.mu[1] == 1.0 && cp.s[1] == 2.0, "term 0, second");
    CHECK(cp.w[2] == 0.5 && cp.mu[2] == -1.5 && cp.s[2] == 1.5 && cp.df[2] == 7.0, "term 2");
    bsl_coef_comps_free(&cp);
    CHECK(!cp.off && !cp.w, "freed and cleared");
    bsl_coef_comps_free(&cp); /* twice is harmless */
}

static void rows(void)
{
    bsl_coef_comps cp;
    CHECK(bsl_coef_comps_init(&cp, 3) == BASEL_OK, "init");
    cp.off[0] = 1, cp.off[1] = 2;
    CHECK(bsl_coef_comps_alloc(&cp) == BASEL_OK, "alloc");
    bsl_coef_comps_push(&cp, 0, 2.0, 0.7, 0.09, INFINITY); /* one normal, s = 0.3 */
    bsl_coef_comps_push(&cp, 1, 1.0, 1.2, 0.25, INFINITY);
    bsl_coef_comps_push(&cp, 1, 3.0, 2.6, 0.64, INFINITY);
    json_t *r0 = bsl_coef_comps_row(&cp, 0, 1.0, 0.95, 0, NULL, NULL, "y", 1);
    json_t *r1 = bsl_coef_comps_row(&cp, 1, 0.8, 0.95, 0, "x1", "b", NULL, 0);
    json_t *r2 = bsl_coef_comps_row(&cp, 2, 0.0, 0.95, 0, "x2", NULL, "y", 0);
    CHECK(r0 && r1 && r2, "rows made");
    if (r0 && r1 && r2) {
        const double z = 1.959963984540054;
        CHECK_CLOSE(num(r0, "lower"), 0.7 - z * 0.3, 1e-12, "one normal: lower");
        CHECK_CLOSE(num(r0, "upper"), 0.7 + z * 0.3, 1e-12, "one normal: upper");
        CHECK_CLOSE(num(r0, "sd"), 0.3, 1e-15, "one normal: sd");
        CHECK(!strcmp(json_string_value(json_object_get(r0, "name")), "?"), "a missing name is ?");
        CHECK(!json_object_get(r0, "class"), "no class unless given");
        CHECK(json_is_true(json_object_get(r0, "always_in")), "always_in");
        const double m1 = (1.2 + 3 * 2.6) / 4, m2 = (0.25 + 1.2 * 1.2 + 3 * (0.64 + 2.6 * 2.6)) / 4;
        CHECK_CLOSE(num(r1, "mean"), 0.8 * m1, 1e-14, "mixture mean");
        CHECK_CLOSE(num(r1, "sd"), sqrt(0.8 * m2 - 0.64 * m1 * m1), 1e-14, "mixture sd");
        CHECK_CLOSE(num(r1, "cond_mean"), m1, 1e-14, "mean given inclusion");
        CHECK(!strcmp(json_string_value(json_object_get(r1, "class")), "b"), "class");
        CHECK(!strcmp(json_string_value(json_object_get(r1, "target")), "?"), "a missing target is ?");
        CHECK(num(r2, "mean") == 0 && num(r2, "lower") == 0 && num(r2, "upper") == 0 &&
                  !json_object_get(r2, "cond_mean"),
              "a term in no model: a point mass at 0");
    }
    json_t *terms = json_array();
    json_array_append_new(terms, r0);
    json_t *t1 = bsl_coef_table_json(0.9, 5, 1.5, terms, "laplace");
    const char *keys[] = {"scale", "level", "models", "covered", "interval_pruned", "terms", "within_model"};
    size_t i = 0;
    const char *key;
    json_t *val;
    json_object_foreach(t1, key, val) CHECK(i < 7 && !strcmp(key, keys[i++]), "key %zu: %s", i, key);
    CHECK(i == 7, "seven keys");
    CHECK(num(t1, "interval_pruned") == BSL_TMIX_PRUNED, "the pruning recorded");
    CHECK(num(t1, "covered") == 1.0 && num(t1, "level") == 0.9 && json_integer_value(json_object_get(t1, "models")) == 5,
          "covered clamped to 1");
    json_t *t2 = bsl_coef_table_json(0.95, 2, -0.25, json_array(), NULL);
    CHECK(t2 && num(t2, "covered") == 0.0 && !json_object_get(t2, "within_model"), "covered clamped to 0, no within_model");
    json_decref(t1);
    json_decref(t2);
    json_decref(r1);
    json_decref(r2);
    bsl_coef_comps_free(&cp);
}

int main(void)
{
    tri_quad();
    comps();
    rows();
    return check_report("test_coef_table");
}
