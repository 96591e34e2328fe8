//! Tests of if-conversion on hand-built counted loops: the merged block's
//! shape (predicates, guards, selects), the reasons of rejected shapes, and
//! the meaning, by a small interpreter run on the loop before and after.

use std::collections::HashMap;

use dsp_mir::verify::{verify, Stage};
use dsp_mir::{Block, Callee, Function, Inst, InstKind, Machine, Operand, PReg, Reg, RegFileId, Terminator};
use isa_tablegen::{ArgPat, SemOp, SpecialKind, Ty, Want};

use super::*;
use crate::candidate::innermost_loops;

struct T {
    m: Machine,
    f: Function,
    r: RegFileId,
    p: RegFileId,
}

/// A counted loop's fixed parts: `for (i = 0, c = tc; ; ) { body; i++; if (--c == 0) break; }`.
struct Skel {
    entry: Block,
    header: Block,
    exit: Block,
    tc: Reg,
    x: Reg,
    y: Reg,
    i: Reg,
    i2: Reg,
    c: Reg,
    c2: Reg,
    zero: Reg,
}

impl T {
    fn new(machine: &str) -> T {
        T::with(Machine::load(machine).unwrap())
    }
    /// ftm without guards (no guard field in its encoding, hence no
    /// predicate file).
    fn guardless() -> T {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../isa-tablegen/machines/ftm.isa")).unwrap();
        let text = text.replace(" guard 62..59 negate 62 file p", "");
        T::with(Machine::parse_str(&text, "ftm-guardless.isa").unwrap())
    }
    fn with(m: Machine) -> T {
        let r = m.scalar_file(Ty::I32).unwrap();
        let p = m.predicate_file().or(m.regfile_by_name("p")).unwrap();
        T { m, f: Function::new("t"), r, p }
    }
    fn v(&mut self, file: RegFileId) -> Reg {
        Reg::Virt(self.f.new_vreg(file))
    }
    fn file_of(&self, o: &Operand) -> ArgPat {
        match o {
            Operand::Reg(r) => ArgPat::Reg(self.f.reg_file(*r)),
            Operand::Imm(v) => ArgPat::Imm(*v),
            _ => panic!("operand"),
        }
    }
    fn op(&mut self, b: Block, op: SemOp, dst: Option<Reg>, args: &[Operand]) {
        let pats: Vec<ArgPat> = args.iter().map(|o| self.file_of(o)).collect();
        let want = Want { op, ty: Some(Ty::I32), ty2: None, dst: dst.map(|d| self.f.reg_file(d)), args: &pats };
        let id = self.m.find_instr(&want).unwrap_or_else(|| panic!("no instruction for {want:?}"));
        let inst = dsp_mir::builder::sem_inst(&self.m, id, dst.map(Operand::Reg), args, None);
        self.f.block_mut(b).insts.push(inst);
    }
    /// `d = op(a, b)` into a new register of `file`.
    fn val(&mut self, b: Block, op: SemOp, file: RegFileId, args: &[Operand]) -> Reg {
        let d = self.v(file);
        self.op(b, op, Some(d), args);
        d
    }
    /// `x[i]` with x the base register: its address.
    fn elem(&mut self, b: Block, base: Reg, i: Reg) -> Reg {
        let s = self.val(b, SemOp::Shl, self.r, &[Operand::Reg(i), Operand::Imm(2)]);
        self.val(b, SemOp::Add, self.r, &[Operand::Reg(base), Operand::Reg(s)])
    }
    fn load(&mut self, b: Block, addr: Reg) -> Reg {
        self.val(b, SemOp::Load, self.r, &[Operand::Reg(addr), Operand::Imm(0)])
    }
    fn store(&mut self, b: Block, addr: Reg, v: Reg) {
        self.op(b, SemOp::Store, None, &[Operand::Reg(addr), Operand::Imm(0), Operand::Reg(v)]);
    }
    fn phi(&mut self, b: Block, dst: Reg, incoming: Vec<(Block, Reg)>) {
        let Reg::Virt(dst) = dst else { panic!() };
        self.f.block_mut(b).insts.push(Inst::new(InstKind::Phi { dst, incoming }));
    }
    fn term(&mut self, b: Block, t: Terminator) {
        self.f.block_mut(b).term = t;
    }
    fn br(&mut self, b: Block, cond: Reg, taken: Block, not_taken: Block) {
        self.term(b, Terminator::Branch { cond, negate: false, taken, not_taken });
    }

