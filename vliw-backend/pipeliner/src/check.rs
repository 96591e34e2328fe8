//! Run-time overlap checks of a pipelined loop: the predicate, built in the
//! expansion's `check` block ([`crate::expand`]), that every pair of access
//! groups whose distance the dependence graph could not bound
//! ([`LoopDdg::alias_pairs`]) touches disjoint bytes over the whole loop,
//! so that overlapping their iterations is safe (the original loop runs
//! otherwise, as after LLVM's loop versioning).
//!
//! A group's addresses are `Σ scale·v + step·i + offset` ([`crate::affine`]).
//! Two groups that advance by the same step compare their distance, built
//! from the terms they do not share, with the loop's span: `x[i + j]`
//! against `x[i + j + h]` is `4h` against `(n − 1)·4`, whatever the base,
//! and mirror pairs share one test. This needs distances to be signed
//! 32-bit values, so only on machines whose memories lie below 2 GiB.
//! Other pairs compare the ends of their byte ranges (unsigned).

use std::collections::{BTreeMap, HashMap};

use dsp_mir::{Inst, Machine, Operand, Reg, RegFileId, VReg};
use isa_tablegen::{SemOp, Ty};

use crate::ddg::LoopDdg;
use crate::emit::Emit;

/// A distance test: the terms of `b − a`, the step, the bounds above and
/// below ([`Builder::distance_test`]).
type DistanceTest = (Vec<(VReg, i64)>, i64, i64, i64);

/// The predicate "no pair overlaps" for a loop of `tc` iterations, its
/// instructions appended to `out`; `None` without pairs to check.
pub fn overlap_checks(
    m: &Machine,
    emit: &Emit,
    ddg: &LoopDdg,
    tc: Reg,
    out: &mut Vec<Inst>,
    new_vreg: &mut dyn FnMut(RegFileId) -> Reg,
) -> Result<Option<Reg>, String> {
    if ddg.alias_pairs.is_empty() {
        return Ok(None);
    }
    let mut b = Builder { emit, out, new_vreg, spans: HashMap::new(), nm1: tc };
    b.nm1 = b.int(SemOp::Add, tc, Operand::Imm(-1))?;
    let groups = &ddg.alias_groups;
    // Per group with one step and one set of terms: (step, lowest offset,
    // highest end).
    let alike: Vec<Option<(i64, i64, i64)>> = groups
        .iter()
        .map(|grp| {
            let (coef, terms) = (grp[0].addr.coef, &grp[0].addr.terms);
            if grp.iter().any(|x| x.addr.coef != coef || &x.addr.terms != terms) {
                return None;
            }
            let first = grp.iter().map(|x| x.addr.offset).min()?;
            let end = grp.iter().map(|x| x.addr.offset + x.size as i64).max()?;
            Some((coef, first, end))
        })
        .collect();
    let small = std::iter::once(m.memory.end()).chain(m.memory.onchip.iter().map(|o| o.end())).all(|e| e <= 1 << 31);
    let same_step = |a: usize, b: usize| small && matches!((alike[a], alike[b]), (Some(x), Some(y)) if x.0 == y.0);
    // The ranges of the groups in other pairs.
    let mut ranges: HashMap<usize, (Reg, Reg)> = HashMap::new();
    for &(x, y) in &ddg.alias_pairs {
        if !same_step(x, y) {
            for g in [x, y] {
                if let std::collections::hash_map::Entry::Vacant(e) = ranges.entry(g) {
                    e.insert(b.range(ddg, g)?);
                }
            }
        }
    }
    let mut by_distance: Vec<DistanceTest> = Vec::new();
    let mut ok: Option<Reg> = None;
    for &(x, y) in &ddg.alias_pairs {
        let disjoint = match (alike[x], alike[y]) {
            (Some((step, fa, ea)), Some((_, fb, eb))) if same_step(x, y) => {
                let (ta, tb) = (&groups[x][0].addr.terms, &groups[y][0].addr.terms);
                let mut diff: Vec<(VReg, i64)> = tb.iter().map(|(&v, &sc)| (v, sc - ta.get(&v).copied().unwrap_or(0))).collect();
                diff.extend(ta.iter().filter(|(v, _)| !tb.contains_key(v)).map(|(&v, &sc)| (v, -sc)));
                diff.retain(|t| t.1 != 0);
                diff.sort_unstable_by_key(|t| t.0);
                // The pair the other way round when that makes the first
                // term positive: the same test, no negation, and mirror
                // pairs (x vs y, y vs x) share it.
                let (fa, ea, fb, eb) = if diff.first().is_some_and(|t| t.1 < 0) {
                    diff.iter_mut().for_each(|t| t.1 = -t.1);
                    (fb, eb, fa, ea)
                } else {
                    (fa, ea, fb, eb)
                };
                let key = (diff, step.abs(), ea - fb, fa - eb);
                if by_distance.contains(&key) {
                    continue; // the same test, already in `ok`
                }
                let d = b.distance_test(&key.0, step.abs(), ea - fb, fa - eb)?;
                by_distance.push(key);
                d
            }
            _ => {
                let ((loa, hia), (lob, hib)) = (ranges[&x], ranges[&y]);
                let p1 = b.cmp(SemOp::Le, Ty::U32, hia, Operand::Reg(lob))?;
                let p2 = b.cmp(SemOp::Le, Ty::U32, hib, Operand::Reg(loa))?;
                b.logic(SemOp::Or, p1, p2)?
            }
        };
        ok = Some(match ok {
            None => disjoint,
            Some(o) => b.logic(SemOp::And, o, disjoint)?,
        });
    }
    Ok(ok)
}

