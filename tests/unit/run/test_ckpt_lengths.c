/*
 * test_ckpt_lengths.c: a checkpoint's lengths are bounded by the bytes left
 * in it (src/run/ckpt.c bsl_ck_reader). tools/fuzz.sh's fuzz_ckpt found a
 * file whose checksum had been made to match and whose stored length asked
 * realloc for 2^55 bytes; AddressSanitizer stops there, and without it a
 * length a little smaller is a real allocation of many GB. Here a visited
 * model set and a chain's draws are written through bsl_ck_writer, read
 * back through bsl_ck_reader (the same models and draws), and read again
 * with each stored length replaced by 2^55 and by the largest length the
 * bytes could not hold: BASEL_EPARSE every time, with nothing allocated for
 * it (under tools/test.sh's ASan stage a huge allocation fails the test).
 */
#include "check.h"
#include "run/ckpt.h"
#include "summary/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 6 /* inputs */

static void put_size(char *buf, size_t at, size_t v)
{
    memcpy(buf + at, &v, sizeof v);
}

/* A set of three models, written; its bytes in *buf (malloc'd). */
static size_t write_set(char **buf)
{
    bsl_modelset s;
    CHECK(bsl_modelset_init(&s, 0) == 0, "bsl_modelset_init(&s, 0) == 0");
    const size_t a[] = {0, 2}, b[] = {1}, c[] = {3, 4, 5};
    CHECK(bsl_modelset_add(&s, a, 2, 0.5, -1.0) == 0, "bsl_modelset_add(&s, a, 2, 0.5, -1.0) == 0");
    CHECK(bsl_modelset_add(&s, b, 1, 0.25, -2.0) == 0, "bsl_modelset_add(&s, b, 1, 0.25, -2.0) == 0");
    CHECK(bsl_modelset_add(&s, c, 3, 0.25, -3.0) == 0, "bsl_modelset_add(&s, c, 3, 0.25, -3.0) == 0");
    size_t len = 0;
    FILE *f = open_memstream(buf, &len);
    CHECK(f != NULL, "f != NULL");
    bsl_ck k = bsl_ck_writer(f);
    bsl_ck_modelset(&k, &s, M);
    CHECK(k.rc == BASEL_OK, "k.rc == BASEL_OK");
    CHECK(fclose(f) == 0, "fclose(f) == 0");
    bsl_modelset_free(&s);
    return len;
}

/* Read a set from the bytes; its status, and its number of models in *n. */
static int read_set(const char *buf, size_t len, size_t *n)
{
    bsl_modelset s;
    CHECK(bsl_modelset_init(&s, 0) == 0, "bsl_modelset_init(&s, 0) == 0");
    FILE *f = fmemopen((void *)buf, len, "rb");
    CHECK(f != NULL, "f != NULL");
    bsl_ck k = bsl_ck_reader(f);
    CHECK(k.rc == BASEL_OK && k.left == len, "k.rc == BASEL_OK && k.left == len");
    bsl_ck_modelset(&k, &s, M);
    fclose(f);
    *n = s.n;
    bsl_modelset_free(&s);
    return k.rc;
}

static void model_set(void)
{
    char *buf = NULL;
    const size_t len = write_set(&buf);
    size_t n = 0;
    CHECK(read_set(buf, len, &n) == BASEL_OK && n == 3, "read_set(buf, len, &n) == BASEL_OK && n == 3");
    /* the three lengths lead: n, nslots, arena_len (ckpt.c bsl_ck_modelset) */
    for (size_t field = 0; field < 3; field++) {
        char *bad = malloc(len);
        CHECK(bad != NULL, "bad != NULL");
        const size_t huge[] = {(size_t)1 << 55, len / sizeof(size_t) + 1};
        for (size_t h = 0; h < 2; h++) {
            memcpy(bad, buf, len);
            size_t v = huge[h];
            if (field == 1) v = (size_t)1 << 60; /* nslots must stay a power of two to reach the allocation */
            put_size(bad, field * sizeof(size_t), v);
            CHECK(read_set(bad, len, &n) == BASEL_EPARSE, "read_set(bad, len, &n) == BASEL_EPARSE");
        }
        free(bad);
    }
    free(buf);
}

static void draws(void)
{
    bsl_vs_result r;
    CHECK(bsl_vs_result_init(&r, M, 1, M, 1) == 0, "bsl_vs_result_init(&r, M, 1, M, 1) == 0");
    const size_t a[] = {1, 4};
    r.ndraws = 2;
    r.draw_chain = calloc(2, sizeof *r.draw_chain);
    r.draw_start = calloc(3, sizeof *r.draw_start);
    r.draw_atoms = calloc(2, sizeof *r.draw_atoms);
    CHECK(r.draw_chain && r.draw_start && r.draw_atoms, "r.draw_chain && r.draw_start && r.draw_atoms");
    r.draws_cap = 2;
    r.draw_start_cap = 3;
    r.draw_atoms_cap = 2;
    r.draw_atoms_len = 2;
    r.draw_start[1] = 2;
    r.draw_start[2] = 2;
    memcpy(r.draw_atoms, a, sizeof a);
    if (r.nscalars) {
        r.draw_scalars = calloc(2 * r.nscalars, sizeof(double));
        CHECK(r.draw_scalars != NULL, "r.draw_scalars != NULL");
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL, "f != NULL");
    bsl_ck k = bsl_ck_writer(f);
    bsl_ck_draws(&k, &r);
    CHECK(k.rc == BASEL_OK, "k.rc == BASEL_OK");
    CHECK(fclose(f) == 0, "fclose(f) == 0");
    bsl_vs_result_free(&r);

    /* nspill, then ndraws, then draw_atoms_len lead (ckpt.c bsl_ck_draws) */
    for (int pass = 0; pass < 3; pass++) {
        char *copy = malloc(len);
        CHECK(copy != NULL, "copy != NULL");
        memcpy(copy, buf, len);
        if (pass == 1) put_size(copy, sizeof(size_t), (size_t)1 << 55);
        if (pass == 2) put_size(copy, 2 * sizeof(size_t), (size_t)1 << 55);
        bsl_vs_result q;
        CHECK(bsl_vs_result_init(&q, M, 1, M, 1) == 0, "bsl_vs_result_init(&q, M, 1, M, 1) == 0");
        f = fmemopen(copy, len, "rb");
        CHECK(f != NULL, "f != NULL");
        k = bsl_ck_reader(f);
        bsl_ck_draws(&k, &q);
        fclose(f);
        if (pass == 0) {
            CHECK(k.rc == BASEL_OK && q.ndraws == 2 && q.draw_atoms_len == 2, "k.rc == BASEL_OK && q.ndraws == 2 && q.draw_atoms_len == 2");
            CHECK(q.draw_atoms[0] == 1 && q.draw_atoms[1] == 4 && q.draw_start[1] == 2, "q.draw_atoms[0] == 1 && q.draw_atoms[1] == 4 && q.draw_start");
        } else {
            CHECK(k.rc == BASEL_EPARSE, "k.rc == BASEL_EPARSE");
        }
        bsl_vs_result_free(&q);
        free(copy);
    }
    free(buf);
}

int main(void)
{
    model_set();
    draws();
    return check_report("test_ckpt_lengths");
}
