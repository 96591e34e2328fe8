//! Predecoding: turns the text segments of an executable into a compact bundle
//! table once, so the run loop never decodes, allocates or dispatches on types.
//!
//! Registers, a scratch area and every immediate live in one flat `u64` value
//! array ([`Layout`]); a decoded operation ([`DOp`]) names its sources and its
//! destination by offsets into it, carries the element function chosen for its
//! semantics and everything the run loop needs (latency, extension of the
//! result, branch targets, static unit placement).

use std::collections::HashMap;

use dsp_obj::Executable;
use isa_tablegen::{
    InstrId, Machine, Op, OperandKind, Reg, RegFileId, SemClass, SemOp, SpecialKind, Ty, UnitId,
};

use crate::alu::{self, AluFn, AluTrap};

/// "No such index" in the tables.
pub const NONE: u32 = u32::MAX;
/// Most lanes a vector file may have (mask registers hold one bit per lane in a `u64`).
pub const MAX_LANES: usize = 64;

/// What kind of register file, as far as storage goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// One value of up to 64 bits per register.
    Scalar,
    /// `lanes` values per register.
    Vector,
    /// One bit per lane of the vector file it masks.
    Mask,
}

/// Storage of one register file in the value array.
#[derive(Clone, Debug)]
pub struct FileInfo {
    pub kind: FileKind,
    /// Offset of register 0's (first) value.
    pub val_base: u32,
    /// Register id of register 0 (ids number all registers, for --strict).
    pub id_base: u32,
    /// Values per register: lanes for vectors, else 1.
    pub stride: u32,
    /// Lanes of a vector file, or of the file a mask file masks.
    pub lanes: u32,
    /// Bits kept of one value: register width, lane width, or one bit per lane.
    pub mask: u64,
}

/// Where every register lives.
#[derive(Clone, Debug)]
pub struct Layout {
    pub files: Vec<FileInfo>,
    /// Register ids in use; id `nids` is a dummy that is never pending.
    pub nids: u32,
    /// Scratch area (MAX_LANES values) that writes to special registers go to.
    pub trash: u32,
    /// Offset of the first constant.
    pub const_base: u32,
}

impl Layout {
    pub fn new(m: &Machine) -> Result<Layout, String> {
        let mut files = Vec::new();
        let (mut val, mut id) = (0u32, 0u32);
        for f in &m.regfiles {
            let (kind, stride, lanes, mask) = if let Some(l) = f.lanes {
                if l.count as usize > MAX_LANES || l.elem_bits > 64 || l.count == 0 {
                    return Err(format!(
                        "register file '{}': {} lanes of {} bits unsupported (at most {MAX_LANES} lanes of 64 bits)",
                        f.name, l.count, l.elem_bits
                    ));
                }
                (FileKind::Vector, l.count, l.count, bits_mask(l.elem_bits))
            } else if let Some(of) = f.mask_of {
                let lanes = m.regfile(of).lanes.map(|l| l.count).unwrap_or(1);
                if lanes as usize > MAX_LANES {
                    return Err(format!("mask file '{}' masks more than {MAX_LANES} lanes", f.name));
                }
                (FileKind::Mask, 1, lanes, bits_mask(lanes))
            } else {
                if f.width > 64 {
                    return Err(format!("register file '{}': scalar width {} above 64 bits", f.name, f.width));
                }
                (FileKind::Scalar, 1, 1, bits_mask(f.width))
            };
            files.push(FileInfo { kind, val_base: val, id_base: id, stride, lanes, mask });
            val += stride * f.count as u32;
            id += f.count as u32;
        }
        Ok(Layout { files, nids: id, trash: val, const_base: val + MAX_LANES as u32 })
    }
    pub fn file(&self, f: RegFileId) -> &FileInfo {
        &self.files[f.0 as usize]
    }
    pub fn val_off(&self, r: Reg) -> u32 {
        let f = self.file(r.file);
        f.val_base + f.stride * r.index as u32
    }
    pub fn id(&self, r: Reg) -> u32 {
        self.file(r.file).id_base + r.index as u32
    }
    /// The register with id `id`, if it is one.
    pub fn reg_of_id(&self, id: u32) -> Option<Reg> {
        let i = self.files.iter().rposition(|f| f.id_base <= id)?;
        let f = &self.files[i];
        let index = id - f.id_base;
        let next = self.files.get(i + 1).map(|n| n.id_base).unwrap_or(self.nids);
        (id < next).then_some(Reg { file: RegFileId(i as u16), index: index as u16 })
    }
    /// Initial register values: zero, except the special registers.
    pub fn initial_values(&self, m: &Machine, consts: &[u64]) -> Vec<u64> {
        let mut vals = vec![0u64; self.const_base as usize + consts.len()];
        for (fi, f) in m.regfiles.iter().enumerate() {
            let info = &self.files[fi];
            for s in &f.specials {
                let off = (info.val_base + info.stride * s.index as u32) as usize;
                let v = match s.kind {
                    SpecialKind::Zero => 0,
                    SpecialKind::True => info.mask,
                };
                vals[off..off + info.stride as usize].fill(v);
            }
        }
        vals[self.const_base as usize..].copy_from_slice(consts);
        vals
    }
}

