//! dsp-pipeliner: software pipelining of innermost loops in machine IR,
//! between instruction selection and register allocation (like LLVM's
//! MachinePipeliner). For each innermost loop of a function:
//!
//! 0. [`ifconv`]: loop bodies with if-then-else become one block (selects,
//!    guarded stores);
//! 1. [`candidate`]: is it a single-block counted loop without calls?
//! 2. [`ddg`]: its dependence graph ⟨delay, distance⟩ (registers, memory with
//!    [`affine`] address analysis, loop control), seed 000 §4.1;
//! 3. `dsp_modsched`: MII, then a modulo schedule by SMS (default), IMS or
//!    the MILP scheduler; II is raised when the schedule's MaxLive exceeds
//!    the registers, and when that does not help, invariants are stored to
//!    stack slots and reloaded in the loop ([`reload`]);
//! 4. [`rebase`]: accesses read a later iteration's address where the
//!    schedule allows, so addresses live shorter;
//! 5. [`expand`]: prologue, kernel and epilogue as fixed-schedule blocks with
//!    modulo variable expansion, the trip-count guard, run-time overlap
//!    checks ([`check`]), and the original loop for small trip counts and
//!    remainders;
//! 6. [`report`]: remarks, `-S` comment blocks, JSON records.
//!
//! Compile time is bounded (our addition): scheduling a function's loops may
//! spend at most [`FUNCTION_BUDGET`] units of deterministic work
//! ([`dsp_modsched::work`]; about 5 s on the machine it was calibrated on),
//! one loop at most [`LOOP_BUDGET`]; loops left when the function's budget
//! is spent stay as they are, with a remark saying so. A [`Session`] carries
//! the budget and the schedules found across the retries of
//! `dsp-llc`'s allocation loop, which pipelines a function again with one
//! loop's II raised: the other loops' schedules are reused, not recomputed.
//!
//! Consumes SSA machine IR from `dsp-isel`; produces machine IR whose new
//! blocks have fixed schedules (`dsp_mir::FixedBlock`) that register
//! allocation and the scheduler keep as they are.

pub mod affine;
pub mod candidate;
pub mod check;
pub mod ddg;
pub mod emit;
pub mod expand;
pub mod ifconv;
pub mod licm;
pub mod rebase;
pub mod reload;
pub mod report;

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use dsp_mir::{Block, Function, InstKind, Machine, Reg, RegFileId};
use dsp_modsched::{LoopGraph, Outcome, Schedule, Scheduler, Work};

pub use report::{LoopReport, Pipelined};

/// How to pipeline.
#[derive(Clone, Debug)]
pub struct PipelineOptions {
    pub scheduler: Scheduler,
    /// Seconds the MILP scheduler may spend on one loop.
    pub ilp_time_limit: f64,
    /// Loops (by their block in the function given to [`pipeline_function`])
    /// that must get at least this II (raised after allocation failed).
    pub min_ii: HashMap<Block, u32>,
    /// Loops not to pipeline (allocation failed even at a larger II).
    pub skip: HashSet<Block>,
    /// Loops whose kernel values of one register file get a register for
    /// every kernel copy ([`expand::plan`]'s `whole`), tried when
    /// allocation failed for that file with shared copies, before II is
    /// raised.
    pub whole_copies: HashMap<Block, RegFileId>,
    /// Loops whose kernel copies must be a power of two
    /// ([`expand::plan`]'s `pow2`), tried when allocation failed with
    /// another count, before II is raised.
    pub pow2_copies: HashSet<Block>,
    /// Loops whose register pressure is estimated with a cycle of slack
    /// per value (MaxLive counting each value from its issue to its last
    /// read inclusive), tried when allocation failed at the exact count,
    /// before II is raised: the estimate then also decides the invariants
    /// reloaded in the loop ([`reload`]).
    pub slack_pressure: HashSet<Block>,
    /// The kernel ends in a branch on its counter register (`brnz`) where
    /// the machine has one, instead of a compare into a predicate and a
    /// guarded branch: one operation less per iteration.
    pub counter_branch: bool,
    /// Only loops pipelining can speed up: a loop whose iteration,
    /// list-scheduled alone, already repeats every MII cycles or fewer is
    /// left to the block scheduler ([`dsp_modsched::flat::period`]).
    pub profitable_only: bool,
    /// Accesses read the address of a later iteration where the schedule
    /// allows ([`rebase`]): fewer kernel copies.
    pub rebase: bool,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            scheduler: Scheduler::Sms,
            ilp_time_limit: 10.0,
            min_ii: HashMap::new(),
            skip: HashSet::new(),
            whole_copies: HashMap::new(),
            pow2_copies: HashSet::new(),
            slack_pressure: HashSet::new(),
            counter_branch: true,
            profitable_only: true,
            rebase: true,
        }
    }
}

