/* time.c: clock, time, gettimeofday, clock_gettime, getrusage and the
 * calendar functions. Every clock derives from the simulator's cycle
 * counter (__dsp_cycles) at the nominal rate DSP_CLOCK_HZ, defined here
 * only; the epoch (time 0) is the start of the run. Under dsp-sim
 * --host-time the real time (time, gettimeofday, CLOCK_REALTIME) is the
 * host's clock instead (system call 18); the CPU clocks stay cycles. Time
 * zone: UTC, no daylight saving. The sleep functions advance a software
 * offset instead of waiting, so time() and clock() see the time pass. */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "syscalls.h"

/* The nominal clock rate of the simulated DSP: 1 GHz. */
#define DSP_CLOCK_HZ 1000000000ULL

static unsigned long long slept_ns; /* time added by sleep/usleep/nanosleep */

static unsigned long long now_ns(void)
{
    unsigned long long c = __dsp_cycles();
    return c * (1000000000ULL / DSP_CLOCK_HZ) + slept_ns;
}

/* The real time in ns: the host's under --host-time, else now_ns(). */
static unsigned long long real_ns(void)
{
    struct {
        long long sec;
        unsigned nsec;
    } t;
    if (__dsp_host_time(&t) == 0)
        return (unsigned long long)t.sec * 1000000000ULL + t.nsec + slept_ns;
    return now_ns();
}

clock_t clock(void)
{
    unsigned long long c = __dsp_cycles();
    return (clock_t)(c / (DSP_CLOCK_HZ / CLOCKS_PER_SEC));
}

time_t time(time_t *t)
{
    time_t v = (time_t)(real_ns() / 1000000000ULL);
    if (t)
        *t = v;
    return v;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    (void)tz;
    if (tv) {
        unsigned long long ns = real_ns();
        tv->tv_sec = (time_t)(ns / 1000000000ULL);
        tv->tv_usec = (suseconds_t)(ns % 1000000000ULL / 1000);
    }
    return 0;
}

int clock_gettime(int id, struct timespec *ts)
{
    unsigned long long ns;
    if (id == CLOCK_PROCESS_CPUTIME_ID || id == CLOCK_THREAD_CPUTIME_ID)
        ns = __dsp_cycles() * (1000000000ULL / DSP_CLOCK_HZ);
    else if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)
        ns = real_ns();
    else if (id == CLOCK_MONOTONIC || id == CLOCK_MONOTONIC_RAW || id == CLOCK_MONOTONIC_COARSE || id == CLOCK_BOOTTIME)
        ns = now_ns();
    else {
        errno = EINVAL;
        return -1;
    }
    ts->tv_sec = (time_t)(ns / 1000000000ULL);
    ts->tv_nsec = (long)(ns % 1000000000ULL);
    return 0;
}

int clock_getres(clockid_t id, struct timespec *ts)
{
    if (id < CLOCK_REALTIME || id > CLOCK_BOOTTIME) {
        errno = EINVAL;
        return -1;
    }
    if (ts) {
        ts->tv_sec = 0;
        ts->tv_nsec = (long)(1000000000ULL / DSP_CLOCK_HZ);
        if (ts->tv_nsec == 0)
            ts->tv_nsec = 1;
    }
    return 0;
}

/* User time: the cycles so far; no system time, no other resources. */
int getrusage(int who, struct rusage *ru)
{
    if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN) {
        errno = EINVAL;
        return -1;
    }
    char *p = (char *)ru;
    for (unsigned i = 0; i < sizeof *ru; i++)
        p[i] = 0;
    if (who == RUSAGE_SELF) {
        unsigned long long us = __dsp_cycles() / (DSP_CLOCK_HZ / 1000000ULL);
        ru->ru_utime.tv_sec = (time_t)(us / 1000000ULL);
        ru->ru_utime.tv_usec = (suseconds_t)(us % 1000000ULL);
    }
    return 0;
}

