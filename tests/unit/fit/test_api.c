/*
 * test_api.c: the calls the R and Python front ends use (basel.h): tables
 * from memory in both layouts and with columns added, missing values in them, label columns, the
 * typed accessors of a fit, the document as text and back, the draws, a
 * classifier's predictions, and a fit that takes its table
 * (basel_fit_run_take); a .bed read for a fit, held as int8 codes.
 */
#include "check.h"

#include <basel.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 40, P = 4 };

/* Two documents the same, byte for byte; when not, where they part, so a
 * failure in CI says which field moved. */
static int same_document(const char *a, const char *b)
{
    if (!a || !b) return 0;
    size_t i = 0;
    while (a[i] && a[i] == b[i]) i++;
    if (a[i] == b[i]) return 1;
    const size_t from = i > 160 ? i - 160 : 0;
    fprintf(stderr, "documents differ at byte %zu:\n--- first\n%.240s\n--- second\n%.240s\n", i, a + from, b + from);
    return 0;
}

/* y = 1 + 2 x1 - x3 + small noise, column-major with y last */
static void design(double *cm)
{
    unsigned long u = 99;
    for (size_t i = 0; i < N; i++) {
        double x[P - 1];
        for (size_t a = 0; a < P - 1; a++) {
            u = u * 6364136223846793005UL + 1442695040888963407UL;
            x[a] = (double)(u >> 11) / 9007199254740992.0 * 2 - 1;
            cm[a * N + i] = x[a];
        }
        cm[(P - 1) * N + i] = 1 + 2 * x[0] - x[2] + 0.05 * sin(7.0 * (double)i);
    }
}

static basel_fit *fit_enumerate(const basel_data *d, const char *extra_name, const char *extra_value)
{
    basel_options *o = NULL;
    basel_error err;
    basel_options_create(&o);
    basel_options_set(o, "method", "enumerate", &err);
    /* a fixed seed: without one the fit draws it from the clock and records
     * it, so two fits a second apart differ in that field (a CI failure) */
    basel_options_set(o, "seed", "1", &err);
    if (extra_name) basel_options_set(o, extra_name, extra_value, &err);
    basel_fit *f = NULL;
    const int rc = basel_fit_run(&f, d, o, &err);
    CHECK(rc == BASEL_OK, "fit: %s", err.message);
    basel_options_free(o);
    return f;
}

/* A classifier's predictions through the accessors: the fit's classes in
 * order, probabilities that sum to 1 per row, the predicted class their
 * argmax; a regression's predictions have no classes. */
static void check_class_predictions(const basel_fit *f, const basel_data *d)
{
    basel_error err;
    basel_pred *p = NULL;
    CHECK(basel_fit_predict(f, d, NULL, 0.95, &p, &err) == BASEL_OK, "classifier predicts: %s", err.message);
    if (!p) return;
    CHECK(basel_pred_class_count(p) == 2 && basel_pred_class_name(p, 2) == NULL, "two classes");
    const char *c0 = basel_pred_class_name(p, 0), *c1 = basel_pred_class_name(p, 1);
    CHECK(c0 && c1 && ((!strcmp(c0, "up") && !strcmp(c1, "down")) || (!strcmp(c0, "down") && !strcmp(c1, "up"))),
          "class names are the labels");
    size_t bad = 0, wrong = 0;
    for (size_t i = 0; i < N; i++) {
        double p0 = -1, p1 = -1;
        size_t cls = 9;
        basel_pred_prob(p, i, 0, &p0, NULL);
        basel_pred_prob(p, i, 1, &p1, &cls);
        if (!(p0 >= 0 && p1 >= 0 && fabs(p0 + p1 - 1) < 1e-12) || cls > 1) bad++;
        if (cls != (p1 > p0 ? 1u : 0u) && p0 != p1) wrong++;
    }
    CHECK(bad == 0, "probabilities in [0, 1] summing to 1 (%zu rows not)", bad);
    CHECK(wrong == 0, "the predicted class is the more probable (%zu rows not)", wrong);
    double q;
    CHECK(basel_pred_prob(p, N, 0, &q, NULL) == BASEL_EINVAL && basel_pred_prob(p, 0, 2, &q, NULL) == BASEL_EINVAL,
          "indices out of range");
    double mean, lo, hi;
    CHECK(basel_pred_get(p, 0, 0, &mean, &lo, &hi) == BASEL_EINVAL, "no means for a classifier");
    basel_pred_free(p);
}

