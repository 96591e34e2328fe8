//! Tests of the scheduler on seed 002's reasoning and the classic PLuTo
//! kernels.

use super::*;
use crate::deps::compute;
use crate::examples;

/// Rows of statement `s` as (iterator coefficients, constant).
fn rows_of(sch: &Schedule, s: usize, depth: usize) -> Vec<(Vec<i64>, i64)> {
    sch.rows[s].iter().map(|a| (a.coeffs[..depth].to_vec(), a.constant)).collect()
}

fn run(scop: &Scop) -> Schedule {
    let deps = compute(scop, false).unwrap();
    schedule(scop, &deps, &Options::default()).unwrap()
}

#[test]
fn matmul_is_one_permutable_band_i_j_k() {
    let sch = run(&examples::matmul());
    assert_eq!(rows_of(&sch, 0, 3), vec![(vec![1, 0, 0], 0), (vec![0, 1, 0], 0), (vec![0, 0, 1], 0)]);
    assert_eq!(sch.bands, vec![Band { start: 0, len: 3 }]);
    // i and j carry nothing (u = w = 0: seed 002's "没有依赖" case); k carries the reduction.
    assert_eq!(sch.carries, vec![false, false, true]);
    assert_eq!(sch.bounding[0], Some((vec![0], 0)));
    assert_eq!(sch.bounding[1], Some((vec![0], 0)));
}

#[test]
fn jacobi_1d_skews_by_two() {
    // PLuTo's published schedule: S1 (t, 2t + i, 0), S2 (t, 2t + j + 1, 1).
    // Why the factor 2 and the shift 1: S1(t, i) reads a[i-1], which S2(t, i-1)
    // overwrites later in the same t (anti: needs c0(S2) >= c0(S1) + 1 with unit
    // i-coefficients), and S2(t, j) feeds S1(t+1, j+1) (flow: c_t - 1 + c0(S1) -
    // c0(S2) >= 0, so c_t >= 2). The anti dependence S1(t, j+1) -> S2(t, j) has
    // distance 0 on both loops, so a scalar third row orders the two statements.
    let sch = run(&examples::jacobi_1d());
    assert_eq!(rows_of(&sch, 0, 2), vec![(vec![1, 0], 0), (vec![2, 1], 0), (vec![0, 0], 0)]);
    assert_eq!(rows_of(&sch, 1, 2), vec![(vec![1, 0], 0), (vec![2, 1], 1), (vec![0, 0], 1)]);
    assert_eq!(sch.bands, vec![Band { start: 0, len: 2 }]);
    assert_eq!(sch.kinds, vec![RowKind::Loop, RowKind::Loop, RowKind::Scalar]);
    // Memory-based dependences span all of t: u = (2, 0) on the skewed row.
    assert_eq!(sch.bounding[1], Some((vec![2, 0], 0)));
    assert_eq!(sch.pretty(&examples::jacobi_1d()), "S1: (t, 2t + i, 0)\nS2: (t, 2t + j + 1, 1)\nbands: [0..2); parallel rows: none\n");
}

#[test]
fn seidel_2d_skews_to_t_t_plus_i_2t_plus_i_plus_j() {
    let sch = run(&examples::seidel_2d());
    assert_eq!(rows_of(&sch, 0, 3), vec![(vec![1, 0, 0], 0), (vec![1, 1, 0], 0), (vec![2, 1, 1], 0)]);
    assert_eq!(sch.bands, vec![Band { start: 0, len: 3 }]);
    assert_eq!(sch.carries, vec![true, true, true]);
}

#[test]
fn lu_schedule() {
    let sch = run(&examples::lu());
    // S1 (k, j, k), S2 (k, j, i): one 3-d permutable band (tileable); j
    // carries nothing once k is fixed. PLuTo's examples/lu/lu.sched.c runs
    // S2 in the same (k, j, i) order, interleaving S1 by 2k / 2k+1 where we
    // give S1 a third row k.
    assert_eq!(rows_of(&sch, 0, 2), vec![(vec![1, 0], 0), (vec![0, 1], 0), (vec![1, 0], 0)]);
    assert_eq!(rows_of(&sch, 1, 3), vec![(vec![1, 0, 0], 0), (vec![0, 0, 1], 0), (vec![0, 1, 0], 0)]);
    assert_eq!(sch.bands, vec![Band { start: 0, len: 3 }]);
    assert_eq!(sch.carries, vec![true, false, true]);
}

#[test]
fn seed_002_legality_and_bounding() {
    // Seed 002 图2: dependences (1, 0) and (0, 1) — any hyperplane between 0
    // and 90 degrees is legal; the lexmin takes the original i then j, each
    // with distance at most 1 (u = 0, w = 1), as one permutable band.
    let s = crate::scop::ScopBuilder::new(&["N"])
        .context("N >= 2")
        .unwrap()
        .array("A", 2)
        .stmt("S", &["i", "j"], &["1 <= i <= N", "1 <= j <= N"], &[0, 0, 0], &["=A[i][j]", "A[i-1][j]", "A[i][j-1]"])
        .unwrap()
        .build()
        .unwrap();
    let sch = run(&s);
    assert_eq!(rows_of(&sch, 0, 2), vec![(vec![1, 0], 0), (vec![0, 1], 0)]);
    assert_eq!(sch.bands, vec![Band { start: 0, len: 2 }]);
    assert_eq!(sch.bounding[0], Some((vec![0], 1)));
    assert_eq!(sch.bounding[1], Some((vec![0], 1)));
}

