//! Compiles the C++ entry point of the pass plugin (`shim/plugin.cpp`) with
//! the include directories and flags `llvm-config-19` reports.

use std::process::Command;

fn llvm_config(arg: &str) -> String {
    let prefix = std::env::var("LLVM_SYS_191_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-19".into());
    let candidates = [
        format!("{prefix}/bin/llvm-config"),
        "llvm-config-19".to_string(),
    ];
    for exe in &candidates {
        if let Ok(out) = Command::new(exe).arg(arg).output() {
            if out.status.success() {
                return String::from_utf8_lossy(&out.stdout).trim().to_string();
            }
        }
    }
    panic!("llvm-config-19 not found (run scripts/install-deps)");
}

fn main() {
    println!("cargo:rerun-if-changed=shim/plugin.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("shim/plugin.cpp")
        .include(llvm_config("--includedir"));
    for flag in llvm_config("--cxxflags").split_whitespace() {
        // Our warning and optimisation choices are cc's; keep LLVM's ABI flags.
        if !flag.starts_with("-I") && !flag.starts_with("-O") && !flag.starts_with("-W") {
            build.flag(flag);
        }
    }
    build.flag_if_supported("-Wno-unused-parameter");
    build.compile("dsp_plugin_shim");
}
