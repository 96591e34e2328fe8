//! dsp-opt-passes: the LLVM IR passes the DSP backend needs before lowering,
//! built as an LLVM 19 pass plugin (a cdylib loaded by `opt-19
//! -load-pass-plugin=…` and `clang-19 -fpass-plugin=…`).
//!
//! | pass | what it does |
//! |---|---|
//! | (in `dsp-prepare`) | any-lane tests of masks wider than 64 lanes (`icmp eq (bitcast <N x i1> to iN), 0`) → `llvm.vector.reduce.or` ([`anylane`]) |
//! | `dsp-split-wide-ints` | integers wider than 64 bits (bit-field storage units such as `i72`) → 32-bit limbs ([`wide`]) |
//! | `dsp-lower-overflow` | `llvm.{s,u}{add,sub,mul}.with.overflow` → plain arithmetic and compares ([`overflow`]) |
//! | `dsp-lower-minmax` | `smin/smax/umin/umax/abs/minnum/maxnum/fabs` → `icmp`/`fcmp` + `select` when the `.isa` has no such instruction for the type ([`minmax`]) |
//! | `dsp-expand-intrinsics` | `dsp-lower-minmax`, then bit counts, byte swaps, bit reversal, funnel shifts and saturating arithmetic the `.isa` lacks ([`bits`]), floating-point classification ([`fpclass`]), then small constant-size `memcpy/memmove/memset` → loads and stores ([`mem`]) |
//! | `dsp-canon-loops` | loop canonical form: a dedicated preheader, a single latch and dedicated exit blocks for every natural loop ([`loops`]) |
//! | `dsp-prepare` | all of the above, in that order (what clang runs at the optimizer-last extension point) |
//! | `dsp-wfv` | function-level vectorization (seed 001): vector variants of `vec-function` functions, `vec-function` loops calling them ([`wfv`]); clang runs it from -O1 before `dsp-prepare` unless `-mllvm -dsp-wfv=false` |
//! | `dsp-outer-vec` | outer-loop vectorization without directives: a loop nest's outer loop runs `lanes` iterations side by side when they provably touch disjoint memory ([`wfv::outer`]); clang runs it after `dsp-wfv` with `-mllvm -dsp-outer-vec` (dspcc `-fouter-loop-vectorize`, on from -O2) |
//! | `dsp-unroll-jam` | unroll-and-jam of the loop around a reduction nest (`for i { for j { for k: s += … } }`): U outer iterations side by side, U independent chains in the inner loop ([`jam`], addresses reasoned about with [`addr`]); clang runs it just before `dsp-outer-vec` with `-mllvm -dsp-unroll-jam` (dspcc `-funroll-and-jam`, on from -O2 with outer-loop vectorization) |
//! | `dsp-interchange` | a loop interchanged with the short inner loop it holds when, at run time, that one is shorter than the lane count and the outer iterations touch disjoint memory (an FFT's early stages), the new inner loop marked independent for `dsp-egg-isel` ([`interchange`]); or, its second form, a contiguous inner loop of at most 8 vectors strip-mined by the lane count, the strips around the outer loop, each strip one masked egg step ([`strip`]); clang runs it just before `dsp-egg-isel` with `-mllvm -dsp-interchange` and `-mllvm -dsp-strip-mine` (dspcc `-floop-interchange`, `-floop-strip-mine`, on with egg; parameters `no-interchange`, `no-strips`) |
//! | `dsp-reverse-carry` | the carry loop of a bit-reversed counter (an FFT's Gold–Rader bit reversal) in closed form with a count of leading zeros, the loop around it versioned on `n >> 1` having at most one bit, so that it becomes one if-convertible block the pipeliner takes ([`revcarry`]); clang runs it at the vectorizer-start point with `-mllvm -dsp-reverse-carry` (dspcc `-freverse-carry`, on from -O2) |
//! | `dsp-bitrev-vec` | the swaps of a bit-reversal permutation (the loop `dsp-reverse-carry` leaves: `j` the bit-reversed `i`, `if (i < j) swap(x[i], x[j])` per array) on the vector unit, gathers and scatters under the mask `i < j`, the iterations being independent since bit reversal is an involution ([`bitrev`]); clang runs it after `dsp-reverse-carry` with `-mllvm -dsp-bitrev-vec` (dspcc `-fvectorize-bitrev`, on from -O2) |
//! | `dsp-reduction-jam` | unroll-and-jam of a two-deep reduction nest whose inner loop may start at the outer counter (an autocorrelation's lags): U outer iterations side by side after peeling each one's first iterations, one load shared by U sums ([`rjam`]); clang runs it before `dsp-interchange` and `dsp-egg-isel` with `-mllvm -dsp-unroll-jam` (dspcc `-funroll-and-jam`) |
//! | `print<dsp-scops>` (also `dsp-scop-print`) | SCoP detection, printed: each function's static control parts and the reason for every loop nest left out, remarks of pass `pluto`; transforms nothing ([`scop`]) |
//! | `dsp-scop-remarks` | the same detection, as remarks only; clang runs it, after the canonical passes it expects, at the pipeline-start point with `-mllvm -dsp-scops` (off by default) |
//! | `dsp-pluto` | PLuTo (seed 002): each SCoP scheduled, its permutable bands tiled and the loop AST generated back into IR in place of the region ([`pluto`], the core in `dsp-pluto`); clang runs it after the canonical passes at the pipeline-start point with `-mllvm -dsp-polyhedral` (dspcc `-fpolyhedral`); `dsp-pluto<sizes=N,N;no-tile>` |
//! | `dsp-flatten` | loop coalescing: a two-deep nest whose iterations all touch disjoint memory (dsp-interchange's interchanged and strip-mined nests, which it marks) flattened after vectorization into one loop the backend pipelines once, the outer values advanced by a select when the inner loop wraps, behind a guard that falls back to the nest ([`flatten`]); clang runs it after `dsp-masked-tail` with `-mllvm -dsp-flatten` (dspcc `-floop-flatten`, on with egg) |
//! | `dsp-predcom` | predictive commoning: in a one-block counted loop, loads that read what another load of the loop read 1 to 4 iterations before (a 3×3 convolution's input rows) become values carried in registers, only the chain's furthest load kept ([`predcom`]); clang runs it after the late clean-up at the optimizer-last point from -O2 unless `-mllvm -dsp-predcom=false` (dspcc `-fno-predictive-commoning`) |
//! | `dsp-masked-tail` | a vectorized loop's remainder as one masked vector iteration instead of the scalar epilogue ([`tail`]); clang runs it before `dsp-prepare` with `-mllvm -dsp-masked-tail` (dspcc `-fmasked-tail`) |
//!
//! [`wfv::directives`] reads the function-level vectorization directives the
//! clang plugin (`frontend-plugin/`) leaves in the IR.
//!
//! The machine is a shipped name or a `.isa` file, given by `-dsp-isa=…`
//! (`opt`, or `clang -mllvm`), else `$DSP_ISA`, else the default machine.

