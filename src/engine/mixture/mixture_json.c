/*
 * mixture_json.c: a bsl_mix_result to and from a jansson object. The object
 * holds the settings, the summaries and every kept draw, so prediction needs
 * nothing else. The reader trusts nothing: every field is checked for type,
 * length, range and finiteness before use, sizes are capped so products
 * cannot overflow, and a failure leaves *out NULL with the field named.
 * Doubles go through json_real, which jansson prints with 17 significant
 * digits, so they read back identical. The timing is not written: the same
 * seed gives the same bytes.
 */
#include "mixture.h"
#include "../../core/jsonutil.h"

/* the document's "engine" tag, written and checked here */
#define ENGINE_TAG "mixture"

#include <float.h>
#include <math.h>
#include <string.h>

enum { FORMAT_VERSION = 1 };
/* Caps for the reader: far above any real fit, low enough that
 * d * D * draws cannot overflow a size_t. */
static const size_t MAX_DIM = 100000, MAX_DRAWS = 10000000;

/* ------------------------------------------------------------- writing */

static json_t *options_json(const bsl_mix_options *o)
{
    return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:f,s:I,s:I,s:I,s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,"
                     "s:f,s:f,s:i,s:s,s:f,s:i,s:f,s:I,s:f,s:i,s:f,s:i}",
                     "kernels", (json_int_t)o->kernels, "iter", (json_int_t)o->iter, "burn",
                     (json_int_t)o->burn, "thin", (json_int_t)o->thin, "chains", (json_int_t)o->chains,
                     "seed", (json_int_t)o->seed, "poisson_mean", o->poisson_mean, "max_inputs",
                     (json_int_t)o->max_inputs, "min_inputs", (json_int_t)o->min_inputs,
                     "exchange_moves", (json_int_t)o->exchange_moves, "birth_death_moves",
                     (json_int_t)o->birth_death_moves, "top", (json_int_t)o->top, "a", o->a, "g", o->g,
                     "h", o->h, "delta_w", o->delta_w, "delta_p", o->delta_p, "split_a", o->split_a,
                     "split_b", o->split_b, "prior_mid", o->prior_mid, "prior_range", o->prior_range,
                     "add_proposal", o->add_proposal, "excluded",
                     o->excluded == BSL_MIX_EXCLUDED_GAUSSIAN ? "gaussian" : "regression", "excluded_g",
                     o->excluded_g, "unlabelled", o->unlabelled, "pair_prob", o->pair_prob, "temperatures", (json_int_t)o->temperatures, "temp_max", o->temp_max,
                     "informed", o->informed, "beta_min", o->beta_min, "informed_exchange", o->informed_exchange);
}

static json_t *subsets_json(const bsl_mix_result *r)
{
    json_t *a = json_array();
    for (size_t s = 0; a && s < r->nsub; s++) {
        json_t *e = json_pack("{s:o,s:f}", "inputs",
                              bsl_json_sizes(r->sub_idx + r->sub_off[s], r->sub_off[s + 1] - r->sub_off[s]),
                              "prob", r->sub_prob[s]);
        if (!e || json_array_append_new(a, e)) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *draws_json(const bsl_mix_result *r)
{
    const size_t D = r->D, K = r->K;
    json_t *in = json_array(), *mu = json_array(), *prec = json_array(), *w = json_array(),
           *P = json_array();
    int bad = !in || !mu || !prec || !w || !P;
    for (size_t t = 0; !bad && t < r->ndraw; t++) {
        const size_t o = r->draw_off[t], I = r->draw_off[t + 1] - o;
        bad = json_array_append_new(in, bsl_json_sizes(r->draw_idx + o, I)) ||
              json_array_append_new(mu, bsl_json_doubles(r->draw_mu + o * D, I * D)) ||
              json_array_append_new(prec, bsl_json_doubles(r->draw_prec + o * D, I * D)) ||
              json_array_append_new(w, bsl_json_doubles(r->draw_w + t * K * D, K * D)) ||
              json_array_append_new(P, bsl_json_doubles(r->draw_P + t * K, K));
    }
    if (bad) {
        json_decref(in), json_decref(mu), json_decref(prec), json_decref(w), json_decref(P);
        return NULL;
    }
    return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o}", "count", (json_int_t)r->ndraw, "inputs", in, "mu", mu,
                     "prec", prec, "w", w, "P", P);
}

