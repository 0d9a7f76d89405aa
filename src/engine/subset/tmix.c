/*
 * tmix.c: quantiles of a Student-t mixture with a point mass at 0 (tmix.h),
 * F(x) = w0 [x >= 0] + sum_i w_i T_nu_i((x - mu_i) / s_i).
 *
 * A coefficient table asks for two quantiles per term of mixtures over up to
 * --max-models (20000) models, a prediction two per row over the kept
 * models, so the cost is (quantiles) x (CDF passes) x (components) x (one
 * CDF). Each factor but the first is cut here, without changing the answer
 * beyond the stated tolerance:
 *  - components: the smallest ones, holding at most BSL_TMIX_PRUNED of the
 *    weight, are left out and the rest renormalised (found in O(K) from a
 *    histogram of the weights' binary exponents, not by sorting);
 *  - one CDF: components sharing a df share T_nu, tabulated once per
 *    workspace (so once per table or prediction) on the grid z_j = -38 + j/32
 *    as the degree-7 Taylor polynomial of T_nu around each z_j: T_nu(z_j) from
 *    GSL, the other coefficients from the density's Taylor series, which
 *    recurrences give exactly (the t density is C U^a with U = 1 + z^2/nu a
 *    quadratic in z: J.C.P. Miller's recurrence for a power of a series,
 *    k u0 p_k = sum_i (a i - k + i) u_i p_{k-i}; the normal's is exp of a
 *    quadratic: k p_k = -z p_{k-1} - p_{k-2}). At |z - z_j| <= 1/64 the
 *    series (radius |z_j +- i sqrt(nu)| >= 1 for nu >= 1) is truncated
 *    below 64^-8 = 4e-15 of its leading term, so a CDF and its density cost
 *    two Horner passes (~14 flops) instead of gsl_cdf_tdist_P's 80-500 ns;
 *    beyond |z| = 38 (the t's far tails) GSL is called. A table is 155 KB;
 *  - passes: F is a convex combination of the components' CDFs, so the
 *    p-quantile lies between the smallest and the largest component
 *    quantile mu_i + s_i q_nu(p) (and 0 when w0 > 0; one t quantile per
 *    distinct df), and safeguarded Newton never leaves that bracket. It
 *    starts from the Cornish-Fisher quantile of the mixture's first four
 *    moments (the mixture of near-normal t's with spread means is skewed
 *    and heavy-tailed: the normal's guess is off by ~1e-3 sd, this one by
 *    ~1e-5; where skewness or kurtosis are extreme, from the normal). It
 *    stops when a step is below 1e-13 (|x| + spread), or one pass earlier
 *    when the steps contract quadratically (|d_k| <= |d_{k-1}| / 4) and
 *    the error they predict for the next iterate, |d_k|^3 / |d_{k-1}|^2,
 *    is below that: 2-4 passes. spread is the components' mean scale plus
 *    the sd of their locations. (It was the widest scale: one light,
 *    nearly collinear model of scale 700 among kernel models of scale
 *    0.1 let the search stop 1e-10 short.)
 * Without a workspace (or when its memory cannot be had) every CDF comes
 * from GSL and nothing is pruned.
 */
#include "tmix.h"
#include "../../core/core.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TZ 38                                   /* the tables span |z| <= TZ */
#define TSTEPS 32                               /* grid points per unit of z */
#define TN ((size_t)(2 * TZ * TSTEPS + 1))      /* grid points */
#define TC 8                                    /* coefficients per point: degree 7 */
#define NEXP 1100                               /* binary exponents of w / W told apart */
#define PRUNE_MIN 64                            /* fewer components: nothing to gain */
#define OTHER BSL_TMIX_TABLES                   /* group of components whose df found no slot */

static double t_norm(double nu) { return exp(lgamma((nu + 1) / 2) - lgamma(nu / 2)) / sqrt(M_PI * nu); }

