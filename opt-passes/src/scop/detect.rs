//! Finding the maximal SCoPs of a function: along each sequence of the
//! control tree, in units of one node (a block and the `if` its branch
//! opens are one unit), a stretch of units that each build alone into a
//! SCoP ([`build::build`]) is one run if it builds whole, else runs are
//! grown one unit at a time for as long as they still build; a run with a
//! loop is a SCoP. A loop that does not build on its own is a rejection (the first
//! reason found) and its body is searched in turn; so are the sides of an
//! `if` that does not build.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use super::build::{build, Context};
use super::print::value_ref;
use super::structure::{Node, Shape};
use super::*;
use crate::ir;
use crate::wfv::{Remark, RemarkKind};

/// The SCoPs and rejections of function `f` of module `module`.
pub fn detect_function(module: LLVMModuleRef, f: LLVMValueRef) -> FunctionScops {
    let shape = Shape::new(f);
    let tree = shape.parse();
    let mut out = FunctionScops { function: ir::value_name(f), ..FunctionScops::default() };
    search(&shape, module, f, &tree, &[], &mut out);
    out
}

/// Whether a node holds a statement-worthy access or a loop (runs are trimmed of the rest).
fn worth(shape: &Shape, n: &Node) -> bool {
    match n {
        Node::Block(b) => ir::instructions(shape.cfg.blocks[*b]).into_iter().any(|i| {
            matches!(ir::opcode(i), inkwell::llvm_sys::LLVMOpcode::LLVMLoad | inkwell::llvm_sys::LLVMOpcode::LLVMStore)
        }),
        Node::Opaque { .. } => false,
        _ => true,
    }
}

/// Whether `run` starts with the block whose branch the `If` after it is.
fn leads_if(run: &[Node]) -> bool {
    matches!(run, [Node::Block(b), Node::If { block, .. }, ..] if b == block)
}

fn header_name(shape: &Shape, b: usize) -> String {
    value_ref(unsafe { LLVMBasicBlockAsValue(shape.cfg.blocks[b]) })
}

/// Where the unit starting at `i` ends: a block and the `if` its branch
/// opens go together (either alone is not single-entry single-exit).
fn unit_end(seq: &[Node], i: usize) -> usize {
    if leads_if(&seq[i..]) {
        i + 2
    } else {
        i + 1
    }
}

fn search(shape: &Shape, module: LLVMModuleRef, f: LLVMValueRef, seq: &[Node], conds: &[(LLVMValueRef, bool)], out: &mut FunctionScops) {
    let cx = Context { conds, assume_guarded: false };
    let ok = |a: usize, b: usize| build(shape, module, f, &seq[a..b], cx).is_ok();
    let mut i = 0;
    while i < seq.len() {
        let u = unit_end(seq, i);
        match build(shape, module, f, &seq[i..u], cx) {
            Ok(_) => {
                // The stretch of units that build alone, whole if it builds
                // (the usual case: one build), else grown one unit at a time.
                let mut end = u;
                while end < seq.len() && ok(end, unit_end(seq, end)) {
                    end = unit_end(seq, end);
                }
                let mut j = end;
                if end > u && !ok(i, end) {
                    j = u;
                    while j < end && ok(i, unit_end(seq, j)) {
                        j = unit_end(seq, j);
                    }
                }
                // Trim what holds neither a loop nor an access.
                let (mut a, mut b) = (i, j);
                while a < b && !worth(shape, &seq[a]) && !leads_if(&seq[a..b]) {
                    a += 1;
                }
                while b > a && !worth(shape, &seq[b - 1]) {
                    b -= 1;
                }
                let run = &seq[a..b];
                if run.iter().any(Node::has_loop) {
                    if let Ok(s) = build(shape, module, f, run, cx) {
                        out.scops.push(s);
                    }
                }
                i = j;
            }
            Err(reason) => {
                for (k, node) in seq[i..u].iter().enumerate() {
                    match node {
                        Node::Loop(l) => {
                            // A missing guard hides any other reason: look for one.
                            let reason = match reason.kind {
                                RejectKind::UnguardedLoop => build(shape, module, f, &seq[i + k..i + k + 1], Context { conds, assume_guarded: true }).err().unwrap_or(reason.clone()),
                                _ => reason.clone(),
                            };
                            out.rejections.push(Rejection { function: out.function.clone(), header: header_name(shape, l.header), reason });
                            search(shape, module, f, &l.body, conds, out);
                        }
                        Node::If { block, then_, else_ } => {
                            let term = unsafe { LLVMGetBasicBlockTerminator(shape.cfg.blocks[*block]) };
                            let c = unsafe { LLVMGetCondition(term) };
                            for (side, taken) in [(then_, true), (else_, false)] {
                                let mut inner = conds.to_vec();
                                inner.push((c, taken));
                                search(shape, module, f, side, &inner, out);
                            }
                        }
                        Node::Opaque { block, reason } if shape.loops.contains_key(block) => {
                            out.rejections.push(Rejection { function: out.function.clone(), header: header_name(shape, *block), reason: reason.clone() });
                        }
                        _ => {}
                    }
                }
                i = u;
            }
        }
    }
}

/// Detection on every defined function of `module`: the printer's text and
/// the remarks (pass `pluto`: an analysis remark per SCoP found and per
/// loop nest rejected, with the reason).
pub fn run(module: LLVMModuleRef) -> (String, Vec<Remark>) {
    let mut text = String::new();
    let mut remarks = Vec::new();
    for f in ir::defined_functions(module) {
        let r = detect_function(module, f);
        print::function(&mut text, &r);
        for s in &r.scops {
            let at = s.stmts.first().and_then(|s| s.accesses.first()).map(|a| a.inst).unwrap_or(f);
            let msg = format!("SCoP with {} loop(s) and {} statement(s) in {}", s.loops.len(), s.stmts.len(), r.function);
            remarks.push(Remark { kind: RemarkKind::Analysis, at, name: "scop", msg });
        }
        for rej in &r.rejections {
            let at = if rej.reason.at.is_null() { f } else { rej.reason.at };
            let msg = format!("loop at {} is not a SCoP ({}): {}", rej.header, rej.reason.kind.name(), rej.reason.msg);
            remarks.push(Remark { kind: RemarkKind::Analysis, at, name: rej.reason.kind.name(), msg });
        }
    }
    (text, remarks)
}
