/*
 * subset.c: fits by the subset engines (enumerate, bd, rj, ssvs) into the
 * engine contract's result (engine.h).
 *
 * Besides the summaries DESIGN.md requires (atoms, pip, model_size,
 * selected), the engine block carries a "predictor" for every model a user can
 * predict with: each is a single model refitted exactly (posterior mean of
 * its coefficients, the always-in coefficients, sigma^2 and the matrix V
 * with Var(f(x)) = sigma^2 x~' V x~), plus the model average: its mean from
 * the Rao-Blackwellised coefficient averages over ALL visited models, and
 * its intervals from the Student-t mixture over the visited models
 * (bma.posterior: enough to refit each model exactly at predict time;
 * subset_post.c). The coefficient table ("coefficients") and the listed
 * models' marginal likelihoods come from the same closed forms.
 */
#include "subset.h"
#include "subset_post.h"
#include "subset_project.h"
#include "../engine.h"
#include "../../problem/problem.h"
#include "../../core/jsonutil.h"
#include "../../model/glm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* bma, then the single models of summary.h's bsl_selections */
const char *const bsl_subset_models[] = {"bma", "hpm", "median", "prevalence", "projection", NULL};

/* The single-model predictor of subset atoms[0..k) (see file comment). */
static json_t *model_predictor(const bsl_vs_problem *pb, const size_t *atoms, size_t k,
                               double weight, basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t c = D->c, q = D->q;
    bsl_model *M;
    if (bsl_model_create(&M, D, &pb->prior, k, err)) return NULL;
    for (size_t i = 0; i < k; i++) bsl_model_add(M, atoms[i]);
    double *beta = bsl_calloc(k * c + 1, sizeof *beta), *gam = bsl_calloc(q * c, sizeof *gam);
    json_t *o = json_object();
    int bad = !beta || !gam || !o;
    if (bad) goto out;
    bsl_model_coef_mean(M, beta);
    for (size_t l = 0; l < q; l++)
        for (size_t t = 0; t < c; t++) {
            double g = D->gy[l * c + t];
            for (size_t i = 0; i < M->k; i++) g -= beta[i * c + t] * D->gB[M->active[i] * q + l];
            gam[l * c + t] = g;
        }
    const double shrink = pb->prior.type->shrink(&pb->prior, pb->prior.g, (double)(D->n - D->q), M->k, D->yy[0],
                                                 M->quad[0]);
    json_t *V = json_array(), *s2 = json_array();
    for (size_t j = 0; j < M->k; j++)
        for (size_t i = 0; i < M->k; i++)
            bsl_json_push(V, bsl_json_real(shrink * M->Ainv[i + j * (k + 1)]), &bad);
    for (size_t t = 0; t < c; t++) bsl_json_push(s2, bsl_json_real(bsl_model_sigma2(M, t)), &bad);
    /* the Student-t predictive: scale^2 scale2 (1 + x~' V x~ + ...), df */
    bsl_post post = {0};
    size_t *act = bsl_malloc(M->k + 1, sizeof *act);
    if (act) memcpy(act, M->active, M->k * sizeof *act);
    else bad = 1;
    int prc = act ? bsl_post_init(&post, k, c) : BASEL_ENOMEM;
    if (!prc) prc = bsl_post_of(&post, M, act, M->k, 0);
    if (prc == BASEL_ENOMEM) bad = 1;
    if (!prc) {
        bsl_json_put(o, "scale2", bsl_json_doubles(post.scale2, c), &bad);
        if (isfinite(post.df)) bsl_json_put(o, "df", bsl_json_real(post.df), &bad);
    }
    bsl_post_free(&post);
    free(act);
    bsl_json_put(o, "atoms", bsl_json_sizes(M->active, M->k), &bad);
    bsl_json_put(o, "coef", bsl_json_doubles(beta, M->k * c), &bad);
    bsl_json_put(o, "always_in", bsl_json_doubles(gam, q * c), &bad);
    bsl_json_put(o, "sigma2", s2, &bad);
    bsl_json_put(o, "V", V, &bad);
    bsl_json_put(o, "weight", bsl_json_real(weight), &bad);
out:
    free(beta);
    free(gam);
    bsl_model_free(M);
    if (bad) json_decref(o);
    return bad ? NULL : o; /* NULL when out of memory, as every builder here */
}

int bsl_subset_centres(const json_t *doc, double **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    const json_t *b = json_object_get(json_object_get(doc, "engine"), "basis"), *c = json_object_get(b, "centres");
    const char *kind = json_string_value(json_object_get(b, "kind"));
    const int k = kind ? bsl_basis_kind_from_name(kind) : -1;
    const size_t d = json_array_size(json_object_get(doc, "inputs")), m = json_array_size(json_object_get(doc, "atoms"));
    /* the atoms are the kernels (with --basis ...:linear the linear terms
     * are always in, not atoms); subset_check.c holds the shapes */
    if (k < 0 || !bsl_basis_is_radial((bsl_basis_kind)k) || m == 0) return BASEL_OK;
    const int rc = bsl_json_doubles_new(c, m * d, out);
    if (rc == BASEL_ENOMEM) return rc;
    *count = *out ? m : 0;
    return BASEL_OK;
}

static json_t *basis_json(const bsl_dict *dict, const bsl_design *D)
{
    json_t *b = json_object();
    int bad = 0;
    bsl_json_put(b, "kind", json_string(bsl_basis_name(dict->kind)), &bad);
    bsl_json_put(b, "d", json_integer((json_int_t)dict->d), &bad);
    bsl_json_put(b, "m", json_integer((json_int_t)dict->m), &bad);
    bsl_json_put(b, "width", bsl_json_real(dict->width), &bad);
    bsl_json_put(b, "lo", bsl_json_real(dict->lo), &bad);
    bsl_json_put(b, "hi", bsl_json_real(dict->hi), &bad);
    bsl_json_put(b, "linear_term", json_boolean(dict->linear_term), &bad);
    if (dict->centres) bsl_json_put(b, "centres", bsl_json_doubles(dict->centres, dict->m * dict->d), &bad);
    /* a multi-scale dictionary: each atom's own width (basis.h) */
    if (dict->widths) bsl_json_put(b, "widths", bsl_json_doubles(dict->widths, dict->m), &bad);
    /* the inputs' relevance factors in the kernels' distance (bd --relevance) */
    if (dict->input_scale) bsl_json_put(b, "input_scale", bsl_json_doubles(dict->input_scale, dict->d), &bad);
    bsl_json_put(b, "always_in_coef", bsl_json_doubles(D->gB, D->m * D->q), &bad);
    /* (Z'Z)^{-1} = R^{-1} R^{-T}: the always-in columns' contribution to
     * predictive variance */
    bsl_json_put(b, "R", bsl_json_doubles(D->R, D->q * D->q), &bad);
    bsl_json_put(b, "always_in_y", bsl_json_doubles(D->gy, D->q * D->c), &bad);
    if (bad) json_decref(b);
    return bad ? NULL : b;
}

/* The highest-probability model among those visited: the largest log
 * posterior (exact, from the collapsed marginal), not the largest visit
 * weight, which would carry Monte Carlo noise. */
static size_t hpm_index(const bsl_modelset *s)
{
    size_t best = 0;
    for (size_t i = 1; i < s->n; i++) {
        const double a = s->items[i].log_post, b = s->items[best].log_post;
        if (a > b || (isnan(b) && !isnan(a))) best = i;
    }
    return best;
}

/* Which way the design gave cross products (design.c gram_dense): "dense"
 * (one Gram matrix) or "streamed" (columns, cached by atom per chain). */
static int put_gram(json_t *dg, const bsl_design *D)
{
    int bad = 0;
    bsl_json_put(dg, "gram", json_string(D->G ? "dense" : "streamed"), &bad);
    /* problem.c compact_inputs; in blocks, as their processes hold them (fit/blocks.c) */
    const char *inputs = D->blocks ? D->blocks->inputs : D->X2 ? "2-bit" : D->X8 ? "int8" : D->X32 ? "float32" : NULL;
    if (inputs) bsl_json_put(dg, "inputs", json_string(inputs), &bad);
    return bad;
}

