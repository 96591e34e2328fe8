//! Tile sizes from seed 004's tile-size selection model (its Algorithm 1;
//! the data-reuse example of its Fig. 4): per row of a tiled band the
//! data-reuse ratio `R` — how many accesses touch the same element all
//! along the row (for matrix multiplication in the order (i, k, j):
//! `B[k][j]` along i, `C[i][j]` read and written along k, `A[i][k]` along
//! j, so `Ri:Rk:Rj = 1:2:1` as in the seed) — and tile sizes inversely
//! proportional to it, `T_r = s / R_r`, with the largest scale `s` whose
//! tile footprint fits the memory limit: half the L1D (the other half for
//! the lines of conflicting sets and the rest of the program) from the
//! `.isa`'s `cache` description. Sizes of at least one vector are rounded
//! down to whole vectors (`lanes`). The row that will be the innermost
//! point loop (parallel and stride-1 after the core's intra-tile order) is
//! left whole: on this machine a long vectorizable loop matters more than
//! its reuse (measured on gemm: 48x48x16 tiles 0.2× of -O3, 16×whole×16
//! 1.08×).
//!
//! Then the seed's feedback (Algorithm 1, lines ④–⑧): the tiles' cost is
//! read back ([`tilecost`]: the machine model's misses, loop entries and
//! vector iterations), one row's reuse ratio is halved or doubled where
//! that lowers the cost most, the tiles are fitted to the limit again, and
//! so on until no adjustment lowers the cost by 0.5% (converged) or after
//! [`MAX_ROUNDS`]. The remark gives the rounds, the cost before and after
//! and the final ratio. Without the machine, or when a row's extent is not
//! a constant, the first estimate is final.

use super::tilecost::{self, MachineFacts};
use dsp_pluto::linalg::{inverse, rank};
use dsp_pluto::schedule::{RowKind, Schedule};
use dsp_pluto::scop::Scop;

/// The largest scale tried.
const MAX_SCALE: i64 = 4096;

/// The size of a row left whole (one tile spans any loop of a program).
pub const UNTILED: i64 = 1 << 24;

/// A statement's loop rows inverted: `adj` (its columns are the rows'
/// directions in iterator space, times `det`), the rows chosen, `det`.
type Inverse = (Vec<Vec<i64>>, Vec<usize>, i64);

/// Per statement: [`Inverse`] (None when the rows are not of full rank).
fn directions(scop: &Scop, sch: &Schedule) -> Vec<Option<Inverse>> {
    let mut out = Vec::new();
    for (s, st) in scop.stmts.iter().enumerate() {
        let d = st.depth();
        let mut sel: Vec<usize> = Vec::new();
        let mut mat: Vec<Vec<i64>> = Vec::new();
        for r in (0..sch.n_rows()).filter(|&r| sch.kinds[r] == RowKind::Loop) {
            let mut m2 = mat.clone();
            m2.push(sch.rows[s][r].coeffs[..d].to_vec());
            if rank(&m2, d).ok() == Some(m2.len()) {
                mat = m2;
                sel.push(r);
            }
        }
        let inv = if d > 0 && sel.len() == d { inverse(&mat).ok().flatten() } else { None };
        out.push(inv.map(|(adj, det)| (adj, sel, det)));
    }
    out
}

/// What [`choose`] needs to know of one band beyond the schedule: the
/// row that will be the innermost point loop and its extent (that row is
/// left whole, [`UNTILED`]: a long stride-1 loop is what the vectorizers
/// and the software pipeliner need on this machine, more than its reuse),
/// the extent of every band row when known, and the point loops' order
/// (untiled row indices, innermost last) — the last two for the cost.
#[derive(Clone, Debug, Default)]
pub struct BandInfo {
    pub inner: Option<(usize, i64)>,
    pub extents: Vec<Option<i64>>,
    pub point_order: Vec<usize>,
}

/// What [`choose`] sizes tiles for.
pub struct Request<'a> {
    /// Bytes per element of each array.
    pub elem: &'a [u64],
    /// Bytes one tile may use.
    pub budget: u64,
    pub lanes: i64,
    /// Per tiled band (bands of two loops or more, outermost first).
    pub bands: &'a [BandInfo],
    /// The machine, for seed 004's cost feedback ([`tilecost`]); without
    /// it the reuse model's first estimate is final.
    pub machine: Option<&'a MachineFacts>,
    /// Bytes of all the SCoP's arrays, when known.
    pub data: Option<u64>,
}

/// Rounds of cost feedback at most (Algorithm 1's loop; it converges in
/// two to four on the PolyBench kernels).
const MAX_ROUNDS: usize = 16;