json_t *bsl_mix_to_json(const bsl_mix_result *r)
{
    if (!r) return NULL;
    json_t *prop = json_pack("[I,I,I]", (json_int_t)r->prop[0], (json_int_t)r->prop[1], (json_int_t)r->prop[2]);
    json_t *acc = json_pack("[I,I,I]", (json_int_t)r->acc[0], (json_int_t)r->acc[1], (json_int_t)r->acc[2]);
    return json_pack("{s:s,s:i,s:I,s:I,s:I,s:o,s:o,s:o,s:f,s:I,s:I,s:o,s:o,s:o,s:o}", "engine", ENGINE_TAG,
                     "format_version", FORMAT_VERSION, "inputs", (json_int_t)r->d, "classes",
                     (json_int_t)r->K, "kernels", (json_int_t)r->D, "options", options_json(&r->opt),
                     "pip", bsl_json_doubles(r->pip, r->d), "size_post", bsl_json_doubles(r->size_post, r->d + 1),
                     "mean_inputs", r->mean_inputs, "max_inputs_used", (json_int_t)r->max_inputs,
                     "subsets_visited", (json_int_t)r->nvisited, "subsets", subsets_json(r),
                     "proposed", prop, "accepted", acc, "draws", draws_json(r));
}

/* ------------------------------------------------------------- reading */

static int get_size(const json_t *o, const char *key, size_t max, size_t *out, basel_error *err)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (size_t)json_integer_value(v) > max)
        return bsl_fail(err, BASEL_EPARSE, "mixture JSON: '%s' must be an integer in 0..%zu", key, max);
    *out = (size_t)json_integer_value(v);
    return BASEL_OK;
}

static int get_real(const json_t *o, const char *key, double *out, basel_error *err)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return bsl_fail(err, BASEL_EPARSE, "mixture JSON: '%s' must be a finite number", key);
    *out = json_number_value(v);
    return BASEL_OK;
}

/* n reals from array a into x, each in [lo, hi]. */
static int read_reals(const json_t *a, size_t n, double lo, double hi, double *x, const char *what,
                      basel_error *err)
{
    if (!json_is_array(a) || json_array_size(a) != n)
        return bsl_fail(err, BASEL_EPARSE, "mixture JSON: '%s' must be an array of %zu numbers", what, n);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, i);
        const double val = json_is_number(v) ? json_number_value(v) : NAN;
        if (!(val >= lo && val <= hi))
            return bsl_fail(err, BASEL_EPARSE, "mixture JSON: '%s'[%zu] is not a number in [%g, %g]", what, i,
                            lo, hi);
        x[i] = val;
    }
    return BASEL_OK;
}

/* Strictly increasing input indices below d into x; their count in *len. */
static int read_inputs(const json_t *a, size_t d, size_t *x, size_t *len, const char *what,
                       basel_error *err)
{
    if (!json_is_array(a) || json_array_size(a) > d)
        return bsl_fail(err, BASEL_EPARSE, "mixture JSON: '%s' must be an array of at most %zu inputs", what, d);
    *len = json_array_size(a);
    for (size_t i = 0; i < *len; i++) {
        const json_t *v = json_array_get(a, i);
        const json_int_t k = json_is_integer(v) ? json_integer_value(v) : -1;
        if (k < 0 || (size_t)k >= d || (i > 0 && (size_t)k <= x[i - 1]))
            return bsl_fail(err, BASEL_EPARSE, "mixture JSON: '%s' must hold increasing inputs in 0..%zu",
                            what, d - 1);
        x[i] = (size_t)k;
    }
    return BASEL_OK;
}

