/*
 * subset_draws.c: the values of each kept draw of a Gaussian subset fit
 * (the draws CSV's sigma2, b_ and log_lik columns, docs/FIT.md "The draws
 * CSV"), drawn after the run from their exact conditional posterior given
 * the draw's model, with a generator of their own.
 *
 * Given a model M (atoms A), subset_post.c's bsl_post_of gives the Student-t
 * posterior of the projected atom coefficients: location beta, scale^2
 * scale2 V, df degrees of freedom. For every prior whose t is exact within
 * a model (coef_prior.h within_model NULL) it is the normal-inverse-gamma
 * posterior integrated over sigma^2:
 *     sigma^2 | y, M      ~ IG(df/2, df scale2/2)   (df = INFINITY: sigma^2
 *                                                    = scale2, given),
 *     beta | sigma^2, y, M ~ N(beta, sigma^2 V),
 * (subset_post.c's opening comment lists df, scale2 and V for each prior;
 * e.g. the g-prior with IG(a0, b0) on sigma^2: df = 2 a0 + N, df scale2/2 =
 * b0 + (yy - s quad)/2). The always-in coefficients, flat a priori, are
 * given beta and sigma^2 gamma ~ N(gy - gB_A' beta, sigma^2 (Z'Z)^{-1})
 * (design.h: Z = Q R, Z'Z = R'R), so gamma = gy - gB_A' beta + sigma R^{-1}
 * xi. On the original scale (bsl_post_terms' transformation) they are the
 * coefficient table's terms, whose model average is the mean of these
 * draws. With y = Q R gy + P y and each column B_a = Q R gB_a + P B_a, the
 * residual of the draw is
 *     y - Z gamma - B_A beta = P y - P B_A beta - sigma Q xi,
 * from the projected targets and columns the design keeps (design.h), so
 * log_lik_i = log N(y_i | fitted_i, sigma^2) needs no original column.
 *
 * Not drawn (the columns are absent): priors whose within-model posterior
 * is not that t (the g mixtures: within_model set), sampled nuisance
 * parameters (the draw's sigma^2 and lambda or g would have to be the
 * chain's: the kept draws do not hold the model's state), several targets,
 * and the callers' other exclusions (subset.c).
 */
#include "subset_post.h"
#include "../../problem/problem.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

/* the projected columns kept for the residuals: above, each draw computes
 * its atoms' columns again (or reads the summaries' column store) */
#define DRAW_COLS_BYTES ((double)(64 << 20))

int bsl_subset_draws_possible(const bsl_vs_problem *pb)
{
    const bsl_coef_prior *p = &pb->prior;
    return pb->D->c == 1 && pb->D->q >= 1 && pb->D->q <= 64 && p->type && p->type->model == BSL_COEF_MODEL_GAUSS &&
           !p->type->within_model && !bsl_coef_sampled(p) && pb->D->Y && pb->D->Q;
}

/* The values' names, the draws CSV's: sigma2, b_Intercept, b_ and each
 * always-in input's name, b_ and each atom's, log_lik. */
static int value_names(bsl_vs_result *vr, const bsl_problem *P, const char *const *atom_names, size_t q)
{
    const size_t nv = q + vr->m + 2;
    vr->draw_value_names = bsl_calloc(nv, sizeof *vr->draw_value_names);
    if (!vr->draw_value_names) return BASEL_ENOMEM;
    vr->ndraw_q = q; /* from here on vs_result_free frees the names */
    for (size_t v = 0; v < nv; v++) {
        const char *name = v == 0        ? "sigma2"
                           : v == 1      ? "Intercept"
                           : v <= q      ? P->input_names[v - 2]
                           : v + 1 < nv ? atom_names[v - 1 - q]
                                         : "log_lik";
        const int b = v > 0 && v + 1 < nv;
        if (!(vr->draw_value_names[v] = malloc(strlen(name) + 3))) return BASEL_ENOMEM;
        snprintf(vr->draw_value_names[v], strlen(name) + 3, "%s%s", b ? "b_" : "", name);
    }
    return BASEL_OK;
}

