/*
 * smc_engine.c: the smc method's entry in the engine table (engine.h):
 * sequential Monte Carlo kernel regression, one pass over the rows (paper
 * 003), able to resume a saved particle system with later rows.
 */
#include "smc.h"
#include "../engine.h"
#include "../../core/spec.h"
#include "../../core/jsonutil.h"
#include "../../io/io.h"
#include "../../problem/problem.h"
#include "../../prior/prior.h"
#include "../../summary/summary.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* this engine's table entry (below): --resume checks a fit was made by it */
extern const bsl_engine_def bsl_engine_smc;

static const bsl_engine_option options[] = {
    {"basis", "gauss"},
    {"standardize", "no"},
    {"model-prior", "poisson:mean=1"},
    {"kmax", "50"},
    {"particles", "250"},
    {"resample", "stratified"},
    {"ess-threshold", "1"},
    {"shuffle", "0"},
    {"running", ""},
    {"resume", ""},
    {NULL, NULL},
};

/* --basis gauss:r=R (the kernels sit at the data points as they arrive). */
static int smc_options(bsl_smc_options *so, const bsl_engine_ctx *ctx, basel_error *err)
{
    const bsl_problem *P = ctx->P;
    const bsl_params *p = ctx->settings;
    bsl_smc_options_default(so);
    bsl_spec sp;
    int rc = bsl_spec_parse(&sp, "basis", bsl_params_get(p, "basis"), err);
    if (rc) return rc;
    if (strcmp(sp.name, "gauss") != 0)
        return bsl_fail(err, BASEL_EINVAL,
                        "--method smc places Gaussian kernels at the data points: give --basis gauss:r=R");
    if ((rc = bsl_spec_double(&sp, "r", so->width, 1e-300, 1e300, &so->width, err)) ||
        (rc = bsl_spec_finish(&sp, "r", err)))
        return rc;
    rc = bsl_params_size(p, "particles", so->particles, 1, 10000000, &so->particles, err);
    if (!rc) rc = bsl_params_double(p, "ess-threshold", so->ess_threshold, 0, 1, &so->ess_threshold, err);
    if (!rc) rc = bsl_params_size(p, "kmax", so->kmax, 1, 100000, &so->kmax, err);
    const char *rs = bsl_params_get(p, "resample");
    if (!rc && rs && (so->resample_scheme = bsl_smc_resample_from_name(rs)) < 0)
        rc = bsl_fail(err, BASEL_EINVAL, "--resample '%s': expected multinomial, systematic, stratified or residual", rs);
    bsl_mprior pr;
    if (rc || (rc = bsl_mprior_parse(&pr, bsl_params_get(p, "model-prior"), P->n, err))) return rc;
    if (pr.kind != BSL_MPRIOR_POISSON)
        return bsl_fail(err, BASEL_EINVAL, "--method smc takes a truncated Poisson prior (--model-prior poisson:mean=W)");
    so->poisson_mean = pr.mean;
    so->threads = ctx->threads;
    so->seed = ctx->seed;
    return rc ? rc : bsl_smc_options_check(so, err);
}

/* The order in which rows arrive: as in the file, or shuffled (seeded). */
static size_t *arrival_order(const bsl_problem *P, unsigned long seed, const bsl_params *settings)
{
    size_t *ord = bsl_malloc(P->n, sizeof *ord);
    if (!ord) return NULL;
    for (size_t i = 0; i < P->n; i++) ord[i] = i;
    if (strcmp(bsl_params_get(settings, "shuffle"), "1") == 0) {
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        if (!r) {
            free(ord);
            return NULL;
        }
        gsl_rng_set(r, bsl_mix_seed(seed, 0xfeedUL));
        gsl_ran_shuffle(r, ord, P->n, sizeof *ord);
        gsl_rng_free(r);
    }
    return ord;
}

/* The degeneracy warning (issue 30 item 5). The ESS after resampling is N
 * by construction; a weight collapse shows in the ESS before it, and path
 * degeneracy in how few particles the last resampling kept as ancestors
 * (Doucet and Johansen 2011, "A tutorial on particle filtering and
 * smoothing", sec. 3.5 and 4.1). Warn when the least ESS before resampling
 * fell below max(SMC_ESS_MIN_FRAC N, SMC_ESS_MIN) (1 / sum W_i^2 >= 1, so
 * the fraction alone could never warn at N <= 100; below 2 one particle
 * held nearly all the weight) or the distinct ancestors below
 * min(SMC_ANCESTORS_MIN, N / 10): the particle system then stands on a
 * handful of ancestors and its spread understates the posterior's. */
