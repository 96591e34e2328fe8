//! Tiling of permutable bands (seed 002 "PLuTo 算法进行分块与进一步并行化",
//! 图8; PLDI'08 §5): every band of at least two loops is tiled in the
//! transformed space. For each band row `φ` a tile iterator `tt` (an extra
//! leading dimension of every statement, PLuTo's "supernode") is added with
//! `T·tt ≤ φ ≤ T·tt + T − 1`; the schedule becomes (tile rows, point
//! rows), partial tiles being cut by these constraints together with the
//! domain. A permutable band is tileable (all dependences it must respect
//! have non-negative components on every band row), so this is legal.
//!
//! The point loops are reordered inside the tile (any order of a
//! permutable band is legal): the innermost is the row on which every
//! dependence of the band has distance 0 (it carries nothing: parallel, for
//! the vectorizers and the pipeliner) and along which the most accesses are
//! stride-1 (the last subscript changes by ±1, the others not at all),
//! in that priority; ties keep the original order.
//!
//! The wavefront of the tile space (seed 002 图9–10): replacing the first
//! tile row by the sum of the band's tile rows leaves every dependence
//! carried by that row, so the other tile loops become parallel. It is
//! reported as a property of the result ([`TiledBand::wavefront_parallel`])
//! and applied only on request ([`TileOptions::wavefront`]).

use crate::ast::{ScheduledProgram, ScheduledStmt};
use crate::deps::{lift, Dep};
use crate::error::{Error, Result};
use crate::linalg::{inverse, rank};
use crate::poly::{Aff, Constraint, Polyhedron};
use crate::schedule::{Band, RowKind, Schedule};
use crate::scop::Scop;

/// Tiling options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileOptions {
    /// Tile sizes, one per tiled band row in order (bands of ≥ 2 loops,
    /// outermost first); rows past the end get [`TileOptions::default_size`].
    pub sizes: Vec<i64>,
    /// Size of rows without an entry in `sizes`.
    pub default_size: i64,
    /// Apply the tile-space wavefront.
    pub wavefront: bool,
    /// Choose the intra-tile order (innermost parallel and stride-1).
    pub intra_tile_order: bool,
}

impl Default for TileOptions {
    fn default() -> Self {
        TileOptions { sizes: Vec::new(), default_size: 32, wavefront: false, intra_tile_order: true }
    }
}

/// What happened to one band.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledBand {
    /// The band in the untiled schedule.
    pub band: Band,
    /// Tile size of each band row (original row order).
    pub sizes: Vec<i64>,
    /// First tile row in the tiled program; the point rows follow the
    /// `band.len` tile rows.
    pub first_row: usize,
    /// The band's rows (untiled row indices) in the chosen point-loop order.
    pub point_order: Vec<usize>,
    /// The innermost point loop carries no dependence.
    pub innermost_parallel: bool,
    /// Number of accesses stride-1 along the innermost point loop.
    pub innermost_stride1: usize,
    /// The wavefront was applied.
    pub wavefront: bool,
    /// With the wavefront, every tile loop but the first carries no
    /// dependence (always so for a permutable band of ≥ 2 loops; verified
    /// on the dependences when the wavefront is applied).
    pub wavefront_parallel: bool,
}

/// A tiled program and its report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiled {
    /// The program for code generation ([`crate::ast::generate`]).
    pub program: ScheduledProgram,
    /// One entry per tiled band.
    pub bands: Vec<TiledBand>,
}

