/*
 * chains.c: the chain driver (chains.h). One OpenMP team; chains are handed
 * out in order from a shared counter (as schedule(dynamic, 1) would), each
 * runs to its end on one thread with its own seed, and the statuses are read
 * in chain order afterwards. Progress is a shared count of work units that
 * chains publish every 1/1024 of their work; only the calling thread (team
 * thread 0) turns it into calls of the user's callback, so a callback never
 * needs to be thread-safe. A callback that returns non-zero sets the stop
 * flag, which chains read at their next flush.
 */
#include "chains.h"
#include "ckpt.h"
#include "../io/io.h"

#include <errno.h>
#include <stdio.h>

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <zlib.h>

struct bsl_chains_shared {
    size_t done;      /* units published by all chains (atomic) */
    size_t next;      /* next entry of todo to hand out (atomic) */
    size_t finished;  /* entries of todo handed out and returned (under mu) */
    mtx_t mu;         /* guards finished; all_done is signalled when it reaches the round's chains */
    cnd_t all_done;
    int stop;         /* chains must return at their next boundary (atomic) */
    int why;          /* what stop means: STOP_* (atomic; the first reason wins) */
    double total;     /* chains x units */
    double last;      /* fraction at the last callback (thread 0 only) */
    double next_ckpt; /* wall time of the next checkpoint (thread 0 only; 0: none) */
    double deadline;  /* wall time at which --max-time stops the run (thread 0 only; 0: none) */
    double every;
    int can_pause;    /* checkpoints are possible (ckpt.io set) */
    int answered;     /* the callback has cancelled: it is not called again (thread 0 only) */
    bsl_progress_fn fn; /* (done, total units, user) */
    void *user;
};

enum { STOP_NONE = 0, STOP_CANCEL, STOP_INTERRUPT, STOP_PAUSE };
/* a chain's place in the run */
enum { CHAIN_NEW = 0, CHAIN_PAUSED = 1, CHAIN_DONE = 2 };
/* a chain's status while it has none: not run, or paused */
#define NOT_RUN 0x7fff

/* Progress reports below this step are skipped: at most ~1000 calls. */
#define REPORT_STEP 1e-3
/* How often the calling thread reports while it waits for other chains. */
#define POLL_NS 10000000L

unsigned long bsl_chain_seed(unsigned long seed, size_t chain)
{
    return bsl_mix_seed(seed, (unsigned long)chain);
}

static int stopped(bsl_chains_shared *sh)
{
    int s;
#pragma omp atomic read
    s = sh->stop;
    return s;
}

/* Ask the chains to stop for reason why (the first reason given wins, but
 * a cancel wins over everything and an interrupt over a pause). */
static void request_stop(bsl_chains_shared *sh, int why)
{
#pragma omp critical(bsl_chains_stop)
    {
        /* a cancel over everything, an interrupt over a checkpoint's pause
         * (a signal that arrives while the chains pause to save must end
         * the run after the save, not be lost with the pause) */
        if (sh->why == STOP_NONE || why == STOP_CANCEL || (why == STOP_INTERRUPT && sh->why == STOP_PAUSE))
            sh->why = why;
    }
#pragma omp atomic write
    sh->stop = 1;
}

/* Call the user's callback with the fraction done, rate-limited (force:
 * always); on the calling thread only. Also asks for a checkpoint when one
 * is due. */
static void report(bsl_chains_shared *sh, int force)
{
    if (sh->deadline > 0 && omp_get_wtime() >= sh->deadline) { /* --max-time: as an interrupt */
        sh->deadline = 0;
        request_stop(sh, STOP_INTERRUPT);
    }
    if (sh->next_ckpt > 0 && omp_get_wtime() >= sh->next_ckpt) {
        sh->next_ckpt = 0;
        request_stop(sh, STOP_PAUSE);
    }
    if (!sh->fn || sh->answered) return; /* a callback that cancelled hears no more */
    size_t done;
#pragma omp atomic read
    done = sh->done;
    double f = force ? 1.0 : sh->total > 0 ? (double)done / sh->total : 1.0;
    if (f > 1) f = 1;
    if (!force && f < sh->last + REPORT_STEP) return;
    sh->last = f;
    const int r = sh->fn(force || (double)done > sh->total ? sh->total : (double)done, sh->total, sh->user);
    if (r == BASEL_PROGRESS_STOP && sh->can_pause) request_stop(sh, STOP_INTERRUPT);
    else if (r) {
        request_stop(sh, STOP_CANCEL);
        sh->answered = 1; /* cancelled: the callback hears no more */
    }
}

