//! Emitting machine instructions by semantics: "`add.i32` into this file
//! from these arguments" becomes the cheapest matching instruction of the
//! machine (`Machine::find_instr`); immediates it cannot take are first
//! materialized into registers of a file some matching instruction reads.
//! Also constants (move-immediate found by semantics, 64-bit constants from
//! halves, vector splats by broadcast) and symbol and frame addresses.

use dsp_mir::{builder::sem_inst, FrameIndex, Guard, Inst, InstKind, Operand, PReg, Reg};
use isa_tablegen::{ArgPat, InstrId, RegFileId, SemOp, SpecialKind, Ty, Want};

use crate::function::Fx;

/// A semantic argument: a register or an immediate-like operand.
#[derive(Clone, Debug, PartialEq)]
pub enum A {
    R(Reg),
    I(i64),
    /// A symbol address plus offset.
    S(String, i64),
    /// A frame object's address (from the stack pointer) plus offset.
    F(FrameIndex, i64),
}

/// The immediate a frame offset is assumed to need (frame layout fills it in).
const FRAME_IMM: i64 = 0xffff;

/// Cache key of a materialized constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Imm(RegFileId, i64),
    Sym(String, i64),
    Frame(FrameIndex, i64),
}

impl<'a> Fx<'a> {
    pub fn push(&mut self, kind: InstKind) {
        self.push_inst(Inst::new(kind));
    }

    pub fn push_inst(&mut self, mut i: Inst) {
        i.loc = self.loc.clone();
        if let InstKind::Machine { instr, ops, .. } = &i.kind {
            let sem = &self.m.instr(*instr).sem;
            let memory = sem.reads_memory() || sem.writes_memory();
            // Not stack slots: an access may go through the scratch slot,
            // which every object shares.
            let on_stack = ops.iter().any(|x| matches!(x, dsp_mir::Operand::Frame { .. }));
            // The scratch slot itself (vectors built or taken apart through
            // memory) is an object no pointer of the program reaches.
            let scratch = self.scratch.is_some_and(|s| ops.iter().any(|x| matches!(x, dsp_mir::Operand::Frame { index, .. } if *index == s)));
            if memory && scratch {
                i.object = Some(dsp_mir::MemObject::SCRATCH);
            } else if let (Some(o), true, false) = (self.object, memory, on_stack) {
                i.object = Some(o);
            }
        }
        let cur = self.cur;
        self.f.block_mut(cur).insts.push(i);
    }

    pub fn vreg(&mut self, file: RegFileId) -> Reg {
        Reg::Virt(self.f.new_vreg(file))
    }

    pub fn file(&self, r: Reg) -> RegFileId {
        self.f.reg_file(r)
    }

    pub fn copy(&mut self, dst: Reg, src: Reg) {
        self.push(InstKind::Copy { dst, src });
    }

    fn pat(&self, a: &A) -> ArgPat {
        match a {
            A::R(r) => ArgPat::Reg(self.file(*r)),
            A::I(v) => ArgPat::Imm(*v),
            A::S(..) => ArgPat::SymImm,
            A::F(..) => ArgPat::Imm(FRAME_IMM),
        }
    }

    pub fn find(&self, op: SemOp, ty: Option<Ty>, ty2: Option<Ty>, dst: Option<RegFileId>, args: &[ArgPat]) -> Option<InstrId> {
        self.m.find_instr(&Want { op, ty, ty2, dst, args })
    }

    /// Whether the machine has `op.ty` into `dst` from registers of these files.
    pub fn has(&self, op: SemOp, ty: Ty, dst: Option<RegFileId>, files: &[RegFileId]) -> bool {
        let pats: Vec<ArgPat> = files.iter().map(|f| ArgPat::Reg(*f)).collect();
        self.find(op, Some(ty), None, dst, &pats).is_some()
    }

    fn operand(a: &A) -> Operand {
        match a {
            A::R(r) => Operand::Reg(*r),
            A::I(v) => Operand::Imm(*v),
            A::S(name, off) => Operand::Sym { name: name.clone(), offset: *off },
            A::F(index, offset) => Operand::Frame { index: *index, offset: *offset },
        }
    }

