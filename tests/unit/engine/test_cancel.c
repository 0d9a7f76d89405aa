/*
 * test_cancel.c: the progress and cancel contract of basel.h
 * (basel_options_set_progress) through the public API, for every method:
 * a callback that returns non-zero at its first call ends basel_fit_run
 * with BASEL_ECANCELLED and no fit; a callback that never cancels sees a
 * fraction that starts at 0 and never decreases, and (for the engines on
 * the chain driver) ends at 1; and the same seed gives the same FIT.json
 * bytes with 1 and 2 threads. BASEL_PROGRESS_STOP a quarter of the way: the methods
 * that checkpoint (on the chain driver) return a fit of the iterations
 * done, marked interrupted (basel_fit_interrupted: done < planned), the
 * others cancel.
 */
#include "check.h"
#include "basel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct prog {
    int calls, decreasing, cancel;
    double first, last;
    double stop_at; /* > 0: return BASEL_PROGRESS_STOP from this fraction on */
} prog;

static int on_progress(double f, void *user)
{
    prog *p = user;
    if (p->calls == 0) p->first = f;
    else if (f < p->last) p->decreasing++;
    p->last = f;
    p->calls++;
    if (p->stop_at > 0 && f >= p->stop_at) return BASEL_PROGRESS_STOP;
    return p->cancel;
}

typedef struct method_case {
    const char *label, *data, *label_column;
    const char *opts[8][2]; /* name, value; NULL-terminated */
    int ends_at_one;        /* the engine runs on the chain driver */
} method_case;

static const char *LIN = "data/linear/lin_p15_n200.csv";
static const char *PIMA = "data/classification/pima_tr.csv";
static const char *SINC = "data/regression/sinc_vermaak_train.csv";

static const method_case cases[] = {
    {"enumerate", "lin", NULL, {{"method", "enumerate"}, {"prior", "g:g=200"}}, 1},
    {"bd", "lin", NULL, {{"method", "bd"}, {"iter", "300"}, {"chains", "3"}}, 1},
    {"rj", "lin", NULL, {{"method", "rj"}, {"iter", "2000"}, {"chains", "3"}}, 1},
    {"ssvs", "lin", NULL, {{"method", "ssvs"}, {"iter", "300"}, {"chains", "3"}}, 1},
    {"mixture", "pima", "class",
     {{"method", "mixture"}, {"target", "class"}, {"iter", "60"}, {"burn", "20"}, {"chains", "2"}}, 1},
    {"anneal", "sinc", NULL,
     {{"method", "anneal"}, {"target", "y"}, {"inputs", "x"}, {"basis", "cubic"}, {"iter", "300"}, {"chains", "2"}}, 1},
    {"rj-free", "sinc", NULL,
     {{"method", "rj"}, {"target", "y"}, {"inputs", "x"}, {"basis", "cubic:centres=free"}, {"iter", "300"},
      {"burn", "50"}, {"chains", "2"}}, 1},
    {"smc", "sinc200", NULL,
     {{"method", "smc"}, {"target", "y"}, {"inputs", "x"}, {"basis", "gauss:r=1.6"}, {"particles", "20"}}, 0},
};

/* The methods that stop at a boundary on BASEL_PROGRESS_STOP: the MCMC
 * engines of the chain driver. */
static int checkpoints(const method_case *mc)
{
    return mc->ends_at_one && strcmp(mc->label, "enumerate") != 0;
}

/* Fit (progress through p unless NULL) at the given threads; with path,
 * write the FIT.json there. */
