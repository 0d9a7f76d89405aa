/* util.c: checked allocation and small numeric helpers (core.h). */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "core.h"

#include <ctype.h>

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Transparent huge pages for a block of at least one huge page: the
 * 2 MB-aligned part of [p, p + bytes) is advised MADV_HUGEPAGE, so its
 * first touches fault in 2 MB pages, not 4 KB ones. Why: in the virtual
 * machines the project runs on, a page fault costs ~10-20 us, and a fit's
 * large arrays (the model sets, the coefficient table's components, the
 * design) are written once, page by page: 9200 faults were a sixth of an rj
 * fit on lin_p100 (4 x 75000 moves). Linux's default THP mode is "madvise",
 * where only advised memory gets them (glibc's own tunable
 * glibc.malloc.hugetlb=1 does the same, but is read from the environment
 * at start). Advice only: where it fails or THP is off, nothing changes. */
#define HUGE ((uintptr_t)BSL_HUGE_PAGE)
static void *advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (p && bytes >= HUGE) {
        const uintptr_t a = ((uintptr_t)p + HUGE - 1) & ~(HUGE - 1), e = ((uintptr_t)p + bytes) & ~(HUGE - 1);
        if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}

void *bsl_malloc(size_t n, size_t sz)
{
    if (sz && n > SIZE_MAX / sz) return NULL;
    const size_t bytes = n * sz;
    /* A block of 1-4 MB starts on a 2 MB boundary and is rounded up to
     * whole huge pages, so that all of it can have them (unaligned, it held
     * one at most: predict's per-row blocks, 7490 -> 4350 faults); so does
     * one of 32 MB or more, which glibc always maps on its own. Between,
     * malloc places it: glibc serves such blocks from its heap once its
     * mmap threshold has risen, and aligning them there fragmented the
     * heap (test_read's 160 MB table from a pipe peaked 50 MB higher);
     * advise_huge still covers their aligned middle. free() takes any. */
    if (bytes >= HUGE / 2 && (bytes < 2 * HUGE || bytes >= 16 * HUGE) && bytes <= SIZE_MAX - HUGE) {
        void *p = NULL;
        const size_t whole = (bytes + HUGE - 1) & ~(HUGE - 1);
        if (posix_memalign(&p, HUGE, whole) == 0) return advise_huge(p, whole);
    }
    return advise_huge(malloc(bytes > 0 ? bytes : 1), bytes);
}

void *bsl_calloc(size_t n, size_t sz) { return calloc(n ? n : 1, sz ? sz : 1); }

void *bsl_malloc_huge(size_t n, size_t sz)
{
    if (sz && n > SIZE_MAX / sz) return NULL;
    const size_t bytes = n * sz;
    if (bytes > SIZE_MAX - HUGE) return NULL;
    const size_t whole = (bytes + HUGE - 1) & ~(HUGE - 1);
    void *p = NULL;
    if (posix_memalign(&p, HUGE, whole ? whole : HUGE) != 0) return NULL;
    return advise_huge(p, whole ? whole : HUGE);
}

void *bsl_calloc_huge(size_t n, size_t sz)
{
    void *p = bsl_malloc_huge(n, sz);
    if (p) memset(p, 0, n * sz);
    return p;
}

int bsl_grow(void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return 0;
    size_t cap2 = *cap ? *cap : 8;
    while (cap2 < need) {
        if (cap2 > SIZE_MAX / 2) return -1;
        cap2 *= 2;
    }
    if (cap2 > SIZE_MAX / sz) return -1;
    void *q = realloc(*p, cap2 * sz);
    if (!q) return -1;
    *p = advise_huge(q, cap2 * sz);
    *cap = cap2;
    return 0;
}

char *bsl_format_double(char *buf, size_t len, double v, int digits)
{
    if (digits > 0) {
        snprintf(buf, len, "%.*g", digits > 17 ? 17 : digits, v);
        return buf;
    }
    /* %.15g is enough to start with: when a decimal of k <= 15 digits reads
     * back as v, v lies within 2^-53 (relative) of it, far inside the
     * 15-digit rounding interval, so %.15g prints those k digits (trailing
     * zeros dropped): 0.1, not 0.10000000000000001. Above 15 digits, the
     * first of 16 and 17 that reads back (17 always does, IEEE 754). */
    for (int p = 15; p <= 17; p++) {
        snprintf(buf, len, "%.*g", p, v);
        if (p == 17 || strtod(buf, NULL) == v || !isfinite(v)) break;
    }
    return buf;
}