// The passes pass LLVM's opaque handles (`LLVMValueRef`, …) around; they are
// valid for the duration of one pass run on a module LLVM owns (see `ir`).
#![allow(clippy::not_unsafe_ptr_arg_deref)]

pub mod addr;
pub mod anylane;
pub mod asis;
pub mod bits;
pub mod bitrev;
pub mod caps;
pub mod cfg;
pub mod eqsat;
pub mod flatten;
pub mod fpclass;
pub mod interchange;
pub mod ir;
pub mod jam;
pub mod revcarry;
pub mod rjam;
pub mod strip;
pub mod loops;
pub mod mem;
pub mod minmax;
pub mod overflow;
pub mod plugin;
pub mod pluto;
pub mod predcom;
pub mod scop;
pub mod tail;
pub mod vdiv;
pub mod wfv;
pub mod wide;

use inkwell::llvm_sys::prelude::LLVMModuleRef;
use isa_tablegen::Machine;

/// One of our passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    SplitWideInts,
    LowerOverflow,
    LowerMinMax,
    ExpandIntrinsics,
    CanonLoops,
    Prepare,
    MaskedTail,
    Flatten,
    Predcom,
    Wfv,
    OuterVec,
    UnrollJam,
    VectorFdiv,
    EggIsel,
    Interchange,
    ReductionJam,
    ReverseCarry,
    BitrevVec,
    ScopPrint,
    ScopRemarks,
    Pluto,
}

