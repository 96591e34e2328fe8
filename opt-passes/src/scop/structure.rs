//! A function's body as a tree of structured control: blocks in sequence,
//! natural loops (one latch that is the only exiting block, one exit
//! block) and `if`s (a conditional branch and its immediate
//! post-dominator, where the two sides meet). What does not fit is an
//! [`Node::Opaque`] node with the reason; the parse goes on after it at its
//! immediate post-dominator.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode as O;

use super::{Reject, RejectKind};
use crate::cfg::{self, Cfg};
use crate::ir;

/// A loop in the tree.
#[derive(Clone, Debug)]
pub struct LoopNode {
    pub header: usize,
    pub latch: usize,
    pub exit: usize,
    /// The body from the header to the latch (both included, as blocks).
    pub body: Vec<Node>,
}

/// A node of the control tree; blocks are indices into [`Cfg::blocks`].
#[derive(Clone, Debug)]
pub enum Node {
    /// A block's instructions (its terminator is an unconditional branch,
    /// a return, a loop's latch branch or an `If`'s condition).
    Block(usize),
    Loop(LoopNode),
    /// The conditional branch ending `block` (a `Block` node just before
    /// this one) and its two sides up to where they meet.
    If { block: usize, then_: Vec<Node>, else_: Vec<Node> },
    /// Control flow that is not structured: why, and the block.
    Opaque { block: usize, reason: Reject },
}

impl Node {
    /// Whether a loop is in this node.
    pub fn has_loop(&self) -> bool {
        match self {
            Node::Loop(_) => true,
            Node::If { then_, else_, .. } => then_.iter().chain(else_).any(Node::has_loop),
            _ => false,
        }
    }
    /// Every block of the node.
    pub fn blocks(&self, out: &mut Vec<usize>) {
        match self {
            Node::Block(b) => out.push(*b),
            Node::Loop(l) => l.body.iter().for_each(|n| n.blocks(out)),
            Node::If { then_, else_, .. } => then_.iter().chain(else_).for_each(|n| n.blocks(out)),
            Node::Opaque { block, .. } => out.push(*block),
        }
    }
}

/// The CFG with its loops (by header) and post-dominators.
pub struct Shape {
    pub cfg: Cfg,
    pub loops: HashMap<usize, cfg::Loop>,
    ipdom: Vec<Option<usize>>,
}

impl Shape {
    pub fn new(f: LLVMValueRef) -> Shape {
        let cfg = Cfg::new(f);
        let loops = cfg.loops().into_iter().map(|l| (l.header, l)).collect();
        let ipdom = post_dominators(&cfg);
        Shape { cfg, loops, ipdom }
    }

    /// Where the two sides of the branch ending `b` meet (its immediate post-dominator).
    pub fn merge(&self, b: usize) -> Option<usize> {
        self.ipdom[b]
    }

    fn term(&self, b: usize) -> LLVMValueRef {
        unsafe { LLVMGetBasicBlockTerminator(self.cfg.blocks[b]) }
    }

    fn first(&self, b: usize) -> LLVMValueRef {
        unsafe { LLVMGetFirstInstruction(self.cfg.blocks[b]) }
    }

    /// The function body as a sequence of nodes.
    pub fn parse(&self) -> Vec<Node> {
        if self.cfg.blocks.is_empty() {
            return Vec::new();
        }
        self.seq(0, Stop::End, None, 0)
    }

