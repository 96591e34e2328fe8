/* rand.c: rand/srand/random/srandom with glibc's default generator (the
 * TYPE_3 additive feedback generator of random_r.c: 31 words of state,
 * separation 3, seeded by the Park-Miller sequence through Schrage's method,
 * 310 outputs discarded), so a program gets the host's sequence for every
 * seed; and glibc's rand_r. */
#include <stdint.h>
#include <stdlib.h>

#define DEG 31
#define SEP 3

static int32_t state[DEG];
static int fptr, rptr; /* indices into state */
static int seeded;

static int32_t next_value(void)
{
    uint32_t val = (uint32_t)state[fptr] + (uint32_t)state[rptr];
    state[fptr] = (int32_t)val;
    if (++fptr >= DEG) {
        fptr = 0;
        ++rptr;
    } else if (++rptr >= DEG) {
        rptr = 0;
    }
    return (int32_t)(val >> 1);
}

void srandom(unsigned seed)
{
    if (seed == 0)
        seed = 1;
    int32_t word = (int32_t)seed;
    state[0] = word;
    for (int i = 1; i < DEG; i++) {
        int32_t hi = word / 127773;
        int32_t lo = word % 127773;
        word = 16807 * lo - 2836 * hi;
        if (word < 0)
            word += 2147483647;
        state[i] = word;
    }
    fptr = SEP;
    rptr = 0;
    seeded = 1;
    for (int i = 0; i < DEG * 10; i++)
        (void)next_value();
}

long random(void)
{
    if (!seeded)
        srandom(1);
    return next_value();
}

void srand(unsigned seed)
{
    srandom(seed);
}

int rand(void)
{
    return (int)random();
}

int rand_r(unsigned *seed)
{
    unsigned next = *seed;
    int result;
    next = next * 1103515245u + 12345u;
    result = (int)((next / 65536) % 2048);
    next = next * 1103515245u + 12345u;
    result <<= 10;
    result ^= (int)((next / 65536) % 1024);
    next = next * 1103515245u + 12345u;
    result <<= 10;
    result ^= (int)((next / 65536) % 1024);
    *seed = next;
    return result;
}
