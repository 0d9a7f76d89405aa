/*
 * test_fuzz_replay.c: replays every file in tests/fuzz/corpus/{csv,fit,spec,stats,ckpt,npy}/
 * (seeds, and inputs the fuzzers once broke on) so the ordinary test run
 * keeps those bugs fixed. fit/ and spec/ go through the very checks of the
 * fuzz targets, which it includes: fuzz_fit_check (load, summary, PIPs,
 * dump-and-reload, predict with every model) and fuzz_spec_check (the spec,
 * --prior, --model-prior and --basis parsers); csv/ through the CSV reader
 * as tests/fuzz/fuzz_csv.c drives it; ckpt/ through fuzz_ckpt_check (a
 * restart of a small fit from the file), where a file named ok-* must
 * restart (BASEL_OK: the seeds still match the format, the version and the
 * target's runs; tests/fuzz/make_ckpt_corpus.sh writes them again) and one
 * named bad-* must be refused; npy/ through fuzz_npy_check (as doubles and
 * as int8 codes, the same cells). Each file must load or fail with
 * BASEL_EPARSE or BASEL_EINVAL and a message, never crash. Run from the
 * repository root; BASEL_REPLAY_VERBOSE=1 prints each fit's load status.
 */
#define FUZZ_NO_ENTRY
#include "check.h"
#include "fuzz/fuzz_fit.c"
#include "fuzz/fuzz_spec.c"
#include "fuzz/fuzz_stats.c"
#include "fuzz/fuzz_ckpt.c"
#include "fuzz/fuzz_npy.c"
#include "io/io.h"

#include <dirent.h>

#define CORPUS_FIT "tests/fuzz/corpus/fit"
#define CORPUS_SPEC "tests/fuzz/corpus/spec"
#define CORPUS_CSV "tests/fuzz/corpus/csv"
#define CORPUS_STATS "tests/fuzz/corpus/stats"
#define CORPUS_CKPT "tests/fuzz/corpus/ckpt"
#define CORPUS_NPY "tests/fuzz/corpus/npy"

typedef const char *(*replay_fn)(const uint8_t *data, size_t size);

/* The whole file in a buffer of exactly its size (no terminating NUL, so
 * ASan sees any read past the end). */
static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    uint8_t *buf = NULL;
    size_t n = 0;
    if (fseek(fp, 0, SEEK_END) == 0) {
        long size = ftell(fp);
        rewind(fp);
        if (size >= 0 && (buf = malloc(size ? (size_t)size : 1))) n = fread(buf, 1, (size_t)size, fp);
    }
    fclose(fp);
    *len = n;
    return buf;
}

/* A CSV input reads or fails with BASEL_EPARSE; what reads passes the
 * numeric check column by column, and reads again with its last column as
 * the class labels. */
static const char *csv_check(const uint8_t *data, size_t len)
{
    const char *text = (const char *)data, *bad = NULL;
    basel_data *d = NULL;
    basel_error err;
    int rc = basel_data_read_buffer(&d, "corpus.csv", text, len, NULL, &err);
    if (rc != BASEL_OK && rc != BASEL_EPARSE) return "csv: bad status";
    if (rc == BASEL_OK && d) {
        for (size_t j = 0; j < d->p && !bad; j++) {
            const int c = bsl_data_check_numeric(d, j, "input", &err);
            if (c != BASEL_OK && c != BASEL_EPARSE) bad = "csv: bad status of a column check";
        }
        basel_data *l = NULL;
        if (!bad && basel_data_read_buffer(&l, "corpus.csv", text, len, d->names[d->p - 1], &err) != BASEL_OK)
            bad = "csv: does not read with its last column as labels";
        basel_data_free(l);
    }
    basel_data_free(d);
    return bad;
}

/* How a fit file loads and predicts (bma), for BASEL_REPLAY_VERBOSE. */
static void describe_fit(const char *name, const uint8_t *data, size_t len)
{
    basel_fit *f = NULL;
    basel_data *tab = NULL;
    basel_pred *p = NULL;
    basel_error err = {0};
    int rc = bsl_fit_read_buffer(&f, name, (const char *)data, len, &err);
    printf("  %-36s load %s %s", name, basel_status_str(rc), rc ? err.message : "");
    if (!rc && !basel_data_read_buffer(&tab, "table.csv", fuzz_fit_table, sizeof fuzz_fit_table - 1, NULL, &err)) {
        rc = basel_fit_predict(f, tab, "bma", 0.9, &p, &err);
        printf("predict %s %s", basel_status_str(rc), rc ? err.message : "");
    }
    printf("\n");
    basel_pred_free(p);
    basel_data_free(tab);
    basel_fit_free(f);
}

/* Replay every file of dir through fn; the number of files. */
static size_t replay_dir(const char *dir_name, replay_fn fn, int verbose)
{
    DIR *dir = opendir(dir_name);
    CHECK(dir != NULL, "cannot open %s (run from the repository root)", dir_name);
    if (!dir) return 0;
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir_name, e->d_name);
        size_t len = 0;
        uint8_t *data = read_all(path, &len);
        CHECK(data != NULL, "%s: readable", path);
        if (!data) continue;
        const char *bad = fn(data, len);
        CHECK(bad == NULL, "%s: %s", path, bad ? bad : "");
        if (verbose && fn == fuzz_fit_check) describe_fit(e->d_name, data, len);
        if (fn == fuzz_ckpt_check) {
            if (!strncmp(e->d_name, "ok-", 3))
                CHECK(fuzz_ckpt_last_rc == BASEL_OK, "%s: restarts (status %d)", path, fuzz_ckpt_last_rc);
            else if (!strncmp(e->d_name, "bad-", 4))
                CHECK(fuzz_ckpt_last_rc != BASEL_OK && fuzz_ckpt_last_rc != INT_MIN, "%s: refused", path);
            if (verbose) printf("  %-36s restart %s\n", e->d_name, basel_status_str(fuzz_ckpt_last_rc));
        }
        free(data);
        files++;
    }
    closedir(dir);
    return files;
}

int main(void)
{
    const char *v = getenv("BASEL_REPLAY_VERBOSE");
    const int verbose = v && *v && strcmp(v, "0") != 0;
    const size_t nfit = replay_dir(CORPUS_FIT, fuzz_fit_check, verbose);
    const size_t nspec = replay_dir(CORPUS_SPEC, fuzz_spec_check, verbose);
    const size_t ncsv = replay_dir(CORPUS_CSV, csv_check, verbose);
    const size_t nstats = replay_dir(CORPUS_STATS, fuzz_stats_check, verbose);
    const size_t nckpt = replay_dir(CORPUS_CKPT, fuzz_ckpt_check, verbose);
    const size_t nnpy = replay_dir(CORPUS_NPY, fuzz_npy_check, verbose);
    CHECK(nfit >= 10, "fit corpus has %zu files", nfit);
    CHECK(nspec >= 10, "spec corpus has %zu files", nspec);
    CHECK(ncsv >= 10, "csv corpus has %zu files", ncsv);
    CHECK(nstats >= 4, "stats corpus has %zu files", nstats);
    CHECK(nckpt >= 6, "ckpt corpus has %zu files", nckpt);
    CHECK(nnpy >= 10, "npy corpus has %zu files", nnpy);
    return check_report("test_fuzz_replay");
}
