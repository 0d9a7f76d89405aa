/* error.c: status names and the error-record helpers of core.h. */
#include "core.h"

#include <stdarg.h>
#include <string.h>

const char *basel_status_str(int code)
{
    switch (code) {
    case BASEL_OK: return "BASEL_OK";
    case BASEL_EINVAL: return "BASEL_EINVAL";
    case BASEL_ENOMEM: return "BASEL_ENOMEM";
    case BASEL_EIO: return "BASEL_EIO";
    case BASEL_EPARSE: return "BASEL_EPARSE";
    case BASEL_ENUMERIC: return "BASEL_ENUMERIC";
    case BASEL_ECANCELLED: return "BASEL_ECANCELLED";
    case BASEL_ERANGE: return "BASEL_ERANGE";
    case BASEL_EINTERNAL: return "BASEL_EINTERNAL";
    case BASEL_INTERRUPTED: return "BASEL_INTERRUPTED";
    case BASEL_ELSEWHERE: return "BASEL_ELSEWHERE";
    default: return "BASEL_UNKNOWN";
    }
}

const char *basel_version(void) { return BASEL_VERSION_STRING; }

void bsl_error_clear(basel_error *err)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
}

static int vfail(basel_error *err, int code, const char *file, size_t line, size_t column,
                 const char *fmt, va_list ap)
{
    if (!err) return code;
    err->code = code;
    err->line = line;
    err->column = column;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

int bsl_fail(basel_error *err, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, code, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

int bsl_fail_at(basel_error *err, int code, const char *file, size_t line, size_t column,
                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, code, file, line, column, fmt, ap);
    va_end(ap);
    return code;
}
