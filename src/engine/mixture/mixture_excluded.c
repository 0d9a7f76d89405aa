/*
 * mixture_excluded.c: the density of the inputs a subset leaves out, so that
 * every subset is a model of all d inputs (mixture.h). Two choices:
 *
 * BSL_MIX_EXCLUDED_GAUSSIAN: each excluded input j is one Gaussian,
 *   x_ij ~ N(nu_j, tau_j^2), independent of everything else, with
 *   tau_j^-2 ~ Gamma(a, b0_j), nu_j | tau_j ~ N(xi_j, tau_j^2 / k0_j).
 *
 * BSL_MIX_EXCLUDED_REGRESSION (default): each excluded input is a linear
 *   regression on the active ones (Raftery and Dean 2006, "Variable
 *   selection for model-based clustering", JASA 101, with the regressors
 *   fixed to the whole active set):
 *     x_ij = nu_j + sum_{l in A} b_jl (x_il - xbar_l) + tau_j eps_ij,
 *   the same Normal-Gamma prior on (nu_j, tau_j) and Zellner's g-prior
 *   b_j | tau_j ~ N(0, g tau_j^2 (X_Ac' X_Ac)^{-1}) on the slopes
 *   (X_Ac: the active columns, centred; default g = n, unit information).
 *   Given the active inputs the class is then independent of the excluded
 *   ones, which is what "input j is irrelevant" means for a classifier;
 *   a single Gaussian also says "x_j is independent of the active inputs",
 *   which is false for correlated inputs (Pima's skin and bmi) and makes
 *   the sampler include them to model the correlation.
 *
 * Evidence. Centred regressors are orthogonal to the intercept, so the
 * column's covariance given tau is tau^2 (I + (n/k0) P_1 + g P_A) with P_1
 * and P_A orthogonal projections of ranks 1 and r = rank(X_Ac). With
 * SS_j = sum_i (x_ij - xbar_j)^2 and SSR_j = x_jc' P_A x_jc = c_Aj' C_AA^-1 c_Aj
 * (C the centred cross-product matrix of all inputs), integrating tau:
 *   log m_j(A) = lgamma(a_n) - lgamma(a) + a log b0 - a_n log(b0 + Q/2)
 *              + (1/2) log(k0 / (k0 + n)) - (r/2) log(1 + g) - (n/2) log(2 pi),
 *   Q = SS_j - g/(1+g) SSR_j + k0 n (xbar_j - xi_j)^2 / (k0 + n),  a_n = a + n/2.
 * With A empty (or the Gaussian choice) it is the Normal-Gamma evidence.
 * One Cholesky factor of C_AA serves every excluded input, so a subset's
 * total costs O(r^3 + (d - r) r^2) from the d x d matrix C kept by the model.
 * An active column that lies in the span of the others (relative residual
 * below 1e-10) adds nothing to P_A and is skipped, so r is the rank.
 *
 * Every exchange at once (bsl_mix_excluded_swap_changes, for the informed
 * exchange of mixture_rj.c): E(A - j + j') - E(A) for all active j and
 * excluded j' from one factor of C_AA, by rank-one updates rather than one
 * factor per pair. With G = C_AA^-1 and b_k = G c_Ak (the slopes of
 * excluded k on A), the residual u_j of x_j on B = A - j has
 * |u_j|^2 = 1 / G_jj and x_k'u_j = b_kj / G_jj (Frisch-Waugh), so
 *   SSR_k(B) = SSR_k(A) - b_kj^2 / G_jj,
 *   S_B(k, j') = S_A(k, j') + b_kj b_j'j / G_jj,
 * S_X(k, l) = C_kl - c_Xk' C_XX^-1 c_Xl the partial cross products given X;
 * the column j leaving has SSR_j(B) = C_jj - 1 / G_jj and
 * S_B(j, j') = b_j'j / G_jj. Adding j' to B then gives, for every k now
 * excluded (j included),
 *   SSR_k(A') = SSR_k(B) + S_B(k, j')^2 / S_B(j', j'),
 * unless S_B(j', j') <= 1e-10 C_j'j' (j' in the span of B: P_B, rank r - 1).
 * The single flips (bsl_mix_excluded_flip_changes, the informed add and
 * remove) are the two halves: j leaving alone gives SSR_k(B) above (rank
 * r - 1, and j's own term at SSR_j(B)); j' entering A alone gives
 * SSR_k(A + j') = SSR_k(A) + S_A(k, j')^2 / S_A(j', j').
 * O(r^3 + r (d - r)^2) for all r (d - r) pairs instead of
 * O(r (d - r) (r^3 + (d - r) r^2)). When the active columns are not of full
 * rank the pairs are evaluated one by one (exact, slower; only with
 * collinear inputs).
 */
