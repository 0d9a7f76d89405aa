/* main.c: the basel command: dispatch to subcommands, top-level help. */
/* MAP_ANONYMOUS, MAP_NORESERVE (blas_buffer_under_limit) */
#define _DEFAULT_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_version.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void fit_help(FILE *fp) { cli_fit_help(fp, NULL); }

/* OpenBLAS (Debian's pthread build, the system's default) starts its
 * worker threads in its library initialiser, before main, one per core
 * unless OPENBLAS_NUM_THREADS says otherwise. They cost twice:
 *  - each spins in sched_yield for a while after it starts and after every
 *    call it serves, on CPU the command's own threads (its chains,
 *    --threads, OpenMP) could use: rj on lin_p100_n1000, 4 x 75000 moves,
 *    took 0.67 CPU-s with them and 0.55 without (issue 34). The command's
 *    BLAS calls are on k x k blocks and n x k panels, where a worker only
 *    wakes and spins; a call from a chain could also be split over them,
 *    so SSVS's last digits depended on the number of cores.
 *  - each maps its work buffer (128 MB) and retries for ever while the
 *    mapping fails: under an address-space limit (ulimit -v, RLIMIT_AS, as
 *    batch schedulers set it) with no room for it, a worker spins for the
 *    whole run and exit hangs in OpenBLAS's shutdown, which joins it
 *    (gotoblas_quit -> blas_thread_shutdown_ -> pthread_join).
 * So when OpenBLAS has more than one thread and the user set no number,
 * the command goes to one thread (the dense Gram's one large dsyrk then
 * runs on one core: the same CPU, up to twice the wall time):
 *  - normally by stopping the workers first thing in main
 *    (stop_blas_workers), before they have spun for long;
 *  - under an address-space limit, where a worker may already be stuck
 *    mapping its buffer, or where OpenBLAS lacks the functions, by running
 *    itself again, once, with OPENBLAS_NUM_THREADS=1. The number can only
 *    be set before OpenBLAS's initialiser reads the environment: setenv
 *    from an ELF .preinit_array function is too early (libc's own
 *    initialiser, which runs after it, resets environ). Loading twice costs
 *    about 0.012 CPU-s.
 * Under such a limit its chains run on one OpenMP thread too
 * (OMP_NUM_THREADS=1, the default of --threads): each thread that calls
 * LAPACK needs a buffer of its own (below), and libgomp exits (status 1)
 * when it cannot create a thread. Not under valgrind, which would follow
 * the new image only with --trace-children (its tests set the numbers). */
/* OpenBLAS's thread count (its own function, found at run time), or 0
 * where the BLAS is another. */
static int openblas_threads(void)
{
    int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    return get ? get() : 0;
}

/* Without an address-space limit, the workers can instead be stopped where
 * they are, before they have spun for long: one thread from now on
 * (openblas_set_num_threads), and the workers joined
 * (blas_thread_shutdown_, which OpenBLAS's own fork handler calls; a later
 * call on more than one thread would start them again, but there is none).
 * Both are found at run time: 1 when they were there and did it. This
 * saves loading the command a second time, about 0.012 CPU-s (3 % of the
 * rj target of issue 34). */
static int stop_blas_workers(void)
{
    void (*set)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    int (*shutdown)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "blas_thread_shutdown_");
    if (!set || !shutdown) return 0;
    set(1);
    shutdown();
    return openblas_threads() == 1;
}

static void one_blas_thread(char **argv)
{
    struct rlimit as;
    const int limited = getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY;
    const char *preload = getenv("LD_PRELOAD");
    int again = 0;
    if (preload && strstr(preload, "vgpreload")) return;
    if (!getenv("OPENBLAS_NUM_THREADS") && (limited || openblas_threads() > 1)) {
        if (setenv("OPENBLAS_NUM_THREADS", "1", 0) != 0) return;
        again = limited || !stop_blas_workers();
    }
    if (limited && !getenv("OMP_NUM_THREADS")) {
        if (setenv("OMP_NUM_THREADS", "1", 0) != 0) return;
        again = 1;
    }
    if (!again) return;
    char self[4096];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return;
    self[len] = '\0';
    execv(self, argv); /* returns only on failure: carry on as we are */
}

