/*
 * glm.c: the logistic regression model given its Polya-Gamma latent
 * variables (bsl_model_glm; glm.h explains the model and why the chain is
 * exact), the prior's parser and the design's 0/1 targets.
 *
 * State: the active atoms A (k, in factor order after the intercept), the
 * latent omega (n), the weighted columns W_A = Omega^{1/2} [1, X_A]
 * (n x (k + 1)), b_A = [1, X_A]' kappa, the Cholesky factor L of
 * P_A = W_A'W_A + Lambda_A and z = L^-1 b_A, so that
 *     log_ml = (1/2) (log lam_0 + k log lam) - sum log L_ii + |z|^2 / 2.
 * Adding atom j: its weighted column w = Omega^{1/2} x_j, cross products
 * g = W_A'w (O(n k)), d = w'w + lam, the Schur complement s = d - |L^-1 g|^2
 * (>= lam > 0: the prior keeps every set feasible), z's new entry
 * (x_j'kappa - v'z) / sqrt(s), and
 *     log_ml' = log_ml + (1/2) log lam - (1/2) log s + z_new^2 / 2.
 * Removing position p: the factor's O(k^2) downdate (linalg.h) carries z.
 * A drop score without moving: with u = P^-1 b and r = (P^-1)_pp,
 *     log|P_-p| = log|P| + log r,  b'P_-p^-1 b = b'P^-1 b - u_p^2 / r.
 * The factor is rebuilt from W_A whenever omega changes (every sweep) and
 * every BSL_REFACTOR_EVERY updates in between. Checkpoints save omega,
 * theta, the factor and z, and recompute the rest (glm_state_save).
 */
#include "glm.h"
#include "polyagamma.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct glm_state {
    const bsl_design *D;
    size_t n, m, k, kmax;
    double lam0, lam;    /* prior precisions: intercept, atoms */
    double *kappa;       /* n: y - 1/2 */
    double *xk;          /* m: x_j' kappa */
    double sum_kappa;
    double *omega, *sw;  /* n: latent variables and their square roots */
    size_t *active;      /* kmax */
    long *pos;           /* m */
    bsl_chol chol;       /* of P_A, order k + 1 */
    double *W;           /* n x (kmax + 1): weighted columns, intercept first */
    double *b;           /* kmax + 1 */
    double *z;           /* kmax + 1 */
    double *theta;       /* kmax + 1: the last draw */
    double log_ml;
    size_t since_refactor;
    long trial_j;        /* the last atom scored by try_add (-1: none) */
    double trial_s, trial_z, trial_ml;
    double *trial_v, *trial_g, *trial_w; /* kmax + 1, kmax + 1, n */
    double *col;         /* n scratch */
    double *P;           /* (kmax + 1)^2 scratch for refactorising */
    double *u, *e;       /* kmax + 1 scratch */
    /* the multinomial's class blocks (bsl_glm_redraw_omega): offsets and
     * the pseudo-targets kappa + Omega off, n each; has_off = 0 (binomial):
     * neither is read and b_A = Z_A' kappa as above */
    int has_off;
    double *off, *keff;
} glm_state;

/* ------------------------------------------------------------ prior, y */

