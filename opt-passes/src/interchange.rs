//! `dsp-interchange`: interchange of a loop with the short inner loop it
//! holds (loop interchange, Allen and Kennedy, "Optimizing Compilers for
//! Modern Architectures", §5.2), so that the long loop becomes the inner
//! one and can be vectorized. The target is an FFT's early stages,
//! `for (i = 0; i < n; i += len) for (j = 0; j < half; j++) butterfly(i + j,
//! i + j + half)`: while `half` is below the lane count the j loop is too
//! short for a vector, but the i loop has `n / len` independent
//! iterations. Interchanged, `for j { for t < n / len: i = t·len; … }`,
//! the inner loop reaches its arrays at a run-time stride: dsp-egg-isel
//! vectorizes it with strided loads and stores.
//!
//! A nest qualifies when the outer loop steps its counter by an invariant
//! amount (`i += step`, tested `i + step < bound`) and holds exactly one
//! loop; that inner loop is one block, counted (from an invariant start to
//! an invariant bound, step one), carries nothing but its counter, and no
//! value of the nest is used after it; the rest of the outer loop is pure
//! arithmetic and branches on loop invariants; calls are pure. Its memory
//! accesses are affine, `base + a·i + b·j + q` (`a`, `b` constants, `q`
//! invariant); each object stored to is a distinct identified object
//! (`restrict` argument, global, alloca), reached with one `a > 0` by
//! every access, and no other pointer may reach it; within one iteration
//! an object is not loaded at another place after it is stored.
//!
//! The interchanged nest runs when, at run time, the inner loop is shorter
//! than the lane count, the outer one has at least that many iterations,
//! the step is positive, and each stored object's bytes that one outer
//! iteration touches (over all of j) span at most `a·step`: then outer
//! iterations touch disjoint memory, any order of them is the same
//! program, and the new inner loop is marked so (`dsp.loop.independent`,
//! which dsp-egg-isel trusts instead of its own dependence checks). Else
//! the original nest runs.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate as P, LLVMOpcode as O};

use crate::addr::{address, counted, may_alias, mem_op, phi_start, Poly};
use crate::caps::Caps;
use crate::cfg::{Cfg, Loop};
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// The loop property that marks a loop whose iterations touch disjoint
/// memory (set here, read by dsp-egg-isel and the backend's pipeliner).
pub const INDEPENDENT: &str = dsp_vec_contract::INDEPENDENT_LOOP_PROPERTY;

/// Runs the pass on every function of `m`: whether it changed, and its
/// remarks (pass `loop-interchange`).
pub fn run(m: LLVMModuleRef, caps: &Caps, opts: &Options) -> (bool, Vec<Remark>) {
    crate::wfv::per_function(m, |f| run_function(f, caps, opts))
}

/// The pass's parameters: `dsp-interchange<[no-interchange][;no-strips]>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The interchange of a loop with its short inner loop (dspcc
    /// `-floop-interchange`).
    pub interchange: bool,
    /// The strip-mined form ([`crate::strip`], dspcc `-floop-strip-mine`).
    pub strips: bool,
    /// The nest as it is, counted and marked for [`crate::flatten`] where
    /// it is independent as a whole (dspcc `-floop-flatten`).
    pub as_is: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { interchange: true, strips: true, as_is: false }
    }
}

impl Options {
    pub fn parse(params: &str) -> Result<Options, String> {
        let mut o = Options::default();
        for p in params.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            match p {
                "no-strips" => o.strips = false,
                "no-interchange" => o.interchange = false,
                "flatten" => o.as_is = true,
                _ => return Err(format!("dsp-interchange: unknown parameter '{p}' (expected no-interchange, no-strips or flatten)")),
            }
        }
        Ok(o)
    }
}

/// Runs the pass on one function: whether it changed, and its remarks
/// (pass `loop-interchange`).
pub fn run_function(f: LLVMValueRef, caps: &Caps, opts: &Options) -> (bool, Vec<Remark>) {
    let Some(lanes) = caps.m.vector_lanes(32) else { return (false, Vec::new()) };
    let m = unsafe { LLVMGetGlobalParent(f) };
    let mut forms: Vec<&'static str> = Vec::new();
    let (changed, tried) = crate::loops::rewrite_two_deep_nests(f, |_, _| true, |cfg, l, j| {
        let (made, form) = check(m, cfg, l, j).and_then(|nest| transform(f, cfg, &nest, lanes as i64, *opts))?;
        forms.push(form);
        Ok(made)
    });
    let mut forms = forms.into_iter();
    let remarks = tried
        .into_iter()
        .map(|(at, r)| match r {
            Ok(()) => {
                let name = forms.next().unwrap_or("Interchanged");
                let ic = format!("interchanged with its inner loop where that one is shorter than {lanes} iterations (the outer loop's independent iterations innermost)");
                let sm = format!(
                    "strip-mined and interchanged where the inner loop is at most {} iterations (strips of {lanes} around the outer loop, one vector step each)",
                    crate::strip::MAX_VECTORS * lanes as i64
                );
                let msg = match name {
                    "StripMined" => format!("loop {sm}"),
                    "Interchanged" => format!("loop {ic}"),
                    _ => format!("loop {ic}, or {sm}"),
                };
                Remark { kind: RemarkKind::Passed, at, name, msg }
            }
            Err(why) => Remark { kind: RemarkKind::Missed, at, name: "NotInterchanged", msg: format!("loop not interchanged: {why}") },
        })
        .collect();
    (changed, remarks)
}

