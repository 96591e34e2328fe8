//! The dependence graph of a candidate loop (seed 000 §4.1, seed 003
//! "Dependences in a loop"), built from machine IR in SSA form:
//!
//! - register flow dependences from each definition to each use in the body,
//!   distance 0, or through the header's phis, distance 1 per phi; delay =
//!   the producer's `.isa` latency. SSA has no anti or output dependences
//!   between virtual registers; modulo variable expansion (`expand`) gives
//!   each iteration's values their own registers;
//! - memory dependences between every store and every other access, with
//!   the smallest iteration distance at which their bytes can overlap, from
//!   the affine addresses of `affine`: exact when the two addresses differ by
//!   a constant; when they have different bases (two pointer arguments), the
//!   loop gets a run-time check that the address ranges of the whole loop are
//!   disjoint (as LLVM's loop vectorizer does) and no edge; when an address
//!   is not affine, edges at distance 0 (program order) and 1 (every later
//!   iteration) both ways. Delays: store → load 1 (a store takes effect at
//!   the end of its bundle), load → store 0, store → store 1;
//! - loop control: a counter of kernel passes `m = m - 1`, its test
//!   `q = m != 0` and the loop branch, pinned to the kernel row whose delay
//!   slots end the kernel; edges keep the three within one II of each other.

use std::collections::HashMap;

use dsp_mir::{Function, Inst, InstKind, Machine, Operand, Reg, RegFileId, VReg};
use dsp_modsched::{DepKind, LoopGraph, Node, NodeId, PinnedRow};
use isa_tablegen::{ArgPat, InstrId, SemOp, SpecialKind, Ty, Want};

use crate::affine::{Affine, AffineMap};
use crate::candidate::{def_of, Candidate};

/// What a graph node stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The loop block's instruction at this index.
    Inst(usize),
    /// `m = m - 1` (the kernel's pass counter).
    Dec,
    /// `q = m != 0`.
    Test,
    /// The loop branch.
    Branch,
}

/// Where a register read in the body gets its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Defined outside the loop (or a physical register): the same in every iteration.
    Invariant,
    /// The value node `node` computed `distance` iterations earlier.
    Node { node: NodeId, distance: u32 },
}

/// One memory access of the body, for run-time overlap checks.
#[derive(Clone, Debug)]
pub struct Access {
    pub addr: Affine,
    pub size: u32,
    pub writes: bool,
}

/// The loop's graph and what code generation needs to map it back.
pub struct LoopDdg {
    pub graph: LoopGraph,
    pub kinds: Vec<NodeKind>,
    /// For each body instruction index, its node.
    pub node_of_inst: HashMap<usize, NodeId>,
    /// Resolution of every virtual register the body reads.
    pub sources: HashMap<VReg, Source>,
    /// Phis of the header: (dst, initial value from the preheader, value
    /// from the back edge).
    pub phis: Vec<(VReg, VReg, VReg)>,
    /// Groups of accesses with one base whose ranges must not overlap with
    /// another group's (checked at run time); each group is a list of accesses.
    pub alias_groups: Vec<Vec<Access>>,
    /// Pairs of group indices to check.
    pub alias_pairs: Vec<(usize, usize)>,
    /// Largest phi distance a value is read at (modulo variable expansion
    /// needs that many initial registers).
    pub max_distance: HashMap<NodeId, u32>,
}

/// The instructions the control nodes use.
pub struct ControlInstrs {
    pub dec: InstrId,
    /// The counter test into a predicate; `None` when `branch` tests the
    /// counter itself (a branch on a register being nonzero, `brnz`).
    pub test: Option<InstrId>,
    pub branch: InstrId,
    pub int_file: RegFileId,
    pub pred_file: RegFileId,
}

