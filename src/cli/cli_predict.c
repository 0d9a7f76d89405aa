/* cli_predict.c: basel predict FIT.json TEST.csv [--model M] [--interval P]
 * [--interval-kind new|mean] [-o PRED.csv] */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_predict_help(FILE *fp)
{
    fprintf(fp,
            "usage: basel predict FIT.json TEST.csv [--model bma] [--interval 0.95]\n"
            "                     [--interval-kind new|mean] [-o PRED.csv]\n"
            "\n"
            "Predicts every row of TEST.csv (it must have the fit's input columns, by name;\n"
            "other columns are ignored) and writes CSV to PRED.csv or stdout:\n"
            "  <target>_mean,<target>_lower,<target>_upper for each target (regression), or\n"
            "  p_<class>...,class (the mixture classifier).\n"
            "  --model      bma (model average; the default where a method has several models) | prevalence |\n"
            "               median | hpm; anneal predicts with its one network (map)\n"
            "  --interval   probability of the equal-tailed interval [default: 0.95]\n"
            "  --interval-kind new | mean: an interval for a new observation y at x [default],\n"
            "               or for the regression function f(x) = E[y | x] (BAS's se.fit; the\n"
            "               subset methods enumerate, bd, rj, ssvs)\n"
            "Intervals of the subset methods are the quantiles of the mixture over all\n"
            "visited models of each model's Student-t predictive (docs/FIT.md).\n");
}

/* Set the option name (without dashes) to value; 2 after a usage error. */
static int set_option(const char *name, const char *value, const char **out, const char **model,
                      double *level, basel_interval_kind *kind)
{
    if (!strcmp(name, "interval-kind")) {
        if (!strcmp(value, "new")) *kind = BASEL_INTERVAL_NEW;
        else if (!strcmp(value, "mean")) *kind = BASEL_INTERVAL_MEAN;
        else return cli_usage("predict", "--interval-kind '%s': expected new or mean", value);
    } else if (!strcmp(name, "output")) {
        *out = value;
    } else if (!strcmp(name, "model")) {
        *model = value;
    } else if (!strcmp(name, "interval")) {
        char *end;
        errno = 0;
        *level = strtod(value, &end);
        if (*end || end == value || !(*level > 0 && *level < 1))
            return cli_usage("predict", "--interval '%s': expected a probability in (0, 1)", value);
    } else {
        return cli_usage("predict", "unknown option '--%s'", name);
    }
    return 0;
}

int cli_predict(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *out = "-", *model = NULL; /* NULL: the method's default */
    double level = 0.95;
    basel_interval_kind kind = BASEL_INTERVAL_NEW;
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
                strcmp(name, "interval-kind"))
                return cli_usage("predict", "unknown option '%s'", a);
            if (eq) {
                value = eq + 1;
            } else {
                if (cli_needs_value("predict", a, i + 1 < argc ? argv[i + 1] : NULL)) return 2;
                value = argv[++i];
            }
            if (cli_once(&seen, "predict", name) || set_option(name, value, &out, &model, &level, &kind)) return 2;
        } else {
            return cli_usage("predict", "unknown option '%s'", a);
        }
    }
    if (nf < 2) return cli_usage("predict", "expected FIT.json and TEST.csv");
    const cli_file checked[] = {{"the fit", files[0], 0}, {"the test file", files[1], 0}, {"-o", out, 1}};
    if (cli_check_files(checked, 3)) return 2;
    basel_error err;
    basel_fit *fit = NULL;
    basel_data *data = NULL;
    basel_pred *pred = NULL;
    int status = 0;
    if (basel_fit_read_json(&fit, files[0], &err) || basel_data_read_csv(&data, files[1], NULL, &err) ||
        basel_fit_predict_ex(fit, data, model, level, kind, &pred, &err) || basel_pred_write_csv(pred, out, &err))
        status = cli_report(&err);
    basel_pred_free(pred);
    basel_data_free(data);
    basel_fit_free(fit);
    return status;
}
