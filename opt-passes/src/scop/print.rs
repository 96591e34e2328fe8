//! The printer pass's stable text format, and short names of LLVM values.
//!
//! ```text
//! function gemm: 1 scop, 0 rejected
//! scop 0 (%5 -> %33)
//!   params: [n]
//!   arrays: C[64][64] f4 global; A[*][64] f4 arg; B[*] f4 arg restrict
//!   may-alias: A B
//!   loop L0 at %6 depth 0: i0 >= 0; i0 <= n - 1
//!   loop L1 at %9 depth 1 in L0: i1 >= 0; i1 <= n - 1
//!   S0 at %9 loops [L0 L1] schedule [0 0 0]
//!     domain: i0 >= 0; -i0 + n - 1 >= 0; ...
//!     read C[i0][i1]
//!     write C[i0][i1]
//! reject %6 non-affine-subscript: subscript of %12 is not affine (%11)
//! ```
//!
//! Iterators are named `i0, i1, …` by depth in the SCoP; parameters by
//! their LLVM names (`%0` when unnamed, without the `%`).

use std::fmt::Write;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use super::*;
use crate::ir;

/// A value's short name: `%name`, `@name`, or `%N` for an unnamed one.
pub fn value_ref(v: LLVMValueRef) -> String {
    unsafe {
        if v.is_null() {
            return "<null>".into();
        }
        let global = !LLVMIsAGlobalValue(v).is_null();
        let name = ir::value_name(v);
        if !name.is_empty() {
            return format!("{}{name}", if global { '@' } else { '%' });
        }
        if !LLVMIsAConstant(v).is_null() && !global {
            if let Some(c) = ir::const_i64(v) {
                return c.to_string();
            }
        }
        if LLVMValueIsBasicBlock(v) != 0 {
            let bb = LLVMValueAsBasicBlock(v);
            let f = LLVMGetBasicBlockParent(bb);
            if !f.is_null() && LLVMGetEntryBasicBlock(f) == bb {
                return "%entry".into();
            }
        }
        let p = LLVMPrintValueToString(v);
        let text = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        let first = text.trim_start().lines().next().unwrap_or("").to_string();
        if LLVMValueIsBasicBlock(v) != 0 {
            return format!("%{}", first.split(':').next().unwrap_or("?"));
        }
        if let Some((lhs, _)) = first.split_once(" = ") {
            return lhs.trim().to_string();
        }
        if !LLVMIsAInstruction(v).is_null() {
            // A void instruction (a store): its text without metadata.
            return first.split(", !").next().unwrap_or("?").trim().to_string();
        }
        first.split_whitespace().last().unwrap_or("?").to_string()
    }
}

/// `expr` with variables named `names`.
pub fn aff(e: &AffExpr, names: &[String]) -> String {
    let mut s = String::new();
    for (k, &c) in e.coeffs.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let n = names.get(k).map(String::as_str).unwrap_or("?");
        let mag = if c.abs() == 1 { n.to_string() } else { format!("{}*{n}", c.abs()) };
        if s.is_empty() {
            s = if c < 0 { format!("-{mag}") } else { mag };
        } else {
            let _ = write!(s, " {} {mag}", if c < 0 { '-' } else { '+' });
        }
    }
    if s.is_empty() {
        return e.constant.to_string();
    }
    if e.constant != 0 {
        let _ = write!(s, " {} {}", if e.constant < 0 { '-' } else { '+' }, e.constant.abs());
    }
    s
}

/// A name without its `%`/`@` unless it is a number (`%0`).
fn bare(name: &str) -> String {
    let t = name.trim_start_matches(['%', '@']);
    if t.starts_with(|c: char| c.is_ascii_digit()) {
        name.to_string()
    } else {
        t.to_string()
    }
}

fn param_names(scop: &Scop) -> Vec<String> {
    scop.params.iter().map(|p| bare(&p.name)).collect()
}

/// Names of the space (iterators at `depth`, then parameters).
fn space(depth: usize, scop: &Scop) -> Vec<String> {
    (0..depth).map(|d| format!("i{d}")).chain(param_names(scop)).collect()
}

