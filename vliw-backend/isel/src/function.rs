//! Lowering one function: blocks (one machine block per LLVM block, in
//! LLVM order, filled in reverse postorder so definitions come before uses),
//! the value map (LLVM values → registers), constants and addresses at their
//! uses, and phis (filled once every block is selected, with constant
//! incoming values materialized at the end of the predecessor). `i1` phis
//! and lane-mask phis go through the integer file (0/1 values or mask bits),
//! since predicate and mask files need not have a register move.

use std::collections::{HashMap, HashSet};

use dsp_mir::{Block, DataObject, FrameIndex, FrameKind, Function, InstKind, Loc, Reg, VReg};
use isa_tablegen::{Machine, SemOp, Ty};

use crate::emit::{Key, A};
use crate::llvm::{Bb, Dl, Op, TyKind, T, V};
use crate::types::{self, Sc, Shape};
use crate::{IselError, IselOptions};

/// A value in registers (see `types`).
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// A scalar in one register.
    S(Reg),
    /// A vector in native chunks (vector or mask registers).
    N(Vec<Reg>),
    /// A scalarized vector: one register per lane.
    L(Vec<Reg>),
    /// An aggregate.
    A(Vec<Val>),
}

impl Val {
    pub fn regs(&self) -> Vec<Reg> {
        match self {
            Val::S(r) => vec![*r],
            Val::N(rs) | Val::L(rs) => rs.clone(),
            Val::A(vs) => vs.iter().flat_map(|v| v.regs()).collect(),
        }
    }
    pub fn scalar(&self) -> Result<Reg, String> {
        match self {
            Val::S(r) => Ok(*r),
            _ => Err("expected a scalar value".into()),
        }
    }
}

/// The selection state of one function.
pub struct Fx<'a> {
    pub m: &'a Machine,
    pub dl: Dl,
    pub opts: &'a IselOptions,
    pub func: V,
    pub f: Function,
    pub cur: Block,
    pub loc: Option<Loc>,
    pub vals: HashMap<V, Val>,
    pub bmap: HashMap<Bb, Block>,
    /// The LLVM block each machine block was made for.
    pub origin: Vec<Option<Bb>>,
    pub cache: HashMap<(Block, Key), Reg>,
    pub vcache: HashMap<(Block, V), Val>,
    /// Static allocas and byval parameters: their frame objects.
    pub frames: HashMap<V, FrameIndex>,
    pub outgoing: Option<FrameIndex>,
    /// Instructions whose immediate becomes the outgoing area size (dynamic allocas).
    pub dyn_patches: Vec<(Block, usize)>,
    /// Phis to fill: the LLVM phi and its destination registers.
    pub phis: Vec<(V, Block, Vec<Reg>)>,
    /// A scratch stack slot for moving values between shapes.
    pub scratch: Option<FrameIndex>,
    /// Data objects the function needs (constant pools).
    pub data: Vec<DataObject>,
    /// For variadic functions: the incoming-argument offset of the first variadic argument.
    pub va_offset: u32,
    /// The memory object of the access being selected: set by
    /// `memory::lower_load`/`lower_store` while they emit.
    pub object: Option<dsp_mir::MemObject>,
    /// Identified objects (noalias arguments, globals, allocas) numbered.
    pub objects: HashMap<V, dsp_mir::MemObject>,
    /// Instructions waiting for their only user to fold them in (`fuse`);
    /// lowered where first asked for otherwise.
    pub deferred: HashSet<V>,
    /// The operations `try_op` is materializing immediates for: a request
    /// met again while materializing its own operands (a `.isa` whose only
    /// way to put a constant or an address in a register is an instruction
    /// taking it from a register of that file) fails instead of recursing
    /// until the stack overflows.
    pub materializing: HashSet<String>,
}

