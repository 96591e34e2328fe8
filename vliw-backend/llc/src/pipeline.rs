//! Software pipelining and register allocation of one function, retried
//! until allocation succeeds: when the allocator reports that a pipelined
//! loop's fixed-schedule blocks need more registers than the machine has
//! (`RaErrorKind::FixedBlockPressure`), the loop is scheduled again at a
//! larger II (fewer values live at once), and after a few tries left as an
//! ordinary loop; its report says which. Between the two, branches on a
//! compare with 0 become branches on the register (`branch_reg`, when
//! `branch_on_reg`). One `dsp_pipeliner::Session`
//! spans the retries: the other loops' schedules are reused, and the
//! function's compile-time budget for scheduling covers them all.

use dsp_mir::{Block, Function, Machine};
use dsp_pipeliner::{pipeline_function_in, LoopReport, PipelineOptions, ScheduleMemo, Session};
use dsp_regalloc::{allocate, RaError, RaErrorKind, RaOptions};

use crate::timing::phase;

/// Times a loop's II is raised before it is given up.
const MAX_RAISES: u32 = 4;

/// Pipelines (when `popts` is given) and allocates `f`; returns the loop reports.
pub fn pipeline_and_allocate(
    m: &Machine,
    f: &mut Function,
    popts: Option<&PipelineOptions>,
    branch_on_reg: bool,
    ra: &RaOptions,
    memo: &mut ScheduleMemo,
) -> Result<Vec<LoopReport>, RaError> {
    let Some(popts) = popts else {
        if branch_on_reg {
            phase("branch on register", || crate::branch_reg::run(m, f));
        }
        phase("regalloc", || allocate(m, f, ra))?;
        return Ok(Vec::new());
    };
    let original = f.clone();
    let mut opts = popts.clone();
    let mut raises: Vec<(Block, u32)> = Vec::new();
    let mut session = Session::with_memo(std::mem::take(memo));
    loop {
        let mut work = original.clone();
        let result = phase("pipelining", || pipeline_function_in(m, &mut work, &opts, &mut session));
        if branch_on_reg {
            phase("branch on register", || crate::branch_reg::run(m, &mut work));
        }
        match phase("regalloc", || allocate(m, &mut work, ra)) {
            Ok(_) => {
                *f = work;
                *memo = session.into_memo();
                return Ok(result.loops);
            }
            Err(RaError { kind: RaErrorKind::FixedBlockPressure { block, file }, .. }) => {
                let Some(&(_, owner)) = result.owners.iter().find(|(b, _)| *b == block) else {
                    // Not one of ours: give up pipelining this function.
                    opts.skip.extend(result.pipelined.iter().map(|&(l, _, _)| l));
                    continue;
                };
                // At one II: first a register per kernel copy for every
                // value of the vector file that ran short (`scripts/bench-egg`
                // on ftm: conv2d 64 at II 6 instead of 7, 4299 -> 4133
                // cycles; for the scalar file it lost, fft 2048 8113 ->
                // 8159); then, where the kernel copies are not a power of
                // two, that power (shared copies, then whole).
                let vector = m.regfiles[file.0 as usize].lanes.is_some();
                if vector && opts.whole_copies.get(&owner) != Some(&file) {
                    opts.whole_copies.insert(owner, file);
                    continue;
                }
                let (ii, k) = result.pipelined.iter().find(|(l, _, _)| *l == owner).map_or((1, 1), |&(_, ii, k)| (ii, k));
                if !k.is_power_of_two() && opts.pow2_copies.insert(owner) {
                    opts.whole_copies.remove(&owner);
                    continue;
                }
                opts.whole_copies.remove(&owner);
                opts.pow2_copies.remove(&owner);
                // Then the register pressure estimated with a cycle of
                // slack per value, which may reload invariants (the IIR
                // on ftm8: at the exact estimate no II up to the raises'
                // limit allocates, with slack II 21 does, 11 invariants
                // reloaded); then a larger II.
                if opts.slack_pressure.insert(owner) {
                    continue;
                }
                let n = match raises.iter_mut().find(|(l, _)| *l == owner) {
                    Some((_, n)) => {
                        *n += 1;
                        *n
                    }
                    None => {
                        raises.push((owner, 1));
                        1
                    }
                };
                if n > MAX_RAISES {
                    opts.skip.insert(owner);
                } else {
                    opts.min_ii.insert(owner, ii + 1);
                }
            }
            Err(e) => {
                *memo = session.into_memo();
                return Err(e);
            }
        }
    }
}