/// An outer loop stepping its counter by an invariant amount.
pub(crate) struct Stepped {
    pub(crate) iv: LLVMValueRef,
    pub(crate) start: LLVMValueRef,
    pub(crate) step: LLVMValueRef,
    /// The loop runs while `iv + step < bound` (signed), or, `counted`,
    /// until `iv + 1 == bound` (the step is one).
    pub(crate) bound: LLVMValueRef,
    pub(crate) counted: bool,
    pub(crate) preheader: usize,
    pub(crate) exit: usize,
}

/// What the interchange needs of a nest that qualifies.
pub(crate) struct Nest {
    pub(crate) outer: Stepped,
    pub(crate) header: usize,
    /// The inner loop's block, counter, start and bound.
    pub(crate) body: LLVMBasicBlockRef,
    pub(crate) jiv: LLVMValueRef,
    pub(crate) jstart: LLVMValueRef,
    pub(crate) jbound: LLVMValueRef,
    pub(crate) jterm: LLVMValueRef,
    /// The inner counter's increment and the latch's compare.
    pub(crate) jnext: LLVMValueRef,
    pub(crate) jcmp: LLVMValueRef,
    /// Invariant branch conditions of the outer loop and the value each
    /// must have for its iteration to reach the inner loop.
    pub(crate) conds: Vec<(LLVMValueRef, bool)>,
    /// The outer loop's instructions (outside the inner loop) the inner
    /// loop uses, in an order that defines before it uses.
    pub(crate) glue: Vec<LLVMValueRef>,
    /// Per stored object: its accesses `(b, q, size)` (bytes: `b·j + q`
    /// from `base + a·i`) and `a`.
    pub(crate) objects: Vec<(Vec<(i64, Poly, i64)>, Poly)>,
    /// Every access moves with j by its own size or not at all: what one
    /// masked vector step can do (the strips need it).
    pub(crate) contiguous: bool,
}

impl Nest {
    /// The inner loop's trip count, `jbound - jstart`, as a polynomial over them.
    pub(crate) fn trip_poly(&self) -> Poly {
        let val = |v: LLVMValueRef| ir::const_i64(v).map(Poly::constant).unwrap_or_else(|| Poly::atom(v));
        val(self.jbound).add(&val(self.jstart), -1)
    }
}

fn stepped(cfg: &Cfg, l: &Loop) -> Option<Stepped> {
    let [latch] = l.latches[..] else { return None };
    let exiting: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| l.contains(b) && cfg.succs[b].iter().any(|&s| !l.contains(s))).collect();
    if exiting != [latch] {
        return None;
    }
    let outside: Vec<usize> = cfg.preds[l.header].iter().copied().filter(|&p| !l.contains(p)).collect();
    let [pre] = outside[..] else { return None };
    if cfg.succs[pre] != [l.header] {
        return None;
    }
    let inside = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && cfg.index.get(&LLVMGetInstructionParent(v)).is_some_and(|&x| l.contains(x)) };
    unsafe {
        let term = LLVMGetBasicBlockTerminator(cfg.blocks[latch]);
        if ir::opcode(term) != O::LLVMBr || LLVMGetNumOperands(term) != 3 {
            return None;
        }
        let cmp = LLVMGetOperand(term, 0);
        if ir::opcode_of(cmp) != Some(O::LLVMICmp) || LLVMGetICmpPredicate(cmp) != P::LLVMIntSLT || LLVMGetSuccessor(term, 0) != cfg.blocks[l.header] {
            return None;
        }
        let exit = *cfg.index.get(&LLVMGetSuccessor(term, 1))?;
        let (next, bound) = (LLVMGetOperand(cmp, 0), LLVMGetOperand(cmp, 1));
        if !inside(next) || inside(bound) || ir::opcode_of(next) != Some(O::LLVMAdd) {
            return None;
        }
        let (x, y) = (LLVMGetOperand(next, 0), LLVMGetOperand(next, 1));
        let (iv, step) = if ir::opcode_of(x) == Some(O::LLVMPHI) && !inside(y) { (x, y) } else if ir::opcode_of(y) == Some(O::LLVMPHI) && !inside(x) { (y, x) } else { return None };
        if LLVMGetInstructionParent(iv) != cfg.blocks[l.header] || LLVMCountIncoming(iv) != 2 {
            return None;
        }
        let start = phi_start(iv, cfg.blocks[pre], cfg.blocks[latch], next)?;
        Some(Stepped { iv, start, step, bound, counted: false, preheader: pre, exit })
    }
}

/// `l` as a loop counting by one until its counter reaches a bound
/// (`icmp eq` exiting, `icmp ne` staying: clang's rotated `for (r = 0; r <
/// n; r++)` after induction-variable simplification).
fn counted_outer(cfg: &Cfg, l: &Loop) -> Option<Stepped> {
    let c = counted(cfg, l)?;
    let pred = unsafe { LLVMGetICmpPredicate(c.cmp) };
    if !matches!(pred, P::LLVMIntEQ | P::LLVMIntNE) {
        return None;
    }
    let step = unsafe { LLVMConstInt(LLVMTypeOf(c.iv), 1, 0) };
    Some(Stepped { iv: c.iv, start: c.start, step, bound: c.bound, counted: true, preheader: c.preheader, exit: c.exit })
}