pub fn bits_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// How a lane-wise operation reads one source in lane `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcKind {
    /// The same value in every lane.
    Scalar,
    /// Value `i` of the register.
    Vector,
    /// Bit `i` of a mask register.
    MaskLane,
}

/// What a decoded operation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Nop,
    /// dst = f(x, y, z), scalar.
    Alu,
    /// Lane by lane into a vector or mask register.
    AluLanes,
    /// An integer register's bits into a mask register (bit i = lane i).
    MovToMask,
    Load { size: u32 },
    Store { size: u32 },
    /// `align` is the required alignment in bytes; strided: lane i at x + i*y.
    /// `masked`: lanes whose bit in the mask (source 2, read whole) is clear read nothing and are 0.
    VLoad { size: u32, align: u32, strided: bool, masked: bool },
    VStore { size: u32, align: u32, strided: bool, masked: bool },
    Gather { size: u32 },
    Scatter { size: u32 },
    /// Fold the lanes of x with f into a scalar (`all`: into every lane).
    Reduce { all: bool },
    Extract,
    Insert,
    Shuffle,
    Iota,
    /// Jump to `aux` (static target), after the delay slots.
    Br,
    /// Jump to `aux` when x is not zero (`zero`: when it is zero).
    BrCond { zero: bool },
    /// Jump to the address in x.
    Jmp,
    /// Link = `ret`, jump to `aux`.
    Call,
    /// Link = `ret`, jump to the address in x.
    CallR,
    Syscall,
    /// Not executable; `aux` indexes [`Program::messages`].
    Bad,
}

/// One predecoded operation.
#[derive(Clone, Copy, Debug)]
pub struct DOp {
    pub kind: Kind,
    pub f: AluFn,
    /// Value offsets of the sources (unused ones read a zero constant).
    pub src: [u32; 4],
    pub src_kind: [SrcKind; 4],
    /// Register ids read (guard first), for --strict.
    pub reads: [u32; 5],
    pub nreads: u32,
    /// Value offset of the guard (a constant 1 when unguarded) and its negation (0/1).
    pub guard: u32,
    pub gneg: u64,
    /// Destination value offset, register id (dummy for none/special) and file.
    pub dst: u32,
    pub dst_id: u32,
    pub dst_file: u32,
    pub dst_kind: FileKind,
    /// Lanes of a lane-wise or vector operation.
    pub lanes: u32,
    /// Result extension: sign-extend from bit `64 - sh`, then keep `mask`.
    pub sh: u32,
    pub mask: u64,
    /// Sign-extension shift of gather/scatter indices.
    pub idx_sh: u32,
    pub idx_signed: bool,
    pub lat: u32,
    /// Branch/call target address, or message index of `Bad`.
    pub aux: u32,
    /// Bundle index of `aux` for static targets.
    pub target_idx: u32,
    /// Return address of calls.
    pub ret: u32,
    /// Whether this is a `nop` (not counted as an operation in the statistics).
    pub is_nop: bool,
    /// The memories its units reach (`memsys::reach`).
    pub reach: u32,
}

/// A predecoded bundle.
#[derive(Clone, Debug)]
pub struct Bundle {
    pub pc: u32,
    /// Address just past its last operation.
    pub end: u32,
    /// Its operations: `ops[first .. first + n]`.
    pub first: u32,
    pub n: u32,
    /// Index of the bundle at `end`, or NONE.
    pub next: u32,
    /// Placement must be recomputed at issue (it uses units of non-pipelined ops).
    pub dynamic: bool,
    /// Why it cannot issue (undecodable or unplaceable), as a message index.
    pub bad: u32,
    /// The latest latency of its writes of the stack pointer (0: none, at
    /// most 255): the run loop looks at the stack pointer when they have
    /// landed. (A byte: the bundle stays 28 bytes.)
    pub sp_lat: u8,
    /// A breakpoint ([`crate::Sim::break_at`]): the run stops before it issues.
    pub brk: bool,
    /// `dynamic || sp_lat != 0 || brk` ([`Bundle::update_rare`]): the run
    /// loop's one test for all three.
    pub rare: bool,
}

