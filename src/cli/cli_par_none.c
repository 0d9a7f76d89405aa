/* cli_par_none.c: one process (the default build; the MPI build has
 * cli_par_mpi.c instead, cli.h "Processes"). */
#include "cli.h"

void cli_par_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

int cli_par_rank(void) { return 0; }

int cli_par_size(void) { return 1; }

void cli_par_say(const basel_error *err) { (void)err; }

int cli_par_reduce(double *x, size_t n, int max)
{
    (void)x;
    (void)n;
    (void)max;
    return 0;
}

int cli_par_start(int status) { return status; }

unsigned long cli_par_seed(void) { return 0; }

const basel_ranks *cli_par_ranks(int column_blocks)
{
    (void)column_blocks;
    return NULL;
}

int cli_par_serialized(void) { return 1; }

int cli_par_finish(int status) { return status; }
