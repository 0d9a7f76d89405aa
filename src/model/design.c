/* design.c: projection of the always-in columns and the shared Gram
 * quantities (design.h). Cost O(n m (d + q)) once, plus O(n m^2) for the
 * dense Gram matrix when the run's work pays for it (gram_dense; BLAS dsyrk,
 * in panels with progress reports when large: at n = m = 4000 it is some
 * 6e10 flops, tens of seconds). */
#include "design.h"
#include "gram_rows.h"
#include "../linalg/linalg.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void bsl_design_free(bsl_design *D)
{
    if (!D) return;
    free(D->Q);
    free(D->R);
    free(D->Y);
    free(D->gy);
    free(D->yy);
    free(D->Bty);
    free(D->diag);
    free(D->gB);
    free(D->G);
    free(D->B);
    free(D->usable);
    bsl_gram_rows_free(D->rows);
    free(D);
}

/* t = Q' v and v -= Q t, as plain loops: q is small (1 + d at most) and
 * streaming designs call this from inside parallel chains, where a threaded
 * BLAS dgemv costs more in thread wake-ups than in flops. */
static void project_once(const bsl_design *D, double *v, double *t)
{
    const size_t n = D->n, q = D->q;
    for (size_t l = 0; l < q; l++) t[l] = bsl_dot(D->Q + l * n, v, n);
    for (size_t l = 0; l < q; l++) {
        const double *Ql = D->Q + l * n;
        const double tl = t[l];
        for (size_t i = 0; i < n; i++) v[i] -= Ql[i] * tl;
    }
}

/* v <- (I - Q Q') v, and coef <- R^{-1} Q' v (q entries) if coef != NULL.
 * Two passes of classical Gram-Schmidt ("twice is enough") keep the
 * projection orthogonal to working precision. */
static void project(const bsl_design *D, double *v, double *coef, double *work)
{
    const size_t q = D->q;
    double *t = work, *t2 = work + q;
    project_once(D, v, t);
    project_once(D, v, t2);
    if (coef) {
        for (size_t i = 0; i < q; i++) coef[i] = t[i] + t2[i];
        /* back substitution with the upper triangular R */
        for (size_t i = q; i-- > 0;) {
            double c = coef[i];
            for (size_t j = i + 1; j < q; j++) c -= D->R[i + j * q] * coef[j];
            coef[i] = c / D->R[i + i * q];
        }
    }
}

void bsl_design_raw_column(const bsl_design *D, size_t j, double *out)
{
    if (D->blocks) { /* its block's process holds it */
        D->blocks->column(D->blocks->ctx, j, 0, out);
        return;
    }
    if (D->X2) { /* a linear dictionary's atom j is input column j, in its panel's words */
        const uint32_t *panel = D->X2 + j / BSL_F32_PANEL * D->n;
        const unsigned shift = 2 * (unsigned)(j % BSL_F32_PANEL);
        for (size_t i = 0; i < D->n; i++) out[i] = (double)((panel[i] >> shift) & 3);
        return;
    }
    if (bsl_design_compact(D)) { /* as float32 or int8, in its panel */
        const size_t n = D->n, d = D->m, w = bsl_f32_width(d, j / BSL_F32_PANEL * BSL_F32_PANEL);
        const size_t at = bsl_f32_at(n, d, 0, j);
        if (D->X8)
            for (size_t i = 0; i < n; i++) out[i] = (double)D->X8[at + i * w];
        else
            for (size_t i = 0; i < n; i++) out[i] = (double)D->X32[at + i * w];
        return;
    }
    bsl_dict_eval(D->dict, j, D->X, D->n, D->n, out);
}

/* Panel by panel through a buffer: panel p's values (size bytes each)
 * land in bytes [size P p n, size P (p + 1) n), below its own doubles,
 * which start at 8 P p n and are read into the buffer first, and below
 * every later panel's; then X's block is shrunk to n d values. */
