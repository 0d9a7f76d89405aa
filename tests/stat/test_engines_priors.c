/*
 * test_engines_priors.c: the model table's contract. Every collapsed engine
 * that runs on the table (rows of `engines`) crossed with every coefficient
 * prior of the prior table (bsl_coef_prior_types, each entry's `examples`
 * specs; a new entry is covered without an edit here; of the mixtures of
 * g-priors, whose every score is a quadrature, hyper-g's, as coef_gmix.c
 * says) and the spike and
 * slab (`ssvs_specs`) must reproduce the exact posterior of the same model:
 * PIPs, size probabilities, the model-averaged coefficients (the
 * coefficient table's means) and, for fixed hyperparameters, the 95%
 * intervals of every coefficient's model-averaged posterior (the
 * coefficient table's and the predictions' mixture of each model's
 * Student-t, subset_post.h). A prior written once in the table works in
 * every engine.
 *
 * Problem: a small correlated design (n = 60, m = 6 AR(1) inputs with rho =
 * 0.7; y = 0.8 x1 - 0.5 x3 + 0.3 x5 + N(0, 1)), model prior poisson:mean=2.
 * Exact answer: bsl_enumerate under the same prior; for ridge with sigma^2
 * and lambda sampled, which has no closed form, quadrature over (log
 * sigma^2, log lambda) of the enumerated marginals (as in
 * tests/stat/test_bd_ridge_gibbs.c), and over log g for the sampled g;
 * for the unscaled spike and slab
 * (sigma^2 a nuisance parameter of the model) bsl_ssvs_enumerate's dense
 * quadrature. The scaled spike and slab's enumeration through the table is
 * also checked against bsl_ssvs_enumerate's eigen form (1e-9). A sampled
 * nuisance is recognised by its names (g; sigma2, lambda): a new prior
 * with another sampled nuisance fails here until its quadrature is written.
 *
 * Tolerance, from the Monte Carlo error: each (engine, prior) runs S
 * independent single-chain runs (seeds 1..S, iter iterations after BURN); for every PIP and every size
 * probability, the mean over the runs must be within t * SE of the exact
 * value, SE = sd over runs / sqrt(S), t the Student-t (S - 1 df) quantile
 * that makes all the checks of this program together fail with probability
 * 1% when every engine is right (Bonferroni). SE is floored by the iid
 * binomial error sqrt(p (1 - p) / (S iter)): a chain of iter draws cannot
 * know a probability better, and runs that all give exactly 0 for a tiny p
 * would otherwise have SE = 0. A wrong prior (say, g = n in one engine and
 * g = 2n in the other) moves PIPs here by several hundredths, dozens of SEs;
 * a g that never moved from its start (g:a=3,b=6 starts at g = n = 60)
 * would miss the exact PIPs by up to 0.28.
 */
#include "check.h"
#include "core/params.h"
#include "engine/ssvs/ssvs.h"
#include "engine/subset/subset_post.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 60, M = 6, S = 10, G = 120 };

#define FAMILY_ALPHA 0.01
#define BURN 500

typedef int (*engine_fn)(const bsl_vs_problem *, const bsl_run *, bsl_vs_result *, basel_error *);

/* iter: the engine's unit (bd: blocks of duration 1, rj: moves, ssvs:
 * sweeps of M updates), chosen for a PIP SE of about 0.001 to 0.003 */
static const struct {
    const char *name;
    engine_fn run;
    size_t iter;
} engines[] = {
    {"bd", bsl_bd_run, 20000},
    {"rj", bsl_rj_run, 20000},
    {"ssvs", bsl_ssvs_run, 5000}, /* collapsed Gibbs over indicators */
};
enum { NENGINES = sizeof engines / sizeof engines[0] };

/* the spike and slab runs on its own model table (not a --prior name of
 * the collapsed models, so not in bsl_coef_prior_types) */
static const char *const ssvs_specs[] = {"ssvs:scaled=1,tau=0.5,c=50,a=1,b=1", "ssvs:scaled=0"};
enum { NSSVS = sizeof ssvs_specs / sizeof ssvs_specs[0], MAXPRIORS = 64 };

