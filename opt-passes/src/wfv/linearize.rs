//! CFG linearization (seed 001 §2.1.3): the order in which a region's
//! blocks are laid out once every divergent branch is replaced by masks.
//! The order is topological (a block comes after every block that reaches
//! it without a back edge, so definitions precede uses and both sides of a
//! split precede their join) and keeps each loop contiguous, header first and
//! latch last, so a loop stays a loop: it runs while any lane is active.
//! Loops must be in canonical form (one preheader, one latch), which
//! `dsp-canon-loops` gives; a region breaking that is refused.

use crate::cfg::{Cfg, Loop};

/// The loops of a region, with their nesting.
pub struct Nest {
    /// Innermost first (as `Cfg::loops` gives them).
    pub loops: Vec<Loop>,
    /// Each block's innermost loop, if any.
    pub inner: Vec<Option<usize>>,
    /// Each loop's parent loop.
    pub parent: Vec<Option<usize>>,
    /// Each loop's single outside predecessor of its header.
    pub preheader: Vec<usize>,
    /// Each loop's single latch.
    pub latch: Vec<usize>,
}

impl Nest {
    /// The loop nest of the blocks `region` of `cfg`; `Err` for a loop without
    /// a single preheader or a single latch.
    /// `skip`: the header of a loop whose body is the region (not a loop inside it).
    pub fn new(cfg: &Cfg, region: &[bool], skip: Option<usize>) -> Result<Nest, String> {
        let loops: Vec<Loop> = cfg.loops().into_iter().filter(|l| region[l.header] && Some(l.header) != skip).collect();
        let n = cfg.blocks.len();
        let mut inner = vec![None; n];
        for (k, l) in loops.iter().enumerate() {
            for b in 0..n {
                if l.contains(b) && inner[b].is_none() {
                    inner[b] = Some(k);
                }
            }
        }
        let parent = (0..loops.len())
            .map(|k| (k + 1..loops.len()).find(|&j| loops[j].contains(loops[k].header)))
            .collect();
        let mut preheader = Vec::new();
        let mut latch = Vec::new();
        for l in &loops {
            let outside: Vec<usize> = cfg.preds[l.header].iter().copied().filter(|&p| !l.contains(p)).collect();
            if outside.len() != 1 || l.latches.len() != 1 {
                return Err("a loop without a single preheader and a single latch".into());
            }
            preheader.push(outside[0]);
            latch.push(l.latches[0]);
        }
        Ok(Nest { loops, inner, parent, preheader, latch })
    }

    /// Whether loop `k` contains block `b`.
    pub fn contains(&self, k: usize, b: usize) -> bool {
        self.loops[k].contains(b)
    }

    /// The loops containing `b`, innermost first.
    pub fn loops_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut l = self.inner[b];
        while let Some(k) = l {
            out.push(k);
            l = self.parent[k];
        }
        out
    }

    /// Whether `b` is the header of a loop.
    pub fn header_of(&self, b: usize) -> Option<usize> {
        self.inner[b].filter(|&k| self.loops[k].header == b)
    }

    /// Whether `from → to` is a back edge.
    pub fn is_back_edge(&self, from: usize, to: usize) -> bool {
        self.header_of(to).is_some_and(|k| self.latch[k] == from)
    }

    /// The exit edges of loop `k` (from a block in it to one outside), in block order.
    pub fn exits(&self, cfg: &Cfg, k: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for b in 0..cfg.blocks.len() {
            if self.contains(k, b) {
                for &s in &cfg.succs[b] {
                    if !self.contains(k, s) {
                        out.push((b, s));
                    }
                }
            }
        }
        out
    }
}

/// The linear order of the reachable blocks of `region` (entry `entry`;
/// the terminators of `exits` leave the region).
pub fn order(cfg: &Cfg, nest: &Nest, region: &[bool], entry: usize, exits: &[usize]) -> Vec<usize> {
    let members: Vec<usize> = (0..cfg.blocks.len()).filter(|&b| region[b] && cfg.reachable(b)).collect();
    order_level(cfg, nest, &members, None, entry, exits)
}

/// Orders the blocks `members` of one nesting level (inside loop `level`, or
/// the top): the blocks directly at this level and each child loop as one
/// node, topologically (ties by reverse post-order), children expanded in place.
fn order_level(cfg: &Cfg, nest: &Nest, members: &[usize], level: Option<usize>, entry: usize, exits: &[usize]) -> Vec<usize> {
    // The node of a block at this level: the block itself or its outermost loop below `level`.
    let node_of = |b: usize| -> usize {
        let mut rep = b;
        for k in nest.loops_of(b) {
            if Some(k) == level {
                break;
            }
            rep = nest.loops[k].header;
        }
        rep
    };
    let mut nodes: Vec<usize> = members.iter().map(|&b| node_of(b)).collect();
    nodes.sort_by_key(|&b| cfg.rpo_position(b));
    nodes.dedup();
    let mut indeg: Vec<usize> = vec![0; nodes.len()];
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let pos = |b: usize| nodes.iter().position(|&x| x == b);
    for &b in members {
        for &s in &cfg.succs[b] {
            if !members.contains(&s) || nest.is_back_edge(b, s) || exits.contains(&b) {
                continue;
            }
            let (from, to) = (node_of(b), node_of(s));
            if from == to {
                continue;
            }
            if let (Some(i), Some(j)) = (pos(from), pos(to)) {
                if !edges[i].contains(&j) {
                    edges[i].push(j);
                    indeg[j] += 1;
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut ready: Vec<usize> = (0..nodes.len()).filter(|&i| indeg[i] == 0).collect();
    // The entry (or this loop's header) first.
    ready.sort_by_key(|&i| (nodes[i] != entry, cfg.rpo_position(nodes[i])));
    while !ready.is_empty() {
        let i = ready.remove(0);
        let b = nodes[i];
        match nest.header_of(b).filter(|&k| Some(k) != level) {
            Some(k) => {
                let inside: Vec<usize> = members.iter().copied().filter(|&x| nest.contains(k, x)).collect();
                out.extend(order_level(cfg, nest, &inside, Some(k), b, exits));
            }
            None => out.push(b),
        }
        for &j in &edges[i] {
            indeg[j] -= 1;
            if indeg[j] == 0 {
                ready.push(j);
            }
        }
        ready.sort_by_key(|&i| cfg.rpo_position(nodes[i]));
    }
    out
}
