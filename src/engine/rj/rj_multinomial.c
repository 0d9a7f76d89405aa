/*
 * rj_multinomial.c: reversible jump for multinomial logistic regression
 * with one subset per class (--family multinomial; model/glm_multi.h has
 * the model, docs/GLM.md "Multinomial" the argument).
 *
 * State: (A_c, theta_c) for c = 1 .. C - 1, and the latent omega_c of the
 * class being updated. A sweep cycles through the classes; class c's block
 * (m moves) is
 *   1. the offsets off_i = log(1 + sum_{l != c} e^{eta_il}) from the other
 *      classes' current theta, and omega_ic ~ PG(1, eta_ic - off_i) given
 *      theta_c (glm.h bsl_glm_redraw_omega): exact, since given theta_{-c}
 *      class c's likelihood is the logistic prod_i (e^psi_i)^{y_ic} /
 *      (1 + e^psi_i), psi_i = eta_ic - off_i, times a factor free of
 *      theta_c (Holmes and Held 2006, section 4.1), and Polya-Gamma
 *      augmentation makes that Gaussian in theta_c (Polson, Scott and
 *      Windle 2013, eq. 2-3, with the pseudo-targets kappa + Omega off);
 *   2. m add / delete / swap moves on A_c with theta_c integrated out, each
 *      a Metropolis-Hastings move on p(A_c | A_{-c}, theta_{-c}, omega_c, y)
 *      with rj's proposals and Hastings terms (rj.c's file comment) and the
 *      class's model prior p(A_c) (the A_c are independent a priori);
 *   3. theta_c | A_c, omega_c ~ N(P^-1 b, P^-1) (bsl_glm_draw_theta), and
 *      the class's eta_c from it.
 * Steps 1-3 are the partially collapsed Gibbs sampler of (A_c, theta_c,
 * omega_c) given the rest (van Dyk and Park 2008: theta_c is drawn right
 * after the steps that integrate it out), each step leaving p(A_c, theta_c,
 * omega_c | A_{-c}, theta_{-c}, y) invariant; omega_c is then forgotten (it
 * is redrawn before it is used again), so every block, and the sweep, leaves
 * the exact posterior p(A, theta | y) invariant. Nothing is approximated.
 *
 * Estimates: every move's state counts (a state within a block is a draw of
 * the posterior of A as well, each step keeping it invariant): inclusion
 * frequencies of the joint atoms (c - 1) m + j and of the inputs (j in some
 * A_c), the joint size K = sum_c |A_c|, and the visited joint models
 * (weights: visits; no log posterior, the scores condition on omega).
 * The PIPs reported are Rao-Blackwellised: at the end of class c's block
 * (before step 3) the state (A, theta_-c, omega_c) is a draw of its
 * stationary law, and the exact conditional
 *     P(j in A_c | A_c without j, A_-c, theta_-c, omega_c, y)
 * (the drop score of an active input, the add score of a dormant one, and
 * the class's model prior, as rj.c's rb_pass) averages to P(j in A_c | y)
 * by the tower property; P(j in some A_l | ...) is 1 when j is in another
 * class's subset, else that conditional. The frequencies stay in the note
 * (the largest gap).
 * Chains run on the chain driver (chains.h) as rj's do.
 *
 * --draws: each kept post-burn move's joint model (the joint atoms, as
 * rj's draws; thinned by --thin), per chain, appended in chain order.
 * --checkpoint / --restart: a chain's state (chain_io) is its generator,
 * position, every class's model (bsl_ck_cmodel: omega, the last theta, the
 * factor and z), the linear predictors eta, the offsets of the class block
 * under way (the glm state holds none: bsl_glm_restore_offsets puts them
 * back), the sums, the visited models, the predictive draws and the kept
 * draws; so a restarted run continues bit for bit. --max-time (a fit of a
 * partial run) is not available.
 */
