/*
 * inverse.c: the explicit inverse A^{-1} kept up to date by block formulas
 * (linalg.h), and BLAS wrappers. Only the full square (both triangles) is
 * stored, so that a column of A^{-1} is contiguous.
 */
#include "linalg.h"

#include <math.h>
#include <string.h>
#include <threads.h>

#define AI(i, j) Ainv[(i) + (j) * ld]

void bsl_inv_append(double *Ainv, size_t k, size_t ld, const double *u, double s)
{
    const double is = 1.0 / s;
    for (size_t j = 0; j < k; j++) {
        for (size_t i = 0; i < k; i++) AI(i, j) += u[i] * u[j] * is;
        AI(k, j) = AI(j, k) = -u[j] * is;
    }
    AI(k, k) = is;
}

void bsl_inv_remove(double *Ainv, size_t k, size_t ld, size_t p)
{
    const double ipp = 1.0 / AI(p, p);
    if (k < ld) {
        /* one pass: column p saved in the free column k (rows 0..k), then
         * each entry downdated and moved to its place at once, columns in
         * order (a destination is never read again); the same arithmetic
         * as the two passes below */
        double *cp = Ainv + k * ld;
        memcpy(cp, Ainv + p * ld, k * sizeof *cp);
        for (size_t j = 0, jn = 0; j < k; j++) {
            if (j == p) continue;
            const double bj = AI(p, j) * ipp;
            const double *src = Ainv + j * ld;
            double *dst = Ainv + jn * ld;
            for (size_t i = 0; i < p; i++) dst[i] = src[i] - cp[i] * bj;
            for (size_t i = p + 1; i < k; i++) dst[i - 1] = src[i] - cp[i] * bj;
            jn++;
        }
        return;
    }
    /* rank-one downdate on all entries, then delete row and column p */
    for (size_t j = 0; j < k; j++) {
        if (j == p) continue;
        const double bj = AI(p, j) * ipp;
        for (size_t i = 0; i < k; i++)
            if (i != p) AI(i, j) -= AI(i, p) * bj;
    }
    for (size_t j = 0; j < k; j++) {
        const size_t jn = j < p ? j : j - 1;
        if (j == p) continue;
        for (size_t i = 0; i < k; i++) {
            if (i == p) continue;
            const size_t in = i < p ? i : i - 1;
            AI(in, jn) = AI(i, j);
        }
    }
}

/* A plain loop for the same reason as the solves in chol.c. */
void bsl_inv_apply(const double *Ainv, size_t k, size_t ld, const double *x, double *y)
{
    for (size_t i = 0; i < k; i++) y[i] = 0;
    for (size_t j = 0; j < k; j++) {
        const double *col = Ainv + j * ld;
        const double xj = x[j];
        for (size_t i = 0; i < k; i++) y[i] += col[i] * xj;
    }
}

/* A^{-1} = L^{-T} L^{-1} as LAPACK's dpotri forms it, in place in Ainv, in
 * k^3/3 multiplications (a third of solving for the k unit vectors), and
 * exactly symmetric. A plain loop for the same reason as factor_small in
 * chol.c.
 *  1. W = L^{-1} row by row into the upper triangle (row l of W in rows
 *     0..l of column l, contiguous): row l = (e_l - sum_{i<l} L_li W_i.) /
 *     L_ll, the rows i in increasing order.
 *  2. (W'W)_ij = sum_{l >= i} W_li W_lj for i >= j into the strictly lower
 *     triangle, column j by column j, the sums over l in increasing order,
 *     the diagonal (over W_jj) written last; then mirrored.
 * Each entry sees the operations, in the order, of the column-at-a-time
 * substitution and one dot product per entry (the same bits: test_chol
 * keeps that version), but the inner loops run along contiguous rows of W,
 * over many entries at once, instead of along one chain of dependent
 * divisions and additions (a refresh was a tenth of an rj move). */