int bsl_glm_prior_parse(bsl_coef_prior *p, const char *text, size_t n, basel_error *err)
{
    memset(p, 0, sizeof *p);
    bsl_spec s;
    if (!text || !*text) text = BSL_GLM_DEFAULT_PRIOR;
    int rc = bsl_spec_parse(&s, "prior", text, err);
    if (rc) return rc;
    if (strcmp(s.name, "normal") != 0) {
        /* the prior table's entries that score GLMs (coef_prior.h glm_log_ml) */
        const bsl_coef_prior_type *t = bsl_coef_prior_type_find(s.name);
        char names[256] = "";
        for (size_t i = 0; bsl_coef_prior_types[i]; i++)
            if (bsl_coef_prior_types[i]->glm_log_ml) {
                if (*names) strncat(names, ", ", sizeof names - strlen(names) - 1);
                strncat(names, bsl_coef_prior_types[i]->name, sizeof names - strlen(names) - 1);
            }
        if (!t || !t->glm_log_ml)
            return bsl_fail(err, BASEL_EINVAL,
                            "--prior %s: a GLM (--family binomial or poisson) takes --prior normal[:%s] (independent "
                            "normal coefficients on the standardised inputs) or one of BAS's g-type priors (%s); "
                            "--family multinomial takes normal only",
                            s.name, BSL_GLM_PRIOR_KEYS, names);
        if ((rc = bsl_coef_prior_parse(p, text, n, 1, err))) return rc;
        if (bsl_coef_sampled(p))
            return bsl_fail(err, BASEL_EINVAL, "--prior %s: for a GLM g is fixed (give g only, not a, b)", text);
        p->glm = 1;
        return BASEL_OK;
    }
    p->type = &bsl_coef_normal;
    p->glm = 1;
    rc = bsl_spec_double(&s, "sd", 1.0, 1e-6, 1e6, &p->sd, err);
    if (!rc) rc = bsl_spec_double(&s, "intercept-sd", 10.0, 1e-6, 1e6, &p->intercept_sd, err);
    return rc ? rc : bsl_spec_finish(&s, BSL_GLM_PRIOR_KEYS, err);
}

void bsl_glm_design_y(const bsl_design *D, double *y)
{
    const size_t n = D->n;
    /* y = P y + Q (Q'y), Q'y = R gy (design.h) */
    double qy[64] = {0};
    for (size_t l = 0; l < D->q && l < 64; l++)
        for (size_t t = l; t < D->q; t++) qy[l] += D->R[l + t * D->q] * D->gy[t * D->c];
    for (size_t i = 0; i < n; i++) {
        double v = D->Y[i];
        for (size_t l = 0; l < D->q; l++) v += D->Q[i + l * n] * qy[l];
        y[i] = round(v); /* 0 / 1, or a count */
    }
}

double bsl_glm_loglik(int family, const double *y, const double *psi, size_t n)
{
    double s = 0;
    if (family == BSL_GLM_POISSON) {
        for (size_t i = 0; i < n; i++) s += y[i] * psi[i] - exp(psi[i]) - lgamma(y[i] + 1);
        return s;
    }
    for (size_t i = 0; i < n; i++) /* y psi - log(1 + e^psi), stable for large |psi| */
        s += y[i] * psi[i] - (fmax(psi[i], 0) + log1p(exp(-fabs(psi[i]))));
    return s;
}

/* ------------------------------------------------------------ the state */

static double score_of(const glm_state *G)
{
    double q = 0;
    for (size_t i = 0; i <= G->k; i++) q += G->z[i] * G->z[i];
    return 0.5 * (log(G->lam0) + (double)G->k * log(G->lam)) - 0.5 * bsl_chol_logdet(&G->chol) + 0.5 * q;
}

/* Fresh factor of P_A = W_A'W_A + Lambda_A and z = L^-1 b (O(n k^2)). */
static int refactor(glm_state *G)
{
    const size_t d = G->k + 1, n = G->n;
    for (size_t j = 0; j < d; j++)
        for (size_t i = j; i < d; i++) {
            const double v = bsl_dot(G->W + i * n, G->W + j * n, n);
            G->P[i + j * d] = G->P[j + i * d] = v + (i == j ? (i ? G->lam : G->lam0) : 0.0);
        }
    int rc = bsl_chol_factor(&G->chol, G->P, d, d);
    if (rc) return rc;
    memcpy(G->z, G->b, d * sizeof *G->z);
    bsl_chol_solve_lower(&G->chol, G->z);
    G->log_ml = score_of(G);
    G->since_refactor = 0;
    G->trial_j = -1;
    return BASEL_OK;
}

/* The weighted columns of the active set for the current omega. */
static void weigh_columns(glm_state *G)
{
    const size_t n = G->n;
    for (size_t i = 0; i < n; i++) {
        G->sw[i] = sqrt(G->omega[i]);
        G->W[i] = G->sw[i];
    }
    for (size_t a = 0; a < G->k; a++) {
        bsl_design_raw_column(G->D, G->active[a], G->col);
        for (size_t i = 0; i < n; i++) G->W[(a + 1) * n + i] = G->sw[i] * G->col[i];
    }
}