static void *pack_panels(double *X, size_t n, size_t d, size_t size)
{
    unsigned char *buf = malloc(BSL_F32_PANEL * BSL_MAX(n, (size_t)1) * size);
    if (!buf) return NULL;
    unsigned char *bytes = (unsigned char *)X;
    for (size_t p0 = 0; p0 < d; p0 += BSL_F32_PANEL) {
        const size_t w = bsl_f32_width(d, p0);
        for (size_t c = 0; c < w; c++) {
            const double *x = X + (p0 + c) * n;
            if (size == sizeof(float))
                for (size_t t = 0; t < n; t++) ((float *)buf)[t * w + c] = (float)x[t];
            else
                for (size_t t = 0; t < n; t++) ((int8_t *)buf)[t * w + c] = (int8_t)x[t];
        }
        memcpy(bytes + p0 * n * size, buf, w * n * size);
    }
    free(buf);
    void *shrunk = realloc(X, n * d * size + 1);
    return shrunk ? shrunk : (void *)bytes;
}

float *bsl_f32_pack(double *X, size_t n, size_t d) { return pack_panels(X, n, d, sizeof(float)); }

int8_t *bsl_i8_pack(double *X, size_t n, size_t d) { return pack_panels(X, n, d, sizeof(int8_t)); }

/* 2-bit panels (design.h) of the value at(src, t, j) of row t, column j */
static uint32_t *pack_2bit(const void *src, double (*at)(const void *, size_t, size_t, size_t), size_t n,
                           size_t d)
{
    const size_t panels = (d + BSL_F32_PANEL - 1) / BSL_F32_PANEL;
    uint32_t *X2 = bsl_calloc(panels * n + 1, sizeof *X2);
    if (!X2) return NULL;
    for (size_t j = 0; j < d; j++) {
        uint32_t *panel = X2 + j / BSL_F32_PANEL * n;
        const unsigned shift = 2 * (unsigned)(j % BSL_F32_PANEL);
        for (size_t t = 0; t < n; t++) panel[t] |= ((uint32_t)at(src, n, t, j) & 3u) << shift;
    }
    return X2;
}

static double double_at(const void *X, size_t n, size_t t, size_t j) { return ((const double *)X)[j * n + t]; }
static double code_at(const void *X8, size_t n, size_t t, size_t j) { return ((const int8_t *)X8)[j * n + t]; }

uint32_t *bsl_2bit_pack(double *X, size_t n, size_t d)
{
    uint32_t *X2 = pack_2bit(X, double_at, n, d);
    if (X2) free(X);
    return X2;
}

uint32_t *bsl_2bit_codes(int8_t *X8, size_t n, size_t d)
{
    uint32_t *X2 = pack_2bit(X8, code_at, n, d);
    if (X2) free(X8);
    return X2;
}

int bsl_i8_panels(int8_t *X8, size_t n, size_t d)
{
    int8_t *buf = malloc(BSL_F32_PANEL * BSL_MAX(n, (size_t)1));
    if (!buf) return 0;
    for (size_t p0 = 0; p0 < d; p0 += BSL_F32_PANEL) {
        const size_t w = bsl_f32_width(d, p0);
        int8_t *panel = X8 + p0 * n;
        memcpy(buf, panel, w * n);
        for (size_t c = 0; c < w; c++)
            for (size_t t = 0; t < n; t++) panel[t * w + c] = buf[c * n + t];
    }
    free(buf);
    return 1;
}

void bsl_design_column(const bsl_design *D, size_t j, double *out)
{
    if (D->blocks) { /* projected where it lives: the same Q, the same bits */
        D->blocks->column(D->blocks->ctx, j, 1, out);
        return;
    }
    if (D->B) {
        memcpy(out, D->B + j * D->n, D->n * sizeof *out);
        return;
    }
    double work[2 * 64];
    bsl_design_raw_column(D, j, out);
    project(D, out, NULL, work);
}

void bsl_design_project(const bsl_design *D, double *col, double *coef)
{
    double work[2 * 64];
    project(D, col, coef, work);
}

