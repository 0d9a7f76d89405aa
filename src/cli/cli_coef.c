/* cli_coef.c: basel coef FIT.json [--digits N] [-o COEF.csv]: the coefficient table as CSV */
#include "cli.h"

#include <string.h>

void cli_coef_help(FILE *fp)
{
    char have[256];
    basel_method_list(have, sizeof have, "coefficients", "and");
    fprintf(fp,
            "usage: basel coef FIT.json [--digits N] [-o COEF.csv]\n"
            "\n"
            "Writes the fit's coefficient table as CSV to COEF.csv or stdout (as BAS's coef()\n"
            "and confint()), one row per term and target:\n"
            "  term,target,pip,mean,sd,cond_mean,cond_sd,lower,upper\n"
            "term is (Intercept), an always-in input or an atom; pip its inclusion probability;\n"
            "mean and sd its model-averaged posterior mean and sd (0 in the models without it);\n"
            "cond_mean and cond_sd the same given that it is in the model (empty when it never\n"
            "was); lower and upper the 95%% equal-tailed credible interval of the model-averaged\n"
            "posterior. Coefficients are on the original scale of the inputs.\n"
            "Fits of %s have the table (docs/FIT.md, \"coefficients\"); with\n"
            "--family binomial or poisson on the log-odds or log-rate scale, each model's\n"
            "posterior by its Laplace approximation (docs/GLM.md, \"Coefficients\").\n"
            "  --digits N   significant digits of the numbers, 1 to 17 [default: the shortest\n"
            "               text that reads back as the same double; see basel help predict]\n"
            "  -o FILE      the CSV file ('-', the default: stdout)\n",
            have);
}

int cli_coef(int argc, char **argv)
{
    const char *file = NULL, *out = "-";
    int only_files = 0, seen_o = 0, seen_digits = 0, digits = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_files || a[0] != '-' || !a[1]) {
            if (file) return cli_usage("coef", "expected one FIT.json, got a second file '%s'", a);
            file = a;
        } else if (!strcmp(a, "--")) {
            only_files = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cli_coef_help(stdout);
            return 0;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strncmp(a, "--output=", 9)) {
            if (seen_o++) return cli_usage("coef", "option '-o' given twice");
            if (!strncmp(a, "--output=", 9)) {
                out = a + 9;
            } else {
                if (cli_needs_value("coef", a, i + 1 < argc ? argv[i + 1] : NULL)) return 2;
                out = argv[++i];
            }
        } else if (!strcmp(a, "--digits") || !strncmp(a, "--digits=", 9)) {
            if (seen_digits++) return cli_usage("coef", "option '--digits' given twice");
            const char *v = a[8] == '=' ? a + 9 : NULL;
            if (!v && cli_needs_value("coef", a, i + 1 < argc ? argv[i + 1] : NULL)) return 2;
            if (cli_digits("coef", v ? v : argv[++i], &digits)) return 2;
        } else {
            return cli_unknown_option("coef", a, (const char *const[]){"output", "digits", "help"}, 3);
        }
    }
    if (!file) return cli_usage("coef", "expected one FIT.json");
    const cli_file checked[] = {{"the fit", file, 0}, {"-o", out, 1}};
    if (cli_check_files(checked, 2)) return 2;
    basel_error err;
    basel_fit *fit = NULL;
    int status = 0;
    if (basel_fit_read_json(&fit, file, &err) || basel_fit_write_coef_csv_ex(fit, out, digits, &err)) status = cli_report(&err);
    basel_fit_free(fit);
    return status;
}
