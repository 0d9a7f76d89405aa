/*
 * test_stats.c: a fit from summary statistics (basel_fit_run_stats,
 * docs/SUMMARY_STATS.md) is the fit from the rows behind them.
 *
 * The statistics of data/linear/lin_p15_n200.csv are computed here (plain
 * sums of centred products), written as a --stats file in both forms, and
 * fitted beside the rows:
 *   - enumerate (g, and ridge on standardised inputs): PIPs, the size
 *     posterior and every listed model's log marginal likelihood agree to
 *     1e-10 (the exact posterior; only the order of the sums differs, so the
 *     agreement is to rounding, ~1e-13 measured);
 *   - the LD form (R and z-scores) under the g-prior, which depends on the
 *     data only through R^2s and so is the same posterior;
 *   - rj, bd and ssvs with the same seed: the same trajectory (the same listed
 *     models and visit counts), PIPs to rounding (1e-12);
 *   - predictions from a fit with means equal the rows' fit's; a fit from
 *     the LD form refuses to predict;
 *   - bad files and options: each refused with its message.
 */
#include "check_options.h"

#include <basel.h>
#include <math.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA "data/linear/lin_p15_n200.csv"

typedef struct stats {
    size_t n, p;
    double xtx[15 * 15], xty[15], yty, xm[15], ym, sd[15];
} stats;

static void compute(const basel_data *d, stats *s)
{
    const size_t n = basel_data_rows(d), p = basel_data_cols(d) - 1;
    s->n = n;
    s->p = p;
    double xm[16] = {0};
    for (size_t j = 0; j <= p; j++) {
        for (size_t i = 0; i < n; i++) xm[j] += basel_data_value(d, i, j);
        xm[j] /= (double)n;
    }
    for (size_t a = 0; a <= p; a++)
        for (size_t b = 0; b <= p; b++) {
            double v = 0;
            for (size_t i = 0; i < n; i++) v += (basel_data_value(d, i, a) - xm[a]) * (basel_data_value(d, i, b) - xm[b]);
            if (a < p && b < p) s->xtx[a + b * p] = v;
            else if (a < p && b == p) s->xty[a] = v;
            else if (a == p && b == p) s->yty = v;
        }
    memcpy(s->xm, xm, p * sizeof *xm);
    s->ym = xm[p];
    for (size_t j = 0; j < p; j++) s->sd[j] = sqrt(s->xtx[j + j * p]);
}

/* form: 0 cross products with means, 1 without means, 2 LD and z. */
static void write_stats(const char *path, const basel_data *d, const stats *s, int form)
{
    FILE *fp = fopen(path, "w");
    const size_t p = s->p;
    fprintf(fp, "{\"n\": %zu, \"target\": \"y\", \"inputs\": [", s->n);
    for (size_t j = 0; j < p; j++) fprintf(fp, "%s\"%s\"", j ? ", " : "", basel_data_name(d, j));
    fprintf(fp, "],\n \"%s\": [", form == 2 ? "ld" : "xtx");
    for (size_t i = 0; i < p; i++) {
        fprintf(fp, "%s[", i ? ",\n  " : "");
        for (size_t j = 0; j < p; j++) {
            const double v = form == 2 ? (i == j ? 1.0 : s->xtx[i + j * p] / (s->sd[i] * s->sd[j])) : s->xtx[i + j * p];
            fprintf(fp, "%s%.17g", j ? ", " : "", v);
        }
        fprintf(fp, "]");
    }
    fprintf(fp, "],\n \"%s\": [", form == 2 ? "z" : "xty");
    for (size_t j = 0; j < p; j++) {
        const double r = s->xty[j] / (s->sd[j] * sqrt(s->yty));
        const double v = form == 2 ? r * sqrt((double)s->n - 2) / sqrt(1 - r * r) : s->xty[j];
        fprintf(fp, "%s%.17g", j ? ", " : "", v);
    }
    fprintf(fp, "]");
    if (form != 2) fprintf(fp, ",\n \"yty\": %.17g", s->yty);
    if (form == 0) {
        fprintf(fp, ",\n \"y_mean\": %.17g, \"x_mean\": [", s->ym);
        for (size_t j = 0; j < p; j++) fprintf(fp, "%s%.17g", j ? ", " : "", s->xm[j]);
        fprintf(fp, "]");
    }
    fprintf(fp, "}\n");
    fclose(fp);
}