/// The sizes of every tiled band row in order (bands of two loops or
/// more, outermost first: what `TileOptions::sizes` takes), and a line for
/// the remark (ratios, sizes, the cost feedback's rounds).
pub fn choose(scop: &Scop, sch: &Schedule, req: &Request) -> (Vec<i64>, String) {
    let dirs = directions(scop, sch);
    let mut sizes = Vec::new();
    let mut notes = Vec::new();
    for (bi, band) in sch.bands.iter().filter(|b| b.len >= 2).enumerate() {
        let info = req.bands.get(bi).cloned().unwrap_or_default();
        let whole = info.inner.filter(|(r, e)| *r >= band.start && *r < band.start + band.len && *e >= 1).map(|(r, e)| (r - band.start, e));
        // Per band row: the direction of every statement (column of adj).
        let col = |s: usize, r: usize| -> Option<(Vec<i64>, i64)> {
            let (adj, sel, det) = dirs[s].as_ref()?;
            let c = sel.iter().position(|&x| x == r)?;
            Some((adj.iter().map(|row| row[c]).collect(), *det))
        };
        let rows: Vec<usize> = (band.start..band.start + band.len).collect();
        let model = tilecost::Band {
            scop,
            dirs: rows.iter().map(|&r| (0..scop.stmts.len()).map(|s| col(s, r)).collect()).collect(),
            extents: rows
                .iter()
                .enumerate()
                .map(|(k, &r)| {
                    if whole.is_some_and(|(w, _)| w == k) {
                        whole.map_or(1, |w| w.1)
                    } else {
                        info.extents.get(r - band.start).copied().flatten().unwrap_or(0)
                    }
                })
                .collect(),
            point_order: info.point_order.iter().filter(|&&r| r >= band.start && r < band.start + band.len).map(|&r| r - band.start).collect(),
            elem: req.elem.to_vec(),
            data: req.data,
        };
        let mut reuse = vec![0i64; rows.len()];
        for (k, d) in model.dirs.iter().enumerate() {
            for (s, st) in scop.stmts.iter().enumerate() {
                let Some((dir, _)) = &d[s] else { continue };
                reuse[k] += st.accesses.iter().filter(|a| a.subscripts.iter().all(|e| tilecost::step(e, dir) == 0)).count() as i64;
            }
        }
        let reuse: Vec<f64> = reuse.into_iter().map(|x| x.max(1) as f64).collect();
        let fit = |ratio: &[f64]| fit(&model, ratio, whole, req.budget, req.lanes);
        let (mut best, mut bytes) = fit(&reuse);
        let ratio: Vec<String> = reuse.iter().map(|x| x.to_string()).collect();
        let mut note = format!("band [{}..{}): reuse {}", band.start, band.start + band.len, ratio.join(":"));
        // Seed 004's Algorithm 1: the reuse ratio adjusted by the cost of the tiles, until it converges.
        let known = model.extents.iter().all(|&e| e >= 1) && model.point_order.len() == rows.len();
        match req.machine {
            Some(m) if known => {
                let first = model.cost(&best, m);
                let (mut now, mut ratio, mut rounds) = (first, reuse.clone(), 0);
                while rounds < MAX_ROUNDS {
                    let mut step: Option<(tilecost::Cost, Vec<f64>, Vec<i64>, u128)> = None;
                    for k in (0..rows.len()).filter(|&k| whole.is_none_or(|(w, _)| w != k)) {
                        for f in [0.5, 2.0] {
                            let mut r2 = ratio.clone();
                            r2[k] *= f;
                            let (t, b) = fit(&r2);
                            // A ratio so skewed that even the smallest scale overflows the limit is out.
                            if t == best || b > req.budget as u128 {
                                continue;
                            }
                            let c = model.cost(&t, m);
                            if step.as_ref().is_none_or(|(sc, ..)| c.total < sc.total) {
                                step = Some((c, r2, t, b));
                            }
                        }
                    }
                    // Converged: no adjustment lowers the cost by 0.5% or more.
                    match step {
                        Some((c, r2, t, b)) if (c.total as u128) * 1000 <= (now.total as u128) * 995 => {
                            (now, ratio, best, bytes) = (c, r2, t, b);
                            rounds += 1;
                        }
                        _ => break,
                    }
                }
                let r: Vec<String> = ratio.iter().map(|x| format!("{x}")).collect();
                note.push_str(&format!(
                    ", cost feedback: {rounds} round(s), modelled cost {} -> {} cycles (misses {}, loop entries {}, vector iterations {}), reuse {}",
                    first.total,
                    now.total,
                    now.misses,
                    now.entries,
                    now.vector_iters,
                    r.join(":")
                ));
            }
            Some(_) => note.push_str(", no cost feedback (a row's extent is not a constant): the first estimate is final"),
            None => {}
        }
        if let Some((k, _)) = whole {
            best[k] = UNTILED;
        }
        let ts: Vec<String> = best.iter().map(|&x| if x == UNTILED { "whole".to_string() } else { x.to_string() }).collect();
        notes.push(format!("{note} -> tiles {} ({bytes} of {} bytes)", ts.join("x"), req.budget));
        sizes.extend(best);
    }
    (sizes, notes.join("; "))
}