/* Sampler diagnostics into res (warnings included). */
static int add_diagnostics(bsl_result *r, const bsl_vs_result *vr)
{
    json_t *dg = r->diagnostics;
    int bad = 0;
    bsl_json_put(dg, "note", json_string(vr->engine_note), &bad);
    bsl_json_put(dg, "evaluations", bsl_json_real(vr->evaluations), &bad);
    if (!isnan(vr->rhat_size)) bsl_json_put(dg, "rhat_size", bsl_json_rhat(vr->rhat_size), &bad);
    if (isfinite(vr->ess_size)) bsl_json_put(dg, "ess_size", bsl_json_real(vr->ess_size), &bad);
    if (isfinite(vr->ess_tail_size)) bsl_json_put(dg, "ess_tail_size", bsl_json_real(vr->ess_tail_size), &bad);
    if (vr->rhat_pip) bsl_json_put(dg, "rhat_pip", bsl_json_rhats(vr->rhat_pip, vr->m), &bad);
    if (vr->ess_pip) bsl_json_put(dg, "ess_pip", bsl_json_doubles(vr->ess_pip, vr->m), &bad);
    if (vr->ess_tail_pip) bsl_json_put(dg, "ess_tail_pip", bsl_json_doubles(vr->ess_tail_pip, vr->m), &bad);
    if (vr->pip_chain) bsl_json_put(dg, "pip_chain", bsl_json_doubles(vr->pip_chain, vr->chains * vr->m), &bad);
    bsl_json_put(dg, "visited_models", json_integer((json_int_t)vr->models.n), &bad);
    bsl_json_put(dg, "unstored_model_weight", bsl_json_real(vr->models.dropped_weight), &bad);
    if (bad) return BASEL_ENOMEM;
    if (vr->rhat_pip) { /* an MCMC run: the rule of summary.h (bsl_conv_warnings) */
        char w[BSL_CONV_MAX_WARNINGS][BSL_CONV_WARNING_LEN];
        const bsl_conv_check cc = {.m = vr->m, .pip = vr->pip, .rhat_pip = vr->rhat_pip,
                                   .ess_pip = vr->ess_pip, .ess_tail_pip = vr->ess_tail_pip,
                                   .names = (const char *const *)r->atom_names,
                                   .size = {vr->rhat_size, vr->ess_size, vr->ess_tail_size},
                                   .chains = vr->chains, .draws = vr->diag_draws,
                                   .moves_proposed = vr->moves_proposed, .moves_accepted = vr->moves_accepted};
        const size_t nw = bsl_conv_warnings(&cc, "run longer (--iter) or with more chains (--chains)", w);
        for (size_t i = 0; i < nw; i++)
            if (bsl_result_warn(r, w[i])) return BASEL_ENOMEM;
    }
    if (vr->kmax < vr->m && vr->size_prob[vr->kmax] > 0.001)
        return bsl_result_warn(r, "the size posterior reaches kmax: raise --kmax");
    return BASEL_OK;
}

/* Each listed model's log marginal likelihood and the null model's (item 8
 * of issue 13: Bayes factors), refitted in closed form. */
/* The columns of the groups atoms[0..k) (gstart: group offsets, NULL =
 * every atom its own column) into cols; returns their number. */
static size_t expand_atoms(const size_t *gstart, const size_t *atoms, size_t k, size_t *cols)
{
    if (!gstart) {
        if (k) memcpy(cols, atoms, k * sizeof *cols);
        return k;
    }
    size_t n = 0;
    for (size_t i = 0; i < k; i++)
        for (size_t j = gstart[atoms[i]]; j < gstart[atoms[i] + 1]; j++) cols[n++] = j;
    return n;
}

static int add_log_ml(bsl_result *res, const bsl_vs_problem *pb, const size_t *gstart)
{
    bsl_model *M = NULL;
    size_t *cols = bsl_malloc(pb->D->m + 1, sizeof *cols);
    if (!cols || !(res->log_ml = bsl_malloc(res->nmodels + 1, sizeof *res->log_ml))) {
        free(cols);
        return BASEL_ENOMEM;
    }
    if (bsl_model_create(&M, pb->D, &pb->prior, pb->kmax, NULL)) {
        free(cols);
        return BASEL_ENOMEM;
    }
    bsl_model_use_columns(M, pb->cols);
    for (size_t i = 0; i < res->nmodels; i++)
        res->log_ml[i] = bsl_subset_log_ml(M, cols, expand_atoms(gstart, res->models[i].atoms, res->models[i].k, cols));
    res->null_log_ml = bsl_subset_log_ml(M, NULL, 0);
    bsl_model_free(M);
    free(cols);
    return BASEL_OK;
}

/* The atoms' names, PIPs, size posterior and top models into res (with
 * their marginal likelihoods when with_ml). */
static int fill_summaries(bsl_result *res, const bsl_dict *dict, const bsl_problem *P,
                          const bsl_vs_result *vr, size_t top, const bsl_vs_problem *pb, int with_ml)
{
    const size_t m = vr->m;
    if (bsl_result_init(res, m, 1)) return BASEL_ENOMEM;
    for (size_t j = 0; j < m; j++) {
        char name[96];
        if (P->group_start) /* grouped: an atom is an input, a factor's atom all its levels */
            snprintf(name, sizeof name, "%s", P->group_names[j]);
        else
            bsl_dict_atom_name(dict, j, (const char *const *)P->input_names, name, sizeof name);
        if (!(res->atom_names[j] = bsl_strdup(name))) return BASEL_ENOMEM;
    }
    memcpy(res->pip, vr->pip, m * sizeof *res->pip);
    res->kmax = vr->kmax;
    if (!(res->size_prob = bsl_malloc(vr->kmax + 1, sizeof *res->size_prob))) return BASEL_ENOMEM;
    memcpy(res->size_prob, vr->size_prob, (vr->kmax + 1) * sizeof *res->size_prob);
    res->has_selected = 1;
    const size_t ntop = BSL_MIN(top, vr->models.n);
    /* rj and ssvs weigh models by visit counts, bd and enumerate by
     * probability: listed as probabilities (total 1, unstored weight
     * included) */
    const double total = bsl_modelset_total(&vr->models);
    if (!(res->models = bsl_calloc(ntop + 1, sizeof *res->models))) return BASEL_ENOMEM;
    for (size_t i = 0; i < ntop; i++, res->nmodels++) {
        const bsl_subset *s = &vr->models.items[i];
        bsl_result_model *rm = &res->models[i];
        if (!(rm->atoms = bsl_malloc(s->k + 1, sizeof *rm->atoms))) return BASEL_ENOMEM;
        if (s->k) memcpy(rm->atoms, bsl_modelset_atoms(&vr->models, i), s->k * sizeof *rm->atoms);
        rm->k = s->k;
        rm->prob = fabs(total - 1) > 1e-9 && total > 0 ? s->weight / total : s->weight;
        rm->log_post = s->log_post;
    }
    if (with_ml && ntop && add_log_ml(res, pb, P->group_start)) return BASEL_ENOMEM;
    const size_t ih = vr->models.n ? hpm_index(&vr->models) : 0;
    res->hpm.k = vr->models.n ? vr->models.items[ih].k : 0;
    if (!(res->hpm.atoms = bsl_malloc(res->hpm.k + 1, sizeof *res->hpm.atoms))) return BASEL_ENOMEM;
    if (res->hpm.k) memcpy(res->hpm.atoms, bsl_modelset_atoms(&vr->models, ih), res->hpm.k * sizeof *res->hpm.atoms);
    return BASEL_OK;
}

/* CPU seconds of the phases after the sampling, estimated from their
 * sizes (basel.h basel_progress later): per term (one atom of one visited
 * model kept) for the coefficient table's quantiles and the refits, per
 * atom and row for the projection. Measured on one core of the machine of
 * docs/NOTES.md "Progress" (bench_phases, 2026-12-01: the Boston kernel
 * fit, --iter 40000, 80026 models of ~21 atoms, coefficients 1.09 CPU-s,
 * 6.4e-7 a term, posterior 0.04, projection 0.11; rj on lin_p100 2e-7 a
 * term; 7e-6 before the table was computed along shared prefixes), so
 * they give the order, not the value: a caller corrects them by the ratio
 * it sees once a phase ends (cli_progress.c). */
