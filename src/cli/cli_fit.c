/* cli_fit.c: basel fit TRAIN.csv [options] -o FIT.json [--draws DRAWS.csv] */
#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The help of one option: its meaning, and its default for method (or,
 * without a method, the methods that read it). */
static void option_help(FILE *fp, const char *name, const char *help, const char *method)
{
    fprintf(fp, "  --%-14s %s", name, help);
    if (method) {
        const char *def = basel_method_option_default(method, name);
        if (def && *def) fprintf(fp, " [default: %s]", def);
    }
    fputc('\n', fp);
}

static int reads(const char *method, const char *name)
{
    return basel_method_option_default(method, name) != NULL;
}

int cli_fit_help_checked(FILE *fp, const char *method)
{
    if (method && !basel_method_option_default(method, "method")) {
        const char *names[32], *summary;
        char list[256] = "";
        size_t k = 0;
        for (; k < basel_method_count() && k < sizeof names / sizeof *names; k++) {
            basel_method_describe(k, &names[k], &summary);
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", names[k]);
        }
        const char *near = basel_suggest(method, names, k);
        if (near) fprintf(stderr, "basel help fit: no method '%s' (did you mean '%s'?)\n", method, near);
        else fprintf(stderr, "basel help fit: no method '%s' (methods: %s)\n", method, list);
        return 2;
    }
    cli_fit_help(fp, method);
    return 0;
}

/* `basel help fit [--method M]`: generated from the option catalogue and the
 * engine table, so help cannot drift from what a fit accepts. */
