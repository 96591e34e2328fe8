//! Small memory intrinsics for `dsp-expand-intrinsics`: `llvm.memcpy`,
//! `llvm.memcpy.inline`, `llvm.memmove`, `llvm.memset` and
//! `llvm.memset.inline` with a constant length of at most [`MAX_ACCESSES`]
//! accesses become loads and stores (a struct copy is then a handful of
//! bundled loads and stores instead of a call into the runtime).
//!
//! The access width is the largest power of two that the known alignment of
//! both pointers (the `align` attributes), the remaining length and the
//! machine allow: 8 bytes when the `.isa` has 64-bit scalar loads and
//! stores, else 4. Misaligned accesses fault on the machine, so the width
//! never exceeds the alignment. `memmove` loads everything before storing;
//! volatile calls are left alone.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use isa_tablegen::{SemOp, Ty};

use crate::caps::Caps;
use crate::ir::{self, Builder};

/// The most loads (or stores) one call may expand into.
pub const MAX_ACCESSES: u64 = 16;

const PREFIXES: &[&str] = &["llvm.memcpy.", "llvm.memmove.", "llvm.memset."];

/// Runs the expansion; returns whether anything changed.
pub fn run(m: LLVMModuleRef, caps: &Caps) -> bool {
    let widest = widest_access(caps);
    let mut changed = false;
    for (call, name) in ir::intrinsic_calls(m, PREFIXES) {
        changed |= lower(call, &name, widest);
    }
    ir::drop_unused_declarations(m, PREFIXES);
    changed
}

/// The widest scalar access (bytes) the machine loads and stores in one instruction.
fn widest_access(caps: &Caps) -> u64 {
    let has = |op: SemOp, tys: &[Ty]| {
        caps.m
            .instrs
            .iter()
            .any(|i| i.sem.op == op && i.sem.ty.is_some_and(|t| tys.contains(&t)))
    };
    if has(SemOp::Load, &[Ty::I64, Ty::U64]) && has(SemOp::Store, &[Ty::I64, Ty::U64]) {
        8
    } else {
        4
    }
}

/// The `align` attribute of argument `n` of a call (1 when absent).
fn param_align(call: LLVMValueRef, n: u32) -> u64 {
    unsafe {
        let kind = LLVMGetEnumAttributeKindForName(c"align".as_ptr(), 5);
        let attr = LLVMGetCallSiteEnumAttribute(call, n + 1, kind);
        if attr.is_null() {
            1
        } else {
            LLVMGetEnumAttributeValue(attr).max(1)
        }
    }
}

/// The accesses `(offset, bytes)` covering `len` bytes with alignment `align`.
pub fn chunks(len: u64, align: u64, widest: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut off = 0;
    while off < len {
        let mut w = widest.min(align.max(1));
        while w > 1 && (w > len - off || off % w != 0) {
            w /= 2;
        }
        out.push((off, w));
        off += w;
    }
    out
}

fn lower(call: LLVMValueRef, name: &str, widest: u64) -> bool {
    let is_set = name.starts_with("llvm.memset.");
    let is_move = name.starts_with("llvm.memmove.");
    let (dst, len) = (ir::arg(call, 0), ir::arg(call, 2));
    let Some(len) = ir::const_u64(len) else {
        return false;
    };
    let volatile = ir::const_u64(ir::arg(call, 3)).unwrap_or(1) != 0;
    if volatile {
        return false;
    }
    let align = if is_set {
        param_align(call, 0)
    } else {
        param_align(call, 0).min(param_align(call, 1))
    };
    // Alignments that are not powers of two do not occur in valid IR.
    let align = if align.is_power_of_two() { align } else { 1 };
    let pieces = chunks(len, align, widest);
    if pieces.len() as u64 > MAX_ACCESSES {
        return false;
    }
    let bld = Builder::before(call);
    let ctx = unsafe { LLVMGetTypeContext(LLVMTypeOf(dst)) };
    let int_ty = |bytes: u64| unsafe { LLVMIntTypeInContext(ctx, (bytes * 8) as u32) };
    // The access at `off` is aligned to the largest power of two dividing
    // both `align` and `off` (at least its own width, by construction).
    let piece_align = |off: u64, _bytes: u64| -> u32 {
        (if off == 0 {
            align
        } else {
            align.min(1 << off.trailing_zeros())
        }) as u32
    };
    if is_set {
        let byte = ir::arg(call, 1);
        let mut splats: Vec<(u64, LLVMValueRef)> = Vec::new();
        for &(off, bytes) in &pieces {
            let v = match splats.iter().find(|(b, _)| *b == bytes) {
                Some(&(_, v)) => v,
                None => {
                    let v = splat(&bld, byte, int_ty(bytes), bytes);
                    splats.push((bytes, v));
                    v
                }
            };
            bld.store(v, bld.byte_offset(dst, off), piece_align(off, bytes), false);
        }
    } else {
        let src = ir::arg(call, 1);
        let mut loaded = Vec::new();
        for &(off, bytes) in &pieces {
            let v = bld.load(
                int_ty(bytes),
                bld.byte_offset(src, off),
                piece_align(off, bytes),
                false,
            );
            if is_move {
                loaded.push((off, bytes, v));
            } else {
                bld.store(v, bld.byte_offset(dst, off), piece_align(off, bytes), false);
            }
        }
        for (off, bytes, v) in loaded {
            bld.store(v, bld.byte_offset(dst, off), piece_align(off, bytes), false);
        }
    }
    unsafe { LLVMInstructionEraseFromParent(call) };
    true
}

