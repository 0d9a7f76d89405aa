/*
 * fuzz_fit.c: libFuzzer target for the FIT.json loader and what reads a
 * loaded fit. The input is the bytes of a JSON document; it is loaded by
 * bsl_fit_read_buffer (the path basel_fit_read_json takes after reading the
 * file). A document that loads must then give a summary, its PIPs, the same
 * document after a dump and reload, and, for each of bma, prevalence, median
 * and hpm, predictions on a small fixed table whose columns are the inputs
 * of the seed fits (x1..x15, x, the Pima inputs). Every failure must be
 * BASEL_EPARSE or BASEL_EINVAL with a message; nothing may crash, hang,
 * leak or trigger undefined behaviour. A broken property is printed and
 * traps, so the fuzzer keeps the input.
 *
 * tests/unit/io/test_fuzz_replay.c includes this file with FUZZ_NO_ENTRY
 * defined and replays tests/fuzz/corpus/fit/ through fuzz_fit_check.
 *
 * Build (from the repository root):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fopenmp -D_XOPEN_SOURCE=700
 *         -Iinclude -Isrc $(find src -name '*.c' ! -path '*cli*') tests/fuzz/fuzz_fit.c
 *         -lgsl -ljansson -llapacke -lopenblas -lm -o fuzz_fit
 * Run:   ./fuzz_fit -max_total_time=300 -timeout=10 tests/fuzz/corpus/fit
 */
#include "fit/fit.h"

#include "fuzz_entry.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Four rows; every column a seed fit may name as an input. */
static const char fuzz_fit_table[] =
    "x1,x2,x3,x4,x5,x6,x7,x8,x9,x10,x11,x12,x13,x14,x15,x,y,npreg,glu,bp,skin,bmi,ped,age\n"
    "-1.68,-0.71,-0.75,-1.29,-0.48,-0.67,0.15,0.32,-0.05,0.53,-0.32,0.22,-0.52,0.42,0.79,"
    "-4.69,-0.13,5,86,68,28,30.2,0.364,24\n"
    "0.38,1.21,-0.24,0.97,2.11,-1.05,-0.42,1.66,0.88,-2.01,0.07,-0.36,1.45,-0.93,0.61,"
    "0.17,0.96,7,195,70,33,25.1,0.163,55\n"
    "2.39,-0.02,1.37,-0.55,0.29,0.81,-1.93,-0.64,1.02,0.44,-1.18,1.73,0.06,-0.27,-1.49,"
    "9.85,0.02,1,77,82,41,35.8,0.156,35\n"
    "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1e-8,0,0,0,0,0,0,0\n";

static const char *const fuzz_fit_models[] = {"bma", "prevalence", "median", "hpm"};

/* A failure must be a documented "bad document" code with a message. */
static const char *fuzz_fit_error_ok(int rc, const basel_error *err, const char *what)
{
    if (rc != BASEL_EPARSE && rc != BASEL_EINVAL) return what;
    return err->message[0] ? NULL : what;
}

/* Dump the document as basel_fit_write_json does and read it back: the
 * same fit, or the writer and the reader disagree. */
static const char *fuzz_fit_round_trip(const basel_fit *f)
{
    char *text = json_dumps(f->doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    if (!text) return NULL; /* out of memory, not a bug */
    basel_fit *g = NULL;
    basel_error err;
    int rc = bsl_fit_read_buffer(&g, "dumped", text, strlen(text), &err);
    const char *bad = rc ? "round trip: a dumped fit does not load"
                         : !json_equal(f->doc, g->doc) ? "round trip: the reloaded document differs"
                         : g->m != f->m ? "round trip: a different number of PIPs" : NULL;
    basel_fit_free(g);
    free(text);
    return bad;
}

/* Predictions with every model name on the fixed table. */
static const char *fuzz_fit_predict_all(const basel_fit *f)
{
    basel_data *tab = NULL;
    basel_error err;
    if (basel_data_read_buffer(&tab, "table.csv", fuzz_fit_table, sizeof fuzz_fit_table - 1, NULL, &err))
        return "the fixed table does not parse";
    const char *bad = NULL;
    for (size_t i = 0; i < sizeof fuzz_fit_models / sizeof *fuzz_fit_models && !bad; i++) {
        basel_pred *p = NULL;
        memset(&err, 0, sizeof err);
        int rc = basel_fit_predict(f, tab, fuzz_fit_models[i], 0.9, &p, &err);
        if (rc == BASEL_OK)
            bad = !p || basel_pred_rows(p) != basel_data_rows(tab) ? "predict: OK without all rows" : NULL;
        else
            bad = p ? "predict: an error with a result" : fuzz_fit_error_ok(rc, &err, "predict: bad status");
        basel_pred_free(p);
    }
    basel_data_free(tab);
    return bad;
}

/* NULL when every property holds for this input, else the one that broke. */
static const char *fuzz_fit_check(const uint8_t *data, size_t size)
{
    basel_fit *f = NULL;
    basel_error err;
    memset(&err, 0, sizeof err);
    int rc = bsl_fit_read_buffer(&f, "fuzz.json", (const char *)data, size, &err);
    if (rc) return f ? "load: an error with a result" : fuzz_fit_error_ok(rc, &err, "load: bad status");
    if (!f) return "load: OK without a fit";
    const char *bad = NULL;
    char *s = basel_fit_summary(f);
    if (!s || !*s) bad = "summary: empty";
    basel_free(s);
    size_t m = 0;
    const double *pip = basel_fit_pip(f, &m);
    if (!bad && !pip) bad = "pip: NULL";
    if (!bad) bad = fuzz_fit_round_trip(f);
    if (!bad) bad = fuzz_fit_predict_all(f);
    basel_fit_free(f);
    return bad;
}

BSL_FUZZ_ENTRY(fuzz_fit_check, "fuzz_fit")