#include "../subset/subset.h"
#include "../../run/chains.h"
#include "../../run/ckpt.h"
#include "../../model/glm.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define MULTI_TRACE_LEN 1000 /* snapshots per chain for R-hat / ESS, as rj */
/* posterior draws of (A, theta) kept for the model-averaged predictor,
 * over all chains, evenly spaced in each chain's post-burn sweeps: the
 * exact posterior predictive by Monte Carlo, instead of each model's
 * Laplace approximation (which on Wine's nearly separable classes raised
 * a model's test log-loss from 0.198 to 0.282: its posterior is far from
 * normal) */
#define MULTI_PRED_DRAWS 500

enum { MOVE_ADD = 0, MOVE_DEL = 1, MOVE_SWAP = 2 };

typedef struct multi_chain {
    bsl_cmodel **M;       /* nc: class c's model (class c + 1 of the target) */
    gsl_rng *r;
    size_t m, nc, n;
    double *eta;          /* n x nc: each class's z'theta from its last theta */
    double *off;          /* n */
    size_t *joint;        /* nc kmax: the joint atoms, sorted */
    size_t K;
    double *freq;         /* nc m */
    double *any;          /* m */
    double *size_cnt;     /* nc kmax + 1 */
    double *rb, *rb_any;  /* nc m, m: sums of the conditionals (file comment) */
    double *n_rb;         /* nc: the blocks they were summed over */
    double *sc;           /* m scratch: drop and add scores */
    size_t pd_max, pd_n, pd_every, sweeps; /* predictive draws: room, kept, spacing, post-burn sweeps */
    size_t *pd_start, *pd_atoms;          /* pd_max + 1; pd_max nc kmax */
    double *pd_theta;                     /* pd_max (nc kmax + nc) */
    bsl_modelset set;
    bsl_vs_result draws;  /* --draws: this chain's, appended in chain order */
    unsigned id;
    double run_len;
    double prop[3], acc[3], evals;
    size_t it;
} multi_chain;

typedef struct multi_ctx {
    multi_chain *ch;
    const bsl_vs_problem *pb;
    const bsl_run *run;
    double w[3]; /* move weights */
} multi_ctx;

/* p_move(k) over the moves possible at class size k, as rj.c move_prob. */
static double move_prob(const multi_ctx *x, size_t k, int move)
{
    const bsl_vs_problem *pb = x->pb;
    const size_t m = pb->D->m, kmax = BSL_MIN(pb->kmax, pb->mprior.kmax), kmin = pb->mprior.kmin;
    const double w[3] = {k < kmax ? x->w[0] : 0, k > kmin ? x->w[1] : 0, k > 0 && k < m ? x->w[2] : 0};
    const double tot = w[0] + w[1] + w[2];
    return tot > 0 ? w[move] / tot : 0;
}

/* The joint atoms of the state, sorted (class blocks in order, each sorted). */
static void joint_update(multi_chain *ch)
{
    ch->K = 0;
    for (size_t c = 0; c < ch->nc; c++) {
        const size_t k = bsl_cmodel_k(ch->M[c]), *a = bsl_cmodel_active(ch->M[c]);
        size_t *o = ch->joint + ch->K;
        for (size_t i = 0; i < k; i++) {
            size_t b = i, v = c * ch->m + a[i];
            for (; b > 0 && o[b - 1] > v; b--) o[b] = o[b - 1];
            o[b] = v;
        }
        ch->K += k;
    }
}

/* Credit the state with its post-burn iterations, before a move changes it. */
static int flush_state(multi_chain *ch)
{
    if (ch->run_len == 0) return BASEL_OK;
    const size_t m = ch->m;
    for (size_t a = 0; a < ch->K; a++) ch->freq[ch->joint[a]] += ch->run_len;
    for (size_t j = 0; j < m; j++)
        for (size_t c = 0; c < ch->nc; c++)
            if (bsl_cmodel_is_active(ch->M[c], j)) {
                ch->any[j] += ch->run_len;
                break;
            }
    ch->size_cnt[ch->K] += ch->run_len;
    const int rc = bsl_modelset_add(&ch->set, ch->joint, ch->K, ch->run_len, NAN) ? BASEL_ENOMEM : BASEL_OK;
    ch->run_len = 0;
    return rc;
}

