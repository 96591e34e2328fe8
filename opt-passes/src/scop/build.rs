//! Building one [`Scop`] from a run of control-tree nodes, or the first
//! reason it is not one: loops and their bounds, `if` conditions, the
//! statements (one per block with memory accesses), their domains, 2d+1
//! schedules and accesses. The instructions themselves are checked by
//! [`super::checks`]. Expressions stay over LLVM values ([`Aff`]) during
//! the walk and become coefficient vectors at the end, once every
//! parameter is known.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;

use super::access::{decompose, AddrError};
use super::affine::{Aff, Ctx, NotAffine};
use super::bounds::{self, condition, implied, CondError, Cons};
use super::checks;
use super::scalars::{self, ScalarAccess};
use super::print::value_ref;
use super::structure::{LoopNode, Node, Shape};
use super::*;
use crate::ir;

/// An induction variable: the header phi, its start and its step, and
/// the loop's secondary inductions (`phi`, start, step).
pub struct Iv {
    pub phi: LLVMValueRef,
    pub start: LLVMValueRef,
    pub next: LLVMValueRef,
    pub step: i64,
    pub secondary: Vec<(LLVMValueRef, LLVMValueRef, i64)>,
}

/// A header phi's (start, next, constant step).
fn phi_parts(phi: LLVMValueRef, latch: LLVMBasicBlockRef) -> (Option<LLVMValueRef>, Option<LLVMValueRef>, Option<i64>) {
    let n = unsafe { LLVMCountIncoming(phi) };
    let mut start = None;
    let mut next = None;
    for k in 0..n {
        let (v, b) = unsafe { (LLVMGetIncomingValue(phi, k), LLVMGetIncomingBlock(phi, k)) };
        if b == latch {
            next = Some(v);
        } else if start.is_none() {
            start = Some(v);
        } else {
            return (None, None, None);
        }
    }
    let step = next.filter(|&nx| ir::opcode_of(nx) == Some(O::LLVMAdd)).and_then(|nx| {
        let (a, b) = unsafe { (LLVMGetOperand(nx, 0), LLVMGetOperand(nx, 1)) };
        if a == phi {
            ir::const_i64(b)
        } else if b == phi {
            ir::const_i64(a)
        } else {
            None
        }
    });
    let int = unsafe { LLVMGetTypeKind(LLVMTypeOf(phi)) == inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind };
    if int {
        (start, next, step)
    } else {
        (start, next, None)
    }
}

/// The induction variable of loop `l` (the header phi the exit compare
/// tests), or why there is none, and the other header phis that step by a
/// constant (secondary inductions).
pub fn induction(shape: &Shape, l: &LoopNode) -> Result<Iv, Reject> {
    let (h, latch) = (shape.cfg.blocks[l.header], shape.cfg.blocks[l.latch]);
    let term = unsafe { LLVMGetBasicBlockTerminator(latch) };
    let cond = unsafe { LLVMGetCondition(term) };
    let tested: Vec<LLVMValueRef> = if ir::opcode_of(cond) == Some(O::LLVMICmp) { unsafe { vec![LLVMGetOperand(cond, 0), LLVMGetOperand(cond, 1)] } } else { Vec::new() };
    let phis: Vec<LLVMValueRef> = ir::instructions(h).into_iter().take_while(|&i| ir::opcode(i) == O::LLVMPHI).collect();
    let mut iv = None;
    for &phi in &phis {
        let (start, next, step) = phi_parts(phi, latch);
        if let (Some(st), Some(nx), Some(s)) = (start, next, step) {
            if iv.is_none() && (tested.contains(&phi) || tested.contains(&nx)) {
                iv = Some(Iv { phi, start: st, next: nx, step: s, secondary: Vec::new() });
            }
        }
    }
    let first = unsafe { LLVMGetFirstInstruction(h) };
    let mut iv = iv.ok_or_else(|| Reject::new(RejectKind::NonCanonicalLoop, first, "no header phi with a constant step is tested by the latch"))?;
    if iv.step == 0 {
        return Err(Reject::new(RejectKind::NonCanonicalLoop, iv.next, format!("induction variable {} does not step", value_ref(iv.phi))));
    }
    // Other phis stepping by a constant are secondary inductions; the rest
    // are scalars carried across iterations ([`super::scalars`]).
    for &phi in phis.iter().filter(|&&p| p != iv.phi) {
        if let (Some(st), Some(_), Some(s)) = phi_parts(phi, latch) {
            iv.secondary.push((phi, st, s));
        }
    }
    Ok(iv)
}

/// The atom of a loop's iterator: its induction variable for a step of ±1,
/// else a key that is no LLVM value (the phi's address plus one: values
/// are aligned) for the iteration count.
fn iterator_atom(iv: &Iv) -> usize {
    if iv.step.abs() == 1 {
        iv.phi as usize
    } else {
        iv.phi as usize | 1
    }
}

/// A value's name, or the iteration count of the loop of a phi (`#%i`).
fn atom_name(a: usize) -> String {
    if a & 1 == 1 {
        format!("#{}", value_ref((a & !1) as LLVMValueRef))
    } else {
        value_ref(a as LLVMValueRef)
    }
}

struct RawLoop {
    parent: Option<usize>,
    header: usize,
    /// The iterator atom.
    phi: usize,
    /// The loop's constraints over its iterator.
    cons: Vec<Cons>,
    lower: Vec<Aff>,
    upper: Vec<Aff>,
    step: i64,
    iv: LLVMValueRef,
    start: LLVMValueRef,
    secondary: Vec<(LLVMValueRef, LLVMValueRef, i64)>,
}

struct RawAccess {
    kind: AccessKind,
    array: usize,
    subs: Vec<Aff>,
    dims: Vec<Option<u64>>,
    elem_size: u64,
    inst: LLVMValueRef,
}

struct RawStmt {
    block: usize,
    loops: Vec<usize>,
    domain: Vec<Cons>,
    schedule: Vec<usize>,
    accesses: Vec<RawAccess>,
}

/// The builder's state while walking the nodes.
struct Builder<'a> {
    shape: &'a Shape,
    module: LLVMModuleRef,
    inside: Vec<bool>,
    /// The loops' iterator atoms.
    ivs: HashSet<usize>,
    /// Header blocks of the region's loops.
    headers: HashSet<usize>,
    derived: HashMap<usize, Aff>,
    assume_guarded: bool,
    loops: Vec<RawLoop>,
    stmts: Vec<RawStmt>,
    arrays: Vec<Array>,
    /// Arrays by (base or value, 0 memory | 1 phi | 2 value).
    array_of: HashMap<(usize, u8), usize>,
    /// Scalar accesses by block.
    scalars: Vec<Vec<ScalarAccess>>,
}

/// Where the walk is: enclosing loops, constraints, schedule prefix.
#[derive(Clone)]
struct Place {
    loops: Vec<usize>,
    cons: Vec<Cons>,
    prefix: Vec<usize>,
}

/// What is known around a run of nodes.
#[derive(Clone, Copy, Default)]
pub struct Context<'a> {
    /// Conditions of enclosing `if`s outside the run (the `i1` value and
    /// the side taken): their affine constraints hold in the whole run.
    pub conds: &'a [(LLVMValueRef, bool)],
    /// Skip the check that rotated loops are guarded (to find another
    /// reason for a rejection).
    pub assume_guarded: bool,
}

