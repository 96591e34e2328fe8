# float.s: scalar IEEE arithmetic on f32 (in r) and f64 (in d), printed as
# raw bits in hex: add, mul, fused mac, divide, square root, conversions,
# compares into predicates, and 64-bit integer arithmetic.
        .text
        .globl main
        .type main, @function
main:
        addi r1, r1, -16
        .wait addi
        stw r31, r1, 0
        li r16, 0x3f800000             # 1.0f
        li r17, 0x40000000             # 2.0f
        li r18, 0x40400000             # 3.0f
        .wait li
        fadd r4, r16, r17              # 3.0f = 40400000
        .wait fadd
        call hexline
        .nop_delay
        fdiv r4, r16, r18              # 1/3 = 3eaaaaab
        .wait fdiv
        call hexline
        .nop_delay
        fsqrt r4, r17                  # sqrt 2 = 3fb504f3
        .wait fsqrt
        call hexline
        .nop_delay
        fmac r4, r18, r18, r16         # 3*3+1 = 10.0f = 41200000
        .wait fmac
        call hexline
        .nop_delay
        li r5, -7
        .wait li
        itof r4, r5                    # -7.0f = c0e00000
        .wait itof
        call hexline
        .nop_delay
        li r5, 0xc0fccccd              # -7.9f
        .wait li
        ftoi r4, r5                    # truncates to -7 = fffffff9
        .wait ftoi
        call hexline
        .nop_delay
        itod d1, r16                   # (double)0x3f800000 = 1065353216.0
        li r5, 3
        .wait li
        itod d2, r5
        .wait itod
        ddiv d3, d1, d2                # 355117738.666… = 41b52a2aaaaaaaab
        .wait ddiv
        hi r4, d3
        .wait hi
        call hexline
        .nop_delay
        lo r4, d3
        .wait lo
        call hexline
        .nop_delay
        pflt p1, r16, r17              # 1.0 < 2.0
        pfle p2, r18, r17              # 3.0 <= 2.0 is false
        .wait pflt
        .wait pfle
        ptor r4, p1
        ptor r5, p2
        .wait ptor
        shli r5, r5, 4
        .wait shli
        or r4, r4, r5                  # 00000001
        .wait or
        call hexline
        .nop_delay
        # 64-bit: 0x00000001_ffffffff + 1 = 0x00000002_00000000, then * 3
        li r5, -1
        li r6, 1
        .wait li
        pack d4, r5, r6
        li r7, 1
        .wait li
        zext64 d5, r7
        .wait pack
        .wait zext64
        add64 d6, d4, d5
        li r7, 3
        .wait li
        zext64 d7, r7
        .wait add64
        .wait zext64
        mul64 d8, d6, d7               # 0x00000006_00000000
        .wait mul64
        hi r4, d8
        .wait hi
        call hexline
        .nop_delay
        ldw r31, r1, 0
        .wait ldw
        { addi r1, r1, 16 ; li r4, 0 }
        jmp r31
        .nop_delay
        .size main, .-main

# hexline(r4): print_hex(r4) and a newline.
        .type hexline, @function
hexline:
        addi r1, r1, -16
        .wait addi
        stw r31, r1, 0
        call print_hex
        .nop_delay
        li r4, empty
        call puts
        .nop_delay
        ldw r31, r1, 0
        .wait ldw
        addi r1, r1, 16
        jmp r31
        .nop_delay
        .size hexline, .-hexline
        .rodata
empty:  .asciz ""