    /// Emits instruction `id` writing `dst` (if any) from `args`.
    pub fn emit_id(&mut self, id: InstrId, dst: Option<Reg>, args: &[A], guard: Option<Guard>) {
        let ops: Vec<Operand> = args.iter().map(Self::operand).collect();
        let inst = sem_inst(self.m, id, dst.map(Operand::Reg), &ops, guard);
        self.push_inst(inst);
    }

    /// `op.ty.ty2(args)` into a new register of `dst` (or no result), if the
    /// machine can do it, materializing immediates where needed.
    pub fn try_op(&mut self, op: SemOp, ty: Option<Ty>, ty2: Option<Ty>, dst: Option<RegFileId>, args: &[A]) -> Option<Option<Reg>> {
        let pats: Vec<ArgPat> = args.iter().map(|a| self.pat(a)).collect();
        if let Some(id) = self.find(op, ty, ty2, dst, &pats) {
            let d = dst.map(|f| self.vreg(f));
            self.emit_id(id, d, args, None);
            return Some(d);
        }
        // Immediates into registers: try the files the instruction might read.
        let imm_pos: Vec<usize> = (0..args.len()).filter(|&i| !matches!(args[i], A::R(_))).collect();
        if imm_pos.is_empty() {
            return None;
        }
        let key = format!("{op:?} {ty:?} {ty2:?} {dst:?} {args:?}");
        if !self.materializing.insert(key.clone()) {
            return None;
        }
        let out = self.try_op_materialized(op, ty, ty2, dst, args, &pats, &imm_pos);
        self.materializing.remove(&key);
        out
    }

    /// [`Self::try_op`] with some immediates of `args` (at `imm_pos`) put in
    /// registers first.
    #[allow(clippy::too_many_arguments)]
    fn try_op_materialized(
        &mut self,
        op: SemOp,
        ty: Option<Ty>,
        ty2: Option<Ty>,
        dst: Option<RegFileId>,
        args: &[A],
        pats: &[ArgPat],
        imm_pos: &[usize],
    ) -> Option<Option<Reg>> {
        let mut cands: Vec<RegFileId> = Vec::new();
        for a in args {
            if let A::R(r) = a {
                cands.push(self.file(*r));
            }
        }
        cands.extend(dst);
        cands.extend(self.m.scalar_file(Ty::I32));
        cands.extend(self.m.scalar_file(Ty::I64));
        cands.dedup();
        let mut uniq = Vec::new();
        for c in cands {
            if !uniq.contains(&c) {
                uniq.push(c);
            }
        }
        let n = imm_pos.len() as u32;
        let k = uniq.len();
        // Every choice of file per immediate (few immediates, few files);
        // `k` means "keep it an immediate".
        let total = (k + 1).pow(n);
        for combo in 0..total {
            let mut choice = Vec::new();
            let mut c = combo;
            for _ in 0..n {
                choice.push(c % (k + 1));
                c /= k + 1;
            }
            if choice.iter().all(|&c| c == k) {
                continue;
            }
            let mut p = pats.to_vec();
            for (j, &pos) in imm_pos.iter().enumerate() {
                if choice[j] < k {
                    p[pos] = ArgPat::Reg(uniq[choice[j]]);
                }
            }
            if let Some(id) = self.find(op, ty, ty2, dst, &p) {
                let mut new_args = args.to_vec();
                for (j, &pos) in imm_pos.iter().enumerate() {
                    if choice[j] < k {
                        let r = self.materialize(&args[pos], uniq[choice[j]]).ok()?;
                        new_args[pos] = A::R(r);
                    }
                }
                let d = dst.map(|f| self.vreg(f));
                self.emit_id(id, d, &new_args, None);
                return Some(d);
            }
        }
        None
    }

    /// `op.ty(args)` into a new register of `dst`.
    pub fn op(&mut self, op: SemOp, ty: Ty, dst: RegFileId, args: &[A]) -> Result<Reg, String> {
        match self.try_op(op, Some(ty), None, Some(dst), args) {
            Some(Some(r)) => Ok(r),
            _ => Err(self.missing(op, Some(ty), None, Some(dst), args)),
        }
    }