void cli_fit_help(FILE *fp, const char *method)
{
    const char *method_default = "";
    fprintf(fp,
            "usage: basel fit TRAIN.csv [--method M] [options] [-o FIT.json] [--draws DRAWS.csv]\n"
            "       basel fit --stats STATS.json [--method M] [options] [-o FIT.json]\n"
            "       basel fit X.npy --target-file y.npy [options] [-o FIT.json]\n"
            "       basel fit G.bed [--target-file y.npy] [options] [-o FIT.json]\n"
            "\n"
            "Reads TRAIN.csv (header row; '-' reads stdin), fits the chosen method and writes\n"
            "FIT.json (without -o, prints the summary instead). Every option is --name VALUE\n"
            "or --name=VALUE. An option the method does not read is an error.\n"
            "The training file may be a NumPy .npy array instead (shape (n, p): columns x1 .. xp;\n"
            "(n,): one column y); --target-file FILE (a .npy vector or a one-column CSV) appends\n"
            "the target as the last column, the default target (README \"Large designs\").\n"
            "Or PLINK 1 binary genotypes, G.bed (SNP-major) with G.bim and G.fam beside it: a\n"
            "column per variant, named by its .bim ID, each cell the count of its A1 allele (0, 1,\n"
            "2; a missing genotype is a missing value: --na); the target is --target-file's, or\n"
            "else the .fam's phenotype (the column 'phenotype'; -9 is missing).\n\n"
            "Methods (--method; default bd, or rj above 1000 inputs of a linear basis and for --family multinomial):\n");
    const size_t nm = basel_method_count();
    for (size_t i = 0; i < nm; i++) {
        const char *name, *summary;
        basel_method_describe(i, &name, &summary);
        fprintf(fp, "  %-10s %s\n", name, summary);
    }
    basel_options *defaults = NULL;
    if (!method && basel_options_create(&defaults) == BASEL_OK) method_default = basel_options_get(defaults, "method");
    const size_t n = basel_options_count();
    const char *always[] = {"method", "target", "inputs", "na", "seed", "threads"};
    fprintf(fp, "\nRead by every method:\n");
    for (size_t i = 0; i < n; i++) {
        const char *name, *help;
        basel_options_describe(i, &name, &help);
        for (size_t a = 0; a < sizeof always / sizeof *always; a++)
            if (!strcmp(name, always[a])) option_help(fp, name, help, method ? method : method_default);
    }
    for (size_t e = 0; e < nm; e++) {
        const char *mname, *summary;
        basel_method_describe(e, &mname, &summary);
        if (method && strcmp(method, mname)) continue;
        if (method && basel_method_advice(mname)) fprintf(fp, "\nWhen to choose --method %s:\n%s", mname, basel_method_advice(mname));
        fprintf(fp, method ? "\n--method %s reads:\n" : "\n--method %s reads (with its defaults):\n ", mname);
        size_t col = 1;
        for (size_t i = 0; i < n; i++) {
            const char *name, *help;
            basel_options_describe(i, &name, &help);
            if (!reads(mname, name) || !strcmp(name, "keep-draws")) continue;
            int common = 0;
            for (size_t a = 0; a < sizeof always / sizeof *always; a++) common |= !strcmp(name, always[a]);
            if (common) continue;
            if (method) option_help(fp, name, help, mname);
            else {
                const char *def = basel_method_option_default(mname, name);
                char item[160];
                snprintf(item, sizeof item, " --%s%s%s", name, *def ? " " : "", def);
                if (col + strlen(item) > 100) {
                    fprintf(fp, "\n ");
                    col = 1;
                }
                fputs(item, fp);
                col += strlen(item);
            }
        }
        if (!method) fputc('\n', fp);
    }
    if (!method) {
        fprintf(fp, "\nWhat each option means ('basel help fit --method M' gives one method's options with\nthese texts and defaults):\n");
        for (size_t i = 0; i < n; i++) {
            const char *name, *help;
            basel_options_describe(i, &name, &help);
            if (strcmp(name, "keep-draws")) option_help(fp, name, help, NULL);
        }
    }
    char draws[256], stats[256];
    basel_method_list(draws, sizeof draws, "draws", NULL);
    basel_method_list(stats, sizeof stats, "stats", "or");
    fprintf(fp,
            "\nOutputs:\n"
            "  -o, --output     FIT.json to write (atomically: a temporary file, then rename)\n"
            "  --draws          DRAWS.csv: every retained draw: chain, iteration, draw, size, one 0/1\n"
            "                   column per atom (%s; docs/FIT.md), sampled\n"
            "                   hyperparameters, and for Gaussian fits of the subset methods sigma2,\n"
            "                   b_Intercept and b_ per atom (0 when excluded; the inputs' units) and\n"
            "                   log_lik, drawn from their posterior given the draw's model\n"
            "  --draws-loglik   LOGLIK.csv: each draw's log-likelihood of every training row\n"
            "                   (chain, iteration, draw, log_lik[1..n]: for loo), for the fits whose\n"
            "                   draws have log_lik (others: exit 2); draws x rows numbers\n"
            "  --quiet          no seed note, no warnings and no progress on stderr\n"
            "Progress (stderr, for work past 2 s): on a terminal a bar with the phase (standardising,\n"
            "columns, gram, sampling, then diagnostics, posterior, projection, coefficients, credible\n"
            "sets, document, writing), the rate (draws/s, moves/s, ...) and the time left of the\n"
            "whole fit (the phases after this one estimated from their sizes); otherwise one such\n"
            "line every 10 s (BASEL_PROGRESS_INTERVAL=SECONDS for another interval).\n"
            "\n"
            "Interrupting: SIGINT or SIGTERM while the data are read ends the reading (exit 3,\n"
            "nothing written); during the sampling it stops the chains at their next block. With\n"
            "--checkpoint FILE (every MCMC method) their state is saved there (also every\n"
            "--checkpoint-every seconds, default 60) and no FIT.json is written; the same\n"
            "command with --restart FILE continues the run, and the FIT.json it writes is\n"
            "byte-identical to an uninterrupted run's (without --seed, the restart takes the\n"
            "checkpoint's). Without --checkpoint the fit is made of the iterations done,\n"
            "marked interrupted (diagnostics.interrupted and a warning), and written. After\n"
            "the sampling (the summaries) there is nothing to cut: the whole fit is written.\n"
            "In every case the exit status is 3. A second signal ends the process at once.\n"
            "\n"
            "Summary statistics (instead of TRAIN.csv; docs/SUMMARY_STATS.md):\n"
            "  --stats          STATS.json: n, input names and either centred X'X, X'y, y'y (with the\n"
            "                   means, to predict) or a correlation (LD) matrix and z-scores, as susie_rss;\n"
            "                   the matrix may be the name of a .npy file (large p);\n"
            "                   --method %s with --basis linear; the posterior is the\n"
            "                   one from the rows behind the statistics\n"
            "  --row-blocks     compute those statistics (centred X'X, X'y, y'y, n of --target and\n"
            "                   --inputs) from TRAIN.csv and fit on them; under mpirun each process reads\n"
            "                   only its block of the rows and the sums are added over the processes\n"
            "                   (README \"More than one machine\"); one row per line\n"
            "  --column-blocks  under mpirun, a .bed set's variants in blocks, one per process: each\n"
            "                   reads and holds only its block and makes every pass over it (set-up,\n"
            "                   Gram rows, columns); rank 0 runs the chains. The FIT.json is the one\n"
            "                   process's, byte for byte, when that one holds its inputs compactly\n"
            "                   (8 n p bytes above twice --gram-memory) and streams; --method rj or bd\n"
            "                   (README \"More than one machine\")\n"
            "\n"
            "Examples:\n"
            "  basel fit data/linear/lin_p15_n200.csv --method enumerate --prior g:g=200 \\\n"
            "      --model-prior uniform -o fit.json\n"
            "  basel fit data/regression/sinc_scaling_n500.csv --basis gauss:r=1.6 \\\n"
            "      --prior ridge -o fit.json\n",
            draws, stats);
    basel_options_free(defaults);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The signal that asked the fit to stop (0: none). The library installs no
 * handler; the command does, for the fit only, and the progress callback
 * passes the request on. */
static volatile sig_atomic_t stop_signal;

/* What a first signal does, said at once (issue 31 item 7: users who saw
 * nothing pressed Ctrl-C again and lost the fit). The handler may only
 * write(2): it writes the line of the phase the progress callback last saw
 * (stop_line: an index, sig_atomic_t, into stop_lines, which are made
 * before the handler is installed). */
enum { STOP_SILENT = 0, STOP_READING, STOP_RUN, STOP_AFTER };
static char stop_lines[4][320];
static volatile sig_atomic_t stop_line;
/* The sampling has been seen to end: the phases after it (summaries,
 * diagnostics) finish the whole fit whatever comes (a signal then has
 * nothing to save, the chains' work is all done). */
static int sampled;

static void on_signal(int sig)
{
    stop_signal = sig;
    const char *s = stop_lines[stop_line];
    size_t n = strlen(s); /* async-signal-safe */
    while (n > 0) {
        const ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0) break;
        s += w;
        n -= (size_t)w;
    }
}

