/*
 * basel_r.c: the R front end's bridge to libbasel (include/basel.h only).
 *
 * Every entry point returns either its result or, when the library fails, a
 * list of class "basel_c_error" (code, status, file, line, column, message,
 * interrupted) that R/errors.R turns into an R condition: no R error is
 * raised while a library call is on the stack, so nothing longjmps through
 * C frames that own memory. A fit lives in an external pointer whose
 * finaliser frees it; the R object also keeps the fit's JSON text, so a
 * saved and reloaded object is rebuilt from the text (r_fit_from_json).
 */
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>
#include <R_ext/Utils.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basel.h"

/* GSL's reference CBLAS is linked in statically (configure: the basel
 * command's cblas_* calls bind to libgslcblas, so the package must use the
 * same code to give the same numbers). Its error handler prints to stderr,
 * which a shared object cannot take from a non-PIC archive; the library
 * validates dimensions before every BLAS call, so this one is never
 * reached, and does nothing. */
__attribute__((visibility("hidden"))) void cblas_xerbla(int p, const char *rout, const char *form, ...);
void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)p;
    (void)rout;
    (void)form;
}

static SEXP error_value(const basel_error *err, int interrupted)
{
    const char *names[] = {"code", "status", "file", "line", "column", "message", "interrupted", ""};
    SEXP v = PROTECT(Rf_mkNamed(VECSXP, names));
    SET_VECTOR_ELT(v, 0, Rf_ScalarInteger(err->code));
    SET_VECTOR_ELT(v, 1, Rf_mkString(basel_status_str(err->code)));
    SET_VECTOR_ELT(v, 2, Rf_mkString(err->file));
    SET_VECTOR_ELT(v, 3, Rf_ScalarReal((double)err->line));
    SET_VECTOR_ELT(v, 4, Rf_ScalarReal((double)err->column));
    SET_VECTOR_ELT(v, 5, Rf_mkString(err->message));
    SET_VECTOR_ELT(v, 6, Rf_ScalarLogical(interrupted));
    Rf_setAttrib(v, R_ClassSymbol, Rf_mkString("basel_c_error"));
    UNPROTECT(1);
    return v;
}

static SEXP simple_error(int code, const char *message)
{
    basel_error err;
    memset(&err, 0, sizeof err);
    err.code = code;
    snprintf(err.message, sizeof err.message, "%s", message);
    return error_value(&err, 0);
}

static void fit_finalize(SEXP ptr)
{
    basel_fit *f = R_ExternalPtrAddr(ptr);
    basel_fit_free(f);
    R_ClearExternalPtr(ptr);
}

static SEXP wrap_fit(basel_fit *f)
{
    SEXP ptr = PROTECT(R_MakeExternalPtr(f, Rf_install("basel_fit"), R_NilValue));
    R_RegisterCFinalizerEx(ptr, fit_finalize, TRUE);
    UNPROTECT(1);
    return ptr;
}

static const basel_fit *fit_of(SEXP ptr)
{
    if (TYPEOF(ptr) != EXTPTRSXP || !R_ExternalPtrAddr(ptr)) return NULL;
    return R_ExternalPtrAddr(ptr);
}

/* A table from a numeric matrix (column-major) and its column names, plus
 * texts: R_NilValue or a named list of character vectors, each appended as
 * a categorical input (NA = missing). NULL with *err filled on failure. */
