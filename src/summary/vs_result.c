/* vs_result.c: the common result of the subset engines (summary.h). */
#include "summary.h"

#include <errno.h>
#include <limits.h>
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
    free(r->input_pip);
    free(r->input_pip_chain);
    free(r->input_scale);
    free(r->coef_draw_start);
    free(r->coef_draw_atoms);
    free(r->coef_draw_theta);
    for (size_t v = 0; r->draw_value_names && v < r->ndraw_q + r->m + 2; v++) free(r->draw_value_names[v]);
    free(r->draw_value_names);
    free(r->draw_fixed);
    free(r->draw_coef);
    free(r->draw_loglik);
    if (r->loglik_spill) fclose(r->loglik_spill);
    bsl_modelset_free(&r->models);
    free(r->draw_chain);
    free(r->draw_start);
    free(r->draw_atoms);
    free(r->draw_scalars);
    for (size_t i = 0; i < r->nspill; i++)
        if (r->spill[i]) fclose(r->spill[i]);
    free(r->spill);
    free(r->spill_row);
    memset(r, 0, sizeof *r);
}

int bsl_vs_print_draw(FILE *fp, size_t m, unsigned chain, const size_t *atoms, size_t k,
                      const double *scalars, size_t nscalars, unsigned char *row)
{
    return bsl_vs_print_draw_values(fp, m, chain, atoms, k, scalars, nscalars, NULL, 0, row);
}

int bsl_vs_print_draw_values(FILE *fp, size_t m, unsigned chain, const size_t *atoms, size_t k,
                             const double *scalars, size_t nscalars, const double *values, size_t nv,
                             unsigned char *row)
{
    memset(row, '0', m);
    for (size_t a = 0; a < k; a++) row[atoms[a]] = '1';
    int bad = fprintf(fp, "%u,%zu", chain + 1, k) < 0;
    for (size_t j = 0; j < m && !bad; j++) bad = putc(',', fp) == EOF || putc(row[j], fp) == EOF;
    for (size_t s = 0; s < nscalars && !bad; s++) bad = fprintf(fp, ",%.17g", scalars[s]) < 0;
    for (size_t v = 0; v < nv && !bad; v++) bad = fprintf(fp, ",%.17g", values[v]) < 0;
    return bad || putc('\n', fp) == EOF ? BASEL_EIO : BASEL_OK;
}

int bsl_vs_spill_begin(bsl_vs_result *r, basel_error *err)
{
    if (r->ndraws || r->nspill) return bsl_fail(err, BASEL_EINVAL, "draws kept before they were streamed");
    r->spill = malloc(sizeof *r->spill);
    r->spill_row = malloc(r->m + 1);
    if (!r->spill || !r->spill_row) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!(r->spill[0] = bsl_tmpfile())) {
        const char *dir = getenv("TMPDIR");
        return bsl_fail(err, BASEL_EIO, "cannot create a temporary file for the draws in %s: %s",
                        dir && *dir ? dir : "/tmp (TMPDIR is not set)", strerror(errno));
    }
    r->nspill = 1;
    return BASEL_OK;
}

int bsl_vs_spill_take(bsl_vs_result *dst, bsl_vs_result *src)
{
    if (!src->nspill) { /* drawn in memory: stream them now */
        if (!dst->spill_row && !(dst->spill_row = malloc(dst->m + 1))) return BASEL_ENOMEM;
        FILE **sp = realloc(dst->spill, (dst->nspill + 1) * sizeof *sp);
        if (!sp) return BASEL_ENOMEM;
        dst->spill = sp;
        if (!(sp[dst->nspill] = bsl_tmpfile())) return BASEL_EIO;
        dst->nspill++;
        for (size_t i = 0; i < src->ndraws; i++) {
            const size_t a = src->draw_start[i], b = src->draw_start[i + 1];
            if (bsl_vs_print_draw(sp[dst->nspill - 1], dst->m, src->draw_chain[i], src->draw_atoms + a, b - a,
                                  src->nscalars ? src->draw_scalars + i * src->nscalars : NULL, src->nscalars,
                                  dst->spill_row))
                return BASEL_EIO;
        }
        dst->ndraws += src->ndraws;
        return BASEL_OK;
    }
    FILE **sp = realloc(dst->spill, (dst->nspill + src->nspill) * sizeof *sp);
    if (!sp) return BASEL_ENOMEM;
    dst->spill = sp;
    for (size_t i = 0; i < src->nspill; i++) {
        if (fflush(src->spill[i]) != 0 || ferror(src->spill[i])) return BASEL_EIO;
        sp[dst->nspill++] = src->spill[i];
        src->spill[i] = NULL;
    }
    src->nspill = 0;
    dst->ndraws += src->ndraws;
    return BASEL_OK;
}