    fn skel(&mut self) -> Skel {
        let entry = self.f.new_block("entry");
        let header = self.f.new_block("loop");
        let (r, tc, x, y) = (self.r, self.v(self.r), self.v(self.r), self.v(self.r));
        let zero = self.val(entry, SemOp::Mov, r, &[Operand::Imm(0)]);
        self.term(entry, Terminator::Jump(header));
        let (i, i2, c, c2) = (self.v(r), self.v(r), self.v(r), self.v(r));
        let exit = self.f.new_block("exit");
        self.term(exit, Terminator::Return { rets: vec![] });
        Skel { entry, header, exit, tc, x, y, i, i2, c, c2, zero }
    }
    /// The latch's counter and back branch, and the header's phis.
    fn close(&mut self, s: &Skel, latch: Block) {
        self.op(latch, SemOp::Add, Some(s.i2), &[Operand::Reg(s.i), Operand::Imm(1)]);
        self.op(latch, SemOp::Add, Some(s.c2), &[Operand::Reg(s.c), Operand::Imm(-1)]);
        let t = self.val(latch, SemOp::Ne, self.p, &[Operand::Reg(s.c2), Operand::Imm(0)]);
        self.br(latch, t, s.header, s.exit);
        let (Reg::Virt(c), Reg::Virt(i)) = (s.c, s.i) else { panic!() };
        let h = &mut self.f.block_mut(s.header).insts;
        h.insert(0, Inst::new(InstKind::Phi { dst: i, incoming: vec![(s.entry, s.zero), (latch, s.i2)] }));
        h.insert(0, Inst::new(InstKind::Phi { dst: c, incoming: vec![(s.entry, s.tc), (latch, s.c2)] }));
    }
    fn zero_reg(&self) -> Reg {
        Reg::Phys(PReg { file: self.r, index: 0 })
    }
}

// ------------------------------------------------------------ interpreter

/// Runs `f` from its entry with `inputs` preset; memory words at 4-byte
/// addresses. Reading an unset register or unmapped memory is an error.
fn run(m: &Machine, f: &Function, inputs: &[(Reg, u64)], mem: &mut HashMap<u64, u64>) -> Result<(), String> {
    let mut regs: HashMap<Reg, u64> = inputs.iter().copied().collect();
    let get = |regs: &HashMap<Reg, u64>, r: Reg| -> Result<u64, String> {
        if let Reg::Phys(p) = r {
            match m.special(p) {
                Some(SpecialKind::Zero) => return Ok(0),
                Some(SpecialKind::True) => return Ok(1),
                None => {}
            }
        }
        regs.get(&r).copied().ok_or_else(|| format!("read of unset {r:?}"))
    };
    let (mut prev, mut b) = (Block(0), Block(0));
    for _ in 0..100_000 {
        let data = f.block(b);
        let mut phis = Vec::new();
        for inst in &data.insts {
            if let InstKind::Phi { dst, incoming } = &inst.kind {
                let (_, r) = incoming.iter().find(|(p, _)| *p == prev).ok_or("phi without the edge taken")?;
                phis.push((Reg::Virt(*dst), get(&regs, *r)?));
            }
        }
        regs.extend(phis);
        for inst in &data.insts {
            match &inst.kind {
                InstKind::Phi { .. } => {}
                InstKind::Copy { dst, src } => {
                    let v = get(&regs, *src)?;
                    regs.insert(*dst, v);
                }
                InstKind::Call { .. } => return Err("call".into()),
                InstKind::Machine { instr, guard, ops } => {
                    let sem = &m.instr(*instr).sem;
                    if let Some(g) = guard {
                        if (get(&regs, g.reg)? != 0) == g.negate {
                            // An undefined result: garbage, which must not reach memory.
                            if let (true, Some(Operand::Reg(d))) = (g.undef_when_false, sem.dst.and_then(|d| ops.get(d.0))) {
                                regs.insert(*d, 0xdead_beef);
                            }
                            continue;
                        }
                    }
                    let mut a = Vec::new();
                    for x in &sem.args {
                        a.push(match &ops[x.0] {
                            Operand::Reg(r) => get(&regs, *r)?,
                            Operand::Imm(v) => *v as u64,
                            // Stack objects 256 bytes apart from the stack pointer.
                            Operand::Frame { index, offset } => (index.0 as i64 * 256 + offset) as u64,
                            o => return Err(format!("operand {o:?}")),
                        });
                    }
                    let s = |v: u64| v as u32 as i32 as i64;
                    let signed = sem.ty.is_some_and(|t| t.is_signed());
                    let cmp = |x: u64, y: u64| if signed { s(x).cmp(&s(y)) } else { (x as u32).cmp(&(y as u32)) };
                    use std::cmp::Ordering::*;
                    let v = match sem.op {
                        SemOp::Mov => a[0],
                        SemOp::Add => a[0].wrapping_add(a[1]),
                        SemOp::Sub => a[0].wrapping_sub(a[1]),
                        SemOp::Mul => a[0].wrapping_mul(a[1]),
                        SemOp::And => a[0] & a[1],
                        SemOp::Or => a[0] | a[1],
                        SemOp::Xor => a[0] ^ a[1],
                        SemOp::Not => !a[0],
                        SemOp::Shl => a[0] << (a[1] & 31),
                        SemOp::Shr if signed => (s(a[0]) >> (a[1] & 31)) as u64,
                        SemOp::Shr => (a[0] as u32 >> (a[1] & 31)) as u64,
                        SemOp::Div | SemOp::Rem if a[1] as u32 == 0 => return Err("divide by zero".into()),
                        SemOp::Div => (s(a[0]).wrapping_div(s(a[1]))) as u64,
                        SemOp::Rem => (s(a[0]).wrapping_rem(s(a[1]))) as u64,
                        SemOp::Eq => (a[0] as u32 == a[1] as u32) as u64,
                        SemOp::Ne => (a[0] as u32 != a[1] as u32) as u64,
                        SemOp::Lt => (cmp(a[0], a[1]) == Less) as u64,
                        SemOp::Le => (cmp(a[0], a[1]) != Greater) as u64,
                        SemOp::Gt => (cmp(a[0], a[1]) == Greater) as u64,
                        SemOp::Ge => (cmp(a[0], a[1]) != Less) as u64,
                        SemOp::Select => {
                            if a[0] & 1 != 0 {
                                a[1]
                            } else {
                                a[2]
                            }
                        }
                        SemOp::Load => {
                            let addr = a[0].wrapping_add(a[1]) as u32 as u64;
                            *mem.get(&addr).ok_or_else(|| format!("load from unmapped {addr:#x}"))?
                        }
                        SemOp::Store => {
                            let addr = a[0].wrapping_add(a[1]) as u32 as u64;
                            if !mem.contains_key(&addr) {
                                return Err(format!("store to unmapped {addr:#x}"));
                            }
                            mem.insert(addr, a[2] & 0xffff_ffff);
                            continue;
                        }
                        op => return Err(format!("interpreter: {op:?}")),
                    };
                    let d = ops[sem.dst.unwrap().0].clone();
                    let Operand::Reg(d) = d else { panic!() };
                    let width = m.regfile(f.reg_file(d)).width;
                    regs.insert(d, if width >= 64 { v } else { v & ((1u64 << width) - 1) });
                }
            }
        }
        let next = match &data.term {
            Terminator::Jump(t) => *t,
            Terminator::Branch { cond, negate, taken, not_taken } => {
                if (get(&regs, *cond)? != 0) != *negate {
                    *taken
                } else {
                    *not_taken
                }
            }
            Terminator::Return { .. } => return Ok(()),
            t => return Err(format!("terminator {t:?}")),
        };
        prev = b;
        b = next;
    }
    Err("too many steps".into())
}

