/*
 * fuzz_csv.c: libFuzzer target for the CSV reader. Any input must give
 * BASEL_OK or BASEL_EPARSE, never a crash, a leak or undefined behaviour;
 * a table that parses must keep the invariants csv.c promises, and its
 * subsets, labels and bad-cell checks must work too. A broken invariant
 * traps, so the fuzzer keeps the input.
 *
 * Build: clang -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1
 *        -fsanitize=fuzzer,address,undefined -Iinclude -Isrc
 *        src/core/error.c src/core/util.c src/io/csv.c src/io/csv_guard.c
 *        src/io/data.c tests/fuzz/fuzz_csv.c
 *        -lm -o fuzz_csv
 * Run:   ./fuzz_csv -max_total_time=180 tests/fuzz/corpus/csv
 */
#include "io/io.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REQUIRE(cond)                                                                    \
    do {                                                                                 \
        if (!(cond)) __builtin_trap();                                                   \
    } while (0)

/* bad[j].line is set exactly when a non-label column holds a NaN, and then
 * points at the first one. Rows come in source order unless the table is a
 * shuffled subset (in_order 0). */
static void check_invariants(const basel_data *d, int in_order)
{
    REQUIRE(d->n >= 1 && d->p >= 1);
    for (size_t j = 0; j < d->p; j++) {
        REQUIRE(d->names[j] && d->names[j][0]);
        const double *col = bsl_data_col(d, j);
        size_t first = d->n;
        for (size_t i = 0; i < d->n && first == d->n; i++)
            if (isnan(col[i])) first = i;
        if ((long)j == d->label_col) {
            REQUIRE(d->bad[j].line == 0 && first == 0);
            continue;
        }
        REQUIRE(first == d->n ? d->bad[j].line == 0 : d->bad[j].row == first);
        REQUIRE(d->bad[j].line == 0 || (d->bad[j].line >= 2 && d->bad[j].column >= 1));
        REQUIRE(strlen(d->bad[j].text) < sizeof d->bad[j].text);
        basel_error err;
        int rc = bsl_data_check_numeric(d, j, "input", &err);
        REQUIRE(rc == (d->bad[j].line ? BASEL_EPARSE : BASEL_OK));
    }
    for (size_t i = 0; d->labels && i < d->n; i++) REQUIRE(d->labels[i] != NULL);
    for (size_t i = 1; in_order && i < d->n; i++) REQUIRE(d->line_of_row[i] > d->line_of_row[i - 1]);
}

/* The rows in reverse, then row 0 again: exercises the rebuilt bad[]. */
static void check_subset(const basel_data *d)
{
    size_t n = d->n + 1;
    size_t *rows = malloc(n * sizeof *rows);
    if (!rows) return;
    for (size_t k = 0; k < d->n; k++) rows[k] = d->n - 1 - k;
    rows[d->n] = 0;
    basel_data *s = NULL;
    basel_error err;
    int rc = basel_data_subset(&s, d, rows, n, &err);
    REQUIRE(rc == BASEL_OK || rc == BASEL_ENOMEM);
    if (s) {
        REQUIRE(s->n == n && s->p == d->p && s->label_col == d->label_col);
        check_invariants(s, 0);
        for (size_t j = 0; j < s->p; j++) /* the same rows, so the same columns are bad */
            REQUIRE((s->bad[j].line == 0) == (d->bad[j].line == 0));
    }
    basel_data_free(s);
    free(rows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    basel_data *d = NULL;
    basel_error err;
    int rc = basel_data_read_buffer(&d, "fuzz", (const char *)data, size, NULL, &err);
    REQUIRE(rc == BASEL_OK || rc == BASEL_EPARSE);
    REQUIRE((rc == BASEL_OK) == (d != NULL));
    if (!d) return 0;
    check_invariants(d, 1);
    check_subset(d);
    /* again, with the last column as labels */
    basel_data *l = NULL;
    rc = basel_data_read_buffer(&l, "fuzz", (const char *)data, size, d->names[d->p - 1], &err);
    REQUIRE(rc == BASEL_OK && l->label_col == (long)(d->p - 1));
    check_invariants(l, 1);
    check_subset(l);
    basel_data_free(l);
    basel_data_free(d);
    return 0;
}
