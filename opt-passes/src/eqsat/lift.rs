//! Lifting an innermost loop's body, unrolled by the lane count, into the
//! vector DSL (seed 004 §2.2; issue 11's "bodies of innermost loops after
//! unrolling by the lane count").
//!
//! The body is executed symbolically `lanes` times, copy `l` with the
//! counter at `i0 + l`. Index arithmetic stays affine (sums of loop
//! invariants, the counter and other inductions times constants); an
//! address is a base pointer plus an affine byte offset. Accesses whose
//! offsets differ only by a constant share an *address class*, a DSL array
//! whose elements are those constants (in elements): `x[i - k]` and
//! `x[i - k + 1]` are `(get C l)` and `(get C l+1)` of one class. Data
//! values become DSL terms over those elements, the loop invariants
//! (`(arg name)`) and the values carried from one iteration to the next
//! (reductions: copy 0 starts from `(arg name)`, copy `l` from copy `l-1`'s
//! result). The program's outputs are the stored values — `lanes`
//! consecutive elements of one class as one `Vec` (at a stride: a strided
//! store; at a run-time stride only in a loop `dsp-interchange` marked
//! independent) — and the carried values after the last copy.
//!
//! Refused, with the reason (the remark): other than one block, a type
//! other than 32-bit integers or floats (one of them) for the data,
//! non-affine addresses, calls other than `llvm.fma`/`llvm.fmuladd`, and
//! accesses the copies could not all make in any order: two copies
//! touching one element (one of them a store), and accesses through
//! pointers that may meet (one array at a distance that is not a constant,
//! or pointers not known distinct: only `noalias` arguments, globals and
//! allocas, and addresses computed from them, are told apart) unless they
//! advance alike, when the vector loop runs only if a step's byte ranges
//! do not meet ([`Disjoint`], checked at run time).

use std::collections::{BTreeMap, HashMap};

use dsp_egg_isel::lang::{Elem, VecLang};
use egg::{Id, RecExpr, Symbol};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMOpcode as O, LLVMTypeKind as K};

use crate::ir;
use crate::wfv::attrs::{gep_scales, GepIndex};

/// An affine value: `c + Σ coefficient × value + Σ coefficient × (counter
/// × invariant)` — the last, products of something that advances from
/// step to step (the counter, an induction) and a loop invariant, make
/// strides known only at run time (`x[j * step]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aff {
    pub terms: BTreeMap<usize, i64>,
    pub prods: BTreeMap<(usize, usize), i64>,
    pub c: i64,
}

impl Aff {
    fn constant(c: i64) -> Aff {
        Aff { c, ..Aff::default() }
    }
    /// `v + c`.
    fn value_plus(v: LLVMValueRef, c: i64) -> Aff {
        Aff { terms: [(v as usize, 1)].into_iter().collect(), c, ..Aff::default() }
    }
    fn value(v: LLVMValueRef) -> Aff {
        Aff::value_plus(v, 0)
    }
    fn add(&self, o: &Aff, sign: i64) -> Aff {
        let mut t = self.terms.clone();
        for (&k, &x) in &o.terms {
            *t.entry(k).or_default() += sign * x;
        }
        t.retain(|_, x| *x != 0);
        let mut p = self.prods.clone();
        for (&k, &x) in &o.prods {
            *p.entry(k).or_default() += sign * x;
        }
        p.retain(|_, x| *x != 0);
        Aff { terms: t, prods: p, c: self.c.wrapping_add(sign.wrapping_mul(o.c)) }
    }
    fn scale(&self, k: i64) -> Aff {
        let mut t: BTreeMap<usize, i64> = self.terms.iter().map(|(&v, &x)| (v, x.wrapping_mul(k))).collect();
        t.retain(|_, x| *x != 0);
        let mut p: BTreeMap<(usize, usize), i64> = self.prods.iter().map(|(&v, &x)| (v, x.wrapping_mul(k))).collect();
        p.retain(|_, x| *x != 0);
        Aff { terms: t, prods: p, c: self.c.wrapping_mul(k) }
    }
    fn as_const(&self) -> Option<i64> {
        (self.terms.is_empty() && self.prods.is_empty()).then_some(self.c)
    }
    /// `self × o` when it stays in the form: products of an advancing value
    /// and an invariant (`advancing` says which values advance); else `None`.
    fn mul(&self, o: &Aff, advancing: &[LLVMValueRef]) -> Option<Aff> {
        if !self.prods.is_empty() || !o.prods.is_empty() {
            return None;
        }
        let adv = |v: usize| advancing.contains(&(v as LLVMValueRef));
        let mut out = o.scale(self.c).add(&self.scale(o.c), 1);
        out.c = self.c.wrapping_mul(o.c);
        for (&u, &cu) in &self.terms {
            for (&t, &ct) in &o.terms {
                let key = match (adv(u), adv(t)) {
                    (true, false) => (u, t),
                    (false, true) => (t, u),
                    _ => return None,
                };
                *out.prods.entry(key).or_default() += cu.wrapping_mul(ct);
            }
        }
        out.prods.retain(|_, x| *x != 0);
        Some(out)
    }
}

