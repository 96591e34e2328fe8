//! A thin layer over LLVM's C API (through `inkwell::llvm_sys`) for the
//! passes: walking functions, blocks and instructions, recognising intrinsic
//! calls, typed constants that work for scalars and vectors alike, and an
//! instruction builder that inherits the debug location of the instruction it
//! replaces (so the backend can still name FILE:LINE).
//!
//! Every function here takes raw references that belong to a live module; the
//! module is owned by LLVM (opt or clang), never by us.

use std::ffi::{CStr, CString};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMTypeKind};

/// The functions of a module that have a body.
pub fn defined_functions(m: LLVMModuleRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if LLVMIsDeclaration(f) == 0 {
                out.push(f);
            }
            f = LLVMGetNextFunction(f);
        }
    }
    out
}

/// The basic blocks of a function, in layout order.
pub fn blocks(f: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
    let mut out = Vec::new();
    unsafe {
        let mut b = LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            out.push(b);
            b = LLVMGetNextBasicBlock(b);
        }
    }
    out
}

/// The instructions of a block, in order.
pub fn instructions(b: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    unsafe {
        let mut i = LLVMGetFirstInstruction(b);
        while !i.is_null() {
            out.push(i);
            i = LLVMGetNextInstruction(i);
        }
    }
    out
}

/// Calls to intrinsics whose name starts with one of `prefixes` (`"llvm.smin."`), with the full name.
pub fn intrinsic_calls(m: LLVMModuleRef, prefixes: &[&str]) -> Vec<(LLVMValueRef, String)> {
    let mut out = Vec::new();
    for f in defined_functions(m) {
        for b in blocks(f) {
            for i in instructions(b) {
                if let Some(name) = called_intrinsic(i) {
                    if prefixes.iter().any(|p| name.starts_with(p)) {
                        out.push((i, name));
                    }
                }
            }
        }
    }
    out
}

/// Deletes the declarations of intrinsics named with one of `prefixes` that nothing uses any more.
pub fn drop_unused_declarations(m: LLVMModuleRef, prefixes: &[&str]) {
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let next = LLVMGetNextFunction(f);
            let name = value_name(f);
            if LLVMIsDeclaration(f) != 0
                && LLVMGetFirstUse(f).is_null()
                && prefixes.iter().any(|p| name.starts_with(p))
            {
                LLVMDeleteFunction(f);
            }
            f = next;
        }
    }
}

/// The name of the intrinsic a call instruction calls directly, if any.
pub fn called_intrinsic(i: LLVMValueRef) -> Option<String> {
    unsafe {
        if LLVMIsACallInst(i).is_null() {
            return None;
        }
        let callee = LLVMGetCalledValue(i);
        if callee.is_null() || LLVMIsAFunction(callee).is_null() || LLVMGetIntrinsicID(callee) == 0
        {
            return None;
        }
        Some(value_name(callee))
    }
}