/// Memory of two arrays x (at 0x1000) and y (at 0x2000) of `n` words.
fn memory(n: u64, seed: u64) -> HashMap<u64, u64> {
    let mut mem = HashMap::new();
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    for k in 0..n.max(2) {
        for base in [0x1000u64, 0x2000] {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            mem.insert(base + 4 * k, (s % 41).wrapping_sub(20) & 0xffff_ffff);
        }
    }
    mem
}

/// The stack pointer of the interpreted runs.
const STACK: u64 = 0x8000;

/// Runs the loop before and after conversion on several trip counts and
/// inputs; both must end with the same memory.
fn same_meaning(t: &T, s: &Skel, before: &Function, after: &Function) {
    for n in [1u64, 2, 3, 7, 16] {
        for seed in 0..4 {
            let sp = Reg::Phys(t.m.abi.sp.unwrap());
            let inputs = [(s.tc, n), (s.x, 0x1000), (s.y, 0x2000), (sp, STACK)];
            let mut m1 = memory(n, seed);
            // The stack: 4 words of garbage.
            for k in 0..4 {
                m1.insert(STACK + 4 * k, 0x5a5a_0000 + k);
            }
            let mut m2 = m1.clone();
            run(&t.m, before, &inputs, &mut m1).unwrap();
            run(&t.m, after, &inputs, &mut m2).unwrap_or_else(|e| panic!("{e}\n{}", dsp_mir::print::function(&t.m, after)));
            assert_eq!(m1, m2, "n={n} seed={seed}\n{}", dsp_mir::print::function(&t.m, after));
        }
    }
}

fn machine_insts<'a>(m: &'a Machine, f: &'a Function, b: Block) -> impl Iterator<Item = (&'a str, &'a Inst)> + 'a {
    f.block(b).insts.iter().filter_map(move |i| match &i.kind {
        InstKind::Machine { instr, .. } => Some((m.instr(*instr).mnemonic.as_str(), i)),
        _ => None,
    })
}

fn guard_of(i: &Inst) -> Option<Guard> {
    match &i.kind {
        InstKind::Machine { guard, .. } => *guard,
        _ => None,
    }
}

fn sems<'a>(m: &'a Machine, f: &'a Function, b: Block, op: SemOp) -> Vec<&'a Inst> {
    f.block(b)
        .insts
        .iter()
        .filter(|i| matches!(&i.kind, InstKind::Machine { instr, .. } if m.instr(*instr).sem.op == op))
        .collect()
}

/// Checks shared by every converted loop: one block, the header's phis
/// first and no others, the latch's branch last, no guarded definition,
/// a pipeliner candidate, valid MIR.
fn check_merged(t: &T, f: &Function, header: Block) {
    verify(&t.m, f, Stage::Selected).unwrap();
    let loops = innermost_loops(&t.m, f);
    let lp = loops.iter().find(|l| l.header == header).unwrap();
    assert_eq!(lp.blocks, vec![header]);
    lp.verdict.as_ref().unwrap_or_else(|e| panic!("not a candidate: {e}\n{}", dsp_mir::print::function(&t.m, f)));
    let insts = &f.block(header).insts;
    let first_non_phi = insts.iter().position(|i| !matches!(i.kind, InstKind::Phi { .. })).unwrap();
    assert!(insts[first_non_phi..].iter().all(|i| !matches!(i.kind, InstKind::Phi { .. })));
    for i in insts {
        if let (Some(g), InstKind::Machine { instr, .. }) = (guard_of(i), &i.kind) {
            assert!(t.m.instr(*instr).sem.dst.is_none() || g.undef_when_false, "guarded definition keeping its old value");
        }
    }
    assert!(matches!(f.block(header).term, Terminator::Branch { taken, .. } if taken == header));
}

