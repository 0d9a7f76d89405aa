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

int bsl_subset_draw_values(const bsl_vs_problem *pb, const bsl_problem *P, const bsl_dict *dict,
                           const char *const *atom_names, bsl_vs_result *vr, unsigned long seed, int pointwise,
                           basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t q = D->q, n = D->n, kmax = pb->kmax;
    const int linear = dict->kind == BSL_BASIS_LINEAR;
    const double ys = P->y_scale ? P->y_scale[0] : 1.0; /* FIT.md "Extreme values": back to the target's units */
    if (!bsl_subset_draws_possible(pb) || !vr->ndraws) return BASEL_OK;
    int rc = bsl_vs_spill_load(vr); /* the draws' atoms, in memory */
    if (rc) return bsl_fail(err, rc, rc == BASEL_ENOMEM ? "out of memory" : "cannot read the draws back from their "
                                                                             "temporary files");
    const size_t nd = vr->ndraws, nf = q + 2;
    bsl_model *M = NULL;
    bsl_post p = {0};
    bsl_chol L = {0};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double *xi = bsl_malloc(kmax + q + 1, sizeof *xi), *gam = bsl_malloc(q + 1, sizeof *gam);
    double *beta = bsl_malloc(kmax + 1, sizeof *beta), *e = bsl_malloc(n, sizeof *e);
    double *col = bsl_malloc(n, sizeof *col);
    /* the atoms' projected columns, each computed once, within DRAW_COLS_BYTES */
    const int keep_cols = (double)n * (double)vr->m * sizeof(double) <= DRAW_COLS_BYTES;
    double *cols = keep_cols ? bsl_malloc(n * vr->m + 1, sizeof *cols) : NULL;
    unsigned char *have = keep_cols ? bsl_calloc(vr->m + 1, 1) : NULL;
    if (keep_cols && (!cols || !have)) rc = BASEL_ENOMEM;
    if (!rc && (!r || !xi || !gam || !beta || !e || !col || value_names(vr, P, atom_names, q))) rc = BASEL_ENOMEM;
    if (!rc && (!(vr->draw_fixed = bsl_malloc(nd * nf, sizeof *vr->draw_fixed)) ||
                !(vr->draw_coef = bsl_malloc(vr->draw_atoms_len + 1, sizeof *vr->draw_coef)) ||
                (pointwise && !(vr->draw_loglik = bsl_malloc(nd * n, sizeof *vr->draw_loglik)))))
        rc = BASEL_ENOMEM;
    if (!rc) rc = bsl_post_init(&p, kmax, 1);
    if (!rc) rc = bsl_chol_init(&L, kmax + 1);
    if (!rc) rc = bsl_model_create(&M, D, &pb->prior, kmax, err);
    if (!rc) bsl_model_use_columns(M, pb->cols);
    /* a stream of its own: the chains' generators (bsl_chain_seed(seed, c))
     * are untouched, so every other output is the same with or without it */
    if (!rc) gsl_rng_set(r, (seed ^ 0x6472617773UL) * 2654435761UL + 1); /* "draws" */
    const double log2pi = log(2 * M_PI);
    for (size_t i = 0; i < nd && !rc; i++) {
        const size_t a0 = vr->draw_start[i], k = vr->draw_start[i + 1] - a0;
        const size_t *A = vr->draw_atoms + a0;
        double *fx = vr->draw_fixed + i * nf;
        /* consecutive draws often share their model: its posterior once */
        const int same = i > 0 && k == vr->draw_start[i] - vr->draw_start[i - 1] &&
                         !memcmp(A, vr->draw_atoms + vr->draw_start[i - 1], k * sizeof *A);
        if (!same && bsl_post_of(&p, M, A, k, 0)) { /* a collinear set: a chain never keeps one */
            rc = bsl_fail(err, BASEL_ENUMERIC, "draw %zu: its model's atoms are collinear", i + 1);
            break;
        }
        const double s2 = isfinite(p.df) ? p.df * p.scale2[0] / gsl_ran_chisq(r, p.df) : p.scale2[0];
        const double sd = sqrt(s2);
        /* beta = location + sigma L_V xi, L_V L_V' = V */
        if (!same && k && bsl_chol_factor(&L, p.V, k, k)) {
            rc = bsl_fail(err, BASEL_ENUMERIC, "draw %zu: its model's posterior covariance is not positive", i + 1);
            break;
        }
        for (size_t a = 0; a < k + q; a++) xi[a] = gsl_ran_gaussian_ziggurat(r, 1.0);
        for (size_t a = 0; a < k; a++) {
            double t = 0;
            for (size_t b = 0; b <= a; b++) t += L.L[a + b * L.cap] * xi[b];
            beta[a] = p.beta[a] + sd * t;
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
        /* the original scale, as bsl_post_terms: the intercept of the
         * original inputs, an always-in input gamma_l / sc, an atom beta
         * (/ sc for a linear atom, an input) */
        double b0 = gam[0];
        for (size_t l = 1; l < q; l++) b0 -= gam[l] * P->x_mean[l - 1] / P->x_scale[l - 1];
        for (size_t a = 0; a < k; a++) {
            const double f = linear ? 1 / P->x_scale[A[a]] : 1.0;
            if (linear) b0 -= beta[a] * P->x_mean[A[a]] * f;
            vr->draw_coef[a0 + a] = beta[a] * f * ys;
        }
        fx[0] = s2 * ys * ys;
        fx[1] = b0 * ys;
        for (size_t l = 1; l < q; l++) fx[1 + l] = gam[l] / P->x_scale[l - 1] * ys;
        /* the residuals P y - P B_A beta - sigma Q xi_q, in the rescaled
         * units (the log-likelihood of the target's: - log ys per row) */
        for (size_t t = 0; t < n; t++) {
            double v = D->Y[t];
            for (size_t l = 0; l < q; l++) v -= sd * D->Q[t + l * n] * xq[l];
            e[t] = v;
        }
        for (size_t a = 0; a < k; a++) {
            const double *c = cols ? cols + A[a] * n : pb->cols ? bsl_colstore_get(pb->cols, A[a]) : NULL;
            if (cols && !have[A[a]]) {
                bsl_design_column(D, A[a], cols + A[a] * n);
                have[A[a]] = 1;
            } else if (!c) {
                bsl_design_column(D, A[a], col);
                c = col;
            }
            for (size_t t = 0; t < n; t++) e[t] -= c[t] * beta[a];
        }
        const double c0 = -0.5 * (log2pi + log(s2)) - log(ys);
        double ll = 0;
        for (size_t t = 0; t < n; t++) {
            const double lt = c0 - 0.5 * e[t] * e[t] / s2;
            if (vr->draw_loglik) vr->draw_loglik[i * n + t] = lt;
            ll += lt;
        }
        fx[q + 1] = ll;
    }
    if (!rc && pointwise) vr->nloglik = n;
    if (rc == BASEL_ENOMEM) bsl_fail(err, rc, "out of memory");
    if (rc) { /* no columns rather than some */
        for (size_t v = 0; vr->draw_value_names && v < vr->ndraw_q + vr->m + 2; v++) free(vr->draw_value_names[v]);
        free(vr->draw_value_names);
        free(vr->draw_fixed);
        free(vr->draw_coef);
        free(vr->draw_loglik);
        vr->draw_value_names = NULL;
        vr->draw_fixed = vr->draw_coef = vr->draw_loglik = NULL;
        vr->ndraw_q = vr->nloglik = 0;
    }
    bsl_model_free(M);
    bsl_post_free(&p);
    bsl_chol_free(&L);
    gsl_rng_free(r);
    free(xi);
    free(gam);
    free(beta);
    free(e);
    free(col);
    free(cols);
    free(have);
    return rc;
}
