//! A thin, read-only view of LLVM IR over the C API (inkwell's `llvm_sys`),
//! covering what selection needs and inkwell does not wrap (GEP source types,
//! shuffle masks, intrinsic ids, call-site attributes, debug locations).
//!
//! Every handle here is created from a module that outlives the selection
//! run (`select_module` borrows it), so the raw references stay valid.

use std::ffi::CStr;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::*;
pub use inkwell::llvm_sys::{LLVMIntPredicate as IntPred, LLVMOpcode as Op, LLVMRealPredicate as RealPred};
use inkwell::llvm_sys::{LLVMLinkage, LLVMTypeKind, LLVMValueKind};

/// An LLVM value (instruction, constant, argument, global, block value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct V(pub LLVMValueRef);
/// An LLVM type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct T(pub LLVMTypeRef);
/// An LLVM basic block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bb(pub LLVMBasicBlockRef);

/// What kind of type a type is, with the facts selection uses.
#[derive(Clone, Debug, PartialEq)]
pub enum TyKind {
    Void,
    Int(u32),
    F32,
    F64,
    Ptr,
    Vector(T, u32),
    Struct(Vec<T>),
    Array(T, u64),
    Other(String),
}

fn owned(p: *mut std::ffi::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returns a NUL-terminated string we own and must dispose.
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    unsafe { LLVMDisposeMessage(p) };
    s
}

impl T {
    pub fn kind(self) -> TyKind {
        // SAFETY: see the module comment.
        unsafe {
            match LLVMGetTypeKind(self.0) {
                LLVMTypeKind::LLVMVoidTypeKind => TyKind::Void,
                LLVMTypeKind::LLVMIntegerTypeKind => TyKind::Int(LLVMGetIntTypeWidth(self.0)),
                LLVMTypeKind::LLVMFloatTypeKind => TyKind::F32,
                LLVMTypeKind::LLVMDoubleTypeKind => TyKind::F64,
                LLVMTypeKind::LLVMPointerTypeKind => TyKind::Ptr,
                LLVMTypeKind::LLVMVectorTypeKind => TyKind::Vector(T(LLVMGetElementType(self.0)), LLVMGetVectorSize(self.0)),
                LLVMTypeKind::LLVMStructTypeKind => {
                    let n = LLVMCountStructElementTypes(self.0);
                    TyKind::Struct((0..n).map(|i| T(LLVMStructGetTypeAtIndex(self.0, i))).collect())
                }
                LLVMTypeKind::LLVMArrayTypeKind => TyKind::Array(T(LLVMGetElementType(self.0)), LLVMGetArrayLength2(self.0)),
                _ => TyKind::Other(self.print()),
            }
        }
    }
    pub fn print(self) -> String {
        owned(unsafe { LLVMPrintTypeToString(self.0) })
    }
    /// Parameter types, return type and variadic flag of a function type.
    pub fn fn_sig(self) -> (Vec<T>, T, bool) {
        unsafe {
            let n = LLVMCountParamTypes(self.0) as usize;
            let mut ps: Vec<LLVMTypeRef> = vec![std::ptr::null_mut(); n];
            if n > 0 {
                LLVMGetParamTypes(self.0, ps.as_mut_ptr());
            }
            (ps.into_iter().map(T).collect(), T(LLVMGetReturnType(self.0)), LLVMIsFunctionVarArg(self.0) != 0)
        }
    }
}

/// The module's data layout.
#[derive(Clone, Copy)]
pub struct Dl(pub LLVMTargetDataRef);

impl Dl {
    pub fn alloc_size(self, t: T) -> u64 {
        unsafe { LLVMABISizeOfType(self.0, t.0) }
    }
    pub fn store_size(self, t: T) -> u64 {
        unsafe { LLVMStoreSizeOfType(self.0, t.0) }
    }
    pub fn align(self, t: T) -> u32 {
        unsafe { LLVMABIAlignmentOfType(self.0, t.0) }
    }
    pub fn field_offset(self, t: T, i: u32) -> u64 {
        unsafe { LLVMOffsetOfElement(self.0, t.0, i) }
    }
}

/// Linkage as far as selection cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    Local,
    Global,
    AvailableExternally,
}

/// Attribute kind id by name (`byval`, `signext`, …).
pub fn attr_kind(name: &str) -> u32 {
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len()) }
}

