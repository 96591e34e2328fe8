//! If-conversion of innermost loop bodies, so that loops with if-then-else
//! bodies reach the modulo scheduler as single-block loops. Seed 000's
//! introduction: "loops with conditionals can be handled after
//! if-conversion [1] when the processor supports predicated execution", and
//! its production-compiler section: the target (like ours) has a fully
//! predicated instruction set and a `select` on a predicate. The conversion
//! follows Allen, Kennedy, Porterfield and Warren's [1] in the
//! "speculate and select" form LLVM's and most VLIW compilers use:
//!
//! - the loop must be an acyclic region from the header to its single latch
//!   (the only block that branches back and the only block that leaves);
//! - blocks are taken in topological order; each gets a predicate: the
//!   header and every block control-equivalent to an earlier one (it
//!   post-dominates its immediate dominator) keep that block's predicate;
//!   any other block gets the OR over its incoming edges of the source's
//!   predicate AND the branch condition (or its negation), computed with the
//!   predicate file's and/or/not instructions found by their semantics;
//! - instructions of conditional blocks that cannot fault and have no side
//!   effect run unconditionally on their SSA values; stores get the block's
//!   predicate as a guard (in program order: the block order is kept);
//!   loads run unconditionally too when the same address is accessed
//!   unconditionally in the loop (or is a stack object); any other load gets
//!   the block's predicate as a guard, with its result undefined where the
//!   guard is false ([`Guard::undef_when_false`]: a masked load, not a
//!   read of its old value), so it cannot fault, and its value on the other
//!   path is dropped by the selects and guards below; integer divisions,
//!   calls and system calls stop the conversion with a reason;
//! - the phis of join blocks become `select`s over the incoming edges'
//!   predicates (a file without a select on a predicate stops the
//!   conversion; predicates themselves are selected with and/or);
//! - the merged block is the header: its phis, the instructions, the latch's
//!   terminator (counter test and back branch last). Other blocks of the loop
//!   are removed and every reference renumbered.
//!
//! The only guarded definitions are those conditional loads, and their
//! results are undefined where the guard is false, so they read nothing but
//! their address and guard (the pipeliner rejects guarded definitions that
//! keep an old value).

use std::collections::{HashMap, HashSet};

use dsp_mir::builder::sem_inst;
use dsp_mir::{Block, Function, Guard, Inst, InstKind, InstrId, Machine, Operand, PReg, Reg, RegFileId, Terminator};
use isa_tablegen::{ArgPat, OperandKind, SemOp, SpecialKind, Ty, Want};

use crate::candidate::{innermost_loops, predecessors, Innermost};

/// If-converts every innermost loop with more than one block. Returns, per
/// such loop (by its header, numbered as in `f` afterwards), the number of
/// blocks merged into the header or the reason the loop was left alone.
pub fn if_convert_loops(m: &Machine, f: &mut Function) -> Vec<(Block, Result<usize, String>)> {
    let loops = innermost_loops(m, f);
    let mut results = Vec::new();
    let mut dead: HashSet<Block> = HashSet::new();
    for lp in loops.iter().filter(|l| l.blocks.len() > 1) {
        let r = convert_loop(m, f, lp.header, &lp.blocks);
        if r.is_ok() {
            dead.extend(lp.blocks.iter().copied().filter(|&b| b != lp.header));
        }
        results.push((lp.header, r));
    }
    if !dead.is_empty() {
        let map = remove_blocks(f, &dead);
        for (h, _) in &mut results {
            *h = map[h.0 as usize].unwrap_or(*h);
        }
    }
    results
}

/// If-converts `f`'s loops ([`if_convert_loops`]), then lists its innermost
/// loops as [`innermost_loops`] does; a loop left with several blocks says
/// why it was not converted.
pub fn convert_and_find_loops(m: &Machine, f: &mut Function) -> Vec<Innermost> {
    let conv = if_convert_loops(m, f);
    let mut loops = innermost_loops(m, f);
    for lp in &mut loops {
        if let (Err(why), Some((_, Err(r)))) = (&mut lp.verdict, conv.iter().find(|(h, _)| *h == lp.header)) {
            *why = format!("loop body has {} blocks (not if-converted: {r})", lp.blocks.len());
        }
    }
    loops
}