#define COST_COEF_TERM 5.0e-7
#define COST_POST_TERM 4.0e-8
#define COST_PROJ_ENTRY 1.2e-7

typedef struct post_cost {
    double posterior, projection, coefficients;
} post_cost;

/* Atoms over the visited models kept: sum of their sizes. */
static double model_terms(const bsl_vs_result *vr)
{
    double t = 0;
    for (size_t i = 0; i < vr->models.n; i++) t += (double)vr->models.items[i].k;
    return t;
}

static post_cost estimate_cost(double terms, size_t m, size_t n)
{
    return (post_cost){terms * COST_POST_TERM, (double)m * (double)n * COST_PROJ_ENTRY, terms * COST_COEF_TERM};
}

/* The same before the visited models are known, for the sampling's
 * reports: --max-models per chain (all subsets when enumerating), kmax / 2
 * atoms each; an upper side, since a short run or a peaked posterior keeps
 * fewer. */
static double sampling_later(const bsl_params *st, const bsl_run *run, size_t kmax, size_t m, size_t n)
{
    basel_error ignored;
    size_t per_chain = 20000;
    if (bsl_params_size(st, "max-models", 20000, 1, (size_t)1 << 40, &per_chain, &ignored)) per_chain = 20000;
    double models = (double)per_chain * (double)run->chains;
    if (run->iter > 0) models = fmin(models, (double)run->chains * (double)(run->burn + run->iter));
    if (m < 60) models = fmin(models, ldexp(1.0, (int)m)); /* every subset (enumerate) */
    const post_cost c = estimate_cost(models * (double)BSL_MIN(kmax, m) / 2, m, n);
    return c.posterior + c.projection + c.coefficients;
}

/* A phase after the sampling (basel.h basel_progress), reported as it
 * starts and as it ends, with the estimate of the phases after it; those
 * phases run to the end (cancelling would throw away a finished sampling),
 * so the callback's return is not read. */
static void after_sampling(const bsl_progress *pr, const char *phase, const char *unit, double done,
                           double total, double later)
{
    (void)bsl_progress_report_later(pr, phase, unit, done, total, later);
}

/* The engine block: the dictionary and one predictor per model. */
static json_t *engine_block(const bsl_vs_problem *pb, const bsl_dict *dict, const bsl_vs_result *vr,
                            const bsl_vs_result *vg, const size_t *gstart, bsl_result *res, size_t top,
                            double proj_tol, int proj_total, size_t budget, const bsl_progress *pr,
                            const post_cost *cost, basel_error *err)
{
    const size_t m = vr->m, c = vr->c;
    size_t *med = bsl_malloc(m + 1, sizeof *med), *prev = bsl_malloc(m + 1, sizeof *prev);
    size_t *nzat = bsl_malloc(m + 1, sizeof *nzat), *hpm = bsl_malloc(m + 1, sizeof *hpm), nhpm = 0;
    double *nzco = bsl_malloc(m * c + 1, sizeof *nzco);
    json_t *eng = json_object(), *pred = json_object(), *bma = json_object(), *mix = json_array();
    int bad = 0;
    if (!med || !prev || !nzat || !hpm || !nzco || !eng || !pred || !bma || !mix) {
        json_decref(eng);
        json_decref(pred);
        json_decref(bma);
        json_decref(mix);
        eng = NULL;
        goto out;
    }
    /* the selections over the atoms the engine ran on (groups), then as columns */
    size_t nmed = bsl_select_median(vg->pip, vg->m, med);
    size_t nprev = bsl_select_prevalence(vg->pip, vg->m, vg->size_prob, vg->kmax, prev);
    if (gstart) {
        memcpy(nzat, med, nmed * sizeof *nzat);
        nmed = expand_atoms(gstart, nzat, nmed, med);
        memcpy(nzat, prev, nprev * sizeof *nzat);
        nprev = expand_atoms(gstart, nzat, nprev, prev);
    }
    nhpm = expand_atoms(gstart, res->hpm.atoms, res->hpm.k, hpm);
    (void)top;
    const double nmod = (double)BSL_MAX(vr->models.n, 1);
    const double after_post = cost->projection + cost->coefficients;
    after_sampling(pr, "posterior", "models", 0, nmod, after_post);
    json_t *post = bsl_subset_posterior_block(pb, vr, err);
    after_sampling(pr, "posterior", "models", nmod, nmod, after_post);
    if (!post) {
        json_decref(eng);
        json_decref(pred);
        json_decref(bma);
        json_decref(mix);
        eng = NULL;
        goto out;
    }
    json_decref(mix);
    size_t nz = 0;
    for (size_t j = 0; j < m; j++) {
        int any = 0;
        for (size_t o = 0; o < c; o++) any |= vr->coef_bma[j * c + o] != 0.0;
        if (!any) continue;
        nzat[nz] = j;
        memcpy(nzco + nz * c, vr->coef_bma + j * c, c * sizeof *nzco);
        nz++;
    }
    bsl_json_put(bma, "atoms", bsl_json_sizes(nzat, nz), &bad);
    bsl_json_put(bma, "coef", bsl_json_doubles(nzco, nz * c), &bad);
    /* the share of the posterior the model-averaged intervals stand on */
    if (json_object_set(res->diagnostics, "predictive_mass", json_object_get(post, "covered"))) bad = 1;
    bsl_json_put(bma, "posterior", post, &bad);
    bsl_json_put(pred, "bma", bma, &bad);
    bsl_json_put(pred, "hpm", model_predictor(pb, hpm, nhpm, 1.0, err), &bad);
    bsl_json_put(pred, "median", model_predictor(pb, med, nmed, 1.0, err), &bad);
    bsl_json_put(pred, "prevalence", model_predictor(pb, prev, nprev, 1.0, err), &bad);
    /* the smallest forward projection of the average (subset_project.c) */
    after_sampling(pr, "projection", "atoms", 0, (double)m, cost->coefficients);
    bsl_json_put(pred, "projection",
                 bsl_subset_projection(pb, vr, gstart, vg->m, proj_tol, proj_total, budget, &res->projection, err), &bad);
    after_sampling(pr, "projection", "atoms", (double)m, (double)m, cost->coefficients);
    bsl_json_put(eng, "basis", basis_json(dict, pb->D), &bad);
    bsl_json_put(eng, "predictor", pred, &bad);
    if (bad) {
        json_decref(eng);
        eng = NULL;
    }
out:
    free(hpm);
    free(med);
    free(prev);
    free(nzat);
    free(nzco);
    return eng;
}

/* The result over groups (vg) as one over the design's columns (vc): a
 * column's PIP is its group's, each visited model its columns with the
 * same weight and log posterior, and the model-averaged coefficients
 * (which the grouped model does not give per column) recomputed from the
 * visited models: sum_s w_s E[beta | s] / sum_s w_s, the Rao-Blackwellised
 * average the engines form over the same weights (bd: time, rj: visits,
 * enumerate: posterior probabilities). */
