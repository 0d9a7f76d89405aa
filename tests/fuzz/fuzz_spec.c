/*
 * fuzz_spec.c: libFuzzer target for the "NAME[:key=value,...]" option
 * parsers. The input, copied and NUL-terminated, goes to bsl_spec_parse,
 * bsl_coef_prior_parse (n = 100 with c = 1 and c = 2), bsl_mprior_parse
 * (m = 10) and bsl_dict_create on tiny fixed inputs (n = 4, d = 1 and
 * n = 3, d = 2). Each must give BASEL_OK or BASEL_EINVAL with a message; what
 * parses must keep its invariants and be usable: a spec has a name and
 * distinct keys, a prior's log densities and description can be computed,
 * and a dictionary has the promised number of atoms and evaluates each one.
 * A broken property is printed and traps, so the fuzzer keeps the input.
 *
 * tests/unit/io/test_fuzz_replay.c includes this file with FUZZ_NO_ENTRY
 * defined and replays tests/fuzz/corpus/spec/ through fuzz_spec_check.
 *
 * Build (from the repository root):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fopenmp -D_XOPEN_SOURCE=700
 *         -Iinclude -Isrc $(find src -name '*.c' ! -path '*cli*') tests/fuzz/fuzz_spec.c
 *         -lgsl -ljansson -llapacke -lopenblas -lm -o fuzz_spec
 * Run:   ./fuzz_spec -max_total_time=300 tests/fuzz/corpus/spec
 */
#include "basis/basis.h"
#include "model/model.h"
#include "prior/prior.h"

#include "fuzz_entry.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

static const char *fuzz_spec_error_ok(int rc, const basel_error *err, const char *what)
{
    return rc == BASEL_EINVAL && err->message[0] ? NULL : what;
}

static const char *fuzz_spec_plain(const char *text)
{
    bsl_spec s;
    basel_error err = {0};
    int rc = bsl_spec_parse(&s, "basis", text, &err);
    if (rc) return fuzz_spec_error_ok(rc, &err, "spec: bad status");
    if (!s.name[0] || strlen(s.name) >= sizeof s.name || s.nkv > BSL_SPEC_MAXKV) return "spec: bad name or count";
    for (size_t i = 0; i < s.nkv; i++) {
        if (!s.key[i][0] || !s.val[i][0]) return "spec: an empty key or value";
        for (size_t j = 0; j < i; j++)
            if (!strcmp(s.key[i], s.key[j])) return "spec: a repeated key";
    }
    double v;
    for (size_t i = 0; i < s.nkv; i++) {
        memset(&err, 0, sizeof err);
        rc = bsl_spec_double(&s, s.key[i], 0, -1e300, 1e300, &v, &err);
        if (rc && fuzz_spec_error_ok(rc, &err, "x")) return "spec_double: bad status";
    }
    memset(&err, 0, sizeof err);
    rc = bsl_spec_finish(&s, "", &err);
    return rc && fuzz_spec_error_ok(rc, &err, "x") ? "spec_finish: bad status" : NULL;
}

static const char *fuzz_spec_coef(const char *text, size_t c)
{
    bsl_coef_prior p;
    basel_error err = {0};
    int rc = bsl_coef_prior_parse(&p, text, 100, c, &err);
    if (rc) return fuzz_spec_error_ok(rc, &err, "prior: bad status");
    if (!p.type || bsl_coef_prior_type_find(p.type->name) != p.type) return "prior: type not in the table";
    /* a realistic model: n = 100, q = 1, k = 3 */
    const double quad[2] = {41.7, 12.9}, yy[2] = {87.3, 55.1};
    (void)bsl_coef_tau(&p);
    (void)bsl_log_ml_formula(&p, 100, 1, c, 3, 2.385, quad, yy);
    return NULL;
}

static const char *fuzz_spec_mprior(const char *text)
{
    bsl_mprior mp;
    basel_error err = {0};
    int rc = bsl_mprior_parse(&mp, text, 10, &err);
    if (rc) return fuzz_spec_error_ok(rc, &err, "model prior: bad status");
    if (mp.m != 10 || mp.kmax != 10) return "model prior: m or kmax changed";
    for (size_t k = 0; k <= 10; k++) (void)bsl_mprior_log(&mp, k);
    char buf[64];
    bsl_mprior_describe(&mp, buf, sizeof buf);
    return buf[0] ? NULL : "model prior: empty description";
}

static const char *fuzz_spec_dict(const char *text, const double *X, size_t n, size_t d)
{
    bsl_dict *dict = NULL;
    basel_error err = {0};
    int rc = bsl_dict_create(&dict, text, X, n, d, &err);
    if (rc) return dict ? "dict: an error with a result" : fuzz_spec_error_ok(rc, &err, "dict: bad status");
    const char *bad = NULL;
    if (dict->d != d || dict->m == 0) bad = "dict: wrong size";
    if (dict->kind == BSL_BASIS_LINEAR && dict->m != d) bad = "dict: linear m != d";
    /* radial: a kernel per training point, per width for a multi-scale gauss (basis.h) */
    if (bsl_basis_is_radial(dict->kind) && dict->m != n * (dict->widths ? dict->m / n : 1))
        bad = "dict: radial m is not n times the number of widths";
    if (dict->widths && (dict->kind != BSL_BASIS_GAUSS || dict->m % n || dict->m / n > BSL_DICT_MAX_WIDTHS))
        bad = "dict: per-atom widths on a dictionary that is not a multi-scale gauss";
    for (size_t j = 0; dict->widths && j < dict->m && !bad; j++)
        if (!(dict->widths[j] > 0 && isfinite(dict->widths[j]))) bad = "dict: a width that is not positive";
    double out[4];
    char name[64];
    for (size_t j = 0; j < dict->m && !bad; j++) {
        bsl_dict_eval(dict, j, X, n, n, out);
        bsl_dict_atom_name(dict, j, NULL, name, sizeof name);
        if (!name[0]) bad = "dict: an atom without a name";
    }
    bsl_dict_free(dict);
    return bad;
}

/* NULL when every property holds for this input, else the one that broke. */
static const char *fuzz_spec_check(const uint8_t *data, size_t size)
{
    static const double x1[4] = {-1.3, 0.2, 0.7, 2.385};            /* n = 4, d = 1 */
    static const double x2[6] = {0.5, -2.1, 1.7, 3.2, 0.0, -0.45}; /* n = 3, d = 2, column-major */
    char *text = malloc(size + 1);
    if (!text) return NULL;
    memcpy(text, data, size);
    text[size] = 0;
    const char *bad = fuzz_spec_plain(text);
    if (!bad) bad = fuzz_spec_coef(text, 1);
    if (!bad) bad = fuzz_spec_coef(text, 2);
    if (!bad) bad = fuzz_spec_mprior(text);
    if (!bad) bad = fuzz_spec_dict(text, x1, 4, 1);
    if (!bad) bad = fuzz_spec_dict(text, x2, 3, 2);
    free(text);
    return bad;
}

BSL_FUZZ_ENTRY(fuzz_spec_check, "fuzz_spec")
