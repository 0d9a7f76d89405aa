/*
 * basel.h: Bayesian selection of inputs and basis functions by
 * trans-dimensional Monte Carlo. The only installed header of libbasel.
 *
 * The API has four opaque handles:
 *   basel_data      a numeric table read from CSV (immutable once read);
 *   basel_options   the settings of a fit, set by name ("method", "basis", ...);
 *   basel_fit       the result of a fit, or a fit read back from FIT.json;
 *   basel_pred      predictions of a fit on new rows.
 *
 * Conventions (see STYLE.md in the project's shared notes):
 *   - every fallible call returns a basel_status: 0 is BASEL_OK, failures are
 *     negative; the caller-owned basel_error gets the code, a message and,
 *     where one exists, the file/line/column the message is about;
 *   - whoever creates frees; every _free accepts NULL;
 *   - the library never exits, aborts, prints or changes process-wide state;
 *   - randomness comes only from the seed in the options: the same seed and
 *     number of chains give the same fit whatever the number of threads;
 *   - handles may be used from different threads as long as one handle is
 *     used by one thread at a time.
 */
#ifndef BASEL_H
#define BASEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(BASEL_BUILDING) && defined(__GNUC__)
#define BASEL_API __attribute__((visibility("default")))
#else
#define BASEL_API
#endif

#define BASEL_VERSION_MAJOR 0
#define BASEL_VERSION_MINOR 1
#define BASEL_VERSION_PATCH 0
#define BASEL_VERSION_STRING "0.1.0"

/* Status codes. Published values never change or get reused. */
typedef enum basel_status {
    BASEL_OK = 0,
    BASEL_EINVAL = -1,     /* bad argument, option or setting */
    BASEL_ENOMEM = -2,     /* out of memory; the handle is left usable */
    BASEL_EIO = -3,        /* a file could not be read or written */
    BASEL_EPARSE = -4,     /* malformed input data (CSV, JSON, spec) */
    BASEL_ENUMERIC = -5,   /* a matrix was not positive definite, a value not finite */
    BASEL_ECANCELLED = -6, /* the caller's cancel flag was raised */
    BASEL_ERANGE = -7,     /* a problem too large for the method (e.g. m > 24 to enumerate) */
    BASEL_EINTERNAL = -8,  /* a bug: please report it */
    /* Positive: the call ended early, and says why. */
    BASEL_INTERRUPTED = 1, /* the progress callback returned BASEL_PROGRESS_STOP: the
                              chains stopped at a boundary, and their state is in the
                              checkpoint file when the option "checkpoint" was set */
    BASEL_ELSEWHERE = 2    /* this process ran its share of the chains and handed it to
                              rank 0, which makes the fit (basel_options_set_ranks) */
} basel_status;

/* Caller-owned error record, filled by every call that can fail. line and
 * column are 1-based and 0 when they do not apply; file is "" then too. */
typedef struct basel_error {
    int code;
    char file[256];
    size_t line;
    size_t column;
    char message[512];
} basel_error;

/* The name of a status code ("BASEL_EPARSE"); never NULL. */
BASEL_API const char *basel_status_str(int code);
/* "0.1.0"; the run-time version of the library. */
BASEL_API const char *basel_version(void);
/* Which BLAS the library's cblas_* calls bind to in this process, read off
 * the loader (dladdr of cblas_dsyrk): "optimised: OpenBLAS <config> <path>",
 * "reference: <path>" (GSL's CBLAS or netlib's) or "unknown: <path>".
 * Never NULL. */
BASEL_API const char *basel_blas(void);
/* Free memory the library handed out (strings from basel_fit_summary). */
BASEL_API void basel_free(void *p);
/* The one of names[0 .. n-1] a user most likely meant by word, for a "did
 * you mean" hint: the nearest by edit distance (insertions, deletions,
 * substitutions and swaps of neighbours; case ignored), if it is near
 * enough to be a typo (1 edit for words of up to 4 characters, 2 up to 8,
 * else 3), else NULL. Never word itself. */
BASEL_API const char *basel_suggest(const char *word, const char *const *names, size_t n);

/* ---------------------------------------------------------------- data */

typedef struct basel_data basel_data;
typedef struct basel_options basel_options;

/* Read a CSV file with a header row ("-" reads stdin). Fields may be quoted;
 * LF, CRLF or CR-only line ends and a trailing blank line are accepted. A
 * line may hold up to 16 MiB and a field up to 64 KiB; past that, or at a
 * NUL byte, the reading stops at once (binary or endless input costs no
 * memory). Cells must be numbers, except
 * in the column named label_column, whose cells are kept as strings (class
 * labels; an empty cell means "unlabelled"). label_column NULL means no
 * label column; "" means the last column.
 * Errors: BASEL_EIO (cannot open), BASEL_EPARSE (ragged row, empty file,
 * duplicate column name, ...) with err->file/line/column set. Cells that are
 * not numbers are not an error here: they are reported, with their position,
 * when a fit or prediction uses that column. */
BASEL_API int basel_data_read_csv(basel_data **out, const char *path,
                                  const char *label_column, basel_error *err);
/* Read a table as `basel fit` does. path ("-": stdin) is a CSV file, read
 * as basel_data_read_csv does, or a NumPy .npy array (float64, float32,
 * integers or bool; shape (n, p) with columns x1 .. xp, or (n,) with one
 * column y), told apart by its first byte; a file named *.npy is always
 * read as an array. A file named *.bed is PLINK 1 binary genotypes
 * (SNP-major) with its .bim and .fam beside it: a column per variant, named
 * by its .bim ID, holding the count of its A1 allele (NaN missing), the rows
 * the .fam's samples (README "Large designs"). target_path (NULL: none) is
 * a one-column file of either format (a .npy vector, or a CSV with one
 * column) whose column is appended as the last column, the default target;
 * without one, a .bed's target is its .fam's phenotype (column
 * "phenotype", -9 missing). The label column is the
 * one o's method reads (basel_options_label_column; a number becomes its
 * text). o's progress callbacks are called between pieces of the input
 * with phase "reading" in "bytes", and a non-zero return stops the reading
 * (BASEL_ECANCELLED). o may be NULL. Memory: the table plus a constant.
 * Errors: those of basel_data_read_csv; BASEL_EPARSE for a .npy file whose
 * header is not valid or that ends early, and for a .bed set that does not
 * hold together (magic, mode, size, a .bim or .fam line, a repeated
 * variant ID); BASEL_EIO for a .bim or .fam that cannot be opened;
 * BASEL_EINVAL for a target file with more than one column or another
 * number of rows, or a .fam with no phenotype and no target file. */