/// The SCoP made of `nodes` (a run of one sequence) of function `f`.
pub fn build(shape: &Shape, module: LLVMModuleRef, f: LLVMValueRef, nodes: &[Node], cx: Context) -> Result<Scop, Reject> {
    let mut blocks = Vec::new();
    nodes.iter().for_each(|n| n.blocks(&mut blocks));
    let mut inside = vec![false; shape.cfg.blocks.len()];
    for &b in &blocks {
        inside[b] = true;
    }
    let mut b = Builder { shape, module, inside, ivs: HashSet::new(), headers: HashSet::new(), derived: HashMap::new(), assume_guarded: false, loops: Vec::new(), stmts: Vec::new(), arrays: Vec::new(), array_of: HashMap::new(), scalars: Vec::new() };
    let mut ivs = HashMap::new();
    let mut order = Vec::new();
    b.collect_ivs(nodes, &mut ivs, &mut order)?;
    single_entry_exit(shape, nodes, &b.inside)?;
    // Each loop's iterator: its induction variable when it steps by ±1,
    // else the iteration count `t` (the variable is `start + step × t`), an
    // atom that is no LLVM value ([`iteration_atom`]).
    b.ivs = order.iter().map(|h| iterator_atom(&ivs[h])).collect();
    b.headers = order.iter().copied().collect();
    // Outer loops first: secondary inductions are `start + step × count`.
    for h in order {
        let iv = &ivs[&h];
        let s1 = b.with_ctx(|ctx| ctx.eval(iv.start)).map_err(|n| not_affine_bound(n, iv.start, "start"));
        let count = if iv.step.abs() == 1 {
            // (phi - start) × step
            s1.as_ref().ok().and_then(|s1| Aff::atom(iv.phi).add(s1, -1)).and_then(|d| d.scale(iv.step))
        } else {
            let s1 = s1?;
            let t = Aff { terms: [(iterator_atom(iv), 1)].into_iter().collect(), c: 0 };
            let phi = t.scale(iv.step).and_then(|x| x.add(&s1, 1)).ok_or_else(|| overflow(iv.phi))?;
            b.derived.insert(iv.phi as usize, phi);
            Some(t)
        };
        for &(phi, st, k) in &iv.secondary {
            let s2 = b.with_ctx(|ctx| ctx.eval(st)).map_err(|n| not_affine_bound(n, st, "start"))?;
            let count = count.clone().ok_or_else(|| overflow(phi))?;
            let aff = count.scale(k).and_then(|d| d.add(&s2, 1)).ok_or_else(|| overflow(phi))?;
            b.derived.insert(phi as usize, aff);
        }
    }
    for &blk in &blocks {
        b.with_ctx(|ctx| checks::block(shape, ctx, blk, &b.headers))?;
    }
    b.scalars = b.with_ctx(|ctx| scalars::accesses(shape, ctx, &b.inside));
    let mut place = Place { loops: Vec::new(), cons: Vec::new(), prefix: Vec::new() };
    for &(c, taken) in cx.conds {
        if let Ok(cons) = b.with_ctx(|ctx| condition(ctx, c, taken)) {
            for c in cons {
                if !place.cons.contains(&c) {
                    place.cons.push(c);
                }
            }
        }
    }
    b.assume_guarded = cx.assume_guarded;
    let mut next = 0;
    b.walk(nodes, &ivs, &mut place, &mut next)?;
    let name = |blk: usize| value_ref(unsafe { LLVMBasicBlockAsValue(shape.cfg.blocks[blk]) });
    let entry = match nodes.first() {
        Some(Node::Loop(l)) => name(l.header),
        Some(Node::If { block, .. }) | Some(Node::Block(block)) | Some(Node::Opaque { block, .. }) => name(*block),
        None => String::new(),
    };
    // No block after the run: it ends in a return.
    let exit = exit_of(shape, nodes).map(name).unwrap_or_else(|| "ret".to_string());
    let region = Region { blocks: blocks.iter().map(|&k| shape.cfg.blocks[k]).collect(), entry: first_block(nodes).map(|k| shape.cfg.blocks[k]), exit: exit_of(shape, nodes).map(|k| shape.cfg.blocks[k]) };
    b.finish(ir::value_name(f), entry, exit, region)
}

/// The region's blocks as code generation needs them.
struct Region {
    blocks: Vec<LLVMBasicBlockRef>,
    entry: Option<LLVMBasicBlockRef>,
    exit: Option<LLVMBasicBlockRef>,
}

/// The block control enters the run at.
fn first_block(nodes: &[Node]) -> Option<usize> {
    match nodes.first()? {
        Node::Loop(l) => Some(l.header),
        Node::If { block, .. } | Node::Block(block) | Node::Opaque { block, .. } => Some(*block),
    }
}

/// Checks that control enters the run only at its first block (or at the
/// branch of its first `if`, when that block is not in the run) and leaves
/// it only to the block after it: a `goto` into or out of the middle makes
/// it no region.
fn single_entry_exit(shape: &Shape, nodes: &[Node], inside: &[bool]) -> Result<(), Reject> {
    let (first, control) = match nodes.first() {
        Some(Node::Loop(l)) => (Some(l.header), None),
        Some(Node::If { block, .. }) if !inside[*block] => (None, Some(*block)),
        Some(Node::If { block, .. }) | Some(Node::Block(block)) | Some(Node::Opaque { block, .. }) => (Some(*block), None),
        None => return Ok(()),
    };
    let exit = exit_of(shape, nodes);
    let at = |b: usize| unsafe { LLVMGetFirstInstruction(shape.cfg.blocks[b]) };
    let name = |b: usize| value_ref(unsafe { LLVMBasicBlockAsValue(shape.cfg.blocks[b]) });
    let loop_first = matches!(nodes.first(), Some(Node::Loop(_)));
    for b in (0..inside.len()).filter(|&b| inside[b]) {
        for &p in &shape.cfg.preds[b] {
            // Only a loop of the run may branch back to its first block.
            if Some(b) == first && inside[p] && !loop_first {
                return Err(Reject::new(RejectKind::UnstructuredControl, at(b), format!("block {} is reached again from {} in the region", name(b), name(p))));
            }
            if shape.cfg.reachable(p) && !inside[p] && Some(p) != control && Some(b) != first {
                return Err(Reject::new(RejectKind::UnstructuredControl, at(b), format!("block {} is entered from outside the region ({})", name(b), name(p))));
            }
        }
        for &x in &shape.cfg.succs[b] {
            if !inside[x] && Some(x) != exit {
                return Err(Reject::new(RejectKind::UnstructuredControl, at(b), format!("block {} leaves the region for {}", name(b), name(x))));
            }
        }
    }
    Ok(())
}