fn check(m: LLVMModuleRef, cfg: &Cfg, l: &Loop, j: &Loop) -> Result<Nest, String> {
    let outer = stepped(cfg, l).or_else(|| counted_outer(cfg, l)).ok_or("the outer loop does not step its counter by an invariant amount to a bound")?;
    let jc = counted(cfg, j).ok_or("the inner loop is not a counted loop with one exit")?;
    let body = cfg.blocks[j.header];
    let inside_l = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && cfg.index.get(&LLVMGetInstructionParent(v)).is_some_and(|&x| l.contains(x)) };
    let in_body = |v: LLVMValueRef| unsafe { !LLVMIsAInstruction(v).is_null() && LLVMGetInstructionParent(v) == body };
    if inside_l(jc.start) || inside_l(jc.bound) {
        return Err("the inner loop's bounds change with the outer counter".into());
    }
    unsafe {
        let first = LLVMGetFirstInstruction(cfg.blocks[outer.exit]);
        if !first.is_null() && ir::opcode(first) == O::LLVMPHI {
            return Err("values leave the nest".into());
        }
    }
    let blocks: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| l.contains(b)).collect();
    let latch_term = unsafe { LLVMGetBasicBlockTerminator(cfg.blocks[l.latches[0]]) };
    let jterm = unsafe { LLVMGetBasicBlockTerminator(body) };
    let mut conds = Vec::new();
    for &b in &blocks {
        for i in ir::instructions(cfg.blocks[b]) {
            if ir::users(i).into_iter().any(|u| !inside_l(u)) {
                return Err("values leave the nest".into());
            }
            if b == j.header {
                continue;
            }
            let op = ir::opcode(i);
            if op == O::LLVMPHI {
                if i != outer.iv {
                    return Err("the outer loop carries values besides its counter".into());
                }
                continue;
            }
            if unsafe { !LLVMIsATerminatorInst(i).is_null() } {
                if i == latch_term || op != O::LLVMBr || unsafe { LLVMGetNumOperands(i) } != 3 {
                    if op != O::LLVMBr {
                        return Err("a switch in the nest".into());
                    }
                    continue;
                }
                let c = unsafe { LLVMGetOperand(i, 0) };
                if inside_l(c) {
                    return Err("a branch in the outer loop depends on its counter".into());
                }
                let reach = |s: LLVMBasicBlockRef| cfg.index.get(&s).is_some_and(|&s| cfg.reaches_in_loop(l, s, j.header));
                let (t, e) = unsafe { (reach(LLVMGetSuccessor(i, 0)), reach(LLVMGetSuccessor(i, 1))) };
                if t == e {
                    return Err("a branch in the outer loop does not decide whether the inner loop runs".into());
                }
                conds.push((c, t));
                continue;
            }
            if matches!(op, O::LLVMLoad | O::LLVMStore | O::LLVMCall | O::LLVMAtomicRMW | O::LLVMAtomicCmpXchg | O::LLVMFence | O::LLVMInvoke | O::LLVMCallBr) {
                return Err("the outer loop does more than run the inner one".into());
            }
        }
    }
    // The inner loop: its counter is all it carries.
    let phis = ir::instructions(body).into_iter().filter(|&i| ir::opcode(i) == O::LLVMPHI).count();
    if phis != 1 {
        return Err("the inner loop carries values besides its counter".into());
    }
    // The outer loop's values the inner loop uses (besides the counter).
    let mut glue: Vec<LLVMValueRef> = Vec::new();
    let mut seen: HashSet<LLVMValueRef> = HashSet::new();
    let mut work: Vec<LLVMValueRef> = ir::instructions(body);
    while let Some(i) = work.pop() {
        for k in 0..unsafe { LLVMGetNumOperands(i) } as u32 {
            let v = unsafe { LLVMGetOperand(i, k) };
            if inside_l(v) && !in_body(v) && v != outer.iv && seen.insert(v) {
                if ir::opcode(v) == O::LLVMPHI {
                    return Err("the inner loop uses a merged value of the outer loop".into());
                }
                glue.push(v);
                work.push(v);
            }
        }
    }
    // In layout order (defs before uses within the outer loop's straight path).
    let order: HashMap<LLVMValueRef, usize> = blocks.iter().flat_map(|&b| ir::instructions(cfg.blocks[b])).enumerate().map(|(k, i)| (i, k)).collect();
    glue.sort_by_key(|v| order.get(v).copied().unwrap_or(usize::MAX));
    // Accesses: affine in the two counters.
    let atom = |v: LLVMValueRef| !inside_l(v) || v == outer.iv || v == jc.iv;
    struct Acc {
        base: LLVMValueRef,
        off: Option<Poly>,
        size: i64,
        store: bool,
    }
    let mut accs: Vec<Acc> = Vec::new();
    for i in ir::instructions(body) {
        if let Some(a) = mem_op(m, i)? {
            let (base, off) = address(m, a.ptr, &atom);
            accs.push(Acc { base, off, size: a.size, store: a.store });
        }
    }
    let stored: Vec<LLVMValueRef> = accs.iter().filter(|a| a.store).map(|a| a.base).fold(Vec::new(), |mut v, b| {
        if !v.contains(&b) {
            v.push(b);
        }
        v
    });
    if stored.is_empty() {
        return Err("it stores nothing".into());
    }
    let mut objects = Vec::new();
    for &base in &stored {
        if !ir::identified_object(base) {
            return Err("a store through a pointer of unknown origin".into());
        }
        let mut a_all: Option<Poly> = None;
        let mut list = Vec::new();
        for acc in accs.iter().filter(|x| x.base == base) {
            let off = acc.off.as_ref().ok_or_else(|| format!("'{}' is reached at an address not affine in the counters", ir::value_name(base)))?;
            let (a, rest) = off.split(outer.iv);
            let (b, q) = rest.split(jc.iv);
            // The outer stride: a constant, or loop invariants (`r * w`);
            // the guard's span test fails unless it is positive.
            let counters = |v: LLVMValueRef| v == outer.iv || v == jc.iv;
            let Some(b) = b.as_const().filter(|_| !a.mentions(counters) && !q.mentions(counters)) else {
                return Err(format!("'{}' is reached at a stride that is not a constant", ir::value_name(base)));
            };
            if a.as_const().is_some_and(|a| a <= 0) || a_all.as_ref().is_some_and(|x| *x != a) {
                return Err(format!("'{}' does not move forward alike in every access", ir::value_name(base)));
            }
            a_all = Some(a);
            list.push((b, q, acc.size));
        }
        objects.push((list, a_all.unwrap_or_else(|| Poly::constant(1))));
        for acc in accs.iter().filter(|x| x.base != base) {
            if may_alias(acc.base, base) {
                return Err(format!("'{}' may be reached through another pointer", ir::value_name(base)));
            }
        }
    }
    let contiguous = accs.iter().all(|acc| {
        acc.off.as_ref().is_some_and(|off| {
            let (_, rest) = off.split(outer.iv);
            let (b, _) = rest.split(jc.iv);
            b.as_const().is_some_and(|b| b == 0 || b == acc.size)
        })
    });
    // Within one iteration: no load of a stored object at another place after a store to it.
    let mut done: Vec<(LLVMValueRef, Option<Poly>)> = Vec::new();
    for acc in &accs {
        if acc.store {
            done.push((acc.base, acc.off.clone()));
        } else if done.iter().any(|(b, o)| *b == acc.base && *o != acc.off) {
            return Err(format!("'{}' is loaded after a store to another of its elements", ir::value_name(acc.base)));
        }
    }
    Ok(Nest { outer, header: l.header, body, jiv: jc.iv, jstart: jc.start, jbound: jc.bound, jterm, jnext: jc.next, jcmp: jc.cmp, conds, glue, objects, contiguous })
}

