/*
 * bench_mixture.c: the experiments of paper 000 (Table 1) with the mixture
 * engine: Ionosphere (33 inputs: UCI's 34 without the constant V2, 175/176,
 * 6 kernels, h = 0.5), Wine (13 inputs, 62/63, 3 kernels, h = 0.28) and
 * Pima (7 inputs, Ripley's 200/332, 3 kernels, h = 0.16); a = 2, g = 0.2;
 * 15000 sweeps, 5000 burn-in (§3), 4 chains (split R-hat of each input's
 * indicator across them). The excluded inputs are
 * regressed on the included ones (the engine's default; -e gaussian for one
 * Gaussian each, the model of the first version). Split 0 of each split file is the
 * headline; splits 1..10 give mean and standard error. Then Pima with 80%
 * of the training labels hidden (semi-supervised) next to the fit on the
 * remaining 20% alone. Prints sweeps per second for each data set.
 *
 * Inputs are standardised with the training rows' mean and sd (all
 * training rows, labelled or not). The CSV reader is a small local one:
 * these files have a header, no quoting and the class in the last column.
 *
 * usage: bench_mixture [-d DATA_DIR] [-s SPLITS] [-i ITER] [-b BURN] [-c CHAINS] [-x] [-l LAMBDA]
 *                      [-e regression|gaussian] [-o DATASET] [-m MOVES] [-t REPLICAS] [-T TMAX]
 *                      [-p 0|1|2|3] [-I 0|1] [-X 0|1] [-P PAIR] [-B BETA_MIN] [-k KERNELS] [-H H] [-S SCALE] [-n]
 *   -s 0 runs split 0 only; -x skips the semi-supervised part; -l sets the Poisson mean; -e the
 *   excluded inputs' model (default regression); -o runs one data set; -m
 *   the exchange and add/remove proposals per sweep (default 1 each); -t
 *   replica exchange with that many temperatures up to -T (default off); -p
 *   the subset moves (0 prior, 1 data-driven, 2 given the allocations, 3 coordinates
 *   given the allocations and the ratio with them summed out, the default); -I 1 the
 *   informed choice of the input to add or remove (mixture_rj.c), -X 1 (default) of the
 *   pair to exchange, 0 uniform (-p 2 and 3 only); -P the
 *   probability of a pair move (-p 2 only); -B the lower end of beta_i's prior as a
 *   fraction of range^2 (default 0.03; 0: the paper's prior, mixture_model.c); -k the kernels and
 *   -H the rate h for every data set (default the paper's per data set; -H 0: the CLI's 10 / R_i^2);
 *   -S multiplies the standardised inputs by SCALE (default 1); -e unit gives the excluded inputs
 *   density 1 (paper 000's likelihood, eq. 2, covers the active inputs only), which depends on
 *   that scale and needs the engine patched with bench/mixture/unit_density.patch (the engine
 *   without it rejects the option); -n skips the peers.
 * Prints for split 0 accuracy, log-loss, each input's PIP and split R-hat,
 * each move's acceptance and the seconds of the fit, and paper 000's Table 1
 * columns beside basel's (average and largest number of inputs over the
 * post-burn-in sweeps, accuracy, distinct subsets: over all post-burn-in
 * sweeps of all chains, and per chain among its kept draws); then runs
 * bench/mixture/peers.py (EM of the same model, D = 3 and 6; L1 logistic;
 * SVC) on the same splits.
 */
#include "engine/mixture/mixture.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double input_scale = 1; /* -S */

typedef struct table {
    size_t n, p;      /* rows, input columns (class excluded) */
    char **names;     /* p */
    double *x;        /* n x p row-major */
    int *cls;         /* n, index into labels */
    char labels[8][32];
    size_t nlab;
} table;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    if (s && fread(s, 1, (size_t)len, f) != (size_t)len) len = 0;
    if (s) s[len] = 0;
    fclose(f);
    return s;
}