/// Work units of modulo scheduling one function may spend (SMS placement
/// and lifetime polishing over all its loops, and all retries at larger
/// IIs): about 5 s on the machine the units were calibrated on
/// ([`dsp_modsched::work`]: 0.36 µs a unit).
pub const FUNCTION_BUDGET: u64 = 14_000_000;
/// Work units one loop may spend (half the function's).
pub const LOOP_BUDGET: u64 = FUNCTION_BUDGET / 2;

/// State kept across the pipelining attempts of one function: the work
/// budget left and the scheduling result of every loop, by its block and
/// the least II asked of it; and the [`ScheduleMemo`] of the module.
#[derive(Clone, Debug)]
pub struct Session {
    work_left: u64,
    spent: u64,
    /// Keyed by loop block, II floor, slack in the pressure estimate,
    /// invariants reloaded and whether II may rise past the search window
    /// ([`Window`]).
    cache: HashMap<(Block, u32, bool, usize, Window), Result<Scheduled, LoopError>>,
    memo: ScheduleMemo,
}

impl Session {
    /// A session with `budget` work units.
    pub fn new(budget: u64) -> Session {
        Session { work_left: budget, spent: 0, cache: HashMap::new(), memo: ScheduleMemo::default() }
    }

    /// A session of the default budget that reuses (and adds to) the
    /// schedules of `memo`.
    pub fn with_memo(memo: ScheduleMemo) -> Session {
        Session { memo, ..Session::default() }
    }

    /// The memo, with what this session added to it.
    pub fn into_memo(self) -> ScheduleMemo {
        self.memo
    }

    /// Work units spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }
}

/// Schedules of the loops of a module by everything their scheduling
/// depends on: the dependence graph (operations, names, edges), the II
/// floor, the registers available, the scheduler and the work limit. A
/// loop identical to one scheduled before (macro-expanded or inlined copies,
/// the same kernel at several call sites) reuses its schedule instead of
/// scheduling again: the result is the one scheduling would give, and it
/// costs no work. MIIs are kept by graph alone.
#[derive(Clone, Debug, Default)]
pub struct ScheduleMemo {
    map: HashMap<MemoKey, Result<Scheduled, LoopError>>,
    /// The MII of each graph and its period unpipelined
    /// ([`dsp_modsched::flat::period`]), asked again on every attempt at a
    /// function.
    mii: HashMap<GraphKey, (dsp_modsched::MiiReport, Option<u32>)>,
}

/// A dependence graph as a key: its operations (with names) and edges.
type GraphKey = (Vec<dsp_modsched::Node>, Vec<dsp_modsched::Edge>);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct MemoKey {
    graph: GraphKey,
    floor: u32,
    slack: bool,
    window: Window,
    avail: Vec<(RegFileId, i64)>,
    scheduler: Scheduler,
    ilp_time_limit: u64,
    limit: u64,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(FUNCTION_BUDGET)
    }
}

/// A loop's schedule after the register-pressure raises, with what the
/// report needs.
#[derive(Clone, Debug)]
pub struct Scheduled {
    outcome: Outcome,
    extra_attempts: Vec<dsp_modsched::Attempt>,
    notes: Vec<String>,
    elapsed_us: u128,
    work: u64,
}

