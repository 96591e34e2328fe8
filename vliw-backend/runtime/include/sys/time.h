/* sys/time.h: gettimeofday (the simulator's cycle counter, or the host
 * clock under dsp-sim --host-time), and the timeval macros; utimes fails
 * with ENOSYS (host file times are not changed). */
#ifndef _SYS_TIME_H
#define _SYS_TIME_H

#include <sys/types.h>

struct timeval {
    time_t tv_sec;
    suseconds_t tv_usec;
};
struct timezone {
    int tz_minuteswest;
    int tz_dsttime;
};

struct itimerval {
    struct timeval it_interval;
    struct timeval it_value;
};
#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2

int gettimeofday(struct timeval *__restrict, void *__restrict);
int settimeofday(const struct timeval *, const void *);
int getitimer(int, struct itimerval *);
int setitimer(int, const struct itimerval *__restrict, struct itimerval *__restrict);
int utimes(const char *, const struct timeval[2]);

#define timerisset(t) ((t)->tv_sec || (t)->tv_usec)
#define timerclear(t) ((t)->tv_sec = (t)->tv_usec = 0)
#define timercmp(a, b, CMP) \
    (((a)->tv_sec == (b)->tv_sec) ? ((a)->tv_usec CMP (b)->tv_usec) : ((a)->tv_sec CMP (b)->tv_sec))
#define timeradd(a, b, r) \
    do { \
        (r)->tv_sec = (a)->tv_sec + (b)->tv_sec; \
        (r)->tv_usec = (a)->tv_usec + (b)->tv_usec; \
        if ((r)->tv_usec >= 1000000) { \
            ++(r)->tv_sec; \
            (r)->tv_usec -= 1000000; \
        } \
    } while (0)
#define timersub(a, b, r) \
    do { \
        (r)->tv_sec = (a)->tv_sec - (b)->tv_sec; \
        (r)->tv_usec = (a)->tv_usec - (b)->tv_usec; \
        if ((r)->tv_usec < 0) { \
            --(r)->tv_sec; \
            (r)->tv_usec += 1000000; \
        } \
    } while (0)

#endif