static int label_index(table *t, const char *s)
{
    for (size_t k = 0; k < t->nlab; k++)
        if (!strcmp(t->labels[k], s)) return (int)k;
    snprintf(t->labels[t->nlab], sizeof t->labels[0], "%s", s);
    return (int)t->nlab++;
}

/* Reads a header + numeric inputs + class-last CSV; NULL on error. */
static table *read_table(const char *path)
{
    char *s = slurp(path), *save = NULL;
    if (!s) return NULL;
    table *t = calloc(1, sizeof *t);
    char *line = strtok_r(s, "\r\n", &save);
    for (char *c = line; *c; c++) t->p += *c == ',';
    t->names = calloc(t->p, sizeof *t->names);
    char *f = line;
    for (size_t j = 0; j < t->p; j++) {
        char *comma = strchr(f, ',');
        *comma = 0;
        t->names[j] = strdup(f);
        f = comma + 1;
    }
    size_t cap = 1024;
    t->x = malloc(cap * t->p * sizeof *t->x);
    t->cls = malloc(cap * sizeof *t->cls);
    while ((line = strtok_r(NULL, "\r\n", &save))) {
        char *q = line;
        for (size_t j = 0; j < t->p; j++) t->x[t->n * t->p + j] = strtod(q, &q), q++;
        t->cls[t->n++] = label_index(t, q);
    }
    free(s);
    return t;
}

static void free_table(table *t)
{
    for (size_t j = 0; t && j < t->p; j++) free(t->names[j]);
    if (t) free(t->names), free(t->x), free(t->cls);
    free(t);
}

/* role[r] for split s: 1 train, 2 test, 0 unused. Returns the number of splits seen. */
static int read_split(const char *path, int s, size_t n, int *role)
{
    char *text = slurp(path), *save = NULL;
    if (!text) return -1;
    int maxs = -1;
    memset(role, 0, n * sizeof *role);
    for (char *line = strtok_r(text, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
        int sp;
        size_t row;
        char what[16];
        if (sscanf(line, "%d,%zu,%15s", &sp, &row, what) != 3) continue;
        maxs = sp > maxs ? sp : maxs;
        if (sp == s && row >= 1 && row <= n) role[row - 1] = !strcmp(what, "train") ? 1 : !strcmp(what, "test") ? 2 : 0;
    }
    free(text);
    return maxs + 1;
}

typedef struct dataset {
    const char *name, *csv, *splits, *drop; /* drop: a column left out, or NULL */
    size_t kernels;
    double h;
    double paper_acc, paper_avg, paper_max; /* Table 1 */
    double paper_visited; /* §3: distinct subsets in 10000 samples ("about") */
} dataset;

typedef struct outcome {
    double acc, logloss, mean_inputs, sps, acc_add, acc_rem, acc_ex, acc_swap, acc_add2, acc_rem2, acc_swap_min, rhat_max, secs;
    size_t swap_pair;
    double pip[64], rhat[64];
    size_t d;
    size_t errors, ntest, max_inputs, visited;
    double kept_distinct; /* distinct subsets among a chain's kept draws, mean over chains */
    size_t kept_per_chain;
    int ok;
} outcome;

/* Column-major standardised copies of the rows with role == want. */
static double *extract(const table *t, const int *role, int want, const size_t *cols, size_t d,
                       const double *mean, const double *sd, size_t *n_out, int *cls)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) n += role[i] == want;
    double *X = malloc(n * d * sizeof *X);
    size_t r = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (role[i] != want) continue;
        for (size_t j = 0; j < d; j++) X[j * n + r] = (t->x[i * t->p + cols[j]] - mean[j]) / sd[j];
        if (cls) cls[r] = t->cls[i];
        r++;
    }
    *n_out = n;
    return X;
}

/* One fit + prediction. hide: fraction of training labels hidden (kept as
 * unlabelled rows if keep_unlabelled, else dropped). */