impl Bundle {
    /// Sets [`Bundle::rare`] from the three it stands for.
    pub fn update_rare(&mut self) {
        self.rare = self.dynamic || self.sp_lat != 0 || self.brk;
    }
}

use crate::symbols::functions;
pub use crate::symbols::{Func, OUTSIDE};

/// The whole predecoded program.
pub struct Program {
    pub layout: Layout,
    pub bundles: Vec<Bundle>,
    pub ops: Vec<DOp>,
    /// The decoded operations (for traces), parallel to `ops`.
    pub src_ops: Vec<Op>,
    /// Address of each operation, parallel to `ops`.
    pub op_pc: Vec<u32>,
    /// Static placement (unit, instance) of each operation, parallel to `ops`.
    pub place: Vec<(u16, u16)>,
    pub consts: Vec<u64>,
    pub messages: Vec<String>,
    pub text_lo: u32,
    pub text_hi: u32,
    /// Word index (pc - text_lo) / op_bytes → bundle index, or NONE.
    pub index: Vec<u32>,
    pub op_shift: u32,
    pub funcs: Vec<Func>,
}

impl Program {
    /// The bundle starting at `pc`, if any.
    #[inline]
    pub fn lookup(&self, pc: u32) -> Option<u32> {
        if pc < self.text_lo || pc >= self.text_hi || (pc - self.text_lo) & ((1 << self.op_shift) - 1) != 0 {
            return None;
        }
        let i = self.index[((pc - self.text_lo) >> self.op_shift) as usize];
        (i != NONE).then_some(i)
    }
    /// Whether `pc` lies inside a text segment.
    pub fn in_text(&self, pc: u32) -> bool {
        pc >= self.text_lo && pc < self.text_hi && {
            let w = ((pc - self.text_lo) >> self.op_shift) as usize;
            // Inside text if some bundle starts at or before this word and covers it.
            self.index[..=w].iter().rev().find(|&&i| i != NONE).is_some_and(|&i| self.bundles[i as usize].end > pc)
        }
    }
    /// The function containing `pc`, as "name+0xoff" (or "outside any symbol").
    pub fn describe(&self, pc: u32) -> String {
        match self.func_at(pc) {
            Some(f) => format!("{}+{:#x}", f.name, pc - f.addr),
            None => OUTSIDE.into(),
        }
    }
    pub fn func_at(&self, pc: u32) -> Option<&Func> {
        let i = self.funcs.partition_point(|f| f.addr <= pc);
        let f = self.funcs.get(i.checked_sub(1)?)?;
        (pc < f.end).then_some(f)
    }
    pub fn func_index(&self, pc: u32) -> Option<usize> {
        let i = self.funcs.partition_point(|f| f.addr <= pc).checked_sub(1)?;
        (pc < self.funcs[i].end).then_some(i)
    }
}

struct Decoder<'a> {
    m: &'a Machine,
    layout: Layout,
    consts: Vec<u64>,
    const_map: HashMap<u64, u32>,
    messages: Vec<String>,
}