    /// A conversion `cvt.from.to(a)` into `dst`.
    pub fn cvt(&mut self, from: Ty, to: Ty, dst: RegFileId, a: Reg) -> Result<Reg, String> {
        match self.try_op(SemOp::Cvt, Some(from), Some(to), Some(dst), &[A::R(a)]) {
            Some(Some(r)) => Ok(r),
            _ => Err(self.missing(SemOp::Cvt, Some(from), Some(to), Some(dst), &[A::R(a)])),
        }
    }

    /// An operation without a result (stores).
    pub fn op_void(&mut self, op: SemOp, ty: Ty, args: &[A]) -> Result<(), String> {
        match self.try_op(op, Some(ty), None, None, args) {
            Some(_) => Ok(()),
            None => Err(self.missing(op, Some(ty), None, None, args)),
        }
    }

    pub fn missing(&self, op: SemOp, ty: Option<Ty>, ty2: Option<Ty>, dst: Option<RegFileId>, args: &[A]) -> String {
        let mut s = op.name().to_string();
        for t in [ty, ty2].into_iter().flatten() {
            s.push('.');
            s.push_str(t.name());
        }
        let files: Vec<String> = args
            .iter()
            .map(|a| match a {
                A::R(r) => self.m.regfile(self.file(*r)).name.clone(),
                _ => "imm".into(),
            })
            .collect();
        let d = dst.map(|f| format!("{} = ", self.m.regfile(f).name)).unwrap_or_default();
        format!("the machine has no instruction '{d}{s}({})'", files.join(", "))
    }

    /// An argument in a register of `file`.
    pub fn materialize(&mut self, a: &A, file: RegFileId) -> Result<Reg, String> {
        match a {
            A::R(r) if self.file(*r) == file => Ok(*r),
            A::R(_) => Err("value in the wrong register file".into()),
            A::I(v) => self.imm(*v, file),
            A::S(name, off) => {
                let r = self.sym_addr(name, *off)?;
                if self.file(r) == file {
                    Ok(r)
                } else {
                    Err("address in the wrong register file".into())
                }
            }
            A::F(idx, off) => {
                let r = self.frame_addr(*idx, *off)?;
                if self.file(r) == file {
                    Ok(r)
                } else {
                    Err("address in the wrong register file".into())
                }
            }
        }
    }

    /// The file addresses live in (that of 32-bit integers).
    pub fn addr_file(&self) -> Result<RegFileId, String> {
        self.m.scalar_file(Ty::I32).ok_or_else(|| "the machine has no 32-bit integer register file".to_string())
    }

    /// A register holding the constant `v` (bits) in `file`.
    pub fn imm(&mut self, v: i64, file: RegFileId) -> Result<Reg, String> {
        let key = (self.cur, Key::Imm(file, v));
        if let Some(r) = self.cache.get(&key) {
            return Ok(*r);
        }
        let r = self.imm_uncached(v, file)?;
        self.cache.insert(key, r);
        Ok(r)
    }

    fn special_reg(&self, file: RegFileId, kind: SpecialKind) -> Option<PReg> {
        self.m.regfile(file).specials.iter().find(|s| s.kind == kind).map(|s| PReg { file, index: s.index })
    }

    fn imm_uncached(&mut self, v: i64, file: RegFileId) -> Result<Reg, String> {
        let rf = self.m.regfile(file).clone();
        if Some(file) == self.m.predicate_file() {
            let int = self.addr_file()?;
            if let Some(t) = self.special_reg(file, SpecialKind::True) {
                if v & 1 == 1 {
                    let z = self.imm(0, int)?;
                    // A fresh true predicate: 0 == 0 (keeps the value a virtual register).
                    return self.op(SemOp::Eq, Ty::I32, file, &[A::R(z), A::I(0)]);
                }
                if let Some(id) = self.find(SemOp::Not, Some(Ty::U32), None, Some(file), &[ArgPat::Reg(file)]) {
                    let d = self.vreg(file);
                    self.emit_id(id, Some(d), &[A::R(Reg::Phys(t))], None);
                    return Ok(d);
                }
            }
            let z = self.imm(0, int)?;
            let op = if v & 1 == 1 { SemOp::Eq } else { SemOp::Ne };
            return self.op(op, Ty::I32, file, &[A::R(z), A::I(0)]);
        }
        if let Some(vf) = rf.mask_of {
            let _ = vf;
            let int = self.addr_file()?;
            let bits = self.imm(v, int)?;
            return self.op(SemOp::Mov, Ty::U32, file, &[A::R(bits)]);
        }
        if rf.lanes.is_some() {
            let int = self.addr_file()?;
            let s = self.imm(v, int)?;
            return self.op(SemOp::Broadcast, Ty::I32, file, &[A::R(s)]);
        }
        if rf.width <= 32 {
            let v32 = v as i32 as i64;
            return self.op(SemOp::Mov, Ty::I32, file, &[A::I(v32)]);
        }
        // 64-bit file.
        if let Some(id) = self.find(SemOp::Mov, Some(Ty::I64), None, Some(file), &[ArgPat::Imm(v)]) {
            let d = self.vreg(file);
            self.emit_id(id, Some(d), &[A::I(v)], None);
            return Ok(d);
        }
        let int = self.addr_file()?;
        if v == v as i32 as i64 {
            let lo = self.imm(v, int)?;
            if let Ok(r) = self.cvt(Ty::I32, Ty::I64, file, lo) {
                return Ok(r);
            }
        }
        let lo = self.imm(v as i32 as i64, int)?;
        let hi = self.imm((v >> 32) as i32 as i64, int)?;
        self.pack(lo, hi, file)
    }