/// Lowers a function with a body.
pub fn lower_function(m: &Machine, dl: Dl, opts: &IselOptions, func: V) -> Result<(Function, Vec<DataObject>), Box<IselError>> {
    let name = func.name();
    let mut f = Function::new(name.clone());
    f.global = func.linkage() != crate::llvm::Linkage::Local;
    let (_, _, variadic) = func.function_type().fn_sig();
    f.variadic = variadic;
    let mut fx = Fx {
        m,
        dl,
        opts,
        func,
        f,
        cur: Block(0),
        loc: None,
        vals: HashMap::new(),
        bmap: HashMap::new(),
        origin: Vec::new(),
        cache: HashMap::new(),
        vcache: HashMap::new(),
        frames: HashMap::new(),
        outgoing: None,
        dyn_patches: Vec::new(),
        phis: Vec::new(),
        scratch: None,
        data: Vec::new(),
        va_offset: 0,
        object: None,
        objects: HashMap::new(),
        deferred: HashSet::new(),
        materializing: HashSet::new(),
    };
    let blocks = func.basic_blocks();
    for (i, b) in blocks.iter().enumerate() {
        let n = b.name();
        let mb = fx.f.new_block(if n.is_empty() { format!("bb{i}") } else { n });
        fx.bmap.insert(*b, mb);
        fx.origin.push(Some(*b));
        fx.f.block_mut(mb).independent = b.loop_property(dsp_vec_contract::INDEPENDENT_LOOP_PROPERTY);
        if b.as_value().users().iter().any(|u| u.block_address_label().is_some()) {
            fx.f.address_taken.push(mb);
        }
    }
    let err = |fx: &Fx, inst: V, reason: String| {
        Box::new(IselError { loc: fx.loc.clone(), function: name.clone(), inst: inst_text(inst), reason })
    };
    // The first located instruction gives the function's location.
    fx.f.loc = blocks.iter().flat_map(|b| b.instructions()).find_map(loc_of);
    fx.loc = fx.f.loc.clone();
    if let Err(reason) = fx.lower_params() {
        return Err(Box::new(IselError { loc: fx.f.loc.clone(), function: name.clone(), inst: format!("define @{name}"), reason }));
    }
    let entry = blocks.first().copied();
    for b in rpo(&blocks) {
        fx.cur = fx.bmap[&b];
        for inst in b.instructions() {
            if fx.vals.contains_key(&inst) {
                // Given its value by a pattern at an earlier instruction (`fuse`).
                continue;
            }
            fx.loc = loc_of(inst);
            if let Err(reason) = fx.lower_inst(inst, Some(b) == entry) {
                return Err(err(&fx, inst, reason));
            }
        }
    }
    // (Before phis are inserted: the patches are instruction positions.)
    fx.patch_dynamic();
    if let Err((inst, reason)) = fx.fill_phis() {
        return Err(err(&fx, inst, reason));
    }
    let data = std::mem::take(&mut fx.data);
    Ok((fx.f, data))
}

/// LLVM's text of an instruction without metadata attachments.
pub fn inst_text(v: V) -> String {
    let s = v.print();
    let s = s.trim();
    let s = match s.find(", !") {
        Some(i) => &s[..i],
        None => s,
    };
    // Call-site attribute group references (#3) are noise too.
    let s = s.trim_end();
    match s.rfind(" #") {
        Some(i) if s[i + 2..].bytes().all(|b| b.is_ascii_digit()) && i + 2 < s.len() => s[..i].to_string(),
        _ => s.to_string(),
    }
}

fn loc_of(v: V) -> Option<Loc> {
    v.debug_loc().map(|(file, line, col)| Loc { file, line, col })
}

