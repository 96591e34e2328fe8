//! The pass on C compiled by clang-19 and put in canonical form by opt-19
//! (the list `-mllvm -dsp-polyhedral` runs): the module verifies, the
//! structure and remarks are the expected ones, and the transformed
//! program, run by `lli-19` on the host, prints exactly what the original
//! prints — on the classic kernels, at boundary sizes, and on random
//! affine nests (the core's legality property test, at IR level).

use std::path::PathBuf;
use std::process::Command;

use super::*;
use crate::testutil::TestModule;

/// The canonical passes (opt-passes/tests/scop.rs says why each).
const CANONICAL: &str = "mem2reg,early-cse,simplifycfg,instcombine<no-verify-fixpoint>,loop-simplify,lcssa,loop-rotate,indvars";

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/opt-passes-tests/pluto");
    std::fs::create_dir_all(&dir).unwrap();
    let thread = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
    dir.join(format!("{name}-{}-{thread}", std::process::id()))
}

/// C → canonical IR for the host (so that lli runs it).
pub(super) fn canonical_for_tests(name: &str, c: &str) -> String {
    canonical(name, c)
}

fn canonical(name: &str, c: &str) -> String {
    let base = scratch(name);
    let (src, raw, out) = (base.with_extension("c"), base.with_extension("raw.ll"), base.with_extension("ll"));
    std::fs::write(&src, c).unwrap();
    let r = Command::new("clang-19").args(["-g", "-fno-discard-value-names", "-O1", "-Xclang", "-disable-llvm-passes", "-S", "-emit-llvm", "-o"]).arg(&raw).arg(&src).output().expect("clang-19");
    assert!(r.status.success(), "clang: {}", String::from_utf8_lossy(&r.stderr));
    let r = Command::new("opt-19").arg(format!("-passes=function({CANONICAL})")).args(["-S", "-o"]).arg(&out).arg(&raw).output().expect("opt-19");
    assert!(r.status.success(), "opt: {}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    for p in [src, raw, out] {
        let _ = std::fs::remove_file(p);
    }
    text
}

pub(super) fn transform_for_tests(ir: &str, params: &str) -> (String, Vec<(RemarkKind, String)>) {
    transform(ir, params)
}

/// The pass with `params` on `ir`: the module after (verified) and the remarks.
fn transform(ir: &str, params: &str) -> (String, Vec<(RemarkKind, String)>) {
    let t = TestModule::parse(ir);
    let opts = Options::parse(params).unwrap();
    let (_, remarks) = run(t.m, &opts);
    let text = t.text();
    if let Err(e) = ir::verify(t.m) {
        panic!("invalid IR after dsp-pluto: {e}\n{text}");
    }
    (text, remarks.into_iter().map(|r| (r.kind, r.msg)).collect())
}

pub(super) fn lli_for_tests(name: &str, ir: &str) -> String {
    lli(name, ir)
}

/// What the module prints when lli-19 runs it.
fn lli(name: &str, ir: &str) -> String {
    let f = scratch(name).with_extension("run.ll");
    std::fs::write(&f, ir).unwrap();
    let r = Command::new("lli-19").arg(&f).output().expect("lli-19");
    let _ = std::fs::remove_file(&f);
    assert!(r.status.success(), "lli: {}\n{}", String::from_utf8_lossy(&r.stderr), ir);
    String::from_utf8(r.stdout).unwrap()
}

/// Transforms `c` with `params`; the outputs must agree. Returns the remarks.
fn same_output(name: &str, c: &str, params: &str) -> Vec<(RemarkKind, String)> {
    let before = canonical(name, c);
    let (after, remarks) = transform(&before, params);
    let (a, b) = (lli(name, &before), lli(name, &after));
    assert!(!a.is_empty());
    assert_eq!(a, b, "{name}: outputs differ; remarks {remarks:?}");
    remarks
}

fn passed(remarks: &[(RemarkKind, String)]) -> Vec<&str> {
    remarks.iter().filter(|r| r.0 == RemarkKind::Passed).map(|r| r.1.as_str()).collect()
}