static int accept(gsl_rng *r, double log_a) { return log_a >= 0 || log(gsl_rng_uniform_pos(r)) < log_a; }

/* The nth inactive input of M (0-based, in id order): a scan, O(m) per
 * move (rj.c keeps a Fenwick tree for its large m; the multinomial runs
 * on tens of inputs). */
static size_t nth_inactive(const bsl_cmodel *M, size_t m, size_t nth)
{
    for (size_t j = 0; j < m; j++)
        if (!bsl_cmodel_is_active(M, j) && nth-- == 0) return j;
    return m; /* not reached: nth < m - k */
}

/* One move on class c's subset (rj.c's add / delete / swap and their
 * Hastings terms, the class's model prior). */
static int move(multi_chain *ch, const multi_ctx *x, size_t c)
{
    bsl_cmodel *M = ch->M[c];
    const bsl_mprior *mp = &x->pb->mprior;
    const size_t m = ch->m, k = bsl_cmodel_k(M);
    const double p[3] = {move_prob(x, k, MOVE_ADD), move_prob(x, k, MOVE_DEL), move_prob(x, k, MOVE_SWAP)};
    if (p[0] + p[1] + p[2] == 0) return BASEL_OK;
    const double u = gsl_rng_uniform(ch->r) * (p[0] + p[1] + p[2]);
    const int mv = u < p[0] ? MOVE_ADD : u < p[0] + p[1] ? MOVE_DEL : MOVE_SWAP;
    const double cur = bsl_cmodel_log_ml(M) + bsl_mprior_log(mp, k);
    ch->prop[mv]++;
    ch->evals++;
    if (mv == MOVE_ADD) {
        const size_t j = nth_inactive(M, m, gsl_rng_uniform_int(ch->r, m - k));
        const double s = bsl_cmodel_try_add(M, j);
        if (s == -INFINITY) return BASEL_OK;
        const double log_a = s + bsl_mprior_log(mp, k + 1) - cur + log(move_prob(x, k + 1, MOVE_DEL) / (double)(k + 1)) -
                             log(p[MOVE_ADD] / (double)(m - k));
        if (!accept(ch->r, log_a)) return BASEL_OK;
        if (flush_state(ch)) return BASEL_ENOMEM;
        if (bsl_cmodel_add(M, j) != BASEL_OK) return BASEL_OK; /* collinear by the factor's arithmetic: stay */
    } else if (mv == MOVE_DEL) {
        const size_t i = bsl_cmodel_active(M)[gsl_rng_uniform_int(ch->r, k)];
        const double s = bsl_cmodel_try_remove(M, i);
        const double log_a = s + bsl_mprior_log(mp, k - 1) - cur +
                             log(move_prob(x, k - 1, MOVE_ADD) / (double)(m - k + 1)) - log(p[MOVE_DEL] / (double)k);
        if (!accept(ch->r, log_a)) return BASEL_OK;
        if (flush_state(ch)) return BASEL_ENOMEM;
        bsl_cmodel_remove(M, i);
    } else {
        const size_t i = bsl_cmodel_active(M)[gsl_rng_uniform_int(ch->r, k)];
        const size_t j = nth_inactive(M, m, gsl_rng_uniform_int(ch->r, m - k));
        const double s = bsl_cmodel_try_swap(M, i, j);
        /* same size: the prior and the proposals cancel */
        if (!(s > -INFINITY && accept(ch->r, s - bsl_cmodel_log_ml(M)))) return BASEL_OK;
        if (flush_state(ch)) return BASEL_ENOMEM;
        bsl_cmodel_remove(M, i);
        if (bsl_cmodel_add(M, j) != BASEL_OK) { /* j entered by the inverse's arithmetic, not the factor's: stay */
            joint_update(ch);
            return bsl_cmodel_add(M, i) == BASEL_OK ? BASEL_OK : BASEL_ENUMERIC;
        }
    }
    ch->acc[mv]++;
    joint_update(ch);
    return BASEL_OK;
}

