/* cli_predict.c: basel predict FIT.json TEST.csv [--model M] [--interval P] [-o PRED.csv] */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: basel predict FIT.json TEST.csv [--model bma] [--interval 0.95] [-o PRED.csv]\n"
            "\n"
            "Predicts every row of TEST.csv (it must have the fit's input columns, by name;\n"
            "other columns are ignored) and writes CSV to PRED.csv or stdout:\n"
            "  <target>_mean,<target>_lower,<target>_upper for each target (regression), or\n"
            "  p_<class>...,class (the mixture classifier).\n"
            "  --model      bma (model average; the default where a method has several models) | prevalence |\n"
            "               median | hpm; anneal predicts with its one network (map)\n"
            "  --interval   probability of the central predictive interval [default: 0.95]\n");
}

int cli_predict(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL}, *out = "-", *model = NULL; /* NULL: the method's default */
    double level = 0.95;
    int nf = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return 0;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--model") ||
                   !strcmp(a, "--interval")) {
            if (++i >= argc) return cli_usage("predict", "%s needs a value", a);
            if (!strcmp(a, "--model")) model = argv[i];
            else if (!strcmp(a, "--interval")) {
                char *end;
                errno = 0;
                level = strtod(argv[i], &end);
                if (*end || end == argv[i] || !(level > 0 && level < 1))
                    return cli_usage("predict", "--interval '%s': expected a probability in (0, 1)", argv[i]);
            } else out = argv[i];
        } else if (a[0] == '-' && a[1]) {
            return cli_usage("predict", "unknown option '%s'", a);
        } else {
            if (nf == 2) return cli_usage("predict", "expected FIT.json and TEST.csv, got a third file '%s'", a);
            files[nf++] = a;
        }
    }
    if (nf < 2) return cli_usage("predict", "expected FIT.json and TEST.csv");
    basel_error err;
    basel_fit *fit = NULL;
    basel_data *data = NULL;
    basel_pred *pred = NULL;
    int status = 0;
    if (basel_fit_read_json(&fit, files[0], &err) || basel_data_read_csv(&data, files[1], NULL, &err) ||
        basel_fit_predict(fit, data, model, level, &pred, &err) || basel_pred_write_csv(pred, out, &err))
        status = cli_report(&err);
    basel_pred_free(pred);
    basel_data_free(data);
    basel_fit_free(fit);
    return status;
}
