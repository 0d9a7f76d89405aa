/* problem.c: targets, inputs and standardisation from a table (problem.h). */
#include "fit.h"
#include "../basis/basis.h"
#include "../model/design.h"
#include "../prior/coef_prior.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

void bsl_problem_drop_inputs(bsl_problem *pb)
{
    if (pb->blocks) pb->blocks->release(pb->blocks->ctx); /* held elsewhere: those processes are done */
    free(pb->X);
    free(pb->X32);
    free(pb->X8);
    free(pb->X2);
    pb->X = NULL;
    pb->X32 = NULL;
    pb->X8 = NULL;
    pb->X2 = NULL;
}

void bsl_problem_free(bsl_problem *pb)
{
    if (!pb) return;
    free(pb->input_names);
    free(pb->target_names);
    free(pb->X);
    free(pb->X32);
    free(pb->X8);
    free(pb->X2);
    free(pb->Y);
    free(pb->cls);
    for (size_t i = 0; i < pb->nclass; i++) free(pb->class_names[i]);
    free(pb->class_names);
    free(pb->x_mean);
    free(pb->x_scale);
    free(pb->column_ids);
    basel_data_free(pb->owned);
    free(pb->y_scale);
    for (size_t f = 0; f < pb->nfactors; f++) {
        for (size_t l = 0; l < pb->factors[f].nlevels; l++) free(pb->factors[f].levels[l]);
        free(pb->factors[f].levels);
    }
    free(pb->factors);
    free(pb->group_start);
    free(pb->group_names);
    for (size_t j = 0; pb->level_names && j < pb->d; j++) free(pb->level_names[j]);
    free(pb->level_names);
    bsl_stats_free(pb->stats);
    free(pb->stats);
    for (size_t i = 0; pb->owned_names && pb->owned_names[i]; i++) free(pb->owned_names[i]);
    free(pb->owned_names);
    memset(pb, 0, sizeof *pb);
}

int bsl_split_names(const char *list, int (*fn)(const char *name, void *user), void *user)
{
    char buf[256];
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len >= sizeof buf) len = sizeof buf - 1;
        memcpy(buf, p, len);
        buf[len] = 0;
        int rc = fn(buf, user);
        if (rc) return rc;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

typedef struct picker {
    const basel_data *data;
    long *cols;
    size_t n;
    const char *what;
    basel_error *err;
} picker;

/* What to tell a user whose column name is not in the header: the column
 * that differs only in case, or (for a narrow table) every name. */
static void header_hint(const basel_data *data, const char *name, char *hint, size_t size)
{
    hint[0] = 0;
    for (size_t j = 0; j < data->p; j++)
        if (strcasecmp(data->names[j], name) == 0) {
            snprintf(hint, size, " (did you mean '%s'? names are case-sensitive)", data->names[j]);
            return;
        }
    const char *near = basel_suggest(name, (const char *const *)data->names, data->p);
    if (near) {
        snprintf(hint, size, " (did you mean '%s'?)", near);
        return;
    }
    enum { LIST_UP_TO = 12 };
    if (data->p > LIST_UP_TO) return;
    size_t used = (size_t)snprintf(hint, size, "; the columns are");
    for (size_t j = 0; j < data->p && used < size; j++)
        used += (size_t)snprintf(hint + used, size - used, "%s '%s'", j ? "," : "", data->names[j]);
}

static int pick_one(const char *name, void *user)
{
    picker *pk = user;
    long j = basel_data_find(pk->data, name);
    if (j < 0) {
        char hint[512];
        header_hint(pk->data, name, hint, sizeof hint);
        return bsl_fail_at(pk->err, BASEL_EINVAL, pk->data->source, 1, 0, "%s column '%s' is not in the header%s",
                           pk->what, name, hint);
    }
    for (size_t i = 0; i < pk->n; i++)
        if (pk->cols[i] == j)
            return bsl_fail(pk->err, BASEL_EINVAL, "%s column '%s' is named twice", pk->what, name);
    pk->cols[pk->n++] = j;
    return 0;
}

/* Column indices of the targets and inputs. */
static int choose_columns(const basel_data *data, const bsl_params *user, long *tcols, size_t *nt,
                          long *icols, size_t *ni, basel_error *err)
{
    picker pt = {data, tcols, 0, "target", err};
    const char *t = bsl_params_get(user, "target");
    int rc = 0;
    if (t && *t)
        rc = bsl_split_names(t, pick_one, &pt);
    else
        tcols[pt.n++] = (long)data->p - 1;
    if (rc) return rc;
    *nt = pt.n;
    picker pi = {data, icols, 0, "input", err};
    const char *in = bsl_params_get(user, "inputs");
    if (in && *in) {
        if ((rc = bsl_split_names(in, pick_one, &pi))) return rc;
        for (size_t a = 0; a < pi.n; a++)
            for (size_t b = 0; b < pt.n; b++)
                if (icols[a] == tcols[b])
                    return bsl_fail(err, BASEL_EINVAL, "column '%s' is both a target and an input",
                                    data->names[icols[a]]);
    } else {
        for (size_t j = 0; j < data->p; j++) {
            int is_target = 0;
            for (size_t b = 0; b < pt.n; b++) is_target |= tcols[b] == (long)j;
            if (!is_target) icols[pi.n++] = (long)j;
        }
    }
    *ni = pi.n;
    if (*ni == 0) return bsl_fail(err, BASEL_EINVAL, "no input columns: the table has only the target");
    return BASEL_OK;
}

static int class_index(bsl_problem *pb, const char *label)
{
    for (size_t k = 0; k < pb->nclass; k++)
        if (strcmp(pb->class_names[k], label) == 0) return (int)k;
    char **grown = realloc(pb->class_names, (pb->nclass + 1) * sizeof *grown);
    if (!grown) return -2;
    pb->class_names = grown;
    if (!(grown[pb->nclass] = bsl_strdup(label))) return -2;
    return (int)pb->nclass++;
}

/* Whether a label is a number, into *v. */
static int label_number(const char *lab, double *v)
{
    char *end;
    *v = strtod(lab, &end);
    return end != lab && *end == 0;
}

/* --family binomial: one target of 0/1 numbers or of two levels (text, read
 * as labels: basel_options_label_column), into Y (0/1; the second level in
 * sorted order is 1, as R's glm) and the class names, for p_<level> in
 * predictions. Anything else is an error naming the row's line. */