/* Z = [1, X if linear term], then Q R by LAPACK. */
static int always_in(bsl_design *D, basel_error *err)
{
    const size_t n = D->n, d = D->dict->d, q = D->q;
    D->Q = bsl_malloc(n * q, sizeof(double));
    D->R = bsl_calloc(q * q, sizeof(double));
    double *tau = bsl_malloc(q, sizeof(double));
    if (!D->Q || !D->R || !tau) {
        free(tau);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) D->Q[i] = 1.0;
    if (q > 1) memcpy(D->Q + n, D->X, n * d * sizeof(double));
    int info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)n, (int)q, D->Q, (int)n, tau);
    for (size_t j = 0; j < q && info == 0; j++)
        for (size_t i = 0; i <= j; i++) D->R[i + j * q] = D->Q[i + j * n];
    for (size_t j = 0; j < q && info == 0; j++)
        if (!(fabs(D->R[j + j * q]) > 1e-10 * fabs(D->R[0]) * sqrt((double)n)))
            info = -1000;
    if (info == 0) info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, (int)n, (int)q, (int)q, D->Q, (int)n, tau);
    free(tau);
    if (info != 0)
        return bsl_fail(err, BASEL_ENUMERIC, "the always-in columns (intercept%s) are collinear",
                        q > 1 ? " and linear term" : "");
    return BASEL_OK;
}

static int targets(bsl_design *D, const double *Y)
{
    const size_t n = D->n, c = D->c, q = D->q;
    D->Y = bsl_malloc(n * c, sizeof(double));
    D->gy = bsl_malloc(q * c, sizeof(double));
    D->yy = bsl_malloc(c, sizeof(double));
    if (!D->Y || !D->gy || !D->yy) return BASEL_ENOMEM;
    double work[2 * 64];
    for (size_t o = 0; o < c; o++) {
        double *y = D->Y + o * n;
        memcpy(y, Y + o * n, n * sizeof *y);
        double coef[64];
        project(D, y, coef, work);
        for (size_t i = 0; i < q; i++) D->gy[i * c + o] = coef[i];
        D->yy[o] = bsl_dot(y, y, n);
    }
    return BASEL_OK;
}

/* G's lower triangle from B (n x m): one dsyrk when it is cheap, else in
 * panels of columns (a dsyrk for the diagonal block, a dgemm below it), with
 * a "gram" report after each; same flops, and each entry is still one dot
 * product of two columns. 0, or BASEL_ECANCELLED when pr asks. */
#define GRAM_PANEL 128
#define GRAM_ONE_CALL 1e9 /* n m^2 below this (about a second or less): one call, no report */
static int gram(bsl_design *D, const bsl_progress *pr)
{
    const size_t n = D->n, m = D->m;
    /* by size only, never by whether anyone listens: the same fit gives the
     * same bits with or without --quiet */
    if ((double)n * (double)m * (double)m < GRAM_ONE_CALL) {
        cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, (int)m, (int)n, 1.0, D->B, (int)n, 0.0, D->G, (int)m);
        return BASEL_OK;
    }
    const double total = (double)m * ((double)m + 1) / 2;
    double done = 0;
    if (bsl_progress_report(pr, "gram", "entries", 0, total)) return BASEL_ECANCELLED;
    for (size_t j0 = 0; j0 < m; j0 += GRAM_PANEL) {
        const size_t nb = m - j0 < GRAM_PANEL ? m - j0 : GRAM_PANEL, rest = m - j0 - nb;
        cblas_dsyrk(CblasColMajor, CblasLower, CblasTrans, (int)nb, (int)n, 1.0, D->B + j0 * n, (int)n, 0.0,
                    D->G + j0 + j0 * m, (int)m);
        if (rest)
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)rest, (int)nb, (int)n, 1.0,
                        D->B + (j0 + nb) * n, (int)n, D->B + j0 * n, (int)n, 0.0, D->G + (j0 + nb) + j0 * m,
                        (int)m);
        done += (double)nb * ((double)nb + 1) / 2 + (double)rest * (double)nb;
        if (bsl_progress_report(pr, "gram", "entries", done, total)) return BASEL_ECANCELLED;
    }
    return BASEL_OK;
}