/* every spec: the table's examples, then the spike and slab's */
static size_t all_specs(const char **out)
{
    size_t n = 0;
    for (size_t t = 0; bsl_coef_prior_types[t]; t++)
        for (const char *const *e = bsl_coef_prior_types[t]->examples; e && *e && n < MAXPRIORS - NSSVS; e++)
            out[n++] = *e;
    for (size_t i = 0; i < NSSVS; i++) out[n++] = ssvs_specs[i];
    return n;
}

/* Exact model-averaged coefficients by quadrature: the sum over the grid
 * and the subsets of w * E[beta | A, nuisance] (beta from the model with
 * the grid's nuisance set), w normalised at the end. */
static void coef_accumulate(bsl_model *Mo, unsigned mask, double lw, double *lz, double *coef)
{
    double beta[M];
    bsl_model_coef_mean(Mo, beta);
    if (lw > *lz) { /* rescale what is there to the new maximum */
        const double f = isinf(*lz) ? 0 : exp(*lz - lw);
        for (size_t j = 0; j < M; j++) coef[j] *= f;
        *lz = lw;
    }
    const double w = exp(lw - *lz);
    for (size_t i = 0, j = 0; j < M; j++)
        if (mask >> j & 1) coef[j] += w * beta[i++];
}

/* The exact posterior of ridge with sampled sigma^2 and lambda: midpoint
 * rule in u = log sigma^2 in [-3, 2.5], v = log lambda in [-6, 4]; the
 * densities of u and v are p(1/sigma^2) / sigma^2 and p(lambda) lambda
 * (1/sigma^2 ~ Gamma(a, rate b), lambda ~ Gamma(c, rate d)). */
static void exact_sampled_ridge(const bsl_vs_problem *pb, double *pip, double *size, double *coef)
{
    static double lw[1 << M];
    basel_error err;
    double lc = -INFINITY, cw = -INFINITY; /* the coefficients' running scale and total log weight */
    memset(coef, 0, M * sizeof *coef);
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        bsl_model *Mo;
        bsl_model_create(&Mo, pb->D, &pb->prior, M, &err);
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) bsl_model_add(Mo, j);
        double acc = -INFINITY;
        for (int a = 0; a < G; a++)
            for (int b = 0; b < G; b++) {
                const double u = -3 + 5.5 * (a + 0.5) / G, v = -6 + 10.0 * (b + 0.5) / G;
                bsl_coef_prior pr = pb->prior;
                pr.sigma2 = exp(u);
                pr.lambda = exp(v);
                bsl_model_set_prior(Mo, &pr);
                const double prec = 1 / pr.sigma2;
                const double lp_u = log(gsl_ran_gamma_pdf(prec, pr.a, 1 / pr.b)) + log(prec);
                const double lp_v = log(gsl_ran_gamma_pdf(pr.lambda, pr.c, 1 / pr.d)) + v;
                acc = bsl_logaddexp(acc, Mo->log_ml + lp_u + lp_v);
                const double lwc = Mo->log_ml + lp_u + lp_v + bsl_mprior_log(&pb->mprior, Mo->k);
                coef_accumulate(Mo, mask, lwc, &lc, coef);
                cw = bsl_logaddexp(cw, lwc);
            }
        bsl_model_free(Mo);
        lw[mask] = acc + bsl_mprior_log(&pb->mprior, (size_t)__builtin_popcount(mask));
    }
    for (size_t j = 0; j < M; j++) coef[j] *= exp(lc - cw);
    const double lz = bsl_logsumexp(lw, 1u << M);
    memset(pip, 0, M * sizeof *pip);
    memset(size, 0, (M + 1) * sizeof *size);
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        const double w = exp(lw[mask] - lz);
        size[__builtin_popcount(mask)] += w;
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) pip[j] += w;
    }
}

/* The exact posterior of the g-prior with g ~ IG(a, b) sampled: midpoint
 * rule in u = log g in [-6, 14] (density p(g) g) over the closed-form
 * marginal of each subset, which depends on g only through the formula. */
