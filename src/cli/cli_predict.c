/* cli_predict.c: basel predict FIT.json TEST.csv [--model M] [--interval P|none]
 * [--interval-kind new|mean] [--id COLUMN] [--digits N] [-o PRED.csv] */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_predict_help(FILE *fp)
{
    char mean_interval[256];
    basel_method_list(mean_interval, sizeof mean_interval, "mean-interval", NULL);
    fprintf(fp,
            "usage: basel predict FIT.json TEST.csv [--model bma] [--interval 0.95|none]\n"
            "                     [--interval-kind new|mean] [--id COLUMN] [--digits N] [-o PRED.csv]\n"
            "\n"
            "Predicts every row of TEST.csv (it must have the fit's input columns, by name;\n"
            "other columns are ignored) and writes CSV to PRED.csv or stdout. TEST may also be a\n"
            ".npy array (columns x1 ..) or a PLINK .bed set beside its .bim and .fam (a column\n"
            "per variant ID; the rows are the .fam's samples, in order), as basel fit reads them:\n"
            "  <target>_mean,<target>_lower,<target>_upper for each target (regression), or\n"
            "  p_<class>...,class (the mixture classifier).\n"
            "  --model      bma (model average; the default where a method has several models) | prevalence |\n"
            "               median | hpm | projection (the fewest atoms that reproduce the average; Gaussian\n"
            "               subset fits); anneal predicts with its one network (map)\n"
            "  --interval   probability of the equal-tailed interval [default: 0.95], or none:\n"
            "               the means only (<target>_mean columns; for a bma of the subset\n"
            "               methods this skips the mixture quantiles, most of the cost)\n"
            "  --interval-kind new | mean: an interval for a new observation y at x [default],\n"
            "               or for the regression function f(x) = E[y | x] (BAS's se.fit; the\n"
            "               methods %s)\n"
            "  --id COLUMN  copy this column of TEST.csv (any text) into the predictions as\n"
            "               their first column, to match rows by key rather than by order\n"
            "  --digits N   significant digits of the numbers written, 1 to 17 [default: the\n"
            "               shortest text that reads back as exactly the same double (0.25\n"
            "               stays 0.25): programs read these files first, and then no digit\n"
            "               is lost, yet no number is longer than it needs; --digits 6 for a\n"
            "               table to read by eye]\n"
            "  -o FILE      the CSV file ('-', the default: stdout)\n"
            "A row with a missing input (an empty cell or NA in a column the fit uses) keeps its\n"
            "place with empty fields, and one warning gives the count and the first such row;\n"
            "the other rows are predicted as they would be alone.\n"
            "Intervals of the subset methods are the quantiles of the mixture over all\n"
            "visited models of each model's Student-t predictive (docs/FIT.md).\n"
            "\n"
            "Example:\n"
            "  basel predict fit.json data/linear/lin_p15_n200.csv --id x1 --digits 6 -o -\n",
            mean_interval);
}

int cli_digits(const char *cmd, const char *value, int *digits)
{
    char *end;
    errno = 0;
    const long v = strtol(value, &end, 10);
    if (*end || end == value || errno || v < 1 || v > 17)
        return cli_usage(cmd, "--digits '%s': expected a whole number from 1 to 17", value);
    *digits = (int)v;
    return 0;
}

/* One warning for the rows left without a prediction. */
static void warn_missing(const basel_pred *pred, const char *test)
{
    size_t row, line;
    const char *column;
    const size_t n = basel_pred_missing(pred, &row, &line, &column);
    if (!n) return;
    fprintf(stderr,
            "basel: warning: %s: %zu of %zu rows %s a missing input (the first: line %zu, column '%s'); "
            "%s left empty\n",
            strcmp(test, "-") ? test : "<stdin>", n, basel_pred_rows(pred), n == 1 ? "has" : "have", line,
            column ? column : "?", n == 1 ? "its prediction is" : "their predictions are");
}

typedef struct predict_args {
    const char *out, *model, *id;
    double level;
    basel_interval_kind kind;
    int digits;
    int no_interval, kind_given;
} predict_args;

/* Set the option name (without dashes) to value; 2 after a usage error. */
static const char *const PREDICT_OPTIONS[] = {"output", "model", "interval", "interval-kind", "id", "digits", "help"};
#define N_PREDICT_OPTIONS (sizeof PREDICT_OPTIONS / sizeof *PREDICT_OPTIONS)