static int set_targets(glm_state *G, const double *y)
{
    const size_t n = G->n;
    G->sum_kappa = 0;
    for (size_t i = 0; i < n; i++) {
        if (y[i] != 0.0 && y[i] != 1.0) return BASEL_EINVAL;
        G->kappa[i] = y[i] - 0.5;
        G->sum_kappa += G->kappa[i];
    }
    for (size_t j = 0; j < G->m; j++) {
        bsl_design_raw_column(G->D, j, G->col);
        G->xk[j] = bsl_dot(G->col, G->kappa, n);
    }
    G->b[0] = G->sum_kappa;
    for (size_t a = 0; a < G->k; a++) G->b[a + 1] = G->xk[G->active[a]];
    return refactor(G);
}

/* With offsets: b_A = Z_A'(kappa + Omega off) for the current omega
 * (glm.h bsl_glm_redraw_omega), every atom's x_j'(kappa + Omega off)
 * (O(n m), once per class block); retarget then refactorises. */
static void pseudo_targets(glm_state *G)
{
    const size_t n = G->n;
    G->sum_kappa = 0;
    for (size_t i = 0; i < n; i++) {
        G->keff[i] = G->kappa[i] + G->omega[i] * G->off[i];
        G->sum_kappa += G->keff[i];
    }
    for (size_t j = 0; j < G->m; j++) {
        bsl_design_raw_column(G->D, j, G->col);
        G->xk[j] = bsl_dot(G->col, G->keff, n);
    }
    G->b[0] = G->sum_kappa;
    for (size_t a = 0; a < G->k; a++) G->b[a + 1] = G->xk[G->active[a]];
}

static int retarget(glm_state *G)
{
    pseudo_targets(G);
    return refactor(G);
}

static void glm_free(void *st)
{
    glm_state *G = st;
    if (!G) return;
    bsl_chol_free(&G->chol);
    free(G->kappa);
    free(G->xk);
    free(G->omega);
    free(G->sw);
    free(G->active);
    free(G->pos);
    free(G->W);
    free(G->b);
    free(G->z);
    free(G->theta);
    free(G->trial_v);
    free(G->trial_g);
    free(G->trial_w);
    free(G->col);
    free(G->P);
    free(G->u);
    free(G->e);
    free(G->off);
    free(G->keff);
    free(G);
}

static int glm_create(void **st, const bsl_design *D, const bsl_coef_prior *prior, size_t kmax,
                      basel_error *err)
{
    *st = NULL;
    if (prior->type->model != BSL_COEF_MODEL_GLM) return bsl_fail(err, BASEL_EINVAL, "the logistic model needs --prior normal");
    if (prior->glm_family != BSL_GLM_BINOMIAL && prior->glm_family != BSL_GLM_MULTINOMIAL)
        return bsl_fail(err, BASEL_EINVAL, "the Polya-Gamma model is for --family binomial or multinomial only");
    if (D->q != 1 || !D->Y || D->c != 1)
        return bsl_fail(err, BASEL_EINVAL,
                        "the logistic model takes one 0/1 target and the intercept as its only always-in column "
                        "(no linear term in the basis)");
    glm_state *G = calloc(1, sizeof *G);
    if (!G) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const size_t n = D->n, m = D->m, d = kmax + 1;
    G->D = D;
    G->n = n;
    G->m = m;
    G->kmax = kmax;
    G->lam0 = 1.0 / (prior->intercept_sd * prior->intercept_sd);
    G->lam = 1.0 / (prior->sd * prior->sd);
    G->kappa = bsl_malloc(n, sizeof(double));
    G->xk = bsl_malloc(m + 1, sizeof(double));
    G->omega = bsl_malloc(n, sizeof(double));
    G->sw = bsl_malloc(n, sizeof(double));
    G->active = bsl_malloc(d, sizeof(size_t));
    G->pos = bsl_malloc(m + 1, sizeof(long));
    G->W = bsl_malloc(n * d, sizeof(double));
    G->b = bsl_calloc(d, sizeof(double));
    G->z = bsl_calloc(d, sizeof(double));
    G->theta = bsl_calloc(d, sizeof(double));
    G->trial_v = bsl_malloc(d, sizeof(double));
    G->trial_g = bsl_malloc(d, sizeof(double));
    G->trial_w = bsl_malloc(n, sizeof(double));
    G->col = bsl_malloc(n, sizeof(double));
    G->P = bsl_malloc(d * d, sizeof(double));
    G->u = bsl_malloc(d, sizeof(double));
    G->e = bsl_malloc(d, sizeof(double));
    G->off = bsl_calloc(n, sizeof(double));
    G->keff = bsl_calloc(n, sizeof(double));
    double *y = bsl_malloc(n, sizeof(double));
    int rc = !G->kappa || !G->xk || !G->omega || !G->sw || !G->active || !G->pos || !G->W || !G->b || !G->z ||
                     !G->theta || !G->trial_v || !G->trial_g || !G->trial_w || !G->col || !G->P || !G->u ||
                     !G->e || !G->off || !G->keff || !y || bsl_chol_init(&G->chol, d)
                 ? BASEL_ENOMEM
                 : BASEL_OK;
    if (!rc) {
        for (size_t j = 0; j < m; j++) G->pos[j] = -1;
        /* start omega at PG(1, 0)'s mean: any positive start is valid */
        for (size_t i = 0; i < n; i++) G->omega[i] = 0.25;
        weigh_columns(G);
        bsl_glm_design_y(D, y);
        if (prior->glm_family == BSL_GLM_MULTINOMIAL) /* class numbers: this model's class indicator */
            for (size_t i = 0; i < n; i++) y[i] = y[i] == (double)prior->glm_class;
        rc = set_targets(G, y);
    }
    free(y);
    if (rc) {
        glm_free(G);
        return bsl_fail(err, rc, rc == BASEL_ENOMEM ? "out of memory" : "the logistic model's start failed");
    }
    *st = G;
    return BASEL_OK;
}

