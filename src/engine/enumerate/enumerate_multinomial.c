/*
 * enumerate_multinomial.c: the exact posterior of the multinomial model
 * (--family multinomial; model/glm_multi.h) by enumeration of every joint
 * model (A_1 .. A_{C-1}), each class's subset under the model prior, the
 * reference rj_multinomial.c is tested against (bsl_enumerate hands it such
 * a problem).
 *
 * Each joint model's marginal likelihood is estimated by importance
 * sampling from a t_4 at its Laplace approximation (bsl_glm_multi_log_ml:
 * unbiased for p(y | A), is_draws draws from a stream seeded by the joint
 * model and is_seed), so the posterior is exact up to that Monte Carlo
 * error, whose largest standard error of a log marginal likelihood is in
 * the note. Up to MULTI_ENUM_MAX joint atoms (C - 1) m: 2^20 Laplace fits.
 * The result is over the joint atoms (c - 1) m + j as the sampler's, the
 * inputs' PIPs P(j in some A_c | y) in res->input_pip, and the joint
 * models with their posterior probabilities and log posteriors.
 */
#include "../subset/subset.h"
#include "../../run/chains.h"
#include "../../model/glm.h"
#include "../../model/glm_multi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MULTI_ENUM_MAX 20

int bsl_enumerate_multi(const bsl_vs_problem *pb, const bsl_run *run, bsl_vs_result *res, basel_error *err)
{
    const bsl_design *D = pb->D;
    const size_t m = D->m, n = D->n, nc = pb->nclass - 1, J = nc * m, kmax = BSL_MIN(pb->kmax, pb->mprior.kmax);
    memset(res, 0, sizeof *res);
    if (pb->nclass < 3) return bsl_fail(err, BASEL_EINVAL, "the multinomial enumeration needs 3 or more classes");
    if (J > MULTI_ENUM_MAX)
        return bsl_fail(err, BASEL_ERANGE,
                        "enumeration of the multinomial model visits all 2^((C - 1) m) joint models and refuses "
                        "(C - 1) m = %zu > %d; use --method rj",
                        J, MULTI_ENUM_MAX);
    const size_t N = (size_t)1 << J, S = pb->prior.is_draws ? pb->prior.is_draws : 4000;
    double *X = bsl_malloc(n * m + 1, sizeof *X), *y = bsl_malloc(n, sizeof *y), *lp = bsl_malloc(N, sizeof *lp);
    size_t atoms[MULTI_ENUM_MAX + 1], kc[MULTI_ENUM_MAX + 1];
    int rc = X && y && lp ? bsl_vs_result_init(res, J, 1, nc * kmax, 1) : BASEL_ENOMEM;
    if (!rc && !(res->input_pip = bsl_calloc(m + 1, sizeof *res->input_pip))) rc = BASEL_ENOMEM;
    if (rc) {
        free(X), free(y), free(lp);
        return bsl_fail(err, rc, "out of memory");
    }
    res->d_inputs = m;
    for (size_t j = 0; j < m; j++) bsl_design_raw_column(D, j, X + j * n);
    bsl_glm_design_y(D, y);
    const bsl_multi_data md = {X, y, n, m, pb->nclass, 1.0 / (pb->prior.intercept_sd * pb->prior.intercept_sd),
                               1.0 / (pb->prior.sd * pb->prior.sd)};
    double top = -INFINITY, max_se = 0;
    for (size_t s = 0; s < N && !rc; s++) {
        if (run && run->progress && s % 64 == 0 && run->progress((double)s, (double)N, run->progress_user)) {
            rc = bsl_fail(err, BASEL_ECANCELLED, "cancelled");
            break;
        }
        size_t K = 0, too_big = 0;
        memset(kc, 0, nc * sizeof *kc);
        for (size_t a = 0; a < J; a++)
            if (s >> a & 1) {
                atoms[K++] = a;
                too_big |= ++kc[a / m] > kmax;
            }
        lp[s] = -INFINITY;
        if (too_big) continue; /* prior probability 0 */
        double ml, se, prior = 0;
        for (size_t c = 0; c < nc; c++) prior += bsl_mprior_log(&pb->mprior, kc[c]);
        if ((rc = bsl_glm_multi_log_ml(&md, atoms, K, S, pb->prior.is_seed, &ml, &se)))
            bsl_fail(err, rc, "the multinomial model's Laplace approximation failed (%zu joint atoms)", K);
        max_se = fmax(max_se, se);
        lp[s] = ml + prior;
        top = fmax(top, lp[s]);
    }
    double z = 0;
    for (size_t s = 0; s < N && !rc; s++) z += exp(lp[s] - top);
    for (size_t s = 0; s < N && !rc; s++) {
        const double w = exp(lp[s] - top) / z;
        size_t K = 0;
        for (size_t a = 0; a < J; a++)
            if (s >> a & 1) {
                atoms[K++] = a;
                res->pip[a] += w;
            }
        for (size_t j = 0; j < m; j++) {
            int any = 0;
            for (size_t c = 0; c < nc; c++) any |= (int)(s >> (c * m + j) & 1);
            if (any) res->input_pip[j] += w;
        }
        if (K <= res->kmax) res->size_prob[K] += w;
        if (w > 0 && bsl_modelset_add(&res->models, atoms, K, w, lp[s])) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (!rc) {
        bsl_modelset_sort(&res->models);
        res->evaluations = (double)N;
        snprintf(res->engine_note, sizeof res->engine_note,
                 "multinomial, one subset per class (%zu classes besides the reference): marginal likelihoods by "
                 "importance sampling (%zu draws per joint model from a t_4 at the Laplace approximation): largest "
                 "standard error of a log marginal likelihood %.2g",
                 nc, S, max_se);
    }
    free(X), free(y), free(lp);
    return rc;
}