BASEL_API int basel_data_read(basel_data **out, const char *path, const char *target_path, const basel_options *o,
                              basel_error *err);
/* The table of one process of a fit on inputs held in blocks
 * (basel_ranks.column_blocks; fit --column-blocks): block `block` of
 * `blocks` of a .bed set's variants, with the target as basel_data_read
 * gives it. The blocks are whole panels of 16 variants in order, every
 * one but the last of 16 ceil(p / (16 blocks)) variants, and only the
 * block's genotypes are read. Errors: those of basel_data_read, and
 * BASEL_EINVAL for a file that is not a .bed set, a block out of range,
 * or an empty block (fewer than 16 (blocks - 1) + 1 variants). */
BASEL_API int basel_data_read_block(basel_data **out, const char *path, const char *target_path,
                                    const basel_options *o, int block, int blocks, basel_error *err);
/* Read a table of inputs to predict from, as `basel predict` does: a CSV
 * (label_column as basel_data_read_csv's: NULL none, "" the last, else
 * that column, read as text), a .npy array, or a .bed set with its .bim
 * and .fam, as basel_data_read reads them, but a .bed without its
 * phenotype (its columns are the variants alone; label_column must then
 * be NULL or ""). Errors: those of basel_data_read; BASEL_EINVAL for a
 * label column asked of a .bed set. */
BASEL_API int basel_data_read_inputs(basel_data **out, const char *path, const char *label_column,
                                     basel_error *err);
/* The same from a memory buffer; name is used in messages. */
BASEL_API int basel_data_read_buffer(basel_data **out, const char *name, const char *text,
                                     size_t len, const char *label_column, basel_error *err);
/* A table from memory, for front ends: n rows and p numeric columns, the
 * value of row i, column j at x[i * row_stride + j * col_stride]
 * (column-major: row_stride 1, col_stride n; row-major: p and 1); names
 * holds p distinct non-empty names (NULL: x1, x2, ...). The values are
 * copied. A NaN is a missing value (the fit's "na" option decides); an
 * infinity is refused when a fit uses its column. source names the table
 * in messages ("<matrix>" for NULL), which give the 1-based row as the line.
 * Errors: BASEL_EINVAL (no rows or columns, a name empty or used twice),
 * BASEL_ENOMEM. */
BASEL_API int basel_data_from_matrix(basel_data **out, const char *source, const double *x, size_t n,
                                     size_t p, size_t row_stride, size_t col_stride,
                                     const char *const *names, basel_error *err);
/* Append a numeric column of n values named name, value i at x[i * stride]
 * (copied; NaN and infinities as in basel_data_from_matrix): a target kept
 * apart from the inputs' matrix, or a data frame's columns one by one.
 * BASEL_EINVAL when the name is empty or taken; BASEL_ENOMEM (d unchanged). */
BASEL_API int basel_data_add_column(basel_data *d, const char *name, const double *x, size_t stride,
                                    basel_error *err);
/* Append a column of n class labels (copied; NULL or "" = unlabelled) named
 * name, to be a classifier's target. BASEL_EINVAL when the table has a label
 * column already or the name is taken; BASEL_ENOMEM (d unchanged). */
BASEL_API int basel_data_add_labels(basel_data *d, const char *name, const char *const *labels,
                                    basel_error *err);
/* Append a column of n text cells named name (copied; NULL, "" or "NA" =
 * missing): a categorical input, whose levels a fit turns into indicator
 * columns selected together (docs/FIT.md "factors"), and whose cells
 * predict maps to those levels by name. BASEL_EINVAL when the name is
 * empty or taken; BASEL_ENOMEM. */
BASEL_API int basel_data_add_text(basel_data *d, const char *name, const char *const *cells, basel_error *err);
BASEL_API size_t basel_data_rows(const basel_data *d);
BASEL_API size_t basel_data_cols(const basel_data *d);
/* Column name, valid while d lives; NULL if j is out of range. */
BASEL_API const char *basel_data_name(const basel_data *d, size_t j);
/* Index of the column called name, or -1. */
BASEL_API long basel_data_find(const basel_data *d, const char *name);
/* Value of row i, column j (NaN for a cell that is not a number). */
BASEL_API double basel_data_value(const basel_data *d, size_t i, size_t j);
/* A new data set holding the given rows of d (0-based), in that order. */
BASEL_API int basel_data_subset(basel_data **out, const basel_data *d, const size_t *rows,
                                size_t nrows, basel_error *err);
/* The centred cross products of k numeric columns of d (cols, 0-based)
 * about the given means: out[a + b k] = sum over rows of (x_a - mean[a]) (x_b
 * - mean[b]), k x k, both triangles. With the means of all the rows, sums of
 * this over blocks of rows are the whole table's centred X'X, X'y and y'y
 * (basel_stats). BASEL_EINVAL naming a cell that is not a number (file,
 * line, column), BASEL_ENOMEM (n x k doubles are held). */
BASEL_API int basel_data_crossprod(const basel_data *d, const size_t *cols, size_t k, const double *mean,
                                   double *out, basel_error *err);
BASEL_API void basel_data_free(basel_data *d);

/* ------------------------------------------------------------- options */

/* Defaults: method "bd", basis "linear", prior chosen by the method,
 * model prior chosen by the method, seed 0 = pick one (see basel_fit_seed). */
BASEL_API int basel_options_create(basel_options **out);
/* Set one option by name, from its text form (the command line's spelling,
 * without the dashes: "method", "basis", "prior", "model-prior", "target",
 * "inputs", "iter", "burn", "chains", "seed", "threads", "standardize",
 * "kmax", "top", ...; basel_options_describe lists them). An unknown name is
 * BASEL_EINVAL with a message that lists what is accepted. Values, and
 * whether the chosen method reads the option, are checked by basel_fit_run
 * before any work. A front end's logical may be given as "true" or
 * "false": a switch (keep-draws, shuffle) stores 1 or 0 and standardize
 * yes or no; any other option keeps the word and basel_fit_run refuses it.
 * Copies value. */