/// The guard's part every form shares, computed at `b` in 64 bits: the
/// outer loop's trip count, the inner loop's, and the conditions under
/// which outer iterations touch disjoint memory (a positive step, the
/// invariant conditions that lead to the inner loop, and each stored
/// object's bytes per outer iteration, over all of j, within what one outer
/// step moves it).
#[derive(Clone)]
pub(crate) struct Guard {
    pub cnt: LLVMValueRef,
    pub trip_j: LLVMValueRef,
    pub ok: Vec<LLVMValueRef>,
}

pub(crate) unsafe fn guard(b: LLVMBuilderRef, nest: &Nest, ranks: &ir::Ranks) -> Result<Guard, String> {
    let o = &nest.outer;
    let ctx = LLVMGetTypeContext(LLVMTypeOf(o.iv));
    let i64t = LLVMInt64TypeInContext(ctx);
    let k64 = |v: i64| LLVMConstInt(i64t, v as u64, 1);
    let wide = |v: LLVMValueRef| if LLVMTypeOf(v) == i64t { v } else { LLVMBuildSExt(b, v, i64t, c"".as_ptr()) };
    let (start, step, bound) = (wide(o.start), wide(o.step), wide(o.bound));
    let (js, jb) = (wide(nest.jstart), wide(nest.jbound));
    let trip_j = LLVMBuildSub(b, jb, js, c"".as_ptr());
    let span = LLVMBuildSub(b, bound, start, c"".as_ptr());
    let (cnt, mut ok) = if o.counted {
        // Until iv + 1 == bound: bound - start iterations (none positive: not taken).
        (span, vec![LLVMBuildICmp(b, P::LLVMIntSGE, span, k64(1), c"".as_ptr())])
    } else {
        // The outer loop runs once, then while i + step < bound: max(1, ceil((bound - start) / step)).
        // (Divided by one when the step is not positive: the guard fails then.)
        let divisor = LLVMBuildSelect(b, LLVMBuildICmp(b, P::LLVMIntSGT, step, k64(0), c"".as_ptr()), step, k64(1), c"".as_ptr());
        let up = LLVMBuildSDiv(b, LLVMBuildAdd(b, span, LLVMBuildSub(b, divisor, k64(1), c"".as_ptr()), c"".as_ptr()), divisor, c"".as_ptr());
        let cnt = LLVMBuildSelect(b, LLVMBuildICmp(b, P::LLVMIntSGT, up, k64(1), c"".as_ptr()), up, k64(1), c"".as_ptr());
        (cnt, vec![LLVMBuildICmp(b, P::LLVMIntSGT, step, k64(0), c"".as_ptr())])
    };
    ok.push(LLVMBuildICmp(b, P::LLVMIntSGE, trip_j, k64(1), c"".as_ptr()));
    for &(c, want) in &nest.conds {
        ok.push(if want { c } else { LLVMBuildXor(b, c, LLVMConstInt(LLVMTypeOf(c), 1, 0), c"".as_ptr()) });
    }
    let jmax = LLVMBuildSub(b, trip_j, k64(1), c"".as_ptr());
    for (accs, a) in &nest.objects {
        // Each access's bytes from `base + a·i`, over j: [q + b·js + min(0, b·jmax), … + max(0, b·jmax) + size).
        let mut lo: Option<LLVMValueRef> = None;
        let mut hi: Option<LLVMValueRef> = None;
        for (bj, q, first, end) in span_groups(accs) {
            let qv = emit_poly(b, &q, ranks, i64t)?;
            let at = LLVMBuildAdd(b, qv, LLVMBuildMul(b, k64(bj), js, c"".as_ptr()), c"".as_ptr());
            let reach = LLVMBuildMul(b, k64(bj), jmax, c"".as_ptr());
            let (l0, h0) = if bj >= 0 { (at, LLVMBuildAdd(b, at, reach, c"".as_ptr())) } else { (LLVMBuildAdd(b, at, reach, c"".as_ptr()), at) };
            let l0 = LLVMBuildAdd(b, l0, k64(first), c"".as_ptr());
            let h0 = LLVMBuildAdd(b, h0, k64(end), c"".as_ptr());
            lo = Some(lo.map_or(l0, |x| LLVMBuildSelect(b, LLVMBuildICmp(b, P::LLVMIntSLT, l0, x, c"".as_ptr()), l0, x, c"".as_ptr())));
            hi = Some(hi.map_or(h0, |x| LLVMBuildSelect(b, LLVMBuildICmp(b, P::LLVMIntSGT, h0, x, c"".as_ptr()), h0, x, c"".as_ptr())));
        }
        let (Some(lo), Some(hi)) = (lo, hi) else { continue };
        let moved = LLVMBuildMul(b, emit_poly(b, a, ranks, i64t)?, step, c"".as_ptr());
        ok.push(LLVMBuildICmp(b, P::LLVMIntSLE, LLVMBuildSub(b, hi, lo, c"".as_ptr()), moved, c"".as_ptr()));
    }
    Ok(Guard { cnt, trip_j, ok })
}