static int read_options(const json_t *o, bsl_mix_options *op, basel_error *err)
{
    if (!json_is_object(o)) return bsl_fail(err, BASEL_EPARSE, "mixture JSON: 'options' must be an object");
    bsl_mix_options_default(op);
    size_t seed = 0;
    int rc = get_size(o, "kernels", MAX_DIM, &op->kernels, err);
    if (!rc) rc = get_size(o, "iter", (size_t)-1 / 2, &op->iter, err);
    if (!rc) rc = get_size(o, "burn", (size_t)-1 / 2, &op->burn, err);
    if (!rc) rc = get_size(o, "thin", (size_t)-1 / 2, &op->thin, err);
    if (!rc) rc = get_size(o, "chains", MAX_DIM, &op->chains, err);
    if (!rc) rc = get_size(o, "seed", (size_t)-1 / 2, &seed, err);
    if (!rc) rc = get_size(o, "max_inputs", MAX_DIM, &op->max_inputs, err);
    if (!rc) rc = get_size(o, "min_inputs", MAX_DIM, &op->min_inputs, err);
    if (!rc) rc = get_size(o, "exchange_moves", MAX_DIM, &op->exchange_moves, err);
    if (!rc) rc = get_size(o, "birth_death_moves", MAX_DIM, &op->birth_death_moves, err);
    if (!rc) rc = get_size(o, "top", (size_t)-1 / 2, &op->top, err);
    if (!rc) rc = get_real(o, "poisson_mean", &op->poisson_mean, err);
    if (!rc) rc = get_real(o, "a", &op->a, err);
    if (!rc) rc = get_real(o, "g", &op->g, err);
    if (!rc) rc = get_real(o, "h", &op->h, err);
    if (!rc) rc = get_real(o, "delta_w", &op->delta_w, err);
    if (!rc) rc = get_real(o, "delta_p", &op->delta_p, err);
    if (!rc) rc = get_real(o, "split_a", &op->split_a, err);
    if (!rc) rc = get_real(o, "split_b", &op->split_b, err);
    if (!rc) rc = get_real(o, "prior_mid", &op->prior_mid, err);
    if (!rc) rc = get_real(o, "prior_range", &op->prior_range, err);
    size_t prop = 0;
    if (!rc) rc = get_size(o, "add_proposal", BSL_MIX_PROPOSE_SUMMED, &prop, err);
    op->add_proposal = (int)prop;
    /* absent in fits written before the regression model existed */
    const json_t *ex = json_object_get(o, "excluded");
    if (!rc && ex) {
        const char *name = json_string_value(ex);
        if (name && !strcmp(name, "gaussian"))
            op->excluded = BSL_MIX_EXCLUDED_GAUSSIAN;
        else if (name && !strcmp(name, "regression"))
            op->excluded = BSL_MIX_EXCLUDED_REGRESSION;
        else
            rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: options.excluded must be \"gaussian\" or \"regression\"");
    } else if (!ex) {
        op->excluded = BSL_MIX_EXCLUDED_GAUSSIAN;
    }
    if (!rc && json_object_get(o, "excluded_g")) rc = get_real(o, "excluded_g", &op->excluded_g, err);
    /* absent in fits written before the option: those used every row */
    size_t unl = 1;
    if (!rc && json_object_get(o, "unlabelled")) rc = get_size(o, "unlabelled", 1, &unl, err);
    op->unlabelled = (int)unl;
    if (!rc && json_object_get(o, "pair_prob")) rc = get_real(o, "pair_prob", &op->pair_prob, err);
    if (!rc && json_object_get(o, "temperatures")) rc = get_size(o, "temperatures", BSL_MIX_MAX_TEMPERATURES, &op->temperatures, err);
    if (!rc && json_object_get(o, "temp_max")) rc = get_real(o, "temp_max", &op->temp_max, err);
    size_t inf = 0; /* absent in fits written before the informed moves */
    if (!rc && json_object_get(o, "informed")) rc = get_size(o, "informed", 1, &inf, err);
    op->informed = (int)inf;
    size_t infx = 0; /* absent in fits written before the informed exchange: uniform */
    if (!rc && json_object_get(o, "informed_exchange")) rc = get_size(o, "informed_exchange", 1, &infx, err);
    op->informed_exchange = (int)infx;
    op->beta_min = 0; /* absent in fits written before the bound: the paper's prior */
    if (!rc && json_object_get(o, "beta_min")) rc = get_real(o, "beta_min", &op->beta_min, err);
    op->seed = (unsigned long)seed;
    return rc;
}

