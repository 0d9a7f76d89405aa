/*
 * mixture_rj.c: the moves between input subsets of paper 000 §2.3: add an
 * input, remove one (its exact reverse), exchange an active for an excluded
 * input. The OCR of eqs. 5-6 is garbled, so the ratios are derived here.
 *
 * The target. Every subset gamma is a model of all d inputs: active inputs
 * follow the shared-kernel mixture, the excluded ones a density that does
 * not depend on the class or the kernel given the active inputs, its
 * parameters integrated out (total log evidence E(gamma), a function of the
 * data and the subset; mixture_excluded.c). Given the class-and-kernel-free
 * parameters theta = (mu, prec, beta, w, P) the posterior is
 *   pi(gamma, theta) ~ p(gamma) p(theta | gamma) R(theta, gamma) exp(E(gamma)),
 * where R is the row likelihood with allocations and unlabelled classes
 * summed out (bsl_mix_rows_loglik) and p(gamma) = p(I) / C(d, I) (§2.3).
 *
 * Add / remove (eqs. 4-5), a Metropolis-Hastings-Green move on pi with the
 * latent allocations summed out; the next sweep redraws them from their
 * conditional, so sweep = Gibbs kernels + an MH kernel on a margin, each
 * leaving the joint invariant. Add at size I:
 *   - choose j among the d - I excluded inputs (prob. p_add(I) / (d - I));
 *   - draw prec_dj ~ Gamma(a, beta_j), mu_dj ~ N(xi_j, 1/kappa_j), d = 1..D:
 *     the priors, so these proposal densities cancel the prior terms of the
 *     new coordinates (beta_j exists in both models and is not changed);
 *   - split the allocation probabilities (eq. 4): for every class k draw a
 *     uniformly random permutation pi of the kernels, and for each pair
 *     (donor pi_p, receiver pi_{D+1-p}), p <= D/2, draw u ~ Beta(b_a, b_b+1):
 *       w'_rec = w_rec + u w_don,   w'_don = (1 - u) w_don.
 *     The paper pairs kernels by the order of their weights; that order can
 *     change under the move, so the reverse would not be exact. A random
 *     permutation drawn the same way in both directions keeps the move's
 *     symmetry and cancels.
 * Remove at size I, the exact reverse: choose j among the I active inputs
 * (p_remove(I) / I), drop its coordinates, draw the same permutation law and
 * v ~ Beta(b_a, b_b+1), and invert the split with u = v:
 *       w_don = w'_don / (1 - v),   w_rec = w'_rec - v w_don,
 * rejecting when w_rec <= 0 (no add move reaches that point).
 * Dimension matching: (theta, mu_.j, prec_.j, u) <-> (theta', v) with v = u.
 * The Beta densities of u and v are the same and cancel, as do the
 * permutations. The split keeps sum_d w_kd and w'_don, w'_rec depend on
 * (w_don, w_rec, u) through the matrix [[1-u, 0, -w_don], [u, 1, w_don],
 * [0, 0, 1]] (third row: v = u), whose determinant is 1 - u; this holds
 * whichever coordinate of the simplex is implicit. So
 *   log A_add = R(theta', gamma') - R(theta, gamma) + E(gamma') - E(gamma)
 *             + log p(gamma') - log p(gamma)
 *             + log(p_remove(I+1) / (I+1)) - log(p_add(I) / (d - I))
 *             + sum_{k, pairs} log(1 - u) + (delta_w - 1) sum log(w'/w),
 * the last term being the Dirichlet prior ratio (zero at the default
 * delta_w = 1). With p(gamma) from §2.3 the first lines give the paper's
 * lambda / (I + 1) x d_{I+1} / b_I. The paper says the weight proposal
 * contributes nothing; the Jacobian (1 - u) says otherwise. log A_remove is
 * minus log A_add at the reverse point. The paper's ratio (5) conditions on
 * the allocations; summing them out (our R) is also exact and lets the new
 * weights be judged by the mixture likelihood rather than by the counts.
 *
 * Data-driven coordinates (add_proposal = BSL_MIX_PROPOSE_DATA, default).
 * Prior draws (eq. 5) are exact but a useful input is accepted only when
 * all D means land near the data, about once in 10^4 tries with the vague
 * §2.2 prior. Instead draw the new coordinates from
 *   q(prec_dj, mu_dj) = Gamma(prec; a + N_d/2, beta_j + V_d/2)
 *                       x N(mu; (kappa xi + prec S_d)/(kappa + N_d prec), 1/(kappa + N_d prec)),
 * the full conditionals of eq. 3 with the hard allocations replaced by the
 * responsibilities r_id = p(d | x_i on the active inputs, y_i, theta)
 * (N_d = sum_i r_id, S_d = sum_i r_id x_ij, V_d = sum_i r_id (x_ij - S_d/N_d)^2).
 * The responsibilities are computed in the smaller model, before the split:
 * in an add from (L, w), in a remove from (L without j, merged w), which is
 * exactly the reverse add's starting point, so the reverse density is
 * available. The prior terms of the new coordinates no longer cancel:
 *   log A_add += sum_d [log p(mu_dj) + log p(prec_dj | beta_j) - log q(mu_dj, prec_dj)],
 * and log A_remove gets the negative of the same at the current coordinates.
 *
 * Exchange (eq. 6), conditional on the allocations z (so it must run while
 * they are fresh: after the Gibbs steps, before any add/remove). Choose
 * j active and j' excluded uniformly (the reverse does the same: cancels).
 * prec_.j' := prec_.j, and beta_j, beta_j' swap values (a deterministic
 * involution, Jacobian 1; the prior ratio of the swap is
 * exp(-(beta_j - beta_j')(h_j' - h_j)), 1 when h is the same for all
 * inputs). The new means are drawn from their full conditional given z and
 * prec (eq. 3), q(mu'_dj') = N(mu'; m_post, 1/p_post); the reverse draws
 * mu_.j from its full conditional given column j. Then
 *   log A = sum_d [log N(x_{z=d, j'}; mu'_d, prec_d) + log N(mu'_d; xi_j', 1/kappa_j')
 *                  - log q(mu'_d)]
 *         - the same for column j at the current mu_.j
 *         + E(gamma') - E(gamma) + log(swap prior ratio).
 * Each bracket equals the evidence of the column given z and prec with the
 * means integrated out, so the ratio does not depend on the drawn means.
 *
 * Moves given the allocations (add_proposal = BSL_MIX_PROPOSE_ALLOC, the
 * default). The moves above sum the allocations out but must also perturb
 * the weights (the split of eq. 4) and guess the new coordinates from soft
 * responsibilities; on real data they are accepted 0.1-0.4 % of the time.
 * These instead are Metropolis-Hastings-Green moves on the joint
 * pi(gamma, theta, z) of the subset, the parameters and the allocations
 * (with the unlabelled classes), whose density is
 *   p(gamma) p(theta | gamma) p(c, z | w, P) prod_{j active} prod_i N(x_ij; mu_{z_i j}, 1/prec_{z_i j})
 *   x exp(E(gamma))                                                          (eqs. 1-3)
 * (the last two factors raised to b when tempered). Adding input j given z
 * changes only the column-j factors: the new coordinates (mu_.j, prec_.j)
 * enter, w, P, z and the other columns stay, so no split of the weights is
 * needed (dimension matching: (theta, z, mu_.j, prec_.j) <-> (theta', z),
 * Jacobian 1). The coordinates are drawn kernel by kernel from
 *   q(prec_qj) = Gamma(a + max(n_q - 1, 0)/2, beta_j + V_q/2),
 *   q(mu_qj | prec_qj) = N((kappa xi + prec S_q)/(kappa + n_q prec), 1/(kappa + n_q prec)),
 * with n_q, S_q, V_q the count, sum and spread about the mean of column j
 * over the rows allocated to kernel q (times b when tempered). q(mu | prec)
 * is the exact full conditional of eq. 3; q(prec) is the normal-gamma
 * (conjugate) posterior that the independent prior of §2.2 is close to
 * (the -1 accounts for the mean's integration). Writing
 *   T_q = b log N(x_{z=q, j}; mu_qj, prec_qj) + log N(mu_qj; xi_j, 1/kappa_j)
 *         + log Gamma(prec_qj; a, beta_j) - log q(prec_qj) - log q(mu_qj | prec_qj),
 * the mean integrates out exactly, T_q = log p(x_{z=q,j} | prec) + log p(prec)
 * - log q(prec), an importance weight of the kernel's marginal likelihood
 * p(x_{z=q,j} | beta_j): the acceptance is that marginal likelihood of the
 * column under the current allocations against its excluded density, near
 * 1 when the data support the input whatever the drawn values. So
 *   log A_add = sum_q T_q + b (E(gamma') - E(gamma)) + log p(gamma') - log p(gamma)
 *             + log(p_remove(I+1) / (I+1)) - log(p_add(I) / (d - I)),
 * the remove of j is its exact reverse, log A_remove = -(the same at the
 * current coordinates of j, from the state without j). The exchange of
 * active j for excluded j' is a remove and an add at once, uniform choices
 * both ways:
 *   log A_exch = W(j', drawn) - W(j, current) + b (E(gamma') - E(gamma)),
 * W the column's weight below (sum_q T_q and beta_j's terms).
 *
 * The hyperparameter beta_j moves with its column. An excluded input's
 * beta_j has only its prior Gamma(g, h_j) (shape 0.2 in the paper: log
 * beta_j has sd 5), and the kernel marginal likelihood carries
 * beta_j^(D a) / prod_q (beta_j + V_q/2)^(a + m_q): keeping the excluded
 * input's prior draw made the weight swing by tens of nats from draw to
 * draw, so that a column the data support was rejected for its beta. So
 * the add draws beta_j too, from q(beta_j), a Student-t (5 df) on log
 * beta_j at the mode of
 *   f(t) = (g + D a) t - h_j e^t - sum_q (a + m_q) log(e^t + V_q/2),
 * t = log beta_j, m_q = max(n_q - 1, 0)/2 (times b when tempered), the log
 * posterior of log beta_j with the precisions integrated under the
 * normal-gamma form of q(prec) (concave in t, so the mode is found by
 * bisection on f'), scale 1 / sqrt(-f''); then the precisions given that
 * beta_j. The remove discards beta_j and draws the excluded input's new
 * beta_j from its prior, which is its whole law there, so that proposal
 * density cancels the prior of the excluded beta_j (dimension matching:
 * (theta, beta_j^old, u) <-> (theta', beta_j^new) with beta_j^old
 * redrawn). The column's weight is then
 *   W = log Gamma(beta_j; g, h_j) - log q(beta_j) + sum_q T_q(beta_j),
 * an importance weight of the column's marginal likelihood under z with
 * mu_.j, prec_.j and beta_j integrated out, and it replaces sum_q T_q in
 * every ratio above (add, remove, exchange, pairs). With the prior's lower
 * end beta_lo_j > 0 (mixture_model.c) Gamma(beta_j; g, h_j) is the truncated
 * prior with its normaliser, q(beta_j) the same t truncated to t >= log
 * beta_lo_j (with its normaliser; centred at log beta_lo_j when f's mode lies
 * below, scale 1 / sqrt(max(-f'', f'^2)) there), and the remove's redraw
 * is from the truncated prior, which still cancels.
 *
 * Coordinates given z, allocations summed out (add_proposal =
 * BSL_MIX_PROPOSE_SUMMED, the default). The same draw of (beta_j, mu_.j,
 * prec_.j) from q(. | z), but the ratio sums the allocations out and the
 * move ends by redrawing them: add j is (gamma, theta, z) ->
 * (gamma', theta', z') with theta_j ~ q(. | z) and z' ~ p(z | theta', gamma')
 * (eq. 3's multinomials, unlabelled classes with them); its reverse from
 * (gamma', theta', z') draws z ~ p(z | theta, gamma) and drops theta_j. With
 * pi the joint, pi(gamma, theta, z) = pi(gamma, theta) p(z | theta, gamma), so
 *   A_add = pi(gamma', theta', z') p(z | theta, gamma)
 *           / [pi(gamma, theta, z) q(theta_j | z) p(z' | theta', gamma')]
 *         = pi(gamma', theta') / [pi(gamma, theta) q(theta_j | z)],
 *   log A_add = [log p(theta_j) - log q(theta_j | z)] + R(theta', gamma') - R(theta, gamma)
 *             + b (E(gamma') - E(gamma)) + log p(gamma') - log p(gamma) + log(proposal choices),
 * R the row likelihood with the allocations summed out (as in the
 * summed-out moves above, but no weight split: w stays). z' does not
 * enter the ratio, so it is drawn only when the move is accepted. The
 * remove evaluates q(theta_j | z) at the z it has just drawn given the
 * smaller model (so it draws z first and keeps it if accepted). The
 * exchange of j for j' draws theta_j' ~ q(. | z), then z' given the new
 * subset, and evaluates q(theta_j | z') for the reverse:
 *   log A_exch = [log p(theta_j') - log q(theta_j' | z)] - [log p(theta_j) - log q(theta_j | z')]
 *              + R(theta', gamma') - R(theta, gamma) + b (E(gamma') - E(gamma)).
 * Compared with the moves given z, a column whose fit needs the rows to
 * move between kernels is judged after they have moved.
 *
 * Informed add / remove (option informed; given z with BSL_MIX_PROPOSE_ALLOC).
 * Rather than a uniformly chosen input, flip input k with probability
 * exp(s_k / 2) / Z(gamma) (a locally balanced proposal, Zanella 2020,
 * JASA 115), where s_k is the log target ratio of the flip given z with the
 * column's weight replaced by its value Wm_k at the proposal's mode (a
 * deterministic function of z and column k):
 *   s_k = +-Wm_k + b (E(gamma +- k) - E(gamma)) + log p(gamma +- k) - log p(gamma),
 * and -inf where the size bounds forbid the flip. The reverse flip of k at
 * gamma' has score -s_k, so with W_k the column's weight at the drawn
 * (add) or current (remove) coordinates,
 *   log A = +-(W_k - Wm_k) + log Z(gamma) - log Z(gamma'),
 * Z(gamma') from the scores at gamma' (z, and so every Wm, unchanged).
 * On Pima W_k - Wm_k had median 0.01 and 5-95 % range [-1.0, 0.17] nats
 * over 2400 adds: the proposal q(. | z) is close to the column's posterior
 * given z, and what is left of the rejections is the target's own odds.
 * With the allocations summed out (BSL_MIX_PROPOSE_SUMMED and informed)
 * the choice is scored at (gamma, z) and its reverse at (gamma', z'), z'
 * the allocations the move draws given the new subset (drawn before the
 * decision, kept if accepted; the remove's q(theta_k | z') too):
 *   log A = +-[log p(theta_k) - log q(theta_k | z or z')] + R(theta', gamma') - R(theta, gamma)
 *         + b (E(gamma') - E(gamma)) + log p(gamma') - log p(gamma)
 *         + [s'_k / 2 - log Z(gamma', z')] - [s_k / 2 - log Z(gamma, z)],
 * valid by the same argument as the summed moves with the choice
 * probabilities in the proposal densities.
 *
 * Informed exchange (option informed_exchange; CLI --exchange informed).
 * A uniformly chosen pair is almost never a swap the target accepts: of the
 * I (d - I) pairs only those of two inputs that carry much the same
 * information are. So choose the pair (j active, j' excluded) with
 * probability exp(s_jj' / 2) / Z_x(gamma, z), locally balanced as above,
 *   s_jj' = Wm_j' - Wm_j + b (E(gamma - j + j') - E(gamma)),
 *   Z_x(gamma, z) = sum_{j in gamma, j' not in gamma} exp(s_jj' / 2),
 * the approximate log target ratio of the swap given z (the subset prior
 * is the same at both ends; Wm the columns' weights at their proposal's
 * mode, as for add / remove; the excluded inputs' evidence exactly, all
 * I (d - I) changes at once by rank-one updates, mixture_excluded.c). The
 * scores are a deterministic function of (gamma, z), so the reverse
 * choice (j' active, j excluded) has probability exp(s'_j'j / 2) / Z_x(gamma', .)
 * from the scores at the new subset. Given z (BSL_MIX_PROPOSE_ALLOC) z
 * does not change and
 *   log A_exch = W(j', drawn) - W(j, current) + b (E(gamma') - E(gamma))
 *              + [s'_j'j / 2 - log Z_x(gamma', z)] - [s_jj' / 2 - log Z_x(gamma, z)];
 * with the allocations summed out (BSL_MIX_PROPOSE_SUMMED) the reverse is
 * scored at (gamma', z'), z' the allocations the exchange draws given the
 * new subset before the decision (kept if accepted):
 *   log A_exch = [log p(theta_j') - log q(theta_j' | z)] - [log p(theta_j) - log q(theta_j | z')]
 *              + R(theta', gamma') - R(theta, gamma) + b (E(gamma') - E(gamma))
 *              + [s'_j'j / 2 - log Z_x(gamma', z')] - [s_jj' / 2 - log Z_x(gamma, z)],
 * the uniform exchange's ratio with the choice probabilities in place of
 * the uniform 1 / (I (d - I)), which cancelled. Dropping the normalisers
 * fails the Geweke test (test_mixture_geweke.c) by |z| = 83 given z and
 * 32 summed out (the row log-likelihood).
 *
 * Pairs. On Pima two inputs (glu, ped) enter and leave together: the
 * subsets with both or neither are probable and those with one are not,
 * so single adds and removes cross a valley. With the moves given z, each
 * birth-death proposal is, with probability pair_prob (option; 0 by
 * default: on Pima 0.02 % of pair adds were accepted), a pair move: add two
 * excluded inputs at once (a uniformly chosen pair, each with its own
 * coordinates drawn as above) or remove two active ones. The columns are
 * independent given z, so
 *   log A_add2 = T(j1) + T(j2) + b (E(gamma') - E(gamma)) + log p(gamma') - log p(gamma)
 *              + log(p_rem2(I+2) / C(I+2, 2)) - log(p_add2(I) / C(d-I, 2)),
 * with p_add2(I) = 1/2 when both pair moves are possible (1 or 0 at the
 * bounds I+2 <= I_max, I-2 >= I_min), and remove2 its exact reverse.
 * The paper's ratio (5) conditions on the allocations too; what differs is
 * the proposal (eq. 5 draws from the prior, whose density cancels but
 * which almost never lands near the data) and the absent split.
 */