/* The listed models of a fit as parsed JSON (the caller decrefs). */
static json_t *models_of(const basel_fit *f)
{
    char *text = basel_fit_to_json(f);
    json_t *doc = json_loads(text, 0, NULL);
    basel_free(text);
    json_t *m = json_incref(json_object_get(doc, "models"));
    json_decref(doc);
    return m;
}

/* a and b: the same posterior, PIPs and size to tol, and (with_ml) every
 * listed model the same with its log marginal likelihood to tol. */
static void same_posterior(const basel_fit *a, const basel_fit *b, double tol, int with_ml, const char *what)
{
    size_t m1, m2, k1, k2;
    const double *p1 = basel_fit_pip(a, &m1), *p2 = basel_fit_pip(b, &m2);
    CHECK(m1 == m2, "%s: %zu vs %zu atoms", what, m1, m2);
    double worst = 0;
    for (size_t j = 0; j < m1 && m1 == m2; j++) worst = fmax(worst, fabs(p1[j] - p2[j]));
    CHECK(worst <= tol, "%s: max |PIP difference| %.3g > %.3g", what, worst, tol);
    const double *s1 = basel_fit_size_posterior(a, &k1), *s2 = basel_fit_size_posterior(b, &k2);
    worst = 0;
    for (size_t k = 0; k < k1 && k1 == k2; k++) worst = fmax(worst, fabs(s1[k] - s2[k]));
    CHECK(k1 == k2 && worst <= tol, "%s: size posterior differs by %.3g", what, worst);
    json_t *ma = models_of(a), *mb = models_of(b);
    CHECK(json_array_size(ma) == json_array_size(mb) && json_array_size(ma) > 0, "%s: listed models", what);
    double ml = 0;
    int same_sets = 1;
    for (size_t i = 0; i < json_array_size(ma) && i < json_array_size(mb); i++) {
        const json_t *x = json_array_get(ma, i), *y = json_array_get(mb, i);
        same_sets &= json_equal(json_object_get(x, "atoms"), json_object_get(y, "atoms"));
        if (with_ml)
            ml = fmax(ml, fabs(json_number_value(json_object_get(x, "log_ml")) - json_number_value(json_object_get(y, "log_ml"))) /
                              fmax(1, fabs(json_number_value(json_object_get(x, "log_ml")))));
    }
    CHECK(same_sets, "%s: the listed models differ", what);
    CHECK(ml <= tol, "%s: log marginal likelihoods differ by %.3g (relative)", what, ml);
    json_decref(ma);
    json_decref(mb);
}

static void pair(const basel_data *d, const char *path, const char *const *kv, double tol, int with_ml, const char *what,
                 basel_fit **keep_stats)
{
    basel_options *o = check_options(kv);
    basel_fit *a = NULL, *b = NULL;
    basel_error err;
    CHECK(!basel_fit_run(&a, d, o, &err), "%s rows: %s", what, err.message);
    CHECK(!basel_fit_run_stats(&b, path, o, &err), "%s stats: %s", what, err.message);
    if (a && b) same_posterior(a, b, tol, with_ml, what);
    if (keep_stats) *keep_stats = b;
    else basel_fit_free(b);
    basel_fit_free(a);
    basel_options_free(o);
}