#include "mixture.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

static const double RANK_TOL = 1e-10;

void bsl_mix_excluded_stats(bsl_mix_model *m)
{
    const size_t n = m->n, d = m->d;
    for (size_t j = 0; j < d; j++) {
        const double *x = m->X + j * n;
        double s = 0;
        for (size_t i = 0; i < n; i++) s += x[i];
        m->xbar[j] = s / (double)n;
    }
    for (size_t j = 0; j < d; j++)
        for (size_t l = 0; l <= j; l++) {
            const double *x = m->X + j * n, *y = m->X + l * n;
            double s = 0;
            for (size_t i = 0; i < n; i++) s += (x[i] - m->xbar[j]) * (y[i] - m->xbar[l]);
            m->C[j * d + l] = m->C[l * d + j] = s;
        }
}

/* Cholesky factor (row-major lower, r x r in L with stride d) of C over the
 * active inputs, skipping those in the span of the ones before them; their
 * indices in kept[0..r). Returns r. */
static size_t factor_active(const bsl_mix_model *m, const unsigned char *active, double *L,
                            size_t *kept)
{
    const size_t d = m->d;
    size_t r = 0;
    for (size_t a = 0; a < d; a++) {
        if (!active[a]) continue;
        double *row = L + r * d;
        for (size_t t = 0; t < r; t++) {
            double s = m->C[a * d + kept[t]];
            for (size_t u = 0; u < t; u++) s -= row[u] * L[t * d + u];
            row[t] = s / L[t * d + t];
        }
        double s = m->C[a * d + a];
        for (size_t u = 0; u < r; u++) s -= row[u] * row[u];
        if (!(s > RANK_TOL * m->C[a * d + a])) continue; /* in the span: P_A unchanged */
        row[r] = sqrt(s);
        kept[r++] = a;
    }
    return r;
}

/* SSR_j = |L^{-1} c_Aj|^2; the solution left in t[0..r). */
static double explained(const bsl_mix_model *m, const double *L, const size_t *kept, size_t r,
                        size_t j, double *t)
{
    const size_t d = m->d;
    double ssr = 0;
    for (size_t u = 0; u < r; u++) {
        double s = m->C[j * d + kept[u]];
        for (size_t v = 0; v < u; v++) s -= L[u * d + v] * t[v];
        t[u] = s / L[u * d + u];
        ssr += t[u] * t[u];
    }
    return ssr;
}

/* log(b0 + Q/2) of input j's evidence at SSR_j = ssr: with r the only
 * terms that depend on A. */
static double log_rate(const bsl_mix_model *m, size_t j, double ssr)
{
    const double n = (double)m->n, g = m->excl_g, k0 = m->ng_k0[j];
    const double dm = m->xbar[j] - m->xi[j];
    return log(m->ng_b0[j] + 0.5 * (m->C[j * m->d + j] - g / (1 + g) * ssr + k0 * n * dm * dm / (k0 + n)));
}

static double log_evidence(const bsl_mix_model *m, size_t j, double ssr, size_t r)
{
    const double n = (double)m->n, k0 = m->ng_k0[j], an = m->a + 0.5 * n;
    return lgamma(an) - lgamma(m->a) + m->a * log(m->ng_b0[j]) - an * log_rate(m, j, ssr) +
           0.5 * log(k0 / (k0 + n)) - 0.5 * (double)r * log1p(m->excl_g) - 0.5 * n * BSL_MIX_LOG_2PI;
}

double bsl_mix_excluded_log_evidence(const bsl_mix_model *m, const unsigned char *active,
                                     double *work, size_t *kept)
{
    const size_t d = m->d;
    double total = 0;
    if (m->excluded == BSL_MIX_EXCLUDED_GAUSSIAN) {
        for (size_t j = 0; j < d; j++)
            if (!active[j]) total += log_evidence(m, j, 0, 0);
        return total;
    }
    double *L = work, *t = work + d * d;
    const size_t r = factor_active(m, active, L, kept);
    for (size_t j = 0; j < d; j++)
        if (!active[j]) total += log_evidence(m, j, explained(m, L, kept, r, j, t), r);
    return total;
}

/* What the rank-one updates need at the active set A (top of the file):
 * the inputs in and out, the factor of C_AA, for each excluded k (row e)
 * t_k = L^-1 c_Ak, b_k = L^-T t_k, SSR_k(A) and log(b0 + Q_k/2); S_A over
 * the excluded pairs; G_jj for each active j. */
typedef struct updates {
    size_t *act, *exc, *kept, I, ne, r;
    double *L, *T, *B, *S, *Li, *ssr, *lr, *G;
} updates;

