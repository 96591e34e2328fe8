//! `dsp-bitrev-vec`: the swaps of a bit-reversal permutation on the vector
//! unit, with gathers and scatters.
//!
//! After `dsp-reverse-carry` (see [`crate::revcarry`]), the Gold–Rader bit
//! reversal of an FFT is one scalar loop,
//!
//! ```c
//! for (i = 1, j = 0; i < n; i++) {
//!     j = next(j);                      /* the carry's closed form over M */
//!     if (i < j) { t = x[i]; x[i] = x[j]; x[j] = t; }   /* per array */
//! }
//! ```
//!
//! whose four memory accesses per array and iteration bind it to the scalar
//! load/store unit. With `M = 2^L − 1` the walked bits, `j` after `i`
//! updates is `brev_L(i)`, the low `L` bits of `i` reversed (`j` starts at 0
//! = `brev_L(0)`, and each update is the reverse-order increment). `brev_L`
//! is an involution on `[0, 2^L)`, so while every `i < 2^L` the swaps touch
//! disjoint pairs `{i, brev_L(i)}` (each pair swapped once, by its smaller
//! member), and the iterations are independent: they may run in any order
//! and side by side. Lanes `i0 … i0 + V − 1` (`i0` a multiple of the lane
//! count `V`) have `j = brev_L(i0) | brev_L(lane)`: the scalar `R =
//! brev_L(i0)` steps by the same closed form over `M >> log2 V` (the
//! reverse-order increment of bit `log2 V`), and `brev_L(lane)` is a
//! constant vector shifted right by `ctlz(M)`. A vector step loads `x[i…]`
//! under the mask `i < n && i < j` (lane 0 of the first step, `i = 0`, is
//! off since `brev_L(0) = 0`), gathers `x[j]` under it, stores the
//! gathered values at `x[i…]` and scatters the loaded ones to `x[j]`; the
//! stored and scattered elements are disjoint (a pair's smaller member is
//! never another pair's larger one).
//!
//! The loop matched is the versioned one `dsp-reverse-carry` makes (or any
//! of its shape): a header with the counter `i` (from 1, step 1) and `j`
//! (from 0, stepped by the closed form), `i < j` branching to a block of
//! swaps (`t = x[i]; x[i] = x[j]; x[j] = t` for 32-bit elements of
//! distinct identified arrays: `restrict` arguments, globals, allocas) and
//! nothing else, and a latch leaving at `i + 1 == n` with nothing of the
//! loop used after it. The vector loop runs when `2 ≤ n ≤ M + 1` (every
//! `i < 2^L`); the scalar loop otherwise. The machine needs 32-bit gathers,
//! scatters and masked vector loads and stores (asked of its `.isa`).

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O};
use isa_tablegen::{SemOp, Ty};

use crate::caps::Caps;
use crate::cfg::{Cfg, Loop};
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// Runs the pass on every function of `m` (remarks of pass `bitrev-vec`).
pub fn run(m: LLVMModuleRef, caps: &Caps) -> (bool, Vec<Remark>) {
    crate::wfv::per_function(m, |f| run_function(f, caps))
}

/// Runs the pass on one function: every loop whose counter steps by the
/// carry's closed form is tried and remarked on.
pub fn run_function(f: LLVMValueRef, caps: &Caps) -> (bool, Vec<Remark>) {
    let mut changed = false;
    let mut remarks = Vec::new();
    let mut tried: Vec<LLVMBasicBlockRef> = Vec::new();
    loop {
        let cfg = Cfg::new(f);
        let loops = cfg.loops();
        let next = loops.iter().find_map(|l| {
            let h = cfg.blocks[l.header];
            (!tried.contains(&h)).then(|| carried_closed_form(&cfg, l).map(|c| (l, c))).flatten()
        });
        let Some((l, (j, walked))) = next else { break };
        let h = cfg.blocks[l.header];
        tried.push(h);
        let at = unsafe { LLVMGetBasicBlockTerminator(h) };
        match permutation(&cfg, l, j, walked).and_then(|p| {
            let lanes = lanes(caps)?;
            let body = unsafe { vectorize(f, &cfg, l, &p, lanes) };
            tried.push(body);
            Ok(lanes)
        }) {
            Ok(lanes) => {
                changed = true;
                remarks.push(Remark {
                    kind: RemarkKind::Passed,
                    at,
                    name: "BitReversalVectorized",
                    msg: format!("bit-reversal permutation's swaps vectorized: {lanes} indices per step, gathers and scatters under a mask"),
                });
            }
            Err(why) => remarks.push(Remark { kind: RemarkKind::Missed, at, name: "BitReversalNotVectorized", msg: format!("bit-reversal permutation not vectorized: {why}") }),
        }
    }
    (changed, remarks)
}

