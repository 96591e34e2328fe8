//! Code generation for a modulo-scheduled loop (seed 003 "A software
//! pipeline"; seed 000 §2 and §6.3 on kernel copies): prologue, kernel and
//! epilogue as blocks with fixed schedules, with modulo variable expansion
//! instead of rotating registers, plus the ordinary blocks around them.
//!
//! Iteration `i`'s operation `n` issues at `i·II + t(n)`; `S` stages. The
//! prologue holds cycles `[0, (S−1)·II)`, less the first stage's rows
//! before its first operation (empty: the prologue starts there); one kernel pass holds `K` copies
//! of the II rows, copy `j` of pass `k` running stage `s` of iteration
//! `k·K + j + S−1 − s`; the epilogue finishes the last `S−1` iterations and
//! waits for every result (it is the only block that drains). The kernel
//! runs `M = (N − (S−1)) div K` passes, so the pipeline executes
//! `N' = S−1 + M·K` iterations; the `N − N'` left (fewer than K) run in the
//! original loop, which stays as it was and also takes trip counts below the
//! pipeline's minimum and loops whose address ranges overlap at run time.
//!
//! Modulo variable expansion: the value of operation `u` in iteration `i`
//! lives in register `R[u][i mod K_u]`, `K_u` ≥ `lifetime(u) / II` (and at
//! least the largest phi distance it is read at), so no value is
//! overwritten before its last read — `dsp-sim --strict` faults a read of
//! a register whose write is pending, so the next write must not issue
//! before that read. It may issue in the read's bundle (operands are read
//! at issue): where `K_u·II` is exactly the lifetime, the last readers go
//! before `u` in their bundle's list order (`Plan::rank`), which keeps the
//! fixed blocks' list order meaning what the machine does, for liveness
//! and allocation; a value whose readers cannot all go first (a cycle of
//! such constraints) keeps one more register instead. `K` is a power of
//! two, or 3 where the machine divides by 3 with a multiply
//! ([`crate::emit::Emit::div_rem`]); every `K_u` is the least divisor of
//! `K` ≥ what `u` needs, so names repeat exactly from one kernel pass to
//! the next (the trip counts that leave the fewest iterations over are
//! not known at compile time; 3 copies instead of 4 leave fewer on
//! average and lower the pipeline's minimum trip count by one); values
//! of iterations before the first (phi initial values) are copied into the
//! registers of iterations −1, −2, … before the prologue; zero vectors
//! among them (a reduction's accumulators) are made by whichever of a
//! vector move, a broadcast of the zero register and zero times zero lands
//! first ([`ZeroInit`]), not queued on the one unit that moves
//! vectors.
//!
//! Blocks: `guard` (trip count ≥ minimum) → `check` (run-time overlap of
//! the address ranges, when needed: [`crate::check`]) → `setup` (pass count, remainder,
//! initial values) → prologue → kernel ⟲ → epilogue → `exit test`
//! (remainder zero?) → the original loop through `remainder`, or straight
//! to `join`, whose phis merge the loop's live-out values.

use std::collections::HashMap;

use dsp_mir::{Block, FixedBlock, Function, Inst, InstKind, Machine, Operand, Reg, RegFileId, Terminator, VReg};
use dsp_modsched::Schedule;
use isa_tablegen::{SemOp, Ty};

use crate::candidate::{def_of, Candidate};
use crate::ddg::{as_machine, ControlInstrs, LoopDdg, NodeKind, Source};
use crate::emit::Emit;
use crate::rebase::Rebase;

/// Facts of the generated pipeline, for the reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expansion {
    pub stages: u32,
    pub kernel_copies: u32,
    pub min_trip: u32,
    /// Virtual registers the expansion created, per file.
    pub registers: Vec<(RegFileId, u32)>,
    pub alias_checks: usize,
    /// The new blocks with fixed schedules (prologue, kernel, epilogue).
    pub fixed_blocks: Vec<Block>,
    /// The guard block (the loop's reports go before it in `-S`).
    pub guard: Block,
}

/// Per-node register plan.
pub struct Plan {
    pub ii: u32,
    pub stages: u32,
    pub k: u32,
    /// Times with the body's first stage at 0.
    pub time: Vec<u32>,
    /// Copies (registers) per node with a result.
    pub copies: Vec<u32>,
    pub lifetime: Vec<u32>,
    /// Cycles each value holds its register: its lifetime (at least 1),
    /// one more where its next write may not share its last read's bundle.
    pub busy: Vec<u32>,
    /// Position of each node in the list order of a bundle.
    pub rank: Vec<u32>,
}

fn next_pow2(x: u32) -> u32 {
    x.max(1).next_power_of_two()
}