/* Fills u; returns 0 when the updates do not apply (the Gaussian choice,
 * or active columns not of full rank), after listing the inputs. */
static int prepare(const bsl_mix_model *m, const unsigned char *active, double *work, size_t *iwork, updates *u)
{
    const size_t d = m->d;
    u->act = iwork, u->exc = iwork + d, u->kept = iwork + 2 * d, u->I = u->ne = u->r = 0;
    for (size_t j = 0; j < d; j++) {
        if (active[j]) u->act[u->I++] = j;
        else u->exc[u->ne++] = j;
    }
    if (m->excluded == BSL_MIX_EXCLUDED_GAUSSIAN) return 0;
    u->L = work, u->T = u->L + d * d, u->B = u->T + d * d, u->S = u->B + d * d, u->Li = u->S + d * d;
    u->ssr = u->Li + d * d, u->lr = u->ssr + d, u->G = u->lr + d;
    const double *L = u->L;
    double *T = u->T, *B = u->B, *S = u->S, *Li = u->Li, *G = u->G;
    const size_t r = u->r = factor_active(m, active, u->L, u->kept), ne = u->ne;
    if (r < u->I) return 0;
    for (size_t e = 0; e < ne; e++) {
        double *t = T + e * d, *b = B + e * d;
        u->ssr[e] = explained(m, L, u->kept, r, u->exc[e], t);
        u->lr[e] = log_rate(m, u->exc[e], u->ssr[e]);
        for (size_t p = r; p-- > 0;) {
            double sum = t[p];
            for (size_t v = p + 1; v < r; v++) sum -= L[v * d + p] * b[v];
            b[p] = sum / L[p * d + p];
        }
    }
    for (size_t e = 0; e < ne; e++)
        for (size_t f = 0; f <= e; f++) {
            double sum = m->C[u->exc[e] * d + u->exc[f]];
            for (size_t v = 0; v < r; v++) sum -= T[e * d + v] * T[f * d + v];
            S[e * d + f] = S[f * d + e] = sum;
        }
    /* G_jj = sum_v (L^-1)_vj^2, L^-1 column by column */
    for (size_t p = 0; p < r; p++) {
        for (size_t v = 0; v < p; v++) Li[v * d + p] = 0;
        Li[p * d + p] = 1 / L[p * d + p];
        for (size_t v = p + 1; v < r; v++) {
            double sum = 0;
            for (size_t w = p; w < v; w++) sum -= L[v * d + w] * Li[w * d + p];
            Li[v * d + p] = sum / L[v * d + v];
        }
        G[p] = 0;
        for (size_t v = p; v < r; v++) G[p] += Li[v * d + p] * Li[v * d + p];
    }
    return 1;
}

void bsl_mix_excluded_swap_changes(const bsl_mix_model *m, unsigned char *active, double *work, size_t *iwork,
                                   double *dE)
{
    const size_t d = m->d;
    updates u;
    const int fast = prepare(m, active, work, iwork, &u);
    const size_t I = u.I, ne = u.ne, r = u.r, *act = u.act, *exc = u.exc;
    if (m->excluded == BSL_MIX_EXCLUDED_GAUSSIAN) {
        for (size_t a = 0; a < I; a++)
            for (size_t e = 0; e < ne; e++)
                dE[a * ne + e] = log_evidence(m, act[a], 0, 0) - log_evidence(m, exc[e], 0, 0);
        return;
    }
    if (!fast) { /* pair by pair */
        const double E0 = bsl_mix_excluded_log_evidence(m, active, work, u.kept);
        for (size_t a = 0; a < I; a++)
            for (size_t e = 0; e < ne; e++) {
                active[act[a]] = 0, active[exc[e]] = 1;
                dE[a * ne + e] = bsl_mix_excluded_log_evidence(m, active, work, u.kept) - E0;
                active[act[a]] = 1, active[exc[e]] = 0;
            }
        return;
    }
    const double an = m->a + 0.5 * (double)m->n, lg = 0.5 * log1p(m->excl_g);
    for (size_t a = 0; a < I; a++) {
        const size_t j = act[a];
        const double uj = 1 / u.G[a], ssr_jB = m->C[j * d + j] - uj;
        for (size_t e = 0; e < ne; e++) {
            const size_t jn = exc[e];
            const double bja = u.B[e * d + a], sjj = u.S[e * d + e] + bja * bja * uj;
            const int adds = sjj > RANK_TOL * m->C[jn * d + jn]; /* else j' is in the span of B */
            const size_t r2 = adds ? r : r - 1;
            const double sj = bja * uj; /* S_B(j, j') */
            double total = log_evidence(m, j, ssr_jB + (adds ? sj * sj / sjj : 0), r2) -
                           log_evidence(m, jn, u.ssr[e], r);
            for (size_t f = 0; f < ne; f++) {
                if (f == e) continue;
                const double bfa = u.B[f * d + a], skj = u.S[f * d + e] + bfa * bja * uj;
                const double s2 = u.ssr[f] - bfa * bfa * uj + (adds ? skj * skj / sjj : 0);
                total -= an * (log_rate(m, exc[f], s2) - u.lr[f]) + (adds ? 0 : -lg);
            }
            dE[a * ne + e] = total;
        }
    }
}