static int expand_result(bsl_vs_result *vc, const bsl_vs_result *vg, const bsl_vs_problem *pb, const size_t *gstart)
{
    const size_t m = pb->D->m, c = pb->D->c;
    if (bsl_vs_result_init(vc, m, c, pb->kmax, vg->chains)) return BASEL_ENOMEM;
    for (size_t g = 0; g < vg->m; g++)
        for (size_t j = gstart[g]; j < gstart[g + 1]; j++) vc->pip[j] = vg->pip[g];
    size_t *cols = bsl_malloc(m + 1, sizeof *cols);
    double *beta = bsl_malloc(m * c + 1, sizeof *beta), W = 0;
    bsl_model *M = NULL;
    int rc = cols && beta ? bsl_model_create(&M, pb->D, &pb->prior, pb->kmax, NULL) : BASEL_ENOMEM;
    if (!rc) bsl_model_use_columns(M, pb->cols);
    for (size_t i = 0; i < vg->models.n && !rc; i++) {
        const bsl_subset *s = &vg->models.items[i];
        const size_t k = expand_atoms(gstart, bsl_modelset_atoms(&vg->models, i), s->k, cols);
        if (bsl_modelset_add(&vc->models, cols, k, s->weight, s->log_post)) rc = BASEL_ENOMEM;
        if (rc || !isfinite(bsl_subset_log_ml(M, cols, k))) continue;
        bsl_model_coef_mean(M, beta);
        for (size_t a = 0; a < M->k; a++)
            for (size_t o = 0; o < c; o++) vc->coef_bma[M->active[a] * c + o] += s->weight * beta[a * c + o];
        W += s->weight;
    }
    for (size_t a = 0; a < m * c && W > 0; a++) vc->coef_bma[a] /= W;
    if (!rc) {
        vc->models.dropped_weight = vg->models.dropped_weight;
        bsl_modelset_sort(&vc->models);
    }
    bsl_model_free(M);
    free(cols);
    free(beta);
    return rc;
}

/* kmax: the user's, or min(m, n - q - 1, 200), recorded in the settings. */
static int resolve_kmax(bsl_params *settings, const bsl_vs_problem *pb, size_t *kmax, basel_error *err)
{
    const bsl_design *D = pb->D;
    /* with tau = 0 a model needs fewer atoms than residual degrees of
     * freedom; with a proper prior any size is fine, but more atoms than
     * rows never helps */
    const size_t cap = D->n - D->q - 1;
    /* memory per chain grows like kmax^2 (factor, inverse) and n kmax
     * (streamed columns): the default stops at 200 atoms, far above the
     * sizes these posteriors put mass on; the fit warns if it binds */
    const size_t def = BSL_MIN(BSL_MIN(D->m, cap), 200);
    int rc = bsl_params_size(settings, "kmax", def, 1, (size_t)-1, kmax, err);
    if (rc) return rc;
    if (*kmax > D->m)
        return bsl_fail(err, BASEL_EINVAL, "--kmax %zu is above the number of atoms m = %zu", *kmax, D->m);
    if (*kmax > cap)
        return bsl_fail(err, BASEL_EINVAL, "--kmax %zu leaves no residual degrees of freedom (n = %zu): at most %zu",
                        *kmax, D->n, cap);
    return bsl_params_set_size(settings, "kmax", *kmax);
}

/* Defaults that scale (issue 18 item 6): an engine's default iter is for
 * up to 100 inputs; a sampler that proposes one atom per move (rj) or per
 * birth (bd) then proposes each input fewer times per chain as p grows, so
 * above 100 inputs the default becomes iter x d / 100 (bd at p = 20000:
 * 2 x 10^6 blocks per chain). The engines that scale so call this from
 * their run_length (engine.h); ssvs's iterations are sweeps over every atom
 * and keep theirs. Only a default changes (never the user's --iter), and
 * the value used is recorded in the settings. --max-time bounds the time. */
int bsl_subset_iter_per_input(bsl_params *settings, const bsl_params *user, size_t d, basel_error *err)
{
    if (!bsl_params_get(settings, "iter") || (user && bsl_params_get(user, "iter")) || d <= 100) return BASEL_OK;
    size_t iter;
    int rc = bsl_params_size(settings, "iter", 0, 1, (size_t)1 << 40, &iter, err);
    if (rc) return rc;
    const double scaled = fmin((double)iter * (double)d / 100.0, (double)((size_t)1 << 40));
    return bsl_params_set_size(settings, "iter", (size_t)scaled) ? bsl_fail(err, BASEL_ENOMEM, "out of memory")
                                                                   : BASEL_OK;
}

/* The model evaluations a run of these settings makes, every chain and
 * burn-in included: the engine's evaluations per iteration (engine.h) x
 * chains x (iter + burn); 0 when the engine has no estimate. */
static double expected_evaluations(const bsl_engine_ctx *ctx, size_t m)
{
    const bsl_params *p = ctx->settings;
    basel_error ignored;
    size_t iter = 0, burn, chains = 1;
    if (!ctx->def->evaluations || !bsl_params_get(p, "iter") ||
        bsl_params_size(p, "iter", 0, 1, (size_t)1 << 40, &iter, &ignored))
        return 0;
    if (bsl_params_size(p, "burn", iter / 5, 0, (size_t)1 << 40, &burn, &ignored)) burn = iter / 5;
    if (bsl_params_size(p, "chains", 1, 1, 1024, &chains, &ignored)) chains = 1;
    return (double)chains * (double)(iter + burn) * ctx->def->evaluations(p, m, ctx->P->d);
}

/* The run's lengths from the settings; burn-in defaults to iter / 5, and
 * engines that do not iterate (enumerate) read none of them. */
static int run_settings(bsl_run *run, const bsl_engine_ctx *ctx, basel_error *err)
{
    memset(run, 0, sizeof *run);
    bsl_params *p = ctx->settings;
    int rc = BASEL_OK;
    if (bsl_params_get(p, "iter")) {
        rc = bsl_params_size(p, "iter", 0, 1, (size_t)1 << 40, &run->iter, err);
        if (!rc) rc = bsl_params_size(p, "burn", run->iter / 5, 0, (size_t)1 << 40, &run->burn, err);
        if (!rc) rc = bsl_params_set_size(p, "burn", run->burn);
        if (!rc) rc = bsl_params_size(p, "thin", 1, 1, (size_t)1 << 40, &run->thin, err);
        if (!rc) rc = bsl_params_size(p, "chains", 1, 1, 1024, &run->chains, err);
    } else {
        run->chains = 1;
    }
    if (!rc) rc = bsl_params_size(p, "top", 20, 1, 100000, &run->top, err);
    run->threads = ctx->threads;
    run->params = p;
    run->seed = ctx->seed;
    run->keep_draws = ctx->keep_draws;
    run->stream_draws = ctx->keep_draws; /* a fit's draws go to temporary files, not memory */
    run->progress = ctx->progress;
    run->progress_user = ctx->progress_user;
    run->phases = ctx->phases;
    run->checkpoint = ctx->checkpoint;
    run->restart = ctx->restart;
    run->checkpoint_every = ctx->checkpoint_every;
    run->max_time = ctx->max_time;
    run->ranks = ctx->ranks;
    run->run_id = ctx->run_id;
    return rc;
}

/* ssvs's spike and slab as it ran: tau, c, p, the rule that set the spike
 * and every atom's spike and slab sd (issue: a fit must say which prior
 * ran, not just its name). Its single-model predictors are refitted under
 * the g-prior with g = n, and that is said too. 1 when out of memory. */
/* ssvs's prior as parsed from spec and its spike variances v0 (m, into a
 * block of 2 m + 1 doubles the caller frees; from_ols: which rule set them):
 * 1 when the engine has refused the spec already (nothing to say), -1 when
 * out of memory, 0 done. ssvs_numbers and ssvs_hidden both read them. */
static int ssvs_spike_of(const bsl_vs_problem *pb, const char *spec, bsl_ssvs_prior *sp, double **v0, int *from_ols)
{
    basel_error ignored;
    *v0 = NULL;
    *from_ols = 0;
    if (bsl_ssvs_parse(sp, spec, &ignored)) return 1;
    if (!(*v0 = bsl_malloc(2 * pb->D->m + 1, sizeof **v0)) || bsl_ssvs_spike(sp, pb->D, *v0, from_ols)) {
        free(*v0);
        *v0 = NULL;
        return -1;
    }
    return 0;
}

/* The rule that set the spike, in words (FIT.json spike_rule, the warning). */
static const char *ssvs_spike_rule(const bsl_ssvs_prior *sp, int from_ols)
{
    return sp->tau2 > 0  ? "tau2: the same spike variance for every atom"
           : from_ols ? "tau x the full least-squares standard error (George and McCulloch)"
                      : "tau x sqrt(y'Py / N / b'b) (no full least-squares fit: m >= N - 1)";
}