/* Totals needed to allocate: sum of subset sizes and of draw sizes. */
static int count_totals(const json_t *subs, const json_t *din, size_t d, size_t *sub_total,
                        size_t *draw_total, basel_error *err)
{
    *sub_total = *draw_total = 0;
    for (size_t s = 0; s < json_array_size(subs); s++) {
        const json_t *in = json_object_get(json_array_get(subs, s), "inputs");
        if (!json_is_array(in) || json_array_size(in) > d)
            return bsl_fail(err, BASEL_EPARSE, "mixture JSON: subsets[%zu].inputs is malformed", s);
        *sub_total += json_array_size(in);
    }
    for (size_t t = 0; t < json_array_size(din); t++) {
        const json_t *in = json_array_get(din, t);
        if (!json_is_array(in) || json_array_size(in) > d)
            return bsl_fail(err, BASEL_EPARSE, "mixture JSON: draws.inputs[%zu] is malformed", t);
        *draw_total += json_array_size(in);
    }
    return BASEL_OK;
}

static int read_subsets(bsl_mix_result *r, const json_t *subs, basel_error *err)
{
    size_t off = 0;
    for (size_t s = 0; s < r->nsub; s++) {
        const json_t *e = json_array_get(subs, s);
        size_t len = 0;
        r->sub_off[s] = off;
        int rc = read_inputs(json_object_get(e, "inputs"), r->d, r->sub_idx + off, &len, "subsets.inputs", err);
        if (!rc) rc = get_real(e, "prob", &r->sub_prob[s], err);
        if (!rc && !(r->sub_prob[s] >= 0 && r->sub_prob[s] <= 1))
            rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: subsets[%zu].prob is not in [0, 1]", s);
        if (rc) return rc;
        off += len;
    }
    r->sub_off[r->nsub] = off;
    return BASEL_OK;
}

static int read_draws(bsl_mix_result *r, const json_t *dr, basel_error *err)
{
    const size_t D = r->D, K = r->K;
    const json_t *in = json_object_get(dr, "inputs"), *mu = json_object_get(dr, "mu"),
                 *prec = json_object_get(dr, "prec"), *w = json_object_get(dr, "w"), *P = json_object_get(dr, "P");
    if (json_array_size(mu) != r->ndraw || json_array_size(prec) != r->ndraw ||
        json_array_size(w) != r->ndraw || json_array_size(P) != r->ndraw)
        return bsl_fail(err, BASEL_EPARSE, "mixture JSON: draws.mu/prec/w/P must hold %zu draws", r->ndraw);
    size_t off = 0;
    for (size_t t = 0; t < r->ndraw; t++) {
        size_t I = 0;
        r->draw_off[t] = off;
        int rc = read_inputs(json_array_get(in, t), r->d, r->draw_idx + off, &I, "draws.inputs", err);
        if (!rc) rc = read_reals(json_array_get(mu, t), I * D, -HUGE_VAL, HUGE_VAL, r->draw_mu + off * D, "draws.mu", err);
        if (!rc) rc = read_reals(json_array_get(prec, t), I * D, DBL_MIN, HUGE_VAL, r->draw_prec + off * D, "draws.prec", err);
        if (!rc) rc = read_reals(json_array_get(w, t), K * D, 0, 1, r->draw_w + t * K * D, "draws.w", err);
        if (!rc) rc = read_reals(json_array_get(P, t), K, 0, 1, r->draw_P + t * K, "draws.P", err);
        if (rc) return rc;
        off += I;
    }
    r->draw_off[r->ndraw] = off;
    return BASEL_OK;
}

