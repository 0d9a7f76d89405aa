/*
 * fit.c: basel_fit_run (options -> problem -> engine -> document), the
 * FIT.json file, and the basel_fit accessors.
 */
#include "fit.h"
#include "../problem/problem.h"
#include "../engine/engine.h"
#include "../run/chains.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long pick_seed(const bsl_params *user, int *rc, basel_error *err)
{
    size_t seed = 0;
    *rc = bsl_params_size(user, "seed", 0, 0, 4294967295UL, &seed, err);
    if (seed) return (unsigned long)seed;
    /* a restart that names no seed continues with the checkpoint's */
    const char *restart = bsl_params_get(user, "restart");
    unsigned long saved;
    if (restart && *restart && bsl_chains_ckpt_seed(restart, &saved) == BASEL_OK) return saved;
    /* no seed given: one from the clock and pid, reported in the fit */
    return bsl_mix_seed((unsigned long)time(NULL), (unsigned long)getpid()) & 0x7fffffffUL;
}

/* Comma-joined names, for the effective target and inputs settings. */
static int join_names(bsl_params *settings, const char *key, char *const *names, size_t n)
{
    char buf[sizeof settings->value[0]] = "";
    for (size_t j = 0; j < n; j++) {
        if (strlen(buf) + strlen(names[j]) + 2 >= sizeof buf) return BASEL_OK; /* too long to record: names are in the fit */
        if (j) strcat(buf, ",");
        strcat(buf, names[j]);
    }
    return bsl_params_set(settings, key, buf) ? BASEL_EINVAL : BASEL_OK;
}

/* Every setting of the run as it ran: the engine's options (defaults filled,
 * derived values recorded), the method, the target and inputs by name, and
 * the seed. Refitting with exactly these reproduces the document. */
static json_t *settings_json(const bsl_engine_def *e, const bsl_params *settings)
{
    json_t *s = json_object();
    int bad = 0;
    bsl_json_put(s, "method", json_string(e->name), &bad);
    for (size_t i = 0; i < settings->n; i++)
        if (bsl_option_is_recorded(settings->name[i]))
            bsl_json_put(s, settings->name[i], json_string(settings->value[i]), &bad);
    if (bad) json_decref(s);
    return bad ? NULL : s;
}

/* NULL when out of memory. */
/* factors (docs/FIT.md): each categorical input, its levels (sorted, the
 * first the reference) and its indicator columns among "inputs"; and in
 * "atoms", the factor's atom lists those columns. */
static int factors_json(json_t *doc, const bsl_problem *P)
{
    if (!P->nfactors) return 0;
    json_t *fs = json_array();
    int bad = !fs;
    json_t *atoms = json_object_get(doc, "atoms");
    for (size_t f = 0; f < P->nfactors && !bad; f++) {
        const bsl_factor *F = &P->factors[f];
        json_t *lv = json_array(), *cols = json_array(), *o = json_object();
        for (size_t l = 0; l < F->nlevels; l++) bsl_json_push(lv, json_string(F->levels[l]), &bad);
        for (size_t l = 1; l < F->nlevels; l++) bsl_json_push(cols, json_string(P->input_names[F->first + l - 1]), &bad);
        bsl_json_put(o, "input", json_string(F->input), &bad);
        bsl_json_put(o, "levels", lv, &bad);
        bsl_json_put(o, "reference", json_string(F->levels[0]), &bad);
        bsl_json_put(o, "columns", json_incref(cols), &bad);
        for (size_t g = 0; g < json_array_size(atoms) && !bad; g++) {
            json_t *a = json_array_get(atoms, g);
            if (strcmp(json_string_value(json_object_get(a, "name")), F->input) == 0) {
                bsl_json_put(a, "columns", json_incref(cols), &bad);
                bsl_json_put(o, "atom", json_integer((json_int_t)g), &bad);
            }
        }
        json_decref(cols);
        bsl_json_push(fs, o, &bad);
    }
    bsl_json_put(doc, "factors", fs, &bad);
    return bad;
}

