/*
 * test_diag.c: the convergence diagnostics (summary/diag.c) against R's
 * posterior package, the time-weighted traces, and the warning rule.
 *
 * diag_reference.txt holds fixed chains and posterior's rhat(), ess_bulk()
 * and ess_tail() of each (written by diag_reference.R beside it).
 */
#include "check.h"
#include "summary/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REF "tests/unit/summary/diag_reference.txt"

static double worst_gap = 0; /* the largest relative difference seen */

/* Equal to 1e-8 relative, or both NaN, or both the same infinity. */
static int agrees(double a, double b)
{
    if (isnan(b)) return isnan(a);
    if (isinf(b)) return a == b;
    const double gap = fabs(a - b) / fmax(1, fabs(b));
    worst_gap = fmax(worst_gap, isnan(gap) ? INFINITY : gap);
    return gap <= 1e-8;
}

static void against_posterior(void)
{
    FILE *f = fopen(REF, "r");
    CHECK(f != NULL, "open %s", REF);
    if (!f) return;
    char name[64], r[64], eb[64], et[64];
    size_t chains, len, cases = 0;
    while (fscanf(f, " case %63s %zu %zu %63s %63s %63s", name, &chains, &len, r, eb, et) == 6) {
        double *x = malloc(chains * len * sizeof *x);
        int ok = x != NULL;
        for (size_t i = 0; ok && i < chains * len; i++) ok = fscanf(f, "%lf", &x[i]) == 1;
        CHECK(ok, "%s: %zu x %zu draws read", name, chains, len);
        if (!ok) {
            free(x);
            break;
        }
        const double ref[3] = {strtod(r, NULL), strtod(eb, NULL), strtod(et, NULL)};
        bsl_conv cv;
        CHECK(bsl_conv_of(x, chains, len, &cv) == BASEL_OK, "%s: computed", name);
        if (!strcmp(name, "stuck_chains")) {
            /* posterior: NA (its folded R-hat is undefined); here the bulk
             * R-hat, +inf: the documented departure */
            CHECK(isnan(ref[0]) && cv.rhat == INFINITY, "%s: R-hat +inf (%g)", name, cv.rhat);
        } else {
            CHECK(agrees(cv.rhat, ref[0]), "%s: R-hat %.17g, posterior %.17g", name, cv.rhat, ref[0]);
        }
        CHECK(agrees(cv.ess_bulk, ref[1]), "%s: bulk ESS %.17g, posterior %.17g", name, cv.ess_bulk, ref[1]);
        CHECK(agrees(cv.ess_tail, ref[2]), "%s: tail ESS %.17g, posterior %.17g", name, cv.ess_tail, ref[2]);
        free(x);
        cases++;
    }
    fclose(f);
    CHECK(cases == 12, "12 reference cases (%zu)", cases);
    printf("largest relative difference from posterior: %.2g\n", worst_gap);
}

/* A continuous-time trace: snapshot s is the time average over its step
 * iterations. */
static void weighted_trace(void)
{
    bsl_trace t;
    CHECK(bsl_trace_init(&t, 2, 10, 5) == BASEL_OK && t.L == 5 && t.step == 2, "5 snapshots of 2");
    const size_t a0[1] = {0}, a01[2] = {0, 1};
    bsl_trace_add(&t, 0, a0, 1, 3.0);  /* snapshot 0: {0} for 3, {} for 1, {0,1} for 4 */
    bsl_trace_add(&t, 0, NULL, 0, 1.0);
    bsl_trace_add(&t, 1, a01, 2, 4.0);
    bsl_trace_add(&t, 2, a01, 2, 0.5); /* snapshot 1: {0,1} */
    bsl_trace_add(&t, 10, a01, 2, 9.0); /* past the trace: ignored */
    bsl_trace_add(NULL, 0, a01, 2, 9.0);
    bsl_trace_finish(&t);
    CHECK(fabs(t.x[0] - 7.0 / 8) < 1e-15 && fabs(t.x[5] - 4.0 / 8) < 1e-15 &&
              fabs(t.x[10] - 11.0 / 8) < 1e-15,
          "time averages of the indicators and the size (%g %g %g)", t.x[0], t.x[5], t.x[10]);
    CHECK(t.x[1] == 1 && t.x[6] == 1 && t.x[11] == 2 && t.x[4] == 0, "snapshot 1, and an empty one");
    /* a chain finished before a checkpoint is finished again after a restart */
    bsl_trace_finish(&t);
    CHECK(fabs(t.x[0] - 7.0 / 8) < 1e-15 && fabs(t.x[10] - 11.0 / 8) < 1e-15 && t.x[1] == 1,
          "finishing twice changes nothing (%g %g)", t.x[0], t.x[10]);
    bsl_trace_free(&t);
    bsl_trace_free(&t);
}

