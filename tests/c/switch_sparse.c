// switch_sparse: sparse switch statements (compare trees), negative and large case values, 64-bit switches.
#include <stdint.h>
#include <stdio.h>

static int sparse(int x) {
    switch (x) {
    case -1000000: return 1;
    case -500: return 2;
    case -1: return 3;
    case 0: return 4;
    case 7: return 5;
    case 64: return 6;
    case 1000: return 7;
    case 4096: return 8;
    case 65535: return 9;
    case 1 << 20: return 10;
    case 2147483647: return 11;
    case -2147483647 - 1: return 12;
    default: return 0;
    }
}
static const char *http(unsigned code) {
    switch (code) {
    case 200: return "OK";
    case 201: return "Created";
    case 301: return "Moved Permanently";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
    }
}
static int big_switch(int64_t v) {
    switch (v) {
    case 0: return 0;
    case 1: return 1;
    case 0x100000000LL: return 2;
    case -0x100000000LL: return 3;
    case 0x7fffffffffffffffLL: return 4;
    case 42: return 5;
    case 0x123456789LL: return 6;
    default: return -1;
    }
}
static unsigned ushort_switch(unsigned short v) {
    switch (v) {
    case 0xffff: return 1;
    case 0x8000: return 2;
    case 0x7fff: return 3;
    case 1: return 4;
    default: return 0;
    }
}

int probes[] = {-2147483647 - 1, -1000000, -999999, -500, -2, -1, 0, 1, 7, 8, 63, 64, 999, 1000, 4096, 65535, 65536,
                1 << 20, 2147483646, 2147483647};
int64_t probes64[] = {0, 1, 2, 42, 0x100000000LL, 0xffffffffLL, -0x100000000LL, 0x7fffffffffffffffLL, 0x123456789LL,
                      -1};

int main(void) {
    for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++)
        printf("sparse(%d)=%d\n", probes[i], sparse(probes[i]));
    unsigned codes[] = {200, 204, 301, 302, 304, 400, 403, 404, 418, 500, 503, 0};
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++)
        printf("%u %s\n", codes[i], http(codes[i]));
    for (unsigned i = 0; i < sizeof probes64 / sizeof probes64[0]; i++)
        printf("big(%lld)=%d\n", (long long)probes64[i], big_switch(probes64[i]));
    unsigned us_total = 0;
    for (unsigned v = 0; v < 0x10000; v += 0x7fff)
        us_total += ushort_switch((unsigned short)v);
    printf("ushort total %u %u %u\n", us_total, ushort_switch(0xffff), ushort_switch(1));
    /* Hash-like dispatch over many keys. */
    long acc = 0;
    for (int k = -50; k < 5000; k += 13)
        acc += sparse(k) * (long)(k % 17);
    printf("acc %ld\n", acc);
    return 0;
}
