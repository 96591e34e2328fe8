# fault_null.s: a store through a null pointer (into the null guard).
        .text
        .globl main
        .type main, @function
main:
        li r5, 7
        .wait li
        stw r5, r0, 0
        jmp r31
        .nop_delay