/// An object's accesses `(b, q, size)` grouped by `b` and `q` but for its
/// constant term: `(b, q without it, the lowest first byte, the highest
/// end)` per group, so that the guard compares one range per group (a
/// load and a store of one element, or neighbouring elements, are one).
pub(crate) fn span_groups(accs: &[(i64, Poly, i64)]) -> Vec<(i64, Poly, i64, i64)> {
    let mut out: Vec<(i64, Poly, i64, i64)> = Vec::new();
    for (bj, q, size) in accs {
        let mut rest = q.clone();
        let c = rest.0.remove(&Vec::new()).unwrap_or(0);
        match out.iter_mut().find(|g| g.0 == *bj && g.1 == rest) {
            Some(g) => {
                g.2 = g.2.min(c);
                g.3 = g.3.max(c + size);
            }
            None => out.push((*bj, rest, c, c + size)),
        }
    }
    out
}

/// What every form of the nest builds with: a builder at the inner
/// loop's debug location (disposed with the form), the counters' types
/// and new blocks appended to the function.
pub(crate) struct Form {
    pub(crate) f: LLVMValueRef,
    pub(crate) ctx: LLVMContextRef,
    pub(crate) b: LLVMBuilderRef,
    /// The outer and the inner counter's types, and `i64`.
    pub(crate) ity: LLVMTypeRef,
    pub(crate) jty: LLVMTypeRef,
    pub(crate) i64t: LLVMTypeRef,
}

impl Form {
    pub(crate) unsafe fn new(f: LLVMValueRef, nest: &Nest) -> Form {
        let ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
        let b = LLVMCreateBuilderInContext(ctx);
        LLVMSetCurrentDebugLocation2(b, inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(nest.jterm));
        Form { f, ctx, b, ity: LLVMTypeOf(nest.outer.iv), jty: LLVMTypeOf(nest.jiv), i64t: LLVMInt64TypeInContext(ctx) }
    }

    pub(crate) unsafe fn block(&self, name: &std::ffi::CStr) -> LLVMBasicBlockRef {
        LLVMAppendBasicBlockInContext(self.ctx, self.f, name.as_ptr())
    }

    pub(crate) unsafe fn k64(&self, v: i64) -> LLVMValueRef {
        LLVMConstInt(self.i64t, v as u64, 1)
    }

    /// Ends the guard the builder is in: into `to` when all of `ok` hold,
    /// else into `fallback`. Returns the outer loop's count `cnt` in its
    /// counter's type.
    pub(crate) unsafe fn end_guard(&self, ok: Vec<LLVMValueRef>, cnt: LLVMValueRef, to: LLVMBasicBlockRef, fallback: LLVMBasicBlockRef) -> Result<LLVMValueRef, String> {
        let all = ir::all_of(self.b, ok)?;
        let cnt_i = if self.ity == self.i64t { cnt } else { LLVMBuildTrunc(self.b, cnt, self.ity, c"".as_ptr()) };
        LLVMBuildCondBr(self.b, all, to, fallback);
        Ok(cnt_i)
    }