static void glm_copy(void *dst, const void *src)
{
    glm_state *A = dst;
    const glm_state *B = src;
    const size_t n = B->n, d = B->kmax + 1;
    A->k = B->k;
    A->lam0 = B->lam0;
    A->lam = B->lam;
    memcpy(A->kappa, B->kappa, n * sizeof(double));
    memcpy(A->xk, B->xk, B->m * sizeof(double));
    A->sum_kappa = B->sum_kappa;
    memcpy(A->omega, B->omega, n * sizeof(double));
    memcpy(A->sw, B->sw, n * sizeof(double));
    memcpy(A->active, B->active, d * sizeof(size_t));
    memcpy(A->pos, B->pos, B->m * sizeof(long));
    memcpy(A->W, B->W, n * d * sizeof(double));
    memcpy(A->b, B->b, d * sizeof(double));
    memcpy(A->z, B->z, d * sizeof(double));
    memcpy(A->theta, B->theta, d * sizeof(double));
    A->chol.k = B->chol.k;
    memcpy(A->chol.L, B->chol.L, d * d * sizeof(double));
    A->log_ml = B->log_ml;
    A->since_refactor = B->since_refactor;
    A->trial_j = -1;
    A->has_off = B->has_off;
    memcpy(A->off, B->off, n * sizeof(double));
    memcpy(A->keff, B->keff, n * sizeof(double));
}

static size_t glm_k(const void *st) { return ((const glm_state *)st)->k; }
static const size_t *glm_active(const void *st) { return ((const glm_state *)st)->active; }
static long glm_pos(const void *st, size_t j) { return ((const glm_state *)st)->pos[j]; }
static double glm_log_ml(const void *st) { return ((const glm_state *)st)->log_ml; }

static double glm_try_add(void *st, size_t j)
{
    glm_state *G = st;
    if (G->pos[j] >= 0 || G->k >= G->kmax) return -INFINITY;
    if (G->trial_j == (long)j) return G->trial_ml;
    const size_t n = G->n, d = G->k + 1;
    bsl_design_raw_column(G->D, j, G->trial_w);
    for (size_t i = 0; i < n; i++) G->trial_w[i] *= G->sw[i];
    bsl_dots(G->trial_w, G->W, n, d, n, G->trial_g);
    const double diag = bsl_dot(G->trial_w, G->trial_w, n) + G->lam;
    const double s = bsl_chol_schur(&G->chol, G->trial_g, diag, G->trial_v);
    if (!(s > 0) || s / diag <= BSL_RANK_TOL) return -INFINITY;
    double vz = 0;
    for (size_t i = 0; i < d; i++) vz += G->trial_v[i] * G->z[i];
    G->trial_s = s;
    G->trial_z = (G->xk[j] - vz) / sqrt(s);
    G->trial_ml = G->log_ml + 0.5 * log(G->lam) - 0.5 * log(s) + 0.5 * G->trial_z * G->trial_z;
    G->trial_j = (long)j;
    return G->trial_ml;
}

