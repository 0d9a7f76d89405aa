/*
 * bench/scale/make_geno_big.c: the AR(1) design of make_data_big.c as
 * genotypes in a PLINK .bed (issue 32, the second "Done when": p = 10^6
 * from a .bed). Each sample has two haplotypes, each a latent AR(1)
 * sequence in blocks of 50 (correlation RHO between neighbours, as
 * make_data_big.c's inputs); a haplotype carries allele A1 where its latent
 * value is above 0, and the genotype is the count of A1 over the two (0, 1,
 * 2; allele frequency 1/2, neighbours' |r| = (2/pi) asin(RHO), 0.80 at RHO =
 * 0.95). y = the sum of EFFECTS true variants' standardised genotypes times
 * +-0.25 plus N(0, 1), so each effect is make_data_big.c's; the true variants
 * sit in distinct blocks, and with EFFECTS >= 8 two blocks hold two each (5
 * apart), as there. No genotype is missing. The phenotype is the .fam's
 * sixth field (basel fit PREFIX.bed reads it as the target).
 *
 * The variants are made and written one at a time (two n-vectors of latent
 * state), so p = 10^6 takes 250 MB of .bed and a few MB of memory.
 *
 * Build and run: cc -O2 -o make_geno_big make_geno_big.c -lm &&
 *   ./make_geno_big P EFFECTS RHO SEED PREFIX [N]
 * writes PREFIX.bed, .bim, .fam and PREFIX.truth (the true variants' IDs
 * and effects, one a line).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "effects.h"

static FILE *open_out(const char *prefix, const char *ext, const char *mode)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s", prefix, ext);
    FILE *f = fopen(path, mode);
    if (!f) perror(path);
    return f;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: make_geno_big P EFFECTS RHO SEED PREFIX [N]\n");
        return 2;
    }
    const long p = atol(argv[1]), ne = atol(argv[2]), n = argc > 6 ? atol(argv[6]) : 1000;
    const double rho = atof(argv[3]), s = sqrt(1 - rho * rho);
    state = strtoull(argv[4], NULL, 10);
    const char *prefix = argv[5];
    if (ne < 1 || p < 50 * ne || n < 4) return 2;
    /* the effects first (effects.h), then the genotypes, variant by variant */
    long *truth = malloc(sizeof(long) * (size_t)ne), *blocks = malloc(sizeof(long) * (size_t)ne);
    double *beta = malloc(sizeof(double) * (size_t)ne), *y = calloc((size_t)n, sizeof(double));
    double *h1 = malloc(sizeof(double) * (size_t)n), *h2 = malloc(sizeof(double) * (size_t)n);
    const size_t block = (size_t)(n + 3) / 4;
    unsigned char *bytes = malloc(block);
    if (!truth || !blocks || !beta || !y || !h1 || !h2 || !bytes) return 1;
    pick_effects(p, ne, truth, blocks, beta); /* effects.h */
    FILE *bed = open_out(prefix, ".bed", "wb"), *bim = open_out(prefix, ".bim", "w");
    if (!bed || !bim) return 1;
    const unsigned char magic[3] = {0x6c, 0x1b, 0x01};
    fwrite(magic, 1, 3, bed);
    const unsigned pair[3] = {3, 2, 0}; /* A1 count 0, 1, 2 as PLINK's 2-bit codes (src/io/bed.c) */
    for (long j = 0; j < p; j++) {
        memset(bytes, 0x55, block); /* padding: "missing", never read */
        for (long i = 0; i < n; i++) {
            const double e1 = gauss(), e2 = gauss();
            h1[i] = j % 50 == 0 ? e1 : rho * h1[i] + s * e1;
            h2[i] = j % 50 == 0 ? e2 : rho * h2[i] + s * e2;
            const unsigned g = (unsigned)(h1[i] > 0) + (unsigned)(h2[i] > 0);
            bytes[i / 4] = (unsigned char)((bytes[i / 4] & ~(3u << (2 * (i % 4)))) | pair[g] << (2 * (i % 4)));
        }
        for (long e = 0; e < ne; e++) /* the standardised genotype: mean 1, variance 1/2 in the population */
            if (truth[e] == j)
                for (long i = 0; i < n; i++) {
                    const double g = (double)((h1[i] > 0) + (h2[i] > 0));
                    y[i] += beta[e] * (g - 1.0) / sqrt(0.5);
                }
        fwrite(bytes, 1, block, bed);
        fprintf(bim, "1\tx%ld\t0\t%ld\tA\tG\n", j + 1, j + 1);
    }
    FILE *fam = open_out(prefix, ".fam", "w"), *t = open_out(prefix, ".truth", "w");
    if (!fam || !t) return 1;
    for (long i = 0; i < n; i++) fprintf(fam, "f%ld s%ld 0 0 1 %.10g\n", i + 1, i + 1, y[i] + gauss());
    for (long e = 0; e < ne; e++) fprintf(t, "x%ld %g\n", truth[e] + 1, beta[e]);
    const int bad = fclose(bed) | fclose(bim) | fclose(fam) | fclose(t);
    free(truth);
    free(blocks);
    free(beta);
    free(y);
    free(h1);
    free(h2);
    free(bytes);
    return bad ? 1 : 0;
}
