/*
 * fuzz_ckpt.c: libFuzzer target for the checkpoint reader (src/run/chains.c
 * ck_verify and ck_read, src/run/ckpt.c, and each engine's chain_io). The
 * input is the bytes of a checkpoint file. The reader takes a path and
 * reads the file twice (the CRC-32 pass, then the state), so the bytes go to
 * a file of this process's own in TMPDIR, and a fit of a fixed run is
 * restarted from it with basel_fit_run and the option "restart".
 *
 * A checkpoint continues only the run that wrote it (its header carries the
 * run's identity: options, data and seed), so the target knows six runs,
 * told apart by their seeds, and restarts the one whose seed the file's
 * header names (bsl_chains_ckpt_seed; the first run when it names none of
 * them, which then refuses it). Every run is small (lin_p15_n200, quine,
 * pima_tr or sinc, one chain, one thread), so an input that restarts costs the rest of a
 * short run:
 *
 *     seed 1: rj    data/linear/lin_p15_n200.csv --inputs x1,x2,x3 --iter 200000 --burn 1000
 *     seed 2: bd    data/linear/lin_p15_n200.csv --inputs x1,x2,x3 --iter 20000 --burn 200
 *     seed 3: ssvs  data/linear/lin_p15_n200.csv --inputs x1,x2,x3 --iter 20000 --burn 200
 *     seed 4: rj    data/count/quine.csv --inputs eth_n,sex_m,lrn_sl --family poisson
 *                   --iter 5000 --burn 200
 *     seed 5: mixture data/classification/pima_tr.csv --inputs npreg,glu,bp
 *                   --iter 600 --burn 100
 *     seed 6: rbf   data/regression/sinc_vermaak_train.csv --target y --inputs x
 *                   --iter 500 --burn 8000 --kmax 8
 *
 * (all with --chains 1 --threads 1 --seed N). Three inputs keep a file
 * under 50 kB: most of it is the chain's trace for R-hat, (inputs + 1) x
 * 1000 doubles. The runs are long enough (0.05 to 0.15 s) for a checkpoint
 * every 0.01 s to be written part-way. tests/fuzz/corpus/ckpt holds
 * checkpoints of these runs written by `basel fit ... --checkpoint FILE
 * --checkpoint-every 0.01` (tests/fuzz/make_ckpt_corpus.sh makes them again
 * when the format or the version changes), a truncated and a bit-flipped
 * copy.
 *
 * The checksum. A file's CRC-32 trailer refuses almost every mutation before
 * the state is read, which would leave the structural checks behind it
 * (lengths, layout words, chain markers, each engine's state checks)
 * unreached. So this target defines LLVMFuzzerCustomMutator: it mutates as
 * libFuzzer does, then, for 7 mutations in 8, writes the CRC-32 of the
 * mutated bytes into the last 4 bytes, as basel would have. The input the
 * reader sees is then exactly the corpus file (no fix-up inside the
 * check), so a crash found replays as it is, and 1 mutation in 8 still
 * reaches the checksum's refusal.
 *
 * The property: the restart gives BASEL_OK with a fit whose summary is not
 * empty, or an error code with a message and no fit; nothing may crash,
 * hang, leak or trigger undefined behaviour. A broken property is printed
 * and traps, so the fuzzer keeps the input.
 *
 * Built and run by tools/fuzz.sh (from the repository root: the data files
 * are read by their relative paths); tests/unit/io/test_fuzz_replay.c
 * includes this file with FUZZ_NO_ENTRY defined and replays the corpus.
 */
#include "basel.h"
#include "run/chains.h"

#include "fuzz_entry.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

typedef struct fuzz_ckpt_run {
    const char *seed, *data;        /* the run's seed, its table */
    const char *const (*set)[2];    /* its other options */
    size_t nset;
} fuzz_ckpt_run;

#define FUZZ_CKPT_LIN {"inputs", "x1,x2,x3"}
static const char *const fuzz_ckpt_rj[][2] = {{"method", "rj"}, {"iter", "200000"}, {"burn", "1000"}, FUZZ_CKPT_LIN};
static const char *const fuzz_ckpt_bd[][2] = {{"method", "bd"}, {"iter", "20000"}, {"burn", "200"}, FUZZ_CKPT_LIN};
static const char *const fuzz_ckpt_ssvs[][2] = {{"method", "ssvs"}, {"iter", "20000"}, {"burn", "200"}, FUZZ_CKPT_LIN};
static const char *const fuzz_ckpt_pois[][2] = {
    {"method", "rj"}, {"family", "poisson"}, {"iter", "5000"}, {"burn", "200"}, {"inputs", "eth_n,sex_m,lrn_sl"}};
static const char *const fuzz_ckpt_mix[][2] = {{"method", "mixture"}, {"iter", "600"}, {"burn", "100"},
                                               {"inputs", "npreg,glu,bp"}};
static const char *const fuzz_ckpt_rbf[][2] = {
    {"method", "rbf"}, {"iter", "500"}, {"burn", "8000"}, {"kmax", "8"}, {"target", "y"}, {"inputs", "x"}};

