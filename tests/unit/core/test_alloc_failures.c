/*
 * test_alloc_failures.c: fail-the-Nth-allocation sweep (as SQLite's
 * test_malloc.c and Lua's ltests.c do), over every engine of the engine
 * table: read a tiny table, fit, write FIT.json, read it back, compute the
 * coefficient tables on demand, predict, and write the predictions CSV. A reference run counts the allocations A; then
 * for N = 1, 2, ... the Nth allocation (only that one) fails, and:
 *   - the run ends with a negative status and a message (BASEL_ENOMEM, or a
 *     clean error where a library underneath reports the failure its own
 *     way, e.g. jansson's "out of memory" while loading);
 *   - the step that failed left no output file, and no temporary file is
 *     left in the directory;
 *   - or, when the run absorbed the failure (an optional cache), its
 *     FIT.json and predictions are byte for byte the reference's;
 *   - under ASan (tools/test.sh), nothing leaks: LeakSanitizer is asked after
 *     each engine's sweep (after every run with BASEL_FAULT_EACH=1 in the
 *     environment, to find the N of a leak).
 * BASEL_FAULT_ALL=1 tries every N (minutes, not for CI);
 * BASEL_FAULT_VERBOSE=1 prints the failures reported other than ENOMEM,
 * BASEL_FAULT_TRACE=N a backtrace at the Nth allocation when it fails.
 * N runs over every allocation up to SWEEP_ALL, then with a stride chosen so
 * that at most SWEEP_SAMPLED further values are tried, up to A.
 *
 * The hook is test-only and link-time: CMake links this program alone with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,
 * --wrap=strndup,--wrap=posix_memalign, so every direct call in the library's objects (bsl_malloc
 * and the others) comes here; jansson is routed here with
 * json_set_alloc_funcs, in this program only. The library itself has no
 * hook and no global state for it. Allocations inside GSL, LAPACK, OpenMP
 * and libc are not counted.
 */
#include "check.h"
#include "engine/engine.h"

#include <basel.h>
#include <dirent.h>
#include <errno.h>
#include <execinfo.h>
#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define HAVE_LSAN 1
#else
#define HAVE_LSAN 0
#endif

#define SWEEP_ALL 300
#define SWEEP_SAMPLED 200

/* ------------------------------------------------------------ the hook */

static atomic_long alloc_count;
static atomic_long fail_at; /* 0: never */
static atomic_int counting;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t sz);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

static long trace_at; /* BASEL_FAULT_TRACE=N: a backtrace where the Nth allocation fails */

static int fail_now(void)
{
    if (!atomic_load(&counting)) return 0;
    const long k = atomic_fetch_add(&alloc_count, 1) + 1;
    const int fail = k == atomic_load(&fail_at);
    if (fail) errno = ENOMEM; /* as a real allocator's failure does (POSIX) */
    if (fail && k == trace_at) {
        void *frames[32];
        backtrace_symbols_fd(frames, backtrace(frames, 32), 2);
    }
    return fail;
}

void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t sz) { return fail_now() ? NULL : __real_calloc(n, sz); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return fail_now() ? NULL : __real_strdup(s); }
char *__wrap_strndup(const char *s, size_t n) { return fail_now() ? NULL : __real_strndup(s, n); }
int __real_posix_memalign(void **p, size_t align, size_t n);
/* the huge-page blocks (bsl_malloc, bsl_malloc_huge) */
int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    return fail_now() ? ENOMEM : __real_posix_memalign(p, align, n);
}

/* jansson 2.14's lexer does not survive a failed allocation: lex_save
 * ignores strbuffer_append_byte's status, and the truncated string then
 * trips an assert(0) in lex_scan_string (found by this test on an rbf
 * fit). Loads therefore run with the injection paused; every other
 * allocation, jansson's builders and dumpers included, is swept. */
json_t *__real_json_load_file(const char *path, size_t flags, json_error_t *error);
json_t *__real_json_loadb(const char *buffer, size_t buflen, size_t flags, json_error_t *error);
json_t *__real_json_loadf(FILE *input, size_t flags, json_error_t *error);
#define PAUSED(call)                                  \
    do {                                              \
        const int was = atomic_exchange(&counting, 0); \
        json_t *doc_ = call;                          \
        atomic_store(&counting, was);                 \
        return doc_;                                  \
    } while (0)
