/*
 * smc_resample.c: the resampling step of Algorithm 1 (paper 003): ancestor
 * indices by multinomial, systematic, stratified or residual resampling,
 * each unbiased (E[copies of i] = N W_i), and the copy of the chosen
 * particles into the spare buffer, which then becomes the system.
 *
 * Invariant: anc is nondecreasing for every scheme except residual's
 * multinomial remainder (sorted too: the remainder uniforms are sorted), so
 * the copy order does not matter for reproducibility anyway. Particle slot i
 * keeps its own generator; only the state moves.
 */
#include "smc_impl.h"

#include <math.h>

/* Invert the CDF of W at the nondecreasing points u[0..n) in [0, 1). */
static void invert_sorted(const double *W, size_t N, const double *u, size_t n, size_t *anc)
{
    /* cap at the last positive weight: rounding can leave the cumulative
     * sum just below u near 1, and a zero-weight particle must never live */
    size_t last = N - 1;
    while (last > 0 && !(W[last] > 0)) last--;
    size_t j = 0;
    double cum = W[0];
    for (size_t i = 0; i < n; i++) {
        while (u[i] >= cum && j < last) cum += W[++j];
        anc[i] = j;
    }
}

/* n sorted uniforms in O(n) from exponential spacings. */
static void sorted_uniforms(gsl_rng *r, size_t n, double *u)
{
    double acc = 0;
    for (size_t i = 0; i < n; i++) u[i] = (acc += -log1p(-gsl_rng_uniform(r)));
    const double total = acc - log1p(-gsl_rng_uniform(r));
    for (size_t i = 0; i < n; i++) u[i] /= total;
}

/* floor(N W_i) copies of i, then the remainder multinomially on the
 * residual weights (u doubles as their storage). */
static void residual(const double *W, size_t N, gsl_rng *r, double *u, size_t *anc)
{
    size_t filled = 0;
    double rsum = 0;
    for (size_t i = 0; i < N; i++) {
        const double nw = (double)N * W[i];
        size_t copies = (size_t)floor(nw);
        if (filled + copies > N) copies = N - filled;
        for (size_t c = 0; c < copies; c++) anc[filled++] = i;
        rsum += nw - floor(nw);
    }
    const size_t rest = N - filled;
    if (rest == 0) return;
    /* residual CDF kept in u as we invert, to avoid another buffer */
    double *ru = u;
    size_t last = N - 1;
    while (last > 0 && !(W[last] > 0)) last--;
    sorted_uniforms(r, rest, ru);
    size_t j = 0;
    double cum = ((double)N * W[0] - floor((double)N * W[0])) / rsum;
    for (size_t i = 0; i < rest; i++) {
        while (ru[i] >= cum && j + 1 < N && !(j + 1 > last)) {
            j++;
            cum += ((double)N * W[j] - floor((double)N * W[j])) / rsum;
        }
        anc[filled + i] = j;
    }
}

void bsl_smc_resample_indices(int scheme, const double *W, size_t N, gsl_rng *r, double *u,
                              size_t *anc)
{
    switch (scheme) {
    case BSL_SMC_MULTINOMIAL: sorted_uniforms(r, N, u); break;
    case BSL_SMC_SYSTEMATIC: {
        const double u0 = gsl_rng_uniform(r);
        for (size_t i = 0; i < N; i++) u[i] = ((double)i + u0) / (double)N;
        break;
    }
    case BSL_SMC_STRATIFIED:
        for (size_t i = 0; i < N; i++) u[i] = ((double)i + gsl_rng_uniform(r)) / (double)N;
        break;
    default: residual(W, N, r, u, anc); return;
    }
    invert_sorted(W, N, u, N, anc);
}

void bsl_smc_resample(bsl_smc *s)
{
    const size_t N = s->o.particles;
    bsl_smc_resample_indices(s->o.resample_scheme, s->W, N, s->master, s->u, s->anc);
    for (size_t i = 0; i < N; i++) {
        bsl_smc_particle_copy(&s->q[i], &s->p[s->anc[i]]);
        s->q[i].log_w = 0;
    }
    smc_particle *tmp = s->p;
    s->p = s->q;
    s->q = tmp;
    for (size_t i = 0; i < N; i++) s->W[i] = 1 / (double)N;
    s->n_resample++;
    /* distinct ancestors (anc is not sorted throughout under residual
     * resampling): mark them in u, free again after the indices are drawn */
    for (size_t i = 0; i < N; i++) s->u[i] = 0;
    size_t unique = 0;
    for (size_t i = 0; i < N; i++)
        if (s->u[s->anc[i]] == 0) s->u[s->anc[i]] = 1, unique++;
    s->unique_last = unique;
}