int bsl_tick_flush(bsl_ticker *t)
{
    bsl_chains_shared *sh = t->sh;
    const size_t units = t->pending;
    t->pending = 0;
#pragma omp atomic update
    sh->done += units;
    if (omp_get_thread_num() == 0) report(sh, 0);
    t->stop = stopped(sh);
    return t->stop;
}

/* A chain of the round has returned: the last one wakes the waiting threads. */
static void chain_ended(bsl_chains_shared *sh, size_t chains)
{
    mtx_lock(&sh->mu);
    if (++sh->finished >= chains) cnd_broadcast(&sh->all_done);
    mtx_unlock(&sh->mu);
}

/* A thread out of chains to run waits for the others blocked, not at the
 * team's closing barrier, where libgomp spins (GOMP_SPINCOUNT) while the
 * last chain runs: 4 chains on 2 threads rarely end together, and the spin
 * was ~3 % of the CPU of an rj fit of 4 x 75000 moves (issue 34). The
 * calling thread (team thread 0) wakes every POLL_NS to report progress. */
static void wait_for_others(bsl_chains_shared *sh, size_t chains)
{
    const int reporter = omp_get_thread_num() == 0;
    mtx_lock(&sh->mu);
    while (sh->finished < chains) {
        if (!reporter) {
            cnd_wait(&sh->all_done, &sh->mu);
            continue;
        }
        mtx_unlock(&sh->mu);
        report(sh, 0);
        struct timespec until;
        timespec_get(&until, TIME_UTC);
        until.tv_nsec += POLL_NS;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        mtx_lock(&sh->mu);
        if (sh->finished < chains) cnd_timedwait(&sh->all_done, &sh->mu, &until);
    }
    mtx_unlock(&sh->mu);
}

/* One round: run (or continue) the chains todo[0..ntodo) until they end or
 * the run stops; a chain handed out after the stop is left as it was
 * (status[c] = NOT_RUN). */
static void run_team(bsl_chains *cs, bsl_chain_fn fn, void *ctx, bsl_chains_shared *sh,
                     const size_t *todo, size_t ntodo, const int *state, int *status, int threads)
{
    const size_t every = cs->units / 1024 > 0 ? cs->units / 1024 : 1;
    sh->next = sh->finished = 0;
#pragma omp parallel num_threads(threads)
    {
        bsl_ticker t = {0, every, 0, 0, NULL, sh};
        for (;;) {
            size_t i;
#pragma omp atomic capture
            i = sh->next++;
            if (i >= ntodo) break;
            const size_t c = todo[i];
            t.pending = 0;
            t.stop = stopped(sh);
            t.resumed = state[c] != CHAIN_NEW;
            t.trace = cs->traces ? &cs->traces[c] : NULL;
            status[c] = t.stop ? NOT_RUN : fn(ctx, c, bsl_chain_seed(cs->seed, c), &t);
            if (t.pending) bsl_tick_flush(&t);
            chain_ended(sh, ntodo);
        }
        wait_for_others(sh, ntodo);
    }
}

/* The traces' memory over all chains: beyond it a run keeps fewer
 * snapshots (never fewer than BSL_TRACE_MIN_LEN), so that a dictionary of
 * thousands of atoms does not pay hundreds of MB for its R-hat. */
#define BSL_TRACE_BUDGET ((size_t)64 << 20)
#define BSL_TRACE_MIN_LEN 100

