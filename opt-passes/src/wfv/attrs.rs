//! Variable and block attributes (seed 001 §1.4, used by §2.1): which values
//! are the same in every instance (uniform), which step by a constant from
//! one instance to the next (consecutive: `Linear(step)`, in bytes for
//! pointers), which differ (varying); which branches diverge (`div_causing`
//! blocks), which blocks every instance runs (`by_all`), where divergent
//! paths join (`blend`) and which blocks follow a divergent branch
//! (`rewire`). Guarded and nonvectorizable are properties of operations the
//! widening decides per instruction (`widen`). A fixed point from "all
//! uniform" upwards: a phi at a join of a divergent region, and a value
//! leaving a loop of a function with divergent branches, are varying.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;

use super::linearize::Nest;
use crate::cfg::Cfg;
use crate::ir;

/// A value's attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attr {
    Uniform,
    /// Instance k holds `base + k * step` (bytes for pointers).
    Linear(i64),
    Varying,
}

impl Attr {
    fn join(self, o: Attr) -> Attr {
        if self == o {
            self
        } else {
            Attr::Varying
        }
    }
}

/// Attributes of a region's values and blocks.
pub struct Attrs {
    pub values: HashMap<LLVMValueRef, Attr>,
    /// Blocks ending in a branch (or switch) on a non-uniform condition.
    pub div_causing: Vec<bool>,
    /// Blocks every instance that enters the region runs (their mask is the entry mask).
    pub by_all: Vec<bool>,
    /// Blocks where divergent paths join (their phis become selects).
    pub blend: Vec<bool>,
    /// Successors of divergent branches.
    pub rewire: Vec<bool>,
}

impl Attrs {
    /// Any divergent branch: the region is linearized (else its CFG is kept).
    pub fn divergent(&self) -> bool {
        self.div_causing.iter().any(|&d| d)
    }

    /// A value's attribute: constants, globals and values defined outside the region are uniform.
    pub fn of(&self, v: LLVMValueRef) -> Attr {
        self.values.get(&v).copied().unwrap_or(Attr::Uniform)
    }
}

/// The block an instruction is in.
pub fn block_of(i: LLVMValueRef) -> LLVMBasicBlockRef {
    unsafe { LLVMGetInstructionParent(i) }
}

/// The pointer operand's store size in bytes of a GEP's source element, for constant-index steps.
fn type_size(m: LLVMModuleRef, t: LLVMTypeRef) -> u64 {
    unsafe { inkwell::llvm_sys::target::LLVMABISizeOfType(inkwell::llvm_sys::target::LLVMGetModuleDataLayout(m), t) }
}

/// Whether a call may not be executed for inactive instances or more than
/// once: anything but an intrinsic or function that neither reads nor writes memory.
pub fn is_pure_call(call: LLVMValueRef) -> bool {
    unsafe {
        let callee = LLVMGetCalledValue(call);
        if callee.is_null() || LLVMIsAFunction(callee).is_null() {
            return false;
        }
        let kind = LLVMGetEnumAttributeKindForName(c"memory".as_ptr(), 6);
        let none = |a: LLVMAttributeRef| !a.is_null() && LLVMGetEnumAttributeValue(a) == 0;
        let idx = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        none(LLVMGetCallSiteEnumAttribute(call, idx, kind)) || none(LLVMGetEnumAttributeAtIndex(callee, idx, kind))
    }
}