static void predictions(const basel_data *d, const char *with_means, const char *ld)
{
    const char *kv[] = {"method", "enumerate", "prior", "g:g=200", "model-prior", "uniform", NULL};
    basel_options *o = check_options(kv);
    basel_fit *a = NULL, *b = NULL, *c = NULL;
    basel_pred *pa = NULL, *pb = NULL, *pc = NULL;
    basel_error err;
    basel_fit_run(&a, d, o, &err);
    basel_fit_run_stats(&b, with_means, o, &err);
    basel_fit_run_stats(&c, ld, o, &err);
    CHECK(a && b && c, "fits for predictions");
    if (!(a && b && c)) return;
    CHECK(!basel_fit_predict(a, d, "bma", 0.95, &pa, &err) && !basel_fit_predict(b, d, "bma", 0.95, &pb, &err),
          "predict: %s", err.message);
    double worst = 0;
    for (size_t i = 0; pa && pb && i < basel_data_rows(d); i++) {
        double m1, l1, u1, m2, l2, u2;
        basel_pred_get(pa, i, 0, &m1, &l1, &u1);
        basel_pred_get(pb, i, 0, &m2, &l2, &u2);
        worst = fmax(worst, fmax(fabs(m1 - m2), fmax(fabs(l1 - l2), fabs(u1 - u2))));
    }
    CHECK(worst <= 1e-9, "predictions from statistics with means differ by %.3g", worst);
    const int rc = basel_fit_predict(c, d, "bma", 0.95, &pc, &err);
    CHECK(rc == BASEL_EINVAL && strstr(err.message, "cannot predict"), "an LD fit predicts: %d %s", rc, err.message);
    basel_pred_free(pa);
    basel_pred_free(pb);
    basel_pred_free(pc);
    basel_fit_free(a);
    basel_fit_free(b);
    basel_fit_free(c);
    basel_options_free(o);
}

/* text into a file, then the fit's error code and message */
static void refused(const char *path, const char *text, const char *const *kv, int code, const char *pattern)
{
    if (text) {
        FILE *fp = fopen(path, "w");
        fputs(text, fp);
        fclose(fp);
    }
    basel_options *o = check_options(kv);
    basel_fit *f = NULL;
    basel_error err;
    const int rc = basel_fit_run_stats(&f, path, o, &err);
    CHECK(rc == code && f == NULL && strstr(err.message, pattern), "refused (%d, '%s'): got %d '%s'", code, pattern, rc,
          err.message);
    basel_fit_free(f);
    basel_options_free(o);
}

static void bad_files(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.json", dir);
    const char *en[] = {"method", "enumerate", NULL};
    const char *head = "{\"n\": 10, \"inputs\": [\"a\", \"b\"], ";
    char text[512];
    snprintf(text, sizeof text, "%s\"xtx\": [[1, 0.5], [0.4, 1]], \"xty\": [1, 1], \"yty\": 3}", head);
    refused(path, text, en, BASEL_EINVAL, "not symmetric");
    snprintf(text, sizeof text, "%s\"xtx\": [[1, 0.5], [0.5, 1]], \"xty\": [1, 1], \"yty\": 3, \"w\": 1}", head);
    refused(path, text, en, BASEL_EINVAL, "unknown key");
    snprintf(text, sizeof text, "%s\"xtx\": [[1, 0.5], [0.5, 1]], \"xty\": [1], \"yty\": 3}", head);
    refused(path, text, en, BASEL_EINVAL, "\"xty\"");
    snprintf(text, sizeof text, "%s\"xtx\": [[1, 2], [2, 1]], \"xty\": [1, 1], \"yty\": 3}", head);
    refused(path, text, en, BASEL_EINVAL, "not a cross-product matrix");
    snprintf(text, sizeof text, "%s\"ld\": [[1, 0.5], [0.5, 2]], \"z\": [1, 1]}", head);
    refused(path, text, en, BASEL_EINVAL, "1 on its diagonal");
    snprintf(text, sizeof text, "%s\"ld\": [[1, 0.5], [0.5, 1]], \"z\": [1, 1], \"yty\": 3}", head);
    refused(path, text, en, BASEL_EINVAL, "either");
    refused(path, "{\"n\": 10,\n \"inputs\": [\"a\" \"b\"]}", en, BASEL_EPARSE, "");
    snprintf(text, sizeof text, "%s\"xtx\": [[1, 0.5], [0.5, 1]], \"xty\": [1, 1], \"yty\": 3}", head);
    const char *smc[] = {"method", "smc", NULL};
    refused(path, text, smc, BASEL_EINVAL, "needs the rows");
    const char *inputs[] = {"method", "rj", "inputs", "a", NULL};
    refused(path, text, inputs, BASEL_EINVAL, "names its inputs");
    const char *target[] = {"method", "rj", "target", "z", NULL};
    refused(path, text, target, BASEL_EINVAL, "the file's target is 'y'");
    const char *na[] = {"method", "rj", "na", "drop", NULL};
    refused(path, text, na, BASEL_EINVAL, "no rows to drop");
    const char *gauss[] = {"method", "bd", "basis", "gauss", NULL};
    refused(path, text, gauss, BASEL_EINVAL, "--basis linear");
    snprintf(path, sizeof path, "%s/absent.json", dir);
    refused(path, NULL, en, BASEL_EIO, "absent.json");
}

