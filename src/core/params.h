/*
 * params.h: engine-specific settings as name=value text, read with typed,
 * range-checked getters. The option catalogue (engine/catalogue.c) decides which names
 * exist, so an engine only sees names that were accepted.
 */
#ifndef BSL_PARAMS_H
#define BSL_PARAMS_H

#include "core.h"

#define BSL_PARAMS_MAX 48
/* A value's room, its NUL included: --inputs lists hundreds of names (at
 * 128, as before, about 20) */
#define BSL_PARAM_VALUE_MAX 4096

typedef struct bsl_params {
    size_t n;
    char name[BSL_PARAMS_MAX][32];
    char value[BSL_PARAMS_MAX][BSL_PARAM_VALUE_MAX];
} bsl_params;

/* Set (or replace) name. -1 when full or too long (a value of
 * BSL_PARAM_VALUE_MAX characters or more). */
int bsl_params_set(bsl_params *p, const char *name, const char *value);
/* The value of name or NULL. */
const char *bsl_params_get(const bsl_params *p, const char *name);
/* Typed getters: def when absent; BASEL_EINVAL (naming the option) when the
 * text is not a number or out of [lo, hi]. */
int bsl_params_double(const bsl_params *p, const char *name, double def, double lo, double hi,
                      double *out, basel_error *err);
int bsl_params_size(const bsl_params *p, const char *name, size_t def, size_t lo, size_t hi,
                    size_t *out, basel_error *err);

/* Record a value an engine derived (the effective setting). */
int bsl_params_set_size(bsl_params *p, const char *name, size_t value);
int bsl_params_set_double(bsl_params *p, const char *name, double value);

#endif
