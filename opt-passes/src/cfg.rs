//! The control-flow graph of one function, its dominator tree (Cooper,
//! Harvey and Kennedy, "A Simple, Fast Dominance Algorithm", 2001: iterative
//! over reverse post-order) and its natural loops (a back edge `t → h` where
//! `h` dominates `t`; the loop is `h` plus every block that reaches `t`
//! without passing `h`). Irreducible cycles have no natural loop and are
//! left alone. Recomputed from scratch after each change: functions are
//! small and the passes change little.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use crate::ir;

/// Successors, predecessors and dominators of a function's blocks.
pub struct Cfg {
    pub blocks: Vec<LLVMBasicBlockRef>,
    pub index: HashMap<LLVMBasicBlockRef, usize>,
    /// Distinct successors of each block.
    pub succs: Vec<Vec<usize>>,
    /// Distinct predecessors of each block.
    pub preds: Vec<Vec<usize>>,
    /// Immediate dominator (the entry is its own; unreachable blocks have none).
    pub idom: Vec<Option<usize>>,
    /// Position in reverse post-order (unreachable: `usize::MAX`).
    rpo_pos: Vec<usize>,
}

/// A natural loop: its header, its latches (in-loop predecessors of the header) and its blocks.
#[derive(Clone, Debug)]
pub struct Loop {
    pub header: usize,
    pub latches: Vec<usize>,
    pub body: Vec<bool>,
}

impl Loop {
    pub fn contains(&self, b: usize) -> bool {
        self.body[b]
    }
    pub fn size(&self) -> usize {
        self.body.iter().filter(|&&x| x).count()
    }
}

impl Cfg {
    pub fn new(f: LLVMValueRef) -> Cfg {
        let blocks = ir::blocks(f);
        let index: HashMap<_, _> = blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut succs = vec![Vec::new(); blocks.len()];
        let mut preds = vec![Vec::new(); blocks.len()];
        for (i, &b) in blocks.iter().enumerate() {
            let term = unsafe { LLVMGetBasicBlockTerminator(b) };
            if term.is_null() {
                continue;
            }
            for k in 0..unsafe { LLVMGetNumSuccessors(term) } {
                let s = index[&unsafe { LLVMGetSuccessor(term, k) }];
                if !succs[i].contains(&s) {
                    succs[i].push(s);
                    preds[s].push(i);
                }
            }
        }
        let mut cfg = Cfg {
            blocks,
            index,
            succs,
            preds,
            idom: Vec::new(),
            rpo_pos: Vec::new(),
        };
        cfg.compute_dominators();
        cfg
    }

    fn compute_dominators(&mut self) {
        let n = self.blocks.len();
        // Iterative post-order from the entry.
        let mut post = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        if n > 0 {
            let mut stack = vec![(0usize, 0usize)];
            seen[0] = true;
            while let Some((b, k)) = stack.pop() {
                if k < self.succs[b].len() {
                    stack.push((b, k + 1));
                    let s = self.succs[b][k];
                    if !seen[s] {
                        seen[s] = true;
                        stack.push((s, 0));
                    }
                } else {
                    post.push(b);
                }
            }
        }
        let rpo: Vec<usize> = post.iter().rev().copied().collect();
        let mut pos = vec![usize::MAX; n];
        for (i, &b) in rpo.iter().enumerate() {
            pos[b] = i;
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        if n > 0 {
            idom[0] = Some(0);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &self.preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(q) => intersect(&idom, &pos, p, q),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        self.idom = idom;
        self.rpo_pos = pos;
    }

    /// Position of a reachable block in reverse post-order (definitions come before uses).
    /// Whether block `to` is reached from `from` inside loop `l` without
    /// passing its header (within one iteration).
    pub fn reaches_in_loop(&self, l: &Loop, from: usize, to: usize) -> bool {
        let mut seen = vec![false; self.blocks.len()];
        let mut work = vec![from];
        while let Some(b) = work.pop() {
            if b == to {
                return true;
            }
            if !l.contains(b) || b == l.header || std::mem::replace(&mut seen[b], true) {
                continue;
            }
            work.extend(self.succs[b].iter().copied());
        }
        false
    }

    pub fn rpo_position(&self, b: usize) -> usize {
        self.rpo_pos[b]
    }

    pub fn reachable(&self, b: usize) -> bool {
        self.rpo_pos[b] != usize::MAX
    }

    /// Whether `a` dominates `b` (both reachable).
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        if !self.reachable(a) || !self.reachable(b) {
            return false;
        }
        let mut x = b;
        loop {
            if x == a {
                return true;
            }
            match self.idom[x] {
                Some(d) if d != x => x = d,
                _ => return false,
            }
        }
    }

    /// The natural loops, one per header (back edges to one header merged), innermost first.
    pub fn loops(&self) -> Vec<Loop> {
        let n = self.blocks.len();
        let mut loops = Vec::new();
        for h in 0..n {
            let latches: Vec<usize> = self.preds[h]
                .iter()
                .copied()
                .filter(|&t| self.reachable(t) && self.dominates(h, t))
                .collect();
            if latches.is_empty() {
                continue;
            }
            let mut body = vec![false; n];
            body[h] = true;
            let mut work = latches.clone();
            while let Some(b) = work.pop() {
                if body[b] {
                    continue;
                }
                body[b] = true;
                work.extend(self.preds[b].iter().copied().filter(|&p| self.reachable(p)));
            }
            loops.push(Loop {
                header: h,
                latches,
                body,
            });
        }
        loops.sort_by_key(|l| l.size());
        loops
    }
}

fn intersect(idom: &[Option<usize>], pos: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while pos[a] > pos[b] {
            a = idom[a].unwrap_or(0);
        }
        while pos[b] > pos[a] {
            b = idom[b].unwrap_or(0);
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::TestModule;

    #[test]
    fn finds_nested_loops_and_dominators() {
        let t = TestModule::parse(
            "define void @f(i1 %c) {\nentry:\n  br label %outer\nouter:\n  br label %inner\ninner:\n  br i1 %c, label %inner, label %olatch\n\
             olatch:\n  br i1 %c, label %outer, label %exit\nexit:\n  ret void\ndead:\n  br label %inner\n}\n",
        );
        let f = ir::defined_functions(t.m)[0];
        let cfg = Cfg::new(f);
        let names: Vec<String> = cfg
            .blocks
            .iter()
            .map(|&b| ir::value_name(unsafe { LLVMBasicBlockAsValue(b) }))
            .collect();
        let at = |n: &str| names.iter().position(|x| x == n).unwrap();
        assert!(cfg.dominates(at("outer"), at("exit")));
        assert!(cfg.dominates(at("inner"), at("exit")));
        assert!(!cfg.dominates(at("olatch"), at("inner")));
        assert!(!cfg.reachable(at("dead")));
        let loops = cfg.loops();
        assert_eq!(loops.len(), 2);
        assert_eq!(loops[0].header, at("inner"));
        assert_eq!(loops[0].size(), 1);
        assert_eq!(loops[1].header, at("outer"));
        assert_eq!(loops[1].size(), 3);
        assert_eq!(loops[1].latches, vec![at("olatch")]);
    }
}
