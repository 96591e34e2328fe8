//! Block layout: which blocks are emitted, in what order, and where their
//! jumps go, so that more jumps become fallthroughs (a taken branch costs its
//! bundle and its delay slots).
//!
//! - Jump threading: a jump or branch to an empty block that only jumps on
//!   goes straight to that block's final target (split critical edges,
//!   empty join blocks). Jump-table targets (`IndirectJump`) are kept, since
//!   tables name the blocks themselves.
//! - Blocks no longer reachable from the entry (or from a block whose
//!   address is taken, `Function::address_taken`) are dropped.
//! - Order: the function's own order (LLVM's, usually good), except that a
//!   chain follows control: after a block comes the target of its jump, or
//!   an arm of its branch (the next block in the function's order first,
//!   then the not-taken arm), when that block is not
//!   placed yet and every other predecessor of it is (so no other block
//!   loses it as a fallthrough). A loop latch is followed by the loop exit,
//!   a split edge by its target. The entry block stays first.
//! - Blocks with a fixed schedule (`dsp_mir::FixedBlock`) impose their
//!   successor: a kernel's not-taken successor, and the target of a fixed
//!   block that neither branches nor drains (a fallthrough), comes right
//!   after it. Such a successor is placed only there; when that is
//!   impossible (two blocks need the same successor, the successor is the
//!   entry, the requirements form a cycle), layout fails. Fixed blocks and
//!   blocks with comments are never threaded through, even when empty.

use dsp_mir::{Block, Function, Terminator};

/// The layout of a function: emission order and threaded jump targets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Blocks to emit, entry first.
    pub order: Vec<Block>,
    /// Where a jump to each block really goes (itself unless it is an empty
    /// block that only jumps on).
    pub target: Vec<Block>,
}

impl Layout {
    pub fn resolve(&self, b: Block) -> Block {
        self.target.get(b.0 as usize).copied().unwrap_or(b)
    }

    /// Successors of a block with jumps threaded.
    pub fn successors(&self, f: &Function, b: Block) -> Vec<Block> {
        let mut out = match &f.block(b).term {
            Terminator::Jump(t) => vec![self.resolve(*t)],
            Terminator::Branch {
                taken, not_taken, ..
            } => vec![self.resolve(*not_taken), self.resolve(*taken)],
            Terminator::IndirectJump { targets, .. } => targets.clone(),
            Terminator::Return { .. } | Terminator::Unreachable => vec![],
        };
        let mut seen = std::collections::HashSet::new();
        out.retain(|x| seen.insert(*x));
        out
    }
}

fn thread(f: &Function) -> Vec<Block> {
    let n = f.blocks.len();
    (0..n)
        .map(|i| {
            let mut b = Block(i as u32);
            for _ in 0..n {
                let data = f.block(b);
                let plain =
                    data.insts.is_empty() && data.fixed.is_none() && data.comments.is_empty();
                match data.term {
                    Terminator::Jump(t) if plain && (t.0 as usize) < n && t != b => b = t,
                    _ => return b,
                }
            }
            // A cycle of empty blocks (an empty infinite loop): keep the block.
            Block(i as u32)
        })
        .collect()
}

/// The block that must come right after a fixed block, if any: a
/// kernel's not-taken successor, a fallthrough's target.
pub fn must_follow(f: &Function, lay: &Layout, b: Block) -> Option<Block> {
    let fx = f.block(b).fixed.as_ref()?;
    match (&f.block(b).term, fx.branch_cycle) {
        (Terminator::Branch { not_taken, .. }, Some(_)) => Some(lay.resolve(*not_taken)),
        (Terminator::Jump(t), None) if !fx.drains => Some(lay.resolve(*t)),
        _ => None,
    }
}

