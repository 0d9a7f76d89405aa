/*
 * subset_post.c: the closed-form posterior of one subset model, and the
 * summaries the subset engines build from it over every visited model.
 *
 * Given model M (atoms A, k of them) and sigma^2, the projected atom
 * coefficients are Gaussian with mean beta and covariance sigma^2 V;
 * integrating sigma^2 makes them Student-t (location beta, scale^2
 * scale2 V, df degrees of freedom), with N = n - q and rss = yy - quad
 * (model.h):
 *   g       V = s A^{-1} (s = g/(1+g)), df = 2 a0 + N,
 *           scale2 = (b0 + (yy - s quad)/2) / (a0 + N/2): sigma^2 ~ IG(a0, b0)
 *           a priori; with Jeffreys' (a0 = b0 = 0) scale2 = (yy - s quad)/N
 *           and df = N, BAS's MSE_M with fit$df = n - 1, as its
 *           predict(se.fit = TRUE) uses;
 *   hier    V = A_tau^{-1}, df = 2a + N, scale2 = (b + rss/2)/(a + N/2);
 *   aic, bic, mdl (flat prior) V = A^{-1}, df = N - k, scale2 = rss/(N - k)
 *           (BAS's BIC/AIC: fit$df = n - 1 - k);
 *   ridge   (sigma^2 given) V = A_tau^{-1}, Gaussian, scale2 = sigma^2.
 * The always-in coefficients gamma = gy - gB_A' beta (design.h) have
 * covariance scale2 ((Z'Z)^{-1} + gB_A' V gB_A) and cross-covariance
 * -scale2 gB_A' V with beta. A coefficient's posterior over models is then a
 * mixture of t's and a point mass at 0 (the models without it), whose
 * quantiles come from its CDF (tmix.c).
 */
#include "subset_post.h"
#include "coef_table.h"
#include "../../problem/problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bsl_post_init(bsl_post *p, size_t kmax, size_t c)
{
    memset(p, 0, sizeof *p);
    p->c = c;
    p->beta = bsl_malloc(kmax * c + 1, sizeof *p->beta);
    p->V = bsl_malloc(kmax * kmax + 1, sizeof *p->V);
    p->scale2 = bsl_malloc(c + 1, sizeof *p->scale2);
    p->quad = bsl_malloc(c + 1, sizeof *p->quad);
    const int bad = !p->beta || !p->V || !p->scale2 || !p->quad || bsl_chol_init(&p->chol, kmax + 1);
    return bad ? BASEL_ENOMEM : BASEL_OK;
}

void bsl_post_free(bsl_post *p)
{
    free(p->beta);
    free(p->V);
    free(p->scale2);
    free(p->quad);
    bsl_chol_free(&p->chol);
    memset(p, 0, sizeof *p);
}

/* M holds exactly atoms[0..k), freshly factorised (no drift from the
 * updates that got it there). */
static int set_model(bsl_model *M, const size_t *atoms, size_t k)
{
    while (M->k) bsl_model_remove(M, M->active[M->k - 1]);
    for (size_t i = 0; i < k; i++)
        if (bsl_model_add(M, atoms[i])) return BASEL_ENUMERIC;
    return k ? bsl_model_refactor(M) : BASEL_OK;
}

/* A_tau^{-1} (into p->V), A_tau^{-1} b (into p->beta) and quad from the
 * dense Gram block: O(k^3), against the O(k^3) per removed atom of
 * unwinding an incremental model. */
static int dense_solve(bsl_post *p, const bsl_design *D, const bsl_coef_prior *pr, const size_t *atoms, size_t k)
{
    const size_t c = D->c, m = D->m;
    const double tau = bsl_coef_tau(pr);
    double *A = p->V;
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < k; i++) A[i + j * k] = D->G[atoms[i] + atoms[j] * m] + (i == j ? tau : 0.0);
    if (k && (bsl_chol_factor(&p->chol, A, k, k) || bsl_inv_from_chol(&p->chol, A, k))) return BASEL_ENUMERIC;
    for (size_t o = 0; o < c; o++) {
        double q = 0;
        for (size_t i = 0; i < k; i++) {
            double t = 0;
            for (size_t j = 0; j < k; j++) t += A[i + j * k] * D->Bty[atoms[j] * c + o];
            p->beta[i * c + o] = t;
            q += D->Bty[atoms[i] * c + o] * t;
        }
        p->quad[o] = q;
    }
    return BASEL_OK;
}

