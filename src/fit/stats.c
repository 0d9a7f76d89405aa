/*
 * stats.c: a fit from summary statistics instead of rows (docs/SUMMARY_STATS.md).
 *
 * A --stats file is one JSON object in one of two forms:
 *   cross products  {"n", "inputs", ["target"], "xtx", "xty", "yty", ["x_mean", "y_mean"]}
 *   correlations    {"n", "inputs", ["target"], "ld", "z"}
 * xtx, xty and yty are CENTRED (sums over rows of deviations from the
 * column means): the intercept is always in the model under its flat prior,
 * and these are the only numbers its marginal likelihood reads
 * (design_stats.h). The means only place the intercept for predictions.
 *
 * The correlation form is susieR's susie_rss with n given: with every input
 * and the target standardised to mean 0 and variance 1 (n - 1 divisor),
 *   X'X = (n - 1) R,   X'y = (n - 1) r,   y'y = n - 1,
 * where r_j = cor(x_j, y) is recovered from the marginal z-score of the
 * simple regression of y on x_j (z_j = t_j = r_j sqrt(n - 2) / sqrt(1 - r_j^2)):
 *   r_j = z_j / sqrt(z_j^2 + n - 2)
 * (susie_rss: adj = (n - 1) / (z^2 + n - 2), z~ = sqrt(adj) z, X'y = sqrt(n - 1) z~).
 * Assumptions: R and z come from the same n rows (an out-of-sample LD
 * matrix makes the statistics inconsistent and the posterior wrong), and z
 * is the t statistic of a one-input regression with an intercept. The
 * units of x and y are then lost: such a fit cannot predict.
 */
#include "fit.h"
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int bad_key(basel_error *err, const char *path, const char *key, const char *what)
{
    return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "\"%s\": %s", key, what);
}

/* p finite numbers from o[key] into x. */
static int read_vector(const json_t *o, const char *key, size_t p, double *x, const char *path, basel_error *err)
{
    const json_t *a = json_object_get(o, key);
    if (!json_is_array(a) || json_array_size(a) != p || bsl_json_read_doubles(a, x, p))
        return bad_key(err, path, key, "expected an array of one finite number per input");
    return BASEL_OK;
}

static int check_matrix(const double *A, size_t p, const char *key, const char *path, basel_error *err);

/* The matrix of key from a .npy file named by the JSON (docs/SUMMARY_STATS.md
 * "Large p"): float64 or another numeric type, p x p, C or Fortran order;
 * a relative name is relative to the JSON file's folder. The matrix is
 * symmetric, so either order reads it. */
static int read_matrix_npy(const char *file, const char *key, size_t p, double *A, const char *path, basel_error *err)
{
    const char *slash = strrchr(path, '/');
    char *full = NULL;
    if (file[0] != '/' && slash && strcmp(path, "<stdin>")) {
        const size_t dir = (size_t)(slash - path) + 1;
        if (!(full = malloc(dir + strlen(file) + 1))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        memcpy(full, path, dir);
        strcpy(full + dir, file);
    }
    int rc = bsl_npy_read_matrix(full ? full : file, p, p, A, err);
    free(full);
    return rc ? rc : check_matrix(A, p, key, path, err);
}

/* A symmetric p x p matrix from o[key], an array of p rows (column-major
 * into A), or the name of a .npy file holding it. Symmetric to 1e-12 of
 * the larger diagonal entry: a matrix written with 17 digits from a
 * symmetric one is. */
static int read_matrix(const json_t *o, const char *key, size_t p, double *A, const char *path, basel_error *err)
{
    const json_t *a = json_object_get(o, key);
    if (json_is_string(a)) return read_matrix_npy(json_string_value(a), key, p, A, path, err);
    if (!json_is_array(a) || json_array_size(a) != p)
        return bad_key(err, path, key, "expected an array of one row per input, or the name of a .npy file");
    double *row = bsl_malloc(p, sizeof *row);
    if (!row) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    int rc = BASEL_OK;
    for (size_t i = 0; i < p && !rc; i++) {
        const json_t *r = json_array_get(a, i);
        if (!json_is_array(r) || json_array_size(r) != p || bsl_json_read_doubles(r, row, p))
            rc = bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "\"%s\" row %zu: expected %zu finite numbers", key, i + 1, p);
        for (size_t j = 0; j < p && !rc; j++) A[i + j * p] = row[j];
    }
    free(row);
    return rc ? rc : check_matrix(A, p, key, path, err);
}

