/*
 * mixture_gibbs.c: the fixed-subset Gibbs sweep of paper 000 §2.2 (the full
 * conditionals of eq. 3), the cache L of per-row kernel log densities, the
 * marginal likelihood used by the add/remove moves, and the whole sweep.
 *
 * Invariant: after bsl_mix_compute_L, L[i*D + d] = sum over active j of
 * log N(x_ij; mu_dj, 1/prec_dj); any function that changes the subset or an
 * active coordinate either updates L or leaves it to the next compute_L
 * before L is read again (the sweep recomputes it after the Gibbs steps).
 * The excluded inputs do not appear in any full conditional: their density
 * does not depend on the class, the kernel or any sampled parameter.
 *
 * Tempering (mixture.c's replica exchange): a chain at inverse temperature
 * b < 1 targets prior x [p(x, c, z | theta) exp(E(gamma))]^b, the complete-
 * data likelihood raised to b. Its full conditionals are those of eq. 3 with
 * every count and sufficient statistic multiplied by b, and allocation
 * probabilities proportional to (P_c w_cd N_d(x))^b; at b = 1 every
 * expression below is the untempered one, bit for bit.
 */
#include "mixture.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <string.h>

void bsl_mix_compute_L(bsl_mix_chain *ch)
{
    const bsl_mix_model *m = ch->m;
    const size_t n = m->n, D = m->D;
    memset(ch->L, 0, n * D * sizeof *ch->L);
    for (size_t j = 0; j < m->d; j++) {
        if (!ch->active[j]) continue;
        const double *x = m->X + j * n, *mu = ch->mu + j * D, *prec = ch->prec + j * D;
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; k < D; k++) ch->L[i * D + k] += bsl_mix_log_normal(x[i], mu[k], prec[k]);
    }
}

/* e[d] = exp(L[d] - max L) for one row; returns the max. */
static double row_exp(const double *Lrow, size_t D, double *e)
{
    double mx = Lrow[0];
    for (size_t k = 1; k < D; k++)
        if (Lrow[k] > mx) mx = Lrow[k];
    for (size_t k = 0; k < D; k++) e[k] = exp(Lrow[k] - mx);
    return mx;
}

/* The probabilities raised to the chain's b: w^b into ch->tw (K x D), P^b
 * after it (K). Returns the pointers through wb and Pb (w and P at b = 1). */
static void tempered_probs(const bsl_mix_chain *ch, const double *w, const double **wb,
                           const double **Pb)
{
    const size_t KD = ch->m->K * ch->m->D, K = ch->m->K;
    if (ch->b == 1) {
        *wb = w, *Pb = ch->P;
        return;
    }
    for (size_t t = 0; t < KD; t++) ch->tw[t] = pow(w[t], ch->b);
    for (size_t k = 0; k < K; k++) ch->tw[KD + k] = pow(ch->P[k], ch->b);
    *wb = ch->tw, *Pb = ch->tw + KD;
}

/* e[d] = exp(b L[d] - max b L) for one row; returns the max. */
static double row_exp_b(const double *Lrow, size_t D, double b, double *e)
{
    if (b == 1) return row_exp(Lrow, D, e);
    double mx = b * Lrow[0];
    for (size_t k = 1; k < D; k++)
        if (b * Lrow[k] > mx) mx = b * Lrow[k];
    for (size_t k = 0; k < D; k++) e[k] = exp(b * Lrow[k] - mx);
    return mx;
}

/* log p(y_obs, x_active | theta) with kernels and unlabelled classes summed
 * out: sum over labelled rows of log(P_y sum_d w_yd N_d(x)) plus over
 * unlabelled rows of log(sum_k P_k sum_d w_kd N_d(x)) (eqs. 1-2); tempered,
 * every product P_k w_kd N_d(x) is raised to b before the sums. */
double bsl_mix_rows_loglik(const bsl_mix_chain *ch, const double *L, const double *w)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, K = m->K;
    double *e = ch->scratch; /* D, read-only use of the chain otherwise */
    const double *wb, *Pb;
    tempered_probs(ch, w, &wb, &Pb);
    double tot = 0;
    for (size_t i = 0; i < m->n; i++) {
        const double mx = row_exp_b(L + i * D, D, ch->b, e);
        const int y = m->cls[i];
        double s = 0;
        for (size_t k = 0; k < K; k++) {
            if (y >= 0 && (size_t)y != k) continue;
            double sk = 0;
            for (size_t q = 0; q < D; q++) sk += wb[k * D + q] * e[q];
            s += Pb[k] * sk;
        }
        tot += log(s) + mx;
    }
    return tot;
}

/* Index drawn from unnormalised weights p[0..n) with total tot. */
static size_t draw_weighted(const gsl_rng *r, const double *p, size_t n, double tot)
{
    double u = gsl_rng_uniform(r) * tot;
    for (size_t i = 0; i + 1 < n; i++) {
        u -= p[i];
        if (u < 0) return i;
    }
    return n - 1;
}

/* Allocations d_n and, for unlabelled rows, classes c_m jointly: eq. 3's
 * multinomial-one conditionals; p(c, d | x) is proportional to
 * P_c w_cd N_d(x), so drawing the pair at once is exact and mixes better. */