static int glm_add(void *st, size_t j)
{
    glm_state *G = st;
    if (glm_try_add(G, j) == -INFINITY) return BASEL_ENUMERIC;
    const size_t n = G->n, d = G->k + 1;
    bsl_chol_append_commit(&G->chol, G->trial_v, G->trial_s);
    memcpy(G->W + d * n, G->trial_w, n * sizeof(double));
    G->b[d] = G->xk[j];
    G->z[d] = G->trial_z;
    G->active[G->k] = j;
    G->pos[j] = (long)G->k;
    G->k++;
    G->log_ml = G->trial_ml;
    G->trial_j = -1;
    if (++G->since_refactor >= BSL_REFACTOR_EVERY && refactor(G)) return BASEL_ENUMERIC;
    return BASEL_OK;
}

static void glm_remove(void *st, size_t j)
{
    glm_state *G = st;
    const long a = G->pos[j];
    if (a < 0) return;
    const size_t p = (size_t)a + 1, d = G->k + 1, n = G->n;
    bsl_chol_remove(&G->chol, p, G->z, 1); /* deletes z's row p itself */
    for (size_t i = p; i + 1 < d; i++) {
        memcpy(G->W + i * n, G->W + (i + 1) * n, n * sizeof(double));
        G->b[i] = G->b[i + 1];
    }
    for (size_t i = (size_t)a; i + 1 < G->k; i++) {
        G->active[i] = G->active[i + 1];
        G->pos[G->active[i]] = (long)i;
    }
    G->pos[j] = -1;
    G->k--;
    G->trial_j = -1;
    if (++G->since_refactor >= BSL_REFACTOR_EVERY) refactor(G); /* cannot fail: a leading block of a factored P */
    else G->log_ml = score_of(G);
}

/* log_ml without active position a (O(k^2), model unchanged). */
static double drop_at(glm_state *G, size_t a)
{
    const size_t d = G->k + 1, p = a + 1;
    memcpy(G->u, G->z, d * sizeof(double));
    bsl_chol_solve_upper(&G->chol, G->u); /* u = P^-1 b */
    for (size_t i = 0; i < d; i++) G->e[i] = i == p ? 1.0 : 0.0;
    bsl_chol_solve_lower(&G->chol, G->e); /* (P^-1)_pp = |L^-1 e_p|^2 */
    double r = 0, q = 0;
    for (size_t i = p; i < d; i++) r += G->e[i] * G->e[i];
    for (size_t i = 0; i < d; i++) q += G->z[i] * G->z[i];
    const double logdet = bsl_chol_logdet(&G->chol) + log(r);
    const double quad = q - G->u[p] * G->u[p] / r;
    return 0.5 * (log(G->lam0) + (double)(G->k - 1) * log(G->lam)) - 0.5 * logdet + 0.5 * quad;
}

static double glm_try_remove(void *st, size_t j)
{
    glm_state *G = st;
    return G->pos[j] < 0 ? -INFINITY : drop_at(G, (size_t)G->pos[j]);
}

static void glm_drop_scores(void *st, double *out)
{
    glm_state *G = st;
    for (size_t a = 0; a < G->k; a++) out[a] = drop_at(G, a);
}

static void glm_clear(void *st)
{
    glm_state *G = st;
    for (size_t a = 0; a < G->k; a++) G->pos[G->active[a]] = -1;
    G->k = 0;
    refactor(G);
}

/* theta | A, omega, y ~ N(P^-1 b, P^-1): L' theta = z + eps. */
static void draw_theta(glm_state *G, gsl_rng *r)
{
    const size_t d = G->k + 1;
    for (size_t i = 0; i < d; i++) G->theta[i] = G->z[i] + gsl_ran_ugaussian(r);
    bsl_chol_solve_upper(&G->chol, G->theta);
}

