//! Compiles the C++ entry point of the pass plugin (`shim/plugin.cpp`) with
//! the include directories and flags `llvm-config-19` reports.

#[path = "llvm_config.rs"]
mod llvm_config;
use llvm_config::llvm_config;

fn main() {
    println!("cargo:rerun-if-changed=shim/plugin.cpp");
    println!("cargo:rerun-if-changed=llvm_config.rs");
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
