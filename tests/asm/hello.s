# hello.s: the smallest program: one write system call, exit status 0.
        .text
        .globl main
        .type main, @function
main:
        { li r4, 1 ; li r5, msg }
        li r6, msg_len
        trap 1
        li r4, 0
        jmp r31
        .nop_delay
        .size main, .-main
        .rodata
msg:    .ascii "hello, world\n"
        .equ msg_len, .-msg
