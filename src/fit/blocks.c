/*
 * blocks.c: a fit whose inputs are held in blocks of columns by several
 * processes (basel.h basel_ranks.column_blocks; the command's fit
 * --column-blocks under mpirun; DESIGN.md "Columns across processes").
 *
 * Why this split. What grows with p at n = 1000 is X (n p values) and the
 * passes over it: the set-up pass (B'y, the diagonal) and a Gram row per
 * atom that enters a model. Everything else is O(p) (the per-atom vectors
 * and a cached row: 8 MB each at p = 10^6) or O(k^2). So every process
 * holds only its block of X and makes every pass over it; rank 0 holds
 * the O(p) vectors and runs every chain, exactly as one process would.
 * Each answer it gets is the number it would have computed from the whole
 * X, bit for bit: a per-atom value comes from that atom's column alone,
 * so how the columns are split cannot change it. The fit is therefore the
 * one-process fit, byte for byte, with no sum that depends on the split.
 *
 * The protocol. Every process builds the problem of its own table (its
 * block of the inputs; the same rows and targets everywhere), then one
 * exchange: each sends rank 0 its status and sizes, rank 0 checks that
 * the tables agree (rows, targets, how the inputs are held) and answers
 * go or stop, so that a process that failed never leaves another
 * waiting. Rank 0 then gathers the input names and scales, makes the
 * problem of the whole table (X held elsewhere: bsl_problem.blocks), and
 * fits it; the engine's design (design.h bsl_design_create_blocks) asks
 * for each pass through the bsl_column_blocks functions below. Each
 * request is broadcast by rank 0 and answered with one gatherv:
 *   SETUP        every process makes its block's design (design.c: the
 *                same set-up pass) and sends its B'y, diagonal, always-in
 *                coefficients and usable flags;
 *   DOTS a       the owner of atom a projects its column and broadcasts
 *                it; every process sends x_j' b_a for its atoms j (a Gram
 *                row, computed where the columns live);
 *   COLUMN j     the owner sends atom j's column (raw or projected);
 *   PAIRS        rj's pair screen (rj_pairs.c): every process sends the
 *                best pairs within its block (rank 0 adds those that
 *                straddle two blocks);
 *   END          rank 0's fit has ended.
 * The other processes serve requests until END; their fit returns
 * BASEL_ELSEWHERE. Requests come from rank 0's chain threads one at a
 * time (a mutex).
 */
#include "fit.h"
#include "../basis/basis.h"
#include "../engine/rj/rj_pairs.h"
#include "../model/design.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

enum { OP_SETUP = 1, OP_DOTS, OP_COLUMN, OP_PAIRS, OP_END };

/* What send_names sends of each input after its name: x_mean, x_scale
 * and the two column ids. */
enum { PER_INPUT = 2 * sizeof(double) + 2 * sizeof(uint64_t) };

typedef struct request {
    int64_t op;
    uint64_t a, b;
    double x;
} request;

/* What each process says of its block before the fit. */
typedef struct hello {
    int64_t status;
    basel_error err;
    uint64_t d, n, c, y_hash, rows_id, names_bytes;
    char inputs[16]; /* how the block holds its inputs: "2-bit", "int8", "float32", "" (doubles) */
} hello;

typedef struct blocks {
    const basel_ranks *rk;
    size_t n, c, m;
    size_t *start;        /* size + 1: rank r holds atoms start[r] .. start[r + 1] - 1 */
    bsl_problem local;    /* this process's block, as a problem (its inputs) */
    const double *Y;      /* the targets (local's, or on rank 0 the whole problem's) */
    const char *basis;
    bsl_dict *dict;
    bsl_design *D;        /* the block's design (made by SETUP) */
    double *col, *raw, *part; /* n, n, and the block's atoms */
    mtx_t mu;
    int mu_made; /* mu was initialised */
    int failed, released;
    int setup_rank;       /* the process whose set-up failed, and its status (0: none) */
    int64_t setup_status;
    bsl_column_blocks ops;
} blocks;

static int bcast(blocks *B, void *buf, size_t len, int root)
{
    return B->rk->bcast(B->rk->user, buf, len, root) != 0;
}