static int load_binomial(bsl_problem *pb, const basel_data *data, const long *tcols, basel_error *err)
{
    const size_t n = data->n;
    const long col = tcols[0];
    const char *name = data->names[col];
    if (pb->c != 1) return bsl_fail(err, BASEL_EINVAL, "--family binomial takes one target column (%zu given)", pb->c);
    pb->Y = bsl_malloc(n, sizeof *pb->Y);
    pb->class_names = bsl_calloc(2, sizeof *pb->class_names);
    if (!pb->Y || !pb->class_names) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const int labels = data->label_col == col;
    int numeric = 1;
    for (size_t i = 0; i < n && labels; i++) {
        double v;
        if (!*data->labels[i])
            return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                               "target column '%s' is empty in this row (--family binomial needs every row's class)",
                               name);
        numeric &= label_number(data->labels[i], &v);
    }
    const char *lv[2] = {NULL, NULL};
    for (size_t i = 0; i < n; i++) {
        double v = labels ? 0 : bsl_data_at(data, i, (size_t)col);
        const char *lab = labels ? data->labels[i] : NULL;
        if (numeric && labels) label_number(lab, &v);
        if (numeric && v != 0.0 && v != 1.0)
            return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                               "target column '%s': %g is not 0 or 1 (--family binomial needs a 0/1 target or one "
                               "of two text levels)",
                               name, v);
        if (numeric) {
            pb->Y[i] = v;
            continue;
        }
        if (lv[0] && strcmp(lab, lv[0]) && lv[1] && strcmp(lab, lv[1]))
            return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                               "target column '%s': a third level '%s' (after '%s' and '%s'): --family binomial "
                               "needs two (--family multinomial takes three or more)",
                               name, lab, lv[0], lv[1]);
        if (!lv[0]) lv[0] = lab;
        else if (strcmp(lab, lv[0]) && !lv[1]) lv[1] = lab;
    }
    if (!numeric) {
        if (!lv[1])
            return bsl_fail(err, BASEL_EINVAL, "target column '%s' is constant ('%s' in every row)", name, lv[0]);
        if (strcmp(lv[0], lv[1]) > 0) {
            const char *t = lv[0];
            lv[0] = lv[1];
            lv[1] = t;
        }
        for (size_t i = 0; i < n; i++) pb->Y[i] = strcmp(data->labels[i], lv[1]) == 0;
    }
    pb->nclass = 2;
    pb->class_names[0] = bsl_strdup(numeric ? "0" : lv[0]);
    pb->class_names[1] = bsl_strdup(numeric ? "1" : lv[1]);
    if (!pb->class_names[0] || !pb->class_names[1]) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    double lo = pb->Y[0], hi = lo;
    for (size_t i = 1; i < n; i++) lo = fmin(lo, pb->Y[i]), hi = fmax(hi, pb->Y[i]);
    if (lo == hi) return bsl_fail(err, BASEL_EINVAL, "target column '%s' is constant (%g in every row)", name, lo);
    return BASEL_OK;
}

/* Levels in sorted order (an insertion sort: C is small): numerically
 * when every level is a number (so that 2 < 10), else by strcmp. */
static int level_before(const char *x, const char *y, int numeric)
{
    double u, v;
    if (numeric && label_number(x, &u) && label_number(y, &v)) return u < v;
    return strcmp(x, y) < 0;
}

static void sort_levels(char **lv, size_t n, int numeric)
{
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0 && level_before(lv[b], lv[b - 1], numeric); b--) {
            char *t = lv[b];
            lv[b] = lv[b - 1];
            lv[b - 1] = t;
        }
}

/* --family multinomial: one target of three or more levels (a text column
 * read as labels, or whole numbers), into Y (the level's number 0 .. C - 1
 * in sorted order; level 0 is the model's reference class, as the first
 * level is R's in glm and nnet::multinom) and the class names. Two levels
 * are refused (that is --family binomial), as are empty targets, naming
 * the row's line. */
static int load_multinomial(bsl_problem *pb, const basel_data *data, const long *tcols, basel_error *err)
{
    const size_t n = data->n;
    const long col = tcols[0];
    const char *name = data->names[col];
    if (pb->c != 1) return bsl_fail(err, BASEL_EINVAL, "--family multinomial takes one target column (%zu given)", pb->c);
    if (data->label_col != col) /* numbers: whole ones only */
        for (size_t i = 0; i < n; i++) {
            const double v = bsl_data_at(data, i, (size_t)col);
            if (!(v == floor(v) && fabs(v) < 1e9))
                return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                                   "target column '%s': %g is not a class (--family multinomial needs text levels or "
                                   "whole numbers)",
                                   name, v);
        }
    char **lab = bsl_calloc(n + 1, sizeof *lab);
    if (!(pb->Y = bsl_malloc(n, sizeof *pb->Y)) || !lab) {
        free(lab);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    int rc = BASEL_OK, numeric = 1;
    for (size_t i = 0; i < n && !rc; i++) {
        char buf[32];
        if (data->label_col != col) snprintf(buf, sizeof buf, "%.0f", bsl_data_at(data, i, (size_t)col));
        const char *s = data->label_col == col ? data->labels[i] : buf;
        double v;
        if (!*s)
            rc = bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                             "target column '%s' is empty in this row (--family multinomial needs every row's class)",
                             name);
        else if (class_index(pb, s) == -2 || !(lab[i] = bsl_strdup(s)))
            rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        else
            numeric &= label_number(s, &v);
    }
    if (!rc && pb->nclass < 3)
        rc = bsl_fail(err, BASEL_EINVAL,
                      "target column '%s' has %zu level%s: --family multinomial needs three or more (--family binomial "
                      "for two)",
                      name, pb->nclass, pb->nclass == 1 ? "" : "s");
    if (!rc) {
        sort_levels(pb->class_names, pb->nclass, numeric);
        for (size_t i = 0; i < n; i++) pb->Y[i] = (double)class_index(pb, lab[i]);
    }
    for (size_t i = 0; i < n; i++) free(lab[i]);
    free(lab);
    return rc;
}

/* --family poisson: one target of counts (whole numbers >= 0, below 2^31),
 * not all equal. */
