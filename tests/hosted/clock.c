/* Time: deterministic (from the cycle count) unless dsp-sim --host-time. */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

int main(void)
{
    struct timespec ts;
    struct timeval tv;
    clock_gettime(CLOCK_REALTIME, &ts);
    gettimeofday(&tv, NULL);
    printf("time %ld\n", (long)time(NULL));
    printf("realtime %ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
    printf("tv %ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
    printf("clock %ld\n", (long)clock());
    return 0;
}
