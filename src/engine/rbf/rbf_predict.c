/*
 * rbf_predict.c: predictions of a fitted free-centre RBF network
 * (rbf_result.h). Each kept network gives a Student-t predictive
 * t_dof(d(x)'coef, scale2 (1 + s h)), h = |L^{-1} d(x)|^2 the leverage; the
 * mean averages the networks (one for anneal) and the interval is the
 * central level-quantile pair of the equal-weight mixture (tmix.c, as the
 * subset engines' intervals: safeguarded Newton on the mixture's CDF, to
 * 1e-13 of its spread; every row mixes the same networks with the same
 * weights and dof, so the rows share one plan and one CDF table per dof).
 */
#include "rbf_result.h"
#include "../../summary/tmix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rows are predicted in blocks: for each network, the design rows of a
 * block's points and their leverages are computed together, the points
 * innermost (contiguous, so the loops vectorise), each point's operations
 * the same, in the same order, as one point's alone. */
#define ROWS 16

/* The design of draw dr at the nb points X (column-major, leading
 * dimension ldx): column t of the design in B[t * nb .. t * nb + nb). */
static void design_block(const bsl_rbf_result *r, bsl_dict *dict, const rbf_draw *dr, const double *X, size_t ldx,
                         size_t nb, double *B)
{
    size_t p = 0;
    for (size_t i = 0; i < nb; i++) B[i] = 1.0;
    p++;
    if (r->linear_term)
        for (size_t a = 0; a < r->d; a++, p++)
            for (size_t i = 0; i < nb; i++) B[p * nb + i] = X[a * ldx + i];
    for (size_t j = 0; j < dr->k; j++, p++) {
        memcpy(dict->centres, dr->centres + j * r->d, r->d * sizeof(double));
        bsl_dict_eval(dict, 0, X, nb, ldx, B + p * nb);
    }
}

/* h[i] = |L^{-1} b_i|^2 for the nb design rows b_i in B (as design_block
 * lays them out; B is overwritten), L packed column-major lower (m x m):
 * column-oriented forward substitution. */
static void leverage_block(const double *lpk, size_t m, size_t nb, double *B, double *h)
{
    for (size_t i = 0; i < nb; i++) h[i] = 0;
    size_t col_start = 0;
    for (size_t j = 0; j < m; j++) {
        const double ljj = lpk[col_start];
        double *zj = B + j * nb;
        for (size_t i = 0; i < nb; i++) {
            zj[i] /= ljj;
            h[i] += zj[i] * zj[i];
        }
        for (size_t t = j + 1; t < m; t++) {
            const double l = lpk[col_start + (t - j)];
            double *bt = B + t * nb;
            for (size_t i = 0; i < nb; i++) bt[i] -= l * zj[i];
        }
        col_start += m - j;
    }
}

int bsl_rbf_predict(const bsl_rbf_result *r, const double *X, size_t n, double level,
                    double *mean, double *lower, double *upper, double *sd, double *sdf)
{
    if ((lower || upper) && !(level > 0 && level < 1)) return BASEL_EINVAL;
    if (!r || r->ndraws == 0) return BASEL_EINVAL;
    const size_t ns = r->ndraws, c = r->c, cap = r->q + r->kmax;
    /* a block's design (cap x ROWS) and leverages; each of its rows'
     * locations and scales over the networks, row i's output o at
     * ((i c + o) ns ..) */
    double *B = bsl_malloc(cap * ROWS, sizeof(double)), *h = bsl_malloc(ROWS, sizeof(double));
    double *mu = bsl_malloc(ROWS * ns * c, sizeof(double)), *sc = bsl_malloc(ROWS * ns * c, sizeof(double));
    double *dof = bsl_malloc(ns, sizeof(double)), *scf = bsl_malloc(ROWS * ns * c, sizeof(double));
    double *w = bsl_malloc(ns, sizeof(double));
    bsl_dict *dict = NULL;
    bsl_tmix_ws ws = {0};
    bsl_tmix_ws_fixed(&ws); /* the same networks, weights and dof at every row */
    int rc = BASEL_ENOMEM;
    if (!B || !h || !mu || !sc || !dof || !scf || !w ||
        bsl_dict_make(&dict, (bsl_basis_kind)r->radial, r->d, 1, r->width, r->lo, 0, 0, 0))
        goto done;
    for (size_t s = 0; s < ns; s++) {
        w[s] = 1.0 / (double)ns; /* the networks weigh alike */
        dof[s] = r->draws[s].dof;
    }
    for (size_t i0 = 0; i0 < n; i0 += ROWS) {
        const size_t nb = n - i0 < ROWS ? n - i0 : ROWS;
        for (size_t s = 0; s < ns; s++) {
            const rbf_draw *dr = &r->draws[s];
            const size_t m = r->q + dr->k;
            dict->width = dr->width > 0 ? dr->width : r->width; /* sampled widths: the draw's own */
            design_block(r, dict, dr, X + i0, n, nb, B);
            for (size_t o = 0; o < c; o++)
                for (size_t i = 0; i < nb; i++) {
                    double v = 0;
                    for (size_t t = 0; t < m; t++) v += B[t * nb + i] * dr->coef[t * c + o];
                    mu[(i * c + o) * ns + s] = v;
                }
            leverage_block(dr->lpk, m, nb, B, h);
            for (size_t i = 0; i < nb; i++)
                for (size_t o = 0; o < c; o++) {
                    sc[(i * c + o) * ns + s] = sqrt(dr->scale2[o] * (1 + dr->shrink[o] * h[i]));
                    scf[(i * c + o) * ns + s] = sqrt(dr->scale2[o] * dr->shrink[o] * h[i]); /* f(x) alone */
                }
        }
        for (size_t i = 0; i < nb; i++)
            for (size_t o = 0; o < c; o++) {
                const double *mo = mu + (i * c + o) * ns, *so = sc + (i * c + o) * ns, *fo = scf + (i * c + o) * ns;
                const size_t at = o * n + i0 + i;
                double avg = 0;
                for (size_t s = 0; s < ns; s++) avg += mo[s] / (double)ns;
                mean[at] = avg;
                if (lower || upper) {
                    const bsl_tmix t = {w, mo, so, dof, ns, 0};
                    const double pq[2] = {0.5 - 0.5 * level, 0.5 + 0.5 * level};
                    double q[2];
                    bsl_tmix_quantiles(&t, pq, 2, q, &ws);
                    if (ws.oom) goto done;
                    if (lower) lower[at] = q[0];
                    if (upper) upper[at] = q[1];
                }
                if (sd && sdf) { /* the networks weigh alike */
                    double v = 0, vf = 0;
                    for (size_t s = 0; s < ns; s++) {
                        const double tf = isinf(dof[s]) ? 1 : dof[s] > 2 ? dof[s] / (dof[s] - 2) : INFINITY;
                        const double dm = mo[s] - avg, a = so[s], b = fo[s];
                        v += (a * a * tf + dm * dm) / (double)ns;
                        vf += (b * b * tf + dm * dm) / (double)ns;
                    }
                    sd[at] = sqrt(v);
                    sdf[at] = sqrt(vf);
                }
            }
    }
    rc = BASEL_OK;
done:
    bsl_tmix_ws_free(&ws);
    free(w);
    bsl_dict_free(dict);
    free(B);
    free(h);
    free(mu);
    free(sc);
    free(dof);
    free(scf);
    return rc;
}