/// The result for one function: a report per innermost loop and which new
/// fixed blocks belong to which loop.
#[derive(Clone, Debug, Default)]
pub struct FunctionResult {
    pub loops: Vec<LoopReport>,
    /// (fixed block, loop block) pairs.
    pub owners: Vec<(Block, Block)>,
    /// (loop block, II, kernel copies) of every pipelined loop.
    pub pipelined: Vec<(Block, u32, u32)>,
}

/// IIs tried above the MII before giving up (IIs a recurrence rules out
/// cost next to nothing; the work budget bounds the rest): at least this
/// many…
const MAX_EXTRA_II: u32 = 16;
/// …or this fraction of the MII (in percent), whichever is more.
const MAX_EXTRA_II_PERCENT: u32 = 20;
/// The least gain worth pipelining for: a loop whose unpipelined period is
/// within this many percent of MII is left as it is
/// ([`PipelineOptions::profitable_only`]).
pub const MIN_GAIN_PERCENT: u64 = 10;
/// Times II is raised because MaxLive exceeds the registers.
const MAX_PRESSURE_RAISES: u32 = 3;
/// Largest loop body pipelined (the schedulers are polynomial, but the
/// kernel and its copies grow with it).
const MAX_NODES: usize = 512;
/// Largest MII pipelined: an iteration that needs this many cycles of one
/// resource already gives the list scheduler plenty to overlap within it,
/// and scheduling cost grows with II × operations.
const MAX_MII: u32 = 160;

/// How far II may rise for register pressure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Window {
    /// [`MAX_EXTRA_II`] / [`MAX_EXTRA_II_PERCENT`] above MII, in steps of an eighth.
    Usual,
    /// The last resort, after reloading invariants did not help: up to where
    /// pipelining still gains [`MIN_GAIN_PERCENT`] over one iteration
    /// list-scheduled alone, in steps proportional to the shortage. A long
    /// body (a vector division and square root: ~100 cycles of one unit)
    /// overlaps two iterations at an II well above its MII.
    Long,
}

fn run_scheduler(
    m: &Machine,
    g: &LoopGraph,
    mii: &dsp_modsched::mii::MiiReport,
    opts: &PipelineOptions,
    max_ii: u32,
    work: &mut Work,
) -> Result<Outcome, Vec<dsp_modsched::Attempt>> {
    match opts.scheduler {
        Scheduler::Sms => dsp_modsched::sms::schedule_with(
            m,
            g,
            mii,
            &dsp_modsched::sms::SmsOptions { max_ii: Some(max_ii), ..dsp_modsched::sms::SmsOptions::production() },
            work,
        ),
        Scheduler::Ims => dsp_modsched::ims::schedule(
            m,
            g,
            mii,
            &dsp_modsched::ims::ImsOptions { budget_ratio: 6, max_ii: Some(max_ii) },
        ),
        Scheduler::Ilp => dsp_modsched::ilp::schedule(
            m,
            g,
            mii,
            &dsp_modsched::ilp::IlpOptions { time_limit_secs: opts.ilp_time_limit, max_ii: Some(max_ii), min_registers: true },
        ),
    }
}

/// Registers of each file a loop can use for values it computes: the file's
/// registers less those with fixed values, the stack, frame and link
/// registers, and the loop's invariants.
fn available_registers(m: &Machine, f: &Function, l: Block) -> HashMap<RegFileId, i64> {
    let mut avail: HashMap<RegFileId, i64> = HashMap::new();
    for (i, file) in m.regfiles.iter().enumerate() {
        let id = RegFileId(i as u16);
        let mut n = file.count as i64 - file.specials.len() as i64;
        for r in [m.abi.sp, m.abi.fp, m.control.link].into_iter().flatten() {
            if r.file == id {
                n -= 1;
            }
        }
        avail.insert(id, n);
    }
    let defs: HashSet<_> = f.block(l).insts.iter().filter_map(|i| candidate::def_of(m, &i.kind)).collect();
    let mut inv = HashSet::new();
    for inst in &f.block(l).insts {
        if matches!(inst.kind, InstKind::Phi { .. }) {
            continue;
        }
        for r in dsp_mir::uses_defs(m, inst).0 {
            if let Reg::Virt(v) = r {
                if !defs.contains(&v) {
                    inv.insert(v);
                }
            }
        }
    }
    for v in inv {
        *avail.entry(f.vreg_file(v)).or_insert(0) -= 1;
    }
    avail
}