static int set_option(const char *name, const char *value, predict_args *p)
{
    const char **out = &p->out, **model = &p->model;
    double *level = &p->level;
    basel_interval_kind *kind = &p->kind;
    if (!strcmp(name, "id")) {
        p->id = value;
    } else if (!strcmp(name, "digits")) {
        return cli_digits("predict", value, &p->digits);
    } else if (!strcmp(name, "interval-kind")) {
        p->kind_given = 1;
        if (!strcmp(value, "new")) *kind = BASEL_INTERVAL_NEW;
        else if (!strcmp(value, "mean")) *kind = BASEL_INTERVAL_MEAN;
        else return cli_usage("predict", "--interval-kind '%s': expected new or mean", value);
    } else if (!strcmp(name, "output")) {
        *out = value;
    } else if (!strcmp(name, "model")) {
        *model = value;
    } else if (!strcmp(name, "interval") && !strcmp(value, "none")) {
        p->no_interval = 1;
    } else if (!strcmp(name, "interval")) {
        char *end;
        errno = 0;
        *level = strtod(value, &end);
        if (*end || end == value || !(*level > 0 && *level < 1))
            return cli_usage("predict", "--interval '%s': expected a probability in (0, 1) or none", value);
    } else {
        return cli_usage("predict", "unknown option '--%s'", name);
    }
    return 0;
}

/* TEST.csv with the --id column (if any) read as text, unless the fit uses
 * it as an input (then it stays numeric, and is copied as a number). An
 * --id that is not a column is named as the option's fault. */
static int read_test(basel_data **data, const char *path, const char *id, const basel_fit *fit,
                     basel_error *err)
{
    const char *as_text = id;
    for (size_t j = 0; id && j < basel_fit_input_count(fit); j++)
        if (!strcmp(basel_fit_input_name(fit, j), id)) as_text = NULL;
    int rc = basel_data_read_inputs(data, path, as_text, err);
    int no_column = rc && as_text && err->line == 1 && strstr(err->message, "label column");
    if (!rc && id && basel_data_find(*data, id) < 0) { /* an input the file lacks */
        basel_data_free(*data);
        *data = NULL;
        no_column = 1;
    }
    if (no_column) {
        memset(err, 0, sizeof *err);
        err->code = rc = BASEL_EINVAL;
        snprintf(err->file, sizeof err->file, "%s", strcmp(path, "-") ? path : "<stdin>");
        err->line = 1;
        snprintf(err->message, sizeof err->message, "--id '%s': no such column in the header", id);
    }
    return rc;
}

int cli_predict(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    /* model NULL: the method's default; digits 0: the shortest exact text */
    predict_args p = {"-", NULL, NULL, 0.95, BASEL_INTERVAL_NEW, 0, 0, 0};
    int nf = 0, only_files = 0;
    cli_seen seen = {.n = 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || !a[1]) {
            if (nf == 2) return cli_usage("predict", "expected FIT.json and TEST.csv, got a third file '%s'", a);
            files[nf++] = a;
        } else if (!strcmp(a, "--")) {
            only_files = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cli_predict_help(stdout);
            return 0;
        } else if (!strcmp(a, "-o") || !strncmp(a, "--", 2)) {
            /* -o FILE, --name VALUE or --name=VALUE */
            const char *eq = strchr(a, '=');
            char name[64];
            const char *value;
            if (!strcmp(a, "-o")) {
                snprintf(name, sizeof name, "output");
            } else if (eq) {
                snprintf(name, sizeof name, "%.*s", (int)(eq - a - 2), a + 2);
            } else {
                snprintf(name, sizeof name, "%s", a + 2);
            }
            if (strcmp(name, "output") && strcmp(name, "model") && strcmp(name, "interval") &&
                strcmp(name, "interval-kind") && strcmp(name, "id") && strcmp(name, "digits"))
                return cli_unknown_option("predict", a, PREDICT_OPTIONS, N_PREDICT_OPTIONS);
            if (eq) {
                value = eq + 1;
            } else {
                if (cli_needs_value("predict", a, i + 1 < argc ? argv[i + 1] : NULL)) return 2;
                value = argv[++i];
            }
            if (cli_once(&seen, "predict", name) || set_option(name, value, &p)) return 2;
        } else {
            return cli_unknown_option("predict", a, PREDICT_OPTIONS, N_PREDICT_OPTIONS);
        }
    }
    if (nf < 2) return cli_usage("predict", "expected FIT.json and TEST.csv");
    if (p.no_interval && p.kind_given)
        return cli_usage("predict", "--interval none gives no interval, so --interval-kind has nothing to set");
    if (p.no_interval) p.kind = BASEL_INTERVAL_NONE;
    const cli_file checked[] = {{"the fit", files[0], 0}, {"the test file", files[1], 0}, {"-o", p.out, 1}};
    if (cli_check_files(checked, 3)) return 2;
    basel_error err;
    basel_fit *fit = NULL;
    basel_data *data = NULL;
    basel_pred *pred = NULL;
    int status = 0;
    /* the id column is read as text (the label column of the table) */
    if (basel_fit_read_json(&fit, files[0], &err) || read_test(&data, files[1], p.id, fit, &err) ||
        basel_fit_predict_ex(fit, data, p.model, p.level, p.kind, &pred, &err))
        status = cli_report(&err);
    if (!status) warn_missing(pred, files[1]);
    if (!status && basel_pred_write_csv_ex(pred, p.out, data, p.id, p.digits, &err)) status = cli_report(&err);
    basel_pred_free(pred);
    basel_data_free(data);
    basel_fit_free(fit);
    return status;
}