static void stop_lines_make(int quiet, const char *checkpoint)
{
    stop_lines[STOP_SILENT][0] = 0;
    if (quiet) {
        stop_line = STOP_SILENT;
        return;
    }
    snprintf(stop_lines[STOP_READING], sizeof stop_lines[0],
             "\nbasel: stopping: the data are not read to the end, nothing is written (exit 3)\n");
    if (checkpoint && *checkpoint)
        snprintf(stop_lines[STOP_RUN], sizeof stop_lines[0],
                 "\nbasel: stopping: saving the run's state in %s (continue with --restart); a second signal quits "
                 "at once\n", checkpoint);
    else
        snprintf(stop_lines[STOP_RUN], sizeof stop_lines[0],
                 "\nbasel: stopping: writing the fit of the iterations done (its summaries first); a second signal "
                 "quits at once, writing nothing\n");
    snprintf(stop_lines[STOP_AFTER], sizeof stop_lines[0],
             "\nbasel: stopping: the chains have done all their iterations; writing the whole fit, then exit "
             "status 3; a second signal quits at once, writing nothing\n");
    stop_line = STOP_READING;
    sampled = 0;
}

typedef struct fit_progress {
    int show;
    cli_progress_state bar;
} fit_progress;

static int progress(const basel_progress *report, void *user)
{
    fit_progress *p = user;
    if (p->show) cli_progress(report, &p->bar);
    const int sampling = !strcmp(report->phase, "sampling");
    if (sampling) sampled = 1;
    const int after = sampled && !sampling;
    if (stop_line != STOP_SILENT)
        stop_line = after ? STOP_AFTER : strcmp(report->phase, "reading") ? STOP_RUN : STOP_READING;
    return stop_signal && !after ? BASEL_PROGRESS_STOP : 0;
}