int bsl_post_of(bsl_post *p, bsl_model *M, const size_t *atoms, size_t k, int bas_sd)
{
    const bsl_coef_prior *pr = &M->prior;
    const bsl_design *D = M->D;
    const size_t c = M->c, ld = M->kmax + 1;
    const double N = (double)(D->n - D->q), kk = (double)k;
    double s;
    p->k = k;
    if (D->G) {
        if (dense_solve(p, D, pr, atoms, k)) return BASEL_ENUMERIC;
        s = pr->type->shrink(pr, pr->g, N, k, D->yy[0], p->quad[0]);
        for (size_t i = 0; i < k * c; i++) p->beta[i] *= s;
        for (size_t i = 0; i < k * k; i++) p->V[i] *= s;
    } else {
        if (set_model(M, atoms, k)) return BASEL_ENUMERIC;
        bsl_model_coef_mean(M, p->beta);
        s = pr->type->shrink(pr, pr->g, N, k, D->yy[0], M->quad[0]);
        for (size_t j = 0; j < k; j++)
            for (size_t i = 0; i < k; i++) p->V[i + j * k] = s * M->Ainv[i + j * ld];
        memcpy(p->quad, M->quad, c * sizeof *p->quad);
    }
    p->shrink = s;
    p->df = pr->type->post_df(pr, N, kk);
    for (size_t o = 0; o < c; o++) {
        const double yy = D->yy[o];
        p->scale2[o] = pr->type->post_scale2(pr, N, p->df, yy, p->quad[o], s);
        /* BAS's coef(): sd_M^2 = s RSS_M/(n-1-k) diag((X'X)^{-1}) */
        if (bas_sd) p->scale2[o] = bsl_post_bas_scale2(yy, p->quad[o], N, kk);
    }
    return BASEL_OK;
}

double bsl_subset_log_ml(bsl_model *M, const size_t *atoms, size_t k)
{
    return set_model(M, atoms, k) ? -INFINITY : M->log_ml;
}

/* ------------------------------------------------------ coefficient table */

/* x' V x for the k x k V. */
static double v_quad(const double *V, size_t k, const double *x)
{
    double h = 0;
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++) h += x[a] * V[a + b * k] * x[b];
    return h;
}

void bsl_post_terms(bsl_coef_comps *cp, size_t o, size_t nterm, const bsl_design *D, const bsl_post *p,
                    const size_t *A, double w, const double *mu, const double *sc, int linear,
                    double *u, double *x, double *t)
{
    const size_t q = D->q, c = D->c, k = p->k, base = o * nterm;
    const double s2 = p->scale2[o];
    double gam[64];
    for (size_t l = 0; l < q && l < 64; l++) {
        gam[l] = D->gy[l * c + o];
        for (size_t a = 0; a < k; a++) gam[l] -= p->beta[a * c + o] * D->gB[A[a] * q + l];
    }
    /* the intercept of the original inputs: gamma_0 - sum_l gamma_l mu/sc -
     * (linear atoms) sum_a beta_a mu/sc; w = gB_A u_gamma - u_beta */
    bsl_post_intercept_u(q, mu, sc, u);
    double mean0 = 0;
    for (size_t l = 0; l < q; l++) mean0 += u[l] * gam[l];
    for (size_t a = 0; a < k; a++) {
        const double ub = bsl_post_atom_shift(linear, mu, sc, A[a]);
        mean0 += ub * p->beta[a * c + o];
        x[a] = -ub;
        for (size_t l = 0; l < q; l++) x[a] += D->gB[A[a] * q + l] * u[l];
    }
    bsl_coef_comps_push(cp, base, w, mean0, s2 * (bsl_tri_quad(D->R, q, 1, u, t) + v_quad(p->V, k, x)), p->df);
    for (size_t l = 1; l < q; l++) { /* an always-in input: gamma_l / sc */
        memset(u, 0, q * sizeof *u);
        u[l] = 1;
        for (size_t a = 0; a < k; a++) x[a] = D->gB[A[a] * q + l];
        const double f = 1 / sc[l - 1];
        const double var = s2 * f * f * (bsl_tri_quad(D->R, q, 1, u, t) + v_quad(p->V, k, x));
        bsl_coef_comps_push(cp, base + l, w, gam[l] * f, var, p->df);
    }
    for (size_t a = 0; a < k; a++) {
        const double f = linear ? 1 / sc[A[a]] : 1.0;
        bsl_coef_comps_push(cp, base + q + A[a], w, p->beta[a * c + o] * f, s2 * f * f * p->V[a + a * k], p->df);
    }
}

/* collect's models over the dense Gram (coef_shared.c) */
static int shared(bsl_coef_comps *cp, const bsl_vs_problem *pb, const bsl_problem *P, const bsl_vs_result *vr,
                  int linear, int bas_sd)
{
    const bsl_design *D = pb->D;
    const size_t K = vr->models.n;
    const size_t **atoms = bsl_malloc(K + 1, sizeof *atoms);
    size_t *ks = bsl_malloc(K + 1, sizeof *ks);
    double *wt = bsl_malloc(K + 1, sizeof *wt);
    int rc = atoms && ks && wt ? BASEL_OK : BASEL_ENOMEM;
    for (size_t i = 0; i < K && !rc; i++) {
        atoms[i] = bsl_modelset_atoms(&vr->models, i);
        ks[i] = vr->models.items[i].k;
        wt[i] = vr->models.items[i].weight;
    }
    const bsl_coef_gram gm = {D->G, D->m, D->Bty, NULL, D->m, bsl_coef_tau(&pb->prior), &pb->prior,
                              (double)(D->n - D->q), D->yy, bas_sd, D, pb->cols};
    if (!rc)
        rc = bsl_coef_comps_shared(cp, D->q + D->m, D, &gm, K, (const size_t *const *)atoms, ks, wt, P->x_mean,
                                   P->x_scale, linear);
    free((void *)atoms);
    free(ks);
    free(wt);
    return rc;
}

/* Every visited model's components (weights renormalised per term later). */
static int collect(bsl_coef_comps *cp, const bsl_vs_problem *pb, const bsl_problem *P, const bsl_dict *dict,
                   const bsl_vs_result *vr, int bas_sd, basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t q = D->q, c = D->c, m = D->m, nterm = q + m, K = vr->models.n;
    const int linear = dict->kind == BSL_BASIS_LINEAR;
    bsl_model *M = NULL;
    bsl_post p = {0};
    double *u = bsl_malloc(q + 1, sizeof *u), *t = bsl_malloc(q + 1, sizeof *t);
    double *x = bsl_malloc(pb->kmax + 1, sizeof *x);
    for (size_t o = 0; o < c; o++)
        for (size_t j = 0; j < nterm; j++) cp->off[o * nterm + j] = j < q ? K : 0;
    for (size_t i = 0; i < K; i++) {
        const size_t *A = bsl_modelset_atoms(&vr->models, i);
        for (size_t a = 0; a < vr->models.items[i].k; a++)
            for (size_t o = 0; o < c; o++) cp->off[o * nterm + q + A[a]]++;
    }
    int rc = !u || !t || !x ? BASEL_ENOMEM : bsl_coef_comps_alloc(cp);
    if (!rc && !D->base) { /* the models share their common prefixes */
        const int st = shared(cp, pb, P, vr, linear, bas_sd);
        if (st != BASEL_EINVAL) { /* else (65536 atoms or more, long streamed columns) model by model */
            rc = st;
            goto done;
        }
    }
    if (!rc) rc = bsl_post_init(&p, pb->kmax, c);
    if (!rc) rc = bsl_model_create(&M, D, &pb->prior, pb->kmax, err);
    if (!rc) bsl_model_use_columns(M, pb->cols);
    for (size_t i = 0; i < K && !rc; i++) {
        const size_t *A = bsl_modelset_atoms(&vr->models, i);
        if (bsl_post_of(&p, M, A, vr->models.items[i].k, bas_sd)) continue; /* never visited */
        for (size_t o = 0; o < c; o++)
            bsl_post_terms(cp, o, nterm, D, &p, A, vr->models.items[i].weight, P->x_mean, P->x_scale, linear, u, x,
                           t);
    }
done:
    bsl_model_free(M);
    bsl_post_free(&p);
    free(u);
    free(t);
    free(x);
    return rc == BASEL_ENOMEM ? bsl_fail(err, rc, "out of memory") : rc;
}

