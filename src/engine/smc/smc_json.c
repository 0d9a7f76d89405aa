/*
 * smc_json.c: save and resume the sequential RVM's particle system (smc.h).
 *
 * The JSON holds everything a later feed reads: the options, the candidate
 * cache (candidate points, G's upper triangle, s1, sy, sums; Kc is
 * recomputed from the candidate points with the same kernel code, so its
 * bits are identical), and per particle its centres, drawn beta, variances,
 * log weight, and its model's state (bsl_cmodel_state_save: factor,
 * inverse, Gram block, z, scores, counters), which the model loads back
 * bit for bit. Generators are reseeded from
 * (seed, step, index) at every step, so (seed, t) replaces their state.
 * Doubles are dumped by jansson with 17 significant digits and read back
 * exactly. Invariant of the reader: nothing is trusted; every count, index,
 * and value is checked before use, and a failure frees what was built.
 */
#include "smc_impl.h"
#include "../../core/jsonutil.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SMC_FORMAT "basel-smc"
/* 2: the particle's model state ("model") replaced version 1's "L", "z",
 * "log_ml" and "since_refactor" */
#define SMC_FORMAT_VERSION 2

/* ---- writing --------------------------------------------------------------- */

static json_t *options_json(const bsl_smc_options *o)
{
    return json_pack("{s:I, s:f, s:I, s:f, s:f, s:s, s:f, s:I, s:f, s:f, s:f, s:f, s:b, s:f, s:f, s:I, s:I, s:s, s:I}",
                     "particles", (json_int_t)o->particles, "width", o->width, "kmax",
                     (json_int_t)o->kmax, "poisson_mean", o->poisson_mean, "c_move", o->c_move,
                     "resample", bsl_smc_resample_name(o->resample_scheme), "ess_threshold",
                     o->ess_threshold, "seed", (json_int_t)o->seed, "a_sigma", o->a_sigma,
                     "b_sigma", o->b_sigma, "a_beta", o->a_beta, "b_beta", o->b_beta,
                     "sample_nuisance", o->sample_nuisance, "sigma2", o->sigma2, "sigma_beta2",
                     o->sigma_beta2, "nuisance_every", (json_int_t)o->nuisance_every, "candidates",
                     (json_int_t)o->candidates, "kernel", o->kernel == BSL_SMC_KERNEL_PAPER ? "paper" : "move",
                     "moves_per_step", (json_int_t)o->moves_per_step);
}

static json_t *cache_json(const smc_cache *C)
{
    const size_t m = C->m;
    double *g = bsl_malloc(m * (m + 1) / 2 + 1, sizeof *g);
    if (!g) return NULL;
    size_t n = 0;
    for (size_t j = 0; j < m; n += j + 1, j++) bsl_smc_gram_column(C, j, g + n); /* with the rows held back */
    json_t *j = json_pack("{s:I, s:I, s:f, s:f, s:o, s:o, s:o, s:o, s:o}", "t", (json_int_t)C->t,
                          "m", (json_int_t)m, "sum_y", C->sum_y, "yy", C->yy, "x",
                          bsl_json_doubles(C->xc, m * C->d), "y", bsl_json_doubles(C->yc, m), "G",
                          bsl_json_doubles(g, n), "s1", bsl_json_doubles(C->s1, m), "sy", bsl_json_doubles(C->sy, m));
    free(g);
    return j;
}

static json_t *particle_json(const smc_particle *P)
{
    const size_t n = bsl_cmodel_state_size(P->M);
    double *st = bsl_malloc(n + 1, sizeof *st);
    if (!st) return NULL;
    bsl_cmodel_state_save(P->M, st);
    /* JSON has no -inf: a particle whose birth failed has log_w "-inf"
     * (never null: FIT.json holds no null outside diagnostics) */
    json_t *lw = isfinite(P->log_w) ? json_real(P->log_w) : json_string("-inf");
    json_t *j = json_pack("{s:o, s:f, s:f, s:o, s:o, s:o}", "centres", bsl_json_sizes(P->centre, P->k),
                          "sigma2", P->sigma2, "sigma_beta2", P->sigma_beta2, "log_w", lw, "beta",
                          bsl_json_doubles(P->beta, P->k + 1), "model", bsl_json_doubles(st, n));
    free(st);
    return j;
}

