/*
 * ckpt.c: reading and writing the pieces of a checkpoint (ckpt.h). Arrays
 * whose length is part of the state (visited models, draws) are written
 * after their lengths and reallocated to fit on reading; the rest are
 * fixed by the run's settings and read into what the engine allocated.
 */
#include "ckpt.h"
#include "chains.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* zlib's crc32 takes at most UINT_MAX bytes at a time. */
static unsigned long crc_add(unsigned long crc, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (; n > 0;) {
        const uInt len = n > UINT_MAX ? UINT_MAX : (uInt)n;
        crc = crc32(crc, b, len);
        b += len;
        n -= len;
    }
    return crc;
}

bsl_ck bsl_ck_writer(FILE *f)
{
    return (bsl_ck){.f = f, .load = 0, .rc = BASEL_OK};
}

bsl_ck bsl_ck_reader(FILE *f)
{
    bsl_ck k = {.f = f, .load = 1, .rc = BASEL_OK};
    const long at = ftell(f);
    long end;
    if (at < 0 || fseek(f, 0, SEEK_END) != 0 || (end = ftell(f)) < at || fseek(f, at, SEEK_SET) != 0) {
        k.rc = BASEL_EIO;
        k.errnum = errno;
    } else {
        k.left = (size_t)(end - at);
    }
    return k;
}

void bsl_ck_bytes(bsl_ck *k, void *p, size_t n)
{
    if (k->rc || n == 0) return;
    if (k->load) {
        if (n > k->left) {
            k->rc = BASEL_EPARSE;
            return;
        }
        k->left -= n;
        if (fread(p, 1, n, k->f) != n) {
            k->rc = ferror(k->f) ? BASEL_EIO : BASEL_EPARSE;
            k->errnum = ferror(k->f) ? errno : 0;
        }
    } else if (fwrite(p, 1, n, k->f) != n) {
        k->rc = BASEL_EIO;
        k->errnum = errno;
    } else {
        k->crc = crc_add(k->crc, p, n);
    }
}

void bsl_ck_expect(bsl_ck *k, size_t value)
{
    size_t v = value;
    bsl_ck_val(k, v);
    if (!k->rc && v != value) k->rc = BASEL_EPARSE;
}

/* Whether a loaded generator's state is one the generator can be in. GSL
 * reads the words of its 32-bit generators as unsigned long without
 * masking, so a word above 2^32 - 1 makes gsl_rng_uniform return 1 or
 * more, and a move chosen by it may be one the sampler's state allows none
 * of (tests/fuzz/fuzz_ckpt.c found rj's swap drawn at k = m, where
 * gsl_rng_uniform_int(r, 0) aborts or returns garbage). The layouts are
 * GSL's own (rng/mt.c: mt[624] then mti, which set leaves at 624; rng/taus.c:
 * s1, s2, s3, seeded above 1, 7 and 15). Other generators: not checked. */
static int rng_state_ok(const gsl_rng *r)
{
    const void *st = gsl_rng_state(r);
    if (r->type == gsl_rng_mt19937) {
        const struct { unsigned long mt[624]; int mti; } *s = st;
        if (gsl_rng_size(r) != sizeof *s || s->mti < 0 || s->mti > 624) return 0;
        for (size_t i = 0; i < 624; i++)
            if (s->mt[i] > 0xffffffffUL) return 0;
        return 1;
    }
    if (r->type == gsl_rng_taus2) {
        const struct { unsigned long s1, s2, s3; } *s = st;
        return gsl_rng_size(r) == sizeof *s && s->s1 > 1 && s->s2 > 7 && s->s3 > 15 && s->s1 <= 0xffffffffUL &&
               s->s2 <= 0xffffffffUL && s->s3 <= 0xffffffffUL;
    }
    return 1;
}

void bsl_ck_rng(bsl_ck *k, gsl_rng *r)
{
    bsl_ck_expect(k, gsl_rng_size(r));
    bsl_ck_bytes(k, gsl_rng_state(r), gsl_rng_size(r)); /* what gsl_rng_fwrite writes, through the checksum */
    if (!k->rc && k->load && !rng_state_ok(r)) k->rc = BASEL_EPARSE;
}

