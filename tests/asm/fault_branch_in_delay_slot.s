# fault_branch_in_delay_slot.s: a branch issued in another branch's delay slot.
        .text
        .globl main
        .type main, @function
main:
        br there
        br there
        .nop_delay
there:
        li r4, 0
        jmp r31
        .nop_delay