const MATMUL: &str = r#"
#include <stdio.h>
static int A[13][7], B[7][11], C[13][11];
__attribute__((noinline)) void kernel(void) {
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 11; j++)
      for (int k = 0; k < 7; k++)
        C[i][j] += A[i][k] * B[k][j];
}
int main(void) {
  for (int i = 0; i < 13; i++) for (int k = 0; k < 7; k++) A[i][k] = (i * 3 + k * 5) % 17 - 8;
  for (int k = 0; k < 7; k++) for (int j = 0; j < 11; j++) B[k][j] = (k * 7 + j) % 13 - 6;
  kernel();
  long s = 0;
  for (int i = 0; i < 13; i++) for (int j = 0; j < 11; j++) s = s * 31 + C[i][j];
  printf("%ld\n", s);
  return 0;
}
"#;

#[test]
fn matmul_is_tiled_and_computes_the_same() {
    let before = canonical("matmul", MATMUL);
    let (after, remarks) = transform(&before, "sizes=4,4,4");
    let p = passed(&remarks);
    assert!(p.iter().any(|m| m.contains("in kernel transformed") && m.contains("S0: (i0, i1, i2)") && m.contains("tiled 4x4x4")), "{remarks:?}");
    assert!(after.contains("pluto.loop") && after.contains("pluto.start"));
    // The new code is entered, the old one not any more.
    assert!(after.contains("br i1 true, label %pluto.start"));
    assert_eq!(lli("matmul", &before), lli("matmul", &after));
    // Debug locations of the cloned statement stay.
    let kernel = &after[after.find("define dso_local void @kernel").unwrap()..];
    let kernel = &kernel[..kernel.find("\n}\n").unwrap()];
    let stores: Vec<&str> = kernel.lines().filter(|l| l.contains("store i32")).collect();
    assert!(stores.len() >= 2 && stores.iter().all(|l| l.contains("!dbg")), "{stores:?}");
    // Loops around loops are marked not to unroll (a point loop of
    // constant trip count would be unrolled whole); the innermost are not.
    let marked = kernel.lines().filter(|l| l.contains("br i1") && l.contains("label %pluto.loop") && l.contains("!llvm.loop")).count();
    let latches = kernel.lines().filter(|l| l.contains("br i1") && l.contains("label %pluto.loop")).count();
    assert!(marked >= 5 && marked < latches, "{marked} of {latches} latches marked");
    assert!(after.contains("!{!\"llvm.loop.unroll.disable\"}"));
}

#[test]
fn classic_kernels_reach_plutos_schedules_and_compute_the_same() {
    let jacobi = r#"
#include <stdio.h>
static float A[23], B[23];
__attribute__((noinline)) void kernel(void) {
  for (int t = 0; t < 6; t++) {
    for (int i = 1; i < 22; i++) B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
    for (int j = 1; j < 22; j++) A[j] = B[j];
  }
}
int main(void) {
  for (int i = 0; i < 23; i++) A[i] = (float)((i * 7) % 11) + 0.5f;
  kernel();
  for (int i = 0; i < 23; i++) printf("%.6f\n", A[i]);
  return 0;
}
"#;
    let r = same_output("jacobi1d", jacobi, "sizes=4,4");
    assert!(passed(&r).iter().any(|m| m.contains("S0: (i0, 2i0 + i1, 0)") && m.contains("S1: (i0, 2i0 + i1 + 1, 1)")), "{r:?}");
    let seidel = r#"
#include <stdio.h>
static double A[10][10];
__attribute__((noinline)) void kernel(void) {
  for (int t = 0; t < 4; t++)
    for (int i = 1; i < 9; i++)
      for (int j = 1; j < 9; j++)
        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1] + A[i][j-1] + A[i][j] + A[i][j+1] + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0;
}
int main(void) {
  for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) A[i][j] = (double)((i * j + 3) % 10) / 3.0;
  kernel();
  for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) printf("%.9f\n", A[i][j]);
  return 0;
}
"#;
    let r = same_output("seidel2d", seidel, "sizes=2,4,4");
    assert!(passed(&r).iter().any(|m| m.contains("S0: (i0, i0 + i1, 2i0 + i1 + i2)")), "{r:?}");
    let lu = r#"