static basel_data *table_of(SEXP x, SEXP names, SEXP texts, const char *source, basel_error *err)
{
    const size_t n = (size_t)Rf_nrows(x), p = (size_t)Rf_ncols(x);
    const char **nm = (const char **)R_alloc(p ? p : 1, sizeof *nm);
    for (size_t j = 0; j < p; j++) nm[j] = CHAR(STRING_ELT(names, (R_xlen_t)j));
    basel_data *d = NULL;
    if (basel_data_from_matrix(&d, source, REAL(x), n, p, 1, n, nm, err)) return NULL;
    if (texts == R_NilValue) return d;
    SEXP tn = Rf_getAttrib(texts, R_NamesSymbol);
    const char **cells = (const char **)R_alloc(n ? n : 1, sizeof *cells);
    for (R_xlen_t t = 0; t < XLENGTH(texts); t++) {
        SEXP v = VECTOR_ELT(texts, t);
        for (size_t i = 0; i < n; i++) {
            SEXP s = STRING_ELT(v, (R_xlen_t)i);
            cells[i] = s == NA_STRING ? NULL : CHAR(s);
        }
        if (basel_data_add_text(d, CHAR(STRING_ELT(tn, t)), cells, err)) {
            basel_data_free(d);
            return NULL;
        }
    }
    return d;
}

/* ------------------------------------------------------------ progress */

typedef struct {
    SEXP fn;          /* R function(fraction) or R_NilValue */
    SEXP env;
    double fraction;
    int cancel;       /* the R function asked to stop */
    int interrupted;  /* the user pressed Ctrl-C */
    int failed;       /* the R function raised an error */
} progress_state;

static void check_interrupt(void *unused)
{
    (void)unused;
    R_CheckUserInterrupt();
}

static void call_progress(void *data)
{
    progress_state *st = data;
    SEXP call = PROTECT(Rf_lang2(st->fn, Rf_ScalarReal(st->fraction)));
    SEXP r = Rf_eval(call, st->env);
    /* R/basel.R wraps the user's function: TRUE cancels, NA means an
     * interrupt arrived while it ran */
    st->cancel = Rf_isLogical(r) && Rf_length(r) == 1 && LOGICAL(r)[0] == TRUE;
    st->interrupted = Rf_isLogical(r) && Rf_length(r) == 1 && LOGICAL(r)[0] == NA_LOGICAL;
    UNPROTECT(1);
}

/* Called by the library on R's thread (the calling thread) between blocks
 * of work. R_ToplevelExec contains any jump (an interrupt, an error in the
 * R function): it returns FALSE instead, and the fit is cancelled through
 * the library's own path (BASEL_ECANCELLED), which frees what it holds. */
static int progress_cb(double fraction, void *user)
{
    progress_state *st = user;
    if (!R_ToplevelExec(check_interrupt, NULL)) {
        st->interrupted = 1;
        return 1;
    }
    if (st->fn != R_NilValue) {
        st->fraction = fraction;
        if (!R_ToplevelExec(call_progress, st)) {
            st->failed = 1;
            return 1;
        }
        if (st->cancel || st->interrupted) return 1;
    }
    return 0;
}

/* ----------------------------------------------------------------- fit */

/* x: numeric matrix; names: its column names; texts: NULL or a named list
 * of character vectors (categorical inputs, selected as groups); labels:
 * NULL or a character vector (a classifier's target, appended as column
 * label_name); opt_names,
 * opt_values: the options by name; progress: NULL or function(fraction). */
