/* outfile.c: atomic output files. Nothing half-written is ever left at the
 * final path: we write to "<path>.tmp.<pid>.<n>.<salt>" in the same directory (so
 * the rename cannot cross file systems), then rename over the target. The
 * temporary file is created with O_EXCL and mode 0666 less the umask, as a
 * plain fopen would (mkstemp's 0600 would leave fits unreadable to others). */
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A new file next to path, exclusive; -1 with errno on failure. */
static int create_temp(const char *path, char *tmp, size_t cap)
{
    static unsigned long counter;
    unsigned long n;
#pragma omp atomic capture
    n = ++counter;
    /* pid, a counter and the clock's nanoseconds: unique, and not guessable
     * enough for another user to occupy every name we would try */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long salt = (unsigned long)ts.tv_nsec * 2654435761UL;
    for (int attempt = 0; attempt < 100; attempt++, salt = salt * 6364136223846793005UL + 1442695040888963407UL) {
        snprintf(tmp, cap, "%s.tmp.%ld.%lu.%lx", path, (long)getpid(), n, salt & 0xffffffffUL);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

int bsl_out_open(bsl_outfile *o, const char *path, basel_error *err)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        return BASEL_OK;
    }
    size_t len = strlen(path);
    o->path = bsl_strdup(path);
    const size_t cap = len + 64;
    o->tmp = malloc(cap);
    if (!o->path || !o->tmp) {
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    int fd = create_temp(path, o->tmp, cap);
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
