//! dsp-sched: from allocated machine IR to assembly text for dsp-as.
//!
//! Per function: `layout` threads jumps through empty blocks and orders the
//! blocks for fallthrough, `lower` turns MIR (physical registers; copies, calls and
//! abstract terminators still pseudo) into the machine's operations, cut at
//! calls into regions; `liveness` and `rename` move values off registers the
//! allocator reused, breaking false dependences; per region `ddg` builds the dependence graph with the
//! `.isa`'s exact latencies, `list` packs the operations into bundles by
//! critical-path list scheduling under the machine's slots, units, ports and
//! non-pipelined units (`resource`), `delay` places the call or branch so
//! that the region's last bundles are its delay slots (filled with the
//! region's own operations, or nops) and every result lands before control
//! leaves, and `verify` checks the result; `fill` then gives delay slots
//! still holding nops the branch target's first bundles. `emit` writes the text.
//! Blocks with a fixed schedule (the software pipeliner's) skip renaming,
//! list scheduling and delay-slot placement: `fixed` emits their bundles as
//! given and checks them, with their neighbours, against the machine.
//!
//! Timing contract (vliw-backend/ABI.md): no interlocks, so every result of a
//! block lands before control leaves it, before a callee starts and before a
//! return completes; a block is entered with nothing pending and every unit free.

pub mod ddg;
pub mod delay;
pub mod emit;
pub mod fill;
pub mod fixed;
pub mod layout;
pub mod list;
pub mod liveness;
pub mod lower;
pub mod query;
pub mod rename;
pub mod resource;
pub mod verify;

use std::collections::HashSet;
use std::fmt;

use dsp_mir::{Function, Loc, Module};
use isa_tablegen::Machine;

use crate::delay::Item;
use crate::lower::{LOp, LOperand, OpClass};

/// How to schedule and what to print.
#[derive(Clone, Debug)]
pub struct SchedOptions {
    /// Print a `# FILE:LINE: source` comment before the bundles of each source line.
    pub comments: bool,
    /// Pack independent operations into shared bundles (off: one operation
    /// per bundle, in program order, as at -O0).
    pub pack: bool,
    /// Fill branch and call delay slots with the region's own operations
    /// (off: the transfer follows the last operation; delay slots are nops).
    pub fill_delay_slots: bool,
    /// Fill nop delay slots left by `fill_delay_slots` with the branch
    /// target's first bundles (see [`fill`]; needs `fill_delay_slots`).
    pub fill_from_target: bool,
    /// Also fill a conditional branch's delay slots from the block it falls
    /// through to ([`fill::from_fallthrough`]).
    pub fill_from_fallthrough: bool,
    /// Rename registers to break the false dependences allocation left.
    pub rename: bool,
    /// Each function and data object in its own section (`.text.NAME`,
    /// `.data.NAME`, ...), so `dsp-ld --gc-sections` can drop it
    /// (`-ffunction-sections`, `-fdata-sections`).
    pub sections: bool,
}

impl Default for SchedOptions {
    fn default() -> Self {
        SchedOptions {
            comments: false,
            pack: true,
            fill_delay_slots: true,
            fill_from_target: true,
            fill_from_fallthrough: true,
            rename: true,
            sections: false,
        }
    }
}

/// A scheduling failure, with the function and source position when known;
/// displayed like clang's diagnostics (`FILE:LINE: error: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchedError {
    pub function: Option<String>,
    pub loc: Option<Loc>,
    pub message: String,
}