/// Pass names (as `-passes=` takes them) and what each does.
pub const PASSES: &[(&str, Pass, &str)] = &[
    (
        "dsp-split-wide-ints",
        Pass::SplitWideInts,
        "integers wider than 64 bits to 32-bit limbs",
    ),
    (
        "dsp-lower-overflow",
        Pass::LowerOverflow,
        "with.overflow intrinsics to arithmetic and compares",
    ),
    (
        "dsp-lower-minmax",
        Pass::LowerMinMax,
        "min/max/abs intrinsics the machine lacks to compare and select",
    ),
    (
        "dsp-expand-intrinsics",
        Pass::ExpandIntrinsics,
        "min/max, bit counts, byte swaps, funnel shifts, saturation, small memcpy/memset",
    ),
    (
        "dsp-canon-loops",
        Pass::CanonLoops,
        "preheaders, single latches, dedicated exits",
    ),
    ("dsp-prepare", Pass::Prepare, "every pass above, in order"),
    (
        "dsp-wfv",
        Pass::Wfv,
        "function-level vectorization of vec-function directives",
    ),
    (
        "dsp-outer-vec",
        Pass::OuterVec,
        "outer loops of nests vectorized whole when their iterations are independent",
    ),
    (
        "dsp-unroll-jam",
        Pass::UnrollJam,
        "the loop around a reduction nest unrolled and jammed: independent chains in the inner loop",
    ),
    (
        "dsp-vector-fdiv",
        Pass::VectorFdiv,
        "vector float division and square root on the vector units when the divider is scalar only",
    ),
    (
        "dsp-egg-isel",
        Pass::EggIsel,
        "innermost loops vectorized by equality saturation over the .isa's rules and costs (seed 004)",
    ),
    (
        "dsp-interchange",
        Pass::Interchange,
        "a loop interchanged with its short inner loop when the outer iterations are independent (for dsp-egg-isel)",
    ),
    (
        "dsp-reduction-jam",
        Pass::ReductionJam,
        "a two-deep reduction nest unrolled and jammed, its triangular start peeled (for dsp-egg-isel)",
    ),
    (
        "dsp-reverse-carry",
        Pass::ReverseCarry,
        "a bit-reversed counter's carry loop in closed form (count of leading zeros), the loop around it versioned",
    ),
    (
        "dsp-bitrev-vec",
        Pass::BitrevVec,
        "a bit-reversal permutation's swaps on the vector unit (gathers and scatters under a mask), after dsp-reverse-carry",
    ),
    (
        "dsp-masked-tail",
        Pass::MaskedTail,
        "vectorized loops' remainders as one masked vector iteration",
    ),
    (
        "dsp-flatten",
        Pass::Flatten,
        "a two-deep nest whose iterations are all independent (marked by dsp-interchange) flattened into one loop, after vectorization",
    ),
    (
        "dsp-predcom",
        Pass::Predcom,
        "predictive commoning: loads that read what the loop loaded in earlier iterations become carried values",
    ),
    (
        "print<dsp-scops>",
        Pass::ScopPrint,
        "prints each function's SCoPs (affine loop nests) and why other loop nests are not; transforms nothing",
    ),
    ("dsp-scop-print", Pass::ScopPrint, "the same as print<dsp-scops>"),
    (
        "dsp-scop-remarks",
        Pass::ScopRemarks,
        "SCoP detection as remarks of pass pluto only (clang -mllvm -dsp-scops runs it)",
    ),
    (
        "dsp-pluto",
        Pass::Pluto,
        "PLuTo: SCoPs scheduled, permutable bands tiled, the loop nest regenerated (params: sizes=N,N,...;no-tile)",
    ),
];