json_t *bsl_smc_to_json(const bsl_smc *s)
{
    json_t *parts = json_array();
    for (size_t i = 0; parts && i < s->o.particles; i++)
        if (json_array_append_new(parts, particle_json(&s->p[i])) != 0) {
            json_decref(parts);
            parts = NULL;
        }
    json_t *j = json_pack("{s:s, s:i, s:s, s:I, s:I, s:o, s:o, s:o}", "format", SMC_FORMAT,
                          "format_version", SMC_FORMAT_VERSION, "generator",
                          "taus2 per particle, reseeded each step from splitmix64(seed, step, index)",
                          "d", (json_int_t)s->cache.d, "n_resample", (json_int_t)s->n_resample,
                          "options", options_json(&s->o), "cache", cache_json(&s->cache), "particles",
                          parts);
    /* the degeneracy diagnostics (smc_impl.h), once a resampling decision
     * was made: a resumed run goes on from them */
    if (j && isfinite(s->ess_min)) {
        int bad = 0;
        bsl_json_put(j, "ess_min_before_resampling", json_real(s->ess_min), &bad);
        bsl_json_put(j, "ess_min_point", json_integer((json_int_t)s->ess_min_step), &bad);
        bsl_json_put(j, "unique_ancestors", json_integer((json_int_t)s->unique_last), &bad);
        if (bad) {
            json_decref(j);
            j = NULL;
        }
    }
    return j;
}

/* ---- reading --------------------------------------------------------------- */

static int perr(basel_error *err, const char *what)
{
    return bsl_fail(err, BASEL_EPARSE, "smc fit: %s", what);
}

/* A finite number (integer or real) at key. */
static int get_num(const json_t *o, const char *key, double *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_number(v)) return -1;
    *out = json_number_value(v);
    return isfinite(*out) ? 0 : -1;
}

static int get_size(const json_t *o, const char *key, size_t lo, size_t hi, size_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v)) return -1;
    const json_int_t x = json_integer_value(v);
    if (x < (json_int_t)lo || (hi < (size_t)INT64_MAX && x > (json_int_t)hi)) return -1;
    *out = (size_t)x;
    return 0;
}

/* Exactly n finite numbers at key into x. */
static int get_reals(const json_t *o, const char *key, double *x, size_t n)
{
    const json_t *a = json_object_get(o, key);
    if (!json_is_array(a) || json_array_size(a) != n) return -1;
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, i);
        if (!json_is_number(v)) return -1;
        x[i] = json_number_value(v);
        if (!isfinite(x[i])) return -1;
    }
    return 0;
}

static int read_options(const json_t *j, bsl_smc_options *o, basel_error *err)
{
    bsl_smc_options_default(o);
    const json_t *jseed = json_object_get(j, "seed");
    const json_t *res = json_object_get(j, "resample");
    const json_t *sn = json_object_get(j, "sample_nuisance");
    const json_t *kern = json_object_get(j, "kernel");
    if (!json_is_object(j) || get_size(j, "particles", 1, 100000000, &o->particles) ||
        get_num(j, "width", &o->width) || get_size(j, "kmax", 1, 10000, &o->kmax) ||
        get_num(j, "poisson_mean", &o->poisson_mean) || get_num(j, "c_move", &o->c_move) ||
        !json_is_string(res) || get_num(j, "ess_threshold", &o->ess_threshold) ||
        !json_is_integer(jseed) || get_num(j, "a_sigma", &o->a_sigma) ||
        get_num(j, "b_sigma", &o->b_sigma) || get_num(j, "a_beta", &o->a_beta) ||
        get_num(j, "b_beta", &o->b_beta) || !json_is_boolean(sn) ||
        get_num(j, "sigma2", &o->sigma2) || get_num(j, "sigma_beta2", &o->sigma_beta2) ||
        get_size(j, "nuisance_every", 1, (size_t)INT64_MAX, &o->nuisance_every) ||
        get_size(j, "candidates", 1, 65536, &o->candidates) || !json_is_string(kern) ||
        get_size(j, "moves_per_step", 1, 1000, &o->moves_per_step))
        return perr(err, "\"options\" is missing a field or has one of the wrong type");
    o->seed = (unsigned long)json_integer_value(jseed); /* written as (json_int_t)seed */
    o->resample_scheme = bsl_smc_resample_from_name(json_string_value(res));
    o->sample_nuisance = json_is_true(sn);
    o->kernel = strcmp(json_string_value(kern), "paper") == 0 ? BSL_SMC_KERNEL_PAPER
                : strcmp(json_string_value(kern), "move") == 0 ? BSL_SMC_KERNEL_MOVE : -1;
    int rc = bsl_smc_options_check(o, err);
    return rc == BASEL_OK ? rc : BASEL_EPARSE;
}

