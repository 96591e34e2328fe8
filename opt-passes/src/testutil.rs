//! Test helpers: parse textual IR into a fresh context, run one of our passes
//! on it directly (no `opt`), verify the result and print it; evaluate
//! constant-argument functions by LLVM's constant folding (the builders fold
//! constant operands, so a lowered intrinsic with constant arguments becomes
//! a constant).

use std::ffi::CString;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::ir_reader::LLVMParseIRInContext;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMTypeKind;

use crate::ir;

/// A parsed module in its own context, disposed on drop.
pub struct TestModule {
    ctx: LLVMContextRef,
    pub m: LLVMModuleRef,
}

impl TestModule {
    pub fn parse(src: &str) -> TestModule {
        unsafe {
            let ctx = LLVMContextCreate();
            let name = CString::new("test").unwrap();
            let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
                src.as_ptr() as *const _,
                src.len(),
                name.as_ptr(),
            );
            let mut m = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            if LLVMParseIRInContext(ctx, buf, &mut m, &mut msg) != 0 {
                let text = std::ffi::CStr::from_ptr(msg).to_string_lossy().into_owned();
                panic!("bad test IR: {text}\n{src}");
            }
            TestModule { ctx, m }
        }
    }

    pub fn text(&self) -> String {
        ir::print_module(self.m)
    }
}

impl Drop for TestModule {
    fn drop(&mut self) {
        unsafe {
            LLVMDisposeModule(self.m);
            LLVMContextDispose(self.ctx);
        }
    }
}

/// Runs pass `pass` on `src` for machine `isa`; the result must verify.
pub fn run_pass_on(pass: &str, src: &str, isa: &str) -> String {
    let t = TestModule::parse(src);
    crate::run_named(pass, t.m, isa).unwrap();
    let text = t.text();
    if let Err(e) = ir::verify(t.m) {
        panic!("{pass} produced invalid IR: {e}\n{text}");
    }
    text
}

/// Runs `pass` on `src` and returns the (sign-extended) integer constants
/// `@f` returns: one for a scalar, one per element of a struct or vector.
pub fn eval_ret(pass: &str, src: &str, isa: &str) -> Vec<i64> {
    eval_ret_after(pass, src, isa, "instsimplify")
}

/// [`eval_ret`] with LLVM's passes `llvm_passes` folding what our pass left
/// (`sroa,instcombine` forwards stores to loads).
pub fn eval_ret_after(pass: &str, src: &str, isa: &str, llvm_passes: &str) -> Vec<i64> {
    let t = TestModule::parse(src);
    crate::run_named(pass, t.m, isa).unwrap();
    ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{}", t.text()));
    // The intrinsics under test must be gone before LLVM folds what is left
    // (which may include other intrinsics the lowering emits on purpose).
    let after = t.text();
    for line in src.lines().filter(|l| l.starts_with("declare ")) {
        if let Some(name) = line.split('@').nth(1).and_then(|r| r.split('(').next()) {
            assert!(
                !after
                    .lines()
                    .any(|l| l.contains("call ") && l.contains(&format!("@{name}("))),
                "{name} not lowered:\n{after}"
            );
        }
    }
    unsafe {
        use inkwell::llvm_sys::transforms::pass_builder::*;
        let opts = LLVMCreatePassBuilderOptions();
        let pipeline = CString::new(llvm_passes).unwrap();
        let err = LLVMRunPasses(t.m, pipeline.as_ptr(), std::ptr::null_mut(), opts);
        LLVMDisposePassBuilderOptions(opts);
        assert!(err.is_null(), "instsimplify failed");
    }
    unsafe {
        let f = LLVMGetNamedFunction(t.m, c"f".as_ptr());
        let last = LLVMGetLastBasicBlock(f);
        let ret = LLVMGetBasicBlockTerminator(last);
        let v = LLVMGetOperand(ret, 0);
        let ints = |c: LLVMValueRef| -> i64 {
            assert!(
                !LLVMIsAConstantInt(c).is_null(),
                "not folded to a constant:\n{}",
                t.text()
            );
            LLVMConstIntGetSExtValue(c)
        };
        match LLVMGetTypeKind(LLVMTypeOf(v)) {
            LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                let n = if LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMTypeKind::LLVMStructTypeKind {
                    LLVMCountStructElementTypes(LLVMTypeOf(v))
                } else {
                    LLVMGetVectorSize(LLVMTypeOf(v))
                };
                (0..n)
                    .map(|i| ints(LLVMGetAggregateElement(v, i)))
                    .collect()
            }
            _ => vec![ints(v)],
        }
    }
}

/// Asserts that `needles` occur in `text` in this order (FileCheck's CHECK lines).
pub fn check_in_order(text: &str, needles: &[&str]) {
    let mut at = 0;
    for n in needles {
        match text[at..].find(n) {
            Some(i) => at += i + n.len(),
            None => panic!("'{n}' not found (in order) in:\n{text}"),
        }
    }
}

/// A `.isa` file: the default machine without the instructions whose
/// semantics use one of `ops` (`"min.i32"`), for testing the fallbacks.
/// Deleted on drop.
pub struct TempIsa(std::path::PathBuf);

impl TempIsa {
    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempIsa {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

pub fn machine_without(ops: &[&str]) -> TempIsa {
    let (_, text) = isa_tablegen::builtin::source(isa_tablegen::builtin::DEFAULT).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !ops.iter().any(|op| l.contains(&format!("= {op}("))))
        .collect();
    let thread = format!("{:?}", std::thread::current().id())
        .replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let tag = ops
        .join("_")
        .replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "");
    let path = std::env::temp_dir().join(format!(
        "dsp-opt-passes-{}-{thread}-{tag}.isa",
        std::process::id()
    ));
    std::fs::write(&path, kept.join("\n") + "\n").unwrap();
    isa_tablegen::Machine::load(path.to_str().unwrap())
        .unwrap_or_else(|e| panic!("test machine: {e}"));
    TempIsa(path)
}

/// Parses `ir`, runs a pass that reports remarks (`run`) for ftm, verifies
/// the result and prints it: whether it changed, the remarks, the module.
pub fn run_on_ftm(ir: &str, run: fn(LLVMModuleRef, &crate::caps::Caps) -> (bool, Vec<crate::wfv::Remark>)) -> (bool, Vec<crate::wfv::Remark>, String) {
    let t = TestModule::parse(ir);
    let m = isa_tablegen::Machine::load("ftm").unwrap();
    let (changed, remarks) = run(t.m, &crate::caps::Caps::new(&m));
    let text = t.text();
    ir::verify(t.m).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (changed, remarks, text)
}
