/*
 * test_rj_informed.c: rj's informed moves (--proposal informed,
 * rj_informed.c) against exact enumeration (bsl_enumerate) on lin_p15_n200
 * and the three correlated synthetic designs of stat/designs.h (ar1: AR(1)
 * rho = 0.9, m = 14; dup: near-duplicates of one strong signal; hidden: the
 * true model is not the marginally strongest).
 *
 * The target is the exact posterior over subsets: enumeration's PIPs,
 * P(k) and model probabilities. Cases: the g-prior (g = n) with the uniform
 * model prior on a dense Gram matrix; the g-prior with poisson:mean=3 and
 * hier (delta2 = 10) with beta-binomial(1, 1), both on a STREAMED design
 * (gram budget of one byte: the Gram rows come from the model's cache,
 * gram_rows.c); and the first and last again with a candidate set of 5
 * atoms forced after burn-in (--rj-candidates 5). Each case runs R = 16 independent one-chain runs (seeds
 * 1..R) with the Rao-Blackwellised PIPs (the informed default, a pass every
 * 10 moves) and R more with raw frequencies and draws kept (rj-rb-every=0,
 * seeds 101..100+R), and checks every PIP (both estimators), every size
 * probability, and the draw frequency of the three most probable models.
 * Bounds (tests/stat/mcse.h, CHECK_MC): the mean over the R runs within
 * t_{R-1}(1 - 1e-3 / (2K)) standard errors (the runs' spread, floored at
 * the binomial one) of the exact value, K the number of checks (Bonferroni:
 * a correct sampler fails the program with probability below 1e-3).
 * Iterations: 4000 moves per run after 500 burn-in in the fast tier
 * (an informed move scores all m atoms: it mixes per move as well as a sweep
 * of uniform moves), 100000 in the full one (BASEL_TIER=full).
 */
#include "check.h"
#include "stat/designs.h"
#include "stat/mcse.h"
#include "core/params.h"
#include "engine/subset/subset.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R = 16, BURN = 500, MAXM = 16, TOPM = 3 };

typedef struct setup {
    bsl_dict *dict;
    bsl_design *D;
    bsl_vs_problem pb;
} setup;

static int make(setup *s, const prob *p, const char *prior, const char *mprior, size_t budget)
{
    basel_error err;
    memset(s, 0, sizeof *s);
    if (bsl_dict_create(&s->dict, "linear", p->X, p->n, p->d, &err) ||
        bsl_design_create(&s->D, s->dict, p->X, p->n, p->Y, 1, budget, &err) ||
        bsl_coef_prior_parse(&s->pb.prior, prior, p->n, 1, &err) ||
        bsl_mprior_parse(&s->pb.mprior, mprior, p->d, &err)) {
        fprintf(stderr, "setup %s %s %s: %s\n", p->name, prior, mprior, err.message);
        return -1;
    }
    s->pb.D = s->D;
    s->pb.kmax = s->pb.mprior.kmax;
    return 0;
}

static void unmake(setup *s)
{
    bsl_design_free(s->D);
    bsl_dict_free(s->dict);
}

static size_t iter;
static double pair_accepted; /* pair moves accepted in a case's runs (forced pairs) */

/* 1 when the draw's atoms (sorted) are the model's */
static int same_set(const size_t *a, size_t ka, const size_t *b, size_t kb)
{
    if (ka != kb) return 0;
    for (size_t i = 0; i < ka; i++) {
        int in = 0;
        for (size_t l = 0; l < kb && !in; l++) in = a[i] == b[l];
        if (!in) return 0;
    }
    return 1;
}

typedef struct cfg {
    const char *prior, *mprior;
    size_t budget;
    const char *label;
    const char *cands; /* --rj-candidates (NULL: the default, auto) */
    const char *pairs; /* --rj-pairs (NULL: the default, auto) */
    const char *window; /* --rj-pair-window (NULL: the default) */
} cfg;

/* The first three take the default pair moves (rj_pairs.c: the pairs the
 * screen keeps, if any). The next two force a candidate set of a third of
 * the atoms after burn-in (rj_informed.c, "Candidate sets"): restricted
 * adds, deletes, swaps and slot passes, and the uniform moves outside the
 * set, without pair moves. The last two force pair moves over every pair
 * of atoms at most 3 apart (pairs = 100, more than there are: no screen),
 * alone and with the candidate set, which the pairs' atoms then join. */
static const cfg cases[] = {
    {"g", "uniform", (size_t)1 << 30, "dense", NULL, NULL, NULL},
    {"g", "poisson:mean=3", 1, "streamed", NULL, NULL, NULL},
    {"hier:delta2=10", "beta-binomial:a=1,b=1", 1, "streamed", NULL, NULL, NULL},
    {"g", "uniform", (size_t)1 << 30, "dense C=5", "5", "none", NULL},
    {"hier:delta2=10", "beta-binomial:a=1,b=1", 1, "streamed C=5", "5", "none", NULL},
    {"g", "uniform", (size_t)1 << 30, "dense pairs", "all", "100", "3"},
    {"hier:delta2=10", "beta-binomial:a=1,b=1", 1, "streamed C=5 pairs", "5", "100", "3"},
};

