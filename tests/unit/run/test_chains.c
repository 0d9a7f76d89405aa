/*
 * test_chains.c: the chain driver (src/run/chains.h) on toy chains: the
 * same seed gives the same per-chain results at 1, 2 and 3 threads; each
 * chain gets bsl_chain_seed(seed, c); a callback that cancels at its first
 * call (or half-way) gives BASEL_ECANCELLED for every chain count and
 * thread count; progress starts at 0, never decreases, ends at 1 and is
 * reported from the calling thread only, also while it waits for slower
 * chains; the first failure in chain order is returned, and a cancellation
 * never hides a failure. Also the driver's traces (snapshot layout, R-hat
 * of chains stuck on different subsets); the warning rule is tested in
 * tests/unit/summary/test_diag.c.
 */
#include "check.h"
#include "run/chains.h"

#include <gsl/gsl_rng.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UNITS 5000

typedef struct toy {
    double out[16];
    unsigned long seed[16];
    int fail[16];        /* status chain c returns at its end */
    size_t ticked[16];   /* units each chain ticked before it stopped */
    long sleep_ns[16];   /* pause per unit (slow chains) */
    int ran;             /* chains that started (atomic) */
} toy;

/* A chain: UNITS uniforms from its own generator, summed, one tick each. */
static int toy_chain(void *ctx, size_t c, unsigned long seed, bsl_ticker *t)
{
    toy *x = ctx;
#pragma omp atomic update
    x->ran++;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) return BASEL_ENOMEM;
    gsl_rng_set(r, seed);
    x->seed[c] = seed;
    double s = 0;
    int rc = BASEL_OK;
    for (size_t i = 0; i < UNITS; i++) {
        if (bsl_tick(t, 1)) {
            rc = BASEL_ECANCELLED;
            break;
        }
        x->ticked[c]++;
        s += gsl_rng_uniform(r);
        if (x->sleep_ns[c] && i % 25 == 0) {
            const struct timespec p = {0, x->sleep_ns[c] * 25};
            nanosleep(&p, NULL);
        }
    }
    gsl_rng_free(r);
    x->out[c] = s;
    return rc ? rc : x->fail[c];
}

typedef struct prog {
    pthread_t caller;
    int calls, bad_thread, decreasing, cancel_at; /* cancel at this call (1-based; 0 never) */
    int bad_total;                                /* calls whose total was not chains x UNITS */
    size_t chains;
    double cancel_above;                          /* ... or once the fraction exceeds this */
    double first, last, max_inside;               /* max_inside: largest fraction < 1 */
} prog;

static int on_progress(double done, double total, void *user)
{
    prog *p = user;
    const double f = done / total; /* the driver reports units: total is chains x UNITS */
    if (total != (double)p->chains * UNITS) p->bad_total++;
    if (!pthread_equal(pthread_self(), p->caller)) p->bad_thread++;
    if (p->calls == 0) p->first = f;
    else if (f < p->last) p->decreasing++;
    p->last = f;
    if (f < 1 && f > p->max_inside) p->max_inside = f;
    p->calls++;
    return (p->cancel_at && p->calls >= p->cancel_at) || f > p->cancel_above;
}

static int run(toy *x, size_t chains, int threads, prog *p)
{
    if (p) p->chains = chains;
    bsl_chains cs = {.chains = chains, .threads = threads, .seed = 2385, .units = UNITS,
                     .progress = p ? on_progress : NULL, .progress_user = p};
    if (p) p->caller = pthread_self();
    const int rc = bsl_chains_run(&cs, toy_chain, x);
    x->fail[15] = (int)cs.failed; /* spare slot: which chain was blamed */
    return rc;
}

static void determinism(void)
{
    toy a, b, c;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b), memset(&c, 0, sizeof c);
    CHECK(run(&a, 7, 1, NULL) == BASEL_OK, "7 chains, 1 thread");
    CHECK(run(&b, 7, 2, NULL) == BASEL_OK, "7 chains, 2 threads");
    CHECK(run(&c, 7, 3, NULL) == BASEL_OK, "7 chains, 3 threads");
    CHECK(memcmp(a.out, b.out, sizeof a.out) == 0 && memcmp(a.out, c.out, sizeof a.out) == 0,
          "per-chain results identical at 1, 2 and 3 threads");
    int distinct = 1, seeds = 1;
    for (size_t h = 0; h < 7; h++) {
        seeds &= a.seed[h] == bsl_mix_seed(2385, h) && a.seed[h] == bsl_chain_seed(2385, h);
        for (size_t g = 0; g < h; g++) distinct &= a.out[g] != a.out[h];
    }
    CHECK(seeds, "chain c is seeded bsl_mix_seed(seed, c)");
    CHECK(distinct, "chains draw different streams");
    CHECK(a.ran == 7 && b.ran == 7 && c.ran == 7, "every chain ran once");
}

static void cancel(void)
{
    for (size_t chains = 1; chains <= 9; chains++)
        for (int threads = 1; threads <= 2; threads++) {
            toy x;
            memset(&x, 0, sizeof x);
            prog p = {.cancel_at = 1, .cancel_above = 2};
            const int rc = run(&x, chains, threads, &p);
            CHECK(rc == BASEL_ECANCELLED, "cancel at the first call, %zu chains, %d threads: %d",
                  chains, threads, rc);
            CHECK(p.calls == 1 && p.first == 0, "one call, at 0 (%d calls)", p.calls);
            CHECK(x.ran == 0, "no chain started after a cancel at 0 (%d)", x.ran);
            /* half-way: every chain stops early, the status is ECANCELLED
             * (chains slowed down so the calling thread sees them running) */
            memset(&x, 0, sizeof x);
            for (size_t h = 0; h < chains; h++) x.sleep_ns[h] = 2000;
            prog q = {.cancel_above = 0.5};
            const int rc2 = run(&x, chains, threads, &q);
            size_t total = 0;
            for (size_t h = 0; h < chains; h++) total += x.ticked[h];
            CHECK(rc2 == BASEL_ECANCELLED, "cancel half-way, %zu chains, %d threads: %d", chains,
                  threads, rc2);
            CHECK(total < chains * UNITS, "cancel half-way stops the work (%zu of %zu units)",
                  total, chains * (size_t)UNITS);
        }
}

