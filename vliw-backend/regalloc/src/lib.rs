//! dsp-regalloc: register allocation, frame layout, prologue and epilogue.
//!
//! [`allocate`] takes a function in SSA form from instruction selection
//! (virtual registers, phis, copies to and from physical argument and result
//! registers, frame operands) and leaves it with physical registers only, no
//! phis, no frame operands, and its prologue and epilogues — ready for the
//! scheduler. Stages, one module each:
//!
//! 1. [`frame::fix_bases`]: frame operands get their base register (`sp`/`fp`);
//! 2. [`phi`]: out of SSA (critical edges split, parallel copies sequentialized);
//! 3. repeated until nothing spills: [`liveness`] (over [`liveset`]s) → [`intervals`] →
//!    ([`dce`], first round) → [`coalesce::merge`] → [`linear_scan`] → [`split`] (values chosen
//!    for spilling that only pass through fixed code, where that is cheaper) → [`spill`] (spill
//!    code, reload temporaries, rematerialization);
//! 4. [`check`] (optional): an independent data-flow check of the assignment;
//! 5. rewrite to physical registers, [`coalesce::remove_identity_copies`],
//!    [`reload_cse`] (reloads into registers that hold the slot already);
//! 6. [`slots::share`] (spill slot coloring), [`frame::layout`],
//!    [`prologue::insert`], [`frame::rewrite_operands`].
//!
//! Every machine fact (allocatable registers, caller/callee-saved, spill
//! instructions, stack alignment) comes from the `.isa` through [`target`].
//!
//! Blocks with a fixed schedule (`dsp_mir::FixedBlock`, the software
//! pipeliner's prologue, kernel and epilogue) only have their registers
//! renamed and dead instructions deleted (the rest keep their cycles): the
//! values they read or write are never spilled, no phi copy, split edge,
//! spill code or prologue/epilogue code goes into them, and writes there
//! occupy their register until they land ([`fixed`]). When registers run
//! out for such values, those that also live in ordinary code are first
//! split at the boundaries of fixed code ([`split`]); when that leaves too
//! few registers, allocation fails with [`RaErrorKind::FixedBlockPressure`]
//! (the pipeliner then tries a larger II or gives the loop up).

pub mod bitset;
pub mod cfg;
pub mod check;
pub mod coalesce;
pub mod dce;
pub mod fixed;
pub mod frame;
pub mod intervals;
pub mod linear_scan;
pub mod liveness;
pub mod liveset;
pub mod operands;
pub mod phi;
pub mod prologue;
pub mod reload_cse;
pub mod rangeset;
pub mod slots;
pub mod spill;
pub mod split;
pub mod target;

#[cfg(test)]
#[allow(dead_code)]
mod interp;
#[cfg(test)]
mod tests;

use std::fmt;

use dsp_mir::verify::{verify, Stage};
use dsp_mir::{Block, Function, InstKind, Machine, PReg, Reg, Terminator, VReg};

use crate::target::{RegKeys, Target};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaOptions {
    /// Merge copy-related registers before allocation.
    pub coalesce: bool,
    /// Run the independent checker on the assignment (and verify the result).
    pub check: bool,
    /// Give up after this many allocate-and-spill rounds.
    pub max_rounds: u32,
    /// Delete reloads into registers that already hold the slot
    /// ([`reload_cse`]).
    pub reload_cse: bool,
    /// Split values chosen for spilling that only pass through fixed code
    /// around it ([`split::passing_through`]) instead of spilling them whole.
    pub split_passing: bool,
}

impl Default for RaOptions {
    fn default() -> RaOptions {
        RaOptions { coalesce: true, check: cfg!(debug_assertions), max_rounds: 64, reload_cse: true, split_passing: true }
    }
}