static outcome run_one(const table *t, const dataset *ds, const int *role_in, const bsl_mix_options *base,
                       double hide, int keep_unlabelled, unsigned long hide_seed)
{
    outcome out = {0};
    size_t cols[64], d = 0;
    for (size_t j = 0; j < t->p; j++)
        if (!ds->drop || strcmp(t->names[j], ds->drop)) cols[d++] = j;
    int *role = malloc(t->n * sizeof *role);
    memcpy(role, role_in, t->n * sizeof *role);
    double mean[64] = {0}, sd[64] = {0};
    size_t ntr = 0;
    for (size_t i = 0; i < t->n; i++) ntr += role[i] == 1;
    for (size_t j = 0; j < d; j++) {
        for (size_t i = 0; i < t->n; i++)
            if (role[i] == 1) mean[j] += t->x[i * t->p + cols[j]] / (double)ntr;
        for (size_t i = 0; i < t->n; i++)
            if (role[i] == 1) sd[j] += pow(t->x[i * t->p + cols[j]] - mean[j], 2) / (double)(ntr - 1);
        sd[j] = sqrt(sd[j]) > 0 ? sqrt(sd[j]) : 1;
        sd[j] /= input_scale; /* -S: standardised inputs times S (the unit density depends on it) */
    }
    size_t n, nte;
    int *cls = malloc(t->n * sizeof *cls), *cte = malloc(t->n * sizeof *cte);
    double *X = extract(t, role, 1, cols, d, mean, sd, &n, cls);
    double *Xt = extract(t, role, 2, cols, d, mean, sd, &nte, cte);
    if (hide > 0) { /* hide a random fraction of the training labels */
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, hide_seed);
        size_t *perm = malloc(n * sizeof *perm);
        for (size_t i = 0; i < n; i++) perm[i] = i;
        gsl_ran_shuffle(r, perm, n, sizeof *perm);
        for (size_t u = 0; u < (size_t)floor(hide * (double)n + 0.5); u++) cls[perm[u]] = -1;
        free(perm);
        gsl_rng_free(r);
        if (!keep_unlabelled) { /* compact to the labelled rows */
            size_t m = 0;
            for (size_t i = 0; i < n; i++) m += cls[i] >= 0;
            double *Xl = malloc(m * d * sizeof *Xl);
            size_t rr = 0;
            for (size_t i = 0; i < n; i++) {
                if (cls[i] < 0) continue;
                for (size_t j = 0; j < d; j++) Xl[j * m + rr] = X[j * n + i];
                cls[rr++] = cls[i];
            }
            free(X);
            X = Xl, n = m;
        }
    }
    bsl_mix_options o = *base;
    o.kernels = ds->kernels;
    o.h = ds->h;
    o.unlabelled = keep_unlabelled; /* hidden-label rows are used only when asked */
    bsl_mix_result *res = NULL;
    basel_error err;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const int frc = bsl_mixture_fit(X, n, d, cls, t->nlab, &o, &res, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out.secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (frc != BASEL_OK) {
        fprintf(stderr, "%s: fit failed: %s\n", ds->name, err.message);
    } else {
        double *prob = malloc(nte * t->nlab * sizeof *prob);
        bsl_mixture_predict(res, Xt, nte, prob);
        for (size_t i = 0; i < nte; i++) {
            const double pc = prob[i * t->nlab + cte[i]];
            out.logloss -= log(pc > 1e-15 ? pc : 1e-15) / (double)nte;
            size_t best = 0;
            for (size_t k = 1; k < t->nlab; k++)
                if (prob[i * t->nlab + k] > prob[i * t->nlab + best]) best = k;
            out.errors += (int)best != cte[i];
        }
        bsl_mix_diag dg;
        bsl_mix_diagnostics(res, &dg);
        out.ntest = nte;
        out.acc = 100.0 * (1 - (double)out.errors / (double)nte);
        out.mean_inputs = bsl_mix_mean_inputs(res);
        out.max_inputs = bsl_mix_max_inputs(res);
        out.visited = bsl_mix_subsets_visited(res);
        { /* distinct subsets among each chain's kept draws (draws are chain by chain, the same number each) */
            const size_t nd = bsl_mix_draw_count(res), per = o.chains ? nd / o.chains : 0;
            uint64_t *key = malloc((per ? per : 1) * sizeof *key);
            double tot = 0;
            for (size_t c = 0; c < o.chains && per && d <= 64; c++) {
                size_t nk = 0;
                for (size_t t = c * per; t < (c + 1) * per; t++) {
                    size_t len;
                    const size_t *in = bsl_mix_draw_inputs(res, t, &len);
                    uint64_t k = 0;
                    for (size_t u = 0; u < len; u++) k |= (uint64_t)1 << in[u];
                    size_t q = 0;
                    while (q < nk && key[q] != k) q++;
                    if (q == nk) key[nk++] = k;
                }
                tot += (double)nk;
            }
            free(key);
            out.kept_distinct = o.chains ? tot / (double)o.chains : 0;
            out.kept_per_chain = per;
        }
        out.sps = dg.sweeps_per_second;
        out.acc_add = dg.accept_add, out.acc_rem = dg.accept_remove, out.acc_ex = dg.accept_exchange;
        out.acc_swap = dg.accept_swap;
        out.acc_add2 = dg.accept_add2, out.acc_rem2 = dg.accept_remove2;
        out.acc_swap_min = dg.accept_swap_min, out.swap_pair = dg.swap_min_pair;
        const double *rh = NULL, *es = NULL, *et = NULL;
        bsl_conv sz;
        size_t nd;
        bsl_mix_convergence(res, &rh, &es, &et, &sz, &nd);
        size_t dd;
        const double *pip = bsl_mix_pip(res, &dd);
        out.d = dd;
        out.rhat_max = o.chains > 1 ? 1 : NAN;
        for (size_t j = 0; j < dd && j < 64; j++) {
            out.pip[j] = pip[j];
            out.rhat[j] = rh && o.chains > 1 ? rh[j] : NAN;
            /* NaN: the kept draws of every chain are the same value (diag.c);
             * the maximum below skips it and the PIP line prints it */
            if (o.chains > 1 && !isnan(out.rhat[j]) && !(out.rhat[j] <= out.rhat_max)) out.rhat_max = out.rhat[j]; /* NaN/inf propagate */
        }
        out.ok = 1;
        free(prob);
    }
    bsl_mix_free(res);
    free(X), free(Xt), free(cls), free(cte), free(role);
    return out;
}

