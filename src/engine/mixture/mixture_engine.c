/*
 * mixture_engine.c: the mixture method's entry in the engine table
 * (engine.h): input selection for a Gaussian-mixture classifier (paper 000).
 * Its options and their defaults are below, and only here.
 */
#include "mixture.h"
#include "../engine.h"
#include "../../core/jsonutil.h"
#include "../../problem/problem.h"
#include "../../prior/prior.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const bsl_engine_option options[] = {
    {"standardize", "yes"}, /* the priors of paper 000 assume inputs on a unit scale */
    {"model-prior", "poisson:mean=2"},
    {"kmax", ""},
    {"iter", "10000"},
    {"burn", "5000"},
    {"thin", "10"},
    {"chains", "4"},
    {"top", "20"},
    /* 6, not 3: better test accuracy and log-loss on all three data sets, 8 and
     * 10 no better (bench/mixture/README.md "8 and 10 kernels, and the default") */
    {"kernels", "6"},
    {"excluded", "regression"},
    {"temperatures", "1"},
    {"temp-max", "20"},
    {"hyper-h", "0"},
    {"beta-min", "0.03"},
    {"unlabelled", "ignore"},
    {"exchange", "informed"},
    {NULL, NULL},
};

static int mixture_options(bsl_mix_options *mo, const bsl_engine_ctx *ctx, bsl_mprior *pr, basel_error *err)
{
    const bsl_problem *P = ctx->P;
    bsl_mix_options_default(mo);
    bsl_params *p = ctx->settings;
    int rc = bsl_params_size(p, "kernels", mo->kernels, 1, 1000, &mo->kernels, err);
    size_t iter = 0;
    if (!rc) rc = bsl_params_size(p, "iter", 10000, 1, (size_t)1 << 40, &iter, err);
    if (!rc) rc = bsl_params_size(p, "burn", 5000, 0, (size_t)1 << 40, &mo->burn, err);
    if (!rc) rc = bsl_params_size(p, "thin", mo->thin, 1, (size_t)1 << 40, &mo->thin, err);
    if (!rc) rc = bsl_params_size(p, "chains", 4, 1, 1024, &mo->chains, err);
    if (!rc) rc = bsl_params_size(p, "top", mo->top, 1, 100000, &mo->top, err);
    if (!rc) rc = bsl_params_size(p, "kmax", P->d, 1, P->d, &mo->max_inputs, err);
    if (!rc) rc = bsl_params_set_size(p, "kmax", mo->max_inputs);
    if (!rc) rc = bsl_params_size(p, "temperatures", mo->temperatures, 1, BSL_MIX_MAX_TEMPERATURES, &mo->temperatures, err);
    if (!rc) rc = bsl_params_double(p, "temp-max", mo->temp_max, 1.000001, 1e12, &mo->temp_max, err);
    if (!rc) rc = bsl_params_double(p, "hyper-h", mo->h, 0, 1e12, &mo->h, err);
    if (!rc) rc = bsl_params_double(p, "beta-min", mo->beta_min, 0, 1e6, &mo->beta_min, err);
    const char *ex = bsl_params_get(p, "excluded");
    if (!rc && ex) {
        if (!strcmp(ex, "regression"))
            mo->excluded = BSL_MIX_EXCLUDED_REGRESSION;
        else if (!strcmp(ex, "gaussian"))
            mo->excluded = BSL_MIX_EXCLUDED_GAUSSIAN;
        else
            rc = bsl_fail(err, BASEL_EINVAL, "--excluded '%s': expected regression or gaussian", ex);
    }
    const char *xc = bsl_params_get(p, "exchange");
    if (!rc && xc) {
        if (!strcmp(xc, "uniform") || !strcmp(xc, "informed"))
            mo->informed_exchange = !strcmp(xc, "informed");
        else
            rc = bsl_fail(err, BASEL_EINVAL, "--exchange '%s': expected uniform or informed", xc);
    }
    const char *un = bsl_params_get(p, "unlabelled");
    if (!rc && un) {
        if (!strcmp(un, "use") || !strcmp(un, "ignore"))
            mo->unlabelled = !strcmp(un, "use");
        else
            rc = bsl_fail(err, BASEL_EINVAL, "--unlabelled '%s': expected ignore or use", un);
    }
    if (!rc && (iter + mo->thin - 1) / mo->thin > BSL_MIX_MAX_DRAWS) { /* thinned further: recorded */
        mo->thin = (iter + BSL_MIX_MAX_DRAWS - 1) / BSL_MIX_MAX_DRAWS;
        rc = bsl_params_set_size(p, "thin", mo->thin);
    }
    mo->iter = iter + mo->burn; /* the engine counts burn-in inside iter */
    mo->seed = ctx->seed;
    if (rc || (rc = bsl_mprior_parse(pr, bsl_params_get(p, "model-prior"), P->d, err))) return rc;
    if (pr->kind != BSL_MPRIOR_POISSON)
        return bsl_fail(err, BASEL_EINVAL,
                        "--method mixture takes the truncated Poisson prior of paper 000 (--model-prior poisson:mean=W)");
    mo->poisson_mean = pr->mean;
    return rc;
}

