/* credible.c: credible sets from a posterior over subsets (credible.h). */
#include "credible.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bsl_cs_list_free(bsl_cs_list *l)
{
    for (size_t i = 0; l && i < l->n; i++) free(l->sets[i].atoms);
    if (l) free(l->sets);
    if (l) memset(l, 0, sizeof *l);
}

typedef struct work {
    const double *pip;
    size_t m;
    const bsl_modelset *ms;
    double total;   /* the stored models' weight (coverages are renormalised over them) */
    double unstored; /* the share of the weight on models not stored */
    unsigned char *assigned, *in_cluster, *in_set;          /* m each */
    size_t *live;   /* the models that hold an input of the cluster, in order (signals) */
    unsigned char *covered; /* models: held an input of the set being grown */
    size_t nlive;
    size_t *by_atom, *by_atom_off; /* the models holding atom j: by_atom[by_atom_off[j] ..], in order */
    unsigned *count;               /* models: how many of the cluster's inputs model i holds */
    size_t *held;                                           /* the atoms some stored model holds */
    size_t nheld;
    double *gain;                                           /* m */
    size_t *cluster;                                        /* m */
    double *tail;                                           /* m + 2: P(K_c >= s), s = 0..m + 1 */
} work;

/* The cluster input whose addition covers the most uncovered weight: for
 * each input still to choose, the weights of the uncovered models that
 * hold it, read off its list of models (index_atoms), in the models'
 * order (the same bits as a pass over every model; the lists are short
 * and contiguous, where the models' own atoms are scattered over the
 * stored set: a pass over the models holding any of the cluster's inputs
 * took 6 % of an rj fit at p = 100). */
static long best_gain(work *w, size_t nc)
{
    for (size_t c = 0; c < nc; c++) {
        const size_t j = w->cluster[c];
        double g = 0;
        if (w->in_cluster[j] && !w->in_set[j])
            for (size_t e = w->by_atom_off[j]; e < w->by_atom_off[j + 1]; e++)
                if (!w->covered[w->by_atom[e]]) g += w->ms->items[w->by_atom[e]].weight;
        w->gain[j] = g;
    }
    long best = -1;
    for (size_t c = 0; c < nc; c++) {
        const size_t j = w->cluster[c];
        if (w->in_set[j] || !(w->gain[j] > 0)) continue;
        if (best < 0 || w->gain[j] > w->gain[best] ||
            (w->gain[j] == w->gain[best] && (w->pip[j] > w->pip[best] || (w->pip[j] == w->pip[best] && j < (size_t)best))))
            best = (long)j;
    }
    return best;
}

/* j joins the set: the models that hold it are covered (uncover: no longer) */
static void cover(work *w, size_t j, unsigned char covered)
{
    w->in_set[j] = covered;
    for (size_t e = w->by_atom_off[j]; e < w->by_atom_off[j + 1]; e++) w->covered[w->by_atom[e]] = covered;
}

