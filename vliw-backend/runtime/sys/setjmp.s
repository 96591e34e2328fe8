# setjmp.s: setjmp/longjmp (C11 7.13) for every shipped machine.
#
# jmp_buf (include/setjmp.h, 8-byte aligned, 144 bytes) holds what a call
# must preserve (ABI.md): the stack pointer, the link register and the
# callee-saved registers of abi callee_saved (no vector register is).
#
#   byte 0: r1 (sp)   byte 4: r31 (link)   bytes 8..75: r14..r30
#   bytes 80..143: d8..d15
#
# setjmp(env = r4) returns 0; longjmp(env = r4, val = r5) restores them and
# returns val from that setjmp, or 1 if val is 0. `.wait` lets every
# restored register land before control leaves (ABI.md, "Timing across
# boundaries"); `.nop_delay` fills the delay slots of each machine.

        .text

        .globl setjmp
        .type setjmp, @function
        .globl _setjmp
        .type _setjmp, @function
setjmp:
_setjmp:
        stw r1, r4, 0
        stw r31, r4, 4
        stw r14, r4, 8
        stw r15, r4, 12
        stw r16, r4, 16
        stw r17, r4, 20
        stw r18, r4, 24
        stw r19, r4, 28
        stw r20, r4, 32
        stw r21, r4, 36
        stw r22, r4, 40
        stw r23, r4, 44
        stw r24, r4, 48
        stw r25, r4, 52
        stw r26, r4, 56
        stw r27, r4, 60
        stw r28, r4, 64
        stw r29, r4, 68
        stw r30, r4, 72
        std d8, r4, 80
        std d9, r4, 88
        std d10, r4, 96
        std d11, r4, 104
        std d12, r4, 112
        std d13, r4, 120
        std d14, r4, 128
        std d15, r4, 136
        li r4, 0
        .wait li
        jmp r31
        .nop_delay
        .size setjmp, .-setjmp
        .size _setjmp, .-_setjmp

        .globl longjmp
        .type longjmp, @function
        .globl _longjmp
        .type _longjmp, @function
longjmp:
_longjmp:
        peqi p1, r5, 0
        .wait peqi
        (p1) li r5, 1                   # longjmp(env, 0) returns 1
        ldd d8, r4, 80
        ldd d9, r4, 88
        ldd d10, r4, 96
        ldd d11, r4, 104
        ldd d12, r4, 112
        ldd d13, r4, 120
        ldd d14, r4, 128
        ldd d15, r4, 136
        ldw r14, r4, 8
        ldw r15, r4, 12
        ldw r16, r4, 16
        ldw r17, r4, 20
        ldw r18, r4, 24
        ldw r19, r4, 28
        ldw r20, r4, 32
        ldw r21, r4, 36
        ldw r22, r4, 40
        ldw r23, r4, 44
        ldw r24, r4, 48
        ldw r25, r4, 52
        ldw r26, r4, 56
        ldw r27, r4, 60
        ldw r28, r4, 64
        ldw r29, r4, 68
        ldw r30, r4, 72
        ldw r31, r4, 4
        ldw r1, r4, 0
        .wait ldw
        mov r4, r5
        .wait mov
        jmp r31
        .nop_delay
        .size longjmp, .-longjmp
        .size _longjmp, .-_longjmp