fn array_text(a: &Array) -> String {
    let dims: String = a.dims.iter().map(|d| d.map_or("[*]".to_string(), |n| format!("[{n}]"))).collect();
    let kind = match a.kind {
        ArrayKind::Global => "global",
        ArrayKind::Argument { noalias: false } => "arg",
        ArrayKind::Argument { noalias: true } => "arg restrict",
        ArrayKind::Phi => "phi",
        ArrayKind::Value => "scalar",
    };
    format!("{}{dims} {}B {kind}", bare(&a.name), a.elem_size)
}

/// One SCoP as text.
pub fn scop(out: &mut String, k: usize, s: &Scop) {
    let _ = writeln!(out, "scop {k} ({} -> {})", s.entry, s.exit);
    let _ = writeln!(out, "  params: [{}]", param_names(s).join(" "));
    let arrays: Vec<String> = s.arrays.iter().map(array_text).collect();
    let _ = writeln!(out, "  arrays: {}", arrays.join("; "));
    if !s.may_alias.is_empty() {
        let name = |k: usize| bare(&s.arrays[k].name);
        let pairs: Vec<String> = s.may_alias.iter().map(|&(a, b)| format!("{} {}", name(a), name(b))).collect();
        let _ = writeln!(out, "  may-alias: {}", pairs.join(", "));
    }
    for (k, l) in s.loops.iter().enumerate() {
        let names = space(l.depth, s);
        let parent = l.parent.map(|p| format!(" in L{p}")).unwrap_or_default();
        let lo: Vec<String> = l.lower.iter().map(|e| format!("i{} >= {}", l.depth, aff(e, &names))).collect();
        let up: Vec<String> = l.upper.iter().map(|e| format!("i{} <= {}", l.depth, aff(e, &names))).collect();
        let dir = if l.step != 1 { format!(" step {}", l.step) } else { String::new() };
        let mut text = [lo, up].concat().join("; ");
        if l.step.abs() != 1 {
            let own = space(l.depth + 1, s);
            let names: Vec<String> = own[..l.depth + 1].iter().cloned().chain(param_names(s)).collect();
            let cons: Vec<String> = l.constraints.iter().map(|c| format!("{} {} 0", aff(&c.expr, &names), if c.equality { "==" } else { ">=" })).collect();
            text = format!("{text}; {}", cons.join("; "));
        }
        let _ = writeln!(out, "  loop L{k} at {} depth {}{parent}{dir}: {text}", l.header, l.depth);
    }
    for st in &s.stmts {
        let names = space(st.loops.len(), s);
        let loops: Vec<String> = st.loops.iter().map(|l| format!("L{l}")).collect();
        let sched: Vec<String> = st.schedule.iter().map(|x| x.to_string()).collect();
        let _ = writeln!(out, "  {} at {} loops [{}] schedule [{}]", st.name, st.block, loops.join(" "), sched.join(" "));
        let dom: Vec<String> = st.domain.iter().map(|c| format!("{} {} 0", aff(&c.expr, &names), if c.equality { "==" } else { ">=" })).collect();
        let _ = writeln!(out, "    domain: {}", if dom.is_empty() { "true".to_string() } else { dom.join("; ") });
        for a in &st.accesses {
            let subs: String = a.subscripts.iter().map(|e| format!("[{}]", aff(e, &names))).collect();
            let kind = if a.kind == AccessKind::Read { "read" } else { "write" };
            let arr = bare(&s.arrays[a.array].name);
            let _ = writeln!(out, "    {kind} {arr}{subs} {}B", a.elem_size);
        }
    }
}

/// A function's SCoPs and rejections as text.
pub fn function(out: &mut String, f: &FunctionScops) {
    let _ = writeln!(out, "function {}: {} scop(s), {} rejected", f.function, f.scops.len(), f.rejections.len());
    for (k, s) in f.scops.iter().enumerate() {
        scop(out, k, s);
    }
    for r in &f.rejections {
        let _ = writeln!(out, "reject loop {} {}: {}", r.header, r.reason.kind.name(), r.reason.msg);
    }
}
