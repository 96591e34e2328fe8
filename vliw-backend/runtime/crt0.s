# crt0.s: program startup for every shipped machine (ftm, ftm8, ftm32).
#
# _start sets the stack pointer (abi sp = r1) to __stack_top, clears .bss a
# word at a time from __bss_start to __bss_end (the linker aligns both to 64
# bytes), calls main(0, 0) (abi args r4, r5), then exits with main's result:
# trap 0 = exit(status) takes the status in abi args[0] = r4, which is also
# where main returns it (abi rets[0] = r4).
#
# Every branch and call is followed by .nop_delay, which emits one nop bundle
# per branch delay slot of the machine being assembled for, so this file is
# correct whatever the number of delay slots.

        .text
        .globl _start
        .type _start, @function
_start:
        li r1, __stack_top              # stack pointer
        li r2, __bss_start              # r2: next word to clear
        li r3, __bss_end                # r3: end of .bss
.Lclear:
        pltu p1, r2, r3                 # more words to clear?
        (!p1) br .Lcleared
        .nop_delay
        stw r0, r2, 0                   # r0 reads zero
        addi r2, r2, 4
        br .Lclear
        .nop_delay
.Lcleared:
        li r4, 0                        # argc
        li r5, 0                        # argv
        call main
        .nop_delay
        trap 0                          # exit(main's result, already in r4)
.Lhang:
        br .Lhang                       # exit does not return
        .nop_delay
        .size _start, .-_start
