/* result.c: the one result structure of every engine (engine.h). */
#include "engine.h"
#include "../summary/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bsl_coef_value_keys[BASEL_COEF_NVALUES] = {"pip", "mean", "sd", "cond_mean", "cond_sd", "lower",
                                                             "upper"};

int bsl_result_init(bsl_result *r, size_t m, int with_pip)
{
    r->m = m;
    r->atom_names = bsl_calloc(m + 1, sizeof *r->atom_names);
    if (with_pip) r->pip = bsl_calloc(m + 1, sizeof *r->pip);
    r->diagnostics = json_object();
    return r->atom_names && (!with_pip || r->pip) && r->diagnostics ? BASEL_OK : BASEL_ENOMEM;
}

int bsl_result_warn(bsl_result *r, const char *text)
{
    json_t *w = json_object_get(r->diagnostics, "warnings");
    if (!w) {
        w = json_array();
        if (!w || json_object_set_new(r->diagnostics, "warnings", w)) return BASEL_ENOMEM;
    }
    return json_array_append_new(w, json_string(text)) ? BASEL_ENOMEM : BASEL_OK;
}

int bsl_result_interrupted(bsl_result *r, double done, double planned)
{
    json_t *o = json_pack("{s:f, s:f}", "iterations", done, "planned", planned);
    if (!o || json_object_set_new(r->diagnostics, "interrupted", o)) return BASEL_ENOMEM;
    char text[256];
    snprintf(text, sizeof text,
             "the run was interrupted after %.0f of its %.0f iterations (all chains, burn-in included): the "
             "estimates are from that part of the run only",
             done, planned);
    return bsl_result_warn(r, text);
}

void bsl_result_free(bsl_result *r)
{
    if (!r) return;
    for (size_t j = 0; j < r->m && r->atom_names; j++) free(r->atom_names[j]);
    free(r->atom_names);
    free(r->pip);
    free(r->size_prob);
    for (size_t i = 0; i < r->nmodels; i++) free(r->models[i].atoms);
    free(r->models);
    free(r->hpm.atoms);
    free(r->projection.atoms);
    free(r->log_ml);
    json_decref(r->prior);
    json_decref(r->diagnostics);
    json_decref(r->engine);
    json_decref(r->extra);
    if (r->draws) {
        bsl_vs_result_free(r->draws);
        free(r->draws);
    }
    memset(r, 0, sizeof *r);
}