impl ControlInstrs {
    /// The loop-control instructions; with `counter_branch`, a branch on
    /// the counter register when the machine has one (no test).
    pub fn find(m: &Machine, counter_branch: bool) -> Result<ControlInstrs, String> {
        let int_file = m.scalar_file(Ty::I32).ok_or("the machine has no 32-bit integer registers")?;
        let pred_file = m.predicate_file().ok_or("the machine has no predicate registers")?;
        let dec = m
            .find_instr(&Want { op: SemOp::Add, ty: Some(Ty::I32), ty2: None, dst: Some(int_file), args: &[ArgPat::Reg(int_file), ArgPat::Imm(-1)] })
            .ok_or("the machine has no add-immediate for the loop counter")?;
        let on_counter = m.find_instr(&Want { op: SemOp::BrNz, ty: None, ty2: None, dst: None, args: &[ArgPat::Reg(int_file), ArgPat::PcRel] });
        if let (true, Some(branch)) = (counter_branch, on_counter) {
            return Ok(ControlInstrs { dec, test: None, branch, int_file, pred_file });
        }
        let test = m
            .find_instr(&Want { op: SemOp::Ne, ty: Some(Ty::I32), ty2: None, dst: Some(pred_file), args: &[ArgPat::Reg(int_file), ArgPat::Imm(0)] })
            .ok_or("the machine has no compare-with-immediate into a predicate")?;
        let test = Some(test);
        let branch = m
            .find_instr(&Want { op: SemOp::Br, ty: None, ty2: None, dst: None, args: &[ArgPat::PcRel] })
            .ok_or("the machine has no branch")?;
        Ok(ControlInstrs { dec, test, branch, int_file, pred_file })
    }
}

/// The file's register copy as a machine instruction (`mov` or `or d, a, a`).
pub fn copy_instr(m: &Machine, file: RegFileId) -> Option<InstrId> {
    let rf = m.regfile(file);
    let elem_bits = rf.lanes.map(|l| l.elem_bits).unwrap_or(rf.width);
    let mut best: Option<((u32, u32, bool, usize), InstrId)> = None;
    for (i, ins) in m.instrs.iter().enumerate() {
        let sem = &ins.sem;
        let shape_ok = match sem.op {
            SemOp::Mov => sem.args.len() == 1,
            SemOp::Or | SemOp::And => sem.args.len() == 2 && !sem.ty.is_some_and(|t| t.is_float()),
            _ => false,
        };
        if !shape_ok || sem.ty2.is_some() || sem.ty.is_some_and(|t| t.bits() < elem_bits) {
            continue;
        }
        let Some(d) = sem.dst else { continue };
        if ins.operands[d.0].kind != isa_tablegen::OperandKind::Reg(file) {
            continue;
        }
        if !sem.args.iter().all(|a| a.0 != d.0 && ins.operands[a.0].kind == isa_tablegen::OperandKind::Reg(file)) {
            continue;
        }
        let key = (ins.cost, ins.latency, sem.op != SemOp::Mov, i);
        if best.as_ref().is_none_or(|(k, _)| key < *k) {
            best = Some((key, InstrId(i as u16)));
        }
    }
    best.map(|(_, id)| id)
}

/// A body instruction as the machine instruction it will be: copies become
/// the file's copy instruction.
pub fn as_machine(m: &Machine, f: &Function, inst: &Inst) -> Result<Inst, String> {
    match &inst.kind {
        InstKind::Machine { .. } => Ok(inst.clone()),
        InstKind::Copy { dst, src } => {
            let file = f.reg_file(*dst);
            let id = copy_instr(m, file).ok_or("no copy instruction")?;
            let n = m.instr(id).sem.args.len();
            let args = vec![Operand::Reg(*src); n];
            let mut i = dsp_mir::builder::sem_inst(m, id, Some(Operand::Reg(*dst)), &args, None);
            i.loc = inst.loc.clone();
            Ok(i)
        }
        _ => Err("unexpected instruction in the loop body".into()),
    }
}

