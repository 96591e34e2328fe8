// globals_statics: global and static variables: zero-initialized .bss, initialized .data, static locals, const tables.
#include <stdio.h>

int zeroed[100];
long long zeroed64;
double zero_d;
int counter = 5;
short shorts[4] = {-1, 2, -3, 4};
char message[32] = "global message";
const int primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
static int file_static = 100;
static double weights[5] = {0.5, 0.25, 0.125};
unsigned char bytes[] = {0xde, 0xad, 0xbe, 0xef};
long long big_init = -1234567890123456789LL;
float fconst = 2.5f;

static int next_id(void) {
    static int id = 1000;
    return id++;
}
static int calls(void) {
    static int n;
    return ++n;
}
static double running_mean(double x) {
    static double sum;
    static int count;
    sum += x;
    count++;
    return sum / count;
}
static void bump(void) {
    counter += 10;
    file_static -= 1;
    zeroed[counter % 100]++;
}

int main(void) {
    int nonzero = 0;
    for (int i = 0; i < 100; i++)
        nonzero += zeroed[i] != 0;
    printf("bss nonzero %d zeroed64 %lld zero_d %g\n", nonzero, zeroed64, zero_d);
    printf("counter %d shorts %d %d %d %d message '%s'\n", counter, shorts[0], shorts[1], shorts[2], shorts[3],
           message);
    printf("weights %g %g %g %g %g\n", weights[0], weights[1], weights[2], weights[3], weights[4]);
    printf("bytes %02x%02x%02x%02x big %lld fconst %g\n", bytes[0], bytes[1], bytes[2], bytes[3], big_init,
           (double)fconst);
    int psum = 0;
    for (unsigned i = 0; i < sizeof primes / sizeof primes[0]; i++)
        psum += primes[i];
    printf("prime sum %d\n", psum);
    for (int k = 0; k < 5; k++) {
        int id = next_id();
        int c = calls();
        printf("id %d calls %d\n", id, c);
    }
    double m = 0;
    for (int k = 1; k <= 10; k++)
        m = running_mean(k * 1.5);
    printf("running mean %g\n", m);
    for (int k = 0; k < 25; k++)
        bump();
    nonzero = 0;
    for (int i = 0; i < 100; i++)
        nonzero += zeroed[i];
    printf("after bumps: counter %d file_static %d marks %d\n", counter, file_static, nonzero);
    message[6] = 0;
    shorts[2] *= -100;
    zeroed64 = big_init / 3;
    printf("modified '%s' %d %lld\n", message, shorts[2], zeroed64);
    return 0;
}