static void exact_sampled_g(const bsl_vs_problem *pb, double *pip, double *size, double *coef)
{
    static double lw[1 << M];
    basel_error err;
    double lc = -INFINITY, cw = -INFINITY;
    memset(coef, 0, M * sizeof *coef);
    const double a = pb->prior.a, b = pb->prior.b;
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        bsl_model *Mo;
        bsl_model_create(&Mo, pb->D, &pb->prior, M, &err);
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) bsl_model_add(Mo, j);
        double acc = -INFINITY;
        for (int i = 0; i < 4 * G; i++) {
            const double u = -6 + 20.0 * (i + 0.5) / (4 * G);
            bsl_coef_prior pr = pb->prior;
            pr.g = exp(u);
            const double lp_u = a * log(b) - lgamma(a) - a * u - b / pr.g; /* log IG(g) + u */
            const double l = bsl_log_ml_formula(&pr, N, 1, 1, Mo->k, Mo->logdet, Mo->quad, pb->D->yy) + lp_u;
            acc = bsl_logaddexp(acc, l);
            bsl_model_set_prior(Mo, &pr); /* E[beta | A, g] = g / (1 + g) betahat */
            const double lwc = l + bsl_mprior_log(&pb->mprior, Mo->k);
            coef_accumulate(Mo, mask, lwc, &lc, coef);
            cw = bsl_logaddexp(cw, lwc);
        }
        bsl_model_free(Mo);
        lw[mask] = acc + bsl_mprior_log(&pb->mprior, (size_t)__builtin_popcount(mask));
    }
    for (size_t j = 0; j < M; j++) coef[j] *= exp(lc - cw);
    const double lz = bsl_logsumexp(lw, 1u << M);
    memset(pip, 0, M * sizeof *pip);
    memset(size, 0, (M + 1) * sizeof *size);
    for (unsigned mask = 0; mask < (1u << M); mask++) {
        const double w = exp(lw[mask] - lz);
        size[__builtin_popcount(mask)] += w;
        for (size_t j = 0; j < M; j++)
            if (mask >> j & 1) pip[j] += w;
    }
}

/* Check the S-run mean of est (S x len) against exact (len). floor: the
 * smallest SE (coefficients and intervals: runs that visit every subset
 * weigh them exactly, SE 0, and then rounding must pass: 1e-9, far below
 * any Monte Carlo error here). */
static double compare(const char *what, const char *engine, const char *prior, const double *est,
                      const double *exact, size_t len, double t, size_t iter, double floor)
{
    double worst = 0;
    for (size_t j = 0; j < len; j++) {
        double mean = 0, var = 0;
        for (size_t s = 0; s < S; s++) mean += est[s * len + j] / S;
        for (size_t s = 0; s < S; s++) var += (est[s * len + j] - mean) * (est[s * len + j] - mean) / (S - 1);
        const double p = exact[j];
        const double se = fmax(fmax(sqrt(var / S), sqrt(fmax(p * (1 - p), 0.0) / ((double)S * (double)iter))), floor);
        const double z = fabs(mean - p) / se;
        worst = fmax(worst, z);
        CHECK(fabs(mean - p) <= t * se, "%s %s %s[%zu]: mean %.5f, exact %.5f, %.1f SE (bound %.1f, SE %.2g)",
              engine, prior, what, j, mean, p, z, t, se);
    }
    return worst;
}

/* The 95% interval of every atom's model-averaged coefficient from a
 * result's models (weights normalised over them): a point mass at 0 for
 * the models without the atom, one Student-t per model with it (location
 * beta_j, scale sqrt(scale2 V_jj), df: bsl_post_of, the prior table's
 * shrinkage, df and scale), as the coefficient table and predict mix them.
 * out: lower[0..M), upper[M..2M). */