/// A predicate value: `reg`, or its negation. Guards and selects take either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lit {
    reg: Reg,
    neg: bool,
}

impl Lit {
    fn not(self) -> Lit {
        Lit { reg: self.reg, neg: !self.neg }
    }
}

/// A block's or an edge's predicate; `None` is "always".
type Pred = Option<Lit>;

/// The predicate file's logic instructions.
struct PredOps {
    file: RegFileId,
    and: InstrId,
    or: InstrId,
    /// `not`, or `xor` with the file's always-true register.
    not: Option<(InstrId, Option<PReg>)>,
}

/// The cheapest instruction `op` over `n` registers of `file` into `file`, of any type.
fn logic_op(m: &Machine, op: SemOp, file: RegFileId, n: usize) -> Option<InstrId> {
    let args = vec![ArgPat::Reg(file); n];
    std::iter::once(None)
        .chain(Ty::ALL.iter().map(|&t| Some(t)))
        .filter_map(|ty| m.find_instr(&Want { op, ty, ty2: None, dst: Some(file), args: &args }))
        .min_by_key(|&id| (m.instr(id).cost, id.0))
}

impl PredOps {
    fn find(m: &Machine) -> Result<PredOps, String> {
        let file = m.predicate_file().ok_or("the machine has no predicate registers")?;
        let name = &m.regfile(file).name;
        let and = logic_op(m, SemOp::And, file, 2)
            .ok_or_else(|| format!("the machine has no 'and' of predicates (file '{name}')"))?;
        let or = logic_op(m, SemOp::Or, file, 2)
            .ok_or_else(|| format!("the machine has no 'or' of predicates (file '{name}')"))?;
        let not = logic_op(m, SemOp::Not, file, 1).map(|id| (id, None)).or_else(|| {
            let t = (0..m.regfile(file).count)
                .map(|index| PReg { file, index })
                .find(|&r| m.special(r) == Some(SpecialKind::True))?;
            logic_op(m, SemOp::Xor, file, 2).map(|id| (id, Some(t)))
        });
        Ok(PredOps { file, and, or, not })
    }
}

/// The select of a register file on a predicate: `d = select(p, a, b)`.
fn select_instr(m: &Machine, file: RegFileId, pred: RegFileId) -> Option<InstrId> {
    m.instrs
        .iter()
        .enumerate()
        .filter(|(_, ins)| {
            let s = &ins.sem;
            let reg = |i: usize, f: RegFileId| ins.operands[i].kind == OperandKind::Reg(f);
            s.op == SemOp::Select
                && s.args.len() == 3
                && s.dst.is_some_and(|d| reg(d.0, file))
                && reg(s.args[0].0, pred)
                && reg(s.args[1].0, file)
                && reg(s.args[2].0, file)
        })
        .min_by_key(|(i, ins)| (ins.cost, *i))
        .map(|(i, _)| InstrId(i as u16))
}

/// Emits the instructions of the merged block.
struct Emitter<'a> {
    m: &'a Machine,
    ops: &'a PredOps,
    out: Vec<Inst>,
}