impl Decoder<'_> {
    fn constant(&mut self, v: u64) -> u32 {
        if let Some(&o) = self.const_map.get(&v) {
            return o;
        }
        let o = self.layout.const_base + self.consts.len() as u32;
        self.consts.push(v);
        self.const_map.insert(v, o);
        o
    }
    fn bad(&mut self, msg: String) -> DOp {
        let mut d = self.blank();
        d.kind = Kind::Bad;
        d.aux = self.messages.len() as u32;
        self.messages.push(msg);
        d
    }
    fn blank(&mut self) -> DOp {
        let zero = self.constant(0);
        let one = self.constant(1);
        DOp {
            kind: Kind::Nop,
            f: |_, _, _| Ok::<u64, AluTrap>(0),
            src: [zero; 4],
            src_kind: [SrcKind::Scalar; 4],
            reads: [self.layout.nids; 5],
            nreads: 0,
            guard: one,
            gneg: 0,
            dst: self.layout.trash,
            dst_id: self.layout.nids,
            dst_file: 0,
            dst_kind: FileKind::Scalar,
            lanes: 1,
            sh: 0,
            mask: u64::MAX,
            idx_sh: 0,
            idx_signed: false,
            lat: 1,
            aux: 0,
            target_idx: NONE,
            ret: 0,
            is_nop: false,
            reach: 0,
        }
    }

    fn op(&mut self, op: &Op, pc: u32) -> DOp {
        let m = self.m;
        let instr = m.instr(op.instr);
        let sem = &instr.sem;
        let mut d = self.blank();
        d.lat = instr.latency.max(1);
        d.reach = crate::memsys::reach(m, instr);
        // Guard.
        if let (Some(g), Some(gf)) = (op.guard, m.encoding.guard.as_ref()) {
            let reg = Reg { file: gf.file, index: g.reg };
            d.guard = self.layout.val_off(reg);
            d.gneg = g.negate as u64;
            if m.special(reg).is_none() {
                d.reads[0] = self.layout.id(reg);
            }
        }
        d.nreads = 1;
        let ty = sem.ty.unwrap_or(Ty::I32);
        let ty2 = sem.ty2.unwrap_or(ty);
        // Destination.
        let mut dst_lanes = 1;
        if let Some(dref) = sem.dst {
            match instr.operands.get(dref.0).map(|o| o.kind) {
                Some(OperandKind::Reg(file)) => {
                    let reg = Reg { file, index: op.args[dref.0] as u16 };
                    let info = self.layout.file(file).clone();
                    d.dst_kind = info.kind;
                    d.dst_file = file.0 as u32;
                    d.mask = info.mask;
                    dst_lanes = info.lanes;
                    if m.special(reg).is_none() {
                        d.dst = self.layout.val_off(reg);
                        d.dst_id = self.layout.id(reg);
                    }
                }
                _ => return self.bad(format!("'{}': destination is not a register", instr.mnemonic)),
            }
        }
        d.lanes = dst_lanes;
        // Result extension.
        let res = if sem.op.class() == SemClass::Memory { Some(ty) } else { alu::result_ty(sem.op, ty, ty2) };
        if let Some(t) = res {
            if t.is_signed() && t.bits() < 64 {
                d.sh = 64 - t.bits();
            }
        }
        // Lane-wise ALU operations: those writing a vector or mask register.
        let lanewise = matches!(sem.op.class(), SemClass::Alu | SemClass::Cross)
            && d.dst_kind != FileKind::Scalar
            && !(sem.op == SemOp::Mov && d.dst_kind == FileKind::Mask && self.arg_is_scalar_int(op, 0));
        // Sources.
        let mut vec_lanes: Option<u32> = None;
        for (k, a) in sem.args.iter().enumerate().take(4) {
            let Some(operand) = instr.operands.get(a.0) else {
                return self.bad(format!("'{}': semantics names a missing operand", instr.mnemonic));
            };
            let value = op.args[a.0];
            match operand.kind {
                OperandKind::Reg(file) => {
                    let reg = Reg { file, index: value as u16 };
                    let info = self.layout.file(file);
                    d.src[k] = self.layout.val_off(reg);
                    d.src_kind[k] = match info.kind {
                        FileKind::Scalar => SrcKind::Scalar,
                        FileKind::Vector => SrcKind::Vector,
                        FileKind::Mask if lanewise => SrcKind::MaskLane,
                        FileKind::Mask => SrcKind::Scalar,
                    };
                    if info.kind == FileKind::Vector {
                        if vec_lanes.is_some_and(|l| l != info.lanes) {
                            return self.bad(format!("'{}': vector operands of different lane counts", instr.mnemonic));
                        }
                        vec_lanes = Some(info.lanes);
                    }
                    if m.special(reg).is_none() {
                        d.reads[d.nreads as usize] = self.layout.id(reg);
                        d.nreads += 1;
                    }
                }
                OperandKind::Imm(..) => d.src[k] = self.constant(value as u64),
                OperandKind::PcRel(_) => {
                    let target = (pc as i64).wrapping_add(value.wrapping_mul(m.op_bytes() as i64)) as u32;
                    d.aux = target;
                    d.src[k] = self.constant(target as u64);
                }
            }
        }
        let vec_src = |k: usize, d: &DOp| d.src_kind[k] == SrcKind::Vector;
        let n_lanes = vec_lanes.unwrap_or(dst_lanes);
        let size = ty.bits() / 8;
        let unsupported = |s: &mut Self| {
            s.bad(format!("'{}': operand kinds unsupported by the simulator for {}", instr.mnemonic, sem.op.name()))
        };
        d.kind = match sem.op {
            SemOp::Nop => {
                d.is_nop = true;
                Kind::Nop
            }
            SemOp::Load => {
                if d.dst_kind == FileKind::Vector || vec_src(0, &d) || vec_src(1, &d) {
                    return unsupported(self);
                }
                Kind::Load { size }
            }
            SemOp::Store => {
                if (0..3).any(|k| vec_src(k, &d)) {
                    return unsupported(self);
                }
                Kind::Store { size }
            }
            SemOp::VLoad | SemOp::VLoadU | SemOp::VLoadS | SemOp::VLoadM => {
                if d.dst_kind != FileKind::Vector || vec_src(0, &d) || vec_src(1, &d) {
                    return unsupported(self);
                }
                let align = if sem.op == SemOp::VLoad { size * dst_lanes } else { size };
                let masked = sem.op == SemOp::VLoadM;
                if masked {
                    // The mask is read whole.
                    d.src_kind[2] = SrcKind::Scalar;
                }
                Kind::VLoad { size, align, strided: sem.op == SemOp::VLoadS, masked }
            }
            SemOp::VStore | SemOp::VStoreU | SemOp::VStoreS | SemOp::VStoreM => {
                if !vec_src(2, &d) || vec_src(0, &d) || vec_src(1, &d) {
                    return unsupported(self);
                }
                d.lanes = n_lanes;
                let align = if sem.op == SemOp::VStore { size * n_lanes } else { size };
                if sem.op == SemOp::VStoreM {
                    // The mask is read whole.
                    d.src_kind[3] = SrcKind::Scalar;
                }
                Kind::VStore { size, align, strided: sem.op == SemOp::VStoreS, masked: sem.op == SemOp::VStoreM }
            }
            SemOp::Gather | SemOp::Scatter => {
                if !vec_src(1, &d) || vec_src(0, &d) || (sem.op == SemOp::Scatter && !vec_src(2, &d)) {
                    return unsupported(self);
                }
                if sem.op == SemOp::Gather && d.dst_kind != FileKind::Vector {
                    return unsupported(self);
                }
                d.lanes = n_lanes;
                let idx_bits = self.src_elem_bits(op, 1);
                d.idx_signed = ty.is_signed();
                d.idx_sh = 64 - idx_bits.min(64);
                if sem.op == SemOp::Gather { Kind::Gather { size } } else { Kind::Scatter { size } }
            }
            SemOp::ReduceAdd | SemOp::ReduceMin | SemOp::ReduceMax | SemOp::AllReduceAdd | SemOp::AllReduceMin | SemOp::AllReduceMax => {
                if !vec_src(0, &d) {
                    return unsupported(self);
                }
                let all = matches!(sem.op, SemOp::AllReduceAdd | SemOp::AllReduceMin | SemOp::AllReduceMax);
                if all != (d.dst_kind == FileKind::Vector) {
                    return unsupported(self);
                }
                d.lanes = n_lanes;
                d.f = alu::alu_fn(sem.op, ty, ty2).expect("reduce has an element function");
                Kind::Reduce { all }
            }
            SemOp::Extract => {
                if !vec_src(0, &d) || d.dst_kind == FileKind::Vector {
                    return unsupported(self);
                }
                d.lanes = n_lanes;
                Kind::Extract
            }
            SemOp::Insert => {
                if !vec_src(0, &d) || d.dst_kind != FileKind::Vector {
                    return unsupported(self);
                }
                Kind::Insert
            }
            SemOp::Shuffle => {
                if !vec_src(0, &d) || d.dst_kind != FileKind::Vector {
                    return unsupported(self);
                }
                Kind::Shuffle
            }
            SemOp::Iota => {
                if d.dst_kind != FileKind::Vector {
                    return unsupported(self);
                }
                Kind::Iota
            }
            SemOp::Br | SemOp::Call => {
                let pcrel = matches!(
                    sem.args.first().and_then(|a| instr.operands.get(a.0)).map(|o| o.kind),
                    Some(OperandKind::PcRel(_))
                );
                if let Some(link) = m.control.link.filter(|_| sem.op == SemOp::Call) {
                    self.set_link(&mut d, link);
                }
                match (sem.op, pcrel) {
                    (SemOp::Br, true) => Kind::Br,
                    (SemOp::Br, false) => Kind::Jmp,
                    (_, true) => Kind::Call,
                    _ => Kind::CallR,
                }
            }
            SemOp::BrNz | SemOp::BrZ => {
                if vec_src(0, &d) {
                    return unsupported(self);
                }
                Kind::BrCond { zero: sem.op == SemOp::BrZ }
            }
            SemOp::Jmp => Kind::Jmp,
            SemOp::CallR => {
                if let Some(link) = m.control.link {
                    self.set_link(&mut d, link);
                }
                Kind::CallR
            }
            SemOp::Syscall => Kind::Syscall,
            _ => {
                let Some(f) = alu::alu_fn(sem.op, ty, ty2) else { return unsupported(self) };
                d.f = f;
                if d.dst_kind == FileKind::Scalar {
                    if (0..4).any(|k| vec_src(k, &d)) {
                        return unsupported(self);
                    }
                    Kind::Alu
                } else if !lanewise {
                    Kind::MovToMask
                } else {
                    if vec_lanes.is_some_and(|l| l != dst_lanes) {
                        return self.bad(format!("'{}': source and destination lane counts differ", instr.mnemonic));
                    }
                    Kind::AluLanes
                }
            }
        };
        d
    }

    fn set_link(&mut self, d: &mut DOp, link: Reg) {
        let info = self.layout.file(link.file);
        d.mask = info.mask;
        d.dst_kind = FileKind::Scalar;
        d.dst_file = link.file.0 as u32;
        d.sh = 0;
        if self.m.special(link).is_none() {
            d.dst = self.layout.val_off(link);
            d.dst_id = self.layout.id(link);
        }
    }

    fn arg_is_scalar_int(&self, op: &Op, k: usize) -> bool {
        let instr = self.m.instr(op.instr);
        let Some(a) = instr.sem.args.get(k) else { return false };
        match instr.operands[a.0].kind {
            OperandKind::Reg(f) => self.layout.file(f).kind == FileKind::Scalar && self.m.regfile(f).width > 1,
            _ => true,
        }
    }

    fn src_elem_bits(&self, op: &Op, k: usize) -> u32 {
        let instr = self.m.instr(op.instr);
        match instr.operands[instr.sem.args[k].0].kind {
            OperandKind::Reg(f) => self.m.regfile(f).lanes.map(|l| l.elem_bits).unwrap_or(self.m.regfile(f).width),
            _ => 64,
        }
    }
}