/* Recorded traces of 3 chains over 40 atoms, most never active: the
 * diagnostics that skip the rows no chain recorded (seen) are the ones that
 * read every row, bit for bit; and a snapshot recorded again is cleared
 * first (its earlier atoms are gone). */
static void sparse_trace(void)
{
    enum { M = 40, CH = 3, ITER = 60 };
    bsl_trace t[CH];
    unsigned long r = 2027;
    for (size_t c = 0; c < CH; c++) {
        CHECK(bsl_trace_init(&t[c], M, ITER, 20) == BASEL_OK, "trace %zu", c);
        for (size_t it = 0; it < ITER; it++) {
            size_t act[3], k = 0;
            r = r * 6364136223846793005UL + 1442695040888963407UL;
            if (r >> 62) act[k++] = 3;                 /* atom 3 in about 3/4 of them */
            if ((r >> 40) & 1) act[k++] = 7 + c;       /* one atom per chain */
            if (c == 1 && ((r >> 20) & 7) == 0) act[k++] = 30;
            bsl_trace_record(&t[c], it, act, k);
        }
    }
    const double *x[CH];
    const unsigned char *seen[CH];
    for (size_t c = 0; c < CH; c++) x[c] = t[c].x, seen[c] = t[c].seen;
    double rh[2][M], eb[2][M], et[2][M];
    bsl_conv sz[2];
    CHECK(bsl_trace_diagnostics(x, seen, CH, t[0].L, M, rh[0], eb[0], et[0], &sz[0]) == BASEL_OK &&
              bsl_trace_diagnostics(x, NULL, CH, t[0].L, M, rh[1], eb[1], et[1], &sz[1]) == BASEL_OK,
          "diagnostics with and without seen");
    CHECK(memcmp(rh[0], rh[1], sizeof rh[0]) == 0 && memcmp(eb[0], eb[1], sizeof eb[0]) == 0 &&
              memcmp(et[0], et[1], sizeof et[0]) == 0 && memcmp(&sz[0], &sz[1], sizeof sz[0]) == 0,
          "skipping the rows never recorded changes no bit");
    CHECK(!seen[0][0] && seen[0][3] && seen[0][7] && !seen[0][8] && seen[1][30], "seen marks the recorded atoms");
    const size_t a[1] = {5}, none[1] = {0};
    bsl_trace_record(&t[0], 0, a, 1);
    CHECK(t[0].x[5 * t[0].L] == 1 && t[0].x[3 * t[0].L] == 0 && t[0].x[7 * t[0].L] == 0 && t[0].x[M * t[0].L] == 1,
          "a snapshot recorded again holds the new subset only");
    bsl_trace_record(&t[0], 0, none, 0);
    CHECK(t[0].x[5 * t[0].L] == 0 && t[0].x[M * t[0].L] == 0, "and the empty one");
    for (size_t c = 0; c < CH; c++) bsl_trace_free(&t[c]);
}

static size_t warnings(const bsl_conv_check *c, char w[][BSL_CONV_WARNING_LEN])
{
    return bsl_conv_warnings(c, "run longer (--iter)", w);
}

