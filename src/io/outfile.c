/* outfile.c: output files that are never half-written and never replace what
 * they should not.
 *
 * What bsl_out_open does with a path depends on what is there now:
 *  - "-" (and /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N): the
 *    process's own descriptor, written in place.
 *  - nothing, or a regular file: atomic replacement. We write a temporary
 *    file in the same directory (so the rename cannot cross file systems),
 *    fsync it and rename it over the path. A new file gets mode 0666 less
 *    the umask, as a plain fopen would (mkstemp's 0600 would leave fits
 *    unreadable to others); a replaced file keeps its mode, and its owner
 *    and group where we are allowed to set them. Like every rename-based
 *    writer, this gives the path a new inode: other hard links to the old
 *    file keep the old content.
 *  - a symbolic link (a chain of them, up to MAX_LINKS): followed, and the
 *    file at its end is treated as above, the temporary file going beside
 *    that target. The link itself stays a link.
 *  - a character device or a FIFO (/dev/null, /dev/full, a named pipe):
 *    opened and written in place, never replaced. There is no atomicity to
 *    give: what was written before a failure has been consumed.
 *  - a directory, a block device or a socket: refused (BASEL_EIO).
 *
 * Temporary files are named ".NAME.basel-tmp.HOST.PID.RANDOM" beside their
 * target NAME (NAME cut to TMP_BASE_MAX bytes so the whole stays under
 * NAME_MAX). A run that is killed between open and commit leaves its file
 * behind; so every open first removes those temporaries of the same NAME
 * that were made on this host (HOST is the sanitised host name, so a shared
 * network file system never sees one machine judge another's processes) by a
 * process that no longer exists (kill(PID, 0) fails with ESRCH). A reused
 * PID only delays a cleanup; it never removes a live run's file. */
#include "io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
    MAX_LINKS = 40,     /* as the kernel's own limit on a path's links */
    TMP_BASE_MAX = 120, /* bytes of NAME kept in a temporary file's name */
    HOST_MAX = 32       /* bytes of the host name kept there */
};

static const char TMP_TAG[] = ".basel-tmp.";

/* ------------------------------------------------------------ names */

/* A new string: the directory part of path, with its final '/', or "". */
static char *dir_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0;
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

static const char *base_part(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The host name with everything but letters, digits and '-' made '_', so
 * that it holds no '.' and the name splits unambiguously. */
static void host_tag(char *out, size_t cap)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0]) strcpy(host, "localhost");
    size_t k = 0;
    for (; host[k] && k + 1 < cap && k < HOST_MAX; k++) {
        const char c = host[k];
        const int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
        out[k] = keep ? c : '_';
    }
    out[k] = '\0';
}

/* ".NAME.basel-tmp.HOST." for the file called base: every temporary file of
 * that target starts with it. */
static void tmp_prefix(const char *base, char *out, size_t cap)
{
    char host[HOST_MAX + 1];
    host_tag(host, sizeof host);
    snprintf(out, cap, ".%.*s%s%s.", TMP_BASE_MAX, base, TMP_TAG, host);
}

/* ---------------------------------------------------- stale temporaries */

/* name is "<prefix>PID.RANDOM" of a process that is gone. */
static int is_stale(const char *name, const char *prefix)
{
    const size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0) return 0;
    char *end;
    errno = 0;
    const long pid = strtol(name + n, &end, 10);
    if (errno || end == name + n || *end != '.' || pid <= 0 || end[1] == '\0') return 0;
    for (const char *r = end + 1; *r; r++)
        if (!((*r >= '0' && *r <= '9') || (*r >= 'a' && *r <= 'f'))) return 0;
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Remove the temporaries that killed runs left beside dir/base. Best
 * effort: a directory we cannot list is simply not cleaned. */
static void clean_stale(const char *dir, const char *base)
{
    char prefix[TMP_BASE_MAX + HOST_MAX + 32];
    tmp_prefix(base, prefix, sizeof prefix);
    DIR *dp = opendir(*dir ? dir : ".");
    if (!dp) return;
    const size_t dlen = strlen(dir);
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (!is_stale(e->d_name, prefix)) continue;
        const size_t len = dlen + strlen(e->d_name) + 1;
        char *full = malloc(len);
        if (!full) break;
        snprintf(full, len, "%s%s", dir, e->d_name);
        struct stat st;
        if (lstat(full, &st) == 0 && S_ISREG(st.st_mode)) unlink(full);
        free(full);
    }
    closedir(dp);
}