#include "mixture.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

/* The t-th (0-based) input with active flag == want. */
static size_t nth_input(const bsl_mix_chain *ch, size_t t, int want)
{
    for (size_t j = 0; j < ch->m->d; j++)
        if ((ch->active[j] != 0) == want && t-- == 0) return j;
    return ch->m->d; /* not reached: callers count first */
}

/* E(gamma') - E(gamma) for gamma' = gamma without input out and with input
 * in (either may be d: none). The flags are restored. */
static double excluded_change(bsl_mix_chain *ch, size_t out, size_t in)
{
    const bsl_mix_model *m = ch->m;
    const double before = bsl_mix_excluded_log_evidence(m, ch->active, ch->xwork, ch->xkept);
    if (out < m->d) ch->active[out] = 0;
    if (in < m->d) ch->active[in] = 1;
    const double after = bsl_mix_excluded_log_evidence(m, ch->active, ch->xwork, ch->xkept);
    if (out < m->d) ch->active[out] = 1;
    if (in < m->d) ch->active[in] = 0;
    return after - before;
}

static void identity_perm(size_t *perm, size_t D)
{
    for (size_t q = 0; q < D; q++) perm[q] = q;
}

/* Eq. 4 and its inverse on every class: w -> wnew. dir = +1 splits (add),
 * -1 merges (remove). Returns the log Jacobian plus the Dirichlet prior
 * ratio, or -inf when the merge leaves the simplex. */