// ------------------------------------------------------------ tests

/// `y[i] = x[i] < 0 ? -x[i] : x[i]` as a diamond with a phi.
fn diamond(t: &mut T) -> (Skel, Reg) {
    let s = t.skel();
    let (then, els, latch) = (t.f.new_block("then"), t.f.new_block("else"), t.f.new_block("latch"));
    let a = t.elem(s.header, s.x, s.i);
    let v = t.load(s.header, a);
    let p = t.val(s.header, SemOp::Lt, t.p, &[Operand::Reg(v), Operand::Reg(s.zero)]);
    t.br(s.header, p, then, els);
    let z = t.zero_reg();
    let neg = t.val(then, SemOp::Sub, t.r, &[Operand::Reg(z), Operand::Reg(v)]);
    t.term(then, Terminator::Jump(latch));
    let same = t.val(els, SemOp::Add, t.r, &[Operand::Reg(v), Operand::Imm(0)]);
    t.term(els, Terminator::Jump(latch));
    let res = t.v(t.r);
    t.phi(latch, res, vec![(then, neg), (els, same)]);
    let ya = t.elem(latch, s.y, s.i);
    t.store(latch, ya, res);
    t.close(&s, latch);
    (s, p)
}

#[test]
fn diamond_phi_becomes_a_select_on_the_branch_condition() {
    for machine in isa_tablegen::builtin::names() {
        let mut t = T::new(machine);
        let (s, p) = diamond(&mut t);
        let before = t.f.clone();
        let res = if_convert_loops(&t.m, &mut t.f);
        assert_eq!(res, vec![(s.header, Ok(4))], "{machine}");
        assert_eq!(t.f.blocks.len(), 3, "then, else and latch removed");
        let exit = Block(2);
        check_merged(&t, &t.f, s.header);
        let sel = sems(&t.m, &t.f, s.header, SemOp::Select);
        assert_eq!(sel.len(), 1);
        let InstKind::Machine { instr, ops, guard: None } = &sel[0].kind else { panic!() };
        let sem = &t.m.instr(*instr).sem;
        assert_eq!(ops[sem.args[0].0], Operand::Reg(p), "selects on the branch condition");
        assert!(matches!(t.f.block(s.header).term, Terminator::Branch { not_taken, .. } if not_taken == exit));
        assert!(machine_insts(&t.m, &t.f, s.header).all(|(_, i)| guard_of(i).is_none()));
        // Same meaning (the exit block kept its number relative to the removed ones).
        let mut s2 = s;
        s2.exit = exit;
        same_meaning(&t, &s2, &before, &t.f);
    }
}

/// `if (x[i] > 0) y[i] = x[i] + 1`, the branch skipping on true or on false.
#[test]
fn conditional_store_gets_the_condition_as_guard() {
    for skip_on_true in [false, true] {
        let mut t = T::new("ftm");
        let s = t.skel();
        let (then, latch) = (t.f.new_block("then"), t.f.new_block("latch"));
        let a = t.elem(s.header, s.x, s.i);
        let v = t.load(s.header, a);
        let p = t.val(s.header, SemOp::Gt, t.p, &[Operand::Reg(v), Operand::Imm(0)]);
        if skip_on_true {
            t.br(s.header, p, latch, then);
        } else {
            t.br(s.header, p, then, latch);
        }
        let w = t.val(then, SemOp::Add, t.r, &[Operand::Reg(v), Operand::Imm(1)]);
        let ya = t.elem(then, s.y, s.i);
        t.store(then, ya, w);
        t.term(then, Terminator::Jump(latch));
        t.close(&s, latch);
        let before = t.f.clone();
        assert_eq!(if_convert_loops(&t.m, &mut t.f), vec![(s.header, Ok(3))]);
        check_merged(&t, &t.f, s.header);
        let st = sems(&t.m, &t.f, s.header, SemOp::Store);
        assert_eq!(st.len(), 1);
        assert_eq!(guard_of(st[0]), Some(Guard::new(p, skip_on_true)));
        // No predicate instructions were needed.
        assert!(sems(&t.m, &t.f, s.header, SemOp::And).is_empty());
        let s2 = Skel { exit: Block(2), ..s };
        same_meaning(&t, &s2, &before, &t.f);
    }
}