void bsl_out_clean(const char *path)
{
    if (!path || !*path || !strcmp(path, "-")) return;
    char *dir = dir_part(path);
    if (!dir) return;
    clean_stale(dir, base_part(path));
    free(dir);
}

/* ----------------------------------------------------------- targets */

/* The descriptor named by /dev/stdout, /dev/stderr, /dev/fd/N or
 * /proc/self/fd/N, or -1: those are written in place, never resolved to
 * whatever file the descriptor happens to be. */
static int named_fd(const char *path)
{
    if (!strcmp(path, "/dev/stdout")) return 1;
    if (!strcmp(path, "/dev/stderr")) return 2;
    const char *num = NULL;
    if (!strncmp(path, "/dev/fd/", 8)) num = path + 8;
    else if (!strncmp(path, "/proc/self/fd/", 14)) num = path + 14;
    if (!num || *num < '0' || *num > '9') return -1;
    char *end;
    const long fd = strtol(num, &end, 10);
    return *end || fd > 1 << 20 ? -1 : (int)fd;
}

/* Follow symbolic links from path to the name of the file at the end (a
 * new string in *target) and lstat it: *exists = 0 when nothing is there
 * yet (a new file, or a dangling link whose target will be created). */
static int resolve(const char *path, char **target, struct stat *st, int *exists)
{
    char *cur = bsl_strdup(path);
    for (int hops = 0; cur; hops++) {
        if (lstat(cur, st) != 0) {
            if (errno != ENOENT) break;
            *exists = 0;
            *target = cur;
            return 0;
        }
        if (!S_ISLNK(st->st_mode)) {
            *exists = 1;
            *target = cur;
            return 0;
        }
        if (hops == MAX_LINKS) {
            errno = ELOOP;
            break;
        }
        const size_t cap = (size_t)st->st_size + 1 > 4096 ? (size_t)st->st_size + 1 : 4096;
        char *link = malloc(cap);
        ssize_t n = link ? readlink(cur, link, cap - 1) : -1;
        if (n < 0) {
            if (!link) errno = ENOMEM;
            free(link);
            break;
        }
        link[n] = '\0';
        char *next;
        if (link[0] == '/') {
            next = link;
        } else { /* relative to the directory holding the link */
            char *dir = dir_part(cur);
            const size_t len = (dir ? strlen(dir) : 0) + (size_t)n + 1;
            next = dir ? malloc(len) : NULL;
            if (next) snprintf(next, len, "%s%s", dir, link);
            free(dir);
            free(link);
            if (!next) errno = ENOMEM;
        }
        free(cur);
        cur = next;
    }
    const int e = errno;
    free(cur);
    errno = e;
    return -1;
}

/* What we refuse to write over, or NULL. */
static const char *refused_kind(mode_t mode)
{
    if (S_ISDIR(mode)) return "is a directory";
    if (S_ISBLK(mode)) return "is a block device (basel writes only to files, character devices and pipes)";
    if (S_ISSOCK(mode)) return "is a socket (basel writes only to files, character devices and pipes)";
    return NULL;
}

/* ------------------------------------------------------------- opening */

/* A new file beside target, exclusive, in o->tmp; -1 with errno. */
static int create_temp(bsl_outfile *o, const char *dir, const char *base)
{
    static unsigned long counter;
    unsigned long n;
#pragma omp atomic capture
    n = ++counter;
    char prefix[TMP_BASE_MAX + HOST_MAX + 32];
    tmp_prefix(base, prefix, sizeof prefix);
    const size_t cap = strlen(dir) + strlen(prefix) + 48;
    if (!(o->tmp = malloc(cap))) {
        errno = ENOMEM;
        return -1;
    }
    /* the clock's nanoseconds and a counter: unique within the process, and
     * not guessable enough for another user to occupy every name we try */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long salt = ((unsigned long)ts.tv_nsec ^ n << 20) * 2654435761UL;
    for (int attempt = 0; attempt < 100; attempt++) {
        snprintf(o->tmp, cap, "%s%s%ld.%08lx", dir, prefix, (long)getpid(), salt & 0xffffffffUL);
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
        salt = salt * 6364136223846793005UL + 1442695040888963407UL;
    }
    return -1;
}

/* Give the temporary file the owner, group and mode of the file it
 * replaces. Owner and group are best effort (only root may give a file
 * away); the mode is set after them because chown clears set-id bits. */
