/*
 * smc_moves.c: one particle's step of Algorithm 1 (paper 003): the new
 * point enters the factor, a zero / birth / death move is proposed, the
 * importance weight of eq. (8) is accumulated, and beta, sigma2,
 * sigma_beta2 are drawn from eqs. (4)-(5).
 *
 * Invariant: on return the particle's model (smc_impl.h) describes its
 * (possibly new) centres over the t points with its (possibly new)
 * variances, and log_w has been multiplied by the incremental weight. The
 * model (model.h: the ridge prior, tau = rho) does all the linear algebra:
 * the new row (a rank-one update of its factor), births and deaths, the
 * refactorisation for a new rho and the drift bound; this file only picks
 * the moves and weighs them.
 *
 * ---- Target ----------------------------------------------------------------
 * With the variances held fixed through a step, the target at time t over
 * centre sets S (a subset of the m_t candidates, |S| = k <= kmax) is
 *     pi_t(S) ∝ p(Y_t | S) * Poisson(k; lambda) / C(m_t, k)
 *            ∝ p(Y_t | S) * lambda^k (m_t - k)! / m_t!            (lp below)
 * (uniform k-subset given k; the k! of the Poisson and of C cancel, which is
 * the "lambda^{k-k'} (t-k)! ..." factor of eq. (9)). The marginal likelihood,
 * beta integrated (eq. 3), with M_S = K'K + rho I, rho = sigma2/sigma_beta2,
 * z = L^{-1} K'Y:
 *     log p(Y_t|S) = -(t/2) log(2 pi sigma2) + ((k+1)/2) log rho
 *                    - (1/2) log|M_S| - (Y'Y - |z|^2) / (2 sigma2),
 * since |sigma2 I + sigma_beta2 K K'| = sigma2^t sigma_beta2^{k+1}
 * |M_S / sigma2| and Y'(...)^{-1}Y = (Y'Y - |z|^2)/sigma2 (Woodbury).
 *
 * ---- Proposal and backward kernel (eq. 8) ----------------------------------
 * From x' ~ pi_{t-1} (k' centres, m' = m_{t-1} candidates; m = m_t is m' or
 * m' + 1 when the new point is a new candidate) the forward kernel picks a
 * move with alpha(k', m) (section 3.2: a_b = c min(1, lambda/(k'+1)),
 * a_d = c min(1, k'/lambda), a_0 = 1 - a_b - a_d, birth impossible when
 * k' = kmax or k' = m, death when k' = 0; c <= 1/2 keeps a_0 > 0):
 * zero x = x'; birth of a uniform unoccupied candidate (1/(m - k')); death
 * of a uniform centre (1/k').
 * The weight is pi_t(x) L(x' | x) / (pi_{t-1}(x') alpha_j(x') q_j(x | x')).
 * The paper leaves L implicit; for exactness L must only reach states in
 * the support of pi_{t-1}. We take
 *   - if x contains the new candidate t: L removes it (probability 1);
 *   - otherwise the reverse of the forward kernel at time t-1: with
 *     beta(k, m') (the same formulas with m'), stay (x' = x), or remove a
 *     uniform centre (x' = x minus one, 1/k: the reverse of a birth), or add
 *     a uniform unoccupied old candidate (1/(m' - k): reverse of a death).
 * Both sum to one over (x', move), and every (x, x', move) they reach has a
 * positive forward probability, so the weighted particles target pi_t.
 * With ell_t = log p(Y_t | .), lp(k, m) = k log lambda + lgamma(m - k + 1)
 * - lgamma(m + 1), the log incremental weights are
 *   zero:   ell_t(x) - ell_{t-1}(x) + lp(k,m) - lp(k,m')
 *           + log b_0(k,m') - log a_0(k,m)
 *   birth:  ell_t(x) - ell_{t-1}(x') + lp(k'+1,m) - lp(k',m') + log L
 *           - log a_b(k',m) + log(m - k'),
 *           log L = 0 for a birth at the new candidate, else
 *           log b_d(k'+1, m') - log(k'+1)
 *   death:  ell_t(x) - ell_{t-1}(x') + lp(k'-1,m) - lp(k',m')
 *           + log b_b(k'-1, m') - log(m' - k' + 1) - log a_d(k',m) + log k'.
 * For k' < min(kmax, m' - 1) the move probabilities cancel in the zero
 * move, whose weight is then the one-step predictive density times
 * (m-k)!/m! ... ratio, as in the paper ("unity" there up to these terms).
 *
 * This is o->kernel == BSL_SMC_KERNEL_PAPER. Its weakness, found by the
 * enumeration test: a birth of an old candidate into x is weighted by
 * 1/pi_{t-1}(x minus that centre), and the reverse-move L proposes such
 * states whatever their probability at t-1; when the data have made them
 * very unlikely (say the empty set after a few points), the rare particles
 * that sit there carry huge weights, and once resampling has removed them
 * the estimate is biased for any practical N (TV 0.67 at N = 1e5 on the
 * test problem). The default kernel below avoids this.
 *
 * ---- Nuisance parameters ---------------------------------------------------
 * After weighting, beta | S, sigma2, sigma_beta2, Y ~ N(M^{-1}K'Y,
 * sigma2 M^{-1}) (eq. 4), then sigma2 | beta ~ IG(a + t/2, b + e'e/2) and
 * sigma_beta2 | beta ~ IG(a_b + (k+1)/2, b_b + |beta|^2/2) (eq. 5). This
 * data-augmentation kernel leaves pi_t(S, sigma2, sigma_beta2) invariant, so
 * the next step's weights (ratios at fixed variances) remain valid. A new
 * rho changes every diagonal entry of M, so the model refactorises
 * (O(k^3)); this is the only O(k^3) work besides drift control. beta is
 * drawn by the model (bsl_cmodel_coef_draw) from the ziggurat normals
 * drawn here, in the order the draws have always had.
 */
