# bss_clear.s: crt0 clears exactly .bss, whatever was in it. The first run
# of main fills .bss (3000 bytes: whole vector blocks and a tail on every
# machine) and the word after it with -1, then starts the program again at
# _start; the second run checks that every word of .bss is 0 again and that
# the word after __bss_end is untouched. Exit status 0: correct; 1: a word
# of .bss not cleared; 2: the word after .bss was overwritten.
        .data
        .align 4
runs:   .word 0                         # .data is not cleared: survives the restart
        .bss
        .align 4
buf:    .zero 3000
        .text
        .globl main
        .type main, @function
main:
        li r7, runs
        ldw r8, r7, 0
        .wait ldw
        li r2, __bss_start
        li r3, __bss_end
        pnei p1, r8, 0
        (p1) br .Lcheck
        .nop_delay
        li r8, 1                        # first run: mark it, poison, restart
        stw r8, r7, 0
        li r9, -1
.Lpoison:
        pltu p1, r2, r3
        (!p1) br .Lpoisoned
        .nop_delay
        stw r9, r2, 0
        addi r2, r2, 4
        br .Lpoison
        .nop_delay
.Lpoisoned:
        stw r9, r3, 0                   # the word after .bss (the heap's first)
        br _start
        .nop_delay
.Lcheck:
        pltu p1, r2, r3
        (!p1) br .Lend
        .nop_delay
        ldw r10, r2, 0
        .wait ldw
        pnei p2, r10, 0
        (p2) br .Lfail
        .nop_delay
        addi r2, r2, 4
        br .Lcheck
        .nop_delay
.Lend:
        ldw r10, r3, 0
        .wait ldw
        li r4, 0
        peqi p2, r10, -1
        (!p2) li r4, 2
        jmp r31
        .nop_delay
.Lfail:
        li r4, 1
        jmp r31
        .nop_delay
        .size main, .-main
