/*
 * cli_par_mpi.c: the command across MPI processes (built only with
 * -DBASEL_MPI=ON, instead of cli_par_none.c; README "More than one
 * machine"). The only file that calls MPI; the library gets a rank, a size
 * and one collective through basel_options_set_ranks.
 *
 * The protocol, chosen so that no process can wait forever for one that has
 * given up: every rank > 0 sends rank 0 exactly one message per run, tag
 * MSG_TAG, either its chains (from gather, inside the fit) or, if it never
 * got there (bad input, a command other than fit, a method whose chains do
 * not travel), its exit status (from cli_par_finish). Rank 0 receives
 * exactly one message from each rank: in gather if its fit gets there,
 * otherwise in cli_par_finish, where it discards them. Then rank 0
 * broadcasts its exit status, and every rank exits with it. A rank's sends
 * complete once rank 0 receives, and rank 0 always reaches cli_par_finish,
 * so every rank does.
 *
 * Ranks > 0 write nothing: their stderr goes to a temporary file, shown
 * (each line after "basel[rank R]: ") only when that rank failed on its own
 * and rank 0 heard of it in gather, since otherwise rank 0 has printed the
 * same message already (every rank reads the same input). Progress, the
 * seed note and the warnings are rank 0's. BASEL_MPI_VERBOSE=1 makes rank 0
 * say what each rank sent.
 *
 * Outside a launcher (no OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK in the
 * environment), or in a job of one process, MPI is not kept and the command
 * is the one-process command.
 */
#include "cli.h"

#include <mpi.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MSG_TAG 7177
enum { KIND_CHAINS = 1, KIND_STATUS = 2 };

static int started, rank, size;
static int sent;          /* rank > 0: its one message has gone */
static int *heard;        /* rank 0: heard[r], rank r's message arrived */
static int heard_failure; /* rank 0: a rank sent its status instead of its chains */
static int saved_stderr = -1;
static FILE *captured;
static basel_ranks ranks;
static unsigned long shared_seed;

