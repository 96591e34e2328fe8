//! Running a benchmark executable on the simulator (the `dsp-sim` library,
//! with `--strict` semantics) and measuring one function of it.
//!
//! The kernel's figures are taken from the simulator's per-bundle counters,
//! the way `dsp-sim --stats` computes its "cycles per function": a bundle
//! belongs to the function whose symbol covers its address; its cycles are
//! the times it issued plus the stall cycles before it. The kernel's cycles
//! are therefore exactly its "cycles per function" entry of `dsp-sim
//! --strict --stats-json` (checked on every run), and its bundles and
//! operations (nops excluded) count the same bundles.

use std::path::Path;

use dsp_sim::{Config, Outcome, Sim};
use isa_tablegen::Machine;

/// What one run gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Exit status, or the fault / cycle-limit message.
    pub outcome: Result<i32, String>,
    /// Cycles of the whole run.
    pub total_cycles: u64,
    /// Bundles issued in the whole run.
    pub total_bundles: u64,
    pub kernel: KernelStats,
}

/// The measured function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelStats {
    /// Issued bundles plus stall cycles, in the function.
    pub cycles: u64,
    pub bundles: u64,
    /// Operations issued in the function, nops excluded.
    pub ops: u64,
    /// Bundles of the function's code (static).
    pub code_bundles: u64,
}

impl KernelStats {
    pub fn ops_per_bundle(&self) -> f64 {
        if self.bundles == 0 {
            0.0
        } else {
            self.ops as f64 / self.bundles as f64
        }
    }
}

/// Runs `exe` on `m` (strict) and measures function `func`.
pub fn run(m: &Machine, exe: &Path, func: &str, max_cycles: u64) -> Result<Run, String> {
    let bytes = std::fs::read(exe).map_err(|e| format!("{}: {e}", exe.display()))?;
    let image = dsp_obj::read_executable(&bytes).map_err(|e| format!("{}: {e}", exe.display()))?;
    if image.machine.fingerprint != m.fingerprint {
        return Err(format!("{}: built for machine '{}', not for '{}'", exe.display(), image.machine.name, m.name));
    }
    let config = Config { strict: true, trace: false, max_cycles: Some(max_cycles) };
    let mut sim = Sim::new(m, &image, config).map_err(|e| format!("{}: {e}", exe.display()))?;
    let outcome = match sim.run() {
        Outcome::Exit(status) => Ok(status),
        Outcome::Fault(f) => Err(format!("fault: {f}")),
        Outcome::CycleLimit(f) => Err(format!("cycle limit: {f}")),
    };
    let f = sim
        .prog
        .funcs
        .iter()
        .position(|f| f.name == func)
        .ok_or_else(|| format!("{}: no function '{func}'", exe.display()))?;
    let p = &sim.prog;
    let mut k = KernelStats::default();
    for (i, b) in p.bundles.iter().enumerate() {
        if p.func_index(b.pc) != Some(f) {
            continue;
        }
        let useful = p.ops[b.first as usize..(b.first + b.n) as usize].iter().filter(|o| !o.is_nop).count() as u64;
        k.code_bundles += 1;
        k.cycles += sim.issues[i] + sim.stalls[i];
        k.bundles += sim.issues[i];
        k.ops += useful * sim.issues[i];
    }
    let stats = sim.stats();
    let reported = stats.functions.iter().find(|s| s.name == func).map_or(0, |s| s.cycles);
    if reported != k.cycles {
        return Err(format!(
            "{}: '{func}' took {} cycles by the bundle counters but {reported} by dsp-sim's statistics",
            exe.display(),
            k.cycles
        ));
    }
    Ok(Run {
        stdout: sim.core.stdout.clone(),
        stderr: sim.core.stderr.clone(),
        outcome,
        total_cycles: stats.cycles,
        total_bundles: stats.bundles,
        kernel: k,
    })
}