/* The calling thread's OpenBLAS work buffer, likewise mapped at its first
 * LAPACK call (dpotrf, whatever the size) and retried for ever while the
 * mapping fails: under an address-space limit the command maps it before
 * the run, once there is room for it, and otherwise stops with an
 * out-of-memory message (exit 2) instead of spinning in the middle of a
 * fit. OpenBLAS keeps the buffer and reuses it for every later call of
 * this thread. BLAS_BUFFER is OpenBLAS's BUFFER_SIZE on x86_64 (128 MB)
 * and its page of slack. */
#define BLAS_BUFFER (((size_t)128 << 20) + ((size_t)1 << 16))
static int blas_buffer_under_limit(void)
{
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY) return 0;
    void *probe = mmap(NULL, BLAS_BUFFER, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (probe == MAP_FAILED) {
        fprintf(stderr, "basel: out of memory: the address-space limit (ulimit -v %llu KB) leaves no room for "
                        "OpenBLAS's %zu MB work buffer\n", (unsigned long long)(as.rlim_cur >> 10), BLAS_BUFFER >> 20);
        return 2;
    }
    munmap(probe, BLAS_BUFFER);
    double one = 1;
    LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', 1, &one, 1); /* maps the buffer now, while it fits */
    return 0;
}

/* The subcommands: the dispatch, `basel help CMD`, the man page and the
 * completion script all read this table. */
static const cli_command commands[] = {
    {"fit", cli_fit, fit_help, "fit a method to TRAIN.csv and write FIT.json (or print its summary)", NULL},
    {"predict", cli_predict, cli_predict_help, "predict the rows of TEST.csv from FIT.json", NULL},
    {"summary", cli_summary, cli_summary_help, "print FIT.json as a human-readable report", NULL},
    {"coef", cli_coef, cli_coef_help, "the coefficient table as CSV", "coefficients"},
    {"demo", cli_demo, cli_demo_help, "run the main job on the embedded data (sinc and Boston kernels)", NULL},
    {"plot", cli_plot, cli_plot_help, "draw FIT.json's figures (runs the Python package's basel.plot)", NULL},
};

const cli_command *cli_commands(size_t *n)
{
    *n = sizeof commands / sizeof *commands;
    return commands;
}

const char *cli_command_summary(const cli_command *c, char *buf, size_t len)
{
    char list[256];
    if (c->methods) snprintf(buf, len, "%s (%s)", c->summary, basel_method_list(list, sizeof list, c->methods, NULL));
    else snprintf(buf, len, "%s", c->summary);
    return buf;
}

