/*
 * cli_plot.c: basel plot FIT.json -o FIG.png [--kind ...]. The figures have
 * one implementation, the Python package's basel.plot (python/basel/plot.py,
 * matplotlib); this command runs it with the same arguments, so the command
 * line and Python draw the same pictures. The interpreter is $BASEL_PYTHON
 * when set, else the first of python3 (on PATH: an activated virtual
 * environment's) and /usr/bin/python3 that can import basel.plot and
 * matplotlib; a clear message says how to install them when none can.
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The exit status of the bootstrap when the package cannot be imported:
 * try the next interpreter. */
#define NO_PACKAGE 121

static const char bootstrap[] =
    "import sys\n"
    "try:\n"
    "    import matplotlib, basel.plot\n"
    "except ImportError as e:\n"
    "    import os\n"
    "    if os.environ.get('BASEL_PLOT_LAST'):\n"
    "        sys.stderr.write('basel plot: %s: %s\\n' % (sys.executable, e))\n"
    "    sys.exit(121)\n"
    "sys.exit(basel.plot.main(sys.argv[1:]))\n";

void cli_plot_help(FILE *fp)
{
    fprintf(fp,
            "usage: basel plot FIT.json -o FIG.png [--kind K] [--draws DRAWS.csv] [--data TRAIN.csv] [--top N]\n\n"
            "Draws a figure of a fit with the Python package (python/, matplotlib); the file's extension\n"
            "picks the format (png, pdf, svg). --kind:\n"
            "  overview  every panel that applies (the default)\n"
            "  pip       PIPs with Monte Carlo error bars from the per-chain PIPs\n"
            "  size      the posterior of the model size\n"
            "  models    the top models x their atoms, coloured by log posterior odds (BAS's image)\n"
            "  trace     the model size along each chain (needs --draws from 'basel fit --draws')\n"
            "  fit       a fit of one input: mean, 95%% band, data (--data), selected centres, PIPs\n"
            "--top N: atoms and models shown (20).\n\n"
            "Needs Python 3 with the basel package: tools/python.sh installs it in .venv (activate it),\n"
            "or set BASEL_PYTHON to an interpreter that has it.\n\n"
            "Example:\n  basel fit data/linear/lin_p15_n200.csv -o fit.json --draws draws.csv\n"
            "  basel plot fit.json --draws draws.csv -o fit.png\n");
}

/* Run python -c bootstrap args...; its exit status, NO_PACKAGE when it
 * cannot import the package, or -1 (errno set) when it cannot run. Only the
 * last candidate says why it could not import. */
static int run(const char *python, int argc, char **argv, int last)
{
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) return -1;
    args[0] = (char *)python;
    args[1] = "-c";
    args[2] = (char *)bootstrap;
    for (int i = 1; i < argc; i++) args[i + 2] = argv[i];
    int status = -1;
    const pid_t pid = fork();
    if (pid == 0) {
        if (last) setenv("BASEL_PLOT_LAST", "1", 1);
        execvp(python, args);
        _exit(127); /* not found or not executable */
    }
    if (pid > 0) {
        /* Ctrl-C reaches the child (same process group): let it finish */
        void (*old)(int) = signal(SIGINT, SIG_IGN);
        int ws;
        int rc;
        do rc = (int)waitpid(pid, &ws, 0);
        while (rc < 0 && errno == EINTR);
        signal(SIGINT, old);
        status = rc < 0 ? -1 : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
        if (status == 127) status = NO_PACKAGE; /* no such interpreter: try the next */
    }
    free(args);
    return status;
}

int cli_plot(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        cli_plot_help(stdout);
        return 0;
    }
    if (argc < 2) return cli_usage("plot", "expected FIT.json and -o FIG.png");
    fflush(stdout);
    const char *env = getenv("BASEL_PYTHON");
    const char *pythons[] = {env && *env ? env : "python3", env && *env ? NULL : "/usr/bin/python3"};
    for (size_t i = 0; i < 2 && pythons[i]; i++) {
        const int status = run(pythons[i], argc, argv, i == 1 || !pythons[1]);
        if (status < 0) {
            fprintf(stderr, "basel plot: cannot run %s: %s\n", pythons[i], strerror(errno));
            return 1;
        }
        if (status != NO_PACKAGE) return status;
    }
    fprintf(stderr, "basel plot: needs Python 3 with the basel package and matplotlib (tried %s): install them "
                    "with tools/python.sh and activate .venv, or set BASEL_PYTHON to a python that has them\n",
            env && *env ? env : "python3, /usr/bin/python3");
    return 1;
}