#define SMC_ESS_MIN_FRAC 0.01
#define SMC_ESS_MIN 2.0
#define SMC_ANCESTORS_MIN 10
static int degeneracy_warning(bsl_result *res, const bsl_smc *s)
{
    size_t at;
    const size_t N = bsl_smc_particles(s), uq = bsl_smc_unique_ancestors(s);
    const double ess = bsl_smc_ess_min(s, &at), floor_uq = fmin(SMC_ANCESTORS_MIN, (double)N / 10);
    const double floor_ess = fmax(SMC_ESS_MIN_FRAC * (double)N, SMC_ESS_MIN);
    const int low_ess = isfinite(ess) && ess < floor_ess;
    const int few = bsl_smc_resample_count(s) > 0 && (double)uq < floor_uq;
    if (!low_ess && !few) return BASEL_OK;
    char text[400];
    snprintf(text, sizeof text,
             "the particles degenerated: the least effective sample size before resampling was %.2f of %zu (at "
             "point %zu; below %g warns) and the last resampling kept %zu distinct ancestors (below %g warns): "
             "the particles understate the posterior's spread; use more --particles",
             ess, N, at, floor_ess, uq, floor_uq);
    return bsl_result_warn(res, text) ? BASEL_ENOMEM : BASEL_OK;
}

/* PIPs over the points seen, the posterior of k, and the particles' subsets
 * as the listed models. */
static int smc_summaries(bsl_result *res, const bsl_smc *s)
{
    size_t m;
    bsl_smc_candidates(s, &m);
    const size_t kmax = bsl_smc_get_options(s)->kmax;
    bsl_modelset set;
    if (bsl_result_init(res, m, 1) || bsl_modelset_init(&set, 0)) return BASEL_ENOMEM;
    int rc = BASEL_OK;
    res->kmax = kmax;
    if (!(res->size_prob = bsl_calloc(kmax + 1, sizeof *res->size_prob))) rc = BASEL_ENOMEM;
    for (size_t j = 0; j < m && !rc; j++) {
        char buf[32];
        snprintf(buf, sizeof buf, "point@%zu", j + 1);
        if (!(res->atom_names[j] = bsl_strdup(buf))) rc = BASEL_ENOMEM;
    }
    if (!rc) {
        bsl_smc_pip(s, res->pip);
        bsl_smc_k_posterior(s, res->size_prob);
        for (size_t i = 0; i < bsl_smc_particles(s) && !rc; i++) {
            const size_t *c;
            double w, s2, sb2;
            const size_t k = bsl_smc_particle(s, i, &c, &w, &s2, &sb2);
            if (bsl_modelset_add(&set, c, k, w, NAN)) rc = BASEL_ENOMEM;
        }
        bsl_modelset_sort(&set);
    }
    const size_t ntop = BSL_MIN(set.n, 20);
    if (!rc && !(res->models = bsl_calloc(ntop + 1, sizeof *res->models))) rc = BASEL_ENOMEM;
    for (size_t i = 0; i < ntop && !rc; i++, res->nmodels++) {
        bsl_result_model *rm = &res->models[i];
        rm->k = set.items[i].k;
        rm->prob = set.items[i].weight;
        rm->log_post = NAN;
        if (!(rm->atoms = bsl_malloc(rm->k + 1, sizeof *rm->atoms))) rc = BASEL_ENOMEM;
        else if (rm->k) memcpy(rm->atoms, bsl_modelset_atoms(&set, i), rm->k * sizeof *rm->atoms);
    }
    bsl_modelset_free(&set);
    res->has_selected = 1;
    json_t *dg = res->diagnostics;
    char note[256];
    snprintf(note, sizeof note, "%zu points, %zu particles, %zu resampling steps; E[k] = %.2f, E[sigma] = %.4g, final ESS %.1f",
             bsl_smc_points(s), bsl_smc_particles(s), bsl_smc_resample_count(s), bsl_smc_mean_k(s),
             bsl_smc_sigma_mean(s), bsl_smc_ess(s));
    int bad = 0;
    bsl_json_put(dg, "note", json_string(note), &bad);
    bsl_json_put(dg, "mean_k", bsl_json_real(bsl_smc_mean_k(s)), &bad);
    bsl_json_put(dg, "noise_sd", bsl_json_real(bsl_smc_sigma_mean(s)), &bad);
    if (!rc && !bad) rc = degeneracy_warning(res, s);
    return rc ? rc : bad ? BASEL_ENOMEM : BASEL_OK;
}