/* Step 1 of class c's block: offsets from the other classes, then omega_c. */
static int block_start(multi_chain *ch, size_t c)
{
    const size_t n = ch->n;
    for (size_t i = 0; i < n; i++) {
        double mx = 0; /* the reference class's eta = 0 */
        for (size_t l = 0; l < ch->nc; l++)
            if (l != c) mx = fmax(mx, ch->eta[l * n + i]);
        double t = exp(-mx);
        for (size_t l = 0; l < ch->nc; l++)
            if (l != c) t += exp(ch->eta[l * n + i] - mx);
        ch->off[i] = mx + log(t);
    }
    return bsl_glm_redraw_omega(ch->M[c]->st, ch->r, ch->off);
}

/* The Rao-Blackwell terms of class c at the end of its block. */
static void rb_pass(multi_chain *ch, const multi_ctx *x, size_t c)
{
    bsl_cmodel *M = ch->M[c];
    const bsl_mprior *mp = &x->pb->mprior;
    const size_t m = ch->m, k = bsl_cmodel_k(M), *active = bsl_cmodel_active(M);
    const double cur = bsl_cmodel_log_ml(M) + bsl_mprior_log(mp, k);
    double *cond = ch->off; /* free until the next block's offsets: the conditionals, m */
    if (k > 0) bsl_cmodel_drop_scores(M, ch->sc);
    for (size_t a = 0; a < k; a++) {
        const double out = ch->sc[a] + bsl_mprior_log(mp, k - 1);
        cond[active[a]] = out == -INFINITY ? 1.0 : 1.0 / (1.0 + exp(out - cur));
    }
    bsl_cmodel_add_scores(M, m, ch->sc);
    for (size_t j = 0; j < m; j++) {
        if (isnan(ch->sc[j])) continue; /* active: above */
        const double in = ch->sc[j] + bsl_mprior_log(mp, k + 1);
        cond[j] = in == -INFINITY ? 0.0 : 1.0 / (1.0 + exp(cur - in));
    }
    for (size_t j = 0; j < m; j++) {
        int elsewhere = 0;
        for (size_t l = 0; l < ch->nc && !elsewhere; l++) elsewhere = l != c && bsl_cmodel_is_active(ch->M[l], j);
        ch->rb[c * m + j] += cond[j];
        ch->rb_any[j] += elsewhere ? 1.0 : cond[j];
    }
    ch->n_rb[c]++;
    ch->evals += (double)m;
}

/* A predictive draw at the end of a sweep: every class's theta (its
 * intercept, then its coefficients by input), with the joint atoms. */
static void keep_draw(multi_chain *ch)
{
    if (ch->pd_n >= ch->pd_max || ch->sweeps++ % ch->pd_every) return;
    const size_t m = ch->m, i = ch->pd_n, a0 = ch->pd_start[i];
    size_t *at = ch->pd_atoms + a0;
    double *th = ch->pd_theta + a0 + i * ch->nc;
    size_t K = 0;
    for (size_t c = 0; c < ch->nc; c++) {
        const void *st = ch->M[c]->st;
        const size_t k = bsl_cmodel_k(ch->M[c]), *act = bsl_cmodel_active(ch->M[c]);
        const double *t = bsl_glm_theta(st);
        *th++ = t[0];
        for (size_t r = 0; r < k; r++) { /* insertion by input: k is small */
            size_t b = r;
            for (; b > 0 && at[K + b - 1] > c * m + act[r]; b--) {
                at[K + b] = at[K + b - 1];
                th[b] = th[b - 1];
            }
            at[K + b] = c * m + act[r];
            th[b] = t[r + 1];
        }
        th += k;
        K += k;
    }
    ch->pd_start[i + 1] = a0 + K;
    ch->pd_n++;
}

/* Step 3: theta_c and its linear predictor. */
static void block_end(multi_chain *ch, size_t c)
{
    bsl_glm_draw_theta(ch->M[c]->st, ch->r);
    bsl_glm_eta(ch->M[c]->st, ch->eta + c * ch->n);
}

