/*
 * test_blocks.c: inputs held in blocks of columns by several processes
 * (basel_ranks.column_blocks, src/fit/blocks.c) without MPI: each process
 * is a thread of this one, with its own table (its block of the inputs,
 * the same rows and target), and the two collectives go through shared
 * memory between barriers. Rank 0's fit must be the one-process fit of the
 * whole table, byte for byte (basel_fit_to_json), for rj and bd over 2 and
 * 3 processes with the command's blocks of a .bed (whole 16-column
 * panels, equal), and over 4 with uneven ones; the other ranks end with
 * BASEL_ELSEWHERE and no fit. A block with other targets, a constant
 * column in one block, blocks that split a panel, a method that cannot
 * run on blocks and --inputs are
 * refused on every rank, rank 0 giving the reason, and no rank waits for
 * ever; so are identical inputs in two blocks (as one process refuses
 * them) and --na drop leaving out other rows in different blocks. (The MPI build runs the same through mpirun: tests/mpi/test_mpi.sh.)
 */
#include "check_options.h"

#include <basel.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXR 4
#define N 150
#define P 1800 /* one process then holds 2-bit inputs at --gram-memory 1 (problem.c compact_allowed) and streams */

/* The simulated network: a barrier and what each rank put on it. */
typedef struct net {
    int size;
    pthread_barrier_t bar;
    const void *src[MAXR];
    size_t len[MAXR];
    int bad_len; /* a gatherv whose lengths did not match */
} net;

typedef struct endpoint {
    net *w;
    int rank;
} endpoint;

static int bcast(void *user, void *buf, size_t len, int root)
{
    endpoint *e = user;
    net *w = e->w;
    if (e->rank == root) w->src[root] = buf;
    pthread_barrier_wait(&w->bar);
    if (e->rank != root && len) memcpy(buf, w->src[root], len);
    pthread_barrier_wait(&w->bar);
    return 0;
}

static int gatherv(void *user, const void *bytes, size_t len, void *out, const size_t *lens)
{
    endpoint *e = user;
    net *w = e->w;
    w->src[e->rank] = bytes;
    w->len[e->rank] = len;
    pthread_barrier_wait(&w->bar);
    const int dropped = e->rank == 0 && (!out || !lens); /* rank 0 out of memory: the shares dropped, a failure */
    if (e->rank == 0 && !dropped) {
        size_t at = 0;
        for (int r = 0; r < w->size; r++) {
            if (w->len[r] != lens[r]) w->bad_len = 1;
            else if (lens[r]) memcpy((char *)out + at, w->src[r], lens[r]);
            at += lens[r];
        }
    }
    pthread_barrier_wait(&w->bar);
    return dropped || w->bad_len;
}

/* The whole table: genotype-like counts 0..2 in runs of correlated
 * columns, and a target of some of them plus noise: two lone effects and
 * three masking pairs of neighbours (opposite signs), each across a
 * border of the blocks below (912 | 913, 1216 | 1217, 1008 | 1009, in
 * 1-based names), so that rj's pair screen must find pairs that
 * straddle two blocks (rj_pairs.c scan_blocks). */
static double X[N * P], Y[N];
static char *names[P];

static double unif(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void make_data(void)
{
    unsigned long long s = 12345;
    for (size_t j = 0; j < P; j++) {
        char buf[16];
        snprintf(buf, sizeof buf, "v%zu", j + 1);
        names[j] = malloc(strlen(buf) + 1);
        strcpy(names[j], buf);
        for (size_t i = 0; i < N; i++) {
            const double u = unif(&s);
            /* a column copies its left neighbour's row with probability 0.7 */
            X[j * N + i] = j % 40 && u < 0.7 ? X[(j - 1) * N + i] : (double)(unif(&s) < 0.3) + (unif(&s) < 0.3);
        }
    }
    for (size_t i = 0; i < N; i++)
        Y[i] = 0.9 * X[10 * N + i] - 0.7 * X[500 * N + i] + 0.8 * (X[911 * N + i] - X[912 * N + i]) +
               0.8 * (X[1215 * N + i] - X[1216 * N + i]) + 0.6 * (X[1007 * N + i] - X[1008 * N + i]) +
               0.5 * (unif(&s) - 0.5);
}

/* Columns [j0, j1) and the target "y"; y altered in row 0 when other. */
static basel_data *table(size_t j0, size_t j1, int other)
{
    basel_data *d = NULL;
    basel_error err;
    CHECK(!basel_data_from_matrix(&d, "blocks", X + j0 * N, N, j1 - j0, 1, N, (const char *const *)names + j0, &err),
          "%s", err.message);
    double y[N];
    memcpy(y, Y, sizeof y);
    if (other) y[0] += 1;
    CHECK(!basel_data_add_column(d, "y", y, 1, &err), "%s", err.message);
    return d;
}

typedef struct job {
    endpoint e;
    const char *const *kv;
    basel_data *d;
    int rc;
    basel_error err;
    char *json;
} job;

static void *run(void *arg)
{
    job *J = arg;
    basel_options *o = check_options(J->kv);
    basel_ranks ranks = {J->e.rank, J->e.w->size, NULL, &J->e, 1, bcast, gatherv};
    basel_options_set_ranks(o, &ranks);
    basel_fit *f = NULL;
    J->rc = basel_fit_run_take(&f, J->d, o, &J->err);
    J->json = f ? basel_fit_to_json(f) : NULL;
    basel_fit_free(f);
    basel_options_free(o);
    return NULL;
}

/* Blocks at start[0] = 0 < ... < start[size] = P; `other` gives rank
 * other - 1 another target (0: none); `constant` a constant column at
 * that index (0: none). Rank 0's status, error and JSON. */
static int spread(int size, const size_t *start, const char *const *kv, int other, size_t constant, basel_error *err,
                  char **json)
{
    net w = {.size = size};
    pthread_barrier_init(&w.bar, NULL, (unsigned)size);
    job J[MAXR];
    pthread_t th[MAXR];
    double saved[N];
    if (constant) {
        memcpy(saved, X + constant * N, sizeof saved);
        for (size_t i = 0; i < N; i++) X[constant * N + i] = 1;
    }
    for (int r = 0; r < size; r++) {
        J[r] = (job){{&w, r}, kv, table(start[r], start[r + 1], other == r + 1), 0, {0}, NULL};
        pthread_create(&th[r], NULL, run, &J[r]);
    }
    for (int r = 0; r < size; r++) pthread_join(th[r], NULL);
    if (constant) memcpy(X + constant * N, saved, sizeof saved);
    pthread_barrier_destroy(&w.bar);
    CHECK(!w.bad_len, "a gatherv's lengths did not match");
    for (int r = 1; r < size; r++) {
        CHECK(J[r].json == NULL && J[r].rc != BASEL_OK, "rank %d made a fit", r);
        if (!J[0].rc) CHECK(J[r].rc == BASEL_ELSEWHERE, "rank %d: %d %s", r, J[r].rc, J[r].err.message);
        basel_free(J[r].json);
    }
    *err = J[0].err;
    *json = J[0].json;
    return J[0].rc;
}

/* The command's blocks: whole panels of 16 (bed.c read_set). */
static void panels(int size, size_t *start)
{
    const size_t per = (P + 16 * (size_t)size - 1) / (16 * (size_t)size) * 16;
    for (int r = 0; r <= size; r++) start[r] = (size_t)r * per < P ? (size_t)r * per : P;
}

static void same_fit(const char *label, const char *const *kv)
{
    basel_error err;
    basel_options *o = check_options(kv);
    basel_data *whole = table(0, P, 0);
    basel_fit *one = NULL;
    CHECK(!basel_fit_run(&one, whole, o, &err), "%s one process: %s", label, err.message);
    char *want = one ? basel_fit_to_json(one) : NULL;
    CHECK(want && strstr(want, "\"inputs\": \"2-bit\"") && strstr(want, "\"gram\": \"streamed\""),
          "%s: the one-process fit is not the 2-bit streamed one the blocks must match", label);
    if (!strcmp(label, "rj")) CHECK(want && strstr(want, "; 40 pairs (first "), "rj: no pair moves");
    basel_fit_free(one);
    basel_options_free(o);
    basel_data_free(whole);
    size_t start[MAXR + 1];
    for (int size = 2; size <= 3; size++) {
        panels(size, start);
        char *got = NULL;
        int rc = spread(size, start, kv, 0, 0, &err, &got);
        CHECK(rc == BASEL_OK && want && got && !strcmp(want, got), "%s, %d blocks of panels: not the one-process fit "
              "(%d %s)", label, size, rc, rc ? err.message : "");
        basel_free(got);
    }
    const size_t uneven[] = {0, 16, 1008, 1344, P}; /* whole panels, of other sizes */
    char *got = NULL;
    int rc = spread(4, uneven, kv, 0, 0, &err, &got);
    CHECK(rc == BASEL_OK && want && got && !strcmp(want, got), "%s, 4 uneven blocks: not the one-process fit (%d %s)",
          label, rc, rc ? err.message : "");
    basel_free(got);
    basel_free(want);
}

/* Two identical inputs in different blocks (v6 in rank 0's, v1501 in
 * rank 2's) are refused with one process's message, which names them; and
 * --na drop that would leave out other rows in different blocks (a
 * missing value in row 1 of v6, in row 2 of v1501, none in rank 1's block)
 * is refused, since each block would pair its genotypes with other
 * samples. */
static void across(const char *const *kv, const size_t *start)
{
    double saved[N], saved5[N];
    memcpy(saved, X + 1500 * N, sizeof saved);
    memcpy(X + 1500 * N, X + 5 * N, sizeof saved);
    basel_error err;
    basel_options *o = check_options(kv);
    basel_data *whole = table(0, P, 0);
    basel_fit *one = NULL;
    int rc = basel_fit_run(&one, whole, o, &err);
    CHECK(rc == BASEL_EINVAL && strstr(err.message, "'v6' and 'v1501' are identical"), "one process: %d %s", rc,
          err.message);
    basel_fit_free(one);
    basel_options_free(o);
    basel_data_free(whole);
    char *got = NULL;
    rc = spread(3, start, kv, 0, 0, &err, &got);
    CHECK(rc == BASEL_EINVAL && !got && strstr(err.message, "input columns 'v6' and 'v1501' are identical"),
          "identical across blocks: %d %s", rc, err.message);
    memcpy(X + 1500 * N, saved, sizeof saved);
    memcpy(saved5, X + 5 * N, sizeof saved5);
    X[5 * N + 1] = NAN;
    X[1500 * N + 2] = NAN;
    const char *drop[] = {"target", "y", "method", "bd", "iter", "200", "seed", "3", "gram-memory", "1", "na", "drop",
                          NULL};
    rc = spread(3, start, drop, 0, 0, &err, &got);
    CHECK(rc == BASEL_EINVAL && !got && strstr(err.message, "--na drop left out other rows in process 1's block"),
          "--na drop: %d %s", rc, err.message);
    memcpy(X + 5 * N, saved5, sizeof saved5);
    X[1500 * N + 2] = saved[2];
}

static void refusals(void)
{
    const char *kv[] = {"target", "y", "method", "bd", "iter", "200", "seed", "3", "gram-memory", "1", NULL};
    size_t start[MAXR + 1];
    panels(3, start);
    basel_error err;
    char *got = NULL;
    int rc = spread(3, start, kv, 3, 0, &err, &got);
    CHECK(rc == BASEL_EINVAL && !got && strstr(err.message, "other rows or targets"), "other targets: %d %s", rc,
          err.message);
    rc = spread(3, start, kv, 0, 1500, &err, &got); /* in rank 2's block */
    CHECK(rc == BASEL_EINVAL && !got && strstr(err.message, "'v1501' is constant"), "constant: %d %s", rc,
          err.message);
    /* blocks that split a panel: a Gram row's last bits would differ
     * (bsl_dots_2bit_panels: the matrix's last k mod 4 columns) */
    const size_t odd[] = {0, 7, 1001, P};
    rc = spread(3, odd, kv, 0, 0, &err, &got);
    CHECK(rc == BASEL_EINVAL && !got && strstr(err.message, "process 0 holds 7 inputs"), "odd: %d %s", rc,
          err.message);
    const char *en[] = {"target", "y", "method", "ssvs", "seed", "3", NULL};
    rc = spread(2, start, en, 0, 0, &err, &got);
    CHECK(rc == BASEL_EINVAL && !got && strstr(err.message, "needs all of the inputs in one process"), "ssvs: %d %s",
          rc, err.message);
    const char *in[] = {"target", "y", "inputs", "v1,v2", "seed", "3", NULL};
    rc = spread(2, start, in, 0, 0, &err, &got);
    CHECK(rc == BASEL_EINVAL && !got && strstr(err.message, "--inputs cannot choose"), "inputs: %d %s", rc,
          err.message);
    across(kv, start);
}

int main(void)
{
    make_data();
    /* rj's default above 1000 inputs: informed moves and the pair screen,
     * here the 40 best pairs (no threshold) */
    const char *rj[] = {"target", "y", "chains", "2", "iter", "1500", "seed", "7", "gram-memory", "1", "rj-pairs", "40",
                        NULL};
    const char *bd[] = {"target", "y", "method", "bd", "chains", "2", "iter", "3000", "seed", "7", "gram-memory", "1",
                        NULL};
    same_fit("rj", rj);
    same_fit("bd", bd);
    refusals();
    for (size_t j = 0; j < P; j++) free(names[j]);
    return check_report("test_blocks");
}
