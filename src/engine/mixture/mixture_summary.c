/*
 * mixture_summary.c: what a chain records after burn-in (inclusion counts,
 * size counts, visited subsets, thinned draws) and the merge of the chains
 * into a bsl_mix_result.
 *
 * Determinism: chains are merged in chain order and subsets are sorted by
 * (count descending, bit pattern ascending), so the result does not depend
 * on which thread ran which chain or on hash-table layout.
 */
#include "mixture_summary.h"
#include "../../summary/summary.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ subset counter */

static uint64_t hash_key(const uint64_t *key, size_t W)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t t = 0; t < W; t++) {
        h ^= key[t] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ULL;
    }
    return h ^ (h >> 31);
}

static int table_resize(bsl_mix_subsets *t, size_t cap)
{
    uint64_t *keys = bsl_calloc(cap * t->W, sizeof *keys);
    unsigned long *cnt = bsl_calloc(cap, sizeof *cnt);
    if (!keys || !cnt) {
        free(keys);
        free(cnt);
        return BASEL_ENOMEM;
    }
    for (size_t s = 0; s < t->cap; s++) {
        if (!t->count[s]) continue;
        size_t p = (size_t)hash_key(t->keys + s * t->W, t->W) & (cap - 1);
        while (cnt[p]) p = (p + 1) & (cap - 1);
        memcpy(keys + p * t->W, t->keys + s * t->W, t->W * sizeof *keys);
        cnt[p] = t->count[s];
    }
    free(t->keys);
    free(t->count);
    t->keys = keys, t->count = cnt, t->cap = cap;
    return BASEL_OK;
}

int bsl_mix_subsets_init(bsl_mix_subsets *t, size_t d)
{
    memset(t, 0, sizeof *t);
    t->W = (d + 63) / 64;
    return table_resize(t, 64);
}

void bsl_mix_subsets_free(bsl_mix_subsets *t)
{
    free(t->keys);
    free(t->count);
    memset(t, 0, sizeof *t);
}

int bsl_mix_subsets_add(bsl_mix_subsets *t, const uint64_t *key, unsigned long times)
{
    if (2 * (t->used + 1) > t->cap && table_resize(t, 2 * t->cap)) return BASEL_ENOMEM;
    size_t p = (size_t)hash_key(key, t->W) & (t->cap - 1);
    while (t->count[p] && memcmp(t->keys + p * t->W, key, t->W * sizeof *key))
        p = (p + 1) & (t->cap - 1);
    if (!t->count[p]) {
        memcpy(t->keys + p * t->W, key, t->W * sizeof *key);
        t->used++;
    }
    t->count[p] += times;
    return BASEL_OK;
}

/* ------------------------------------------------------ chain records */

void bsl_mix_record_free(bsl_mix_record *rec)
{
    if (!rec) return;
    free(rec->in_count);
    free(rec->size_count);
    free(rec->key);
    bsl_mix_subsets_free(&rec->subsets);
    free(rec->draw_I);
    free(rec->draw_idx);
    free(rec->draw_mu);
    free(rec->draw_prec);
    free(rec->draw_w);
    free(rec->draw_P);
    memset(rec, 0, sizeof *rec);
}

