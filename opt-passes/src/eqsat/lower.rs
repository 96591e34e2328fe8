//! Lowering an extracted DSL program back to IR (issue 11: IR that selects
//! onto the `.isa`'s instructions one to one): a vector loop runs `copies`
//! iterations of the lifted loop per step (`lanes` times the interleave
//! factor) — its body the program, its
//! address classes pointers computed from the counter and the inductions,
//! its carried values scalar phis — and the original loop, kept, runs the
//! iterations that remain (or none: then the exit is taken directly, its
//! phis given the vector loop's results).

use std::collections::HashMap;

use dsp_egg_isel::lang::{Elem, VecLang};
use egg::{Id, RecExpr};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate as P;

use super::lift::{ArgSrc, Lifted, Output};
use crate::ir;
use crate::wfv::vloop::Shape;
use crate::wfv::widen::nm;

type R<T> = Result<T, String>;

/// Whether the loop's values reach beyond it only as the exit's phis of
/// carried values (what [`rewrite`] can give results for); checked before
/// anything changes.
pub(crate) fn check(sh: &Shape, body: LLVMBasicBlockRef, lifted: &Lifted) -> R<()> {
    unsafe {
        let incoming = |p: LLVMValueRef, from: LLVMBasicBlockRef| {
            (0..LLVMCountIncoming(p)).find(|&j| LLVMGetIncomingBlock(p, j) == from).map(|j| LLVMGetIncomingValue(p, j))
        };
        let carried: Vec<LLVMValueRef> = lifted.args.iter().filter_map(|a| if let ArgSrc::Carried(p) = a.1 { Some(p) } else { None }).collect();
        for i in ir::instructions(body) {
            for u in ir::users(i) {
                if LLVMGetInstructionParent(u) == body {
                    continue;
                }
                // An exit phi's value, or (the exit reached only from the
                // loop) any use after it: it gets an exit phi of its own.
                let phi_use = LLVMGetInstructionParent(u) == sh.exit && ir::opcode(u) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI;
                let only_exit = single_pred(sh.exit);
                let ok = (phi_use || only_exit) && carried.iter().any(|&p| incoming(p, body) == Some(i));
                if !ok {
                    return Err(format!("'{}', computed in the loop, is used after it", ir::value_name(i)));
                }
            }
        }
        for phi in ir::instructions(sh.exit).into_iter().filter(|&i| ir::opcode(i) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI) {
            let v = incoming(phi, body).ok_or("an exit phi without a value from the loop")?;
            if !carried.iter().any(|&p| incoming(p, body) == Some(v)) {
                return Err("the exit block takes a value other than a carried one from the loop".into());
            }
        }
    }
    Ok(())
}

