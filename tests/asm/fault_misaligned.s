# fault_misaligned.s: a word load from an address that is not a multiple of 4.
        .text
        .globl main
        .type main, @function
main:
        li r6, value
        .wait li
        ldw r4, r6, 2
        .wait ldw
        jmp r31
        .nop_delay
        .data
value:  .word 1, 2
