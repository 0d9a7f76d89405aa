/*
 * bench_rbf.c: the robot-arm experiment of paper 002 §6 with the
 * free-centre RBF samplers (src/engine/rbf/rbf.h), next to the paper and the
 * peers measured in data/regression/PEERS.md, plus a speed table (moves
 * per second; the cost of one centre update against k and n).
 *
 * usage: bench_rbf [DATA_DIR] [ITER] [T0]  (DATA_DIR defaults to data/regression,
 *        ITER to 100000, T0, the first annealing temperature, to 1)
 * Test MSE is summed over the two outputs (the scale of the paper's
 * figures): sum_o mean_i (y_io - yhat_io)^2 on robot_arm_test.csv.
 */
#include "engine/rbf/rbf.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the numeric CSV with a header: rows x cols, column-major */
static double *read_csv(const char *path, size_t *rows, size_t *cols)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char line[4096];
    if (!fgets(line, sizeof line, f)) { fclose(f); return NULL; }
    size_t nc = 1;
    for (char *p = line; *p; p++) nc += *p == ',';
    size_t cap = 1024, nr = 0;
    double *rowmajor = malloc(cap * nc * sizeof(double));
    while (fgets(line, sizeof line, f)) {
        if (nr == cap) rowmajor = realloc(rowmajor, (cap *= 2) * nc * sizeof(double));
        char *p = line;
        for (size_t j = 0; j < nc; j++) {
            rowmajor[nr * nc + j] = strtod(p, &p);
            if (*p == ',') p++;
        }
        nr++;
    }
    fclose(f);
    double *cm = malloc(nr * nc * sizeof(double));
    for (size_t i = 0; i < nr; i++)
        for (size_t j = 0; j < nc; j++) cm[j * nr + i] = rowmajor[i * nc + j];
    free(rowmajor);
    *rows = nr;
    *cols = nc;
    return cm;
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double test_mse(const bsl_rbf_result *r, const double *Xt, const double *Yt, size_t nt,
                       double *cover)
{
    double *mean = malloc(2 * nt * sizeof(double)), *lo = malloc(2 * nt * sizeof(double)),
           *hi = malloc(2 * nt * sizeof(double));
    bsl_rbf_predict(r, Xt, nt, 0.95, mean, lo, hi, NULL, NULL);
    double mse = 0, in = 0;
    for (size_t o = 0; o < 2; o++)
        for (size_t i = 0; i < nt; i++) {
            const double e = Yt[o * nt + i] - mean[o * nt + i];
            mse += e * e / (double)nt;
            in += Yt[o * nt + i] >= lo[o * nt + i] && Yt[o * nt + i] <= hi[o * nt + i];
        }
    *cover = in / (2.0 * (double)nt);
    free(mean);
    free(lo);
    free(hi);
    return mse;
}

static void print_acceptance(const bsl_rbf_result *r)
{
    static const char *names[] = {"birth", "death", "split", "merge", "update"};
    printf("    acceptance:");
    for (int m = 0; m < BSL_RBF_NMOVES; m++) {
        double p, a;
        bsl_rbf_acceptance(r, m, &p, &a);
        printf(" %s %.3f", names[m], p > 0 ? a / p : 0);
    }
    printf("\n");
}