    /// At the end of `t`, the outer loop's new counter `tphi` (counting its
    /// iterations from 0) and the original counter's value `start + tphi·step`.
    pub(crate) unsafe fn outer_counter(&self, nest: &Nest, t: LLVMBasicBlockRef) -> (LLVMValueRef, LLVMValueRef) {
        let (b, o) = (self.b, &nest.outer);
        LLVMPositionBuilderAtEnd(b, t);
        let tphi = LLVMBuildPhi(b, self.ity, c"".as_ptr());
        (tphi, LLVMBuildAdd(b, o.start, LLVMBuildMul(b, tphi, o.step, c"".as_ptr()), c"".as_ptr()))
    }

    /// The outer counter `tphi` (from 0 in `pre`) stepped at the end of
    /// `latch`: back to `header` until it reaches `cnt_i`, then on to `out`.
    /// Returns the latch's branch.
    pub(crate) unsafe fn count_outer(&self, tphi: LLVMValueRef, cnt_i: LLVMValueRef, (pre, header, latch, out): (LLVMBasicBlockRef, LLVMBasicBlockRef, LLVMBasicBlockRef, LLVMBasicBlockRef)) -> LLVMValueRef {
        let b = self.b;
        LLVMPositionBuilderAtEnd(b, latch);
        let tnext = LLVMBuildAdd(b, tphi, LLVMConstInt(self.ity, 1, 0), c"".as_ptr());
        let term = LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, tnext, cnt_i, c"".as_ptr()), header, out);
        ir::add_incoming(tphi, &[(LLVMConstInt(self.ity, 0, 0), pre), (tnext, latch)]);
        term
    }

    /// Clones the inner loop's body at the builder but its counter, its
    /// branch and, `skip_cmp`, its compare; each clone recorded in `map`
    /// and `made` (its operands still the originals).
    pub(crate) unsafe fn clone_body(&self, nest: &Nest, skip_cmp: bool, map: &mut HashMap<LLVMValueRef, LLVMValueRef>, made: &mut Vec<LLVMValueRef>) {
        for g in ir::instructions(nest.body) {
            if g == nest.jiv || g == nest.jterm || (skip_cmp && g == nest.jcmp) {
                continue;
            }
            let x = LLVMInstructionClone(g);
            LLVMInsertIntoBuilder(self.b, x);
            map.insert(g, x);
            made.push(x);
        }
    }
}

impl Drop for Form {
    fn drop(&mut self) {
        unsafe { LLVMDisposeBuilder(self.b) }
    }
}

/// Builds the interchanged nest (see the module doc) behind its guard,
/// which falls back to `fallback`; returns the guard and the new loops'
/// headers. The caller enters the guard.
fn interchange(
    f: LLVMValueRef,
    cfg: &Cfg,
    nest: &Nest,
    lanes: i64,
    indep: Option<&[crate::strip::Apart]>,
    fallback: LLVMBasicBlockRef,
    shared: &Guard,
) -> Result<(LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>), String> {
    let o = &nest.outer;
    let exit = cfg.blocks[o.exit];
    unsafe {
        let fm = Form::new(f, nest);
        let (b, jty, i64t) = (fm.b, fm.jty, fm.i64t);
        let (guard_bb, jpre, jh, tph, t, jl) = (fm.block(c"ic.guard"), fm.block(c"ic.jpre"), fm.block(c"ic.j"), fm.block(c"ic.tph"), fm.block(c"ic.t"), fm.block(c"ic.jlatch"));
        let ranks = ir::Ranks::new(f);
        // The guard: the shared conditions, the inner loop shorter than a
        // vector and the outer one at least a vector long.
        LLVMPositionBuilderAtEnd(b, guard_bb);
        let Guard { cnt, trip_j, mut ok } = shared.clone();
        ok.push(LLVMBuildICmp(b, P::LLVMIntSLT, trip_j, fm.k64(lanes), c"".as_ptr()));
        ok.push(LLVMBuildICmp(b, P::LLVMIntSGE, cnt, fm.k64(lanes), c"".as_ptr()));
        // The j iterations apart over the whole j loop: with the outer
        // iterations apart, every (j, t) of the nest touches its own
        // memory, and the nest is marked for dsp-flatten.
        for a in indep.into_iter().flatten() {
            ok.push(a.emit_over(b, trip_j, Some(&nest.trip_poly()), &ranks, i64t)?);
        }
        let cnt_i = fm.end_guard(ok, cnt, jpre, fallback)?;
        LLVMPositionBuilderAtEnd(b, jpre);
        LLVMBuildBr(b, jh);
        // The j loop.
        LLVMPositionBuilderAtEnd(b, jh);
        let jphi = LLVMBuildPhi(b, jty, c"".as_ptr());
        LLVMBuildBr(b, tph);
        let (tphi, i) = fm.outer_counter(nest, t);
        // The outer loop's values the body uses, then the body: what does
        // not depend on i (arithmetic of j and invariants, `x[j * step]`'s
        // index) in the t loop's preheader, the rest in the t loop.
        let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        map.insert(o.iv, i);
        map.insert(nest.jiv, jphi);
        let mut varies: HashSet<LLVMValueRef> = [o.iv].into_iter().collect();
        let mut made = Vec::new();
        let insts = nest.glue.iter().copied().chain(ir::instructions(nest.body)).filter(|&g| g != nest.jiv && g != nest.jterm);
        clone_split(b, insts, &mut varies, &mut map, &mut made, t, tph);
        LLVMPositionBuilderAtEnd(b, tph);
        LLVMBuildBr(b, t);
        ir::remap_operands(&made, &map);
        let tterm = fm.count_outer(tphi, cnt_i, (tph, t, t, jl));
        mark_independent(tterm);
        // The j latch: on to the inner bound, then out of the nest.
        LLVMPositionBuilderAtEnd(b, jl);
        let jnext = LLVMBuildAdd(b, jphi, LLVMConstInt(jty, 1, 0), c"".as_ptr());
        let jterm = LLVMBuildCondBr(b, LLVMBuildICmp(b, P::LLVMIntNE, jnext, nest.jbound, c"".as_ptr()), jh, exit);
        if indep.is_some() {
            ir::add_loop_property(jterm, crate::flatten::NEST_INDEPENDENT, None);
        }
        ir::add_incoming(jphi, &[(nest.jstart, jpre), (jnext, jl)]);
        Ok((guard_bb, vec![jh, t]))
    }
}

