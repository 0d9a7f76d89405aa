/*
 * chains.h: the one chain driver of every MCMC engine (DESIGN.md "Engine").
 * It owns what the engines used to do each in their own way: the per-chain
 * seeds, the OpenMP team, progress reports, cancel, the order in which
 * chains' statuses are read, the per-chain traces behind R-hat and ESS, and
 * the generic parts of the merge (draws, in chain order). The engine keeps
 * its moves, its per-chain state and its own sums, which it merges in chain
 * order after bsl_chains_run returns.
 *
 *     bsl_chains cs = {.chains = 4, .threads = 0, .seed = seed, .units = burn + iter,
 *                      .progress = fn, .progress_user = user};
 *     int rc = bsl_chains_run(&cs, run_one_chain, &ctx);
 *
 * run_one_chain(ctx, chain, chain_seed, ticker) seeds its own generator with
 * chain_seed, runs, and calls bsl_tick(ticker, units) as it goes (cheap: an
 * addition, and a shared-counter update every 1/1024 of the chain's work);
 * bsl_tick returns non-zero once the fit is cancelled, and the chain then
 * returns BASEL_ECANCELLED as soon as it can.
 *
 * Checkpoints. With cs->ckpt.io set, chains can stop at a boundary and go
 * on later, in this process or another: bsl_tick is called only where the
 * chain's state is complete (between blocks or iterations), and when it
 * returns non-zero the chain returns BASEL_ECANCELLED leaving its state as
 * it is. The driver then decides: a cancel ends the run; a pause (a
 * checkpoint is due every ckpt.every seconds) writes every chain's state
 * with ckpt.io into ckpt.path (atomically) and runs the chains again; an
 * interrupt (the progress callback returned BASEL_PROGRESS_STOP) writes
 * the state when there is a path and returns BASEL_INTERRUPTED. A chain run
 * again, or read back from ckpt.restart, is called with ticker->resumed set:
 * it must not seed or initialise, only continue from its state (its
 * position included). Since a chain's state is saved bit for bit and its
 * generator with it, a run stopped and resumed any number of times computes
 * exactly what the uninterrupted run computes.
 *
 * The file: "BASELCKP", its format, the writer's version, a layout word
 * (endianness, sizeof(size_t), sizeof(long)), the seed, the run's identity
 * (ckpt.run_id: options and data; a file of another run is refused), the
 * number of chains and the units done, then per chain its state (0 not
 * started, 1 paused, 2 finished and its status), the driver's trace
 * (trace_len > 0) and ckpt.io's bytes, each chain ended by a marker,
 * "BASELEND" and the CRC-32 of all of it, checked before anything is read
 * into a chain (a damaged file is refused, never continued).
 *
 * Invariants:
 *  - chain c's generator is seeded with bsl_chain_seed(seed, c), whatever
 *    thread runs it, and a chain touches only its own state, so a result
 *    merged in chain order does not depend on the number of threads;
 *  - the user's callback runs on the calling thread only (OpenMP thread 0
 *    of the driver's team, the thread that called bsl_chains_run): once with
 *    0 before any chain starts, then at most about once per 1/1000 of the
 *    total work (rate-limited, monotone), and with 1 after the last chain
 *    finished; when the calling thread has no chain left to run it keeps
 *    reporting (polling every 10 ms) until the others finish. A non-zero
 *    return at any of these calls cancels the run;
 *  - a failing chain does not stop the others (so which error is reported
 *    does not depend on the thread count); the status returned is the first
 *    failure in chain order that is not a cancellation, else
 *    BASEL_ECANCELLED if the run was cancelled, else BASEL_OK.
 */
#ifndef BSL_CHAINS_H
#define BSL_CHAINS_H

#include "../core/core.h"
#include "../summary/summary.h"

#include <stddef.h>

typedef struct bsl_chains_shared bsl_chains_shared;