/// An address class: a base pointer and the symbolic part of the byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    pub name: Symbol,
    pub base: LLVMValueRef,
    /// `(value, coefficient)` in bytes; the counter is the loop's counter phi.
    pub terms: Vec<(LLVMValueRef, i64)>,
    /// `((advancing value, invariant), coefficient)` in bytes: products.
    pub prods: Vec<((LLVMValueRef, LLVMValueRef), i64)>,
    /// A strided class: its elements are `stride` (a loop-invariant count
    /// of elements) apart, and `c` bytes are part of its address; else
    /// elements are consecutive (`c` is 0).
    pub stride: Option<LLVMValueRef>,
    pub c: i64,
}

/// Where a scalar input `(arg name)` comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgSrc {
    /// A value defined outside the loop.
    Invariant(LLVMValueRef),
    /// A header phi's value at the start of the vector iteration.
    Carried(LLVMValueRef),
}

/// One entry of the program's output list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// `lanes` consecutive elements (a `Vec`), or one (a scalar), stored at
    /// element `off` of class `class`.
    Store { class: usize, off: i64, vector: bool },
    /// A carried value after the last copy.
    Carried(LLVMValueRef),
}

/// A secondary induction: a header phi stepping by a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Induction {
    pub phi: LLVMValueRef,
    pub step: i64,
}

/// A lifted loop body.
pub struct Lifted {
    pub expr: RecExpr<VecLang>,
    pub elem: Elem,
    /// The vector width: stores of `lanes` consecutive copies form a `Vec`.
    pub lanes: usize,
    /// Iterations per vector step: `lanes` times the interleave factor.
    pub copies: usize,
    pub classes: Vec<Class>,
    pub args: Vec<(Symbol, ArgSrc)>,
    pub outputs: Vec<Output>,
    pub inductions: Vec<Induction>,
    /// Runtime conditions for the vector loop: pairs of classes that may be
    /// the same memory, each step's accesses to them disjoint.
    pub disjoint: Vec<Disjoint>,
    /// The loop was marked independent ([`LoopBody::independent`]).
    pub independent: bool,
}

/// Two address classes that advance together but may overlap: a step's
/// accesses are made in any order only if the byte ranges they touch,
/// `[lo_a, hi_a)` from class `a`'s pointer and `[lo_b, hi_b)` from `b`'s,
/// do not meet (checked before the vector loop; the distance between the
/// two pointers is the same at every step).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disjoint {
    pub a: usize,
    pub b: usize,
    pub lo_a: i64,
    pub hi_a: i64,
    pub lo_b: i64,
    pub hi_b: i64,
}

/// A value during symbolic execution.
#[derive(Clone, Debug)]
enum Sym {
    Aff(Aff),
    Ptr { base: LLVMValueRef, off: Aff },
    Data(Id),
}

