/*
 * coef_prior.h: coefficient priors as a table of functions, in the style of
 * GSL's gsl_rng_type: one const bsl_coef_prior_type per prior (coef_g.c,
 * coef_ridge.c, coef_hier.c, coef_criteria.c; coef_prior.c holds the list,
 * the shared parts and the two priors of other model tables), and a prior
 * is {type, parameters}. Code outside these files asks the type, never
 * which prior it is: a prior added to bsl_coef_prior_types reaches
 * parsing, every collapsed engine, the coefficient table, prediction and
 * FIT.json without another edit.
 *
 * The formulas (model.h's opening comment holds the log marginals): every
 * collapsed prior scores an active set of k atoms from logdet = log|A_tau|,
 * quad_o = b_o' A_tau^{-1} b_o and yy_o = y_o' P y_o, per output o, with
 * N = n - q rows left after the q always-in columns.
 */
#ifndef BSL_COEF_PRIOR_H
#define BSL_COEF_PRIOR_H

#include "../core/spec.h"
#include "../linalg/linalg.h"

#include <gsl/gsl_rng.h>
#include <jansson.h>

/* The spike-and-slab prior of paper 001 (ssvs_model.c, engine/ssvs/ssvs.h
 * explains the keys). */
#define BSL_SSVS_KEYS "tau, tau2, c, p, a, b, scaled, collapsed"

typedef struct bsl_ssvs_prior {
    double tau, tau2, c, p; /* p < 0: use the model prior */
    double a, b;
    int scaled, collapsed;
} bsl_ssvs_prior;

/* The model table a prior runs on (model.h): the collapsed Gaussian linear
 * model (bsl_model_gauss), the spike and slab (bsl_model_ssvs), or a GLM
 * (glm.h; the prior parsed by bsl_glm_prior_parse). */
typedef enum bsl_coef_model {
    BSL_COEF_MODEL_GAUSS = 0,
    BSL_COEF_MODEL_SSVS = 1,
    BSL_COEF_MODEL_GLM = 2
} bsl_coef_model;

typedef struct bsl_coef_prior_type bsl_coef_prior_type;

/* A prior: its type and its parameters. The parameters are one flat set;
 * each type reads the fields its comment names and leaves the others 0. */
typedef struct bsl_coef_prior {
    const bsl_coef_prior_type *type;
    double g;             /* g, uip: g (current value when sampled) */
    double a0, b0;        /* g: IG(a0, b0) on sigma^2; 0, 0 = Jeffreys (BAS's marginal) */
    double sigma2;        /* ridge: noise variance (current value when sampled) */
    double lambda;        /* ridge: coefficient precision (current value when sampled) */
    int sample_nuisance;  /* ridge: 1 = sigma2 and lambda get Gibbs updates; g: 1 = g does */
    int g_per_output;     /* g: 1 = one g per output (rbf's delta_o^2), each with its own
                             Gibbs update; the model holds them (bsl_model g_o) */
    double a, b;          /* ridge: Gamma(a, b) on 1/sigma2; hier: IG(a, b) on sigma2;
                             g: IG(a, b) on g when sampled */
    double c, d;          /* ridge: Gamma(c, d) on lambda (paper 004 eq. 16) */
    double delta2;        /* hier */
    double penalty;       /* aic/bic/mdl: C per atom (c or c log(n)/2) */
    bsl_ssvs_prior ssvs;  /* ssvs */
    /* normal (the GLMs, glm.h): beta_j ~ N(0, sd^2) for every atom, the
     * intercept N(0, intercept_sd^2); is_draws: importance-sampling draws
     * per subset of the exact marginal likelihood (bsl_model_glm_exact) */
    double sd, intercept_sd;
    int glm_family;       /* glm.h: BSL_GLM_BINOMIAL, BSL_GLM_POISSON or BSL_GLM_MULTINOMIAL */
    size_t glm_class;     /* multinomial (glm_multi.h): the class c whose indicator 1[y = c]
                             a bsl_model_glm scores (targets: class numbers 0 .. C - 1) */
    size_t is_draws;
    unsigned long is_seed;
    int glm;              /* 1: a GLM's prior (glm.h bsl_glm_prior_parse), on glm.h's tables */
} bsl_coef_prior;

/* What a collapsed model knows of the active set, for the nuisance draws:
 * k atoms, c outputs, N = n - q; per output yy_o and quad_o; z = L^{-1} B_A'y
 * and bA = B_A'y (k x c, row-major); L L' = A_tau (tau); work: k doubles. */
typedef struct bsl_coef_suff {
    size_t k, c;
    double N, tau;
    const double *yy, *quad, *z, *bA;
    const bsl_chol *chol;
    double *work;
} bsl_coef_suff;

