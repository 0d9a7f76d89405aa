/*
 * test_results.c: the typed accessors of a fit's results (basel.h) against
 * what the command line writes from the same fit: the coefficient table
 * against basel_fit_write_coef_csv (`basel coef`), the listed models and
 * credible sets against the document's text (FIT.json), the draws'
 * hyperparameters against basel_fit_write_draws; basel_pred_se against the
 * intervals it stands behind; and the engine table's capabilities.
 */
#include "check.h"
#include "core/jsonutil.h"

#include <basel.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 60, P = 5 };

/* y = 1 + 2 x1 - x3 + x4 x1-correlated + noise, column-major with y last */
static void design(double *cm)
{
    unsigned long u = 7;
    for (size_t i = 0; i < N; i++) {
        double x[P - 1];
        for (size_t a = 0; a < P - 1; a++) {
            u = u * 6364136223846793005UL + 1442695040888963407UL;
            x[a] = (double)(u >> 11) / 9007199254740992.0 * 2 - 1;
        }
        x[3] = 0.8 * x[0] + 0.2 * x[3]; /* correlated with x1: a credible set's cluster */
        for (size_t a = 0; a < P - 1; a++) cm[a * N + i] = x[a];
        cm[(P - 1) * N + i] = 1 + 2 * x[0] - x[2] + 0.6 * sin(7.0 * (double)i);
    }
}

static basel_fit *fit(const basel_data *d, const char *method, const char *prior, const char *mprior, int draws)
{
    basel_options *o = NULL;
    basel_error err;
    basel_options_create(&o);
    basel_options_set(o, "method", method, &err);
    basel_options_set(o, "seed", "5", &err);
    if (prior) basel_options_set(o, "prior", prior, &err);
    if (mprior) basel_options_set(o, "model-prior", mprior, &err);
    if (draws) basel_options_set(o, "keep-draws", "1", &err);
    basel_fit *f = NULL;
    const int rc = basel_fit_run(&f, d, o, &err);
    CHECK(rc == BASEL_OK, "fit %s %s: %s", method, prior ? prior : "", err.message);
    basel_options_free(o);
    return rc ? NULL : f;
}

static json_t *document(const basel_fit *f)
{
    char *s = basel_fit_to_json(f);
    json_t *doc = s ? json_loads(s, 0, NULL) : NULL;
    basel_free(s);
    return doc;
}

/* a CSV field as basel_fit_write_coef_csv wrote it: NaN when empty */
static double field(char **p)
{
    char *end;
    const double x = **p == ',' || **p == '\n' || !**p ? NAN : strtod(*p, &end);
    if (!isnan(x)) *p = end;
    if (**p == ',') (*p)++;
    return x;
}

