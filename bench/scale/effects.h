/* effects.h: where the true inputs of the AR(1) designs sit
 * (make_data_big.c, make_geno_big.c), one copy: EFFECTS distinct blocks
 * of 50 among P inputs, the effect at position 10..40 of its block, and
 * with EFFECTS >= 8 two blocks holding two each (5 apart: the last two
 * effects join the first two's blocks). Draws from splitmix.h's
 * generator, in this order, so a seed gives the same places. */
#ifndef BENCH_EFFECTS_H
#define BENCH_EFFECTS_H

#include "splitmix.h"

/* truth[0 .. ne) (0-based inputs); blocks: ne longs of scratch; beta
 * (NULL: none) each effect's size, +-0.25, drawn after its place */
static void pick_effects(long p, long ne, long *truth, long *blocks, double *beta)
{
    for (long e = 0; e < ne; e++) {
        long b, dup;
        do {
            b = (long)(uniform() * (double)(p / 50));
            dup = 0;
            for (long f = 0; f < e; f++) dup |= blocks[f] == b;
        } while (dup);
        blocks[e] = b;
        truth[e] = b * 50 + 9 + (long)(uniform() * 31);
        if (beta) beta[e] = uniform() < 0.5 ? -0.25 : 0.25;
    }
    if (ne >= 8) { /* two blocks hold two effects each */
        truth[ne - 2] = truth[0] + 5;
        truth[ne - 1] = truth[1] + 5;
    }
}

#endif
