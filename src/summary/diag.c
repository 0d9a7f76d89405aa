/*
 * diag.c: convergence diagnostics across chains, and the rule that turns
 * them into warnings.
 *
 * The estimators are those of Vehtari, Gelman, Simpson, Carpenter and
 * Buerkner (2021), "Rank-normalization, folding, and localization: an
 * improved R-hat for assessing convergence of MCMC", computed as R's
 * posterior package (1.4) computes them, to rounding (the unit test
 * tests/unit/summary/test_diag.c compares with numbers from that package):
 *
 *   split(x)   each chain cut in halves (an odd length drops its middle draw)
 *   z(x)       normal scores of the average ranks over all draws,
 *              qnorm((r - 3/8) / (S + 1/4)), S the number of draws
 *   rhat       max(R-hat of z(split x), R-hat of z(split |x - median x|)),
 *              R-hat = sqrt((B / W + N - 1) / N) over the half-chains
 *   ess_bulk   ESS of z(split x)
 *   ess_tail   min(ESS of split 1{x <= q05}, ESS of split 1{x <= q95}),
 *              q the type-7 quantiles of all draws
 *   ESS        M N / tau, tau = -1 + 2 sum rho_t from the chains' biased
 *              autocovariances (direct sums for the first lags, FFT
 *              beyond), rho_t = 1 - (W - acov_t) / var+,
 *              Geyer's initial positive then monotone sequence, tau at
 *              least 1 / log10(M N)
 *
 * A quantity that never changes (every draw equal) has none of these
 * (posterior's NA, here NaN); half-chains each constant but different give
 * R-hat +inf: chains that stay on different values. One departure: where
 * the folded R-hat is undefined and the bulk one is not, rhat is the bulk
 * one (posterior answers NA; see conv()).
 */
#include "summary.h"

#include <float.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fft_halfcomplex.h>
#include <gsl/gsl_fft_real.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ estimators */

typedef struct ranked {
    double v;
    size_t i;
} ranked;

typedef struct dwork {
    size_t S;       /* chains x len: every draw */
    ranked *p, *f;  /* S each: the draws sorted by value, by |x - median| */
    double *a, *b;  /* S each: split, transformed draws */
    double *acov;   /* N: mean autocovariance over half-chains */
    double *rho;    /* N: Geyer's sequence */
    double *mu;     /* 2 chains: the half-chains' means */
    double *fft;    /* nfft */
    size_t nfft;
} dwork;

/* An order-preserving 64-bit key of a finite double: IEEE 754's bits with
 * the sign bit flipped for positives and every bit for negatives, -0 as +0
 * (equal in the draws' order). */
static uint64_t order_key(double v)
{
    uint64_t u;
    v = v == 0 ? 0.0 : v;
    memcpy(&u, &v, sizeof u);
    return u >> 63 ? ~u : u | (UINT64_C(1) << 63);
}

/* p[0..S) sorted by value, ties by index (the draws' order), by a
 * least-significant-digit radix sort on order_key, one byte a pass (tmp: S
 * more): it is stable and p arrives in index order. Why not qsort: the
 * traces sorted here are chains x len draws (300000 for rj's 4 x 75000),
 * mostly of few distinct values (model sizes, indicators), where qsort's
 * comparisons cost a twentieth of a whole rj fit; passes over a byte that
 * every key shares (most of them, for integer values) are skipped. */
static void sort_by_value(ranked *p, ranked *tmp, size_t S)
{
    size_t count[8][256] = {{0}};
    for (size_t i = 0; i < S; i++) {
        const uint64_t k = order_key(p[i].v);
        for (int d = 0; d < 8; d++) count[d][(k >> (8 * d)) & 255]++;
    }
    ranked *from = p, *to = tmp;
    for (int d = 0; d < 8; d++) {
        if (S == 0 || count[d][(order_key(p[0].v) >> (8 * d)) & 255] == S) continue; /* one byte for all */
        size_t at[256], sum = 0;
        for (int b = 0; b < 256; b++) {
            at[b] = sum;
            sum += count[d][b];
        }
        for (size_t i = 0; i < S; i++) to[at[(order_key(from[i].v) >> (8 * d)) & 255]++] = from[i];
        ranked *t = from;
        from = to;
        to = t;
    }
    if (from != p) memcpy(p, from, S * sizeof *p);
}