static int run_chain(void *ctx, size_t chain, unsigned long seed, bsl_ticker *tick)
{
    const multi_ctx *x = ctx;
    multi_chain *ch = &x->ch[chain];
    const bsl_run *run = x->run;
    const size_t total = run->burn + run->iter, m = ch->m, L = BSL_MAX(m, (size_t)1);
    if (!tick->resumed) { /* else: the state a checkpoint or pause left (chain_io) */
        gsl_rng_set(ch->r, seed);
        ch->it = 0;
    }
    joint_update(ch);
    int rc = BASEL_OK;
    for (; ch->it < total && !rc; ch->it++) {
        if (bsl_tick(tick, 1)) return BASEL_ECANCELLED;
        const size_t it = ch->it, c = (it / L) % ch->nc, pos = it % L;
        if (pos == 0 && (rc = block_start(ch, c))) break;
        if ((rc = move(ch, x, c))) break;
        if (pos == L - 1 && it >= run->burn) rb_pass(ch, x, c);
        if (pos == L - 1) block_end(ch, c);
        if (pos == L - 1 && c == ch->nc - 1 && it >= run->burn) keep_draw(ch);
        if (it < run->burn) continue;
        ch->run_len++;
        if (tick->trace) bsl_trace_record(tick->trace, it - run->burn, ch->joint, ch->K);
        if (run->keep_draws && (it - run->burn) % (run->thin ? run->thin : 1) == 0 &&
            (rc = bsl_vs_add_draw(&ch->draws, ch->id, ch->joint, ch->K, NULL)))
            break;
    }
    if (!rc) rc = flush_state(ch);
    return rc;
}

static void chain_free(multi_chain *ch)
{
    for (size_t c = 0; ch->M && c < ch->nc; c++) bsl_cmodel_free(ch->M[c]);
    free(ch->M);
    gsl_rng_free(ch->r);
    free(ch->eta);
    free(ch->off);
    free(ch->joint);
    free(ch->freq);
    free(ch->any);
    free(ch->size_cnt);
    free(ch->rb);
    free(ch->rb_any);
    free(ch->n_rb);
    free(ch->sc);
    free(ch->pd_start);
    free(ch->pd_atoms);
    free(ch->pd_theta);
    bsl_vs_result_free(&ch->draws);
    bsl_modelset_free(&ch->set);
}

/* A chain's state in a checkpoint (ckpt.h; the file comment lists it).
 * The offsets in off are those of the class block under way when the
 * chain stopped inside one (position > 0 in it); at a block's start
 * block_start recomputes everything from the models. */
static void chain_io(void *ctx, size_t chain, bsl_ck *k)
{
    const multi_ctx *x = ctx;
    multi_chain *ch = &x->ch[chain];
    const size_t n = ch->n, nc = ch->nc, m = ch->m, kmax = x->pb->kmax, L = BSL_MAX(m, (size_t)1);
    bsl_ck_rng(k, ch->r);
    bsl_ck_val(k, ch->it);
    for (size_t c = 0; c < nc; c++) bsl_ck_cmodel(k, ch->M[c]);
    bsl_ck_doubles(k, ch->eta, n * nc);
    bsl_ck_doubles(k, ch->off, n);
    bsl_ck_doubles(k, ch->freq, nc * m);
    bsl_ck_doubles(k, ch->any, m);
    bsl_ck_doubles(k, ch->size_cnt, nc * kmax + 1);
    bsl_ck_doubles(k, ch->rb, nc * m);
    bsl_ck_doubles(k, ch->rb_any, m);
    bsl_ck_doubles(k, ch->n_rb, nc);
    bsl_ck_expect(k, ch->pd_max);
    bsl_ck_expect(k, ch->pd_every);
    bsl_ck_val(k, ch->pd_n);
    bsl_ck_val(k, ch->sweeps);
    if (k->load && k->rc == BASEL_OK && ch->pd_n > ch->pd_max) k->rc = BASEL_EPARSE;
    if (k->rc == BASEL_OK) {
        bsl_ck_bytes(k, ch->pd_start, (ch->pd_max + 1) * sizeof *ch->pd_start);
        bsl_ck_bytes(k, ch->pd_atoms, ch->pd_max * nc * kmax * sizeof *ch->pd_atoms);
        bsl_ck_doubles(k, ch->pd_theta, ch->pd_max * (nc * kmax + nc));
    }
    bsl_ck_modelset(k, &ch->set, nc * m); /* joint models: atom (c - 1) m + j is input j in class c */
    bsl_ck_val(k, ch->run_len);
    bsl_ck_doubles(k, ch->prop, 3);
    bsl_ck_doubles(k, ch->acc, 3);
    bsl_ck_val(k, ch->evals);
    bsl_ck_draws(k, &ch->draws);
    /* a block under way: its class's offsets back into its model */
    if (k->load && k->rc == BASEL_OK && ch->it % L != 0) bsl_glm_restore_offsets(ch->M[(ch->it / L) % nc]->st, ch->off);
}

