//! `dsp-predcom`: predictive commoning of loads (GCC's
//! `-fpredictive-commoning`, its read-only chains): in a one-block counted
//! loop, a load whose address is another load's address `d` iterations
//! later reads what that load read `d` iterations before, as long as
//! nothing in the loop stores to that object. Only the load furthest ahead
//! of such a chain stays; the others become values carried in registers
//! from iteration to iteration (`d` phis for a chain of `d + 1` loads),
//! started by the chain's loads of the first iteration, issued before the
//! loop.
//!
//! A 3×3 convolution's row loop is the case it is for: each output row's
//! vector reads 3 input rows at 3 column offsets, and 6 of those 9 loads
//! read what the two iterations before read. With them carried, the loop
//! loads 3 vectors per iteration instead of 9, so the machine's multiply
//! units, not its load units, bound it.
//!
//! The addresses are polynomials ([`crate::addr`]) in the loop's counter:
//! `base + rest + stride·i` with `rest` and `stride` invariant; two loads
//! of the same type (and, for `llvm.masked.load`, the same invariant mask
//! and pass-through) form a chain when their `rest`s differ by a whole
//! multiple of `stride`. Sign extensions of narrow indices, which the
//! polynomials look through, are refused: they do not commute with the
//! wrap-around. A loop that may store to the object (or calls anything that
//! may write memory) is left alone. Chains span at most
//! [`MAX_DISTANCE`] iterations, and a loop carries at most [`MAX_CARRIED`]
//! values, so that the registers they hold stay few. It applies only
//! where it lowers the loop's resource bound, estimated from the `.isa`
//! (each operation on the units of the machine's instruction for it):
//! when the multiply units bound the loop anyway, the carried values would
//! only lengthen its pipeline. Runs at the
//! optimizer-last point, after the vectorizers, from -O2
//! (`-f[no-]predictive-commoning`); remarks `-Rpass=predcom`.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;

use isa_tablegen::{OperandKind, SemOp, UnitId};

use crate::addr::{self, Poly};
use crate::caps::Caps;
use crate::cfg::Cfg;
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// The most iterations a carried value crosses.
pub const MAX_DISTANCE: i64 = 4;
/// The most values one loop carries.
pub const MAX_CARRIED: usize = 8;

/// Runs the pass on every function of `m` (remarks of pass `predcom`).
pub fn run(m: LLVMModuleRef, caps: &Caps) -> (bool, Vec<Remark>) {
    crate::wfv::per_function(m, |f| run_function(m, f, caps))
}

/// A load of the loop: the instruction, what must match for two loads to
/// read the same value from the same address, and its address.
struct Load {
    inst: LLVMValueRef,
    /// Object, value type, mask and pass-through (null for a plain load).
    key: (LLVMValueRef, LLVMTypeRef, LLVMValueRef, LLVMValueRef),
    stride: Poly,
    rest: Poly,
}

/// A chain: loads in order of how far ahead they read, the last one kept.
struct Chain {
    loads: Vec<LLVMValueRef>,
}