static int read_summaries(bsl_mix_result *r, const json_t *j, basel_error *err)
{
    const json_t *prop = json_object_get(j, "proposed"), *acc = json_object_get(j, "accepted");
    double pa[3], aa[3];
    int rc = read_reals(json_object_get(j, "pip"), r->d, 0, 1, r->pip, "pip", err);
    if (!rc) rc = read_reals(json_object_get(j, "size_post"), r->d + 1, 0, 1, r->size_post, "size_post", err);
    if (!rc) rc = get_real(j, "mean_inputs", &r->mean_inputs, err);
    if (!rc && !(r->mean_inputs >= 0 && r->mean_inputs <= (double)r->d))
        rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: 'mean_inputs' is not in [0, %zu]", r->d);
    if (!rc) rc = get_size(j, "max_inputs_used", r->d, &r->max_inputs, err);
    if (!rc) rc = get_size(j, "subsets_visited", (size_t)-1 / 2, &r->nvisited, err);
    if (!rc) rc = read_reals(prop, 3, 0, 9e18, pa, "proposed", err);
    if (!rc) rc = read_reals(acc, 3, 0, 9e18, aa, "accepted", err);
    for (int v = 0; !rc && v < 3; v++) {
        r->prop[v] = (unsigned long)pa[v], r->acc[v] = (unsigned long)aa[v];
        if (r->acc[v] > r->prop[v]) rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: accepted > proposed");
    }
    return rc;
}

int bsl_mix_from_json(bsl_mix_result **out, const json_t *j, basel_error *err)
{
    if (!out) return bsl_fail(err, BASEL_EINVAL, "mixture JSON: NULL output");
    *out = NULL;
    if (!json_is_object(j)) return bsl_fail(err, BASEL_EPARSE, "mixture JSON: not an object");
    const json_t *eng = json_object_get(j, "engine"), *dr = json_object_get(j, "draws");
    const json_t *subs = json_object_get(j, "subsets");
    size_t fv = 0, d = 0, K = 0, D = 0, ndraw = 0, sub_total = 0, draw_total = 0;
    if (!json_is_string(eng) || strcmp(json_string_value(eng), ENGINE_TAG))
        return bsl_fail(err, BASEL_EPARSE, "mixture JSON: 'engine' must be \"mixture\"");
    int rc = get_size(j, "format_version", 1000, &fv, err);
    if (!rc && fv != FORMAT_VERSION)
        rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: format_version %zu is not %d", fv, FORMAT_VERSION);
    if (!rc) rc = get_size(j, "inputs", MAX_DIM, &d, err);
    if (!rc) rc = get_size(j, "classes", MAX_DIM, &K, err);
    if (!rc) rc = get_size(j, "kernels", 1000, &D, err);
    if (!rc && (d < 1 || K < 2 || D < 1))
        rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: need inputs >= 1, classes >= 2, kernels >= 1");
    if (!rc && !json_is_array(subs)) rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: 'subsets' must be an array");
    if (!rc && !json_is_object(dr)) rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: 'draws' must be an object");
    if (!rc) rc = get_size(dr, "count", MAX_DRAWS, &ndraw, err);
    if (!rc && (ndraw < 1 || json_array_size(json_object_get(dr, "inputs")) != ndraw))
        rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: draws.count must be >= 1 and match draws.inputs");
    if (!rc) rc = count_totals(subs, json_object_get(dr, "inputs"), d, &sub_total, &draw_total, err);
    if (rc) return rc;
    bsl_mix_result *r = bsl_mix_result_alloc(d, K, D, json_array_size(subs), sub_total, ndraw, draw_total);
    if (!r) return bsl_fail(err, BASEL_ENOMEM, "mixture JSON: out of memory");
    rc = read_options(json_object_get(j, "options"), &r->opt, err);
    if (!rc && r->opt.kernels != D) rc = bsl_fail(err, BASEL_EPARSE, "mixture JSON: options.kernels != kernels");
    if (!rc) rc = read_summaries(r, j, err);
    if (!rc) rc = read_subsets(r, subs, err);
    if (!rc) rc = read_draws(r, dr, err);
    if (rc) {
        bsl_mix_free(r);
        return rc;
    }
    *out = r;
    return BASEL_OK;
}
