# print_int.s: print_int(r4) writes the signed decimal form of r4 to stdout.
# A member of libprint.a, the print routines for hand-written assembly.
        .text
# print_int: writes the signed decimal form of r4 to standard output.
# Clobbers r4-r11 and p1; leaves r31 alone (it calls nothing).
        .globl print_int
        .type print_int, @function
print_int:
        { li r8, digits_end ; mov r9, r4 }
        { li r10, 0 ; li r11, 10 }
        plt p1, r4, r0
        .wait plt
        { (p1) sub r9, r0, r4 ; (p1) li r10, 1 }
        .wait sub
digit:
        divu r6, r9, r11
        .wait divu
        mul r7, r6, r11
        .wait mul
        { sub r7, r9, r7 ; addi r8, r8, -1 }
        .wait sub
        addi r7, r7, 48
        .wait addi
        { stb r7, r8, 0 ; mov r9, r6 }
        pnei p1, r6, 0
        .wait pnei
        (p1) br digit
        .nop_delay
        peqi p1, r10, 1
        .wait peqi
        { (p1) addi r8, r8, -1 ; (p1) li r7, 45 }
        .wait addi
        (p1) stb r7, r8, 0
        { li r4, 1 ; mov r5, r8 }
        li r6, digits_end
        .wait li
        sub r6, r6, r8
        .wait sub
        trap 1
        jmp r31
        .nop_delay
        .size print_int, .-print_int


        .data
digits:    .zero 16
digits_end:
