/*
 * chains_ranks.c: the chain driver's chains over processes (chains.h
 * bsl_chains.ranks, basel.h basel_ranks). The library holds no MPI: the
 * caller (the command line's MPI build, src/cli/cli_par_mpi.c) hands it a
 * rank, a size and one collective, gather.
 *
 * Every process runs the same fit: same data, options and seed, so every
 * engine initialises every chain identically. Chain c belongs to rank
 * c mod size; the others are marked finished before the run and never
 * start here. Afterwards each rank saves its chains exactly as a checkpoint
 * does (the engine's ckpt.io: generator, model, sums, visited models,
 * draws, bit for bit) into memory and gathers the bytes on rank 0, which
 * loads them into its own never-run copies of those chains. Rank 0 then
 * holds, chain for chain, the states a one-process run ends with, and the
 * engine merges them in chain order: FIT.json is byte-identical to the
 * one-process fit (tests/mpi/test_mpi.sh).
 *
 * The message of one rank: a magic word, the rank, the run's identity
 * (ckpt.run_id: settings, seed and data; a rank that read other data or
 * options is refused), its run's status, the
 * number of chains in it, then per chain its number, place (chains.c
 * CHAIN_*), status, trace (when the run keeps traces) and the engine's
 * bytes, and an end word.
 */
#include "chains.h"
#include "ckpt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RK_MAGIC 0x6b6e6172u /* "rank" */
#define RK_END 0x646e6521u

int bsl_chains_spread(const bsl_chains *cs)
{
    return cs->ranks && cs->ranks->size > 1 && cs->ckpt.io != NULL;
}

int bsl_chains_mine(const bsl_chains *cs, size_t chain)
{
    return !bsl_chains_spread(cs) || chain % (size_t)cs->ranks->size == (size_t)cs->ranks->rank;
}

/* One chain's part of a message: written, or read into chain *c's state. */
static void chain_part(bsl_ck *k, bsl_chains *cs, size_t c, int *state, int *status, void *ctx)
{
    bsl_ck_val(k, state[c]);
    bsl_ck_val(k, status[c]);
    if (cs->traces) bsl_ck_trace(k, &cs->traces[c]);
    cs->ckpt.io(ctx, c, k);
}

/* This rank's chains, as bytes (malloc'd in *buf). */
static int pack(bsl_chains *cs, int run_rc, int *state, int *status, void *ctx, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    FILE *f = open_memstream(buf, len);
    if (!f) return BASEL_ENOMEM;
    bsl_ck k = bsl_ck_writer(f);
    unsigned magic = RK_MAGIC, end = RK_END;
    int rank = cs->ranks->rank;
    size_t mine = 0;
    for (size_t c = 0; c < cs->chains; c++) mine += bsl_chains_mine(cs, c);
    unsigned long long id = cs->ckpt.run_id;
    bsl_ck_val(&k, magic);
    bsl_ck_val(&k, rank);
    bsl_ck_val(&k, id);
    bsl_ck_val(&k, run_rc);
    bsl_ck_val(&k, mine);
    for (size_t c = 0; c < cs->chains && !k.rc; c++) {
        if (!bsl_chains_mine(cs, c)) continue;
        size_t cc = c;
        bsl_ck_val(&k, cc);
        chain_part(&k, cs, c, state, status, ctx);
    }
    bsl_ck_val(&k, end);
    if (fclose(f) && !k.rc) k.rc = BASEL_ENOMEM;
    if (k.rc) {
        free(*buf);
        *buf = NULL;
    }
    return k.rc ? BASEL_ENOMEM : BASEL_OK;
}

/* Read rank r's bytes into the chains it ran; its run's status in *run_rc. */
static int unpack(bsl_chains *cs, int r, const void *bytes, size_t len, int *state, int *status, void *ctx,
                  int *run_rc)
{
    FILE *f = len ? fmemopen((void *)bytes, len, "rb") : NULL;
    if (!f) return BASEL_EPARSE;
    bsl_ck k = bsl_ck_reader(f);
    unsigned magic = 0, end = 0;
    int rank = -1;
    size_t n = 0;
    unsigned long long id = 0;
    bsl_ck_val(&k, magic);
    bsl_ck_val(&k, rank);
    bsl_ck_val(&k, id);
    bsl_ck_val(&k, *run_rc);
    bsl_ck_val(&k, n);
    if (!k.rc && (magic != RK_MAGIC || rank != r || n > cs->chains)) k.rc = BASEL_EPARSE;
    if (!k.rc && id != cs->ckpt.run_id) k.rc = BASEL_EINVAL; /* another fit: options, seed or data differ */
    for (size_t i = 0; i < n && !k.rc; i++) {
        size_t c = cs->chains;
        bsl_ck_val(&k, c);
        if (!k.rc && (c >= cs->chains || c % (size_t)cs->ranks->size != (size_t)r)) k.rc = BASEL_EPARSE;
        if (!k.rc) chain_part(&k, cs, c, state, status, ctx);
    }
    bsl_ck_val(&k, end);
    if (!k.rc && (end != RK_END || fgetc(f) != EOF)) k.rc = BASEL_EPARSE;
    fclose(f);
    return k.rc;
}

/* Rank 0: every other rank's chains into this process's states. */
static int collect(bsl_chains *cs, int *state, int *status, void *ctx, void **parts, size_t *lens)
{
    const int size = cs->ranks->size;
    for (int r = 1; r < size; r++) {
        int run_rc = BASEL_OK;
        const int rc = unpack(cs, r, parts[r], lens[r], state, status, ctx, &run_rc);
        if (rc == BASEL_ENOMEM) return bsl_fail(cs->err, rc, "out of memory reading the chains of rank %d", r);
        if (rc == BASEL_EINVAL)
            return bsl_fail(cs->err, rc, "rank %d ran another fit: every process needs the same data, options and seed", r);
        if (rc) return bsl_fail(cs->err, BASEL_EINTERNAL, "the chains sent by rank %d are damaged", r);
        if (run_rc < 0 && run_rc != BASEL_ECANCELLED)
            return bsl_fail(cs->err, run_rc, "rank %d: its chains could not run (%s)", r, basel_status_str(run_rc));
    }
    return BASEL_OK;
}

int bsl_chains_gather(bsl_chains *cs, int run_rc, int *state, int *status, void *ctx)
{
    const basel_ranks *rk = cs->ranks;
    char *mine = NULL;
    size_t len = 0;
    int rc = rk->rank == 0 ? BASEL_OK : pack(cs, run_rc, state, status, ctx, &mine, &len);
    /* Every rank calls gather once, whatever happened here, so that no
     * rank waits for one that has given up: a rank that cannot pack its
     * chains sends nothing, which rank 0 reads as damaged. */
    void **parts = NULL;
    size_t *lens = NULL;
    if (rk->rank == 0) {
        parts = bsl_calloc((size_t)rk->size, sizeof *parts);
        lens = bsl_calloc((size_t)rk->size, sizeof *lens);
        if (!parts || !lens) rc = BASEL_ENOMEM;
    }
    const int sent = rk->gather(rk->user, mine, len, parts, lens);
    free(mine);
    cs->reported = 1;
    if (rk->rank != 0) {
        if (rc) return bsl_fail(cs->err, rc, "out of memory saving this rank's chains");
        if (sent) return bsl_fail(cs->err, BASEL_EIO, "rank %d could not send its chains to rank 0", rk->rank);
        return bsl_fail(cs->err, BASEL_ELSEWHERE, "the chains of rank %d went to rank 0", rk->rank);
    }
    if (!rc && sent) rc = bsl_fail(cs->err, BASEL_EIO, "rank 0 could not receive the other ranks' chains");
    else if (rc) bsl_fail(cs->err, rc, "out of memory");
    if (!rc) rc = collect(cs, state, status, ctx, parts, lens);
    for (int r = 0; parts && r < rk->size; r++) free(parts[r]);
    free(parts);
    free(lens);
    if (rc) return rc;
    cs->reported = 0;
    return run_rc;
}