/// Tile sizes inversely proportional to `ratio` (`T_r = s / R_r`, whole
/// vectors from one vector up), with the largest scale `s` whose tile
/// footprint fits `budget`; the `whole` row (position, extent) takes its
/// extent. Returns the sizes and their footprint in bytes.
fn fit(model: &tilecost::Band, ratio: &[f64], whole: Option<(usize, i64)>, budget: u64, lanes: i64) -> (Vec<i64>, u128) {
    let sizes_at = |scale: i64| -> Vec<i64> {
        ratio
            .iter()
            .enumerate()
            .map(|(k, &rr)| match whole {
                Some((w, e)) if w == k => e,
                _ => {
                    let t = ((scale as f64 / rr).floor() as i64).max(1);
                    if t >= lanes && lanes > 1 {
                        t / lanes * lanes
                    } else {
                        t
                    }
                }
            })
            .collect()
    };
    let fits = |scale: i64| footprint(model, &sizes_at(scale)) <= budget as u128;
    // The footprint grows with the scale: the largest that fits, by bisection.
    let top = (MAX_SCALE as f64 * ratio.iter().cloned().fold(1.0, f64::max)).ceil() as i64;
    let (mut lo, mut hi) = (1i64, top.max(1));
    if fits(hi) {
        lo = hi;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid
        } else {
            hi = mid
        }
    }
    let t = sizes_at(lo);
    let bytes = footprint(model, &t);
    (t, bytes)
}

