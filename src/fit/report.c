/*
 * report.c: basel_fit_summary, the human view of a fit document: the
 * inclusion probabilities with a bar chart, the size posterior, the selected
 * models, the top models and the diagnostics. It reads only the document, so
 * a fit read back from FIT.json reports exactly as the fresh one.
 */
#include "fit.h"

#include "../basis/basis.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct strbuf {
    char *s;
    size_t len, cap;
    int failed;
} strbuf;

static void add(strbuf *b, const char *fmt, ...) BSL_PRINTF(2, 3);
static void add(strbuf *b, const char *fmt, ...)
{
    if (b->failed) return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0 || bsl_grow((void **)&b->s, &b->cap, b->len + (size_t)need + 1, 1)) {
        b->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)need + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}

/* A share of a posterior as a percentage that never reads as a typo: "100%"
 * only when it is 1, "> 99.99%" just below, else 4 significant digits. */
static const char *percent(char *buf, size_t len, double share)
{
    if (!(share >= 0 && share <= 1)) snprintf(buf, len, "?");
    else if (share == 1) snprintf(buf, len, "100%%");
    else if (share > 0.9999) snprintf(buf, len, "> 99.99%%");
    else snprintf(buf, len, "%.4g%%", 100 * share);
    return buf;
}

static void bar(strbuf *b, double p, int width)
{
    /* clamped: a malformed document's "probability" of 1e9 would otherwise
     * draw a bar of 3e10 characters */
    const int n = (int)lround(fmin(fmax(p, 0.0), 1.0) * width);
    for (int i = 0; i < n; i++) add(b, "#");
    for (int i = n; i < width; i++) add(b, ".");
}

/* The string at key, or "?" when a malformed document has none there. */
static const char *str_at(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
}

static const char *atom_name(const json_t *doc, size_t j)
{
    const json_t *atoms = json_object_get(doc, "atoms");
    const char *s = json_string_value(json_object_get(json_array_get(atoms, j), "name"));
    return s ? s : "?";
}

static void atom_list(strbuf *b, const json_t *doc, const json_t *arr, size_t max)
{
    const size_t k = json_array_size(arr);
    if (k == 0) add(b, "(intercept only)");
    for (size_t i = 0; i < k && i < max; i++)
        add(b, "%s%s", i ? " " : "", atom_name(doc, (size_t)json_integer_value(json_array_get(arr, i))));
    if (k > max) add(b, " ... (%zu in all)", k);
}

typedef struct ranked {
    double p;
    size_t j;
} ranked;

static int by_p(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return x->p != y->p ? (x->p < y->p ? 1 : -1) : (x->j > y->j) - (x->j < y->j);
}

/* The radial dictionary of a fit (engine.basis, docs/FIT.md), or NULL:
 * its atoms are kernels, at centres[j d .. j d + d - 1] (standardised input
 * units) with width widths[j] (or width). */
static const json_t *kernel_basis(const json_t *doc)
{
    const json_t *b = json_object_get(json_object_get(doc, "engine"), "basis");
    const char *kind = json_string_value(json_object_get(b, "kind"));
    const int k = kind ? bsl_basis_kind_from_name(kind) : -1;
    return k >= 0 && bsl_basis_is_radial((bsl_basis_kind)k) && json_is_array(json_object_get(b, "centres")) ? b : NULL;
}

/* A kernel's centre in the inputs' own units: all coordinates for d <= 3,
 * else the three farthest from the inputs' means, which say where in the
 * data the kernel sits ("crim=38.4 (+4.1 sd)"). */