int bsl_ck_fits(const bsl_ck *k, size_t n, size_t size)
{
    return !k->load || n <= k->left / size;
}

/* Reallocate *p to hold n items of size sz (n may be 0) when loading; the n
 * items are read next, so n is bounded by the bytes left. */
static void fit_array(bsl_ck *k, void **p, size_t *cap, size_t n, size_t sz)
{
    if (k->rc || !k->load) return;
    if (!bsl_ck_fits(k, n, sz)) {
        k->rc = BASEL_EPARSE;
        return;
    }
    void *q = realloc(*p, (n ? n : 1) * sz);
    if (!q) {
        k->rc = BASEL_ENOMEM;
        return;
    }
    *p = q;
    if (cap) *cap = n ? n : 1;
}

void bsl_ck_cmodel(bsl_ck *k, bsl_cmodel *M)
{
    if (k->rc) return;
    size_t nk = bsl_cmodel_k(M), n = bsl_cmodel_state_size(M);
    if (!M->ops->state_save) {
        k->rc = BASEL_EINVAL;
        return;
    }
    bsl_ck_val(k, nk);
    bsl_ck_val(k, n);
    if (k->rc) return;
    if (!bsl_ck_fits(k, n, sizeof(double)) || !bsl_ck_fits(k, nk, sizeof(size_t))) { /* a damaged length */
        k->rc = BASEL_EPARSE;
        return;
    }
    size_t *active = bsl_malloc(nk ? nk : 1, sizeof *active);
    double *st = bsl_malloc(n ? n : 1, sizeof *st);
    if (!active || !st) k->rc = BASEL_ENOMEM;
    if (!k->rc && !k->load) {
        memcpy(active, bsl_cmodel_active(M), nk * sizeof *active);
        bsl_cmodel_state_save(M, st);
    }
    bsl_ck_bytes(k, active, nk * sizeof *active);
    bsl_ck_doubles(k, st, n);
    if (!k->rc && k->load && bsl_cmodel_state_load(M, active, nk, st, n)) k->rc = BASEL_EPARSE;
    free(active);
    free(st);
}

void bsl_ck_modelset(bsl_ck *k, bsl_modelset *s, size_t m)
{
    bsl_ck_val(k, s->n);
    bsl_ck_val(k, s->nslots);
    bsl_ck_val(k, s->arena_len);
    bsl_ck_expect(k, s->max_items); /* the run's --max-models */
    bsl_ck_val(k, s->dropped_weight);
    bsl_ck_val(k, s->best_log_post);
    if (!k->rc && k->load && (s->nslots == 0 || (s->nslots & (s->nslots - 1)) || 2 * s->n > s->nslots))
        k->rc = BASEL_EPARSE;
    fit_array(k, (void **)&s->items, &s->cap, s->n, sizeof *s->items);
    fit_array(k, (void **)&s->slots, NULL, s->nslots, sizeof *s->slots);
    fit_array(k, (void **)&s->arena, &s->arena_cap, s->arena_len, sizeof *s->arena);
    bsl_ck_bytes(k, s->items, s->n * sizeof *s->items);
    bsl_ck_bytes(k, s->slots, s->nslots * sizeof *s->slots);
    bsl_ck_bytes(k, s->arena, s->arena_len * sizeof *s->arena);
    /* a file whose checksum was made to match: models that index past the
     * arena or past the m atoms (tests/fuzz/fuzz_ckpt.c found an ssvs
     * restart reading out of bounds), a repeated model, a broken table */
    if (!k->rc && k->load && bsl_modelset_reindex(s, m)) k->rc = BASEL_EPARSE;
}

