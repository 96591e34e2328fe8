//! Allocation of real compiler output: C snippets compiled with clang-19
//! (the flags dspcc uses) at -O0 and -O2 (vectorizing), selected by dsp-isel
//! on every machine; every function must allocate, pass the independent
//! checker and verify, and spilling, callee-saved registers and frames must
//! behave as the scenarios demand.

use std::path::PathBuf;
use std::process::Command;

use dsp_mir::{Function, InstKind, Module};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use isa_tablegen::Machine;

use super::builder::machines;
use crate::{allocate, RaOptions, RaReport};

fn clang(tag: &str, src: &str, opt: &str, extra: &[String]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dsp-regalloc-tests-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let c = d.join(format!("{tag}{opt}.c"));
    let ll = d.join(format!("{tag}{opt}.ll"));
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

fn vector_flags(m: &Machine) -> Vec<String> {
    let lanes = m.vector_lanes(32).unwrap();
    let len = if lanes * 4 > 64 { "-mhvx-length=128b" } else { "-mhvx-length=64b" };
    ["-mhvx", len, "-mllvm", "-hexagon-autohvx", "-mllvm"].iter().map(|s| s.to_string()).chain([format!("-force-vector-width={lanes}")]).collect()
}

fn select(m: &Machine, tag: &str, src: &str, opt: &str) -> Module {
    let extra = if opt == "-O2" { vector_flags(m) } else { vec![] };
    let ll = clang(&format!("{tag}-{}", m.name), src, opt, &extra);
    let ctx = Context::create();
    let module = ctx.create_module_from_ir(MemoryBuffer::create_from_file(&ll).unwrap()).unwrap();
    dsp_isel::select_module(m, &module, &dsp_isel::IselOptions::default())
        .unwrap_or_else(|e| panic!("{tag} {opt} on {}: {}", m.name, e.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("\n")))
}

/// Allocates every function of `src` at -O0 and -O2 on every machine.
fn allocate_all(tag: &str, src: &str) -> Vec<(String, String, Function, RaReport)> {
    let mut out = Vec::new();
    for m in machines() {
        for opt in ["-O0", "-O2"] {
            for f in select(&m, tag, src, opt).functions {
                let mut g = f.clone();
                let rep = allocate(&m, &mut g, &RaOptions { check: true, ..RaOptions::default() })
                    .unwrap_or_else(|e| panic!("{tag} {opt} on {}: {e}\n{}", m.name, dsp_mir::print::function(&m, &f)));
                out.push((m.name.clone(), format!("{}{opt}", f.name), g, rep));
            }
        }
    }
    out
}

/// The reports of function `name` (e.g. `sum-O2`) on every machine.
fn report<'a>(all: &'a [(String, String, Function, RaReport)], name: &'a str) -> std::vec::IntoIter<&'a RaReport> {
    let v: Vec<&RaReport> = all.iter().filter(move |(_, n, _, _)| n == name).map(|(_, _, _, r)| r).collect();
    assert_eq!(v.len(), isa_tablegen::builtin::names().count(), "{name}");
    v.into_iter()
}

#[test]
fn loops_calls_and_recursion() {
    let src = r#"
        int ext(int, int);
        int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
        int sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] * a[i]; return s; }
        int across(int a, int b) {
            int x = a * 3, y = b * 5, z = a ^ b;
            int r = ext(x, y);
            return r + x + y + z + ext(z, r);
        }
        void swap_loop(int *out, int n) {
            int a = 1, b = 2, c = 3;
            for (int i = 0; i < n; i++) { int t = a; a = b; b = c; c = t + i; }
            out[0] = a; out[1] = b; out[2] = c;
        }
    "#;
    let all = allocate_all("loops", src);
    // Values live across calls force callee-saved registers (saved) at -O2.
    assert!(report(&all, "across-O2").all(|r| r.saved_regs >= 2));
    assert!(report(&all, "sum-O2").all(|r| r.spills == 0));
}

#[test]
fn high_pressure_spills() {
    // More simultaneously live values than registers, at -O2.
    let mut src = String::from("int pressure(const int *p) {\n");
    for i in 0..48 {
        src += &format!("    int v{i} = p[{i}] * {};\n", i + 3);
    }
    src += "    int s = 0;\n";
    for i in (0..48).rev() {
        src += &format!("    s = s * 3 + v{i} * p[{}];\n", 100 + i);
    }
    src += "    return s;\n}\n";
    let all = allocate_all("pressure", &src);
    assert!(report(&all, "pressure-O2").all(|r| r.spills > 0 && r.frame_size > 0), "{:?}", report(&all, "pressure-O2").collect::<Vec<_>>());
}

#[test]
fn switches_varargs_structs_and_dynamic_stack() {
    let src = r#"
        #include <stdarg.h>
        struct big { int a[12]; double d; };
        int classify(int x) {
            switch (x) {
            case 0: return 10; case 1: return 20; case 2: return 30; case 3: return 40;
            case 4: return 50; case 5: return 60; case 6: return 70; case 7: return 80;
            default: return -1;
            }
        }
        int vsum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
        int call_vsum(int a) { return vsum(5, a, a + 1, a + 2, a + 3, a + 4); }
        double take(struct big b) { return b.a[3] + b.d; }
        double give(int x) { struct big b = {{x, x, x, x}, 2.5}; return take(b); }
        long vla(int n) { int a[n]; for (int i = 0; i < n; i++) a[i] = i * n; long s = 0; for (int i = 0; i < n; i++) s += a[i]; return s + vsum(1, n); }
        long long wide(long long a, long long b, double c) { return a * b + (long long)(c * 3.0) + (a >> 3); }
    "#;
    let all = allocate_all("misc", src);
    assert!(report(&all, "vla-O2").all(|r| r.saved_regs >= 1));
    // Every frame is a multiple of the stack alignment.
    for m in machines() {
        for (_, name, g, r) in all.iter().filter(|(n, ..)| *n == m.name) {
            assert_eq!(r.frame_size % m.abi.stack_align, 0, "{name}");
            assert!(!g.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::Phi { .. })));
        }
    }
}

#[test]
fn vectorized_loops_with_masks() {
    let src = r#"
        void saxpy(float *restrict y, const float *restrict x, float a, int n) { for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i]; }
        int dot(const int *a, const int *b, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i] * b[i]; return s; }
        void clampv(int *restrict out, const int *restrict in, int n) { for (int i = 0; i < n; i++) out[i] = in[i] > 100 ? 100 : (in[i] < -100 ? -100 : in[i]); }
        void cond_store(int *restrict out, const int *restrict in, int n) { for (int i = 0; i < n; i++) if (in[i] & 1) out[i] = in[i] * 3; }
    "#;
    let all = allocate_all("vec", src);
    assert!(all.len() >= 24);
}