    /// Nodes from `b` up to `stop`; `entered` is the header of the loop whose
    /// body this is (a plain block here).
    fn seq(&self, mut b: usize, stop: Stop, entered: Option<usize>, depth: u32) -> Vec<Node> {
        let mut out = Vec::new();
        let mut seen = vec![false; self.cfg.blocks.len()];
        loop {
            if stop == Stop::Before(b) {
                return out;
            }
            if seen[b] || depth > 200 {
                let reason = Reject::new(RejectKind::UnstructuredControl, self.first(b), "control flow revisits a block");
                out.push(Node::Opaque { block: b, reason });
                return out;
            }
            seen[b] = true;
            if stop == Stop::Latch(b) {
                out.push(Node::Block(b));
                return out;
            }
            if Some(b) != entered && self.loops.contains_key(&b) {
                match self.parse_loop(b, depth) {
                    Ok(l) => {
                        b = l.exit;
                        out.push(Node::Loop(l));
                        continue;
                    }
                    Err(reason) => {
                        out.push(Node::Opaque { block: b, reason });
                        // Go on after the loop: the first post-dominator outside it.
                        let body = &self.loops[&b].body;
                        let mut p = self.ipdom[b];
                        while let Some(x) = p.filter(|&x| body[x]) {
                            p = self.ipdom[x];
                        }
                        match p {
                            Some(p) => {
                                b = p;
                                continue;
                            }
                            None => return out,
                        }
                    }
                }
            }
            let term = self.term(b);
            if term.is_null() {
                return out;
            }
            let op = ir::opcode(term);
            let nsucc = unsafe { LLVMGetNumSuccessors(term) };
            match (op, self.cfg.succs[b].len()) {
                (O::LLVMRet, _) => {
                    out.push(Node::Block(b));
                    return out;
                }
                (O::LLVMBr, 1) => {
                    out.push(Node::Block(b));
                    b = self.cfg.succs[b][0];
                }
                (O::LLVMBr, 2) if nsucc == 2 => {
                    out.push(Node::Block(b));
                    let Some(m) = self.ipdom[b] else {
                        let reason = Reject::new(RejectKind::UnstructuredControl, term, "a branch whose sides do not meet again");
                        out.push(Node::Opaque { block: b, reason });
                        return out;
                    };
                    let side = |k: u32| {
                        let s = self.cfg.index[&unsafe { LLVMGetSuccessor(term, k) }];
                        self.seq(s, Stop::Before(m), None, depth + 1)
                    };
                    let (then_, else_) = (side(0), side(1));
                    out.push(Node::If { block: b, then_, else_ });
                    b = m;
                }
                _ => {
                    let what = format!("{op:?}").trim_start_matches("LLVM").to_lowercase();
                    let reason = Reject::new(RejectKind::UnstructuredControl, term, format!("control flow through a {what}"));
                    out.push(Node::Opaque { block: b, reason });
                    match self.ipdom[b] {
                        Some(p) => b = p,
                        None => return out,
                    }
                }
            }
        }
    }

    fn parse_loop(&self, h: usize, depth: u32) -> Result<LoopNode, Reject> {
        let l = &self.loops[&h];
        let at = self.first(h);
        if l.latches.len() != 1 {
            return Err(Reject::new(RejectKind::NonCanonicalLoop, at, "loop with more than one latch"));
        }
        let latch = l.latches[0];
        let mut exits = Vec::new();
        for (b, _) in l.body.iter().enumerate().filter(|(_, &x)| x) {
            for &s in &self.cfg.succs[b] {
                if !l.body[s] {
                    if b != latch {
                        return Err(Reject::new(RejectKind::NonCanonicalLoop, self.term(b), "loop exited from a block other than its latch"));
                    }
                    exits.push(s);
                }
            }
        }
        let term = self.term(latch);
        if exits.len() != 1 || ir::opcode(term) != O::LLVMBr || unsafe { LLVMGetNumSuccessors(term) } != 2 {
            return Err(Reject::new(RejectKind::NonCanonicalLoop, term, "latch is not a conditional branch to the header and one exit"));
        }
        let body = self.seq(h, Stop::Latch(latch), Some(h), depth + 1);
        Ok(LoopNode { header: h, latch, exit: exits[0], body })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    End,
    Before(usize),
    Latch(usize),
}

/// Immediate post-dominators (None for blocks that reach no return, and
/// for the returning blocks themselves), by iterating sets to a fixpoint.
fn post_dominators(cfg: &Cfg) -> Vec<Option<usize>> {
    let n = cfg.blocks.len();
    let words = n.div_ceil(64);
    let full = vec![u64::MAX; words];
    let mut pdom: Vec<Vec<u64>> = (0..n)
        .map(|b| {
            if cfg.succs[b].is_empty() {
                let mut s = vec![0u64; words];
                s[b / 64] |= 1 << (b % 64);
                s
            } else {
                full.clone()
            }
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            if cfg.succs[b].is_empty() {
                continue;
            }
            let mut s = full.clone();
            for &x in &cfg.succs[b] {
                for w in 0..words {
                    s[w] &= pdom[x][w];
                }
            }
            s[b / 64] |= 1 << (b % 64);
            if s != pdom[b] {
                pdom[b] = s;
                changed = true;
            }
        }
    }
    let has = |s: &Vec<u64>, x: usize| s[x / 64] >> (x % 64) & 1 == 1;
    let count = |s: &Vec<u64>| s.iter().map(|w| w.count_ones()).sum::<u32>();
    (0..n)
        .map(|b| {
            if pdom[b] == full {
                return None; // reaches no exit
            }
            (0..n).filter(|&x| x != b && has(&pdom[b], x)).max_by_key(|&x| count(&pdom[x]))
        })
        .collect()
}
