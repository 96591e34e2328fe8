//! SCoP detection (issue 12 item 2, first bullet): the static control parts
//! of each function — maximal regions of affine loop nests, conditions and
//! accesses — as plain Rust data for the polyhedral core, and for every
//! loop nest left out, the reason. Detection only: nothing is transformed.
//!
//! The input is canonical IR: clang's output (`-O1 -Xclang
//! -disable-llvm-passes`) after `mem2reg, early-cse, simplifycfg,
//! instcombine<no-verify-fixpoint>, loop-simplify, lcssa, loop-rotate,
//! indvars` (why each: `tests/scop.rs`; clang with `-mllvm -dsp-scops` runs
//! the same list; later an extension point of the real pipeline). What is
//! accepted:
//!
//! - **Loops** ([`structure`], [`build`]): natural loops with one latch that
//!   is also the only exiting block, a header phi stepping by a constant
//!   (for ±1 the iterator is the variable, for other steps the iteration
//!   count, the variable being `start + step × count`; other header phis
//!   stepping by constants are secondary inductions, affine in the
//!   iterator), the latch's compare of the phi or its next value against
//!   an affine bound (`slt/sle/ult/ule`, `ne` for steps of ±1, or the mirror
//!   ones for a decreasing loop; unsigned compares are taken as signed:
//!   subscripts are assumed not to wrap, as `nsw`/`inbounds` say), the start
//!   affine; a `smin` upper or `smax` lower bound (intrinsic or
//!   select-compare) gives one constraint per operand. A rotated loop runs
//!   its first iteration unconditionally, so its guard — an enclosing
//!   affine `if` whose constraint is "the start is within the bound" — must
//!   be found in the region (or the start be a constant within a constant
//!   bound); else the loop is rejected.
//! - **Conditions**: `if`s on `icmp`s of affine expressions (also `and`,
//!   `or`, their `select` forms and `xor true`); the branch's side adds the
//!   constraint (or its negation) to the domain; `eq` on the taken side is
//!   an equality; a disjunction on a side that holds statements (`ne`
//!   taken, `<` against a maximum) is a rejection, on an empty side it does
//!   not matter.
//! - **Affine expressions** ([`affine`]): integer constants, induction
//!   variables of the region's loops, and parameters — integer values
//!   defined outside the region (function arguments, outer induction
//!   variables, …), combined by `add`, `sub`, `mul`/`shl` by constants;
//!   `sext`/`zext`/`trunc` are looked through (no wrapping assumed).
//! - **Accesses** ([`access`]): loads and stores through a GEP chain on a
//!   global or a pointer argument; array types keep one subscript per
//!   dimension (`float A[N][M]` → `A[i][j]`, `float (*A)[M]` → `A[i][j]`
//!   with an unbounded first dimension, a global reached through a row or
//!   element pointer keeps its own shape); a linearized `A[i*M + j]` is one
//!   dimension. Byte offsets (instcombine's `i8` GEPs) are added in
//!   elements, carried into outer dimensions when they are multiples of
//!   an inner size, so that one address has one subscript; an array still
//!   reached with two shapes has all its accesses linearized, one reached
//!   with elements of two sizes is rejected. Non-affine subscripts,
//!   subscripts that depend on a load (indirect access), other bases:
//!   rejected.
//! - **Statements**: one per basic block with accesses (Polly's choice):
//!   the loads, arithmetic and stores of a block together.
//! - **Scalars** ([`scalars`]), as Polly does: a data value used outside its
//!   block — a phi reduction that is not an induction variable, a value
//!   merged at an `if`'s end or leaving a loop, a value used after the
//!   region — is a zero-dimensional array ([`ArrayKind::Phi`],
//!   [`ArrayKind::Value`]) written where it is defined (for a phi: in each
//!   predecessor) and read where it is used; a block with only such
//!   accesses is a statement too. Loaded pointers and pointer phis are
//!   rejected.
//! - **Aliasing**: distinct globals never alias; two pointer arguments, or a
//!   pointer argument and a global, may, unless the argument is `noalias`.
//!   Such pairs, when one of them is written, are *recorded* in
//!   [`Scop::may_alias`] (to become run-time checks, as Polly does), not
//!   rejected.
//! - **Side effects**: calls other than to pure intrinsics (`llvm.fmuladd`,
//!   `llvm.fma`, min/max, `fabs`, …) or functions marked `memory(none)`,
//!   volatile or atomic accesses, `alloca`s, `switch`es and the like are
//!   rejections.
//!
//! Regions ([`detect`]): the function body is parsed into a tree of blocks,
//! loops and `if`s ([`structure`]); along each sequence, maximal runs of
//! nodes (a block and the `if` its branch opens counting as one) that
//! build into a SCoP together and contain a loop are the SCoPs; each is
//! checked to be entered only at its first block and left only for the
//! block after it. A loop that does not build is reported with its reason
//! (so each level of a rejected nest is reported) and its body searched
//! for smaller SCoPs: its induction variable is a parameter there, and the
//! conditions of the `if`s around are known (a context in the domains).

