//! Machine facts the allocator needs, all read from the `.isa` (never named
//! in Rust): which registers of each file may be allocated and in what order,
//! what a call clobbers, and how a register of each file is saved to and
//! restored from the stack — the file's own load/store found by semantics
//! (`load`/`store` of the file's width, `vload`/`vstore` for vector files),
//! or, for predicate and mask files that have no memory access, a move to the
//! integer file (`mov.u32`) and back (`mov.u32`, or `ne.i32` against 0).

use std::collections::HashSet;

use dsp_mir::builder::sem_inst;
use dsp_mir::{Function, Inst, Operand, PReg, Reg, RegFileId};
use isa_tablegen::{ArgPat, InstrId, Machine, SemOp, SpecialKind, Ty, Want};

/// Dense numbering of registers: virtual registers first, then every
/// physical register of every file.
#[derive(Clone, Debug)]
pub struct RegKeys {
    pub nvregs: usize,
    file_base: Vec<usize>,
    file_count: Vec<u16>,
    pub total: usize,
}

impl RegKeys {
    pub fn new(m: &Machine, nvregs: usize) -> RegKeys {
        let mut file_base = Vec::new();
        let mut file_count = Vec::new();
        let mut total = nvregs;
        for f in &m.regfiles {
            file_base.push(total);
            file_count.push(f.count);
            total += f.count as usize;
        }
        RegKeys { nvregs, file_base, file_count, total }
    }
    pub fn key(&self, r: Reg) -> usize {
        match r {
            Reg::Virt(v) => v.0 as usize,
            Reg::Phys(p) => self.pkey(p),
        }
    }
    pub fn pkey(&self, p: PReg) -> usize {
        self.file_base[p.file.0 as usize] + p.index as usize
    }
    pub fn reg(&self, key: usize) -> Reg {
        if key < self.nvregs {
            return Reg::Virt(dsp_mir::VReg(key as u32));
        }
        let f = self.file_base.iter().rposition(|&b| b <= key).unwrap_or(0);
        Reg::Phys(PReg { file: RegFileId(f as u16), index: (key - self.file_base[f]) as u16 })
    }
    pub fn file_count(&self, f: RegFileId) -> u16 {
        self.file_count[f.0 as usize]
    }
}

/// How a register of one file goes to and from a stack slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// The file's own load and store (`base + imm` addressing).
    Direct { load: InstrId, store: InstrId, bytes: u32, align: u32 },
    /// Through an integer register: `to_int` moves the value into the
    /// integer file, `from_int` back; the integer file's access stores it.
    ViaInt { to_int: InstrId, from_int: FromInt, int_file: RegFileId, int: Box<Access> },
}

impl Access {
    /// Slot size and alignment.
    pub fn slot(&self) -> (u32, u32) {
        match self {
            Access::Direct { bytes, align, .. } => (*bytes, *align),
            Access::ViaInt { int, .. } => int.slot(),
        }
    }
}

/// The instruction that moves an integer back into a predicate or mask file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromInt {
    /// `d = mov(int)`.
    Mov(InstrId),
    /// `d = ne(int, 0)`.
    NeImm(InstrId),
    /// `d = ne(int, zero)` with the integer file's zero register.
    NeZero(InstrId, PReg),
}

/// How stack objects are addressed in one function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameMode {
    /// Everything from `sp`; one `sp` adjustment.
    Sp,
    /// `fp` holds the frame's top (the caller's `sp`): with dynamic stack
    /// allocation (locals and spill slots from `fp`), or when some object is
    /// more aligned than the stack (`sp` realigned to `realign`; locals from
    /// `sp`), or both (locals from a base register `bp` set to the realigned
    /// `sp` before any dynamic allocation).
    Fp { dynamic: bool, realign: u32 },
}

/// The allocator's view of the machine for one function.
pub struct Target<'m> {
    pub m: &'m Machine,
    pub keys_files: usize,
    /// The integer file (holds `i32` and addresses; `sp` lives here).
    pub int_file: RegFileId,
    pub sp: PReg,
    pub fp: Option<PReg>,
    pub link: Option<PReg>,
    pub mode: FrameMode,
    /// Base register of locals and spill slots when `sp` moves and `fp` is
    /// not aligned enough (see [`FrameMode::Fp`]).
    pub bp: Option<PReg>,
    /// Allocatable registers per file, in preference order.
    pub order: Vec<Vec<PReg>>,
    allocatable: HashSet<PReg>,
    pub callee_saved: HashSet<PReg>,
    /// Allocatable registers a call clobbers.
    pub clobbers: Vec<PReg>,
}

