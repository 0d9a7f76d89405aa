/* select.c: the median probability model (Barbieri and Berger; paper 004
 * Def. 1.4), the most probable size k_opt (eq. 11) and the prevalence model
 * (Def. 1.6): the k_opt atoms with the largest inclusion probabilities. */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

const bsl_selection bsl_selections[BSL_NSELECTIONS] = {
    {"prevalence", "prevalence (the k_opt atoms of largest PIP)", 0},
    {"median", "median (PIP >= 0.5)", 0},
    {"hpm", "highest probability visited", 0},
    {"projection", "projection of the model average", 1},
};

int bsl_selection_index(const char *name)
{
    for (int i = 0; name && i < BSL_NSELECTIONS; i++)
        if (strcmp(name, bsl_selections[i].name) == 0) return i;
    return -1;
}

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

static int by_index(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Whether atom j ranks before atom i: larger PIP first, ties to the lower
 * index (deterministic). */
static int ranks_before(const double *pip, size_t j, size_t i)
{
    return pip[j] != pip[i] ? pip[j] > pip[i] : j < i;
}

size_t bsl_select_prevalence(const double *pip, size_t m, const double *size_prob, size_t kmax,
                             size_t *out)
{
    size_t kopt = bsl_kopt(size_prob, kmax);
    if (kopt > m) kopt = m;
    /* k_opt passes of selection, O(k_opt m), and no allocation (a failed
     * one would silently give the empty model) */
    for (size_t i = 0; i < kopt; i++) {
        size_t best = m;
        for (size_t j = 0; j < m; j++)
            if ((i == 0 || ranks_before(pip, out[i - 1], j)) && (best == m || ranks_before(pip, j, best))) best = j;
        out[i] = best;
    }
    qsort(out, kopt, sizeof *out, by_index);
    return kopt;
}
