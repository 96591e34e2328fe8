//! Block layout: the order blocks are emitted in, chosen so that more jumps
//! become fallthroughs (a taken branch costs its bundle and delay slots).
//!
//! The function's own order is kept (it is LLVM's, usually good), except
//! that a block reached only from one block is pulled right after that
//! block when it is the target of its unconditional jump, or of one arm of
//! its conditional branch (the not-taken arm preferred): blocks appended by
//! earlier stages (split critical edges, the entry's body after the
//! prologue) land where control flows into them. The entry block stays first.

use dsp_mir::{Block, Function, Terminator};

/// The emission order of `f`'s blocks (a permutation, entry first).
pub fn order(f: &Function) -> Vec<Block> {
    let n = f.blocks.len();
    let mut preds = vec![0u32; n];
    for b in &f.blocks {
        let mut succ = b.term.successors();
        succ.sort();
        succ.dedup();
        for s in succ {
            if let Some(p) = preds.get_mut(s.0 as usize) {
                *p += 1;
            }
        }
    }
    let mut placed = vec![false; n];
    let mut out = Vec::with_capacity(n);
    let sole = |t: Block, placed: &[bool]| (t.0 as usize) < n && !placed[t.0 as usize] && preds[t.0 as usize] == 1 && t != Block(0);
    for start in 0..n {
        if placed[start] {
            continue;
        }
        let mut b = Block(start as u32);
        loop {
            placed[b.0 as usize] = true;
            out.push(b);
            let next = match &f.blocks[b.0 as usize].term {
                Terminator::Jump(t) => Some(*t).filter(|t| sole(*t, &placed)),
                Terminator::Branch { taken, not_taken, .. } => {
                    // Only when the arm is not already the next block in the original order.
                    let natural = Block(b.0 + 1);
                    if (*not_taken == natural || *taken == natural) && !placed.get(natural.0 as usize).copied().unwrap_or(true) {
                        None
                    } else {
                        Some(*not_taken).filter(|t| sole(*t, &placed)).or(Some(*taken).filter(|t| sole(*t, &placed)))
                    }
                }
                _ => None,
            };
            match next {
                Some(t) => b = t,
                None => break,
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_mir::Reg;

    fn func(terms: Vec<Terminator>) -> Function {
        let mut f = Function::new("f");
        for (i, t) in terms.into_iter().enumerate() {
            let b = f.new_block(format!("b{i}"));
            f.block_mut(b).term = t;
        }
        f
    }

    #[test]
    fn pulls_sole_successors_next_to_their_predecessor() {
        // 0 → 3 (appended body), 3 → branch 1 / 2, 1 and 2 return.
        let p = Reg::Virt(dsp_mir::VReg(0));
        let f = func(vec![
            Terminator::Jump(Block(3)),
            Terminator::Return { rets: vec![] },
            Terminator::Return { rets: vec![] },
            Terminator::Branch { cond: p, negate: false, taken: Block(2), not_taken: Block(1) },
        ]);
        assert_eq!(order(&f), vec![Block(0), Block(3), Block(1), Block(2)]);
        // A join block (two predecessors) is not moved.
        let f = func(vec![
            Terminator::Branch { cond: p, negate: false, taken: Block(2), not_taken: Block(1) },
            Terminator::Jump(Block(3)),
            Terminator::Jump(Block(3)),
            Terminator::Return { rets: vec![] },
        ]);
        assert_eq!(order(&f), vec![Block(0), Block(1), Block(2), Block(3)]);
        // A loop back edge to the entry's successor keeps the order.
        let f = func(vec![
            Terminator::Jump(Block(1)),
            Terminator::Branch { cond: p, negate: false, taken: Block(1), not_taken: Block(2) },
            Terminator::Return { rets: vec![] },
        ]);
        assert_eq!(order(&f), vec![Block(0), Block(1), Block(2)]);
    }
}
