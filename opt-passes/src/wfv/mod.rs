//! Function-level SIMD vectorization (seed 001): the pass `dsp-wfv`.
//!
//! [`directives`] reads what the clang plugin left in the IR. For each
//! function with a `vec-function` directive, [`variant`] builds its vector
//! variants at the machine's lane count (the `.isa`'s 32-bit vector file):
//! [`attrs`] (variable and block attributes, §1.4), [`mask`] (masks,
//! §2.1.1), [`linearize`] (block order, §2.1.3), [`control`] (selects,
//! linearized control flow and divergent loops, §2.1.1–2.1.3), [`widen`]
//! and [`memory`] (vector instructions, §2.1.4). Then [`vloop`] rewrites
//! each `vec-function` loop to call the variants once per `lanes`
//! iterations (§3.1), after [`restructure`] regrouped its instances by
//! its callee's branch (§2.2.3). A function or loop that cannot be vectorized stays
//! scalar, with a remark saying why (`-Rpass-missed=wfv`).

pub mod attrs;
pub mod auto;
pub mod control;
pub mod directives;
pub mod linearize;
pub mod mask;
pub mod multiversion;
pub mod memory;
pub mod outer;
pub mod restructure;
pub mod variant;
pub mod vloop;
pub mod widen;

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use self::mask::Cx;
use self::widen::Callee;
use crate::caps::Caps;
use crate::ir;
use dsp_vec_contract::MaskMode;

/// The kind of a remark (`-Rpass`, `-Rpass-missed`, `-Rpass-analysis`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemarkKind {
    Passed,
    Missed,
    Analysis,
}

/// An optimization remark of pass `wfv`, at a function or an instruction.
#[derive(Clone, Debug)]
pub struct Remark {
    pub kind: RemarkKind,
    pub at: LLVMValueRef,
    pub name: &'static str,
    pub msg: String,
}

/// Runs a function pass on every defined function of `m`: whether any
/// changed, and all their remarks in function order.
pub fn per_function(m: LLVMModuleRef, mut run: impl FnMut(LLVMValueRef) -> (bool, Vec<Remark>)) -> (bool, Vec<Remark>) {
    let mut changed = false;
    let mut remarks = Vec::new();
    for f in crate::ir::defined_functions(m) {
        let (c, r) = run(f);
        changed |= c;
        remarks.extend(r);
    }
    (changed, remarks)
}

/// How much of its analysis and optimization the vectorizer uses: seed
/// 001's configurations (§4.1), and automatic candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// No attributes: every value varying, every branch linearized, every
    /// memory access a gather or scatter (the seed's Naive).
    Naive,
    /// Uniform, consecutive and aligned attributes (the seed's MEM); every
    /// branch still linearized.
    Mem,
    /// Those, plus uniform branches kept as branches and branches on
    /// superword conditions around linearized blocks (the seed's All).
    All,
}

/// The pass's parameters: `dsp-wfv<naive|mem|all[;auto][;no-boscc][;no-multiversion][;no-restructure]>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub level: Level,
    /// Also candidates without directives (`-fvec-function=auto`).
    pub auto: bool,
    /// Branches on superword conditions at level `All` (§2.2.1; `no-boscc` off).
    pub boscc: bool,
    /// Instance multiversioning behind them (§2.2.2; `no-multiversion` off).
    pub multiversion: bool,
    /// Instance restructuring of `vec-function` loops at level `All`
    /// (§2.2.3; `no-restructure` off).
    pub restructure: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { level: Level::All, auto: false, boscc: true, multiversion: true, restructure: true }
    }
}

impl Options {
    /// Parses `naive`, `mem` or `all`, optionally with `;auto` (empty: the default).
    pub fn parse(params: &str) -> Result<Options, String> {
        let mut o = Options::default();
        for p in params.split(';').filter(|p| !p.is_empty()) {
            match p {
                "naive" => o.level = Level::Naive,
                "mem" => o.level = Level::Mem,
                "all" => o.level = Level::All,
                "auto" => o.auto = true,
                "no-boscc" => o.boscc = false,
                "no-multiversion" => o.multiversion = false,
                "no-restructure" => o.restructure = false,
                _ => return Err(format!("dsp-wfv: unknown parameter '{p}' (expected naive, mem, all, auto, no-boscc, no-multiversion or no-restructure)")),
            }
        }
        Ok(o)
    }
}