static int chain_init(multi_chain *ch, const bsl_vs_problem *pb, const bsl_run *run, size_t max_models,
                      basel_error *err)
{
    const size_t m = pb->D->m, nc = pb->nclass - 1, n = pb->D->n, chains = run->chains ? run->chains : 1;
    memset(ch, 0, sizeof *ch);
    ch->m = m;
    ch->nc = nc;
    ch->n = n;
    ch->M = bsl_calloc(nc, sizeof *ch->M);
    ch->r = gsl_rng_alloc(gsl_rng_mt19937);
    ch->eta = bsl_calloc(n * nc, sizeof *ch->eta); /* theta = 0 at the start: eta = 0 */
    ch->off = bsl_calloc(n, sizeof *ch->off);
    ch->joint = bsl_calloc(nc * pb->kmax + 1, sizeof *ch->joint);
    ch->freq = bsl_calloc(nc * m, sizeof *ch->freq);
    ch->any = bsl_calloc(m + 1, sizeof *ch->any);
    ch->size_cnt = bsl_calloc(nc * pb->kmax + 1, sizeof *ch->size_cnt);
    ch->rb = bsl_calloc(nc * m, sizeof *ch->rb);
    ch->rb_any = bsl_calloc(m + 1, sizeof *ch->rb_any);
    ch->n_rb = bsl_calloc(nc, sizeof *ch->n_rb);
    ch->sc = bsl_calloc(m + 1, sizeof *ch->sc);
    const size_t sweeps = run->iter / (BSL_MAX(m, (size_t)1) * nc); /* post-burn sweeps, about */
    ch->pd_max = BSL_MIN((MULTI_PRED_DRAWS + chains - 1) / chains, BSL_MAX(sweeps, (size_t)1));
    ch->pd_every = BSL_MAX(sweeps / ch->pd_max, (size_t)1);
    ch->pd_start = bsl_calloc(ch->pd_max + 1, sizeof *ch->pd_start);
    ch->pd_atoms = bsl_calloc(ch->pd_max * nc * pb->kmax + 1, sizeof *ch->pd_atoms);
    ch->pd_theta = bsl_calloc(ch->pd_max * (nc * pb->kmax + nc), sizeof *ch->pd_theta);
    if (!ch->M || !ch->r || !ch->eta || !ch->off || !ch->joint || !ch->freq || !ch->any || !ch->size_cnt ||
        !ch->rb || !ch->rb_any || !ch->n_rb || !ch->sc || !ch->pd_start || !ch->pd_atoms || !ch->pd_theta ||
        bsl_modelset_init(&ch->set, max_models))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    for (size_t c = 0; c < nc; c++) {
        bsl_coef_prior pr = pb->prior;
        pr.glm_class = c + 1;
        const int rc = bsl_cmodel_create(&ch->M[c], &bsl_model_glm, pb->D, &pr, pb->kmax, err);
        if (rc) return rc;
    }
    if (bsl_vs_result_init(&ch->draws, nc * m, 1, nc * pb->kmax, 1))
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (run->keep_draws && run->stream_draws) {
        const int spill = bsl_vs_spill_begin(&ch->draws, err);
        if (spill) return spill;
    }
    return BASEL_OK;
}