impl V {
    pub fn ty(self) -> T {
        unsafe { T(LLVMTypeOf(self.0)) }
    }
    pub fn name(self) -> String {
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetValueName2(self.0, &mut len);
            if p.is_null() {
                return String::new();
            }
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
        }
    }
    pub fn print(self) -> String {
        owned(unsafe { LLVMPrintValueToString(self.0) })
    }
    pub fn value_kind(self) -> LLVMValueKind {
        unsafe { LLVMGetValueKind(self.0) }
    }
    pub fn opcode(self) -> Option<Op> {
        unsafe {
            if !LLVMIsAInstruction(self.0).is_null() {
                Some(LLVMGetInstructionOpcode(self.0))
            } else {
                None
            }
        }
    }
    /// The opcode of a constant expression.
    pub fn const_opcode(self) -> Option<Op> {
        unsafe {
            if !LLVMIsAConstantExpr(self.0).is_null() {
                Some(LLVMGetConstOpcode(self.0))
            } else {
                None
            }
        }
    }
    pub fn is_instruction(self) -> bool {
        unsafe { !LLVMIsAInstruction(self.0).is_null() }
    }
    pub fn is_constant(self) -> bool {
        unsafe { !LLVMIsAConstant(self.0).is_null() }
    }
    pub fn is_global(self) -> bool {
        unsafe { !LLVMIsAGlobalValue(self.0).is_null() }
    }
    /// For a `blockaddress(@f, %bb)` constant: the assembly label of the
    /// block (`dsp_mir::block_label`, the block numbered by its position
    /// in `@f`, as selection numbers machine blocks).
    pub fn block_address_label(self) -> Option<Result<String, String>> {
        unsafe {
            if LLVMIsABlockAddress(self.0).is_null() {
                return None;
            }
            let f = V(LLVMGetBlockAddressFunction(self.0));
            let bb = Bb(LLVMGetBlockAddressBasicBlock(self.0));
            Some(match f.basic_blocks().iter().position(|b| *b == bb) {
                Some(k) => Ok(dsp_mir::block_label(&f.name(), dsp_mir::Block(k as u32))),
                None => Err(format!("'{}' names a block outside its function", self.print())),
            })
        }
    }
    pub fn is_function(self) -> bool {
        unsafe { !LLVMIsAFunction(self.0).is_null() }
    }
    pub fn is_argument(self) -> bool {
        unsafe { !LLVMIsAArgument(self.0).is_null() }
    }
    pub fn is_inline_asm(self) -> bool {
        unsafe { !LLVMIsAInlineAsm(self.0).is_null() }
    }
    pub fn is_undef(self) -> bool {
        unsafe { !LLVMIsAUndefValue(self.0).is_null() || !LLVMIsAPoisonValue(self.0).is_null() }
    }
    pub fn is_null_or_zero(self) -> bool {
        unsafe { !LLVMIsAConstantPointerNull(self.0).is_null() || !LLVMIsAConstantAggregateZero(self.0).is_null() }
    }
    /// An integer constant: (zero-extended low 64 bits, bit width); `None` also for wider constants.
    pub fn const_int(self) -> Option<(u64, u32)> {
        unsafe {
            if LLVMIsAConstantInt(self.0).is_null() {
                return None;
            }
            let bits = LLVMGetIntTypeWidth(LLVMTypeOf(self.0));
            (bits <= 64).then(|| (LLVMConstIntGetZExtValue(self.0), bits))
        }
    }
    /// A floating-point constant's value.
    pub fn const_fp(self) -> Option<f64> {
        unsafe {
            if LLVMIsAConstantFP(self.0).is_null() {
                return None;
            }
            let mut lost = 0;
            Some(LLVMConstRealGetDouble(self.0, &mut lost))
        }
    }
    pub fn is_const_data_seq(self) -> bool {
        unsafe { !LLVMIsAConstantDataSequential(self.0).is_null() }
    }
    /// Bytes of a constant i8 data array (strings).
    pub fn const_string_bytes(self) -> Vec<u8> {
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetAsString(self.0, &mut len);
            if p.is_null() {
                return Vec::new();
            }
            std::slice::from_raw_parts(p as *const u8, len).to_vec()
        }
    }
    /// Element `i` of a constant aggregate (array, struct, vector, data sequence, zero).
    pub fn aggregate_element(self, i: u32) -> Option<V> {
        unsafe {
            let e = LLVMGetAggregateElement(self.0, i);
            (!e.is_null()).then_some(V(e))
        }
    }
    pub fn num_operands(self) -> u32 {
        unsafe { LLVMGetNumOperands(self.0) as u32 }
    }
    /// An integer `add`/`sub`/`mul`/`shl` with the `nsw` flag.
    pub fn nsw(self) -> bool {
        unsafe { !LLVMIsABinaryOperator(self.0).is_null() && LLVMGetNSW(self.0) != 0 }
    }
    pub fn operand(self, i: u32) -> V {
        unsafe { V(LLVMGetOperand(self.0, i)) }
    }
    pub fn operands(self) -> Vec<V> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }
    /// The values using this one (instructions, constants).
    pub fn users(self) -> Vec<V> {
        unsafe {
            let mut out = Vec::new();
            let mut u = LLVMGetFirstUse(self.0);
            while !u.is_null() {
                out.push(V(LLVMGetUser(u)));
                u = LLVMGetNextUse(u);
            }
            out
        }
    }
    pub fn parent(self) -> Bb {
        unsafe { Bb(LLVMGetInstructionParent(self.0)) }
    }
    pub fn icmp_pred(self) -> IntPred {
        unsafe { LLVMGetICmpPredicate(self.0) }
    }
    pub fn fcmp_pred(self) -> RealPred {
        unsafe { LLVMGetFCmpPredicate(self.0) }
    }
    pub fn alignment(self) -> u32 {
        unsafe { LLVMGetAlignment(self.0) }
    }
    pub fn is_volatile(self) -> bool {
        unsafe { LLVMGetVolatile(self.0) != 0 }
    }
    pub fn allocated_type(self) -> T {
        unsafe { T(LLVMGetAllocatedType(self.0)) }
    }
    pub fn gep_source_type(self) -> T {
        unsafe { T(LLVMGetGEPSourceElementType(self.0)) }
    }
    /// Indices of extractvalue / insertvalue.
    pub fn indices(self) -> Vec<u32> {
        unsafe {
            let n = LLVMGetNumIndices(self.0) as usize;
            let p = LLVMGetIndices(self.0);
            if p.is_null() {
                return Vec::new();
            }
            std::slice::from_raw_parts(p, n).to_vec()
        }
    }
    /// Shuffle mask (`None` lanes are undefined).
    pub fn shuffle_mask(self) -> Vec<Option<u32>> {
        unsafe {
            let n = LLVMGetNumMaskElements(self.0);
            let undef = LLVMGetUndefMaskElem();
            (0..n)
                .map(|i| {
                    let x = LLVMGetMaskValue(self.0, i);
                    (x != undef && x >= 0).then_some(x as u32)
                })
                .collect()
        }
    }
    pub fn incoming(self) -> Vec<(V, Bb)> {
        unsafe {
            let n = LLVMCountIncoming(self.0);
            (0..n).map(|i| (V(LLVMGetIncomingValue(self.0, i)), Bb(LLVMGetIncomingBlock(self.0, i)))).collect()
        }
    }
    pub fn successors(self) -> Vec<Bb> {
        unsafe {
            let n = LLVMGetNumSuccessors(self.0);
            (0..n).map(|i| Bb(LLVMGetSuccessor(self.0, i))).collect()
        }
    }
    pub fn is_conditional(self) -> bool {
        unsafe { LLVMIsConditional(self.0) != 0 }
    }
    pub fn condition(self) -> V {
        unsafe { V(LLVMGetCondition(self.0)) }
    }
    pub fn switch_default(self) -> Bb {
        unsafe { Bb(LLVMGetSwitchDefaultDest(self.0)) }
    }
    pub fn called_value(self) -> V {
        unsafe { V(LLVMGetCalledValue(self.0)) }
    }
    pub fn called_fn_type(self) -> T {
        unsafe { T(LLVMGetCalledFunctionType(self.0)) }
    }
    pub fn num_arg_operands(self) -> u32 {
        unsafe { LLVMGetNumArgOperands(self.0) }
    }
    pub fn intrinsic_id(self) -> u32 {
        unsafe { LLVMGetIntrinsicID(self.0) }
    }
    /// Whether the call site has enum attribute `kind` at `index` (0 = return, i+1 = argument i).
    pub fn call_has_attr(self, index: u32, kind: u32) -> bool {
        unsafe { !LLVMGetCallSiteEnumAttribute(self.0, index, kind).is_null() }
    }
    /// The type of a type attribute (byval, sret) at a call site.
    pub fn call_type_attr(self, index: u32, kind: u32) -> Option<T> {
        unsafe {
            let a = LLVMGetCallSiteEnumAttribute(self.0, index, kind);
            (!a.is_null()).then(|| T(LLVMGetTypeAttributeValue(a)))
        }
    }
    /// Function attributes: enum attribute at an index of a function.
    pub fn fn_has_attr(self, index: u32, kind: u32) -> bool {
        unsafe { !LLVMGetEnumAttributeAtIndex(self.0, index, kind).is_null() }
    }
    pub fn fn_type_attr(self, index: u32, kind: u32) -> Option<T> {
        unsafe {
            let a = LLVMGetEnumAttributeAtIndex(self.0, index, kind);
            (!a.is_null()).then(|| T(LLVMGetTypeAttributeValue(a)))
        }
    }
    pub fn params(self) -> Vec<V> {
        unsafe {
            let n = LLVMCountParams(self.0);
            (0..n).map(|i| V(LLVMGetParam(self.0, i))).collect()
        }
    }
    /// The function type of a function (its value type is a pointer).
    pub fn function_type(self) -> T {
        unsafe { T(LLVMGlobalGetValueType(self.0)) }
    }
    pub fn global_value_type(self) -> T {
        unsafe { T(LLVMGlobalGetValueType(self.0)) }
    }
    pub fn basic_blocks(self) -> Vec<Bb> {
        unsafe {
            let mut out = Vec::new();
            let mut b = LLVMGetFirstBasicBlock(self.0);
            while !b.is_null() {
                out.push(Bb(b));
                b = LLVMGetNextBasicBlock(b);
            }
            out
        }
    }
    pub fn is_declaration(self) -> bool {
        unsafe { LLVMIsDeclaration(self.0) != 0 }
    }
    pub fn linkage(self) -> Linkage {
        match unsafe { LLVMGetLinkage(self.0) } {
            LLVMLinkage::LLVMInternalLinkage | LLVMLinkage::LLVMPrivateLinkage => Linkage::Local,
            LLVMLinkage::LLVMAvailableExternallyLinkage => Linkage::AvailableExternally,
            _ => Linkage::Global,
        }
    }
    pub fn initializer(self) -> Option<V> {
        unsafe {
            let i = LLVMGetInitializer(self.0);
            (!i.is_null()).then_some(V(i))
        }
    }
    pub fn is_global_constant(self) -> bool {
        unsafe { LLVMIsGlobalConstant(self.0) != 0 }
    }
    pub fn is_thread_local(self) -> bool {
        unsafe { LLVMIsThreadLocal(self.0) != 0 }
    }
    /// (file, line, column) of an instruction's `!dbg` location.
    pub fn debug_loc(self) -> Option<(String, u32, u32)> {
        unsafe {
            if LLVMIsAInstruction(self.0).is_null() {
                return None;
            }
            let line = LLVMGetDebugLocLine(self.0);
            if line == 0 {
                return None;
            }
            let text = |p: *const std::os::raw::c_char, len: u32| {
                if p.is_null() {
                    String::new()
                } else {
                    String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize)).into_owned()
                }
            };
            let mut len = 0u32;
            let file = text(LLVMGetDebugLocFilename(self.0, &mut len), len);
            let mut dlen = 0u32;
            let dir = text(LLVMGetDebugLocDirectory(self.0, &mut dlen), dlen);
            Some((source_path(&file, &dir), line, LLVMGetDebugLocColumn(self.0)))
        }
    }
    /// Whether a floating-point instruction or call allows reassociation.
    pub fn reassoc(self) -> bool {
        unsafe {
            LLVMCanValueUseFastMathFlags(self.0) != 0 && LLVMGetFastMathFlags(self.0) & inkwell::llvm_sys::LLVMFastMathAllowReassoc != 0
        }
    }
    /// The value of an integer attribute (`align`) at a call site.
    pub fn call_int_attr(self, index: u32, kind: u32) -> Option<u64> {
        unsafe {
            let a = LLVMGetCallSiteEnumAttribute(self.0, index, kind);
            (!a.is_null()).then(|| LLVMGetEnumAttributeValue(a))
        }
    }
    /// The operation of an atomicrmw.
    pub fn atomic_rmw_op(self) -> inkwell::llvm_sys::LLVMAtomicRMWBinOp {
        unsafe { LLVMGetAtomicRMWBinOp(self.0) }
    }
    /// The `nneg` flag of zext / uitofp.
    pub fn nneg(self) -> bool {
        unsafe { LLVMGetNNeg(self.0) != 0 }
    }
}