void bsl_mix_excluded_flip_changes(const bsl_mix_model *m, unsigned char *active, double *work, size_t *iwork,
                                   double *dE)
{
    const size_t d = m->d;
    updates u;
    const int fast = prepare(m, active, work, iwork, &u);
    const size_t I = u.I, ne = u.ne, r = u.r, *act = u.act, *exc = u.exc;
    if (m->excluded == BSL_MIX_EXCLUDED_GAUSSIAN) {
        for (size_t j = 0; j < d; j++) dE[j] = (active[j] ? 1 : -1) * log_evidence(m, j, 0, 0);
        return;
    }
    if (!fast) { /* input by input */
        const double E0 = bsl_mix_excluded_log_evidence(m, active, work, u.kept);
        for (size_t j = 0; j < d; j++) {
            active[j] = !active[j];
            dE[j] = bsl_mix_excluded_log_evidence(m, active, work, u.kept) - E0;
            active[j] = !active[j];
        }
        return;
    }
    const double an = m->a + 0.5 * (double)m->n, lg = 0.5 * log1p(m->excl_g);
    for (size_t a = 0; a < I; a++) { /* j leaves: A -> B = A - j, rank r - 1 */
        const size_t j = act[a];
        const double uj = 1 / u.G[a];
        double total = log_evidence(m, j, m->C[j * d + j] - uj, r - 1);
        for (size_t f = 0; f < ne; f++) {
            const double bfa = u.B[f * d + a];
            total -= an * (log_rate(m, exc[f], u.ssr[f] - bfa * bfa * uj) - u.lr[f]) - lg;
        }
        dE[j] = total;
    }
    for (size_t e = 0; e < ne; e++) { /* j' enters: A -> A + j' */
        const size_t jn = exc[e];
        const double sjj = u.S[e * d + e];
        const int adds = sjj > RANK_TOL * m->C[jn * d + jn]; /* else j' is in the span of A */
        double total = -log_evidence(m, jn, u.ssr[e], r);
        for (size_t f = 0; f < ne; f++) {
            if (f == e) continue;
            const double sfe = u.S[f * d + e];
            total -= an * (log_rate(m, exc[f], u.ssr[f] + (adds ? sfe * sfe / sjj : 0)) - u.lr[f]) + (adds ? lg : 0);
        }
        dE[jn] = total;
    }
}

void bsl_mix_excluded_simulate(bsl_mix_model *m, const unsigned char *active, const gsl_rng *rng,
                               double *work, size_t *kept)
{
    const size_t n = m->n, d = m->d;
    bsl_mix_excluded_stats(m); /* the active columns are new */
    double *L = work, *b = work + d * d;
    const size_t r = m->excluded == BSL_MIX_EXCLUDED_GAUSSIAN ? 0 : factor_active(m, active, L, kept);
    for (size_t j = 0; j < d; j++) {
        if (active[j]) continue;
        /* (nu, tau) from the Normal-Gamma prior; b = sqrt(g) tau L^{-T} u,
         * whose covariance is g tau^2 C_AA^{-1} */
        const double prec = gsl_ran_gamma(rng, m->a, 1 / m->ng_b0[j]), tau = 1 / sqrt(prec);
        const double nu = m->xi[j] + gsl_ran_gaussian(rng, tau / sqrt(m->ng_k0[j]));
        for (size_t u = 0; u < r; u++) b[u] = gsl_ran_gaussian(rng, 1);
        for (size_t u = r; u-- > 0;) {
            double s = b[u];
            for (size_t v = u + 1; v < r; v++) s -= L[v * d + u] * b[v];
            b[u] = s / L[u * d + u];
        }
        double *x = m->X + j * n;
        for (size_t i = 0; i < n; i++) {
            double s = nu;
            for (size_t u = 0; u < r; u++)
                s += sqrt(m->excl_g) * tau * b[u] * (m->X[kept[u] * n + i] - m->xbar[kept[u]]);
            x[i] = s + gsl_ran_gaussian(rng, tau);
        }
    }
    bsl_mix_excluded_stats(m);
}