impl Emitter<'_> {
    fn logic(&mut self, f: &mut Function, id: InstrId, args: &[Reg]) -> Reg {
        let d = Reg::Virt(f.new_vreg(self.ops.file));
        let args: Vec<Operand> = args.iter().map(|&r| Operand::Reg(r)).collect();
        self.out.push(sem_inst(self.m, id, Some(Operand::Reg(d)), &args, None));
        d
    }

    /// A register holding the literal's value (a `not` when negated).
    fn positive(&mut self, f: &mut Function, l: Lit) -> Result<Reg, String> {
        if !l.neg {
            return Ok(l.reg);
        }
        match self.ops.not {
            Some((id, None)) => Ok(self.logic(f, id, &[l.reg])),
            Some((id, Some(t))) => Ok(self.logic(f, id, &[l.reg, Reg::Phys(t)])),
            None => Err("the machine cannot negate a predicate (no 'not', no 'xor' with a true register)".into()),
        }
    }

    /// `a AND b`, using De Morgan to fold negations: `!a & !b = !(a | b)`.
    fn and(&mut self, f: &mut Function, a: Lit, b: Lit) -> Result<Lit, String> {
        if a == b {
            return Ok(a);
        }
        let (and, or) = (self.ops.and, self.ops.or);
        Ok(match (a.neg, b.neg) {
            (false, false) => Lit { reg: self.logic(f, and, &[a.reg, b.reg]), neg: false },
            (true, true) => Lit { reg: self.logic(f, or, &[a.reg, b.reg]), neg: true },
            _ => {
                let (p, n) = if a.neg { (b, a) } else { (a, b) };
                let nr = self.positive(f, n)?;
                Lit { reg: self.logic(f, and, &[p.reg, nr]), neg: false }
            }
        })
    }

    /// `a OR b`: `!a | !b = !(a & b)`; `a | !a` is always true.
    fn or(&mut self, f: &mut Function, a: Lit, b: Lit) -> Result<Pred, String> {
        if a == b {
            return Ok(Some(a));
        }
        if a == b.not() {
            return Ok(None);
        }
        Ok(Some(self.and(f, a.not(), b.not())?.not()))
    }

    fn and_pred(&mut self, f: &mut Function, p: Pred, c: Lit) -> Result<Lit, String> {
        match p {
            None => Ok(c),
            Some(p) => self.and(f, p, c),
        }
    }
}

/// Dominator sets over the acyclic region, by topological position:
/// `dom[i]` holds the positions dominating position `i` (itself included).
fn dominator_sets(preds: &[Vec<usize>]) -> Vec<HashSet<usize>> {
    let mut dom: Vec<HashSet<usize>> = Vec::with_capacity(preds.len());
    for (i, ps) in preds.iter().enumerate() {
        let mut s: Option<HashSet<usize>> = None;
        for &p in ps {
            s = Some(match s {
                None => dom[p].clone(),
                Some(s) => s.intersection(&dom[p]).copied().collect(),
            });
        }
        let mut s = s.unwrap_or_default();
        s.insert(i);
        dom.push(s);
    }
    dom
}

/// Whether position `a` is on every path from `from` to the last position
/// (the latch), in the region's successor lists.
fn on_every_path(succs: &[Vec<usize>], from: usize, a: usize) -> bool {
    if a == from {
        return true;
    }
    let last = succs.len() - 1;
    let mut seen = vec![false; succs.len()];
    let mut work = vec![from];
    seen[from] = true;
    while let Some(x) = work.pop() {
        if x == last {
            return false;
        }
        for &s in &succs[x] {
            if s != a && !seen[s] {
                seen[s] = true;
                work.push(s);
            }
        }
    }
    true
}

