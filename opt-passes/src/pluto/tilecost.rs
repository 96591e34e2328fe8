//! The cost of a tiled band on the machine: the feedback of seed 004's
//! Algorithm 1 (its lines ④–⑧: tile, vectorize, read back the cost, adjust
//! the sizes, until the total cost converges). The seed reads the cost of
//! the vectorized tile from its vectorizer; this pass runs before ours
//! (egg), so the cost comes from a model of the machine whose every figure
//! is the `.isa`'s ([`MachineFacts`]):
//!
//! - **L1D misses** × the L1D miss penalty (plus the next level's when the
//!   band's data exceed it). Each tile misses on the lines of every array's
//!   box in it, except an array whose box does not move along the
//!   innermost tile loop: it stays in L1D across that loop's tiles (the
//!   tiles are sized to fit, [`super::tilesize`]) and misses once per sweep.
//! - **Loop entries** × the cycles a loop's start and end cost (the
//!   branch's delay slots and the pipeline's fill, a vector load's
//!   latency): small tiles enter their point loops more often.
//! - **Vector iterations** of the innermost point loop × the cycles one
//!   takes when memory-bound (its accesses over the vector memory units): a
//!   short innermost loop rounds up to whole vectors.
//!
//! It is a model, not a measurement: what it ranks is tile sizes against
//! each other, on one band.

use dsp_pluto::poly::Aff;
use dsp_pluto::scop::Scop;

/// What the cost model reads of the machine (all from its `.isa`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineFacts {
    /// L1D line size in bytes.
    pub line: u64,
    /// L1D miss penalty in cycles.
    pub miss: u64,
    /// The next level's capacity and miss penalty, when there is one: an
    /// L1D miss costs `miss` plus this one when the band's data exceed it.
    pub next: Option<(u64, u64)>,
    /// Vector lanes for 32-bit elements (1: no vectors).
    pub lanes: i64,
    /// Cycles a loop's entry and exit cost beyond its iterations.
    pub entry: u64,
    /// Vector memory accesses the machine issues per cycle.
    pub mem_per_cycle: u64,
}

/// A band row's direction in one statement's iterator space and the
/// determinant it is scaled by (`None`: the row is not one of the
/// statement's loops).
pub type Direction = Option<(Vec<i64>, i64)>;

/// One tiled band as the model sees it.
pub struct Band<'a> {
    pub scop: &'a Scop,
    /// Per band row (in order) and statement: the row's direction in the
    /// statement's iterator space and the determinant it is scaled by.
    pub dirs: Vec<Vec<Direction>>,
    /// Per band row: the number of values it takes (its loop's trip count).
    pub extents: Vec<i64>,
    /// The point loops' order, as positions in the band (innermost last).
    pub point_order: Vec<usize>,
    /// Bytes per element of each array.
    pub elem: Vec<u64>,
    /// Bytes of all the arrays (for the next level's capacity), when known.
    pub data: Option<u64>,
}

/// The model's cost of a band and its parts, in cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    pub misses: u64,
    pub entries: u64,
    pub vector_iters: u64,
    pub total: u64,
}

/// How far subscript `e` moves along direction `dir` (in units of 1/det).
pub fn step(e: &Aff, dir: &[i64]) -> i128 {
    e.coeffs.iter().zip(dir).map(|(&c, &x)| c as i128 * x as i128).sum()
}

