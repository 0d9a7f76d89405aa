/* params.c: name=value engine settings (params.h). */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int bsl_params_set(bsl_params *p, const char *name, const char *value)
{
    if (strlen(name) >= sizeof p->name[0] || strlen(value) >= sizeof p->value[0]) return -1;
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->name[i], name) == 0) {
            strcpy(p->value[i], value);
            return 0;
        }
    if (p->n == BSL_PARAMS_MAX) return -1;
    strcpy(p->name[p->n], name);
    strcpy(p->value[p->n], value);
    p->n++;
    return 0;
}

const char *bsl_params_get(const bsl_params *p, const char *name)
{
    if (!p) return NULL;
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->name[i], name) == 0) return p->value[i];
    return NULL;
}

int bsl_params_double(const bsl_params *p, const char *name, double def, double lo, double hi,
                      double *out, basel_error *err)
{
    const char *v = bsl_params_get(p, name);
    if (!v || !*v) { /* absent, or "" = derived: the caller's default */
        *out = def;
        return BASEL_OK;
    }
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(x))
        return bsl_fail(err, BASEL_EINVAL, "--%s: '%s' is not a number", name, v);
    if (x < lo || x > hi)
        return bsl_fail(err, BASEL_EINVAL, "--%s %s is out of range [%g, %g]", name, v, lo, hi);
    *out = x;
    return BASEL_OK;
}

int bsl_params_size(const bsl_params *p, const char *name, size_t def, size_t lo, size_t hi,
                    size_t *out, basel_error *err)
{
    const char *v = bsl_params_get(p, name);
    if (!v || !*v) { /* absent, or "" = derived: the caller's default */
        *out = def;
        return BASEL_OK;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (end == v || *end || errno == ERANGE || v[0] == '-')
        return bsl_fail(err, BASEL_EINVAL, "--%s: '%s' is not a whole number", name, v);
    if (x < lo || x > hi)
        return bsl_fail(err, BASEL_EINVAL, "--%s %s is out of range [%zu, %zu]", name, v, lo, hi);
    *out = (size_t)x;
    return BASEL_OK;
}

int bsl_params_set_size(bsl_params *p, const char *name, size_t value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%zu", value);
    return bsl_params_set(p, name, buf) ? BASEL_EINVAL : BASEL_OK;
}

int bsl_params_set_double(bsl_params *p, const char *name, double value)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.17g", value);
    return bsl_params_set(p, name, buf) ? BASEL_EINVAL : BASEL_OK;
}
