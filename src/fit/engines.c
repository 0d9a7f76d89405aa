/*
 * engines.c: the engines whose results are not subsets of a fixed
 * dictionary (the mixture classifier; sequential Monte Carlo and RBF
 * networks with free centres below): each turns its result into the fit
 * document, with the summaries every fit has (atoms, pip, model_size,
 * selected, models) and its own state under "engine", and predicts from it.
 */
#include "fit.h"
#include "problem.h"
#include "../prior/prior.h"
#include "../engine/mixture/mixture.h"
#include "../engine/rbf/rbf.h"
#include "../engine/smc/smc.h"
#include "../model/model.h"
#include "../basis/basis.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The common summaries from PIPs over atoms, a size posterior and a list of
 * top subsets (already sorted by probability). */
static int common_summaries(json_t *doc, char *const *names, size_t m, const double *pip,
                            const double *size_prob, size_t kmax, json_t *models, basel_error *err)
{
    json_t *atoms = json_array(), *ks = json_array(), *ms = json_object(), *sel = json_object();
    size_t *med = bsl_malloc(m + 1, sizeof *med), *prev = bsl_malloc(m + 1, sizeof *prev);
    if (!atoms || !ks || !ms || !sel || !med || !prev) {
        free(med);
        free(prev);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < m && names; j++) {
        json_t *a = json_object();
        json_object_set_new(a, "name", json_string(names[j]));
        json_array_append_new(atoms, a);
    }
    for (size_t k = 0; k <= kmax; k++) json_array_append_new(ks, json_integer((json_int_t)k));
    json_object_set_new(ms, "k", ks);
    json_object_set_new(ms, "prob", bsl_json_doubles(size_prob, kmax + 1));
    const size_t nmed = bsl_select_median(pip, m, med);
    const size_t nprev = bsl_select_prevalence(pip, m, size_prob, kmax, prev);
    const json_t *top = json_array_get(models, 0);
    if (top)
        json_object_set(sel, "hpm", json_object_get(top, "atoms")); /* shared: refcount + 1 */
    else
        json_object_set_new(sel, "hpm", json_array());
    json_object_set_new(sel, "median", bsl_json_sizes(med, nmed));
    json_object_set_new(sel, "prevalence", bsl_json_sizes(prev, nprev));
    json_object_set_new(doc, "atoms", atoms);
    json_object_set_new(doc, "pip", bsl_json_doubles(pip, m));
    json_object_set_new(doc, "model_size", ms);
    json_object_set_new(doc, "k_opt", json_integer((json_int_t)bsl_kopt(size_prob, kmax)));
    json_object_set_new(doc, "selected", sel);
    json_object_set_new(doc, "models", models);
    free(med);
    free(prev);
    return BASEL_OK;
}

/* ------------------------------------------------------------- mixture */