static double split_weights(bsl_mix_chain *ch, const gsl_rng *r, int dir)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D;
    double log_jd = 0;
    memcpy(ch->wnew, ch->w, m->K * D * sizeof *ch->w);
    if (D < 2) return 0;
    for (size_t k = 0; k < m->K; k++) {
        double *wn = ch->wnew + k * D;
        identity_perm(ch->perm, D);
        gsl_ran_shuffle(r, ch->perm, D, sizeof *ch->perm);
        for (size_t p = 0; p < D / 2; p++) {
            const size_t don = ch->perm[p], rec = ch->perm[D - 1 - p];
            const double u = gsl_ran_beta(r, m->split_a, m->split_b + 1);
            if (dir > 0) {
                wn[rec] += u * wn[don];
                wn[don] *= 1 - u;
                log_jd += log1p(-u);
            } else {
                wn[don] /= 1 - u;
                wn[rec] -= u * wn[don];
                if (!(wn[rec] > 0)) return -INFINITY;
                log_jd -= log1p(-u);
            }
        }
    }
    if (m->delta_w != 1)
        for (size_t t = 0; t < m->K * D; t++)
            log_jd += (m->delta_w - 1) * (log(ch->wnew[t]) - log(ch->w[t]));
    return log_jd;
}

/* Lnew = L + sign * log N(x_.j; mu_q, prec_q) for every row and kernel q. */
static void shift_L(bsl_mix_chain *ch, size_t j, const double *mu, const double *prec,
                    double sign)
{
    const size_t n = ch->m->n, D = ch->m->D;
    const double *x = ch->m->X + j * n;
    for (size_t i = 0; i < n; i++)
        for (size_t q = 0; q < D; q++)
            ch->Lnew[i * D + q] = ch->L[i * D + q] + sign * bsl_mix_log_normal(x[i], mu[q], prec[q]);
}

static void accept_L_w(bsl_mix_chain *ch)
{
    double *t = ch->L;
    ch->L = ch->Lnew, ch->Lnew = t;
    t = ch->w;
    ch->w = ch->wnew, ch->wnew = t;
}

/* Responsibilities p(d | row i) into p[0..D), from row log densities L and
 * probabilities w; e is D scratch. */
static void row_resp(const bsl_mix_chain *ch, const double *L, const double *w, size_t i, double *p,
                     double *e)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D;
    double mx = L[i * D], tot = 0;
    for (size_t q = 1; q < D; q++) mx = L[i * D + q] > mx ? L[i * D + q] : mx;
    for (size_t q = 0; q < D; q++) e[q] = exp(L[i * D + q] - mx), p[q] = 0;
    for (size_t k = 0; k < m->K; k++) {
        if (m->cls[i] >= 0 && (size_t)m->cls[i] != k) continue;
        for (size_t q = 0; q < D; q++) p[q] += ch->P[k] * w[k * D + q] * e[q];
    }
    for (size_t q = 0; q < D; q++) tot += p[q];
    for (size_t q = 0; q < D; q++) p[q] = tot > 0 ? p[q] / tot : 1.0 / (double)D;
}

/* Responsibility-weighted count, sum and spread of column j for each kernel
 * (into N, S, V), from L and w of the model without j. Two passes over the
 * rows (the spread is about the weighted means) rather than storing n x D
 * responsibilities. Uses scratch [0, D) and [6D, 7D). */
static void resp_stats(bsl_mix_chain *ch, size_t j, const double *L, const double *w, double *N,
                       double *S, double *V)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D;
    const double *x = m->X + j * m->n;
    double *e = ch->scratch, *p = ch->scratch + 6 * D;
    for (size_t q = 0; q < D; q++) N[q] = S[q] = V[q] = 0;
    for (size_t i = 0; i < m->n; i++) {
        row_resp(ch, L, w, i, p, e);
        for (size_t q = 0; q < D; q++) N[q] += p[q], S[q] += p[q] * x[i];
    }
    for (size_t i = 0; i < m->n; i++) {
        row_resp(ch, L, w, i, p, e);
        for (size_t q = 0; q < D; q++) {
            const double dx = N[q] > 0 ? x[i] - S[q] / N[q] : 0;
            V[q] += p[q] * dx * dx;
        }
    }
}

static double log_gamma_pdf(double x, double shape, double rate)
{
    return shape * log(rate) - lgamma(shape) + (shape - 1) * log(x) - rate * x;
}

/* The new coordinates' proposal: draws (if draw) or evaluates at (mu, prec);
 * returns log prior - log q (0 for prior proposals, whose draw is here too).
 * L and w describe the model without j. Uses scratch [0, D) and [3D, 7D). */
static double coords_proposal(bsl_mix_chain *ch, const gsl_rng *r, size_t j, const double *L,
                              const double *w, int draw, double *mu, double *prec)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D;
    const double kap = m->kappa[j], xi = m->xi[j], beta = ch->beta[j];
    if (m->add_proposal == BSL_MIX_PROPOSE_PRIOR) {
        for (size_t q = 0; draw && q < D; q++) {
            prec[q] = gsl_ran_gamma(r, m->a, 1 / beta);
            mu[q] = xi + gsl_ran_gaussian(r, 1 / sqrt(kap));
        }
        return 0;
    }
    double *N = ch->scratch + 3 * D, *S = N + D, *V = S + D;
    resp_stats(ch, j, L, w, N, S, V);
    double log_ratio = 0;
    for (size_t q = 0; q < D; q++) {
        const double shape = m->a + 0.5 * N[q], rate = beta + 0.5 * V[q];
        if (draw) prec[q] = gsl_ran_gamma(r, shape, 1 / rate);
        const double pp = kap + N[q] * prec[q], mpost = (kap * xi + prec[q] * S[q]) / pp;
        if (draw) mu[q] = mpost + gsl_ran_gaussian(r, 1 / sqrt(pp));
        log_ratio += bsl_mix_log_normal(mu[q], xi, kap) + log_gamma_pdf(prec[q], m->a, beta) -
                     bsl_mix_log_normal(mu[q], mpost, pp) - log_gamma_pdf(prec[q], shape, rate);
    }
    return log_ratio;
}

static void propose_add(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, I0 = ch->I;
    double *nmu = ch->scratch + D, *nprec = nmu + D; /* scratch[0..D) is rows_loglik's */
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, d - I0), 0);
    const double log_coord = coords_proposal(ch, r, j, ch->L, ch->w, 1, nmu, nprec);
    const double log_jd = split_weights(ch, r, +1);
    shift_L(ch, j, nmu, nprec, +1);
    const double log_lik = bsl_mix_rows_loglik(ch, ch->Lnew, ch->wnew) -
                           bsl_mix_rows_loglik(ch, ch->L, ch->w) + ch->b * excluded_change(ch, d, j);
    const double log_prior = bsl_mix_log_subset_prior(m, I0 + 1) - bsl_mix_log_subset_prior(m, I0);
    const double log_prop = log(bsl_mix_p_remove(m, I0 + 1) / (double)(I0 + 1)) -
                            log(bsl_mix_p_add(m, I0) / (double)(d - I0));
    const double log_A = log_lik + log_prior + log_prop + log_jd + log_coord;
    ch->prop[BSL_MIX_ADD] += ch->b == 1; /* counted at temperature 1 */
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
    ch->acc[BSL_MIX_ADD] += ch->b == 1;
    memcpy(ch->mu + j * D, nmu, D * sizeof *nmu);
    memcpy(ch->prec + j * D, nprec, D * sizeof *nprec);
    ch->active[j] = 1;
    ch->I = I0 + 1;
    accept_L_w(ch);
}