/* The chains' predictive draws, in chain order, into res. */
static int pool_draws(const multi_chain *ch, size_t chains, bsl_vs_result *res)
{
    const size_t nc = ch[0].nc;
    size_t nd = 0, na = 0;
    for (size_t h = 0; h < chains; h++) {
        nd += ch[h].pd_n;
        na += ch[h].pd_start[ch[h].pd_n];
    }
    res->coef_draw_extra = nc;
    res->coef_draw_start = bsl_calloc(nd + 1, sizeof *res->coef_draw_start);
    res->coef_draw_atoms = bsl_calloc(na + 1, sizeof *res->coef_draw_atoms);
    res->coef_draw_theta = bsl_calloc(na + nd * nc + 1, sizeof *res->coef_draw_theta);
    if (!res->coef_draw_start || !res->coef_draw_atoms || !res->coef_draw_theta) return BASEL_ENOMEM;
    for (size_t h = 0, i = 0, a = 0; h < chains; h++) {
        const multi_chain *q = &ch[h];
        const size_t qa = q->pd_start[q->pd_n];
        memcpy(res->coef_draw_atoms + a, q->pd_atoms, qa * sizeof *q->pd_atoms);
        memcpy(res->coef_draw_theta + a + i * nc, q->pd_theta, (qa + q->pd_n * nc) * sizeof *q->pd_theta);
        for (size_t d = 0; d < q->pd_n; d++) res->coef_draw_start[i + d + 1] = a + q->pd_start[d + 1];
        i += q->pd_n;
        a += qa;
    }
    res->ncoef_draws = nd;
    return BASEL_OK;
}

/* Pool the chains in chain order: PIPs of the joint atoms and of the
 * inputs (res->input_pip; Rao-Blackwellised when the chain ended a block
 * after its burn-in, else frequencies), the joint size, the visited joint
 * models. */
static int merge(multi_chain *ch, const bsl_run *run, bsl_chains *cs, bsl_vs_result *res)
{
    const size_t chains = run->chains, J = res->m, m = res->d_inputs;
    const double iter = (double)run->iter;
    double prop[3] = {0}, acc[3] = {0}, gap = 0;
    for (size_t h = 0; h < chains; h++) {
        multi_chain *q = &ch[h];
        double n_any = 0;
        for (size_t c = 0; c < q->nc; c++) n_any += q->n_rb[c];
        for (size_t a = 0; a < J; a++) {
            const double f = q->freq[a] / iter, n = q->n_rb[a / m];
            const double v = n > 0 ? q->rb[a] / n : f;
            gap = fmax(gap, fabs(v - f));
            res->pip_chain[h * J + a] = v;
            res->pip[a] += v / (double)chains;
        }
        for (size_t j = 0; j < m; j++) {
            const double f = q->any[j] / iter, v = n_any > 0 ? q->rb_any[j] / n_any : f;
            gap = fmax(gap, fabs(v - f));
            res->input_pip_chain[h * m + j] = v;
            res->input_pip[j] += v / (double)chains;
        }
        for (size_t k = 0; k <= res->kmax; k++) res->size_prob[k] += q->size_cnt[k] / iter / (double)chains;
        for (int i = 0; i < 3; i++) {
            prop[i] += q->prop[i];
            acc[i] += q->acc[i];
        }
        res->evaluations += q->evals;
        if (bsl_modelset_absorb(&res->models, &q->set)) return BASEL_ENOMEM;
    }
    bsl_modelset_sort(&res->models);
    if (pool_draws(ch, chains, res)) return BASEL_ENOMEM;
    for (size_t h = 0; h < chains && run->keep_draws; h++)
        if (bsl_chains_append_draws(res, &ch[h].draws)) return BASEL_ENOMEM;
    snprintf(res->engine_note, sizeof res->engine_note,
             "multinomial, one subset per class (%zu classes besides the reference), Polya-Gamma blocks; "
             "acceptance add=%.4f delete=%.4f swap=%.4f; pip=rao-blackwell (max |rb - frequency| %.4f)",
             ch[0].nc, prop[0] > 0 ? acc[0] / prop[0] : 0, prop[1] > 0 ? acc[1] / prop[1] : 0,
             prop[2] > 0 ? acc[2] / prop[2] : 0, gap);
    return bsl_chains_vs_diagnostics(cs, res);
}