/// The loop to lift: its single block, counter and the instructions of its
/// exit test (not lifted).
pub struct LoopBody {
    pub block: LLVMBasicBlockRef,
    pub iv: LLVMValueRef,
    pub control: Vec<LLVMValueRef>,
    /// `llvm.fmuladd` is fused (the backend gives it the machine's fused
    /// multiply-add when there is one): it lifts to `mac`, else to `*` and `+`.
    pub fused_muladd: bool,
    /// The loop is marked as touching disjoint memory in every iteration
    /// (`dsp.loop.independent`, proven by `dsp-interchange` under its run-time
    /// guard): no dependence checks, and stores at a run-time stride.
    pub independent: bool,
}

struct Lifter {
    m: LLVMModuleRef,
    fused_muladd: bool,
    independent: bool,
    e: RecExpr<VecLang>,
    elem: Option<Elem>,
    classes: Vec<Class>,
    args: Vec<(Symbol, ArgSrc)>,
    /// (class, element, copy) of each load and store.
    loads: Vec<(usize, i64, usize)>,
    stores: Vec<(usize, i64, usize, Id)>,
    block: LLVMBasicBlockRef,
    /// The counter and the inductions.
    advancing: Vec<LLVMValueRef>,
    /// The function's values in a deterministic order.
    ranks: ir::Ranks,
}

type R<T> = Result<T, String>;

/// Lifts `body` unrolled `copies` times (a multiple of `lanes`: `copies /
/// lanes` vectors of each stored array per step, the interleave factor).
pub fn lift(m: LLVMModuleRef, body: &LoopBody, lanes: usize, copies: usize) -> R<Lifted> {
    if lanes == 0 || copies % lanes != 0 {
        return Err(format!("internal: {copies} copies are not a multiple of {lanes} lanes"));
    }
    let mut lf = Lifter { m, fused_muladd: body.fused_muladd, independent: body.independent, e: RecExpr::default(), elem: None, classes: Vec::new(), args: Vec::new(), loads: Vec::new(), stores: Vec::new(), block: body.block, advancing: Vec::new(), ranks: ir::Ranks::new(unsafe { LLVMGetBasicBlockParent(body.block) }) };
    let insts = ir::instructions(body.block);
    let phis: Vec<LLVMValueRef> = insts.iter().copied().filter(|&i| ir::opcode(i) == O::LLVMPHI).collect();
    // Header phis other than the counter: inductions or carried data.
    let latch_value = |p: LLVMValueRef| unsafe {
        (0..LLVMCountIncoming(p)).find(|&j| LLVMGetIncomingBlock(p, j) == body.block).map(|j| LLVMGetIncomingValue(p, j))
    };
    let mut inductions = Vec::new();
    let mut carried = Vec::new();
    for &p in phis.iter().filter(|&&p| p != body.iv) {
        let next = latch_value(p).ok_or("a header phi without a value from the latch")?;
        let step = (ir::opcode_of(next) == Some(O::LLVMAdd)).then(|| unsafe {
            let (a, b) = (LLVMGetOperand(next, 0), LLVMGetOperand(next, 1));
            if a == p { ir::const_i64(b) } else if b == p { ir::const_i64(a) } else { None }
        });
        match step.flatten() {
            Some(s) if is_int(p) => inductions.push(Induction { phi: p, step: s }),
            _ => carried.push((p, next)),
        }
    }
    lf.advancing = std::iter::once(body.iv).chain(inductions.iter().map(|i| i.phi)).collect();
    let mut prev: HashMap<LLVMValueRef, Id> = HashMap::new();
    let mut env: HashMap<LLVMValueRef, Sym> = HashMap::new();
    for l in 0..copies {
        env.clear();
        env.insert(body.iv, Sym::Aff(Aff::value_plus(body.iv, l as i64)));
        for ind in &inductions {
            env.insert(ind.phi, Sym::Aff(Aff::value_plus(ind.phi, ind.step * l as i64)));
        }
        for &(p, _) in &carried {
            let id = match prev.get(&p) {
                Some(&id) => id,
                None => lf.arg(p, ArgSrc::Carried(p))?,
            };
            env.insert(p, Sym::Data(id));
        }
        // Stores of this copy, for loads after them.
        let mut stored: HashMap<(usize, i64), Id> = HashMap::new();
        for &i in &insts {
            if ir::opcode(i) == O::LLVMPHI || body.control.contains(&i) || unsafe { !LLVMIsATerminatorInst(i).is_null() } {
                continue;
            }
            if inductions.iter().any(|ind| latch_value(ind.phi) == Some(i)) {
                continue;
            }
            lf.inst(i, l, &mut env, &mut stored)?;
        }
        for &(p, next) in &carried {
            let id = lf.data(&env, next)?;
            prev.insert(p, id);
        }
    }
    let elem = lf.elem.ok_or("the loop computes no 32-bit data")?;
    let advancing = lf.advancing.clone();
    let disjoint = lf.check_dependences(&advancing)?;
    // Outputs: the stores, grouped into vectors where `lanes` copies (from a
    // multiple of `lanes`) store consecutive elements.
    let mut outputs = Vec::new();
    let mut list: Vec<Id> = Vec::new();
    let mut done = vec![false; lf.stores.len()];
    for k in 0..lf.stores.len() {
        if done[k] {
            continue;
        }
        let (c, off, copy, _) = lf.stores[k];
        let first = copy - copy % lanes;
        let base = off - (copy - first) as i64;
        let group: Vec<usize> = (0..lanes)
            .filter_map(|l| (0..lf.stores.len()).find(|&j| !done[j] && lf.stores[j].0 == c && lf.stores[j].2 == first + l && lf.stores[j].1 == base + l as i64))
            .collect();
        // (A class at a stride is stored as a vector too: the machine's
        // strided store, or lane by lane where it has none.)
        if group.len() == lanes && copy == first {
            let v: Vec<Id> = group.iter().map(|&j| lf.stores[j].3).collect();
            for &j in &group {
                done[j] = true;
            }
            list.push(lf.e.add(VecLang::Vec(v.into_boxed_slice())));
            outputs.push(Output::Store { class: c, off: base, vector: true });
        } else {
            done[k] = true;
            list.push(lf.stores[k].3);
            outputs.push(Output::Store { class: c, off, vector: false });
        }
    }
    for &(p, _) in &carried {
        list.push(prev[&p]);
        outputs.push(Output::Carried(p));
    }
    if list.is_empty() {
        return Err("the loop stores nothing and carries nothing".into());
    }
    lf.e.add(VecLang::List(list.into_boxed_slice()));
    Ok(Lifted { expr: lf.e, elem, lanes, copies, classes: lf.classes, args: lf.args, outputs, inductions, disjoint, independent: body.independent })
}