static void kernel_centre(strbuf *b, const json_t *doc, const json_t *basis, size_t j)
{
    const size_t d = (size_t)json_integer_value(json_object_get(basis, "d"));
    const json_t *c = json_object_get(basis, "centres"), *names = json_object_get(doc, "inputs");
    const json_t *st = json_object_get(doc, "standardize");
    const json_t *mean = json_object_get(st, "mean"), *scale = json_object_get(st, "scale");
    if (d == 0 || json_array_size(c) < (j + 1) * d || json_array_size(names) < d) return;
    size_t show[3], ns = 0;
    if (d <= 3) {
        for (size_t a = 0; a < d; a++) show[ns++] = a;
    } else {
        for (; ns < 3; ns++) { /* the three largest |z|, largest first */
            size_t best = d;
            for (size_t a = 0; a < d; a++) {
                int taken = 0;
                for (size_t t = 0; t < ns; t++) taken |= show[t] == a;
                const double z = fabs(json_number_value(json_array_get(c, j * d + a)));
                if (!taken && (best == d || z > fabs(json_number_value(json_array_get(c, j * d + best))))) best = a;
            }
            show[ns] = best;
        }
    }
    for (size_t t = 0; t < ns; t++) {
        const size_t a = show[t];
        const double z = json_number_value(json_array_get(c, j * d + a));
        const double sc = json_array_size(scale) == d ? json_number_value(json_array_get(scale, a)) : 1;
        const double mu = json_array_size(mean) == d ? json_number_value(json_array_get(mean, a)) : 0;
        add(b, "%s%s=%.4g", t ? " " : "", json_string_value(json_array_get(names, a)), mu + sc * z);
        if (d > 3) add(b, " (%+.1f sd)", z);
    }
}

/* The PIP table of a kernel dictionary (issue 30 item 4): each kernel as
 * where it sits and how wide it is, since its name (the i-th training row)
 * says neither. */
static void kernel_table(strbuf *b, const basel_fit *f, const json_t *basis)
{
    const json_t *dg = json_object_get(f->doc, "diagnostics");
    const json_t *rh = json_object_get(dg, "rhat_pip"), *ws = json_object_get(basis, "widths");
    const size_t show = BSL_MIN(f->m, 25), d = (size_t)json_integer_value(json_object_get(basis, "d"));
    ranked *r = bsl_malloc(f->m + 1, sizeof *r);
    if (!r) {
        b->failed = 1;
        return;
    }
    for (size_t j = 0; j < f->m; j++) r[j] = (ranked){f->pip[j], j};
    qsort(r, f->m, sizeof *r, by_p);
    add(b, "\nKernels by posterior inclusion probability (%s%zu of %zu, largest first)\n", show < f->m ? "top " : "",
        show, f->m);
    /* a width is in the units the kernels saw: standard deviations when the
     * inputs were standardised (--standardize), else the inputs' own */
    const int standardised = json_is_true(json_object_get(json_object_get(f->doc, "standardize"), "applied"));
    add(b, "  (width: in %s%s inputs%s; centre: %s)\n", standardised ? "standard deviations of the" : "the",
        json_object_get(basis, "input_scale") ? " scaled" : "", standardised ? "" : "' units",
        d <= 3 ? "in the inputs' units" : "the 3 inputs farthest from their means, in their units");
    add(b, "  %-16s %6s  %-20s %6s %7s  %s\n", "atom", "PIP", "", rh ? "R-hat" : "", "width", "centre");
    for (size_t i = 0; i < show; i++) {
        const size_t j = r[i].j;
        add(b, "  %-16s %6.3f  ", atom_name(f->doc, j), r[i].p);
        bar(b, r[i].p, 20);
        const double v = bsl_json_rhat_value(json_array_get(rh, j));
        if (!isnan(v)) add(b, " %6.3f", v);
        else add(b, " %6s", "");
        add(b, " %7.3g  ", ws ? json_number_value(json_array_get(ws, j)) : json_number_value(json_object_get(basis, "width")));
        kernel_centre(b, f->doc, basis, j);
        add(b, "\n");
    }
    free(r);
}