/* R one-chain informed runs; est_pip[j][r], est_size[k][r] (may be NULL),
 * est_top[t][r] the draw frequency of exact model t (may be NULL). */
static int replicate(const bsl_vs_problem *pb, const bsl_vs_result *ex, unsigned long seed0, const char *rb_every,
                     const cfg *c, double est_pip[][R], double est_size[][R], double est_top[][R],
                     const char *label)
{
    basel_error err;
    bsl_params params = {0};
    const char *cands = c->cands;
    bsl_params_set(&params, "proposal", "informed");
    if (rb_every) bsl_params_set(&params, "rj-rb-every", rb_every);
    if (cands) bsl_params_set(&params, "rj-candidates", cands);
    if (c->pairs) bsl_params_set(&params, "rj-pairs", c->pairs);
    if (c->window) bsl_params_set(&params, "rj-pair-window", c->window);
    if (c->pairs && strcmp(c->pairs, "none") != 0) bsl_params_set(&params, "rj-pair-rate", "0.5");
    for (size_t r = 0; r < R; r++) {
        bsl_run run = {.iter = iter, .burn = BURN, .thin = 1, .chains = 1, .seed = seed0 + r,
                       .keep_draws = est_top != NULL, .params = &params};
        bsl_vs_result res;
        int rc = bsl_rj_run(pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "rj informed %s seed %lu: %s", label, seed0 + r, err.message);
        if (rc) return rc;
        CHECK(strstr(res.engine_note, "acceptance") != NULL, "%s: engine note '%s'", label, res.engine_note);
        if (cands && strcmp(cands, "all") != 0 && !(c->pairs && strcmp(c->pairs, "none") != 0))
            /* the candidate set was used: the note says how large */
            CHECK(strstr(res.engine_note, "candidates 5 of ") != NULL, "%s: engine note '%s'", label, res.engine_note);
        if (c->pairs && strcmp(c->pairs, "none") != 0) { /* every pair within the window, and pair moves accepted */
            const size_t w = (size_t)atoi(c->window), m = pb->D->m, npairs = w * m - w * (w + 1) / 2;
            char want[64];
            snprintf(want, sizeof want, "; %zu pairs (first ", npairs);
            CHECK(strstr(res.engine_note, want) != NULL, "%s: engine note '%s' (want '%s')", label, res.engine_note,
                  want);
            const char *pa = strstr(res.engine_note, "pair add ");
            double add = 0, add_n = 0, del = 0, del_n = 0;
            CHECK(pa && sscanf(pa, "pair add %lf of %lf accepted, pair delete %lf of %lf", &add, &add_n, &del,
                               &del_n) == 4 && add_n > 0 && del_n > 0,
                  "%s: pair moves in the note: '%s'", label, res.engine_note);
            pair_accepted += add + del;
        }
        if (c->pairs && strcmp(c->pairs, "none") == 0)
            CHECK(strstr(res.engine_note, "pairs") == NULL, "%s: no pairs: '%s'", label, res.engine_note);
        for (size_t j = 0; j < pb->D->m; j++) est_pip[j][r] = res.pip[j];
        if (est_size)
            for (size_t k = 0; k <= pb->kmax; k++) est_size[k][r] = res.size_prob[k];
        for (size_t t = 0; est_top && t < TOPM; t++) {
            const size_t *ma = bsl_modelset_atoms(&ex->models, t), mk = ex->models.items[t].k;
            double hit = 0;
            for (size_t d = 0; d < res.ndraws; d++)
                hit += same_set(res.draw_atoms + res.draw_start[d], res.draw_start[d + 1] - res.draw_start[d], ma, mk);
            est_top[t][r] = res.ndraws ? hit / (double)res.ndraws : NAN;
        }
        bsl_vs_result_free(&res);
    }
    return BASEL_OK;
}