BASEL_API int basel_options_set(basel_options *o, const char *name, const char *value,
                                basel_error *err);
/* The text value of an option as it stands now (as set, else the chosen
 * method's default, "" when derived from the data), or NULL for an unknown
 * name. */
BASEL_API const char *basel_options_get(const basel_options *o, const char *name);
/* The option catalogue, for help texts: the number of options, and for
 * option i its name and a one-line description (static strings). Returns
 * BASEL_EINVAL when i is out of range. */
BASEL_API size_t basel_options_count(void);
BASEL_API int basel_options_describe(size_t i, const char **name, const char **help);
/* The methods (engines): their number, and for method i its name and a
 * one-line summary (static strings). BASEL_EINVAL when i is out of range. */
BASEL_API size_t basel_method_count(void);
BASEL_API int basel_method_describe(size_t i, const char **name, const char **summary);
/* The coefficient priors --prior names for Gaussian targets, in the prior
 * table's order (i < basel_prior_count(); NULL past the end); "ssvs" (the
 * ssvs method's own) and the GLMs' "normal" are not among them. */
BASEL_API size_t basel_prior_count(void);
BASEL_API const char *basel_prior_name(size_t i);
/* The default of option for method: "" when the method derives it from the
 * data (the fit records the value it used), NULL when the method does not
 * read the option (setting it is then an error at fit time). */
BASEL_API const char *basel_method_option_default(const char *method, const char *option);
/* 1 when method with basis (NULL: the method's default basis) selects a
 * categorical input's indicator columns as one group (docs/FIT.md
 * "factors"); 0 when it refuses a column of text. A front end asks this
 * before passing a factor as text rather than as its own dummy columns. */
BASEL_API int basel_method_groups_factors(const char *method, const char *basis);
/* The engine table's capabilities, for front ends (no list of methods
 * written in a binding): 1 when method keeps its draws with the option
 * keep-draws=1 (basel_fit_draw), 1 when it predicts intervals of the
 * regression function f(x) and their sd (BASEL_INTERVAL_MEAN,
 * basel_pred_se), 1 when it fits models of family ("gaussian",
 * "binomial", "poisson", "multinomial"; NULL: "gaussian"; the mixture, a
 * classifier of labels, has none); 0 otherwise, and for an unknown method
 * or family. */
BASEL_API int basel_method_keeps_draws(const char *method);
BASEL_API int basel_method_mean_interval(const char *method);
BASEL_API int basel_method_has_family(const char *method, const char *family);
/* When to choose method over the others, with the numbers behind the
 * advice (plain text, lines of at most 80 characters), or NULL when the
 * engine table gives none or the method is unknown. */
BASEL_API const char *basel_method_advice(const char *method);
/* Every capability of the engine table by name, for help texts and front
 * ends: 1 when method can, 0 when it cannot, or for an unknown method or
 * capability. The names: "checkpoint" (the checkpoint and restart
 * options), "max-time" (a time budget), "draws" (basel_method_keeps_draws),
 * "factors" (basel_method_groups_factors with the linear basis), "stats"
 * (a fit from summary statistics, basel_fit_run_stats), "coefficients" (a
 * coefficient table, basel_fit_write_coef_csv), "scale-free" (a column of
 * extreme values rescaled, not refused, under --prior g, aic, bic or mdl),
 * "mean-interval" (basel_method_mean_interval), "column-blocks" (inputs
 * held in blocks by several processes, basel_ranks), and the families
 * "binomial", "poisson", "multinomial" (basel_method_has_family). */
BASEL_API int basel_method_can(const char *method, const char *capability);
/* The methods that can do capability (basel_method_can), in the engine
 * table's order, written into buf (len bytes, truncated to fit) as
 * "a, b, c" (last NULL) or "a, b and c" (last "and", "or", ...): the one
 * way a text names the methods able to do something. Returns buf. */
BASEL_API const char *basel_method_list(char *buf, size_t len, const char *capability, const char *last);
/* The predictors ("bma", "hpm", "map", ...: basel_fit_predict's model) of
 * method: the i-th (0 is the default), NULL past the end or for an unknown
 * method (static strings). */
BASEL_API const char *basel_method_model(const char *method, size_t i);
/* The column the chosen method reads as class labels (pass it to
 * basel_data_read_csv): NULL when the method takes numeric targets, "" for
 * the last column. */
BASEL_API const char *basel_options_label_column(const basel_options *o);
/* Optional progress callback, called from the calling thread between blocks
 * of work with the fraction of the sampling done (0 during the phases
 * before it, 1 during the phases after it); returning non-zero cancels the fit
 * (BASEL_ECANCELLED), except BASEL_PROGRESS_STOP during the sampling: with a
 * method that can
 * checkpoint (basel_method_can(method, "checkpoint")) the chains then stop at
 * their next boundary. With the option "checkpoint" set, their state is
 * written there and the fit returns BASEL_INTERRUPTED (no fit; "restart"
 * continues the run). Without it, the fit is made of the iterations done
 * and marked interrupted (basel_fit_interrupted, a warning), and
 * basel_fit_run returns BASEL_OK; BASEL_INTERRUPTED only when no chain had
 * kept an iteration yet. With the other methods, and before the sampling,
 * BASEL_PROGRESS_STOP cancels. After the sampling the return is not read:
 * the summaries of a finished sampling run to the end. */