/* SIGINT and SIGTERM stop the fit at a boundary; a second one kills
 * (SA_RESETHAND). on = 0 puts the defaults back. */
static void catch_signals(int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? on_signal : SIG_DFL;
    sa.sa_flags = on ? SA_RESETHAND : 0;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

typedef struct fit_args {
    const char *train, *output, *draws, *draws_loglik, *stats, *target_file;
    int quiet;
    int row_blocks; /* --row-blocks: statistics summed over blocks of rows (cli_rows.c) */
    int column_blocks; /* --column-blocks: each process holds a block of the inputs (fit/blocks.c) */
} fit_args;

/* fit's own options that name a file; every other --name is the library's. */
static const char *const FILE_OPTIONS[] = {"draws", "draws-loglik", "output", "stats", "target-file"};
enum { NFILE_OPTIONS = sizeof FILE_OPTIONS / sizeof *FILE_OPTIONS };

/* Where the file option name goes in a, or NULL when name is not one. */
static const char **file_slot(fit_args *a, const char *name)
{
    const char **slots[NFILE_OPTIONS] = {&a->draws, &a->draws_loglik, &a->output, &a->stats, &a->target_file};
    for (size_t k = 0; k < NFILE_OPTIONS; k++)
        if (!strcmp(name, FILE_OPTIONS[k])) return slots[k];
    return NULL;
}

/* An unknown option of fit: a suggestion from the library's options and
 * the command's own. */
/* Take back the files fit wrote (either may be NULL) when a later output
 * failed: only a plain file, never a device, a pipe or a link's target. */
static void remove_written(const char *draws, const char *loglik)
{
    const char *paths[2] = {draws, loglik};
    for (size_t i = 0; i < 2; i++) {
        struct stat st;
        if (paths[i] && strcmp(paths[i], "-") && lstat(paths[i], &st) == 0 && S_ISREG(st.st_mode)) remove(paths[i]);
    }
}

static int ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

static int unknown_option(const char *arg)
{
    const char *names[160] = {"quiet", "row-blocks", "column-blocks", "help"};
    size_t n = 4;
    for (size_t k = 0; k < NFILE_OPTIONS; k++) names[n++] = FILE_OPTIONS[k];
    for (size_t k = 0; k < basel_options_count() && n < sizeof names / sizeof *names; k++)
        basel_options_describe(k, &names[n++], &(const char *){NULL});
    return cli_unknown_option("fit", arg, names, n);
}

/* Split --name=value or take the next argument as the value; a next
 * argument that starts with "--" is an option, not a value. */
static int take_value(int argc, char **argv, int *i, const basel_options *o, fit_args *a, const char **name,
                      const char **value, char *buf, size_t len)
{
    const char *arg = argv[*i] + 2;
    const char *eq = strchr(arg, '=');
    if (eq) {
        snprintf(buf, len, "%.*s", (int)(eq - arg), arg);
        *name = buf;
        *value = eq + 1;
        return 0;
    }
    *name = arg;
    if (!file_slot(a, arg) && !basel_options_get(o, arg)) /* unknown: say so (with a suggestion), not "needs a value" */
        return unknown_option(argv[*i]);
    if (cli_needs_value("fit", argv[*i], *i + 1 < argc ? argv[*i + 1] : NULL)) return 2;
    *value = argv[++*i];
    return 0;
}

static int parse(int argc, char **argv, basel_options *o, fit_args *a)
{
    int only_files = 0;
    cli_seen seen = {.n = 0};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_files || arg[0] != '-' || !strcmp(arg, "-")) {
            if (a->train) return cli_usage("fit", "one training file expected, got '%s' and '%s'", a->train, arg);
            a->train = arg;
        } else if (!strcmp(arg, "--")) {
            only_files = 1;
        } else if (!strcmp(arg, "-o")) {
            if (cli_needs_value("fit", arg, i + 1 < argc ? argv[i + 1] : NULL) || cli_once(&seen, "fit", "output"))
                return 2;
            a->output = argv[++i];
        } else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
            if (cli_once(&seen, "fit", "quiet")) return 2;
            a->quiet = 1;
        } else if (!strcmp(arg, "--row-blocks")) {
            if (cli_once(&seen, "fit", "row-blocks")) return 2;
            a->row_blocks = 1;
        } else if (!strcmp(arg, "--column-blocks")) {
            if (cli_once(&seen, "fit", "column-blocks")) return 2;
            a->column_blocks = 1;
        } else if (!strncmp(arg, "--", 2)) {
            char buf[64];
            const char *name = NULL, *value = NULL;
            if (take_value(argc, argv, &i, o, a, &name, &value, buf, sizeof buf) || cli_once(&seen, "fit", name))
                return 2;
            const char **slot = file_slot(a, name);
            if (slot) {
                *slot = value;
                continue;
            }
            basel_error err;
            if (!basel_options_get(o, name)) return unknown_option(arg);
            if (basel_options_set(o, name, value, &err)) return cli_usage("fit", "%s", err.message);
        } else {
            return unknown_option(arg);
        }
    }
    if (a->train && a->stats) return cli_usage("fit", "give a training file or --stats FILE, not both");
    if (!a->train && !a->stats) return cli_usage("fit", "missing the training file (TRAIN.csv, or - for stdin)");
    if (a->target_file && (!a->train || a->row_blocks))
        return cli_usage("fit", "--target-file gives the target of a training file (not of --stats or --row-blocks)");
    if (a->row_blocks && (!a->train || !strcmp(a->train, "-")))
        return cli_usage("fit", "--row-blocks reads blocks of a training file's rows (not --stats, not stdin)");
    if (a->row_blocks && (ends_with(a->train, ".bed") || ends_with(a->train, ".npy")))
        return cli_usage("fit", "--row-blocks reads blocks of a CSV's lines (not of a .npy or .bed file)");
    if (a->column_blocks && a->row_blocks) return cli_usage("fit", "--column-blocks or --row-blocks, not both");
    if (a->column_blocks && (!a->train || !ends_with(a->train, ".bed")))
        return cli_usage("fit", "--column-blocks reads blocks of a .bed set's variants (PLINK), one per process");
    if (a->column_blocks && !cli_par_serialized())
        return cli_usage("fit", "--column-blocks: this MPI library cannot be called from several threads "
                         "(MPI_THREAD_SERIALIZED)");
    return 0;
}