/* Positive diagonal, symmetric, |a_ij| <= sqrt(a_ii a_jj): a cross-product
 * matrix (column-major A), named key in messages. */
static int check_matrix(const double *A, size_t p, const char *key, const char *path, basel_error *err)
{
    int rc = BASEL_OK;
    for (size_t i = 0; i < p && !rc; i++) {
        if (!(A[i + i * p] > 0))
            rc = bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "\"%s\"[%zu][%zu] = %g: a diagonal entry must be positive "
                             "(a constant input cannot be selected)", key, i + 1, i + 1, A[i + i * p]);
        for (size_t j = 0; j < i && !rc; j++) {
            const double tol = 1e-12 * fmax(A[i + i * p], A[j + j * p]);
            if (fabs(A[i + j * p] - A[j + i * p]) > tol)
                rc = bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "\"%s\" is not symmetric: [%zu][%zu] = %.17g but "
                                 "[%zu][%zu] = %.17g", key, i + 1, j + 1, A[i + j * p], j + 1, i + 1, A[j + i * p]);
            if (fabs(A[i + j * p]) > sqrt(A[i + i * p] * A[j + j * p]) * (1 + 1e-12))
                rc = bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "\"%s\"[%zu][%zu]: |entry| exceeds sqrt of the "
                                 "diagonal product (not a cross-product matrix)", key, i + 1, j + 1);
        }
    }
    return rc;
}

static const char *const known_keys[] = {"n", "inputs", "target", "xtx", "xty", "yty", "x_mean", "y_mean",
                                         "ld", "z", NULL};

/* Names, n and the form of the file; every key must be known. */
static int read_header(bsl_problem *pb, const json_t *o, const char *path, basel_error *err)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        int known = 0;
        for (size_t i = 0; known_keys[i]; i++) known |= !strcmp(key, known_keys[i]);
        if (!known) return bad_key(err, path, key, "unknown key (see docs/SUMMARY_STATS.md)");
    }
    const json_t *in = json_object_get(o, "inputs");
    const size_t p = json_array_size(in);
    if (!json_is_array(in) || p == 0) return bad_key(err, path, "inputs", "expected an array of input names");
    size_t n = 0;
    if (bsl_json_read_size(o, "n", 3, (size_t)1 << 52, &n)) return bad_key(err, path, "n", "expected the number of rows (an integer >= 3)");
    const json_t *t = json_object_get(o, "target");
    if (t && !json_is_string(t)) return bad_key(err, path, "target", "expected the target's name");
    const int xtx = json_object_get(o, "xtx") != NULL, ld = json_object_get(o, "ld") != NULL;
    const char *const xtx_only[] = {"xty", "yty", "x_mean", "y_mean"};
    int mixed = json_object_get(o, xtx ? "z" : "xty") != NULL;
    for (size_t i = 0; i < 4 && ld; i++) mixed |= json_object_get(o, xtx_only[i]) != NULL;
    if (xtx == ld || mixed)
        return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "give either \"xtx\", \"xty\" and \"yty\" (and the means), or "
                           "\"ld\" and \"z\"");
    pb->stats_kind = xtx ? "xtx" : "ld";
    pb->n = n;
    pb->d = p;
    pb->c = 1;
    pb->owned_names = bsl_calloc(p + 2, sizeof *pb->owned_names);
    pb->input_names = bsl_malloc(p, sizeof *pb->input_names);
    pb->target_names = bsl_malloc(1, sizeof *pb->target_names);
    if (!pb->owned_names || !pb->input_names || !pb->target_names) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < p; j++) {
        const char *name = json_string_value(json_array_get(in, j));
        if (!name || !*name) return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "\"inputs\"[%zu]: expected a name", j + 1);
        for (size_t l = 0; l < j; l++)
            if (!strcmp(pb->input_names[l], name))
                return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "input '%s' is named twice", name);
        if (!(pb->owned_names[j] = pb->input_names[j] = bsl_strdup(name))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (!(pb->owned_names[p] = pb->target_names[0] = bsl_strdup(t ? json_string_value(t) : "y")))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return BASEL_OK;
}