static int same(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

/* Every row of the coefficient table equals basel coef's CSV, bit for bit. */
static void check_coef(const basel_fit *f, const char *label)
{
    char path[] = "/tmp/basel-test-coef-XXXXXX";
    const int fd = mkstemp(path);
    close(fd);
    basel_error err;
    CHECK(basel_fit_write_coef_csv(f, path, &err) == BASEL_OK, "%s: coef csv: %s", label, err.message);
    FILE *fp = fopen(path, "r");
    char line[4096];
    CHECK(fp && fgets(line, sizeof line, fp), "%s: header", label);
    size_t rows = 0;
    while (fp && fgets(line, sizeof line, fp)) {
        char *p = strchr(line, ',');
        *p = 0;
        char *target = p + 1, *q = strchr(target, ',');
        *q = 0;
        p = q + 1;
        const char *term = basel_fit_coef_term(f, rows), *tg = basel_fit_coef_target(f, rows);
        CHECK(term && !strcmp(term, line) && tg && !strcmp(tg, target), "%s: row %zu names %s %s", label, rows, line,
              target);
        double v[BASEL_COEF_NVALUES];
        CHECK(basel_fit_coef(f, rows, v) == BASEL_OK, "%s: row %zu", label, rows);
        for (int k = 0; k < BASEL_COEF_NVALUES; k++) {
            const double x = field(&p);
            CHECK(same(v[k], x), "%s: row %zu value %d: %.17g vs the CSV's %.17g", label, rows, k, v[k], x);
        }
        rows++;
    }
    if (fp) fclose(fp);
    unlink(path);
    double v[BASEL_COEF_NVALUES];
    CHECK(rows > 0 && rows == basel_fit_coef_count(f), "%s: %zu rows, the CSV %zu", label, basel_fit_coef_count(f), rows);
    CHECK(basel_fit_coef(f, rows, v) == BASEL_EINVAL && !basel_fit_coef_term(f, rows), "%s: past the end", label);
    CHECK(basel_fit_coef_level(f) == 0.95, "%s: level", label);
    CHECK(basel_fit_coef_class(f, 0) == NULL, "%s: no classes", label);
}

/* The listed models against FIT.json's "models". */
static void check_models(const basel_fit *f, const json_t *doc, int with_ml, const char *label)
{
    const json_t *ms = json_object_get(doc, "models");
    CHECK(json_array_size(ms) > 1 && basel_fit_model_count(f) == json_array_size(ms), "%s: %zu models", label,
          basel_fit_model_count(f));
    for (size_t i = 0; i < basel_fit_model_count(f); i++) {
        const json_t *mo = json_array_get(ms, i), *at = json_object_get(mo, "atoms");
        const size_t *atoms;
        size_t k;
        double prob, log_ml, log_bf;
        CHECK(basel_fit_model(f, i, &atoms, &k, &prob, &log_ml, &log_bf) == BASEL_OK, "%s: model %zu", label, i);
        int eq = k == json_array_size(at);
        for (size_t j = 0; j < k && eq; j++) eq = atoms[j] == (size_t)json_integer_value(json_array_get(at, j));
        CHECK(eq, "%s: model %zu atoms", label, i);
        CHECK(prob == json_number_value(json_object_get(mo, "prob")), "%s: model %zu prob", label, i);
        if (with_ml) {
            CHECK(log_ml == json_number_value(json_object_get(mo, "log_ml")) &&
                      log_bf == json_number_value(json_object_get(mo, "log_bf_best")),
                  "%s: model %zu log_ml %g and log_bf %g as the document's", label, i, log_ml, log_bf);
        } else {
            CHECK(isnan(log_ml) && !json_object_get(mo, "log_ml"), "%s: model %zu has no log_ml", label, i);
        }
    }
    CHECK(basel_fit_model(f, basel_fit_model_count(f), NULL, NULL, NULL, NULL, NULL) == BASEL_EINVAL, "%s: past the end",
          label);
}

/* se is the scale behind a single model's intervals: upper - mean = q se,
 * q the Student-t quantile with the block's df (the normal's without). */
static void check_se_single(const basel_fit *f, const basel_data *d, const json_t *doc, const char *model,
                            const char *label)
{
    const json_t *blk = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
    const json_t *jdf = json_object_get(blk, "df");
    const double level = 0.9;
    const double q = jdf ? gsl_cdf_tdist_Pinv(0.5 + level / 2, json_number_value(jdf))
                         : gsl_cdf_ugaussian_Pinv(0.5 + level / 2);
    basel_pred *pm = NULL, *pn = NULL;
    basel_error err;
    CHECK(basel_fit_predict_ex(f, d, model, level, BASEL_INTERVAL_MEAN, &pm, &err) == BASEL_OK &&
              basel_fit_predict_ex(f, d, model, level, BASEL_INTERVAL_NEW, &pn, &err) == BASEL_OK,
          "%s: predict: %s", label, err.message);
    if (!pm || !pn) return;
    CHECK(basel_pred_has_se(pm) && basel_pred_has_se(pn), "%s: has se", label);
    for (size_t i = 0; i < 10; i++) {
        double mean, lo, hi, se, se_new, mn, ln, hn;
        CHECK(basel_pred_get(pm, i, 0, &mean, &lo, &hi) == BASEL_OK && basel_pred_se(pm, i, 0, &se) == BASEL_OK &&
                  basel_pred_se(pn, i, 0, &se_new) == BASEL_OK && basel_pred_get(pn, i, 0, &mn, &ln, &hn) == BASEL_OK,
              "%s: row %zu", label, i);
        CHECK(se > 0, "%s: se %g", label, se);
        CHECK_CLOSE((hi - mean) / q, se, 1e-12, label);
        CHECK_CLOSE((mean - lo) / q, se, 1e-12, label);
        CHECK(se_new == se, "%s: row %zu: the se of f(x) whatever the interval's kind (%.17g, %.17g)", label, i, se_new,
              se);
        CHECK(hn - mn > hi - mean, "%s: row %zu: a new y's interval is wider", label, i);
    }
    double x;
    CHECK(basel_pred_se(pm, basel_pred_rows(pm), 0, &x) == BASEL_EINVAL && basel_pred_se(pm, 0, 1, &x) == BASEL_EINVAL,
          "%s: out of range", label);
    basel_pred_free(pm);
    basel_pred_free(pn);
}

/* The model average's se: the law of total variance over its models with
 * each model's scale in place of its variance (BAS's se.bma.fit; exact
 * against BAS in r/tests/testthat/test-bas.R). A bound that must hold:
 * the mixture's sd is at most se sqrt(df / (df - 2)) (<= 1.02 se here,
 * df >= N - P - 1), and by Cantelli's inequality its 0.125 and 0.875
 * quantiles lie within m -+ sqrt(7) sd, so the 0.75 interval is at most
 * 2 sqrt(7) 1.02 se wide. */
static void check_se_bma(const basel_fit *f, const basel_data *d, const char *label)
{
    basel_pred *p = NULL;
    basel_error err;
    CHECK(basel_fit_predict_ex(f, d, "bma", 0.75, BASEL_INTERVAL_MEAN, &p, &err) == BASEL_OK, "%s: %s", label,
          err.message);
    if (!p) return;
    for (size_t i = 0; i < basel_pred_rows(p); i++) {
        double mean, lo, hi, se;
        basel_pred_get(p, i, 0, &mean, &lo, &hi);
        CHECK(basel_pred_se(p, i, 0, &se) == BASEL_OK && se > 0 && isfinite(se), "%s: row %zu se %g", label, i, se);
        CHECK(hi - lo <= 2 * sqrt(7.0) * 1.02 * se, "%s: row %zu: the 0.75 interval %g within m -+ sqrt(7) sd (Cantelli), se %g",
              label, i, hi - lo, se);
    }
    basel_pred_free(p);
}

/* The model average's table on demand (basel_fit_model_coef "bma"): the
 * document's numbers, and its intervals at the table's own level those of
 * the table (which mixes every visited model; the predictive block all but
 * 1e-6 of them: the tolerance), at a lower level nested inside them. */
static void check_bma_coef(const basel_fit *f, const char *label)
{
    const size_t rows = basel_fit_coef_count(f);
    double *v = malloc(rows * BASEL_COEF_NVALUES * sizeof *v), *w = malloc(rows * BASEL_COEF_NVALUES * sizeof *w);
    basel_error err;
    int rc = v && w ? basel_fit_model_coef(f, "bma", basel_fit_coef_level(f), v, &err) : BASEL_ENOMEM;
    CHECK(rc == BASEL_OK, "%s: %s", label, err.message);
    if (!rc) rc = basel_fit_model_coef(f, "bma", 0.5, w, &err);
    CHECK(rc == BASEL_OK, "%s at 0.5: %s", label, err.message);
    int same_numbers = 1, nested = 1;
    double worst = 0;
    for (size_t i = 0; !rc && i < rows; i++) {
        double row[BASEL_COEF_NVALUES];
        basel_fit_coef(f, i, row);
        const double *a = v + i * BASEL_COEF_NVALUES, *b = w + i * BASEL_COEF_NVALUES;
        for (size_t k = 0; k < BASEL_COEF_LOWER; k++) same_numbers = same_numbers && same(a[k], row[k]) && same(b[k], row[k]);
        for (size_t k = BASEL_COEF_LOWER; k <= BASEL_COEF_UPPER; k++)
            worst = fmax(worst, fabs(a[k] - row[k]) / fmax(row[BASEL_COEF_SD], 1e-300));
        nested = nested && a[BASEL_COEF_LOWER] <= b[BASEL_COEF_LOWER] && b[BASEL_COEF_LOWER] <= b[BASEL_COEF_UPPER] &&
                 b[BASEL_COEF_UPPER] <= a[BASEL_COEF_UPPER];
    }
    CHECK(!rc && same_numbers, "%s: the document's PIPs, means and sds", label);
    CHECK(!rc && worst < 1e-6, "%s: at the table's level its intervals (worst %g sd)", label, worst);
    CHECK(!rc && nested, "%s: the 50%% intervals inside the 95%%", label);
    free(v);
    free(w);
}

/* The terms' densities (basel_fit_coef_density) against the table's
 * quantiles: on a fine grid over cond_mean -+ 12 cond_sd, the trapezoid
 * integral of a term's density is its PIP, and with the mass 1 - PIP at 0
 * the CDF at the table's interval ends is (1 -+ level) / 2; a term never
 * in a model has density 0. */
static void check_density(const basel_fit *f, const char *model, const char *label)
{
    enum { NX = 20001 };
    const size_t rows = basel_fit_coef_count(f);
    double *v = malloc(rows * BASEL_COEF_NVALUES * sizeof *v), *x = malloc(rows * NX * sizeof *x),
           *dens = malloc(rows * NX * sizeof *dens);
    basel_error err;
    const double level = 0.9;
    int rc = basel_fit_model_coef(f, model, level, v, &err);
    for (size_t i = 0; !rc && i < rows; i++) {
        const double *r = v + i * BASEL_COEF_NVALUES;
        const double c = isnan(r[BASEL_COEF_COND_MEAN]) ? 0 : r[BASEL_COEF_COND_MEAN];
        const double h = isnan(r[BASEL_COEF_COND_SD]) ? 1 : r[BASEL_COEF_COND_SD];
        for (size_t k = 0; k < NX; k++) x[i * NX + k] = c + h * (-12 + 24 * (double)k / (NX - 1));
    }
    if (!rc) rc = basel_fit_coef_density(f, model, x, NX, dens, &err);
    CHECK(rc == BASEL_OK, "%s: %s", label, err.message);
    double worst_mass = 0, worst_cdf = 0;
    int zero = 1;
    for (size_t i = 0; !rc && i < rows; i++) {
        const double *r = v + i * BASEL_COEF_NVALUES, *xi = x + i * NX, *di = dens + i * NX;
        if (isnan(r[BASEL_COEF_COND_MEAN])) {
            for (size_t k = 0; k < NX; k++) zero = zero && di[k] == 0;
            continue;
        }
        double F = 0, lo = NAN, hi = NAN;
        const double w0 = 1 - r[BASEL_COEF_PIP];
        for (size_t k = 1; k < NX; k++) {
            const double before = F + (xi[k - 1] >= 0 ? w0 : 0);
            F += 0.5 * (di[k] + di[k - 1]) * (xi[k] - xi[k - 1]);
            const double after = F + (xi[k] >= 0 ? w0 : 0);
            /* the CDF at an interval end, interpolated within its cell */
            if (r[BASEL_COEF_LOWER] != 0 && xi[k - 1] <= r[BASEL_COEF_LOWER] && r[BASEL_COEF_LOWER] < xi[k])
                lo = before + (after - before) * (r[BASEL_COEF_LOWER] - xi[k - 1]) / (xi[k] - xi[k - 1]);
            if (r[BASEL_COEF_UPPER] != 0 && xi[k - 1] <= r[BASEL_COEF_UPPER] && r[BASEL_COEF_UPPER] < xi[k])
                hi = before + (after - before) * (r[BASEL_COEF_UPPER] - xi[k - 1]) / (xi[k] - xi[k - 1]);
        }
        worst_mass = fmax(worst_mass, fabs(F - r[BASEL_COEF_PIP]));
        if (!isnan(lo)) worst_cdf = fmax(worst_cdf, fabs(lo - (1 - level) / 2));
        if (!isnan(hi)) worst_cdf = fmax(worst_cdf, fabs(hi - (1 + level) / 2));
    }
    CHECK(!rc && worst_mass < 1e-6, "%s: each density integrates to the PIP (worst %g)", label, worst_mass);
    CHECK(!rc && worst_cdf < 1e-6, "%s: the CDF at the interval ends (worst %g)", label, worst_cdf);
    CHECK(!rc && zero, "%s: a term outside every model has density 0", label);
    free(v);
    free(x);
    free(dens);
}

/* One model's table (basel_fit_model_coef) against what predict gives for
 * the same model: its means are the coefficients of predict's mean at
 * every training row (y = intercept + sum_j b_j x_j: the linear basis), a
 * term outside the model is 0 with PIP 0, and the intercept is f(0), whose
 * equal-tailed interval is predict's interval of the mean at x = 0 and
 * whose sd is that prediction's se (the Student-t scale) times
 * sqrt(df / (df - 2)). */
static void check_model_coef(const basel_fit *f, const basel_data *d, const json_t *doc, const char *model,
                             const char *label)
{
    const size_t rows = basel_fit_coef_count(f), m = basel_fit_atom_count(f);
    double *v = malloc(rows * BASEL_COEF_NVALUES * sizeof *v);
    basel_error err;
    CHECK(rows == m + 1 && v, "%s: intercept and %zu atoms", label, m);
    if (rows != m + 1 || !v) {
        free(v);
        return;
    }
    const double level = 0.9;
    int rc = basel_fit_model_coef(f, model, level, v, &err);
    CHECK(rc == BASEL_OK, "%s: %s", label, err.message);
    size_t k;
    const size_t *sel = basel_fit_selected(f, model, &k);
    int in_ok = 1, out_ok = 1;
    for (size_t j = 0; j < m; j++) {
        const double *r = v + (j + 1) * BASEL_COEF_NVALUES;
        int in = 0;
        for (size_t a = 0; a < k; a++) in |= sel[a] == j;
        if (in)
            in_ok = in_ok && r[BASEL_COEF_PIP] == 1 && r[BASEL_COEF_MEAN] == r[BASEL_COEF_COND_MEAN] &&
                    r[BASEL_COEF_SD] > 0 && r[BASEL_COEF_LOWER] < r[BASEL_COEF_MEAN] &&
                    r[BASEL_COEF_MEAN] < r[BASEL_COEF_UPPER];
        else
            out_ok = out_ok && r[BASEL_COEF_PIP] == 0 && r[BASEL_COEF_MEAN] == 0 && r[BASEL_COEF_SD] == 0 &&
                     isnan(r[BASEL_COEF_COND_MEAN]) && r[BASEL_COEF_LOWER] == 0 && r[BASEL_COEF_UPPER] == 0;
    }
    CHECK(k > 0 && in_ok && out_ok, "%s: the model's %zu terms in, the others 0", label, k);
    basel_pred *p = NULL;
    rc = basel_fit_predict_ex(f, d, model, level, BASEL_INTERVAL_MEAN, &p, &err);
    CHECK(rc == BASEL_OK, "%s: predict: %s", label, err.message);
    double worst = 0;
    for (size_t i = 0; p && i < basel_pred_rows(p); i++) {
        double mean, lo, hi, lin = v[BASEL_COEF_MEAN];
        basel_pred_get(p, i, 0, &mean, &lo, &hi);
        for (size_t j = 0; j < m; j++) lin += v[(j + 1) * BASEL_COEF_NVALUES + BASEL_COEF_MEAN] * basel_data_value(d, i, j);
        worst = fmax(worst, fabs(lin - mean) / fmax(1, fabs(mean)));
    }
    CHECK(worst < 1e-12, "%s: predict's means are the coefficients' (worst %g)", label, worst);
    basel_pred_free(p);
    /* f(0): one row of zeros */
    const char *names[P] = {"a", "b", "c", "e", "y"};
    const double zero[P] = {0};
    basel_data *z = NULL;
    rc = basel_data_from_matrix(&z, "zero", zero, 1, P, 1, 1, names, &err);
    if (!rc) rc = basel_fit_predict_ex(f, z, model, level, BASEL_INTERVAL_MEAN, &p, &err);
    CHECK(rc == BASEL_OK, "%s: predict at 0: %s", label, err.message);
    if (!rc) {
        double mean, lo, hi, se;
        basel_pred_get(p, 0, 0, &mean, &lo, &hi);
        basel_pred_se(p, 0, 0, &se);
        const json_t *jdf = json_object_get(json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"),
                                                            model),
                                            "df");
        const double df = jdf ? json_number_value(jdf) : INFINITY;
        const double var_factor = isinf(df) ? 1 : df / (df - 2);
        const int failed = check_failed;
        CHECK_CLOSE(v[BASEL_COEF_MEAN], mean, 1e-12, "the intercept is f(0)");
        CHECK_CLOSE(v[BASEL_COEF_LOWER], lo, 1e-9, "the intercept's lower end is f(0)'s");
        CHECK_CLOSE(v[BASEL_COEF_UPPER], hi, 1e-9, "the intercept's upper end is f(0)'s");
        CHECK_CLOSE(v[BASEL_COEF_SD], se * sqrt(var_factor), 1e-12, "the intercept's sd from f(0)'s se");
        if (check_failed > failed) fprintf(stderr, "(those in %s)\n", label);
    }
    basel_pred_free(p);
    basel_data_free(z);
    /* refusals */
    CHECK(basel_fit_model_coef(f, NULL, level, v, &err) == BASEL_EINVAL, "%s: no model", label);
    CHECK(basel_fit_model_coef(f, "nosuch", level, v, &err) == BASEL_EINVAL && strstr(err.message, "nosuch"),
          "%s: an unknown model: %s", label, err.message);
    CHECK(basel_fit_model_coef(f, model, 1.0, v, &err) == BASEL_EINVAL && strstr(err.message, "level 1"),
          "%s: level 1: %s", label, err.message);
    free(v);
}