/* Kc from the candidate points, as cache_add computed it. */
static void rebuild_kc(smc_cache *C)
{
    const size_t M = C->mcap;
    for (size_t c = 0; c < C->m; c++) {
        for (size_t i = 0; i < c; i++)
            C->Kc[i + c * M] = C->Kc[c + i * M] =
                bsl_smc_kernel(C->xc + c * C->d, C->xc + i * C->d, C->d, C->width);
        C->Kc[c + c * M] = 1.0;
    }
}

static int read_cache(const json_t *j, smc_cache *C, basel_error *err)
{
    size_t t, m;
    if (!json_is_object(j) || get_size(j, "t", 0, (size_t)INT64_MAX, &t) ||
        get_size(j, "m", 0, C->mcap, &m) || m != (t < C->mcap ? t : C->mcap) ||
        get_num(j, "sum_y", &C->sum_y) || get_num(j, "yy", &C->yy) || C->yy < 0)
        return perr(err, "\"cache\": t, m, sum_y or yy missing or inconsistent");
    C->t = t;
    C->m = m;
    double *g = bsl_malloc(m * (m + 1) / 2 + 1, sizeof *g);
    if (!g) return bsl_fail(err, BASEL_ENOMEM, "smc fit: out of memory");
    int bad = get_reals(j, "x", C->xc, m * C->d) || get_reals(j, "y", C->yc, m) ||
              get_reals(j, "G", g, m * (m + 1) / 2) || get_reals(j, "s1", C->s1, m) ||
              get_reals(j, "sy", C->sy, m);
    size_t n = 0;
    for (size_t c = 0; !bad && c < m; c++)
        for (size_t i = 0; i <= c; i++) C->G[i + c * C->mcap] = g[n++];
    free(g);
    if (bad) return perr(err, "\"cache\": x, y, G, s1 or sy has the wrong length or a non-finite entry");
    rebuild_kc(C);
    return BASEL_OK;
}

static int is_listed(const size_t *x, size_t n, size_t v)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] == v) return 1;
    return 0;
}

/* One particle; i names it in messages. Its model holds the intercept
 * (atom 0) and its centres (atoms 1 + c) once a point has been fed. */
static int read_particle(const json_t *j, smc_particle *P, bsl_smc *s, size_t kmax, int frozen, size_t i,
                         basel_error *err)
{
    const smc_cache *C = &s->cache;
    const json_t *cs = json_object_get(j, "centres"), *ms = json_object_get(j, "model");
    if (!json_is_object(j) || !json_is_array(cs) || json_array_size(cs) > kmax ||
        json_array_size(cs) > C->m || (C->t == 0 && json_array_size(cs) > 0))
        return bsl_fail(err, BASEL_EPARSE, "smc fit: particle %zu: \"centres\" missing or too long", i);
    /* a frozen system's particle: room for its own centres only */
    if (frozen && bsl_smc_particle_init(P, json_array_size(cs) ? json_array_size(cs) : 1, s->D, &s->src))
        return bsl_fail(err, BASEL_ENOMEM, "smc fit: out of memory");
    P->k = json_array_size(cs);
    for (size_t c = 0; c < P->k; c++) {
        const json_t *v = json_array_get(cs, c);
        const json_int_t x = json_is_integer(v) ? json_integer_value(v) : -1;
        if (x < 0 || (size_t)x >= C->m || is_listed(P->centre, c, (size_t)x))
            return bsl_fail(err, BASEL_EPARSE, "smc fit: particle %zu: centre %zu invalid or repeated", i, c);
        P->centre[c] = (size_t)x;
    }
    const size_t k1 = P->k + 1, ns = json_is_array(ms) ? json_array_size(ms) : 0;
    double *st = bsl_malloc(ns + 1, sizeof *st);
    if (!st) return bsl_fail(err, BASEL_ENOMEM, "smc fit: out of memory");
    double lw;
    if (get_num(j, "sigma2", &P->sigma2) || !(P->sigma2 > 0) ||
        get_num(j, "sigma_beta2", &P->sigma_beta2) || !(P->sigma_beta2 > 0) ||
        get_reals(j, "beta", P->beta, k1) || get_reals(j, "model", st, ns)) {
        free(st);
        return bsl_fail(err, BASEL_EPARSE, "smc fit: particle %zu: a field is missing, of the wrong size, or not finite", i);
    }
    /* the model's atoms: 0, then 1 + centre */
    size_t *a = bsl_malloc(k1, sizeof *a);
    int rc = a ? BASEL_OK : BASEL_ENOMEM;
    if (a) {
        a[0] = 0;
        for (size_t c = 0; c < P->k; c++) a[c + 1] = P->centre[c] + 1;
        rc = bsl_cmodel_state_load(P->M, a, C->t > 0 ? k1 : 0, st, ns);
    }
    free(a);
    free(st);
    if (rc == BASEL_ENOMEM) return bsl_fail(err, rc, "smc fit: out of memory");
    if (rc != BASEL_OK)
        return bsl_fail(err, BASEL_EPARSE, "smc fit: particle %zu: \"model\" does not fit its centres", i);
    /* log_w may be -inf for a particle whose birth failed: JSON has no
     * -inf, so it is stored as "-inf" */
    const json_t *jw = json_object_get(j, "log_w");
    if (json_is_string(jw) && strcmp(json_string_value(jw), "-inf") == 0) lw = -INFINITY;
    else if (get_num(j, "log_w", &lw)) return bsl_fail(err, BASEL_EPARSE, "smc fit: particle %zu: bad log_w", i);
    P->log_w = lw;
    return BASEL_OK;
}

