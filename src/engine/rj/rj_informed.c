/*
 * rj_informed.c: informed add / delete / swap moves for rj at large p
 * (issue 18 item 2), exact Metropolis-Hastings on the same target
 *     pi(gamma) ∝ exp(S(gamma)),  S = log_ml + bsl_mprior_log(k)   (rj.c).
 *
 * Why. rj's uniform add proposes an inactive atom uniformly: at p = 20000
 * with 8 relevant inputs an add finds one of them once in ~2500 moves, and a
 * uniform swap finds the AR(1) neighbour (rho = 0.95) of an active input
 * once in ~k p = 160000 moves, so the default run stopped far from the
 * posterior (issue 18: 2 true, 3 false at p = 20000). Here every proposal
 * looks at all m neighbours of its kind, weighted by their posterior.
 *
 * The moves (p_add(k), p_del(k), p_swap(k) as in rj.c; W(A) below is
 * sum_{l not in A} exp(S(A + l) - S(A)) over the atoms l that can enter A,
 * from one batched pass of try_add scores, bsl_cmodel_add_scores):
 *   add     propose j with probability exp(S(gamma + j)) / sum_l exp(S(gamma
 *           + l)) = exp(S(gamma + j) - S(gamma)) / W(gamma). The reverse is
 *           rj's delete of j: uniform among the k + 1 active atoms. So
 *             A = pi' q(gamma'->gamma) / (pi q(gamma->gamma'))
 *               = W(gamma) p_del(k+1) / ((k + 1) p_add(k)),
 *           the reverse proposal's normaliser entering through W.
 *   delete  i uniform among the k active atoms, S = gamma - i. Its reverse
 *           is the add above from S, which proposes i with probability
 *           exp(S(gamma) - S(S)) / W(S), so
 *             A = k p_add(k-1) / (W(S) p_del(k)).
 *           W(S) needs the add scores at S: the model removes i, scores,
 *           and puts i back when the delete is rejected.
 *   swap    i uniform among the k active atoms, then the atom that takes
 *           its place drawn from its full conditional given the other k - 1,
 *           P(l | S) ∝ exp(S(S + l)) over every l not in S (i included: the
 *           move may leave the set as it was). A Gibbs update of the set
 *           within {S + l}: reversible, always accepted (the reverse picks
 *           l, p = 1/k, and draws i from the same conditional over S; the
 *           ratio is pi(gamma') pi(gamma) / (pi(gamma) pi(gamma')) = 1).
 * The move types are drawn as in rj.c, so each pair (add, delete) and swap
 * is reversible with respect to pi: the chain is exact (tests/stat/
 * test_rj_informed.c checks PIPs, P(k) and model probabilities against
 * enumeration, within Monte Carlo bounds).
 *
 * Cost per move. One scoring pass of all m atoms: with the k rows of the
 * Gram matrix of the active atoms at hand (dense G, or the design's cache of
 * Gram rows on a streaming design, gram_rows.c), the batched triangular
 * solves cost m k^2 / 2 multiply-adds plus m k for the collinearity check,
 * i.e. O(m k^2); a row not yet cached costs one pass over the data, O(n m),
 * paid once per atom that enters (the rows of the few atoms of the
 * posterior's sets stay cached). A uniform move costs O(k^2) (dense) or
 * O(n k) (streamed) but, as above, needs O(p) moves to propose a given
 * input and O(k p) to propose a given swap; an informed move proposes the
 * important ones with their posterior weights at once. At p = 20000, k = 8,
 * n = 1000 that is ~1.3 million multiply-adds per move (bench/scale/README
 * gives the measured time per move and the mixing per move), against the
 * ~10^5-10^6 uniform moves it replaces. Up to BSL_RJ_INFORMED_ABOVE inputs
 * uniform moves are cheap enough to stay the default (rj_proposal).
 */
#include "rj_defaults.h"
#include "rj_informed.h"

#include <math.h>
#include <string.h>

/* Inputs above which rj's default proposal is informed (rj_defaults.h). At
 * p = 1000 a uniform chain proposes each input about once per 1000 moves,
 * 10^6 moves per CPU-second; above, the informed pass of O(p k^2) per move
 * costs less than the O(p) uniform moves it takes to propose a given input.
 * Inputs, not atoms: a kernel dictionary of thousands of atoms over a few
 * inputs keeps the uniform moves (and their default run length) it had. */

