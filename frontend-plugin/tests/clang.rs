//! The plugin as clang-19 loads it, without dspcc (`clang-19 -fplugin=…`):
//! each bad directive gives exactly one clang-style error at its
//! FILE:LINE:COL and a non-zero exit; good directives reach the IR as the
//! contract says (README.md); `-fplugin-arg-dspvec-ignore` checks but
//! attaches nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The plugin next to the test binary's profile directory.
fn plugin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap();
    let p = dir.join("libdsp_frontend_plugin.so");
    assert!(p.exists(), "{} not built", p.display());
    p
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/frontend-plugin-tests").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles `src` (as `NAME.c`) to textual IR with the plugin and `flags`.
fn clang(name: &str, src: &str, flags: &[&str]) -> (Output, String) {
    let dir = scratch(name);
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, src).unwrap();
    let ll = dir.join(format!("{name}.ll"));
    let out = Command::new("clang-19")
        .current_dir(&dir)
        .arg("--target=hexagon-unknown-elf")
        .arg(format!("-fplugin={}", plugin().display()))
        .args(flags)
        .args(["-fno-color-diagnostics", "-S", "-emit-llvm", "-o"])
        .arg(&ll)
        .arg(format!("{name}.c"))
        .output()
        .expect("clang-19 runs");
    let ir = std::fs::read_to_string(&ll).unwrap_or_default();
    (out, ir)
}

/// The `error:` lines clang printed.
fn errors(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr).lines().filter(|l| l.contains("error:")).map(String::from).collect()
}

