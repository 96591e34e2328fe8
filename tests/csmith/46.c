/*
 * This is a RANDOMLY GENERATED PROGRAM.
 *
 * Generator: csmith 2.3.0
 * Git version: 30dccd7
 * Options:   --seed 46
 * Seed:      46
 */

#include "csmith.h"


static long __undefined;

/* --- Struct/Union Declarations --- */
#pragma pack(push)
#pragma pack(1)
struct S1 {
   uint8_t  f0;
   uint8_t  f1;
   int8_t  f2;
   uint32_t  f3;
   uint32_t  f4;
   volatile uint32_t  f5;
};
#pragma pack(pop)

struct S2 {
   const volatile signed f0 : 19;
   const signed f1 : 28;
   volatile unsigned f2 : 30;
   volatile signed f3 : 8;
   const struct S1  f4;
   volatile signed f5 : 13;
};

/* --- GLOBAL VARIABLES --- */
static uint8_t g_2 = 0xE5L;
static int32_t g_4[5][3] = {{0x4ABC2489L,0x4ABC2489L,0x4ABC2489L},{(-1L),0L,(-1L)},{0x4ABC2489L,0x4ABC2489L,0x4ABC2489L},{(-1L),0L,(-1L)},{0x4ABC2489L,0x4ABC2489L,0x4ABC2489L}};
static int32_t g_5 = (-1L);
static struct S2 g_23 = {405,7988,8936,-4,{0xC9L,0xF0L,1L,0x9F7ADB23L,3UL,0UL},71};/* VOLATILE GLOBAL g_23 */
static struct S1 g_24 = {0x23L,0x15L,0x07L,0x264E9341L,4UL,7UL};/* VOLATILE GLOBAL g_24 */
static struct S1 g_25 = {0x65L,0UL,0L,4294967295UL,1UL,0xAC225C50L};/* VOLATILE GLOBAL g_25 */
static struct S2 g_26 = {-630,12883,32223,0,{0xC2L,2UL,0x20L,1UL,4294967295UL,0xB25B5FE4L},31};/* VOLATILE GLOBAL g_26 */
static volatile struct S1 g_27 = {0x6CL,255UL,1L,0xB9E1FA26L,0x9DDBBE02L,0x323EC081L};/* VOLATILE GLOBAL g_27 */
static volatile struct S1 * volatile g_28 = (void*)0;/* VOLATILE GLOBAL g_28 */
static struct S2 g_31[1][5] = {{{42,12586,10374,-8,{0x92L,1UL,0xA2L,0UL,0xB08325B1L,1UL},-66},{42,12586,10374,-8,{0x92L,1UL,0xA2L,0UL,0xB08325B1L,1UL},-66},{42,12586,10374,-8,{0x92L,1UL,0xA2L,0UL,0xB08325B1L,1UL},-66},{42,12586,10374,-8,{0x92L,1UL,0xA2L,0UL,0xB08325B1L,1UL},-66},{42,12586,10374,-8,{0x92L,1UL,0xA2L,0UL,0xB08325B1L,1UL},-66}}};


/* --- FORWARD DECLARATIONS --- */
static struct S2  func_1(void);
static int32_t  func_6(int32_t  p_7);


/* --- FUNCTIONS --- */
/* ------------------------------------------ */
/* 
 * reads : g_2 g_5 g_4 g_23 g_24 g_26 g_27 g_31
 * writes: g_4 g_5 g_2 g_25 g_27
 */