SEXP r_basel_fit(SEXP x, SEXP names, SEXP texts, SEXP labels, SEXP label_name, SEXP opt_names,
                 SEXP opt_values, SEXP progress, SEXP env)
{
    basel_error err;
    memset(&err, 0, sizeof err);
    basel_options *o = NULL;
    basel_fit *f = NULL;
    basel_data *d = table_of(x, names, texts, "<data>", &err);
    if (!d) return error_value(&err, 0);
    if (labels != R_NilValue) {
        const size_t n = (size_t)XLENGTH(labels);
        const char **lab = (const char **)R_alloc(n ? n : 1, sizeof *lab);
        for (size_t i = 0; i < n; i++) {
            SEXP s = STRING_ELT(labels, (R_xlen_t)i);
            lab[i] = s == NA_STRING ? NULL : CHAR(s);
        }
        if (basel_data_add_labels(d, CHAR(STRING_ELT(label_name, 0)), lab, &err)) goto fail;
    }
    if (basel_options_create(&o)) {
        basel_data_free(d);
        return simple_error(BASEL_ENOMEM, "out of memory");
    }
    for (R_xlen_t i = 0; i < XLENGTH(opt_names); i++)
        if (basel_options_set(o, CHAR(STRING_ELT(opt_names, i)), CHAR(STRING_ELT(opt_values, i)), &err))
            goto fail;
    progress_state st = {progress, env, 0, 0, 0, 0};
    basel_options_set_progress(o, progress_cb, &st);
    if (basel_fit_run(&f, d, o, &err)) {
        basel_options_free(o);
        basel_data_free(d);
        if (st.failed && err.code == BASEL_ECANCELLED)
            snprintf(err.message, sizeof err.message, "the progress function failed: fit cancelled");
        return error_value(&err, st.interrupted);
    }
    basel_options_free(o);
    basel_data_free(d);
    return wrap_fit(f);
fail:
    basel_options_free(o);
    basel_data_free(d);
    return error_value(&err, 0);
}

SEXP r_basel_fit_from_json(SEXP text)
{
    basel_error err;
    memset(&err, 0, sizeof err);
    basel_fit *f = NULL;
    const char *s = CHAR(STRING_ELT(text, 0));
    if (basel_fit_from_json(&f, "<FIT.json>", s, strlen(s), &err)) return error_value(&err, 0);
    return wrap_fit(f);
}

SEXP r_basel_fit_json(SEXP ptr)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone (a saved object: use its JSON)");
    char *s = basel_fit_to_json(f);
    if (!s) return simple_error(BASEL_ENOMEM, "out of memory");
    SEXP v = PROTECT(Rf_allocVector(STRSXP, 1));
    SET_STRING_ELT(v, 0, Rf_mkCharCE(s, CE_UTF8));
    basel_free(s);
    UNPROTECT(1);
    return v;
}

SEXP r_basel_fit_summary(SEXP ptr)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    char *s = basel_fit_summary(f);
    if (!s) return simple_error(BASEL_ENOMEM, "out of memory");
    SEXP v = PROTECT(Rf_mkString(s));
    basel_free(s);
    UNPROTECT(1);
    return v;
}

SEXP r_basel_fit_pip(SEXP ptr)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    size_t m = 0;
    const double *pip = basel_fit_pip(f, &m);
    SEXP v = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)m));
    if (m) memcpy(REAL(v), pip, m * sizeof *pip);
    UNPROTECT(1);
    return v;
}

/* basel_fit_centres: a centres x inputs matrix in the inputs' units, or
 * NULL when the fit has no kernels */
SEXP r_basel_fit_centres(SEXP ptr)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    size_t m = 0;
    const size_t d = basel_fit_input_count(f);
    const double *c = basel_fit_centres(f, &m);
    if (!c || !m || !d) return R_NilValue;
    SEXP v = PROTECT(Rf_allocMatrix(REALSXP, (int)m, (int)d));
    for (size_t j = 0; j < m; j++) /* row by row in C, column-major in R */
        for (size_t a = 0; a < d; a++) REAL(v)[j + a * m] = c[j * d + a];
    UNPROTECT(1);
    return v;
}

SEXP r_basel_fit_write_json(SEXP ptr, SEXP path)
{
    basel_error err;
    memset(&err, 0, sizeof err);
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    if (basel_fit_write_json(f, CHAR(STRING_ELT(path, 0)), &err)) return error_value(&err, 0);
    return R_NilValue;
}

/* NaN (a row without a prediction) as R's NA. */
static double na_of(double x) { return ISNAN(x) ? NA_REAL : x; }

