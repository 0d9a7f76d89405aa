/*
 * test_credible_rule.c: the credible-set rule (summary/credible.h, docs/FIT.md
 * "credible_sets") on hand-made posteriors whose sets are known by hand.
 *
 * 1. Strong inputs: x0, x1, x2 in one cluster (|r| = 0.9), the models
 *    {x0 x1 x2} 0.88 and each pair 0.04: every PIP is 0.96 but
 *    P(K >= 3) = 0.88, so the count alone gives 2 sets; an input of PIP
 *    >= 0.95 is a set by itself, so there are 3: {x0}, {x1}, {x2}, with
 *    signal 1, 2, 3 and signal_prob 1, 1, 0.88.
 * 2. Two signals of near-copies: a1, a2 (|r| = 0.99) and b1, b2
 *    (|r| = 0.99), |r| = 0.6 across, every model holds one a and one b:
 *    P(K >= 2) = 1, two sets; the first (lead b1, PIP 0.55) takes b2, not an
 *    a (b2 covers the models without b1, an a only some of them): {b1, b2}
 *    then {a1, a2}, each of coverage 1 and purity 0.99. One set per cluster
 *    gave {b1, b2} alone.
 * 3. One signal: the same inputs, every model holds one input only:
 *    P(K >= 2) = 0, one set.
 * 4. Weak: x0 in half the models, alone: P(K >= 1) = 0.5, no set.
 */
#include "check.h"
#include "summary/credible.h"

#include <math.h>
#include <string.h>

enum { M = 4 };
static double R[M][M];

static double corr(void *ctx, size_t i, size_t j)
{
    (void)ctx;
    return i == j ? 1.0 : fabs(R[i][j]);
}

static void set_r(double within01, double within23, double across)
{
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < M; j++)
            R[i][j] = i == j ? 1 : (i < 2) == (j < 2) ? (i < 2 ? within01 : within23) : across;
}

typedef struct model {
    size_t k, a[M];
    double w;
} model;

/* the sets of the posterior given by the models (PIPs from them) */
static void sets_of(const model *mo, size_t n, bsl_cs_list *out)
{
    bsl_modelset ms;
    double pip[M] = {0};
    CHECK(bsl_modelset_init(&ms, 0) == 0, "modelset");
    for (size_t i = 0; i < n; i++) {
        CHECK(bsl_modelset_add(&ms, mo[i].a, mo[i].k, mo[i].w, NAN) == 0, "add");
        for (size_t t = 0; t < mo[i].k; t++) pip[mo[i].a[t]] += mo[i].w;
    }
    const bsl_cs_opts o = BSL_CS_DEFAULTS;
    CHECK(bsl_credible_sets(pip, M, &ms, corr, NULL, &o, out) == BASEL_OK, "credible sets");
    bsl_modelset_free(&ms);
}

/* set i holds exactly the atoms of mask, with this signal rank */
static void expect_set(const bsl_cs_list *l, size_t i, unsigned mask, size_t signal, double signal_prob,
                       double coverage, double purity)
{
    CHECK(i < l->n, "set %zu missing (%zu sets)", i, l->n);
    if (i >= l->n) return;
    const bsl_cs *s = &l->sets[i];
    unsigned got = 0;
    for (size_t t = 0; t < s->k; t++) got |= 1u << s->atoms[t];
    CHECK(got == mask && s->k == (size_t)__builtin_popcount(mask), "set %zu: atoms %#x, expected %#x", i, got, mask);
    CHECK(s->signal == signal, "set %zu: signal %zu, expected %zu", i, s->signal, signal);
    CHECK_CLOSE(s->signal_prob, signal_prob, 1e-12, "P(K >= signal)");
    CHECK_CLOSE(s->coverage, coverage, 1e-12, "coverage");
    CHECK_CLOSE(s->purity, purity, 1e-15, "purity");
}

int main(void)
{
    bsl_cs_list l;
    /* 1: three strong inputs of one cluster */
    set_r(0.9, 0.9, 0.9);
    const model strong[] = {{3, {0, 1, 2}, 0.88}, {2, {0, 1}, 0.04}, {2, {0, 2}, 0.04}, {2, {1, 2}, 0.04}};
    sets_of(strong, 4, &l);
    CHECK(l.n == 3, "strong: %zu sets, expected 3", l.n);
    expect_set(&l, 0, 1u << 0, 1, 1.0, 0.96, 1);
    expect_set(&l, 1, 1u << 1, 2, 1.0, 0.96, 1);
    expect_set(&l, 2, 1u << 2, 3, 0.88, 0.96, 1);
    bsl_cs_list_free(&l);

    /* 2: two signals of near-copies in one cluster; atoms a1 a2 b1 b2 = 0 1 2 3 */
    set_r(0.99, 0.99, 0.6);
    const model two[] = {{2, {0, 2}, 0.30}, {2, {0, 3}, 0.20}, {2, {1, 2}, 0.25}, {2, {1, 3}, 0.25}};
    sets_of(two, 4, &l);
    CHECK(l.n == 2, "two signals: %zu sets, expected 2", l.n);
    expect_set(&l, 0, 0xCu, 1, 1.0, 1.0, 0.99);
    expect_set(&l, 1, 0x3u, 2, 1.0, 1.0, 0.99);
    CHECK(l.n < 1 || (l.sets[0].lead == 2 && l.sets[1].lead == 2), "both sets are of b1's cluster");
    bsl_cs_list_free(&l);

    /* 3: the same inputs, one at a time: one signal */
    const model one[] = {{1, {0}, 0.30}, {1, {1}, 0.20}, {1, {2}, 0.35}, {1, {3}, 0.15}};
    sets_of(one, 4, &l);
    CHECK(l.n == 1, "one signal: %zu sets, expected 1", l.n);
    /* b1 (0.35), a1 (0.30), a2 (0.20), b2 (0.15): 1 - 0.15 = 0.85 < 0.95, so all four */
    expect_set(&l, 0, 0xFu, 1, 1.0, 1.0, 0.6);
    bsl_cs_list_free(&l);

    /* 4: weak */
    const model weak[] = {{1, {0}, 0.5}, {0, {0}, 0.5}};
    sets_of(weak, 2, &l);
    CHECK(l.n == 0, "weak: %zu sets, expected none", l.n);
    bsl_cs_list_free(&l);
    return check_report("test_credible_rule");
}