/// The attribute of instruction `i` given its operands' (`get`), in a region
/// with `divergent` branches: the transfer rules the widening follows.
pub fn transfer(m: LLVMModuleRef, i: LLVMValueRef, get: &dyn Fn(LLVMValueRef) -> Attr, divergent_phi: bool) -> Attr {
    use Attr::*;
    let op = |k: u32| unsafe { LLVMGetOperand(i, k) };
    let n = unsafe { LLVMGetNumOperands(i) } as u32;
    let all_uniform = |upto: u32| (0..upto).all(|k| get(op(k)) == Uniform);
    let c = |k: u32| ir::const_u64(op(k)).map(|v| v as i64);
    match ir::opcode(i) {
        O::LLVMPHI => {
            if divergent_phi {
                return Varying;
            }
            let mut a: Option<Attr> = None;
            for k in 0..n {
                let x = match get(op(k)) {
                    Linear(_) => Varying,
                    x => x,
                };
                a = Some(a.map_or(x, |y| y.join(x)));
            }
            a.unwrap_or(Uniform)
        }
        O::LLVMAdd | O::LLVMSub => match (get(op(0)), get(op(1))) {
            (Uniform, Uniform) => Uniform,
            (Linear(s), Uniform) => Linear(s),
            (Uniform, Linear(s)) if ir::opcode(i) == O::LLVMAdd => Linear(s),
            (Linear(s), Linear(t)) if ir::opcode(i) == O::LLVMAdd => Linear(s + t),
            _ => Varying,
        },
        O::LLVMMul => match (get(op(0)), get(op(1)), c(0), c(1)) {
            (Uniform, Uniform, _, _) => Uniform,
            (Linear(s), Uniform, _, Some(k)) | (Uniform, Linear(s), Some(k), _) => Linear(s.wrapping_mul(k)),
            _ => Varying,
        },
        O::LLVMShl => match (get(op(0)), get(op(1)), c(1)) {
            (Uniform, Uniform, _) => Uniform,
            (Linear(s), Uniform, Some(k)) if k < 32 => Linear(s << k),
            _ => Varying,
        },
        O::LLVMGetElementPtr => gep_attr(m, i, get),
        O::LLVMLoad => {
            if get(op(0)) == Uniform {
                Uniform
            } else {
                Varying
            }
        }
        O::LLVMStore | O::LLVMAlloca => Varying,
        O::LLVMCall => {
            let args = unsafe { LLVMGetNumArgOperands(i) };
            if is_pure_call(i) && all_uniform(args) {
                Uniform
            } else {
                Varying
            }
        }
        _ => {
            if all_uniform(n) {
                Uniform
            } else {
                Varying
            }
        }
    }
}

fn gep_attr(m: LLVMModuleRef, i: LLVMValueRef, get: &dyn Fn(LLVMValueRef) -> Attr) -> Attr {
    let n = unsafe { LLVMGetNumOperands(i) } as u32;
    let mut step = match get(unsafe { LLVMGetOperand(i, 0) }) {
        Attr::Uniform => 0,
        Attr::Linear(s) => s,
        Attr::Varying => return Attr::Varying,
    };
    let scales = gep_scales(m, i);
    for k in 1..n {
        match (get(unsafe { LLVMGetOperand(i, k) }), scales[k as usize - 1]) {
            (Attr::Uniform, _) => {}
            (Attr::Linear(s), GepIndex::Scale(size)) => step = step.wrapping_add(s.wrapping_mul(size)),
            _ => return Attr::Varying,
        }
    }
    if step == 0 {
        Attr::Uniform
    } else {
        Attr::Linear(step)
    }
}

/// What one of a GEP's indices adds to the address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GepIndex {
    /// The index times these bytes (the source element's size for the
    /// first index, the element size of the array stepped into for others).
    Scale(i64),
    /// A struct field (a constant index): this byte offset.
    Field(i64),
    /// Into something else.
    Unknown,
}

/// What each of a GEP's indices adds to the address, in operand order.
pub fn gep_scales(m: LLVMModuleRef, gep: LLVMValueRef) -> Vec<GepIndex> {
    unsafe {
        let dl = inkwell::llvm_sys::target::LLVMGetModuleDataLayout(m);
        let n = LLVMGetNumOperands(gep) as u32;
        let mut ty = LLVMGetGEPSourceElementType(gep);
        let mut out = vec![GepIndex::Scale(type_size(m, ty) as i64)];
        for k in 2..n {
            match LLVMGetTypeKind(ty) {
                inkwell::llvm_sys::LLVMTypeKind::LLVMArrayTypeKind | inkwell::llvm_sys::LLVMTypeKind::LLVMVectorTypeKind => {
                    ty = LLVMGetElementType(ty);
                    out.push(GepIndex::Scale(type_size(m, ty) as i64));
                }
                inkwell::llvm_sys::LLVMTypeKind::LLVMStructTypeKind => match ir::const_u64(LLVMGetOperand(gep, k)) {
                    Some(f) => {
                        out.push(GepIndex::Field(inkwell::llvm_sys::target::LLVMOffsetOfElement(dl, ty, f as u32) as i64));
                        ty = LLVMStructGetTypeAtIndex(ty, f as u32);
                    }
                    None => return out.into_iter().chain((k..n).map(|_| GepIndex::Unknown)).collect(),
                },
                _ => out.push(GepIndex::Unknown),
            }
        }
        out
    }
}