/* Predictions of the rows of x (intervals for a new observation, or for the
 * regression function when mean_interval is TRUE), in memory: a list of
 * the targets' names and n x c matrices mean, lower, upper and se (NULL
 * when the method gives no se), or of a classifier the classes' names, the
 * n x K probabilities and the 1-based class (NA for a row without a
 * prediction). */
SEXP r_basel_predict(SEXP ptr, SEXP x, SEXP names, SEXP model, SEXP level, SEXP interval_kind)
{
    basel_error err;
    memset(&err, 0, sizeof err);
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    basel_data *d = table_of(x, names, R_NilValue, "<newdata>", &err);
    if (!d) return error_value(&err, 0);
    basel_pred *p = NULL;
    /* methods.R passes basel_interval_kind's number: 0 new, 1 mean, 2 none,
     * 3 the sds alone (se.fit without an interval) */
    const int k = Rf_asInteger(interval_kind);
    const basel_interval_kind kind = k == 1   ? BASEL_INTERVAL_MEAN
                                     : k == 2 ? BASEL_INTERVAL_NONE
                                     : k == 3 ? BASEL_INTERVAL_SD
                                              : BASEL_INTERVAL_NEW;
    int rc = basel_fit_predict_ex(f, d, CHAR(STRING_ELT(model, 0)), Rf_asReal(level), kind, &p, &err);
    basel_data_free(d);
    if (rc) return error_value(&err, 0);
    const size_t n = basel_pred_rows(p), K = basel_pred_class_count(p);
    const char *lnames[] = {"targets", "mean", "lower", "upper", "se", "classes", "prob", "class", ""};
    SEXP v = PROTECT(Rf_mkNamed(VECSXP, lnames));
    if (K) {
        SEXP cl = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)K));
        SEXP pr = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)K));
        SEXP ci = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)n));
        for (size_t k = 0; k < K; k++) SET_STRING_ELT(cl, (R_xlen_t)k, Rf_mkCharCE(basel_pred_class_name(p, k), CE_UTF8));
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < K; k++) {
                double q = NAN;
                size_t c = SIZE_MAX;
                basel_pred_prob(p, i, k, &q, &c);
                REAL(pr)[i + k * n] = na_of(q);
                INTEGER(ci)[i] = c == SIZE_MAX ? NA_INTEGER : (int)c + 1;
            }
        SET_VECTOR_ELT(v, 5, cl);
        SET_VECTOR_ELT(v, 6, pr);
        SET_VECTOR_ELT(v, 7, ci);
        UNPROTECT(3);
    } else {
        const size_t c = basel_pred_output_count(p);
        SEXP tg = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)c));
        for (size_t j = 0; j < c; j++) SET_STRING_ELT(tg, (R_xlen_t)j, Rf_mkCharCE(basel_pred_output_name(p, j), CE_UTF8));
        const int has_se = basel_pred_has_se(p);
        SEXP m[4];
        for (int a = 0; a < 4; a++) m[a] = a < 3 || has_se ? PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)c)) : R_NilValue;
        for (size_t j = 0; j < c; j++)
            for (size_t i = 0; i < n; i++) {
                double mean = NAN, lo = NAN, hi = NAN, se = NAN;
                basel_pred_get(p, i, j, &mean, &lo, &hi);
                REAL(m[0])[i + j * n] = na_of(mean);
                REAL(m[1])[i + j * n] = na_of(lo);
                REAL(m[2])[i + j * n] = na_of(hi);
                if (has_se && !basel_pred_se(p, i, j, &se)) REAL(m[3])[i + j * n] = na_of(se);
            }
        SET_VECTOR_ELT(v, 0, tg);
        for (int a = 0; a < 4; a++) SET_VECTOR_ELT(v, 1 + a, m[a]);
        UNPROTECT(has_se ? 5 : 4);
    }
    basel_pred_free(p);
    UNPROTECT(1);
    return v;
}

/* ------------------------------------------------------------- results */

