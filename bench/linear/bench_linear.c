/*
 * bench_linear.c: one engine on one linear data set, for run.sh.
 *
 *   bench_linear DATA.csv|synth:N,P ENGINE [--ref REF] [--iter N] [--chains C]
 *                [--seed S] [--max-iter N] [--write-pips OUT] [--prior SPEC]
 *
 * ENGINE is rj, ssvs (collapsed spike-and-slab) or bd (when built with
 * -DHAVE_BD). Prior g:g=n and a uniform model prior (ssvs: its own default
 * prior, --prior ssvs:...). Prints one line of key=value: setup seconds (the
 * one-time X'X, X'y pass), model evaluations per second, seconds per
 * iteration, and with --ref (a JSON {"pip": {"x1": ...}} or a text file of
 * m numbers) the wall time of the first run, doubling the iterations from
 * --iter, whose PIPs are all within 0.01 of the reference; peak memory is
 * the process's maximum resident set (getrusage). --write-pips stores this
 * run's PIPs (the long reference run).
 */
#include "engine/subset/subset.h"
#include "engine/ssvs/ssvs.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static int load(const char *src, double **X, double **Y, size_t *n, size_t *d)
{
    if (!strncmp(src, "synth:", 6)) { /* AR(1) 0.5 design, 10 true inputs */
        sscanf(src + 6, "%zu,%zu", n, d);
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, 5);
        *X = malloc(*n * *d * sizeof(double));
        *Y = malloc(*n * sizeof(double));
        for (size_t i = 0; i < *n; i++) {
            double prev = gsl_ran_ugaussian(r), y = 0;
            for (size_t j = 0; j < *d; j++) {
                const double x = j ? 0.5 * prev + sqrt(0.75) * gsl_ran_ugaussian(r) : prev;
                (*X)[j * *n + i] = x;
                if (j % (*d / 10) == 0) y += 0.3 * x;
                prev = x;
            }
            (*Y)[i] = y + gsl_ran_ugaussian(r);
        }
        gsl_rng_free(r);
        return 0;
    }
    basel_data *data;
    basel_error err;
    if (basel_data_read_csv(&data, src, NULL, &err)) {
        fprintf(stderr, "bench_linear: %s\n", err.message);
        return -1;
    }
    *n = basel_data_rows(data);
    *d = basel_data_cols(data) - 1;
    *X = malloc(*n * *d * sizeof(double));
    *Y = malloc(*n * sizeof(double));
    for (size_t j = 0; j <= *d; j++)
        for (size_t i = 0; i < *n; i++)
            (j < *d ? *X + j * *n : *Y)[i] = basel_data_value(data, i, j);
    basel_data_free(data);
    return 0;
}

static int read_ref(const char *path, double *ref, size_t m)
{
    json_error_t jerr;
    json_t *js = json_load_file(path, 0, &jerr);
    if (js) {
        json_t *pip = json_object_get(js, "pip");
        for (size_t j = 0; j < m; j++) {
            char name[24];
            snprintf(name, sizeof name, "x%zu", j + 1);
            ref[j] = json_number_value(json_object_get(pip, name));
        }
        json_decref(js);
        return 0;
    }
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    for (size_t j = 0; j < m; j++)
        if (fscanf(f, "%lf", &ref[j]) != 1) {
            fclose(f);
            return -1;
        }
    fclose(f);
    return 0;
}

static int run_engine(const char *engine, const bsl_vs_problem *pb, const bsl_run *run,
                      bsl_vs_result *res, basel_error *err)
{
    if (!strcmp(engine, "rj")) return bsl_rj_run(pb, run, res, err);
    if (!strcmp(engine, "ssvs")) return bsl_ssvs_run(pb, run, res, err);
#ifdef HAVE_BD
    if (!strcmp(engine, "bd")) return bsl_bd_run(pb, run, res, err);
#endif
    return bsl_fail(err, BASEL_EINVAL, "engine %s not built", engine);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_linear DATA ENGINE [options]\n");
        return 2;
    }
    const char *src = argv[1], *engine = argv[2], *refp = NULL, *outp = NULL, *prior = "ssvs";
    size_t iter = 10000, chains = 2, max_iter = (size_t)1 << 26;
    unsigned long seed = 1;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--ref")) refp = argv[i + 1];
        else if (!strcmp(argv[i], "--iter")) iter = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--max-iter")) max_iter = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--chains")) chains = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--seed")) seed = strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--write-pips")) outp = argv[i + 1];
        else if (!strcmp(argv[i], "--prior")) prior = argv[i + 1];
    }
    double *X, *Y;
    size_t n, d;
    if (load(src, &X, &Y, &n, &d)) return 1;
    basel_error err;
    const double t0 = omp_get_wtime();
    bsl_dict *dict;
    bsl_design *D;
    bsl_vs_problem pb = {0};
    if (bsl_dict_create(&dict, "linear", X, n, d, &err) ||
        bsl_design_create(&D, dict, X, n, Y, 1, (size_t)4 << 30, &err)) {
        fprintf(stderr, "bench_linear: %s\n", err.message);
        return 1;
    }
    const double setup = omp_get_wtime() - t0;
    pb.D = D;
    bsl_coef_prior_parse(&pb.prior, "", n, 1, &err); /* g:g=n */
    bsl_mprior_parse(&pb.mprior, "uniform", d, &err);
    pb.kmax = d;
    pb.prior_spec = prior;
    double *ref = NULL;
    if (refp) {
        ref = malloc(d * sizeof *ref);
        if (read_ref(refp, ref, d)) {
            fprintf(stderr, "bench_linear: cannot read reference %s\n", refp);
            return 1;
        }
    }
    bsl_params params = {0};
    bsl_run run = {.iter = iter, .burn = iter / 10, .thin = 1, .chains = chains, .seed = seed,
                   .params = &params};
    double wall_total = 0, err_max = NAN, reached = NAN;
    bsl_vs_result res;
    for (;;) {
        const double t1 = omp_get_wtime();
        if (run_engine(engine, &pb, &run, &res, &err)) {
            fprintf(stderr, "bench_linear: %s\n", err.message);
            return 1;
        }
        const double wall = omp_get_wtime() - t1;
        wall_total += wall;
        if (!ref) break;
        err_max = 0;
        for (size_t j = 0; j < d; j++) err_max = fmax(err_max, fabs(res.pip[j] - ref[j]));
        if (err_max < 0.01) {
            reached = wall;
            break;
        }
        if (run.iter * 2 > max_iter) break;
        bsl_vs_result_free(&res);
        run.iter *= 2;
        run.burn = run.iter / 10;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    const double iters = (double)(run.iter + run.burn) * (double)chains;
    printf("engine=%s n=%zu p=%zu setup_s=%.3f iter=%zu chains=%zu engine_s=%.3f evals_per_s=%.0f "
           "s_per_iter=%.3g max_err=%.4f wall_to_0.01=%.3f peak_MiB=%.0f note=\"%s\"\n",
           engine, n, d, setup, run.iter, chains, res.seconds, res.evaluations / res.seconds,
           res.seconds / iters * (double)chains, err_max, reached, ru.ru_maxrss / 1024.0,
           res.engine_note);
    if (outp) {
        FILE *f = fopen(outp, "w");
        for (size_t j = 0; f && j < d; j++) fprintf(f, "%.17g\n", res.pip[j]);
        if (f) fclose(f);
    }
    (void)wall_total;
    bsl_vs_result_free(&res);
    bsl_design_free(D);
    bsl_dict_free(dict);
    free(X);
    free(Y);
    free(ref);
    return 0;
}