impl Bb {
    /// Whether the block's terminator carries loop property `name` in its
    /// `llvm.loop` metadata (`!{!"name"}` or `!{!"name", …}`).
    pub fn loop_property(self, name: &str) -> bool {
        unsafe {
            let term = LLVMGetBasicBlockTerminator(self.0);
            if term.is_null() {
                return false;
            }
            let ctx = LLVMGetTypeContext(LLVMTypeOf(term));
            let kind = LLVMGetMDKindIDInContext(ctx, c"llvm.loop".as_ptr(), 9);
            let md = LLVMGetMetadata(term, kind);
            if md.is_null() {
                return false;
            }
            let mut ops = vec![std::ptr::null_mut(); LLVMGetMDNodeNumOperands(md) as usize];
            LLVMGetMDNodeOperands(md, ops.as_mut_ptr());
            ops.into_iter().skip(1).any(|p| {
                if p.is_null() || LLVMIsAMDNode(p).is_null() || LLVMGetMDNodeNumOperands(p) == 0 {
                    return false;
                }
                let mut first = vec![std::ptr::null_mut(); LLVMGetMDNodeNumOperands(p) as usize];
                LLVMGetMDNodeOperands(p, first.as_mut_ptr());
                if first[0].is_null() || LLVMIsAMDString(first[0]).is_null() {
                    return false;
                }
                let mut len = 0u32;
                let s = LLVMGetMDString(first[0], &mut len);
                !s.is_null() && std::slice::from_raw_parts(s.cast::<u8>(), len as usize) == name.as_bytes()
            })
        }
    }