static int fit(const method_case *mc, const basel_data *data, prog *p, const char *threads,
               const char *path, basel_error *err)
{
    basel_options *o = NULL;
    int rc = basel_options_create(&o);
    if (!rc) rc = basel_options_set(o, "seed", "11", err);
    if (!rc) rc = basel_options_set(o, "threads", threads, err);
    for (size_t i = 0; !rc && i < 8 && mc->opts[i][0]; i++)
        rc = basel_options_set(o, mc->opts[i][0], mc->opts[i][1], err);
    CHECK(rc == BASEL_OK, "%s: options: %s", mc->label, err->message);
    if (p) basel_options_set_progress(o, on_progress, p);
    basel_fit *f = NULL;
    if (!rc) rc = basel_fit_run(&f, data, o, err);
    if (!rc && p && p->stop_at > 0 && checkpoints(mc)) { /* asked to stop early */
        double done = 0, planned = 0;
        const int interrupted = basel_fit_interrupted(f, &done, &planned);
        CHECK(interrupted && done > 0 && done < planned,
              "%s: stopped a quarter of the way: a fit marked interrupted (%d, %g of %g iterations)", mc->label, interrupted,
              done, planned);
    } else if (!rc) {
        CHECK(!basel_fit_interrupted(f, NULL, NULL), "%s: a whole run is not marked interrupted", mc->label);
    }
    if (!rc && path) rc = basel_fit_write_json(f, path, err);
    if (rc) CHECK(f == NULL, "%s: no fit on failure", mc->label);
    basel_fit_free(f);
    basel_options_free(o);
    return rc;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    if (fp && !fseek(fp, 0, SEEK_END)) {
        const long n = ftell(fp);
        rewind(fp);
        if (n >= 0 && (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        *len = n >= 0 ? (size_t)n : 0;
    }
    if (fp) fclose(fp);
    return buf;
}

/* The same seed at 1 and 2 threads: byte-identical FIT.json. */
static void same_bytes(const method_case *mc, const basel_data *data)
{
    char p1[] = "/tmp/basel_test_cancel_XXXXXX", p2[] = "/tmp/basel_test_cancel_XXXXXX";
    const int f1 = mkstemp(p1), f2 = mkstemp(p2);
    if (f1 >= 0) close(f1);
    if (f2 >= 0) close(f2);
    basel_error err;
    const int rc1 = fit(mc, data, NULL, "1", p1, &err), rc2 = fit(mc, data, NULL, "2", p2, &err);
    size_t n1 = 0, n2 = 0;
    char *a = rc1 || rc2 ? NULL : slurp(p1, &n1), *b = rc1 || rc2 ? NULL : slurp(p2, &n2);
    CHECK(a && b && n1 == n2 && memcmp(a, b, n1) == 0, "%s: FIT.json differs between 1 and 2 threads",
          mc->label);
    free(a);
    free(b);
    remove(p1);
    remove(p2);
}

int main(void)
{
    basel_data *lin = NULL, *pima = NULL, *sinc = NULL, *sinc200 = NULL;
    basel_error err;
    CHECK(basel_data_read_csv(&lin, LIN, NULL, &err) == BASEL_OK, "read %s", LIN);
    CHECK(basel_data_read_csv(&pima, PIMA, "class", &err) == BASEL_OK, "read %s", PIMA);
    CHECK(basel_data_read_csv(&sinc, SINC, NULL, &err) == BASEL_OK, "read %s", SINC);
    if (!lin || !pima || !sinc) return check_report("test_cancel");
    size_t rows[200]; /* smc's cost grows with the rows fed: the first 200 */
    for (size_t i = 0; i < 200; i++) rows[i] = i;
    CHECK(basel_data_subset(&sinc200, sinc, rows, 200, &err) == BASEL_OK, "200 rows of %s", SINC);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const method_case *mc = &cases[i];
        const basel_data *data = !strcmp(mc->data, "lin")    ? lin
                                 : !strcmp(mc->data, "pima") ? pima
                                 : !strcmp(mc->data, "sinc") ? sinc
                                                             : sinc200;
        prog stop = {.cancel = 1};
        int rc = fit(mc, data, &stop, "2", NULL, &err);
        CHECK(rc == BASEL_ECANCELLED, "%s: cancel at the first call gives %d (%s)", mc->label, rc,
              rc ? err.message : "ok");
        CHECK(stop.calls == 1, "%s: one call before stopping (%d)", mc->label, stop.calls);
        prog go = {.cancel = 0};
        rc = fit(mc, data, &go, "2", NULL, &err);
        CHECK(rc == BASEL_OK, "%s: runs to the end: %s", mc->label, rc ? err.message : "ok");
        CHECK(go.calls >= 1 && go.first == 0 && go.decreasing == 0,
              "%s: progress from 0, never decreasing (%d calls, first %g, %d decreases)", mc->label,
              go.calls, go.first, go.decreasing);
        if (mc->ends_at_one) CHECK(go.last == 1, "%s: progress ends at 1 (%g)", mc->label, go.last);
        prog half = {.stop_at = 0.25}; /* a quarter of the work: the chains are still running */
        /* one thread: the calling thread runs the chains and sees the fraction as it goes (with
         * two, the other thread can finish a short run before the calling one starts) */
        rc = fit(mc, data, &half, "1", NULL, &err);
        if (checkpoints(mc))
            CHECK(rc == BASEL_OK, "%s: stopped a quarter of the way: %s", mc->label, rc ? err.message : "ok");
        else
            CHECK(rc == BASEL_ECANCELLED || rc == BASEL_OK, "%s: BASEL_PROGRESS_STOP without checkpoints: %d",
                  mc->label, rc);
        same_bytes(mc, data);
    }
    basel_data_free(lin);
    basel_data_free(pima);
    basel_data_free(sinc);
    basel_data_free(sinc200);
    return check_report("test_cancel");
}