/* Whole contents of a file (NULL when it cannot be read). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got + 1 > cap) {
            cap = 2 * (len + got + 1);
            char *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(f);
    if (buf) buf[len] = 0;
    return buf;
}

/* bd's draws are streamed to temporary files during the run: the indexed
 * accessor reads them back, and agrees row by row with the draws CSV, which
 * is the same before and after that read. */
static void check_streamed_draws(const basel_data *d)
{
    basel_options *o = NULL;
    basel_error err;
    basel_options_create(&o);
    const char *kv[][2] = {{"method", "bd"}, {"iter", "300"}, {"chains", "2"}, {"seed", "4"}, {"keep-draws", "1"}};
    for (size_t i = 0; i < sizeof kv / sizeof *kv; i++) basel_options_set(o, kv[i][0], kv[i][1], &err);
    basel_fit *f = NULL;
    CHECK(basel_fit_run(&f, d, o, &err) == BASEL_OK, "bd with draws: %s", err.message);
    basel_options_free(o);
    if (!f) return;
    char before[] = "/tmp/basel_test_api_drawsXXXXXX", after[] = "/tmp/basel_test_api_drawsXXXXXX";
    const int fb = mkstemp(before), fa = mkstemp(after);
    CHECK(fb >= 0 && fa >= 0, "temporary files");
    CHECK(basel_fit_write_draws(f, before, &err) == BASEL_OK, "draws CSV (streamed): %s", err.message);
    const size_t nd = basel_fit_draw_count(f);
    char *csv = slurp(before), *line = csv ? strstr(csv, "\nchain,iteration,draw,size") : NULL;
    size_t rows = 0;
    for (const char *c = line ? line + 1 : ""; (c = strchr(c, '\n')) != NULL; c++) rows++;
    CHECK(nd > 100 && rows == nd + 1, "the CSV holds the header and the %zu draws: %zu lines", nd, rows);
    if (line) line = strchr(line + 1, '\n');
    size_t agree = 0, iteration = 0;
    for (size_t i = 0; i < nd && line; i++) {
        unsigned chain, last = 0;
        const size_t *atoms;
        size_t k;
        if (i) basel_fit_draw(f, i - 1, &last, &atoms, &k);
        if (basel_fit_draw(f, i, &chain, &atoms, &k) != BASEL_OK) break;
        iteration = i && chain == last ? iteration + 1 : 1; /* in the chain; the draw is i + 1 */
        char want[256];
        int len = snprintf(want, sizeof want, "\n%u,%zu,%zu,%zu", chain + 1, iteration, i + 1, k);
        for (size_t a = 0, j = 0; a < P - 1; a++) {
            const int in = j < k && atoms[j] == a;
            j += (size_t)in;
            len += snprintf(want + len, sizeof want - (size_t)len, ",%d", in);
        }
        if (strncmp(line, want, (size_t)len) == 0) agree++;
        line = strchr(line + 1, '\n');
    }
    CHECK(agree == nd, "every indexed draw is the CSV's row: %zu of %zu", agree, nd);
    CHECK(basel_fit_write_draws(f, after, &err) == BASEL_OK, "draws CSV (read back): %s", err.message);
    char *csv2 = slurp(after);
    CHECK(csv && csv2 && strcmp(csv, csv2) == 0, "the draws CSV is the same after the indexed read");
    free(csv);
    free(csv2);
    remove(before);
    remove(after);
    if (fb >= 0) close(fb);
    if (fa >= 0) close(fa);
    basel_fit_free(f);
}

