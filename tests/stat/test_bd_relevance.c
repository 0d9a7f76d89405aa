/*
 * test_bd_relevance.c: bd with the inputs' relevance sampled inside the
 * kernel (--relevance select|grid, engine/bd/bd_relevance.h) converges to
 * the exact joint posterior over (centres, input scales).
 *
 * Reference: on a tiny kernel problem (n = 12 rows, 2 or 3 inputs, a
 * Gaussian kernel at each row, m = 12 atoms) every input setting eta of the
 * grid (select: {0, 1}^d; grid: {0, 1/2, 1, 2}^d) and every subset A of the
 * atoms is scored exactly,
 *     pi(A, eta) ∝ p(y | A, eta) p(A) p(eta),
 * p(y | A, eta) from a dense design of the dictionary with the inputs
 * scaled by eta (basis.h input_scale; not the chains' source columns, so
 * the two routes to the columns check each other), p(A) the model prior,
 * p(eta) = prod_a p(eta_a) with p(0) = 1/2 and the non-zero levels sharing
 * 1/2 (written here again, independently of bd_relevance.c). The exact
 * answers are the atoms' PIPs and size probabilities marginal over eta, each
 * input's PIP P(eta_a > 0), and (grid) each input's mean scale E eta_a / 2
 * (a number in [0, 1]).
 *
 * Bound (tests/stat/mcse.h): over R = 16 runs of 2 chains (seeds 1..R),
 * the mean must lie within t_{R-1} standard errors of the exact value (the
 * standard error from the runs' spread, floored at the binomial one), at
 * the level 1e-3 / K, K every check of the program (Bonferroni).
 *
 * Moves: with the atoms fixed (relevance-steps 1) and annealed (T = 5, 20
 * steps: the AIS path of bd_relevance.h).
 *
 * Run length: a relevance move every block (relevance-every 1), BD_ITER
 * blocks of rho = 1 after 1000 burn-in: 4000 in the fast tier, 40000 in the
 * full one (BASEL_TIER=full).
 */
#include "check.h"
#include "stat/mcse.h"
#include "engine/subset/subset.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { R = 16, CHAINS = 2, BURN = 1000, N = 12, MAXD = 3 };

typedef struct case_ {
    const char *name, *mode, *prior, *mprior;
    size_t d;
    const char *steps; /* relevance-steps: "1" the atoms stay, else annealed */
} case_;

static double X[MAXD * N], Y[N];

/* x1 on a grid over [-2, 2], x2 and x3 scrambled copies of it (noise
 * inputs), y = sin(2 x1) + N(0, 0.1^2) from a fixed seed */
static void make_data(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20261123);
    for (size_t i = 0; i < N; i++) {
        X[i] = -2 + 4 * ((double)i + 0.5) / N;
        X[N + i] = -2 + 4 * (double)((5 * i + 3) % N) / N;
        X[2 * N + i] = -2 + 4 * (double)((7 * i + 1) % N) / N;
        Y[i] = sin(2 * X[i]) + gsl_ran_gaussian(r, 0.1);
    }
    gsl_rng_free(r);
}

static const double *levels(const char *mode, size_t *nlev)
{
    static const double sel[] = {0, 1}, grid[] = {0, 0.5, 1, 2};
    *nlev = strcmp(mode, "select") == 0 ? 2 : 4;
    return *nlev == 2 ? sel : grid;
}

typedef struct exact {
    double pip[N], size[N + 1], input_pip[MAXD], input_scale[MAXD];
} exact;

/* log p(y | A) + log p(A) of every subset A (bits of mask) of the design's
 * atoms into lp (-inf when collinear); kmax bounds |A|. */
static int score_subsets(const bsl_design *D, const bsl_vs_problem *pb, double *lp)
{
    basel_error err;
    bsl_model *M;
    if (bsl_model_create(&M, D, &pb->prior, pb->kmax, &err)) return -1;
    for (unsigned mask = 0; mask < (1u << N); mask++) {
        bsl_model_clear(M);
        size_t k = 0;
        int ok = 1;
        for (size_t j = 0; j < N && ok; j++)
            if (mask >> j & 1) {
                ok = ++k <= pb->kmax && bsl_model_try_add(M, j) > -INFINITY && bsl_model_add(M, j) == BASEL_OK;
            }
        lp[mask] = ok ? M->log_ml + bsl_mprior_log(&pb->mprior, k) : -INFINITY;
    }
    bsl_model_free(M);
    return 0;
}