static int load_counts(bsl_problem *pb, const basel_data *data, const long *tcols, basel_error *err)
{
    const size_t n = data->n;
    const char *name = data->names[tcols[0]];
    if (pb->c != 1) return bsl_fail(err, BASEL_EINVAL, "--family poisson takes one target column (%zu given)", pb->c);
    int rc = bsl_data_check_numeric(data, (size_t)tcols[0], "target", err);
    if (rc) return rc;
    if (!(pb->Y = bsl_malloc(n, sizeof *pb->Y))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const double *y = pb->Y;
    for (size_t i = 0; i < n; i++) pb->Y[i] = bsl_data_at(data, i, (size_t)tcols[0]);
    int varies = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(y[i] >= 0 && y[i] < 2147483648.0 && y[i] == floor(y[i])))
            return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[i], 0,
                               "target column '%s': %g is not a count (--family poisson needs whole numbers >= 0)",
                               name, y[i]);
        varies |= y[i] != y[0];
    }
    if (!varies) return bsl_fail(err, BASEL_EINVAL, "target column '%s' is constant (%g in every row)", name, y[0]);
    return BASEL_OK;
}

static int load_targets(bsl_problem *pb, const basel_data *data, const long *tcols, const bsl_params *settings,
                        basel_error *err)
{
    const size_t n = data->n;
    if (bsl_family_binomial(settings)) return load_binomial(pb, data, tcols, err);
    if (bsl_family_poisson(settings)) return load_counts(pb, data, tcols, err);
    if (bsl_family_multinomial(settings)) return load_multinomial(pb, data, tcols, err);
    if (pb->engine->target == BSL_TARGET_LABELS) {
        if (pb->c != 1) return bsl_fail(err, BASEL_EINVAL, "--method %s takes one class column", pb->engine->name);
        if (data->label_col != tcols[0])
            return bsl_fail(err, BASEL_EINVAL,
                            "--method %s reads its target '%s' as class labels: read the data with that label "
                            "column (basel_options_label_column)",
                            pb->engine->name, data->names[tcols[0]]);
        pb->cls = bsl_malloc(n, sizeof *pb->cls);
        if (!pb->cls) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
            const char *lab = data->labels[i];
            pb->cls[i] = *lab ? class_index(pb, lab) : -1;
            if (pb->cls[i] == -2) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        }
        if (pb->nclass < 2)
            return bsl_fail(err, BASEL_EINVAL, "class column '%s' has %zu class%s: need at least 2",
                            data->names[tcols[0]], pb->nclass, pb->nclass == 1 ? "" : "es");
        return BASEL_OK;
    }
    pb->Y = bsl_malloc(n * pb->c, sizeof *pb->Y);
    if (!pb->Y) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t o = 0; o < pb->c; o++) {
        int rc = bsl_data_check_numeric(data, (size_t)tcols[o], "target", err);
        if (rc) return rc;
        for (size_t i = 0; i < n; i++) pb->Y[o * n + i] = bsl_data_at(data, i, (size_t)tcols[o]);
        double lo = pb->Y[o * n], hi = lo;
        for (size_t i = 1; i < n; i++) lo = fmin(lo, pb->Y[o * n + i]), hi = fmax(hi, pb->Y[o * n + i]);
        if (lo == hi)
            return bsl_fail(err, BASEL_EINVAL, "target column '%s' is constant (%g in every row)",
                            pb->target_names[o], lo);
    }
    return BASEL_OK;
}

/* The largest |x[i]| and its row. */
static double max_abs(const double *x, size_t n, size_t *at)
{
    double M = 0;
    *at = 0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i]) > M) M = fabs(x[i]), *at = i;
    return M;
}

/* Each engine's table says whether it standardises by default: the mixture
 * classifier's priors assume inputs on a unit scale; linear atoms keep their
 * units (PIPs do not depend on them), kernel widths are given in the data's
 * units, and 1-D families rescale their interval themselves. A column of
 * extreme values is first divided by a power of two (exact), so its sum
 * and sum of squares cannot overflow; ordinary columns are computed as
 * they always were. */
static int standardize(bsl_problem *pb, const basel_data *data, const long *icols, basel_error *err)
{
    const size_t n = pb->n;
    for (size_t j = 0; j < pb->d; j++) {
        double *x = pb->X + j * n;
        size_t at;
        const double M = max_abs(x, n, &at);
        const double s0 = M > BSL_EXTREME ? ldexp(1.0, ilogb(M)) : 1.0;
        double mu = 0, ss = 0;
        for (size_t i = 0; i < n; i++) mu += x[i] / s0;
        mu /= (double)n;
        for (size_t i = 0; i < n; i++) ss += (x[i] / s0 - mu) * (x[i] / s0 - mu);
        const double sd = sqrt(ss / (double)(n - 1));
        pb->x_mean[j] = mu * s0;
        pb->x_scale[j] = sd > 0 ? sd * s0 : 1.0;
        if (!isfinite(pb->x_scale[j]))
            return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[at], 0,
                               "input column '%s': %g: the column's standard deviation is beyond the largest "
                               "double: rescale the column",
                               pb->input_names[j], x[at]);
        for (size_t i = 0; i < n; i++) x[i] = sd > 0 ? (x[i] / s0 - mu) / sd : x[i] / s0 - mu;
    }
    return BASEL_OK;
}

/* Whether the run's posterior does not depend on the units of the targets
 * (nor of linear atoms): the engine says so, and the coefficient prior's
 * table entry (scale_free: g, aic, bic, mdl; not ridge's and hier's fixed
 * sigma2, lambda or delta2, nor ssvs's tau, which are in the data's units,
 * so rescaling would change the model). */
static int is_scale_free(const bsl_engine_def *e, const bsl_params *settings)
{
    const char *prior = bsl_params_get(settings, "prior");
    if (!e->scale_free || !prior) return 0;
    char name[32];
    const size_t len = strcspn(prior, ":");
    if (len >= sizeof name) return 0;
    memcpy(name, prior, len);
    name[len] = 0;
    const bsl_coef_prior_type *t = bsl_coef_prior_type_find(name);
    return t && t->scale_free;
}

/* --standardize auto: yes for a gauss basis whose widths basel picks (no r,
 * or r=auto: the grid is then in standard deviations, basis.h), no for
 * every other basis (a width given in the data's units keeps them; linear
 * atoms and 1-D families do not depend on the inputs' scale). */
static int auto_standardizes(const bsl_params *settings)
{
    /* the GLM's normal prior is on the standardised inputs (glm.h) */
    if (bsl_family_binomial(settings) || bsl_family_poisson(settings) || bsl_family_multinomial(settings)) return 1;
    const char *basis = bsl_params_get(settings, "basis");
    if (!basis || strncmp(basis, "gauss", 5) != 0 || (basis[5] != 0 && basis[5] != ':')) return 0;
    const char *r = strstr(basis, "r=");
    while (r && r > basis && r[-1] != ':' && r[-1] != ',') r = strstr(r + 2, "r=");
    return !r || strncmp(r + 2, "auto", 4) == 0;
}

