/*
 * prefix_order.c: the models of a model average in prefix order
 * (prefix_order.h).
 *
 * The atoms are ranked once (a qsort of n). Each model's ranks are put in
 * ascending order through a bit set of the n ranks (up to 1024 atoms; an
 * insertion sort beyond), and the models are sorted by an MSD radix sort on
 * their keys, one entry a pass (bucket 0: the key has ended, then rank + 1),
 * small groups by insertion: each key is read about as deep as it shares a
 * prefix with another, where qsort compared such prefixes log K times
 * (20000 models of lin_p100: 7 ms against 2.8).
 */
#include "prefix_order.h"
#include "../../core/core.h"

#include <stdlib.h>
#include <string.h>

typedef struct ranked {
    double pri;
    size_t tie, a;
} ranked;

static int by_priority(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->pri != b->pri) return a->pri > b->pri ? -1 : 1;
    return (a->tie > b->tie) - (a->tie < b->tie);
}

static void sort_ranks(bsl_rank *v, size_t k)
{
    for (size_t i = 1; i < k; i++) { /* k is a model's size: insertion sort */
        const bsl_rank x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

/* a before b (keys equal before entry d): lexicographic, a key before its
 * extensions */
static int key_less(const bsl_prefix_model *a, const bsl_prefix_model *b, size_t d)
{
    const size_t n = a->k < b->k ? a->k : b->k;
    for (; d < n; d++)
        if (a->key[d] != b->key[d]) return a->key[d] < b->key[d];
    return a->k < b->k;
}

#define RADIX_SMALL 16
typedef struct group {
    size_t at, len, d;
} group;

static size_t bucket(const bsl_prefix_model *x, size_t d) { return x->k > d ? (size_t)x->key[d] + 1 : 0; }

static int sort_models(bsl_prefix_model *a, size_t K, size_t n)
{
    bsl_prefix_model *tmp = bsl_malloc(K + 1, sizeof *tmp);
    size_t *cnt = bsl_malloc(n + 2, sizeof *cnt);
    group *stack = bsl_malloc(K + 1, sizeof *stack); /* pending groups: disjoint, of 2 or more */
    int rc = tmp && cnt && stack ? BASEL_OK : BASEL_ENOMEM;
    size_t top = 0;
    if (!rc && K > 1) stack[top++] = (group){0, K, 0};
    while (top) {
        const group g = stack[--top];
        bsl_prefix_model *x = a + g.at;
        if (g.len <= RADIX_SMALL) {
            for (size_t i = 1; i < g.len; i++) {
                const bsl_prefix_model v = x[i];
                size_t j = i;
                for (; j > 0 && key_less(&v, &x[j - 1], g.d); j--) x[j] = x[j - 1];
                x[j] = v;
            }
            continue;
        }
        memset(cnt, 0, (n + 2) * sizeof *cnt);
        for (size_t i = 0; i < g.len; i++) cnt[bucket(&x[i], g.d)]++;
        for (size_t b = 0, sum = 0; b <= n; b++) { /* counts to starts */
            const size_t c = cnt[b];
            cnt[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < g.len; i++) tmp[cnt[bucket(&x[i], g.d)]++] = x[i];
        memcpy(x, tmp, g.len * sizeof *x);
        /* cnt[b] is now bucket b's end; the ended keys (bucket 0) are the
         * same set, so a group of them is left as it is */
        for (size_t b = 1, from = cnt[0]; b <= n; from = cnt[b++])
            if (cnt[b] - from > 1) stack[top++] = (group){g.at + from, cnt[b] - from, g.d + 1};
    }
    free(tmp);
    free(cnt);
    free(stack);
    return rc;
}

void bsl_prefix_order_free(bsl_prefix_order *po)
{
    free(po->atom);
    free(po->keys);
    free(po->models);
    memset(po, 0, sizeof *po);
}

int bsl_prefix_order_make(bsl_prefix_order *po, size_t n, const double *pri, const size_t *tie, size_t K,
                          const size_t *const *atoms, const size_t *ks, const double *wt)
{
    memset(po, 0, sizeof *po);
    if (n > BSL_RANK_ATOMS_MAX) return BASEL_EINVAL;
    size_t total = 0;
    for (size_t r = 0; r < K; r++) total += ks[r];
    const size_t nb = (n + 63) / 64;
    ranked *rk = bsl_malloc(n + 1, sizeof *rk);
    bsl_rank *rank = bsl_malloc(n + 1, sizeof *rank);
    uint64_t *bits = n <= 1024 ? bsl_calloc(nb + 1, sizeof *bits) : NULL;
    po->atom = bsl_malloc(n + 1, sizeof *po->atom);
    po->keys = bsl_malloc_huge(total + 1, sizeof *po->keys); /* written from their start (core.h) */
    po->models = bsl_malloc_huge(K + 1, sizeof *po->models);
    int rc = rk && rank && (bits || n > 1024) && po->atom && po->keys && po->models ? BASEL_OK : BASEL_ENOMEM;
    if (!rc) {
        for (size_t a = 0; a < n; a++) rk[a] = (ranked){pri[a], tie ? tie[a] : a, a};
        qsort(rk, n, sizeof *rk, by_priority);
        for (size_t i = 0; i < n; i++) {
            rank[rk[i].a] = (bsl_rank)i;
            po->atom[i] = rk[i].a;
        }
        for (size_t r = 0, off = 0; r < K; off += ks[r++]) {
            if (r + 4 < K) { /* a model set's atoms lie in the order the models were met */
                __builtin_prefetch(atoms[r + 4]);
                __builtin_prefetch(atoms[r + 4] + 8);
            }
            bsl_rank *x = po->keys + off, *e = x;
            if (bits) { /* the ranks in order from a bit set */
                for (size_t i = 0; i < ks[r]; i++) bits[rank[atoms[r][i]] / 64] |= (uint64_t)1 << (rank[atoms[r][i]] % 64);
                for (size_t b = 0; b < nb; b++)
                    for (uint64_t v = bits[b]; v; v &= v - 1) *e++ = (bsl_rank)(64 * b + (size_t)__builtin_ctzll(v));
                memset(bits, 0, nb * sizeof *bits);
            }
            if ((size_t)(e - x) != ks[r]) { /* no bit set, or an atom twice (a malformed list: kept as it is) */
                for (size_t i = 0; i < ks[r]; i++) x[i] = rank[atoms[r][i]];
                sort_ranks(x, ks[r]);
            }
            po->models[r] = (bsl_prefix_model){po->keys + off, ks[r], r, wt ? wt[r] : 0.0};
        }
        rc = sort_models(po->models, K, n);
    }
    free(rk);
    free(rank);
    free(bits);
    return rc;
}