/// Runs the pass on one function.
pub fn run_function(m: LLVMModuleRef, f: LLVMValueRef, caps: &Caps) -> (bool, Vec<Remark>) {
    let cfg = Cfg::new(f);
    let mut changed = false;
    let mut remarks = Vec::new();
    for l in cfg.loops() {
        if l.size() != 1 {
            continue;
        }
        let Some(c) = addr::counted(&cfg, &l) else { continue };
        let h = cfg.blocks[l.header];
        let chains = match chains(m, h, c.iv) {
            Ok(ch) => ch,
            Err(why) => {
                if let Some(at) = ir::instructions(h).into_iter().find(|&i| is_load(i).is_some()) {
                    remarks.push(Remark { kind: RemarkKind::Missed, at, name: "NotPredictiveCommoning", msg: format!("loads not reused across iterations: {why}") });
                }
                continue;
            }
        };
        if chains.is_empty() {
            continue;
        }
        let at = *chains[0].loads.last().expect("a chain has loads");
        let behind: Vec<LLVMValueRef> = chains.iter().flat_map(|ch| ch.loads[..ch.loads.len() - 1].iter().copied()).collect();
        let (before, after) = (resource_bound(caps, h, &[]), resource_bound(caps, h, &behind));
        if after.ceil() >= before.ceil() {
            remarks.push(Remark {
                kind: RemarkKind::Missed,
                at,
                name: "NotPredictiveCommoning",
                msg: format!(
                    "{} load{} could reuse what earlier iterations loaded, but the loop's resource bound stays {:.1} cycles ({:.1} without them): other units bound it",
                    behind.len(),
                    plural(behind.len()),
                    before,
                    after
                ),
            });
            continue;
        }
        let pre = cfg.blocks[c.preheader];
        let objects = chain_objects(m, &chains);
        // Values of the first iteration, computed before the loop once.
        let mut first = HashMap::new();
        let (sums, sum_carried) = carry_sums(h, pre, c.iv, c.start, &chains, &mut first);
        if sums > 0 {
            // The old terms, so that the loads they read have no uses left.
            ir::delete_dead(f);
        }
        let (mut removed, mut carried) = (0, sum_carried);
        for ch in &chains {
            let (r, k) = rewrite(h, pre, c.iv, c.start, ch, &mut first);
            removed += r;
            carried += k;
        }
        changed = true;
        let sums_note = if sums > 0 { format!(", {sums} sum{} of their products carried instead", plural(sums)) } else { String::new() };
        remarks.push(Remark {
            kind: RemarkKind::Passed,
            at,
            name: "PredictiveCommoning",
            msg: format!(
                "{removed} load{} of {} reuse{} what the loop loaded in earlier iterations ({} chain{}{sums_note}; {carried} value{} carried in registers)",
                plural(removed),
                objects,
                if removed == 1 { "s" } else { "" },
                chains.len(),
                plural(chains.len()),
                plural(carried)
            ),
        });
    }
    if changed {
        ir::delete_dead(f);
    }
    (changed, remarks)
}

/// The cycles per iteration loop block `h`'s operations need on the
/// machine's units (without the instructions in `without`): for each set
/// of units, the busy cycles of the operations that run on them over how
/// many there are. An estimate of the backend's ResMII at the IR level.
fn resource_bound(caps: &Caps, h: LLVMBasicBlockRef, without: &[LLVMValueRef]) -> f64 {
    let mut busy: HashMap<Vec<UnitId>, u32> = HashMap::new();
    let mut memo = HashMap::new();
    for i in ir::instructions(h) {
        if without.contains(&i) || address_only(i, &mut memo, 8) {
            continue;
        }
        if let Some((units, b)) = units_of(caps, i) {
            *busy.entry(units).or_insert(0) += b;
        }
    }
    busy.iter()
        .map(|(units, b)| {
            let n: u32 = units.iter().map(|u| caps.m.units[u.0 as usize].count).sum();
            f64::from(*b) / f64::from(n.max(1))
        })
        .fold(0.0, f64::max)
}

/// Whether integer arithmetic `i` only feeds addresses (the backend's loop
/// strength reduction makes those pointer increments).
fn address_only(i: LLVMValueRef, memo: &mut HashMap<LLVMValueRef, bool>, depth: u32) -> bool {
    if let Some(&a) = memo.get(&i) {
        return a;
    }
    let arith = matches!(ir::opcode_of(i), Some(O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl | O::LLVMSExt | O::LLVMOr));
    let users = ir::users(i);
    let a = arith
        && depth > 0
        && !users.is_empty()
        && users.iter().all(|&u| ir::opcode_of(u) == Some(O::LLVMGetElementPtr) || address_only(u, memo, depth - 1));
    memo.insert(i, a);
    a
}