/// Registers read by a machine instruction, per file (special registers excluded).
fn reads(m: &Machine, inst: &Inst, f: &Function) -> Vec<(RegFileId, u32)> {
    let (uses, _) = dsp_mir::uses_defs(m, inst);
    let mut out: Vec<(RegFileId, u32)> = Vec::new();
    for r in uses {
        if let Reg::Phys(p) = r {
            if m.special(p).is_some() {
                continue;
            }
        }
        let file = f.reg_file(r);
        match out.iter_mut().find(|(x, _)| *x == file) {
            Some(e) => e.1 += 1,
            None => out.push((file, 1)),
        }
    }
    out
}

/// Memory access facts of an instruction: (reads, writes, base, offset
/// operand, bytes or None when the range is unknown).
fn mem_of<'i>(m: &Machine, inst: &'i Inst) -> Option<(bool, bool, Option<&'i Operand>, Option<&'i Operand>, Option<u32>)> {
    let InstKind::Machine { instr, ops, .. } = &inst.kind else { return None };
    let ins = m.instr(*instr);
    let sem = &ins.sem;
    if !sem.reads_memory() && !sem.writes_memory() {
        return None;
    }
    let contiguous = matches!(
        sem.op,
        SemOp::Load | SemOp::Store | SemOp::VLoad | SemOp::VLoadU | SemOp::VStore | SemOp::VStoreU | SemOp::VStoreM
    );
    let base = sem.args.first().map(|a| &ops[a.0]);
    let off = sem.args.get(1).map(|a| &ops[a.0]);
    let data_file = if sem.reads_memory() {
        sem.dst.map(|d| ins.operands[d.0].kind)
    } else {
        sem.args.get(2).map(|a| ins.operands[a.0].kind)
    };
    let size = match (contiguous, sem.op, data_file) {
        (false, _, _) => None,
        (true, SemOp::Load | SemOp::Store, _) => sem.ty.map(|t| t.bits().div_ceil(8)),
        (true, _, Some(isa_tablegen::OperandKind::Reg(file))) => Some(m.regfile(file).width / 8),
        _ => None,
    };
    Some((sem.reads_memory(), sem.writes_memory(), base, off, size))
}

/// Smallest d ≥ dmin with lo < s·d < hi, if any (d bounded by `limit`).
fn min_distance(s: i64, lo: i64, hi: i64, dmin: i64, limit: i64) -> Option<i64> {
    if s == 0 {
        return (lo < 0 && 0 < hi).then_some(dmin);
    }
    let (s, lo, hi) = if s < 0 { (-s, -hi, -lo) } else { (s, lo, hi) };
    // s·d > lo  ⇔  d ≥ floor(lo / s) + 1
    let d = (lo.div_euclid(s) + 1).max(dmin);
    (d <= limit && s * d < hi).then_some(d)
}