struct bsl_coef_prior_type {
    const char *name;      /* --prior's name and FIT.json's posterior.prior.kind */
    int id;                /* a number never reused: rbf's FIT.json block records its
                              criterion by it (0 g, 1 ridge, 2 hier, 3 aic, 4 bic, 5 mdl,
                              6 ssvs, 7 normal, 8 uip, 9 hyper-g, 10 hyper-g/n,
                              11 jzs, 12 robust, 13 eb-local, 14 eb-global) */
    bsl_coef_model model;
    const char *keys;      /* the keys parse accepts ("" none), for messages */
    /* --prior's help for it, the spec with its keys and defaults: the
     * option's help lists the table's entries from these (catalogue.c's
     * @priors@), so a new entry is in it without an edit there */
    const char *usage;
    /* specs the engines x priors test runs (tests/stat/
     * test_engines_priors.c), NULL-terminated: every key, fixed and
     * sampled nuisance, on its n = 60, m = 6 problem */
    const char *const *examples;
    const char *fixed_hint; /* the spec that fixes a sampled nuisance (enumerate's message) */
    int reads_logdet;      /* the score reads log|A_tau| (tau > 0 possible) */
    int tau_fixed;         /* tau does not depend on the nuisance: a new value rescores
                              without refactorising */
    int sigma2_given;      /* sigma^2 is a parameter of the state: beta | y, A is
                              N(A_tau^{-1} b, sigma^2 A_tau^{-1}) (bsl_model_coef_draw) */
    int criterion;         /* a flat prior calibrated by a penalty (anneal's criteria) */
    /* NULL: within one model the coefficients' posterior is the Student-t
     * of post_df and post_scale2 exactly. Else what the coefficient table's
     * intervals are instead (FIT.json coefficients.within_model), and
     * prediction intervals are refused (coef_gmix.c) */
    const char *within_model;
    int scale_free;        /* the posterior does not depend on the units of the targets
                              (nor of linear atoms): FIT.md "Extreme values" */

    /* "NAME[:key=value...]" after the name: fills p's fields (p->type is set). */
    int (*parse)(bsl_coef_prior *p, bsl_spec *s, size_t n, size_t c, basel_error *err);
    double (*tau)(const bsl_coef_prior *p);
    /* the log marginal (or score) of k atoms summed over the c outputs;
     * gv[o], lg[o]: output o's g and log1p(g) (NULL: p->g, computed) */
    double (*log_ml)(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k, double logdet,
                     const double *quad, const double *yy, const double *gv, const double *lg);
    /* The smallest quad worth scoring given the best quad of a pass and
     * within (model.c screen_floor); NULL: no screen. */
    double (*screen)(const bsl_coef_prior *p, double yy, double g, double N, double within, double qd_best);
    /* the posterior mean's shrinkage of A_tau^{-1} b for output o: E[g/(1+g)
     * | y, A] (g: the output's g; N, k, yy_o, quad_o: the model's sufficient
     * statistics, which a prior that mixes over g integrates against) */
    double (*shrink)(const bsl_coef_prior *p, double g, double N, size_t k, double yy, double quad);
    /* the Student-t predictive of one model (subset_post.h bsl_post): its
     * df, and its scale^2 for output o (s = shrink) */
    double (*post_df)(const bsl_coef_prior *p, double N, double k);
    double (*post_scale2)(const bsl_coef_prior *p, double N, double df, double yy, double quad, double s);
    /* E[sigma^2 | y, A] for output o (g: the output's g) */
    double (*sigma2_mean)(const bsl_coef_prior *p, double N, size_t k, double yy, double quad, double g);

    /* Nuisance parameters sampled with the atoms (p->sample_nuisance);
     * NULL nuisance_draw: the prior has none. */
    /* the start of a sampled nuisance the caller left unset (yy: c outputs) */
    void (*nuisance_start)(bsl_coef_prior *p, const double *yy, size_t c, double N);
    /* the current values (vals may be NULL) and their names (NULL: c unnamed
     * values, one per output); returns their count */
    size_t (*nuisance)(const bsl_coef_prior *p, const double *g_o, size_t c, double *vals,
                       const char *const **names);
    void (*nuisance_set)(bsl_coef_prior *p, double *g_o, size_t c, const double *vals);
    /* one Gibbs step of the nuisance given the active set: new values into
     * p (and g_o, per output); the caller then rescores */
    int (*nuisance_draw)(bsl_coef_prior *p, double *g_o, const bsl_coef_suff *s, gsl_rng *r);
    /* after the run: the nuisance at its posterior means (mean[i]: value i of
     * nuisance), for the summaries and predictions */
    void (*nuisance_fix)(bsl_coef_prior *p, const double *mean);
    /* a saved state's sigma2, lambda and c values of g are valid (1) */
    int (*nuisance_ok)(const bsl_coef_prior *p, const double *sc, size_t c);

    /* Non-NULL for a prior whose one g is chosen from every subset's score
     * (eb-global, coef_g.c), which no model's own statistics give: only a
     * method that scores every subset runs it (enumerate.c, with a first
     * walk; the samplers refuse it, subset.c). Given count subsets' scores
     * lm[i] made at p->g, their coefficient counts k[i] (columns: a factor
     * counts its indicators) and log model priors lp[i], with N = n - q,
     * sets p->g to the g that maximises sum_i exp(lp[i] + lm_g[i]). */
    int (*choose_g)(bsl_coef_prior *p, double N, size_t count, const double *k, const double *lm,
                    const double *lp, basel_error *err);

    /* GLMs (--family binomial | poisson, glm.h), as BAS's bas.glm scores
     * them: the integrated Laplace ("test-based") approximation of Li and
     * Clyde (2018, JASA, "Mixtures of g-priors in generalized linear
     * models", sec. 3), BAS src/glm_lpy.c gglm_lpy and the *_glm_logmarg
     * functions of src/betapriorfamily.c. With the MLE (alpha^, beta^) of
     * the model's k atoms, I_i = var(y_i) at it (mu (1 - mu), or mu),
     * Q = beta^' Xc' I Xc beta^ (Xc: the atoms centred by their I-weighted
     * means; the observed information of beta, the intercept profiled):
     *     log p(y | M) = loglik(MLE) + log sqrt(2 pi) - (1/2) log sum_i I_i
     *                    + glm_log_ml(p, n, k, Q)   (k >= 1; 0 for k = 0),
     * the intercept flat. glm_shrink: E[g/(1+g) | y, M] there (BAS's
     * shrinkage), the posterior mean of beta being shrink * beta^.
     * NULL: the prior is not offered for GLMs (glm.c's parser says so). */
    double (*glm_log_ml)(const bsl_coef_prior *p, double n, size_t k, double Q);
    double (*glm_shrink)(const bsl_coef_prior *p, double n, size_t k, double Q);

    /* FIT.json's posterior.prior block, and back (0, or -1 if malformed) */
    json_t *(*to_json)(const bsl_coef_prior *p);
    int (*from_json)(bsl_coef_prior *p, const json_t *o);
};

/* The priors --prior names (the collapsed Gaussian models'), NULL-terminated. */
extern const bsl_coef_prior_type *const bsl_coef_prior_types[];
extern const bsl_coef_prior_type bsl_coef_g, bsl_coef_ridge, bsl_coef_hier, bsl_coef_aic, bsl_coef_bic,
    bsl_coef_mdl, bsl_coef_uip, bsl_coef_hyper_g, bsl_coef_hyper_gn, bsl_coef_jzs, bsl_coef_robust,
    bsl_coef_eb_local, bsl_coef_eb_global;
/* not --prior names of the Gaussian models: ssvs_model.c and glm.c parse them */
extern const bsl_coef_prior_type bsl_coef_ssvs, bsl_coef_normal;

/* The entry of bsl_coef_prior_types called name, or NULL. */
const bsl_coef_prior_type *bsl_coef_prior_type_find(const char *name);

/* Parse --prior for n rows, c outputs. "" means the default, g:g=n. */
int bsl_coef_prior_parse(bsl_coef_prior *p, const char *spec, size_t n, size_t c, basel_error *err);
/* tau of A_tau for the prior's current settings. */
double bsl_coef_tau(const bsl_coef_prior *p);
/* Whether the prior's nuisance is sampled with the atoms. */
int bsl_coef_sampled(const bsl_coef_prior *p);

/* The log marginal likelihood (or score) from the three quantities above.
 * Shared by the incremental path and the dense tests. */
double bsl_log_ml_formula(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k,
                          double logdet, const double *quad, const double *yy);
/* The same with output o's g from g[o] (g-prior; g == NULL: p->g). */
double bsl_log_ml_formula_g(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k,
                            double logdet, const double *quad, const double *yy, const double *g);
/* The same with log1p(g[o]) given in lg[o] (NULL: computed here): a model
 * keeps it (bsl_model lg_o), since g changes at most once a sweep while the
 * samplers score several sets a move; the same bits either way. */
double bsl_log_ml_formula_lg(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k,
                             double logdet, const double *quad, const double *yy, const double *g,
                             const double *lg);

/* ---- shared parts of the entries (coef_prior.c) */

/* The posterior.prior block every prior writes: kind and the numbers g, a0,
 * b0, sigma2, lambda, delta2, a, b (R's se.fit reads them), and their reader
 * (the checks are the entry's). */
json_t *bsl_coef_numbers_json(const bsl_coef_prior *p);
void bsl_coef_numbers_read(bsl_coef_prior *p, const json_t *o);
/* A flat prior's Gaussian parts (no shrinkage, df N - k, the residual
 * variance): the penalised criteria's, and the other tables' placeholders. */
double bsl_coef_tau_zero(const bsl_coef_prior *p);
double bsl_coef_shrink_none(const bsl_coef_prior *p, double g, double N, size_t k, double yy, double quad);
double bsl_coef_flat_log_ml(const bsl_coef_prior *p, size_t n, size_t q, size_t c, size_t k, double logdet,
                            const double *quad, const double *yy, const double *gv, const double *lg);
double bsl_coef_flat_df(const bsl_coef_prior *p, double N, double k);
double bsl_coef_flat_scale2(const bsl_coef_prior *p, double N, double df, double yy, double quad, double s);
double bsl_coef_flat_sigma2(const bsl_coef_prior *p, double N, size_t k, double yy, double quad, double g);
int bsl_coef_nuisance_any(const bsl_coef_prior *p, const double *sc, size_t c);
/* from_json of a prior every value of whose numbers is valid */
int bsl_coef_flat_read(bsl_coef_prior *p, const json_t *o);

#endif
