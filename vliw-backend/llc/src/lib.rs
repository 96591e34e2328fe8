//! dsp-llc: the backend as a library and a command. LLVM IR (text `.ll` or
//! bitcode `.bc`, read through inkwell) → instruction selection
//! (`dsp_isel::select_module`) → register allocation and frame layout per
//! function (`dsp_regalloc::allocate`) → scheduling, bundle packing and
//! delay-slot filling (`dsp_sched::emit_module_stats`) → assembly text, or
//! an object assembled in process (`dsp_mc::assemble`, `dsp_obj::write_object`).
//!
//! Optimization levels choose the stages' options: at `-O0` one operation
//! per bundle in program order, no delay-slot filling, no renaming, no
//! coalescing; from `-O1` on, all of them. From `-O2` on, countable loops
//! are first rewritten into counter form by LLVM's hardware-loops pass
//! (`counted_loops`), which the software pipeliner relies on.
//!
//! Input is scanned before LLVM's parser sees it and verified after
//! (`input`): what `llvm-as`/`opt` reject is an error, never a crash.

use std::io::Write;

use inkwell::module::Module as LlvmModule;
use isa_tablegen::Machine;

pub mod branch_reg;
pub mod counted_loops;
pub mod input;
pub mod lsr;
pub mod names;
mod passes;
pub mod pipeline;
pub mod ssp;
pub mod streams;
pub mod timing;

use timing::phase;

pub use dsp_sched::FunctionStats;
pub use input::read_module;

/// What to do besides compiling.
#[derive(Clone, Debug, Default)]
pub struct LlcOptions {
    /// 0..=3.
    pub opt_level: u8,
    /// Print the machine IR after selection and after allocation.
    pub print_mir: bool,
    /// Source-line comments in the assembly.
    pub comments: bool,
    /// Each function and data object in its own section (`--function-sections`).
    pub sections: bool,
    /// Rewrite countable loops into counter form (`llvm.start.loop.iterations`,
    /// a counter phi, `llvm.loop.decrement.reg`, `icmp ne 0`) before
    /// selection: see `counted_loops`. `LlcOptions::at_level` sets it from -O2 on.
    pub counted_loops: bool,
    /// Loop strength reduction (`lsr`: induction-variable addresses become
    /// pointer increments) before selection. `LlcOptions::at_level` sets it
    /// from -O1 on.
    pub lsr: bool,
    /// Branch on a register being nonzero or zero instead of on a compare
    /// with 0 made for the branch (`branch_reg`). `LlcOptions::at_level`
    /// sets it from -O1 on.
    pub branch_on_reg: bool,
    /// Fill branch delay slots that hold nops with the target's first
    /// bundles (`dsp_sched::fill`). `LlcOptions::at_level` sets it from -O1 on.
    pub target_fill: bool,
    /// Fill a conditional branch's delay slots that hold nops with the first
    /// bundles of the block it falls through to, when nothing else enters
    /// that block (`dsp_sched::fill::from_fallthrough`). `LlcOptions::at_level`
    /// sets it from -O1 on.
    pub fallthrough_fill: bool,
    /// Delete reloads into registers that already hold the spill slot
    /// (`dsp_regalloc::reload_cse`). `LlcOptions::at_level` sets it from -O1 on.
    pub reload_cse: bool,
    /// Split values that only pass through a software pipeline around it
    /// when registers run out, instead of spilling them everywhere
    /// (`dsp_regalloc::split::passing_through`). `LlcOptions::at_level`
    /// sets it from -O1 on.
    pub split_passing: bool,
    /// Value numbering, dead-code elimination and loop-invariant code
    /// motion on the selected machine IR (`dsp_pipeliner::licm`).
    /// `LlcOptions::at_level` sets it from -O1 on.
    pub clean_loops: bool,
    /// Software-pipeline innermost counted loops (`dsp_pipeliner`); needs
    /// `counted_loops`. `LlcOptions::at_level` sets it from -O2 on.
    pub pipeline: Option<dsp_pipeliner::PipelineOptions>,
}

impl LlcOptions {
    /// The options of optimization level `opt_level` (0..=3), nothing printed.
    pub fn at_level(opt_level: u8) -> LlcOptions {
        LlcOptions {
            opt_level,
            counted_loops: opt_level >= 2,
            lsr: opt_level >= 1,
            clean_loops: opt_level >= 1,
            target_fill: opt_level >= 1,
            fallthrough_fill: opt_level >= 1,
            reload_cse: opt_level >= 1,
            split_passing: opt_level >= 1,
            branch_on_reg: opt_level >= 1,
            pipeline: (opt_level >= 2).then(dsp_pipeliner::PipelineOptions::default),
            ..LlcOptions::default()
        }
    }
}