static int mixture_options(bsl_mix_options *mo, const bsl_problem *P, const basel_options *o,
                           basel_error *err)
{
    bsl_mix_options_default(mo);
    const bsl_params *p = &o->p;
    int rc = bsl_params_size(p, "kernels", mo->kernels, 1, 1000, &mo->kernels, err);
    size_t iter = 0;
    if (!rc) rc = bsl_params_size(p, "iter", 10000, 1, (size_t)1 << 40, &iter, err);
    if (!rc) rc = bsl_params_size(p, "burn", 5000, 0, (size_t)1 << 40, &mo->burn, err);
    if (!rc) rc = bsl_params_size(p, "thin", mo->thin, 1, (size_t)1 << 40, &mo->thin, err);
    if (!rc) rc = bsl_params_size(p, "chains", 4, 1, 1024, &mo->chains, err);
    if (!rc) rc = bsl_params_size(p, "top", mo->top, 1, 100000, &mo->top, err);
    if (!rc) rc = bsl_params_size(p, "kmax", 0, 0, P->d, &mo->max_inputs, err);
    if (!rc) rc = bsl_params_size(p, "temperatures", mo->temperatures, 1, BSL_MIX_MAX_TEMPERATURES, &mo->temperatures, err);
    if (!rc) rc = bsl_params_double(p, "temp-max", mo->temp_max, 1.000001, 1e12, &mo->temp_max, err);
    if (!rc) rc = bsl_params_double(p, "hyper-h", mo->h, 1e-12, 1e12, &mo->h, err);
    const char *ex = bsl_params_get(p, "excluded");
    if (!rc && ex) {
        if (!strcmp(ex, "regression"))
            mo->excluded = BSL_MIX_EXCLUDED_REGRESSION;
        else if (!strcmp(ex, "gaussian"))
            mo->excluded = BSL_MIX_EXCLUDED_GAUSSIAN;
        else
            rc = bsl_fail(err, BASEL_EINVAL, "--excluded '%s': expected regression or gaussian", ex);
    }
    mo->iter = iter + mo->burn; /* the engine counts burn-in inside iter */
    mo->seed = P->seed;
    size_t threads = 0;
    if (!rc) rc = bsl_params_size(p, "threads", 0, 0, 1024, &threads, err);
    mo->threads = (int)threads;
    mo->progress = o->progress;
    mo->progress_user = o->progress_user;
    const char *mp = bsl_params_get(p, "model-prior");
    if (!rc && mp) {
        bsl_mprior pr;
        if ((rc = bsl_mprior_parse(&pr, mp, P->d, err))) return rc;
        if (pr.kind != BSL_MPRIOR_POISSON)
            return bsl_fail(err, BASEL_EINVAL,
                            "--method mixture takes the truncated Poisson prior of paper 000 (--model-prior poisson:mean=W)");
        mo->poisson_mean = pr.mean;
    }
    return rc;
}

/* The kept draws as a draws-CSV record (chain, inputs); chains kept the
 * same number of draws each, in chain order. */
static int mixture_draws(const bsl_mix_result *r, size_t chains, bsl_vs_result **out)
{
    bsl_vs_result *res = calloc(1, sizeof *res);
    const size_t d = bsl_mix_inputs(r), nd = bsl_mix_draw_count(r), per = nd / chains;
    int rc = res ? bsl_vs_result_init(res, d, 1, d, chains) : BASEL_ENOMEM;
    for (size_t t = 0; t < nd && !rc; t++) {
        size_t k;
        const size_t *in = bsl_mix_draw_inputs(r, t, &k);
        rc = bsl_vs_add_draw(res, (unsigned)(per ? t / per : 0), in, k, NULL);
    }
    if (rc) {
        bsl_vs_result_free(res);
        free(res);
        return rc;
    }
    *out = res;
    return BASEL_OK;
}

