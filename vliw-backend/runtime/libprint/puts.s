# puts.s: puts(r4 = NUL-terminated string) writes the string and a newline.
# Clobbers r4-r8 and p1. A member of libprint.a (hand-written assembly).
        .text
        .globl puts
        .type puts, @function
puts:
        { mov r7, r4 ; mov r8, r4 }
puts_scan:
        ldbu r5, r8, 0
        .wait ldbu
        pnei p1, r5, 0
        .wait pnei
        { (p1) br puts_scan ; (p1) addi r8, r8, 1 }
        .nop_delay
        { li r4, 1 ; mov r5, r7 }
        sub r6, r8, r7
        trap 1
        { li r4, 1 ; li r5, newline }
        li r6, 1
        trap 1
        jmp r31
        .nop_delay
        .size puts, .-puts
        .rodata
newline: .ascii "\n"
