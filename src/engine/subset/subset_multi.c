/*
 * subset_multi.c: what a multinomial fit (--family multinomial; model/
 * glm_multi.h) writes and how it predicts.
 *
 * The result is over the (C - 1) m joint atoms (c - 1) m + j, named
 * "level:input" (level c's subset holds input j), so that FIT.json's pip,
 * size posterior (of K = sum_c |A_c|), listed models and selected models
 * keep their meaning; the inputs' PIPs, P(input j in some A_c), are the
 * extra key "input_pip" (docs/FIT.md), the levels are "classes" (the first
 * is the reference class).
 *
 * Predictions. rj's model average ("bma") is the exact posterior predictive
 * by Monte Carlo: the chains keep MULTI_PRED_DRAWS draws of (A, theta)
 * (rj_multinomial.c), written as the predictor's "draws", and P(y = c | x)
 * is the mean of softmax(0, eta(x; A, theta))_c over them. The single
 * models (hpm, median, prevalence) and enumerate's average use Laplace
 * approximations: each joint model M's posterior of theta is approximated by
 * its Laplace approximation N(mode, H^-1) (bsl_glm_multi_laplace); at x the
 * C - 1 linear predictors are then eta ~ N(mu, S), mu_c = z_c'mode_c,
 * S = V'V with V = L^-1 G (G: d x (C - 1), column c holding z_c = (1, x_{A_c})
 * in class c's block), and P(y = c | x, M) = E[softmax(0, eta)_c] is a
 * (C - 1)-dimensional Gaussian integral, done by a product Gauss-Hermite
 * rule on eta = mu + sqrt(2) L_S t (L_S the Cholesky factor of S) with
 * MULTI_GH(C - 1) nodes per dimension (32, 16, 8, 5, 4, 3, then 1: the
 * plug-in at mu for more than 8 classes besides the reference). The models
 * are weighted by their visit frequencies, the most visited up to
 * BSL_MULTI_COVER of the mass and at most BSL_MULTI_MAX_MODELS of them
 * (renormalised; the mass covered is recorded), as subset_glm.c does for
 * the binomial model: the weights are the sampler's, the within-model
 * Laplace approximation and the truncation are the prediction's
 * approximations. The coefficient table (subset_multi_coef.c) averages
 * those Laplace approximations over the same models, for rj as well.
 */
#include "subset.h"
#include "subset_post.h"
#include "../engine.h"
#include "../../basis/basis.h"
#include "../../core/jsonutil.h"
#include "../../problem/problem.h"
#include "../../model/glm.h"
#include "../../model/glm_multi.h"

#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BSL_MULTI_COVER 0.999
#define BSL_MULTI_MAX_MODELS 500

/* Nodes per dimension of the product rule for nc linear predictors:
 * at most about 4096 points per row and model. */
static size_t multi_gh(size_t nc)
{
    static const size_t q[] = {1, 32, 16, 8, 5, 4, 3, 3, 3};
    return nc < sizeof q / sizeof *q ? q[nc] : 1;
}

/* ------------------------------------------------------------ the fit */