/* CDF and density of the standard t_nu (normal for infinite nu) at z from
 * GSL; norm is t_norm(nu). */
static void cdf_direct(double z, double nu, double norm, double *F, double *f)
{
    if (isinf(nu)) {
        *F = gsl_cdf_ugaussian_P(z);
        *f = exp(-0.5 * z * z) / sqrt(2 * M_PI);
        return;
    }
    *F = gsl_cdf_tdist_P(z, nu);
    *f = norm * exp(-0.5 * (nu + 1) * log1p(z * z / nu));
}

/* T_nu's Taylor coefficients at every grid point (TN x TC), or NULL. */
static double *table_build(double nu)
{
    double *c = malloc(TN * TC * sizeof *c);
    if (!c) return NULL;
    const int normal = isinf(nu);
    const double norm = normal ? 1 / sqrt(2 * M_PI) : t_norm(nu), a = -0.5 * (nu + 1);
    for (size_t j = 0; j < TN; j++) {
        const double z = -TZ + (double)j / TSTEPS;
        double p[TC - 1], *cj = c + j * TC;
        if (normal) { /* phi(z + d) = phi(z) exp(-z d - d^2/2) */
            cj[0] = gsl_cdf_ugaussian_P(z);
            p[0] = norm * exp(-0.5 * z * z);
            p[1] = -z * p[0];
            for (int k = 2; k < TC - 1; k++) p[k] = (-z * p[k - 1] - p[k - 2]) / k;
        } else { /* C U(d)^a, U = u0 + u1 d + u2 d^2 */
            const double u0 = 1 + z * z / nu, u1 = 2 * z / nu, u2 = 1 / nu;
            cj[0] = gsl_cdf_tdist_P(z, nu);
            p[0] = norm * exp(a * log1p(z * z / nu));
            for (int k = 1; k < TC - 1; k++) {
                double s = (a - (k - 1)) * u1 * p[k - 1];
                if (k >= 2) s += (2 * a - (k - 2)) * u2 * p[k - 2];
                p[k] = s / (k * u0);
            }
        }
        for (int k = 0; k < TC - 1; k++) cj[k + 1] = p[k] / (k + 1); /* F' = density */
    }
    return c;
}

/* CDF and density from a table; 0 when z is off the grid. Estrin's
 * scheme (pairs, then d^2, then d^4): three dependent steps instead of
 * Horner's seven, so that consecutive components overlap in the pipeline. */
#if TC != 8
#error "table_eval is written for degree 7"
#endif
static inline int table_eval(const double *c, double z, double *F, double *f)
{
    const double r = (z + TZ) * TSTEPS + 0.5;
    if (!(r >= 0 && r < (double)TN)) return 0;
    const size_t j = (size_t)r;
    const double d = z - (-TZ + (double)j / TSTEPS), d2 = d * d, d4 = d2 * d2, *cj = c + j * TC;
    const double a01 = cj[0] + cj[1] * d, a23 = cj[2] + cj[3] * d, a45 = cj[4] + cj[5] * d, a67 = cj[6] + cj[7] * d;
    const double b01 = cj[1] + 2 * cj[2] * d, b23 = 3 * cj[3] + 4 * cj[4] * d, b45 = 5 * cj[5] + 6 * cj[6] * d;
    *F = (a01 + a23 * d2) + (a45 + a67 * d2) * d4;
    *f = (b01 + b23 * d2) + (b45 + 7 * cj[7] * d2) * d4;
    return 1;
}

void bsl_tmix_ws_free(bsl_tmix_ws *ws)
{
    if (!ws) return;
    for (size_t i = 0; i < ws->ntable; i++) free(ws->table[i]);
    free(ws->w);
    free(ws->mu);
    free(ws->is);
    free(ws->bins);
    free(ws->bin_w);
    memset(ws, 0, sizeof *ws);
}