/* Whether the inputs are standardised (--standardize yes, or auto and
 * auto_standardizes). */
static int standardizes(const bsl_params *settings)
{
    const char *s = bsl_params_get(settings, "standardize");
    return s && (strcmp(s, "yes") == 0 || (strcmp(s, "auto") == 0 && auto_standardizes(settings)));
}

/* value: the cell itself, from X or Y (the table's numbers may be gone:
 * bsl_problem_build_take) */
static int refuse_extreme(const bsl_problem *pb, const basel_data *data, const char *what, long col, size_t at,
                          double value, const bsl_params *settings, basel_error *err)
{
    const char *prior = bsl_params_get(settings, "prior");
    char free_of_units[256];
    return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[at], 0,
                       "%s column '%s': %g is beyond 1e77 in magnitude, too large for --method %s%s%s (its model "
                       "is in the data's units): rescale the column, or use --method %s with "
                       "--prior g, aic, bic or mdl, which rescale it themselves",
                       what, data->names[col], value, pb->engine->name,
                       prior ? " --prior " : "", prior ? prior : "",
                       bsl_engine_list(free_of_units, sizeof free_of_units, "scale-free", "or"));
}

/* Extreme but finite values (beyond 2^256 or, for a rescalable column, below
 * 2^-256 in magnitude): divided by a power of two, which is exact and leaves
 * the posterior unchanged where the model does not depend on the column's
 * units (is_scale_free); refused, naming the column and row, where it does.
 * The targets' factors go into FIT.json (standardize.target_scale) and
 * predictions are multiplied back; an input's factor is its
 * standardize.scale, which predict already divides by. */
static int rescale_extremes(bsl_problem *pb, const basel_data *data, const long *tcols, const long *icols,
                            const bsl_params *settings, basel_error *err)
{
    const size_t n = pb->n;
    const int free_units = is_scale_free(pb->engine, settings);
    const char *basis = bsl_params_get(settings, "basis");
    const int linear = basis && strncmp(basis, "linear", 6) == 0 && (basis[6] == 0 || basis[6] == ':');
    for (size_t o = 0; o < pb->c && pb->Y; o++) {
        double *y = pb->Y + o * n;
        size_t at;
        const double M = max_abs(y, n, &at);
        const int extreme = M > BSL_EXTREME || (M > 0 && M < 1 / BSL_EXTREME);
        if (extreme && free_units) {
            pb->y_scale[o] = ldexp(1.0, ilogb(M));
            for (size_t i = 0; i < n; i++) y[i] /= pb->y_scale[o];
        } else if (M > BSL_EXTREME) {
            return refuse_extreme(pb, data, "target", tcols[o], at, y[at], settings, err);
        }
    }
    if (!pb->X) return BASEL_OK; /* X8: whole numbers within +-127, neither tiny nor extreme */
    for (size_t j = 0; j < pb->d; j++) { /* tiny inputs: refused, whatever the method */
        size_t at;
        const double M = max_abs(pb->X + j * n, n, &at);
        /* its scale would be below what a fit records (BSL_SCALE_MIN), and a
         * coefficient per unit of it, and its spread, beyond the largest
         * double (subnormal values: "out of memory" from the coefficient
         * table, once) */
        if (M > 0 && ldexp(1.0, ilogb(M)) < BSL_SCALE_MIN)
            return bsl_fail_at(err, BASEL_EINVAL, data->source, data->line_of_row[at], 0,
                               "input column '%s': its largest value in magnitude, %g, is below %g: too small to fit "
                               "in its units; rescale the column",
                               pb->input_names[j], pb->X[j * n + at], BSL_SCALE_MIN);
    }
    if (pb->standardized) return BASEL_OK; /* standardize() copes with any finite column */
    for (size_t j = 0; j < pb->d; j++) {
        double *x = pb->X + j * n;
        size_t at;
        const double M = max_abs(x, n, &at);
        const int extreme = M > BSL_EXTREME || (M > 0 && M < 1 / BSL_EXTREME);
        if (extreme && free_units && linear) {
            pb->x_scale[j] = ldexp(1.0, ilogb(M));
            for (size_t i = 0; i < n; i++) x[i] /= pb->x_scale[j];
        } else if (M > BSL_EXTREME) {
            return refuse_extreme(pb, data, "input", basel_data_find(data, pb->input_names[j]), at, x[at], settings,
                                  err);
        }
    }
    return BASEL_OK;
}

/* A column's bytes hashed (FNV-1a's step on 64-bit words, not bytes: one
 * dependent multiply per value instead of eight, at p = 10^5 a pass over
 * 800 MB): equal columns hash equal, which is all it is for (the pair
 * reported does not depend on the hash). */
static unsigned long long column_hash(const double *x, size_t n)
{
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        uint64_t w;
        memcpy(&w, x + i, sizeof w);
        h = (h ^ w) * 1099511628211ULL;
        h ^= h >> 32; /* a product mixes low bits upwards only: 0/1/2 genotypes differ in their high bits */
    }
    return h;
}

/* A second hash of a column, of another kind (an add and a multiply by
 * the golden ratio's 64 bits), for a column block's identities. */