static int fit_mixture(json_t *doc, const bsl_problem *P, const basel_options *o, bsl_vs_result **draws,
                       basel_error *err)
{
    bsl_mix_options mo;
    int rc = mixture_options(&mo, P, o, err);
    if (rc) return rc;
    bsl_mix_result *r = NULL;
    if ((rc = bsl_mixture_fit(P->X, P->n, P->d, P->cls, P->nclass, &mo, &r, err))) return rc;
    size_t d, len;
    const double *pip = bsl_mix_pip(r, &d), *size = bsl_mix_size_post(r, &len);
    json_t *models = json_array();
    for (size_t s = 0; s < bsl_mix_subset_count(r); s++) {
        size_t k;
        double prob;
        const size_t *in = bsl_mix_subset(r, s, &k, &prob);
        json_t *mo_ = json_object();
        json_object_set_new(mo_, "atoms", bsl_json_sizes(in, k));
        json_object_set_new(mo_, "prob", json_real(prob));
        json_array_append_new(models, mo_);
    }
    rc = common_summaries(doc, P->input_names, d, pip, size, len - 1, models, err);
    json_t *cl = json_array();
    for (size_t k = 0; k < P->nclass; k++) json_array_append_new(cl, json_string(P->class_names[k]));
    json_object_set_new(doc, "classes", cl);
    bsl_mix_diag dg;
    bsl_mix_diagnostics(r, &dg);
    json_t *dj = json_object();
    char note[256];
    snprintf(note, sizeof note,
             "mean inputs %.2f, max %zu; acceptance add %.3g, remove %.3g, exchange %.3g; %zu kernels",
             bsl_mix_mean_inputs(r), bsl_mix_max_inputs(r), dg.accept_add, dg.accept_remove,
             dg.accept_exchange, mo.kernels);
    if (mo.temperatures > 1) {
        const size_t len0 = strlen(note);
        snprintf(note + len0, sizeof note - len0,
                 "; %zu temperatures up to %g, swaps accepted %.3g (least between temperatures %.3g and %.3g: %.3g)",
                 mo.temperatures, mo.temp_max, dg.accept_swap,
                 pow(mo.temp_max, (double)dg.swap_min_pair / (double)(mo.temperatures - 1)),
                 pow(mo.temp_max, (double)(dg.swap_min_pair + 1) / (double)(mo.temperatures - 1)),
                 dg.accept_swap_min);
    }
    json_object_set_new(dj, "note", json_string(note));
    json_object_set_new(dj, "mean_inputs", json_real(bsl_mix_mean_inputs(r)));
    json_object_set_new(dj, "max_inputs", json_integer((json_int_t)bsl_mix_max_inputs(r)));
    const double *rhat, *ess, *pip_all = bsl_mix_pip(r, &d);
    double rhat_size, ess_size;
    bsl_mix_convergence(r, &rhat, &ess, &rhat_size, &ess_size);
    if (rhat && mo.chains > 1) {
        json_object_set_new(dj, "rhat_pip", bsl_json_rhats(rhat, d));
        json_object_set_new(dj, "ess_pip", bsl_json_doubles(ess, d));
        json_object_set_new(dj, "rhat_size", bsl_json_rhat(rhat_size));
        json_object_set_new(dj, "ess_size", isfinite(ess_size) ? json_real(ess_size) : json_null());
        /* chains that settle on different subsets: the PIPs are then an
         * average of modes, not a converged posterior (R-hat +inf when each
         * chain stays on its own subset) */
        double worst = isnan(rhat_size) ? 1 : rhat_size;
        for (size_t j = 0; j < d; j++)
            if (!isnan(rhat[j]) && pip_all[j] > 0.01 && pip_all[j] < 0.99 && rhat[j] > worst) worst = rhat[j];
        if (worst > 1.1) {
            char w[240];
            if (mo.temperatures > 1)
                snprintf(w, sizeof w,
                         "the chains disagree about the inputs (R-hat up to %.2f): try more temperatures (now %zu) or longer runs",
                         worst, mo.temperatures);
            else
                snprintf(w, sizeof w,
                         "the chains disagree about the inputs (R-hat up to %.2f): try replica exchange (--temperatures 24) or longer runs",
                         worst);
            json_object_set_new(dj, "warning", json_string(w));
        }
    }
    json_object_set_new(doc, "diagnostics", dj);
    json_t *eng = bsl_mix_to_json(r);
    if (!eng) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    json_object_set_new(doc, "engine", eng);
    if (!rc && draws && mixture_draws(r, mo.chains, draws)) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    bsl_mix_free(r);
    return rc;
}

static int predict_mixture(const json_t *doc, const double *X, size_t n, size_t d, basel_pred *p,
                           basel_error *err)
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
    if (!rc && bsl_mixture_predict(r, X, n, p->prob)) rc = bsl_fail(err, BASEL_EINVAL, "prediction failed");
    for (size_t i = 0; i < n && !rc; i++) {
        size_t best = 0;
        for (size_t k = 1; k < K; k++)
            if (p->prob[i * K + k] > p->prob[i * K + best]) best = k;
        p->cls[i] = best;
    }
    bsl_mix_free(r);
    return rc;
}

/* -------------------------------------------------------------- smc */

