/* bd_relevance.c: input relevance inside the kernel for bd, the moves on
 * eta and their bookkeeping (bd_relevance.h says what and why). */
#include "bd_relevance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bsl_rel_settings_read(bsl_rel_settings *rs, const bsl_params *params, const bsl_design *D,
                          basel_error *err)
{
    memset(rs, 0, sizeof *rs);
    const char *mode = bsl_params_get(params, "relevance");
    if (!mode || strcmp(mode, "none") == 0) return BASEL_OK;
    static const double sel[] = {0, 1}, grid[] = {0, 0.5, 1, 2};
    const double *lv;
    if (strcmp(mode, "select") == 0) lv = sel, rs->nlev = 2;
    else if (strcmp(mode, "grid") == 0) lv = grid, rs->nlev = 4;
    else return bsl_fail(err, BASEL_EINVAL, "--relevance '%s': expected none, select or grid", mode);
    if (!D->dict || !D->X || !bsl_basis_is_radial(D->dict->kind))
        return bsl_fail(err, BASEL_EINVAL,
                        "--relevance %s: the inputs' relevance is a factor in a kernel's distance; it needs a "
                        "radial --basis (gauss, cubic, tps, lin-rbf) fitted on rows (not --stats)", mode);
    if (D->dict->d > BSL_REL_MAX_INPUTS)
        return bsl_fail(err, BASEL_EINVAL, "--relevance %s: at most %d inputs (the data has %zu)", mode,
                        BSL_REL_MAX_INPUTS, D->dict->d);
    int rc = bsl_params_size(params, "relevance-every", BSL_REL_EVERY_DEFAULT, 1, (size_t)1 << 40, &rs->every, err);
    if (rc) return rc;
    rs->on = 1;
    rs->d = D->dict->d;
    memcpy(rs->levels, lv, rs->nlev * sizeof *lv);
    /* p(eta_a = 0) = 1/2, the non-zero levels share the other half */
    rs->log_prior[0] = -M_LN2;
    for (size_t l = 1; l < rs->nlev; l++) rs->log_prior[l] = -M_LN2 - log((double)(rs->nlev - 1));
    return BASEL_OK;
}

/* bsl_atom_source's column: atom id's raw column at the training rows
 * under the view's eta (the model projects it). */
static void column(void *ctx, size_t id, double *out)
{
    const bsl_rel_view *v = ctx;
    const bsl_design *D = v->D;
    bsl_dict_eval_scaled(D->dict, id, D->X, D->n, D->n, v->scale, out);
}

/* The level whose value is 1 (every chain starts with the inputs as given). */
static size_t level_one(const bsl_rel_settings *rs)
{
    for (size_t l = 0; l < rs->nlev; l++)
        if (rs->levels[l] == 1) return l;
    return rs->nlev - 1;
}

int bsl_rel_chain_init(bsl_rel_chain *rc, const bsl_rel_settings *rs, const bsl_vs_problem *pb,
                       basel_error *err)
{
    memset(rc, 0, sizeof *rc);
    const size_t d = rs->d;
    rc->level = bsl_malloc(d, sizeof *rc->level);
    rc->pip = bsl_calloc(d, sizeof *rc->pip);
    rc->scale = bsl_calloc(d, sizeof *rc->scale);
    rc->order = bsl_malloc(pb->kmax + 1, sizeof *rc->order);
    for (size_t i = 0; i < 2; i++) {
        rc->view[i].D = pb->D;
        rc->view[i].scale = bsl_malloc(d, sizeof(double));
    }
    if (!rc->level || !rc->pip || !rc->scale || !rc->order || !rc->view[0].scale || !rc->view[1].scale)
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t i = 0; i < 2; i++) {
        const bsl_atom_source src = {.m = pb->D->m, .column = column, .ctx = &rc->view[i]};
        int e = bsl_cmodel_create_source(&rc->M[i], pb->D, &src, &pb->prior, pb->kmax, err);
        if (e) return e;
    }
    return bsl_rel_reset(rc, rs);
}

void bsl_rel_chain_free(bsl_rel_chain *rc)
{
    if (!rc) return;
    for (size_t i = 0; i < 2; i++) {
        bsl_cmodel_free(rc->M[i]);
        free(rc->view[i].scale);
    }
    free(rc->level);
    free(rc->pip);
    free(rc->scale);
    free(rc->order);
    memset(rc, 0, sizeof *rc);
}

/* The current model rebuilt from scratch under the current eta. */
static int rebuild(bsl_rel_chain *rc, bsl_cmodel *dst, bsl_cmodel *src)
{
    const size_t k = bsl_cmodel_k(src);
    memcpy(rc->order, bsl_cmodel_active(src), k * sizeof *rc->order);
    if (bsl_cmodel_copy(dst, src)) return BASEL_ENOMEM; /* the nuisance parameters (sigma^2, lambda, g) */
    bsl_cmodel_clear(dst);
    for (size_t i = 0; i < k; i++)
        if (bsl_cmodel_try_add(dst, rc->order[i]) == -INFINITY || bsl_cmodel_add(dst, rc->order[i]) != BASEL_OK)
            return BASEL_ENUMERIC;
    return BASEL_OK;
}

