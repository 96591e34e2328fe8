# cstart.s: program startup for C programs, on every shipped machine.
# Assembled into target/runtime/<machine>/crt0.o by scripts/build-runtime
# (runtime/crt0.s stays the start-up file of hand-written assembly programs,
# which have no C library).
#
# _start sets the stack pointer (abi sp = r1) to __stack_top, clears .bss
# from __bss_start to __bss_end with vector stores (the same loop as
# runtime/crt0.s, which explains it: blocks of 16 vectors, two stores per
# bundle, then single vectors; __dsp_vector_bytes comes from the machine
# description and the linker aligns both ends to a multiple of it), asks the
# simulator for the argument block (trap 4: it writes argc, argv, envp, the
# pointer arrays and the strings just below __stack_top and returns the
# block's address, a multiple of the stack alignment, which becomes the stack
# pointer), sets environ, calls main(argc, argv, envp) (abi args r4, r5,
# r6), then calls exit with main's result (abi rets[0] = r4 =
# abi args[0]), which runs the atexit handlers, flushes stdout and ends the
# run through __dsp_exit. Nothing is copied: the simulator loads .data from
# the executable.
#
# Every branch and call is followed by .nop_delay, so this file is correct
# whatever the number of delay slots.

        .equ VB, __dsp_vector_bytes     # bytes of one vector store
        .equ BLOCK, 16 * VB             # bytes cleared by one main-loop iteration

        .text
        .globl _start
        .type _start, @function
_start:
        { li r1, __stack_top ; li r2, __bss_start }     # stack pointer; r2: next vector to clear
        { li r3, __bss_end ; li r4, __bss_start + BLOCK ; vbcast v0, r0 }   # r3: end; r4: end of r2's block; v0 = 0
        { pleu p1, r4, r3 ; pltu p2, r2, r3 }           # p1: a whole block to clear? p2: any vector?
        { li r6, __bss_end - VB ; (!p2) br .Lcleared }  # r6: the last vector's address
        .nop_delay
        (!p1) br .Ltail
        .nop_delay
.Lblock:
        { vst v0, r2, 0 ; vst v0, r2, VB ; pltu p2, r4, r3 ; addi r4, r4, BLOCK }   # p2: a vector after this block?
        { vst v0, r2, 2 * VB ; vst v0, r2, 3 * VB ; pleu p1, r4, r3 }   # p1: a whole block after this one?
        { vst v0, r2, 4 * VB ; vst v0, r2, 5 * VB }
        { vst v0, r2, 6 * VB ; vst v0, r2, 7 * VB }
        { vst v0, r2, 8 * VB ; vst v0, r2, 9 * VB }
        { vst v0, r2, 10 * VB ; vst v0, r2, 11 * VB }
        { vst v0, r2, 12 * VB ; vst v0, r2, 13 * VB }
        { vst v0, r2, 14 * VB ; vst v0, r2, 15 * VB ; addi r2, r2, BLOCK ; (p1) br .Lblock }
        .nop_delay
        (!p2) br .Lcleared
        .nop_delay
.Ltail:
        { vst v0, r2, 0 ; pltu p1, r2, r6 ; addi r2, r2, VB }   # p1: another vector after this one?
        (p1) br .Ltail
        .nop_delay
.Lcleared:
        li r4, __stack_top
        trap 4                          # r4 = the argument block: argc, argv, envp
        .wait trap
        mov r2, r4
        mov r1, r4                      # the stack starts below the block
        ldw r4, r2, 0                   # argc
        ldw r5, r2, 4                   # argv
        ldw r6, r2, 8                   # envp
        li r3, environ
        .wait ldw
        stw r6, r3, 0                   # environ = envp
        call main
        .nop_delay
        call exit                       # exit(main's result, already in r4)
        .nop_delay
        trap 0                          # exit does not return
.Lhang:
        br .Lhang
        .nop_delay
        .size _start, .-_start
