/* cli_summary.c: basel summary FIT.json */
#include "cli.h"

#include <string.h>

void cli_summary_help(FILE *fp)
{
    fprintf(fp, "usage: basel summary FIT.json\n\n"
                "Prints the fit as a human-readable report: the priors that ran, each atom's posterior\n"
                "inclusion probability, the posterior of the model size, the selected models, the top\n"
                "models and the diagnostics with any warning. '-' reads FIT.json from stdin.\n\n"
                "For a kernel dictionary (--basis gauss, cubic, tps, lin-rbf) the atoms are listed as\n"
                "kernels, each by its centre and width; the coefficient table keeps only the terms that\n"
                "are always in, and the diagnostics say what to trust: single kernels' PIPs need not\n"
                "converge, the predictions and the posterior of the model size do.\n\n"
                "Example:\n  basel fit data/linear/lin_p15_n200.csv -o fit.json && basel summary fit.json\n");
}

int cli_summary(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        cli_summary_help(stdout);
        return 0;
    }
    if (argc != 2) return cli_usage("summary", "expected one FIT.json");
    const cli_file file = {"the fit", argv[1], 0};
    if (cli_check_files(&file, 1)) return 2;
    basel_error err;
    basel_fit *fit;
    if (basel_fit_read_json(&fit, argv[1], &err)) return cli_report(&err);
    char *s = basel_fit_summary(fit);
    int status = 0;
    if (s) fputs(s, stdout);
    else status = 1;
    basel_free(s);
    basel_fit_free(fit);
    return status;
}