/// A value's name (empty when it has none).
pub fn value_name(v: LLVMValueRef) -> String {
    unsafe {
        let mut len = 0usize;
        let p = LLVMGetValueName2(v, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// Sets a value's name.
pub fn set_name(v: LLVMValueRef, name: &str) {
    unsafe { LLVMSetValueName2(v, name.as_ptr() as *const _, name.len()) }
}

/// Argument `n` of a call.
pub fn arg(call: LLVMValueRef, n: u32) -> LLVMValueRef {
    unsafe { LLVMGetOperand(call, n) }
}

/// The value of a constant integer (zero-extended), if `v` is one that fits 64 bits.
pub fn const_u64(v: LLVMValueRef) -> Option<u64> {
    unsafe {
        if LLVMIsAConstantInt(v).is_null() {
            return None;
        }
        let ty = LLVMTypeOf(v);
        let bits = LLVMGetIntTypeWidth(ty);
        if bits <= 64 {
            return Some(LLVMConstIntGetZExtValue(v));
        }
        // Wider: the low 64 bits, if the constant equals their zero extension
        // (constants are uniqued, so the comparison is by identity).
        let low = LLVMConstIntGetZExtValue(LLVMConstTrunc(
            v,
            LLVMInt64TypeInContext(LLVMGetTypeContext(ty)),
        ));
        let mut words = vec![0u64; bits.div_ceil(64) as usize];
        words[0] = low;
        let rebuilt = LLVMConstIntOfArbitraryPrecision(ty, words.len() as u32, words.as_ptr());
        (rebuilt == v).then_some(low)
    }
}

/// The shape of a (possibly vector) integer or float type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Element width in bits.
    pub bits: u32,
    /// Lanes (`None` for a scalar).
    pub lanes: Option<u32>,
    pub float: bool,
}

/// The shape of `ty`, if it is an integer, a float or a fixed vector of them.
pub fn shape(ty: LLVMTypeRef) -> Option<Shape> {
    unsafe {
        let (elem, lanes) = match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMVectorTypeKind => {
                (LLVMGetElementType(ty), Some(LLVMGetVectorSize(ty)))
            }
            _ => (ty, None),
        };
        match LLVMGetTypeKind(elem) {
            LLVMTypeKind::LLVMIntegerTypeKind => Some(Shape {
                bits: LLVMGetIntTypeWidth(elem),
                lanes,
                float: false,
            }),
            LLVMTypeKind::LLVMFloatTypeKind => Some(Shape {
                bits: 32,
                lanes,
                float: true,
            }),
            LLVMTypeKind::LLVMDoubleTypeKind => Some(Shape {
                bits: 64,
                lanes,
                float: true,
            }),
            _ => None,
        }
    }
}

/// The integer (or integer vector) type of `bits`-bit elements with `ty`'s lane count.
pub fn int_like(ty: LLVMTypeRef, bits: u32) -> LLVMTypeRef {
    unsafe {
        let ctx = LLVMGetTypeContext(ty);
        let elem = LLVMIntTypeInContext(ctx, bits);
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMVectorTypeKind => LLVMVectorType(elem, LLVMGetVectorSize(ty)),
            _ => elem,
        }
    }
}

/// The `i1` (or `<N x i1>`) type matching `ty`'s lanes.
pub fn bool_like(ty: LLVMTypeRef) -> LLVMTypeRef {
    int_like(ty, 1)
}

/// A constant of integer (or integer vector, splatted) type `ty`; `v` is truncated to the width.
pub fn const_int(ty: LLVMTypeRef, v: u64) -> LLVMValueRef {
    unsafe {
        if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMVectorTypeKind {
            let lanes = LLVMGetVectorSize(ty);
            let mut elems: Vec<LLVMValueRef> = (0..lanes)
                .map(|_| const_int(LLVMGetElementType(ty), v))
                .collect();
            LLVMConstVector(elems.as_mut_ptr(), lanes)
        } else {
            LLVMConstInt(ty, v as _, 0)
        }
    }
}

/// The all-ones constant of `ty`.
pub fn all_ones(ty: LLVMTypeRef) -> LLVMValueRef {
    unsafe { LLVMConstAllOnes(ty) }
}

/// The zero constant of `ty`.
pub fn zero(ty: LLVMTypeRef) -> LLVMValueRef {
    unsafe { LLVMConstNull(ty) }
}

/// The minimum signed value of `bits` bits, as a bit pattern.
pub fn signed_min(bits: u32) -> u64 {
    1u64 << (bits - 1)
}

/// The mask of the low `bits` bits.
pub fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Replaces every use of `old` with `new` and deletes `old`.
pub fn replace(old: LLVMValueRef, new: LLVMValueRef) {
    unsafe {
        LLVMReplaceAllUsesWith(old, new);
        LLVMInstructionEraseFromParent(old);
    }
}

