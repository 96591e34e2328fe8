//! Running a benchmark executable on the simulator (the `dsp-sim` library,
//! with `--strict` semantics) and measuring one function of it.
//!
//! The kernel's figures are taken from the simulator's per-bundle counters,
//! the way `dsp-sim --stats` computes its "cycles per function": a bundle
//! belongs to the function whose symbol covers its address; its cycles are
//! the times it issued plus the stall cycles before it, plus the memory
//! stall cycles its accesses caused (data-cache misses). The kernel's cycles
//! are therefore exactly its "cycles per function" entry of `dsp-sim
//! --strict --stats-json` (checked on every run), and its bundles and
//! operations (nops excluded) count the same bundles.
//!
//! [`Scope::WithCallees`] measures a function together with every function
//! it calls directly or through others (the closure of the static call
//! graph: the simulator's decoded `call` targets; calls through registers
//! are not followed): the sum of their "cycles per function" entries. The
//! function-vectorization benchmark needs it, its kernels calling vector
//! variants and libm. A callee also called from outside the kernel (say
//! `memcpy`, by `printf` too) would be counted whole.

use std::path::Path;

use dsp_obj::Executable;
use dsp_sim::decode::{Kind, Program};
use dsp_sim::{Config, Outcome, Sim};
use isa_tablegen::{InstrId, Machine, OperandKind};

use crate::cold::cold_stall;
use crate::kernels::{Kernel, Use};

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
    /// Issued bundles plus stall cycles (memory stalls included), in the function.
    pub cycles: u64,
    /// Of those, the cycles the machine stood still for data-cache misses
    /// caused by the function's accesses.
    pub memory_stall_cycles: u64,
    pub bundles: u64,
    /// Operations issued in the function, nops excluded.
    pub ops: u64,
    /// Of those, the vector operations (an operand in a vector or lane-mask
    /// file).
    pub vector_ops: u64,
    /// Bundles of the function's code (static).
    pub code_bundles: u64,
    /// The stall cycles of the cold misses of the kernel's data at its
    /// first entry ([`crate::cold`]; 0 unless measured with
    /// [`run_kernel`]): part of its lower bound.
    pub cold_stall_cycles: u64,
}

impl KernelStats {
    /// Vector operations as a percentage of all operations.
    pub fn vector_percent(&self) -> f64 {
        if self.ops == 0 {
            0.0
        } else {
            100.0 * self.vector_ops as f64 / self.ops as f64
        }
    }

    pub fn ops_per_bundle(&self) -> f64 {
        if self.bundles == 0 {
            0.0
        } else {
            self.ops as f64 / self.bundles as f64
        }
    }
}

/// Whether an instruction works on the vector side: one of its operands is
/// a register of a vector or lane-mask file.
pub fn is_vector(m: &Machine, i: InstrId) -> bool {
    m.instr(i).operands.iter().any(|o| match o.kind {
        OperandKind::Reg(f) => m.regfile(f).lanes.is_some() || m.regfile(f).mask_of.is_some(),
        _ => false,
    })
}

/// What a measurement covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The function's own bundles.
    Function,
    /// The function and every function it calls, transitively.
    WithCallees,
}

/// Runs the executable file `exe` on `m` (strict) and measures function `func`.
pub fn run(m: &Machine, exe: &Path, func: &str, max_cycles: u64) -> Result<Run, String> {
    run_scoped(m, exe, func, Scope::Function, max_cycles)
}

/// Runs the executable file `exe` on `m` (strict) and measures the
/// benchmark kernel `k`, with the cold misses of its data
/// ([`KernelStats::cold_stall_cycles`]).
pub fn run_kernel(m: &Machine, exe: &Path, k: &Kernel, max_cycles: u64) -> Result<Run, String> {
    let image = load(exe)?;
    measured(m, &image, k.func, Scope::Function, max_cycles, Memory::Modelled, k.data)
        .map_err(|e| format!("{}: {e}", exe.display()))
}

fn load(exe: &Path) -> Result<Executable, String> {
    let bytes = std::fs::read(exe).map_err(|e| format!("{}: {e}", exe.display()))?;
    dsp_obj::read_executable(&bytes).map_err(|e| format!("{}: {e}", exe.display()))
}