json_t *__wrap_json_load_file(const char *path, size_t flags, json_error_t *error)
{
    PAUSED(__real_json_load_file(path, flags, error));
}
json_t *__wrap_json_loadb(const char *buffer, size_t buflen, size_t flags, json_error_t *error)
{
    PAUSED(__real_json_loadb(buffer, buflen, flags, error));
}
json_t *__wrap_json_loadf(FILE *input, size_t flags, json_error_t *error)
{
    PAUSED(__real_json_loadf(input, flags, error));
}

static void *json_alloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
static void json_release(void *p) { free(p); }

/* ------------------------------------------------------------ the run */

/* 24 rows of x1..x3 and a target (numbers, or classes for the mixture);
 * with factor, a fourth input g of text (3 levels: a categorical input,
 * selected as one group). */
static int with_factor;
static void make_csv(char *s, size_t cap, int labels)
{
    size_t len = (size_t)snprintf(s, cap, "x1,x2,x3,%s%s\n", with_factor ? "g," : "", labels ? "class" : "y");
    unsigned long u = 777;
    for (size_t i = 0; i < 24; i++) {
        double x[3];
        for (int a = 0; a < 3; a++) {
            u = u * 6364136223846793005UL + 1442695040888963407UL;
            x[a] = (double)(u >> 11) / 9007199254740992.0 * 4 - 2;
        }
        const double noise = 0.3 * x[2] * x[1] - 0.1;
        if (labels)
            len += (size_t)snprintf(s + len, cap - len, "%.5f,%.5f,%.5f,%s\n", x[0], x[1], x[2],
                                    x[0] + noise > 0 ? "a" : "b");
        else if (with_factor)
            len += (size_t)snprintf(s + len, cap - len, "%.5f,%.5f,%.5f,%s,%.5f\n", x[0], x[1], x[2],
                                    i % 3 == 0 ? "lo" : i % 3 == 1 ? "mid" : "hi", 1 + 2 * x[0] + noise + (i % 3 == 1));
        else
            len += (size_t)snprintf(s + len, cap - len, "%.5f,%.5f,%.5f,%.5f\n", x[0], x[1], x[2],
                                    1 + 2 * x[0] + noise);
    }
}

typedef struct paths {
    char dir[64], fit[96], pred[96];
} paths;

/* Only the options the engine reads, each small. */
static void set_small(basel_options *o, const bsl_engine_def *e)
{
    basel_error err;
    basel_options_set(o, "method", e->name, &err);
    basel_options_set(o, "seed", "5", &err);
    basel_options_set(o, "threads", "1", &err);
    const char *small[][2] = {{"iter", "40"},     {"burn", "10"}, {"chains", "2"}, {"particles", "8"},
                              {"kmax", "3"},      {"top", "4"},   {"temperatures", "2"}};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) {
        const char *def = bsl_engine_default(e, small[i][0]);
        if (def && *def) basel_options_set(o, small[i][0], small[i][1], &err);
    }
}

/* The coefficient tables an engine computes on demand (engine.h's
 * model_coef, coef_density: basel_fit_model_coef and
 * basel_fit_coef_density): one model's, the model average's at another
 * level than the fit's, and the densities; part of step 6 (computing
 * from the loaded fit). The caller's arrays are not counted. */
static int on_demand(const bsl_engine_def *e, const basel_fit *g, basel_error *err)
{
    const size_t rows = basel_fit_coef_count(g);
    if (!e->model_coef || !rows) return BASEL_OK;
    double *v = __real_calloc(rows * (BASEL_COEF_NVALUES + 2), sizeof *v), *x = v + rows * BASEL_COEF_NVALUES;
    CHECK(v != NULL, "%s: the test's own arrays", e->name);
    if (!v) return BASEL_OK;
    int rc = basel_fit_model_coef(g, "hpm", 0.9, v, err);
    if (!rc) rc = basel_fit_model_coef(g, "bma", 0.9, v, err);
    if (!rc) rc = basel_fit_coef_density(g, "bma", x, 1, x + rows, err);
    free(v);
    return rc;
}

