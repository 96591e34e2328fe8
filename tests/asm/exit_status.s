# exit_status.s: main's result is the simulator's exit status.
        .text
        .globl main
        .type main, @function
main:
        li r4, 42
        jmp r31
        .nop_delay
