/* time.h: date and time (C11 7.27). The clock is the simulator's cycle
 * counter at a nominal rate of DSP_CLOCK_HZ cycles per second (defined in
 * libc/time.c); time() counts seconds from the epoch at reset, unless
 * dsp-sim runs with --host-time (then the real time is the host's).
 * Time zone: UTC. */
#ifndef _TIME_H
#define _TIME_H

#ifndef __DSP_CLOCKID_T
#define __DSP_CLOCKID_T
typedef int clockid_t;
#endif

#ifndef __DSP_SIZE_T
#define __DSP_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#ifndef __DSP_TIME_T
#define __DSP_TIME_T
typedef long time_t;
#endif
#ifndef __DSP_CLOCK_T
#define __DSP_CLOCK_T
typedef long clock_t;
#endif
#ifndef NULL
#define NULL ((void *)0)
#endif

#define CLOCKS_PER_SEC ((clock_t)1000000)
#define TIME_UTC 1
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7

#include <bits/timespec.h>

struct tm {
    int tm_sec;
    int tm_min;
    int tm_hour;
    int tm_mday;
    int tm_mon;
    int tm_year;
    int tm_wday;
    int tm_yday;
    int tm_isdst;
    long tm_gmtoff;
    const char *tm_zone;
};

clock_t clock(void);
time_t time(time_t *);
double difftime(time_t, time_t);
time_t mktime(struct tm *);
struct tm *gmtime(const time_t *);
struct tm *localtime(const time_t *);
struct tm *gmtime_r(const time_t *__restrict, struct tm *__restrict);
struct tm *localtime_r(const time_t *__restrict, struct tm *__restrict);
char *asctime(const struct tm *);
char *ctime(const time_t *);
size_t strftime(char *__restrict, size_t, const char *__restrict, const struct tm *__restrict);
int timespec_get(struct timespec *, int);
int clock_gettime(clockid_t, struct timespec *);
int clock_getres(clockid_t, struct timespec *);
void tzset(void);
extern char *tzname[2];
extern long timezone;
extern int daylight;
int nanosleep(const struct timespec *, struct timespec *);

#endif