/// MaxLive per register file of a plan: values hold their registers from
/// their issue for `busy` cycles (with `slack`, to their last read
/// inclusive), counted in every kernel row they cover.
fn max_live(ddg: &ddg::LoopDdg, plan: &expand::Plan, slack: bool) -> HashMap<RegFileId, u32> {
    let ii = plan.ii as usize;
    let mut rows: HashMap<RegFileId, Vec<u32>> = HashMap::new();
    for (n, node) in ddg.graph.nodes.iter().enumerate() {
        let (Some(file), ddg::NodeKind::Inst(_)) = (node.writes, ddg.kinds[n]) else { continue };
        let r = rows.entry(file).or_insert_with(|| vec![0; ii]);
        let t = plan.time[n] as usize;
        let end = if slack { t + plan.lifetime[n] as usize + 1 } else { t + plan.busy[n] as usize };
        for tau in t..end {
            r[tau % ii] += 1;
        }
    }
    rows.into_iter().map(|(f, r)| (f, r.into_iter().max().unwrap_or(0))).collect()
}

/// Where a loop is in the source: the location of its latch's loop test
/// (clang gives it the loop statement's), else of its first located
/// instruction, else the function's.
fn loop_loc(m: &Machine, f: &Function, blocks: &[Block], header: Block) -> Option<dsp_mir::Loc> {
    for &b in blocks {
        let data = f.block(b);
        if let dsp_mir::Terminator::Branch { cond: Reg::Virt(c), taken, not_taken, .. } = &data.term {
            if *taken != header && *not_taken != header {
                continue;
            }
            let test = data.insts.iter().find(|i| candidate::def_of(m, &i.kind) == Some(*c));
            if let Some(loc) = test.and_then(|i| i.loc.clone()) {
                return Some(loc);
            }
        }
    }
    f.block(header).insts.iter().find_map(|i| i.loc.clone()).or_else(|| f.loc.clone())
}

/// Pipelines every innermost loop it can (within [`FUNCTION_BUDGET`]).
pub fn pipeline_function(m: &Machine, f: &mut Function, opts: &PipelineOptions) -> FunctionResult {
    pipeline_function_in(m, f, opts, &mut Session::default())
}

/// [`pipeline_function`] within a [`Session`]: its budget, and the
/// schedules of an earlier attempt on the same function reused.
pub fn pipeline_function_in(m: &Machine, f: &mut Function, opts: &PipelineOptions, session: &mut Session) -> FunctionResult {
    let mut out = FunctionResult::default();
    let loops = ifconv::convert_and_find_loops(m, f);
    for lp in loops {
        let l = lp.header;
        let block = f.block(l).name.clone();
        let loc = loop_loc(m, f, &lp.blocks, l);
        let fname = f.name.clone();
        let report = |outcome| LoopReport { function: fname.clone(), loc: loc.clone(), block: block.clone(), outcome };
        let result = if opts.skip.contains(&l) {
            Err("register allocation failed for the pipelined loop even at a larger II".to_string())
        } else {
            lp.verdict.and_then(|c| pipeline_with_reloads(m, f, &c, opts, session))
        };
        match result {
            Ok((p, exp)) => {
                out.pipelined.push((l, p.ii, p.kernel_copies));
                for b in &exp.fixed_blocks {
                    out.owners.push((*b, l));
                }
                let rep = report(Ok(p));
                f.block_mut(exp.guard).comments = rep.comment_block();
                out.loops.push(rep);
            }
            Err(why) => {
                let rep = report(Err(why));
                f.block_mut(l).comments = rep.comment_block();
                out.loops.push(rep);
            }
        }
    }
    out
}

/// Why a loop was not pipelined.
#[derive(Clone, Debug)]
enum LoopError {
    /// The schedule needs more registers of `file` than the loop has free.
    Pressure { file: RegFileId, max_live: u32, avail: i64, why: String },
    Other(String),
}

impl From<String> for LoopError {
    fn from(s: String) -> LoopError {
        LoopError::Other(s)
    }
}