#include "smc_impl.h"

#include <float.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

enum { MOVE_ZERO = 0, MOVE_BIRTH = 1, MOVE_DEATH = 2 };

typedef struct move_probs {
    double zero, birth, death;
} move_probs;

/* Section 3.2's move probabilities at k centres with m candidates. */
static move_probs move_probabilities(const bsl_smc_options *o, size_t k, size_t m)
{
    move_probs a = {0, 0, 0};
    const double lambda = o->poisson_mean;
    if (k < o->kmax && k < m) a.birth = o->c_move * fmin(1.0, lambda / (double)(k + 1));
    if (k >= 1) a.death = o->c_move * fmin(1.0, (double)k / lambda);
    a.zero = 1 - a.birth - a.death;
    return a;
}

/* log of lambda^k (m - k)! / m!: the prior of one k-subset of m candidates
 * up to constants of t alone (see the file comment). */
static double log_prior_set(const bsl_smc_options *o, size_t k, size_t m)
{
    return (double)k * log(o->poisson_mean) + lgamma((double)(m - k) + 1) - lgamma((double)m + 1);
}

/* The new point enters the model (its row: 1 for the intercept, K(x_t,
 * c) for candidate c, smc_impl.h), and the intercept with the first point:
 * O(k^2). BASEL_ENUMERIC if a drift-bounding refactorisation failed. */
static int add_point(smc_particle *P, const smc_cache *C)
{
    int rc = bsl_cmodel_add_row(P->M, C->row - 1, &C->y_t);
    if (rc == BASEL_OK && bsl_cmodel_k(P->M) == 0) rc = bsl_cmodel_add(P->M, 0);
    return rc;
}

/* Append the kernel at candidate c (O(k^2)); 0, or -1 if numerically
 * collinear (the model refuses it). */