/* A chain's handle on the driver's progress and cancel state; owned by the
 * driver, used by one chain (one thread) at a time. */
typedef struct bsl_ticker {
    size_t pending;         /* units ticked since the last flush */
    size_t every;           /* flush once pending reaches this */
    int stop;               /* the run is cancelled, paused or interrupted */
    int resumed;            /* the chain continues from its state: do not seed or initialise */
    bsl_trace *trace;       /* this chain's trace (bsl_chains.trace_len > 0), else NULL */
    bsl_chains_shared *sh;
} bsl_ticker;

struct bsl_ck;
/* Checkpoints (see above); all optional. */
typedef struct bsl_chains_ckpt {
    const char *path;       /* write the state here (NULL: never) */
    double every;           /* seconds between writes (0: only when interrupted) */
    const char *restart;    /* start from this checkpoint (NULL: from the seeds) */
    unsigned long long run_id; /* the run's identity (options and data) */
    /* write or read chain's state (ckpt.h; k->load says which); NULL: the
     * engine cannot checkpoint, and a callback's BASEL_PROGRESS_STOP
     * cancels */
    void (*io)(void *ctx, size_t chain, struct bsl_ck *k);
} bsl_chains_ckpt;

typedef struct bsl_chains {
    size_t chains;          /* >= 1 */
    /* > 0: once this many wall seconds have passed the run stops at the
     * chains' next boundary as if interrupted (needs ckpt.io: a fit of what
     * was done, cs->partial), the --max-time budget */
    double max_time;
    int threads;            /* OpenMP threads; 0 = the OpenMP default (capped at chains) */
    unsigned long seed;     /* chain c gets bsl_chain_seed(seed, c) */
    size_t units;           /* work units per chain: the progress denominator */
    bsl_progress_fn progress; /* (done, total units, user), may be NULL */
    void *progress_user;
    /* Optional per-chain traces for R-hat / ESS (summary.h bsl_trace): with
     * trace_len > 0 each chain gets a trace of trace_m indicators and the
     * size over trace_iter post-burn iterations, at most trace_len
     * snapshots (fewer, down to 100, when all chains' traces would pass
     * 64 MiB), as ticker->trace; bsl_chains_vs_diagnostics reads them. */
    size_t trace_m, trace_iter, trace_len;
    bsl_chains_ckpt ckpt;
    /* Chains over processes (basel.h basel_ranks; chains_ranks.c), NULL:
     * one process. With size > 1 and ckpt.io set, chain c runs only on
     * rank c mod size; rank 0 gets the others' states at the end and
     * returns as a one-process run would, the other ranks return
     * BASEL_ELSEWHERE (cs->reported). Without ckpt.io every rank runs every
     * chain. Not with checkpoint files or max_time (the fit refuses them). */
    const basel_ranks *ranks;
    basel_error *err;       /* for the driver's own failures (checkpoint files), or NULL */
    /* out */
    int reported;           /* the driver filled err (the engine adds nothing) */
    /* BASEL_INTERRUPTED without a checkpoint path: the chains stopped at a
     * boundary (or never started) and their states hold what they did; the
     * engine may make a fit of that, marked interrupted (bsl_chains_keep,
     * bsl_result_interrupted), or report BASEL_INTERRUPTED itself */
    int partial;
    size_t failed;          /* the chain whose status bsl_chains_run returned */
    double seconds;         /* wall-clock time of the chains */
    bsl_trace *traces;      /* chains of them, or NULL; freed by bsl_chains_free */
} bsl_chains;

/* Run one chain: seed its generator with seed, tick as it goes; returns
 * BASEL_OK, BASEL_ECANCELLED (after bsl_tick returned non-zero) or an error. */
typedef int (*bsl_chain_fn)(void *ctx, size_t chain, unsigned long seed, bsl_ticker *t);