void bsl_mix_draw_allocations(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, K = m->K;
    double *e = ch->scratch, *p = ch->scratch + D; /* D and K*D */
    const double *wb, *Pb;
    tempered_probs(ch, ch->w, &wb, &Pb);
    for (size_t i = 0; i < m->n; i++) {
        row_exp_b(ch->L + i * D, D, ch->b, e);
        const int y = m->cls[i];
        if (y >= 0) {
            double tot = 0;
            for (size_t q = 0; q < D; q++) tot += p[q] = wb[(size_t)y * D + q] * e[q];
            ch->c[i] = y;
            ch->z[i] = (int)draw_weighted(r, p, D, tot);
        } else {
            double tot = 0;
            for (size_t k = 0; k < K; k++)
                for (size_t q = 0; q < D; q++) tot += p[k * D + q] = Pb[k] * wb[k * D + q] * e[q];
            const size_t kq = draw_weighted(r, p, K * D, tot);
            ch->c[i] = (int)(kq / D);
            ch->z[i] = (int)(kq % D);
        }
    }
}

/* P ~ Dirichlet(delta_p + m_k), w_k ~ Dirichlet(delta_w + m_dk) (eq. 3). */
static void draw_probabilities(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, K = m->K;
    double *mkd = ch->scratch, *nk = mkd + K * D;
    for (size_t t = 0; t < K * D; t++) mkd[t] = m->delta_w;
    for (size_t k = 0; k < K; k++) nk[k] = m->delta_p;
    for (size_t i = 0; i < m->n; i++) {
        mkd[(size_t)ch->c[i] * D + (size_t)ch->z[i]] += ch->b;
        nk[ch->c[i]] += ch->b;
    }
    gsl_ran_dirichlet(r, K, nk, ch->P);
    for (size_t k = 0; k < K; k++) gsl_ran_dirichlet(r, D, mkd + k * D, ch->w + k * D);
}

/* Kernel means, inverse variances and beta_j of one active input (eq. 3):
 * mu_dj ~ N((kappa xi + prec S_d) / (kappa + n_d prec), 1 / (kappa + n_d prec)),
 * prec_dj ~ Gamma(a + n_d / 2, beta_j + sum_{z=d} (x - mu_dj)^2 / 2),
 * beta_j ~ Gamma(g + D a, h_j + sum_d prec_dj) on [beta_lo_j, inf) (its
 * prior's truncation, mixture_model.c, cuts the conditional at the same point). */
static void draw_input(bsl_mix_chain *ch, const gsl_rng *r, size_t j)
{
    const bsl_mix_model *m = ch->m;
    const size_t D = m->D, n = m->n;
    const double *x = m->X + j * n;
    double *cnt = ch->scratch, *S = cnt + D, *Q = S + D;
    double *mu = ch->mu + j * D, *prec = ch->prec + j * D;
    for (size_t q = 0; q < D; q++) cnt[q] = S[q] = Q[q] = 0;
    const double b = ch->b; /* tempered: counts and sums weigh b */
    for (size_t i = 0; i < n; i++) cnt[ch->z[i]] += b, S[ch->z[i]] += b * x[i];
    for (size_t q = 0; q < D; q++) {
        const double pp = m->kappa[j] + cnt[q] * prec[q];
        mu[q] = (m->kappa[j] * m->xi[j] + prec[q] * S[q]) / pp + gsl_ran_gaussian(r, 1 / sqrt(pp));
    }
    for (size_t i = 0; i < n; i++) {
        const double dx = x[i] - mu[ch->z[i]];
        Q[ch->z[i]] += b * dx * dx;
    }
    double sum_prec = 0;
    for (size_t q = 0; q < D; q++) {
        prec[q] = gsl_ran_gamma(r, m->a + 0.5 * cnt[q], 1 / (ch->beta[j] + 0.5 * Q[q]));
        sum_prec += prec[q];
    }
    ch->beta[j] = bsl_mix_draw_beta(m, r, j, m->g + (double)D * m->a, m->h[j] + sum_prec);
}

void bsl_mix_gibbs(bsl_mix_chain *ch, const gsl_rng *r)
{
    const bsl_mix_model *m = ch->m;
    bsl_mix_compute_L(ch);
    bsl_mix_draw_allocations(ch, r);
    draw_probabilities(ch, r);
    for (size_t j = 0; j < m->d; j++) {
        if (ch->active[j])
            draw_input(ch, r, j);
        else /* beta_j of an excluded input has nothing but its prior */
            ch->beta[j] = bsl_mix_draw_beta(m, r, j, m->g, m->h[j]);
    }
}

/* Gibbs, then exchanges (which condition on the allocations just drawn and
 * so must come before any add/remove, after which the allocations are stale
 * until the next sweep redraws them), then add/remove moves. */
void bsl_mix_chain_sweep(bsl_mix_chain *ch, const gsl_rng *r, size_t n_exchange,
                         size_t n_birth_death)
{
    ch->wm_fresh = 0; /* z is redrawn */
    bsl_mix_gibbs(ch, r);
    if (ch->fix_subset) return;
    bsl_mix_compute_L(ch);
    for (size_t t = 0; t < n_exchange; t++) bsl_mix_exchange(ch, r);
    for (size_t t = 0; t < n_birth_death; t++) bsl_mix_birth_death(ch, r);
}