/// The block control reaches after the run.
fn exit_of(shape: &Shape, nodes: &[Node]) -> Option<usize> {
    match nodes.last()? {
        Node::Loop(l) => Some(l.exit),
        Node::If { block, .. } => shape.merge(*block),
        Node::Block(b) | Node::Opaque { block: b, .. } => shape.cfg.succs[*b].first().copied(),
    }
}

impl Builder<'_> {
    fn with_ctx<T>(&self, f: impl FnOnce(&Ctx) -> T) -> T {
        let inside = |v: LLVMValueRef| self.inside_value(v);
        let ctx = Ctx { inside: &inside, ivs: &self.ivs, derived: &self.derived, memo: Default::default() };
        f(&ctx)
    }

    fn inside_value(&self, v: LLVMValueRef) -> bool {
        if unsafe { LLVMIsAInstruction(v).is_null() } {
            return false;
        }
        let bb = unsafe { LLVMGetInstructionParent(v) };
        self.shape.cfg.index.get(&bb).is_some_and(|&b| self.inside[b])
    }

    fn collect_ivs(&self, nodes: &[Node], out: &mut HashMap<usize, Iv>, order: &mut Vec<usize>) -> Result<(), Reject> {
        for n in nodes {
            match n {
                Node::Loop(l) => {
                    out.insert(l.header, induction(self.shape, l)?);
                    order.push(l.header);
                    self.collect_ivs(&l.body, out, order)?;
                }
                Node::If { then_, else_, .. } => {
                    self.collect_ivs(then_, out, order)?;
                    self.collect_ivs(else_, out, order)?;
                }
                Node::Opaque { reason, .. } => return Err(reason.clone()),
                Node::Block(_) => {}
            }
        }
        Ok(())
    }

    fn walk(&mut self, nodes: &[Node], ivs: &HashMap<usize, Iv>, place: &mut Place, next: &mut usize) -> Result<(), Reject> {
        for n in nodes {
            match n {
                Node::Block(blk) => self.statement(*blk, place, next)?,
                Node::Loop(l) => {
                    let iv = &ivs[&l.header];
                    let (lower, upper) = self.loop_bounds(l, iv, place)?;
                    // The variable's value over the iterator: itself, or start + step × t.
                    let i = self.derived.get(&(iv.phi as usize)).cloned().unwrap_or_else(|| Aff::atom(iv.phi));
                    let mut cons = Vec::new();
                    for lo in &lower {
                        cons.push(Cons { aff: i.add(lo, -1).ok_or_else(|| overflow(iv.phi))?, eq: false });
                    }
                    for up in &upper {
                        cons.push(Cons { aff: up.add(&i, -1).ok_or_else(|| overflow(iv.phi))?, eq: false });
                    }
                    let unit = iv.step.abs() == 1;
                    let (lower, upper) = if unit { (lower, upper) } else { (vec![Aff::constant(0)], Vec::new()) };
                    let id = self.loops.len();
                    self.loops.push(RawLoop { parent: place.loops.last().copied(), header: l.header, phi: iterator_atom(iv), cons: cons.clone(), lower, upper, step: iv.step, iv: iv.phi, start: iv.start, secondary: iv.secondary.clone() });
                    let mut inner = place.clone();
                    inner.loops.push(id);
                    inner.prefix.push(*next);
                    *next += 1;
                    inner.cons.extend(cons);
                    let mut inner_next = 0;
                    self.walk(&l.body, ivs, &mut inner, &mut inner_next)?;
                }
                Node::If { block, then_, else_ } => {
                    let term = unsafe { LLVMGetBasicBlockTerminator(self.shape.cfg.blocks[*block]) };
                    let c = unsafe { LLVMGetCondition(term) };
                    // An empty side needs no constraint (it may be a disjunction).
                    for (side, taken) in [(then_, true), (else_, false)].into_iter().filter(|(s, _)| !s.is_empty()) {
                        let cons = self.with_ctx(|ctx| condition(ctx, c, taken)).map_err(|e| cond_error(e, term))?;
                        let mut inner = place.clone();
                        for c in cons {
                            if !inner.cons.contains(&c) {
                                inner.cons.push(c);
                            }
                        }
                        self.walk(side, ivs, &mut inner, next)?;
                    }
                }
                Node::Opaque { reason, .. } => return Err(reason.clone()),
            }
        }
        Ok(())
    }

    /// Lower and upper bounds (inclusive) of loop `l`, checked against its guard.
    fn loop_bounds(&self, l: &LoopNode, iv: &Iv, place: &Place) -> Result<(Vec<Aff>, Vec<Aff>), Reject> {
        let term = unsafe { LLVMGetBasicBlockTerminator(self.shape.cfg.blocks[l.latch]) };
        let cond = unsafe { LLVMGetCondition(term) };
        let bad = |msg: &str| Reject::new(RejectKind::NonCanonicalLoop, term, format!("loop {}: {msg}", value_ref(iv.phi)));
        if ir::opcode_of(cond) != Some(O::LLVMICmp) {
            return Err(bad("the latch does not branch on a compare"));
        }
        let (a, b) = unsafe { (LLVMGetOperand(cond, 0), LLVMGetOperand(cond, 1)) };
        let mut p = unsafe { LLVMGetICmpPredicate(cond) };
        let is_iv = |v: LLVMValueRef| v == iv.phi || v == iv.next;
        let (x, bound) = if is_iv(a) {
            (a, b)
        } else if is_iv(b) {
            p = bounds::swapped(p);
            (b, a)
        } else {
            return Err(bad("the exit compare is not on the induction variable"));
        };
        let header = self.shape.cfg.blocks[l.header];
        if unsafe { LLVMGetSuccessor(term, 0) } != header {
            p = bounds::inverse(p);
        }
        // The next iteration's value y runs while y + e p bound.
        let e = if x == iv.next { 0 } else { -iv.step };
        let (bnd, start) = self.with_ctx(|ctx| (bounds::eval_bound(ctx, bound), bounds::eval_bound(ctx, iv.start)));
        let bnd = bnd.map_err(|n| not_affine_bound(n, bound, "bound"))?;
        let start = start.map_err(|n| not_affine_bound(n, iv.start, "start"))?;
        let own = |xs: &[Aff]| xs.iter().any(|x| x.terms.contains_key(&(iv.phi as usize)) || x.terms.contains_key(&iterator_atom(iv)));
        if own(bnd.parts()) {
            return Err(Reject::new(RejectKind::NonAffineBound, bound, format!("bound {} varies in its own loop", value_ref(bound))));
        }
        use inkwell::llvm_sys::LLVMIntPredicate as P;
        // `ne` is `<` (or `>`) only when every value is tested: a step of ±1.
        let unit = iv.step.abs() == 1;
        let strict = match (iv.step.signum(), p) {
            (1, P::LLVMIntSLT | P::LLVMIntULT) | (-1, P::LLVMIntSGT | P::LLVMIntUGT) => true,
            (_, P::LLVMIntNE) if unit => true,
            (1, P::LLVMIntSLE | P::LLVMIntULE) | (-1, P::LLVMIntSGE | P::LLVMIntUGE) => false,
            _ => return Err(bad(&format!("exit compare {p:?} does not bound a loop stepping by {}", iv.step))),
        };
        if !unit && !matches!(start, bounds::Bound::One(_)) {
            return Err(Reject::new(RejectKind::NonAffineBound, iv.start, format!("start {} of a loop stepping by {} is a minimum or maximum", value_ref(iv.start), iv.step)));
        }
        let shift = |x: &Aff| x.plus(-e + if strict { -iv.step.signum() } else { 0 }).ok_or_else(|| overflow(bound));
        let (lower, upper) = if iv.step > 0 {
            let ups = bnd.as_min().ok_or_else(|| Reject::new(RejectKind::NonAffineBound, bound, format!("upper bound {} is a maximum", value_ref(bound))))?;
            let los = start.as_max().ok_or_else(|| Reject::new(RejectKind::NonAffineBound, iv.start, format!("lower bound {} is a minimum", value_ref(iv.start))))?;
            (los.to_vec(), ups.iter().map(shift).collect::<Result<Vec<_>, _>>()?)
        } else {
            let los = bnd.as_max().ok_or_else(|| Reject::new(RejectKind::NonAffineBound, bound, format!("lower bound {} is a minimum", value_ref(bound))))?;
            let ups = start.as_min().ok_or_else(|| Reject::new(RejectKind::NonAffineBound, iv.start, format!("upper bound {} is a maximum", value_ref(iv.start))))?;
            (los.iter().map(shift).collect::<Result<Vec<_>, _>>()?, ups.to_vec())
        };
        // A rotated loop runs once before its first test: its guard must say lower <= upper.
        for lo in &lower {
            for up in &upper {
                let need = up.add(lo, -1).ok_or_else(|| overflow(bound))?;
                if !self.assume_guarded && !implied(&need, &place.cons) {
                    return Err(Reject::new(
                        RejectKind::UnguardedLoop,
                        term,
                        format!("loop {} runs once before its test and no enclosing condition says its bounds are not empty", value_ref(iv.phi)),
                    ));
                }
            }
        }
        Ok((lower, upper))
    }

    /// Block `blk` as a statement, if it accesses memory.
    fn statement(&mut self, blk: usize, place: &Place, next: &mut usize) -> Result<(), Reject> {
        // An induction variable's value after its loop (an LCSSA phi of it)
        // would need a scalar written by the loop: not modelled.
        let bb = self.shape.cfg.blocks[blk];
        for phi in ir::instructions(bb).into_iter().take_while(|&i| ir::opcode(i) == O::LLVMPHI) {
            if let Ok(a) = self.with_ctx(|ctx| ctx.eval(phi)) {
                let own: Vec<usize> = place.loops.iter().map(|&l| self.loops[l].phi).collect();
                if let Some(&t) = a.terms.keys().find(|t| self.ivs.contains(t) && !own.contains(t)) {
                    let msg = format!("{} is the value of induction variable {} after its loop (not modelled)", value_ref(phi), atom_name(t));
                    return Err(Reject::new(RejectKind::ScalarDependence, phi, msg));
                }
            }
        }
        let mut accesses = Vec::new();
        for i in ir::instructions(self.shape.cfg.blocks[blk]) {
            let (kind, ptr, ty) = match ir::opcode(i) {
                O::LLVMLoad => (AccessKind::Read, unsafe { LLVMGetOperand(i, 0) }, unsafe { LLVMTypeOf(i) }),
                O::LLVMStore => (AccessKind::Write, unsafe { LLVMGetOperand(i, 1) }, unsafe { LLVMTypeOf(LLVMGetOperand(i, 0)) }),
                _ => continue,
            };
            let elem_size = unsafe { inkwell::llvm_sys::target::LLVMABISizeOfType(inkwell::llvm_sys::target::LLVMGetModuleDataLayout(self.module), ty) };
            let addr = self.with_ctx(|ctx| decompose(self.module, ctx, ptr, elem_size)).map_err(|e| addr_error(e, i))?;
            let is_arg = unsafe { !LLVMIsAArgument(addr.base).is_null() };
            let akind = if is_arg { ArrayKind::Argument { noalias: ir::has_noalias(addr.base) } } else { ArrayKind::Global };
            let array = self.array((addr.base, 0), || Array { name: value_ref(addr.base), kind: akind, dims: addr.dims.clone(), elem_size, base: addr.base });
            accesses.push(RawAccess { kind, array, subs: addr.subs, dims: addr.dims, elem_size, inst: i });
        }
        // Scalars: reads before the block's memory accesses, writes after.
        let scalar = std::mem::take(&mut self.scalars[blk]);
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        for sc in scalar {
            let size = unsafe { inkwell::llvm_sys::target::LLVMABISizeOfType(inkwell::llvm_sys::target::LLVMGetModuleDataLayout(self.module), LLVMTypeOf(sc.value)) };
            let (tag, kind, name) = if sc.is_phi { (1, ArrayKind::Phi, format!("{}.phi", value_ref(sc.value))) } else { (2, ArrayKind::Value, value_ref(sc.value)) };
            let array = self.array((sc.value, tag), || Array { name, kind, dims: Vec::new(), elem_size: size, base: sc.value });
            let acc = RawAccess { kind: sc.kind, array, subs: Vec::new(), dims: Vec::new(), elem_size: size, inst: sc.inst };
            if sc.kind == AccessKind::Read { reads.push(acc) } else { writes.push(acc) }
        }
        let accesses: Vec<RawAccess> = reads.into_iter().chain(accesses).chain(writes).collect();
        if accesses.is_empty() {
            return Ok(());
        }
        let mut schedule = place.prefix.clone();
        schedule.push(*next);
        *next += 1;
        self.stmts.push(RawStmt { block: blk, loops: place.loops.clone(), domain: place.cons.clone(), schedule, accesses });
        Ok(())
    }

    /// The array of `key` (a base or value and its tag), made by `make` the first time.
    fn array(&mut self, key: (LLVMValueRef, u8), make: impl FnOnce() -> Array) -> usize {
        let key = (key.0 as usize, key.1);
        if let Some(&a) = self.array_of.get(&key) {
            return a;
        }
        self.arrays.push(make());
        self.array_of.insert(key, self.arrays.len() - 1);
        self.arrays.len() - 1
    }

    /// The SCoP, with every expression over (iterators, parameters).
    fn finish(mut self, function: String, entry: String, exit: String, region: Region) -> Result<Scop, Reject> {
        self.unify_shapes()?;
        let mut params: Vec<usize> = Vec::new();
        let mut note = |a: &Aff| {
            for &t in a.terms.keys() {
                if !self.ivs.contains(&t) && !params.contains(&t) {
                    params.push(t);
                }
            }
        };
        for l in &self.loops {
            l.lower.iter().chain(&l.upper).for_each(&mut note);
        }
        for s in &self.stmts {
            s.domain.iter().for_each(|c| note(&c.aff));
            s.accesses.iter().flat_map(|a| &a.subs).for_each(&mut note);
        }
        // Atoms are keyed by address: order the parameters by the program instead.
        params.sort_by_key(|&p| self.rank(p as LLVMValueRef));
        let space_of = |loops: &[usize]| -> Vec<usize> { loops.iter().map(|&l| self.loops[l].phi).collect() };
        let conv = |a: &Aff, space: &[usize], at: LLVMValueRef| -> Result<AffExpr, Reject> {
            let mut coeffs = vec![0; space.len() + params.len()];
            for (&t, &c) in &a.terms {
                let k = match space.iter().position(|&s| s == t) {
                    Some(k) => k,
                    None => space.len() + params.iter().position(|&p| p == t).ok_or_else(|| Reject::new(RejectKind::ScalarDependence, at, format!("{} used outside its loop", atom_name(t))))?,
                };
                coeffs[k] = c;
            }
            Ok(AffExpr { coeffs, constant: a.c })
        };
        let mut loops = Vec::new();
        for (k, l) in self.loops.iter().enumerate() {
            let mut chain = Vec::new();
            let mut p = l.parent;
            while let Some(x) = p {
                chain.push(x);
                p = self.loops[x].parent;
            }
            chain.reverse();
            let mut space = space_of(&chain);
            let at = unsafe { LLVMGetFirstInstruction(self.shape.cfg.blocks[l.header]) };
            let lower = l.lower.iter().map(|a| conv(a, &space, at)).collect::<Result<_, _>>()?;
            let upper = l.upper.iter().map(|a| conv(a, &space, at)).collect::<Result<_, _>>()?;
            space.push(l.phi);
            let constraints = l.cons.iter().map(|c| Ok(Constraint { expr: conv(&c.aff, &space, at)?, equality: c.eq })).collect::<Result<_, Reject>>()?;
            let children = self.loops.iter().enumerate().filter(|(_, c)| c.parent == Some(k)).map(|(i, _)| i).collect();
            let header = value_ref(unsafe { LLVMBasicBlockAsValue(self.shape.cfg.blocks[l.header]) });
            let header_block = self.shape.cfg.blocks[l.header];
            loops.push(Loop { parent: l.parent, children, depth: chain.len(), header, lower, upper, constraints, step: l.step, iv: l.iv, start: l.start, secondary: l.secondary.clone(), header_block });
        }
        let mut stmts = Vec::new();
        for (k, s) in self.stmts.iter().enumerate() {
            let space = space_of(&s.loops);
            let bb = self.shape.cfg.blocks[s.block];
            let at = unsafe { LLVMGetFirstInstruction(bb) };
            let domain = s.domain.iter().map(|c| Ok(Constraint { expr: conv(&c.aff, &space, at)?, equality: c.eq })).collect::<Result<_, Reject>>()?;
            let mut accesses = Vec::new();
            for a in &s.accesses {
                let subscripts = a.subs.iter().map(|x| conv(x, &space, a.inst)).collect::<Result<_, _>>()?;
                accesses.push(Access { kind: a.kind, array: a.array, subscripts, elem_size: a.elem_size, inst: a.inst });
            }
            let block = value_ref(unsafe { LLVMBasicBlockAsValue(bb) });
            stmts.push(Stmt { name: format!("S{k}"), block, loops: s.loops.clone(), domain, schedule: s.schedule.clone(), accesses, at, bb });
        }
        let params = params.iter().map(|&p| Param { name: value_ref(p as LLVMValueRef), value: p as LLVMValueRef }).collect();
        let may_alias = may_alias(&self.arrays, &stmts);
        let entry_block = region.entry.ok_or_else(|| Reject::new(RejectKind::Unsupported, std::ptr::null_mut(), "empty region"))?;
        Ok(Scop { function, entry, exit, params, loops, stmts, arrays: self.arrays, may_alias, blocks: region.blocks, entry_block, exit_block: region.exit })
    }
}