/* Run fn for every chain on an OpenMP team (chains handed out one at a time
 * in order, as schedule(dynamic, 1)); see the invariants above for the
 * status returned. BASEL_EINVAL when chains is 0, BASEL_ENOMEM; with
 * checkpoints also BASEL_INTERRUPTED, and BASEL_EIO / BASEL_EPARSE /
 * BASEL_EINVAL for a checkpoint that cannot be written or read (cs->err
 * filled, cs->reported set). Thread-safe when fn is. */
int bsl_chains_run(bsl_chains *cs, bsl_chain_fn fn, void *ctx);

/* Rank-normalised split R-hat, bulk and tail ESS (summary.h bsl_conv_of)
 * of each of the trace_m indicators (rhat_pip, ess_pip, ess_tail_pip:
 * trace_m each; ess_tail_pip may be NULL) and of the size, from the
 * chains' traces (bsl_trace_diagnostics); NaN without traces or with
 * fewer than 4 snapshots. BASEL_ENOMEM. */
int bsl_chains_diagnostics(const bsl_chains *cs, double *rhat_pip, double *ess_pip,
                           double *ess_tail_pip, bsl_conv *size);
/* The same into res->rhat_pip, res->ess_pip, res->ess_tail_pip (allocated
 * here, res->m = trace_m each), res->rhat_size, res->ess_size (bulk) and
 * res->ess_tail_size. BASEL_ENOMEM. */
int bsl_chains_vs_diagnostics(const bsl_chains *cs, bsl_vs_result *res);

/* The seed of the run saved in the checkpoint at path (for a restart that
 * names no seed). BASEL_EIO, BASEL_EPARSE (not a checkpoint of this build). */
int bsl_chains_ckpt_seed(const char *path, unsigned long *seed);

/* After a partial run (cs->partial): keep the chains that kept at least
 * one post-burn iteration (kept[c], in the units of trace_iter), in chain
 * order, and cut their traces to the snapshots every one of them has begun,
 * so that bsl_chains_diagnostics reads what was done. cs->chains becomes
 * their number, which is returned (0: nothing to make a fit of). */
size_t bsl_chains_keep(bsl_chains *cs, const size_t *kept);

/* Release what bsl_chains_run kept (the traces, when trace_len > 0): call
 * it after such a run, whatever it returned. */
void bsl_chains_free(bsl_chains *cs);

/* Merging, in chain order: append one chain's draws (a bsl_vs_result
 * holding that chain's draws, as the chains keep them) to res, keeping
 * their chain numbers; res takes src's scalar columns when it has no draws
 * yet. Streamed draws (bsl_vs_spill_begin) are moved, not copied: res
 * takes src's temporary file. BASEL_ENOMEM, BASEL_EIO; BASEL_EINVAL if the
 * scalar columns differ. */
int bsl_chains_append_draws(bsl_vs_result *res, bsl_vs_result *src);


/* The driver's own (chains_ranks.c): whether cs runs across processes;
 * whether chain runs in this process; after the run, send this rank's
 * chains to rank 0 (ranks > 0: BASEL_ELSEWHERE) or load the others' there
 * (rank 0: run_rc, or a failure to receive them), state and status being
 * the driver's per-chain arrays. */
int bsl_chains_spread(const bsl_chains *cs);
int bsl_chains_mine(const bsl_chains *cs, size_t chain);
int bsl_chains_gather(bsl_chains *cs, int run_rc, int *state, int *status, void *ctx);

/* The seed of chain c: splitmix of (seed, c) (bsl_mix_seed). */
unsigned long bsl_chain_seed(unsigned long seed, size_t chain);

/* Slow path of bsl_tick: publish the pending units, report progress if on
 * the calling thread, read the cancel flag. */
int bsl_tick_flush(bsl_ticker *t);

/* Record units of work done; non-zero once the run is cancelled. */
static inline int bsl_tick(bsl_ticker *t, size_t units)
{
    t->pending += units;
    return t->pending >= t->every ? bsl_tick_flush(t) : t->stop;
}

#endif