typedef int (*basel_progress_fn)(double fraction_done, void *user);
#define BASEL_PROGRESS_STOP 2
BASEL_API void basel_options_set_progress(basel_options *o, basel_progress_fn fn, void *user);
/* One progress report, in units of work of one phase of the fit, in order:
 *   "standardising"  the data's columns ("columns"),
 *   "columns"        the basis columns at the training rows ("columns"; the
 *                    subset methods: basel_method_can(method, "coefficients")),
 *   "gram"           their Gram matrix when it is kept in memory and large
 *                    ("entries" of its lower triangle),
 *   "pairs"          rj's informed chains: the screen of nearby pairs of
 *                    atoms for the pair moves (--rj-pairs; "atoms"),
 *   "sampling"       the method's run: "draws" (bd, burn-in included),
 *                    "iterations" (rj),
 *                    "sweeps" (ssvs, mixture), "subsets" (enumerate),
 *                    "moves" (rbf, anneal), "points" (smc),
 * and after it (the subset methods with Gaussian targets; each
 * reported as it starts and as it ends):
 *   "diagnostics"    PIPs, top models, R-hat and effective sizes ("models":
 *                    the visited models kept),
 *   "posterior"      the visited models refitted for the model average's
 *                    predictive intervals ("models"),
 *   "projection"     the forward projection of the model average ("atoms"),
 *   "coefficients"   the coefficient table's posterior quantiles ("atoms"),
 *   "credible sets"  (the linear basis) ("atoms");
 * and for every method
 *   "document"       the fit assembled and checked ("fits": 1).
 * The strings are static; done never decreases within a phase; total > 0.
 *
 * Added at the end after basel 0.1.0 (a caller that reads the first four
 * fields sees what it always saw):
 *   later  the library's estimate of the CPU seconds the phases after this
 *          one will take, made from their sizes (visited models times their
 *          atoms, atoms times rows) with constants measured on one core
 *          (docs/NOTES.md "Progress"), so that a caller can show
 *          a time left for the whole fit: its rate in this phase gives this
 *          phase's rest, later the rest after it. During the sampling of bd
 *          and rj the visited models are not known yet, and the estimate
 *          takes --max-models per chain with kmax / 2 atoms each (an upper
 *          side); 0 when no phase of known cost follows; NAN when the
 *          library cannot tell. */
typedef struct basel_progress {
    const char *phase;
    const char *unit;
    double done, total;
    double later;
} basel_progress;
typedef int (*basel_progress_report_fn)(const basel_progress *p, void *user);
/* The same calls as basel_options_set_progress (the calling thread, between
 * blocks of work; non-zero cancels), with the phase, the unit and the counts,
 * from which a caller shows a rate and the time left. Either or both may be
 * set; the report is made first. */
BASEL_API void basel_options_set_progress_report(basel_options *o, basel_progress_report_fn fn, void *user);
/* Chains over processes (the command line's optional MPI build; README
 * "More than one machine"). Every process runs the same fit with the same
 * data and options; chain c runs in the process whose rank is c mod size,
 * seeded as in a one-process run. After its chains, every process calls
 * gather exactly once per fit with the bytes of its chains' complete states
 * (rank 0 with none): on rank 0, gather returns each rank's bytes in
 * parts[r], lens[r] (r = 0 .. size - 1; allocated with malloc, the library
 * frees them; when it could not allocate them, parts and lens are NULL
 * and gather receives and discards), on the other ranks it only sends
 * (parts and lens NULL); it returns 0, or non-zero
 * when the transfer failed. Rank 0 then reads every chain's state and makes
 * the fit, byte-identical to the one-process fit with the same chains and
 * seed; the other ranks' basel_fit_run returns BASEL_ELSEWHERE (no fit).
 * The methods whose chains run on the chain driver and can save their state
 * (basel_method_can(method, "checkpoint")) are distributed; the others compute
 * the whole fit in every process. "checkpoint", "restart" and "max-time"
 * are refused with size > 1 (BASEL_EINVAL). A size of 1, or ranks NULL:
 * one process, as without this call. Copies *ranks; user is borrowed. */
typedef struct basel_ranks {
    int rank, size;
    int (*gather)(void *user, const void *bytes, size_t len, void **parts, size_t *lens);
    void *user;
    /* Inputs held in blocks of columns, one per process (the command's
     * fit --column-blocks; DESIGN.md "Columns across processes"), when
     * column_blocks is 1: each process's table holds the same rows and
     * targets and its own block of the inputs, the blocks in rank order.
     * Rank 0 runs every chain, as one process would, and asks the others
     * for each pass over their columns; their basel_fit_run returns
     * BASEL_ELSEWHERE once rank 0's fit has ended. The fit is the one
     * process's fit of the whole table, byte for byte, when that fit's
     * design streams (DESIGN.md). The methods that can:
     * basel_method_can(method, "column-blocks"). Two collectives, called
     * by every process in the same order: bcast sends root's len bytes at
     * buf to every process; gatherv puts each rank's len bytes, in rank
     * order, at out on rank 0 (lens[r]: rank r's len, given on rank 0;
     * out and lens are NULL elsewhere). On rank 0 out or lens may be NULL
     * too (out of memory): the shares are received and dropped, and the
     * call fails; so does a share whose length is not lens[r]. Each
     * returns 0, or non-zero when the transfer failed. Calls may come from
     * different threads of rank 0, one at a time. */
    int column_blocks;
    int (*bcast)(void *user, void *buf, size_t len, int root);
    int (*gatherv)(void *user, const void *bytes, size_t len, void *out, const size_t *lens);
} basel_ranks;
BASEL_API void basel_options_set_ranks(basel_options *o, const basel_ranks *ranks);
BASEL_API void basel_options_free(basel_options *o);

/* ----------------------------------------------------------------- fit */

typedef struct basel_fit basel_fit;

/* Run the method chosen in o on data. On success *out owns the result.
 * Errors: BASEL_EINVAL (bad options for this data: a target that is not a
 * column, a non-numeric cell in a used column with its position, n too
 * small, ...), BASEL_ERANGE, BASEL_ENUMERIC, BASEL_ENOMEM, BASEL_ECANCELLED,
 * BASEL_EIO (a checkpoint that cannot be written or read), and the positive
 * BASEL_INTERRUPTED (no fit: see basel_progress_fn).
 * Checkpoints (the MCMC methods: basel_method_can(method, "checkpoint")): the
 * option "checkpoint" (a path) saves the chains' complete state there,
 * atomically, every "checkpoint-every" seconds (default 60; 0: only when
 * interrupted) and when interrupted; "restart" (a path) continues the run
 * saved there, and the fit is then byte-identical to an uninterrupted run's
 * (the other options and the data must be the same; a restart with seed 0
 * takes the checkpoint's seed). Neither is recorded in the fit. */
BASEL_API int basel_fit_run(basel_fit **out, const basel_data *data, const basel_options *o,
                            basel_error *err);
/* Every fit and prediction turns GSL's abort-on-error handler off
 * (gsl_set_error_handler_off, process-wide): the library checks each GSL
 * status itself, and never aborts the calling program. */
/* The same fit, byte for byte, taking the table: data is freed by this
 * call, whatever it returns, and must not be used after it. Its array of
 * numbers becomes the fit's working copy of the inputs instead of being
 * copied, so a large table costs its size in memory once, not twice (the
 * command line reads its input into this). Errors: as basel_fit_run. */