impl Builder<'_> {
    /// A stable order of values: arguments by position, then instructions
    /// in block order, then anything else by name.
    fn rank(&self, v: LLVMValueRef) -> (u8, usize, usize, String) {
        unsafe {
            if !LLVMIsAArgument(v).is_null() {
                let f = LLVMGetParamParent(v);
                let k = (0..LLVMCountParams(f)).position(|k| LLVMGetParam(f, k) == v).unwrap_or(0);
                return (0, k, 0, String::new());
            }
            if !LLVMIsAInstruction(v).is_null() {
                let bb = LLVMGetInstructionParent(v);
                let b = self.shape.cfg.index.get(&bb).copied().unwrap_or(usize::MAX);
                let k = ir::instructions(bb).iter().position(|&i| i == v).unwrap_or(0);
                return (1, b, k, String::new());
            }
        }
        (2, 0, 0, value_ref(v))
    }

    /// An array accessed with different shapes (`A[i][j]` and a linearized
    /// `A[64*i + j]`) has all its accesses linearized, so that one address
    /// has one subscript; elements of different sizes are rejected.
    fn unify_shapes(&mut self) -> Result<(), Reject> {
        for a in 0..self.arrays.len() {
            let accs = || self.stmts.iter().flat_map(|s| &s.accesses).filter(move |x| x.array == a);
            // Subscripts count elements of the access's size: one size per array.
            if let Some(x) = accs().find(|x| x.elem_size != self.arrays[a].elem_size) {
                return Err(Reject::new(RejectKind::Unsupported, x.inst, format!("{} is accessed with elements of different sizes", self.arrays[a].name)));
            }
            if accs().all(|x| x.dims == self.arrays[a].dims) {
                continue;
            }
            for x in self.stmts.iter_mut().flat_map(|s| &mut s.accesses).filter(|x| x.array == a) {
                let mut lin = Aff::default();
                for (k, sub) in x.subs.iter().enumerate() {
                    let mut scale: i64 = 1;
                    for d in &x.dims[k + 1..] {
                        let n = d.and_then(|n| i64::try_from(n).ok()).ok_or_else(|| overflow(x.inst))?;
                        scale = scale.checked_mul(n).ok_or_else(|| overflow(x.inst))?;
                    }
                    lin = sub.scale(scale).and_then(|t| lin.add(&t, 1)).ok_or_else(|| overflow(x.inst))?;
                }
                x.subs = vec![lin];
                x.dims = vec![None];
            }
            self.arrays[a].dims = vec![None];
        }
        Ok(())
    }
}

/// Pairs of arrays that may be one memory, at least one written: two
/// arguments, or an argument and a global, unless the argument is `noalias`.
fn may_alias(arrays: &[Array], stmts: &[Stmt]) -> Vec<(usize, usize)> {
    let written: HashSet<usize> = stmts.iter().flat_map(|s| &s.accesses).filter(|a| a.kind == AccessKind::Write).map(|a| a.array).collect();
    let mut out = Vec::new();
    for a in 0..arrays.len() {
        for b in a + 1..arrays.len() {
            let memory = |k: usize| matches!(arrays[k].kind, ArrayKind::Global | ArrayKind::Argument { .. });
            if !memory(a) || !memory(b) {
                continue;
            }
            let arg = |k: usize| matches!(arrays[k].kind, ArrayKind::Argument { noalias: false });
            let restrict = |k: usize| matches!(arrays[k].kind, ArrayKind::Argument { noalias: true });
            if (written.contains(&a) || written.contains(&b)) && (arg(a) || arg(b)) && !restrict(a) && !restrict(b) {
                out.push((a, b));
            }
        }
    }
    out
}

fn overflow(at: LLVMValueRef) -> Reject {
    Reject::new(RejectKind::Unsupported, at, "affine coefficients overflow")
}

fn not_affine_bound(n: NotAffine, v: LLVMValueRef, what: &str) -> Reject {
    match n {
        NotAffine::Load(l) => Reject::new(RejectKind::NonAffineBound, l, format!("loop {what} {} depends on load {} (data-dependent)", value_ref(v), value_ref(l))),
        NotAffine::Inst(i) => Reject::new(RejectKind::NonAffineBound, i, format!("loop {what} {} is not affine ({})", value_ref(v), value_ref(i))),
    }
}

fn cond_error(e: CondError, term: LLVMValueRef) -> Reject {
    match e {
        CondError::NotAffine(NotAffine::Load(l)) => Reject::new(RejectKind::NonAffineCondition, l, format!("condition depends on load {} (data-dependent)", value_ref(l))),
        CondError::NotAffine(NotAffine::Inst(i)) => Reject::new(RejectKind::NonAffineCondition, i, format!("condition is not affine ({})", value_ref(i))),
        CondError::Shape(c) => Reject::new(RejectKind::NonAffineCondition, term, format!("condition {} is not a conjunction of affine compares", value_ref(c))),
    }
}

fn addr_error(e: AddrError, i: LLVMValueRef) -> Reject {
    match e {
        AddrError::NotAffine(NotAffine::Load(l)) => Reject::new(RejectKind::IndirectAccess, i, format!("subscript of {} depends on load {} (indirect access)", value_ref(i), value_ref(l))),
        AddrError::NotAffine(NotAffine::Inst(x)) => Reject::new(RejectKind::NonAffineSubscript, i, format!("subscript of {} is not affine ({})", value_ref(i), value_ref(x))),
        AddrError::Base(b) => Reject::new(RejectKind::BadBasePointer, i, format!("address of {} is not an array access on a global or argument ({})", value_ref(i), value_ref(b))),
    }
}