/* A character vector of n strings str(f, i) (NA for NULL). */
static SEXP strings(const basel_fit *f, size_t n, const char *(*str)(const basel_fit *, size_t))
{
    SEXP v = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)n));
    for (size_t i = 0; i < n; i++) {
        const char *t = str(f, i);
        SET_STRING_ELT(v, (R_xlen_t)i, t ? Rf_mkCharCE(t, CE_UTF8) : NA_STRING);
    }
    UNPROTECT(1);
    return v;
}

/* The coefficient table: term, target, class (NULL unless multinomial),
 * the rows x 7 values (basel.h BASEL_COEF_*) and the intervals' level;
 * NULL when the fit has no table. */
/* The coefficient table: the model average's (model NULL: basel_fit_coef)
 * or one model's at level (basel_fit_model_coef); NULL when the fit has
 * none. */
SEXP r_basel_coef(SEXP ptr, SEXP model, SEXP level)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    const size_t n = basel_fit_coef_count(f);
    if (!n) return R_NilValue;
    double *one = NULL;
    if (!Rf_isNull(model)) {
        basel_error err;
        memset(&err, 0, sizeof err);
        one = (double *)R_alloc(n * BASEL_COEF_NVALUES, sizeof *one);
        if (basel_fit_model_coef(f, CHAR(STRING_ELT(model, 0)), Rf_asReal(level), one, &err))
            return error_value(&err, 0);
    }
    const char *lnames[] = {"term", "target", "class", "values", "level", ""};
    SEXP v = PROTECT(Rf_mkNamed(VECSXP, lnames));
    SET_VECTOR_ELT(v, 0, strings(f, n, basel_fit_coef_term));
    SET_VECTOR_ELT(v, 1, strings(f, n, basel_fit_coef_target));
    if (basel_fit_coef_class(f, 0)) SET_VECTOR_ELT(v, 2, strings(f, n, basel_fit_coef_class));
    SEXP val = PROTECT(Rf_allocMatrix(REALSXP, (int)n, BASEL_COEF_NVALUES));
    for (size_t i = 0; i < n; i++) {
        double row[BASEL_COEF_NVALUES];
        if (one) memcpy(row, one + i * BASEL_COEF_NVALUES, sizeof row);
        else basel_fit_coef(f, i, row);
        for (size_t k = 0; k < BASEL_COEF_NVALUES; k++) REAL(val)[i + k * n] = na_of(row[k]);
    }
    SET_VECTOR_ELT(v, 3, val);
    SET_VECTOR_ELT(v, 4, Rf_ScalarReal(one ? Rf_asReal(level) : basel_fit_coef_level(f)));
    UNPROTECT(2);
    return v;
}

/* The terms' posterior densities (basel_fit_coef_density): x an n x rows
 * matrix, column i the points of table row i; the densities in the same
 * shape. */
SEXP r_basel_coef_density(SEXP ptr, SEXP model, SEXP x)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    const size_t rows = basel_fit_coef_count(f), n = (size_t)Rf_nrows(x);
    if ((size_t)Rf_ncols(x) != rows) return simple_error(BASEL_EINVAL, "one column of points per coefficient");
    SEXP d = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)rows));
    basel_error err;
    memset(&err, 0, sizeof err);
    const int rc = basel_fit_coef_density(f, CHAR(STRING_ELT(model, 0)), REAL(x), n, REAL(d), &err);
    UNPROTECT(1);
    return rc ? error_value(&err, 0) : d;
}

/* 0-based atom indices as an integer vector. */
static SEXP atom_vector(const size_t *atoms, size_t k)
{
    SEXP a = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)k));
    for (size_t j = 0; j < k; j++) INTEGER(a)[j] = (int)atoms[j];
    UNPROTECT(1);
    return a;
}

/* The listed models: atoms (a list of 0-based indices), prob, log_ml,
 * log_bf (against the most probable; NA where unknown); NULL when none. */
