/*
 * bench/scale/make_data_big.c: the p = 100000 data of bench/scale/run.sh
 * (make_data.R's design, written from C: R's write.table took more than
 * the benchmark's budget for a 1.8 GB CSV). Same layout: n rows, P inputs
 * in AR(1) blocks of 50 with correlation RHO between neighbours, y = the
 * sum of EFFECTS true inputs times +-0.25 plus N(0, 1) noise; the true
 * inputs sit in different blocks, except that with EFFECTS >= 8 two blocks
 * hold two each (5 inputs apart). Its own generator (splitmix64, Box-Muller)
 * with the seed given, so the data are not make_data.R's for the same seed.
 * Values are written with 6 significant digits.
 *
 * Build and run: cc -O2 -o make_data_big make_data_big.c -lm &&
 *   ./make_data_big P EFFECTS RHO SEED OUT.csv TRUTH.txt [N]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "effects.h"

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: make_data_big P EFFECTS RHO SEED OUT.csv TRUTH.txt [N]\n");
        return 2;
    }
    const long p = atol(argv[1]), ne = atol(argv[2]), n = argc > 7 ? atol(argv[7]) : 1000;
    const double rho = atof(argv[3]), s = sqrt(1 - rho * rho);
    state = strtoull(argv[4], NULL, 10);
    float *X = malloc(sizeof(float) * (size_t)n * (size_t)p); /* row-major, for writing */
    double *y = calloc((size_t)n, sizeof(double));
    long *truth = malloc(sizeof(long) * (size_t)ne);
    if (!X || !y || !truth || ne < 1 || p < 50 * ne) return 1;
    for (long j = 0; j < p; j++)
        for (long i = 0; i < n; i++) {
            const double e = gauss();
            X[i * p + j] = (float)(j % 50 == 0 ? e : rho * X[i * p + j - 1] + s * e);
        }
    long *blocks = malloc(sizeof(long) * (size_t)ne);
    if (!blocks) return 1;
    pick_effects(p, ne, truth, blocks, NULL); /* effects.h */
    for (long e = 0; e < ne; e++) {
        const double beta = uniform() < 0.5 ? -0.25 : 0.25;
        for (long i = 0; i < n; i++) y[i] += beta * X[i * p + truth[e]];
    }
    FILE *f = fopen(argv[5], "w"), *t = fopen(argv[6], "w");
    if (!f || !t) return 1;
    for (long j = 0; j < p; j++) fprintf(f, "x%ld,", j + 1);
    fprintf(f, "y\n");
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < p; j++) fprintf(f, "%.6g,", X[i * p + j]);
        fprintf(f, "%.6g\n", y[i] + gauss());
    }
    for (long e = 0; e < ne; e++) fprintf(t, "x%ld\n", truth[e] + 1);
    fclose(f);
    fclose(t);
    free(X);
    free(y);
    free(truth);
    free(blocks);
    return 0;
}