static void rule(void)
{
    char w[BSL_CONV_MAX_WARNINGS][BSL_CONV_WARNING_LEN];
    const char *names[3] = {"x1", "x2", "x3"};
    double pip[3] = {0.5, 0.005, 0.3}, rh[3] = {1.002, 3.0, 1.004}, eb[3] = {900, 10, 800},
           et[3] = {NAN, 10, 700};
    bsl_conv_check c = {.m = 3, .pip = pip, .rhat_pip = rh, .ess_pip = eb, .ess_tail_pip = et,
                        .names = names, .size = {1.003, 1200, 1100}, .chains = 4, .draws = 1000};
    CHECK(warnings(&c, w) == 0, "converged: quiet (PIPs below 0.01 are not held to the thresholds)");
    rh[2] = 1.02;
    CHECK(warnings(&c, w) == 1 && strstr(w[0], "R-hat of x3's PIP is 1.020 (above 1.01)") &&
              strstr(w[0], "run longer (--iter)"),
          "an R-hat above 1.01: %s", w[0]);
    rh[2] = INFINITY;
    CHECK(warnings(&c, w) == 1 && strstr(w[0], "R-hat of x3's PIP is inf"), "R-hat inf: %s", w[0]);
    rh[2] = 1.004;
    c.size.ess_tail = 120;
    CHECK(warnings(&c, w) == 1 && strstr(w[0], "effective sample size of the model size is 120 (below 400)"),
          "a tail ESS below 400: %s", w[0]);
    c.size.ess_tail = NAN;
    et[0] = 399;
    CHECK(warnings(&c, w) == 1 && strstr(w[0], "x1's PIP is 399"), "a PIP's ESS: %s", w[0]);
    et[0] = NAN;
    c.size.rhat = 1.5;
    eb[2] = 50;
    CHECK(warnings(&c, w) == 2 && strstr(w[0], "R-hat of the model size is 1.500") &&
              strstr(w[1], "x3's PIP is 50"),
          "both: %s / %s", w[0], w[1]);
    /* a run that never moved: everything NaN */
    const double none[3] = {NAN, NAN, NAN};
    bsl_conv_check stuck = {.m = 3, .pip = (double[]){1, 0, 1}, .rhat_pip = none, .ess_pip = none,
                            .ess_tail_pip = none, .size = {NAN, NAN, NAN}, .chains = 1, .draws = 1000};
    CHECK(warnings(&stuck, w) == 1 && strstr(w[0], "the model never changed in 1000 recorded draws of 1 chain") &&
              strstr(w[0], "PIPs exactly 0 or 1"),
          "stuck on one model: %s", w[0]);
    stuck.chains = 4;
    CHECK(warnings(&stuck, w) == 0, "several chains that all stay on one model agree: quiet");
    stuck.draws = 3;
    CHECK(warnings(&stuck, w) == 1 && strstr(w[0], "3 recorded draws per chain"), "too few draws: %s", w[0]);
    /* the size alone (rbf) */
    bsl_conv_check k = {.size = {1.2, 30, 40}, .chains = 4, .draws = 500, .what = "number of RBFs",
                        .size_name = "the number of RBFs"};
    CHECK(warnings(&k, w) == 2 && strstr(w[0], "R-hat of the number of RBFs size") == NULL &&
              strstr(w[0], "R-hat of the number of RBFs is 1.200"),
          "the size of an rbf fit: %s", w[0]);
}

/* The draws are ranked by a radix sort on their bits (diag.c
 * sort_by_value): -0 and +0 must tie, as they compare equal, and negatives
 * sort below positives. A trace with both zeros gives the numbers of the
 * same trace with +0 only; a trace and its mirror image -x have the same
 * R-hat and ESS (ranks reverse; the folded draws are the same). */
static void signed_zeros_and_negatives(void)
{
    double x[4 * 50], y[4 * 50], z[4 * 50];
    for (size_t i = 0; i < 4 * 50; i++) {
        const double v = (double)((i * 7919) % 41) - 20; /* ties, negatives, zeros */
        x[i] = v == 0 && i % 2 ? -0.0 : v;
        y[i] = v == 0 ? 0.0 : v;
        z[i] = -y[i];
    }
    bsl_conv a, b, c;
    CHECK(bsl_conv_of(x, 4, 50, &a) == BASEL_OK && bsl_conv_of(y, 4, 50, &b) == BASEL_OK &&
              bsl_conv_of(z, 4, 50, &c) == BASEL_OK,
          "computed");
    CHECK(a.rhat == b.rhat && a.ess_bulk == b.ess_bulk && a.ess_tail == b.ess_tail,
          "-0 ties with +0: R-hat %.17g %.17g, bulk ESS %.17g %.17g", a.rhat, b.rhat, a.ess_bulk, b.ess_bulk);
    CHECK(fabs(b.rhat - c.rhat) <= 1e-12 * b.rhat && fabs(b.ess_bulk - c.ess_bulk) <= 1e-9 * b.ess_bulk &&
              fabs(b.ess_tail - c.ess_tail) <= 1e-9 * b.ess_tail,
          "mirror image: R-hat %.17g %.17g, bulk ESS %.17g %.17g, tail ESS %.17g %.17g", b.rhat, c.rhat, b.ess_bulk,
          c.ess_bulk, b.ess_tail, c.ess_tail);
}

int main(void)
{
    against_posterior();
    signed_zeros_and_negatives();
    weighted_trace();
    sparse_trace();
    rule();
    return check_report("test_diag");
}
