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
    if (!rc) rc = bsl_params_size(params, "relevance-steps", BSL_REL_STEPS_DEFAULT, 1, 100000, &rs->steps, err);
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
    rc->usable = bsl_malloc(pb->D->m + 1, sizeof *rc->usable);
    rc->pb = pb;
    for (size_t i = 0; i < 3; i++) {
        rc->view[i].D = pb->D;
        rc->view[i].scale = bsl_malloc(d, sizeof(double));
    }
    if (!rc->level || !rc->pip || !rc->scale || !rc->order || !rc->usable || !rc->view[0].scale ||
        !rc->view[1].scale || !rc->view[2].scale)
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t j = 0; j < pb->D->m; j++)
        if (pb->D->usable[j]) rc->usable[rc->n_usable++] = j;
    for (size_t i = 0; i < 3; i++) {
        const bsl_atom_source src = {.m = pb->D->m, .column = column, .ctx = &rc->view[i]};
        int e = bsl_cmodel_create_source(&rc->M[i], pb->D, &src, &pb->prior, pb->kmax, err);
        if (e) return e;
    }
    return bsl_rel_reset(rc, rs);
}

void bsl_rel_chain_free(bsl_rel_chain *rc)
{
    if (!rc) return;
    for (size_t i = 0; i < 3; i++) {
        bsl_cmodel_free(rc->M[i]);
        free(rc->view[i].scale);
    }
    free(rc->usable);
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
        for (size_t i = 0; i < 3; i++) rc->view[i].scale[a] = rs->levels[one];
    }
    if (bsl_cmodel_k(rc->M[rc->cur]) == 0) return BASEL_OK;
    const size_t nxt = (rc->cur + 1) % 3;
    const int e = rebuild(rc, rc->M[nxt], rc->M[rc->cur]);
    if (!e) rc->cur = nxt;
    return e;
}

/* P(the atom step proposes a birth) at size k: 1 at k = 0, 0 when no birth
 * is possible, else 1/2. */
static double p_birth(size_t k, size_t dormant, size_t kmax)
{
    if (k >= kmax || dormant == 0) return 0.0;
    return k == 0 ? 1.0 : 0.5;
}

/* One Metropolis-Hastings step on the atoms, reversible with respect to
 * pi_beta(A) ∝ p(y | A, eta)^(1 - beta) p(y | A, eta')^beta p(A) (the
 * file header of bd_relevance.h), moving both models (Mw under eta, Mp
 * under eta', the same set). */
static void atom_step(bsl_rel_chain *rc, bsl_cmodel *Mw, bsl_cmodel *Mp, double beta, gsl_rng *r)
{
    const bsl_vs_problem *pb = rc->pb;
    const size_t k = bsl_cmodel_k(Mw), dormant = rc->n_usable - k;
    const double pb_k = p_birth(k, dormant, pb->kmax);
    const double Lw = bsl_cmodel_log_ml(Mw), Lp = bsl_cmodel_log_ml(Mp), lpk = bsl_mprior_log(&pb->mprior, k);
    const double u = gsl_rng_uniform(r);
    if (k == 0 && pb_k == 0) return;
    if (u < pb_k) { /* birth of a uniform dormant usable atom */
        size_t j;
        do j = rc->usable[gsl_rng_uniform_int(r, rc->n_usable)]; while (bsl_cmodel_is_active(Mw, j));
        const double lw = bsl_cmodel_try_add(Mw, j), lp = bsl_cmodel_try_add(Mp, j);
        const double log_q = log(1 - p_birth(k + 1, dormant - 1, pb->kmax)) - log((double)(k + 1)) -
                             log(pb_k) + log((double)dormant);
        const double log_a = (1 - beta) * (lw - Lw) + beta * (lp - Lp) + bsl_mprior_log(&pb->mprior, k + 1) - lpk +
                             log_q;
        const double v = gsl_rng_uniform_pos(r);
        if (lw == -INFINITY || lp == -INFINITY || !(log_a >= 0 || log(v) < log_a)) return;
        if (bsl_cmodel_add(Mw, j) != BASEL_OK || bsl_cmodel_add(Mp, j) != BASEL_OK) rc->failed = 1;
        return;
    }
    /* death of a uniform active atom */
    const size_t j = bsl_cmodel_active(Mw)[gsl_rng_uniform_int(r, k)];
    const double lw = bsl_cmodel_try_remove(Mw, j), lp = bsl_cmodel_try_remove(Mp, j);
    const double log_q = log(p_birth(k - 1, dormant + 1, pb->kmax)) - log((double)(dormant + 1)) - log(1 - pb_k) +
                         log((double)k);
    const double log_a = (1 - beta) * (lw - Lw) + beta * (lp - Lp) + bsl_mprior_log(&pb->mprior, k - 1) - lpk +
                         log_q;
    const double v = gsl_rng_uniform_pos(r);
    if (!(log_a >= 0 || log(v) < log_a)) return;
    bsl_cmodel_remove(Mw, j);
    bsl_cmodel_remove(Mp, j);
}

int bsl_rel_move(bsl_rel_chain *rc, const bsl_rel_settings *rs, gsl_rng *r)
{
    /* nxt: the proposal's model, under eta'; wk: a copy of the current
     * one that the path moves (the current model itself stays as it is,
     * so a rejection costs nothing) */
    const size_t d = rs->d, nxt = (rc->cur + 1) % 3, wk = (rc->cur + 2) % 3;
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
    double log_alpha = -INFINITY; /* e: (A, eta') has probability 0 (collinear) */
    if (!e) {
        bsl_cmodel *Mw = rc->M[wk], *Mp = rc->M[nxt];
        memcpy(rc->view[wk].scale, rc->view[rc->cur].scale, d * sizeof *scale);
        if (rs->steps > 1 && bsl_cmodel_copy(Mw, rc->M[rc->cur])) return BASEL_ENOMEM;
        if (rs->steps == 1) Mw = rc->M[rc->cur]; /* no path: nothing moves it */
        const double dprior = rs->log_prior[to] - rs->log_prior[from], T = (double)rs->steps;
        rc->failed = 0;
        log_alpha = 0;
        /* the AIS weight: sum over t = 1..T of (1/T) (log pi(A_{t-1}, eta')
         * - log pi(A_{t-1}, eta)), A_t from the step at beta = t / T */
        for (size_t t = 1; t <= rs->steps && !rc->failed; t++) {
            log_alpha += (bsl_cmodel_log_ml(Mp) - bsl_cmodel_log_ml(Mw) + dprior) / T;
            if (t < rs->steps) atom_step(rc, Mw, Mp, (double)t / T, r);
        }
        if (rc->failed) return BASEL_ENUMERIC;
    }
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
    if (!k->rc && k->load && rc->cur >= sizeof rc->view / sizeof *rc->view) k->rc = BASEL_EPARSE;
    bsl_ck_bytes(k, rc->level, d * sizeof *rc->level);
    for (size_t a = 0; a < d && !k->rc && k->load; a++) /* a file whose checksum was made to match */
        if (rc->level[a] >= rs->nlev) k->rc = BASEL_EPARSE;
    /* (the scratch models' views are set by every move before use) */
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
