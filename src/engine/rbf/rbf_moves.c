/*
 * rbf_moves.c: the reversible-jump moves of paper 002 §4 (birth, death,
 * split, merge, update of one centre), their acceptance ratios, the
 * annealed acceptance (eq. 5), and for the full-Bayes target the updates
 * of delta^2 and Lambda.
 *
 * Reference measure. The state is a set of k centres; the log target
 * log pi = log_lik + rbf_log_kprior(k) is the density of the *ordered*
 * centres w.r.t. Lebesgue measure on Lambda^k (label-symmetric). With that
 * convention (Green 1995; Richardson and Green 1997):
 *   birth (new centre uniform on the box, density 1/|Lambda|; death removes
 *   one of the k+1 uniformly):
 *     r_birth = pi'/pi * d_{k+1} / b_k * |Lambda|,
 *   and for the full-Bayes prior pi'/pi carries Lambda/(k+1) / |Lambda|, so
 *   r_birth = L'/L * Lambda/(k+1) * d/b, the Neural Computation paper's ratio.
 *   For anneal, pi = exp(criterion) makes r_birth = L'/L e^{-C} |Lambda| d/b;
 *   paper 002's eq. 7 has |Lambda| e^{-C} / (k+1), which is the ratio for
 *   pi / k!, whose annealed limit would maximise criterion - log k! rather
 *   than the AIC / BIC / MDL criterion of eq. 2. We keep the criterion.
 *   split (eq. 8): centre mu (one of k, uniform) becomes mu -+ zeta u with u
 *   uniform in the unit d-ball (density 1/V_d); merge picks one of the k+1
 *   centres uniformly, joins it to its nearest neighbour if closer than
 *   2 zeta (the paper's condition; |mu_1 - mu_2| = 2 zeta |u|). The pair is
 *   unordered, (mu, u) and (mu, -u) give the same pair, the Jacobian of
 *   (mu, u) -> (mu_1, mu_2) is (2 zeta)^d, and the pair is reached by a
 *   merge from either end whose nearest neighbour is the other (n_nn in
 *   {1, 2}; the paper's distance condition in the split makes n_nn >= 1,
 *   here a split with n_nn = 0 is simply rejected). So
 *     r_split = pi'/pi * m_{k+1} / s_k * k n_nn (2 zeta)^d V_d / 2,
 *   which for d = 1 is the paper's eq. 9 up to the same 1/(k+1) convention
 *   and its u in [0, 1] (no +- pair).
 *   update: a mixture of a Gaussian random walk and a uniform draw on the
 *   box, both symmetric, so r = pi'/pi.
 * Candidate mode (exactness test): the target is over subsets,
 *   p(S) = p(k) / C(m, k) L(S); birth picks an inactive candidate uniformly,
 *   so r_birth = pi'/pi * d_{k+1} / b_k * (m - k) / (k + 1) with pi the set
 *   density of rbf_log_kprior (the two conventions give the same L'/L *
 *   Lambda / (k+1) * d/b).
 * Move probabilities (§4): weights 0.2 each, impossible moves set to 0
 * (k = 0: death, split, merge, update; k = 1: merge; k = kmax: birth,
 * split) and the rest renormalised; the ratios carry them.
 * Width (gauss, sampled; not in paper 002, which fixes it by hand): the
 *   target gains the factor p(w), log-uniform on [lo, hi], i.e. theta =
 *   log w uniform on [log lo, log hi]. The move proposes theta' = theta +
 *   step N(0, 1) (symmetric in theta; w' = w e^{step z} is the log-normal
 *   random walk) and rejects theta' outside the range, so with the uniform
 *   prior on theta r = L'/L: every radial column changes, so the spare state
 *   is refactorised from scratch, O(n m^2 + n m d), once per width move,
 *   which runs every width_every steps (a fixed schedule of pi-invariant
 *   kernels leaves pi invariant). The centres' prior does not involve w.
 * Annealing (eq. 5): a proposal passes the temperature-1 MH test and then
 * min(1, (pi'/pi)^{1/T - 1}); one uniform against the product.
 */