/* The table of nu in ws, built on first use; NULL when there is no room. */
static const double *table_of(bsl_tmix_ws *ws, double nu)
{
    for (size_t i = 0; i < ws->ntable; i++)
        if (ws->nu[i] == nu) return ws->table[i];
    if (ws->ntable == BSL_TMIX_TABLES) return NULL;
    double *c = table_build(nu);
    if (!c) return NULL;
    ws->nu[ws->ntable] = nu;
    ws->table[ws->ntable++] = c;
    return c;
}

/* The kept components, grouped: group g < ng has df nu[g] and the table
 * tab[g] (NULL: GSL), components [start[g], start[g + 1]); then the point
 * masses [start[ng], start[ng + 1]). Weights are divided by the kept total,
 * w0 included. */
typedef struct prep {
    size_t ng;
    double nu[BSL_TMIX_TABLES], norm[BSL_TMIX_TABLES];
    const double *tab[BSL_TMIX_TABLES];
    size_t start[BSL_TMIX_TABLES + 2];
    const double *w, *mu, *is;
    double w0;
    const bsl_tmix *raw; /* non-NULL: no workspace, evaluate t directly */
} prep;

static int grow(bsl_tmix_ws *ws, size_t K)
{
    if (!ws->bin_w && !(ws->bin_w = malloc((NEXP + 1) * sizeof *ws->bin_w))) return -1;
    if (ws->cap >= K) return 0;
    const size_t cap = BSL_MAX(K, 2 * ws->cap);
    double *w = realloc(ws->w, cap * sizeof *w);
    if (!w) return -1;
    ws->w = w;
    double *mu = realloc(ws->mu, cap * sizeof *mu);
    if (!mu) return -1;
    ws->mu = mu;
    double *is = realloc(ws->is, cap * sizeof *is);
    if (!is) return -1;
    ws->is = is;
    size_t *b = realloc(ws->bins, cap * sizeof *b);
    if (!b) return -1;
    ws->bins = b;
    ws->cap = cap;
    return 0;
}

/* The weight below which components are dropped: W 2^-b for the largest
 * b such that the components lighter than that hold at most
 * BSL_TMIX_PRUNED W. Component i falls in bin b = 1 - e, w_i / W in
 * [2^(e-1), 2^e) (frexp). */
static double prune_below(const bsl_tmix *t, double W, bsl_tmix_ws *ws)
{
    double *bin = ws->bin_w;
    memset(bin, 0, (NEXP + 1) * sizeof *bin);
    for (size_t i = 0; i < t->K; i++) {
        if (!(t->w[i] > 0)) continue;
        int e;
        frexp(t->w[i] / W, &e);
        const size_t b = e >= 1 ? 0 : BSL_MIN((size_t)(1 - e), (size_t)NEXP);
        ws->bins[i] = b;
        bin[b] += t->w[i];
    }
    double cum = 0;
    size_t b = NEXP;
    while (b > 0 && cum + bin[b] <= BSL_TMIX_PRUNED * W) cum += bin[b--];
    return b >= NEXP ? 0.0 : ldexp(W, -(int)b);
}

/* The kept components into ws, grouped by df (prep above), and the
 * bracket [lo, hi] of the p-quantile: F is a convex combination of the
 * components' CDFs, so it holds the extreme component quantiles mu_i + s_i
 * q_nu(p) (point masses: mu_i; the mass w0: 0). wmin is the lightest
 * positive weight, W the total. -1 when ws cannot hold them. */
