/*
 * modelset.c: a hash set of subsets with weights (summary.h). Subsets are
 * stored sorted in one arena; the table is open addressing with linear
 * probing, kept at most half full. When max_items is reached, new subsets are
 * not stored and their weight is counted in dropped_weight, so memory stays
 * bounded however long a chain runs.
 */
#include "summary.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_size(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static uint64_t hash_atoms(const size_t *a, size_t k)
{
    uint64_t h = 1469598103934665603ULL ^ k;
    for (size_t i = 0; i < k; i++) {
        h ^= (uint64_t)a[i] + 0x9e3779b97f4a7c15ULL;
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

/* Room for n items of `atoms` atoms in all (and, with table, a table that
 * holds them at most half full), made at once: growing by doubling copied
 * the items and the arena at each step (with the rehashes, a tenth of an
 * rj run's model-set work at 20000 models, most of it first touches of the
 * copies). Items keep their order, so the set is the same. */
static int rehash_to(bsl_modelset *s, size_t ns);

/* From this many models a set's first room, and a table of twice as many
 * slots, are on huge pages (bsl_malloc_huge): they are written from their
 * start (the items, the arena) or all over (the table), and as small pages
 * the four chains' sets of lin_p100 were 2000 faults, a sixth of an rj
 * fit's CPU on a virtual machine */
#define RESERVE_HUGE ((size_t)1 << 14)

static int reserve(bsl_modelset *s, size_t n, size_t atoms, int table)
{
    if (!s->items && !s->arena && n >= RESERVE_HUGE) { /* a set's first room: on huge pages */
        s->items = bsl_malloc_huge(n, sizeof *s->items);
        s->arena = bsl_malloc_huge(atoms + 1, sizeof *s->arena);
        if (!s->items || !s->arena) return -1;
        s->cap = n;
        s->arena_cap = atoms + 1;
    }
    if (bsl_grow((void **)&s->items, &s->cap, n, sizeof *s->items) ||
        bsl_grow((void **)&s->arena, &s->arena_cap, atoms + 1, sizeof *s->arena))
        return -1;
    size_t ns = s->nslots;
    while (table && 2 * n > ns) ns *= 2;
    return ns == s->nslots ? 0 : rehash_to(s, ns);
}

/* A bounded set reaches its bound in all but the shortest runs: its items,
 * table and arena (at 16 atoms a model, grown beyond) are made at their
 * full size up to this many models (untouched pages cost nothing; an
 * address-space limit sees them, hence the cap). Rehashing 20000 models
 * as the table doubled was 3.5 % of an rj fit on lin_p100; a checkpoint,
 * which stores the table whole, grows by 8 bytes a slot (512 KB a chain at
 * the default --max-models, against its arena's 6 MB there). */
#define RESERVE_MAX ((size_t)1 << 16)

int bsl_modelset_init(bsl_modelset *s, size_t max_items)
{
    memset(s, 0, sizeof *s);
    s->max_items = max_items;
    s->best_log_post = -INFINITY;
    s->nslots = 64;
    s->slots = calloc(s->nslots, sizeof *s->slots);
    if (!s->slots) return -1;
    const size_t n = BSL_MIN(max_items, RESERVE_MAX) + 1;
    return max_items ? reserve(s, n, 16 * n, 1) : 0;
}

void bsl_modelset_free(bsl_modelset *s)
{
    if (!s) return;
    free(s->items);
    free(s->slots);
    free(s->arena);
    memset(s, 0, sizeof *s);
}

static const size_t *atoms_of(const bsl_modelset *s, const bsl_subset *it)
{
    return s->arena + it->off;
}

static int rehash_to(bsl_modelset *s, size_t ns)
{
    size_t *slots = ns >= 2 * RESERVE_HUGE ? bsl_calloc_huge(ns, sizeof *slots) : calloc(ns, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < s->n; i++) {
        uint64_t h = hash_atoms(atoms_of(s, &s->items[i]), s->items[i].k);
        size_t at = (size_t)(h & (ns - 1));
        while (slots[at]) at = (at + 1) & (ns - 1);
        slots[at] = i + 1;
    }
    free(s->slots);
    s->slots = slots;
    s->nslots = ns;
    return 0;
}

static int rehash(bsl_modelset *s) { return rehash_to(s, s->nslots * 2); }

int bsl_modelset_reindex(bsl_modelset *s, size_t m)
{
    if (s->nslots == 0 || (s->nslots & (s->nslots - 1)) || s->n > s->nslots / 2 || s->n > s->cap ||
        !(isfinite(s->dropped_weight) && s->dropped_weight >= 0))
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        const bsl_subset *it = &s->items[i];
        if (it->k > s->arena_len || it->off > s->arena_len - it->k || !(isfinite(it->weight) && it->weight >= 0))
            return -1;
        const size_t *a = atoms_of(s, it);
        for (size_t j = 0; j < it->k; j++)
            if (a[j] >= m || (j > 0 && a[j] <= a[j - 1])) return -1;
    }
    memset(s->slots, 0, s->nslots * sizeof *s->slots);
    for (size_t i = 0; i < s->n; i++) {
        const bsl_subset *it = &s->items[i];
        size_t at = (size_t)(hash_atoms(atoms_of(s, it), it->k) & (s->nslots - 1));
        for (; s->slots[at]; at = (at + 1) & (s->nslots - 1)) {
            const bsl_subset *o = &s->items[s->slots[at] - 1];
            if (o->k == it->k && memcmp(atoms_of(s, o), atoms_of(s, it), it->k * sizeof(size_t)) == 0) return -1;
        }
        s->slots[at] = i + 1;
    }
    return 0;
}

static void sort_atoms(size_t *a, size_t k)
{
    if (k <= 32) /* insertion sort: samplers call this at every accepted move */
        for (size_t i = 1; i < k; i++) {
            const size_t v = a[i];
            size_t j = i;
            for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
            a[j] = v;
        }
    else
        qsort(a, k, sizeof *a, cmp_size);
}

void bsl_modelset_key(bsl_subset_key *key, const size_t *atoms, size_t k)
{
    if (key->atoms != atoms) memcpy(key->atoms, atoms, k * sizeof *atoms);
    sort_atoms(key->atoms, k);
    key->k = k;
    key->h = hash_atoms(key->atoms, k);
}

void bsl_modelset_prefetch(const bsl_modelset *s, const bsl_subset_key *key, int stage)
{
    const size_t at = (size_t)(key->h & (s->nslots - 1));
    if (stage == 0) {
        __builtin_prefetch(&s->slots[at]);
        return;
    }
    const size_t i = s->slots[at]; /* the first probe: usually the one */
    if (!i) return;
    if (stage == 1) __builtin_prefetch(&s->items[i - 1]);
    else if (s->items[i - 1].k == key->k) __builtin_prefetch(s->arena + s->items[i - 1].off);
}

int bsl_modelset_add(bsl_modelset *s, const size_t *atoms, size_t k, double weight,
                     double log_post)
{
    size_t buf[256];
    bsl_subset_key key = {k <= 256 ? buf : malloc(k * sizeof *atoms), k, 0};
    if (!key.atoms) return -1;
    bsl_modelset_key(&key, atoms, k);
    const int rc = bsl_modelset_add_key(s, &key, weight, log_post);
    if (key.atoms != buf) free(key.atoms);
    return rc;
}

int bsl_modelset_add_key(bsl_modelset *s, const bsl_subset_key *key, double weight,
                         double log_post)
{
    const size_t k = key->k, *sorted = key->atoms;
    size_t at = (size_t)(key->h & (s->nslots - 1));
    while (s->slots[at]) {
        bsl_subset *it = &s->items[s->slots[at] - 1];
        if (it->k == k && memcmp(atoms_of(s, it), sorted, k * sizeof *sorted) == 0) {
            it->weight += weight;
            if (log_post == log_post) it->log_post = log_post;
            return 0;
        }
        at = (at + 1) & (s->nslots - 1);
    }
    const int record = log_post > s->best_log_post; /* false for NaN */
    if (record) s->best_log_post = log_post;
    if (s->max_items && s->n >= s->max_items && !record) {
        s->dropped_weight += weight;
        return 0;
    }
    if (bsl_grow((void **)&s->items, &s->cap, s->n + 1, sizeof *s->items) ||
        bsl_grow((void **)&s->arena, &s->arena_cap, s->arena_len + k + 1, sizeof *s->arena))
        return -1;
    memcpy(s->arena + s->arena_len, sorted, k * sizeof *sorted);
    s->items[s->n] = (bsl_subset){k, s->arena_len, weight, log_post};
    s->arena_len += k;
    s->slots[at] = ++s->n;
    if (2 * s->n > s->nslots) return rehash(s);
    return 0;
}

int bsl_modelset_merge(bsl_modelset *a, const bsl_modelset *b)
{
    /* b's atoms are sorted already: its items are keys as they stand (no
     * copy, no sort), and a makes room for all of them at once */
    const size_t cap = a->max_items + 1, more = !a->max_items ? b->n : a->n < cap ? BSL_MIN(b->n, cap - a->n) : 0;
    if (reserve(a, a->n + more, a->arena_len + more * (b->n ? b->arena_len / b->n + 1 : 0), 1)) return -1;
    for (size_t i = 0; i < b->n; i++) {
        const bsl_subset *it = &b->items[i];
        const bsl_subset_key key = {(size_t *)atoms_of(b, it), it->k, hash_atoms(atoms_of(b, it), it->k)};
        if (bsl_modelset_add_key(a, &key, it->weight, it->log_post)) return -1;
    }
    a->dropped_weight += b->dropped_weight;
    return 0;
}

/* The first chain's set is most of the pooled one: merging it into the
 * empty pool copied some 3 MB at the default --max-models, every page a
 * first touch (page faults were a tenth of an rj fit on lin_p100). An empty
 * a takes every item of b, in b's order, when b holds no more than a's
 * bound (a set past its bound holds records, which a merge re-decides);
 * the merge would then leave best_log_post the largest log_post of the
 * items, as here. */
int bsl_modelset_absorb(bsl_modelset *a, bsl_modelset *b)
{
    const int empty = a->n == 0 && a->dropped_weight == 0 && a->best_log_post == -INFINITY;
    if (!empty || (a->max_items && b->n > a->max_items)) {
        const int rc = bsl_modelset_merge(a, b);
        const size_t max_items = b->max_items;
        bsl_modelset_free(b);
        b->max_items = max_items;
        return rc;
    }
    const size_t max_items = a->max_items;
    bsl_modelset_free(a);
    *a = *b;
    a->max_items = max_items;
    a->best_log_post = -INFINITY;
    for (size_t i = 0; i < a->n; i++)
        if (a->items[i].log_post > a->best_log_post) a->best_log_post = a->items[i].log_post;
    memset(b, 0, sizeof *b);
    b->max_items = max_items;
    b->best_log_post = -INFINITY;
    return 0;
}

static int by_weight(const void *x, const void *y)
{
    const bsl_subset *a = x, *b = y;
    if (a->weight != b->weight) return a->weight < b->weight ? 1 : -1;
    if (a->k != b->k) return a->k < b->k ? -1 : 1;
    return 0;
}

void bsl_modelset_sort(bsl_modelset *s)
{
    if (s->n == 0) return; /* nothing to sort (items may be NULL, which qsort must not see) */
    qsort(s->items, s->n, sizeof *s->items, by_weight);
    /* rebuild the table for the new order */
    memset(s->slots, 0, s->nslots * sizeof *s->slots);
    for (size_t i = 0; i < s->n; i++) {
        uint64_t h = hash_atoms(atoms_of(s, &s->items[i]), s->items[i].k);
        size_t at = (size_t)(h & (s->nslots - 1));
        while (s->slots[at]) at = (at + 1) & (s->nslots - 1);
        s->slots[at] = i + 1;
    }
}

double bsl_modelset_total(const bsl_modelset *s)
{
    double t = s->dropped_weight;
    for (size_t i = 0; i < s->n; i++) t += s->items[i].weight;
    return t;
}

const size_t *bsl_modelset_atoms(const bsl_modelset *s, size_t i)
{
    return atoms_of(s, &s->items[i]);
}
