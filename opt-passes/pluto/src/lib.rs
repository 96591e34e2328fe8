//! `dsp-pluto`: the polyhedral core of PLuTo (issue 12 item 2, seed 002),
//! independent of LLVM. Its input is a polyhedral program model ([`scop`]),
//! its output a transformed schedule ([`schedule`]), optionally tiled
//! ([`tile`]), and a loop AST ([`ast`]) with an interpreter.
//!
//! Pipeline: [`scop::Scop`] → [`deps::compute`] → [`schedule::schedule`] →
//! [`tile::tile`] (optional) → [`verify`] → [`ast::generate`] →
//! [`ast::Ast`];
//! [`transform`] runs all of it.
//!
//! Schedules reached on the classic kernels ([`examples`], tested in
//! `schedule_tests.rs`), against the ones PLuTo publishes (its papers and
//! the generated `examples/*/*.sched.c` of its repository, which scale the
//! time dimension by 2 to interleave statements where we add a scalar
//! row): matmul — one permutable band (i, j, k), i and j parallel;
//! jacobi-1d — S1 (t, 2t+i, 0), S2 (t, 2t+j+1, 1) (PLuTo: (2t, 2t+i),
//! (2t+1, 2t+j+1)); jacobi-2d — S1 (t, 2t+i, 2t+j), S2 (t, 2t+i+1,
//! 2t+j+1); seidel-2d — (t, t+i, 2t+i+j); lu — S1 (k, j, k), S2 (k, j, i),
//! one band of three loops (PLuTo's lu.sched.c: the same (k, j, i) order,
//! statements interleaved by 2k / 2k+1). PLuTo itself was not run here.
//!
//! Building a [`scop::Scop`] from IR: one [`scop::Statement`] per
//! statement, its `domain` a [`poly::Polyhedron`] with one dimension per
//! enclosing loop (outermost first) and one parameter per loop-invariant
//! symbol, its `schedule` the 2d+1 rows `(β0, i1, β1, …, id, βd)` (β the
//! position among the siblings of each loop level), one [`scop::Access`] per
//! load/store with one affine subscript per array dimension (row-major,
//! last subscript contiguous; a flat pointer access is a 1-d array). Every
//! [`poly::Aff`] is over (the statement's iterators, the parameters).
//! Whatever goes wrong is an [`Error`]; on [`Error::NoSchedule`] a caller
//! keeps the original code.
//!
//! ```
//! use dsp_pluto::poly::{Aff, Polyhedron};
//! use dsp_pluto::scop::{Access, AccessKind, Array, Scop, Statement};
//! // for (i = 1; i <= N; i++) A[i] = A[i - 1];   (variables: i, then N)
//! let mut context = Polyhedron::universe(0, 1);
//! context.add_ineq(Aff::new(vec![1], -1)).unwrap(); // N - 1 >= 0
//! let mut domain = Polyhedron::universe(1, 1);
//! domain.add_ineq(Aff::new(vec![1, 0], -1)).unwrap(); // i - 1 >= 0
//! domain.add_ineq(Aff::new(vec![-1, 1], 0)).unwrap(); // N - i >= 0
//! let stmt = Statement {
//!     name: "S".into(),
//!     iters: vec!["i".into()],
//!     domain,
//!     schedule: vec![Aff::cst(2, 0), Aff::var(2, 0), Aff::cst(2, 0)], // (0, i, 0)
//!     accesses: vec![
//!         Access { kind: AccessKind::Write, array: 0, subscripts: vec![Aff::var(2, 0)] },
//!         Access { kind: AccessKind::Read, array: 0, subscripts: vec![Aff::new(vec![1, 0], -1)] },
//!     ],
//! };
//! let scop = Scop { params: vec!["N".into()], context, arrays: vec![Array { name: "A".into(), dims: 1 }], stmts: vec![stmt] };
//! let t = dsp_pluto::transform(&scop, &Default::default(), None).unwrap();
//! assert_eq!(t.ast.pretty(&scop.params), "for (t0 = 1; t0 <= N; t0++)\n  S0(t0);\n");
//! assert_eq!(t.ast.execute(&[3], 100).unwrap().len(), 3);
//! ```

pub mod ast;
pub mod deps;
pub mod error;
pub mod examples;
pub mod farkas;
pub mod ilp;
pub mod linalg;
pub mod poly;
mod quick;
pub mod schedule;
pub mod scop;
pub mod tile;
pub mod verify;
#[cfg(test)]
mod legality_tests;
#[cfg(test)]
mod testutil;

pub use error::{Error, Result};

/// Everything [`transform`] computed.
#[derive(Clone, Debug)]
pub struct Transformed {
    /// The dependence polyhedra.
    pub deps: Vec<deps::Dep>,
    /// PLuTo's schedule (untiled).
    pub schedule: schedule::Schedule,
    /// The tiled program, when tiling was asked for.
    pub tiled: Option<tile::Tiled>,
    /// The loop AST of the tiled program, or of the schedule.
    pub ast: ast::Ast,
}

/// Dependences, PLuTo's schedule, tiling (when `tiling` is given), the
/// exact legality check of the result ([`verify::verify`],
/// [`verify::verify_tiling`]) and the loop AST of a SCoP.
pub fn transform(scop: &scop::Scop, opts: &schedule::Options, tiling: Option<&tile::TileOptions>) -> Result<Transformed> {
    let deps = deps::compute(scop, false)?;
    let schedule = schedule::schedule(scop, &deps, opts)?;
    let (tiled, program) = match tiling {
        Some(t) => {
            let tiled = tile::tile(scop, &deps, &schedule, t)?;
            verify::verify_tiling(scop, &deps, &schedule, &tiled)?;
            let p = tiled.program.clone();
            (Some(tiled), p)
        }
        None => {
            let p = ast::ScheduledProgram::new(scop, &schedule)?;
            verify::verify(scop, &deps, &p)?;
            (None, p)
        }
    };
    let ast = ast::generate(&program)?;
    Ok(Transformed { deps, schedule, tiled, ast })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_runs_the_pipeline() {
        let scop = examples::seidel_2d();
        let t = transform(&scop, &schedule::Options::default(), Some(&tile::TileOptions { default_size: 2, ..Default::default() })).unwrap();
        assert_eq!(t.schedule.bands.len(), 1);
        assert_eq!(t.ast.n_loops, 6);
        testutil::assert_equivalent(&scop, &t.ast, &[2, 5]);
    }

    #[test]
    fn invalid_models_are_errors() {
        let mut scop = examples::matmul();
        scop.stmts[0].accesses[0].subscripts.pop();
        assert!(matches!(transform(&scop, &schedule::Options::default(), None), Err(Error::Invalid(_))));
        let mut scop = examples::matmul();
        scop.stmts[0].domain.n_params = 0;
        assert!(matches!(transform(&scop, &schedule::Options::default(), None), Err(Error::Invalid(_))));
        // Unbounded loop: no upper bound on k.
        let scop = scop::ScopBuilder::new(&["N"])
            .array("A", 1)
            .stmt("S", &["k"], &["k >= 0"], &[0, 0], &["=A[k]"])
            .and_then(|b| b.build())
            .unwrap();
        assert!(transform(&scop, &schedule::Options::default(), None).is_err());
    }
}