/* The step that failed (1 read, 2 options, 3 fit, 4 write, 5 load,
 * 6 coefficient tables on demand and predict, 7 write predictions), 0 when
 * none did. */
static int run(const bsl_engine_def *e, const char *csv, const paths *ps, basel_error *err, int *rc_out)
{
    const int labels = e->target == BSL_TARGET_LABELS;
    basel_data *data = NULL;
    basel_options *o = NULL;
    basel_fit *f = NULL, *g = NULL;
    basel_pred *p = NULL;
    int step = 1, rc = basel_data_read_buffer(&data, "t.csv", csv, strlen(csv), labels ? "class" : NULL, err);
    if (!rc) {
        step = 2;
        rc = basel_options_create(&o);
        if (!rc) set_small(o, e);
    }
    if (!rc) step = 3, rc = basel_fit_run(&f, data, o, err);
    if (!rc) step = 4, rc = basel_fit_write_json(f, ps->fit, err);
    if (!rc) step = 5, rc = basel_fit_read_json(&g, ps->fit, err);
    if (!rc) step = 6, rc = on_demand(e, g, err);
    if (!rc) step = 6, rc = basel_fit_predict(g, data, NULL, 0.9, &p, err);
    if (!rc) step = 7, rc = basel_pred_write_csv(p, ps->pred, err);
    basel_pred_free(p);
    basel_fit_free(g);
    basel_fit_free(f);
    basel_options_free(o);
    basel_data_free(data);
    *rc_out = rc;
    return rc ? step : 0;
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    const long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *s = __real_calloc((size_t)len + 1, 1);
    if (s && fread(s, 1, (size_t)len, fp) != (size_t)len) s[0] = 0;
    fclose(fp);
    return s;
}

static size_t files_in(const char *dir)
{
    DIR *d = opendir(dir);
    size_t k = 0;
    for (struct dirent *de; d && (de = readdir(d));) k += de->d_name[0] != '.';
    if (d) closedir(d);
    return k;
}

static int same_file(const char *path, const char *ref)
{
    char *s = slurp(path);
    const int same = s && ref && strcmp(s, ref) == 0;
    if (!same && s && ref && getenv("BASEL_FAULT_VERBOSE")) { /* where the outputs part */
        size_t i = 0;
        while (s[i] && s[i] == ref[i]) i++;
        const size_t from = i > 60 ? i - 60 : 0;
        fprintf(stderr, "%s differs at byte %zu: ...%.100s... instead of ...%.100s...\n", path, i, s + from, ref + from);
    }
    free(s);
    return same;
}