static json_t *header(const bsl_problem *P, const bsl_params *settings, unsigned long seed)
{
    json_t *doc = json_object();
    int bad = 0;
    bsl_json_put(doc, "format_version", json_integer(BSL_FORMAT_VERSION), &bad);
    bsl_json_put(doc, "basel_version", json_string(BASEL_VERSION_STRING), &bad);
    bsl_json_put(doc, "method", json_string(P->engine->name), &bad);
    bsl_json_put(doc, "seed", json_integer((json_int_t)seed), &bad);
    bsl_json_put(doc, "rng", json_string("mt19937"), &bad);
    bsl_json_put(doc, "settings", settings_json(P->engine, settings), &bad);
    bsl_json_put(doc, "n", json_integer((json_int_t)P->n), &bad);
    if (P->rows_dropped) bsl_json_put(doc, "rows_dropped", json_integer((json_int_t)P->rows_dropped), &bad);
    json_t *in = json_array(), *tg = json_array();
    for (size_t j = 0; j < P->d; j++) bsl_json_push(in, json_string(P->input_names[j]), &bad);
    for (size_t j = 0; j < P->c; j++) bsl_json_push(tg, json_string(P->target_names[j]), &bad);
    bsl_json_put(doc, "inputs", in, &bad);
    bsl_json_put(doc, "targets", tg, &bad);
    json_t *st = json_object();
    bsl_json_put(st, "applied", json_boolean(P->standardized), &bad);
    bsl_json_put(st, "mean", bsl_json_doubles(P->x_mean, P->d), &bad);
    bsl_json_put(st, "scale", bsl_json_doubles(P->x_scale, P->d), &bad);
    int y_scaled = 0;
    for (size_t o = 0; o < P->c && P->y_scale; o++) y_scaled |= P->y_scale[o] != 1.0;
    if (y_scaled) bsl_json_put(st, "target_scale", bsl_json_doubles(P->y_scale, P->c), &bad);
    bsl_json_put(doc, "standardize", st, &bad);
    if (P->stats) bsl_json_put(doc, "summary_statistics", bsl_stats_json(P), &bad);
    if (bad) json_decref(doc);
    return bad ? NULL : doc;
}