/* The kept draws as a draws-CSV record (chain, inputs); chains kept the
 * same number of draws each, in chain order. */
static int mixture_draws(const bsl_mix_result *r, size_t chains, bsl_vs_result **out)
{
    bsl_vs_result *res = calloc(1, sizeof *res);
    const size_t d = bsl_mix_inputs(r), nd = bsl_mix_draw_count(r), per = nd / chains;
    int rc = res ? bsl_vs_result_init(res, d, 1, d, chains) : BASEL_ENOMEM;
    for (size_t t = 0, c = 0, end = r->chain_ndraw ? r->chain_ndraw[0] : per; t < nd && !rc; t++) {
        size_t k;
        const size_t *in = bsl_mix_draw_inputs(r, t, &k);
        if (r->chain_ndraw) /* an interrupted run's chains kept different numbers */
            while (t >= end && c + 1 < chains) end += r->chain_ndraw[++c];
        rc = bsl_vs_add_draw(res, (unsigned)(r->chain_ndraw ? c : per ? t / per : 0), in, k, NULL);

    }
    if (rc) {
        bsl_vs_result_free(res);
        free(res);
        return rc;
    }
    *out = res;
    return BASEL_OK;
}

/* The diagnostics: note, acceptance, R-hat and ESS across chains, and the
 * warning when chains settle on different subsets. */
