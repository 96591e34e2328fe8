# print_hex.s: print_hex(r4) writes r4 as 8 hexadecimal digits to stdout.
# Clobbers r4-r11 and p1. A member of libprint.a (hand-written assembly).
        .text
        .globl print_hex
        .type print_hex, @function
print_hex:
        { li r8, hex_end ; mov r9, r4 }
        li r10, 8
hex_digit:
        { andi r7, r9, 15 ; shri r9, r9, 4 }
        .wait andi
        { addi r8, r8, -1 ; li r11, hex_chars }
        .wait li
        add r11, r11, r7
        .wait add
        ldbu r7, r11, 0
        .wait ldbu
        { stb r7, r8, 0 ; addi r10, r10, -1 }
        .wait addi
        pnei p1, r10, 0
        .wait pnei
        (p1) br hex_digit
        .nop_delay
        { li r4, 1 ; li r5, hex_buf }
        li r6, 8
        trap 1
        jmp r31
        .nop_delay
        .size print_hex, .-print_hex

        .rodata
hex_chars: .ascii "0123456789abcdef"
        .data
hex_buf:   .zero 8
hex_end:
