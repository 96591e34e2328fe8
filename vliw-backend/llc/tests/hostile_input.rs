//! IR that LLVM's own tools reject is rejected by dsp-llc with a located
//! `error:` and exit status 1, never a crash (issue 14, item 4).

use std::path::PathBuf;
use std::process::{Command, Output};

fn llc_on(name: &str, ir: &str, extra: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("dsp-llc-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input: PathBuf = dir.join(name);
    std::fs::write(&input, ir).unwrap();
    Command::new(env!("CARGO_BIN_EXE_dsp-llc"))
        .args(extra)
        .arg(&input)
        .arg("-o")
        .arg(dir.join(format!("{name}.s")))
        .current_dir(&dir)
        .output()
        .unwrap()
}

fn rejected(name: &str, ir: &str, want: &str) {
    let out = llc_on(name, ir, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{name}: {err}");
    assert!(err.contains(want), "{name}: {err}");
}

/// Crashed with SIGSEGV inside LLVM's parser (llvm-as-19: "use of undefined value").
#[test]
fn huge_value_number_is_an_error() {
    let ir = "define void @f() {\n  store i32 %4294967295, ptr null\n  ret void\n}\n";
    rejected("num.ll", ir, "num.ll:2:13: error: value number '%4294967295' is too large");
    let ir = "define void @f() {\n  store i32 %4294967294, ptr null\n  ret void\n}\n";
    rejected("num2.ll", ir, "num2.ll:2:13: error:");
    let ir = "define void @f() {\n  store i32 %7, ptr null\n  ret void\n}\n";
    rejected("num3.ll", ir, "num3.ll:2:13: error: use of undefined value '%7'");
}

/// Overflowed dsp-llc's stack.
#[test]
fn type_nested_100000_deep_is_an_error() {
    let n = 100_000;
    let ir = format!("@g = global {}i32{} zeroinitializer\n", "[1 x ".repeat(n), "]".repeat(n));
    rejected("deep.ll", &ir, "deep.ll:1:");
    rejected("deep.ll", &ir, "error: brackets nested more than");
    let ir = format!("@g = global i32 ptrtoint (ptr {}@g{} to i32)\n", "getelementptr (i8, ptr ".repeat(n), ", i32 1)".repeat(n));
    rejected("deepexpr.ll", &ir, "error: brackets nested more than");
}

/// Nesting below the limit compiles: the backend itself does not recurse past it.
#[test]
fn type_nested_near_the_limit_compiles() {
    let n = 200;
    let ir = format!(
        "@g = global {}i32{} zeroinitializer\ndefine i32 @main() {{\n  %v = load i32, ptr @g\n  ret i32 %v\n}}\n",
        "[1 x ".repeat(n),
        "]".repeat(n)
    );
    let out = llc_on("nested.ll", &ir, &["-O2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Parses, but LLVM's verifier (as opt runs it) rejects it.
#[test]
fn invalid_module_is_an_error() {
    let ir = "define i32 @f() {\n  %a = add i32 %b, 1\n  %b = add i32 %a, 1\n  ret i32 %a\n}\n";
    rejected("bad.ll", ir, "bad.ll: error: invalid module: ");
}

/// Issue 14, item 5: "cannot lower" names the thing (an alias gave
/// "in function '': cannot lower ''"), and a global larger than the
/// machine's memory says so instead of blaming the compiler's assembly.
#[test]
fn cannot_lower_messages_name_the_thing() {
    let ir = "@g = global i32 1\n@a = alias i32, ptr @g\ndefine i32 @main() {\n  %v = load i32, ptr @a\n  ret i32 %v\n}\n";
    rejected("alias.ll", ir, "error: cannot lower '@a': global aliases are not supported (an alias of @g)");
    let out = llc_on("alias.ll", ir, &[]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("''"));
    let ir = "@big = global [1073741824 x i8] zeroinitializer\ndefine i32 @main() {\n  %v = load i8, ptr @big\n  %w = zext i8 %v to i32\n  ret i32 %w\n}\n";
    for o in ["-O0", "-O2"] {
        let out = llc_on("big.ll", ir, &[o]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("error: cannot lower '@big': 1073741824 bytes: too large for the machine's memory (67104768 bytes available)"),
            "{err}"
        );
        assert!(!err.contains("backend bug"), "{err}");
    }
}