int bsl_rel_reset(bsl_rel_chain *rc, const bsl_rel_settings *rs)
{
    const size_t one = level_one(rs);
    for (size_t a = 0; a < rs->d; a++) {
        rc->level[a] = one;
        rc->view[0].scale[a] = rc->view[1].scale[a] = rs->levels[one];
    }
    if (bsl_cmodel_k(rc->M[rc->cur]) == 0) return BASEL_OK;
    const int e = rebuild(rc, rc->M[rc->cur ^ 1], rc->M[rc->cur]);
    if (!e) rc->cur ^= 1;
    return e;
}

int bsl_rel_move(bsl_rel_chain *rc, const bsl_rel_settings *rs, gsl_rng *r)
{
    const size_t d = rs->d, nxt = rc->cur ^ 1;
    /* the proposal: input a uniform, its new level uniform among the
     * other nlev - 1 (symmetric: the reverse move has the same chance) */
    const size_t a = gsl_rng_uniform_int(r, d), from = rc->level[a];
    size_t to = gsl_rng_uniform_int(r, rs->nlev - 1);
    if (to >= from) to++;
    double *scale = rc->view[nxt].scale;
    memcpy(scale, rc->view[rc->cur].scale, d * sizeof *scale);
    scale[a] = rs->levels[to];
    rc->proposed++;
    /* O(n k (d + q + k) + k^3): bd_relevance.h */
    const int e = rebuild(rc, rc->M[nxt], rc->M[rc->cur]);
    if (e == BASEL_ENOMEM) return e;
    const double log_alpha = e ? -INFINITY /* (A, eta') has probability 0: collinear */
                               : bsl_cmodel_log_ml(rc->M[nxt]) - bsl_cmodel_log_ml(rc->M[rc->cur]) +
                                     rs->log_prior[to] - rs->log_prior[from];
    /* the uniform is drawn whatever happens, so the stream does not depend
     * on the branch */
    const double u = gsl_rng_uniform_pos(r);
    if (log_alpha >= 0 || log(u) < log_alpha) {
        rc->cur = nxt;
        rc->level[a] = to;
        rc->accepted++;
    }
    return BASEL_OK;
}

void bsl_rel_accumulate(bsl_rel_chain *rc, const bsl_rel_settings *rs)
{
    for (size_t a = 0; a < rs->d; a++) {
        rc->pip[a] += rc->level[a] > 0;
        rc->scale[a] += rs->levels[rc->level[a]];
    }
    rc->blocks++;
}

void bsl_rel_io(bsl_rel_chain *rc, const bsl_rel_settings *rs, bsl_ck *k)
{
    const size_t d = rs->d;
    bsl_ck_val(k, rc->cur);
    bsl_ck_bytes(k, rc->level, d * sizeof *rc->level);
    bsl_ck_doubles(k, rc->view[rc->cur].scale, d);
    bsl_ck_doubles(k, rc->pip, d);
    bsl_ck_doubles(k, rc->scale, d);
    bsl_ck_val(k, rc->blocks);
    bsl_ck_val(k, rc->proposed);
    bsl_ck_val(k, rc->accepted);
}

int bsl_rel_merge(bsl_vs_result *res, const bsl_rel_settings *rs, bsl_rel_chain *const *rcs,
                  size_t chains)
{
    const size_t d = rs->d;
    res->d_inputs = d;
    res->input_pip = bsl_calloc(d, sizeof *res->input_pip);
    res->input_scale = bsl_calloc(d, sizeof *res->input_scale);
    res->input_pip_chain = bsl_calloc(chains * d + 1, sizeof *res->input_pip_chain);
    if (!res->input_pip || !res->input_scale || !res->input_pip_chain) return BASEL_ENOMEM;
    double blocks = 0;
    size_t h = 0;
    for (size_t c = 0; c < chains; c++) {
        const bsl_rel_chain *rc = rcs[c];
        if (!rc->blocks) continue; /* an interrupted chain that kept nothing */
        blocks += rc->blocks;
        for (size_t a = 0; a < d; a++) {
            res->input_pip[a] += rc->pip[a];
            res->input_scale[a] += rc->scale[a];
            res->input_pip_chain[h * d + a] = rc->pip[a] / rc->blocks;
        }
        res->input_proposed += rc->proposed;
        res->input_accepted += rc->accepted;
        h++;
    }
    for (size_t a = 0; a < d && blocks > 0; a++) {
        res->input_pip[a] /= blocks;
        res->input_scale[a] /= blocks;
    }
    return BASEL_OK;
}