/// The region's blocks in topological order (ties by block number), with the
/// latch last, or why the loop is not an acyclic region with one latch.
fn region_order(f: &Function, header: Block, blocks: &[Block]) -> Result<(Vec<Block>, Block, Block), String> {
    let inside: HashSet<Block> = blocks.iter().copied().collect();
    let mut latches = Vec::new();
    let mut exits: Vec<(Block, Block)> = Vec::new();
    for &b in blocks {
        let data = f.block(b);
        if data.fixed.is_some() {
            return Err("the loop has a block with a fixed schedule".into());
        }
        if f.address_taken.contains(&b) {
            return Err("the loop has a block whose address is taken (computed goto)".into());
        }
        match &data.term {
            Terminator::Jump(_) | Terminator::Branch { .. } => {}
            Terminator::IndirectJump { .. } => return Err("the loop contains an indirect jump".into()),
            Terminator::Return { .. } => return Err("the loop contains a return (an early exit)".into()),
            Terminator::Unreachable => return Err("the loop contains an unreachable end".into()),
        }
        for s in data.term.successors() {
            if s == header {
                if !latches.contains(&b) {
                    latches.push(b);
                }
            } else if !inside.contains(&s) && !exits.contains(&(b, s)) {
                exits.push((b, s));
            }
        }
    }
    let latch = match latches.as_slice() {
        [l] => *l,
        _ => return Err(format!("the loop has {} back edges (blocks branching to the header)", latches.len())),
    };
    if exits.iter().any(|&(b, _)| b != latch) {
        return Err("the loop has an early exit (a block other than the latch leaves the loop)".into());
    }
    let exit = match exits.as_slice() {
        [(_, e)] => *e,
        [] => return Err("the loop has no exit".into()),
        _ => return Err("the latch leaves the loop to several blocks".into()),
    };
    // Entries: only the header has predecessors outside.
    let preds = predecessors(f);
    for &b in blocks {
        if b != header && preds[b.0 as usize].iter().any(|p| !inside.contains(p)) {
            return Err("the loop is entered other than through its header".into());
        }
    }
    // Kahn's algorithm over the region without the back edge.
    let mut indeg: HashMap<Block, usize> = blocks.iter().map(|&b| (b, 0)).collect();
    for &b in blocks {
        let mut succ = f.block(b).term.successors();
        succ.sort();
        succ.dedup();
        for s in succ {
            if s != header && inside.contains(&s) {
                *indeg.entry(s).or_insert(0) += 1;
            }
        }
    }
    let mut ready: Vec<Block> = vec![header];
    let mut order = Vec::new();
    while let Some(pos) = ready.iter().enumerate().min_by_key(|(_, b)| **b).map(|(i, _)| i) {
        let b = ready.swap_remove(pos);
        order.push(b);
        let mut succ = f.block(b).term.successors();
        succ.sort();
        succ.dedup();
        for s in succ {
            if s == header || !inside.contains(&s) {
                continue;
            }
            let d = indeg.entry(s).or_insert(1);
            *d -= 1;
            if *d == 0 {
                ready.push(s);
            }
        }
    }
    if order.len() != blocks.len() {
        return Err("the loop body has a cycle that does not pass through the header (irreducible control flow)".into());
    }
    if order.last() != Some(&latch) {
        return Err("the latch does not end every path through the loop body".into());
    }
    Ok((order, latch, exit))
}

/// Bytes and alignment class of a contiguous access, for matching a
/// conditional load with an unconditional access of the same address.
fn access_shape(m: &Machine, instr: InstrId) -> Option<(u8, u32)> {
    let ins = m.instr(instr);
    let sem = &ins.sem;
    let data = if sem.reads_memory() { sem.dst } else { sem.args.get(2).copied() };
    // Bytes touched: a vector access of a narrower type (vldh, vsth) reads
    // or writes lanes × the type's bytes, not the whole register.
    let width = |d: Option<isa_tablegen::sem::OperandRef>| match d.map(|d| ins.operands[d.0].kind) {
        Some(OperandKind::Reg(file)) => {
            let f = m.regfile(file);
            Some(match (f.lanes, sem.ty) {
                (Some(l), Some(t)) => l.count * t.bits() / 8,
                _ => f.width / 8,
            })
        }
        _ => None,
    };
    match sem.op {
        SemOp::Load | SemOp::Store => Some((0, sem.ty?.bits().div_ceil(8))),
        SemOp::VLoad | SemOp::VStore => Some((1, width(data)?)),
        SemOp::VLoadU | SemOp::VStoreU => Some((2, width(data)?)),
        _ => None,
    }
}

/// An address accessed unguarded in every iteration: (base, offset)
/// operands and the access's shape.
type SafeAccess = ((Operand, Operand), (u8, u32));

/// The (base, offset) operands of a contiguous access.
fn address(m: &Machine, instr: InstrId, ops: &[Operand]) -> Option<(Operand, Operand)> {
    let sem = &m.instr(instr).sem;
    Some((ops.get(sem.args.first()?.0)?.clone(), ops.get(sem.args.get(1)?.0)?.clone()))
}

/// Converts one loop in place: the header becomes the merged block; the
/// other blocks are left unreachable (the caller removes them). On failure
/// `f` is unchanged.
fn convert_loop(m: &Machine, f: &mut Function, header: Block, blocks: &[Block]) -> Result<usize, String> {
    let (vregs, frame) = (f.vregs.len(), f.frame.len());
    let r = try_convert(m, f, header, blocks);
    if r.is_err() {
        f.vregs.truncate(vregs);
        f.frame.truncate(frame);
    }
    r
}