/// Clones `insts` at builder `b`: each one that depends on `varies`
/// (seeded with the outer counter; it grows with them) or is not pure
/// arithmetic at the end of `inner` (the new outer loop), the rest at the
/// end of `hoisted` (its preheader); each clone recorded in `map` and
/// `made` (its operands still the originals).
pub(crate) unsafe fn clone_split(
    b: LLVMBuilderRef,
    insts: impl Iterator<Item = LLVMValueRef>,
    varies: &mut HashSet<LLVMValueRef>,
    map: &mut HashMap<LLVMValueRef, LLVMValueRef>,
    made: &mut Vec<LLVMValueRef>,
    inner: LLVMBasicBlockRef,
    hoisted: LLVMBasicBlockRef,
) {
    for g in insts {
        let arith = !matches!(ir::opcode(g), O::LLVMLoad | O::LLVMStore | O::LLVMCall | O::LLVMPHI);
        let dep = (0..LLVMGetNumOperands(g) as u32).any(|q| varies.contains(&LLVMGetOperand(g, q)));
        if dep || !arith {
            varies.insert(g);
            LLVMPositionBuilderAtEnd(b, inner);
        } else {
            LLVMPositionBuilderAtEnd(b, hoisted);
        }
        let x = LLVMInstructionClone(g);
        LLVMInsertIntoBuilder(b, x);
        map.insert(g, x);
        made.push(x);
    }
}

/// Builds the forms the nest allows in front of it, each behind its guard,
/// the original nest the last way out: the interchange (an outer loop
/// stepped to a bound), then the strips ([`crate::strip`]). Returns the
/// loops made and the original's header.
fn transform(f: LLVMValueRef, cfg: &Cfg, nest: &Nest, lanes: i64, opts: Options) -> Result<(Vec<LLVMBasicBlockRef>, &'static str), String> {
    let o = &nest.outer;
    let (h, pre) = (cfg.blocks[nest.header], cfg.blocks[o.preheader]);
    // A strip's iterations shown apart ([`crate::strip::independence`]), and the run-time part of that.
    let indep = crate::strip::independence(nest);
    let strips = opts.strips && (nest.contiguous || indep.is_some());
    let interchange_too = opts.interchange && !o.counted;
    // The nest as it is for dsp-flatten: its iterations independent as a
    // whole, and an access that is not contiguous (an FFT's twiddles): a
    // contiguous inner loop too long for the strips runs long enough as it
    // is (measured: the extra form costs a 2D convolution 21 cycles of its
    // 4429 at 64 columns, and gains it nothing).
    let as_is = opts.as_is && indep.is_some() && !nest.contiguous && (strips || interchange_too);
    if !strips && !interchange_too {
        return Err(match (o.counted, opts.strips, nest.contiguous) {
            (true, true, false) => "the outer loop counts by one to a bound, which only the strips take, and an access does not move with the inner counter element by element (nor are the inner iterations of a strip independent)",
            (true, false, _) => "the outer loop counts by one to a bound, which only the strips take (-floop-strip-mine is off)",
            (false, true, false) => "an access does not move with the inner counter element by element (no strips) and -floop-interchange is off",
            _ => "both forms are off",
        }
        .into());
    }
    let mut made = vec![h];
    // The conditions both forms share, computed once in a block of their
    // own that then enters the forms' guards (the later ones fail over to
    // the earlier: no value is computed twice).
    let (common, shared) = shared_guard(f, nest)?;
    let built = (|| -> Result<(LLVMBasicBlockRef, LLVMBasicBlockRef), String> {
        // Each form's guard falls back to the one built before it; the first, to the original.
        let mut entry = h;
        let mut guard_of_h = None;
        if as_is {
            let (g, loops) = crate::asis::as_is(f, cfg, nest, indep.as_deref().unwrap_or(&[]), entry, &shared)?;
            made.extend(loops);
            guard_of_h.get_or_insert(g);
            entry = g;
        }
        if strips {
            let (g, loops) = crate::strip::strip_mine(f, cfg, nest, lanes, indep.as_deref(), entry, &shared)?;
            made.extend(loops);
            guard_of_h.get_or_insert(g);
            entry = g;
        }
        if interchange_too {
            let (g, loops) = interchange(f, cfg, nest, lanes, indep.as_deref(), entry, &shared)?;
            made.extend(loops);
            guard_of_h.get_or_insert(g);
            entry = g;
        }
        Ok((entry, guard_of_h.ok_or("internal: no form built")?))
    })();
    // The shared block ends in the last guard built (or, when building
    // failed, in the original nest: it is unreachable then, and deleted).
    let (entry, guard_of_h) = match built {
        Ok(x) => x,
        Err(e) => {
            unsafe { end_in(common, h) };
            return Err(e);
        }
    };
    unsafe {
        end_in(common, entry);
        LLVMMoveBasicBlockBefore(common, entry);
    }
    // The preheader enters the shared conditions; the original nest's counter starts from the first guard.
    ir::redirect(pre, h, common);
    unsafe {
        let incoming: Vec<(LLVMValueRef, LLVMBasicBlockRef)> = (0..LLVMCountIncoming(o.iv))
            .map(|q| (LLVMGetIncomingValue(o.iv, q), LLVMGetIncomingBlock(o.iv, q)))
            .map(|(v, from)| (v, if from == pre { guard_of_h } else { from }))
            .collect();
        if incoming.iter().any(|&(_, from)| from == guard_of_h) {
            ir::rebuild_phi(o.iv, &incoming);
        }
    }
    let form = match (interchange_too, strips) {
        (false, _) => "StripMined",
        (true, true) => "InterchangedOrStripMined",
        (true, false) => "Interchanged",
    };
    Ok((made, form))
}