/* basel_data_crossprod over two blocks of rows, about the means of all
 * rows, adds up to the whole table's centred cross products (to rounding:
 * 1e-12 relative), and basel_fit_run_stats_mem on them (statistics in
 * memory, the --row-blocks path) gives the posterior of the rows and of the
 * same statistics in a file; bad arrays are refused. */
static void in_memory(const basel_data *d, const stats *s, const char *full)
{
    const size_t n = basel_data_rows(d), p = s->p, k = p + 1;
    size_t cols[16], rows[200];
    double mean[16], sum[16 * 16] = {0}, part[16 * 16];
    for (size_t j = 0; j < k; j++) cols[j] = j, mean[j] = j < p ? s->xm[j] : s->ym;
    basel_error err;
    for (size_t half = 0; half < 2; half++) { /* rows 0..69, then 70..199 */
        const size_t a = half ? 70 : 0, b = half ? n : 70;
        for (size_t i = a; i < b; i++) rows[i - a] = i;
        basel_data *blk = NULL;
        CHECK(!basel_data_subset(&blk, d, rows, b - a, &err), "subset: %s", err.message);
        CHECK(!basel_data_crossprod(blk, cols, k, mean, part, &err), "crossprod: %s", err.message);
        for (size_t i = 0; i < k * k; i++) sum[i] += part[i];
        basel_data_free(blk);
    }
    double worst = 0;
    for (size_t a = 0; a < p; a++) {
        for (size_t b = 0; b < p; b++)
            worst = fmax(worst, fabs(sum[a + b * k] - s->xtx[a + b * p]) / s->xtx[a + a * p]);
        worst = fmax(worst, fabs(sum[a + p * k] - s->xty[a]) / s->xtx[a + a * p]);
    }
    worst = fmax(worst, fabs(sum[p + p * k] - s->yty) / s->yty);
    CHECK(worst <= 1e-12, "two blocks' cross products differ from the table's by %.3g (relative)", worst);

    const char *names[15];
    for (size_t j = 0; j < p; j++) names[j] = basel_data_name(d, j);
    double xtx[15 * 15], xty[15];
    memcpy(xtx, s->xtx, sizeof xtx);
    memcpy(xty, s->xty, sizeof xty);
    basel_stats st = {"memory", n, p, names, basel_data_name(d, p), xtx, xty, s->yty, s->xm, s->ym};
    const char *const kv[] = {"method", "enumerate", "prior", "g:g=200", "model-prior", "uniform", NULL};
    basel_options *o = check_options(kv);
    basel_fit *a = NULL, *b = NULL, *c = NULL;
    CHECK(!basel_fit_run(&a, d, o, &err), "rows: %s", err.message);
    CHECK(!basel_fit_run_stats_mem(&b, &st, o, &err), "memory: %s", err.message);
    CHECK(!basel_fit_run_stats(&c, full, o, &err), "file: %s", err.message);
    if (a && b && c) {
        same_posterior(a, b, 1e-10, 1, "statistics in memory vs rows");
        same_posterior(c, b, 1e-13, 1, "statistics in memory vs the same in a file");
    }
    basel_fit_free(a);
    basel_fit_free(b);
    basel_fit_free(c);
    /* refused: not symmetric, a NaN, y'y <= 0, a name twice */
    basel_fit *f = NULL;
    xtx[1] += 1;
    int rc = basel_fit_run_stats_mem(&f, &st, o, &err);
    CHECK(rc == BASEL_EINVAL && !f && strstr(err.message, "not symmetric"), "asymmetric: %d %s", rc, err.message);
    xtx[1] = s->xtx[1];
    xty[3] = NAN;
    rc = basel_fit_run_stats_mem(&f, &st, o, &err);
    CHECK(rc == BASEL_EINVAL && !f && strstr(err.message, "not finite"), "NaN: %d %s", rc, err.message);
    xty[3] = s->xty[3];
    st.yty = 0;
    rc = basel_fit_run_stats_mem(&f, &st, o, &err);
    CHECK(rc == BASEL_EINVAL && !f && strstr(err.message, "y'y"), "yty 0: %d %s", rc, err.message);
    st.yty = s->yty;
    names[2] = names[1];
    rc = basel_fit_run_stats_mem(&f, &st, o, &err);
    CHECK(rc == BASEL_EINVAL && !f && strstr(err.message, "named twice"), "names: %d %s", rc, err.message);
    basel_options_free(o);
}

