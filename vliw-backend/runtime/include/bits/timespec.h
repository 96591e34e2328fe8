/* struct timespec, shared by <time.h> and <sys/stat.h> (each may be
 * included without the other). Needs time_t (<sys/types.h>). */
#ifndef __DSP_BITS_TIMESPEC_H
#define __DSP_BITS_TIMESPEC_H
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};
#endif
