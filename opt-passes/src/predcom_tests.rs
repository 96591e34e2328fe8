//! Unit tests of `dsp-predcom`: which loads it carries, which sums it
//! carries instead, and the loops it must leave alone.

use crate::testutil::{check_in_order, run_pass_on};

/// A one-block row loop: `y[r] = Σ_d k_d · x[(r + d)·w + c]` for rows
/// `d` in `rows`, over `ty` (`i32` or `float`), `x` `restrict` or not, and
/// optionally a store into `x` itself.
fn stencil(ty: &str, rows: &[i32], restrict: bool, store_x: bool) -> String {
    let (mul, add, zero) = if ty == "float" { ("fmul", "fadd", "0.0") } else { ("mul", "add", "0") };
    let noalias = if restrict { "noalias " } else { "" };
    let mut body = String::new();
    let mut acc = zero.to_string();
    for (j, d) in rows.iter().enumerate() {
        body += &format!(
            "  %r{j} = add i32 %r, {d}
  %o{j} = mul i32 %r{j}, %w
  %i{j} = add i32 %o{j}, %c
  %p{j} = getelementptr inbounds {ty}, ptr %x, i32 %i{j}
  %v{j} = load {ty}, ptr %p{j}, align 4
  %m{j} = {mul} {ty} %v{j}, %k{j}
  %s{j} = {add} {ty} {acc}, %m{j}
"
        );
        acc = format!("%s{j}");
    }
    let params: String = (0..rows.len()).map(|j| format!(", {ty} %k{j}")).collect();
    let store_x = if store_x { format!("  store {ty} {acc}, ptr %p0, align 4\n") } else { String::new() };
    format!(
        "define void @f(ptr {noalias}%x, ptr {noalias}%y, i32 %w, i32 %c, i32 %n{params}) {{
entry:
  br label %body
body:
  %r = phi i32 [ 0, %entry ], [ %r.next, %body ]
{body}  %py = getelementptr inbounds {ty}, ptr %y, i32 %r
  store {ty} {acc}, ptr %py, align 4
{store_x}  %r.next = add nuw nsw i32 %r, 1
  %done = icmp eq i32 %r.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret void
}}
"
    )
}

fn loads_in_body(text: &str) -> usize {
    let body = text.split("body:").nth(1).unwrap_or("").split("exit:").next().unwrap_or("");
    body.lines().filter(|l| l.contains(" = load ")).count()
}

#[test]
fn integer_rows_keep_one_load_and_carry_their_sums() {
    let out = run_pass_on("dsp-predcom", &stencil("i32", &[0, 1, 2], true, false), "ftm");
    assert_eq!(loads_in_body(&out), 1, "{out}");
    // The rows' sums are carried (one phi for the row one ahead, two for
    // the row two ahead), started before the loop from its first iteration.
    assert_eq!(out.matches("= phi i32").count(), 1 + 3, "{out}");
    check_in_order(&out, &["entry:", "load i32", "load i32", "body:", "%pc.sum.", "load i32", "store i32"]);
}

#[test]
fn float_rows_carry_their_loads_and_keep_the_sum_in_order() {
    let out = run_pass_on("dsp-predcom", &stencil("float", &[0, 1, 2], true, false), "ftm");
    assert_eq!(loads_in_body(&out), 1, "{out}");
    // No reassociation for floats: the loads are carried (two values), the
    // additions stay as they were.
    assert_eq!(out.matches("= phi float").count(), 2, "{out}");
    assert!(!out.contains("pc.sum"), "{out}");
    check_in_order(&out, &["%s0 = fadd float 0.0", "%s1 = fadd float %s0", "%s2 = fadd float %s1"]);
}

#[test]
fn a_store_to_the_object_keeps_its_loads() {
    let out = run_pass_on("dsp-predcom", &stencil("i32", &[0, 1, 2], true, true), "ftm");
    assert_eq!(loads_in_body(&out), 3, "{out}");
}

#[test]
fn pointers_that_may_overlap_keep_their_loads() {
    let out = run_pass_on("dsp-predcom", &stencil("i32", &[0, 1, 2], false, false), "ftm");
    assert_eq!(loads_in_body(&out), 3, "{out}");
}

#[test]
fn a_gap_between_rows_keeps_the_loads() {
    // Rows 0 and 2: the value of row 2 would have to be carried through an
    // iteration that loads nothing at row 1's place.
    let out = run_pass_on("dsp-predcom", &stencil("i32", &[0, 2], true, false), "ftm");
    assert_eq!(loads_in_body(&out), 2, "{out}");
}
