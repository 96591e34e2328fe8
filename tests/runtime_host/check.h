/* check.h: counters and helpers shared by the host tests of the runtime. */
#ifndef CHECK_H
#define CHECK_H

#include <stdint.h>
#include <stdio.h>

extern long checks_passed, checks_failed;
extern int verbose;

/* Records one comparison; prints the first failures of each group. */
void check(int ok, const char *group, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Deterministic pseudo-random numbers (xorshift64*). */
uint64_t rnd64(void);
uint32_t rnd32(void);
double rnd_double_bits(void);   /* any bit pattern, NaN excluded */
double rnd_double_range(void);  /* "ordinary" doubles of many magnitudes */

void test_printf(void);
void test_strtod(void);
void test_stdlib(void);
void test_string(void);
void test_stdio(void);
void test_malloc(void);
void test_builtins(void);
void test_softfloat(void);
void test_math(void);

#endif