static void propose_remove(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, I0 = ch->I;
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, I0), 1);
    ch->prop[BSL_MIX_REMOVE] += ch->b == 1; /* counted at temperature 1 */
    const double log_jd = split_weights(ch, r, -1);
    if (log_jd == -INFINITY) return;
    shift_L(ch, j, ch->mu + j * D, ch->prec + j * D, -1);
    const double log_coord =
        coords_proposal(ch, r, j, ch->Lnew, ch->wnew, 0, ch->mu + j * D, ch->prec + j * D);
    const double log_lik = bsl_mix_rows_loglik(ch, ch->Lnew, ch->wnew) -
                           bsl_mix_rows_loglik(ch, ch->L, ch->w) + ch->b * excluded_change(ch, j, d);
    const double log_prior = bsl_mix_log_subset_prior(m, I0 - 1) - bsl_mix_log_subset_prior(m, I0);
    const double log_prop = log(bsl_mix_p_add(m, I0 - 1) / (double)(d - I0 + 1)) -
                            log(bsl_mix_p_remove(m, I0) / (double)I0);
    const double log_A = log_lik + log_prior + log_prop + log_jd - log_coord;
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
    ch->acc[BSL_MIX_REMOVE] += ch->b == 1;
    ch->active[j] = 0;
    ch->I = I0 - 1;
    accept_L_w(ch);
}

static void alloc_add(bsl_mix_chain *ch, const gsl_rng *r);
static void alloc_remove(bsl_mix_chain *ch, const gsl_rng *r);
static int alloc_pair(bsl_mix_chain *ch, const gsl_rng *r);
static void summed_add(bsl_mix_chain *ch, const gsl_rng *r);
static void summed_remove(bsl_mix_chain *ch, const gsl_rng *r);
static void summed_exchange(bsl_mix_chain *ch, const gsl_rng *r);
/* The input to flip, drawn with probability exp(sc[k] / 2 - log Z)
 * (flip_scores); rounding that leaves u past the sum takes the last
 * allowed flip. */
static size_t pick_flip(const double *sc, size_t d, double logZ, const gsl_rng *r)
{
    const double u = gsl_rng_uniform(r);
    double cum = 0;
    for (size_t t = 0; t < d; t++) {
        cum += exp(0.5 * sc[t] - logZ);
        if (u < cum) return t;
    }
    for (size_t t = d; t-- > 0;)
        if (sc[t] > -INFINITY) return t;
    return d - 1; /* not reached: flip_scores found an allowed flip */
}

static void informed_birth_death(bsl_mix_chain *ch, const gsl_rng *r);
static void summed_informed_birth_death(bsl_mix_chain *ch, const gsl_rng *r);

void bsl_mix_birth_death(bsl_mix_chain *ch, const gsl_rng *r)
{
    const int given_z = ch->m->add_proposal == BSL_MIX_PROPOSE_ALLOC;
    /* the pair branch is taken with the same probability at every size (and
     * does nothing where no pair move exists), so single moves keep the
     * proposal probabilities of their ratios */
    if (given_z && ch->m->pair_prob > 0 && gsl_rng_uniform(r) < ch->m->pair_prob) {
        alloc_pair(ch, r);
        return;
    }
    const double pa = bsl_mix_p_add(ch->m, ch->I), pr = bsl_mix_p_remove(ch->m, ch->I);
    if (pa + pr <= 0) return;
    if (ch->m->informed && ch->m->add_proposal == BSL_MIX_PROPOSE_ALLOC) {
        informed_birth_death(ch, r);
        return;
    }
    if (ch->m->informed && ch->m->add_proposal == BSL_MIX_PROPOSE_SUMMED) {
        summed_informed_birth_death(ch, r);
        return;
    }
    if (ch->m->add_proposal == BSL_MIX_PROPOSE_SUMMED) {
        gsl_rng_uniform(r) < pa ? summed_add(ch, r) : summed_remove(ch, r);
        return;
    }
    if (gsl_rng_uniform(r) < pa)
        given_z ? alloc_add(ch, r) : propose_add(ch, r);
    else
        given_z ? alloc_remove(ch, r) : propose_remove(ch, r);
}

/* Per-kernel count, sum and sum of squares of column j over the allocations. */
static void suff_stats(const bsl_mix_chain *ch, size_t j, double *cnt, double *S, double *Q)
{
    const size_t n = ch->m->n, D = ch->m->D;
    const double *x = ch->m->X + j * n;
    for (size_t q = 0; q < D; q++) cnt[q] = S[q] = Q[q] = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t q = (size_t)ch->z[i];
        cnt[q] += 1, S[q] += x[i], Q[q] += x[i] * x[i];
    }
}

/* The full conditional N(m_post, 1/p_post) of a kernel mean given the rows
 * S (count cnt, sum s) at precision prec, prior N(xi, 1/kappa), under the
 * likelihood raised to b (eq. 3; b = 1 untempered). Returns p_post. */
static double mean_conditional(double cnt, double s, double prec, double xi, double kappa, double b,
                               double *m_post)
{
    const double p_post = kappa + b * cnt * prec;
    *m_post = (kappa * xi + b * prec * s) / p_post;
    return p_post;
}

static double mean_lik_term(double cnt, double s, double qq, double mu, double prec, double xi,
                            double kappa, double b, int lik);

/* b log N(x_S; mu, 1/prec) + log N(mu; xi, 1/kappa) - log q(mu), q the
 * full conditional of mu given the rows S (count cnt, sum s, sum of
 * squares qq) under the likelihood raised to b. */
static double mean_term(double cnt, double s, double qq, double mu, double prec, double xi,
                        double kappa, double b)
{
    return mean_lik_term(cnt, s, qq, mu, prec, xi, kappa, b, 1);
}

/* The same without the likelihood term when lik = 0: log N(mu; xi, 1/kappa) - log q(mu). */
static double mean_lik_term(double cnt, double s, double qq, double mu, double prec, double xi,
                            double kappa, double b, int lik)
{
    double m_post;
    const double p_post = mean_conditional(cnt, s, prec, xi, kappa, b, &m_post);
    const double log_lik =
        0.5 * cnt * (log(prec) - BSL_MIX_LOG_2PI) - 0.5 * prec * (qq - 2 * mu * s + cnt * mu * mu);
    return (lik ? b * log_lik : 0) + bsl_mix_log_normal(mu, xi, kappa) - bsl_mix_log_normal(mu, m_post, p_post);
}

static void alloc_exchange(bsl_mix_chain *ch, const gsl_rng *r);
static void summed_exchange(bsl_mix_chain *ch, const gsl_rng *r);
static void informed_exchange(bsl_mix_chain *ch, const gsl_rng *r);

void bsl_mix_exchange(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d;
    if (ch->I == 0 || ch->I == d) return;
    if (m->informed_exchange &&
        (m->add_proposal == BSL_MIX_PROPOSE_ALLOC || m->add_proposal == BSL_MIX_PROPOSE_SUMMED)) {
        informed_exchange(ch, r);
        return;
    }
    if (m->add_proposal == BSL_MIX_PROPOSE_ALLOC) {
        alloc_exchange(ch, r);
        return;
    }
    if (m->add_proposal == BSL_MIX_PROPOSE_SUMMED) {
        summed_exchange(ch, r);
        return;
    }
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, ch->I), 1);
    const size_t jn = nth_input(ch, gsl_rng_uniform_int(r, d - ch->I), 0);
    double *cnt = ch->scratch, *S = cnt + D, *Q = S + D, *Sn = Q + D, *Qn = Sn + D, *mun = Qn + D;
    suff_stats(ch, j, cnt, S, Q);
    suff_stats(ch, jn, cnt, Sn, Qn);
    /* beta_j and beta_jn swap: the ratio of their priors (each input's own,
     * truncated at its own lower end, mixture_model.c); 0 when a value falls
     * below the other input's end. */
    double log_A = ch->b * excluded_change(ch, j, jn) + bsl_mix_beta_log_prior(m, jn, ch->beta[j]) +
                   bsl_mix_beta_log_prior(m, j, ch->beta[jn]) - bsl_mix_beta_log_prior(m, j, ch->beta[j]) -
                   bsl_mix_beta_log_prior(m, jn, ch->beta[jn]);
    for (size_t q = 0; q < D; q++) {
        const double prec = ch->prec[j * D + q], b = ch->b;
        double m_post;
        const double p_post = mean_conditional(cnt[q], Sn[q], prec, m->xi[jn], m->kappa[jn], b, &m_post);
        mun[q] = m_post + gsl_ran_gaussian(r, 1 / sqrt(p_post));
        log_A += mean_term(cnt[q], Sn[q], Qn[q], mun[q], prec, m->xi[jn], m->kappa[jn], b);
        log_A -= mean_term(cnt[q], S[q], Q[q], ch->mu[j * D + q], prec, m->xi[j], m->kappa[j], b);
    }
    ch->prop[BSL_MIX_EXCHANGE] += ch->b == 1; /* counted at temperature 1 */
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
    ch->acc[BSL_MIX_EXCHANGE] += ch->b == 1;
    memcpy(ch->mu + jn * D, mun, D * sizeof *mun);
    memcpy(ch->prec + jn * D, ch->prec + j * D, D * sizeof *ch->prec);
    const double beta_j = ch->beta[j];
    ch->beta[j] = ch->beta[jn], ch->beta[jn] = beta_j;
    shift_L(ch, j, ch->mu + j * D, ch->prec + j * D, -1);
    double *t = ch->L;
    ch->L = ch->Lnew, ch->Lnew = t;
    shift_L(ch, jn, ch->mu + jn * D, ch->prec + jn * D, +1);
    t = ch->L;
    ch->L = ch->Lnew, ch->Lnew = t;
    ch->active[j] = 0, ch->active[jn] = 1;
}