void bsl_vs_draw_number(bsl_draw_number *d, unsigned chain)
{
    d->iteration = d->draw && chain == d->chain ? d->iteration + 1 : 1;
    d->chain = chain;
    d->draw++;
}

/* The rows of one temporary file to fp, each row's chain (its first field,
 * chain + 1 as bsl_vs_print_draw wrote it) followed by the row's iteration
 * and draw (bsl_vs_draw_number): a block at a time, the rest of each row
 * copied as it is. */
static int copy_numbered(FILE *f, FILE *fp, bsl_draw_number *num, char *buf, size_t len)
{
    unsigned chain1 = 0; /* the chain field so far: 1-based */
    int in_chain = 1;    /* at the start of a row, reading its chain */
    size_t got;
    while ((got = fread(buf, 1, len, f)) > 0)
        for (size_t i = 0; i < got;) {
            if (in_chain) {
                const char c = buf[i++];
                if (c >= '0' && c <= '9' && chain1 <= (UINT_MAX - 9) / 10) chain1 = 10 * chain1 + (unsigned)(c - '0');
                else if (c != ',' || chain1 == 0) return BASEL_EIO;
                else {
                    bsl_vs_draw_number(num, chain1 - 1);
                    if (fprintf(fp, "%u,%zu,%zu,", chain1, num->iteration, num->draw) < 0) return BASEL_EIO;
                    in_chain = 0;
                    chain1 = 0;
                }
                continue;
            }
            const char *nl = memchr(buf + i, '\n', got - i);
            const size_t n = nl ? (size_t)(nl - (buf + i)) + 1 : got - i;
            if (fwrite(buf + i, 1, n, fp) != n) return BASEL_EIO;
            i += n;
            in_chain = nl != NULL;
        }
    return ferror(f) || !in_chain || chain1 ? BASEL_EIO : BASEL_OK; /* a file ends with a whole row */
}

int bsl_vs_spill_copy(const bsl_vs_result *r, FILE *fp)
{
    char buf[1 << 16];
    bsl_draw_number num = {0, 0, 0};
    for (size_t i = 0; i < r->nspill; i++) {
        FILE *f = r->spill[i];
        if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0) return BASEL_EIO;
        if (copy_numbered(f, fp, &num, buf, sizeof buf) || fseek(f, 0, SEEK_END) != 0) return BASEL_EIO;
    }
    return BASEL_OK;
}

int bsl_vs_parse_draw(FILE *f, size_t m, size_t nscalars, size_t nv, unsigned *chain, size_t *atoms, size_t *k,
                      double *scalars, double *values)
{
    unsigned c1;
    size_t kk;
    if (fscanf(f, "%u,%zu", &c1, &kk) != 2 || c1 == 0 || kk > m) return BASEL_EIO;
    *chain = c1 - 1;
    *k = 0;
    for (size_t j = 0; j < m; j++) {
        const int comma = getc(f), flag = getc(f);
        if (comma != ',' || (flag != '0' && flag != '1')) return BASEL_EIO;
        if (flag == '1') {
            if (*k == kk) return BASEL_EIO;
            atoms[(*k)++] = j;
        }
    }
    for (size_t s = 0; s < nscalars; s++)
        if (fscanf(f, ",%lg", &scalars[s]) != 1) return BASEL_EIO;
    for (size_t v = 0; v < nv; v++)
        if (fscanf(f, ",%lg", &values[v]) != 1) return BASEL_EIO;
    return *k == kk && getc(f) == '\n' ? BASEL_OK : BASEL_EIO;
}

