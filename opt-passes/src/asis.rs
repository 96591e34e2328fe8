//! `dsp-interchange`'s third form (with `-floop-flatten`): the nest as
//! it is, behind the shared guard and the check that the inner iterations
//! stay apart over the whole inner loop, with the outer loop counted
//! (`i = start + t·step`), the inner loop marked independent and the outer
//! latch marked [`crate::flatten::NEST_INDEPENDENT`]: every iteration of
//! the nest touches its own memory. For nests too long for the other two
//! forms whose accesses are not all contiguous (an FFT's late stages: a
//! few rows of long butterfly loops), so that dsp-flatten makes them one
//! loop once egg has vectorized the inner one.

use std::collections::HashMap;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use crate::cfg::Cfg;
use crate::interchange::{mark_independent, Form, Guard, Nest};
use crate::ir;
use crate::strip::Apart;

/// Builds the nest as it is behind its guard, which falls back to
/// `fallback` (`indep`: the places [`crate::strip::independence`] keeps
/// apart); returns the guard and the new loops' headers. The caller
/// enters the guard.
pub(crate) fn as_is(
    f: LLVMValueRef,
    cfg: &Cfg,
    nest: &Nest,
    indep: &[Apart],
    fallback: LLVMBasicBlockRef,
    shared: &Guard,
) -> Result<(LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>), String> {
    let o = &nest.outer;
    let exit = cfg.blocks[o.exit];
    let ranks = ir::Ranks::new(f);
    unsafe {
        let fm = Form::new(f, nest);
        let (b, jty) = (fm.b, fm.jty);
        let (guard_bb, tpre, t, jl, tl) = (fm.block(c"ai.guard"), fm.block(c"ai.tpre"), fm.block(c"ai.t"), fm.block(c"ai.j"), fm.block(c"ai.tlatch"));
        LLVMPositionBuilderAtEnd(b, guard_bb);
        let Guard { cnt, trip_j, mut ok } = shared.clone();
        for a in indep {
            ok.push(a.emit_over(b, trip_j, Some(&nest.trip_poly()), &ranks, fm.i64t)?);
        }
        let cnt_i = fm.end_guard(ok, cnt, tpre, fallback)?;
        LLVMPositionBuilderAtEnd(b, tpre);
        LLVMBuildBr(b, t);
        // The outer loop by its count, the outer values the body uses in it.
        let (tphi, i) = fm.outer_counter(nest, t);
        let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
        map.insert(o.iv, i);
        let mut made = Vec::new();
        for &g in &nest.glue {
            let x = LLVMInstructionClone(g);
            LLVMInsertIntoBuilder(b, x);
            map.insert(g, x);
            made.push(x);
        }
        LLVMBuildBr(b, jl);
        // The inner loop as it was.
        LLVMPositionBuilderAtEnd(b, jl);
        let jphi = LLVMBuildPhi(b, jty, c"".as_ptr());
        map.insert(nest.jiv, jphi);
        fm.clone_body(nest, false, &mut map, &mut made);
        ir::remap_operands(&made, &map);
        let jnext = *map.get(&nest.jnext).ok_or("internal: the inner counter's increment was not cloned")?;
        let jterm = LLVMBuildCondBr(b, LLVMBuildICmp(b, inkwell::llvm_sys::LLVMIntPredicate::LLVMIntNE, jnext, nest.jbound, c"".as_ptr()), jl, tl);
        mark_independent(jterm);
        ir::add_incoming(jphi, &[(nest.jstart, t), (jnext, jl)]);
        // The outer latch: on to the count, then out of the nest.
        let tterm = fm.count_outer(tphi, cnt_i, (tpre, t, tl, exit));
        ir::add_loop_property(tterm, crate::flatten::NEST_INDEPENDENT, None);
        Ok((guard_bb, vec![t, jl]))
    }
}