/* The options a resumed particle system keeps: a value the user gives that
 * differs from the saved fit's is refused; the others are the saved fit's. */
static const char *const kept_on_resume[] = {"basis", "particles", "resample", "ess-threshold", "kmax",
                                             "model-prior", "standardize"};

static int resume_state(bsl_smc **out, const bsl_engine_ctx *ctx, const char *path, basel_error *err)
{
    const bsl_problem *P = ctx->P;
    json_error_t je;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!doc) return bsl_fail_at(err, BASEL_EINVAL, path, je.line > 0 ? (size_t)je.line : 0,
                                 je.column > 0 ? (size_t)je.column : 0, "--resume: %s", je.text);
    int rc = BASEL_OK;
    const char *m = json_string_value(json_object_get(doc, "method"));
    if (bsl_engine_find(m) != &bsl_engine_smc) /* the table's entry, not its name spelt again */
        rc = bsl_fail_at(err, BASEL_EINVAL, path, 0, 0, "--resume needs a fit of --method %s", bsl_engine_smc.name);
    const json_t *saved = json_object_get(doc, "settings");
    for (size_t i = 0; i < sizeof kept_on_resume / sizeof *kept_on_resume && !rc; i++) {
        const char *name = kept_on_resume[i];
        const char *was = json_string_value(json_object_get(saved, name));
        const char *now = bsl_params_get(ctx->user, name);
        if (now && was && strcmp(now, was))
            rc = bsl_fail(err, BASEL_EINVAL, "--%s %s conflicts with the resumed fit's %s (%s): drop it to continue",
                          name, now, was, path);
        else if (was && bsl_params_set(ctx->settings, name, was))
            rc = bsl_fail(err, BASEL_EINVAL, "--resume: the saved %s is too long", name);
    }
    const json_t *tg = json_object_get(doc, "targets");
    if (!rc && (json_array_size(tg) != 1 || strcmp(json_string_value(json_array_get(tg, 0)) ? json_string_value(json_array_get(tg, 0)) : "", P->target_names[0])))
        rc = bsl_fail(err, BASEL_EINVAL, "--resume: the saved fit's target is not '%s'", P->target_names[0]);
    const json_t *in = json_object_get(doc, "inputs");
    for (size_t j = 0; j < P->d && !rc; j++) {
        const char *name = json_string_value(json_array_get(in, j));
        if (json_array_size(in) != P->d || !name || strcmp(name, P->input_names[j]))
            rc = bsl_fail(err, BASEL_EINVAL, "--resume: the saved fit's inputs are not this data's (input %zu: '%s')", j + 1,
                          P->input_names[j]);
    }
    if (!rc) rc = bsl_smc_from_json(out, json_object_get(doc, "engine"), 0, err);
    json_decref(doc);
    return rc;
}