/// Units that some non-pipelined instruction (busy > 1) runs on.
fn busy_units(m: &Machine) -> Vec<bool> {
    let mut v = vec![false; m.units.len()];
    for i in &m.instrs {
        if i.busy > 1 {
            for u in &i.units {
                v[u.0 as usize] = true;
            }
        }
    }
    v
}

/// Predecodes the text segments of `exe` for machine `m`.
pub fn predecode(m: &Machine, exe: &Executable) -> Result<Program, String> {
    let op_bytes = m.op_bytes();
    if !op_bytes.is_power_of_two() || op_bytes == 0 || op_bytes > 8 {
        return Err(format!("operation words of {} bytes unsupported", op_bytes));
    }
    let op_shift = op_bytes.trailing_zeros();
    let texts: Vec<_> = exe.segments.iter().filter(|s| s.flags.exec).collect();
    if texts.is_empty() {
        return Err("executable has no text segment".into());
    }
    let text_lo = texts.iter().map(|s| s.addr).min().unwrap_or(0) & !(op_bytes - 1);
    let text_hi = texts
        .iter()
        .map(|s| s.addr as u64 + (s.data.len() as u64 / op_bytes as u64) * op_bytes as u64)
        .max()
        .unwrap_or(0)
        .min(u32::MAX as u64) as u32;
    let mut dec = Decoder {
        m,
        layout: Layout::new(m)?,
        consts: Vec::new(),
        const_map: HashMap::new(),
        messages: Vec::new(),
    };
    let busy = busy_units(m);
    let words = ((text_hi.saturating_sub(text_lo)) >> op_shift) as usize;
    let mut prog_index = vec![NONE; words];
    // The stack pointer's value offset, for `Bundle::sp_lat`.
    let sp_off = m.abi.sp.filter(|&r| m.special(r).is_none()).map(|r| dec.layout.val_off(r));
    let mut bundles: Vec<Bundle> = Vec::new();
    let (mut ops, mut src_ops, mut op_pc, mut place) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut segs = texts.clone();
    segs.sort_by_key(|s| s.addr);
    for seg in segs {
        if seg.addr % op_bytes != 0 {
            return Err(format!("text segment {} at {:#x} is not aligned to operation words", seg.name, seg.addr));
        }
        let nwords = seg.data.len() / op_bytes as usize;
        let mut w = 0;
        while w < nwords {
            let start = w;
            let mut words_of = Vec::new();
            loop {
                let word = m.read_word(&seg.data, w * op_bytes as usize).unwrap_or(0);
                words_of.push(word);
                w += 1;
                if m.is_stop(word) || w >= nwords {
                    break;
                }
            }
            let pc = seg.addr + (start as u32) * op_bytes;
            let end = seg.addr + (w as u32) * op_bytes;
            let first = ops.len() as u32;
            let mut bad = NONE;
            let mut decoded = Vec::new();
            for (k, &word) in words_of.iter().enumerate() {
                let opc = pc + k as u32 * op_bytes;
                match m.decode_op(word) {
                    Ok((op, _)) => decoded.push((op, opc)),
                    Err(e) => {
                        bad = dec.messages.len() as u32;
                        dec.messages.push(format!("undecodable operation word {word:#x} at {opc:#x}: {e}"));
                        break;
                    }
                }
            }
            if bad == NONE && !m.is_stop(*words_of.last().unwrap_or(&0)) {
                bad = dec.messages.len() as u32;
                dec.messages.push(format!("bundle at {pc:#x} runs past the end of the text segment (no stop bit)"));
            }
            let mut dynamic = false;
            if bad == NONE {
                let ids: Vec<InstrId> = decoded.iter().map(|(o, _)| o.instr).collect();
                match m.place_bundle(&ids, &|_, _| false) {
                    Ok(p) => {
                        for ((op, opc), pl) in decoded.iter().zip(&p) {
                            ops.push(dec.op(op, *opc));
                            src_ops.push(op.clone());
                            op_pc.push(*opc);
                            place.push((pl.unit.0, pl.instance as u16));
                            dynamic |= m.instr(op.instr).units.iter().any(|u: &UnitId| busy[u.0 as usize]);
                        }
                    }
                    Err(e) => {
                        bad = dec.messages.len() as u32;
                        dec.messages.push(format!("bundle cannot issue: {e}"));
                    }
                }
            }
            let n = ops.len() as u32 - first;
            let sp_lat = ops[first as usize..].iter().filter(|o| Some(o.dst) == sp_off).map(|o| o.lat.clamp(1, 255) as u8).max().unwrap_or(0);
            prog_index[((pc - text_lo) >> op_shift) as usize] = bundles.len() as u32;
            bundles.push(Bundle { pc, end, first, n, next: NONE, dynamic, bad, sp_lat, brk: false, rare: false });
            bundles.last_mut().unwrap().update_rare();
        }
    }
    let mut prog = Program {
        layout: dec.layout,
        bundles,
        ops,
        src_ops,
        op_pc,
        place,
        consts: dec.consts,
        messages: dec.messages,
        text_lo,
        text_hi,
        index: prog_index,
        op_shift,
        funcs: functions(exe),
    };
    // Fall-through links, branch targets and return addresses.
    for i in 0..prog.bundles.len() {
        let end = prog.bundles[i].end;
        prog.bundles[i].next = prog.lookup(end).unwrap_or(NONE);
    }
    let delay = m.control.delay_slots;
    for i in 0..prog.bundles.len() {
        let b = prog.bundles[i].clone();
        for k in b.first..b.first + b.n {
            let kind = prog.ops[k as usize].kind;
            if matches!(kind, Kind::Br | Kind::BrCond { .. } | Kind::Call) {
                let t = prog.ops[k as usize].aux;
                prog.ops[k as usize].target_idx = prog.lookup(t).unwrap_or(NONE);
            }
            if matches!(kind, Kind::Call | Kind::CallR) {
                let mut ret = b.end;
                for _ in 0..delay {
                    match prog.lookup(ret) {
                        Some(j) => ret = prog.bundles[j as usize].end,
                        None => break,
                    }
                }
                prog.ops[k as usize].ret = ret;
            }
        }
    }
    Ok(prog)
}
