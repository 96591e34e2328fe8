//! Shared helpers of the scheduler's run tests: building allocated MIR by
//! semantics (no mnemonics), emitting it, assembling it with crt0 (and
//! libprint when asked), linking and running it on `dsp-sim --strict`.

#![allow(dead_code)]

use dsp_mir::builder::sem_inst;
use dsp_mir::{
    Block, Callee, FrameKind, Function, Inst, InstKind, Module, Operand, PReg, Reg, Terminator,
};
use dsp_sched::{FunctionStats, SchedOptions};
use isa_tablegen::{ArgPat, Machine, SemOp, Ty, Want};

pub const CRT0: &str = include_str!("../../../runtime/crt0.s");
pub const PRINT_INT: &str = include_str!("../../../runtime/libprint/print_int.s");

pub fn machines() -> Vec<Machine> {
    isa_tablegen::builtin::names()
        .map(|n| Machine::load(n).unwrap())
        .collect()
}

pub fn reg(p: PReg) -> Operand {
    Operand::Reg(Reg::Phys(p))
}

pub fn imm(v: i64) -> Operand {
    Operand::Imm(v)
}

pub fn sym(name: &str, offset: i64) -> Operand {
    Operand::Sym {
        name: name.into(),
        offset,
    }
}

/// Registers of the machine's 32-bit scalar file a test may use freely in a
/// function called by crt0: the caller-saved ones (arguments first), never
/// the stack pointer, frame pointer, link or a fixed register.
pub fn scratch(m: &Machine) -> Vec<PReg> {
    let file = m.scalar_file(Ty::I32).unwrap();
    let mut out: Vec<PReg> = m
        .abi
        .args
        .iter()
        .copied()
        .filter(|r| r.file == file)
        .collect();
    for index in 0..m.regfile(file).count {
        let r = PReg { file, index };
        let reserved = m.special(r).is_some()
            || Some(r) == m.abi.sp
            || Some(r) == m.abi.fp
            || Some(r) == m.control.link
            || m.abi.callee_saved.contains(&r);
        if !reserved && !out.contains(&r) {
            out.push(r);
        }
    }
    out
}

/// The first argument/result register of a file.
pub fn arg(m: &Machine, ty: Ty, k: usize) -> PReg {
    let file = m.scalar_file(ty).unwrap();
    m.abi
        .args
        .iter()
        .copied()
        .filter(|r| r.file == file)
        .nth(k)
        .unwrap()
}
pub fn ret(m: &Machine, ty: Ty) -> PReg {
    let file = m.scalar_file(ty).unwrap();
    m.abi.rets.iter().copied().find(|r| r.file == file).unwrap()
}

fn pat(m: &Machine, o: &Operand) -> ArgPat {
    match o {
        Operand::Reg(Reg::Phys(p)) => ArgPat::Reg(p.file),
        Operand::Imm(v) => ArgPat::Imm(*v),
        Operand::Sym { .. } => ArgPat::SymImm,
        other => panic!("{}: unexpected operand {other:?}", m.name),
    }
}

/// A function under construction, one current block at a time.
pub struct Fb<'m> {
    pub m: &'m Machine,
    pub f: Function,
    pub cur: Block,
}

