/*
 * subset_credible.c: FIT.json's "credible_sets" for the subset engines
 * (definition: summary/credible.h, docs/FIT.md). Correlations are those of
 * the projected atom columns, b_i'P b_j / sqrt(b_i'P b_i b_j'P b_j): for the
 * linear basis with the intercept always in, the inputs' Pearson
 * correlations, read from the dense Gram matrix, or (streaming designs)
 * from columns, the last few kept in a small cache.
 */
#include "subset.h"
#include "../../summary/credible.h"
#include "../../core/jsonutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NCACHE = 64 };

typedef struct corr_ctx {
    const bsl_design *D;
    long atom[NCACHE];
    /* NCACHE x n, streaming designs only, and a spare column for the atom
     * whose slot is taken by the other of the pair (before, it overwrote
     * it and both read as one column: inputs 64 apart then looked
     * correlated, shared a cluster, and a signal could lose its set) */
    double *cols;
} corr_ctx;

static const double *column(corr_ctx *c, size_t j)
{
    const size_t slot = j % NCACHE, n = c->D->n;
    if (c->atom[slot] != (long)j) {
        bsl_design_column(c->D, j, c->cols + slot * n);
        c->atom[slot] = (long)j;
    }
    return c->cols + slot * n;
}

static double abs_corr(void *ctx, size_t i, size_t j)
{
    corr_ctx *c = ctx;
    const bsl_design *D = c->D;
    if (i == j) return 1.0;
    const double den = sqrt(D->diag[i] * D->diag[j]);
    if (!(den > 0)) return 0.0;
    if (D->G) return fabs(D->G[i + j * D->m]) / den;
    const double *a = column(c, i), *b;
    if (i % NCACHE == j % NCACHE) { /* j's slot is i's: j into the spare column, so that i stays */
        double *spare = c->cols + NCACHE * D->n;
        bsl_design_column(D, j, spare);
        b = spare;
    } else {
        b = column(c, j);
    }
    return fabs(bsl_dot(a, b, D->n)) / den;
}

static json_t *set_json(const bsl_cs *s)
{
    json_t *o = json_object();
    int bad = 0;
    bsl_json_put(o, "atoms", bsl_json_sizes(s->atoms, s->k), &bad);
    bsl_json_put(o, "size", json_integer((json_int_t)s->k), &bad);
    bsl_json_put(o, "coverage", bsl_json_real(s->coverage), &bad);
    const double bounds[2] = {s->coverage_lo, s->coverage_hi};
    bsl_json_put(o, "coverage_bounds", bsl_json_doubles(bounds, 2), &bad);
    bsl_json_put(o, "purity", bsl_json_real(s->purity), &bad);
    bsl_json_put(o, "lead", json_integer((json_int_t)s->lead), &bad);
    bsl_json_put(o, "cluster_mass", bsl_json_real(s->mass), &bad);
    bsl_json_put(o, "signal", json_integer((json_int_t)s->signal), &bad);
    bsl_json_put(o, "signal_prob", bsl_json_real(s->signal_prob), &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

json_t *bsl_subset_credible_json(const bsl_vs_problem *pb, const bsl_vs_result *vr)
{
    const bsl_cs_opts opts = BSL_CS_DEFAULTS;
    corr_ctx c = {.D = pb->D};
    for (size_t s = 0; s < NCACHE; s++) c.atom[s] = -1;
    if (!pb->D->G && !(c.cols = bsl_malloc((NCACHE + 1) * pb->D->n, sizeof *c.cols))) return NULL;
    bsl_cs_list l;
    const int rc = bsl_credible_sets(vr->pip, vr->m, &vr->models, abs_corr, &c, &opts, &l);
    free(c.cols);
    if (rc) return NULL;
    json_t *o = json_object(), *sets = json_array();
    int bad = 0;
    bsl_json_put(o, "coverage_target", bsl_json_real(opts.coverage), &bad);
    bsl_json_put(o, "min_abs_corr", bsl_json_real(opts.min_abs_corr), &bad);
    bsl_json_put(o, "pip_floor", bsl_json_real(opts.pip_floor), &bad);
    for (size_t i = 0; i < l.n; i++) bsl_json_push(sets, set_json(&l.sets[i]), &bad);
    bsl_json_put(o, "sets", sets, &bad);
    bsl_cs_list_free(&l);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}
