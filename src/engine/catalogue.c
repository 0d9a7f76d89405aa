/*
 * catalogue.c: the option catalogue. Each option's meaning, kind and range is
 * written here once; which engines read it, and with which default, is
 * each engine's table (engine.h). The command line's help, the checks made
 * before a run and FIT.json's settings all come from these two tables.
 */
#include "engine.h"
#include "rj/rj_defaults.h"
#include "../prior/coef_prior.h"

#include <stdio.h>
#include <string.h>
#include <threads.h>

#define BIG 1099511627776.0 /* 2^40: counts above this are typos */

static const bsl_option_def catalogue[] = {
    /* read by every fit (the problem and the run) */
    {"method", BSL_OPT_TEXT, 0, 0, NULL, "the engine (the list is in 'basel help fit')"},
    {"target", BSL_OPT_TEXT, 0, 0, NULL, "target column name(s), comma-separated (default: the last column)"},
    {"inputs", BSL_OPT_TEXT, 0, 0, NULL,
     "input column names, comma-separated (default: every other column); a column of text is a categorical "
     "input: indicator columns for its levels but the first (sorted), selected as one atom (@factors@ with "
     "--basis linear)"},
    {"seed", BSL_OPT_COUNT, 0, 4294967295.0, NULL, "random seed (0: pick one and report it)"},
    {"threads", BSL_OPT_COUNT, 0, 1024, NULL, "OpenMP threads (0: all cores); results do not depend on it"},
    {"keep-draws", BSL_OPT_CHOICE, 0, 0, "0|1|2",
     "keep every draw for basel_fit_write_draws (the CLI's --draws sets it); 2: also each draw's pointwise "
     "log-likelihood (basel_fit_draw_loglik; --draws-loglik)"},
    {"na", BSL_OPT_CHOICE, 0, 0, "error|drop",
     "missing values (an empty cell or NA) in the columns used: error (names the first and counts the rows) or "
     "drop (leave those rows out)"},
    {"checkpoint", BSL_OPT_TEXT, 0, 0, NULL,
     "FILE: save the chains' complete state here (atomically) every --checkpoint-every seconds and when "
     "interrupted (every MCMC method: @checkpoint@)"},
    {"max-time", BSL_OPT_REAL, 0, 1e9, NULL,
     "seconds (@max-time@): stop the chains at their next iteration once this much wall time has passed and make "
     "a fit of what they did, marked interrupted (a warning; exit status 3); 0: no limit"},
    {"checkpoint-every", BSL_OPT_REAL, 0, 1e9, NULL, "seconds between checkpoints (0: only when interrupted)"},
    {"restart", BSL_OPT_TEXT, 0, 0, NULL,
     "FILE: continue the run saved in this checkpoint (same data and options); the fit is byte-identical to an "
     "uninterrupted one"},
    /* the model */
    {"basis", BSL_OPT_TEXT, 0, 0, NULL,
     "dictionary: linear | gauss[:r=R | r=R1,R2,.. | r=auto] | cubic | tps | lin-rbf | legendre:m=M | chebyshev:m=M | sine:m=M | "
     "cosine:m=M | poly:m=M (1-D families also take lo, hi; linear-term=1 adds the inputs as always-in columns). gauss with several "
     "widths puts a kernel at every training point at each width; r=auto (the default) is the grid {1/4, 1/2, 1, 2} "
     "x the median pairwise distance of the inputs"},
    {"prior", BSL_OPT_TEXT, 0, 0, NULL,
     "coefficient prior: @priors@ | ssvs[:tau=..,tau2=..,c=..,p=..]; with --family binomial or poisson: "
     "normal[:sd=S,intercept-sd=S0], the default normal:sd=1,intercept-sd=10 (beta_j ~ N(0, S^2) on the standardised inputs, "
     "the intercept N(0, S0^2)), or one of BAS's g-type priors @glm-priors@ (g fixed; each model's marginal by bas.glm's "
     "integrated Laplace approximation, docs/GLM.md); with --family multinomial normal only"},
    {"family", BSL_OPT_CHOICE, 0, 0, "gaussian|binomial|multinomial|poisson",
     "the likelihood: gaussian (linear regression), binomial (logistic regression of a 0/1 or two-level "
     "target: @binomial@; under --prior normal by Polya-Gamma augmentation in the samplers, exact by importance "
     "sampling when enumerating; under a g-type prior each subset's marginal in closed form, kept per subset), multinomial (multinomial logistic regression of a target of 3 or more levels, one subset of "
     "inputs per class: @multinomial@; enumerated by importance sampling up to 20 class-input pairs) or poisson "
     "(counts, log link: each subset's marginal likelihood by importance sampling, kept per subset; @poisson@); "
     "docs/GLM.md"},
    {"is-draws", BSL_OPT_COUNT, 100, BIG, NULL,
     "enumerate with --family binomial or poisson: importance-sampling draws per subset of the exact marginal "
     "likelihood (its Monte Carlo error is in the fit's note; the samplers use 4000 with --family poisson)"},
    {"model-prior", BSL_OPT_TEXT, 0, 0, NULL,
     "prior over subsets: uniform | poisson:mean=W | bernoulli:p=P | beta-binomial:a=A,b=B"},
    {"standardize", BSL_OPT_CHOICE, 0, 0, "yes|no|auto",
     "standardise inputs on the training rows (kernel widths are then in standard deviations); auto: yes for a "
     "gauss basis whose widths basel chooses (no r, or r=auto) and for --family binomial, multinomial or poisson, no otherwise (a width given in the data's units "
     "keeps them)"},
    {"kmax", BSL_OPT_COUNT, 1, 1e9, NULL, "largest model size (default: min(m, n - 2, 200) over a dictionary; every input for mixture)"},
    /* the run */
    {"iter", BSL_OPT_COUNT, 1, BIG, NULL, "iterations per chain after burn-in (rj, bd: the default is for up to 100 inputs and grows as d / 100 above; "
     "rj with informed moves: " BSL_RJ_STR(BSL_RJ_INFORMED_ITER) " at every d)"},
    {"burn", BSL_OPT_COUNT, 0, BIG, NULL, "burn-in iterations per chain (subset engines' default: iter / 5)"},
    {"thin", BSL_OPT_COUNT, 1, BIG, NULL, "keep every thin-th draw (mixture keeps at most 1000 per chain: a run asking for more is thinned further, and the thin used is recorded)"},
    {"chains", BSL_OPT_COUNT, 1, 1024, NULL, "independent chains, run in parallel"},
    {"top", BSL_OPT_COUNT, 1, 100000, NULL, "models listed in the fit"},
    {"projection-tol", BSL_OPT_REAL, 0, 1e6, NULL,
     "the projection model (Gaussian subset fits): the fewest atoms, chosen forward with exchanges, whose least-squares "
     "fit to the model average's fitted values leaves a squared distance at the training inputs of at most this many "
     "times the posterior's spread of those values (1: no farther than a posterior draw; see --projection-spread)"},
    {"projection-spread", BSL_OPT_CHOICE, 0, 0, "within|total",
     "the spread --projection-tol is measured in: within a model, sigma^2 (q + E[k]) (default), or the posterior's "
     "total, which adds the spread of the visited models' fitted values (fewer atoms, a larger error)"},
    {"gram-memory", BSL_OPT_COUNT, 1, 1048576, NULL, "MB allowed for the cached Gram matrix; within it the design still streams columns when the run is too short to pay for the Gram (design.c); a streamed kernel design keeps its columns within it, else its summaries keep that many MB of them (colstore.c); linear inputs above twice it in doubles are held as int8 when all are whole numbers within +-127 (genotypes), else as float32 (FIT.json diagnostics.inputs)"},
    {"max-models", BSL_OPT_COUNT, 1, BIG,
     NULL, "distinct subsets stored per chain (memory stays bounded; the best is always kept)"},
    /* bd */
    {"nu", BSL_OPT_REAL, 1e-6, 1e6, NULL, "birth rate per unit time"},
    {"rho", BSL_OPT_REAL, 1e-6, 1e6, NULL, "duration of one iteration (a block of the continuous-time process)"},
    {"birth", BSL_OPT_CHOICE, 0, 0, "uniform|informed",
     "birth density: uniform over dormant atoms, or informed (by correlation with y)"},
    {"swap", BSL_OPT_REAL, 0, 1e6, NULL,
     "rate of swap events per unit time (an active atom replaced by a dormant one in one event, so the process "
     "crosses between near-duplicate inputs; 0: births and deaths only)"},
    {"relevance", BSL_OPT_CHOICE, 0, 0, "none|select|grid|ml",
     "input relevance inside a radial kernel's distance, sampled with the atoms: select (each input in or out, a "
     "posterior inclusion probability per input) or grid (each input's scale in {0, 1/2, 1, 2}); the fit is then "
     "refitted with the inputs of PIP >= 0.5, each at its posterior mean scale given inclusion. ml: a scale per input "
     "fixed before the run, by the type-II maximum likelihood of a Gaussian process with an ARD kernel (empirical "
     "Bayes, not sampled; r=auto's widths are then in those scaled units) (docs/FIT.md \"relevance\")"},
    {"relevance-every", BSL_OPT_COUNT, 1, BIG, NULL, "blocks between moves on the inputs' relevance (each rebuilds the active columns)"},
    {"relevance-steps", BSL_OPT_COUNT, 1, 100000, NULL,
     "annealing steps of a move on the inputs' relevance: the atoms are carried towards the new scales by this many "
     "Metropolis-Hastings steps (annealed importance sampling); 1: the atoms stay"},
    /* rj */
    {"rj-add", BSL_OPT_REAL, 0, 1, NULL, "weight of the add move (renormalised over the moves possible at k)"},
    {"rj-delete", BSL_OPT_REAL, 0, 1, NULL, "weight of the delete move"},
    {"rj-swap", BSL_OPT_REAL, 0, 1, NULL, "weight of the swap move"},
    {"bd-rb-every", BSL_OPT_COUNT, 0, BIG, NULL,
     "kept blocks between Rao-Blackwell passes, whose conditional inclusion probabilities (each atom given all "
     "but its pair with each of its two most correlated atoms) are then the PIPs instead of the time averages "
     "(default max(10, m / 10) with linear inputs, Gaussian targets and a dense Gram, when each chain gets 100 "
     "passes; else 0: time averages)"},
    {"rj-rb-every", BSL_OPT_COUNT, 0, BIG, NULL,
     "moves between Rao-Blackwellised PIP updates (default m, or 10 with informed moves, whose pass empties each "
     "active slot in turn; uniform moves on a dense Gram condition each atom on all but its pair with each of "
     "its two most correlated atoms; 0: frequencies only)"},
    {"rj-candidates", BSL_OPT_TEXT, 0, 0, NULL,
     "informed moves after burn-in: auto (each chain keeps the atoms whose weight reached 3e-4 of some burn-in "
     "pass, when they are at most half the atoms, and scores them alone, O(|C| k^2) per move; the others enter "
     "as a group drawn uniformly; exact), all (score every atom), or a count N (the N atoms of largest weight)"},
    {"rj-pairs", BSL_OPT_TEXT, 0, 0, NULL,
     "informed moves: each move is, with probability " BSL_RJ_STR(BSL_RJ_PAIR_RATE) ", a pair move instead, which adds "
     "or deletes two atoms at most --rj-pair-window apart at once, so that a masking pair (two correlated inputs whose "
     "effects cancel in each one's marginal signal) enters together although neither enters alone; exact. auto: the "
     "pairs whose joint fit beats the better single by more than 2 log m in likelihood ratio, at most "
     BSL_RJ_STR(BSL_RJ_PAIRS_MAX) " (on a streamed design, at most a quarter of its Gram-row cache: 8 at p = 10^6); "
     "none; or a count N (the N best pairs)"},
    {"rj-pair-window", BSL_OPT_COUNT, 0, 1 << 20, NULL,
     "the pair moves' window: atoms at most this far apart in column order form a pair (a .bed's variants are in "
     "genome order; 0: no pair moves)"},
    {"proposal", BSL_OPT_CHOICE, 0, 0, "auto|uniform|informed",
     "rj's moves: uniform (an atom drawn uniformly; O(k^2) per move) or informed (every atom scored, drawn by its "
     "posterior weight, exact; O(m k^2) per move, for thousands of inputs); auto: informed above " BSL_RJ_STR(BSL_RJ_INFORMED_ABOVE) " inputs. "
     "Informed moves' defaults are --iter " BSL_RJ_STR(BSL_RJ_INFORMED_ITER) " and --burn " BSL_RJ_STR(BSL_RJ_INFORMED_BURN) " at every p"},
    /* smc */
    {"particles", BSL_OPT_COUNT, 1, 1e7, NULL, "number of particles"},
    {"resample", BSL_OPT_CHOICE, 0, 0, "multinomial|systematic|stratified|residual", "resampling scheme"},
    {"ess-threshold", BSL_OPT_REAL, 0, 1, NULL, "resample when ESS / N falls below this (1: every step, as in paper 003)"},
    {"shuffle", BSL_OPT_CHOICE, 0, 0, "0|1", "present the rows in a random order (seeded) instead of file order"},
    {"running", BSL_OPT_TEXT, 0, 0, NULL,
     "CSV of the one-step-ahead prediction of every row before it is fed (t, row, y, mean, 95% interval)"},
    {"resume", BSL_OPT_TEXT, 0, 0, NULL, "FIT.json of an earlier smc fit: continue its particle system with these rows"},
    /* mixture */
    {"kernels", BSL_OPT_COUNT, 1, 1000, NULL, "number of Gaussian kernels shared by the classes (paper 000: 6 for Ionosphere, 3 for Wine and Pima; over splits 1-10, 6 beat 2 and 3 on test accuracy and log-loss on all three (and 4 on Ionosphere), and 8 and 10 were no better at more CPU; fewer kernels (3) accept more of the moves that change the inputs, bench/mixture/README.md)"},
    {"excluded", BSL_OPT_CHOICE, 0, 0, "regression|gaussian",
     "model of the inputs left out: regression (on the active inputs, g-prior g = n: irrelevant means independent of "
     "the class given them) | gaussian (one Gaussian each, independent of the rest)"},
    {"temperatures", BSL_OPT_COUNT, 1, 64, NULL,
     "replica exchange: this many tempered copies per chain (1: off, the paper's sampler), for chains that settle on "
     "different subsets (R times the cost; on Ionosphere 4 up to 1.22 (--temp-max) brought every chain to the main mode, "
     "6 up to 10 never swapped at the cold end, see docs)"},
    {"temp-max", BSL_OPT_REAL, 1.000001, 1e12, NULL,
     "the hottest copy's temperature (geometric ladder from 1); add copies until every neighbouring pair swaps often"},
    {"exchange", BSL_OPT_CHOICE, 0, 0, "uniform|informed",
     "mixture's exchange move (an active input leaves, an excluded one enters): informed (default; the pair drawn "
     "by the approximate odds of every swap given the allocations, exact) or uniform (the paper's; accepted "
     "0.04-0.45% of the time on Pima, Wine, Ionosphere against 0.4-10% informed, see docs)"},
    {"unlabelled", BSL_OPT_CHOICE, 0, 0, "ignore|use",
     "rows with an empty class: ignore (default; leave them out) | use (semi-supervised, paper 000 eq. 2; on Pima "
     "with 80% of the labels hidden they lowered the accuracy, see docs)"},
    {"hyper-h", BSL_OPT_REAL, 0, 1e12, NULL,
     "rate h of the Gamma prior of each input's precision scale beta_i (paper 000 §2.2; 0: 10 / range^2 of the input; "
     "the paper: 0.5 Ionosphere, 0.28 Wine, 0.16 Pima)"},
    {"beta-min", BSL_OPT_REAL, 0, 1e6, NULL,
     "lower end of beta_i's prior as a fraction of range^2: beta_i ~ Gamma(g, h) truncated to [beta-min * range^2, "
     "inf), so no kernel can sit on tied values of an input with a vanishing variance (not in paper 000, whose prior "
     "makes the posterior improper then, as on Ionosphere; 0: the paper's prior)"},
    /* RBF networks with free centres (anneal, rbf) */
    {"schedule", BSL_OPT_CHOICE, 0, 0, "linear|geometric|logarithmic", "cooling schedule"},
    {"t0", BSL_OPT_REAL, 1e-12, 1e12, NULL, "initial temperature"},
    {"t-end", BSL_OPT_REAL, 1e-12, 1e12, NULL, "final temperature"},
    {"box", BSL_OPT_REAL, 1, 100, NULL, "enlargement of the data's bounding box for births"},
    {"zeta", BSL_OPT_REAL, 0, 1e6, NULL, "split/merge scale zeta* (paper 002 eq. 8; 0: from the data)"},
};

