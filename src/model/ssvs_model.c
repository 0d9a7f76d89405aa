/*
 * ssvs_model.c: the spike-and-slab model of paper 001 as an entry of the
 * model table (model.h), bsl_model_ssvs. engine/ssvs/ssvs.h states the
 * model; here, on the design's projected atoms (c = 1 output, dense Gram
 * matrix G): beta_j | gamma_j ~ N(0, s v_j), v_j = v0_j (spike) or c v0_j
 * (slab), s = sigma^2 (scaled = 1) or 1 (scaled = 0, paper 001 as written).
 *
 * Every atom stays in the model; the "active set" is the slab set, so add
 * = switch an atom to the slab, remove = back to the spike. The state is
 * over all m atoms: S = A^{-1}, A = G + diag(w), w_j = s' / v_j (s' = 1
 * scaled, sigma^2 unscaled), u = S B'y, log|A| and quad = b'u. A switch
 * changes one diagonal entry, so its effect on log|A| and quad costs O(1)
 * and the commit O(m^2) (linalg/rank1.h); A is refactorised every m
 * commits to bound drift. With V = diag(v), log|I + V^{1/2} G V^{1/2} / s'|
 * = sum log v_j - m log s' + log|A| and b'(G + s' V^{-1})^{-1} b = quad
 * (Woodbury), so the eigen-formulas of engine/ssvs/ssvs.c become:
 *   scaled (sigma^2 ~ IG(a, b) integrated in closed form):
 *     log_ml = -(N/2) log 2 pi - (sum log v + log|A|)/2 + log G(a + N/2)
 *              - (a + N/2) log(b + (y'y - quad)/2) [+ a log b - log G(a)];
 *   unscaled: sigma^2 does not integrate in closed form; it is a nuisance
 *     parameter of the state, log_ml = log p(y | gamma, sigma^2) =
 *     -(N/2) log(2 pi sigma^2) - (sum log v - m log sigma^2 + log|A|)/2
 *     - (y'y - quad) / (2 sigma^2), and draw_nuisance draws beta | gamma,
 *     sigma^2 (eq. 12) then sigma^2 | beta (eq. 14, "+ RSS/2"). The exact
 *     sigma^2-integrated marginal (quadrature) stays in engine/ssvs/ssvs.c
 *     for enumeration.
 * Invariants after every call: S, u, logdet, quad and sum_log_v describe
 * the current gamma (to the rank-one drift), pos[active[i]] == i.
 */
#include "model.h"

#include <gsl/gsl_cblas.h>
#include <gsl/gsl_randist.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/rank1.h"

int bsl_ssvs_parse(bsl_ssvs_prior *sp, const char *text, basel_error *err)
{
    bsl_spec s;
    int rc = bsl_spec_parse(&s, "prior", text && *text ? text : "ssvs", err);
    if (rc) return rc;
    if (strcmp(s.name, bsl_coef_ssvs.name) != 0) return bsl_spec_unknown(&s, bsl_coef_ssvs.name, err);
    double scaled = 0, collapsed = 1;
    rc = bsl_spec_double(&s, "tau", 1.0, 1e-12, 1e12, &sp->tau, err);
    if (!rc) rc = bsl_spec_double(&s, "tau2", 0.0, 1e-300, 1e300, &sp->tau2, err);
    if (!rc) rc = bsl_spec_double(&s, "c", 100.0, 1.0 + 1e-9, 1e12, &sp->c, err);
    if (!rc) rc = bsl_spec_double(&s, "p", -1.0, 1e-12, 1 - 1e-12, &sp->p, err);
    if (!rc) rc = bsl_spec_double(&s, "a", 0.0, 0, 1e300, &sp->a, err);
    if (!rc) rc = bsl_spec_double(&s, "b", 0.0, 0, 1e300, &sp->b, err);
    if (!rc) rc = bsl_spec_double(&s, "scaled", 0, 0, 1, &scaled, err);
    if (!rc) rc = bsl_spec_double(&s, "collapsed", 1, 0, 1, &collapsed, err);
    if (rc) return rc;
    if (!bsl_spec_has(&s, "tau2")) sp->tau2 = 0;
    if (!bsl_spec_has(&s, "p")) sp->p = -1;
    if ((scaled != 0 && scaled != 1) || (collapsed != 0 && collapsed != 1))
        return bsl_fail(err, BASEL_EINVAL, "--prior ssvs: scaled and collapsed are 0 or 1");
    if ((sp->a > 0) != (sp->b > 0))
        return bsl_fail(err, BASEL_EINVAL, "--prior ssvs: give both a and b > 0, or neither");
    sp->scaled = (int)scaled;
    sp->collapsed = (int)collapsed;
    return bsl_spec_finish(&s, BSL_SSVS_KEYS, err);
}

