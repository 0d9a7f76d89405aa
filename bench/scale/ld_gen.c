/*
 * bench/scale/ld_gen.c: genotypes with realistic LD for the fine-mapping
 * benchmark bench/scale/ld_run.sh (issue 32 item 4). The recipe is the
 * perf audit's finding 13 (/work/shared/audits/perf.md), here in C so that
 * p = 10^5 .. 10^6 takes seconds:
 *
 *   founders   24 founder haplotypes, built SNP by SNP: at a break every
 *              founder's allele is drawn afresh (allele frequency ~ U(0.05,
 *              0.5)); otherwise each founder copies its allele at the
 *              previous SNP, flipped with probability 0.04. A SNP is a break
 *              with probability 0.15 in 30 % of SNPs and 0.01 in the rest.
 *   mosaics    2000 haplotypes, each a Li-Stephens mosaic of the founders:
 *              it starts on a founder drawn uniformly and at each SNP jumps
 *              to a founder drawn uniformly with the SNP's switch
 *              probability, ~ Exp(mean 0.004), or ~ U(0.2, 0.8) at a hotspot
 *              (1 % of SNPs); each allele then mutates (flips) with
 *              probability 0.005.
 *   genotypes  sample i is haplotypes 2i and 2i + 1 (0/1/2 copies of allele
 *              1), n = 1000 by default. A SNP is kept only if its minor
 *              allele frequency is at least 1 % and its genotype column is
 *              not a copy of one kept before (basel, like any variable
 *              selection, refuses constant and identical inputs); SNPs are
 *              made until P are kept.
 *   target     10 causal SNPs drawn uniformly among the kept SNPs with MAF
 *              >= 5 %, effects of size ~ U(0.23, 0.29) and random sign on
 *              the standardised genotype, y = sum + N(0, 1).
 * The generator is splitmix64 (Box-Muller for normals), seeded by SEED, so
 * a (P, N, SEED) gives the same files on any machine. finding 13 used
 * numpy with seed 2027: the design is the same, the numbers are not.
 *
 * Outputs, PREFIX being the second argument:
 *   PREFIX.bed/.bim/.fam  PLINK 1 binary genotypes (SNP-major), variant j's
 *                         ID x<j> (1-based), the cell the count of A1 =
 *                         allele 1, which is what basel reads (src/io/bed.c);
 *                         the .fam's phenotype is -9 (the target is y)
 *   PREFIX.y              the target, a one-column CSV (header y)
 *   PREFIX.truth          the causal SNPs' IDs, one a line
 *   PREFIX.ld             for each causal SNP c, every SNP j within 2000
 *                         positions with |r(c, j)| >= 0.5: "c j r"
 *   PREFIX.info           the design's summary (adjacent |r| quantiles, the
 *                         causal SNPs' MAF, effect, LD neighbours)
 *   PREFIX.int8           with a third argument 1: the genotypes as raw
 *                         int8, column-major n x P (what R reads fastest:
 *                         readBin(f, "integer", size = 1, n = n * P))
 *
 * Build and run: cc -O2 -o ld_gen ld_gen.c -lm &&
 *   ./ld_gen P PREFIX [WRITE_INT8 (0)] [N (1000)] [SEED (2027)]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOUNDERS 24
#define CAUSAL 10
#define LD_WINDOW 2000

#include "splitmix.h"

static uint64_t column_hash(const int8_t *g, long n)
{
    uint64_t h = 1469598103934665603ULL;
    for (long i = 0; i < n; i++) h = (h ^ (uint8_t)g[i]) * 1099511628211ULL;
    return h;
}

/* correlation of two 0/1/2 columns (0 when either is constant) */
static double corr(const int8_t *a, const int8_t *b, long n)
{
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (long i = 0; i < n; i++) {
        sa += a[i], sb += b[i];
        saa += a[i] * a[i], sbb += b[i] * b[i], sab += a[i] * b[i];
    }
    const double va = saa - sa * sa / n, vb = sbb - sb * sb / n;
    return va > 0 && vb > 0 ? (sab - sa * sb / n) / sqrt(va * vb) : 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ld_gen P PREFIX [WRITE_INT8 (0)] [N (1000)] [SEED (2027)]\n");
        return 2;
    }
    const long p = atol(argv[1]), n = argc > 4 ? atol(argv[4]) : 1000, nh = 2 * n;
    const int write_int8 = argc > 3 && atoi(argv[3]);
    state = argc > 5 ? strtoull(argv[5], NULL, 10) : 2027;
    if (p < 100 || n < 10) {
        fprintf(stderr, "ld_gen: P >= 100 and N >= 10\n");
        return 2;
    }
    const char *prefix = argv[2];
    char path[4096];
    int8_t *G = malloc((size_t)n * (size_t)p); /* column-major n x p: the kept SNPs */
    int8_t *hap = malloc((size_t)nh), *g = malloc((size_t)n);
    int *on = malloc(sizeof(int) * (size_t)nh); /* each haplotype's current founder */
    size_t tsize = 1;
    while (tsize < 2 * (size_t)p) tsize <<= 1;
    long *table = malloc(sizeof(long) * tsize); /* open addressing: kept columns by hash */
    if (!G || !hap || !g || !on || !table) {
        fprintf(stderr, "ld_gen: out of memory\n");
        return 1;
    }
    for (size_t t = 0; t < tsize; t++) table[t] = -1;
    int founder[FOUNDERS];
    for (int f = 0; f < FOUNDERS; f++) founder[f] = uniform() < 0.3;
    for (long h = 0; h < nh; h++) on[h] = (int)(uniform() * FOUNDERS);
    long kept = 0, made = 0, rare = 0, copies = 0;
    while (kept < p) {
        made++;
        /* the founders at this SNP */
        const double pbreak = uniform() < 0.3 ? 0.15 : 0.01;
        if (uniform() < pbreak) {
            const double freq = 0.05 + 0.45 * uniform();
            for (int f = 0; f < FOUNDERS; f++) founder[f] = uniform() < freq;
        } else
            for (int f = 0; f < FOUNDERS; f++)
                if (uniform() < 0.04) founder[f] ^= 1;
        /* the mosaics: one switch probability per SNP, shared by all */
        double sw = uniform() < 0.01 ? 0.2 + 0.6 * uniform() : -0.004 * log(uniform());
        if (sw > 1) sw = 1;
        for (long h = 0; h < nh; h++) {
            if (uniform() < sw) on[h] = (int)(uniform() * FOUNDERS);
            hap[h] = (int8_t)(founder[on[h]] ^ (uniform() < 0.005));
        }
        long count = 0;
        for (long i = 0; i < n; i++) count += g[i] = (int8_t)(hap[2 * i] + hap[2 * i + 1]);
        const double maf = fmin((double)count, (double)(2 * n - count)) / (double)(2 * n);
        if (maf < 0.01) {
            rare++;
            continue;
        }
        const uint64_t hash = column_hash(g, n);
        size_t t = hash & (tsize - 1);
        int copy = 0;
        for (; table[t] >= 0; t = (t + 1) & (tsize - 1))
            if (column_hash(G + table[t] * n, n) == hash && !memcmp(G + table[t] * n, g, (size_t)n)) {
                copy = 1;
                break;
            }
        if (copy) {
            copies++;
            continue;
        }
        table[t] = kept;
        memcpy(G + kept * n, g, (size_t)n);
        kept++;
    }
    free(table);

    /* causal SNPs and the target */
    long causal[CAUSAL];
    double beta[CAUSAL], mafc[CAUSAL];
    double *y = calloc((size_t)n, sizeof(double));
    if (!y) return 1;
    for (int c = 0; c < CAUSAL; c++) {
        long j;
        int ok;
        do {
            j = (long)(uniform() * (double)p);
            long count = 0;
            for (long i = 0; i < n; i++) count += G[j * n + i];
            mafc[c] = fmin((double)count, (double)(2 * n - count)) / (double)(2 * n);
            ok = mafc[c] >= 0.05;
            for (int d = 0; d < c; d++) ok &= causal[d] != j;
        } while (!ok);
        causal[c] = j;
        beta[c] = (uniform() < 0.5 ? -1 : 1) * (0.23 + 0.06 * uniform());
        double m = 0, v = 0;
        for (long i = 0; i < n; i++) m += G[j * n + i];
        m /= n;
        for (long i = 0; i < n; i++) v += (G[j * n + i] - m) * (G[j * n + i] - m);
        const double sd = sqrt(v / n);
        for (long i = 0; i < n; i++) y[i] += beta[c] * (G[j * n + i] - m) / sd;
    }
    for (long i = 0; i < n; i++) y[i] += gauss();

    /* the PLINK files: A1 = allele 1, so a cell of 2 copies is pair 00, 1 is
     * 10 (heterozygous), 0 is 11 (PLINK 1.9 "File formats", .bed) */
    snprintf(path, sizeof path, "%s.bed", prefix);
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    const unsigned char magic[3] = {0x6c, 0x1b, 0x01}, code[3] = {3, 2, 0};
    fwrite(magic, 1, 3, f);
    const long nb = (n + 3) / 4;
    unsigned char *block = malloc((size_t)nb);
    for (long j = 0; j < p; j++) {
        memset(block, 0, (size_t)nb);
        for (long i = 0; i < n; i++) block[i / 4] |= (unsigned char)(code[G[j * n + i]] << (2 * (i % 4)));
        fwrite(block, 1, (size_t)nb, f);
    }
    if (fclose(f)) return 1;
    snprintf(path, sizeof path, "%s.bim", prefix);
    f = fopen(path, "w");
    for (long j = 0; j < p; j++) fprintf(f, "1\tx%ld\t0\t%ld\tA\tC\n", j + 1, 100 * (j + 1));
    if (fclose(f)) return 1;
    snprintf(path, sizeof path, "%s.fam", prefix);
    f = fopen(path, "w");
    for (long i = 0; i < n; i++) fprintf(f, "s%ld s%ld 0 0 0 -9\n", i + 1, i + 1);
    if (fclose(f)) return 1;
    snprintf(path, sizeof path, "%s.y", prefix);
    f = fopen(path, "w");
    fprintf(f, "y\n");
    for (long i = 0; i < n; i++) fprintf(f, "%.10g\n", y[i]);
    if (fclose(f)) return 1;
    snprintf(path, sizeof path, "%s.truth", prefix);
    f = fopen(path, "w");
    for (int c = 0; c < CAUSAL; c++) fprintf(f, "x%ld\n", causal[c] + 1);
    if (fclose(f)) return 1;
    if (write_int8) {
        snprintf(path, sizeof path, "%s.int8", prefix);
        f = fopen(path, "wb");
        if (!f || fwrite(G, 1, (size_t)n * (size_t)p, f) != (size_t)n * (size_t)p || fclose(f)) return 1;
    }

    /* LD around the causal SNPs, and the design's summary */
    snprintf(path, sizeof path, "%s.ld", prefix);
    f = fopen(path, "w");
    snprintf(path, sizeof path, "%s.info", prefix);
    FILE *info = fopen(path, "w");
    if (!f || !info) return 1;
    fprintf(info, "p %ld n %ld seed %s; SNPs made %ld, dropped: MAF < 1%% %ld, copies of a kept column %ld\n", p, n,
            argc > 5 ? argv[5] : "2027", made, rare, copies);
    double *adj = malloc(sizeof(double) * (size_t)(p - 1));
    for (long j = 0; j + 1 < p; j++) adj[j] = fabs(corr(G + j * n, G + (j + 1) * n, n));
    qsort(adj, (size_t)(p - 1), sizeof *adj, cmp_double);
    fprintf(info, "adjacent |r|: 10%% %.2f, median %.2f, 90%% %.2f\n", adj[(p - 1) / 10], adj[(p - 1) / 2],
            adj[9 * (p - 1) / 10]);
    fprintf(info, "causal  MAF    effect  SNPs at |r| > 0.9 / > 0.7 within %d (nearest other causal)\n", LD_WINDOW);
    for (int c = 0; c < CAUSAL; c++) {
        long n9 = 0, n7 = 0, near = p;
        for (long j = causal[c] - LD_WINDOW; j <= causal[c] + LD_WINDOW; j++) {
            if (j < 0 || j >= p || j == causal[c]) continue;
            const double r = corr(G + causal[c] * n, G + j * n, n);
            if (fabs(r) >= 0.5) fprintf(f, "x%ld x%ld %.4f\n", causal[c] + 1, j + 1, r);
            n9 += fabs(r) > 0.9, n7 += fabs(r) > 0.7;
        }
        for (int d = 0; d < CAUSAL; d++)
            if (d != c && labs(causal[d] - causal[c]) < near) near = labs(causal[d] - causal[c]);
        fprintf(info, "x%-7ld %.3f  %+.3f  %ld / %ld (%ld SNPs)\n", causal[c] + 1, mafc[c], beta[c], n9, n7, near);
    }
    if (fclose(f) || fclose(info)) return 1;
    free(adj), free(G), free(hap), free(g), free(on), free(y), free(block);
    return 0;
}