static int ssvs_numbers(json_t *pr, const bsl_vs_problem *pb, const char *spec)
{
    bsl_ssvs_prior sp;
    double *v0;
    int from_ols, bad = 0;
    const size_t m = pb->D->m;
    const int got = ssvs_spike_of(pb, spec, &sp, &v0, &from_ols);
    if (got) return got < 0;
    double *slab = v0 + m;
    for (size_t j = 0; j < m; j++) {
        slab[j] = sqrt(sp.c * v0[j]);
        v0[j] = sqrt(v0[j]);
    }
    json_t *o = json_object();
    if (!o) {
        free(v0);
        return 1;
    }
    bsl_json_put(o, "tau", bsl_json_real(sp.tau), &bad);
    bsl_json_put(o, "c", bsl_json_real(sp.c), &bad);
    if (sp.p > 0) bsl_json_put(o, "p", bsl_json_real(sp.p), &bad);
    bsl_json_put(o, "scaled", json_boolean(sp.scaled), &bad);
    bsl_json_put(o, "collapsed", json_boolean(sp.collapsed), &bad);
    bsl_json_put(o, "spike_rule", json_string(ssvs_spike_rule(&sp, from_ols)), &bad);
    bsl_json_put(o, "spike_sd", bsl_json_doubles(v0, m), &bad);
    bsl_json_put(o, "slab_sd", bsl_json_doubles(slab, m), &bad);
    bsl_json_put(o, "predictors", json_string("single models refitted under the g-prior with g = n"), &bad);
    bsl_json_put(pr, "spike_and_slab", o, &bad);
    free(v0);
    return bad;
}

/* The warning when ssvs's spike hides effects the data support
 * (bsl_ssvs_hidden, issue 30 item 2): it names them, each with its nearest
 * copy, and the remedy. The sampler is right for the prior; the prior
 * (the spike set by the full fit's standard errors, which near-copies
 * inflate) is what hides them. 1 when out of memory. */
static int ssvs_hidden(bsl_result *res, const bsl_vs_problem *pb, const char *spec)
{
    bsl_ssvs_prior sp;
    double *v0;
    int from_ols;
    const size_t m = pb->D->m;
    const int got = ssvs_spike_of(pb, spec, &sp, &v0, &from_ols);
    if (got) return got < 0;
    double *r = v0 + m;
    size_t *hidden = bsl_malloc(2 * m + 1, sizeof *hidden), *partner = hidden ? hidden + m : NULL;
    int bad = !hidden;
    const size_t nh = bad ? 0 : bsl_ssvs_hidden(&sp, pb->D, v0, hidden, partner, r);
    if (nh) {
        char text[1024];
        size_t len = (size_t)snprintf(text, sizeof text, "ssvs's spike hides ");
        for (size_t i = 0; i < nh && i < 6 && len < sizeof text; i++) {
            const char *sep = i == 0 ? "" : i + 1 == BSL_MIN(nh, 6) && nh <= 6 ? " and " : ", ";
            if (partner[i] < m)
                len += (size_t)snprintf(text + len, sizeof text - len, "%s'%s' (|r| = %.4f with '%s')", sep,
                                        res->atom_names[hidden[i]], r[i], res->atom_names[partner[i]]);
            else
                len += (size_t)snprintf(text + len, sizeof text - len, "%s'%s'", sep, res->atom_names[hidden[i]]);
        }
        if (nh > 6 && len < sizeof text) len += (size_t)snprintf(text + len, sizeof text - len, " and %zu more", nh - 6);
        if (len < sizeof text)
            snprintf(text + len, sizeof text - len,
                     ": the effect the data support (one-at-a-time least squares, |t| > 4) is smaller than the "
                     "spike's sd (%s), so the spike explains the data as well as the slab and the PIP understates "
                     "the effect; use --prior g, or a narrower spike (--prior ssvs:tau2=V)",
                     sp.tau2 > 0 ? "tau2" : from_ols ? "tau x the full least-squares standard error, which near-copies "
                                                       "inflate" : "tau x sqrt(y'Py / N / b'b)");
        bad = bsl_result_warn(res, text) != BASEL_OK;
    }
    free(v0);
    free(hidden);
    return bad;
}

/* Whether --prior names ssvs's own spike-and-slab prior, which the engine
 * parses itself (its single-model predictors are refitted under g = n). */
static int ssvs_own_prior(const char *coef_spec)
{
    if (!coef_spec) return 0;
    char name[32];
    const size_t len = strcspn(coef_spec, ":");
    if (len >= sizeof name) return 0;
    memcpy(name, coef_spec, len);
    name[len] = '\0';
    return strcmp(name, bsl_coef_ssvs.name) == 0; /* the name its prior type carries (coef_prior.c) */
}

/* The priors that ran, with their numbers. */
static json_t *prior_json(const bsl_vs_problem *pb, const char *coef_spec)
{
    json_t *pr = json_object();
    int bad = 0;
    bsl_json_put(pr, "coefficients", json_string(coef_spec), &bad);
    char mp[96];
    bsl_mprior_describe(&pb->mprior, mp, sizeof mp);
    bsl_json_put(pr, "model", json_string(mp), &bad);
    bsl_json_put(pr, "kmax", json_integer((json_int_t)pb->kmax), &bad);
    if (!bad && ssvs_own_prior(coef_spec)) bad = ssvs_numbers(pr, pb, coef_spec);
    if (bad) json_decref(pr);
    return bad ? NULL : pr;
}

/* An interrupted run that pools fewer chains than it was asked for says so
 * (a chain that kept no iteration after its burn-in is left out). */
static int chains_dropped(bsl_result *res, size_t used, size_t planned)
{
    char text[200];
    snprintf(text, sizeof text,
             "only %zu of the %zu chains kept iterations after their burn-in before the run stopped: the estimates "
             "and R-hat pool those %zu",
             used, planned, used);
    return bsl_result_warn(res, text);
}

/* Whether the run samples the inputs' relevance (bd --relevance select|grid). */
static int relevance_on(const bsl_params *st)
{
    const char *r = bsl_params_get(st, "relevance");
    return r && strcmp(r, "none") != 0 && strcmp(r, "ml") != 0;
}

/* Whether the inputs' scales are chosen before the run (bd --relevance ml). */
static int relevance_ml(const bsl_params *st)
{
    const char *r = bsl_params_get(st, "relevance");
    return r && strcmp(r, "ml") == 0;
}

/* --relevance ml: the inputs' scales by the type-II maximum likelihood of a
 * Gaussian process (basis.h bsl_ard_ml), then the dictionary again under
 * them (r=auto's grid from the median distance at those scales). */
static int ml_dictionary(bsl_dict **dict, const char *spec, const bsl_problem *P, double *scale,
                         bsl_ard_info *info, basel_error *err)
{
    if (P->stats || !bsl_basis_is_radial((*dict)->kind))
        return bsl_fail(err, BASEL_EINVAL,
                        "--relevance ml: the inputs' relevance is a factor in a kernel's distance; it needs a radial "
                        "--basis (gauss, cubic, tps, lin-rbf) fitted on rows (not --stats)");
    if (P->group_start)
        return bsl_fail(err, BASEL_EINVAL, "--relevance ml: not with a categorical input ('%s')", P->factors[0].input);
    int rc = bsl_ard_ml(P->X, P->n, P->d, P->Y, P->c, scale, info, err);
    if (rc) return rc;
    bsl_dict *scaled = NULL;
    if ((rc = bsl_dict_create_scaled(&scaled, spec, P->X, P->n, P->d, scale, err))) return rc;
    bsl_dict_free(*dict);
    *dict = scaled;
    return BASEL_OK;
}

/* FIT.json's "relevance" for --relevance ml (docs/FIT.md). 1 when out of
 * memory. */