int bsl_fit_wrap(basel_fit **out, json_t *doc, basel_error *err)
{
    basel_fit *f = calloc(1, sizeof *f);
    if (!f) {
        json_decref(doc);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    f->doc = doc;
    const json_t *pip = json_object_get(doc, "pip");
    f->m = json_array_size(pip);
    f->pip = bsl_calloc(f->m + 1, sizeof *f->pip);
    if (!f->pip) {
        basel_fit_free(f);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    for (size_t j = 0; j < f->m; j++) f->pip[j] = json_number_value(json_array_get(pip, j));
    if (bsl_fit_cache(f)) {
        basel_fit_free(f);
        return bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    *out = f;
    return BASEL_OK;
}

/* The engine's sampling progress (done, total in its unit) as the fit's
 * "sampling" phase. */
typedef struct sampling_progress {
    const bsl_progress *pr;
    const char *unit;
    const double *later; /* the engine's estimate of what follows (ctx.later) */
} sampling_progress;

static int sampling(double done, double total, void *user)
{
    const sampling_progress *s = user;
    return bsl_progress_report_later(s->pr, "sampling", s->unit, done, total, *s->later);
}

/* The identity of a run, which a checkpoint must match to be continued:
 * the library's version, the settings as they will be recorded, the seed,
 * whether draws are kept, and the numbers the engine reads. */
static unsigned long long run_identity(const bsl_engine_def *e, const bsl_params *settings,
                                       unsigned long seed, int keep_draws, const bsl_problem *P)
{
    unsigned long long h = bsl_fnv1a(BSL_FNV1A, BASEL_VERSION_STRING, sizeof BASEL_VERSION_STRING);
    h = bsl_fnv1a(h, e->name, strlen(e->name) + 1);
    for (size_t i = 0; i < settings->n; i++)
        if (bsl_option_is_recorded(settings->name[i])) {
            h = bsl_fnv1a(h, settings->name[i], strlen(settings->name[i]) + 1);
            h = bsl_fnv1a(h, settings->value[i], strlen(settings->value[i]) + 1);
        }
    h = bsl_fnv1a(h, &seed, sizeof seed);
    h = bsl_fnv1a(h, &keep_draws, sizeof keep_draws); /* the draws kept so far are part of the state */
    const size_t dims[3] = {P->n, P->d, P->c};
    h = bsl_fnv1a(h, dims, sizeof dims);
    if (P->X) h = bsl_fnv1a(h, P->X, P->n * P->d * sizeof *P->X);
    if (P->X32) h = bsl_fnv1a(h, P->X32, P->n * P->d * sizeof *P->X32);
    if (P->X8) h = bsl_fnv1a(h, P->X8, P->n * P->d * sizeof *P->X8);
    if (P->X2) h = bsl_fnv1a(h, P->X2, P->n * ((P->d + 15) / 16) * sizeof *P->X2);
    if (P->Y) h = bsl_fnv1a(h, P->Y, P->n * P->c * sizeof *P->Y);
    if (P->cls) h = bsl_fnv1a(h, P->cls, P->n * sizeof *P->cls);
    if (P->stats) { /* a fit from summary statistics: they are its data */
        const bsl_stats *S = P->stats;
        h = bsl_fnv1a(h, S->xtx, S->p * S->p * sizeof *S->xtx);
        h = bsl_fnv1a(h, S->xty, S->p * sizeof *S->xty);
        h = bsl_fnv1a(h, &S->yty, sizeof S->yty);
        if (S->x_mean) h = bsl_fnv1a(h, S->x_mean, S->p * sizeof *S->x_mean);
        h = bsl_fnv1a(h, &S->y_mean, sizeof S->y_mean);
    }
    return h;
}

/* The checkpoint options into ctx, refused for engines that cannot. */
static int checkpoint_options(bsl_engine_ctx *ctx, const bsl_params *user, basel_error *err)
{
    const char *ck = bsl_params_get(user, "checkpoint"), *rs = bsl_params_get(user, "restart");
    const char *every = bsl_params_get(user, "checkpoint-every");
    ctx->checkpoint = ck && *ck ? ck : NULL;
    ctx->restart = rs && *rs ? rs : NULL;
    ctx->checkpoint_every = 60;
    if (!ctx->checkpoint && !ctx->restart && !every) return BASEL_OK;
    if (!ctx->def->checkpoints) {
        char can[256];
        return bsl_fail(err, BASEL_EINVAL, "--%s: --method %s cannot checkpoint (the MCMC methods %s can)",
                        ctx->checkpoint ? "checkpoint" : ctx->restart ? "restart" : "checkpoint-every",
                        ctx->def->name, bsl_engine_list(can, sizeof can, "checkpoint", "and"));
    }
    if (every) ctx->checkpoint_every = strtod(every, NULL); /* checked against the catalogue */
    return BASEL_OK;
}

/* --max-time into ctx: the samplers on the chain driver with a subset
 * design (bd, rj, ssvs) stop at it as if interrupted (chains.h). */
static int max_time_option(bsl_engine_ctx *ctx, const bsl_params *user, basel_error *err)
{
    const char *mt = bsl_params_get(user, "max-time");
    ctx->max_time = 0;
    if (!mt || !*mt) return BASEL_OK;
    if (!ctx->def->max_time) {
        char can[256];
        return bsl_fail(err, BASEL_EINVAL, "--max-time: --method %s cannot stop on a time budget (%s can)",
                        ctx->def->name, bsl_engine_list(can, sizeof can, "max-time", "and"));
    }
    ctx->max_time = strtod(mt, NULL); /* checked against the catalogue */
    return BASEL_OK;
}

/* Chains over processes (basel_options_set_ranks): each process saves and
 * sends its chains' states once, at the end, so nothing that pauses or
 * stops the chains part-way (checkpoints, a time budget) runs across them. */
static int ranks_option(bsl_engine_ctx *ctx, const basel_options *o, basel_error *err)
{
    ctx->ranks = o->ranks.size > 1 ? &o->ranks : NULL;
    if (!ctx->ranks) return BASEL_OK;
    if (ctx->checkpoint || ctx->restart || ctx->max_time > 0)
        return bsl_fail(err, BASEL_EINVAL, "--checkpoint, --restart and --max-time run in one process, not across %d",
                        o->ranks.size);
    return BASEL_OK;
}

/* The options' engine, its effective settings, and the options every run
 * reads before any work (the draws it keeps, the thread count). */
int bsl_fit_prepare(const basel_options *o, const bsl_engine_def **e, bsl_params *settings, int *keep_draws,
                    size_t *threads, basel_error *err)
{
    /* GSL's default handler aborts the process; the library checks every
     * status itself and never aborts (a front end's R or Python session
     * must survive a bad input): off before any work, as the CLI does */
    gsl_set_error_handler_off();
    int rc = bsl_engine_for(e, &o->p, err);
    if (!rc) rc = bsl_engine_resolve(*e, &o->p, settings, err);
    if (rc) return rc;
    const char *kd = bsl_params_get(&o->p, "keep-draws");
    *keep_draws = kd && strcmp(kd, "1") == 0 ? 1 : kd && strcmp(kd, "2") == 0 ? 2 : 0;
    if (*keep_draws && !(*e)->keeps_draws) /* refused before the run, not after it */
        return bsl_fail(err, BASEL_EINVAL, "--draws: --method %s keeps no draws", (*e)->name);
    *threads = 0;
    return bsl_params_size(&o->p, "threads", 0, 0, 1024, threads, err);
}

int bsl_fit_problem(basel_fit **out, const basel_options *o, bsl_params *settings, bsl_problem *P, int keep_draws,
                    size_t threads, basel_error *err)
{
    const bsl_engine_def *e = P->engine;
    int rc = BASEL_OK;
    const unsigned long seed = pick_seed(&o->p, &rc, err);
    if (!rc) rc = join_names(settings, "target", P->target_names, P->c);
    if (!rc) /* the inputs as given: a factor by its name, not its indicators' */
        rc = P->group_names ? join_names(settings, "inputs", P->group_names, P->ngroups)
                            : join_names(settings, "inputs", P->input_names, P->d);
    char seed_text[24];
    snprintf(seed_text, sizeof seed_text, "%lu", seed);
    if (!rc && bsl_params_set(settings, "seed", seed_text)) rc = bsl_fail(err, BASEL_EINVAL, "too many settings");
    const char *na = bsl_params_get(&o->p, "na");
    if (!rc && bsl_params_set(settings, "na", na ? na : "error")) rc = bsl_fail(err, BASEL_EINVAL, "too many settings");
    const bsl_progress *pr = o->progress.fraction || o->progress.report ? &o->progress : NULL;
    sampling_progress sp = {pr, e->unit ? e->unit : "steps", NULL};
    bsl_engine_ctx ctx = {e, P, settings, &o->p, seed, (int)threads, keep_draws, pr ? sampling : NULL, &sp,
                          pr, NULL, NULL, 60, 0, 0, NULL, NAN, NULL};
    sp.later = &ctx.later;
    if (!rc) rc = checkpoint_options(&ctx, &o->p, err);
    if (!rc) rc = max_time_option(&ctx, &o->p, err);
    if (!rc) rc = ranks_option(&ctx, o, err);
    /* the pointwise log-likelihoods (keep_draws 2) are drawn after the run:
     * a checkpoint made without them restarts with them. Only a checkpoint
     * and the ranks (chains_ranks.c: another fit refused) read the
     * identity: hashing X byte by byte was 2.6 % of a default fit at
     * n = 1000, p = 10^5 (about a CPU-second) */
    if (!rc && (ctx.checkpoint || ctx.restart || ctx.ranks))
        ctx.run_id = run_identity(e, settings, seed, keep_draws != 0, P);
    /* the engine's side output: opened here, written by the engine,
     * committed (renamed into place) only when its fit succeeds */
    bsl_outfile side = {0};
    const char *side_path = e->side_output ? bsl_params_get(settings, e->side_output) : NULL;
    if (!rc && side_path && *side_path && !(rc = bsl_out_open(&side, side_path, err))) ctx.side = side.fp;
    bsl_result res = {0};
    if (!rc) rc = e->fit(&ctx, &res, err);
    if (side.fp) {
        if (rc) bsl_out_abort(&side);
        else rc = bsl_out_commit(&side, err);
    }
    bsl_problem_drop_inputs(P);
    json_t *doc = NULL;
    /* the last phase of the library's work: the fit's document assembled and checked */
    if (!rc) (void)bsl_progress_report_later(pr, "document", "fits", 0, 1, 0);
    if (!rc) {
        doc = header(P, settings, seed);
        rc = doc ? bsl_document_fill(doc, &res, err) : bsl_fail(err, BASEL_ENOMEM, "out of memory");
        if (!rc && factors_json(doc, P)) rc = bsl_fail(err, BASEL_ENOMEM, "out of memory");
    }
    bsl_problem_free(P);
    if (!rc) rc = bsl_document_check(doc, "the fit", err);
    if (!rc) rc = bsl_fit_wrap(out, doc, err);
    else json_decref(doc);
    if (!rc) (void)bsl_progress_report_later(pr, "document", "fits", 1, 1, 0);
    if (!rc && res.draws && res.draws->ndraws) {
        (*out)->draws = res.draws;
        res.draws = NULL;
    }
    bsl_result_free(&res);
    return rc;
}

/* basel_fit_run, or with take (the same table as data) basel_fit_run_take,
 * which frees the table on every path. */
static int fit_table(basel_fit **out, const basel_data *data, basel_data *take, const basel_options *o,
                     basel_error *err)
{
    *out = NULL;
    bsl_error_clear(err);
    if (!data || !o) { /* take, when given, is the fit's to free, also here */
        basel_data_free(take);
        return bsl_fail(err, BASEL_EINVAL, "no table to fit, or no options");
    }
    if (o->ranks.size > 1 && o->ranks.column_blocks) return bsl_blocks_fit(out, data, take, o, err);
    const bsl_engine_def *e;
    bsl_params settings;
    int keep_draws;
    size_t threads;
    basel_options chosen; /* no --method: the default for this many inputs */
    if (!bsl_params_get(&o->p, "method")) {
        chosen = *o;
        const char *tg = bsl_params_get(&o->p, "target"), *in = bsl_params_get(&o->p, "inputs");
        size_t targets = 1, listed = 1;
        for (const char *c = tg; c && *c; c++) targets += *c == ',';
        for (const char *c = in; c && *c; c++) listed += *c == ',';
        const size_t inputs = in && *in ? listed : data->p > targets ? data->p - targets : 0;
        if (bsl_params_set(&chosen.p, "method", bsl_default_method(&o->p, inputs))) {
            basel_data_free(take);
            return bsl_fail(err, BASEL_EINVAL, "too many options");
        }
        o = &chosen;
    }
    int rc = bsl_fit_prepare(o, &e, &settings, &keep_draws, &threads, err);
    const bsl_progress *pr = o->progress.fraction || o->progress.report ? &o->progress : NULL;
    const double ncols = (double)(data->p ? data->p : 1);
    if (!rc && bsl_progress_report(pr, "standardising", "columns", 0, ncols))
        rc = bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    if (rc) {
        basel_data_free(take);
        return rc;
    }
    bsl_problem P;
    rc = take ? bsl_problem_build_take(&P, take, e, &o->p, &settings, err)
              : bsl_problem_build(&P, data, e, &o->p, &settings, err);
    if (rc) return rc;
    if (bsl_progress_report(pr, "standardising", "columns", ncols, ncols)) {
        bsl_problem_free(&P);
        return bsl_fail(err, BASEL_ECANCELLED, "cancelled");
    }
    return bsl_fit_problem(out, o, &settings, &P, keep_draws, threads, err);
}

int basel_fit_run(basel_fit **out, const basel_data *data, const basel_options *o, basel_error *err)
{
    return fit_table(out, data, NULL, o, err);
}

int basel_fit_run_take(basel_fit **out, basel_data *data, const basel_options *o, basel_error *err)
{
    return fit_table(out, data, data, o, err);
}

void basel_fit_free(basel_fit *f)
{
    if (!f) return;
    json_decref(f->doc);
    free(f->pip);
    free(f->size);
    free(f->centres);
    for (size_t i = 0; i < BSL_NSELECTIONS; i++) free(f->selected[i]);
    bsl_fit_free_results(f);
    if (f->draws) {
        bsl_vs_result_free(f->draws);
        free(f->draws);
    }
    free(f);
}

int basel_fit_format_version(void) { return BSL_FORMAT_VERSION; }

unsigned long basel_fit_seed(const basel_fit *f)
{
    return (unsigned long)json_integer_value(json_object_get(f->doc, "seed"));
}

size_t basel_fit_rows_dropped(const basel_fit *f)
{
    const json_int_t n = json_integer_value(json_object_get(f->doc, "rows_dropped"));
    return n > 0 ? (size_t)n : 0;
}

const double *basel_fit_pip(const basel_fit *f, size_t *m)
{
    *m = f->m;
    return f->pip;
}

static const json_t *warnings(const basel_fit *f)
{
    return json_object_get(json_object_get(f->doc, "diagnostics"), "warnings");
}

int basel_fit_interrupted(const basel_fit *f, double *done, double *planned)
{
    const json_t *it = json_object_get(json_object_get(f->doc, "diagnostics"), "interrupted");
    if (!json_is_object(it)) return 0;
    if (done) *done = json_number_value(json_object_get(it, "iterations"));
    if (planned) *planned = json_number_value(json_object_get(it, "planned"));
    return 1;
}

size_t basel_fit_warning_count(const basel_fit *f)
{
    return json_array_size(warnings(f));
}

const char *basel_fit_warning(const basel_fit *f, size_t i)
{
    return json_string_value(json_array_get(warnings(f), i));
}

/* jansson's encoder hands its output over a few bytes at a time (a token,
 * an indent), and json_dumpf makes each piece an fwrite, with the stream's
 * lock: a tenth of a FIT.json's writing. The pieces are gathered here and
 * written a block at a time instead; the bytes are json_dumpf's. */
typedef struct dump_buf {
    FILE *fp;
    size_t len;
    char b[1 << 16];
} dump_buf;

static int dump_flush(dump_buf *d)
{
    const int ok = fwrite(d->b, 1, d->len, d->fp) == d->len;
    d->len = 0;
    return ok ? 0 : -1;
}

static int dump_piece(const char *piece, size_t size, void *data)
{
    dump_buf *d = data;
    if (d->len + size > sizeof d->b && dump_flush(d)) return -1;
    if (size > sizeof d->b) return fwrite(piece, 1, size, d->fp) == size ? 0 : -1;
    memcpy(d->b + d->len, piece, size);
    d->len += size;
    return 0;
}

int basel_fit_write_json(const basel_fit *f, const char *path, basel_error *err)
{
    bsl_outfile out;
    int rc = bsl_out_open(&out, path, err);
    if (rc) return rc;
    dump_buf *d = malloc(sizeof *d);
    if (!d) {
        bsl_out_abort(&out);
        return bsl_fail_at(err, BASEL_ENOMEM, path, 0, 0, "out of memory while writing");
    }
    d->fp = out.fp;
    d->len = 0;
    /* JSON_REAL_PRECISION(17): doubles survive the round trip */
    errno = 0;
    const int bad = json_dump_callback(f->doc, dump_piece, d, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0 ||
                    dump_flush(d) || fputc('\n', out.fp) == EOF;
    free(d);
    if (bad) {
        const int e = errno;
        bsl_out_abort(&out);
        if (!e || e == ENOMEM) /* jansson's encoder fails without an I/O errno only when out of memory */
            return bsl_fail_at(err, BASEL_ENOMEM, path, 0, 0, "out of memory while writing");
        return bsl_fail_at(err, BASEL_EIO, path, 0, 0, "cannot write: %s", strerror(e));
    }
    return bsl_out_commit(&out, err);
}

int bsl_fit_adopt(basel_fit **out, json_t *doc, const char *source, basel_error *err)
{
    *out = NULL;
    int rc = bsl_document_check(doc, source, err);
    if (rc) {
        json_decref(doc);
        return rc;
    }
    return bsl_fit_wrap(out, doc, err);
}

/* jansson's load error, with its line and column, as ours. */
static int load_error(const json_error_t *je, int code, const char *name, basel_error *err)
{
    /* jansson reports a failed allocation as such, or (when its reader's
     * own buffers cannot be made) with no text at all */
    if (json_error_code(je) == json_error_out_of_memory || !je->text[0])
        return bsl_fail(err, BASEL_ENOMEM, "%s: out of memory", name);
    /* not JSON from its first character: another kind of file, most often
     * a CSV given where the fit goes (predict's arguments swapped) */
    if (code == BASEL_EPARSE && je->position <= 1 && je->line == 1)
        return bsl_fail_at(err, code, name, 1, 1,
                           "not a FIT.json (a fit starts with '{'; a CSV or other file given as the fit?)");
    return bsl_fail_at(err, code, name, je->line > 0 ? (size_t)je->line : 0, je->column > 0 ? (size_t)je->column : 0,
                       "%s", je->text);
}

/* The whole of fp in one buffer (*len bytes, NUL-terminated), or NULL on
 * a read error or out of memory (errno says which). jansson's own file
 * reader takes one getc per byte: 5 % of a kernel fit's predict. */
static char *slurp(FILE *fp, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, fp);
        if (n < cap - 1) break;
        char *b = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!b) {
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        buf = b;
        cap *= 2;
    }
    if (!buf) return NULL;
    if (ferror(fp)) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int basel_fit_read_json(basel_fit **out, const char *path, basel_error *err)
{
    *out = NULL;
    json_error_t je;
    const int from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    FILE *fp = from_stdin ? stdin : fopen(path, "rb");
    if (!fp) return bsl_fail_at(err, BASEL_EIO, name, 0, 0, "cannot open: %s", strerror(errno)); /* as every reader */
    size_t len = 0;
    char *text = slurp(fp, &len);
    const int oom = !text && errno == ENOMEM;
    if (!from_stdin) fclose(fp);
    if (oom) return bsl_fail(err, BASEL_ENOMEM, "%s: out of memory", name);
    /* what cannot be read: jansson's readers word it, as before */
    json_t *doc = text         ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &je)
                  : from_stdin ? json_loadf(stdin, JSON_REJECT_DUPLICATES, &je)
                               : json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (!doc) {
        const int io = je.line == -1 || strstr(je.text, "unable to open") != NULL;
        return load_error(&je, io ? BASEL_EIO : BASEL_EPARSE, name, err);
    }
    return bsl_fit_adopt(out, doc, name, err);
}

/* The same bytes from memory give the same fit or the same error. */
int bsl_fit_read_buffer(basel_fit **out, const char *name, const char *text, size_t len,
                        basel_error *err)
{
    *out = NULL;
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) return load_error(&je, BASEL_EPARSE, name, err);
    return bsl_fit_adopt(out, doc, name, err);
}

int basel_fit_from_json(basel_fit **out, const char *name, const char *text, size_t len, basel_error *err)
{
    return bsl_fit_read_buffer(out, name ? name : "<json>", text, len, err);
}