fn int_ty(bits: u32) -> Option<Ty> {
    match bits {
        8 => Some(Ty::I8),
        16 => Some(Ty::I16),
        32 => Some(Ty::I32),
        64 => Some(Ty::I64),
        _ => None,
    }
}

/// Types of `bits` bits to try for a plain copy through memory.
fn types_of(bits: u32) -> Vec<Ty> {
    Ty::ALL.iter().copied().filter(|t| t.bits() == bits).collect()
}

impl<'m> Target<'m> {
    pub fn new(m: &'m Machine, f: &Function) -> Result<Target<'m>, String> {
        let sp = m.abi.sp.ok_or("the machine has no stack pointer ('abi sp')")?;
        let int_file = m.scalar_file(Ty::I32).ok_or("the machine has no register file for i32")?;
        if sp.file != int_file {
            return Err("the stack pointer is not in the i32 register file".into());
        }
        let stack_align = m.abi.stack_align.max(1);
        let max_align = f
            .frame
            .iter()
            .filter(|o| matches!(o.kind, dsp_mir::FrameKind::Local | dsp_mir::FrameKind::Spill))
            .map(|o| o.align)
            .max()
            .unwrap_or(1);
        let mode = if f.dynamic_stack || max_align > stack_align {
            if m.abi.fp.is_none() {
                return Err("the function needs a frame pointer and the machine has none ('abi fp')".into());
            }
            FrameMode::Fp { dynamic: f.dynamic_stack, realign: max_align.max(stack_align) }
        } else {
            FrameMode::Sp
        };
        // Dynamic allocation and over-aligned locals: the locals need a base
        // register of their own (the realigned bottom of the frame): the
        // last callee-saved integer register, reserved in this function.
        let bp = match mode {
            FrameMode::Fp { dynamic: true, realign } if realign > stack_align => Some(
                m.abi
                    .callee_saved
                    .iter()
                    .rev()
                    .copied()
                    .find(|&r| r.file == int_file && Some(r) != m.abi.fp && r != sp && m.special(r).is_none())
                    .ok_or("dynamic stack allocation with over-aligned locals needs a callee-saved integer register")?,
            ),
            _ => None,
        };
        let mut t = Target {
            m,
            keys_files: m.regfiles.len(),
            int_file,
            sp,
            fp: m.abi.fp,
            link: m.control.link,
            mode,
            bp,
            order: Vec::new(),
            allocatable: HashSet::new(),
            callee_saved: m.abi.callee_saved.iter().copied().collect(),
            clobbers: Vec::new(),
        };
        let uses_fp = matches!(mode, FrameMode::Fp { .. });
        for (fi, file) in m.regfiles.iter().enumerate() {
            let fid = RegFileId(fi as u16);
            // Callee-saved registers of a file without its own memory access
            // would need a scratch register to save: not allocated.
            let direct = matches!(t.access(fid, stack_align), Ok(Access::Direct { .. }));
            let mut caller = Vec::new();
            let mut args = Vec::new();
            let mut saved = Vec::new();
            for index in 0..file.count {
                let r = PReg { file: fid, index };
                if m.special(r).is_some() || r == sp || Some(r) == t.link || (uses_fp && Some(r) == t.fp) || Some(r) == bp {
                    continue;
                }
                if t.callee_saved.contains(&r) {
                    if direct {
                        saved.push(r);
                    }
                } else if m.abi.args.contains(&r) || m.abi.rets.contains(&r) {
                    args.push(r);
                } else {
                    caller.push(r);
                }
            }
            // Argument registers last-first: the first arguments stay free longest.
            args.sort_by_key(|r| std::cmp::Reverse(m.abi.args.iter().position(|a| a == r).unwrap_or(0)));
            let order: Vec<PReg> = caller.into_iter().chain(args).chain(saved).collect();
            t.allocatable.extend(order.iter().copied());
            t.order.push(order);
        }
        t.clobbers = dsp_mir::call_clobbers(m).into_iter().filter(|r| t.allocatable.contains(r)).collect();
        Ok(t)
    }

    pub fn is_allocatable(&self, r: PReg) -> bool {
        self.allocatable.contains(&r)
    }

    /// Whether liveness tracks this register (virtual, or allocatable physical).
    pub fn tracked(&self, r: Reg) -> bool {
        match r {
            Reg::Virt(_) => true,
            Reg::Phys(p) => self.is_allocatable(p),
        }
    }

    /// The register stack objects of this kind are addressed from.
    pub fn frame_base(&self, kind: dsp_mir::FrameKind) -> PReg {
        use dsp_mir::FrameKind::*;
        match (self.mode, kind) {
            (FrameMode::Fp { dynamic: true, .. }, Local | Spill) if self.bp.is_some() => self.bp.unwrap_or(self.sp),
            (FrameMode::Fp { dynamic: true, .. }, Local | Spill | IncomingArg { .. }) => self.fp.unwrap_or(self.sp),
            (FrameMode::Fp { .. }, IncomingArg { .. }) => self.fp.unwrap_or(self.sp),
            _ => self.sp,
        }
    }

    /// Alignment guaranteed for the base register of spill slots.
    pub fn spill_base_align(&self) -> u32 {
        match self.mode {
            FrameMode::Fp { dynamic: false, realign } => realign,
            FrameMode::Fp { realign, .. } if self.bp.is_some() => realign,
            _ => self.m.abi.stack_align.max(1),
        }
    }

    /// How registers of `file` are stored to a slot whose base register is
    /// aligned to `base_align` bytes.
    pub fn access(&self, file: RegFileId, base_align: u32) -> Result<Access, String> {
        let m = self.m;
        let rf = m.regfile(file);
        let base = ArgPat::Reg(self.int_file);
        let find = |op: SemOp, ty: Ty, dst: Option<RegFileId>, args: &[ArgPat]| {
            m.find_instr(&Want { op, ty: Some(ty), ty2: None, dst, args })
        };
        let direct = |lop: SemOp, sop: SemOp, bits: u32| {
            types_of(bits).into_iter().find_map(|ty| {
                let load = find(lop, ty, Some(file), &[base, ArgPat::Imm(0)])?;
                let store = find(sop, ty, None, &[base, ArgPat::Imm(0), ArgPat::Reg(file)])?;
                Some((load, store))
            })
        };
        if let Some(l) = rf.lanes {
            let bytes = rf.width / 8;
            if bytes <= base_align {
                if let Some((load, store)) = direct(SemOp::VLoad, SemOp::VStore, l.elem_bits) {
                    return Ok(Access::Direct { load, store, bytes, align: bytes });
                }
            }
            if let Some((load, store)) = direct(SemOp::VLoadU, SemOp::VStoreU, l.elem_bits) {
                return Ok(Access::Direct { load, store, bytes, align: (l.elem_bits / 8).max(1) });
            }
            return Err(format!("no vector load/store to spill register file '{}'", rf.name));
        }
        if rf.mask_of.is_none() && rf.width >= 8 && rf.width.is_power_of_two() {
            if let Some((load, store)) = direct(SemOp::Load, SemOp::Store, rf.width) {
                return Ok(Access::Direct { load, store, bytes: rf.width / 8, align: rf.width / 8 });
            }
        }
        // Predicates and masks: through the integer file.
        if file == self.int_file {
            return Err(format!("no load/store of register file '{}'", rf.name));
        }
        let int = self.int_file;
        let iw = m.regfile(int).width;
        if rf.width > iw && rf.mask_of.is_none() {
            return Err(format!("register file '{}' is wider than the integer file and has no load/store", rf.name));
        }
        if let Some(v) = rf.mask_of {
            let lanes = m.regfile(v).lanes.map_or(0, |l| l.count);
            if lanes > iw {
                return Err(format!("mask file '{}' has more lanes than an integer register has bits", rf.name));
            }
        }
        let ity = int_ty(iw).ok_or("the integer file has an unusual width")?;
        let tys = [Ty::U32, Ty::I32, ity];
        let to_int = tys
            .iter()
            .find_map(|&ty| find(SemOp::Mov, ty, Some(int), &[ArgPat::Reg(file)]))
            .ok_or_else(|| format!("no move from register file '{}' to '{}' to spill it", rf.name, m.regfile(int).name))?;
        let zero = (0..m.regfile(int).count)
            .map(|index| PReg { file: int, index })
            .find(|&r| m.special(r) == Some(SpecialKind::Zero));
        let from_int = tys
            .iter()
            .find_map(|&ty| find(SemOp::Mov, ty, Some(file), &[ArgPat::Reg(int)]).map(FromInt::Mov))
            .or_else(|| tys.iter().find_map(|&ty| find(SemOp::Ne, ty, Some(file), &[ArgPat::Reg(int), ArgPat::Imm(0)]).map(FromInt::NeImm)))
            .or_else(|| {
                let z = zero?;
                tys.iter()
                    .find_map(|&ty| find(SemOp::Ne, ty, Some(file), &[ArgPat::Reg(int), ArgPat::Reg(int)]).map(|i| FromInt::NeZero(i, z)))
            })
            .ok_or_else(|| format!("no move from '{}' back to register file '{}' to reload it", m.regfile(int).name, rf.name))?;
        let int_access = self.access(int, base_align)?;
        Ok(Access::ViaInt { to_int, from_int, int_file: int, int: Box::new(int_access) })
    }

    /// `dst = load [base + off]` (Direct access only).
    pub fn load(&self, load: InstrId, dst: Reg, base: PReg, off: Operand) -> Inst {
        sem_inst(self.m, load, Some(Operand::Reg(dst)), &[Operand::Reg(Reg::Phys(base)), off], None)
    }

    /// `store [base + off] = src` (Direct access only).
    pub fn store(&self, store: InstrId, src: Reg, base: PReg, off: Operand) -> Inst {
        sem_inst(self.m, store, None, &[Operand::Reg(Reg::Phys(base)), off, Operand::Reg(src)], None)
    }

    pub fn to_int(&self, instr: InstrId, dst: Reg, src: Reg) -> Inst {
        sem_inst(self.m, instr, Some(Operand::Reg(dst)), &[Operand::Reg(src)], None)
    }

    pub fn from_int(&self, how: &FromInt, dst: Reg, src: Reg) -> Inst {
        match how {
            FromInt::Mov(i) => sem_inst(self.m, *i, Some(Operand::Reg(dst)), &[Operand::Reg(src)], None),
            FromInt::NeImm(i) => sem_inst(self.m, *i, Some(Operand::Reg(dst)), &[Operand::Reg(src), Operand::Imm(0)], None),
            FromInt::NeZero(i, z) => {
                sem_inst(self.m, *i, Some(Operand::Reg(dst)), &[Operand::Reg(src), Operand::Reg(Reg::Phys(*z))], None)
            }
        }
    }

    /// The instruction `d = add(s, imm)` of the integer file for this immediate.
    pub fn add_imm_instr(&self, imm: i64) -> Option<InstrId> {
        let ty = int_ty(self.m.regfile(self.int_file).width)?;
        let f = self.int_file;
        self.m.find_instr(&Want { op: SemOp::Add, ty: Some(ty), ty2: None, dst: Some(f), args: &[ArgPat::Reg(f), ArgPat::Imm(imm)] })
    }

    /// `d = add(s, t)` of the integer file.
    pub fn add_reg_instr(&self) -> Option<InstrId> {
        let ty = int_ty(self.m.regfile(self.int_file).width)?;
        let f = self.int_file;
        self.m.find_instr(&Want { op: SemOp::Add, ty: Some(ty), ty2: None, dst: Some(f), args: &[ArgPat::Reg(f), ArgPat::Reg(f)] })
    }

    /// `d = mov(imm)` of the integer file for this immediate.
    pub fn mov_imm_instr(&self, imm: i64) -> Option<InstrId> {
        let ty = int_ty(self.m.regfile(self.int_file).width)?;
        let f = self.int_file;
        self.m.find_instr(&Want { op: SemOp::Mov, ty: Some(ty), ty2: None, dst: Some(f), args: &[ArgPat::Imm(imm)] })
    }

    /// `d = and(s, imm)` of the integer file (stack realignment).
    pub fn and_imm_instr(&self, imm: i64) -> Option<InstrId> {
        let ty = int_ty(self.m.regfile(self.int_file).width)?;
        let f = self.int_file;
        self.m.find_instr(&Want { op: SemOp::And, ty: Some(ty), ty2: None, dst: Some(f), args: &[ArgPat::Reg(f), ArgPat::Imm(imm)] })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_has_an_access_and_an_order() {
        for name in isa_tablegen::builtin::names() {
            let m = Machine::load(name).unwrap();
            let f = Function::new("f");
            let t = Target::new(&m, &f).unwrap();
            for (fi, file) in m.regfiles.iter().enumerate() {
                let fid = RegFileId(fi as u16);
                let a = t.access(fid, m.abi.stack_align).unwrap();
                if file.width == 1 || file.mask_of.is_some() {
                    assert!(matches!(a, Access::ViaInt { .. }), "{name} {}", file.name);
                } else {
                    assert!(matches!(a, Access::Direct { .. }), "{name} {}", file.name);
                }
                let order = &t.order[fi];
                assert!(!order.is_empty());
                for r in order {
                    assert!(m.special(*r).is_none());
                    assert_ne!(Some(*r), m.abi.sp);
                    assert_ne!(Some(*r), m.control.link);
                }
                // Caller-saved registers come before callee-saved ones.
                let first_saved = order.iter().position(|r| t.callee_saved.contains(r)).unwrap_or(order.len());
                assert!(order[first_saved..].iter().all(|r| t.callee_saved.contains(r)));
            }
            let keys = RegKeys::new(&m, 5);
            for k in 0..keys.total {
                assert_eq!(keys.key(keys.reg(k)), k);
            }
        }
    }
}