/// Lifetimes, register copies, stages and kernel copies of a schedule,
/// with the accesses of `rebased` reading their addresses `delta`
/// iterations ahead ([`crate::rebase`]). With `whole`, every value of that
/// register file gets as many registers as there are kernel copies (one per copy): more
/// registers than modulo variable expansion's fewest, but each live over
/// one unbroken stretch of the kernel, where the fewest copies' ranges,
/// with holes around the kernel's back edge, can defeat the allocator.
/// With `pow2`, the kernel copies are a power of two even where the
/// machine could divide by fewer.
pub fn plan(m: &Machine, ddg: &LoopDdg, s: &Schedule, rebased: &[Rebase], whole: Option<RegFileId>, pow2: bool) -> Plan {
    let g = &ddg.graph;
    let ii = s.ii;
    let body: Vec<usize> = (0..g.nodes.len()).filter(|&n| matches!(ddg.kinds[n], NodeKind::Inst(_))).collect();
    let shift = body.iter().map(|&n| s.time[n]).min().unwrap_or(0) / ii * ii;
    let mut time = s.time.clone();
    for &n in &body {
        time[n] -= shift;
    }
    let stages = body.iter().map(|&n| time[n] / ii + 1).max().unwrap_or(1);
    // Each read of a body value: (value, reader, cycles after the value's issue).
    let mut reads: Vec<(usize, usize, i64)> = Vec::new();
    for e in &g.edges {
        if e.kind != dsp_modsched::DepKind::Flow || !matches!(ddg.kinds[e.from], NodeKind::Inst(_)) {
            continue;
        }
        let ahead = match rebased.iter().find(|r| r.node == e.to && r.def == e.from) {
            Some(r) if e.distance == r.distance => r.delta as i64,
            _ => 0,
        };
        reads.push((e.from, e.to, time[e.to] as i64 + (e.distance as i64 - ahead) * ii as i64 - time[e.from] as i64));
    }
    let mut lifetime = vec![0u32; g.nodes.len()];
    for &(v, _, end) in &reads {
        lifetime[v] = lifetime[v].max(end.max(0) as u32);
    }
    // The other body operations that read a value when it dies.
    let mut last_readers: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    for &(v, r, end) in &reads {
        if r != v && matches!(ddg.kinds[r], NodeKind::Inst(_)) && lifetime[v] > 0 && end == lifetime[v] as i64 && !last_readers[v].contains(&r) {
            last_readers[v].push(r);
        }
    }
    let mut busy: Vec<u32> = lifetime.iter().map(|&l| l.max(1)).collect();
    // Registers a value needs: its cycles in registers over II, and its
    // initial values.
    let need = |n: usize, busy: u32| -> u32 { busy.div_ceil(ii).max(ddg.max_distance.get(&n).copied().unwrap_or(0)).max(1) };
    // The last readers of a value whose next write issues in their bundle
    // go before its writer; a cycle of such constraints gives one of its
    // writers another cycle of register (and so perhaps another copy).
    let tight = |n: usize, busy: &[u32]| need(n, busy[n]) * ii == lifetime[n] && !last_readers[n].is_empty();
    let mut rank = vec![u32::MAX; g.nodes.len()];
    let mut placed = 0u32;
    loop {
        let waiting: Vec<usize> = body.iter().copied().filter(|&n| rank[n] == u32::MAX).collect();
        if waiting.is_empty() {
            break;
        }
        // A node is ready when every last reader it must follow is placed.
        let ready = waiting
            .iter()
            .copied()
            .find(|&n| !tight(n, &busy) || last_readers[n].iter().all(|&r| rank[r] != u32::MAX));
        match ready {
            Some(n) => {
                rank[n] = placed;
                placed += 1;
            }
            None => {
                let n = waiting.iter().copied().find(|&n| tight(n, &busy)).expect("a stuck node is tight");
                busy[n] = lifetime[n] + 1;
            }
        }
    }
    // The loop control: one decrement, test and branch per kernel pass, in
    // its last cycles.
    let ctl = |k: NodeKind| (0..g.nodes.len()).find(|&n| ddg.kinds[n] == k).unwrap();
    let (dec, br) = (ctl(NodeKind::Dec), ctl(NodeKind::Branch));
    let span = s.time[br] as i64 - s.time[dec] as i64;
    let ctl_cycles = m.control.delay_slots as i64 + 1 + span.max(0);
    let k_ctl = ((ctl_cycles + ii as i64 - 1) / ii as i64).max(1) as u32;
    let most = body.iter().map(|&n| need(n, busy[n])).max().unwrap_or(1).max(k_ctl);
    // K: 3 rather than 4 where the machine divides the trip count by 3
    // cheaply ([`crate::emit::divides_by`]; not with `pow2`): the
    // pipeline needs one iteration less and leaves fewer to the original
    // loop. Above 4, the next power of two: where allocation fails with
    // it, a larger II at fewer copies still takes the FFT's short loops
    // (ftm32 fft 2048: 5 copies at II 6 needed 9 iterations where its
    // stages have 8, 6621 -> 7122 cycles).
    let k = if most == 3 && !pow2 && crate::emit::divides_by(m, most) { most } else { next_pow2(most) };
    // Copies: a divisor of K (names repeat from one pass to the next).
    let mut copies = vec![1u32; g.nodes.len()];
    for &n in &body {
        copies[n] = if whole.is_some() && g.nodes[n].writes == whole {
            k
        } else {
            (need(n, busy[n])..=k).find(|c| k % c == 0).unwrap_or(k)
        };
    }
    Plan { ii, stages, k, time, copies, lifetime, busy, rank }
}