static void pip_table(strbuf *b, const basel_fit *f)
{
    const json_t *basis = kernel_basis(f->doc);
    if (f->m == 0) return; /* anneal, rbf: centres move, no fixed atoms (their size posterior follows) */
    if (basis) {
        kernel_table(b, f, basis);
        return;
    }
    const json_t *dg = json_object_get(f->doc, "diagnostics");
    const json_t *rh = json_object_get(dg, "rhat_pip");
    const size_t show = BSL_MIN(f->m, 25);
    ranked *r = bsl_malloc(f->m + 1, sizeof *r);
    if (!r) return;
    for (size_t j = 0; j < f->m; j++) r[j] = (ranked){f->pip[j], j};
    qsort(r, f->m, sizeof *r, by_p);
    add(b, "\nPosterior inclusion probabilities (%s%zu of %zu atoms, largest first)\n",
        show < f->m ? "top " : "", show, f->m);
    if (f->m && strchr(atom_name(f->doc, 0), '@'))
        add(b, "  (name@i: the kernel centred at the i-th training row, or the i-th point fed)\n");
    add(b, "  %-16s %6s  %-30s %s\n", "atom", "PIP", "", rh ? "R-hat" : "");
    for (size_t i = 0; i < show; i++) {
        add(b, "  %-16s %6.3f  ", atom_name(f->doc, r[i].j), r[i].p);
        bar(b, r[i].p, 30);
        const double v = bsl_json_rhat_value(json_array_get(rh, r[i].j));
        if (!isnan(v)) add(b, " %5.3f", v);
        add(b, "\n");
    }
    free(r);
}

static void size_table(strbuf *b, const json_t *doc)
{
    const json_t *ms = json_object_get(doc, "model_size");
    const json_t *ks = json_object_get(ms, "k"), *pr = json_object_get(ms, "prob");
    add(b, "\nPosterior of the model size (k_opt = %lld: the most probable size, the prevalence model's)\n",
        (long long)json_integer_value(json_object_get(doc, "k_opt")));
    for (size_t i = 0; i < json_array_size(pr); i++) {
        const double p = json_number_value(json_array_get(pr, i));
        if (p < 0.005) continue;
        add(b, "  k = %-4lld %6.3f  ", (long long)json_integer_value(json_array_get(ks, i)), p);
        bar(b, p, 30);
        add(b, "\n");
    }
}

static void bayes_factor(strbuf *b, double log_bf);

static void selected(strbuf *b, const json_t *doc)
{
    const json_t *sel = json_object_get(doc, "selected");
    add(b, "\nSelected models\n");
    for (int i = 0; i < BSL_NSELECTIONS; i++) {
        const json_t *a = json_object_get(sel, bsl_selections[i].name);
        if (!a) continue;
        add(b, "  %-44s ", bsl_selections[i].what);
        atom_list(b, doc, a, 12);
        add(b, "\n");
    }
    const json_t *models = json_object_get(doc, "models");
    const int ml = json_is_number(json_object_get(json_array_get(models, 0), "log_ml"));
    if (json_array_size(models)) add(b, "\nMost probable models%s\n", ml ? " (BF: Bayes factor against the best and the null model)" : "");
    if (json_array_size(models) && ml) add(b, "  %6s  %10s %10s %10s  %s\n", "prob", "log ML", "BF best", "BF null", "atoms");
    for (size_t i = 0; i < json_array_size(models) && i < 5; i++) {
        const json_t *mo = json_array_get(models, i);
        add(b, "  %6.3f  ", json_number_value(json_object_get(mo, "prob")));
        if (ml) {
            const double lbb = json_number_value(json_object_get(mo, "log_bf_best"));
            const double lbn = json_number_value(json_object_get(mo, "log_bf_null"));
            add(b, "%10.3f ", json_number_value(json_object_get(mo, "log_ml")));
            bayes_factor(b, lbb);
            bayes_factor(b, lbn);
            add(b, " ");
        }
        atom_list(b, doc, json_object_get(mo, "atoms"), 12);
        add(b, "\n");
    }
    if (ml && json_is_number(json_object_get(doc, "null_log_ml")))
        add(b, "  null model (intercept only): log ML %.3f\n", json_number_value(json_object_get(doc, "null_log_ml")));
}

/* FIT.json's input_pip (--family multinomial; docs/FIT.md): each input's
 * probability of being in some class's subset, in input order. */
