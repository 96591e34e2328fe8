//! A small MIR interpreter for the tests: runs a function before allocation
//! (virtual registers, phis, symbolic frame objects) and after (physical
//! registers, real stack) on the same inputs, so the tests compare results.
//! Calls go to a simulated external callee that obeys the ABI and no more:
//! it returns a function of its arguments and trashes every caller-saved
//! register and the memory below `sp`. Memory accesses must be naturally
//! aligned (aligned vector accesses to the whole vector), as on the machine.

use std::collections::HashMap;

use dsp_mir::{Block, Callee, FrameKind, Function, InstKind, Operand, PReg, Reg, Terminator};
use isa_tablegen::{Machine, OperandKind, SemOp, Ty};

pub const MEM: usize = 1 << 20;
pub const SP0: u32 = 0x8_0000;
const LINK0: u64 = 0x1234;

pub struct Outcome {
    pub rets: Vec<Vec<u64>>,
    pub mem: Vec<u8>,
    pub steps: u64,
}

pub struct Interp<'m> {
    m: &'m Machine,
    regs: HashMap<Reg, Vec<u64>>,
    pub mem: Vec<u8>,
    /// Before allocation: addresses of frame objects.
    frame_addr: Vec<u32>,
    seed: u64,
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    }
}

impl<'m> Interp<'m> {
    pub fn new(m: &'m Machine) -> Interp<'m> {
        Interp { m, regs: HashMap::new(), mem: vec![0; MEM], frame_addr: Vec::new(), seed: 0x9e37_79b9_7f4a_7c15 }
    }

    fn garbage(&mut self) -> u64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.seed
    }

    fn lanes(&self, file: dsp_mir::RegFileId) -> (usize, u32) {
        let rf = self.m.regfile(file);
        if let Some(l) = rf.lanes {
            (l.count as usize, l.elem_bits)
        } else if let Some(v) = rf.mask_of {
            (self.m.regfile(v).lanes.map_or(1, |l| l.count) as usize, 1)
        } else {
            (1, rf.width)
        }
    }

    fn file_of(&self, f: &Function, r: Reg) -> dsp_mir::RegFileId {
        f.reg_file(r)
    }

    pub fn set(&mut self, f: &Function, r: Reg, val: Vec<u64>) {
        let (n, bits) = self.lanes(self.file_of(f, r));
        if let Reg::Phys(p) = r {
            if self.m.special(p).is_some() {
                return;
            }
        }
        let mut v: Vec<u64> = (0..n).map(|i| val.get(i).or(val.first()).copied().unwrap_or(0) & mask(bits)).collect();
        v.truncate(n);
        self.regs.insert(r, v);
    }

    pub fn get(&mut self, f: &Function, r: Reg) -> Vec<u64> {
        let file = self.file_of(f, r);
        let (n, bits) = self.lanes(file);
        if let Reg::Phys(p) = r {
            match self.m.special(p) {
                Some(isa_tablegen::SpecialKind::Zero) => return vec![0; n],
                Some(isa_tablegen::SpecialKind::True) => return vec![1; n],
                None => {}
            }
        }
        if let Some(v) = self.regs.get(&r) {
            return v.clone();
        }
        let g: Vec<u64> = (0..n).map(|_| self.garbage() & mask(bits)).collect();
        self.regs.insert(r, g.clone());
        g
    }

    fn read_mem(&self, addr: u64, bytes: u32, align: u32) -> Result<u64, String> {
        if !addr.is_multiple_of(align as u64) || addr as usize + bytes as usize > MEM {
            return Err(format!("bad load at {addr:#x} ({bytes} bytes, align {align})"));
        }
        let mut v = 0u64;
        for i in 0..bytes as usize {
            v |= (self.mem[addr as usize + i] as u64) << (8 * i);
        }
        Ok(v)
    }

    fn write_mem(&mut self, addr: u64, bytes: u32, align: u32, v: u64) -> Result<(), String> {
        if !addr.is_multiple_of(align as u64) || addr as usize + bytes as usize > MEM {
            return Err(format!("bad store at {addr:#x} ({bytes} bytes, align {align})"));
        }
        for i in 0..bytes as usize {
            self.mem[addr as usize + i] = (v >> (8 * i)) as u8;
        }
        Ok(())
    }

