//! Tile sizes from seed 004's tile-size selection model (its Algorithm 1,
//! first step; the data-reuse example of its Fig. 4): per row of a tiled
//! band the data-reuse ratio `R` — how many accesses touch the same
//! element all along the row (for matrix multiplication in the order
//! (i, k, j): `B[k][j]` along i, `C[i][j]` read and written along k,
//! `A[i][k]` along j, so `Ri:Rk:Rj = 1:2:1` as in the seed) — and tile
//! sizes inversely proportional to it, `T_r = s / R_r`, with the largest
//! scale `s` whose tile footprint fits the memory limit: half the L1D
//! (the other half for the lines of conflicting sets and the rest of the
//! program) from the `.isa`'s `cache` description. Sizes of at least one
//! vector are rounded down to whole vectors (`lanes`). The row that will be
//! the innermost point loop (parallel and stride-1 after the core's
//! intra-tile order) is left whole: on this machine a long vectorizable
//! loop matters more than its reuse (measured on gemm: 48x48x16 tiles 0.2×
//! of -O3, 16×whole×16 1.08×).
//!
//! The seed then refines `T` by feedback from the vectorizer's cost; that
//! iteration is not done here (the pass has no cost model of the
//! vectorized tile yet): the first estimate is final.

use dsp_pluto::linalg::{inverse, rank};
use dsp_pluto::poly::Aff;
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

/// How far subscript `e` moves along direction `dir` (in units of 1/det).
fn step(e: &Aff, dir: &[i64]) -> i128 {
    e.coeffs.iter().zip(dir).map(|(&c, &x)| c as i128 * x as i128).sum()
}