#[test]
fn seed_002_parallel_outer_loop_first() {
    // for i, j: A[i][j] = A[i][j-1]: j carries everything; the lexmin of
    // (u, w) puts the communication-free i outermost (u = w = 0), parallel.
    let s = crate::scop::ScopBuilder::new(&["N"])
        .context("N >= 2")
        .unwrap()
        .array("A", 2)
        .stmt("S", &["i", "j"], &["1 <= i <= N", "1 <= j <= N"], &[0, 0, 0], &["=A[j][i]", "A[j-1][i]"])
        .unwrap()
        .build()
        .unwrap();
    let sch = run(&s);
    // Written A[j][i], read A[j-1][i]: the dependence is carried by j (the
    // inner loop) — i is outer and parallel.
    assert_eq!(rows_of(&sch, 0, 2)[0], (vec![1, 0], 0));
    assert!(sch.is_parallel(0));
    assert!(!sch.is_parallel(1));
}

#[test]
fn distribution_when_fusion_is_illegal() {
    // S1: B[i] = A[i]; S2: C[i] = B[N - i]: reading B backwards needs S1
    // complete: no legal fused hyperplane with non-negative coefficients;
    // a scalar dimension cuts between the two SCCs.
    let s = crate::scop::ScopBuilder::new(&["N"])
        .context("N >= 1")
        .unwrap()
        .array("A", 1)
        .array("B", 1)
        .array("C", 1)
        .stmt("S1", &["i"], &["0 <= i <= N"], &[0, 0], &["=B[i]", "A[i]"])
        .unwrap()
        .stmt("S2", &["i"], &["0 <= i <= N"], &[1, 0], &["=C[i]", "B[N-i]"])
        .unwrap()
        .build()
        .unwrap();
    let sch = run(&s);
    assert_eq!(sch.kinds[0], RowKind::Scalar);
    assert_eq!(sch.rows[0][0].constant, 0);
    assert_eq!(sch.rows[1][0].constant, 1);
}

#[test]
fn jacobi_2d_skews_both_space_loops() {
    // PLuTo's published schedule: S1 (t, 2t + i, 2t + j), S2 (t, 2t + i + 1,
    // 2t + j + 1) — jacobi-1d's skew in both space dimensions; here the
    // shifts already order the two statements, so no scalar row is needed.
    let sch = run(&examples::jacobi_2d());
    assert_eq!(rows_of(&sch, 0, 3), vec![(vec![1, 0, 0], 0), (vec![2, 1, 0], 0), (vec![2, 0, 1], 0)]);
    assert_eq!(rows_of(&sch, 1, 3), vec![(vec![1, 0, 0], 0), (vec![2, 1, 0], 1), (vec![2, 0, 1], 1)]);
    assert_eq!(sch.kinds, vec![RowKind::Loop; 3]);
    assert_eq!(sch.bands, vec![Band { start: 0, len: 3 }]);
}

#[test]
fn two_mm_fuses_and_distributes() {
    // 2mm: tmp = A·B; D = tmp·C, each product with its initialization.
    // Everything is fused under (i, ·): the second product is skewed to
    // (i, j + k) so that tmp[i][k] is complete when D's row reads it (the
    // distance of S1(i, k, ·) → S3(i, j, k) is j ≥ 0), a scalar row orders
    // the four statements inside, and k is the last loop. Not compared with
    // PLuTo's output (its fusion heuristics differ from our plain cuts).
    let scop = crate::scop::ScopBuilder::new(&["N"])
        .context("N >= 1")
        .unwrap()
        .array("A", 2)
        .array("B", 2)
        .array("C", 2)
        .array("D", 2)
        .array("tmp", 2)
        .stmt("S0", &["i", "j"], &["0 <= i <= N - 1", "0 <= j <= N - 1"], &[0, 0, 0], &["=tmp[i][j]"])
        .unwrap()
        .stmt("S1", &["i", "j", "k"], &["0 <= i <= N - 1", "0 <= j <= N - 1", "0 <= k <= N - 1"], &[0, 0, 1, 0], &["=tmp[i][j]", "tmp[i][j]", "A[i][k]", "B[k][j]"])
        .unwrap()
        .stmt("S2", &["i", "j"], &["0 <= i <= N - 1", "0 <= j <= N - 1"], &[1, 0, 0], &["=D[i][j]"])
        .unwrap()
        .stmt("S3", &["i", "j", "k"], &["0 <= i <= N - 1", "0 <= j <= N - 1", "0 <= k <= N - 1"], &[1, 0, 1, 0], &["=D[i][j]", "D[i][j]", "tmp[i][k]", "C[k][j]"])
        .unwrap()
        .build()
        .unwrap();
    let sch = run(&scop);
    assert_eq!(sch.kinds, vec![RowKind::Loop, RowKind::Loop, RowKind::Scalar, RowKind::Loop]);
    assert_eq!(rows_of(&sch, 3, 3)[1], (vec![0, 1, 1], 0));
    assert_eq!(sch.bands, vec![Band { start: 0, len: 2 }, Band { start: 3, len: 1 }]);
    let ast = crate::ast::generate(&crate::ast::ScheduledProgram::new(&scop, &sch).unwrap()).unwrap();
    crate::testutil::assert_equivalent(&scop, &ast, &[3]);
}
