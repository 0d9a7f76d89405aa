/*
 * fuzz_stats.c: libFuzzer target for the `--stats` reader (src/fit/stats.c,
 * docs/SUMMARY_STATS.md). The input is written to a file of this process's
 * own (in TMPDIR) and fitted with basel_fit_run_stats by a short bd run (50
 * iterations, 1 chain, 1 thread), so every check of the reader and of the
 * problem built from it runs. It must give BASEL_OK with a fit, or an error
 * code with a message and no fit; nothing may crash, hang, leak or trigger
 * undefined behaviour. A broken property is printed and traps, so the
 * fuzzer keeps the input.
 *
 * Built and run by tools/fuzz.sh (every target, under ASan and UBSan);
 * seeds in tests/fuzz/corpus/stats (tools/sumstats.py of small tables).
 */
#include "basel.h"

#include "fuzz_entry.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *fuzz_stats_check(const uint8_t *data, size_t size)
{
    static char path[512];
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/basel-fuzz-stats.%ld.json", dir && *dir ? dir : "/tmp", (long)getpid());
    }
    FILE *fp = fopen(path, "wb");
    if (!fp) return NULL; /* not the reader's fault */
    const int written = fwrite(data, 1, size, fp) == size;
    if (fclose(fp) != 0 || !written) return NULL;
    basel_options *o = NULL;
    basel_error err;
    if (basel_options_create(&o)) return NULL;
    const char *const set[][2] = {{"method", "bd"}, {"iter", "50"}, {"burn", "10"}, {"chains", "1"},
                                  {"threads", "1"}, {"seed", "1"}};
    for (size_t i = 0; i < sizeof set / sizeof *set; i++) basel_options_set(o, set[i][0], set[i][1], &err);
    basel_fit *fit = NULL;
    memset(&err, 0, sizeof err);
    const int rc = basel_fit_run_stats(&fit, path, o, &err);
    const char *bad = NULL;
    if (rc == BASEL_OK && !fit) bad = "BASEL_OK without a fit";
    else if (rc != BASEL_OK && fit) bad = "an error with a fit";
    else if (rc != BASEL_OK && !err.message[0]) bad = "an error without a message";
    else if (rc == BASEL_OK) {
        char *s = basel_fit_summary(fit);
        if (!s) bad = "a fit without a summary";
        basel_free(s);
    }
    basel_fit_free(fit);
    basel_options_free(o);
    unlink(path);
    return bad;
}

BSL_FUZZ_ENTRY(fuzz_stats_check, "fuzz_stats")