/* The cross-product form, as given. */
static int read_xtx(bsl_stats *S, const json_t *o, const char *path, basel_error *err)
{
    const size_t p = S->p;
    int rc = read_matrix(o, "xtx", p, S->xtx, path, err);
    if (!rc) rc = read_vector(o, "xty", p, S->xty, path, err);
    const json_t *yty = json_object_get(o, "yty");
    if (!rc && !(json_is_number(yty) && json_number_value(yty) > 0 && isfinite(json_number_value(yty))))
        rc = bad_key(err, path, "yty", "expected the centred sum of squares of the target (a positive number)");
    if (rc) return rc;
    S->yty = json_number_value(yty);
    const json_t *xm = json_object_get(o, "x_mean"), *ym = json_object_get(o, "y_mean");
    if (!xm != !ym) return bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "give both \"x_mean\" and \"y_mean\", or neither");
    if (!xm) return BASEL_OK;
    if (!json_is_number(ym) || !isfinite(json_number_value(ym))) return bad_key(err, path, "y_mean", "expected a number");
    S->y_mean = json_number_value(ym);
    if (!(S->x_mean = bsl_malloc(p, sizeof *S->x_mean))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return read_vector(o, "x_mean", p, S->x_mean, path, err);
}

/* The correlation form, turned into cross products (file comment). */
static int read_ld(bsl_stats *S, const json_t *o, const char *path, basel_error *err)
{
    const size_t p = S->p;
    const double n = (double)S->n;
    int rc = read_matrix(o, "ld", p, S->xtx, path, err);
    if (!rc) rc = read_vector(o, "z", p, S->xty, path, err);
    for (size_t j = 0; j < p && !rc; j++)
        if (fabs(S->xtx[j + j * p] - 1) > 1e-8)
            rc = bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "\"ld\"[%zu][%zu] = %.17g: a correlation matrix has 1 on "
                             "its diagonal", j + 1, j + 1, S->xtx[j + j * p]);
    if (rc) return rc;
    for (size_t j = 0; j < p * p; j++) S->xtx[j] *= n - 1;
    for (size_t j = 0; j < p; j++) {
        const double z = S->xty[j];
        S->xty[j] = (n - 1) * z / sqrt(z * z + n - 2); /* (n - 1) r_j */
    }
    S->yty = n - 1;
    return BASEL_OK;
}

/* --standardize yes: the inputs divided by their standard deviations
 * (n - 1 divisor), as problem.c's standardize() does to rows. */
static void standardize_stats(bsl_problem *pb)
{
    bsl_stats *S = pb->stats;
    const size_t p = S->p;
    for (size_t j = 0; j < p; j++) pb->x_scale[j] = sqrt(S->xtx[j + j * p] / (double)(S->n - 1));
    for (size_t j = 0; j < p; j++) {
        for (size_t i = 0; i < p; i++) S->xtx[i + j * p] /= pb->x_scale[i] * pb->x_scale[j];
        S->xty[j] /= pb->x_scale[j];
        if (S->x_mean) pb->x_mean[j] = S->x_mean[j], S->x_mean[j] = 0; /* a standardised input has mean 0 */
    }
}

