/* sys/types.h: POSIX system data types (32-bit glibc's choices). */
#ifndef _SYS_TYPES_H
#define _SYS_TYPES_H

#ifndef __DSP_SIZE_T
#define __DSP_SIZE_T
typedef __SIZE_TYPE__ size_t;
#endif
#ifndef __DSP_SSIZE_T
#define __DSP_SSIZE_T
typedef int ssize_t;
#endif
#ifndef __DSP_OFF_T
#define __DSP_OFF_T
typedef long off_t;
#endif
#ifndef __DSP_TIME_T
#define __DSP_TIME_T
typedef long time_t;
#endif
#ifndef __DSP_CLOCK_T
#define __DSP_CLOCK_T
typedef long clock_t;
#endif
#ifndef __DSP_SUSECONDS_T
#define __DSP_SUSECONDS_T
typedef long suseconds_t;
#endif
typedef unsigned int useconds_t;
#ifndef __DSP_PID_T
#define __DSP_PID_T
typedef int pid_t;
typedef unsigned int uid_t;
#endif
typedef unsigned int gid_t;
typedef unsigned int mode_t;
#ifndef __DSP_CLOCKID_T
#define __DSP_CLOCKID_T
typedef int clockid_t;
#endif
typedef unsigned long long dev_t;
typedef unsigned long ino_t;
typedef unsigned int nlink_t;
typedef long blksize_t;
typedef long blkcnt_t;
typedef unsigned int id_t;
typedef int key_t;
typedef long long off64_t;
typedef long long loff_t;
typedef unsigned long fsblkcnt_t;
typedef unsigned long fsfilcnt_t;
typedef char *caddr_t;
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;

#endif