/* ------------------------------------------- moves given the allocations */

/* beta_j's proposal for a column entering given z (top of the file, "The
 * hyperparameter beta_j"): a Student-t on t = log beta_j at the mode of
 *   f(t) = (g + D a) t - h_j e^t - sum_q (a + m_q) log(e^t + V_q / 2),
 * with scale 1 / sqrt(-f''(mode)). shp[q] = a + m_q and V[q] describe the
 * kernels (m_q = max(n_q - 1, 0) / 2). */
enum { BETA_ITER = 200 };
static const double BETA_T_DF = 5;    /* heavier tails than the Laplace fit */
static const double BETA_T_SPAN = 60; /* the mode is searched within log(g/h) +- this */

/* f'(t) into the return value and f''(t) into *f2. */
static double beta_slope(double t, double g_da, double h, const double *shp, const double *V, size_t D,
                         double *f2)
{
    const double e = exp(t);
    double f1 = g_da - h * e, c2 = -h * e;
    for (size_t q = 0; q < D; q++) {
        const double c = e + 0.5 * V[q];
        f1 -= shp[q] * e / c;
        c2 -= shp[q] * e * 0.5 * V[q] / (c * c);
    }
    *f2 = c2;
    return f1;
}

/* Mode and scale of the proposal on t = log beta. f is concave (h e^t and
 * each log(e^t + c) are convex in t), so f' decreases: bisection on its
 * sign, which cannot fail, then the curvature there. */
static void beta_fit(const bsl_mix_model *m, size_t j, const double *shp, const double *V, double *loc,
                     double *scale)
{
    const size_t D = m->D;
    const double g_da = m->g + (double)D * m->a, h = m->h[j], t0 = log(m->g / h);
    double lo = t0 - BETA_T_SPAN, hi = t0 + BETA_T_SPAN, f2;
    for (int it = 0; it < BETA_ITER && hi - lo > 1e-9; it++) {
        const double mid = 0.5 * (lo + hi);
        if (beta_slope(mid, g_da, h, shp, V, D, &f2) > 0) lo = mid;
        else hi = mid;
    }
    *loc = 0.5 * (lo + hi);
    beta_slope(*loc, g_da, h, shp, V, D, &f2);
    *scale = 1 / sqrt(fmax(-f2, 1e-12));
    if (m->beta_lo[j] > 0 && *loc < log(m->beta_lo[j])) {
        /* the mode is below the prior's lower end (tied values: f rises
         * without bound as t -> -inf); the target on t >= log beta_lo
         * decays from there at about the slope f'(log beta_lo) */
        *loc = log(m->beta_lo[j]);
        const double s1 = beta_slope(*loc, g_da, h, shp, V, D, &f2);
        *scale = 1 / sqrt(fmax(fmax(-f2, s1 * s1), 1e-12));
    }
}

/* What the column functions do with the coordinates: evaluate at the given
 * ones, draw them from the proposal first, or set them to its mode (the
 * deterministic score of the informed moves; shape <= 1: the mean). */
enum { COORD_EVAL = 0, COORD_DRAW = 1, COORD_MODE = 2 };

/* Draws beta, sets it to the mode, or evaluates at *beta (draw); returns
 * log q(beta), the density of beta itself (the t density of log beta minus
 * log beta). */
static double beta_proposal(const bsl_mix_model *m, const gsl_rng *r, size_t j, const double *shp,
                            const double *V, int draw, double *beta)
{
    double loc, scale;
    beta_fit(m, j, shp, V, &loc, &scale);
    if (m->beta_lo[j] > 0) {
        /* beta_j's prior stops at beta_lo (mixture_model.c): the t truncated
         * to t >= log beta_lo (loc >= log beta_lo, so the kept mass is >= 1/2),
         * drawn by its inverse CDF */
        const double z_lo = (log(m->beta_lo[j]) - loc) / scale, p_lo = gsl_cdf_tdist_P(z_lo, BETA_T_DF);
        if (draw == COORD_DRAW) {
            const double u = p_lo + (1 - p_lo) * gsl_rng_uniform_pos(r);
            *beta = fmax(exp(loc + scale * gsl_cdf_tdist_Pinv(u, BETA_T_DF)), m->beta_lo[j]);
        }
        if (draw == COORD_MODE) *beta = fmax(exp(loc), m->beta_lo[j]);
        const double t = log(*beta); /* >= log beta_lo: moves evaluate at a state of the chain */
        return log(gsl_ran_tdist_pdf((t - loc) / scale, BETA_T_DF) / scale) - log(gsl_cdf_tdist_Q(z_lo, BETA_T_DF)) - t;
    }
    if (draw == COORD_DRAW) *beta = exp(loc + scale * gsl_ran_tdist(r, BETA_T_DF));
    if (draw == COORD_MODE) *beta = exp(loc);
    const double t = log(*beta);
    return log(gsl_ran_tdist_pdf((t - loc) / scale, BETA_T_DF) / scale) - t;
}

/* The log weight of column j entering given z (top of the file): draws
 * beta_j, then the coordinates, into *beta, mu, prec first if draw, else
 * evaluates at them:
 *   log Gamma(beta; g, h_j) - log q(beta) + sum_q T_q(beta).
 * Uses scratch [0, 5D). */
static double column_weight_lik(bsl_mix_chain *ch, const gsl_rng *r, size_t j, int draw, double *beta,
                                double *mu, double *prec, int lik)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D;
    const double b = ch->b, kap = m->kappa[j], xi = m->xi[j];
    double *cnt = ch->scratch, *S = cnt + D, *Q = S + D, *shp = Q + D, *V = shp + D;
    suff_stats(ch, j, cnt, S, Q);
    for (size_t q = 0; q < D; q++) {
        const double nb = b * cnt[q], sb = b * S[q], qb = b * Q[q];
        V[q] = nb > 0 ? fmax(qb - sb * sb / nb, 0) : 0;
        shp[q] = m->a + 0.5 * fmax(nb - 1, 0);
    }
    double log_w = -beta_proposal(m, r, j, shp, V, draw, beta);
    log_w += bsl_mix_beta_log_prior(m, j, *beta);
    for (size_t q = 0; q < D; q++) {
        const double rate = *beta + 0.5 * V[q];
        if (draw == COORD_DRAW) prec[q] = gsl_ran_gamma(r, shp[q], 1 / rate);
        if (draw == COORD_MODE) prec[q] = (shp[q] > 1 ? shp[q] - 1 : shp[q]) / rate;
        double m_post;
        const double p_post = mean_conditional(cnt[q], S[q], prec[q], xi, kap, b, &m_post);
        if (draw == COORD_DRAW) mu[q] = m_post + gsl_ran_gaussian(r, 1 / sqrt(p_post));
        if (draw == COORD_MODE) mu[q] = m_post;
        log_w += mean_lik_term(cnt[q], S[q], Q[q], mu[q], prec[q], xi, kap, b, lik) +
                 log_gamma_pdf(prec[q], m->a, *beta) - log_gamma_pdf(prec[q], shp[q], rate);
    }
    return log_w;
}

static double column_weight(bsl_mix_chain *ch, const gsl_rng *r, size_t j, int draw, double *beta,
                            double *mu, double *prec)
{
    return column_weight_lik(ch, r, j, draw, beta, mu, prec, 1);
}

/* log p(beta_j, mu_.j, prec_.j) - log q(beta_j, mu_.j, prec_.j | z): the
 * column's prior over its proposal given the current z, drawn first if
 * draw (the moves with the allocations summed out, below). */
static double column_proposal(bsl_mix_chain *ch, const gsl_rng *r, size_t j, int draw, double *beta,
                              double *mu, double *prec)
{
    return column_weight_lik(ch, r, j, draw, beta, mu, prec, 0);
}

/* An input that left: its beta_j is redrawn from its prior (Gamma(g, h_j) on [beta_lo_j, inf)),
 * the reverse of the add's beta proposal (top of the file). */
static void drop_beta(bsl_mix_chain *ch, const gsl_rng *r, size_t j)
{
    ch->beta[j] = bsl_mix_draw_beta(ch->m, r, j, ch->m->g, ch->m->h[j]);
}