    /// A 64-bit register from two 32-bit halves.
    pub fn pack(&mut self, lo: Reg, hi: Reg, file: RegFileId) -> Result<Reg, String> {
        let args = [A::R(lo), A::R(hi)];
        match self.try_op(SemOp::Pack, None, None, Some(file), &args) {
            Some(Some(r)) => Ok(r),
            _ => Err(self.missing(SemOp::Pack, None, None, Some(file), &args)),
        }
    }

    /// The low and high 32-bit halves of a 64-bit register.
    pub fn halves(&mut self, r: Reg) -> Result<(Reg, Reg), String> {
        let int = self.addr_file()?;
        let lo = self.cvt(Ty::I64, Ty::I32, int, r)?;
        let hi = match self.try_op(SemOp::Hi, None, None, Some(int), &[A::R(r)]) {
            Some(Some(h)) => h,
            _ => {
                let s = self.op(SemOp::Shr, Ty::U64, self.file(r), &[A::R(r), A::I(32)])?;
                self.cvt(Ty::I64, Ty::I32, int, s)?
            }
        };
        Ok((lo, hi))
    }

    /// A register holding the address of `name + off`.
    pub fn sym_addr(&mut self, name: &str, off: i64) -> Result<Reg, String> {
        let key = (self.cur, Key::Sym(name.to_string(), off));
        if let Some(r) = self.cache.get(&key) {
            return Ok(*r);
        }
        let int = self.addr_file()?;
        let r = match self.try_op(SemOp::Mov, Some(Ty::I32), None, Some(int), &[A::S(name.to_string(), off)]) {
            Some(Some(r)) => r,
            _ => return Err("the machine has no move of a 32-bit symbol address".into()),
        };
        self.cache.insert(key, r);
        Ok(r)
    }

    pub fn sp(&self) -> Result<PReg, String> {
        self.m.abi.sp.ok_or_else(|| "the machine's ABI names no stack pointer".to_string())
    }

    /// A register holding the address of a frame object plus `off`.
    pub fn frame_addr(&mut self, idx: FrameIndex, off: i64) -> Result<Reg, String> {
        let key = (self.cur, Key::Frame(idx, off));
        if let Some(r) = self.cache.get(&key) {
            return Ok(*r);
        }
        let int = self.addr_file()?;
        let sp = Reg::Phys(self.sp()?);
        let args = [A::R(sp), A::F(idx, off)];
        let pats = [ArgPat::Reg(int), ArgPat::Imm(FRAME_IMM)];
        let id = self
            .find(SemOp::Add, Some(Ty::I32), None, Some(int), &pats)
            .ok_or("the machine has no add of a register and an immediate (frame addresses)")?;
        let d = self.vreg(int);
        self.emit_id(id, Some(d), &args, None);
        self.cache.insert(key, d);
        Ok(d)
    }

    /// The register of the machine's zero constant in `file`, if it has one.
    pub fn zero_reg(&self, file: RegFileId) -> Option<Reg> {
        self.special_reg(file, SpecialKind::Zero).map(Reg::Phys)
    }
}
