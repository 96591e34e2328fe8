//! A small MIR builder for tests, and the allocate-and-compare harness.

use dsp_mir::builder::sem_inst;
use dsp_mir::{Block, Callee, FrameIndex, FrameKind, Function, Guard, Inst, InstKind, Operand, PReg, Reg, RegFileId, Terminator, VReg};
use isa_tablegen::{ArgPat, Machine, SemOp, Ty, Want};

use crate::interp::{Interp, Outcome};
use crate::{allocate, RaOptions, RaReport};

pub fn machines() -> Vec<Machine> {
    isa_tablegen::builtin::names().map(|n| Machine::load(n).unwrap()).collect()
}

pub struct Fb<'m> {
    pub m: &'m Machine,
    pub f: Function,
    pub cur: Block,
    pub int: RegFileId,
    pub d: RegFileId,
    pub pred: RegFileId,
    pub vec: RegFileId,
    pub mask: RegFileId,
}

impl<'m> Fb<'m> {
    pub fn new(m: &'m Machine, name: &str) -> Fb<'m> {
        let mut f = Function::new(name);
        let cur = f.new_block("entry");
        let lanes = m.vector_lanes(32).unwrap();
        let vec = m.vector_file(lanes, 32).unwrap();
        Fb {
            m,
            f,
            cur,
            int: m.scalar_file(Ty::I32).unwrap(),
            d: m.scalar_file(Ty::I64).unwrap(),
            pred: m.predicate_file().unwrap(),
            vec,
            mask: m.mask_file(vec).unwrap(),
        }
    }
    pub fn block(&mut self, name: &str) -> Block {
        self.f.new_block(name)
    }
    pub fn at(&mut self, b: Block) {
        self.cur = b;
    }
    pub fn push(&mut self, i: Inst) {
        let c = self.cur;
        self.f.block_mut(c).insts.push(i);
    }
    pub fn file(&self, o: &Operand) -> Option<RegFileId> {
        match o {
            Operand::Reg(r) => Some(self.f.reg_file(*r)),
            _ => None,
        }
    }
    fn find(&self, op: SemOp, ty: Ty, ty2: Option<Ty>, dst: Option<RegFileId>, args: &[Operand]) -> isa_tablegen::InstrId {
        let pats: Vec<ArgPat> = args
            .iter()
            .map(|a| match a {
                Operand::Reg(r) => ArgPat::Reg(self.f.reg_file(*r)),
                Operand::Imm(v) => ArgPat::Imm(*v),
                Operand::Frame { .. } => ArgPat::Imm(0),
                Operand::Sym { .. } => ArgPat::SymImm,
            })
            .collect();
        self.m
            .find_instr(&Want { op, ty: Some(ty), ty2, dst, args: &pats })
            .unwrap_or_else(|| panic!("{}: no {op:?}.{ty} {dst:?} {pats:?}", self.m.name))
    }
    /// `dst = op.ty(args)` into a new register of `file`.
    pub fn op(&mut self, op: SemOp, ty: Ty, file: RegFileId, args: &[Operand]) -> Reg {
        let d = Reg::Virt(self.f.new_vreg(file));
        self.op_into(op, ty, d, args, None);
        d
    }
    pub fn op_into(&mut self, op: SemOp, ty: Ty, d: Reg, args: &[Operand], guard: Option<Guard>) {
        let file = self.f.reg_file(d);
        let i = self.find(op, ty, None, Some(file), args);
        let inst = sem_inst(self.m, i, Some(Operand::Reg(d)), args, guard);
        self.push(inst);
    }
    pub fn cvt(&mut self, from: Ty, to: Ty, file: RegFileId, a: Reg) -> Reg {
        let d = Reg::Virt(self.f.new_vreg(file));
        let i = self.find(SemOp::Cvt, from, Some(to), Some(file), &[Operand::Reg(a)]);
        let inst = sem_inst(self.m, i, Some(Operand::Reg(d)), &[Operand::Reg(a)], None);
        self.push(inst);
        d
    }
    /// A store without destination (`store`, `vstore`).
    pub fn store(&mut self, op: SemOp, ty: Ty, args: &[Operand]) {
        let i = self.find(op, ty, None, None, args);
        let inst = sem_inst(self.m, i, None, args, None);
        self.push(inst);
    }
    pub fn imm(&mut self, v: i64) -> Reg {
        self.op(SemOp::Mov, Ty::I32, self.int, &[Operand::Imm(v)])
    }
    pub fn bin(&mut self, op: SemOp, a: Reg, b: Reg) -> Reg {
        let file = self.f.reg_file(a);
        self.op(op, Ty::I32, file, &[Operand::Reg(a), Operand::Reg(b)])
    }
    pub fn bini(&mut self, op: SemOp, a: Reg, v: i64) -> Reg {
        self.op(op, Ty::I32, self.int, &[Operand::Reg(a), Operand::Imm(v)])
    }
    pub fn cmp(&mut self, op: SemOp, a: Reg, b: Reg) -> Reg {
        self.op(op, Ty::I32, self.pred, &[Operand::Reg(a), Operand::Reg(b)])
    }
    pub fn select(&mut self, p: Reg, a: Reg, b: Reg) -> Reg {
        let file = self.f.reg_file(a);
        self.op(SemOp::Select, Ty::I32, file, &[Operand::Reg(p), Operand::Reg(a), Operand::Reg(b)])
    }
    pub fn copy(&mut self, dst: Reg, src: Reg) {
        self.push(Inst::new(InstKind::Copy { dst, src }));
    }
    pub fn int_arg_reg(&self, i: usize) -> PReg {
        self.m.abi.args.iter().copied().filter(|r| r.file == self.int).nth(i).unwrap()
    }
    pub fn int_ret_reg(&self) -> PReg {
        self.m.abi.rets.iter().copied().find(|r| r.file == self.int).unwrap()
    }
    /// The i-th integer argument, copied into a virtual register.
    pub fn arg(&mut self, i: usize) -> Reg {
        let v = Reg::Virt(self.f.new_vreg(self.int));
        let p = self.int_arg_reg(i);
        self.copy(v, Reg::Phys(p));
        v
    }
    pub fn ret(&mut self, v: Reg) {
        let p = self.int_ret_reg();
        self.copy(Reg::Phys(p), v);
        self.term(Terminator::Return { rets: vec![p] });
    }
    pub fn term(&mut self, t: Terminator) {
        let c = self.cur;
        self.f.block_mut(c).term = t;
    }
    pub fn jump(&mut self, b: Block) {
        self.term(Terminator::Jump(b));
    }
    pub fn branch(&mut self, cond: Reg, taken: Block, not_taken: Block) {
        self.term(Terminator::Branch { cond, negate: false, taken, not_taken });
    }
    /// A call with integer arguments in registers; returns the result.
    pub fn call(&mut self, name: &str, args: &[Reg]) -> Reg {
        let mut regs = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let p = self.int_arg_reg(i);
            self.copy(Reg::Phys(p), *a);
            regs.push(p);
        }
        let r = self.int_ret_reg();
        self.push(Inst::new(InstKind::Call { callee: Callee::Sym(name.into()), args: regs, rets: vec![r] }));
        let v = Reg::Virt(self.f.new_vreg(self.int));
        self.copy(v, Reg::Phys(r));
        v
    }
    pub fn phi(&mut self, file: RegFileId, incoming: Vec<(Block, Reg)>) -> Reg {
        let d = self.f.new_vreg(file);
        self.push(Inst::new(InstKind::Phi { dst: d, incoming }));
        Reg::Virt(d)
    }
    /// Makes `dst` a phi with these inputs (for loop-carried values built in advance).
    pub fn phi_into(&mut self, b: Block, dst: VReg, incoming: Vec<(Block, Reg)>) {
        let insts = &mut self.f.block_mut(b).insts;
        let at = insts.iter().take_while(|i| matches!(i.kind, InstKind::Phi { .. })).count();
        insts.insert(at, Inst::new(InstKind::Phi { dst, incoming }));
    }
    pub fn frame(&mut self, size: u32, align: u32, kind: FrameKind) -> FrameIndex {
        self.f.new_frame_object(size, align, kind)
    }
    /// `[frame object + off] = v` (32-bit) with `sp` as the base placeholder.
    pub fn store_frame(&mut self, fi: FrameIndex, off: i64, v: Reg) {
        let sp = Reg::Phys(self.m.abi.sp.unwrap());
        self.store(SemOp::Store, Ty::I32, &[Operand::Reg(sp), Operand::Frame { index: fi, offset: off }, Operand::Reg(v)]);
    }
    pub fn load_frame(&mut self, fi: FrameIndex, off: i64) -> Reg {
        let sp = Reg::Phys(self.m.abi.sp.unwrap());
        self.op(SemOp::Load, Ty::I32, self.int, &[Operand::Reg(sp), Operand::Frame { index: fi, offset: off }])
    }
}