/// Bytes of one tile of sizes `t`: per array, the largest box an access spans.
fn footprint(model: &tilecost::Band, t: &[i64]) -> u128 {
    let mut per_array: Vec<u128> = vec![0; model.scop.arrays.len()];
    for (s, st) in model.scop.stmts.iter().enumerate() {
        for a in &st.accesses {
            let mut elems: u128 = 1;
            for e in &a.subscripts {
                elems = elems.saturating_mul(model.reach(s, e, |k| t[k] as u128) + 1);
            }
            let bytes = elems.saturating_mul(model.elem.get(a.array).copied().unwrap_or(4) as u128);
            per_array[a.array] = per_array[a.array].max(bytes);
        }
    }
    per_array.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_pluto::{deps, examples, schedule};

    fn matmul() -> (Scop, Schedule) {
        let scop = examples::matmul();
        let d = deps::compute(&scop, false).unwrap();
        let sch = schedule::schedule(&scop, &d, &schedule::Options::default()).unwrap();
        (scop, sch)
    }

    fn req<'a>(budget: u64, bands: &'a [BandInfo], machine: Option<&'a MachineFacts>) -> Request<'a> {
        Request { elem: &[4, 4, 4], budget, lanes: 16, bands, machine, data: Some(3 * 4 * 100 * 100) }
    }

    /// ftm's figures: 64-byte lines, 10-cycle misses, 16 lanes.
    fn ftm_like() -> MachineFacts {
        MachineFacts { line: 64, miss: 10, next: None, lanes: 16, entry: 8, mem_per_cycle: 2 }
    }

    #[test]
    fn matmul_reuse_is_seed_004s_and_the_tiles_fit() {
        let (scop, sch) = matmul();
        let (sizes, note) = choose(&scop, &sch, &req(16384, &[], None));
        // The band is (i, j, k): Ri:Rj:Rk = 1:1:2 (the seed's 1:2:1 in its (i, k, j) order).
        assert!(note.contains("reuse 1:1:2"), "{note}");
        assert_eq!(sizes.len(), 3);
        // T ∝ 1/R: the k tile half the others; footprint 4·(Ti·Tk + Tk·Tj + Ti·Tj) ≤ 16 KB.
        assert!(sizes[2] * 2 <= sizes[0] + 16 && sizes[0] >= 32, "{sizes:?}");
        let fp = 4 * ((sizes[0] + 1) * (sizes[2] + 1) + (sizes[2] + 1) * (sizes[1] + 1) + (sizes[0] + 1) * (sizes[1] + 1));
        assert!(fp <= 16384, "{sizes:?}");
        // Less memory, smaller tiles.
        let (small, _) = choose(&scop, &sch, &req(2048, &[], None));
        assert!(small.iter().zip(&sizes).all(|(a, b)| a <= b) && small != sizes);
        // The innermost row (j, 104 long) whole: the others fit what it leaves.
        let bands = [BandInfo { inner: Some((1, 104)), ..BandInfo::default() }];
        let (with_inner, note) = choose(&scop, &sch, &req(16384, &bands, None));
        assert_eq!(with_inner[1], UNTILED, "{note}");
        assert!(note.contains("tiles") && note.contains("xwholex"), "{note}");
        let fp = 4 * ((with_inner[0] + 1) * (with_inner[2] + 1) + (with_inner[2] + 1) * 105 + (with_inner[0] + 1) * 105);
        assert!(fp <= 16384 && with_inner[0] >= 8, "{with_inner:?}");
    }

    /// Matmul (i, j, k) at 96×104×88 with j whole and the point order (i, k, j), as in bench-poly's gemm.
    fn gemm_band() -> [BandInfo; 1] {
        [BandInfo { inner: Some((1, 104)), extents: vec![Some(96), Some(104), Some(88)], point_order: vec![0, 2, 1] }]
    }

    #[test]
    fn cost_feedback_converges_to_a_local_minimum_of_the_model() {
        let (scop, sch) = matmul();
        let m = ftm_like();
        for budget in [2048, 8192, 16384] {
            let bands = gemm_band();
            let (first, _) = choose(&scop, &sch, &req(budget, &bands, None));
            let (sizes, note) = choose(&scop, &sch, &req(budget, &bands, Some(&m)));
            assert!(note.contains("cost feedback:") && note.contains("round(s)"), "{note}");
            // The model's cost as the remark gives it: never above the first estimate's.
            let cost = |t: &[i64]| {
                let t: Vec<i64> = t.iter().map(|&x| if x == UNTILED { 104 } else { x }).collect();
                let band = tilecost::Band {
                    scop: &scop,
                    dirs: (0..3)
                        .map(|r| {
                            (0..1)
                                .map(|s| {
                                    directions(&scop, &sch)[s]
                                        .as_ref()
                                        .map(|(adj, sel, det)| (adj.iter().map(|row| row[sel.iter().position(|&x| x == r).unwrap()]).collect(), *det))
                                })
                                .collect()
                        })
                        .collect(),
                    extents: vec![96, 104, 88],
                    point_order: vec![0, 2, 1],
                    elem: vec![4, 4, 4],
                    data: None,
                };
                band.cost(&t, &m).total
            };
            assert!(cost(&sizes) <= cost(&first), "budget {budget}: {sizes:?} costs more than {first:?}");
            assert!(note.contains(&format!("-> {} cycles", cost(&sizes))), "{note}");
            // Converged: doubling or halving one tiled row within the budget gains less than 0.5%.
            for k in [0, 2] {
                for t in [sizes[k] * 2, sizes[k] / 2] {
                    let mut n = sizes.clone();
                    n[k] = t.max(1);
                    let fp = 4 * ((n[0] + 1) * (n[2] + 1) + (n[2] + 1) * 105 + (n[0] + 1) * 105);
                    if fp as u64 <= budget {
                        assert!(cost(&n) * 1000 > cost(&sizes) * 995 - 1000, "budget {budget}: {n:?} is cheaper than {sizes:?}");
                    }
                }
            }
            // The whole row stays whole, and the tiles fit.
            assert_eq!(sizes[1], UNTILED);
            let fp = 4 * ((sizes[0] + 1) * (sizes[2] + 1) + (sizes[2] + 1) * 105 + (sizes[0] + 1) * 105);
            assert!(fp as u64 <= budget, "budget {budget}: {sizes:?} ({fp} bytes): {note}");
        }
    }

    #[test]
    fn cost_feedback_moves_the_tiles_when_the_first_estimate_is_not_the_cheapest() {
        // No row left whole, j innermost: the reuse model's cube-like tiles
        // pay a short vector loop per row; the cost makes j longer.
        let (scop, sch) = matmul();
        let m = ftm_like();
        let bands = [BandInfo { inner: None, extents: vec![Some(256), Some(256), Some(256)], point_order: vec![0, 2, 1] }];
        let (first, _) = choose(&scop, &sch, &req(16384, &bands, None));
        let (sizes, note) = choose(&scop, &sch, &req(16384, &bands, Some(&m)));
        assert!(!note.contains("0 round(s)"), "{note}");
        assert!(sizes[1] > first[1], "{first:?} -> {sizes:?}: {note}");
        // Without the machine, or with a row of unknown extent, the first estimate stays.
        let unknown = [BandInfo { inner: None, extents: vec![Some(256), None, Some(256)], point_order: vec![0, 2, 1] }];
        let (same, note) = choose(&scop, &sch, &req(16384, &unknown, Some(&m)));
        assert_eq!(same, first);
        assert!(note.contains("no cost feedback"), "{note}");
    }
}