static const char *const globals[] = {"method",     "target",     "inputs",           "seed",   "threads",
                                     "keep-draws", "na",         "checkpoint", "checkpoint-every", "restart", "max-time"};

int bsl_option_is_global(const char *name)
{
    for (size_t i = 0; i < sizeof globals / sizeof *globals; i++)
        if (strcmp(name, globals[i]) == 0) return 1;
    return 0;
}

/* threads, keep-draws, running and the checkpoint options change how a fit
 * runs or what it writes on the side, never its result: they stay out of
 * FIT.json, so that the document is byte-identical whatever the thread
 * count and however often the run was interrupted */
int bsl_option_is_recorded(const char *name)
{
    return strcmp(name, "threads") && strcmp(name, "keep-draws") && strcmp(name, "running") &&
           strcmp(name, "checkpoint") && strcmp(name, "checkpoint-every") && strcmp(name, "restart") &&
           strcmp(name, "max-time");
}

const bsl_option_def *bsl_option_find(const char *name)
{
    for (size_t i = 0; i < sizeof catalogue / sizeof *catalogue; i++)
        if (strcmp(catalogue[i].name, name) == 0) return &catalogue[i];
    return NULL;
}

/* A help text names the methods able to do something by a placeholder,
 * @what@ (a capability of bsl_engine_can), which is replaced by the engine
 * table's list (bsl_engine_list): no help text lists methods by hand, and
 * an engine added to the table is named in every text that concerns it.
 * Likewise @glm-priors@ is the prior table's entries that score GLMs
 * (coef_prior.h glm_log_ml), and @priors@ every entry's usage, " | "
 * between them: a prior added to the table is in --prior's help.
 * The texts are expanded once (the table is constant, so are they) into
 * expanded[], then only read: call_once makes the first use thread-safe. */