int bsl_vs_spill_load(bsl_vs_result *r)
{
    if (!r->nspill) return BASEL_OK;
    FILE **spill = r->spill;
    const size_t nspill = r->nspill, ndraws = r->ndraws;
    size_t *atoms = malloc((r->m + 1) * sizeof *atoms);
    double *scalars = malloc((r->nscalars + 1) * sizeof *scalars);
    const size_t nv = r->nvalues, q = r->ndraw_q, nl = r->nloglik;
    double *values = malloc((nv + 1) * sizeof *values);
    int rc = atoms && scalars && values ? BASEL_OK : BASEL_ENOMEM;
    /* the values (rows' ends) into draw_fixed and draw_coef, the pointwise
     * log-likelihoods into draw_loglik */
    if (!rc && nv && !(r->draw_fixed = bsl_malloc(ndraws * (q + 2) + 1, sizeof *r->draw_fixed))) rc = BASEL_ENOMEM;
    if (!rc && nl && !(r->draw_loglik = bsl_malloc(ndraws * nl + 1, sizeof *r->draw_loglik))) rc = BASEL_ENOMEM;
    if (!rc && nl) {
        double chain;
        if (fflush(r->loglik_spill) != 0 || fseek(r->loglik_spill, 0, SEEK_SET) != 0) rc = BASEL_EIO;
        for (size_t i = 0; i < ndraws && !rc; i++)
            if (fread(&chain, sizeof chain, 1, r->loglik_spill) != 1 ||
                fread(r->draw_loglik + i * nl, sizeof(double), nl, r->loglik_spill) != nl)
                rc = BASEL_EIO;
    }
    r->nspill = 0; /* bsl_vs_add_draw now appends to the arrays */
    r->ndraws = 0;
    r->draw_atoms_len = 0;
    for (size_t i = 0; i < nspill && !rc; i++) {
        if (fflush(spill[i]) != 0 || fseek(spill[i], 0, SEEK_SET) != 0) rc = BASEL_EIO;
        for (int ch; !rc && (ch = getc(spill[i])) != EOF;) {
            ungetc(ch, spill[i]);
            unsigned chain;
            size_t k;
            rc = bsl_vs_parse_draw(spill[i], r->m, r->nscalars, nv, &chain, atoms, &k, scalars, values);
            if (!rc && r->ndraws >= ndraws) rc = BASEL_EIO;
            const size_t a0 = r->draw_atoms_len;
            if (!rc) rc = bsl_vs_add_draw(r, chain, atoms, k, scalars);
            if (!rc && nv) {
                if (bsl_grow((void **)&r->draw_coef, &r->coef_cap, a0 + k + 1, sizeof(double))) {
                    rc = BASEL_ENOMEM;
                    break;
                }
                double *fx = r->draw_fixed + (r->ndraws - 1) * (q + 2);
                memcpy(fx, values, (q + 1) * sizeof *fx); /* sigma2, the always-in coefficients */
                fx[q + 1] = values[nv - 1];               /* log_lik */
                for (size_t a = 0; a < k; a++) r->draw_coef[a0 + a] = values[1 + q + atoms[a]];
            }
        }
        if (!rc && ferror(spill[i])) rc = BASEL_EIO;
        if (fseek(spill[i], 0, SEEK_END) != 0 && !rc) rc = BASEL_EIO;
    }
    free(atoms);
    free(scalars);
    free(values);
    if (!rc && r->ndraws != ndraws) rc = BASEL_EIO;
    if (rc) { /* as before: streamed, the arrays empty */
        r->nspill = nspill;
        r->ndraws = ndraws;
        r->draw_atoms_len = 0;
        free(r->draw_fixed);
        free(r->draw_coef);
        free(r->draw_loglik);
        r->draw_fixed = r->draw_coef = r->draw_loglik = NULL;
        r->coef_cap = 0;
        return rc;
    }
    r->nvalues = 0; /* the values are in the arrays now */
    if (r->loglik_spill) fclose(r->loglik_spill);
    r->loglik_spill = NULL;
    for (size_t i = 0; i < nspill; i++) fclose(spill[i]);
    free(spill);
    r->spill = NULL;
    return BASEL_OK;
}

int bsl_vs_add_draw(bsl_vs_result *r, unsigned chain, const size_t *atoms, size_t k,
                    const double *scalars)
{
    if (r->nspill) {
        const int rc = bsl_vs_print_draw(r->spill[r->nspill - 1], r->m, chain, atoms, k, scalars, r->nscalars,
                                         r->spill_row);
        if (!rc) r->ndraws++;
        return rc;
    }
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

void bsl_draw_values(const bsl_vs_result *r, size_t i, double *out)
{
    const size_t q = r->ndraw_q, m = r->m;
    const double *fx = r->draw_fixed + i * (q + 2);
    memset(out, 0, (m + q + 2) * sizeof *out);
    for (size_t l = 0; l <= q; l++) out[l] = fx[l]; /* sigma2, the always-in coefficients */
    for (size_t a = r->draw_start[i]; a < r->draw_start[i + 1]; a++) out[1 + q + r->draw_atoms[a]] = r->draw_coef[a];
    out[m + q + 1] = fx[q + 1];
}