/// What allocation did (for `-S` comments and statistics).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RaReport {
    /// Values spilled to the stack (or rematerialized).
    pub spilled_values: u32,
    /// Spill stores inserted.
    pub spills: u32,
    /// Reloads inserted (loads from spill slots).
    pub reloads: u32,
    /// Constant moves repeated instead of reloading.
    pub remats: u32,
    /// Reloads deleted after allocation: their register held the slot already.
    pub reloads_removed: u32,
    /// Copies removed by coalescing.
    pub copies_coalesced: u32,
    /// Dead copies and dead side-effect-free instructions removed.
    pub dead_removed: u32,
    /// Copies inserted by phi elimination.
    pub phi_copies: u32,
    /// Copies left in the code.
    pub copies_left: u32,
    /// Allocation rounds (1 when nothing spilled).
    pub rounds: u32,
    /// Spill slots that share another slot's stack location.
    pub slots_shared: u32,
    /// Bytes of stack frame (sp adjustment).
    pub frame_size: u32,
    /// Callee-saved registers (and the link register) saved by the prologue.
    pub saved_regs: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaError {
    pub function: String,
    pub message: String,
    pub kind: RaErrorKind,
}

/// What kind of failure, for callers that can react to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaErrorKind {
    Other,
    /// Allocation would have to spill a value read or written in a block
    /// with a fixed schedule (`block`, registers of `file`): the block's
    /// register pressure is too high.
    FixedBlockPressure { block: Block, file: dsp_mir::RegFileId },
}

impl fmt::Display for RaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: in function '{}': register allocation: {}", self.function, self.message)
    }
}

impl std::error::Error for RaError {}

/// Makes sure the entry block has no predecessors (the prologue runs once).
fn isolate_entry(f: &mut Function) {
    let has_pred = f.blocks.iter().any(|b| b.term.successors().contains(&Block(0)));
    if !has_pred || f.blocks.is_empty() {
        return;
    }
    let n = f.new_block(format!("{}.body", f.blocks[0].name));
    let (insts, term) = (std::mem::take(&mut f.blocks[0].insts), f.blocks[0].term.clone());
    f.block_mut(n).insts = insts;
    f.block_mut(n).term = term;
    f.blocks[0].term = Terminator::Jump(n);
    for (i, b) in f.blocks.iter_mut().enumerate() {
        if i == 0 {
            continue;
        }
        let fix = |x: &mut Block| {
            if *x == Block(0) {
                *x = n;
            }
        };
        match &mut b.term {
            Terminator::Jump(t) => fix(t),
            Terminator::Branch { taken, not_taken, .. } => {
                fix(taken);
                fix(not_taken);
            }
            Terminator::IndirectJump { targets, .. } => targets.iter_mut().for_each(fix),
            _ => {}
        }
    }
}

