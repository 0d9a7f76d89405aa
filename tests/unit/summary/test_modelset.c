/*
 * test_modelset.c: the visited-model set. Adding by key (bsl_modelset_key,
 * bsl_modelset_prefetch, bsl_modelset_add_key: what rj does, the key made
 * when a state is entered and added when it is left) has the same effect as
 * bsl_modelset_add: the same items in the same order, with the same atoms,
 * weights and log posteriors, and the same dropped weight when the cap is
 * reached; subsets are found whatever the order of their atoms. Pooling
 * chains' sets by bsl_modelset_absorb (which takes the first set's storage
 * when it can) gives the pool bsl_modelset_merge gives, under a cap or not,
 * with chain sets within and past it.
 */
#include "check.h"
#include "summary/summary.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

enum { M = 40, KMAX = 12, STEPS = 20000 };

static void same_sets(size_t cap, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    bsl_modelset a, b;
    CHECK(bsl_modelset_init(&a, cap) == 0 && bsl_modelset_init(&b, cap) == 0, "sets made");
    size_t atoms[KMAX], sorted[KMAX];
    bsl_subset_key key = {sorted, 0, 0};
    for (int step = 0; step < STEPS; step++) {
        /* a random subset of a few likely atoms, in random order */
        const size_t k = gsl_rng_uniform_int(r, KMAX + 1);
        for (size_t i = 0; i < k; i++) {
            size_t j;
            int dup;
            do {
                j = gsl_rng_uniform_int(r, step % 3 ? 14 : M);
                dup = 0;
                for (size_t l = 0; l < i; l++) dup |= atoms[l] == j;
            } while (dup);
            atoms[i] = j;
        }
        const double w = (double)(1 + gsl_rng_uniform_int(r, 5));
        const double lp = step % 7 ? -gsl_rng_uniform(r) * 100 : NAN;
        CHECK(bsl_modelset_add(&a, atoms, k, w, lp) == 0, "add");
        bsl_modelset_key(&key, atoms, k);
        for (int stage = 0; stage < 3; stage++) bsl_modelset_prefetch(&b, &key, stage);
        CHECK(bsl_modelset_add_key(&b, &key, w, lp) == 0, "add by key");
    }
    int same = a.n == b.n && a.dropped_weight == b.dropped_weight;
    for (size_t i = 0; same && i < a.n; i++) {
        const bsl_subset *x = &a.items[i], *y = &b.items[i];
        same = x->k == y->k && x->weight == y->weight &&
               (x->log_post == y->log_post || (isnan(x->log_post) && isnan(y->log_post))) &&
               memcmp(bsl_modelset_atoms(&a, i), bsl_modelset_atoms(&b, i), x->k * sizeof(size_t)) == 0;
    }
    CHECK(same, "cap %zu: add by key = add (%zu items, %g dropped)", cap, a.n, a.dropped_weight);
    /* past the cap only records (a new best log posterior) are stored */
    CHECK(cap == 0 ? a.dropped_weight == 0 : a.n <= cap + 200 && a.dropped_weight > 0,
          "cap %zu: %zu items, %g dropped", cap, a.n, a.dropped_weight);
    CHECK(fabs(bsl_modelset_total(&a) - bsl_modelset_total(&b)) == 0, "the same total weight");
    /* a stored subset is found in any order of its atoms */
    const size_t k0 = a.items[0].k;
    size_t rev[KMAX];
    for (size_t i = 0; i < k0; i++) rev[i] = bsl_modelset_atoms(&a, 0)[k0 - 1 - i];
    const double w0 = a.items[0].weight, n0 = (double)a.n;
    bsl_modelset_add(&a, rev, k0, 2.5, NAN);
    CHECK(a.items[0].weight == w0 + 2.5 && (double)a.n == n0, "reversed atoms find their subset");
    bsl_modelset_free(&a);
    bsl_modelset_free(&b);
    gsl_rng_free(r);
}

/* A chain's set: random subsets added, as same_sets does. */
static void fill(bsl_modelset *s, size_t cap, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    CHECK(bsl_modelset_init(s, cap) == 0, "set made");
    size_t atoms[KMAX];
    for (int step = 0; step < STEPS / 4; step++) {
        const size_t k = gsl_rng_uniform_int(r, KMAX + 1);
        for (size_t i = 0; i < k; i++) {
            size_t j;
            int dup;
            do {
                j = gsl_rng_uniform_int(r, M);
                dup = 0;
                for (size_t l = 0; l < i; l++) dup |= atoms[l] == j;
            } while (dup);
            atoms[i] = j;
        }
        CHECK(bsl_modelset_add(s, atoms, k, 1.0 + gsl_rng_uniform_int(r, 3), -gsl_rng_uniform(r) * 50) == 0, "add");
    }
    gsl_rng_free(r);
}

static void same_pools(size_t chain_cap, size_t pool_cap)
{
    bsl_modelset merged, absorbed;
    CHECK(bsl_modelset_init(&merged, pool_cap) == 0 && bsl_modelset_init(&absorbed, pool_cap) == 0, "pools made");
    for (unsigned long chain = 1; chain <= 3; chain++) {
        bsl_modelset x, y;
        fill(&x, chain_cap, chain);
        fill(&y, chain_cap, chain);
        CHECK(bsl_modelset_merge(&merged, &x) == 0 && bsl_modelset_absorb(&absorbed, &y) == 0, "pooled");
        CHECK(y.n == 0 && y.items == NULL, "absorb empties the chain's set");
        bsl_modelset_free(&x);
        bsl_modelset_free(&y);
    }
    int same = merged.n == absorbed.n && merged.dropped_weight == absorbed.dropped_weight &&
               merged.best_log_post == absorbed.best_log_post;
    for (size_t i = 0; same && i < merged.n; i++) {
        const bsl_subset *x = &merged.items[i], *y = &absorbed.items[i];
        same = x->k == y->k && x->weight == y->weight && x->log_post == y->log_post &&
               memcmp(bsl_modelset_atoms(&merged, i), bsl_modelset_atoms(&absorbed, i), x->k * sizeof(size_t)) == 0;
    }
    CHECK(same, "chain cap %zu, pool cap %zu: absorb = merge (%zu items, %g dropped)", chain_cap, pool_cap,
          merged.n, merged.dropped_weight);
    bsl_modelset_free(&merged);
    bsl_modelset_free(&absorbed);
}

int main(void)
{
    same_pools(0, 0);
    same_pools(300, 300); /* past its cap a chain's set holds records: merged, not taken */
    same_pools(5000, 5000);
    same_pools(0, 300);
    for (unsigned long seed = 1; seed <= 3; seed++) {
        same_sets(0, seed);
        same_sets(500, seed);
    }
    return check_report("test_modelset");
}