/* Dense Gram matrix or streamed columns (issue 18 item 1), the one place
 * that decides, from the sizes and the run's expected work only (never the
 * memory at hand, the thread count or the time), so the same fit makes the
 * same choice and gives the same answer for the same seed:
 *   dense    one dsyrk, n m (m + 1) / 2 multiply-adds, then O(k) per
 *            evaluation (a lookup of k cross products);
 *   streamed per evaluation the atom's column against the ~k active ones,
 *            n (k + 1) multiply-adds, k taken as BSL_STREAM_K (the column
 *            itself comes from the model's cache of columns by atom, so
 *            atoms tried again cost no dictionary evaluation).
 * Dense when it fits in gram_budget and n m (m + 1) / 2 <= evaluations n
 * BSL_STREAM_K, i.e. m (m + 1) / 2 <= BSL_STREAM_K evaluations: a kernel at
 * each of n = 2000 points with 10^5 evaluations streams (the dense set-up
 * alone took 4.3 CPU-s of a 5.1 CPU-s fit), p = 100 inputs with 10^5
 * evaluations is dense. evaluations = 0 means unknown: dense whenever it
 * fits. */
#define BSL_STREAM_K 8.0
static int gram_dense(size_t n, size_t m, double evaluations, size_t gram_budget)
{
    const double bytes = 8.0 * ((double)n * (double)m + (double)m * (double)m);
    /* within the budget the Gram is cached, or the fit fails: streaming
     * instead would change its last digits with the memory at hand */
    if (bytes > (double)gram_budget) return 0;
    if (!(evaluations > 0)) return 1;
    return 0.5 * (double)m * ((double)m + 1) <= BSL_STREAM_K * evaluations;
}

#define PANEL_BUFFER_MAX (64.0 * 1048576.0) /* bytes: atoms()'s widened panel */

/* The atoms' columns at the training points, projected, and what every
 * model reads of them; "columns" reports to pr every 1/256 of them.
 * BASEL_ENOMEM, BASEL_ECANCELLED. */