/* posterior's should_return_NA: a non-finite value, or max - min below
 * DBL_EPSILON. Comparisons, not fmin/fmax: the values are finite here, and
 * libm's calls were 2 % of an rj fit (every atom's trace, several times). */
static int is_constant(const double *x, size_t n)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i])) return 1;
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    return !(fabs(hi - lo) >= DBL_EPSILON);
}

/* Split: chains rows of len into 2 chains rows of N = len / 2 (the middle
 * draw of an odd length dropped). */
static void split(const double *x, size_t chains, size_t len, double *out)
{
    const size_t N = len / 2;
    for (size_t c = 0; c < chains; c++) {
        memcpy(out + 2 * c * N, x + c * len, N * sizeof *out);
        memcpy(out + (2 * c + 1) * N, x + c * len + (len - N), N * sizeof *out);
    }
}

/* Where split() puts draw i (chain i / len, draw i % len), or SIZE_MAX
 * for the middle draw of an odd length, which it drops. */
static size_t split_pos(size_t i, size_t len)
{
    const size_t c = i / len, t = i % len, N = len / 2;
    if (t < N) return 2 * c * N + t;
    if (t >= len - N) return (2 * c + 1) * N + (t - (len - N));
    return SIZE_MAX;
}

/* z(split x) into out (2 N per chain) from the draws sorted by value, p[0..S):
 * normal scores of the average ranks among the draws split keeps (ties
 * share the mean of their ranks), c = 3/8 (Blom). */
static void z_split(const ranked *p, size_t S, size_t len, double *out)
{
    const size_t Sz = S / len * 2 * (len / 2);
    size_t r = 0; /* ranks 1..r given */
    for (size_t i = 0; i < S;) {
        size_t j = i, kept = 0;
        for (; j < S && p[j].v == p[i].v; j++) kept += split_pos(p[j].i, len) != SIZE_MAX;
        const double rank = (double)r + 0.5 * (double)(kept + 1); /* mean of r+1 .. r+kept */
        const double z = gsl_cdf_ugaussian_Pinv((rank - 0.375) / ((double)Sz + 0.25));
        for (size_t l = i; l < j; l++) {
            const size_t pos = split_pos(p[l].i, len);
            if (pos != SIZE_MAX) out[pos] = z;
        }
        r += kept;
        i = j;
    }
}

/* The draws sorted by |x - med| into f, from p, sorted by x: two runs
 * (outwards from the median on either side) merged in O(S). */
static void fold_sorted(const ranked *p, size_t S, double med, ranked *f)
{
    size_t hi = 0;
    while (hi < S && p[hi].v < med) hi++;
    size_t lo = hi; /* p[lo - 1] is the next below the median */
    for (size_t k = 0; k < S; k++) {
        const double dl = lo > 0 ? fabs(p[lo - 1].v - med) : INFINITY;
        const double dh = hi < S ? fabs(p[hi].v - med) : INFINITY;
        if (hi < S && (dh <= dl || lo == 0)) {
            f[k] = (ranked){dh, p[hi].i};
            hi++;
        } else {
            f[k] = (ranked){dl, p[lo - 1].i};
            lo--;
        }
    }
}

/* The mean with R's correction pass, so that a constant sequence has its
 * value as its mean exactly (and variance 0, not rounding noise). */
static double mean_of(const double *x, size_t n)
{
    double s = 0, r = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    const double mu = s / (double)n;
    for (size_t i = 0; i < n; i++) r += x[i] - mu;
    return mu + r / (double)n;
}

/* R-hat of M sequences of N (posterior's .rhat). */
static double rhat_basic(const double *x, size_t M, size_t N)
{
    if (N < 2 || is_constant(x, M * N)) return NAN;
    double W = 0, mbar = 0, B = 0;
    for (size_t s = 0; s < M; s++) {
        const double *q = x + s * N, mu = mean_of(q, N);
        double v = 0;
        for (size_t i = 0; i < N; i++) v += (q[i] - mu) * (q[i] - mu);
        W += v / (double)(N - 1) / (double)M;
        mbar += mu;
    }
    mbar /= (double)M;
    for (size_t s = 0; s < M; s++) {
        const double mu = mean_of(x + s * N, N);
        B += (mu - mbar) * (mu - mbar);
    }
    if (M < 2) return NAN; /* var() of one chain mean */
    B *= (double)N / (double)(M - 1);
    return sqrt((B / W + (double)N - 1) / (double)N);
}

