/* main.c: the basel command: dispatch to subcommands, top-level help. */
#include "cli.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_version.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void help(FILE *fp)
{
    fprintf(fp,
            "basel %s: which inputs or basis functions does the data support, and how sure are we?\n"
            "\n"
            "usage:\n"
            "  basel fit TRAIN.csv [--method bd] [--target y] [--basis linear] [--prior g] -o FIT.json\n"
            "  basel predict FIT.json TEST.csv [--model bma] [--interval 0.95] [-o PRED.csv]\n"
            "  basel summary FIT.json\n"
            "  basel demo\n"
            "  basel help fit [--method M]  the methods, every fit option, its default and what it does\n"
            "\n"
            "Methods: enumerate (exact, up to 24 atoms), bd (birth-death, the default), rj\n"
            "(reversible jump), ssvs (spike-and-slab Gibbs), anneal and rbf (RBF networks with\n"
            "free centres: simulated annealing, full-Bayes reversible jump), smc (sequential\n"
            "kernel regression), mixture (input selection for a Gaussian-mixture classifier).\n"
            "\n"
            "Example: the inputs of a linear model, with posterior inclusion probabilities:\n"
            "  basel fit data/linear/lin_p15_n200.csv --target y -o fit.json && basel summary fit.json\n"
            "Kernel regression, prevalence model:\n"
            "  basel fit train.csv --basis gauss:r=1.6 --prior ridge -o fit.json\n"
            "\n"
            "Exit status: 0 success, 2 bad input or usage, 1 internal failure, 3 interrupted\n"
            "by SIGINT or SIGTERM (with --checkpoint FILE the run's state is in FILE: continue\n"
            "it with --restart FILE; see 'basel help fit').\n",
            basel_version());
}

int cli_report(const basel_error *err)
{
    fprintf(stderr, "basel: ");
    if (err->file[0]) {
        fprintf(stderr, "%s:", err->file);
        if (err->line) fprintf(stderr, "%zu:", err->line);
        if (err->line && err->column) fprintf(stderr, "%zu:", err->column);
        fputc(' ', stderr);
    }
    fprintf(stderr, "%s\n", err->message);
    switch (err->code) {
    case BASEL_ENOMEM:
    case BASEL_EINTERNAL:
    case BASEL_ECANCELLED: return 1;
    case BASEL_INTERRUPTED: return 3;
    default: return 2;
    }
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "basel %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(try 'basel %s --help')\n", cmd);
    return 2;
}

int cli_progress(double fraction, void *user)
{
    const time_t *start = user;
    if (time(NULL) - *start >= 2) fprintf(stderr, "\rbasel: %3.0f%% ", 100 * fraction);
    return 0;
}

/* A summary or predictions that could not be written (a full disk, a
 * closed pipe) are an error, not a success with nothing to show. */
static int finish_stdout(int status)
{
    errno = 0;
    const int failed = ferror(stdout) || fflush(stdout) != 0;
    if (failed && status == 0) {
        fprintf(stderr, "basel: cannot write to stdout: %s\n", strerror(errno ? errno : EIO));
        return 2;
    }
    return status;
}

int main(int argc, char **argv)
{
    /* GSL's default handler aborts; the library checks every status itself */
    gsl_set_error_handler_off();
    if (argc < 2) {
        help(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        help(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("basel %s (GSL %s, OpenBLAS LAPACKE, jansson)\n", basel_version(), gsl_version);
        return 0;
    }
    if (!strcmp(cmd, "help")) {
        if (argc > 2 && !strcmp(argv[2], "fit"))
            cli_fit_help(stdout, argc > 4 && !strcmp(argv[3], "--method") ? argv[4] : NULL);
        else help(stdout);
        return 0;
    }
    int status;
    if (!strcmp(cmd, "fit")) status = cli_fit(argc - 1, argv + 1);
    else if (!strcmp(cmd, "predict")) status = cli_predict(argc - 1, argv + 1);
    else if (!strcmp(cmd, "summary")) status = cli_summary(argc - 1, argv + 1);
    else if (!strcmp(cmd, "demo")) status = cli_demo(argc - 1, argv + 1);
    else {
        fprintf(stderr, "basel: unknown command '%s' (commands: fit, predict, summary, demo, help)\n", cmd);
        return 2;
    }
    return finish_stdout(status);
}