int bsl_smc_centres(const json_t *doc, double **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    const json_t *e = json_object_get(doc, "engine"), *cache = json_object_get(e, "cache");
    const json_t *x = json_object_get(cache, "x");
    const size_t m = (size_t)json_integer_value(json_object_get(cache, "m")),
                 d = (size_t)json_integer_value(json_object_get(e, "d"));
    if (m == 0 || d == 0 || json_array_size(json_object_get(doc, "atoms")) != m) return BASEL_OK;
    const int rc = bsl_json_doubles_new(x, m * d, out);
    if (rc == BASEL_ENOMEM) return rc;
    *count = *out ? m : 0;
    return BASEL_OK;
}

int bsl_smc_from_json(bsl_smc **out, const json_t *j, int frozen, basel_error *err)
{
    *out = NULL;
    const json_t *fmt = json_object_get(j, "format"), *ver = json_object_get(j, "format_version");
    if (!json_is_object(j) || !json_is_string(fmt) || strcmp(json_string_value(fmt), SMC_FORMAT) != 0)
        return perr(err, "not a basel-smc particle system (\"format\" missing or different)");
    if (!json_is_integer(ver) || json_integer_value(ver) != SMC_FORMAT_VERSION)
        return perr(err, "unsupported \"format_version\" (this build reads 2)");
    bsl_smc_options o;
    int rc = read_options(json_object_get(j, "options"), &o, err);
    if (rc != BASEL_OK) return rc;
    size_t d, nres;
    const json_t *parts = json_object_get(j, "particles");
    if (get_size(j, "d", 1, 100000, &d) || get_size(j, "n_resample", 0, (size_t)INT64_MAX, &nres) ||
        !json_is_array(parts) || json_array_size(parts) != o.particles)
        return perr(err, "\"d\", \"n_resample\" or \"particles\" missing or of the wrong size");
    bsl_smc *s;
    rc = bsl_smc_alloc(&s, d, &o, frozen, err);
    if (rc != BASEL_OK) return rc;
    s->n_resample = nres;
    rc = read_cache(json_object_get(j, "cache"), &s->cache, err);
    if (rc == BASEL_OK && json_object_get(j, "ess_min_before_resampling")) { /* absent before any decision */
        double e;
        size_t at, uq;
        if (get_num(j, "ess_min_before_resampling", &e) || !(e > 0 && e <= (double)o.particles * (1 + 1e-9)) ||
            get_size(j, "ess_min_point", 1, s->cache.t, &at) ||
            get_size(j, "unique_ancestors", 0, o.particles, &uq))
            rc = perr(err, "\"ess_min_before_resampling\", \"ess_min_point\" or \"unique_ancestors\" missing "
                           "or out of range");
        else
            s->ess_min = e, s->ess_min_step = at, s->unique_last = uq;
    }
    if (rc == BASEL_OK) { /* the design's rows: t of them, with the cache's y'y */
        s->D->n = s->cache.t;
        s->D->yy[0] = s->cache.yy;
    }
    for (size_t i = 0; rc == BASEL_OK && i < o.particles; i++)
        rc = read_particle(json_array_get(parts, i), &s->p[i], s, o.kmax, frozen, i, err);
    if (rc == BASEL_OK && bsl_smc_normalise(s) == 0)
        rc = perr(err, "every particle weight is zero");
    if (rc != BASEL_OK) {
        bsl_smc_free(s);
        return rc;
    }
    *out = s;
    return BASEL_OK;
}