/* Bring L up to date after column j left (sign -1) or entered (+1). */
static void update_L(bsl_mix_chain *ch, size_t j, double sign)
{
    const size_t D = ch->m->D;
    shift_L(ch, j, ch->mu + j * D, ch->prec + j * D, sign);
    double *t = ch->L;
    ch->L = ch->Lnew, ch->Lnew = t;
}

/* An accepted add of input j with its drawn parameters (beta, mu, prec),
 * and an accepted removal, whose beta is redrawn from its prior. */
static void accept_add(bsl_mix_chain *ch, size_t j, double beta, const double *mu, const double *prec)
{
    const size_t D = ch->m->D;
    memcpy(ch->mu + j * D, mu, D * sizeof *mu);
    memcpy(ch->prec + j * D, prec, D * sizeof *prec);
    ch->beta[j] = beta;
    ch->active[j] = 1;
    ch->I++;
    update_L(ch, j, +1);
}

static void accept_remove(bsl_mix_chain *ch, const gsl_rng *r, size_t j)
{
    update_L(ch, j, -1);
    ch->active[j] = 0;
    ch->I--;
    drop_beta(ch, r, j);
}

static void alloc_add(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, I0 = ch->I;
    double *nmu = ch->scratch + 5 * D, *nprec = nmu + D, nbeta;
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, d - I0), 0);
    const double log_w = column_weight(ch, r, j, 1, &nbeta, nmu, nprec);
    const double log_prior = bsl_mix_log_subset_prior(m, I0 + 1) - bsl_mix_log_subset_prior(m, I0);
    const double log_prop = log(bsl_mix_p_remove(m, I0 + 1) / (double)(I0 + 1)) -
                            log(bsl_mix_p_add(m, I0) / (double)(d - I0));
    const double log_A = log_w + ch->b * excluded_change(ch, d, j) + log_prior + log_prop;
    ch->prop[BSL_MIX_ADD] += ch->b == 1; /* counted at temperature 1 */
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
    ch->acc[BSL_MIX_ADD] += ch->b == 1;
    accept_add(ch, j, nbeta, nmu, nprec);
}

static void alloc_remove(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, I0 = ch->I;
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, I0), 1);
    const double log_w = column_weight(ch, r, j, 0, ch->beta + j, ch->mu + j * D, ch->prec + j * D);
    const double log_prior = bsl_mix_log_subset_prior(m, I0 - 1) - bsl_mix_log_subset_prior(m, I0);
    const double log_prop = log(bsl_mix_p_add(m, I0 - 1) / (double)(d - I0 + 1)) -
                            log(bsl_mix_p_remove(m, I0) / (double)I0);
    const double log_A = -log_w + ch->b * excluded_change(ch, j, d) + log_prior + log_prop;
    ch->prop[BSL_MIX_REMOVE] += ch->b == 1; /* counted at temperature 1 */
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
    ch->acc[BSL_MIX_REMOVE] += ch->b == 1;
    accept_remove(ch, r, j);
}

static void alloc_exchange(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d;
    double *nmu = ch->scratch + 5 * D, *nprec = nmu + D, nbeta;
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, ch->I), 1);
    const size_t jn = nth_input(ch, gsl_rng_uniform_int(r, d - ch->I), 0);
    const double log_out = column_weight(ch, r, j, 0, ch->beta + j, ch->mu + j * D, ch->prec + j * D);
    const double log_in = column_weight(ch, r, jn, 1, &nbeta, nmu, nprec);
    const double log_A = log_in - log_out + ch->b * excluded_change(ch, j, jn);
    ch->prop[BSL_MIX_EXCHANGE] += ch->b == 1; /* counted at temperature 1 */
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
    ch->acc[BSL_MIX_EXCHANGE] += ch->b == 1;
    update_L(ch, j, -1);
    memcpy(ch->mu + jn * D, nmu, D * sizeof *nmu);
    memcpy(ch->prec + jn * D, nprec, D * sizeof *nprec);
    ch->beta[jn] = nbeta;
    update_L(ch, jn, +1);
    ch->active[j] = 0, ch->active[jn] = 1;
    drop_beta(ch, r, j);
}

/* Probability that a pair move at size I adds (the rest removes); -1 if
 * neither is possible. */
static double p_add2(const bsl_mix_model *m, size_t I)
{
    const int add = I + 2 <= m->imax, rem = I >= m->imin + 2;
    return add && rem ? 0.5 : add ? 1 : rem ? 0 : -1;
}

static double log_choose2(size_t k) { return log(0.5 * (double)k * (double)(k - 1)); }

/* The pair move (top of the file). Returns 0 (nothing done) when no pair
 * move is possible at this size. An earlier version fell back to a single
 * move there, which made the single moves' proposal probability depend on
 * the size: the Geweke test failed it by |z| = 11 on the number of inputs. */
static int alloc_pair(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, I0 = ch->I;
    const double pa = p_add2(m, I0);
    if (pa < 0) return 0;
    const int add = gsl_rng_uniform(r) < pa;
    const size_t pool = add ? d - I0 : I0;
    const size_t u1 = gsl_rng_uniform_int(r, pool), u2 = (u1 + 1 + gsl_rng_uniform_int(r, pool - 1)) % pool;
    const size_t j1 = nth_input(ch, u1, !add), j2 = nth_input(ch, u2, !add);
    /* [5D, 9D) lies within the scratch's 2KD + 7D for K >= 2 */
    double *mu1 = ch->scratch + 5 * D, *pr1 = mu1 + D, *mu2 = pr1 + D, *pr2 = mu2 + D, be1, be2;
    double log_A;
    if (add) {
        log_A = column_weight(ch, r, j1, 1, &be1, mu1, pr1) + column_weight(ch, r, j2, 1, &be2, mu2, pr2);
        ch->active[j1] = 1; /* excluded_change handles one input each way: */
        log_A += ch->b * excluded_change(ch, d, j2);
        ch->active[j1] = 0;
        log_A += ch->b * excluded_change(ch, d, j1);
        log_A += bsl_mix_log_subset_prior(m, I0 + 2) - bsl_mix_log_subset_prior(m, I0) +
                 log(1 - p_add2(m, I0 + 2)) - log_choose2(I0 + 2) - log(pa) + log_choose2(d - I0);
    } else {
        log_A = -column_weight(ch, r, j1, 0, ch->beta + j1, ch->mu + j1 * D, ch->prec + j1 * D) -
                column_weight(ch, r, j2, 0, ch->beta + j2, ch->mu + j2 * D, ch->prec + j2 * D);
        log_A += ch->b * excluded_change(ch, j1, d);
        ch->active[j1] = 0;
        log_A += ch->b * excluded_change(ch, j2, d);
        ch->active[j1] = 1;
        log_A += bsl_mix_log_subset_prior(m, I0 - 2) - bsl_mix_log_subset_prior(m, I0) +
                 log(p_add2(m, I0 - 2)) - log_choose2(d - I0 + 2) - log(1 - pa) + log_choose2(I0);
    }
    const int v = add ? BSL_MIX_ADD2 : BSL_MIX_REMOVE2;
    ch->prop[v] += ch->b == 1; /* counted at temperature 1 */
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return 1;
    ch->acc[v] += ch->b == 1;
    if (add) {
        memcpy(ch->mu + j1 * D, mu1, D * sizeof *mu1), memcpy(ch->prec + j1 * D, pr1, D * sizeof *pr1);
        memcpy(ch->mu + j2 * D, mu2, D * sizeof *mu2), memcpy(ch->prec + j2 * D, pr2, D * sizeof *pr2);
        ch->beta[j1] = be1, ch->beta[j2] = be2;
        update_L(ch, j1, +1), update_L(ch, j2, +1);
        ch->active[j1] = ch->active[j2] = 1, ch->I = I0 + 2;
    } else {
        update_L(ch, j1, -1), update_L(ch, j2, -1);
        ch->active[j1] = ch->active[j2] = 0, ch->I = I0 - 2;
        drop_beta(ch, r, j1), drop_beta(ch, r, j2);
    }
    return 1;
}

/* ------------------- coordinates given z, allocations summed out (mode 3) */

/* Save z and c into zsave; restore them. */
static void save_z(bsl_mix_chain *ch)
{
    const size_t n = ch->m->n;
    memcpy(ch->zsave, ch->z, n * sizeof *ch->z);
    memcpy(ch->zsave + n, ch->c, n * sizeof *ch->c);
}

static void restore_z(bsl_mix_chain *ch)
{
    const size_t n = ch->m->n;
    memcpy(ch->z, ch->zsave, n * sizeof *ch->z);
    memcpy(ch->c, ch->zsave + n, n * sizeof *ch->c);
}