/// Analyses the blocks `region` of `cfg` (entry `entry`) with the arguments'
/// attributes `args`; `exits` are blocks whose terminator leaves the region
/// (a loop body's latch): their branch is not analysed.
pub fn analyse(
    m: LLVMModuleRef,
    cfg: &Cfg,
    nest: &Nest,
    region: &[bool],
    entry: usize,
    args: &HashMap<LLVMValueRef, Attr>,
    exits: &[usize],
    level: super::Level,
) -> Attrs {
    use super::Level;
    let nb = cfg.blocks.len();
    let mut values: HashMap<LLVMValueRef, Attr> = args.clone();
    let insts: Vec<(usize, LLVMValueRef)> = (0..nb)
        .filter(|&b| region[b] && cfg.reachable(b))
        .flat_map(|b| ir::instructions(cfg.blocks[b]).into_iter().map(move |i| (b, i)))
        .collect();
    let insts: Vec<(usize, LLVMValueRef)> = insts.into_iter().filter(|(_, i)| !args.contains_key(i)).collect();
    for &(_, i) in &insts {
        values.insert(i, Attr::Uniform);
    }
    let block_index = |bb: LLVMBasicBlockRef| cfg.index.get(&bb).copied();
    let mut div_causing = vec![false; nb];
    loop {
        let mut changed = false;
        let divergent = div_causing.iter().any(|&d| d);
        for &(b, i) in &insts {
            let snapshot = &values;
            let get = |v: LLVMValueRef| -> Attr {
                let a = snapshot.get(&v).copied().unwrap_or(Attr::Uniform);
                // A value leaving a loop of a divergent region differs per instance.
                if divergent && a != Attr::Varying && unsafe { !LLVMIsAInstruction(v).is_null() } {
                    if let Some(db) = block_of(v).pipe(block_index) {
                        if region[db] && nest.loops_of(db).iter().any(|&k| !nest.contains(k, b)) {
                            return Attr::Varying;
                        }
                    }
                }
                a
            };
            let is_phi = ir::opcode(i) == O::LLVMPHI;
            let divergent_phi = is_phi && divergent && nest.header_of(b).is_none() && cfg.preds[b].len() > 1 && b != entry;
            // Naive: no analysis, every computed value differs per instance.
            let new = if level == Level::Naive { Attr::Varying } else { transfer(m, i, &get, divergent_phi) };
            let old = snapshot[&i];
            let mut diverges = false;
            if unsafe { !LLVMIsATerminatorInst(i).is_null() } && !exits.contains(&b) {
                let cond = match ir::opcode(i) {
                    O::LLVMBr if unsafe { LLVMIsConditional(i) } != 0 => Some(unsafe { LLVMGetCondition(i) }),
                    O::LLVMSwitch => Some(unsafe { LLVMGetOperand(i, 0) }),
                    _ => None,
                };
                // Below All, every branch on a computed condition is linearized.
                let linearize = |c: LLVMValueRef| level != Level::All && unsafe { LLVMIsAConstant(c).is_null() };
                diverges = cond.is_some_and(|c| get(c) != Attr::Uniform || linearize(c)) && !div_causing[b];
            }
            let joined = if old == Attr::Uniform { new } else { old.join(new) };
            if joined != old {
                values.insert(i, joined);
                changed = true;
            }
            if diverges {
                div_causing[b] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let divergent = div_causing.iter().any(|&d| d);
    let mut rewire = vec![false; nb];
    for b in 0..nb {
        if div_causing[b] {
            for &s in &cfg.succs[b] {
                rewire[s] = true;
            }
        }
    }
    let blend = (0..nb)
        .map(|b| region[b] && divergent && nest.header_of(b).is_none() && cfg.preds[b].len() > 1 && b != entry)
        .collect();
    let by_all = by_all(cfg, nest, region, entry, divergent, exits);
    Attrs { values, div_causing, by_all, blend, rewire }
}

/// Blocks that every instance entering the region runs: with no divergent
/// branch all of them; else those outside loops that every path from the
/// entry to the region's end passes through.
fn by_all(cfg: &Cfg, nest: &Nest, region: &[bool], entry: usize, divergent: bool, exits: &[usize]) -> Vec<bool> {
    let nb = cfg.blocks.len();
    if !divergent {
        return (0..nb).map(|b| region[b]).collect();
    }
    let ends: Vec<usize> = (0..nb)
        .filter(|&b| region[b] && (exits.contains(&b) || cfg.succs[b].iter().all(|&s| !region[s] || nest.is_back_edge(b, s))))
        .collect();
    (0..nb)
        .map(|b| {
            if !region[b] || nest.inner[b].is_some() || !cfg.reachable(b) {
                return false;
            }
            if b == entry {
                return true;
            }
            // Without b, can the entry reach an end?
            let mut seen = vec![false; nb];
            let mut work = vec![entry];
            seen[entry] = true;
            while let Some(x) = work.pop() {
                if ends.contains(&x) {
                    return false;
                }
                for &s in &cfg.succs[x] {
                    if region[s] && s != b && !seen[s] {
                        seen[s] = true;
                        work.push(s);
                    }
                }
            }
            true
        })
        .collect()
}

trait Pipe: Sized {
    fn pipe<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
}
impl<T> Pipe for T {}