/// The layout of `f`; Err when fixed blocks require an impossible order.
pub fn layout(f: &Function) -> Result<Layout, String> {
    let n = f.blocks.len();
    let mut lay = Layout {
        order: Vec::new(),
        target: thread(f),
    };
    if n == 0 {
        return Ok(lay);
    }
    // Reachable blocks and their predecessors (threaded edges).
    let mut reachable = vec![false; n];
    let mut preds: Vec<Vec<Block>> = vec![Vec::new(); n];
    let mut succs: Vec<Vec<Block>> = vec![Vec::new(); n];
    // Blocks whose address is taken are roots too: their labels must exist
    // (tables in data name them) even where no edge reaches them.
    let mut stack = vec![Block(0)];
    reachable[0] = true;
    for &b in &f.address_taken {
        if (b.0 as usize) < n && !reachable[b.0 as usize] {
            reachable[b.0 as usize] = true;
            stack.push(b);
        }
    }
    while let Some(b) = stack.pop() {
        for s in lay.successors(f, b) {
            let Some(slot) = preds.get_mut(s.0 as usize) else {
                continue;
            };
            slot.push(b);
            succs[b.0 as usize].push(s);
            if !reachable[s.0 as usize] {
                reachable[s.0 as usize] = true;
                stack.push(s);
            }
        }
    }
    // Successors that fixed blocks require right after them.
    let name = |b: Block| format!("bb{} ({})", b.0, f.block(b).name);
    let mut follow: Vec<Option<Block>> = vec![None; n];
    let mut required: Vec<Option<Block>> = vec![None; n];
    for b in (0..n).filter(|&b| reachable[b]) {
        let b = Block(b as u32);
        let Some(c) = must_follow(f, &lay, b) else {
            continue;
        };
        if c.0 as usize >= n {
            return Err(format!("{} jumps to a missing block", name(b)));
        }
        if c == Block(0) || c == b {
            return Err(format!(
                "{} must be followed by {} in layout, which is impossible",
                name(b),
                name(c)
            ));
        }
        if let Some(other) = required[c.0 as usize] {
            return Err(format!(
                "{} must follow both {} and {} in layout (fixed schedules fall through into it)",
                name(c),
                name(other),
                name(b)
            ));
        }
        follow[b.0 as usize] = Some(c);
        required[c.0 as usize] = Some(b);
    }
    let mut placed = vec![false; n];
    // Predecessors not placed yet, counted (a join of thousands of blocks
    // would otherwise be rescanned whenever one of them is placed), and
    // whether a block is its own predecessor.
    let mut unplaced: Vec<usize> = preds.iter().map(|p| p.len()).collect();
    let self_loop: Vec<bool> = (0..n).map(|i| succs[i].contains(&Block(i as u32))).collect();
    // `from` (just placed) and `c` itself are allowed unplaced predecessors.
    let pullable = |c: Block, from: Block, placed: &[bool], unplaced: &[usize]| {
        let i = c.0 as usize;
        i < n
            && c != Block(0)
            && reachable[i]
            && !placed[i]
            && required[i].is_none()
            && unplaced[i] == usize::from(self_loop[i]) + usize::from(!placed[from.0 as usize] && from != c && preds[i].contains(&from))
    };
    for start in 0..n {
        if placed[start] || !reachable[start] || required[start].is_some() {
            continue;
        }
        let mut b = Block(start as u32);
        loop {
            placed[b.0 as usize] = true;
            for s in &succs[b.0 as usize] {
                unplaced[s.0 as usize] -= 1;
            }
            lay.order.push(b);
            if let Some(c) = follow[b.0 as usize] {
                if placed[c.0 as usize] {
                    return Err(format!(
                        "{} must follow {} in layout, but it is already placed",
                        name(c),
                        name(b)
                    ));
                }
                b = c;
                continue;
            }
            let cands = match &f.block(b).term {
                Terminator::Jump(_) | Terminator::Branch { .. } => lay.successors(f, b),
                _ => vec![],
            };
            // The block after it in the function's order first, then the not-taken arm.
            let natural = Block(b.0 + 1);
            let pick = if cands.contains(&natural) && pullable(natural, b, &placed, &unplaced) {
                Some(natural)
            } else {
                cands.into_iter().find(|&c| pullable(c, b, &placed, &unplaced))
            };
            match pick {
                Some(c) => b = c,
                None => break,
            }
        }
    }
    if let Some(b) = (0..n).find(|&b| reachable[b] && !placed[b]) {
        return Err(format!(
            "{} cannot be laid out: the fallthroughs of fixed-schedule blocks form a cycle",
            name(Block(b as u32))
        ));
    }
    Ok(lay)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_mir::{Inst, InstKind, Reg, VReg};

    fn func(terms: Vec<Terminator>) -> Function {
        let mut f = Function::new("f");
        for (i, t) in terms.into_iter().enumerate() {
            let b = f.new_block(format!("b{i}"));
            f.block_mut(b).term = t;
            // Non-empty, so nothing is threaded unless a test empties it.
            let r = Reg::Virt(VReg(0));
            f.block_mut(b)
                .insts
                .push(Inst::new(InstKind::Copy { dst: r, src: r }));
        }
        f
    }

    fn br(taken: u32, not_taken: u32) -> Terminator {
        Terminator::Branch {
            cond: Reg::Virt(VReg(1)),
            negate: false,
            taken: Block(taken),
            not_taken: Block(not_taken),
        }
    }

    fn ret() -> Terminator {
        Terminator::Return { rets: vec![] }
    }

    fn order(f: &Function) -> Vec<u32> {
        layout(f).unwrap().order.iter().map(|b| b.0).collect()
    }

    #[test]
    fn address_taken_blocks_are_kept_without_edges() {
        // bb2 is reached by no edge, but its address is taken (a table in data).
        let mut f = func(vec![Terminator::Jump(Block(1)), ret(), ret()]);
        assert_eq!(order(&f), vec![0, 1]);
        f.address_taken.push(Block(2));
        assert_eq!(order(&f), vec![0, 1, 2]);
    }

    #[test]
    fn chains_follow_control() {
        // 0 → 3 (appended body), 3 → branch 1 / 2: 3 follows 0, 1 follows 3.
        assert_eq!(
            order(&func(vec![
                Terminator::Jump(Block(3)),
                ret(),
                ret(),
                br(2, 1)
            ])),
            vec![0, 3, 1, 2]
        );
        // A diamond keeps its order; the join follows the second arm.
        assert_eq!(
            order(&func(vec![
                br(2, 1),
                Terminator::Jump(Block(3)),
                Terminator::Jump(Block(3)),
                ret()
            ])),
            vec![0, 1, 2, 3]
        );
        // A self loop: the exit follows the latch.
        assert_eq!(
            order(&func(vec![Terminator::Jump(Block(1)), br(1, 2), ret()])),
            vec![0, 1, 2]
        );
        // A loop exit with two predecessors (the zero-trip test and the latch)
        // follows the latch once the test is placed.
        let f = func(vec![br(3, 1), Terminator::Jump(Block(2)), br(2, 3), ret()]);
        assert_eq!(order(&f), vec![0, 1, 2, 3]);
        let f = func(vec![
            br(2, 1),
            br(3, 1),
            Terminator::Jump(Block(4)),
            ret(),
            ret(),
        ]);
        assert_eq!(order(&f), vec![0, 1, 3, 2, 4]);
    }

    #[test]
    fn threads_empty_blocks_and_drops_unreachable_ones() {
        // 1 is an empty split edge 0 → 1 → 3; 2 becomes unreachable... no: 2 is the other arm.
        let mut f = func(vec![
            br(2, 1),
            Terminator::Jump(Block(3)),
            ret(),
            ret(),
            ret(),
        ]);
        f.block_mut(Block(1)).insts.clear();
        let lay = layout(&f).unwrap();
        assert_eq!(lay.resolve(Block(1)), Block(3));
        assert_eq!(lay.successors(&f, Block(0)), vec![Block(3), Block(2)]);
        // 1 is never jumped to any more and 4 never was: both dropped; 3 follows 0.
        assert_eq!(order(&f), vec![0, 3, 2]);
        // An empty infinite loop stays.
        let mut f = func(vec![Terminator::Jump(Block(1)), Terminator::Jump(Block(1))]);
        f.block_mut(Block(1)).insts.clear();
        assert_eq!(order(&f), vec![0, 1]);
    }
}