SEXP r_basel_models(SEXP ptr)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    const size_t n = basel_fit_model_count(f);
    if (!n) return R_NilValue;
    const char *lnames[] = {"atoms", "prob", "log_ml", "log_bf", ""};
    SEXP v = PROTECT(Rf_mkNamed(VECSXP, lnames));
    SEXP at = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)n));
    SEXP num[3];
    for (int a = 0; a < 3; a++) num[a] = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)n));
    for (size_t i = 0; i < n; i++) {
        const size_t *atoms = NULL;
        size_t k = 0;
        double x[3];
        basel_fit_model(f, i, &atoms, &k, &x[0], &x[1], &x[2]);
        SET_VECTOR_ELT(at, (R_xlen_t)i, atom_vector(atoms, k));
        for (int a = 0; a < 3; a++) REAL(num[a])[i] = na_of(x[a]);
    }
    SET_VECTOR_ELT(v, 0, at);
    for (int a = 0; a < 3; a++) SET_VECTOR_ELT(v, 1 + a, num[a]);
    UNPROTECT(5);
    return v;
}

/* The credible sets: atoms (a list of 0-based indices), coverage, purity;
 * NULL when the fit has none. */
SEXP r_basel_credible_sets(SEXP ptr)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    const size_t n = basel_fit_credible_set_count(f);
    if (!n) return R_NilValue;
    const char *lnames[] = {"atoms", "coverage", "purity", ""};
    SEXP v = PROTECT(Rf_mkNamed(VECSXP, lnames));
    SEXP at = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)n));
    SEXP cov = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)n)), pur = PROTECT(Rf_allocVector(REALSXP, (R_xlen_t)n));
    for (size_t i = 0; i < n; i++) {
        const size_t *atoms = NULL;
        size_t k = 0;
        basel_fit_credible_set(f, i, &atoms, &k, REAL(cov) + i, REAL(pur) + i);
        SET_VECTOR_ELT(at, (R_xlen_t)i, atom_vector(atoms, k));
    }
    SET_VECTOR_ELT(v, 0, at);
    SET_VECTOR_ELT(v, 1, cov);
    SET_VECTOR_ELT(v, 2, pur);
    UNPROTECT(4);
    return v;
}

/* The kept draws in memory: chain (1-based), size, the draws x atoms 0/1
 * matrix, the draws x hyperparameters matrix and the draws x values matrix
 * (basel_fit_draw_values: sigma2, b_..., log_lik; no columns when the fit
 * has none), each with its column names. */
SEXP r_basel_draws(SEXP ptr)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    const size_t n = basel_fit_draw_count(f), m = basel_fit_atom_count(f), s = basel_fit_draw_scalar_count(f);
    if (!n) return simple_error(BASEL_EINVAL, "this fit kept no draws (set keep-draws=1 before fitting)");
    const size_t nv = basel_fit_draw_value_count(f);
    const char *lnames[] = {"chain", "size", "atoms", "scalars", "values", ""};
    SEXP v = PROTECT(Rf_mkNamed(VECSXP, lnames));
    SEXP ch = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)n)), sz = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)n));
    SEXP in = PROTECT(Rf_allocMatrix(INTSXP, (int)n, (int)m)), sc = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)s));
    SEXP va = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)nv));
    double *row = (double *)R_alloc(nv + 1, sizeof(double));
    memset(INTEGER(in), 0, n * m * sizeof(int));
    for (size_t i = 0; i < n; i++) {
        unsigned chain = 0;
        const size_t *atoms = NULL;
        const double *x = NULL;
        size_t k = 0;
        const int rc = basel_fit_draw(f, i, &chain, &atoms, &k);
        if (!rc && s) basel_fit_draw_scalars(f, i, &x);
        if (!rc && nv) basel_fit_draw_values(f, i, row);
        if (rc) {
            UNPROTECT(6);
            return simple_error(rc, "the draws could not be read back from their temporary files");
        }
        INTEGER(ch)[i] = (int)chain + 1;
        INTEGER(sz)[i] = (int)k;
        for (size_t a = 0; a < k; a++) INTEGER(in)[i + atoms[a] * n] = 1;
        for (size_t j = 0; j < s && x; j++) REAL(sc)[i + j * n] = x[j];
        for (size_t j = 0; j < nv; j++) REAL(va)[i + j * n] = row[j];
    }
    SEXP vn = PROTECT(strings(f, nv, basel_fit_draw_value_name));
    SEXP dnv = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(dnv, 1, vn);
    Rf_setAttrib(va, R_DimNamesSymbol, dnv);
    SEXP sn = PROTECT(strings(f, s, basel_fit_draw_scalar_name));
    SEXP dn = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(dn, 1, sn);
    Rf_setAttrib(sc, R_DimNamesSymbol, dn);
    SEXP an = PROTECT(strings(f, m, basel_fit_atom_name));
    SEXP dna = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(dna, 1, an);
    Rf_setAttrib(in, R_DimNamesSymbol, dna);
    SET_VECTOR_ELT(v, 0, ch);
    SET_VECTOR_ELT(v, 1, sz);
    SET_VECTOR_ELT(v, 2, in);
    SET_VECTOR_ELT(v, 3, sc);
    SET_VECTOR_ELT(v, 4, va);
    UNPROTECT(12);
    return v;
}

