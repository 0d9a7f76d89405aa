/* result.c: the common result of the subset engines (summary.h). */
#include "summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bsl_vs_result_init(bsl_vs_result *r, size_t m, size_t c, size_t kmax, size_t chains)
{
    memset(r, 0, sizeof *r);
    r->m = m;
    r->c = c;
    r->kmax = kmax;
    r->chains = chains;
    r->pip = bsl_calloc(m, sizeof(double));
    r->size_prob = bsl_calloc(kmax + 1, sizeof(double));
    r->coef_bma = bsl_calloc(m * c, sizeof(double));
    r->rhat_size = r->ess_size = r->ess_tail_size = NAN;
    if (!r->pip || !r->size_prob || !r->coef_bma || bsl_modelset_init(&r->models, 0)) {
        bsl_vs_result_free(r);
        return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

void bsl_vs_result_free(bsl_vs_result *r)
{
    if (!r) return;
    free(r->pip);
    free(r->pip_chain);
    free(r->size_prob);
    free(r->coef_bma);
    free(r->rhat_pip);
    free(r->ess_pip);
    free(r->ess_tail_pip);
    bsl_modelset_free(&r->models);
    free(r->draw_chain);
    free(r->draw_start);
    free(r->draw_atoms);
    free(r->draw_scalars);
    memset(r, 0, sizeof *r);
}

int bsl_vs_add_draw(bsl_vs_result *r, unsigned chain, const size_t *atoms, size_t k,
                    const double *scalars)
{
    if (r->ndraws == r->draws_cap) { /* one capacity for the per-draw arrays */
        const size_t cap = r->draws_cap ? 2 * r->draws_cap : 64;
        unsigned *dc = realloc(r->draw_chain, cap * sizeof *dc);
        if (!dc) return BASEL_ENOMEM;
        r->draw_chain = dc;
        if (r->nscalars) {
            double *ds = realloc(r->draw_scalars, cap * r->nscalars * sizeof *ds);
            if (!ds) return BASEL_ENOMEM;
            r->draw_scalars = ds;
        }
        r->draws_cap = cap;
    }
    if (bsl_grow((void **)&r->draw_start, &r->draw_start_cap, r->ndraws + 2, sizeof(size_t)) ||
        bsl_grow((void **)&r->draw_atoms, &r->draw_atoms_cap, r->draw_atoms_len + k + 1,
                 sizeof(size_t)))
        return BASEL_ENOMEM;
    if (r->ndraws == 0) r->draw_start[0] = 0;
    memcpy(r->draw_atoms + r->draw_atoms_len, atoms, k * sizeof *atoms);
    r->draw_atoms_len += k;
    r->draw_chain[r->ndraws] = chain;
    if (r->nscalars)
        memcpy(r->draw_scalars + r->ndraws * r->nscalars, scalars, r->nscalars * sizeof(double));
    r->ndraws++;
    r->draw_start[r->ndraws] = r->draw_atoms_len;
    return BASEL_OK;
}
