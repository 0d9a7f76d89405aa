/*
 * test_enumerate.c: exact enumeration (1) against BAS's exact answer on
 * lin_p15_n200 under the g-prior (PIPs to 1e-6, the acceptance), and
 * (2) against an independent dense computation of every subset's marginal
 * likelihood (fresh LAPACK factorisations, not the incremental path) for
 * every coefficient prior and several model priors, with two outputs.
 */
#include "check.h"
#include "engine/subset/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void run_enum(const double *X, size_t n, size_t d, const double *Y, size_t c,
                     const char *prior, const char *mprior, bsl_vs_result *res, bsl_design **Dout,
                     bsl_dict **dict_out, bsl_vs_problem *pb)
{
    basel_error err;
    bsl_dict_create(dict_out, "linear", X, n, d, &err);
    bsl_design_create(Dout, *dict_out, X, n, Y, c, (size_t)1 << 30, &err);
    memset(pb, 0, sizeof *pb);
    pb->D = *Dout;
    bsl_coef_prior_parse(&pb->prior, prior, n, c, &err);
    bsl_mprior_parse(&pb->mprior, mprior, d, &err);
    pb->kmax = pb->mprior.kmax;
    int rc = bsl_enumerate(pb, NULL, res, &err);
    CHECK(rc == BASEL_OK, "enumerate %s/%s: %s", prior, mprior, err.message);
}

static void bas_exact(void)
{
    basel_error err;
    basel_data *data;
    int rc = basel_data_read_csv(&data, "data/linear/lin_p15_n200.csv", NULL, &err);
    CHECK(rc == BASEL_OK, "read lin_p15_n200.csv: %s", err.message);
    if (rc) return;
    const size_t n = basel_data_rows(data), d = 15;
    double *X = malloc(n * d * sizeof *X), *Y = malloc(n * sizeof *Y);
    for (size_t j = 0; j < d; j++)
        for (size_t i = 0; i < n; i++) X[j * n + i] = basel_data_value(data, i, j);
    for (size_t i = 0; i < n; i++) Y[i] = basel_data_value(data, i, 15);
    bsl_vs_result res;
    bsl_design *D;
    bsl_dict *dict;
    bsl_vs_problem pb;
    run_enum(X, n, d, Y, 1, "g:g=200", "uniform", &res, &D, &dict, &pb);
    json_error_t jerr;
    json_t *ex = json_load_file("data/linear/exact_lin_p15_n200.json", 0, &jerr);
    CHECK(ex != NULL, "read exact json");
    json_t *pip = json_object_get(ex, "pip");
    double worst = 0;
    for (size_t j = 0; j < d; j++) {
        char name[8];
        snprintf(name, sizeof name, "x%zu", j + 1);
        worst = fmax(worst, fabs(res.pip[j] - json_real_value(json_object_get(pip, name))));
    }
    CHECK(worst < 1e-6, "PIPs vs BAS exact enumeration: max error %.3g", worst);
    json_t *sz = json_object_get(ex, "model_size_posterior");
    double worst_size = 0;
    for (size_t k = 0; k <= d; k++) {
        char key[8];
        snprintf(key, sizeof key, "%zu", k);
        json_t *v = json_object_get(sz, key);
        if (v) worst_size = fmax(worst_size, fabs(res.size_prob[k] - json_real_value(v)));
    }
    CHECK(worst_size < 1e-6, "size posterior vs BAS: max error %.3g", worst_size);
    json_decref(ex);
    bsl_vs_result_free(&res);
    bsl_design_free(D);
    bsl_dict_free(dict);
    basel_data_free(data);
    free(X);
    free(Y);
}

/* Dense log marginal of subset mask: centre the chosen columns and y (the
 * intercept's flat prior), form A = Bc'Bc + tau I and factor it afresh. */
static double dense_log_ml(const bsl_vs_problem *pb, const double *X, size_t n, size_t d,
                           const double *Y, size_t c, unsigned mask)
{
    size_t idx[32], k = 0;
    for (size_t j = 0; j < d; j++)
        if (mask >> j & 1) idx[k++] = j;
    double *B = malloc(n * (k + 1) * sizeof *B), *A = calloc((k + 1) * (k + 1), sizeof *A);
    for (size_t a = 0; a < k; a++) {
        double mu = 0;
        for (size_t i = 0; i < n; i++) mu += X[idx[a] * n + i] / (double)n;
        for (size_t i = 0; i < n; i++) B[a * n + i] = X[idx[a] * n + i] - mu;
    }
    const double tau = bsl_coef_tau(&pb->prior);
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++) {
            double s = 0;
            for (size_t i = 0; i < n; i++) s += B[a * n + i] * B[b * n + i];
            A[a + b * k] = s + (a == b ? tau : 0);
        }
    double logdet = 0, quad[4], yy[4];
    if (k) {
        LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (int)k, A, (int)k);
        for (size_t a = 0; a < k; a++) logdet += 2 * log(A[a + a * k]);
    }
    for (size_t o = 0; o < c; o++) {
        double mu = 0, by[32];
        for (size_t i = 0; i < n; i++) mu += Y[o * n + i] / (double)n;
        yy[o] = 0;
        for (size_t i = 0; i < n; i++) yy[o] += (Y[o * n + i] - mu) * (Y[o * n + i] - mu);
        for (size_t a = 0; a < k; a++) {
            by[a] = 0;
            for (size_t i = 0; i < n; i++) by[a] += B[a * n + i] * (Y[o * n + i] - mu);
        }
        if (k) LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', (int)k, 1, A, (int)k, by, (int)k);
        quad[o] = 0;
        for (size_t a = 0; a < k; a++) quad[o] += by[a] * by[a];
    }
    free(B);
    free(A);
    return bsl_log_ml_formula(&pb->prior, n, 1, c, k, logdet, quad, yy) +
           bsl_mprior_log(&pb->mprior, k);
}

