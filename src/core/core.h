/*
 * core.h: what every part of libbasel shares: error reporting, checked
 * allocation, small numeric helpers. Internal; never installed.
 *
 * Error convention: a function that can fail returns a basel_status and
 * fills the caller's basel_error through bsl_fail / bsl_fail_at, which
 * return the code so that "return bsl_fail(err, BASEL_EINVAL, ...)" reads
 * as one statement. err may be NULL.
 */
#ifndef BSL_CORE_H
#define BSL_CORE_H

#include "basel.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define BSL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define BSL_PRINTF(a, b)
#endif

/* Set err (if not NULL) and return code. */
int bsl_fail(basel_error *err, int code, const char *fmt, ...) BSL_PRINTF(3, 4);
/* The same with a position in a file (line/column 1-based, 0 = unknown). */
int bsl_fail_at(basel_error *err, int code, const char *file, size_t line, size_t column,
                const char *fmt, ...) BSL_PRINTF(6, 7);
/* Clear err to BASEL_OK. */
void bsl_error_clear(basel_error *err);

/* calloc of n elements of size sz with overflow check; NULL on failure. */
void *bsl_calloc(size_t n, size_t sz);
/* malloc of n * sz bytes with overflow check; free() frees it. A block of
 * 1 MB or more is aligned to BSL_HUGE_PAGE, rounded up to whole ones and
 * advised to be backed by large pages (util.c advise_huge: one fault per
 * 2 MB, not per 4 kB). */
#define BSL_HUGE_PAGE ((size_t)2 << 20)
void *bsl_malloc(size_t n, size_t sz);
/* malloc (and calloc) of n * sz bytes on whole huge pages, whatever the size:
 * 2 MB-aligned, rounded up to whole ones, advised (a block's first touches
 * then cost one fault per 2 MB: in the virtual machines the project runs
 * on a 4 kB fault costs ~13 us, 3.4 ms a MB, a huge one 0.08 ms a MB). For
 * blocks written from their start and well filled (a table's components,
 * a model set's reservation, a trace of few atoms), where bsl_malloc's
 * sizes miss them or its placement splits them: it rounds only blocks of
 * 1-4 MB and 32 MB or more, and a block placed by malloc has huge pages
 * only on its aligned middle. NULL on failure; free() frees it. */
void *bsl_malloc_huge(size_t n, size_t sz);
void *bsl_calloc_huge(size_t n, size_t sz);
/* Grow *p to hold at least need elements of size sz (geometric); 0 or -1. */
int bsl_grow(void **p, size_t *cap, size_t need, size_t sz);
char *bsl_strdup(const char *s);

/* FNV-1a over n bytes at p, chained through h (start from BSL_FNV1A): an
 * identity of bytes, for checkpoints' runs and the processes of a fit to
 * compare, not a defence against a made collision. */
#define BSL_FNV1A 14695981039346656037ULL
uint64_t bsl_fnv1a(uint64_t h, const void *p, size_t n);

/* Write v as text into buf (at least 32 bytes): with digits significant
 * digits (1..17, %.*g), or digits = 0 for the shortest text that reads back
 * as exactly v (the first of %.15g, %.16g, %.17g that round-trips through
 * strtod; %.17g always does). Returns buf. */
char *bsl_format_double(char *buf, size_t len, double v, int digits);

/* Progress (basel.h basel_progress): the two callbacks a fit may have. An
 * engine's sampling sees a bsl_progress_fn (done and total units); the
 * phases before it call bsl_progress_report directly. */
typedef struct bsl_progress {
    basel_progress_fn fraction;
    void *fraction_user;
    basel_progress_report_fn report;
    void *report_user;
} bsl_progress;
typedef int (*bsl_progress_fn)(double done, double total, void *user);
/* Report done of total units of phase (static strings): to report (if set),
 * then to fraction (done / total for "sampling", 0 before it). The first
 * non-zero return (a cancel, or BASEL_PROGRESS_STOP), else 0; pr may be
 * NULL (then 0). */
int bsl_progress_report(const bsl_progress *pr, const char *phase, const char *unit, double done, double total);
/* The same with basel_progress's later (estimated CPU seconds of the
 * phases after this one; NAN: not known). */
int bsl_progress_report_later(const bsl_progress *pr, const char *phase, const char *unit, double done,
                              double total, double later);

/* A temporary file opened "w+" in $TMPDIR (else /tmp), already unlinked so
 * that it goes when closed or when the process dies; NULL with errno set on
 * failure. */
FILE *bsl_tmpfile(void);

/* log(exp(a) + exp(b)) without overflow; -inf is the identity. */
double bsl_logaddexp(double a, double b);
/* log of the sum of exp(x[i]) for i < n. */
double bsl_logsumexp(const double *x, size_t n);

/* A 64-bit mixer (splitmix64): derives independent per-chain seeds from
 * (seed, chain) so results do not depend on the thread count. */
unsigned long bsl_mix_seed(unsigned long seed, unsigned long stream);

#define BSL_MIN(a, b) ((a) < (b) ? (a) : (b))
#define BSL_MAX(a, b) ((a) > (b) ? (a) : (b))

#endif