static int prepare(prep *m, const bsl_tmix *t, double W, double wmin, double p, bsl_tmix_ws *ws, double *lo,
                   double *hi)
{
    memset(m, 0, sizeof *m);
    if (grow(ws, t->K + 1)) return -2; /* out of memory */
    /* nothing to prune when the lightest component outweighs the share */
    const double thr = t->K >= PRUNE_MIN && wmin <= BSL_TMIX_PRUNED * W ? prune_below(t, W, ws) : 0.0;
    size_t count[BSL_TMIX_TABLES + 2] = {0};
    double q[BSL_TMIX_TABLES + 2];
    size_t *grp = ws->bins; /* reused: the group of each component */
    double kept = t->w0;
    q[BSL_TMIX_TABLES + 1] = 0; /* a point mass is its own quantile */
    for (size_t i = 0, g = 0; i < t->K; i++) {
        const double w = t->w[i], nu = t->df[i];
        if (!(w > 0) || w < thr) {
            grp[i] = SIZE_MAX;
            continue;
        }
        kept += w;
        if (!(t->s[i] > 0)) {
            g = BSL_TMIX_TABLES + 1;
        } else if (g >= m->ng || m->nu[g] != nu) { /* runs of one df are the rule */
            for (g = 0; g < m->ng && m->nu[g] != nu; g++) {}
            if (g == m->ng && m->ng == BSL_TMIX_TABLES) return -1; /* too many df: GSL throughout */
            if (g == m->ng) {
                m->nu[m->ng++] = nu;
                q[g] = isinf(nu) ? gsl_cdf_ugaussian_Pinv(p) : gsl_cdf_tdist_Pinv(p, nu);
            }
        }
        grp[i] = g;
        count[g]++;
    }
    /* groups 0..ng-1, then the point masses */
    size_t off[BSL_TMIX_TABLES + 2], at = 0;
    for (size_t g = 0; g < m->ng; g++) {
        m->start[g] = off[g] = at;
        at += count[g];
        m->tab[g] = table_of(ws, m->nu[g]);
        if (!m->tab[g] && ws->ntable < BSL_TMIX_TABLES) return -2; /* a slot, but no memory for its table */
        m->norm[g] = isinf(m->nu[g]) ? 0 : t_norm(m->nu[g]);
    }
    m->start[m->ng] = off[BSL_TMIX_TABLES + 1] = at;
    m->start[m->ng + 1] = at + count[BSL_TMIX_TABLES + 1];
    double l = t->w0 > 0 ? 0.0 : INFINITY, h = t->w0 > 0 ? 0.0 : -INFINITY;
    for (size_t i = 0; i < t->K; i++) {
        if (grp[i] == SIZE_MAX) continue;
        const size_t j = off[grp[i]]++;
        const double si = t->s[i] > 0 ? t->s[i] : 0.0, x = t->mu[i] + q[grp[i]] * si;
        ws->w[j] = t->w[i] / kept;
        ws->mu[j] = t->mu[i];
        ws->is[j] = si > 0 ? 1 / si : 0;
        if (x < l) l = x;
        if (x > h) h = x;
    }
    m->w = ws->w;
    m->mu = ws->mu;
    m->is = ws->is;
    m->w0 = t->w0 / kept;
    if (l <= h) { /* else nothing kept (cannot happen with W > 0): search freely */
        *lo = l;
        *hi = h;
    }
    return 0;
}

/* The old way: every component from GSL, nothing pruned. */
static void eval_raw(const bsl_tmix *t, double x, double *F, double *f)
{
    double cdf = t->w0 > 0 && x >= 0 ? t->w0 : 0.0, pdf = 0, last_nu = NAN, norm = 0;
    for (size_t i = 0; i < t->K; i++) {
        const double w = t->w[i], s = t->s[i], nu = t->df[i];
        if (!(s > 0)) {
            cdf += x >= t->mu[i] ? w : 0.0;
            continue;
        }
        if (nu != last_nu) {
            norm = isinf(nu) ? 0 : t_norm(nu);
            last_nu = nu;
        }
        double Fi, fi;
        cdf_direct((x - t->mu[i]) / s, nu, norm, &Fi, &fi);
        cdf += w * Fi;
        pdf += w * fi / s;
    }
    *F = cdf;
    *f = pdf;
}