/// The lane count of 32-bit vectors, when the machine has what the vector
/// loop needs.
fn lanes(caps: &Caps) -> Result<u32, String> {
    let lanes = caps.m.vector_lanes(32).filter(|l| l.is_power_of_two() && *l >= 2).ok_or("the machine has no vector of 32-bit lanes")?;
    for (op, what) in [(SemOp::Gather, "gather"), (SemOp::Scatter, "scatter"), (SemOp::VLoadM, "masked vector load"), (SemOp::VStoreM, "masked vector store")] {
        if !caps.has_any(op, Ty::I32) {
            return Err(format!("the machine has no 32-bit {what}"));
        }
    }
    Ok(lanes)
}

fn op(v: LLVMValueRef, k: u32) -> LLVMValueRef {
    unsafe { LLVMGetOperand(v, k) }
}

/// The other operand when `v` is `opc(a, y)` or `opc(y, a)`.
fn binary(v: LLVMValueRef, opc: O, a: LLVMValueRef) -> Option<LLVMValueRef> {
    if ir::opcode_of(v) != Some(opc) {
        return None;
    }
    if op(v, 0) == a {
        Some(op(v, 1))
    } else if op(v, 1) == a {
        Some(op(v, 0))
    } else {
        None
    }
}

/// The header phi `j` whose next value (from the latch) is the closed form
/// of [`crate::revcarry`] over the walked bits `M`, and `M`.
fn carried_closed_form(cfg: &Cfg, l: &Loop) -> Option<(LLVMValueRef, LLVMValueRef)> {
    let [latch] = l.latches[..] else { return None };
    let (h, x) = (cfg.blocks[l.header], cfg.blocks[latch]);
    ir::instructions(h).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).find_map(|phi| {
        closed_form_of(ir::incoming_from(phi, x)?, phi).map(|m| (phi, m))
    })
}

/// `M` when `next` is `a ^ (SMAX >> ctlz((a & M) | 1))` with `a = j ^ M`.
fn closed_form_of(next: LLVMValueRef, j: LLVMValueRef) -> Option<LLVMValueRef> {
    if ir::opcode_of(next) != Some(O::LLVMXor) {
        return None;
    }
    for (a, below) in [(op(next, 0), op(next, 1)), (op(next, 1), op(next, 0))] {
        let Some(m) = binary(a, O::LLVMXor, j) else { continue };
        if ir::opcode_of(below) != Some(O::LLVMLShr) {
            continue;
        }
        let bits = unsafe { LLVMGetIntTypeWidth(LLVMTypeOf(j)) };
        if ir::const_u64(op(below, 0)) != Some(ir::low_mask(bits - 1)) {
            continue;
        }
        let lz = op(below, 1);
        if !ir::called_intrinsic(lz).is_some_and(|n| n.starts_with("llvm.ctlz")) {
            continue;
        }
        let z = ir::arg(lz, 0);
        if ir::opcode_of(z) != Some(O::LLVMOr) {
            continue;
        }
        let masked = match (ir::const_u64(op(z, 0)), ir::const_u64(op(z, 1))) {
            (_, Some(1)) => op(z, 0),
            (Some(1), _) => op(z, 1),
            _ => continue,
        };
        if binary(masked, O::LLVMAnd, a) == Some(m) {
            return Some(m);
        }
    }
    None
}

/// The integer compare a conditional branch `term` tests.
fn conditional_compare(term: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        if term.is_null() || LLVMIsABranchInst(term).is_null() || LLVMIsConditional(term) == 0 {
            return None;
        }
        let c = LLVMGetCondition(term);
        (ir::opcode_of(c) == Some(O::LLVMICmp)).then_some(c)
    }
}

/// One array's swap: `t = x[i]; x[i] = x[j]; x[j] = t`.
struct Swap {
    base: LLVMValueRef,
    elem: LLVMTypeRef,
    align: u32,
}

/// The matched permutation loop.
struct Permutation {
    pre: usize,
    exit: usize,
    /// `n`: the loop leaves when `i + 1 == n`.
    n: LLVMValueRef,
    walked: LLVMValueRef,
    swaps: Vec<Swap>,
}