fn is_int(v: LLVMValueRef) -> bool {
    unsafe { LLVMGetTypeKind(LLVMTypeOf(v)) == K::LLVMIntegerTypeKind }
}

/// The element type of a data value's type.
fn elem_of(t: LLVMTypeRef) -> Option<Elem> {
    unsafe {
        match LLVMGetTypeKind(t) {
            K::LLVMIntegerTypeKind if LLVMGetIntTypeWidth(t) == 32 => Some(Elem::I32),
            K::LLVMFloatTypeKind => Some(Elem::F32),
            _ => None,
        }
    }
}

impl Lifter {
    fn name(&self, v: LLVMValueRef) -> String {
        let n = ir::value_name(v);
        if n.is_empty() { format!("v{:x}", v as usize & 0xffff) } else { n }
    }

    /// `(arg name)` for `v`.
    fn arg(&mut self, v: LLVMValueRef, src: ArgSrc) -> R<Id> {
        let name = match self.args.iter().find(|a| a.1 == src) {
            Some(a) => a.0,
            None => {
                let s = Symbol::from(format!("{}.{}", self.name(v), self.args.len()));
                self.args.push((s, src));
                s
            }
        };
        self.set_elem(unsafe { LLVMTypeOf(v) })?;
        let s = self.e.add(VecLang::Symbol(name));
        Ok(self.e.add(VecLang::Arg(s)))
    }

    fn set_elem(&mut self, t: LLVMTypeRef) -> R<()> {
        let e = elem_of(t).ok_or_else(|| "data of a type other than 32-bit integers or floats".to_string())?;
        match self.elem {
            Some(x) if x != e => Err("both integer and float data".into()),
            _ => {
                self.elem = Some(e);
                Ok(())
            }
        }
    }