/* The files fit reads and writes, checked before the work starts. The
 * checkpoint may be the file --restart reads (it is read whole before the
 * first write, and replaced atomically), so each is checked without the
 * other. */
static int check_files(const fit_args *a, const basel_options *o)
{
    const char *resume = basel_options_get(o, "resume"), *running = basel_options_get(o, "running");
    const char *ckpt = basel_options_get(o, "checkpoint"), *restart = basel_options_get(o, "restart");
    cli_file files[] = {
        {"the training file", a->train, 0},
        {"--stats", a->stats, 0},
        {"--target-file", a->target_file, 0},
        {"--resume", resume && *resume ? resume : NULL, 0},
        {"-o", a->output, 1},
        {"--draws", a->draws, 1},
        {"--draws-loglik", a->draws_loglik, 1},
        {"--running", running && *running ? running : NULL, 1},
        {"--restart", restart && *restart ? restart : NULL, 0},
    };
    const size_t n = sizeof files / sizeof files[0];
    int rc = cli_check_files(files, n);
    files[n - 1] = (cli_file){"--checkpoint", ckpt && *ckpt ? ckpt : NULL, 1};
    return rc ? rc : cli_check_files(files, n);
}

/* err set to a message of the command's own (no file or line). */
static int fail(basel_error *err, int code, const char *message)
{
    memset(err, 0, sizeof *err);
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", message);
    return code;
}

