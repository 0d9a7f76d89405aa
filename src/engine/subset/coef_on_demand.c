/*
 * coef_on_demand.c: a subset fit's coefficient table at another level than
 * the fit's, for the model average or one model (bsl_subset_model_coef),
 * and the densities of its terms (bsl_subset_coef_density): from the
 * engine block, by the same per-model algebra as the table the fit wrote
 * (subset_post.c, coef_shared.c), so that at the fit's level the two agree
 * to the bit.
 */
#include "subset_predict.h"
#include "coef_table.h"
#include "../engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A table's row of values (basel.h's BASEL_COEF_*) from a term's JSON row
 * (coef_table.c), times the target's scale (standardize.target_scale: the
 * engine block is in the rescaled units, FIT.md "Extreme values"); NaN for
 * a number the row does not have. */
static void row_values(const json_t *row, double scale, double *v)
{
    for (size_t i = 0; i < BASEL_COEF_NVALUES; i++) {
        const json_t *x = json_object_get(row, bsl_coef_value_keys[i]);
        v[i] = json_is_number(x) ? json_number_value(x) * (i == BASEL_COEF_PIP ? 1.0 : scale) : NAN;
    }
}

/* The models a table is made of: K models, model r with atoms (global
 * indices) atoms[off[r] .. off[r + 1]), posterior post[r] and weight w[r];
 * pip[j] atom j's PIP, or NULL for one model (1 in it, 0 outside). With
 * set (the model average's), the components come from its Gram block as
 * the fit's table got them (bsl_coef_comps_shared), not from post. */
typedef struct table_models {
    size_t K;
    const size_t *off, *atoms;
    const bsl_post *post;
    const double *w, *pip;
    const bsl_pred_set *set;
} table_models;

/* The model average's components from its Gram block, as the fit's table
 * (subset_post.c collect): the same algebra on the same numbers. 1 when it
 * does not apply (as the fit's table, then model by model). */
static int set_comps(const bsl_pred_set *s, size_t nterm, const bsl_design *D, bsl_coef_comps *cp, const double *mu,
                     const double *sc, int linear)
{
    const size_t K = s->K;
    const size_t **atoms = bsl_malloc(K + 1, sizeof *atoms);
    size_t *ks = bsl_malloc(K + 1, sizeof *ks);
    int rc = atoms && ks ? 0 : -2;
    for (size_t r = 0; r < K && !rc; r++) {
        atoms[r] = s->atoms + s->off[r];
        ks[r] = s->off[r + 1] - s->off[r];
    }
    const bsl_coef_gram gm = {s->D.G, s->D.m, s->D.Bty, s->uni, s->D.m, s->tau, &s->prior,
                              (double)(s->D.n - D->q), s->D.yy, 0, NULL, NULL};
    if (!rc) {
        const int st = bsl_coef_comps_shared(cp, nterm, D, &gm, K, (const size_t *const *)atoms, ks, s->w, mu, sc, linear);
        rc = st == BASEL_ENOMEM ? -2 : st == BASEL_EINVAL ? 1 : st ? -1 : 0;
    }
    free((void *)atoms);
    free(ks);
    return rc;
}

/* What is asked of a table's terms: their rows at level (x NULL), or the
 * density of each term's posterior at nx points (row r's at x[r * nx ..]),
 * into out. */
typedef struct table_job {
    double level;
    const double *x;
    size_t nx;
    double *out;
} table_job;

/* The components of every term of tm's models into cp (coef_table.h): the
 * same per-model algebra (bsl_post_terms) as the table the fit wrote.
 * 0, -1 (malformed), -2 (out of memory); cp is to be freed either way. */
static int table_comps(const bsl_pred_ctx *v, const json_t *doc, const table_models *tm, bsl_coef_comps *cp)
{
    const size_t q = v->q, c = v->c, m = v->m, nterm = q + m, d = json_array_size(json_object_get(doc, "inputs"));
    const json_t *st = json_object_get(doc, "standardize");
    const char *kind = json_string_value(json_object_get(json_object_get(json_object_get(doc, "engine"), "basis"), "kind"));
    const int linear = kind && bsl_basis_kind_from_name(kind) == BSL_BASIS_LINEAR;
    size_t kmax = 0;
    for (size_t r = 0; r < tm->K; r++) kmax = BSL_MAX(kmax, tm->off[r + 1] - tm->off[r]);
    double *mu = bsl_malloc(d + 1, sizeof *mu), *sc = bsl_malloc(d + 1, sizeof *sc);
    double *u = bsl_malloc(q + 1, sizeof *u), *t = bsl_malloc(q + 1, sizeof *t), *x = bsl_malloc(kmax + 1, sizeof *x);
    int rc = bsl_coef_comps_init(cp, c * nterm) || !mu || !sc || !u || !t || !x ? -2 : 0;
    if (!rc && (bsl_json_read_doubles(json_object_get(st, "mean"), mu, d) ||
                bsl_json_read_doubles(json_object_get(st, "scale"), sc, d)))
        rc = -1;
    for (size_t a = 0; a < tm->off[tm->K] && !rc; a++)
        rc = tm->atoms[a] >= m || (linear && tm->atoms[a] >= d) ? -1 : 0;
    for (size_t o = 0; o < c && !rc; o++) {
        for (size_t l = 0; l < q; l++) cp->off[o * nterm + l] = tm->K;
        for (size_t a = 0; a < tm->off[tm->K]; a++) cp->off[o * nterm + q + tm->atoms[a]]++;
    }
    if (!rc && bsl_coef_comps_alloc(cp)) rc = -2;
    const bsl_design D = {.q = q, .c = c, .gy = v->gy, .gB = v->gB, .R = v->R};
    int shared = 0;
    if (!rc && tm->set) {
        rc = set_comps(tm->set, nterm, &D, cp, mu, sc, linear);
        shared = !rc;
        if (rc == 1) rc = 0;
    }
    for (size_t r = 0; r < tm->K && !rc && !shared; r++)
        for (size_t o = 0; o < c; o++)
            bsl_post_terms(cp, o, nterm, &D, &tm->post[r], tm->atoms + tm->off[r], tm->w[r], mu, sc, linear, u, x, t);
    free(mu);
    free(sc);
    free(u);
    free(t);
    free(x);
    return rc;
}

/* The rows (job->x NULL) or densities of the table of tm's models into
 * job->out, in the document's table's order: a row as the fit's table
 * makes it (bsl_coef_term_json); a density that of the term's mixture with
 * its weights renormalised to the PIP (bsl_tmix_density: the continuous
 * part; 1 - PIP is the mass at 0). 0, -1 (malformed), -2 (out of memory). */
static int table_rows(const bsl_pred_ctx *v, const json_t *doc, const table_models *tm, const table_job *job)
{
    const size_t q = v->q, c = v->c, nterm = q + v->m;
    const json_t *ts = json_object_get(json_object_get(doc, "standardize"), "target_scale");
    /* under a mixture of g-priors a model's coefficients are a mixture over g
     * of Student-t's: their means are exact, their spread is not computed
     * (as predict refuses their intervals: pred_gauss.c's interval_refused) */
    char name[64];
    const int spread = !bsl_pred_mixture_over_g(doc, name, sizeof name);
    bsl_coef_comps cp;
    int rc = table_comps(v, doc, tm, &cp);
    for (size_t o = 0; o < c && !rc; o++) {
        const double scale = ts ? json_number_value(json_array_get(ts, o)) : 1.0;
        for (size_t j = 0; j < nterm && !rc; j++) {
            const size_t r = o * nterm + j, off = cp.off[r], K = cp.fill[r];
            const double pip = j < q ? 1.0 : tm->pip ? fmin(fmax(tm->pip[j - q], 0.0), 1.0) : K ? 1.0 : 0.0;
            if (job->x) { /* the density, in the target's units: f(x / scale) / scale */
                double W = 0;
                for (size_t i = 0; i < K; i++) W += cp.w[off + i];
                for (size_t i = 0; i < K; i++) cp.w[off + i] *= W > 0 ? pip / W : 0.0;
                const bsl_tmix t = {cp.w + off, cp.mu + off, cp.s + off, cp.df + off, K, 1 - pip};
                for (size_t i = 0; i < job->nx; i++)
                    job->out[r * job->nx + i] = bsl_tmix_density(&t, job->x[r * job->nx + i] / scale) / scale;
                continue;
            }
            json_t *row = bsl_coef_term_json(cp.w + off, cp.mu + off, cp.s + off, cp.df + off, K, pip, job->level, 0,
                                             &cp.ws, NULL);
            double *out = job->out + r * BASEL_COEF_NVALUES;
            if (!row) rc = -2;
            else row_values(row, scale, out);
            for (size_t i = BASEL_COEF_SD; row && !spread && K && i < BASEL_COEF_NVALUES; i++)
                if (i != BASEL_COEF_COND_MEAN) out[i] = NAN;
            json_decref(row);
        }
    }
    if (!rc && cp.ws.oom) rc = -2;
    bsl_coef_comps_free(&cp);
    return rc;
}

/* One model's table: its predictor block, one model of weight 1. */
static int single_rows(bsl_pred_ctx *v, const json_t *doc, const json_t *blk, const table_job *job)
{
    bsl_pred_model b;
    int rc = bsl_pred_model_read(v, blk, &b);
    if (!rc) {
        const size_t off[2] = {0, b.k};
        const double w = 1.0;
        const bsl_post p = {.k = b.k, .c = v->c, .beta = b.beta, .V = b.V, .scale2 = b.s2, .df = b.df};
        const table_models tm = {1, off, b.atoms, &p, &w, NULL, NULL};
        rc = table_rows(v, doc, &tm, job);
    }
    bsl_pred_model_free(&b);
    return rc;
}