/* The kept draws' pointwise log-likelihoods (keep-draws=2): draws x rows,
 * or NULL when the fit kept none. */
SEXP r_basel_draws_loglik(SEXP ptr)
{
    const basel_fit *f = fit_of(ptr);
    if (!f) return simple_error(BASEL_EINVAL, "the fit's handle is gone");
    const size_t n = basel_fit_draw_count(f), rows = basel_fit_draw_loglik_count(f);
    if (!n || !rows) return R_NilValue;
    SEXP ll = PROTECT(Rf_allocMatrix(REALSXP, (int)n, (int)rows));
    for (size_t i = 0; i < n; i++) {
        const double *x = NULL;
        const int rc = basel_fit_draw_loglik(f, i, &x);
        if (rc) {
            UNPROTECT(1);
            return simple_error(rc, "the draws' log-likelihoods could not be read");
        }
        for (size_t t = 0; t < rows; t++) REAL(ll)[i + t * n] = x[t];
    }
    UNPROTECT(1);
    return ll;
}

/* ----------------------------------------------------------- catalogue */

SEXP r_basel_catalogue(void)
{
    const size_t no = basel_options_count(), nm = basel_method_count();
    const char *names[] = {"option", "option_help", "method", "method_summary", "version", "format_version", "blas", ""};
    SEXP v = PROTECT(Rf_mkNamed(VECSXP, names));
    SEXP on = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)no)), oh = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)no));
    for (size_t i = 0; i < no; i++) {
        const char *name = "", *help = "";
        basel_options_describe(i, &name, &help);
        SET_STRING_ELT(on, (R_xlen_t)i, Rf_mkChar(name));
        SET_STRING_ELT(oh, (R_xlen_t)i, Rf_mkChar(help));
    }
    SEXP mn = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)nm)), ms = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)nm));
    for (size_t i = 0; i < nm; i++) {
        const char *name = "", *summary = "";
        basel_method_describe(i, &name, &summary);
        SET_STRING_ELT(mn, (R_xlen_t)i, Rf_mkChar(name));
        SET_STRING_ELT(ms, (R_xlen_t)i, Rf_mkChar(summary));
    }
    SET_VECTOR_ELT(v, 0, on);
    SET_VECTOR_ELT(v, 1, oh);
    SET_VECTOR_ELT(v, 2, mn);
    SET_VECTOR_ELT(v, 3, ms);
    SET_VECTOR_ELT(v, 4, Rf_mkString(basel_version()));
    SET_VECTOR_ELT(v, 5, Rf_ScalarInteger(basel_fit_format_version()));
    SET_VECTOR_ELT(v, 6, Rf_mkString(basel_blas()));
    UNPROTECT(5);
    return v;
}