/* Add the biased autocovariances of q[0..N) (lags 0..N-1) to acov, by FFT
 * with zero padding to nfft >= 2N (posterior's autocovariance: a constant
 * sequence has none). */
static void add_autocov(const double *q, size_t N, double *acov, double *f, size_t nfft)
{
    const double mu = mean_of(q, N);
    int moves = 0;
    for (size_t i = 1; i < N && !moves; i++) moves = q[i] != q[0];
    if (!moves) return;
    double var = 0;
    for (size_t i = 0; i < N; i++) var += (q[i] - mu) * (q[i] - mu);
    var /= (double)N; /* biased */
    memset(f, 0, nfft * sizeof *f);
    for (size_t i = 0; i < N; i++) f[i] = q[i] - mu;
    gsl_fft_real_radix2_transform(f, 1, nfft);
    /* halfcomplex |F|^2: f[k] real, f[nfft - k] imaginary part */
    f[0] *= f[0];
    for (size_t k = 1; k < nfft / 2; k++) {
        f[k] = f[k] * f[k] + f[nfft - k] * f[nfft - k];
        f[nfft - k] = 0;
    }
    f[nfft / 2] *= f[nfft / 2];
    gsl_fft_halfcomplex_radix2_inverse(f, 1, nfft);
    for (size_t t = 0; t < N; t++) acov[t] += f[t] / f[0] * var;
}

/* The mean autocovariance over the M sequences at lag t, on demand: the
 * first DIRECT_LAGS lags by direct sums (Geyer's sequence mostly stops
 * within a few lags), all of them by FFT once a lag beyond is asked for.
 * Both are the biased estimate; they differ by rounding only. */
#define DIRECT_LAGS 32
typedef struct acov_src {
    const double *x;
    size_t M, N, have; /* acov[0..have) known */
    dwork *w;
} acov_src;

static double acov_at(acov_src *a, size_t t)
{
    dwork *w = a->w;
    const size_t M = a->M, N = a->N;
    if (t < a->have) return w->acov[t];
    if (t >= DIRECT_LAGS) {
        memset(w->acov, 0, N * sizeof *w->acov);
        for (size_t s = 0; s < M; s++) add_autocov(a->x + s * N, N, w->acov, w->fft, w->nfft);
        for (size_t l = 0; l < N; l++) w->acov[l] /= (double)M;
        a->have = N;
        return w->acov[t];
    }
    for (size_t l = a->have; l <= t; l++) {
        double sum = 0;
        for (size_t s = 0; s < M; s++) {
            const double *q = a->x + s * N, mu = w->mu[s];
            double c = 0;
            for (size_t i = 0; i + l < N; i++) c += (q[i] - mu) * (q[i + l] - mu);
            sum += c / (double)N;
        }
        w->acov[l] = sum / (double)M;
    }
    a->have = t + 1;
    return w->acov[t];
}