/* seconds per update move at fixed k (update-only chain), n rows */
static double update_cost(const double *X, const double *Y, size_t n, size_t k, size_t steps,
                          size_t *k_used)
{
    bsl_rbf_options o;
    bsl_rbf_options_default(&o);
    o.kmax = k;
    o.k_start = k; /* start at k centres: with update moves only, k stays put */
    o.temperature_mode = BSL_RBF_ANNEAL;
    const double grow[BSL_RBF_NMOVES] = {1, 1e-300, 0, 0, 0};
    const double upd[BSL_RBF_NMOVES] = {1e-300, 1e-300, 0, 0, 1};
    memcpy(o.move_weights, grow, sizeof grow);
    bsl_rbf_chain *ch = NULL;
    basel_error err;
    if (bsl_rbf_chain_create(&ch, X, n, 2, Y, 2, &o, &err)) return NAN;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    bsl_rbf_chain_start(ch, r);
    bsl_rbf_chain_set_move_weights(ch, upd); /* updates only from here: k stays put */
    *k_used = bsl_rbf_chain_k(ch); /* collinear starting centres are skipped */
    const double t0 = now();
    for (size_t i = 0; i < steps; i++) bsl_rbf_chain_step(ch, r, 1.0);
    const double dt = (now() - t0) / (double)steps;
    gsl_rng_free(r);
    bsl_rbf_chain_free(ch);
    return dt;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *dir = argc > 1 ? argv[1] : "data/regression";
    const size_t iter = argc > 2 ? (size_t)atol(argv[2]) : 100000;
    const double t0 = argc > 3 ? atof(argv[3]) : 1.0;
    char path[1024];
    size_t n, nc, nt, nct;
    snprintf(path, sizeof path, "%s/robot_arm_train.csv", dir);
    double *tr = read_csv(path, &n, &nc);
    snprintf(path, sizeof path, "%s/robot_arm_test.csv", dir);
    double *te = read_csv(path, &nt, &nct);
    if (!tr || !te || nc != 4 || nct != 4) {
        fprintf(stderr, "bench_rbf: cannot read the robot-arm CSVs under %s\n", dir);
        return 2;
    }
    const double *X = tr, *Y = tr + 2 * n, *Xt = te, *Yt = te + 2 * nt;
    printf("robot arm: %zu train / %zu test rows, cubic RBFs + linear term, 4 chains\n\n", n, nt);
    printf("%-34s %10s %6s %8s %10s %8s\n", "method", "test MSE", "k", "95% cov", "moves/s", "fit s");

    const bsl_coef_prior_type *const crit[2] = {&bsl_coef_mdl, &bsl_coef_aic};
    const char *crit_name[2] = {"MDL", "AIC"};
    for (int c = 0; c < 2; c++) {
        bsl_rbf_options o;
        bsl_rbf_options_default(&o);
        o.criterion = crit[c];
        o.t0 = t0;
        o.iter = iter;
        o.chains = 4;
        o.seed = 2024;
        bsl_rbf_result *r = NULL;
        basel_error err;
        if (bsl_rbf_fit(X, n, 2, Y, 2, &o, &r, &err)) {
            fprintf(stderr, "fit: %s\n", err.message);
            return 1;
        }
        double cover;
        const double mse = test_mse(r, Xt, Yt, nt, &cover);
        char label[64];
        snprintf(label, sizeof label, "basel anneal %s (%zu it., T0 %g)", crit_name[c], iter, t0);
        printf("%-34s %10.5f %6zu %8.3f %10.0f %8.2f\n", label, mse, bsl_rbf_k(r), cover,
               bsl_rbf_moves_per_second(r), iter * 4 / bsl_rbf_moves_per_second(r));
        print_acceptance(r);
        bsl_rbf_free(r);
    }
    {
        bsl_rbf_options o;
        bsl_rbf_options_default(&o);
        o.temperature_mode = BSL_RBF_FULL;
        o.iter = iter;
        o.burn = iter / 2;
        o.chains = 4;
        o.seed = 2024;
        o.k_start = 10;
        bsl_rbf_result *r = NULL;
        basel_error err;
        if (bsl_rbf_fit(X, n, 2, Y, 2, &o, &r, &err)) {
            fprintf(stderr, "fit: %s\n", err.message);
            return 1;
        }
        double cover;
        const double mse = test_mse(r, Xt, Yt, nt, &cover);
        size_t len;
        const double *pk = bsl_rbf_k_posterior(r, &len);
        double mk = 0;
        for (size_t k = 0; k < len; k++) mk += (double)k * pk[k];
        char label[64];
        snprintf(label, sizeof label, "basel rj full Bayes (%zu+%zu it.)", o.burn, iter);
        printf("%-34s %10.5f %6zu %8.3f %10.0f %8.2f\n", label, mse, bsl_rbf_k(r), cover,
               bsl_rbf_moves_per_second(r), (o.burn + iter) * 4 / bsl_rbf_moves_per_second(r));
        printf("    posterior of k (mean %.2f):", mk);
        for (size_t k = 0; k < len; k++)
            if (pk[k] >= 0.01) printf(" %zu:%.2f", k, pk[k]);
        printf("\n");
        print_acceptance(r);
        bsl_rbf_free(r);
    }
    printf("%-34s %10s %6s\n", "paper 002: RJ anneal MDL", "0.00512", "12");
    printf("%-34s %10s %6s\n", "paper 002: RJ anneal AIC", "0.00520", "27");
    printf("%-34s %10s %6s\n", "peer: scikit-learn GP, ARD", "0.00570", "400");
    printf("%-34s %10s %6s\n", "peer: scikit-learn GP, isotropic", "0.00586", "400");
    printf("%-34s %10s %6s\n", "peer: libsvm SVR by CV", "0.00609", "362");
    printf("%-34s %10s %6s\n", "peer: kernlab rvm, r by CV", "0.00650", "21");
    printf("%-34s %10s\n\n", "noise floor of this test set", "0.00493");

    printf("cost of one centre update (remove + append, no refit), one thread:\n");
    printf("%8s %6s %14s %14s\n", "n", "k", "us / update", "ns / (n k)");
    for (size_t rep = 0; rep < 2; rep++) {
        /* n = 200 (robot arm), and n = 3200 (the arm's rows, tiled 16 times) */
        const size_t reps = rep ? 16 : 1, nn = n * reps;
        double *XX = malloc(2 * nn * sizeof(double)), *YY = malloc(2 * nn * sizeof(double));
        for (size_t a = 0; a < 2; a++)
            for (size_t i = 0; i < nn; i++) {
                XX[a * nn + i] = X[a * n + i % n] + 1e-3 * (double)(i / n);
                YY[a * nn + i] = Y[a * n + i % n];
            }
        const size_t ks[3] = {10, 20, 40};
        for (int t = 0; t < 3; t++) {
            size_t k_used = 0;
            const double dt = update_cost(XX, YY, nn, ks[t], rep ? 20000 : 200000, &k_used);
            printf("%8zu %6zu %14.2f %14.3f\n", nn, k_used, 1e6 * dt,
                   1e9 * dt / ((double)nn * (double)k_used));
        }
        free(XX);
        free(YY);
    }
    free(tr);
    free(te);
    return 0;
}