int bsl_rj_multi_run(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res, basel_error *err)
{
    const size_t m = pb->D->m, nc = pb->nclass - 1, chains = run->chains ? run->chains : 1;
    memset(res, 0, sizeof *res);
    if (pb->nclass < 3 || pb->prior.glm_family != BSL_GLM_MULTINOMIAL)
        return bsl_fail(err, BASEL_EINVAL, "the multinomial sampler needs --family multinomial and 3 or more classes");
    if (run->iter == 0) return bsl_fail(err, BASEL_EINVAL, "--iter must be positive");
    if (run->max_time > 0) /* it would need a fit of a partial run */
        return bsl_fail(err, BASEL_EINVAL, "--family multinomial: no --max-time yet");
    multi_ctx x = {NULL, pb, run, {1.0 / 3, 1.0 / 3, 1.0 / 3}};
    size_t max_models = 20000;
    int rc = bsl_params_double(run->params, "rj-add", 1.0 / 3, 0, 1, &x.w[MOVE_ADD], err);
    if (!rc) rc = bsl_params_double(run->params, "rj-delete", 1.0 / 3, 0, 1, &x.w[MOVE_DEL], err);
    if (!rc) rc = bsl_params_double(run->params, "rj-swap", 1.0 / 3, 0, 1, &x.w[MOVE_SWAP], err);
    if (!rc) rc = bsl_params_size(run->params, "max-models", 20000, 0, (size_t)1 << 40, &max_models, err);
    if (rc) return rc;
    if (x.w[MOVE_ADD] <= 0 || x.w[MOVE_DEL] <= 0)
        return bsl_fail(err, BASEL_EINVAL, "--rj-add and --rj-delete must be positive (the chain must change size)");
    const double t0 = omp_get_wtime();
    if (bsl_vs_result_init(res, nc * m, 1, nc * pb->kmax, chains)) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    res->models.max_items = max_models;
    res->d_inputs = m;
    res->pip_chain = bsl_calloc(chains * nc * m, sizeof(double));
    res->input_pip = bsl_calloc(m + 1, sizeof(double));
    res->input_pip_chain = bsl_calloc(chains * m + 1, sizeof(double));
    multi_chain *ch = bsl_calloc(chains, sizeof *ch);
    if (!ch || !res->pip_chain || !res->input_pip || !res->input_pip_chain) {
        free(ch);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t h = 0; h < chains && !rc; h++) {
        rc = chain_init(&ch[h], pb, run, max_models, err);
        ch[h].id = (unsigned)h;
    }
    bsl_run r1 = *run;
    r1.chains = chains;
    bsl_chains cs = {.chains = chains, .threads = run->threads, .seed = run->seed, .units = run->burn + run->iter,
                     .progress = run->progress, .progress_user = run->progress_user, .trace_m = nc * m,
                     .trace_iter = run->iter, .trace_len = MULTI_TRACE_LEN,
                     .ckpt = {run->checkpoint, run->checkpoint_every, run->restart, run->run_id, chain_io},
                     .err = err};
    x.ch = ch;
    x.run = &r1;
    if (!rc) {
        rc = bsl_chains_run(&cs, run_chain, &x);
        if (rc && !cs.reported)
            bsl_fail(err, rc,
                     rc == BASEL_ECANCELLED    ? "cancelled"
                     : rc == BASEL_INTERRUPTED ? "interrupted (--family multinomial makes no fit of a partial run: "
                                                 "--checkpoint saves the state, --restart continues it)"
                     : rc == BASEL_ENOMEM      ? "out of memory in chain %zu"
                     : rc == BASEL_EIO         ? "cannot write the draws of chain %zu to their temporary file"
                                               : "numerical failure in chain %zu",
                     cs.failed);
    }
    if (!rc && (rc = merge(ch, &r1, &cs, res))) bsl_fail(err, rc, "out of memory");
    bsl_chains_free(&cs);
    for (size_t h = 0; h < chains; h++) chain_free(&ch[h]);
    free(ch);
    res->seconds = omp_get_wtime() - t0;
    return rc;
}
