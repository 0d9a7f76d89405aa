/*
 * access.c: typed read-only accessors of a fit for the front ends (the
 * document's keys as C arrays, docs/FIT.md), and the document as text. The
 * arrays are filled from the document when the fit is wrapped (fit.c) and
 * live as long as the fit.
 */
#include "fit.h"

#include <stdlib.h>
#include <string.h>

const char *basel_fit_method(const basel_fit *f)
{
    return json_string_value(json_object_get(f->doc, "method"));
}

size_t basel_fit_atom_count(const basel_fit *f) { return json_array_size(json_object_get(f->doc, "atoms")); }

const char *basel_fit_atom_name(const basel_fit *f, size_t j)
{
    return json_string_value(json_object_get(json_array_get(json_object_get(f->doc, "atoms"), j), "name"));
}

size_t basel_fit_input_count(const basel_fit *f) { return json_array_size(json_object_get(f->doc, "inputs")); }

const char *basel_fit_input_name(const basel_fit *f, size_t j)
{
    return json_string_value(json_array_get(json_object_get(f->doc, "inputs"), j));
}

const double *basel_fit_size_posterior(const basel_fit *f, size_t *len)
{
    *len = f->nsize;
    return f->nsize ? f->size : NULL;
}

const size_t *basel_fit_selected(const basel_fit *f, const char *which, size_t *k)
{
    const int i = bsl_selection_index(which);
    if (i >= 0 && f->selected[i]) {
        *k = f->nselected[i];
        return f->selected[i];
    }
    *k = 0;
    return NULL;
}

char *basel_fit_to_json(const basel_fit *f)
{
    return json_dumps(f->doc, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
}

size_t basel_fit_draw_count(const basel_fit *f) { return f->draws ? f->draws->ndraws : 0; }

int basel_fit_draw(const basel_fit *f, size_t i, unsigned *chain, const size_t **atoms, size_t *k)
{
    bsl_vs_result *r = f->draws;
    if (!r || i >= r->ndraws) return BASEL_EINVAL;
    /* draws streamed to temporary files during the run (memory flat in its
     * length) are read back on the first indexed access */
    int rc = bsl_vs_spill_load(r);
    if (rc) return rc;
    *chain = r->draw_chain[i];
    *atoms = r->draw_atoms + r->draw_start[i];
    *k = r->draw_start[i + 1] - r->draw_start[i];
    return BASEL_OK;
}

size_t basel_fit_draw_scalar_count(const basel_fit *f) { return f->draws ? f->draws->nscalars : 0; }

const char *basel_fit_draw_scalar_name(const basel_fit *f, size_t s)
{
    return f->draws && s < f->draws->nscalars ? f->draws->scalar_names[s] : NULL;
}

int basel_fit_draw_scalars(const basel_fit *f, size_t i, const double **values)
{
    bsl_vs_result *r = f->draws;
    if (!r || i >= r->ndraws) return BASEL_EINVAL;
    int rc = bsl_vs_spill_load(r); /* as basel_fit_draw */
    if (rc) return rc;
    *values = r->draw_scalars + i * r->nscalars;
    return BASEL_OK;
}

size_t basel_fit_draw_value_count(const basel_fit *f)
{
    return f->draws && f->draws->ndraw_q ? f->draws->m + f->draws->ndraw_q + 2 : 0;
}

const char *basel_fit_draw_value_name(const basel_fit *f, size_t s)
{
    return s < basel_fit_draw_value_count(f) ? f->draws->draw_value_names[s] : NULL;
}

int basel_fit_draw_values(const basel_fit *f, size_t i, double *out)
{
    bsl_vs_result *r = f->draws;
    if (!r || i >= r->ndraws || !r->ndraw_q) return BASEL_EINVAL;
    int rc = bsl_vs_spill_load(r); /* as basel_fit_draw */
    if (rc) return rc;
    bsl_draw_values(r, i, out);
    return BASEL_OK;
}

size_t basel_fit_draw_loglik_count(const basel_fit *f) { return f->draws ? f->draws->nloglik : 0; }

int basel_fit_draw_loglik(const basel_fit *f, size_t i, const double **values)
{
    bsl_vs_result *r = f->draws;
    if (!r || i >= r->ndraws || !r->nloglik) return BASEL_EINVAL;
    int rc = bsl_vs_spill_load(r); /* as basel_fit_draw */
    if (rc) return rc;
    *values = r->draw_loglik + i * r->nloglik;
    return BASEL_OK;
}

/* Fill the cached arrays from the document (fit.c's wrap). */
/* The engine's kernel centres (engine.h's centres hook), taken from the
 * standardised units the engines work in back to the inputs' own. */
static int cache_centres(basel_fit *f)
{
    const bsl_engine_def *e = bsl_engine_find(json_string_value(json_object_get(f->doc, "method")));
    if (!e || !e->centres) return BASEL_OK;
    const int rc = e->centres(f->doc, &f->centres, &f->ncentres);
    if (rc || !f->centres) return rc;
    const json_t *st = json_object_get(f->doc, "standardize");
    const json_t *mean = json_object_get(st, "mean"), *scale = json_object_get(st, "scale");
    const size_t d = basel_fit_input_count(f);
    if (!json_is_true(json_object_get(st, "applied")) || json_array_size(mean) != d || json_array_size(scale) != d)
        return BASEL_OK;
    for (size_t j = 0; j < f->ncentres; j++)
        for (size_t a = 0; a < d; a++)
            f->centres[j * d + a] = json_number_value(json_array_get(mean, a)) +
                                    json_number_value(json_array_get(scale, a)) * f->centres[j * d + a];
    return BASEL_OK;
}

const double *basel_fit_centres(const basel_fit *f, size_t *count)
{
    if (count) *count = f->ncentres;
    return f->centres;
}

int bsl_fit_cache(basel_fit *f)
{
    const int rc = cache_centres(f);
    if (rc) return rc;
    const json_t *prob = json_object_get(json_object_get(f->doc, "model_size"), "prob");
    f->nsize = json_array_size(prob);
    if (!(f->size = bsl_calloc(f->nsize + 1, sizeof *f->size))) return BASEL_ENOMEM;
    for (size_t k = 0; k < f->nsize; k++) f->size[k] = json_number_value(json_array_get(prob, k));
    const json_t *sel = json_object_get(f->doc, "selected");
    for (size_t i = 0; i < BSL_NSELECTIONS && sel; i++) {
        const json_t *a = json_object_get(sel, bsl_selections[i].name);
        if (!a) continue; /* a kind this fit does not have (summary.h) */
        f->nselected[i] = json_array_size(a);
        if (!(f->selected[i] = bsl_calloc(f->nselected[i] + 1, sizeof *f->selected[i]))) return BASEL_ENOMEM;
        for (size_t j = 0; j < f->nselected[i]; j++)
            f->selected[i][j] = (size_t)json_integer_value(json_array_get(a, j));
    }
    return bsl_fit_cache_results(f);
}