/// Runs the executable file `exe` on `m` (strict) and measures `func` over `scope`.
pub fn run_scoped(
    m: &Machine,
    exe: &Path,
    func: &str,
    scope: Scope,
    max_cycles: u64,
) -> Result<Run, String> {
    run_memory(m, exe, func, scope, max_cycles, Memory::Modelled)
}

/// The indices (into `p.funcs`) of `f` and of every function reachable from
/// it through direct calls, sorted.
pub fn call_closure(p: &Program, f: usize) -> Vec<usize> {
    let mut seen = vec![false; p.funcs.len()];
    let mut stack = vec![f];
    seen[f] = true;
    while let Some(g) = stack.pop() {
        let (lo, hi) = (p.funcs[g].addr, p.funcs[g].end);
        for (o, op) in p.ops.iter().enumerate() {
            if !matches!(op.kind, Kind::Call) || p.op_pc[o] < lo || p.op_pc[o] >= hi {
                continue;
            }
            if let Some(t) = p.func_index(op.aux) {
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
    }
    (0..p.funcs.len()).filter(|&i| seen[i]).collect()
}

/// Runs a loaded executable on `m` (strict) and measures function `func`.
pub fn run_image(
    m: &Machine,
    image: &Executable,
    func: &str,
    max_cycles: u64,
) -> Result<Run, String> {
    run_image_scoped(m, image, func, Scope::Function, max_cycles)
}

/// Runs a loaded executable on `m` (strict) and measures `func` over `scope`.
pub fn run_image_scoped(
    m: &Machine,
    image: &Executable,
    func: &str,
    scope: Scope,
    max_cycles: u64,
) -> Result<Run, String> {
    run_image_memory(m, image, func, scope, max_cycles, Memory::Modelled)
}

/// Which memory the simulator models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// The `.isa`'s data caches and on-chip memories: misses stall.
    Modelled,
    /// Every access at its instruction's latency (`dsp-sim --ideal-memory`).
    Ideal,
}

/// Runs the executable file `exe` on `m` (strict) with the given memory
/// model and measures `func` over `scope`.
pub fn run_memory(
    m: &Machine,
    exe: &Path,
    func: &str,
    scope: Scope,
    max_cycles: u64,
    memory: Memory,
) -> Result<Run, String> {
    let image = load(exe)?;
    run_image_memory(m, &image, func, scope, max_cycles, memory)
        .map_err(|e| format!("{}: {e}", exe.display()))
}

/// Runs a loaded executable on `m` (strict) with the given memory model and
/// measures `func` over `scope`.
pub fn run_image_memory(
    m: &Machine,
    image: &Executable,
    func: &str,
    scope: Scope,
    max_cycles: u64,
    memory: Memory,
) -> Result<Run, String> {
    measured(m, image, func, scope, max_cycles, memory, &[])
}

/// The run and its measurement; with `data`, the cold misses of those
/// arrays at `func`'s first entry too.
fn measured(
    m: &Machine,
    image: &Executable,
    func: &str,
    scope: Scope,
    max_cycles: u64,
    memory: Memory,
    data: &[(&str, Use)],
) -> Result<Run, String> {
    if image.machine.fingerprint != m.fingerprint {
        return Err(format!(
            "built for machine '{}', not for '{}'",
            image.machine.name, m.name
        ));
    }
    let config = Config {
        strict: true,
        trace: false,
        max_cycles: Some(max_cycles),
        ideal_memory: memory == Memory::Ideal,
        ..Config::default()
    };
    let mut sim = Sim::new(m, image, config)?;
    let mut cold = 0;
    if !data.is_empty() {
        let f = sim.prog.funcs.iter().find(|f| f.name == func).ok_or_else(|| format!("no function '{func}'"))?;
        sim.break_at(f.addr)?;
    }
    let mut outcome = sim.run();
    if let Outcome::Break(_) = outcome {
        cold = cold_stall(&sim.core.memsys, image, data)?;
        outcome = sim.run();
    }
    let outcome = match outcome {
        Outcome::Exit(status) => Ok(status),
        Outcome::Fault(f) => Err(format!("fault: {f}")),
        Outcome::CycleLimit(f) => Err(format!("cycle limit: {f}")),
        Outcome::Stopped(f) => Err(format!("stopped: {f}")),
        Outcome::Break(pc) => Err(format!("stopped at a breakpoint at {pc:#x}")),
    };
    let f = sim
        .prog
        .funcs
        .iter()
        .position(|f| f.name == func)
        .ok_or_else(|| format!("no function '{func}'"))?;
    let p = &sim.prog;
    let funcs = match scope {
        Scope::Function => vec![f],
        Scope::WithCallees => call_closure(p, f),
    };
    let mut k = KernelStats { cold_stall_cycles: cold, ..KernelStats::default() };
    for (i, b) in p.bundles.iter().enumerate() {
        if !p.func_index(b.pc).is_some_and(|g| funcs.contains(&g)) {
            continue;
        }
        let range = b.first as usize..(b.first + b.n) as usize;
        let useful = p.ops[range.clone()].iter().filter(|o| !o.is_nop).count() as u64;
        let vector = range
            .filter(|&o| !p.ops[o].is_nop && is_vector(m, p.src_ops[o].instr))
            .count() as u64;
        k.code_bundles += 1;
        k.vector_ops += vector * sim.issues[i];
        let mem = sim.memory_stalls_of(i);
        k.memory_stall_cycles += mem;
        k.cycles += sim.issues[i] + sim.stalls[i] + mem;
        k.bundles += sim.issues[i];
        k.ops += useful * sim.issues[i];
    }
    let stats = sim.stats();
    let names: Vec<&str> = funcs.iter().map(|&g| p.funcs[g].name.as_str()).collect();
    let reported: u64 = stats
        .functions
        .iter()
        .filter(|s| names.contains(&s.name.as_str()))
        .map(|s| s.cycles)
        .sum();
    if reported != k.cycles {
        return Err(format!(
            "'{func}' ({scope:?}) took {} cycles by the bundle counters but {reported} by dsp-sim's statistics",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A program whose `kern` runs a counted loop; `main` calls it once.
    const PROGRAM: &str = "
        .text
        .globl main
        .type main, @function
main:
        mov r20, r31
        li r4, 10
        call kern
        .nop_delay
        li r4, 0
        jmp r20
        .nop_delay
        .size main, .-main
        .globl kern
        .type kern, @function
kern:
        vbcast v1, r4
        .wait vbcast
.Lloop:
        { addi r4, r4, -1 ; vadd v2, v1, v1 }
        pgti p1, r4, 0
        (p1) br .Lloop
        .nop_delay
        jmp r31
        .nop_delay
        .size kern, .-kern
";

    /// `main` reads every 32-byte line of `hot`, then calls `kern`; `cold` is never
    /// touched before.
    const DATA_PROGRAM: &str = "
        .data
        .balign 128
        .globl hot
        .type hot, @object
hot:
        .zero 256
        .size hot, 256
        .globl cold
        .type cold, @object
cold:
        .zero 512
        .size cold, 512
        .text
        .globl main
        .type main, @function
main:
        mov r20, r31
        li r5, hot
        ldw r6, r5, 0
        ldw r6, r5, 32
        ldw r6, r5, 64
        ldw r6, r5, 96
        ldw r6, r5, 128
        ldw r6, r5, 160
        ldw r6, r5, 192
        ldw r6, r5, 224
        call kern
        .nop_delay
        li r4, 0
        jmp r20
        .nop_delay
        .size main, .-main
        .globl kern
        .type kern, @function
kern:
        jmp r31
        .nop_delay
        .size kern, .-kern
";

    fn link(m: &Machine) -> Executable {
        link_program(m, PROGRAM)
    }

    fn link_program(m: &Machine, program: &str) -> Executable {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/crt0.s");
        let crt0_src = std::fs::read_to_string(&root).unwrap();
        let crt0 = dsp_mc::assemble(m, &crt0_src, "crt0.s").unwrap();
        let prog = dsp_mc::assemble(m, program, "prog.s").unwrap();
        let inputs = vec![
            dsp_ld::Input::Object(dsp_ld::InputObject {
                name: "crt0.o".into(),
                object: crt0,
            }),
            dsp_ld::Input::Object(dsp_ld::InputObject {
                name: "prog.o".into(),
                object: prog,
            }),
        ];
        let opts = dsp_ld::LinkOptions {
            machine: Some(m.clone()),
            ..Default::default()
        };
        dsp_ld::link(&inputs, &opts).unwrap()
    }

    #[test]
    fn measures_one_function_on_every_machine() {
        for name in isa_tablegen::builtin::names() {
            let m = Machine::load(name).unwrap();
            let exe = link(&m);
            let run = run_image(&m, &exe, "kern", 1_000_000).unwrap();
            assert_eq!(run.outcome, Ok(0), "{name}");
            let d = m.control.delay_slots as u64;
            let bcast = m.instr(m.instr_by_mnemonic("vbcast").unwrap());
            let w = bcast.latency.max(bcast.busy) as u64 - 1;
            let k = run.kernel;
            // vbcast and its wait; 10 × (3 bundles + delay slots); jmp + delay slots.
            assert_eq!(k.bundles, 1 + w + 10 * (3 + d) + 1 + d, "{name}: {k:?}");
            assert_eq!(k.cycles, k.bundles, "{name}: no stalls");
            // vbcast, 10 × (addi, vadd, pgti, br), jmp; nops not counted.
            assert_eq!(k.ops, 1 + 40 + 1, "{name}: {k:?}");
            assert_eq!(k.vector_ops, 1 + 10, "{name}: {k:?}");
            assert_eq!(k.code_bundles, 1 + w + 3 + d + 1 + d, "{name}: {k:?}");
            assert!(run.total_bundles > k.bundles);
            // main and the kern it calls, not the start-up code around main.
            let main = run_image(&m, &exe, "main", 1_000_000).unwrap().kernel;
            let both = run_image_scoped(&m, &exe, "main", Scope::WithCallees, 1_000_000).unwrap();
            assert_eq!(both.kernel.cycles, main.cycles + k.cycles, "{name}");
            assert!(both.kernel.cycles < both.total_cycles, "{name}");
            assert!(run_image(&m, &exe, "nothing", 1_000_000)
                .unwrap_err()
                .contains("no function 'nothing'"));
        }
    }

    #[test]
    fn cold_misses_count_the_lines_not_in_the_first_level_at_the_kernel_entry() {
        for name in isa_tablegen::builtin::names() {
            let m = Machine::load(name).unwrap();
            let exe = link_program(&m, DATA_PROGRAM);
            let Some(l1) = m.data_cache(1) else { continue };
            // Every line of L1 misses; L2 misses once per line of the larger size.
            let l2 = m.data_cache(2).unwrap();
            let big = l1.line.max(l2.line) as u64;
            let below = 512 / l1.line as u64 * l1.miss as u64 + 512 / big * l2.miss as u64;
            let cold = |data: &[(&str, Use)]| {
                measured(&m, &exe, "kern", Scope::Function, 1_000_000, Memory::Modelled, data).unwrap()
            };
            let run = cold(&[("hot", Use::Read), ("cold", Use::ReadWrite)]);
            assert_eq!(run.outcome, Ok(0), "{name}");
            // hot is in L1; each line of cold misses every level.
            assert_eq!(run.kernel.cold_stall_cycles, below, "{name}");
            // Stores to a write-through first level do not stall.
            let wt = l1.policy == isa_tablegen::WritePolicy::WriteThrough;
            let stores = cold(&[("cold", Use::Write)]).kernel.cold_stall_cycles;
            assert_eq!(stores, if wt { 0 } else { below }, "{name}");
            // The same run, the same measurement otherwise.
            let plain = run_image(&m, &exe, "kern", 1_000_000).unwrap();
            assert_eq!((plain.kernel.cold_stall_cycles, plain.total_cycles), (0, run.total_cycles), "{name}");
            assert!(measured(&m, &exe, "kern", Scope::Function, 1_000_000, Memory::Modelled, &[("nothing", Use::Read)])
                .unwrap_err()
                .contains("no data symbol 'nothing'"));
            // An ideal memory has no cold misses.
            let ideal = measured(&m, &exe, "kern", Scope::Function, 1_000_000, Memory::Ideal, &[("cold", Use::Read)]).unwrap();
            assert_eq!(ideal.kernel.cold_stall_cycles, 0, "{name}");
        }
    }
}
