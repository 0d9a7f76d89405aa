/* cli_summary.c: basel summary FIT.json */
#include "cli.h"

#include <string.h>

int cli_summary(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: basel summary FIT.json\n\nPrints the fit as a human-readable report.\n");
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