static int add_centre(smc_particle *P, size_t c)
{
    if (bsl_cmodel_try_add(P->M, c + 1) == -INFINITY || bsl_cmodel_add(P->M, c + 1) != BASEL_OK) return -1;
    P->centre[P->k++] = c;
    return 0;
}

static void remove_centre(smc_particle *P, size_t pos)
{
    bsl_cmodel_remove(P->M, P->centre[pos] + 1);
    memmove(P->centre + pos, P->centre + pos + 1, (P->k - pos - 1) * sizeof *P->centre);
    P->k--;
}

static int is_centre(const smc_particle *P, size_t c)
{
    for (size_t j = 0; j < P->k; j++)
        if (P->centre[j] == c) return 1;
    return 0;
}

/* A uniform unoccupied candidate among m (m > k): rejection, expected
 * m / (m - k) tries, deterministic given r. */
static size_t draw_unoccupied(const smc_particle *P, size_t m, gsl_rng *r)
{
    for (;;) {
        const size_t c = (size_t)gsl_rng_uniform_int(r, m);
        if (!is_centre(P, c)) return c;
    }
}

/* eq. (4) then eq. (5): beta = L^{-T}(z + sigma eps) (the model's draw
 * from the normals eps), sigma2, sigma_beta2; then the model takes the new
 * rho (a refactorisation). 0, or -1 if that failed. */
static int draw_nuisance(smc_particle *P, const smc_cache *C, const bsl_smc_options *o,
                         gsl_rng *r, int update_variances)
{
    const size_t k1 = P->k + 1;
    for (size_t j = 0; j < k1; j++) P->beta[j] = gsl_ran_gaussian_ziggurat(r, 1.0);
    if (bsl_cmodel_coef_draw(P->M, P->beta) != BASEL_OK) return -1;
    if (!update_variances) return 0;
    /* e'e = Y'Y - 2 beta'b + beta'(M - rho I)beta, with b = K'Y from the cache
     * and beta'M beta = |L' beta|^2 (L the model's factor, packed) */
    double *Lp = P->work, *w = Lp + k1 * (k1 + 1) / 2, *b = w + k1;
    bsl_cmodel_gram_factor(P->M, Lp);
    for (size_t i = 0, col = 0; i < k1; col += k1 - i, i++) { /* w = L' beta */
        double acc = 0;
        for (size_t r2 = i; r2 < k1; r2++) acc += Lp[col + r2 - i] * P->beta[r2];
        w[i] = acc;
    }
    b[0] = C->sum_y;
    for (size_t j = 0; j + 1 < k1; j++) b[j + 1] = C->sy[P->centre[j]];
    const double rho = P->sigma2 * (1.0 / P->sigma_beta2); /* the model's tau */
    const double bb = bsl_dot(P->beta, P->beta, k1);
    double ee = C->yy - 2 * bsl_dot(P->beta, b, k1) + bsl_dot(w, w, k1) - rho * bb;
    ee = fmax(ee, 0.0);
    /* IG(a, b) draw as 1 / Gamma(a, scale 1/b); the rate is kept above the
     * smallest normal double so a perfect fit cannot divide by zero */
    const double rate_s = fmax(o->b_sigma + ee / 2, DBL_MIN);
    const double rate_b = fmax(o->b_beta + bb / 2, DBL_MIN);
    P->sigma2 = 1 / gsl_ran_gamma(r, o->a_sigma + (double)C->t / 2, 1 / rate_s);
    P->sigma_beta2 = 1 / gsl_ran_gamma(r, o->a_beta + (double)k1 / 2, 1 / rate_b);
    const double vals[2] = {P->sigma2, 1.0 / P->sigma_beta2};
    return bsl_cmodel_set_nuisance(P->M, vals) == BASEL_OK ? 0 : -1;
}