static int fit_smc(bsl_engine_ctx *ctx, bsl_result *res, basel_error *err)
{
    const bsl_problem *P = ctx->P;
    if (P->c != 1) return bsl_fail(err, BASEL_EINVAL, "--method smc takes one target");
    bsl_smc *s = NULL;
    int rc;
    const char *resume = bsl_params_get(ctx->settings, "resume");
    if (*resume) { /* continue the particle system saved in an earlier fit */
        if ((rc = resume_state(&s, ctx, resume, err))) {
            bsl_smc_free(s);
            return rc;
        }
    } else {
        bsl_smc_options so;
        if ((rc = smc_options(&so, ctx, err)) || (rc = bsl_smc_create(&s, P->d, &so, err))) return rc;
    }
    size_t *ord = arrival_order(P, ctx->seed, ctx->settings);
    double *x = bsl_malloc(P->d + 1, sizeof *x);
    if (!ord || !x) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    /* --running (ctx->side, opened by the run layer): the one-step-ahead
     * prediction of each row before it is fed */
    FILE *run_out = ctx->side;
    if (!rc && run_out) fprintf(run_out, "t,row,y,y_mean,y_lower,y_upper\n");
    for (size_t t = 0; t < P->n && !rc; t++) {
        const size_t i = ord[t];
        for (size_t a = 0; a < P->d; a++) x[a] = P->X[a * P->n + i];
        double mu, lo, hi;
        if (run_out && bsl_smc_points(s) > 0) { /* a row is never silently skipped */
            if ((rc = bsl_smc_predict(s, x, 1, 0.95, &mu, &lo, &hi, NULL, NULL))) {
                rc = bsl_fail(err, rc, "--running: out of memory");
                break;
            }
            fprintf(run_out, "%zu,%zu,%.17g,%.17g,%.17g,%.17g\n", bsl_smc_points(s) + 1, i + 1, P->Y[i], mu, lo, hi);
        }
        rc = bsl_smc_feed(s, x, P->Y[i], err);
        /* every 64 points fed, and the last: the points done (a fit of fewer
         * than 64 rows still reports its sampling, and can be cancelled in it) */
        if (!rc && ctx->progress && ((t + 1) % 64 == 0 || t + 1 == P->n) &&
            ctx->progress((double)(t + 1), (double)P->n, ctx->progress_user))
            rc = bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    }
    free(ord);
    free(x);
    if (!rc && smc_summaries(res, s)) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!rc) {
        char mp[64];
        snprintf(mp, sizeof mp, "truncated poisson:mean=%.17g (paper 003)", bsl_smc_get_options(s)->poisson_mean);
        res->prior = json_pack("{s:s, s:s, s:i}", "coefficients",
                               "beta ~ N(0, sigma_beta^2 I), sigma^2 and sigma_beta^2 sampled (paper 003)", "model", mp,
                               "kmax", (json_int_t)bsl_smc_get_options(s)->kmax);
        if (!res->prior || !(res->engine = bsl_smc_to_json(s))) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    bsl_smc_free(s);
    return rc;
}

/* Predict with the saved particle system. */
static int predict_smc(const json_t *doc, const double *X, size_t n, size_t d, const char *model, double level,
                       basel_pred *p, basel_error *err)
{
    bsl_smc *s = NULL;
    int rc = bsl_smc_from_json(&s, json_object_get(doc, "engine"), 1, err);
    if (rc) return rc;
    if (bsl_smc_dim(s) != d || p->c != 1)
        rc = bsl_fail(err, BASEL_EPARSE, "the fit's smc engine has %zu inputs and 1 target, its \"inputs\" and \"targets\" list %zu and %zu",
                      bsl_smc_dim(s), d, p->c);
    else if ((rc = bsl_smc_predict(s, X, n, level, p->mean, p->no_interval ? NULL : p->lower,
                                   p->no_interval ? NULL : p->upper, p->sd, p->sdf)))
        rc = rc == BASEL_ENOMEM ? bsl_fail(err, rc, "out of memory")
                                : bsl_fail(err, BASEL_EPARSE, "the fit's smc engine could not predict");
    else
        p->has_sd = 1;
    bsl_smc_free(s);
    return rc;
}

/* engine.h's check: the particle system loads (values as well as shapes,
 * smc_json.c) and fits the document's inputs and target. */
static int check_smc(const json_t *doc, const char *source, basel_error *err)
{
    bsl_smc *s = NULL;
    int rc = bsl_smc_from_json(&s, json_object_get(doc, "engine"), 1, err);
    const size_t d = json_array_size(json_object_get(doc, "inputs")), c = json_array_size(json_object_get(doc, "targets"));
    if (!rc && (bsl_smc_dim(s) != d || c != 1))
        rc = bsl_fail(err, BASEL_EPARSE,
                      "the fit's smc engine has %zu inputs and 1 target, its \"inputs\" and \"targets\" list %zu and %zu",
                      bsl_smc_dim(s), d, c);
    bsl_smc_free(s);
    return bsl_engine_check_failed(err, rc, source);
}

const bsl_engine_def bsl_engine_smc = {
    .name = "smc",
    .summary = "sequential kernel regression, one pass over the data; --resume continues with later rows (paper 003)",
    .unit = "points",
    .side_output = "running",
    .target = BSL_TARGET_NUMERIC,
    .options = options,
    .models = NULL,
    .keeps_draws = 0,
    .fit = fit_smc,
    .predict = predict_smc,
    .check = check_smc,
    .centres = bsl_smc_centres,
};