/* What every draw reads and the scratch it writes. */
typedef struct draw_ws {
    const bsl_vs_problem *pb;
    const bsl_problem *P;
    int linear;
    double ys;
    bsl_model *M;
    bsl_post p;
    bsl_chol L;
    gsl_rng *r;
    double *xi, *gam, *beta, *e, *col, *cols;
    unsigned char *have;
    size_t *prev, kprev; /* the last draw's model: its posterior is still in p and L */
    int any;
} draw_ws;

static void ws_free(draw_ws *w)
{
    bsl_model_free(w->M);
    bsl_post_free(&w->p);
    bsl_chol_free(&w->L);
    if (w->r) gsl_rng_free(w->r);
    free(w->xi);
    free(w->gam);
    free(w->beta);
    free(w->e);
    free(w->col);
    free(w->cols);
    free(w->have);
    free(w->prev);
}

static int ws_init(draw_ws *w, const bsl_vs_problem *pb, const bsl_problem *P, const bsl_dict *dict,
                   unsigned long seed, basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t q = D->q, n = D->n, kmax = pb->kmax, m = D->m;
    memset(w, 0, sizeof *w);
    w->pb = pb;
    w->P = P;
    w->linear = dict->kind == BSL_BASIS_LINEAR;
    w->ys = P->y_scale ? P->y_scale[0] : 1.0; /* FIT.md "Extreme values": back to the target's units */
    w->r = gsl_rng_alloc(gsl_rng_mt19937);
    w->xi = bsl_malloc(kmax + q + 1, sizeof *w->xi);
    w->gam = bsl_malloc(q + 1, sizeof *w->gam);
    w->beta = bsl_malloc(kmax + 1, sizeof *w->beta);
    w->e = bsl_malloc(n, sizeof *w->e);
    w->col = bsl_malloc(n, sizeof *w->col);
    w->prev = bsl_malloc(kmax + 1, sizeof *w->prev);
    /* the atoms' projected columns, each computed once, within DRAW_COLS_BYTES */
    const int keep_cols = (double)n * (double)m * sizeof(double) <= DRAW_COLS_BYTES;
    w->cols = keep_cols ? bsl_malloc(n * m + 1, sizeof *w->cols) : NULL;
    w->have = keep_cols ? bsl_calloc(m + 1, 1) : NULL;
    if (!w->r || !w->xi || !w->gam || !w->beta || !w->e || !w->col || !w->prev || (keep_cols && (!w->cols || !w->have)))
        return BASEL_ENOMEM;
    int rc = bsl_post_init(&w->p, kmax, 1);
    if (!rc) rc = bsl_chol_init(&w->L, kmax + 1);
    if (!rc) rc = bsl_model_create(&w->M, D, &pb->prior, kmax, err);
    if (rc) return rc;
    bsl_model_use_columns(w->M, pb->cols);
    /* a stream of its own: the chains' generators (bsl_chain_seed(seed, c))
     * are untouched, so every other output is the same with or without it */
    gsl_rng_set(w->r, (seed ^ 0x6472617773UL) * 2654435761UL + 1); /* "draws" */
    return BASEL_OK;
}

/* One draw of model A (k atoms): fx (q + 2) = sigma2, the always-in
 * coefficients, log_lik; coef (k) its atoms'; ll (n, or NULL) the rows'
 * log-likelihoods. BASEL_ENUMERIC for a collinear model. */
