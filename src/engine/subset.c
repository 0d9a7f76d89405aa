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
 * its intervals from the mixture over the top models.
 */
#include "subset.h"
#include "engine.h"
#include "../fit/problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const bsl_subset_models[] = {"bma", "hpm", "median", "prevalence", NULL};

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

/* Sampler diagnostics into res (warnings included). */
static int add_diagnostics(bsl_result *r, const bsl_vs_result *vr)
{
    json_t *dg = r->diagnostics;
    json_object_set_new(dg, "note", json_string(vr->engine_note));
    json_object_set_new(dg, "evaluations", json_real(vr->evaluations));
    if (!isnan(vr->rhat_size)) json_object_set_new(dg, "rhat_size", bsl_json_rhat(vr->rhat_size));
    if (isfinite(vr->ess_size)) json_object_set_new(dg, "ess_size", json_real(vr->ess_size));
    if (vr->rhat_pip) json_object_set_new(dg, "rhat_pip", bsl_json_rhats(vr->rhat_pip, vr->m));
    if (vr->ess_pip) json_object_set_new(dg, "ess_pip", bsl_json_doubles(vr->ess_pip, vr->m));
    if (vr->pip_chain) json_object_set_new(dg, "pip_chain", bsl_json_doubles(vr->pip_chain, vr->chains * vr->m));
    json_object_set_new(dg, "visited_models", json_integer((json_int_t)vr->models.n));
    json_object_set_new(dg, "unstored_model_weight", json_real(vr->models.dropped_weight));
    if (vr->kmax < vr->m && vr->size_prob[vr->kmax] > 0.001)
        return bsl_result_warn(r, "the size posterior reaches kmax: raise --kmax");
    return BASEL_OK;
}