static int mixture_diagnostics(bsl_result *res, const bsl_mix_result *r, const bsl_mix_options *mo)
{
    bsl_mix_diag dg;
    bsl_mix_diagnostics(r, &dg);
    json_t *dj = res->diagnostics;
    int bad = 0;
    char note[256];
    snprintf(note, sizeof note,
             "mean inputs %.2f, max %zu; acceptance add %.3g, remove %.3g, exchange %.3g; %zu kernels",
             bsl_mix_mean_inputs(r), bsl_mix_max_inputs(r), dg.accept_add, dg.accept_remove,
             dg.accept_exchange, mo->kernels);
    if (mo->temperatures > 1) {
        const size_t len0 = strlen(note);
        snprintf(note + len0, sizeof note - len0,
                 "; %zu temperatures up to %g, swaps accepted %.3g (least between temperatures %.3g and %.3g: %.3g)",
                 mo->temperatures, mo->temp_max, dg.accept_swap,
                 pow(mo->temp_max, (double)dg.swap_min_pair / (double)(mo->temperatures - 1)),
                 pow(mo->temp_max, (double)(dg.swap_min_pair + 1) / (double)(mo->temperatures - 1)),
                 dg.accept_swap_min);
    }
    bsl_json_put(dj, "note", json_string(note), &bad);
    bsl_json_put(dj, "mean_inputs", bsl_json_real(bsl_mix_mean_inputs(r)), &bad);
    bsl_json_put(dj, "max_inputs", json_integer((json_int_t)bsl_mix_max_inputs(r)), &bad);
    size_t d, draws;
    const double *rhat, *ess, *tail, *pip_all = bsl_mix_pip(r, &d);
    bsl_conv size;
    bsl_mix_convergence(r, &rhat, &ess, &tail, &size, &draws);
    if (bad) return BASEL_ENOMEM;
    if (!rhat) return BASEL_OK;
    bsl_json_put(dj, "rhat_pip", bsl_json_rhats(rhat, d), &bad);
    bsl_json_put(dj, "ess_pip", bsl_json_doubles(ess, d), &bad);
    bsl_json_put(dj, "ess_tail_pip", bsl_json_doubles(tail, d), &bad);
    if (!isnan(size.rhat)) bsl_json_put(dj, "rhat_size", bsl_json_rhat(size.rhat), &bad);
    if (isfinite(size.ess_bulk)) bsl_json_put(dj, "ess_size", bsl_json_real(size.ess_bulk), &bad);
    if (isfinite(size.ess_tail)) bsl_json_put(dj, "ess_tail_size", bsl_json_real(size.ess_tail), &bad);
    if (bad) return BASEL_ENOMEM;
    /* the rule of summary.h (bsl_conv_warnings); chains that settle on
     * different subsets are the mixture's usual trouble, which replica
     * exchange is for: with temperatures close to 1 (on Ionosphere 4 up to
     * 1.22 swapped 13-22 % of the time and brought every chain to the main
     * mode; 6 up to 10 never swapped at the cold end; docs/NOTES.md) */
    char advice[160], w[BSL_CONV_MAX_WARNINGS][BSL_CONV_WARNING_LEN];
    if (mo->temperatures > 1)
        snprintf(advice, sizeof advice,
                 "try more temperatures (now %zu), longer runs (--iter) or more chains (--chains)", mo->temperatures);
    else
        snprintf(advice, sizeof advice,
                 "try replica exchange close to 1 (--temperatures 4 --temp-max 1.2), longer runs (--iter) or more "
                 "chains (--chains)");
    bsl_conv_check cc = {.m = d, .pip = pip_all, .rhat_pip = rhat, .ess_pip = ess, .ess_tail_pip = tail,
                         .names = (const char *const *)res->atom_names, .size = size,
                         .chains = mo->chains, .draws = draws, .what = "set of inputs",
                         .size_name = "the number of inputs"};
    bsl_mix_subset_moves(r, &cc.moves_proposed, &cc.moves_accepted);
    const size_t nw = bsl_conv_warnings(&cc, advice, w);
    for (size_t i = 0; i < nw; i++)
        if (bsl_result_warn(res, w[i])) return BASEL_ENOMEM;
    return BASEL_OK;
}

static int fit_mixture(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err)
{
    const bsl_problem *P = ctx->P;
    bsl_mix_options mo;
    bsl_mprior pr;
    int rc = mixture_options(&mo, ctx, &pr, err);
    if (rc) return rc;
    if (P->cls == NULL) return bsl_fail(err, BASEL_EINVAL, "--method mixture needs a class column");
    if (ctx->keep_draws == 2) /* refused before the run, not after it */
        return bsl_fail(err, BASEL_EINVAL, "--draws-loglik: the mixture's draws have no log_lik (its draws are the "
                        "subsets; use --draws)");
    mo.threads = ctx->threads;
    mo.progress = ctx->progress;
    mo.progress_user = ctx->progress_user;
    mo.checkpoint = ctx->checkpoint;
    mo.restart = ctx->restart;
    mo.checkpoint_every = ctx->checkpoint_every;
    mo.run_id = ctx->run_id;
    mo.ranks = ctx->ranks;
    bsl_mix_result *r = NULL;
    if ((rc = bsl_mixture_fit(P->X, P->n, P->d, P->cls, P->nclass, &mo, &r, err))) return rc;
    size_t d, len;
    const double *pip = bsl_mix_pip(r, &d), *size = bsl_mix_size_post(r, &len);
    const size_t nsub = bsl_mix_subset_count(r);
    rc = bsl_result_init(res, d, 1) ? BASEL_ENOMEM : BASEL_OK;
    res->kmax = len - 1;
    res->size_prob = rc ? NULL : bsl_malloc(len, sizeof *res->size_prob);
    res->models = rc ? NULL : bsl_calloc(nsub + 1, sizeof *res->models);
    if (!res->size_prob || !res->models) rc = BASEL_ENOMEM;
    for (size_t j = 0; j < d && !rc; j++)
        if (!(res->atom_names[j] = bsl_strdup(P->input_names[j]))) rc = BASEL_ENOMEM;
    if (!rc) {
        memcpy(res->pip, pip, d * sizeof *pip);
        memcpy(res->size_prob, size, len * sizeof *size);
        res->has_selected = 1;
    }
    for (size_t s = 0; s < nsub && !rc; s++, res->nmodels++) {
        size_t k;
        double prob;
        const size_t *in = bsl_mix_subset(r, s, &k, &prob);
        bsl_result_model *rm = &res->models[s];
        if (!(rm->atoms = bsl_malloc(k + 1, sizeof *rm->atoms))) rc = BASEL_ENOMEM;
        else if (k) memcpy(rm->atoms, in, k * sizeof *in);
        rm->k = k;
        rm->prob = prob;
        rm->log_post = NAN;
    }
    if (!rc) {
        json_t *cl = json_array();
        int bad = 0;
        for (size_t k = 0; k < P->nclass; k++) bsl_json_push(cl, json_string(P->class_names[k]), &bad);
        bsl_json_put(res->extra = json_object(), "classes", cl, &bad);
        if (bad) rc = BASEL_ENOMEM;
    }
    if (!rc) {
        char mp[96];
        bsl_mprior_describe(&pr, mp, sizeof mp);
        res->prior = json_pack("{s:s, s:s, s:i}", "coefficients",
                               "class-conditional Gaussian mixture (paper 000), inputs left out regressed on the kept ones",
                               "model", mp, "kmax", (json_int_t)mo.max_inputs);
        int bad = !res->prior;
        if (mo.excluded == BSL_MIX_EXCLUDED_GAUSSIAN)
            bsl_json_put(res->prior, "coefficients",
                         json_string("class-conditional Gaussian mixture (paper 000), inputs left out one Gaussian each"),
                         &bad);
        if (bad) rc = BASEL_ENOMEM;
    }
    if (!rc) rc = mixture_diagnostics(res, r, &mo);
    if (!rc && r->iter_planned > 0) rc = bsl_result_interrupted(res, r->iter_done, r->iter_planned);
    if (!rc && !(res->engine = bsl_mix_to_json(r))) rc = BASEL_ENOMEM;
    if (!rc && ctx->keep_draws) rc = mixture_draws(r, mo.chains, &res->draws);
    bsl_mix_free(r);
    return rc ? bsl_fail(err, rc, "out of memory") : BASEL_OK;
}

static int predict_mixture(const json_t *doc, const double *X, size_t n, size_t d, const char *model_name,
                           double level, basel_pred *p, basel_error *err)
{
    bsl_mix_result *r = NULL;
    int rc = bsl_mix_from_json(&r, json_object_get(doc, "engine"), err);
    if (rc) return rc;
    const json_t *cl = json_object_get(doc, "classes");
    const size_t K = json_array_size(cl);
    if (K != bsl_mix_classes(r) || d != bsl_mix_inputs(r)) {
        rc = bsl_fail(err, BASEL_EPARSE,
                      "the fit's mixture engine has %zu inputs and %zu classes, its \"inputs\" and \"classes\" list %zu and %zu",
                      bsl_mix_inputs(r), bsl_mix_classes(r), d, K);
        bsl_mix_free(r);
        return rc;
    }
    /* the regression arrays from basel_fit_predict are replaced by classes */
    for (size_t j = 0; j < p->c; j++) free(p->names[j]);
    free(p->names);
    p->names = bsl_calloc(K, sizeof *p->names);
    p->prob = bsl_calloc(n * K, sizeof *p->prob);
    p->cls = bsl_calloc(n, sizeof *p->cls);
    p->nclass = K;
    if (!p->names || !p->prob || !p->cls) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t k = 0; k < K && !rc; k++) {
        const char *s = json_string_value(json_array_get(cl, k));
        if (!(p->names[k] = bsl_strdup(s ? s : "?"))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    /* the model average, or the predictive given one selected model: the
     * kept draws whose inputs are exactly that model's */
    size_t *model = NULL, k = 0;
    const int average = strcmp(model_name, "bma") == 0;
    if (!rc && !average) {
        const json_t *sel = json_object_get(json_object_get(doc, "selected"), model_name);
        k = json_array_size(sel);
        if (!(model = bsl_malloc(k + 1, sizeof *model))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        for (size_t j = 0; j < k && !rc; j++) model[j] = (size_t)json_integer_value(json_array_get(sel, j));
    }
    if (!rc) {
        const int prc = bsl_mixture_predict_model(r, X, n, average ? NULL : model, k, p->prob);
        if (prc == BASEL_ERANGE)
            rc = bsl_fail(err, BASEL_EINVAL,
                          "--model %s: no kept draw has exactly its inputs, so there is nothing to predict with "
                          "(keep more draws: --thin, --iter)", model_name);
        else if (prc == BASEL_ENOMEM)
            rc = bsl_fail(err, prc, "out of memory");
        else if (prc)
            rc = bsl_fail(err, BASEL_EINVAL, "prediction failed");
    }
    free(model); /* each row's class: predict.c finish_predictions */
    bsl_mix_free(r);
    return rc;
}


/* the model average over the kept draws, or the predictive given one
 * selected model (the kept draws that have exactly its inputs) */
static const char *const mixture_models[] = {"bma", "hpm", "median", "prevalence", NULL};
/* engine.h's check: the kept draws load (values as well as shapes,
 * mixture_json.c) and fit the document's inputs and classes. */
static int check_mixture(const json_t *doc, const char *source, basel_error *err)
{
    bsl_mix_result *r = NULL;
    int rc = bsl_mix_from_json(&r, json_object_get(doc, "engine"), err);
    const size_t d = json_array_size(json_object_get(doc, "inputs")), K = json_array_size(json_object_get(doc, "classes"));
    if (!rc && (K != bsl_mix_classes(r) || d != bsl_mix_inputs(r)))
        rc = bsl_fail(err, BASEL_EPARSE,
                      "the fit's mixture engine has %zu inputs and %zu classes, its \"inputs\" and \"classes\" list %zu and %zu",
                      bsl_mix_inputs(r), bsl_mix_classes(r), d, K);
    for (size_t k = 0; k < K && !rc; k++)
        if (!json_is_string(json_array_get(json_object_get(doc, "classes"), k)))
            rc = bsl_fail(err, BASEL_EPARSE, "\"classes[%zu]\" is not a class name", k);
    bsl_mix_free(r);
    return bsl_engine_check_failed(err, rc, source);
}

const bsl_engine_def bsl_engine_mixture = {
    .name = "mixture",
    .summary = "input selection for a Gaussian-mixture classifier; inputs left out are regressed on the kept ones (paper 000)",
    /* bench/mixture/README.md (mixture, per-class mixture), docs/GLM.md
     * (the GLM): test accuracy, mean over splits 1-10 */
    .advice = "  Which inputs separate the classes when their densities are lumpy (several\n"
              "  clusters per class), with the classes' densities as a by-product. Where the\n"
              "  classes are close to linearly separable a logistic model with selection\n"
              "  (--family binomial or multinomial, methods rj, bd, ssvs) predicts better and\n"
              "  costs less. Test accuracy, mean of splits 1-10 (bench/mixture, docs/GLM.md):\n"
              "    Ionosphere: mixture 91.4 %, binomial rj 87.9 %, L1 logistic 87.3 %,\n"
              "                a Gaussian mixture per class 90.4 %;\n"
              "    Pima:       mixture 75.6 %, binomial rj 77.1 %, L1 logistic 77.4 %;\n"
              "    Wine:       mixture 96.0 %, multinomial rj 98.3 %, L1 logistic 96.2 %.\n"
              "  (6 kernels, the default; --kernels 3 gave 88.6, 72.0 and 94.9 % at 0.7-0.9\n"
              "  times the CPU; 8 and 10 were within a standard error of 6, Pima 75.7 and\n"
              "  75.9 %, at 1.06-1.4 times its CPU.) With 6 kernels an input that does not help\n"
              "  is seldom added, so the chains may accept under 2 % of the moves that change\n"
              "  the inputs and the stuck-chains warning fires (Pima: 7 splits of 10, 5 with 3\n"
              "  kernels; also on easy data whose other inputs have PIPs near 0, where\n"
              "  --kernels 3 accepts more). The mixture keeps about 5 inputs on Pima, 6 on Wine\n"
              "  and 26 of 33 on Ionosphere, where its chains settle in different modes (see\n"
              "  the warnings).\n",
    .unit = "sweeps",
    .target = BSL_TARGET_LABELS,
    .options = options,
    .models = mixture_models,
    .keeps_draws = 1,
    .checkpoints = 1,
    .fit = fit_mixture,
    .predict = predict_mixture,
    .check = check_mixture,
};