/// Deletes the instructions of `f` whose results nobody uses and that have
/// no effect besides their result (arithmetic, compares, casts, GEPs,
/// selects, phis, vector element operations); until none is left.
pub fn delete_dead(f: LLVMValueRef) {
    use LLVMOpcode::*;
    loop {
        let mut any = false;
        for b in blocks(f) {
            for i in instructions(b).into_iter().rev() {
                let pure = matches!(
                    opcode(i),
                    LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor
                        | LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFNeg | LLVMICmp | LLVMFCmp | LLVMSelect | LLVMPHI
                        | LLVMGetElementPtr | LLVMTrunc | LLVMZExt | LLVMSExt | LLVMBitCast | LLVMPtrToInt | LLVMIntToPtr
                        | LLVMSIToFP | LLVMUIToFP | LLVMFPToSI | LLVMFPToUI | LLVMFPExt | LLVMFPTrunc
                        | LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector | LLVMExtractValue | LLVMInsertValue
                );
                if pure && unsafe { LLVMGetFirstUse(i) }.is_null() {
                    unsafe { LLVMInstructionEraseFromParent(i) };
                    any = true;
                }
            }
        }
        if !any {
            return;
        }
    }
}

/// The users of a value (an instruction may appear once per use).
pub fn users(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    unsafe {
        let mut u = LLVMGetFirstUse(v);
        while !u.is_null() {
            out.push(LLVMGetUser(u));
            u = LLVMGetNextUse(u);
        }
    }
    out
}

/// Adds `(value, block)` incoming entries to `phi`.
/// The value `phi` takes when entered from `b`.
pub fn incoming_from(phi: LLVMValueRef, b: LLVMBasicBlockRef) -> Option<LLVMValueRef> {
    unsafe { (0..LLVMCountIncoming(phi)).find(|&k| LLVMGetIncomingBlock(phi, k) == b).map(|k| LLVMGetIncomingValue(phi, k)) }
}

/// Whether `i` is a debug-info intrinsic (`llvm.dbg.*`).
pub fn is_debug(i: LLVMValueRef) -> bool {
    called_intrinsic(i).is_some_and(|n| n.starts_with("llvm.dbg."))
}

pub fn add_incoming(phi: LLVMValueRef, entries: &[(LLVMValueRef, LLVMBasicBlockRef)]) {
    let mut vals: Vec<_> = entries.iter().map(|e| e.0).collect();
    let mut blocks: Vec<_> = entries.iter().map(|e| e.1).collect();
    unsafe { LLVMAddIncoming(phi, vals.as_mut_ptr(), blocks.as_mut_ptr(), entries.len() as u32) }
}

/// Replaces `phi` with a new phi of its type and these incoming entries
/// (the C API cannot change an incoming block); returns the new phi.
pub fn rebuild_phi(phi: LLVMValueRef, entries: &[(LLVMValueRef, LLVMBasicBlockRef)]) -> LLVMValueRef {
    let b = Builder::before(phi);
    let np = unsafe { LLVMBuildPhi(b.raw(), LLVMTypeOf(phi), c"".as_ptr()) };
    add_incoming(np, entries);
    replace(phi, np);
    np
}

/// Sends every edge from `from`'s terminator to `old` to `new` instead.
pub fn redirect(from: LLVMBasicBlockRef, old: LLVMBasicBlockRef, new: LLVMBasicBlockRef) {
    unsafe {
        let term = LLVMGetBasicBlockTerminator(from);
        for s in 0..LLVMGetNumSuccessors(term) {
            if LLVMGetSuccessor(term, s) == old {
                LLVMSetSuccessor(term, s, new);
            }
        }
    }
}