int bsl_rj_proposal(const bsl_params *params, size_t d, int *informed, basel_error *err)
{
    const char *v = params ? bsl_params_get(params, "proposal") : NULL;
    if (!v || !*v || strcmp(v, "auto") == 0) {
        *informed = d > BSL_RJ_INFORMED_ABOVE;
        return BASEL_OK;
    }
    if (strcmp(v, "informed") == 0 || strcmp(v, "uniform") == 0) {
        *informed = v[0] == 'i';
        return BASEL_OK;
    }
    return bsl_fail(err, BASEL_EINVAL, "--proposal '%s': expected auto, uniform or informed", v);
}

/* Atoms whose weight is below exp(-BSL_RJ_SCREEN) of the best one's may
 * be left out of a proposal (model.h add_scores: their logarithms are not
 * taken). The moves stay exact for the proposal so truncated: an add
 * proposes only atoms with a weight, and its normaliser W is the truncated
 * sum; a delete or swap whose atom i has no weight at S = gamma - i is
 * rejected, since the truncated reverse proposal could not bring i back.
 * Left out, such atoms hold less than m exp(-40) ~ 4e-13 (m = 10^5) of
 * a slot's conditional (rj.c's slot pass), below the 2^-32 resolution of
 * the uniform draws. */
#define BSL_RJ_SCREEN 40.0

/* For every atom j that can enter the model's set A (k atoms), its weight
 * relative to the largest, sc[j] <- exp(S(A + j) - S(A) - top); 0 for the
 * others (active atoms, collinear or unusable ones). Over all m atoms, or
 * over the candidates alone when cands (sc[c] for C[c]). Returns log W(A)
 * = top + log(sum of sc) (-inf: none can enter) and the sum in *sum. */
static double weights_of(bsl_cmodel *M, const bsl_vs_problem *pb, const bsl_rj_cands *cands, double *sc, double *sum)
{
    const size_t m = cands ? cands->n : pb->D->m, k = bsl_cmodel_k(M);
    const double s0 = bsl_rj_score(pb, bsl_cmodel_log_ml(M), k), pk = bsl_mprior_log(&pb->mprior, k + 1);
    if (cands)
        bsl_cmodel_candidate_scores(M, sc, BSL_RJ_SCREEN);
    else
        bsl_cmodel_add_scores_within(M, m, sc, BSL_RJ_SCREEN);
    double top = -INFINITY;
    for (size_t j = 0; j < m; j++) {
        sc[j] = isnan(sc[j]) || sc[j] == -INFINITY ? -INFINITY : sc[j] + pk - s0;
        top = sc[j] > top ? sc[j] : top; /* fmax inline (a libm call per atom): sc[j] is never NaN here */
    }
    *sum = 0;
    if (top == -INFINITY) return -INFINITY;
    for (size_t j = 0; j < m; j++) *sum += sc[j] = exp(sc[j] - top); /* exp(-inf) = 0 */
    return top + log(*sum);
}

static double neighbour_weights(bsl_cmodel *M, const bsl_vs_problem *pb, double *sc, double *sum)
{
    return weights_of(M, pb, NULL, sc, sum);
}

double bsl_rj_slot_weights(bsl_cmodel *M, const bsl_vs_problem *pb, const bsl_rj_cands *cands, double *sc,
                           double *sum)
{
    return weights_of(M, pb, cands, sc, sum);
}