static struct S2  func_1(void)
{ /* block id: 0 */
    int32_t *l_3 = &g_4[3][0];
    int32_t l_15 = 0x83FAA058L;
    int16_t l_17 = (-3L);
    int64_t l_18 = 0xD8D6691A67D55137LL;
    volatile struct S1 *l_29 = (void*)0;
    volatile struct S1 *l_30 = &g_27;
    g_5 &= ((*l_3) = g_2);
    if (func_6((*l_3)))
    { /* block id: 10 */
        int16_t l_10 = 0x4B58L;
        int32_t l_13 = (-1L);
        int32_t l_16[7][2][7] = {{{(-1L),0x5A2C03FDL,0x6B9BDD18L,(-9L),0x42C5ACC8L,1L,0xED69B12DL},{0x8B3176A1L,1L,1L,0x5A2C03FDL,0x5A2C03FDL,1L,1L}},{{0xED69B12DL,0x404D0838L,0xC3167647L,0x8B3176A1L,0x5A2C03FDL,0L,(-1L)},{0x22C08F49L,(-1L),0x404D0838L,0x67DCAF6DL,0x42C5ACC8L,0x22C08F49L,0x404D0838L}},{{(-1L),0x42C5ACC8L,0L,0L,0x42C5ACC8L,(-1L),1L},{(-1L),0x404D0838L,0L,0x67DCAF6DL,1L,1L,0x42C5ACC8L}},{{1L,0x6B9BDD18L,(-1L),(-1L),0x8B3176A1L,0x42C5ACC8L,0x8B3176A1L},{1L,0x404D0838L,0x404D0838L,1L,(-1L),0x67DCAF6DL,0x22C08F49L}},{{1L,0x42C5ACC8L,(-9L),0x6B9BDD18L,0x5A2C03FDL,(-1L),0L},{1L,(-1L),0x22C08F49L,1L,(-1L),1L,0x22C08F49L}},{{(-1L),(-1L),0xED69B12DL,0xC3167647L,(-1L),1L,0x8B3176A1L},{(-1L),0xED69B12DL,0x8B3176A1L,0x404D0838L,1L,(-1L),0x42C5ACC8L}},{{1L,0x67DCAF6DL,(-1L),0x8B3176A1L,(-1L),0x67DCAF6DL,1L},{0x5A2C03FDL,1L,1L,0x8B3176A1L,(-1L),0x42C5ACC8L,0x404D0838L}}};
        int i, j, k;
        for (g_2 = 0; (g_2 <= 2); g_2 += 1)
        { /* block id: 13 */
            int32_t *l_11 = (void*)0;
            int32_t *l_12 = &g_4[4][2];
            int32_t *l_14[1][4][7] = {{{&g_4[3][0],&g_4[3][0],&l_13,&g_4[3][0],&g_4[3][0],(void*)0,(void*)0},{&g_4[3][0],&g_4[3][0],&l_13,&g_4[3][0],&g_4[3][0],(void*)0,(void*)0},{&g_4[3][0],&g_4[3][0],&l_13,&g_4[3][0],&g_4[3][0],(void*)0,(void*)0},{&g_4[3][0],&g_4[3][0],&l_13,&g_4[3][0],&g_4[3][0],(void*)0,(void*)0}}};
            uint32_t l_19 = 1UL;
            int i, j, k;
            (*l_3) &= (-1L);
            if (g_4[3][0])
                continue;
            l_19++;
            for (l_17 = 1; (l_17 >= 0); l_17 -= 1)
            { /* block id: 19 */
                for (l_13 = 0; (l_13 <= 2); l_13 += 1)
                { /* block id: 22 */
                    int32_t **l_22 = &l_12;
                    int i, j;
                    if (g_4[(g_2 + 2)][l_17])
                        break;
                    (*l_22) = (void*)0;
                }
                for (l_18 = 0; (l_18 <= 2); l_18 += 1)
                { /* block id: 28 */
                    int i, j;
                    l_16[3][1][4] ^= g_4[(g_2 + 2)][g_2];
                }
            }
            for (l_19 = 0; (l_19 <= 2); l_19 += 1)
            { /* block id: 34 */
                return g_23;
            }
        }
        g_25 = g_24;
    }
    else
    { /* block id: 39 */
        return g_26;
    }
    (*l_30) = g_27;
    return g_31[0][4];
}


/* ------------------------------------------ */
/* 
 * reads : g_4 g_5
 * writes:
 */
static int32_t  func_6(int32_t  p_7)
{ /* block id: 3 */
    uint32_t l_9 = 0xCCE35A12L;
    if (((0x324015FBL == (+p_7)) > (l_9 |= g_4[4][0])))
    { /* block id: 5 */
        return g_5;
    }
    else
    { /* block id: 7 */
        return p_7;
    }
}




