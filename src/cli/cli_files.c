/* cli_files.c: the command line's checks on its arguments before any work:
 * files that are the same (an output that would overwrite an input or
 * another output), files of the wrong kind (a directory given as a fit),
 * an output whose directory does not exist or cannot be written (found at
 * once, not when the run's work is done), options given twice.
 *
 * Two names are the same file when both exist and stat (following links)
 * gives the same device and inode, or when neither exists yet and their
 * directories resolve to the same place with the same last component.
 * Character devices are exempt: writing /dev/null twice, or reading
 * /dev/stdin while writing /dev/stdout, loses nothing. "-" is stdin as an
 * input and stdout as an output, so two outputs "-" collide and an input
 * "-" never collides with an output. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The absolute name path would have: its directory resolved, the last
 * component kept. A new string, or NULL when the directory does not exist. */
static char *canonical_new(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    if (!real) return NULL;
    const size_t len = strlen(real) + strlen(base) + 2;
    char *full = malloc(len);
    if (full) snprintf(full, len, "%s/%s", real, base);
    free(real);
    return full;
}

static int same_file(const cli_file *a, const cli_file *b)
{
    if (!strcmp(a->path, "-") || !strcmp(b->path, "-"))
        return !strcmp(a->path, b->path) && a->is_output && b->is_output;
    struct stat sa, sb;
    const int ea = stat(a->path, &sa) == 0, eb = stat(b->path, &sb) == 0;
    if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && !S_ISCHR(sa.st_mode);
    if (!strcmp(a->path, b->path)) return 1;
    if (ea || eb) return 0;
    char *ca = canonical_new(a->path), *cb = canonical_new(b->path);
    const int same = ca && cb && !strcmp(ca, cb);
    free(ca);
    free(cb);
    return same;
}

/* An output that does not exist yet: its directory must, and be writable
 * (else the file could not be made when the work is done). */
static int no_room(const cli_file *f)
{
    const char *slash = strrchr(f->path, '/');
    char *dir = slash ? strndup(f->path, slash == f->path ? 1 : (size_t)(slash - f->path)) : strdup(".");
    struct stat st;
    const char *why = !dir                                           ? NULL
                      : stat(dir, &st) != 0                          ? "its directory %s does not exist"
                      : !S_ISDIR(st.st_mode)                         ? "%s is not a directory"
                      : access(dir, W_OK | X_OK) != 0                ? "its directory %s is not writable"
                                                                     : NULL;
    if (why) {
        fprintf(stderr, "basel: %s: cannot write: ", f->path);
        fprintf(stderr, why, dir);
        fputc('\n', stderr);
    }
    free(dir);
    return why ? 2 : 0;
}

/* An input that is a directory, or an output that we would refuse to
 * write (the library refuses these too, but only after the work). */
static int wrong_kind(const cli_file *f)
{
    struct stat st;
    if (!strcmp(f->path, "-")) return 0;
    if (stat(f->path, &st) != 0) return f->is_output && (errno == ENOENT || errno == ENOTDIR) ? no_room(f) : 0;
    const char *what = S_ISDIR(st.st_mode) ? "is a directory"
                       : !f->is_output     ? NULL
                       : S_ISBLK(st.st_mode)
                           ? "is a block device (basel writes only to files, character devices and pipes)"
                       : S_ISSOCK(st.st_mode)
                           ? "is a socket (basel writes only to files, character devices and pipes)"
                           : NULL;
    if (!what) return 0;
    fprintf(stderr, "basel: %s: %s%s\n", f->path, f->is_output ? "cannot write: " : "", what);
    return 2;
}

int cli_check_files(const cli_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!files[i].path) continue;
        if (wrong_kind(&files[i])) return 2;
        for (size_t j = 0; j < i; j++) {
            const cli_file *a = &files[j], *b = &files[i]; /* a comes first */
            if (!a->path || (!a->is_output && !b->is_output) || !same_file(a, b)) continue;
            const cli_file *out = b->is_output ? b : a, *other = out == b ? a : b;
            fprintf(stderr, "basel: %s: %s is the same file as %s '%s'; %s\n", out->path, out->role,
                    other->role, other->path,
                    other->is_output ? "each output needs a file of its own"
                                     : "refusing to overwrite an input");
            return 2;
        }
    }
    return 0;
}

int cli_once(cli_seen *s, const char *cmd, const char *name)
{
    for (size_t k = 0; k < s->n; k++)
        if (!strcmp(s->names[k], name)) return cli_usage(cmd, "--%s is given twice", name);
    if (s->n < sizeof s->names / sizeof s->names[0])
        snprintf(s->names[s->n++], sizeof s->names[0], "%s", name);
    return 0;
}

/* The short options the commands take: a value that is one of them was
 * surely meant as that option (no option's value is "-o"). */
static int short_option(const char *s) { return !strcmp(s, "-o") || !strcmp(s, "-h") || !strcmp(s, "-q"); }

int cli_needs_value(const char *cmd, const char *opt, const char *value)
{
    if (value && strncmp(value, "--", 2) != 0 && !short_option(value)) return 0;
    if (!value) return cli_usage(cmd, "%s needs a value", opt);
    return cli_usage(cmd, "%s needs a value, but the next argument is the option '%s' (write %s=VALUE for a value that looks like an option)",
                     opt, value, strcmp(opt, "-o") ? opt : "--output");
}
