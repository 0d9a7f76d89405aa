/*
 * cli.h: the basel command line. It uses only the public header: the
 * library reports, the command line decides how to print and which exit
 * status to give (DESIGN.md: 0 success, 2 bad input or usage, 1 internal).
 */
#ifndef BASEL_CLI_H
#define BASEL_CLI_H

#include "basel.h"

#include <stddef.h>
#include <stdio.h>

/* Print err as "basel: FILE:LINE:COLUMN: message" (the parts that exist)
 * and return the exit status for its code. */
int cli_report(const basel_error *err);
/* A usage error: one line naming the problem plus a hint; returns 2. */
int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* An unknown option arg ("--name", "--name=value" or "-x") of cmd: a usage
 * error, with "did you mean" one of known (names without "--") when one is
 * near (basel_suggest); returns 2. */
int cli_unknown_option(const char *cmd, const char *arg, const char *const *known, size_t n);
/* Progress of long work on stderr (cli_progress.c), phase by phase
 * (basel_progress: standardising, columns, gram, sampling, the phases after
 * it, then the command's own "writing"): on a terminal a bar with the
 * phase, the fraction done, the rate in the phase's units (draws/s,
 * moves/s, ...) and the time left of the whole run, redrawn at most 10
 * times a second; otherwise one line every 10 s
 * (BASEL_PROGRESS_INTERVAL=SECONDS sets another interval). Nothing for work
 * that ends within 2 s (or the interval, when shorter). The time left is
 * this phase's rest at its measured rate (or, before it has one, its
 * estimate) plus the library's estimate of the phases after it
 * (basel_progress later), both scaled by how long the phases estimated so
 * far took against their estimates. */
typedef struct cli_progress_state {
    double t0, last, every, phase_t0, total;
    double later;     /* the last report's estimate of the phases after it (NAN: none) */
    double phase_est; /* this phase's own estimate (NAN: none) */
    double spent, spent_est; /* time and estimate of the estimated phases that ended */
    const char *phase, *unit;
    int tty, shown_phase, shown_any;
} cli_progress_state;
void cli_progress_start(cli_progress_state *s);
/* The library's progress report; user is a cli_progress_state. Returns 0. */
int cli_progress(const basel_progress *p, void *user);
/* The run's last report: shown whenever any report of the run was. */
void cli_progress_last(cli_progress_state *s, const basel_progress *p);
/* Clear the bar (if one was drawn). */
void cli_progress_end(cli_progress_state *s);

/* One file named on the command line (cli_files.c). */
typedef struct cli_file {
    const char *role; /* how the message names it: "the training file", "-o" */
    const char *path; /* NULL: not given; "-": stdin or stdout */
    int is_output;
} cli_file;
/* Before any work: refuse an output that is the same file as an input or
 * another output (same device and inode, or the same name), an input that
 * is a directory, and an output that is a directory, block device or
 * socket. Prints "basel: FILE: ..." naming both files and returns 2, or
 * returns 0. */
int cli_check_files(const cli_file *files, size_t n);

/* The options seen so far, to refuse one given twice. */
typedef struct cli_seen {
    char names[64][64];
    size_t n;
} cli_seen;
/* 0 the first time name (without its dashes) is seen; a usage error
 * (returns 2) the second time. */
int cli_once(cli_seen *s, const char *cmd, const char *name);
/* 0 when value (the argument after option opt, NULL if there is none) can
 * be its value; a usage error when it is missing, starts with "--" or is
 * one of the short options -o, -h, -q (an option; such a value must be
 * written opt=VALUE). */
int cli_needs_value(const char *cmd, const char *opt, const char *value);

/* --digits VALUE of cmd: an integer 1..17 into *digits; a usage error
 * (returns 2) otherwise (cli_predict.c). */
int cli_digits(const char *cmd, const char *value, int *digits);

/* Processes: the MPI build's cli_par_mpi.c, else cli_par_none.c (one
 * process). cli_par_init starts MPI when run by mpirun with more than one
 * process; cli_par_ranks is then what basel_options_set_ranks takes (NULL
 * in one process); cli_par_rank is 0 in one process. cli_par_finish ends
 * MPI and returns the exit status every process gives: rank 0's. */
void cli_par_init(int *argc, char ***argv);
int cli_par_rank(void);
int cli_par_size(void);
/* A process > 0 reports its own failure on the stderr it started with
 * ("basel[rank R]: ..."; its stderr is otherwise held back). */
void cli_par_say(const basel_error *err);
/* Every process: x[0..n) becomes its sum (max: its maximum) over the
 * processes; nothing in one process. 0, or -1 when MPI fails. Every
 * process must call it, in the same order and with the same n. */
int cli_par_reduce(double *x, size_t n, int max);
/* fit, before any process reads its input: every process gives its exit
 * status so far (its options and files checked) and gets the worst of
 * them, so that a process that stopped on its own (an output directory
 * missing on its machine) cannot leave the others waiting in the
 * collectives of --row-blocks or --column-blocks. Rank 0 says when another
 * process stopped (whose own message is then shown). In one process, its
 * own status. */
int cli_par_start(int status);
/* fit --row-blocks (cli_rows.c): each process reads its block of path's
 * rows, the centred X'X, X'y, y'y and n of the target and inputs that o
 * names are added over the processes, and the fit runs on them
 * (basel_fit_run_stats_mem). Every process calls it. */
int cli_rows_fit(basel_fit **fit, const char *path, const basel_options *o, basel_error *err);
/* Across processes, the seed of a fit that names none (the same in every
 * process); 0 in one process (the library picks one). */
unsigned long cli_par_seed(void);
/* The processes for basel_options_set_ranks, with column_blocks (fit
 * --column-blocks: each process holds a block of the inputs, the
 * library's bcast and gatherv go over MPI) or without (chains spread). */
const basel_ranks *cli_par_ranks(int column_blocks);
/* Whether MPI may be called from any thread, one at a time (1 in one
 * process): rank 0's chains ask for columns from their threads. */
int cli_par_serialized(void);
int cli_par_finish(int status);

/* One subcommand: its name, entry, help and one-line summary (main.c). */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *fp);
    const char *summary;
    /* a capability (basel_method_can) whose methods the summary names, in
     * parentheses, from the engine table; NULL: none */
    const char *methods;
} cli_command;
const cli_command *cli_commands(size_t *n);
/* c's one-line summary with its methods (c->methods) into buf; returns buf. */
const char *cli_command_summary(const cli_command *c, char *buf, size_t len);

int cli_fit(int argc, char **argv);
int cli_predict(int argc, char **argv);
int cli_summary(int argc, char **argv);
int cli_coef(int argc, char **argv);
int cli_demo(int argc, char **argv);
int cli_plot(int argc, char **argv);
void cli_fit_help(FILE *fp, const char *method);
/* The same for `basel help fit --method M` and `basel fit --method M
 * --help`: 0, or 2 with a usage message when M is no method. */
int cli_fit_help_checked(FILE *fp, const char *method);
void cli_predict_help(FILE *fp);
void cli_summary_help(FILE *fp);
void cli_demo_help(FILE *fp);
void cli_coef_help(FILE *fp);
void cli_plot_help(FILE *fp);
/* The man page (roff) and the bash completion script, generated from the
 * command, method and option tables (cli_doc.c). */
void cli_man(FILE *fp);
void cli_completion(FILE *fp);

/* The embedded demo data (demo_data.c, generated by tools/embed_data.py). */
extern const char cli_demo_sinc_csv[];
extern const char cli_demo_boston_csv[];
extern const size_t cli_demo_boston_test[25];

#endif
