/* splitmix.h: the benchmarks' generators' random numbers (make_data_big.c, make_geno_big.c,
 * ld_gen.c), one copy: splitmix64 uniforms on (0, 1) and Box-Muller
 * normals, from a state the program seeds (state = seed). Small, fast and
 * the same on every machine, so a seed gives the same data everywhere. */
#ifndef BENCH_SPLITMIX_H
#define BENCH_SPLITMIX_H

#include <math.h>
#include <stdint.h>

static uint64_t state;

static double uniform(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
    return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

#endif
