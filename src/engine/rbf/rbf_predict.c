/*
 * rbf_predict.c: predictions of a fitted free-centre RBF network
 * (rbf_result.h). Each kept network gives a Student-t predictive
 * t_dof(d(x)'coef, scale2 (1 + s h)), h = |L^{-1} d(x)|^2 the leverage; the
 * mean averages the networks (one for anneal) and the interval is the
 * central level-quantile pair of the equal-weight mixture, found by
 * bisection on its CDF (exact for one network).
 */
#include "rbf_result.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* design row of draw dr at the point x (column-major, stride ldx) */
static void design_row(const bsl_rbf_result *r, bsl_dict *dict, const rbf_draw *dr,
                       const double *x, size_t ldx, double *row)
{
    size_t p = 0;
    row[p++] = 1.0;
    if (r->linear_term)
        for (size_t a = 0; a < r->d; a++) row[p++] = x[a * ldx];
    for (size_t j = 0; j < dr->k; j++) {
        memcpy(dict->centres, dr->centres + j * r->d, r->d * sizeof(double));
        bsl_dict_eval(dict, 0, x, 1, ldx, &row[p++]);
    }
}

/* h = |L^{-1} row|^2, L packed column-major lower (m x m); row is overwritten */
static double leverage(const double *lpk, size_t m, double *row)
{
    double h = 0;
    size_t col_start = 0;
    for (size_t j = 0; j < m; j++) { /* column-oriented forward substitution */
        const double zj = row[j] / lpk[col_start];
        h += zj * zj;
        for (size_t i = j + 1; i < m; i++) row[i] -= lpk[col_start + (i - j)] * zj;
        col_start += m - j;
    }
    return h;
}

/* quantile p of the mixture of t_dof(mu_s, sc_s), s < ns */
static double mixture_quantile(const double *mu, const double *sc, const double *dof, size_t ns,
                               double p)
{
    if (ns == 1) return mu[0] + sc[0] * gsl_cdf_tdist_Pinv(p, dof[0]);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t s = 0; s < ns; s++) {
        lo = fmin(lo, mu[s] + sc[s] * gsl_cdf_tdist_Pinv(p, dof[s]));
        hi = fmax(hi, mu[s] + sc[s] * gsl_cdf_tdist_Pinv(p, dof[s]));
    }
    for (int it = 0; it < 60 && hi - lo > 1e-12 * (1 + fabs(lo)); it++) {
        const double mid = 0.5 * (lo + hi);
        double f = 0;
        for (size_t s = 0; s < ns; s++) f += gsl_cdf_tdist_P((mid - mu[s]) / sc[s], dof[s]);
        if (f / (double)ns < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

int bsl_rbf_predict(const bsl_rbf_result *r, const double *X, size_t n, double level,
                    double *mean, double *lower, double *upper, double *sd, double *sdf)
{
    if ((lower || upper) && !(level > 0 && level < 1)) return BASEL_EINVAL;
    if (!r || r->ndraws == 0) return BASEL_EINVAL;
    const size_t ns = r->ndraws, c = r->c, cap = r->q + r->kmax;
    double *row = bsl_malloc(2 * cap, sizeof(double));
    double *mu = bsl_malloc(ns * c, sizeof(double)), *sc = bsl_malloc(ns * c, sizeof(double));
    double *dof = bsl_malloc(ns, sizeof(double)), *scf = bsl_malloc(ns * c, sizeof(double));
    bsl_dict *dict = NULL;
    int rc = BASEL_ENOMEM;
    if (!row || !mu || !sc || !dof || !scf ||
        bsl_dict_make(&dict, (bsl_basis_kind)r->radial, r->d, 1, r->width, r->lo, 0, 0, 0))
        goto done;
    for (size_t i = 0; i < n; i++) {
        for (size_t s = 0; s < ns; s++) {
            const rbf_draw *dr = &r->draws[s];
            const size_t m = r->q + dr->k;
            dict->width = dr->width > 0 ? dr->width : r->width; /* sampled widths: the draw's own */
            design_row(r, dict, dr, X + i, n, row);
            for (size_t o = 0; o < c; o++) {
                double v = 0;
                for (size_t t = 0; t < m; t++) v += row[t] * dr->coef[t * c + o];
                mu[o * ns + s] = v;
            }
            const double h = leverage(dr->lpk, m, row);
            for (size_t o = 0; o < c; o++) {
                sc[o * ns + s] = sqrt(dr->scale2[o] * (1 + dr->shrink[o] * h));
                scf[o * ns + s] = sqrt(dr->scale2[o] * dr->shrink[o] * h); /* f(x) alone: no noise */
            }
            dof[s] = dr->dof;
        }
        for (size_t o = 0; o < c; o++) {
            double avg = 0;
            for (size_t s = 0; s < ns; s++) avg += mu[o * ns + s] / (double)ns;
            mean[o * n + i] = avg;
            if (lower)
                lower[o * n + i] = mixture_quantile(mu + o * ns, sc + o * ns, dof, ns, 0.5 - 0.5 * level);
            if (upper)
                upper[o * n + i] = mixture_quantile(mu + o * ns, sc + o * ns, dof, ns, 0.5 + 0.5 * level);
            if (sd && sdf) { /* the networks weigh alike */
                double v = 0, vf = 0;
                for (size_t s = 0; s < ns; s++) {
                    const double tf = isinf(dof[s]) ? 1 : dof[s] > 2 ? dof[s] / (dof[s] - 2) : INFINITY;
                    const double dm = mu[o * ns + s] - avg, a = sc[o * ns + s], b = scf[o * ns + s];
                    v += (a * a * tf + dm * dm) / (double)ns;
                    vf += (b * b * tf + dm * dm) / (double)ns;
                }
                sd[o * n + i] = sqrt(v);
                sdf[o * n + i] = sqrt(vf);
            }
        }
    }
    rc = BASEL_OK;
done:
    bsl_dict_free(dict);
    free(row);
    free(mu);
    free(sc);
    free(dof);
    free(scf);
    return rc;
}