/// Emits the vector loop for `lifted` (program `prog`) in front of the loop
/// of shape `sh` in function `f` (after [`check`]).
pub(crate) fn rewrite(f: LLVMValueRef, sh: &Shape, body: LLVMBasicBlockRef, lifted: &Lifted, prog: &RecExpr<VecLang>) -> R<()> {
    let lanes = lifted.lanes as i64;
    unsafe {
        let m = LLVMGetGlobalParent(f);
        let ctx = LLVMGetModuleContext(m);
        let b = LLVMCreateBuilderInContext(ctx);
        let ity = sh.ity;
        let c = |v: i64| LLVMConstInt(ity, v as u64, 1);
        let i32t = LLVMInt32TypeInContext(ctx);
        let et = match lifted.elem {
            Elem::I32 => i32t,
            Elem::F32 => LLVMFloatTypeInContext(ctx),
        };
        let vt = LLVMVectorType(et, lifted.lanes as u32);
        let dl = inkwell::llvm_sys::target::LLVMGetModuleDataLayout(m);
        let pty = inkwell::llvm_sys::target::LLVMIntPtrTypeInContext(ctx, dl);
        let block = |name: &str| {
            let n = std::ffi::CString::new(name).unwrap();
            LLVMAppendBasicBlockInContext(ctx, f, n.as_ptr())
        };
        let (check, vloop, mid, rest_ph) = (block("egg.check"), block("egg.vloop"), block("egg.mid"), block("egg.rest.ph"));
        let loc = inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(LLVMGetBasicBlockTerminator(body));
        LLVMSetCurrentDebugLocation2(b, loc);
        let pre = LLVMGetInstructionParent(sh.pre_term);
        let incoming = |p: LLVMValueRef, from: LLVMBasicBlockRef| {
            (0..LLVMCountIncoming(p)).find(|&j| LLVMGetIncomingBlock(p, j) == from).map(|j| LLVMGetIncomingValue(p, j))
        };
        // check: any vector step?
        LLVMPositionBuilderAtEnd(b, check);
        let tc = sh.trip_count(b);
        // Whole steps of `copies` iterations.
        let copies = lifted.copies as i64;
        let vtc = if copies & (copies - 1) == 0 {
            LLVMBuildAnd(b, tc, c(-copies), nm())
        } else {
            LLVMBuildSub(b, tc, LLVMBuildURem(b, tc, c(copies), nm()), nm())
        };
        let some = LLVMBuildICmp(b, P::LLVMIntNE, vtc, c(0), nm());
        LLVMBuildCondBr(b, some, vloop, mid);
        // the vector loop
        LLVMPositionBuilderAtEnd(b, vloop);
        let k = LLVMBuildPhi(b, ity, nm());
        let mut carried: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        let mut starts: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for (_, src) in &lifted.args {
            if let ArgSrc::Carried(p) = *src {
                let start = incoming(p, pre).ok_or("internal: a carried value without a start")?;
                carried.insert(p, LLVMBuildPhi(b, LLVMTypeOf(p), nm()));
                starts.insert(p, start);
            }
        }
        let mut ind: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for i in &lifted.inductions {
            ind.insert(i.phi, LLVMBuildPhi(b, LLVMTypeOf(i.phi), nm()));
            starts.insert(i.phi, incoming(i.phi, pre).ok_or("internal: an induction without a start")?);
        }
        // Integer sums `s + ReduceAdd(x)` carried from step to step keep a
        // vector accumulator instead (reassociation is exact on wrapping
        // integers): one vector add per step, one reduction after the loop.
        // With an interleave factor, a sum `((s + ReduceAdd(x1)) + …) +
        // ReduceAdd(xU)` keeps one accumulator per vector.
        let accumulated = vector_accumulators(lifted, prog);
        let mut acc_phi: HashMap<(LLVMValueRef, usize), LLVMValueRef> = HashMap::new();
        for &(p, _, _, k) in &accumulated {
            acc_phi.insert((p, k), LLVMBuildPhi(b, vt, nm()));
        }
        let iv0 = LLVMBuildAdd(b, sh.start, k, nm());
        // The address classes' pointers.
        let mut ptrs = Vec::new();
        for cl in &lifted.classes {
            let mut off = LLVMConstInt(pty, 0, 0);
            for &(v, coeff) in &cl.terms {
                let val = if v == sh.iv { iv0 } else if let Some(&p) = ind.get(&v) { p } else { v };
                let val = LLVMBuildIntCast2(b, val, pty, 1, nm());
                let term = LLVMBuildMul(b, val, LLVMConstInt(pty, coeff as u64, 1), nm());
                off = LLVMBuildAdd(b, off, term, nm());
            }
            let mut idx = [off];
            ptrs.push(LLVMBuildGEP2(b, LLVMInt8TypeInContext(ctx), cl.base, idx.as_mut_ptr(), 1, nm()));
        }
        // The program.
        let mut val: Vec<LLVMValueRef> = Vec::with_capacity(prog.len());
        let mut acc_next_of: HashMap<(LLVMValueRef, usize), LLVMValueRef> = HashMap::new();
        let num = |id: Id| match &prog[id] {
            VecLang::Num(n) => Ok(*n),
            _ => Err("internal: a constant expected".to_string()),
        };
        let sym = |id: Id| match &prog[id] {
            VecLang::Symbol(s) => Ok(*s),
            _ => Err("internal: a name expected".to_string()),
        };
        let float = lifted.elem == Elem::F32;
        let splat = |x: LLVMValueRef| {
            let ins = LLVMBuildInsertElement(b, LLVMGetPoison(vt), x, LLVMConstInt(i32t, 0, 0), nm());
            LLVMBuildShuffleVector(b, ins, LLVMGetPoison(vt), LLVMConstNull(LLVMVectorType(i32t, lanes as u32)), nm())
        };
        let intrinsic = |name: &str, tys: &[LLVMTypeRef], args: &[LLVMValueRef]| ir::build_intrinsic(m, b, name, tys, args).expect("an intrinsic LLVM 19 has");
        let fma = |t: LLVMTypeRef, a: LLVMValueRef, x: LLVMValueRef, y: LLVMValueRef| intrinsic("llvm.fma", &[t], &[a, x, y]);
        for (_, n) in prog.items() {
            let v = |id: Id| val[usize::from(id)];
            let class_ptr = |id: Id| -> R<LLVMValueRef> {
                let s = sym(id)?;
                let k = lifted.classes.iter().position(|c| c.name == s).ok_or("internal: an unknown array")?;
                Ok(ptrs[k])
            };
            let at = |id: Id, i: Id| -> R<LLVMValueRef> {
                let mut idx = [LLVMConstInt(i32t, num(i)? as u64, 1)];
                Ok(LLVMBuildGEP2(b, et, class_ptr(id)?, idx.as_mut_ptr(), 1, nm()))
            };
            let bin = |op: u8, x: LLVMValueRef, y: LLVMValueRef| match (op, float) {
                (0, false) => LLVMBuildAdd(b, x, y, nm()),
                (0, true) => LLVMBuildFAdd(b, x, y, nm()),
                (1, false) => LLVMBuildSub(b, x, y, nm()),
                (1, true) => LLVMBuildFSub(b, x, y, nm()),
                (_, false) => LLVMBuildMul(b, x, y, nm()),
                (_, true) => LLVMBuildFMul(b, x, y, nm()),
            };
            let index = val.len();
            if let Some(&(p, _, x, k)) = accumulated.iter().find(|a| a.1 == index) {
                let sum = LLVMBuildAdd(b, acc_phi[&(p, k)], v(x), nm());
                acc_next_of.insert((p, k), sum);
                // The scalar sum is unchanged inside the loop.
                val.push(carried[&p]);
                continue;
            }
            let out = match n {
                VecLang::Num(x) => {
                    if float {
                        LLVMConstReal(et, f32::from_bits(*x as u32) as f64)
                    } else {
                        LLVMConstInt(et, *x as u32 as u64, 0)
                    }
                }
                VecLang::Symbol(_) | VecLang::List(_) => std::ptr::null_mut(),
                VecLang::Arg(s) => {
                    let s = sym(*s)?;
                    match lifted.args.iter().find(|a| a.0 == s).map(|a| a.1) {
                        Some(ArgSrc::Invariant(x)) => x,
                        Some(ArgSrc::Carried(p)) => carried[&p],
                        None => return Err("internal: an unknown input".into()),
                    }
                }
                VecLang::Get([a, i]) => {
                    let l = LLVMBuildLoad2(b, et, at(*a, *i)?, nm());
                    LLVMSetAlignment(l, 4);
                    l
                }
                VecLang::VecLoad([a, i]) => {
                    let l = LLVMBuildLoad2(b, vt, at(*a, *i)?, nm());
                    LLVMSetAlignment(l, 4);
                    l
                }
                VecLang::Add([x, y]) | VecLang::VecAdd([x, y]) => bin(0, v(*x), v(*y)),
                VecLang::Sub([x, y]) | VecLang::VecSub([x, y]) => bin(1, v(*x), v(*y)),
                VecLang::Mul([x, y]) | VecLang::VecMul([x, y]) => bin(2, v(*x), v(*y)),
                VecLang::Neg(x) | VecLang::VecNeg(x) => {
                    if float {
                        LLVMBuildFNeg(b, v(*x), nm())
                    } else {
                        LLVMBuildNeg(b, v(*x), nm())
                    }
                }
                VecLang::Mac([x, y, z]) if float => fma(et, v(*x), v(*y), v(*z)),
                VecLang::VecMac([x, y, z]) if float => fma(vt, v(*x), v(*y), v(*z)),
                VecLang::Mac([x, y, z]) | VecLang::VecMac([x, y, z]) => bin(0, bin(2, v(*x), v(*y)), v(*z)),
                VecLang::VecAddS([x, s]) => bin(0, v(*x), splat(v(*s))),
                VecLang::VecMulS([x, s]) => bin(2, v(*x), splat(v(*s))),
                VecLang::VecMacS([x, s, z]) if float => fma(vt, v(*x), splat(v(*s)), v(*z)),
                VecLang::VecMacS([x, s, z]) => bin(0, bin(2, v(*x), splat(v(*s))), v(*z)),
                VecLang::Broadcast(s) => splat(v(*s)),
                VecLang::Insert([x, s, l]) => LLVMBuildInsertElement(b, v(*x), v(*s), LLVMConstInt(i32t, num(*l)? as u64, 0), nm()),
                VecLang::Extract([x, l]) => LLVMBuildExtractElement(b, v(*x), LLVMConstInt(i32t, num(*l)? as u64, 0), nm()),
                VecLang::Vec(es) => {
                    let mut acc = LLVMGetPoison(vt);
                    for (l, &e) in es.iter().enumerate() {
                        acc = LLVMBuildInsertElement(b, acc, v(e), LLVMConstInt(i32t, l as u64, 0), nm());
                    }
                    acc
                }
                VecLang::ReduceAdd(x) => {
                    if float {
                        // Ordered (no reassociation), from -0.0: the lanes in lane order.
                        intrinsic("llvm.vector.reduce.fadd", &[vt], &[LLVMConstReal(et, -0.0), v(*x)])
                    } else {
                        intrinsic("llvm.vector.reduce.add", &[vt], &[v(*x)])
                    }
                }
            };
            val.push(out);
        }
        // The outputs.
        let root = prog.as_ref().last().ok_or("internal: an empty program")?;
        let VecLang::List(outs) = root else { return Err("internal: the program is not a list".into()) };
        let mut next: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for (o, &id) in lifted.outputs.iter().zip(outs.iter()) {
            match o {
                Output::Store { class, off, vector } => {
                    let mut idx = [LLVMConstInt(i32t, *off as u64, 1)];
                    let p = LLVMBuildGEP2(b, et, ptrs[*class], idx.as_mut_ptr(), 1, nm());
                    let x = val[usize::from(id)];
                    let st = LLVMBuildStore(b, x, p);
                    LLVMSetAlignment(st, 4);
                    let _ = vector;
                }
                Output::Carried(p) => {
                    next.insert(*p, val[usize::from(id)]);
                }
            }
        }
        let k1 = LLVMBuildAdd(b, k, c(copies), nm());
        let mut ind_next: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for i in &lifted.inductions {
            let p = ind[&i.phi];
            ind_next.insert(i.phi, LLVMBuildAdd(b, p, LLVMConstInt(LLVMTypeOf(p), (i.step * copies) as u64, 1), nm()));
        }
        let more = LLVMBuildICmp(b, P::LLVMIntNE, k1, vtc, nm());
        LLVMBuildCondBr(b, more, vloop, mid);
        ir::add_incoming(k, &[(c(0), check), (k1, vloop)]);
        for (&p, &phi) in &carried {
            ir::add_incoming(phi, &[(starts[&p], check), (*next.get(&p).ok_or("internal: a carried value without its next")?, vloop)]);
        }
        for (&p, &phi) in &ind {
            ir::add_incoming(phi, &[(starts[&p], check), (ind_next[&p], vloop)]);
        }
        for (key, &phi) in &acc_phi {
            ir::add_incoming(phi, &[(LLVMConstNull(vt), check), (acc_next_of[key], vloop)]);
        }
        // mid: the results, then done or the rest in the original loop.
        LLVMPositionBuilderAtEnd(b, mid);
        let mut result: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        for (&p, _) in &carried {
            let r = LLVMBuildPhi(b, LLVMTypeOf(p), nm());
            ir::add_incoming(r, &[(starts[&p], check), (next[&p], vloop)]);
            result.insert(p, r);
        }
        // (All phis first.)
        for (&p, _) in &ind {
            let r = LLVMBuildPhi(b, LLVMTypeOf(p), nm());
            ir::add_incoming(r, &[(starts[&p], check), (ind_next[&p], vloop)]);
            result.insert(p, r);
        }
        // Each sum's accumulators added up, then reduced once.
        let mut keys: Vec<(LLVMValueRef, usize)> = acc_phi.keys().copied().collect();
        keys.sort_by_key(|&(p, k)| (p as usize, k));
        let mut total: Vec<(LLVMValueRef, LLVMValueRef)> = Vec::new();
        let mut acc_out = Vec::new();
        for key in keys {
            let a = LLVMBuildPhi(b, vt, nm());
            ir::add_incoming(a, &[(LLVMConstNull(vt), check), (acc_next_of[&key], vloop)]);
            acc_out.push((key, a));
        }
        for (key, a) in acc_out {
            match total.iter_mut().find(|t| t.0 == key.0) {
                Some(t) => t.1 = LLVMBuildAdd(b, t.1, a, nm()),
                None => total.push((key.0, a)),
            }
        }
        for (p, a) in total {
            let red = intrinsic("llvm.vector.reduce.add", &[vt], &[a]);
            let r = LLVMBuildAdd(b, result[&p], red, nm());
            result.insert(p, r);
        }
        let rest_start = LLVMBuildAdd(b, sh.start, vtc, nm());
        let done = LLVMBuildICmp(b, P::LLVMIntEQ, vtc, tc, nm());
        LLVMBuildCondBr(b, done, sh.exit, rest_ph);
        // Values used after the loop other than by the exit's phis: an exit phi of their own.
        for (&p, _) in &carried {
            let Some(v) = incoming(p, body) else { continue };
            let outside: Vec<LLVMValueRef> = ir::users(v).into_iter().filter(|&u| LLVMGetInstructionParent(u) != body && !(LLVMGetInstructionParent(u) == sh.exit && ir::opcode(u) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI)).collect();
            if outside.is_empty() {
                continue;
            }
            let first = LLVMGetFirstInstruction(sh.exit);
            LLVMPositionBuilderBefore(b, first);
            let ephi = LLVMBuildPhi(b, LLVMTypeOf(v), nm());
            ir::add_incoming(ephi, &[(v, body)]);
            for u in outside {
                for k in 0..LLVMGetNumOperands(u) as u32 {
                    if LLVMGetOperand(u, k) == v {
                        LLVMSetOperand(u, k, ephi);
                    }
                }
            }
        }
        // The exit's phis, from mid: the carried values' results.
        for phi in ir::instructions(sh.exit).into_iter().filter(|&i| ir::opcode(i) == inkwell::llvm_sys::LLVMOpcode::LLVMPHI) {
            let v = incoming(phi, body).ok_or("an exit phi without a value from the loop")?;
            let r = carried.keys().find(|&&p| incoming(p, body) == Some(v)).map(|p| result[p]).ok_or("a value computed in the loop other than a carried one is used after it")?;
            ir::add_incoming(phi, &[(r, mid)]);
        }
        LLVMPositionBuilderAtEnd(b, rest_ph);
        LLVMBuildBr(b, body);
        // The original loop starts where the vector loop stopped.
        LLVMSetSuccessor(sh.pre_term, 0, check);
        let mut starts_rest: Vec<(LLVMValueRef, LLVMValueRef)> = vec![(sh.iv, rest_start)];
        for (&p, &r) in &result {
            starts_rest.push((p, r));
        }
        for (p, s) in starts_rest {
            let latch_v = incoming(p, body).ok_or("internal: a header phi without its latch value")?;
            LLVMPositionBuilderBefore(b, p);
            let np = LLVMBuildPhi(b, LLVMTypeOf(p), nm());
            ir::add_incoming(np, &[(s, rest_ph), (latch_v, body)]);
            LLVMReplaceAllUsesWith(p, np);
            // The vector loop's copies referred to `p` only through the maps above.
            LLVMInstructionEraseFromParent(p);
        }
        LLVMDisposeBuilder(b);
    }
    Ok(())
}