BASEL_API int basel_fit_run_take(basel_fit **out, basel_data *data, const basel_options *o, basel_error *err);
/* The same fit from summary statistics instead of rows: path names a JSON
 * file of centred X'X, X'y, y'y and n, or of a correlation (LD) matrix,
 * z-scores and n (docs/SUMMARY_STATS.md). The methods with
 * basel_method_can(method, "stats"), with --basis linear; target and
 * inputs must be unset or name the
 * file's columns exactly (the file names them), na unset or "error". The posterior equals the one from the rows
 * behind the statistics. Errors: as basel_fit_run, and BASEL_EIO /
 * BASEL_EPARSE for the file, BASEL_EINVAL naming a bad key. */
BASEL_API int basel_fit_run_stats(basel_fit **out, const char *path, const basel_options *o, basel_error *err);
/* The same from statistics in memory, the cross-product form of
 * docs/SUMMARY_STATS.md: n rows, p inputs named inputs[0 .. p), the
 * target's name (NULL: "y"), the centred X'X (p x p, column-major), X'y (p)
 * and y'y, and the means (x_mean NULL: none, and y_mean is not read).
 * source names them in messages and in FIT.json (summary_statistics.file;
 * NULL: "<memory>"). The checks and errors of basel_fit_run_stats; the
 * arrays are copied. */
typedef struct basel_stats {
    const char *source;
    size_t n, p;
    const char *const *inputs;
    const char *target;
    const double *xtx, *xty;
    double yty;
    const double *x_mean;
    double y_mean;
} basel_stats;
BASEL_API int basel_fit_run_stats_mem(basel_fit **out, const basel_stats *stats, const basel_options *o,
                                      basel_error *err);
/* Write FIT.json. A new or regular file (or the file a symlink points to)
 * is replaced atomically: a temporary file beside it, then rename; a
 * replaced file keeps its mode. A character device or FIFO is written in
 * place; a directory, block device or socket is refused (BASEL_EIO). The
 * draws and predictions writers below do the same. */
BASEL_API int basel_fit_write_json(const basel_fit *f, const char *path, basel_error *err);
/* Read a FIT.json written by basel_fit_write_json ("-" reads stdin). A
 * document of another format version is refused with a message saying how
 * to refit (docs/FIT.md). */
BASEL_API int basel_fit_read_json(basel_fit **out, const char *path, basel_error *err);
/* Write the draws CSV (one row per retained draw: chain, size, one 0/1
 * column per atom, then any sampled hyperparameters and the draw's values,
 * basel_fit_draw_values; '#' comment lines carry
 * the settings), atomically. Needs the option keep-draws=1 at fit time;
 * BASEL_EINVAL otherwise (and for fits read back from FIT.json). The draws
 * of the subset samplers (basel_method_can(method, "coefficients") and
 * basel_method_keeps_draws) are not held in memory: they were written during the
 * run to temporary files (in TMPDIR, else /tmp; nameless, gone with the fit),
 * which this copies; so it may be called more than once. */
BASEL_API int basel_fit_write_draws(const basel_fit *f, const char *path, basel_error *err);
/* The FIT.json format version this library writes and reads. */
BASEL_API int basel_fit_format_version(void);
/* The seed the fit used (useful when the options said "pick one"). */
BASEL_API unsigned long basel_fit_seed(const basel_fit *f);
/* The training rows the fit left out for a missing value (option na
 * "drop"; FIT.json rows_dropped), 0 when none were. */
BASEL_API size_t basel_fit_rows_dropped(const basel_fit *f);
/* 1 when the fit was made from an interrupted run (see basel_progress_fn:
 * FIT.json's diagnostics.interrupted), with the iterations done and
 * planned, over all chains and burn-in included (either pointer may be
 * NULL); 0 otherwise. */
BASEL_API int basel_fit_interrupted(const basel_fit *f, double *done, double *planned);
/* A human-readable report (PIP table with bars, size posterior, selected
 * models, diagnostics). The caller frees it with basel_free. NULL on ENOMEM. */
BASEL_API char *basel_fit_summary(const basel_fit *f);
/* Posterior inclusion probabilities: *m gets the number of atoms (inputs for
 * the mixture method); the array lives as long as f. */
BASEL_API const double *basel_fit_pip(const basel_fit *f, size_t *m);
/* Typed views of the fit (docs/FIT.md), for front ends; every pointer and
 * string lives as long as f, and NULL (with a count of 0) means the fit has
 * no such key (e.g. no PIPs for anneal).
 *   method: "bd", ...; atoms: the candidate atoms' names (aligned with
 *   basel_fit_pip); inputs: the input columns' names; size posterior:
 *   P(k = 0..len-1); selected: the atom indices (0-based, sorted) of the
 *   "hpm", "median", "prevalence" or "projection" model (projection: Gaussian
 *   fits of the subset methods only; NULL when the fit has none). */
BASEL_API const char *basel_fit_method(const basel_fit *f);
BASEL_API size_t basel_fit_atom_count(const basel_fit *f);
BASEL_API const char *basel_fit_atom_name(const basel_fit *f, size_t j);
BASEL_API size_t basel_fit_input_count(const basel_fit *f);
BASEL_API const char *basel_fit_input_name(const basel_fit *f, size_t j);
BASEL_API const double *basel_fit_size_posterior(const basel_fit *f, size_t *len);
BASEL_API const size_t *basel_fit_selected(const basel_fit *f, const char *which, size_t *k);
/* Where the fit's kernels sit, in the inputs' own units: *count centres of
 * basel_fit_input_count numbers each (row by row), living as long as f;
 * NULL and 0 when the fit has no kernels (a linear basis, the mixture).
 * bd, rj, ssvs, enumerate and smc: one per atom, aligned with
 * basel_fit_pip (smc's atoms are the points it has seen); rbf and anneal:
 * the kernels of every kept network, network after network (anneal keeps
 * one). For plots that mark the centres the data support. */
BASEL_API const double *basel_fit_centres(const basel_fit *f, size_t *count);
/* The kept draws (option keep-draws=1 at fit time; 0 for a fit read from
 * FIT.json): their number, and draw i's chain (0-based) and active atoms.
 * BASEL_EINVAL when i is out of range. Draws are streamed to temporary
 * files during the run; the first call reads them back into memory
 * (BASEL_ENOMEM, BASEL_EIO), so it is not safe to make the first call from
 * several threads at once. */