/* The training table read and handed over to the fit, which frees it as
 * it goes (basel_fit_run_take: a large table's numbers are held once, not
 * twice); the last column's name, the default target, is kept for the note
 * after the fit (NULL when out of memory: no note). */
static int read_and_fit(basel_fit **fit, const fit_args *a, const basel_options *o, char **last_column,
                        basel_error *err)
{
    basel_data *data = NULL;
    if (a->column_blocks) { /* this process's block of the variants; every process reads, then all agree */
        int rc = basel_data_read_block(&data, a->train, a->target_file, o, cli_par_rank(), cli_par_size(), err);
        if (rc && cli_par_rank() > 0) cli_par_say(err);
        double failed = rc != 0;
        if (cli_par_reduce(&failed, 1, 1) && !rc) rc = fail(err, BASEL_EIO, "the processes could not agree");
        if (!rc && failed > 0) rc = fail(err, BASEL_EINVAL, "another process could not read its block of the variants");
        if (rc) {
            basel_data_free(data);
            return 1;
        }
    } else if (basel_data_read(&data, a->train, a->target_file, o, err)) {
        return 1;
    }
    const char *last = basel_data_name(data, basel_data_cols(data) - 1);
    if ((*last_column = malloc(strlen(last) + 1))) strcpy(*last_column, last);
    return basel_fit_run_take(fit, data, o, err) != BASEL_OK;
}