/// Per row of a band: does every dependence active at the band's start
/// have distance 0 on it (it can be innermost without carrying anything)?
fn zero_distance_rows(scop: &Scop, deps: &[Dep], sch: &Schedule, band: &Band) -> Result<Vec<bool>> {
    let np = scop.n_params();
    let mut out = vec![true; band.len];
    for d in deps.iter().filter(|d| d.is_ordering()) {
        let (ds, dt) = (scop.stmts[d.src].depth(), scop.stmts[d.dst].depth());
        let nd = ds + dt;
        let diff = |r: usize| -> Result<Aff> { lift(&sch.rows[d.dst][r], dt, ds, nd, np)?.sub(&lift(&sch.rows[d.src][r], ds, 0, nd, np)?) };
        // Instances not ordered before the band.
        let mut p = d.poly.clone();
        for r in 0..band.start {
            p.add_eq(diff(r)?)?;
        }
        p.simplify()?;
        if p.is_trivially_empty() || p.surely_empty() {
            continue;
        }
        for (k, o) in out.iter_mut().enumerate() {
            if !*o {
                continue;
            }
            let e = diff(band.start + k)?;
            let mut q = p.clone();
            q.add_ineq(e.add(&Aff::cst(e.len(), -1))?)?;
            let mut q2 = p.clone();
            q2.add_ineq(e.scale(-1)?.add(&Aff::cst(e.len(), -1))?)?;
            if !q.surely_empty() || !q2.surely_empty() {
                *o = false;
            }
        }
    }
    Ok(out)
}

/// Per row of a band: how many accesses are stride-1 along it.
fn stride1_counts(scop: &Scop, sch: &Schedule, band: &Band) -> Result<Vec<usize>> {
    let mut out = vec![0usize; band.len];
    for (s, st) in scop.stmts.iter().enumerate() {
        let d = st.depth();
        if d == 0 {
            continue;
        }
        // Independent loop rows, greedily.
        let mut sel: Vec<usize> = Vec::new();
        let mut mat: Vec<Vec<i64>> = Vec::new();
        for r in (0..sch.n_rows()).filter(|&r| sch.kinds[r] == RowKind::Loop) {
            let mut m2 = mat.clone();
            m2.push(sch.rows[s][r].coeffs[..d].to_vec());
            if rank(&m2, d)? == m2.len() {
                mat = m2;
                sel.push(r);
            }
        }
        if sel.len() < d {
            continue;
        }
        let Some((adj, det)) = inverse(&mat)? else { continue };
        for (k, count) in out.iter_mut().enumerate() {
            let Some(col) = sel.iter().position(|&r| r == band.start + k) else { continue };
            // Direction of the loop in iterator space: adj[:, col] / det.
            let dir: Vec<i64> = adj.iter().map(|row| row[col]).collect();
            for a in &st.accesses {
                let Some((last, rest)) = a.subscripts.split_last() else { continue };
                let step = |e: &Aff| -> i128 { e.coeffs[..d].iter().zip(&dir).map(|(&c, &x)| c as i128 * x as i128).sum() };
                if step(last).abs() == det as i128 && rest.iter().all(|e| step(e) == 0) {
                    *count += 1;
                }
            }
        }
    }
    Ok(out)
}

