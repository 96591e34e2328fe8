// volatile_access: volatile loads and stores are all performed, in order, including in loops and on narrow types.
#include <stdint.h>
#include <stdio.h>

volatile int vcounter;
volatile uint8_t vbytes[16];
volatile uint16_t vhalf;
volatile long long vwide;
volatile double vdouble;
int plain;

static void busy_wait(int n) {
    for (volatile int i = 0; i < n; i++)
        ;
}
static int read_twice(volatile int *p) {
    int a = *p;
    int b = *p;
    return a + b;
}

int main(void) {
    for (int i = 0; i < 100; i++)
        vcounter++;
    printf("counter %d\n", vcounter);
    vcounter = 0;
    vcounter = 5;
    vcounter += 10;
    printf("counter %d twice %d\n", vcounter, read_twice((volatile int *)&vcounter));
    for (int i = 0; i < 16; i++)
        vbytes[i] = (uint8_t)(i * 17);
    unsigned sum = 0;
    for (int i = 0; i < 16; i++)
        sum += vbytes[i];
    printf("bytes sum %u\n", sum);
    vhalf = 0xfff0;
    vhalf += 0x20;
    printf("half %u\n", vhalf);
    vwide = 0x123456789abcdefLL;
    vwide ^= 0x0f0f0f0f0f0f0f0fLL;
    printf("wide %llx\n", (unsigned long long)vwide);
    vdouble = 1.0;
    for (int i = 0; i < 10; i++)
        vdouble = vdouble * 1.5 + i;
    printf("double %.17g\n", vdouble);
    busy_wait(1000);
    /* A volatile local used as a loop counter and an accumulator. */
    volatile int acc = 0;
    for (int i = 0; i < 50; i++)
        acc = acc + i * 3;
    plain = acc;
    printf("acc %d plain %d\n", acc, plain);
    /* Pointer to volatile walks. */
    volatile uint8_t *p = vbytes;
    uint8_t x = 0;
    for (int i = 0; i < 16; i++)
        x ^= *p++;
    printf("xor %u\n", x);
    /* Volatile struct members. */
    struct regs {
        volatile uint32_t ctrl;
        volatile uint32_t status;
        uint32_t shadow;
    } r = {0, 0, 0};
    for (int bit = 0; bit < 8; bit++) {
        r.ctrl |= 1u << bit;
        r.status = r.ctrl >> 1;
        r.shadow += r.status;
    }
    printf("regs ctrl %x status %x shadow %u\n", r.ctrl, r.status, r.shadow);
    return 0;
}