static int ml_json(bsl_result *res, const bsl_problem *P, const double *scale, const bsl_ard_info *info)
{
    json_t *o = json_object(), *names = json_array();
    int bad = !o || !names;
    for (size_t a = 0; a < P->d && !bad; a++) bsl_json_push(names, json_string(P->input_names[a]), &bad);
    bsl_json_put(o, "mode", json_string("ml"), &bad);
    bsl_json_put(o, "inputs", names, &bad);
    bsl_json_put(o, "selected_scale", bsl_json_doubles(scale, P->d), &bad);
    bsl_json_put(o, "gp_log_ml", bsl_json_real(info->log_ml), &bad);
    bsl_json_put(o, "gp_signal_var", bsl_json_real(info->signal_var), &bad);
    bsl_json_put(o, "gp_noise_var", bsl_json_real(info->noise_var), &bad);
    bsl_json_put(o, "gp_rows", bsl_json_real((double)info->rows), &bad);
    bsl_json_put(o, "gp_evaluations", bsl_json_real((double)info->evaluations), &bad);
    if (!bad && !res->extra) bad = !(res->extra = json_object());
    if (!bad) bsl_json_put(res->extra, "relevance", o, &bad);
    else json_decref(o);
    return bad;
}

/* The scales the refit uses (bd_relevance.h): input a at E[eta_a | eta_a >
 * 0] when its PIP is at least 1/2 (the median-probability input set,
 * Barbieri and Berger's rule for the atoms applied to the inputs), else 0;
 * for --relevance select that is 1 or 0. */
static void selected_scales(const bsl_vs_result *vrel, double *scale)
{
    for (size_t a = 0; a < vrel->d_inputs; a++)
        scale[a] = vrel->input_pip[a] >= 0.5 ? vrel->input_scale[a] / vrel->input_pip[a] : 0.0;
}

/* FIT.json's "relevance" (docs/FIT.md) and a warning when the chains
 * disagree on an input. 1 when out of memory. */
static int relevance_json(bsl_result *res, const bsl_vs_result *vrel, const bsl_problem *P,
                          const bsl_params *st, const double *chosen)
{
    const size_t d = vrel->d_inputs;
    json_t *o = json_object(), *names = json_array();
    int bad = !o || !names;
    for (size_t a = 0; a < d && !bad; a++) bsl_json_push(names, json_string(P->input_names[a]), &bad);
    bsl_json_put(o, "mode", json_string(bsl_params_get(st, "relevance")), &bad);
    bsl_json_put(o, "inputs", names, &bad);
    bsl_json_put(o, "pip", bsl_json_doubles(vrel->input_pip, d), &bad);
    bsl_json_put(o, "scale_mean", bsl_json_doubles(vrel->input_scale, d), &bad);
    bsl_json_put(o, "pip_chain", bsl_json_doubles(vrel->input_pip_chain, vrel->chains * d), &bad);
    bsl_json_put(o, "selected_scale", bsl_json_doubles(chosen, d), &bad);
    bsl_json_put(o, "moves_proposed", bsl_json_real(vrel->input_proposed), &bad);
    bsl_json_put(o, "moves_accepted", bsl_json_real(vrel->input_accepted), &bad);
    bsl_json_put(o, "atom_pip_joint", bsl_json_doubles(vrel->pip, vrel->m), &bad);
    if (!bad && !res->extra) bad = !(res->extra = json_object());
    if (!bad) bsl_json_put(res->extra, "relevance", o, &bad);
    else json_decref(o);
    double spread = 0;
    const char *worst = NULL;
    for (size_t a = 0; a < d; a++) {
        double lo = 1, hi = 0;
        for (size_t h = 0; h < vrel->chains; h++) {
            lo = fmin(lo, vrel->input_pip_chain[h * d + a]);
            hi = fmax(hi, vrel->input_pip_chain[h * d + a]);
        }
        if (hi - lo > spread) spread = hi - lo, worst = P->input_names[a];
    }
    if (!bad && vrel->chains > 1 && spread > 0.2) {
        char w[BSL_CONV_WARNING_LEN];
        snprintf(w, sizeof w, "the chains' PIPs of input '%s' differ by %.2f: run longer (--iter) or move the "
                              "relevance more often (--relevance-every)", worst, spread);
        bad = bsl_result_warn(res, w) != BASEL_OK;
    }
    return bad;
}

/* ------------------------------------------------- the fit, in stages
 *
 * bsl_subset_fit runs four stages over one subset_fit: the problem (the
 * dictionary, design, priors and run settings), the run (with
 * --relevance, two: the scales, then the atoms under them), and one
 * result builder per family (multinomial: subset_multi.c; binomial and
 * Poisson: subset_glm.c's block and table; Gaussian: the closed forms).
 * Each stage reads what the earlier ones left in F and fails with err set. */
typedef struct subset_fit {
    bsl_engine_ctx *ctx;
    bsl_subset_runner runner;
    const bsl_problem *P;
    bsl_params *st;
    const char *coef_spec;
    int binomial, multinomial, glm;
    int own_prior; /* ssvs's spike-and-slab: its single-model predictors are refitted under g = n */
    int relevance, rel_ml;
    const size_t *gstart; /* categorical inputs: atoms are groups of columns */
    size_t gram_mb;
    bsl_dict *dict;
    bsl_design *D, *V;          /* the columns' design; V: the groups' view of it */
    bsl_vs_problem pb, pg;      /* the columns' problem (summaries); the one the engine runs (groups) */
    bsl_colstore cols;
    bsl_vs_result *vr, *vc, *vrel; /* the run; its models in columns (groups); the relevance stage */
    double ml_scale[BSL_ARD_MAX_INPUTS];
    bsl_ard_info ml_info;
    bsl_params st_refit;
    bsl_run run;
} subset_fit;

static int oom(basel_error *err) { return bsl_fail(err, BASEL_ENOMEM, "out of memory"); }

/* Stage 1: the dictionary and design, the coefficient and model priors,
 * kmax and the run settings, with every refusal that needs them. */
/* Whether the draws get sigma2, b_ and log_lik (subset_draws.c): not for
 * a categorical input's groups, ssvs's own prior, nor a fit from summary
 * statistics (no rows). One rule for the run's refusal of
 * --draws-loglik and for the result stage. */
static int draw_values_possible(const subset_fit *F)
{
    return bsl_subset_draws_possible(&F->pb) && !F->V && !F->own_prior && !F->P->stats;
}