/* The default of option for method: a string, "" when derived from the
 * data, NA when the method does not read the option. */
SEXP r_basel_method_default(SEXP method, SEXP option)
{
    const char *d = basel_method_option_default(CHAR(STRING_ELT(method, 0)), CHAR(STRING_ELT(option, 0)));
    SEXP v = PROTECT(Rf_allocVector(STRSXP, 1));
    SET_STRING_ELT(v, 0, d ? Rf_mkChar(d) : NA_STRING);
    UNPROTECT(1);
    return v;
}

SEXP r_basel_groups_factors(SEXP method, SEXP basis)
{
    const char *b = basis == R_NilValue ? NULL : CHAR(STRING_ELT(basis, 0));
    return Rf_ScalarLogical(basel_method_groups_factors(CHAR(STRING_ELT(method, 0)), b));
}

/* What the engine table says of method: keeps_draws, mean_interval (se),
 * and the predictors it has (the first its default). */
SEXP r_basel_method_caps(SEXP method)
{
    const char *m = CHAR(STRING_ELT(method, 0));
    const char *lnames[] = {"keeps_draws", "mean_interval", "models", ""};
    SEXP v = PROTECT(Rf_mkNamed(VECSXP, lnames));
    SET_VECTOR_ELT(v, 0, Rf_ScalarLogical(basel_method_keeps_draws(m)));
    SET_VECTOR_ELT(v, 1, Rf_ScalarLogical(basel_method_mean_interval(m)));
    size_t k = 0;
    while (basel_method_model(m, k)) k++;
    SEXP mo = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)k));
    for (size_t i = 0; i < k; i++) SET_STRING_ELT(mo, (R_xlen_t)i, Rf_mkChar(basel_method_model(m, i)));
    SET_VECTOR_ELT(v, 2, mo);
    UNPROTECT(2);
    return v;
}

static const R_CallMethodDef calls[] = {
    {"r_basel_fit", (DL_FUNC)&r_basel_fit, 9},
    {"r_basel_fit_from_json", (DL_FUNC)&r_basel_fit_from_json, 1},
    {"r_basel_fit_json", (DL_FUNC)&r_basel_fit_json, 1},
    {"r_basel_fit_summary", (DL_FUNC)&r_basel_fit_summary, 1},
    {"r_basel_fit_pip", (DL_FUNC)&r_basel_fit_pip, 1},
    {"r_basel_fit_centres", (DL_FUNC)&r_basel_fit_centres, 1},
    {"r_basel_fit_write_json", (DL_FUNC)&r_basel_fit_write_json, 2},
    {"r_basel_predict", (DL_FUNC)&r_basel_predict, 6},
    {"r_basel_coef", (DL_FUNC)&r_basel_coef, 3},
    {"r_basel_coef_density", (DL_FUNC)&r_basel_coef_density, 3},
    {"r_basel_models", (DL_FUNC)&r_basel_models, 1},
    {"r_basel_credible_sets", (DL_FUNC)&r_basel_credible_sets, 1},
    {"r_basel_draws", (DL_FUNC)&r_basel_draws, 1},
    {"r_basel_draws_loglik", (DL_FUNC)&r_basel_draws_loglik, 1},
    {"r_basel_method_caps", (DL_FUNC)&r_basel_method_caps, 1},
    {"r_basel_catalogue", (DL_FUNC)&r_basel_catalogue, 0},
    {"r_basel_method_default", (DL_FUNC)&r_basel_method_default, 2},
    {"r_basel_groups_factors", (DL_FUNC)&r_basel_groups_factors, 2},
    {NULL, NULL, 0}};

void R_init_basel(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, calls, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
