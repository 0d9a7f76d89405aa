/*
 * cli_demo.c: basel demo, the main job on the embedded data: the prevalence
 * method (paper 004: birth-death over kernel sets, ridge prior with sigma^2
 * and lambda sampled) on the sinc benchmark and on Boston housing, with the
 * test error next to what the peers reach on the same protocol
 * (data/regression/PEERS.md). Uses only the public API.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int set_all(basel_options *o, const char *const *kv, basel_error *err)
{
    for (size_t i = 0; kv[i]; i += 2)
        if (basel_options_set(o, kv[i], kv[i + 1], err)) return -1;
    return 0;
}

/* Mean squared error of a predictor against truth (n values). */
static double mse_of(const basel_pred *p, const double *truth, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double m, lo, hi;
        basel_pred_get(p, i, 0, &m, &lo, &hi);
        s += (m - truth[i]) * (m - truth[i]);
    }
    return s / (double)n;
}

/* E[k] under the fit's size posterior. */
static double mean_size(const basel_fit *fit)
{
    size_t len = 0;
    const double *p = basel_fit_size_posterior(fit, &len);
    double m = 0;
    for (size_t k = 0; p && k < len; k++) m += (double)k * p[k];
    return m;
}

/* The three predictors a user chooses between, with their sizes and test
 * errors (RMSE when root, else MSE): the model average, the prevalence model
 * (paper 004's k_opt atoms of largest PIP) and the projection model (the
 * smallest model whose predictions stay within --projection-tol of the
 * average's). */
static int errors_table(const basel_fit *fit, const basel_data *test, const double *truth, size_t n, int root,
                        const char *digits_fmt)
{
    const char *which[] = {"bma", "prevalence", "projection"};
    const char *label[] = {"model average", "prevalence model", "projection model"};
    for (size_t w = 0; w < 3; w++) {
        basel_pred *p = NULL;
        basel_error err;
        if (basel_fit_predict(fit, test, which[w], 0.95, &p, &err)) return cli_report(&err);
        const double e = mse_of(p, truth, n);
        basel_pred_free(p);
        char size[48];
        size_t k = 0;
        if (w == 0) snprintf(size, sizeof size, "E[k] = %.1f kernels", mean_size(fit));
        else if (basel_fit_selected(fit, which[w], &k)) snprintf(size, sizeof size, "%zu kernels", k);
        else snprintf(size, sizeof size, "-");
        printf("     basel %-17s ", label[w]);
        printf(digits_fmt, root ? sqrt(e) : e);
        printf("  (%s)\n", size);
    }
    return 0;
}

/* A part of the fit's report: from the heading `from` (NULL: the start) up
 * to the next of the headings in `to`. The demo leaves out the coefficient
 * table (a table of single kernels' coefficients helps nobody: neighbouring
 * kernels share them) and prints the diagnostics after the test errors; the
 * report's diagnostics carry every warning and what a kernel dictionary's
 * R-hats mean (report.c), so the demo says it in the same words. */
static void report_part(const basel_fit *fit, const char *from, const char *const *to, size_t nto)
{
    char *s = basel_fit_summary(fit);
    if (!s) return;
    char *start = from ? strstr(s, from) : s;
    if (start) {
        for (size_t i = 0; i < nto; i++) {
            char *cut = strstr(start + 1, to[i]);
            if (cut) *cut = 0;
        }
        fputs(from ? start + 1 : start, stdout); /* the heading's own blank line is the caller's */
    }
    basel_free(s);
}

static void report_head(const basel_fit *fit)
{
    const char *const ends[] = {"\nCoefficients", "\nDiagnostics"};
    report_part(fit, NULL, ends, 2);
}

static void report_diagnostics(const basel_fit *fit)
{
    report_part(fit, "\nDiagnostics", NULL, 0);
}

