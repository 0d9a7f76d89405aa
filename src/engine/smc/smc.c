/*
 * smc.c: the sequential RVM's lifecycle and step loop (smc.h): options,
 * create / free, the shared candidate cache, one feed step of Algorithm 1
 * (paper 003), and the accessors.
 *
 * Invariant (smc_impl.h): after every feed, the cache describes the t points
 * fed, the design D has t rows, and every particle's model describes its
 * centres over those points with its current variances; s->W holds the normalised
 * weights. A failed feed leaves the system as it was.
 */
#include "smc_impl.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

void bsl_smc_options_default(bsl_smc_options *o)
{
    memset(o, 0, sizeof *o);
    o->particles = 250;
    o->width = 1.6 / sqrt(2.0); /* paper 003's width 1.6 in exp(-d^2/w^2) */
    o->kmax = 50;
    o->poisson_mean = 1;
    o->c_move = 0.25;
    o->resample_scheme = BSL_SMC_STRATIFIED;
    o->ess_threshold = 1;
    o->seed = 1;
    o->sample_nuisance = 1;
    o->sigma2 = 1;
    o->sigma_beta2 = 1;
    o->nuisance_every = 1;
    o->candidates = 2000;
    o->kernel = BSL_SMC_KERNEL_MOVE;
    o->moves_per_step = 1;
}

static const char *const scheme_names[] = {"multinomial", "systematic", "stratified",
                                           "residual"};

const char *bsl_smc_resample_name(int scheme)
{
    return scheme >= 0 && scheme <= BSL_SMC_RESIDUAL ? scheme_names[scheme] : "?";
}

int bsl_smc_resample_from_name(const char *name)
{
    for (int i = 0; i <= BSL_SMC_RESIDUAL; i++)
        if (strcmp(name, scheme_names[i]) == 0) return i;
    return -1;
}

static int bad(basel_error *err, const char *what) { return bsl_fail(err, BASEL_EINVAL, "smc: %s", what); }

int bsl_smc_options_check(const bsl_smc_options *o, basel_error *err)
{
    if (o->particles < 1 || o->particles > 100000000)
        return bad(err, "particles must be in [1, 1e8]");
    if (!(isfinite(o->width) && o->width > 0)) return bad(err, "width must be finite and > 0");
    if (o->kmax < 1 || o->kmax > 10000) return bad(err, "kmax must be in [1, 10000]");
    if (!(isfinite(o->poisson_mean) && o->poisson_mean > 0))
        return bad(err, "poisson_mean must be finite and > 0");
    /* c <= 1/2 keeps the zero move's probability positive for every k, which
     * the backward kernel of smc_moves.c needs */
    if (!(o->c_move > 0 && o->c_move <= 0.5)) return bad(err, "c_move must be in (0, 0.5]");
    if (o->resample_scheme < 0 || o->resample_scheme > BSL_SMC_RESIDUAL)
        return bad(err, "resample scheme must be one of " BSL_SMC_RESAMPLE_NAMES);
    if (!(o->ess_threshold >= 0 && o->ess_threshold <= 1))
        return bad(err, "ess_threshold must be in [0, 1]");
    if (!(o->a_sigma >= 0 && o->b_sigma >= 0 && o->a_beta >= 0 && o->b_beta >= 0) ||
        !isfinite(o->a_sigma + o->b_sigma + o->a_beta + o->b_beta))
        return bad(err, "prior parameters a_sigma, b_sigma, a_beta, b_beta must be finite and >= 0");
    if (!(isfinite(o->sigma2) && o->sigma2 > 0)) return bad(err, "sigma2 must be finite and > 0");
    if (!(isfinite(o->sigma_beta2) && o->sigma_beta2 > 0))
        return bad(err, "sigma_beta2 must be finite and > 0");
    if (o->nuisance_every < 1) return bad(err, "nuisance_every must be >= 1");
    if (o->candidates < 1 || o->candidates > 65536)
        return bad(err, "candidates must be in [1, 65536] (the cache holds 2 M^2 doubles)");
    if (o->threads < 0) return bad(err, "threads must be >= 0");
    if (o->kernel != BSL_SMC_KERNEL_MOVE && o->kernel != BSL_SMC_KERNEL_PAPER)
        return bad(err, "kernel must be move (0) or paper (1)");
    if (o->moves_per_step < 1 || o->moves_per_step > 1000)
        return bad(err, "moves_per_step must be in [1, 1000]");
    return BASEL_OK;
}