static void sort_sizes(size_t *a, size_t k)
{
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
            const size_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* One joint model's Laplace approximation as {atoms, weight, mode, factor}. */
static json_t *laplace_json(const bsl_multi_data *md, const size_t *atoms_in, size_t K, double weight)
{
    const size_t d = K + md->C - 1;
    size_t *atoms = bsl_malloc(K + 1, sizeof *atoms);
    double *theta = bsl_calloc(d, sizeof *theta), *L = bsl_malloc(d * d, sizeof *L), lj;
    json_t *o = NULL;
    if (atoms && theta && L) {
        if (K) memcpy(atoms, atoms_in, K * sizeof *atoms);
        sort_sizes(atoms, K);
        /* start: intercepts at the log odds of the class frequencies */
        double cnt[256] = {0};
        for (size_t i = 0; i < md->n; i++) cnt[(size_t)md->cls[i] % 256]++;
        for (size_t c = 1, z = 0, a = 0; c < md->C; c++) {
            theta[z++] = log(fmax(cnt[c % 256], 0.5) / fmax(cnt[0], 0.5));
            for (; a < K && atoms[a] / md->m == c - 1; a++) z++;
        }
        if (!bsl_glm_multi_laplace(md, atoms, K, theta, L, &lj)) o = bsl_glm_predictor_json(atoms, K, weight, theta, L, d);
    }
    free(atoms);
    free(theta);
    free(L);
    return o;
}

static json_t *single(const bsl_multi_data *md, const size_t *atoms, size_t K)
{
    json_t *o = json_object(), *list = json_array();
    int bad = !o || !list;
    bsl_json_push(list, laplace_json(md, atoms, K, 1.0), &bad);
    bsl_json_put(o, "covered", bsl_json_real(1.0), &bad);
    bsl_json_put(o, "models", list, &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

static json_t *average(const bsl_multi_data *md, const bsl_vs_result *vr)
{
    const bsl_modelset *s = &vr->models;
    const double total = bsl_modelset_total(s);
    json_t *o = json_object(), *list = json_array();
    int bad = !o || !list;
    double covered = 0;
    for (size_t i = 0; i < s->n && i < BSL_MULTI_MAX_MODELS && covered < BSL_MULTI_COVER && !bad; i++) {
        const double w = total > 0 ? s->items[i].weight / total : 0;
        if (!(w > 0)) break;
        bsl_json_push(list, laplace_json(md, bsl_modelset_atoms(s, i), s->items[i].k, w), &bad);
        covered += w;
    }
    bsl_json_put(o, "covered", bsl_json_real(covered), &bad);
    bsl_json_put(o, "models", list, &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

/* rj's model average: {covered: 1, draws: [{atoms, theta}]} */
static json_t *draws_json(const bsl_vs_result *vr)
{
    json_t *o = json_object(), *list = json_array();
    int bad = !o || !list;
    for (size_t i = 0; i < vr->ncoef_draws && !bad; i++) {
        const size_t a0 = vr->coef_draw_start[i], K = vr->coef_draw_start[i + 1] - a0;
        json_t *d = json_object();
        bad = !d;
        bsl_json_put(d, "atoms", bsl_json_sizes(vr->coef_draw_atoms + a0, K), &bad);
        bsl_json_put(d, "theta", bsl_json_doubles(vr->coef_draw_theta + a0 + i * vr->coef_draw_extra, K + vr->coef_draw_extra), &bad);
        bsl_json_push(list, d, &bad);
    }
    bsl_json_put(o, "covered", bsl_json_real(1.0), &bad);
    bsl_json_put(o, "draws", list, &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

/* The engine block; *avg the Laplace model average (average()), which
 * enumerate's bma block is and from which the coefficient table is made
 * for rj too (subset_multi_coef.c), a new reference (NULL on failure). */
static json_t *engine_block(const bsl_vs_problem *pb, const bsl_dict *dict, const bsl_design *D,
                            const bsl_vs_result *vr, const bsl_result *res, json_t **avg)
{
    const size_t n = D->n, m = D->m, J = vr->m;
    double *X = bsl_malloc(n * m + 1, sizeof *X), *y = bsl_malloc(n, sizeof *y);
    size_t *med = bsl_malloc(J + 1, sizeof *med), *prev = bsl_malloc(J + 1, sizeof *prev);
    json_t *eng = json_object(), *pred = json_object();
    int bad = !X || !y || !med || !prev || !eng || !pred;
    if (!bad) {
        for (size_t j = 0; j < m; j++) bsl_design_raw_column(D, j, X + j * n);
        bsl_glm_design_y(D, y);
        const bsl_multi_data md = {X, y, n, m, pb->nclass, 1.0 / (pb->prior.intercept_sd * pb->prior.intercept_sd),
                                   1.0 / (pb->prior.sd * pb->prior.sd)};
        const size_t nmed = bsl_select_median(vr->pip, J, med);
        const size_t nprev = bsl_select_prevalence(vr->pip, J, vr->size_prob, vr->kmax, prev);
        *avg = average(&md, vr);
        bad = !*avg;
        if (!bad) bsl_json_put(pred, "bma", vr->ncoef_draws ? draws_json(vr) : json_incref(*avg), &bad);
        bsl_json_put(pred, "hpm", single(&md, res->hpm.atoms, res->hpm.k), &bad);
        bsl_json_put(pred, "median", single(&md, med, nmed), &bad);
        bsl_json_put(pred, "prevalence", single(&md, prev, nprev), &bad);
    } else {
        json_decref(pred);
    }
    if (eng) {
        bsl_json_put(eng, "family", json_string("multinomial"), &bad);
        bsl_json_put(eng, "basis", bsl_subset_basis_json(dict, D), &bad);
        if (pred && !bad) bsl_json_put(eng, "predictor", pred, &bad);
    }
    free(X);
    free(y);
    free(med);
    free(prev);
    if (bad) json_decref(eng);
    return bad ? NULL : eng;
}

/* "classes", "reference_class" and "input_pip" {inputs, pip, pip_chain}. */
static int extras(bsl_result *res, const bsl_problem *P, const bsl_vs_result *vr)
{
    json_t *cl = json_array(), *ip = json_object(), *names = json_array();
    int bad = !cl || !ip || !names || !(res->extra = json_object());
    for (size_t k = 0; k < P->nclass && !bad; k++) bsl_json_push(cl, json_string(P->class_names[k]), &bad);
    for (size_t j = 0; j < vr->d_inputs && !bad; j++) bsl_json_push(names, json_string(P->input_names[j]), &bad);
    bsl_json_put(ip, "inputs", names, &bad);
    bsl_json_put(ip, "pip", bsl_json_doubles(vr->input_pip, vr->d_inputs), &bad);
    if (vr->input_pip_chain) /* a sampler's */
        bsl_json_put(ip, "pip_chain", bsl_json_doubles(vr->input_pip_chain, vr->chains * vr->d_inputs), &bad);
    if (res->extra) {
        bsl_json_put(res->extra, "classes", cl, &bad);
        bsl_json_put(res->extra, "reference_class", json_string(P->class_names[0]), &bad);
        bsl_json_put(res->extra, "input_pip", ip, &bad);
    } else {
        json_decref(cl);
        json_decref(ip);
    }
    return bad;
}

int bsl_subset_multi_result(const bsl_vs_problem *pb, const bsl_problem *P, const bsl_dict *dict,
                            const bsl_design *D, const bsl_vs_result *vr, size_t top, const char *coef_spec,
                            bsl_result *res, basel_error *err)
{
    const size_t J = vr->m, m = D->m;
    if (bsl_result_init(res, J, 1)) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t a = 0; a < J; a++) {
        char in[96], name[200];
        bsl_dict_atom_name(dict, a % m, (const char *const *)P->input_names, in, sizeof in);
        snprintf(name, sizeof name, "%s:%s", P->class_names[a / m + 1], in);
        if (!(res->atom_names[a] = bsl_strdup(name))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    memcpy(res->pip, vr->pip, J * sizeof *res->pip);
    res->kmax = vr->kmax;
    res->has_selected = 1;
    const size_t ntop = BSL_MIN(top, vr->models.n);
    const double total = bsl_modelset_total(&vr->models);
    if (!(res->size_prob = bsl_malloc(vr->kmax + 1, sizeof *res->size_prob)) ||
        !(res->models = bsl_calloc(ntop + 1, sizeof *res->models)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    memcpy(res->size_prob, vr->size_prob, (vr->kmax + 1) * sizeof *res->size_prob);
    for (size_t i = 0; i < ntop; i++, res->nmodels++) { /* rj: visit frequencies; enumerate: probabilities */
        const bsl_subset *s = &vr->models.items[i];
        bsl_result_model *rm = &res->models[i];
        if (!(rm->atoms = bsl_malloc(s->k + 1, sizeof *rm->atoms))) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        if (s->k) memcpy(rm->atoms, bsl_modelset_atoms(&vr->models, i), s->k * sizeof *rm->atoms);
        rm->k = s->k;
        rm->prob = total > 0 ? s->weight / total : s->weight;
        rm->log_post = s->log_post; /* rj: NaN, its scores condition on the latent variables */
    }
    /* the highest-probability model: the first (rj: the most visited, having no exact score) */
    res->hpm.k = vr->models.n ? vr->models.items[0].k : 0;
    if (!(res->hpm.atoms = bsl_malloc(res->hpm.k + 1, sizeof *res->hpm.atoms)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (res->hpm.k) memcpy(res->hpm.atoms, bsl_modelset_atoms(&vr->models, 0), res->hpm.k * sizeof *res->hpm.atoms);
    if (!(res->prior = bsl_subset_prior_json(pb, coef_spec)) || bsl_subset_diagnostics(res, vr) ||
        extras(res, P, vr))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    int bad = 0;
    bsl_json_put(res->prior, "classes",
                 json_string("one subset of inputs per class besides the reference, independent a priori, each "
                             "under the model prior"),
                 &bad);
    json_t *avg = NULL;
    if (bad || !(res->engine = engine_block(pb, dict, D, vr, res, &avg))) {
        json_decref(avg);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory, or a model's Laplace approximation failed");
    }
    /* the coefficient table from the joint models' Laplace approximations */
    json_t *coef = bsl_subset_multi_coefficients(P, vr, avg, (const char *const *)res->atom_names, 0.95, err);
    json_decref(avg);
    if (!coef) return err && err->code ? err->code : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    bsl_json_put(res->extra, "coefficients", coef, &bad); /* takes coef, also on failure */
    return bad ? bsl_fail(err, BASEL_ENOMEM, "out of memory") : BASEL_OK;
}

/* ------------------------------------------------------------ predictions */

/* E[softmax(0, eta)] for eta ~ N(mu, S) (nc = C - 1) into p (C), by the
 * product rule of gh (nodes and weights for exp(-t^2)); work: nc (nc + 3). */
static void expected_softmax(const double *mu, double *S, size_t nc, const gsl_integration_fixed_workspace *gh,
                             size_t q, double *p, double *work)
{
    const size_t C = nc + 1;
    double *Ls = work, *eta = Ls + nc * nc, *idx = eta + nc;
    for (size_t j = 0; j < nc; j++) /* Cholesky of S (jittered by rounding's worth if singular) */
        for (size_t i = j; i < nc; i++) {
            double v = S[i + j * nc];
            for (size_t l = 0; l < j; l++) v -= Ls[i + l * nc] * Ls[j + l * nc];
            Ls[i + j * nc] = i == j ? sqrt(fmax(v, 0)) : Ls[j + j * nc] > 0 ? v / Ls[j + j * nc] : 0;
        }
    memset(p, 0, C * sizeof *p);
    size_t npts = 1;
    for (size_t c = 0; c < nc; c++) npts *= q;
    for (size_t s = 0; s < npts; s++) {
        double w = 1;
        for (size_t c = 0, r = s; c < nc; c++, r /= q) {
            idx[c] = q == 1 ? 0 : gh->x[r % q];
            w *= q == 1 ? 1 : gh->weights[r % q] / sqrt(M_PI);
        }
        double mx = 0;
        for (size_t c = 0; c < nc; c++) {
            double e = mu[c];
            for (size_t l = 0; l <= c; l++) e += M_SQRT2 * Ls[c + l * nc] * idx[l];
            eta[c] = e;
            mx = fmax(mx, e);
        }
        double t = exp(-mx);
        for (size_t c = 0; c < nc; c++) t += exp(eta[c] - mx);
        p[0] += w * exp(-mx) / t;
        for (size_t c = 0; c < nc; c++) p[c + 1] += w * exp(eta[c] - mx) / t;
    }
}

static int read_atoms(const json_t *a, size_t *out, size_t k, size_t J)
{
    for (size_t i = 0; i < k; i++) {
        const json_t *x = json_array_get(a, i);
        if (!json_is_integer(x) || json_integer_value(x) < 0 || (size_t)json_integer_value(x) >= J) return -1;
        out[i] = (size_t)json_integer_value(x);
        if (i && out[i] <= out[i - 1]) return -1; /* sorted, distinct: the layout of mode */
    }
    return 0;
}

/* The mean of softmax over the block's draws (draws_json). */
static int draws_probs(const json_t *list, const double *B, size_t n, size_t m, size_t C, double *prob)
{
    const size_t nc = C - 1, J = nc * m, nd = json_array_size(list);
    size_t *atoms = bsl_malloc(J + 1, sizeof *atoms);
    double *th = bsl_malloc(J + nc, sizeof *th), *eta = bsl_malloc(nc, sizeof *eta);
    int rc = atoms && th && eta && nd ? 0 : !nd ? -1 : -2;
    memset(prob, 0, n * C * sizeof *prob);
    for (size_t s = 0; s < nd && !rc; s++) {
        const json_t *o = json_array_get(list, s), *at = json_object_get(o, "atoms");
        const size_t K = json_array_size(at);
        if (K > J || read_atoms(at, atoms, K, J) || bsl_json_read_doubles(json_object_get(o, "theta"), th, K + nc)) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            for (size_t c = 0, z = 0, a = 0; c < nc; c++) { /* class c: its intercept, then its atoms */
                double e = th[z++];
                for (; a < K && atoms[a] / m == c; a++) e += th[z++] * B[(atoms[a] % m) * n + i];
                eta[c] = e;
            }
            double mx = 0, t;
            for (size_t c = 0; c < nc; c++) mx = fmax(mx, eta[c]);
            t = exp(-mx);
            for (size_t c = 0; c < nc; c++) t += exp(eta[c] - mx);
            prob[i * C] += exp(-mx) / t / (double)nd;
            for (size_t c = 0; c < nc; c++) prob[i * C + c + 1] += exp(eta[c] - mx) / t / (double)nd;
        }
    }
    free(atoms), free(th), free(eta);
    return rc;
}

int bsl_subset_multi_probs(const json_t *blk, const double *B, size_t n, size_t m, size_t C, double *prob)
{
    if (json_object_get(blk, "draws")) return draws_probs(json_object_get(blk, "draws"), B, n, m, C, prob);
    const size_t nc = C - 1, J = nc * m, dmax = J + nc, q = multi_gh(nc);
    const json_t *list = json_object_get(blk, "models");
    const size_t nm = json_array_size(list);
    double *mode = bsl_malloc(dmax, sizeof *mode), *L = bsl_malloc(dmax * dmax, sizeof *L);
    double *V = bsl_malloc(dmax * nc, sizeof *V), *S = bsl_malloc(nc * nc, sizeof *S), *mu = bsl_malloc(nc, sizeof *mu);
    double *p = bsl_malloc(C, sizeof *p), *work = bsl_malloc(nc * (nc + 3), sizeof *work);
    size_t *atoms = bsl_malloc(J + 1, sizeof *atoms), *cls = bsl_malloc(dmax, sizeof *cls);
    gsl_integration_fixed_workspace *gh =
        q > 1 ? gsl_integration_fixed_alloc(gsl_integration_fixed_hermite, q, 0, 1, 0, 0) : NULL;
    int rc = mode && L && V && S && mu && p && work && atoms && cls && (q == 1 || gh) ? 0 : -2;
    double W = 0;
    memset(prob, 0, n * C * sizeof *prob);
    for (size_t s = 0; s < nm && !rc; s++) {
        const json_t *o = json_array_get(list, s), *at = json_object_get(o, "atoms");
        const size_t K = json_array_size(at), d = K + nc;
        const double w = json_number_value(json_object_get(o, "weight"));
        if (K > J || read_atoms(at, atoms, K, J) || bsl_json_read_doubles(json_object_get(o, "mode"), mode, d) ||
            bsl_json_read_doubles(json_object_get(o, "factor"), L, d * d) || !(w >= 0)) {
            rc = -1;
            break;
        }
        for (size_t c = 0, z = 0, a = 0; c < nc; c++) /* each coefficient's class; atoms' inputs via atoms[] */
            for (cls[z++] = c; a < K && atoms[a] / m == c; a++) cls[z++] = c;
        for (size_t i = 0; i < n; i++) {
            memset(V, 0, d * nc * sizeof *V);
            memset(mu, 0, nc * sizeof *mu);
            for (size_t z = 0, a = 0; z < d; z++) { /* G's column cls[z]: 1 for an intercept, else x */
                const int icpt = z == 0 || cls[z] != cls[z - 1];
                const double v = icpt ? 1.0 : B[(atoms[a++] % m) * n + i];
                V[z + cls[z] * d] = v;
                mu[cls[z]] += v * mode[z];
            }
            for (size_t c = 0; c < nc; c++) { /* V = L^-1 G, L lower */
                double *g = V + c * d;
                for (size_t z = 0; z < d; z++) {
                    double u = g[z];
                    for (size_t l = 0; l < z; l++) u -= L[z + l * d] * g[l];
                    g[z] = u / L[z + z * d];
                }
            }
            for (size_t c = 0; c < nc; c++)
                for (size_t e = 0; e < nc; e++) {
                    double v = 0;
                    for (size_t z = 0; z < d; z++) v += V[z + c * d] * V[z + e * d];
                    S[c + e * nc] = v;
                }
            expected_softmax(mu, S, nc, gh, q, p, work);
            for (size_t c = 0; c < C; c++) prob[i * C + c] += w * p[c];
        }
        W += w;
    }
    if (!rc && !(W > 0)) rc = -1;
    for (size_t i = 0; i < n * C && !rc; i++) prob[i] /= W;
    if (gh) gsl_integration_fixed_free(gh);
    free(mode), free(L), free(V), free(S), free(mu), free(p), free(work), free(atoms), free(cls);
    return rc;
}