/* One sweep's latent step (glm.h): theta given the set, then omega given
 * theta (Polson, Scott and Windle 2013, section 3.1), then the factor for
 * the new omega. */
static int glm_draw_nuisance(void *st, gsl_rng *r)
{
    glm_state *G = st;
    const size_t n = G->n;
    draw_theta(G, r);
    for (size_t i = 0; i < n; i++) G->col[i] = G->theta[0];
    for (size_t a = 0; a < G->k; a++) { /* psi = Z_A theta from the weighted columns: x = w / sqrt(omega) */
        const double *w = G->W + (a + 1) * n;
        for (size_t i = 0; i < n; i++) G->col[i] += G->theta[a + 1] * w[i] / G->sw[i];
    }
    for (size_t i = 0; i < n; i++) G->omega[i] = bsl_pg_draw(r, G->col[i] - (G->has_off ? G->off[i] : 0.0));
    weigh_columns(G);
    return G->has_off ? retarget(G) : refactor(G);
}

static void glm_coef_mean(const void *st, double *beta)
{
    const glm_state *G = st;
    const size_t d = G->k + 1;
    double *u = G->u; /* scratch: the state's, not its meaning */
    memcpy(u, G->z, d * sizeof(double));
    bsl_chol_solve_upper(&G->chol, u);
    for (size_t a = 0; a < G->k; a++) beta[a] = u[a + 1];
}

static double glm_sigma2(const void *st, size_t o) { return 1.0; }

/* ------------------------------------------------------------ checkpoints
 *
 * The state as doubles: omega (n), the last theta (kmax + 1), the factor's
 * lower triangle by columns (d (d + 1) / 2, d = k + 1), z (d), log_ml and
 * since_refactor. The rest is a function of these and the active atoms,
 * recomputed by the same arithmetic on load (the weighted columns W from
 * omega, b from x_j' kappa), so a loaded chain continues bit for bit; the
 * trial cache is dropped (a try_add recomputes the same bits). */
static size_t glm_state_size(const void *st)
{
    const glm_state *G = st;
    const size_t d = G->k + 1;
    return G->n + G->kmax + 1 + d * (d + 1) / 2 + d + 2;
}

static void glm_state_save(const void *st, double *out)
{
    const glm_state *G = st;
    const size_t d = G->k + 1, ld = G->chol.cap;
    double *p = out;
    memcpy(p, G->omega, G->n * sizeof *p);
    p += G->n;
    memcpy(p, G->theta, (G->kmax + 1) * sizeof *p);
    p += G->kmax + 1;
    for (size_t j = 0; j < d; j++)
        for (size_t i = j; i < d; i++) *p++ = G->chol.L[i + j * ld];
    memcpy(p, G->z, d * sizeof *p);
    p += d;
    *p++ = G->log_ml;
    *p = (double)G->since_refactor;
}

/* Refuses (BASEL_EINVAL) a state of another size, a number that is not
 * finite, a latent variable that is not positive, a factor without a
 * positive diagonal, a counter out of range (the model unchanged), and
 * atoms out of range or repeated (the model then empty). */
static int glm_state_load(void *st, const size_t *active, size_t k, const double *in, size_t n)
{
    glm_state *G = st;
    const size_t d = k + 1, ld = G->chol.cap;
    if (k > G->kmax || n != G->n + G->kmax + 1 + d * (d + 1) / 2 + d + 2) return BASEL_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(in[i])) return BASEL_EINVAL;
    for (size_t i = 0; i < G->n; i++)
        if (!(in[i] > 0)) return BASEL_EINVAL;
    const double *Lin = in + G->n + G->kmax + 1, *tail = Lin + d * (d + 1) / 2 + d;
    for (size_t j = 0, at = 0; j < d; at += d - j, j++)
        if (!(Lin[at] > 0)) return BASEL_EINVAL;
    if (!(tail[1] >= 0 && tail[1] < BSL_REFACTOR_EVERY && tail[1] == floor(tail[1]))) return BASEL_EINVAL;
    glm_clear(G);
    for (size_t a = 0; a < k; a++) {
        if (active[a] >= G->m || G->pos[active[a]] >= 0) {
            glm_clear(G);
            return BASEL_EINVAL;
        }
        G->active[a] = active[a];
        G->pos[active[a]] = (long)a;
        G->k = a + 1;
    }
    memcpy(G->omega, in, G->n * sizeof *in);
    memcpy(G->theta, in + G->n, (G->kmax + 1) * sizeof *in);
    weigh_columns(G);
    G->b[0] = G->sum_kappa;
    for (size_t a = 0; a < k; a++) G->b[a + 1] = G->xk[active[a]];
    const double *p = Lin;
    for (size_t j = 0; j < d; j++)
        for (size_t i = j; i < d; i++) G->chol.L[i + j * ld] = *p++;
    G->chol.k = d;
    memcpy(G->z, p, d * sizeof *p);
    G->log_ml = tail[0];
    G->since_refactor = (size_t)tail[1];
    G->trial_j = -1;
    return BASEL_OK;
}

