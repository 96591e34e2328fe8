//! SCoP detection (`print<dsp-scops>`) on C kernels: `tests/scop/kernels.c`
//! (PolyBench-style nests that must each be one SCoP, with the expected
//! loops, statements, domains and accesses) and `tests/scop/rejects.c`
//! (nests that must be rejected, each with its reason).
//!
//! The C is compiled by `clang-19 -O1 -Xclang -disable-llvm-passes` and put
//! in canonical form by a fixed list of LLVM passes, [`CANONICAL`], then
//! the printer runs in the same `opt-19`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The passes detection expects to have run: values in registers
/// (`mem2reg`), redundant loads merged (`early-cse`, so that a ternary
/// whose sides reload the same element becomes a `select` in
/// `simplifycfg`), `instcombine` (without opt's fixpoint check, which
/// aborts on some programs), loops with preheaders, dedicated exits and
/// LCSSA, rotated (a guard `if` and a bottom test) and their induction
/// variables canonical (`indvars`). No LICM: it would promote array
/// elements that a loop updates (`C[i][j] +=`) to scalars.
const CANONICAL: &str = "mem2reg,early-cse,simplifycfg,instcombine<no-verify-fixpoint>,loop-simplify,lcssa,loop-rotate,indvars";

fn plugin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap();
    let p = dir.join("libdsp_opt_passes.so");
    assert!(p.exists(), "{} not built", p.display());
    p
}

/// The printer's output (stdout) and the remarks (stderr) for `tests/scop/NAME.c`.
fn detect(name: &str) -> (String, String) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scop").join(format!("{name}.c"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/opt-passes-tests/scop");
    std::fs::create_dir_all(&dir).unwrap();
    // One file per test thread: tests run side by side.
    let thread = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let ll = dir.join(format!("{name}-{}-{thread}.ll", std::process::id()));
    let out = Command::new("clang-19")
        .args(["--target=hexagon-unknown-elf", "-g", "-fno-discard-value-names", "-O1", "-Xclang", "-disable-llvm-passes", "-S", "-emit-llvm", "-o"])
        .arg(&ll)
        .arg(&src)
        .output()
        .expect("clang-19");
    assert!(out.status.success(), "clang: {}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("opt-19")
        .arg(format!("-load-pass-plugin={}", plugin().display()))
        .arg(format!("-passes=function({CANONICAL}),print<dsp-scops>"))
        .args(["-pass-remarks-analysis=pluto", "-disable-output"])
        .arg(&ll)
        .output()
        .expect("opt-19");
    let _ = std::fs::remove_file(&ll);
    assert!(out.status.success(), "opt: {}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Function `f`'s part of the printer's output.
fn section<'a>(text: &'a str, f: &str) -> &'a str {
    let head = format!("function {f}:");
    let start = text.find(&head).unwrap_or_else(|| panic!("no '{head}' in:\n{text}"));
    let rest = &text[start + head.len()..];
    let end = rest.find("\nfunction ").map(|e| e + 1).unwrap_or(rest.len());
    &text[start..start + head.len() + end]
}

/// Expected lines, in order, each a substring of a line of `text`.
fn check(text: &str, lines: &[&str]) {
    let mut at = 0;
    for l in lines {
        match text[at..].find(l) {
            Some(i) => at += i + l.len(),
            None => panic!("'{l}' not found (in order) in:\n{text}"),
        }
    }
}

fn kernels() -> String {
    detect("kernels").0
}

#[test]
fn gemm_is_one_scop_with_two_statements() {
    let out = kernels();
    let expected = "function gemm: 1 scop(s), 0 rejected
scop 0 (%entry -> %for.end23)
  params: [n]
  arrays: C[64][64] 4B global; A[64][64] 4B global; B[64][64] 4B global
  loop L0 at %for.cond1.preheader depth 0: i0 >= 0; i0 <= n - 1
  loop L1 at %for.body4 depth 1 in L0: i1 >= 0; i1 <= n - 1
  loop L2 at %for.body9 depth 2 in L1: i2 >= 0; i2 <= n - 1
  S0 at %for.body4 loops [L0 L1] schedule [0 0 0]
    domain: n - 1 >= 0; i0 >= 0; -i0 + n - 1 >= 0; i1 >= 0; -i1 + n - 1 >= 0
    read C[i0][i1] 4B
    write C[i0][i1] 4B
  S1 at %for.body9 loops [L0 L1 L2] schedule [0 0 1 0]
    domain: n - 1 >= 0; i0 >= 0; -i0 + n - 1 >= 0; i1 >= 0; -i1 + n - 1 >= 0; i2 >= 0; -i2 + n - 1 >= 0
    read A[i0][i2] 4B
    read B[i2][i1] 4B
    read C[i0][i1] 4B
    write C[i0][i1] 4B
";
    assert_eq!(section(&out, "gemm"), expected);
}