/// Times invariants are reloaded (each time more of them) before a loop
/// whose registers do not suffice is given up.
const MAX_RELOAD_ROUNDS: usize = 3;

/// Pipelines one loop; when its values do not fit the registers its
/// invariants leave, reloads invariants in the loop ([`reload`]) and tries
/// again on a copy of the function, kept only when that succeeds.
fn pipeline_with_reloads(
    m: &Machine,
    f: &mut Function,
    c: &candidate::Candidate,
    opts: &PipelineOptions,
    session: &mut Session,
) -> Result<(Pipelined, expand::Expansion), String> {
    let (mut file, mut want, first_why) = match pipeline_loop(m, f, c, opts, session, 0, Window::Usual) {
        Ok(r) => return Ok(r),
        Err(LoopError::Other(why)) => return Err(why),
        Err(LoopError::Pressure { file, max_live, avail, why }) => (file, (max_live as i64 - avail).max(1) as usize, why),
    };
    let mut work = f.clone();
    let mut last_why = first_why;
    let mut reloaded: HashMap<RegFileId, usize> = HashMap::new();
    let notes = |reloaded: &HashMap<RegFileId, usize>, p: &mut Pipelined| {
        let mut files: Vec<(String, usize)> = reloaded.iter().map(|(f, n)| (m.regfile(*f).name.clone(), *n)).collect();
        files.sort();
        for (name, n) in files {
            p.notes.push(format!(
                "{n} loop invariant(s) of file '{name}' stored before the loop and reloaded in it (register pressure)"
            ));
        }
    };
    for round in 0..=MAX_RELOAD_ROUNDS {
        // Each reloaded value still lives from its load to its uses: ask for
        // half as many again as the registers missing. After the last
        // round, once more with II allowed past the usual window.
        let window = if round < MAX_RELOAD_ROUNDS {
            let n = reload::reload_invariants(m, &mut work, c.block, file, want + want / 2 + 1);
            if n == 0 {
                Window::Long
            } else {
                *reloaded.entry(file).or_insert(0) += n;
                Window::Usual
            }
        } else {
            Window::Long
        };
        let Some(c2) = candidate::innermost_loops(m, &work)
            .into_iter()
            .find(|l| l.header == c.block)
            .and_then(|l| l.verdict.ok())
        else {
            break;
        };
        let total: usize = reloaded.values().sum();
        match pipeline_loop(m, &mut work, &c2, opts, session, total, window) {
            Ok((mut p, exp)) => {
                notes(&reloaded, &mut p);
                *f = work;
                return Ok((p, exp));
            }
            Err(LoopError::Other(why)) => return Err(why),
            Err(LoopError::Pressure { file: f2, max_live, avail, why }) => {
                last_why = if total > 0 { format!("{why}, with {total} invariant(s) reloaded") } else { why };
                file = f2;
                want = (max_live as i64 - avail).max(1) as usize;
            }
        }
        if window == Window::Long {
            break;
        }
    }
    Err(last_why)
}