static void summed_add(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, I0 = ch->I;
    double *nmu = ch->scratch + 5 * D, *nprec = nmu + D, nbeta;
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, d - I0), 0);
    const double log_q = column_proposal(ch, r, j, 1, &nbeta, nmu, nprec);
    shift_L(ch, j, nmu, nprec, +1);
    const double log_lik = bsl_mix_rows_loglik(ch, ch->Lnew, ch->w) - bsl_mix_rows_loglik(ch, ch->L, ch->w) +
                           ch->b * excluded_change(ch, d, j);
    const double log_prior = bsl_mix_log_subset_prior(m, I0 + 1) - bsl_mix_log_subset_prior(m, I0);
    const double log_prop = log(bsl_mix_p_remove(m, I0 + 1) / (double)(I0 + 1)) -
                            log(bsl_mix_p_add(m, I0) / (double)(d - I0));
    const double log_A = log_q + log_lik + log_prior + log_prop;
    ch->prop[BSL_MIX_ADD] += ch->b == 1; /* counted at temperature 1 */
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
    ch->acc[BSL_MIX_ADD] += ch->b == 1;
    memcpy(ch->mu + j * D, nmu, D * sizeof *nmu);
    memcpy(ch->prec + j * D, nprec, D * sizeof *nprec);
    ch->beta[j] = nbeta;
    ch->active[j] = 1;
    ch->I = I0 + 1;
    double *t = ch->L;
    ch->L = ch->Lnew, ch->Lnew = t;
    bsl_mix_draw_allocations(ch, r); /* z' ~ p(z | theta', gamma'): the rest of the proposal */
}

static void summed_remove(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, I0 = ch->I;
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, I0), 1);
    ch->prop[BSL_MIX_REMOVE] += ch->b == 1; /* counted at temperature 1 */
    const double log_old = bsl_mix_rows_loglik(ch, ch->L, ch->w);
    update_L(ch, j, -1); /* L without j; Lnew keeps the old L */
    save_z(ch);
    bsl_mix_draw_allocations(ch, r); /* z ~ p(z | theta without j): the reverse add's z */
    const double log_q = column_proposal(ch, r, j, 0, ch->beta + j, ch->mu + j * D, ch->prec + j * D);
    const double log_lik = bsl_mix_rows_loglik(ch, ch->L, ch->w) - log_old + ch->b * excluded_change(ch, j, d);
    const double log_prior = bsl_mix_log_subset_prior(m, I0 - 1) - bsl_mix_log_subset_prior(m, I0);
    const double log_prop = log(bsl_mix_p_add(m, I0 - 1) / (double)(d - I0 + 1)) -
                            log(bsl_mix_p_remove(m, I0) / (double)I0);
    const double log_A = -log_q + log_lik + log_prior + log_prop;
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) {
        double *t = ch->L;
        ch->L = ch->Lnew, ch->Lnew = t;
        restore_z(ch);
        return;
    }
    ch->acc[BSL_MIX_REMOVE] += ch->b == 1;
    ch->active[j] = 0;
    ch->I = I0 - 1;
    drop_beta(ch, r, j);
}

/* The exchange of j for jn with the allocations summed out (both the
 * uniform and the informed choice): the row likelihood of the swapped
 * subset into ch->L (the old one saved in Lsave, the old z saved), then
 * z' ~ p(z | theta', gamma'). Leaves the new subset active. */
static void swap_redraw_z(bsl_mix_chain *ch, const gsl_rng *r, size_t j, size_t jn, const double *nmu,
                          const double *nprec)
{
    const size_t nD = ch->m->n * ch->m->D;
    memcpy(ch->Lsave, ch->L, nD * sizeof *ch->L);
    update_L(ch, j, -1);
    shift_L(ch, jn, nmu, nprec, +1);
    double *t = ch->L;
    ch->L = ch->Lnew, ch->Lnew = t;
    save_z(ch);
    ch->active[j] = 0, ch->active[jn] = 1;
    bsl_mix_draw_allocations(ch, r);
}

/* A rejected swap_redraw_z: the saved row likelihood and allocations back. */
static void swap_undo(bsl_mix_chain *ch)
{
    memcpy(ch->L, ch->Lsave, ch->m->n * ch->m->D * sizeof *ch->L);
    restore_z(ch);
}

/* An accepted exchange: jn's drawn coordinates kept, jn in and j out (the
 * caller then updates L if it has not, and redraws j's beta). */
static void swap_keep(bsl_mix_chain *ch, size_t j, size_t jn, double nbeta, const double *nmu, const double *nprec)
{
    const size_t D = ch->m->D;
    ch->acc[BSL_MIX_EXCHANGE] += ch->b == 1;
    memcpy(ch->mu + jn * D, nmu, D * sizeof *nmu);
    memcpy(ch->prec + jn * D, nprec, D * sizeof *nprec);
    ch->beta[jn] = nbeta;
    ch->active[j] = 0, ch->active[jn] = 1;
}

static void summed_exchange(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d;
    double *nmu = ch->ncoord, *nprec = nmu + D, nbeta; /* not scratch: draw_allocations uses it */
    const size_t j = nth_input(ch, gsl_rng_uniform_int(r, ch->I), 1);
    const size_t jn = nth_input(ch, gsl_rng_uniform_int(r, d - ch->I), 0);
    ch->prop[BSL_MIX_EXCHANGE] += ch->b == 1; /* counted at temperature 1 */
    const double log_in = column_proposal(ch, r, jn, COORD_DRAW, &nbeta, nmu, nprec); /* given the current z */
    const double log_old = bsl_mix_rows_loglik(ch, ch->L, ch->w);
    swap_redraw_z(ch, r, j, jn, nmu, nprec);
    ch->active[j] = 1, ch->active[jn] = 0;
    const double log_out = column_proposal(ch, r, j, COORD_EVAL, ch->beta + j, ch->mu + j * D, ch->prec + j * D);
    const double log_A = log_in - log_out + bsl_mix_rows_loglik(ch, ch->L, ch->w) - log_old +
                         ch->b * excluded_change(ch, j, jn);
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) {
        swap_undo(ch);
        return;
    }
    swap_keep(ch, j, jn, nbeta, nmu, nprec);
    drop_beta(ch, r, j);
}

/* ------------------------- informed add / remove given z (mode 4) */

/* Wm[k] = the column weight of input k at its proposal's mode, for all d
 * inputs (a function of z, b and column k only): computed unless the
 * informed exchange left them at the current z (ch->wm_fresh, for
 * Wm = iscore). Uses scratch [0, 5D) and [7D, 9D). */
static void column_modes(bsl_mix_chain *ch, double *Wm)
{
    const size_t D = ch->m->D;
    if (Wm == ch->iscore && ch->wm_fresh) return;
    double *mu = ch->scratch + 7 * D, *prec = mu + D, beta;
    for (size_t k = 0; k < ch->m->d; k++) Wm[k] = column_weight(ch, NULL, k, COORD_MODE, &beta, mu, prec);
}

/* The flip scores at the current subset: sc[k] = the approximate log
 * target ratio of flipping input k given z (Wm for the column, the
 * excluded inputs' evidence and the subset prior exactly), -inf where the
 * size bounds forbid the flip. Returns log Z = log sum_k exp(sc[k] / 2). */
static double flip_scores(bsl_mix_chain *ch, const double *Wm, double *sc)
{
    const bsl_mix_model *m = ch->m;
    const size_t I = ch->I;
    bsl_mix_excluded_flip_changes(m, ch->active, ch->xswap, ch->xiwork, sc); /* E(gamma +- k) - E(gamma) */
    /* only sizes within the bounds (lnchoose refuses I > d) */
    const double up = I < m->imax ? bsl_mix_log_subset_prior(m, I + 1) - bsl_mix_log_subset_prior(m, I) : 0;
    const double down = I > m->imin ? bsl_mix_log_subset_prior(m, I - 1) - bsl_mix_log_subset_prior(m, I) : 0;
    double mx = -INFINITY;
    for (size_t k = 0; k < m->d; k++) {
        const int add = !ch->active[k];
        if (add ? I + 1 > m->imax : I < m->imin + 1) {
            sc[k] = -INFINITY;
            continue;
        }
        sc[k] = (add ? Wm[k] + up : -Wm[k] + down) + ch->b * sc[k];
        if (sc[k] > mx) mx = sc[k];
    }
    if (mx == -INFINITY) return -INFINITY;
    double z = 0;
    for (size_t k = 0; k < m->d; k++) z += exp(0.5 * (sc[k] - mx));
    return 0.5 * mx + log(z);
}

static void informed_birth_death(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, I0 = ch->I;
    double *Wm = ch->iscore, *sc = Wm + d, *sc2 = sc + d;
    double *nmu = ch->scratch + 5 * D, *nprec = nmu + D, nbeta;
    column_modes(ch, Wm);
    const double logZ = flip_scores(ch, Wm, sc);
    if (logZ == -INFINITY) return;
    const size_t k = pick_flip(sc, d, logZ, r);
    const int add = !ch->active[k];
    const int v = add ? BSL_MIX_ADD : BSL_MIX_REMOVE;
    ch->wm_fresh = 0; /* used once: the next informed move recomputes them */
    const double W = add ? column_weight(ch, r, k, COORD_DRAW, &nbeta, nmu, nprec)
                         : column_weight(ch, r, k, COORD_EVAL, ch->beta + k, ch->mu + k * D, ch->prec + k * D);
    ch->active[k] = (unsigned char)add, ch->I = add ? I0 + 1 : I0 - 1;
    const double logZ2 = flip_scores(ch, Wm, sc2);
    ch->active[k] = (unsigned char)!add, ch->I = I0;
    const double log_A = (add ? W - Wm[k] : Wm[k] - W) + logZ - logZ2;
    ch->prop[v] += ch->b == 1; /* counted at temperature 1 */
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
    ch->acc[v] += ch->b == 1;
    if (add) accept_add(ch, k, nbeta, nmu, nprec);
    else accept_remove(ch, r, k);
}

