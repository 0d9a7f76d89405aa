/* dict.c: building dictionaries from --basis specs and evaluating atoms
 * (basis.h). */
#include "basis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"linear",   "gauss",     "cubic", "tps",
                                         "lin-rbf",  "legendre",  "chebyshev",
                                         "sine",     "cosine",    "poly"};

const char *bsl_basis_name(bsl_basis_kind kind) { return kind_names[kind]; }

int bsl_basis_kind_from_name(const char *name)
{
    for (int i = 0; i < (int)(sizeof kind_names / sizeof *kind_names); i++)
        if (strcmp(name, kind_names[i]) == 0) return i;
    return -1;
}

int bsl_basis_is_radial(bsl_basis_kind kind) { return kind >= BSL_BASIS_GAUSS && kind <= BSL_BASIS_LINRBF; }

static int is_family(bsl_basis_kind kind) { return kind >= BSL_BASIS_LEGENDRE; }

int bsl_dict_make(bsl_dict **out, bsl_basis_kind kind, size_t d, size_t m, double width,
                  const double *centres, double lo, double hi, int linear_term)
{
    bsl_dict *dict = calloc(1, sizeof *dict);
    if (!dict) return BASEL_ENOMEM;
    dict->kind = kind;
    dict->d = d;
    dict->m = m;
    dict->width = width;
    dict->lo = lo;
    dict->hi = hi;
    dict->linear_term = linear_term;
    if (bsl_basis_is_radial(kind)) {
        dict->centres = bsl_malloc(m * d, sizeof(double));
        if (!dict->centres) {
            free(dict);
            return BASEL_ENOMEM;
        }
        memcpy(dict->centres, centres, m * d * sizeof(double));
    }
    *out = dict;
    return BASEL_OK;
}

/* The median distance between the rows of X under the relevance factors
 * scale (NULL: as given); r=auto's delta. */
static double scaled_median_distance(const double *X, size_t n, size_t d, const double *scale)
{
    if (!scale) return bsl_dict_median_distance(X, n, d);
    double *Xs = bsl_malloc(n * d, sizeof *Xs);
    if (!Xs) return 1.0; /* only the grid's scale, as bsl_dict_median_distance's own failure */
    for (size_t a = 0; a < d; a++)
        for (size_t i = 0; i < n; i++) Xs[a * n + i] = X[a * n + i] * scale[a];
    const double delta = bsl_dict_median_distance(Xs, n, d);
    free(Xs);
    return delta;
}

int bsl_dict_create(bsl_dict **out, const char *text, const double *X, size_t n, size_t d,
                    basel_error *err)
{
    return bsl_dict_create_scaled(out, text, X, n, d, NULL, err);
}