BASEL_API size_t basel_fit_draw_count(const basel_fit *f);
BASEL_API int basel_fit_draw(const basel_fit *f, size_t i, unsigned *chain, const size_t **atoms, size_t *k);
/* The kept draws' sampled hyperparameters (the draws CSV's columns after
 * the atoms, e.g. sigma2): their number, the s-th's name (NULL past the
 * end), and draw i's values (that many; living as long as f). The errors
 * of basel_fit_draw. */
BASEL_API size_t basel_fit_draw_scalar_count(const basel_fit *f);
BASEL_API const char *basel_fit_draw_scalar_name(const basel_fit *f, size_t s);
BASEL_API int basel_fit_draw_scalars(const basel_fit *f, size_t i, const double **values);
/* The kept draws' values (the draws CSV's columns after the sampled
 * hyperparameters; docs/FIT.md "The draws CSV"): sigma2, b_Intercept, b_
 * and each always-in input's name, b_ and each atom's name (0 when the
 * draw's model excludes it), log_lik, drawn after the run from their
 * posterior given the draw's model. 0 values (and NULL names) when the fit
 * has none (not a Gaussian subset fit, or a prior without them). Draw i's
 * values into out (that many doubles). The errors of basel_fit_draw. */
BASEL_API size_t basel_fit_draw_value_count(const basel_fit *f);
BASEL_API const char *basel_fit_draw_value_name(const basel_fit *f, size_t s);
BASEL_API int basel_fit_draw_values(const basel_fit *f, size_t i, double *out);
/* Each kept draw's pointwise log-likelihood of the training rows (option
 * keep-draws=2 at fit time, and a fit with the values above): the number
 * of rows (0: none kept), and draw i's (that many; living as long as f),
 * whose sum is its log_lik. The errors of basel_fit_draw. */
BASEL_API size_t basel_fit_draw_loglik_count(const basel_fit *f);
BASEL_API int basel_fit_draw_loglik(const basel_fit *f, size_t i, const double **values);
/* Write the pointwise log-likelihoods as CSV, atomically (as
 * basel_fit_write_draws): a header chain,iteration,draw,log_lik[1],...,
 * log_lik[n], then one row per kept draw. BASEL_EINVAL when the fit has
 * none (keep-draws=2 not set, or a fit without draw values). */
BASEL_API int basel_fit_write_draws_loglik(const basel_fit *f, const char *path, basel_error *err);
/* The fit's document, FIT.json's text; the caller frees it with basel_free.
 * NULL on ENOMEM. */
BASEL_API char *basel_fit_to_json(const basel_fit *f);
/* A fit from FIT.json's text (len bytes at text, no NUL needed); name is
 * used in messages. BASEL_EPARSE (with line and column for bad JSON),
 * BASEL_ENOMEM. */
BASEL_API int basel_fit_from_json(basel_fit **out, const char *name, const char *text, size_t len,
                                  basel_error *err);
/* Write the coefficient table (FIT.json "coefficients": for every term and
 * target, its PIP, model-averaged mean and sd, mean and sd given inclusion,
 * and the 95% equal-tailed interval, on the inputs' original scale) as CSV
 * with the header term,target,pip,mean,sd,cond_mean,cond_sd,lower,upper
 * (an empty cell where a term was never in a visited model), atomically
 * ("-" for stdout). BASEL_EINVAL for a fit without the table (a method
 * without basel_method_can(method, "coefficients")), BASEL_EIO. */
BASEL_API int basel_fit_write_coef_csv(const basel_fit *f, const char *path, basel_error *err);
/* The same with digits significant digits (1..17), or 0 (what
 * basel_fit_write_coef_csv uses) for the shortest text that reads back as
 * the double written. BASEL_EINVAL for digits out of range. */
BASEL_API int basel_fit_write_coef_csv_ex(const basel_fit *f, const char *path, int digits, basel_error *err);
/* The coefficient table as values (FIT.json "coefficients", the numbers
 * basel_fit_write_coef_csv writes): its number of rows (0: the fit has no
 * table), the level of its intervals (NaN without a table: they are
 * computed with the fit, 0.95), and row i's term ("(Intercept)", an
 * always-in input or an atom), target, and class (a multinomial fit's
 * class; NULL for the others and past the end). The strings live as long as
 * f. basel_fit_coef fills v[BASEL_COEF_PIP .. BASEL_COEF_UPPER] (NaN for a
 * number the row does not have: cond_mean and cond_sd of a term no visited
 * model held); BASEL_EINVAL for i out of range. */
enum {
    BASEL_COEF_PIP = 0,       /* posterior inclusion probability */
    BASEL_COEF_MEAN = 1,      /* model-averaged posterior mean (0 where excluded) */
    BASEL_COEF_SD = 2,        /* model-averaged posterior sd */
    BASEL_COEF_COND_MEAN = 3, /* mean given inclusion */
    BASEL_COEF_COND_SD = 4,   /* sd given inclusion */
    BASEL_COEF_LOWER = 5,     /* equal-tailed interval at basel_fit_coef_level */
    BASEL_COEF_UPPER = 6,
    BASEL_COEF_NVALUES = 7
};
BASEL_API size_t basel_fit_coef_count(const basel_fit *f);
BASEL_API double basel_fit_coef_level(const basel_fit *f);
BASEL_API const char *basel_fit_coef_term(const basel_fit *f, size_t i);
BASEL_API const char *basel_fit_coef_target(const basel_fit *f, size_t i);
BASEL_API const char *basel_fit_coef_class(const basel_fit *f, size_t i);
BASEL_API int basel_fit_coef(const basel_fit *f, size_t i, double v[BASEL_COEF_NVALUES]);
/* A coefficient table on demand. For model "hpm" (the highest-probability
 * model) or "median" (the median probability model; also "prevalence" and,
 * where the fit has it, "projection": the models basel_fit_predict
 * predicts with) the coefficients given that model, on the inputs'
 * original scale: BAS's coef(fit, estimator = "HPM" | "MPM"). For "bma"
 * the model-averaged table (basel_fit_coef's numbers) with its intervals
 * at level. The same rows as basel_fit_coef's table (basel_fit_coef_count
 * of them, in its order), each BASEL_COEF_NVALUES numbers at
 * v[i * BASEL_COEF_NVALUES] (the caller's array). One model's: PIP 1 for
 * the model's terms and the always-in ones, 0 for the others; mean and sd
 * the posterior mean and sd given the model (0 for a term not in it);
 * cond_mean and cond_sd the same for the model's terms (NaN for the
 * others); lower and upper the equal-tailed interval at level of the
 * model's Student-t posterior (0 and 0 for a term not in it), computed from
 * the fit's predictor of that model (the model refitted exactly). "bma":
 * lower and upper are the equal-tailed quantiles at level of the mixture,
 * over the models of the model average's predictive block (the visited
 * models holding all but 1e-6 of the posterior weight, each refitted
 * exactly, as basel_fit_predict's intervals), of each model's Student-t,
 * with the point mass 1 - PIP at 0; at the fit's own level they are the
 * table's to about 1e-6 (the table mixes every visited model). Nothing is
 * added to the fit (FIT.json unchanged). Under a mixture of g-priors
 * (hyper-g, jzs, ...) one model's means are exact and its terms' sds and
 * intervals NaN, and "bma" is refused (mixtures over g, which basel does
 * not compute; as predict refuses their intervals). BASEL_EINVAL for a
 * model the fit does not predict with, a fit without a coefficient table
 * or whose method computes none on demand (the subset methods do;
 * Gaussian fits only), a fit written before the predictive block ("bma"),
 * or level outside (0, 1); BASEL_EPARSE for a malformed document,
 * BASEL_ENOMEM. Thread-safe on a const f. */