static void progress(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        toy x;
        memset(&x, 0, sizeof x);
        for (size_t h = 0; h < 5; h++) x.sleep_ns[h] = 2000;
        prog p = {.cancel_above = 2};
        CHECK(run(&x, 5, threads, &p) == BASEL_OK, "progress run, %d threads", threads);
        CHECK(p.first == 0 && p.last == 1, "progress from 0 to 1 (%g .. %g)", p.first, p.last);
        CHECK(p.decreasing == 0, "progress never decreases (%d times)", p.decreasing);
        CHECK(p.bad_total == 0, "progress counts units: total = chains x units (%d calls not)", p.bad_total);
        CHECK(p.bad_thread == 0, "callback only on the calling thread (%d others)", p.bad_thread);
        CHECK(p.calls >= 3 && p.calls <= 1002, "rate-limited: %d calls", p.calls);
        CHECK(p.max_inside > 0.5, "reports past half-way before the end (%g)", p.max_inside);
    }
    /* one slow chain: the calling thread keeps reporting while it waits */
    toy x;
    memset(&x, 0, sizeof x);
    x.sleep_ns[1] = 20000; /* 5000 units: about 0.1 s */
    x.sleep_ns[0] = 2000;
    prog p = {.cancel_above = 2};
    CHECK(run(&x, 2, 2, &p) == BASEL_OK, "slow chain run");
    CHECK(p.max_inside > 0.75 && p.bad_thread == 0,
          "progress reported while a slow chain finishes (largest below 1: %g)", p.max_inside);
}

static void failures(void)
{
    toy x;
    memset(&x, 0, sizeof x);
    x.fail[1] = BASEL_ENOMEM;
    x.fail[3] = BASEL_ENUMERIC;
    for (int threads = 1; threads <= 2; threads++) {
        x.ran = 0;
        const int rc = run(&x, 5, threads, NULL);
        CHECK(rc == BASEL_ENOMEM && x.fail[15] == 1, "first failure in chain order: %d at %d", rc,
              x.fail[15]);
        CHECK(x.ran == 5, "a failure does not stop the other chains");
    }
    memset(&x, 0, sizeof x);
    x.fail[0] = BASEL_ECANCELLED;
    x.fail[2] = BASEL_ENUMERIC;
    CHECK(run(&x, 4, 2, NULL) == BASEL_ENUMERIC && x.fail[15] == 2, "a cancellation does not hide a failure");
    memset(&x, 0, sizeof x);
    bsl_chains none = {.chains = 0};
    CHECK(bsl_chains_run(&none, toy_chain, &x) == BASEL_EINVAL, "no chains: EINVAL");
}

/* A chain stuck on the subset {c % 2} of two atoms, traced. */
static int stuck_chain(void *ctx, size_t c, unsigned long seed, bsl_ticker *t)
{
    const size_t active = c % 2;
    for (size_t it = 0; it < 100; it++) {
        bsl_trace_record(t->trace, it, &active, 1);
        if (bsl_tick(t, 1)) return BASEL_ECANCELLED;
    }
    return BASEL_OK;
}

static void diagnostics(void)
{
    bsl_chains cs = {.chains = 4, .threads = 2, .seed = 1, .units = 100, .trace_m = 2,
                     .trace_iter = 100, .trace_len = 50};
    CHECK(bsl_chains_run(&cs, stuck_chain, NULL) == BASEL_OK, "traced run");
    CHECK(cs.traces && cs.traces[0].L == 50 && cs.traces[0].step == 2, "50 snapshots, every 2nd");
    int layout = cs.traces != NULL;
    for (size_t c = 0; layout && c < 4; c++)
        for (size_t s2 = 0; s2 < 50; s2++)
            layout &= cs.traces[c].x[(c % 2) * 50 + s2] == 1 && cs.traces[c].x[(1 - c % 2) * 50 + s2] == 0 &&
                      cs.traces[c].x[2 * 50 + s2] == 1;
    CHECK(layout, "indicator j at x[j * L + s], the size in the last row");
    double rhat[2], ess[2], tail[2];
    bsl_conv size;
    CHECK(bsl_chains_diagnostics(&cs, rhat, ess, tail, &size) == BASEL_OK, "diagnostics");
    CHECK(isinf(rhat[0]) && isinf(rhat[1]), "chains stuck on different subsets: R-hat inf (%g, %g)",
          rhat[0], rhat[1]);
    CHECK(isnan(size.rhat) && isnan(size.ess_bulk), "a size constant over every draw: no R-hat, no ESS (%g)",
          size.rhat);
    bsl_chains_free(&cs);
    CHECK(cs.traces == NULL, "traces released");
    bsl_chains none = {.chains = 2, .units = 100, .trace_m = 2};
    CHECK(bsl_chains_run(&none, toy_chain, &(toy){0}) == BASEL_OK && none.traces == NULL, "no traces asked");
    CHECK(bsl_chains_diagnostics(&none, rhat, ess, NULL, &size) == BASEL_OK &&
              isnan(rhat[0]) && isnan(ess[1]) && isnan(size.rhat),
          "without traces: NaN");
}

int main(void)
{
    determinism();
    cancel();
    progress();
    failures();
    diagnostics();
    return check_report("test_chains");
}