pub fn build(m: &Machine, f: &Function, c: &Candidate, ctl: &ControlInstrs) -> Result<LoopDdg, String> {
    let l = c.block;
    let body = &f.block(l).insts;
    let mut g = LoopGraph::new();
    let mut kinds = Vec::new();
    let mut node_of_inst = HashMap::new();
    let mut def_node: HashMap<VReg, NodeId> = HashMap::new();
    // Every definition in body order: a register written twice (a copy, then
    // an instruction that reads and writes it, as `vins`) is read from the
    // definition before the reader.
    let mut defs_at: HashMap<VReg, Vec<(usize, NodeId)>> = HashMap::new();
    let mut phis = Vec::new();
    let mut phi_of: HashMap<VReg, VReg> = HashMap::new();
    for (i, inst) in body.iter().enumerate() {
        if let InstKind::Phi { dst, incoming } = &inst.kind {
            if *dst == c.counter {
                continue;
            }
            let mut init = None;
            let mut next = None;
            for (b, r) in incoming {
                match (*b == l, r) {
                    (true, Reg::Virt(v)) => next = Some(*v),
                    (false, Reg::Virt(v)) => init = Some(*v),
                    _ => return Err("a loop phi has a physical register".into()),
                }
            }
            let (Some(init), Some(next)) = (init, next) else {
                return Err("a loop phi has no value from the back edge".into());
            };
            phis.push((*dst, init, next));
            phi_of.insert(*dst, next);
            continue;
        }
        if c.counter_insts.contains(&i) {
            continue;
        }
        let mi = as_machine(m, f, inst)?;
        let InstKind::Machine { instr, .. } = &mi.kind else { unreachable!() };
        let writes = def_of(m, &mi.kind).map(|v| f.vreg_file(v));
        let n = g.add_node(Node {
            instr: *instr,
            reads: reads(m, &mi, f),
            writes,
            name: format!("{}#{i}", m.instr(*instr).mnemonic),
            pinned_row: None,
        });
        kinds.push(NodeKind::Inst(i));
        node_of_inst.insert(i, n);
        if let Some(v) = def_of(m, &mi.kind) {
            def_node.insert(v, n);
            defs_at.entry(v).or_default().push((i, n));
        }
    }
    // Two phis carrying the same value around the loop from different
    // initial values would need two registers for one value's instances
    // (expansion keeps one chain per value).
    for (k, &(d1, init1, next1)) in phis.iter().enumerate() {
        if phis[..k].iter().any(|&(_, init0, next0)| next0 == next1 && init0 != init1) {
            return Err(format!("two loop phis (one of them %r{}) carry the same value from different initial values", d1.0));
        }
    }
    // Resolve every read.
    let mut sources: HashMap<VReg, Source> = HashMap::new();
    let resolve = |v: VReg| -> Result<Source, String> {
        let mut v = v;
        let mut d = 0u32;
        loop {
            if let Some(&n) = def_node.get(&v) {
                return Ok(Source::Node { node: n, distance: d });
            }
            if let Some(&next) = phi_of.get(&v) {
                d += 1;
                if d > 64 {
                    return Err("a cycle of phis".into());
                }
                v = next;
                continue;
            }
            if d > 0 {
                return Err("a loop phi carries a loop-invariant value".into());
            }
            return Ok(Source::Invariant);
        }
    };
    let mut max_distance: HashMap<NodeId, u32> = HashMap::new();
    // In body order: the order of the edges steers the schedulers' tie
    // breaks, and a HashMap's order changes from run to run.
    let mut order: Vec<(usize, NodeId)> = node_of_inst.iter().map(|(&i, &n)| (i, n)).collect();
    order.sort_unstable();
    for &(i, n) in &order {
        let mi = as_machine(m, f, &body[i])?;
        let (uses, _) = dsp_mir::uses_defs(m, &mi);
        for r in uses {
            let Reg::Virt(v) = r else { continue };
            let s = resolve(v)?;
            sources.insert(v, s);
            let s = match defs_at.get(&v) {
                Some(ds) if ds.len() > 1 => match ds.iter().rev().find(|&&(at, _)| at < i) {
                    Some(&(_, node)) => Source::Node { node, distance: 0 },
                    None => return Err(format!("%r{} is read before its first definition in the loop body", v.0)),
                },
                _ => s,
            };
            if let Source::Node { node, distance } = s {
                g.add_flow(m, node, n, distance);
                let e = max_distance.entry(node).or_insert(0);
                *e = (*e).max(distance);
            }
        }
    }
    // Phi values also need resolving (live-outs, remainder entry).
    for &(dst, _, next) in &phis {
        let s = resolve(dst)?;
        sources.insert(dst, s);
        sources.insert(next, resolve(next)?);
    }
    // A phi read after the loop is the value of the iteration `distance`
    // before the last: its register must not be reused by the iterations
    // after it (`x = x << 1 | b; return x >> 1` read the last value).
    let outside = used_outside(m, f, l);
    for &(dst, _, _) in &phis {
        if let (true, Some(Source::Node { node, distance })) = (outside.contains(&dst), sources.get(&dst).copied()) {
            let e = max_distance.entry(node).or_insert(0);
            *e = (*e).max(distance + 1);
        }
    }
    // Memory dependences.
    let mut amap = AffineMap::new(m, f, l);
    let mut accesses: Vec<(NodeId, bool, bool, Option<Affine>, Option<u32>)> = Vec::new();
    // The identified object of each access (see dsp_mir::MemObject).
    let mut objects: Vec<Option<dsp_mir::MemObject>> = Vec::new();
    for &(i, n) in &order {
        let Some((rd, wr, base, off, size)) = mem_of(m, &body[i]) else { continue };
        if let InstKind::Machine { instr, ops, .. } = &body[i].kind {
            // A reload of an invariant: its slot is not written in the loop.
            if crate::reload::is_private_slot_load(m, f, *instr, ops) {
                continue;
            }
        }
        let addr = match (base, off) {
            (Some(b), Some(o)) => {
                let ab = operand_affine(&mut amap, m, b);
                let ao = operand_affine(&mut amap, m, o);
                match (ab, ao) {
                    (Some(a), Some(b)) => Some(a.add_pub(&b)),
                    _ => None,
                }
            }
            _ => None,
        };
        accesses.push((n, rd, wr, addr, size));
        objects.push(body[i].object);
    }
    let limit = 1 << 20;
    // A loop marked independent: no memory dependence reaches a later iteration.
    let independent = f.block(l).independent;
    let mut groups: Vec<Vec<Access>> = Vec::new();
    let mut group_of: Vec<Option<usize>> = vec![None; accesses.len()];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for x in 0..accesses.len() {
        for y in x + 1..accesses.len() {
            match (objects[x], objects[y]) {
                // Different identified objects never overlap.
                (Some(oa), Some(ob)) if oa != ob => continue,
                // The compiler's own slots overlap nothing of the program's.
                (Some(o), None) | (None, Some(o)) if o.is_private() => continue,
                _ => {}
            }
            let (a, ard, awr, aaddr, asz) = &accesses[x];
            let (b, brd, bwr, baddr, bsz) = &accesses[y];
            if !awr && !bwr {
                continue;
            }
            // A store's bytes are visible one cycle after it issues; a store
            // after a load may issue in the load's cycle.
            let delay = |from_writes: bool, _to_writes: bool| -> i32 { i32::from(from_writes) };
            let _ = (ard, brd);
            match (aaddr, baddr, asz, bsz) {
                (Some(pa), Some(pb), Some(za), Some(zb)) if pa.same_base(pb) => {
                    let s = pa.coef;
                    let (oa, ob, za, zb) = (pa.offset, pb.offset, *za as i64, *zb as i64);
                    // a(i) → b(i+d), d ≥ 0: oa - ob - zb < s·d < oa - ob + za.
                    if let Some(d) = min_distance(s, oa - ob - zb, oa - ob + za, 0, limit).filter(|&d| d == 0 || !independent) {
                        g.add_edge(*a, *b, delay(*awr, *bwr), d as u32, DepKind::Memory);
                    }
                    // b(i) → a(i+d), d ≥ 1.
                    if independent {
                        continue;
                    }
                    if let Some(d) = min_distance(s, ob - oa - za, ob - oa + zb, 1, limit) {
                        g.add_edge(*b, *a, delay(*bwr, *awr), d as u32, DepKind::Memory);
                    }
                }
                _ if independent => {
                    // Only the order within an iteration.
                    g.add_edge(*a, *b, delay(*awr, *bwr), 0, DepKind::Memory);
                }
                (Some(pa), Some(pb), Some(za), Some(zb)) => {
                    // Different bases: checked at run time.
                    let mut gid = |k: usize, addr: &Affine, size: u32, writes: bool, groups: &mut Vec<Vec<Access>>| -> usize {
                        if let Some(gi) = group_of[k] {
                            return gi;
                        }
                        let gi = groups.iter().position(|gr| gr[0].addr.terms == addr.terms).unwrap_or_else(|| {
                            groups.push(Vec::new());
                            groups.len() - 1
                        });
                        groups[gi].push(Access { addr: addr.clone(), size, writes });
                        group_of[k] = Some(gi);
                        gi
                    };
                    let ga = gid(x, pa, *za, *awr, &mut groups);
                    let gb = gid(y, pb, *zb, *bwr, &mut groups);
                    if ga == gb {
                        // Same invariant terms but different strides: be safe.
                        g.add_edge(*a, *b, delay(*awr, *bwr), 0, DepKind::Memory);
                        g.add_edge(*b, *a, delay(*bwr, *awr), 1, DepKind::Memory);
                    } else {
                        let p = (ga.min(gb), ga.max(gb));
                        if !pairs.contains(&p) {
                            pairs.push(p);
                        }
                    }
                }
                _ => {
                    g.add_edge(*a, *b, delay(*awr, *bwr), 0, DepKind::Memory);
                    g.add_edge(*b, *a, delay(*bwr, *awr), 1, DepKind::Memory);
                }
            }
        }
    }
    // Loop control.
    let delay_slots = m.control.delay_slots;
    let dec = g.add_node(Node { instr: ctl.dec, reads: vec![(ctl.int_file, 1)], writes: Some(ctl.int_file), name: "loop.dec".into(), pinned_row: None });
    kinds.push(NodeKind::Dec);
    g.add_flow(m, dec, dec, 1);
    let (tested, test_file) = match ctl.test {
        Some(instr) => {
            let test = g.add_node(Node { instr, reads: vec![(ctl.int_file, 1)], writes: Some(ctl.pred_file), name: "loop.test".into(), pinned_row: None });
            kinds.push(NodeKind::Test);
            g.add_flow(m, dec, test, 0);
            g.add_edge(test, dec, 0, 1, DepKind::Control);
            (test, ctl.pred_file)
        }
        None => (dec, ctl.int_file),
    };
    let br = g.add_node(Node {
        instr: ctl.branch,
        reads: vec![(test_file, 1)],
        writes: None,
        name: "loop.br".into(),
        pinned_row: Some(PinnedRow { from_end: delay_slots }),
    });
    kinds.push(NodeKind::Branch);
    g.add_flow(m, tested, br, 0);
    g.add_edge(br, tested, 0, 1, DepKind::Control);
    Ok(LoopDdg { graph: g, kinds, node_of_inst, sources, phis, alias_groups: groups, alias_pairs: pairs, max_distance })
}

