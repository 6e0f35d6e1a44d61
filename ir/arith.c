/*
 * ir/arith.c - small arithmetic that several layers use alike: the greatest common
 * divisor, and splitmix64, the seeded generator of every random choice tgc and its tests
 * make (the same seed gives the same sequence on every machine).
 */
#include "ir.h"

int64_t
ir_gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

int64_t
ir_rand_range(uint64_t *state, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(ir_splitmix64(state) % (uint64_t)(hi - lo + 1));
}

uint64_t
ir_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
