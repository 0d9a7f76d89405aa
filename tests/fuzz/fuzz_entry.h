/*
 * fuzz_entry.h: the libFuzzer entry point of a target whose property check
 * is `const char *check(const uint8_t *data, size_t size)` (NULL when every
 * property holds). A broken property is printed and traps, so the fuzzer
 * keeps the input. Defining FUZZ_NO_ENTRY leaves the entry out, for
 * tests/unit/io/test_fuzz_replay.c, which includes the targets.
 */
#ifndef BSL_FUZZ_ENTRY_H
#define BSL_FUZZ_ENTRY_H

#include <stdint.h>
#include <stdio.h>

#ifdef FUZZ_NO_ENTRY
#define BSL_FUZZ_ENTRY(check, name)
#else
#define BSL_FUZZ_ENTRY(check, name)                                    \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);      \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)       \
    {                                                                  \
        const char *bad = check(data, size);                           \
        if (bad) {                                                     \
            fprintf(stderr, "%s: %s\n", name, bad);                    \
            __builtin_trap();                                          \
        }                                                              \
        return 0;                                                      \
    }
#endif

#endif
