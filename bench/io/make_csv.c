/*
 * make_csv.c: a numeric CSV of any size on stdout, for the reading
 * benchmark (pipe.sh) and nothing else: N rows of P inputs x1 .. xP, each
 * N(0, 1), and y = x1 + x2 - x3 + N(0, 1), every value written with 6
 * significant digits (%.6g, about 10 bytes a cell, as the design files of
 * bench/scale are), so 1 GB of text is about 100 million cells and a table
 * of 0.8 GB of doubles. Its own generator (splitmix64, Box-Muller) and a
 * fixed seed: the same arguments give the same bytes.
 *
 * Build and run: cc -O2 -o make_csv make_csv.c -lm && ./make_csv N P > big.csv
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state = 20261129;

static double uniform(void)
{
    unsigned long long z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void) { return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform()); }

int main(int argc, char **argv)
{
    if (argc < 3 || atol(argv[1]) < 1 || atol(argv[2]) < 3) {
        fprintf(stderr, "usage: make_csv N P   (N rows, P >= 3 inputs, then y)\n");
        return 2;
    }
    const long n = atol(argv[1]), p = atol(argv[2]);
    for (long j = 0; j < p; j++) printf("x%ld,", j + 1);
    printf("y\n");
    for (long i = 0; i < n; i++) {
        double y = gauss(), x;
        for (long j = 0; j < p; j++) {
            x = gauss();
            y += j < 2 ? x : j == 2 ? -x : 0;
            printf("%.6g,", x);
        }
        if (printf("%.6g\n", y) < 0) return 1; /* the reader went away */
    }
    return fflush(stdout) ? 1 : 0;
}
