/*
 * draws.c: the draws CSV (docs/FIT.md, "The draws CSV"): '#' comment lines
 * with the settings, then one row per retained draw: chain, iteration (in
 * the chain), draw (over all chains), size, one 0/1 inclusion column per
 * atom (named after the atom), then sampled hyperparameters, then the
 * draw's values when the fit has them (sigma2, b_..., log_lik:
 * subset_draws.c). The layout
 * follows CmdStan's output (comments, then a header) and posterior's
 * reserved columns (.chain, .iteration, .draw), so that R's posterior,
 * pandas and ArviZ read it alike.
 */
#include "fit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int basel_fit_write_draws(const basel_fit *f, const char *path, basel_error *err)
{
    const bsl_vs_result *r = f->draws;
    if (!r) return bsl_fail(err, BASEL_EINVAL, "this fit kept no draws (set keep-draws=1 before fitting)");
    unsigned char *row = calloc(r->m + 1, 1);
    double *vals = calloc(basel_fit_draw_value_count(f) + 1, sizeof *vals);
    if (!row || !vals) {
        free(row);
        free(vals);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    bsl_outfile out;
    int rc = bsl_out_open(&out, path, err);
    if (rc) {
        free(row);
        free(vals);
        return rc;
    }
    FILE *fp = out.fp;
    /* the settings hold the method and the seed (a picked seed too): once
     * each (issue 31 found them twice) */
    fprintf(fp, "# basel %s\n", BASEL_VERSION_STRING);
    const char *key;
    json_t *val;
    json_object_foreach(json_object_get(f->doc, "settings"), key, val)
        if (*json_string_value(val)) fprintf(fp, "# %s = %s\n", key, json_string_value(val));
    fprintf(fp, "chain,iteration,draw,size");
    const json_t *atoms = json_object_get(f->doc, "atoms");
    for (size_t j = 0; j < r->m; j++)
        fprintf(fp, ",%s", json_string_value(json_object_get(json_array_get(atoms, j), "name")));
    for (size_t s = 0; s < r->nscalars; s++) fprintf(fp, ",%s", r->scalar_names[s]);
    const size_t nv = basel_fit_draw_value_count(f);
    for (size_t v = 0; v < nv; v++) fprintf(fp, ",%s", r->draw_value_names[v]);
    fputc('\n', fp);
    errno = 0;
    if (r->nspill && bsl_vs_spill_copy(r, fp)) { /* streamed: the rows are in temporary files */
        const int e = errno ? errno : EIO; /* the failed read, write, seek or flush's */
        free(row);
        free(vals);
        bsl_out_abort(&out);
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot copy the draws from their temporary files: %s",
                           strerror(e));
    }
    bsl_draw_number num = {0, 0, 0};
    for (size_t i = 0; i < r->ndraws && !r->nspill; i++) {
        const size_t a0 = r->draw_start[i], a1 = r->draw_start[i + 1];
        memset(row, 0, r->m);
        for (size_t a = a0; a < a1; a++) row[r->draw_atoms[a]] = 1;
        bsl_vs_draw_number(&num, r->draw_chain[i]);
        fprintf(fp, "%u,%zu,%zu,%zu", r->draw_chain[i] + 1, num.iteration, num.draw, a1 - a0);
        for (size_t j = 0; j < r->m; j++) {
            fputc(',', fp);
            fputc('0' + row[j], fp);
        }
        for (size_t s = 0; s < r->nscalars; s++) fprintf(fp, ",%.17g", r->draw_scalars[i * r->nscalars + s]);
        if (nv) bsl_draw_values(r, i, vals);
        for (size_t v = 0; v < nv; v++) fprintf(fp, ",%.17g", vals[v]);
        fputc('\n', fp);
    }
    free(row);
    free(vals);
    return bsl_out_commit(&out, err);
}

int basel_fit_write_draws_loglik(const basel_fit *f, const char *path, basel_error *err)
{
    const bsl_vs_result *r = f->draws;
    if (!r || !r->ndraw_q)
        return bsl_fail(err, BASEL_EINVAL,
                        "this fit has no pointwise log-likelihoods: its draws have no log_lik (" BSL_LOGLIK_FITS ")");
    if (!r->nloglik)
        return bsl_fail(err, BASEL_EINVAL,
                        "this fit kept no pointwise log-likelihoods (set keep-draws=2 before fitting: the command "
                        "line's --draws-loglik)");
    bsl_outfile out;
    int rc = bsl_out_open(&out, path, err);
    if (rc) return rc;
    FILE *fp = out.fp;
    fprintf(fp, "chain,iteration,draw");
    for (size_t t = 0; t < r->nloglik; t++) fprintf(fp, ",log_lik[%zu]", t + 1);
    fputc('\n', fp);
    /* in memory, or streamed: per draw its chain and the rows' values
     * (summary.h loglik_spill) */
    FILE *in = r->draw_loglik ? NULL : r->loglik_spill;
    double *row = bsl_malloc(r->nloglik + 1, sizeof *row);
    int bad = !row || (in && (fflush(in) != 0 || fseek(in, 0, SEEK_SET) != 0));
    bsl_draw_number num = {0, 0, 0};
    for (size_t i = 0; i < r->ndraws && !bad; i++) {
        double c = r->draw_loglik ? (double)r->draw_chain[i] : 0;
        const double *x = r->draw_loglik ? r->draw_loglik + i * r->nloglik : row;
        if (in && (fread(&c, sizeof c, 1, in) != 1 || fread(row, sizeof *row, r->nloglik, in) != r->nloglik)) {
            bad = 1;
            break;
        }
        bsl_vs_draw_number(&num, (unsigned)c);
        fprintf(fp, "%u,%zu,%zu", (unsigned)c + 1, num.iteration, num.draw);
        for (size_t t = 0; t < r->nloglik; t++) fprintf(fp, ",%.17g", x[t]);
        fputc('\n', fp);
    }
    if (in && fseek(in, 0, SEEK_END) != 0) bad = 1;
    free(row);
    if (bad) {
        bsl_out_abort(&out);
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot read the log-likelihoods from their temporary file");
    }
    return bsl_out_commit(&out, err);
}
