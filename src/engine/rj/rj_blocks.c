/*
 * rj_blocks.c: the neighbour pairs of rj's Rao-Blackwell pass (rj_blocks.h).
 */
#include "rj_blocks.h"
#include "../../core/core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    size_t lo, hi;
    int own_lo, own_hi; /* the pair is lo's own block, hi's own block */
} entry;

static int by_pair(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    return (a->hi > b->hi) - (a->hi < b->hi);
}

void bsl_rj_blocks_free(bsl_rj_blocks *B)
{
    free(B->ab);
    free(B->wa);
    free(B->wb);
    memset(B, 0, sizeof *B);
}

int bsl_rj_blocks_make(const bsl_design *D, bsl_rj_blocks *B)
{
    memset(B, 0, sizeof *B);
    const size_t m = D->m, L = BSL_RJ_BLOCK_NEIGHBOURS;
    if (!D->G || m < 2) return BASEL_OK;
    const double *G = D->G;
    entry *e = bsl_malloc(m * L + 1, sizeof *e);
    size_t *count = bsl_calloc(m + 1, sizeof *count); /* an atom's own blocks */
    if (!e || !count) {
        free(e);
        free(count);
        return BASEL_ENOMEM;
    }
    size_t ne = 0;
    for (size_t i = 0; i < m; i++) {
        if (!D->usable[i] || !(G[i + i * m] > 0)) continue;
        size_t best[BSL_RJ_BLOCK_NEIGHBOURS];
        double rb[BSL_RJ_BLOCK_NEIGHBOURS];
        size_t nb = 0;
        for (size_t j = 0; j < m; j++) {
            if (j == i || !D->usable[j] || !(G[j + j * m] > 0)) continue;
            const double r = fabs(G[i + j * m]) / sqrt(G[i + i * m] * G[j + j * m]);
            if (nb == L && !(r > rb[L - 1])) continue; /* ties keep the lower index */
            size_t a = nb < L ? nb++ : L - 1;
            for (; a > 0 && r > rb[a - 1]; a--) {
                rb[a] = rb[a - 1];
                best[a] = best[a - 1];
            }
            rb[a] = r;
            best[a] = j;
        }
        for (size_t a = 0; a < nb; a++) {
            const size_t j = best[a];
            e[ne++] = (entry){i < j ? i : j, i < j ? j : i, i < j, i > j};
        }
        count[i] = nb;
    }
    qsort(e, ne, sizeof *e, by_pair);
    size_t n = 0;
    for (size_t a = 0; a < ne; a++) { /* each pair once, owned by either side or both */
        if (n && e[n - 1].lo == e[a].lo && e[n - 1].hi == e[a].hi) {
            e[n - 1].own_lo |= e[a].own_lo;
            e[n - 1].own_hi |= e[a].own_hi;
        } else {
            e[n++] = e[a];
        }
    }
    B->ab = bsl_malloc(2 * n + 1, sizeof *B->ab);
    B->wa = bsl_malloc(n + 1, sizeof *B->wa);
    B->wb = bsl_malloc(n + 1, sizeof *B->wb);
    if (!B->ab || !B->wa || !B->wb) {
        free(e);
        free(count);
        bsl_rj_blocks_free(B);
        return BASEL_ENOMEM;
    }
    for (size_t a = 0; a < n; a++) {
        B->ab[2 * a] = e[a].lo;
        B->ab[2 * a + 1] = e[a].hi;
        B->wa[a] = e[a].own_lo ? 1.0 / (double)count[e[a].lo] : 0.0;
        B->wb[a] = e[a].own_hi ? 1.0 / (double)count[e[a].hi] : 0.0;
    }
    B->n = n;
    free(e);
    free(count);
    return BASEL_OK;
}

void bsl_rj_block_conditionals(const double l[2][2], double *pa, double *pb)
{
    double top = -INFINITY;
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) top = l[x][y] > top ? l[x][y] : top;
    double e[2][2], sum = 0;
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) sum += e[x][y] = exp(l[x][y] - top); /* exp(-inf) = 0 */
    *pa = (e[1][0] + e[1][1]) / sum;
    *pb = (e[0][1] + e[1][1]) / sum;
}