//! The printer pass `print<dsp-scops>` ([`print`]) writes every function's
//! SCoPs and rejections to standard output; the rejections (and the SCoPs
//! found) are also analysis remarks of pass `pluto`
//! (`opt -pass-remarks-analysis=pluto`). `dsp-scop-remarks` only makes the
//! remarks: clang runs it with `-mllvm -dsp-scops` (off by default) at the
//! pipeline-start point after the canonical passes above, for
//! `-Rpass-analysis=pluto`.
//!
//! Not modelled yet (each a rejection): data-dependent conditions (Polly's non-affine subregions), `ne` and
//! other disjunctive conditions on the taken side, a `min`/`max` carried
//! from one iteration to the next in a header phi (what `loop(loop-rotate,
//! indvars)` in one loop pipeline makes of `j < min(i + 8, m)`), loops with
//! several exits. Detection assumes affine arithmetic does not wrap.

pub mod access;
pub mod affine;
pub mod bounds;
pub mod build;
pub mod checks;
pub mod detect;
pub mod print;
pub mod scalars;
pub mod structure;
#[cfg(test)]
mod tests;

use inkwell::llvm_sys::prelude::*;

pub use detect::{detect_function, run};

/// An affine expression over a space of variables: `Σ coeffs[k]·x[k] +
/// constant`. The space is given by context: for a statement, its
/// enclosing loops' iterators (outermost first) then the SCoP's parameters;
/// for a loop's bounds, the iterators of the loops enclosing it, then the
/// parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffExpr {
    pub coeffs: Vec<i64>,
    pub constant: i64,
}

/// `expr >= 0`, or `expr == 0` when `equality`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    pub expr: AffExpr,
    pub equality: bool,
}

/// A parameter of a SCoP: an integer value defined outside it.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    /// Debug only: the LLVM value.
    pub value: LLVMValueRef,
}

/// A loop of a SCoP's loop tree.
#[derive(Clone, Debug)]
pub struct Loop {
    /// The enclosing loop in this SCoP (an index into [`Scop::loops`]).
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// Number of enclosing loops in the SCoP (0: outermost).
    pub depth: usize,
    /// The header block's name (debug).
    pub header: String,
    /// `iterator >= each`: affine over (enclosing iterators, parameters).
    pub lower: Vec<AffExpr>,
    /// `iterator <= each` (inclusive); empty for a loop stepping by more
    /// than one, whose upper bound needs a division (see `constraints`).
    pub upper: Vec<AffExpr>,
    /// The loop's constraints exactly, over (enclosing iterators, this
    /// iterator, parameters): what it adds to its statements' domains.
    pub constraints: Vec<Constraint>,
    /// The induction variable's step. For ±1 the iterator is the variable
    /// itself (-1: the iterations run downwards); for any other step the
    /// iterator counts iterations from 0 (the variable is `start + step ×
    /// iterator`, as it appears in subscripts and conditions).
    pub step: i64,
    /// Code generation: the header phi the latch tests (the induction
    /// variable), its start value (from outside the loop) and the header's
    /// other phis stepping by constants (secondary inductions: phi, start,
    /// step per iteration).
    pub iv: LLVMValueRef,
    pub start: LLVMValueRef,
    pub secondary: Vec<(LLVMValueRef, LLVMValueRef, i64)>,
    /// Code generation: the header block.
    pub header_block: LLVMBasicBlockRef,
}

/// How an array is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayKind {
    Global,
    Argument { noalias: bool },
    /// A zero-dimensional array for a phi that is not affine (its block
    /// reads it, its predecessors in the SCoP write it): [`scalars`].
    Phi,
    /// A zero-dimensional array for a data value used in another block
    /// than its own, or after the SCoP: [`scalars`].
    Value,
}

/// An array a SCoP accesses: a base pointer.
#[derive(Clone, Debug)]
pub struct Array {
    pub name: String,
    pub kind: ArrayKind,
    /// Sizes of the dimensions in elements, outermost first; `None` for an
    /// unbounded one (the first dimension behind a pointer). Empty until an
    /// access fixes the shape; accesses of different shapes keep the first.
    pub dims: Vec<Option<u64>>,
    /// Bytes of one element (of the first access).
    pub elem_size: u64,
    /// Debug only: the base pointer.
    pub base: LLVMValueRef,
}