double bsl_smc_kernel(const double *a, const double *b, size_t d, double width)
{
    double r2 = 0;
    for (size_t j = 0; j < d; j++) r2 += (a[j] - b[j]) * (a[j] - b[j]);
    return exp(-r2 / (2 * width * width));
}

/* ---- the shared candidate cache ---------------------------------------- */

/* Rows held back before every column of G takes them: 64 rows of M
 * doubles (1 MB at the default M = 2000), which stay in the processor's
 * cache while a column takes them (cache_flush). */
#define SMC_BLOCK_ROWS 64

static void cache_free(smc_cache *C)
{
    free(C->xc);
    free(C->yc);
    free(C->Kc);
    free(C->G);
    free(C->R);
    free(C->len);
    free(C->done);
    free(C->s1);
    free(C->sy);
    free(C->row ? C->row - 1 : NULL);
    memset(C, 0, sizeof *C);
}

static int cache_init(smc_cache *C, size_t d, size_t mcap, double width)
{
    memset(C, 0, sizeof *C);
    C->d = d;
    C->mcap = mcap;
    C->width = width;
    C->blk = SMC_BLOCK_ROWS;
    C->xc = bsl_calloc(mcap * d, sizeof(double));
    C->yc = bsl_calloc(mcap, sizeof(double));
    C->Kc = bsl_calloc(mcap * mcap, sizeof(double));
    C->G = bsl_calloc(mcap * mcap, sizeof(double));
    C->R = bsl_calloc(C->blk * mcap, sizeof(double));
    C->len = bsl_calloc(C->blk, sizeof(size_t));
    C->done = bsl_calloc(mcap, sizeof(size_t));
    C->s1 = bsl_calloc(mcap, sizeof(double));
    C->sy = bsl_calloc(mcap, sizeof(double));
    double *row = bsl_calloc(mcap + 1, sizeof(double));
    if (row) {
        row[0] = 1.0; /* the intercept's entry of the new row (atom 0) */
        C->row = row + 1;
    }
    if (!C->xc || !C->yc || !C->Kc || !C->G || !C->R || !C->len || !C->done || !C->s1 || !C->sy ||
        !C->row) {
        cache_free(C);
        return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

/* Entries of a column held in registers while the rows pass (16 doubles:
 * 8 SSE2 registers, half the file). */
#define SMC_CHUNK 16

/* Rows from .. nb - 1 of R into column j (entries 0..j, in col). Each entry
 * takes the rows in arrival order, each as g + x_i x_j with the product
 * rounded and then the sum (this file is compiled as ISO C, where GCC does
 * not contract them into a fused multiply-add): the operations one
 * cblas_dsyr per row made on it (the reference loop, A[i + j lda] +=
 * x[i] (alpha x[j]) with alpha = 1, as GSL's cblas, the one linked, does
 * it), so the same bits. A chunk of the column stays in registers while
 * the rows pass over it. */
static void apply_rows(const smc_cache *C, size_t j, size_t from, double *col)
{
    const size_t M = C->mcap, n = j + 1;
    size_t r0 = from;
    while (r0 < C->nb && C->len[r0] <= j) r0++; /* len grows with r: the rows touching j are a suffix */
    if (r0 >= C->nb) return;
    size_t i0 = 0;
    for (; i0 + SMC_CHUNK <= n; i0 += SMC_CHUNK) {
        double g[SMC_CHUNK];
        memcpy(g, col + i0, sizeof g);
        for (size_t r = r0; r < C->nb; r++) {
            const double *x = C->R + r * M + i0, a = C->R[r * M + j];
            for (size_t i = 0; i < SMC_CHUNK; i++) g[i] = g[i] + x[i] * a;
        }
        memcpy(col + i0, g, sizeof g);
    }
    for (size_t r = r0; r < C->nb; r++) {
        const double *x = C->R + r * M, a = x[j];
        for (size_t i = i0; i < n; i++) col[i] = col[i] + x[i] * a;
    }
}

double bsl_smc_gram(const smc_cache *C, size_t a, size_t b)
{
    if (a > b) {
        const size_t c = a;
        a = b;
        b = c;
    }
    /* the cache is logically const: a particle reading column b makes it take
     * the rows waiting in R; particles run on OpenMP threads, so one of them
     * does it under the lock and publishes done[b] (release) after the
     * column, which the others read (acquire) before it */
    if (__atomic_load_n(&C->done[b], __ATOMIC_ACQUIRE) < C->nb) {
        smc_cache *W = (smc_cache *)C;
#pragma omp critical(bsl_smc_cache)
        {
            const size_t from = W->done[b];
            if (from < W->nb) {
                apply_rows(W, b, from, W->G + b * W->mcap);
                __atomic_store_n(&W->done[b], W->nb, __ATOMIC_RELEASE);
            }
        }
    }
    return C->G[a + b * C->mcap];
}

void bsl_smc_gram_column(const smc_cache *C, size_t j, double *out)
{
    memcpy(out, C->G + j * C->mcap, (j + 1) * sizeof *out);
    apply_rows(C, j, C->done[j], out);
}

/* Every column takes the rows waiting in R; R is then empty. Chunk by
 * chunk of a column, which stays in registers while the rows pass over it
 * (one dsyr per row streamed all of G, M^2 / 2 doubles, from memory for
 * every row: perf audit finding 11). Columns are independent, so they share
 * out over threads with the same bits. */
static void cache_flush(smc_cache *C, int threads)
{
    const long cols = C->nb > 0 ? (long)C->len[C->nb - 1] : 0; /* len grows with the rows */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
    for (long j = 0; j < cols; j++) apply_rows(C, (size_t)j, C->done[j], C->G + (size_t)j * C->mcap);
    (void)threads;
    memset(C->done, 0, C->mcap * sizeof *C->done);
    C->nb = 0;
}

/* G[i, c] = sum over s <= c of row[s] Kc[s, i] for i <= c: the new
 * candidate c's column over all points so far (the candidates). Each entry
 * is the sum in the order s = 0, 1, ..., from 0, with the products rounded
 * (ISO C, no fused multiply-add): the dot products cblas_dgemv (CblasTrans)
 * formed (the reference loop, as GSL's cblas does it), so the same bits;
 * four of them at a time, whose additions do not wait on each other. */
static void new_column(const smc_cache *C, size_t c, double *g)
{
    const size_t M = C->mcap, n = c + 1;
    const double *x = C->row;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const double *a0 = C->Kc + i * M, *a1 = a0 + M, *a2 = a1 + M, *a3 = a2 + M;
        double t0 = 0, t1 = 0, t2 = 0, t3 = 0;
        for (size_t s = 0; s < n; s++) {
            t0 += x[s] * a0[s];
            t1 += x[s] * a1[s];
            t2 += x[s] * a2[s];
            t3 += x[s] * a3[s];
        }
        g[i] = t0;
        g[i + 1] = t1;
        g[i + 2] = t2;
        g[i + 3] = t3;
    }
    for (; i < n; i++) {
        const double *a = C->Kc + i * M;
        double t = 0;
        for (size_t s = 0; s < n; s++) t += x[s] * a[s];
        g[i] = t;
    }
}

/* Take point (x, y). Its row K(x, c) joins R (O(m)); G takes it when a
 * particle reads a column (a birth's cross products) or when R is full,
 * SMC_BLOCK_ROWS rows later. The cross products are a sufficient statistic
 * of all the points so far (births can pick any candidate later), so all
 * m^2 / 2 of them take every row; what this saves is the memory traffic of
 * one pass over G per row. While t < mcap the point is also a new
 * candidate, whose column of G needs the inner products over all earlier
 * points, which are exactly the earlier candidates (Kc): O(m^2) once per
 * candidate. */
static void cache_add(smc_cache *C, const double *x, double y, int threads)
{
    const size_t M = C->mcap, m_old = C->m;
    const int is_new = m_old < M;
    for (size_t c = 0; c < m_old; c++) C->row[c] = bsl_smc_kernel(x, C->xc + c * C->d, C->d, C->width);
    if (m_old > 0) {
        /* old candidates: G += row row' (through R), s1 += row, sy += row y */
        if (C->nb == C->blk) cache_flush(C, threads);
        memcpy(C->R + C->nb * M, C->row, m_old * sizeof *C->row);
        C->len[C->nb++] = m_old;
        cblas_daxpy((int)m_old, 1.0, C->row, 1, C->s1, 1);
        cblas_daxpy((int)m_old, y, C->row, 1, C->sy, 1);
    }
    if (is_new) {
        const size_t c = m_old;
        memcpy(C->xc + c * C->d, x, C->d * sizeof *x);
        C->yc[c] = y;
        C->row[c] = 1.0;
        for (size_t i = 0; i < m_old; i++) C->Kc[i + c * M] = C->Kc[c + i * M] = C->row[i];
        C->Kc[c + c * M] = 1.0;
        /* G[:, c] = Kc' row over all points s <= t (all candidates); the
         * rows in R came before c was a candidate: none touches column c */
        new_column(C, c, C->G + c * M);
        C->done[c] = C->nb;
        double s1 = 0, sy = 0;
        for (size_t s = 0; s <= c; s++) {
            s1 += C->row[s];
            sy += C->row[s] * C->yc[s];
        }
        C->s1[c] = s1;
        C->sy[c] = sy;
        C->m = m_old + 1;
    }
    C->sum_y += y;
    C->yy += y * y;
    C->y_t = y;
    C->t++;
}

/* ---- the atom source: the cache's cross products by atom id (0 the
 * intercept, 1 + c the kernel at candidate c) ----------------------------- */

static double src_gram(void *ctx, size_t i, size_t j)
{
    const smc_cache *C = ctx;
    if (i == 0) return j == 0 ? (double)C->t : C->s1[j - 1];
    if (j == 0) return C->s1[i - 1];
    return bsl_smc_gram(C, i - 1, j - 1);
}

static double src_bty(void *ctx, size_t j, size_t o)
{
    const smc_cache *C = ctx;
    (void)o;
    return j == 0 ? C->sum_y : C->sy[j - 1];
}

/* ---- particles ----------------------------------------------------------- */

/* The model's prior: ridge with the particle's sigma2 and lambda = 1 /
 * sigma_beta2 (tau = rho); "sampled" so that set_nuisance takes new
 * values, though smc draws them itself (smc_moves.c, eq. 5). */
static bsl_coef_prior particle_prior(double sigma2, double sigma_beta2)
{
    bsl_coef_prior pr;
    memset(&pr, 0, sizeof pr);
    pr.type = &bsl_coef_ridge;
    pr.sigma2 = sigma2;
    pr.lambda = 1.0 / sigma_beta2;
    pr.sample_nuisance = 1;
    return pr;
}

int bsl_smc_particle_init(smc_particle *P, size_t kmax, const bsl_design *D,
                          const bsl_atom_source *src)
{
    const size_t cap = kmax + 1;
    memset(P, 0, sizeof *P);
    P->centre = bsl_calloc(kmax, sizeof(size_t));
    P->beta = bsl_calloc(cap, sizeof(double));
    P->work = bsl_calloc(cap * (cap + 1) / 2 + 2 * cap, sizeof(double));
    const bsl_coef_prior pr = particle_prior(1, 1);
    basel_error err;
    if (!P->centre || !P->beta || !P->work || bsl_cmodel_create_source(&P->M, D, src, &pr, cap, &err) != BASEL_OK) {
        bsl_smc_particle_free(P);
        return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

void bsl_smc_particle_free(smc_particle *P)
{
    if (!P) return;
    free(P->centre);
    free(P->beta);
    free(P->work);
    bsl_cmodel_free(P->M);
    P->M = NULL;
    P->centre = NULL;
    P->beta = P->work = NULL;
}

void bsl_smc_particle_reset(smc_particle *P, double sigma2, double sigma_beta2)
{
    P->k = 0;
    P->sigma2 = sigma2;
    P->sigma_beta2 = sigma_beta2;
    /* no data: the empty model, log p(Y_0) = 0; the intercept enters with
     * the first point (smc_moves.c) */
    bsl_cmodel_clear(P->M);
    const double vals[2] = {sigma2, 1.0 / sigma_beta2};
    bsl_cmodel_set_nuisance(P->M, vals);
    P->beta[0] = 0;
    P->log_w = 0;
    P->p_new = 0;
}

void bsl_smc_particle_sync(smc_particle *P)
{
    const size_t km = bsl_cmodel_k(P->M);
    const size_t *act = bsl_cmodel_active(P->M);
    P->k = km > 0 ? km - 1 : 0;
    for (size_t j = 0; j < P->k; j++) P->centre[j] = act[j + 1] - 1;
}

/* Copy the used part only: O(k^2), no allocation (same kmax). */
void bsl_smc_particle_copy(smc_particle *dst, const smc_particle *src)
{
    bsl_cmodel_copy(dst->M, src->M);
    dst->k = src->k;
    memcpy(dst->centre, src->centre, src->k * sizeof *src->centre);
    memcpy(dst->beta, src->beta, (src->k + 1) * sizeof(double));
    dst->sigma2 = src->sigma2;
    dst->sigma_beta2 = src->sigma_beta2;
    dst->log_w = src->log_w;
    dst->p_new = src->p_new;
}

/* ---- the system ---------------------------------------------------------- */

void bsl_smc_free(bsl_smc *s)
{
    if (!s) return;
    const size_t N = s->o.particles;
    for (size_t i = 0; s->p && i < N; i++) bsl_smc_particle_free(&s->p[i]);
    for (size_t i = 0; s->q && i < N; i++) bsl_smc_particle_free(&s->q[i]);
    for (size_t i = 0; s->rng && i < N; i++)
        if (s->rng[i]) gsl_rng_free(s->rng[i]);
    if (s->master) gsl_rng_free(s->master);
    bsl_design_free(s->D);
    free(s->p);
    free(s->q);
    free(s->rng);
    free(s->W);
    free(s->u);
    free(s->anc);
    cache_free(&s->cache);
    free(s);
}

int bsl_smc_alloc(bsl_smc **out, size_t d, const bsl_smc_options *o, int frozen, basel_error *err)
{
    *out = NULL;
    int rc = bsl_smc_options_check(o, err);
    if (rc != BASEL_OK) return rc;
    if (d < 1 || d > 100000) return bsl_fail(err, BASEL_EINVAL, "smc: input dimension %zu out of [1, 1e5]", d);
    bsl_smc *s = bsl_calloc(1, sizeof *s);
    if (!s) return bsl_fail(err, BASEL_ENOMEM, "smc: out of memory");
    s->o = *o;
    s->ess_min = INFINITY;
    const size_t N = o->particles;
    s->p = bsl_calloc(N, sizeof *s->p);
    s->q = bsl_calloc(N, sizeof *s->q);
    s->rng = bsl_calloc(N, sizeof *s->rng);
    s->W = bsl_calloc(N, sizeof *s->W);
    s->u = bsl_calloc(N, sizeof *s->u);
    s->anc = bsl_calloc(N, sizeof *s->anc);
    s->master = gsl_rng_alloc(gsl_rng_taus2);
    const double y0 = 0;
    int ok = s->p && s->q && s->rng && s->W && s->u && s->anc && s->master &&
             cache_init(&s->cache, d, o->candidates, o->width) == BASEL_OK &&
             bsl_design_create_plain(&s->D, 0, &y0, 1, err) == BASEL_OK;
    /* 64 eps (kmax + 1): the Schur complement's rounding level, the
     * collinearity bound smc always used; smc reads no drop-one scores, so
     * the models keep no inverse through their refactorisation at every
     * new rho (lazy_inverse) */
    s->src = (bsl_atom_source){.m = o->candidates + 1, .gram = src_gram, .bty = src_bty,
                               .ctx = &s->cache, .rank_tol = 64 * DBL_EPSILON * (double)(o->kmax + 1),
                               .lazy_inverse = 1};
    for (size_t i = 0; ok && i < N; i++) {
        s->rng[i] = gsl_rng_alloc(gsl_rng_taus2);
        ok = s->rng[i] && (frozen || (bsl_smc_particle_init(&s->p[i], o->kmax, s->D, &s->src) == BASEL_OK &&
                                      bsl_smc_particle_init(&s->q[i], o->kmax, s->D, &s->src) == BASEL_OK));
    }
    if (!ok) {
        bsl_smc_free(s);
        return bsl_fail(err, BASEL_ENOMEM, "smc: out of memory for %zu particles (kmax %zu, %zu candidates)",
                        N, o->kmax, o->candidates);
    }
    *out = s;
    return BASEL_OK;
}

int bsl_smc_create(bsl_smc **out, size_t d, const bsl_smc_options *o, basel_error *err)
{
    int rc = bsl_smc_alloc(out, d, o, 0, err);
    if (rc != BASEL_OK) return rc;
    bsl_smc *s = *out;
    const size_t N = o->particles;
    for (size_t i = 0; i < N; i++) {
        /* step 0 streams: (seed, 0, i) */
        gsl_rng_set(s->rng[i], bsl_mix_seed(bsl_mix_seed(o->seed, 0), i));
        double s2, sb2;
        bsl_smc_initial_variances(o, s->rng[i], &s2, &sb2);
        bsl_smc_particle_reset(&s->p[i], s2, sb2);
    }
    bsl_smc_normalise(s);
    return BASEL_OK;
}

double bsl_smc_normalise(bsl_smc *s)
{
    const size_t N = s->o.particles;
    double mx = -INFINITY;
    for (size_t i = 0; i < N; i++) mx = fmax(mx, s->p[i].log_w);
    if (!isfinite(mx)) return 0;
    double sum = 0;
    for (size_t i = 0; i < N; i++) sum += (s->W[i] = exp(s->p[i].log_w - mx));
    double sq = 0;
    for (size_t i = 0; i < N; i++) {
        s->W[i] /= sum;
        sq += s->W[i] * s->W[i];
    }
    return 1 / sq;
}

static int threads_of(const bsl_smc *s)
{
#ifdef _OPENMP
    return s->o.threads > 0 ? s->o.threads : omp_get_max_threads();
#else
    (void)s;
    return 1;
#endif
}

/* Resample when the ESS of the current weights is below the threshold
 * (thr >= 1: always); the generator is seeded from (step, N). */
static void maybe_resample(bsl_smc *s, double ess, unsigned long step_seed)
{
    const size_t N = s->o.particles;
    if (!(ess >= s->ess_min)) s->ess_min = ess, s->ess_min_step = s->cache.t;
    if (s->o.ess_threshold >= 1 || ess < s->o.ess_threshold * (double)N) {
        gsl_rng_set(s->master, bsl_mix_seed(step_seed, N));
        bsl_smc_resample(s);
    }
}

/* Algorithm 1 as printed: resample (the previous step's weights), then
 * move every particle and weight it by eq. (8) with reverse moves. */
static void step_paper(bsl_smc *s, const double *x, double y, unsigned long step_seed)
{
    const size_t N = s->o.particles;
    if (s->cache.t > 0) maybe_resample(s, 1 / bsl_dot(s->W, s->W, N), step_seed);
    cache_add(&s->cache, x, y, threads_of(s));
    bsl_design_add_row(s->D, &y);
    const smc_cache *C = &s->cache;
    const bsl_smc_options *o = &s->o;
    smc_particle *P = s->p;
    gsl_rng **R = s->rng;
    const long Nl = (long)N;
#pragma omp parallel for num_threads(threads_of(s)) schedule(static)
    for (long i = 0; i < Nl; i++) {
        gsl_rng_set(R[i], bsl_mix_seed(step_seed, (unsigned long)i));
        bsl_smc_particle_step(&P[i], C, o, R[i]);
    }
}

/* Resample-move: weight by the predictive density of the new point, resample,
 * then move with an MCMC kernel invariant for pi_t (smc_moves.c). */
static void step_move(bsl_smc *s, const double *x, double y, unsigned long step_seed)
{
    const size_t N = s->o.particles;
    cache_add(&s->cache, x, y, threads_of(s));
    bsl_design_add_row(s->D, &y);
    const smc_cache *C = &s->cache;
    const bsl_smc_options *o = &s->o;
    gsl_rng **R = s->rng;
    const long Nl = (long)N;
    smc_particle *P = s->p;
#pragma omp parallel for num_threads(threads_of(s)) schedule(static)
    for (long i = 0; i < Nl; i++) bsl_smc_particle_weigh(&P[i], C, o);
    const double ess = bsl_smc_normalise(s);
    if (ess > 0) maybe_resample(s, ess, step_seed);
    P = s->p;
#pragma omp parallel for num_threads(threads_of(s)) schedule(static)
    for (long i = 0; i < Nl; i++) {
        gsl_rng_set(R[i], bsl_mix_seed(step_seed, (unsigned long)i));
        bsl_smc_particle_move(&P[i], C, o, R[i]);
    }
}

int bsl_smc_feed(bsl_smc *s, const double *x, double y, basel_error *err)
{
    const size_t d = s->cache.d;
    for (size_t j = 0; j < d; j++)
        if (!isfinite(x[j]))
            return bsl_fail(err, BASEL_EINVAL, "smc: point %zu: input %zu is not finite", s->cache.t + 1, j + 1);
    if (!isfinite(y)) return bsl_fail(err, BASEL_EINVAL, "smc: point %zu: target is not finite", s->cache.t + 1);
    const unsigned long step_seed = bsl_mix_seed(s->o.seed, (unsigned long)s->cache.t + 1);
    if (s->o.kernel == BSL_SMC_KERNEL_PAPER) step_paper(s, x, y, step_seed);
    else step_move(s, x, y, step_seed);
    if (bsl_smc_normalise(s) == 0)
        return bsl_fail(err, BASEL_ENUMERIC, "smc: point %zu: every importance weight vanished", s->cache.t);
    return BASEL_OK;
}

int bsl_smc_feed_batch(bsl_smc *s, const double *X, size_t n, size_t ldx, const double *y,
                       basel_error *err)
{
    const size_t d = s->cache.d;
    double xbuf[64];
    double *x = d <= 64 ? xbuf : bsl_malloc(d, sizeof *x);
    if (!x) return bsl_fail(err, BASEL_ENOMEM, "smc: out of memory");
    int rc = BASEL_OK;
    for (size_t i = 0; i < n && rc == BASEL_OK; i++) {
        for (size_t j = 0; j < d; j++) x[j] = X[i + j * ldx];
        rc = bsl_smc_feed(s, x, y[i], err);
    }
    if (x != xbuf) free(x);
    return rc;
}

/* ---- accessors ------------------------------------------------------------ */

size_t bsl_smc_points(const bsl_smc *s) { return s->cache.t; }
size_t bsl_smc_dim(const bsl_smc *s) { return s->cache.d; }
size_t bsl_smc_particles(const bsl_smc *s) { return s->o.particles; }
const bsl_smc_options *bsl_smc_get_options(const bsl_smc *s) { return &s->o; }
size_t bsl_smc_resample_count(const bsl_smc *s) { return s->n_resample; }
double bsl_smc_ess_min(const bsl_smc *s, size_t *step)
{
    if (step) *step = s->ess_min_step;
    return s->ess_min;
}
size_t bsl_smc_unique_ancestors(const bsl_smc *s) { return s->unique_last; }
void bsl_smc_set_threads(bsl_smc *s, int threads) { s->o.threads = threads > 0 ? threads : 0; }

void bsl_smc_k_posterior(const bsl_smc *s, double *prob)
{
    memset(prob, 0, (s->o.kmax + 1) * sizeof *prob);
    for (size_t i = 0; i < s->o.particles; i++) prob[s->p[i].k] += s->W[i];
}

double bsl_smc_mean_k(const bsl_smc *s)
{
    double e = 0;
    for (size_t i = 0; i < s->o.particles; i++) e += s->W[i] * (double)s->p[i].k;
    return e;
}

double bsl_smc_sigma2_mean(const bsl_smc *s)
{
    double e = 0;
    for (size_t i = 0; i < s->o.particles; i++) e += s->W[i] * s->p[i].sigma2;
    return e;
}

double bsl_smc_sigma_mean(const bsl_smc *s)
{
    double e = 0;
    for (size_t i = 0; i < s->o.particles; i++) e += s->W[i] * sqrt(s->p[i].sigma2);
    return e;
}

double bsl_smc_ess(const bsl_smc *s) { return 1 / bsl_dot(s->W, s->W, s->o.particles); }

const double *bsl_smc_candidates(const bsl_smc *s, size_t *m)
{
    *m = s->cache.m;
    return s->cache.xc;
}

void bsl_smc_pip(const bsl_smc *s, double *pip)
{
    memset(pip, 0, s->cache.m * sizeof *pip);
    for (size_t i = 0; i < s->o.particles; i++)
        for (size_t j = 0; j < s->p[i].k; j++) pip[s->p[i].centre[j]] += s->W[i];
}

size_t bsl_smc_particle(const bsl_smc *s, size_t i, const size_t **centres, double *weight,
                        double *sigma2, double *sigma_beta2)
{
    const smc_particle *P = &s->p[i];
    if (centres) *centres = P->centre;
    if (weight) *weight = s->W[i];
    if (sigma2) *sigma2 = P->sigma2;
    if (sigma_beta2) *sigma_beta2 = P->sigma_beta2;
    return P->k;
}