/// The pass called `name` (parameters in `<…>` after it, as in
/// `dsp-wfv<mem;auto>`, are the pass's own: see [`wfv::Options::parse`]).
pub fn pass_by_name(name: &str) -> Option<Pass> {
    if let Some((_, p, _)) = PASSES.iter().find(|(n, _, _)| *n == name) {
        return Some(*p);
    }
    let (base, params) = split_params(name);
    let pass = PASSES.iter().find(|(n, _, _)| *n == base).map(|(_, p, _)| *p)?;
    match (pass, params) {
        (_, None) => Some(pass),
        (Pass::Wfv, Some(p)) => wfv::Options::parse(p).ok().map(|_| pass),
        (Pass::EggIsel, Some(p)) => eqsat::Options::parse(p).ok().map(|_| pass),
        (Pass::Interchange, Some(p)) => interchange::Options::parse(p).ok().map(|_| pass),
        (Pass::Pluto, Some(p)) => pluto::Options::parse(p).ok().map(|_| pass),
        (Pass::OuterVec, Some("no-tail")) => Some(pass),
        _ => None,
    }
}

/// A pass name and its parameters (the text inside a trailing `<…>`).
fn split_params(name: &str) -> (&str, Option<&str>) {
    match name.split_once('<') {
        Some((base, rest)) if rest.ends_with('>') => (base, Some(&rest[..rest.len() - 1])),
        _ => (name, None),
    }
}

/// The machine the passes target: `isa` if not empty, else `$DSP_ISA`, else the default.
pub fn select_machine(isa: &str) -> Result<Machine, String> {
    let name = if !isa.is_empty() {
        isa.to_string()
    } else {
        match std::env::var("DSP_ISA") {
            Ok(v) if !v.is_empty() => v,
            _ => isa_tablegen::builtin::DEFAULT.to_string(),
        }
    };
    Machine::load(&name).map_err(|d| format!("machine '{name}': {d}"))
}

