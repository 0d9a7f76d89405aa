/*
 * fuzz_npy.c: libFuzzer target for the NumPy .npy reader (src/io/npy.c).
 * The input is read from memory three ways: as doubles, as a fit's int8
 * codes, and as doubles with its first column as the labels. Each must give
 * BASEL_OK or BASEL_EPARSE with a message, never a crash, a leak or
 * undefined behaviour; the first two must agree on whether the input reads,
 * and, when it does, on every cell (bsl_data_at): codes hold exactly the
 * values the doubles hold. A broken property is printed and traps, so the
 * fuzzer keeps the input.
 *
 * Built and run by tools/fuzz.sh (every target, under ASan and UBSan);
 * seeds in tests/fuzz/corpus/npy (small arrays of every type and order).
 */
#include "io/io.h"

#include "fuzz_entry.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 0: read; 1: BASEL_EPARSE with a message; -1: anything else. */
static int read_mem(basel_data **d, const uint8_t *data, size_t size, const char *label, int codes)
{
    basel_error err = {0};
    FILE *fp = fmemopen((void *)data, size, "rb");
    if (!fp) return -1;
    const int rc = bsl_npy_read_fp(d, fp, "fuzz.npy", (double)size, label, codes, NULL, &err);
    fclose(fp);
    if (rc == BASEL_OK) return 0;
    return rc == BASEL_EPARSE && err.message[0] ? 1 : -1;
}

static const char *fuzz_npy_check(const uint8_t *data, size_t size)
{
    if (size == 0) return NULL; /* fmemopen wants a buffer */
    basel_data *a = NULL, *b = NULL, *l = NULL;
    const int ra = read_mem(&a, data, size, NULL, 0), rb = read_mem(&b, data, size, NULL, 1);
    const char *bad = NULL;
    if (ra < 0 || rb < 0) bad = "a status other than OK or EPARSE, or an error without a message";
    else if (ra != rb) bad = "the input reads as doubles but not as codes, or the other way";
    else if (ra == 0) {
        if (a->n != b->n || a->p != b->p || a->ncodes || (b->ncodes && b->ncodes != b->p))
            bad = "the two readings differ in shape, or the doubles hold codes";
        for (size_t j = 0; j < a->p && !bad; j++)
            for (size_t i = 0; i < a->n && !bad; i++) {
                const double x = bsl_data_at(a, i, j), y = bsl_data_at(b, i, j);
                if (!(x == y || (isnan(x) && isnan(y)))) bad = "a cell held as a code differs from its double";
            }
        if (!bad && read_mem(&l, data, size, "x1", 0) < 0) bad = "reading with a label column failed badly";
    }
    basel_data_free(a);
    basel_data_free(b);
    basel_data_free(l);
    return bad;
}

BSL_FUZZ_ENTRY(fuzz_npy_check, "fuzz_npy")