static int one_draw(draw_ws *w, const size_t *A, size_t k, double *fx, double *coef, double *ll)
{
    const bsl_vs_problem *pb = w->pb;
    const bsl_problem *P = w->P;
    const bsl_design *D = pb->D;
    const size_t q = D->q, n = D->n;
    const double ys = w->ys;
    /* consecutive draws often share their model: its posterior once */
    const int same = w->any && k == w->kprev && !memcmp(A, w->prev, k * sizeof *A);
    if (!same) {
        w->any = 0;
        if (bsl_post_of(&w->p, w->M, A, k, 0)) return BASEL_ENUMERIC; /* a chain never keeps a collinear set */
        /* L_V L_V' = V */
        if (k && bsl_chol_factor(&w->L, w->p.V, k, k)) return BASEL_ENUMERIC;
        memcpy(w->prev, A, k * sizeof *A);
        w->kprev = k;
        w->any = 1;
    }
    const bsl_post *p = &w->p;
    const double s2 = isfinite(p->df) ? p->df * p->scale2[0] / gsl_ran_chisq(w->r, p->df) : p->scale2[0];
    const double sd = sqrt(s2);
    double *xi = w->xi, *gam = w->gam, *beta = w->beta, *e = w->e;
    for (size_t a = 0; a < k + q; a++) xi[a] = gsl_ran_gaussian_ziggurat(w->r, 1.0);
    /* beta = location + sigma L_V xi */
    for (size_t a = 0; a < k; a++) {
        double t = 0;
        for (size_t b = 0; b <= a; b++) t += w->L.L[a + b * w->L.cap] * xi[b];
        beta[a] = p->beta[a] + sd * t;
    }
    /* gamma = gy - gB_A' beta + sigma R^{-1} xi_q (back substitution) */
    const double *xq = xi + k;
    for (size_t l = q; l-- > 0;) {
        double t = xq[l];
        for (size_t j = l + 1; j < q; j++) t -= D->R[l + j * q] * gam[j];
        gam[l] = t / D->R[l + l * q];
    }
    for (size_t l = 0; l < q; l++) {
        double g = D->gy[l] + sd * gam[l];
        for (size_t a = 0; a < k; a++) g -= beta[a] * D->gB[A[a] * q + l];
        gam[l] = g;
    }
    /* the original scale, as bsl_post_terms: the intercept of the original
     * inputs, an always-in input gamma_l / sc, an atom beta (/ sc for a
     * linear atom, an input) */
    double b0 = gam[0];
    for (size_t l = 1; l < q; l++) b0 -= gam[l] * P->x_mean[l - 1] / P->x_scale[l - 1];
    for (size_t a = 0; a < k; a++) {
        const double f = w->linear ? 1 / P->x_scale[A[a]] : 1.0;
        if (w->linear) b0 -= beta[a] * P->x_mean[A[a]] * f;
        coef[a] = beta[a] * f * ys;
    }
    fx[0] = s2 * ys * ys;
    fx[1] = b0 * ys;
    for (size_t l = 1; l < q; l++) fx[1 + l] = gam[l] / P->x_scale[l - 1] * ys;
    /* the residuals P y - P B_A beta - sigma Q xi_q, in the rescaled units
     * (the log-likelihood of the target's: - log ys per row) */
    for (size_t t = 0; t < n; t++) {
        double v = D->Y[t];
        for (size_t l = 0; l < q; l++) v -= sd * D->Q[t + l * n] * xq[l];
        e[t] = v;
    }
    for (size_t a = 0; a < k; a++) {
        const double *c = w->cols ? w->cols + A[a] * n : pb->cols ? bsl_colstore_get(pb->cols, A[a]) : NULL;
        if (w->cols && !w->have[A[a]]) {
            bsl_design_column(D, A[a], w->cols + A[a] * n);
            w->have[A[a]] = 1;
        } else if (!c) {
            bsl_design_column(D, A[a], w->col);
            c = w->col;
        }
        for (size_t t = 0; t < n; t++) e[t] -= c[t] * beta[a];
    }
    const double c0 = -0.5 * (log(2 * M_PI) + log(s2)) - log(ys);
    double sum = 0;
    for (size_t t = 0; t < n; t++) {
        const double lt = c0 - 0.5 * e[t] * e[t] / s2;
        if (ll) ll[t] = lt;
        sum += lt;
    }
    fx[q + 1] = sum;
    return BASEL_OK;
}

/* The draws in memory: their values into the arrays. */
static int in_memory(draw_ws *w, bsl_vs_result *vr, int pointwise)
{
    const size_t nd = vr->ndraws, q = w->pb->D->q, n = w->pb->D->n;
    if (!(vr->draw_fixed = bsl_malloc(nd * (q + 2), sizeof *vr->draw_fixed)) ||
        !(vr->draw_coef = bsl_malloc(vr->draw_atoms_len + 1, sizeof *vr->draw_coef)) ||
        (pointwise && !(vr->draw_loglik = bsl_malloc(nd * n, sizeof *vr->draw_loglik))))
        return BASEL_ENOMEM;
    for (size_t i = 0; i < nd; i++) {
        const size_t a0 = vr->draw_start[i];
        const int rc = one_draw(w, vr->draw_atoms + a0, vr->draw_start[i + 1] - a0, vr->draw_fixed + i * (q + 2),
                                vr->draw_coef + a0, vr->draw_loglik ? vr->draw_loglik + i * n : NULL);
        if (rc) return rc;
    }
    return BASEL_OK;
}