impl<'m> Fb<'m> {
    pub fn new(m: &'m Machine, name: &str) -> Fb<'m> {
        let mut f = Function::new(name);
        let cur = f.new_block("entry");
        Fb { m, f, cur }
    }
    pub fn block(&mut self, name: &str) -> Block {
        self.f.new_block(name)
    }
    pub fn at(&mut self, b: Block) {
        self.cur = b;
    }
    pub fn push(&mut self, inst: Inst) {
        self.f.block_mut(self.cur).insts.push(inst);
    }
    /// `dst = op.ty(args)` with the instruction the machine offers for it.
    pub fn sem2(
        &mut self,
        op: SemOp,
        ty: Option<Ty>,
        ty2: Option<Ty>,
        dst: Option<PReg>,
        args: &[Operand],
    ) {
        let pats: Vec<ArgPat> = args.iter().map(|a| pat(self.m, a)).collect();
        let want = Want {
            op,
            ty,
            ty2,
            dst: dst.map(|d| d.file),
            args: &pats,
        };
        let id = self
            .m
            .find_instr(&want)
            .unwrap_or_else(|| panic!("{}: no instruction for {want:?}", self.m.name));
        let inst = sem_inst(self.m, id, dst.map(reg), args, None);
        self.push(inst);
    }
    /// Like `sem2`, executed only when `pred` is true (or false, `negate`).
    pub fn guarded(
        &mut self,
        pred: PReg,
        negate: bool,
        op: SemOp,
        ty: Ty,
        dst: Option<PReg>,
        args: &[Operand],
    ) {
        let pats: Vec<ArgPat> = args.iter().map(|a| pat(self.m, a)).collect();
        let want = Want {
            op,
            ty: Some(ty),
            ty2: None,
            dst: dst.map(|d| d.file),
            args: &pats,
        };
        let id = self
            .m
            .find_instr(&want)
            .unwrap_or_else(|| panic!("{}: no instruction for {want:?}", self.m.name));
        let guard = dsp_mir::Guard::new(Reg::Phys(pred), negate);
        let inst = sem_inst(self.m, id, dst.map(reg), args, Some(guard));
        self.push(inst);
    }
    pub fn sem(&mut self, op: SemOp, ty: Ty, dst: Option<PReg>, args: &[Operand]) {
        self.sem2(op, Some(ty), None, dst, args)
    }
    pub fn li(&mut self, dst: PReg, v: i64) {
        self.sem(SemOp::Mov, Ty::I32, Some(dst), &[imm(v)]);
    }
    pub fn la(&mut self, dst: PReg, name: &str, offset: i64) {
        self.sem(SemOp::Mov, Ty::I32, Some(dst), &[sym(name, offset)]);
    }
    pub fn bin(&mut self, op: SemOp, ty: Ty, dst: PReg, a: PReg, b: PReg) {
        self.sem(op, ty, Some(dst), &[reg(a), reg(b)]);
    }
    pub fn bini(&mut self, op: SemOp, ty: Ty, dst: PReg, a: PReg, b: i64) {
        self.sem(op, ty, Some(dst), &[reg(a), imm(b)]);
    }
    pub fn load(&mut self, ty: Ty, dst: PReg, base: PReg, off: i64) {
        self.sem(SemOp::Load, ty, Some(dst), &[reg(base), imm(off)]);
    }
    pub fn store(&mut self, ty: Ty, val: PReg, base: PReg, off: i64) {
        self.sem(SemOp::Store, ty, None, &[reg(base), imm(off), reg(val)]);
    }
    pub fn copy(&mut self, dst: PReg, src: PReg) {
        self.push(Inst::new(InstKind::Copy {
            dst: Reg::Phys(dst),
            src: Reg::Phys(src),
        }));
    }
    pub fn call(&mut self, callee: &str, args: Vec<PReg>, rets: Vec<PReg>) {
        self.push(Inst::new(InstKind::Call {
            callee: Callee::Sym(callee.into()),
            args,
            rets,
        }));
    }
    pub fn call_reg(&mut self, target: PReg, args: Vec<PReg>, rets: Vec<PReg>) {
        self.push(Inst::new(InstKind::Call {
            callee: Callee::Reg(Reg::Phys(target)),
            args,
            rets,
        }));
    }
    pub fn term(&mut self, t: Terminator) {
        self.f.block_mut(self.cur).term = t;
    }
    pub fn ret(&mut self) {
        let r = ret(self.m, Ty::I32);
        self.term(Terminator::Return { rets: vec![r] });
    }
    /// Lowers sp by the stack alignment and saves the link register at sp+0.
    pub fn prologue(&mut self) {
        let (sp, link) = (self.m.abi.sp.unwrap(), self.m.control.link.unwrap());
        let frame = self.m.abi.stack_align.max(8) as i64;
        self.f.new_frame_object(4, 4, FrameKind::Spill);
        self.bini(SemOp::Add, Ty::I32, sp, sp, -frame);
        self.store(Ty::I32, link, sp, 0);
    }
    pub fn epilogue(&mut self) {
        let (sp, link) = (self.m.abi.sp.unwrap(), self.m.control.link.unwrap());
        let frame = self.m.abi.stack_align.max(8) as i64;
        self.load(Ty::I32, link, sp, 0);
        self.bini(SemOp::Add, Ty::I32, sp, sp, frame);
    }
    pub fn done(self) -> Function {
        self.f
    }
}

/// What a run produced.
#[derive(Debug)]
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub cycles: u64,
    pub asm: String,
    pub stats: Vec<FunctionStats>,
}