static int atoms(bsl_design *D, size_t gram_budget, double evaluations, const bsl_progress *pr)
{
    const size_t n = D->n, m = D->m, c = D->c, q = D->q;
    D->Bty = bsl_malloc(m * c, sizeof(double));
    D->diag = bsl_malloc(m, sizeof(double));
    D->gB = bsl_malloc(m * q, sizeof(double));
    D->usable = bsl_malloc(m, 1);
    double *col = bsl_malloc(n, sizeof(double));
    const int cached = gram_dense(n, m, evaluations, gram_budget);
    /* a streamed kernel design keeps its projected columns when they fit
     * the budget: a chain's evaluation then copies a column instead of
     * evaluating the dictionary again (n exp() for a kernel: at sinc
     * n = 4000, a quarter of the fit), the same bits; above it, columns
     * are recomputed (the models' caches, colstore.c). Not a linear one:
     * its column is a copy of X's already, and keeping them would double
     * the memory of a table read from a pipe (test_read.sh) */
    const int keep = cached || (D->dict->kind != BSL_BASIS_LINEAR &&
                                8.0 * (double)n * (double)m <= (double)gram_budget);
    if (keep) D->B = bsl_malloc(n * m, sizeof(double));
    /* float32 inputs: a panel's columns widened together, in one pass over
     * its rows (a column alone reads a cache line per row), when that
     * buffer is small; a tall design (n = 5.5 million rows: 704 MB, more
     * than X32 itself) reads column by column */
    const int by_panel =
        bsl_design_compact(D) && (double)BSL_F32_PANEL * (double)n * sizeof(double) <= PANEL_BUFFER_MAX;
    double *panel = by_panel ? bsl_malloc(BSL_F32_PANEL * n, sizeof(double)) : NULL;
    if (!D->Bty || !D->diag || !D->gB || !D->usable || !col || (keep && !D->B) || (by_panel && !panel)) {
        free(col);
        free(panel);
        return BASEL_ENOMEM;
    }
    double work[2 * 64];
    const size_t every = m / 256 > 0 ? m / 256 : 1;
    for (size_t j = 0; j < m; j++) {
        if (j % every == 0 && bsl_progress_report(pr, "columns", "columns", (double)j, (double)m)) {
            free(col);
            free(panel);
            return BASEL_ECANCELLED;
        }
        if (panel) { /* bsl_design_raw_column's values, a panel at a time */
            const size_t p0 = j / BSL_F32_PANEL * BSL_F32_PANEL, w = bsl_f32_width(m, p0);
            if (j == p0) {
                if (D->X2)
                    for (size_t t = 0; t < n; t++) {
                        const uint32_t word = D->X2[p0 / BSL_F32_PANEL * n + t];
                        for (size_t u = 0; u < w; u++) panel[u * n + t] = (double)((word >> (2 * u)) & 3);
                    }
                else if (D->X8)
                    for (size_t t = 0; t < n; t++)
                        for (size_t u = 0; u < w; u++) panel[u * n + t] = (double)D->X8[p0 * n + t * w + u];
                else
                    for (size_t t = 0; t < n; t++)
                        for (size_t u = 0; u < w; u++) panel[u * n + t] = (double)D->X32[p0 * n + t * w + u];
            }
            memcpy(col, panel + (j - p0) * n, n * sizeof *col);
        } else {
            bsl_design_raw_column(D, j, col);
        }
        const double raw = bsl_dot(col, col, n);
        project(D, col, D->gB + j * q, work);
        D->diag[j] = bsl_dot(col, col, n);
        /* an atom left with less than 1e-10 of its norm after projection is
         * a copy of the always-in columns: it can never enter a model */
        D->usable[j] = D->diag[j] > 1e-10 * raw;
        for (size_t o = 0; o < c; o++) D->Bty[j * c + o] = bsl_dot(col, D->Y + o * n, n);
        if (D->B) memcpy(D->B + j * n, col, n * sizeof *col);
    }
    free(col);
    free(panel);
    if (m && bsl_progress_report(pr, "columns", "columns", (double)m, (double)m)) return BASEL_ECANCELLED;
    if (cached) {
        D->G = bsl_malloc(m * m, sizeof(double));
        if (!D->G) return BASEL_ENOMEM;
        if (gram(D, pr)) return BASEL_ECANCELLED;
        for (size_t j = 0; j < m; j++)
            for (size_t i = j + 1; i < m; i++) D->G[j + i * m] = D->G[i + j * m];
        /* every model reads G from here on; a column, when one is needed,
         * is recomputed from the dictionary: no need to keep n x m doubles */
        free(D->B);
        D->B = NULL;
    } else if (!(D->rows = bsl_gram_rows_create(n, m, gram_budget))) {
        return BASEL_ENOMEM;
    }
    return BASEL_OK;
}