impl Band<'_> {
    /// How far subscript `e` of statement `s` moves over a tile that
    /// advances `along(k)` steps on band row `k` (in elements, rounded up).
    pub fn reach(&self, s: usize, e: &Aff, along: impl Fn(usize) -> u128) -> u128 {
        let mut span: u128 = 0;
        for (k, d) in self.dirs.iter().enumerate() {
            if let Some((dir, det)) = &d[s] {
                span += (step(e, dir).unsigned_abs() * along(k)).div_ceil((*det).max(1) as u128);
            }
        }
        span
    }

    /// Per array: the elements its box spans in each dimension at tile
    /// sizes `t` (the largest box of its accesses), and whether every
    /// access of it stays put along band row `row`.
    fn boxes(&self, t: &[i64], row: Option<usize>) -> Vec<Option<(Vec<u128>, bool)>> {
        let mut out: Vec<Option<(Vec<u128>, bool)>> = vec![None; self.scop.arrays.len()];
        for (s, st) in self.scop.stmts.iter().enumerate() {
            for a in &st.accesses {
                let spans: Vec<u128> = a
                    .subscripts
                    .iter()
                    .map(|e| self.reach(s, e, |k| (t[k].max(1) - 1) as u128) + 1)
                    .collect();
                let still = row.is_none_or(|r| self.dirs[r][s].as_ref().is_none_or(|(dir, _)| a.subscripts.iter().all(|e| step(e, dir) == 0)));
                let slot = &mut out[a.array];
                *slot = Some(match slot.take() {
                    None => (spans, still),
                    Some((old, was)) => {
                        let bigger = old.iter().product::<u128>() >= spans.iter().product::<u128>();
                        (if bigger { old } else { spans }, was && still)
                    }
                });
            }
        }
        out
    }

    /// L1D lines a box of `spans` elements of `elem` bytes covers (rows of
    /// the last, contiguous dimension; a row starts anywhere in a line).
    fn lines(spans: &[u128], elem: u64, line: u64) -> u128 {
        let Some((&last, rows)) = spans.split_last() else {
            return 1;
        };
        let bytes = last * elem as u128;
        let per_row = (bytes + line as u128 - elem.min(line) as u128).div_ceil(line as u128).max(1);
        rows.iter().product::<u128>().saturating_mul(per_row)
    }

    /// The cost at tile sizes `t` (one per band row; a row's extent or more
    /// is the whole row).
    pub fn cost(&self, t: &[i64], m: &MachineFacts) -> Cost {
        let n = self.extents.len();
        let extent: Vec<u128> = self.extents.iter().map(|&e| e.max(1) as u128).collect();
        let size: Vec<u128> = (0..n).map(|k| (t[k].max(1) as u128).min(extent[k])).collect();
        let tiles_of: Vec<u128> = (0..n).map(|k| extent[k].div_ceil(size[k])).collect();
        let tiles: u128 = tiles_of.iter().product();
        // The innermost tile loop that has more than one tile.
        let inner = (0..n).rev().find(|&k| tiles_of[k] > 1);
        // Misses: every tile at the rows' mean tile size (a partial last tile is smaller).
        let mean: Vec<i64> = (0..n).map(|k| i64::try_from(extent[k].div_ceil(tiles_of[k])).unwrap_or(i64::MAX)).collect();
        let mut lines: u128 = 0;
        for (a, b) in self.boxes(&mean, inner).into_iter().enumerate() {
            let Some((spans, still)) = b else { continue };
            let per_tile = Self::lines(&spans, self.elem.get(a).copied().unwrap_or(4), m.line.max(1));
            let times = match inner {
                Some(r) if still => tiles / tiles_of[r],
                _ => tiles,
            };
            lines = lines.saturating_add(per_tile.saturating_mul(times));
        }
        let penalty = m.miss + m.next.filter(|&(cap, _)| self.data.is_none_or(|d| d > cap)).map_or(0, |(_, p)| p);
        // Loop entries: tile loops (band order), then point loops (point
        // order): point loop ℓ is entered once per tile and value of the
        // point loops outside it, Π over those of the extent, times Π over
        // the others of the tile count (partial tiles exactly).
        let mut entries: u128 = 0;
        let mut outer: u128 = 1;
        for &c in &tiles_of {
            entries += outer;
            outer = outer.saturating_mul(c);
        }
        for (l, _) in self.point_order.iter().enumerate() {
            let here = (0..n).fold(1u128, |acc, k| {
                let outside = self.point_order[..l].contains(&k);
                acc.saturating_mul(if outside { extent[k] } else { tiles_of[k] })
            });
            entries = entries.saturating_add(here);
        }
        // Vector iterations of the innermost point loop (memory-bound): its
        // runs (the other rows' extents) times whole vectors per row of tiles.
        let accesses: u128 = self.scop.stmts.iter().map(|s| s.accesses.len() as u128).sum::<u128>().max(1);
        let per_iter = accesses.div_ceil(m.mem_per_cycle.max(1) as u128);
        let lanes = m.lanes.max(1) as u128;
        let vector_iters = match self.point_order.last() {
            Some(&v) => {
                let runs = (0..n).filter(|&k| k != v).fold(1u128, |acc, k| acc.saturating_mul(extent[k]));
                let full = extent[v] / size[v];
                let per_row = full * size[v].div_ceil(lanes) + (extent[v] % size[v]).div_ceil(lanes);
                runs.saturating_mul(per_row)
            }
            None => 0,
        };
        let clamp = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
        let misses = clamp(lines.saturating_mul(penalty as u128));
        let entries = clamp(entries.saturating_mul(m.entry as u128));
        let vector_iters = clamp(vector_iters.saturating_mul(per_iter));
        Cost { misses, entries, vector_iters, total: misses.saturating_add(entries).saturating_add(vector_iters) }
    }
}

