/*
 * fitbuf.c: reading a fit document from memory (fit.h). It shares
 * bsl_fit_adopt with basel_fit_read_json, so a buffer and a file with the
 * same bytes give the same fit or the same error.
 */
#include "fit.h"

int bsl_fit_read_buffer(basel_fit **out, const char *name, const char *text, size_t len,
                        basel_error *err)
{
    *out = NULL;
    json_error_t je;
    /* the flags of basel_fit_read_json: a repeated key is an error */
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc)
        return bsl_fail_at(err, BASEL_EPARSE, name, je.line > 0 ? (size_t)je.line : 0,
                           je.column > 0 ? (size_t)je.column : 0, "%s", je.text);
    return bsl_fit_adopt(out, doc, name, err);
}