/// Rewrites the registers of a body instruction: its definition with `def`,
/// every read of a virtual register with `read`.
fn rename(m: &Machine, inst: &Inst, def: &dyn Fn(VReg) -> VReg, read: &dyn Fn(VReg) -> VReg) -> Inst {
    let mut out = inst.clone();
    if let InstKind::Machine { instr, guard, ops } = &mut out.kind {
        let sem = &m.instr(*instr).sem;
        let dst = sem.dst.map(|d| d.0);
        for (i, o) in ops.iter_mut().enumerate() {
            if let Operand::Reg(Reg::Virt(v)) = o {
                *v = if Some(i) == dst { def(*v) } else { read(*v) };
            }
        }
        if let Some(g) = guard {
            if let Reg::Virt(v) = g.reg {
                g.reg = Reg::Virt(read(v));
            }
        }
    }
    out
}

struct Ctx<'a> {
    m: &'a Machine,
    ddg: &'a LoopDdg,
    regs: HashMap<usize, Vec<VReg>>,
    /// Each body node as a machine instruction.
    mbody: HashMap<usize, Inst>,
    /// The rebased accesses, by node.
    rebased: HashMap<usize, &'a Rebase>,
    /// In the epilogue: the registers of the instances of iterations past
    /// the last (classes from `past` = S − 1 on) that rebased accesses need.
    phantom: HashMap<(usize, i64), VReg>,
    past: i64,
}

impl Ctx<'_> {
    fn reg(&self, n: usize, it: i64) -> VReg {
        let r = &self.regs[&n];
        r[it.rem_euclid(r.len() as i64) as usize]
    }
    /// Node `n`'s value of class `it`; in the epilogue (`epi`) a phantom
    /// instance's register for a class past the last.
    fn value(&self, n: usize, it: i64, epi: bool) -> VReg {
        match self.phantom.get(&(n, it)) {
            Some(&v) if epi && it >= self.past => v,
            _ => self.reg(n, it),
        }
    }
    fn source(&self, v: VReg, it: i64, epi: bool) -> VReg {
        match self.ddg.sources.get(&v) {
            Some(Source::Node { node, distance }) => self.value(*node, it - *distance as i64, epi),
            _ => v,
        }
    }
    /// Node `n` (a body instruction) of iteration class `it` at `cycle`
    /// (`epi`: in the epilogue).
    fn instance(&self, n: usize, it: i64, cycle: u32, epi: bool) -> Result<Inst, String> {
        let mi = self.mbody.get(&n).ok_or("not a body node")?;
        let def = |_| self.value(n, it, epi);
        let mut x = match self.rebased.get(&n) {
            Some(r) => {
                let ahead = it - r.distance as i64 + r.delta as i64;
                let read = |v: VReg| if v == r.base { self.value(r.def, ahead, epi) } else { self.source(v, it, epi) };
                let mut x = rename(self.m, mi, &def, &read);
                if let InstKind::Machine { ops, .. } = &mut x.kind {
                    ops[r.offset_operand] = Operand::Imm(r.offset);
                }
                x
            }
            None => rename(self.m, mi, &def, &|v| self.source(v, it, epi)),
        };
        x.cycle = Some(cycle);
        Ok(x)
    }
    /// Registers for node `n`'s phantom instance of class `it` and for those
    /// it reads, when `it` is past the last iteration.
    fn need_phantom(&mut self, f: &mut Function, n: usize, it: i64) -> Result<(), String> {
        if it < self.past || self.phantom.contains_key(&(n, it)) {
            return Ok(());
        }
        let mi = self.mbody.get(&n).ok_or("not a body node")?.clone();
        let v = def_of(self.m, &mi.kind).ok_or("a rebased address without a result")?;
        let r = f.new_vreg(f.vreg_file(v));
        self.phantom.insert((n, it), r);
        let (uses, _) = dsp_mir::uses_defs(self.m, &mi);
        for u in uses {
            if let Reg::Virt(u) = u {
                if let Some(Source::Node { node, distance }) = self.ddg.sources.get(&u).copied() {
                    self.need_phantom(f, node, it - distance as i64)?;
                }
            }
        }
        Ok(())
    }
}