/* The exact joint posterior by enumeration over every eta and every A. */
static int enumerate_joint(const case_ *c, const bsl_vs_problem *pb0, exact *ex)
{
    size_t nlev;
    const double *lv = levels(c->mode, &nlev);
    size_t neta = 1;
    for (size_t a = 0; a < c->d; a++) neta *= nlev;
    double *lp = malloc(neta * (1u << N) * sizeof *lp);
    if (!lp) return -1;
    double top = -INFINITY;
    for (size_t e = 0; e < neta; e++) {
        double scale[MAXD], log_peta = 0;
        for (size_t a = 0, t = e; a < c->d; a++, t /= nlev) {
            scale[a] = lv[t % nlev];
            log_peta += t % nlev == 0 ? log(0.5) : log(0.5 / (double)(nlev - 1));
        }
        basel_error err;
        bsl_dict *dict;
        bsl_design *D;
        if (bsl_dict_create(&dict, "gauss:r=1", X, N, c->d, &err) || bsl_dict_set_input_scale(dict, scale) ||
            bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err)) {
            free(lp);
            return -1;
        }
        bsl_vs_problem pb = *pb0;
        pb.D = D;
        int rc = score_subsets(D, &pb, lp + e * (1u << N));
        bsl_design_free(D);
        bsl_dict_free(dict);
        if (rc) {
            free(lp);
            return -1;
        }
        for (unsigned mask = 0; mask < (1u << N); mask++) {
            lp[e * (1u << N) + mask] += log_peta;
            top = fmax(top, lp[e * (1u << N) + mask]);
        }
    }
    memset(ex, 0, sizeof *ex);
    double Z = 0;
    for (size_t e = 0; e < neta; e++)
        for (unsigned mask = 0; mask < (1u << N); mask++) {
            const double w = exp(lp[e * (1u << N) + mask] - top);
            if (w == 0) continue;
            Z += w;
            size_t k = 0;
            for (size_t j = 0; j < N; j++)
                if (mask >> j & 1) ex->pip[j] += w, k++;
            ex->size[k] += w;
            for (size_t a = 0, t = e; a < c->d; a++, t /= nlev) {
                ex->input_pip[a] += t % nlev ? w : 0;
                ex->input_scale[a] += w * lv[t % nlev] / 2;
            }
        }
    for (size_t j = 0; j < N; j++) ex->pip[j] /= Z;
    for (size_t k = 0; k <= N; k++) ex->size[k] /= Z;
    for (size_t a = 0; a < c->d; a++) ex->input_pip[a] /= Z, ex->input_scale[a] /= Z;
    free(lp);
    return 0;
}

static size_t case_checks(const case_ *c, size_t kmax)
{
    return N + kmax + 1 + c->d * (strcmp(c->mode, "grid") == 0 ? 2 : 1);
}

