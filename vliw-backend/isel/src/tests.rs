//! Unit tests: C snippets compiled with clang-19 (the flags dspcc uses) at
//! test time, selected on every shipped machine, verified, and checked for
//! properties of the MIR.

use std::path::{Path, PathBuf};
use std::process::Command;

use dsp_mir::{verify, Callee, FrameKind, Function, InstKind, Module, Terminator};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use isa_tablegen::{Machine, SemOp};

use crate::{select_module, IselError, IselOptions};

/// A temporary directory for this test's files.
fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dsp-isel-tests-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(tag)
}

/// C source → LLVM IR text with clang-19 (hexagon target, as dspcc runs it).
pub fn clang(tag: &str, src: &str, opt: &str, extra: &[&str]) -> PathBuf {
    let c = tmp(&format!("{tag}{opt}.c"));
    let ll = tmp(&format!("{tag}{opt}.ll"));
    std::fs::write(&c, src).unwrap();
    let out = Command::new("clang-19")
        .args(["--target=hexagon-unknown-elf", "-fsigned-char", "-ffreestanding", opt, "-S", "-emit-llvm"])
        .args(extra)
        .arg(&c)
        .arg("-o")
        .arg(&ll)
        .output()
        .expect("clang-19 runs");
    assert!(out.status.success(), "clang failed: {}", String::from_utf8_lossy(&out.stderr));
    ll
}

/// Vectorizing flags for a machine's lane count.
pub fn vector_flags(m: &Machine) -> Vec<String> {
    let lanes = m.vector_lanes(32).unwrap();
    let len = if lanes * 4 > 64 { "-mhvx-length=128b" } else { "-mhvx-length=64b" };
    vec!["-mhvx".into(), len.into(), "-mllvm".into(), "-hexagon-autohvx".into(), "-mllvm".into(), format!("-force-vector-width={lanes}")]
}

/// Selects an IR file; panics with the errors on failure.
pub fn select_file(m: &Machine, ll: &Path, opts: &IselOptions) -> Result<Module, Vec<IselError>> {
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_file(ll).unwrap();
    let module = ctx.create_module_from_ir(buf).unwrap();
    select_module(m, &module, opts)
}

/// Compiles and selects `src` on machine `m`, verifying every function.
pub fn select_c(m: &Machine, tag: &str, src: &str, opt: &str, extra: &[&str]) -> Module {
    let ll = clang(&format!("{tag}-{}", m.name), src, opt, extra);
    let module = match select_file(m, &ll, &IselOptions::default()) {
        Ok(x) => x,
        Err(errs) => panic!("{tag} on {} at {opt}: {}", m.name, errs.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")),
    };
    for f in &module.functions {
        if let Err(e) = verify::verify(m, f, verify::Stage::Selected) {
            panic!("{tag} on {} at {opt}: {e}\n{}", m.name, dsp_mir::print::function(m, f));
        }
    }
    module
}

pub fn machines() -> Vec<Machine> {
    isa_tablegen::builtin::names().map(|n| Machine::load(n).unwrap()).collect()
}

pub fn func<'a>(module: &'a Module, name: &str) -> &'a Function {
    module.functions.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no function {name}"))
}

/// Machine instructions of a function with this semantic operation.
pub fn count_sem(m: &Machine, f: &Function, op: SemOp) -> usize {
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| matches!(&i.kind, InstKind::Machine { instr, .. } if m.instr(*instr).sem.op == op))
        .count()
}

/// Calls of a function by symbol.
pub fn calls_to(f: &Function, name: &str) -> usize {
    f.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(&i.kind, InstKind::Call { callee: Callee::Sym(s), .. } if s == name)).count()
}

pub fn count_phis(f: &Function) -> usize {
    f.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(i.kind, InstKind::Phi { .. })).count()
}

/// Both -O0 and -O2, on every machine.
fn each(tag: &str, src: &str, mut check: impl FnMut(&Machine, &Module, &str)) {
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            let module = select_c(&m, tag, src, opt, &[]);
            check(&m, &module, opt);
        }
    }
}

#[test]
fn scalar_arithmetic_selects_and_verifies() {
    let src = r#"
        int add(int a, int b) { return a + b * 3 - (a >> 2); }
        unsigned udiv(unsigned a, unsigned b) { return a / b + a % b; }
        int sdiv(int a, int b) { return a / b + a % b; }
        short sh(short a, unsigned char b) { return (short)(a * b) >> 1; }
        int cmp(int a, int b) { return (a < b) + (a == b) * 2 + ((unsigned)a > (unsigned)b) * 4; }
        long long l64(long long a, long long b) { return a * b + (a >> 3) - (b / 7) + (a % b); }
        unsigned long long u64(unsigned long long a, unsigned s) { return (a << s) | (a >> (64 - s)); }
    "#;
    each("arith", src, |m, module, _| {
        let f = func(module, "add");
        assert!(count_sem(m, f, SemOp::Add) >= 1);
        assert!(matches!(f.blocks.last().unwrap().term, Terminator::Return { .. }));
        let f = func(module, "sdiv");
        assert!(count_sem(m, f, SemOp::Div) + count_sem(m, f, SemOp::Rem) >= 1);
    });
}