/// How to make another register of zeros, three ways: a copy (the
/// machine's vector move), a broadcast of the zero register `zero`, and
/// zero times zero (`mul`, where the machine multiplies vectors); `timing`
/// holds each way's latency and unit count (`None`: no such way).
#[derive(Clone, Copy)]
struct ZeroInit {
    zero: isa_tablegen::Reg,
    bcast: isa_tablegen::InstrId,
    mul: Option<isa_tablegen::InstrId>,
    timing: [Option<(u32, u32)>; 3],
}

/// Of `vs`, the vector registers of `f` that hold zeros (a broadcast of a
/// register loaded with 0, or of the zero register), with the ways to make
/// more of them.
fn zero_broadcasts(m: &Machine, f: &Function, vs: &[VReg]) -> HashMap<VReg, ZeroInit> {
    let mut out = HashMap::new();
    let Some(zero) = (0..m.regfiles.len()).find_map(|i| {
        let file = RegFileId(i as _);
        let rf = m.regfile(file);
        rf.lanes.is_none().then(|| rf.specials.iter().find(|sp| sp.kind == isa_tablegen::SpecialKind::Zero).map(|sp| isa_tablegen::Reg { file, index: sp.index })).flatten()
    }) else {
        return out;
    };
    let defs = crate::candidate::def_sites(m, f);
    let def = |v: VReg| -> Option<&InstKind> {
        let (b, i) = defs.get(v.0 as usize).copied().flatten()?;
        Some(&f.block(b).insts[i].kind)
    };
    let is_zero = |o: &Operand| -> bool {
        match o {
            Operand::Reg(Reg::Phys(p)) => m.special(*p) == Some(isa_tablegen::SpecialKind::Zero),
            Operand::Reg(Reg::Virt(v)) => matches!(def(*v), Some(InstKind::Machine { instr, guard: None, ops })
                if m.instr(*instr).sem.op == SemOp::Mov && m.instr(*instr).sem.args.len() == 1 && ops.get(m.instr(*instr).sem.args[0].0) == Some(&Operand::Imm(0))),
            _ => false,
        }
    };
    for &v in vs {
        let Some(InstKind::Machine { instr, guard: None, ops }) = def(v) else { continue };
        let sem = &m.instr(*instr).sem;
        let Some(&arg) = sem.args.first() else { continue };
        let src_file = m.instr(*instr).operands.get(arg.0).map(|o| o.kind);
        if sem.op == SemOp::Broadcast && sem.args.len() == 1 && src_file == Some(isa_tablegen::OperandKind::Reg(zero.file)) && is_zero(&ops[arg.0]) {
            let vfile = f.vreg_file(v);
            let timing = |id: isa_tablegen::InstrId| {
                let x = m.instr(id);
                let units: u32 = x.units.iter().map(|u| m.units[u.0 as usize].count).sum();
                (x.latency.max(1), units.max(1))
            };
            let find = |op: SemOp, args: &[isa_tablegen::ArgPat]| {
                [Ty::I32, Ty::U32].iter().find_map(|&ty| m.find_instr(&isa_tablegen::Want { op, ty: Some(ty), ty2: None, dst: Some(vfile), args }))
            };
            // Without a vector move, copies are what the allocator makes of
            // them: taken first.
            let copy = find(SemOp::Mov, &[isa_tablegen::ArgPat::Reg(vfile)]).map_or((0, 1), timing);
            let mul = find(SemOp::Mul, &[isa_tablegen::ArgPat::Reg(vfile), isa_tablegen::ArgPat::Reg(vfile)]);
            out.insert(v, ZeroInit { zero, bcast: *instr, mul, timing: [Some(copy), Some(timing(*instr)), mul.map(timing)] });
        }
    }
    out
}

fn retarget(t: &mut Terminator, from: Block, to: Block) {
    let fix = |b: &mut Block| {
        if *b == from {
            *b = to;
        }
    };
    match t {
        Terminator::Jump(b) => fix(b),
        Terminator::Branch { taken, not_taken, .. } => {
            fix(taken);
            fix(not_taken);
        }
        Terminator::IndirectJump { targets, .. } => targets.iter_mut().for_each(fix),
        _ => {}
    }
}