int getrlimit(int res, struct rlimit *r)
{
    (void)res;
    r->rlim_cur = r->rlim_max = RLIM_INFINITY;
    return 0;
}

int setrlimit(int res, const struct rlimit *r)
{
    (void)res;
    (void)r;
    errno = EPERM;
    return -1;
}

int getpriority(int which, id_t who)
{
    (void)which;
    (void)who;
    return 0;
}

int setpriority(int which, id_t who, int prio)
{
    (void)which;
    (void)who;
    (void)prio;
    errno = EPERM;
    return -1;
}

char *tzname[2] = {"UTC", "UTC"};
long timezone;
int daylight;

void tzset(void)
{
}

int timespec_get(struct timespec *ts, int base)
{
    if (base != TIME_UTC)
        return 0;
    clock_gettime(CLOCK_REALTIME, ts);
    return base;
}

double difftime(time_t a, time_t b)
{
    return (double)a - (double)b;
}

unsigned sleep(unsigned s)
{
    slept_ns += (unsigned long long)s * 1000000000ULL;
    return 0;
}

int usleep(useconds_t us)
{
    slept_ns += (unsigned long long)us * 1000ULL;
    return 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    if (req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0) {
        errno = EINVAL;
        return -1;
    }
    slept_ns += (unsigned long long)req->tv_sec * 1000000000ULL + (unsigned long long)req->tv_nsec;
    if (rem) {
        rem->tv_sec = 0;
        rem->tv_nsec = 0;
    }
    return 0;
}

/* Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm). */
static long long days_from_civil(long long y, int m, int d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

struct tm *gmtime_r(const time_t *restrict t, struct tm *restrict tm)
{
    long long s = *t;
    long long days = s / 86400;
    long long rem = s % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    tm->tm_hour = (int)(rem / 3600);
    tm->tm_min = (int)(rem % 3600 / 60);
    tm->tm_sec = (int)(rem % 60);
    tm->tm_wday = (int)((days + 4) % 7);
    if (tm->tm_wday < 0)
        tm->tm_wday += 7;
    /* Civil from days (Hinnant). */
    long long z = days + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long y = yoe + era * 400;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1);
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    y += m <= 2;
    tm->tm_year = (int)(y - 1900);
    tm->tm_mon = m - 1;
    tm->tm_mday = d;
    tm->tm_yday = (int)(days - days_from_civil(y, 1, 1));
    tm->tm_isdst = 0;
    tm->tm_gmtoff = 0;
    tm->tm_zone = "GMT";
    return tm;
}

struct tm *localtime_r(const time_t *restrict t, struct tm *restrict tm)
{
    gmtime_r(t, tm);
    tm->tm_zone = "UTC";
    return tm;
}

static struct tm tm_buf;

struct tm *gmtime(const time_t *t)
{
    return gmtime_r(t, &tm_buf);
}

struct tm *localtime(const time_t *t)
{
    return localtime_r(t, &tm_buf);
}

time_t mktime(struct tm *tm)
{
    long long y = tm->tm_year + 1900LL;
    long long mon = tm->tm_mon;
    y += mon / 12;
    mon %= 12;
    if (mon < 0) {
        mon += 12;
        y--;
    }
    long long days = days_from_civil(y, (int)mon + 1, 1) + tm->tm_mday - 1;
    long long s = days * 86400 + tm->tm_hour * 3600LL + tm->tm_min * 60LL + tm->tm_sec;
    time_t t = (time_t)s;
    localtime_r(&t, tm);
    return t;
}

static const char wday_name[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const char mon_name[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
static const char *const wday_full[7] = {"Sunday", "Monday", "Tuesday", "Wednesday",
                                         "Thursday", "Friday", "Saturday"};
static const char *const mon_full[12] = {"January", "February", "March",     "April",   "May",      "June",
                                         "July",    "August",   "September", "October", "November", "December"};

char *asctime(const struct tm *tm)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n", wday_name[(unsigned)tm->tm_wday % 7],
             mon_name[(unsigned)tm->tm_mon % 12], tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec,
             1900 + tm->tm_year);
    return buf;
}

