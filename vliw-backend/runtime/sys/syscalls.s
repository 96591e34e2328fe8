# syscalls.s: the C runtime's system-call wrappers (the simulator's `trap N`,
# see vliw-backend/sim/src/syscall.rs), for every shipped machine.
#
#   void __dsp_exit(int status)                                 trap 0
#   int __dsp_write(int fd, const void *buf, unsigned len)      trap 1
#   unsigned long long __dsp_cycles(void)                       trap 2
#   int __dsp_read(int fd, void *buf, unsigned len)             trap 3
#   void *__dsp_args(void *top)                                 trap 4
#   int __dsp_open(const char *path, int flags, int mode)       trap 5
#   int __dsp_close(int fd)                                     trap 6
#   long __dsp_lseek(int fd, long off, int whence)              trap 7
#   int __dsp_unlink(const char *path)                          trap 8
#   int __dsp_rename(const char *from, const char *to)          trap 9
#   int __dsp_stat(const char *path, void *record)              trap 10
#   int __dsp_fstat(int fd, void *record)                       trap 11
#   int __dsp_isatty(int fd)                                    trap 12
#   int __dsp_access(const char *path, int mode)                trap 13
#   int __dsp_opendir(const char *path)                         trap 14
#   int __dsp_readdir(int fd, void *buf, unsigned len)          trap 15
#   int __dsp_mkdir(const char *path, int mode)                 trap 16
#   int __dsp_rmdir(const char *path)                           trap 17
#   int __dsp_host_time(void *buf)                              trap 18
#   int __dsp_getcwd(char *buf, unsigned len)                   trap 19
#   int __dsp_ftruncate(int fd, long len)                       trap 20
#   int __dsp_lstat(const char *path, void *record)             trap 21
#
# Calls 1 and 3-21 return a negative Linux error number on failure
# (sim/src/syscall.rs has the table).
#
# Arguments arrive in abi args (r4, r5, r6), which is where the trap takes
# them; 32-bit results come back in r4 = abi rets[0]. trap 2 gives the low
# half of the cycle counter in r4 and the high half in r5; a 64-bit result
# returns in d0, so __dsp_cycles packs them. `.wait` lets each result land
# before the return (ABI.md, "Timing across boundaries"), and `.nop_delay`
# fills the branch delay slots of whichever machine assembles this file.

        .text

        .globl __dsp_exit
        .type __dsp_exit, @function
__dsp_exit:
        trap 0                          # the run ends after this bundle
.Lexit_hang:
        br .Lexit_hang
        .nop_delay
        .size __dsp_exit, .-__dsp_exit

        .globl __dsp_write
        .type __dsp_write, @function
__dsp_write:
        trap 1
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_write, .-__dsp_write

        .globl __dsp_cycles
        .type __dsp_cycles, @function
__dsp_cycles:
        trap 2
        .wait trap
        pack d0, r4, r5                 # d0 = r4 | r5 << 32
        .wait pack
        jmp r31
        .nop_delay
        .size __dsp_cycles, .-__dsp_cycles

        .globl __dsp_read
        .type __dsp_read, @function
__dsp_read:
        trap 3
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_read, .-__dsp_read

        .globl __dsp_args
        .type __dsp_args, @function
__dsp_args:
        trap 4
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_args, .-__dsp_args

        .globl __dsp_open
        .type __dsp_open, @function
__dsp_open:
        trap 5
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_open, .-__dsp_open

        .globl __dsp_close
        .type __dsp_close, @function
__dsp_close:
        trap 6
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_close, .-__dsp_close

        .globl __dsp_lseek
        .type __dsp_lseek, @function
__dsp_lseek:
        trap 7
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_lseek, .-__dsp_lseek

        .globl __dsp_unlink
        .type __dsp_unlink, @function
__dsp_unlink:
        trap 8
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_unlink, .-__dsp_unlink

        .globl __dsp_rename
        .type __dsp_rename, @function
__dsp_rename:
        trap 9
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_rename, .-__dsp_rename

        .globl __dsp_stat
        .type __dsp_stat, @function
__dsp_stat:
        trap 10
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_stat, .-__dsp_stat

        .globl __dsp_fstat
        .type __dsp_fstat, @function
__dsp_fstat:
        trap 11
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_fstat, .-__dsp_fstat

        .globl __dsp_isatty
        .type __dsp_isatty, @function
__dsp_isatty:
        trap 12
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_isatty, .-__dsp_isatty

        .globl __dsp_access
        .type __dsp_access, @function
__dsp_access:
        trap 13
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_access, .-__dsp_access

        .globl __dsp_opendir
        .type __dsp_opendir, @function
__dsp_opendir:
        trap 14
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_opendir, .-__dsp_opendir

        .globl __dsp_readdir
        .type __dsp_readdir, @function
__dsp_readdir:
        trap 15
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_readdir, .-__dsp_readdir

        .globl __dsp_mkdir
        .type __dsp_mkdir, @function
__dsp_mkdir:
        trap 16
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_mkdir, .-__dsp_mkdir

        .globl __dsp_rmdir
        .type __dsp_rmdir, @function
__dsp_rmdir:
        trap 17
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_rmdir, .-__dsp_rmdir

        .globl __dsp_host_time
        .type __dsp_host_time, @function
__dsp_host_time:
        trap 18
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_host_time, .-__dsp_host_time

        .globl __dsp_getcwd
        .type __dsp_getcwd, @function
__dsp_getcwd:
        trap 19
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_getcwd, .-__dsp_getcwd

        .globl __dsp_ftruncate
        .type __dsp_ftruncate, @function
__dsp_ftruncate:
        trap 20
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_ftruncate, .-__dsp_ftruncate

        .globl __dsp_lstat
        .type __dsp_lstat, @function
__dsp_lstat:
        trap 21
        .wait trap
        jmp r31
        .nop_delay
        .size __dsp_lstat, .-__dsp_lstat