/* The predictive sds (basel_pred_sd) are the same whatever the interval's
 * kind (none included: free for one model); for one model they are
 * its Student-t's sd, the scale behind its intervals times
 * sqrt(df / (df - 2)) (the scale for a normal). */
static void check_sd_single(const basel_fit *f, const basel_data *d, const json_t *doc, const char *model,
                            const char *label)
{
    const json_t *blk = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
    const json_t *jdf = json_object_get(blk, "df");
    const double level = 0.9, df = jdf ? json_number_value(jdf) : INFINITY;
    const double q = jdf ? gsl_cdf_tdist_Pinv(0.5 + level / 2, df) : gsl_cdf_ugaussian_Pinv(0.5 + level / 2);
    const double tsd = jdf ? sqrt(df / (df - 2)) : 1.0;
    const basel_interval_kind kinds[4] = {BASEL_INTERVAL_NEW, BASEL_INTERVAL_MEAN, BASEL_INTERVAL_NONE,
                                          BASEL_INTERVAL_SD};
    basel_pred *p[4] = {NULL, NULL, NULL, NULL};
    basel_error err;
    for (int k = 0; k < 4; k++)
        CHECK(basel_fit_predict_ex(f, d, model, level, kinds[k], &p[k], &err) == BASEL_OK && basel_pred_has_sd(p[k]),
              "%s: predict kind %d with sd: %s", label, k, p[k] ? "" : err.message);
    for (size_t i = 0; i < 10 && p[0] && p[1] && p[2] && p[3]; i++) {
        double mn, ln, hn, mm, lm, hm, sn[4], sm[4];
        int ok = basel_pred_get(p[0], i, 0, &mn, &ln, &hn) == BASEL_OK &&
                 basel_pred_get(p[1], i, 0, &mm, &lm, &hm) == BASEL_OK;
        for (int k = 0; k < 4; k++) ok = ok && basel_pred_sd(p[k], i, 0, &sn[k], &sm[k]) == BASEL_OK;
        CHECK(ok, "%s: row %zu", label, i);
        CHECK(sn[0] == sn[1] && sn[0] == sn[2] && sn[0] == sn[3] && sm[0] == sm[1] && sm[0] == sm[2] && sm[0] == sm[3],
              "%s: row %zu: the sds whatever the interval's kind", label, i);
        CHECK_CLOSE(sn[0], (hn - mn) / q * tsd, 1e-12, label);
        CHECK_CLOSE(sm[0], (hm - mm) / q * tsd, 1e-12, label);
    }
    double x;
    CHECK(p[0] && basel_pred_sd(p[0], basel_pred_rows(p[0]), 0, &x, NULL) == BASEL_EINVAL &&
              basel_pred_sd(p[0], 0, 1, NULL, &x) == BASEL_EINVAL,
          "%s: sd out of range", label);
    for (int k = 0; k < 4; k++) basel_pred_free(p[k]);
}

