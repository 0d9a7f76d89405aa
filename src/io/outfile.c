/* outfile.c: atomic output files. Nothing half-written is ever left at the
 * final path: we write to "<path>.tmp.XXXXXX" in the same directory (so the
 * rename cannot cross file systems), then rename over the target. */
#include "io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bsl_out_open(bsl_outfile *o, const char *path, basel_error *err)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        return BASEL_OK;
    }
    size_t len = strlen(path);
    o->path = bsl_strdup(path);
    o->tmp = malloc(len + 16);
    if (!o->path || !o->tmp) {
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    snprintf(o->tmp, len + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot write: %s", strerror(e));
    }
    return BASEL_OK;
}

int bsl_out_commit(bsl_outfile *o, basel_error *err)
{
    int rc = BASEL_OK;
    if (!o->tmp) {
        if (fflush(o->fp) != 0) rc = bsl_fail(err, BASEL_EIO, "cannot write to stdout");
        memset(o, 0, sizeof *o);
        return rc;
    }
    int bad = ferror(o->fp) || fflush(o->fp) != 0 || fsync(fileno(o->fp)) != 0;
    int e = errno;
    if (fclose(o->fp) != 0) bad = 1;
    if (!bad && rename(o->tmp, o->path) != 0) {
        e = errno;
        bad = 1;
    }
    if (bad) {
        unlink(o->tmp);
        rc = bsl_fail_at(err, BASEL_EIO, o->path, 0, 0, "cannot write: %s", strerror(e));
    }
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    return rc;
}

void bsl_out_abort(bsl_outfile *o)
{
    if (o->tmp) {
        if (o->fp) fclose(o->fp);
        unlink(o->tmp);
    }
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}
