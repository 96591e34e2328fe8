//! dsp-bench: the performance baseline of the C toolchain (`scripts/bench`).
//!
//! A set of DSP kernels written in plain C (`kernels/*.c`: dot product in
//! i32 and f32, FIR filter (f32 and Q15), IIR biquad cascade, matrix
//! multiply, 3x3 2D convolution, autocorrelation, radix-2 complex FFT,
//! saxpy), each at a small and a
//! medium size (`-DSIZE=…`), is compiled with `dspcc` at -O0…-O3 for every
//! machine and run on the simulator with `--strict`. For each run the table
//! gives:
//!
//! - **cycles**: the kernel function's cycles alone — its "cycles per
//!   function" entry of `dsp-sim --stats-json` (bundles issued at addresses
//!   inside the function's symbol plus stall cycles before them; callees
//!   would not count, and the kernels call nothing). `main` calls the kernel
//!   once, so this includes one prologue and epilogue ([`measure`]).
//! - **ops/b**: operations (nops excluded) per bundle issued in the kernel.
//! - **vec%**: the share of those operations that are vector instructions
//!   (an operand in a vector or lane-mask file): near 0 means the kernel
//!   was not vectorized.
//! - **run bundles**: bundles issued by the whole program (start-up, input
//!   generation, the kernel, the checksum and printf).
//! - **code**: bundles of the kernel function's code (static size).
//! - **RATIO**: cycles ÷ bound (1.0 would be perfect), the headline.
//! - **bound**, **bound by**: the lower bound the C semantics allow,
//!   max(resource bound, chain bound) ([`chain`]), and what sets it.
//! - **chain**: the longest strict-IEEE float dependence chain's cycles.
//! - **resource**, **r.ratio**: the resource bound ([`bound`]) and cycles ÷ it.
//! - **scalar**, **speedup**: the naive scalar build's cycles (`-O2
//!   -fno-vectorize -fno-slp-vectorize -fno-modulo-sched`) and its cycles ÷
//!   this build's.
//! - **host**: whether the program's output (the kernel's result or a
//!   checksum of its output array) equals the host build's (`gcc -m32`, see
//!   [`runner::HOST_FLAGS`]); a mismatch is flagged `MISMATCH!` and spelled
//!   out below the table, and `dsp-bench` then exits with status 1.
//!
//! # The lower bound
//!
//! Every kernel states its essential operations as formulas of `SIZE`
//! ([`kernels`]): its multiply-accumulates, multiplies, adds and subtracts
//! (with their element type), each input element loaded once and each output
//! element stored once. [`bound`] maps each to the machine's best
//! instruction for it, found by semantics with `Machine::find_instr` (the
//! vector form over the widest vector file when there is one: `lanes`
//! elements per issue), and takes the largest of: the unit-cycles of the
//! issues ÷ the instances of the units that can run them (over every union
//! of the instructions' unit sets, so units shared by several operations add
//! up), the issues ÷ the issue slots feeding those units, and all issues ÷
//! the bundle's `max_ops`. So for a dot product of N i32 elements on a
//! machine with L lanes, M vector MAC units and S vector load/store units the
//! bound is max(N ÷ (L·M), 2N ÷ (L·S)). It is a resource bound over the
//! whole kernel (ResMII, not RecMII): it ignores dependences and latencies,
//! loop overhead, and the scalar side's extra throughput. [`chain`] adds
//! the latency bound of the kernel's longest strict-IEEE float chain
//! (dropped under `-ffast-math`). No machine fact is written in this crate;
//! all come from the `.isa`.
//!
//! # The software pipeliner's benchmark
//!
//! `dsp-bench --compare-pipelining` prints each run without and with
//! software pipelining side by side ([`report::render_compare`]);
//! `dsp-bench-sms` (`scripts/bench-sms`) compiles a loop corpus with each
//! modulo scheduler and prints the tables of [`loops`] from the pipeliner's
//! JSON reports (read by [`json`]).
//!
//! # The function-level vectorization benchmark
//!
//! `dsp-bench-wfv` (`scripts/bench-wfv`) builds seed 001's programs
//! (`wfv/*.c`) in the configurations of its Table 2 and Fig. 5 and prints
//! both tables per machine ([`wfv`], [`wfv_report`]); its cycles are the
//! kernel's with its callees ([`measure::Scope::WithCallees`]).
//!
//! # The polyhedral benchmark
//!
//! `dsp-bench-poly` (`scripts/bench-poly`) builds issue 12's PolyBench-style
//! kernels (`poly/*.c`) at -O3 and with Polly, runs each with the cache
//! model and on the ideal memory ([`measure::Memory`]) and prints cycles,
//! memory stalls and speedups per machine.
//!
//! Usage: `dsp-bench [MACHINE...]` runs the matrix (see `--help`);
//! `dsp-bench bounds [MACHINE...]` prints only the bounds and the
//! instruction each essential operation maps to.

pub mod bound;
pub mod chain;
pub mod cli;
pub mod cold;
pub mod json;
pub mod kernels;
pub mod loops;
pub mod measure;
pub mod report;
pub mod runner;
pub mod wfv;
pub mod wfv_report;
