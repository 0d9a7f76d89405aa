/*
 * ckpt.h: the bytes of a checkpoint (chains.h "Checkpoints"). One function
 * per kind of state both writes and reads it, chosen by k->load, so that
 * what is saved and what is restored cannot drift apart:
 *
 *     static void chain_state(bsl_ck *k, my_chain *ch)
 *     {
 *         bsl_ck_rng(k, ch->r);
 *         bsl_ck_val(k, ch->next_block);
 *         bsl_ck_doubles(k, ch->pip, m);
 *     }
 *
 * Values are written as the machine holds them (doubles bit for bit, so a
 * resumed run computes exactly what the uninterrupted one would); the file
 * header (chains.c) refuses a file from another build or machine, and its
 * CRC-32 trailer a damaged one, before any of it is read into a state. The
 * first failure sticks in k->rc and later calls do nothing.
 */
#ifndef BSL_CKPT_H
#define BSL_CKPT_H

#include "../core/core.h"
#include "../model/model.h"
#include "../summary/summary.h"

#include <gsl/gsl_rng.h>
#include <stdio.h>

typedef struct bsl_ck {
    FILE *f;
    int load; /* 1: read into the state, 0: write it */
    int rc;   /* BASEL_OK, or the first failure (BASEL_EIO, BASEL_EPARSE, BASEL_ENOMEM) */
    unsigned long crc; /* zlib's crc32 of the bytes written so far (writing only; starts at 0) */
    int errnum;        /* errno of the first failed write or read (0: none), for the message */
    size_t left;       /* reading: the bytes left in the file, which bound every length read from it */
} bsl_ck;

/* A writer to f, or a reader of f from its current position to its end.
 * The reader measures what is left (fseek and ftell, which fmemopen's
 * streams answer too), so that a damaged length asks for no more memory
 * than the file could fill (tests/fuzz/fuzz_ckpt.c found a length of 2^55
 * passed to realloc); BASEL_EIO in k->rc if f cannot be measured. */
bsl_ck bsl_ck_writer(FILE *f);
bsl_ck bsl_ck_reader(FILE *f);
/* On reading: whether n items of size bytes could still follow in the
 * file (a stored length must pass before anything is allocated for it);
 * 1 when writing. */
int bsl_ck_fits(const bsl_ck *k, size_t n, size_t size);

/* n bytes at p: written (and added to k->crc), or read back (a short read
 * is BASEL_EPARSE). */
void bsl_ck_bytes(bsl_ck *k, void *p, size_t n);
#define bsl_ck_val(k, x) bsl_ck_bytes((k), &(x), sizeof(x))
static inline void bsl_ck_doubles(bsl_ck *k, double *x, size_t n)
{
    bsl_ck_bytes(k, x, n * sizeof *x);
}
/* On reading: whether x[0 .. n-1] all lie in [lo, hi] (NaN does not), so
 * that a state's doubles (a precision, a probability) can be checked as
 * its indices are; a caller sets k->rc = BASEL_EPARSE when not. */
static inline int bsl_ck_within(const double *x, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] >= lo && x[i] <= hi)) return 0;
    return 1;
}
/* A size that must match on reading (a layout check): BASEL_EPARSE if not. */
void bsl_ck_expect(bsl_ck *k, size_t value);
/* A generator's state: its gsl_rng_size bytes, as gsl_rng_fwrite writes
 * them; on reading, BASEL_EPARSE for a state that mt19937 or taus2 cannot
 * be in (a word above 32 bits, an index out of range). */
void bsl_ck_rng(bsl_ck *k, gsl_rng *r);
/* A model's state through the model table (model.h state_size / _save /
 * _load, as smc's resume uses them): its active atoms, then its state's
 * doubles bit for bit; a loaded model continues exactly. BASEL_EINVAL
 * (as k->rc) when the model's table cannot save its state. */
void bsl_ck_cmodel(bsl_ck *k, bsl_cmodel *M);
/* A set of visited models, exactly (items, arena and hash table), of atoms
 * 0 .. m - 1; on reading, BASEL_EPARSE unless every model is a sorted list
 * of distinct atoms below m inside the arena, with a finite non-negative
 * weight, and no model is repeated (bsl_modelset_reindex). */
void bsl_ck_modelset(bsl_ck *k, bsl_modelset *s, size_t m);
/* The draws of a bsl_vs_result (not its summaries). */
void bsl_ck_draws(bsl_ck *k, bsl_vs_result *r);
/* A chain's trace for R-hat / ESS (summary.h bsl_trace), allocated as
 * bsl_trace_init left it. */
void bsl_ck_trace(bsl_ck *k, bsl_trace *t);

#endif
