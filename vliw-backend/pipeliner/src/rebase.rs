//! Address rebasing: after scheduling, a load or store that issues stages
//! after the address it reads was computed reads the address of a later
//! iteration instead, with its offset moved back by the address's step.
//! LLVM's MachinePipeliner does this across one increment of a base
//! register (`canUseLastOffsetValue`); here it spans as many iterations as
//! the schedule allows (our generalization).
//!
//! Why: the address of iteration `i` otherwise lives from its definition to
//! its last access. In an FFT butterfly the same address serves a load in
//! the first stage and a store in the last, and modulo variable expansion
//! ([`crate::expand`]) needs `lifetime / II + 1` registers of it, rounded up
//! to a power of two: the kernel copies `K` grow with it, the minimum trip
//! count (`S − 1 + K`) too, and more iterations run in the original loop.
//! Reading iteration `i + δ`'s address, defined `δ·II` cycles later, the
//! lifetime drops by `δ·II`.
//!
//! An access is rebased when:
//! - its address is `base + immediate`, the base a register whose value is
//!   affine in the iteration ([`crate::affine`]) with a step `c ≠ 0`,
//!   defined in the body `d` iterations before (`d > 0`: through phis, as
//!   a pointer's increment), and the access reads it once (not as its data
//!   too);
//! - `δ = ⌊(t_access + d·II − t_def − delay) / II⌋ ≥ 1`: the definition for
//!   iteration `i + δ` has landed when the access of iteration `i` issues;
//! - `offset − δ·c` fits the operand;
//! - the definition and everything in the body it is computed from are
//!   pure (they compute their result and cannot fault): the epilogue
//!   computes them for the iterations past the last, into registers of
//!   their own, for the last iterations' accesses ([`crate::expand`]:
//!   phantom instances).

use std::collections::{HashMap, HashSet};

use dsp_mir::{Function, InstKind, Machine, Operand, Reg, VReg};
use dsp_modsched::{DepKind, NodeId, Schedule};
use isa_tablegen::SemOp;

use crate::affine::AffineMap;
use crate::candidate::{def_of, Candidate};
use crate::ddg::{as_machine, LoopDdg, NodeKind, Source};

/// One access reading a later iteration's address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rebase {
    /// The load or store.
    pub node: NodeId,
    /// The address register it reads, the node defining it, and how many
    /// iterations before the access's (through phis) it does.
    pub base: VReg,
    pub def: NodeId,
    pub distance: u32,
    /// Iterations ahead it reads the address of.
    pub delta: u32,
    /// The offset operand (index into the instruction's operands) and its
    /// new value.
    pub offset_operand: usize,
    pub offset: i64,
}

/// Most nodes a rebased address may be computed from in the body.
const MAX_CLOSURE: usize = 16;

/// The accesses of the loop `c` (graph `ddg`, schedule `s`) to rebase.
pub fn find(m: &Machine, f: &Function, c: &Candidate, ddg: &LoopDdg, s: &Schedule) -> Vec<Rebase> {
    let body = &f.block(c.block).insts;
    let mut defs: HashMap<VReg, usize> = HashMap::new();
    for inst in body {
        if let Some(v) = def_of(m, &inst.kind) {
            *defs.entry(v).or_insert(0) += 1;
        }
    }
    let single = |v: VReg| defs.get(&v).copied().unwrap_or(0) <= 1;
    let inst_of = |n: NodeId| match ddg.kinds[n] {
        NodeKind::Inst(i) => as_machine(m, f, &body[i]).ok(),
        _ => None,
    };
    let mut amap = AffineMap::new(m, f, c.block);
    let mut out = Vec::new();
    let mut order: Vec<(usize, NodeId)> = ddg.node_of_inst.iter().map(|(&i, &n)| (i, n)).collect();
    order.sort_unstable();
    for (i, n) in order {
        let InstKind::Machine { instr, ops, guard } = &body[i].kind else { continue };
        let ins = m.instr(*instr);
        let sem = &ins.sem;
        let based = matches!(
            sem.op,
            SemOp::Load | SemOp::Store | SemOp::VLoad | SemOp::VLoadU | SemOp::VLoadM | SemOp::VStore | SemOp::VStoreU | SemOp::VStoreM
        );
        let (Some(b), Some(o)) = (sem.args.first(), sem.args.get(1)) else { continue };
        let (Operand::Reg(Reg::Virt(base)), Operand::Imm(offset)) = (&ops[b.0], &ops[o.0]) else { continue };
        if !based || !single(*base) {
            continue;
        }
        let reads = ops.iter().filter(|x| **x == Operand::Reg(Reg::Virt(*base))).count()
            + usize::from(guard.as_ref().is_some_and(|g| g.reg == Reg::Virt(*base)));
        if reads != 1 {
            continue;
        }
        let Some(Source::Node { node: def, distance }) = ddg.sources.get(base).copied() else { continue };
        let Some(step) = amap.value(*base, 0).map(|a| a.coef).filter(|&c| c != 0) else { continue };
        let Some(delay) = ddg
            .graph
            .edges
            .iter()
            .filter(|e| e.from == def && e.to == n && e.distance == distance && e.kind == DepKind::Flow)
            .map(|e| e.delay as i64)
            .max()
        else {
            continue;
        };
        let ii = s.ii as i64;
        let slack = s.time[n] as i64 + distance as i64 * ii - s.time[def] as i64 - delay;
        let delta = slack.div_euclid(ii);
        if delta < 1 {
            continue;
        }
        let Some(new) = step.checked_mul(delta).and_then(|d| offset.checked_sub(d)) else { continue };
        let fits = ins.operands[o.0].kind.imm_range().is_some_and(|(lo, hi)| (lo..=hi).contains(&new));
        if !fits || !pure_closure(m, ddg, def, &inst_of, &single) {
            continue;
        }
        out.push(Rebase { node: n, base: *base, def, distance, delta: delta as u32, offset_operand: o.0, offset: new });
    }
    out
}

/// Whether `def` and every body node it is computed from (through phis too)
/// are pure, at most [`MAX_CLOSURE`] of them.
fn pure_closure(
    m: &Machine,
    ddg: &LoopDdg,
    def: NodeId,
    inst_of: &dyn Fn(NodeId) -> Option<dsp_mir::Inst>,
    single: &dyn Fn(VReg) -> bool,
) -> bool {
    let mut seen = HashSet::from([def]);
    let mut stack = vec![def];
    while let Some(x) = stack.pop() {
        let Some(inst) = inst_of(x) else { return false };
        if !crate::licm::pure(m, &inst) {
            return false;
        }
        let (uses, _) = dsp_mir::uses_defs(m, &inst);
        for r in uses {
            let Reg::Virt(v) = r else { continue };
            if !single(v) {
                return false;
            }
            if let Some(Source::Node { node, .. }) = ddg.sources.get(&v) {
                if seen.insert(*node) {
                    if seen.len() > MAX_CLOSURE {
                        return false;
                    }
                    stack.push(*node);
                }
            }
        }
    }
    true
}
