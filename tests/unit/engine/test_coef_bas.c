/*
 * test_coef_bas.c: the coefficient table (FIT.json "coefficients",
 * subset_post.c) and the listed models' marginal likelihoods of exact
 * enumeration against R's BAS 1.7.5 (data/linear/bas_uscrime.json and
 * bas_lin_p15_n200.json, written by bench/linear/bas_reference.R), g-prior
 * with a uniform model prior:
 *   - PIPs, posterior means and means given inclusion equal coef()'s to 1e-8
 *     (the same mixture of the same per-model means);
 *   - with BAS's per-model sd (bas_sd: s RSS_M/(n-1-k) diag((X'X)^{-1}), the
 *     JSON's "conventions.coefficients"), sds to 1e-8 and the equal-tailed
 *     95% intervals of the t(n-1) mixture to 1e-6;
 *   - with the exact posterior sd (the table basel writes), sds within 5% of
 *     BAS's: the two differ by the definition (BAS's OLS sigma^2 against the
 *     posterior's yy (1 - s R^2)/(n-1) times the t variance factor);
 *   - the intercept on the inputs' original scale is ybar - sum_j E[b_j] xbar_j;
 *   - log p(y | M) of the top models and of the null model equal BAS's
 *     logmarg (g-prior: relative to the null, so the null's is 0).
 */
#include "check.h"
#include "engine/subset/subset.h"
#include "engine/subset/subset_post.h"
#include "problem/problem.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const json_t *term(const json_t *terms, const char *name)
{
    for (size_t i = 0; i < json_array_size(terms); i++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(terms, i), "name")), name))
            return json_array_get(terms, i);
    return NULL;
}

static double num(const json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }

static void one(const char *csv, const char *ref_path, const char *prior)
{
    basel_error err;
    basel_data *data;
    int rc = basel_data_read_csv(&data, csv, NULL, &err);
    CHECK(rc == BASEL_OK, "read %s: %s", csv, err.message);
    if (rc) return;
    const size_t n = basel_data_rows(data), d = basel_data_cols(data) - 1;
    double *X = malloc(n * d * sizeof *X), *Y = malloc(n * sizeof *Y);
    double *mu = calloc(d, sizeof *mu), *sc = malloc(d * sizeof *sc);
    char **names = calloc(d, sizeof *names), *target = "y";
    for (size_t j = 0; j < d; j++) {
        sc[j] = 1;
        names[j] = (char *)basel_data_name(data, j);
        for (size_t i = 0; i < n; i++) X[j * n + i] = basel_data_value(data, i, j);
    }
    double ybar = 0;
    for (size_t i = 0; i < n; i++) ybar += (Y[i] = basel_data_value(data, i, d)) / (double)n;
    bsl_problem P = {0};
    P.n = n;
    P.d = d;
    P.c = 1;
    P.input_names = names;
    P.target_names = &target;
    P.X = X;
    P.Y = Y;
    P.x_mean = mu;
    P.x_scale = sc;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_vs_problem pb = {0};
    bsl_vs_result vr;
    bsl_dict_create(&dict, "linear", X, n, d, &err);
    bsl_design_create(&D, dict, X, n, Y, 1, (size_t)1 << 28, &err);
    pb.D = D;
    bsl_coef_prior_parse(&pb.prior, prior, n, 1, &err);
    bsl_mprior_parse(&pb.mprior, "uniform", d, &err);
    pb.kmax = pb.mprior.kmax;
    rc = bsl_enumerate(&pb, NULL, &vr, &err);
    CHECK(rc == BASEL_OK, "enumerate %s: %s", csv, err.message);
    json_error_t jerr;
    json_t *ref = json_load_file(ref_path, 0, &jerr);
    CHECK(ref != NULL, "read %s", ref_path);
    const json_t *bas = json_object_get(json_object_get(json_object_get(ref, "priors"), "g-prior"), "coefficients");
    json_t *exact = bsl_subset_coefficients(&pb, &P, dict, &vr, (const char *const *)names, 0.95, 0, &err);
    json_t *basd = bsl_subset_coefficients(&pb, &P, dict, &vr, (const char *const *)names, 0.95, 1, &err);
    CHECK(exact && basd, "coefficient tables of %s", csv);
    const json_t *te = json_object_get(exact, "terms"), *tb = json_object_get(basd, "terms");
    CHECK(fabs(num(exact, "covered") - 1) < 1e-12, "%s: enumeration covers the posterior", csv);
    double dmean = 0, dcmean = 0, dpip = 0, dsd = 0, dcsd = 0, dint = 0, rsd = 0, xbar_sum = 0;
    for (size_t j = 0; j < d; j++) {
        const json_t *b = json_object_get(bas, names[j]), *e = term(te, names[j]), *s = term(tb, names[j]);
        CHECK(b && e && s, "%s: term %s", csv, names[j]);
        if (!b || !e || !s) continue;
        dpip = fmax(dpip, fabs(num(e, "pip") - num(b, "probne0")));
        dmean = fmax(dmean, fabs(num(e, "mean") - num(b, "postmean")));
        dcmean = fmax(dcmean, fabs(num(e, "cond_mean") - num(b, "conditional_mean")));
        dsd = fmax(dsd, fabs(num(s, "sd") - num(b, "postsd")));
        dcsd = fmax(dcsd, fabs(num(s, "cond_sd") - num(b, "conditional_sd")));
        const json_t *iv = json_object_get(b, "interval95_equal_tailed");
        dint = fmax(dint, fabs(num(s, "lower") - json_number_value(json_array_get(iv, 0))));
        dint = fmax(dint, fabs(num(s, "upper") - json_number_value(json_array_get(iv, 1))));
        rsd = fmax(rsd, fabs(num(e, "sd") / num(b, "postsd") - 1));
        double xbar = 0;
        for (size_t i = 0; i < n; i++) xbar += X[j * n + i] / (double)n;
        xbar_sum += num(e, "mean") * xbar;
    }
    printf("%s: max |dPIP| %.3g, |dmean| %.3g, |dcond_mean| %.3g; BAS convention: |dsd| %.3g, |dcond_sd| %.3g, "
           "|dinterval| %.3g; exact sd / BAS postsd - 1 up to %.3g\n",
           csv, dpip, dmean, dcmean, dsd, dcsd, dint, rsd);
    CHECK(dpip < 1e-8, "%s: PIPs equal BAS's probne0 (%.3g)", csv, dpip);
    CHECK(dmean < 1e-8, "%s: posterior means equal BAS's postmean (%.3g)", csv, dmean);
    CHECK(dcmean < 1e-8, "%s: means given inclusion equal BAS's (%.3g)", csv, dcmean);
    CHECK(dsd < 1e-8, "%s: with BAS's per-model sd, sds equal postsd (%.3g)", csv, dsd);
    CHECK(dcsd < 1e-8, "%s: with BAS's per-model sd, sds given inclusion equal BAS's (%.3g)", csv, dcsd);
    CHECK(dint < 1e-9, "%s: with BAS's per-model sd, the 95%% intervals equal the t-mixture quantiles (%.3g)", csv, dint);
    CHECK(rsd < 0.05, "%s: the exact posterior sds are within 5%% of BAS's approximation (%.3g)", csv, rsd);
    const json_t *ic = term(te, "(Intercept)");
    CHECK(ic && fabs(num(ic, "mean") - (ybar - xbar_sum)) < 1e-8, "%s: intercept = ybar - sum E[b_j] xbar_j", csv);
    /* log marginal likelihoods: BAS's logmarg of its top models */
    bsl_model *M = NULL;
    bsl_model_create(&M, D, &pb.prior, pb.kmax, &err);
    CHECK(fabs(bsl_subset_log_ml(M, NULL, 0)) < 1e-12, "%s: the null model's log ML is 0 (BAS's logmarg)", csv);
    const json_t *top = json_object_get(json_object_get(json_object_get(ref, "priors"), "g-prior"), "top_models");
    double dml = 0;
    for (size_t t = 0; t < json_array_size(top); t++) {
        const json_t *tm = json_array_get(top, t), *pr = json_object_get(tm, "predictors");
        size_t atoms[64], k = 0;
        for (size_t a = 0; a < json_array_size(pr) && k < 64; a++)
            for (size_t j = 0; j < d; j++)
                if (!strcmp(names[j], json_string_value(json_array_get(pr, a)))) atoms[k++] = j;
        for (size_t a = 1; a < k; a++) /* sorted */
            for (size_t b = a; b > 0 && atoms[b - 1] > atoms[b]; b--) {
                const size_t x = atoms[b];
                atoms[b] = atoms[b - 1];
                atoms[b - 1] = x;
            }
        dml = fmax(dml, fabs(bsl_subset_log_ml(M, atoms, k) - num(tm, "logmarg")));
    }
    printf("%s: max |log ML - BAS logmarg| over the top %zu models %.3g\n", csv, json_array_size(top), dml);
    CHECK(dml < 1e-8, "%s: log marginal likelihoods equal BAS's logmarg (%.3g)", csv, dml);
    bsl_model_free(M);
    json_decref(exact);
    json_decref(basd);
    json_decref(ref);
    bsl_vs_result_free(&vr);
    bsl_design_free(D);
    bsl_dict_free(dict);
    basel_data_free(data);
    free(X);
    free(Y);
    free(mu);
    free(sc);
    free(names);
}

int main(void)
{
    one("data/linear/uscrime_log.csv", "data/linear/bas_uscrime.json", "g:g=47");
    one("data/linear/lin_p15_n200.csv", "data/linear/bas_lin_p15_n200.json", "g:g=200");
    return check_report("test_coef_bas");
}