    fn inside(&self, v: LLVMValueRef) -> bool {
        unsafe { !LLVMIsAInstruction(v).is_null() && LLVMGetInstructionParent(v) == self.block }
    }

    /// `v` as symbolic value: defined in the body (already executed), or outside it.
    fn sym(&self, env: &HashMap<LLVMValueRef, Sym>, v: LLVMValueRef) -> R<Sym> {
        if let Some(s) = env.get(&v) {
            return Ok(s.clone());
        }
        if self.inside(v) {
            return Err(format!("'{}' is used before it is computed", self.name(v)));
        }
        unsafe {
            match LLVMGetTypeKind(LLVMTypeOf(v)) {
                K::LLVMPointerTypeKind => Ok(Sym::Ptr { base: v, off: Aff::default() }),
                K::LLVMIntegerTypeKind => Ok(Sym::Aff(match ir::const_i64(v) {
                    Some(c) => Aff::constant(c),
                    None => Aff::value(v),
                })),
                _ => Err("a loop invariant that is not an integer or a pointer".into()),
            }
        }
    }

    /// `v` as a DSL term.
    fn data(&mut self, env: &HashMap<LLVMValueRef, Sym>, v: LLVMValueRef) -> R<Id> {
        if let Some(Sym::Data(id)) = env.get(&v) {
            return Ok(*id);
        }
        if !self.inside(v) {
            let t = unsafe { LLVMTypeOf(v) };
            self.set_elem(t)?;
            unsafe {
                if LLVMIsAConstantFP(v).is_null() && LLVMIsAConstantInt(v).is_null() {
                    return self.arg(v, ArgSrc::Invariant(v));
                }
                let bits = if LLVMGetTypeKind(t) == K::LLVMFloatTypeKind {
                    let mut lossy = 0;
                    (LLVMConstRealGetDouble(v, &mut lossy) as f32).to_bits() as i64
                } else {
                    LLVMConstIntGetSExtValue(v) as i32 as u32 as i64
                };
                return Ok(self.e.add(VecLang::Num(bits)));
            }
        }
        match env.get(&v) {
            Some(Sym::Aff(a)) => match a.as_const() {
                Some(c) => {
                    self.set_elem(unsafe { LLVMTypeOf(v) })?;
                    Ok(self.e.add(VecLang::Num(c as i32 as u32 as i64)))
                }
                None => Err(format!("the index '{}' is used as data", self.name(v))),
            },
            _ => Err(format!("'{}' is not 32-bit data", self.name(v))),
        }
    }

