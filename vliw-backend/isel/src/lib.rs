//! dsp-isel: instruction selection from LLVM IR (read through inkwell's
//! LLVM C bindings) to machine IR (`dsp_mir`) over the instructions of an
//! `.isa` machine.
//!
//! Every instruction is found by its semantics through
//! `Machine::find_instr`; when the machine lacks an operation, selection
//! falls back to a sequence of other instructions or to a runtime routine
//! with a libgcc/compiler-rt name (see [`runtime`]), and otherwise reports
//! an [`IselError`] naming the instruction. The output is in SSA form
//! (phis, virtual registers, symbolic frame objects) and follows
//! `vliw-backend/ABI.md`.
//!
//! Modules: [`llvm`] (the IR view), [`types`] (LLVM types → register files
//! and value shapes), [`emit`] (emitting instructions by semantics,
//! constants), [`function`] (blocks, phis, values), [`inst`] (arithmetic,
//! casts, select, aggregates), [`cmp`] (compares), [`memory`] (addresses,
//! loads, stores, GEP, alloca), [`pow2`] (divisors known to be powers
//! of two), [`control`] (branches, switch, computed goto), [`call`]
//! (the calling convention), [`intrinsics`], [`vector`] and [`vector_ops`]
//! (LLVM vector types), [`fuse`] (widening loads, narrowing stores,
//! multiply-accumulate), [`masked`] (masked loads and stores, active lane
//! masks), [`wide`] (integers over 64 bits), [`data`] (global
//! variables), [`runtime`] (support routine names).
//!
//! What the other stages must know about the output:
//! - `i1` values live in the predicate file and lane masks in the mask file,
//!   but no phi and no copy is ever in those files (phis of them join 0/1
//!   integers or mask bits), since such files may lack a register move;
//! - the machine's `insert` reads and writes its destination: selection
//!   emits a copy of the old vector into a fresh register first, so that
//!   register has two definitions (the copy and the insert);
//! - frame offsets are `Operand::Frame` with `Phys(sp)` as the base register;
//!   a dynamic alloca copies a new value into `sp` (and sets
//!   `Function::dynamic_stack`), reserving the size of the outgoing argument
//!   area below the block it returns.

pub mod call;
pub mod cmp;
pub mod control;
pub mod data;
pub mod emit;
pub mod function;
pub mod fuse;
pub mod inst;
pub mod intrinsics;
pub mod llvm;
pub mod masked;
pub mod memory;
pub mod pow2;
pub mod runtime;
pub mod types;
pub mod vector;
pub mod vector_ops;
pub mod wide;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_more;
#[cfg(test)]
mod tests_fixpt;
#[cfg(test)]
mod tests_goto;

use std::fmt;

use isa_tablegen::Machine;

/// Options of a selection run.
#[derive(Clone, Debug)]
pub struct IselOptions {
    /// Contract `llvm.fmuladd` into the machine's fused multiply-add (when
    /// false: a multiply and an add, two roundings). `llvm.fma` is always fused.
    pub contract: bool,
    /// `memcpy`/`memmove`/`memset` with a constant size up to this many bytes
    /// are expanded inline; larger ones call the runtime.
    pub inline_mem_limit: u32,
}

impl Default for IselOptions {
    fn default() -> Self {
        IselOptions { contract: true, inline_mem_limit: 64 }
    }
}

/// An instruction selection could not lower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IselError {
    /// Source position from the instruction's debug location.
    pub loc: Option<dsp_mir::Loc>,
    pub function: String,
    /// The instruction, as LLVM prints it.
    pub inst: String,
    pub reason: String,
}

impl fmt::Display for IselError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.loc {
            Some(l) => write!(f, "{}:{}:{}: error: cannot lower '{}': {}", l.file, l.line, l.col, self.inst, self.reason),
            // Globals and aliases: the thing itself is named.
            None if self.function.is_empty() => write!(f, "error: cannot lower '{}': {}", self.inst, self.reason),
            None => write!(f, "error: in function '{}': cannot lower '{}': {}", self.function, self.inst, self.reason),
        }
    }
}

impl std::error::Error for IselError {}

/// Selects a whole module: its functions with bodies and its global variables.
pub fn select_module(machine: &Machine, module: &inkwell::module::Module, opts: &IselOptions) -> Result<dsp_mir::Module, Vec<IselError>> {
    let raw = module;
    let dl = llvm::module_data_layout(raw);
    let mut out = dsp_mir::Module { source_name: llvm::module_source_name(raw), ..Default::default() };
    let mut errors = Vec::new();
    let available = u64::from(machine.memory.size.saturating_sub(machine.memory.null_guard));
    for (alias, target) in llvm::module_aliases(raw) {
        let inst = if alias.is_empty() { "an unnamed alias".to_string() } else { format!("@{alias}") };
        let reason = if target.is_empty() {
            "global aliases are not supported".to_string()
        } else {
            format!("global aliases are not supported (an alias of @{target})")
        };
        errors.push(IselError { loc: None, function: String::new(), inst, reason });
    }
    for g in llvm::module_globals(raw) {
        match data::lower_global(dl, g, available) {
            Ok(Some(d)) => out.data.push(d),
            Ok(None) => {}
            Err(reason) => errors.push(IselError { loc: None, function: String::new(), inst: format!("@{}", g.name()), reason }),
        }
    }
    let mut extra_data = Vec::new();
    for f in llvm::module_functions(raw) {
        if f.is_declaration() || f.linkage() == llvm::Linkage::AvailableExternally {
            continue;
        }
        match function::lower_function(machine, dl, opts, f) {
            Ok((func, data)) => {
                out.functions.push(func);
                extra_data.extend(data);
            }
            Err(e) => errors.push(*e),
        }
    }
    out.data.extend(extra_data);
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}
