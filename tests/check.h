/*
 * check.h: the unit-test harness. Each CHECK is one labelled property; a
 * failure prints the file, line and label, and the program's exit status is
 * the number of failures (capped), so CTest sees it.
 */
#ifndef BSL_CHECK_H
#define BSL_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_failed = 0, check_passed = 0;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (cond) {                                                          \
            check_passed++;                                                  \
        } else {                                                             \
            check_failed++;                                                  \
            fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__);          \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

/* |a - b| <= tol * max(1, |b|) */
#define CHECK_CLOSE(a, b, tol, label)                                        \
    do {                                                                     \
        double ca_ = (a), cb_ = (b);                                         \
        double sc_ = fabs(cb_) > 1 ? fabs(cb_) : 1;                          \
        CHECK(fabs(ca_ - cb_) <= (tol) * sc_, "%s: %.17g vs %.17g (tol %g)", \
              label, ca_, cb_, (double)(tol));                               \
    } while (0)

static inline int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed > 100 ? 100 : check_failed;
}

#endif