    /// The class of an access at `base + off` and the element it is.
    fn class(&mut self, base: LLVMValueRef, off: &Aff) -> R<(usize, i64)> {
        // In the function's order, not the addresses' (the lowering emits
        // the terms in this order: the same code on every run).
        let mut terms: Vec<(LLVMValueRef, i64)> = off.terms.iter().map(|(&v, &c)| (v as LLVMValueRef, c)).collect();
        terms.sort_by_key(|t| self.ranks.of(t.0));
        let mut prods: Vec<((LLVMValueRef, LLVMValueRef), i64)> = off.prods.iter().map(|(&(u, t), &c)| ((u as LLVMValueRef, t as LLVMValueRef), c)).collect();
        prods.sort_by_key(|p| (self.ranks.of(p.0 .0), self.ranks.of(p.0 .1)));
        // A product with an invariant `s` makes the class strided by `s`:
        // the element is the coefficient of `s` (copy l of x[j * s] is at
        // (j + l) * s), the constant bytes part of the class.
        let stride = match prods.first() {
            None => None,
            Some(&((_, s), _)) => {
                if prods.iter().any(|&((_, t), _)| t != s) {
                    return Err("an address with two run-time strides".into());
                }
                Some(s)
            }
        };
        // A constant stride: the counter (the only thing advancing in the
        // address) moves it `S` elements per iteration, S not 0 or 1 (a
        // column of a row-major matrix, a reversed array): the class is
        // strided by the constant `S`, its constant bytes the remainder
        // modulo a stride, the element the strides past them.
        let counter = self.advancing.first().copied();
        let constant_stride = match (stride, counter) {
            (None, Some(iv)) if !terms.iter().any(|t| t.0 != iv && self.advancing.contains(&t.0)) => {
                terms.iter().find(|t| t.0 == iv).map(|t| t.1).filter(|&k| k % 4 == 0 && k != 0 && k != 4 && (k / 4).abs() <= i32::MAX as i64)
            }
            _ => None,
        };
        let stride = match constant_stride {
            Some(k) => Some(unsafe { LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(self.m)), (k / 4) as u64, 1) }),
            None => stride,
        };
        let (c, elem) = match (stride, constant_stride) {
            (_, Some(k)) => {
                if off.c % 4 != 0 {
                    return Err("an access not aligned to its element".into());
                }
                let c = off.c.rem_euclid(k.abs());
                (c, (off.c - c) / k)
            }
            (None, _) => {
                if off.c % 4 != 0 {
                    return Err("an access not aligned to its element".into());
                }
                (0, off.c / 4)
            }
            (Some(s), None) => {
                let cs = terms.iter().find(|t| t.0 == s).map_or(0, |t| t.1);
                terms.retain(|t| t.0 != s);
                if cs % 4 != 0 || off.c % 4 != 0 {
                    return Err("an access not aligned to its element".into());
                }
                (off.c, cs / 4)
            }
        };
        if let Some(k) = self.classes.iter().position(|cl| cl.base == base && cl.terms == terms && cl.prods == prods && cl.stride == stride && cl.c == c) {
            return Ok((k, elem));
        }
        let name = Symbol::from(format!("{}.{}", self.name(base), self.classes.len()));
        self.classes.push(Class { name, base, terms, prods, stride, c });
        Ok((self.classes.len() - 1, elem))
    }

    /// The class and element of an access of 4 bytes at `p`.
    fn element(&mut self, env: &HashMap<LLVMValueRef, Sym>, p: LLVMValueRef) -> R<(usize, i64)> {
        let Sym::Ptr { base, off } = self.sym(env, p)? else { return Err("an address that is not a pointer".into()) };
        self.class(base, &off)
    }

    fn inst(&mut self, i: LLVMValueRef, copy: usize, env: &mut HashMap<LLVMValueRef, Sym>, stored: &mut HashMap<(usize, i64), Id>) -> R<()> {
        let op = ir::opcode(i);
        let operand = |k: u32| unsafe { LLVMGetOperand(i, k) };
        let t = unsafe { LLVMTypeOf(i) };
        let out = match op {
            O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl => {
                let (a, b) = (self.sym(env, operand(0)), self.sym(env, operand(1)));
                let affine = match (&a, &b) {
                    (Ok(Sym::Aff(x)), Ok(Sym::Aff(y))) => match op {
                        O::LLVMAdd => Some(x.add(y, 1)),
                        O::LLVMSub => Some(x.add(y, -1)),
                        O::LLVMMul => match (x.as_const(), y.as_const()) {
                            (_, Some(k)) => Some(x.scale(k)),
                            (Some(k), _) => Some(y.scale(k)),
                            _ => x.mul(y, &self.advancing),
                        },
                        _ => y.as_const().filter(|&k| (0..31).contains(&k)).map(|k| x.scale(1 << k)),
                    },
                    _ => None,
                };
                match affine {
                    Some(a) => Sym::Aff(a),
                    None => {
                        self.set_elem(t)?;
                        let (x, y) = (self.data(env, operand(0))?, self.data(env, operand(1))?);
                        Sym::Data(self.e.add(match op {
                            O::LLVMAdd => VecLang::Add([x, y]),
                            O::LLVMSub => VecLang::Sub([x, y]),
                            O::LLVMShl => VecLang::Shl([x, y]),
                            _ => VecLang::Mul([x, y]),
                        }))
                    }
                }
            }
            O::LLVMAnd | O::LLVMOr | O::LLVMXor | O::LLVMLShr | O::LLVMAShr => {
                self.set_elem(t)?;
                if self.elem != Some(Elem::I32) {
                    return Err("a bit operation on other than 32-bit integers".into());
                }
                let (x, y) = (self.data(env, operand(0))?, self.data(env, operand(1))?);
                Sym::Data(self.e.add(match op {
                    O::LLVMAnd => VecLang::And([x, y]),
                    O::LLVMOr => VecLang::Or([x, y]),
                    O::LLVMXor => VecLang::Xor([x, y]),
                    O::LLVMLShr => VecLang::LShr([x, y]),
                    _ => VecLang::AShr([x, y]),
                }))
            }
            O::LLVMSExt | O::LLVMZExt | O::LLVMTrunc => match self.sym(env, operand(0))? {
                Sym::Aff(a) => Sym::Aff(a),
                _ => return Err("a conversion of data".into()),
            },
            O::LLVMFAdd | O::LLVMFSub | O::LLVMFMul => {
                self.set_elem(t)?;
                let (x, y) = (self.data(env, operand(0))?, self.data(env, operand(1))?);
                Sym::Data(self.e.add(match op {
                    O::LLVMFAdd => VecLang::Add([x, y]),
                    O::LLVMFSub => VecLang::Sub([x, y]),
                    _ => VecLang::Mul([x, y]),
                }))
            }
            O::LLVMFNeg => {
                let x = self.data(env, operand(0))?;
                Sym::Data(self.e.add(VecLang::Neg(x)))
            }
            O::LLVMCall => {
                let name = ir::called_intrinsic(i).ok_or("a call")?;
                if crate::wfv::widen::DROPPED.iter().any(|p| name.starts_with(p)) {
                    return Ok(());
                }
                let (a, b, c) = (self.data(env, operand(0))?, self.data(env, operand(1))?, self.data(env, operand(2))?);
                if name.starts_with("llvm.fma.f32") || (name.starts_with("llvm.fmuladd.f32") && self.fused_muladd) {
                    Sym::Data(self.e.add(VecLang::Mac([a, b, c])))
                } else if name.starts_with("llvm.fmuladd.f32") {
                    let p = self.e.add(VecLang::Mul([a, b]));
                    Sym::Data(self.e.add(VecLang::Add([p, c])))
                } else {
                    return Err(format!("a call of '{name}'"));
                }
            }
            O::LLVMGetElementPtr => {
                let Sym::Ptr { base, off } = self.sym(env, operand(0))? else { return Err("an address computed from a non-pointer".into()) };
                let mut off = off;
                for (k, sc) in gep_scales(self.m, i).into_iter().enumerate() {
                    let idx = operand(k as u32 + 1);
                    let Sym::Aff(x) = self.sym(env, idx)? else { return Err("an address computed from data (a gather)".into()) };
                    off = match sc {
                        GepIndex::Scale(s) => off.add(&x.scale(s), 1),
                        GepIndex::Field(f) => off.add(&Aff::constant(f), 1),
                        GepIndex::Unknown => return Err("an address into an unknown type".into()),
                    };
                }
                Sym::Ptr { base, off }
            }
            O::LLVMLoad => {
                self.set_elem(t)?;
                let (c, k) = self.element(env, operand(0))?;
                match stored.get(&(c, k)) {
                    Some(&v) => Sym::Data(v),
                    None => {
                        self.loads.push((c, k, copy));
                        let name = self.e.add(VecLang::Symbol(self.classes[c].name));
                        let idx = self.e.add(VecLang::Num(k));
                        Sym::Data(self.e.add(VecLang::Get([name, idx])))
                    }
                }
            }
            O::LLVMStore => {
                self.set_elem(unsafe { LLVMTypeOf(operand(0)) })?;
                let v = self.data(env, operand(0))?;
                let (c, k) = self.element(env, operand(1))?;
                // (A run-time stride would need the machine's strided store;
                // at a constant stride elements are stored one by one.)
                if !self.independent && self.classes[c].stride.is_some_and(|st| ir::const_i64(st).is_none()) {
                    return Err("a store at a run-time stride".into());
                }
                stored.insert((c, k), v);
                self.stores.push((c, k, copy, v));
                return Ok(());
            }
            op => return Err(format!("an unsupported operation ({op:?})")),
        };
        env.insert(i, out);
        Ok(())
    }

    /// Every pair of accesses the copies make can be made in any order, or
    /// will be once the returned runtime conditions hold. `advancing`: the
    /// counter and the inductions (what moves from step to step).
    fn check_dependences(&self, advancing: &[LLVMValueRef]) -> R<Vec<Disjoint>> {
        if self.independent {
            return Ok(Vec::new());
        }
        let identified = ir::identified_object;
        let accesses: Vec<(usize, i64, usize, bool)> =
            self.loads.iter().map(|&(c, k, l)| (c, k, l, false)).chain(self.stores.iter().map(|&(c, k, l, _)| (c, k, l, true))).collect();
        // What a class advances by per iteration.
        let advance = |c: &Class| -> Vec<(LLVMValueRef, i64)> { c.terms.iter().copied().filter(|(v, _)| advancing.contains(v)).collect() };
        // A class's elements' distance in bytes: 4, a constant stride's, or
        // (a run-time stride) unknown.
        let step = |c: &Class| match c.stride {
            None => Some(4),
            Some(s) => ir::const_i64(s).map(|k| k.saturating_mul(4)),
        };
        // The byte range a class's accesses touch in one step.
        let range = |c: usize| {
            let sb = step(&self.classes[c]).unwrap_or(4);
            let ks = accesses.iter().filter(|a| a.0 == c).map(|a| a.1.saturating_mul(sb));
            let (lo, hi) = ks.fold((i64::MAX, i64::MIN), |(lo, hi), k| (lo.min(k), hi.max(k)));
            (lo, hi.saturating_add(4))
        };
        let mut disjoint: Vec<Disjoint> = Vec::new();
        for (x, &(c1, k1, l1, s1)) in accesses.iter().enumerate() {
            for &(c2, k2, l2, s2) in &accesses[x + 1..] {
                if !(s1 || s2) {
                    continue;
                }
                let (a, b) = (&self.classes[c1], &self.classes[c2]);
                if c1 != c2 {
                    // Pointers computed (outside the loop) from distinct
                    // objects point into distinct objects.
                    let (ra, rb) = (underlying(a.base), underlying(b.base));
                    if ra != rb && identified(ra) && identified(rb) {
                        continue;
                    }
                    if step(a).is_none() || step(b).is_none() {
                        return Err(format!("a run-time stride through '{}', which the loop may store to", ir::value_name(a.base)));
                    }
                    // Otherwise a runtime check, when the two advance alike
                    // (their distance is then the same at every step).
                    if advance(a) != advance(b) {
                        return Err(if a.base == b.base {
                            format!("accesses to '{}' at a distance that changes from step to step", ir::value_name(a.base))
                        } else {
                            format!("'{}' and '{}' may be the same memory and advance differently (mark the pointers restrict)", ir::value_name(a.base), ir::value_name(b.base))
                        });
                    }
                    let (a, b) = (c1.min(c2), c1.max(c2));
                    if !disjoint.iter().any(|d| d.a == a && d.b == b) {
                        let ((lo_a, hi_a), (lo_b, hi_b)) = (range(a), range(b));
                        disjoint.push(Disjoint { a, b, lo_a, hi_a, lo_b, hi_b });
                    }
                    continue;
                }
                if k1 == k2 && l1 != l2 {
                    return Err(format!("two iterations access the same element of '{}', one of them storing", ir::value_name(a.base)));
                }
            }
        }
        Ok(disjoint)
    }
}

/// The object a pointer points into: `p` without its address arithmetic
/// (`getelementptr`, instructions or constants).
fn underlying(mut p: LLVMValueRef) -> LLVMValueRef {
    unsafe {
        for _ in 0..64 {
            let gep = !LLVMIsAGetElementPtrInst(p).is_null()
                || (!LLVMIsAConstantExpr(p).is_null() && LLVMGetConstOpcode(p) == O::LLVMGetElementPtr);
            if !gep {
                break;
            }
            p = LLVMGetOperand(p, 0);
        }
        p
    }
}