/// Matches the permutation loop around the counter `j` (see the module
/// documentation), or says why it is not one.
fn permutation(cfg: &Cfg, l: &Loop, j: LLVMValueRef, walked: LLVMValueRef) -> Result<Permutation, String> {
    let [latch] = l.latches[..] else { return Err("the loop has more than one latch".into()) };
    let (h, x) = (cfg.blocks[l.header], cfg.blocks[latch]);
    let members: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| l.contains(b)).collect();
    let outside: Vec<usize> = cfg.preds[l.header].iter().copied().filter(|&p| !l.contains(p)).collect();
    let [pre] = outside[..] else { return Err("the loop has no preheader".into()) };
    let exits: Vec<usize> = cfg.succs[latch].iter().copied().filter(|&s| !l.contains(s)).collect();
    let [exit] = exits[..] else { return Err("the loop does not leave from its latch to one exit".into()) };
    if members.iter().any(|&b| b != latch && cfg.succs[b].iter().any(|&s| !l.contains(s))) {
        return Err("the loop leaves from more than its latch".into());
    }
    let inside = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && cfg.index.get(&LLVMGetInstructionParent(v)).is_some_and(|&b| l.contains(b)) };
    if inside(walked) {
        return Err("the walked bits change in the loop".into());
    }
    let incoming = ir::incoming_from;
    let (pre_b, exit_b) = (cfg.blocks[pre], cfg.blocks[exit]);
    // The counters: j from 0, i from 1 by 1.
    if incoming(j, pre_b).and_then(ir::const_u64) != Some(0) {
        return Err("the bit-reversed counter does not start at 0".into());
    }
    let phis: Vec<LLVMValueRef> = ir::instructions(h).into_iter().filter(|&v| ir::opcode(v) == O::LLVMPHI).collect();
    let [i] = phis.iter().copied().filter(|&p| p != j).collect::<Vec<_>>()[..] else { return Err("the loop carries more than two values".into()) };
    if unsafe { LLVMGetIntTypeWidth(LLVMTypeOf(i)) } != 32 || unsafe { LLVMGetIntTypeWidth(LLVMTypeOf(j)) } != 32 {
        return Err("the counters are not 32-bit".into());
    }
    if incoming(i, pre_b).and_then(ir::const_u64) != Some(1) {
        return Err("the counter does not start at 1".into());
    }
    let jn = incoming(j, x).ok_or("no next counter")?;
    let inext = incoming(i, x).ok_or("no next counter")?;
    if binary(inext, O::LLVMAdd, i).and_then(ir::const_u64) != Some(1) {
        return Err("the counter does not step by 1".into());
    }
    // The latch: i + 1 == n leaves.
    let xterm = unsafe { LLVMGetBasicBlockTerminator(x) };
    let xcond = conditional_compare(xterm).ok_or("the latch's branch is not on an integer compare")?;
    let leaves_on_true = unsafe { LLVMGetSuccessor(xterm, 0) } == exit_b;
    let n = match (unsafe { LLVMGetICmpPredicate(xcond) }, leaves_on_true) {
        (P::LLVMIntEQ, true) | (P::LLVMIntNE, false) => binary(xcond, O::LLVMICmp, inext),
        (P::LLVMIntSLT, false) if op(xcond, 0) == inext => Some(op(xcond, 1)),
        _ => None,
    }
    .filter(|&n| !inside(n))
    .ok_or("the loop does not leave at an invariant count")?;
    // The header (and the blocks it falls into alone, as the clone of
    // dsp-reverse-carry has them before simplifycfg): i < j' to the swaps,
    // else the latch.
    let mut head = vec![l.header];
    loop {
        let last = *head.last().unwrap_or(&l.header);
        match cfg.succs[last][..] {
            [next] if next != latch && l.contains(next) && cfg.preds[next] == [last] && !head.contains(&next) => head.push(next),
            _ => break,
        }
    }
    let test = cfg.blocks[*head.last().unwrap_or(&l.header)];
    let hterm = unsafe { LLVMGetBasicBlockTerminator(test) };
    let hcond = conditional_compare(hterm).ok_or("the swaps are not under a compare of the counters")?;
    let (s0, s1) = unsafe { (LLVMGetSuccessor(hterm, 0), LLVMGetSuccessor(hterm, 1)) };
    let (a, b) = (op(hcond, 0), op(hcond, 1));
    let swap_b = match unsafe { LLVMGetICmpPredicate(hcond) } {
        P::LLVMIntSLT if (a, b) == (i, jn) && s1 == x => s0,
        P::LLVMIntSGT if (a, b) == (jn, i) && s1 == x => s0,
        P::LLVMIntSGE if (a, b) == (i, jn) && s0 == x => s1,
        P::LLVMIntSLE if (a, b) == (jn, i) && s0 == x => s1,
        _ => return Err("the swaps are not under i < j".into()),
    };
    let s = cfg.index[&swap_b];
    if members.len() != head.len() + 2 || !l.contains(s) || cfg.preds[s] != [cfg.index[&test]] || cfg.succs[s] != [latch] {
        return Err("the loop is not a header, a block of swaps and a latch".into());
    }
    // Every instruction is the counters', the closed form's or a swap's.
    let mut known: Vec<LLVMValueRef> = vec![i, j, inext, xcond, xterm, hcond, hterm];
    known.extend(head.iter().map(|&b| unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[b]) }));
    let mut chain = vec![jn];
    while let Some(v) = chain.pop() {
        if inside(v) && !known.contains(&v) && v != j {
            known.push(v);
            chain.extend((0..unsafe { LLVMGetNumOperands(v) } as u32).map(|k| op(v, k)));
        }
    }
    let swaps = swaps(cfg.blocks[s], i, jn, &mut known)?;
    for bb in head.iter().chain([&latch, &s]).map(|&b| cfg.blocks[b]) {
        for v in ir::instructions(bb) {
            if !known.contains(&v) && !ir::is_debug(v) {
                return Err(format!("the loop does more ('{}')", ir::value_name(v)));
            }
            if ir::users(v).iter().any(|&u| !inside(u)) {
                return Err("a value of the loop is used after it".into());
            }
        }
    }
    for (k, sw) in swaps.iter().enumerate() {
        if swaps[..k].iter().any(|o| o.base == sw.base || crate::addr::may_alias(o.base, sw.base)) {
            return Err("two swapped arrays may overlap".into());
        }
        if inside(sw.base) {
            return Err("a swapped array's address changes in the loop".into());
        }
    }
    Ok(Permutation { pre, exit, n, walked, swaps })
}

