/*
 * subset_rb.c: the Rao-Blackwell pass of the subset samplers and its
 * neighbour pairs (subset_rb.h).
 */
#include "subset_rb.h"
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

void bsl_rb_blocks_free(bsl_rb_blocks *B)
{
    free(B->ab);
    free(B->wa);
    free(B->wb);
    memset(B, 0, sizeof *B);
}

int bsl_rb_blocks_make(const bsl_design *D, bsl_rb_blocks *B)
{
    memset(B, 0, sizeof *B);
    const size_t m = D->m, L = BSL_RB_NEIGHBOURS;
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
        size_t best[BSL_RB_NEIGHBOURS];
        double rb[BSL_RB_NEIGHBOURS];
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
        bsl_rb_blocks_free(B);
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

void bsl_rb_block_conditionals(const double l[2][2], double *pa, double *pb)
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

int bsl_rb_work_init(bsl_rb_work *w, size_t m, size_t kmax, size_t nblocks)
{
    w->flip = bsl_calloc(m + 1, sizeof *w->flip);
    w->drop = bsl_calloc(kmax + 2, sizeof *w->drop);
    w->joint = bsl_calloc(nblocks + 1, sizeof *w->joint);
    return w->flip && w->drop && w->joint ? BASEL_OK : BASEL_ENOMEM;
}

void bsl_rb_work_free(bsl_rb_work *w)
{
    free(w->flip);
    free(w->drop);
    free(w->joint);
    memset(w, 0, sizeof *w);
}

static double score(const double *log_prior, double log_ml, size_t k)
{
    return log_ml == -INFINITY ? -INFINITY : log_ml + log_prior[k];
}

/* The joint flip of block (a, b) one atom at a time, where the closed
 * forms of bsl_cmodel_pair_scores could not vouch for it: the log_ml of
 * the set with both indicators flipped. The model gets its set back (its
 * order may change); *rc BASEL_ENUMERIC when it could not. */
static double joint_flip(bsl_cmodel *M, size_t a, size_t b, int *rc)
{
    const int ia = bsl_cmodel_is_active(M, a), ib = bsl_cmodel_is_active(M, b);
    if (ia != ib) return ia ? bsl_cmodel_try_swap(M, a, b) : bsl_cmodel_try_swap(M, b, a);
    double lm = -INFINITY;
    if (ia) {
        bsl_cmodel_remove(M, a);
        lm = bsl_cmodel_try_remove(M, b);
        if (bsl_cmodel_add(M, a) != BASEL_OK) *rc = BASEL_ENUMERIC;
    } else if (bsl_cmodel_add(M, a) == BASEL_OK) {
        lm = bsl_cmodel_try_add(M, b);
        bsl_cmodel_remove(M, a);
    }
    return lm;
}

/* The pass over the blocks: each block's four states are the state, the
 * two single flips (w->flip) and the joint flip. BASEL_EINVAL when the
 * model scores no pairs. */
static int pair_pass(bsl_cmodel *M, const bsl_vs_problem *pb, const bsl_rb_blocks *B, const double *log_prior,
                     bsl_rb_work *w, double s_cur, double *rb, double *evals)
{
    const size_t k = bsl_cmodel_k(M), kmax = pb->kmax;
    int rc = bsl_cmodel_pair_scores(M, B->ab, B->n, w->joint);
    if (rc) return rc;
    for (size_t i = 0; i < B->n; i++) {
        const size_t a = B->ab[2 * i], b = B->ab[2 * i + 1];
        const int xa = bsl_cmodel_is_active(M, a), xb = bsl_cmodel_is_active(M, b);
        const size_t ka = xa ? k - 1 : k + 1, kb = xb ? k - 1 : k + 1, kj = ka + kb - k;
        double joint = w->joint[i];
        if (isnan(joint)) joint = kj <= kmax ? joint_flip(M, a, b, &rc) : -INFINITY;
        double l[2][2];
        l[xa][xb] = s_cur;
        l[!xa][xb] = score(log_prior, w->flip[a], ka);
        l[xa][!xb] = score(log_prior, w->flip[b], kb);
        l[!xa][!xb] = kj > kmax ? -INFINITY : score(log_prior, joint, kj);
        double pa, pbb;
        bsl_rb_block_conditionals((const double(*)[2])l, &pa, &pbb);
        rb[a] += B->wa[i] * pa;
        rb[b] += B->wb[i] * pbb;
    }
    *evals += (double)B->n;
    return rc;
}

int bsl_rb_pass(bsl_cmodel *M, const bsl_vs_problem *pb, const bsl_rb_blocks *B, const double *log_prior,
                bsl_rb_work *w, double *rb, double *evals)
{
    const size_t k = bsl_cmodel_k(M), m = pb->D->m;
    const size_t *active = bsl_cmodel_active(M);
    const double s_cur = score(log_prior, bsl_cmodel_log_ml(M), k);
    if (k > 0) bsl_cmodel_drop_scores(M, w->drop);
    bsl_cmodel_add_scores(M, m, w->flip); /* every dormant atom's try_add, batched */
    for (size_t p = 0; p < k; p++) w->flip[active[p]] = w->drop[p]; /* each atom's flip, by atom */
    *evals += (double)m;
    if (B && B->n) {
        const int rc = pair_pass(M, pb, B, log_prior, w, s_cur, rb, evals);
        if (rc != BASEL_EINVAL) return rc;
    }
    for (size_t j = 0; j < m; j++) {
        if (bsl_cmodel_is_active(M, j)) {
            const double s_out = score(log_prior, w->flip[j], k - 1);
            rb[j] += s_out == -INFINITY ? 1.0 : 1.0 / (1.0 + exp(s_out - s_cur));
        } else {
            const double s_in = score(log_prior, w->flip[j], k + 1);
            rb[j] += s_in == -INFINITY ? 0.0 : 1.0 / (1.0 + exp(s_cur - s_in));
        }
    }
    return BASEL_OK;
}
