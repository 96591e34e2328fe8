/* sched.h: one core, no scheduler: sched_yield returns at once. */
#ifndef _SCHED_H
#define _SCHED_H

#include <sys/types.h>
#include <time.h>

#define SCHED_OTHER 0
#define SCHED_FIFO 1
#define SCHED_RR 2

struct sched_param {
    int sched_priority;
};

int sched_yield(void);
int sched_get_priority_max(int);
int sched_get_priority_min(int);
int sched_getscheduler(pid_t);
int sched_setscheduler(pid_t, int, const struct sched_param *);
int sched_getparam(pid_t, struct sched_param *);
int sched_setparam(pid_t, const struct sched_param *);

#endif