    pub fn instructions(self) -> Vec<V> {
        unsafe {
            let mut out = Vec::new();
            let mut i = LLVMGetFirstInstruction(self.0);
            while !i.is_null() {
                out.push(V(i));
                i = LLVMGetNextInstruction(i);
            }
            out
        }
    }
    pub fn terminator(self) -> Option<V> {
        unsafe {
            let t = LLVMGetBasicBlockTerminator(self.0);
            (!t.is_null()).then_some(V(t))
        }
    }
    pub fn name(self) -> String {
        unsafe {
            let p = LLVMGetBasicBlockName(self.0);
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        }
    }
    pub fn as_value(self) -> V {
        unsafe { V(LLVMBasicBlockAsValue(self.0)) }
    }
}

/// Functions and globals of a module, in order.
pub fn module_functions(module: &inkwell::module::Module) -> Vec<V> {
    let m = module.as_mut_ptr();
    unsafe {
        let mut out = Vec::new();
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            out.push(V(f));
            f = LLVMGetNextFunction(f);
        }
        out
    }
}

pub fn module_globals(module: &inkwell::module::Module) -> Vec<V> {
    let m = module.as_mut_ptr();
    unsafe {
        let mut out = Vec::new();
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            out.push(V(g));
            g = LLVMGetNextGlobal(g);
        }
        out
    }
}

