/*
 * coef.c: basel_fit_write_coef_csv, the coefficient table of a fit document
 * ("coefficients", docs/FIT.md) as CSV, one row per term and target.
 */
#include "fit.h"
#include "../engine/engine.h"

#include <math.h>
#include <string.h>

/* A CSV cell: quoted when it holds a comma, a quote or a line break. */
static void cell(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"') fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

/* ",value", or "," alone when the row has no such number. */
static void number(FILE *fp, const json_t *row, const char *key, int digits)
{
    const json_t *x = json_object_get(row, key);
    char buf[40];
    fputc(',', fp);
    if (json_is_number(x)) fputs(bsl_format_double(buf, sizeof buf, json_number_value(x), digits), fp);
}

int basel_fit_write_coef_csv(const basel_fit *f, const char *path, basel_error *err)
{
    return basel_fit_write_coef_csv_ex(f, path, 0, err);
}

int basel_fit_write_coef_csv_ex(const basel_fit *f, const char *path, int digits, basel_error *err)
{
    bsl_error_clear(err);
    if (digits < 0 || digits > 17)
        return bsl_fail(err, BASEL_EINVAL, "--digits %d: expected 1 to 17 significant digits, or 0 (shortest exact)",
                        digits);
    const json_t *terms = json_object_get(json_object_get(f->doc, "coefficients"), "terms");
    const char *family = json_string_value(json_object_get(json_object_get(f->doc, "settings"), "family"));
    if (!terms && family && strcmp(family, "gaussian") != 0)
        return bsl_fail(err, BASEL_EINVAL,
                        "this --family %s fit has no coefficient table: it was written before basel made one "
                        "(fit again; docs/GLM.md)",
                        family);
    if (!terms) {
        char have[256];
        return bsl_fail(err, BASEL_EINVAL, "a fit of --method %s has no coefficient table (%s fits have one)",
                        json_string_value(json_object_get(f->doc, "method")) ? json_string_value(json_object_get(f->doc, "method")) : "?",
                        bsl_engine_list(have, sizeof have, "coefficients", "and"));
    }
    bsl_outfile out;
    int rc = bsl_out_open(&out, path, err);
    if (rc) return rc;
    FILE *fp = out.fp;
    fputs("term,target,pip,mean,sd,cond_mean,cond_sd,lower,upper\n", fp);
    for (size_t i = 0; i < json_array_size(terms); i++) {
        const json_t *row = json_array_get(terms, i);
        const char *name = json_string_value(json_object_get(row, "name"));
        const char *target = json_string_value(json_object_get(row, "target"));
        cell(fp, name ? name : "?");
        fputc(',', fp);
        cell(fp, target ? target : "?");
        for (size_t k = 0; k < BASEL_COEF_NVALUES; k++) number(fp, row, bsl_coef_value_keys[k], digits);
        fputc('\n', fp);
    }
    return bsl_out_commit(&out, err);
}