void bsl_smc_initial_variances(const bsl_smc_options *o, gsl_rng *r, double *sigma2,
                               double *sigma_beta2)
{
    *sigma2 = o->sigma2;
    *sigma_beta2 = o->sigma_beta2;
    if (!o->sample_nuisance) return;
    if (o->a_sigma > 0 && o->b_sigma > 0) *sigma2 = 1 / gsl_ran_gamma(r, o->a_sigma, 1 / o->b_sigma);
    if (o->a_beta > 0 && o->b_beta > 0) *sigma_beta2 = 1 / gsl_ran_gamma(r, o->a_beta, 1 / o->b_beta);
}

/* Propose and apply a move; returns the log of pi-independent weight terms
 * (prior and proposal, see the file comment); -inf if the birth was
 * numerically impossible (the particle then keeps x' and gets weight 0). */
static double propose(smc_particle *P, const smc_cache *C, const bsl_smc_options *o,
                      size_t m_prev, gsl_rng *r)
{
    const size_t kp = P->k, m = C->m;
    const move_probs a = move_probabilities(o, kp, m);
    const double u = gsl_rng_uniform(r);
    if (u < a.birth) {
        const size_t c = draw_unoccupied(P, m, r);
        if (add_centre(P, c) != 0) return -INFINITY;
        const int at_new = m > m_prev && c == m - 1;
        const double log_L = at_new ? 0.0
                                    : log(move_probabilities(o, kp + 1, m_prev).death) - log((double)(kp + 1));
        return log_prior_set(o, kp + 1, m) - log_prior_set(o, kp, m_prev) + log_L - log(a.birth) +
               log((double)(m - kp));
    }
    if (u < a.birth + a.death) {
        remove_centre(P, (size_t)gsl_rng_uniform_int(r, kp));
        const double log_L = log(move_probabilities(o, kp - 1, m_prev).birth) - log((double)(m_prev - kp + 1));
        return log_prior_set(o, kp - 1, m) - log_prior_set(o, kp, m_prev) + log_L - log(a.death) +
               log((double)kp);
    }
    return log_prior_set(o, kp, m) - log_prior_set(o, kp, m_prev) +
           log(move_probabilities(o, kp, m_prev).zero) - log(a.zero);
}

void bsl_smc_particle_step(smc_particle *P, const smc_cache *C, const bsl_smc_options *o, gsl_rng *r)
{
    const size_t m_prev = C->m - (C->t <= C->mcap ? 1 : 0);
    const double ell_prev = smc_log_ml(P);
    if (add_point(P, C) != BASEL_OK) {
        P->log_w = -INFINITY; /* not positive definite: cannot happen with rho > 0 */
        return;
    }
    const double log_q = propose(P, C, o, m_prev, r);
    P->log_w += smc_log_ml(P) - ell_prev + log_q;
    const int update = o->sample_nuisance && C->t % o->nuisance_every == 0;
    if (draw_nuisance(P, C, o, r, update) != 0) P->log_w = -INFINITY;
}

/* ---- resample-move kernel (the default, o->kernel == BSL_SMC_KERNEL_MOVE) --
 * The support of pi_t grows with the new candidate t, so a pure MCMC step
 * cannot follow it; the step is eq. (8) with a two-part forward kernel:
 *  (i) the new candidate enters with its exact conditional probability given
 *      the old centres x', p_new = g(x' + t) / (g(x') + g(x' + t)), where
 *      g = gamma_t = exp(ell_t + lp(., m)) (zero when k' = kmax);
 *  (ii) moves_per_step Metropolis-Hastings zero / birth / death moves with
 *      the proposals and probabilities of section 3.2, invariant for pi_t;
 * and the backward kernel the reversal of (ii) followed by removing t when
 * present. Then pi_t(x) L(x'|x) / (pi_{t-1}(x') q(x|x')) collapses to
 *     w = (g(x') + g(x' + t)) / gamma_{t-1}(x')
 * (without a new candidate, w = gamma_t(x') / gamma_{t-1}(x'): the one-step
 * predictive density). w depends on x' only, so it is computed before
 * resampling and (i) is drawn after it (the fully adapted choice). Unlike the
 * reverse-move kernel above, it never divides by pi_{t-1} of a state the
 * particles need not have visited, so its variance stays bounded; the
 * enumeration test shows the difference. */

