/* cli_progress.c: progress of long work on stderr (cli.h): the phase, the
 * fraction done, the rate in the phase's units and the time left. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Lines when stderr is not a terminal: one every this many seconds. */
#define LINE_EVERY 10.0
/* Nothing at all for work that ends sooner. */
#define QUIET_START 2.0
/* Estimates are scaled by measured / estimated time of phases estimated
 * at this many seconds or more: shorter ones measure mostly noise. */
#define CALIBRATE_FROM 0.5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "1 h 02 min", "3 min 05 s", "42 s" */
static void duration(char *buf, size_t len, double s)
{
    if (!isfinite(s) || s < 0) snprintf(buf, len, "?");
    else if (s >= 3600) snprintf(buf, len, "%.0f h %02.0f min", floor(s / 3600), floor(fmod(s, 3600) / 60));
    else if (s >= 60) snprintf(buf, len, "%.0f min %02.0f s", floor(s / 60), floor(fmod(s, 60)));
    else snprintf(buf, len, "%.0f s", s);
}

/* A count or rate people can read: 950, 12.3k, 4.1M. */
static void amount(char *buf, size_t len, double x)
{
    if (!isfinite(x)) snprintf(buf, len, "?");
    else if (x >= 1e6) snprintf(buf, len, "%.1fM", x / 1e6);
    else if (x >= 1e4) snprintf(buf, len, "%.1fk", x / 1e3);
    else if (x >= 10) snprintf(buf, len, "%.0f", x);
    else snprintf(buf, len, "%.2g", x);
}

void cli_progress_start(cli_progress_state *s)
{
    memset(s, 0, sizeof *s);
    s->t0 = now();
    s->later = s->phase_est = NAN;
    s->tty = isatty(fileno(stderr));
    s->every = LINE_EVERY;
    /* tests (and impatient logs) can ask for lines more often */
    const char *e = getenv("BASEL_PROGRESS_INTERVAL");
    char *end;
    const double v = e ? strtod(e, &end) : 0;
    if (e && *e && !*end && v > 0 && v < 86400) s->every = v;
}

/* Seconds left in the whole run: this phase's rest at its rate (before it
 * has one, its estimate), then the phases after it; estimates scaled by
 * measured / estimated time of the phases that had one (cli.h). */
static double time_left(const cli_progress_state *s, double done, double total, double rate)
{
    const double scale = s->spent_est > 0 ? s->spent / s->spent_est : 1;
    const int known = isfinite(s->later);
    double here = rate > 0 ? (total - done) / rate : done >= total ? 0 : s->phase_est * scale;
    if (!isfinite(here) && known) here = 0; /* a phase without estimate before phases with one */
    return here + (known ? s->later * scale : 0);
}

/* One report: "sampling  34%  13.6k of 40.0k draws, 4.2k draws/s, about 6 s left" */
static void draw(const cli_progress_state *s, double done, double total, double t)
{
    const double f = total > 0 ? (done / total > 1 ? 1 : done / total) : 1;
    const double spent = t - s->phase_t0, rate = spent > 0 ? done / spent : NAN;
    char d[16], tot[16], r[16], left[32], all[32];
    amount(d, sizeof d, done);
    amount(tot, sizeof tot, total);
    amount(r, sizeof r, rate);
    duration(left, sizeof left, time_left(s, done, total, rate));
    duration(all, sizeof all, t - s->t0);
    if (s->tty) {
        enum { WIDTH = 24 };
        char bar[WIDTH + 1];
        const int full = (int)(f * WIDTH);
        for (int i = 0; i < WIDTH; i++) bar[i] = i < full ? '#' : '.';
        bar[WIDTH] = 0;
        fprintf(stderr, "\rbasel: %-13s [%s] %3.0f%%  %s %s/s, about %s left   ", s->phase, bar, 100 * f, r,
                s->unit, left);
    } else {
        fprintf(stderr, "basel: %s %3.0f%% (%s of %s %s, %s %s/s), %s so far, about %s left\n", s->phase, 100 * f, d,
                tot, s->unit, r, s->unit, all, left);
    }
    fflush(stderr);
}

int cli_progress(const basel_progress *p, void *user)
{
    cli_progress_state *s = user;
    const double t = now();
    if (!s->phase || strcmp(s->phase, p->phase)) { /* a new phase: its own clock */
        if (s->tty && s->shown_phase) { /* leave the finished phase's bar, full */
            draw(s, s->total, s->total, t);
            fputc('\n', stderr);
        }
        if (s->phase_est >= CALIBRATE_FROM) { /* the ended phase against its estimate */
            s->spent += t - s->phase_t0;
            s->spent_est += s->phase_est;
        }
        /* this phase's estimate: what the last phase expected after it, less
         * what this one expects after it; the sampling's expectation is a
         * bound taken before the sizes were known, so not after it */
        const double est = s->phase && strcmp(s->phase, "sampling") ? s->later - p->later : NAN;
        s->phase_est = isfinite(est) && est >= 0 ? est : NAN;
        s->phase = p->phase;
        s->unit = p->unit;
        s->phase_t0 = t;
        s->shown_phase = 0;
    }
    s->total = p->total;
    s->later = p->later;
    const double grace = QUIET_START < s->every ? QUIET_START : s->every;
    if (t - s->t0 < grace || t - s->last < (s->tty ? 0.1 : s->every)) return 0;
    s->last = t;
    s->shown_phase = s->shown_any = 1;
    draw(s, p->done, p->total, t);
    return 0;
}

void cli_progress_last(cli_progress_state *s, const basel_progress *p)
{
    const double before = s->last;
    cli_progress(p, s);
    if (s->shown_any && s->last == before) { /* held back by the interval: shown anyway */
        s->last = now();
        s->shown_phase = 1;
        draw(s, p->done, p->total, s->last);
    }
}

void cli_progress_end(cli_progress_state *s)
{
    if (s->tty && s->shown_phase) fprintf(stderr, "\r%*s\r", 100, "");
}