impl MachineFacts {
    /// The facts of `m`, when it has an L1D (without one, tiling has no
    /// misses to save and the model nothing to rank).
    pub fn of(m: &isa_tablegen::Machine) -> Option<MachineFacts> {
        use dsp_egg_isel::lang::Elem;
        use dsp_egg_isel::target::{Opnd, Target};
        use isa_tablegen::SemOp;
        let l1 = m.data_cache(1)?;
        let next = m.data_cache(2).map(|c| (c.size as u64, c.miss as u64));
        // The loads the innermost loop is made of: vector loads, or scalar ones without vectors.
        let target = Target::new(m, Elem::F32).ok();
        let find = |op: SemOp, dst: Opnd| target.as_ref().and_then(|t| t.find(op, Some(dst), &[Opnd::S, Opnd::Imm]));
        let vload = find(SemOp::VLoadU, Opnd::V).or_else(|| find(SemOp::VLoad, Opnd::V));
        let load = vload.or_else(|| find(SemOp::Load, Opnd::S));
        let (latency, units) = match load {
            Some(i) => (i.latency as u64, i.units.iter().map(|&u| m.unit(u).count.max(1) as u64).sum::<u64>()),
            None => (m.max_latency() as u64, 1),
        };
        Some(MachineFacts {
            line: l1.line as u64,
            miss: l1.miss as u64,
            next,
            lanes: if vload.is_some() { m.vector_lanes(32).map_or(1, |l| l as i64) } else { 1 },
            entry: m.control.delay_slots as u64 + latency,
            mem_per_cycle: units.max(1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_pluto::examples;

    /// Matmul (i, j, k) at N = 64, rows i, j, k with their unit directions, point order (i, k, j).
    fn matmul(scop: &Scop) -> Band<'_> {
        let unit = |r: usize| vec![Some(((0..3).map(|c| i64::from(c == r)).collect(), 1))];
        Band { scop, dirs: (0..3).map(unit).collect(), extents: vec![64, 64, 64], point_order: vec![0, 2, 1], elem: vec![4, 4, 4], data: Some(3 * 64 * 64 * 4) }
    }

    fn facts() -> MachineFacts {
        MachineFacts { line: 64, miss: 10, next: Some((1 << 20, 90)), lanes: 16, entry: 8, mem_per_cycle: 2 }
    }

    #[test]
    fn an_array_that_stays_put_along_the_innermost_tile_loop_misses_once_per_sweep() {
        let scop = examples::matmul();
        let band = matmul(&scop);
        let m = MachineFacts { entry: 0, mem_per_cycle: 1 << 20, ..facts() };
        // 16×64×16 tiles: 4 × 1 × 4 tiles, k innermost. C[i][j] (16 rows of
        // 64 floats: 16 × 5 lines, a row starting anywhere in a line) stays
        // put along k: 4 sweeps. A[i][k] (16 × 2 lines) and B[k][j] (16 × 5
        // lines) change with every one of the 16 tiles.
        let c = band.cost(&[16, 64, 16], &m);
        let lines = 4 * 16 * 5 + 16 * (16 * 2 + 16 * 5);
        assert_eq!(c.misses, lines * 10);
        // Data beyond the next level's capacity (or of unknown size) pay its penalty too.
        let big = Band { data: Some(2 << 20), ..matmul(&scop) };
        assert_eq!(big.cost(&[16, 64, 16], &m).misses, lines * 100);
        let unknown = Band { data: None, ..matmul(&scop) };
        assert_eq!(unknown.cost(&[16, 64, 16], &m).misses, lines * 100);
    }

    #[test]
    fn smaller_tiles_enter_their_loops_more_often_and_short_rows_round_up_to_vectors() {
        let scop = examples::matmul();
        let band = matmul(&scop);
        let m = facts();
        let (big, small) = (band.cost(&[32, 64, 32], &m), band.cost(&[8, 64, 8], &m));
        assert!(small.entries > big.entries, "{small:?} {big:?}");
        // j innermost: 64 in whole vectors is 4 per row; 24 is 2 (16 + 8), 3 per 64 → 3 rows of 2 and one of 1.
        let whole = band.cost(&[64, 64, 64], &m).vector_iters;
        let short = band.cost(&[64, 24, 64], &m).vector_iters;
        // 4 accesses at 2 per cycle: 2 cycles a vector iteration.
        assert_eq!(whole, 64 * 64 * 4 * 2);
        assert_eq!(short, 64 * 64 * (2 + 2 + 1) * 2);
        // A size at or past the extent is the whole row.
        assert_eq!(band.cost(&[64, 64, 64], &m), band.cost(&[1000, 64, 64], &m));
    }
}