/* Streamed draws: each temporary file's rows are written again, with
 * their values at the end, to a new one (memory stays flat in the run's
 * length, as the draws' own: README "Memory"); the pointwise
 * log-likelihoods go to loglik_spill. */
static int streamed(draw_ws *w, bsl_vs_result *vr, int pointwise)
{
    const size_t q = w->pb->D->q, n = w->pb->D->n, m = vr->m, nv = m + q + 2, ns = vr->nscalars;
    size_t *atoms = bsl_malloc(m + 1, sizeof *atoms);
    double *sc = bsl_malloc(ns + 1, sizeof *sc), *vals = bsl_malloc(nv, sizeof *vals);
    double *fx = bsl_malloc(q + 2, sizeof *fx), *coef = bsl_malloc(m + 1, sizeof *coef);
    double *ll = pointwise ? bsl_malloc(n + 1, sizeof *ll) : NULL;
    unsigned char *text = bsl_malloc(m + 1, 1); /* bsl_vs_print_draw's scratch */
    int rc = atoms && sc && vals && fx && coef && text && (ll || !pointwise) ? BASEL_OK : BASEL_ENOMEM;
    if (!rc && pointwise && !(vr->loglik_spill = bsl_tmpfile())) rc = BASEL_EIO;
    for (size_t f = 0; f < vr->nspill && !rc; f++) {
        FILE *in = vr->spill[f], *out = bsl_tmpfile();
        if (!out || fflush(in) != 0 || fseek(in, 0, SEEK_SET) != 0) rc = BASEL_EIO;
        for (int ch; !rc && (ch = getc(in)) != EOF;) {
            ungetc(ch, in);
            unsigned chain;
            size_t k;
            rc = bsl_vs_parse_draw(in, m, ns, 0, &chain, atoms, &k, sc, NULL);
            if (!rc) rc = one_draw(w, atoms, k, fx, coef, ll);
            if (rc) break;
            memset(vals, 0, nv * sizeof *vals);
            memcpy(vals, fx, (q + 1) * sizeof *vals);
            for (size_t a = 0; a < k; a++) vals[1 + q + atoms[a]] = coef[a];
            vals[nv - 1] = fx[q + 1];
            rc = bsl_vs_print_draw_values(out, m, chain, atoms, k, sc, ns, vals, nv, text);
            const double c = (double)chain;
            if (!rc && ll &&
                (fwrite(&c, sizeof c, 1, vr->loglik_spill) != 1 || fwrite(ll, sizeof *ll, n, vr->loglik_spill) != n))
                rc = BASEL_EIO;
        }
        if (!rc && (ferror(in) || fflush(out) != 0)) rc = BASEL_EIO;
        if (rc) {
            if (out) fclose(out);
            break;
        }
        fclose(in);
        vr->spill[f] = out;
    }
    if (!rc) vr->nvalues = nv;
    free(atoms);
    free(sc);
    free(vals);
    free(fx);
    free(coef);
    free(ll);
    free(text);
    return rc;
}

int bsl_subset_draw_values(const bsl_vs_problem *pb, const bsl_problem *P, const bsl_dict *dict,
                           const char *const *atom_names, bsl_vs_result *vr, unsigned long seed, int pointwise,
                           basel_error *err)
{
    if (!bsl_subset_draws_possible(pb) || !vr->ndraws) return BASEL_OK;
    draw_ws w;
    int rc = ws_init(&w, pb, P, dict, seed, err);
    if (!rc) rc = value_names(vr, P, atom_names, pb->D->q);
    if (!rc) rc = vr->nspill ? streamed(&w, vr, pointwise) : in_memory(&w, vr, pointwise);
    if (!rc && pointwise) vr->nloglik = pb->D->n;
    ws_free(&w);
    if (rc == BASEL_ENUMERIC) return bsl_fail(err, rc, "a kept draw's model is collinear: no draws of its coefficients");
    if (rc == BASEL_EIO) return bsl_fail(err, rc, "cannot write the draws' values to temporary files: %s", strerror(errno));
    if (rc == BASEL_ENOMEM) return bsl_fail(err, rc, "out of memory");
    return rc; /* a failed fit: vr is freed with the run */
}