char *ctime(const time_t *t)
{
    return asctime(localtime(t));
}

size_t strftime(char *restrict s, size_t max, const char *restrict fmt, const struct tm *restrict tm)
{
    size_t n = 0;
    char tmp[64];
    for (; *fmt; fmt++) {
        const char *add = tmp;
        if (*fmt != '%') {
            tmp[0] = *fmt;
            tmp[1] = 0;
        } else {
            switch (*++fmt) {
            case 'a': add = wday_name[(unsigned)tm->tm_wday % 7]; break;
            case 'A': add = wday_full[(unsigned)tm->tm_wday % 7]; break;
            case 'b':
            case 'h': add = mon_name[(unsigned)tm->tm_mon % 12]; break;
            case 'B': add = mon_full[(unsigned)tm->tm_mon % 12]; break;
            case 'c':
                snprintf(tmp, sizeof tmp, "%.3s %.3s %2d %.2d:%.2d:%.2d %d", wday_name[(unsigned)tm->tm_wday % 7],
                         mon_name[(unsigned)tm->tm_mon % 12], tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec,
                         1900 + tm->tm_year);
                break;
            case 'd': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mday); break;
            case 'e': snprintf(tmp, sizeof tmp, "%2d", tm->tm_mday); break;
            case 'F': snprintf(tmp, sizeof tmp, "%d-%02d-%02d", 1900 + tm->tm_year, tm->tm_mon + 1, tm->tm_mday); break;
            case 'H': snprintf(tmp, sizeof tmp, "%02d", tm->tm_hour); break;
            case 'I': snprintf(tmp, sizeof tmp, "%02d", tm->tm_hour % 12 ? tm->tm_hour % 12 : 12); break;
            case 'j': snprintf(tmp, sizeof tmp, "%03d", tm->tm_yday + 1); break;
            case 'm': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mon + 1); break;
            case 'M': snprintf(tmp, sizeof tmp, "%02d", tm->tm_min); break;
            case 'n': add = "\n"; break;
            case 'p': add = tm->tm_hour < 12 ? "AM" : "PM"; break;
            case 'S': snprintf(tmp, sizeof tmp, "%02d", tm->tm_sec); break;
            case 't': add = "\t"; break;
            case 'T': snprintf(tmp, sizeof tmp, "%02d:%02d:%02d", tm->tm_hour, tm->tm_min, tm->tm_sec); break;
            case 'D': snprintf(tmp, sizeof tmp, "%02d/%02d/%02d", tm->tm_mon + 1, tm->tm_mday, (tm->tm_year + 1900) % 100); break;
            case 'R': snprintf(tmp, sizeof tmp, "%02d:%02d", tm->tm_hour, tm->tm_min); break;
            case 'w': snprintf(tmp, sizeof tmp, "%d", tm->tm_wday); break;
            case 'y': snprintf(tmp, sizeof tmp, "%02d", (tm->tm_year + 1900) % 100); break;
            case 'Y': snprintf(tmp, sizeof tmp, "%d", tm->tm_year + 1900); break;
            case 'Z': add = tm->tm_zone ? tm->tm_zone : "UTC"; break;
            case 'z': add = "+0000"; break;
            case 's': snprintf(tmp, sizeof tmp, "%lld", (long long)mktime((struct tm *)tm)); break;
            case '%': add = "%"; break;
            case 0: fmt--; add = ""; break;
            default: snprintf(tmp, sizeof tmp, "%%%c", *fmt); break;
            }
        }
        for (; *add; add++) {
            if (n + 1 >= max)
                return 0;
            s[n++] = *add;
        }
    }
    if (n >= max)
        return 0;
    s[n] = 0;
    return n;
}