static void eval(const prep *m, double x, double *F, double *f)
{
    if (m->raw) {
        eval_raw(m->raw, x, F, f);
        return;
    }
    double cdf = x >= 0 ? m->w0 : 0.0, pdf = 0;
    for (size_t g = 0; g < m->ng; g++) {
        const double *tab = m->tab[g], nu = m->nu[g], norm = m->norm[g];
        for (size_t i = m->start[g]; i < m->start[g + 1]; i++) {
            const double z = (x - m->mu[i]) * m->is[i];
            double Fi, fi;
            if (!tab || !table_eval(tab, z, &Fi, &fi)) cdf_direct(z, nu, norm, &Fi, &fi);
            cdf += m->w[i] * Fi;
            pdf += m->w[i] * fi * m->is[i];
        }
    }
    for (size_t i = m->start[m->ng]; i < m->start[m->ng + 1]; i++) cdf += x >= m->mu[i] ? m->w[i] : 0.0;
    *F = cdf;
    *f = pdf;
}

/* A first guess at the p-quantile from the mixture's first four moments
 * (Cornish-Fisher; the normal's when a df <= 4 leaves the kurtosis
 * infinite), about the shift c; with its weight W, mean, spread (the
 * tolerance's scale) and lightest positive weight. */
typedef struct moments {
    double W, mean, spread, wmin, guess;
} moments;

static moments guess(const bsl_tmix *t, double p)
{
    moments r = {t->w0, 0, 0, INFINITY, NAN};
    double c = 0, e1 = 0, e2 = 0, e3 = 0, e4 = 0, ey2 = 0, es = 0, last_nu = NAN, v2 = 1, k4 = 3;
    int finite = 1;
    for (size_t i = 0; i < t->K; i++)
        if (t->w[i] > 0) {
            c = t->mu[i];
            break;
        }
    e1 = -c * t->w0, e2 = ey2 = c * c * t->w0, e3 = -c * c * c * t->w0, e4 = c * c * c * c * t->w0;
    for (size_t i = 0; i < t->K; i++) {
        const double w = t->w[i], y = t->mu[i] - c, s2 = t->s[i] * t->s[i], nu = t->df[i];
        if (nu != last_nu) { /* the t's variance and fourth moment factors */
            last_nu = nu;
            v2 = isinf(nu) ? 1 : nu / (nu - 2);
            k4 = isinf(nu) ? 3 : 3 * nu * nu / ((nu - 2) * (nu - 4));
        }
        finite &= !(s2 > 0) || nu > 4;
        r.W += w;
        e1 += w * y;
        ey2 += w * y * y;
        es += w * t->s[i];
        e2 += w * (y * y + s2 * v2);
        e3 += w * y * (y * y + 3 * s2 * v2);
        e4 += w * (y * y * (y * y + 6 * s2 * v2) + s2 * s2 * k4);
        if (w > 0 && w < r.wmin) r.wmin = w;
    }
    if (!(r.W > 0)) return r;
    const double m = e1 / r.W, mu2 = e2 / r.W - m * m;
    r.mean = c + m;
    /* the typical scale plus the spread of the locations: unlike the sd, a
     * light component of huge scale (a nearly collinear model) leaves it be */
    r.spread = es / r.W + sqrt(fmax(ey2 / r.W - m * m, 0.0));
    const double z = gsl_cdf_ugaussian_Pinv(p), sg = sqrt(fmax(mu2, 0.0));
    r.guess = r.mean + r.spread * z;
    if (finite && sg > 0) {
        const double mu3 = e3 / r.W - 3 * m * e2 / r.W + 2 * m * m * m;
        const double mu4 = e4 / r.W - 4 * m * e3 / r.W + 6 * m * m * e2 / r.W - 3 * m * m * m * m;
        const double g1 = mu3 / (sg * sg * sg), g2 = mu4 / (mu2 * mu2) - 3;
        const double cf = r.mean + sg * (z + (z * z - 1) * g1 / 6 + (z * z * z - 3 * z) * g2 / 24 -
                                         (2 * z * z * z - 5 * z) * g1 * g1 / 36);
        if (isfinite(cf) && fabs(g1) <= 3 && fabs(g2) <= 20) r.guess = cf; /* else the expansion runs wild */
    }
    return r;
}