/// Tiles every permutable band of ≥ 2 loops of `sch`.
pub fn tile(scop: &Scop, deps: &[Dep], sch: &Schedule, opts: &TileOptions) -> Result<Tiled> {
    scop.validate()?;
    sch.check(scop)?;
    let np = scop.n_params();
    let tiled: Vec<Band> = sch.bands.iter().copied().filter(|b| b.len >= 2).collect();
    let n_extra: usize = tiled.iter().map(|b| b.len).sum();
    let mut size_iter = opts.sizes.iter().copied();
    let mut report = Vec::new();
    // New row list: (kind, per-statement builder) as closures over the
    // extended space (extra dims, iterators, params).
    enum NewRow {
        Orig(usize),
        Tile(usize),
        WaveTile(Vec<usize>),
    }
    let mut new_rows: Vec<NewRow> = Vec::new();
    let mut tile_cons: Vec<(usize, usize, i64)> = Vec::new(); // (extra dim, row, size)
    let mut extra = 0;
    let mut r = 0;
    while r < sch.n_rows() {
        let Some(b) = tiled.iter().find(|b| b.start == r) else {
            new_rows.push(NewRow::Orig(r));
            r += 1;
            continue;
        };
        let mut sizes = Vec::new();
        for k in 0..b.len {
            let t = size_iter.next().unwrap_or(opts.default_size);
            if t < 1 {
                return Err(Error::Invalid(format!("tile size {t}")));
            }
            sizes.push(t);
            tile_cons.push((extra + k, b.start + k, t));
        }
        let first_row = new_rows.len();
        for k in 0..b.len {
            if k == 0 && opts.wavefront {
                new_rows.push(NewRow::WaveTile((0..b.len).map(|j| extra + j).collect()));
            } else {
                new_rows.push(NewRow::Tile(extra + k));
            }
        }
        let mut order: Vec<usize> = (b.start..b.start + b.len).collect();
        let (mut inner_par, mut inner_s1) = (false, 0);
        if opts.intra_tile_order {
            let zero = zero_distance_rows(scop, deps, sch, b)?;
            let s1 = stride1_counts(scop, sch, b)?;
            // Best innermost: (parallel, stride-1 count, later row).
            let best = (0..b.len).max_by_key(|&k| (zero[k], s1[k], k)).unwrap_or(b.len - 1);
            order.remove(best);
            order.push(b.start + best);
            inner_par = zero[best];
            inner_s1 = s1[best];
        }
        for &o in &order {
            new_rows.push(NewRow::Orig(o));
        }
        report.push(TiledBand { band: *b, sizes, first_row, point_order: order, innermost_parallel: inner_par, innermost_stride1: inner_s1, wavefront: opts.wavefront, wavefront_parallel: b.len >= 2 });
        extra += b.len;
        r += b.len;
    }
    // The statements in the extended space.
    let mut stmts = Vec::new();
    for (s, st) in scop.stmts.iter().enumerate() {
        let d = st.depth();
        let n = n_extra + d + np;
        let map: Vec<usize> = (0..d + np).map(|k| n_extra + k).collect();
        let orig = |r: usize| sch.rows[s][r].remap(n, &map);
        let dom0 = scop.domain_in_context(s)?;
        let mut domain = Polyhedron::universe(n_extra + d, np);
        for c in &dom0.cons {
            domain.add(Constraint { aff: c.aff.remap(n, &map)?, kind: c.kind })?;
        }
        for &(e, row, t) in &tile_cons {
            let phi = orig(row)?;
            let tt = Aff::var(n, e).scale(t)?;
            domain.add_ineq(phi.sub(&tt)?)?;
            domain.add_ineq(tt.add(&Aff::cst(n, t - 1))?.sub(&phi)?)?;
        }
        let rows = new_rows
            .iter()
            .map(|nr| match nr {
                NewRow::Orig(r) => orig(*r),
                NewRow::Tile(e) => Ok(Aff::var(n, *e)),
                NewRow::WaveTile(es) => {
                    let mut a = Aff::zero(n);
                    for &e in es {
                        a.coeffs[e] = 1;
                    }
                    Ok(a)
                }
            })
            .collect::<Result<Vec<_>>>()?;
        stmts.push(ScheduledStmt { stmt: s, n_extra, depth: d, domain, rows });
    }
    let kinds: Vec<RowKind> = new_rows.iter().map(|nr| if let NewRow::Orig(r) = nr { sch.kinds[*r] } else { RowKind::Loop }).collect();
    let mut program = ScheduledProgram { stmts, kinds, n_params: np, carries: Vec::new(), context: scop.context.clone() };
    program.carries = crate::verify::program_carries(scop, deps, &program)?;
    for tb in report.iter_mut().filter(|t| t.wavefront) {
        tb.wavefront_parallel = (1..tb.band.len).all(|k| !program.carries[tb.first_row + k]);
    }
    Ok(Tiled { program, bands: report })
}

#[cfg(test)]
#[path = "tile_tests.rs"]
mod tests;