/* The spike's variances, George and McCulloch's (1993, sec. 2.2) advice:
 * tau_j = tau x the standard error of beta_j in the full least-squares fit,
 * se_j^2 = s^2 (G^{-1})_jj with s^2 = RSS / (N - m) the residual variance
 * (scaled = 1: the prior is relative to sigma^2, so (G^{-1})_jj alone), so
 * that the spike is as wide as the data's resolution of beta_j and the slab
 * sqrt(c) times that; their suggested pairs (se_j / tau_j, c) = (1, 10) to
 * (1, 100) are tau = 1 with c = 10 to 100. tau2 = V sets every spike
 * variance to V. Without a full fit (m >= N - 1, or G singular) the rule
 * falls back to the marginal one, s^2 / b_j'b_j with s^2 = y'Py / N. */
int bsl_ssvs_spike(const bsl_ssvs_prior *sp, const bsl_design *D, double *v0, int *from_ols)
{
    const size_t m = D->m;
    const double N = (double)(D->n - D->q);
    if (from_ols) *from_ols = 0;
    if (sp->tau2 > 0) {
        for (size_t j = 0; j < m; j++) v0[j] = sp->tau2;
        return BASEL_OK;
    }
    if (D->G && (double)m + 1 < N) {
        double *L = bsl_malloc(m * m, sizeof *L), *u = bsl_malloc(m, sizeof *u);
        if (!L || !u) {
            free(L);
            free(u);
            return BASEL_ENOMEM;
        }
        memcpy(L, D->G, m * m * sizeof *L);
        for (size_t j = 0; j < m; j++) u[j] = D->Bty[j * D->c];
        int ok = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)m, L, (lapack_int)m) == 0 &&
                 LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)m, 1, L, (lapack_int)m, u, (lapack_int)m) == 0;
        double quad = 0;
        for (size_t j = 0; ok && j < m; j++) quad += D->Bty[j * D->c] * u[j];
        const double rss = D->yy[0] - quad, s2 = sp->scaled ? 1.0 : rss / (N - (double)m);
        ok = ok && rss > 0 && LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', (lapack_int)m, L, (lapack_int)m) == 0;
        for (size_t j = 0; ok && j < m; j++) ok = L[j + j * m] > 0 && isfinite(L[j + j * m]);
        for (size_t j = 0; ok && j < m; j++) v0[j] = sp->tau * sp->tau * s2 * L[j + j * m];
        free(L);
        free(u);
        if (ok) {
            if (from_ols) *from_ols = 1;
            return BASEL_OK;
        }
    }
    const double s2 = sp->scaled ? 1.0 : D->yy[0] / N;
    for (size_t j = 0; j < m; j++) v0[j] = sp->tau * sp->tau * s2 / fmax(D->diag[j], 1e-300);
    return BASEL_OK;
}

/* Atoms whose effect the spike hides (issue 30 item 2). George and
 * McCulloch's spike is as wide as the full fit's standard error; an input
 * with a near-copy has a standard error inflated by 1 / sqrt(1 - R_j^2)
 * (x2 = x1 + 1e-3 noise: about 1000-fold), so its spike is far wider than
 * the effect and the spike explains the data as well as the slab, at the
 * spike's higher prior density: the PIP falls to about the prior's (0.04 to
 * 0.06 each for x1 and x2 where the g-prior's exact answer is 0.52 to 0.56
 * each and P(x1 or x2) = 1; issue 30, tests/cli/test_near_dup.sh). A
 * default spike scaled by the one-at-a-time standard error instead
 * (tau2 = 0.0225 there) still gave P(x1 or x2) = 0.82 and lowered the PIP
 * of x4, a real 0.5 effect, from 0.77 to 0.52, so the default stays and
 * this rule warns. The data support an effect of atom j (column b_j) when
 * its one-at-a-time least-squares estimate e_j = b_j'y / b_j'b_j is more
 * than BSL_SSVS_SUPPORT_T standard errors from 0 (se_j^2 = s_j^2 / b_j'b_j,
 * s_j^2 = (y'y - e_j b_j'y) / (N - 1)); the spike hides it when its sd
 * (sqrt(v0_j), times s_j for scaled = 1) exceeds |e_j|. Without the inflation (the spike's sd
 * = tau se_j of the full fit, close to the marginal one) a supported
 * effect is at least 4 spike sd's wide at tau = 1 and is never flagged. */