/// The integer carried values whose program output is a chain of sums
/// `((s + ReduceAdd(x1)) + …) + ReduceAdd(xU)` (each sum in either order),
/// `s` its `(arg s)`, with every sum and `(arg s)` used only by the chain:
/// `(carried value, the sum's node index, xk, k)` for each sum, k from 0 at
/// the innermost.
pub(crate) fn vector_accumulators(lifted: &Lifted, prog: &RecExpr<VecLang>) -> Vec<(LLVMValueRef, usize, Id, usize)> {
    let mut out = Vec::new();
    if lifted.elem != Elem::I32 {
        return out;
    }
    let Some(VecLang::List(outs)) = prog.as_ref().last() else { return out };
    let users = |x: Id| prog.as_ref().iter().filter(|n| egg::Language::children(*n).contains(&x)).count();
    for (o, &id) in lifted.outputs.iter().zip(outs.iter()) {
        let Output::Carried(p) = o else { continue };
        let arg_of = |x: Id| match &prog[x] {
            VecLang::Arg(s) => match &prog[*s] {
                VecLang::Symbol(s) => lifted.args.iter().find(|a| a.0 == *s).is_some_and(|a| a.1 == ArgSrc::Carried(*p)),
                _ => false,
            },
            _ => false,
        };
        let red = |x: Id| match &prog[x] {
            VecLang::ReduceAdd(v) => Some(*v),
            _ => None,
        };
        // From the output inwards: each sum's reduced vector and the rest.
        let mut chain: Vec<(usize, Id)> = Vec::new();
        let mut at = id;
        let ok = loop {
            if arg_of(at) {
                break users(at) == 1 && !chain.is_empty();
            }
            let VecLang::Add([a, c]) = &prog[at] else { break false };
            let (rest, x) = match (red(*c), red(*a)) {
                (Some(x), _) => (*a, x),
                (None, Some(x)) => (*c, x),
                (None, None) => break false,
            };
            // Every sum used once: by the next one out, or (the outermost) by the output list.
            if users(at) != 1 {
                break false;
            }
            chain.push((usize::from(at), x));
            at = rest;
        };
        if ok {
            let n = chain.len();
            out.extend(chain.into_iter().enumerate().map(|(j, (index, x))| (*p, index, x, n - 1 - j)));
        }
    }
    out
}

/// Whether `b` has exactly one predecessor.
fn single_pred(b: LLVMBasicBlockRef) -> bool {
    unsafe {
        let mut n = 0;
        let mut u = LLVMGetFirstUse(LLVMBasicBlockAsValue(b));
        while !u.is_null() {
            let user = LLVMGetUser(u);
            if !LLVMIsATerminatorInst(user).is_null() {
                n += 1;
            }
            u = LLVMGetNextUse(u);
        }
        n == 1
    }
}