static void mean_se(const double *v, size_t n, double *mean, double *se)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++) m += v[i] / (double)n;
    for (size_t i = 0; i < n; i++) ss += (v[i] - m) * (v[i] - m);
    *mean = m;
    *se = n > 1 ? sqrt(ss / (double)(n - 1) / (double)n) : 0;
}

/* Runs split 0 and splits 1..nsplit for one data set. */
static void run_dataset(const char *dir, const dataset *ds, const bsl_mix_options *o, int nsplit)
{
    char path[1024], spath[1024];
    snprintf(path, sizeof path, "%s/%s", dir, ds->csv);
    snprintf(spath, sizeof spath, "%s/%s", dir, ds->splits);
    table *t = read_table(path);
    if (!t) {
        fprintf(stderr, "cannot read %s\n", path);
        return;
    }
    outcome *res = calloc((size_t)nsplit + 1, sizeof *res);
#pragma omp parallel for schedule(dynamic, 1)
    for (int s = 0; s <= nsplit; s++) {
        int *role = malloc(t->n * sizeof *role);
        if (read_split(spath, s, t->n, role) > s) res[s] = run_one(t, ds, role, o, 0, 0, 0);
        free(role);
    }
    const outcome *r0 = &res[0];
    if (!r0->ok) { /* the fit's error is on stderr */
        free(res);
        free_table(t);
        return;
    }
    printf("%-10s split 0: acc %5.1f%% (%zu/%zu errors)  inputs avg %.2f max %zu  subsets %zu  "
           "accept add %.4f rem %.4f exch %.4f swap %.2f  %.0f sweeps/s\n", ds->name, r0->acc, r0->errors,
           r0->ntest, r0->mean_inputs, r0->max_inputs, r0->visited, r0->acc_add, r0->acc_rem, r0->acc_ex,
           r0->acc_swap, r0->sps);
    printf("%-10s split 0: log-loss %.3f  max split R-hat of an input's indicator %.3f (nan: constant in every chain)  %.1f s", ds->name,
           r0->logloss, r0->rhat_max, r0->secs);
    printf("  accept pair add %.4f rem %.4f", r0->acc_add2, r0->acc_rem2);
    if (o->temperatures > 1) printf("  lowest swap rate %.3f (pair %zu)", r0->acc_swap_min, r0->swap_pair);
    printf("\n");
    printf("%-10s split 0 PIP (R-hat):", ds->name);
    for (size_t j = 0, u = 0; j < t->p && u < r0->d; j++)
        if (!ds->drop || strcmp(t->names[j], ds->drop)) printf(" %s %.2f (%.2f)", t->names[j], r0->pip[u], r0->rhat[u]), u++;
    printf("\n");
    printf("%-10s Table 1, paper / basel split 0: inputs avg %.1f / %.2f  max %.0f / %zu  accuracy %.1f / %.1f%%  "
           "distinct subsets ~%.0f in 10000 samples / %zu in %zu x %zu sweeps (%.0f per chain among its %zu kept draws)\n",
           ds->name, ds->paper_avg, r0->mean_inputs, ds->paper_max, r0->max_inputs, ds->paper_acc, r0->acc,
           ds->paper_visited, r0->visited, o->chains, o->iter - o->burn, r0->kept_distinct, r0->kept_per_chain);
    if (nsplit > 0) {
        double *a = calloc((size_t)nsplit, sizeof *a), *m = calloc((size_t)nsplit, sizeof *m),
               *mx = calloc((size_t)nsplit, sizeof *mx), *sp = calloc((size_t)nsplit, sizeof *sp);
        for (int s = 1; s <= nsplit; s++)
            a[s - 1] = res[s].acc, m[s - 1] = res[s].mean_inputs, mx[s - 1] = (double)res[s].max_inputs,
                  sp[s - 1] = res[s].sps;
        double am, ase, mm, mse, xm, xse, sm, sse;
        mean_se(a, (size_t)nsplit, &am, &ase);
        mean_se(m, (size_t)nsplit, &mm, &mse);
        mean_se(mx, (size_t)nsplit, &xm, &xse);
        mean_se(sp, (size_t)nsplit, &sm, &sse);
        printf("%-10s splits 1-%d: acc %.1f +- %.1f%% (se)  inputs avg %.2f +- %.2f  max %.1f  %.0f sweeps/s\n",
               ds->name, nsplit, am, ase, mm, mse, xm, sm);
        free(a), free(m), free(mx), free(sp);
    }
    free(res);
    free_table(t);
}