/// Emits, assembles (with crt0 and the given extra sources), links and runs
/// a module in strict mode; panics with the assembly on any failure.
pub fn run_with(m: &Machine, module: &Module, extra: &[&str], opts: &SchedOptions) -> Run {
    let (asm, stats) =
        dsp_sched::emit_module_stats(m, module, opts).unwrap_or_else(|e| panic!("{}: {e}", m.name));
    let assemble = |src: &str, name: &str| {
        dsp_mc::assemble(m, src, name).unwrap_or_else(|errs| {
            let msgs: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
            panic!("{}: {}\n{src}", m.name, msgs.join("\n"))
        })
    };
    let mut inputs = vec![
        dsp_ld::Input::object("crt0.o", assemble(CRT0, "crt0.s")),
        dsp_ld::Input::object("test.o", assemble(&asm, "test.s")),
    ];
    for (i, src) in extra.iter().enumerate() {
        inputs.push(dsp_ld::Input::object(
            format!("extra{i}.o"),
            assemble(src, "extra.s"),
        ));
    }
    let opts_ld = dsp_ld::LinkOptions {
        machine: Some(m.clone()),
        ..dsp_ld::LinkOptions::default()
    };
    let exe = dsp_ld::link(&inputs, &opts_ld).unwrap_or_else(|e| panic!("{}: {e}\n{asm}", m.name));
    // Scheduling tests: cycles of the schedule, not of the caches.
    let config = dsp_sim::Config {
        strict: true,
        max_cycles: Some(2_000_000),
        ideal_memory: true,
        ..dsp_sim::Config::default()
    };
    let mut sim = dsp_sim::Sim::new(m, &exe, config).unwrap_or_else(|e| panic!("{}: {e}", m.name));
    let out = sim.run();
    let status = match out {
        dsp_sim::Outcome::Exit(s) => s,
        other => panic!("{}: {other:?}\n{asm}", m.name),
    };
    Run {
        status,
        stdout: String::from_utf8_lossy(&sim.core.stdout).into_owned(),
        cycles: sim.cycle,
        asm,
        stats,
    }
}

pub fn run(m: &Machine, module: &Module, extra: &[&str]) -> Run {
    run_with(m, module, extra, &SchedOptions::default())
}

/// Every scheduling mode: everything on (the default), packed without
/// renaming, without filling delay slots from branch targets, without filling
/// them from fall-through blocks, packed without
/// delay-slot filling, one operation per bundle.
pub fn all_modes() -> Vec<SchedOptions> {
    vec![
        SchedOptions::default(),
        SchedOptions {
            rename: false,
            ..SchedOptions::default()
        },
        SchedOptions {
            fill_from_target: false,
            ..SchedOptions::default()
        },
        SchedOptions {
            fill_from_fallthrough: false,
            ..SchedOptions::default()
        },
        SchedOptions {
            fill_delay_slots: false,
            ..SchedOptions::default()
        },
        SchedOptions {
            pack: false,
            fill_delay_slots: false,
            rename: false,
            ..SchedOptions::default()
        },
    ]
}

pub fn module(functions: Vec<Function>, data: Vec<dsp_mir::DataObject>) -> Module {
    Module {
        source_name: "test.c".into(),
        functions,
        data,
    }
}

pub fn words(name: &str, values: &[u32], section: dsp_mir::DataSection) -> dsp_mir::DataObject {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    dsp_mir::DataObject {
        name: name.into(),
        global: false,
        section,
        align: 4,
        size: bytes.len() as u32,
        bytes,
        relocs: vec![],
    }
}

/// Bundles of a function in the emitted statistics.
pub fn stats<'a>(run: &'a Run, name: &str) -> &'a FunctionStats {
    run.stats.iter().find(|s| s.name == name).unwrap()
}