/* The rank that holds atom j. */
static int owner(const blocks *B, size_t j)
{
    int lo = 0, hi = B->rk->size - 1;
    while (lo < hi) { /* the last r with start[r] <= j */
        const int mid = (lo + hi + 1) / 2;
        if (B->start[mid] <= j) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static size_t mine(const blocks *B) { return B->start[B->rk->rank + 1] - B->start[B->rk->rank]; }

/* Rank 0: each rank's share of an answer of per-atom bytes plus head. */
static size_t *shares(const blocks *B, size_t head, size_t per_atom)
{
    size_t *lens = malloc((size_t)B->rk->size * sizeof *lens);
    for (int r = 0; lens && r < B->rk->size; r++) lens[r] = head + (B->start[r + 1] - B->start[r]) * per_atom;
    return lens;
}

/* The block's design: the same set-up pass as a one-process design over
 * these columns; a budget of 0 streams (no Gram, no kept columns). */
static int make_design(blocks *B, basel_error *err)
{
    if (B->D) return BASEL_OK;
    const bsl_problem *L = &B->local;
    const size_t n = B->n, d = L->d;
    int rc = bsl_dict_create(&B->dict, B->basis, L->X, n, d, err);
    if (!rc) rc = bsl_design_create_held(&B->D, B->dict, L->X, L->X32, L->X8, L->X2, n, B->Y, B->c, 0, 0, NULL, err);
    if (!rc) {
        B->col = bsl_malloc(2 * n + 1, sizeof *B->col);
        B->part = bsl_malloc(d + 1, sizeof *B->part);
        B->raw = B->col ? B->col + n : NULL;
        if (!B->col || !B->part) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    return rc;
}

/* SETUP on every rank: this block's per-atom values, packed as
 * status (8 bytes), B'y (d c doubles), diag, gB (d each), usable (d bytes). */
static size_t setup_bytes_per_atom(const blocks *B) { return (B->c + 2) * sizeof(double) + 1; }

static int serve_setup(blocks *B, void *out, const size_t *lens)
{
    basel_error err;
    const size_t d = mine(B), c = B->c;
    const size_t len = sizeof(int64_t) + d * setup_bytes_per_atom(B);
    unsigned char *buf = bsl_calloc(len, 1);
    int64_t status = buf ? make_design(B, &err) : BASEL_ENOMEM;
    if (buf && !status) {
        const bsl_design *D = B->D;
        unsigned char *at = buf + sizeof status;
        memcpy(at, D->Bty, d * c * sizeof(double));
        at += d * c * sizeof(double);
        memcpy(at, D->diag, d * sizeof(double));
        at += d * sizeof(double);
        memcpy(at, D->gB, d * sizeof(double));
        at += d * sizeof(double);
        memcpy(at, D->usable, d);
    }
    if (buf) memcpy(buf, &status, sizeof status);
    /* a rank out of memory still answers (its status says so), or rank 0 would wait */
    static int64_t failed_status = BASEL_ENOMEM;
    const int rc = B->rk->gatherv(B->rk->user, buf ? (const void *)buf : &failed_status,
                                  buf ? len : sizeof failed_status,
                                  out, lens);
    free(buf);
    return rc;
}

/* DOTS a on every rank: the owner's projected column to all, then each
 * block's x_j' b_a to rank 0 (into out: the whole row). */
static int serve_dots(blocks *B, size_t a, void *out, const size_t *lens)
{
    const int o = owner(B, a);
    if (B->rk->rank == o) bsl_design_column(B->D, a - B->start[o], B->col);
    if (bcast(B, B->col, B->n * sizeof *B->col, o)) return 1;
    bsl_design_dots(B->D, B->col, B->part, B->raw);
    return B->rk->gatherv(B->rk->user, B->part, mine(B) * sizeof *B->part, out, lens) != 0;
}

/* COLUMN j on every rank: the owner's column to rank 0. */
static int serve_column(blocks *B, size_t j, int projected, void *out, const size_t *lens)
{
    const int o = owner(B, j), me = B->rk->rank == o;
    if (me && projected) bsl_design_column(B->D, j - B->start[o], B->col);
    else if (me) bsl_design_raw_column(B->D, j - B->start[o], B->col);
    return B->rk->gatherv(B->rk->user, B->col, me ? B->n * sizeof *B->col : 0, out, lens) != 0;
}

/* PAIRS on every rank: its block's best cap pairs (window, floor: the
 * screen's), as status, count, then cap pairs numbered as the whole's. */
static size_t pairs_bytes(size_t cap) { return 2 * sizeof(int64_t) + cap * sizeof(bsl_atom_pair); }

static int serve_pairs(blocks *B, const request *q, void *out, const size_t *lens)
{
    const size_t cap = (size_t)q->b, len = pairs_bytes(cap);
    unsigned char *buf = bsl_calloc(len, 1);
    bsl_atom_pair *best = bsl_malloc(cap + 1, sizeof *best);
    int64_t head[2] = {BASEL_ENOMEM, 0};
    basel_error err;
    size_t nbest = 0;
    if (buf && best) head[0] = bsl_rj_pairs_scan(B->D, (size_t)q->a, q->x, cap, NULL, best, &nbest, &err);
    if (buf && !head[0]) {
        const size_t j0 = B->start[B->rk->rank];
        for (size_t i = 0; i < nbest; i++) {
            best[i].a += j0;
            best[i].b += j0;
        }
        head[1] = (int64_t)nbest;
        memcpy(buf + sizeof head, best, nbest * sizeof *best);
    }
    free(best);
    if (buf) memcpy(buf, head, sizeof head);
    const int rc = B->rk->gatherv(B->rk->user, buf ? (const void *)buf : head, buf ? len : sizeof head, out, lens);
    free(buf);
    return rc;
}

/* Ranks > 0: requests until END (0), or a failed transfer (1). */
static int serve(blocks *B)
{
    for (;;) {
        request q;
        if (bcast(B, &q, sizeof q, 0)) return 1;
        int rc = 0;
        switch (q.op) {
        case OP_SETUP: rc = serve_setup(B, NULL, NULL); break;
        case OP_DOTS: rc = B->D ? serve_dots(B, q.a, NULL, NULL) : 1; break;
        case OP_COLUMN: rc = B->D ? serve_column(B, q.a, (int)q.b, NULL, NULL) : 1; break;
        case OP_PAIRS: rc = B->D ? serve_pairs(B, &q, NULL, NULL) : 1; break;
        case OP_END: return 0;
        default: return 1;
        }
        if (rc) return 1;
    }
}

/* Rank 0: one request, made and answered under the mutex. */
static int ask(blocks *B, request q)
{
    return bcast(B, &q, sizeof q, 0);
}

/* No more requests: a block failed to answer (under the mutex, as
 * every request reads it). */
static void mark_failed(blocks *B)
{
    mtx_lock(&B->mu);
    B->failed = 1;
    mtx_unlock(&B->mu);
}

/* bsl_column_blocks.setup */
static int ops_setup(void *ctx, bsl_design *D)
{
    blocks *B = ctx;
    const size_t c = B->c, per = setup_bytes_per_atom(B), head = sizeof(int64_t);
    size_t *lens = shares(B, head, per), total = 0;
    for (int r = 0; lens && r < B->rk->size; r++) total += lens[r];
    unsigned char *all = lens ? bsl_malloc(total + 1, 1) : NULL;
    mtx_lock(&B->mu);
    int rc = !all || B->failed || B->released || ask(B, (request){OP_SETUP, 0, 0, 0}) || serve_setup(B, all, lens);
    mtx_unlock(&B->mu);
    for (size_t r = 0, at = 0; !rc && r < (size_t)B->rk->size; r++) {
        const unsigned char *p = all + at;
        int64_t status;
        memcpy(&status, p, sizeof status);
        if (status) {
            B->setup_rank = (int)r;
            B->setup_status = status;
            rc = 1;
            break;
        }
        const size_t j0 = B->start[r], d = B->start[r + 1] - j0;
        p += head;
        memcpy(D->Bty + j0 * c, p, d * c * sizeof(double));
        p += d * c * sizeof(double);
        memcpy(D->diag + j0, p, d * sizeof(double));
        p += d * sizeof(double);
        memcpy(D->gB + j0, p, d * sizeof(double));
        p += d * sizeof(double);
        memcpy(D->usable + j0, p, d);
        at += lens[r];
    }
    free(all);
    free(lens);
    if (rc) mark_failed(B);
    return rc;
}

static void fill_nan(double *out, size_t len)
{
    for (size_t i = 0; i < len; i++) out[i] = NAN;
}

/* bsl_column_blocks.dots */
static void ops_dots(void *ctx, size_t a, double *row)
{
    blocks *B = ctx;
    size_t *lens = shares(B, 0, sizeof(double));
    mtx_lock(&B->mu);
    const int rc = !lens || B->failed || B->released || ask(B, (request){OP_DOTS, a, 0, 0}) ||
                   serve_dots(B, a, row, lens);
    if (rc) B->failed = 1;
    mtx_unlock(&B->mu);
    free(lens);
    if (rc) fill_nan(row, B->m);
}

/* bsl_column_blocks.column */
static void ops_column(void *ctx, size_t j, int projected, double *out)
{
    blocks *B = ctx;
    size_t *lens = calloc((size_t)B->rk->size, sizeof *lens);
    if (lens) lens[owner(B, j)] = B->n * sizeof(double);
    mtx_lock(&B->mu);
    const int rc = !lens || B->failed || B->released || ask(B, (request){OP_COLUMN, j, (uint64_t)projected, 0}) ||
                   serve_column(B, j, projected, out, lens);
    if (rc) B->failed = 1;
    mtx_unlock(&B->mu);
    free(lens);
    if (rc) fill_nan(out, B->n);
}

/* bsl_column_blocks.pairs */
static int ops_pairs(void *ctx, size_t window, double floor, size_t cap, bsl_atom_pair *out, size_t *nout)
{
    blocks *B = ctx;
    const int size = B->rk->size;
    const size_t len = pairs_bytes(cap);
    size_t *lens = bsl_malloc((size_t)size, sizeof *lens);
    unsigned char *all = bsl_malloc((size_t)size, len);
    for (int r = 0; lens && r < size; r++) lens[r] = len;
    mtx_lock(&B->mu);
    int rc = !lens || !all || B->failed || B->released || ask(B, (request){OP_PAIRS, window, cap, floor}) ||
             serve_pairs(B, &(request){OP_PAIRS, window, cap, floor}, all, lens);
    mtx_unlock(&B->mu);
    *nout = 0;
    for (int r = 0; !rc && r < size; r++) {
        int64_t head[2];
        memcpy(head, all + (size_t)r * len, sizeof head);
        if (head[0] || head[1] < 0 || (size_t)head[1] > cap) {
            rc = 1;
            break;
        }
        memcpy(out + *nout, all + (size_t)r * len + sizeof head, (size_t)head[1] * sizeof *out);
        *nout += (size_t)head[1];
    }
    free(all);
    free(lens);
    if (rc) mark_failed(B);
    return rc;
}

/* bsl_column_blocks.release: END to every process, and this block's
 * design and inputs freed (rank 0 then builds the document without them,
 * as one process drops its inputs). Once. */
static void ops_release(void *ctx)
{
    blocks *B = ctx;
    mtx_lock(&B->mu);
    if (!B->released && ask(B, (request){OP_END, 0, 0, 0})) B->failed = 1;
    B->released = 1;
    bsl_design_free(B->D);
    B->D = NULL;
    bsl_problem_drop_inputs(&B->local);
    mtx_unlock(&B->mu);
}

static const char *held_as(const bsl_problem *L)
{
    return L->X2 ? "2-bit" : L->X8 ? "int8" : L->X32 ? "float32" : "";
}

/* Rank 0: whether the blocks agree, and how the whole is held: the widest
 * of the blocks' kinds (a whole number is the same in each, so the bits
 * are the one process's, which holds them all in the widest). */
static int agree(const hello *h, int size, const char **inputs, basel_error *err)
{
    static const char *order[] = {"2-bit", "int8", "float32"};
    int widest = 0;
    for (int r = 0; r < size; r++) {
        if (h[r].rows_id != h[0].rows_id)
            return bsl_fail(err, BASEL_EINVAL, "--column-blocks: --na drop left out other rows in process %d's block "
                            "of the inputs than in process 0's (each drops the samples missing in its own block); "
                            "drop the samples with missing genotypes first (plink --mind), or fit in one process", r);
        if (h[r].n != h[0].n || h[r].c != h[0].c || h[r].y_hash != h[0].y_hash)
            return bsl_fail(err, BASEL_EINVAL, "--column-blocks: process %d's table has other rows or targets than "
                            "process 0's (each process must read the same rows)", r);
        if (r + 1 < size && h[r].d % BSL_F32_PANEL)
            return bsl_fail(err, BASEL_EINVAL, "--column-blocks: process %d holds %llu inputs; every block but the "
                            "last must hold whole panels of 16 (a Gram row's last bits depend on where its "
                            "columns fall among them)", r, (unsigned long long)h[r].d);
        int k = -1;
        for (int i = 0; i < 3; i++)
            if (!strcmp(h[r].inputs, order[i])) k = i;
        if (k < 0)
            return bsl_fail(err, BASEL_EINVAL, "--column-blocks: process %d's inputs are not held compactly (values "
                            "beyond float32's range): fit them in one process", r);
        widest = k > widest ? k : widest;
    }
    *inputs = order[widest];
    return BASEL_OK;
}

typedef struct col_id {
    uint64_t id[2];
    size_t j;
} col_id;

static int cmp_col_id(const void *a, const void *b)
{
    const col_id *x = a, *y = b;
    for (int k = 0; k < 2; k++)
        if (x->id[k] != y->id[k]) return x->id[k] < y->id[k] ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* Rank 0: two inputs in different blocks that are identical, refused as
 * one process refuses them (problem.c check_inputs: the smallest j with
 * an earlier copy l, and the first such l). Each block has checked its
 * own pairs value by value; across blocks two 64-bit hashes of the values
 * stand for them (equal values hash equal; unequal ones agree in both
 * with odds of about m^2 / 2^128). ids: 2 m, in the atoms' order. */
static int check_across(const blocks *B, const bsl_problem *P, const uint64_t *ids, basel_error *err)
{
    const size_t m = B->m;
    col_id *key = malloc((m + 1) * sizeof *key);
    if (!key) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < m; j++) key[j] = (col_id){{ids[2 * j], ids[2 * j + 1]}, j};
    qsort(key, m, sizeof *key, cmp_col_id);
    size_t best_j = m, best_l = m;
    for (size_t a = 0; a < m;) { /* a run of equal ids, in index order */
        size_t b = a + 1;
        while (b < m && !memcmp(key[b].id, key[a].id, sizeof key[a].id)) b++;
        for (size_t u = a + 1; u < b; u++)
            for (size_t v = a; v < u; v++)
                if (key[u].j < best_j && owner(B, key[u].j) != owner(B, key[v].j)) {
                    best_j = key[u].j;
                    best_l = key[v].j;
                    break;
                }
        a = b;
    }
    free(key);
    if (best_j < m)
        return bsl_fail(err, BASEL_EINVAL, "input columns '%s' and '%s' are identical: keep one with --inputs",
                        P->input_names[best_l], P->input_names[best_j]);
    return BASEL_OK;
}

/* Rank 0: the problem of the whole table from its block's (L, whose
 * inputs stay with the block) and every block's names, scales and column
 * ids (all: names NUL-separated, then x_mean, x_scale and the ids of each
 * block, in rank order). */
static int whole_problem(bsl_problem *P, blocks *B, const hello *h, const unsigned char *all, basel_error *err)
{
    bsl_problem *L = &B->local;
    const size_t m = B->m;
    *P = *L;
    /* the block keeps its inputs and their names; the whole takes the rest */
    P->column_ids = NULL;
    P->X = NULL;
    P->X32 = NULL;
    P->X8 = NULL;
    P->X2 = NULL;
    P->d = m;
    P->input_names = NULL;
    P->x_mean = P->x_scale = NULL;
    P->owned_names = NULL;
    L->Y = NULL;
    L->target_names = NULL;
    L->y_scale = NULL;
    L->cls = NULL;
    L->class_names = NULL;
    L->nclass = 0;
    L->owned = NULL;
    L->stats = NULL;
    P->input_names = bsl_malloc(m + 1, sizeof *P->input_names);
    P->owned_names = bsl_calloc(m + 1, sizeof *P->owned_names);
    P->x_mean = bsl_malloc(m + 1, sizeof *P->x_mean);
    P->x_scale = bsl_malloc(m + 1, sizeof *P->x_scale);
    uint64_t *ids = bsl_malloc(2 * m + 1, sizeof *ids);
    if (!P->input_names || !P->owned_names || !P->x_mean || !P->x_scale || !ids) {
        free(ids);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    size_t at = 0;
    for (int r = 0; r < B->rk->size; r++) {
        const char *name = (const char *)all + at;
        const size_t j0 = B->start[r], d = B->start[r + 1] - j0;
        for (size_t j = j0; j < j0 + d; j++) {
            const size_t len = strlen(name);
            if (!(P->owned_names[j] = bsl_strdup(name))) {
                free(ids);
                return bsl_fail(err, BASEL_ENOMEM, "out of memory");
            }
            P->input_names[j] = P->owned_names[j];
            name += len + 1;
        }
        at += h[r].names_bytes;
        memcpy(P->x_mean + j0, all + at, d * sizeof(double));
        memcpy(P->x_scale + j0, all + at + d * sizeof(double), d * sizeof(double));
        memcpy(ids + 2 * j0, all + at + 2 * d * sizeof(double), 2 * d * sizeof(uint64_t));
        at += d * PER_INPUT;
    }
    P->blocks = &B->ops;
    B->Y = P->Y;
    const int rc = check_across(B, P, ids, err);
    free(ids);
    return rc;
}

/* Every rank: its names (NUL-separated), x_mean, x_scale and column ids
 * to rank 0. */
static int send_names(blocks *B, const hello *h, unsigned char **all, basel_error *err)
{
    const bsl_problem *L = &B->local;
    const size_t d = L->d;
    size_t bytes = 0;
    for (size_t j = 0; j < d; j++) bytes += strlen(L->input_names[j]) + 1;
    const size_t len = bytes + d * PER_INPUT;
    unsigned char *buf = bsl_malloc(len + 1, 1);
    size_t *lens = NULL, total = 0;
    if (B->rk->rank == 0 && (lens = malloc((size_t)B->rk->size * sizeof *lens)))
        for (int r = 0; r < B->rk->size; r++) total += lens[r] = h[r].names_bytes + h[r].d * PER_INPUT;
    if (B->rk->rank == 0 && lens) *all = bsl_malloc(total + 1, 1);
    /* every rank sends, whatever its memory, so that no rank waits */
    int rc = 0;
    if (buf) {
        size_t at = 0;
        for (size_t j = 0; j < d; j++) {
            const size_t n = strlen(L->input_names[j]) + 1;
            memcpy(buf + at, L->input_names[j], n);
            at += n;
        }
        memcpy(buf + at, L->x_mean, d * sizeof(double));
        memcpy(buf + at + d * sizeof(double), L->x_scale, d * sizeof(double));
        memcpy(buf + at + 2 * d * sizeof(double), L->column_ids, 2 * d * sizeof(uint64_t));
    }
    const int lost = B->rk->gatherv(B->rk->user, buf, buf ? len : 0, B->rk->rank == 0 && lens ? *all : NULL,
                                    B->rk->rank == 0 ? lens : NULL) != 0;
    if (!buf || (B->rk->rank == 0 && (!lens || !*all))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (lost) rc = bsl_fail(err, BASEL_EIO, "--column-blocks: a process did not send its input names");
    free(buf);
    free(lens);
    return rc;
}

static void blocks_free(blocks *B)
{
    bsl_design_free(B->D);
    bsl_dict_free(B->dict);
    free(B->col);
    free(B->part);
    free(B->start);
    bsl_problem_free(&B->local);
    if (B->mu_made) mtx_destroy(&B->mu);
}

/* The number of inputs of this process's table: every column but the
 * targets (the --inputs option is refused: the blocks are the inputs). */
static size_t table_inputs(const basel_data *data, const basel_options *o)
{
    const char *tg = bsl_params_get(&o->p, "target");
    size_t targets = 1;
    for (const char *c = tg; c && *c; c++) targets += *c == ',';
    return data->p > targets ? data->p - targets : 0;
}

/* Rank 0 says go (0) or stop (its status) to every rank. */
static int verdict(blocks *B, int status, basel_error *err)
{
    int64_t v = status;
    if (bcast(B, &v, sizeof v, 0))
        return status ? status : bsl_fail(err, BASEL_EIO, "--column-blocks: rank 0 did not answer");
    if (B->rk->rank == 0 || !v) return status;
    return status ? status : bsl_fail(err, BASEL_ELSEWHERE, "another process failed (rank 0 reports it)");
}

/* Rank 0: the fit's status from every block's hello (h, or NULL when
 * lost): a block that failed on its own gives its message. */
static int judge(const hello *h, int size, int own, const char **held, basel_error *err)
{
    if (own) return own;
    if (!h) return bsl_fail(err, BASEL_EIO, "--column-blocks: a process did not answer");
    for (int r = 1; r < size; r++)
        if (h[r].status) {
            *err = h[r].err;
            return (int)h[r].status;
        }
    return agree(h, size, held, err);
}

/* Steps 2 and 3 of bsl_blocks_fit: the options and this block's problem. */
static int block_problem(blocks *B, const basel_data *data, basel_data *take, const basel_options *o,
                         basel_options *chosen, uint64_t inputs, const bsl_engine_def **e, bsl_params *settings,
                         int *keep_draws, size_t *threads, basel_error *err)
{
    int rc = BASEL_OK;
    if (!bsl_params_get(&o->p, "method") &&
        bsl_params_set(&chosen->p, "method", bsl_default_method(&o->p, (size_t)inputs)))
        rc = bsl_fail(err, BASEL_EINVAL, "too many options");
    if (!rc) rc = bsl_fit_prepare(chosen, e, settings, keep_draws, threads, err);
    if (!rc && !(*e)->column_blocks) {
        char can[256];
        rc = bsl_fail(err, BASEL_EINVAL, "--column-blocks: --method %s needs all of the inputs in one process (%s "
                      "can run on blocks)", (*e)->name, bsl_engine_list(can, sizeof can, "column-blocks", "and"));
    }
    const char *in = bsl_params_get(&o->p, "inputs");
    if (!rc && in && *in)
        rc = bsl_fail(err, BASEL_EINVAL, "--column-blocks: the inputs are every column of each block but the "
                      "target; --inputs cannot choose among them");
    if (!rc && (bsl_params_get(&o->p, "checkpoint") || bsl_params_get(&o->p, "restart") ||
                bsl_params_get(&o->p, "max-time")))
        rc = bsl_fail(err, BASEL_EINVAL, "--checkpoint, --restart and --max-time run in one process, not across %d",
                      B->rk->size);
    if (rc) {
        basel_data_free(take);
        return rc;
    }
    /* the problem frees take, also on failure */
    if ((rc = bsl_problem_build_block(&B->local, data, take, *e, &o->p, settings, err))) return rc;
    if (B->local.nfactors || B->local.stats || B->local.cls)
        return bsl_fail(err, BASEL_EINVAL, "--column-blocks: numeric inputs and a numeric target only");
    if (!*held_as(&B->local))
        return bsl_fail(err, BASEL_EINVAL, "--column-blocks: the linear basis and a Gaussian target, without "
                        "--relevance or --standardize yes (the inputs held compactly, as one process holds "
                        "them at this size)");
    return BASEL_OK;
}

/* This block's hello after block_problem's status rc. */
static hello greet(const blocks *B, int rc, const basel_error *err)
{
    hello me = {.status = rc};
    if (rc) {
        me.err = *err;
        return me;
    }
    const bsl_problem *L = &B->local;
    me.d = L->d;
    me.n = L->n;
    me.c = L->c;
    me.y_hash = bsl_fnv1a(BSL_FNV1A, L->Y, L->n * L->c * sizeof *L->Y); /* the targets, every block's */
    me.rows_id = L->rows_kept_id;
    for (size_t j = 0; j < L->d; j++) me.names_bytes += strlen(L->input_names[j]) + 1;
    snprintf(me.inputs, sizeof me.inputs, "%s", held_as(L));
    return me;
}

int bsl_blocks_fit(basel_fit **out, const basel_data *data, basel_data *take, const basel_options *o,
                   basel_error *err)
{
    const basel_ranks *rk = &o->ranks;
    const int size = rk->size, rank = rk->rank;
    blocks B = {.rk = rk};
    /* what every exchange needs, before the first: a failure here is every
     * rank's alike (the same options), or a few bytes out of memory */
    if (!rk->bcast || !rk->gatherv) { /* every rank alike: the same library and command */
        basel_data_free(take);
        return bsl_fail(err, BASEL_EINVAL, "column blocks need the ranks' bcast and gatherv");
    }
    size_t *lens = bsl_calloc((size_t)size, sizeof *lens);
    uint64_t *counts = bsl_calloc(2 * (size_t)size, sizeof *counts), *d = bsl_calloc((size_t)size, sizeof *d);
    hello *h = bsl_calloc((size_t)size, sizeof *h);
    B.start = bsl_calloc((size_t)size + 1, sizeof *B.start);
    B.mu_made = mtx_init(&B.mu, mtx_plain) == thrd_success;
    /* a rank short of these few bytes still takes part in steps 1 and 3
     * (rank 0 then drops what it cannot keep), so that its failure reaches
     * rank 0's verdict instead of leaving the others waiting */
    int rc = !lens || !counts || !d || !h || !B.start || !B.mu_made ? bsl_fail(err, BASEL_ENOMEM, "out of memory")
                                                                    : BASEL_OK;
    /* 1. The inputs in all, which choose the default method. */
    uint64_t total = table_inputs(data, o);
    for (int r = 0; lens && r < size; r++) lens[r] = sizeof total;
    int lost = rk->gatherv(rk->user, &total, sizeof total, rank == 0 ? counts : NULL, rank == 0 ? lens : NULL) != 0;
    if (rank == 0 && !lost)
        for (int r = 1; r < size; r++) total += counts[r];
    lost |= bcast(&B, &total, sizeof total, 0);
    /* 2. Every process: the options, and the problem of its block. */
    basel_options chosen = *o; /* the chains all run in rank 0, as in one process */
    chosen.ranks = (basel_ranks){0};
    const bsl_engine_def *e = NULL;
    bsl_params settings;
    int keep_draws = 0;
    size_t threads = 0;
    if (!rc && lost) rc = bsl_fail(err, BASEL_EIO, "--column-blocks: the processes could not count their inputs");
    if (rc) basel_data_free(take);
    else rc = block_problem(&B, data, take, o, &chosen, total, &e, &settings, &keep_draws, &threads, err);
    /* 3. One exchange: every block's status and sizes; rank 0 says go or stop. */
    hello me = greet(&B, rc, err);
    for (int r = 0; lens && r < size; r++) lens[r] = sizeof me;
    lost = rk->gatherv(rk->user, &me, sizeof me, rank == 0 ? h : NULL, rank == 0 ? lens : NULL) != 0;
    const char *held = NULL;
    if (rank == 0) rc = judge(lost ? NULL : h, size, rc, &held, err);
    rc = verdict(&B, rc, err);
    /* 4. The blocks' places, names and scales; then rank 0's whole problem. */
    if (!rc && rank == 0)
        for (int r = 0; r < size; r++) d[r] = h[r].d;
    if (!rc && bcast(&B, d, (size_t)size * sizeof *d, 0)) rc = bsl_fail(err, BASEL_EIO, "--column-blocks: lost");
    unsigned char *names = NULL;
    bsl_problem P;
    int whole = 0;
    if (!rc) {
        for (int r = 0; r < size; r++) B.start[r + 1] = B.start[r] + d[r];
        B.n = B.local.n;
        B.c = B.local.c;
        B.m = B.start[size];
        B.basis = bsl_params_get(&settings, "basis");
        B.Y = B.local.Y;
        B.ops = (bsl_column_blocks){&B, held, ops_setup, ops_dots, ops_column, ops_pairs, (size_t)size, B.start,
                                    ops_release};
        rc = send_names(&B, h, &names, err);
        if (!rc && rank == 0) {
            whole = 1;
            rc = whole_problem(&P, &B, h, names, err);
        }
        rc = verdict(&B, rc, err);
    }
    free(names);
    free(h);
    free(lens);
    free(counts);
    free(d);
    /* 5. Rank 0 fits; the others serve until it has. */
    if (!rc && rank > 0) {
        rc = serve(&B) ? bsl_fail(err, BASEL_EIO, "--column-blocks: rank 0 stopped asking")
                       : bsl_fail(err, BASEL_ELSEWHERE, "the fit is rank 0's");
    } else if (!rc) {
        whole = 0; /* bsl_fit_problem frees it */
        rc = bsl_fit_problem(out, &chosen, &settings, &P, keep_draws, threads, err);
        ops_release(&B); /* done already when the engine ran (bsl_problem_drop_inputs) */
        if (B.failed) {
            if (!rc) {
                basel_fit_free(*out);
                *out = NULL;
            }
            rc = B.setup_status ? bsl_fail(err, (int)B.setup_status, "--column-blocks: process %d could not set up "
                                           "its block of the inputs: %s", B.setup_rank,
                                           basel_status_str((int)B.setup_status))
                                : bsl_fail(err, BASEL_EIO, "--column-blocks: a process holding a block of the inputs "
                                           "stopped answering");
        }
    }
    if (whole) bsl_problem_free(&P);
    blocks_free(&B);
    return rc;
}