int bsl_inv_from_chol(const bsl_chol *c, double *Ainv, size_t ld)
{
    const size_t k = c->k;
    /* Both steps take two rows of W per pass over the entries they update,
     * each entry's two terms in the order of the plain loop (first row i,
     * then i + 1): the same bits, with half the loads and stores of the
     * row being updated (the refits of the coefficient table, 20000 models
     * of k ~ 12, spend most of their time here). */
    for (size_t l = 0; l < k; l++) {
        double *wl = Ainv + l * ld; /* row l of W */
        for (size_t j = 0; j < l; j++) wl[j] = 0.0;
        wl[l] = 1.0;
        size_t i = 0;
        for (; i + 1 < l; i += 2) {
            const double a = c->L[l + i * c->cap], b = c->L[l + (i + 1) * c->cap];
            const double *wi = Ainv + i * ld, *wi1 = Ainv + (i + 1) * ld; /* rows i, i + 1: columns 0..i, 0..i+1 */
            for (size_t j = 0; j <= i; j++) wl[j] = (wl[j] - a * wi[j]) - b * wi1[j];
            wl[i + 1] -= b * wi1[i + 1];
        }
        for (; i < l; i++) {
            const double Lli = c->L[l + i * c->cap];
            const double *wi = Ainv + i * ld;
            for (size_t j = 0; j <= i; j++) wl[j] -= Lli * wi[j];
        }
        const double Lll = c->L[l + l * c->cap];
        for (size_t j = 0; j <= l; j++) wl[j] /= Lll;
    }
    for (size_t j = 0; j < k; j++) {
        double *sj = Ainv + j * ld; /* rows j+1.. of column j: free */
        for (size_t i = j + 1; i < k; i++) sj[i] = 0.0;
        double d = 0;
        size_t l = j;
        for (; l + 1 < k; l += 2) {
            const double *wl = Ainv + l * ld, *wl1 = Ainv + (l + 1) * ld;
            const double wlj = wl[j], wl1j = wl1[j];
            for (size_t i = j + 1; i <= l; i++) sj[i] = (sj[i] + wl[i] * wlj) + wl1[i] * wl1j;
            sj[l + 1] += wl1[l + 1] * wl1j;
            d = (d + wlj * wlj) + wl1j * wl1j;
        }
        for (; l < k; l++) {
            const double *wl = Ainv + l * ld;
            const double wlj = wl[j];
            for (size_t i = j + 1; i <= l; i++) sj[i] += wl[i] * wlj;
            d += wlj * wlj;
        }
        sj[j] = d; /* W_jj is not read after column j */
    }
    for (size_t j = 0; j < k; j++)
        for (size_t i = j + 1; i < k; i++) AI(j, i) = AI(i, j);
    for (size_t i = 0; i < k; i++)
        if (!(AI(i, i) > 0) || !isfinite(AI(i, i))) return BASEL_ENUMERIC;
    return BASEL_OK;
}

double bsl_dot(const double *x, const double *y, size_t n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0; /* four partial sums: vectorises, less rounding */
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i] * y[i];
        s1 += x[i + 1] * y[i + 1];
        s2 += x[i + 2] * y[i + 2];
        s3 += x[i + 3] * y[i + 3];
    }
    for (; i < n; i++) s0 += x[i] * y[i];
    return (s0 + s1) + (s2 + s3);
}

/* Four columns per pass: x is read once for four dot products, which halves
 * the memory traffic of the streaming designs' cross products (they were
 * half of a large kernel fit's time). */
void bsl_dots(const double *x, const double *cols, size_t ld, size_t k, size_t n, double *out)
{
    size_t i = 0;
    for (; i + 4 <= k; i += 4) {
        const double *c[4] = {cols + i * ld, cols + (i + 1) * ld, cols + (i + 2) * ld, cols + (i + 3) * ld};
        bsl_dots_of(x, c, 4, n, out + i);
    }
    for (; i < k; i++) out[i] = bsl_dot(x, cols + i * ld, n);
}

void bsl_dots_of(const double *x, const double *const *cols, size_t k, size_t n, double *out)
{
    size_t i = 0;
    for (; i + 4 <= k; i += 4) {
        const double *c0 = cols[i], *c1 = cols[i + 1], *c2 = cols[i + 2], *c3 = cols[i + 3];
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (size_t t = 0; t < n; t++) {
            const double xt = x[t];
            s0 += xt * c0[t];
            s1 += xt * c1[t];
            s2 += xt * c2[t];
            s3 += xt * c3[t];
        }
        out[i] = s0;
        out[i + 1] = s1;
        out[i + 2] = s2;
        out[i + 3] = s3;
    }
    for (; i < k; i++) {
        double s = 0;
        for (size_t t = 0; t < n; t++) s += x[t] * cols[i][t];
        out[i] = s;
    }
}

/* One panel of w <= 16 columns, rows of w values of type T: out[c] =
 * sum_t x_t X_tc, one running sum per column over t in order. Then
 * bsl_dots on the widened panels: its blocks of four are one running sum
 * a column, as here; its last k mod 4 columns are bsl_dot's, on the
 * widened column. One definition for each element type (float32, int8:
 * design.h's compact inputs). */