/// The result of compiling a module.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub asm: String,
    pub stats: Vec<FunctionStats>,
    /// The software pipeliner's record of every innermost loop.
    pub loops: Vec<dsp_pipeliner::LoopReport>,
}

fn sched_options(opts: &LlcOptions) -> dsp_sched::SchedOptions {
    let full = opts.opt_level > 0;
    dsp_sched::SchedOptions {
        comments: opts.comments,
        pack: full,
        fill_delay_slots: full,
        fill_from_target: full && opts.target_fill,
        fill_from_fallthrough: full && opts.fallthrough_fill,
        rename: full,
        sections: opts.sections,
    }
}

/// Compiles a module for `m`; `mir_out` receives `--print-mir` dumps.
/// Err: every error found, one message each.
pub fn compile_module(
    m: &Machine,
    module: &LlvmModule,
    opts: &LlcOptions,
    mir_out: &mut dyn Write,
) -> Result<Compiled, Vec<String>> {
    phase("IR names/ssp", || {
        names::run(module);
        ssp::run(module)
    })
    .map_err(|e| vec![e])?;
    if opts.lsr {
        phase("IR lsr/streams", || {
            lsr::run(module)?;
            streams::run(module, streams::reach(m));
            Ok::<(), String>(())
        })
        .map_err(|e| vec![e])?;
    }
    if opts.counted_loops {
        phase("IR hardware loops", || counted_loops::run(module)).map_err(|e| vec![e])?;
    }
    let isel_opts = dsp_isel::IselOptions::default();
    let mut mir = phase("isel", || dsp_isel::select_module(m, module, &isel_opts))
        .map_err(|errs| errs.iter().map(|e| e.to_string()).collect::<Vec<_>>())?;
    if opts.print_mir {
        for f in &mir.functions {
            let _ = writeln!(
                mir_out,
                "# after instruction selection\n{}",
                dsp_mir::print::function(m, f)
            );
        }
    }
    let ra_opts = dsp_regalloc::RaOptions {
        coalesce: opts.opt_level > 0,
        reload_cse: opts.reload_cse,
        split_passing: opts.split_passing,
        ..dsp_regalloc::RaOptions::default()
    };
    let mut errors = Vec::new();
    let mut loops = Vec::new();
    // Schedules of identical loops are shared across the module's functions.
    let mut memo = dsp_pipeliner::ScheduleMemo::default();
    for f in &mut mir.functions {
        // If-conversion first, so that the clean-ups see the merged loop
        // bodies (the rerouted loads' slot addresses are invariant).
        if opts.pipeline.is_some() {
            phase("ifconv", || dsp_pipeliner::ifconv::if_convert_loops(m, f));
        }
        if opts.clean_loops {
            phase("licm", || dsp_pipeliner::licm::clean_loops(m, f));
        }
        match pipeline::pipeline_and_allocate(m, f, opts.pipeline.as_ref(), opts.branch_on_reg, &ra_opts, &mut memo) {
            Ok(reports) => loops.extend(reports),
            Err(e) => {
                errors.push(e.to_string());
                continue;
            }
        }
        if opts.print_mir {
            let _ = writeln!(
                mir_out,
                "# after register allocation\n{}",
                dsp_mir::print::function(m, f)
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let (asm, stats) = phase("sched/emit", || dsp_sched::emit_module_stats(m, &mir, &sched_options(opts)))
        .map_err(|e| vec![e.to_string()])?;
    Ok(Compiled { asm, stats, loops })
}

/// Assembles compiled text into the bytes of a relocatable object.
pub fn assemble_object(m: &Machine, asm: &str, name: &str) -> Result<Vec<u8>, Vec<String>> {
    let obj = phase("assemble", || dsp_mc::assemble(m, asm, name)).map_err(|errs| {
        errs.iter()
            .map(|e| format!("{e} (in the compiler's own assembly: a backend bug)"))
            .collect::<Vec<_>>()
    })?;
    dsp_obj::write_object(&obj).map_err(|e| vec![format!("{name}: {e}")])
}

/// One line per function: bundles, operations, packing and delay slots.
pub fn stats_table(stats: &[FunctionStats]) -> String {
    let mut s = format!(
        "{:<24} {:>8} {:>8} {:>6} {:>8} {:>12}\n",
        "function", "bundles", "ops", "nops", "ops/bdl", "delay filled"
    );
    for f in stats {
        s.push_str(&format!(
            "{:<24} {:>8} {:>8} {:>6} {:>8.2} {:>6}/{:<5}\n",
            f.name,
            f.bundles,
            f.ops,
            f.nops,
            f.ops_per_bundle(),
            f.delay_slots_filled,
            f.delay_slots
        ));
    }
    s
}
