//! The masked tail of a vector loop ([`super::rewrite`]): the iterations
//! left after it (fewer than its `copies`) as masked steps of the
//! one-vector program, one per `lanes` of them, in one block; integer sums
//! kept in vector accumulators go on adding into them.

use std::collections::HashMap;

use dsp_egg_isel::lang::VecLang;
use egg::{Id, RecExpr};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate as P;

use super::{Emitter, R};
use crate::eqsat::lift::{Lifted, Output};
use crate::wfv::widen::nm;

type V = LLVMValueRef;

/// The program a masked tail runs, one vector per step: the lifted loop
/// and its program.
pub(crate) type Narrow<'a> = (&'a Lifted, &'a RecExpr<VecLang>);

/// Whether the iterations left after the vector loop can run as masked
/// steps of this program (one per `lanes` left): one vector per step,
/// every access a vector load or store (inactive lanes then touch no
/// memory), no lane read back as a scalar except through a sum (whose
/// inactive lanes are the identity), and every carried value its start
/// plus such sums, so that nothing inactive lanes compute reaches memory
/// or a result.
pub(crate) fn tail_ok(lifted: &Lifted, prog: &RecExpr<VecLang>) -> bool {
    // A carried value may only be its start plus sums across lanes: a
    // scalar chain through the copies (x = x * a + c, step after step)
    // would run all `lanes` copies, not the iterations left.
    fn sum_of_lanes(prog: &RecExpr<VecLang>, id: Id) -> bool {
        match &prog[id] {
            VecLang::ReduceAdd(_) | VecLang::Arg(_) | VecLang::Num(_) => true,
            VecLang::Add([a, b]) => sum_of_lanes(prog, *a) && sum_of_lanes(prog, *b),
            _ => false,
        }
    }
    let Some(VecLang::List(outs)) = prog.as_ref().last() else { return false };
    let carried_ok = lifted.outputs.iter().zip(outs.iter()).all(|(o, &id)| !matches!(o, Output::Carried(_)) || sum_of_lanes(prog, id));
    // (Without runtime overlap checks: when one fails, the vector loop does
    // not run and more than a step is left.)
    lifted.copies == lifted.lanes
        && lifted.disjoint.is_empty()
        && carried_ok
        && !prog.as_ref().iter().any(|n| matches!(n, VecLang::Get(_) | VecLang::Extract(_) | VecLang::VecLoadS(_) | VecLang::Shuffle(_)))
        && lifted.outputs.iter().all(|o| match o {
            Output::Store { vector, class, .. } => *vector && lifted.classes[*class].stride.is_none(),
            Output::Carried(_) => true,
        })
}

/// Where a masked tail starts: the iterations left, the counter there
/// (`iv`'s value) and the inductions' values there.
pub(super) struct TailAt<'a> {
    pub left: V,
    pub start: V,
    pub iv: V,
    pub ind: &'a HashMap<V, V>,
}

impl Emitter<'_> {
    /// Emits `steps` masked steps of the program at the builder's block:
    /// step `s` covers iterations `s·lanes …` of what is left, its lanes
    /// active below `at.left` (a step with no active lane reads and writes
    /// nothing, so none needs a branch and the scheduler overlaps them).
    /// `scalars` (carried values) and `accs` (the vector accumulators of
    /// `sums`, by carried value) go in as the values at the tail's start
    /// and come out as those after it.
    pub(super) unsafe fn masked_steps(
        &self,
        steps: usize,
        at: &TailAt,
        sums: &[(V, usize, Id, usize)],
        carried: &[V],
        scalars: &mut HashMap<V, V>,
        accs: &mut HashMap<V, V>,
    ) -> R<()> {
        let (b, lanes, i32t) = (self.b, self.lanes, self.i32t);
        let ity = LLVMTypeOf(at.left);
        let c = |v: i64| LLVMConstInt(ity, v as u64, 1);
        let ivt = LLVMVectorType(ity, lanes as u32);
        let ins = LLVMBuildInsertElement(b, LLVMGetPoison(ivt), at.left, LLVMConstInt(i32t, 0, 0), nm());
        let left_v = LLVMBuildShuffleVector(b, ins, LLVMGetPoison(ivt), LLVMConstNull(LLVMVectorType(i32t, lanes as u32)), nm());
        for s in 0..steps as i64 {
            let mut iota: Vec<V> = (0..lanes).map(|l| c(s * lanes + l)).collect();
            let iota = LLVMConstVector(iota.as_mut_ptr(), lanes as u32);
            let mask = LLVMBuildICmp(b, P::LLVMIntULT, iota, left_v, nm());
            let iv0 = LLVMBuildAdd(b, at.start, c(s * lanes), nm());
            let mut ind: HashMap<V, V> = HashMap::new();
            for i in &self.lifted.inductions {
                let r = at.ind[&i.phi];
                ind.insert(i.phi, LLVMBuildAdd(b, r, LLVMConstInt(LLVMTypeOf(r), (i.step * lanes * s) as u64, 1), nm()));
            }
            let ptrs = self.pointers(iv0, at.iv, &ind);
            let acc_phi: HashMap<(V, usize), V> = accs.iter().map(|(&p, &a)| ((p, 0), a)).collect();
            let (val, acc_next) = self.program(&ptrs, scalars, Some(mask), Some(&(sums.to_vec(), acc_phi)))?;
            let next = self.outputs(&val, &ptrs, Some(mask))?;
            for p in carried {
                scalars.insert(*p, *next.get(p).ok_or("internal: a carried value without its tail value")?);
            }
            for (&p, a) in accs.iter_mut() {
                *a = *acc_next.get(&(p, 0)).ok_or("internal: an accumulator without its tail value")?;
            }
        }
        Ok(())
    }
}