static int sinc_part(unsigned long seed)
{
    basel_error err;
    basel_data *train = NULL, *test = NULL;
    basel_options *o = NULL;
    basel_fit *fit = NULL;
    int status = 0;
    enum { NT = 1000 };
    char *buf = malloc(NT * 32 + 8);
    double truth[NT];
    size_t len = (size_t)sprintf(buf, "x\n");
    for (int i = 0; i < NT; i++) {
        const double x = -10 + 20.0 * i / (NT - 1);
        truth[i] = x == 0 ? 1 : sin(x) / x;
        len += (size_t)sprintf(buf + len, "%.17g\n", x);
    }
    char seedtxt[32];
    snprintf(seedtxt, sizeof seedtxt, "%lu", seed);
    const char *kv[] = {"method", "bd", "target", "y", "basis", "gauss:r=1.6", "prior", "ridge",
                        "model-prior", "poisson:mean=5", "seed", seedtxt, NULL};
    printf("1. sinc(x) + N(0, 0.2^2), 100 points; a Gaussian kernel (r = 1.6) at every point: m = 100\n"
           "   candidate atoms. Birth-death over kernel sets, ridge prior with sigma^2 and lambda\n"
           "   sampled, truncated Poisson(5) prior on the number of kernels.\n\n");
    if (basel_data_read_buffer(&train, "sinc (embedded)", cli_demo_sinc_csv, strlen(cli_demo_sinc_csv), NULL, &err) ||
        basel_data_read_buffer(&test, "sinc grid", buf, len, NULL, &err) || basel_options_create(&o) ||
        set_all(o, kv, &err) || basel_fit_run(&fit, train, o, &err)) {
        status = cli_report(&err);
        goto done;
    }
    report_head(fit);
    printf("\n   RMSE against the noise-free sinc on 1000 test points:\n");
    if ((status = errors_table(fit, test, truth, NT, 1, "%7.4f"))) goto done;
    printf("   peers on this protocol (data/regression/PEERS.md, mean of 50 replicates):\n"
           "     kernlab rvm r = 1.6 0.0696 (6.9 vectors), libsvm SVR 0.0773 (65.9),\n"
           "     scikit-learn GP 0.0633 (all 100 points)\n\n");
    report_diagnostics(fit);
    printf("\n");
done:
    free(buf);
    basel_fit_free(fit);
    basel_options_free(o);
    basel_data_free(train);
    basel_data_free(test);
    return status;
}

static int boston_part(unsigned long seed)
{
    basel_error err;
    basel_data *all = NULL, *train = NULL, *test = NULL;
    basel_options *o = NULL;
    basel_fit *fit = NULL;
    int status = 0;
    size_t tr[506], te[25], ntr = 0;
    for (size_t i = 0, t = 0; i < 506; i++) {
        if (t < 25 && cli_demo_boston_test[t] == i) te[t++] = i;
        else tr[ntr++] = i;
    }
    char seedtxt[32];
    snprintf(seedtxt, sizeof seedtxt, "%lu", seed);
    const char *kv[] = {"method", "bd", "target", "medv", "basis", "gauss:r=5", "prior", "ridge",
                        "model-prior", "poisson:mean=5", "standardize", "yes", "seed", seedtxt, NULL};
    printf("2. Boston housing, split 1 of the 100 fixed 481/25 splits; inputs standardised on the\n"
           "   training rows; a Gaussian kernel (r = 5) at every training point: m = 481.\n\n");
    if (basel_data_read_buffer(&all, "boston (embedded)", cli_demo_boston_csv, strlen(cli_demo_boston_csv), NULL, &err) ||
        basel_data_subset(&train, all, tr, ntr, &err) || basel_data_subset(&test, all, te, 25, &err) ||
        basel_options_create(&o) || set_all(o, kv, &err) || basel_fit_run(&fit, train, o, &err)) {
        status = cli_report(&err);
        goto done;
    }
    double truth[25];
    const long col = basel_data_find(test, "medv");
    for (size_t i = 0; i < 25; i++) truth[i] = basel_data_value(test, i, (size_t)col);
    report_head(fit);
    printf("\n   Test MSE on the 25 held-out rows of split 1:\n");
    if ((status = errors_table(fit, test, truth, 25, 0, "%7.2f"))) goto done;
    printf("   peers, mean over all 100 splits (a single split varies a lot):\n"
           "     kernlab rvm r = 3.54 10.87 (40 vectors), libsvm SVR 10.17 (287), scikit-learn GP 8.86;\n"
           "     paper 004 reports PBR 7.40 with 4.0 atoms.\n\n");
    report_diagnostics(fit);
done:
    basel_fit_free(fit);
    basel_options_free(o);
    basel_data_free(all);
    basel_data_free(train);
    basel_data_free(test);
    return status;
}

void cli_demo_help(FILE *fp)
{
    fprintf(fp, "usage: basel demo\n\nRuns the prevalence method on the embedded sinc and Boston data\n"
                "and prints what it finds: the kernels' PIPs, the size posterior, the model average,\n"
                "the prevalence and projection models with their test errors next to the peers'\n"
                "numbers, and every warning of each fit. Takes well under a minute.\n");
}

int cli_demo(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        cli_demo_help(stdout);
        return 0;
    }
    if (argc > 1) return cli_usage("demo", "takes no arguments");
    const time_t start = time(NULL);
    printf("basel demo: which kernels does the data support, and how sure are we?\n\n");
    int status = sinc_part(2004);
    if (!status) status = boston_part(2004);
    if (!status) printf("\n(demo finished in %ld s; 'basel help fit' lists every option)\n", (long)(time(NULL) - start));
    return status;
}