/// `src` must fail with exactly the error `want` (`FILE:LINE:COL: error: MSG`).
fn rejects(name: &str, src: &str, flags: &[&str], want: &str) {
    let (out, _) = clang(name, src, flags);
    assert!(!out.status.success(), "{name}: accepted:\n{src}");
    assert_eq!(errors(&out), [want.to_string()], "{name}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bad_directives_are_errors_at_their_token() {
    let f = "int f(int n, float *p, float x);\n";
    let cases: &[(&str, String, &str)] = &[
        (
            "unknown_clause",
            format!("#pragma simd declare vec-function uniform(n) vectorize(p)\n{f}"),
            "unknown_clause.c:1:46: error: unknown clause 'vectorize' in '#pragma simd declare vec-function'",
        ),
        (
            "not_a_parameter",
            format!("#pragma simd declare vec-function uniform(n, m)\n{f}"),
            "not_a_parameter.c:1:46: error: 'm' is not a parameter of 'f'",
        ),
        (
            "nonconstant_step",
            format!("#pragma simd declare vec-function linear(n:x)\n{f}"),
            "nonconstant_step.c:1:44: error: linear step must be an integer constant expression",
        ),
        (
            "mask_nomask",
            format!("#pragma simd declare vec-function nomask uniform(n) mask\n{f}"),
            "mask_nomask.c:1:53: error: 'mask' cannot be used together with 'nomask'",
        ),
        (
            "declare_before_variable",
            "#pragma simd declare vec-function\nint g;\n".to_string(),
            "declare_before_variable.c:1:1: error: '#pragma simd declare vec-function' must be followed by a function declaration or definition",
        ),
        (
            "declare_at_end",
            format!("{f}  #pragma simd declare vec-function uniform(n)\n"),
            "declare_at_end.c:2:3: error: '#pragma simd declare vec-function' must be followed by a function declaration or definition",
        ),
        (
            "declare_in_body",
            "int h(int *a) {\n#pragma simd declare vec-function\n  return a[0];\n}\n".to_string(),
            "declare_in_body.c:2:1: error: '#pragma simd declare vec-function' must be followed by a function declaration or definition",
        ),
        (
            "loop_before_statement",
            "int h(int *a, int n) {\n  int s = 0;\n#pragma simd vec-function\n  s = a[0];\n  for (int i = 0; i < n; i++) s += a[i];\n  return s;\n}\n"
                .to_string(),
            "loop_before_statement.c:3:1: error: '#pragma simd vec-function' must be followed by a loop",
        ),
        (
            "loop_before_function",
            format!("#pragma simd vec-function\n{f}"),
            "loop_before_function.c:1:1: error: '#pragma simd vec-function' must be followed by a loop",
        ),
        (
            "loop_at_end_of_body",
            "int h(int *a) {\n  return a[0];\n#pragma simd vec-function\n}\n".to_string(),
            "loop_at_end_of_body.c:3:1: error: '#pragma simd vec-function' must be followed by a loop",
        ),
        (
            "loop_with_clause",
            "void h(int *a, int n) {\n#pragma simd vec-function uniform(n)\n  for (int i = 0; i < n; i++) a[i] = 0;\n}\n".to_string(),
            "loop_with_clause.c:2:27: error: unexpected 'uniform' after '#pragma simd vec-function'",
        ),
        (
            "linear_float",
            format!("#pragma simd declare vec-function linear(x)\n{f}"),
            "linear_float.c:1:42: error: 'x' in linear is neither an integer nor a pointer parameter",
        ),
        (
            "alignment_not_pointer",
            format!("#pragma simd declare vec-function alignment(n:16)\n{f}"),
            "alignment_not_pointer.c:1:45: error: 'n' in alignment is not a pointer parameter",
        ),
        (
            "alignment_not_power_of_two",
            format!("#pragma simd declare vec-function alignment(p:48)\n{f}"),
            "alignment_not_power_of_two.c:1:47: error: alignment must be a power of two",
        ),
        (
            "uniform_and_linear",
            format!("#pragma simd declare vec-function uniform(n) linear(n:2)\n{f}"),
            "uniform_and_linear.c:1:53: error: 'n' is already uniform",
        ),
        (
            "unknown_directive",
            format!("#pragma simd vectorlength(4)\n{f}"),
            "unknown_directive.c:1:14: error: expected 'vec-function' or 'declare vec-function' after '#pragma simd', found 'vectorlength'",
        ),
        (
            "omp_nonconstant_step",
            "#pragma omp declare simd linear(n:x)\nint f(int n, float x);\n".to_string(),
            // clang checks OpenMP's clauses itself; we add nothing to its error.
            "omp_nonconstant_step.c:1:35: error: expected a reference to a parameter specified in a 'uniform' clause",
        ),
    ];
    for (name, src, want) in cases {
        let flags: &[&str] = if name.starts_with("omp") { &["-fopenmp-simd"] } else { &[] };
        rejects(name, src, flags, want);
    }
}

#[test]
fn macro_expanded_steps_and_pragma_operators() {
    let src = "#define STEP (2 * 2)\n_Pragma(\"simd declare vec-function linear(i:STEP) uniform(p)\")\nint f(int *p, int i);\nint g(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += f(p, i); return s; }\n";
    let (out, ir) = clang("pragma_operator", src, &["-O0"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(ir.contains(r#""dsp-vec-function"="args(2) uniform(0) linear(1:4)""#), "{ir}");
}

#[test]
fn the_contract_in_clangs_ir_without_dspcc() {
    let src = "\
#pragma simd declare vec-function uniform(n) linear(p:2) alignment(q:64, p) mask
float f(int n, const float *p, float *q, float x);
struct big { int a[8]; };
#pragma simd declare vec-function uniform(k) nomask
struct big make(int k, int i);
void run(float *restrict out, const float *in, float *q, int n) {
#pragma simd vec-function
  for (int i = 0; i < n; i++)
    out[i] = f(n, &in[2 * i], q, (float)i);
}
int use(struct big *b, int n) { int s = 0; for (int i = 0; i < n; i++) { *b = make(n, i); s += b->a[0]; } return s; }
";
    let (out, ir) = clang("contract", src, &["-O1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Pointer steps in bytes; a struct-return pointer shifts the indices.
    assert!(ir.contains(r#""dsp-vec-function"="args(4) uniform(0) linear(1:8) aligned(1,2:64) mask""#), "{ir}");
    assert!(ir.contains(r#""dsp-vec-function"="args(3) uniform(1) nomask""#), "{ir}");
    assert!(ir.contains(r#"!{!"dsp.vec_function.loop", !"simd"}"#), "{ir}");
    assert!(!ir.contains("llvm.loop.pipeline.initiationinterval"), "the carrier is gone:\n{ir}");

    // Ignored: checked, nothing attached.
    let (out, ir) = clang("ignored", src, &["-O1", "-fplugin-arg-dspvec-ignore"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!ir.contains("dsp-vec-function") && !ir.contains("dsp.vec_function") && !ir.contains("initiationinterval"), "{ir}");
    rejects(
        "ignored_still_checked",
        "#pragma simd declare vec-function uniform(m)\nint f(int n);\n",
        &["-fplugin-arg-dspvec-ignore"],
        "ignored_still_checked.c:1:43: error: 'm' is not a parameter of 'f'",
    );
}

#[test]
fn openmp_spellings() {
    let src = "\
#pragma omp declare simd uniform(n) linear(p:1) aligned(q:32) notinbranch simdlen(8)
#pragma omp declare simd uniform(n) linear(i:n) inbranch
float f(const float *p, int n, float *q, int i);
void run(float *restrict out, const float *in, float *q, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++)
    out[i] = f(&in[i], n, q, i);
}
";
    let (out, ir) = clang("omp", src, &["-O2", "-fopenmp-simd", "-Wno-pass-failed"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        ir.contains(r#""dsp-vec-function"="args(4) uniform(1) linear(0:4) aligned(2:32) nomask simdlen(8);args(4) uniform(1) linear(3:$1) mask""#)
            || ir.contains(r#""dsp-vec-function"="args(4) uniform(1) linear(3:$1) mask;args(4) uniform(1) linear(0:4) aligned(2:32) nomask simdlen(8)""#),
        "{ir}"
    );
    assert!(ir.contains(r#"!{!"dsp.vec_function.loop", !"omp"}"#), "{ir}");
    // Without -fopenmp-simd clang ignores the OpenMP pragmas, and so do we.
    let (out, ir) = clang("omp_off", src, &["-O2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!ir.contains("dsp-vec-function") && !ir.contains("dsp.vec_function"), "{ir}");
}

#[test]
fn unknown_plugin_argument_is_an_error() {
    let (out, _) = clang("bad_arg", "int x;\n", &["-fplugin-arg-dspvec-fast"]);
    assert!(!out.status.success());
    assert!(errors(&out)[0].contains("unknown argument 'fast' for plugin 'dspvec' (known: ignore)"), "{:?}", errors(&out));
}