#define BSL_SSVS_SUPPORT_T 4.0
size_t bsl_ssvs_hidden(const bsl_ssvs_prior *sp, const bsl_design *D, const double *v0, size_t *hidden,
                       size_t *partner, double *r)
{
    const size_t m = D->m;
    const double N = (double)(D->n - D->q);
    size_t nh = 0;
    for (size_t j = 0; j < m && N > 1; j++) {
        const double bb = D->diag[j], by = D->Bty[j * D->c];
        if ((D->usable && !D->usable[j]) || !(bb > 0)) continue;
        const double b = by / bb, s2 = fmax(D->yy[0] - b * by, 0) / (N - 1), se = sqrt(s2 / bb);
        const double spike = sqrt(v0[j] * (sp->scaled ? s2 : 1.0));
        if (!(fabs(b) > BSL_SSVS_SUPPORT_T * se && spike > fabs(b))) continue;
        size_t best = m;
        double rb = NAN;
        for (size_t k = 0; D->G && k < m; k++) { /* its nearest copy, by |r| of the projected columns */
            if (k == j || (D->usable && !D->usable[k]) || !(D->diag[k] > 0)) continue;
            const double rk = fabs(D->G[j + k * m]) / sqrt(bb * D->diag[k]);
            if (best == m || rk > rb) best = k, rb = rk;
        }
        hidden[nh] = j, partner[nh] = best, r[nh] = rb;
        nh++;
    }
    return nh;
}

int bsl_coef_prior_ssvs(bsl_coef_prior *p, const char *spec, basel_error *err)
{
    memset(p, 0, sizeof *p);
    p->type = &bsl_coef_ssvs;
    return bsl_ssvs_parse(&p->ssvs, spec, err);
}

typedef struct ss_model {
    const bsl_design *D;
    bsl_ssvs_prior sp;
    size_t m, k, kmax;
    double N, log_c;
    double *v0, *v;          /* m: spike variances, current prior variances */
    double *A, *S, *u;       /* m x m, m x m, m */
    double *beta, *work;     /* m each */
    size_t *active;          /* k slab atoms, in the order they entered */
    long *pos;               /* m: position in active, -1 in the spike */
    double logdet, quad, sum_log_v, sigma2;
    size_t since;            /* commits since the last refactorisation */
} ss_model;

static double prec(const ss_model *s, size_t j) { return (s->sp.scaled ? 1.0 : s->sigma2) / s->v[j]; }

static double log_ml_of(const ss_model *s, double logdet, double quad, double sum_log_v)
{
    const double yy = s->D->yy[0], N = s->N;
    if (s->sp.scaled) {
        const double an = s->sp.a + 0.5 * N, R = fmax(yy - quad, 0.0);
        double r = -0.5 * N * log(2 * M_PI) - 0.5 * (sum_log_v + logdet) + lgamma(an) -
                   an * log(s->sp.b + 0.5 * R);
        if (s->sp.a > 0) r += s->sp.a * log(s->sp.b) - lgamma(s->sp.a);
        return r;
    }
    const double s2 = s->sigma2;
    return -0.5 * N * log(2 * M_PI * s2) - 0.5 * (sum_log_v - (double)s->m * log(s2) + logdet) -
           (yy - quad) / (2 * s2);
}

/* A = G + diag(w), then S = A^{-1}, u = S B'y, log|A|, quad, sum log v. */
static int refresh(ss_model *s)
{
    const size_t m = s->m;
    const bsl_design *D = s->D;
    memcpy(s->A, D->G, m * m * sizeof(double));
    s->sum_log_v = 0;
    for (size_t j = 0; j < m; j++) {
        s->A[j + j * m] += prec(s, j);
        s->sum_log_v += log(s->v[j]);
    }
    if (bsl_r1_refresh(s->A, s->S, m, m, D->Bty, s->u, &s->logdet)) return BASEL_ENUMERIC;
    s->quad = cblas_ddot((int)m, D->Bty, 1, s->u, 1);
    s->since = 0;
    return BASEL_OK;
}