/* ---------------------------------------- */
int main (int argc, char* argv[])
{
    int i, j;
    int print_hash_value = 0;
    if (argc == 2 && strcmp(argv[1], "1") == 0) print_hash_value = 1;
    platform_main_begin();
    crc32_gentab();
    func_1();
    transparent_crc(g_2, "g_2", print_hash_value);
    for (i = 0; i < 5; i++)
    {
        for (j = 0; j < 3; j++)
        {
            transparent_crc(g_4[i][j], "g_4[i][j]", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    transparent_crc(g_5, "g_5", print_hash_value);
    transparent_crc(g_23.f0, "g_23.f0", print_hash_value);
    transparent_crc(g_23.f1, "g_23.f1", print_hash_value);
    transparent_crc(g_23.f2, "g_23.f2", print_hash_value);
    transparent_crc(g_23.f3, "g_23.f3", print_hash_value);
    transparent_crc(g_23.f4.f0, "g_23.f4.f0", print_hash_value);
    transparent_crc(g_23.f4.f1, "g_23.f4.f1", print_hash_value);
    transparent_crc(g_23.f4.f2, "g_23.f4.f2", print_hash_value);
    transparent_crc(g_23.f4.f3, "g_23.f4.f3", print_hash_value);
    transparent_crc(g_23.f4.f4, "g_23.f4.f4", print_hash_value);
    transparent_crc(g_23.f4.f5, "g_23.f4.f5", print_hash_value);
    transparent_crc(g_23.f5, "g_23.f5", print_hash_value);
    transparent_crc(g_24.f0, "g_24.f0", print_hash_value);
    transparent_crc(g_24.f1, "g_24.f1", print_hash_value);
    transparent_crc(g_24.f2, "g_24.f2", print_hash_value);
    transparent_crc(g_24.f3, "g_24.f3", print_hash_value);
    transparent_crc(g_24.f4, "g_24.f4", print_hash_value);
    transparent_crc(g_24.f5, "g_24.f5", print_hash_value);
    transparent_crc(g_25.f0, "g_25.f0", print_hash_value);
    transparent_crc(g_25.f1, "g_25.f1", print_hash_value);
    transparent_crc(g_25.f2, "g_25.f2", print_hash_value);
    transparent_crc(g_25.f3, "g_25.f3", print_hash_value);
    transparent_crc(g_25.f4, "g_25.f4", print_hash_value);
    transparent_crc(g_25.f5, "g_25.f5", print_hash_value);
    transparent_crc(g_26.f0, "g_26.f0", print_hash_value);
    transparent_crc(g_26.f1, "g_26.f1", print_hash_value);
    transparent_crc(g_26.f2, "g_26.f2", print_hash_value);
    transparent_crc(g_26.f3, "g_26.f3", print_hash_value);
    transparent_crc(g_26.f4.f0, "g_26.f4.f0", print_hash_value);
    transparent_crc(g_26.f4.f1, "g_26.f4.f1", print_hash_value);
    transparent_crc(g_26.f4.f2, "g_26.f4.f2", print_hash_value);
    transparent_crc(g_26.f4.f3, "g_26.f4.f3", print_hash_value);
    transparent_crc(g_26.f4.f4, "g_26.f4.f4", print_hash_value);
    transparent_crc(g_26.f4.f5, "g_26.f4.f5", print_hash_value);
    transparent_crc(g_26.f5, "g_26.f5", print_hash_value);
    transparent_crc(g_27.f0, "g_27.f0", print_hash_value);
    transparent_crc(g_27.f1, "g_27.f1", print_hash_value);
    transparent_crc(g_27.f2, "g_27.f2", print_hash_value);
    transparent_crc(g_27.f3, "g_27.f3", print_hash_value);
    transparent_crc(g_27.f4, "g_27.f4", print_hash_value);
    transparent_crc(g_27.f5, "g_27.f5", print_hash_value);
    for (i = 0; i < 1; i++)
    {
        for (j = 0; j < 5; j++)
        {
            transparent_crc(g_31[i][j].f0, "g_31[i][j].f0", print_hash_value);
            transparent_crc(g_31[i][j].f1, "g_31[i][j].f1", print_hash_value);
            transparent_crc(g_31[i][j].f2, "g_31[i][j].f2", print_hash_value);
            transparent_crc(g_31[i][j].f3, "g_31[i][j].f3", print_hash_value);
            transparent_crc(g_31[i][j].f4.f0, "g_31[i][j].f4.f0", print_hash_value);
            transparent_crc(g_31[i][j].f4.f1, "g_31[i][j].f4.f1", print_hash_value);
            transparent_crc(g_31[i][j].f4.f2, "g_31[i][j].f4.f2", print_hash_value);
            transparent_crc(g_31[i][j].f4.f3, "g_31[i][j].f4.f3", print_hash_value);
            transparent_crc(g_31[i][j].f4.f4, "g_31[i][j].f4.f4", print_hash_value);
            transparent_crc(g_31[i][j].f4.f5, "g_31[i][j].f4.f5", print_hash_value);
            transparent_crc(g_31[i][j].f5, "g_31[i][j].f5", print_hash_value);
            if (print_hash_value) printf("index = [%d][%d]\n", i, j);

        }
    }
    platform_main_end(crc32_context ^ 0xFFFFFFFFUL, print_hash_value);
    return 0;
}

/************************ statistics *************************
XXX max struct depth: 2
breakdown:
   depth: 0, occurrence: 10
   depth: 1, occurrence: 3
   depth: 2, occurrence: 3
XXX total union variables: 0

XXX non-zero bitfields defined in structs: 5
XXX zero bitfields defined in structs: 0
XXX const bitfields defined in structs: 2
XXX volatile bitfields defined in structs: 4
XXX structs with bitfields in the program: 3
breakdown:
   indirect level: 0, occurrence: 3
XXX full-bitfields structs in the program: 0
breakdown:
XXX times a bitfields struct's address is taken: 0
XXX times a bitfields struct on LHS: 0
XXX times a bitfields struct on RHS: 3
XXX times a single bitfield on LHS: 0
XXX times a single bitfield on RHS: 0

XXX max expression depth: 4
breakdown:
   depth: 1, occurrence: 20
   depth: 2, occurrence: 7
   depth: 4, occurrence: 1

XXX total number of pointers: 8

XXX times a variable address is taken: 10
XXX times a pointer is dereferenced on RHS: 1
breakdown:
   depth: 1, occurrence: 1
XXX times a pointer is dereferenced on LHS: 4
breakdown:
   depth: 1, occurrence: 4
XXX times a pointer is compared with null: 0
XXX times a pointer is compared with address of another variable: 0
XXX times a pointer is compared with another pointer: 0
XXX times a pointer is qualified to be dereferenced: 126

XXX max dereference level: 1
breakdown:
   level: 0, occurrence: 0
   level: 1, occurrence: 8
XXX number of pointers point to pointers: 1
XXX number of pointers point to scalars: 4
XXX number of pointers point to structs: 3
XXX percent of pointers has null in alias set: 62.5
XXX average alias set size: 1.38

XXX times a non-volatile is read: 19
XXX times a non-volatile is write: 17
XXX times a volatile is read: 1
XXX    times read thru a pointer: 0
XXX times a volatile is write: 1
XXX    times written thru a pointer: 1
XXX times a volatile is available for access: 4
XXX percentage of non-volatile access: 94.7

XXX forward jumps: 0
XXX backward jumps: 0

XXX stmts: 21
XXX max block depth: 4
breakdown:
   depth: 0, occurrence: 5
   depth: 1, occurrence: 5
   depth: 2, occurrence: 5
   depth: 3, occurrence: 3
   depth: 4, occurrence: 3

XXX percentage a fresh-made variable is used: 35.6
XXX percentage an existing variable is used: 64.4
FYI: the random generator makes assumptions about the integer size. See platform.info for more details.
********************* end of statistics **********************/