#include <stdio.h>
static double A[9][9];
__attribute__((noinline)) void kernel(void) {
  for (int k = 0; k < 9; k++) {
    for (int j = k + 1; j < 9; j++) A[k][j] = A[k][j] / A[k][k];
    for (int i = k + 1; i < 9; i++)
      for (int j = k + 1; j < 9; j++) A[i][j] = A[i][j] - A[i][k] * A[k][j];
  }
}
int main(void) {
  for (int i = 0; i < 9; i++) for (int j = 0; j < 9; j++) A[i][j] = i == j ? 10.0 : (double)((i + 2 * j) % 5) / 4.0;
  kernel();
  for (int i = 0; i < 9; i++) for (int j = 0; j < 9; j++) printf("%.9f\n", A[i][j]);
  return 0;
}
"#;
    let r = same_output("lu", lu, "sizes=3,3,3");
    assert!(passed(&r).iter().any(|m| m.contains("in kernel transformed") && m.contains("band [0..3) tiled 3x3x3")), "{r:?}");
}

#[test]
fn parametric_nests_at_boundary_sizes_and_an_if() {
    let c = r#"
#include <stdio.h>
static int A[21][21], B[21][21], V[23];
__attribute__((noinline)) void mm(int n) {
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) for (int k = 0; k < n; k++) A[i][j] += B[i][k] * B[k][j];
}
__attribute__((noinline)) void stencil(int t_steps, int n) {
  for (int t = 0; t < t_steps; t++) for (int i = 1; i < n - 1; i++) V[i] = (V[i - 1] + 2 * V[i] + V[i + 1]) % 1001;
}
__attribute__((noinline)) void branchy(int n) {
  for (int i = 1; i < n; i++)
    for (int j = 0; j <= i; j++) {
      if (i + j < n) A[i][j] = A[i - 1][j] + B[i][j];
      else A[i][j] = A[i - 1][j] - 2 * B[j][i];
    }
}
int main(void) {
  int sizes[] = {0, 1, 2, 3, 5, 7, 13, 21};
  for (int s = 0; s < 8; s++) {
    int n = sizes[s];
    for (int i = 0; i < 21; i++) for (int j = 0; j < 21; j++) { A[i][j] = (i + 2 * j) % 9 - 4; B[i][j] = (3 * i + j) % 7 - 3; }
    for (int i = 0; i < 23; i++) V[i] = i * i % 17;
    mm(n); stencil(3, n); branchy(n);
    long sum = 0;
    for (int i = 0; i < 21; i++) for (int j = 0; j < 21; j++) sum = sum * 3 + A[i][j];
    for (int i = 0; i < 23; i++) sum = sum * 5 + V[i];
    printf("n=%d %ld\n", n, sum);
  }
  return 0;
}
"#;
    let r = same_output("bounds", c, "sizes=4,4,4");
    let p = passed(&r);
    for f in ["in mm transformed", "in stencil transformed", "in branchy transformed"] {
        assert!(p.iter().any(|m| m.contains(f)), "{f}: {r:?}");
    }
}

/// Function `f`'s text in `module`, metadata numbers left out (loop
/// properties added elsewhere in the module renumber them).
fn function(module: &str, f: &str) -> String {
    let start = module.find(&format!("@{f}(")).unwrap();
    let start = module[..start].rfind("define").unwrap();
    let text = &module[start..start + module[start..].find("\n}\n").unwrap()];
    let mut out = String::new();
    let mut after_bang = false;
    for ch in text.chars() {
        if !(after_bang && ch.is_ascii_digit()) {
            out.push(ch);
        }
        after_bang = ch == '!' || (after_bang && ch.is_ascii_digit());
    }
    out
}