static void ss_free(void *st)
{
    ss_model *s = st;
    if (!s) return;
    free(s->v0);
    free(s->v);
    free(s->A);
    free(s->S);
    free(s->u);
    free(s->beta);
    free(s->work);
    free(s->active);
    free(s->pos);
    free(s);
}

static int ss_create(void **st, const bsl_design *D, const bsl_coef_prior *prior, size_t kmax,
                     basel_error *err)
{
    *st = NULL;
    if (prior->type->model != BSL_COEF_MODEL_SSVS) return bsl_fail(err, BASEL_EINVAL, "not a spike-and-slab prior");
    if (!D->G || D->c != 1)
        return bsl_fail(err, BASEL_EINVAL,
                        "the spike-and-slab model needs the dense Gram matrix of all %zu atoms (the "
                        "spike keeps every atom in the model) and one target",
                        D->m);
    const size_t m = D->m;
    ss_model *s = calloc(1, sizeof *s);
    if (!s) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    s->D = D;
    s->sp = prior->ssvs;
    s->m = m;
    s->kmax = BSL_MIN(kmax, m);
    s->N = (double)(D->n - D->q);
    s->log_c = log(s->sp.c);
    s->v0 = bsl_malloc(m, sizeof(double));
    s->v = bsl_malloc(m, sizeof(double));
    s->A = bsl_malloc(m * m, sizeof(double));
    s->S = bsl_malloc(m * m, sizeof(double));
    s->u = bsl_calloc(m, sizeof(double));
    s->beta = bsl_calloc(m, sizeof(double));
    s->work = bsl_calloc(m, sizeof(double));
    s->active = bsl_malloc(m + 1, sizeof(size_t));
    s->pos = bsl_malloc(m, sizeof(long));
    if (!s->v0 || !s->v || !s->A || !s->S || !s->u || !s->beta || !s->work || !s->active || !s->pos) {
        ss_free(s);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory for a spike-and-slab model of %zu atoms", m);
    }
    if (bsl_ssvs_spike(&s->sp, D, s->v0, NULL)) {
        ss_free(s);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory for a spike-and-slab model of %zu atoms", m);
    }
    memcpy(s->v, s->v0, m * sizeof(double));
    for (size_t j = 0; j < m; j++) s->pos[j] = -1;
    s->sigma2 = D->yy[0] / s->N; /* the unscaled chain's start */
    if (refresh(s)) {
        ss_free(s);
        return bsl_fail(err, BASEL_ENUMERIC, "spike-and-slab: G + diag(1/v) is not positive definite");
    }
    *st = s;
    return BASEL_OK;
}

static void ss_copy(void *dst, const void *src)
{
    ss_model *d = dst;
    const ss_model *s = src;
    const size_t m = s->m;
    memcpy(d->v, s->v, m * sizeof(double));
    memcpy(d->A, s->A, m * m * sizeof(double));
    memcpy(d->S, s->S, m * m * sizeof(double));
    memcpy(d->u, s->u, m * sizeof(double));
    memcpy(d->active, s->active, s->k * sizeof(size_t));
    memcpy(d->pos, s->pos, m * sizeof(long));
    d->k = s->k;
    d->logdet = s->logdet;
    d->quad = s->quad;
    d->sum_log_v = s->sum_log_v;
    d->sigma2 = s->sigma2;
    d->since = s->since;
}

static size_t ss_k(const void *st) { return ((const ss_model *)st)->k; }
static const size_t *ss_active(const void *st) { return ((const ss_model *)st)->active; }
static long ss_pos(const void *st, size_t j) { return ((const ss_model *)st)->pos[j]; }

static double ss_log_ml(const void *st)
{
    const ss_model *s = st;
    return log_ml_of(s, s->logdet, s->quad, s->sum_log_v);
}

/* Switching j to the slab (in = 1) or the spike multiplies its prior
 * variance by c or 1/c: the precision changes by delta. NAN if A would not
 * stay positive definite (rounding only: A is G plus a positive diagonal). */
static double flip_effect(const ss_model *s, size_t j, int in, double *delta, double *dld, double *dq)
{
    const double w = prec(s, j);
    *delta = (in ? w / s->sp.c : w * s->sp.c) - w;
    const double t = bsl_r1_diag_effect(s->S, s->m, j, *delta, s->u, dld, dq);
    if (!(t > 0)) return NAN;
    return log_ml_of(s, s->logdet + *dld, s->quad + *dq, s->sum_log_v + (in ? s->log_c : -s->log_c));
}