    fn operand(&mut self, f: &Function, o: &Operand) -> Vec<u64> {
        match o {
            Operand::Reg(r) => self.get(f, *r),
            Operand::Imm(v) => vec![*v as u64],
            Operand::Sym { offset, .. } => vec![0x1000 + *offset as u64],
            Operand::Frame { index, offset } => vec![(self.frame_addr[index.0 as usize] as i64 + offset) as u64],
        }
    }

    fn alu(op: SemOp, ty: Option<Ty>, ty2: Option<Ty>, a: &[u64]) -> Result<u64, String> {
        let bits = ty.map_or(32, |t| t.bits());
        let signed = ty.is_some_and(|t| t.is_signed());
        let (x, y) = (a.first().copied().unwrap_or(0) & mask(bits), a.get(1).copied().unwrap_or(0) & mask(bits));
        let cmp = |x: u64, y: u64| if signed { sext(x, bits).cmp(&sext(y, bits)) } else { x.cmp(&y) };
        use std::cmp::Ordering::*;
        Ok(match op {
            SemOp::Mov => x,
            SemOp::Add => x.wrapping_add(y) & mask(bits),
            SemOp::Sub => x.wrapping_sub(y) & mask(bits),
            SemOp::Mul => x.wrapping_mul(y) & mask(bits),
            SemOp::And => x & y,
            SemOp::Or => x | y,
            SemOp::Xor => x ^ y,
            SemOp::Not => !x & mask(bits),
            SemOp::Shl => (x << (y % bits as u64)) & mask(bits),
            SemOp::Shr if signed => (sext(x, bits) >> (y % bits as u64)) as u64 & mask(bits),
            SemOp::Shr => x >> (y % bits as u64),
            SemOp::Min => if cmp(x, y) == Greater { y } else { x },
            SemOp::Max => if cmp(x, y) == Less { y } else { x },
            SemOp::Eq => (x == y) as u64,
            SemOp::Ne => (x != y) as u64,
            SemOp::Lt => (cmp(x, y) == Less) as u64,
            SemOp::Le => (cmp(x, y) != Greater) as u64,
            SemOp::Gt => (cmp(x, y) == Greater) as u64,
            SemOp::Ge => (cmp(x, y) != Less) as u64,
            SemOp::Select => {
                if a[0] & 1 != 0 {
                    a[1]
                } else {
                    a[2]
                }
            }
            SemOp::Mac => x.wrapping_mul(y).wrapping_add(a[2]) & mask(bits),
            SemOp::Cvt => {
                let to = ty2.map_or(32, |t| t.bits());
                let v = if signed { sext(x, bits) as u64 } else { x };
                v & mask(to)
            }
            _ => return Err(format!("interpreter: no {op:?}")),
        })
    }

