/*
 * rj_pairs.c: pair moves for rj's informed chains (issue 32: the masking
 * pair), exact Metropolis-Hastings on rj's target
 *     pi(gamma) ∝ exp(S(gamma)),  S = log_ml + bsl_mprior_log(k)   (rj.c).
 *
 * Why. Two correlated atoms whose effects have opposite signs cancel in
 * each one's marginal signal: at p = 10^6 (bench/scale/README) the pair
 * x579879 / x579884 of the AR(1) genotypes, five apart, is in the
 * posterior together, but adding either alone costs about log m of prior
 * odds for almost no likelihood, so no single-atom move ever takes the
 * chain there, and the candidate set chosen after burn-in leaves both out.
 * A move that adds the two at once crosses that valley in one step.
 *
 * The pairs. Before sampling, bsl_rj_pairs_screen scores every pair of
 * atoms at most `window` apart in column order by the likelihood-ratio
 * statistic of the second atom given the better first one, from the
 * marginal cross products (the 2 x 2 least-squares fit of the projected
 * target):
 *     stat = (n - q) log((1 - max(R2_a, R2_b)) / (1 - R2_ab)),
 * and keeps those above 2 log m (one atom's prior cost under odds of
 * about 1/m), at most BSL_RJ_PAIRS_MAX, the largest first. The list P is
 * fixed for the whole run and the same for every chain; it depends on the
 * data alone, so the moves below stay exact whatever it holds.
 *
 * The moves. A chain with pairs (burn-in included) makes a pair move with
 * probability BSL_RJ_PAIR_RATE instead of its add / delete / swap; add and
 * delete then have probability 1/2 each, whatever the state. With F(B)
 * the pairs of P with both atoms in B, and for a set A
 *     v_i(A) = pi(A + a_i + b_i) / pi(A)  (0 if a_i or b_i is in A, or the
 *              pair cannot enter),        V(A) = sum_i v_i(A):
 *   add     from A (|A| + 2 <= kmax): pair i with probability v_i(A) /
 *           V(A), B = A + a_i + b_i. The reverse is the delete below,
 *           which picks i uniformly among F(B), so
 *             alpha = pi(B) (1 / |F(B)|) / (pi(A) v_i(A) / V(A))
 *                   = V(A) / |F(B)|.
 *   delete  from B (|B| - 2 >= kmin): pair i uniformly among F(B) (the
 *           chain stays when F(B) is empty), A = B - a_i - b_i; the
 *           reverse is the add above from A, so
 *             alpha = |F(B)| / V(A),
 *           and the chain stays if v_i(A) = 0 (the add could not propose
 *           it). V(A) needs every pair's score at A: the atoms leave, the
 *           pairs are scored, and they come back if the move is rejected.
 * Each pair of move types is reversible with respect to pi, and the
 * choice of a pair move has a probability that does not depend on the
 * state, so the mixture with rj's other moves is too (tests/stat/
 * test_rj_informed.c checks PIPs, P(k) and model frequencies against
 * enumeration with every pair of a window kept).
 *
 * Cost. A pair's score is one add, one try_add and one remove, O(k^2)
 * with the active rows at hand, so a pair move costs O(|P| k^2): about a
 * tenth of a candidate-set move at |P| = 32. The screen costs O(n m
 * window) once: at p = 10^6, n = 1000 and window 10 a few CPU-seconds.
 */
#include "rj_pairs.h"
#include "../../model/design.h"
#include "../../model/gram_rows.h"
#include "../../linalg/linalg.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

typedef bsl_atom_pair pair_score;

/* 1 when x ranks before y: the larger statistic, then the lower ids (a
 * total order, so the kept pairs do not depend on the thread count) */
static int before(const pair_score *x, const pair_score *y)
{
    if (x->stat != y->stat) return x->stat > y->stat;
    if (x->a != y->a) return x->a < y->a;
    return x->b < y->b;
}

static int by_rank(const void *x, const void *y)
{
    const pair_score *p = x, *q = y;
    return before(p, q) ? -1 : before(q, p) ? 1 : 0;
}

/* A list of the best `cap` scores seen: the worst is replaced. */
typedef struct best_list {
    pair_score *s;
    size_t n, cap, worst;
} best_list;

static void offer(best_list *L, pair_score p)
{
    if (L->n < L->cap) {
        L->s[L->n++] = p;
        if (L->n == L->cap)
            for (size_t i = 0; i < L->n; i++)
                if (before(&L->s[L->worst], &L->s[i])) L->worst = i;
        return;
    }
    if (!before(&p, &L->s[L->worst])) return;
    L->s[L->worst] = p;
    for (size_t i = 0; i < L->n; i++)
        if (before(&L->s[L->worst], &L->s[i])) L->worst = i;
}