/* Pima with 80% of the training labels hidden: labelled-only vs semi-supervised. */
static void run_semi(const char *dir, const dataset *ds, const bsl_mix_options *o, int nsplit)
{
    char path[1024], spath[1024];
    snprintf(path, sizeof path, "%s/%s", dir, ds->csv);
    snprintf(spath, sizeof spath, "%s/%s", dir, ds->splits);
    table *t = read_table(path);
    if (!t) return;
    outcome *lab = calloc((size_t)nsplit + 1, sizeof *lab), *semi = calloc((size_t)nsplit + 1, sizeof *semi);
#pragma omp parallel for schedule(dynamic, 1)
    for (int job = 0; job < 2 * (nsplit + 1); job++) {
        const int s = job / 2;
        int *role = malloc(t->n * sizeof *role);
        if (read_split(spath, s, t->n, role) > s) {
            if (job % 2 == 0) lab[s] = run_one(t, ds, role, o, 0.8, 0, 8080UL + (unsigned long)s);
            else semi[s] = run_one(t, ds, role, o, 0.8, 1, 8080UL + (unsigned long)s);
        }
        free(role);
    }
    printf("%-10s 80%% labels hidden, split 0: labelled-only (40 rows) %.1f%%  semi-supervised "
           "(40 + 160 unlabelled) %.1f%%  inputs avg %.2f / %.2f\n", ds->name, lab[0].acc, semi[0].acc,
           lab[0].mean_inputs, semi[0].mean_inputs);
    if (nsplit > 0) {
        double *a = calloc((size_t)nsplit, sizeof *a), *b = calloc((size_t)nsplit, sizeof *b), am, ase, bm, bse;
        for (int s = 1; s <= nsplit; s++) a[s - 1] = lab[s].acc, b[s - 1] = semi[s].acc;
        mean_se(a, (size_t)nsplit, &am, &ase);
        mean_se(b, (size_t)nsplit, &bm, &bse);
        printf("%-10s 80%% labels hidden, splits 1-%d: labelled-only %.1f +- %.1f%%  semi-supervised %.1f +- %.1f%%\n",
               ds->name, nsplit, am, ase, bm, bse);
        free(a), free(b);
    }
    free(lab), free(semi);
    free_table(t);
}