/// A call at `b` of intrinsic `name` overloaded on `tys`; `None` if LLVM does not know it.
pub fn build_intrinsic(m: LLVMModuleRef, b: LLVMBuilderRef, name: &str, tys: &[LLVMTypeRef], args: &[LLVMValueRef]) -> Option<LLVMValueRef> {
    unsafe {
        let id = LLVMLookupIntrinsicID(name.as_ptr().cast(), name.len());
        if id == 0 {
            return None;
        }
        let mut tys = tys.to_vec();
        let decl = LLVMGetIntrinsicDeclaration(m, id, tys.as_mut_ptr(), tys.len());
        let fty = LLVMGlobalGetValueType(decl);
        let mut args = args.to_vec();
        Some(LLVMBuildCall2(b, fty, decl, args.as_mut_ptr(), args.len() as u32, c"".as_ptr()))
    }
}

/// The opcode of an instruction.
pub fn opcode(i: LLVMValueRef) -> LLVMOpcode {
    unsafe { LLVMGetInstructionOpcode(i) }
}

/// A constant integer of at most 64 bits, sign-extended.
pub fn const_i64(v: LLVMValueRef) -> Option<i64> {
    unsafe {
        if LLVMIsAConstantInt(v).is_null() || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64 {
            return None;
        }
        Some(LLVMConstIntGetSExtValue(v))
    }
}

/// Whether function argument `a` is `noalias` (C's `restrict`).
pub fn has_noalias(a: LLVMValueRef) -> bool {
    unsafe {
        let f = LLVMGetParamParent(a);
        let n = LLVMCountParams(f);
        let Some(k) = (0..n).find(|&k| LLVMGetParam(f, k) == a) else { return false };
        let kind = LLVMGetEnumAttributeKindForName(c"noalias".as_ptr(), 7);
        !LLVMGetEnumAttributeAtIndex(f, k + 1, kind).is_null()
    }
}

/// The opcode of `v` if it is an instruction.
pub fn opcode_of(v: LLVMValueRef) -> Option<LLVMOpcode> {
    unsafe { (!LLVMIsAInstruction(v).is_null()).then(|| LLVMGetInstructionOpcode(v)) }
}

/// An instruction builder positioned before an instruction, stamping new
/// instructions with that instruction's debug location. Disposed on drop.
pub struct Builder {
    b: LLVMBuilderRef,
    name: CString,
}