fn try_convert(m: &Machine, f: &mut Function, header: Block, blocks: &[Block]) -> Result<usize, String> {
    let (order, latch, exit) = region_order(f, header, blocks)?;
    let n = order.len();
    let pos: HashMap<Block, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut rpreds: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut rsuccs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, &b) in order.iter().enumerate() {
        let mut succ = f.block(b).term.successors();
        succ.sort();
        succ.dedup();
        for s in succ {
            if let Some(&j) = pos.get(&s) {
                if s != header {
                    rsuccs[i].push(j);
                    rpreds[j].push(i);
                }
            }
        }
    }
    let dom = dominator_sets(&rpreds);
    // Blocks executed in every iteration: on every path header → latch.
    let always: Vec<bool> = (0..n).map(|i| on_every_path(&rsuccs, 0, i)).collect();

    // Check every instruction before changing anything. A register defined
    // in two blocks (not SSA: tied operands are redefined within one block)
    // would be clobbered by speculation.
    let mut def_block: HashMap<dsp_mir::VReg, Block> = HashMap::new();
    for &b in &order {
        for inst in &f.block(b).insts {
            if let Some(v) = crate::candidate::def_of(m, &inst.kind) {
                if *def_block.entry(v).or_insert(b) != b {
                    return Err(format!("register %{} is defined in two blocks of the loop", v.0));
                }
            }
            match &inst.kind {
                InstKind::Call { .. } => return Err("the loop contains a call".into()),
                InstKind::Machine { instr, .. } => {
                    let sem = &m.instr(*instr).sem;
                    if sem.op == SemOp::Syscall || sem.is_branch() {
                        return Err("the loop contains a system call or a branch instruction".into());
                    }
                }
                _ => {}
            }
        }
    }
    let ops = PredOps::find(m)?;
    // Addresses accessed in every iteration, unguarded (loads of them may be speculated).
    let mut safe: Vec<SafeAccess> = Vec::new();
    for (i, &b) in order.iter().enumerate() {
        if !always[i] {
            continue;
        }
        for inst in &f.block(b).insts {
            if let InstKind::Machine { instr, guard: None, ops } = &inst.kind {
                if let (Some(a), Some(s)) = (address(m, *instr, ops), access_shape(m, *instr)) {
                    safe.push((a, s));
                }
            }
        }
    }

    let mut em = Emitter { m, ops: &ops, out: Vec::new() };
    let mut pred: Vec<Pred> = vec![None; n];
    let mut edge_memo: HashMap<(usize, usize), Pred> = HashMap::new();
    // The header's phis first.
    for inst in &f.block(header).insts {
        if matches!(inst.kind, InstKind::Phi { .. }) {
            em.out.push(inst.clone());
        }
    }
    for (i, &b) in order.iter().enumerate() {
        // The block's predicate.
        if i > 0 {
            let idom = dom[i].iter().copied().filter(|&d| d != i).max().unwrap_or(0);
            pred[i] = if always[i] || on_every_path(&rsuccs, idom, i) {
                pred[idom]
            } else {
                let mut acc: Option<Pred> = None;
                for &p in &rpreds[i] {
                    let e = edge_pred(&mut em, f, &order, &pred, &mut edge_memo, p, i)?;
                    acc = Some(match (acc, e) {
                        (None, e) => e,
                        (Some(None), _) | (Some(_), None) => None,
                        (Some(Some(a)), Some(e)) => em.or(f, a, e)?,
                    });
                }
                acc.flatten()
            };
        }
        let p = pred[i];
        let insts = f.block(b).insts.clone();
        for inst in insts {
            match &inst.kind {
                InstKind::Phi { dst, incoming } => {
                    if i == 0 {
                        continue;
                    }
                    let mut inc: Vec<(Pred, Reg)> = Vec::new();
                    for (from, r) in incoming {
                        let j = pos.get(from).copied().filter(|&j| j < i).ok_or("a phi has a value from outside the loop body")?;
                        inc.push((edge_pred(&mut em, f, &order, &pred, &mut edge_memo, j, i)?, *r));
                    }
                    let mut sel = select_phi(&mut em, f, *dst, &inc)?;
                    for s in &mut sel {
                        s.loc = inst.loc.clone();
                    }
                    em.out.extend(sel);
                }
                InstKind::Call { .. } => return Err("the loop contains a call".into()),
                InstKind::Copy { dst, .. } => {
                    if p.is_some() && matches!(dst, Reg::Phys(_)) {
                        return Err("a conditional block writes a physical register".into());
                    }
                    em.out.push(inst);
                }
                InstKind::Machine { .. } => match p {
                    None => em.out.push(inst),
                    Some(lit) => em.out.push(predicate(m, inst, lit, &safe)?),
                },
            }
        }
    }
    // The merged block: header id, latch's terminator with the back edge to itself.
    let mut term = f.block(latch).term.clone();
    retarget(&mut term, latch, header);
    let merged = std::mem::take(&mut em.out);
    for &b in &order[1..] {
        let data = f.block_mut(b);
        data.insts.clear();
        data.term = Terminator::Unreachable;
    }
    let h = f.block_mut(header);
    h.insts = merged;
    h.term = term;
    // Phis naming the latch (the header's own, the exit's) now name the header.
    for b in [header, exit] {
        for inst in &mut f.block_mut(b).insts {
            if let InstKind::Phi { incoming, .. } = &mut inst.kind {
                for (from, _) in incoming.iter_mut() {
                    if *from == latch {
                        *from = header;
                    }
                }
            }
        }
    }
    Ok(n)
}

