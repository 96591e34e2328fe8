# fault_divide_by_zero.s: integer division by zero.
        .text
        .globl main
        .type main, @function
main:
        li r5, 7
        .wait li
        div r4, r5, r0
        .wait div
        jmp r31
        .nop_delay