#define FUZZ_CKPT_RUN(seed, data, set) {seed, data, set, sizeof set / sizeof *set}
static const fuzz_ckpt_run fuzz_ckpt_runs[] = {
    FUZZ_CKPT_RUN("1", "data/linear/lin_p15_n200.csv", fuzz_ckpt_rj),
    FUZZ_CKPT_RUN("2", "data/linear/lin_p15_n200.csv", fuzz_ckpt_bd),
    FUZZ_CKPT_RUN("3", "data/linear/lin_p15_n200.csv", fuzz_ckpt_ssvs),
    FUZZ_CKPT_RUN("4", "data/count/quine.csv", fuzz_ckpt_pois),
    FUZZ_CKPT_RUN("5", "data/classification/pima_tr.csv", fuzz_ckpt_mix),
    FUZZ_CKPT_RUN("6", "data/regression/sinc_vermaak_train.csv", fuzz_ckpt_rbf),
};
#define FUZZ_CKPT_NRUNS (sizeof fuzz_ckpt_runs / sizeof *fuzz_ckpt_runs)

/* Each run's table, read once (the target's cost is the restart), with
 * the run's options: mixture reads its class column as labels. */
static basel_data *fuzz_ckpt_table(size_t i)
{
    static basel_data *tables[FUZZ_CKPT_NRUNS];
    if (!tables[i]) {
        basel_error err;
        basel_options *o = NULL;
        if (basel_options_create(&o)) abort();
        for (size_t k = 0; k < fuzz_ckpt_runs[i].nset; k++)
            basel_options_set(o, fuzz_ckpt_runs[i].set[k][0], fuzz_ckpt_runs[i].set[k][1], &err);
        const int rc = basel_data_read(&tables[i], fuzz_ckpt_runs[i].data, NULL, o, &err);
        basel_options_free(o);
        if (rc) {
            fprintf(stderr, "fuzz_ckpt: %s: %s (run from the repository root)\n", fuzz_ckpt_runs[i].data, err.message);
            abort();
        }
    }
    return tables[i];
}

/* The run whose seed the file's header names (the first when none). */
static size_t fuzz_ckpt_pick(const char *path)
{
    unsigned long seed = 0;
    if (bsl_chains_ckpt_seed(path, &seed)) return 0;
    for (size_t i = 0; i < FUZZ_CKPT_NRUNS; i++)
        if (strtoul(fuzz_ckpt_runs[i].seed, NULL, 10) == seed) return i;
    return 0;
}

/* The status of the restart, for the replay's expectations (INT_MIN: not run). */
static int fuzz_ckpt_last_rc = INT_MIN;

/* NULL when every property holds for this input, else the one that broke. */
static const char *fuzz_ckpt_check(const uint8_t *data, size_t size)
{
    static char path[512];
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/basel-fuzz-ckpt.%ld.ck", dir && *dir ? dir : "/tmp", (long)getpid());
    }
    fuzz_ckpt_last_rc = INT_MIN;
    FILE *fp = fopen(path, "wb");
    if (!fp) return NULL; /* not the reader's fault */
    const int written = fwrite(data, 1, size, fp) == size;
    if (fclose(fp) != 0 || !written) return NULL;
    const fuzz_ckpt_run *run = &fuzz_ckpt_runs[fuzz_ckpt_pick(path)];
    basel_options *o = NULL;
    basel_error err;
    if (basel_options_create(&o)) return NULL;
    for (size_t i = 0; i < run->nset; i++) basel_options_set(o, run->set[i][0], run->set[i][1], &err);
    basel_options_set(o, "chains", "1", &err);
    basel_options_set(o, "threads", "1", &err);
    basel_options_set(o, "seed", run->seed, &err);
    basel_options_set(o, "restart", path, &err);
    basel_fit *fit = NULL;
    memset(&err, 0, sizeof err);
    const int rc = basel_fit_run(&fit, fuzz_ckpt_table((size_t)(run - fuzz_ckpt_runs)), o, &err);
    fuzz_ckpt_last_rc = rc;
    const char *bad = NULL;
    if (rc == BASEL_OK && !fit) bad = "BASEL_OK without a fit";
    else if (rc != BASEL_OK && fit) bad = "an error with a fit";
    else if (rc != BASEL_OK && !err.message[0]) bad = "an error without a message";
    else if (rc == BASEL_OK) {
        char *s = basel_fit_summary(fit);
        if (!s || !*s) bad = "a fit without a summary";
        basel_free(s);
    }
    basel_fit_free(fit);
    basel_options_free(o);
    unlink(path);
    return bad;
}

#ifndef FUZZ_NO_ENTRY
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* libFuzzer's mutation, then (7 times in 8) the CRC-32 trailer basel would
 * have written for the mutated bytes (little-endian, zlib's crc32 of all
 * bytes before it, as ck_write computes it). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    size = LLVMFuzzerMutate(data, size, max_size);
    if (size > 4 && seed % 8 != 0) {
        const unsigned long crc = crc32(0L, data, (uInt)(size - 4));
        for (int i = 0; i < 4; i++) data[size - 4 + i] = (uint8_t)(crc >> (8 * i));
    }
    return size;
}
#endif

BSL_FUZZ_ENTRY(fuzz_ckpt_check, "fuzz_ckpt")