static void intervals(const bsl_vs_problem *pb, const bsl_vs_result *vr, double *out)
{
    basel_error err;
    bsl_model *Mo;
    bsl_post post;
    const bsl_modelset *ms = &vr->models;
    double w[1 << M], mu[1 << M], sc[1 << M], df[1 << M], total = 0;
    if (bsl_model_create(&Mo, pb->D, &pb->prior, M, &err) || bsl_post_init(&post, M, 1)) {
        CHECK(0, "intervals: setup");
        return;
    }
    for (size_t i = 0; i < ms->n; i++) total += ms->items[i].weight;
    for (size_t j = 0; j < M; j++) {
        size_t K = 0;
        double w0 = 0;
        for (size_t i = 0; i < ms->n && K < (1u << M); i++) {
            const size_t *at = bsl_modelset_atoms(ms, i), k = ms->items[i].k;
            size_t pos = k;
            for (size_t a = 0; a < k; a++)
                if (at[a] == j) pos = a;
            if (pos == k) {
                w0 += ms->items[i].weight / total;
                continue;
            }
            CHECK(bsl_post_of(&post, Mo, at, k, 0) == BASEL_OK, "intervals: posterior of a model");
            w[K] = ms->items[i].weight / total;
            mu[K] = post.beta[pos];
            sc[K] = sqrt(post.scale2[0] * post.V[pos + pos * k]);
            df[K] = post.df;
            K++;
        }
        const bsl_tmix t = {w, mu, sc, df, K, w0};
        out[j] = bsl_tmix_quantile(&t, 0.025, NULL);
        out[M + j] = bsl_tmix_quantile(&t, 0.975, NULL);
    }
    bsl_post_free(&post);
    bsl_model_free(Mo);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2385);
    double X[N * M], Y[N];
    for (size_t i = 0; i < N; i++) {
        double prev = gsl_ran_ugaussian(r);
        for (size_t j = 0; j < M; j++) {
            if (j) prev = 0.7 * prev + sqrt(1 - 0.49) * gsl_ran_ugaussian(r);
            X[j * N + i] = prev;
        }
        Y[i] = 0.8 * X[i] - 0.5 * X[2 * N + i] + 0.3 * X[4 * N + i] + gsl_ran_ugaussian(r);
    }
    gsl_rng_free(r);
    basel_error err;
    bsl_dict *dict;
    bsl_design *D;
    if (bsl_dict_create(&dict, "linear", X, N, M, &err) ||
        bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err)) {
        fprintf(stderr, "setup: %s\n", err.message);
        return 1;
    }
    const char *priors[MAXPRIORS];
    const size_t NPRIORS = all_specs(priors);
    /* checks: per (engine, prior) M PIPs, M + 1 size probabilities, M
     * coefficients and 2 M interval ends */
    const double nchecks = (double)(NENGINES * NPRIORS * (5 * M + 1));
    const double t = gsl_cdf_tdist_Qinv(FAMILY_ALPHA / (2 * nchecks), S - 1);
    printf("%d runs per case; bound %.2f SE (family-wise %.0f%% over %.0f checks)\n", S, t,
           100 * FAMILY_ALPHA, nchecks);
    bsl_params params = {0};
    for (size_t p = 0; p < NPRIORS; p++) {
        bsl_vs_problem pb = {0};
        pb.D = D;
        pb.prior_spec = priors[p];
        const int is_ssvs = strncmp(priors[p], "ssvs", 4) == 0;
        CHECK((is_ssvs ? bsl_coef_prior_ssvs(&pb.prior, priors[p], &err)
                       : bsl_coef_prior_parse(&pb.prior, priors[p], N, 1, &err)) == BASEL_OK,
              "parse %s", priors[p]);
        CHECK(bsl_mprior_parse(&pb.mprior, "poisson:mean=2", M, &err) == BASEL_OK, "model prior");
        pb.kmax = pb.mprior.kmax = M;
        double pip[M], size[M + 1], coef[M], ci[2 * M];
        int has_coef = !is_ssvs, has_ci = 0;
        const char *const *nu_names = NULL;
        const size_t nnu = bsl_coef_sampled(&pb.prior) ? pb.prior.type->nuisance(&pb.prior, &pb.prior.g, 1, NULL, &nu_names) : 0;
        if (nnu == 1 && nu_names && strcmp(nu_names[0], "g") == 0) {
            exact_sampled_g(&pb, pip, size, coef);
        } else if (nnu == 2 && nu_names && strcmp(nu_names[0], "sigma2") == 0 && strcmp(nu_names[1], "lambda") == 0) {
            pb.prior.sigma2 = 1.0; /* the chains' start */
            exact_sampled_ridge(&pb, pip, size, coef);
        } else if (nnu) {
            CHECK(0, "%s: no quadrature for this sampled nuisance (%s, ...): write one here", priors[p],
                  nu_names ? nu_names[0] : "per output");
            continue;
        } else if (is_ssvs && !pb.prior.ssvs.scaled) {
            /* sigma^2 integrated by quadrature, independently of the model table */
            CHECK(bsl_ssvs_enumerate(&pb.prior.ssvs, &pb, pip, size, &err) == BASEL_OK, "ssvs enumerate");
            bsl_vs_result ex = {0}; /* a failed engine may leave it partly filled: free it */
            CHECK(bsl_enumerate(&pb, NULL, &ex, &err) == BASEL_EINVAL, "enumerate refuses %s", priors[p]);
            bsl_vs_result_free(&ex);
        } else {
            bsl_vs_result ex;
            CHECK(bsl_enumerate(&pb, NULL, &ex, &err) == BASEL_OK, "enumerate %s", priors[p]);
            memcpy(pip, ex.pip, sizeof pip);
            memcpy(size, ex.size_prob, sizeof size);
            memcpy(coef, ex.coef_bma, sizeof coef);
            if (!is_ssvs) intervals(&pb, &ex, ci);
            has_ci = !is_ssvs;
            bsl_vs_result_free(&ex);
            if (is_ssvs) { /* the table's rank-one marginal against the dense eigen form */
                double pd[M], sd[M + 1];
                CHECK(bsl_ssvs_enumerate(&pb.prior.ssvs, &pb, pd, sd, &err) == BASEL_OK, "ssvs enumerate");
                for (size_t j = 0; j < M; j++) CHECK_CLOSE(pip[j], pd[j], 1e-9, "ssvs pip: table vs dense");
                for (size_t k = 0; k <= M; k++) CHECK_CLOSE(size[k], sd[k], 1e-9, "ssvs size: table vs dense");
            }
        }
        for (size_t e = 0; e < NENGINES; e++) {
            double est_pip[S * M], est_size[S * (M + 1)], est_coef[S * M], est_ci[S * 2 * M];
            for (size_t s = 0; s < S; s++) {
                bsl_run run = {.iter = engines[e].iter, .burn = BURN, .thin = 1, .chains = 1, .threads = 1,
                               .seed = 1 + s, .top = 5, .params = &params};
                bsl_vs_result res;
                const int rc = engines[e].run(&pb, &run, &res, &err);
                CHECK(rc == BASEL_OK, "%s %s seed %zu: %s", engines[e].name, priors[p], s + 1, err.message);
                if (rc) return check_report("test_engines_priors");
                memcpy(est_pip + s * M, res.pip, M * sizeof(double));
                memcpy(est_size + s * (M + 1), res.size_prob, (M + 1) * sizeof(double));
                if (has_coef) memcpy(est_coef + s * M, res.coef_bma, M * sizeof(double));
                if (has_ci) intervals(&pb, &res, est_ci + s * 2 * M);
                bsl_vs_result_free(&res);
            }
            const double zp = compare("pip", engines[e].name, priors[p], est_pip, pip, M, t, engines[e].iter, 0);
            const double zs = compare("size", engines[e].name, priors[p], est_size, size, M + 1, t, engines[e].iter, 0);
            const double zc = has_coef ? compare("coef", engines[e].name, priors[p], est_coef, coef, M, t, engines[e].iter, 1e-9) : 0;
            const double zi = has_ci ? compare("interval", engines[e].name, priors[p], est_ci, ci, 2 * M, t, engines[e].iter, 1e-9) : 0;
            char cs[16] = "-", is[16] = "-"; /* "-": not checked (no exact value) */
            if (has_coef) snprintf(cs, sizeof cs, "%.2f", zc);
            if (has_ci) snprintf(is, sizeof is, "%.2f", zi);
            printf("  %-4s %-36s worst |mean - exact| / SE: pip %.2f  size %.2f  coef %s  interval %s\n",
                   engines[e].name, priors[p], zp, zs, cs, is);
        }
    }
    bsl_design_free(D);
    bsl_dict_free(dict);
    return check_report("test_engines_priors");
}