/// Transforms the function. `plan` must come from [`plan`] on `s`.
#[allow(clippy::too_many_arguments)]
pub fn generate(
    m: &Machine,
    f: &mut Function,
    c: &Candidate,
    ddg: &LoopDdg,
    s: &Schedule,
    plan: &Plan,
    rebased: &[Rebase],
    ctl: &ControlInstrs,
    comments: Vec<String>,
) -> Result<Expansion, String> {
    let g = &ddg.graph;
    let (ii, stages, k) = (plan.ii, plan.stages, plan.k);
    let l = c.block;
    let body: Vec<Inst> = f.block(l).insts.clone();
    let mut insts: Vec<usize> = ddg.node_of_inst.keys().copied().collect();
    insts.sort_unstable();
    for i in insts {
        if let InstKind::Machine { instr, .. } = &body[i].kind {
            let sem = &m.instr(*instr).sem;
            if let Some(d) = sem.dst {
                if sem.args.iter().any(|a| a.0 == d.0) {
                    return Err(format!("'{}' reads its own destination (a tied operand)", m.instr(*instr).mnemonic));
                }
            }
        }
    }
    let body_nodes: Vec<usize> = (0..g.nodes.len()).filter(|&n| matches!(ddg.kinds[n], NodeKind::Inst(_))).collect();
    // Registers.
    let mut regs: HashMap<usize, Vec<VReg>> = HashMap::new();
    let mut counts: HashMap<RegFileId, u32> = HashMap::new();
    for &n in &body_nodes {
        let NodeKind::Inst(i) = ddg.kinds[n] else { continue };
        if let Some(v) = def_of(m, &body[i].kind) {
            let file = f.vreg_file(v);
            let rs: Vec<VReg> = (0..plan.copies[n]).map(|_| f.new_vreg(file)).collect();
            *counts.entry(file).or_insert(0) += rs.len() as u32;
            regs.insert(n, rs);
        }
    }
    let mut mbody = HashMap::new();
    for &n in &body_nodes {
        let NodeKind::Inst(i) = ddg.kinds[n] else { continue };
        mbody.insert(n, as_machine(m, f, &body[i])?);
    }
    let past = stages as i64 - 1;
    let mut cx = Ctx { m, ddg, regs, mbody, rebased: rebased.iter().map(|r| (r.node, r)).collect(), phantom: HashMap::new(), past };
    // The epilogue's rebased accesses of the last iterations read addresses
    // of iterations past the last: their phantom instances.
    for r in rebased {
        let st = plan.time[r.node] / ii;
        for e in 0..st.min(stages.saturating_sub(1)) {
            let it = stages as i64 - 1 + e as i64 - st as i64;
            cx.need_phantom(f, r.def, it - r.distance as i64 + r.delta as i64)?;
        }
    }
    let cx = cx;
    let node_reg_of = |v: VReg| -> Option<usize> {
        ddg.node_of_inst.iter().find(|(&i, _)| def_of(m, &body[i].kind) == Some(v)).map(|(_, &n)| n)
    };
    // Values after the pipeline's last iteration N'-1 ≡ S-2 (mod K).
    let last = stages as i64 - 2;
    let value_after = |v: VReg| -> VReg {
        match ddg.sources.get(&v) {
            Some(Source::Node { node, distance }) => cx.reg(*node, last - *distance as i64),
            _ => match node_reg_of(v) {
                Some(n) => cx.reg(n, last),
                None => v,
            },
        }
    };
    let max_phi_distance = ddg
        .phis
        .iter()
        .filter_map(|(d, _, _)| match ddg.sources.get(d) {
            Some(Source::Node { distance, .. }) => Some(*distance),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let min_trip = (stages - 1 + k).max(max_phi_distance + 1);

    let emit = Emit { m, int: ctl.int_file, pred: ctl.pred_file };
    // Blocks.
    let base = f.block(l).name.clone();
    let guard = f.new_block(format!("{base}.pipe.guard"));
    let check = (!ddg.alias_pairs.is_empty()).then(|| f.new_block(format!("{base}.pipe.check")));
    let setup = f.new_block(format!("{base}.pipe.setup"));
    let pro = (stages > 1).then(|| f.new_block(format!("{base}.pipe.prologue")));
    let kern = f.new_block(format!("{base}.pipe.kernel"));
    let epi = f.new_block(format!("{base}.pipe.epilogue"));
    let exit_test = f.new_block(format!("{base}.pipe.exit"));
    let rem = f.new_block(format!("{base}.pipe.remainder"));
    let join = f.new_block(format!("{base}.pipe.join"));

    // Initial values that are zero vectors (before f's registers are taken).
    let inits: Vec<VReg> = ddg.phis.iter().map(|&(_, init, _)| init).collect();
    let zero_inits = zero_broadcasts(m, f, &inits);
    let mut vregs = std::mem::take(&mut f.vregs);
    let mut new_vreg = |file: RegFileId| -> Reg {
        vregs.push(file);
        Reg::Virt(VReg(vregs.len() as u32 - 1))
    };

    // guard: tc < min_trip → original loop.
    let tc = Reg::Virt(c.trip_count);
    let mut gi = Vec::new();
    let fo = |r: &Reg| -> RegFileId {
        match r {
            Reg::Virt(_) => ctl.int_file,
            Reg::Phys(p) => p.file,
        }
    };
    let small = emit.op(&mut gi, &mut new_vreg, &fo, SemOp::Lt, &[Ty::U32], ctl.pred_file, &[Operand::Reg(tc), Operand::Imm(min_trip as i64)])?;
    // Overlap checks.
    let mut ci = Vec::new();
    let ok_pred = crate::check::overlap_checks(m, &emit, ddg, tc, &mut ci, &mut new_vreg)?;
    // setup: passes M, remainder r, counter, initial values.
    let mut si = Vec::new();
    let avail = if stages > 1 {
        emit.op(&mut si, &mut new_vreg, &fo, SemOp::Add, &[Ty::I32], ctl.int_file, &[Operand::Reg(tc), Operand::Imm(-(stages as i64 - 1))])?
    } else {
        tc
    };
    let (passes, remainder) = emit.div_rem(&mut si, &mut new_vreg, &fo, avail, k)?;
    let counter = new_vreg(ctl.int_file);
    si.push(Inst::new(InstKind::Copy { dst: counter, src: passes }));
    // Initial values: registers of iterations -1, -2, … hold the phi chains.
    // Zero vectors (a reduction's accumulators) are made the way whose
    // result lands first (see [`ZeroInit`]): copies alone would all queue
    // on the one unit that moves vectors.
    let mut zero_uses = [0u32; 3];
    for &(dst, _, _) in &ddg.phis {
        let Some(Source::Node { node, distance }) = ddg.sources.get(&dst).copied() else { continue };
        // x at iteration j (< distance) is the j-th value down the phi chain.
        let mut x = dst;
        for j in 0..distance as i64 {
            let Some(&(_, init, next)) = ddg.phis.iter().find(|(d, _, _)| *d == x) else { break };
            let r = cx.reg(node, j - distance as i64);
            match zero_inits.get(&init).copied() {
                Some(z) => {
                    // The way whose result lands first, counting those
                    // already chosen on its units: a copy (the vector
                    // move), a broadcast of the zero register, zero times
                    // zero on the multiply units.
                    let way = (0..3)
                        .filter_map(|w| z.timing[w].map(|(lat, units)| (w, zero_uses[w] / units + lat)))
                        .min_by_key(|&(w, at)| (at, w))
                        .map_or(0, |(w, _)| w);
                    zero_uses[way] += 1;
                    let dst = Some(Operand::Reg(Reg::Virt(r)));
                    let inst = match (way, z.mul) {
                        (1, _) => dsp_mir::builder::sem_inst(m, z.bcast, dst, &[Operand::Reg(Reg::Phys(z.zero))], None),
                        (2, Some(mul)) => dsp_mir::builder::sem_inst(m, mul, dst, &[Operand::Reg(Reg::Virt(init)), Operand::Reg(Reg::Virt(init))], None),
                        _ => Inst::new(InstKind::Copy { dst: Reg::Virt(r), src: Reg::Virt(init) }),
                    };
                    si.push(inst);
                }
                None => si.push(Inst::new(InstKind::Copy { dst: Reg::Virt(r), src: Reg::Virt(init) })),
            }
            x = next;
        }
    }
    // Prologue, kernel, epilogue. The prologue starts at the first
    // iteration's first operation: the rows of the first stage before it
    // hold nothing (the kernel follows it as it would have).
    let lead = body_nodes.iter().map(|&n| plan.time[n]).min().unwrap_or(0).min(ii - 1);
    let mut pro_insts = Vec::new();
    for it in 0..stages.saturating_sub(1) as i64 {
        for &n in &body_nodes {
            let t = it as u32 * ii + plan.time[n];
            if t < (stages - 1) * ii {
                pro_insts.push((plan.rank[n], cx.instance(n, it, t - lead, false)?));
            }
        }
    }
    let mut kern_insts = Vec::new();
    for j in 0..k {
        for &n in &body_nodes {
            let (st, row) = (plan.time[n] / ii, plan.time[n] % ii);
            let it = j as i64 + stages as i64 - 1 - st as i64;
            kern_insts.push((plan.rank[n], cx.instance(n, it, j * ii + row, false)?));
        }
    }
    let ctl_node = |kind: NodeKind| (0..g.nodes.len()).find(|&n| ddg.kinds[n] == kind);
    let (ndec, nbr) = (ctl_node(NodeKind::Dec).ok_or("no loop decrement")?, ctl_node(NodeKind::Branch).ok_or("no loop branch")?);
    // Without a test node the branch reads the counter itself.
    let ntest = ctl_node(NodeKind::Test).unwrap_or(ndec);
    let kl = k * ii;
    let bcycle = kl as i64 - 1 - m.control.delay_slots as i64;
    let tcycle = bcycle - (s.time[nbr] as i64 - s.time[ntest] as i64);
    let dcycle = tcycle - (s.time[ntest] as i64 - s.time[ndec] as i64);
    if dcycle < 0 || bcycle < 0 {
        return Err("the loop control does not fit the kernel".into());
    }
    let mut dec = dsp_mir::builder::sem_inst(m, ctl.dec, Some(Operand::Reg(counter)), &[Operand::Reg(counter), Operand::Imm(-1)], None);
    dec.cycle = Some(dcycle as u32);
    kern_insts.push((u32::MAX, dec));
    let q = match ctl.test {
        Some(instr) => {
            let q = new_vreg(ctl.pred_file);
            let mut test = dsp_mir::builder::sem_inst(m, instr, Some(Operand::Reg(q)), &[Operand::Reg(counter), Operand::Imm(0)], None);
            test.cycle = Some(tcycle as u32);
            kern_insts.push((u32::MAX, test));
            q
        }
        None => counter,
    };
    let mut epi_insts = Vec::new();
    let mut drain = 1u32;
    for e in 0..stages.saturating_sub(1) {
        for &n in &body_nodes {
            let (st, row) = (plan.time[n] / ii, plan.time[n] % ii);
            if st > e {
                let it = stages as i64 - 1 + e as i64 - st as i64;
                epi_insts.push((plan.rank[n], cx.instance(n, it, e * ii + row, true)?));
            }
        }
    }
    let mut phantoms: Vec<(usize, i64)> = cx.phantom.keys().copied().collect();
    phantoms.sort_unstable();
    for (n, it) in phantoms {
        // Where the kernel would run it: its row, in an epilogue stage
        // before the access that reads it.
        let cycle = (it - past) * ii as i64 + plan.time[n] as i64;
        let cycle = u32::try_from(cycle).map_err(|_| "a phantom instance before the epilogue")?;
        epi_insts.push((plan.rank[n], cx.instance(n, it, cycle, true)?));
    }
    let lat_busy = |inst: &Inst| -> u32 {
        match &inst.kind {
            InstKind::Machine { instr, .. } => m.instr(*instr).latency.max(m.instr(*instr).busy),
            _ => 1,
        }
    };
    for (_, i) in &epi_insts {
        drain = drain.max(i.cycle.unwrap() + lat_busy(i));
    }
    for (_, i) in &kern_insts {
        let end = i.cycle.unwrap() + lat_busy(i);
        drain = drain.max(end.saturating_sub(kl));
    }
    // Not necessarily (S − 1)·II: the epilogue ends when its last result
    // lands (rows after the last operation would be nops).
    // Each bundle in rank order (a value's last readers before its next
    // write, [`Plan::rank`]).
    let [pro_insts, kern_insts, epi_insts] = [pro_insts, kern_insts, epi_insts].map(|mut v| {
        v.sort_by_key(|(rank, i)| (i.cycle, *rank));
        v.into_iter().map(|(_, i)| i).collect::<Vec<Inst>>()
    });
    // Exit test, remainder entry and join.
    let mut xi = Vec::new();
    let done = emit.op(&mut xi, &mut new_vreg, &fo, SemOp::Eq, &[Ty::I32, Ty::U32], ctl.pred_file, &[Operand::Reg(remainder), Operand::Imm(0)])?;
    f.vregs = vregs;

    // Live-outs: loop definitions used outside the loop.
    let mut loop_defs: Vec<VReg> = Vec::new();
    for inst in &body {
        if let Some(v) = def_of(m, &inst.kind) {
            loop_defs.push(v);
        }
    }
    let new_blocks: Vec<Block> = [Some(guard), check, Some(setup), pro, Some(kern), Some(epi), Some(exit_test), Some(rem), Some(join)]
        .into_iter()
        .flatten()
        .collect();
    let mut live_out: Vec<VReg> = Vec::new();
    for (b, data) in f.blocks.iter().enumerate() {
        if b == l.0 as usize || new_blocks.contains(&Block(b as u32)) {
            continue;
        }
        for inst in &data.insts {
            let (uses, _) = dsp_mir::uses_defs(m, inst);
            for r in uses {
                if let Reg::Virt(v) = r {
                    if loop_defs.contains(&v) && !live_out.contains(&v) {
                        live_out.push(v);
                    }
                }
            }
        }
        if let Terminator::Branch { cond: Reg::Virt(v), .. } | Terminator::IndirectJump { target: Reg::Virt(v), .. } = &data.term {
            if loop_defs.contains(v) && !live_out.contains(v) {
                live_out.push(*v);
            }
        }
    }
    let mut join_phis = Vec::new();
    let mut replace: HashMap<VReg, VReg> = HashMap::new();
    for &v in &live_out {
        if [c.counter, c.counter_next, c.test].contains(&v) {
            return Err("the loop counter is used after the loop".into());
        }
        let file = f.vreg_file(v);
        let nv = f.new_vreg(file);
        replace.insert(v, nv);
        join_phis.push(Inst::new(InstKind::Phi {
            dst: nv,
            incoming: vec![(l, Reg::Virt(v)), (exit_test, Reg::Virt(value_after(v)))],
        }));
    }
    // Rewrite uses outside the loop.
    for b in 0..f.blocks.len() {
        if b == l.0 as usize || new_blocks.contains(&Block(b as u32)) {
            continue;
        }
        let data = &mut f.blocks[b];
        for inst in &mut data.insts {
            if let InstKind::Phi { incoming, .. } = &mut inst.kind {
                for (from, r) in incoming.iter_mut() {
                    if *from == l {
                        *from = join;
                    }
                    if let Reg::Virt(v) = r {
                        if let Some(nv) = replace.get(v) {
                            *r = Reg::Virt(*nv);
                        }
                    }
                }
                continue;
            }
            if replace.is_empty() {
                // Nothing to rename (most loops' values stay inside): no
                // copy of every instruction of the function per loop.
                continue;
            }
            let x = rename(m, inst, &|v| v, &|v| replace.get(&v).copied().unwrap_or(v));
            *inst = x;
            if let InstKind::Copy { src: Reg::Virt(v), .. } = &mut inst.kind {
                if let Some(nv) = replace.get(v) {
                    *v = *nv;
                }
            }
        }
        match &mut data.term {
            Terminator::Branch { cond: Reg::Virt(v), .. } | Terminator::IndirectJump { target: Reg::Virt(v), .. } => {
                if let Some(nv) = replace.get(v) {
                    *v = *nv;
                }
            }
            _ => {}
        }
    }
    // The original loop: entered from guard/check (small or overlapping)
    // and from the remainder; leaves to the join.
    retarget(&mut f.blocks[c.preheader.0 as usize].term, l, guard);
    retarget(&mut f.blocks[l.0 as usize].term, c.exit, join);
    let mut rem_values: Vec<(VReg, VReg)> = Vec::new();
    for &(dst, _, next) in &ddg.phis {
        rem_values.push((dst, value_after(next)));
    }
    for inst in &mut f.blocks[l.0 as usize].insts {
        if let InstKind::Phi { dst, incoming } = &mut inst.kind {
            let mut extra = Vec::new();
            for (from, r) in incoming.iter_mut() {
                if *from == c.preheader {
                    *from = guard;
                    if let Some(ch) = check {
                        extra.push((ch, *r));
                    }
                }
            }
            incoming.extend(extra);
            let rv = if *dst == c.counter {
                remainder
            } else {
                Reg::Virt(rem_values.iter().find(|(d, _)| d == dst).map(|(_, v)| *v).ok_or("a loop phi without a value")?)
            };
            incoming.push((rem, rv));
        }
    }
    let after_guard = check.unwrap_or(setup);
    let set = |f: &mut Function, b: Block, insts: Vec<Inst>, term: Terminator| {
        let d = f.block_mut(b);
        d.insts = insts;
        d.term = term;
    };
    set(f, guard, gi, Terminator::Branch { cond: small, negate: false, taken: l, not_taken: after_guard });
    if let Some(ch) = check {
        set(f, ch, ci, Terminator::Branch { cond: ok_pred.unwrap(), negate: false, taken: setup, not_taken: l });
    }
    let first = pro.unwrap_or(kern);
    set(f, setup, si, Terminator::Jump(first));
    if let Some(p) = pro {
        set(f, p, pro_insts, Terminator::Jump(kern));
        f.block_mut(p).fixed = Some(FixedBlock { len: (stages - 1) * ii - lead, branch_cycle: None, drains: false });
    }
    set(f, kern, kern_insts, Terminator::Branch { cond: q, negate: false, taken: kern, not_taken: epi });
    f.block_mut(kern).fixed = Some(FixedBlock { len: kl, branch_cycle: Some(bcycle as u32), drains: false });
    set(f, epi, epi_insts, Terminator::Jump(exit_test));
    f.block_mut(epi).fixed = Some(FixedBlock { len: drain, branch_cycle: None, drains: true });
    set(f, exit_test, xi, Terminator::Branch { cond: done, negate: false, taken: join, not_taken: rem });
    set(f, rem, Vec::new(), Terminator::Jump(l));
    set(f, join, join_phis, Terminator::Jump(c.exit));
    f.block_mut(guard).comments = comments;
    let mut registers: Vec<(RegFileId, u32)> = counts.into_iter().collect();
    registers.sort();
    Ok(Expansion {
        stages,
        kernel_copies: k,
        min_trip,
        registers,
        alias_checks: ddg.alias_pairs.len(),
        fixed_blocks: [pro, Some(kern), Some(epi)].into_iter().flatten().collect(),
        guard,
    })
}

#[cfg(test)]
#[path = "expand_tests.rs"]
mod tests;
