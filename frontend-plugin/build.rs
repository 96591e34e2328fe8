//! Compiles the C++ shim (`shim/plugin.cpp`) against clang 19's and LLVM
//! 19's headers (`llvm-config-19 --includedir`; Debian's libclang-19-dev and
//! llvm-19-dev) and links the shared object against the libclang-cpp and
//! libLLVM that clang-19 itself loads.

#[path = "../opt-passes/llvm_config.rs"]
mod llvm_config;
use llvm_config::llvm_config;

fn main() {
    println!("cargo:rerun-if-changed=shim/plugin.cpp");
    println!("cargo:rerun-if-changed=../opt-passes/llvm_config.rs");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    let include = llvm_config("--includedir");
    if !std::path::Path::new(&include).join("clang/Lex/Pragma.h").exists() {
        panic!("clang 19 headers not found in {include} (install libclang-19-dev: scripts/install-deps)");
    }
    let mut build = cc::Build::new();
    build.cpp(true).file("shim/plugin.cpp").include(&include);
    for flag in llvm_config("--cxxflags").split_whitespace() {
        // Our warning and optimisation choices are cc's; keep LLVM's ABI flags.
        if !flag.starts_with("-I") && !flag.starts_with("-O") && !flag.starts_with("-W") {
            build.flag(flag);
        }
    }
    build.flag_if_supported("-Wno-unused-parameter");
    build.compile("dsp_frontend_shim");
    // The libraries clang-19 is linked with (Debian ships libclang-cpp only
    // under its versioned name without libclang-cpp19-dev).
    let libdir = llvm_config("--libdir");
    println!("cargo:rustc-link-search=native={libdir}");
    let version = llvm_config("--version");
    let major_minor: String = version.split('.').take(2).collect::<Vec<_>>().join(".");
    println!("cargo:rustc-link-lib=dylib:+verbatim=libclang-cpp.so.{major_minor}");
    println!("cargo:rustc-link-lib=dylib=LLVM");
}