int bsl_mix_record_init(bsl_mix_record *rec, const bsl_mix_model *m, size_t ndraw_max)
{
    memset(rec, 0, sizeof *rec);
    const size_t d = m->d, K = m->K, D = m->D, slots = ndraw_max * m->imax;
    rec->in_count = bsl_calloc(d, sizeof *rec->in_count);
    rec->size_count = bsl_calloc(d + 1, sizeof *rec->size_count);
    rec->key = bsl_calloc((d + 63) / 64, sizeof *rec->key);
    rec->draw_I = bsl_calloc(ndraw_max, sizeof *rec->draw_I);
    rec->draw_idx = bsl_calloc(slots, sizeof *rec->draw_idx);
    rec->draw_mu = bsl_calloc(slots * D, sizeof *rec->draw_mu);
    rec->draw_prec = bsl_calloc(slots * D, sizeof *rec->draw_prec);
    rec->draw_w = bsl_calloc(ndraw_max * K * D, sizeof *rec->draw_w);
    rec->draw_P = bsl_calloc(ndraw_max * K, sizeof *rec->draw_P);
    if (!rec->in_count || !rec->size_count || !rec->key || !rec->draw_I || !rec->draw_idx ||
        !rec->draw_mu || !rec->draw_prec || !rec->draw_w || !rec->draw_P ||
        bsl_mix_subsets_init(&rec->subsets, d)) {
        bsl_mix_record_free(rec);
        return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

int bsl_mix_record_sweep(bsl_mix_record *rec, const bsl_mix_chain *ch)
{
    const size_t d = ch->m->d;
    memset(rec->key, 0, ((d + 63) / 64) * sizeof *rec->key);
    for (size_t j = 0; j < d; j++) {
        if (!ch->active[j]) continue;
        rec->in_count[j]++;
        rec->key[j / 64] |= (uint64_t)1 << (j % 64);
    }
    rec->size_count[ch->I]++;
    rec->sweeps++;
    return bsl_mix_subsets_add(&rec->subsets, rec->key, 1);
}

void bsl_mix_record_draw(bsl_mix_record *rec, const bsl_mix_chain *ch)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, K = m->K, t = rec->ndraw, base = t * m->imax;
    size_t u = 0;
    for (size_t j = 0; j < m->d; j++) {
        if (!ch->active[j]) continue;
        rec->draw_idx[base + u] = j;
        memcpy(rec->draw_mu + (base + u) * D, ch->mu + j * D, D * sizeof(double));
        memcpy(rec->draw_prec + (base + u) * D, ch->prec + j * D, D * sizeof(double));
        u++;
    }
    rec->draw_I[t] = u;
    memcpy(rec->draw_w + t * K * D, ch->w, K * D * sizeof(double));
    memcpy(rec->draw_P + t * K, ch->P, K * sizeof(double));
    rec->ndraw++;
}

/* --------------------------------------------------------------- merge */

typedef struct entry {
    const uint64_t *key;
    unsigned long count;
    size_t W;
} entry;

static int cmp_entry(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    for (size_t t = a->W; t-- > 0;)
        if (a->key[t] != b->key[t]) return a->key[t] < b->key[t] ? -1 : 1;
    return 0;
}

static size_t popcount_key(const uint64_t *key, size_t d)
{
    size_t c = 0;
    for (size_t j = 0; j < d; j++) c += (key[j / 64] >> (j % 64)) & 1;
    return c;
}

/* Sorted table entries; NULL on ENOMEM. */
static entry *sorted_entries(const bsl_mix_subsets *all)
{
    entry *e = bsl_calloc(all->used, sizeof *e);
    if (!e) return NULL;
    size_t u = 0;
    for (size_t s = 0; s < all->cap; s++)
        if (all->count[s]) e[u++] = (entry){all->keys + s * all->W, all->count[s], all->W};
    qsort(e, u, sizeof *e, cmp_entry);
    return e;
}

static void fill_summaries(bsl_mix_result *res, const bsl_mix_record *rec, size_t nchain,
                           const entry *e, double total)
{
    const size_t d = res->d;
    size_t off = 0;
    for (size_t s = 0; s < res->nsub; s++) {
        res->sub_off[s] = off;
        for (size_t j = 0; j < d; j++)
            if ((e[s].key[j / 64] >> (j % 64)) & 1) res->sub_idx[off++] = j;
        res->sub_prob[s] = (double)e[s].count / total;
    }
    res->sub_off[res->nsub] = off;
    double sum_I = 0;
    for (size_t c = 0; c < nchain; c++) {
        for (size_t j = 0; j < d; j++) res->pip[j] += (double)rec[c].in_count[j] / total;
        for (size_t I = 0; I <= d; I++) {
            res->size_post[I] += (double)rec[c].size_count[I] / total;
            sum_I += (double)I * (double)rec[c].size_count[I];
            if (rec[c].size_count[I] && I > res->max_inputs) res->max_inputs = I;
        }
        for (int v = 0; v < BSL_MIX_MOVES; v++) res->prop[v] += rec[c].prop[v], res->acc[v] += rec[c].acc[v];
        res->swap_prop += rec[c].swap_prop, res->swap_acc += rec[c].swap_acc;
        for (size_t t = 0; t < BSL_MIX_MAX_TEMPERATURES; t++) res->pair_prop[t] += rec[c].pair_prop[t], res->pair_acc[t] += rec[c].pair_acc[t];
    }
    res->mean_inputs = sum_I / total;
}

static void fill_draws(bsl_mix_result *res, const bsl_mix_record *rec, size_t nchain,
                       size_t imax)
{
    const size_t D = res->D, K = res->K;
    size_t t = 0, off = 0;
    for (size_t c = 0; c < nchain; c++) {
        for (size_t s = 0; s < rec[c].ndraw; s++, t++) {
            const size_t I = rec[c].draw_I[s], base = s * imax;
            res->draw_off[t] = off;
            memcpy(res->draw_idx + off, rec[c].draw_idx + base, I * sizeof(size_t));
            memcpy(res->draw_mu + off * D, rec[c].draw_mu + base * D, I * D * sizeof(double));
            memcpy(res->draw_prec + off * D, rec[c].draw_prec + base * D, I * D * sizeof(double));
            memcpy(res->draw_w + t * K * D, rec[c].draw_w + s * K * D, K * D * sizeof(double));
            memcpy(res->draw_P + t * K, rec[c].draw_P + s * K, K * sizeof(double));
            off += I;
        }
    }
    res->draw_off[t] = off;
}

int bsl_mix_merge(bsl_mix_result **out, const bsl_mix_model *m, const bsl_mix_record *rec,
                  size_t nchain, size_t top)
{
    bsl_mix_subsets all;
    int rc = bsl_mix_subsets_init(&all, m->d);
    size_t ndraw = 0, draw_total = 0, sweeps = 0;
    for (size_t c = 0; c < nchain && rc == BASEL_OK; c++) {
        for (size_t s = 0; s < rec[c].subsets.cap && rc == BASEL_OK; s++)
            if (rec[c].subsets.count[s])
                rc = bsl_mix_subsets_add(&all, rec[c].subsets.keys + s * all.W, rec[c].subsets.count[s]);
        ndraw += rec[c].ndraw;
        sweeps += rec[c].sweeps;
        for (size_t s = 0; s < rec[c].ndraw; s++) draw_total += rec[c].draw_I[s];
    }
    entry *e = rc == BASEL_OK ? sorted_entries(&all) : NULL;
    if (!e) {
        bsl_mix_subsets_free(&all);
        return BASEL_ENOMEM;
    }
    const size_t nsub = BSL_MIN(top, all.used);
    size_t sub_total = 0;
    for (size_t s = 0; s < nsub; s++) sub_total += popcount_key(e[s].key, m->d);
    bsl_mix_result *res = bsl_mix_result_alloc(m->d, m->K, m->D, nsub, sub_total, ndraw, draw_total);
    if (!res) {
        free(e);
        bsl_mix_subsets_free(&all);
        return BASEL_ENOMEM;
    }
    res->nvisited = all.used;
    fill_summaries(res, rec, nchain, e, (double)sweeps);
    fill_draws(res, rec, nchain, m->imax);
    free(e);
    bsl_mix_subsets_free(&all);
    *out = res;
    return BASEL_OK;
}