/// Read or write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
}

/// One load or store of a statement.
#[derive(Clone, Debug)]
pub struct Access {
    pub kind: AccessKind,
    /// Index into [`Scop::arrays`].
    pub array: usize,
    /// One per dimension, over the statement's space.
    pub subscripts: Vec<AffExpr>,
    /// Bytes loaded or stored.
    pub elem_size: u64,
    /// Debug only: the load or store.
    pub inst: LLVMValueRef,
}

/// A statement: one basic block with memory accesses.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub name: String,
    /// The block's name (debug).
    pub block: String,
    /// Enclosing loops, outermost first (indices into [`Scop::loops`]); the
    /// statement's iterators are theirs, in this order.
    pub loops: Vec<usize>,
    /// The iteration domain over (iterators, parameters): loop bounds and
    /// the conditions of enclosing `if`s.
    pub domain: Vec<Constraint>,
    /// The 2d+1 schedule's constant positions: `schedule[k]` is the
    /// statement's textual position among the nodes at depth `k` (len
    /// `loops.len() + 1`); interleaved with the iterators it is the
    /// original execution order.
    pub schedule: Vec<usize>,
    /// Accesses in program order.
    pub accesses: Vec<Access>,
    /// Debug only: the block's first instruction.
    pub at: LLVMValueRef,
    /// Code generation: the block.
    pub bb: LLVMBasicBlockRef,
}

/// A static control part.
#[derive(Clone, Debug)]
pub struct Scop {
    pub function: String,
    /// Name of the region's first block, and of the block control reaches
    /// after it (`ret` when the region returns).
    pub entry: String,
    pub exit: String,
    pub params: Vec<Param>,
    pub loops: Vec<Loop>,
    pub stmts: Vec<Stmt>,
    pub arrays: Vec<Array>,
    /// Pairs of arrays (indices, smaller first) that may be the same memory,
    /// at least one written: run-time checks for whoever transforms.
    pub may_alias: Vec<(usize, usize)>,
    /// Code generation: the region's blocks, its first block and the block
    /// control reaches after it (`None` when the region returns).
    pub blocks: Vec<LLVMBasicBlockRef>,
    pub entry_block: LLVMBasicBlockRef,
    pub exit_block: Option<LLVMBasicBlockRef>,
}

/// Why a loop nest is not (part of) a SCoP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RejectKind {
    NonCanonicalLoop,
    NonAffineBound,
    UnguardedLoop,
    NonAffineCondition,
    UnstructuredControl,
    NonAffineSubscript,
    IndirectAccess,
    BadBasePointer,
    ImpureCall,
    VolatileOrAtomic,
    ScalarDependence,
    Unsupported,
}

impl RejectKind {
    /// A stable short name (printed, and the remark's name).
    pub fn name(self) -> &'static str {
        match self {
            RejectKind::NonCanonicalLoop => "non-canonical-loop",
            RejectKind::NonAffineBound => "non-affine-bound",
            RejectKind::UnguardedLoop => "unguarded-loop",
            RejectKind::NonAffineCondition => "non-affine-condition",
            RejectKind::UnstructuredControl => "unstructured-control",
            RejectKind::NonAffineSubscript => "non-affine-subscript",
            RejectKind::IndirectAccess => "indirect-access",
            RejectKind::BadBasePointer => "bad-base-pointer",
            RejectKind::ImpureCall => "impure-call",
            RejectKind::VolatileOrAtomic => "volatile-or-atomic",
            RejectKind::ScalarDependence => "scalar-dependence",
            RejectKind::Unsupported => "unsupported",
        }
    }
}

/// A reason for rejection: its kind, a message naming the instruction, and
/// the instruction (debug: remarks' locations).
#[derive(Clone, Debug)]
pub struct Reject {
    pub kind: RejectKind,
    pub msg: String,
    pub at: LLVMValueRef,
}

impl Reject {
    pub fn new(kind: RejectKind, at: LLVMValueRef, msg: impl Into<String>) -> Reject {
        Reject { kind, msg: msg.into(), at }
    }
}

/// A rejected loop nest: the loop (its header's name) and why.
#[derive(Clone, Debug)]
pub struct Rejection {
    pub function: String,
    pub header: String,
    pub reason: Reject,
}

/// What detection finds in one function.
#[derive(Clone, Debug, Default)]
pub struct FunctionScops {
    pub function: String,
    pub scops: Vec<Scop>,
    pub rejections: Vec<Rejection>,
}
