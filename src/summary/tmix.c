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
 *    is below that: 2-4 passes. An interval's two ends take one: the
 *    first pass also sums the density's first two derivatives (from the
 *    same polynomials), and Halley's step from the Cornish-Fisher start is
 *    taken as the answer when its cubic error estimate is below a
 *    sixteenth of the tolerance (search_first); on sinc's kernel fit every
 *    one of 2000 quantiles was. spread is the components' mean scale plus
 *    the sd of their locations. (It was the widest scale: one light,
 *    nearly collinear model of scale 700 among kernel models of scale
 *    0.1 let the search stop 1e-10 short.)
 * Without a workspace (or when its memory cannot be had) every CDF comes
 * from GSL and nothing is pruned.
 */
#include "tmix.h"
#include "../core/core.h"

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

/* The density's first two derivatives over the density at z: f'/f and
 * f''/f (normal: -z and z^2 - 1; t_nu: a = -(nu + 1) z / (nu + z^2) and
 * a^2 + a', a' = -(nu + 1) (nu - z^2) / (nu + z^2)^2). */
static void dens_ratios(double z, double nu, double *r1, double *r2)
{
    if (isinf(nu)) {
        *r1 = -z;
        *r2 = z * z - 1;
        return;
    }
    const double u = nu + z * z, a = -(nu + 1) * z / u;
    *r1 = a;
    *r2 = a * a - (nu + 1) * (nu - z * z) / (u * u);
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

/* What prepare found for fixed weights (bsl_tmix_ws_fixed): its groups
 * (m, without locations and scales), the quantiles of the standard t of
 * each group at p, and the component in each kept slot. Made only when
 * every kept component had a positive scale (no point masses). */
typedef struct tmix_plan {
    prep m;
    size_t K, np;
    double p[BSL_TMIX_MAXQ];
    double q[BSL_TMIX_TABLES][BSL_TMIX_MAXQ];
    size_t *comp;
} tmix_plan;

void bsl_tmix_ws_fixed(bsl_tmix_ws *ws) { ws->fixed = 1; }

static void plan_drop(bsl_tmix_ws *ws)
{
    if (ws->plan) free(ws->plan->comp);
    free(ws->plan);
    ws->plan = NULL;
}

void bsl_tmix_ws_free(bsl_tmix_ws *ws)
{
    if (!ws) return;
    plan_drop(ws);
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

/* prepare_planned's gathering of the kept slots j0..j1 - 1 of one df
 * group (q: its standard quantiles at the two p) into mu and is, and the
 * bracket's extremes l, h of mu_i + q s_i: the same comparisons in the
 * same order as the general loop, with the four extremes in locals. In
 * an array of variable length they made a round trip through the stack
 * per component, which was most of the preparation's time (perf: 11 % of
 * predicting 1000 rows from the kernel fit). 1 when a slot's scale is not
 * positive. */
static int bracket2(const bsl_tmix *t, const size_t *comp, size_t j0, size_t j1, const double *q, double *mu,
                    double *is, double *l, double *h)
{
    double l0 = l[0], l1 = l[1], h0 = h[0], h1 = h[1];
    const double q0 = q[0], q1 = q[1];
    int flat = 0;
    for (size_t j = j0; j < j1; j++) {
        const size_t i = comp[j];
        const double si = t->s[i], mi = t->mu[i], x0 = mi + q0 * si, x1 = mi + q1 * si;
        flat |= !(si > 0);
        mu[j] = mi;
        is[j] = 1 / si;
        l0 = x0 < l0 ? x0 : l0;
        h0 = x0 > h0 ? x0 : h0;
        l1 = x1 < l1 ? x1 : l1;
        h1 = x1 > h1 ? x1 : h1;
    }
    l[0] = l0, l[1] = l1, h[0] = h0, h[1] = h1;
    return flat;
}

/* prepare with ws's plan: only the locations and scales of the kept
 * slots are gathered, and the bracket found as prepare finds it (the same
 * bits). 1 when a kept component has no positive scale (a point mass the
 * plan did not group): the caller prepares afresh. (Doing this inside
 * moments_of's pass, in component order, cost more than it saved: the
 * scattered stores.) */
static int prepare_planned(prep *m, const bsl_tmix *t, const tmix_plan *pl, const bsl_tmix_ws *ws, double *lo,
                           double *hi)
{
    double l[BSL_TMIX_MAXQ], h[BSL_TMIX_MAXQ];
    for (size_t k = 0; k < pl->np; k++) {
        l[k] = t->w0 > 0 ? 0.0 : INFINITY;
        h[k] = t->w0 > 0 ? 0.0 : -INFINITY;
    }
    int flat = 0; /* a kept component without a positive scale */
    for (size_t g = 0; g < pl->m.ng; g++) {
        const size_t j0 = pl->m.start[g], j1 = pl->m.start[g + 1];
        if (pl->np == 2) /* an interval's ends: the extremes in registers (bracket2) */
            flat |= bracket2(t, pl->comp, j0, j1, pl->q[g], ws->mu, ws->is, l, h);
        else
            for (size_t j = j0; j < j1; j++) {
                const size_t i = pl->comp[j];
                const double si = t->s[i];
                flat |= !(si > 0);
                ws->mu[j] = t->mu[i];
                ws->is[j] = 1 / si;
                for (size_t k = 0; k < pl->np; k++) {
                    const double x = t->mu[i] + pl->q[g][k] * si;
                    if (x < l[k]) l[k] = x;
                    if (x > h[k]) h[k] = x;
                }
            }
    }
    if (flat) return 1;
    *m = pl->m;
    m->mu = ws->mu;
    m->is = ws->is;
    for (size_t k = 0; k < pl->np; k++)
        if (l[k] <= h[k]) {
            lo[k] = l[k];
            hi[k] = h[k];
        }
    return 0;
}

static int plan_fits(const tmix_plan *pl, const bsl_tmix *t, const double *p, size_t np)
{
    if (!pl || pl->K != t->K || pl->np != np) return 0;
    for (size_t k = 0; k < np; k++)
        if (pl->p[k] != p[k]) return 0;
    return 1;
}

/* The kept components into ws, grouped by df (prep above), and the
 * bracket [lo, hi] of the p-quantile: F is a convex combination of the
 * components' CDFs, so it holds the extreme component quantiles mu_i + s_i
 * q_nu(p) (point masses: mu_i; the mass w0: 0). wmin is the lightest
 * positive weight, W the total. -1 when ws cannot hold them. */
static int prepare(prep *m, const bsl_tmix *t, double W, double wmin, const double *p, size_t np, bsl_tmix_ws *ws,
                   double *lo, double *hi)
{
    if (ws->fixed && plan_fits(ws->plan, t, p, np)) {
        if (!prepare_planned(m, t, ws->plan, ws, lo, hi)) return 0;
        plan_drop(ws); /* this mixture has a point mass: group afresh (and plan again) */
    }
    memset(m, 0, sizeof *m);
    if (grow(ws, t->K + 1)) return -2; /* out of memory */
    /* nothing to prune when the lightest component outweighs the share */
    const double thr = t->K >= PRUNE_MIN && wmin <= BSL_TMIX_PRUNED * W ? prune_below(t, W, ws) : 0.0;
    size_t count[BSL_TMIX_TABLES + 2] = {0};
    double q[BSL_TMIX_TABLES + 2][BSL_TMIX_MAXQ];
    size_t *grp = ws->bins; /* reused: the group of each component */
    double kept = t->w0;
    for (size_t j = 0; j < np; j++) q[BSL_TMIX_TABLES + 1][j] = 0; /* a point mass is its own quantile */
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
                for (size_t j = 0; j < np; j++)
                    q[g][j] = isinf(nu) ? gsl_cdf_ugaussian_Pinv(p[j]) : gsl_cdf_tdist_Pinv(p[j], nu);
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
    double l[BSL_TMIX_MAXQ], h[BSL_TMIX_MAXQ];
    for (size_t k = 0; k < np; k++) {
        l[k] = t->w0 > 0 ? 0.0 : INFINITY;
        h[k] = t->w0 > 0 ? 0.0 : -INFINITY;
    }
    /* fixed weights without point masses: remember the grouping (the
     * plan's comp; no memory for it only costs the next call a prepare) */
    tmix_plan *pl = NULL;
    if (ws->fixed && !ws->plan && count[BSL_TMIX_TABLES + 1] == 0 && (pl = calloc(1, sizeof *pl)) &&
        !(pl->comp = malloc((t->K + 1) * sizeof *pl->comp))) {
        free(pl);
        pl = NULL;
    }
    for (size_t i = 0; i < t->K; i++) {
        if (grp[i] == SIZE_MAX) continue;
        const size_t j = off[grp[i]]++;
        if (pl) pl->comp[j] = i;
        const double si = t->s[i] > 0 ? t->s[i] : 0.0;
        ws->w[j] = t->w[i] / kept;
        ws->mu[j] = t->mu[i];
        ws->is[j] = si > 0 ? 1 / si : 0;
        for (size_t k = 0; k < np; k++) {
            const double x = t->mu[i] + q[grp[i]][k] * si;
            if (x < l[k]) l[k] = x;
            if (x > h[k]) h[k] = x;
        }
    }
    m->w = ws->w;
    m->mu = ws->mu;
    m->is = ws->is;
    m->w0 = t->w0 / kept;
    if (pl) {
        pl->m = *m;
        pl->K = t->K;
        pl->np = np;
        memcpy(pl->p, p, np * sizeof *p);
        for (size_t g = 0; g < m->ng; g++) memcpy(pl->q[g], q[g], np * sizeof *q[g]);
        ws->plan = pl;
    }
    for (size_t k = 0; k < np; k++)
        if (l[k] <= h[k]) { /* else nothing kept (cannot happen with W > 0): search freely */
            lo[k] = l[k];
            hi[k] = h[k];
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

/* F and f at two points in one pass over the components: the two quantiles
 * of an interval share the loads of every component's weight, location
 * and scale, and the table's polynomials run in the lanes of one vector
 * (GCC's vector extension): x[0] in lane 0 and x[1] in lane 1, and, where
 * the CPU has AVX2, two components at a time in four lanes of one register
 * (eval2 and eval2_rich are cloned for it, target_clones). Each lane does eval's operations in eval's order, and the
 * sums take the components one by one in their order, so the same bits as
 * two calls of eval whatever the width (no FMA: AVX2 without it). A
 * component with a point off the grid takes eval's path for both. */
typedef double v2d __attribute__((vector_size(2 * sizeof(double))));
typedef double v4d __attribute__((vector_size(4 * sizeof(double))));

/* The sums of one component's lanes lo (0, 1) or hi (2, 3) of a 4-lane
 * term, in the order the 2-lane pass adds them. */
#define LANES(v, h) ((v2d){(v)[2 * (h)], (v)[2 * (h) + 1]})

/* The degree-7 Taylor polynomial in d (coefficients k0..k7, d2s = d^2,
 * d4 = d^4) and its first three derivatives, for both vector widths: one
 * expression, so both give eval's bits. */
#define TAYLOR_F (((k0 + k1 * d) + (k2 + k3 * d) * d2s) + ((k4 + k5 * d) + (k6 + k7 * d) * d2s) * d4)
#define TAYLOR_F1 (((k1 + 2 * k2 * d) + (3 * k3 + 4 * k4 * d) * d2s) + ((5 * k5 + 6 * k6 * d) + 7 * k7 * d2s) * d4)
#define TAYLOR_F2 (((2 * k2 + 6 * k3 * d) + (12 * k4 + 20 * k5 * d) * d2s) + (30 * k6 + 42 * k7 * d) * d4)
#define TAYLOR_F3 (((6 * k3 + 24 * k4 * d) + (60 * k5 + 120 * k6 * d) * d2s) + 210 * k7 * d4)

/* eval2 and eval2_rich's one loop; rich (a constant at each call, so the
 * compiler drops what a plain pass does not need) adds the derivatives. */
static inline __attribute__((always_inline)) void eval2_core(const prep *m, const double *x, double *F, double *f,
                                                             double *f1, double *f2, const int rich)
{
    const v2d X = {x[0], x[1]};
    const v4d X4 = {x[0], x[1], x[0], x[1]};
    /* four lanes only where they are one register: SSE2 alone splits them
     * into pairs and moves lanes about, and was slower than two (1.07-1.30
     * against 0.73-0.78 CPU-s for predicting sinc's 1000 rows, the default
     * clone alone) */
    const int wide = __builtin_cpu_supports("avx2");
    v2d cdf = {x[0] >= 0 ? m->w0 : 0.0, x[1] >= 0 ? m->w0 : 0.0}, pdf = {0, 0}, d1 = {0, 0}, d2 = {0, 0};
    for (size_t g = 0; g < m->ng; g++) {
        const double *tab = m->tab[g], nu = m->nu[g], norm = m->norm[g];
        size_t i = m->start[g];
        const size_t end = m->start[g + 1];
        while (i < end) {
            /* two components, both points of each on the grid */
            for (; wide && tab && i + 2 <= end; i += 2) {
                const double wa = m->w[i], wb = m->w[i + 1], isa = m->is[i], isb = m->is[i + 1];
                const v4d is4 = {isa, isa, isb, isb}, w4 = {wa, wa, wb, wb};
                const v4d mu4 = {m->mu[i], m->mu[i], m->mu[i + 1], m->mu[i + 1]};
                const v4d z = (X4 - mu4) * is4, r = (z + TZ) * TSTEPS + 0.5;
                if (!(r[0] >= 0 && r[0] < (double)TN && r[1] >= 0 && r[1] < (double)TN && r[2] >= 0 &&
                      r[2] < (double)TN && r[3] >= 0 && r[3] < (double)TN))
                    break; /* component i alone, below, then pairs again */
                const long j0 = (long)r[0], j1 = (long)r[1], j2 = (long)r[2], j3 = (long)r[3];
                const double *c0 = tab + j0 * TC, *c1 = tab + j1 * TC, *c2 = tab + j2 * TC, *c3 = tab + j3 * TC;
                const v4d jd = {(double)j0, (double)j1, (double)j2, (double)j3};
                const v4d d = z - (-TZ + jd / TSTEPS), d2s = d * d, d4 = d2s * d2s;
#define K4(l) ((v4d){c0[l], c1[l], c2[l], c3[l]})
                const v4d k0 = K4(0), k1 = K4(1), k2 = K4(2), k3 = K4(3);
                const v4d k4 = K4(4), k5 = K4(5), k6 = K4(6), k7 = K4(7);
#undef K4
                const v4d Fi = TAYLOR_F, fi = TAYLOR_F1;
                const v4d wF = w4 * Fi, wfi = w4 * fi * is4;
                cdf += LANES(wF, 0);
                pdf += LANES(wfi, 0);
                v4d t1 = {0, 0, 0, 0}, t2 = {0, 0, 0, 0};
                if (rich) { /* the second and third derivatives of the same polynomial */
                    const v4d wis2 = w4 * is4 * is4, wis3 = wis2 * is4;
                    t1 = wis2 * TAYLOR_F2;
                    t2 = wis3 * TAYLOR_F3;
                    d1 += LANES(t1, 0);
                    d2 += LANES(t2, 0);
                }
                cdf += LANES(wF, 1);
                pdf += LANES(wfi, 1);
                if (rich) {
                    d1 += LANES(t1, 1);
                    d2 += LANES(t2, 1);
                }
            }
            if (i == end) break;
            { /* component i alone: the last of an odd group, or one off the grid */
                const double w = m->w[i], is = m->is[i], wis2 = w * is * is, wis3 = wis2 * is;
                const v2d z = (X - m->mu[i]) * is, r = (z + TZ) * TSTEPS + 0.5;
                if (tab && r[0] >= 0 && r[0] < (double)TN && r[1] >= 0 && r[1] < (double)TN) {
                    const long j0 = (long)r[0], j1 = (long)r[1];
                    const double *c0 = tab + j0 * TC, *c1 = tab + j1 * TC;
                    const v2d jd = {(double)j0, (double)j1};
                    const v2d d = z - (-TZ + jd / TSTEPS), d2s = d * d, d4 = d2s * d2s;
                    const v2d k0 = {c0[0], c1[0]}, k1 = {c0[1], c1[1]}, k2 = {c0[2], c1[2]}, k3 = {c0[3], c1[3]};
                    const v2d k4 = {c0[4], c1[4]}, k5 = {c0[5], c1[5]}, k6 = {c0[6], c1[6]}, k7 = {c0[7], c1[7]};
                    const v2d Fi = TAYLOR_F, fi = TAYLOR_F1;
                    cdf += w * Fi;
                    pdf += w * fi * is;
                    if (rich) {
                        d1 += wis2 * TAYLOR_F2;
                        d2 += wis3 * TAYLOR_F3;
                    }
                } else {
                    for (int l = 0; l < 2; l++) {
                        double Fi, fi;
                        if (!tab || !table_eval(tab, z[l], &Fi, &fi)) cdf_direct(z[l], nu, norm, &Fi, &fi);
                        cdf[l] += w * Fi;
                        pdf[l] += w * fi * is;
                        if (rich) {
                            double q1, q2;
                            dens_ratios(z[l], nu, &q1, &q2);
                            d1[l] += wis2 * fi * q1;
                            d2[l] += wis3 * fi * q2;
                        }
                    }
                }
                i++;
            }
        }
    }
    for (size_t i = m->start[m->ng]; i < m->start[m->ng + 1]; i++) {
        cdf[0] += x[0] >= m->mu[i] ? m->w[i] : 0.0;
        cdf[1] += x[1] >= m->mu[i] ? m->w[i] : 0.0;
    }
    for (int l = 0; l < 2; l++) {
        F[l] = cdf[l];
        f[l] = pdf[l];
        if (rich) {
            f1[l] = d1[l];
            f2[l] = d2[l];
        }
    }
}
#undef LANES
#undef TAYLOR_F
#undef TAYLOR_F1
#undef TAYLOR_F2
#undef TAYLOR_F3

__attribute__((target_clones("avx2", "default"))) static void eval2(const prep *m, const double *x, double *F,
                                                                      double *f)
{
    eval2_core(m, x, F, f, NULL, NULL, 0);
}

/* F, f and f's first two derivatives f1, f2 at two points in one pass (the
 * first pass of an interval's search: Halley's step needs f1, and f2 its
 * error estimate; search_first). F and f are eval's, to the bit; f1 and f2
 * come from the same Taylor polynomials (or dens_ratios off the grid). */
__attribute__((target_clones("avx2", "default"))) static void eval2_rich(const prep *m, const double *x, double *F,
                                                                           double *f, double *f1, double *f2)
{
    eval2_core(m, x, F, f, f1, f2, 1);
}

/* F and f at the n points x */
static void eval_at(const prep *m, const double *x, size_t n, double *F, double *f)
{
    size_t i = 0;
    if (!m->raw)
        for (; i + 2 <= n; i += 2) eval2(m, x + i, F + i, f + i);
    for (; i < n; i++) eval(m, x[i], F + i, f + i);
}

/* The mixture's first four moments about the shift c, for a first guess at
 * its quantiles (Cornish-Fisher; the normal's when a df <= 4 leaves the
 * kurtosis infinite): its weight W, mean, sd, skewness g1 and excess
 * kurtosis g2 (cf: both defined), spread (the tolerance's scale) and
 * lightest positive weight. Computed once for all the quantiles asked. */
typedef struct moments {
    double W, mean, spread, wmin, sg, g1, g2;
    int cf;
} moments;

static moments moments_of(const bsl_tmix *t)
{
    moments r = {t->w0, 0, 0, INFINITY, 0, 0, 0, 0};
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
    r.sg = sqrt(fmax(mu2, 0.0));
    if (finite && r.sg > 0) {
        const double mu3 = e3 / r.W - 3 * m * e2 / r.W + 2 * m * m * m;
        const double mu4 = e4 / r.W - 4 * m * e3 / r.W + 6 * m * m * e2 / r.W - 3 * m * m * m * m;
        r.g1 = mu3 / (r.sg * r.sg * r.sg);
        r.g2 = mu4 / (mu2 * mu2) - 3;
        r.cf = 1;
    }
    return r;
}

/* The first guess at the p-quantile: Cornish-Fisher where the expansion
 * is tame, else the mean plus spread times the normal quantile. */
static double guess_at(const moments *r, double p)
{
    const double z = gsl_cdf_ugaussian_Pinv(p), g1 = r->g1, g2 = r->g2;
    double x = r->mean + r->spread * z;
    if (r->cf) {
        const double cf = r->mean + r->sg * (z + (z * z - 1) * g1 / 6 + (z * z * z - 3 * z) * g2 / 24 -
                                             (2 * z * z * z - 5 * z) * g1 * g1 / 36);
        if (isfinite(cf) && fabs(g1) <= 3 && fabs(g2) <= 20) x = cf; /* else the expansion runs wild */
    }
    return x;
}

/* One quantile's safeguarded Newton search: every evaluation narrows the
 * bracket [lo, hi] (F(lo) < p <= F(hi)); steps leaving it bisect it, or,
 * while a side is still open, step out by a doubling width. The searches of
 * one mixture's quantiles advance together, so that one pass over the
 * components evaluates F at each of their points (eval_at). */
typedef struct search {
    double p, lo, hi, x, step, last, scale;
    int it, done;
} search;

static void search_start(search *s, double p, double x0, double lo, double hi, double scale)
{
    *s = (search){p, lo, hi, x0, scale, NAN, scale, 0, 0};
    if (!(s->x >= lo && s->x <= hi)) s->x = isinf(lo) ? hi - s->step : isinf(hi) ? lo + s->step : 0.5 * (lo + hi);
}

/* F and f at s->x: narrow, then the next point, or done (the answer in x) */
static void search_step(search *s, double F, double f)
{
    const double x = s->x;
    if (F < s->p) s->lo = x;
    else s->hi = x;
    const double tol = 1e-13 * (fabs(x) + s->scale);
    if (s->hi - s->lo <= tol) {
        s->done = 1;
        return;
    }
    double xn = f > 0 ? x - (F - s->p) / f : NAN;
    const double d = fabs(xn - x);
    if (!(xn > s->lo && xn < s->hi)) {
        if (isinf(s->lo)) xn = s->hi - s->step;
        else if (isinf(s->hi)) xn = s->lo + s->step;
        else xn = 0.5 * (s->lo + s->hi);
        s->step *= 2;
        s->last = NAN;
    } else if (d <= tol || (d <= 0.25 * s->last && d * d * d <= tol * s->last * s->last)) {
        s->x = xn; /* converged, or Newton's next error ~ d^3 / last^2 is below tol */
        s->done = 1;
        return;
    } else {
        s->last = d;
    }
    s->x = xn;
    s->done = ++s->it >= 400;
}

/* The first pass of a search, with the density's derivatives f1 and f2 at
 * s->x: Halley's step from the first guess (whose error is ~1e-5 of the
 * spread, from Cornish-Fisher) is accepted without another pass when the
 * step stays in the bracket, is small against the spread, and its cubic
 * error estimate |f1^2 / (4 f^2) - f2 / (6 f)| d^3 is below a sixteenth of
 * the tolerance: then the second pass that Newton needs to see its steps
 * contract (search_step) is saved, half of an interval's CDF passes.
 * Otherwise the search goes on as Newton's from this pass. */
static void search_first(search *s, double F, double f, double f1, double f2)
{
    const double x = s->x, tol = 1e-13 * (fabs(x) + s->scale);
    if (f > 0 && isfinite(f1) && isfinite(f2)) {
        const double N = (F - s->p) / f, den = 1 - N * f1 / (2 * f);
        const double xh = x - N / den, d = fabs(xh - x), C = fabs(f1 * f1 / (4 * f * f) - f2 / (6 * f));
        const double lo = F < s->p ? x : s->lo, hi = F < s->p ? s->hi : x;
        if (den > 0.5 && xh > lo && xh < hi && d <= 1e-3 * s->scale && C * d * d * d <= tol / 16) {
            s->lo = lo;
            s->hi = hi;
            s->x = xh;
            s->done = 1;
            return;
        }
    }
    search_step(s, F, f);
}

void bsl_tmix_quantiles(const bsl_tmix *t, const double *p, size_t np, double *out, bsl_tmix_ws *ws)
{
    double F[BSL_TMIX_MAXQ], f[BSL_TMIX_MAXQ], lo[BSL_TMIX_MAXQ], hi[BSL_TMIX_MAXQ], xs[BSL_TMIX_MAXQ];
    search s[BSL_TMIX_MAXQ];
    size_t who[BSL_TMIX_MAXQ];
    int jump[BSL_TMIX_MAXQ] = {0};
    const moments mo = moments_of(t);
    const double W = mo.W;
    for (size_t j = 0; j < np; j++) {
        out[j] = NAN;
        lo[j] = -INFINITY;
        hi[j] = INFINITY;
    }
    if (!(W > 0) || np == 0 || np > BSL_TMIX_MAXQ) return;
    const double scale = fmax(mo.spread, 1e-300);
    prep m;
    double w0 = t->w0;
    const int prepared = ws ? prepare(&m, t, W, mo.wmin, p, np, ws, lo, hi) : -1;
    if (prepared == -2) {
        ws->oom = 1;
        return;
    }
    if (!prepared) {
        w0 = m.w0;
    } else { /* no workspace, or more distinct df than table slots: GSL's CDFs */
        memset(&m, 0, sizeof m);
        m.raw = t;
        for (size_t j = 0; j < np; j++) {
            lo[j] = -INFINITY;
            hi[j] = INFINITY;
        }
    }
    if (w0 > 0) { /* p inside the jump at 0: the quantile is 0 */
        eval(&m, 0.0, F, f);
        for (size_t j = 0; j < np; j++) {
            if (F[0] - w0 < p[j] && p[j] <= F[0]) jump[j] = 1;
            else if (F[0] < p[j]) lo[j] = fmax(lo[j], 0.0);
            else hi[j] = fmin(hi[j], 0.0);
        }
    }
    for (size_t j = 0; j < np; j++) {
        search_start(&s[j], p[j], guess_at(&mo, p[j]), lo[j], hi[j], scale);
        s[j].done = jump[j];
    }
    for (int pass = 0;; pass++) {
        size_t na = 0;
        for (size_t j = 0; j < np; j++)
            if (!s[j].done) {
                who[na] = j;
                xs[na++] = s[j].x;
            }
        if (na == 0) break;
        if (pass == 0 && na == 2 && !m.raw) { /* an interval's ends: Halley's first step */
            double f1[2], f2[2];
            eval2_rich(&m, xs, F, f, f1, f2);
            for (size_t a = 0; a < 2; a++) search_first(&s[who[a]], F[a], f[a], f1[a], f2[a]);
            continue;
        }
        eval_at(&m, xs, na, F, f);
        for (size_t a = 0; a < na; a++) search_step(&s[who[a]], F[a], f[a]);
    }
    for (size_t j = 0; j < np; j++)
        out[j] = jump[j] ? 0.0 : s[j].x;
}

double bsl_tmix_quantile(const bsl_tmix *t, double p, bsl_tmix_ws *ws)
{
    double x;
    bsl_tmix_quantiles(t, &p, 1, &x, ws);
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