/* The atoms' names, PIPs, size posterior and top models into res. */
static int fill_summaries(bsl_result *res, const bsl_dict *dict, const bsl_problem *P,
                          const bsl_vs_result *vr, size_t top)
{
    const size_t m = vr->m;
    if (bsl_result_init(res, m, 1)) return BASEL_ENOMEM;
    for (size_t j = 0; j < m; j++) {
        char name[96];
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
    const size_t ih = vr->models.n ? hpm_index(&vr->models) : 0;
    res->hpm.k = vr->models.n ? vr->models.items[ih].k : 0;
    if (!(res->hpm.atoms = bsl_malloc(res->hpm.k + 1, sizeof *res->hpm.atoms))) return BASEL_ENOMEM;
    if (res->hpm.k) memcpy(res->hpm.atoms, bsl_modelset_atoms(&vr->models, ih), res->hpm.k * sizeof *res->hpm.atoms);
    return BASEL_OK;
}

/* The engine block: the dictionary and one predictor per model. */
static json_t *engine_block(const bsl_vs_problem *pb, const bsl_dict *dict, const bsl_vs_result *vr,
                            const bsl_result *res, size_t top, basel_error *err)
{
    const size_t m = vr->m, c = vr->c;
    size_t *med = bsl_malloc(m + 1, sizeof *med), *prev = bsl_malloc(m + 1, sizeof *prev);
    size_t *nzat = bsl_malloc(m + 1, sizeof *nzat);
    double *nzco = bsl_malloc(m * c + 1, sizeof *nzco);
    json_t *eng = json_object(), *pred = json_object(), *bma = json_object(), *mix = json_array();
    if (!med || !prev || !nzat || !nzco || !eng || !pred || !bma || !mix) {
        json_decref(eng);
        json_decref(pred);
        json_decref(bma);
        json_decref(mix);
        eng = NULL;
        goto out;
    }
    const size_t nmed = bsl_select_median(vr->pip, m, med);
    const size_t nprev = bsl_select_prevalence(vr->pip, m, vr->size_prob, vr->kmax, prev);
    const size_t ntop = BSL_MIN(top, vr->models.n);
    for (size_t i = 0; i < ntop; i++) {
        const bsl_subset *s = &vr->models.items[i];
        json_array_append_new(mix, model_predictor(pb, bsl_modelset_atoms(&vr->models, i), s->k, s->weight, err));
    }
    size_t nz = 0;
    for (size_t j = 0; j < m; j++) {
        int any = 0;
        for (size_t o = 0; o < c; o++) any |= vr->coef_bma[j * c + o] != 0.0;
        if (!any) continue;
        nzat[nz] = j;
        memcpy(nzco + nz * c, vr->coef_bma + j * c, c * sizeof *nzco);
        nz++;
    }
    json_object_set_new(bma, "atoms", bsl_json_sizes(nzat, nz));
    json_object_set_new(bma, "coef", bsl_json_doubles(nzco, nz * c));
    json_object_set_new(bma, "mixture", mix);
    json_object_set_new(pred, "bma", bma);
    json_object_set_new(pred, "hpm", model_predictor(pb, res->hpm.atoms, res->hpm.k, 1.0, err));
    json_object_set_new(pred, "median", model_predictor(pb, med, nmed, 1.0, err));
    json_object_set_new(pred, "prevalence", model_predictor(pb, prev, nprev, 1.0, err));
    json_object_set_new(eng, "basis", basis_json(dict, pb->D));
    json_object_set_new(eng, "predictor", pred);
out:
    free(med);
    free(prev);
    free(nzat);
    free(nzco);
    return eng;
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
    run->checkpoint = ctx->checkpoint;
    run->restart = ctx->restart;
    run->checkpoint_every = ctx->checkpoint_every;
    run->run_id = ctx->run_id;
    return rc;
}

/* The priors that ran, with their numbers. */
static json_t *prior_json(const bsl_vs_problem *pb, const char *coef_spec)
{
    json_t *pr = json_object();
    json_object_set_new(pr, "coefficients", json_string(coef_spec));
    char mp[96];
    bsl_mprior_describe(&pb->mprior, mp, sizeof mp);
    json_object_set_new(pr, "model", json_string(mp));
    json_object_set_new(pr, "kmax", json_integer((json_int_t)pb->kmax));
    return pr;
}

int bsl_subset_fit(bsl_engine_ctx *ctx, bsl_result *res, bsl_subset_runner runner, basel_error *err)
{
    const bsl_problem *P = ctx->P;
    bsl_params *st = ctx->settings;
    const char *coef_spec = bsl_params_get(st, "prior");
    /* ssvs's spike-and-slab prior is parsed by the engine; its single-model
     * predictors are refitted under the g-prior with g = n */
    const int own_prior = coef_spec && strncmp(coef_spec, "ssvs", 4) == 0;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_vs_problem pb = {0};
    bsl_vs_result *vr = calloc(1, sizeof *vr);
    bsl_run run;
    size_t gram_mb = 256;
    int rc = vr ? BASEL_OK : bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!rc) rc = bsl_params_size(st, "gram-memory", 256, 1, 1 << 20, &gram_mb, err);
    if (!rc) rc = bsl_dict_create(&dict, bsl_params_get(st, "basis"), P->X, P->n, P->d, err);
    if (!rc) rc = bsl_design_create(&D, dict, P->X, P->n, P->Y, P->c, gram_mb << 20, err);
    if (rc) goto out;
    pb.D = D;
    pb.prior_spec = coef_spec;
    if ((rc = bsl_coef_prior_parse(&pb.prior, own_prior ? "g" : coef_spec, P->n, P->c, err))) goto out;
    if (pb.prior.kind == BSL_COEF_RIDGE && pb.prior.sample_nuisance) {
        const double N = (double)(D->n - D->q);
        pb.prior.sigma2 = D->yy[0] / N / 4; /* start: a quarter of var(y) */
    }
    if ((rc = bsl_mprior_parse(&pb.mprior, bsl_params_get(st, "model-prior"), D->m, err))) goto out;
    if ((rc = resolve_kmax(st, &pb, &pb.kmax, err))) goto out;
    pb.mprior.kmax = pb.kmax;
    if ((rc = run_settings(&run, ctx, err))) goto out;
    if ((rc = runner(&pb, &run, vr, err))) goto out;
    if (pb.prior.sample_nuisance) { /* predict with the posterior means */
        pb.prior.sigma2 = vr->sigma2_mean;
        pb.prior.lambda = vr->lambda_mean;
    }
    res->prior = prior_json(&pb, coef_spec);
    if (fill_summaries(res, dict, P, vr, run.top) || add_diagnostics(res, vr) ||
        !(res->engine = engine_block(&pb, dict, vr, res, run.top, err))) {
        rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        goto out;
    }
    if (ctx->keep_draws && vr->ndraws) {
        res->draws = vr;
        vr = NULL;
    }
out:
    bsl_vs_result_free(vr);
    free(vr);
    bsl_design_free(D);
    bsl_dict_free(dict);
    return rc;
}
