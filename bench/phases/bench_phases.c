/* bench_phases: where a fit's CPU goes, phase by phase (issue "The sampler
 * is the cost"). Reads a table, runs one fit and writes its FIT.json through
 * the public API, timing each phase the library reports to its progress
 * callback (basel_progress.phase: reading, standardising, columns, gram,
 * sampling, diagnostics, posterior, projection, coefficients, credible
 * sets, document) and the writing, in CPU seconds of the process
 * (CLOCK_PROCESS_CPUTIME_ID: all threads).
 *   bench_phases DATA OUT.json [option=value ...]
 * prints one line per phase: CPU seconds and share of the whole. */
#include <basel.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXPH 32

typedef struct {
    const char *name[MAXPH];
    double cpu[MAXPH];
    int n;
    double t0;
} phases;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the CPU since the last change of phase goes to the phase that ran */
static void enter(phases *ph, const char *name)
{
    const double now = cpu_now();
    if (ph->n > 0) ph->cpu[ph->n - 1] += now - ph->t0;
    ph->t0 = now;
    if (ph->n > 0 && !strcmp(ph->name[ph->n - 1], name)) return;
    for (int i = 0; i < ph->n; i++) /* a phase met again (per chain, per output) adds to its line */
        if (!strcmp(ph->name[i], name)) {
            const char *tn = ph->name[i];
            const double tc = ph->cpu[i];
            memmove(&ph->name[i], &ph->name[i + 1], (size_t)(ph->n - i - 1) * sizeof ph->name[0]);
            memmove(&ph->cpu[i], &ph->cpu[i + 1], (size_t)(ph->n - i - 1) * sizeof ph->cpu[0]);
            ph->name[ph->n - 1] = tn;
            ph->cpu[ph->n - 1] = tc;
            return;
        }
    if (ph->n < MAXPH) {
        ph->name[ph->n] = name;
        ph->cpu[ph->n++] = 0;
    }
}

static int report(const basel_progress *p, void *user)
{
    enter(user, p->phase);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_phases DATA OUT.json [option=value ...]\n");
        return 2;
    }
    basel_options *o = NULL;
    basel_error err;
    if (basel_options_create(&o)) return 1;
    for (int a = 3; a < argc; a++) {
        char *eq = strchr(argv[a], '=');
        if (!eq) {
            fprintf(stderr, "bench_phases: %s is not option=value\n", argv[a]);
            return 2;
        }
        *eq = 0;
        if (basel_options_set(o, argv[a], eq + 1, &err)) {
            fprintf(stderr, "bench_phases: %s\n", err.message);
            return 2;
        }
    }
    phases ph = {.n = 0};
    const double start = cpu_now();
    ph.t0 = start;
    basel_options_set_progress_report(o, report, &ph);
    basel_data *d = NULL;
    enter(&ph, "reading");
    if (basel_data_read(&d, argv[1], NULL, o, &err)) {
        fprintf(stderr, "bench_phases: %s\n", err.message);
        return 1;
    }
    basel_fit *f = NULL;
    if (basel_fit_run(&f, d, o, &err)) {
        fprintf(stderr, "bench_phases: %s\n", err.message);
        return 1;
    }
    enter(&ph, "writing");
    if (basel_fit_write_json(f, argv[2], &err)) {
        fprintf(stderr, "bench_phases: %s\n", err.message);
        return 1;
    }
    enter(&ph, "(end)");
    const double total = cpu_now() - start;
    for (int i = 0; i < ph.n; i++)
        if (strcmp(ph.name[i], "(end)"))
            printf("  %-15s %8.3f CPU-s %5.1f %%\n", ph.name[i], ph.cpu[i], 100 * ph.cpu[i] / total);
    printf("  %-15s %8.3f CPU-s\n", "total", total);
    basel_fit_free(f);
    basel_data_free(d);
    basel_options_free(o);
    return 0;
}
