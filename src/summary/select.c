/* select.c: the median probability model (Barbieri and Berger; paper 004
 * Def. 1.4), the most probable size k_opt (eq. 11) and the prevalence model
 * (Def. 1.6): the k_opt atoms with the largest inclusion probabilities. */
#include "summary.h"

#include <stdlib.h>

size_t bsl_select_median(const double *pip, size_t m, size_t *out)
{
    size_t k = 0;
    for (size_t j = 0; j < m; j++)
        if (pip[j] >= 0.5) out[k++] = j;
    return k;
}

size_t bsl_kopt(const double *size_prob, size_t kmax)
{
    size_t best = 0;
    for (size_t k = 1; k <= kmax; k++)
        if (size_prob[k] > size_prob[best]) best = k;
    return best;
}

typedef struct ranked {
    double p;
    size_t j;
} ranked;

static int by_pip_desc(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->p != y->p) return x->p < y->p ? 1 : -1;
    return (x->j > y->j) - (x->j < y->j); /* ties: lower index first, deterministic */
}

static int by_index(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

size_t bsl_select_prevalence(const double *pip, size_t m, const double *size_prob, size_t kmax,
                             size_t *out)
{
    size_t kopt = bsl_kopt(size_prob, kmax);
    if (kopt > m) kopt = m;
    ranked *r = malloc((m ? m : 1) * sizeof *r);
    if (!r) return 0;
    for (size_t j = 0; j < m; j++) r[j] = (ranked){pip[j], j};
    qsort(r, m, sizeof *r, by_pip_desc);
    for (size_t i = 0; i < kopt; i++) out[i] = r[i].j;
    free(r);
    qsort(out, kopt, sizeof *out, by_index);
    return kopt;
}