/* One engine's sweep; the number of runs in *runs. */
static void sweep(const bsl_engine_def *e, const paths *ps, int leak_each, size_t *runs)
{
    static char csv[4096];
    make_csv(csv, sizeof csv, e->target == BSL_TARGET_LABELS);
    basel_error err;
    int rc;
    atomic_store(&fail_at, 0);
    atomic_store(&alloc_count, 0);
    atomic_store(&counting, 1);
    const int step0 = run(e, csv, ps, &err, &rc);
    atomic_store(&counting, 0);
    const long total = atomic_load(&alloc_count);
    CHECK(step0 == 0, "%s: the reference run failed at step %d: %s", e->name, step0, err.message);
    if (step0) return;
    char *ref_fit = slurp(ps->fit), *ref_pred = slurp(ps->pred);
    const long stride = total > SWEEP_ALL && !getenv("BASEL_FAULT_ALL")
                            ? (total - SWEEP_ALL + SWEEP_SAMPLED - 1) / SWEEP_SAMPLED
                            : 1;
    size_t absorbed = 0, other = 0;
    for (long N = 1; N <= total; N += N < SWEEP_ALL ? 1 : stride) {
        unlink(ps->fit);
        unlink(ps->pred);
        atomic_store(&alloc_count, 0);
        atomic_store(&fail_at, N);
        atomic_store(&counting, 1);
        memset(&err, 0, sizeof err);
        const int step = run(e, csv, ps, &err, &rc);
        atomic_store(&counting, 0);
        ++*runs;
        if (step) {
            /* basel_options_create takes no basel_error: its ENOMEM has no message */
            CHECK(rc < 0 && (err.message[0] || (step == 2 && rc == BASEL_ENOMEM)),
                  "%s: N = %ld: step %d failed with %d and no message", e->name, N, step, rc);
            if (rc != BASEL_ENOMEM) other++;
            /* the document the predict step reads is the reference's own: an
             * allocation failure there must not be blamed on the file */
            CHECK(step != 6 || rc == BASEL_ENOMEM,
                  "%s: N = %ld: a table on demand or predict failed with %s (%s), not out of memory",
                  e->name, N, basel_status_str(rc), err.message);
            if (rc != BASEL_ENOMEM && getenv("BASEL_FAULT_VERBOSE"))
                fprintf(stderr, "%s: N = %ld: step %d: %s: %s\n", e->name, N, step, basel_status_str(rc), err.message);
            CHECK(step > 4 || access(ps->fit, F_OK) != 0, "%s: N = %ld: step %d failed and left FIT.json", e->name, N,
                  step);
            CHECK(access(ps->pred, F_OK) != 0, "%s: N = %ld: step %d failed and left the predictions", e->name, N,
                  step);
            CHECK(files_in(ps->dir) == (size_t)(step > 4), "%s: N = %ld: step %d left %zu files in %s", e->name, N,
                  step, files_in(ps->dir), ps->dir);
        } else {
            absorbed++;
            CHECK(same_file(ps->fit, ref_fit) && same_file(ps->pred, ref_pred),
                  "%s: N = %ld: the run absorbed the failure but its output differs from the reference", e->name,
                  N);
        }
#if HAVE_LSAN
        if (leak_each) CHECK(__lsan_do_recoverable_leak_check() == 0, "%s: N = %ld: leak (step %d)", e->name, N, step);
#endif
    }
    (void)leak_each;
#if HAVE_LSAN
    CHECK(__lsan_do_recoverable_leak_check() == 0, "%s: leaks in the sweep", e->name);
#endif
    printf("%s: %ld allocations, stride %ld beyond %d; %zu failures absorbed, %zu reported other than ENOMEM\n",
           e->name, total, stride, SWEEP_ALL, absorbed, other);
    free(ref_fit);
    free(ref_pred);
    unlink(ps->fit);
    unlink(ps->pred);
}

int main(int argc, char **argv)
{
    json_set_alloc_funcs(json_alloc, json_release);
    paths ps;
    /* in memory where there is a tmpfs: the outputs are fsync'ed, thousands
     * of times */
    snprintf(ps.dir, sizeof ps.dir, "/dev/shm/basel_alloc_XXXXXX");
    if (!mkdtemp(ps.dir)) {
        snprintf(ps.dir, sizeof ps.dir, "/tmp/basel_alloc_XXXXXX");
        if (!mkdtemp(ps.dir)) return 1;
    }
    snprintf(ps.fit, sizeof ps.fit, "%s/fit.json", ps.dir);
    snprintf(ps.pred, sizeof ps.pred, "%s/pred.csv", ps.dir);
    const char *each = getenv("BASEL_FAULT_EACH"), *trace = getenv("BASEL_FAULT_TRACE");
    trace_at = trace ? atol(trace) : 0;
    size_t runs = 0;
    for (size_t i = 0; i < bsl_engine_count(); i++) {
        const bsl_engine_def *e = bsl_engine_at(i);
        if (argc > 1 && strcmp(argv[1], e->name) != 0) continue; /* one engine: test_alloc_failures NAME */
        sweep(e, &ps, each && *each == '1', &runs);
    }
    /* a categorical input: the grouped model and the result expanded to
     * columns (test_alloc_failures factor) */
    with_factor = 1;
    for (size_t i = 0; i < bsl_engine_count(); i++) {
        const bsl_engine_def *e = bsl_engine_at(i);
        if (strcmp(e->name, "bd") != 0 && strcmp(e->name, "enumerate") != 0) continue;
        if (argc > 1 && strcmp(argv[1], "factor") != 0) continue;
        printf("with a categorical input: ");
        sweep(e, &ps, each && *each == '1', &runs);
    }
    printf("%zu runs\n", runs);
    rmdir(ps.dir);
    return check_report("test_alloc_failures");
}