#[test]
fn loops_get_phis_at_o2() {
    let src = "int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }";
    for m in machines() {
        let module = select_c(&m, "loop", src, "-O2", &[]);
        let f = func(&module, "sum");
        assert!(count_phis(f) >= 2, "{}", dsp_mir::print::function(&m, f));
        assert!(f.blocks.iter().any(|b| matches!(b.term, Terminator::Branch { .. })));
    }
}

#[test]
fn struct_copy_calls_memcpy() {
    let src = r#"
        struct Big { int a[40]; };
        void copy(struct Big *d, struct Big *s) { *d = *s; }
        struct Small { int a, b; };
        void copy2(struct Small *d, struct Small *s) { *d = *s; }
    "#;
    each("memcpy", src, |m, module, opt| {
        let f = func(module, "copy");
        assert_eq!(calls_to(f, "memcpy"), 1, "{opt}\n{}", dsp_mir::print::function(m, f));
        let f = func(module, "copy2");
        assert_eq!(calls_to(f, "memcpy"), 0, "small copies are inline");
        assert!(count_sem(m, f, SemOp::Store) >= 2);
    });
}

#[test]
fn twelve_int_args_use_the_stack() {
    let src = r#"
        int many(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l);
        int call(int x) { return many(x, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, x + 12); }
        __attribute__((noinline)) int many(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k, int l) { return a * l + k - j; }
    "#;
    each("args", src, |m, module, opt| {
        let r = m.scalar_file(isa_tablegen::Ty::I32).unwrap();
        let nregs = m.abi.args.iter().filter(|a| a.file == r).count();
        let nstack = 12 - nregs;
        let f = func(module, "call");
        let out: Vec<_> = f.frame.iter().filter(|o| o.kind == FrameKind::OutgoingArgs).collect();
        assert_eq!(out.len(), 1, "{opt}");
        assert_eq!(out[0].size as usize, 4 * nstack);
        let call = f.blocks.iter().flat_map(|b| &b.insts).find_map(|i| match &i.kind {
            InstKind::Call { args, .. } => Some(args.clone()),
            _ => None,
        });
        assert_eq!(call.unwrap().len(), nregs);
        let area = f.frame.iter().position(|o| o.kind == FrameKind::OutgoingArgs).unwrap() as u32;
        let stack_stores = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter(|i| match &i.kind {
                InstKind::Machine { instr, ops, .. } => {
                    m.instr(*instr).sem.op == SemOp::Store
                        && ops.iter().any(|o| matches!(o, dsp_mir::Operand::Frame { index, .. } if index.0 == area))
                }
                _ => false,
            })
            .count();
        assert_eq!(stack_stores, nstack, "{}", dsp_mir::print::function(m, f));
        let g = func(module, "many");
        let incoming = g.frame.iter().filter(|o| matches!(o.kind, FrameKind::IncomingArg { .. })).count();
        assert!(incoming >= 2, "{opt}: the used stack parameters are read");
    });
}

#[test]
fn initialized_globals_become_data_with_relocations() {
    let src = r#"
        int x = 5;
        int *p = &x;
        struct S { char c; int *q; short h; } s = { 'a', &x + 1, -2 };
        const char msg[] = "hi";
        int zero[10];
        static int local_counter = 7;
        int bump(void) { return ++local_counter + msg[0] + zero[1] + *p + s.h; }
    "#;
    each("data", src, |_, module, _| {
        let d = |n: &str| module.data.iter().find(|d| d.name == n).unwrap_or_else(|| panic!("no {n}"));
        assert_eq!(d("x").bytes, vec![5, 0, 0, 0]);
        assert_eq!(d("p").relocs, vec![dsp_mir::DataReloc { offset: 0, symbol: "x".into(), addend: 0 }]);
        let s = d("s");
        assert_eq!(s.size, 12);
        assert_eq!(s.bytes[0], b'a');
        assert_eq!(s.relocs, vec![dsp_mir::DataReloc { offset: 4, symbol: "x".into(), addend: 4 }]);
        assert_eq!(&s.bytes[8..10], &[0xfe, 0xff]);
        assert_eq!(d("msg").bytes, b"hi\0".to_vec());
        assert_eq!(d("msg").section, dsp_mir::DataSection::ReadOnly);
        assert_eq!(d("zero").section, dsp_mir::DataSection::Bss);
        assert_eq!(d("zero").size, 40);
        assert!(!d("local_counter").global);
        assert!(d("x").global);
    });
}

