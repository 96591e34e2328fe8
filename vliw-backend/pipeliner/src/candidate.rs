//! Which loops can be pipelined: every innermost loop of the function is
//! found (natural loops of the back edges), and a loop is a candidate when
//! its body is one block that branches back to itself, entered from one
//! preheader, with no calls, system calls or guarded definitions that keep
//! an old value (if-conversion's masked loads are fine), and
//! counted: the counter form LLVM's hardware-loops pass gives every loop
//! whose trip count it can compute (`c = phi [tc, pre], [c', L]`,
//! `c' = c - 1`, `p = c' != 0`, branch back on `p`). Everything else gets
//! the reason it is not pipelined, for the reports.

use std::collections::HashSet;

use dsp_mir::{Block, Function, InstKind, Machine, Operand, Reg, Terminator, VReg};
use isa_tablegen::SemOp;

/// A loop the pipeliner can transform.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub block: Block,
    pub preheader: Block,
    pub exit: Block,
    /// The trip count at entry (≥ 1: the loop body runs at least once).
    pub trip_count: VReg,
    /// Instructions of the counter (decrement and test), left out of the body.
    pub counter_insts: Vec<usize>,
    /// The counter phi, its decremented value and the test.
    pub counter: VReg,
    pub counter_next: VReg,
    pub test: VReg,
}

/// An innermost loop and whether it is a candidate.
#[derive(Clone, Debug)]
pub struct Innermost {
    pub header: Block,
    pub blocks: Vec<Block>,
    pub verdict: Result<Candidate, String>,
}

pub fn predecessors(f: &Function) -> Vec<Vec<Block>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for (b, data) in f.blocks.iter().enumerate() {
        let mut succ = data.term.successors();
        succ.sort();
        succ.dedup();
        for s in succ {
            preds[s.0 as usize].push(Block(b as u32));
        }
    }
    preds
}