BASEL_API int basel_fit_model_coef(const basel_fit *f, const char *model, double level, double *v,
                                   basel_error *err);
/* The posterior of every term of that table (model as there) as a
 * density: n points per term, row i's at x[i * n .. i * n + n) (the
 * caller's; basel_fit_coef_count rows), its density at them into
 * dens[i * n ..]. The density is the term's continuous part (the mixture
 * of the models' Student-t's for the model average, one model's
 * Student-t), which integrates to its PIP; the rest, 1 - PIP, is the point
 * mass at 0 (BAS's plot(coef(fit)): the spike and the slab). A term not in
 * the model has density 0. The errors of basel_fit_model_coef; also refused
 * under a mixture of g-priors. Thread-safe on a const f. */
BASEL_API int basel_fit_coef_density(const basel_fit *f, const char *model, const double *x, size_t n,
                                     double *dens, basel_error *err);
/* The listed models (FIT.json "models", most probable first): their number
 * (0: the fit lists none), and model i's atoms (0-based indices, living as
 * long as f) and size, posterior probability, log marginal likelihood (NaN
 * when the fit has none: sampled hyperparameters, ssvs's own prior, GLMs)
 * and log Bayes factor against the most probable listed model: the
 * difference of log marginal likelihoods where the fit has them, else for
 * the subset methods (one model prior over the atoms' subsets: not
 * --family multinomial) the posterior odds over the prior odds of the
 * --model-prior that ran, log(p_i / p_0) - (log pi(k_i) - log pi(k_0)); NaN
 * otherwise. Any out-pointer may be NULL. BASEL_EINVAL for i out of
 * range. */
BASEL_API size_t basel_fit_model_count(const basel_fit *f);
BASEL_API int basel_fit_model(const basel_fit *f, size_t i, const size_t **atoms, size_t *k, double *prob,
                              double *log_ml, double *log_bf_best);
/* The credible sets (FIT.json "credible_sets", docs/FIT.md: the subset
 * methods with the linear basis): their number (0: none), and set i's
 * atoms (in the order added; living as long as f) and size, coverage and
 * purity. Any out-pointer may be NULL. BASEL_EINVAL for i out of range. */
BASEL_API size_t basel_fit_credible_set_count(const basel_fit *f);
BASEL_API int basel_fit_credible_set(const basel_fit *f, size_t i, const size_t **atoms, size_t *k,
                                     double *coverage, double *purity);
/* The fit's warnings (FIT.json diagnostics.warnings: chains that have not
 * converged, too few effective draws, a size posterior at kmax): their
 * number, and the i-th (NULL past the end), which lives as long as f. */
BASEL_API size_t basel_fit_warning_count(const basel_fit *f);
BASEL_API const char *basel_fit_warning(const basel_fit *f, size_t i);
BASEL_API void basel_fit_free(basel_fit *f);

/* ------------------------------------------------------------- predict */

typedef struct basel_pred basel_pred;

/* Predict the rows of data (which must have the fit's input columns, by
 * name). model is "bma" (model average; the default for NULL), "prevalence",
 * "median", "hpm" or "projection" (Gaussian fits of the subset methods).
 * level is the central interval's probability (0.95). */
BASEL_API int basel_fit_predict(const basel_fit *f, const basel_data *data, const char *model,
                                double level, basel_pred **out, basel_error *err);
/* What a predictive interval covers: a new observation y at x (the
 * default), or the regression function f(x) = E[y | x] (BAS's se.fit); or
 * no interval at all (BASEL_INTERVAL_NONE: the means only, level ignored;
 * basel_pred_get gives NaN bounds and the CSV has only the _mean columns;
 * for the subset methods' bma it skips the mixture quantiles, most of a
 * prediction's cost). */
typedef enum basel_interval_kind {
    BASEL_INTERVAL_NEW = 0,
    BASEL_INTERVAL_MEAN = 1,
    BASEL_INTERVAL_NONE = 2,
    /* no interval either (as NONE), but the predictive sds, basel_pred_sd
     * and basel_pred_se: for the subset methods' bma the mixture's moments
     * without its quantiles (about a third of an interval's cost, while
     * NONE's means alone cost a tenth of that) */
    BASEL_INTERVAL_SD = 3
} basel_interval_kind;
/* basel_fit_predict with the interval's kind. Intervals are equal-tailed:
 * for the subset methods (basel_method_can(method, "coefficients")) the
 * quantiles of the mixture over the visited models of each model's
 * Student-t predictive (docs/FIT.md, "Predictions"). BASEL_INTERVAL_MEAN is
 * BASEL_EINVAL for the methods that only predict new observations (those
 * without basel_method_mean_interval). */
BASEL_API int basel_fit_predict_ex(const basel_fit *f, const basel_data *data, const char *model,
                                   double level, basel_interval_kind kind, basel_pred **out,
                                   basel_error *err);