#[test]
fn unsupported_scops_are_left_exactly_as_they_were() {
    let c = r#"
float A[64], B[64][64];
float sum(int n) { float s = 0; for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) s += B[i][j]; return s; }
void alias(float *a, float *b, int n) { for (int i = 1; i < n; i++) for (int j = 0; j < n; j++) a[i * 64 + j] = b[(i - 1) * 64 + j]; }
void small(void) { for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++) B[i][j] = A[j]; }
void copy(void) { for (int i = 0; i < 64; i++) A[i] = B[i][0]; }
"#;
    let before = canonical("unsupported", c);
    let (after, remarks) = transform(&before, "always");
    // Compared with the module parsed and printed again (use-list order shows in `; preds =`).
    let before = TestModule::parse(&before).text();
    let missed = |what: &str| remarks.iter().any(|r| r.0 == RemarkKind::Missed && r.1.contains(what));
    assert!(missed("in sum not transformed: scalar"), "{remarks:?}");
    for f in ["sum", "copy"] {
        assert_eq!(function(&before, f), function(&after, f), "{f} changed");
    }
    // A 1-d copy: the original schedule, nothing to tile.
    assert!(remarks.iter().any(|r| r.0 == RemarkKind::Analysis && r.1.contains("in copy left as it was: the schedule is the original order")), "{remarks:?}");
    // Data in L1D: nothing for tiling to gain, unless sizes are given.
    let t = TestModule::parse(&before);
    let opts = Options { l1d: Some(32768), ..Options::default() };
    let (_, remarks) = run(t.m, &opts);
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Analysis && r.msg.contains("in small left as it was: its arrays (16640 bytes) fit in L1D")));
    assert_eq!(function(&before, "small"), function(&t.text(), "small"));
}

#[test]
fn options_parse() {
    let o = Options::parse("sizes=16,8;default-size=4;always").unwrap();
    assert_eq!((o.sizes, o.default_size, o.always, o.tile), (vec![16, 8], 4, true, true));
    assert!(!Options::parse("no-tile").unwrap().tile);
    assert!(Options::default().interchange && !Options::parse("no-interchange").unwrap().interchange);
    assert!(Options::parse("sizes=0").is_err() && Options::parse("sizes=x").is_err() && Options::parse("bogus").is_err());
}

#[test]
fn automatic_tile_sizes_follow_the_cache_and_skip_what_would_not_vectorize() {
    let before = canonical("auto", MATMUL);
    let t = TestModule::parse(&before);
    // A 1 KB L1D: the model's tiles, the innermost loop (j, 11 long) whole.
    let opts = Options { l1d: Some(1024), lanes: 4, always: true, ..Options::default() };
    let (_, remarks) = run(t.m, &opts);
    let after = t.text();
    ir::verify(t.m).unwrap();
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("in kernel transformed") && r.msg.contains("tile sizes by seed 004's model") && r.msg.contains("whole")), "{:?}", remarks.iter().map(|r| &r.msg).collect::<Vec<_>>());
    assert_eq!(lli("auto", &before), lli("auto", &after));
    // A fused, skewed stencil: its innermost loop would carry a dependence.
    let jacobi = r#"
static float A[64], B[64];
void kernel(void) {
  for (int t = 0; t < 6; t++) {
    for (int i = 1; i < 63; i++) B[i] = 0.3f * (A[i - 1] + A[i] + A[i + 1]);
    for (int j = 1; j < 63; j++) A[j] = B[j];
  }
}
"#;
    let ir = canonical("auto-jacobi", jacobi);
    let t = TestModule::parse(&ir);
    let (_, remarks) = run(t.m, &opts);
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Analysis && r.msg.contains("left as it was: not worth it")), "{:?}", remarks.iter().map(|r| &r.msg).collect::<Vec<_>>());
}