/// Appends the checks' instructions, each found in the `.isa` by
/// [`Emit::op`].
struct Builder<'e, 'a> {
    emit: &'e Emit<'a>,
    out: &'e mut Vec<Inst>,
    new_vreg: &'e mut dyn FnMut(RegFileId) -> Reg,
    /// (trip count − 1)·step, once per step.
    spans: HashMap<i64, Reg>,
    /// The trip count − 1.
    nm1: Reg,
}

impl Builder<'_, '_> {
    fn op(&mut self, op: SemOp, tys: &[Ty], dst: RegFileId, a: Reg, b: Operand) -> Result<Reg, String> {
        let int = self.emit.int;
        let file_of = |r: &Reg| match r {
            Reg::Virt(_) => int,
            Reg::Phys(p) => p.file,
        };
        self.emit.op(self.out, self.new_vreg, &file_of, op, tys, dst, &[Operand::Reg(a), b])
    }
    /// A 32-bit integer operation.
    fn int(&mut self, op: SemOp, a: Reg, b: Operand) -> Result<Reg, String> {
        self.op(op, &[Ty::I32], self.emit.int, a, b)
    }
    /// A comparison of integers into a predicate.
    fn cmp(&mut self, op: SemOp, ty: Ty, a: Reg, b: Operand) -> Result<Reg, String> {
        self.op(op, &[ty], self.emit.pred, a, b)
    }
    /// `and`/`or` of two predicates.
    fn logic(&mut self, op: SemOp, a: Reg, b: Reg) -> Result<Reg, String> {
        let pred = self.emit.pred;
        self.emit.op(self.out, self.new_vreg, &|_| pred, op, &[Ty::U32, Ty::I32], pred, &[Operand::Reg(a), Operand::Reg(b)])
    }
    /// (trip count − 1)·step.
    fn span(&mut self, step: i64) -> Result<Reg, String> {
        if let Some(&r) = self.spans.get(&step) {
            return Ok(r);
        }
        let r = self.int(SemOp::Mul, self.nm1, Operand::Imm(step))?;
        self.spans.insert(step, r);
        Ok(r)
    }
    /// `Σ sc·v` (0 without terms); after the first term, a negative
    /// coefficient is a subtraction.
    fn linear(&mut self, terms: &[(VReg, i64)]) -> Result<Reg, String> {
        let mut acc: Option<Reg> = None;
        for &(v, sc) in terms {
            let scale = if acc.is_some() { sc.abs() } else { sc };
            let term = if scale == 1 { Reg::Virt(v) } else { self.int(SemOp::Mul, Reg::Virt(v), Operand::Imm(scale))? };
            acc = Some(match acc {
                None => term,
                Some(a) => self.int(if sc < 0 { SemOp::Sub } else { SemOp::Add }, a, Operand::Reg(term))?,
            });
        }
        match acc {
            Some(a) => Ok(a),
            None => self.emit.li(self.out, self.new_vreg, 0),
        }
    }
    /// The lowest address group `g` touches and one past its highest, over
    /// the loop: one start and one end per step of its accesses.
    fn range(&mut self, ddg: &LoopDdg, g: usize) -> Result<(Reg, Reg), String> {
        let grp = &ddg.alias_groups[g];
        let terms: Vec<(VReg, i64)> = grp[0].addr.terms.iter().map(|(&v, &sc)| (v, sc)).collect();
        let base = self.linear(&terms)?;
        let mut by_step: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
        for a in grp {
            let e = by_step.entry(a.addr.coef).or_insert((a.addr.offset, a.addr.offset + a.size as i64));
            e.0 = e.0.min(a.addr.offset);
            e.1 = e.1.max(a.addr.offset + a.size as i64);
        }
        let mut lo: Option<Reg> = None;
        let mut hi: Option<Reg> = None;
        for (&step, &(first, end)) in &by_step {
            let mut start = self.int(SemOp::Add, base, Operand::Imm(first))?;
            let mut end = self.int(SemOp::Add, base, Operand::Imm(end))?;
            if step != 0 {
                let sp = self.span(step)?;
                if step < 0 {
                    start = self.int(SemOp::Add, start, Operand::Reg(sp))?;
                } else {
                    end = self.int(SemOp::Add, end, Operand::Reg(sp))?;
                }
            }
            lo = Some(match lo {
                None => start,
                Some(x) => self.op(SemOp::Min, &[Ty::U32], self.emit.int, x, Operand::Reg(start))?,
            });
            hi = Some(match hi {
                None => end,
                Some(x) => self.op(SemOp::Max, &[Ty::U32], self.emit.int, x, Operand::Reg(end))?,
            });
        }
        Ok((lo.ok_or("an access group without accesses")?, hi.ok_or("an access group without accesses")?))
    }
    /// For two groups `diff` apart (b − a, its first term positive) that
    /// advance `step` bytes per iteration: b wholly above a
    /// (`dist − span ≥ above`) or wholly below (`dist + span ≤ below`).
    fn distance_test(&mut self, diff: &[(VReg, i64)], step: i64, above: i64, below: i64) -> Result<Reg, String> {
        let dist = self.linear(diff)?;
        let (up, down) = if step == 0 {
            (dist, dist)
        } else {
            let sp = self.span(step)?;
            (self.int(SemOp::Sub, dist, Operand::Reg(sp))?, self.int(SemOp::Add, dist, Operand::Reg(sp))?)
        };
        let p1 = self.cmp(SemOp::Gt, Ty::I32, up, Operand::Imm(above - 1))?;
        let p2 = self.cmp(SemOp::Lt, Ty::I32, down, Operand::Imm(below + 1))?;
        self.logic(SemOp::Or, p1, p2)
    }
}
