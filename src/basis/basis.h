/*
 * basis.h: dictionaries of candidate atoms (DESIGN.md "Dictionary").
 *
 * An atom produces its column on demand at any set of points, so the same
 * dictionary serves the training design and predictions. Kinds:
 *   linear      the inputs themselves (variable selection), m = d;
 *   gauss/cubic/tps/lin-rbf  radial functions phi(|x - c|) centred at the
 *               training points, m = n: exp(-r^2/(2 w^2)), r^3, r^2 log r, r;
 *   gauss with several widths (r=0.5,1,2 or r=auto): one kernel per centre
 *               and width, m = n * widths, width-major (atom s*n + i is row
 *               i at width s). Every width has the same n atoms, so an
 *               exchangeable model prior over atoms (beta-binomial, uniform,
 *               Poisson) puts the same prior mass on each width: the prior
 *               on an atom's width is uniform over the grid and does not
 *               favour a scale for having more atoms.
 *               r=auto: the grid {1/4, 1/2, 1, 2} x delta, delta the median
 *               pairwise distance between the training inputs (as given to
 *               the dictionary: standardised under --standardize yes/auto),
 *               i.e. the brief's {0.5, 1, 2, 4} x delta / 2.
 *   legendre/chebyshev/sine/cosine/poly  1-D families of m atoms on the
 *               training range of the single input, rescaled to [-1, 1]
 *               (polynomials) or [0, 1] (trigonometric); degree 1..m (the
 *               constant is the always-in intercept, not an atom).
 * The intercept is always in the model; the optional linear term (paper 002)
 * adds the d inputs as always-in columns too. Dictionaries are immutable
 * after creation and may be shared between threads.
 */
#ifndef BSL_BASIS_H
#define BSL_BASIS_H

#include "../core/spec.h"

typedef enum bsl_basis_kind {
    BSL_BASIS_LINEAR = 0,
    BSL_BASIS_GAUSS = 1,
    BSL_BASIS_CUBIC = 2,
    BSL_BASIS_TPS = 3,
    BSL_BASIS_LINRBF = 4,
    BSL_BASIS_LEGENDRE = 5,
    BSL_BASIS_CHEBYSHEV = 6,
    BSL_BASIS_SINE = 7,
    BSL_BASIS_COSINE = 8,
    BSL_BASIS_POLY = 9
} bsl_basis_kind;

typedef struct bsl_dict {
    bsl_basis_kind kind;
    size_t d;          /* input dimension */
    size_t m;          /* number of atoms */
    double width;      /* gauss: w in exp(-r^2/(2 w^2)) (the first width of a multi-scale one) */
    double *widths;    /* multi-scale gauss: atom j's width (m), NULL when every atom has width */
    size_t per_scale;  /* multi-scale gauss built here: centres per width (atom j is at training
                          row j % per_scale + 1); 0 otherwise (names then say only the width) */
    double *centres;   /* radial kinds: m x d, row-major (centre j at centres + j*d) */
    double lo, hi;     /* 1-D families: training range of the input */
    int linear_term;   /* 1: the inputs are always-in columns (paper 002) */
    double *input_scale; /* radial kinds: d relevance factors s_a in the distance
                            r^2 = sum_a (s_a (x_a - c_a))^2 (0: input a is left out of
                            every kernel, 1: as given); NULL = all 1. Set after a fit
                            selected the inputs (bd --relevance, engine/bd/bd_relevance.h) */
} bsl_dict;

#define BSL_BASIS_NAMES "linear, gauss, cubic, tps, lin-rbf, legendre, chebyshev, sine, cosine, poly"

/* Build a dictionary from a --basis spec for the n x d training inputs X
 * (column-major). Copies what it needs (centres); X may be freed after. */
int bsl_dict_create(bsl_dict **out, const char *spec, const double *X, size_t n, size_t d,
                    basel_error *err);
/* The same from parts (used when reading a fit back). centres may be NULL
 * for non-radial kinds. */
int bsl_dict_make(bsl_dict **out, bsl_basis_kind kind, size_t d, size_t m, double width,
                  const double *centres, double lo, double hi, int linear_term);
/* Give a gauss dictionary one width per atom (m values, each > 0): a
 * multi-scale dictionary read back from a fit. */