static void copy_attributes(int fd, const struct stat *old)
{
    struct stat now;
    if (fstat(fd, &now) == 0 && (now.st_uid != old->st_uid || now.st_gid != old->st_gid))
        if (fchown(fd, old->st_uid, old->st_gid) != 0 && fchown(fd, (uid_t)-1, old->st_gid) != 0) {
            /* keep ours */
        }
    if (fchmod(fd, old->st_mode & 07777) != 0) {
        /* the umask's mode stays: not worth failing a fit over */
    }
}

static int open_atomic(bsl_outfile *o, const struct stat *old, int exists)
{
    char *dir = dir_part(o->target);
    if (!dir) {
        errno = ENOMEM;
        return -1;
    }
    const char *base = base_part(o->target);
    clean_stale(dir, base);
    int fd = create_temp(o, dir, base);
    free(dir);
    if (fd < 0) return -1;
    if (exists) copy_attributes(fd, old);
    if (!(o->fp = fdopen(fd, "w"))) {
        const int e = errno;
        close(fd);
        unlink(o->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

static int open_in_place(bsl_outfile *o, int fd)
{
    if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
        const int e = errno;
        if (fd >= 0) close(fd);
        errno = e;
        return -1;
    }
    return 0;
}

static void release(bsl_outfile *o)
{
    free(o->path);
    free(o->target);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int bsl_out_open(bsl_outfile *o, const char *path, basel_error *err)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->fp = stdout;
        return BASEL_OK;
    }
    if (!(o->path = bsl_strdup(path))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const int fdn = named_fd(path);
    struct stat st;
    int exists = 0, rc;
    if (fdn >= 0) {
        o->target = bsl_strdup(path);
        rc = o->target ? open_in_place(o, fcntl(fdn, F_DUPFD_CLOEXEC, 3)) : -1;
    } else if (resolve(path, &o->target, &st, &exists) != 0) {
        rc = -1;
    } else if (exists && refused_kind(st.st_mode)) {
        bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot write: %s", refused_kind(st.st_mode));
        release(o);
        return BASEL_EIO;
    } else if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        /* O_NOCTTY: writing to a terminal must not make it ours */
        rc = open_in_place(o, open(o->target, O_WRONLY | O_CLOEXEC | O_NOCTTY));
    } else {
        rc = open_atomic(o, &st, exists);
    }
    if (rc != 0) {
        const int e = errno;
        release(o);
        if (e == ENOMEM) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot write: %s", strerror(e));
    }
    return BASEL_OK;
}

/* ------------------------------------------------------------ closing */

/* Make a rename durable: fsync the directory that holds the target. Best
 * effort, as not every file system supports it. */
static void sync_dir(const char *target)
{
    char *dir = dir_part(target);
    if (!dir) return;
    int fd = open(*dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        if (fsync(fd) != 0) { /* nothing more to do */
        }
        close(fd);
    }
    free(dir);
}

int bsl_out_commit(bsl_outfile *o, basel_error *err)
{
    int rc = BASEL_OK;
    if (!o->target) { /* stdout */
        const int e = errno ? errno : EIO;
        if (ferror(o->fp)) rc = bsl_fail(err, BASEL_EIO, "cannot write to stdout: %s", strerror(e));
        else if (fflush(o->fp) != 0) rc = bsl_fail(err, BASEL_EIO, "cannot write to stdout: %s", strerror(errno));
        release(o);
        return rc;
    }
    /* a write that failed earlier left its reason in errno, unless later
     * calls replaced it: the best guess stdio allows */
    int e = errno ? errno : EIO;
    int bad = ferror(o->fp) != 0;
    if (!bad && fflush(o->fp) != 0) {
        e = errno;
        bad = 1;
    }
    /* fsync: the data is on disk before the rename makes it visible */
    if (!bad && o->tmp && fsync(fileno(o->fp)) != 0) {
        e = errno;
        bad = 1;
    }
    if (fclose(o->fp) != 0 && !bad) {
        e = errno;
        bad = 1;
    }
    if (!bad && o->tmp) {
        if (rename(o->tmp, o->target) != 0) {
            e = errno;
            bad = 1;
        } else {
            sync_dir(o->target);
        }
    }
    if (bad) {
        if (o->tmp) unlink(o->tmp);
        rc = bsl_fail_at(err, BASEL_EIO, o->path, 0, 0, "cannot write: %s", strerror(e));
    }
    release(o);
    return rc;
}

void bsl_out_abort(bsl_outfile *o)
{
    if (o->target) {
        if (o->fp) fclose(o->fp);
        if (o->tmp) unlink(o->tmp);
    }
    release(o);
}
