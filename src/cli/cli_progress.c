/* cli_progress.c: progress of long work on stderr (cli.h). */
#include "cli.h"

#include <math.h>
#include <time.h>
#include <unistd.h>

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

void cli_progress_start(cli_progress_state *s)
{
    s->t0 = now();
    s->last = 0;
    s->shown = 0;
    s->tty = isatty(fileno(stderr));
}

int cli_progress(double fraction, void *user)
{
    cli_progress_state *s = user;
    const double t = now(), elapsed = t - s->t0;
    if (elapsed < 2 || t - s->last < (s->tty ? 0.1 : 10)) return 0;
    s->last = t;
    s->shown = 1;
    const double f = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    char spent[32], left[32];
    duration(spent, sizeof spent, elapsed);
    duration(left, sizeof left, f > 0.001 ? elapsed * (1 - f) / f : NAN);
    if (s->tty) {
        enum { WIDTH = 30 };
        char bar[WIDTH + 1];
        const int full = (int)(f * WIDTH);
        for (int i = 0; i < WIDTH; i++) bar[i] = i < full ? '#' : '.';
        bar[WIDTH] = 0;
        fprintf(stderr, "\rbasel: [%s] %3.0f%%  %s, about %s left   ", bar, 100 * f, spent, left);
    } else {
        fprintf(stderr, "basel: %3.0f%% done after %s, about %s left\n", 100 * f, spent, left);
    }
    fflush(stderr);
    return 0;
}

void cli_progress_end(cli_progress_state *s)
{
    if (s->tty && s->shown) fprintf(stderr, "\r%*s\r", 72, "");
}
