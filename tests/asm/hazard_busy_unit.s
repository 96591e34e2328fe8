# hazard_busy_unit.s: two divisions in consecutive bundles on the one
# modes: strict relaxed
# non-pipelined divider. --strict reports the conflict; without --strict the
# second division waits for the divider (stall cycles) and the result is
# 100/5 + 100/10 = 30.
        .text
        .globl main
        .type main, @function
main:
        { li r5, 100 ; li r6, 5 }
        li r7, 10
        div r8, r5, r6
        div r9, r5, r7
        .wait div
        add r4, r8, r9
        jmp r31
        .nop_delay
