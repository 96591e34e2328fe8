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
                // b's edges are added together: a repeat is the last entry.
                if p.last() != Some(&Block(b as u32)) {
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

/// Preorder entry and exit numbers of every block in the dominator tree
/// (`a` dominates `b` iff `a`'s interval contains `b`'s entry), so that a
/// dominance test costs O(1) instead of a walk up the tree (a chain of
/// thousands of blocks is that deep); unreachable blocks are roots of their own.
fn dom_intervals(idom: &[Option<usize>]) -> Vec<(u32, u32)> {
    let n = idom.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (b, d) in idom.iter().enumerate() {
        match d {
            Some(p) if *p < n => children[*p].push(b),
            _ => roots.push(b),
        }
    }
    let mut iv = vec![(u32::MAX, 0u32); n];
    let mut clock = 0u32;
    for r in roots {
        let mut stack = vec![(r, 0usize)];
        iv[r].0 = clock;
        clock += 1;
        while let Some((b, k)) = stack.pop() {
            if let Some(&c) = children[b].get(k) {
                stack.push((b, k + 1));
                iv[c].0 = clock;
                clock += 1;
                stack.push((c, 0));
            } else {
                iv[b].1 = clock;
            }
        }
    }
    iv
}

/// The back edges `latch → header` of `f` (the header dominates the
/// latch), in block order, with the predecessor lists.
fn back_edges(f: &Function) -> (Vec<Vec<Block>>, Vec<(usize, usize)>) {
    let preds = predecessors(f);
    let idom = dominators(f, &preds);
    let iv = dom_intervals(&idom);
    let dominates = |a: usize, b: usize| iv[a].0 <= iv[b].0 && iv[b].0 < iv[a].1;
    let n = f.blocks.len();
    let mut edges = Vec::new();
    for (b, data) in f.blocks.iter().enumerate() {
        let mut succ = data.term.successors();
        succ.dedup();
        for h in succ {
            let h = h.0 as usize;
            if h < n && dominates(h, b) {
                edges.push((b, h));
            }
        }
    }
    (preds, edges)
}

/// Visits the natural loop of the back edge `latch → header`: the header,
/// then every block reaching the latch without passing the header.
/// `mark(x)` marks `x` and says whether it was not marked yet.
fn loop_body(preds: &[Vec<Block>], latch: usize, header: usize, mut mark: impl FnMut(usize) -> bool) {
    mark(header);
    let mut work = vec![latch];
    while let Some(x) = work.pop() {
        if mark(x) {
            work.extend(preds[x].iter().map(|p| p.0 as usize));
        }
    }
}

/// Loop nesting depth of every block.
pub fn loop_depth(f: &Function) -> Vec<u32> {
    let (preds, edges) = back_edges(f);
    let n = f.blocks.len();
    let mut depth = vec![0u32; n];
    // Blocks of the loop being collected carry its number (no clearing per loop).
    let mut in_loop = vec![u32::MAX; n];
    for (id, &(latch, header)) in edges.iter().enumerate() {
        let id = id as u32;
        loop_body(&preds, latch, header, |x| {
            if in_loop[x] == id {
                return false;
            }
            in_loop[x] = id;
            depth[x] += 1;
            true
        });
    }
    depth
}

/// A natural loop: its header and its blocks (those of every back edge to
/// the header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaturalLoop {
    pub header: usize,
    pub blocks: Vec<usize>,
}

/// The natural loops of `f`, smallest first (an inner loop before the loops
/// around it).
pub fn natural_loops(f: &Function) -> Vec<NaturalLoop> {
    let (preds, edges) = back_edges(f);
    let n = f.blocks.len();
    let mut by_header: Vec<Option<Vec<bool>>> = vec![None; n];
    for (latch, header) in edges {
        let body = by_header[header].get_or_insert_with(|| vec![false; n]);
        loop_body(&preds, latch, header, |x| !std::mem::replace(&mut body[x], true));
    }
    let mut loops: Vec<NaturalLoop> = by_header
        .into_iter()
        .enumerate()
        .filter_map(|(header, body)| body.map(|b| NaturalLoop { header, blocks: (0..n).filter(|&x| b[x]).collect() }))
        .collect();
    loops.sort_by_key(|l| l.blocks.len());
    loops
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

    #[test]
    fn loops_at_the_end_of_a_long_chain_of_diamonds() {
        // 3000 diamonds (b → b+1 | b+2 → b+3 ...), then a loop and an
        // unreachable block: depths as before, in linear time.
        let p = dsp_mir::Reg::Virt(dsp_mir::VReg(0));
        let mut f = Function::new("f");
        let diamonds = 3000;
        let n = 3 * diamonds + 3;
        for i in 0..n {
            f.new_block(format!("b{i}"));
        }
        for d in 0..diamonds {
            let b = 3 * d;
            f.blocks[b].term = Terminator::Branch { cond: p, negate: false, taken: Block(b as u32 + 1), not_taken: Block(b as u32 + 2) };
            f.blocks[b + 1].term = Terminator::Jump(Block(b as u32 + 3));
            f.blocks[b + 2].term = Terminator::Jump(Block(b as u32 + 3));
        }
        let last = 3 * diamonds;
        f.blocks[last].term = Terminator::Jump(Block(last as u32 + 1));
        f.blocks[last + 1].term = Terminator::Branch { cond: p, negate: false, taken: Block(last as u32), not_taken: Block(last as u32 + 1) };
        f.blocks[last + 2].term = Terminator::Jump(Block(last as u32));
        let depth = loop_depth(&f);
        assert!(depth[..last].iter().all(|&d| d == 0));
        assert_eq!(&depth[last..], &[1, 2, 0]);
        let preds = predecessors(&f);
        assert_eq!(preds[last + 1], vec![Block(last as u32), Block(last as u32 + 1)]);
    }
}