/* The statistic of the pair (a, b) with cross product g_ab (the rest
 * from the design); -inf when either atom is unusable or the two are
 * (numerically) collinear. */
static double pair_stat(const bsl_design *D, size_t a, size_t b, double gab)
{
    if (!D->usable[a] || !D->usable[b]) return -INFINITY;
    const double ga = D->diag[a], gb = D->diag[b], ya = D->Bty[a], yb = D->Bty[b], yy = D->yy[0];
    const double det = ga * gb - gab * gab;
    if (!(ga > 0 && gb > 0 && yy > 0) || !(det > 1e-8 * ga * gb)) return -INFINITY;
    const double r1 = fmax(ya * ya / ga, yb * yb / gb) / yy;
    const double r2 = (gb * ya * ya - 2 * gab * ya * yb + ga * yb * yb) / det / yy;
    if (!(r2 < 1)) return -INFINITY;
    return (double)(D->n - D->q) * log((1 - r1) / (1 - r2));
}

/* Blocks of atoms scored by one thread: its pairs (a, b) have b in the
 * block; the window's columns before it are built again (window / BLOCK
 * of the work). */
#define BLOCK 4096

int bsl_rj_pairs_scan(const bsl_design *D, size_t window, double floor, size_t cap, const bsl_progress *pr,
                      bsl_atom_pair *best, size_t *nbest, basel_error *err)
{
    *nbest = 0;
    const size_t m = D->m, n = D->n;
    if (cap == 0 || m < 2) return BASEL_OK;
    const int from_gram = D->G != NULL;
    const size_t w = window < m - 1 ? window : m - 1;
    const size_t nblocks = (m + BLOCK - 1) / BLOCK;
    const int threads = omp_get_max_threads();
    pair_score *found = bsl_malloc((size_t)threads * cap, sizeof *found);
    size_t *nfound = bsl_calloc((size_t)threads, sizeof *nfound);
    int oom = !found || !nfound, cancelled = bsl_progress_report(pr, "pairs", "atoms", 0, (double)m) != 0;
    size_t blocks_done = 0;
#pragma omp parallel if (nblocks > 1 && !oom && !cancelled)
    {
        const int t = omp_get_thread_num();
        double *ring = oom ? NULL : bsl_malloc(from_gram ? 1 : (w + 1) * n, sizeof *ring);
        best_list L = {found + (size_t)t * cap, 0, cap, 0};
        if (!oom && !ring) {
#pragma omp atomic write
            oom = 1;
        }
#pragma omp for schedule(static)
        for (size_t blk = 0; blk < nblocks; blk++) {
            int stop;
#pragma omp atomic read
            stop = cancelled;
            if (!ring || stop) continue;
            const size_t j0 = blk * BLOCK, j1 = j0 + BLOCK < m ? j0 + BLOCK : m;
            const size_t from = from_gram ? j0 : j0 > w ? j0 - w : 0;
            for (size_t j = from; j < j1; j++) {
                double *cj = ring + (j % (w + 1)) * n;
                if (!from_gram) bsl_design_column(D, j, cj);
                if (j < j0) continue;
                for (size_t a = j > w ? j - w : 0; a < j; a++) {
                    const double gab = from_gram ? D->G[a + j * m] : bsl_dot(ring + (a % (w + 1)) * n, cj, n);
                    const double s = pair_stat(D, a, j, gab);
                    if (s > floor) offer(&L, (pair_score){s, a, j});
                }
            }
            size_t done;
#pragma omp atomic capture
            done = ++blocks_done;
            /* the calling thread reports (basel.h: between blocks of work),
             * the blocks done by every thread */
            if (t == 0 && bsl_progress_report(pr, "pairs", "atoms", (double)BSL_MIN(done * BLOCK, m), (double)m)) {
#pragma omp atomic write
                cancelled = 1;
            }
        }
        if (ring) nfound[t] = L.n;
        free(ring);
    }
    if (!oom && !cancelled && bsl_progress_report(pr, "pairs", "atoms", (double)m, (double)m)) cancelled = 1;
    if (oom || cancelled) {
        free(found);
        free(nfound);
        return oom ? bsl_fail(err, BASEL_ENOMEM, "out of memory") : bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    }
    /* the threads' lists, pooled and ranked: the first cap are the best */
    size_t total = 0;
    for (int t = 0; t < threads; t++) {
        memmove(found + total, found + (size_t)t * cap, nfound[t] * sizeof *found);
        total += nfound[t];
    }
    free(nfound);
    qsort(found, total, sizeof *found, by_rank);
    *nbest = total < cap ? total : cap;
    memcpy(best, found, *nbest * sizeof *best);
    free(found);
    return BASEL_OK;
}