/// A machine instruction of a block executed under `lit`: a store gets the
/// guard, and so does a load of an address not known to be safe (its result
/// undefined where the guard is false); anything else runs unconditionally
/// if it cannot fault and has no effect but its SSA result, else the loop is
/// not converted.
fn predicate(m: &Machine, mut inst: Inst, lit: Lit, safe: &[SafeAccess]) -> Result<Inst, String> {
    let InstKind::Machine { instr, guard, ops } = &mut inst.kind else { return Ok(inst) };
    let sem = &m.instr(*instr).sem;
    let what = &m.instr(*instr).mnemonic;
    if guard.is_some() {
        return Err(format!("an instruction of a conditional block is already guarded ('{what}')"));
    }
    if sem.dst.is_some_and(|d| matches!(ops.get(d.0), Some(Operand::Reg(Reg::Phys(_))))) {
        return Err(format!("a conditional block writes a physical register ('{what}')"));
    }
    if sem.writes_memory() {
        *guard = Some(Guard::new(lit.reg, lit.neg));
        return Ok(inst);
    }
    if sem.reads_memory() {
        let frame = ops.iter().any(|o| matches!(o, Operand::Frame { .. }));
        let same = match (address(m, *instr, ops), access_shape(m, *instr)) {
            (Some(a), Some(s)) => safe.iter().any(|(sa, ss)| *sa == a && ss.0 == s.0 && ss.1 >= s.1),
            _ => false,
        };
        if !frame && !same {
            // Guarded, its result undefined where the block does not run.
            *guard = Some(Guard { reg: lit.reg, negate: lit.neg, undef_when_false: true });
            return Ok(inst);
        }
    }
    if matches!(sem.op, SemOp::Div | SemOp::Rem) && !sem.ty.is_some_and(|t| t.is_float()) {
        return Err(format!("conditional integer division cannot run speculatively ('{what}' faults on zero)"));
    }
    Ok(inst)
}

fn retarget(t: &mut Terminator, from: Block, to: Block) {
    match t {
        Terminator::Jump(b) if *b == from => *b = to,
        Terminator::Branch { taken, not_taken, .. } => {
            if *taken == from {
                *taken = to;
            }
            if *not_taken == from {
                *not_taken = to;
            }
        }
        _ => {}
    }
}

/// The predicate of the region edge from position `p` to position `s`.
fn edge_pred(
    em: &mut Emitter,
    f: &mut Function,
    order: &[Block],
    pred: &[Pred],
    memo: &mut HashMap<(usize, usize), Pred>,
    p: usize,
    s: usize,
) -> Result<Pred, String> {
    if let Some(&e) = memo.get(&(p, s)) {
        return Ok(e);
    }
    let e = match f.block(order[p]).term.clone() {
        Terminator::Branch { cond, negate, taken, not_taken } if taken != not_taken => {
            if f.reg_file(cond) != em.ops.file {
                return Err("a branch condition is not a predicate register".into());
            }
            let lit = Lit { reg: cond, neg: negate ^ (order[s] == not_taken) };
            Some(em.and_pred(f, pred[p], lit)?)
        }
        _ => pred[p],
    };
    memo.insert((p, s), e);
    Ok(e)
}