static int flip_commit(ss_model *s, size_t j, int in)
{
    double delta, dld, dq;
    const double lm = flip_effect(s, j, in, &delta, &dld, &dq);
    if (lm != lm) return BASEL_ENUMERIC;
    bsl_r1_diag_commit(s->S, s->m, s->m, j, delta, s->u, s->work);
    s->logdet += dld;
    s->quad += dq;
    s->sum_log_v += in ? s->log_c : -s->log_c;
    s->v[j] = in ? s->sp.c * s->v0[j] : s->v0[j];
    if (in) {
        s->active[s->k] = j;
        s->pos[j] = (long)s->k++;
    } else {
        const size_t p = (size_t)s->pos[j];
        memmove(s->active + p, s->active + p + 1, (s->k - p - 1) * sizeof(size_t));
        s->pos[j] = -1;
        s->k--;
        for (size_t i = p; i < s->k; i++) s->pos[s->active[i]] = (long)i;
    }
    if (++s->since >= s->m) return refresh(s);
    return BASEL_OK;
}

static double ss_try_add(void *st, size_t j)
{
    ss_model *s = st;
    if (s->pos[j] >= 0 || s->k >= s->kmax) return -INFINITY;
    double delta, dld, dq;
    return flip_effect(s, j, 1, &delta, &dld, &dq);
}

static int ss_add(void *st, size_t j)
{
    ss_model *s = st;
    if (s->pos[j] >= 0 || s->k >= s->kmax) return BASEL_ENUMERIC;
    return flip_commit(s, j, 1);
}

static void ss_remove(void *st, size_t j) { flip_commit(st, j, 0); }

static double ss_try_remove(void *st, size_t j)
{
    double delta, dld, dq;
    if (((ss_model *)st)->pos[j] < 0) return ss_log_ml(st); /* already in the spike */
    return flip_effect(st, j, 0, &delta, &dld, &dq);
}

static void ss_drop_scores(void *st, double *out)
{
    ss_model *s = st;
    for (size_t p = 0; p < s->k; p++) out[p] = ss_try_remove(st, s->active[p]);
}

/* beta | gamma, sigma^2 (eq. 12): N(A^{-1} B'y, sigma^2 A^{-1}), A = G +
 * sigma^2 V^{-1}, drawn as A^{-1}B'y + sigma L^{-T} xi from a fresh factor;
 * then sigma^2 | beta (eq. 14 with "+ RSS/2"): IG(a + N/2, b + RSS/2); then
 * the state is rebuilt for the new sigma^2. */
static int ss_draw_nuisance(void *st, gsl_rng *r)
{
    ss_model *s = st;
    if (s->sp.scaled) return BASEL_OK;
    const size_t m = s->m;
    const bsl_design *D = s->D;
    memcpy(s->A, D->G, m * m * sizeof(double));
    for (size_t j = 0; j < m; j++) s->A[j + j * m] += prec(s, j);
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (int)m, s->A, (int)m) != 0) return BASEL_ENUMERIC;
    memcpy(s->u, D->Bty, m * sizeof(double));
    LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (int)m, 1, s->A, (int)m, s->u, (int)m);
    for (size_t j = 0; j < m; j++) s->work[j] = gsl_ran_ugaussian(r);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, (int)m, s->A, (int)m, s->work, 1);
    const double sigma = sqrt(s->sigma2);
    for (size_t j = 0; j < m; j++) s->beta[j] = s->u[j] + sigma * s->work[j];
    cblas_dsymv(CblasColMajor, CblasLower, (int)m, 1.0, D->G, (int)m, s->beta, 1, 0.0, s->work, 1);
    const double bGb = cblas_ddot((int)m, s->beta, 1, s->work, 1);
    const double bb = cblas_ddot((int)m, s->beta, 1, D->Bty, 1);
    const double rss = fmax(D->yy[0] - 2 * bb + bGb, 0.0);
    s->sigma2 = 1.0 / gsl_ran_gamma(r, s->sp.a + 0.5 * s->N, 1.0 / (s->sp.b + 0.5 * rss));
    return refresh(s);
}

static const char *const ss_names[] = {"sigma2"};