impl Builder {
    /// A builder inserting before `at`, with `at`'s debug location.
    pub fn before(at: LLVMValueRef) -> Builder {
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(at));
            let b = LLVMCreateBuilderInContext(ctx);
            LLVMPositionBuilderBefore(b, at);
            LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(at));
            Builder {
                b,
                name: CString::default(),
            }
        }
    }

    /// A builder appending to the end of `bb` (no debug location).
    pub fn at_end(bb: LLVMBasicBlockRef) -> Builder {
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(bb)));
            let b = LLVMCreateBuilderInContext(ctx);
            LLVMPositionBuilderAtEnd(b, bb);
            Builder {
                b,
                name: CString::default(),
            }
        }
    }

    /// A builder inserting at the very start of `bb` (before its debug records), for phis.
    pub fn at_start(bb: LLVMBasicBlockRef) -> Builder {
        unsafe {
            let first = LLVMGetFirstInstruction(bb);
            if first.is_null() {
                return Builder::at_end(bb);
            }
            let ctx = LLVMGetTypeContext(LLVMTypeOf(first));
            let b = LLVMCreateBuilderInContext(ctx);
            LLVMPositionBuilderBeforeInstrAndDbgRecords(b, first);
            Builder {
                b,
                name: CString::default(),
            }
        }
    }

    pub fn raw(&self) -> LLVMBuilderRef {
        self.b
    }

    fn n(&self) -> *const std::ffi::c_char {
        self.name.as_ptr()
    }

    pub fn add(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildAdd(self.b, a, b, self.n()) }
    }
    pub fn sub(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildSub(self.b, a, b, self.n()) }
    }
    pub fn mul(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildMul(self.b, a, b, self.n()) }
    }
    pub fn udiv(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildUDiv(self.b, a, b, self.n()) }
    }
    pub fn sdiv(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildSDiv(self.b, a, b, self.n()) }
    }
    pub fn and(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildAnd(self.b, a, b, self.n()) }
    }
    pub fn or(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildOr(self.b, a, b, self.n()) }
    }
    pub fn xor(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildXor(self.b, a, b, self.n()) }
    }
    pub fn not(&self, a: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildNot(self.b, a, self.n()) }
    }
    pub fn shl(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildShl(self.b, a, b, self.n()) }
    }
    pub fn lshr(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildLShr(self.b, a, b, self.n()) }
    }
    pub fn ashr(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildAShr(self.b, a, b, self.n()) }
    }
    pub fn icmp(&self, p: LLVMIntPredicate, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildICmp(self.b, p, a, b, self.n()) }
    }
    pub fn fcmp(
        &self,
        p: inkwell::llvm_sys::LLVMRealPredicate,
        a: LLVMValueRef,
        b: LLVMValueRef,
    ) -> LLVMValueRef {
        unsafe { LLVMBuildFCmp(self.b, p, a, b, self.n()) }
    }
    pub fn select(&self, c: LLVMValueRef, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildSelect(self.b, c, a, b, self.n()) }
    }
    pub fn zext(&self, a: LLVMValueRef, ty: LLVMTypeRef) -> LLVMValueRef {
        unsafe { LLVMBuildZExt(self.b, a, ty, self.n()) }
    }
    pub fn sext(&self, a: LLVMValueRef, ty: LLVMTypeRef) -> LLVMValueRef {
        unsafe { LLVMBuildSExt(self.b, a, ty, self.n()) }
    }
    pub fn trunc(&self, a: LLVMValueRef, ty: LLVMTypeRef) -> LLVMValueRef {
        unsafe { LLVMBuildTrunc(self.b, a, ty, self.n()) }
    }
    pub fn bitcast(&self, a: LLVMValueRef, ty: LLVMTypeRef) -> LLVMValueRef {
        unsafe { LLVMBuildBitCast(self.b, a, ty, self.n()) }
    }
    pub fn extract_value(&self, agg: LLVMValueRef, idx: u32) -> LLVMValueRef {
        unsafe { LLVMBuildExtractValue(self.b, agg, idx, self.n()) }
    }
    pub fn insert_value(&self, agg: LLVMValueRef, v: LLVMValueRef, idx: u32) -> LLVMValueRef {
        unsafe { LLVMBuildInsertValue(self.b, agg, v, idx, self.n()) }
    }
    pub fn br(&self, dest: LLVMBasicBlockRef) -> LLVMValueRef {
        unsafe { LLVMBuildBr(self.b, dest) }
    }
    pub fn phi(&self, ty: LLVMTypeRef, name: &str) -> LLVMValueRef {
        let name = CString::new(name).unwrap_or_default();
        unsafe { LLVMBuildPhi(self.b, ty, name.as_ptr()) }
    }
    /// `getelementptr inbounds i8, ptr p, i32 offset`.
    pub fn byte_offset(&self, p: LLVMValueRef, offset: u64) -> LLVMValueRef {
        if offset == 0 {
            return p;
        }
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(p));
            let i8t = LLVMInt8TypeInContext(ctx);
            let mut idx = [LLVMConstInt(LLVMInt32TypeInContext(ctx), offset, 0)];
            LLVMBuildInBoundsGEP2(self.b, i8t, p, idx.as_mut_ptr(), 1, self.n())
        }
    }
    /// A load of `ty` from `p` with alignment `align` (and the volatile flag).
    pub fn load(
        &self,
        ty: LLVMTypeRef,
        p: LLVMValueRef,
        align: u32,
        volatile: bool,
    ) -> LLVMValueRef {
        unsafe {
            let l = LLVMBuildLoad2(self.b, ty, p, self.n());
            LLVMSetAlignment(l, align);
            LLVMSetVolatile(l, volatile as i32);
            l
        }
    }
    /// A store of `v` to `p` with alignment `align` (and the volatile flag).
    pub fn store(
        &self,
        v: LLVMValueRef,
        p: LLVMValueRef,
        align: u32,
        volatile: bool,
    ) -> LLVMValueRef {
        unsafe {
            let s = LLVMBuildStore(self.b, v, p);
            LLVMSetAlignment(s, align);
            LLVMSetVolatile(s, volatile as i32);
            s
        }
    }
    /// A call of the intrinsic `name` overloaded on `types`; `None` if LLVM does not know it.
    pub fn call_intrinsic(
        &self,
        m: LLVMModuleRef,
        name: &str,
        types: &[LLVMTypeRef],
        args: &[LLVMValueRef],
    ) -> Option<LLVMValueRef> {
        unsafe {
            let id = LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len());
            if id == 0 {
                return None;
            }
            let mut tys = types.to_vec();
            let decl = LLVMGetIntrinsicDeclaration(m, id, tys.as_mut_ptr(), tys.len());
            let fty = LLVMGlobalGetValueType(decl);
            let mut args = args.to_vec();
            Some(LLVMBuildCall2(
                self.b,
                fty,
                decl,
                args.as_mut_ptr(),
                args.len() as u32,
                self.n(),
            ))
        }
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        unsafe { LLVMDisposeBuilder(self.b) }
    }
}