static void help(FILE *fp)
{
    fprintf(fp,
            "basel %s: which inputs or basis functions does the data support, and how sure are we?\n"
            "\n"
            "usage: basel COMMAND [options] [files]\n\n",
            basel_version());
    char summary[512];
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(fp, "  basel %-9s %s\n", commands[i].name, cli_command_summary(&commands[i], summary, sizeof summary));
    fprintf(fp,
            "  basel help COMMAND  the options of a command ('basel help fit --method M': one method's)\n"
            "  basel --version     the library and FIT.json format versions\n"
            "  basel man           the manual page (roff); basel completion bash: the bash completion\n"
            "\n"
            "Methods (--method; 'basel help fit --method M' for one's options):\n");
    /* from the engine table: a method added there is listed here */
    for (size_t i = 0; i < basel_method_count(); i++) {
        const char *name, *what;
        if (!basel_method_describe(i, &name, &what)) fprintf(fp, "  %-10s %s\n", name, what);
    }
    fprintf(fp,
            "\n"
            "Example: the inputs of a linear model, with posterior inclusion probabilities:\n"
            "  basel fit data/linear/lin_p15_n200.csv --target y -o fit.json && basel summary fit.json\n"
            "Kernel regression, prevalence model:\n"
            "  basel fit data/regression/sinc_scaling_n500.csv --basis gauss:r=1.6 \\\n"
            "      --prior ridge -o fit.json\n"
            "\n"
            "Exit status: 0 success, 2 bad input or usage (or out of memory), 1 internal failure,\n"
            "3 interrupted "
            "by SIGINT or SIGTERM (a fit of the iterations done is written, marked interrupted;\n"
            "with --checkpoint FILE the run's state is saved there instead: continue it with\n"
            "--restart FILE; see 'basel help fit').\n");
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
    switch (err->code) { /* out of memory is 2: the problem is too large for the memory allowed, not a bug */
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

int cli_unknown_option(const char *cmd, const char *arg, const char *const *known, size_t n)
{
    char name[64];
    const char *bare = arg + strspn(arg, "-");
    snprintf(name, sizeof name, "%.*s", (int)strcspn(bare, "="), bare);
    const char *near = basel_suggest(name, known, n);
    if (near) return cli_usage(cmd, "unknown option '%s' (did you mean '--%s'?)", arg, near);
    return cli_usage(cmd, "unknown option '%s'", arg);
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

static int run(int argc, char **argv)
{
    if (argc < 2) {
        help(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        help(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("basel %s (FIT.json format %d; GSL %s, LAPACKE, jansson)\nBLAS %s\n", basel_version(),
               basel_fit_format_version(), gsl_version, basel_blas());
        /* what one_blas_thread left OpenBLAS with (tests/cli/test_blas.sh) */
        if (openblas_threads() > 0) printf("BLAS threads: %d\n", openblas_threads());
        return 0;
    }
    if (!strcmp(cmd, "man")) {
        cli_man(stdout);
        return finish_stdout(0);
    }
    if (!strcmp(cmd, "completion")) {
        if (argc != 3 || strcmp(argv[2], "bash")) return cli_usage("completion", "expected 'basel completion bash'");
        cli_completion(stdout);
        return finish_stdout(0);
    }
    const size_t ncmd = sizeof commands / sizeof *commands;
    if (!strcmp(cmd, "help")) {
        if (argc == 2) {
            help(stdout);
            return 0;
        }
        for (size_t i = 0; i < ncmd; i++)
            if (!strcmp(argv[2], commands[i].name)) {
                if (i == 0) return cli_fit_help_checked(stdout, argc > 4 && !strcmp(argv[3], "--method") ? argv[4] : NULL);
                else commands[i].help(stdout);
                return 0;
            }
        fprintf(stderr, "basel help: no command '%s' (commands: fit, predict, summary, coef, demo, plot)\n", argv[2]);
        return 2;
    }
    if (cli_par_rank() > 0 && strcmp(cmd, "fit")) return 0; /* under mpirun only fit spreads; rank 0 does the rest */
    for (size_t i = 0; i < ncmd; i++)
        if (!strcmp(cmd, commands[i].name)) return finish_stdout(commands[i].run(argc - 1, argv + 1));
    const char *names[sizeof commands / sizeof *commands + 1];
    for (size_t i = 0; i < ncmd; i++) names[i] = commands[i].name;
    names[ncmd] = "help";
    static const char *const flags[] = {"--version", "--help"}; /* a mistyped option, not a command */
    const int flag = !strncmp(cmd, "--", 2);
    const char *near = flag ? basel_suggest(cmd, flags, 2) : basel_suggest(cmd, names, ncmd + 1);
    if (flag && near) {
        fprintf(stderr, "basel: unknown option '%s' (did you mean '%s'?)\n", cmd, near);
        return 2;
    }
    if (near) fprintf(stderr, "basel: unknown command '%s' (did you mean '%s'?)\n", cmd, near);
    else fprintf(stderr, "basel: unknown command '%s' (commands: fit, predict, summary, coef, demo, plot, help)\n", cmd);
    return 2;
}

int main(int argc, char **argv)
{
    /* GSL's default handler aborts; the library checks every status itself */
    gsl_set_error_handler_off();
    one_blas_thread(argv);
    const int no_room = blas_buffer_under_limit();
    if (no_room) return no_room;
    cli_par_init(&argc, &argv);
    return cli_par_finish(run(argc, argv));
}