/* --basis gauss:r=R (the kernels sit at the data points as they arrive). */
static int smc_options(bsl_smc_options *so, const bsl_problem *P, const basel_options *o,
                       basel_error *err)
{
    bsl_smc_options_default(so);
    bsl_spec sp;
    int rc = bsl_spec_parse(&sp, "basis", bsl_opt(o, "basis"), err);
    if (rc) return rc;
    if (strcmp(sp.name, "gauss") != 0)
        return bsl_fail(err, BASEL_EINVAL,
                        "--method smc places Gaussian kernels at the data points: give --basis gauss:r=R");
    if ((rc = bsl_spec_double(&sp, "r", so->width, 1e-300, 1e300, &so->width, err)) ||
        (rc = bsl_spec_finish(&sp, "r", err)))
        return rc;
    const bsl_params *p = &o->p;
    rc = bsl_params_size(p, "particles", so->particles, 1, 10000000, &so->particles, err);
    if (!rc) rc = bsl_params_double(p, "ess-threshold", so->ess_threshold, 0, 1, &so->ess_threshold, err);
    if (!rc) rc = bsl_params_size(p, "kmax", so->kmax, 1, 100000, &so->kmax, err);
    const char *rs = bsl_params_get(p, "resample");
    if (!rc && rs && (so->resample_scheme = bsl_smc_resample_from_name(rs)) < 0)
        rc = bsl_fail(err, BASEL_EINVAL, "--resample '%s': expected multinomial, systematic, stratified or residual", rs);
    const char *mp = bsl_params_get(p, "model-prior");
    if (!rc && mp) {
        bsl_mprior pr;
        if ((rc = bsl_mprior_parse(&pr, mp, P->n, err))) return rc;
        if (pr.kind != BSL_MPRIOR_POISSON)
            return bsl_fail(err, BASEL_EINVAL, "--method smc takes a truncated Poisson prior (--model-prior poisson:mean=W)");
        so->poisson_mean = pr.mean;
    }
    size_t threads = 0;
    if (!rc) rc = bsl_params_size(p, "threads", 0, 0, 1024, &threads, err);
    so->threads = (int)threads;
    so->seed = P->seed;
    return rc ? rc : bsl_smc_options_check(so, err);
}

/* The order in which rows arrive: as in the file, or shuffled (seeded). */
static size_t *arrival_order(const bsl_problem *P, const basel_options *o)
{
    size_t *ord = bsl_malloc(P->n, sizeof *ord);
    if (!ord) return NULL;
    for (size_t i = 0; i < P->n; i++) ord[i] = i;
    if (strcmp(bsl_opt(o, "shuffle"), "1") == 0) {
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        if (!r) {
            free(ord);
            return NULL;
        }
        gsl_rng_set(r, bsl_mix_seed(P->seed, 0xfeedUL));
        gsl_ran_shuffle(r, ord, P->n, sizeof *ord);
        gsl_rng_free(r);
    }
    return ord;
}