#include "rbf_chain.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

static void move_probs(const bsl_rbf_chain *ch, size_t k, double p[BSL_RBF_NMOVES])
{
    const size_t kmax = rbf_kmax(ch);
    const double *w = ch->o.move_weights;
    const int cont = !ch->discrete;
    p[BSL_RBF_BIRTH] = k < kmax ? w[BSL_RBF_BIRTH] : 0;
    p[BSL_RBF_DEATH] = k >= 1 ? w[BSL_RBF_DEATH] : 0;
    p[BSL_RBF_SPLIT] = cont && k >= 1 && k < kmax ? w[BSL_RBF_SPLIT] : 0;
    p[BSL_RBF_MERGE] = cont && k >= 2 ? w[BSL_RBF_MERGE] : 0;
    p[BSL_RBF_UPDATE] = cont && k >= 1 ? w[BSL_RBF_UPDATE] : 0;
    double s = 0;
    for (int i = 0; i < BSL_RBF_NMOVES; i++) s += p[i];
    for (int i = 0; i < BSL_RBF_NMOVES; i++) p[i] /= s;
}

static double log_move_prob(const bsl_rbf_chain *ch, size_t k, int move)
{
    double p[BSL_RBF_NMOVES];
    move_probs(ch, k, p);
    return log(p[move]);
}

/* Accept with probability min(1, r) min(1, (pi'/pi)^{1/T-1}) (eq. 5); on
 * acceptance the spare state becomes the current one. */
static int accept(bsl_rbf_chain *ch, gsl_rng *r, double log_r, double dlt, double T)
{
    const double log_a = fmin(0.0, log_r) + (T == 1.0 ? 0.0 : fmin(0.0, (1.0 / T - 1.0) * dlt));
    if (!(log(gsl_rng_uniform_pos(r)) < log_a)) return 0;
    ch->cur = 1 - ch->cur;
    return 1;
}

/* log target of the spare state (after its edit) minus the current one */
static double delta_log_target(bsl_rbf_chain *ch, rbf_state *t)
{
    rbf_state_loglik(ch, t);
    return rbf_log_target(ch, t) - rbf_log_target(ch, &ch->st[ch->cur]);
}

static int in_box(const bsl_rbf_chain *ch, const double *mu)
{
    for (size_t a = 0; a < ch->d; a++)
        if (!(mu[a] >= ch->lo[a] && mu[a] <= ch->lo[a] + ch->side[a])) return 0;
    return 1;
}

/* log proposal term of a birth from k centres: the inverse density of the
 * new centre over the death's 1/(k+1) choice (see the top). */
static double log_birth_q(const bsl_rbf_chain *ch, size_t k)
{
    if (ch->discrete) return log((double)(ch->o.ncand - k)) - log((double)k + 1);
    return ch->log_vol;
}

static int birth(bsl_rbf_chain *ch, gsl_rng *r, double T)
{
    rbf_state *s = &ch->st[ch->cur], *t = &ch->st[1 - ch->cur];
    const size_t k = s->k, d = ch->d;
    double *nu = ch->u;
    size_t cand = 0;
    if (ch->discrete) { /* uniform over the inactive candidates, by rejection */
        for (;;) {
            cand = (size_t)gsl_rng_uniform_int(r, ch->o.ncand);
            size_t i = 0;
            while (i < k && s->cand[i] != cand) i++;
            if (i == k) break;
        }
        memcpy(nu, ch->o.candidates + cand * d, d * sizeof *nu);
    } else {
        for (size_t a = 0; a < d; a++) nu[a] = ch->lo[a] + ch->side[a] * gsl_rng_uniform(r);
    }
    rbf_state_copy(ch, t, s);
    if (rbf_state_append(ch, t, nu, cand)) return 0;
    const double dlt = delta_log_target(ch, t);
    const double log_r = dlt + log_move_prob(ch, k + 1, BSL_RBF_DEATH) -
                         log_move_prob(ch, k, BSL_RBF_BIRTH) + log_birth_q(ch, k);
    return accept(ch, r, log_r, dlt, T);
}