static uint64_t column_hash2(const double *x, size_t n)
{
    uint64_t h = 0x243f6a8885a308d3ULL;
    for (size_t i = 0; i < n; i++) {
        uint64_t w;
        memcpy(&w, x + i, sizeof w);
        h = (h + w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    return h;
}

typedef struct col_key {
    unsigned long long hash;
    size_t j;
} col_key;

static int cmp_col_key(const void *a, const void *b)
{
    const col_key *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

static int check_columns(const bsl_problem *pb, int linear, double *scratch, basel_error *err);

/* Input j as n doubles: X's column, or X8's (column-major until
 * compact_inputs packs it) widened into scratch. */
static const double *input_column(const bsl_problem *pb, size_t j, double *scratch)
{
    if (pb->X) return pb->X + j * pb->n;
    for (size_t i = 0; i < pb->n; i++) scratch[i] = (double)pb->X8[j * pb->n + i];
    return scratch;
}

/* Variable selection cannot tell apart a constant input (it is the
 * intercept) or two identical inputs: say so instead of returning a PIP
 * that means nothing. Identical columns are found by hashing them and
 * comparing only columns of equal hash: O(n d + d log d), where comparing
 * every pair was O(d^2) (minutes at d = 10^5). The pair reported is the
 * one the pairwise scan met first: the smallest j with an earlier copy l,
 * and the first such l. */
static int check_inputs(const bsl_problem *pb, const bsl_params *settings, basel_error *err)
{
    const size_t n = pb->n;
    const char *basis = bsl_params_get(settings, "basis");
    const int linear = basis && strncmp(basis, "linear", 6) == 0;
    double *scratch = pb->X ? NULL : bsl_malloc(2 * n, sizeof *scratch);
    if (!pb->X && !scratch) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    int rc = check_columns(pb, linear, scratch, err);
    free(scratch);
    return rc;
}

/* check_inputs's work; scratch: 2 n doubles when the inputs are in X8 */
static int check_columns(const bsl_problem *pb, int linear, double *scratch, basel_error *err)
{
    const size_t n = pb->n, d = pb->d;
    for (size_t j = 0; j < d; j++) {
        const double *x = input_column(pb, j, scratch);
        int constant = 1;
        for (size_t i = 1; i < n && constant; i++) constant = x[i] == x[0];
        if (constant && (linear || pb->engine->target == BSL_TARGET_LABELS))
            return bsl_fail(err, BASEL_EINVAL,
                            "input column '%s' is constant (%g in every row): drop it with --inputs",
                            pb->input_names[j], x[0]);
    }
    for (size_t j = 0; pb->column_ids && j < d; j++) { /* identical inputs across blocks: rank 0's check */
        const double *x = input_column(pb, j, scratch);
        pb->column_ids[2 * j] = column_hash(x, n);
        pb->column_ids[2 * j + 1] = column_hash2(x, n);
    }
    if (!linear || d < 2) return BASEL_OK;
    col_key *key = malloc(d * sizeof *key);
    if (!key) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < d; j++) /* a block's first ids are these hashes: not computed twice */
        key[j] = (col_key){pb->column_ids ? pb->column_ids[2 * j] : column_hash(input_column(pb, j, scratch), n), j};
    qsort(key, d, sizeof *key, cmp_col_key);
    size_t best_j = d, best_l = d;
    for (size_t a = 0; a < d;) { /* a run of equal hashes, in index order */
        size_t b = a + 1;
        while (b < d && key[b].hash == key[a].hash) b++;
        for (size_t u = a + 1; u < b; u++)
            for (size_t v = a; v < u; v++)
                if (key[u].j < best_j && memcmp(input_column(pb, key[u].j, scratch),
                                                input_column(pb, key[v].j, scratch ? scratch + n : NULL),
                                                n * sizeof(double)) == 0) {
                    best_j = key[u].j;
                    best_l = key[v].j;
                    break;
                }
        a = b;
    }
    free(key);
    if (best_j < d)
        return bsl_fail(err, BASEL_EINVAL, "input columns '%s' and '%s' are identical: keep one with --inputs",
                        pb->input_names[best_l], pb->input_names[best_j]);
    return BASEL_OK;
}

/* Missing values (an empty cell or NA) in the columns used: an error naming
 * the first and counting the rows --na drop would leave out, or (drop) the
 * complete rows as a new table that the problem owns. A cell that is
 * present but not a number is an error either way. */
static int handle_missing(bsl_problem *pb, const basel_data **data, const long *tcols, size_t nt,
                          const long *icols, size_t ni, const bsl_params *user, basel_error *err)
{
    const basel_data *d = *data;
    const char *na = bsl_params_get(user, "na");
    const int drop = na && strcmp(na, "drop") == 0;
    size_t *keep = bsl_malloc(d->n + 1, sizeof *keep), nkeep = 0, first = d->n, first_col = 0;
    if (!keep) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    int rc = BASEL_OK;
    for (size_t c = 0; c < nt + ni && !rc; c++) {
        const size_t j = (size_t)(c < nt ? tcols[c] : icols[c - nt]);
        if ((long)j != d->label_col && !(c >= nt && bsl_data_has_text(d, j)))
            rc = bsl_data_check_present(d, j, c < nt ? "target" : "input", err);
    }
    /* column by column, as the table is stored: row by row, each cell was a
     * cache miss (4.4 of 43 CPU-s at n = 1000, p = 10^5). The first missing
     * cell is the row-by-row scan's: the lowest row, and in it the first
     * column in the columns' order (a later column only takes a lower row). */
    unsigned char *gap = rc ? NULL : bsl_calloc(d->n + 1, 1);
    if (!rc && !gap) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t c = 0; c < nt + ni && !rc; c++) {
        const size_t j = (size_t)(c < nt ? tcols[c] : icols[c - nt]);
        if ((long)j == d->label_col || j < d->ncodes) continue; /* codes are never missing */
        const double *v = bsl_data_col(d, j);
        for (size_t i = 0; i < d->n; i++)
            if (isnan(v[i]) && bsl_data_is_missing(d, i, j)) { /* a missing cell is a NaN: a call per NaN only */
                gap[i] = 1;
                if (i < first) first = i, first_col = j;
            }
    }
    for (size_t i = 0; i < d->n && !rc; i++)
        if (!gap[i]) keep[nkeep++] = i;
    free(gap);
    if (!rc && nkeep < d->n && !drop)
        rc = bsl_fail_at(err, BASEL_EINVAL, d->source, d->line_of_row[first], bsl_data_cell_column(d, first, first_col),
                         "column '%s': the value is missing; %zu of %zu rows have a missing value in the columns "
                         "used (--na drop leaves them out)",
                         d->names[first_col], d->n - nkeep, d->n);
    if (!rc && nkeep < d->n) {
        basel_data *sub = NULL;
        if (nkeep < 3)
            rc = bsl_fail_at(err, BASEL_EINVAL, d->source, 0, 0, "--na drop leaves %zu complete rows: too few", nkeep);
        else if (!(rc = basel_data_subset(&sub, d, keep, nkeep, err))) {
            pb->rows_dropped = d->n - nkeep;
            pb->rows_kept_id = bsl_fnv1a(BSL_FNV1A, keep, nkeep * sizeof *keep);
            basel_data_free(pb->owned); /* a table given to the problem (d): the subset replaces it */
            pb->owned = sub;
            *data = sub;
        }
    }
    free(keep);
    return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The sorted distinct levels of text column j (every row is present:
 * missing rows were refused or dropped before). */
static int factor_levels(bsl_factor *f, const basel_data *data, size_t j, basel_error *err)
{
    const size_t n = data->n;
    char **all = bsl_malloc(n, sizeof *all), buf[32];
    char *tmp = bsl_malloc(n, 32);
    if (!all || !tmp) {
        free(all);
        free(tmp);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const char *t = bsl_data_cell_text(data, i, j, buf, sizeof buf);
        if (t == buf) { /* a printed number: kept beyond the next cell */
            memcpy(tmp + 32 * i, buf, sizeof buf);
            t = tmp + 32 * i;
        }
        all[i] = (char *)(t ? t : "");
    }
    qsort(all, n, sizeof *all, cmp_str);
    size_t nl = 0;
    for (size_t i = 0; i < n; i++) nl += i == 0 || strcmp(all[i], all[i - 1]) != 0;
    int rc = BASEL_OK;
    if (nl < 2 || nl > BSL_MAX_LEVELS)
        rc = bsl_fail_at(err, BASEL_EINVAL, data->source, 1, 0,
                         "input column '%s' holds text, so it is read as a categorical input, but it has %zu "
                         "level%s: need 2 to %d (drop it with --inputs)",
                         data->names[j], nl, nl == 1 ? "" : "s", BSL_MAX_LEVELS);
    if (!rc && !(f->levels = bsl_calloc(nl, sizeof *f->levels))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t i = 0; i < n && !rc; i++)
        if (i == 0 || strcmp(all[i], all[i - 1]) != 0) {
            if (!(f->levels[f->nlevels] = bsl_strdup(all[i]))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
            else f->nlevels++;
        }
    free(all);
    free(tmp);
    return rc;
}

/* A column of text is a categorical input where the method groups factors
 * (basel_method_groups_factors, the one rule); elsewhere it is refused. */
static int factor_allowed(const bsl_problem *pb, const basel_data *data, long col, const bsl_params *settings,
                          basel_error *err)
{
    const char *name = pb->engine->name, *basis = bsl_params_get(settings, "basis");
    if (basis && basel_method_groups_factors(name, basis)) return BASEL_OK;
    char group[256];
    return bsl_fail_at(err, BASEL_EINVAL, data->source, data->bad[col].line, data->bad[col].column,
                       "input column '%s' holds text ('%s'), a categorical input: only --method %s "
                       "with --basis linear select its levels as one group (this fit is --method %s%s%s)",
                       data->names[col], data->bad[col].text, bsl_engine_list(group, sizeof group, "factors", "or"),
                       name, basis ? " --basis " : "", basis ? basis : "");
}

/* The inputs' columns of X: a numeric input is one column, a factor one
 * indicator per level but its reference; the groups and names to match. */
static int layout_inputs(bsl_problem *pb, const basel_data *data, const long *icols, size_t ni,
                         const bsl_params *settings, basel_error *err)
{
    size_t nf = 0, d = 0;
    for (size_t j = 0; j < ni; j++) nf += (size_t)bsl_data_has_text(data, (size_t)icols[j]);
    if (nf && !(pb->factors = bsl_calloc(nf, sizeof *pb->factors))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < ni; j++) {
        if (!bsl_data_has_text(data, (size_t)icols[j])) {
            d++;
            continue;
        }
        int rc = factor_allowed(pb, data, icols[j], settings, err);
        bsl_factor *f = &pb->factors[pb->nfactors++];
        f->input = data->names[icols[j]];
        if (!rc) rc = factor_levels(f, data, (size_t)icols[j], err);
        if (rc) return rc;
        f->first = d;
        d += f->nlevels - 1;
    }
    pb->d = d;
    if (!nf) return BASEL_OK;
    pb->ngroups = ni;
    pb->group_start = bsl_malloc(ni + 1, sizeof *pb->group_start);
    pb->group_names = bsl_malloc(ni, sizeof *pb->group_names);
    pb->level_names = bsl_calloc(d, sizeof *pb->level_names);
    if (!pb->group_start || !pb->group_names || !pb->level_names) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    size_t at = 0, f = 0;
    for (size_t j = 0; j < ni; j++) {
        pb->group_start[j] = at;
        pb->group_names[j] = data->names[icols[j]];
        if (f < nf && pb->factors[f].input == data->names[icols[j]]) {
            const bsl_factor *F = &pb->factors[f++];
            for (size_t l = 1; l < F->nlevels; l++, at++) {
                const size_t len = strlen(F->input) + strlen(F->levels[l]) + 2;
                if (!(pb->level_names[at] = malloc(len))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
                snprintf(pb->level_names[at], len, "%s:%s", F->input, F->levels[l]);
            }
        } else {
            at++;
        }
    }
    pb->group_start[ni] = at;
    return BASEL_OK;
}

/* Input j's columns of X: its values, or its factor's indicators. */
static int fill_input(bsl_problem *pb, const basel_data *data, long col, size_t *at, size_t *f, basel_error *err)
{
    const size_t n = pb->n;
    if (*f < pb->nfactors && pb->factors[*f].input == data->names[col]) {
        const bsl_factor *F = &pb->factors[(*f)++];
        char buf[32];
        for (size_t l = 1; l < F->nlevels; l++, (*at)++) {
            pb->input_names[*at] = pb->level_names[*at];
            for (size_t i = 0; i < n; i++) {
                const char *t = bsl_data_cell_text(data, i, (size_t)col, buf, sizeof buf);
                pb->X[*at * n + i] = t && strcmp(t, F->levels[l]) == 0 ? 1.0 : 0.0;
            }
        }
        return BASEL_OK;
    }
    pb->input_names[*at] = data->names[col];
    int rc = bsl_data_check_numeric(data, (size_t)col, "input", err);
    if (!rc && (size_t)col < data->ncodes)
        for (size_t i = 0; i < n; i++) pb->X[*at * n + i] = (double)data->codes[(size_t)col * n + i];
    else if (!rc)
        memcpy(pb->X + *at * n, bsl_data_col(data, (size_t)col), n * sizeof(double));
    (*at)++;
    return rc;
}

/* X in the owned table's own array, instead of a copy beside it: the
 * inputs' columns moved to the front in icols' order (a permutation of the
 * p columns, applied cycle by cycle through one spare column), the array
 * cut to n x d, and the table left without numbers (values NULL: nothing
 * reads them after the set-up; refuse_extreme takes its cell from X).
 * Only the bytes move, so X is what the copy would have been, bit for bit. */
static int take_columns(bsl_problem *pb, basel_data *data, const long *icols, basel_error *err)
{
    const size_t n = data->n, p = data->p, d = pb->d;
    size_t *src = bsl_malloc(p, sizeof *src);
    unsigned char *placed = bsl_calloc(p, 1);
    double *spare = NULL, *v = data->values;
    int rc = !src || !placed ? BASEL_ENOMEM : BASEL_OK;
    /* column k of the result is column src[k] of the table: the inputs,
     * then the columns left over, in any order */
    for (size_t k = 0; k < d && !rc; k++) placed[src[k] = (size_t)icols[k]] = 1;
    for (size_t j = 0, k = d; j < p && !rc; j++)
        if (!placed[j]) src[k++] = j;
    if (!rc) memset(placed, 0, p);
    for (size_t s = 0; s < p && !rc; s++) {
        if (placed[s] || src[s] == s) continue;
        if (!spare && !(spare = bsl_malloc(n, sizeof *spare))) {
            rc = BASEL_ENOMEM;
            break;
        }
        memcpy(spare, v + s * n, n * sizeof *v);
        size_t k = s;
        for (; src[k] != s; k = src[k]) {
            memcpy(v + k * n, v + src[k] * n, n * sizeof *v);
            placed[k] = 1;
        }
        memcpy(v + k * n, spare, n * sizeof *v);
        placed[k] = 1;
    }
    free(spare);
    free(src);
    free(placed);
    if (rc) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    double *X = realloc(v, n * d * sizeof *X); /* a smaller block: gives the rest back */
    pb->X = X ? X : v;
    data->values = NULL;
    return BASEL_OK;
}

static int compact_allowed(const bsl_problem *pb, const bsl_params *settings);

/* The inputs as int8 (X8, column-major; compact_inputs packs it into
 * panels) straight from the table's codes, when every input is a column
 * of codes and the fit would hold its inputs compactly anyway (compact_size:
 * the doubles are never made, so p = 10^6 genotypes of 1000 samples take
 * 1 GB, not 8). The owned table's codes are taken as they stand when the
 * inputs are all of them in order, else copied. *took 0: not so (X is
 * made). */
static int take_codes(bsl_problem *pb, const basel_data *data, const long *icols, size_t ni,
                      const bsl_params *settings, int *took, basel_error *err)
{
    *took = 0;
    if (!data->ncodes || pb->nfactors || ni != pb->d || standardizes(settings) || !compact_allowed(pb, settings))
        return BASEL_OK;
    int in_order = ni == data->ncodes;
    for (size_t j = 0; j < ni; j++) {
        if ((size_t)icols[j] >= data->ncodes) return BASEL_OK;
        in_order &= icols[j] == (long)j;
    }
    *took = 1;
    const size_t n = pb->n;
    basel_data *own = pb->owned == data ? pb->owned : NULL;
    for (size_t j = 0; j < ni; j++) pb->input_names[j] = data->names[icols[j]];
    if (own && in_order) {
        pb->X8 = own->codes;
        own->codes = NULL; /* its columns are not read after this (the targets are loaded) */
        return BASEL_OK;
    }
    if (!(pb->X8 = bsl_malloc(n, ni))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < ni; j++) memcpy(pb->X8 + j * n, data->codes + (size_t)icols[j] * n, n);
    return BASEL_OK;
}

/* The inputs into X (n x d): in the owned table's array when every input is
 * one column (no factor) held as a double, else copied, and then the owned
 * table's numbers freed; or into X8 from the table's codes (take_codes).
 * Either way the targets are read first, so that the table's columns may
 * move; the inputs' cells are checked before them, as the copy always did,
 * so the first error reported is the same. */
static int make_inputs(bsl_problem *pb, const basel_data *data, const long *tcols, const long *icols, size_t ni,
                       const bsl_params *settings, basel_error *err)
{
    basel_data *own = pb->owned == data ? pb->owned : NULL;
    int rc = BASEL_OK;
    if (data->ncodes) {
        int took = 0;
        rc = load_targets(pb, data, tcols, settings, err);
        if (!rc) rc = take_codes(pb, data, icols, ni, settings, &took, err);
        if (took || rc) return rc;
    } else if (own && !pb->nfactors) {
        for (size_t j = 0; j < ni && !rc; j++) {
            pb->input_names[j] = data->names[icols[j]];
            rc = bsl_data_check_numeric(data, (size_t)icols[j], "input", err);
        }
        if (!rc) rc = load_targets(pb, data, tcols, settings, err);
        return rc ? rc : take_columns(pb, own, icols, err);
    }
    if (!(pb->X = bsl_malloc(pb->n * pb->d, sizeof(double)))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0, at = 0, f = 0; j < ni && !rc; j++) rc = fill_input(pb, data, icols[j], &at, &f, err);
    if (!rc && !data->ncodes) rc = load_targets(pb, data, tcols, settings, err);
    if (!rc && own) {
        free(own->values);
        own->values = NULL;
        free(own->codes);
        own->codes = NULL;
    }
    return rc;
}

/* take: data is the problem's from the start (pb->owned), freed with it or
 * by a failure here. */
static int compact_inputs(bsl_problem *pb, const bsl_params *settings, basel_error *err);

static int build(bsl_problem *pb, const basel_data *data, basel_data *take, const bsl_engine_def *e,
                 const bsl_params *user, const bsl_params *settings, int block, basel_error *err)
{
    memset(pb, 0, sizeof *pb);
    pb->engine = e;
    pb->owned = take;
    pb->column_block = block;
    const size_t p = data->p;
    long *tcols = bsl_malloc(p, sizeof *tcols), *icols = bsl_malloc(p, sizeof *icols);
    int rc = (!tcols || !icols) ? bsl_fail(err, BASEL_ENOMEM, "out of memory") : BASEL_OK;
    size_t nt = 0, ni = 0;
    if (!rc) rc = choose_columns(data, user, tcols, &nt, icols, &ni, err);
    if (!rc) rc = handle_missing(pb, &data, tcols, nt, icols, ni, user, err);
    const size_t n = data->n;
    if (!rc && n < 3) rc = bsl_fail_at(err, BASEL_EINVAL, data->source, 0, 0, "%zu data rows are too few", n);
    if (!rc) {
        pb->n = n;
        pb->c = nt;
        rc = layout_inputs(pb, data, icols, ni, settings, err);
    }
    const size_t d = pb->d;
    if (!rc) {
        pb->input_names = bsl_malloc(d, sizeof(char *));
        pb->target_names = bsl_malloc(nt, sizeof(char *));
        pb->x_mean = bsl_calloc(d, sizeof(double));
        pb->x_scale = bsl_calloc(d, sizeof(double));
        pb->y_scale = bsl_calloc(nt, sizeof(double));
        if (!pb->input_names || !pb->target_names || !pb->x_mean || !pb->x_scale || !pb->y_scale)
            rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < nt && !rc; j++) pb->target_names[j] = data->names[tcols[j]];
    if (!rc) rc = make_inputs(pb, data, tcols, icols, ni, settings, err);
    if (!rc && block && !(pb->column_ids = bsl_malloc(2 * d + 1, sizeof *pb->column_ids)))
        rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!rc) rc = check_inputs(pb, settings, err);
    if (!rc) {
        pb->standardized = standardizes(settings);
        for (size_t j = 0; j < d; j++) pb->x_scale[j] = 1.0;
        for (size_t o = 0; o < nt; o++) pb->y_scale[o] = 1.0;
        rc = rescale_extremes(pb, data, tcols, icols, settings, err);
    }
    if (!rc && pb->standardized) rc = standardize(pb, data, icols, err);
    if (!rc) rc = compact_inputs(pb, settings, err);
    free(tcols);
    free(icols);
    if (rc) bsl_problem_free(pb);
    return rc;
}

/* Whether the inputs are held compactly (X then NULL): for a fit of the
 * linear basis through a design alone (the subset engines: design.h
 * bsl_design_create_f32, _i8), Gaussian, from rows,
 * when X in doubles would take more than twice the --gram-memory budget
 * (above 512 MB at the default 256 MB: at n = 1000, p above 67108). Such
 * a design streams its columns (design.c gram_dense: the Gram alone would
 * be m^2 doubles), and every Gram row reads all of X. Sizes and settings
 * decide, and then the values (compact_size), so the same data and
 * options give the same bits. */
static int compact_allowed(const bsl_problem *pb, const bsl_params *settings)
{
    const char *basis = bsl_params_get(settings, "basis"), *mb = bsl_params_get(settings, "gram-memory");
    if (!pb->engine->design_only || !mb || (basis && *basis && strcmp(basis, "linear") != 0)) return 0;
    if (bsl_family_binomial(settings) || bsl_family_poisson(settings) || bsl_family_multinomial(settings)) return 0;
    const char *rel = bsl_params_get(settings, "relevance");
    if (rel && *rel && strcmp(rel, "none") != 0) return 0;
    char *end;
    const double budget = strtod(mb, &end) * 1048576.0;
    return *end == 0 && (pb->column_block || 8.0 * (double)pb->n * (double)pb->d > 2 * budget);
}

/* As 2-bit codes (X2) when every value is a whole number 0..3 (genotype
 * counts, indicators): exact, a 32nd of the memory and bytes read. As
 * int8 (X8) when every value is a whole number within +-127: exact, an
 * eighth.
 * Else as float32 (X32): rounding each value to 24 bits (a relative change
 * below 6e-8) moves the posterior far less than its Monte Carlo error
 * (bench/scale/README.md: the PIPs at p = 10^5 against the same fit in
 * doubles); values beyond float32's normal range keep doubles. FIT.json
 * says which (diagnostics.inputs). 0: doubles, 4: float32, 1: int8, 2: 2-bit. */
static int compact_size(const bsl_problem *pb, const bsl_params *settings)
{
    if (!pb->X || !compact_allowed(pb, settings)) return 0;
    /* every value within float32's normal range (with room), or doubles:
     * beyond it a value would round to infinity or lose its digits */
    const size_t nd = pb->n * pb->d;
    int whole = 1, codes = 1;
    for (size_t i = 0; i < nd; i++) {
        const double x = pb->X[i], a = fabs(x);
        if (a > 1e30 || (a < 1e-30 && a != 0)) return 0;
        whole &= a <= 127 && a == floor(a);
        codes &= x >= 0 && x <= 3 && x == floor(x);
    }
    return codes ? 2 : whole ? 1 : 4;
}

/* In place (bsl_f32_pack, bsl_i8_pack), so that X and its compact copy
 * are never held together (at p = 10^5 that peaked at 1.17 GB); X8 taken
 * from codes (take_codes) is packed into panels in place too, or into
 * 2-bit codes (a copy of a quarter of its size, then X8 freed; from
 * doubles a copy of a 32nd). */
static int compact_inputs(bsl_problem *pb, const bsl_params *settings, basel_error *err)
{
    if (pb->X8) { /* codes: 2-bit when they are all 0..3 (genotypes), else int8 */
        const size_t nd = pb->n * pb->d;
        int codes = 1;
        for (size_t i = 0; i < nd && codes; i++) codes = pb->X8[i] >= 0 && pb->X8[i] <= 3;
        if (!codes)
            return bsl_i8_panels(pb->X8, pb->n, pb->d) ? BASEL_OK : bsl_fail(err, BASEL_ENOMEM, "out of memory");
        if (!(pb->X2 = bsl_2bit_codes(pb->X8, pb->n, pb->d))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        pb->X8 = NULL;
        return BASEL_OK;
    }
    const int size = compact_size(pb, settings);
    if (!size) return BASEL_OK;
    if (size == 2 ? !(pb->X2 = bsl_2bit_pack(pb->X, pb->n, pb->d))
        : size == 1 ? !(pb->X8 = bsl_i8_pack(pb->X, pb->n, pb->d))
                    : !(pb->X32 = bsl_f32_pack(pb->X, pb->n, pb->d)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    pb->X = NULL;
    return BASEL_OK;
}

int bsl_problem_build(bsl_problem *pb, const basel_data *data, const bsl_engine_def *e,
                      const bsl_params *user, const bsl_params *settings, basel_error *err)
{
    return build(pb, data, NULL, e, user, settings, 0, err);
}

int bsl_problem_build_take(bsl_problem *pb, basel_data *data, const bsl_engine_def *e,
                           const bsl_params *user, const bsl_params *settings, basel_error *err)
{
    return build(pb, data, data, e, user, settings, 0, err);
}

int bsl_problem_build_block(bsl_problem *pb, const basel_data *data, basel_data *take, const bsl_engine_def *e,
                            const bsl_params *user, const bsl_params *settings, basel_error *err)
{
    return build(pb, data, take, e, user, settings, 1, err);
}