/* ESS of M sequences of N (posterior's .ess). */
static double ess_basic(const double *x, size_t M, size_t N, dwork *w)
{
    if (N < 3 || is_constant(x, M * N)) return NAN;
    acov_src a = {x, M, N, 0, w};
    double mbar = 0, vm = 0;
    for (size_t s = 0; s < M; s++) {
        w->mu[s] = mean_of(x + s * N, N);
        mbar += w->mu[s] / (double)M;
    }
    const double mean_var = acov_at(&a, 0) * (double)N / (double)(N - 1);
    double var_plus = mean_var * (double)(N - 1) / (double)N;
    if (M > 1) {
        for (size_t s = 0; s < M; s++) vm += (w->mu[s] - mbar) * (w->mu[s] - mbar);
        var_plus += vm / (double)(M - 1);
    }
    double *rho = w->rho;
    memset(rho, 0, N * sizeof *rho);
    size_t t = 0;
    double even = 1, odd = 1 - (mean_var - acov_at(&a, 1)) / var_plus;
    rho[0] = even;
    rho[1] = odd;
    /* Geyer's initial positive sequence */
    while (t + 5 < N && !isnan(even + odd) && even + odd > 0) {
        t += 2;
        even = 1 - (mean_var - acov_at(&a, t)) / var_plus;
        odd = 1 - (mean_var - acov_at(&a, t + 1)) / var_plus;
        if (even + odd >= 0) {
            rho[t] = even;
            rho[t + 1] = odd;
        }
    }
    const size_t max_t = t;
    if (even > 0) rho[max_t] = even;
    /* Geyer's initial monotone sequence */
    for (t = 2; max_t >= 4 && t <= max_t - 2; t += 2)
        if (rho[t] + rho[t + 1] > rho[t - 2] + rho[t - 1]) {
            rho[t] = (rho[t - 2] + rho[t - 1]) / 2;
            rho[t + 1] = rho[t];
        }
    /* R's sum(rho_hat_t[1:max_t]) is rho[0] alone when max_t is 0 */
    double sum = 0;
    for (t = 0; t < (max_t ? max_t : 1); t++) sum += rho[t];
    const double S = (double)(M * N);
    const double tau = fmax(-1 + 2 * sum + rho[max_t], 1 / log10(S));
    return S / tau;
}

/* Type-7 quantile of sorted s[0..n) (R's quantile default, to the same
 * rounding). */
static double quantile7(const ranked *s, size_t n, double prob)
{
    const double index = 1 + (double)(n - 1) * prob;
    const size_t lo = (size_t)floor(index), hi = (size_t)ceil(index);
    double q = s[lo - 1].v;
    const double h = index - (double)lo;
    if (index > (double)lo && s[hi - 1].v != q) q = (1 - h) * q + h * s[hi - 1].v;
    return q;
}

/* ESS of the split indicator 1{x <= q}. */
static double ess_below(const double *x, size_t chains, size_t len, double q, dwork *w)
{
    for (size_t i = 0; i < chains * len; i++) w->b[i] = x[i] <= q ? 1.0 : 0.0;
    split(w->b, chains, len, w->a);
    return ess_basic(w->a, 2 * chains, len / 2, w);
}

static void conv(const double *x, size_t chains, size_t len, bsl_conv *out, dwork *w)
{
    const size_t S = chains * len, M = 2 * chains, N = len / 2;
    *out = (bsl_conv){NAN, NAN, NAN};
    /* a constant quantity (most atoms of a large dictionary: never in)
     * has none of them: no sorting */
    if (len < 2 || is_constant(x, S)) return;
    /* one sort: the ranks of the split draws, the median, the quantiles,
     * and (merged outwards from the median) the order of |x - median| */
    for (size_t i = 0; i < S; i++) w->p[i] = (ranked){x[i], i};
    sort_by_value(w->p, w->f, S); /* w->f: scratch until fold_sorted fills it */
    const long double mid = S % 2 ? (long double)w->p[S / 2].v
                                  : ((long double)w->p[S / 2 - 1].v + w->p[S / 2].v) / 2;
    const double med = (double)mid, q05 = quantile7(w->p, S, 0.05), q95 = quantile7(w->p, S, 0.95);
    /* bulk: z(split x) */
    z_split(w->p, S, len, w->a);
    const double rhat_bulk = rhat_basic(w->a, M, N);
    out->ess_bulk = ess_basic(w->a, M, N, w);
    /* tail: z(split |x - median x|) */
    fold_sorted(w->p, S, med, w->f);
    z_split(w->f, S, len, w->a);
    const double rhat_tail = rhat_basic(w->a, M, N);
    /* posterior takes max(bulk, tail), NA when either is; the folded draws
     * are constant when the draws take two values symmetric about their
     * median (an indicator at exactly 1/2, chains stuck at 0 and at 1), and
     * the bulk R-hat alone then answers (+inf for the stuck chains) */
    out->rhat = isnan(rhat_tail) ? rhat_bulk : isnan(rhat_bulk) ? rhat_tail : fmax(rhat_bulk, rhat_tail);
    /* the two indicators are one when no draw lies in (q05, q95] (an
     * indicator trace mostly at 0, say) */
    size_t between = 0;
    for (size_t i = 0; i < S; i++) between += x[i] > q05 && x[i] <= q95;
    const double e05 = ess_below(x, chains, len, q05, w);
    const double e95 = between ? ess_below(x, chains, len, q95, w) : e05;
    out->ess_tail = isnan(e05) || isnan(e95) ? NAN : fmin(e05, e95);
}

