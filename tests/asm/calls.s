# calls.s: recursive calls with a stack frame (factorial, Fibonacci), results
# printed with print_int and puts from the libprint.a archive.
        .text
        .globl main
        .type main, @function
main:
        addi r1, r1, -16
        .wait addi
        stw r31, r1, 0
        li r4, 10
        call fact
        .nop_delay
        call print_int
        .nop_delay
        li r4, empty
        call puts
        .nop_delay
        li r4, 15
        call fib
        .nop_delay
        call print_int
        .nop_delay
        li r4, done
        call puts
        .nop_delay
        ldw r31, r1, 0
        .wait ldw
        { addi r1, r1, 16 ; li r4, 0 }
        jmp r31
        .nop_delay
        .size main, .-main

# fact(r4) -> r4 = r4!
        .type fact, @function
fact:
        plti p1, r4, 2
        .wait plti
        { (p1) li r4, 1 ; (p1) jmp r31 }
        .nop_delay
        addi r1, r1, -16
        .wait addi
        stw r31, r1, 0
        stw r4, r1, 4
        addi r4, r4, -1
        call fact
        .nop_delay
        ldw r5, r1, 4
        ldw r31, r1, 0
        .wait ldw
        { mul r4, r4, r5 ; addi r1, r1, 16 }
        .wait mul
        jmp r31
        .nop_delay
        .size fact, .-fact

# fib(r4) -> r4, the naive recursion
        .type fib, @function
fib:
        plti p1, r4, 2
        .wait plti
        (p1) jmp r31
        .nop_delay
        addi r1, r1, -16
        .wait addi
        stw r31, r1, 0
        stw r4, r1, 4
        addi r4, r4, -1
        call fib
        .nop_delay
        stw r4, r1, 8
        ldw r4, r1, 4
        .wait ldw
        addi r4, r4, -2
        call fib
        .nop_delay
        ldw r5, r1, 8
        ldw r31, r1, 0
        .wait ldw
        { add r4, r4, r5 ; addi r1, r1, 16 }
        jmp r31
        .nop_delay
        .size fib, .-fib

        .rodata
empty:  .asciz ""
done:   .asciz " done"
