# fault_write_text.s: a store into the code.
        .text
        .globl main
        .type main, @function
main:
        li r6, main
        .wait li
        stw r0, r6, 0
        jmp r31
        .nop_delay
