/*
 * rbf_engine.c: two entries of the engine table (engine.h) for RBF networks
 * with free centres (paper 002): anneal (simulated annealing to the
 * AIC / BIC / MDL-calibrated MAP network) and rbf (the full-Bayes
 * reversible-jump sampler). `--method rj --basis ...:centres=free` is an
 * alias of rbf (registry.c).
 */
#include "rbf.h"
#include "../engine.h"
#include "../../core/jsonutil.h"
#include "../../core/spec.h"
#include "../../problem/problem.h"
#include "../../model/model.h"
#include "../../summary/summary.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

static const bsl_engine_option full_options[] = {
    {"basis", "cubic"}, {"standardize", "no"}, {"kmax", "50"}, {"iter", "20000"}, {"burn", "5000"},
    {"chains", "4"},    {"box", "1.2"},        {"zeta", "0"},  {NULL, NULL},
};

static const bsl_engine_option anneal_options[] = {
    {"basis", "cubic"}, {"prior", "mdl"}, {"standardize", "no"}, {"kmax", "50"},      {"iter", "20000"},
    {"burn", "5000"},   {"chains", "4"},  {"box", "1.2"},        {"zeta", "0"},       {"schedule", "geometric"},
    {"t0", "1"},        {"t-end", "0.001"}, {NULL, NULL},
};