/* The model average's sds: the same whatever the interval's kind (sd: no
 * interval; none: no sds either, the means alone stay cheap); that of
 * f(x) is the mixture's with each t's variance where se has its scale^2,
 * so se <= sd <= sqrt(df / (df - 2)) se <= 1.02 se here (df >= N - P - 1,
 * check_se_bma), equal to se for normals (sigma^2 given: normal); a new
 * y's is wider. (Exact against a first-principles computation of every
 * model's t in python/tests/test_estimators.py.) */
static void check_sd_bma(const basel_fit *f, const basel_data *d, int normal, const char *label)
{
    basel_pred *pn = NULL, *pm = NULL, *p0 = NULL, *none = NULL;
    basel_error err;
    CHECK(basel_fit_predict_ex(f, d, "bma", 0.9, BASEL_INTERVAL_NEW, &pn, &err) == BASEL_OK &&
              basel_fit_predict_ex(f, d, "bma", 0.9, BASEL_INTERVAL_MEAN, &pm, &err) == BASEL_OK &&
              basel_fit_predict_ex(f, d, "bma", 0.9, BASEL_INTERVAL_SD, &p0, &err) == BASEL_OK &&
              basel_fit_predict_ex(f, d, "bma", 0.9, BASEL_INTERVAL_NONE, &none, &err) == BASEL_OK,
          "%s: %s", label, err.message);
    if (!pn || !pm || !p0 || !none) goto done;
    CHECK(basel_pred_has_sd(pn) && basel_pred_has_sd(pm) && basel_pred_has_sd(p0) && basel_pred_has_se(p0),
          "%s: has sd (and se with kind sd)", label);
    double x, lo, hi;
    CHECK(!basel_pred_has_sd(none) && !basel_pred_has_se(none) && basel_pred_sd(none, 0, 0, &x, NULL) == BASEL_EINVAL &&
              basel_pred_get(p0, 0, 0, &x, &lo, &hi) == BASEL_OK && isnan(lo) && isnan(hi),
          "%s: kind none: no sds; kind sd: no interval", label);
    for (size_t i = 0; i < basel_pred_rows(p0); i++) {
        double sn[3], sm[3], se, se0;
        int ok = basel_pred_sd(pn, i, 0, &sn[0], &sm[0]) == BASEL_OK &&
                 basel_pred_sd(pm, i, 0, &sn[1], &sm[1]) == BASEL_OK &&
                 basel_pred_sd(p0, i, 0, &sn[2], &sm[2]) == BASEL_OK && basel_pred_se(pm, i, 0, &se) == BASEL_OK &&
                 basel_pred_se(p0, i, 0, &se0) == BASEL_OK;
        CHECK(ok && sn[0] == sn[1] && sn[0] == sn[2] && sm[0] == sm[1] && sm[0] == sm[2] && se0 == se,
              "%s: row %zu: sds and se whatever the interval's kind", label, i);
        if (normal) CHECK(sm[0] == se, "%s: row %zu: a normal mixture's sd is se (%.17g, %.17g)", label, i, sm[0], se);
        else CHECK(se < sm[0] && sm[0] <= 1.02 * se, "%s: row %zu: se %g < sd %g <= 1.02 se", label, i, se, sm[0]);
        CHECK(sn[0] > sm[0] && isfinite(sn[0]), "%s: row %zu: a new y's sd %g exceeds f(x)'s %g", label, i, sn[0],
              sm[0]);
    }
done:
    basel_pred_free(pn);
    basel_pred_free(pm);
    basel_pred_free(p0);
    basel_pred_free(none);
}