int bsl_rj_informed_move(bsl_cmodel *M, gsl_rng *r, const bsl_vs_problem *pb, int move, double *sc,
                         const bsl_rj_hooks *h, int *accepted)
{
    const size_t m = pb->D->m, k = bsl_cmodel_k(M);
    *accepted = 0;
    if (move == BSL_RJ_ADD) {
        double sum;
        const double logw = neighbour_weights(M, pb, sc, &sum);
        if (logw == -INFINITY) return BASEL_OK;
        if (h->seen) h->seen(h->ctx, sc, sum);
        const size_t j = bsl_rj_draw(r, sc, m, sum);
        const double log_a = logw + log(h->prob(h->ctx, k + 1, BSL_RJ_DEL) / (double)(k + 1)) -
                             log(h->prob(h->ctx, k, BSL_RJ_ADD));
        if (!bsl_rj_accept(r, log_a)) return BASEL_OK;
        h->commit(h->ctx);
        *accepted = h->add(h->ctx, j) == BASEL_OK;
        return BASEL_OK;
    }
    /* delete and swap: i leaves, then the scores of every atom entering
     * S = gamma - i */
    const size_t i = bsl_cmodel_active(M)[gsl_rng_uniform_int(r, k)];
    h->commit(h->ctx);
    h->remove(h->ctx, i);
    double sum;
    const double logw = neighbour_weights(M, pb, sc, &sum);
    if (logw > -INFINITY && h->seen) h->seen(h->ctx, sc, sum);
    if (logw == -INFINITY || !(sc[i] > 0)) /* i out of the truncated reverse proposal: stay */
        return h->add(h->ctx, i) == BASEL_OK ? BASEL_OK : BASEL_ENUMERIC;
    if (move == BSL_RJ_DEL) {
        const double log_a = log((double)k * h->prob(h->ctx, k - 1, BSL_RJ_ADD)) - logw -
                             log(h->prob(h->ctx, k, BSL_RJ_DEL));
        if (bsl_rj_accept(r, log_a)) {
            *accepted = 1;
            return BASEL_OK;
        }
        return h->add(h->ctx, i) == BASEL_OK ? BASEL_OK : BASEL_ENUMERIC;
    }
    /* swap: a Gibbs redraw of the slot (i has its weight: checked above) */
    const size_t l = bsl_rj_draw(r, sc, m, sum);
    if (l != i && h->add(h->ctx, l) == BASEL_OK) {
        *accepted = 1;
        return BASEL_OK;
    }
    return h->add(h->ctx, i) == BASEL_OK ? BASEL_OK : BASEL_ENUMERIC;
}

/*
 * Candidate sets. After burn-in each chain fixes a set C of candidate atoms
 * (rj.c: those whose weight in some burn-in pass reached
 * BSL_RJ_CAND_FLOOR of its pass, and the atoms then active) and its moves
 * score C alone: O(|C| k^2) per move instead of O(m k^2), and a row of
 * cross products costs O(n |C|) instead of O(n m) (gram_rows.h bsl_cand).
 * At p = 20000 the posterior's blocks hold a few hundred atoms; the
 * thousands of others each carry weight ~1e-6 and are proposed as a
 * group. With C fixed, eps = BSL_RJ_OUTSIDE, n_out(A) the dormant atoms
 * outside C at A (so n_out(A - i) = n_out(A) + 1 for an active i outside),
 * and W_C(A) = sum over dormant l in C of exp(S(A + l) - S(A)):
 *   add     with probability 1 - eps propose j in C by its weight
 *           exp(S(A + j) - S(A)) / W_C(A), else (if n_out > 0) j uniform
 *           among the n_out dormant atoms outside C. The proposal's
 *           probability of j is q_A(j) = (1 - eps) w_j / W_C(A) or
 *           eps / n_out(A); the reverse is rj's delete, 1 / (k + 1), so
 *             A = pi(A + j) p_del(k+1) / (pi(A) (k + 1) p_add(k) q_A(j)),
 *           = W_C(A) p_del(k+1) / ((1 - eps) (k + 1) p_add(k)) for j in C,
 *           = e^{S(A+j) - S(A)} n_out(A) p_del(k+1) / (eps (k + 1) p_add(k))
 *           outside (one try_add).
 *   delete  i uniform among the k active atoms, S = A - i; the reverse is
 *           the add above from S: for i in C
 *             A = (1 - eps) k p_add(k-1) / (W_C(S) p_del(k)),
 *           outside e^{S(S) - S(A)} eps k p_add(k-1) / (n_out(S) p_del(k)).
 *   swap    i uniform among the k active atoms; if i is in C, a Gibbs
 *           redraw of the slot among S + l, l in C (i included), always
 *           accepted (as above, within C: reversible since the reverse
 *           picks the slot l in C and redraws from the same conditional);
 *           if i is outside C the chain stays.
 * Each move is reversible with respect to pi and C is fixed while the
 * chain samples, so the chain is exact; every atom can still enter (outside
 * ones through the uniform part), so it is irreducible. The burn-in, where
 * C is chosen from the chain's own passes, keeps the moves over all m atoms.
 * (tests/stat/test_rj_informed.c: against enumeration with C forced to half
 * the atoms.)
 */