int bsl_design_create_plain(bsl_design **out, size_t n, const double *Y, size_t c, basel_error *err)
{
    *out = NULL;
    bsl_design *D = calloc(1, sizeof *D);
    if (!D) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    D->n = n;
    D->c = c;
    if (targets(D, Y)) {
        bsl_design_free(D);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    *out = D;
    return BASEL_OK;
}

void bsl_design_set_targets(bsl_design *D, const double *Y)
{
    const size_t n = D->n, c = D->c, q = D->q;
    double work[2 * 64], coef[64];
    for (size_t o = 0; o < c; o++) {
        double *y = D->Y + o * n;
        memcpy(y, Y + o * n, n * sizeof *y);
        project(D, y, coef, work);
        for (size_t i = 0; i < q; i++) D->gy[i * c + o] = coef[i];
        D->yy[o] = bsl_dot(y, y, n);
    }
}

void bsl_design_add_row(bsl_design *D, const double *y)
{
    D->n++;
    for (size_t o = 0; o < D->c; o++) D->yy[o] += y[o] * y[o];
}

int bsl_design_create(bsl_design **out, const bsl_dict *dict, const double *X, size_t n,
                      const double *Y, size_t c, size_t gram_budget, basel_error *err)
{
    return bsl_design_create_for(out, dict, X, n, Y, c, gram_budget, 0, NULL, err);
}

static int create(bsl_design **out, const bsl_dict *dict, const double *X, const float *X32, const int8_t *X8,
                  const uint32_t *X2, size_t n, const double *Y, size_t c, size_t gram_budget, double evaluations,
                  const bsl_progress *pr, basel_error *err);

int bsl_design_create_for(bsl_design **out, const bsl_dict *dict, const double *X, size_t n,
                          const double *Y, size_t c, size_t gram_budget, double evaluations,
                          const bsl_progress *pr, basel_error *err)
{
    return create(out, dict, X, NULL, NULL, NULL, n, Y, c, gram_budget, evaluations, pr, err);
}

int bsl_design_create_f32(bsl_design **out, const bsl_dict *dict, const float *X32, size_t n, const double *Y,
                          size_t c, size_t gram_budget, double evaluations, const bsl_progress *pr,
                          basel_error *err)
{
    return create(out, dict, NULL, X32, NULL, NULL, n, Y, c, gram_budget, evaluations, pr, err);
}

int bsl_design_create_2bit(bsl_design **out, const bsl_dict *dict, const uint32_t *X2, size_t n, const double *Y,
                           size_t c, size_t gram_budget, double evaluations, const bsl_progress *pr,
                           basel_error *err)
{
    return create(out, dict, NULL, NULL, NULL, X2, n, Y, c, gram_budget, evaluations, pr, err);
}

int bsl_design_create_i8(bsl_design **out, const bsl_dict *dict, const int8_t *X8, size_t n, const double *Y,
                         size_t c, size_t gram_budget, double evaluations, const bsl_progress *pr,
                         basel_error *err)
{
    return create(out, dict, NULL, NULL, X8, NULL, n, Y, c, gram_budget, evaluations, pr, err);
}

static int create(bsl_design **out, const bsl_dict *dict, const double *X, const float *X32, const int8_t *X8,
                  const uint32_t *X2, size_t n, const double *Y, size_t c, size_t gram_budget, double evaluations,
                  const bsl_progress *pr, basel_error *err)
{
    *out = NULL;
    if ((X32 || X8 || X2) && (dict->kind != BSL_BASIS_LINEAR || dict->linear_term))
        return bsl_fail(err, BASEL_EINTERNAL, "compact inputs are for a linear dictionary only");
    const size_t q = 1 + (dict->linear_term ? dict->d : 0);
    if (q > 64) return bsl_fail(err, BASEL_EINVAL, "a linear term over more than 63 inputs is not supported");
    if (n <= q + 1)
        return bsl_fail(err, BASEL_EINVAL, "%zu rows are too few: need more than %zu", n, q + 1);
    bsl_design *D = calloc(1, sizeof *D);
    if (!D) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    D->n = n;
    D->m = dict->m;
    D->c = c;
    D->q = q;
    D->dict = dict;
    D->X = X;
    D->X32 = X32;
    D->X8 = X8;
    D->X2 = X2;
    int rc = always_in(D, err);
    if (!rc && targets(D, Y)) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    if (!rc) {
        const int a = atoms(D, gram_budget, evaluations, pr);
        if (a) rc = bsl_fail(err, a, a == BASEL_ECANCELLED ? "cancelled" : "out of memory");
    }
    if (rc) {
        bsl_design_free(D);
        return rc;
    }
    *out = D;
    return BASEL_OK;
}

int bsl_design_create_held(bsl_design **out, const bsl_dict *dict, const double *X, const float *X32,
                           const int8_t *X8, const uint32_t *X2, size_t n, const double *Y, size_t c,
                           size_t gram_budget, double evaluations, const bsl_progress *pr, basel_error *err)
{
    if (X32) return bsl_design_create_f32(out, dict, X32, n, Y, c, gram_budget, evaluations, pr, err);
    if (X2) return bsl_design_create_2bit(out, dict, X2, n, Y, c, gram_budget, evaluations, pr, err);
    if (X8) return bsl_design_create_i8(out, dict, X8, n, Y, c, gram_budget, evaluations, pr, err);
    return bsl_design_create_for(out, dict, X, n, Y, c, gram_budget, evaluations, pr, err);
}

int bsl_design_create_blocks(bsl_design **out, const bsl_dict *dict, const bsl_column_blocks *blocks, size_t n,
                             const double *Y, size_t c, size_t gram_budget, const bsl_progress *pr,
                             basel_error *err)
{
    *out = NULL;
    if (dict->kind != BSL_BASIS_LINEAR || dict->linear_term)
        return bsl_fail(err, BASEL_EINTERNAL, "inputs in blocks are for a linear dictionary only");
    if (n <= 2) return bsl_fail(err, BASEL_EINVAL, "%zu rows are too few: need more than 2", n);
    bsl_design *D = calloc(1, sizeof *D);
    if (!D) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    D->n = n;
    D->m = dict->m;
    D->c = c;
    D->q = 1;
    D->dict = dict;
    D->blocks = blocks;
    int rc = always_in(D, err);
    if (!rc && targets(D, Y)) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const size_t m = D->m;
    if (!rc && bsl_progress_report(pr, "columns", "columns", 0, (double)m))
        rc = bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    if (!rc) {
        D->Bty = bsl_malloc(m * c + 1, sizeof(double));
        D->diag = bsl_malloc(m + 1, sizeof(double));
        D->gB = bsl_malloc(m + 1, sizeof(double));
        D->usable = bsl_malloc(m + 1, 1);
        D->rows = bsl_gram_rows_create(n, m, gram_budget);
        if (!D->Bty || !D->diag || !D->gB || !D->usable || !D->rows) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (!rc && blocks->setup(blocks->ctx, D))
        rc = bsl_fail(err, BASEL_EIO, "the processes holding the input blocks did not answer");
    if (!rc && bsl_progress_report(pr, "columns", "columns", (double)m, (double)m))
        rc = bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    if (rc) {
        bsl_design_free(D);
        return rc;
    }
    *out = D;
    return BASEL_OK;
}

int bsl_design_group_view(bsl_design **out, const bsl_design *base, const size_t *start, size_t ng,
                          basel_error *err)
{
    *out = NULL;
    if (start[ng] != base->m) return bsl_fail(err, BASEL_EINVAL, "the groups do not cover the design's atoms");
    bsl_design *V = calloc(1, sizeof *V);
    if (!V) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const size_t c = base->c;
    V->n = base->n;
    V->m = ng;
    V->c = c;
    V->q = base->q;
    V->base = base;
    V->group_start = start;
    V->yy = bsl_malloc(c, sizeof *V->yy);
    V->Bty = bsl_calloc(ng * c + 1, sizeof *V->Bty);
    V->diag = bsl_malloc(ng + 1, sizeof *V->diag);
    V->usable = bsl_malloc(ng + 1, 1);
    if (!V->yy || !V->Bty || !V->diag || !V->usable) {
        bsl_design_free(V);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    memcpy(V->yy, base->yy, c * sizeof *V->yy);
    for (size_t g = 0; g < ng; g++) {
        V->diag[g] = 1.0;
        V->usable[g] = start[g + 1] > start[g];
        for (size_t j = start[g]; j < start[g + 1]; j++) V->usable[g] &= base->usable[j];
        for (size_t o = 0; o < c; o++) {
            double r2 = 0;
            for (size_t j = start[g]; j < start[g + 1]; j++)
                r2 += base->Bty[j * c + o] * base->Bty[j * c + o] / (base->diag[j] * base->yy[o]);
            V->Bty[g * c + o] = sqrt(r2 * base->yy[o]);
        }
    }
    *out = V;
    return BASEL_OK;
}