#define NOPTIONS (sizeof catalogue / sizeof *catalogue)
#define HELP_MAX 2048
static char expanded[NOPTIONS][HELP_MAX];
static once_flag expand_once = ONCE_FLAG_INIT;

static void expand(const char *help, char *out, size_t len)
{
    size_t k = 0;
    out[0] = 0;
    for (const char *p = help; *p && k + 1 < len;) {
        const char *end = *p == '@' ? strchr(p + 1, '@') : NULL;
        char what[32], list[1024] = "";
        if (end) {
            snprintf(what, sizeof what, "%.*s", (int)(end - p - 1), p + 1);
            if (strcmp(what, "priors") == 0) /* every entry of the prior table, with its keys */
                for (size_t t = 0; bsl_coef_prior_types[t]; t++) {
                    if (*list) strncat(list, " | ", sizeof list - strlen(list) - 1);
                    strncat(list, bsl_coef_prior_types[t]->usage, sizeof list - strlen(list) - 1);
                }
            else if (strcmp(what, "glm-priors") == 0) /* the prior table's entries that score GLMs */
                for (size_t t = 0; bsl_coef_prior_types[t]; t++) {
                    if (!bsl_coef_prior_types[t]->glm_log_ml) continue;
                    if (*list) strncat(list, ", ", sizeof list - strlen(list) - 1);
                    strncat(list, bsl_coef_prior_types[t]->name, sizeof list - strlen(list) - 1);
                }
            else
                bsl_engine_list(list, sizeof list, what, NULL);
        }
        if (!*list) { /* text, or an unknown capability left as written (test_capabilities finds it) */
            out[k++] = *p++;
            out[k] = 0;
            continue;
        }
        strncat(out, list, len - k - 1);
        k = strlen(out);
        p = end + 1;
    }
}

static void expand_all(void)
{
    for (size_t i = 0; i < NOPTIONS; i++) expand(catalogue[i].help, expanded[i], HELP_MAX);
}

const char *bsl_option_help(size_t i)
{
    if (i >= NOPTIONS) return NULL;
    call_once(&expand_once, expand_all);
    return expanded[i];
}

size_t bsl_option_count(void) { return sizeof catalogue / sizeof *catalogue; }

const bsl_option_def *bsl_option_at(size_t i)
{
    return i < sizeof catalogue / sizeof *catalogue ? &catalogue[i] : NULL;
}

int bsl_family_binomial(const bsl_params *settings)
{
    const char *f = bsl_params_get(settings, "family");
    return f && strcmp(f, "binomial") == 0;
}

int bsl_family_multinomial(const bsl_params *settings)
{
    const char *f = bsl_params_get(settings, "family");
    return f && strcmp(f, "multinomial") == 0;
}

int bsl_family_poisson(const bsl_params *settings)
{
    const char *f = bsl_params_get(settings, "family");
    return f && strcmp(f, "poisson") == 0;
}