static int check_options(const bsl_engine_def *e, const bsl_params *user, const bsl_params *settings,
                         const char *path, basel_error *err)
{
    if (!e->design_only) {
        char list[256] = "";
        size_t used = 0;
        for (size_t i = 0; i < bsl_engine_count() && used < sizeof list; i++)
            if (bsl_engine_at(i)->design_only)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", bsl_engine_at(i)->name);
        return bsl_fail(err, BASEL_EINVAL, "--stats: --method %s needs the rows; summary statistics serve --method %s",
                        e->name, list);
    }
    const char *basis = bsl_params_get(settings, "basis");
    if (!basis || strcmp(basis, "linear"))
        return bsl_fail(err, BASEL_EINVAL, "--stats: --basis %s needs the rows; summary statistics serve --basis linear",
                        basis ? basis : "?");
    const char *na = bsl_params_get(user, "na");
    if (na && *na && strcmp(na, "error"))
        return bsl_fail(err, BASEL_EINVAL, "--na %s: summary statistics have no rows to drop", na);
    (void)path;
    return BASEL_OK;
}

/* --target and --inputs: the file names its columns; a fit's recorded
 * settings (which name them) refit it, any other choice is refused. */
static int check_names(const bsl_problem *pb, const bsl_params *user, basel_error *err)
{
    const char *t = bsl_params_get(user, "target"), *in = bsl_params_get(user, "inputs");
    if (t && *t && strcmp(t, pb->target_names[0]))
        return bsl_fail_at(err, BASEL_EINVAL, pb->stats_source, 0, 0, "--target %s: the file's target is '%s' (a --stats "
                           "file names its inputs and target itself)", t, pb->target_names[0]);
    if (!in || !*in) return BASEL_OK;
    const char *p = in;
    for (size_t j = 0; j < pb->d; j++) {
        const size_t len = strlen(pb->input_names[j]);
        const int match = !strncmp(p, pb->input_names[j], len) && (p[len] == (j + 1 < pb->d ? ',' : 0));
        if (!match)
            return bsl_fail_at(err, BASEL_EINVAL, pb->stats_source, 0, 0, "--inputs: a --stats file names its inputs and "
                               "target itself (give all of them, in its order, or none)");
        p += len + (j + 1 < pb->d);
    }
    return BASEL_OK;
}

static int finish_load(bsl_problem *pb, const bsl_params *settings);

/* pb's names, n and p, and its statistics allocated (x_mean when has_mean). */
static int alloc_stats(bsl_problem *pb, int has_mean, basel_error *err)
{
    const size_t p = pb->d;
    pb->stats = calloc(1, sizeof *pb->stats);
    pb->x_mean = bsl_calloc(p, sizeof(double));
    pb->x_scale = bsl_malloc(p, sizeof(double));
    pb->y_scale = bsl_malloc(1, sizeof(double));
    if (pb->stats) {
        pb->stats->n = pb->n;
        pb->stats->p = p;
        pb->stats->xtx = bsl_malloc(p * p, sizeof(double));
        pb->stats->xty = bsl_malloc(p, sizeof(double));
        if (has_mean) pb->stats->x_mean = bsl_malloc(p, sizeof(double));
    }
    if (!pb->stats || !pb->x_mean || !pb->x_scale || !pb->y_scale || !pb->stats->xtx || !pb->stats->xty ||
        (has_mean && !pb->stats->x_mean))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return BASEL_OK;
}

static int load(bsl_problem *pb, const char *file, basel_error *err)
{
    json_error_t je;
    json_t *o = strcmp(file, "-") ? json_load_file(file, JSON_REJECT_DUPLICATES, &je)
                                  : json_loadf(stdin, JSON_REJECT_DUPLICATES, &je);
    const char *path = pb->stats_source; /* the name messages use */
    if (!o)
        return bsl_fail_at(err, je.line == -1 || strstr(je.text, "unable to open") ? BASEL_EIO : BASEL_EPARSE, path,
                           je.line > 0 ? (size_t)je.line : 0, je.column > 0 ? (size_t)je.column : 0, "%s", je.text);
    int rc = json_is_object(o) ? read_header(pb, o, path, err)
                               : bsl_fail_at(err, BASEL_EINVAL, path, 1, 1, "expected one JSON object");
    if (!rc) rc = alloc_stats(pb, 0, err); /* read_xtx allocates the means it finds */
    if (!rc) rc = !strcmp(pb->stats_kind, "xtx") ? read_xtx(pb->stats, o, path, err) : read_ld(pb->stats, o, path, err);
    json_decref(o);
    return rc;
}