int cli_fit(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            const char *method = NULL;
            for (int j = 1; j + 1 < argc; j++)
                if (!strcmp(argv[j], "--method")) method = argv[j + 1];
            return cli_fit_help_checked(stdout, method);
        }
    basel_options *o;
    if (basel_options_create(&o)) return 1;
    fit_args a = {0};
    int status = parse(argc, argv, o, &a);
    char *last_column = NULL;
    basel_fit *fit = NULL;
    basel_error err;
    const double t0 = now();
    if (!status) status = check_files(&a, o);
    if ((status = cli_par_start(status))) goto done; /* every process, before any reads */
    if (a.draws || a.draws_loglik) basel_options_set(o, "keep-draws", a.draws_loglik ? "2" : "1", &err);
    /* under mpirun: chains across the processes, rank 0 alone reports and writes */
    basel_options_set_ranks(o, cli_par_ranks(a.column_blocks));
    if (cli_par_rank() > 0) a.quiet = 1;
    const char *given_seed = basel_options_get(o, "seed");
    const int seed_picked = !given_seed || !*given_seed || !strcmp(given_seed, "0");
    if (seed_picked && cli_par_seed()) {
        char text[24];
        snprintf(text, sizeof text, "%lu", cli_par_seed());
        basel_options_set(o, "seed", text, &err);
    }
    fit_progress prog = {.show = !a.quiet};
    cli_progress_start(&prog.bar);
    basel_options_set_progress_report(o, progress, &prog);
    stop_lines_make(a.quiet, basel_options_get(o, "checkpoint"));
    catch_signals(1);
    const int failed = a.stats        ? basel_fit_run_stats(&fit, a.stats, o, &err)
                       : a.row_blocks ? cli_rows_fit(&fit, a.train, o, &err)
                                      : read_and_fit(&fit, &a, o, &last_column, &err);
    catch_signals(0);
    if (failed && err.code == BASEL_ELSEWHERE) goto done; /* this rank's chains went to rank 0 */
    if (!failed && cli_par_rank() > 0) goto done;        /* a method whose chains do not travel */
    if (failed) {
        if (!a.quiet) cli_progress_end(&prog.bar);
        if (stop_signal && (err.code == BASEL_INTERRUPTED || err.code == BASEL_ECANCELLED)) {
            const char *ckpt = basel_options_get(o, "checkpoint");
            fprintf(stderr, "basel: interrupted by signal %d; ", (int)stop_signal);
            if (err.code == BASEL_INTERRUPTED && ckpt && *ckpt)
                fprintf(stderr, "the run's state is saved in %s (continue with --restart %s); ", ckpt, ckpt);
            else if (err.code == BASEL_INTERRUPTED)
                fprintf(stderr, "%s; ", err.message); /* nothing kept yet to make a fit of */
            fprintf(stderr, "no FIT.json written\n");
            status = 3;
        } else {
            status = cli_report(&err);
        }
        goto done;
    }
    if (!a.quiet) cli_progress_end(&prog.bar);
    const char *target = basel_options_get(o, "target");
    if (!a.quiet && last_column && !a.target_file && (!target || !*target)) /* the default is a guess: say it */
        fprintf(stderr, "basel: the target is the last column, '%s' (--target NAME chooses another)\n",
                last_column);
    if (!a.quiet) fprintf(stderr, "basel: fitted in %.2f s\n", now() - t0);
    const size_t dropped = basel_fit_rows_dropped(fit);
    if (!a.quiet && dropped)
        fprintf(stderr, "basel: %zu training row%s with a missing value left out (--na drop)\n", dropped,
                dropped == 1 ? "" : "s");
    /* the fit's warnings (FIT.json diagnostics.warnings), one line each */
    for (size_t i = 0; !a.quiet && i < basel_fit_warning_count(fit); i++)
        fprintf(stderr, "basel: warning: %s\n", basel_fit_warning(fit, i));
    if (!a.quiet && seed_picked)
        fprintf(stderr, "basel: seed %lu (pass --seed %lu to repeat this fit)\n", basel_fit_seed(fit),
                basel_fit_seed(fit));
    /* the run's last phase on the bar: the files (or the summary) written */
    const double files = (a.draws ? 1 : 0) + (a.draws_loglik ? 1 : 0) + 1;
    if (!a.quiet) cli_progress(&(basel_progress){"writing", "files", 0, files, 0}, &prog.bar);
    /* the draws first: if either output fails, FIT.json is not left behind
     * claiming a run whose draws are missing */
    const int draws_failed = a.draws && basel_fit_write_draws(fit, a.draws, &err);
    if (draws_failed || (a.draws_loglik && basel_fit_write_draws_loglik(fit, a.draws_loglik, &err))) {
        if (!a.quiet) cli_progress_end(&prog.bar);
        if (!draws_failed) remove_written(a.draws, NULL); /* the draws without their log-likelihoods */
        status = cli_report(&err);
        goto done;
    }
    if (a.output) {
        if (basel_fit_write_json(fit, a.output, &err)) {
            remove_written(a.draws, a.draws_loglik);
            status = cli_report(&err);
        }
    } else {
        char *s = basel_fit_summary(fit);
        if (s) fputs(s, stdout);
        basel_free(s);
    }
    if (!a.quiet) {
        if (!status) cli_progress_last(&prog.bar, &(basel_progress){"writing", "files", files, files, 0});
        cli_progress_end(&prog.bar);
    }
    double done_it, planned;
    if (!status && stop_signal && !basel_fit_interrupted(fit, &done_it, &planned)) {
        /* the signal came as the chains ended, or after: nothing was cut */
        fprintf(stderr, "basel: interrupted by signal %d after the chains had done all their iterations; the "
                        "fit%s is complete\n", (int)stop_signal, a.output ? " written" : "");
        status = 3;
    } else if (!status && basel_fit_interrupted(fit, &done_it, &planned)) { /* a fit of part of the run */
        if (stop_signal)
            fprintf(stderr, "basel: interrupted by signal %d after %.0f of %.0f iterations; the fit%s is of that part\n",
                    (int)stop_signal, done_it, planned, a.output ? " written" : "");
        else /* no signal: the --max-time budget ran out */
            fprintf(stderr, "basel: stopped at --max-time after %.0f of %.0f iterations; the fit%s is of that part\n",
                    done_it, planned, a.output ? " written" : "");
        status = 3;
    }
done:
    basel_fit_free(fit);
    free(last_column);
    basel_options_free(o);
    return status;
}
