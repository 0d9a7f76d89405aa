/*
 * vsfit.c: fits by the subset engines (enumerate, bd, rj, ssvs) and their
 * FIT.json document.
 *
 * Besides the summaries DESIGN.md requires (atoms, pip, model_size,
 * selected), the document carries a "predictor" for every model a user can
 * predict with: each is a single model refitted exactly (posterior mean of
 * its coefficients, the always-in coefficients, sigma^2 and the matrix V
 * with Var(f(x)) = sigma^2 x~' V x~), plus the model average: its mean from
 * the Rao-Blackwellised coefficient averages over ALL visited models, and
 * its intervals from the mixture over the top models.
 */
#include "fit.h"
#include "problem.h"
#include "../engine/subset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Default iterations per chain, by engine: enough for PIP errors near 0.01
 * on problems of tens of atoms (see tests/stat). */
static size_t default_iter(const char *method)
{
    if (strcmp(method, "bd") == 0) return 10000;
    if (strcmp(method, "rj") == 0) return 50000;
    if (strcmp(method, "ssvs") == 0) return 20000;
    return 0;
}

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
    if (!beta || !gam || !o) goto out;
    bsl_model_coef_mean(M, beta);
    for (size_t l = 0; l < q; l++)
        for (size_t t = 0; t < c; t++) {
            double g = D->gy[l * c + t];
            for (size_t i = 0; i < M->k; i++) g -= beta[i * c + t] * D->gB[M->active[i] * q + l];
            gam[l * c + t] = g;
        }
    const double shrink = pb->prior.kind == BSL_COEF_G ? pb->prior.g / (1 + pb->prior.g) : 1.0;
    json_t *V = json_array(), *s2 = json_array();
    for (size_t j = 0; j < M->k; j++)
        for (size_t i = 0; i < M->k; i++)
            json_array_append_new(V, json_real(shrink * M->Ainv[i + j * (k + 1)]));
    for (size_t t = 0; t < c; t++) json_array_append_new(s2, json_real(bsl_model_sigma2(M, t)));
    json_object_set_new(o, "atoms", bsl_json_sizes(M->active, M->k));
    json_object_set_new(o, "coef", bsl_json_doubles(beta, M->k * c));
    json_object_set_new(o, "always_in", bsl_json_doubles(gam, q * c));
    json_object_set_new(o, "sigma2", s2);
    json_object_set_new(o, "V", V);
    json_object_set_new(o, "weight", json_real(weight));
out:
    free(beta);
    free(gam);
    bsl_model_free(M);
    return o;
}

static json_t *basis_json(const bsl_dict *dict, const bsl_design *D)
{
    json_t *b = json_object();
    json_object_set_new(b, "kind", json_string(bsl_basis_name(dict->kind)));
    json_object_set_new(b, "d", json_integer((json_int_t)dict->d));
    json_object_set_new(b, "m", json_integer((json_int_t)dict->m));
    json_object_set_new(b, "width", json_real(dict->width));
    json_object_set_new(b, "lo", json_real(dict->lo));
    json_object_set_new(b, "hi", json_real(dict->hi));
    json_object_set_new(b, "linear_term", json_boolean(dict->linear_term));
    if (dict->centres) json_object_set_new(b, "centres", bsl_json_doubles(dict->centres, dict->m * dict->d));
    json_object_set_new(b, "always_in_coef", bsl_json_doubles(D->gB, D->m * D->q));
    /* (Z'Z)^{-1} = R^{-1} R^{-T}: the always-in columns' contribution to
     * predictive variance */
    json_object_set_new(b, "R", bsl_json_doubles(D->R, D->q * D->q));
    json_object_set_new(b, "always_in_y", bsl_json_doubles(D->gy, D->q * D->c));
    return b;
}