    /// Runs one machine instruction.
    fn machine(&mut self, f: &Function, instr: isa_tablegen::InstrId, ops: &[Operand]) -> Result<(), String> {
        let ins = self.m.instr(instr).clone();
        let sem = &ins.sem;
        let mut args: Vec<Vec<u64>> = sem.args.iter().map(|a| self.operand(f, &ops[a.0])).collect();
        // Before frame layout a frame operand is an absolute address: its base reads 0.
        if let Some(a) = sem.args.iter().position(|a| matches!(ops[a.0], Operand::Frame { .. })) {
            let base = if a >= 1 { a - 1 } else { 1 };
            if let Some(x) = args.get_mut(base) {
                *x = vec![0];
            }
        }
        let dst = sem.dst.and_then(|d| match &ops[d.0] {
            Operand::Reg(r) => Some(*r),
            _ => None,
        });
        let ty = sem.ty;
        match sem.op {
            SemOp::Load | SemOp::VLoad | SemOp::VLoadU => {
                let d = dst.ok_or("load without destination")?;
                let (n, _) = self.lanes(f.reg_file(d));
                let eb = ty.map_or(4, |t| t.bits() / 8);
                let addr = args[0][0].wrapping_add(args[1][0]) & 0xffff_ffff;
                let align = if sem.op == SemOp::VLoad { eb * n as u32 } else { eb };
                let mut v = Vec::new();
                for i in 0..n {
                    let x = self.read_mem(addr + (i as u64) * eb as u64, eb, align.min(if i == 0 { align } else { eb }))?;
                    let signed = ty.is_some_and(|t| t.is_signed());
                    v.push(if signed { sext(x, eb * 8) as u64 } else { x });
                }
                self.set(f, d, v);
            }
            SemOp::Store | SemOp::VStore | SemOp::VStoreU => {
                let eb = ty.map_or(4, |t| t.bits() / 8);
                let addr = args[0][0].wrapping_add(args[1][0]) & 0xffff_ffff;
                let n = args[2].len();
                let align = if sem.op == SemOp::VStore { eb * n as u32 } else { eb };
                for (i, &x) in args[2].iter().enumerate() {
                    self.write_mem(addr + (i as u64) * eb as u64, eb, if i == 0 { align } else { eb }, x)?;
                }
            }
            SemOp::Nop => {}
            op => {
                let d = dst.ok_or("no destination")?;
                let dfile = f.reg_file(d);
                let (n, _) = self.lanes(dfile);
                let srcs_lanes: Vec<usize> = args.iter().map(|a| a.len()).collect();
                let int = self.m.scalar_file(Ty::I32);
                // Mask <-> integer moves pack or unpack lane bits.
                let dmask = self.m.regfile(dfile).mask_of.is_some();
                let arg_is_mask = sem.args.first().is_some_and(|a| {
                    matches!(ins.operands[a.0].kind, OperandKind::Reg(fl) if self.m.regfile(fl).mask_of.is_some())
                });
                let v: Vec<u64> = if op == SemOp::Mov && arg_is_mask && Some(dfile) == int {
                    vec![args[0].iter().enumerate().fold(0u64, |acc, (i, b)| acc | ((b & 1) << i))]
                } else if op == SemOp::Mov && dmask && srcs_lanes == [1] {
                    (0..n).map(|i| (args[0][0] >> i) & 1).collect()
                } else {
                    (0..n)
                        .map(|i| {
                            let lane: Vec<u64> = args.iter().map(|a| if a.len() == 1 { a[0] } else { a[i] }).collect();
                            Self::alu(op, ty, sem.ty2, &lane)
                        })
                        .collect::<Result<Vec<u64>, String>>()?
                };
                self.set(f, d, v);
            }
        }
        Ok(())
    }