static void dwork_free(dwork *w)
{
    free(w->p);
    free(w->f);
    free(w->a);
    free(w->b);
    free(w->acov);
    free(w->rho);
    free(w->mu);
    free(w->fft);
}

static int dwork_init(dwork *w, size_t chains, size_t len)
{
    memset(w, 0, sizeof *w);
    w->S = chains * len;
    /* half-chains of len / 2 draws, zero-padded to twice that */
    w->nfft = 2;
    while (w->nfft < 2 * (len / 2)) w->nfft *= 2;
    w->p = bsl_malloc(w->S + 1, sizeof *w->p);
    w->f = bsl_malloc(w->S + 1, sizeof *w->f);
    w->a = bsl_malloc(w->S + 1, sizeof *w->a);
    w->b = bsl_malloc(w->S + 1, sizeof *w->b);
    w->acov = bsl_malloc(len + 1, sizeof *w->acov);
    w->rho = bsl_malloc(len + 1, sizeof *w->rho);
    w->mu = bsl_malloc(2 * chains, sizeof *w->mu);
    w->fft = bsl_malloc(w->nfft, sizeof *w->fft);
    if (w->p && w->f && w->a && w->b && w->acov && w->rho && w->mu && w->fft) return BASEL_OK;
    dwork_free(w);
    return BASEL_ENOMEM;
}

int bsl_conv_of(const double *x, size_t chains, size_t len, bsl_conv *out)
{
    dwork w;
    *out = (bsl_conv){NAN, NAN, NAN};
    if (chains == 0 || len == 0) return BASEL_OK;
    if (dwork_init(&w, chains, len)) return BASEL_ENOMEM;
    conv(x, chains, len, out, &w);
    dwork_free(&w);
    return BASEL_OK;
}

int bsl_trace_diagnostics(const double *const *traces, const unsigned char *const *seen, size_t chains, size_t L,
                          size_t m, double *rhat_pip, double *ess_pip, double *ess_tail_pip, bsl_conv *size)
{
    dwork w;
    double *x = bsl_malloc(chains * (L ? L : 1), sizeof(double));
    if (!x || dwork_init(&w, chains, L ? L : 1)) {
        free(x);
        return BASEL_ENOMEM;
    }
    /* an atom no chain ever recorded has the same all-zero rows as any
     * other: its diagnostics are computed once, without reading its rows
     * (at m = 10^5 and 4 chains, 320 MB of pages never written, which
     * reading would map in) */
    bsl_conv zero = {NAN, NAN, NAN};
    int have_zero = 0;
    for (size_t j = 0; j <= m; j++) {
        int any = !seen || j == m;
        for (size_t c = 0; c < chains && !any; c++) any = seen[c][j];
        bsl_conv cv = {NAN, NAN, NAN};
        if (!any && have_zero) {
            cv = zero;
        } else {
            for (size_t c = 0; c < chains; c++)
                if (any) memcpy(x + c * L, traces[c] + j * L, L * sizeof *x);
                else memset(x + c * L, 0, L * sizeof *x);
            if (L >= 4) conv(x, chains, L, &cv, &w);
            if (!any) zero = cv, have_zero = 1;
        }
        if (j == m) {
            *size = cv;
            break;
        }
        rhat_pip[j] = cv.rhat;
        ess_pip[j] = cv.ess_bulk;
        if (ess_tail_pip) ess_tail_pip[j] = cv.ess_tail;
    }
    dwork_free(&w);
    free(x);
    return BASEL_OK;
}

/* ------------------------------------------------------------ traces */

