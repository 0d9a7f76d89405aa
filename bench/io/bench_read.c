/*
 * bench_read.c: the CPU time of reading one table, and nothing else.
 *   bench_read FILE [REPEATS]   (FILE: a .csv, "-" for stdin, or a .npy)
 * Prints the size, rows, columns, the least CPU seconds of the repeats
 * and MB per CPU-second (MB = 10^6 bytes of the file). bench/io/run.sh
 * makes the files and runs it.
 */
#include <basel.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_read FILE [REPEATS]\n");
        return 2;
    }
    const int reps = argc > 2 ? atoi(argv[2]) : 1;
    struct stat st;
    const double mb = stat(argv[1], &st) == 0 ? (double)st.st_size / 1e6 : 0;
    double best = 1e300;
    size_t n = 0, p = 0;
    for (int r = 0; r < reps; r++) {
        basel_data *d = NULL;
        basel_error err;
        const double t0 = cpu();
        if (basel_data_read(&d, argv[1], NULL, NULL, &err) != BASEL_OK) {
            fprintf(stderr, "bench_read: %s\n", err.message);
            return 1;
        }
        const double t = cpu() - t0;
        if (t < best) best = t;
        n = basel_data_rows(d);
        p = basel_data_cols(d);
        basel_data_free(d);
    }
    printf("%s: %.1f MB, %zu rows x %zu columns, %.3f CPU-s, %.0f MB per CPU-s\n", argv[1], mb, n, p, best,
           mb / best);
    return 0;
}