/// Different stores in the two branches: guards p and !p, in block order.
#[test]
fn two_branches_store_under_opposite_guards() {
    let mut t = T::new("ftm");
    let s = t.skel();
    let (then, els, latch) = (t.f.new_block("then"), t.f.new_block("else"), t.f.new_block("latch"));
    let xa = t.elem(s.header, s.x, s.i);
    let v = t.load(s.header, xa);
    let odd = t.val(s.header, SemOp::And, t.r, &[Operand::Reg(v), Operand::Imm(1)]);
    let p = t.val(s.header, SemOp::Ne, t.p, &[Operand::Reg(odd), Operand::Imm(0)]);
    t.br(s.header, p, then, els);
    let ya = t.elem(then, s.y, s.i);
    t.store(then, ya, v);
    t.term(then, Terminator::Jump(latch));
    let w = t.val(els, SemOp::Mul, t.r, &[Operand::Reg(v), Operand::Imm(3)]);
    t.store(els, xa, w);
    t.term(els, Terminator::Jump(latch));
    t.close(&s, latch);
    let before = t.f.clone();
    assert_eq!(if_convert_loops(&t.m, &mut t.f), vec![(s.header, Ok(4))]);
    check_merged(&t, &t.f, s.header);
    let guards: Vec<_> = sems(&t.m, &t.f, s.header, SemOp::Store).into_iter().map(guard_of).collect();
    assert_eq!(guards, vec![Some(Guard::new(p, false)), Some(Guard::new(p, true))]);
    same_meaning(&t, &Skel { exit: Block(2), ..s }, &before, &t.f);
}

/// `if (p1) { if (p2) B else C; D }`: B = p1 & p2, C = p1 & !p2, D = p1
/// (D post-dominates A, so it keeps A's predicate: no OR).
#[test]
fn nested_ifs_and_predicates_and_reuse_control_equivalent_ones() {
    let mut t = T::new("ftm");
    let s = t.skel();
    let [a, b, c, d, latch] = ["a", "b", "c", "d", "latch"].map(|n| t.f.new_block(n));
    let xa = t.elem(s.header, s.x, s.i);
    let v = t.load(s.header, xa);
    let p1 = t.val(s.header, SemOp::Gt, t.p, &[Operand::Reg(v), Operand::Imm(-5)]);
    t.br(s.header, p1, a, latch);
    let p2 = t.val(a, SemOp::Lt, t.p, &[Operand::Reg(v), Operand::Imm(6)]);
    let ya = t.elem(a, s.y, s.i);
    t.br(a, p2, b, c);
    t.store(b, ya, s.i);
    t.term(b, Terminator::Jump(d));
    t.store(c, ya, v);
    t.term(c, Terminator::Jump(d));
    let w = t.val(d, SemOp::Add, t.r, &[Operand::Reg(v), Operand::Imm(100)]);
    t.store(d, xa, w);
    t.term(d, Terminator::Jump(latch));
    t.close(&s, latch);
    let before = t.f.clone();
    assert_eq!(if_convert_loops(&t.m, &mut t.f), vec![(s.header, Ok(6))]);
    check_merged(&t, &t.f, s.header);
    let st = sems(&t.m, &t.f, s.header, SemOp::Store);
    assert_eq!(st.len(), 3);
    assert_eq!(guard_of(st[2]), Some(Guard::new(p1, false)), "D keeps A's predicate");
    let (gb, gc) = (guard_of(st[0]).unwrap(), guard_of(st[1]).unwrap());
    assert_ne!(gb.reg, p1);
    assert_ne!(gc.reg, gb.reg);
    // p1 & p2 is one 'and', p1 & !p2 one 'not' and one 'and'; no 'or'.
    assert_eq!(sems(&t.m, &t.f, s.header, SemOp::And).iter().filter(|i| is_pred(&t, i)).count(), 2);
    assert!(sems(&t.m, &t.f, s.header, SemOp::Or).is_empty());
    same_meaning(&t, &Skel { exit: Block(2), ..s }, &before, &t.f);
}

fn is_pred(t: &T, i: &Inst) -> bool {
    let InstKind::Machine { instr, ops, .. } = &i.kind else { return false };
    let Some(d) = t.m.instr(*instr).sem.dst else { return false };
    matches!(ops[d.0], Operand::Reg(r) if t.f.reg_file(r) == t.p)
}

/// A join reached from both sides of two different branches:
/// D = (p1 & !p2) | !p1, an OR of edge predicates.
#[test]
fn join_of_unrelated_edges_is_an_or() {
    let mut t = T::new("ftm");
    let s = t.skel();
    let [a, b, c, d, latch] = ["a", "b", "c", "d", "latch"].map(|n| t.f.new_block(n));
    let xa = t.elem(s.header, s.x, s.i);
    let ya = t.elem(s.header, s.y, s.i);
    let v = t.load(s.header, xa);
    let p1 = t.val(s.header, SemOp::Gt, t.p, &[Operand::Reg(v), Operand::Imm(0)]);
    t.br(s.header, p1, a, b);
    let odd = t.val(a, SemOp::And, t.r, &[Operand::Reg(v), Operand::Imm(1)]);
    let p2 = t.val(a, SemOp::Ne, t.p, &[Operand::Reg(odd), Operand::Imm(0)]);
    t.br(a, p2, c, d);
    let w = t.val(b, SemOp::Sub, t.r, &[Operand::Reg(s.zero), Operand::Reg(v)]);
    t.store(b, xa, w);
    t.term(b, Terminator::Jump(d));
    t.store(c, ya, v);
    t.term(c, Terminator::Jump(latch));
    let k = t.v(t.r);
    t.phi(d, k, vec![(a, odd), (b, w)]);
    t.store(d, ya, k);
    t.term(d, Terminator::Jump(latch));
    t.close(&s, latch);
    let before = t.f.clone();
    assert_eq!(if_convert_loops(&t.m, &mut t.f), vec![(s.header, Ok(6))]);
    check_merged(&t, &t.f, s.header);
    let preds_or = t.f.block(s.header).insts.iter().filter(|i| is_pred(&t, i)).count();
    assert!(preds_or >= 2, "D's predicate is computed");
    assert_eq!(sems(&t.m, &t.f, s.header, SemOp::Select).len(), 1);
    same_meaning(&t, &Skel { exit: Block(2), ..s }, &before, &t.f);
}