static json_t *selected_json(const bsl_vs_result *res, size_t *hpm, size_t nh, size_t **med_out,
                             size_t *nmed, size_t **prev_out, size_t *nprev)
{
    json_t *sel = json_object();
    size_t *med = bsl_malloc(res->m + 1, sizeof *med), *prev = bsl_malloc(res->m + 1, sizeof *prev);
    if (!sel || !med || !prev) {
        free(med);
        free(prev);
        json_decref(sel);
        return NULL;
    }
    *nmed = bsl_select_median(res->pip, res->m, med);
    *nprev = bsl_select_prevalence(res->pip, res->m, res->size_prob, res->kmax, prev);
    json_object_set_new(sel, "hpm", bsl_json_sizes(hpm, nh));
    json_object_set_new(sel, "median", bsl_json_sizes(med, *nmed));
    json_object_set_new(sel, "prevalence", bsl_json_sizes(prev, *nprev));
    *med_out = med;
    *prev_out = prev;
    return sel;
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

static json_t *diagnostics_json(const bsl_vs_result *res)
{
    json_t *dg = json_object();
    json_object_set_new(dg, "evaluations", json_real(res->evaluations));
    json_object_set_new(dg, "note", json_string(res->engine_note));
    json_object_set_new(dg, "rhat_size", bsl_json_rhat(res->rhat_size));
    json_object_set_new(dg, "ess_size", isfinite(res->ess_size) ? json_real(res->ess_size) : json_null());
    if (res->rhat_pip) json_object_set_new(dg, "rhat_pip", bsl_json_rhats(res->rhat_pip, res->m));
    if (res->ess_pip) json_object_set_new(dg, "ess_pip", bsl_json_doubles(res->ess_pip, res->m));
    if (res->pip_chain) json_object_set_new(dg, "pip_chain", bsl_json_doubles(res->pip_chain, res->chains * res->m));
    json_object_set_new(dg, "visited_models", json_integer((json_int_t)res->models.n));
    if (res->kmax < res->m && res->size_prob[res->kmax] > 0.001)
        json_object_set_new(dg, "warning", json_string("the size posterior reaches kmax: raise --kmax"));
    json_object_set_new(dg, "unstored_model_weight", json_real(res->models.dropped_weight));
    return dg;
}

static int fill_doc(json_t *doc, const bsl_vs_problem *pb, const bsl_dict *dict,
                    const bsl_problem *P, bsl_vs_result *res, size_t top, basel_error *err)
{
    const size_t m = res->m, c = res->c;
    json_t *atoms = json_array();
    for (size_t j = 0; j < m; j++) {
        char name[96];
        bsl_dict_atom_name(dict, j, (const char *const *)P->input_names, name, sizeof name);
        json_t *a = json_object();
        json_object_set_new(a, "name", json_string(name));
        json_array_append_new(atoms, a);
    }
    json_object_set_new(doc, "atoms", atoms);
    json_object_set_new(doc, "pip", bsl_json_doubles(res->pip, m));
    json_t *ms = json_object(), *ks = json_array();
    for (size_t k = 0; k <= res->kmax; k++) json_array_append_new(ks, json_integer((json_int_t)k));
    json_object_set_new(ms, "k", ks);
    json_object_set_new(ms, "prob", bsl_json_doubles(res->size_prob, res->kmax + 1));
    json_object_set_new(doc, "model_size", ms);
    json_object_set_new(doc, "k_opt", json_integer((json_int_t)bsl_kopt(res->size_prob, res->kmax)));

    const size_t ih = res->models.n ? hpm_index(&res->models) : 0;
    const size_t nh = res->models.n ? res->models.items[ih].k : 0;
    size_t *hpm = bsl_malloc(nh + 1, sizeof *hpm), *med = NULL, *prev = NULL, nmed = 0, nprev = 0;
    if (!hpm) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (nh) memcpy(hpm, bsl_modelset_atoms(&res->models, ih), nh * sizeof *hpm);
    json_t *sel = selected_json(res, hpm, nh, &med, &nmed, &prev, &nprev);
    if (!sel) {
        free(hpm);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    json_object_set_new(doc, "selected", sel);

    json_t *models = json_array(), *mix = json_array();
    const size_t ntop = BSL_MIN(top, res->models.n);
    for (size_t i = 0; i < ntop; i++) {
        const bsl_subset *s = &res->models.items[i];
        const size_t *at = bsl_modelset_atoms(&res->models, i);
        json_t *o = json_object();
        json_object_set_new(o, "atoms", bsl_json_sizes(at, s->k));
        json_object_set_new(o, "prob", json_real(s->weight));
        json_object_set_new(o, "log_post", isfinite(s->log_post) ? json_real(s->log_post) : json_null());
        json_array_append_new(models, o);
        json_array_append_new(mix, model_predictor(pb, at, s->k, s->weight, err));
    }
    json_object_set_new(doc, "models", models);

    json_t *pred = json_object(), *bma = json_object();
    size_t nz = 0;
    size_t *nzat = bsl_malloc(m + 1, sizeof *nzat);
    double *nzco = bsl_malloc(m * c + 1, sizeof *nzco);
    for (size_t j = 0; j < m && nzat && nzco; j++) {
        int any = 0;
        for (size_t o = 0; o < c; o++) any |= res->coef_bma[j * c + o] != 0.0;
        if (!any) continue;
        nzat[nz] = j;
        memcpy(nzco + nz * c, res->coef_bma + j * c, c * sizeof *nzco);
        nz++;
    }
    json_object_set_new(bma, "atoms", bsl_json_sizes(nzat, nz));
    json_object_set_new(bma, "coef", bsl_json_doubles(nzco, nz * c));
    json_object_set_new(bma, "mixture", mix);
    json_object_set_new(pred, "bma", bma);
    json_object_set_new(pred, "hpm", model_predictor(pb, hpm, nh, 1.0, err));
    json_object_set_new(pred, "median", model_predictor(pb, med, nmed, 1.0, err));
    json_object_set_new(pred, "prevalence", model_predictor(pb, prev, nprev, 1.0, err));
    json_object_set_new(doc, "predictor", pred);
    json_object_set_new(doc, "basis", basis_json(dict, pb->D));
    json_object_set_new(doc, "diagnostics", diagnostics_json(res));
    free(nzat);
    free(nzco);
    free(hpm);
    free(med);
    free(prev);
    return BASEL_OK;
}

static int parse_kmax(const basel_options *o, const bsl_vs_problem *pb, size_t *kmax,
                      basel_error *err)
{
    const bsl_design *D = pb->D;
    /* with tau = 0 a model needs fewer atoms than residual degrees of
     * freedom; with a proper prior any size is fine, but more atoms than
     * rows never helps */
    size_t cap = D->n - D->q - 1;
    /* memory per chain grows like kmax^2 (factor, inverse) and n kmax
     * (streamed columns): the default stops at 200 atoms, far above the
     * sizes these posteriors put mass on; the fit warns if it binds */
    size_t def = BSL_MIN(BSL_MIN(D->m, cap), 200);
    const char *t = bsl_opt(o, "kmax");
    if (!*t) {
        *kmax = def;
        return BASEL_OK;
    }
    bsl_params p = {0};
    bsl_params_set(&p, "kmax", t);
    size_t v;
    int rc = bsl_params_size(&p, "kmax", def, 1, (size_t)-1, &v, err);
    if (rc) return rc;
    if (v > D->m)
        return bsl_fail(err, BASEL_EINVAL, "--kmax %zu is above the number of atoms m = %zu", v, D->m);
    if (v > cap)
        return bsl_fail(err, BASEL_EINVAL, "--kmax %zu leaves no residual degrees of freedom (n = %zu): at most %zu",
                        v, D->n, cap);
    *kmax = v;
    return BASEL_OK;
}

static int run_settings(bsl_run *run, const basel_options *o, const char *method,
                        basel_error *err)
{
    memset(run, 0, sizeof *run);
    const bsl_params *p = &o->p;
    int rc = bsl_params_size(p, "iter", default_iter(method), 1, (size_t)1 << 40, &run->iter, err);
    if (!rc) rc = bsl_params_size(p, "burn", run->iter / 5, 0, (size_t)1 << 40, &run->burn, err);
    if (!rc) rc = bsl_params_size(p, "thin", 1, 1, (size_t)1 << 40, &run->thin, err);
    if (!rc) rc = bsl_params_size(p, "chains", 4, 1, 1024, &run->chains, err);
    size_t threads = 0, top = 20;
    if (!rc) rc = bsl_params_size(p, "threads", 0, 0, 1024, &threads, err);
    if (!rc) rc = bsl_params_size(p, "top", 20, 1, 100000, &top, err);
    run->threads = (int)threads;
    run->top = top;
    run->params = p;
    run->progress = o->progress;
    run->progress_user = o->progress_user;
    return rc;
}

int bsl_fit_vs(json_t *doc, const struct bsl_problem *P, const basel_options *o, int keep_draws,
               bsl_vs_result *res, basel_error *err)
{
    const char *method = P->method;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_vs_problem pb = {0};
    bsl_run run;
    size_t gram_mb = 256;
    int rc = bsl_params_size(&o->p, "gram-memory", 256, 1, 1 << 20, &gram_mb, err);
    if (!rc) rc = bsl_dict_create(&dict, bsl_opt(o, "basis"), P->X, P->n, P->d, err);
    if (!rc) rc = bsl_design_create(&D, dict, P->X, P->n, P->Y, P->c, gram_mb << 20, err);
    if (rc) goto out;
    pb.D = D;
    pb.prior_spec = bsl_opt(o, "prior");
    /* ssvs has a prior of its own (parsed by the engine); its single-model
     * predictors are refitted under the g-prior with g = n */
    if ((rc = bsl_coef_prior_parse(&pb.prior, strcmp(method, "ssvs") ? pb.prior_spec : "g", P->n,
                                   P->c, err)))
        goto out;
    {
        if (pb.prior.kind == BSL_COEF_RIDGE && pb.prior.sample_nuisance) {
            const double N = (double)(D->n - D->q);
            pb.prior.sigma2 = D->yy[0] / N / 4; /* start: a quarter of var(y) */
        }
    }
    if ((rc = bsl_mprior_parse(&pb.mprior, bsl_opt(o, "model-prior"), D->m, err))) goto out;
    if ((rc = parse_kmax(o, &pb, &pb.kmax, err))) goto out;
    pb.mprior.kmax = pb.kmax;
    if ((rc = run_settings(&run, o, method, err))) goto out;
    run.seed = P->seed;
    run.keep_draws = keep_draws;
    if (strcmp(method, "enumerate") == 0)
        rc = bsl_enumerate(&pb, &run, res, err);
    else if (strcmp(method, "bd") == 0)
        rc = bsl_bd_run(&pb, &run, res, err);
    else if (strcmp(method, "rj") == 0)
        rc = bsl_rj_run(&pb, &run, res, err);
    else
        rc = bsl_ssvs_run(&pb, &run, res, err);
    if (rc) goto out;
    if (pb.prior.sample_nuisance) { /* predict with the posterior means */
        pb.prior.sigma2 = res->sigma2_mean;
        pb.prior.lambda = res->lambda_mean;
    }
    json_t *pr = json_object();
    json_object_set_new(pr, "coefficients", json_string(pb.prior_spec && *pb.prior_spec ? pb.prior_spec : "g"));
    char mp[96];
    bsl_mprior_describe(&pb.mprior, mp, sizeof mp);
    json_object_set_new(pr, "model", json_string(mp));
    json_object_set_new(pr, "kmax", json_integer((json_int_t)pb.kmax));
    json_object_set_new(doc, "prior", pr);
    json_object_set_new(doc, "iterations", json_integer((json_int_t)run.iter));
    json_object_set_new(doc, "burn", json_integer((json_int_t)run.burn));
    json_object_set_new(doc, "chains", json_integer((json_int_t)(strcmp(method, "enumerate") ? run.chains : 1)));
    rc = fill_doc(doc, &pb, dict, P, res, run.top, err);
out:
    bsl_design_free(D);
    bsl_dict_free(dict);
    return rc;
}