/// Allocates registers of `f` and lays out its frame.
pub fn allocate(m: &Machine, f: &mut Function, opts: &RaOptions) -> Result<RaReport, RaError> {
    let name = f.name.clone();
    let err = |message: String| RaError { function: name.clone(), message, kind: RaErrorKind::Other };
    verify(m, f, Stage::Selected).map_err(|e| err(format!("invalid input: {e}")))?;
    if f.blocks.is_empty() {
        return Err(err("function has no blocks".into()));
    }
    let t = Target::new(m, f).map_err(err)?;
    let mut report = RaReport::default();
    frame::fix_bases(&t, f).map_err(err)?;
    let first_new = f.blocks.len();
    isolate_entry(f);
    report.phi_copies = phi::eliminate(f).map_err(err)?;

    let mut spill_state = spill::SpillState::new(f.vregs.len());
    // Values split around fixed code (never split twice; the inner part is never coalesced).
    let mut split_done: Vec<bool> = Vec::new();
    let assign = loop {
        report.rounds += 1;
        if report.rounds > opts.max_rounds {
            return Err(err(format!("allocation did not converge in {} rounds", opts.max_rounds)));
        }
        spill_state.unspillable.resize(f.vregs.len(), false);
        let freq = cfg::block_freq(f);
        let keys = RegKeys::new(m, f.vregs.len());
        let mut live = liveness::compute(&t, &keys, f);
        let mut ivs = intervals::build(&t, &keys, f, &live, &freq);
        if report.rounds == 1 {
            report.dead_removed = dce::remove_dead_code(&t, &keys, f, &live);
        }
        if report.dead_removed > 0 && report.rounds == 1 {
            live = liveness::compute(&t, &keys, f);
            ivs = intervals::build(&t, &keys, f, &live, &freq);
        }
        if report.rounds == 1 {
            // Values of fixed blocks that also live in ordinary code are
            // split at once: unspillable across, say, a vector loop that
            // runs before a pipelined remainder, they would push that
            // loop's own values to the stack.
            let in_fixed = fixed::referenced(&t, f);
            let outside = if in_fixed.iter().any(|&x| x) { split::outside_all(&t, f, &live) } else { Vec::new() };
            let wide: Vec<VReg> = (0..in_fixed.len())
                .filter(|&v| in_fixed[v] && outside.get(v).copied().unwrap_or(false))
                .map(|v| VReg(v as u32))
                .collect();
            // One liveness and one index of fixed-code references for all
            // of them (the round starts again afterwards).
            let refs = split::fixed_refs(&t, f);
            for &w in &wide {
                let inner = split::split_with(&t, f, &live, w, &refs[w.0 as usize]).map_err(&err)?;
                mark_split(&mut split_done, f, &mut live, w, inner);
            }
            if !wide.is_empty() {
                continue;
            }
        }
        if opts.coalesce {
            let entry_live: Vec<bool> = (0..f.vregs.len()).map(|v| live.live_in[0].contains(v)).collect();
            let mut pinned = spill_state.pinned(f.vregs.len());
            for (p, &d) in pinned.iter_mut().zip(&split_done) {
                *p |= d;
            }
            let n = coalesce::merge(m, f, &ivs, &freq, &pinned, &entry_live);
            if n > 0 {
                report.copies_coalesced += n;
                live = liveness::compute(&t, &keys, f);
                ivs = intervals::build(&t, &keys, f, &live, &freq);
            }
        }
        let partners = coalesce::copy_partners(f);
        // Values of fixed blocks are never spilled (their spill code would land inside).
        let in_fixed = fixed::referenced(&t, f);
        let mut unspillable = spill_state.unspillable.clone();
        unspillable.resize(f.vregs.len(), false);
        for (u, &x) in unspillable.iter_mut().zip(&in_fixed) {
            *u |= x;
        }
        let scan = linear_scan::run(&t, &keys, f, &ivs, &unspillable, &partners);
        if let Err(b) = &scan {
            let v = b.vreg.0 as usize;
            let cands = split::candidates(&t, f, &live, &ivs.virt, &in_fixed, &split_done, v, b.pos);
            if !cands.is_empty() {
                let refs = split::fixed_refs(&t, f);
                for w in cands {
                    let inner = split::split_with(&t, f, &live, w, &refs[w.0 as usize]).map_err(&err)?;
                    mark_split(&mut split_done, f, &mut live, w, inner);
                }
                continue;
            }
        }
        let res = scan.map_err(|b| {
            let v = b.vreg.0 as usize;
            match fixed::pressure_block(&t, f, &ivs.numbering, &ivs.virt, &in_fixed, v, b.pos) {
                Some(block) => {
                    let file = f.vregs[v];
                    RaError {
                        function: name.clone(),
                        message: format!(
                            "register pressure in fixed-schedule block bb{} ({}): its values of file '{}' do not fit the registers, and they cannot be spilled there",
                            block.0,
                            f.block(block).name,
                            m.regfile(file).name
                        ),
                        kind: RaErrorKind::FixedBlockPressure { block, file },
                    }
                }
                None => err(b.message),
            }
        })?;
        if res.spilled.is_empty() {
            break res.assign;
        }
        // Values that only pass through fixed code are split around it
        // first (all of them at once, one round): the next round spills
        // the part inside if the pressure is there.
        if opts.split_passing {
            let passing = split::passing_through(&t, f, &live, &freq, &in_fixed, &split_done, &res.spilled);
            if !passing.is_empty() {
                for w in passing {
                    let inner = split::split_passing(&t, f, &live, w).map_err(&err)?;
                    mark_split(&mut split_done, f, &mut live, w, inner);
                }
                continue;
            }
        }
        spill::insert(&t, f, &res.spilled, &mut spill_state).map_err(err)?;
    };
    let stats = &spill_state.stats;
    report.spilled_values = stats.values;
    report.spills = stats.stores;
    report.reloads = stats.reloads;
    report.remats = stats.remats;
    if opts.check {
        check::check_assignment(&t, f, &assign).map_err(|e| err(format!("allocation check failed: {e}")))?;
    }
    rewrite(m, f, &assign).map_err(err)?;
    report.copies_coalesced += coalesce::remove_identity_copies(f);
    if opts.reload_cse {
        report.reloads_removed = reload_cse::remove_redundant_reloads(m, f);
    }
    phi::thread_empty_blocks(f, first_new);
    report.copies_left =
        f.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(i.kind, InstKind::Copy { .. })).count() as u32;

    report.slots_shared = slots::share(m, f);
    let saves = saved_registers(&t, f);
    report.saved_regs = saves.len() as u32;
    let layout = frame::layout(&t, f, &saves).map_err(err)?;
    report.frame_size = layout.frame_size;
    prologue::insert(&t, f, &layout).map_err(err)?;
    frame::rewrite_operands(&t, f, &layout).map_err(err)?;
    verify(m, f, Stage::Allocated).map_err(|e| err(format!("result does not verify: {e}")))?;
    Ok(report)
}

