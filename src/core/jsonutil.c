/* jsonutil.c: shared jansson helpers (jsonutil.h). */
#include "jsonutil.h"

#include <math.h>
#include <string.h>

json_t *bsl_json_doubles(const double *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, isfinite(x[i]) ? json_real(x[i]) : json_null())) {
            json_decref(a);
            return NULL;
        }
    return a;
}

json_t *bsl_json_rhat(double v)
{
    return isfinite(v) ? json_real(v) : v == INFINITY ? json_string("inf") : json_null();
}

json_t *bsl_json_rhats(const double *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, bsl_json_rhat(x[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

double bsl_json_rhat_value(const json_t *v)
{
    if (json_is_number(v)) return json_number_value(v);
    const char *s = json_string_value(v);
    return s && !strcmp(s, "inf") ? INFINITY : NAN;
}

json_t *bsl_json_sizes(const size_t *x, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        if (json_array_append_new(a, json_integer((json_int_t)x[i]))) {
            json_decref(a);
            return NULL;
        }
    return a;
}

json_t *bsl_json_sizes_shared(const size_t *x, size_t n, json_t **cache)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        if (!cache[x[i]]) cache[x[i]] = json_integer((json_int_t)x[i]);
        if (!cache[x[i]] || json_array_append(a, cache[x[i]])) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

int bsl_json_read_doubles(const json_t *a, double *x, size_t n)
{
    if (!json_is_array(a) || json_array_size(a) != n) return -1;
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, i);
        if (!json_is_number(v) || !isfinite(json_number_value(v))) return -1;
        x[i] = json_number_value(v);
    }
    return 0;
}

int bsl_json_doubles_new(const json_t *a, size_t n, double **out)
{
    *out = NULL;
    if (!json_is_array(a) || json_array_size(a) != n) return -1;
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!x) return BASEL_ENOMEM;
    if (bsl_json_read_doubles(a, x, n)) {
        free(x);
        return -1;
    }
    *out = x;
    return BASEL_OK;
}

int bsl_json_read_size(const json_t *o, const char *key, size_t lo, size_t hi, size_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0) return -1;
    const unsigned long long u = (unsigned long long)json_integer_value(v);
    if (u < lo || u > hi) return -1;
    *out = (size_t)u;
    return 0;
}