/* The model average's table: the models of its predictive block
 * (bma.posterior: all but 1e-6 of the posterior weight), each refitted
 * exactly as predict refits them (bsl_pred_set_read), weighted as there; the
 * atoms' PIPs the document's table's (a column of a grouped factor has its
 * group's, where the document's "pip" is per group). */
static int average_rows(bsl_pred_ctx *v, const json_t *doc, const json_t *bma, const table_job *job)
{
    const json_t *post = json_object_get(bma, "posterior");
    const json_t *terms = json_object_get(json_object_get(doc, "coefficients"), "terms");
    if (!post) return -3; /* a fit written before the block */
    bsl_pred_set s;
    int rc = bsl_pred_set_read(&s, v, post);
    const size_t total = rc ? 0 : s.off[s.K];
    size_t *atoms = rc ? NULL : bsl_malloc(total + 1, sizeof *atoms);
    bsl_post *pp = rc ? NULL : bsl_calloc(s.K + 1, sizeof *pp);
    double *pip = rc ? NULL : bsl_malloc(v->m + 1, sizeof *pip);
    if (!rc && (!atoms || !pp || !pip)) rc = -2;
    for (size_t j = 0; j < v->m && !rc; j++) {
        const json_t *x = json_object_get(json_array_get(terms, v->q + j), "pip");
        if (json_is_number(x)) pip[j] = json_number_value(x);
        else rc = -1;
    }
    for (size_t a = 0; a < total && !rc; a++) atoms[a] = s.uni[s.atoms[a]]; /* local to global */
    for (size_t r = 0; r < s.K && !rc; r++)
        pp[r] = (bsl_post){.k = s.off[r + 1] - s.off[r], .c = v->c, .beta = s.beta + s.off[r] * v->c,
                           .V = s.V + s.voff[r], .scale2 = s.scale2 + r * v->c, .df = s.df[r]};
    if (!rc) {
        const table_models tm = {s.K, s.off, atoms, pp, s.w, pip, &s};
        rc = table_rows(v, doc, &tm, job);
    }
    bsl_pred_set_free(&s);
    free(atoms);
    free(pp);
    free(pip);
    return rc;
}

/* A table on demand (bsl_subset_model_coef, bsl_subset_coef_density). */
static int on_demand(const json_t *doc, const char *model, const table_job *job, size_t rows, basel_error *err)
{
    const char *family = json_string_value(json_object_get(json_object_get(doc, "engine"), "family"));
    if (family && strcmp(family, "gaussian") != 0)
        return bsl_fail(err, BASEL_EINVAL,
                        "a coefficient table on demand is computed for Gaussian fits, not --family %s (its table "
                        "at the fit's level is basel_fit_coef)",
                        family);
    char name[64];
    const int bma = strcmp(model, "bma") == 0;
    if ((bma || job->x) && bsl_pred_mixture_over_g(doc, name, sizeof name))
        return bsl_fail(err, BASEL_EINVAL,
                        "--prior %s: %s coefficients are mixtures over g of Student-t's, whose %s basel does not "
                        "compute",
                        name, bma ? "the model average's" : "a model's",
                        job->x ? "densities" : "intervals at another level than the fit's (basel_fit_coef)");
    const json_t *blk = json_object_get(json_object_get(json_object_get(doc, "engine"), "predictor"), model);
    if (!blk) return bsl_pred_no_predictor(doc, model, err);
    bsl_pred_ctx v;
    int rc = bsl_pred_ctx_init(&v, doc, NULL, 0, json_array_size(json_object_get(doc, "inputs")), err);
    if (!rc && v.q > 64) rc = bsl_fail(err, BASEL_ERANGE, "too many always-in columns for the coefficient table");
    if (!rc && rows != v.c * (v.q + v.m))
        rc = bsl_fail(err, BASEL_EPARSE, "the fit's coefficient table has %zu rows, its engine block %zu terms", rows,
                      v.c * (v.q + v.m));
    const int bad = rc ? 0 : bma ? average_rows(&v, doc, blk, job) : single_rows(&v, doc, blk, job);
    if (bad == -2) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    else if (bad == -3)
        rc = bsl_fail(err, BASEL_EINVAL,
                      "this fit was written before basel kept the model average's predictive block: its "
                      "coefficients are the table at the fit's level only (fit again)");
    else if (bad) rc = bsl_fail(err, BASEL_EPARSE, "the fit's '%s' predictor is malformed", model);
    bsl_pred_ctx_free(&v);
    return rc;
}

int bsl_subset_model_coef(const json_t *doc, const char *model, double level, double *out, size_t rows,
                          basel_error *err)
{
    const table_job job = {level, NULL, 0, out};
    return on_demand(doc, model, &job, rows, err);
}

int bsl_subset_coef_density(const json_t *doc, const char *model, const double *x, size_t nx, double *out,
                            size_t rows, basel_error *err)
{
    const table_job job = {0.95, x, nx, out};
    return on_demand(doc, model, &job, rows, err);
}