impl fmt::Display for SchedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.loc {
            Some(loc) => write!(f, "{}:{}: error: ", loc.file, loc.line)?,
            None => f.write_str("error: ")?,
        }
        if let Some(func) = &self.function {
            write!(f, "in function '{func}': ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for SchedError {}

/// Static counts of a scheduled function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionStats {
    pub name: String,
    /// Bundles of code.
    pub bundles: usize,
    /// Operations other than padding nops.
    pub ops: usize,
    /// Padding nops (one per otherwise empty bundle).
    pub nops: usize,
    /// Delay-slot bundles of branches and calls.
    pub delay_slots: usize,
    /// Delay-slot bundles holding useful operations.
    pub delay_slots_filled: usize,
    /// Of those, bundles copied from the branch target ([`fill`]).
    pub delay_slots_from_target: usize,
    /// Of those, bundles moved from the block a conditional branch falls
    /// through to ([`fill::from_fallthrough`]).
    pub delay_slots_from_fallthrough: usize,
    /// Values moved to another register to break false dependences.
    pub renamed: usize,
}

impl FunctionStats {
    /// Useful operations per bundle.
    pub fn ops_per_bundle(&self) -> f64 {
        if self.bundles == 0 {
            0.0
        } else {
            self.ops as f64 / self.bundles as f64
        }
    }
}

/// A block's bundles (operations in bundle order).
#[derive(Clone, Debug)]
pub struct ScheduledBlock {
    pub label: String,
    pub bundles: Vec<Vec<LOp>>,
    /// Printed as `#` lines before the label (`dsp_mir::BlockData::comments`).
    pub comments: Vec<String>,
    /// The bundle holding the block's closing branch when it is a single
    /// branch operation with its delay slots the block's last bundles.
    pub transfer: Option<usize>,
    /// A block with a fixed schedule (the software pipeliner's).
    pub fixed: bool,
    /// Control goes on to the next block in the layout after the last
    /// bundle (no transfer ends the block).
    pub falls_through: bool,
    /// Labels inside the block: (bundle index, label), where branches whose
    /// delay slots hold the bundles before it enter ([`fill`]).
    pub entries: Vec<(usize, String)>,
}

#[derive(Clone, Debug)]
pub struct ScheduledFunction {
    pub name: String,
    pub global: bool,
    pub blocks: Vec<ScheduledBlock>,
    pub stats: FunctionStats,
}

fn error(f: &Function, message: String, loc: Option<Loc>) -> SchedError {
    SchedError {
        function: Some(f.name.clone()),
        loc: loc.or_else(|| f.loc.clone()),
        message,
    }
}

/// Schedules one allocated function into bundles.
pub fn schedule_function(
    m: &Machine,
    f: &Function,
    opts: &SchedOptions,
) -> Result<ScheduledFunction, SchedError> {
    dsp_mir::verify::verify(m, f, dsp_mir::verify::Stage::Allocated)
        .map_err(|e| error(f, e, None))?;
    let lay = layout::layout(f).map_err(|e| error(f, format!("block layout: {e}"), None))?;
    let mut blocks = lower::lower_function(m, f, &lay).map_err(|(msg, loc)| error(f, msg, loc))?;
    let nop = lower::nop_op(m);
    let mut stats = FunctionStats {
        name: f.name.clone(),
        ..FunctionStats::default()
    };
    if opts.rename {
        liveness::compute(&mut blocks);
        stats.renamed = rename::rename_function(m, &mut blocks);
    }
    let fill_from_target = opts.fill_delay_slots && opts.fill_from_target;
    let fill_from_fallthrough = opts.fill_delay_slots && opts.fill_from_fallthrough;
    // What the fills need: the registers live into each block, after renaming.
    let live_in = if fill_from_target || fill_from_fallthrough { liveness::compute(&mut blocks) } else { Vec::new() };
    let sole = if fill_from_fallthrough { fill::entered_only_by_falling(f, &blocks) } else { Vec::new() };
    let mut out = Vec::with_capacity(blocks.len());
    let control_height = m.control.delay_slots + 1;
    let mut fixed_code = std::collections::HashMap::new();
    for b in blocks {
        let mut bundles: Vec<Vec<LOp>> = Vec::new();
        let mut transfer = None;
        let mut regions: &[lower::Region] = &b.regions;
        if let Some(plan) = &b.fixed {
            let fb = fixed::bundles(m, plan, &b.regions[0].body)
                .map_err(|e| error(f, format!("{}: {e}", b.label), None))?;
            let delay = plan.branch_cycle.map_or(0..0, |c| c as usize + 1..plan.len as usize);
            for (k, ops) in fb.iter().enumerate() {
                let useful = ops.iter().filter(|o| o.class != OpClass::Nop).count();
                if delay.contains(&k) {
                    stats.delay_slots += 1;
                    stats.delay_slots_filled += (useful > 0) as usize;
                }
            }
            stats.bundles += fb.len();
            bundles.extend(fb.iter().cloned());
            fixed_code.insert(b.block, fb);
            regions = &b.regions[1..];
        }
        for region in regions {
            let control: &[LOp] = region.control.as_ref().map_or(&[], |c| &c.ops);
            let g = ddg::build(m, &region.body, control);
            let prio = list::heights(
                m,
                &region.body,
                &g,
                control_height + control.len() as u32 - 1,
            );
            let ls = list::schedule(m, &region.body, &g, &prio, opts.pack, &[]).map_err(
                |(i, why)| {
                    let op = &region.body[i];
                    error(
                        f,
                        format!("cannot schedule '{}': {why}", emit::op_text(m, op)),
                        op.loc.clone(),
                    )
                },
            )?;
            let rs = delay::place(m, &region.body, control, &g, &ls, &prio, opts)
                .map_err(|e| error(f, format!("{}: {e}", b.label), None))?;
            verify::region(m, &region.body, control, &g, &rs).map_err(|e| {
                error(
                    f,
                    format!("internal scheduler error in {}: {e}", b.label),
                    None,
                )
            })?;
            let base = bundles.len();
            transfer = (control.len() == 1
                && control[0].class == OpClass::Branch
                && rs.delay_slots.end == rs.bundles.len())
            .then(|| rs.bundles.iter().position(|b| b.contains(&Item::Ctrl(0))).map(|k| base + k))
            .flatten();
            for (k, items) in rs.bundles.iter().enumerate() {
                let ops: Vec<LOp> = items
                    .iter()
                    .filter_map(|it| match *it {
                        Item::Body(i) => Some(region.body[i].clone()),
                        Item::Ctrl(c) => Some(control[c].clone()),
                        Item::Nop => nop.clone(),
                    })
                    .collect();
                let useful = ops.iter().filter(|o| o.class != OpClass::Nop).count();
                if rs.delay_slots.contains(&k) {
                    stats.delay_slots += 1;
                    stats.delay_slots_filled += (useful > 0) as usize;
                }
                bundles.push(ops);
            }
            stats.bundles += bundles.len() - base;
        }
        out.push(ScheduledBlock {
            label: b.label,
            bundles,
            comments: f.block(b.block).comments.clone(),
            transfer,
            fixed: b.fixed.is_some(),
            falls_through: b.fixed.is_none() && b.regions.last().is_some_and(|r| r.control.is_none()),
            entries: Vec::new(),
        });
    }
    if fill_from_target {
        let n = fill::from_targets(m, &mut out, &live_in);
        stats.delay_slots_filled += n;
        stats.delay_slots_from_target = n;
    }
    if fill_from_fallthrough {
        let n = fill::from_fallthrough(m, &mut out, &live_in, &sole);
        stats.delay_slots_filled += n;
        stats.delay_slots_from_fallthrough = n;
    }
    let all = out.iter().flat_map(|b| b.bundles.iter().flatten());
    let nops = all.clone().filter(|o| o.class == OpClass::Nop).count();
    stats.nops = nops;
    stats.ops = all.count() - nops;
    fixed::check(m, f, &fixed_code).map_err(|e| error(f, e, None))?;
    Ok(ScheduledFunction {
        name: f.name.clone(),
        global: f.global,
        blocks: out,
        stats,
    })
}

/// Every symbol the module defines and references, checked for the assembler.
fn check_symbols(
    m: &Machine,
    module: &Module,
    funcs: &[ScheduledFunction],
) -> Result<(), SchedError> {
    let mut defined: HashSet<&str> = HashSet::new();
    for name in module
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .chain(module.data.iter().map(|d| d.name.as_str()))
    {
        if !defined.insert(name) {
            return Err(SchedError {
                function: None,
                loc: None,
                message: format!("symbol '{name}' is defined twice"),
            });
        }
    }
    let fail = |function: Option<&str>, message: String| SchedError {
        function: function.map(str::to_string),
        loc: None,
        message,
    };
    for name in &defined {
        emit::check_symbol(m, name, &defined).map_err(|e| fail(None, e))?;
    }
    for f in funcs {
        for b in &f.blocks {
            for op in b.bundles.iter().flatten() {
                for o in &op.operands {
                    if let LOperand::Sym { name, .. } = o {
                        emit::check_symbol(m, name, &defined).map_err(|e| SchedError {
                            function: Some(f.name.clone()),
                            loc: op.loc.clone(),
                            message: e,
                        })?;
                    }
                }
            }
        }
    }
    for d in &module.data {
        for r in &d.relocs {
            emit::check_symbol(m, &r.symbol, &defined)
                .map_err(|e| fail(None, format!("data object '{}': {e}", d.name)))?;
        }
    }
    Ok(())
}

/// Assembly text of a module (functions, then data) and per-function statistics.
pub fn emit_module_stats(
    m: &Machine,
    module: &Module,
    opts: &SchedOptions,
) -> Result<(String, Vec<FunctionStats>), SchedError> {
    let funcs = module
        .functions
        .iter()
        .map(|f| schedule_function(m, f, opts))
        .collect::<Result<Vec<_>, _>>()?;
    check_symbols(m, module, &funcs)?;
    let mut out = String::new();
    if !module.source_name.is_empty() {
        out.push_str(&format!("# {} (machine {})\n", module.source_name, m.name));
    }
    out.push_str("\t.text\n");
    let mut cache = emit::SourceCache::default();
    for f in &funcs {
        if opts.sections {
            out.push_str(&format!("\n\t.section .text.{},\"ax\"\n", f.name));
        }
        emit::function(m, f, opts.comments, &mut cache, &mut out);
    }
    for d in &module.data {
        emit::data_object(d, opts.sections, &mut out).map_err(|message| SchedError {
            function: None,
            loc: None,
            message,
        })?;
    }
    Ok((out, funcs.into_iter().map(|f| f.stats).collect()))
}

/// Assembly text of a module: its functions and data sections.
pub fn emit_module(
    m: &Machine,
    module: &Module,
    opts: &SchedOptions,
) -> Result<String, SchedError> {
    emit_module_stats(m, module, opts).map(|(s, _)| s)
}

#[cfg(test)]
mod tests;