/// Runs `f` before and after allocation on the same inputs; returns both
/// outcomes and the report. Panics with the MIR on any difference.
pub fn alloc_and_compare(m: &Machine, f: &Function, args: &[u64], stack_args: &[u32]) -> (RaReport, Function, Outcome) {
    let (r, g, _, a) = alloc_and_compare2(m, f, args, stack_args);
    (r, g, a)
}

/// Like [`alloc_and_compare`], also returning the reference outcome; data memory must agree.
pub fn alloc_and_compare2(m: &Machine, f: &Function, args: &[u64], stack_args: &[u32]) -> (RaReport, Function, Outcome, Outcome) {
    alloc_and_compare_with(m, f, args, stack_args, &RaOptions { check: true, ..RaOptions::default() })
}

/// Like [`alloc_and_compare2`] with these options.
pub fn alloc_and_compare_with(
    m: &Machine,
    f: &Function,
    args: &[u64],
    stack_args: &[u32],
    opts: &RaOptions,
) -> (RaReport, Function, Outcome, Outcome) {
    let before = Interp::new(m).run(f, args, stack_args, false).unwrap_or_else(|e| {
        panic!("{}: reference run failed: {e}\n{}", m.name, dsp_mir::print::function(m, f))
    });
    let mut g = f.clone();
    let report = allocate(m, &mut g, opts)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", m.name, dsp_mir::print::function(m, f)));
    let after = Interp::new(m).run(&g, args, stack_args, true).unwrap_or_else(|e| {
        panic!("{}: allocated run failed: {e}\n{}", m.name, dsp_mir::print::function(m, &g))
    });
    assert_eq!(before.rets, after.rets, "{}: results differ\n{}", m.name, dsp_mir::print::function(m, &g));
    assert!(data(&before) == data(&after), "{}: data memory differs\n{}", m.name, dsp_mir::print::function(m, &g));
    (report, g, before, after)
}

/// Memory region the tests use as their data (both runs must agree on it).
pub const DATA: u64 = 0x1_0000;
pub const DATA_LEN: usize = 0x4000;

pub fn data(o: &Outcome) -> &[u8] {
    &o.mem[DATA as usize..DATA as usize + DATA_LEN]
}