/// The virtual registers read outside block `l` (instructions, phis and
/// terminators of every other block).
fn used_outside(m: &Machine, f: &Function, l: dsp_mir::Block) -> std::collections::HashSet<VReg> {
    let mut out = std::collections::HashSet::new();
    for (b, data) in f.blocks.iter().enumerate() {
        if b == l.0 as usize {
            continue;
        }
        for inst in &data.insts {
            if let InstKind::Phi { incoming, .. } = &inst.kind {
                out.extend(incoming.iter().filter_map(|(_, r)| if let Reg::Virt(v) = r { Some(*v) } else { None }));
                continue;
            }
            out.extend(dsp_mir::uses_defs(m, inst).0.into_iter().filter_map(|r| if let Reg::Virt(v) = r { Some(v) } else { None }));
        }
        if let dsp_mir::Terminator::Branch { cond: Reg::Virt(v), .. } | dsp_mir::Terminator::IndirectJump { target: Reg::Virt(v), .. } = &data.term {
            out.insert(*v);
        }
    }
    out
}

fn operand_affine(amap: &mut AffineMap, m: &Machine, o: &Operand) -> Option<Affine> {
    match o {
        Operand::Imm(c) => Some(Affine { terms: Default::default(), coef: 0, offset: *c }),
        Operand::Reg(Reg::Virt(v)) => amap.value(*v, 0),
        Operand::Reg(Reg::Phys(p)) if m.special(*p) == Some(SpecialKind::Zero) => {
            Some(Affine { terms: Default::default(), coef: 0, offset: 0 })
        }
        _ => None,
    }
}
