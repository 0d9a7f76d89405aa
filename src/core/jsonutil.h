/*
 * jsonutil.h: the few jansson helpers every JSON writer and reader of the
 * library shares (fit documents, engine states).
 */
#ifndef BSL_JSONUTIL_H
#define BSL_JSONUTIL_H

#include "core.h"

#include <jansson.h>
#include <math.h>

/* A new array of n numbers; a non-finite value becomes null (JSON has no
 * NaN or Inf, and readers reject null where they need a number). NULL on
 * ENOMEM. */
json_t *bsl_json_doubles(const double *x, size_t n);
/* An R-hat: a number, the string "inf" for chains stuck on different
 * constant values (split R-hat +inf), null when undefined (NaN). The
 * reader returns INFINITY for "inf" and NaN for anything not a number. */
json_t *bsl_json_rhat(double v);
json_t *bsl_json_rhats(const double *x, size_t n);
double bsl_json_rhat_value(const json_t *v);
/* Checked building. jansson drops a NULL value (what a failed allocation
 * gives) and returns -1, so a writer that ignores the status loses a key
 * silently. These take v, and remember any failure in *bad (sticky), for
 * the writer to check once at the end: a document is complete or not made. */
/* A number, or null when not finite (json_real would give NULL, which the
 * checked builders below would take for a failed allocation): the null is
 * then refused by bsl_document_check, naming its path. */
static inline json_t *bsl_json_real(double x) { return isfinite(x) ? json_real(x) : json_null(); }
static inline void bsl_json_put(json_t *o, const char *key, json_t *v, int *bad)
{
    if (!o || !v) {
        json_decref(v);
        *bad = 1;
    } else if (json_object_set_new(o, key, v)) {
        *bad = 1;
    }
}
static inline void bsl_json_push(json_t *a, json_t *v, int *bad)
{
    if (!a || !v) {
        json_decref(v);
        *bad = 1;
    } else if (json_array_append_new(a, v)) {
        *bad = 1;
    }
}
/* A new array of n integers. NULL on ENOMEM. */
json_t *bsl_json_sizes(const size_t *x, size_t n);
/* The same array, its items shared: cache[x[i]] (cache has room for every
 * value; NULL entries are made on first use, and the caller json_decrefs
 * the non-NULL ones). The dumped text is the same; a document that lists
 * thousands of subsets of m atoms then holds m integers, not one per
 * mention (jansson counts the references; 32 bytes an integer). */
json_t *bsl_json_sizes_shared(const size_t *x, size_t n, json_t **cache);
/* Read exactly n finite numbers from array a into x; -1 otherwise. */
int bsl_json_read_doubles(const json_t *a, double *x, size_t n);
/* The same into a new array (the caller frees it) in *out: BASEL_OK, -1
 * when a is not n finite numbers (*out NULL), BASEL_ENOMEM. */
int bsl_json_doubles_new(const json_t *a, size_t n, double **out);
/* Read the integer o[key] into *out if lo <= value <= hi; -1 otherwise. */
int bsl_json_read_size(const json_t *o, const char *key, size_t lo, size_t hi, size_t *out);

#endif