/// The module's global aliases: (alias name, what it aliases as LLVM prints it).
pub fn module_aliases(module: &inkwell::module::Module) -> Vec<(String, String)> {
    let m = module.as_mut_ptr();
    let mut out = Vec::new();
    unsafe {
        let mut a = LLVMGetFirstGlobalAlias(m);
        while !a.is_null() {
            let target = LLVMAliasGetAliasee(a);
            let shown = if target.is_null() { String::new() } else { V(target).name() };
            out.push((V(a).name(), shown));
            a = LLVMGetNextGlobalAlias(a);
        }
    }
    out
}

pub fn module_data_layout(module: &inkwell::module::Module) -> Dl {
    let m = module.as_mut_ptr();
    unsafe { Dl(LLVMGetModuleDataLayout(m)) }
}

pub fn module_source_name(module: &inkwell::module::Module) -> String {
    let m = module.as_mut_ptr();
    unsafe {
        let mut len = 0usize;
        let p = LLVMGetSourceFileName(m, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// The path of a source file as diagnostics show it. Debug info records a
/// file name, often relative, and the directory it is relative to. Like
/// clang, keep a name relative to the current directory as written, and
/// prefix any other relative name with its recorded directory.
fn source_path(file: &str, dir: &str) -> String {
    let path = std::path::Path::new(file);
    if path.is_absolute() || dir.is_empty() {
        return file.to_string();
    }
    let dir = std::path::Path::new(dir);
    match std::env::current_dir() {
        Ok(cwd) if cwd == dir => file.to_string(),
        _ => dir.join(path).display().to_string(),
    }
}