static void print_peers(void)
{
    printf("\nPeers as recorded in PEERS.md (split 0 / mean +- sd over splits 1-10):\n"
           "  SVC RBF (sklearn)          ionosphere 92.6 / 92.4 +- 1.9  wine 96.8 / 97.6 +- 2.7  pima 79.2 / 77.0 +- 1.9\n"
           "  GPC RBF ARD (sklearn)      ionosphere 88.1 / 90.8 +- 2.4  wine 93.7 / 96.0 +- 2.1  pima 79.5 / 77.0 +- 1.8\n"
           "  LogReg L1 (sklearn)        ionosphere 83.5 / 87.0 +- 2.0  wine 92.1 / 96.5 +- 1.3  pima 80.1 / 77.6 +- 2.3\n"
           "  GMM diag per class, K=3    ionosphere 89.8 / 89.2 +- 2.6  wine 88.9 / 94.8 +- 4.4  pima 77.4 / 75.0 +- 1.2\n"
           "  Shared-kernel EM, D=3      ionosphere 80.7 / 80.5 +- 2.3  wine 88.9 / 96.0 +- 3.9  pima 68.7 / 68.0 +- 2.5\n"
           "  Shared-kernel EM, D=6      ionosphere 83.0 / 84.0 +- 4.9  wine 84.1 / 93.3 +- 4.4  pima 72.6 / 72.1 +- 1.9\n"
           "  Inputs kept: L1 logistic 13.5 / 10.7 / 5.7; ARD GPC 10.6 / 7.0 / 4.8\n");
}