int bsl_dict_create_scaled(bsl_dict **out, const char *text, const double *X, size_t n, size_t d,
                           const double *scale, basel_error *err)
{
    bsl_spec s;
    int rc = bsl_spec_parse(&s, "basis", text, err);
    if (rc) return rc;
    int kind = bsl_basis_kind_from_name(s.name);
    if (kind < 0) return bsl_spec_unknown(&s, BSL_BASIS_NAMES, err);
    double width = 1, mm = 0, lin = 0;
    double widths[BSL_DICT_MAX_WIDTHS];
    size_t nw = 1;
    const char *accepted = "linear-term";
    if (kind == BSL_BASIS_GAUSS) {
        accepted = "r, linear-term";
        /* no r, or r=auto: the grid of basis.h */
        int autow = !bsl_spec_has(&s, "r");
        if (!autow) {
            bsl_spec peek = s;
            autow = strcmp(bsl_spec_text(&peek, "r"), "auto") == 0;
            if (autow) (void)bsl_spec_text(&s, "r");
        }
        if (autow) {
            /* the grid of basis.h: {1/4, 1/2, 1, 2} x the median distance */
            const double delta = scaled_median_distance(X, n, d, scale);
            nw = 4;
            for (size_t a = 0; a < nw; a++) widths[a] = delta * ldexp(1.0, (int)a - 2);
        } else if ((rc = bsl_spec_list(&s, "r", BSL_DICT_MAX_WIDTHS, 1e-300, 1e300, widths, &nw, err))) {
            return rc;
        }
        for (size_t a = 0; a < nw; a++)
            for (size_t b = 0; b < a; b++)
                if (widths[a] == widths[b])
                    return bsl_fail(err, BASEL_EINVAL, "--basis gauss: width r=%g is given twice", widths[a]);
        width = widths[0];
    } else if (is_family((bsl_basis_kind)kind)) {
        accepted = "m, lo, hi, linear-term";
        if ((rc = bsl_spec_double(&s, "m", 10, 1, 1000, &mm, err))) return rc;
        if (mm != floor(mm)) return bsl_fail(err, BASEL_EINVAL, "--basis %s: m must be a whole number", s.name);
        if (d != 1)
            return bsl_fail(err, BASEL_EINVAL,
                            "--basis %s is a 1-D family: it needs exactly one input, the data has %zu "
                            "(choose one with --inputs)", s.name, d);
    } else if (kind == BSL_BASIS_LINEAR) {
        accepted = "";
    }
    if (kind != BSL_BASIS_LINEAR && (rc = bsl_spec_double(&s, "linear-term", 0, 0, 1, &lin, err)))
        return rc;
    size_t m = kind == BSL_BASIS_LINEAR ? d : is_family((bsl_basis_kind)kind) ? (size_t)mm : n * nw;
    double lo = 0, hi = 0;
    double *centres = NULL;
    if (bsl_basis_is_radial((bsl_basis_kind)kind)) {
        centres = bsl_malloc(m * d, sizeof *centres);
        if (!centres) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
        for (size_t w = 0; w < nw; w++)
            for (size_t i = 0; i < n; i++)
                for (size_t a = 0; a < d; a++) centres[(w * n + i) * d + a] = X[a * n + i];
    } else if (is_family((bsl_basis_kind)kind)) {
        /* the interval mapped to [-1, 1]: given, or the training range (high
         * degrees explode outside it, so give the domain when it is known) */
        double dlo = X[0], dhi = X[0];
        for (size_t i = 1; i < n; i++) dlo = fmin(dlo, X[i]), dhi = fmax(dhi, X[i]);
        if ((rc = bsl_spec_double(&s, "lo", dlo, -1e300, 1e300, &lo, err)) ||
            (rc = bsl_spec_double(&s, "hi", dhi, -1e300, 1e300, &hi, err)))
            return rc;
        if (!(hi > lo)) return bsl_fail(err, BASEL_EINVAL, "--basis %s: the interval [lo, hi] is empty", s.name);
    }
    if ((rc = bsl_spec_finish(&s, accepted, err))) {
        free(centres);
        return rc;
    }
    rc = bsl_dict_make(out, (bsl_basis_kind)kind, d, m, width, centres, lo, hi, lin != 0);
    free(centres);
    if (!rc && nw > 1) {
        double *per = bsl_malloc(m, sizeof *per);
        if (!per) rc = BASEL_ENOMEM;
        for (size_t j = 0; j < m && per; j++) per[j] = widths[j / n];
        if (!rc) rc = bsl_dict_set_widths(*out, per);
        free(per);
        if (rc) bsl_dict_free(*out), *out = NULL;
        else (*out)->per_scale = n;
    }
    if (!rc && scale && bsl_basis_is_radial((bsl_basis_kind)kind) && (rc = bsl_dict_set_input_scale(*out, scale)))
        bsl_dict_free(*out), *out = NULL;
    if (rc) return bsl_fail(err, rc, "out of memory");
    return BASEL_OK;
}

