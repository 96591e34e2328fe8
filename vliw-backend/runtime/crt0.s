# crt0.s: program startup for every shipped machine (ftm, ftm8, ftm32).
#
# _start sets the stack pointer (abi sp = r1) to __stack_top, clears .bss
# from __bss_start to __bss_end with vector stores, calls main(0, 0) (abi
# args r4, r5), then exits with main's result: trap 0 = exit(status) takes
# the status in abi args[0] = r4, which is also where main returns it (abi
# rets[0] = r4). Nothing is copied: the simulator loads .data (and .rodata)
# from the executable.
#
# Clearing .bss: __dsp_vector_bytes (VB), predefined by dsp-as from the
# machine description, is the size of one full-width vector store, and the
# linker aligns __bss_start and __bss_end to a multiple of it (dsp-ld's
# bss_align: at least 64 bytes, 128 on ftm32), so .bss is whole aligned
# vectors. The main loop clears blocks of 16 vectors in 8 bundles of two
# vector stores (two vector load/store units on every shipped machine),
# then one branch delay's worth of nops; a short loop clears the remaining
# (fewer than 16) vectors one at a time.
#
# Every branch and call is followed by .nop_delay, which emits one nop bundle
# per branch delay slot of the machine being assembled for, so this file is
# correct whatever the number of delay slots.

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
        li r4, 0                        # argc
        li r5, 0                        # argv
        call main
        .nop_delay
        trap 0                          # exit(main's result, already in r4)
.Lhang:
        br .Lhang                       # exit does not return
        .nop_delay
        .size _start, .-_start