/* D's atoms in blocks held elsewhere (design.h bsl_column_blocks): each
 * block's best pairs from its own process, and the pairs that straddle
 * two blocks here, from the columns near each border (2 window columns
 * a border). All of them hold the best cap of the whole. */
static int scan_blocks(const bsl_design *D, size_t window, double floor, size_t cap, const bsl_progress *pr,
                       pair_score **found, size_t *nfound, basel_error *err)
{
    const bsl_column_blocks *K = D->blocks;
    const size_t n = D->n, w = window, nb = K->nblocks;
    *found = NULL;
    *nfound = 0;
    if (bsl_progress_report(pr, "pairs", "atoms", 0, (double)D->m))
        return bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    pair_score *all = bsl_malloc(nb * cap + cap + 1, sizeof *all);
    double *cols = bsl_malloc(2 * w * n + 1, sizeof *cols);
    best_list L = {all ? all + nb * cap : NULL, 0, cap, 0};
    size_t got = 0;
    int rc = all && cols ? K->pairs(K->ctx, window, floor, cap, all, &got) : BASEL_ENOMEM;
    for (size_t r = 1; r < nb && !rc; r++) { /* border s: pairs a < s <= b, b in s's block */
        const size_t s = K->start[r], lo = s > w ? s - w : 0, hi = BSL_MIN(s + w, K->start[r + 1]);
        for (size_t j = lo; j < hi; j++) bsl_design_column(D, j, cols + (j - lo) * n);
        for (size_t b = s; b < hi; b++)
            for (size_t a = b > w ? b - w : 0; a < s; a++) {
                const double st = pair_stat(D, a, b, bsl_dot(cols + (a - lo) * n, cols + (b - lo) * n, n));
                if (st > floor) offer(&L, (pair_score){st, a, b});
            }
    }
    free(cols);
    if (rc) {
        free(all);
        return rc == BASEL_ENOMEM ? bsl_fail(err, rc, "out of memory")
                                  : bsl_fail(err, BASEL_EIO, "the processes holding the input blocks did not answer");
    }
    memmove(all + got, L.s, L.n * sizeof *all);
    *found = all;
    *nfound = got + L.n;
    qsort(all, *nfound, sizeof *all, by_rank); /* the blocks' lists and the borders' into one order */
    if (bsl_progress_report(pr, "pairs", "atoms", (double)D->m, (double)D->m))
        return bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    return BASEL_OK;
}

int bsl_rj_pairs_screen(const bsl_design *D, size_t window, size_t keep, const bsl_progress *pr, bsl_rj_pairs *P,
                        basel_error *err)
{
    memset(P, 0, sizeof *P);
    const size_t m = D->m;
    if (window == 0 || D->c != 1 || D->base || m < 2 || !D->usable || !D->Bty) return BASEL_OK;
    /* the cross products from the Gram matrix, else from the columns; a
     * design with neither (summary statistics streamed) has no pairs */
    if (!D->G && !D->B && !bsl_design_compact(D) && !(D->X && D->dict)) return BASEL_OK;
    /* on a streamed design a pair's weight caches its first atom's Gram
     * row while there is no candidate set (burn-in): the pairs may take a
     * quarter of the cache's rows (8 at p = 10^6 in the default 256 MB),
     * so that the active atoms' rows are not evicted in turn */
    size_t cap = keep ? keep : BSL_RJ_PAIRS_MAX;
    if (!keep && D->rows && cap > bsl_gram_rows_slots(D->rows) / 4) cap = bsl_gram_rows_slots(D->rows) / 4;
    if (cap == 0) return BASEL_OK;
    const size_t w = window < m - 1 ? window : m - 1;
    const double floor = keep ? -INFINITY : 2 * log((double)m);
    pair_score *found = NULL;
    size_t total = 0;
    int rc;
    if (D->blocks) {
        rc = scan_blocks(D, w, floor, cap, pr, &found, &total, err);
    } else {
        found = bsl_malloc(cap + 1, sizeof *found);
        rc = found ? bsl_rj_pairs_scan(D, w, floor, cap, pr, found, &total, err)
                   : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (rc) {
        free(found);
        return rc;
    }
    const size_t np = total < cap ? total : cap;
    if (np > 0) {
        P->a = bsl_malloc(np, sizeof *P->a);
        P->b = bsl_malloc(np, sizeof *P->b);
        P->stat = bsl_malloc(np, sizeof *P->stat);
        if (!P->a || !P->b || !P->stat) {
            free(found);
            bsl_rj_pairs_free(P);
            return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < np; i++) {
            P->a[i] = found[i].a;
            P->b[i] = found[i].b;
            P->stat[i] = found[i].stat;
        }
        P->n = np;
    }
    free(found);
    return BASEL_OK;
}

void bsl_rj_pairs_free(bsl_rj_pairs *P)
{
    free(P->a);
    free(P->b);
    free(P->stat);
    memset(P, 0, sizeof *P);
}

/* sc[i] <- v_i(A) exp(-top) for every pair (0 for those that cannot
 * enter A); returns log V(A) (-inf: none can). The model adds a_i, scores
 * b_i, and removes a_i again: its set is A afterwards. */
static double pair_weights(bsl_cmodel *M, const bsl_vs_problem *pb, const bsl_rj_pairs *P, double *sc)
{
    const size_t k = bsl_cmodel_k(M);
    const double s0 = bsl_rj_score(pb, bsl_cmodel_log_ml(M), k), pk = bsl_mprior_log(&pb->mprior, k + 2);
    double top = -INFINITY;
    for (size_t i = 0; i < P->n; i++) {
        sc[i] = -INFINITY;
        if (bsl_cmodel_is_active(M, P->a[i]) || bsl_cmodel_is_active(M, P->b[i])) continue;
        if (bsl_cmodel_add(M, P->a[i]) != BASEL_OK) continue;
        const double s = bsl_cmodel_try_add(M, P->b[i]);
        bsl_cmodel_remove(M, P->a[i]);
        if (s == -INFINITY || isnan(s)) continue;
        sc[i] = s + pk - s0;
        top = sc[i] > top ? sc[i] : top;
    }
    if (top == -INFINITY) return -INFINITY;
    double sum = 0;
    for (size_t i = 0; i < P->n; i++) sum += sc[i] = exp(sc[i] - top); /* exp(-inf) = 0 */
    return top + log(sum);
}

/* |F(B)|: the pairs with both atoms in M's set */
static size_t inside(const bsl_cmodel *M, const bsl_rj_pairs *P)
{
    size_t n = 0;
    for (size_t i = 0; i < P->n; i++) n += bsl_cmodel_is_active(M, P->a[i]) && bsl_cmodel_is_active(M, P->b[i]);
    return n;
}

int bsl_rj_pair_move(bsl_cmodel *M, gsl_rng *r, const bsl_vs_problem *pb, const bsl_rj_pairs *P, double *sc,
                     const bsl_rj_hooks *h, int *accepted, int *deleting)
{
    const size_t k = bsl_cmodel_k(M), kmax = pb->kmax < pb->mprior.kmax ? pb->kmax : pb->mprior.kmax;
    *accepted = 0;
    *deleting = gsl_rng_uniform(r) >= 0.5;
    if (!*deleting) {
        if (k + 2 > kmax) return BASEL_OK;
        const double logw = pair_weights(M, pb, P, sc);
        if (logw == -INFINITY) return BASEL_OK;
        double sum = 0;
        for (size_t i = 0; i < P->n; i++) sum += sc[i];
        const size_t i = bsl_rj_draw(r, sc, P->n, sum);
        /* |F(B)|: the pairs already inside A (none of them use a_i or b_i,
         * which are dormant), those completed by a_i and b_i, and i */
        size_t fb = 0;
        for (size_t l = 0; l < P->n; l++) {
            const int ina = bsl_cmodel_is_active(M, P->a[l]) || P->a[l] == P->a[i] || P->a[l] == P->b[i];
            const int inb = bsl_cmodel_is_active(M, P->b[l]) || P->b[l] == P->a[i] || P->b[l] == P->b[i];
            fb += ina && inb;
        }
        if (!bsl_rj_accept(r, logw - log((double)fb))) return BASEL_OK;
        h->commit(h->ctx);
        if (h->add(h->ctx, P->a[i]) != BASEL_OK) return BASEL_OK;
        if (h->add(h->ctx, P->b[i]) != BASEL_OK) { /* b entered by the score, not by the factor: stay */
            h->remove(h->ctx, P->a[i]);
            return BASEL_OK;
        }
        *accepted = 1;
        return BASEL_OK;
    }
    /* delete */
    const size_t fb = inside(M, P);
    if (fb == 0 || k < pb->mprior.kmin + 2) return BASEL_OK;
    size_t nth = gsl_rng_uniform_int(r, fb), i = 0;
    for (;; i++)
        if (bsl_cmodel_is_active(M, P->a[i]) && bsl_cmodel_is_active(M, P->b[i]) && nth-- == 0) break;
    h->commit(h->ctx);
    h->remove(h->ctx, P->a[i]);
    h->remove(h->ctx, P->b[i]);
    const double logw = pair_weights(M, pb, P, sc);
    if (logw > -INFINITY && sc[i] > 0 && bsl_rj_accept(r, log((double)fb) - logw)) {
        *accepted = 1;
        return BASEL_OK;
    }
    return h->add(h->ctx, P->a[i]) == BASEL_OK && h->add(h->ctx, P->b[i]) == BASEL_OK ? BASEL_OK : BASEL_ENUMERIC;
}
