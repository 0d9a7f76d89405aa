/*
 * rbf_json.c: a fitted free-centre RBF network (rbf_result.h) to and from
 * JSON: everything prediction needs (the box, the kept networks with their
 * centres, coefficients, packed factors and predictive scales), the
 * posterior of k (rj), the best score (anneal) and the move counts. Timings
 * are left out so that the same seed gives the same bytes. The reader
 * validates every field (sizes, ranges, finiteness) and never trusts a
 * length it has not checked.
 */
#include "rbf_result.h"
#include "../../core/jsonutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the "mode" field, written and read through this one table (by
 * bsl_rbf_mode; the values are FIT.json's, not method names to compare) */
static const char *const mode_names[] = {[BSL_RBF_ANNEAL] = "anneal", [BSL_RBF_FULL] = "rj"};

int bsl_rbf_json_centres(const json_t *doc, double **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    const json_t *e = json_object_get(doc, "engine"), *nets = json_object_get(e, "networks");
    const size_t d = (size_t)json_integer_value(json_object_get(e, "d"));
    size_t total = 0;
    for (size_t i = 0; i < json_array_size(nets); i++)
        total += json_array_size(json_object_get(json_array_get(nets, i), "centres"));
    if (d == 0 || total == 0 || total % d) return BASEL_OK;
    double *c = bsl_malloc(total, sizeof *c);
    if (!c) return BASEL_ENOMEM;
    for (size_t i = 0, at = 0; i < json_array_size(nets); i++) {
        const json_t *ci = json_object_get(json_array_get(nets, i), "centres");
        if (bsl_json_read_doubles(ci, c + at, json_array_size(ci))) {
            free(c);
            return BASEL_OK;
        }
        at += json_array_size(ci);
    }
    *out = c;
    *count = total / d;
    return BASEL_OK;
}