static void run_case(const case_ *c, size_t iter)
{
    basel_error err;
    bsl_dict *dict = NULL;
    bsl_design *D = NULL;
    bsl_vs_problem pb = {0};
    if (bsl_dict_create(&dict, "gauss:r=1", X, N, c->d, &err) ||
        bsl_design_create(&D, dict, X, N, Y, 1, (size_t)1 << 30, &err) ||
        bsl_coef_prior_parse(&pb.prior, c->prior, N, 1, &err) || bsl_mprior_parse(&pb.mprior, c->mprior, N, &err)) {
        CHECK(0, "setup %s: %s", c->name, err.message);
        return;
    }
    pb.D = D;
    pb.kmax = pb.mprior.kmax = N - 3;
    exact ex;
    const int erc = enumerate_joint(c, &pb, &ex);
    CHECK(erc == 0, "%s: enumeration", c->name);
    bsl_params prm = {0};
    bsl_params_set(&prm, "relevance", c->mode);
    bsl_params_set(&prm, "relevance-every", "1");
    bsl_params_set(&prm, "relevance-steps", c->steps);
    static double pip[N][R], size[N + 1][R], ipip[MAXD][R], iscale[MAXD][R];
    int rc = erc;
    for (size_t r = 0; r < R && rc == BASEL_OK; r++) {
        bsl_run run = {.iter = iter, .burn = BURN, .thin = 1, .chains = CHAINS, .seed = r + 1, .params = &prm};
        bsl_vs_result res;
        rc = bsl_bd_run(&pb, &run, &res, &err);
        CHECK(rc == BASEL_OK, "%s seed %zu: %s", c->name, r + 1, err.message);
        if (rc) break;
        CHECK(res.d_inputs == c->d && res.input_pip, "%s: the run reports %zu inputs' PIPs", c->name, res.d_inputs);
        for (size_t j = 0; j < N; j++) pip[j][r] = res.pip[j];
        for (size_t k = 0; k <= pb.kmax; k++) size[k][r] = res.size_prob[k];
        for (size_t a = 0; a < c->d && res.input_pip; a++) {
            ipip[a][r] = res.input_pip[a];
            iscale[a][r] = res.input_scale[a] / 2;
        }
        bsl_vs_result_free(&res);
    }
    if (rc == BASEL_OK) {
        const double n_total = (double)(R * CHAINS * iter);
        double worst = 0;
        for (size_t a = 0; a < c->d; a++) {
            CHECK_MC(ipip[a], R, ex.input_pip[a], 0, n_total, "%s: input %zu PIP", c->name, a + 1);
            worst = fmax(worst, mc_family.last_error);
            if (strcmp(c->mode, "grid") == 0) {
                CHECK_MC(iscale[a], R, ex.input_scale[a], 0, n_total, "%s: input %zu E scale / 2", c->name, a + 1);
                worst = fmax(worst, mc_family.last_error);
            }
        }
        for (size_t j = 0; j < N; j++) {
            CHECK_MC(pip[j], R, ex.pip[j], 0, n_total, "%s: atom %zu PIP", c->name, j);
            worst = fmax(worst, mc_family.last_error);
        }
        for (size_t k = 0; k <= pb.kmax; k++) {
            CHECK_MC(size[k], R, ex.size[k], 0, n_total, "%s: P(k = %zu)", c->name, k);
            worst = fmax(worst, mc_family.last_error);
        }
        printf("  %-55s input PIPs exact", c->name);
        for (size_t a = 0; a < c->d; a++) printf(" %.4f", ex.input_pip[a]);
        printf(" bd");
        for (size_t a = 0; a < c->d; a++) {
            double s = 0;
            for (size_t r = 0; r < R; r++) s += ipip[a][r] / R;
            printf(" %.4f", s);
        }
        printf("; max |mean - exact| %.4f\n", worst);
    }
    bsl_design_free(D);
    bsl_dict_free(dict);
}

int main(void)
{
    make_data();
    const case_ cases[] = {
        {"select, d = 2, ridge fixed, uniform, T = 1", "select", "ridge:lambda=1,sigma2=0.5", "uniform", 2, "1"},
        {"select, d = 2, ridge fixed, uniform, T = 5", "select", "ridge:lambda=1,sigma2=0.5", "uniform", 2, "5"},
        {"grid {0,1/2,1,2}, d = 2, ridge fixed, poisson:mean=3, T = 20", "grid", "ridge:lambda=1,sigma2=0.5",
         "poisson:mean=3", 2, "20"},
        {"select, d = 3, hier delta2=4, beta-binomial, T = 1", "select", "hier:delta2=4", "beta-binomial:a=1,b=1", 3,
         "1"},
        {"select, d = 3, hier delta2=4, beta-binomial, T = 20", "select", "hier:delta2=4", "beta-binomial:a=1,b=1", 3,
         "20"},
    };
    const size_t ncases = sizeof cases / sizeof *cases, iter = STAT_TIER(4000, 40000);
    size_t K = 0;
    for (size_t i = 0; i < ncases; i++) K += case_checks(&cases[i], N - 3);
    mc_plan(1e-3, K);
    printf("bd --relevance vs enumeration over (atoms, input scales) (%s tier): %d runs x %d chains x %zu blocks "
           "(+%d burn); t = %.2f\n",
           stat_tier_name(), R, CHAINS, iter, BURN, mc_quantile(R));
    for (size_t i = 0; i < ncases; i++) run_case(&cases[i], iter);
    mc_report();
    return check_report("test_bd_relevance");
}