#[test]
fn pointers_that_may_alias_get_a_run_time_check() {
    let c = r#"
#include <stdio.h>
static float X[40][64], Y[40][64];
__attribute__((noinline)) void smooth(int n, float (*dst)[64], float (*src)[64]) {
  for (int i = 1; i < n; i++)
    for (int j = 0; j < n; j++)
      dst[i][j] = src[i - 1][j] + 0.5f * src[i][j];
}
__attribute__((noinline)) void shift(int n, float (*a)[64], float (*b)[64]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i][j] = b[j][i] * 2.0f;
}
int main(void) {
  for (int r = 0; r < 4; r++) {
    for (int i = 0; i < 40; i++) for (int j = 0; j < 64; j++) { X[i][j] = (float)((i + j) % 13); Y[i][j] = (float)((i * j) % 7); }
    int n = 7 + 9 * r;
    if (r == 0) smooth(n, X, Y);
    if (r == 1) smooth(n, X, X);
    if (r == 2) shift(n, X, Y);
    if (r == 3) { shift(n, X, X + 3); smooth(n, Y + 1, Y); }
    double s = 0;
    for (int i = 0; i < 40; i++) for (int j = 0; j < 64; j++) s = s * 0.999 + X[i][j] + 3 * Y[i][j];
    printf("%d %.6f\n", r, s);
  }
  return 0;
}
"#;
    let r = same_output("alias", c, "sizes=4,4");
    let p = passed(&r);
    for f in ["in smooth transformed", "in shift transformed"] {
        assert!(p.iter().any(|m| m.contains(f) && m.contains("behind a run-time check that 1 pair(s) of arrays do not overlap")), "{f}: {r:?}");
    }
}

#[test]
fn dot_product_nests_beyond_l1d_get_an_interchange_schedule() {
    let c = r#"
#include <stdio.h>
static float A[12][14], B[14][13], T[12][13], C[13][11], D[12][11];
__attribute__((noinline)) void kernel(float alpha) {
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 13; j++) {
      T[i][j] = 0.0f;
      for (int k = 0; k < 14; k++)
        T[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (int i = 0; i < 12; i++)
    for (int l = 0; l < 11; l++) {
      D[i][l] *= 0.5f;
      for (int j = 0; j < 13; j++)
        D[i][l] += T[i][j] * C[j][l];
    }
}
int main(void) {
  for (int i = 0; i < 12; i++) for (int k = 0; k < 14; k++) A[i][k] = (float)((i * k + 1) % 7) / 4.0f;
  for (int k = 0; k < 14; k++) for (int j = 0; j < 13; j++) B[k][j] = (float)((k + 2 * j) % 5) / 2.0f;
  for (int j = 0; j < 13; j++) for (int l = 0; l < 11; l++) C[j][l] = (float)((j * l + 3) % 9) / 8.0f;
  for (int i = 0; i < 12; i++) for (int l = 0; l < 11; l++) D[i][l] = (float)((i + l) % 3);
  kernel(1.5f);
  for (int i = 0; i < 12; i++) for (int l = 0; l < 11; l++) printf("%a\n", D[i][l]);
  return 0;
}
"#;
    let before = canonical("interchange", c);
    let msgs = |r: &[crate::wfv::Remark]| r.iter().map(|r| format!("{:?}: {}", r.kind, r.msg)).collect::<Vec<_>>();
    // A 1 KB L1D (2mm): PLuTo's schedule fuses the two products, reductions innermost (not worth it); the interchange moves j and l inward.
    let t = TestModule::parse(&before);
    let (_, remarks) = run(t.m, &Options { l1d: Some(1024), lanes: 4, ..Options::default() });
    ir::verify(t.m).unwrap();
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Passed && r.msg.contains("in kernel transformed: interchange below loop level 1") && r.msg.contains("S1 (i2, i1), S3 (i2, i1)")), "{:?}", msgs(&remarks));
    assert_eq!(lli("interchange", &before), lli("interchange", &t.text()));
    // Switched off: left as it was, with PLuTo's reason.
    let t = TestModule::parse(&before);
    let (_, remarks) = run(t.m, &Options { l1d: Some(1024), lanes: 4, interchange: false, ..Options::default() });
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Analysis && r.msg.contains("in kernel left as it was: not worth it")), "{:?}", msgs(&remarks));
    // Arrays in L1D: gated like tiling.
    let t = TestModule::parse(&before);
    let (_, remarks) = run(t.m, &Options { l1d: Some(32768), lanes: 4, ..Options::default() });
    assert!(remarks.iter().any(|r| r.kind == RemarkKind::Analysis && r.msg.contains("in kernel left as it was: its arrays")), "{:?}", msgs(&remarks));
}