/// Replaces every virtual register by its assigned register.
fn rewrite(m: &Machine, f: &mut Function, assign: &[Option<PReg>]) -> Result<(), String> {
    let mut missing = None;
    let mut map = |r: &mut Reg| {
        if let Reg::Virt(v) = *r {
            match assign.get(v.0 as usize).copied().flatten() {
                Some(p) => *r = Reg::Phys(p),
                None => missing = Some(v),
            }
        }
    };
    for b in &mut f.blocks {
        for inst in &mut b.insts {
            operands::for_each_reg_mut(m, inst, |r, _| map(r));
        }
        operands::for_each_term_reg_mut(&mut b.term, &mut map);
    }
    match missing {
        Some(v) => Err(format!("%{} got no register", v.0)),
        None => Ok(()),
    }
}

/// The link register (when the function calls) and every callee-saved
/// register the function writes (and `fp` when it keeps the frame there).
fn saved_registers(t: &Target, f: &Function) -> Vec<PReg> {
    let mut calls = false;
    let mut written: Vec<PReg> = Vec::new();
    for b in &f.blocks {
        for inst in &b.insts {
            match &inst.kind {
                InstKind::Call { .. } => calls = true,
                InstKind::Machine { instr, .. } if t.m.instr(*instr).sem.is_call() => calls = true,
                _ => {}
            }
            for (r, role) in operands::inst_regs(t.m, inst, &[]) {
                if let Reg::Phys(p) = r {
                    if role.is_def() && t.callee_saved.contains(&p) && p != t.sp && !written.contains(&p) {
                        written.push(p);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    if calls {
        out.extend(t.link);
    }
    if let (target::FrameMode::Fp { .. }, Some(fp)) = (t.mode, t.fp) {
        if !written.contains(&fp) {
            written.push(fp);
        }
    }
    if let Some(bp) = t.bp {
        if !written.contains(&bp) {
            written.push(bp);
        }
    }
    written.sort();
    out.extend(written);
    out
}

/// Records that `outer` was split into it and `inner` ([`split`]; neither is
/// split again) and gives the blocks the split added their live sets.
fn mark_split(done: &mut Vec<bool>, f: &Function, live: &mut liveness::Liveness, outer: VReg, inner: VReg) {
    done.resize(f.vregs.len(), false);
    done[outer.0 as usize] = true;
    done[inner.0 as usize] = true;
    split::extend_liveness(f, live);
}