/// The module a (call) instruction belongs to.
pub fn module_of(i: LLVMValueRef) -> LLVMModuleRef {
    unsafe { LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(i))) }
}

/// The textual IR of a module.
pub fn print_module(m: LLVMModuleRef) -> String {
    unsafe {
        let p = LLVMPrintModuleToString(m);
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        s
    }
}

/// Runs LLVM's verifier; `Err` carries its report.
pub fn verify(m: LLVMModuleRef) -> Result<(), String> {
    use inkwell::llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
    unsafe {
        let mut msg = std::ptr::null_mut();
        let bad = LLVMVerifyModule(
            m,
            LLVMVerifierFailureAction::LLVMReturnStatusAction,
            &mut msg,
        );
        let text = if msg.is_null() {
            String::new()
        } else {
            CStr::from_ptr(msg).to_string_lossy().into_owned()
        };
        if !msg.is_null() {
            LLVMDisposeMessage(msg);
        }
        if bad != 0 {
            Err(text)
        } else {
            Ok(())
        }
    }
}

/// The `FILE:LINE` of an instruction's debug location, when it has one.
pub fn location(i: LLVMValueRef) -> Option<String> {
    unsafe {
        let mut len = 0u32;
        let file = LLVMGetDebugLocFilename(i, &mut len);
        if file.is_null() || len == 0 {
            return None;
        }
        let file =
            String::from_utf8_lossy(std::slice::from_raw_parts(file as *const u8, len as usize))
                .into_owned();
        Some(format!("{file}:{}", LLVMGetDebugLocLine(i)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(low_mask(8), 0xff);
        assert_eq!(low_mask(64), u64::MAX);
        assert_eq!(signed_min(32), 0x8000_0000);
    }
}

/// Adds the property `!{!"name"}` (or `!{!"name", i32 value}`) to the loop
/// closed by the branch `latch`, keeping its other properties. The new
/// loop ID refers to itself first (made through a temporary node, as the C
/// API allows).
pub fn add_loop_property(latch: LLVMValueRef, name: &str, value: Option<i32>) {
    use inkwell::llvm_sys::debuginfo::{LLVMMetadataReplaceAllUsesWith, LLVMTemporaryMDNode};
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(latch));
        let kind = LLVMGetMDKindIDInContext(ctx, c"llvm.loop".as_ptr(), 9);
        let temp = LLVMTemporaryMDNode(ctx, std::ptr::null_mut(), 0);
        let mut ops: Vec<LLVMMetadataRef> = vec![temp];
        let old = LLVMGetMetadata(latch, kind);
        if !old.is_null() {
            let n = LLVMGetMDNodeNumOperands(old) as usize;
            let mut vals = vec![std::ptr::null_mut(); n];
            LLVMGetMDNodeOperands(old, vals.as_mut_ptr());
            ops.extend(vals.into_iter().skip(1).map(|v| LLVMValueAsMetadata(v)));
        }
        let mut prop = vec![LLVMMDStringInContext2(ctx, name.as_ptr().cast(), name.len())];
        if let Some(v) = value {
            prop.push(LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), v as u64, 1)));
        }
        ops.push(LLVMMDNodeInContext2(ctx, prop.as_mut_ptr(), prop.len()));
        let node = LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), ops.len());
        LLVMMetadataReplaceAllUsesWith(temp, node);
        LLVMSetMetadata(latch, kind, LLVMMetadataAsValue(ctx, node));
    }
}