static void dense_check(const char *prior, const char *mprior)
{
    enum { n = 40, d = 9, c = 2 };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2385);
    double X[n * d], Y[n * c];
    for (size_t i = 0; i < n; i++) {
        double prev = 0;
        for (size_t j = 0; j < d; j++) {
            prev = 0.7 * prev + gsl_ran_gaussian(r, 1.0); /* AR(1)-correlated columns */
            X[j * n + i] = prev;
        }
        Y[i] = 0.8 * X[i] - 0.5 * X[3 * n + i] + gsl_ran_gaussian(r, 1.0);
        Y[n + i] = 0.6 * X[2 * n + i] + 0.3 * X[3 * n + i] + gsl_ran_gaussian(r, 1.0);
    }
    bsl_vs_result res;
    bsl_design *D;
    bsl_dict *dict;
    bsl_vs_problem pb;
    run_enum(X, n, d, Y, c, prior, mprior, &res, &D, &dict, &pb);
    double lp[1 << d], pip[d] = {0}, size[d + 1] = {0};
    for (unsigned mask = 0; mask < (1u << d); mask++) lp[mask] = dense_log_ml(&pb, X, n, d, Y, c, mask);
    const double lz = bsl_logsumexp(lp, 1u << d);
    for (unsigned mask = 0; mask < (1u << d); mask++) {
        const double w = exp(lp[mask] - lz);
        size[__builtin_popcount(mask)] += w;
        for (size_t j = 0; j < d; j++)
            if (mask >> j & 1) pip[j] += w;
    }
    double worst = 0, worst_size = 0, worst_model = 0;
    for (size_t j = 0; j < d; j++) worst = fmax(worst, fabs(pip[j] - res.pip[j]));
    for (size_t k = 0; k <= d; k++) worst_size = fmax(worst_size, fabs(size[k] - res.size_prob[k]));
    for (size_t i = 0; i < res.models.n; i++) {
        const size_t *at = bsl_modelset_atoms(&res.models, i);
        unsigned mask = 0;
        for (size_t a = 0; a < res.models.items[i].k; a++) mask |= 1u << at[a];
        worst_model = fmax(worst_model, fabs(exp(lp[mask] - lz) - res.models.items[i].weight));
    }
    CHECK(worst < 1e-10, "%s / %s: PIPs vs dense, max error %.3g", prior, mprior, worst);
    CHECK(worst_size < 1e-10, "%s / %s: size posterior vs dense, max error %.3g", prior, mprior, worst_size);
    CHECK(worst_model < 1e-10, "%s / %s: every stored subset's probability vs dense, max error %.3g",
          prior, mprior, worst_model);
    CHECK(res.models.n == (1u << d), "%s: all %u subsets stored (got %zu)", prior, 1u << d, res.models.n);
    bsl_vs_result_free(&res);
    bsl_design_free(D);
    bsl_dict_free(dict);
    gsl_rng_free(r);
}

static void refuses_large(void)
{
    enum { n = 40, d = 25 };
    static double X[n * d], Y[n];
    for (size_t i = 0; i < n * d; i++) X[i] = sin(1.7 * (double)i) + cos(0.3 * (double)(i * i % 97));
    for (size_t i = 0; i < n; i++) Y[i] = X[i];
    basel_error err;
    bsl_dict *dict;
    bsl_design *D;
    bsl_dict_create(&dict, "linear", X, n, d, &err);
    bsl_design_create(&D, dict, X, n, Y, 1, (size_t)1 << 30, &err);
    bsl_vs_problem pb = {0};
    pb.D = D;
    bsl_coef_prior_parse(&pb.prior, "ridge:lambda=1,sigma2=1", n, 1, &err);
    bsl_mprior_parse(&pb.mprior, "uniform", d, &err);
    pb.kmax = d;
    bsl_vs_result res;
    int rc = bsl_enumerate(&pb, NULL, &res, &err);
    CHECK(rc == BASEL_ERANGE, "m = 25 refused with ERANGE (rc %d)", rc);
    CHECK(strstr(err.message, "m = 25") != NULL, "message names m: %s", err.message);
    bsl_design_free(D);
    bsl_dict_free(dict);
}

int main(void)
{
    bas_exact();
    dense_check("g:g=40", "uniform");
    dense_check("g:g=7.5", "beta-binomial:a=1,b=2");
    dense_check("ridge:lambda=0.7,sigma2=1.3", "poisson:mean=2");
    dense_check("hier:delta2=4,a=2,b=1.5", "bernoulli:p=0.3");
    dense_check("hier:delta2=10", "uniform");
    dense_check("bic", "uniform");
    dense_check("aic", "uniform");
    refuses_large();
    return check_report("test_enumerate");
}