/// The units (alternatives) and busy cycles of the machine's instruction
/// for operation `i`: loads, stores, multiplies (with an addition of their
/// only use fused into a multiply-add), additions and subtractions; `None`
/// for what the estimate leaves out.
fn units_of(caps: &Caps, i: LLVMValueRef) -> Option<(Vec<UnitId>, u32)> {
    let value_ty = |v: LLVMValueRef| unsafe { LLVMTypeOf(v) };
    let (ops, ty): (&[SemOp], LLVMTypeRef) = match ir::opcode_of(i)? {
        O::LLVMLoad => (&[SemOp::Load, SemOp::VLoadU, SemOp::VLoad], value_ty(i)),
        O::LLVMStore => (&[SemOp::Store, SemOp::VStoreU, SemOp::VStore], value_ty(unsafe { LLVMGetOperand(i, 0) })),
        O::LLVMCall => match ir::called_intrinsic(i)? {
            n if n.starts_with("llvm.masked.load.") => (&[SemOp::VLoadM], value_ty(i)),
            n if n.starts_with("llvm.masked.store.") => (&[SemOp::VStoreM], value_ty(ir::arg(i, 0))),
            n if n.starts_with("llvm.fmuladd.") || n.starts_with("llvm.fma.") => (&[SemOp::Mac, SemOp::Mul], value_ty(i)),
            _ => return None,
        },
        O::LLVMMul | O::LLVMFMul => (&[SemOp::Mac, SemOp::Mul], value_ty(i)),
        O::LLVMAdd | O::LLVMSub | O::LLVMFAdd | O::LLVMFSub => {
            // An addition of a product used only here: one multiply-add.
            let fused = (0..2).any(|k| {
                let o = unsafe { LLVMGetOperand(i, k) };
                matches!(ir::opcode_of(o), Some(O::LLVMMul | O::LLVMFMul)) && ir::users(o).len() == 1
            });
            if fused {
                return None;
            }
            (&[SemOp::Add, SemOp::Sub], value_ty(i))
        }
        _ => return None,
    };
    let file = caps.file_of(ir::shape(ty)?)?;
    let m = caps.m;
    ops.iter().find_map(|&op| {
        m.instrs.iter().find(|x| x.sem.op == op && x.operands.iter().any(|o| o.kind == OperandKind::Reg(file))).map(|x| (x.units.clone(), x.busy.max(1)))
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `i`'s pointer, mask and pass-through (null for a plain load) when it is
/// a plain or masked load that may be reused.
fn is_load(i: LLVMValueRef) -> Option<(LLVMValueRef, LLVMValueRef, LLVMValueRef)> {
    unsafe {
        match ir::opcode_of(i)? {
            O::LLVMLoad => (LLVMGetVolatile(i) == 0 && LLVMGetOrdering(i) == inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic)
                .then(|| (LLVMGetOperand(i, 0), std::ptr::null_mut(), std::ptr::null_mut())),
            O::LLVMCall if ir::called_intrinsic(i).is_some_and(|n| n.starts_with("llvm.masked.load.")) => {
                Some((ir::arg(i, 0), ir::arg(i, 2), ir::arg(i, 3)))
            }
            _ => None,
        }
    }
}

/// The chains of loop block `h` with counter `iv`.
fn chains(m: LLVMModuleRef, h: LLVMBasicBlockRef, iv: LLVMValueRef) -> Result<Vec<Chain>, String> {
    let inside = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && LLVMGetInstructionParent(v) == h };
    let atom = |v: LLVMValueRef| v == iv || !inside(v);
    let ptr_bits = unsafe { inkwell::llvm_sys::target::LLVMPointerSize(inkwell::llvm_sys::target::LLVMGetModuleDataLayout(m)) * 8 };
    let mut loads = Vec::new();
    let mut stored = Vec::new();
    for i in ir::instructions(h) {
        if let Some((p, mask, pass)) = is_load(i) {
            let invariant = |v: LLVMValueRef| v.is_null() || !inside(v);
            if !(invariant(mask) && invariant(pass) && narrow_sext_free(p, h, ptr_bits, 16)) {
                continue;
            }
            let (base, off) = addr::address(m, p, &atom);
            let Some(off) = off.filter(|_| !inside(base)) else { continue };
            let (stride, rest) = off.split(iv);
            if stride.as_const() == Some(0) || stride.mentions(|v| v == iv) {
                continue;
            }
            let ty = unsafe { LLVMTypeOf(i) };
            loads.push(Load { inst: i, key: (base, ty, mask, pass), stride, rest });
            continue;
        }
        match ir::opcode(i) {
            O::LLVMStore => stored.push(addr::address(m, unsafe { LLVMGetOperand(i, 1) }, &atom).0),
            O::LLVMCall => {
                // Other calls: functions that touch no memory, and intrinsics
                // that at most read it (by the `memory` attribute LLVM gives
                // every intrinsic's declaration: masked loads, fmuladd, …).
                let name = ir::called_intrinsic(i);
                if name.as_deref().is_some_and(|n| n.starts_with("llvm.masked.store.")) {
                    stored.push(addr::address(m, ir::arg(i, 1), &atom).0);
                } else if !(crate::wfv::attrs::is_pure_call(i) || (name.is_some() && crate::wfv::outer::only_reads(i))) {
                    return Err(format!("the loop calls '{}', which may write memory", ir::value_name(unsafe { LLVMGetCalledValue(i) })));
                }
            }
            O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMFence => return Err("the loop has atomic operations or fences".into()),
            _ => {}
        }
    }
    let mut out = Vec::new();
    let mut used = vec![false; loads.len()];
    let mut budget = MAX_CARRIED;
    for a in 0..loads.len() {
        if used[a] {
            continue;
        }
        used[a] = true;
        let la = &loads[a];
        // Stores through anything but another identified object (a global,
        // an alloca, a `restrict` argument) may reach this one.
        if stored.iter().any(|&s| s == la.key.0 || !(ir::identified_object(s) && ir::identified_object(la.key.0))) {
            continue;
        }
        // Distances from `a`: `b` reads at iteration n what `a` reads at n + k.
        let mut members: Vec<(i64, LLVMValueRef)> = vec![(0, la.inst)];
        for b in a + 1..loads.len() {
            let lb = &loads[b];
            if used[b] || lb.key != la.key || lb.stride != la.stride {
                continue;
            }
            let Some(k) = lb.rest.add(&la.rest, -1).multiple_of(&la.stride) else { continue };
            used[b] = true;
            members.push((k, lb.inst));
        }
        members.sort_by_key(|&(k, _)| k);
        let (lo, hi) = (members[0].0, members[members.len() - 1].0);
        let contiguous = members.windows(2).all(|w| w[1].0 == w[0].0 + 1);
        let carried = members.len() - 1;
        if members.len() < 2 || !contiguous || hi - lo > MAX_DISTANCE || carried > budget {
            continue;
        }
        budget -= carried;
        out.push(Chain { loads: members.into_iter().map(|(_, i)| i).collect() });
    }
    Ok(out)
}

/// Whether the address `v` is computed in loop block `h` without sign
/// extensions from types narrower than pointers (looked at `depth` deep).
fn narrow_sext_free(v: LLVMValueRef, h: LLVMBasicBlockRef, ptr_bits: u32, depth: u32) -> bool {
    unsafe {
        if LLVMIsAInstruction(v).is_null() || LLVMGetInstructionParent(v) != h {
            return true;
        }
        if depth == 0 {
            return false;
        }
        match ir::opcode(v) {
            O::LLVMSExt => {
                let from = LLVMTypeOf(LLVMGetOperand(v, 0));
                LLVMGetTypeKind(from) == inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind && LLVMGetIntTypeWidth(from) >= ptr_bits && narrow_sext_free(LLVMGetOperand(v, 0), h, ptr_bits, depth - 1)
            }
            O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl | O::LLVMGetElementPtr | O::LLVMOr => {
                (0..LLVMGetNumOperands(v) as u32).all(|k| narrow_sext_free(LLVMGetOperand(v, k), h, ptr_bits, depth - 1))
            }
            _ => true,
        }
    }
}

/// Replaces the loads of `ch` behind its leader by values carried around
/// loop block `h` (entered from `pre`, counter `iv` starting at `start`):
/// a phi per iteration of distance up to the farthest load still used,
/// those no longer used ([`carry_sums`]) deleted. Returns the loads
/// removed and the values carried.
fn rewrite(h: LLVMBasicBlockRef, pre: LLVMBasicBlockRef, iv: LLVMValueRef, start: LLVMValueRef, ch: &Chain, memo: &mut HashMap<LLVMValueRef, LLVMValueRef>) -> (usize, usize) {
    let n = ch.loads.len();
    let leader = ch.loads[n - 1];
    let used = |v: LLVMValueRef| unsafe { !LLVMGetFirstUse(v).is_null() };
    // The farthest distance still read.
    let far = (0..n - 1).filter(|&j| used(ch.loads[j])).map(|j| n - 1 - j).max().unwrap_or(0);
    let term = unsafe { LLVMGetBasicBlockTerminator(pre) };
    let phis = phi_chain(h, pre, "pc", far, leader, |d| materialize(ch.loads[n - 1 - d], h, iv, start, term, memo));
    for (j, &load) in ch.loads[..n - 1].iter().enumerate() {
        let d = n - 1 - j;
        if used(load) {
            ir::replace(load, phis[d - 1]);
        } else {
            unsafe { LLVMInstructionEraseFromParent(load) };
        }
    }
    (n - 1, far)
}

/// Where a value of the loop body stands: loop-invariant, computed from
/// the loads of one level (iterations behind their chains' leaders) and
/// invariants only, or anything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Invariant,
    At(usize),
    Other,
}

/// The level of `v` in loop block `h` (`levels`: each chain load's).
fn level_of(v: LLVMValueRef, h: LLVMBasicBlockRef, levels: &HashMap<LLVMValueRef, usize>, memo: &mut HashMap<LLVMValueRef, Level>) -> Level {
    unsafe {
        if LLVMIsAInstruction(v).is_null() || LLVMGetInstructionParent(v) != h {
            return Level::Invariant;
        }
    }
    if let Some(&l) = levels.get(&v) {
        return Level::At(l);
    }
    if let Some(&l) = memo.get(&v) {
        return l;
    }
    let pure = matches!(
        ir::opcode(v),
        O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl | O::LLVMLShr | O::LLVMAShr | O::LLVMAnd | O::LLVMOr | O::LLVMXor
            | O::LLVMTrunc | O::LLVMZExt | O::LLVMSExt | O::LLVMBitCast | O::LLVMShuffleVector | O::LLVMExtractElement | O::LLVMInsertElement
    );
    let mut out = if pure { Level::Invariant } else { Level::Other };
    if pure {
        for k in 0..unsafe { LLVMGetNumOperands(v) } as u32 {
            let o = level_of(unsafe { LLVMGetOperand(v, k) }, h, levels, memo);
            out = match (out, o) {
                (Level::Invariant, x) | (x, Level::Invariant) => x,
                (Level::At(a), Level::At(b)) if a == b => Level::At(a),
                _ => Level::Other,
            };
        }
    }
    memo.insert(v, out);
    out
}

/// Integer sums of the loop body whose terms are computed from the chains'
/// loads of one level, reassociated by level (exact: integer addition
/// wraps), each level `l ≥ 1`'s part computed from the leaders instead
/// and carried `l` iterations: one value per iteration of distance
/// instead of one per load (a convolution's rows: the sum of a row's
/// products, not its loads). The loads left without uses are deleted by
/// [`rewrite`]. Returns the sums rewritten and the values carried.
fn carry_sums(h: LLVMBasicBlockRef, pre: LLVMBasicBlockRef, iv: LLVMValueRef, start: LLVMValueRef, chains: &[Chain], first_memo: &mut HashMap<LLVMValueRef, LLVMValueRef>) -> (usize, usize) {
    let mut levels: HashMap<LLVMValueRef, usize> = HashMap::new();
    // The load of chain c at level l: by_level[c][l].
    let mut by_level: Vec<Vec<LLVMValueRef>> = Vec::new();
    let mut chain_of: HashMap<LLVMValueRef, usize> = HashMap::new();
    for (ci, ch) in chains.iter().enumerate() {
        let n = ch.loads.len();
        for (j, &l) in ch.loads.iter().enumerate() {
            levels.insert(l, n - 1 - j);
            chain_of.insert(l, ci);
        }
        by_level.push(ch.loads.iter().rev().copied().collect());
    }
    let is_int_add = |v: LLVMValueRef| {
        ir::opcode_of(v) == Some(O::LLVMAdd) && unsafe { LLVMGetInstructionParent(v) == h }
    };
    let single_use_by_add = |v: LLVMValueRef| {
        let u = ir::users(v);
        u.len() == 1 && is_int_add(u[0]) && unsafe { LLVMTypeOf(u[0]) == LLVMTypeOf(v) }
    };
    let roots: Vec<LLVMValueRef> = ir::instructions(h).into_iter().filter(|&i| is_int_add(i) && !single_use_by_add(i)).collect();
    let term = unsafe { LLVMGetBasicBlockTerminator(h) };
    let pre_term = unsafe { LLVMGetBasicBlockTerminator(pre) };
    let (mut rewritten, mut carried) = (0, 0);
    let mut memo = HashMap::new();
    for root in roots {
        // The tree's terms.
        let mut leaves = Vec::new();
        let mut stack = vec![root];
        while let Some(a) = stack.pop() {
            for k in 0..2 {
                let o = unsafe { LLVMGetOperand(a, k) };
                if is_int_add(o) && single_use_by_add(o) {
                    stack.push(o);
                } else {
                    leaves.push(o);
                }
            }
        }
        let mut per_level: Vec<Vec<LLVMValueRef>> = Vec::new();
        let mut current = Vec::new();
        for &t in &leaves {
            match level_of(t, h, &levels, &mut memo) {
                Level::At(l) if l >= 1 => {
                    if per_level.len() <= l {
                        per_level.resize(l + 1, Vec::new());
                    }
                    per_level[l].push(t);
                }
                _ => current.push(t),
            }
        }
        let far = per_level.len().saturating_sub(1);
        if far == 0 || carried + far * (far + 1) / 2 > MAX_CARRIED {
            continue;
        }
        let mut parts = current;
        for (l, terms) in per_level.iter().enumerate().skip(1) {
            if terms.is_empty() {
                continue;
            }
            // The part at level l, from the leaders (end of the body) and,
            // for the phis' entry values, from the loads at level d ≤ l of
            // the first iteration (before the loop).
            let mut at_level = |d: usize, before: LLVMValueRef, first: bool| -> LLVMValueRef {
                let mut memo = HashMap::new();
                let sums: Vec<LLVMValueRef> = terms
                    .iter()
                    .map(|&t| {
                        clone_tree(t, h, before, true, &mut memo, &mut |x| {
                            let load = by_level[*chain_of.get(&x)?][d];
                            Some(if first { materialize(load, h, iv, start, before, first_memo) } else { load })
                        })
                    })
                    .collect();
                sum(&sums, before)
            };
            let now = at_level(0, term, false);
            let phis = phi_chain(h, pre, "pc.sum", l, now, |d| at_level(d, pre_term, true));
            parts.push(phis[l - 1]);
            carried += l;
        }
        let new_root = sum(&parts, root);
        ir::replace(root, new_root);
        rewritten += 1;
        // Erased instructions' addresses may come back as new ones.
        memo.clear();
    }
    (rewritten, carried)
}

/// `vs` added up before `at` (no wrap flags: the order is new).
fn sum(vs: &[LLVMValueRef], at: LLVMValueRef) -> LLVMValueRef {
    let b = ir::Builder::before(at);
    let mut acc = vs[0];
    for &v in &vs[1..] {
        acc = b.add(acc, v);
    }
    acc
}

/// `n` phis at the top of loop block `h` (entered from `pre`) carrying
/// `latch` back: `phis[d - 1]` holds what `latch` was `d` iterations
/// before, entering the loop with `init(d)`.
fn phi_chain(h: LLVMBasicBlockRef, pre: LLVMBasicBlockRef, name: &str, n: usize, latch: LLVMValueRef, mut init: impl FnMut(usize) -> LLVMValueRef) -> Vec<LLVMValueRef> {
    let ty = unsafe { LLVMTypeOf(latch) };
    let phis: Vec<LLVMValueRef> = (1..=n)
        .map(|d| {
            let b = ir::Builder::at_start(h);
            let name = std::ffi::CString::new(format!("{name}.{d}")).unwrap_or_default();
            unsafe { LLVMBuildPhi(b.raw(), ty, name.as_ptr()) }
        })
        .collect();
    for d in 1..=n {
        let entry = init(d);
        let from_latch = if d == 1 { latch } else { phis[d - 2] };
        ir::add_incoming(phis[d - 1], &[(entry, pre), (from_latch, h)]);
    }
    phis
}

/// A copy of `v` of loop block `h`, and of what it depends on in `h`,
/// inserted before `at`, with the values `leaf` gives a replacement for
/// replaced (copies memoized in `memo`). With `drop_wrap`, the copies'
/// additions, subtractions, multiplications and shifts lose their
/// no-wrap flags (they compute in an order or an iteration the original
/// did not).
fn clone_tree(
    v: LLVMValueRef,
    h: LLVMBasicBlockRef,
    at: LLVMValueRef,
    drop_wrap: bool,
    memo: &mut HashMap<LLVMValueRef, LLVMValueRef>,
    leaf: &mut dyn FnMut(LLVMValueRef) -> Option<LLVMValueRef>,
) -> LLVMValueRef {
    if let Some(&c) = memo.get(&v) {
        return c;
    }
    if let Some(x) = leaf(v) {
        memo.insert(v, x);
        return x;
    }
    unsafe {
        if LLVMIsAInstruction(v).is_null() || LLVMGetInstructionParent(v) != h {
            return v;
        }
        let ops: Vec<LLVMValueRef> = (0..LLVMGetNumOperands(v) as u32).map(|k| LLVMGetOperand(v, k)).collect();
        let new_ops: Vec<LLVMValueRef> = ops.iter().map(|&o| clone_tree(o, h, at, drop_wrap, memo, leaf)).collect();
        let c = LLVMInstructionClone(v);
        for (k, o) in new_ops.into_iter().enumerate() {
            LLVMSetOperand(c, k as u32, o);
        }
        if drop_wrap && matches!(ir::opcode(c), O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl) {
            LLVMSetNSW(c, 0);
            LLVMSetNUW(c, 0);
        }
        let b = ir::Builder::before(at);
        LLVMInsertIntoBuilder(b.raw(), c);
        memo.insert(v, c);
        c
    }
}

/// The objects the chains load from, quoted, for the remarks.
fn chain_objects(m: LLVMModuleRef, chains: &[Chain]) -> String {
    let mut objects: Vec<String> = Vec::new();
    for ch in chains {
        let at = *ch.loads.last().expect("a chain has loads");
        let base = addr::address(m, is_load(at).expect("a load").0, &|_| true).0;
        let name = ir::value_name(base);
        let name = if name.is_empty() { "an argument".to_string() } else { format!("'{name}'") };
        if !objects.contains(&name) {
            objects.push(name);
        }
    }
    objects.join(", ")
}

/// `v` of loop block `h` as it is in the first iteration (`iv` = `start`),
/// computed before `term` (the preheader's terminator). `v` and what it
/// depends on in `h` are pure arithmetic, address computations and the
/// load itself (the chains' addresses are polynomials in `iv`).
fn materialize(v: LLVMValueRef, h: LLVMBasicBlockRef, iv: LLVMValueRef, start: LLVMValueRef, term: LLVMValueRef, memo: &mut HashMap<LLVMValueRef, LLVMValueRef>) -> LLVMValueRef {
    clone_tree(v, h, term, false, memo, &mut |x| (x == iv).then_some(start))
}

#[cfg(test)]
#[path = "predcom_tests.rs"]
mod tests;