/// Instructions computing a join's phi from its incoming (edge predicate,
/// value) pairs: a chain of selects ending in `dst`.
fn select_phi(em: &mut Emitter, f: &mut Function, dst: dsp_mir::VReg, inc: &[(Pred, Reg)]) -> Result<Vec<Inst>, String> {
    let file = f.vreg_file(dst);
    // An edge taken in every iteration decides alone.
    if let Some(&(_, r)) = inc.iter().find(|(p, _)| p.is_none()) {
        return Ok(vec![Inst::new(InstKind::Copy { dst: Reg::Virt(dst), src: r })]);
    }
    let Some((&(_, last), rest)) = inc.split_last() else {
        return Err("a phi without incoming values".into());
    };
    if rest.is_empty() {
        return Ok(vec![Inst::new(InstKind::Copy { dst: Reg::Virt(dst), src: last })]);
    }
    let start = em.out.len();
    let mut v = last;
    for (k, &(p, r)) in rest.iter().enumerate().rev() {
        let Some(lit) = p else { return Err("internal error: an edge taken in every iteration".into()) };
        let d = if k == 0 { Reg::Virt(dst) } else { Reg::Virt(f.new_vreg(file)) };
        let (a, b) = if lit.neg { (v, r) } else { (r, v) };
        if file == em.ops.file {
            // Predicates: d = (c & a) | (!c & b), by the literal algebra.
            let c = Lit { reg: lit.reg, neg: false };
            let x = em.and(f, c, Lit { reg: a, neg: false })?;
            let y = em.and(f, c.not(), Lit { reg: b, neg: false })?;
            let z = match em.or(f, x, y)? {
                Some(z) => em.positive(f, z)?,
                None => return Err("internal error: a predicate select folded to true".into()),
            };
            em.out.push(Inst::new(InstKind::Copy { dst: d, src: z }));
        } else {
            let sel = select_instr(em.m, file, em.ops.file).ok_or_else(|| {
                format!("the machine has no select on a predicate for register file '{}'", em.m.regfile(file).name)
            })?;
            let args = [Operand::Reg(lit.reg), Operand::Reg(a), Operand::Reg(b)];
            em.out.push(sem_inst(em.m, sel, Some(Operand::Reg(d)), &args, None));
        }
        v = d;
    }
    Ok(em.out.split_off(start))
}

/// Removes blocks (unreachable ones the conversion left) and renumbers every
/// reference; returns the new number of each old block.
fn remove_blocks(f: &mut Function, dead: &HashSet<Block>) -> Vec<Option<Block>> {
    let mut map = Vec::with_capacity(f.blocks.len());
    let mut next = 0u32;
    for b in 0..f.blocks.len() {
        if dead.contains(&Block(b as u32)) {
            map.push(None);
        } else {
            map.push(Some(Block(next)));
            next += 1;
        }
    }
    let old = std::mem::take(&mut f.blocks);
    let re = |b: &mut Block| {
        if let Some(n) = map[b.0 as usize] {
            *b = n;
        }
    };
    for (b, mut data) in old.into_iter().enumerate() {
        if map[b].is_none() {
            continue;
        }
        match &mut data.term {
            Terminator::Jump(t) => re(t),
            Terminator::Branch { taken, not_taken, .. } => {
                re(taken);
                re(not_taken);
            }
            Terminator::IndirectJump { targets, .. } => targets.iter_mut().for_each(re),
            _ => {}
        }
        for inst in &mut data.insts {
            if let InstKind::Phi { incoming, .. } = &mut inst.kind {
                for (from, _) in incoming.iter_mut() {
                    re(from);
                }
            }
        }
        f.blocks.push(data);
    }
    map
}

#[cfg(test)]
mod tests;