#[test]
fn vectorized_loop_uses_vector_add() {
    let src = "void vadd(int *restrict a, int *restrict b, int *restrict c, int n) { for (int i = 0; i < n; i++) a[i] = b[i] + c[i]; }";
    for m in machines() {
        let flags = vector_flags(&m);
        let flags: Vec<&str> = flags.iter().map(|s| s.as_str()).collect();
        let module = select_c(&m, "vadd", src, "-O2", &flags);
        let f = func(&module, "vadd");
        let (lanes, vfile) = crate::types::vector32(&m).unwrap();
        let _ = lanes;
        let vector_adds = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter(|i| match &i.kind {
                InstKind::Machine { instr, ops, .. } => {
                    let ins = m.instr(*instr);
                    ins.sem.op == SemOp::Add && matches!(ops[ins.sem.dst.unwrap().0], dsp_mir::Operand::Reg(r) if f.reg_file(r) == vfile)
                }
                _ => false,
            })
            .count();
        assert!(vector_adds >= 1, "{}", dsp_mir::print::function(&m, f));
        assert!(count_sem(&m, f, SemOp::VLoadU) + count_sem(&m, f, SemOp::VLoad) >= 2);
    }
}

fn select_ir(m: &Machine, tag: &str, ir: &str) -> Result<Module, Vec<IselError>> {
    let ll = tmp(&format!("{tag}-{}.ll", m.name));
    std::fs::write(&ll, ir).unwrap();
    select_file(m, &ll, &IselOptions::default())
}

#[test]
fn i128_multiply_is_an_error_naming_the_instruction() {
    let ir = r#"
define i64 @f(i64 %a, i64 %b) {
  %x = zext i64 %a to i128
  %y = zext i64 %b to i128
  %p = mul i128 %x, %y
  %t = trunc i128 %p to i64
  ret i64 %t
}
"#;
    for m in machines() {
        let errs = select_ir(&m, "i128", ir).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "error: in function 'f': cannot lower '%p = mul i128 %x, %y': 128-bit multiplication and division are not supported"
        );
    }
}

#[test]
fn inline_asm_is_an_error_with_file_and_line() {
    let src = "int f(int x) {\n  __asm__ volatile(\"nop\");\n  return x;\n}\n";
    for m in machines() {
        let ll = clang(&format!("asm-{}", m.name), src, "-O0", &["-g"]);
        let errs = select_file(&m, &ll, &IselOptions::default()).unwrap_err();
        assert_eq!(errs.len(), 1);
        let c = tmp(&format!("asm-{}-O0.c", m.name));
        assert_eq!(
            errs[0].to_string(),
            format!(
                "{}:2:3: error: cannot lower 'call void asm sideeffect \"nop\", \"\"()': inline assembly is not supported",
                c.display()
            )
        );
    }
}

/// Loads and stores carry the identified object their address is based on:
/// restrict arguments and globals are objects of their own, a plain pointer
/// argument is unknown.
#[test]
fn accesses_carry_their_identified_objects() {
    let src = "int g[8];\n\
               void f(int *restrict x, int *restrict y, int *p, int n) {\n\
                 for (int i = 0; i < n; i++) y[i] = x[i] + g[i & 7] + p[i];\n\
               }\n";
    let m = Machine::load("ftm").unwrap();
    let module = select_c(&m, "objects", src, "-O1", &[]);
    let f = module.functions.iter().find(|f| f.name == "f").unwrap();
    let mut objects = Vec::new();
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::Machine { instr, .. } = &i.kind {
                let sem = &m.instr(*instr).sem;
                if sem.reads_memory() || sem.writes_memory() {
                    objects.push((sem.writes_memory(), i.object));
                }
            }
        }
    }
    // x, g and p loaded, y stored.
    let loads: Vec<_> = objects.iter().filter(|(w, _)| !w).map(|(_, o)| *o).collect();
    let stores: Vec<_> = objects.iter().filter(|(w, _)| *w).map(|(_, o)| *o).collect();
    assert_eq!(loads.len(), 3, "{objects:?}");
    assert_eq!(loads.iter().filter(|o| o.is_none()).count(), 1, "p is unknown: {objects:?}");
    let mut known: Vec<_> = loads.iter().flatten().copied().collect();
    known.extend(stores.iter().flatten().copied());
    known.sort();
    known.dedup();
    assert_eq!(known.len(), 3, "x, g and y are three objects: {objects:?}");
}