/// Runs the vectorizer on `m`; returns whether it changed and its remarks.
pub fn run(m: LLVMModuleRef, caps: &Caps, opts: &Options) -> Result<(bool, Vec<Remark>), String> {
    let d = directives::read_module(m).map_err(|e| e.to_string())?;
    let mut remarks = Vec::new();
    if d.functions.is_empty() && d.loops.is_empty() && !opts.auto {
        return Ok((false, remarks));
    }
    let Some(lanes) = caps.m.vector_lanes(32) else {
        for f in &d.functions {
            remarks.push(Remark { kind: RemarkKind::Missed, at: f.function, name: "NoVectors", msg: "not vectorized: the machine has no 32-bit vector registers".into() });
        }
        return Ok((false, remarks));
    };
    // Canonical loops (preheaders, single latches); the latches may be new blocks: read again.
    crate::loops::run(m);
    let mut d = directives::read_module(m).map_err(|e| e.to_string())?;
    // Automatic candidates: their functions, with the cost model below.
    let mut found_fns: Vec<LLVMValueRef> = Vec::new();
    if opts.auto {
        let found = auto::find(m, &d);
        remarks.extend(found.remarks);
        for vfn in found.functions {
            match d.functions.iter_mut().find(|x| x.function == vfn.function) {
                Some(x) => {
                    for v in vfn.variants {
                        if !x.variants.contains(&v) {
                            x.variants.push(v);
                        }
                    }
                }
                None => {
                    found_fns.push(vfn.function);
                    d.functions.push(vfn);
                }
            }
        }
        d.loops.extend(found.loops);
    }
    let cx = Cx { level: opts.level, boscc: opts.boscc, multiversion: opts.multiversion, ..Cx::for_machine(m, lanes, caps) };
    // The variants wanted, and those refused up front; and the variants of
    // functions declared here and defined elsewhere (libm's, another
    // file's), called as the directive promises them.
    type Wanted = Vec<(LLVMValueRef, String, dsp_vec_contract::VecFunctionDecl, bool)>;
    let (mut wanted, mut external): (Wanted, Wanted) = (Vec::new(), Vec::new());
    for vfn in &d.functions {
        for decl in &vfn.variants {
            let defined = unsafe { LLVMCountBasicBlocks(vfn.function) } != 0;
            let why = if defined { variant::refuse(vfn.function, decl, lanes) } else { variant::refuse_declaration(vfn.function, decl, lanes) };
            if let Some(why) = why {
                // A declaration's definition elsewhere gets the remark.
                if defined {
                    remarks.push(Remark { kind: RemarkKind::Missed, at: vfn.function, name: "NotVectorized", msg: format!("'{}' not vectorized: {why}", vfn.name) });
                }
                continue;
            }
            let list = if defined { &mut wanted } else { &mut external };
            let masks: &[bool] = match decl.mask {
                MaskMode::Both => &[false, true],
                MaskMode::Masked => &[true],
                MaskMode::Unmasked => &[false],
            };
            for &masked in masks {
                let name = variant::mangle(decl, masked, lanes, &vfn.name);
                if !list.iter().any(|w| w.1 == name) {
                    list.push((vfn.function, name, decl.clone(), masked));
                }
            }
        }
    }
    // Generate all; when one fails, drop its function's variants and start again.
    let mut bad: Vec<LLVMValueRef> = Vec::new();
    let (made, variants) = loop {
        let todo: Vec<_> = wanted.iter().filter(|w| !bad.contains(&w.0)).collect();
        let mut variants: HashMap<LLVMValueRef, Vec<Callee>> = HashMap::new();
        for w in &external {
            let vf = variant::declare(&cx, w.0, &w.2, w.3, &w.1);
            variants.entry(w.0).or_default().push(Callee { func: vf, decl: w.2.clone(), masked: w.3 });
        }
        let mut made = Vec::new();
        for w in &todo {
            let vf = variant::declare(&cx, w.0, &w.2, w.3, &w.1);
            variants.entry(w.0).or_default().push(Callee { func: vf, decl: w.2.clone(), masked: w.3 });
            made.push((w.0, vf, w.1.clone(), w.2.clone(), w.3));
        }
        let mut failed = None;
        let mut stats = Vec::new();
        for (f, vf, name, decl, masked) in &made {
            match variant::generate(&cx, *f, decl, *masked, *vf, &variants) {
                // The cost model of automatic candidates: nothing lane by lane.
                Ok(s) if found_fns.contains(f) && s.lane_calls > 0 => {
                    failed = Some((*f, format!("not profitable without a directive: {} call(s) would run lane by lane", s.lane_calls)));
                    break;
                }
                Ok(s) => stats.push((*f, name.clone(), s)),
                Err(e) => {
                    failed = Some((*f, e));
                    break;
                }
            }
        }
        match failed {
            None => {
                for (f, name, s) in stats {
                    remarks.push(Remark {
                        kind: RemarkKind::Passed,
                        at: f,
                        name: "Vectorized",
                        msg: format!("vectorized '{}' as '{name}' ({lanes} lanes)", ir_name(f)),
                    });
                    remarks.push(Remark {
                        kind: RemarkKind::Analysis,
                        at: f,
                        name: "Attributes",
                        msg: format!(
                            "'{name}': {} uniform, {} consecutive, {} varying values; {} divergent branches ({}), {} by_all and {} blend blocks, {} loops; {} vector calls, {} calls per lane, {} gathers/scatters, {} blocks behind branches on superword conditions ({} with a scalar version for one active lane)",
                            s.uniform, s.consecutive, s.varying, s.divergent_branches,
                            if s.divergent_branches > 0 { "control flow linearized" } else { "control flow kept" },
                            s.by_all, s.blend, s.loops, s.vector_calls, s.lane_calls, s.gathers, s.boscc, s.multiversioned
                        ),
                    });
                }
                break (made, variants);
            }
            Some((f, e)) => {
                remarks.push(Remark { kind: RemarkKind::Missed, at: f, name: "NotVectorized", msg: format!("'{}' not vectorized: {e}", ir_name(f)) });
                bad.push(f);
                for (_, vf, ..) in &made {
                    unsafe { LLVMReplaceAllUsesWith(*vf, LLVMGetPoison(LLVMTypeOf(*vf))) };
                }
                for (_, vf, ..) in &made {
                    unsafe { LLVMDeleteFunction(*vf) };
                }
            }
        }
    };
    let mut changed = !made.is_empty();
    for l in &d.loops {
        // A loop inside one rewritten before it went with that loop's scalar copy.
        let live = ir::blocks(l.function).into_iter().any(|b| unsafe { LLVMGetBasicBlockTerminator(b) } == l.latches[0]);
        if live {
            let first = remarks.len();
            if opts.restructure && opts.level == Level::All && opts.boscc {
                if let Some(regrouped) = restructure::run(&cx, l, &variants, &mut remarks) {
                    changed = true;
                    vloop::run(&cx, &regrouped, &variants, &mut remarks);
                }
            }
            let mine = remarks.len();
            if vloop::run(&cx, l, &variants, &mut remarks) {
                changed = true;
                // The scalar loop went, and with it the anchor of a remark on it.
                let anchor = remarks[remarks.len() - 1].at;
                for r in &mut remarks[first..mine] {
                    if r.at == l.latches[0] {
                        r.at = anchor;
                    }
                }
            }
        }
    }
    Ok((changed, remarks))
}

fn ir_name(f: LLVMValueRef) -> String {
    crate::ir::value_name(f)
}

#[cfg(test)]
mod tests;