/* basel_fit_run_take gives basel_fit_run's document, byte for byte, or
 * its error, where the fit's X is made in the taken table's own array:
 * the default target (last column: no column moves), the first column as
 * the target (every column moves, one cycle), inputs listed out of order,
 * two targets, --na drop (the subset's array), and errors before and
 * after the columns move. A fresh table for each call (the taken one is
 * freed by it). */
static void check_take(const double *cm, const char *const *names)
{
    static const char *const cases[][6] = {
        {NULL, NULL, NULL, NULL, NULL, NULL},
        {"target", "a", NULL, NULL, NULL, NULL},
        {"target", "b", "inputs", "y,c", NULL, NULL},
        {"target", "c,a", "inputs", "b,y", NULL, NULL},
        {"na", "drop", "target", "a", "inputs", "y,b"},
        {"target", "nosuch", NULL, NULL, NULL, NULL},
        {"target", "b", "inputs", "a,b", NULL, NULL},
        {"prior", "ridge", "method", "bd", "target", "b"},
    };
    double x[N * P];
    for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
        memcpy(x, cm, sizeof x);
        if (t == 4) x[2 * N + 9] = NAN; /* row 10 of c: left out */
        if (t == 7) x[1 * N + 3] = 1e100; /* a target beyond 1e77, refused by ridge: its value in the message */
        basel_options *o = NULL;
        basel_error e1, e2;
        basel_options_create(&o);
        basel_options_set(o, "method", "enumerate", &e1);
        basel_options_set(o, "seed", "7", &e1);
        for (size_t k = 0; k < 6 && cases[t][k]; k += 2) basel_options_set(o, cases[t][k], cases[t][k + 1], &e1);
        basel_data *d1 = NULL, *d2 = NULL;
        basel_data_from_matrix(&d1, "X", x, N, P, 1, N, names, &e1);
        basel_data_from_matrix(&d2, "X", x, N, P, 1, N, names, &e2);
        basel_fit *f1 = NULL, *f2 = NULL;
        const int rc1 = basel_fit_run(&f1, d1, o, &e1), rc2 = basel_fit_run_take(&f2, d2, o, &e2);
        char *j1 = f1 ? basel_fit_to_json(f1) : NULL, *j2 = f2 ? basel_fit_to_json(f2) : NULL;
        CHECK(rc1 == rc2 && (rc1 ? !strcmp(e1.message, e2.message) && e1.line == e2.line : j1 && j2 && !strcmp(j1, j2)),
              "case %zu: basel_fit_run_take gives basel_fit_run's %s (%d %d: %s | %s)", t, rc1 ? "error" : "document",
              rc1, rc2, rc1 ? e1.message : "", rc2 ? e2.message : "");
        CHECK((t < 5) == (rc1 == BASEL_OK), "case %zu fits (or fails) as meant: %s", t, rc1 ? e1.message : "");
        basel_free(j1);
        basel_free(j2);
        basel_fit_free(f1);
        basel_fit_free(f2);
        basel_data_free(d1);
        basel_options_free(o);
    }
}

/* A .bed set of genotypes with no missing one, read for a fit
 * (basel_data_read: int8 codes, io.h), n = 100, p = 3000 (2.4 MB of
 * doubles, over twice --gram-memory 1: held compactly to the design, as
 * 2-bit codes since they are 0..2): the same document from basel_fit_run
 * (the codes copied), from basel_fit_run_take (taken) and from the same
 * numbers as a table of doubles (packed after the copy), and it says
 * "2-bit". */