#[test]
fn two_mm_is_two_nests_in_one_scop() {
    let out = kernels();
    check(
        section(&out, "mm2"),
        &[
            "1 scop(s), 0 rejected",
            "params: [ni nj nk]",
            "loop L2 at %for.body9 depth 2 in L1: i2 >= 0; i2 <= nk - 1",
            "loop L3 at %for.cond29.preheader depth 0: i0 >= 0; i0 <= ni - 1",
            "S0 at %for.body4 loops [L0 L1] schedule [0 0 0]",
            "write tmp[i0][i1]",
            "S1 at %for.body9 loops [L0 L1 L2] schedule [0 0 1 0]",
            "S2 at %for.body32 loops [L3 L4] schedule [1 0 0]",
            "S3 at %for.body40 loops [L3 L4 L5] schedule [1 0 1 0]",
            "read tmp[i0][i2] 4B",
            "read C[i2][i1] 4B",
            "write D[i0][i1] 4B",
        ],
    );
}

#[test]
fn stencils() {
    let out = kernels();
    check(
        section(&out, "jacobi1d"),
        &[
            "1 scop(s), 0 rejected",
            "arrays: a[*] 4B arg restrict; b[*] 4B arg restrict",
            "loop L1 at %for.body4 depth 1 in L0: i1 >= 1; i1 <= n - 2",
            "loop L2 at %for.body16 depth 1 in L0: i1 >= 1; i1 <= n - 2",
            "S0 at %for.body4 loops [L0 L1] schedule [0 0 0]",
            "domain: tsteps - 1 >= 0; i0 >= 0; -i0 + tsteps - 1 >= 0; n - 3 >= 0; i1 - 1 >= 0; -i1 + n - 2 >= 0",
            "read a[i1 - 1]",
            "read a[i1 + 1]",
            "write b[i1]",
            "S1 at %for.body16 loops [L0 L2] schedule [0 1 0]",
            "write a[i1]",
        ],
    );
    check(
        section(&out, "jacobi2d"),
        &["1 scop(s), 0 rejected", "S0 at", "loops [L0 L1 L2] schedule [0 0 0 0]", "read A[i1][i2 - 1]", "read A[i1 + 1][i2]", "write B[i1][i2]", "S1 at", "schedule [0 1 0 0]", "write A[i1][i2]"],
    );
    check(
        section(&out, "seidel2d"),
        &[
            "1 scop(s), 0 rejected",
            "loop L0 at %for.cond1.preheader depth 0: i0 >= 0; i0 <= tsteps - 1",
            "domain: tsteps - 1 >= 0; i0 >= 0; -i0 + tsteps - 1 >= 0; n - 3 >= 0; i1 - 1 >= 0; -i1 + n - 2 >= 0; i2 - 1 >= 0; -i2 + n - 2 >= 0",
            "read A[i1 - 1][i2 - 1]",
            "read A[i1 + 1][i2 + 1]",
            "write A[i1][i2]",
        ],
    );
}

#[test]
fn triangular_nests() {
    let out = kernels();
    check(
        section(&out, "lu"),
        &[
            "1 scop(s), 0 rejected",
            "loop L1 at %for.cond5.preheader depth 1 in L0: i1 >= 0; i1 <= i0 - 1",
            "loop L2 at %for.body8 depth 2 in L1: i2 >= 0; i2 <= i1 - 1",
            "loop L3 at %for.cond27.preheader depth 1 in L0: i1 >= i0; i1 <= n - 1",
            "S1 at %for.end loops [L0 L1] schedule [0 0 1]",
            "read A[i1][i1]",
            "S2 at %for.body30 loops [L0 L3 L4] schedule [0 1 0 0]",
        ],
    );
    // j <= i: the bound is a second induction variable (i + 1) of the outer loop.
    check(
        section(&out, "syrk"),
        &["1 scop(s), 0 rejected", "loop L1 at %for.body4 depth 1 in L0: i1 >= 0; i1 <= i0", "loop L3 at %for.body14 depth 2 in L2: i2 >= 0; i2 <= i0", "read A[i2][i1]"],
    );
    check(
        section(&out, "trmm"),
        &[
            "1 scop(s), 0 rejected",
            "arrays: a[*][64] 4B arg restrict; b[*][64] 4B arg restrict",
            "loop L2 at %for.body8 depth 2 in L1: i2 >= i0 + 1; i2 <= m - 1",
            "S0 at %for.body8 loops [L0 L1 L2] schedule [0 0 0 0]",
            "-i0 + m - 2 >= 0; -i0 + i2 - 1 >= 0; -i2 + m - 1 >= 0",
            "read a[i2][i0]",
            "read b[i2][i1]",
            "write b[i0][i1]",
            "S1 at %for.end loops [L0 L1] schedule [0 0 1]",
        ],
    );
}