static void glm_describe(const void *st, char *buf, size_t len)
{
    snprintf(buf, len, "logistic regression by Polya-Gamma augmentation: exact (the latent variables are drawn "
                       "once per sweep)");
}

const bsl_model_ops bsl_model_glm = {
    .name = "logistic (Polya-Gamma)",
    .create = glm_create,
    .free = glm_free,
    .copy = glm_copy,
    .k = glm_k,
    .active = glm_active,
    .pos = glm_pos,
    .log_ml = glm_log_ml,
    .try_add = glm_try_add,
    .add = glm_add,
    .remove = glm_remove,
    .clear = glm_clear,
    .drop_scores = glm_drop_scores,
    .try_remove = glm_try_remove,
    .draw_nuisance = glm_draw_nuisance,
    .coef_mean = glm_coef_mean,
    .sigma2 = glm_sigma2,
    .state_size = glm_state_size,
    .state_save = glm_state_save,
    .state_load = glm_state_load,
    .describe = glm_describe,
};

/* ------------------------------------------------------------ extras */

int bsl_glm_set_y(void *st, const double *y)
{
    glm_state *G = st;
    const int rc = set_targets(G, y);
    return rc || !G->has_off ? rc : retarget(G);
}
const double *bsl_glm_omega(const void *st) { return ((const glm_state *)st)->omega; }
const double *bsl_glm_theta(const void *st) { return ((const glm_state *)st)->theta; }

int bsl_glm_set_omega(void *st, const double *omega)
{
    glm_state *G = st;
    for (size_t i = 0; i < G->n; i++)
        if (!(omega[i] > 0) || !isfinite(omega[i])) return BASEL_EINVAL;
    memcpy(G->omega, omega, G->n * sizeof(double));
    weigh_columns(G);
    return G->has_off ? retarget(G) : refactor(G);
}

/* ------------------------------------------------- multinomial blocks */

void bsl_glm_eta(const void *st, double *eta)
{
    const glm_state *G = st;
    const size_t n = G->n;
    for (size_t i = 0; i < n; i++) eta[i] = G->theta[0];
    for (size_t a = 0; a < G->k; a++) { /* x = w / sqrt(omega), as glm_draw_nuisance */
        const double *w = G->W + (a + 1) * n;
        for (size_t i = 0; i < n; i++) eta[i] += G->theta[a + 1] * w[i] / G->sw[i];
    }
}

int bsl_glm_redraw_omega(void *st, gsl_rng *r, const double *off)
{
    glm_state *G = st;
    const size_t n = G->n;
    bsl_glm_eta(G, G->col); /* the last theta's z'theta: omega_i ~ PG(1, z_i'theta - off_i) */
    G->has_off = 1;
    memcpy(G->off, off, n * sizeof(double));
    for (size_t i = 0; i < n; i++) G->omega[i] = bsl_pg_draw(r, G->col[i] - off[i]);
    weigh_columns(G);
    return retarget(G);
}

void bsl_glm_restore_offsets(void *st, const double *off)
{
    glm_state *G = st;
    G->has_off = 1;
    memcpy(G->off, off, G->n * sizeof(double));
    pseudo_targets(G);
}

void bsl_glm_draw_theta(void *st, gsl_rng *r) { draw_theta(st, r); }
