# hazard_early_read.s: reads a loaded register one cycle after the load
# modes: strict relaxed
# issues, long before its latency. --strict reports it; without --strict the
# machine's rule applies (no interlocks: the old value, 5, is read), so the
# exit status is 5 + 5 = 10.
        .text
        .globl main
        .type main, @function
main:
        li r5, 5
        li r6, value
        .wait li
        ldw r5, r6, 0
        add r4, r5, r5
        .wait ldw
        jmp r31
        .nop_delay
        .data
value:  .word 100