static int death(bsl_rbf_chain *ch, gsl_rng *r, double T)
{
    rbf_state *s = &ch->st[ch->cur], *t = &ch->st[1 - ch->cur];
    const size_t k = s->k;
    const size_t j = (size_t)gsl_rng_uniform_int(r, k);
    rbf_state_copy(ch, t, s);
    rbf_state_remove(ch, t, j);
    const double dlt = delta_log_target(ch, t);
    const double log_r = dlt + log_move_prob(ch, k - 1, BSL_RBF_BIRTH) -
                         log_move_prob(ch, k, BSL_RBF_DEATH) - log_birth_q(ch, k - 1);
    return accept(ch, r, log_r, dlt, T);
}

static double dist2(const double *a, const double *b, size_t d)
{
    double s = 0;
    for (size_t i = 0; i < d; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return s;
}

/* index of the nearest other centre of centre i in s (k >= 2) */
static size_t nearest(const bsl_rbf_chain *ch, const rbf_state *s, size_t i)
{
    size_t best = i;
    double bd = INFINITY;
    for (size_t j = 0; j < s->k; j++) {
        if (j == i) continue;
        const double dd = dist2(s->mu + i * ch->d, s->mu + j * ch->d, ch->d);
        if (dd < bd) {
            bd = dd;
            best = j;
        }
    }
    return best;
}

/* log of the split's Jacobian-and-proposal factor (2 zeta)^d V_d / 2 */
static double log_split_volume(const bsl_rbf_chain *ch)
{
    return (double)ch->d * log(2 * ch->zeta) + ch->log_ball - log(2.0);
}

static int split(bsl_rbf_chain *ch, gsl_rng *r, double T)
{
    rbf_state *s = &ch->st[ch->cur], *t = &ch->st[1 - ch->cur];
    const size_t k = s->k, d = ch->d;
    const size_t j = (size_t)gsl_rng_uniform_int(r, k);
    double *u = ch->u, *a = ch->u + d, *b = ch->u + 2 * d;
    /* u uniform in the unit ball: a uniform direction, radius U^{1/d} */
    double norm = 0;
    for (size_t i = 0; i < d; i++) {
        u[i] = gsl_ran_ugaussian(r);
        norm += u[i] * u[i];
    }
    const double radius = pow(gsl_rng_uniform(r), 1.0 / (double)d) / sqrt(norm);
    const double *mu = s->mu + j * d;
    for (size_t i = 0; i < d; i++) { /* eq. 8 */
        a[i] = mu[i] - ch->zeta * radius * u[i];
        b[i] = mu[i] + ch->zeta * radius * u[i];
    }
    if (!in_box(ch, a) || !in_box(ch, b)) return 0;
    rbf_state_copy(ch, t, s);
    rbf_state_remove(ch, t, j);
    if (rbf_state_append(ch, t, a, 0) || rbf_state_append(ch, t, b, 0)) return 0;
    const size_t ia = k - 1, ib = k;
    const int n_nn = (nearest(ch, t, ia) == ib) + (nearest(ch, t, ib) == ia);
    if (n_nn == 0) return 0;
    const double dlt = delta_log_target(ch, t);
    const double log_r = dlt + log_move_prob(ch, k + 1, BSL_RBF_MERGE) -
                         log_move_prob(ch, k, BSL_RBF_SPLIT) + log((double)(k * (size_t)n_nn)) +
                         log_split_volume(ch);
    return accept(ch, r, log_r, dlt, T);
}

static int merge(bsl_rbf_chain *ch, gsl_rng *r, double T)
{
    rbf_state *s = &ch->st[ch->cur], *t = &ch->st[1 - ch->cur];
    const size_t k = s->k, d = ch->d;
    const size_t i = (size_t)gsl_rng_uniform_int(r, k);
    const size_t j = nearest(ch, s, i);
    const double *mi = s->mu + i * d, *mj = s->mu + j * d;
    if (!(dist2(mi, mj, d) < 4 * ch->zeta * ch->zeta)) return 0;
    const int n_nn = 1 + (nearest(ch, s, j) == i);
    double *mid = ch->u;
    for (size_t a = 0; a < d; a++) mid[a] = 0.5 * (mi[a] + mj[a]);
    rbf_state_copy(ch, t, s);
    rbf_state_remove(ch, t, BSL_MAX(i, j));
    rbf_state_remove(ch, t, BSL_MIN(i, j));
    if (rbf_state_append(ch, t, mid, 0)) return 0;
    const double dlt = delta_log_target(ch, t);
    const double log_r = dlt + log_move_prob(ch, k - 1, BSL_RBF_SPLIT) -
                         log_move_prob(ch, k, BSL_RBF_MERGE) -
                         log((double)((k - 1) * (size_t)n_nn)) - log_split_volume(ch);
    return accept(ch, r, log_r, dlt, T);
}

/* Move one centre: remove its column and append the new one, O(n k). */
static int update(bsl_rbf_chain *ch, gsl_rng *r, double T)
{
    rbf_state *s = &ch->st[ch->cur], *t = &ch->st[1 - ch->cur];
    const size_t k = s->k, d = ch->d;
    const size_t j = (size_t)gsl_rng_uniform_int(r, k);
    double *nu = ch->u;
    const int walk = gsl_rng_uniform(r) < ch->o.p_rw;
    for (size_t a = 0; a < d; a++)
        nu[a] = walk ? s->mu[j * d + a] + ch->o.rw_scale * ch->side[a] * gsl_ran_ugaussian(r)
                     : ch->lo[a] + ch->side[a] * gsl_rng_uniform(r);
    if (!in_box(ch, nu)) return 0;
    rbf_state_copy(ch, t, s);
    rbf_state_remove(ch, t, j);
    if (rbf_state_append(ch, t, nu, 0)) return 0;
    const double dlt = delta_log_target(ch, t);
    return accept(ch, r, dlt, dlt, T);
}

int bsl_rbf_chain_width_step(bsl_rbf_chain *ch, gsl_rng *r, double T)
{
    rbf_state *s = &ch->st[ch->cur], *t = &ch->st[1 - ch->cur];
    const double w = s->width * exp(ch->o.width_step * gsl_ran_ugaussian(r));
    ch->width_proposed += 1;
    if (!(w >= ch->o.width_lo && w <= ch->o.width_hi)) return 0;
    rbf_state_copy(ch, t, s);
    t->width = w;
    if (rbf_state_refresh(ch, t) != BASEL_OK) return 0; /* singular at w: outside the support */
    const double dlt = delta_log_target(ch, t);
    const int ok = accept(ch, r, dlt, dlt, T);
    if (ok) ch->since_refresh = 0; /* the new current state is a fresh factorisation */
    ch->width_accepted += ok;
    return ok;
}

/* log P(Poisson(lambda) <= K), the truncated prior's normaliser */
static double log_trunc_norm(double lambda, size_t K)
{
    const double z = gsl_cdf_poisson_P((unsigned)K, lambda);
    if (z > 0) return log(z);
    return (double)K * log(lambda) - lambda - lgamma((double)K + 1); /* its top term */
}

/*
 * Full-Bayes hyperparameters (Andrieu, de Freitas, Doucet 2001):
 * delta_o^2 by Gibbs through the integrated-out parameters: draw
 *   sigma_o^2 | y, delta^2 ~ IG(a0 + n/2, b0 + (y'y - s y'Hy)/2), s = d2/(1+d2),
 *   w = L' alpha_o | sigma^2 ~ N(s z_o, sigma^2 s I)  (z = L^{-1} D'y),
 *   delta_o^2 | alpha, sigma^2 ~ IG(a_delta + m/2, b_delta + |w|^2/(2 sigma^2))
 * (alpha' D'D alpha = |L' alpha|^2, so no solve is needed); Lambda by an
 * independence MH step proposing from the untruncated conditional
 * Gamma(a_lambda + k, b_lambda + 1), accepted with Z(Lambda)/Z(Lambda*).
 */
/* delta_o^2 | ... through the model, output by output (model.h draw_nuisance:
 * sigma_o^2 and alpha_o given delta_o^2, then delta_o^2 | alpha_o, sigma_o^2,
 * over all m = q + k columns), then Lambda by independence Metropolis. */
void rbf_hyper_step(bsl_rbf_chain *ch, gsl_rng *r)
{
    rbf_state *s = &ch->st[ch->cur];
    if (ch->o.sample_delta2) {
        bsl_cmodel_draw_nuisance(s->M, r); /* output by output */
        bsl_cmodel_nuisance(s->M, ch->delta2, NULL);
    }
    if (ch->o.sample_lambda) {
        const size_t K = rbf_kmax(ch);
        const double prop =
            gsl_ran_gamma(r, ch->o.a_lambda + (double)s->k, 1.0 / (ch->o.b_lambda + 1.0));
        const double log_a = log_trunc_norm(ch->lambda, K) - log_trunc_norm(prop, K);
        if (prop > 0 && log(gsl_rng_uniform_pos(r)) < log_a) ch->lambda = prop;
    }
    rbf_state_loglik(ch, s);
}

/* Replace the current state by a fresh factorisation of itself (bounds the
 * drift of the O(k^2) updates); keeps the updated one if that fails. */
static void refresh_current(bsl_rbf_chain *ch)
{
    rbf_state *s = &ch->st[ch->cur], *t = &ch->st[1 - ch->cur];
    rbf_state_copy(ch, t, s); /* the centres and the models' current delta^2 */
    if (rbf_state_refresh(ch, t) == BASEL_OK) ch->cur = 1 - ch->cur;
    ch->since_refresh = 0;
}

int bsl_rbf_chain_step(bsl_rbf_chain *ch, gsl_rng *r, double T)
{
    const size_t k = ch->st[ch->cur].k;
    double p[BSL_RBF_NMOVES];
    move_probs(ch, k, p);
    const double u = gsl_rng_uniform(r);
    int move = 0;
    double acc = p[0];
    while (move < BSL_RBF_NMOVES - 1 && !(u < acc)) acc += p[++move];
    while (p[move] == 0) move--; /* rounding at the top end */
    int ok = 0;
    switch (move) {
    case BSL_RBF_BIRTH: ok = birth(ch, r, T); break;
    case BSL_RBF_DEATH: ok = death(ch, r, T); break;
    case BSL_RBF_SPLIT: ok = split(ch, r, T); break;
    case BSL_RBF_MERGE: ok = merge(ch, r, T); break;
    default: ok = update(ch, r, T); break;
    }
    ch->proposed[move] += 1;
    ch->accepted[move] += ok;
    if (ok && ++ch->since_refresh >= BSL_RBF_REFRESH) refresh_current(ch);
    if (ch->o.sample_width && ++ch->width_clock >= ch->o.width_every) {
        ch->width_clock = 0;
        bsl_rbf_chain_width_step(ch, r, T);
    }
    if (ch->mode == BSL_RBF_FULL) rbf_hyper_step(ch, r);
    return move;
}

/* ---- simulation from the rj prior (Geweke test) ---- */

int bsl_rbf_chain_draw_prior(bsl_rbf_chain *ch, gsl_rng *r)
{
    if (ch->mode != BSL_RBF_FULL) return BASEL_EINVAL;
    if (ch->o.sample_lambda)
        ch->lambda = gsl_ran_gamma(r, ch->o.a_lambda, 1.0 / ch->o.b_lambda);
    if (ch->o.sample_delta2) {
        for (size_t o = 0; o < ch->c; o++) ch->delta2[o] = 1.0 / gsl_ran_gamma(r, ch->o.a_delta, 1.0 / ch->o.b_delta);
        bsl_cmodel_set_nuisance(ch->st[ch->cur].M, ch->delta2);
    }
    const size_t K = rbf_kmax(ch), d = ch->d;
    for (int tries = 0; tries < 1000; tries++) {
        rbf_state *s = &ch->st[ch->cur];
        if (ch->o.sample_width) /* log-uniform on [lo, hi] */
            s->width = ch->o.width_lo * pow(ch->o.width_hi / ch->o.width_lo, gsl_rng_uniform(r));
        unsigned k;
        do k = gsl_ran_poisson(r, ch->lambda); while (k > K);
        s->k = 0;
        while (s->k < k) {
            if (ch->discrete) {
                const size_t cand = (size_t)gsl_rng_uniform_int(r, ch->o.ncand);
                size_t i = 0;
                while (i < s->k && s->cand[i] != cand) i++;
                if (i < s->k) continue;
                s->cand[s->k] = cand;
                memcpy(s->mu + s->k * d, ch->o.candidates + cand * d, d * sizeof(double));
            } else {
                for (size_t a = 0; a < d; a++)
                    s->mu[s->k * d + a] = ch->lo[a] + ch->side[a] * gsl_rng_uniform(r);
            }
            s->k++;
        }
        if (bsl_rbf_chain_refresh(ch) == BASEL_OK) return BASEL_OK;
    }
    return BASEL_ENUMERIC;
}

int bsl_rbf_chain_draw_y(bsl_rbf_chain *ch, gsl_rng *r, double *Y)
{
    if (ch->mode != BSL_RBF_FULL || Y != ch->Y || !(ch->o.a0 > 0 && ch->o.b0 > 0))
        return BASEL_EINVAL;
    rbf_state *s = &ch->st[ch->cur];
    const size_t n = ch->n, m = ch->q + s->k;
    double *L = ch->w, *w = ch->w + m * (m + 1) / 2; /* packed factor of D'D, then alpha */
    bsl_cmodel_gram_factor(s->M, L);
    const size_t *ids = bsl_cmodel_active(s->M);
    for (size_t o = 0; o < ch->c; o++) {
        const double sigma2 = 1.0 / gsl_ran_gamma(r, ch->o.a0, 1.0 / ch->o.b0);
        /* alpha = sigma delta L'^{-1} e ~ N(0, sigma^2 delta^2 (D'D)^{-1}) */
        for (size_t i = 0; i < m; i++) w[i] = gsl_ran_ugaussian(r);
        for (size_t i = m; i-- > 0;) { /* back substitution with L' (packed lower, by columns) */
            const size_t ci = i * m - i * (i - 1) / 2; /* offset of column i: L[i, i] */
            double t = w[i];
            for (size_t l = i + 1; l < m; l++) t -= L[ci + (l - i)] * w[l];
            w[i] = t / L[ci];
        }
        const double scale = sqrt(sigma2 * ch->delta2[o]), sd = sqrt(sigma2);
        double *y = Y + o * n;
        for (size_t i = 0; i < n; i++) y[i] = sd * gsl_ran_ugaussian(r);
        for (size_t j = 0; j < m; j++) { /* y += scale D alpha (not a hot path) */
            rbf_state_column(s, ids[j], ch->col);
            for (size_t i = 0; i < n; i++) y[i] += scale * w[j] * ch->col[i];
        }
    }
    return bsl_rbf_chain_refresh(ch);
}