static int rbf_options(bsl_rbf_options *ro, const bsl_engine_ctx *ctx, int anneal, basel_error *err)
{
    const bsl_problem *P = ctx->P;
    const bsl_params *p = ctx->settings;
    bsl_rbf_options_default(ro);
    ro->temperature_mode = anneal ? BSL_RBF_ANNEAL : BSL_RBF_FULL;
    bsl_spec sp;
    int rc = bsl_spec_parse(&sp, "basis", bsl_params_get(p, "basis"), err);
    if (rc) return rc;
    const int kind = bsl_basis_kind_from_name(sp.name);
    if (kind < 0 || !bsl_basis_is_radial((bsl_basis_kind)kind))
        return bsl_fail(err, BASEL_EINVAL, "--method %s fits RBF networks: give --basis gauss:r=R, cubic, tps or lin-rbf",
                        ctx->def->name);
    ro->radial = kind;
    double lin = 1, width = ro->width;
    if (kind == BSL_BASIS_GAUSS) {
        /* no r, or r=auto: the width is sampled (rbf_moves.c), log-uniform on
         * [r-min, r-max], by default [delta / 16, 4 delta] with delta the
         * median pairwise distance of the inputs, starting at delta / 2 */
        bsl_spec peek = sp;
        const int sampled = !bsl_spec_has(&sp, "r") || strcmp(bsl_spec_text(&peek, "r"), "auto") == 0;
        if (sampled) {
            if (bsl_spec_has(&sp, "r")) (void)bsl_spec_text(&sp, "r");
            const double delta = bsl_dict_median_distance(P->X, P->n, P->d);
            if ((rc = bsl_spec_double(&sp, "r-min", delta / 16, 1e-300, 1e300, &ro->width_lo, err)) ||
                (rc = bsl_spec_double(&sp, "r-max", 4 * delta, 1e-300, 1e300, &ro->width_hi, err)))
                return rc;
            if (!(ro->width_hi > ro->width_lo))
                return bsl_fail(err, BASEL_EINVAL, "--basis gauss: r-max must be above r-min");
            ro->sample_width = 1;
            width = fmin(fmax(delta / 2, ro->width_lo), ro->width_hi);
        } else if ((rc = bsl_spec_double(&sp, "r", width, 1e-300, 1e300, &width, err))) {
            return rc;
        }
    }
    if ((rc = bsl_spec_double(&sp, "linear-term", 1, 0, 1, &lin, err))) return rc;
    if (bsl_spec_has(&sp, "centres")) {
        for (size_t i = 0; i < sp.nkv; i++)
            if (!strcmp(sp.key[i], "centres")) {
                sp.used |= 1u << i;
                if (strcmp(sp.val[i], "free"))
                    return bsl_fail(err, BASEL_EINVAL, "--basis ...:centres='%s': only 'free' is accepted here", sp.val[i]);
            }
    }
    if ((rc = bsl_spec_finish(&sp, kind == BSL_BASIS_GAUSS ? (ro->sample_width ? "r, r-min, r-max, linear-term, centres"
                                                                             : "r, linear-term, centres")
                                                        : "linear-term, centres",
                              err)))
        return rc;
    ro->width = width;
    ro->linear_term = lin != 0;
    if (anneal) {
        bsl_coef_prior cp;
        if ((rc = bsl_coef_prior_parse(&cp, bsl_params_get(p, "prior"), P->n, P->c, err))) return rc;
        if (!cp.type->criterion)
            return bsl_fail(err, BASEL_EINVAL, "--method anneal maximises a calibrated criterion: --prior aic, bic or mdl");
        ro->criterion = cp.type;
        const char *sc = bsl_params_get(p, "schedule"); /* checked against the catalogue's choices */
        ro->schedule = !strcmp(sc, "linear") ? BSL_RBF_LINEAR : !strcmp(sc, "logarithmic") ? BSL_RBF_LOG : BSL_RBF_GEOMETRIC;
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
    ro->seed = ctx->seed;
    ro->threads = ctx->threads;
    ro->progress = ctx->progress;
    ro->progress_user = ctx->progress_user;
    ro->checkpoint = ctx->checkpoint;
    ro->restart = ctx->restart;
    ro->checkpoint_every = ctx->checkpoint_every;
    ro->run_id = ctx->run_id;
    ro->ranks = ctx->ranks;
    return BASEL_OK;
}

/* R-hat and ESS of k, and the warnings of the rule of summary.h
 * (bsl_conv_warnings): the sampler's only summary is the posterior of k. */
static int k_diagnostics(bsl_result *res, const bsl_rbf_result *r)
{
    bsl_conv_check cc = {.what = "number of RBFs", .size_name = "the number of RBFs"};
    bsl_rbf_k_convergence(r, &cc.size.rhat, &cc.size.ess_bulk, &cc.size.ess_tail, &cc.draws, &cc.chains);
    /* the moves that change the number of RBFs: birth, death, split, merge
     * (an update moves a centre and keeps k) */
    for (int v = BSL_RBF_BIRTH; v <= BSL_RBF_MERGE; v++) {
        double p, a;
        bsl_rbf_acceptance(r, v, &p, &a);
        cc.moves_proposed += p, cc.moves_accepted += a;
    }
    json_t *dg = res->diagnostics;
    int bad = 0;
    if (!isnan(cc.size.rhat)) bsl_json_put(dg, "rhat_size", bsl_json_rhat(cc.size.rhat), &bad);
    if (isfinite(cc.size.ess_bulk)) bsl_json_put(dg, "ess_size", json_real(cc.size.ess_bulk), &bad);
    if (isfinite(cc.size.ess_tail)) bsl_json_put(dg, "ess_tail_size", json_real(cc.size.ess_tail), &bad);
    if (bad) return BASEL_ENOMEM;
    char w[BSL_CONV_MAX_WARNINGS][BSL_CONV_WARNING_LEN];
    const size_t nw = bsl_conv_warnings(&cc, "run longer (--iter, --burn) or with more chains (--chains)", w);
    for (size_t i = 0; i < nw; i++)
        if (bsl_result_warn(res, w[i])) return BASEL_ENOMEM;
    return BASEL_OK;
}

static int fit_rbf(bsl_engine_ctx *ctx, bsl_result *res, int anneal, basel_error *err)
{
    const bsl_problem *P = ctx->P;
    bsl_rbf_options ro;
    int rc = rbf_options(&ro, ctx, anneal, err);
    bsl_rbf_result *r = NULL;
    if (rc || (rc = bsl_rbf_fit(P->X, P->n, P->d, P->Y, P->c, &ro, &r, err))) return rc;
    size_t len = 0;
    const double *kp = bsl_rbf_k_posterior(r, &len);
    const size_t k = bsl_rbf_k(r);
    rc = bsl_result_init(res, 0, 0) ? BASEL_ENOMEM : BASEL_OK;
    /* anneal finds one network (the MAP): no PIPs, no size posterior, no
     * selected models; the full-Bayes sampler's centres move, so only the
     * posterior of k means something */
    if (!rc && !anneal && kp && len) {
        res->kmax = len - 1;
        if (!(res->size_prob = bsl_malloc(len, sizeof *res->size_prob))) rc = BASEL_ENOMEM;
        else memcpy(res->size_prob, kp, len * sizeof *kp);
    }
    if (!rc && !(res->extra = json_object())) rc = BASEL_ENOMEM;
    if (!rc) {
        int bad = 0;
        bsl_json_put(res->extra, "k", json_integer((json_int_t)k), &bad);
        if (anneal) bsl_json_put(res->extra, "centres", bsl_json_doubles(bsl_rbf_centres(r), k * P->d), &bad);
        res->prior = anneal ? json_pack("{s:s}", "coefficients", bsl_params_get(ctx->settings, "prior"))
                            : json_pack("{s:s, s:s}", "coefficients",
                                        "g-prior with delta^2 ~ IG(2, 10) sampled, sigma^2 Jeffreys (paper 002)",
                                        "model", "truncated Poisson on k, Lambda ~ Gamma(0.5, 0.001) sampled (paper 002)");
        char note[256];
        char wnote[128] = "";
        if (ro.sample_width) {
            double wp, wa;
            bsl_rbf_width_moves(r, &wp, &wa);
            snprintf(wnote, sizeof wnote, "; gauss width %s %.4g (sampled on [%.3g, %.3g], %.0f%% of width moves accepted)",
                     anneal ? "of the MAP network" : "posterior mean", bsl_rbf_width(r), ro.width_lo, ro.width_hi,
                     100 * wa / fmax(wp, 1));
        }
        snprintf(note, sizeof note, "%s: k = %zu%s%s", anneal ? "annealed MAP network" : "full-Bayes posterior mode", k,
                 anneal ? "" : " (posterior of k in model_size)", wnote);
        bsl_json_put(res->diagnostics, "note", json_string(note), &bad);
        if (bad || !res->prior) rc = BASEL_ENOMEM;
        if (!rc && !anneal) rc = k_diagnostics(res, r);
        double done, planned;
        if (!rc && bsl_rbf_interrupted(r, &done, &planned)) rc = bsl_result_interrupted(res, done, planned);
        if (!rc && !(res->engine = bsl_rbf_to_json(r))) rc = BASEL_ENOMEM;
    }
    bsl_rbf_free(r);
    return rc ? bsl_fail(err, rc, "out of memory") : BASEL_OK;
}

static int fit_anneal(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err) { return fit_rbf(ctx, res, 1, err); }
static int fit_full(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err) { return fit_rbf(ctx, res, 0, err); }

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

static int predict_rbf(const json_t *doc, const double *X, size_t n, size_t d, const char *model, double level,
                       basel_pred *p, basel_error *err)
{
    const char *m = json_string_value(json_object_get(doc, "method"));
    bsl_rbf_result *r = NULL;
    int rc = bsl_rbf_from_json(&r, json_object_get(doc, "engine"), err);
    if (rc) return rc;
    if (!(rc = engine_shape(m ? m : "rbf", bsl_rbf_dim(r), bsl_rbf_outputs(r), d, p->c, err)) &&
        (rc = bsl_rbf_predict(r, X, n, level, p->mean, p->no_interval ? NULL : p->lower,
                              p->no_interval ? NULL : p->upper, p->sd, p->sdf)))
        rc = rc == BASEL_ENOMEM ? bsl_fail(err, rc, "out of memory")
                                : bsl_fail(err, BASEL_EPARSE, "the fit's %s engine could not predict", m ? m : "rbf");
    p->has_sd = !rc;
    bsl_rbf_free(r);
    return rc;
}

/* engine.h's check: the network block loads (values as well as shapes,
 * rbf_json.c) and fits the document's inputs and targets. */
static int check_rbf(const json_t *doc, const char *source, basel_error *err)
{
    const char *m = json_string_value(json_object_get(doc, "method"));
    bsl_rbf_result *r = NULL;
    int rc = bsl_rbf_from_json(&r, json_object_get(doc, "engine"), err);
    if (!rc)
        rc = engine_shape(m ? m : "rbf", bsl_rbf_dim(r), bsl_rbf_outputs(r), json_array_size(json_object_get(doc, "inputs")),
                          json_array_size(json_object_get(doc, "targets")), err);
    bsl_rbf_free(r);
    return bsl_engine_check_failed(err, rc, source);
}

static const char *const map_only[] = {"map", NULL};

const bsl_engine_def bsl_engine_anneal = {
    .name = "anneal",
    .checkpoints = 1,
    .summary = "RBF network with free centres, simulated annealing to the AIC / BIC / MDL optimum (paper 002)",
    .unit = "moves",
    .target = BSL_TARGET_NUMERIC,
    .options = anneal_options,
    .models = map_only,
    .fit = fit_anneal,
    .predict = predict_rbf,
    .check = check_rbf,
    .centres = bsl_rbf_json_centres,
};

const bsl_engine_def bsl_engine_rbf = {
    .name = "rbf",
    .checkpoints = 1,
    .summary = "RBF network with free centres, full-Bayes reversible jump (birth, death, split, merge, update; paper 002)",
    .unit = "moves",
    .target = BSL_TARGET_NUMERIC,
    .options = full_options,
    .models = NULL,
    .fit = fit_full,
    .predict = predict_rbf,
    .check = check_rbf,
    .centres = bsl_rbf_json_centres,
    /* the free-centre RBF sampler was once `rj` with a basis key: old
     * command lines still run */
    .alias_of = "rj",
    .alias_basis = "centres=free",
};