/* Phases before the sampling (basel.h basel_progress): the fraction
 * callback sees 0 there and 1 after the sampling. */
static int before_sampling(const char *phase)
{
    return !strcmp(phase, "standardising") || !strcmp(phase, "columns") || !strcmp(phase, "gram") ||
           !strcmp(phase, "pairs");
}

int bsl_progress_report_later(const bsl_progress *pr, const char *phase, const char *unit, double done,
                              double total, double later)
{
    if (!pr) return 0;
    if (pr->report) {
        const basel_progress p = {phase, unit, done, total, later};
        const int r = pr->report(&p, pr->report_user);
        if (r) return r; /* BASEL_PROGRESS_STOP passes through to the chains */
    }
    if (!pr->fraction) return 0;
    const double f = before_sampling(phase)        ? 0.0
                     : strcmp(phase, "sampling") ? 1.0
                     : total > 0                 ? done / total
                                                 : 1.0;
    return pr->fraction(f > 1 ? 1 : f, pr->fraction_user);
}

int bsl_progress_report(const bsl_progress *pr, const char *phase, const char *unit, double done, double total)
{
    return bsl_progress_report_later(pr, phase, unit, done, total, NAN);
}

char *bsl_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

uint64_t bsl_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

void basel_free(void *p) { free(p); }

FILE *bsl_tmpfile(void)
{
    /* glibc's tmpfile(3) always uses P_tmpdir (/tmp), whatever TMPDIR says;
     * batch systems point TMPDIR at the job's scratch space */
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    const size_t len = strlen(dir) + sizeof "/basel-draws.XXXXXX";
    char *path = malloc(len);
    if (!path) return NULL;
    snprintf(path, len, "%s/basel-draws.XXXXXX", dir);
    const int fd = mkstemp(path);
    FILE *fp = NULL;
    if (fd >= 0) {
        unlink(path); /* nameless from now on: nothing is left behind, even by kill -9 */
        if (!(fp = fdopen(fd, "w+"))) close(fd);
    }
    free(path);
    return fp;
}

/* Optimal string alignment distance (Damerau-Levenshtein without repeated
 * edits of one substring), case-insensitive, stopping at cap + 1: three
 * rows of the dynamic programme, words beyond 63 bytes are never near. */
static size_t edit_distance(const char *a, const char *b, size_t cap)
{
    enum { MAX = 64 };
    const size_t la = strlen(a), lb = strlen(b);
    if (la >= MAX || lb >= MAX) return cap + 1;
    if ((la > lb ? la - lb : lb - la) > cap) return cap + 1;
    size_t r0[MAX], r1[MAX], r2[MAX], *prev2 = r0, *prev = r1, *cur = r2;
    for (size_t j = 0; j <= lb; j++) prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            const int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            size_t d = BSL_MIN(prev[j] + 1, cur[j - 1] + 1);
            d = BSL_MIN(d, prev[j - 1] + !same);
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]))
                d = BSL_MIN(d, prev2[j - 2] + 1);
            cur[j] = d;
        }
        size_t *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

const char *basel_suggest(const char *word, const char *const *names, size_t n)
{
    if (!word || !names) return NULL;
    const size_t len = strlen(word), cap = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    const char *best = NULL;
    size_t best_d = cap + 1;
    for (size_t i = 0; i < n; i++) {
        if (!names[i] || !strcmp(names[i], word)) continue;
        const size_t d = edit_distance(word, names[i], cap);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

double bsl_logaddexp(double a, double b)
{
    if (a == -INFINITY) return b;
    if (b == -INFINITY) return a;
    return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b));
}

double bsl_logsumexp(const double *x, size_t n)
{
    double mx = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (x[i] > mx) mx = x[i];
    if (mx == -INFINITY) return mx;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += exp(x[i] - mx);
    return mx + log(s);
}

unsigned long bsl_mix_seed(unsigned long seed, unsigned long stream)
{
    uint64_t z = (uint64_t)seed + 0x9e3779b97f4a7c15ULL * ((uint64_t)stream + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (unsigned long)(z & 0xffffffffUL) | 1UL; /* gsl's mt19937 uses 32 bits */
}