/// Conditional accumulation `if (x[i] < 0) { s += x[i]; neg = true; }`:
/// the header phis stay, the join's phis become selects (a predicate one
/// by and/or), and the result is stored after the loop.
#[test]
fn conditional_accumulate_and_predicate_phis_become_selects() {
    let mut t = T::new("ftm");
    let s = t.skel();
    let (then, latch) = (t.f.new_block("then"), t.f.new_block("latch"));
    let (acc, acc2, flag, flag2) = (t.v(t.r), t.v(t.r), t.v(t.p), t.v(t.p));
    let ptrue = Reg::Phys(PReg { file: t.p, index: 0 });
    assert_eq!(t.m.special(PReg { file: t.p, index: 0 }), Some(SpecialKind::True));
    let f0 = t.val(s.entry, SemOp::Ne, t.p, &[Operand::Reg(s.zero), Operand::Imm(0)]);
    t.phi(s.header, acc, vec![(s.entry, s.zero), (latch, acc2)]);
    t.phi(s.header, flag, vec![(s.entry, f0), (latch, flag2)]);
    let xa = t.elem(s.header, s.x, s.i);
    let v = t.load(s.header, xa);
    let p = t.val(s.header, SemOp::Lt, t.p, &[Operand::Reg(v), Operand::Imm(0)]);
    t.br(s.header, p, then, latch);
    let sum = t.val(then, SemOp::Add, t.r, &[Operand::Reg(acc), Operand::Reg(v)]);
    t.term(then, Terminator::Jump(latch));
    t.phi(latch, acc2, vec![(s.header, acc), (then, sum)]);
    t.phi(latch, flag2, vec![(s.header, flag), (then, ptrue)]);
    t.close(&s, latch);
    // After the loop: y[0] = acc2, y[1] = flag2.
    let fr = t.v(t.r);
    let mv = t.m.find_instr(&Want { op: SemOp::Select, ty: Some(Ty::I32), ty2: None, dst: Some(t.r), args: &[ArgPat::Reg(t.p), ArgPat::Reg(t.r), ArgPat::Reg(t.r)] }).unwrap();
    let one = t.val(s.exit, SemOp::Mov, t.r, &[Operand::Imm(1)]);
    t.f.block_mut(s.exit).insts.push(dsp_mir::builder::sem_inst(&t.m, mv, Some(Operand::Reg(fr)), &[Operand::Reg(flag2), Operand::Reg(one), Operand::Reg(s.zero)], None));
    t.store(s.exit, s.y, acc2);
    let y1 = t.val(s.exit, SemOp::Add, t.r, &[Operand::Reg(s.y), Operand::Imm(4)]);
    t.store(s.exit, y1, fr);
    let before = t.f.clone();
    assert_eq!(if_convert_loops(&t.m, &mut t.f), vec![(s.header, Ok(3))]);
    check_merged(&t, &t.f, s.header);
    let phis = t.f.block(s.header).insts.iter().filter(|i| matches!(i.kind, InstKind::Phi { .. })).count();
    assert_eq!(phis, 4, "only the header's phis");
    let Reg::Virt(a2) = acc2 else { panic!() };
    assert!(sems(&t.m, &t.f, s.header, SemOp::Select).iter().any(|i| crate::candidate::def_of(&t.m, &i.kind) == Some(a2)));
    same_meaning(&t, &Skel { exit: Block(2), ..s }, &before, &t.f);
}

/// A body with one conditional instruction `what` in `then` (which
/// otherwise stores x[i] + 1 to y[i]).
fn with_conditional(t: &mut T, what: &dyn Fn(&mut T, &Skel, Block, Block, Reg)) -> Skel {
    let s = t.skel();
    let (then, latch) = (t.f.new_block("then"), t.f.new_block("latch"));
    let xa = t.elem(s.header, s.x, s.i);
    let v = t.load(s.header, xa);
    let p = t.val(s.header, SemOp::Gt, t.p, &[Operand::Reg(v), Operand::Imm(0)]);
    t.br(s.header, p, then, latch);
    t.term(then, Terminator::Jump(latch));
    what(t, &s, then, latch, v);
    t.close(&s, latch);
    s
}

fn rejected(t: &mut T, s: &Skel, why: &str) {
    let before = t.f.clone();
    let res = if_convert_loops(&t.m, &mut t.f);
    assert_eq!(res.len(), 1);
    let err = res[0].1.clone().unwrap_err();
    assert!(err.contains(why), "{err:?} should say {why:?}");
    assert_eq!(res[0].0, s.header);
    assert_eq!(t.f, before, "a rejected loop is left unchanged");
}