/// Pipelines one loop (`reloads`: invariants reloaded in it so far, part
/// of the key of the session's schedule cache).
fn pipeline_loop(
    m: &Machine,
    f: &mut Function,
    c: &candidate::Candidate,
    opts: &PipelineOptions,
    session: &mut Session,
    reloads: usize,
    window: Window,
) -> Result<(Pipelined, expand::Expansion), LoopError> {
    let ctl = ddg::ControlInstrs::find(m, opts.counter_branch)?;
    let d = ddg::build(m, f, c, &ctl)?;
    if d.graph.nodes.len() > MAX_NODES {
        return Err(format!("loop body too large ({} operations; the limit is {MAX_NODES})", d.graph.nodes.len()).into());
    }
    let graph_key = (d.graph.nodes.clone(), d.graph.edges.clone());
    let mii_period = match session.memo.mii.get(&graph_key) {
        Some(x) => x.clone(),
        None => {
            let mii = dsp_modsched::mii::compute(m, &d.graph)?;
            let x = (mii, dsp_modsched::flat::period(m, &d.graph));
            session.memo.mii.insert(graph_key.clone(), x.clone());
            x
        }
    };
    let mii = mii_period.0.clone();
    if mii.mii > MAX_MII {
        return Err(format!(
            "MII={} (ResMII={}, RecMII={}) is above {MAX_MII}: a long body the block scheduler overlaps by itself",
            mii.mii, mii.res_mii, mii.rec_mii
        )
        .into());
    }
    if opts.profitable_only {
        let within = |p: u32| u64::from(p) * 100 <= u64::from(mii.mii) * (100 + MIN_GAIN_PERCENT);
        if let Some(period) = mii_period.1.filter(|&p| within(p)) {
            return Err(format!(
                "not profitable: one iteration list-scheduled alone repeats every {period} cycles, within \
                 {MIN_GAIN_PERCENT}% of MII={} (ResMII={}, RecMII={}): pipelining would gain too little",
                mii.mii, mii.res_mii, mii.rec_mii
            )
            .into());
        }
    }
    let floor = opts.min_ii.get(&c.block).copied().unwrap_or(0);
    let slack = opts.slack_pressure.contains(&c.block);
    let key = (c.block, floor, slack, reloads, window);
    let sched = match session.cache.get(&key) {
        Some(r) => r.clone(),
        None => {
            if session.work_left == 0 {
                return Err(format!(
                    "the function's compile-time budget for modulo scheduling ({FUNCTION_BUDGET} work units) is spent"
                )
                .into());
            }
            let limit = session.work_left.min(LOOP_BUDGET);
            let avail = available_registers(m, f, c.block);
            let mut avail_sorted: Vec<(RegFileId, i64)> = avail.iter().map(|(&f, &n)| (f, n)).collect();
            avail_sorted.sort_unstable();
            let memo_key = MemoKey {
                graph: graph_key,
                floor,
                slack,
                window,
                avail: avail_sorted,
                scheduler: opts.scheduler,
                ilp_time_limit: opts.ilp_time_limit.to_bits(),
                limit,
            };
            let r = match session.memo.map.get(&memo_key) {
                Some(r) => r.clone().map(|mut s| {
                    s.notes.push("schedule reused from an identical loop scheduled before".into());
                    s.elapsed_us = 0;
                    s.work = 0;
                    s
                }),
                None => {
                    let mut work = Work::limited(limit);
                    let r = schedule_loop(m, &d, &mii, (window == Window::Long).then_some(mii_period.1).flatten(), opts, floor, slack, &avail, &mut work);
                    session.work_left = session.work_left.saturating_sub(work.used());
                    session.spent += work.used();
                    session.memo.map.insert(memo_key, r.clone());
                    r
                }
            };
            session.cache.insert(key, r.clone());
            r
        }
    }?;
    let Scheduled { outcome, extra_attempts, mut notes, elapsed_us, work } = sched;
    let rebased = if opts.rebase { rebase::find(m, f, c, &d, &outcome.schedule) } else { Vec::new() };
    let whole = opts.whole_copies.get(&c.block).copied();
    let pow2 = opts.pow2_copies.contains(&c.block);
    let plan = expand::plan(m, &d, &outcome.schedule, &rebased, whole, pow2);
    notes.push(format!("scheduling work: {work} units"));
    if pow2 {
        notes.push("kernel copies a power of two: allocation failed with the fewest at this II".into());
    }
    if slack {
        notes.push("register pressure estimated with a cycle of slack per value: allocation failed at the exact MaxLive".into());
    }
    if let Some(file) = whole {
        notes.push(format!("a register per kernel copy for every value of file '{}': allocation failed with shared copies at this II", m.regfiles[file.0 as usize].name));
    }
    if !rebased.is_empty() {
        let most = rebased.iter().map(|r| r.delta).max().unwrap_or(0);
        notes.push(format!(
            "address rebasing: {} access(es) read the address of a later iteration (up to {most} ahead)",
            rebased.len()
        ));
    }
    let elapsed = elapsed_us;
    let s: &Schedule = &outcome.schedule;
    let max_live_total = dsp_modsched::regs::pressure(m, &d.graph, s).max_live;
    let trip_count = match const_value(m, f, c.trip_count) {
        Some(n) => format!("{n} (known at compile time)"),
        None => "unknown at compile time (computed at loop entry, at least 1)".into(),
    };
    let mut attempts = outcome.attempts.clone();
    attempts.extend(extra_attempts);
    attempts.sort_by_key(|a| a.ii);
    notes.extend(outcome.notes.iter().cloned());
    let mut p = Pipelined {
        res_mii: mii.res_mii,
        rec_mii: mii.rec_mii,
        mii: mii.mii,
        ii: s.ii,
        stages: plan.stages,
        max_live: max_live_total,
        kernel_copies: plan.k,
        min_trip: 0,
        scheduler: opts.scheduler.name().into(),
        schedule_us: elapsed,
        bottleneck: mii.bottleneck.clone(),
        recurrence: mii.recurrence.iter().map(|&n| d.graph.nodes[n].name.clone()).collect(),
        attempts,
        registers: Vec::new(),
        alias_checks: 0,
        trip_count,
        notes,
        capped: outcome.capped,
    };
    let exp = expand::generate(m, f, c, &d, s, &plan, &rebased, &ctl, Vec::new())?;
    p.min_trip = exp.min_trip;
    p.alias_checks = exp.alias_checks;
    p.registers = exp.registers.iter().map(|(file, n)| (m.regfile(*file).name.clone(), *n)).collect();
    Ok((p, exp))
}