/// A new block computing the nest's [`guard`], its conditions and-ed into
/// one (no terminator yet: [`end_in`]).
fn shared_guard(f: LLVMValueRef, nest: &Nest) -> Result<(LLVMBasicBlockRef, Guard), String> {
    let ranks = ir::Ranks::new(f);
    unsafe {
        let ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
        let common = LLVMAppendBasicBlockInContext(ctx, f, c"nest.guard".as_ptr());
        let b = LLVMCreateBuilderInContext(ctx);
        LLVMSetCurrentDebugLocation2(b, inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(nest.jterm));
        LLVMPositionBuilderAtEnd(b, common);
        let g = guard(b, nest, &ranks);
        let g = g.and_then(|g| {
            let all = ir::all_of(b, g.ok.iter().copied())?;
            Ok(Guard { ok: vec![all], ..g })
        });
        if g.is_err() {
            LLVMPositionBuilderAtEnd(b, common);
            LLVMBuildUnreachable(b);
        }
        LLVMDisposeBuilder(b);
        Ok((common, g?))
    }
}

/// Ends block `bb` (without a terminator) in a branch to `to`.
unsafe fn end_in(bb: LLVMBasicBlockRef, to: LLVMBasicBlockRef) {
    let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(bb)));
    let b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, bb);
    LLVMBuildBr(b, to);
    LLVMDisposeBuilder(b);
}

/// `p` (over loop invariants) as an `i64` at `b`, its terms in the
/// function's order (the output is the same on every run).
pub(crate) unsafe fn emit_poly(b: LLVMBuilderRef, p: &Poly, ranks: &ir::Ranks, i64t: LLVMTypeRef) -> Result<LLVMValueRef, String> {
    let wide = |v: LLVMValueRef| {
        if LLVMTypeOf(v) == i64t {
            Ok(v)
        } else if LLVMGetTypeKind(LLVMTypeOf(v)) == inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind {
            Ok(LLVMBuildSExt(b, v, i64t, c"".as_ptr()))
        } else {
            Err("an address term that is not an integer".to_string())
        }
    };
    let mut terms: Vec<(&Vec<usize>, i64)> = p.0.iter().map(|(m, &c)| (m, c)).collect();
    terms.sort_by_key(|(m, _)| m.iter().map(|&v| ranks.of(v as LLVMValueRef)).collect::<Vec<_>>());
    let mut acc = LLVMConstInt(i64t, 0, 0);
    for (mono, c) in terms {
        let mut x = LLVMConstInt(i64t, c as u64, 1);
        for &v in mono {
            x = LLVMBuildMul(b, x, wide(v as LLVMValueRef)?, c"".as_ptr());
        }
        acc = LLVMBuildAdd(b, acc, x, c"".as_ptr());
    }
    Ok(acc)
}

/// Marks the loop of latch branch `term` with [`INDEPENDENT`].
pub(crate) fn mark_independent(term: LLVMValueRef) {
    ir::add_loop_property(term, INDEPENDENT, None);
}

/// Whether the loop of latch branch `term` carries [`INDEPENDENT`].
pub fn is_independent(term: LLVMValueRef) -> bool {
    crate::wfv::directives::has_loop_property(term, INDEPENDENT)
}

#[cfg(test)]
#[path = "interchange_tests.rs"]
mod tests;