/// The swaps of block `s`: per array, `x[i]` and `x[j]` loaded, then each
/// stored at the other's place (32-bit elements, plain accesses).
fn swaps(s: LLVMBasicBlockRef, i: LLVMValueRef, j: LLVMValueRef, known: &mut Vec<LLVMValueRef>) -> Result<Vec<Swap>, String> {
    let insts = ir::instructions(s);
    // `gep T, base, k` or, into an array object, `gep [N x T], base, 0, k`.
    let gep_of = |p: LLVMValueRef| -> Option<(LLVMValueRef, LLVMValueRef, LLVMTypeRef)> {
        unsafe {
            if LLVMIsAGetElementPtrInst(p).is_null() {
                return None;
            }
            let ty = LLVMGetGEPSourceElementType(p);
            match LLVMGetNumOperands(p) {
                2 => Some((op(p, 0), op(p, 1), ty)),
                3 if LLVMGetTypeKind(ty) == inkwell::llvm_sys::LLVMTypeKind::LLVMArrayTypeKind && ir::const_u64(op(p, 1)) == Some(0) => {
                    Some((op(p, 0), op(p, 2), LLVMGetElementType(ty)))
                }
                _ => None,
            }
        }
    };
    let mut out = Vec::new();
    for &ld in insts.iter().filter(|&&v| ir::opcode(v) == O::LLVMLoad) {
        let Some((base, idx, ty)) = gep_of(op(ld, 0)) else { return Err("a load is not of an array element".into()) };
        if idx != i {
            continue;
        }
        let fail = || format!("the block under i < j is not swaps of x[i] and x[j] ('{}')", ir::value_name(ld));
        let elem = unsafe { LLVMTypeOf(ld) };
        let four = unsafe { matches!(LLVMGetTypeKind(elem), inkwell::llvm_sys::LLVMTypeKind::LLVMFloatTypeKind) || (LLVMGetTypeKind(elem) == inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind && LLVMGetIntTypeWidth(elem) == 32) };
        if !four || ty != elem {
            return Err("a swapped element is not a 32-bit value".into());
        }
        let (gi, gj_load) = (op(ld, 0), insts.iter().copied().find(|&v| ir::opcode(v) == O::LLVMLoad && gep_of(op(v, 0)).is_some_and(|(b, k, t)| b == base && k == j && t == ty)));
        let lj = gj_load.ok_or_else(fail)?;
        let gj = op(lj, 0);
        // store x[j] at x[i], x[i] at x[j], after both loads.
        let pos = |v: LLVMValueRef| insts.iter().position(|&w| w == v).unwrap_or(usize::MAX);
        let store = |val: LLVMValueRef, at: LLVMValueRef| insts.iter().copied().find(|&v| ir::opcode(v) == O::LLVMStore && op(v, 0) == val && op(v, 1) == at);
        let (Some(si), Some(sj)) = (store(lj, gi), store(ld, gj)) else { return Err(fail()) };
        if pos(si).min(pos(sj)) < pos(ld).max(pos(lj)) {
            return Err(fail());
        }
        for v in [ld, lj, si, sj] {
            if unsafe { LLVMGetVolatile(v) } != 0 || unsafe { LLVMGetOrdering(v) } != inkwell::llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
                return Err("a swap is volatile or atomic".into());
            }
        }
        // Every other use of the loaded values and addresses is outside the swap.
        if ir::users(ld) != [sj] || ir::users(lj) != [si] || ir::users(gi).len() != 2 || ir::users(gj).len() != 2 {
            return Err(fail());
        }
        let align = unsafe { LLVMGetAlignment(ld).min(LLVMGetAlignment(lj)) };
        known.extend([gi, gj, ld, lj, si, sj]);
        out.push(Swap { base, elem, align });
    }
    known.push(unsafe { LLVMGetBasicBlockTerminator(s) });
    if out.is_empty() {
        return Err("nothing is swapped under i < j".into());
    }
    Ok(out)
}

