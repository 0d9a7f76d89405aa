/*
 * check_options.h: options for a test's fit from a NULL-terminated list
 * of name, value pairs; a name the library refuses is a failed CHECK.
 */
#ifndef BSL_CHECK_OPTIONS_H
#define BSL_CHECK_OPTIONS_H

#include "check.h"
#include <basel.h>

static inline basel_options *check_options(const char *const *kv)
{
    basel_options *o = NULL;
    basel_error err;
    basel_options_create(&o);
    for (size_t i = 0; kv[i]; i += 2) CHECK(!basel_options_set(o, kv[i], kv[i + 1], &err), "%s", err.message);
    return o;
}

#endif