/* The informed choice with the allocations summed out (top of the file):
 * the flip's proposal probability is taken at (gamma, z) forwards and at
 * (gamma', z') for the reverse, z' the allocations drawn given the new
 * subset, so z' is drawn before the decision and kept if accepted. */
static void summed_informed_birth_death(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, n = m->n, I0 = ch->I;
    double *Wm = ch->iscore, *sc = Wm + d, *Wm2 = sc + d, *sc2 = Wm2 + d;
    double *nmu = ch->ncoord, *nprec = nmu + D, nbeta;
    column_modes(ch, Wm);
    const double logZ = flip_scores(ch, Wm, sc);
    if (logZ == -INFINITY) return;
    const size_t k = pick_flip(sc, d, logZ, r);
    const int add = !ch->active[k];
    const int v = add ? BSL_MIX_ADD : BSL_MIX_REMOVE;
    ch->wm_fresh = 0; /* z' is drawn below */
    ch->prop[v] += ch->b == 1; /* counted at temperature 1 */
    const double log_old = bsl_mix_rows_loglik(ch, ch->L, ch->w);
    const double dE = add ? excluded_change(ch, d, k) : excluded_change(ch, k, d);
    const double log_prior = bsl_mix_log_subset_prior(m, add ? I0 + 1 : I0 - 1) - bsl_mix_log_subset_prior(m, I0);
    double log_q = 0;
    memcpy(ch->Lsave, ch->L, n * D * sizeof *ch->L);
    save_z(ch);
    if (add) {
        log_q = column_proposal(ch, r, k, COORD_DRAW, &nbeta, nmu, nprec); /* given the current z */
        shift_L(ch, k, nmu, nprec, +1);
    } else {
        shift_L(ch, k, ch->mu + k * D, ch->prec + k * D, -1);
    }
    double *t = ch->L;
    ch->L = ch->Lnew, ch->Lnew = t;
    ch->active[k] = (unsigned char)add, ch->I = add ? I0 + 1 : I0 - 1;
    bsl_mix_draw_allocations(ch, r); /* z' given the new subset */
    if (!add) log_q = column_proposal(ch, r, k, COORD_EVAL, ch->beta + k, ch->mu + k * D, ch->prec + k * D);
    column_modes(ch, Wm2);
    const double logZ2 = flip_scores(ch, Wm2, sc2);
    const double log_A = (add ? log_q : -log_q) + bsl_mix_rows_loglik(ch, ch->L, ch->w) - log_old +
                         ch->b * dE + log_prior + (0.5 * sc2[k] - logZ2) - (0.5 * sc[k] - logZ);
    if (!(log(gsl_rng_uniform_pos(r)) < log_A)) {
        memcpy(ch->L, ch->Lsave, n * D * sizeof *ch->L);
        restore_z(ch);
        ch->active[k] = (unsigned char)!add, ch->I = I0;
        return;
    }
    ch->acc[v] += ch->b == 1;
    if (add) {
        memcpy(ch->mu + k * D, nmu, D * sizeof *nmu);
        memcpy(ch->prec + k * D, nprec, D * sizeof *nprec);
        ch->beta[k] = nbeta;
    } else {
        drop_beta(ch, r, k);
    }
}

/* ------------------------------------------------ informed exchange */

/* The exchange scores at the current subset given z (top of the file,
 * "Informed exchange"): sc[a * ne + e] for the a-th active and e-th
 * excluded input (index order, ne = d - I) is
 *   Wm[j'] - Wm[j] + b (E(gamma - j + j') - E(gamma)),
 * the subset prior being the same at both ends. Returns
 * log Z = log sum exp(sc / 2); the inputs are left in ch->xiwork
 * (bsl_mix_excluded_swap_changes: active at [0, I), excluded at [d, 2d - I)). */
static double swap_scores(bsl_mix_chain *ch, const double *Wm, double *sc)
{
    const size_t d = ch->m->d, I = ch->I, ne = d - I;
    const size_t *act = ch->xiwork, *exc = ch->xiwork + d;
    bsl_mix_excluded_swap_changes(ch->m, ch->active, ch->xswap, ch->xiwork, sc);
    double mx = -INFINITY;
    for (size_t a = 0; a < I; a++)
        for (size_t e = 0; e < ne; e++) {
            double *t = sc + a * ne + e;
            *t = Wm[exc[e]] - Wm[act[a]] + ch->b * *t;
            if (*t > mx) mx = *t;
        }
    double z = 0;
    for (size_t t = 0; t < I * ne; t++) z += exp(0.5 * (sc[t] - mx));
    return 0.5 * mx + log(z);
}

/* The score of the reverse exchange at the new subset (jn active, j
 * excluded) and that subset's log Z, from the scores there. */
static double reverse_score(bsl_mix_chain *ch, const double *Wm, size_t j, size_t jn, double *logZ)
{
    const size_t d = ch->m->d, ne = d - ch->I;
    *logZ = swap_scores(ch, Wm, ch->xscore);
    size_t a = 0, e = 0;
    while (ch->xiwork[a] != jn) a++;
    while (ch->xiwork[d + e] != j) e++;
    return ch->xscore[a * ne + e];
}

/* The informed exchange (top of the file): the pair drawn with probability
 * exp(s / 2) / Z(gamma, z); given z (BSL_MIX_PROPOSE_ALLOC) the reverse is
 * scored at (gamma', z), with the allocations summed out
 * (BSL_MIX_PROPOSE_SUMMED) at (gamma', z'), z' drawn given the new subset
 * before the decision and kept if accepted. */
static void informed_exchange(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, d = m->d, ne = d - ch->I;
    const int summed = m->add_proposal == BSL_MIX_PROPOSE_SUMMED;
    double *Wm = ch->iscore, *Wm2 = Wm + d, *nmu = ch->ncoord, *nprec = nmu + D, nbeta;
    column_modes(ch, Wm);
    const double logZ = swap_scores(ch, Wm, ch->xscore);
    const size_t t = pick_flip(ch->xscore, ch->I * ne, logZ, r);
    const size_t j = ch->xiwork[t / ne], jn = ch->xiwork[d + t % ne];
    const double log_fwd = 0.5 * ch->xscore[t] - logZ;
    ch->prop[BSL_MIX_EXCHANGE] += ch->b == 1; /* counted at temperature 1 */
    const double dE = excluded_change(ch, j, jn);
    double log_A, logZ2;
    if (!summed) {
        const double log_out = column_weight(ch, r, j, COORD_EVAL, ch->beta + j, ch->mu + j * D, ch->prec + j * D);
        const double log_in = column_weight(ch, r, jn, COORD_DRAW, &nbeta, nmu, nprec);
        ch->active[j] = 0, ch->active[jn] = 1; /* z unchanged: the same Wm */
        const double s2 = reverse_score(ch, Wm, j, jn, &logZ2);
        ch->active[j] = 1, ch->active[jn] = 0;
        log_A = log_in - log_out + ch->b * dE + (0.5 * s2 - logZ2) - log_fwd;
        ch->wm_fresh = 1; /* z unchanged either way */
        if (!(log(gsl_rng_uniform_pos(r)) < log_A)) return;
        update_L(ch, j, -1);
    } else {
        const double log_in = column_proposal(ch, r, jn, COORD_DRAW, &nbeta, nmu, nprec); /* given z */
        const double log_old = bsl_mix_rows_loglik(ch, ch->L, ch->w);
        swap_redraw_z(ch, r, j, jn, nmu, nprec);
        column_modes(ch, Wm2);
        const double s2 = reverse_score(ch, Wm2, j, jn, &logZ2);
        ch->active[j] = 1, ch->active[jn] = 0;
        const double log_out = column_proposal(ch, r, j, COORD_EVAL, ch->beta + j, ch->mu + j * D, ch->prec + j * D);
        log_A = log_in - log_out + bsl_mix_rows_loglik(ch, ch->L, ch->w) - log_old + ch->b * dE +
                (0.5 * s2 - logZ2) - log_fwd;
        if (!(log(gsl_rng_uniform_pos(r)) < log_A)) {
            swap_undo(ch);
            ch->wm_fresh = 1; /* Wm at the restored z */
            return;
        }
        memcpy(Wm, Wm2, d * sizeof *Wm); /* at z', kept */
    }
    ch->wm_fresh = 1;
    swap_keep(ch, j, jn, nbeta, nmu, nprec);
    if (!summed) update_L(ch, jn, +1);
    drop_beta(ch, r, j);
}