static int fit_problem(subset_fit *F, basel_error *err)
{
    bsl_engine_ctx *ctx = F->ctx;
    const bsl_problem *P = F->P;
    bsl_params *st = F->st;
    int rc = bsl_params_size(st, "gram-memory", 256, 1, 1 << 20, &F->gram_mb, err);
    if (!rc) rc = bsl_dict_create(&F->dict, bsl_params_get(st, "basis"), P->X, P->n, P->d, err);
    if (!rc && F->rel_ml)
        rc = ml_dictionary(&F->dict, bsl_params_get(st, "basis"), P, F->ml_scale, &F->ml_info, err);
    if (!rc && ctx->def->run_length) rc = ctx->def->run_length(ctx->settings, ctx->user, P->d, err);
    if (!rc && P->stats) rc = bsl_design_create_stats(&F->D, F->dict, P->stats, err); /* no rows: fit/stats.c */
    else if (!rc && P->blocks) /* held by other processes (fit/blocks.c) */
        rc = bsl_design_create_blocks(&F->D, F->dict, P->blocks, P->n, P->Y, P->c, F->gram_mb << 20, ctx->phases,
                                      err);
    else if (!rc) /* X, or held compactly (problem.c compact_inputs); with --relevance the chains compute
                   * their own columns: a streamed design (1 evaluation) */
        rc = bsl_design_create_held(&F->D, F->dict, P->X, P->X32, P->X8, P->X2, P->n, P->Y, P->c, F->gram_mb << 20,
                                    F->relevance ? 1.0 : expected_evaluations(ctx, F->dict->m), ctx->phases, err);
    if (rc) return rc;
    bsl_vs_problem *pb = &F->pb, *pg = &F->pg;
    pb->D = F->D;
    pb->prior_spec = F->coef_spec;
    if (F->glm) {
        if (F->gstart)
            return bsl_fail(err, BASEL_EINVAL, "--family %s: no categorical inputs yet (a text input column)",
                            bsl_params_get(st, "family"));
        if ((rc = bsl_subset_glm_setup(ctx, pb, err))) return rc;
        pb->nclass = F->multinomial ? P->nclass : 0;
        F->coef_spec = bsl_params_get(st, "prior");
        pb->prior_spec = F->coef_spec;
    } else if ((rc = bsl_coef_prior_parse(&pb->prior, F->own_prior ? "g" : F->coef_spec, P->n, P->c, err))) {
        return rc;
    }
    if (pb->prior.type && pb->prior.type->choose_g && F->runner != bsl_enumerate) /* coef_prior.h choose_g */
        return bsl_fail(err, BASEL_EINVAL,
                        "--prior %s chooses one g from every subset's R^2, which only --method enumerate visits "
                        "(up to 24 inputs); with --method %s, give the g it chose: --prior g:g=G (FIT.json "
                        "posterior.prior.g of an enumerate fit), or a prior of each model's own: eb-local, hyper-g, jzs",
                        pb->prior.type->name, ctx->def->name);
    if (bsl_coef_sampled(&pb->prior) && pb->prior.type->nuisance_start) /* start: output 0's (ridge: a quarter of var(y)) */
        pb->prior.type->nuisance_start(&pb->prior, F->D->yy, 1, (double)(F->D->n - F->D->q));
    if (F->gstart && (rc = bsl_design_group_view(&F->V, F->D, F->gstart, P->ngroups, err))) return rc;
    /* the engine runs on pg: the groups as atoms, the model prior and kmax
     * over groups; pb is the columns' problem the summaries refit with */
    *pg = *pb;
    if (F->V) {
        pg->D = F->V;
        pg->model = &bsl_model_grouped;
    }
    if ((rc = bsl_mprior_parse(&pg->mprior, bsl_params_get(st, "model-prior"), pg->D->m, err))) return rc;
    if ((rc = resolve_kmax(st, pg, &pg->kmax, err))) return rc;
    pg->mprior.kmax = pg->kmax;
    pb->mprior = pg->mprior;
    pb->kmax = F->V ? BSL_MIN(F->D->m, F->D->n - F->D->q - 1) : pg->kmax;
    if ((rc = run_settings(&F->run, ctx, err))) return rc;
    const bsl_run *run = &F->run;
    if (F->V && (run->checkpoint || run->restart)) /* the grouped model saves no state (group.c) */
        return bsl_fail(err, BASEL_EINVAL, "--checkpoint and --restart: not for a fit with a categorical input ('%s')",
                        P->factors[0].input);
    /* a model table that cannot save its state (model.h state_save NULL)
     * is refused before the run, not at its first checkpoint */
    if ((run->checkpoint || run->restart) && !(pg->model ? pg->model : bsl_model_ops_for(&pg->prior))->state_save)
        return bsl_fail(err, BASEL_EINVAL, "--checkpoint and --restart: --method %s%s%s cannot save its state",
                        ctx->def->name, F->glm ? " --family " : "", F->glm ? bsl_params_get(st, "family") : "");
    if (F->relevance && (F->V || F->glm || run->checkpoint || run->restart))
        return bsl_fail(err, BASEL_EINVAL, "--relevance: not with %s",
                        F->V    ? "a categorical input"
                        : F->glm ? "--family binomial or poisson"
                                 : "--checkpoint or --restart");
    if (ctx->keep_draws == 2 && !draw_values_possible(F)) /* refused before the run, not after it */
        return bsl_fail(err, BASEL_EINVAL, "--draws-loglik: this fit's draws have no log_lik (" BSL_LOGLIK_FITS ")");
    if (F->rel_ml) { /* the scales are fixed: a plain run on the scaled dictionary */
        F->st_refit = *st;
        bsl_params_set(&F->st_refit, "relevance", "none");
        F->run.params = &F->st_refit;
    }
    return BASEL_OK;
}

/* Stage 2: the chains. With --relevance two runs (bd_relevance.h): the
 * chains sample (atoms, eta); then the atoms are fitted again under the
 * selected scales, so that every predictor, the model average included,
 * is one dictionary's. */
static int fit_run(subset_fit *F, basel_error *err)
{
    const bsl_subset_runner runner = F->runner;
    const bsl_problem *P = F->P;
    int rc;
    if (F->relevance) {
        if (!(F->vrel = calloc(1, sizeof *F->vrel))) return oom(err);
        if ((rc = runner(&F->pg, &F->run, F->vrel, err))) return rc;
        double chosen[64]; /* bd_relevance.h BSL_REL_MAX_INPUTS */
        selected_scales(F->vrel, chosen);
        bsl_design_free(F->D);
        F->D = NULL;
        if ((rc = bsl_dict_set_input_scale(F->dict, chosen)) ||
            (rc = bsl_design_create_for(&F->D, F->dict, P->X, P->n, P->Y, P->c, F->gram_mb << 20,
                                        expected_evaluations(F->ctx, F->dict->m), F->ctx->phases, err))) {
            if (rc == BASEL_ENOMEM) bsl_fail(err, rc, "out of memory");
            return rc;
        }
        F->pb.D = F->pg.D = F->D;
        F->st_refit = *F->st;
        bsl_params_set(&F->st_refit, "relevance", "none");
        F->run.params = &F->st_refit;
    }
    F->ctx->later = sampling_later(F->st, &F->run, F->pg.kmax, F->D->m, P->n);
    if ((rc = runner(&F->pg, &F->run, F->vr, err))) return rc;
    if (F->vr->prior_g > 0) F->pb.prior.g = F->pg.prior.g = F->vr->prior_g; /* eb-global's g, for every summary */
    return BASEL_OK;
}

/* The run's draws become the fit's when they were asked for. */
static void hand_draws(subset_fit *F, bsl_result *res)
{
    if (F->ctx->keep_draws && F->vr->ndraws) {
        res->draws = F->vr;
        F->vr = NULL;
    }
}

/* Stage 3, --family binomial or poisson: the summaries, then subset_glm.c's
 * engine block and coefficient table (the Gaussian closed forms do not
 * apply). */
static int result_glm(subset_fit *F, bsl_result *res, basel_error *err)
{
    const bsl_problem *P = F->P;
    bsl_vs_result *vr = F->vr;
    int bad = 0;
    if (F->binomial) {
        json_t *cl = json_array();
        for (size_t k = 0; k < P->nclass; k++) bsl_json_push(cl, json_string(P->class_names[k]), &bad);
        if (!res->extra) res->extra = json_object();
        bsl_json_put(res->extra, "classes", cl, &bad);
    }
    if (bad || !(res->engine = bsl_subset_glm_block(&F->pb, basis_json(F->dict, F->D), vr, res)))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory, or a model's Laplace approximation failed");
    /* the coefficient table from the model average's Laplace approximations (subset_glm_coef.c) */
    const json_t *bma = json_object_get(json_object_get(res->engine, "predictor"), "bma");
    after_sampling(F->ctx->phases, "coefficients", "atoms", 0, (double)vr->m, 0);
    const char *within = F->pb.prior.type->glm_log_ml ? BSL_GLM_GTYPE_WITHIN : "laplace"; /* glm.h */
    json_t *coef =
        bsl_subset_glm_coefficients(P, F->dict, vr, bma, (const char *const *)res->atom_names, 0.95, within, err);
    after_sampling(F->ctx->phases, "coefficients", "atoms", (double)vr->m, (double)vr->m, 0);
    if (coef && !res->extra) res->extra = json_object();
    if (coef) bsl_json_put(res->extra, "coefficients", coef, &bad); /* takes coef, also on failure */
    if (!coef || bad) return err && err->code ? err->code : oom(err);
    hand_draws(F, res);
    return BASEL_OK;
}

/* Stage 3, Gaussian: the engine block (every predictor, the projection),
 * the coefficient table, the credible sets (linear inputs), and the
 * relevance scales chosen. */