#define TRACE_HUGE_MAX ((size_t)1 << 20)
int bsl_trace_init(bsl_trace *t, size_t m, size_t iter, size_t max_len)
{
    t->m = m;
    t->L = BSL_MIN(iter, max_len);
    t->step = t->L ? iter / t->L : 1;
    /* up to 8 MB (m of about 1000) on huge pages: their pages are written
     * all over, where a large dictionary's trace is mostly rows of atoms
     * never active, never touched on small pages */
    const size_t nx = (m + 1) * (t->L ? t->L : 1);
    t->x = nx <= TRACE_HUGE_MAX ? bsl_calloc_huge(nx, sizeof(double)) : bsl_calloc(nx, sizeof(double));
    t->w = bsl_calloc(t->L ? t->L : 1, sizeof(double));
    t->seen = bsl_calloc(m ? m : 1, 1);
    return t->x && t->w && t->seen ? BASEL_OK : BASEL_ENOMEM;
}

void bsl_trace_free(bsl_trace *t)
{
    free(t->x);
    free(t->w);
    free(t->seen);
    t->x = t->w = NULL;
    t->seen = NULL;
}

void bsl_trace_record(bsl_trace *t, size_t it, const size_t *active, size_t k)
{
    if (!t || it % t->step != 0 || it / t->step >= t->L) return;
    const size_t s = it / t->step, L = t->L;
    /* a snapshot holds ones only where its size (row m) says so: a fresh
     * one (zeroed by calloc) or one of size 0 needs no clearing, and the
     * pages of atoms never active are then never touched (at m = 10^5, 4
     * chains x 100 snapshots: 320 MB of zeros that were written and kept) */
    if (t->x[t->m * L + s] != 0.0)
        for (size_t j = 0; j < t->m; j++) t->x[j * L + s] = 0.0;
    for (size_t i = 0; active && i < k; i++) {
        t->x[active[i] * L + s] = 1.0;
        t->seen[active[i]] = 1;
    }
    t->x[t->m * L + s] = (double)k;
}

void bsl_trace_add(bsl_trace *t, size_t it, const size_t *active, size_t k, double weight)
{
    if (!t || it / t->step >= t->L) return;
    const size_t s = it / t->step, L = t->L;
    for (size_t i = 0; i < k; i++) {
        t->x[active[i] * L + s] += weight;
        t->seen[active[i]] = 1;
    }
    t->x[t->m * L + s] += weight * (double)k;
    t->w[s] += weight;
}

void bsl_trace_finish(bsl_trace *t)
{
    for (size_t s = 0; t && s < t->L; s++)
        if (t->w[s] > 0) {
            for (size_t j = 0; j <= t->m; j++) t->x[j * t->L + s] /= t->w[s];
            /* a snapshot once divided holds weight 1, so that finishing again
             * changes nothing: a chain that finished before a checkpoint is
             * finished again when the run restarts (bd.c) */
            t->w[s] = 1.0;
        }
}

void bsl_trace_truncate(bsl_trace *t, size_t len)
{
    if (len >= t->L) return;
    for (size_t j = 0; j <= t->m; j++) /* to lower addresses, in order: no overlap is read after it is written */
        memmove(t->x + j * len, t->x + j * t->L, len * sizeof *t->x);
    t->L = len;
}

/* ------------------------------------------------------------ the rule */

static int in_band(double p)
{
    return p >= BSL_CONV_PIP_LO && p <= 1 - BSL_CONV_PIP_LO;
}

/* The name of quantity j (m: the size). */
static void quantity(char *buf, size_t len, const bsl_conv_check *c, size_t j)
{
    if (j == c->m) snprintf(buf, len, "%s", c->size_name ? c->size_name : "the model size");
    else if (c->names && c->names[j]) snprintf(buf, len, "%s's PIP", c->names[j]);
    else snprintf(buf, len, "atom %zu's PIP", j + 1);
}

/* Whether every quantity is NaN: no draw ever differed from another. */
static int never_moved(const bsl_conv_check *c)
{
    if (!isnan(c->size.rhat)) return 0;
    for (size_t j = 0; c->rhat_pip && j < c->m; j++)
        if (!isnan(c->rhat_pip[j])) return 0;
    return 1;
}