static json_t *draw_to_json(const bsl_rbf_result *r, const rbf_draw *dr)
{
    const size_t m = r->q + dr->k;
    json_t *o = json_object();
    int bad = 0;
    bsl_json_put(o, "k", json_integer((json_int_t)dr->k), &bad);
    bsl_json_put(o, "centres", bsl_json_doubles(dr->centres, dr->k * r->d), &bad);
    bsl_json_put(o, "coef", bsl_json_doubles(dr->coef, m * r->c), &bad);
    bsl_json_put(o, "chol_packed", bsl_json_doubles(dr->lpk, m * (m + 1) / 2), &bad);
    bsl_json_put(o, "shrink", bsl_json_doubles(dr->shrink, r->c), &bad);
    bsl_json_put(o, "scale2", bsl_json_doubles(dr->scale2, r->c), &bad);
    bsl_json_put(o, "dof", bsl_json_real(dr->dof), &bad);
    if (r->sample_width) bsl_json_put(o, "width", bsl_json_real(dr->width), &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o; /* NULL when out of memory, as bsl_rbf_to_json */
}

json_t *bsl_rbf_to_json(const bsl_rbf_result *r)
{
    json_t *o = json_object(), *draws = json_array();
    if (!o || !draws) {
        json_decref(o);
        json_decref(draws);
        return NULL;
    }
    int bad = 0;
    bsl_json_put(o, "mode", json_string(mode_names[r->mode]), &bad);
    bsl_json_put(o, "radial", json_integer(r->radial), &bad);
    bsl_json_put(o, "linear_term", json_boolean(r->linear_term), &bad);
    bsl_json_put(o, "criterion", json_integer(r->criterion), &bad);
    bsl_json_put(o, "width", bsl_json_real(r->width), &bad);
    if (r->sample_width) { /* each network has its own width (rbf.h) */
        bsl_json_put(o, "width_sampled", json_boolean(1), &bad);
        bsl_json_put(o, "width_range", bsl_json_doubles((const double[]){r->width_lo, r->width_hi}, 2), &bad);
        bsl_json_put(o, "width_moves", bsl_json_doubles((const double[]){r->width_proposed, r->width_accepted}, 2),
                     &bad);
    }
    bsl_json_put(o, "n", json_integer((json_int_t)r->n), &bad);
    bsl_json_put(o, "d", json_integer((json_int_t)r->d), &bad);
    bsl_json_put(o, "c", json_integer((json_int_t)r->c), &bad);
    bsl_json_put(o, "kmax", json_integer((json_int_t)r->kmax), &bad);
    bsl_json_put(o, "box_lo", bsl_json_doubles(r->lo, r->d), &bad);
    bsl_json_put(o, "box_side", bsl_json_doubles(r->side, r->d), &bad);
    if (isfinite(r->score)) bsl_json_put(o, "score", bsl_json_real(r->score), &bad); /* absent when undefined */
    if (r->k_post) bsl_json_put(o, "k_posterior", bsl_json_doubles(r->k_post, r->kmax + 1), &bad);
    bsl_json_put(o, "proposed", bsl_json_doubles(r->proposed, BSL_RBF_NMOVES), &bad);
    bsl_json_put(o, "accepted", bsl_json_doubles(r->accepted, BSL_RBF_NMOVES), &bad);
    bsl_json_put(o, "seed", json_integer((json_int_t)r->seed), &bad);
    bsl_json_put(o, "iter", json_integer((json_int_t)r->iter), &bad);
    bsl_json_put(o, "burn", json_integer((json_int_t)r->burn), &bad);
    bsl_json_put(o, "chains", json_integer((json_int_t)r->chains), &bad);
    for (size_t i = 0; i < r->ndraws; i++) bsl_json_push(draws, draw_to_json(r, &r->draws[i]), &bad);
    bsl_json_put(o, "networks", draws, &bad);
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

/* ---- reading ---- */

static int read_draw(const bsl_rbf_result *r, const json_t *o, rbf_draw *dr)
{
    size_t k;
    if (!json_is_object(o) || bsl_json_read_size(o, "k", 0, r->kmax, &k)) return -1;
    if (rbf_draw_alloc(dr, k, r->d, r->c, r->q)) return -2; /* out of memory */
    const size_t m = r->q + k;
    const json_t *dof = json_object_get(o, "dof");
    if (bsl_json_read_doubles(json_object_get(o, "centres"), dr->centres, k * r->d) ||
        bsl_json_read_doubles(json_object_get(o, "coef"), dr->coef, m * r->c) ||
        bsl_json_read_doubles(json_object_get(o, "chol_packed"), dr->lpk, m * (m + 1) / 2) ||
        bsl_json_read_doubles(json_object_get(o, "shrink"), dr->shrink, r->c) ||
        bsl_json_read_doubles(json_object_get(o, "scale2"), dr->scale2, r->c) || !json_is_number(dof) ||
        /* the writer's dof is below n + c; GSL's t quantile does not
         * converge for dof near 1e43 and its error handler aborts */
        !(json_number_value(dof) > 0 && json_number_value(dof) <= 1e9))
        return -1;
    dr->dof = json_number_value(dof);
    const json_t *w = json_object_get(o, "width");
    if (r->sample_width && !(json_is_number(w) && json_number_value(w) > 0 && isfinite(json_number_value(w))))
        return -1;
    dr->width = r->sample_width ? json_number_value(w) : r->width;
    for (size_t o2 = 0; o2 < r->c; o2++)
        if (!(dr->scale2[o2] >= 0) || !(dr->shrink[o2] >= 0)) return -1;
    /* a usable factor has a positive diagonal (packed column-major) */
    for (size_t j = 0, at = 0; j < m; at += m - j, j++)
        if (!(dr->lpk[at] > 0)) return -1;
    return 0;
}

static int read_header(bsl_rbf_result *r, const json_t *j)
{
    const char *mode = json_string_value(json_object_get(j, "mode"));
    const int full = mode && !strcmp(mode, mode_names[BSL_RBF_FULL]);
    const json_t *lin = json_object_get(j, "linear_term"), *w = json_object_get(j, "width");
    size_t radial, crit;
    if (!mode || (!full && strcmp(mode, mode_names[BSL_RBF_ANNEAL])) || !json_is_boolean(lin) ||
        !json_is_number(w) || !(json_number_value(w) > 0) ||
        bsl_json_read_size(j, "radial", BSL_BASIS_GAUSS, BSL_BASIS_LINRBF, &radial) ||
        bsl_json_read_size(j, "criterion", 0, 16, &crit) || bsl_json_read_size(j, "n", 1, (size_t)1 << 40, &r->n) ||
        bsl_json_read_size(j, "d", 1, 100000, &r->d) || bsl_json_read_size(j, "c", 1, 100000, &r->c) ||
        bsl_json_read_size(j, "kmax", 0, 1000000, &r->kmax))
        return -1;
    r->mode = full ? BSL_RBF_FULL : BSL_RBF_ANNEAL;
    r->radial = (int)radial;
    r->criterion = (int)crit;
    r->linear_term = json_is_true(lin);
    r->width = json_number_value(w);
    r->sample_width = json_is_true(json_object_get(j, "width_sampled"));
    double range[2], moves[2];
    if (r->sample_width && (bsl_json_read_doubles(json_object_get(j, "width_range"), range, 2) ||
                            bsl_json_read_doubles(json_object_get(j, "width_moves"), moves, 2) ||
                            !(range[0] > 0 && range[1] >= range[0])))
        return -1;
    if (r->sample_width) {
        r->width_lo = range[0], r->width_hi = range[1];
        r->width_proposed = moves[0], r->width_accepted = moves[1];
    }
    r->q = 1 + (r->linear_term ? r->d : 0);
    r->lo = bsl_calloc(r->d, sizeof(double));
    r->side = bsl_calloc(r->d, sizeof(double));
    if (!r->lo || !r->side) return -2; /* out of memory */
    if (bsl_json_read_doubles(json_object_get(j, "box_lo"), r->lo, r->d) ||
        bsl_json_read_doubles(json_object_get(j, "box_side"), r->side, r->d) ||
        bsl_json_read_doubles(json_object_get(j, "proposed"), r->proposed, BSL_RBF_NMOVES) ||
        bsl_json_read_doubles(json_object_get(j, "accepted"), r->accepted, BSL_RBF_NMOVES))
        return -1;
    const json_t *score = json_object_get(j, "score");
    r->score = json_is_number(score) ? json_number_value(score) : NAN;
    size_t seed = 0;
    bsl_json_read_size(j, "seed", 0, (size_t)-1, &seed);
    r->seed = (unsigned long)seed;
    bsl_json_read_size(j, "iter", 0, (size_t)-1, &r->iter);
    bsl_json_read_size(j, "burn", 0, (size_t)-1, &r->burn);
    bsl_json_read_size(j, "chains", 0, (size_t)-1, &r->chains);
    const json_t *kp = json_object_get(j, "k_posterior");
    if (kp) {
        r->k_post = bsl_calloc(r->kmax + 1, sizeof(double));
        if (!r->k_post) return -2;
        if (bsl_json_read_doubles(kp, r->k_post, r->kmax + 1)) return -1;
    }
    return 0;
}

int bsl_rbf_from_json(bsl_rbf_result **out, const json_t *j, basel_error *err)
{
    *out = NULL;
    bsl_rbf_result *r = rbf_result_new();
    if (!r) return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    const json_t *nets = json_object_get(j, "networks");
    int bad = !json_is_object(j) ? -1 : read_header(r, j);
    if (!bad && (!json_is_array(nets) || json_array_size(nets) == 0)) bad = -1;
    const int bad_header = bad;
    if (!bad) {
        r->draws = bsl_calloc(json_array_size(nets), sizeof *r->draws);
        bad = r->draws ? 0 : -2;
    }
    for (size_t i = 0; !bad && i < json_array_size(nets); i++) {
        bad = read_draw(r, json_array_get(nets, i), &r->draws[i]);
        r->ndraws = i + 1; /* so that bsl_rbf_free releases what was read */
    }
    if (bad == -2) {
        bsl_rbf_free(r);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    if (bad) {
        const size_t at = r->ndraws ? r->ndraws - 1 : 0;
        bsl_rbf_free(r);
        if (bad_header)
            return bsl_fail(err, BASEL_EPARSE,
                            "\"engine\" is not an RBF network block (mode, radial, linear_term, criterion, width > 0, "
                            "n, d, c, kmax, box_lo, box_side, proposed, accepted, networks)");
        return bsl_fail(err, BASEL_EPARSE,
                        "\"engine.networks[%zu]\" is not a network (k <= kmax; finite centres, coef, chol_packed "
                        "with a positive diagonal; shrink and scale2 >= 0; 0 < dof <= 1e9)",
                        at);
    }
    *out = r;
    return BASEL_OK;
}
