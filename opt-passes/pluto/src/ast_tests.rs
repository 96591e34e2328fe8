//! Tests of code generation: the original schedule and PLuTo's schedules
//! of the classic kernels scan exactly the original instances, in an
//! order that gives the original results.

use super::*;
use crate::deps::compute;
use crate::examples;
use crate::schedule::{schedule, Options};
use crate::testutil::assert_equivalent;

fn transformed(scop: &Scop) -> Ast {
    let deps = compute(scop, false).unwrap();
    let sch = schedule(scop, &deps, &Options::default()).unwrap();
    generate(&ScheduledProgram::new(scop, &sch).unwrap()).unwrap()
}

#[test]
fn original_schedule_reproduces_original_order() {
    for scop in [examples::lu(), examples::jacobi_1d()] {
        let deps = compute(&scop, false).unwrap();
        let sch = Schedule::original(&scop, &deps).unwrap();
        let ast = generate(&ScheduledProgram::new(&scop, &sch).unwrap()).unwrap();
        let params: Vec<i64> = vec![4; scop.n_params()];
        assert_eq!(ast.execute(&params, 100_000).unwrap(), scop.original_instances(&params, 100_000).unwrap());
    }
}

#[test]
fn matmul_loops_are_plain() {
    let scop = examples::matmul();
    let ast = transformed(&scop);
    // Three perfectly nested loops 0..N-1 and an unguarded statement.
    let Node::For { body, lower, upper, .. } = &ast.body[0] else { panic!("{ast:?}") };
    assert_eq!(lower.alternatives.len(), 1);
    assert_eq!(upper.alternatives.len(), 1);
    let Node::For { body, .. } = &body[0] else { panic!() };
    let Node::For { body, .. } = &body[0] else { panic!() };
    assert!(matches!(body[0], Node::Stmt { .. }), "{body:?}");
    assert_eq!(ast.parallel, vec![true, true, false]);
    assert_equivalent(&scop, &ast, &[3]);
}

#[test]
fn classic_kernels_keep_their_results() {
    for (scop, params) in [
        (examples::jacobi_1d(), vec![3, 7]),
        (examples::seidel_2d(), vec![2, 5]),
        (examples::lu(), vec![5]),
        (examples::matmul(), vec![4]),
    ] {
        let ast = transformed(&scop);
        assert_equivalent(&scop, &ast, &params);
    }
}

#[test]
fn non_unimodular_schedule_gets_stride_guards() {
    // A hand-made schedule (i + j, i - j + 10) for a 2-d statement without
    // dependences: det 2, iterators (c1 + c2 - 10)/2 and (c1 - c2 + 10)/2.
    let scop = crate::scop::ScopBuilder::new(&["N"])
        .context("N >= 1")
        .unwrap()
        .array("A", 2)
        .stmt("S", &["i", "j"], &["0 <= i <= N", "0 <= j <= N"], &[0, 0, 0], &["=A[i][j]"])
        .unwrap()
        .build()
        .unwrap();
    let rows = vec![vec![Aff::new(vec![1, 1, 0], 0), Aff::new(vec![1, -1, 0], 10)]];
    let sch = Schedule { rows, kinds: vec![RowKind::Loop; 2], bands: vec![], carries: vec![false; 2], bounding: vec![None; 2] };
    let ast = generate(&ScheduledProgram::new(&scop, &sch).unwrap()).unwrap();
    assert_equivalent(&scop, &ast, &[3]);
}

#[test]
fn empty_statement_runs_nowhere() {
    // S1's domain 1 <= i <= 0 is empty: no loop, no error.
    let scop = crate::scop::ScopBuilder::new(&["N"])
        .context("N >= 1")
        .unwrap()
        .array("A", 1)
        .stmt("S0", &["i"], &["0 <= i <= N"], &[0, 0], &["=A[i]"])
        .unwrap()
        .stmt("S1", &["i"], &["1 <= i <= 0"], &[1, 0], &["=A[i]"])
        .unwrap()
        .build()
        .unwrap();
    let ast = transformed(&scop);
    assert_equivalent(&scop, &ast, &[3]);
    assert!(ast.execute(&[3], 100).unwrap().iter().all(|i| i.stmt == 0));
}