static size_t outside_dormant(const bsl_cmodel *M, const bsl_vs_problem *pb, const bsl_rj_cands *C)
{
    const size_t k = bsl_cmodel_k(M), m = pb->D->m;
    const size_t *act = bsl_cmodel_active(M);
    size_t out_active = 0;
    for (size_t a = 0; a < k; a++) out_active += C->index[act[a]] < 0;
    return m - C->n - out_active;
}

int bsl_rj_candidate_move(bsl_cmodel *M, gsl_rng *r, const bsl_vs_problem *pb, int move, const bsl_rj_cands *C,
                          double *sc, const bsl_rj_hooks *h, int *accepted)
{
    const size_t m = pb->D->m, k = bsl_cmodel_k(M), nout = outside_dormant(M, pb, C);
    const double eps = C->n < m ? BSL_RJ_OUTSIDE : 0.0;
    *accepted = 0;
    if (move == BSL_RJ_ADD) {
        const double back = log(h->prob(h->ctx, k + 1, BSL_RJ_DEL) / (double)(k + 1)) -
                            log(h->prob(h->ctx, k, BSL_RJ_ADD));
        size_t j;
        double log_a;
        if (gsl_rng_uniform(r) < eps) { /* outside C, uniformly */
            if (nout == 0) return BASEL_OK;
            do j = h->dormant(h->ctx, gsl_rng_uniform_int(r, m - k));
            while (C->index[j] >= 0); /* rejection: uniform over the dormant ones outside */
            const double s_new = bsl_cmodel_try_add(M, j);
            if (s_new == -INFINITY) return BASEL_OK;
            log_a = bsl_rj_score(pb, s_new, k + 1) - bsl_rj_score(pb, bsl_cmodel_log_ml(M), k) + log((double)nout / eps) + back;
        } else {
            double sum;
            const double logw = weights_of(M, pb, C, sc, &sum);
            if (logw == -INFINITY) return BASEL_OK;
            j = C->atoms[bsl_rj_draw(r, sc, C->n, sum)];
            log_a = logw - log1p(-eps) + back;
        }
        if (!bsl_rj_accept(r, log_a)) return BASEL_OK;
        h->commit(h->ctx);
        *accepted = h->add(h->ctx, j) == BASEL_OK;
        return BASEL_OK;
    }
    const size_t i = bsl_cmodel_active(M)[gsl_rng_uniform_int(r, k)];
    const long ci = C->index[i];
    if (ci < 0) { /* an atom outside C: delete by one drop score; no swap */
        if (move != BSL_RJ_DEL) return BASEL_OK;
        const double s_new = bsl_cmodel_try_remove(M, i);
        const double log_a = bsl_rj_score(pb, s_new, k - 1) - bsl_rj_score(pb, bsl_cmodel_log_ml(M), k) +
                             log(eps / (double)(nout + 1)) +
                             log((double)k * h->prob(h->ctx, k - 1, BSL_RJ_ADD) / h->prob(h->ctx, k, BSL_RJ_DEL));
        if (!bsl_rj_accept(r, log_a)) return BASEL_OK;
        h->commit(h->ctx);
        h->remove(h->ctx, i);
        *accepted = 1;
        return BASEL_OK;
    }
    h->commit(h->ctx);
    h->remove(h->ctx, i);
    double sum;
    const double logw = weights_of(M, pb, C, sc, &sum);
    if (logw == -INFINITY || !(sc[ci] > 0)) /* i out of the truncated reverse proposal: stay */
        return h->add(h->ctx, i) == BASEL_OK ? BASEL_OK : BASEL_ENUMERIC;
    if (move == BSL_RJ_DEL) {
        const double log_a = log1p(-eps) + log((double)k * h->prob(h->ctx, k - 1, BSL_RJ_ADD)) - logw -
                             log(h->prob(h->ctx, k, BSL_RJ_DEL));
        if (bsl_rj_accept(r, log_a)) {
            *accepted = 1;
            return BASEL_OK;
        }
        return h->add(h->ctx, i) == BASEL_OK ? BASEL_OK : BASEL_ENUMERIC;
    }
    const size_t l = C->atoms[bsl_rj_draw(r, sc, C->n, sum)]; /* swap: the slot's redraw within C */
    if (l != i && h->add(h->ctx, l) == BASEL_OK) {
        *accepted = 1;
        return BASEL_OK;
    }
    return h->add(h->ctx, i) == BASEL_OK ? BASEL_OK : BASEL_ENUMERIC;
}