/// Immediate dominators (Cooper, Harvey and Kennedy's iterative algorithm);
/// `None` for unreachable blocks.
fn dominators(f: &Function, preds: &[Vec<Block>]) -> Vec<Option<usize>> {
    let n = f.blocks.len();
    // Reverse postorder.
    let mut order = Vec::new();
    let mut seen = vec![false; n];
    let mut stack = vec![(0usize, 0usize)];
    if n == 0 {
        return Vec::new();
    }
    seen[0] = true;
    while let Some((b, i)) = stack.pop() {
        let succ = f.blocks[b].term.successors();
        if i < succ.len() {
            stack.push((b, i + 1));
            let s = succ[i].0 as usize;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(b);
        }
    }
    order.reverse();
    let mut rpo = vec![usize::MAX; n];
    for (i, &b) in order.iter().enumerate() {
        rpo[b] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for p in &preds[b] {
                let p = p.0 as usize;
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut c = p;
                        while a != c {
                            while rpo[a] > rpo[c] {
                                a = idom[a].unwrap();
                            }
                            while rpo[c] > rpo[a] {
                                c = idom[c].unwrap();
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

fn dominates(idom: &[Option<usize>], a: usize, mut b: usize) -> bool {
    loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(p) if p != b => b = p,
            _ => return false,
        }
    }
}

/// Every innermost natural loop, with its verdict.
pub fn innermost_loops(m: &Machine, f: &Function) -> Vec<Innermost> {
    let preds = predecessors(f);
    let idom = dominators(f, &preds);
    // Natural loops by header (back edges b → h with h dominating b).
    let mut loops: Vec<(usize, HashSet<usize>)> = Vec::new();
    for (b, data) in f.blocks.iter().enumerate() {
        if idom.get(b).copied().flatten().is_none() {
            continue;
        }
        for s in data.term.successors() {
            let h = s.0 as usize;
            if !dominates(&idom, h, b) {
                continue;
            }
            let mut body: HashSet<usize> = HashSet::from([h]);
            let mut work = vec![b];
            while let Some(x) = work.pop() {
                if body.insert(x) {
                    work.extend(preds[x].iter().map(|p| p.0 as usize));
                }
            }
            match loops.iter_mut().find(|(hh, _)| *hh == h) {
                Some((_, set)) => set.extend(body),
                None => loops.push((h, body)),
            }
        }
    }
    let mut out = Vec::new();
    for (h, body) in &loops {
        let inner = loops.iter().any(|(h2, b2)| h2 != h && body.contains(h2) && b2.is_subset(body));
        if inner {
            continue;
        }
        let mut blocks: Vec<Block> = body.iter().map(|&b| Block(b as u32)).collect();
        blocks.sort();
        let verdict = if blocks.len() > 1 {
            Err(format!(
                "loop body has {} blocks (control flow that was not if-converted)",
                blocks.len()
            ))
        } else {
            candidate(m, f, &preds, Block(*h as u32))
        };
        out.push(Innermost { header: Block(*h as u32), blocks, verdict });
    }
    out.sort_by_key(|l| l.header);
    out
}

/// Where each virtual register is defined: (block, instruction index).
pub fn def_sites(m: &Machine, f: &Function) -> Vec<Option<(Block, usize)>> {
    let mut defs = vec![None; f.vregs.len()];
    for (b, data) in f.blocks.iter().enumerate() {
        for (i, inst) in data.insts.iter().enumerate() {
            if let Some(v) = def_of(m, &inst.kind) {
                defs[v.0 as usize] = Some((Block(b as u32), i));
            }
        }
    }
    defs
}

/// The vreg an instruction defines, if any.
pub fn def_of(m: &Machine, kind: &InstKind) -> Option<VReg> {
    match kind {
        InstKind::Machine { instr, ops, .. } => {
            let d = m.instr(*instr).sem.dst?;
            match ops.get(d.0) {
                Some(Operand::Reg(Reg::Virt(v))) => Some(*v),
                _ => None,
            }
        }
        InstKind::Copy { dst: Reg::Virt(v), .. } => Some(*v),
        InstKind::Phi { dst, .. } => Some(*dst),
        _ => None,
    }
}

fn candidate(m: &Machine, f: &Function, preds: &[Vec<Block>], l: Block) -> Result<Candidate, String> {
    let data = f.block(l);
    let Terminator::Branch { cond, negate, taken, not_taken } = data.term.clone() else {
        return Err("the loop does not end in a conditional branch".into());
    };
    let (back_on_true, exit) = if taken == l && not_taken != l {
        (true, not_taken)
    } else if not_taken == l && taken != l {
        (false, taken)
    } else {
        return Err("the loop branch does not leave the loop".into());
    };
    // The loop continues while `cond xor negate` equals back_on_true.
    let continue_if_true = back_on_true != negate;
    let outside: Vec<Block> = preds[l.0 as usize].iter().copied().filter(|&p| p != l).collect();
    if outside.len() != 1 {
        return Err(format!("the loop has {} entries", outside.len()));
    }
    let preheader = outside[0];
    if matches!(f.block(preheader).term, Terminator::IndirectJump { .. }) || f.address_taken.contains(&l) {
        return Err("the loop is entered by an indirect jump (computed goto)".into());
    }
    if data.insts.iter().any(|i| matches!(i.kind, InstKind::Call { .. })) {
        return Err("the loop contains a call".into());
    }
    for inst in &data.insts {
        match &inst.kind {
            InstKind::Call { .. } => return Err("the loop contains a call".into()),
            InstKind::Copy { dst: Reg::Phys(_), .. } => {
                return Err("the loop writes a physical register".into())
            }
            InstKind::Machine { instr, guard, ops } => {
                let sem = &m.instr(*instr).sem;
                if sem.op == SemOp::Syscall || sem.is_branch() {
                    return Err("the loop contains a system call or a branch".into());
                }
                if let Some(d) = sem.dst {
                    match ops.get(d.0) {
                        Some(Operand::Reg(Reg::Phys(_))) => {
                            return Err("the loop writes a physical register".into())
                        }
                        Some(Operand::Reg(Reg::Virt(_))) if guard.is_some_and(|g| g.keeps_old_value()) => {
                            return Err("the loop has a guarded definition".into())
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    let Reg::Virt(test) = cond else {
        return Err("the loop test is a physical register".into());
    };
    // Find the test: test = ne(c', 0) (continue on true) or eq(c', 0)
    // (continue on false).
    let find = |v: VReg| data.insts.iter().position(|i| def_of(m, &i.kind) == Some(v));
    let not_counted = || "trip count not computed at loop entry (not a counted loop)".to_string();
    let ti = find(test).ok_or_else(not_counted)?;
    let InstKind::Machine { instr, guard: None, ops } = &data.insts[ti].kind else {
        return Err(not_counted());
    };
    let sem = &m.instr(*instr).sem;
    let want = if continue_if_true { SemOp::Ne } else { SemOp::Eq };
    if sem.op != want || sem.args.len() != 2 {
        return Err(not_counted());
    }
    let a = &ops[sem.args[0].0];
    let b = &ops[sem.args[1].0];
    let is_zero = |o: &Operand| match o {
        Operand::Imm(0) => true,
        Operand::Reg(Reg::Phys(p)) => m.special(*p) == Some(isa_tablegen::SpecialKind::Zero),
        _ => false,
    };
    let next = match (a, b) {
        (Operand::Reg(Reg::Virt(v)), z) if is_zero(z) => *v,
        (z, Operand::Reg(Reg::Virt(v))) if is_zero(z) => *v,
        _ => return Err(not_counted()),
    };
    let di = find(next).ok_or_else(not_counted)?;
    let InstKind::Machine { instr, guard: None, ops } = &data.insts[di].kind else {
        return Err(not_counted());
    };
    let sem = &m.instr(*instr).sem;
    let counter = match (sem.op, sem.args.iter().map(|a| &ops[a.0]).collect::<Vec<_>>().as_slice()) {
        (SemOp::Add, [Operand::Reg(Reg::Virt(c)), Operand::Imm(-1)]) => *c,
        (SemOp::Add, [Operand::Imm(-1), Operand::Reg(Reg::Virt(c))]) => *c,
        (SemOp::Sub, [Operand::Reg(Reg::Virt(c)), Operand::Imm(1)]) => *c,
        _ => return Err(not_counted()),
    };
    let pi = find(counter).ok_or_else(not_counted)?;
    let InstKind::Phi { incoming, .. } = &data.insts[pi].kind else {
        return Err(not_counted());
    };
    let mut trip_count = None;
    for (from, r) in incoming {
        match (*from == l, r) {
            (true, Reg::Virt(v)) if *v == next => {}
            (false, Reg::Virt(v)) => trip_count = Some(*v),
            _ => return Err(not_counted()),
        }
    }
    let trip_count = trip_count.ok_or_else(not_counted)?;
    // The counter must serve only the loop control.
    let counter_insts = vec![di, ti];
    for (i, inst) in data.insts.iter().enumerate() {
        if i == pi || counter_insts.contains(&i) {
            continue;
        }
        let (uses, _) = dsp_mir::uses_defs(m, inst);
        if uses.iter().any(|r| [Reg::Virt(counter), Reg::Virt(next), Reg::Virt(test)].contains(r)) {
            return Err("the loop counter is used by the loop body".into());
        }
    }
    for (b, other) in f.blocks.iter().enumerate() {
        if b == l.0 as usize {
            continue;
        }
        for inst in &other.insts {
            let (uses, _) = dsp_mir::uses_defs(m, inst);
            if uses.iter().any(|r| [Reg::Virt(counter), Reg::Virt(next), Reg::Virt(test)].contains(r)) {
                return Err("the loop counter is used after the loop".into());
            }
        }
    }
    Ok(Candidate {
        block: l,
        preheader,
        exit,
        trip_count,
        counter_insts,
        counter,
        counter_next: next,
        test,
    })
}