#define PANEL_DOTS(T, PANEL, DOTS)                                                                              \
    __attribute__((target_clones("avx2", "default"))) static void PANEL(const double *x, const T *panel,         \
                                                                        size_t n, size_t w, double *out)       \
    {                                                                                                          \
        double s[16] = {0};                                                                                    \
        if (w == 16) { /* a fixed width: the 16 sums stay in vector registers */                               \
            for (size_t t = 0; t < n; t++) {                                                                   \
                const double xt = x[t];                                                                        \
                const T *r = panel + t * 16;                                                                   \
                for (size_t c = 0; c < 16; c++) s[c] += xt * (double)r[c];                                     \
            }                                                                                                  \
        } else {                                                                                               \
            for (size_t t = 0; t < n; t++) {                                                                   \
                const double xt = x[t];                                                                        \
                const T *r = panel + t * w;                                                                    \
                for (size_t c = 0; c < w; c++) s[c] += xt * (double)r[c];                                      \
            }                                                                                                  \
        }                                                                                                      \
        memcpy(out, s, w * sizeof *out);                                                                       \
    }                                                                                                          \
    void DOTS(const double *x, const T *X, size_t n, size_t k, size_t P, double *out, double *col)             \
    {                                                                                                          \
        const size_t blocked = k / 4 * 4;                                                                      \
        for (size_t p0 = 0; p0 < k; p0 += P) {                                                                 \
            const size_t w = k - p0 < P ? k - p0 : P;                                                          \
            const T *panel = X + p0 * n;                                                                       \
            PANEL(x, panel, n, w, out + p0);                                                                   \
            for (size_t c = blocked > p0 ? blocked - p0 : 0; c < w; c++) {                                     \
                for (size_t t = 0; t < n; t++) col[t] = (double)panel[t * w + c];                              \
                out[p0 + c] = bsl_dot(x, col, n);                                                              \
            }                                                                                                  \
        }                                                                                                      \
    }

PANEL_DOTS(float, panel_dots_f32, bsl_dots_f32_panels)
PANEL_DOTS(int8_t, panel_dots_i8, bsl_dots_i8_panels)

/* 2-bit codes (design.h X2): a panel's row t is one 32-bit word, column c
 * in bits 2c and 2c + 1. Each byte of the word gives four columns' values
 * at once through a table of the 256 bytes' four values (8 KB, in L1), so
 * the 16 running sums advance as vector operations as above; each value
 * is a whole number 0..3, so the products and sums are the int8 panels'
 * bit for bit. */
static double two_bit_values[256][4];
static void two_bit_table(void)
{
    for (int b = 0; b < 256; b++)
        for (int u = 0; u < 4; u++) two_bit_values[b][u] = (double)((b >> (2 * u)) & 3);
}

__attribute__((target_clones("avx2", "default"))) static void panel_dots_2bit(const double *x, const uint32_t *panel,
                                                                              size_t n, size_t w, double *out)
{
    double s[16] = {0};
    for (size_t t = 0; t < n; t++) {
        const double xt = x[t];
        const uint32_t word = panel[t];
        for (size_t b = 0; b < 4; b++) {
            const double *v = two_bit_values[(word >> (8 * b)) & 255];
            for (size_t u = 0; u < 4; u++) s[4 * b + u] += xt * v[u];
        }
    }
    memcpy(out, s, w * sizeof *out);
}

void bsl_dots_2bit_panels(const double *x, const uint32_t *X2, size_t n, size_t k, double *out, double *col)
{
    static once_flag table_once = ONCE_FLAG_INIT;
    call_once(&table_once, two_bit_table);
    const size_t P = 16, blocked = k / 4 * 4;
    for (size_t p0 = 0; p0 < k; p0 += P) {
        const size_t w = k - p0 < P ? k - p0 : P;
        const uint32_t *panel = X2 + p0 / P * n;
        panel_dots_2bit(x, panel, n, w, out + p0);
        for (size_t c = blocked > p0 ? blocked - p0 : 0; c < w; c++) { /* bsl_dots's last k mod 4: bsl_dot */
            for (size_t t = 0; t < n; t++) col[t] = (double)((panel[t] >> (2 * c)) & 3);
            out[p0 + c] = bsl_dot(x, col, n);
        }
    }
}