int main(void)
{
    basel_data *d = NULL;
    basel_error err;
    if (basel_data_read_csv(&d, DATA, NULL, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    stats s;
    compute(d, &s);
    char dir[] = "/tmp/basel_stats_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char full[512], bare[512], ld[512];
    snprintf(full, sizeof full, "%s/full.json", dir);
    snprintf(bare, sizeof bare, "%s/bare.json", dir);
    snprintf(ld, sizeof ld, "%s/ld.json", dir);
    write_stats(full, d, &s, 0);
    write_stats(bare, d, &s, 1);
    write_stats(ld, d, &s, 2);

    const char *en_g[] = {"method", "enumerate", "prior", "g:g=200", "model-prior", "uniform", NULL};
    pair(d, full, en_g, 1e-10, 1, "enumerate g, cross products", NULL);
    pair(d, bare, en_g, 1e-10, 1, "enumerate g, no means", NULL);
    pair(d, ld, en_g, 1e-10, 1, "enumerate g, LD and z", NULL);
    const char *en_bb[] = {"method", "enumerate", NULL};
    pair(d, ld, en_bb, 1e-10, 1, "enumerate defaults, LD and z", NULL);
    const char *en_r[] = {"method", "enumerate", "prior", "ridge:lambda=1,sigma2=1", "standardize", "yes", NULL};
    pair(d, full, en_r, 1e-10, 1, "enumerate ridge, standardised", NULL);
    const char *rj[] = {"method", "rj", "iter", "4000", "chains", "2", "seed", "5", NULL};
    pair(d, full, rj, 1e-12, 0, "rj, same seed", NULL);
    const char *bd[] = {"method", "bd", "iter", "4000", "chains", "2", "seed", "5", NULL};
    pair(d, ld, bd, 1e-12, 0, "bd, same seed, LD", NULL);
    const char *ssvs[] = {"method", "ssvs", "iter", "2000", "chains", "2", "seed", "5", NULL};
    pair(d, full, ssvs, 1e-12, 0, "ssvs, same seed", NULL);
    predictions(d, full, ld);
    in_memory(d, &s, full);
    bad_files(dir);

    remove(full);
    remove(bare);
    remove(ld);
    char path[512];
    snprintf(path, sizeof path, "%s/bad.json", dir);
    remove(path);
    rmdir(dir);
    basel_data_free(d);
    return check_report("test_stats");
}