/* Write the predictions as CSV (header first; "-" for stdout), atomically.
 * Numbers in the shortest text that reads back exactly (as
 * basel_pred_write_csv_ex with digits 0); a row without a prediction
 * (basel_pred_missing) has empty fields. */
BASEL_API int basel_pred_write_csv(const basel_pred *p, const char *path, basel_error *err);
/* The same, with a row identifier and a precision: id_column (NULL: none) is
 * a column of ids (the table predicted; the label column's text when it is
 * the label column, as basel_data_read_csv with label_column = id_column
 * reads any text, else its numbers), written first under its own name;
 * digits 1..17 gives that many significant digits (%.*g), 0 the shortest
 * exact text (the first of %.15g, %.16g, %.17g that reads back as the
 * double written). BASEL_EINVAL: digits out of range, id_column not in ids
 * (the message names it), ids of another length; BASEL_ENUMERIC, BASEL_EIO. */
BASEL_API int basel_pred_write_csv_ex(const basel_pred *p, const char *path, const basel_data *ids,
                                      const char *id_column, int digits, basel_error *err);
/* Rows without a prediction because an input the fit uses is missing there
 * (an empty cell or NA in a CSV, a NaN in a table from memory): their
 * number; when there are any, the first one's 0-based row, its line in the
 * source (the 1-based row for a table from memory) and the input column
 * (lives as long as p). Such rows keep their place: basel_pred_get gives
 * NaN for them, basel_pred_prob NaN and class SIZE_MAX. The rows with every
 * input are predicted as they would be alone; when no row has every input,
 * basel_fit_predict fails with BASEL_EINVAL. Pointers may be NULL. */
BASEL_API size_t basel_pred_missing(const basel_pred *p, size_t *first_row, size_t *first_line,
                                    const char **first_column);
/* Row i of output j of a regression: mean, lower, upper. Returns
 * BASEL_EINVAL for indices out of range and for a classifier's predictions
 * (basel_pred_prob below). */
BASEL_API int basel_pred_get(const basel_pred *p, size_t i, size_t j, double *mean,
                             double *lower, double *upper);
BASEL_API size_t basel_pred_rows(const basel_pred *p);
/* A regression's outputs (the fit's targets, in order): their number (0
 * for a classifier's predictions) and the j-th's name (NULL past the end;
 * lives as long as p). */
BASEL_API size_t basel_pred_output_count(const basel_pred *p);
BASEL_API const char *basel_pred_output_name(const basel_pred *p, size_t j);
/* The sd of the regression function f(x) at row i for output j (BAS's
 * se.fit), whatever the interval's kind (but see basel_pred_sd for
 * BASEL_INTERVAL_NONE): for one model (hpm, median,
 * prevalence, projection) the scale of its Student-t (or normal) for f(x),
 * so that a BASEL_INTERVAL_MEAN interval is mean -+ q se with q the
 * t quantile at (1 + level) / 2 (the normal's for a prior with sigma^2
 * given); for the model average ("bma") the law of total variance over the
 * models its intervals mix, sqrt(sum_r w_r (s_r^2 + (mu_r - m)^2)) with
 * m = sum_r w_r mu_r and s_r each model's scale (as BAS's se.bma.fit).
 * NaN for a row without a prediction. basel_pred_has_se is 1 when the
 * predictions have it (Gaussian fits of the methods with
 * basel_method_mean_interval, except under a prior that mixes over g
 * within each model: hyper-g, jzs, ..., whose intervals basel refuses);
 * basel_pred_se is BASEL_EINVAL when they do not, and for indices out of
 * range. */
BASEL_API int basel_pred_has_se(const basel_pred *p);
BASEL_API int basel_pred_se(const basel_pred *p, size_t i, size_t j, double *se);
/* The predictive standard deviations at row i of output j, the same for
 * every interval's kind that has them (BASEL_INTERVAL_SD, which needs no
 * quantiles, is their cheap path; BASEL_INTERVAL_NONE has them for one
 * model, where they are free, not for the model average): in *sd_new that
 * of a new observation y, in *sd_mean that of the regression function
 * f(x) (either pointer may be NULL). For one model (hpm, median,
 * prevalence, projection) they are its Student-t's sd, its scale times
 * sqrt(df / (df - 2)) (the scale for a normal: a prior with sigma^2
 * given); for the model average ("bma") the
 * sd of the mixture of the models' t's (the models of its intervals),
 * sqrt(sum_r w_r (var_r + (mu_r - m)^2)), m = sum_r w_r mu_r, var_r =
 * s_r^2 df_r / (df_r - 2) each t's variance. INFINITY when a t the
 * prediction uses has df <= 2 (it has no finite variance); NaN for a row
 * without a prediction. Unlike basel_pred_se (which mixes the t's scales,
 * as BAS does), this is the sd of the very distribution the intervals are
 * quantiles of, what scikit-learn's return_std means. anneal, rbf and smc
 * give it too: the sd of the network's Student-t (anneal), of the equally
 * weighted mixture of the kept networks' t's (rbf), of the particles'
 * weighted mixture of normals (smc), by the same law of total variance.
 * basel_pred_has_sd is 1 for the subset methods exactly when
 * basel_pred_has_se is, and for anneal, rbf and smc; basel_pred_sd is
 * BASEL_EINVAL when it is 0, and for indices out of range. */
BASEL_API int basel_pred_has_sd(const basel_pred *p);
BASEL_API int basel_pred_sd(const basel_pred *p, size_t i, size_t j, double *sd_new, double *sd_mean);
/* Classification (the mixture method): the number of classes (0 for a
 * regression), class k's name (the fit's "classes", in order; NULL past the
 * end; lives as long as p), and row i's probability of class k in *prob and
 * its predicted class (the index basel_pred_write_csv names) in *cls; either
 * pointer may be NULL. BASEL_EINVAL for a regression or indices out of
 * range. */
BASEL_API size_t basel_pred_class_count(const basel_pred *p);
BASEL_API const char *basel_pred_class_name(const basel_pred *p, size_t k);
BASEL_API int basel_pred_prob(const basel_pred *p, size_t i, size_t k, double *prob, size_t *cls);
BASEL_API void basel_pred_free(basel_pred *p);

#ifdef __cplusplus
}
#endif
#endif /* BASEL_H */