/// Points the operands of the clones `made` at the clones `map` holds for
/// the originals they still read.
pub fn remap_operands(made: &[LLVMValueRef], map: &std::collections::HashMap<LLVMValueRef, LLVMValueRef>) {
    for &x in made {
        for q in 0..unsafe { LLVMGetNumOperands(x) } as u32 {
            if let Some(&nv) = map.get(&unsafe { LLVMGetOperand(x, q) }) {
                unsafe { LLVMSetOperand(x, q, nv) };
            }
        }
    }
}

/// The conjunction of the conditions `ok` at builder `b` (at least one).
pub fn all_of(b: LLVMBuilderRef, ok: impl IntoIterator<Item = LLVMValueRef>) -> Result<LLVMValueRef, String> {
    ok.into_iter().reduce(|x, y| unsafe { LLVMBuildAnd(b, x, y, c"".as_ptr()) }).ok_or_else(|| "internal: no condition".to_string())
}

/// Whether `p` is an object of its own: a global variable, a stack object
/// or a `noalias` argument (two different such objects never overlap).
pub fn identified_object(p: LLVMValueRef) -> bool {
    unsafe { !LLVMIsAGlobalVariable(p).is_null() || !LLVMIsAAllocaInst(p).is_null() || (!LLVMIsAArgument(p).is_null() && has_noalias(p)) }
}

/// A deterministic order of a function's values, for passes that collect
/// values in maps keyed by their addresses (which differ from run to run)
/// and then emit code per value: arguments by position, then instructions
/// in layout order, then the module's globals and functions in module
/// order. Emitting in this order makes the output the same on every run.
pub struct Ranks {
    rank: std::collections::HashMap<LLVMValueRef, (u8, usize)>,
}

impl Ranks {
    pub fn new(f: LLVMValueRef) -> Ranks {
        let mut rank = std::collections::HashMap::new();
        unsafe {
            for k in 0..LLVMCountParams(f) {
                rank.insert(LLVMGetParam(f, k), (0, k as usize));
            }
            let mut n = 0;
            for b in blocks(f) {
                for i in instructions(b) {
                    rank.insert(i, (1, n));
                    n += 1;
                }
            }
            let m = LLVMGetGlobalParent(f);
            let mut n = 0;
            let mut g = LLVMGetFirstGlobal(m);
            while !g.is_null() {
                rank.insert(g, (2, n));
                n += 1;
                g = LLVMGetNextGlobal(g);
            }
            let mut g = LLVMGetFirstFunction(m);
            while !g.is_null() {
                rank.insert(g, (2, n));
                n += 1;
                g = LLVMGetNextFunction(g);
            }
        }
        Ranks { rank }
    }

    /// `v`'s place (values of other functions and constants last, together).
    pub fn of(&self, v: LLVMValueRef) -> (u8, usize) {
        self.rank.get(&v).copied().unwrap_or((3, 0))
    }
}