static void check_bed_codes(void)
{
    enum { BN = 100, BP = 3000, BLOCK = (BN + 3) / 4 };
    char dir[] = "/tmp/test_api_bedXXXXXX", path[64];
    if (!mkdtemp(dir)) return;
    static unsigned char bed[3 + BP * BLOCK];
    static double cm[BN * (BP + 1)];
    const char **names = malloc((BP + 1) * sizeof *names);
    char *name_text = malloc((BP + 1) * 16);
    unsigned long u = 7;
    bed[0] = 0x6c, bed[1] = 0x1b, bed[2] = 0x01;
    for (size_t j = 0; j < BP; j++)
        for (size_t i = 0; i < BN; i++) {
            u = u * 6364136223846793005UL + 1442695040888963407UL;
            const unsigned g = (unsigned)(u >> 33) % 3, pair = g == 2 ? 0 : g == 1 ? 2 : 3; /* A1 counts 2, 1, 0 */
            bed[3 + j * BLOCK + i / 4] |= (unsigned char)(pair << (2 * (i % 4)));
            cm[j * BN + i] = g;
        }
    snprintf(path, sizeof path, "%s/g.bed", dir);
    FILE *f = fopen(path, "wb");
    fwrite(bed, 1, sizeof bed, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/g.bim", dir);
    f = fopen(path, "w");
    for (size_t j = 0; j < BP; j++) {
        snprintf(name_text + 16 * j, 16, "v%zu", j + 1);
        names[j] = name_text + 16 * j;
        fprintf(f, "1 v%zu 0 %zu A G\n", j + 1, j + 1);
    }
    fclose(f);
    names[BP] = "phenotype";
    snprintf(path, sizeof path, "%s/g.fam", dir);
    f = fopen(path, "w");
    for (size_t i = 0; i < BN; i++) {
        cm[BP * BN + i] = cm[10 * BN + i] - cm[2000 * BN + i] + 0.25 * sin(3.0 * (double)i);
        fprintf(f, "f%zu s%zu 0 0 1 %.17g\n", i, i, cm[BP * BN + i]);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/g.bed", dir);
    basel_options *o = NULL;
    basel_error err;
    basel_options_create(&o);
    basel_options_set(o, "method", "rj", &err);
    basel_options_set(o, "iter", "300", &err);
    basel_options_set(o, "seed", "2", &err);
    basel_options_set(o, "gram-memory", "1", &err);
    basel_data *d1 = NULL, *d2 = NULL, *d3 = NULL;
    basel_fit *f1 = NULL, *f2 = NULL, *f3 = NULL;
    CHECK(basel_data_read(&d1, path, NULL, o, &err) == BASEL_OK &&
              basel_data_read(&d2, path, NULL, o, &err) == BASEL_OK,
          "read the .bed: %s", err.message);
    CHECK(basel_data_from_matrix(&d3, "G", cm, BN, BP + 1, 1, BN, names, &err) == BASEL_OK, "doubles: %s",
          err.message);
    CHECK(d1 && basel_data_value(d1, 7, 2000) == cm[2000 * BN + 7], "a code read back as its number");
    CHECK(basel_fit_run(&f1, d1, o, &err) == BASEL_OK, "fit (codes copied): %s", err.message);
    CHECK(basel_fit_run_take(&f2, d2, o, &err) == BASEL_OK, "fit (codes taken): %s", err.message);
    CHECK(basel_fit_run_take(&f3, d3, o, &err) == BASEL_OK, "fit (doubles): %s", err.message);
    char *j1 = f1 ? basel_fit_to_json(f1) : NULL, *j2 = f2 ? basel_fit_to_json(f2) : NULL;
    char *j3 = f3 ? basel_fit_to_json(f3) : NULL;
    CHECK(j1 && j2 && j3 && !strcmp(j1, j2) && !strcmp(j1, j3) && strstr(j1, "\"inputs\": \"2-bit\""),
          "codes copied, codes taken and doubles: one document, inputs 2-bit");
    basel_free(j1);
    basel_free(j2);
    basel_free(j3);
    basel_fit_free(f1);
    basel_fit_free(f2);
    basel_fit_free(f3);
    basel_data_free(d1);
    basel_options_free(o);
    free(names);
    free(name_text);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* A front end's logical: "true" and "false" are a switch's 1 and 0 and
 * standardize's yes and no; for a count the word stays, to be refused. */
static void check_logical_words(void)
{
    basel_options *o = NULL;
    basel_error err;
    CHECK(basel_options_create(&o) == BASEL_OK, "options");
    CHECK(basel_options_set(o, "keep-draws", "true", &err) == BASEL_OK && !strcmp(basel_options_get(o, "keep-draws"), "1"),
          "keep-draws true is 1");
    CHECK(basel_options_set(o, "shuffle", "false", &err) == BASEL_OK && !strcmp(basel_options_get(o, "shuffle"), "0"),
          "shuffle false is 0");
    CHECK(basel_options_set(o, "standardize", "true", &err) == BASEL_OK &&
              !strcmp(basel_options_get(o, "standardize"), "yes"), "standardize true is yes");
    CHECK(basel_options_set(o, "chains", "true", &err) == BASEL_OK && !strcmp(basel_options_get(o, "chains"), "true"),
          "chains true stays a word");
    basel_options_free(o);
}

int main(void)
{
    double cm[N * P], rm[N * P];
    check_logical_words();
    design(cm);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < P; j++) rm[i * P + j] = cm[j * N + i];
    const char *names[P] = {"a", "b", "c", "y"};
    basel_error err;
    basel_data *dc = NULL, *dr = NULL;
    CHECK(basel_data_from_matrix(&dc, "X", cm, N, P, 1, N, names, &err) == BASEL_OK, "column-major: %s", err.message);
    CHECK(basel_data_from_matrix(&dr, "X", rm, N, P, P, 1, names, &err) == BASEL_OK, "row-major: %s", err.message);
    CHECK(basel_data_rows(dc) == N && basel_data_cols(dc) == P && !strcmp(basel_data_name(dc, 3), "y"), "shape and names");
    check_streamed_draws(dc);
    check_take(cm, names);
    check_bed_codes();
    CHECK(basel_data_value(dr, 7, 2) == cm[2 * N + 7], "row-major values land in place");

    /* the two layouts give the same fit, byte for byte */
    basel_fit *fc = fit_enumerate(dc, NULL, NULL), *fr = fit_enumerate(dr, NULL, NULL);
    char *jc = fc ? basel_fit_to_json(fc) : NULL, *jr = fr ? basel_fit_to_json(fr) : NULL;
    CHECK(same_document(jc, jr), "both layouts give the same document");

    /* the inputs as one matrix, the target as a strided column added apart */
    basel_data *dx = NULL;
    CHECK(basel_data_from_matrix(&dx, "X", rm, N, P - 1, P, 1, names, &err) == BASEL_OK, "inputs: %s", err.message);
    CHECK(basel_data_add_column(dx, "a", rm + P - 1, P, &err) == BASEL_EINVAL && strstr(err.message, "twice"),
          "an added column's name must be new");
    CHECK(basel_data_add_column(dx, "y", rm + P - 1, P, &err) == BASEL_OK && basel_data_cols(dx) == P &&
              basel_data_value(dx, 5, P - 1) == cm[(P - 1) * N + 5],
          "added column: %s", err.message);
    basel_fit *fx = fit_enumerate(dx, NULL, NULL);
    char *jx = fx ? basel_fit_to_json(fx) : NULL;
    CHECK(same_document(jx, jc), "a target added as a column gives the same document");
    basel_free(jx);
    basel_fit_free(fx);
    basel_data_free(dx);

    /* which methods take a column of text as one grouped input */
    CHECK(basel_method_groups_factors("enumerate", NULL) && basel_method_groups_factors("bd", "linear") &&
              basel_method_groups_factors("rj", NULL),
          "the linear subset engines group a factor's indicators");
    CHECK(!basel_method_groups_factors("bd", "gauss") && !basel_method_groups_factors("ssvs", NULL) &&
              !basel_method_groups_factors("mixture", NULL) && !basel_method_groups_factors("nosuch", NULL),
          "kernel bases, ssvs, mixture and unknown methods do not");

    /* accessors */
    if (fc) {
        CHECK(!strcmp(basel_fit_method(fc), "enumerate"), "method");
        CHECK(basel_fit_atom_count(fc) == 3 && !strcmp(basel_fit_atom_name(fc, 2), "c"), "atoms");
        CHECK(basel_fit_input_count(fc) == 3 && !strcmp(basel_fit_input_name(fc, 0), "a"), "inputs");
        size_t m, len, k;
        const double *pip = basel_fit_pip(fc, &m);
        CHECK(m == 3 && pip[0] > 0.99 && pip[2] > 0.99 && pip[1] < 0.5, "pips: a and c in, b out (%g %g %g)", pip[0],
              pip[1], pip[2]);
        const double *size = basel_fit_size_posterior(fc, &len);
        double total = 0;
        for (size_t i = 0; i < len; i++) total += size[i];
        CHECK(len == 4 && fabs(total - 1) < 1e-12, "size posterior sums to 1 over k = 0..3");
        const size_t *med = basel_fit_selected(fc, "median", &k);
        CHECK(k == 2 && med[0] == 0 && med[1] == 2, "median model {a, c}");
        CHECK(basel_fit_selected(fc, "nonsense", &k) == NULL && k == 0, "unknown selection: NULL");
        CHECK(basel_fit_draw_count(fc) == 0, "enumerate keeps no draws");
        basel_pred *p = NULL;
        double q;
        CHECK(basel_fit_predict(fc, dc, NULL, 0.95, &p, &err) == BASEL_OK, "predict: %s", err.message);
        CHECK(p && basel_pred_class_count(p) == 0 && basel_pred_class_name(p, 0) == NULL &&
                  basel_pred_prob(p, 0, 0, &q, NULL) == BASEL_EINVAL,
              "a regression's predictions have no classes");
        basel_pred_free(p);
    }
    /* the document as text and back */
    basel_fit *back = NULL;
    CHECK(jc && basel_fit_from_json(&back, "mem", jc, strlen(jc), &err) == BASEL_OK, "from_json: %s", err.message);
    char *jb = back ? basel_fit_to_json(back) : NULL;
    CHECK(same_document(jb, jc), "to_json(from_json(text)) == text");
    basel_fit *broken = NULL;
    CHECK(basel_fit_from_json(&broken, "mem", "{\"a\":", 5, &err) == BASEL_EPARSE && err.line == 1 && !broken,
          "bad JSON: EPARSE with a line");

    /* missing values: NaN is missing; --na drop leaves the row out */
    cm[1 * N + 5] = NAN;
    basel_data *dm = NULL;
    basel_data_from_matrix(&dm, "X", cm, N, P, 1, N, names, &err);
    basel_options *o = NULL;
    basel_options_create(&o);
    basel_options_set(o, "method", "enumerate", &err);
    basel_fit *fm = NULL;
    CHECK(basel_fit_run(&fm, dm, o, &err) == BASEL_EINVAL && err.line == 6 && strstr(err.message, "missing"),
          "a NaN is a missing value, named by row (line %zu: %s)", err.line, err.message);
    basel_options_free(o);
    basel_fit *fd = fit_enumerate(dm, "na", "drop");
    CHECK(fd != NULL, "--na drop fits");
    basel_fit_free(fd);
    /* predict: the row with a missing input keeps its place with NaN, the
     * other rows are predicted exactly as in the complete table */
    basel_pred *pm = NULL, *pc = NULL;
    CHECK(fc && basel_fit_predict(fc, dm, NULL, 0.9, &pm, &err) == BASEL_OK, "predict with a NaN: %s", err.message);
    CHECK(fc && basel_fit_predict(fc, dc, NULL, 0.9, &pc, &err) == BASEL_OK, "predict: %s", err.message);
    if (pm && pc) {
        size_t row = 99, line = 99, same = 0;
        const char *col = NULL;
        CHECK(basel_pred_missing(pm, &row, &line, &col) == 1 && row == 5 && line == 6 && col && !strcmp(col, "b"),
              "one row without a prediction: row 5, line 6, column b (%zu %zu %s)", row, line, col ? col : "-");
        CHECK(basel_pred_missing(pc, &row, NULL, NULL) == 0 && basel_pred_rows(pm) == N, "none in the complete table");
        for (size_t i = 0; i < N; i++) {
            double m1, l1, u1, m2, l2, u2;
            basel_pred_get(pm, i, 0, &m1, &l1, &u1);
            basel_pred_get(pc, i, 0, &m2, &l2, &u2);
            same += i == 5 ? isnan(m1) && isnan(l1) && isnan(u1) : m1 == m2 && l1 == l2 && u1 == u2;
        }
        CHECK(same == N, "NaN on row 5, the complete rows unchanged (%zu of %d rows right)", same, (int)N);
    }
    basel_pred_free(pm);
    basel_pred_free(pc);
    cm[1 * N + 5] = INFINITY;
    basel_data *di = NULL;
    basel_data_from_matrix(&di, "X", cm, N, P, 1, N, names, &err);
    o = NULL;
    basel_options_create(&o);
    basel_options_set(o, "na", "drop", &err);
    CHECK(basel_fit_run(&fm, di, o, &err) == BASEL_EPARSE && strstr(err.message, "finite"), "an infinity is refused: %s",
          err.message);
    basel_options_free(o);
    const char *dup[P] = {"a", "a", "c", "y"};
    basel_data *dd = NULL;
    CHECK(basel_data_from_matrix(&dd, "X", cm, N, P, 1, N, dup, &err) == BASEL_EINVAL && strstr(err.message, "twice"),
          "a name used twice is refused");

    /* labels: a classifier's target from memory, with draws */
    design(cm);
    const char *labels[N];
    for (size_t i = 0; i < N; i++) labels[i] = rm[i * P] > 0 ? "up" : "down";
    basel_data *dl = NULL;
    basel_data_from_matrix(&dl, "X", cm, N, P - 1, 1, N, names, &err);
    CHECK(basel_data_add_labels(dl, "class", labels, &err) == BASEL_OK, "labels: %s", err.message);
    CHECK(basel_data_add_labels(dl, "other", labels, &err) == BASEL_EINVAL, "a second label column is refused");
    o = NULL;
    basel_options_create(&o);
    const char *kv[][2] = {{"method", "mixture"}, {"target", "class"}, {"iter", "200"}, {"burn", "50"},
                           {"chains", "2"},       {"seed", "3"},       {"keep-draws", "1"}};
    for (size_t i = 0; i < sizeof kv / sizeof *kv; i++) basel_options_set(o, kv[i][0], kv[i][1], &err);
    CHECK(!strcmp(basel_options_label_column(o), "class"), "the mixture reads its target as labels");
    basel_fit *fl = NULL;
    CHECK(basel_fit_run(&fl, dl, o, &err) == BASEL_OK, "mixture from memory: %s", err.message);
    if (fl) {
        const size_t nd = basel_fit_draw_count(fl);
        unsigned chain = 9;
        const size_t *atoms;
        size_t k;
        CHECK(nd == 2 * 200 / 10, "draws kept: %zu", nd);
        CHECK(basel_fit_draw(fl, nd - 1, &chain, &atoms, &k) == BASEL_OK && chain == 1 && k <= 3, "last draw from chain 2");
        CHECK(basel_fit_draw(fl, nd, &chain, &atoms, &k) == BASEL_EINVAL, "draw out of range");
        check_class_predictions(fl, dl);
    }
    basel_options_free(o);
    basel_fit_free(fl);
    basel_data_free(dl);
    basel_data_free(dd);
    basel_data_free(di);
    basel_data_free(dm);
    basel_free(jc);
    basel_free(jr);
    basel_free(jb);
    basel_fit_free(back);
    basel_fit_free(fc);
    basel_fit_free(fr);
    basel_data_free(dc);
    basel_data_free(dr);
    return check_report("test_api");
}