static void one_case(const prob *p, const cfg *c)
{
    setup s;
    if (make(&s, p, c->prior, c->mprior, c->budget)) {
        CHECK(0, "setup %s", p->name);
        return;
    }
    CHECK((c->budget > 1) == (s.D->G != NULL), "%s %s: design %s as asked", p->name, c->label,
          s.D->G ? "dense" : "streamed");
    basel_error err;
    bsl_vs_result ex;
    int rc = bsl_enumerate(&s.pb, NULL, &ex, &err);
    CHECK(rc == BASEL_OK, "enumerate %s %s %s: %s", p->name, c->prior, c->mprior, err.message);
    char label[128];
    snprintf(label, sizeof label, "%s %s %s %s", p->name, c->prior, c->mprior, c->label);
    double rb[MAXM][R], freq[MAXM][R], size[MAXM + 1][R], top[TOPM][R];
    const double n_total = (double)R * (double)iter;
    if (!rc) bsl_modelset_sort(&ex.models);
    pair_accepted = 0;
    if (!rc && p->d <= MAXM && !replicate(&s.pb, &ex, 1, NULL, c, rb, size, NULL, label) &&
        !replicate(&s.pb, &ex, 101, "0", c, freq, NULL, top, label)) {
        double w_rb = 0, w_f = 0, w_k = 0, w_t = 0, widest = 0;
        const double total = bsl_modelset_total(&ex.models);
        for (size_t j = 0; j < p->d; j++) {
            CHECK_MC(rb[j], R, ex.pip[j], 0, n_total, "%s: rao-blackwell PIP %zu", label, j);
            w_rb = fmax(w_rb, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
            CHECK_MC(freq[j], R, ex.pip[j], 0, n_total, "%s: frequency PIP %zu", label, j);
            w_f = fmax(w_f, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        for (size_t k = 0; k <= s.pb.kmax; k++) {
            CHECK_MC(size[k], R, ex.size_prob[k], 0, n_total, "%s: P(k = %zu)", label, k);
            w_k = fmax(w_k, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        for (size_t t = 0; t < TOPM; t++) {
            CHECK_MC(top[t], R, ex.models.items[t].weight / total, 0, n_total, "%s: P(model %zu) in the draws",
                     label, t + 1);
            w_t = fmax(w_t, mc_family.last_error), widest = fmax(widest, mc_family.last_bound);
        }
        if (c->pairs && strcmp(c->pairs, "none") != 0) /* the moves changed the set: the check saw them at work */
            CHECK(pair_accepted > 0, "%s: no pair move accepted in %d runs", label, 2 * R);
        if (c->pairs && strcmp(c->pairs, "none") != 0) printf("  pair moves accepted: %.0f\n", pair_accepted);
        printf("  %-7s %-15s %-22s %-8s max |mean - exact| rb %.4f freq %.4f P(k) %.4f models %.4f; widest bound %.4f\n",
               p->name, c->prior, c->mprior, c->label, w_rb, w_f, w_k, w_t, widest);
    }
    if (!rc) bsl_vs_result_free(&ex);
    unmake(&s);
}

/* --proposal's values: a typo is an error naming the choices */
static void bad_value(const prob *p)
{
    setup s;
    if (make(&s, p, "g", "uniform", (size_t)1 << 30)) return;
    basel_error err = {0};
    bsl_params params = {0};
    bsl_params_set(&params, "proposal", "informd");
    bsl_run run = {.iter = 10, .burn = 0, .thin = 1, .chains = 1, .seed = 1, .params = &params};
    bsl_vs_result res;
    int rc = bsl_rj_run(&s.pb, &run, &res, &err);
    CHECK(rc == BASEL_EINVAL && strstr(err.message, "auto, uniform or informed"), "--proposal informd: %d '%s'", rc,
          err.message);
    if (rc == BASEL_OK) bsl_vs_result_free(&res);
    bsl_params_set(&params, "proposal", "informed");
    bsl_params_set(&params, "rj-candidates", "some");
    rc = bsl_rj_run(&s.pb, &run, &res, &err);
    CHECK(rc == BASEL_EINVAL && strstr(err.message, "auto, all or a count"), "--rj-candidates some: %d '%s'", rc,
          err.message);
    if (rc == BASEL_OK) bsl_vs_result_free(&res);
    bsl_params_set(&params, "rj-candidates", "auto");
    bsl_params_set(&params, "rj-pairs", "few");
    rc = bsl_rj_run(&s.pb, &run, &res, &err);
    CHECK(rc == BASEL_EINVAL && strstr(err.message, "--rj-pairs 'few': expected auto, none or a count"),
          "--rj-pairs few: %d '%s'", rc, err.message);
    if (rc == BASEL_OK) bsl_vs_result_free(&res);
    unmake(&s);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20240611);
    prob probs[4];
    size_t np = 0;
    if (read_lin15(&probs[np]) == 0) np++;
    else CHECK(0, "could not read lin_p15_n200.csv");
    synth(&probs[np++], "ar1", r);
    synth(&probs[np++], "dup", r);
    synth(&probs[np++], "hidden", r);
    const size_t nc = sizeof cases / sizeof *cases;
    iter = STAT_TIER(4000, 100000);
    size_t K = 0;
    for (size_t i = 0; i < np; i++)
        for (size_t c = 0; c < nc; c++) {
            setup s;
            if (make(&s, &probs[i], cases[c].prior, cases[c].mprior, cases[c].budget)) continue;
            K += 2 * probs[i].d + s.pb.kmax + 1 + TOPM;
            unmake(&s);
        }
    mc_plan(1e-3, K);
    printf("rj informed vs enumeration (%s tier): %d one-chain runs x %zu moves (+%d burn) per estimator; t = %.2f\n",
           stat_tier_name(), R, iter, BURN, mc_quantile(R));
    for (size_t i = 0; i < np; i++)
        for (size_t c = 0; c < nc; c++) one_case(&probs[i], &cases[c]);
    bad_value(&probs[0]);
    mc_report();
    for (size_t i = 0; i < np; i++) {
        free(probs[i].X);
        free(probs[i].Y);
    }
    gsl_rng_free(r);
    return check_report("test_rj_informed");
}