/// Schedules a loop from its MII, raising II while MaxLive exceeds the
/// registers (`avail`), all within `work`; with `flat` (one iteration
/// list-scheduled alone: [`Window::Long`]) up to where pipelining still
/// gains [`MIN_GAIN_PERCENT`] over it, in steps of an eighth or in
/// proportion to the shortage, whichever is more.
#[allow(clippy::too_many_arguments)]
fn schedule_loop(
    m: &Machine,
    d: &ddg::LoopDdg,
    mii: &dsp_modsched::mii::MiiReport,
    flat: Option<u32>,
    opts: &PipelineOptions,
    floor: u32,
    slack: bool,
    avail: &HashMap<RegFileId, i64>,
    work: &mut Work,
) -> Result<Scheduled, LoopError> {
    let start = Instant::now();
    let mut notes = Vec::new();
    let mut extra_attempts = Vec::new();
    let mut mii_used = mii.clone();
    if floor > mii_used.mii {
        notes.push(format!("II raised to {floor}: register allocation failed at a smaller II"));
        mii_used.mii = floor;
    }
    let base = mii.mii.max(floor);
    let max_ii = base + MAX_EXTRA_II.max(base * MAX_EXTRA_II_PERCENT / 100);
    let pressure_cap = flat.map_or(0, |p| (u64::from(p) * (100 - MIN_GAIN_PERCENT) / 100) as u32).max(max_ii);
    let mut raises = 0;
    let outcome = loop {
        let search_to = max_ii.max(mii_used.mii.saturating_add(MAX_EXTRA_II).min(pressure_cap));
        let mut outcome = run_scheduler(m, &d.graph, &mii_used, opts, search_to, work).map_err(|attempts| {
            match attempts.last() {
                Some(a) if a.reason.starts_with(dsp_modsched::work::EXHAUSTED) => format!(
                    "the loop's compile-time budget for modulo scheduling ({} work units) ran out at II={}",
                    work.used(),
                    a.ii
                ),
                last => format!(
                    "no modulo schedule up to II={search_to}{}",
                    last.map(|a| format!(" (last: {})", a.reason)).unwrap_or_default()
                ),
            }
        })?;
        dsp_modsched::verify(m, &d.graph, &outcome.schedule)
            .map_err(|e| format!("internal error: the {} schedule is invalid: {e}", opts.scheduler.name()))?;
        let mut over = registers_short(m, d, &outcome.schedule, avail, slack);
        // Polishing spent in proportion to its gains; where the registers
        // are short it may spend its whole budget before II is raised.
        // Only where lowering MaxLive can make the registers suffice: no
        // file's lower bound at this II is above its registers.
        let reachable = over.iter().all(|&(f, _, regs)| {
            i64::from(dsp_modsched::polish::max_live_floor_of(&d.graph, outcome.schedule.ii, f)) <= regs
        });
        if !over.is_empty() && reachable && opts.scheduler == Scheduler::Sms && !work.exhausted() {
            let p = dsp_modsched::polish::polish_effort(
                m,
                &d.graph,
                &outcome.schedule,
                work,
                dsp_modsched::polish::Effort::Full,
            );
            if p.moves > 0 {
                outcome.notes.push(format!(
                    "registers short: polished further, MaxLive {} -> {}",
                    p.max_live_before, p.max_live_after
                ));
                outcome.schedule = p.schedule;
                over = registers_short(m, d, &outcome.schedule, avail, slack);
            }
        }
        if over.is_empty() {
            break outcome;
        }
        let ii = outcome.schedule.ii;
        raises += 1;
        // Far over (MaxLive falls about in proportion to II, and that II
        // would be past the cap): the loop stays as it is.
        let hopeless = match flat {
            None => over.iter().any(|&(_, n, avail)| n as i64 * 2 > avail * 3),
            Some(_) => over.iter().any(|&(_, n, avail)| u64::from(ii) * u64::from(n) > u64::from(pressure_cap) * avail.max(1) as u64),
        };
        if ii >= pressure_cap || raises > MAX_PRESSURE_RAISES || hopeless {
            let why = format!(
                "register pressure: MaxLive {} exceeds the {} registers of file '{}' (II raised up to {ii})",
                over[0].1,
                over[0].2,
                m.regfile(over[0].0).name
            );
            return Err(LoopError::Pressure { file: over[0].0, max_live: over[0].1, avail: over[0].2, why });
        }
        let why = format!(
            "MaxLive {} exceeds the {} registers of file '{}'; II raised",
            over[0].1,
            over[0].2,
            m.regfile(over[0].0).name
        );
        extra_attempts.push(dsp_modsched::Attempt { ii, reason: why.clone() });
        notes.push(format!("II={ii}: {why}"));
        // Fewer values overlap at a larger II: step by an eighth, or in
        // proportion to the shortage.
        let proportional = match flat {
            None => ii,
            Some(_) => over.iter().map(|&(_, n, avail)| (u64::from(ii) * u64::from(n) / avail.max(1) as u64) as u32).max().unwrap_or(ii),
        };
        mii_used.mii = (ii + (ii / 8).max(1)).max(proportional).min(pressure_cap);
    };
    Ok(Scheduled { outcome, extra_attempts, notes, elapsed_us: start.elapsed().as_micros(), work: work.used() })
}