int bsl_dict_set_widths(bsl_dict *dict, const double *widths);
/* The median pairwise Euclidean distance between the n rows of X (n x d,
 * column-major); over a fixed stride sample of at most 1000 rows when n is
 * larger (deterministic, O(min(n,1000)^2 d)). 1 if every distance is 0. */
double bsl_dict_median_distance(const double *X, size_t n, size_t d);
#define BSL_DICT_MAX_WIDTHS 8
void bsl_dict_free(bsl_dict *dict);

/* Column of atom j at the n points X (n x d, column-major, leading dim ldx). */
void bsl_dict_eval(const bsl_dict *dict, size_t j, const double *X, size_t n, size_t ldx,
                   double *out);
/* The same with the inputs' relevance factors scale (d values >= 0) instead
 * of dict->input_scale; scale NULL = all 1. Only radial kinds read it: for
 * the others it is bsl_dict_eval. Thread-safe (dict is read only). */
void bsl_dict_eval_scaled(const bsl_dict *dict, size_t j, const double *X, size_t n, size_t ldx,
                          const double *scale, double *out);
/* Give a radial dictionary its inputs' relevance factors (d values, each
 * finite and >= 0); NULL clears them (all 1). BASEL_ENOMEM. */
int bsl_dict_set_input_scale(bsl_dict *dict, const double *scale);
/* Empirical-Bayes input scales (bd --relevance ml; ard.c): the per-input
 * factors eta_a of the kernel's distance r^2 = sum_a (eta_a (x_a - c_a))^2
 * that maximise the marginal likelihood of a Gaussian process with the ARD
 * squared-exponential kernel, signal and noise variances (type-II maximum
 * likelihood), on the n x d inputs X and n x c targets Y (column-major; at
 * most BSL_ARD_MAX_ROWS rows are used, rows i n / 500, i < 500, above). An
 * input whose length scale 1/eta_a exceeds 100 of its standard deviations
 * gets 0 (left out of every kernel). scale: d values out. info may be NULL.
 * BASEL_EINVAL (sizes), BASEL_ENOMEM, BASEL_ENUMERIC. Deterministic. */
#define BSL_ARD_MAX_ROWS 500
#define BSL_ARD_MAX_INPUTS 64
typedef struct bsl_ard_info {
    double log_ml;            /* the GP's log marginal likelihood at the optimum (standardised targets) */
    double signal_var, noise_var; /* of the standardised targets */
    size_t rows, evaluations; /* rows used; evaluations of the likelihood */
} bsl_ard_info;
int bsl_ard_ml(const double *X, size_t n, size_t d, const double *Y, size_t c, double *scale, bsl_ard_info *info,
               basel_error *err);
/* The GP's log marginal likelihood at log eta (d), log s2, log noise for
 * inputs and targets used as given (no standardisation, every row), and its
 * gradient in those d + 2 parameters into grad when not NULL (the
 * optimiser's function, exposed for the tests). NAN when out of memory. */
double bsl_ard_log_ml(const double *X, size_t n, size_t d, const double *Y, size_t c, const double *log_eta,
                      double log_s2, double log_noise, double *grad);
/* bsl_dict_create with the inputs' relevance factors scale (d values >= 0,
 * or NULL: as bsl_dict_create) set on the dictionary, and r=auto's grid
 * taken from the median distance under them (so the widths are in the
 * scaled units, as a width given by r=...). */
int bsl_dict_create_scaled(bsl_dict **out, const char *spec, const double *X, size_t n, size_t d,
                           const double *scale, basel_error *err);
/* A short name for atom j ("x3", "gauss@17", "legendre2"); input_names may
 * be NULL (then inputs are called x1..xd). */
void bsl_dict_atom_name(const bsl_dict *dict, size_t j, const char *const *input_names,
                        char *buf, size_t len);
/* "gauss", "legendre", ... */
const char *bsl_basis_name(bsl_basis_kind kind);
/* Parse a kind name; -1 if unknown. */
int bsl_basis_kind_from_name(const char *name);
/* 1 for radial kinds (atoms centred at points). */
int bsl_basis_is_radial(bsl_basis_kind kind);

#endif
