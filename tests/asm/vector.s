# vector.s: the SIMD unit and scalar-vector cooperation: iota, broadcast,
# lane-wise add, reductions, extract, insert, shuffle, compares into masks,
# select, masked store, gather and a fused multiply-accumulate on f32.
# Results depend on the lane count, so each machine has its own expected output.
        .text
        .globl main
        .type main, @function
main:
        addi r1, r1, -16
        .wait addi
        stw r31, r1, 0
        mtor r16, m0
        .wait mtor
        popc r16, r16                  # r16 = lanes
        viota v1
        .wait viota
        vradd r4, v1                   # 0 + 1 + ... + (lanes-1)
        .wait vradd
        call line
        .nop_delay

        li r5, 7
        .wait li
        vbcast v2, r5
        .wait vbcast
        vadd v3, v1, v2
        li r6, 3
        .wait vadd
        vext r4, v3, r6                # lane 3 of iota + 7 = 10
        .wait vext
        call line
        .nop_delay

        addi r5, r16, -1
        .wait addi
        vbcast v4, r5
        .wait vbcast
        vsub v4, v4, v1                # reversed lane indices
        .wait vsub
        vshuf v5, v1, v4               # iota reversed
        .wait vshuf
        vext r4, v5, r0                # lane 0 = lanes - 1
        .wait vext
        call line
        .nop_delay

        li r5, 5
        .wait li
        vbcast v6, r5
        .wait vbcast
        vceq m1, v1, v6                # only lane 5
        .wait vceq
        mtor r4, m1                    # 1 << 5 = 32
        .wait mtor
        call line
        .nop_delay

        vsel v7, m1, v2, v1            # lane 5 becomes 7
        .wait vsel
        vradd r4, v7                   # sum(iota) + 2
        .wait vradd
        call line
        .nop_delay

        li r5, 99
        li r6, 2
        .wait li
        vins v1, r5, r6                # lane 2 of iota becomes 99
        .wait vins
        vrmax r4, v1
        .wait vrmax
        call line
        .nop_delay

        # masked store: only lane 5 of v2 (= 7) reaches memory
        li r8, buf
        .wait li
        vstm v2, r8, 0, m1
        ldw r4, r8, 20
        .wait ldw
        call line
        .nop_delay

        # gather: t[2*i] for each lane, t[k] = k*k; sum = 4 * sum(i^2)
        li r8, table
        li r9, 0
fill:
        mul r10, r9, r9
        shli r11, r9, 2
        .wait mul
        add r11, r11, r8
        .wait add
        stw r10, r11, 0
        addi r9, r9, 1
        .wait addi
        plti p1, r9, 64
        .wait plti
        (p1) br fill
        .nop_delay
        viota v1
        .wait viota
        vadd v8, v1, v1
        .wait vadd
        vgath v9, r8, v8
        .wait vgath
        vradd r4, v9
        .wait vradd
        call line
        .nop_delay

        # f32: 1.5 * 2.0 + 0.25 = 3.25 in every lane, summed over the lanes
        li r5, 0x3fc00000
        li r6, 0x40000000
        li r7, 0x3e800000
        .wait li
        vbcast v10, r5
        vbcast v11, r6
        .wait vbcast
        vbcast v12, r7
        .wait vbcast
        vfmac v13, v10, v11, v12
        .wait vfmac
        vrfadd r4, v13
        .wait vrfadd
        ftoi r4, r4                    # 3.25 * lanes, truncated
        .wait ftoi
        call line
        .nop_delay

        ldw r31, r1, 0
        .wait ldw
        { addi r1, r1, 16 ; li r4, 0 }
        jmp r31
        .nop_delay
        .size main, .-main

# line(r4): print_int(r4) then a newline; keeps r16.
        .type line, @function
line:
        addi r1, r1, -16
        .wait addi
        stw r31, r1, 0
        call print_int
        .nop_delay
        li r4, empty
        call puts
        .nop_delay
        ldw r31, r1, 0
        .wait ldw
        addi r1, r1, 16
        jmp r31
        .nop_delay
        .size line, .-line

        .rodata
empty:  .asciz ""
        .bss
        .align 128
buf:    .zero 128
table:  .zero 256