static int smc_summaries(json_t *doc, const bsl_smc *s, basel_error *err)
{
    size_t m;
    bsl_smc_candidates(s, &m);
    const size_t kmax = bsl_smc_get_options(s)->kmax;
    double *pip = bsl_calloc(m + 1, sizeof *pip), *kp = bsl_calloc(kmax + 1, sizeof *kp);
    char **names = bsl_calloc(m + 1, sizeof *names);
    bsl_modelset set;
    int rc = (!pip || !kp || !names || bsl_modelset_init(&set, 0)) ? bsl_fail(err, BASEL_ENOMEM, "out of memory") : 0;
    for (size_t j = 0; j < m && !rc; j++) {
        char buf[32];
        snprintf(buf, sizeof buf, "point@%zu", j + 1);
        if (!(names[j] = bsl_strdup(buf))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    json_t *models = json_array();
    if (!rc) {
        bsl_smc_pip(s, pip);
        bsl_smc_k_posterior(s, kp);
        for (size_t i = 0; i < bsl_smc_particles(s); i++) {
            const size_t *c;
            double w, s2, sb2;
            const size_t k = bsl_smc_particle(s, i, &c, &w, &s2, &sb2);
            bsl_modelset_add(&set, c, k, w, NAN);
        }
        bsl_modelset_sort(&set);
        for (size_t i = 0; i < set.n && i < 20; i++) {
            json_t *mo = json_object();
            json_object_set_new(mo, "atoms", bsl_json_sizes(bsl_modelset_atoms(&set, i), set.items[i].k));
            json_object_set_new(mo, "prob", json_real(set.items[i].weight));
            json_array_append_new(models, mo);
        }
        rc = common_summaries(doc, names, m, pip, kp, kmax, models, err);
    }
    for (size_t j = 0; j < m && names; j++) free(names[j]);
    free(names);
    free(pip);
    free(kp);
    bsl_modelset_free(&set);
    json_t *dg = json_object();
    char note[256];
    snprintf(note, sizeof note, "%zu points, %zu particles, %zu resampling steps; E[k] = %.2f, E[sigma] = %.4g, final ESS %.1f",
             bsl_smc_points(s), bsl_smc_particles(s), bsl_smc_resample_count(s), bsl_smc_mean_k(s),
             bsl_smc_sigma_mean(s), bsl_smc_ess(s));
    json_object_set_new(dg, "note", json_string(note));
    json_object_set_new(dg, "mean_k", json_real(bsl_smc_mean_k(s)));
    json_object_set_new(dg, "noise_sd", json_real(bsl_smc_sigma_mean(s)));
    json_object_set_new(doc, "diagnostics", dg);
    return rc;
}

static int fit_smc(json_t *doc, const bsl_problem *P, const basel_options *o, basel_error *err)
{
    if (P->c != 1) return bsl_fail(err, BASEL_EINVAL, "--method smc takes one target");
    bsl_smc *s = NULL;
    int rc;
    const char *resume = bsl_opt(o, "resume");
    if (*resume) {
        /* continue the particle system saved in an earlier fit */
        basel_fit *prev = NULL;
        if ((rc = basel_fit_read_json(&prev, resume, err))) return rc;
        const char *m = json_string_value(json_object_get(prev->doc, "method"));
        rc = m && !strcmp(m, "smc") ? bsl_smc_from_json(&s, json_object_get(prev->doc, "engine"), err)
                                    : bsl_fail_at(err, BASEL_EINVAL, resume, 0, 0, "--resume needs a fit of --method smc");
        basel_fit_free(prev);
        if (!rc && bsl_smc_dim(s) != P->d)
            rc = bsl_fail(err, BASEL_EINVAL, "--resume: the saved fit has %zu inputs, the data %zu", bsl_smc_dim(s), P->d);
        if (rc) {
            bsl_smc_free(s);
            return rc;
        }
    } else {
        bsl_smc_options so;
        if ((rc = smc_options(&so, P, o, err)) || (rc = bsl_smc_create(&s, P->d, &so, err))) return rc;
    }
    size_t *ord = arrival_order(P, o);
    double *x = bsl_malloc(P->d + 1, sizeof *x);
    if (!ord || !x) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    /* --running: the one-step-ahead prediction of each row before it is fed */
    const char *running = bsl_opt(o, "running");
    bsl_outfile run_out = {0};
    if (!rc && *running && !(rc = bsl_out_open(&run_out, running, err)))
        fprintf(run_out.fp, "t,row,y,y_mean,y_lower,y_upper\n");
    for (size_t t = 0; t < P->n && !rc; t++) {
        const size_t i = ord[t];
        for (size_t a = 0; a < P->d; a++) x[a] = P->X[a * P->n + i];
        double mu, lo, hi;
        if (run_out.fp && bsl_smc_points(s) > 0 && bsl_smc_predict(s, x, 1, 0.95, &mu, &lo, &hi) == 0)
            fprintf(run_out.fp, "%zu,%zu,%.17g,%.17g,%.17g,%.17g\n", bsl_smc_points(s) + 1, i + 1, P->Y[i], mu, lo, hi);
        rc = bsl_smc_feed(s, x, P->Y[i], err);
        if (!rc && o->progress && t % 64 == 0 && o->progress((double)t / (double)P->n, o->progress_user))
            rc = bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    }
    free(ord);
    free(x);
    if (run_out.fp) {
        if (rc) bsl_out_abort(&run_out);
        else rc = bsl_out_commit(&run_out, err);
    }
    if (!rc) rc = smc_summaries(doc, s, err);
    if (!rc) {
        json_t *eng = bsl_smc_to_json(s);
        if (!eng) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
        json_object_set_new(doc, "engine", eng);
    }
    bsl_smc_free(s);
    return rc;
}

/* -------------------------------------------------- RBF networks (anneal, rj) */

static int rbf_options(bsl_rbf_options *ro, const bsl_problem *P, const basel_options *o,
                       basel_error *err)
{
    bsl_rbf_options_default(ro);
    const int anneal = strcmp(P->method, "anneal") == 0;
    ro->temperature_mode = anneal ? BSL_RBF_ANNEAL : BSL_RBF_FULL;
    bsl_spec sp;
    const char *basis = bsl_params_get(&o->p, "basis");
    int rc = bsl_spec_parse(&sp, "basis", basis ? basis : "cubic", err);
    if (rc) return rc;
    const int kind = bsl_basis_kind_from_name(sp.name);
    if (kind < 0 || !bsl_basis_is_radial((bsl_basis_kind)kind))
        return bsl_fail(err, BASEL_EINVAL, "--method %s fits RBF networks: give --basis gauss:r=R, cubic, tps or lin-rbf", P->method);
    ro->radial = kind;
    double lin = 1, width = ro->width;
    if (kind == BSL_BASIS_GAUSS && (rc = bsl_spec_double(&sp, "r", width, 1e-300, 1e300, &width, err))) return rc;
    if ((rc = bsl_spec_double(&sp, "linear-term", 1, 0, 1, &lin, err))) return rc;
    if (bsl_spec_has(&sp, "centres")) {
        for (size_t i = 0; i < sp.nkv; i++)
            if (!strcmp(sp.key[i], "centres")) {
                sp.used |= 1u << i;
                if (strcmp(sp.val[i], "free"))
                    return bsl_fail(err, BASEL_EINVAL, "--basis ...:centres='%s': only 'free' is accepted here", sp.val[i]);
            }
    }
    if ((rc = bsl_spec_finish(&sp, kind == BSL_BASIS_GAUSS ? "r, linear-term, centres" : "linear-term, centres", err)))
        return rc;
    ro->width = width;
    ro->linear_term = lin != 0;
    const bsl_params *p = &o->p;
    if (anneal) {
        const char *pr = bsl_params_get(p, "prior");
        bsl_coef_prior cp;
        if ((rc = bsl_coef_prior_parse(&cp, pr ? pr : "mdl", P->n, P->c, err))) return rc;
        if (cp.kind < BSL_COEF_AIC)
            return bsl_fail(err, BASEL_EINVAL, "--method anneal maximises a calibrated criterion: --prior aic, bic or mdl");
        ro->criterion = cp.kind;
        const char *sc = bsl_params_get(p, "schedule");
        if (sc) {
            if (!strcmp(sc, "linear")) ro->schedule = BSL_RBF_LINEAR;
            else if (!strcmp(sc, "geometric")) ro->schedule = BSL_RBF_GEOMETRIC;
            else if (!strcmp(sc, "logarithmic")) ro->schedule = BSL_RBF_LOG;
            else return bsl_fail(err, BASEL_EINVAL, "--schedule '%s': expected linear, geometric or logarithmic", sc);
        }
        if ((rc = bsl_params_double(p, "t0", ro->t0, 1e-12, 1e12, &ro->t0, err)) ||
            (rc = bsl_params_double(p, "t-end", ro->t_end, 1e-12, 1e12, &ro->t_end, err)))
            return rc;
    }
    if ((rc = bsl_params_double(p, "box", ro->box_enlarge, 1, 100, &ro->box_enlarge, err)) ||
        (rc = bsl_params_double(p, "zeta", ro->zeta, 0, 1e6, &ro->zeta, err)) ||
        (rc = bsl_params_size(p, "iter", ro->iter, 1, (size_t)1 << 40, &ro->iter, err)) ||
        (rc = bsl_params_size(p, "burn", ro->burn, 0, (size_t)1 << 40, &ro->burn, err)) ||
        (rc = bsl_params_size(p, "chains", ro->chains, 1, 1024, &ro->chains, err)) ||
        (rc = bsl_params_size(p, "kmax", ro->kmax, 1, 100000, &ro->kmax, err)))
        return rc;
    ro->seed = P->seed;
    size_t threads = 0;
    if ((rc = bsl_params_size(p, "threads", 0, 0, 1024, &threads, err))) return rc;
    ro->threads = (int)threads;
    ro->progress = o->progress;
    ro->progress_user = o->progress_user;
    return BASEL_OK;
}

static int fit_rbf(json_t *doc, const bsl_problem *P, const basel_options *o, basel_error *err)
{
    bsl_rbf_options ro;
    int rc = rbf_options(&ro, P, o, err);
    bsl_rbf_result *r = NULL;
    if (rc || (rc = bsl_rbf_fit(P->X, P->n, P->d, P->Y, P->c, &ro, &r, err))) return rc;
    size_t len = 0;
    const double *kp = bsl_rbf_k_posterior(r, &len);
    const size_t k = bsl_rbf_k(r);
    double *size = bsl_calloc(BSL_MAX(len, k + 1), sizeof *size);
    if (!size) {
        bsl_rbf_free(r);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    const size_t kmax = kp && len ? len - 1 : k;
    if (kp && len) memcpy(size, kp, len * sizeof *size);
    else size[k] = 1.0; /* anneal: the MAP network */
    rc = common_summaries(doc, NULL, 0, NULL, size, kmax, json_array(), err);
    free(size);
    json_object_set_new(doc, "k", json_integer((json_int_t)k));
    if (ro.temperature_mode == BSL_RBF_ANNEAL)
        json_object_set_new(doc, "centres", bsl_json_doubles(bsl_rbf_centres(r), k * P->d));
    json_t *dg = json_object();
    char note[256];
    snprintf(note, sizeof note, "%s: k = %zu%s", ro.temperature_mode == BSL_RBF_ANNEAL ? "annealed MAP network" : "full-Bayes posterior mode",
             k, ro.temperature_mode == BSL_RBF_ANNEAL ? "" : " (posterior of k in model_size)");
    json_object_set_new(dg, "note", json_string(note));
    json_object_set_new(doc, "diagnostics", dg);
    json_t *eng = bsl_rbf_to_json(r);
    if (!eng) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    json_object_set_new(doc, "engine", eng);
    bsl_rbf_free(r);
    return rc;
}

/* The engine reads d columns of X and writes p->c outputs: both must be
 * the document's ("inputs", "targets"), or it reads or writes out of bounds. */
static int engine_shape(const char *m, size_t d_engine, size_t c_engine, size_t d, size_t c,
                        basel_error *err)
{
    if (d_engine == d && c_engine == c) return BASEL_OK;
    return bsl_fail(err, BASEL_EPARSE,
                    "the fit's %s engine has %zu inputs and %zu targets, its \"inputs\" and \"targets\" list %zu and %zu",
                    m, d_engine, c_engine, d, c);
}

static int predict_regression_engine(const json_t *doc, const char *m, const double *X, size_t n,
                                     size_t d, double level, basel_pred *p, basel_error *err)
{
    int rc;
    if (!strcmp(m, "smc")) {
        bsl_smc *s = NULL;
        if ((rc = bsl_smc_from_json(&s, json_object_get(doc, "engine"), err))) return rc;
        if (!(rc = engine_shape(m, bsl_smc_dim(s), 1, d, p->c, err)) &&
            bsl_smc_predict(s, X, n, level, p->mean, p->lower, p->upper))
            rc = bsl_fail(err, BASEL_EPARSE, "the fit's smc engine could not predict");
        bsl_smc_free(s);
    } else {
        bsl_rbf_result *r = NULL;
        if ((rc = bsl_rbf_from_json(&r, json_object_get(doc, "engine"), err))) return rc;
        if (!(rc = engine_shape(m, bsl_rbf_dim(r), bsl_rbf_outputs(r), d, p->c, err)) &&
            bsl_rbf_predict(r, X, n, level, p->mean, p->lower, p->upper))
            rc = bsl_fail(err, BASEL_EPARSE, "the fit's %s engine could not predict", m);
        bsl_rbf_free(r);
    }
    return rc;
}

/* ------------------------------------------------------------ dispatch */

int bsl_fit_engine(json_t *doc, const bsl_problem *P, const basel_options *o, bsl_vs_result **draws,
                   basel_error *err)
{
    if (strcmp(P->method, "mixture") == 0) return fit_mixture(doc, P, o, draws, err);
    if (strcmp(P->method, "smc") == 0) return fit_smc(doc, P, o, err);
    return fit_rbf(doc, P, o, err); /* anneal, and rj with centres=free */
}

int bsl_engine_predict(const json_t *doc, const double *X, size_t n, size_t d, double level,
                       basel_pred *p, basel_error *err)
{
    const char *m = json_string_value(json_object_get(doc, "method"));
    if (!m) return bsl_fail(err, BASEL_EPARSE, "the fit names no method");
    if (!strcmp(m, "mixture")) return predict_mixture(doc, X, n, d, p, err);
    return predict_regression_engine(doc, m, X, n, d, level, p, err);
}
