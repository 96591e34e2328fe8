# dotprod.s: the integer dot product of two 256-element vectors, first with
# the scalar unit, then with the SIMD unit, printing each result and the
# cycles it took (from the simulator's cycle counter).
#
# It runs unchanged on every shipped machine: the lane count is read at run
# time from the all-lanes mask m0, `.wait MNEMONIC` waits out that
# instruction's latency as the machine's .isa states it, and `.nop_delay`
# fills the branch delay slots. The code is deliberately unscheduled: it is
# the kind of code the compiler's scheduler and pipeliner will improve on.
# print_int comes from libprint.a (vliw-backend/runtime/libprint).

        .equ N, 256

        .text
        .globl main
        .type main, @function
main:
        addi r1, r1, -16
        .wait addi
        stw r31, r1, 12

        # a[i] = i + 1, b[i] = 3*i - 100
        { li r5, a ; li r6, b }
        li r7, 0
fill:
        { addi r8, r7, 1 ; muli r9, r7, 3 }
        .wait muli
        { addi r9, r9, -100 ; stw r8, r5, 0 }
        .wait addi
        { stw r9, r6, 0 ; addi r5, r5, 4 ; addi r6, r6, 4 }
        addi r7, r7, 1
        .wait addi
        plti p1, r7, N
        .wait plti
        (p1) br fill
        .nop_delay

        # ---- scalar: one multiply-add per element
        trap 2
        .wait trap
        mov r20, r4
        { li r5, a ; li r6, b }
        { li r7, 0 ; li r16, 0 }
sdot:
        ldw r8, r5, 0
        ldw r9, r6, 0
        .wait ldw
        mul r10, r8, r9
        .wait mul
        { add r16, r16, r10 ; addi r7, r7, 1 }
        { addi r5, r5, 4 ; addi r6, r6, 4 }
        plti p1, r7, N
        .wait plti
        (p1) br sdot
        .nop_delay
        trap 2
        .wait trap
        sub r17, r4, r20

        # ---- SIMD: lanes elements per iteration, then one reduction
        mtor r12, m0
        .wait mtor
        popc r12, r12                   # lanes
        .wait popc
        shli r13, r12, 2                # bytes per vector
        trap 2
        .wait trap
        mov r20, r4
        { li r5, a ; li r6, b }
        { li r7, 0 ; vsub v0, v0, v0 }
vdot:
        { vld v1, r5, 0 ; vld v2, r6, 0 }
        .wait vld
        vmla v0, v1, v2, v0
        { add r5, r5, r13 ; add r6, r6, r13 }
        add r7, r7, r12
        .wait add
        plti p1, r7, N
        .wait plti
        (p1) br vdot
        .nop_delay
        .wait vmla
        vradd r18, v0
        .wait vradd
        trap 2
        .wait trap
        sub r19, r4, r20

        # ---- report
        { li r4, 1 ; li r5, s_scalar }
        li r6, s_scalar_len
        trap 1
        mov r4, r16
        call print_int
        .nop_delay
        { li r4, 1 ; li r5, s_cycles }
        li r6, s_cycles_len
        trap 1
        mov r4, r17
        call print_int
        .nop_delay
        { li r4, 1 ; li r5, s_vector }
        li r6, s_vector_len
        trap 1
        mov r4, r18
        call print_int
        .nop_delay
        { li r4, 1 ; li r5, s_cycles }
        li r6, s_cycles_len
        trap 1
        mov r4, r19
        call print_int
        .nop_delay
        { li r4, 1 ; li r5, s_lanes }
        li r6, s_lanes_len
        trap 1
        mov r4, r12
        call print_int
        .nop_delay
        { li r4, 1 ; li r5, s_nl }
        li r6, 1
        trap 1

        # exit status: 0 when both results agree
        ldw r31, r1, 12
        { sne r4, r16, r18 ; addi r1, r1, 16 }
        .wait ldw
        jmp r31
        .nop_delay
        .size main, .-main

        .rodata
s_scalar:  .ascii "scalar dot = "
        .equ s_scalar_len, .-s_scalar
s_vector:  .ascii "\nvector dot = "
        .equ s_vector_len, .-s_vector
s_cycles:  .ascii " cycles="
        .equ s_cycles_len, .-s_cycles
s_lanes:   .ascii " lanes="
        .equ s_lanes_len, .-s_lanes
s_nl:      .ascii "\n"

        .bss
        .align 128
a:      .zero 1024
b:      .zero 1024
