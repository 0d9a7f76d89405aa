/*
 * test_ranks.c: chains over processes (basel_options_set_ranks,
 * src/run/chains_ranks.c) without MPI: the processes are simulated in
 * this one, one after another. Ranks 1 .. R-1 run first; their gather keeps
 * the bytes it is given and returns, and their fit must end with
 * BASEL_ELSEWHERE and no fit. Rank 0 runs last; its gather hands over those
 * bytes. Its fit must be byte-identical (basel_fit_to_json) to the
 * one-process fit with the same chains and seed, for every method whose
 * chains save their state: chain c ran only on rank c mod R (each rank's
 * bytes hold exactly its chains), and rank 0 merged them as one process
 * would. A damaged message, a rank that ran another fit and a failed
 * transfer are refused with their messages. (The MPI build runs the same
 * through mpirun: tests/mpi/test_mpi.sh.)
 */
#include "check_options.h"

#include <basel.h>
#include <stdlib.h>
#include <string.h>

#define RANKS 3

/* The simulated network: what each rank sent. */
typedef struct wire {
    void *bytes[RANKS];
    size_t len[RANKS];
    int fail; /* the transfer fails */
    int damage; /* rank 0 gets rank 1's bytes cut short */
} wire;

/* One simulated process's end of the wire. */
typedef struct endpoint {
    wire *w;
    int rank;
} endpoint;

static int gather(void *user, const void *bytes, size_t len, void **parts, size_t *lens)
{
    const endpoint *e = user;
    wire *w = e->w;
    if (e->rank > 0) { /* keep what it sends */
        free(w->bytes[e->rank]);
        w->bytes[e->rank] = malloc(len ? len : 1);
        if (len) memcpy(w->bytes[e->rank], bytes, len);
        w->len[e->rank] = len;
        return w->fail;
    }
    for (int r = 1; r < RANKS; r++) {
        if (parts) {
            parts[r] = w->bytes[r];
            lens[r] = w->len[r] - (w->damage && r == 1 ? 9 : 0);
        } else {
            free(w->bytes[r]);
        }
        w->bytes[r] = NULL;
    }
    return w->fail;
}

/* The fit of rank 0 after ranks RANKS-1 .. 1 ran (rank r's options from
 * kv_other when r == 2 and it is given); its status, and its JSON. */
static int spread(const basel_data *d, const char *const *kv, const char *const *kv_other, wire *w, char **json,
                  basel_error *err)
{
    *json = NULL;
    for (int r = RANKS - 1; r >= 0; r--) {
        basel_options *o = check_options(r == 2 && kv_other ? kv_other : kv);
        endpoint e = {w, r};
        const basel_ranks ranks = {r, RANKS, gather, &e};
        basel_options_set_ranks(o, &ranks);
        basel_fit *f = NULL;
        const int rc = basel_fit_run(&f, d, o, err);
        basel_options_free(o);
        if (r == 0) {
            if (!rc) *json = basel_fit_to_json(f);
            basel_fit_free(f);
            return rc;
        }
        CHECK(rc == BASEL_ELSEWHERE && f == NULL, "rank %d: %d (%s)", r, rc, err->message);
        basel_fit_free(f);
    }
    return BASEL_EINTERNAL;
}

static void same_fit(const char *file, const char *label, const char *const *kv)
{
    basel_data *d = NULL;
    basel_error err;
    basel_options *o = check_options(kv);
    CHECK(!basel_data_read_csv(&d, file, basel_options_label_column(o), &err), "%s", err.message);
    basel_fit *one = NULL;
    CHECK(!basel_fit_run(&one, d, o, &err), "%s one process: %s", label, err.message);
    basel_options_free(o);
    char *want = one ? basel_fit_to_json(one) : NULL;
    wire w = {{0}, {0}, 0, 0};
    char *got = NULL;
    const int rc = spread(d, kv, NULL, &w, &got, &err);
    CHECK(rc == BASEL_OK && want && got && !strcmp(want, got), "%s: %d ranks differ from one process (%d %s)", label,
          RANKS, rc, rc ? err.message : "");
    basel_free(want);
    basel_free(got);
    basel_fit_free(one);
    basel_data_free(d);
}

/* A damaged message, another fit on rank 2, a failed transfer. */
static void refusals(void)
{
    basel_data *d = NULL;
    basel_error err;
    CHECK(!basel_data_read_csv(&d, "data/linear/lin_p15_n200.csv", NULL, &err), "%s", err.message);
    const char *kv[] = {"target", "y", "method", "rj", "chains", "4", "iter", "500", "seed", "3", NULL};
    const char *other[] = {"target", "y", "method", "rj", "chains", "4", "iter", "500", "seed", "4", NULL};
    char *got = NULL;
    wire w = {{0}, {0}, 0, 1};
    int rc = spread(d, kv, NULL, &w, &got, &err);
    CHECK(rc == BASEL_EINTERNAL && !got && strstr(err.message, "rank 1 are damaged"), "damaged: %d %s", rc,
          err.message);
    wire w2 = {{0}, {0}, 0, 0};
    rc = spread(d, kv, other, &w2, &got, &err);
    CHECK(rc == BASEL_EINVAL && !got && strstr(err.message, "rank 2 ran another fit"), "another fit: %d %s", rc,
          err.message);
    /* a transfer that fails: rank 0 says so (run alone here) */
    wire w3 = {{0}, {0}, 1, 0};
    basel_options *o = check_options(kv);
    endpoint e0 = {&w3, 0};
    const basel_ranks r0 = {0, RANKS, gather, &e0};
    basel_options_set_ranks(o, &r0);
    basel_fit *f = NULL;
    rc = basel_fit_run(&f, d, o, &err);
    CHECK(rc == BASEL_EIO && !f && strstr(err.message, "could not receive"), "transfer: %d %s", rc, err.message);
    basel_fit_free(f);
    basel_options_free(o);
    /* what pauses chains part-way runs in one process only */
    const char *ck[] = {"target", "y", "method", "rj", "chains", "4", "max-time", "10", NULL};
    o = check_options(ck);
    basel_options_set_ranks(o, &r0);
    rc = basel_fit_run(&f, d, o, &err);
    CHECK(rc == BASEL_EINVAL && !f && strstr(err.message, "run in one process"), "max-time: %d %s", rc, err.message);
    basel_options_free(o);
    basel_data_free(d);
}

int main(void)
{
    const char *lin = "data/linear/lin_p15_n200.csv";
    const char *rj[] = {"target", "y", "method", "rj", "chains", "5", "iter", "2000", "seed", "7", NULL};
    const char *bd[] = {"target", "y", "method", "bd", "chains", "5", "iter", "2000", "seed", "7", NULL};
    const char *ssvs[] = {"target", "y", "method", "ssvs", "chains", "5", "iter", "500", "seed", "7", NULL};
    const char *mix[] = {"method", "mixture", "chains", "4", "iter", "200", "seed", "7", NULL};
    const char *sinc = "data/regression/sinc_vermaak_train.csv";
    const char *rbf[] = {"method", "rbf", "target", "y", "inputs", "x", "chains", "4", "iter", "1000", "seed", "7", NULL};
    const char *ann[] = {"method", "anneal", "target", "y", "inputs", "x", "chains", "4", "iter", "1000", "seed", "7",
                         NULL};
    same_fit(lin, "rj", rj);
    same_fit(lin, "bd", bd);
    same_fit(lin, "ssvs", ssvs);
    same_fit("data/classification/pima.csv", "mixture", mix);
    same_fit(sinc, "rbf", rbf);
    same_fit(sinc, "anneal", ann);
    refusals();
    return check_report("test_ranks");
}