int bsl_dict_set_widths(bsl_dict *dict, const double *widths)
{
    free(dict->widths);
    dict->widths = bsl_malloc(dict->m, sizeof *dict->widths);
    if (!dict->widths) return BASEL_ENOMEM;
    memcpy(dict->widths, widths, dict->m * sizeof *widths);
    dict->width = widths[0];
    return BASEL_OK;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bsl_dict_median_distance(const double *X, size_t n, size_t d)
{
    const size_t cap = 1000, s = n > cap ? cap : n, stride = n > cap ? n / cap : 1;
    const size_t np = s * (s - 1) / 2;
    if (np == 0) return 1.0;
    double *dist = bsl_malloc(np, sizeof *dist);
    if (!dist) return 1.0; /* only the grid's scale; a fit then still runs */
    size_t t = 0;
    for (size_t i = 0; i < s; i++)
        for (size_t j = 0; j < i; j++) {
            double r2 = 0;
            for (size_t a = 0; a < d; a++) {
                const double diff = X[a * n + i * stride] - X[a * n + j * stride];
                r2 += diff * diff;
            }
            dist[t++] = sqrt(r2);
        }
    qsort(dist, np, sizeof *dist, cmp_double);
    const double med = np % 2 ? dist[np / 2] : 0.5 * (dist[np / 2 - 1] + dist[np / 2]);
    free(dist);
    return med > 0 && isfinite(med) ? med : 1.0;
}

void bsl_dict_free(bsl_dict *dict)
{
    if (!dict) return;
    free(dict->widths);
    free(dict->centres);
    free(dict->input_scale);
    free(dict);
}

static double radial(bsl_basis_kind kind, double r2, double width)
{
    switch (kind) {
    case BSL_BASIS_GAUSS: return exp(-r2 / (2 * width * width));
    case BSL_BASIS_CUBIC: return r2 * sqrt(r2);
    case BSL_BASIS_TPS: return r2 > 0 ? 0.5 * r2 * log(r2) : 0.0; /* r^2 log r */
    case BSL_BASIS_LINRBF: break;
    case BSL_BASIS_LINEAR: /* not radial: never asked */
    case BSL_BASIS_LEGENDRE:
    case BSL_BASIS_CHEBYSHEV:
    case BSL_BASIS_SINE:
    case BSL_BASIS_COSINE:
    case BSL_BASIS_POLY: break;
    }
    return sqrt(r2); /* lin-rbf */
}

/* Degree-j member of a 1-D family at x rescaled from [lo, hi]. Legendre and
 * Chebyshev by their three-term recurrences on t in [-1, 1]. */
static double family(const bsl_dict *dict, size_t j, double x)
{
    const double t = 2 * (x - dict->lo) / (dict->hi - dict->lo) - 1;
    const double u = (t + 1) / 2;
    switch (dict->kind) {
    case BSL_BASIS_SINE: return sin((double)j * M_PI * u);
    case BSL_BASIS_COSINE: return cos((double)j * M_PI * u);
    case BSL_BASIS_POLY: return pow(t, (double)j);
    case BSL_BASIS_LEGENDRE:
    case BSL_BASIS_CHEBYSHEV: break; /* the recurrences below */
    case BSL_BASIS_LINEAR: /* not a 1-D family: never asked */
    case BSL_BASIS_GAUSS:
    case BSL_BASIS_CUBIC:
    case BSL_BASIS_TPS:
    case BSL_BASIS_LINRBF: break;
    }
    double p0 = 1, p1 = t;
    for (size_t i = 1; i < j; i++) {
        const double p2 = dict->kind == BSL_BASIS_LEGENDRE
                              ? ((2.0 * (double)i + 1) * t * p1 - (double)i * p0) / ((double)i + 1)
                              : 2 * t * p1 - p0;
        p0 = p1;
        p1 = p2;
    }
    return p1;
}

int bsl_dict_set_input_scale(bsl_dict *dict, const double *scale)
{
    free(dict->input_scale);
    dict->input_scale = NULL;
    if (!scale) return BASEL_OK;
    dict->input_scale = bsl_malloc(dict->d, sizeof *dict->input_scale);
    if (!dict->input_scale) return BASEL_ENOMEM;
    memcpy(dict->input_scale, scale, dict->d * sizeof *scale);
    return BASEL_OK;
}

void bsl_dict_eval(const bsl_dict *dict, size_t j, const double *X, size_t n, size_t ldx,
                   double *out)
{
    bsl_dict_eval_scaled(dict, j, X, n, ldx, dict->input_scale, out);
}

void bsl_dict_eval_scaled(const bsl_dict *dict, size_t j, const double *X, size_t n, size_t ldx,
                          const double *scale, double *out)
{
    if (dict->kind == BSL_BASIS_LINEAR) {
        memcpy(out, X + j * ldx, n * sizeof *out);
    } else if (bsl_basis_is_radial(dict->kind)) {
        const double *c = dict->centres + j * dict->d;
        const double width = dict->widths ? dict->widths[j] : dict->width;
        for (size_t i = 0; i < n; i++) {
            double r2 = 0;
            for (size_t a = 0; a < dict->d; a++) {
                /* an input with scale 0 is not in the distance at all (its
                 * term is skipped, not multiplied: no 0 * inf) */
                if (scale && scale[a] == 0) continue;
                const double diff = (X[a * ldx + i] - c[a]) * (scale ? scale[a] : 1.0);
                r2 += diff * diff;
            }
            out[i] = radial(dict->kind, r2, width);
        }
    } else {
        for (size_t i = 0; i < n; i++) out[i] = family(dict, j + 1, X[i]);
    }
}

void bsl_dict_atom_name(const bsl_dict *dict, size_t j, const char *const *input_names, char *buf,
                        size_t len)
{
    if (dict->kind == BSL_BASIS_LINEAR) {
        if (input_names)
            snprintf(buf, len, "%s", input_names[j]);
        else
            snprintf(buf, len, "x%zu", j + 1);
    } else if (dict->widths && dict->per_scale) {
        snprintf(buf, len, "%s@%zu/r=%.3g", kind_names[dict->kind], j % dict->per_scale + 1, dict->widths[j]);
    } else if (dict->widths) {
        snprintf(buf, len, "%s%zu/r=%.3g", kind_names[dict->kind], j + 1, dict->widths[j]);
    } else if (bsl_basis_is_radial(dict->kind)) {
        snprintf(buf, len, "%s@%zu", kind_names[dict->kind], j + 1);
    } else {
        snprintf(buf, len, "%s%zu", kind_names[dict->kind], j + 1);
    }
}