static int alloc_traces(bsl_chains *cs)
{
    if (cs->trace_len == 0) return BASEL_OK;
    const size_t per_snapshot = (cs->trace_m + 1) * sizeof(double) * cs->chains;
    const size_t len = BSL_MAX(BSL_MIN(cs->trace_len, BSL_TRACE_BUDGET / per_snapshot), BSL_TRACE_MIN_LEN);
    if (!(cs->traces = bsl_calloc(cs->chains, sizeof *cs->traces))) return BASEL_ENOMEM;
    for (size_t c = 0; c < cs->chains; c++)
        if (bsl_trace_init(&cs->traces[c], cs->trace_m, cs->trace_iter, BSL_MIN(len, cs->trace_len)))
            return BASEL_ENOMEM;
    return BASEL_OK;
}

size_t bsl_chains_keep(bsl_chains *cs, const size_t *kept)
{
    size_t used = 0, len = SIZE_MAX;
    for (size_t c = 0; c < cs->chains; c++) {
        if (!kept[c]) {
            if (cs->traces) bsl_trace_free(&cs->traces[c]);
            continue;
        }
        if (cs->traces) {
            bsl_trace *t = &cs->traces[c];
            len = BSL_MIN(len, BSL_MIN(t->L, (kept[c] + t->step - 1) / t->step)); /* snapshots begun */
            cs->traces[used] = *t;
        }
        used++;
    }
    for (size_t c = 0; cs->traces && c < used; c++) bsl_trace_truncate(&cs->traces[c], len);
    cs->chains = used;
    return used;
}

void bsl_chains_free(bsl_chains *cs)
{
    for (size_t c = 0; cs->traces && c < cs->chains; c++) bsl_trace_free(&cs->traces[c]);
    free(cs->traces);
    cs->traces = NULL;
}

int bsl_chains_diagnostics(const bsl_chains *cs, double *rhat_pip, double *ess_pip,
                           double *ess_tail_pip, bsl_conv *size)
{
    if (!cs->traces) {
        for (size_t j = 0; j < cs->trace_m; j++) {
            rhat_pip[j] = ess_pip[j] = NAN;
            if (ess_tail_pip) ess_tail_pip[j] = NAN;
        }
        *size = (bsl_conv){NAN, NAN, NAN};
        return BASEL_OK;
    }
    const double **x = bsl_malloc(cs->chains, sizeof *x);
    const unsigned char **seen = bsl_malloc(cs->chains, sizeof *seen);
    if (!x || !seen) {
        free(x);
        free(seen);
        return BASEL_ENOMEM;
    }
    for (size_t c = 0; c < cs->chains; c++) x[c] = cs->traces[c].x, seen[c] = cs->traces[c].seen;
    const int rc = bsl_trace_diagnostics(x, seen, cs->chains, cs->traces[0].L, cs->trace_m, rhat_pip,
                                         ess_pip, ess_tail_pip, size);
    free(x);
    free(seen);
    return rc;
}

int bsl_chains_vs_diagnostics(const bsl_chains *cs, bsl_vs_result *res)
{
    res->rhat_pip = bsl_malloc(res->m, sizeof(double));
    res->ess_pip = bsl_malloc(res->m, sizeof(double));
    res->ess_tail_pip = bsl_malloc(res->m, sizeof(double));
    if (!res->rhat_pip || !res->ess_pip || !res->ess_tail_pip) return BASEL_ENOMEM;
    bsl_conv size;
    const int rc = bsl_chains_diagnostics(cs, res->rhat_pip, res->ess_pip, res->ess_tail_pip, &size);
    res->rhat_size = size.rhat;
    res->ess_size = size.ess_bulk;
    res->ess_tail_size = size.ess_tail;
    res->diag_draws = cs->traces ? cs->traces[0].L : 0;
    return rc;
}