static size_t ss_nuisance(const void *st, double *vals, const char *const **names)
{
    const ss_model *s = st;
    if (s->sp.scaled) return 0;
    if (vals) vals[0] = s->sigma2;
    if (names) *names = ss_names;
    return 1;
}

static void ss_coef_all(const void *st, double *beta)
{
    const ss_model *s = st;
    memcpy(beta, s->u, s->m * sizeof(double));
}

static void ss_coef_mean(const void *st, double *beta)
{
    const ss_model *s = st;
    for (size_t i = 0; i < s->k; i++) beta[i] = s->u[s->active[i]];
}

static double ss_sigma2(const void *st, size_t o)
{
    const ss_model *s = st;
    (void)o;
    if (!s->sp.scaled) return s->sigma2;
    return (s->sp.b + 0.5 * fmax(s->D->yy[0] - s->quad, 0.0)) / fmax(s->sp.a + 0.5 * s->N - 1, 0.5);
}

/* The state for checkpoints (model.h state_size / _save / _load): v, S,
 * u and beta (m, m x m, m, m), then logdet, quad, sum_log_v, sigma2 and
 * the commits since the last refactorisation, bit for bit, so that a
 * loaded model continues exactly; A is scratch (refilled before use). */
static size_t ss_state_size(const void *st)
{
    const size_t m = ((const ss_model *)st)->m;
    return m * m + 3 * m + 5;
}

static void ss_state_save(const void *st, double *out)
{
    const ss_model *s = st;
    const size_t m = s->m;
    memcpy(out, s->v, m * sizeof *out);
    memcpy(out + m, s->S, m * m * sizeof *out);
    memcpy(out + m + m * m, s->u, m * sizeof *out);
    memcpy(out + 2 * m + m * m, s->beta, m * sizeof *out);
    double *p = out + 3 * m + m * m;
    p[0] = s->logdet;
    p[1] = s->quad;
    p[2] = s->sum_log_v;
    p[3] = s->sigma2;
    p[4] = (double)s->since;
}

static int ss_state_load(void *st, const size_t *active, size_t k, const double *in, size_t n)
{
    ss_model *s = st;
    const size_t m = s->m;
    if (n != ss_state_size(s) || k > s->kmax) return BASEL_EINVAL;
    const double *p = in + 3 * m + m * m;
    if (!(p[3] > 0) || !(p[4] >= 0 && p[4] < (double)m && p[4] == floor(p[4]))) return BASEL_EINVAL;
    for (size_t j = 0; j < m; j++)
        if (!(in[j] > 0)) return BASEL_EINVAL;
    for (size_t j = 0; j < m; j++) s->pos[j] = -1;
    for (size_t i = 0; i < k; i++) {
        if (active[i] >= m || s->pos[active[i]] >= 0) { /* out of range or repeated */
            for (size_t j = 0; j < m; j++) s->pos[j] = -1;
            s->k = 0;
            return BASEL_EINVAL;
        }
        s->active[i] = active[i];
        s->pos[active[i]] = (long)i;
    }
    s->k = k;
    memcpy(s->v, in, m * sizeof *in);
    memcpy(s->S, in + m, m * m * sizeof *in);
    memcpy(s->u, in + m + m * m, m * sizeof *in);
    memcpy(s->beta, in + 2 * m + m * m, m * sizeof *in);
    s->logdet = p[0];
    s->quad = p[1];
    s->sum_log_v = p[2];
    s->sigma2 = p[3];
    s->since = (size_t)p[4];
    return BASEL_OK;
}

const bsl_model_ops bsl_model_ssvs = {
    .name = "ssvs",
    .create = ss_create,
    .free = ss_free,
    .copy = ss_copy,
    .k = ss_k,
    .active = ss_active,
    .pos = ss_pos,
    .log_ml = ss_log_ml,
    .try_add = ss_try_add,
    .add = ss_add,
    .remove = ss_remove,
    .try_swap = NULL,
    .drop_scores = ss_drop_scores,
    .try_remove = ss_try_remove,
    .draw_nuisance = ss_draw_nuisance,
    .nuisance = ss_nuisance,
    .coef_mean = ss_coef_mean,
    .coef_all = ss_coef_all,
    .coef_cov = NULL,
    .sigma2 = ss_sigma2,
    .state_size = ss_state_size,
    .state_save = ss_state_save,
    .state_load = ss_state_load,
    .add_row = NULL,
};
