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
#define BLOCK_TAG 7178 /* gatherv of fit --column-blocks */
enum { KIND_CHAINS = 1, KIND_STATUS = 2 };

static int started, rank, size;
static int sent;          /* rank > 0: its one message has gone */
static int *heard;        /* rank 0: heard[r], rank r's message arrived */
static int heard_failure; /* rank 0: a rank sent its status instead of its chains */
static int saved_stderr = -1;
static FILE *captured;
static basel_ranks ranks, ranks_blocks;
static int serialized; /* MPI may be called from any one thread at a time (rank 0's chains ask for columns) */
static unsigned long exchanges; /* gatherv calls: BASEL_MPI_VERBOSE says how many */
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

/* A pause between polls: none for the first 2000 (a request in a burst
 * is answered at once), then sleeps that double up to 250 us. Open MPI's
 * blocking calls poll, so a process holding a column block would burn a
 * CPU for the whole fit while it waits for rank 0's next request; this
 * way an idle process wakes 4000 times a second, a fraction of a percent
 * of a core. */
static void pause_after(int spins, long *ns)
{
    if (spins < 2000) return;
    *ns = *ns ? (*ns < 125000 ? 2 * *ns : 250000) : 1000;
    nanosleep(&(struct timespec){0, *ns}, NULL);
}

/* Wait for rq without holding a core. */
static int wait_quietly(MPI_Request *rq, MPI_Status *st)
{
    long ns = 0;
    for (int spins = 0;; spins++) {
        int done = 0;
        if (MPI_Test(rq, &done, st) != MPI_SUCCESS) return -1;
        if (done) return 0;
        pause_after(spins, &ns);
    }
}

/* Wait for a message from rank r with tag without holding a core. */
static int probe_quietly(int r, int tag, MPI_Status *st)
{
    long ns = 0;
    for (int spins = 0;; spins++) {
        int there = 0;
        if (MPI_Iprobe(r, tag, MPI_COMM_WORLD, &there, st) != MPI_SUCCESS) return -1;
        if (there) return 0;
        pause_after(spins, &ns);
    }
}

/* basel_ranks.bcast (fit --column-blocks): in pieces, MPI counts are int. */
static int bcast(void *user, void *buf, size_t len, int root)
{
    (void)user;
    for (size_t at = 0; at < len;) {
        const size_t piece = len - at < (size_t)INT_MAX ? len - at : (size_t)INT_MAX;
        MPI_Request rq;
        if (MPI_Ibcast((char *)buf + at, (int)piece, MPI_BYTE, root, MPI_COMM_WORLD, &rq) != MPI_SUCCESS ||
            wait_quietly(&rq, MPI_STATUS_IGNORE))
            return -1;
        at += piece;
    }
    return 0;
}

/* basel_ranks.gatherv: point to point, so that no count or displacement
 * overflows an int. A rank sends its share in pieces of 1 GiB and ends
 * with a shorter one (an empty one when the share is a whole number of
 * pieces). Rank 0 takes every piece of every rank off the wire whatever
 * happens, so that no sender is left blocked and no stale piece meets the
 * next call: a share longer or shorter than lens[r], or no out or lens
 * (rank 0 out of memory), is received and dropped, and the call fails. */
static int gatherv(void *user, const void *bytes, size_t len, void *out, const size_t *lens)
{
    (void)user;
    const size_t PIECE = (size_t)1 << 30;
    exchanges++;
    if (rank > 0) {
        size_t at = 0, piece;
        do {
            piece = len - at < PIECE ? len - at : PIECE;
            if (MPI_Send((const char *)bytes + at, (int)piece, MPI_BYTE, 0, BLOCK_TAG, MPI_COMM_WORLD) != MPI_SUCCESS)
                return -1;
            at += piece;
        } while (piece == PIECE);
        return 0;
    }
    int failed = !out || !lens || lens[0] != len;
    if (!failed) memcpy(out, bytes, len);
    size_t at = failed ? 0 : lens[0];
    for (int r = 1; r < size; r++) {
        size_t got = 0;
        int count = 0, bad = failed;
        do {
            MPI_Status st;
            if (probe_quietly(r, BLOCK_TAG, &st) || MPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS)
                return -1; /* MPI itself failed: nothing more can be exchanged */
            const int keep = !bad && got + (size_t)count <= lens[r];
            char none;
            /* a piece not kept is received into nothing: MPI truncates it, and it is off the wire */
            if (MPI_Recv(keep ? (char *)out + at + got : &none, keep ? count : 0, MPI_BYTE, r, BLOCK_TAG,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS && keep)
                bad = 1;
            if (!keep) bad = 1;
            got += (size_t)count;
        } while ((size_t)count == PIECE);
        if (!bad && got != lens[r]) bad = 1;
        failed |= bad;
        if (!failed) at += lens[r];
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
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) return;
    serialized = provided >= MPI_THREAD_SERIALIZED;
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
    ranks = (basel_ranks){rank, size, gather, NULL, 0, NULL, NULL};
    ranks_blocks = (basel_ranks){rank, size, gather, NULL, 1, bcast, gatherv};
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

int cli_par_start(int status)
{
    if (!started) return status;
    int worst = status;
    if (MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) worst = 1;
    if (rank == 0 && !status && worst) {
        fprintf(stderr, "basel: another process stopped before the fit (its options or files)\n");
        heard_failure = 1;
    }
    return worst;
}

unsigned long cli_par_seed(void) { return started ? shared_seed : 0; }

const basel_ranks *cli_par_ranks(int column_blocks)
{
    if (!started || size < 2) return NULL;
    return column_blocks ? &ranks_blocks : &ranks;
}

int cli_par_serialized(void) { return !started || serialized; }

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
    if (rank == 0 && exchanges && getenv("BASEL_MPI_VERBOSE"))
        fprintf(stderr, "basel: %lu exchanges with the processes holding the column blocks\n", exchanges);
    int verdict[2] = {status, heard_failure};
    bcast(NULL, verdict, sizeof verdict, 0); /* quietly: a block's process waits here while rank 0 writes */
    if (rank > 0) release_stderr(status != 0 && verdict[1]);
    free(heard);
    MPI_Finalize();
    return verdict[0];
}
