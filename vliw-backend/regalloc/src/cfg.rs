//! Control-flow facts: predecessors, reverse postorder, dominators (Cooper,
//! Harvey and Kennedy, "A Simple, Fast Dominance Algorithm") and loop depth
//! from natural loops of back edges, which weighs spill costs by execution
//! frequency (10^depth).

use dsp_mir::{Block, Function};

pub fn predecessors(f: &Function) -> Vec<Vec<Block>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for (b, data) in f.blocks.iter().enumerate() {
        let mut succ = data.term.successors();
        succ.dedup();
        for s in succ {
            if let Some(p) = preds.get_mut(s.0 as usize) {
                if !p.contains(&Block(b as u32)) {
                    p.push(Block(b as u32));
                }
            }
        }
    }
    preds
}

/// Blocks reachable from the entry, in reverse postorder.
pub fn reverse_postorder(f: &Function) -> Vec<Block> {
    let n = f.blocks.len();
    let mut seen = vec![false; n];
    let mut post = Vec::new();
    if n == 0 {
        return post;
    }
    // Iterative DFS: (block, next successor index).
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((b, i)) = stack.pop() {
        let succ = f.blocks[b].term.successors();
        if i < succ.len() {
            stack.push((b, i + 1));
            let s = succ[i].0 as usize;
            if s < n && !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(Block(b as u32));
        }
    }
    post.reverse();
    post
}

/// Immediate dominators (`None` for the entry and unreachable blocks).
pub fn dominators(f: &Function, preds: &[Vec<Block>]) -> Vec<Option<usize>> {
    let rpo = reverse_postorder(f);
    let n = f.blocks.len();
    let mut order = vec![usize::MAX; n];
    for (i, b) in rpo.iter().enumerate() {
        order[b.0 as usize] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    if n == 0 {
        return idom;
    }
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().skip(1) {
            let b = b.0 as usize;
            let mut new: Option<usize> = None;
            for p in &preds[b] {
                let p = p.0 as usize;
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut x) => {
                        let mut y = p;
                        while x != y {
                            while order[x] > order[y] {
                                x = idom[x].unwrap_or(0);
                            }
                            while order[y] > order[x] {
                                y = idom[y].unwrap_or(0);
                            }
                        }
                        x
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom[0] = None;
    idom
}

fn dominates(idom: &[Option<usize>], a: usize, mut b: usize) -> bool {
    loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(p) => b = p,
            None => return false,
        }
    }
}

/// Loop nesting depth of every block.
pub fn loop_depth(f: &Function) -> Vec<u32> {
    let preds = predecessors(f);
    let idom = dominators(f, &preds);
    let mut depth = vec![0u32; f.blocks.len()];
    for (b, data) in f.blocks.iter().enumerate() {
        let mut succ = data.term.successors();
        succ.dedup();
        for h in succ {
            let h = h.0 as usize;
            if h >= f.blocks.len() || !dominates(&idom, h, b) {
                continue;
            }
            // Back edge b → h: the natural loop is h plus everything reaching b without h.
            let mut body = vec![false; f.blocks.len()];
            body[h] = true;
            let mut work = vec![b];
            while let Some(x) = work.pop() {
                if body[x] {
                    continue;
                }
                body[x] = true;
                work.extend(preds[x].iter().map(|p| p.0 as usize));
            }
            for (i, inside) in body.iter().enumerate() {
                if *inside {
                    depth[i] += 1;
                }
            }
        }
    }
    depth
}

/// Execution frequency estimate of every block.
pub fn block_freq(f: &Function) -> Vec<f32> {
    loop_depth(f).into_iter().map(|d| 10f32.powi(d.min(6) as i32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsp_mir::Terminator;

    #[test]
    fn nested_loops_have_depth() {
        // 0 → 1 → 2 → 2 (self loop), 2 → 3 → 1, 3 → 4
        let mut f = Function::new("f");
        for i in 0..5 {
            f.new_block(format!("b{i}"));
        }
        let p = dsp_mir::Reg::Virt(dsp_mir::VReg(0));
        f.blocks[0].term = Terminator::Jump(Block(1));
        f.blocks[1].term = Terminator::Jump(Block(2));
        f.blocks[2].term = Terminator::Branch { cond: p, negate: false, taken: Block(2), not_taken: Block(3) };
        f.blocks[3].term = Terminator::Branch { cond: p, negate: false, taken: Block(1), not_taken: Block(4) };
        f.blocks[4].term = Terminator::Return { rets: vec![] };
        assert_eq!(loop_depth(&f), vec![0, 1, 2, 1, 0]);
        let preds = predecessors(&f);
        let idom = dominators(&f, &preds);
        assert_eq!(idom, vec![None, Some(0), Some(1), Some(2), Some(3)]);
        assert_eq!(reverse_postorder(&f).len(), 5);
    }
}