/// Blocks reachable from the entry, in reverse postorder.
fn rpo(blocks: &[Bb]) -> Vec<Bb> {
    let Some(&entry) = blocks.first() else { return Vec::new() };
    let mut seen = HashSet::new();
    let mut post = Vec::new();
    let mut stack: Vec<(Bb, Vec<Bb>)> = Vec::new();
    let succs = |b: Bb| b.terminator().map(|t| t.successors()).unwrap_or_default();
    seen.insert(entry);
    stack.push((entry, succs(entry)));
    while let Some((b, rest)) = stack.last_mut() {
        if let Some(s) = rest.pop() {
            if seen.insert(s) {
                let ss = succs(s);
                stack.push((s, ss));
            }
        } else {
            post.push(*b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

impl<'a> Fx<'a> {
    pub fn shape(&self, t: T) -> Result<Shape, String> {
        types::shape(self.m, t)
    }

    pub fn sc_file(&self, sc: Sc) -> Result<isa_tablegen::RegFileId, String> {
        types::file_of(self.m, sc)
    }

    /// Fresh registers for a value of type `t`.
    pub fn new_val(&mut self, t: T) -> Result<Val, String> {
        Ok(match self.shape(t)? {
            Shape::Void => Val::A(Vec::new()),
            Shape::Scalar(sc) => {
                let f = self.sc_file(sc)?;
                Val::S(self.vreg(f))
            }
            Shape::Native { chunks, file, .. } => Val::N((0..chunks).map(|_| self.vreg(file)).collect()),
            Shape::Lanes { elem, lanes } => {
                let f = self.sc_file(elem)?;
                Val::L((0..lanes).map(|_| self.vreg(f)).collect())
            }
            Shape::Agg(ts) => {
                let mut out = Vec::new();
                for t in ts {
                    out.push(self.new_val(t)?);
                }
                Val::A(out)
            }
            Shape::Wide { parts, .. } => {
                let f = self.addr_file()?;
                Val::L((0..parts).map(|_| self.vreg(f)).collect())
            }
        })
    }

    /// Rebuilds a value of type `t` from a flat list of registers.
    pub fn unflatten(&self, t: T, regs: &mut impl Iterator<Item = Reg>) -> Result<Val, String> {
        let mut next = || regs.next().ok_or_else(|| "internal: too few registers".to_string());
        Ok(match self.shape(t)? {
            Shape::Void => Val::A(Vec::new()),
            Shape::Scalar(_) => Val::S(next()?),
            Shape::Native { chunks, .. } => Val::N((0..chunks).map(|_| next()).collect::<Result<_, _>>()?),
            Shape::Lanes { lanes, .. } => Val::L((0..lanes).map(|_| next()).collect::<Result<_, _>>()?),
            Shape::Wide { parts, .. } => Val::L((0..parts).map(|_| next()).collect::<Result<_, _>>()?),
            Shape::Agg(ts) => {
                let mut out = Vec::new();
                for t in ts {
                    out.push(self.unflatten(t, regs)?);
                }
                Val::A(out)
            }
        })
    }

    pub fn set(&mut self, v: V, val: Val) {
        self.vals.insert(v, val);
    }

    /// The registers of an LLVM value at the current point.
    pub fn val(&mut self, v: V) -> Result<Val, String> {
        if let Some(x) = self.vals.get(&v) {
            return Ok(x.clone());
        }
        let key = (self.cur, v);
        if let Some(x) = self.vcache.get(&key) {
            return Ok(x.clone());
        }
        let x = self.val_uncached(v)?;
        self.vcache.insert(key, x.clone());
        Ok(x)
    }

    /// A scalar value's register.
    pub fn reg(&mut self, v: V) -> Result<Reg, String> {
        self.val(v)?.scalar()
    }

    /// A scalar operand: constants stay immediates.
    pub fn arg(&mut self, v: V) -> Result<A, String> {
        if let Some((x, bits)) = v.const_int() {
            if bits > 1 {
                return Ok(A::I(sext(x, bits)));
            }
        }
        Ok(A::R(self.reg(v)?))
    }

    fn val_uncached(&mut self, v: V) -> Result<Val, String> {
        if let Some(&idx) = self.frames.get(&v) {
            return Ok(Val::S(self.frame_addr(idx, 0)?));
        }
        if self.deferred.remove(&v) {
            let op = v.opcode().ok_or("internal: deferred non-instruction")?;
            crate::inst::lower_inst(self, v, op)?;
            return self.vals.get(&v).cloned().ok_or_else(|| format!("internal: deferred '{}' gave no value", inst_text(v)));
        }
        if v.is_instruction() || v.is_argument() {
            return Err(format!("internal: value '{}' used before its definition", inst_text(v)));
        }
        self.constant(v)
    }

    /// Materializes a constant (numbers, addresses, vectors, aggregates).
    pub fn constant(&mut self, v: V) -> Result<Val, String> {
        let t = v.ty();
        let shape = self.shape(t)?;
        match shape {
            Shape::Void => Ok(Val::A(Vec::new())),
            Shape::Scalar(sc) => {
                let file = self.sc_file(sc)?;
                if let Some(bits) = const_bits(v) {
                    return Ok(Val::S(self.imm(bits, file)?));
                }
                if v.is_undef() {
                    return Ok(Val::S(self.imm(0, file)?));
                }
                if sc == Sc::Ptr || matches!(sc, Sc::Int(32)) {
                    if let Some((base, off)) = self.const_address(v)? {
                        return Ok(Val::S(match base {
                            Some(name) => self.sym_addr(&name, off)?,
                            None => self.imm(off, file)?,
                        }));
                    }
                }
                self.const_expr(v)
            }
            Shape::Native { .. } | Shape::Lanes { .. } | Shape::Wide { .. } if v.const_opcode().is_some() => self.const_expr(v),
            Shape::Wide { bits, parts } => crate::wide::constant(self, v, bits, parts),
            Shape::Native { .. } | Shape::Lanes { .. } => crate::vector::constant_vector(self, v, t),
            Shape::Agg(ts) => {
                let mut out = Vec::new();
                for (i, et) in ts.iter().enumerate() {
                    match v.aggregate_element(i as u32) {
                        Some(e) => out.push(self.constant(e)?),
                        None if v.is_undef() || v.is_null_or_zero() => {
                            let z = self.zero_of(*et)?;
                            out.push(z);
                        }
                        None => return Err(format!("constant '{}' is not supported", v.print())),
                    }
                }
                Ok(Val::A(out))
            }
        }
    }

    /// A constant expression, computed like the instruction it stands for
    /// (its value is cached per block, not recorded as a definition).
    fn const_expr(&mut self, v: V) -> Result<Val, String> {
        let op = v.const_opcode().ok_or_else(|| format!("constant '{}' is not supported", v.print()))?;
        match op {
            Op::LLVMExtractElement | Op::LLVMInsertElement | Op::LLVMShuffleVector => crate::vector::lower_vector_op(self, v, op)?,
            _ => crate::inst::lower_inst(self, v, op)?,
        }
        self.vals.remove(&v).ok_or_else(|| format!("constant '{}' is not supported", v.print()))
    }

    /// Zero of a type.
    pub fn zero_of(&mut self, t: T) -> Result<Val, String> {
        Ok(match self.shape(t)? {
            Shape::Void => Val::A(Vec::new()),
            Shape::Scalar(sc) => {
                let f = self.sc_file(sc)?;
                Val::S(self.imm(0, f)?)
            }
            Shape::Native { chunks, file, .. } => {
                let z = self.imm(0, file)?;
                Val::N(vec![z; chunks as usize])
            }
            Shape::Lanes { elem, lanes } => {
                let f = self.sc_file(elem)?;
                let z = self.imm(0, f)?;
                Val::L(vec![z; lanes as usize])
            }
            Shape::Agg(ts) => {
                let mut out = Vec::new();
                for t in ts {
                    out.push(self.zero_of(t)?);
                }
                Val::A(out)
            }
            Shape::Wide { parts, .. } => {
                let f = self.addr_file()?;
                let z = self.imm(0, f)?;
                Val::L(vec![z; parts as usize])
            }
        })
    }

    /// A constant address: (symbol or none for a plain number, offset).
    pub fn const_address(&mut self, v: V) -> Result<Option<(Option<String>, i64)>, String> {
        if v.is_global() {
            return Ok(Some((Some(v.name()), 0)));
        }
        if let Some(label) = v.block_address_label() {
            return Ok(Some((Some(label?), 0)));
        }
        if v.is_null_or_zero() || v.is_undef() {
            return Ok(Some((None, 0)));
        }
        if let Some((x, bits)) = v.const_int() {
            return Ok(Some((None, sext(x, bits))));
        }
        match v.const_opcode() {
            Some(Op::LLVMGetElementPtr) => {
                let Some((base, off)) = self.const_address(v.operand(0))? else { return Ok(None) };
                let Some(extra) = crate::inst::gep_const_offset(self.dl, v)? else { return Ok(None) };
                Ok(Some((base, off.wrapping_add(extra))))
            }
            Some(Op::LLVMBitCast | Op::LLVMAddrSpaceCast | Op::LLVMPtrToInt | Op::LLVMIntToPtr) => self.const_address(v.operand(0)),
            Some(Op::LLVMAdd) => {
                let a = self.const_address(v.operand(0))?;
                let b = self.const_address(v.operand(1))?;
                Ok(match (a, b) {
                    (Some((sa, oa)), Some((None, ob))) => Some((sa, oa.wrapping_add(ob))),
                    (Some((None, oa)), Some((sb, ob))) => Some((sb, oa.wrapping_add(ob))),
                    _ => None,
                })
            }
            Some(Op::LLVMSub) => {
                let a = self.const_address(v.operand(0))?;
                let b = self.const_address(v.operand(1))?;
                Ok(match (a, b) {
                    (Some((sa, oa)), Some((None, ob))) => Some((sa, oa.wrapping_sub(ob))),
                    _ => None,
                })
            }
            _ => Ok(None),
        }
    }

    /// Reads the function's parameters (ABI: registers and incoming stack arguments).
    fn lower_params(&mut self) -> Result<(), String> {
        crate::call::lower_params(self)
    }

    /// One LLVM instruction.
    fn lower_inst(&mut self, i: V, in_entry: bool) -> Result<(), String> {
        let op = i.opcode().ok_or("not an instruction")?;
        use Op::*;
        match op {
            LLVMRet | LLVMBr | LLVMSwitch | LLVMUnreachable => crate::control::lower_terminator(self, i, op),
            LLVMIndirectBr => crate::control::lower_indirect_br(self, i),
            LLVMInvoke | LLVMResume | LLVMLandingPad | LLVMCleanupRet | LLVMCatchRet | LLVMCatchPad | LLVMCleanupPad | LLVMCatchSwitch
            | LLVMCallBr => Err("exception handling is not supported".into()),
            LLVMPHI => self.lower_phi(i),
            LLVMCall => crate::call::lower_call(self, i),
            LLVMAlloca => crate::inst::lower_alloca(self, i, in_entry),
            LLVMVAArg => Err("va_arg instructions are not supported (clang expands va_arg itself)".into()),
            LLVMFence => Ok(()),
            LLVMAtomicRMW | LLVMAtomicCmpXchg => crate::inst::lower_atomic(self, i, op),
            LLVMExtractValue | LLVMInsertValue => crate::inst::lower_aggregate(self, i, op),
            LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector => crate::vector::lower_vector_op(self, i, op),
            LLVMFreeze => {
                let x = self.val(i.operand(0))?;
                self.set(i, x);
                Ok(())
            }
            _ => {
                if crate::fuse::lower(self, i, op)? {
                    return Ok(());
                }
                crate::inst::lower_inst(self, i, op)
            }
        }
    }

    fn lower_phi(&mut self, i: V) -> Result<(), String> {
        let t = i.ty();
        let val = self.new_val(t)?;
        // Predicates and masks are joined through the integer file.
        let mut phi_regs = Vec::new();
        let mut leaves = Vec::new();
        for r in val.regs() {
            if self.needs_int_phi(r) {
                let int = self.addr_file()?;
                let ir = self.vreg(int);
                phi_regs.push(ir);
                let file = self.file(r);
                leaves.push(self.int_to_flag(ir, file)?);
            } else {
                phi_regs.push(r);
                leaves.push(r);
            }
        }
        let val = self.unflatten(t, &mut leaves.into_iter())?;
        let cur = self.cur;
        self.phis.push((i, cur, phi_regs));
        self.set(i, val);
        Ok(())
    }

    /// Whether a register's file is a predicate or mask file (joined via integers).
    pub fn needs_int_phi(&self, r: Reg) -> bool {
        let file = self.file(r);
        Some(file) == self.m.predicate_file() || self.m.regfile(file).mask_of.is_some()
    }

    /// A predicate or mask from its integer form (0/1, or mask bits).
    pub fn int_to_flag(&mut self, x: Reg, file: isa_tablegen::RegFileId) -> Result<Reg, String> {
        if Some(file) == self.m.predicate_file() {
            self.op(SemOp::Ne, Ty::I32, file, &[A::R(x), A::I(0)])
        } else {
            self.op(SemOp::Mov, Ty::U32, file, &[A::R(x)])
        }
    }

    /// The integer form of a predicate (0/1) or mask (bits).
    pub fn flag_to_int(&mut self, p: Reg) -> Result<Reg, String> {
        let int = self.addr_file()?;
        if Some(self.file(p)) == self.m.predicate_file() {
            crate::inst::pred_to_int(self, p)
        } else {
            self.op(SemOp::Mov, Ty::U32, int, &[A::R(p)])
        }
    }

    /// Fills every phi's incoming list from the machine predecessors.
    fn fill_phis(&mut self) -> Result<(), (V, String)> {
        let mut preds: HashMap<Block, Vec<Block>> = HashMap::new();
        for (b, data) in self.f.blocks.iter().enumerate() {
            for s in data.term.successors() {
                let e = preds.entry(s).or_default();
                // b's edges are added together: a repeat is the last entry.
                if e.last() != Some(&Block(b as u32)) {
                    e.push(Block(b as u32));
                }
            }
        }
        let phis = std::mem::take(&mut self.phis);
        for (phi, block, regs) in phis {
            let mut incoming: Vec<Vec<(Block, Reg)>> = vec![Vec::new(); regs.len()];
            let mut done: HashSet<Block> = HashSet::new();
            // The block's predecessors by the IR block they come from (a
            // switch's join has thousands, one per incoming value).
            let mut by_origin: HashMap<_, Vec<Block>> = HashMap::new();
            for &p in preds.get(&block).into_iter().flatten() {
                by_origin.entry(self.origin[p.0 as usize]).or_default().push(p);
            }
            for (v, bb) in phi.incoming() {
                let Some(ps) = by_origin.get(&Some(bb)) else { continue };
                for &p in ps {
                    if !done.insert(p) {
                        continue;
                    }
                    let saved = (self.cur, self.loc.clone());
                    self.cur = p;
                    let r = self.phi_input(v, &regs).map_err(|e| (phi, e));
                    self.cur = saved.0;
                    self.loc = saved.1;
                    let r = r?;
                    for (k, x) in r.into_iter().enumerate() {
                        incoming[k].push((p, x));
                    }
                }
            }
            // Phis go first in their block, in order.
            let mut new = Vec::new();
            for (dst, inc) in regs.iter().zip(incoming) {
                let Reg::Virt(d) = *dst else { return Err((phi, "internal: physical phi".into())) };
                new.push(dsp_mir::Inst::new(InstKind::Phi { dst: d, incoming: inc }));
            }
            let insts = &mut self.f.block_mut(block).insts;
            let at = insts.iter().take_while(|i| matches!(i.kind, InstKind::Phi { .. })).count();
            insts.splice(at..at, new);
        }
        Ok(())
    }

    /// The registers an incoming value gives a phi, computed at the end of the current block.
    fn phi_input(&mut self, v: V, regs: &[Reg]) -> Result<Vec<Reg>, String> {
        let val = self.val(v)?;
        let leaves = val.regs();
        if leaves.len() != regs.len() {
            return Err("internal: phi shape mismatch".into());
        }
        let mut out = Vec::new();
        for (x, target) in leaves.into_iter().zip(regs) {
            let mut x = x;
            if self.needs_int_phi(x) {
                x = self.flag_to_int(x)?;
            }
            // Physical registers and reused constants become a fresh virtual copy.
            if matches!(x, Reg::Phys(_)) {
                let c = self.vreg(self.file(*target));
                self.copy(c, x);
                x = c;
            }
            out.push(x);
        }
        Ok(out)
    }

    /// Patches dynamic-alloca results to skip the outgoing argument area.
    fn patch_dynamic(&mut self) {
        let out = self.outgoing.map(|o| self.f.frame[o.0 as usize].size).unwrap_or(0);
        let align = self.m.abi.stack_align.max(4);
        let size = out.div_ceil(align) * align;
        for (b, i) in std::mem::take(&mut self.dyn_patches) {
            if let InstKind::Machine { ops, .. } = &mut self.f.block_mut(b).insts[i].kind {
                for o in ops.iter_mut() {
                    if *o == dsp_mir::Operand::Imm(crate::inst::DYN_PLACEHOLDER) {
                        *o = dsp_mir::Operand::Imm(size as i64);
                    }
                }
            }
        }
    }

    /// The function's outgoing argument area, grown to at least `size` bytes.
    pub fn outgoing_area(&mut self, size: u32, align: u32) -> FrameIndex {
        let idx = match self.outgoing {
            Some(i) => i,
            None => {
                let i = self.f.new_frame_object(0, 4, FrameKind::OutgoingArgs);
                self.outgoing = Some(i);
                i
            }
        };
        let o = &mut self.f.frame[idx.0 as usize];
        o.size = o.size.max(size);
        o.align = o.align.max(align);
        idx
    }

    /// A scratch stack slot of at least `size` bytes aligned to `align`.
    pub fn scratch_slot(&mut self, size: u32, align: u32) -> FrameIndex {
        let idx = match self.scratch {
            Some(i) => i,
            None => {
                let i = self.f.new_frame_object(0, 4, FrameKind::Local);
                self.scratch = Some(i);
                i
            }
        };
        let o = &mut self.f.frame[idx.0 as usize];
        o.size = o.size.max(size);
        o.align = o.align.max(align);
        idx
    }

    /// A new machine block continuing the current LLVM block.
    pub fn new_block(&mut self, name: &str) -> Block {
        let origin = self.origin[self.cur.0 as usize];
        let b = self.f.new_block(name);
        self.origin.push(origin);
        b
    }

    pub fn vreg_of(r: Reg) -> Option<VReg> {
        match r {
            Reg::Virt(v) => Some(v),
            _ => None,
        }
    }

    /// Type facts used everywhere.
    pub fn int_bits(t: T) -> Option<u32> {
        match t.kind() {
            TyKind::Int(b) => Some(b),
            _ => None,
        }
    }
}

/// Sign-extends the low `bits` of `x`.
pub fn sext(x: u64, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        ((x << (64 - bits)) as i64) >> (64 - bits)
    }
}

/// The bits of a scalar numeric constant (ints sign-extended, floats as IEEE bits).
pub fn const_bits(v: V) -> Option<i64> {
    if let Some((x, bits)) = v.const_int() {
        return Some(sext(x, bits));
    }
    let f = v.const_fp()?;
    Some(match v.ty().kind() {
        TyKind::F32 => (f as f32).to_bits() as i32 as i64,
        _ => f.to_bits() as i64,
    })
}