    /// Runs `f` with integer arguments in the argument registers of the
    /// integer file (before allocation the entry copies read them too).
    pub fn run(&mut self, f: &Function, args: &[u64], stack_args: &[u32], allocated: bool) -> Result<Outcome, String> {
        let m = self.m;
        // Frame objects before allocation: separate areas; incoming args above SP0.
        let mut next = 0x2_0000u32;
        self.frame_addr = f
            .frame
            .iter()
            .map(|o| match o.kind {
                FrameKind::IncomingArg { offset } => SP0 + offset,
                _ => {
                    let a = o.align.max(1);
                    next = next.div_ceil(a) * a;
                    let r = next;
                    next += o.size.max(1);
                    r
                }
            })
            .collect();
        for i in 0..0x4000usize {
            self.mem[0x1_0000 + i] = (i.wrapping_mul(7) ^ (i >> 3)) as u8;
        }
        let outgoing = f
            .frame
            .iter()
            .position(|o| o.kind == FrameKind::OutgoingArgs)
            .map(|i| (self.frame_addr[i] as u64, f.frame[i].size as u64));
        for (i, w) in stack_args.iter().enumerate() {
            self.write_mem(SP0 as u64 + 4 * i as u64, 4, 4, *w as u64)?;
        }
        let sp = m.abi.sp.ok_or("no sp")?;
        self.set(f, Reg::Phys(sp), vec![SP0 as u64]);
        if let Some(l) = m.control.link {
            self.set(f, Reg::Phys(l), vec![LINK0]);
        }
        let int = m.scalar_file(Ty::I32).ok_or("no int file")?;
        let int_args: Vec<PReg> = m.abi.args.iter().copied().filter(|r| r.file == int).collect();
        for (r, a) in int_args.iter().zip(args) {
            self.set(f, Reg::Phys(*r), vec![*a]);
        }
        let saved: Vec<(PReg, Vec<u64>)> = m.abi.callee_saved.iter().map(|&r| (r, self.get(f, Reg::Phys(r)))).collect();
        let clobbers = dsp_mir::call_clobbers(m);
        let mut b = Block(0);
        let mut prev: Option<Block> = None;
        let mut steps = 0u64;
        loop {
            let data = &f.blocks[b.0 as usize];
            // Phis read all their inputs first.
            let mut phi_vals = Vec::new();
            for inst in &data.insts {
                if let InstKind::Phi { dst, incoming } = &inst.kind {
                    let p = prev.ok_or("phi in the entry block")?;
                    let src = incoming.iter().find(|(x, _)| *x == p).map(|(_, r)| *r).ok_or("phi lacks an incoming value")?;
                    phi_vals.push((Reg::Virt(*dst), self.get(f, src)));
                }
            }
            for (d, v) in phi_vals {
                self.set(f, d, v);
            }
            for inst in &data.insts {
                steps += 1;
                if steps > 2_000_000 {
                    return Err("step limit".into());
                }
                match &inst.kind {
                    InstKind::Phi { .. } => {}
                    InstKind::Copy { dst, src } => {
                        let v = self.get(f, *src);
                        self.set(f, *dst, v);
                    }
                    InstKind::Machine { instr, guard, ops } => {
                        if let Some(g) = guard {
                            let gv = self.get(f, g.reg)[0] & 1 != 0;
                            if gv == g.negate {
                                continue;
                            }
                        }
                        self.machine(f, *instr, ops)?;
                    }
                    InstKind::Call { callee, args, rets } => {
                        let spv = self.get(f, Reg::Phys(sp))[0];
                        if allocated && !spv.is_multiple_of(m.abi.stack_align.max(1) as u64) {
                            return Err(format!("sp {spv:#x} misaligned at a call"));
                        }
                        let mut h: u64 = match callee {
                            Callee::Sym(s) => s.bytes().fold(7, |a, c| a.wrapping_mul(31).wrapping_add(c as u64)),
                            Callee::Reg(r) => self.get(f, *r)[0],
                        };
                        for a in args {
                            h = h.wrapping_mul(1_000_003).wrapping_add(self.get(f, Reg::Phys(*a))[0]);
                        }
                        // The outgoing stack area is read by the callee too.
                        let (area, size) = match outgoing {
                            Some((a, n)) => (if allocated { spv } else { a }, n),
                            None => (spv, 0),
                        };
                        for i in 0..size / 4 {
                            h = h.wrapping_mul(31).wrapping_add(self.read_mem(area + 4 * i, 4, 4).unwrap_or(0));
                        }
                        for c in &clobbers {
                            let g = self.garbage();
                            self.set(f, Reg::Phys(*c), vec![g]);
                        }
                        for i in 1..=256u64 {
                            let g = self.garbage() as u8;
                            if let Some(x) = self.mem.get_mut((spv - i) as usize) {
                                *x = g;
                            }
                        }
                        for (k, r) in rets.iter().enumerate() {
                            self.set(f, Reg::Phys(*r), vec![h.wrapping_add(k as u64)]);
                        }
                    }
                }
            }
            prev = Some(b);
            match &data.term {
                Terminator::Jump(t) => b = *t,
                Terminator::Branch { cond, negate, taken, not_taken } => {
                    let c = self.get(f, *cond)[0] & 1 != 0;
                    b = if c != *negate { *taken } else { *not_taken };
                }
                Terminator::IndirectJump { target, targets } => {
                    let t = self.get(f, *target)[0] as u32;
                    if !targets.contains(&Block(t)) {
                        return Err("indirect jump to a block not in its list".into());
                    }
                    b = Block(t);
                }
                Terminator::Return { rets } => {
                    let r: Vec<Vec<u64>> = rets.iter().map(|&p| self.get(f, Reg::Phys(p))).collect();
                    if allocated {
                        if self.get(f, Reg::Phys(sp))[0] != SP0 as u64 {
                            return Err("sp not restored".into());
                        }
                        for (p, v) in &saved {
                            if self.get(f, Reg::Phys(*p)) != *v {
                                return Err(format!("callee-saved {} not restored", m.reg_name(*p)));
                            }
                        }
                        if let Some(l) = m.control.link {
                            if self.get(f, Reg::Phys(l))[0] != LINK0 {
                                return Err("link register not restored".into());
                            }
                        }
                    }
                    let mem = std::mem::take(&mut self.mem);
                    return Ok(Outcome { rets: r, mem, steps });
                }
                Terminator::Unreachable => return Err("reached unreachable".into()),
            }
        }
    }
}
