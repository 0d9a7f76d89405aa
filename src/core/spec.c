/* spec.c: parser for "NAME[:key=value,...]" option values (spec.h). */
#include "spec.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int copy_token(char *dst, size_t cap, const char *src, size_t len)
{
    if (len == 0 || len >= cap) return -1;
    memcpy(dst, src, len);
    dst[len] = 0;
    return 0;
}

int bsl_spec_parse(bsl_spec *s, const char *what, const char *text, basel_error *err)
{
    memset(s, 0, sizeof *s);
    snprintf(s->what, sizeof s->what, "%s", what);
    const char *colon = strchr(text, ':');
    size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
    if (copy_token(s->name, sizeof s->name, text, nlen) != 0)
        return bsl_fail(err, BASEL_EINVAL, "--%s '%s': expected NAME[:key=value,...]", what, text);
    if (!colon) return BASEL_OK;
    const char *p = colon + 1;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq && s->nkv > 0 && len > 0) {
            /* a list: "r=0.5,1,2" continues the previous key's value */
            const size_t have = strlen(s->val[s->nkv - 1]);
            if (have + 1 + len >= sizeof s->val[0])
                return bsl_fail(err, BASEL_EINVAL, "--%s '%s': the list for '%s' is too long", what, text,
                                s->key[s->nkv - 1]);
            s->val[s->nkv - 1][have] = ',';
            memcpy(s->val[s->nkv - 1] + have + 1, p, len);
            s->val[s->nkv - 1][have + 1 + len] = 0;
            if (!comma) break;
            p = comma + 1;
            continue;
        }
        if (s->nkv == BSL_SPEC_MAXKV || !eq ||
            copy_token(s->key[s->nkv], sizeof s->key[0], p, (size_t)(eq - p)) != 0 ||
            copy_token(s->val[s->nkv], sizeof s->val[0], eq + 1, len - (size_t)(eq - p) - 1) != 0)
            return bsl_fail(err, BASEL_EINVAL, "--%s '%s': expected key=value after ':' (at '%.*s')",
                            what, text, (int)len, p);
        for (size_t i = 0; i < s->nkv; i++)
            if (strcmp(s->key[i], s->key[s->nkv]) == 0)
                return bsl_fail(err, BASEL_EINVAL, "--%s '%s': key '%s' given twice", what, text,
                                s->key[i]);
        s->nkv++;
        if (!comma) break;
        p = comma + 1;
    }
    return BASEL_OK;
}

static long find(const bsl_spec *s, const char *key)
{
    for (size_t i = 0; i < s->nkv; i++)
        if (strcmp(s->key[i], key) == 0) return (long)i;
    return -1;
}

int bsl_spec_has(const bsl_spec *s, const char *key) { return find(s, key) >= 0; }

int bsl_spec_double(bsl_spec *s, const char *key, double def, double lo, double hi, double *out,
                    basel_error *err)
{
    long i = find(s, key);
    if (i < 0) {
        *out = def;
        return BASEL_OK;
    }
    s->used |= 1u << i;
    char *end;
    errno = 0;
    double v = strtod(s->val[i], &end);
    if (end == s->val[i] || *end || errno == ERANGE || !isfinite(v))
        return bsl_fail(err, BASEL_EINVAL, "--%s %s: '%s' is not a number", s->what, key, s->val[i]);
    if (v < lo || v > hi)
        return bsl_fail(err, BASEL_EINVAL, "--%s %s=%s is out of range [%g, %g]", s->what, key,
                        s->val[i], lo, hi);
    *out = v;
    return BASEL_OK;
}

int bsl_spec_finish(const bsl_spec *s, const char *accepted, basel_error *err)
{
    for (size_t i = 0; i < s->nkv; i++)
        if (!(s->used & (1u << i)))
            return bsl_fail(err, BASEL_EINVAL, "--%s %s: unknown key '%s' (accepted: %s)", s->what,
                            s->name, s->key[i], *accepted ? accepted : "none");
    return BASEL_OK;
}

int bsl_spec_unknown(const bsl_spec *s, const char *accepted, basel_error *err)
{
    return bsl_fail(err, BASEL_EINVAL, "--%s: unknown name '%s' (accepted: %s)", s->what, s->name,
                    accepted);
}

int bsl_spec_list(bsl_spec *s, const char *key, size_t cap, double lo, double hi, double *out, size_t *count,
                  basel_error *err)
{
    long i = find(s, key);
    *count = 0;
    if (i < 0) return BASEL_OK;
    s->used |= 1u << i;
    const char *p = s->val[i];
    for (;;) {
        char *end;
        errno = 0;
        const double v = strtod(p, &end);
        if (end == p || (*end && *end != ',') || errno == ERANGE || !isfinite(v))
            return bsl_fail(err, BASEL_EINVAL, "--%s %s: '%s' is not a number or a comma-separated list of numbers",
                            s->what, key, s->val[i]);
        if (v < lo || v > hi)
            return bsl_fail(err, BASEL_EINVAL, "--%s %s=%s: %g is out of range [%g, %g]", s->what, key, s->val[i],
                            v, lo, hi);
        if (*count == cap)
            return bsl_fail(err, BASEL_EINVAL, "--%s %s=%s: at most %zu values", s->what, key, s->val[i], cap);
        out[(*count)++] = v;
        if (!*end) break;
        p = end + 1;
    }
    return BASEL_OK;
}

const char *bsl_spec_text(bsl_spec *s, const char *key)
{
    long i = find(s, key);
    if (i < 0) return NULL;
    s->used |= 1u << i;
    return s->val[i];
}