#[test]
fn floyd_warshall_and_atax() {
    let out = kernels();
    check(
        section(&out, "floyd_warshall"),
        &["1 scop(s), 0 rejected", "arrays: p[*][64] 4B arg", "S0 at %for.body8 loops [L0 L1 L2]", "read p[i1][i2]", "read p[i1][i0]", "read p[i0][i2]", "write p[i1][i2]"],
    );
    check(
        section(&out, "atax"),
        &[
            "1 scop(s), 0 rejected",
            "S0 at %for.body loops [L0] schedule [0 0]",
            "write y[i0]",
            "S1 at %for.body5 loops [L1] schedule [1 0]",
            "S2 at %for.body10 loops [L1 L2] schedule [1 1 0]",
            "read x[i1]",
            "S3 at %for.body23 loops [L1 L3] schedule [1 2 0]",
            "write y[i1]",
        ],
    );
}

#[test]
fn affine_guard_splits_the_domain() {
    let out = kernels();
    check(
        section(&out, "guarded"),
        &[
            "1 scop(s), 0 rejected",
            "S0 at %if.then loops [L0 L1] schedule [0 0 0]",
            "-i1 + n - 1 >= 0; -i0 + i1 - 1 >= 0",
            "read B[i1][i0]",
            "S1 at %if.else loops [L0 L1] schedule [0 0 1]",
            "-i1 + n - 1 >= 0; i0 - i1 >= 0",
        ],
    );
}

#[test]
fn scalars_are_zero_dimensional_arrays() {
    let out = kernels();
    let expected = "function sum_reduction: 1 scop(s), 0 rejected
scop 0 (%entry -> ret)
  params: [n]
  arrays: s.0.lcssa.phi 4B phi; s.02.phi 4B phi; x[64] 4B global; split.phi 4B phi; out[*] 4B arg
  may-alias: x out
  loop L0 at %for.body depth 0: i0 >= 0; i0 <= n - 1
  S0 at %entry loops [] schedule [0]
    domain: true
    write s.0.lcssa.phi 4B
  S1 at %for.body.lr.ph loops [] schedule [1]
    domain: n - 1 >= 0
    write s.02.phi 4B
  S2 at %for.body loops [L0] schedule [2 0]
    domain: n - 1 >= 0; i0 >= 0; -i0 + n - 1 >= 0
    read s.02.phi 4B
    read x[i0] 4B
    write s.02.phi 4B
    write split.phi 4B
  S3 at %for.cond.for.end_crit_edge loops [] schedule [3]
    domain: n - 1 >= 0
    read split.phi 4B
    write s.0.lcssa.phi 4B
  S4 at %for.end loops [] schedule [4]
    domain: true
    read s.0.lcssa.phi 4B
    write out[0] 4B
";
    assert_eq!(section(&out, "sum_reduction"), expected);
}

#[test]
fn value_merged_after_an_if_is_a_phi_array() {
    check(
        section(&kernels(), "merge"),
        &[
            "arrays: x[64] 4B global; t.0.phi 4B phi; y[64] 4B global; t1[64] 4B global",
            "S0 at %if.then loops [L0] schedule [0 0]",
            "-i0 + 9 >= 0",
            "write t.0.phi 4B",
            "S1 at %if.else loops [L0] schedule [0 1]",
            "i0 - 10 >= 0",
            "write t.0.phi 4B",
            "S2 at %if.end loops [L0] schedule [0 2]",
            "read t.0.phi 4B",
            "write t1[i0] 4B",
        ],
    );
}