int main(void)
{
    double cm[N * P];
    design(cm);
    const char *names[P] = {"a", "b", "c", "e", "y"};
    basel_error err;
    basel_data *d = NULL;
    CHECK(basel_data_from_matrix(&d, "X", cm, N, P, 1, N, names, &err) == BASEL_OK, "data: %s", err.message);

    /* enumerate, g-prior: marginal likelihoods in the document */
    basel_fit *f = fit(d, "enumerate", NULL, NULL, 0);
    json_t *doc = f ? document(f) : NULL;
    if (f && doc) {
        check_coef(f, "enumerate g");
        check_models(f, doc, 1, "enumerate g");
        check_se_single(f, d, doc, "hpm", "enumerate g hpm");
        check_se_bma(f, d, "enumerate g bma");
        check_sd_single(f, d, doc, "hpm", "enumerate g hpm");
        check_sd_bma(f, d, 0, "enumerate g bma");
        check_model_coef(f, d, doc, "hpm", "enumerate g hpm coefficients");
        check_model_coef(f, d, doc, "median", "enumerate g median coefficients");
        check_bma_coef(f, "enumerate g bma coefficients");
        check_density(f, "bma", "enumerate g bma density");
        check_density(f, "hpm", "enumerate g hpm density");
        /* credible sets against the document */
        const json_t *sets = json_object_get(json_object_get(doc, "credible_sets"), "sets");
        CHECK(json_array_size(sets) > 0 && basel_fit_credible_set_count(f) == json_array_size(sets), "%zu sets",
              basel_fit_credible_set_count(f));
        for (size_t i = 0; i < basel_fit_credible_set_count(f); i++) {
            const json_t *s = json_array_get(sets, i), *at = json_object_get(s, "atoms");
            const size_t *atoms;
            size_t k;
            double cov, pur;
            CHECK(basel_fit_credible_set(f, i, &atoms, &k, &cov, &pur) == BASEL_OK, "set %zu", i);
            int eq = k == json_array_size(at);
            for (size_t j = 0; j < k && eq; j++) eq = atoms[j] == (size_t)json_integer_value(json_array_get(at, j));
            CHECK(eq && cov == json_number_value(json_object_get(s, "coverage")) &&
                      pur == json_number_value(json_object_get(s, "purity")),
                  "set %zu as the document's", i);
        }
        CHECK(basel_fit_credible_set(f, basel_fit_credible_set_count(f), NULL, NULL, NULL, NULL) == BASEL_EINVAL,
              "sets: past the end");
    }
    json_decref(doc);
    basel_fit_free(f);

    /* a categorical input, selected as one group: its columns' PIPs are the
     * group's (the document's "pip" is per group), its tables on demand
     * the same as for any input */
    {
        static char csv[4096];
        size_t len = (size_t)snprintf(csv, sizeof csv, "a,b,g,y\n");
        for (size_t i = 0; i < N; i++)
            len += (size_t)snprintf(csv + len, sizeof csv - len, "%.6f,%.6f,%s,%.6f\n", cm[i], cm[N + i],
                                    i % 3 == 0 ? "lo" : i % 3 == 1 ? "mid" : "hi",
                                    cm[(P - 1) * N + i] + 0.8 * (i % 3 == 1));
        basel_data *dg = NULL;
        CHECK(basel_data_read_buffer(&dg, "g.csv", csv, len, NULL, &err) == BASEL_OK, "factor data: %s", err.message);
        basel_fit *fg = dg ? fit(dg, "enumerate", NULL, NULL, 0) : NULL;
        if (fg) {
            check_bma_coef(fg, "factor bma coefficients");
            check_density(fg, "bma", "factor bma density");
            check_density(fg, "hpm", "factor hpm density");
        }
        basel_fit_free(fg);
        basel_data_free(dg);
    }

    /* hyper-g: a model's coefficients are mixtures over g: exact means, no
     * sds or intervals (NaN), and the model average's intervals only at the
     * fit's level */
    f = fit(d, "enumerate", "hyper-g", NULL, 0);
    if (f) {
        const size_t rows = basel_fit_coef_count(f);
        double *v = malloc(rows * BASEL_COEF_NVALUES * sizeof *v);
        int rc = basel_fit_model_coef(f, "hpm", 0.9, v, &err);
        CHECK(rc == BASEL_OK, "hyper-g hpm: %s", err.message);
        int ok = !rc;
        for (size_t i = 0; ok && i < rows; i++) {
            const double *r = v + i * BASEL_COEF_NVALUES;
            ok = isfinite(r[BASEL_COEF_MEAN]) && (r[BASEL_COEF_PIP] == 0 ? r[BASEL_COEF_SD] == 0
                                                                        : isnan(r[BASEL_COEF_SD]) &&
                                                                              isnan(r[BASEL_COEF_LOWER]));
        }
        CHECK(ok, "hyper-g hpm: means, and NaN sds and intervals for the model's terms");
        CHECK(basel_fit_model_coef(f, "bma", 0.9, v, &err) == BASEL_EINVAL && strstr(err.message, "hyper-g"),
              "hyper-g bma at 0.9 refused: %s", err.message);
        free(v);
    }
    basel_fit_free(f);

    /* ridge with sigma^2 given: normal intervals, se their scale */
    f = fit(d, "enumerate", "ridge:lambda=2,sigma2=0.3", NULL, 0);
    doc = f ? document(f) : NULL;
    if (f && doc) {
        check_coef(f, "enumerate ridge");
        check_se_single(f, d, doc, "hpm", "enumerate ridge hpm");
        check_se_single(f, d, doc, "median", "enumerate ridge median");
        check_model_coef(f, d, doc, "hpm", "enumerate ridge hpm coefficients");
        check_bma_coef(f, "enumerate ridge bma coefficients");
        check_density(f, "median", "enumerate ridge median density");
        check_se_bma(f, d, "enumerate ridge bma");
        check_sd_single(f, d, doc, "median", "enumerate ridge median");
        check_sd_bma(f, d, 1, "enumerate ridge bma");
    }
    json_decref(doc);
    basel_fit_free(f);

    /* hyper-g mixes over g within each model: no t's, so no sds (as no
     * intervals), only the means with --interval none */
    f = fit(d, "enumerate", "hyper-g", NULL, 0);
    if (f) {
        for (int single = 0; single < 2; single++) {
            basel_pred *p = NULL;
            double x;
            CHECK(basel_fit_predict_ex(f, d, single ? "hpm" : "bma", 0.9, BASEL_INTERVAL_SD, &p, &err) == BASEL_OK,
                  "hyper-g: %s", err.message);
            CHECK(p && !basel_pred_has_sd(p) && !basel_pred_has_se(p) && basel_pred_sd(p, 0, 0, &x, &x) == BASEL_EINVAL,
                  "hyper-g %s: no sd, no se", single ? "hpm" : "bma");
            basel_pred_free(p);
        }
    }
    basel_fit_free(f);

    /* ssvs (its own prior: no marginal likelihoods): Bayes factors from the
     * model prior that ran, posterior odds over prior odds; the bernoulli
     * prior's log pi(k) = k log p + (m - k) log(1 - p) */
    f = fit(d, "ssvs", NULL, "bernoulli:p=0.3", 1);
    doc = f ? document(f) : NULL;
    if (f && doc) {
        check_coef(f, "ssvs");
        check_models(f, doc, 0, "ssvs");
        check_model_coef(f, d, doc, "median", "ssvs median coefficients");
        check_bma_coef(f, "ssvs bma coefficients");
        const size_t m = basel_fit_atom_count(f);
        double p0 = 0;
        size_t k0 = 0;
        basel_fit_model(f, 0, NULL, &k0, &p0, NULL, NULL);
        for (size_t i = 0; i < basel_fit_model_count(f); i++) {
            size_t k;
            double p, bf;
            basel_fit_model(f, i, NULL, &k, &p, NULL, &bf);
            const double want = log(p / p0) - ((double)k - (double)k0) * (log(0.3) - log(0.7));
            CHECK_CLOSE(bf, want, 1e-12, "ssvs: a model's Bayes factor from the model prior");
        }
        /* the draws' hyperparameters against the draws CSV */
        char path[] = "/tmp/basel-test-draws-XXXXXX";
        const int fd = mkstemp(path);
        close(fd);
        CHECK(basel_fit_write_draws(f, path, &err) == BASEL_OK, "draws: %s", err.message);
        const size_t ns = basel_fit_draw_scalar_count(f);
        CHECK(basel_fit_draw_count(f) > 0 && m == 4, "ssvs keeps draws of the 4 atoms");
        FILE *fp = fopen(path, "r");
        static char line[1 << 16];
        size_t i = 0, iteration = 0;
        unsigned last_chain = 0;
        int header = 0, ok = 1;
        while (fp && fgets(line, sizeof line, fp)) {
            if (line[0] == '#') continue;
            if (!header++) { /* chain,iteration,draw,size,atoms...,scalars... */
                char *c = line;
                ok = ok && !strncmp(line, "chain,iteration,draw,size,", 26);
                for (size_t j = 0; j < 4 + m; j++) c = strchr(c, ',') + 1;
                for (size_t s = 0; s < ns; s++) {
                    const char *nm = basel_fit_draw_scalar_name(f, s);
                    ok = ok && nm && !strncmp(c, nm, strlen(nm));
                    c = strchr(c, ',') ? strchr(c, ',') + 1 : c;
                }
                continue;
            }
            unsigned chain;
            const size_t *atoms;
            size_t k;
            const double *x;
            ok = ok && basel_fit_draw(f, i, &chain, &atoms, &k) == BASEL_OK &&
                 basel_fit_draw_scalars(f, i, &x) == BASEL_OK;
            char *c = line;
            ok = ok && strtoul(c, &c, 10) == chain + 1;
            iteration = i && chain == last_chain ? iteration + 1 : 1;
            last_chain = chain;
            /* the iteration in the chain, the draw overall */
            ok = ok && strtoul(c + 1, &c, 10) == iteration && strtoul(c + 1, &c, 10) == i + 1;
            for (size_t j = 0; j < 2 + m; j++) c = strchr(c, ',') + 1; /* past size and the atoms */
            for (size_t s = 0; s < ns && ok; s++) {
                ok = strtod(c, &c) == x[s];
                c++;
            }
            i++;
        }
        if (fp) fclose(fp);
        unlink(path);
        CHECK(ok && i == basel_fit_draw_count(f), "draws' hyperparameters as the CSV's (%zu draws, %zu scalars)", i, ns);
        const double *x;
        CHECK(basel_fit_draw_scalars(f, i, &x) == BASEL_EINVAL && !basel_fit_draw_scalar_name(f, ns),
              "draws: past the end");
    }
    json_decref(doc);
    basel_fit_free(f);

    /* the engine table's capabilities */
    CHECK(basel_method_keeps_draws("bd") && basel_method_keeps_draws("rj") && basel_method_keeps_draws("ssvs") &&
              basel_method_keeps_draws("mixture"),
          "the samplers keep draws");
    CHECK(!basel_method_keeps_draws("enumerate") && !basel_method_keeps_draws("smc") &&
              !basel_method_keeps_draws("nosuch") && !basel_method_keeps_draws(NULL),
          "enumerate, smc and unknown methods do not");
    CHECK(basel_method_mean_interval("enumerate") && !basel_method_mean_interval("rbf"), "mean intervals");
    CHECK(basel_method_has_family("bd", "binomial") && basel_method_has_family("bd", NULL) &&
              !basel_method_has_family("mixture", "gaussian") && !basel_method_has_family("rbf", "binomial") &&
              !basel_method_has_family("bd", "nosuch"),
          "families");
    CHECK(!strcmp(basel_method_model("bd", 0), "bma") && !strcmp(basel_method_model("anneal", 0), "map") &&
              !basel_method_model("anneal", 1) && !strcmp(basel_method_model("smc", 0), "bma") &&
              !basel_method_model("smc", 1) && !basel_method_model("nosuch", 0),
          "predictors");

    basel_data_free(d);
    return check_report("test_results");
}