json_t *bsl_subset_coefficients(const bsl_vs_problem *pb, const bsl_problem *P, const bsl_dict *dict,
                                const bsl_vs_result *vr, const char *const *atom_names, double level,
                                int bas_sd, basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t q = D->q, c = D->c, m = D->m, nterm = q + m;
    if (q > 64) {
        bsl_fail(err, BASEL_ERANGE, "too many always-in columns for the coefficient table");
        return NULL;
    }
    bsl_coef_comps cp;
    json_t *out = NULL, *terms = NULL;
    int rc = bsl_coef_comps_init(&cp, c * nterm) ? bsl_fail(err, BASEL_ENOMEM, "out of memory")
                                                 : collect(&cp, pb, P, dict, vr, bas_sd, err);
    if (rc) goto done;
    terms = json_array();
    int bad = !terms;
    for (size_t o = 0; o < c && !bad; o++)
        for (size_t j = 0; j < nterm && !bad; j++) {
            const char *name = j == 0 ? "(Intercept)" : j < q ? P->input_names[j - 1] : atom_names[j - q];
            const double pip = j < q ? 1.0 : fmin(fmax(vr->pip[j - q], 0.0), 1.0);
            bsl_json_push(terms, bsl_coef_comps_row(&cp, o * nterm + j, pip, level, bas_sd, name, NULL,
                                                    P->target_names[o], j < q),
                          &bad);
        }
    if (bad) {
        json_decref(terms);
        bsl_fail(err, BASEL_ENOMEM, "out of memory");
        goto done;
    }
    double W = 0;
    for (size_t i = 0; i < vr->models.n; i++) W += vr->models.items[i].weight;
    const double total = bsl_modelset_total(&vr->models);
    out = bsl_coef_table_json(level, vr->models.n, total > 0 ? W / total : 0.0, terms, pb->prior.type->within_model);
    if (!out) bsl_fail(err, BASEL_ENOMEM, "out of memory");
done:
    bsl_coef_comps_free(&cp);
    return out;
}

/* ------------------------------------------------ the predictive mixture */

/* all but this fraction of the visited weight is kept for predictions */
#define POST_MASS_LEFT 1e-6
/* at most this many distinct atoms (their Gram block is stored: 256^2
 * numbers, about 1.6 MB of JSON) and this many atom entries over the kept
 * models (about 2 MB): a posterior spread wider than that (kernel
 * dictionaries sampled by MCMC) keeps less than all of its mass, and says
 * how much ("covered") */
#define POST_MAX_ATOMS 256
#define POST_MAX_ENTRIES ((size_t)1 << 19)

static json_t *prior_numbers(const bsl_coef_prior *p)
{
    return p->type->to_json(p);
}

/* The block's references to its shared integers (the models keep theirs). */
static void drop_ints(json_t **ints, size_t m)
{
    for (size_t j = 0; ints && j < m; j++) json_decref(ints[j]);
    free(ints);
}

