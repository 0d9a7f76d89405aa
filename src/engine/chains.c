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

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bsl_chains_shared {
    size_t done;      /* units published by all chains (atomic) */
    size_t next;      /* next chain to hand out (atomic) */
    size_t finished;  /* chains that returned (atomic) */
    int stop;         /* cancelled (atomic) */
    double total;     /* chains x units */
    double last;      /* fraction at the last callback (thread 0 only) */
    bsl_progress_fn fn; /* (done, total units, user) */
    void *user;
};

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

/* Call the user's callback with the fraction done, rate-limited (force:
 * always); on the calling thread only. */
static void report(bsl_chains_shared *sh, int force)
{
    if (!sh->fn) return;
    size_t done;
#pragma omp atomic read
    done = sh->done;
    double f = force ? 1.0 : sh->total > 0 ? (double)done / sh->total : 1.0;
    if (f > 1) f = 1;
    if (!force && f < sh->last + REPORT_STEP) return;
    sh->last = f;
    if (sh->fn(force || (double)done > sh->total ? sh->total : (double)done, sh->total, sh->user)) {
#pragma omp atomic write
        sh->stop = 1;
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

/* The calling thread, out of chains to run: keep reporting until the
 * others finish. */
static void wait_for_others(bsl_chains_shared *sh, size_t chains)
{
    const struct timespec pause = {0, POLL_NS};
    for (;;) {
        size_t fin;
#pragma omp atomic read
        fin = sh->finished;
        if (fin >= chains) return;
        report(sh, 0);
        nanosleep(&pause, NULL);
    }
}

static void run_team(bsl_chains *cs, bsl_chain_fn fn, void *ctx, bsl_chains_shared *sh,
                     int *status, int threads)
{
    const size_t every = cs->units / 1024 > 0 ? cs->units / 1024 : 1;
#pragma omp parallel num_threads(threads)
    {
        bsl_ticker t = {0, every, 0, NULL, sh};
        for (;;) {
            size_t c;
#pragma omp atomic capture
            c = sh->next++;
            if (c >= cs->chains) break;
            t.pending = 0;
            t.stop = stopped(sh);
            t.trace = cs->traces ? &cs->traces[c] : NULL;
            status[c] = t.stop ? BASEL_ECANCELLED : fn(ctx, c, bsl_chain_seed(cs->seed, c), &t);
            if (t.pending) bsl_tick_flush(&t);
#pragma omp atomic update
            sh->finished++;
        }
        if (omp_get_thread_num() == 0) wait_for_others(sh, cs->chains);
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
    if (!x) return BASEL_ENOMEM;
    for (size_t c = 0; c < cs->chains; c++) x[c] = cs->traces[c].x;
    const int rc = bsl_trace_diagnostics(x, cs->chains, cs->traces[0].L, cs->trace_m, rhat_pip,
                                         ess_pip, ess_tail_pip, size);
    free(x);
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

int bsl_chains_append_draws(bsl_vs_result *res, const bsl_vs_result *src)
{
    if (res->ndraws == 0) {
        res->nscalars = src->nscalars;
        memcpy(res->scalar_names, src->scalar_names, sizeof res->scalar_names);
    } else if (res->nscalars != src->nscalars) {
        return BASEL_EINVAL;
    }
    for (size_t i = 0; i < src->ndraws; i++) {
        const size_t a = src->draw_start[i], b = src->draw_start[i + 1];
        if (bsl_vs_add_draw(res, src->draw_chain[i], src->draw_atoms + a, b - a,
                            src->nscalars ? src->draw_scalars + i * src->nscalars : NULL))
            return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

int bsl_chains_run(bsl_chains *cs, bsl_chain_fn fn, void *ctx)
{
    cs->failed = 0;
    cs->seconds = 0;
    cs->traces = NULL;
    if (cs->chains == 0) return BASEL_EINVAL;
    int *status = bsl_calloc(cs->chains, sizeof *status);
    if (!status || alloc_traces(cs)) {
        free(status);
        return BASEL_ENOMEM;
    }
    bsl_chains_shared sh = {0, 0, 0, 0, (double)cs->chains * (double)cs->units, 0,
                            cs->progress, cs->progress_user};
    const double t0 = omp_get_wtime();
    if (sh.fn && sh.fn(0.0, sh.total, sh.user)) sh.stop = 1;
    int threads = cs->threads > 0 ? cs->threads : omp_get_max_threads();
    if ((size_t)threads > cs->chains) threads = (int)cs->chains;
    if (!sh.stop) run_team(cs, fn, ctx, &sh, status, threads);
    if (!sh.stop && sh.last < 1) report(&sh, 1);
    cs->seconds = omp_get_wtime() - t0;
    /* the first real failure in chain order, else cancelled, else OK */
    int rc = BASEL_OK;
    for (size_t c = 0; c < cs->chains && !rc; c++)
        if (status[c] != BASEL_OK && status[c] != BASEL_ECANCELLED) {
            rc = status[c];
            cs->failed = c;
        }
    for (size_t c = 0; c < cs->chains && !rc; c++)
        if (sh.stop || status[c] == BASEL_ECANCELLED) {
            rc = BASEL_ECANCELLED;
            cs->failed = c;
        }
    free(status);
    return rc;
}