void bsl_smc_particle_weigh(smc_particle *P, const smc_cache *C, const bsl_smc_options *o)
{
    const int is_new = C->t <= C->mcap;
    const size_t m = C->m, m_prev = m - (is_new ? 1 : 0), k = P->k;
    const double log_gamma_prev = smc_log_ml(P) + log_prior_set(o, k, m_prev);
    P->p_new = 0;
    if (add_point(P, C) != BASEL_OK) {
        P->log_w = -INFINITY;
        return;
    }
    double log_g = smc_log_ml(P) + log_prior_set(o, k, m);
    if (is_new && k < o->kmax) {
        /* log_ml with the new candidate appended, the model unchanged */
        const double log_g_new = bsl_cmodel_try_add(P->M, m) + log_prior_set(o, k + 1, m);
        const double log_sum = bsl_logaddexp(log_g, log_g_new);
        P->p_new = exp(log_g_new - log_sum);
        log_g = log_sum;
    }
    P->log_w += log_g - log_gamma_prev;
}

/* log pi_t up to a constant of t: log_ml + lp (k, m). */
static double log_target(const smc_particle *P, const smc_cache *C, const bsl_smc_options *o)
{
    return smc_log_ml(P) + log_prior_set(o, P->k, C->m);
}

/* One Metropolis-Hastings zero / birth / death move at time t. */
static void mh_move(smc_particle *P, const smc_cache *C, const bsl_smc_options *o, gsl_rng *r)
{
    const size_t k = P->k, m = C->m;
    const move_probs a = move_probabilities(o, k, m);
    const double u = gsl_rng_uniform(r);
    const double log_old = log_target(P, C, o);
    if (u < a.birth) {
        const size_t c = draw_unoccupied(P, m, r);
        const double log_fwd = log(a.birth) - log((double)(m - k));
        const double log_rev = log(move_probabilities(o, k + 1, m).death) - log((double)(k + 1));
        if (add_centre(P, c) != 0) {
            (void)gsl_rng_uniform(r); /* keep the stream's use fixed */
            return;
        }
        const double log_acc = log_target(P, C, o) - log_old + log_rev - log_fwd;
        if (log(gsl_rng_uniform_pos(r)) >= log_acc) remove_centre(P, k); /* reject: drop the new last centre */
    } else if (u < a.birth + a.death) {
        const size_t pos = (size_t)gsl_rng_uniform_int(r, k), c = P->centre[pos];
        const double log_fwd = log(a.death) - log((double)k);
        const double log_rev = log(move_probabilities(o, k - 1, m).birth) - log((double)(m - k + 1));
        remove_centre(P, pos);
        const double log_acc = log_target(P, C, o) - log_old + log_rev - log_fwd;
        if (log(gsl_rng_uniform_pos(r)) >= log_acc) { /* reject: put it back (at the end) */
            if (add_centre(P, c) != 0) P->log_w = -INFINITY; /* it was in before: cannot happen */
        }
    }
}

void bsl_smc_particle_move(smc_particle *P, const smc_cache *C, const bsl_smc_options *o, gsl_rng *r)
{
    /* (i): the new candidate, index m - 1, with its conditional probability */
    if (gsl_rng_uniform(r) < P->p_new) (void)add_centre(P, C->m - 1);
    for (size_t it = 0; it < o->moves_per_step; it++) mh_move(P, C, o, r);
    const int update = o->sample_nuisance && C->t % o->nuisance_every == 0;
    if (draw_nuisance(P, C, o, r, update) != 0) P->log_w = -INFINITY;
}