double bsl_tmix_quantile(const bsl_tmix *t, double p, bsl_tmix_ws *ws)
{
    double F, f;
    const moments mo = guess(t, p);
    const double W = mo.W;
    if (!(W > 0)) return NAN;
    const double scale = fmax(mo.spread, 1e-300);
    prep m;
    double lo = -INFINITY, hi = INFINITY, w0 = t->w0;
    const int prepared = ws ? prepare(&m, t, W, mo.wmin, p, ws, &lo, &hi) : -1;
    if (prepared == -2) {
        ws->oom = 1;
        return NAN;
    }
    if (!prepared) {
        w0 = m.w0;
    } else { /* no workspace, or more distinct df than table slots: GSL's CDFs */
        memset(&m, 0, sizeof m);
        m.raw = t;
    }
    if (w0 > 0) { /* p inside the jump at 0: the quantile is 0 */
        eval(&m, 0.0, &F, &f);
        if (F - w0 < p && p <= F) return 0.0;
        if (F < p) lo = fmax(lo, 0.0);
        else hi = fmin(hi, 0.0);
    }
    /* Newton from the normal approximation; every evaluation narrows the
     * bracket [lo, hi] (F(lo) < p <= F(hi)); steps leaving it bisect it,
     * or, while a side is still open, step out by a doubling width */
    double x = mo.guess, step = scale, last = NAN;
    if (!(x >= lo && x <= hi)) x = isinf(lo) ? hi - step : isinf(hi) ? lo + step : 0.5 * (lo + hi);
    for (int it = 0; it < 400; it++) {
        eval(&m, x, &F, &f);
        if (F < p) lo = x;
        else hi = x;
        const double tol = 1e-13 * (fabs(x) + scale);
        if (hi - lo <= tol) break;
        double xn = f > 0 ? x - (F - p) / f : NAN;
        const double d = fabs(xn - x);
        if (!(xn > lo && xn < hi)) {
            if (isinf(lo)) xn = hi - step;
            else if (isinf(hi)) xn = lo + step;
            else xn = 0.5 * (lo + hi);
            step *= 2;
            last = NAN;
        } else if (d <= tol || (d <= 0.25 * last && d * d * d <= tol * last * last)) {
            x = xn; /* converged, or Newton's next error ~ d^3 / last^2 is below tol */
            break;
        } else {
            last = d;
        }
        x = xn;
    }
    return x;
}

double bsl_tmix_density(const bsl_tmix *t, double x)
{
    /* t_nu(z) = exp(log_c - (nu + 1)/2 log1p(z^2/nu)), log_c = lgamma((nu +
     * 1)/2) - lgamma(nu/2) - log(nu pi)/2, its constant computed once per
     * run of components with the same df (the subset models' df is n - q
     * or n - q - k: a few values), not per component as gsl_ran_tdist_pdf
     * would: a density over a mixture of 10^4 models at 500 points */
    double dens = 0, nu = NAN, log_c = 0;
    for (size_t i = 0; i < t->K; i++) {
        if (!(t->s[i] > 0)) continue;
        const double z = (x - t->mu[i]) / t->s[i];
        if (isinf(t->df[i])) {
            dens += t->w[i] * exp(-0.5 * z * z) / (sqrt(2 * M_PI) * t->s[i]);
            continue;
        }
        if (t->df[i] != nu) {
            nu = t->df[i];
            log_c = lgamma((nu + 1) / 2) - lgamma(nu / 2) - 0.5 * log(nu * M_PI);
        }
        dens += t->w[i] * exp(log_c - (nu + 1) / 2 * log1p(z * z / nu)) / t->s[i];
    }
    return dens;
}