#[test]
fn conditional_loads_divisions_calls_and_early_exits_are_rejected_with_reasons() {

    let mut t = T::new("ftm");
    let s = with_conditional(&mut t, &|t, s, then, _, v| {
        let q = t.val(then, SemOp::Div, t.r, &[Operand::Reg(s.i), Operand::Reg(v)]);
        let ya = t.elem(then, s.y, s.i);
        t.store(then, ya, q);
    });
    rejected(&mut t, &s, "integer division");

    let mut t = T::new("ftm");
    let s = with_conditional(&mut t, &|t, _, then, _, _| {
        t.f.block_mut(then).insts.push(Inst::new(InstKind::Call { callee: Callee::Sym("g".into()), args: vec![], rets: vec![] }));
    });
    rejected(&mut t, &s, "call");

    let mut t = T::new("ftm");
    let s = with_conditional(&mut t, &|t, s, then, latch, v| {
        let q = t.val(then, SemOp::Eq, t.p, &[Operand::Reg(v), Operand::Imm(7)]);
        t.br(then, q, s.exit, latch);
    });
    rejected(&mut t, &s, "early exit");

    // A second back edge.
    let mut t = T::new("ftm");
    let s = with_conditional(&mut t, &|t, s, then, latch, v| {
        let q = t.val(then, SemOp::Eq, t.p, &[Operand::Reg(v), Operand::Imm(7)]);
        t.br(then, q, s.header, latch);
    });
    rejected(&mut t, &s, "back edges");

    // A register defined in two blocks (not SSA) would be clobbered.
    let mut t = T::new("ftm");
    let s = with_conditional(&mut t, &|t, s, then, latch, v| {
        let q = t.val(then, SemOp::Add, t.r, &[Operand::Reg(v), Operand::Imm(1)]);
        t.op(latch, SemOp::Add, Some(q), &[Operand::Reg(v), Operand::Imm(2)]);
        let ya = t.elem(latch, s.y, s.i);
        t.store(latch, ya, q);
    });
    rejected(&mut t, &s, "defined in two blocks");
}

#[test]
fn vector_phi_without_a_predicate_select_is_rejected() {
    let mut t = T::new("ftm");
    let vf = t.m.vector_file(16, 32).unwrap();
    assert!(select_instr(&t.m, vf, t.p).is_none(), "premise: ftm selects vectors on masks only");
    let s = t.skel();
    let (then, latch) = (t.f.new_block("then"), t.f.new_block("latch"));
    let xa = t.elem(s.header, s.x, s.i);
    let v = t.load(s.header, xa);
    let p = t.val(s.header, SemOp::Gt, t.p, &[Operand::Reg(v), Operand::Imm(0)]);
    let bv = t.val(s.header, SemOp::Broadcast, vf, &[Operand::Reg(v)]);
    t.br(s.header, p, then, latch);
    let dv = t.val(then, SemOp::Add, vf, &[Operand::Reg(bv), Operand::Reg(bv)]);
    t.term(then, Terminator::Jump(latch));
    let jv = t.v(vf);
    t.phi(latch, jv, vec![(s.header, bv), (then, dv)]);
    let e = t.val(latch, SemOp::ReduceAdd, t.r, &[Operand::Reg(jv)]);
    let ya = t.elem(latch, s.y, s.i);
    t.store(latch, ya, e);
    t.close(&s, latch);
    rejected(&mut t, &s, "no select on a predicate for register file 'v'");
}

/// A load in a conditional block may run speculatively when the same
/// address is read in every iteration.
#[test]
fn conditional_load_of_an_address_read_unconditionally_is_speculated() {
    let mut t2 = T::new("ftm");
    let s2 = t2.skel();
    let (then, latch) = (t2.f.new_block("then"), t2.f.new_block("latch"));
    let xa = t2.elem(s2.header, s2.x, s2.i);
    let v = t2.load(s2.header, xa);
    let p = t2.val(s2.header, SemOp::Gt, t2.p, &[Operand::Reg(v), Operand::Imm(0)]);
    t2.br(s2.header, p, then, latch);
    let w = t2.load(then, xa);
    let ya = t2.elem(then, s2.y, s2.i);
    t2.store(then, ya, w);
    t2.term(then, Terminator::Jump(latch));
    t2.close(&s2, latch);
    let before = t2.f.clone();
    assert_eq!(if_convert_loops(&t2.m, &mut t2.f), vec![(s2.header, Ok(3))]);
    check_merged(&t2, &t2.f, s2.header);
    same_meaning(&t2, &Skel { exit: Block(2), ..s2 }, &before, &t2.f);
}

/// A machine without guards has no predicate file: nothing is converted,
/// and the reason says so.
#[test]
fn a_machine_without_guards_converts_nothing() {
    let mut t = T::guardless();
    let s = with_conditional(&mut t, &|t, s, then, _, _| {
        let ya = t.elem(then, s.y, s.i);
        t.load(then, ya);
    });
    rejected(&mut t, &s, "the machine has no predicate registers");
}

