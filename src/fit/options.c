/*
 * options.c: the option table (every setting of a fit, its default, the
 * methods it applies to and its help line) and the basel_options handle.
 * The command line's --help is generated from this table, so the two cannot
 * drift apart.
 */
#include "fit.h"

#include <stdlib.h>
#include <string.h>

static const bsl_option_def table[] = {
    {"method", "bd", "*", "enumerate, bd, ssvs, rj, anneal, smc, mixture"},
    {"target", "", "*", "target column name(s), comma-separated (default: the last column)"},
    {"inputs", "", "*", "input column names, comma-separated (default: every other column)"},
    {"basis", "linear", "*",
     "dictionary: linear | gauss:r=R | cubic | tps | lin-rbf | legendre:m=M | chebyshev:m=M | "
     "sine:m=M | cosine:m=M | poly:m=M (1-D families also take lo, hi; linear-term=1 adds the inputs as always-in columns; "
     "--method rj with cubic:centres=free etc. fits an RBF network with free centres)"},
    {"prior", "", "*",
     "coefficient prior: g[:g=G] (default, g = n) | ridge[:lambda=L,sigma2=S] | hier[:delta2=D] | "
     "aic | bic | mdl (anneal; default mdl) | ssvs[:tau=..,c=..,p=..] (method ssvs)"},
    {"model-prior", "beta-binomial:a=1,b=1", "*",
     "prior over subsets: uniform | poisson:mean=W | bernoulli:p=P | beta-binomial:a=A,b=B"},
    {"kmax", "", "*", "largest model size (default: min(m, n - 2, 200))"},
    {"iter", "", "*", "iterations per chain after burn-in (default depends on the method)"},
    {"burn", "", "*", "burn-in iterations per chain (default: iter / 5)"},
    {"thin", "1", "*", "keep every thin-th draw in --draws (mixture: 10, and its predictions use the kept draws)"},
    {"chains", "4", "*", "independent chains, run in parallel"},
    {"seed", "0", "*", "random seed (0: pick one and report it)"},
    {"threads", "0", "*", "OpenMP threads (0: all cores); results do not depend on it"},
    {"standardize", "auto", "*",
     "standardise inputs on the training rows (yes | no | auto: yes for mixture only; kernel widths are in the inputs' units)"},
    {"top", "20", "*", "models listed in the fit"},
    {"keep-draws", "0", "*", "keep every draw for basel_fit_write_draws (the CLI's --draws sets it)"},
    {"gram-memory", "256", "*", "MB allowed for the cached Gram matrix before columns are streamed"},
    {"max-models", "20000", "bd,rj,ssvs", "distinct subsets stored per chain (memory stays bounded; the best is always kept)"},
    {"nu", "1", "bd", "birth rate per unit time"},
    {"rho", "1", "bd", "duration of one iteration (a block of the continuous-time process)"},
    {"birth", "uniform", "bd", "birth density: uniform over dormant atoms, or informed (by correlation with y)"},
    {"rj-add", "0.333", "rj", "weight of the add move (renormalised over the moves possible at k)"},
    {"rj-delete", "0.333", "rj", "weight of the delete move"},
    {"rj-swap", "0.333", "rj", "weight of the swap move"},
    {"rj-rb-every", "", "rj", "moves between Rao-Blackwellised PIP updates (default m; 0: frequencies only)"},
    {"particles", "250", "smc", "number of particles"},
    {"resample", "stratified", "smc", "multinomial | systematic | stratified | residual"},
    {"ess-threshold", "1", "smc", "resample when ESS / N falls below this (1: every step, as in paper 003)"},
    {"shuffle", "0", "smc", "present the rows in a random order (seeded) instead of file order"},
    {"running", "", "smc", "CSV of the one-step-ahead prediction of every row before it is fed (t, row, y, mean, 95% interval)"},
    {"resume", "", "smc", "FIT.json of an earlier smc fit: continue its particle system with these rows"},
    {"kernels", "3", "mixture", "number of Gaussian kernels shared by the classes (paper 000: 6 for Ionosphere)"},
    {"excluded", "regression", "mixture",
     "model of the inputs left out: regression (on the active inputs, g-prior g = n: irrelevant means independent of the class given them) | gaussian (one Gaussian each, independent of the rest)"},
    {"temperatures", "1", "mixture", "replica exchange: this many tempered copies per chain (1: off, the paper's sampler), for chains that settle on different subsets (the summary's R-hat warning); Pima needs about 24 (24 times the cost)"},
    {"temp-max", "20", "mixture", "the hottest copy's temperature (geometric ladder from 1); add copies until every neighbouring pair swaps often (the summary prints the least rate of a pair)"},
    {"hyper-h", "", "mixture", "rate h of the Gamma prior of each input's precision scale beta_i (paper 000 §2.2; default 10 / range^2 of the input; the paper: 0.5 Ionosphere, 0.28 Wine, 0.16 Pima)"},
    {"schedule", "geometric", "anneal", "cooling: linear | geometric | logarithmic"},
    {"t0", "", "anneal", "initial temperature"},
    {"t-end", "", "anneal", "final temperature"},
    {"box", "", "anneal,rj", "enlargement of the data's bounding box for births (RBF networks)"},
    {"zeta", "", "anneal,rj", "split/merge scale zeta* (paper 002 eq. 8)"},
};

const bsl_option_def *bsl_option_table(size_t *count)
{
    *count = sizeof table / sizeof *table;
    return table;
}

static const bsl_option_def *find_def(const char *name)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}

int basel_options_create(basel_options **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? BASEL_OK : BASEL_ENOMEM;
}

void basel_options_free(basel_options *o) { free(o); }

int basel_options_set(basel_options *o, const char *name, const char *value, basel_error *err)
{
    if (!find_def(name)) {
        char list[1024] = "";
        for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, table[i].name, sizeof list - strlen(list) - 1);
        }
        return bsl_fail(err, BASEL_EINVAL, "unknown option '%s' (accepted: %s)", name, list);
    }
    if (bsl_params_set(&o->p, name, value) != 0)
        return bsl_fail(err, BASEL_EINVAL, "option '%s': value too long", name);
    return BASEL_OK;
}

const char *basel_options_get(const basel_options *o, const char *name)
{
    const bsl_option_def *d = find_def(name);
    if (!d) return NULL;
    const char *v = bsl_params_get(&o->p, name);
    return v ? v : d->def;
}

const char *bsl_opt(const basel_options *o, const char *name)
{
    const char *v = basel_options_get(o, name);
    return v ? v : "";
}

void basel_options_set_progress(basel_options *o, basel_progress_fn fn, void *user)
{
    o->progress = fn;
    o->progress_user = user;
}

size_t basel_options_count(void) { return sizeof table / sizeof *table; }

int basel_options_describe(size_t i, const char **name, const char **def, const char **methods,
                           const char **help)
{
    if (i >= sizeof table / sizeof *table) return BASEL_EINVAL;
    *name = table[i].name;
    *def = table[i].def;
    *methods = table[i].methods;
    *help = table[i].help;
    return BASEL_OK;
}