/// The sizes of every tiled band row in order (bands of two loops or
/// more, outermost first: what `TileOptions::sizes` takes), for arrays of
/// `elem` bytes per element and a limit of `budget` bytes per tile; and a
/// line for the remark (ratios and sizes).
///
/// `inner` gives, per tiled band, the row (an untiled row index) that will
/// be the innermost point loop and its extent when known: that row is left
/// whole ([`UNTILED`]) — a long stride-1 loop is what the vectorizers and
/// the software pipeliner need on this machine, more than its reuse — and
/// the other rows share what its extent leaves of the budget.
pub fn choose(scop: &Scop, sch: &Schedule, elem: &[u64], budget: u64, lanes: i64, inner: &[Option<(usize, i64)>]) -> (Vec<i64>, String) {
    let dirs = directions(scop, sch);
    let mut sizes = Vec::new();
    let mut notes = Vec::new();
    for (bi, band) in sch.bands.iter().filter(|b| b.len >= 2).enumerate() {
        let whole = inner.get(bi).copied().flatten().filter(|(r, e)| *r >= band.start && *r < band.start + band.len && *e >= 1);
        // Per band row: the direction of every statement (column of adj).
        let col = |s: usize, r: usize| -> Option<(Vec<i64>, i64)> {
            let (adj, sel, det) = dirs[s].as_ref()?;
            let c = sel.iter().position(|&x| x == r)?;
            Some((adj.iter().map(|row| row[c]).collect(), *det))
        };
        let rows: Vec<usize> = (band.start..band.start + band.len).collect();
        let mut reuse = vec![0i64; rows.len()];
        for (k, &r) in rows.iter().enumerate() {
            for (s, st) in scop.stmts.iter().enumerate() {
                let Some((dir, _)) = col(s, r) else { continue };
                reuse[k] += st.accesses.iter().filter(|a| a.subscripts.iter().all(|e| step(e, &dir) == 0)).count() as i64;
            }
        }
        let reuse: Vec<i64> = reuse.into_iter().map(|x| x.max(1)).collect();
        // The sizes at `scale`, with the whole row's extent in place of its size (for the footprint).
        let sizes_at = |scale: i64| -> Vec<i64> {
            reuse
                .iter()
                .enumerate()
                .map(|(k, &rr)| match whole {
                    Some((r, e)) if r == band.start + k => e,
                    _ => {
                        let t = (scale / rr).max(1);
                        if t >= lanes && lanes > 1 { t / lanes * lanes } else { t }
                    }
                })
                .collect()
        };
        // Bytes of one tile: per array, the largest box an access spans.
        let footprint = |t: &[i64]| -> u128 {
            let mut per_array: Vec<u128> = vec![0; scop.arrays.len()];
            for (s, st) in scop.stmts.iter().enumerate() {
                let cols: Vec<Option<(Vec<i64>, i64)>> = rows.iter().map(|&r| col(s, r)).collect();
                for a in &st.accesses {
                    let mut elems: u128 = 1;
                    for e in &a.subscripts {
                        let mut span: u128 = 0;
                        for (k, c) in cols.iter().enumerate() {
                            if let Some((dir, det)) = c {
                                span += (step(e, dir).unsigned_abs() * t[k] as u128).div_ceil((*det).max(1) as u128);
                            }
                        }
                        elems = elems.saturating_mul(span + 1);
                    }
                    let bytes = elems.saturating_mul(elem.get(a.array).copied().unwrap_or(4) as u128);
                    per_array[a.array] = per_array[a.array].max(bytes);
                }
            }
            per_array.iter().sum()
        };
        let mut best = sizes_at(1);
        let mut scale = 2;
        while scale <= MAX_SCALE {
            let t = sizes_at(scale);
            if footprint(&t) > budget as u128 {
                break;
            }
            best = t;
            scale += 1;
        }
        let ratio: Vec<String> = reuse.iter().map(|x| x.to_string()).collect();
        let bytes = footprint(&best);
        if let Some((r, _)) = whole {
            best[r - band.start] = UNTILED;
        }
        let ts: Vec<String> = best.iter().map(|&x| if x == UNTILED { "whole".to_string() } else { x.to_string() }).collect();
        notes.push(format!("band [{}..{}): reuse {} -> tiles {} ({bytes} of {budget} bytes)", band.start, band.start + band.len, ratio.join(":"), ts.join("x")));
        sizes.extend(best);
    }
    (sizes, notes.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_pluto::{deps, examples, schedule};

    #[test]
    fn matmul_reuse_is_seed_004s_and_the_tiles_fit() {
        let scop = examples::matmul();
        let d = deps::compute(&scop, false).unwrap();
        let sch = schedule::schedule(&scop, &d, &schedule::Options::default()).unwrap();
        let (sizes, note) = choose(&scop, &sch, &[4, 4, 4], 16384, 16, &[]);
        // The band is (i, j, k): Ri:Rj:Rk = 1:1:2 (the seed's 1:2:1 in its (i, k, j) order).
        assert!(note.contains("reuse 1:1:2"), "{note}");
        assert_eq!(sizes.len(), 3);
        // T ∝ 1/R: the k tile half the others; footprint 4·(Ti·Tk + Tk·Tj + Ti·Tj) ≤ 16 KB.
        assert!(sizes[2] * 2 <= sizes[0] + 16 && sizes[0] >= 32, "{sizes:?}");
        let fp = 4 * ((sizes[0] + 1) * (sizes[2] + 1) + (sizes[2] + 1) * (sizes[1] + 1) + (sizes[0] + 1) * (sizes[1] + 1));
        assert!(fp <= 16384, "{sizes:?}");
        // Less memory, smaller tiles.
        let (small, _) = choose(&scop, &sch, &[4, 4, 4], 2048, 16, &[]);
        assert!(small.iter().zip(&sizes).all(|(a, b)| a <= b) && small != sizes);
        // The innermost row (j, 104 long) whole: the others fit what it leaves.
        let (with_inner, note) = choose(&scop, &sch, &[4, 4, 4], 16384, 16, &[Some((1, 104))]);
        assert_eq!(with_inner[1], UNTILED, "{note}");
        assert!(note.contains("tiles") && note.contains("xwholex"), "{note}");
        let fp = 4 * ((with_inner[0] + 1) * (with_inner[2] + 1) + (with_inner[2] + 1) * 105 + (with_inner[0] + 1) * 105);
        assert!(fp <= 16384 && with_inner[0] >= 8, "{with_inner:?}");
    }
}