/// On a machine with guards, a conditional load that may fault is guarded
/// by its block's predicate, its result undefined where the guard is
/// false: no scratch slot, no selected address, and the pipeliner takes it.
#[test]
fn conditional_load_is_guarded_with_an_undefined_result() {
    let mut t = T::new("ftm");
    let s = with_conditional(&mut t, &|t, s, then, latch, v| {
        let ya = t.elem(then, s.y, s.i);
        let below = t.val(then, SemOp::Add, t.r, &[Operand::Reg(ya), Operand::Imm(-4)]);
        let w = t.val(then, SemOp::Load, t.r, &[Operand::Reg(below), Operand::Imm(4)]);
        let w1 = t.val(then, SemOp::Add, t.r, &[Operand::Reg(w), Operand::Imm(1)]);
        t.store(then, ya, w1);
        let j = t.v(t.r);
        t.phi(latch, j, vec![(s.header, v), (then, w)]);
        let xa = t.elem(latch, s.x, s.i);
        t.store(latch, xa, j);
    });
    let before = t.f.clone();
    assert_eq!(if_convert_loops(&t.m, &mut t.f), vec![(s.header, Ok(3))]);
    check_merged(&t, &t.f, s.header);
    assert!(t.f.frame.is_empty(), "no scratch slot");
    let loads = sems(&t.m, &t.f, s.header, SemOp::Load);
    assert_eq!(loads.len(), 2);
    let g = guard_of(&loads[1]).expect("the conditional load is guarded");
    assert!(g.undef_when_false);
    let InstKind::Machine { ops, .. } = &loads[1].kind else { panic!() };
    assert_eq!(ops[2], Operand::Imm(4), "the address is the load's own");
    let stores: Vec<_> = sems(&t.m, &t.f, s.header, SemOp::Store);
    assert_eq!(guard_of(&stores[0]).map(|s| (s.reg, s.negate)), Some((g.reg, g.negate)), "the same predicate as the store");
    same_meaning(&t, &Skel { exit: Block(2), ..s }, &before, &t.f);
    let res = crate::pipeline_function(&t.m, &mut t.f, &crate::PipelineOptions::default());
    res.loops[0].outcome.as_ref().unwrap_or_else(|e| panic!("{e}"));

    // Any addressing can be guarded: a strided vector load too.
    let mut t = T::new("ftm");
    let s = with_conditional(&mut t, &|t, s, then, _, _| {
        let vf = t.m.vector_file(16, 32).unwrap();
        let ya = t.elem(then, s.y, s.i);
        let w = t.val(then, SemOp::VLoadS, vf, &[Operand::Reg(ya), Operand::Reg(s.i)]);
        t.op(then, SemOp::VStoreS, None, &[Operand::Reg(ya), Operand::Reg(s.i), Operand::Reg(w)]);
    });
    assert_eq!(if_convert_loops(&t.m, &mut t.f), vec![(s.header, Ok(3))]);
    check_merged(&t, &t.f, s.header);
    let vl = sems(&t.m, &t.f, s.header, SemOp::VLoadS);
    assert!(guard_of(&vl[0]).is_some_and(|g| g.undef_when_false));
}

/// Two loops in one function: the first is converted and its blocks
/// removed, the second (rejected) is renumbered, and both reports name
/// their headers as numbered afterwards.
#[test]
fn blocks_are_renumbered_after_removal() {
    let mut t = T::new("ftm");
    let (s, _) = diamond(&mut t);
    // A second loop after the first one's exit.
    let s2 = with_conditional(&mut t, &|t, s, then, _, v| {
        let q = t.val(then, SemOp::Div, t.r, &[Operand::Reg(s.i), Operand::Reg(v)]);
        let ya = t.elem(then, s.y, s.i);
        t.store(then, ya, q);
    });
    t.term(s.exit, Terminator::Jump(s2.entry));
    let name2 = t.f.block(s2.header).name.clone();
    let res = if_convert_loops(&t.m, &mut t.f);
    assert_eq!(res.len(), 2);
    assert_eq!(res[0], (s.header, Ok(4)));
    let (h2, r2) = &res[1];
    assert!(r2.is_err());
    assert_eq!(t.f.block(*h2).name, name2);
    assert_eq!(h2.0, s2.header.0 - 3);
    verify(&t.m, &t.f, Stage::Selected).unwrap();
    assert!(matches!(t.f.block(Block(2)).term, Terminator::Jump(b) if b == Block(3)), "exit → second entry");
}

/// The pipeliner takes the converted loop as a candidate and pipelines it;
/// the multi-block loop it cannot convert says why.
#[test]
fn pipeliner_pipelines_the_converted_loop() {
    let mut t = T::new("ftm");
    let (s, _) = diamond(&mut t);
    let res = crate::pipeline_function(&t.m, &mut t.f, &crate::PipelineOptions::default());
    assert_eq!(res.loops.len(), 1);
    let p = res.loops[0].outcome.as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert!(p.ii >= 1);
    assert_eq!(res.pipelined[0].0, s.header);

    let mut t = T::new("ftm");
    let _ = with_conditional(&mut t, &|t, s, then, _, v| {
        let q = t.val(then, SemOp::Div, t.r, &[Operand::Reg(s.i), Operand::Reg(v)]);
        let ya = t.elem(then, s.y, s.i);
        t.store(then, ya, q);
    });
    let res = crate::pipeline_function(&t.m, &mut t.f, &crate::PipelineOptions::default());
    let why = res.loops[0].outcome.clone().unwrap_err();
    assert!(why.starts_with("loop body has 3 blocks (not if-converted: conditional integer division"), "{why}");
}