/* The rows of streamed draws: their byte count, then the bytes. */
static void ck_spill(bsl_ck *k, bsl_vs_result *r)
{
    FILE *f = r->spill[r->nspill - 1];
    long len = 0;
    if (!k->load && (fflush(f) != 0 || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0))
        k->rc = BASEL_EIO;
    bsl_ck_val(k, len);
    if (!k->rc && k->load && (len < 0 || fseek(f, 0, SEEK_SET) != 0)) k->rc = BASEL_EPARSE;
    char buf[1 << 16];
    for (long done = 0; done < len && !k->rc;) {
        const size_t n = (size_t)BSL_MIN((long)sizeof buf, len - done);
        if (!k->load && fread(buf, 1, n, f) != n) k->rc = BASEL_EIO;
        bsl_ck_bytes(k, buf, n);
        if (!k->rc && k->load && fwrite(buf, 1, n, f) != n) k->rc = BASEL_EIO;
        done += (long)n;
    }
    if (!k->rc && (fflush(f) != 0 || fseek(f, 0, SEEK_END) != 0)) k->rc = BASEL_EIO;
}

void bsl_ck_draws(bsl_ck *k, bsl_vs_result *r)
{
    bsl_ck_expect(k, r->nspill);
    if (!k->rc && r->nspill) { /* streamed: one file, this chain's */
        bsl_ck_val(k, r->ndraws);
        ck_spill(k, r);
        return;
    }
    bsl_ck_val(k, r->ndraws);
    bsl_ck_val(k, r->draw_atoms_len);
    bsl_ck_expect(k, r->nscalars);
    if (!k->rc && k->load && r->ndraws == 0) { /* as bsl_vs_result_init left it */
        r->draw_atoms_len = 0;
        return;
    }
    if (r->ndraws == 0) return;
    fit_array(k, (void **)&r->draw_chain, &r->draws_cap, r->ndraws, sizeof *r->draw_chain);
    if (r->nscalars && !k->rc && !bsl_ck_fits(k, r->ndraws, r->nscalars * sizeof(double))) k->rc = BASEL_EPARSE;
    if (r->nscalars) fit_array(k, (void **)&r->draw_scalars, NULL, r->ndraws * r->nscalars, sizeof(double));
    fit_array(k, (void **)&r->draw_start, &r->draw_start_cap, r->ndraws + 1, sizeof *r->draw_start);
    fit_array(k, (void **)&r->draw_atoms, &r->draw_atoms_cap, r->draw_atoms_len, sizeof *r->draw_atoms);
    bsl_ck_bytes(k, r->draw_chain, r->ndraws * sizeof *r->draw_chain);
    if (r->nscalars) bsl_ck_doubles(k, r->draw_scalars, r->ndraws * r->nscalars);
    bsl_ck_bytes(k, r->draw_start, (r->ndraws + 1) * sizeof *r->draw_start);
    bsl_ck_bytes(k, r->draw_atoms, r->draw_atoms_len * sizeof *r->draw_atoms);
    if (k->rc || !k->load) return;
    /* rows that index past the atoms kept, or atoms past the m inputs: the
     * draws' writer would read out of bounds */
    if (r->draw_start[0] != 0 || r->draw_start[r->ndraws] != r->draw_atoms_len) k->rc = BASEL_EPARSE;
    for (size_t i = 0; i < r->ndraws && !k->rc; i++)
        if (r->draw_start[i + 1] < r->draw_start[i]) k->rc = BASEL_EPARSE;
    for (size_t a = 0; a < r->draw_atoms_len && !k->rc; a++)
        if (r->draw_atoms[a] >= r->m) k->rc = BASEL_EPARSE;
}

void bsl_ck_trace(bsl_ck *k, bsl_trace *t)
{
    bsl_ck_expect(k, t->m);
    bsl_ck_expect(k, t->L);
    bsl_ck_expect(k, t->step);
    /* the seen flags, then only the rows of atoms ever recorded and the
     * size's row: the others are zeros (at m = 10^6, 800 MB of a chain's
     * 100 snapshots, which a run never touches and a message between MPI
     * processes had carried) */
    const size_t L = t->L ? t->L : 1;
    bsl_ck_bytes(k, t->seen, t->m);
    for (size_t j = 0; j < t->m && !k->rc; j++)
        if (t->seen[j]) bsl_ck_doubles(k, t->x + j * L, L);
    bsl_ck_doubles(k, t->x + t->m * L, L);
    bsl_ck_doubles(k, t->w, L);
}