static int result_gaussian(subset_fit *F, const bsl_vs_result *vcol, const post_cost *cost, bsl_result *res,
                           basel_error *err)
{
    const bsl_problem *P = F->P;
    bsl_vs_result *vr = F->vr;
    double proj_tol = 0;
    int rc = bsl_params_double(F->st, "projection-tol", strtod(BSL_PROJ_TOL_DEFAULT, NULL), 0, 1e6, &proj_tol, err);
    if (rc) return rc;
    /* the spread the tolerance is measured in (subset_project.c): within a model, or the total */
    const char *spread = bsl_params_get(F->st, "projection-spread");
    const int proj_total = spread && !strcmp(spread, "total");
    if (!(res->engine = engine_block(&F->pb, F->dict, vcol, vr, F->gstart, res, F->run.top, proj_tol, proj_total,
                                     F->gram_mb << 20, F->ctx->phases, cost, err)))
        return oom(err);
    after_sampling(F->ctx->phases, "coefficients", "atoms", 0, (double)vcol->m, 0);
    json_t *coef = bsl_subset_coefficients(
        &F->pb, P, F->dict, vcol, F->V ? (const char *const *)P->input_names : (const char *const *)res->atom_names,
        0.95, 0, err);
    after_sampling(F->ctx->phases, "coefficients", "atoms", (double)vcol->m, (double)vcol->m, 0);
    int bad = 0;
    if (coef && !res->extra) res->extra = json_object();
    if (coef) bsl_json_put(res->extra, "coefficients", coef, &bad); /* takes coef, also on failure */
    if (coef && !bad && F->dict->kind == BSL_BASIS_LINEAR && F->D->q == 1) { /* inputs, not basis functions */
        after_sampling(F->ctx->phases, "credible sets", "atoms", 0, (double)vr->m, 0);
        bsl_json_put(res->extra, "credible_sets", bsl_subset_credible_json(&F->pb, vr), &bad);
        after_sampling(F->ctx->phases, "credible sets", "atoms", (double)vr->m, (double)vr->m, 0);
    }
    if (!coef || bad) return err && err->code ? err->code : oom(err);
    if (F->vrel) {
        double chosen[64]; /* bd_relevance.h BSL_REL_MAX_INPUTS */
        selected_scales(F->vrel, chosen);
        if (relevance_json(res, F->vrel, P, F->st, chosen)) return oom(err);
    }
    if (F->rel_ml && ml_json(res, P, F->ml_scale, &F->ml_info)) return oom(err);
    /* the draws' sigma2, b_ and log_lik (subset_draws.c) */
    if (F->ctx->keep_draws && vr->ndraws && draw_values_possible(F) &&
        (rc = bsl_subset_draw_values(&F->pb, P, F->dict, (const char *const *)res->atom_names, vr, F->ctx->seed,
                                     F->ctx->keep_draws == 2, err)))
        return rc;
    hand_draws(F, res);
    return BASEL_OK;
}

/* Stage 3: the result. Multinomial fits have their own summaries
 * (subset_multi.c); the others share the summaries and diagnostics, then
 * part by family. */
static int fit_result(subset_fit *F, bsl_result *res, basel_error *err)
{
    const bsl_problem *P = F->P;
    bsl_vs_result *vr = F->vr;
    bsl_vs_problem *pb = &F->pb;
    if (F->multinomial) { /* joint atoms of classes and inputs */
        const int rc = bsl_subset_multi_result(&F->pg, P, F->dict, F->D, vr, F->run.top, F->coef_spec, res, err);
        if (!rc) hand_draws(F, res); /* the joint models' draws (rj_multinomial.c) */
        return rc;
    }
    if (F->glm && pb->model->draw_nuisance) /* scores given the latent variables: no model's log posterior */
        for (size_t i = 0; i < vr->models.n; i++) vr->models.items[i].log_post = NAN;
    if (bsl_coef_sampled(&pb->prior)) /* predict with the posterior means */
        pb->prior.type->nuisance_fix(&pb->prior, vr->nu_mean);
    res->prior = prior_json(&F->pg, F->coef_spec);
    if (F->V && (!(F->vc = calloc(1, sizeof *F->vc)) || expand_result(F->vc, vr, pb, F->gstart))) return oom(err);
    const bsl_vs_result *vcol = F->V ? F->vc : vr;
    /* the summaries below refit every stored model from its atoms' columns:
     * each column once (colstore.c), within the memory --gram-memory allows
     * a dense Gram (at sinc n = 8000, 256 MB: 18.0 -> 13.4 CPU-s against
     * 17.6 at 64 MB, peak 346 MB); without the memory, as before */
    size_t *uses = F->glm ? NULL : bsl_calloc(pb->D->m + 1, sizeof *uses);
    for (size_t i = 0; uses && i < vcol->models.n; i++) {
        const size_t *A = bsl_modelset_atoms(&vcol->models, i);
        for (size_t a = 0; a < vcol->models.items[i].k; a++) uses[A[a]]++;
    }
    if (uses && !bsl_colstore_init(&F->cols, pb->D, uses, F->gram_mb << 20)) pb->cols = &F->cols;
    free(uses);
    /* marginal likelihoods under the prior the engine ran: not for ssvs's
     * own prior, nor for a ridge prior whose sigma^2 and lambda were sampled */
    const int with_ml = !F->own_prior && !pb->prior.sample_nuisance && !F->glm;
    const double nmod = (double)BSL_MAX(vr->models.n, 1);
    const post_cost cost = estimate_cost(model_terms(vcol), vcol->m, P->n);
    const double after_diag = cost.posterior + cost.projection + cost.coefficients;
    after_sampling(F->ctx->phases, "diagnostics", "models", 0, nmod, after_diag);
    if (!res->prior || fill_summaries(res, F->dict, P, vr, F->run.top, pb, with_ml) || add_diagnostics(res, vr) ||
        put_gram(res->diagnostics, F->D) ||
        (vr->iter_planned > 0 && bsl_result_interrupted(res, vr->iter_done, vr->iter_planned)) ||
        (vr->iter_planned > 0 && vr->chains < F->run.chains && chains_dropped(res, vr->chains, F->run.chains)) ||
        (F->own_prior && !F->glm && ssvs_hidden(res, &F->pg, F->coef_spec)))
        return oom(err);
    after_sampling(F->ctx->phases, "diagnostics", "models", nmod, nmod, after_diag);
    return F->glm ? result_glm(F, res, err) : result_gaussian(F, vcol, &cost, res, err);
}

static void subset_fit_free(subset_fit *F)
{
    bsl_colstore_free(&F->cols);
    bsl_vs_result_free(F->vr);
    free(F->vr);
    bsl_vs_result_free(F->vc);
    free(F->vc);
    bsl_vs_result_free(F->vrel);
    free(F->vrel);
    bsl_design_free(F->V);
    bsl_design_free(F->D);
    bsl_dict_free(F->dict);
}

int bsl_subset_fit(bsl_engine_ctx *ctx, bsl_result *res, bsl_subset_runner runner, basel_error *err)
{
    subset_fit F = {.ctx = ctx, .runner = runner, .P = ctx->P, .st = ctx->settings, .gram_mb = 256};
    F.coef_spec = bsl_params_get(F.st, "prior");
    F.binomial = bsl_family_binomial(F.st);
    F.multinomial = bsl_family_multinomial(F.st); /* one subset per class: subset_multi.c */
    F.glm = F.binomial || F.multinomial || bsl_family_poisson(F.st); /* a GLM: subset_glm.c */
    F.own_prior = ssvs_own_prior(F.coef_spec);
    F.relevance = relevance_on(F.st);
    F.rel_ml = relevance_ml(F.st);
    F.gstart = F.P->group_start;
    int rc = (F.vr = calloc(1, sizeof *F.vr)) ? BASEL_OK : oom(err);
    if (!rc) rc = fit_problem(&F, err);
    if (!rc) rc = fit_run(&F, err);
    if (!rc) rc = fit_result(&F, res, err);
    subset_fit_free(&F);
    return rc;
}

/* ------------------------------------------------- for subset_multi.c */

json_t *bsl_subset_basis_json(const bsl_dict *dict, const bsl_design *D) { return basis_json(dict, D); }
json_t *bsl_subset_prior_json(const bsl_vs_problem *pb, const char *coef_spec) { return prior_json(pb, coef_spec); }
int bsl_subset_diagnostics(bsl_result *r, const bsl_vs_result *vr) { return add_diagnostics(r, vr); }