static int by_index(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The models that hold an input of the cluster (those of w->cluster still
 * in_cluster) into w->live, in increasing order, with w->count[i] how many
 * of them model i holds: from the atoms' lists, so a cluster costs the
 * entries of its own inputs, not a pass over every model (a lead of small
 * PIP has a small cluster and few models). Put in order by sorting when
 * they are few; when they are many (a lead held by most models: at
 * p = 100, sorting them took 7 % of an rj fit), by reading count[] over
 * every model, which gives the same list in O(models) instead of
 * O(live log live). */
static void find_live(work *w, size_t nc)
{
    w->nlive = 0;
    for (size_t c = 0; c < nc; c++) {
        const size_t j = w->cluster[c];
        if (!w->in_cluster[j]) continue;
        for (size_t e = w->by_atom_off[j]; e < w->by_atom_off[j + 1]; e++)
            if (w->count[w->by_atom[e]]++ == 0) w->live[w->nlive++] = w->by_atom[e];
    }
    if (w->nlive * 16 < w->ms->n) {
        qsort(w->live, w->nlive, sizeof *w->live, by_index);
        return;
    }
    w->nlive = 0;
    for (size_t i = 0; i < w->ms->n; i++)
        if (w->count[i]) w->live[w->nlive++] = i;
}

static void clear_counts(work *w)
{
    for (size_t l = 0; l < w->nlive; l++) w->count[w->live[l]] = 0;
}

/* Every atom's list of the models that hold it, in the models' order. */
static int index_atoms(work *w)
{
    const bsl_modelset *ms = w->ms;
    size_t entries = 0;
    w->by_atom_off = bsl_calloc(w->m + 2, sizeof *w->by_atom_off);
    for (size_t i = 0; i < ms->n; i++) entries += ms->items[i].k;
    w->by_atom = bsl_malloc(entries + 1, sizeof *w->by_atom);
    w->count = bsl_calloc(ms->n + 1, sizeof *w->count);
    if (!w->by_atom_off || !w->by_atom || !w->count) return BASEL_ENOMEM;
    for (size_t i = 0; i < ms->n; i++) {
        const size_t *a = bsl_modelset_atoms(ms, i);
        for (size_t t = 0; t < ms->items[i].k; t++) w->by_atom_off[a[t] + 2]++;
    }
    for (size_t j = 0; j < w->m; j++) w->by_atom_off[j + 2] += w->by_atom_off[j + 1];
    for (size_t i = 0; i < ms->n; i++) { /* by_atom_off[j + 1] is atom j's next slot */
        const size_t *a = bsl_modelset_atoms(ms, i);
        for (size_t t = 0; t < ms->items[i].k; t++) w->by_atom[w->by_atom_off[a[t] + 1]++] = i;
    }
    return BASEL_OK;
}

/* Step 4 and 5 of credible.h: one set, grown from the inputs of the
 * cluster in w (those still flagged in_cluster), into cs. Returns 1 when it
 * is reported (coverage and purity reached), 0 when not (cs->atoms still
 * holds its inputs: they leave the cluster all the same), -1 ENOMEM. */
static int grow_set(work *w, size_t nc, bsl_abs_corr_fn corr, void *ctx, const bsl_cs_opts *o, bsl_cs *cs)
{
    cs->atoms = bsl_malloc(nc + 1, sizeof *cs->atoms);
    if (!cs->atoms) return -1;
    cs->k = 0;
    double cov = 0;
    while (cov < o->coverage) {
        const long j = best_gain(w, nc);
        if (j < 0) break;
        cov += w->gain[j] / w->total;
        cover(w, (size_t)j, 1);
        cs->atoms[cs->k++] = (size_t)j;
    }
    for (size_t t = 0; t < cs->k; t++) cover(w, cs->atoms[t], 0);
    cs->coverage = cov;
    /* the unstored models could hold none or all of the set */
    cs->coverage_lo = cov * (1 - w->unstored);
    cs->coverage_hi = cs->coverage_lo + w->unstored;
    cs->purity = 1;
    for (size_t a = 0; a < cs->k; a++)
        for (size_t b = 0; b < a; b++) cs->purity = fmin(cs->purity, corr(ctx, cs->atoms[a], cs->atoms[b]));
    return cov >= o->coverage && cs->purity >= o->min_abs_corr;
}

/* Step 3 of credible.h: w->tail[s] = P(K_c >= s), K_c the number of the
 * cluster's inputs the model holds, over the stored models; returns the
 * number of sets to grow, the largest s with P(K_c >= s) >= coverage, and
 * at least the number of the cluster's inputs whose PIP reaches coverage
 * (each of them is a set by itself: P(model holds it) >= coverage). */
static size_t signals(work *w, size_t nc, const bsl_cs_opts *o)
{
    memset(w->tail, 0, (nc + 2) * sizeof *w->tail);
    find_live(w, nc);
    for (size_t l = 0; l < w->nlive; l++) {
        const size_t i = w->live[l], k = w->count[i];
        /* summed model by model, in the models' order, so that P(K_c >= 1),
         * the cluster's mass, is the sum it was before issue 30 to the bit
         * (a model without the cluster's inputs adds nothing) */
        for (size_t s = 1; s <= k; s++) w->tail[s] += w->ms->items[i].weight;
    }
    clear_counts(w);
    size_t n = 0, strong = 0;
    for (size_t s = 1; s <= nc; s++) {
        w->tail[s] /= w->total;
        if (w->tail[s] >= o->coverage) n = s;
    }
    for (size_t c = 0; c < nc; c++) strong += w->pip[w->cluster[c]] >= o->coverage;
    return n > strong ? n : strong;
}

/* The unassigned input of largest PIP (ties: smaller index), or -1 below the floor. */
static long next_lead(const work *w, double floor)
{
    long best = -1;
    for (size_t t = 0; t < w->nheld; t++) {
        const size_t j = w->held[t];
        if (!w->assigned[j] && w->pip[j] >= floor &&
            (best < 0 || w->pip[j] > w->pip[best] || (w->pip[j] == w->pip[best] && j < (size_t)best)))
            best = (long)j;
    }
    return best;
}

/* An input no stored model holds adds nothing to any coverage: leads and
 * clusters are drawn from the others only, so the work is O(inputs seen)
 * correlations per lead, not O(m) (streaming designs compute each from
 * columns). In increasing index order, from the atoms' lists
 * (index_atoms). */
static void find_held(work *w)
{
    w->nheld = 0;
    for (size_t j = 0; j < w->m; j++) /* atom j's list of models is not empty */
        if (w->by_atom_off[j + 1] > w->by_atom_off[j]) w->held[w->nheld++] = j;
}

static int push(bsl_cs_list *out, bsl_cs *cs)
{
    bsl_cs *grown = realloc(out->sets, (out->n + 1) * sizeof *grown);
    if (!grown) return BASEL_ENOMEM;
    out->sets = grown;
    out->sets[out->n++] = *cs;
    return BASEL_OK;
}

static int run(work *w, bsl_abs_corr_fn corr, void *ctx, const bsl_cs_opts *o, bsl_cs_list *out)
{
    int rc = BASEL_OK;
    for (size_t round = 0; round < o->max_sets && !rc; round++) {
        const long lead = next_lead(w, o->pip_floor);
        if (lead < 0) break;
        size_t nc = 0;
        for (size_t t = 0; t < w->nheld; t++) {
            const size_t j = w->held[t];
            if (!w->assigned[j] && ((long)j == lead || corr(ctx, (size_t)lead, j) >= o->min_abs_corr)) {
                w->assigned[j] = w->in_cluster[j] = 1;
                w->cluster[nc++] = j;
            }
        }
        const size_t nsig = signals(w, nc, o);
        for (size_t l = 1; l <= nsig && !rc; l++) {
            bsl_cs cs = {.lead = (size_t)lead, .mass = w->tail[1], .signal = l, .signal_prob = w->tail[l]};
            const int got = grow_set(w, nc, corr, ctx, o, &cs);
            if (got < 0) {
                rc = BASEL_ENOMEM;
                break;
            }
            if (cs.k == 0) { /* no input of the cluster left */
                free(cs.atoms);
                break;
            }
            /* the set's inputs are this signal's: the next set of the
             * cluster is grown from the others (sets are disjoint) */
            for (size_t t = 0; t < cs.k; t++) w->in_cluster[cs.atoms[t]] = 0;
            if (got) rc = push(out, &cs);
            if (!got || rc) free(cs.atoms);
        }
        for (size_t c = 0; c < nc; c++) w->in_cluster[w->cluster[c]] = 0;
    }
    return rc;
}

int bsl_credible_sets(const double *pip, size_t m, const bsl_modelset *models, bsl_abs_corr_fn corr, void *ctx,
                      const bsl_cs_opts *o, bsl_cs_list *out)
{
    memset(out, 0, sizeof *out);
    const double all = bsl_modelset_total(models);
    work w = {.pip = pip, .m = m, .ms = models, .total = all - models->dropped_weight};
    if (!(w.total > 0)) return BASEL_OK;
    w.unstored = models->dropped_weight / all;
    w.assigned = bsl_calloc(3 * m + 1, 1);
    w.live = bsl_malloc(models->n + 1, sizeof *w.live);
    w.covered = bsl_calloc(models->n + 1, 1);
    w.gain = bsl_malloc(m + 1, sizeof *w.gain);
    w.cluster = bsl_malloc(m + 1, sizeof *w.cluster);
    w.held = bsl_malloc(m + 1, sizeof *w.held);
    w.tail = bsl_malloc(m + 2, sizeof *w.tail);
    int rc = w.assigned && w.live && w.covered && w.gain && w.cluster && w.held && w.tail ? BASEL_OK : BASEL_ENOMEM;
    if (!rc) {
        w.in_cluster = w.assigned + m;
        w.in_set = w.assigned + 2 * m;
        rc = index_atoms(&w);
        if (!rc) find_held(&w);
    }
    if (!rc) rc = run(&w, corr, ctx, o, out);
    free(w.held);
    free(w.assigned);
    free(w.live);
    free(w.covered);
    free(w.by_atom);
    free(w.by_atom_off);
    free(w.count);
    free(w.gain);
    free(w.cluster);
    free(w.tail);
    if (rc) bsl_cs_list_free(out);
    return rc;
}