int bsl_chains_append_draws(bsl_vs_result *res, bsl_vs_result *src)
{
    if (res->ndraws == 0 && !res->nspill) {
        res->nscalars = src->nscalars;
        memcpy(res->scalar_names, src->scalar_names, sizeof res->scalar_names);
    } else if (res->nscalars != src->nscalars) {
        return BASEL_EINVAL;
    }
    if (src->nspill || res->nspill) return bsl_vs_spill_take(res, src);
    for (size_t i = 0; i < src->ndraws; i++) {
        const size_t a = src->draw_start[i], b = src->draw_start[i + 1];
        if (bsl_vs_add_draw(res, src->draw_chain[i], src->draw_atoms + a, b - a,
                            src->nscalars ? src->draw_scalars + i * src->nscalars : NULL))
            return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

/* ------------------------------------------------------------ checkpoint files */

#define CK_MAGIC "BASELCKP"
#define CK_END "BASELEND"
/* 2: the format itself, the writer's version and a CRC-32 trailer (1 had a
 * layout word right after the magic, with the format in it); 3: a trace
 * holds only the rows of the atoms it recorded (ckpt.c bsl_ck_trace) */
#define CK_FORMAT 3u
#define CK_VERSION_LEN 32 /* BASEL_VERSION_STRING, NUL-padded */
#define CK_CHAIN_MARK 0x5ea1c4a1u
/* The smallest file: magic, format, version, layout, seed, run, the chains
 * and units done, the end and the checksum. */
#define CK_MIN_BYTES (8 + 4 + CK_VERSION_LEN + 8 + sizeof(long) + 8 + 2 * sizeof(size_t) + 8 + 4)

_Static_assert(sizeof BASEL_VERSION_STRING <= CK_VERSION_LEN, "the version does not fit the checkpoint's field");

/* The layout word: a file from a machine with another byte order or other
 * word sizes does not match. */
static unsigned long long layout_word(unsigned format)
{
    return 0x0102030405060708ULL ^ ((unsigned long long)sizeof(size_t) << 8) ^
           ((unsigned long long)sizeof(long) << 16) ^ (format == 1 ? 1ULL << 32 : 0);
}

/* A 32-bit value in 4 bytes, least significant first, whatever the machine
 * (the format and the checksum are read before the layout is known). */
static void put_le32(unsigned char *b, unsigned long v)
{
    for (int i = 0; i < 4; i++) b[i] = (unsigned char)(v >> (8 * i));
}
static unsigned long get_le32(const unsigned char *b)
{
    return (unsigned long)b[0] | (unsigned long)b[1] << 8 | (unsigned long)b[2] << 16 | (unsigned long)b[3] << 24;
}

/* What identifies a file: it must equal this run's to be continued. */
typedef struct ck_header {
    char magic[8];
    unsigned char format[4];
    char version[CK_VERSION_LEN];
    unsigned long long layout;
    unsigned long seed; /* readable without the run: bsl_chains_ckpt_seed */
    unsigned long long run_id;
} ck_header;

static ck_header this_header(const bsl_chains *cs)
{
    ck_header h = {{0}, {0}, {0}, layout_word(CK_FORMAT), cs->seed, cs->ckpt.run_id};
    memcpy(h.magic, CK_MAGIC, 8);
    put_le32(h.format, CK_FORMAT);
    memcpy(h.version, BASEL_VERSION_STRING, sizeof BASEL_VERSION_STRING);
    return h;
}

static void header_io(bsl_ck *k, ck_header *h)
{
    bsl_ck_bytes(k, h->magic, sizeof h->magic);
    bsl_ck_bytes(k, h->format, sizeof h->format);
    bsl_ck_bytes(k, h->version, sizeof h->version);
    bsl_ck_val(k, h->layout);
    bsl_ck_val(k, h->seed);
    bsl_ck_val(k, h->run_id);
}

/* Why a file's header (read whole and checksummed) is not this run's, or
 * NULL. The file's version is NUL-terminated by ck_read. */
static const char *header_mismatch(const ck_header *h, const ck_header *want, char *buf, size_t len)
{
    if (strcmp(h->version, want->version)) {
        snprintf(buf, len, "the checkpoint was written by basel %s; this basel (%s) cannot continue it", h->version,
                 want->version);
        return buf;
    }
    if (h->layout != want->layout)
        return "the checkpoint was written on another kind of machine (its byte order or word sizes differ)";
    if (h->seed != want->seed || h->run_id != want->run_id)
        return "the checkpoint is of another run (its options, data or seed differ)";
    return NULL;
}

/* Write or read the chains' part: their number and the units done, then
 * each chain, then the end. */
static void ck_chains(bsl_ck *k, bsl_chains *cs, bsl_chains_shared *sh, int *state, int *status, void *ctx)
{
    bsl_ck_expect(k, cs->chains);
    bsl_ck_val(k, sh->done);
    for (size_t c = 0; c < cs->chains && !k->rc; c++) {
        bsl_ck_val(k, state[c]);
        bsl_ck_val(k, status[c]);
        if (k->rc || state[c] == CHAIN_NEW) continue;
        if (state[c] != CHAIN_PAUSED && state[c] != CHAIN_DONE) k->rc = BASEL_EPARSE;
        if (cs->traces) bsl_ck_trace(k, &cs->traces[c]);
        cs->ckpt.io(ctx, c, k);
        unsigned mark = CK_CHAIN_MARK;
        bsl_ck_val(k, mark);
        if (!k->rc && mark != CK_CHAIN_MARK) k->rc = BASEL_EPARSE;
    }
    char magic[8];
    memcpy(magic, CK_END, 8);
    bsl_ck_bytes(k, magic, 8);
    if (!k->rc && memcmp(magic, CK_END, 8)) k->rc = BASEL_EPARSE;
}

int bsl_chains_ckpt_seed(const char *path, unsigned long *seed)
{
    FILE *f = fopen(path, "rb");
    if (!f) return BASEL_EIO;
    bsl_ck k = bsl_ck_reader(f);
    ck_header h;
    header_io(&k, &h);
    fclose(f);
    const int ok = !k.rc && !memcmp(h.magic, CK_MAGIC, 8) && get_le32(h.format) == CK_FORMAT &&
                   h.layout == layout_word(CK_FORMAT);
    if (ok) *seed = h.seed;
    return ok ? BASEL_OK : BASEL_EPARSE;
}

static int ck_write(bsl_chains *cs, bsl_chains_shared *sh, int *state, int *status, void *ctx)
{
    bsl_outfile out;
    int rc = bsl_out_open(&out, cs->ckpt.path, cs->err);
    if (rc) return rc;
    bsl_ck k = bsl_ck_writer(out.fp);
    ck_header h = this_header(cs);
    header_io(&k, &h);
    ck_chains(&k, cs, sh, state, status, ctx);
    unsigned char trailer[4];
    put_le32(trailer, k.crc); /* the checksum of every byte before it */
    if (!k.rc && fwrite(trailer, 1, 4, out.fp) != 4) {
        k.rc = BASEL_EIO;
        k.errnum = errno;
    }
    if (k.rc) {
        bsl_out_abort(&out);
        if (k.rc == BASEL_ENOMEM) return bsl_fail(cs->err, k.rc, "out of memory");
        if (k.rc != BASEL_EIO) /* a state the engine cannot save: the fit refuses such runs before they start */
            return bsl_fail(cs->err, BASEL_EINTERNAL, "a chain's state cannot be saved in a checkpoint (a bug: please report it)");
        return bsl_fail_at(cs->err, BASEL_EIO, cs->ckpt.path, 0, 0, "cannot write the checkpoint: %s",
                           strerror(k.errnum ? k.errnum : EIO));
    }
    return bsl_out_commit(&out, cs->err);
}

/* The checks of a file before any of it goes into a state: its magic, its
 * format, then the CRC-32 of everything before the trailer, so that a
 * damaged file (any single-bit flip, any burst of up to 32 bits, and all
 * but 2^-32 of other damage) is refused instead of read into the chains.
 * The file is read twice, so it must be seekable; it is left at its start. */
static int ck_verify(FILE *f, const char *path, basel_error *err)
{
    static const char damaged[] = "a damaged checkpoint: %s (it was changed or cut short after basel wrote it)";
    unsigned char head[8 + 8];
    const size_t got = fread(head, 1, sizeof head, f);
    if (got < 8 || memcmp(head, CK_MAGIC, 8)) return bsl_fail_at(err, BASEL_EPARSE, path, 0, 0, "not a basel checkpoint");
    if (got < 12) return bsl_fail_at(err, BASEL_EPARSE, path, 0, 0, damaged, "it ends inside its header");
    unsigned long long old = 0;
    if (got == sizeof head) memcpy(&old, head + 8, 8);
    if (old == layout_word(1))
        return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0,
                           "the checkpoint is of format 1, written by an earlier basel; this basel (%s) reads format %u",
                           BASEL_VERSION_STRING, CK_FORMAT);
    const unsigned long format = get_le32(head + 8);
    if (format != CK_FORMAT)
        return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0,
                           "the checkpoint is of format %lu, which this basel (%s, format %u) cannot read: another "
                           "version of basel wrote it, or it is damaged",
                           format, BASEL_VERSION_STRING, CK_FORMAT);
    long size;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot read the checkpoint twice (%s): it must be a regular file",
                           strerror(errno));
    if ((size_t)size < CK_MIN_BYTES)
        return bsl_fail_at(err, BASEL_EPARSE, path, 0, 0, damaged, "it is too short");
    unsigned long crc = 0;
    unsigned char buf[1 << 16];
    for (long left = size - 4; left > 0;) {
        const size_t n = (size_t)BSL_MIN(left, (long)sizeof buf);
        if (fread(buf, 1, n, f) != n) return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
        crc = crc32(crc, buf, (uInt)n);
        left -= (long)n;
    }
    if (fread(buf, 1, 4, f) != 4) return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
    if (get_le32(buf) != crc)
        return bsl_fail_at(err, BASEL_EPARSE, path, 0, 0, damaged, "its CRC-32 does not match its contents");
    if (fseek(f, 0, SEEK_SET) != 0) return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
    return BASEL_OK;
}