#[test]
fn constant_steps_count_iterations() {
    let out = kernels();
    check(
        section(&out, "strided"),
        &[
            "loop L0 at %for.cond1.preheader depth 0 step 3: i0 >= 0; 3*i0 >= 0; -3*i0 + n - 1 >= 0",
            "loop L1 at %for.body4 depth 1 in L0: i1 >= 3*i0 + 1; i1 <= n - 1",
            "-3*i0 + i1 - 1 >= 0",
            "read x[i1]",
            "write tmp[3*i0 + 1][i1]",
        ],
    );
    check(section(&out, "down_by_four"), &["step -4: i0 >= 0; -4*i0 + n - 1 >= 0; 4*i0 >= 0", "write y[-4*i0 + n] 4B"]);
}

#[test]
fn equality_guard() {
    check(section(&kernels(), "diagonal"), &["S0 at %if.then loops [L0 L1] schedule [0 0 0]", "-i1 + n - 1 >= 0; i0 - i1 == 0"]);
}

#[test]
fn linearized_min_bound_and_reverse_loops() {
    let out = kernels();
    check(section(&out, "linearized"), &["1 scop(s)", "loop L1 at %for.body4 depth 1 in L0: i1 >= 0; i1 <= 47", "read b[i0 + 48*i1] 4B", "write a[48*i0 + i1] 4B"]);
    check(section(&out, "bounded_min"), &["1 scop(s)", "loop L1 at %for.body6 depth 1 in L0: i1 >= 0; i1 <= m - 1; i1 <= i0 + 7"]);
    // `A[i][j]` and `(&A[0][0])[i * 64 + j + 1]`: the global's own shape.
    check(section(&out, "mixed_shapes"), &["arrays: A[64][64] 4B global", "read A[i0][i1 + 1] 4B", "write A[i0][i1] 4B"]);
    check(section(&out, "reverse"), &["1 scop(s)", "loop L0 at %for.body depth 0 step -1: i0 >= 0; i0 <= n - 1", "read y[-i0 + n - 1]", "write x[i0]"]);
}

#[test]
fn every_kernel_is_a_scop() {
    let out = kernels();
    for f in ["gemm", "mm2", "jacobi1d", "jacobi2d", "seidel2d", "lu", "syrk", "trmm", "floyd_warshall", "atax", "guarded", "linearized", "bounded_min", "reverse", "mixed_shapes", "diagonal", "sum_reduction", "merge", "strided", "down_by_four"] {
        check(section(&out, f), &["1 scop(s), 0 rejected"]);
    }
}

#[test]
fn rejections_name_their_reason() {
    let (out, remarks) = detect("rejects");
    let cases = [
        ("square_subscript", "non-affine-subscript: subscript of store float 1.000000e+00, ptr %arrayidx, align 4 is not affine (%mul)"),
        ("data_bound", "non-affine-bound: loop bound %1 depends on load %1 (data-dependent)"),
        ("impure", "impure-call: call to @opaque may have side effects"),
        ("indirect", "indirect-access"),
        ("data_condition", "non-affine-condition"),
        ("vol", "volatile-or-atomic"),
        ("do_while", "non-affine-bound: upper bound %smax is a maximum"),
        ("mixed_sizes", "unsupported: %p is accessed with elements of different sizes"),
        ("narrow", "non-affine-subscript: subscript of store float 0.000000e+00, ptr %arrayidx, align 4 is not affine (%idxprom)"),
    ];
    for (f, reason) in cases {
        let s = section(&out, f);
        check(s, &["0 scop(s)", "reject loop %", reason]);
    }
    check(section(&out, "indirect"), &["depends on load %0 (indirect access)"]);
    // The remarks carry the reasons, at the source lines.
    check(&remarks, &["rejects.c:9:", "is not a SCoP (non-affine-subscript)", "rejects.c:20:", "(impure-call): call to @opaque"]);
}

#[test]
fn may_alias_pairs_are_recorded_not_rejected() {
    let (out, _) = detect("rejects");
    check(section(&out, "may_alias"), &["1 scop(s), 0 rejected", "arrays: b[*] 4B arg; a[*] 4B arg", "may-alias: b a"]);
    // restrict arguments and globals: no pair.
    assert!(!section(&kernels(), "jacobi1d").contains("may-alias"));
    assert!(!section(&kernels(), "gemm").contains("may-alias"));
}

