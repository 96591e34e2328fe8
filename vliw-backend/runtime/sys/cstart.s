# cstart.s: program startup for C programs, on every shipped machine.
# Assembled into target/runtime/<machine>/crt0.o by scripts/build-runtime
# (runtime/crt0.s stays the start-up file of hand-written assembly programs,
# which have no C library).
#
# _start sets the stack pointer (abi sp = r1) to __stack_top, clears .bss
# 64 bytes at a time with 64-bit stores from __bss_start to __bss_end (the
# linker aligns both to 64 bytes), calls main(1, argv, envp) with argv = { "a.out", NULL } and
# envp = { NULL } (abi args r4, r5, r6), then calls exit with main's result
# (abi rets[0] = r4 = abi args[0]), which runs the atexit handlers, flushes
# stdout and ends the run through __dsp_exit.
#
# Every branch and call is followed by .nop_delay, so this file is correct
# whatever the number of delay slots.

        .text
        .globl _start
        .type _start, @function
_start:
        li r1, __stack_top              # stack pointer
        li r2, __bss_start              # r2: next 64 bytes to clear
        li r3, __bss_end                # r3: end of .bss
        pack d1, r0, r0                 # d1 = 0 (r0 reads zero)
        .wait pack
        pltu p1, r2, r3                 # anything to clear?
        .wait pltu
        (!p1) br .Lcleared
        .nop_delay
.Lclear:
        std d1, r2, 0                   # 64 bytes per iteration: the
        std d1, r2, 8                   # linker aligns both ends to 64
        std d1, r2, 16
        std d1, r2, 24
        std d1, r2, 32
        std d1, r2, 40
        std d1, r2, 48
        std d1, r2, 56
        addi r2, r2, 64
        .wait addi
        pltu p1, r2, r3
        .wait pltu
        (p1) br .Lclear
        .nop_delay
.Lcleared:
        li r4, 1                        # argc
        li r5, __dsp_argv               # argv
        li r6, __dsp_envp               # envp
        call main
        .nop_delay
        call exit                       # exit(main's result, already in r4)
        .nop_delay
        trap 0                          # exit does not return
.Lhang:
        br .Lhang
        .nop_delay
        .size _start, .-_start

        .data
        .align 4
        .globl __dsp_argv
__dsp_argv:
        .word __dsp_argv0, 0
__dsp_envp:
        .word 0
__dsp_argv0:
        .asciz "a.out"