size_t bsl_conv_warnings(const bsl_conv_check *c, const char *advice,
                         char w[][BSL_CONV_WARNING_LEN])
{
    size_t nw = 0;
    const char *what = c->what ? c->what : "model";
    if (c->draws < 4) {
        snprintf(w[nw++], BSL_CONV_WARNING_LEN,
                 "%zu recorded draws per chain: too few to check convergence; %s", c->draws, advice);
        return nw;
    }
    /* one chain that never moved is stuck as far as anyone can tell;
     * several that all stay on the same model agree (they started apart:
     * the mixture's from the prior), and their R-hat, undefined, is left
     * out like that of any quantity constant over every draw */
    if (c->chains == 1 && never_moved(c)) {
        snprintf(w[nw++], BSL_CONV_WARNING_LEN,
                 "the %s never changed in %zu recorded draws of %zu chain%s (R-hat and ESS undefined%s): "
                 "the sampler did not move; %s",
                 what, c->draws, c->chains, c->chains == 1 ? "" : "s",
                 c->m ? ", PIPs exactly 0 or 1" : "", advice);
        return nw;
    }
    /* chains stuck alike agree, so R-hat cannot see them; that almost no
     * move that changes the model was accepted can (issue 30 item 5) */
    if (c->moves_proposed > 0 && c->moves_accepted < BSL_MOVE_ACCEPT_MIN * c->moves_proposed) {
        char who[48];
        if (c->chains == 1) snprintf(who, sizeof who, "the chain");
        else snprintf(who, sizeof who, "the %zu chains together", c->chains);
        snprintf(w[nw++], BSL_CONV_WARNING_LEN,
                 "%s accepted %.2g %% of the %.0f moves that change the %s (below %g %% warns): %s; %s", who,
                 100 * c->moves_accepted / c->moves_proposed, c->moves_proposed, what, 100 * BSL_MOVE_ACCEPT_MIN,
                 c->chains == 1 ? "it may look settled because it is stuck"
                                : "they may agree because they are stuck alike, not because they converged",
                 advice);
    }
    /* the worst R-hat and the smallest ESS over the size (j = m) and the
     * PIPs inside the band */
    double worst = NAN, least = NAN;
    size_t jw = 0, je = 0;
    for (size_t j = 0; j <= c->m; j++) {
        double rh, eb, et;
        if (j == c->m) {
            rh = c->size.rhat, eb = c->size.ess_bulk, et = c->size.ess_tail;
        } else {
            if (!c->rhat_pip || !c->pip || !in_band(c->pip[j])) continue;
            rh = c->rhat_pip[j];
            eb = c->ess_pip ? c->ess_pip[j] : NAN;
            et = c->ess_tail_pip ? c->ess_tail_pip[j] : NAN;
        }
        if (!isnan(rh) && !(rh <= worst)) worst = rh, jw = j;
        const double e = isnan(et) ? eb : isnan(eb) ? et : fmin(eb, et);
        if (!isnan(e) && !(e >= least)) least = e, je = j;
    }
    char name[160];
    if (worst > BSL_RHAT_MAX) {
        quantity(name, sizeof name, c, jw);
        if (isinf(worst))
            snprintf(w[nw++], BSL_CONV_WARNING_LEN,
                     "R-hat of %s is inf: the chains (or the halves of a chain) stay on different values; %s",
                     name, advice);
        else {
            /* three decimals, or as many as show it above the bound (1.0104,
             * not "1.010 (above 1.01)") */
            int digits = 3;
            char shown[32];
            for (; digits < 8; digits++) {
                snprintf(shown, sizeof shown, "%.*f", digits, worst);
                if (strtod(shown, NULL) > BSL_RHAT_MAX) break;
            }
            snprintf(w[nw++], BSL_CONV_WARNING_LEN,
                     "R-hat of %s is %.*f (above %.2f): the chains (or the halves of a chain) disagree; %s", name, digits,
                     worst, BSL_RHAT_MAX, advice);
        }
    }
    if (least < BSL_ESS_MIN) {
        quantity(name, sizeof name, c, je);
        snprintf(w[nw++], BSL_CONV_WARNING_LEN,
                 "effective sample size of %s is %.0f (below %.0f): too few for reliable estimates; %s",
                 name, least, BSL_ESS_MIN, advice);
    }
    return nw;
}