/// Runs pass `name` on a module LLVM owns, for the machine `isa` (see [`select_machine`]).
pub fn run_named(name: &str, module: LLVMModuleRef, isa: &str) -> Result<bool, String> {
    let pass = pass_by_name(name).ok_or_else(|| format!("unknown pass '{name}'"))?;
    let needs_machine = matches!(
        pass,
        Pass::LowerMinMax | Pass::ExpandIntrinsics | Pass::Prepare | Pass::MaskedTail | Pass::Wfv | Pass::OuterVec | Pass::UnrollJam | Pass::VectorFdiv | Pass::EggIsel | Pass::Interchange | Pass::ReductionJam | Pass::ReverseCarry | Pass::BitrevVec | Pass::Predcom
    );
    let machine = if needs_machine {
        Some(select_machine(isa)?)
    } else {
        None
    };
    if pass == Pass::Wfv {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let opts = wfv::Options::parse(split_params(name).1.unwrap_or(""))?;
        let (changed, remarks) = wfv::run(module, &caps::Caps::new(m), &opts)?;
        plugin::emit_remarks("wfv", &remarks);
        return Ok(changed);
    }
    if pass == Pass::OuterVec {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let masked_tail = match split_params(name).1.unwrap_or("") {
            "" => true,
            "no-tail" => false,
            p => return Err(format!("dsp-outer-vec: unknown parameter '{p}' (expected no-tail)")),
        };
        let (changed, remarks) = wfv::outer::run(module, &caps::Caps::new(m), masked_tail);
        plugin::emit_remarks("outer-vec", &remarks);
        return Ok(changed);
    }
    if pass == Pass::UnrollJam {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let (changed, remarks) = jam::run(module, &caps::Caps::new(m));
        plugin::emit_remarks("unroll-jam", &remarks);
        return Ok(changed);
    }
    if pass == Pass::EggIsel {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let opts = eqsat::Options::parse(split_params(name).1.unwrap_or(""))?;
        let (changed, remarks) = eqsat::run(module, &caps::Caps::new(m), &opts);
        plugin::emit_remarks("egg", &remarks);
        return Ok(changed);
    }
    if pass == Pass::ReverseCarry {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let (changed, remarks) = revcarry::run(module, &caps::Caps::new(m));
        plugin::emit_remarks("reverse-carry", &remarks);
        return Ok(changed);
    }
    if pass == Pass::BitrevVec {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let (changed, remarks) = bitrev::run(module, &caps::Caps::new(m));
        plugin::emit_remarks("bitrev-vec", &remarks);
        return Ok(changed);
    }
    if pass == Pass::ReductionJam {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let (changed, remarks) = rjam::run(module, &caps::Caps::new(m));
        plugin::emit_remarks("unroll-jam", &remarks);
        return Ok(changed);
    }
    if pass == Pass::Interchange {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let opts = interchange::Options::parse(split_params(name).1.unwrap_or(""))?;
        let (changed, remarks) = interchange::run(module, &caps::Caps::new(m), &opts);
        plugin::emit_remarks("loop-interchange", &remarks);
        return Ok(changed);
    }
    if pass == Pass::Flatten {
        let (changed, remarks) = flatten::run(module);
        plugin::emit_remarks("loop-flatten", &remarks);
        return Ok(changed);
    }
    if pass == Pass::Predcom {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let (changed, remarks) = predcom::run(module, &caps::Caps::new(m));
        plugin::emit_remarks("predcom", &remarks);
        return Ok(changed);
    }
    if pass == Pass::Pluto {
        let mut opts = pluto::Options::parse(split_params(name).1.unwrap_or(""))?;
        // The machine's L1D decides whether tiling can pay (pluto::profit); none without a machine.
        if let Ok(m) = select_machine(isa) {
            opts.l1d = m.data_cache(1).map(|c| c.size as u64);
            opts.lanes = m.vector_lanes(32).map_or(1, |l| l as i64);
            opts.machine = pluto::tilecost::MachineFacts::of(&m);
        }
        let (changed, remarks) = pluto::run(module, &opts);
        plugin::emit_remarks("pluto", &remarks);
        return Ok(changed);
    }
    if pass == Pass::ScopRemarks {
        plugin::emit_remarks("pluto", &scop::run(module).1);
        return Ok(false);
    }
    if pass == Pass::ScopPrint {
        let (text, remarks) = scop::run(module);
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes()).and_then(|_| out.flush()).map_err(|e| format!("writing the SCoPs: {e}"))?;
        plugin::emit_remarks("pluto", &remarks);
        return Ok(false);
    }
    if pass == Pass::VectorFdiv {
        let Some(m) = machine.as_ref() else { return Ok(false) };
        let (changed, remarks) = vdiv::run(module, &caps::Caps::new(m));
        plugin::emit_remarks("vector-fdiv", &remarks);
        return Ok(changed);
    }
    Ok(run(pass, module, machine.as_ref()))
}

