# syscalls.s: the C runtime's system-call wrappers (the simulator's `trap N`,
# see vliw-backend/sim/src/syscall.rs), for every shipped machine.
#
#   void __dsp_exit(int status)                                 trap 0
#   int __dsp_write(int fd, const void *buf, unsigned len)      trap 1
#   unsigned long long __dsp_cycles(void)                       trap 2
#   int __dsp_read(int fd, void *buf, unsigned len)             trap 3
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