/// The register files whose values at `s` outnumber the registers
/// available (file, MaxLive, available), by file.
fn registers_short(
    m: &Machine,
    d: &ddg::LoopDdg,
    s: &dsp_modsched::Schedule,
    avail: &HashMap<RegFileId, i64>,
    slack: bool,
) -> Vec<(RegFileId, u32, i64)> {
    // Without rebasing (it needs the function): an upper bound of the
    // registers the expansion uses.
    let plan = expand::plan(m, d, s, &[], None, false);
    let live = max_live(d, &plan, slack);
    let mut over: Vec<(RegFileId, u32, i64)> = live
        .iter()
        .filter(|(f, &n)| n as i64 > avail.get(f).copied().unwrap_or(0))
        .map(|(f, &n)| (*f, n, avail.get(f).copied().unwrap_or(0)))
        .collect();
    over.sort_unstable_by_key(|o| o.0 .0);
    over
}

/// The value of a register defined by a load-immediate, if it is one.
fn const_value(m: &Machine, f: &Function, v: dsp_mir::VReg) -> Option<i64> {
    for b in &f.blocks {
        for i in &b.insts {
            if candidate::def_of(m, &i.kind) == Some(v) {
                if let InstKind::Machine { instr, ops, .. } = &i.kind {
                    let sem = &m.instr(*instr).sem;
                    if sem.op == isa_tablegen::SemOp::Mov {
                        if let Some(dsp_mir::Operand::Imm(x)) = sem.args.first().map(|a| &ops[a.0]) {
                            return Some(*x);
                        }
                    }
                }
                return None;
            }
        }
    }
    None
}