/* The scales and standardisation of statistics read into pb->stats. */
static int finish_load(bsl_problem *pb, const bsl_params *settings)
{
    const size_t p = pb->d;
    pb->y_scale[0] = 1.0;
    for (size_t j = 0; j < p; j++) pb->x_scale[j] = 1.0;
    /* pb->x_mean is what predict subtracts (FIT.json standardize.mean): 0
     * unless the inputs are standardised; the means themselves place the
     * intercept through the design (design_stats.h) */
    const char *s = bsl_params_get(settings, "standardize");
    pb->standardized = s && !strcmp(s, "yes");
    if (pb->standardized) standardize_stats(pb);
    return BASEL_OK;
}

json_t *bsl_stats_json(const bsl_problem *pb)
{
    json_t *o = json_object();
    int bad = 0;
    bsl_json_put(o, "kind", json_string(pb->stats_kind), &bad);
    bsl_json_put(o, "file", json_string(pb->stats_source), &bad);
    /* whether the fit can predict: the means (and so the units) are known */
    bsl_json_put(o, "means", json_boolean(pb->stats->x_mean != NULL), &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

/* No --method: the rows' rule (bsl_default_method, as basel_fit_run) with
 * the p of the statistics, so that the same data get the same sampler
 * whether given as rows or as statistics. o is replaced by chosen. */
static int default_method(const basel_options **o, basel_options *chosen, size_t p, basel_error *err)
{
    if (bsl_params_get(&(*o)->p, "method")) return BASEL_OK;
    *chosen = **o;
    if (bsl_params_set(&chosen->p, "method", bsl_default_method(&(*o)->p, p)))
        return bsl_fail(err, BASEL_EINVAL, "too many options");
    *o = chosen;
    return BASEL_OK;
}

/* Statistics in memory (basel_fit_run_stats_mem): the checks of a file's
 * cross-product form, on the arrays. */
static int from_memory(bsl_problem *pb, const basel_stats *st, const bsl_params *settings, basel_error *err)
{
    const size_t p = st->p;
    const char *src = pb->stats_source;
    if (st->n < 3 || p == 0 || !st->inputs || !st->xtx || !st->xty)
        return bsl_fail_at(err, BASEL_EINVAL, src, 0, 0, "expected n >= 3 rows, p >= 1 named inputs, X'X and X'y");
    pb->stats_kind = "xtx";
    pb->n = st->n;
    pb->d = p;
    pb->c = 1;
    pb->owned_names = bsl_calloc(p + 2, sizeof *pb->owned_names);
    pb->input_names = bsl_malloc(p, sizeof *pb->input_names);
    pb->target_names = bsl_malloc(1, sizeof *pb->target_names);
    if (!pb->owned_names || !pb->input_names || !pb->target_names) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < p; j++) {
        const char *name = st->inputs[j];
        if (!name || !*name) return bsl_fail_at(err, BASEL_EINVAL, src, 0, 0, "input %zu has no name", j + 1);
        for (size_t l = 0; l < j; l++)
            if (!strcmp(pb->input_names[l], name))
                return bsl_fail_at(err, BASEL_EINVAL, src, 0, 0, "input '%s' is named twice", name);
        if (!(pb->owned_names[j] = pb->input_names[j] = bsl_strdup(name))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (!(pb->owned_names[p] = pb->target_names[0] = bsl_strdup(st->target ? st->target : "y")))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    int rc = alloc_stats(pb, st->x_mean != NULL, err);
    if (rc) return rc;
    bsl_stats *S = pb->stats;
    memcpy(S->xtx, st->xtx, p * p * sizeof *S->xtx);
    memcpy(S->xty, st->xty, p * sizeof *S->xty);
    for (size_t j = 0; j < p * p && !rc; j++)
        if (!isfinite(S->xtx[j])) rc = bsl_fail_at(err, BASEL_EINVAL, src, 0, 0, "X'X holds a value that is not finite");
    for (size_t j = 0; j < p && !rc; j++)
        if (!isfinite(S->xty[j]) || (st->x_mean && !isfinite(st->x_mean[j])))
            rc = bsl_fail_at(err, BASEL_EINVAL, src, 0, 0, "X'y or the means hold a value that is not finite");
    if (!rc && !(st->yty > 0 && isfinite(st->yty)))
        rc = bsl_fail_at(err, BASEL_EINVAL, src, 0, 0, "y'y = %g: expected a positive number", st->yty);
    if (!rc && st->x_mean && !isfinite(st->y_mean))
        rc = bsl_fail_at(err, BASEL_EINVAL, src, 0, 0, "the target's mean is not finite");
    if (!rc) rc = check_matrix(S->xtx, p, "xtx", src, err);
    if (rc) return rc;
    S->yty = st->yty;
    S->y_mean = st->x_mean ? st->y_mean : 0;
    if (st->x_mean) memcpy(S->x_mean, st->x_mean, p * sizeof *S->x_mean);
    return finish_load(pb, settings);
}

int basel_fit_run_stats_mem(basel_fit **out, const basel_stats *st, const basel_options *o, basel_error *err)
{
    *out = NULL;
    bsl_error_clear(err);
    const bsl_engine_def *e;
    bsl_params settings;
    int keep_draws;
    size_t threads;
    basel_options chosen;
    int rc = default_method(&o, &chosen, st->p, err);
    if (!rc) rc = bsl_fit_prepare(o, &e, &settings, &keep_draws, &threads, err);
    if (rc) return rc;
    bsl_problem P;
    memset(&P, 0, sizeof P);
    P.engine = e;
    P.stats_source = st->source ? st->source : "<memory>";
    rc = check_options(e, &o->p, &settings, P.stats_source, err);
    if (!rc) rc = from_memory(&P, st, &settings, err);
    if (!rc) rc = check_names(&P, &o->p, err);
    if (rc) {
        bsl_problem_free(&P);
        return rc;
    }
    return bsl_fit_problem(out, o, &settings, &P, keep_draws, threads, err);
}

int basel_fit_run_stats(basel_fit **out, const char *path, const basel_options *o, basel_error *err)
{
    *out = NULL;
    bsl_error_clear(err);
    const bsl_engine_def *e;
    bsl_params settings;
    int keep_draws;
    size_t threads;
    /* the options are checked before the file is read, with the method
     * known then; once p is known, again with the method for that p */
    int rc = bsl_fit_prepare(o, &e, &settings, &keep_draws, &threads, err);
    if (rc) return rc;
    bsl_problem P;
    memset(&P, 0, sizeof P);
    P.engine = e;
    P.stats_source = strcmp(path, "-") ? path : "<stdin>";
    basel_options chosen;
    rc = check_options(e, &o->p, &settings, path, err);
    if (!rc) rc = load(&P, path, err);
    if (!rc && !bsl_params_get(&o->p, "method")) {
        rc = default_method(&o, &chosen, P.d, err);
        if (!rc) rc = bsl_fit_prepare(o, &e, &settings, &keep_draws, &threads, err);
        if (!rc) rc = check_options(P.engine = e, &o->p, &settings, path, err);
    }
    if (!rc) rc = finish_load(&P, &settings);
    if (!rc) rc = check_names(&P, &o->p, err);
    if (rc) {
        bsl_problem_free(&P);
        return rc;
    }
    return bsl_fit_problem(out, o, &settings, &P, keep_draws, threads, err);
}