/* Rank 0: the one message of rank r, as bytes after its kind and status. */
static int receive(int r, int *kind, int *status, void **bytes, size_t *len)
{
    MPI_Status st;
    int count = 0;
    if (MPI_Probe(r, MSG_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS) return -1;
    MPI_Get_count(&st, MPI_BYTE, &count);
    char *buf = malloc(count > 0 ? (size_t)count : 1);
    if (!buf) { /* take it off the wire all the same (a truncation error, returned) */
        char one;
        MPI_Recv(&one, 0, MPI_BYTE, r, MSG_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        heard[r] = 1;
        return -1;
    }
    const int rc = MPI_Recv(buf, count, MPI_BYTE, r, MSG_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    heard[r] = 1;
    if (rc != MPI_SUCCESS || count < 2 * (int)sizeof(int)) {
        free(buf);
        return -1;
    }
    memcpy(kind, buf, sizeof *kind);
    memcpy(status, buf + sizeof(int), sizeof *status);
    *len = (size_t)count - 2 * sizeof(int);
    memmove(buf, buf + 2 * sizeof(int), *len);
    *bytes = buf;
    return 0;
}

/* Rank > 0: its one message. */
static int send_once(int kind, int status, const void *bytes, size_t len)
{
    if (sent) return -1;
    sent = 1;
    if (len > (size_t)INT_MAX - 2 * sizeof(int)) { /* MPI counts are int: say so instead */
        fprintf(stderr, "basel: this rank's chains (%zu bytes) exceed one MPI message (2 GiB)\n", len);
        kind = KIND_STATUS;
        status = 2;
        len = 0;
    }
    char *buf = malloc(len + 2 * sizeof(int));
    if (!buf) return -1;
    memcpy(buf, &kind, sizeof kind);
    memcpy(buf + sizeof(int), &status, sizeof status);
    if (len) memcpy(buf + 2 * sizeof(int), bytes, len);
    const int rc = MPI_Send(buf, (int)(len + 2 * sizeof(int)), MPI_BYTE, 0, MSG_TAG, MPI_COMM_WORLD);
    free(buf);
    return rc == MPI_SUCCESS && kind == KIND_CHAINS ? 0 : -1;
}

/* basel_ranks.gather (basel.h). */
static int gather(void *user, const void *bytes, size_t len, void **parts, size_t *lens)
{
    (void)user;
    if (rank > 0) return send_once(KIND_CHAINS, 0, bytes, len);
    int failed = 0;
    for (int r = 1; r < size; r++) {
        if (heard[r]) { /* a second gather in one run: nothing more comes */
            failed = 1;
            continue;
        }
        int kind = 0, status = 0;
        void *buf = NULL;
        size_t n = 0;
        if (receive(r, &kind, &status, &buf, &n)) {
            failed = 1;
            continue;
        }
        if (kind != KIND_CHAINS) {
            fprintf(stderr, "basel: rank %d stopped before its chains ran (exit status %d)\n", r, status);
            heard_failure = failed = 1;
            free(buf);
        } else if (parts) {
            if (getenv("BASEL_MPI_VERBOSE")) fprintf(stderr, "basel: rank %d sent its chains (%zu bytes)\n", r, n);
            parts[r] = buf;
            lens[r] = n;
        } else {
            free(buf);
        }
    }
    return failed;
}

/* Ranks > 0: stderr into a temporary file until cli_par_finish. */
static void capture_stderr(void)
{
    fflush(stderr);
    captured = tmpfile();
    if (!captured) return;
    saved_stderr = dup(STDERR_FILENO);
    if (saved_stderr < 0 || dup2(fileno(captured), STDERR_FILENO) < 0) {
        fclose(captured);
        captured = NULL;
    }
}

static void release_stderr(int show)
{
    if (!captured) return;
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    if (show) {
        char line[1024];
        rewind(captured);
        while (fgets(line, sizeof line, captured)) fprintf(stderr, "basel[rank %d]: %s", rank, line);
    }
    fclose(captured);
    captured = NULL;
}

void cli_par_say(const basel_error *err)
{
    if (saved_stderr < 0) return;
    dprintf(saved_stderr, "basel[rank %d]: ", rank);
    if (err->file[0]) {
        dprintf(saved_stderr, "%s:", err->file);
        if (err->line) dprintf(saved_stderr, "%zu:", err->line);
        if (err->line && err->column) dprintf(saved_stderr, "%zu:", err->column);
        dprintf(saved_stderr, " ");
    }
    dprintf(saved_stderr, "%s\n", err->message);
}

void cli_par_init(int *argc, char ***argv)
{
    /* started by a launcher: Open MPI's mpirun says how many, a PMIx or PMI
     * one (srun) only that there is a job */
    const char *np = getenv("OMPI_COMM_WORLD_SIZE");
    if (np ? atoi(np) < 2 : !getenv("PMIX_RANK") && !getenv("PMI_RANK")) return;
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return;
    started = 1;
    /* failures come back as codes, which the protocol turns into exit
     * statuses, instead of ending the job */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) { /* one process: the command as without MPI */
        MPI_Finalize();
        started = rank = 0;
        size = 1;
        return;
    }
    if (rank == 0 && !(heard = calloc((size_t)size, sizeof *heard))) MPI_Abort(MPI_COMM_WORLD, 1);
    /* one seed for a fit that names none, chosen here since every rank is
     * sure to be here (one from each rank's clock would make different fits) */
    unsigned long seed = ((unsigned long)time(NULL) * 2654435761UL ^ (unsigned long)getpid() * 40503UL) & 0x7fffffffUL;
    MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
    shared_seed = seed ? seed : 1;
    ranks = (basel_ranks){rank, size, gather, NULL};
    if (rank > 0) {
        capture_stderr();
        /* what a command prints (help, a summary, predictions) is rank 0's;
         * every rank runs the same command on the same input */
        if (!freopen("/dev/null", "w", stdout)) MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int cli_par_rank(void) { return rank; }

int cli_par_size(void) { return started ? size : 1; }

int cli_par_reduce(double *x, size_t n, int max)
{
    if (!started) return 0;
    for (size_t at = 0; at < n;) { /* MPI counts are int */
        const size_t len = n - at < (size_t)INT_MAX ? n - at : (size_t)INT_MAX;
        if (MPI_Allreduce(MPI_IN_PLACE, x + at, (int)len, MPI_DOUBLE, max ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD) !=
            MPI_SUCCESS)
            return -1;
        at += len;
    }
    return 0;
}

unsigned long cli_par_seed(void) { return started ? shared_seed : 0; }

const basel_ranks *cli_par_ranks(void) { return started && size > 1 ? &ranks : NULL; }

int cli_par_finish(int status)
{
    if (!started) return status;
    if (rank > 0 && !sent) send_once(KIND_STATUS, status, NULL, 0);
    if (rank == 0)
        for (int r = 1; r < size; r++) {
            int kind, st;
            void *buf = NULL;
            size_t n;
            if (!heard[r] && !receive(r, &kind, &st, &buf, &n)) free(buf);
        }
    int verdict[2] = {status, heard_failure};
    MPI_Bcast(verdict, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank > 0) release_stderr(status != 0 && verdict[1]);
    free(heard);
    MPI_Finalize();
    return verdict[0];
}