int main(int argc, char **argv)
{
    const char *dir = "data/classification";
    int nsplit = 10, semi = 1, peers = 1, opt;
    bsl_mix_options o;
    bsl_mix_options_default(&o);
    o.iter = 15000, o.burn = 5000, o.thin = 10, o.chains = 4, o.seed = 2024;
    o.a = 2, o.g = 0.2; /* §3 */
    const char *only = NULL;
    size_t kernels = 0; /* 0: the paper's D per data set (§3) */
    double h = -1;      /* < 0: the paper's h per data set; 0: the CLI's 10 / R_i^2 */
    while ((opt = getopt(argc, argv, "d:s:i:b:c:xp:l:e:o:m:t:T:P:nI:B:X:k:H:S:")) != -1) {
        if (opt == 'd') dir = optarg;
        else if (opt == 's') nsplit = atoi(optarg);
        else if (opt == 'i') o.iter = strtoul(optarg, NULL, 10);
        else if (opt == 'b') o.burn = strtoul(optarg, NULL, 10);
        else if (opt == 'c') o.chains = strtoul(optarg, NULL, 10);
        else if (opt == 'x') semi = 0;
        else if (opt == 'p') o.add_proposal = atoi(optarg);
        else if (opt == 'l') o.poisson_mean = strtod(optarg, NULL);
        else if (opt == 'e')
            o.excluded = !strcmp(optarg, "gaussian") ? BSL_MIX_EXCLUDED_GAUSSIAN
                         : !strcmp(optarg, "unit")   ? 2 /* paper 000's: needs bench/mixture/unit_density.patch */
                                                     : BSL_MIX_EXCLUDED_REGRESSION;
        else if (opt == 'S') input_scale = strtod(optarg, NULL);
        else if (opt == 'k') kernels = strtoul(optarg, NULL, 10);
        else if (opt == 'H') h = strtod(optarg, NULL);
        else if (opt == 'o') only = optarg;
        else if (opt == 't') o.temperatures = strtoul(optarg, NULL, 10);
        else if (opt == 'T') o.temp_max = strtod(optarg, NULL);
        else if (opt == 'P') o.pair_prob = strtod(optarg, NULL);
        else if (opt == 'n') peers = 0;
        else if (opt == 'I') o.informed = atoi(optarg);
        else if (opt == 'X') o.informed_exchange = atoi(optarg);
        else if (opt == 'B') o.beta_min = strtod(optarg, NULL);
        else if (opt == 'm') o.exchange_moves = o.birth_death_moves = strtoul(optarg, NULL, 10);
        else return 2;
    }
    dataset sets[3] = {
        {"ionosphere", "ionosphere.csv", "ionosphere_splits_175_176.csv", "V2", 6, 0.5, 91.5, 4.3, 9, 500},
        {"wine", "wine.csv", "wine_splits_62_63.csv", NULL, 3, 0.28, 100.0, 4.4, 8, 500},
        {"pima", "pima.csv", "pima_splits_200_332.csv", NULL, 3, 0.16, 78.9, 4.0, 7, 60},
    };
    for (int k = 0; k < 3; k++) {
        if (kernels) sets[k].kernels = kernels;
        if (h >= 0) sets[k].h = h;
    }
    printf("mixture engine, paper 000 settings: %zu sweeps, %zu burn-in, %zu chain(s), lambda %.1f, "
           "subset moves %s%s, pair moves %.2f, %zu temperature(s), excluded inputs %s, beta_min %g, "
           "kernels %s, h %s, inputs standardised times %g\n\n", o.iter, o.burn,
           o.chains, o.poisson_mean,
           o.add_proposal == BSL_MIX_PROPOSE_SUMMED ? "coordinates given the allocations, allocations summed out"
           : o.add_proposal == BSL_MIX_PROPOSE_ALLOC ? "given the allocations"
           : o.add_proposal == BSL_MIX_PROPOSE_DATA ? "data-driven (allocations summed out)" : "prior (allocations summed out)",
           o.informed ? (o.informed_exchange ? ", informed choice of the input and of the exchange" : ", informed choice of the input")
                      : o.informed_exchange ? ", informed exchange" : "", o.pair_prob, o.temperatures,
           o.excluded == BSL_MIX_EXCLUDED_GAUSSIAN ? "gaussian"
           : o.excluded == BSL_MIX_EXCLUDED_REGRESSION ? "regression on the active ones" : "unit density (the paper's)",
           o.beta_min, kernels ? "as -k" : "the paper's", h < 0 ? "the paper's" : h == 0 ? "10 / R_i^2 (the CLI's)" : "as -H", input_scale);
    for (int k = 0; k < 3; k++)
        if (!only || !strcmp(only, sets[k].name)) run_dataset(dir, &sets[k], &o, nsplit);
    if (semi && (!only || !strcmp(only, "pima"))) run_semi(dir, &sets[2], &o, nsplit);
    print_peers();
    if (peers) { /* the peers measured now, on the same splits (bench/mixture/peers.py) */
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "/usr/bin/python3 bench/mixture/peers.py '%s' %d %s", dir, nsplit, only ? only : "");
        printf("\nPeers measured now (bench/mixture/peers.py):\n");
        fflush(stdout);
        if (system(cmd) != 0) fprintf(stderr, "peers.py failed (needs python3-sklearn; run from the source root)\n");
    }
    return 0;
}