/// The byte `b` repeated over an integer of `bytes` bytes.
fn splat(bld: &Builder, b: LLVMValueRef, ty: LLVMTypeRef, bytes: u64) -> LLVMValueRef {
    let mut v = if bytes == 1 { b } else { bld.zext(b, ty) };
    let mut width = 1;
    while width < bytes {
        v = bld.or(v, bld.shl(v, ir::const_int(ty, width * 8)));
        width *= 2;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    #[test]
    fn chunks_respect_alignment_and_length() {
        assert_eq!(chunks(12, 4, 8), vec![(0, 4), (4, 4), (8, 4)]);
        assert_eq!(chunks(12, 8, 8), vec![(0, 8), (8, 4)]);
        assert_eq!(chunks(7, 8, 8), vec![(0, 4), (4, 2), (6, 1)]);
        assert_eq!(chunks(3, 1, 8), vec![(0, 1), (1, 1), (2, 1)]);
        assert_eq!(chunks(16, 16, 4), vec![(0, 4), (4, 4), (8, 4), (12, 4)]);
    }

    #[test]
    fn small_copies_become_loads_and_stores() {
        let src = "declare void @llvm.memcpy.p0.p0.i32(ptr, ptr, i32, i1)\n\
                   declare void @llvm.memmove.p0.p0.i32(ptr, ptr, i32, i1)\n\
                   declare void @llvm.memset.p0.i32(ptr, i8, i32, i1)\n\
                   define void @g(ptr %d, ptr %s, i8 %c) {\n\
                     call void @llvm.memcpy.p0.p0.i32(ptr align 8 %d, ptr align 4 %s, i32 12, i1 false)\n\
                     call void @llvm.memmove.p0.p0.i32(ptr align 2 %d, ptr align 2 %s, i32 4, i1 false)\n\
                     call void @llvm.memset.p0.i32(ptr align 8 %d, i8 %c, i32 16, i1 false)\n\
                     call void @llvm.memset.p0.i32(ptr align 4 %d, i8 0, i32 6, i1 false)\n\
                     call void @llvm.memcpy.p0.p0.i32(ptr align 4 %d, ptr align 4 %s, i32 4096, i1 false)\n\
                     call void @llvm.memcpy.p0.p0.i32(ptr align 4 %d, ptr align 4 %s, i32 8, i1 true)\n\
                     ret void\n}\n";
        let out = run_pass_on("dsp-expand-intrinsics", src, "ftm");
        check_in_order(
            &out,
            &[
                "load i32, ptr %s, align 4",
                "store i32",
                "getelementptr inbounds i8, ptr %s, i32 8",
                "load i32",
                // memmove: both loads before the stores
                "load i16, ptr %s, align 2",
                "load i16",
                "store i16",
                "store i16",
                // memset of a variable byte: splatted once to i64
                "zext i8 %c to i64",
                "store i64",
                "store i64",
                // memset 0, length 6, align 4: i32 + i16 stores of 0
                "store i32 0, ptr %d, align 4",
                "store i16 0",
                // too long and volatile: kept
                "i32 4096, i1 false",
                "i32 8, i1 true",
            ],
        );
    }
}