json_t *bsl_subset_posterior_block(const bsl_vs_problem *pb, const bsl_vs_result *vr, basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t m = D->m, c = D->c, n = D->n;
    const double total = bsl_modelset_total(&vr->models);
    long *local = bsl_malloc(m + 1, sizeof *local);
    size_t *uni = bsl_malloc(m + 1, sizeof *uni), nu = 0, K = 0, entries = 0;
    json_t *blk = json_object(), *models = json_array(), *weights = json_array();
    /* one integer per atom, shared by the models' lists: the models are the
     * block's bulk, and their number grows with the run (to --max-models) */
    json_t **ints = bsl_calloc(m + 1, sizeof *ints);
    double *G = NULL, *col = NULL, *cols = NULL, kept = 0;
    if (!local || !uni || !ints || !blk || !models || !weights) goto fail;
    int bad = 0;
    for (size_t j = 0; j < m; j++) local[j] = -1;
    for (size_t i = 0; i < vr->models.n && kept < (1 - POST_MASS_LEFT) * total; i++) {
        const size_t *A = bsl_modelset_atoms(&vr->models, i), k = vr->models.items[i].k;
        size_t fresh = 0;
        for (size_t a = 0; a < k; a++) fresh += local[A[a]] < 0;
        if (nu + fresh > POST_MAX_ATOMS) continue; /* later models may use the atoms already kept */
        if ((entries += k) > POST_MAX_ENTRIES) break;
        for (size_t a = 0; a < k; a++)
            if (local[A[a]] < 0) {
                local[A[a]] = (long)nu;
                uni[nu++] = A[a];
            }
        bsl_json_push(models, bsl_json_sizes_shared(A, k, ints), &bad);
        bsl_json_push(weights, json_real(vr->models.items[i].weight / total), &bad);
        kept += vr->models.items[i].weight;
        K++;
    }
    /* the projected Gram block of the kept atoms, and their B'y */
    G = bsl_malloc(nu * nu + 1, sizeof *G);
    if (!G) goto fail;
    if (D->G) {
        for (size_t b = 0; b < nu; b++)
            for (size_t a = 0; a < nu; a++) G[a + b * nu] = D->G[uni[a] + uni[b] * m];
    } else {
        col = bsl_malloc(n, sizeof *col);
        cols = bsl_malloc(n * nu + 1, sizeof *cols);
        if (!col || !cols) goto fail;
        for (size_t a = 0; a < nu; a++) {
            const double *sc = bsl_colstore_get(pb->cols, uni[a]);
            if (sc) memcpy(cols + a * n, sc, n * sizeof *cols);
            else bsl_design_column(D, uni[a], cols + a * n);
        }
        /* each product as the coefficient table sums it (coef_shared.c),
         * and remembered for it; the diagonal the design's, as there */
        for (size_t b = 0; b < nu; b++) {
            G[b + b * nu] = D->diag[uni[b]];
            for (size_t a = b + 1; a < nu; a++) {
                double s;
                if (!bsl_colstore_pair_find(pb->cols, uni[a], uni[b], 0, &s)) {
                    s = bsl_dot(cols + a * n, cols + b * n, n);
                    bsl_colstore_pair_put(pb->cols, uni[a], uni[b], 0, s);
                }
                G[a + b * nu] = G[b + a * nu] = s;
            }
        }
    }
    double *bty = bsl_malloc(nu * c + 1, sizeof *bty);
    if (!bty) goto fail;
    for (size_t a = 0; a < nu; a++) memcpy(bty + a * c, D->Bty + uni[a] * c, c * sizeof *bty);
    bsl_json_put(blk, "prior", prior_numbers(&pb->prior), &bad);
    bsl_json_put(blk, "n", json_integer((json_int_t)n), &bad);
    bsl_json_put(blk, "atoms", bsl_json_sizes(uni, nu), &bad);
    bsl_json_put(blk, "gram", bsl_json_doubles(G, nu * nu), &bad);
    bsl_json_put(blk, "bty", bsl_json_doubles(bty, nu * c), &bad);
    bsl_json_put(blk, "yy", bsl_json_doubles(D->yy, c), &bad);
    bsl_json_put(blk, "models", models, &bad);
    bsl_json_put(blk, "weights", weights, &bad);
    bsl_json_put(blk, "covered", json_real(total > 0 ? fmin(kept / total, 1.0) : 0.0), &bad);
    free(bty);
    if (bad) {
        json_decref(blk);
        blk = NULL;
        bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    free(local);
    free(uni);
    drop_ints(ints, m);
    free(G);
    free(col);
    free(cols);
    (void)K;
    return blk;
fail:
    free(local);
    free(uni);
    drop_ints(ints, m);
    free(G);
    free(col);
    free(cols);
    json_decref(blk);
    json_decref(models);
    json_decref(weights);
    bsl_fail(err, BASEL_ENOMEM, "out of memory");
    return NULL;
}