/// Runs the function form of pass `name` (`dsp-egg-isel`, `dsp-interchange`, `dsp-reduction-jam`, `dsp-reverse-carry` and `dsp-bitrev-vec` have one) on `f`.
pub fn run_named_on_function(name: &str, f: inkwell::llvm_sys::prelude::LLVMValueRef, isa: &str) -> Result<bool, String> {
    let pass = pass_by_name(name).ok_or_else(|| format!("unknown pass '{name}'"))?;
    if pass == Pass::ReductionJam {
        let machine = select_machine(isa)?;
        let (changed, remarks) = rjam::run_function(f, &caps::Caps::new(&machine));
        plugin::emit_remarks("unroll-jam", &remarks);
        return Ok(changed);
    }
    if pass == Pass::ReverseCarry {
        let machine = select_machine(isa)?;
        let (changed, remarks) = revcarry::run_function(f, &caps::Caps::new(&machine));
        plugin::emit_remarks("reverse-carry", &remarks);
        return Ok(changed);
    }
    if pass == Pass::BitrevVec {
        let machine = select_machine(isa)?;
        let (changed, remarks) = bitrev::run_function(f, &caps::Caps::new(&machine));
        plugin::emit_remarks("bitrev-vec", &remarks);
        return Ok(changed);
    }
    if pass == Pass::Interchange {
        let machine = select_machine(isa)?;
        let opts = interchange::Options::parse(split_params(name).1.unwrap_or(""))?;
        let (changed, remarks) = interchange::run_function(f, &caps::Caps::new(&machine), &opts);
        plugin::emit_remarks("loop-interchange", &remarks);
        return Ok(changed);
    }
    if pass != Pass::EggIsel {
        return Err(format!("'{name}' has no function form"));
    }
    let machine = select_machine(isa)?;
    let opts = eqsat::Options::parse(split_params(name).1.unwrap_or(""))?;
    let (changed, remarks) = eqsat::run_function(f, &caps::Caps::new(&machine), &opts);
    plugin::emit_remarks("egg", &remarks);
    Ok(changed)
}

/// Runs `pass` on `module`; returns whether anything changed. Passes that
/// depend on the machine do nothing without one.
pub fn run(pass: Pass, module: LLVMModuleRef, machine: Option<&Machine>) -> bool {
    let caps = machine.map(caps::Caps::new);
    match pass {
        Pass::SplitWideInts => wide::run(module),
        Pass::LowerOverflow => overflow::run(module),
        Pass::LowerMinMax => caps.is_some_and(|c| minmax::run(module, &c)),
        Pass::ExpandIntrinsics => caps.is_some_and(|c| expand(module, &c)),
        Pass::CanonLoops => loops::run(module),
        Pass::MaskedTail => caps.is_some_and(|c| tail::run(module, &c)),
        Pass::Flatten => flatten::run(module).0,
        Pass::Predcom => caps.is_some_and(|c| predcom::run(module, &c).0),
        Pass::Wfv => caps.is_some_and(|c| wfv::run(module, &c, &wfv::Options::default()).map(|r| r.0).unwrap_or(false)),
        Pass::OuterVec => caps.is_some_and(|c| wfv::outer::run(module, &c, true).0),
        Pass::UnrollJam => caps.is_some_and(|c| jam::run(module, &c).0),
        Pass::VectorFdiv => caps.is_some_and(|c| vdiv::run(module, &c).0),
        Pass::EggIsel => caps.is_some_and(|c| eqsat::run(module, &c, &eqsat::Options::default()).0),
        Pass::Interchange => caps.is_some_and(|c| interchange::run(module, &c, &interchange::Options::default()).0),
        Pass::ReductionJam => caps.is_some_and(|c| rjam::run(module, &c).0),
        Pass::ReverseCarry => caps.is_some_and(|c| revcarry::run(module, &c).0),
        Pass::BitrevVec => caps.is_some_and(|c| bitrev::run(module, &c).0),
        Pass::ScopPrint | Pass::ScopRemarks => false,
        Pass::Pluto => pluto::run(module, &pluto::Options::default()).0,
        Pass::Prepare => {
            let l = anylane::run(module);
            let w = wide::run(module) | l;
            let a = overflow::run(module);
            let b = caps.is_some_and(|c| expand(module, &c));
            let c = loops::run(module);
            w | a | b | c
        }
    }
}

fn expand(module: LLVMModuleRef, caps: &caps::Caps) -> bool {
    let a = minmax::run(module, caps);
    let b = bits::run(module, caps);
    let c = fpclass::run(module);
    let d = mem::run(module, caps);
    a | b | c | d
}

#[cfg(test)]
pub(crate) mod testutil;