static int ck_read(bsl_chains *cs, bsl_chains_shared *sh, int *state, int *status, void *ctx)
{
    const char *path = cs->ckpt.restart;
    FILE *f = fopen(path, "rb");
    if (!f) return bsl_fail_at(cs->err, BASEL_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
    int rc = ck_verify(f, path, cs->err);
    if (rc) {
        fclose(f);
        return rc;
    }
    bsl_ck k = bsl_ck_reader(f);
    ck_header h, want = this_header(cs);
    header_io(&k, &h);
    h.version[CK_VERSION_LEN - 1] = '\0';
    char why[160];
    const char *mismatch = k.rc ? NULL : header_mismatch(&h, &want, why, sizeof why);
    if (mismatch) {
        fclose(f);
        return bsl_fail_at(cs->err, BASEL_EINVAL, path, 0, 0, "%s", mismatch);
    }
    ck_chains(&k, cs, sh, state, status, ctx);
    unsigned char trailer[4]; /* checked by ck_verify */
    bsl_ck_bytes(&k, trailer, 4);
    if (!k.rc && fgetc(f) != EOF) k.rc = BASEL_EPARSE;
    fclose(f);
    switch (k.rc) {
    case BASEL_OK: return BASEL_OK;
    case BASEL_ENOMEM: return bsl_fail(cs->err, k.rc, "out of memory");
    default: /* its checksum matched: a file made to match, or a layout this run does not expect */
        return bsl_fail_at(cs->err, k.rc, path, 0, 0, "not a basel checkpoint of this run, or a damaged one");
    }
}

/* ------------------------------------------------------------ the run */

/* After a round: what each chain's status means, given why the run stopped. */
static void settle(bsl_chains *cs, bsl_chains_shared *sh, int *state, int *status)
{
    const int paused = sh->why == STOP_PAUSE || sh->why == STOP_INTERRUPT;
    for (size_t c = 0; c < cs->chains; c++) {
        if (state[c] == CHAIN_DONE) continue;
        if (status[c] == NOT_RUN) continue; /* not run this round */
        if (status[c] == BASEL_ECANCELLED && paused) {
            state[c] = CHAIN_PAUSED;
            status[c] = NOT_RUN;
        } else {
            state[c] = CHAIN_DONE;
        }
    }
}

/* The first real failure in chain order, else cancelled, else OK. */
static int final_status(bsl_chains *cs, const bsl_chains_shared *sh, const int *status)
{
    for (size_t c = 0; c < cs->chains; c++)
        if (status[c] != BASEL_OK && status[c] != BASEL_ECANCELLED && status[c] != NOT_RUN) {
            cs->failed = c;
            return status[c];
        }
    for (size_t c = 0; c < cs->chains; c++)
        if (sh->why == STOP_CANCEL || status[c] == BASEL_ECANCELLED) {
            cs->failed = c;
            return BASEL_ECANCELLED;
        }
    return BASEL_OK;
}

/* Run rounds until every chain is done, writing checkpoints between them.
 *
 * --max-time with more chains than threads (and no checkpoint file): the
 * chains run `threads` at a time, each round with an equal share of the
 * time left, so that every chain runs (shorter) instead of the first ones
 * using all of it and the others never starting (which left a 4-chain run
 * on 2 threads with 2 chains, and no between-chain R-hat worth the name).
 * A round cut by its share leaves its chains paused; they are not resumed,
 * and the run ends as interrupted with every chain's part (cs->partial). */
static int run_rounds(bsl_chains *cs, bsl_chain_fn fn, void *ctx, bsl_chains_shared *sh,
                      int *state, int *status, size_t *todo, int threads)
{
    const int ckpt = cs->ckpt.io && cs->ckpt.path;
    const double end = sh->deadline;
    const int slice = end > 0 && !ckpt && cs->chains > (size_t)threads;
    int cut = 0; /* some round was cut by its share of the time */
    for (;;) {
        size_t ntodo = 0, fresh = 0;
        for (size_t c = 0; c < cs->chains; c++) {
            if (state[c] == CHAIN_DONE || (slice && state[c] != CHAIN_NEW)) continue;
            fresh++;
            if (!slice || ntodo < (size_t)threads) todo[ntodo++] = c;
            else status[c] = NOT_RUN; /* a later round's: settle() leaves it alone */
        }
        if (slice && ntodo == 0 && cut) { /* every chain ran its share */
            cs->partial = 1;
            return BASEL_INTERRUPTED;
        }
        if (ntodo == 0 || sh->why == STOP_CANCEL) return BASEL_OK;
        if (slice) { /* this round's share of the time left */
            const double now = omp_get_wtime();
            sh->deadline = now + fmax(0.0, end - now) * (double)ntodo / (double)fresh;
        }
        sh->stop = 0;
        sh->why = STOP_NONE;
        sh->next_ckpt = ckpt && cs->ckpt.every > 0 ? omp_get_wtime() + cs->ckpt.every : 0;
        run_team(cs, fn, ctx, sh, todo, ntodo, state, status, (int)BSL_MIN((size_t)threads, ntodo));
        settle(cs, sh, state, status);
        if (slice && sh->why == STOP_INTERRUPT && sh->deadline == 0) { /* the share ran out (report()) */
            cut = 1;
            continue;
        }
        if (sh->why != STOP_PAUSE && sh->why != STOP_INTERRUPT) continue;
        for (size_t c = 0; c < cs->chains; c++) /* a failure ends the run: no checkpoint of it */
            if (state[c] == CHAIN_DONE && status[c] != BASEL_OK) return BASEL_OK;
        if (ckpt) {
            int rc = ck_write(cs, sh, state, status, ctx);
            if (rc) {
                cs->reported = 1;
                return rc;
            }
        }
        if (sh->why == STOP_INTERRUPT) {
            if (!ckpt) { /* no state saved: the engine makes a fit of what was done */
                cs->partial = 1;
                return BASEL_INTERRUPTED;
            }
            cs->reported = 1;
            return bsl_fail(cs->err, BASEL_INTERRUPTED, "interrupted; the state is saved in %s", cs->ckpt.path);
        }
    }
}

int bsl_chains_run(bsl_chains *cs, bsl_chain_fn fn, void *ctx)
{
    cs->failed = 0;
    cs->seconds = 0;
    cs->traces = NULL;
    cs->reported = 0;
    cs->partial = 0;
    if (cs->chains == 0) return BASEL_EINVAL;
    int *status = bsl_calloc(cs->chains, sizeof *status), *state = bsl_calloc(cs->chains, sizeof *state);
    size_t *todo = bsl_calloc(cs->chains, sizeof *todo);
    if (!status || !state || !todo || alloc_traces(cs)) {
        free(status);
        free(state);
        free(todo);
        return BASEL_ENOMEM;
    }
    size_t mine = 0; /* the chains this process runs: all, or its rank's share */
    for (size_t c = 0; c < cs->chains; c++) {
        if (bsl_chains_mine(cs, c)) mine++;
        else state[c] = CHAIN_DONE; /* another rank's: it arrives at the end (status BASEL_OK) */
    }
    bsl_chains_shared sh = {0};
    sh.total = (double)mine * (double)cs->units;
    sh.can_pause = cs->ckpt.io != NULL;
    sh.fn = cs->progress;
    sh.user = cs->progress_user;
    const double t0 = omp_get_wtime();
    sh.deadline = cs->max_time > 0 && sh.can_pause ? t0 + cs->max_time : 0;
    int rc = BASEL_OK;
    /* a run killed while it wrote the checkpoint left a temporary beside it
     * (as large as the checkpoint); a run that ends before its first
     * checkpoint would never open the path to clean it */
    if (cs->ckpt.path) bsl_out_clean(cs->ckpt.path);
    if (cs->ckpt.io && cs->ckpt.restart && (rc = ck_read(cs, &sh, state, status, ctx))) cs->reported = 1;
    if (!rc) {
        const int r = sh.fn ? sh.fn(0.0, sh.total, sh.user) : 0;
        if (r == BASEL_PROGRESS_STOP && sh.can_pause) sh.why = STOP_INTERRUPT;
        else if (r) sh.why = STOP_CANCEL;
        sh.answered = sh.why == STOP_CANCEL;
    }
    int threads = cs->threads > 0 ? cs->threads : omp_get_max_threads();
    if ((size_t)threads > cs->chains) threads = (int)cs->chains;
    if (!rc && sh.why == STOP_INTERRUPT) { /* stopped before any work: nothing new to save */
        cs->partial = !(cs->ckpt.path);
        cs->reported = !cs->partial;
        rc = cs->partial ? BASEL_INTERRUPTED : bsl_fail(cs->err, BASEL_INTERRUPTED, "interrupted");
    }
    int sync = 0; /* sh.mu and sh.all_done made */
    if (!rc && sh.why != STOP_CANCEL) {
        if (mtx_init(&sh.mu, mtx_plain) != thrd_success) {
            rc = bsl_fail(cs->err, BASEL_ENOMEM, "cannot make the chains' lock");
        } else if (cnd_init(&sh.all_done) != thrd_success) {
            mtx_destroy(&sh.mu);
            rc = bsl_fail(cs->err, BASEL_ENOMEM, "cannot make the chains' lock");
        } else {
            sync = 1;
        }
    }
    if (!rc && sh.why != STOP_CANCEL) rc = run_rounds(cs, fn, ctx, &sh, state, status, todo, threads);
    if (sync) {
        cnd_destroy(&sh.all_done);
        mtx_destroy(&sh.mu);
    }
    sh.next_ckpt = 0;
    if (!rc && sh.why != STOP_CANCEL && sh.last < 1) report(&sh, 1);
    if (bsl_chains_spread(cs)) {
        rc = bsl_chains_gather(cs, rc, state, status, ctx);
        for (size_t c = 0; rc == BASEL_OK && c < cs->chains; c++)
            if (state[c] == CHAIN_PAUSED) { /* another rank was interrupted: a fit of what was done */
                cs->partial = 1;
                rc = BASEL_INTERRUPTED;
            }
    }
    cs->seconds = omp_get_wtime() - t0;
    if (!rc) {
        if (sh.why == STOP_CANCEL)
            for (size_t c = 0; c < cs->chains; c++)
                if (state[c] != CHAIN_DONE) status[c] = BASEL_ECANCELLED;
        rc = final_status(cs, &sh, status);
    }
    free(status);
    free(state);
    free(todo);
    return rc;
}