/// `brev32(k)` for each lane `k`: the lanes' reversed indices before the
/// shift down to `L` bits.
fn reversed_lanes(lanes: u32) -> Vec<u64> {
    (0..lanes).map(|k| u64::from(k.reverse_bits())).collect()
}

/// Builds the vector loop in front of the scalar one and the test between
/// them (see the module documentation); returns the vector loop's block.
unsafe fn vectorize(f: LLVMValueRef, cfg: &Cfg, l: &Loop, p: &Permutation, lanes: u32) -> LLVMBasicBlockRef {
    let ctx = LLVMGetTypeContext(LLVMTypeOf(f));
    let module = LLVMGetGlobalParent(f);
    let i32t = LLVMInt32TypeInContext(ctx);
    let vt = LLVMVectorType(i32t, lanes);
    let (h, pre, exit) = (cfg.blocks[l.header], cfg.blocks[p.pre], cfg.blocks[p.exit]);
    let name = |s: &str| std::ffi::CString::new(format!("{}.{s}", crate::loops::block_name(h))).unwrap_or_default();
    let guard = LLVMInsertBasicBlockInContext(ctx, h, name("bitrev.guard").as_ptr());
    let body = LLVMInsertBasicBlockInContext(ctx, h, name("bitrev.vec").as_ptr());
    ir::redirect(pre, h, guard);
    for phi in ir::instructions(h).into_iter().filter(|&v| ir::opcode(v) == O::LLVMPHI) {
        let entries: Vec<(LLVMValueRef, LLVMBasicBlockRef)> = (0..LLVMCountIncoming(phi))
            .map(|q| {
                let from = LLVMGetIncomingBlock(phi, q);
                (LLVMGetIncomingValue(phi, q), if from == pre { guard } else { from })
            })
            .collect();
        ir::rebuild_phi(phi, &entries);
    }
    let k = |v: u64| ir::const_int(i32t, v);
    let konst = |vals: &[u64]| {
        let mut c: Vec<LLVMValueRef> = vals.iter().map(|&v| k(v)).collect();
        LLVMConstVector(c.as_mut_ptr(), c.len() as u32)
    };
    // The guard: 2 <= n <= M + 1, and what the vector loop needs.
    let g = ir::Builder::at_end(guard);
    let splat = |b: &ir::Builder, x: LLVMValueRef| {
        let ins = LLVMBuildInsertElement(b.raw(), LLVMGetPoison(vt), x, k(0), c"".as_ptr());
        LLVMBuildShuffleVector(b.raw(), ins, LLVMGetPoison(vt), LLVMConstNull(vt), c"".as_ptr())
    };
    // (and n <= 2^31 - lanes, so that the vector counter cannot overflow).
    let big = g.icmp(P::LLVMIntSGE, p.n, k(2));
    let within = g.icmp(P::LLVMIntULE, g.add(p.n, ir::all_ones(i32t)), p.walked);
    let room = g.icmp(P::LLVMIntSLE, p.n, k((1u64 << 31) - u64::from(lanes)));
    let ok = g.and(g.and(big, within), room);
    let t = LLVMInt1TypeInContext(ctx);
    let lz = ir::build_intrinsic(module, g.raw(), "llvm.ctlz", &[i32t], &[p.walked, LLVMConstInt(t, 0, 0)]).expect("llvm.ctlz exists");
    let shift = g.select(g.icmp(P::LLVMIntUGT, lz, k(31)), k(31), lz);
    let tail = g.lshr(konst(&reversed_lanes(lanes)), splat(&g, shift));
    let walked_lanes = g.lshr(p.walked, k(u64::from(lanes.trailing_zeros())));
    let nv = splat(&g, p.n);
    let iota = konst(&(0..u64::from(lanes)).collect::<Vec<_>>());
    LLVMBuildCondBr(g.raw(), ok, body, h);
    // The vector loop.
    let b = ir::Builder::at_end(body);
    let i0 = b.phi(i32t, "bitrev.i");
    let r = b.phi(i32t, "bitrev.r");
    let iv = b.add(splat(&b, i0), iota);
    let jv = b.or(splat(&b, r), tail);
    let mask = b.and(b.icmp(P::LLVMIntSLT, iv, nv), b.icmp(P::LLVMIntSLT, iv, jv));
    let mut loaded = Vec::new();
    for sw in &p.swaps {
        let evt = LLVMVectorType(sw.elem, lanes);
        let align = k(u64::from(sw.align.max(1)));
        let mut idx = [i0];
        let at_i = LLVMBuildGEP2(b.raw(), sw.elem, sw.base, idx.as_mut_ptr(), 1, c"".as_ptr());
        let mut vidx = [jv];
        let at_j = LLVMBuildGEP2(b.raw(), sw.elem, sw.base, vidx.as_mut_ptr(), 1, c"".as_ptr());
        let xi = b.call_intrinsic(module, "llvm.masked.load", &[evt, LLVMTypeOf(at_i)], &[at_i, align, mask, LLVMGetPoison(evt)]).expect("llvm.masked.load exists");
        let xj = b.call_intrinsic(module, "llvm.masked.gather", &[evt, LLVMTypeOf(at_j)], &[at_j, align, mask, LLVMGetPoison(evt)]).expect("llvm.masked.gather exists");
        loaded.push((at_i, at_j, xi, xj, align, evt));
    }
    for &(at_i, at_j, xi, xj, align, evt) in &loaded {
        b.call_intrinsic(module, "llvm.masked.store", &[evt, LLVMTypeOf(at_i)], &[xj, at_i, align, mask]).expect("llvm.masked.store exists");
        b.call_intrinsic(module, "llvm.masked.scatter", &[evt, LLVMTypeOf(at_j)], &[xi, at_j, align, mask]).expect("llvm.masked.scatter exists");
    }
    let r_next = crate::revcarry::closed_form(&b, module, walked_lanes, r);
    let i_next = b.add(i0, k(u64::from(lanes)));
    LLVMSetNSW(i_next, 1);
    LLVMSetNUW(i_next, 1);
    let more = b.icmp(P::LLVMIntSLT, i_next, p.n);
    let back = LLVMBuildCondBr(b.raw(), more, body, exit);
    // Its iterations touch disjoint elements: no dependence from one to
    // the next (the pipeliner drops its loop-carried memory edges).
    ir::add_loop_property(back, crate::interchange::INDEPENDENT, None);
    ir::add_incoming(i0, &[(k(0), guard), (i_next, body)]);
    ir::add_incoming(r, &[(k(0), guard), (r_next, body)]);
    // The exit's phis (only invariant values come from the loop) take the
    // same from the vector loop.
    let latch = cfg.blocks[l.latches[0]];
    for phi in ir::instructions(exit).into_iter().filter(|&v| ir::opcode(v) == O::LLVMPHI) {
        if let Some(v) = ir::incoming_from(phi, latch) {
            ir::add_incoming(phi, &[(v, body)]);
        }
    }
    body
}

#[cfg(test)]
#[path = "bitrev_tests.rs"]
mod tests;
