/* Reproducer for issue 9 item 5: loops with several float divides on the
 * non-pipelined divider (ftm: `sdiv`, fdiv busy 8, its slot s2 shared with
 * the FPU).
 *
 *   target/release/dspcc -O2 -c -Rpass=sms -Rpass-missed=sms -Rpass-analysis=sms \
 *       vliw-backend/modsched/tests/c/fdiv_loops.c
 *
 * - three_divides: three divides and two adds per element, scalar (restrict
 *   pointers): ResMII = 3 x 8 = 24 (sdiv), scheduled at II = 24.
 * - divides_may_alias: one divide per element without restrict: clang
 *   vectorizes it 16 wide behind a run-time overlap check, the divider takes
 *   16 scalar divides per vector iteration (ResMII = 128), and each
 *   iteration's stores may feed the next iteration's loads: every divide of
 *   an iteration must issue within II - 19 cycles of the others (load 6,
 *   extract 2, divide 10, store 1), so no II below 140 exists. Before the
 *   fix SMS tried II = 128..144 (seconds of work) and gave up; now the IIs
 *   the recurrence rules out are skipped and the loop is pipelined at
 *   II = 140.
 */
void three_divides(float *restrict y, const float *restrict a, const float *restrict b, const float *restrict c,
                   const float *restrict d, const float *restrict e, const float *restrict f, int n) {
    for (int i = 0; i < n; i++)
        y[i] = a[i] / b[i] + c[i] / d[i] + e[i] / f[i];
}

void divides_may_alias(float *z, const float *x, const float *y, int n) {
    for (int i = 0; i < n; i++)
        z[i] = x[i] / y[i] + 1.0f;
}