static void input_pips(strbuf *b, const json_t *doc)
{
    const json_t *r = json_object_get(doc, "input_pip");
    const json_t *names = json_object_get(r, "inputs"), *pip = json_object_get(r, "pip");
    const size_t d = json_array_size(names);
    if (!r || !d || json_array_size(pip) != d) return;
    add(b, "\nInputs: P(in the subset of some class besides the reference '%s')\n",
        json_string_value(json_object_get(doc, "reference_class")) ? json_string_value(json_object_get(doc, "reference_class"))
                                                                   : "?");
    for (size_t a = 0; a < d; a++) {
        const double p = json_number_value(json_array_get(pip, a));
        char bar[31];
        const long fill = lround(p * 30);
        for (long i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
        bar[30] = 0;
        add(b, "  %-16s %6.3f  %s\n", json_string_value(json_array_get(names, a)), p, bar);
    }
}

/* exp(log_bf) in 10 characters (and e^x past what a double holds). */
/* FIT.json's relevance for --relevance ml (docs/FIT.md): each input's
 * scale and length scale, largest scale first. */
static void relevance_ml(strbuf *b, const json_t *r)
{
    const json_t *names = json_object_get(r, "inputs"), *sel = json_object_get(r, "selected_scale");
    const size_t d = json_array_size(names);
    if (!d || json_array_size(sel) != d) return;
    add(b, "\nInput scales inside the kernel (--relevance ml: type-II maximum likelihood of an ARD Gaussian process "
           "on %.0f rows, log ML %.3f; not sampled)\n",
        json_number_value(json_object_get(r, "gp_rows")), json_number_value(json_object_get(r, "gp_log_ml")));
    add(b, "  %-16s %10s %14s\n", "input", "scale", "length scale");
    unsigned char *done = calloc(d, 1);
    for (size_t t = 0; t < d && done; t++) {
        size_t best = d;
        for (size_t a = 0; a < d; a++)
            if (!done[a] && (best == d || json_number_value(json_array_get(sel, a)) >
                                              json_number_value(json_array_get(sel, best))))
                best = a;
        done[best] = 1;
        const double s = json_number_value(json_array_get(sel, best));
        if (s > 0) add(b, "  %-16s %10.4g %14.4g\n", json_string_value(json_array_get(names, best)), s, 1 / s);
        else add(b, "  %-16s %10s %14s\n", json_string_value(json_array_get(names, best)), "0", "(left out)");
    }
    if (!done) b->failed = 1;
    free(done);
    add(b, "  (the atoms above are fitted at these scales; widths are in the scaled units)\n");
}

/* FIT.json's relevance (bd --relevance; docs/FIT.md): each input's PIP
 * inside the kernel, its posterior mean scale and the scale the atoms were
 * refitted with, most relevant first. */
static void relevance(strbuf *b, const json_t *doc)
{
    const json_t *r = json_object_get(doc, "relevance");
    if (r && strcmp(str_at(r, "mode"), "ml") == 0) {
        relevance_ml(b, r);
        return;
    }
    const json_t *names = json_object_get(r, "inputs"), *pip = json_object_get(r, "pip");
    const json_t *sc = json_object_get(r, "scale_mean"), *sel = json_object_get(r, "selected_scale");
    const size_t d = json_array_size(names);
    if (!r || !d || json_array_size(pip) != d || json_array_size(sc) != d || json_array_size(sel) != d) return;
    add(b, "\nInput relevance inside the kernel (--relevance %s; %.0f of %.0f moves accepted)\n", str_at(r, "mode"),
        json_number_value(json_object_get(r, "moves_accepted")), json_number_value(json_object_get(r, "moves_proposed")));
    add(b, "  %-16s %6s  %-30s %10s %10s\n", "input", "PIP", "", "E scale", "refit at");
    unsigned char *done = calloc(d, 1);
    for (size_t t = 0; t < d && done; t++) {
        size_t best = d;
        for (size_t a = 0; a < d; a++)
            if (!done[a] && (best == d || json_number_value(json_array_get(pip, a)) >
                                              json_number_value(json_array_get(pip, best))))
                best = a;
        done[best] = 1;
        const double p = json_number_value(json_array_get(pip, best));
        char bar[31];
        const long fill = lround(p * 30);
        for (long i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
        bar[30] = 0;
        add(b, "  %-16s %6.3f  %s %10.3g %10.3g\n", json_string_value(json_array_get(names, best)), p, bar,
            json_number_value(json_array_get(sc, best)), json_number_value(json_array_get(sel, best)));
    }
    if (!done) b->failed = 1;
    free(done);
    add(b, "  (the atoms above, their PIPs and the predictions are those of the refit at these scales)\n");
}

/* FIT.json's credible_sets (docs/FIT.md), one line per set. */
static void credible_sets(strbuf *b, const json_t *doc)
{
    const json_t *cs = json_object_get(doc, "credible_sets"), *sets = json_object_get(cs, "sets");
    if (!cs) return;
    add(b, "\nCredible sets (coverage %.2f, purity >= %.2f): %zu\n", json_number_value(json_object_get(cs, "coverage_target")),
        json_number_value(json_object_get(cs, "min_abs_corr")), json_array_size(sets));
    for (size_t i = 0; i < json_array_size(sets); i++) {
        const json_t *s = json_array_get(sets, i);
        add(b, "  set %zu: coverage %.3f, purity %.3f, %zu input%s: ", i + 1, json_number_value(json_object_get(s, "coverage")),
            json_number_value(json_object_get(s, "purity")), json_array_size(json_object_get(s, "atoms")),
            json_array_size(json_object_get(s, "atoms")) == 1 ? "" : "s");
        atom_list(b, doc, json_object_get(s, "atoms"), 12);
        /* a second signal in one correlation cluster (docs/FIT.md): say
         * which and why, since it sits beside a set of correlated inputs */
        const json_int_t l = json_integer_value(json_object_get(s, "signal"));
        if (l > 1)
            add(b, " (signal %lld of the cluster of %s: P(model holds %lld or more of it) = %.3f)", (long long)l,
                atom_name(doc, (size_t)json_integer_value(json_object_get(s, "lead"))), (long long)l,
                json_number_value(json_object_get(s, "signal_prob")));
        add(b, "\n");
    }
}

static void bayes_factor(strbuf *b, double log_bf)
{
    if (fabs(log_bf) < 700) add(b, "%10.3g ", exp(log_bf));
    else add(b, "  e^%-6.0f ", log_bf);
}

/* The coefficient table: the intercept and the terms of largest PIP. */
static void coefficients(strbuf *b, const json_t *doc)
{
    const json_t *co = json_object_get(doc, "coefficients"), *terms = json_object_get(co, "terms");
    if (!json_array_size(terms)) return;
    /* "laplace": a GLM's (docs/GLM.md); else a sentence (a mixture of g-priors', FIT.md) */
    const char *within = json_string_value(json_object_get(co, "within_model"));
    const int laplace = within && strcmp(within, "laplace") == 0;
    const char *family = json_string_value(json_object_get(json_object_get(doc, "settings"), "family"));
    const int glm = family && strcmp(family, "gaussian") != 0; /* binomial, multinomial, poisson */
    const char *link = !glm ? "" : strcmp(family, "poisson") == 0 ? ", log-rate" : ", log-odds";
    char share[32];
    add(b, "\nCoefficients (original scale%s; model-averaged over %lld models holding %s of the posterior%s%s)\n",
        link, (long long)json_integer_value(json_object_get(co, "models")),
        percent(share, sizeof share, json_number_value(json_object_get(co, "covered"))),
        laplace ? ", each by its Laplace approximation" : within ? "; " : "", within && !laplace ? within : "");
    add(b, "  %-16s %6s %11s %11s %11s %11s  %s\n", "term", "PIP", "mean", "sd", "mean|in", "sd|in",
        "95% interval");
    /* a kernel dictionary's atoms are left out: neighbouring kernels share
     * one effect between them, so one kernel's coefficient says little */
    const int kernels = kernel_basis(doc) != NULL;
    size_t shown = 0, n = json_array_size(terms), atoms = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *t = json_array_get(terms, i);
        const double pip = json_number_value(json_object_get(t, "pip"));
        const int always = json_is_true(json_object_get(t, "always_in"));
        atoms += !always;
        if (!always && (kernels || pip < 0.1 || shown >= 25)) continue;
        shown++;
        add(b, "  %-16s %6.3f %11.4g %11.4g ", str_at(t, "name"), pip, json_number_value(json_object_get(t, "mean")),
            json_number_value(json_object_get(t, "sd")));
        const json_t *cm = json_object_get(t, "cond_mean"), *cs = json_object_get(t, "cond_sd");
        if (cm && cs) add(b, "%11.4g %11.4g ", json_number_value(cm), json_number_value(cs));
        else add(b, "%11s %11s ", "-", "-");
        add(b, " [%.4g, %.4g]", json_number_value(json_object_get(t, "lower")),
            json_number_value(json_object_get(t, "upper")));
        if (json_array_size(json_object_get(doc, "targets")) > 1) add(b, "  (%s)", str_at(t, "target"));
        add(b, "\n");
    }
    if (kernels && atoms)
        add(b, "  (the kernels' coefficients are not shown: neighbouring kernels share one effect, so a single\n"
               "   kernel's coefficient says little; basel predict gives the fitted function, basel coef FIT.json\n"
               "   lists every term)\n");
    else if (shown < n) add(b, "  (terms with PIP below 0.1 not shown: basel coef FIT.json lists all)\n");
}

/* The smaller of a bulk and a tail ESS, either may be missing (null). */
static double ess_min(const json_t *bulk, const json_t *tail)
{
    const double a = json_is_number(bulk) ? json_number_value(bulk) : NAN;
    const double t = json_is_number(tail) ? json_number_value(tail) : NAN;
    return isnan(t) ? a : isnan(a) ? t : fmin(a, t);
}

/* R-hat and ESS as the warning rule reads them (summary.h
 * bsl_conv_warnings): the size, and the PIPs inside [0.01, 0.99]. */
static void diagnostics(strbuf *b, const json_t *doc)
{
    const json_t *dg = json_object_get(doc, "diagnostics");
    if (!dg) return;
    add(b, "\nDiagnostics\n");
    const json_t *rh = json_object_get(dg, "rhat_pip"), *es = json_object_get(dg, "ess_pip");
    const json_t *et = json_object_get(dg, "ess_tail_pip"), *pip = json_object_get(doc, "pip");
    double max_rhat = NAN, min_ess = NAN;
    for (size_t j = 0; j < json_array_size(rh); j++) {
        const double p = json_number_value(json_array_get(pip, j));
        if (!(p >= 0.01 && p <= 0.99)) continue;
        const double v = bsl_json_rhat_value(json_array_get(rh, j));
        if (!isnan(v) && !(v <= max_rhat)) max_rhat = v;
        const double e = ess_min(json_array_get(es, j), json_array_get(et, j));
        if (!isnan(e) && !(e >= min_ess)) min_ess = e;
    }
    if (!isnan(max_rhat))
        add(b, "  largest R-hat of a PIP in [0.01, 0.99] %.3f (rank-normalised split R-hat; above 1.01 warns)\n",
            max_rhat);
    if (isfinite(min_ess)) add(b, "  smallest ESS of such a PIP %.0f (bulk and tail; below 400 warns)\n", min_ess);
    const json_t *rs = json_object_get(dg, "rhat_size");
    const double ess = ess_min(json_object_get(dg, "ess_size"), json_object_get(dg, "ess_tail_size"));
    if (!isnan(bsl_json_rhat_value(rs)))
        add(b, "  model size: R-hat %.3f, ESS %.0f\n", bsl_json_rhat_value(rs), ess);
    const json_t *warnings = json_object_get(dg, "warnings");
    for (size_t i = 0; i < json_array_size(warnings); i++)
        add(b, "  WARNING: %s\n", json_string_value(json_array_get(warnings, i)) ? json_string_value(json_array_get(warnings, i)) : "?");
    if (kernel_basis(doc)) {
        const double r = bsl_json_rhat_value(rs);
        add(b, "  What to trust with a kernel dictionary: neighbouring kernels stand in for one another, so\n"
               "  single kernels' PIPs mix slowly and need not converge (their R-hats say so). The predictions,\n"
               "  the posterior of the model size and the small models (projection, prevalence) are what\n"
               "  converge: read those.\n");
        if (!isnan(r))
            add(b, "  Here the model size's R-hat is %.3f: %s\n", r,
                r > 1.01 ? "they have not converged yet; run longer (--iter) or with more chains (--chains)."
                         : "the chains agree on it.");
    }
    const json_t *pm = json_object_get(dg, "predictive_mass");
    if (json_is_number(pm))
    {
        char share[32];
        add(b, "  model-averaged intervals from models holding %s of the visited posterior\n",
            percent(share, sizeof share, json_number_value(pm)));
    }
    const char *note = json_string_value(json_object_get(dg, "note"));
    if (note && *note) add(b, "  %s\n", note);
    /* how the design held its data (docs/FIT.md diagnostics.gram, .inputs) */
    const char *gram = json_string_value(json_object_get(dg, "gram"));
    const char *inputs = json_string_value(json_object_get(dg, "inputs"));
    if (gram)
        add(b, "  cross products: %s%s\n", !strcmp(gram, "dense") ? "one Gram matrix" : "streamed from the columns",
            !inputs                     ? ""
            : !strcmp(inputs, "2-bit")  ? "; inputs held as 2-bit codes (whole numbers 0..3: exact)"
            : !strcmp(inputs, "int8")   ? "; inputs held as int8 (whole numbers: exact)"
            : !strcmp(inputs, "float32") ? "; inputs held as float32 (each rounded to 24 bits)"
                                         : "");
}

char *basel_fit_summary(const basel_fit *f)
{
    strbuf b = {0};
    const json_t *doc = f->doc;
    const json_t *tg = json_object_get(doc, "targets");
    /* a categorical input counts once, not as its indicator columns */
    size_t ninputs = json_array_size(json_object_get(doc, "inputs"));
    const json_t *fs = json_object_get(doc, "factors");
    for (size_t i = 0; i < json_array_size(fs); i++)
        ninputs -= json_array_size(json_object_get(json_array_get(fs, i), "columns")) - 1;
    add(&b, "basel %s fit of %s (n = %lld, %zu input%s, seed %lld)\n",
        json_string_value(json_object_get(doc, "method")),
        json_string_value(json_array_get(tg, 0)) ? json_string_value(json_array_get(tg, 0)) : "?",
        (long long)json_integer_value(json_object_get(doc, "n")), ninputs, ninputs == 1 ? "" : "s",
        (long long)json_integer_value(json_object_get(doc, "seed")));
    const size_t dropped = basel_fit_rows_dropped(f);
    if (dropped) add(&b, "%zu row%s with a missing value left out (--na drop)\n", dropped, dropped == 1 ? "" : "s");
    const json_t *ss = json_object_get(doc, "summary_statistics");
    if (ss)
        add(&b, "from summary statistics (%s, %s)%s\n", str_at(ss, "kind"), str_at(ss, "file"),
            json_is_true(json_object_get(ss, "means")) ? "" : ": no means, cannot predict");
    const json_t *pr = json_object_get(doc, "prior");
    if (pr)
        add(&b, "prior: coefficients %s; model %s; kmax %lld\n",
            str_at(pr, "coefficients"), str_at(pr, "model"),
            (long long)json_integer_value(json_object_get(pr, "kmax")));
    pip_table(&b, f);
    input_pips(&b, doc);
    if (json_object_get(doc, "model_size")) size_table(&b, doc);
    selected(&b, doc);
    relevance(&b, doc);
    credible_sets(&b, doc);
    coefficients(&b, doc);
    diagnostics(&b, doc);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