#[test]
fn final_value_of_an_induction_variable_splits_the_region() {
    let (out, _) = detect("rejects");
    check(section(&out, "after_loop"), &["2 scop(s), 0 rejected", "scop 1 (%for.body10 -> %for.end15)", "params: [i.0.lcssa]", "write B[i0 + i.0.lcssa] 4B"]);
}

#[test]
fn inner_nest_of_a_rejected_loop_is_a_scop() {
    let (out, _) = detect("rejects");
    check(
        section(&out, "inner_only"),
        &["1 scop(s), 1 rejected", "params: [n]", "S0 at %for.body8 loops [L0 L1] schedule [0 0 0]", "read B[i1]", "write A[i0][i1]", "reject loop %for.body impure-call"],
    );
}

/// clang with `-mllvm -dsp-scops`: the canonical passes and detection at
/// the pipeline-start point, the results as `-Rpass-analysis=pluto`
/// remarks; without the option nothing runs.
#[test]
fn clang_remarks_with_dsp_scops() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scop/rejects.c");
    let clang = |extra: &[&str]| {
        let p = plugin();
        let out = Command::new("clang-19")
            .args(["--target=hexagon-unknown-elf", "-O2", "-g", "-c", "-o", "/dev/null", "-Rpass-analysis=pluto", "-Xclang", "-load", "-Xclang"])
            .arg(&p)
            .arg(format!("-fpass-plugin={}", p.display()))
            .args(extra)
            .arg(&src)
            .output()
            .expect("clang-19");
        assert!(out.status.success(), "clang: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stderr).unwrap()
    };
    let on = clang(&["-mllvm", "-dsp-scops"]);
    check(
        &on,
        &[
            "rejects.c:9:14: remark: loop at %4 is not a SCoP (non-affine-subscript)",
            "rejects.c:20:5: remark: loop at %4 is not a SCoP (impure-call): call to @opaque may have side effects [-Rpass-analysis=pluto]",
            "(indirect-access)",
            "remark: SCoP with 1 loop(s) and 1 statement(s) in may_alias",
            "remark: SCoP with 2 loop(s) and 1 statement(s) in inner_only",
        ],
    );
    assert!(!clang(&[]).contains("[-Rpass-analysis=pluto]"));
}

#[test]
fn more_polybench_kernels_are_scops() {
    let out = detect("more").0;
    for f in ["mm3", "syr2k", "gemver", "mvt", "bicg", "doitgen", "covariance", "fdtd2d", "heat3d"] {
        check(section(&out, f), &["1 scop(s), 0 rejected"]);
    }
    check(section(&out, "mm3"), &["S5 at", "loops [L6 L7 L8] schedule [2 0 1 0]", "read E[i0][i2]", "read F[i2][i1]", "write G[i0][i1]"]);
    check(section(&out, "doitgen"), &["arrays: sum[32] 4B global; R[32][32][32] 4B global", "read R[i0][i1][i3]", "write R[i0][i1][i2]"]);
    check(section(&out, "covariance"), &["loop L5 at %for.body40 depth 1 in L4: i1 >= i0; i1 <= m - 1", "S6 at %for.end55 loops [L4 L5] schedule [2 0 2]", "write cov[i1][i0]"]);
    // `ey[0][j]` reaches the global through its first row: still two subscripts.
    check(section(&out, "fdtd2d"), &["ey[32][32] 4B global", "read fict[i0]", "write ey[0][i1]", "read hz[i1 - 1][i2]", "read ey[i1 + 1][i2]"]);
    check(section(&out, "heat3d"), &["loop L0 at %for.cond1.preheader depth 0: i0 >= 1; i0 <= tsteps", "read H1[i1 + 1][i2][i3]", "write H2[i1][i2][i3]"]);
    // sqrtf may set errno: the outer loop is rejected, the two nests inside
    // it are SCoPs, with the conditions around them as context (i > 0).
    check(
        section(&out, "cholesky"),
        &[
            "2 scop(s), 1 rejected",
            "scop 0 (%for.cond5.preheader -> ",
            "params: [n i.09]",
            "domain: n - 1 >= 0; i.09 - 1 >= 0; i0 >= 0; -i0 + i.09 - 1 >= 0; i0 - 1 >= 0; i1 >= 0; i0 - i1 - 1 >= 0",
            "scop 1 (%for.cond22.preheader -> %for.end35)",
            "S0 at %for.body25 loops [L0]",
            "reject loop %for.cond1.preheader impure-call: call to @sqrtf may have side effects",
        ],
    );
}
